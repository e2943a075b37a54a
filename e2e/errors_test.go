package e2e_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/api/failure/apierr"
	"github.com/opkit-dev/opkit/api/inventory"
	"github.com/opkit-dev/opkit/apply"
	"github.com/opkit-dev/opkit/authentication"
	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/configfold"
	"github.com/opkit-dev/opkit/generators"
	"github.com/opkit-dev/opkit/imageresolve"
	"github.com/opkit-dev/opkit/productlogging"
	"github.com/opkit-dev/opkit/reconciler"
	"github.com/opkit-dev/opkit/reconciler/cli"
	"github.com/opkit-dev/opkit/reconciler/component"
	"github.com/opkit-dev/opkit/s3"
	"github.com/opkit-dev/opkit/scaffold"
	"github.com/opkit-dev/opkit/shard"
	"github.com/opkit-dev/opkit/sidecar"
	"github.com/opkit-dev/opkit/vector"
)

// verdict is what a caller learns from an error without knowing its type.
type verdict struct {
	Class  failure.Class
	Author failure.Author
	Field  string
	Delay  time.Duration
}

// classCase is one exported error type (or one of its variants) and what
// the failure package must read from it.
type classCase struct {
	name string
	err  error
	want verdict
	// keeps, when set, is a Kubernetes API error predicate that must still
	// hold: wrapping never hides the server's answer.
	keeps func(error) bool
}

