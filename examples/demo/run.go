package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"golang.org/x/term"
	corev1 "k8s.io/api/core/v1"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	websitev1alpha1 "github.com/opkit-dev/opkit/examples/website/api/v1alpha1"
)

// run starts everything, plays the script, prints the summary and, on
// failure, what the cluster resource says.
func run(ctx context.Context, opts options) error {
	began := time.Now()
	live := !opts.plain && term.IsTerminal(int(os.Stdout.Fd()))
	logPath := filepath.Join(os.TempDir(), fmt.Sprintf("opkit-demo-%d.log", os.Getpid()))
	logs, err := os.Create(logPath)
	if err != nil {
		return err
	}
	defer logs.Close() //nolint:errcheck // the operators' log, for reading after a failure: a failed close has no one to tell

	fmt.Println("opkit demo: starting etcd, kube-apiserver, kube-controller-manager, kube-scheduler and kwok nodes …")
	e, stop, err := start(ctx, logs)
	if err != nil {
		return err
	}
	defer func() {
		if err := stop(); err != nil {
			fmt.Fprintln(os.Stderr, "stopping:", err)
		}
	}()
	fmt.Printf("control plane up in %s; operator logs: %s\n", time.Since(began).Round(100*time.Millisecond), logPath)

	vctx, cancelView := context.WithCancel(ctx)
	v := newView(os.Stdout, live, e.panel)
	go v.run(vctx)
	d := &demo{env: e, view: v}
	steps := slices.Concat(kafkaSteps(), websiteSteps(), []step{
		{"delete the KafkaCluster: garbage collection removes its objects", deleteKafka},
		{"delete the Website: its objects go in delete waves", deleteWebsite},
	})
	results := d.play(ctx, steps)
	cancelView()
	if live {
		v.draw(ctx)
	}
	summary(os.Stdout, results, time.Since(began))

	err = nil
	if failed := results[len(results)-1]; failed.err != nil {
		explain(ctx, e, failed)
		err = fmt.Errorf("step %q: %w", failed.name, failed.err)
	} else if len(results) != len(steps) {
		err = fmt.Errorf("only %d of %d steps ran", len(results), len(steps))
	} else {
		fmt.Println("\nevery step reached its condition")
	}
	if opts.keep {
		fmt.Printf("\nthe control plane keeps running (logs in %s):\n  kubectl --kubeconfig %s get kafkaclusters,websites,statefulsets,pods -n %s\npress Ctrl-C to stop it\n",
			e.cp.LogDir, e.cp.KubeconfigPath, demoNamespace)
		<-ctx.Done()
	}
	return err
}

// explain prints the cluster resource's conditions and recent events.
func explain(ctx context.Context, e *env, o outcome) {
	fmt.Printf("\nstep %q did not reach its condition: %v\n", o.name, o.err)
	d := &demo{env: e}
	if k := d.kafka(ctx); k != nil {
		fmt.Println("KafkaCluster conditions:")
		for _, typ := range commonsv1alpha1.ConditionTypes() {
			for _, c := range k.Status.Conditions {
				if c.Type == typ {
					fmt.Printf("  %-22s %-6s %-16s %s\n", c.Type, c.Status, c.Reason, c.Message)
				}
			}
		}
	}
	w := &websitev1alpha1.Website{}
	if err := e.client.Get(ctx, websiteKey(), w); err == nil {
		st := w.Status.Status
		fmt.Printf("Website: state %s, revision %d\n", st.State, st.Revision)
		for _, c := range st.Conditions {
			fmt.Printf("  %-22s %-6s %-16s %s\n", c.Type, c.Status, c.Reason, c.Message)
		}
	}
	fmt.Println("recent events:")
	for _, l := range recentEvents(ctx, e.client, e.ns, 15) {
		fmt.Println("  " + l)
	}
	nodes := &corev1.NodeList{}
	if err := e.client.List(ctx, nodes); err == nil {
		for _, n := range nodes.Items {
			for _, c := range n.Status.Conditions {
				if c.Type == corev1.NodeReady {
					fmt.Printf("node %s Ready=%s %s\n", n.Name, c.Status, c.Message)
				}
			}
		}
	}
}
