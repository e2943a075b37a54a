package scaffold

import (
	"bytes"
	"go/format"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"
)

// testProject is the project of o, wired to opkit at a release.
func testProject(o Options) project {
	return newProject(o, atVersion(o.Type, "v0.3.0"))
}

func renderType(t *testing.T, typ Type) map[string][]byte {
	t.Helper()
	o := Options{Type: typ, Name: "zk-operator", Module: "example.com/zk-operator", Group: "zk.example.com", Kind: "ZookeeperCluster"}
	files, err := render(testProject(o))
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// A project holds the same kustomize tree, command, API package, RBAC
// generator and build files whatever its type; the operator's code, its
// types and its sample are the type's.
func TestRenderWritesTheProject(t *testing.T) {
	common := []string{
		".dockerignore", ".gitignore", "Dockerfile", "Makefile", "README.md", "main.go",
		"api/crd/kustomization.yaml", "api/crds.go", "api/v1alpha1/doc.go", "api/v1alpha1/register.go",
		"api/v1alpha1/zookeepercluster_types.go", "config/samples/zookeepercluster.yaml",
		"config/crd/kustomization.yaml", "config/default/kustomization.yaml",
		"config/manager/kustomization.yaml", "config/manager/manager.yaml", "config/manager/pdb.yaml",
		"config/prometheus/kustomization.yaml", "config/prometheus/metrics_service.yaml",
		"config/rbac/kustomization.yaml", "config/rbac/metrics_auth_role.yaml",
		"config/rbac/metrics_auth_role_binding.yaml", "config/rbac/metrics_reader_role.yaml",
		"config/rbac/service_account.yaml", "internal/rbacgen/main.go",
		"operator/doc.go", "operator/operator.go", "operator/operator_test.go",
	}
	own := map[Type][]string{
		Product:   {"operator/roles.go"},
		Component: {"operator/templates/configmap.yaml"},
	}
	for typ, extra := range own {
		t.Run(string(typ), func(t *testing.T) {
			want := slices.Sorted(slices.Values(append(slices.Clone(common), extra...)))
			got := slices.Sorted(maps.Keys(renderType(t, typ)))
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("files (-want +got):\n%s", diff)
			}
		})
	}
}

// Every Go file a project starts with parses and is formatted as gofmt
// formats it, whatever the lengths of the names in it.
func TestRenderedGoIsFormatted(t *testing.T) {
	for _, typ := range []Type{Product, Component} {
		for _, o := range []Options{
			{Type: typ, Name: "z", Module: "z.io/z", Group: "z.io", Kind: "Z", Version: "v1"},
			{Type: typ, Name: strings.Repeat("z", MaxNameLength), Module: "example.com/" + strings.Repeat("z", 80),
				Group: "zookeeper.platform.example.com", Kind: "ZookeeperEnsembleWithAVeryLongName", Version: "v12beta34"},
		} {
			files, err := render(testProject(o))
			if err != nil {
				t.Fatal(err)
			}
			for name, b := range files {
				if path.Ext(name) != ".go" {
					continue
				}
				if _, err := parser.ParseFile(token.NewFileSet(), name, b, parser.ParseComments); err != nil {
					t.Errorf("%s %s: %v", typ, name, err)
					continue
				}
				if formatted, err := format.Source(b); err != nil || !bytes.Equal(formatted, b) {
					t.Errorf("%s %s (kind %s) is not gofmt-clean: %v", typ, name, o.Kind, err)
				}
			}
		}
	}
}

// The opkit modules a project requires are those its code imports: no
// import left to a guessed version, no module required for nothing.
func TestRequiredModulesAreImported(t *testing.T) {
	for _, typ := range []Type{Product, Component} {
		t.Run(string(typ), func(t *testing.T) {
			imported := map[string]bool{}
			for name, b := range renderType(t, typ) {
				if path.Ext(name) != ".go" {
					continue
				}
				f, err := parser.ParseFile(token.NewFileSet(), name, b, parser.ImportsOnly)
				if err != nil {
					t.Fatal(err)
				}
				for _, imp := range f.Imports {
					p, _ := strconv.Unquote(imp.Path.Value)
					if pkg, ok := strings.CutPrefix(p, opkitPrefix); ok {
						imported[moduleOf(t, pkg)] = true
					}
				}
			}
			if diff := cmp.Diff(requiredModules(typ), slices.Sorted(maps.Keys(imported))); diff != "" {
				t.Errorf("required modules (-required +imported):\n%s", diff)
			}
		})
	}
}

// moduleOf returns the module (its directory) of an opkit package: in the
// repository, the nearest directory above it with a go.mod; outside, the
// package's first element.
func moduleOf(t *testing.T, pkg string) string {
	t.Helper()
	if _, err := os.Stat(filepath.Join("..", "go.work")); err != nil {
		return strings.Split(pkg, "/")[0]
	}
	for dir := pkg; dir != "."; dir = path.Dir(dir) {
		if _, err := os.Stat(filepath.Join("..", filepath.FromSlash(dir), "go.mod")); err == nil {
			return dir
		}
	}
	t.Fatalf("no module holds %s", pkg)
	return ""
}

// The YAML files a project starts with parse (every document of them);
// the component's templates are Go templates, rendered at run time.
func TestRenderedYAMLParses(t *testing.T) {
	for _, typ := range []Type{Product, Component} {
		for name, b := range renderType(t, typ) {
			if path.Ext(name) != ".yaml" || strings.HasPrefix(name, "operator/templates/") {
				continue
			}
			for i, doc := range strings.Split(string(b), "\n---\n") {
				var v map[string]any
				if err := yaml.UnmarshalStrict([]byte(doc), &v); err != nil || len(v) == 0 {
					t.Errorf("%s %s, document %d: %v (%d keys)", typ, name, i, err, len(v))
				}
			}
		}
	}
}

// The resource's plural is the one controller-gen derives, stated in the
// types' markers and in the CRD file's name.
func TestRenderNamesTheResource(t *testing.T) {
	o := Options{Type: Product, Name: "proxy-operator", Module: "example.com/proxy", Group: "net.example.com", Kind: "Proxy"}
	files, err := render(testProject(o))
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"api/v1alpha1/proxy_types.go":       "+kubebuilder:resource:scope=Namespaced,path=proxies,singular=proxy",
		"api/crd/kustomization.yaml":        "- net.example.com_proxies.yaml",
		"operator/operator.go":              `const ProductName = "proxy"`,
		"config/default/kustomization.yaml": "namePrefix: proxy-operator-",
	} {
		if !strings.Contains(string(files[name]), want) {
			t.Errorf("%s does not say %q:\n%s", name, want, files[name])
		}
	}
}
