package ignored

import (
	"fmt"
	"strings"

	"github.com/opkit-dev/opkit/apply"
)

// Message says, for a change whose preserved fields differ from what was
// asked, what stays, what source asks for ("the spec", "the render"), and
// how to resolve it; "" when nothing was ignored.
func Message(c apply.Change, source string) string {
	if len(c.IgnoredFields) == 0 {
		return ""
	}
	var what []string
	for _, v := range c.IgnoredValues {
		what = append(what, fmt.Sprintf("%s is %s, %s asks for %s", v.Path, valueOrNone(v.Live), source, valueOrNone(v.Desired)))
	}
	if len(what) == 0 {
		what = []string{strings.Join(c.IgnoredFields, ", ") + " differ from " + source}
	}
	return fmt.Sprintf("%s %s: %s; the API server does not let %s change after creation, so %s is not applied: %s",
		c.Object.Kind, c.Object.Name, strings.Join(what, "; "), strings.Join(c.IgnoredFields, ", "), source,
		remedy(c.Object.Kind, c.Object.Name, source))
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
func remedy(kind, name, source string) string {
	if kind == "StatefulSet" {
		return "revert " + source + " to the value the StatefulSet has, or recreate it: " +
			"kubectl delete statefulset " + name + " --cascade=orphan keeps its pods and claims, " +
			"and the next pass creates it as " + source + " asks (existing claims keep their size; " +
			"resize them first where their storage class allows expansion)"
	}
	return "revert " + source + " to the value the object has, or delete the " + kind +
		" so that the next pass creates it as " + source + " asks"
}
