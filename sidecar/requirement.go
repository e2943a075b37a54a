package sidecar

import (
	"errors"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/opkit-dev/opkit/api/failure"
)

// ObjectKind is the kind of object a Requirement names.
type ObjectKind string

// The kinds a requirement can name.
const (
	KindConfigMap ObjectKind = "ConfigMap"
	KindSecret    ObjectKind = "Secret"
)

// MissingObjectRequeueDelay is how long a caller waits before looking again
// for an object the framework names that is not there yet (see
// Requirement.Check).
const MissingObjectRequeueDelay = 5 * time.Second

// Requirement is an object a provider's additions need, as data: the
// caller reads it and judges it with Check, so the provider stays pure.
type Requirement struct {
	// Kind is KindConfigMap or KindSecret.
	Kind ObjectKind
	// Namespace and Name locate the object.
	Namespace, Name string
	// Keys must all be present (ConfigMap data or binaryData, Secret data).
	Keys []string
	// Field is the absolute path of the field of the cluster resource that
	// named the object, as the user wrote it, such as
	// "spec.roles.broker.config.credentialsSecret"; empty when the
	// framework or the operator chose the name.
	Field string
	// NamedBy is who chose the name: failure.AuthorUser when Field names
	// it, failure.AuthorOperator for the framework's own objects (the role
	// group's ConfigMap) and the operator's options. Anything but
	// failure.AuthorUser counts as the framework.
	NamedBy failure.Author
	// Provider is the name of the provider that needs the object;
	// Plan.Requirements fills it in.
	Provider string
}

// Object is what a Requirement is judged against: a *corev1.ConfigMap or a
// *corev1.Secret. Its method set is controller-runtime's client.Object, so
// a value of it can be read into with a client directly.
type Object interface {
	metav1.Object
	runtime.Object
}

// NewObject returns an empty object of the requirement's kind, named and
// namespaced as required, to read into.
func (r Requirement) NewObject() Object {
	meta := metav1.ObjectMeta{Namespace: r.Namespace, Name: r.Name}
	if r.Kind == KindSecret {
		return &corev1.Secret{ObjectMeta: meta}
	}
	return &corev1.ConfigMap{ObjectMeta: meta}
}

// Check judges obj, the object read for the requirement, or nil when the
// read found none (NotFound). It returns nil when the object exists and
// holds every key, else a *MissingObjectError whose class follows who
// named the object:
//
//   - named by the user (Field set): failure.ErrInvalid, blamed on the
//     user and naming Field, whether the object or a key is missing. The
//     pods would only crash-loop on the missing mount; the user is told
//     where they look, and the caller checks again on its next pass, so
//     creating the object heals the cluster without touching the resource;
//   - named by the framework or the operator, and absent: failure.ErrRequeue
//     after MissingObjectRequeueDelay: the reconciler applies the role
//     group's objects itself, so absence means its write is not visible
//     yet, not a mistake;
//   - named by the framework or the operator, and lacking a key:
//     failure.ErrInvalid, blamed on the operator, whose product did not
//     write what its sidecar reads.
//
// An object of another kind than Kind is an operator error too.
func (r Requirement) Check(obj Object) error {
	var (
		kind ObjectKind
		keys func(string) bool
	)
	switch o := obj.(type) {
	case nil:
		return &MissingObjectError{Requirement: r}
	case *corev1.ConfigMap:
		if o == nil {
			return &MissingObjectError{Requirement: r}
		}
		kind = KindConfigMap
		keys = func(k string) bool {
			_, inData := o.Data[k]
			_, inBinary := o.BinaryData[k]
			return inData || inBinary
		}
	case *corev1.Secret:
		if o == nil {
			return &MissingObjectError{Requirement: r}
		}
		kind = KindSecret
		keys = func(k string) bool {
			_, inData := o.Data[k]
			_, inString := o.StringData[k]
			return inData || inString
		}
	}
	if kind != r.Kind {
		return failure.Invalid(failure.AuthorOperator, "sidecars["+r.Provider+"]",
			"the requirement of %s %s/%s was checked against a %T", r.Kind, r.Namespace, r.Name, obj)
	}
	var missing []string
	for _, k := range r.Keys {
		if !keys(k) {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		return &MissingObjectError{Requirement: r, Keys: missing}
	}
	return nil
}

// CheckAll judges every requirement against what fetch returns for it and
// joins the failures. fetch reads the object (nil, nil when there is none;
// read it into r.NewObject()) and returns a failed read as its error,
// classified by the caller (api/failure/apierr.Classify), which CheckAll
// passes on unchanged.
func CheckAll(reqs []Requirement, fetch func(r Requirement) (Object, error)) error {
	var errs []error
	for _, r := range reqs {
		obj, err := fetch(r)
		if err != nil {
			errs = append(errs, fmt.Errorf("read %s %s/%s for sidecar %q: %w", r.Kind, r.Namespace, r.Name, r.Provider, err))
			continue
		}
		if err := r.Check(obj); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
