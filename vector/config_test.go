package vector_test

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/productlogging"
	"github.com/opkit-dev/opkit/vector"
)

// pipeline is the part of vector.yaml the tests read back.
type pipeline struct {
	DataDir string `json:"data_dir"`
	Sources map[string]struct {
		Type      string   `json:"type"`
		Include   []string `json:"include"`
		Multiline struct {
			StartPattern string `json:"start_pattern"`
		} `json:"multiline"`
	} `json:"sources"`
	Transforms map[string]struct {
		Type   string   `json:"type"`
		Inputs []string `json:"inputs"`
		Source string   `json:"source"`
	} `json:"transforms"`
	Sinks map[string]struct {
		Type    string   `json:"type"`
		Inputs  []string `json:"inputs"`
		Address string   `json:"address"`
	} `json:"sinks"`
}

var scope = builders.Scope{Namespace: "data", Cluster: "hdfs", Role: "namenode", RoleGroup: "default"}

func allFrameworks() []productlogging.Producer {
	return []productlogging.Producer{
		{Container: "zkfc", Framework: productlogging.Log4j},
		{Container: "namenode", Framework: productlogging.Log4j2, LogDir: "/var/log/hdfs"},
		{Container: "format", Framework: productlogging.Logback},
		{Container: "probe", Framework: productlogging.Python},
	}
}

func render(t *testing.T, producers []productlogging.Producer) pipeline {
	t.Helper()
	out, err := vector.RenderConfig(vector.ConfigOptions{Producers: producers, Aggregator: "aggregator.logging.svc:6000", Scope: scope})
	require.NoError(t, err)
	var p pipeline
	require.NoError(t, yaml.Unmarshal([]byte(out), &p), out)
	return p
}

// TestPipelineGraphIsConnected checks, on the parsed file, that every
// component's inputs exist and that every source reaches the sink.
func TestPipelineGraphIsConnected(t *testing.T) {
	p := render(t, allFrameworks())

	known := map[string]bool{}
	for id := range p.Sources {
		known[id] = true
	}
	for id := range p.Transforms {
		known[id] = true
	}
	feeds := map[string][]string{} // component → components reading it
	for id, tr := range p.Transforms {
		require.NotEmpty(t, tr.Inputs, "transform %s has no inputs", id)
		for _, in := range tr.Inputs {
			require.True(t, known[in], "transform %s reads unknown %q", id, in)
			feeds[in] = append(feeds[in], id)
		}
	}
	sink, ok := p.Sinks[vector.SinkName]
	require.True(t, ok, "no %s sink", vector.SinkName)
	require.Len(t, p.Sinks, 1)
	for _, in := range sink.Inputs {
		require.True(t, known[in], "sink reads unknown %q", in)
		feeds[in] = append(feeds[in], vector.SinkName)
	}
	for id := range p.Sources {
		if !reaches(feeds, id, vector.SinkName) {
			t.Errorf("source %s never reaches the sink", id)
		}
	}
	if diff := cmp.Diff("vector", sink.Type); diff != "" {
		t.Errorf("sink type (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff("aggregator.logging.svc:6000", sink.Address); diff != "" {
		t.Errorf("sink address (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(vector.DataDir, p.DataDir); diff != "" {
		t.Errorf("data_dir (-want +got):\n%s", diff)
	}
}

func reaches(feeds map[string][]string, from, to string) bool {
	seen := map[string]bool{}
	queue := []string{from}
	for len(queue) > 0 {
		id := queue[0]
		queue = queue[1:]
		if id == to {
			return true
		}
		if !seen[id] {
			seen[id] = true
			queue = append(queue, feeds[id]...)
		}
	}
	return false
}

// TestEachProducerIsReadAndParsedByItsLayout checks the file each source
// reads is the file productlogging writes, and that the parse transform
// matches the framework's layout.
func TestEachProducerIsReadAndParsedByItsLayout(t *testing.T) {
	producers := allFrameworks()
	p := render(t, producers)
	require.Len(t, p.Sources, len(producers))
	tests := []struct {
		container, include, start, parser string
	}{
		{"zkfc", "/opkit/log/zkfc/zkfc.log4j.xml", "^<log4j:event", "parse_xml"},
		{"namenode", "/var/log/hdfs/namenode.log4j2.xml", "^<log4j:event", "parse_xml"},
		{"format", "/opkit/log/format/format.logback.xml", "^<log4j:event", "parse_xml"},
		{"probe", "/opkit/log/probe/probe.python.log", `^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}`, "parse_regex"},
	}
	for _, tt := range tests {
		t.Run(tt.container, func(t *testing.T) {
			src := p.Sources["files_"+tt.container]
			if diff := cmp.Diff([]string{tt.include}, src.Include); diff != "" {
				t.Errorf("include (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.start, src.Multiline.StartPattern); diff != "" {
				t.Errorf("event start (-want +got):\n%s", diff)
			}
			parse := p.Transforms["parse_"+tt.container]
			if diff := cmp.Diff([]string{"files_" + tt.container}, parse.Inputs); diff != "" {
				t.Errorf("parse inputs (-want +got):\n%s", diff)
			}
			require.Contains(t, parse.Source, `.container = "`+tt.container+`"`)
			require.Contains(t, parse.Source, tt.parser)
		})
	}
	enrich := p.Transforms[vector.EnrichTransformName].Source
	for _, want := range []string{`.namespace = "data"`, `.cluster = "hdfs"`, `.role = "namenode"`, `.roleGroup = "default"`, `.pod = get_env_var("POD_NAME")`} {
		require.Contains(t, enrich, want)
	}
}

func TestRenderConfigIsIndependentOfProducerOrder(t *testing.T) {
	producers := allFrameworks()
	opts := vector.ConfigOptions{Producers: producers, Aggregator: "10.0.0.1:6000", Scope: scope}
	first, err := vector.RenderConfig(opts)
	require.NoError(t, err)
	slices.Reverse(producers)
	second, err := vector.RenderConfig(opts)
	require.NoError(t, err)
	if diff := cmp.Diff(first, second); diff != "" {
		t.Errorf("output depends on producer order (-first +second):\n%s", diff)
	}
}

func TestRenderConfigRefusesBadInput(t *testing.T) {
	tests := []struct {
		name string
		opts vector.ConfigOptions
		want string
	}{
		{name: "no producers", opts: vector.ConfigOptions{Aggregator: "a:1"},
			want: "logProducers: vector config: no log producers; Decide skips the agent for such a role"},
		{name: "no aggregator", opts: vector.ConfigOptions{Producers: allFrameworks()},
			want: `ConfigOptions.Aggregator: vector config: take the address from AggregatorAddress: "" is not a host:port address: missing port in address`},
		{name: "two producers, one file", opts: vector.ConfigOptions{Aggregator: "a:1", Producers: []productlogging.Producer{
			{Container: "a", Framework: productlogging.Python, LogFile: "x.log", LogDir: "/log"},
			{Container: "b", Framework: productlogging.Python, LogFile: "x.log", LogDir: "/log"},
		}}, want: `vector config: logProducers[1].logFile: container "b" would write /log/x.log, which logProducers[0] (container "a") already writes`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := vector.RenderConfig(tt.opts)
			require.Error(t, err)
			if diff := cmp.Diff(tt.want, err.Error()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			require.ErrorIs(t, err, failure.ErrInvalid)
			require.Equal(t, failure.AuthorOperator, failure.AuthorOf(err))
		})
	}
}
