package servertest

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/apply"
	"github.com/opkit-dev/opkit/testkit/faults"
)

// faultyFixture is a fixture whose engine talks through a fault
// injector; f.c stays a clean client for checks.
func faultyFixture(t *testing.T, rules ...faults.Rule) (*fixture, *faults.Injector) {
	t.Helper()
	f := newFixture(t, "owner-a", apply.Options{})
	inj, err := faults.New(faults.Options{Seed: 7, Rules: rules})
	require.NoError(t, err)
	cfg := rest.CopyConfig(env.Require(t).Config)
	cfg.Wrap(inj.WrapTransport)
	c, err := client.New(cfg, client.Options{Scheme: f.c.Scheme()})
	require.NoError(t, err)
	f.r, err = apply.New(name, c, apply.Options{})
	require.NoError(t, err)
	return f, inj
}

func cmSet(ns, value string) []client.Object {
	var objects []client.Object
	for i := range 10 {
		objects = append(objects, configMap(ns, fmt.Sprintf("cm-%d", i), map[string]string{"v": value}, nil))
	}
	return objects
}

func TestUpdateConflictsAreRetriedWithinThePass(t *testing.T) {
	f, inj := faultyFixture(t, faults.Rule{Verbs: []string{"update"}, Resources: []string{"configmaps"}, Fault: faults.Conflict, Rate: 0.5})
	inj.SetEnabled(false)
	f.applyUntilReady(cmSet(f.ns, "1")...)
	inj.SetEnabled(true)

	res, err := f.r.Apply(t.Context(), &f.inv, cmSet(f.ns, "2"), f.pass())
	require.NoError(t, err)
	require.True(t, res.Done)
	require.Positive(t, inj.Total(), "no conflict was injected")
}

func TestServerErrorsKeepTheirType(t *testing.T) {
	f, _ := faultyFixture(t, faults.Rule{Verbs: []string{"create"}, Resources: []string{"configmaps"}, Fault: faults.TooManyRequests, Rate: 1})
	res, err := f.r.Apply(t.Context(), &f.inv, cmSet(f.ns, "1"), f.pass())
	require.Error(t, err)
	require.False(t, res.Done)
	require.True(t, apierrors.IsTooManyRequests(err), "a 429 must stay detectable, got %v", err)
	require.True(t, errors.Is(err, failure.ErrRateLimited), "a 429 must be classified rate-limited, got %v", err)
	require.Equal(t, failure.ClassRateLimited, failure.ClassOf(err))
	for _, c := range res.Failed() {
		require.True(t, errors.Is(c.Err, failure.ErrRateLimited), "%s: %v", c.Object, c.Err)
	}
	require.Len(t, f.inv.Items, 10, "the inventory lists the objects even when writes fail")
}
