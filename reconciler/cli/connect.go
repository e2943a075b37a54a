package cli

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/go-logr/logr"
	authorizationv1 "k8s.io/api/authorization/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/opkit-dev/opkit/reconciler/rbac"
)

// cluster returns the REST config the flags name and the namespace of a
// resource that names none: --namespace, else the kubeconfig context's,
// else "default".
func (c *Command) cluster(f flags) (*rest.Config, string, error) {
	if c.opts.RESTConfig != nil {
		return rest.CopyConfig(c.opts.RESTConfig), orDefault(f.namespace), nil
	}
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	rules.ExplicitPath = f.kubeconfig
	cfg := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, &clientcmd.ConfigOverrides{CurrentContext: f.context})
	rc, err := cfg.ClientConfig()
	if err != nil {
		return nil, "", fmt.Errorf("loading the kubeconfig: %w", err)
	}
	ns := f.namespace
	if ns == "" {
		if ns, _, err = cfg.Namespace(); err != nil {
			return nil, "", fmt.Errorf("loading the kubeconfig: %w", err)
		}
	}
	return rc, orDefault(ns), nil
}

func orDefault(ns string) string {
	if ns == "" {
		return "default"
	}
	return ns
}

// start checks that the user may read what a pass of a resource in
// namespace reads, then starts a manager of the user's identity whose
// cache holds that namespace alone, with the reconciler set up for
// planning. The manager stops when ctx ends.
func (c *Command) start(ctx context.Context, rc *rest.Config, namespace string) error {
	if err := c.checkReads(ctx, rc, namespace); err != nil {
		return err
	}
	cacheOpts, clientOpts := c.t.managerOptions()
	confine(&cacheOpts, namespace)
	mgr, err := ctrl.NewManager(rc, ctrl.Options{
		Scheme:  c.opts.Scheme,
		Cache:   cacheOpts,
		Client:  clientOpts,
		Metrics: metricsserver.Options{BindAddress: "0"},
		Logger:  logr.Discard(),
	})
	if err != nil {
		return fmt.Errorf("connecting to the cluster: %w", err)
	}
	if err := c.t.setupForPlanning(mgr); err != nil {
		return err
	}
	failed := make(chan error, 1)
	go func() { failed <- mgr.Start(ctx) }()
	select {
	case err := <-failed:
		return fmt.Errorf("starting: %w", err)
	case <-mgr.Elected():
	}
	if !mgr.GetCache().WaitForCacheSync(ctx) {
		return fmt.Errorf("reading the cluster: %w", context.Cause(ctx))
	}
	return nil
}

// confine makes the cache hold namespace alone: the commands plan one
// resource, and the user may be allowed no more.
func confine(o *cache.Options, namespace string) {
	o.DefaultNamespaces = map[string]cache.Config{namespace: {}}
	for k, b := range o.ByObject {
		if len(b.Namespaces) > 0 {
			b.Namespaces = map[string]cache.Config{namespace: {}}
			o.ByObject[k] = b
		}
	}
}

// AccessError lists the reads the user's identity lacks: a pass reads
// them, so neither a plan nor a rendering can be made without them.
type AccessError struct {
	// Missing are "VERB RESOURCE[.GROUP] in namespace NS" (or
	// "cluster-wide"), sorted.
	Missing []string
}

// Error lists the missing rights.
func (e *AccessError) Error() string {
	return "your identity lacks rights a pass needs to read: " + strings.Join(e.Missing, "; ")
}

// checkReads asks the API server (SelfSubjectAccessReview) whether the
// user may get, list and watch what the reconciler reads, as its
// Permissions say.
func (c *Command) checkReads(ctx context.Context, rc *rest.Config, namespace string) error {
	cs, err := kubernetes.NewForConfig(rc)
	if err != nil {
		return err
	}
	mapper, err := clientMapper(rc)
	if err != nil {
		return err
	}
	perms, err := c.t.permissions(c.opts.Scheme, rbac.Resolver{Mapper: mapper})
	if err != nil {
		return err
	}
	var missing []string
	check := func(rules []rbacv1.PolicyRule, ns string) error {
		for _, r := range rules {
			for _, res := range r.Resources {
				if strings.Contains(res, "/") {
					continue // subresources are written, not read
				}
				for _, g := range r.APIGroups {
					for _, v := range r.Verbs {
						if !slices.Contains(rbac.Read, v) {
							continue
						}
						ok, err := allowed(ctx, cs, authorizationv1.ResourceAttributes{Namespace: ns, Verb: v, Group: g, Resource: res})
						if err != nil {
							return err
						}
						if !ok {
							missing = append(missing, describe(v, g, res, ns))
						}
					}
				}
			}
		}
		return nil
	}
	if err := errors.Join(check(perms.Namespaced, namespace), check(perms.Cluster, "")); err != nil {
		return fmt.Errorf("checking your rights: %w", err)
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		return &AccessError{Missing: slices.Compact(missing)}
	}
	return nil
}

func allowed(ctx context.Context, cs kubernetes.Interface, attrs authorizationv1.ResourceAttributes) (bool, error) {
	review, err := cs.AuthorizationV1().SelfSubjectAccessReviews().Create(ctx, &authorizationv1.SelfSubjectAccessReview{
		Spec: authorizationv1.SelfSubjectAccessReviewSpec{ResourceAttributes: &attrs},
	}, metav1.CreateOptions{})
	if err != nil {
		return false, err
	}
	return review.Status.Allowed, nil
}

func describe(verb, group, resource, ns string) string {
	if group != "" {
		resource += "." + group
	}
	if ns == "" {
		return verb + " " + resource + " cluster-wide"
	}
	return verb + " " + resource + " in namespace " + ns
}

// clientMapper returns a REST mapper of the cluster, to resolve the kinds
// of the reconciler's rules.
func clientMapper(rc *rest.Config) (meta.RESTMapper, error) {
	hc, err := rest.HTTPClientFor(rc)
	if err != nil {
		return nil, err
	}
	return apiutil.NewDynamicRESTMapper(rc, hc)
}

// reader returns a client of the user's identity, uncached.
func (c *Command) reader(rc *rest.Config) (client.Client, error) {
	return client.New(rc, client.Options{Scheme: c.opts.Scheme})
}
