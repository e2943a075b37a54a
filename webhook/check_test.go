package webhook_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/utils/ptr"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/reconciler"
	"github.com/opkit-dev/opkit/webhook"
)

// finding is a field error without its value.
type finding struct{ Field, Detail string }

func findings(errs field.ErrorList) []finding {
	var out []finding
	for _, e := range errs {
		out = append(out, finding{e.Field, e.Detail})
	}
	return out
}

func mustNew(t *testing.T, opts webhook.Options[*cluster]) *webhook.Webhook[*cluster] {
	t.Helper()
	w, err := webhook.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func TestCheckRefusesTheUsersMistakesAtTheirPaths(t *testing.T) {
	withGroup := func(role string, f func(*commonsv1alpha1.RoleGroupSpec)) func(*commonsv1alpha1.ClusterSpec) {
		return func(s *commonsv1alpha1.ClusterSpec) {
			g := s.Roles[role].RoleGroups["default"]
			f(&g)
			setGroup(s, role, g)
		}
	}
	const group = "spec.roles.server.roleGroups.default."
	tests := []struct {
		name   string
		cr     *cluster
		want   []finding
		warned []string
	}{
		{name: "a valid cluster", cr: newCluster(nil, "server"), warned: nil},
		{name: "a typo'd role", cr: newCluster(nil, "server", "serer"), want: []finding{{
			"spec.roles.serer", `the product has no role "serer"; did you mean "server"? (roles: "gateway", "server")`}}},
		{name: "a misspelt affinity member", cr: newCluster(withGroup("server", func(g *commonsv1alpha1.RoleGroupSpec) {
			g.Config = &commonsv1alpha1.RoleGroupConfigSpec{Affinity: &runtime.RawExtension{Raw: []byte(`{"nodeAffinty":{}}`)}}
		}), "server"), want: []finding{{group + "config.affinity.nodeAffinty", "unknown field"}}},
		{name: "a graceful shutdown that is not positive", cr: newCluster(withGroup("server", func(g *commonsv1alpha1.RoleGroupSpec) {
			g.Config = &commonsv1alpha1.RoleGroupConfigSpec{GracefulShutdownTimeout: ptr.To("0s")}
		}), "server"), want: []finding{{group + "config.gracefulShutdownTimeout", `invalid value: "0s" must be positive`}}},
		{name: "a pod override that does not decode", cr: newCluster(withGroup("server", func(g *commonsv1alpha1.RoleGroupSpec) {
			g.PodOverrides = &runtime.RawExtension{Raw: []byte(`{"spec":{"containres":[]}}`)}
		}), "server"), want: []finding{{group + "podOverrides.spec.containres", "unknown field"}}},
		{name: "a pod override displacing the config mount", cr: newCluster(withGroup("server", func(g *commonsv1alpha1.RoleGroupSpec) {
			g.PodOverrides = &runtime.RawExtension{Raw: []byte(`{"spec":{"volumes":[{"name":"mine","emptyDir":{}}],
				"containers":[{"name":"server","volumeMounts":[{"name":"mine","mountPath":"/opkit/config"}]}]}}`)}
		}), "server"), want: []finding{{group + "podOverrides.spec.containers[name=server].volumeMounts[mountPath=/opkit/config]",
			`mounting volume "mine" at /opkit/config would displace the framework's volume "config" mounted there`}}},
		{name: "an image tag that cannot be assembled", cr: newCluster(func(s *commonsv1alpha1.ClusterSpec) {
			s.Image = &commonsv1alpha1.ImageSpec{ProductVersion: "1.0/next"}
		}, "server"), want: []finding{{"spec.image.productVersion", ""}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := mustNew(t, webhook.Options[*cluster]{Reconciler: config()}).Check(t.Context(), tt.cr)
			got := findings(res.Errors)
			if len(tt.want) == 1 && tt.want[0].Detail == "" && len(got) == 1 {
				got[0].Detail = "" // only the field is asserted
			}
			if diff := cmp.Diff(tt.want, got, cmpPrefix()); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}

// cmpPrefix compares details by prefix: the want is what the message
// starts with.
func cmpPrefix() cmp.Option {
	return cmp.Comparer(func(a, b finding) bool {
		if a.Field != b.Field {
			return false
		}
		short, long := a.Detail, b.Detail
		if len(short) > len(long) {
			short, long = long, short
		}
		return long[:len(short)] == short
	})
}

func TestCheckWarnsWhatTheUserCannotFix(t *testing.T) {
	cfg := config()
	cfg.Image.Defaults.ProductVersion = "N/A" // the operator's broken default
	res := mustNew(t, webhook.Options[*cluster]{Reconciler: cfg}).Check(t.Context(), newCluster(nil, "server"))
	if len(res.Errors) != 0 {
		t.Errorf("the operator's mistake refused the user's resource: %v", res.Errors)
	}
	if len(res.Warnings) != 1 {
		t.Fatalf("want one warning about the operator's default image, got %q", res.Warnings)
	}

	declared := catalog()
	gw := declared["gateway"]
	gw.Optional = false
	declared["gateway"] = gw
	cfg = config()
	cfg.Roles = reconciler.StaticRoles[*cluster](declared)
	res = mustNew(t, webhook.Options[*cluster]{Reconciler: cfg}).Check(t.Context(), newCluster(nil, "server"))
	if diff := cmp.Diff([]string{`the product declares role "gateway", which spec.roles does not configure`}, res.Warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
}

// TestCheckWithoutACatalogStillChecksTheUsersLayers: a role provider that
// waits for another object cannot judge role names at admission, but the
// folds of what the user wrote still run.
func TestCheckWithoutACatalogStillChecksTheUsersLayers(t *testing.T) {
	cfg := config()
	cfg.Roles = reconciler.RoleProviderFunc[*cluster](func(context.Context, *cluster) (reconciler.Catalog, error) {
		return nil, failure.RequeueAfter(0, "the S3 bucket does not exist yet")
	})
	cr := newCluster(func(s *commonsv1alpha1.ClusterSpec) {
		g := s.Roles["serer"].RoleGroups["default"]
		g.Config = &commonsv1alpha1.RoleGroupConfigSpec{GracefulShutdownTimeout: ptr.To("0s")}
		setGroup(s, "serer", g)
	}, "serer")
	res := mustNew(t, webhook.Options[*cluster]{Reconciler: cfg}).Check(t.Context(), cr)
	if diff := cmp.Diff([]finding{{"spec.roles.serer.roleGroups.default.config.gracefulShutdownTimeout", `invalid value: "0s" must be positive`}},
		findings(res.Errors)); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"the product's roles could not be declared, so the roles are not checked at admission: the S3 bucket does not exist yet"},
		res.Warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
}

func TestCheckAddsTheProductsOwnChecks(t *testing.T) {
	w := mustNew(t, webhook.Options[*cluster]{Reconciler: config(), Validate: func(_ context.Context, c *cluster) field.ErrorList {
		if c.Spec.Note == "" {
			return field.ErrorList{field.Required(field.NewPath("spec", "note"), "say something")}
		}
		return nil
	}})
	res := w.Check(t.Context(), newCluster(nil, "server", "serer"))
	var fields []string
	for _, e := range res.Errors {
		fields = append(fields, e.Field)
	}
	if diff := cmp.Diff([]string{"spec.note", "spec.roles.serer"}, fields); diff != "" {
		t.Errorf("fields, sorted (-want +got):\n%s", diff)
	}
}

func TestNewRequiresForAndRoles(t *testing.T) {
	_, err := webhook.New(webhook.Options[*cluster]{})
	if err == nil || err.Error() != "webhook.Options.Reconciler.For: is required: an empty value of the cluster resource type\nwebhook.Options.Reconciler.Roles: is required" {
		t.Errorf("got %v", err)
	}
}
