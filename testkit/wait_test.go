package testkit_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/opkit-dev/opkit/testkit"
)

func TestWaitForReturnsTheAwaitedState(t *testing.T) {
	calls := 0
	got, err := testkit.WaitFor(t.Context(), func(context.Context) (int, bool, error) {
		calls++
		return calls, calls == 3, nil
	}, 10*time.Second)
	require.NoError(t, err)
	require.Equal(t, 3, got)
}

func TestWaitForTimeoutCarriesLastState(t *testing.T) {
	boom := errors.New("boom")
	calls := 0
	got, err := testkit.WaitFor(t.Context(), func(context.Context) (string, bool, error) {
		calls++
		if calls%2 == 0 {
			return "", false, boom
		}
		return "still pending", false, nil
	}, 300*time.Millisecond)
	var te *testkit.TimeoutError
	require.ErrorAs(t, err, &te)
	require.Equal(t, "still pending", got)
	require.Equal(t, "still pending", te.Last)
	require.ErrorIs(t, err, boom, "the last condition error is wrapped")
	require.Contains(t, err.Error(), "still pending")
}

func TestWaitForNeverObserved(t *testing.T) {
	_, err := testkit.WaitFor(t.Context(), func(context.Context) (int, bool, error) {
		return 0, false, errors.New("not reachable")
	}, 200*time.Millisecond)
	var te *testkit.TimeoutError
	require.ErrorAs(t, err, &te)
	require.Nil(t, te.Last, "no state was ever observed")
}
