package reconciler

import (
	"fmt"
	"strings"

	"github.com/opkit-dev/opkit/apply"
)

// A field the API server does not let change (a StatefulSet's claim
// templates, say) is kept as it is when the spec asks for another value:
// the object engine reports it in Change.IgnoredFields and
// Change.IgnoredValues. The spec is then not applied as asked, so the pass
// is not complete: ReconcileComplete says False with reason
// ImmutableFieldIgnored, naming each value, what it is and what the spec
// asks, and what the user can do, until the spec is reverted or the object
// recreated. An ImmutableFieldIgnored Warning says the same on every pass.

// ignoredMessage says, for a change whose preserved fields differ from the
// spec, what stays, what was asked, and how to resolve it; "" when
// nothing was ignored.
func ignoredMessage(c apply.Change) string {
	if len(c.IgnoredFields) == 0 {
		return ""
	}
	var what []string
	for _, v := range c.IgnoredValues {
		what = append(what, fmt.Sprintf("%s is %s, the spec asks for %s", v.Path, valueOrNone(v.Live), valueOrNone(v.Desired)))
	}
	if len(what) == 0 {
		what = []string{strings.Join(c.IgnoredFields, ", ") + " differ from the spec"}
	}
	return fmt.Sprintf("%s %s: %s; the API server does not let %s change after creation, so the spec is not applied: %s",
		c.Object.Kind, c.Object.Name, strings.Join(what, "; "), strings.Join(c.IgnoredFields, ", "), remedy(c.Object.Kind, c.Object.Name))
}

// valueOrNone writes a reported value, "none" for an absent one.
func valueOrNone(v string) string {
	if v == "" {
		return "none"
	}
	return v
}

// remedy says what the user can do about an ignored field of an object of
// kind: go back to the live value, or have the object recreated.
func remedy(kind, name string) string {
	if kind == "StatefulSet" {
		return "revert the spec to the value the StatefulSet has, or recreate it: " +
			"kubectl delete statefulset " + name + " --cascade=orphan keeps its pods and claims, " +
			"and the next pass creates it as the spec asks (existing claims keep their size; " +
			"resize them first where their storage class allows expansion)"
	}
	return "revert the spec to the value the object has, or delete the " + kind + " so that the next pass creates it as the spec asks"
}