// errorCases lists every exported error type of every opkit module, each
// variant whose class, author or field differs on its own row.
func errorCases() []classCase {
	const (
		invalid   = failure.ClassInvalid
		requeue   = failure.ClassRequeue
		limited   = failure.ClassRateLimited
		retriable = failure.ClassRetriable
		user      = failure.AuthorUser
		operator  = failure.AuthorOperator
		unknown   = failure.AuthorUnknown
	)
	cm := inventory.Ref{Version: "v1", Kind: "ConfigMap", Namespace: "ns", Name: "demo-server-default"}
	groupField := "spec.roles.server.roleGroups.default.config.affinity.nodeAffinty"
	tooMany := apierrors.NewTooManyRequests("slow down", 3)
	notFound := apierrors.NewNotFound(schema.GroupResource{Resource: "configmaps"}, "vector-aggregator")
	return []classCase{
		// api/failure: the ready-made types
		{name: "failure.InvalidError", err: failure.Invalid(user, "spec.roles.x", "no such role"),
			want: verdict{Class: invalid, Author: user, Field: "spec.roles.x"}},
		{name: "failure.RequeueError", err: failure.RequeueAfter(5*time.Second, "ConfigMap not found"),
			want: verdict{Class: requeue, Delay: 5 * time.Second}},
		{name: "failure.RateLimitError", err: &failure.RateLimitError{RetryAfter: 3 * time.Second, Err: tooMany},
			want: verdict{Class: limited, Delay: 3 * time.Second}, keeps: apierrors.IsTooManyRequests},
		{name: "failure.RetriableError", err: failure.Retriable(errors.New("connection reset"), time.Second),
			want: verdict{Class: retriable, Delay: time.Second}},
		// api/failure/apierr: the API server's answers
		{name: "apierr 429", err: apierr.Classify(tooMany), want: verdict{Class: limited, Delay: 3 * time.Second}, keeps: apierrors.IsTooManyRequests},
		{name: "apierr 409", err: apierr.Classify(apierrors.NewConflict(schema.GroupResource{Resource: "configmaps"}, "x", errors.New("stale"))),
			want:  verdict{Class: retriable},
			keeps: apierrors.IsConflict},
		{name: "apierr 503", err: apierr.Classify(apierrors.NewServiceUnavailable("restarting")),
			want: verdict{Class: retriable}, keeps: apierrors.IsServiceUnavailable},
		{name: "apierr 429 without Retry-After", err: apierr.Classify(apierrors.NewTooManyRequests("slow down", 0)),
			want: verdict{Class: limited, Delay: apierr.DefaultRateLimitDelay}, keeps: apierrors.IsTooManyRequests},
		{name: "apierr 404", err: apierr.Classify(notFound), want: verdict{Class: failure.ClassOther}, keeps: apierrors.IsNotFound},

		// apply
		{name: "apply.InvalidObjectError", err: &apply.InvalidObjectError{Object: cm, Annotation: "opkit.dev/apply-order", Reason: "not an integer", Author: operator},
			want: verdict{Class: invalid, Author: operator, Field: "metadata.annotations[opkit.dev/apply-order]"}},
		{name: "apply.InvalidObjectError (user manifests)", err: &apply.InvalidObjectError{Object: cm, Reason: "duplicate", Author: user},
			want: verdict{Class: invalid, Author: user, Field: "metadata"}},
		{name: "apply.OwnershipError", err: &apply.OwnershipError{Object: cm, Owner: "other", Policy: apply.AdoptionPolicy("IfUnowned")},
			want: verdict{Class: requeue, Delay: apply.OwnershipRetryDelay}},

		// authentication
		{name: "authentication.NotFoundError", err: &authentication.NotFoundError{Name: "ldap", Field: "spec.authentication[0]", After: 10 * time.Second,
			Err: apierrors.NewNotFound(schema.GroupResource{Group: "authentication.opkit.dev", Resource: "authenticationclasses"}, "ldap")},
			want: verdict{Class: requeue, Field: "spec.authentication[0]", Delay: 10 * time.Second}, keeps: apierrors.IsNotFound},

		// builders
		{name: "builders.ValidationError", err: &builders.ValidationError{Author: user, Field: "spec.roles.server.config.gracefulShutdownTimeout", Message: "negative"},
			want: verdict{Class: invalid, Author: user, Field: "spec.roles.server.config.gracefulShutdownTimeout"}},
		{name: "builders.RenderError", err: &builders.RenderError{File: "zoo.cfg", Key: "a\nb", Message: "newline in key"},
			want: verdict{Class: invalid, Author: unknown}},

		// configfold
		{name: "configfold.FieldError (role group)", err: &configfold.FieldError{Layer: commonsv1alpha1.LayerRoleGroup, RoleName: "server", RoleGroupName: "default",
			Field: "config.affinity.nodeAffinty", Err: configfold.ErrUnknownField},
			want: verdict{Class: invalid, Author: user, Field: groupField}},
		{name: "configfold.FieldError (declaration)", err: &configfold.FieldError{Layer: commonsv1alpha1.LayerDeclaration, RoleName: "server", Field: "config.affinity", Err: configfold.ErrMalformed},
			want: verdict{Class: invalid, Author: operator, Field: commonsv1alpha1.LayerDeclaration.FieldPath("server", "", "config.affinity")}},
		{name: "configfold.TypeError", err: &configfold.TypeError{Type: "ZooConfig", GoField: "Quorum", JSONName: "quorum", Reason: "needs the atomic tag"},
			want: verdict{Class: invalid, Author: operator, Field: "ZooConfig.Quorum"}},

		// generators
		{name: "generators.ConfigError", err: &generators.ConfigError{Field: "Options.Values", Err: errors.New("not a map")},
			want: verdict{Class: invalid, Author: operator, Field: "Options.Values"}},
		{name: "generators.TemplateError (user)", err: &generators.TemplateError{Template: "deployment.yaml", Author: user, Field: "spec.values.replicas", Err: errors.New("required")},
			want: verdict{Class: invalid, Author: user, Field: "spec.values.replicas"}},
		{name: "generators.TemplateError (operator)", err: &generators.TemplateError{Template: "deployment.yaml", Author: operator, Err: errors.New("bad template")},
			want: verdict{Class: invalid, Author: operator}},

		// imageresolve
		{name: "imageresolve.ValidationError (missing)", err: &imageresolve.ValidationError{Field: imageresolve.FieldProductVersion, Err: imageresolve.ErrMissingField},
			want: verdict{Class: invalid, Author: user, Field: "spec.image.productVersion"}},
		{name: "imageresolve.ValidationError (defaults)", err: &imageresolve.ValidationError{Field: imageresolve.FieldRepo, Value: "UPPER", Layer: commonsv1alpha1.LayerDefaults, Err: imageresolve.ErrInvalidReference},
			want: verdict{Class: invalid, Author: operator, Field: commonsv1alpha1.LayerDefaults.FieldPath("", "", imageresolve.FieldRepo)}},

		// productlogging
		{name: "productlogging.ProducerError", err: &productlogging.ProducerError{Field: "logProducers[1].logFile", Message: "used twice"},
			want: verdict{Class: invalid, Author: operator, Field: "logProducers[1].logFile"}},

		// reconciler
		{name: "reconciler.MissingDependencyError", err: &reconciler.MissingDependencyError{
			Dependency: reconciler.Dependency{Kind: "Secret", Name: "creds", Field: "spec.credentialsSecret"}, Namespace: "ns"},
			want: verdict{Class: invalid, Author: user, Field: "spec.credentialsSecret"}},
		{name: "reconciler.UnknownRoleError", err: &reconciler.UnknownRoleError{Role: "sever", NearMisses: []string{"server"}, Declared: []string{"server"}},
			want: verdict{Class: invalid, Author: user, Field: "spec.roles.sever"}},

		// reconciler/component
		{name: "component.ReferenceError (missing)", err: &component.ReferenceError{Field: "spec.credentials", Kind: "Secret", Namespace: "ns", Name: "creds"},
			want: verdict{Class: requeue, Author: user, Field: "spec.credentials.name"}},
		{name: "component.ReferenceError (missing key)", err: &component.ReferenceError{Field: "spec.credentials", Kind: "Secret", Namespace: "ns", Name: "creds", Key: "password"},
			want: verdict{Class: requeue, Author: user, Field: "spec.credentials.key"}},
		{name: "component.ReferenceError (read failed)", err: &component.ReferenceError{Field: "spec.credentials", Kind: "Secret", Namespace: "ns", Name: "creds",
			Err: apierr.Classify(tooMany)},
			want: verdict{Class: limited, Author: user, Field: "spec.credentials.name", Delay: 3 * time.Second}, keeps: apierrors.IsTooManyRequests},
		{name: "component.HookError", err: &component.HookError{Hook: "pre-reconcile", Err: failure.Invalid(user, "spec.size", "too large")},
			want: verdict{Class: invalid, Author: user, Field: "spec.size"}},
		{name: "component.HookError (unclassified)", err: &component.HookError{Hook: "post-reconcile", Index: 1, Err: errors.New("webhook down")},
			want: verdict{Class: failure.ClassOther}},

		// apply's plan
		{name: "apply.DryRunError", err: &apply.DryRunError{Object: cm, Verb: "update",
			Err: apierrors.NewForbidden(schema.GroupResource{Resource: "configmaps"}, cm.Name, errors.New("user cannot update"))},
			want: verdict{Class: failure.ClassOther}, keeps: apierrors.IsForbidden},
		{name: "apply.DryRunError (retriable answer)", err: &apply.DryRunError{Object: cm, Verb: "create", Err: apierr.Classify(apierrors.NewServiceUnavailable("restarting"))},
			want: verdict{Class: retriable}, keeps: apierrors.IsServiceUnavailable},

		// scaffold: a command's error, reported to the person who ran it
		{name: "scaffold.FlagError", err: &scaffold.FlagError{Flag: "--group", Value: "zookeeper", Rule: "must contain a dot"},
			want: verdict{Class: failure.ClassOther}},

		// the users' command line: errors reported to the person who ran it
		{name: "cli.InputError", err: &cli.InputError{File: "cluster.yaml", Document: 1, Err: errors.New(`strict decoding error: unknown field "spec.rolez"`)},
			want: verdict{Class: failure.ClassOther}},
		{name: "cli.AccessError", err: &cli.AccessError{Missing: []string{"list statefulsets.apps in namespace demo"}},
			want: verdict{Class: failure.ClassOther}},

		// shard
		{name: "shard.OptionsError", err: &shard.OptionsError{Err: errors.New("RenewInterval: must be shorter than LeaseDuration")},
			want: verdict{Class: invalid}},
		{name: "shard.LostError", err: &shard.LostError{Member: "operator-0", Reason: "the Lease was deleted"},
			want: verdict{Class: failure.ClassOther}},

		// s3
		{name: "s3.NotFoundError", err: &s3.NotFoundError{Kind: "S3Bucket", Namespace: "ns", Name: "data", Field: "spec.clusterConfig.s3.reference",
			After: 10 * time.Second, Err: apierrors.NewNotFound(schema.GroupResource{Group: "s3.opkit.dev", Resource: "s3buckets"}, "data")},
			want: verdict{Class: requeue, Field: "spec.clusterConfig.s3.reference", Delay: 10 * time.Second}, keeps: apierrors.IsNotFound},

		// sidecar
		{name: "sidecar.RegistrationError", err: &sidecar.RegistrationError{Provider: "jmx", Message: "registered twice"},
			want: verdict{Class: invalid, Author: operator, Field: "sidecars[jmx]"}},
		{name: "sidecar.InjectError", err: &sidecar.InjectError{Provider: "jmx", Err: errors.New("no main container")},
			want: verdict{Class: invalid, Author: operator, Field: "sidecars[jmx]"}},
		{name: "sidecar.InjectError (user's cause)", err: &sidecar.InjectError{Provider: "vector", Err: failure.Invalid(user, "spec.vectorAggregatorConfigMapName", "empty")},
			want: verdict{Class: invalid, Author: user, Field: "spec.vectorAggregatorConfigMapName"}},
		{name: "sidecar.ConflictError", err: &sidecar.ConflictError{Kind: "volume", Name: "config"},
			want: verdict{Class: invalid, Author: operator}},
		{name: "sidecar.MissingObjectError (user named it)", err: &sidecar.MissingObjectError{Requirement: sidecar.Requirement{
			Kind: sidecar.KindConfigMap, Namespace: "ns", Name: "agg", Field: "spec.vectorAggregatorConfigMapName", NamedBy: user, Provider: "vector"}},
			want: verdict{Class: invalid, Author: user, Field: "spec.vectorAggregatorConfigMapName"}},
		{name: "sidecar.MissingObjectError (framework's, absent)", err: &sidecar.MissingObjectError{Requirement: sidecar.Requirement{
			Kind: sidecar.KindConfigMap, Namespace: "ns", Name: "demo-server-default", NamedBy: operator, Provider: "vector"}},
			want: verdict{Class: requeue, Author: operator, Field: "sidecars[vector]", Delay: sidecar.MissingObjectRequeueDelay}},
		{name: "sidecar.MissingObjectError (framework's, keys missing)", err: &sidecar.MissingObjectError{Requirement: sidecar.Requirement{
			Kind: sidecar.KindConfigMap, Namespace: "ns", Name: "demo-server-default", NamedBy: operator, Provider: "vector"}, Keys: []string{"vector.yaml"}},
			want: verdict{Class: invalid, Author: operator, Field: "sidecars[vector]"}},

		// vector
		{name: "vector.DiscoveryError", err: &vector.DiscoveryError{Namespace: "ns", ConfigMap: "agg", Err: fmt.Errorf("%w: %w", vector.ErrConfigMapNotFound, notFound)},
			want: verdict{Class: invalid, Author: user, Field: vector.AggregatorField}, keeps: apierrors.IsNotFound},
	}
}

