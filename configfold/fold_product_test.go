package configfold

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/stretchr/testify/require"
)

type tlsSpec struct {
	SecretClass *string           `json:"secretClass,omitempty"`
	Extra       map[string]string `json:"extra,omitempty"`
}

func (in *tlsSpec) DeepCopy() *tlsSpec {
	if in == nil {
		return nil
	}
	out := &tlsSpec{}
	if in.SecretClass != nil {
		out.SecretClass = new(*in.SecretClass)
	}
	if in.Extra != nil {
		out.Extra = map[string]string{}
		for k, v := range in.Extra {
			out.Extra[k] = v
		}
	}
	return out
}

type plainPolicy struct {
	Mode  *string  `json:"mode,omitempty"`
	Hosts []string `json:"hosts,omitempty"`
}

type productConfig struct {
	*v1alpha1.RoleGroupConfigSpec `json:",inline"`

	ListenerClass *string           `json:"listenerClass,omitempty"`
	Replication   *int32            `json:"replication,omitempty"`
	Properties    map[string]string `json:"properties,omitempty"`
	Plugins       []string          `json:"plugins,omitempty"`
	TLS           *tlsSpec          `json:"tls,omitempty" opkit:"atomic"`
	Policy        *plainPolicy      `json:"policy,omitempty" opkit:"atomic"`
}

type inlineCommonConfig struct {
	v1alpha1.RoleGroupConfigSpec `json:",inline"`

	Mode *string `json:"mode,omitempty"`
}

func TestFoldProductPresenceWinsPerTopLevelField(t *testing.T) {
	defaults := &productConfig{
		ListenerClass: new("cluster-internal"),
		Replication:   new(int32(3)),
		Properties:    map[string]string{"a": "1", "b": "2"},
		TLS:           &tlsSpec{SecretClass: new("tls"), Extra: map[string]string{"x": "y"}},
	}
	role := &productConfig{
		Replication: new(int32(0)),
		Plugins:     []string{"p1"},
	}
	group := &productConfig{
		RoleGroupConfigSpec: &v1alpha1.RoleGroupConfigSpec{GracefulShutdownTimeout: new("1m")},
		Properties:          map[string]string{"b": "3"},
		TLS:                 &tlsSpec{Extra: map[string]string{"z": "w"}},
		Plugins:             []string{},
	}
	got, err := FoldProduct(Layers[productConfig]{Declaration: defaults, Role: role, RoleGroup: group})
	require.NoError(t, err)
	want := &productConfig{
		ListenerClass: new("cluster-internal"),                      // only the default states it
		Replication:   new(int32(0)),                                // zero is a value: the role states it
		Properties:    map[string]string{"b": "3"},                  // no per-key merge: the map is one field
		Plugins:       []string{},                                   // [] clears what the role stated
		TLS:           &tlsSpec{Extra: map[string]string{"z": "w"}}, // atomic: secretClass is gone
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("FoldProduct() mismatch (-want +got):\n%s", diff)
	}
}

func TestFoldProductLeavesTheCommonBlockToFoldCommon(t *testing.T) {
	got, err := FoldProduct(Layers[inlineCommonConfig]{Role: &inlineCommonConfig{
		RoleGroupConfigSpec: v1alpha1.RoleGroupConfigSpec{GracefulShutdownTimeout: new("1m")},
		Mode:                new("fast"),
	}})
	require.NoError(t, err)
	if diff := cmp.Diff(&inlineCommonConfig{Mode: new("fast")}, got); diff != "" {
		t.Errorf("FoldProduct() mismatch (-want +got):\n%s", diff)
	}
}

