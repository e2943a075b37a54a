package servertest_test

import (
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"

	s3v1alpha1 "github.com/opkit-dev/opkit/api/s3/v1alpha1"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/controlplane"
	"github.com/opkit-dev/opkit/testkit/sample"
	lakehousev1alpha1 "github.com/opkit-dev/opkit/webhook/servertest/lakehouse/v1alpha1"
)

func testScheme() *runtime.Scheme {
	s := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(s))
	utilruntime.Must(s3v1alpha1.AddToScheme(s))
	utilruntime.Must(lakehousev1alpha1.AddToScheme(s))
	return s
}

// env is an API server with the platform kinds and the Lakehouse kind; no
// controllers: the tests look at what is admitted and applied, not at pods
// running.
var env = &testkit.Env{Options: controlplane.Options{
	Scheme:            testScheme(),
	CRDs:              sample.MustPlatformCRDs(),
	CRDDirectoryPaths: []string{"lakehouse/crd"},
}}

func TestMain(m *testing.M) { env.Main(m) }
