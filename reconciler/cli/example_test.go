package cli_test

import (
	"context"
	"fmt"
	"os"

	"github.com/opkit-dev/opkit/reconciler"
	"github.com/opkit-dev/opkit/reconciler/cli"
)

// An operator's main runs the users' commands when its first argument
// names one, and its manager otherwise.
func Example() {
	r, err := reconciler.New(reconciler.Config[*testCluster]{Name: "test.opkit.dev", For: &testCluster{}, Roles: noRoles{}})
	if err != nil {
		fmt.Println(err)
		return
	}
	cmd := cli.ForProduct(r, cli.Options{Name: "test-operator", Scheme: scheme(), Stderr: os.Stdout})
	args := []string{"plan"} // os.Args[1:] in a main
	if cmd.Handles(args) {
		code := cmd.Run(context.Background(), args)
		fmt.Println("exit", code)
		return
	}
	// ... start the manager ...
	// Output:
	// test-operator: plan: -f is required
	// exit 2
}
