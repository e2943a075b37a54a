package configfold_test

import (
	"errors"
	"fmt"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/configfold"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"
)

func ExampleFoldCommon() {
	cpuMin, cpuMax := resource.MustParse("250m"), resource.MustParse("4")
	defaults := &v1alpha1.RoleGroupConfigSpec{
		Resources: &v1alpha1.ResourcesSpec{CPU: &v1alpha1.CPUResource{Min: &cpuMin}},
		Affinity:  &runtime.RawExtension{Raw: []byte(`{"podAntiAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":70,"podAffinityTerm":{"topologyKey":"kubernetes.io/hostname"}}]}}`)},
	}
	group := &v1alpha1.RoleGroupConfigSpec{
		Resources: &v1alpha1.ResourcesSpec{CPU: &v1alpha1.CPUResource{Max: &cpuMax}},
		Affinity:  &runtime.RawExtension{Raw: []byte(`{"nodeAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":1,"preference":{"matchExpressions":[{"key":"disk","operator":"In","values":["ssd"]}]}}]}}`)},
	}

	folded, overrides, err := configfold.FoldCommon(defaults, nil, group)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("cpu:", folded.Resources.CPU.Min, "to", folded.Resources.CPU.Max)
	for _, o := range overrides {
		fmt.Println(o.By, "replaced", o.Replaced, "discarding", o.Discarded)
	}
	// Output:
	// cpu: 250m to 4
	// roleGroup replaced product discarding [podAntiAffinity]
}

func ExampleFoldProduct() {
	type TLSSpec struct {
		SecretClass *string `json:"secretClass,omitempty"`
	}
	type ConfigSpec struct {
		*v1alpha1.RoleGroupConfigSpec `json:",inline"` // folded by FoldCommon

		ListenerClass *string  `json:"listenerClass,omitempty"`
		TLS           *TLSSpec `json:"tls,omitempty" opkit:"atomic"`
	}
	str := func(s string) *string { return &s }

	defaults := &ConfigSpec{ListenerClass: str("cluster-internal"), TLS: &TLSSpec{SecretClass: str("tls")}}
	role := &ConfigSpec{ListenerClass: str("external-stable")}
	folded, err := configfold.FoldProduct(defaults, role, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(*folded.ListenerClass, *folded.TLS.SecretClass)

	type Bad struct {
		Port int32 `json:"port"`
	}
	var te *configfold.TypeError
	if err := configfold.ValidateProductType[Bad](); errors.As(err, &te) {
		fmt.Println("refused:", te.GoField, te.JSONName)
	}
	// Output:
	// external-stable tls
	// refused: Port port
}

func ExampleDecodeAffinity() {
	_, err := configfold.DecodeAffinity(&runtime.RawExtension{Raw: []byte(`{"nodeAffinty":{}}`)})
	var fe *configfold.FieldError
	if errors.As(err, &fe) {
		fmt.Println(fe.Field, errors.Is(err, configfold.ErrUnknownField))
	}

	// The same mistake in a role group, as FoldCommon reports it.
	_, _, err = configfold.FoldCommon(nil, nil, &v1alpha1.RoleGroupConfigSpec{
		Affinity: &runtime.RawExtension{Raw: []byte(`{"nodeAffinty":{}}`)},
	})
	if errors.As(err, &fe) {
		fmt.Println(fe.SpecPath("server", "default"))
	}
	// Output:
	// nodeAffinty true
	// spec.roles.server.roleGroups.default.config.affinity.nodeAffinty
}

func ExampleEncodeAffinity() {
	// A composite default: spread a role's pods over nodes, keep the cluster
	// together.
	aff, err := configfold.EncodeAffinity(&corev1.Affinity{
		PodAntiAffinity: &corev1.PodAntiAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{
			configfold.PreferredAffinityTerm(70, configfold.TopologyKeyHostname, configfold.RoleSelectorLabels("simple", "datanode")),
		}},
		PodAffinity: &corev1.PodAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{
			configfold.PreferredAffinityTerm(20, configfold.TopologyKeyHostname, configfold.ClusterSelectorLabels("simple")),
		}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defaults := &v1alpha1.RoleGroupConfigSpec{Affinity: aff}
	fmt.Println(string(defaults.Affinity.Raw))
	// Output:
	// {"podAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":20,"podAffinityTerm":{"labelSelector":{"matchLabels":{"app.kubernetes.io/instance":"simple"}},"topologyKey":"kubernetes.io/hostname"}}]},"podAntiAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":70,"podAffinityTerm":{"labelSelector":{"matchLabels":{"app.kubernetes.io/component":"datanode","app.kubernetes.io/instance":"simple"}},"topologyKey":"kubernetes.io/hostname"}}]}}
}

func ExampleMergeOverrides() {
	merged := configfold.MergeOverrides(
		&v1alpha1.OverridesSpec{EnvOverrides: map[string]string{"HEAP": "1g", "MODE": "prod"}},
		&v1alpha1.OverridesSpec{CliOverrides: []string{"--verbose"}},
		&v1alpha1.OverridesSpec{
			EnvOverrides: map[string]string{"HEAP": "4g"},
			PodOverrides: &runtime.RawExtension{Raw: []byte(`{"spec":{"containres":[]}}`)},
		},
	)
	fmt.Println(merged.EnvOverrides["HEAP"], merged.EnvOverrides["MODE"], merged.CliOverrides)
	for _, err := range merged.PodOverrideErrors {
		fmt.Println("not applied:", err)
	}
	// Output:
	// 4g prod [--verbose]
	// not applied: roleGroup podOverrides.spec.containres: unknown field
}
