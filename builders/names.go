package builders

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"
)

// MaxResourceNameLength is the longest name RoleGroupResourceName and
// RoleResourceName return. It is the tightest of the limits every name
// derived from a role group's resource name must meet:
//
//   - a pod is named "<statefulset>-<ordinal>" and carries that name as the
//     statefulset.kubernetes.io/pod-name label value (at most 63 bytes); an
//     ordinal is an int32, so up to 10 digits plus the dash: 63-11 = 52;
//   - the controller-revision-hash label value is "<statefulset>-<hash>"
//     with a hash of up to 10 characters: again 63-11 = 52;
//   - the headless Service "<name>-headless" and the metrics Service
//     "<name>-metrics" must be DNS-1035 labels of at most 63 bytes: 54 and 55.
const MaxResourceNameLength = 52

// MaxServiceAccountNameLength is the longest name ServiceAccountName
// returns: a DNS label, so the name is also usable as a label value.
const MaxServiceAccountNameLength = validation.DNS1123LabelMaxLength

// nameHashLength is the number of hex characters of the hash appended to a
// shortened name (32 bits).
const nameHashLength = 8

// RoleGroupResourceName returns the name shared by a role group's
// StatefulSet, ConfigMap, client Service and PodDisruptionBudget; its
// headless and metrics Services add "-headless" and "-metrics". It is
// "<cluster>-<role>-<group>" whenever that is a DNS-1035 label of at most
// MaxResourceNameLength bytes. Otherwise it is a readable head of that
// string, cut so that the result fits, followed by "-" and 8 hex characters
// of a hash of the three parts: distinct inputs keep distinct names, and the
// same input always yields the same name.
func RoleGroupResourceName(cluster, role, group string) string {
	return boundedName(MaxResourceNameLength, cluster, role, group)
}

// RoleResourceName returns the name of a role-level object such as the
// role's PodDisruptionBudget: "<cluster>-<role>", bounded like
// RoleGroupResourceName.
func RoleResourceName(cluster, role string) string {
	return boundedName(MaxResourceNameLength, cluster, role)
}

// HeadlessServiceName returns the name of a role group's headless Service,
// the one its StatefulSet names as serviceName.
func HeadlessServiceName(resourceName string) string { return resourceName + "-headless" }

// MetricsServiceName returns the name of a role group's metrics Service.
func MetricsServiceName(resourceName string) string { return resourceName + "-metrics" }

// ServiceAccountName returns the name of the ServiceAccount a cluster's pods
// run as: "<lowercased kind>-<cluster>", e.g. "zookeepercluster-prod". The
// kind is part of it because a cluster name alone is not unique in a
// namespace. A result that would not be a DNS label of at most
// MaxServiceAccountNameLength bytes is shortened with a hash, as
// RoleGroupResourceName does.
func ServiceAccountName(kind, cluster string) string {
	return boundedName(MaxServiceAccountNameLength, strings.ToLower(kind), cluster)
}

// RoleGroupMarkerLabelKey returns the label key that pins a role group in
// selectors. It is the natural "<cluster>-<group>" whenever that is a legal
// label key, and only otherwise a bounded substitute. Keeping every legal
// natural key unchanged matters: a StatefulSet selector is immutable, so a
// role group that already runs must keep the key it was created with; only
// combinations that could never have been created get the substitute.
func RoleGroupMarkerLabelKey(cluster, group string) string {
	natural := cluster + "-" + group
	if len(validation.IsQualifiedName(natural)) == 0 {
		return natural
	}
	// A DNS-1035 label of at most 63 bytes is always a legal label key.
	return boundedName(validation.DNS1035LabelMaxLength, cluster, group)
}

// boundedName joins parts with "-" and returns the result when it is a
// DNS-1035 label of at most limit bytes, else a shortened form ending in a
// hash of the parts.
func boundedName(limit int, parts ...string) string {
	natural := strings.Join(parts, "-")
	if len(natural) <= limit && len(validation.IsDNS1035Label(natural)) == 0 {
		return natural
	}
	// The separator cannot occur in a name, so ("a-b","c") and ("a","b-c")
	// hash differently.
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	suffix := hex.EncodeToString(sum[:])[:nameHashLength]
	head := sanitizeHead(natural, limit-nameHashLength-1)
	if head == "" {
		return "x" + suffix
	}
	return head + "-" + suffix
}

// sanitizeHead lowercases s, replaces characters a DNS label cannot hold
// with "-", drops leading characters that are not letters, cuts it to at
// most limit bytes and trims trailing dashes.
func sanitizeHead(s string, limit int) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z':
			b.WriteRune(r)
		case r >= '0' && r <= '9', r == '-':
			if b.Len() > 0 {
				b.WriteRune(r)
			}
		default:
			if b.Len() > 0 {
				b.WriteByte('-')
			}
		}
		if b.Len() >= limit {
			break
		}
	}
	head := b.String()
	if len(head) > limit {
		head = head[:limit]
	}
	return strings.TrimRight(head, "-")
}
