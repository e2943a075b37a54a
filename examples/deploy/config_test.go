package deploy_test

import (
	"net"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/opkit-dev/opkit/testkit"
)

// clusterScoped are the kinds config/default holds that have no namespace.
var clusterScoped = []string{"Namespace", "CustomResourceDefinition", "ClusterRole", "ClusterRoleBinding"}

// Each example's config/default holds the CRDs its api package generates,
// puts everything else in one namespace that enforces the restricted Pod
// Security profile, and runs two replicas electing a leader, probed on
// the health endpoints the manager serves, locked down beyond what that
// profile checks (read-only root, requests and limits), as the account
// every binding names; the budget and the metrics Service select its
// pods.
func TestDefaultConfig(t *testing.T) {
	for _, ex := range examples {
		t.Run(ex.name, func(t *testing.T) {
			objs := build(t, ex.config("default"))

			want, err := ex.crds()
			if err != nil {
				t.Fatal(err)
			}
			got := objs.ofKind("CustomResourceDefinition")
			if len(got) != len(want) {
				t.Fatalf("config/default holds %d CRDs, the api package %d", len(got), len(want))
			}
			for i, u := range got {
				crd := &apiextensionsv1.CustomResourceDefinition{}
				decode(t, u, crd)
				if diff := cmp.Diff(want[i].Spec, crd.Spec); diff != "" {
					t.Errorf("CRD %s differs from the generated one (-generated +config):\n%s", crd.Name, diff)
				}
			}

			ns := &corev1.Namespace{}
			objs.one(t, "Namespace", ns)
			if ns.Labels[testkit.PodSecurityEnforceLabel] != "restricted" {
				t.Errorf("namespace %s does not enforce the restricted Pod Security profile: %v", ns.Name, ns.Labels)
			}
			for _, u := range objs {
				wantNS := ns.Name
				if slices.Contains(clusterScoped, u.GetKind()) {
					wantNS = ""
				}
				if u.GetNamespace() != wantNS {
					t.Errorf("%s %s is in namespace %q, want %q", u.GetKind(), u.GetName(), u.GetNamespace(), wantNS)
				}
			}

			d, c := objs.deployment(t)
			replicas := ptr.Deref(d.Spec.Replicas, 1)
			if replicas != 2 || !slices.Contains(c.Args, "--leader-elect") {
				t.Errorf("the Deployment runs %d replicas with args %v, want 2 electing a leader", replicas, c.Args)
			}
			probes := portOf(t, c, argValue(t, c.Args, "--health-probe-bind-address"))
			for _, p := range []struct {
				name  string
				probe *corev1.Probe
				path  string
			}{{"liveness", c.LivenessProbe, "/healthz"}, {"readiness", c.ReadinessProbe, "/readyz"}} {
				if p.probe == nil || p.probe.HTTPGet == nil || p.probe.HTTPGet.Path != p.path || !samePort(c, p.probe.HTTPGet.Port, probes) {
					t.Errorf("%s probe %+v, want GET %s on port %d", p.name, p.probe, p.path, probes)
				}
			}
			checkRestricted(t, d.Spec.Template.Spec)

			sa := &corev1.ServiceAccount{}
			objs.one(t, "ServiceAccount", sa)
			if d.Spec.Template.Spec.ServiceAccountName != sa.Name {
				t.Errorf("the Deployment runs as %q, the ServiceAccount is %q", d.Spec.Template.Spec.ServiceAccountName, sa.Name)
			}
			checkBindings(t, objs, sa)

			pods := labels.Set(d.Spec.Template.Labels)
			pdb := &policyv1.PodDisruptionBudget{}
			objs.one(t, "PodDisruptionBudget", pdb)
			if sel := pdb.Spec.Selector; sel == nil || !labels.SelectorFromSet(sel.MatchLabels).Matches(pods) || pdb.Spec.MinAvailable == nil || pdb.Spec.MinAvailable.IntValue() >= int(replicas) {
				t.Errorf("the budget (selector %v, minAvailable %v) does not let one of the replicas go at a time", sel, pdb.Spec.MinAvailable)
			}

			svc := &corev1.Service{}
			objs.one(t, "Service", svc)
			metrics := portOf(t, c, argValue(t, c.Args, "--metrics-bind-address"))
			if !labels.SelectorFromSet(svc.Spec.Selector).Matches(pods) || len(svc.Spec.Ports) != 1 || !samePort(c, svc.Spec.Ports[0].TargetPort, metrics) {
				t.Errorf("the metrics Service (selector %v, ports %+v) does not reach port %d of the pods", svc.Spec.Selector, svc.Spec.Ports, metrics)
			}
			if slices.Contains(c.Args, "--metrics-secure=false") {
				t.Errorf("the Deployment serves metrics in the clear: %v", c.Args)
			}
		})
	}
}

