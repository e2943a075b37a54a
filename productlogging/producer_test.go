package productlogging

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/opkit-dev/opkit/api/failure"
)

func TestProducerDefaults(t *testing.T) {
	tests := []struct {
		p                         Producer
		config, logFile, logFile2 string
	}{
		{Producer{Container: "zk", Framework: Log4j}, "log4j.properties", "zk.log4j.xml", "/opkit/log/zk/zk.log4j.xml"},
		{Producer{Container: "k", Framework: Log4j2}, "log4j2.properties", "k.log4j2.xml", "/opkit/log/k/k.log4j2.xml"},
		{Producer{Container: "t", Framework: Logback}, "logback.xml", "t.logback.xml", "/opkit/log/t/t.logback.xml"},
		{Producer{Container: "s", Framework: Python, LogDir: "/var/log/s", LogFile: "app.log", ConfigFile: "log.yaml"}, "log.yaml", "app.log", "/var/log/s/app.log"},
	}
	for _, tt := range tests {
		t.Run(string(tt.p.Framework), func(t *testing.T) {
			require.Equal(t, tt.config, tt.p.ConfigFileName())
			require.Equal(t, tt.logFile, tt.p.LogFileName())
			require.Equal(t, tt.logFile2, tt.p.LogFilePath())
		})
	}
}

func TestValidateProducers(t *testing.T) {
	tests := []struct {
		name      string
		producers []Producer
		wantErr   []string
	}{
		{"distinct producers pass", []Producer{
			{Container: "a", Framework: Log4j},
			{Container: "b", Framework: Logback},
		}, nil},
		{"same container twice names both", []Producer{
			{Container: "a", Framework: Log4j},
			{Container: "a", Framework: Logback, LogDir: "/other"},
		}, []string{`logProducers[1].container: container "a" is already configured by logProducers[0]`}},
		{"same file twice names both", []Producer{
			{Container: "a", Framework: Python, LogDir: "/logs", LogFile: "app.log"},
			{Container: "b", Framework: Python, LogDir: "/logs", LogFile: "app.log"},
		}, []string{`logProducers[1].logFile: container "b" would write /logs/app.log, which logProducers[0] (container "a") already writes`}},
		{"invalid fields", []Producer{
			{Framework: "slf4j", LogDir: "relative", LogFile: "a/b"},
		}, []string{
			`logProducers[0].container: must be set`,
			`logProducers[0].framework: "slf4j" is not one of [log4j log4j2 logback python]`,
			`logProducers[0].logDir: "relative" must be an absolute path`,
			`logProducers[0].logFile: "a/b" must be a file name, not a path`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := ValidateProducers(tt.producers)
			if tt.wantErr == nil {
				require.NoError(t, err)
				return
			}
			var got []string
			for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
				var perr *ProducerError
				require.ErrorAs(t, e, &perr)
				require.Equal(t, perr.Field, failure.FieldOf(e))
				got = append(got, e.Error())
			}
			if diff := cmp.Diff(tt.wantErr, got); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
			require.ErrorIs(t, err, failure.ErrInvalid)
			require.Equal(t, failure.AuthorOperator, failure.AuthorOf(err))
		})
	}
}
