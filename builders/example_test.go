package builders_test

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/utils/ptr"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/builders"
)

func ExampleRoleGroupResourceName() {
	fmt.Println(builders.RoleGroupResourceName("prod", "server", "default"))
	// Too long for a StatefulSet whose pods and Services must stay legal:
	// a readable head and a hash.
	fmt.Println(builders.RoleGroupResourceName(strings.Repeat("analytics", 6), "server", "default"))
	fmt.Println(builders.ServiceAccountName("ZookeeperCluster", "prod"))
	fmt.Println(builders.RoleGroupMarkerLabelKey("prod", "default"))
	// Output:
	// prod-server-default
	// analyticsanalyticsanalyticsanalyticsanalyti-f45831c3
	// zookeepercluster-prod
	// prod-default
}

func ExampleScope_Labels() {
	scope := builders.Scope{
		Cluster: "prod", Role: "server", RoleGroup: "default",
		ProductName: "zookeeper", ProductVersion: "3.9.2",
		ClusterLabels: map[string]string{
			"restarter.example/enable":   "true",
			"app.kubernetes.io/instance": "ignored", // the framework's key wins
			"pdb.opkit.dev/role":         "x",       // a reserved slot marker: withheld
		},
	}
	labels := scope.Labels()
	for _, k := range slices.Sorted(maps.Keys(labels)) {
		fmt.Printf("%s=%s\n", k, labels[k])
	}
	fmt.Println("selector:", len(scope.SelectorLabels()), "keys")
	// Output:
	// app.kubernetes.io/component=server
	// app.kubernetes.io/instance=prod
	// app.kubernetes.io/managed-by=opkit
	// app.kubernetes.io/name=zookeeper
	// app.kubernetes.io/role-group=default
	// app.kubernetes.io/version=3.9.2
	// prod-default=true
	// restarter.example/enable=true
	// selector: 5 keys
}

func ExampleNewStatefulSet() {
	scope := builders.Scope{Namespace: "data", Cluster: "prod", Role: "server", RoleGroup: "default"}
	config := &commonsv1alpha1.RoleGroupConfigSpec{
		Resources: &commonsv1alpha1.ResourcesSpec{
			Memory:  &commonsv1alpha1.MemoryResource{Limit: ptr.To(resource.MustParse("1Gi"))},
			Storage: &commonsv1alpha1.StorageResource{Capacity: ptr.To(resource.MustParse("10Gi"))},
		},
		GracefulShutdownTimeout: ptr.To("2m"),
	}
	sts, err := builders.NewStatefulSet(scope, corev1.Container{Name: "main", Args: []string{"start"}}).
		WithImage("registry.example/zookeeper:3.9.2", corev1.PullIfNotPresent).
		WithConfig(config, nil).
		WithConfigVolume("/opkit/config").
		WithDataVolume(builders.DataVolume{MountPath: "/data"}).
		WithEnv(corev1.EnvVar{Name: "ZK_HOME", Value: "/opt/zk"}).
		WithEnvOverrides(map[string]string{"B_PATH": "$(A_BASE)/bin", "A_BASE": "$(ZK_HOME)/lib"}).
		WithCliOverrides("--verbose").
		WithReplicas(3).
		Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	main := sts.Spec.Template.Spec.Containers[0]
	fmt.Println(sts.Name, sts.Spec.ServiceName, sts.Spec.PodManagementPolicy)
	fmt.Println(main.Image, main.Resources.Limits.Memory(), main.Args)
	var env, mounts []string
	for _, e := range main.Env {
		env = append(env, e.Name+"="+e.Value)
	}
	for _, m := range main.VolumeMounts {
		mounts = append(mounts, m.Name+":"+m.MountPath)
	}
	fmt.Println(strings.Join(env, " "))
	fmt.Println(strings.Join(mounts, " "))
	fmt.Println(sts.Spec.VolumeClaimTemplates[0].Name, *sts.Spec.Template.Spec.TerminationGracePeriodSeconds)

	// A pod override that would hide the data volume is refused, naming
	// the field the user wrote.
	_, err = builders.NewStatefulSet(scope, corev1.Container{Name: "main"}).
		WithConfig(config, nil).
		WithDataVolume(builders.DataVolume{MountPath: "/data"}).
		WithPodOverrides(builders.PodOverride{
			Layer: commonsv1alpha1.LayerRoleGroup,
			Patch: []byte(`{"spec":{"volumes":[{"name":"tmp","emptyDir":{}}],
				"containers":[{"name":"main","volumeMounts":[{"name":"tmp","mountPath":"/data"}]}]}}`),
		}).
		Build()
	fmt.Println(errors.Is(err, failure.ErrInvalid), failure.AuthorOf(err))
	fmt.Println(failure.FieldOf(err))
	// Output:
	// prod-server-default prod-server-default-headless Parallel
	// registry.example/zookeeper:3.9.2 1Gi [start --verbose]
	// ZK_HOME=/opt/zk A_BASE=$(ZK_HOME)/lib B_PATH=$(A_BASE)/bin
	// config:/opkit/config data:/data
	// data 120
	// true user
	// spec.roles.server.roleGroups.default.podOverrides.spec.containers[name=main].volumeMounts[mountPath=/data]
}

