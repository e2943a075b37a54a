package sidecar

import (
	"context"
	"errors"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/builders"
)

// ValidateAll validates every enabled provider, in injection order, and
// joins what they report. Call it before the StatefulSet is applied: pods
// that mount a missing ConfigMap or Secret would only fail to start.
//
// A *MissingObjectError, and a *builders.ValidationError a provider
// returns itself, come back as a *builders.ValidationError (whose cause is
// the original error), so a caller fails the role group instead of
// retrying; its Field is the field that named the object, or
// "sidecars[<name>]" when the framework derived it. Any other error is
// wrapped with the provider's name and should be retried.
func (m *Manager) ValidateAll(ctx context.Context, r client.Reader, target Target) error {
	var errs []error
	for _, p := range m.ordered() {
		err := p.Validate(ctx, r, target)
		if err == nil {
			continue
		}
		var verr *builders.ValidationError
		var missing *MissingObjectError
		switch {
		case errors.As(err, &verr):
			errs = append(errs, err)
		case errors.As(err, &missing):
			field := missing.Field
			if field == "" {
				field = fmt.Sprintf("sidecars[%s]", p.Name())
			}
			errs = append(errs, &builders.ValidationError{
				Field:   field,
				Message: fmt.Sprintf("sidecar %q cannot start", p.Name()),
				Err:     err,
			})
		default:
			errs = append(errs, fmt.Errorf("validate sidecar %q: %w", p.Name(), err))
		}
	}
	return errors.Join(errs...)
}

// RequireConfigMap checks that the ConfigMap namespace/name exists and
// holds every key (in data or binaryData). What is missing is a
// *MissingObjectError carrying field; a failed read is returned wrapped.
func RequireConfigMap(ctx context.Context, r client.Reader, namespace, name, field string, keys ...string) error {
	cm := &corev1.ConfigMap{}
	if err := r.Get(ctx, client.ObjectKey{Namespace: namespace, Name: name}, cm); err != nil {
		if apierrors.IsNotFound(err) {
			return &MissingObjectError{Kind: "ConfigMap", Namespace: namespace, Name: name, Field: field}
		}
		return fmt.Errorf("read ConfigMap %s/%s: %w", namespace, name, err)
	}
	for _, k := range keys {
		_, inData := cm.Data[k]
		_, inBinary := cm.BinaryData[k]
		if !inData && !inBinary {
			return &MissingObjectError{Kind: "ConfigMap", Namespace: namespace, Name: name, Key: k, Field: field}
		}
	}
	return nil
}

// RequireSecret checks that the Secret namespace/name exists and holds
// every key. What is missing is a *MissingObjectError carrying field; a
// failed read is returned wrapped.
func RequireSecret(ctx context.Context, r client.Reader, namespace, name, field string, keys ...string) error {
	s := &corev1.Secret{}
	if err := r.Get(ctx, client.ObjectKey{Namespace: namespace, Name: name}, s); err != nil {
		if apierrors.IsNotFound(err) {
			return &MissingObjectError{Kind: "Secret", Namespace: namespace, Name: name, Field: field}
		}
		return fmt.Errorf("read Secret %s/%s: %w", namespace, name, err)
	}
	for _, k := range keys {
		_, inData := s.Data[k]
		_, inString := s.StringData[k]
		if !inData && !inString {
			return &MissingObjectError{Kind: "Secret", Namespace: namespace, Name: name, Key: k, Field: field}
		}
	}
	return nil
}
