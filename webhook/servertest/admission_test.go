package servertest_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	listenerv1alpha1 "github.com/opkit-dev/opkit/api/listener/v1alpha1"
	"github.com/opkit-dev/opkit/testkit"
	lakehousev1alpha1 "github.com/opkit-dev/opkit/webhook/servertest/lakehouse/v1alpha1"
)

// refused returns the fields of an Invalid error's causes, and the
// message, failing the test for any other answer.
func refused(t *testing.T, err error) ([]string, string) {
	t.Helper()
	var status apierrors.APIStatus
	if !apierrors.IsInvalid(err) || !errors.As(err, &status) || status.Status().Details == nil {
		t.Fatalf("want the API server to answer Invalid with causes, got %v", err)
	}
	var fields []string
	for _, c := range status.Status().Details.Causes {
		fields = append(fields, c.Field)
	}
	return fields, err.Error()
}

// TestAdmissionRefusesTheUsersMistakesAtTheirPaths creates Lakehouses
// through the API server, which calls the product's validating webhook
// over TLS: each mistake the reconciler would report later is refused
// now, at the path the user wrote, and nothing is stored.
func TestAdmissionRefusesTheUsersMistakesAtTheirPaths(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	startOperator(t, cp, ns, true)
	group := func(l *lakehousev1alpha1.Lakehouse, role string, f func(*commonsv1alpha1.RoleGroupSpec)) *lakehousev1alpha1.Lakehouse {
		g := l.Spec.Roles[role].RoleGroups["default"]
		f(&g)
		l.Spec.Roles[role].RoleGroups["default"] = g
		return l
	}
	const server = "spec.roles.server.roleGroups.default."
	tests := []struct {
		name   string
		cr     *lakehousev1alpha1.Lakehouse
		fields []string
		text   string
	}{
		{name: "a typo'd role", cr: newLakehouse(ns, "typo", "server", "serer"),
			fields: []string{"spec.roles.serer"}, text: `the product has no role "serer"; did you mean "server"?`},
		{name: "a misspelt affinity", cr: group(newLakehouse(ns, "affinity", "server"), "server", func(g *commonsv1alpha1.RoleGroupSpec) {
			g.Config = &commonsv1alpha1.RoleGroupConfigSpec{Affinity: &runtime.RawExtension{Raw: []byte(`{"nodeAffinty":{}}`)}}
		}), fields: []string{server + "config.affinity.nodeAffinty"}, text: "unknown field"},
		{name: "a graceful shutdown of zero", cr: group(newLakehouse(ns, "shutdown", "server"), "server", func(g *commonsv1alpha1.RoleGroupSpec) {
			g.Config = &commonsv1alpha1.RoleGroupConfigSpec{GracefulShutdownTimeout: ptr.To("0s")}
		}), fields: []string{server + "config.gracefulShutdownTimeout"}, text: "must be positive"},
		{name: "a pod override displacing the certificates", cr: group(withTLS(newLakehouse(ns, "override", "server")), "server", func(g *commonsv1alpha1.RoleGroupSpec) {
			g.PodOverrides = &runtime.RawExtension{Raw: []byte(`{"spec":{"volumes":[{"name":"mine","emptyDir":{}}],
				"containers":[{"name":"server","volumeMounts":[{"name":"mine","mountPath":"/opkit/secret/tls"}]}]}}`)}
		}), fields: []string{server + "podOverrides.spec.containers[name=server].volumeMounts[mountPath=/opkit/secret/tls]"},
			text: `would displace the framework's volume "tls"`},
		{name: "a pod override that does not decode", cr: group(newLakehouse(ns, "decode", "server"), "server", func(g *commonsv1alpha1.RoleGroupSpec) {
			g.PodOverrides = &runtime.RawExtension{Raw: []byte(`{"spec":{"containres":[]}}`)}
		}), fields: []string{server + "podOverrides.spec.containres"}, text: "unknown field"},
		{name: "an image tag that cannot be assembled", cr: func() *lakehousev1alpha1.Lakehouse {
			l := newLakehouse(ns, "image", "server")
			l.Spec.Image = &commonsv1alpha1.ImageSpec{ProductVersion: "4.0/next"}
			return l
		}(), fields: []string{"spec.image.productVersion"}, text: "4.0/next"},
		{name: "a malformed secret class", cr: func() *lakehousev1alpha1.Lakehouse {
			l := newLakehouse(ns, "tls", "server")
			l.Spec.TLS = &lakehousev1alpha1.TLSSpec{ServerSecretClass: "Not_A_Class"}
			return l
		}(), fields: []string{"spec.tls.serverSecretClass"}, text: "is not a secret class name"},
		{name: "the product's own check", cr: func() *lakehousev1alpha1.Lakehouse {
			l := newLakehouse(ns, "listeners", "server")
			l.Spec.Listeners = map[string]listenerv1alpha1.Class{"servr": listenerv1alpha1.ExternalStable}
			return l
		}(), fields: []string{"spec.listeners[servr]"}, text: "Unsupported value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fields, msg := refused(t, cp.Client.Create(t.Context(), tt.cr))
			if diff := cmp.Diff(tt.fields, fields); diff != "" {
				t.Errorf("refused fields (-want +got):\n%s\n%s", diff, msg)
			}
			if !strings.Contains(msg, tt.text) {
				t.Errorf("message %q does not say %q", msg, tt.text)
			}
			err := cp.Client.Get(t.Context(), client.ObjectKeyFromObject(tt.cr), &lakehousev1alpha1.Lakehouse{})
			require.True(t, apierrors.IsNotFound(err), "a refused resource was stored: %v", err)
		})
	}
}

func withTLS(l *lakehousev1alpha1.Lakehouse) *lakehousev1alpha1.Lakehouse {
	l.Spec.TLS = &lakehousev1alpha1.TLSSpec{ServerSecretClass: "tls"}
	return l
}

// TestUpdatesAreRefusedForWhatTheyIntroduce: an admitted resource updated
// with a typo'd role is refused; the stored one is unchanged.
func TestUpdatesAreRefusedForWhatTheyIntroduce(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	startOperator(t, cp, ns, true)
	cr := newLakehouse(ns, "prod", "server")
	require.NoError(t, cp.Client.Create(t.Context(), cr))
	cr.Spec.Roles["gatway"] = commonsv1alpha1.RoleSpec{}
	fields, _ := refused(t, cp.Client.Update(t.Context(), cr))
	if diff := cmp.Diff([]string{"spec.roles.gatway"}, fields); diff != "" {
		t.Errorf("refused fields (-want +got):\n%s", diff)
	}
	stored := &lakehousev1alpha1.Lakehouse{}
	require.NoError(t, cp.Client.Get(t.Context(), client.ObjectKeyFromObject(cr), stored))
	require.NotContains(t, stored.Spec.Roles, "gatway")
}

// TestDefaultingNeverStoresWhatTheReconcilerDerives: the product's
// defaulter sets its own field, which is stored; the image it also tried
// to pin is not.
func TestDefaultingNeverStoresWhatTheReconcilerDerives(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	startOperator(t, cp, ns, true)
	cr := newLakehouse(ns, "prod", "server")
	require.NoError(t, cp.Client.Create(t.Context(), cr))
	stored := &lakehousev1alpha1.Lakehouse{}
	require.NoError(t, cp.Client.Get(t.Context(), client.ObjectKeyFromObject(cr), stored))
	require.Equal(t, "data-platform", stored.Spec.Owner, "the product's own default is stored")
	require.Nil(t, stored.Spec.Image, "spec.image was frozen at admission")
}
