package sample

import (
	"fmt"
	"io/fs"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/opkit-dev/opkit/api/crd"
)

// PlatformCRDs returns freshly decoded copies of the CRDs of the kinds the
// api module defines for products to refer to (S3Connection, S3Bucket,
// AuthenticationClass; see package [crd]), sorted by name. Pass them to
// controlplane.Options.CRDs beside the sample CRDs.
func PlatformCRDs() ([]*apiextensionsv1.CustomResourceDefinition, error) {
	return decodeCRDs(underCRD{crd.Manifests()})
}

// MustPlatformCRDs is PlatformCRDs for package-level initialisation; like
// MustCRDs it panics only for a build whose embedded manifests are damaged.
func MustPlatformCRDs() []*apiextensionsv1.CustomResourceDefinition {
	crds, err := PlatformCRDs()
	if err != nil {
		panic(fmt.Sprintf("sample: the api module's CRD manifests do not decode: %v", err)) //nolint:forbidigo // a Must function, for a build whose embedded files are damaged
	}
	return crds
}

// underCRD serves a file system's root as the directory "crd", the layout
// decodeCRDs reads.
type underCRD struct{ fsys fs.FS }

func (u underCRD) Open(name string) (fs.File, error) {
	if name == "crd" {
		return u.fsys.Open(".")
	}
	if rest, ok := strings.CutPrefix(name, "crd/"); ok {
		return u.fsys.Open(rest)
	}
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}
