package component

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/events"

	"github.com/opkit-dev/opkit/api/failure"
)

func TestObjectEventsFollowTheAnnotationThenTheOption(t *testing.T) {
	const key = "shop.example.com/object-events"
	tests := []struct {
		name        string
		option      bool
		annotations map[string]string
		want        bool
		invalid     bool
	}{
		{name: "default off", want: false},
		{name: "option on", option: true, want: true},
		{name: "annotation turns them on", annotations: map[string]string{key: "true"}, want: true},
		{name: "annotation turns them off", option: true, annotations: map[string]string{key: "false"}, want: false},
		{name: "another reconciler's annotation", annotations: map[string]string{"other.example.com/object-events": "true"}, want: false},
		{name: "not a boolean", annotations: map[string]string{key: "yes"}, invalid: true},
		{name: "empty", option: true, annotations: map[string]string{key: ""}, invalid: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &Reconciler[Component]{name: "shop.example.com", opts: Options{ObjectEvents: tt.option}}
			comp := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Annotations: tt.annotations}}
			got, err := r.objectEvents(comp)
			if tt.invalid {
				var fe failure.Fielder
				if !errors.Is(err, failure.ErrInvalid) || !errors.As(err, &fe) || fe.FieldPath() != "metadata.annotations["+key+"]" {
					t.Fatalf("error %v: want invalid input naming the annotation", err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("objectEvents = %v, %v; want %v", got, err, tt.want)
			}
		})
	}
}

func TestWarningsOnlyDropsNormalEvents(t *testing.T) {
	rec := events.NewFakeRecorder(10)
	w := warningsOnly{next: rec}
	obj := &corev1.ConfigMap{}
	w.Eventf(obj, nil, corev1.EventTypeNormal, "Created", "Create", "created %s", "a")
	w.Eventf(obj, nil, corev1.EventTypeWarning, "Failed", "Update", "update failed: %s", "b")
	w.Eventf(obj, nil, corev1.EventTypeNormal, "Deleted", "Delete", "deleted %s", "c")
	close(rec.Events)
	var got []string
	for e := range rec.Events {
		got = append(got, e)
	}
	if diff := cmp.Diff([]string{"Warning Failed update failed: b"}, got); diff != "" {
		t.Errorf("recorded events (-want +got):\n%s", diff)
	}
}
