package builders

import (
	"maps"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ConfigMapBuilder builds a role group's ConfigMap, named like the role
// group. Create it with NewConfigMap.
type ConfigMapBuilder struct {
	scope Scope
	data  map[string]string
	errs  []error
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

// WithConfigFile renders entries into the file name with the renderer its
// extension selects (see RenderConfigFile) and adds it.
func (b *ConfigMapBuilder) WithConfigFile(name string, entries map[string]string) *ConfigMapBuilder {
	content, err := RenderConfigFile(name, entries)
	if err != nil {
		b.errs = append(b.errs, err)
		return b
	}
	b.data[name] = content
	return b
}

// Build returns the ConfigMap, or the first error a config file raised.
func (b *ConfigMapBuilder) Build() (*corev1.ConfigMap, error) {
	if len(b.errs) > 0 {
		return nil, b.errs[0]
	}
	cm := &corev1.ConfigMap{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: b.scope.objectMeta(b.scope.ResourceName()),
		Data:       maps.Clone(b.data),
	}
	return cm, nil
}
