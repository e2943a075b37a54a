package imageresolve_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/distribution/reference"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/imageresolve"
)

// FuzzResolve checks, for arbitrary user-supplied fields beside a role
// declaration that pins its own image, that resolution either fails with a
// *ValidationError or returns the image the rule asks for: the declaration's
// custom reference only when the user states no image field, otherwise a
// reference the distribution parser accepts whose tag starts with the
// product version; and that the version label always describes that image.
func FuzzResolve(f *testing.F) {
	f.Add("quay.io/opkit", "476", "0.2.0")
	f.Add("quay.io/opkit", "476", "N/A")
	f.Add("Quay.io/OpKit", "3.9 beta", "")
	f.Add("localhost:5000/a/b", "_x", "1-2.3")
	f.Add("", "", "")
	f.Add("", "4.7.7", "")
	f.Fuzz(func(t *testing.T, repo, productVersion, platformVersion string) {
		opts := imageresolve.Options{ProductName: "trino", PlatformName: "opkit", Defaults: v1alpha1.ImageSpec{
			Repo: "quay.io/opkit", ProductVersion: "476", PlatformVersion: "0.2.0",
		}}
		declaration := &v1alpha1.ImageSpec{Custom: "quay.io/opkit/trino-worker:470", ProductVersion: "470"}
		cluster := &v1alpha1.ImageSpec{Repo: repo, ProductVersion: productVersion, PlatformVersion: platformVersion}
		got, err := resolve(opts, declaration, cluster)
		if err != nil {
			var ve *imageresolve.ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("error is no *ValidationError: %v", err)
			}
			return
		}
		if repo == "" && productVersion == "" && platformVersion == "" {
			if got.Reference != declaration.Custom || got.ProductVersion != declaration.ProductVersion {
				t.Fatalf("without a user field the declaration's image applies, got %+v", got)
			}
			return
		}
		ref, perr := reference.Parse(got.Reference)
		if perr != nil {
			t.Fatalf("Resolve returned %q, which does not parse: %v", got.Reference, perr)
		}
		tagged, ok := ref.(reference.Tagged)
		if !ok {
			t.Fatalf("Resolve returned %q without a tag", got.Reference)
		}
		wantVersion := productVersion
		if wantVersion == "" {
			wantVersion = "470" // the declaration's, above the defaults
		}
		if !strings.HasPrefix(tagged.Tag(), wantVersion) {
			t.Fatalf("tag %q does not start with the product version %q", tagged.Tag(), wantVersion)
		}
		if got.ProductVersion != "" && got.ProductVersion != wantVersion {
			t.Fatalf("version label %q does not describe the image %q", got.ProductVersion, got.Reference)
		}
	})
}
