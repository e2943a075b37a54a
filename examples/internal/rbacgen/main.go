// Command rbacgen writes the RBAC manifests of the example operators into
// their config/rbac: the rules each reconciler derives from its
// configuration (reconciler/rbac), as a ClusterRole for the reconciler and
// a Role for leader election, bound to the operator's ServiceAccount; for
// an operator that can run sharded, also the shard member's Role and
// binding of its sharded overlay (config/sharded), which keeps
// config/rbac's ClusterRole: rbacgen fails if sharding changes the
// reconciler's rules, as the overlay would then need them too. go
// generate runs it (make generate), so make verify fails when the files
// in the tree differ from what the code derives. Run it from the examples
// directory:
//
//	go run ./internal/rbacgen
package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	kafkaapi "github.com/opkit-dev/opkit/examples/kafka/api"
	kafka "github.com/opkit-dev/opkit/examples/kafka/operator"
	websiteapi "github.com/opkit-dev/opkit/examples/website/api"
	websitev1alpha1 "github.com/opkit-dev/opkit/examples/website/api/v1alpha1"
	website "github.com/opkit-dev/opkit/examples/website/operator"
	"github.com/opkit-dev/opkit/reconciler/rbac"
	"github.com/opkit-dev/opkit/shard"
)

// example is one operator whose RBAC is written.
type example struct {
	// dir is the operator's directory, relative to examples.
	dir string
	// name labels the objects (app.kubernetes.io/name).
	name        string
	permissions func(rbac.Resolver) (rbac.Permissions, error)
	crds        func() ([]*apiextensionsv1.CustomResourceDefinition, error)
	// sharded returns the permissions with sharding on; nil when the
	// operator has no sharded overlay.
	sharded func(rbac.Resolver) (rbac.Permissions, error)
}

var examples = []example{
	{dir: "kafka", name: "kafka-operator", crds: kafkaapi.CRDs, permissions: func(res rbac.Resolver) (rbac.Permissions, error) {
		r, err := kafka.New(kafka.Options{})
		if err != nil {
			return rbac.Permissions{}, err
		}
		return r.Permissions(kafka.Scheme(), res)
	}},
	{dir: "website", name: "website-operator", crds: websiteapi.CRDs, permissions: func(res rbac.Resolver) (rbac.Permissions, error) {
		r, err := website.New(website.Options{})
		if err != nil {
			return rbac.Permissions{}, err
		}
		return r.Permissions(website.Scheme(), res)
	}, sharded: func(res rbac.Resolver) (rbac.Permissions, error) {
		// The member is never started: the rules depend only on there
		// being one.
		m, err := shard.New(nil, nil, shard.Options{
			Ring: website.ShardRing, Member: "rbacgen", Namespace: "system",
			Resources: []schema.GroupVersionKind{websitev1alpha1.GroupVersion.WithKind("Website")},
		})
		if err != nil {
			return rbac.Permissions{}, err
		}
		r, err := website.New(website.Options{Sharding: m})
		if err != nil {
			return rbac.Permissions{}, err
		}
		return r.Permissions(website.Scheme(), res)
	}},
}

// shardedFiles are the objects Manifests returns with Sharding for the
// sharded overlay, in its order, by file name; "" skips one (the
// ClusterRole and its binding, config/rbac's).
var shardedFiles = []string{"", "", "shard_role.yaml", "shard_role_binding.yaml"}

// files are the objects Manifests returns, in its order, by file name.
var files = []string{"role.yaml", "role_binding.yaml", "leader_election_role.yaml", "leader_election_role_binding.yaml"}

func main() {
	for _, e := range examples {
		if err := write(e); err != nil {
			fmt.Fprintf(os.Stderr, "rbacgen: %s: %v\n", e.dir, err)
			os.Exit(1)
		}
	}
}

func write(e example) error {
	crds, err := e.crds()
	if err != nil {
		return err
	}
	mapper := meta.NewDefaultRESTMapper(nil)
	for _, crd := range crds {
		scope := meta.RESTScopeNamespace
		if crd.Spec.Scope == apiextensionsv1.ClusterScoped {
			scope = meta.RESTScopeRoot
		}
		for _, v := range crd.Spec.Versions {
			gvk := schema.GroupVersionKind{Group: crd.Spec.Group, Version: v.Name, Kind: crd.Spec.Names.Kind}
			mapper.AddSpecific(gvk, gvk.GroupVersion().WithResource(crd.Spec.Names.Plural),
				gvk.GroupVersion().WithResource(crd.Spec.Names.Singular), scope)
		}
	}
	res := rbac.Resolver{Mapper: mapper}
	p, err := e.permissions(res)
	if err != nil {
		return err
	}
	opts := rbac.ManifestOptions{Name: "manager-role", ServiceAccount: "controller-manager", Namespace: "system", LeaderElection: true}
	if err := writeFiles(p, opts, e, "rbac", files); err != nil {
		return err
	}
	if e.sharded == nil {
		return nil
	}
	sharded, err := e.sharded(res)
	if err != nil {
		return err
	}
	if !equality.Semantic.DeepEqual(sharded, p) {
		return fmt.Errorf("sharding changes the reconciler's rules (%+v, without %+v): config/sharded must grant them", sharded, p)
	}
	opts.LeaderElection, opts.Sharding = false, true
	return writeFiles(sharded, opts, e, "sharded", shardedFiles)
}

// writeFiles writes the manifests granting p into the example's config
// directory dir, one object per name of files ("" skips the object).
func writeFiles(p rbac.Permissions, opts rbac.ManifestOptions, e example, dir string, files []string) error {
	objs, err := rbac.Manifests(p, opts)
	if err != nil {
		return err
	}
	if len(objs) != len(files) {
		return fmt.Errorf("%d objects for %d files", len(objs), len(files))
	}
	for i, o := range objs {
		if files[i] == "" {
			continue
		}
		b, err := encode(o, e.name)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(e.dir, "config", dir, files[i]), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// encode writes o as YAML with a header saying where it comes from, the
// example's labels, and none of the fields a server fills in.
func encode(o client.Object, name string) ([]byte, error) {
	o.SetLabels(map[string]string{"app.kubernetes.io/name": name, "app.kubernetes.io/managed-by": "kustomize"})
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(o)
	if err != nil {
		return nil, err
	}
	if md, ok := m["metadata"].(map[string]any); ok {
		delete(md, "creationTimestamp")
	}
	body, err := yaml.Marshal(m)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString("# Generated by `make generate` (examples/internal/rbacgen) from the\n")
	b.WriteString("# reconciler's configuration: the rules it derives (reconciler/rbac).\n")
	b.WriteString("# Do not edit; make verify fails when this file and the code disagree.\n")
	b.Write(body)
	return b.Bytes(), nil
}