// classSentinels maps a class to the value errors.Is must find.
var classSentinels = map[failure.Class]error{
	failure.ClassInvalid:     failure.ErrInvalid,
	failure.ClassRequeue:     failure.ErrRequeue,
	failure.ClassRateLimited: failure.ErrRateLimited,
	failure.ClassRetriable:   failure.ErrRetriable,
}

// Every exported error type reports its class through errors.Is, says
// whose mistake it is and where, alone, wrapped and joined with others.
func TestEveryErrorTypeHasItsClass(t *testing.T) {
	for _, tt := range errorCases() {
		t.Run(tt.name, func(t *testing.T) {
			forms := map[string]error{
				"alone":   tt.err,
				"wrapped": fmt.Errorf("role group server/default: %w", tt.err),
				"joined":  errors.Join(errors.New("an unclassified failure"), fmt.Errorf("scope: %w", tt.err)),
			}
			for form, err := range forms {
				got := verdict{Class: failure.ClassOf(err), Author: failure.AuthorOf(err), Field: failure.FieldOf(err), Delay: failure.Delay(err)}
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("%s: verdict (-want +got):\n%s", form, diff)
				}
				if sentinel, ok := classSentinels[tt.want.Class]; ok && !errors.Is(err, sentinel) {
					t.Errorf("%s: errors.Is(err, %v) is false", form, sentinel)
				}
				for class, sentinel := range classSentinels {
					if class != tt.want.Class && errors.Is(err, sentinel) {
						t.Errorf("%s: also of class %v", form, class)
					}
				}
				if tt.keeps != nil && !tt.keeps(err) {
					t.Errorf("%s: the API server's error is no longer recognised", form)
				}
			}
			if tt.err.Error() == "" {
				t.Error("empty message")
			}
		})
	}
}

