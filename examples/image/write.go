package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

// refNameAnnotation names an image in an OCI layout's index.
const refNameAnnotation = "org.opencontainers.image.ref.name"

// writeLayout writes img as the one image of an OCI image layout at dir,
// named ref, replacing the layout dir holds (see checkLayoutDir).
func writeLayout(dir string, img v1.Image, ref string) error {
	exists, err := checkLayoutDir(dir)
	if err != nil {
		return err
	}
	if exists {
		if err := os.RemoveAll(dir); err != nil {
			return err
		}
	}
	p, err := layout.Write(dir, empty.Index)
	if err != nil {
		return err
	}
	return p.AppendImage(img, layout.WithAnnotations(map[string]string{refNameAnnotation: ref}))
}

// checkLayoutDir reports whether dir exists, refusing a directory that
// does not hold an OCI image layout, so that a mistyped -o removes
// nothing.
func checkLayoutDir(dir string) (bool, error) {
	_, err := os.Stat(dir)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if _, err := os.Stat(filepath.Join(dir, "oci-layout")); err != nil {
		return false, fmt.Errorf("%s exists and is not an OCI image layout; not replacing it", dir)
	}
	return true, nil
}

// writeTarball writes img, tagged ref, as a tarball at path.
func writeTarball(path string, img v1.Image, ref string) error {
	tag, err := name.NewTag(ref)
	if err != nil {
		return fmt.Errorf("image reference %q: %w", ref, err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return tarball.WriteToFile(path, tag, img)
}
