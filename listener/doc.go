// Package listener decides how a role's pods are reached from its
// listener class and publishes where clients find them. Pure: no
// client-go, no controller-runtime.
//
//   - ServiceType maps a class to the type of the role's client Service:
//     cluster-internal → ClusterIP, external-unstable → NodePort,
//     external-stable → LoadBalancer (anything else → ClusterIP).
//
//   - A Set builds the listener operator's CSI volumes (a listener of a
//     class per pod, or a bound existing listener) and mounts them, as a
//     builders.PodInjector, under one root.
//
//   - ServiceAddresses reads the addresses a live Service offers clients
//     (its DNS name, node ports on given nodes, a load balancer's
//     ingress); Join and DiscoveryConfigMap turn them into the discovery
//     ConfigMap a product publishes.
//
//     svc, err := builders.NewService(scope).
//     WithType(listener.ServiceType(class)).
//     WithPorts(ports...).Build()
//     // later, with the applied Service read back:
//     addrs, err := listener.ServiceAddresses(live, "client", listener.AddressOptions{NodeAddresses: nodes})
//     cm, err := listener.DiscoveryConfigMap(scope.ClusterScope(), map[string]string{
//     "ZOOKEEPER": listener.Join(addrs),
//     })
//
// A load balancer without an address yet, or a node port not yet
// allocated, is a failure.ErrRequeue: not ready, not a fault.
package listener
