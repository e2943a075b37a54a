package shard

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/utils/clock"

	"github.com/opkit-dev/opkit/api/failure"
)

func validOptions() Options {
	return Options{
		Ring: "sample-operator", Member: "sample-operator-0", Namespace: "ops",
		Resources: []schema.GroupVersionKind{{Group: "sample.opkit.dev", Version: "v1alpha1", Kind: "SampleCluster"}},
	}
}

func TestOptionsDefaults(t *testing.T) {
	got, err := validOptions().withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	want := validOptions()
	want.LeaseDuration = 15 * time.Second
	want.RenewInterval = 5 * time.Second
	want.ExpiryMargin = 15 * time.Second
	want.VirtualNodes = DefaultVirtualNodes
	want.Clock = clock.RealClock{}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("defaults (-want +got):\n%s", diff)
	}
}

func TestOptionsErrors(t *testing.T) {
	tests := []struct {
		name   string
		change func(*Options)
		want   string
	}{
		{name: "no ring", change: func(o *Options) { o.Ring = "" }, want: "Ring"},
		{name: "ring not a label name", change: func(o *Options) { o.Ring = "Sample_Operator" }, want: "Ring"},
		{name: "no member", change: func(o *Options) { o.Member = "" }, want: "Member"},
		{name: "member too long for a label", change: func(o *Options) { o.Member = string(make([]byte, 64)) }, want: "Member"},
		{name: "no namespace", change: func(o *Options) { o.Namespace = "" }, want: "Namespace"},
		{name: "no resources", change: func(o *Options) { o.Resources = nil }, want: "Resources"},
		{name: "renewal not shorter than the lease", change: func(o *Options) { o.RenewInterval = o.LeaseDuration + DefaultLeaseDuration }, want: "RenewInterval"},
		{name: "negative margin", change: func(o *Options) { o.ExpiryMargin = -time.Second }, want: "ExpiryMargin"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := validOptions()
			tt.change(&o)
			_, err := o.withDefaults()
			var oe *OptionsError
			if !errors.As(err, &oe) || !errors.Is(err, failure.ErrInvalid) {
				t.Fatalf("withDefaults = %v, want an *OptionsError of the invalid class", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not name %s", err, tt.want)
			}
		})
	}
}
