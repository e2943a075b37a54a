package imageresolve

import (
	"fmt"

	"github.com/distribution/reference"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
)

// tagGrammar is the tag grammar, quoted in messages so the user knows what
// the parser wanted.
const tagGrammar = "[A-Za-z0-9_][A-Za-z0-9._-]{0,127}"

// value is a folded field and the layer it came from.
type value struct {
	v     string
	layer v1alpha1.Layer
}

// parts are the folded fields a reference is assembled from, and the role
// whose declaration was read.
type parts struct {
	role                                  string
	repo, productVersion, platformVersion value
}

// assemble builds <repo>/<product>:<tag> and validates it with the
// distribution reference parser. The whole reference is parsed once, as a
// container runtime will; only when that fails are the parts parsed one by
// one, to blame the field that broke it.
func assemble(opts Options, in parts) (string, error) {
	name := in.repo.v + "/" + opts.ProductName
	tag := in.productVersion.v
	if opts.PlatformName != "" {
		tag += "-" + opts.PlatformName + in.platformVersion.v
	}
	ref := name + ":" + tag
	parsed, err := reference.Parse(ref)
	if err == nil && isExactly(parsed, name, tag) {
		return ref, nil
	}

	named, err := parseName(name)
	if err != nil {
		// The product name is the operator's constant; blame it only when it
		// is itself no valid path, otherwise blame the repository.
		if _, perr := parseName(opts.ProductName); perr != nil {
			return "", in.invalid(FieldProductName, value{opts.ProductName, v1alpha1.LayerDefaults}, fmt.Errorf("repository %q: %w", name, err))
		}
		return "", in.invalid(FieldRepo, in.repo, fmt.Errorf("repository %q: %w", name, err))
	}
	if _, err := reference.WithTag(named, tag); err != nil {
		field, v := blameTag(named, opts, in)
		return "", in.invalid(field, v, fmt.Errorf("tag %q: %w: a tag must match %s", tag, err, tagGrammar))
	}
	// Both parts are legal on their own; the grammar has no rule that could
	// still refuse the whole, but say so if a future parser does.
	return "", in.invalid(FieldRepo, in.repo, fmt.Errorf("reference %q: %w", ref, reference.ErrReferenceInvalidFormat))
}

// isExactly reports whether ref is name:tag and nothing else, so a repo
// that smuggles in a tag or digest cannot shift the parse.
func isExactly(ref reference.Reference, name, tag string) bool {
	tagged, ok := ref.(reference.NamedTagged)
	if !ok || tagged.Name() != name || tagged.Tag() != tag {
		return false
	}
	_, digested := ref.(reference.Digested)
	return !digested
}

// parseName parses a repository name: a reference without tag or digest.
func parseName(name string) (reference.Named, error) {
	ref, err := reference.Parse(name)
	if err != nil {
		return nil, err
	}
	named, ok := ref.(reference.Named)
	if !ok || !reference.IsNameOnly(named) {
		return nil, reference.ErrReferenceInvalidFormat
	}
	return named, nil
}

// blameTag finds the field that makes the assembled tag invalid, using the
// parser's own tag grammar on each part. A part that continues the tag is
// checked behind a legal first character, since only the tag's first
// character is restricted further. When every part is legal the tag is too
// long; the longer version is blamed.
func blameTag(named reference.Named, opts Options, in parts) (string, value) {
	legal := func(tag string) bool {
		_, err := reference.WithTag(named, tag)
		return err == nil
	}
	switch {
	case !legal(in.productVersion.v):
		return FieldProductVersion, in.productVersion
	case opts.PlatformName != "" && !legal("x"+opts.PlatformName):
		return FieldPlatformName, value{opts.PlatformName, v1alpha1.LayerDefaults}
	case opts.PlatformName != "" && !legal("x"+in.platformVersion.v):
		return FieldPlatformVersion, in.platformVersion
	case len(in.platformVersion.v) > len(in.productVersion.v):
		return FieldPlatformVersion, in.platformVersion
	default:
		return FieldProductVersion, in.productVersion
	}
}

// invalid builds the ValidationError for a field whose value breaks the
// reference; cause names the broken part.
func (in parts) invalid(field string, v value, cause error) *ValidationError {
	return &ValidationError{
		Field:    field,
		Value:    v.v,
		Layer:    v.layer,
		RoleName: in.role,
		Err:      fmt.Errorf("%w: %w", ErrInvalidReference, cause),
	}
}