func TestFoldProductResultSharesNothingWithItsLayers(t *testing.T) {
	layer := &productConfig{
		ListenerClass: new("external"),
		Properties:    map[string]string{"a": "1"},
		Plugins:       []string{"p1"},
		TLS:           &tlsSpec{SecretClass: new("tls"), Extra: map[string]string{"x": "y"}},
		Policy:        &plainPolicy{Mode: new("strict"), Hosts: []string{"h1"}},
	}
	before := *layer
	before.TLS = layer.TLS.DeepCopy()
	before.Policy = &plainPolicy{Mode: new("strict"), Hosts: []string{"h1"}}
	before.Properties = map[string]string{"a": "1"}
	before.Plugins = []string{"p1"}
	before.ListenerClass = new("external")

	got, err := FoldProduct(Layers[productConfig]{RoleGroup: layer})
	require.NoError(t, err)
	*got.ListenerClass = "mutated"
	got.Properties["a"] = "mutated"
	got.Plugins[0] = "mutated"
	*got.TLS.SecretClass = "mutated"
	got.TLS.Extra["x"] = "mutated"
	*got.Policy.Mode = "mutated"
	got.Policy.Hosts[0] = "mutated"

	if diff := cmp.Diff(&before, layer); diff != "" {
		t.Errorf("layer changed through the result (-before +after):\n%s", diff)
	}
}

func TestValidateProductType(t *testing.T) {
	type bareString struct {
		Name string `json:"name"`
	}
	type untaggedStruct struct {
		TLS *tlsSpec `json:"tls,omitempty"`
	}
	type bareStruct struct {
		TLS tlsSpec `json:"tls" opkit:"atomic"`
	}
	type withInterface struct {
		Any any `json:"any"`
	}
	type unexported struct {
		//lint:ignore U1000 the unexported field is what ValidateProductType must refuse
		name *string
	}
	type twoBad struct {
		Count   int      `json:"count"`
		TLS     *tlsSpec `json:"tls,omitempty" opkit:"other"`
		Fine    *bool    `json:"fine,omitempty"`
		NoJSONs *tlsSpec
	}
	tests := []struct {
		name     string
		validate func() error
		want     []TypeError // Reason not compared
	}{
		{name: "a well-formed product config is accepted", validate: ValidateProductType[productConfig]},
		{name: "an inline value common block is accepted", validate: ValidateProductType[inlineCommonConfig]},
		{name: "a bare scalar is refused because it cannot say unset", validate: ValidateProductType[bareString],
			want: []TypeError{{GoField: "Name", JSONName: "name"}}},
		{name: "an untagged pointer to a struct is refused", validate: ValidateProductType[untaggedStruct],
			want: []TypeError{{GoField: "TLS", JSONName: "tls"}}},
		{name: "a bare struct is refused even when atomic", validate: ValidateProductType[bareStruct],
			want: []TypeError{{GoField: "TLS", JSONName: "tls"}}},
		{name: "an interface is refused", validate: ValidateProductType[withInterface],
			want: []TypeError{{GoField: "Any", JSONName: "any"}}},
		{name: "an unexported field is refused", validate: ValidateProductType[unexported],
			want: []TypeError{{GoField: "name", JSONName: "name"}}},
		{name: "every refused field is reported, by Go and JSON name", validate: ValidateProductType[twoBad],
			want: []TypeError{{GoField: "Count", JSONName: "count"}, {GoField: "TLS", JSONName: "tls"}, {GoField: "NoJSONs", JSONName: "NoJSONs"}}},
		{name: "a non-struct type is refused", validate: ValidateProductType[*productConfig],
			want: []TypeError{{}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.validate()
			if tt.want == nil {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			var got []TypeError
			for _, e := range unwrapAll(err) {
				var te *TypeError
				require.ErrorAs(t, e, &te)
				require.NotEmpty(t, te.Reason)
				got = append(got, TypeError{GoField: te.GoField, JSONName: te.JSONName})
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("refused fields mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFoldProductValidatesFirst(t *testing.T) {
	type bad struct {
		Name string `json:"name"`
	}
	got, err := FoldProduct(Layers[bad]{Declaration: &bad{Name: "x"}})
	require.Nil(t, got)
	var te *TypeError
	require.True(t, errors.As(err, &te), "want a *TypeError, got %v", err)
	require.Equal(t, `product config type configfold.bad: field Name (json "name"): a bare string cannot say it is unset, so the fold could not tell whether a layer stated it; make it a pointer`, te.Error())
}
