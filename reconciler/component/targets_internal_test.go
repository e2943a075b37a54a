package component

import (
	"context"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
)

// The cache of remote and impersonated targets keeps at most its size,
// closes what it drops, and closes everything when the manager stops.
func TestTargetCacheIsBoundedAndStopsWithTheManager(t *testing.T) {
	c := newTargetCache(2, runtime.NewScheme(), "shop.example.com")
	closed := map[string]int{}
	get := func(key string) *target {
		t.Helper()
		tgt, err := c.get(key, nil, func() (*rest.Config, error) { return &rest.Config{Host: "https://127.0.0.1:1"}, nil })
		if err != nil {
			t.Fatal(err)
		}
		if _, seen := closed[key]; !seen {
			inner := tgt.close
			tgt.close = func() { closed[key]++; inner() }
			closed[key] = 0
		}
		return tgt
	}
	a := get("a")
	get("b")
	if get("a") != a {
		t.Errorf("a kept target was built again")
	}
	get("c") // drops b, the least recently used
	if closed["b"] != 1 || closed["a"] != 0 || c.entries.Len() != 2 {
		t.Errorf("after a third target: closed %v, %d kept; want b closed, 2 kept", closed, c.entries.Len())
	}

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- c.Start(ctx) }()
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if closed["a"] != 1 || closed["c"] != 1 || c.entries.Len() != 0 {
		t.Errorf("after the stop: closed %v, %d kept; want every target closed", closed, c.entries.Len())
	}
	if _, err := c.get("d", nil, func() (*rest.Config, error) { return &rest.Config{}, nil }); err == nil {
		t.Errorf("a stopped cache built a new target")
	}
}
