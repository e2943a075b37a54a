package vector

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/validation"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// AddressKey is the key of the aggregator's address in the discovery
// ConfigMap a cluster names.
const AddressKey = "ADDRESS"

// The causes of a failed discovery; test for them with errors.Is.
var (
	// ErrConfigMapNotFound: the named ConfigMap does not exist (yet).
	ErrConfigMapNotFound = errors.New("ConfigMap not found")
	// ErrAddressMissing: the ConfigMap has no ADDRESS key, or it is empty.
	ErrAddressMissing = errors.New("no " + AddressKey + " key")
	// ErrAddressInvalid: the ADDRESS value is not host:port.
	ErrAddressInvalid = errors.New("not a host:port address")
)

// DiscoveryError reports why the aggregator address could not be read from
// the discovery ConfigMap.
type DiscoveryError struct {
	// Namespace and ConfigMap locate the discovery ConfigMap.
	Namespace, ConfigMap string
	// Err is the cause: wraps ErrConfigMapNotFound, ErrAddressMissing or
	// ErrAddressInvalid, or is the failed read.
	Err error
}

// Error implements error.
func (e *DiscoveryError) Error() string {
	return fmt.Sprintf("vector aggregator discovery ConfigMap %s/%s: %v", e.Namespace, e.ConfigMap, e.Err)
}

// Unwrap returns the cause.
func (e *DiscoveryError) Unwrap() error { return e.Err }

// DiscoverAggregator reads the aggregator's address from the ADDRESS key
// of the ConfigMap namespace/name and validates it. Every failure is a
// *DiscoveryError; a missing ConfigMap may yet be created, a missing key or
// a bad value needs its owner to fix it.
func DiscoverAggregator(ctx context.Context, r client.Reader, namespace, name string) (string, error) {
	cm := &corev1.ConfigMap{}
	if err := r.Get(ctx, client.ObjectKey{Namespace: namespace, Name: name}, cm); err != nil {
		if apierrors.IsNotFound(err) {
			err = ErrConfigMapNotFound
		}
		return "", &DiscoveryError{Namespace: namespace, ConfigMap: name, Err: err}
	}
	addr := cm.Data[AddressKey]
	if addr == "" {
		return "", &DiscoveryError{Namespace: namespace, ConfigMap: name, Err: ErrAddressMissing}
	}
	if err := ValidateAddress(addr); err != nil {
		return "", &DiscoveryError{Namespace: namespace, ConfigMap: name, Err: fmt.Errorf("%s: %w", AddressKey, err)}
	}
	return addr, nil
}

// ValidateAddress checks that addr is host:port: the host a DNS name or an
// IP address (IPv6 in brackets), the port a number in 1–65535. A failure
// wraps ErrAddressInvalid.
func ValidateAddress(addr string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("%q is %w: %v", addr, ErrAddressInvalid, err)
	}
	if host == "" {
		return fmt.Errorf("%q is %w: the host is empty", addr, ErrAddressInvalid)
	}
	if net.ParseIP(host) == nil {
		if msgs := validation.IsDNS1123Subdomain(host); len(msgs) > 0 {
			return fmt.Errorf("%q is %w: host %q is neither an IP address nor a DNS name", addr, ErrAddressInvalid, host)
		}
	}
	n, err := strconv.Atoi(port)
	if err != nil || n < 1 || n > 65535 {
		return fmt.Errorf("%q is %w: port %q is not a number in 1-65535", addr, ErrAddressInvalid, port)
	}
	return nil
}
