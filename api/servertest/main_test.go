package servertest_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"

	authenticationv1alpha1 "github.com/opkit-dev/opkit/api/authentication/v1alpha1"
	s3v1alpha1 "github.com/opkit-dev/opkit/api/s3/v1alpha1"
	consumerv1alpha1 "github.com/opkit-dev/opkit/api/servertest/consumer/v1alpha1"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/controlplane"
	"github.com/opkit-dev/opkit/testkit/sample"
)

func testScheme() *runtime.Scheme {
	s := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(s))
	utilruntime.Must(s3v1alpha1.AddToScheme(s))
	utilruntime.Must(authenticationv1alpha1.AddToScheme(s))
	utilruntime.Must(consumerv1alpha1.AddToScheme(s))
	return s
}

var env = &testkit.Env{Options: controlplane.Options{
	Scheme:            testScheme(),
	CRDs:              sample.MustPlatformCRDs(),
	CRDDirectoryPaths: []string{"consumer/crd"},
}}

func TestMain(m *testing.M) { env.Main(m) }

// admission is one object the API server must accept (no refusals) or
// refuse with a cause at each of the refused fields, whose message holds
// the text.
type admission struct {
	name    string
	obj     client.Object
	refused []string // field paths, sorted
	text    string   // in every refusal's message
}

// checkAdmission dry-run creates each case's object and compares the
// fields the API server refused with the expected ones.
func checkAdmission(t *testing.T, ctx context.Context, c client.Client, cases []admission) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := c.Create(ctx, tc.obj, client.DryRunAll)
			fields, messages := refusals(t, err)
			if diff := cmp.Diff(tc.refused, fields); diff != "" {
				t.Fatalf("refused fields (-want +got):\n%s\nerror: %v", diff, err)
			}
			for _, m := range messages {
				if !strings.Contains(m, tc.text) {
					t.Errorf("refusal %q does not say %q", m, tc.text)
				}
			}
		})
	}
}

// refusals returns the fields and messages of an Invalid error's causes,
// sorted by field; nil for no error. Any other error fails the test.
func refusals(t *testing.T, err error) ([]string, []string) {
	t.Helper()
	if err == nil {
		return nil, nil
	}
	var status apierrors.APIStatus
	if !apierrors.IsInvalid(err) || !errors.As(err, &status) || status.Status().Details == nil {
		t.Fatalf("want an Invalid error with causes, got %v", err)
	}
	causes := slices.Clone(status.Status().Details.Causes)
	slices.SortFunc(causes, func(a, b metav1.StatusCause) int { return strings.Compare(a.Field, b.Field) })
	var fields, messages []string
	for _, c := range causes {
		if strings.Contains(c.Message, "validation rules were not checked") {
			continue // the server's note that CEL waits for the schema errors
		}
		fields = append(fields, c.Field)
		messages = append(messages, c.Message)
	}
	return fields, messages
}
