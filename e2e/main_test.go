package e2e_test

import (
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"

	"github.com/opkit-dev/opkit/e2e/bundle"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/controlplane"
	"github.com/opkit-dev/opkit/testkit/sample"
	samplev1alpha1 "github.com/opkit-dev/opkit/testkit/sample/v1alpha1"
)

// e2eNodes is how many kwok nodes run: 250 pods each, room for the 1,200
// pods of the sharded benchmark's 300 clusters (the scale workload's 200
// clusters have 800).
const e2eNodes = 6

func testScheme() *runtime.Scheme {
	s := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(s))
	utilruntime.Must(samplev1alpha1.AddToScheme(s))
	utilruntime.Must(bundle.AddToScheme(s))
	return s
}

func testCRDs() []*apiextensionsv1.CustomResourceDefinition {
	bundles, err := bundle.CRDs()
	utilruntime.Must(err)
	return append(sample.MustCRDs(), bundles...)
}

// env is one control plane with controllers, a scheduler and kwok nodes
// for every scenario of the package.
var env = &testkit.Env{Options: controlplane.Options{
	Controllers: true,
	Nodes:       e2eNodes,
	CRDs:        testCRDs(),
	Scheme:      testScheme(),
}}

func TestMain(m *testing.M) { env.Main(m) }
