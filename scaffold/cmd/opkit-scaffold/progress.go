package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/go-logr/logr"
)

// progress is a logr sink printing the scaffold's steps as plain lines:
// the message, then key=value pairs.
type progress struct {
	w io.Writer
}

var _ logr.LogSink = progress{}

// Init implements logr.LogSink.
func (progress) Init(logr.RuntimeInfo) {}

// Enabled shows the steps, not the detail.
func (progress) Enabled(level int) bool { return level == 0 }

// Info prints a step.
func (p progress) Info(_ int, msg string, kv ...any) { p.print(msg, kv) }

// Error prints a failure.
func (p progress) Error(err error, msg string, kv ...any) { p.print(msg+": "+err.Error(), kv) }

// WithValues keeps the sink as it is: the scaffold's steps carry their
// values themselves.
func (p progress) WithValues(...any) logr.LogSink { return p }

// WithName keeps the sink as it is.
func (p progress) WithName(string) logr.LogSink { return p }

func (p progress) print(msg string, kv []any) {
	var b strings.Builder
	b.WriteString(msg)
	for i := 0; i+1 < len(kv); i += 2 {
		fmt.Fprintf(&b, " %v=%v", kv[i], kv[i+1])
	}
	fmt.Fprintln(p.w, b.String())
}