func ExampleNewConfigMap() {
	scope := builders.Scope{Namespace: "data", Cluster: "prod", Role: "server", RoleGroup: "default"}
	cm, err := builders.NewConfigMap(scope).WithConfigFile(builders.ConfigFile{
		Name:    "zoo.properties",
		Entries: map[string]string{"tickTime": "2000", "dataDir": "/data"},
		Overrides: []builders.ConfigOverride{
			{Layer: commonsv1alpha1.LayerRole, Entries: map[string]string{"tickTime": "3000"}},
		},
	}).Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(cm.Name, "\n", cm.Data["zoo.properties"])

	_, err = builders.NewConfigMap(scope).WithConfigFile(builders.ConfigFile{
		Name: "app.env",
		Overrides: []builders.ConfigOverride{
			{Layer: commonsv1alpha1.LayerRoleGroup, Entries: map[string]string{"not-a-name": "x"}},
		},
	}).Build()
	fmt.Println(err)
	// Output:
	// prod-server-default
	// dataDir=/data
	// tickTime=3000
	// spec.roles.server.roleGroups.default.configOverrides[app.env][not-a-name]: is not an environment variable name
}

func ExampleScope_RoleSelectorLabels() {
	group := builders.Scope{Namespace: "data", Cluster: "prod", Role: "server", RoleGroup: "default", ProductName: "zookeeper"}
	show := func(labels map[string]string) {
		var kv []string
		for _, k := range slices.Sorted(maps.Keys(labels)) {
			kv = append(kv, k+"="+labels[k])
		}
		fmt.Println(strings.Join(kv, " "))
	}
	// Spread the role's pods, keep the cluster together: the selectors an
	// affinity term takes.
	show(group.RoleSelectorLabels())
	show(group.ClusterSelectorLabels())
	fmt.Println(group.RoleScope().ResourceName())
	// Output:
	// app.kubernetes.io/component=server app.kubernetes.io/instance=prod app.kubernetes.io/managed-by=opkit app.kubernetes.io/name=zookeeper
	// app.kubernetes.io/instance=prod app.kubernetes.io/managed-by=opkit app.kubernetes.io/name=zookeeper
	// prod-server
}

func ExampleRenderConfigFile() {
	out, _ := builders.RenderConfigFile("zoo.properties", map[string]string{
		"tickTime": "2000", "dataDir": "/data", "motd": "héllo # world",
	})
	fmt.Print(out)
	// Output:
	// dataDir=/data
	// motd=h\u00E9llo # world
	// tickTime=2000
}
