package configfold

import (
	"testing"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
)

func BenchmarkFoldCommon(b *testing.B) {
	defaults := fullLayer(v1alpha1.LogLevelInfo, "500m")
	role := &v1alpha1.RoleGroupConfigSpec{
		Resources: &v1alpha1.ResourcesSpec{CPU: &v1alpha1.CPUResource{Max: qty("2")}},
		Affinity:  raw(nodeAff),
	}
	group := &v1alpha1.RoleGroupConfigSpec{
		Logging: &v1alpha1.LoggingSpec{Containers: map[string]v1alpha1.ContainerLoggingSpec{
			"server": {Loggers: map[string]v1alpha1.LogLevelSpec{"org.example": *level(v1alpha1.LogLevelDebug)}},
		}},
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := foldCommon(defaults, role, group); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFoldCommonWithoutAffinity(b *testing.B) {
	defaults := fullLayer(v1alpha1.LogLevelInfo, "500m")
	defaults.Affinity = nil
	group := &v1alpha1.RoleGroupConfigSpec{Resources: &v1alpha1.ResourcesSpec{CPU: &v1alpha1.CPUResource{Max: qty("2")}}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := foldCommon(defaults, nil, group); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMergeOverrides measures the pod-override check: a plain patch
// against one carrying strategic-merge directives, which are checked with a
// second, probe decode.
func BenchmarkMergeOverrides(b *testing.B) {
	benchmarks := []struct {
		name  string
		patch string
	}{
		{name: "plain", patch: `{"spec":{"containers":[{"name":"main","resources":{"limits":{"cpu":"2"}}}],"priorityClassName":"high"}}`},
		{name: "directives", patch: `{"spec":{"$setElementOrder/containers":[{"name":"main"}],"containers":[{"name":"main","$deleteFromPrimitiveList/args":["--debug"]}],"priorityClassName":"high"}}`},
	}
	for _, bm := range benchmarks {
		b.Run(bm.name, func(b *testing.B) {
			in := serverDefault(nil, &v1alpha1.OverridesSpec{EnvOverrides: map[string]string{"A": "1"}},
				&v1alpha1.OverridesSpec{PodOverrides: raw(bm.patch)})
			b.ReportAllocs()
			for b.Loop() {
				got, err := MergeOverrides(in)
				if err != nil || len(got.PodOverrides) != 1 {
					b.Fatal(err, got.IgnoredPodOverrides)
				}
			}
		})
	}
}
