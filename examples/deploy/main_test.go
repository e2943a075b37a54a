package deploy_test

import (
	"io/fs"
	"path/filepath"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"

	kafkaapi "github.com/opkit-dev/opkit/examples/kafka/api"
	kafkav1alpha1 "github.com/opkit-dev/opkit/examples/kafka/api/v1alpha1"
	kafkaoperator "github.com/opkit-dev/opkit/examples/kafka/operator"
	kafkasamples "github.com/opkit-dev/opkit/examples/kafka/samples"
	websiteapi "github.com/opkit-dev/opkit/examples/website/api"
	websitev1alpha1 "github.com/opkit-dev/opkit/examples/website/api/v1alpha1"
	websiteoperator "github.com/opkit-dev/opkit/examples/website/operator"
	websitesamples "github.com/opkit-dev/opkit/examples/website/samples"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/controlplane"
)

// No CRDs are installed up front: config/default brings them.
var env = &testkit.Env{Options: controlplane.Options{Controllers: true, Scheme: scheme()}}

func TestMain(m *testing.M) { env.Main(m) }

func scheme() *runtime.Scheme {
	s := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(s))
	utilruntime.Must(apiextensionsv1.AddToScheme(s))
	utilruntime.Must(kafkav1alpha1.AddToScheme(s))
	utilruntime.Must(websitev1alpha1.AddToScheme(s))
	return s
}

// example is one example operator as these tests deploy it.
type example struct {
	// name is its directory under examples.
	name string
	// controller is the name of its controller, and of its leader
	// election lease.
	controller string
	// crds are the CRDs its api package generates and embeds.
	crds func() ([]*apiextensionsv1.CustomResourceDefinition, error)
	// samples holds the sample files, applied in order.
	samples fs.FS
	files   []string
	// missing is what an offline rendering of the sample without its
	// first file (what it references) names as missing.
	missing string
	// volumes is how many persistent volumes the sample claims.
	volumes int
	// converged is the sample's awaited state.
	converged func(t *testing.T, c client.Reader, ns string)
	// kind is the sample's kind, on which the operator records events.
	kind string
	// provoke makes the operator record an event on the converged
	// sample, when converging records none. Nil when it does.
	provoke func(t *testing.T, c client.Client, ns string)
}

// config is the path of one of the example's config directories.
func (e example) config(dir string) string {
	return filepath.Join("..", e.name, "config", dir)
}

var examples = []example{
	{
		name:       "kafka",
		controller: kafkaoperator.Name,
		crds:       kafkaapi.CRDs,
		samples:    kafkasamples.Files,
		files:      []string{"dependencies.yaml", "kafkacluster.yaml"},
		missing:    "events-credentials",
		volumes:    6,
		converged:  kafkaAvailable,
		kind:       "KafkaCluster",
		provoke:    misspellRole,
	},
	{
		name:       "website",
		controller: websiteoperator.Name,
		crds:       websiteapi.CRDs,
		samples:    websitesamples.Files,
		files:      []string{"dependencies.yaml", "website.yaml"},
		missing:    "home-admin-password",
		converged:  websiteReady,
		kind:       "Website",
	},
}
