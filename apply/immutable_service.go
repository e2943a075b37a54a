package apply

import (
	"slices"

	corev1 "k8s.io/api/core/v1"
)

// preserveService keeps what the API server allocated: the cluster IPs, the
// IP families and node ports the desired Service leaves open. Only a
// clusterIP the desired object states differently is reported; the other
// fields are allocations a desired object rarely states.
func preserveService(live, want *corev1.Service) []string {
	var fields []string
	if live.Spec.ClusterIP != "" {
		if want.Spec.ClusterIP != "" && want.Spec.ClusterIP != live.Spec.ClusterIP &&
			want.Spec.Type != corev1.ServiceTypeExternalName && live.Spec.Type != corev1.ServiceTypeExternalName {
			fields = append(fields, "spec.clusterIP")
		}
		if want.Spec.Type != corev1.ServiceTypeExternalName {
			want.Spec.ClusterIP = live.Spec.ClusterIP
			want.Spec.ClusterIPs = slices.Clone(live.Spec.ClusterIPs)
		}
	}
	if len(want.Spec.IPFamilies) == 0 && want.Spec.Type != corev1.ServiceTypeExternalName {
		want.Spec.IPFamilies = slices.Clone(live.Spec.IPFamilies)
	}
	if want.Spec.Type == corev1.ServiceTypeNodePort || want.Spec.Type == corev1.ServiceTypeLoadBalancer {
		for i := range want.Spec.Ports {
			p := &want.Spec.Ports[i]
			if p.NodePort != 0 {
				continue
			}
			for _, lp := range live.Spec.Ports {
				if lp.Port == p.Port && protocolOf(lp) == protocolOf(*p) {
					p.NodePort = lp.NodePort
				}
			}
		}
	}
	if want.Spec.HealthCheckNodePort == 0 {
		want.Spec.HealthCheckNodePort = live.Spec.HealthCheckNodePort
	}
	return fields
}

func protocolOf(p corev1.ServicePort) corev1.Protocol {
	if p.Protocol == "" {
		return corev1.ProtocolTCP
	}
	return p.Protocol
}
