package properties

import (
	"maps"
	"testing"

	"github.com/google/go-cmp/cmp"
	mprops "github.com/magiconair/properties"
	"github.com/stretchr/testify/require"
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

func TestRenderRoundTrip(t *testing.T) {
	// The parser decodes each \uXXXX on its own, so it cannot join a
	// surrogate pair; TestRenderExact pins that encoding instead.
	in := maps.Clone(tricky)
	in["unicode.ключ"] = "naïve ☃"
	out := Render(in)
	for _, r := range out {
		require.Less(t, r, rune(0x80), "non-ASCII written unescaped")
	}
	p, err := mprops.LoadString(out)
	require.NoError(t, err)
	got := map[string]string{}
	for _, k := range p.Keys() {
		got[k] = p.GetString(k, "")
	}
	if diff := cmp.Diff(in, got); diff != "" {
		t.Errorf("parsed back (-want +got):\n%s\n%s", diff, out)
	}
}

// TestRenderExact pins what is escaped where: separators and
// comment characters in keys only, a leading space in values, non-ASCII
// everywhere.
func TestRenderExact(t *testing.T) {
	got := Render(map[string]string{
		"b key":       " v#1 x",
		"a":           "é𝄞",
		"url":         "jdbc:postgresql://db:5432/x?a=b",
		"k=e:y#!":     "#!=:",
		"back\\slash": "C:\\dir\ttab",
	})
	want := "a=\\u00E9\\uD834\\uDD1E\n" +
		"b\\ key=\\ v#1 x\n" +
		"back\\\\slash=C:\\\\dir\\ttab\n" +
		"k\\=e\\:y\\#\\!=#!=:\n" +
		"url=jdbc:postgresql://db:5432/x?a=b\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestWriterKeepsOrderAndComments(t *testing.T) {
	var w Writer
	w.Comment("generated\nfor café")
	w.Set("z", "1")
	w.Set("a", "2")
	want := "# generated\n# for caf\\u00E9\nz=1\na=2\n"
	if diff := cmp.Diff(want, w.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	p, err := mprops.LoadString(w.String())
	require.NoError(t, err)
	require.Equal(t, []string{"z", "a"}, p.Keys())
}
