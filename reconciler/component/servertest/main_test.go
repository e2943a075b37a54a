package servertest_test

import (
	"fmt"
	"os"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"

	"github.com/opkit-dev/opkit/reconciler/component/servertest/shop"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/controlplane"
)

func testScheme() *runtime.Scheme {
	s := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(s))
	utilruntime.Must(apiextensionsv1.AddToScheme(s))
	utilruntime.Must(shop.AddToScheme(s))
	return s
}

func shopCRDs() []*apiextensionsv1.CustomResourceDefinition {
	crds, err := shop.CRDs()
	if err != nil {
		panic(err)
	}
	return crds
}

// env is the component's own cluster, with controllers and kwok nodes so
// that Deployments become ready; remote is a second cluster, for remote
// targets, started only by the tests that need it.
var (
	env = &testkit.Env{Options: controlplane.Options{
		Controllers: true,
		CRDs:        shopCRDs(),
		Scheme:      testScheme(),
	}}
	remote = &testkit.Env{Options: controlplane.Options{Scheme: testScheme()}}
)

func TestMain(m *testing.M) {
	code := m.Run()
	for _, e := range []*testkit.Env{env, remote} {
		if err := e.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "stopping a control plane:", err)
			code = max(code, 1)
		}
	}
	os.Exit(code)
}
