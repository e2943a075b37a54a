package imageresolve_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/imageresolve"
)

// TestResolveCustom proves the custom rule: a custom reference is used
// verbatim only from the highest layer naming the image, and the version
// label describes the image used.
func TestResolveCustom(t *testing.T) {
	tests := []struct {
		name    string
		opts    imageresolve.Options
		decl    *v1alpha1.ImageSpec // the role declaration's image
		cluster *v1alpha1.ImageSpec
		want    imageresolve.Resolved
	}{
		{
			name:    "a cluster's custom reference wins verbatim over every structured field",
			opts:    operator(),
			decl:    &v1alpha1.ImageSpec{Repo: "quay.io/role"},
			cluster: &v1alpha1.ImageSpec{Custom: "mirror.example.com/trino@sha256:" + strings.Repeat("a", 64), Repo: "ignored.example.com"},
			want: imageresolve.Resolved{
				Reference:  "mirror.example.com/trino@sha256:" + strings.Repeat("a", 64),
				PullPolicy: corev1.PullIfNotPresent,
			},
		},
		{
			name:    "a custom reference is not validated",
			opts:    operator(),
			cluster: &v1alpha1.ImageSpec{Custom: "Not A Reference"},
			want: imageresolve.Resolved{
				Reference:  "Not A Reference",
				PullPolicy: corev1.PullIfNotPresent,
			},
		},
		{
			name:    "a custom reference carries the version stated beside it in its own layer",
			opts:    operator(),
			cluster: &v1alpha1.ImageSpec{Custom: "airgap.example.com/trino:470", ProductVersion: "470"},
			want: imageresolve.Resolved{
				Reference:      "airgap.example.com/trino:470",
				PullPolicy:     corev1.PullIfNotPresent,
				ProductVersion: "470",
			},
		},
		{
			name:    "the cluster's custom reference beats the declaration's",
			opts:    operator(),
			decl:    &v1alpha1.ImageSpec{Custom: "quay.io/opkit/trino-worker:476", ProductVersion: "476"},
			cluster: &v1alpha1.ImageSpec{Custom: "airgap.example.com/trino:476"},
			want: imageresolve.Resolved{
				Reference:  "airgap.example.com/trino:476",
				PullPolicy: corev1.PullIfNotPresent,
			},
		},
		{
			name: "a declaration's custom reference beats the defaults, with the declaration's version",
			opts: operator(),
			decl: &v1alpha1.ImageSpec{Custom: "quay.io/opkit/trino-worker:475", ProductVersion: "475"},
			want: imageresolve.Resolved{
				Reference:      "quay.io/opkit/trino-worker:475",
				PullPolicy:     corev1.PullIfNotPresent,
				ProductVersion: "475",
			},
		},
		{
			name: "a declaration's custom reference without a version gets no version from the defaults",
			opts: operator(),
			decl: &v1alpha1.ImageSpec{Custom: "quay.io/opkit/trino-worker:1"},
			want: imageresolve.Resolved{
				Reference:  "quay.io/opkit/trino-worker:1",
				PullPolicy: corev1.PullIfNotPresent,
			},
		},
		{
			name:    "the user's product version beats a declaration's custom reference",
			opts:    operator(),
			decl:    &v1alpha1.ImageSpec{Custom: "registry/role-image:1"},
			cluster: &v1alpha1.ImageSpec{ProductVersion: "4.7.7"},
			want: imageresolve.Resolved{
				Reference:      "quay.io/opkit/trino:4.7.7-opkit0.2.0",
				PullPolicy:     corev1.PullIfNotPresent,
				ProductVersion: "4.7.7",
			},
		},
		{
			name:    "the user's repository beats a declaration's custom reference, keeping the declaration's other fields",
			opts:    operator(),
			decl:    &v1alpha1.ImageSpec{Custom: "quay.io/opkit/trino-worker:470", ProductVersion: "470"},
			cluster: &v1alpha1.ImageSpec{Repo: "mirror.example.com/opkit"},
			want: imageresolve.Resolved{
				Reference:      "mirror.example.com/opkit/trino:470-opkit0.2.0",
				PullPolicy:     corev1.PullIfNotPresent,
				ProductVersion: "470",
			},
		},
		{
			name:    "the user's platform version beats a declaration's custom reference",
			opts:    operator(),
			decl:    &v1alpha1.ImageSpec{Custom: "quay.io/opkit/trino-worker:476"},
			cluster: &v1alpha1.ImageSpec{PlatformVersion: "0.3.0"},
			want: imageresolve.Resolved{
				Reference:      "quay.io/opkit/trino:476-opkit0.3.0",
				PullPolicy:     corev1.PullIfNotPresent,
				ProductVersion: "476",
			},
		},
		{
			name: "without a platform name a platform version names nothing and does not beat a custom reference",
			opts: imageresolve.Options{
				ProductName: "zookeeper",
				Defaults:    v1alpha1.ImageSpec{Repo: "docker.io/library", ProductVersion: "3.9.2"},
			},
			decl:    &v1alpha1.ImageSpec{Custom: "quay.io/opkit/zk-observer:3.9.2", ProductVersion: "3.9.2"},
			cluster: &v1alpha1.ImageSpec{PlatformVersion: "0.3.0"},
			want: imageresolve.Resolved{
				Reference:      "quay.io/opkit/zk-observer:3.9.2",
				PullPolicy:     corev1.PullIfNotPresent,
				ProductVersion: "3.9.2",
			},
		},
		{
			name:    "the user's pull fields do not name the image, so a declaration's custom reference stays",
			opts:    operator(),
			decl:    &v1alpha1.ImageSpec{Custom: "quay.io/opkit/trino-worker:476", ProductVersion: "476"},
			cluster: &v1alpha1.ImageSpec{PullSecretName: "registry", PullPolicy: ptr.To(corev1.PullAlways)},
			want: imageresolve.Resolved{
				Reference:      "quay.io/opkit/trino-worker:476",
				PullPolicy:     corev1.PullAlways,
				PullSecretName: "registry",
				ProductVersion: "476",
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := resolve(tc.opts, tc.decl, tc.cluster)
			if err != nil {
				t.Fatalf("Resolve: %v", err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Resolve (-want +got):\n%s", diff)
			}
		})
	}
}
