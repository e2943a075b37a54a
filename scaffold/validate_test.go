package scaffold

import (
	"errors"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// longGroup is a group of 247 characters: a DNS-1123 subdomain, too long
// to follow the plural of a kind in a CRD's name.
var longGroup = strings.Repeat(strings.Repeat("g", 60)+".", 4) + "com"

// refusal is a FlagError a test expects: its flag, its value and a part
// of its rule.
type refusal struct {
	flag, value, rule string
}

// validOptions are options Validate accepts, writing into a fresh
// directory.
func validOptions(t *testing.T) Options {
	t.Helper()
	return Options{
		Type: Product, Name: "zk-operator", Module: "example.com/zk-operator",
		Group: "zk.example.com", Kind: "ZookeeperCluster",
		Dir: filepath.Join(t.TempDir(), "zk"), OpkitVersion: "v0.3.0",
	}
}

// Every value the scaffold refuses names its flag and the rule it
// breaks; values it accepts pass.
func TestValidate(t *testing.T) {
	tests := []struct {
		name   string
		change func(t *testing.T, o *Options)
		want   []refusal
	}{
		{"valid", func(*testing.T, *Options) {}, nil},
		{"component", func(_ *testing.T, o *Options) { o.Type = Component }, nil},
		{"beta version", func(_ *testing.T, o *Options) { o.Version = "v2beta3" }, nil},
		{"stable version", func(_ *testing.T, o *Options) { o.Version = "v1" }, nil},
		{"unknown type", func(_ *testing.T, o *Options) { o.Type = "operator" }, []refusal{{"--type", "operator", "product or component"}}},
		{"name with upper case", func(_ *testing.T, o *Options) { o.Name = "Zk-Operator" }, []refusal{{"--name", "Zk-Operator", "DNS-1035 label"}}},
		{"name starting with a digit", func(_ *testing.T, o *Options) { o.Name = "1zk" }, []refusal{{"--name", "1zk", "starting with a letter"}}},
		{"name too long", func(_ *testing.T, o *Options) { o.Name = strings.Repeat("z", MaxNameLength+1) }, []refusal{{"--name", strings.Repeat("z", MaxNameLength+1), "at most 47 characters"}}},
		{"longest name", func(_ *testing.T, o *Options) { o.Name = strings.Repeat("z", MaxNameLength) }, nil},
		{"module without a domain", func(_ *testing.T, o *Options) { o.Module = "zk-operator" }, []refusal{{"--module", "zk-operator", "missing dot in first path element"}}},
		{"module with a space", func(_ *testing.T, o *Options) { o.Module = "example.com/zk operator" }, []refusal{{"--module", "example.com/zk operator", "invalid char ' '"}}},
		{"group without a dot", func(_ *testing.T, o *Options) { o.Group = "zookeeper" }, []refusal{{"--group", "zookeeper", "at least one dot"}}},
		{"group with upper case", func(_ *testing.T, o *Options) { o.Group = "ZK.example.com" }, []refusal{{"--group", "ZK.example.com", "DNS-1123 subdomain"}}},
		{"group too long for the CRD's name", func(_ *testing.T, o *Options) { o.Group = longGroup },
			[]refusal{{"--group", longGroup, "<plural of the kind>.<group>, must be at most 253"}}},
		{"version without a number", func(_ *testing.T, o *Options) { o.Version = "v1alpha" }, []refusal{{"--version", "v1alpha", "v<N>alpha<M>"}}},
		{"version zero", func(_ *testing.T, o *Options) { o.Version = "v0" }, []refusal{{"--version", "v0", "positive integers"}}},
		{"version with a leading zero", func(_ *testing.T, o *Options) { o.Version = "v01" }, []refusal{{"--version", "v01", "without leading zeros"}}},
		{"version gamma", func(_ *testing.T, o *Options) { o.Version = "v1gamma1" }, []refusal{{"--version", "v1gamma1", "such as v1alpha1"}}},
		{"version upper case", func(_ *testing.T, o *Options) { o.Version = "V1" }, []refusal{{"--version", "V1", "such as v1alpha1"}}},
		{"kind in lower case", func(_ *testing.T, o *Options) { o.Kind = "zookeeper" }, []refusal{{"--kind", "zookeeper", "UpperCamelCase"}}},
		{"kind with an underscore", func(_ *testing.T, o *Options) { o.Kind = "Zoo_Keeper" }, []refusal{{"--kind", "Zoo_Keeper", "a Go identifier"}}},
		{"kind too long", func(_ *testing.T, o *Options) { o.Kind = "Z" + strings.Repeat("k", MaxKindLength) }, []refusal{{"--kind", "Z" + strings.Repeat("k", MaxKindLength), "at most 63 characters"}}},
		{"kind whose plural is too long", func(_ *testing.T, o *Options) { o.Kind = "Z" + strings.Repeat("k", MaxKindLength-1) }, []refusal{{"--kind", "Z" + strings.Repeat("k", MaxKindLength-1), "its plural, z" + strings.Repeat("k", MaxKindLength-1) + "s,"}}},
		{"kind ending in List", func(_ *testing.T, o *Options) { o.Kind = "ShoppingList" }, []refusal{{"--kind", "ShoppingList", "must not end in List"}}},
		{"kind the API package declares", func(_ *testing.T, o *Options) { o.Kind = "GroupVersion" }, []refusal{{"--kind", "GroupVersion", "declares that name itself"}}},
		{"dir holding a file", func(t *testing.T, o *Options) { writeFile(t, filepath.Join(o.Dir, "notes.txt")) }, []refusal{{"--dir", "", "it holds notes.txt; nothing was written"}}},
		{"dir holding files", func(t *testing.T, o *Options) {
			for _, f := range []string{"b.txt", "a.txt", "c.txt"} {
				writeFile(t, filepath.Join(o.Dir, f))
			}
		}, []refusal{{"--dir", "", "it holds a.txt and 2 other entries; nothing was written"}}},
		{"dir that is a file", func(t *testing.T, o *Options) { writeFile(t, o.Dir) }, []refusal{{"--dir", "", "not a directory"}}},
		{"empty dir", func(t *testing.T, o *Options) { mkdir(t, o.Dir) }, nil},
		{"both opkit flags", func(_ *testing.T, o *Options) { o.OpkitPath = ".." }, []refusal{{"--opkit-version", "v0.3.0", "not be given with --opkit-path"}}},
		{"opkit version without v", func(_ *testing.T, o *Options) { o.OpkitVersion = "0.3.0" }, []refusal{{"--opkit-version", "0.3.0", "semantic version"}}},
		{"opkit version not canonical", func(_ *testing.T, o *Options) { o.OpkitVersion = "v0.3" }, []refusal{{"--opkit-version", "v0.3", "semantic version"}}},
		{"opkit pseudo-version", func(_ *testing.T, o *Options) { o.OpkitVersion = "v0.0.0-20261201000000-0123456789ab" }, []refusal{{"--opkit-version", "v0.0.0-20261201000000-0123456789ab", "not a pseudo-version"}}},
		{"opkit path that is no checkout", func(t *testing.T, o *Options) { o.OpkitVersion, o.OpkitPath = "", t.TempDir() }, []refusal{{"--opkit-path", "", "must be a checkout of opkit"}}},
		{"no opkit flag, a release", func(_ *testing.T, o *Options) { o.OpkitVersion, o.BuildInfo = "", scaffoldBuild("v0.4.0") }, nil},
		{"no opkit flag, a build from a directory", func(_ *testing.T, o *Options) { o.OpkitVersion, o.BuildInfo = "", scaffoldBuild("(devel)") },
			[]refusal{{"--opkit-path or --opkit-version", "", `one is required: this scaffold is not a release of github.com/opkit-dev/opkit/scaffold (its version is "(devel)")`}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := validOptions(t)
			tt.change(t, &o)
			checkRefusals(t, o.Validate(), tt.want)
		})
	}
}

// Every refusal is reported in one run, not the first alone.
func TestValidateReportsEveryRefusal(t *testing.T) {
	o := Options{Type: "operator", Name: "Zk", Module: "zk", Group: "zk", Version: "v0", Kind: "zk", BuildInfo: scaffoldBuild("(devel)")}
	checkRefusals(t, o.Validate(), []refusal{
		{"--type", "operator", ""}, {"--name", "Zk", ""}, {"--module", "zk", ""}, {"--group", "zk", ""},
		{"--version", "v0", ""}, {"--kind", "zk", ""}, {"--opkit-path or --opkit-version", "", ""},
	})
	checkRefusals(t, Options{BuildInfo: scaffoldBuild("(devel)")}.Validate(), []refusal{
		{"--type", "", "is required"}, {"--name", "", "is required"}, {"--module", "", "is required"},
		{"--group", "", "is required"}, {"--kind", "", "is required"}, {"--opkit-path or --opkit-version", "", ""},
	})
}

// checkRefusals compares the FlagErrors joined in err with want: flags
// and values exactly, rules by the part want names.
func checkRefusals(t *testing.T, err error, want []refusal) {
	t.Helper()
	var got []*FlagError
	if err != nil {
		joined, ok := err.(interface{ Unwrap() []error })
		if !ok {
			t.Fatalf("Validate returned %T, not joined errors: %v", err, err)
		}
		for _, e := range joined.Unwrap() {
			fe, ok := errors.AsType[*FlagError](e)
			if !ok {
				t.Fatalf("not a *FlagError: %v", e)
			}
			got = append(got, fe)
		}
	}
	flags := func(n int, at func(int) (string, string)) []string {
		var out []string
		for i := range n {
			f, v := at(i)
			if strings.HasPrefix(v, os.TempDir()) {
				v = "" // a test's directory
			}
			out = append(out, f+" "+v)
		}
		return out
	}
	gotFlags := flags(len(got), func(i int) (string, string) { return got[i].Flag, got[i].Value })
	wantFlags := flags(len(want), func(i int) (string, string) { return want[i].flag, want[i].value })
	if diff := cmp.Diff(wantFlags, gotFlags); diff != "" {
		t.Fatalf("refused flags (-want +got):\n%s\nerror: %v", diff, err)
	}
	for i, w := range want {
		if !strings.Contains(got[i].Rule, w.rule) {
			t.Errorf("%s: rule %q does not say %q", w.flag, got[i].Rule, w.rule)
		}
	}
}

// scaffoldBuild is the build of the opkit-scaffold command at version.
func scaffoldBuild(version string) *debug.BuildInfo {
	return &debug.BuildInfo{Main: debug.Module{Path: ModulePath, Version: version}}
}

func writeFile(t *testing.T, name string) {
	t.Helper()
	mkdir(t, filepath.Dir(name))
	if err := os.WriteFile(name, []byte("keep me\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mkdir(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}
