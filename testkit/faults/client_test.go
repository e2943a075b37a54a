package faults_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/faults"
)

func TestClientWrapperMatchesVerbAndResource(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	inj, err := faults.New(faults.Options{Seed: 3, Rules: []faults.Rule{
		{Verbs: []string{"create"}, Resources: []string{"configmaps"}, Fault: faults.ServiceUnavailable, Rate: 1},
		{Verbs: []string{"list"}, Resources: []string{"statefulsets.apps"}, Fault: faults.TooManyRequests, Rate: 1},
		{Verbs: []string{"update"}, Resources: []string{"configmaps/status"}, Fault: faults.Conflict, Rate: 1},
	}})
	require.NoError(t, err)
	c := inj.Client(cp.Client)
	ctx := t.Context()

	err = c.Create(ctx, configMap(ns, "x"))
	require.True(t, apierrors.IsServiceUnavailable(err), "got %v", err)

	err = c.List(ctx, &appsv1.StatefulSetList{}, client.InNamespace(ns))
	require.True(t, apierrors.IsTooManyRequests(err), "got %v", err)

	require.NoError(t, c.List(ctx, &corev1.ConfigMapList{}, client.InNamespace(ns)), "other resources pass")
	require.NoError(t, c.Create(ctx, &corev1.Secret{ObjectMeta: configMap(ns, "s").ObjectMeta}), "other resources pass")

	err = c.Status().Update(ctx, configMap(ns, "x"))
	require.True(t, apierrors.IsConflict(err), "subresource rules match, got %v", err)

	require.Equal(t, []faults.Count{
		{Fault: faults.Conflict, Verb: "update", Resource: "configmaps/status", N: 1},
		{Fault: faults.ServiceUnavailable, Verb: "create", Resource: "configmaps", N: 1},
		{Fault: faults.TooManyRequests, Verb: "list", Resource: "statefulsets.apps", N: 1},
	}, inj.Counts())
}

func TestInvalidRulesAreRejected(t *testing.T) {
	_, err := faults.New(faults.Options{Rules: []faults.Rule{
		{Fault: "Teapot", Rate: 1},
		{Fault: faults.Conflict, Rate: 0},
		{Fault: faults.Conflict, Rate: 1.5},
		{Fault: faults.Conflict, Rate: 1, First: -1},
	}})
	require.Error(t, err)
	for _, want := range []string{"rules[0]", "Teapot", "rules[1]", "rules[2]", "(0, 1]", "rules[3]", "first -1"} {
		require.Contains(t, err.Error(), want)
	}
}
