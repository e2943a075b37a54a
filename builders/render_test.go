package builders

import (
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"

	"github.com/opkit-dev/opkit/api/failure"
)

// tricky holds what each format has to escape.
var tricky = map[string]string{
	"plain.key":         "value",
	"key with spaces":   "  leading and trailing  ",
	"a=b:c#d!e":         "x=y:z#w!v",
	"back\\slash":       `C:\path\to`,
	"multi":             "line one\nline two\r\ttabbed",
	"unicode.ключ":      "naïve ☃ 𝄞",
	"#starts.with.hash": "!starts with bang",
	"empty":             "",
	"sep.first":         "=:value",
	"hash.first":        "#not a comment",
	"xml":               `<tag attr="v">&amp;'</tag>`,
	"quote":             `it's "quoted" $HOME ` + "`cmd`",
}

func TestRenderHadoopXMLRoundTrip(t *testing.T) {
	out := RenderHadoopXML(tricky)
	var doc struct {
		XMLName    xml.Name `xml:"configuration"`
		Properties []struct {
			Name  string `xml:"name"`
			Value string `xml:"value"`
		} `xml:"property"`
	}
	require.NoError(t, xml.Unmarshal([]byte(out), &doc))
	got := map[string]string{}
	var order []string
	for _, p := range doc.Properties {
		got[p.Name] = p.Value
		order = append(order, p.Name)
	}
	if diff := cmp.Diff(tricky, got); diff != "" {
		t.Errorf("parsed back (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(sortedKeys(tricky), order); diff != "" {
		t.Errorf("keys not sorted (-want +got):\n%s", diff)
	}
}

func TestRenderYAMLRoundTrip(t *testing.T) {
	for _, in := range []map[string]string{tricky, {}, {"yes": "no", "n": "1.0", "null": "~"}} {
		out, err := RenderYAML(in)
		require.NoError(t, err)
		got := map[string]string{}
		require.NoError(t, yaml.UnmarshalStrict([]byte(out), &got))
		if diff := cmp.Diff(in, got); diff != "" {
			t.Errorf("parsed back (-want +got):\n%s\n%s", diff, out)
		}
	}
}

// TestRenderEnvFileRoundTrip sources the file with a real POSIX shell.
func TestRenderEnvFileRoundTrip(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	in := map[string]string{}
	for i, v := range sortedKeys(tricky) {
		in["VAR_"+string(rune('A'+i))] = tricky[v]
	}
	out, err := RenderEnvFile(in)
	require.NoError(t, err)
	file := filepath.Join(t.TempDir(), "x.env")
	require.NoError(t, os.WriteFile(file, []byte(out), 0o600))
	for k, want := range in {
		got, err := exec.CommandContext(t.Context(), sh, "-c", `. "$1"; printf %s "$`+k+`"`, "sh", file).Output()
		require.NoError(t, err)
		if diff := cmp.Diff(want, string(got)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", k, diff)
		}
	}
	_, err = RenderEnvFile(map[string]string{"not-a-name": "x", "1x": "y", "OK": "z"})
	if diff := cmp.Diff("key \"1x\": is not an environment variable name\nkey \"not-a-name\": is not an environment variable name", err.Error()); diff != "" {
		t.Errorf("every bad key is reported (-want +got):\n%s", diff)
	}
}

func TestRenderINI(t *testing.T) {
	in := map[string]string{"b": "2", "a.key": "x = y", "c": ""}
	out, err := RenderINI(in)
	require.NoError(t, err)
	require.Equal(t, "a.key = x = y\nb = 2\nc = \n", out)
	got := map[string]string{}
	for line := range strings.Lines(out) {
		k, v, ok := strings.Cut(strings.TrimSuffix(line, "\n"), "=")
		require.True(t, ok)
		got[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	if diff := cmp.Diff(in, got); diff != "" {
		t.Errorf("parsed back (-want +got):\n%s", diff)
	}
	for _, bad := range []map[string]string{{"a=b": "x"}, {"[s]": "x"}, {"k": "two\nlines"}} {
		_, err := RenderINI(bad)
		require.Error(t, err, "%v", bad)
	}
}

func TestRenderConfigFileByExtension(t *testing.T) {
	in := map[string]string{"k": "v"}
	tests := []struct{ file, want string }{
		{"a.properties", "k=v\n"},
		{"core-site.xml", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<configuration>\n  <property>\n    <name>k</name>\n    <value>v</value>\n  </property>\n</configuration>\n"},
		{"c.yaml", "k: v\n"},
		{"c.YML", "k: v\n"},
		{"d.env", "k='v'\n"},
		{"e.ini", "k = v\n"},
		{"e.cfg", "k = v\n"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			got, err := RenderConfigFile(tt.file, in)
			require.NoError(t, err)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	_, err := RenderConfigFile("f.toml", in)
	var rerr *RenderError
	require.ErrorAs(t, err, &rerr)
	if diff := cmp.Diff(&RenderError{File: "f.toml", Message: `no renderer for files ending in ".toml"`}, rerr); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	require.ErrorIs(t, err, failure.ErrInvalid)
}
