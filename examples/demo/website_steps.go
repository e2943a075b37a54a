package main

import (
	"context"
	"fmt"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	componentv1alpha1 "github.com/opkit-dev/opkit/api/component/v1alpha1"
	"github.com/opkit-dev/opkit/examples/website/api/v1alpha1"
	"github.com/opkit-dev/opkit/examples/website/samples"
	"github.com/opkit-dev/opkit/testkit"
)

// The sample website's name (samples/website.yaml).
const websiteName = "home"

func websiteKey() client.ObjectKey {
	return client.ObjectKey{Namespace: demoNamespace, Name: websiteName}
}

// websiteSteps is the component operator's part of the script.
func websiteSteps() []step {
	return []step{
		{"apply the Website sample (a Helm chart and a kustomization)", applyWebsite},
		{"upgrade the Website to nginx 1.28: revision 2", upgradeWebsite},
		{"change the Secret the Website refers to: re-rendered", rotatePassword},
	}
}

func applyWebsite(ctx context.Context, d *demo) error {
	for _, file := range []string{"dependencies.yaml", "website.yaml"} {
		if err := createManifests(ctx, d.env.client, samples.Files, file); err != nil {
			return err
		}
	}
	return d.waitFor(ctx, "the Website is Ready at revision 1", 3*time.Minute, websiteIs(d, componentv1alpha1.StateReady, 1))
}

func upgradeWebsite(ctx context.Context, d *demo) error {
	if err := d.updateWebsite(ctx, func(w *v1alpha1.Website) { w.Spec.Version = "1.28" }); err != nil {
		return err
	}
	if err := d.waitFor(ctx, "the Website is Ready at revision 2", 2*time.Minute, websiteIs(d, componentv1alpha1.StateReady, 2)); err != nil {
		return err
	}
	dep := &appsv1.Deployment{}
	if err := d.env.client.Get(ctx, client.ObjectKey{Namespace: demoNamespace, Name: websiteName + "-web"}, dep); err != nil {
		return err
	}
	if img := dep.Spec.Template.Spec.Containers[0].Image; img != "nginxinc/nginx-unprivileged:1.28" {
		return fmt.Errorf("%w: the Deployment runs %s after the upgrade", errStep, img)
	}
	d.view.note("the Deployment now runs nginxinc/nginx-unprivileged:1.28")
	return nil
}

func rotatePassword(ctx context.Context, d *demo) error {
	s := &corev1.Secret{}
	if err := d.env.client.Get(ctx, client.ObjectKey{Namespace: demoNamespace, Name: "home-admin-password"}, s); err != nil {
		return err
	}
	s.StringData = map[string]string{"password": "rotated"}
	if err := d.env.client.Update(ctx, s); err != nil {
		return err
	}
	return d.waitFor(ctx, "the rendered admin Secret holds the new password (revision 3)", time.Minute, func(ctx context.Context) (string, bool, error) {
		rendered := &corev1.Secret{}
		if err := d.env.client.Get(ctx, client.ObjectKey{Namespace: demoNamespace, Name: websiteName + "-admin"}, rendered); err != nil {
			return "", false, err
		}
		state, done, err := websiteIs(d, componentv1alpha1.StateReady, 3)(ctx)
		return state, done && string(rendered.Data["password"]) == "rotated", err
	})
}

// deleteWebsite deletes the Website and waits until its objects are gone
// and the component with them.
func deleteWebsite(ctx context.Context, d *demo) error {
	w := &v1alpha1.Website{}
	if err := d.env.client.Get(ctx, websiteKey(), w); err != nil {
		return err
	}
	if err := d.env.client.Delete(ctx, w); err != nil {
		return err
	}
	return d.waitFor(ctx, "the Website and its objects are gone", 2*time.Minute, func(ctx context.Context) (string, bool, error) {
		err := d.env.client.Get(ctx, websiteKey(), &v1alpha1.Website{})
		if err != nil && !apierrors.IsNotFound(err) {
			return "", false, err
		}
		deps := &appsv1.DeploymentList{}
		if err := d.env.client.List(ctx, deps, client.InNamespace(demoNamespace)); err != nil {
			return "", false, err
		}
		state := "deleting"
		if err == nil {
			state = string(w.Status.State)
		}
		return fmt.Sprintf("website %s, %d Deployments left", state, len(deps.Items)), apierrors.IsNotFound(err) && len(deps.Items) == 0, nil
	})
}

func websiteIs(d *demo, state componentv1alpha1.State, revision int64) func(context.Context) (string, bool, error) {
	return func(ctx context.Context) (string, bool, error) {
		w := &v1alpha1.Website{}
		if err := d.env.client.Get(ctx, websiteKey(), w); err != nil {
			return "", false, err
		}
		st := w.Status.Status
		return fmt.Sprintf("state %s, revision %d", st.State, st.Revision),
			st.State == state && st.Revision == revision && st.ObservedGeneration == w.Generation, nil
	}
}

// updateWebsite changes the sample website's spec, retrying conflicts.
func (d *demo) updateWebsite(ctx context.Context, change func(*v1alpha1.Website)) error {
	_, err := testkit.WaitFor(ctx, func(ctx context.Context) (string, bool, error) {
		w := &v1alpha1.Website{}
		if err := d.env.client.Get(ctx, websiteKey(), w); err != nil {
			return "", false, err
		}
		change(w)
		err := d.env.client.Update(ctx, w)
		if apierrors.IsConflict(err) {
			return "conflict", false, nil
		}
		return "", err == nil, err
	}, 30*time.Second)
	return err
}
