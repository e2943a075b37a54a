package vector_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/utils/ptr"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/productlogging"
	"github.com/opkit-dev/opkit/vector"
)

func TestDecide(t *testing.T) {
	enabled := &commonsv1alpha1.LoggingSpec{EnableVectorAgent: ptr.To(true)}
	disabled := &commonsv1alpha1.LoggingSpec{EnableVectorAgent: ptr.To(false)}
	notEnabled := "logging.enableVectorAgent is not true"
	nothingSupplies := "logging.enableVectorAgent is true, but the cluster names no Vector aggregator discovery " +
		"ConfigMap and the role does not write its own vector.yaml; logs go to the console only"
	noProducers := "logging.enableVectorAgent is true, but the role declares no log producers, " +
		"so there are no log files to collect; logs go to the console only"
	ps := []productlogging.Producer{{Container: "main", Framework: productlogging.Logback}}
	tests := []struct {
		name  string
		in    vector.GateInput
		want  vector.Decision
		files bool
	}{
		{name: "aggregator named and agent enabled: framework renders", in: vector.GateInput{Producers: ps, AggregatorConfigMap: "vector-aggregator", Logging: enabled},
			want: vector.Decision{Inject: true, Render: true}, files: true},
		{name: "role owns its config and agent enabled: product renders", in: vector.GateInput{Producers: ps, OwnsVectorConfig: true, Logging: enabled},
			want: vector.Decision{Inject: true}, files: true},
		{name: "both: the role's own config wins", in: vector.GateInput{Producers: ps, AggregatorConfigMap: "a", OwnsVectorConfig: true, Logging: enabled},
			want: vector.Decision{Inject: true}, files: true},
		{name: "agent enabled, nothing supplies vector.yaml: warn", in: vector.GateInput{Producers: ps, Logging: enabled},
			want: vector.Decision{Warn: true, Reason: nothingSupplies}},
		{name: "aggregator named, agent disabled", in: vector.GateInput{Producers: ps, AggregatorConfigMap: "a", Logging: disabled},
			want: vector.Decision{Reason: notEnabled}},
		{name: "aggregator named, no logging spec", in: vector.GateInput{Producers: ps, AggregatorConfigMap: "a"},
			want: vector.Decision{Reason: notEnabled}},
		{name: "logging spec without the switch", in: vector.GateInput{Producers: ps, OwnsVectorConfig: true, Logging: &commonsv1alpha1.LoggingSpec{}},
			want: vector.Decision{Reason: notEnabled}},
		{name: "no log producers: skipped without a warning, aggregator named", in: vector.GateInput{AggregatorConfigMap: "a", Logging: enabled},
			want: vector.Decision{Reason: noProducers}},
		{name: "no log producers: skipped without a warning, own config", in: vector.GateInput{OwnsVectorConfig: true, Logging: enabled},
			want: vector.Decision{Reason: noProducers}},
		{name: "no log producers, nothing supplies vector.yaml: still no warning", in: vector.GateInput{Logging: enabled},
			want: vector.Decision{Reason: noProducers}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := vector.Decide(tt.in)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("decision (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(productlogging.Options{CollectFiles: tt.files}, got.LoggingOptions()); diff != "" {
				t.Errorf("logging options (-want +got):\n%s", diff)
			}
		})
	}
}
