package builders

import (
	"cmp"
	"errors"
	"maps"
	"slices"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
)

// ConfigFile is one rendered file of a role group's ConfigMap: what the
// product generates, and the configOverrides stated for the file.
type ConfigFile struct {
	// Name is the file's name, the ConfigMap key; its extension selects the
	// format (see RenderConfigFile).
	Name string
	// Entries are the keys and values the product generates.
	Entries map[string]string
	// Overrides are the configOverrides of the file, lowest precedence
	// first; a later layer wins per key, and every layer wins over Entries.
	Overrides []ConfigOverride
}

// ConfigOverride is one layer's configOverrides of one file.
type ConfigOverride struct {
	// Layer is where the entries were written, usually
	// commonsv1alpha1.LayerRole or LayerRoleGroup.
	Layer commonsv1alpha1.Layer
	// Entries are the keys and values the layer sets in the file.
	Entries map[string]string
}

// ConfigMapBuilder builds a role group's ConfigMap, named like the role
// group. Create it with NewConfigMap.
type ConfigMapBuilder struct {
	scope Scope
	data  map[string]string
	files []ConfigFile
}

// NewConfigMap starts the role group's ConfigMap.
func NewConfigMap(scope Scope) *ConfigMapBuilder {
	return &ConfigMapBuilder{scope: scope, data: map[string]string{}}
}

// WithData adds entries verbatim.
func (b *ConfigMapBuilder) WithData(data map[string]string) *ConfigMapBuilder {
	maps.Copy(b.data, data)
	return b
}

// WithConfigFile adds a file rendered from its entries with its overrides
// applied, in the format its extension selects.
func (b *ConfigMapBuilder) WithConfigFile(f ConfigFile) *ConfigMapBuilder {
	c := ConfigFile{Name: f.Name, Entries: maps.Clone(f.Entries)}
	for _, o := range f.Overrides {
		c.Overrides = append(c.Overrides, ConfigOverride{Layer: o.Layer, Entries: maps.Clone(o.Entries)})
	}
	b.files = append(b.files, c)
	return b
}

// Build returns the ConfigMap, or every error found, joined: each entry a
// format cannot hold is a *ValidationError naming the field its author
// wrote, the user's configOverrides
// ("spec.roles.<role>.roleGroups.<group>.configOverrides[<file>][<key>]")
// or, for what the product generated, the operator's
// "configFiles[<file>][<key>]". A file given twice, or also as verbatim
// data, is an operator error.
func (b *ConfigMapBuilder) Build() (*corev1.ConfigMap, error) {
	data := maps.Clone(b.data)
	var errs []error
	seen := map[string]bool{}
	for _, f := range b.files {
		if _, dup := data[f.Name]; dup || seen[f.Name] {
			errs = append(errs, operatorError("configFiles["+f.Name+"]", "the file is written twice"))
			continue
		}
		seen[f.Name] = true
		content, err := b.render(f)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		data[f.Name] = content
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return &corev1.ConfigMap{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: b.scope.objectMeta(b.scope.ResourceName()),
		Data:       data,
	}, nil
}

// render merges f's layers, renders the file and blames each failure on
// the layer that wrote the entry.
func (b *ConfigMapBuilder) render(f ConfigFile) (string, error) {
	entries := maps.Clone(f.Entries)
	if entries == nil {
		entries = map[string]string{}
	}
	origin := map[string]commonsv1alpha1.Layer{} // key → layer; absent: the product
	for _, o := range f.Overrides {
		for k, v := range o.Entries {
			entries[k] = v
			origin[k] = o.Layer
		}
	}
	content, err := RenderConfigFile(f.Name, entries)
	if err == nil {
		return content, nil
	}
	var rerrs []*RenderError
	for _, e := range unjoin(err) {
		var rerr *RenderError
		if errors.As(e, &rerr) {
			rerrs = append(rerrs, rerr)
		}
	}
	slices.SortFunc(rerrs, func(a, c *RenderError) int { return cmp.Compare(a.Key, c.Key) })
	var errs []error
	for _, rerr := range rerrs {
		errs = append(errs, b.blame(f, origin, rerr))
	}
	return "", errors.Join(errs...)
}

// blame turns a render failure into a ValidationError for whoever wrote
// the entry; a file-level failure is the product's when it generates the
// file, else the highest layer that overrides it.
func (b *ConfigMapBuilder) blame(f ConfigFile, origin map[string]commonsv1alpha1.Layer, rerr *RenderError) *ValidationError {
	field := "configOverrides[" + f.Name + "]"
	if rerr.Key != "" {
		field += "[" + rerr.Key + "]"
	}
	layer, overridden := origin[rerr.Key]
	if rerr.Key == "" && len(f.Entries) == 0 && len(f.Overrides) > 0 {
		layer, overridden = f.Overrides[len(f.Overrides)-1].Layer, true
	}
	if !overridden {
		field = "configFiles[" + f.Name + "]"
		if rerr.Key != "" {
			field += "[" + rerr.Key + "]"
		}
		return operatorError(field, "%s", rerr.Message)
	}
	return layerError(b.scope, layer, field, "%s", rerr.Message)
}

// unjoin returns the errors err joins, or err alone.
func unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}
