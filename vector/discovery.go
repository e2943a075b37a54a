package vector

import (
	"errors"
	"fmt"
	"net"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/sidecar"
)

// AddressKey is the key of the aggregator's address in the discovery
// ConfigMap a cluster names.
const AddressKey = "ADDRESS"

// AggregatorField is the field of the cluster resource that names the
// discovery ConfigMap (commonsv1alpha1.ClusterSpec.VectorAggregatorConfigMapName).
var AggregatorField = commonsv1alpha1.LayerCluster.FieldPath("", "", "vectorAggregatorConfigMapName")

// The causes of a failed discovery; test for them with errors.Is.
var (
	// ErrConfigMapNotFound: the named ConfigMap does not exist.
	ErrConfigMapNotFound = errors.New("ConfigMap not found")
	// ErrAddressMissing: the ConfigMap has no ADDRESS key, or it is empty.
	ErrAddressMissing = errors.New("no " + AddressKey + " key")
	// ErrAddressInvalid: the ADDRESS value is not host:port.
	ErrAddressInvalid = errors.New("not a host:port address")
)

// DiscoveryError reports why the aggregator address could not be taken from
// the discovery ConfigMap. The user named that ConfigMap, so it is of class
// failure.ErrInvalid, blamed on the user and naming AggregatorField, as
// every missing object a user names is (see sidecar.Requirement.Check).
type DiscoveryError struct {
	// Namespace and ConfigMap locate the discovery ConfigMap.
	Namespace, ConfigMap string
	// Err is the cause: wraps ErrConfigMapNotFound, ErrAddressMissing or
	// ErrAddressInvalid.
	Err error
}

// Error implements error.
func (e *DiscoveryError) Error() string {
	return fmt.Sprintf("%s: Vector aggregator discovery ConfigMap %s/%s: %v", AggregatorField, e.Namespace, e.ConfigMap, e.Err)
}

// Unwrap returns the cause.
func (e *DiscoveryError) Unwrap() error { return e.Err }

// Is reports the class failure.ErrInvalid.
func (e *DiscoveryError) Is(target error) bool { return target == failure.ErrInvalid }

// Blame returns failure.AuthorUser.
func (e *DiscoveryError) Blame() failure.Author { return failure.AuthorUser }

// FieldPath returns AggregatorField.
func (e *DiscoveryError) FieldPath() string { return AggregatorField }

// AggregatorRequirement returns the discovery ConfigMap the cluster names,
// configMap (spec.vectorAggregatorConfigMapName), in scope's namespace, as
// a requirement for the caller to read: a ConfigMap with the ADDRESS key,
// named by the user. Read it, then take the address with
// AggregatorAddress.
func AggregatorRequirement(scope builders.Scope, configMap string) sidecar.Requirement {
	return sidecar.Requirement{
		Kind: sidecar.KindConfigMap, Namespace: scope.Namespace, Name: configMap,
		Keys: []string{AddressKey}, Field: AggregatorField, NamedBy: failure.AuthorUser, Provider: ProviderName,
	}
}

// AggregatorAddress returns the aggregator's address from cm, the
// discovery ConfigMap read for req (nil when the read found none): its
// ADDRESS data key, validated with ValidateAddress. Every failure is a
// *DiscoveryError.
func AggregatorAddress(req sidecar.Requirement, cm *corev1.ConfigMap) (string, error) {
	fail := func(err error) (string, error) {
		return "", &DiscoveryError{Namespace: req.Namespace, ConfigMap: req.Name, Err: err}
	}
	if cm == nil {
		return fail(ErrConfigMapNotFound)
	}
	addr := cm.Data[AddressKey]
	if addr == "" {
		return fail(ErrAddressMissing)
	}
	if err := ValidateAddress(addr); err != nil {
		return fail(fmt.Errorf("%s: %w", AddressKey, err))
	}
	return addr, nil
}

// ValidateAddress checks that addr is host:port: the host a DNS name or an
// IP address (IPv6 in brackets), the port a number in 1–65535. A failure
// wraps ErrAddressInvalid.
func ValidateAddress(addr string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("%q is %w: %w", addr, ErrAddressInvalid, err)
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
