package servertest_test

import (
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"

	authenticationv1alpha1 "github.com/opkit-dev/opkit/api/authentication/v1alpha1"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/controlplane"
	"github.com/opkit-dev/opkit/testkit/sample"
)

func testScheme() *runtime.Scheme {
	s := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(s))
	utilruntime.Must(authenticationv1alpha1.AddToScheme(s))
	return s
}

var env = &testkit.Env{Options: controlplane.Options{Scheme: testScheme(), CRDs: sample.MustPlatformCRDs()}}

func TestMain(m *testing.M) { env.Main(m) }
