// Command image builds an example operator's container image without a
// container runtime or a registry: it builds the operator as a static
// linux binary (CGO_ENABLED=0) and puts it, alone, on an empty base, with
// the entrypoint and the numeric non-root user the Dockerfiles set. It
// writes the image as an OCI image layout and, with -tar, as a tarball
// that docker load and kind load image-archive read. From the examples
// directory:
//
//	go run ./image -o ../bin/images/kafka-operator -tar ../bin/images/kafka-operator.tar \
//		-ref opkit-examples/kafka-operator:dev ./kafka
//
// (make images does this for both example operators.) The Dockerfiles'
// images are built on a distroless base, which also carries CA
// certificates, time zone data and an /etc/passwd; this one has only the
// binary, which is all the example operators read: they talk to the API
// server only, with the CA of their service account's token.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"

	"github.com/google/go-containerregistry/pkg/name"
)

func main() {
	var o options
	flag.StringVar(&o.layout, "o", "", "directory to write the OCI image layout to (replaced if it holds one already)")
	flag.StringVar(&o.tarball, "tar", "", "file to write the image to as a tarball as well (docker load, kind load image-archive)")
	flag.StringVar(&o.ref, "ref", "", "the image's name and tag, recorded in the layout's index and the tarball")
	flag.StringVar(&o.arch, "arch", runtime.GOARCH, "the architecture to build for (GOARCH)")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: %s -o DIR -ref NAME:TAG [-tar FILE] [-arch ARCH] PACKAGE\n", filepath.Base(os.Args[0]))
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 || o.layout == "" || o.ref == "" {
		flag.Usage()
		os.Exit(2)
	}
	o.pkg = flag.Arg(0)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, o)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "image:", err)
		os.Exit(1)
	}
}

// options are the command line's settings.
type options struct {
	pkg, arch, ref  string
	layout, tarball string
}

func run(ctx context.Context, o options) error {
	// Refuse what would fail at the end before the build.
	if _, err := name.NewTag(o.ref); err != nil {
		return fmt.Errorf("image reference %q: %w", o.ref, err)
	}
	if _, err := checkLayoutDir(o.layout); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "opkit-image-")
	if err != nil {
		return err
	}
	defer func() { _ = os.RemoveAll(tmp) }()
	bin := filepath.Join(tmp, "manager")
	if err := buildBinary(ctx, o.pkg, o.arch, bin); err != nil {
		return err
	}
	img, err := newImage(bin, o.arch)
	if err != nil {
		return err
	}
	if err := writeLayout(o.layout, img, o.ref); err != nil {
		return err
	}
	if o.tarball != "" {
		if err := writeTarball(o.tarball, img, o.ref); err != nil {
			return err
		}
	}
	digest, err := img.Digest()
	if err != nil {
		return fmt.Errorf("reading the image's digest: %w", err)
	}
	fmt.Printf("%s %s -> %s\n", o.ref, digest, o.layout)
	return nil
}
