package properties

import (
	"encoding/base64"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
)

// readProperties is a Java program that loads a properties file with
// java.util.Properties, the reader every product uses, and prints each
// entry as base64 key and value, so nothing is lost on the way back.
const readProperties = `import java.io.*;
import java.nio.charset.StandardCharsets;
import java.util.*;

public class ReadProperties {
	public static void main(String[] args) throws IOException {
		Properties p = new Properties();
		try (InputStream in = new FileInputStream(args[0])) { p.load(in); }
		Base64.Encoder enc = Base64.getEncoder();
		for (String k : new TreeSet<>(p.stringPropertyNames())) {
			System.out.println(enc.encodeToString(k.getBytes(StandardCharsets.UTF_8)) + " " +
				enc.encodeToString(p.getProperty(k).getBytes(StandardCharsets.UTF_8)));
		}
	}
}
`

// TestJavaRoundTrip reads Render's output back
// with java.util.Properties itself, surrogate pairs included. It needs a
// Java runtime (11 or later) on the PATH.
func TestJavaRoundTrip(t *testing.T) {
	java, err := exec.LookPath("java")
	if err != nil {
		t.Skip("no java on the PATH")
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "ReadProperties.java")
	require.NoError(t, os.WriteFile(src, []byte(readProperties), 0o600))
	file := filepath.Join(dir, "in.properties")
	require.NoError(t, os.WriteFile(file, []byte(Render(tricky)), 0o600))

	out, err := exec.CommandContext(t.Context(), java, src, file).Output()
	require.NoError(t, err)
	got := map[string]string{}
	for line := range strings.Lines(string(out)) {
		k, v, ok := strings.Cut(strings.TrimRight(line, "\r\n"), " ")
		require.True(t, ok, line)
		key, err := base64.StdEncoding.DecodeString(k)
		require.NoError(t, err)
		value, err := base64.StdEncoding.DecodeString(v)
		require.NoError(t, err)
		got[string(key)] = string(value)
	}
	if diff := cmp.Diff(tricky, got); diff != "" {
		t.Errorf("read back by java.util.Properties (-want +got):\n%s", diff)
	}
}
