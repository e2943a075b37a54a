package testkit

import (
	"context"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Namespace creates a namespace with a generated name for the test and
// deletes it at cleanup. Without controllers the namespace stays Terminating
// (no namespace controller empties it), which is harmless: its name is
// unique.
func Namespace(t testing.TB, c client.Client) string {
	t.Helper()
	return namespace(t, c, nil)
}

// PodSecurityEnforceLabel is the namespace label that makes the API server
// enforce a Pod Security profile.
const PodSecurityEnforceLabel = "pod-security.kubernetes.io/enforce"

// RestrictedNamespace is Namespace for a namespace enforcing the restricted
// Pod Security profile. It checks that the API server really refuses a pod
// without the restricted settings there (server-side dry run), so a test
// relying on the profile cannot pass vacuously.
func RestrictedNamespace(t testing.TB, c client.Client) string {
	t.Helper()
	name := namespace(t, c, map[string]string{PodSecurityEnforceLabel: "restricted"})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	bare := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: name, Name: "unrestricted-probe"},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "probe.invalid/probe:1"}}},
	}
	if err := c.Create(ctx, bare, client.DryRunAll); !apierrors.IsForbidden(err) || !strings.Contains(err.Error(), "violates PodSecurity") {
		t.Fatalf("namespace %s does not enforce the restricted profile: creating an unrestricted pod returned %v", name, err)
	}
	return name
}

func namespace(t testing.TB, c client.Client, labels map[string]string) string {
	t.Helper()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "test-", Labels: labels}}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := c.Create(ctx, ns); err != nil {
		t.Fatalf("creating the test namespace: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := c.Delete(ctx, ns); err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("deleting test namespace %s: %v", ns.Name, err)
		}
	})
	return ns.Name
}
