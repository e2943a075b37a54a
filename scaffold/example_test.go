package scaffold_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/opkit-dev/opkit/scaffold"
)

// A component operator's project, written without completing it (NoRun):
// go mod tidy and make manifests then add go.sum, the deep copies, the CRD
// and config/rbac's derived roles.
func ExampleGenerate() {
	parent, err := os.MkdirTemp("", "scaffold-example-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer func() { _ = os.RemoveAll(parent) }()
	dir, err := scaffold.Generate(context.Background(), scaffold.Options{
		Type:         scaffold.Component,
		Name:         "website-operator",
		Module:       "example.com/website-operator",
		Group:        "web.example.com",
		Kind:         "Website",
		Dir:          filepath.Join(parent, "website-operator"),
		OpkitVersion: "v0.3.0",
		NoRun:        true,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	_ = fs.WalkDir(os.DirFS(dir), ".", func(name string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			fmt.Println(name)
		}
		return err
	})
	// Output:
	// .dockerignore
	// .gitignore
	// Dockerfile
	// Makefile
	// README.md
	// api/crd/kustomization.yaml
	// api/crds.go
	// api/v1alpha1/doc.go
	// api/v1alpha1/register.go
	// api/v1alpha1/website_types.go
	// config/crd/kustomization.yaml
	// config/default/kustomization.yaml
	// config/manager/kustomization.yaml
	// config/manager/manager.yaml
	// config/manager/pdb.yaml
	// config/prometheus/kustomization.yaml
	// config/prometheus/metrics_service.yaml
	// config/rbac/kustomization.yaml
	// config/rbac/metrics_auth_role.yaml
	// config/rbac/metrics_auth_role_binding.yaml
	// config/rbac/metrics_reader_role.yaml
	// config/rbac/service_account.yaml
	// config/samples/website.yaml
	// go.mod
	// internal/rbacgen/main.go
	// main.go
	// operator/doc.go
	// operator/operator.go
	// operator/operator_test.go
	// operator/templates/configmap.yaml
}

// Every value the scaffold refuses is reported, each naming its flag.
func ExampleOptions_Validate() {
	err := scaffold.Options{
		Type:         scaffold.Product,
		Name:         "ZooKeeper",
		Module:       "example.com/zookeeper-operator",
		Group:        "zookeeper",
		Kind:         "ZookeeperCluster",
		Dir:          filepath.Join(os.TempDir(), "scaffold-example-not-written"),
		OpkitVersion: "v0.3.0",
	}.Validate()
	var refused *scaffold.FlagError
	if errors.As(err, &refused) {
		fmt.Println("first refused:", refused.Flag)
	}
	fmt.Println(err)
	// Output:
	// first refused: --name
	// --name "ZooKeeper": must be a DNS-1035 label of at most 47 characters: lower-case letters, digits and '-', starting with a letter and ending with a letter or digit, such as zookeeper-operator
	// --group "zookeeper": must be a DNS-1123 subdomain with at least one dot, such as zookeeper.example.com: lower-case letters, digits, '-' and '.', each part between dots starting and ending with a letter or digit, at most 253 characters
}
