package component

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/failure"
)

// Remote clients get these client-side limits when their kubeconfig sets
// none (client-go's defaults of 5 requests/s would make a large component
// crawl).
const (
	remoteQPS   = 50
	remoteBurst = 100
)

// clients returns the pass's target (where the objects go) and local
// client (the component's own cluster, for hooks and generator lookups).
//
// Without optional interfaces both are the manager's. An impersonation
// (ImpersonationConfiguration, ServiceAccountConfiguration or
// Options.DefaultServiceAccount) makes the local client impersonate, and
// the target too unless a ClientConfiguration names a kubeconfig: then the
// target is that cluster, as the kubeconfig says, without impersonation.
func (r *Reconciler[T]) clients(comp T) (*target, client.Client, error) {
	user, groups, err := r.impersonation(comp)
	if err != nil {
		return nil, nil, err
	}
	tgt, local := r.local, r.client
	if r.offline {
		// Nothing is contacted: lookups read the objects in memory.
		return tgt, local, nil
	}
	if user != "" || len(groups) > 0 {
		if imp := r.config.Impersonate; imp.UserName != "" || len(imp.Groups) > 0 || imp.UID != "" {
			return nil, nil, failure.Invalid(failure.AuthorOperator, "manager configuration",
				"impersonates %q already; the component asks to impersonate %q, and impersonation does not nest", imp.UserName, user)
		}
		key := "local\x00" + user + "\x00" + strings.Join(groups, "\x00")
		tgt, err = r.targets.get(key, r.recorder, func() (*rest.Config, error) {
			cfg := rest.CopyConfig(r.config)
			cfg.Impersonate = rest.ImpersonationConfig{UserName: user, Groups: groups}
			return cfg, nil
		})
		if err != nil {
			return nil, nil, fmt.Errorf("building the impersonating client: %w", err)
		}
		local = tgt.client
	}
	if cc, ok := configuration[ClientConfiguration](comp); ok {
		if kc := cc.GetKubeConfig(); len(kc) > 0 {
			sum := sha256.Sum256(kc)
			remote, err := r.targets.get("remote\x00"+hex.EncodeToString(sum[:]), nil, func() (*rest.Config, error) {
				cfg, err := clientcmd.RESTConfigFromKubeConfig(kc)
				if err != nil {
					return nil, failure.Invalid(failure.AuthorUser, "spec.kubeConfig", "the kubeconfig does not load: %v", err)
				}
				if cfg.QPS == 0 && cfg.Burst == 0 {
					cfg.QPS, cfg.Burst = remoteQPS, remoteBurst
				}
				return cfg, nil
			})
			if err != nil {
				return nil, nil, err
			}
			tgt = remote
		}
	}
	return tgt, local, nil
}

// impersonation returns the user and groups the component asks to act as.
func (r *Reconciler[T]) impersonation(comp T) (string, []string, error) {
	if ic, ok := configuration[ImpersonationConfiguration](comp); ok {
		if u, g := ic.GetImpersonationUser(), ic.GetImpersonationGroups(); u != "" || len(g) > 0 {
			return u, slices.Sorted(slices.Values(g)), nil
		}
	}
	sa := r.opts.DefaultServiceAccount
	if sc, ok := configuration[ServiceAccountConfiguration](comp); ok && sc.GetServiceAccountName() != "" {
		sa = sc.GetServiceAccountName()
	}
	if sa == "" {
		return "", nil, nil
	}
	ns := referenceNamespace(comp)
	if ns == "" {
		return "", nil, failure.Invalid(failure.AuthorUser, "spec.namespace",
			"a cluster-scoped component impersonating service account %q needs a target namespace", sa)
	}
	return "system:serviceaccount:" + ns + ":" + sa, nil, nil
}
