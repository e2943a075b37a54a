package main

import (
	"archive/tar"
	"bytes"
	"debug/elf"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

// Each example operator's image, built without a daemon, runs its binary
// as a numeric non-root user from an entrypoint that the Dockerfile
// sets too; the binary is static and answers --help; the layout and the
// tarball hold the same image, and assembling it again gives the same
// digest.
func TestExampleImages(t *testing.T) {
	for _, example := range []string{"kafka", "website"} {
		t.Run(example, func(t *testing.T) {
			dir := t.TempDir()
			o := options{
				pkg:     "../" + example,
				arch:    runtime.GOARCH,
				ref:     "opkit-examples/" + example + "-operator:test",
				layout:  filepath.Join(dir, "layout"),
				tarball: filepath.Join(dir, "image.tar"),
			}
			if err := run(t.Context(), o); err != nil {
				t.Fatal(err)
			}
			img := readLayout(t, o.layout, o.ref)
			cfg, err := img.ConfigFile()
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]string{binaryPath}, cfg.Config.Entrypoint); diff != "" {
				t.Errorf("entrypoint (-want +got):\n%s", diff)
			}
			if uid := numericUser(t, cfg.Config.User); uid == 0 {
				t.Errorf("the image runs as root (user %q)", cfg.Config.User)
			}
			if cfg.OS != "linux" || cfg.Architecture != runtime.GOARCH {
				t.Errorf("platform %s/%s, want linux/%s", cfg.OS, cfg.Architecture, runtime.GOARCH)
			}
			checkDockerfile(t, filepath.Join("..", example, "Dockerfile"), example, cfg.Config)

			bin := extractBinary(t, img)
			checkStatic(t, bin)
			checkHelp(t, bin)

			again, err := newImage(bin, runtime.GOARCH)
			if err != nil {
				t.Fatal(err)
			}
			want := digest(t, img)
			if got := digest(t, again); got != want {
				t.Errorf("the same binary gave another image: %s, then %s", want, got)
			}
			tag, err := name.NewTag(o.ref)
			if err != nil {
				t.Fatal(err)
			}
			fromTar, err := tarball.ImageFromPath(o.tarball, &tag)
			if err != nil {
				t.Fatalf("reading the tarball as %s: %v", o.ref, err)
			}
			// A tarball's manifest is Docker's, so compare what the
			// manifests point to: the config, which lists the layers.
			if got, want := configName(t, fromTar), configName(t, img); got != want {
				t.Errorf("the tarball holds image config %s, the layout %s", got, want)
			}
		})
	}
}

// readLayout returns the one image of the OCI layout at dir, checking
// that the index names it ref.
func readLayout(t *testing.T, dir, ref string) v1.Image {
	t.Helper()
	idx, err := layout.ImageIndexFromPath(dir)
	if err != nil {
		t.Fatal(err)
	}
	m, err := idx.IndexManifest()
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Manifests) != 1 {
		t.Fatalf("the layout holds %d manifests, want 1", len(m.Manifests))
	}
	if got := m.Manifests[0].Annotations[refNameAnnotation]; got != ref {
		t.Errorf("the layout names the image %q, want %q", got, ref)
	}
	img, err := idx.Image(m.Manifests[0].Digest)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// numericUser returns the uid of a "uid:gid" user, failing the test when
// either is not a number.
func numericUser(t *testing.T, user string) int {
	t.Helper()
	uid, gid, ok := strings.Cut(user, ":")
	u, uerr := strconv.Atoi(uid)
	_, gerr := strconv.Atoi(gid)
	if !ok || uerr != nil || gerr != nil {
		t.Fatalf("user %q is not numeric uid:gid (a kubelet cannot check runAsNonRoot by name)", user)
	}
	return u
}

// extractBinary writes the binary at binaryPath in img's one layer to a
// temporary directory, checking that the layer holds nothing else and
// that the user cannot change it.
func extractBinary(t *testing.T, img v1.Image) string {
	t.Helper()
	layers, err := img.Layers()
	if err != nil {
		t.Fatal(err)
	}
	if len(layers) != 1 {
		t.Fatalf("the image has %d layers, want 1", len(layers))
	}
	rc, err := layers[0].Uncompressed()
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = rc.Close() }()
	out := filepath.Join(t.TempDir(), "manager")
	var names []string
	r := tar.NewReader(rc)
	for {
		h, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, h.Name)
		if "/"+h.Name != binaryPath {
			continue
		}
		if h.Mode != 0o755 || h.Uid != 0 {
			t.Errorf("%s: mode %o owned by %d, want 755 owned by root", h.Name, h.Mode, h.Uid)
		}
		data, err := io.ReadAll(r)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(out, data, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff([]string{binaryPath[1:]}, names); diff != "" {
		t.Fatalf("layer contents (-want +got):\n%s", diff)
	}
	return out
}

// checkStatic fails the test when bin needs a dynamic loader or a shared
// library, which an empty base does not have.
func checkStatic(t *testing.T, bin string) {
	t.Helper()
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Errorf("%s asks for a dynamic loader", bin)
		}
	}
	if libs, err := f.ImportedLibraries(); err != nil || len(libs) > 0 {
		t.Errorf("%s links shared libraries %v (%v)", bin, libs, err)
	}
}

// checkHelp runs bin --help, which lists the flags the Deployment passes.
func checkHelp(t *testing.T, bin string) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Logf("not running the linux binary on %s", runtime.GOOS)
		return
	}
	out, err := exec.CommandContext(t.Context(), bin, "--help").CombinedOutput()
	if err != nil {
		t.Fatalf("%s --help: %v\n%s", bin, err, out)
	}
	for _, flag := range []string{"-leader-elect", "-health-probe-bind-address", "-metrics-bind-address", "-metrics-secure"} {
		if !bytes.Contains(out, []byte(flag+" ")) && !bytes.Contains(out, []byte(flag+"\n")) {
			t.Errorf("--help does not list %s:\n%s", flag, out)
		}
	}
}

func digest(t *testing.T, img v1.Image) v1.Hash {
	t.Helper()
	d, err := img.Digest()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func configName(t *testing.T, img v1.Image) v1.Hash {
	t.Helper()
	d, err := img.ConfigName()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// What would fail after the build is refused before it, and a directory
// that is not an image layout is left alone.
func TestRefusesBeforeBuilding(t *testing.T) {
	notLayout := t.TempDir()
	keep := filepath.Join(notLayout, "keep")
	if err := os.WriteFile(keep, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		o    options
		want string
	}{
		{"a reference that is not a name and tag", options{ref: "Opkit/Kafka:dev", layout: filepath.Join(t.TempDir(), "out")}, "image reference"},
		{"an output directory holding something else", options{ref: "opkit-examples/x:dev", layout: notLayout}, "not an OCI image layout"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// A package that does not exist: reaching the build fails
			// with another message.
			tt.o.pkg, tt.o.arch = "./does-not-exist", runtime.GOARCH
			err := run(t.Context(), tt.o)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("run = %v, want an error mentioning %q", err, tt.want)
			}
		})
	}
	if _, err := os.Stat(keep); err != nil {
		t.Errorf("the directory that is not a layout lost its file: %v", err)
	}
}
