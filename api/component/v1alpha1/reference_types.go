package v1alpha1

import "maps"

// ReferencedObject is what a reference points at: a ConfigMap or Secret in
// the component's namespace, whole or one key of it.
//
// +kubebuilder:object:generate=false
type ReferencedObject struct {
	// Kind is "ConfigMap" or "Secret".
	Kind string
	// Name is the object's name.
	Name string
	// Key is the data key, empty for a whole-object reference.
	Key string
}

// Reference is implemented by the reference types of this package. The
// component reconciler finds every Reference in a component's spec (by
// walking its fields), reads the objects they name, hands each its data
// through Load, and adds Resolved to the parameters the generator gets at
// the reference's place. A reference whose Name is empty is unset and not
// loaded.
//
// +kubebuilder:object:generate=false
type Reference interface {
	// Referenced names the object (and key) the reference points at.
	Referenced() ReferencedObject
	// Load stores the object's data; exists is false when the object does
	// not exist (data is then nil).
	Load(data map[string][]byte, exists bool)
	// Found reports whether the last Load found what the reference names:
	// the object and, for a key reference, the key.
	Found() bool
	// Resolved returns the loaded content as it is added to the generator's
	// parameters, beside the reference's own fields.
	Resolved() map[string]any
}

// ConfigMapReference names a ConfigMap whose data the reconciler loads. The
// generator's parameters get its data (binaryData included, as strings)
// under "data".
type ConfigMapReference struct {
	// Name is the ConfigMap's name, in the component's namespace.
	// +kubebuilder:validation:MaxLength=253
	Name string `json:"name"`

	data  map[string]string `json:"-"`
	found bool              `json:"-"`
}

// Referenced names the ConfigMap.
func (r *ConfigMapReference) Referenced() ReferencedObject {
	return ReferencedObject{Kind: "ConfigMap", Name: r.Name}
}

// Load stores the ConfigMap's data.
func (r *ConfigMapReference) Load(data map[string][]byte, exists bool) {
	r.found = exists
	r.data = make(map[string]string, len(data))
	for k, v := range data {
		r.data[k] = string(v)
	}
}

// Found reports whether the ConfigMap exists.
func (r *ConfigMapReference) Found() bool { return r.found }

// Data returns the loaded data; nil before loading.
func (r *ConfigMapReference) Data() map[string]string { return r.data }

// Resolved returns {"data": <data>}.
func (r *ConfigMapReference) Resolved() map[string]any {
	return map[string]any{"data": stringMap(r.data)}
}

// ConfigMapKeyReference names one key of a ConfigMap. The generator's
// parameters get its value under "value".
type ConfigMapKeyReference struct {
	// Name is the ConfigMap's name, in the component's namespace.
	// +kubebuilder:validation:MaxLength=253
	Name string `json:"name"`
	// Key is the data key.
	// +kubebuilder:validation:MinLength=1
	Key string `json:"key"`

	value string `json:"-"`
	found bool   `json:"-"`
}

// Referenced names the ConfigMap and key.
func (r *ConfigMapKeyReference) Referenced() ReferencedObject {
	return ReferencedObject{Kind: "ConfigMap", Name: r.Name, Key: r.Key}
}

// Load stores the key's value.
func (r *ConfigMapKeyReference) Load(data map[string][]byte, exists bool) {
	v, ok := data[r.Key]
	r.value, r.found = string(v), exists && ok
}

// Found reports whether the ConfigMap and its key exist.
func (r *ConfigMapKeyReference) Found() bool { return r.found }

// Value returns the loaded value; empty before loading.
func (r *ConfigMapKeyReference) Value() string { return r.value }

// Resolved returns {"value": <value>}.
func (r *ConfigMapKeyReference) Resolved() map[string]any {
	return map[string]any{"value": r.value}
}

// SecretReference names a Secret whose data the reconciler loads. The
// generator's parameters get its data, decoded to strings, under "data".
type SecretReference struct {
	// Name is the Secret's name, in the component's namespace.
	// +kubebuilder:validation:MaxLength=253
	Name string `json:"name"`

	data  map[string][]byte `json:"-"`
	found bool              `json:"-"`
}

// Referenced names the Secret.
func (r *SecretReference) Referenced() ReferencedObject {
	return ReferencedObject{Kind: "Secret", Name: r.Name}
}

// Load stores the Secret's data.
func (r *SecretReference) Load(data map[string][]byte, exists bool) {
	r.data, r.found = maps.Clone(data), exists
	if r.data == nil {
		r.data = map[string][]byte{}
	}
}

// Found reports whether the Secret exists.
func (r *SecretReference) Found() bool { return r.found }

// Data returns the loaded data; nil before loading.
func (r *SecretReference) Data() map[string][]byte { return r.data }

// Resolved returns {"data": <data as strings>}.
func (r *SecretReference) Resolved() map[string]any {
	out := make(map[string]any, len(r.data))
	for k, v := range r.data {
		out[k] = string(v)
	}
	return map[string]any{"data": out}
}

// SecretKeyReference names one key of a Secret. The generator's parameters
// get its value, decoded to a string, under "value".
type SecretKeyReference struct {
	// Name is the Secret's name, in the component's namespace.
	// +kubebuilder:validation:MaxLength=253
	Name string `json:"name"`
	// Key is the data key.
	// +kubebuilder:validation:MinLength=1
	Key string `json:"key"`

	value []byte `json:"-"`
	found bool   `json:"-"`
}

// Referenced names the Secret and key.
func (r *SecretKeyReference) Referenced() ReferencedObject {
	return ReferencedObject{Kind: "Secret", Name: r.Name, Key: r.Key}
}

// Load stores the key's value.
func (r *SecretKeyReference) Load(data map[string][]byte, exists bool) {
	v, ok := data[r.Key]
	r.value, r.found = v, exists && ok
}

// Found reports whether the Secret and its key exist.
func (r *SecretKeyReference) Found() bool { return r.found }

// Value returns the loaded value; nil before loading.
func (r *SecretKeyReference) Value() []byte { return r.value }

// Resolved returns {"value": <value as a string>}.
func (r *SecretKeyReference) Resolved() map[string]any {
	return map[string]any{"value": string(r.value)}
}

func stringMap(m map[string]string) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// Compile-time checks that the reference types are References.
var (
	_ Reference = &ConfigMapReference{}
	_ Reference = &ConfigMapKeyReference{}
	_ Reference = &SecretReference{}
	_ Reference = &SecretKeyReference{}
)
