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

// resolve resolves the image of role "coordinator" from its declaration's
// image and the cluster's.
func resolve(opts imageresolve.Options, declaration, cluster *v1alpha1.ImageSpec) (imageresolve.Resolved, error) {
	return imageresolve.Resolve(opts, imageresolve.Layers{RoleName: "coordinator", Declaration: declaration, Cluster: cluster})
}

// operator returns the options of an operator with a full set of defaults.
func operator() imageresolve.Options {
	return imageresolve.Options{
		ProductName:  "trino",
		PlatformName: "opkit",
		Defaults: v1alpha1.ImageSpec{
			Repo:            "quay.io/opkit",
			ProductVersion:  "476",
			PlatformVersion: "0.2.0",
		},
	}
}

func TestResolve(t *testing.T) {
	tests := []struct {
		name    string
		opts    imageresolve.Options
		decl    *v1alpha1.ImageSpec // the role declaration's image
		cluster *v1alpha1.ImageSpec
		want    imageresolve.Resolved
	}{
		{
			name: "the operator's defaults alone assemble the reference",
			opts: operator(),
			want: imageresolve.Resolved{
				Reference:      "quay.io/opkit/trino:476-opkit0.2.0",
				PullPolicy:     corev1.PullIfNotPresent,
				ProductVersion: "476",
			},
		},
		{
			name:    "a cluster stating only productVersion keeps the defaults' repo and platform version",
			opts:    operator(),
			cluster: &v1alpha1.ImageSpec{ProductVersion: "477"},
			want: imageresolve.Resolved{
				Reference:      "quay.io/opkit/trino:477-opkit0.2.0",
				PullPolicy:     corev1.PullIfNotPresent,
				ProductVersion: "477",
			},
		},
		{
			name:    "each field folds separately: cluster over declaration over defaults",
			opts:    operator(),
			decl:    &v1alpha1.ImageSpec{Repo: "quay.io/role", ProductVersion: "470", PlatformVersion: "0.1.0"},
			cluster: &v1alpha1.ImageSpec{Repo: "mirror.example.com/opkit"},
			want: imageresolve.Resolved{
				Reference:      "mirror.example.com/opkit/trino:470-opkit0.1.0",
				PullPolicy:     corev1.PullIfNotPresent,
				ProductVersion: "470",
			},
		},
		{
			name: "without a platform name the tag is the product version and platformVersion is ignored",
			opts: imageresolve.Options{
				ProductName: "zookeeper",
				Defaults:    v1alpha1.ImageSpec{Repo: "docker.io/library", ProductVersion: "3.9.2", PlatformVersion: "N/A"},
			},
			want: imageresolve.Resolved{
				Reference:      "docker.io/library/zookeeper:3.9.2",
				PullPolicy:     corev1.PullIfNotPresent,
				ProductVersion: "3.9.2",
			},
		},
		{
			name:    "a repository with a registry port is accepted",
			opts:    operator(),
			cluster: &v1alpha1.ImageSpec{Repo: "registry.local:5000/team/opkit"},
			want: imageresolve.Resolved{
				Reference:      "registry.local:5000/team/opkit/trino:476-opkit0.2.0",
				PullPolicy:     corev1.PullIfNotPresent,
				ProductVersion: "476",
			},
		},
		{
			name:    "the pull secret applies to an assembled reference",
			opts:    operator(),
			cluster: &v1alpha1.ImageSpec{PullSecretName: "registry"},
			want: imageresolve.Resolved{
				Reference:      "quay.io/opkit/trino:476-opkit0.2.0",
				PullPolicy:     corev1.PullIfNotPresent,
				PullSecretName: "registry",
				ProductVersion: "476",
			},
		},
		{
			name:    "the pull secret applies to a custom reference",
			opts:    operator(),
			decl:    &v1alpha1.ImageSpec{PullSecretName: "role-registry"},
			cluster: &v1alpha1.ImageSpec{Custom: "private.example.com/trino:476"},
			want: imageresolve.Resolved{
				Reference:      "private.example.com/trino:476",
				PullPolicy:     corev1.PullIfNotPresent,
				PullSecretName: "role-registry",
			},
		},
		{
			name:    "the pull secret applies when the operator resolves its own images",
			opts:    imageresolve.Options{Defaults: v1alpha1.ImageSpec{PullSecretName: "operator-registry"}},
			cluster: &v1alpha1.ImageSpec{PullPolicy: ptr.To(corev1.PullAlways)},
			want: imageresolve.Resolved{
				PullPolicy:     corev1.PullAlways,
				PullSecretName: "operator-registry",
			},
		},
		{
			name:    "the pull policy folds like the other fields",
			opts:    imageresolve.Options{Defaults: v1alpha1.ImageSpec{PullPolicy: ptr.To(corev1.PullAlways)}},
			decl:    &v1alpha1.ImageSpec{PullPolicy: ptr.To(corev1.PullNever)},
			cluster: &v1alpha1.ImageSpec{},
			want:    imageresolve.Resolved{PullPolicy: corev1.PullNever},
		},
		{
			name:    "without a product name only custom is read",
			opts:    imageresolve.Options{Defaults: v1alpha1.ImageSpec{Repo: "quay.io/opkit", ProductVersion: "1.0"}},
			cluster: &v1alpha1.ImageSpec{Custom: "example.com/own:1", ProductVersion: "2.0"},
			want:    imageresolve.Resolved{Reference: "example.com/own:1", PullPolicy: corev1.PullIfNotPresent},
		},
		{
			name: "without a product name nothing stated is not an error",
			opts: imageresolve.Options{},
			want: imageresolve.Resolved{PullPolicy: corev1.PullIfNotPresent},
		},
		{
			name:    "a product version too long for a label keeps the reference and drops the label value",
			opts:    imageresolve.Options{ProductName: "trino", Defaults: v1alpha1.ImageSpec{Repo: "quay.io/opkit"}},
			cluster: &v1alpha1.ImageSpec{ProductVersion: strings.Repeat("9", 64)},
			want: imageresolve.Resolved{
				Reference:  "quay.io/opkit/trino:" + strings.Repeat("9", 64),
				PullPolicy: corev1.PullIfNotPresent,
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

func TestResolveLeavesItsInputsUnchangedAndIsRepeatable(t *testing.T) {
	opts := operator()
	cluster := &v1alpha1.ImageSpec{ProductVersion: "477", PullPolicy: ptr.To(corev1.PullAlways)}
	role := &v1alpha1.ImageSpec{Repo: "quay.io/role", PullSecretName: "s"}
	wantOpts, wantCluster, wantRole := operator(), cluster.DeepCopy(), role.DeepCopy()

	first, err := resolve(opts, role, cluster)
	if err != nil {
		t.Fatalf("Resolve: %v", err)
	}
	second, err := resolve(opts, role, cluster)
	if err != nil {
		t.Fatalf("Resolve: %v", err)
	}
	if diff := cmp.Diff(first, second); diff != "" {
		t.Errorf("a second resolution differs (-first +second):\n%s", diff)
	}
	if diff := cmp.Diff([]any{wantOpts, wantCluster, wantRole}, []any{opts, cluster, role}); diff != "" {
		t.Errorf("inputs changed (-want +got):\n%s", diff)
	}
}

func TestResolvedImagePullSecrets(t *testing.T) {
	tests := []struct {
		name   string
		secret string
		want   []corev1.LocalObjectReference
	}{
		{name: "no secret gives no entries", secret: "", want: nil},
		{name: "a secret gives one entry", secret: "registry", want: []corev1.LocalObjectReference{{Name: "registry"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := imageresolve.Resolved{PullSecretName: tc.secret}.ImagePullSecrets()
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("ImagePullSecrets (-want +got):\n%s", diff)
			}
		})
	}
}