// config/servicemonitor is config/default and a ServiceMonitor that
// scrapes the metrics Service over HTTPS.
func TestServiceMonitorOverlay(t *testing.T) {
	for _, ex := range examples {
		t.Run(ex.name, func(t *testing.T) {
			base := build(t, ex.config("default"))
			objs := build(t, ex.config("servicemonitor"))
			monitors := objs.ofKind("ServiceMonitor")
			if len(monitors) != 1 {
				t.Fatalf("%d ServiceMonitors, want 1", len(monitors))
			}
			mon := monitors[0]
			if diff := cmp.Diff(append(base.names(), "ServiceMonitor "+mon.GetNamespace()+"/"+mon.GetName()), objs.names()); diff != "" {
				t.Errorf("the overlay is not config/default and a ServiceMonitor (-want +got):\n%s", diff)
			}
			svc := &corev1.Service{}
			base.one(t, "Service", svc)
			if mon.GetNamespace() != svc.Namespace {
				t.Errorf("the ServiceMonitor is in %q, the Service in %q", mon.GetNamespace(), svc.Namespace)
			}
			sel, _, _ := unstructured.NestedStringMap(mon.Object, "spec", "selector", "matchLabels")
			if len(sel) == 0 || !labels.SelectorFromSet(sel).Matches(labels.Set(svc.Labels)) {
				t.Errorf("the ServiceMonitor selects %v, the Service is labelled %v", sel, svc.Labels)
			}
			endpoints, _, _ := unstructured.NestedSlice(mon.Object, "spec", "endpoints")
			if len(endpoints) != 1 {
				t.Fatalf("the ServiceMonitor has %d endpoints, want 1", len(endpoints))
			}
			ep, _ := endpoints[0].(map[string]any)
			if ep["port"] != svc.Spec.Ports[0].Name || ep["scheme"] != "https" {
				t.Errorf("the ServiceMonitor scrapes %v over %v, the Service's port is %q over https", ep["port"], ep["scheme"], svc.Spec.Ports[0].Name)
			}
		})
	}
}

// checkRestricted fails the test when the pod spec misses a setting of the
// restricted Pod Security profile (which admission checks too) or one
// that profile leaves out: a read-only root file system, requests and
// limits.
func checkRestricted(t *testing.T, spec corev1.PodSpec) {
	t.Helper()
	psc := spec.SecurityContext
	if psc == nil || psc.RunAsNonRoot == nil || !*psc.RunAsNonRoot || psc.RunAsUser == nil || *psc.RunAsUser == 0 ||
		psc.SeccompProfile == nil || psc.SeccompProfile.Type != corev1.SeccompProfileTypeRuntimeDefault {
		t.Errorf("pod security context %+v: want runAsNonRoot, a non-zero runAsUser and the RuntimeDefault seccomp profile", psc)
	}
	for _, c := range spec.Containers {
		sc := c.SecurityContext
		if sc == nil || sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation ||
			sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem ||
			sc.Capabilities == nil || !slices.Equal(sc.Capabilities.Drop, []corev1.Capability{"ALL"}) {
			t.Errorf("container %s security context %+v: want no privilege escalation, a read-only root, all capabilities dropped", c.Name, sc)
		}
		for _, r := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
			if c.Resources.Requests.Name(r, "").IsZero() || c.Resources.Limits.Name(r, "").IsZero() {
				t.Errorf("container %s has no %s request or limit: %+v", c.Name, r, c.Resources)
			}
		}
	}
}

// checkBindings fails the test when a binding names another subject than
// sa or a role config/default does not hold.
func checkBindings(t *testing.T, objs manifests, sa *corev1.ServiceAccount) {
	t.Helper()
	want := []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: sa.Name, Namespace: sa.Namespace}}
	roles := map[string]bool{}
	for _, kind := range []string{"Role", "ClusterRole"} {
		for _, u := range objs.ofKind(kind) {
			roles[kind+"/"+u.GetName()] = true
		}
	}
	var bound int
	for _, kind := range []string{"RoleBinding", "ClusterRoleBinding"} {
		for _, u := range objs.ofKind(kind) {
			b := &rbacv1.RoleBinding{}
			decode(t, u, b)
			if diff := cmp.Diff(want, b.Subjects); diff != "" {
				t.Errorf("%s %s binds other subjects (-want +got):\n%s", kind, b.Name, diff)
			}
			if !roles[b.RoleRef.Kind+"/"+b.RoleRef.Name] {
				t.Errorf("%s %s refers to %s %s, which config/default does not hold", kind, b.Name, b.RoleRef.Kind, b.RoleRef.Name)
			}
			bound++
		}
	}
	if bound == 0 {
		t.Error("config/default binds no role to the operator's account")
	}
}

// argValue returns the value of --name=value in args.
func argValue(t *testing.T, args []string, name string) string {
	t.Helper()
	for _, a := range args {
		if v, ok := strings.CutPrefix(a, name+"="); ok {
			return v
		}
	}
	t.Fatalf("the manager's args %v do not set %s", args, name)
	return ""
}

// portOf returns the port of a bind address (":8081"), checking that the
// container declares it.
func portOf(t *testing.T, c corev1.Container, addr string) int32 {
	t.Helper()
	_, p, err := net.SplitHostPort(addr)
	if err != nil {
		t.Fatalf("bind address %q: %v", addr, err)
	}
	port, err := strconv.Atoi(p)
	if err != nil {
		t.Fatalf("bind address %q: %v", addr, err)
	}
	for _, cp := range c.Ports {
		if cp.ContainerPort == int32(port) {
			return cp.ContainerPort
		}
	}
	t.Fatalf("container %s does not declare port %d (bound by %s): %+v", c.Name, port, addr, c.Ports)
	return 0
}

// samePort reports whether ref (a number or a port name of c) is port.
func samePort(c corev1.Container, ref intstr.IntOrString, port int32) bool {
	if ref.Type == intstr.Int {
		return ref.IntVal == port
	}
	for _, cp := range c.Ports {
		if cp.Name == ref.StrVal {
			return cp.ContainerPort == port
		}
	}
	return false
}
