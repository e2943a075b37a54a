package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"
)

// view shows the script's progress: on a terminal a live panel redrawn
// twice a second (the step, what it waits for, the cluster's conditions,
// its StatefulSets and the last events); elsewhere plain lines, one per
// step, per change of what it waits for, and per result.
type view struct {
	out  io.Writer
	live bool
	// panel renders the cluster part of the live panel.
	panel func(ctx context.Context) string

	mu          sync.Mutex
	step, total int
	name, what  string
	last        string
	notes       []string
	done        []outcome
}

func newView(out io.Writer, live bool, panel func(context.Context) string) *view {
	return &view{out: out, live: live, panel: panel}
}

// run redraws the live panel until ctx ends.
func (v *view) run(ctx context.Context) {
	if !v.live {
		return
	}
	t := time.NewTicker(500 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			v.draw(ctx)
		}
	}
}

func (v *view) draw(ctx context.Context) {
	panel := v.panel(ctx)
	v.mu.Lock()
	defer v.mu.Unlock()
	var b strings.Builder
	b.WriteString("\x1b[H\x1b[2J")
	fmt.Fprintf(&b, "opkit demo · step %d/%d: %s\n", v.step, v.total, v.name)
	if v.what != "" {
		fmt.Fprintf(&b, "  waiting until %s\n  now: %s\n", v.what, v.last)
	}
	for _, n := range v.notes {
		fmt.Fprintf(&b, "  · %s\n", n)
	}
	b.WriteString("\n" + panel + "\n")
	for _, o := range v.done {
		fmt.Fprintf(&b, "  %s %-58s %6s %5d writes\n", mark(o.err), o.name, o.took.Round(100*time.Millisecond), o.writes)
	}
	fmt.Fprint(v.out, b.String())
}

func (v *view) begin(i, total int, name string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.step, v.total, v.name, v.what, v.last, v.notes = i, total, name, "", "", nil
	if !v.live {
		fmt.Fprintf(v.out, "[%d/%d] %s\n", i, total, name)
	}
}

func (v *view) waiting(what string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.what, v.last = what, ""
	if !v.live {
		fmt.Fprintf(v.out, "      waiting until %s\n", what)
	}
}

func (v *view) state(s string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if s == v.last {
		return
	}
	v.last = s
	if !v.live && s != "" {
		fmt.Fprintf(v.out, "        %s  %s\n", time.Now().Format(time.TimeOnly), s)
	}
}

func (v *view) note(s string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.notes = append(v.notes, s)
	if !v.live {
		fmt.Fprintf(v.out, "      %s\n", s)
	}
}

func (v *view) end(o outcome) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.done = append(v.done, o)
	if !v.live {
		if o.err != nil {
			fmt.Fprintf(v.out, "      ✗ failed after %s: %v\n", o.took.Round(100*time.Millisecond), o.err)
			return
		}
		fmt.Fprintf(v.out, "      ✓ done in %s (%d API writes by the operators)\n", o.took.Round(100*time.Millisecond), o.writes)
	}
}

func mark(err error) string {
	if err != nil {
		return "✗"
	}
	return "✓"
}

// summary prints the closing table: each step, its time and the
// operators' API writes and reads.
func summary(out io.Writer, results []outcome, total time.Duration) {
	width := len("total (with the control plane's start)")
	for _, o := range results {
		width = max(width, len(o.name)+2)
	}
	fmt.Fprintf(out, "\n%-*s %8s %7s %7s\n", width, "step", "time", "writes", "reads")
	fmt.Fprintln(out, strings.Repeat("─", width+25))
	for _, o := range results {
		fmt.Fprintf(out, "%s %-*s %8s %7d %7d\n", mark(o.err), width-2, o.name, o.took.Round(100*time.Millisecond), o.writes, o.reads)
	}
	fmt.Fprintln(out, strings.Repeat("─", width+25))
	fmt.Fprintf(out, "%-*s %8s\n", width, "total (with the control plane's start)", total.Round(time.Second))
}

// sortedLines returns the lines of s sorted, for stable panels.
func sortedLines(lines []string) string {
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}
