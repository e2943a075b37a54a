package testkit_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/testkit"
)

func TestNamespaceIsUniqueAndRemovedAtCleanup(t *testing.T) {
	cp := env.Require(t)
	var first, second string
	t.Run("a", func(t *testing.T) { first = testkit.Namespace(t, cp.Client) })
	t.Run("b", func(t *testing.T) { second = testkit.Namespace(t, cp.Client) })
	require.NotEqual(t, first, second)

	// Both subtests have ended: their namespaces are being deleted. Without a
	// namespace controller they stay Terminating, with a deletion timestamp.
	for _, name := range []string{first, second} {
		var ns corev1.Namespace
		require.NoError(t, cp.Client.Get(t.Context(), client.ObjectKey{Name: name}, &ns))
		require.NotNil(t, ns.DeletionTimestamp, "namespace %s should be deleted at cleanup", name)
	}
}

func TestCreateAndWaitReturnsTheStoredObject(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	cm := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "settings"},
		Data:       map[string]string{"k": "v"},
	}
	require.NoError(t, testkit.CreateAndWait(t.Context(), cp.Client, cp.Client, cm, 10*time.Second))
	require.NotEmpty(t, cm.UID, "the object is updated with what the server stored")

	err := testkit.CreateAndWait(t.Context(), cp.Client, cp.Client, cm.DeepCopy(), 10*time.Second)
	require.Error(t, err, "creating it twice fails")
	require.Contains(t, err.Error(), "settings")
}

func TestRestrictedNamespaceEnforcesTheProfile(t *testing.T) {
	cp := env.Require(t)
	name := testkit.RestrictedNamespace(t, cp.Client)
	var ns corev1.Namespace
	require.NoError(t, cp.Client.Get(t.Context(), client.ObjectKey{Name: name}, &ns))
	require.Equal(t, "restricted", ns.Labels[testkit.PodSecurityEnforceLabel])

	plain := testkit.Namespace(t, cp.Client)
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: plain, Name: "p"},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "x.invalid/x:1"}}},
	}
	require.NoError(t, cp.Client.Create(t.Context(), pod, client.DryRunAll), "a plain namespace admits the same pod")
}
