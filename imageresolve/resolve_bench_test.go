package imageresolve_test

import (
	"testing"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
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
				if _, err := resolve(opts, role, bm.cluster); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
