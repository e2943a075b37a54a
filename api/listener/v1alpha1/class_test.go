package v1alpha1_test

import (
	"testing"

	"github.com/opkit-dev/opkit/api/listener/v1alpha1"
)

func TestKnownClasses(t *testing.T) {
	for _, c := range v1alpha1.Classes() {
		if !c.Known() {
			t.Errorf("class %q is listed but not known", c)
		}
	}
	for _, c := range []v1alpha1.Class{"", "external", "Cluster-Internal"} {
		if c.Known() {
			t.Errorf("class %q is known", c)
		}
	}
}
