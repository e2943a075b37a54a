package productlogging

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"k8s.io/utils/ptr"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// trickySpec exercises levels and logger names that need escaping.
func trickySpec() *v1alpha1.ContainerLoggingSpec {
	lvl := func(l v1alpha1.LogLevel) v1alpha1.LogLevelSpec { return v1alpha1.LogLevelSpec{Level: ptr.To(l)} }
	return &v1alpha1.ContainerLoggingSpec{
		Console: &v1alpha1.LogLevelSpec{Level: ptr.To(v1alpha1.LogLevelWarn)},
		File:    &v1alpha1.LogLevelSpec{Level: ptr.To(v1alpha1.LogLevelDebug)},
		Loggers: map[string]v1alpha1.LogLevelSpec{
			v1alpha1.RootLogger:     lvl(v1alpha1.LogLevelError),
			"org.example.Server":    lvl(v1alpha1.LogLevelTrace),
			"odd name=with:chars#!": lvl(v1alpha1.LogLevelFatal),
			"café<&>\"quoted\"":     lvl(v1alpha1.LogLevelNone),
			"inherits":              {},
		},
	}
}

// goldenCases are the renderings kept in testdata.
func goldenCases() []struct {
	name string
	p    Producer
	opts Options
} {
	return []struct {
		name string
		p    Producer
		opts Options
	}{
		{"log4j-console", Producer{Container: "zk", Framework: Log4j}, Options{}},
		{"log4j-files", Producer{Container: "zk", Framework: Log4j}, Options{CollectFiles: true}},
		{"log4j2-properties-files", Producer{Container: "kafka", Framework: Log4j2}, Options{CollectFiles: true, MaxFileSizeBytes: 1 << 20}},
		{"log4j2-xml-files", Producer{Container: "kafka", Framework: Log4j2, ConfigFile: "log4j2.xml"}, Options{CollectFiles: true}},
		{"log4j2-xml-console", Producer{Container: "kafka", Framework: Log4j2, ConfigFile: "log4j2.xml"}, Options{}},
		{"logback-files", Producer{Container: "trino", Framework: Logback}, Options{CollectFiles: true}},
		{"logback-console", Producer{Container: "trino", Framework: Logback}, Options{}},
		{"python-files", Producer{Container: "superset", Framework: Python, LogDir: "/logs/superset"}, Options{CollectFiles: true}},
		{"python-console", Producer{Container: "superset", Framework: Python}, Options{}},
	}
}

func TestRenderGolden(t *testing.T) {
	for _, tc := range goldenCases() {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Render(tc.p, trickySpec(), tc.opts)
			require.NoError(t, err)
			path := filepath.Join("testdata", tc.name+".golden")
			if *update {
				require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
			}
			want, err := os.ReadFile(path)
			require.NoError(t, err, "run go test -update to create the golden file")
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("%s mismatch (-want +got):\n%s", path, diff)
			}
		})
	}
}

func TestRenderIsDeterministic(t *testing.T) {
	for _, tc := range goldenCases() {
		first, err := Render(tc.p, trickySpec(), tc.opts)
		require.NoError(t, err)
		for range 20 {
			again, err := Render(tc.p, trickySpec(), tc.opts)
			require.NoError(t, err)
			require.Equal(t, first, again, tc.name)
		}
	}
}

func TestConsoleOnlyWritesNoFile(t *testing.T) {
	for _, f := range Frameworks() {
		t.Run(string(f), func(t *testing.T) {
			p := Producer{Container: "c", Framework: f}
			out, err := Render(p, trickySpec(), Options{})
			require.NoError(t, err)
			require.NotContains(t, out, p.LogDirectory(), "no appender may write where no volume is mounted")
			require.NotContains(t, strings.ToLower(out), "rolling")

			withFiles, err := Render(p, trickySpec(), Options{CollectFiles: true})
			require.NoError(t, err)
			require.Contains(t, withFiles, p.LogFilePath())
		})
	}
}

func TestNilSpecRendersDefaults(t *testing.T) {
	out, err := Render(Producer{Container: "c", Framework: Log4j}, nil, Options{})
	require.NoError(t, err)
	require.Contains(t, out, "log4j.rootLogger=INFO, CONSOLE\n")
	require.Contains(t, out, "log4j.appender.CONSOLE.Threshold=INFO\n")
}

func TestRenderRejectsInvalidProducer(t *testing.T) {
	_, err := Render(Producer{Container: "c", Framework: "slf4j"}, nil, Options{})
	var pe *ProducerError
	require.ErrorAs(t, err, &pe)
	require.Equal(t, "framework", pe.Field)
	require.Contains(t, err.Error(), `"slf4j"`)
}