// errorTypeDecl matches the declaration of an exported error type.
var errorTypeDecl = regexp.MustCompile(`(?m)^type ([A-Z][A-Za-z0-9]*Error) struct`)

// modulePrefix is the import path prefix of every opkit package.
const modulePrefix = "github.com/opkit-dev/opkit/"

// The table above is complete: every exported error type declared in the
// repository's production code has a row, so a new type cannot skip the
// taxonomy. testkit's own errors (test support, not operator code) and the
// nested test modules are left out.
func TestErrorTableIsComplete(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "api", "failure")); err != nil {
		t.Fatalf("the repository root is not at %s: %v", root, err)
	}
	var declared []string
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if rel == "testkit" || rel == "hack" || d.Name() == "servertest" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && rel != "." {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range errorTypeDecl.FindAllSubmatch(src, -1) {
			declared = append(declared, modulePrefix+filepath.ToSlash(filepath.Dir(rel))+"."+string(m[1]))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	covered := map[string]bool{}
	for _, tt := range errorCases() {
		typ := reflect.TypeOf(tt.err)
		if typ.Kind() == reflect.Pointer {
			typ = typ.Elem()
		}
		covered[typ.PkgPath()+"."+typ.Name()] = true
	}
	slices.Sort(declared)
	var missing []string
	for _, d := range slices.Compact(declared) {
		if !covered[d] {
			missing = append(missing, d)
		}
	}
	if len(missing) > 0 {
		t.Errorf("exported error types without a row in errorCases: %v", missing)
	}
	if len(declared) < 20 {
		t.Errorf("found only %d error types under %s: %v", len(declared), root, declared)
	}
}
