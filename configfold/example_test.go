package configfold_test

import (
	"errors"
	"fmt"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/configfold"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"
)

func ExampleFoldCommon() {
	cpuMin, cpuMax := resource.MustParse("250m"), resource.MustParse("4")
	declared := &v1alpha1.RoleGroupConfigSpec{
		Resources: &v1alpha1.ResourcesSpec{CPU: &v1alpha1.CPUResource{Min: &cpuMin}},
		Affinity:  &runtime.RawExtension{Raw: []byte(`{"podAntiAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":70,"podAffinityTerm":{"topologyKey":"kubernetes.io/hostname"}}]}}`)},
	}
	group := &v1alpha1.RoleGroupConfigSpec{
		Resources: &v1alpha1.ResourcesSpec{CPU: &v1alpha1.CPUResource{Max: &cpuMax}},
		Affinity:  &runtime.RawExtension{Raw: []byte(`{"nodeAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":1,"preference":{"matchExpressions":[{"key":"disk","operator":"In","values":["ssd"]}]}}]}}`)},
	}

	folded, err := configfold.FoldCommon(configfold.Layers[v1alpha1.RoleGroupConfigSpec]{
		RoleName:      "server",
		RoleGroupName: "default",
		Declaration:   declared,
		RoleGroup:     group,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("cpu:", folded.Config.Resources.CPU.Min, "to", folded.Config.Resources.CPU.Max)
	fmt.Println("node affinity:", folded.Affinity.NodeAffinity != nil, "anti-affinity:", folded.Affinity.PodAntiAffinity != nil)
	if o := folded.AffinityOverride; o != nil {
		fmt.Println("AffinityOverridden:", o)
	}
	// Output:
	// cpu: 250m to 4
	// node affinity: true anti-affinity: false
	// AffinityOverridden: spec.roles.server.roleGroups.default.config.affinity replaces the affinity wholesale, so the pods get no podAntiAffinity (the operator's default for the role); affinity is not merged per member: restate a member beside your own to keep it
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

	folded, err := configfold.FoldProduct(configfold.Layers[ConfigSpec]{
		Declaration: &ConfigSpec{ListenerClass: str("cluster-internal"), TLS: &TLSSpec{SecretClass: str("tls")}},
		Role:        &ConfigSpec{ListenerClass: str("external-stable")},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(*folded.ListenerClass, *folded.TLS.SecretClass)

	type Bad struct {
		Port int32 `json:"port"`
	}
	err = configfold.ValidateProductType[Bad]()
	fmt.Println(failure.ClassOf(err), failure.AuthorOf(err), failure.FieldOf(err))
	// Output:
	// external-stable tls
	// invalid operator configfold_test.Bad.Port
}

func ExampleDecodeAffinity() {
	// On its own, DecodeAffinity names the field inside the affinity.
	_, err := configfold.DecodeAffinity(&runtime.RawExtension{Raw: []byte(`{"nodeAffinty":{}}`)})
	fmt.Println(err, errors.Is(err, configfold.ErrUnknownField))

	// The same mistake in a role group, as FoldCommon reports it: an
	// invalid input of the user, at its absolute path.
	_, err = configfold.FoldCommon(configfold.Layers[v1alpha1.RoleGroupConfigSpec]{
		RoleName:      "server",
		RoleGroupName: "default",
		RoleGroup:     &v1alpha1.RoleGroupConfigSpec{Affinity: &runtime.RawExtension{Raw: []byte(`{"nodeAffinty":{}}`)}},
	})
	fmt.Println(failure.ClassOf(err), failure.AuthorOf(err), failure.FieldOf(err))
	// Output:
	// nodeAffinty: unknown field true
	// invalid user spec.roles.server.roleGroups.default.config.affinity.nodeAffinty
}

func ExamplePreferredAffinityTerm() {
	// The selectors are the ones the workloads are built with
	// (builders.Scope.SelectorLabels), so the terms select this product's
	// cluster only.
	clusterSelector := map[string]string{
		"app.kubernetes.io/instance":   "simple",
		"app.kubernetes.io/managed-by": "hdfs.opkit.dev",
	}
	roleSelector := map[string]string{
		"app.kubernetes.io/instance":   "simple",
		"app.kubernetes.io/managed-by": "hdfs.opkit.dev",
		"app.kubernetes.io/component":  "datanode",
	}
	spread, err := configfold.PreferredAffinityTerm(70, configfold.TopologyKeyHostname, roleSelector)
	if err != nil {
		fmt.Println(err)
		return
	}
	together, err := configfold.PreferredAffinityTerm(20, configfold.TopologyKeyHostname, clusterSelector)
	if err != nil {
		fmt.Println(err)
		return
	}
	// A composite default: spread a role's pods over nodes, keep the
	// cluster together.
	aff, err := configfold.EncodeAffinity(&corev1.Affinity{
		PodAntiAffinity: &corev1.PodAntiAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{spread}},
		PodAffinity:     &corev1.PodAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{together}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	declared := &v1alpha1.RoleGroupConfigSpec{Affinity: aff}
	fmt.Println(string(declared.Affinity.Raw))
	// Output:
	// {"podAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":20,"podAffinityTerm":{"labelSelector":{"matchLabels":{"app.kubernetes.io/instance":"simple","app.kubernetes.io/managed-by":"hdfs.opkit.dev"}},"topologyKey":"kubernetes.io/hostname"}}]},"podAntiAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":70,"podAffinityTerm":{"labelSelector":{"matchLabels":{"app.kubernetes.io/component":"datanode","app.kubernetes.io/instance":"simple","app.kubernetes.io/managed-by":"hdfs.opkit.dev"}},"topologyKey":"kubernetes.io/hostname"}}]}}
}

func ExampleMergeOverrides() {
	merged, err := configfold.MergeOverrides(configfold.Layers[v1alpha1.OverridesSpec]{
		RoleName:      "server",
		RoleGroupName: "default",
		Declaration:   &v1alpha1.OverridesSpec{EnvOverrides: map[string]string{"HEAP": "1g", "MODE": "prod"}},
		Role: &v1alpha1.OverridesSpec{
			CliOverrides: []string{"--verbose"},
			// Strategic-merge directives are accepted.
			PodOverrides: &runtime.RawExtension{Raw: []byte(`{"spec":{"volumes":[{"name":"scratch","$patch":"delete"}]}}`)},
		},
		RoleGroup: &v1alpha1.OverridesSpec{
			EnvOverrides: map[string]string{"HEAP": "4g"},
			PodOverrides: &runtime.RawExtension{Raw: []byte(`{"spec":{"containres":[]}}`)},
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(merged.EnvOverrides["HEAP"], merged.EnvOverrides["MODE"], merged.CliOverrides)
	for _, l := range merged.PodOverrides {
		fmt.Println("apply:", l.Layer, string(l.Patch))
	}
	for _, ignored := range merged.IgnoredPodOverrides {
		fmt.Println("PodOverrideIgnored:", ignored)
	}
	// Output:
	// 4g prod [--verbose]
	// apply: role {"spec":{"volumes":[{"name":"scratch","$patch":"delete"}]}}
	// PodOverrideIgnored: spec.roles.server.roleGroups.default.podOverrides is not applied: spec.roles.server.roleGroups.default.podOverrides.spec.containres: unknown field
}
