package testkit_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
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

func TestNamespaceUserHasRightsInItsNamespaceOnly(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	other := testkit.Namespace(t, cp.Client)
	cfg := testkit.NamespaceUser(t, cp.Client, cp.RESTConfig(), ns, "someone")
	require.Equal(t, "someone", cfg.Impersonate.UserName)
	c, err := client.New(cfg, client.Options{Scheme: cp.Client.Scheme(), Mapper: cp.Client.RESTMapper()})
	require.NoError(t, err)

	require.NoError(t, c.Create(t.Context(), &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "mine"}}))
	err = c.Create(t.Context(), &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: other, Name: "theirs"}})
	require.True(t, apierrors.IsForbidden(err), "creating in another namespace: %v", err)
	err = c.Get(t.Context(), client.ObjectKey{Name: ns}, &corev1.Namespace{})
	require.NoError(t, err, "a Role in the namespace grants reading the namespace itself")
}
