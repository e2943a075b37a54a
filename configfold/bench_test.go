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
		if _, _, err := FoldCommon(defaults, role, group); err != nil {
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
		if _, _, err := FoldCommon(defaults, nil, group); err != nil {
			b.Fatal(err)
		}
	}
}
