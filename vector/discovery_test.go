package vector_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/vector"
)

func TestDiscoverAggregator(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
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
		{name: "no ConfigMap", wantErr: vector.ErrConfigMapNotFound,
			message: "vector aggregator discovery ConfigMap %s/no-configmap: ConfigMap not found"},
		{name: "no key", data: map[string]string{"address": "a:1"}, wantErr: vector.ErrAddressMissing,
			message: "vector aggregator discovery ConfigMap %s/no-key: no ADDRESS key"},
		{name: "empty value", data: map[string]string{"ADDRESS": ""}, wantErr: vector.ErrAddressMissing,
			message: "vector aggregator discovery ConfigMap %s/empty-value: no ADDRESS key"},
		{name: "no port", data: map[string]string{"ADDRESS": "aggregator"}, wantErr: vector.ErrAddressInvalid,
			message: `vector aggregator discovery ConfigMap %s/no-port: ADDRESS: "aggregator" is not a host:port address: address aggregator: missing port in address`},
		{name: "port out of range", data: map[string]string{"ADDRESS": "aggregator:70000"}, wantErr: vector.ErrAddressInvalid,
			message: `vector aggregator discovery ConfigMap %s/port-out-of-range: ADDRESS: "aggregator:70000" is not a host:port address: port "70000" is not a number in 1-65535`},
		{name: "bad host", data: map[string]string{"ADDRESS": "Aggregator_1:6000"}, wantErr: vector.ErrAddressInvalid,
			message: `vector aggregator discovery ConfigMap %s/bad-host: ADDRESS: "Aggregator_1:6000" is not a host:port address: host "Aggregator_1" is neither an IP address nor a DNS name`},
		{name: "URL", data: map[string]string{"ADDRESS": "http://aggregator:6000"}, wantErr: vector.ErrAddressInvalid,
			message: `vector aggregator discovery ConfigMap %s/url: ADDRESS: "http://aggregator:6000" is not a host:port address: address http://aggregator:6000: too many colons in address`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name := kebab(tt.name)
			if tt.data != nil {
				require.NoError(t, cp.Client.Create(t.Context(), &corev1.ConfigMap{
					ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns}, Data: tt.data}))
			}
			got, err := vector.DiscoverAggregator(t.Context(), cp.Client, ns, name)
			if tt.wantErr == nil {
				require.NoError(t, err)
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("address (-want +got):\n%s", diff)
				}
				return
			}
			require.ErrorIs(t, err, tt.wantErr)
			var derr *vector.DiscoveryError
			require.True(t, errors.As(err, &derr))
			if diff := cmp.Diff(fmtNS(tt.message, ns), err.Error()); diff != "" {
				t.Errorf("message (-want +got):\n%s", diff)
			}
		})
	}
}

func kebab(s string) string {
	out := []rune{}
	for _, r := range s {
		switch {
		case r == ' ':
			out = append(out, '-')
		case r >= 'A' && r <= 'Z':
			out = append(out, r+'a'-'A')
		default:
			out = append(out, r)
		}
	}
	return string(out)
}

func fmtNS(format, ns string) string { return fmt.Sprintf(format, ns) }
