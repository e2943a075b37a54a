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
	// selector: 4 keys
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
	sts, err := builders.NewStatefulSet(scope, corev1.Container{Name: "main"}).
		WithImage("registry.example/zookeeper:3.9.2", corev1.PullIfNotPresent).
		WithConfig(config, nil).
		WithDataVolume(builders.DataVolume{MountPath: "/data"}).
		WithEnvOverrides(map[string]string{"B": "2", "A": "1"}).
		WithReplicas(3).
		Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	main := sts.Spec.Template.Spec.Containers[0]
	fmt.Println(sts.Name, sts.Spec.ServiceName, sts.Spec.PodManagementPolicy)
	fmt.Println(main.Image, main.Resources.Limits.Memory(), main.Env[0].Name, main.Env[1].Name)
	fmt.Println(sts.Spec.VolumeClaimTemplates[0].Name, *sts.Spec.Template.Spec.TerminationGracePeriodSeconds)

	// A pod override that would hide the data volume is refused.
	_, err = builders.NewStatefulSet(scope, corev1.Container{Name: "main"}).
		WithConfig(config, nil).
		WithDataVolume(builders.DataVolume{MountPath: "/data"}).
		WithPodOverrides([]byte(`{"spec":{"volumes":[{"name":"tmp","emptyDir":{}}],
			"containers":[{"name":"main","volumeMounts":[{"name":"tmp","mountPath":"/data"}]}]}}`)).
		Build()
	var verr *builders.ValidationError
	fmt.Println(errors.As(err, &verr), verr.Field)
	// Output:
	// prod-server-default prod-server-default-headless Parallel
	// registry.example/zookeeper:3.9.2 1Gi A B
	// data 120
	// true podOverrides.spec.containers[name=main].volumeMounts[mountPath=/data]
}

func ExampleRenderConfigFile() {
	out, _ := builders.RenderConfigFile("zoo.properties", map[string]string{
		"tickTime": "2000", "dataDir": "/data", "motd": "héllo # world",
	})
	fmt.Print(out)
	// Output:
	// dataDir=/data
	// motd=h\u00E9llo \# world
	// tickTime=2000
}
