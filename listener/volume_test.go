package listener_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/opkit-dev/opkit/api/failure"
	listenerv1alpha1 "github.com/opkit-dev/opkit/api/listener/v1alpha1"
	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/listener"
)

func listenerVolume(name, driver, key, value string) corev1.Volume {
	return corev1.Volume{Name: name, VolumeSource: corev1.VolumeSource{Ephemeral: &corev1.EphemeralVolumeSource{
		VolumeClaimTemplate: &corev1.PersistentVolumeClaimTemplate{
			ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{key: value}},
			Spec: corev1.PersistentVolumeClaimSpec{
				AccessModes:      []corev1.PersistentVolumeAccessMode{corev1.ReadWriteMany},
				StorageClassName: ptr.To(driver),
				Resources:        corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("1")}},
			},
		}}}}
}

func TestVolumes(t *testing.T) {
	got, err := listener.NewSet(listener.Options{}).Add(
		listener.Volume{Name: "listener", Class: listenerv1alpha1.ExternalStable},
		listener.Volume{Name: "bound", Listener: "prod-broker"},
	).Volumes()
	if err != nil {
		t.Fatal(err)
	}
	want := []corev1.Volume{
		listenerVolume("listener", "listeners.opkit.dev", "listeners.opkit.dev/class", "external-stable"),
		listenerVolume("bound", "listeners.opkit.dev", "listeners.opkit.dev/name", "prod-broker"),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("volumes (-want +got):\n%s", diff)
	}
	other, err := listener.NewSet(listener.Options{Driver: "listeners.example.com"}).Add(
		listener.Volume{Name: "listener", Class: listenerv1alpha1.ClusterInternal}).Volumes()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]corev1.Volume{listenerVolume("listener", "listeners.example.com", "listeners.example.com/class", "cluster-internal")}, other); diff != "" {
		t.Errorf("volumes of another driver (-want +got):\n%s", diff)
	}
}

func TestInvalidVolumes(t *testing.T) {
	tests := []struct {
		name   string
		v      listener.Volume
		author failure.Author
		field  string
	}{
		{"a user's unknown class", listener.Volume{Name: "listener", Class: "external", Field: "spec.roles.broker.config.listenerClass"},
			failure.AuthorUser, "spec.roles.broker.config.listenerClass"},
		{"an operator's unknown class", listener.Volume{Name: "listener", Class: "external"}, failure.AuthorOperator, "listener[listener].class"},
		{"neither class nor listener", listener.Volume{Name: "listener"}, failure.AuthorOperator, "listener[listener]"},
		{"both class and listener", listener.Volume{Name: "listener", Class: listenerv1alpha1.ExternalStable, Listener: "x"}, failure.AuthorOperator, "listener[listener]"},
		{"a bad volume name", listener.Volume{Name: "Listener", Class: listenerv1alpha1.ExternalStable}, failure.AuthorOperator, "listener[Listener]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := listener.NewSet(listener.Options{}).Add(tt.v).Volumes()
			if !errors.Is(err, failure.ErrInvalid) {
				t.Fatalf("want an invalid-input error, got %v", err)
			}
			if a, f := failure.AuthorOf(err), failure.FieldOf(err); a != tt.author || f != tt.field {
				t.Errorf("blamed %s for %q, want %s for %q (%v)", a, f, tt.author, tt.field, err)
			}
		})
	}
}

func TestInjectMountsUnderTheRoot(t *testing.T) {
	set := listener.NewSet(listener.Options{}).Add(listener.Volume{Name: "listener", Class: listenerv1alpha1.ExternalUnstable})
	spec := &corev1.PodSpec{Containers: []corev1.Container{{Name: "broker"}}}
	if err := set.Inject(spec, builders.PodTarget{MainContainer: "broker"}); err != nil {
		t.Fatal(err)
	}
	want := []corev1.VolumeMount{{Name: "listener", MountPath: "/opkit/listener/listener", ReadOnly: true}}
	if diff := cmp.Diff(want, spec.Containers[0].VolumeMounts); diff != "" {
		t.Errorf("mounts (-want +got):\n%s", diff)
	}
	if got := set.File("listener", listener.AddressFile); got != "/opkit/listener/listener/default-address/address" {
		t.Errorf("address file %q", got)
	}
	failing := &corev1.PodSpec{Containers: []corev1.Container{{Name: "other"}}}
	before := failing.DeepCopy()
	if err := set.Inject(failing, builders.PodTarget{MainContainer: "broker"}); err == nil {
		t.Fatal("Inject into a pod without the main container succeeded")
	}
	if diff := cmp.Diff(before, failing); diff != "" {
		t.Errorf("a failed Inject changed the pod (-want +got):\n%s", diff)
	}
}
