package configfold

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/stretchr/testify/require"
)

func level(l v1alpha1.LogLevel) *v1alpha1.LogLevelSpec { return &v1alpha1.LogLevelSpec{Level: &l} }

func withLogging(l *v1alpha1.LoggingSpec) *v1alpha1.RoleGroupConfigSpec {
	return &v1alpha1.RoleGroupConfigSpec{Logging: l}
}

func TestFoldCommonLogging(t *testing.T) {
	tests := []struct {
		name                  string
		defaults, role, group *v1alpha1.LoggingSpec
		want                  *v1alpha1.LoggingSpec
	}{
		{name: "nothing stated is nil"},
		{name: "a default applies as a whole",
			defaults: &v1alpha1.LoggingSpec{EnableVectorAgent: new(true), Containers: map[string]v1alpha1.ContainerLoggingSpec{
				"server": {Console: level(v1alpha1.LogLevelInfo)}}},
			want: &v1alpha1.LoggingSpec{EnableVectorAgent: new(true), Containers: map[string]v1alpha1.ContainerLoggingSpec{
				"server": {Console: level(v1alpha1.LogLevelInfo)}}}},
		{name: "a level is replaced only where the later layer states it",
			defaults: &v1alpha1.LoggingSpec{Containers: map[string]v1alpha1.ContainerLoggingSpec{
				"server": {Console: level(v1alpha1.LogLevelInfo), File: level(v1alpha1.LogLevelWarn)}}},
			group: &v1alpha1.LoggingSpec{Containers: map[string]v1alpha1.ContainerLoggingSpec{
				"server": {Console: level(v1alpha1.LogLevelDebug), File: &v1alpha1.LogLevelSpec{}}}},
			want: &v1alpha1.LoggingSpec{Containers: map[string]v1alpha1.ContainerLoggingSpec{
				"server": {Console: level(v1alpha1.LogLevelDebug), File: level(v1alpha1.LogLevelWarn)}}}},
		{name: "loggers are unioned and a stated logger level wins",
			role: &v1alpha1.LoggingSpec{Containers: map[string]v1alpha1.ContainerLoggingSpec{
				"server": {Loggers: map[string]v1alpha1.LogLevelSpec{
					v1alpha1.RootLogger: *level(v1alpha1.LogLevelInfo), "org.apache.zookeeper": *level(v1alpha1.LogLevelWarn)}}}},
			group: &v1alpha1.LoggingSpec{Containers: map[string]v1alpha1.ContainerLoggingSpec{
				"server": {Loggers: map[string]v1alpha1.LogLevelSpec{
					"org.apache.zookeeper": *level(v1alpha1.LogLevelTrace), "io.netty": *level(v1alpha1.LogLevelError), v1alpha1.RootLogger: {}}}}},
			want: &v1alpha1.LoggingSpec{Containers: map[string]v1alpha1.ContainerLoggingSpec{
				"server": {Loggers: map[string]v1alpha1.LogLevelSpec{
					v1alpha1.RootLogger:    *level(v1alpha1.LogLevelInfo),
					"org.apache.zookeeper": *level(v1alpha1.LogLevelTrace),
					"io.netty":             *level(v1alpha1.LogLevelError)}}}}},
		{name: "containers are unioned",
			role:  &v1alpha1.LoggingSpec{Containers: map[string]v1alpha1.ContainerLoggingSpec{"server": {Console: level(v1alpha1.LogLevelInfo)}}},
			group: &v1alpha1.LoggingSpec{Containers: map[string]v1alpha1.ContainerLoggingSpec{"vector": {Console: level(v1alpha1.LogLevelError)}}},
			want: &v1alpha1.LoggingSpec{Containers: map[string]v1alpha1.ContainerLoggingSpec{
				"server": {Console: level(v1alpha1.LogLevelInfo)}, "vector": {Console: level(v1alpha1.LogLevelError)}}}},
		{name: "enableVectorAgent folds on presence, so false overrides true",
			defaults: &v1alpha1.LoggingSpec{EnableVectorAgent: new(true)},
			role:     &v1alpha1.LoggingSpec{EnableVectorAgent: new(false)},
			group:    &v1alpha1.LoggingSpec{},
			want:     &v1alpha1.LoggingSpec{EnableVectorAgent: new(false)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			folded, err := foldCommon(withLogging(tt.defaults), withLogging(tt.role), withLogging(tt.group))
			got := folded.Config
			require.NoError(t, err)
			if diff := cmp.Diff(tt.want, got.Logging); diff != "" {
				t.Errorf("logging mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
