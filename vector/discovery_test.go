package vector_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/sidecar"
	"github.com/opkit-dev/opkit/vector"
)

func TestAggregatorRequirement(t *testing.T) {
	want := sidecar.Requirement{Kind: sidecar.KindConfigMap, Namespace: "data", Name: "vector-aggregator",
		Keys: []string{"ADDRESS"}, Field: "spec.vectorAggregatorConfigMapName", NamedBy: failure.AuthorUser, Provider: "vector"}
	if diff := cmp.Diff(want, vector.AggregatorRequirement(scope, "vector-aggregator")); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestAggregatorAddress(t *testing.T) {
	req := vector.AggregatorRequirement(scope, "discovery")
	const prefix = "spec.vectorAggregatorConfigMapName: Vector aggregator discovery ConfigMap data/discovery: "
	tests := []struct {
		name    string
		data    map[string]string // nil: no ConfigMap
		want    string
		wantErr error
		message string
	}{
		{name: "DNS name", data: map[string]string{"ADDRESS": "vector-aggregator.logging.svc.cluster.local:6000"},
			want: "vector-aggregator.logging.svc.cluster.local:6000"},
		{name: "IPv4", data: map[string]string{"ADDRESS": "10.1.2.3:6000"}, want: "10.1.2.3:6000"},
		{name: "IPv6", data: map[string]string{"ADDRESS": "[fd00::1]:6000"}, want: "[fd00::1]:6000"},
		{name: "no ConfigMap", wantErr: vector.ErrConfigMapNotFound, message: prefix + "ConfigMap not found"},
		{name: "no key", data: map[string]string{"address": "a:1"}, wantErr: vector.ErrAddressMissing, message: prefix + "no ADDRESS key"},
		{name: "empty value", data: map[string]string{"ADDRESS": ""}, wantErr: vector.ErrAddressMissing, message: prefix + "no ADDRESS key"},
		{name: "no port", data: map[string]string{"ADDRESS": "aggregator"}, wantErr: vector.ErrAddressInvalid,
			message: prefix + `ADDRESS: "aggregator" is not a host:port address: address aggregator: missing port in address`},
		{name: "port out of range", data: map[string]string{"ADDRESS": "aggregator:70000"}, wantErr: vector.ErrAddressInvalid,
			message: prefix + `ADDRESS: "aggregator:70000" is not a host:port address: port "70000" is not a number in 1-65535`},
		{name: "bad host", data: map[string]string{"ADDRESS": "Aggregator_1:6000"}, wantErr: vector.ErrAddressInvalid,
			message: prefix + `ADDRESS: "Aggregator_1:6000" is not a host:port address: host "Aggregator_1" is neither an IP address nor a DNS name`},
		{name: "URL", data: map[string]string{"ADDRESS": "http://aggregator:6000"}, wantErr: vector.ErrAddressInvalid,
			message: prefix + `ADDRESS: "http://aggregator:6000" is not a host:port address: address http://aggregator:6000: too many colons in address`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var cm *corev1.ConfigMap
			if tt.data != nil {
				cm = &corev1.ConfigMap{Data: tt.data}
			}
			got, err := vector.AggregatorAddress(req, cm)
			if tt.wantErr == nil {
				require.NoError(t, err)
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("address (-want +got):\n%s", diff)
				}
				return
			}
			require.ErrorIs(t, err, tt.wantErr)
			var derr *vector.DiscoveryError
			require.ErrorAs(t, err, &derr)
			if diff := cmp.Diff(tt.message, err.Error()); diff != "" {
				t.Errorf("message (-want +got):\n%s", diff)
			}
			require.ErrorIs(t, err, failure.ErrInvalid)
			require.Equal(t, failure.AuthorUser, failure.AuthorOf(err))
			require.Equal(t, "spec.vectorAggregatorConfigMapName", failure.FieldOf(err))
		})
	}
}
