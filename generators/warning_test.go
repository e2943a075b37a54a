package generators_test

import (
	"testing"

	"github.com/go-logr/logr"
	"github.com/go-logr/logr/funcr"
	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/generators"
)

func TestWarnLogsAndHandsOver(t *testing.T) {
	w := generators.Warning{Reason: "Skipped", Author: failure.AuthorOperator, Source: "chart/templates/job.yaml",
		Object: corev1.ObjectReference{APIVersion: "batch/v1", Kind: "Job", Name: "migrate"}, Message: "left out"}
	tests := []struct {
		name string
		env  generators.Environment
		got  []generators.Warning
		want []generators.Warning
	}{
		{name: "without OnWarning, logged only"},
		{name: "with OnWarning", want: []generators.Warning{w}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.want != nil {
				tt.env.OnWarning = func(w generators.Warning) { tt.got = append(tt.got, w) }
			}
			var logged []string
			log := funcr.New(func(prefix, args string) { logged = append(logged, args) }, funcr.Options{})
			tt.env.Warn(logr.NewContext(t.Context(), log), w)
			want := []string{`"level"=0 "msg"="rendering warning" "reason"="Skipped" "author"="operator" ` +
				`"source"="chart/templates/job.yaml" "kind"="Job" "namespace"="" "name"="migrate" "message"="left out"`}
			if diff := cmp.Diff(want, logged); diff != "" {
				t.Errorf("log (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.want, tt.got); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
		})
	}
}
