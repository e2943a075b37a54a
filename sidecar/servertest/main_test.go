package servertest

import (
	"context"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/failure/apierr"
	"github.com/opkit-dev/opkit/sidecar"
	"github.com/opkit-dev/opkit/testkit"
)

// env is the API server the tests share.
var env = &testkit.Env{}

func TestMain(m *testing.M) { env.Main(m) }

// fetcher reads a requirement's object the way a reconciler does: NotFound
// is absence, any other failure is classified and returned.
func fetcher(ctx context.Context, r client.Reader) func(sidecar.Requirement) (sidecar.Object, error) {
	return func(req sidecar.Requirement) (sidecar.Object, error) {
		obj := req.NewObject()
		if err := r.Get(ctx, client.ObjectKeyFromObject(obj), obj); err != nil {
			if apierrors.IsNotFound(err) {
				return nil, nil
			}
			return nil, apierr.Classify(err)
		}
		return obj, nil
	}
}
