package webhook_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/webhook"
)

func causes(t *testing.T, err error) []string {
	t.Helper()
	if err == nil {
		return nil
	}
	status, ok := err.(apierrors.APIStatus)
	if !ok || !apierrors.IsInvalid(err) {
		t.Fatalf("want an Invalid API error, got %T %v", err, err)
	}
	var out []string
	for _, c := range status.Status().Details.Causes {
		out = append(out, c.Field)
	}
	return out
}

func TestValidateCreateRefusesWithAnInvalidError(t *testing.T) {
	w := mustNew(t, webhook.Options[*cluster]{Reconciler: config()})
	_, err := w.ValidateCreate(t.Context(), newCluster(nil, "server", "serer"))
	if diff := cmp.Diff([]string{"spec.roles.serer"}, causes(t, err)); diff != "" {
		t.Errorf("causes (-want +got):\n%s", diff)
	}
	if got := err.(apierrors.APIStatus).Status().Details.Kind; got != "SampleCluster" {
		t.Errorf("kind %q", got)
	}
	if _, err := w.ValidateCreate(t.Context(), newCluster(nil, "server")); err != nil {
		t.Errorf("a valid cluster: %v", err)
	}
}

// TestValidateUpdateRefusesOnlyWhatTheUpdateIntroduces: a typo admitted
// before the checks existed does not block an unrelated change, but a new
// mistake does, and the old one is still reported.
func TestValidateUpdateRefusesOnlyWhatTheUpdateIntroduces(t *testing.T) {
	w := mustNew(t, webhook.Options[*cluster]{Reconciler: config()})
	old := newCluster(nil, "server", "serer")
	relabelled := old.DeepCopy()
	relabelled.Labels = map[string]string{"team": "data"}
	warnings, err := w.ValidateUpdate(t.Context(), old, relabelled)
	if err != nil {
		t.Errorf("an update keeping an old mistake was refused: %v", err)
	}
	if len(warnings) != 1 {
		t.Errorf("the old mistake should be a warning, got %q", warnings)
	}

	worse := old.DeepCopy()
	worse.Spec.Roles["sevrer"] = commonsv1alpha1.RoleSpec{}
	_, err = w.ValidateUpdate(t.Context(), old, worse)
	if diff := cmp.Diff([]string{"spec.roles.sevrer"}, causes(t, err)); diff != "" {
		t.Errorf("causes (-want +got):\n%s", diff)
	}

	deleting := worse.DeepCopy()
	deleting.DeletionTimestamp = ptr.To(metav1.Now())
	if _, err := w.ValidateUpdate(t.Context(), old, deleting); err != nil {
		t.Errorf("an update of a resource being deleted was refused: %v", err)
	}
	if _, err := w.ValidateDelete(t.Context(), worse); err != nil {
		t.Errorf("a deletion was refused: %v", err)
	}
}

// TestDefaultNeverFreezesWhatTheReconcilerDerives: a product default of
// its own field is kept; one written into the common spec is undone.
func TestDefaultNeverFreezesWhatTheReconcilerDerives(t *testing.T) {
	w := mustNew(t, webhook.Options[*cluster]{Reconciler: config(), Default: func(_ context.Context, c *cluster) error {
		if c.Spec.Note == "" {
			c.Spec.Note = "defaulted"
		}
		c.Spec.Image = &commonsv1alpha1.ImageSpec{ProductVersion: "1.0.0"} // what the operator resolves today
		g := c.Spec.Roles["server"].RoleGroups["default"]
		g.Config = &commonsv1alpha1.RoleGroupConfigSpec{GracefulShutdownTimeout: ptr.To("30s")}
		setGroup(&c.Spec.ClusterSpec, "server", g)
		return nil
	}})
	cr := newCluster(nil, "server")
	want := newCluster(nil, "server")
	want.Spec.Note = "defaulted"
	if err := w.Default(t.Context(), cr); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, cr); diff != "" {
		t.Errorf("defaulted (-want +got):\n%s", diff)
	}
}

func TestConfigurationsNameThePathsTheManagerServes(t *testing.T) {
	gvk := (&cluster{TypeMeta: metav1.TypeMeta{APIVersion: "sample.opkit.dev/v1alpha1", Kind: "SampleCluster"}}).GroupVersionKind()
	if got, want := webhook.ValidatePath(gvk), "/validate-sample-opkit-dev-v1alpha1-samplecluster"; got != want {
		t.Errorf("ValidatePath = %q, want %q", got, want)
	}
	mutating, validating := webhook.Configurations(webhook.ConfigurationOptions{Kind: gvk, Resource: "sampleclusters"})
	if mutating.Name != "sampleclusters.sample.opkit.dev" || validating.Name != mutating.Name {
		t.Errorf("names %q, %q", mutating.Name, validating.Name)
	}
	if got := *mutating.Webhooks[0].ClientConfig.Service.Path; got != "/mutate-sample-opkit-dev-v1alpha1-samplecluster" {
		t.Errorf("mutating path %q", got)
	}
	if got := *validating.Webhooks[0].ClientConfig.Service.Path; got != webhook.ValidatePath(gvk) {
		t.Errorf("validating path %q", got)
	}
}
