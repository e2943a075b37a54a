package listener

import (
	"cmp"
	"fmt"
	"net"
	"slices"
	"strconv"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/opkit-dev/opkit/api/failure"
)

// DefaultClusterDomain is the cluster's DNS domain unless AddressOptions
// names another.
const DefaultClusterDomain = "cluster.local"

// DefaultPendingRetry is how soon to look again at a Service whose
// addresses are not assigned yet.
const DefaultPendingRetry = 10 * time.Second

// Address is where a client reaches a port: a host name or IP address and
// a port.
type Address struct {
	// Host is a DNS name or an IP address.
	Host string
	// Port is the port on Host.
	Port int32
}

// String returns "host:port", with an IPv6 host in brackets.
func (a Address) String() string { return net.JoinHostPort(a.Host, strconv.Itoa(int(a.Port))) }

// AddressOptions says what ServiceAddresses cannot read from the Service.
// The zero value knows no nodes and uses DefaultClusterDomain.
type AddressOptions struct {
	// ClusterDomain is the cluster's DNS domain. Empty means
	// DefaultClusterDomain.
	ClusterDomain string
	// NodeAddresses are the addresses of the nodes the pods run on, for a
	// NodePort Service: clients reach each of them at the node port.
	NodeAddresses []string
	// PendingRetry is the delay of the requeue error for addresses not
	// assigned yet. Zero means DefaultPendingRetry.
	PendingRetry time.Duration
}

// ServiceAddresses returns where clients reach the port called portName of
// svc, a Service read back from the API server, sorted:
//
//   - ClusterIP (and headless): the Service's DNS name
//     "<name>.<namespace>.svc.<domain>" at the port;
//   - NodePort: every one of opts.NodeAddresses at the allocated node port;
//   - LoadBalancer: every ingress IP or host name of the load balancer at
//     the port.
//
// A node port not allocated yet, a load balancer without ingress and a
// NodePort Service without known nodes are a *failure.RequeueError: the
// addresses are not there yet. A port the Service does not have is a
// *failure.InvalidError blamed on the operator.
func ServiceAddresses(svc *corev1.Service, portName string, opts AddressOptions) ([]Address, error) {
	i := slices.IndexFunc(svc.Spec.Ports, func(p corev1.ServicePort) bool { return p.Name == portName })
	if i < 0 {
		return nil, failure.Invalid(failure.AuthorOperator, fmt.Sprintf("Service %s/%s", svc.Namespace, svc.Name), "has no port %q", portName)
	}
	port := svc.Spec.Ports[i]
	retry := opts.PendingRetry
	if retry == 0 {
		retry = DefaultPendingRetry
	}
	var out []Address
	switch svc.Spec.Type {
	case corev1.ServiceTypeNodePort:
		if port.NodePort == 0 {
			return nil, failure.RequeueAfter(retry, "Service %s/%s has no node port for %q yet", svc.Namespace, svc.Name, portName)
		}
		if len(opts.NodeAddresses) == 0 {
			return nil, failure.RequeueAfter(retry, "no node runs a pod of Service %s/%s yet", svc.Namespace, svc.Name)
		}
		for _, n := range opts.NodeAddresses {
			out = append(out, Address{Host: n, Port: port.NodePort})
		}
	case corev1.ServiceTypeLoadBalancer:
		for _, in := range svc.Status.LoadBalancer.Ingress {
			host := in.IP
			if in.Hostname != "" {
				host = in.Hostname
			}
			if host != "" {
				out = append(out, Address{Host: host, Port: port.Port})
			}
		}
		if len(out) == 0 {
			return nil, failure.RequeueAfter(retry, "the load balancer of Service %s/%s has no address yet", svc.Namespace, svc.Name)
		}
	default:
		domain := opts.ClusterDomain
		if domain == "" {
			domain = DefaultClusterDomain
		}
		out = append(out, Address{Host: svc.Name + "." + svc.Namespace + ".svc." + domain, Port: port.Port})
	}
	slices.SortFunc(out, func(a, b Address) int {
		return cmp.Or(strings.Compare(a.Host, b.Host), cmp.Compare(a.Port, b.Port))
	})
	return slices.Compact(out), nil
}
