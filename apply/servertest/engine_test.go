package servertest

import (
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/opkit-dev/opkit/apply"
)

func TestNewRejectsBadConfiguration(t *testing.T) {
	c := env.Require(t).Client
	tests := []struct {
		name    string
		rname   string
		ownerID string
		opts    apply.Options
		wantErr string
	}{
		{name: "name not DNS", rname: "Not_A_Name", ownerID: "o", wantErr: `engine name "Not_A_Name"`},
		{name: "bad policy", rname: name, ownerID: "o", opts: apply.Options{DeletePolicy: "shred"}, wantErr: `unknown delete policy "shred"`},
		{
			name: "indexed kind not managed", rname: name, ownerID: "o",
			opts:    apply.Options{Kinds: []schema.GroupVersionKind{configMapKind}, IndexedKinds: []schema.GroupVersionKind{corev1.SchemeGroupVersion.WithKind("Secret")}},
			wantErr: `IndexedKinds[0]: /v1, Kind=Secret is not one of Kinds`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := apply.New(tt.rname, c, tt.opts)
			require.ErrorContains(t, err, tt.wantErr)
		})
	}
	r, err := apply.New(name, c, apply.Options{})
	require.NoError(t, err)
	require.Equal(t, name+"/apply-order", r.AnnotationKey(apply.AnnotationApplyOrder))
}
