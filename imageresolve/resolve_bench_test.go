package imageresolve_test

import (
	"testing"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/imageresolve"
)

func BenchmarkResolve(b *testing.B) {
	benchmarks := []struct {
		name    string
		cluster *v1alpha1.ImageSpec
	}{
		{name: "assembled", cluster: &v1alpha1.ImageSpec{ProductVersion: "477", PullSecretName: "registry"}},
		{name: "custom", cluster: &v1alpha1.ImageSpec{Custom: "mirror.example.com/trino:477"}},
	}
	opts := operator()
	role := &v1alpha1.ImageSpec{Repo: "quay.io/role"}
	for _, bm := range benchmarks {
		b.Run(bm.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := imageresolve.Resolve(opts, bm.cluster, role); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
