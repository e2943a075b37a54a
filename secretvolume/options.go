package secretvolume

import (
	"strings"

	secretclassv1alpha1 "github.com/opkit-dev/opkit/api/secretclass/v1alpha1"
)

// DefaultMountRoot is the directory under which every secret volume is
// mounted, one subdirectory per volume, unless Options names another.
const DefaultMountRoot = "/opkit/secret"

// Options configures a Set. The zero value asks the opkit secret operator
// (secretclassv1alpha1.Driver) and mounts under DefaultMountRoot.
type Options struct {
	// Driver is the secret operator's CSI driver: the storage class of the
	// volumes and the domain of their annotations (the keys of
	// secretclassv1alpha1 with this domain in place of
	// secretclassv1alpha1.Driver). Empty means secretclassv1alpha1.Driver.
	Driver string

	// MountRoot is the directory the volumes are mounted under. Empty means
	// DefaultMountRoot.
	MountRoot string
}

func (o Options) driver() string {
	if o.Driver != "" {
		return o.Driver
	}
	return secretclassv1alpha1.Driver
}

func (o Options) mountRoot() string {
	if o.MountRoot != "" {
		return strings.TrimSuffix(o.MountRoot, "/")
	}
	return DefaultMountRoot
}

// annotation returns key (one of secretclassv1alpha1's annotation keys)
// under the options' driver.
func (o Options) annotation(key string) string {
	return o.driver() + strings.TrimPrefix(key, secretclassv1alpha1.Driver)
}
