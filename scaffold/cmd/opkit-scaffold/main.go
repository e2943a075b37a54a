// Command opkit-scaffold generates a new operator project built on opkit,
// ready to test, build and deploy:
//
//	go run github.com/opkit-dev/opkit/scaffold/cmd/opkit-scaffold@latest new \
//		--type product --name zookeeper-operator --module example.com/zookeeper-operator \
//		--group zookeeper.example.com --kind ZookeeperCluster
//
// --type product makes an operator of role groups on opkit's product
// reconciler; --type component one that renders Go templates on opkit's
// component reconciler. Run it with --help for every flag. Every value it
// refuses is reported at once, naming the flag and the rule.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	switch {
	case errors.Is(err, flag.ErrHelp):
	case err != nil:
		report(os.Stderr, err)
		os.Exit(2)
	}
}

// report writes err to w, one line per joined error.
func report(w io.Writer, err error) {
	var joined interface{ Unwrap() []error }
	if errors.As(err, &joined) {
		fmt.Fprintln(w, "opkit-scaffold: nothing was written:")
		for _, e := range joined.Unwrap() {
			fmt.Fprintln(w, "  "+e.Error())
		}
		return
	}
	fmt.Fprintln(w, "opkit-scaffold:", err)
}
