package vector

import (
	"fmt"
	"strings"

	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/productlogging"
)

// Where one event starts in a file, by layout.
const (
	// log4jEventStart begins each XML event of Log4j, Log4j2's
	// Log4j1XmlLayout and Logback's log4j layout.
	log4jEventStart = `^<log4j:event`
	// pythonLineStart begins each line of productlogging.PythonFileFormat:
	// continuation lines of a multi-line message do not start with a time.
	pythonLineStart = `^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}`
)

// log4jProgram parses one XML event. The events use the log4j: prefix
// without declaring it, so the event is wrapped in an element that does.
const log4jProgram = `wrapped = "<events xmlns:log4j=\"http://jakarta.apache.org/log4j/\">" + string!(.message) + "</events>"
parsed, err = parse_xml(wrapped)
if err != null {
  .parse_error = err
} else {
  event = object(parsed.events.event) ?? {}
  .logger = event."@logger"
  .level = event."@level"
  .thread = event."@thread"
  millis, err = to_int(event."@timestamp")
  if err == null {
    .timestamp = from_unix_timestamp!(millis, unit: "milliseconds")
  }
  .message = event.message
  if exists(event.throwable) {
    .throwable = event.throwable
  }
}
`

// pythonProgram parses one productlogging.PythonFileFormat event.
const pythonProgram = `parsed, err = parse_regex(string!(.message), r'^(?P<time>\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}) (?P<level>\S+) \[(?P<logger>[^\]]*)\] (?P<message>(?s:.*))$')
if err != null {
  .parse_error = err
} else {
  .logger = parsed.logger
  .level = parsed.level
  .message = parsed.message
  time, err = parse_timestamp(parsed.time, "%Y-%m-%dT%H:%M:%S%.3f")
  if err == null {
    .timestamp = time
  }
}
`

// parseProgram returns the VRL program of p's parse transform: it names the
// container, then parses the framework's layout.
func parseProgram(p productlogging.Producer) string {
	program := log4jProgram
	if p.Framework == productlogging.Python {
		program = pythonProgram
	}
	return fmt.Sprintf(".container = %s\n%s", vrlString(p.Container), program)
}

// enrichProgram returns the VRL program adding where events come from. The
// pod name is read from the agent's environment, where the provider puts
// it; everything else is known when the file is rendered.
func enrichProgram(s builders.Scope) string {
	var b strings.Builder
	for _, kv := range [][2]string{
		{"namespace", s.Namespace},
		{"cluster", s.Cluster},
		{"role", s.Role},
		{"roleGroup", s.RoleGroup},
	} {
		fmt.Fprintf(&b, ".%s = %s\n", kv[0], vrlString(kv[1]))
	}
	fmt.Fprintf(&b, ".pod = get_env_var(%s) ?? \"\"\n", vrlString(PodNameEnv))
	return b.String()
}

// vrlString returns s as a VRL string literal.
func vrlString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\r", `\r`, "\t", `\t`)
	return `"` + r.Replace(s) + `"`
}
