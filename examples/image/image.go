package main

import (
	"archive/tar"
	"bytes"
	"fmt"
	"io"
	"os"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// The image's layout and user, as the Dockerfiles set them.
const (
	// binaryPath is where the operator's binary is, and the entrypoint.
	binaryPath = "/manager"
	// user is distroless's nonroot user and group, numeric so that the
	// kubelet can check runAsNonRoot without an /etc/passwd.
	user = "65532:65532"
)

// epoch is every timestamp in the image, so the same binary gives the
// same image digest.
var epoch = time.Unix(0, 0).UTC()

// newImage returns an OCI image for linux/arch of one layer holding the
// binary at binaryPath (owned by root, executable by all), run as user.
func newImage(binary, arch string) (v1.Image, error) {
	data, err := os.ReadFile(binary)
	if err != nil {
		return nil, err
	}
	layerTar, err := tarFile(binaryPath[1:], data)
	if err != nil {
		return nil, err
	}
	layer, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(layerTar)), nil
	}, tarball.WithMediaType(types.OCILayer))
	if err != nil {
		return nil, err
	}
	img := mutate.MediaType(empty.Image, types.OCIManifestSchema1)
	img = mutate.ConfigMediaType(img, types.OCIConfigJSON)
	img, err = mutate.Append(img, mutate.Addendum{
		Layer:   layer,
		History: v1.History{Created: v1.Time{Time: epoch}, CreatedBy: "go build " + fmt.Sprint(buildFlags) + " (CGO_ENABLED=0)"},
	})
	if err != nil {
		return nil, err
	}
	cfg, err := img.ConfigFile()
	if err != nil {
		return nil, err
	}
	cfg = cfg.DeepCopy()
	cfg.OS, cfg.Architecture = "linux", arch
	cfg.Created = v1.Time{Time: epoch}
	cfg.Config.Entrypoint = []string{binaryPath}
	cfg.Config.User = user
	cfg.Config.WorkingDir = "/"
	return mutate.ConfigFile(img, cfg)
}

// tarFile returns a tar archive of one executable file.
func tarFile(name string, data []byte) ([]byte, error) {
	var buf bytes.Buffer
	w := tar.NewWriter(&buf)
	if err := w.WriteHeader(&tar.Header{
		Typeflag: tar.TypeReg,
		Name:     name,
		Mode:     0o755,
		Size:     int64(len(data)),
		ModTime:  epoch,
		Format:   tar.FormatPAX,
	}); err != nil {
		return nil, err
	}
	if _, err := w.Write(data); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
