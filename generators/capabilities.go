package generators

import (
	"fmt"
	"path"
	"slices"

	"k8s.io/apimachinery/pkg/version"
	"k8s.io/client-go/discovery"

	"github.com/opkit-dev/opkit/api/failure/apierr"
)

// Capabilities is what discovery tells about the target cluster.
type Capabilities struct {
	// KubeVersion is the API server's version.
	KubeVersion *version.Info
	// APIVersions lists every served "group/version" and
	// "group/version/Kind" ("v1", "v1/ConfigMap", "apps/v1",
	// "apps/v1/Deployment"), sorted: the form of Helm's
	// .Capabilities.APIVersions.
	APIVersions []string
}

// DiscoverCapabilities asks d for the server version and the served
// resources. Groups whose discovery failed (an aggregated API that is down)
// are left out instead of failing the rendering; other failures keep their
// API class (apierr.Classify).
func DiscoverCapabilities(d Discovery) (Capabilities, error) {
	v, err := d.ServerVersion()
	if err != nil {
		return Capabilities{}, fmt.Errorf("discovering the server version: %w", apierr.Classify(err))
	}
	groups, resources, err := d.ServerGroupsAndResources()
	if err != nil && !discovery.IsGroupDiscoveryFailedError(err) {
		return Capabilities{}, fmt.Errorf("discovering the API versions: %w", apierr.Classify(err))
	}
	var versions []string
	for _, g := range groups {
		for _, gv := range g.Versions {
			versions = append(versions, gv.GroupVersion)
		}
	}
	for _, list := range resources {
		for _, r := range list.APIResources {
			versions = append(versions, path.Join(list.GroupVersion, r.Kind))
		}
	}
	slices.Sort(versions)
	return Capabilities{KubeVersion: v, APIVersions: slices.Compact(versions)}, nil
}
