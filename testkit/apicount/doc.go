// Package apicount counts the requests a client sends to the Kubernetes API,
// by verb and resource, so a test or benchmark can state exactly what a
// reconcile pass cost: "0 writes and 3 reads".
//
//	counter := apicount.New()
//	cfg := cp.RESTConfig()
//	cfg.Wrap(counter.WrapTransport)
//	... build clients from cfg ...
//	before := counter.Snapshot()
//	reconcileOnce(ctx)
//	delta := counter.Snapshot().Sub(before)
//	fmt.Println(delta.Writes(), delta.Reads()) // 0 3
//
// Requests are counted as they leave the client, retries included, so the
// figures are what the API server received.
//
// A Log keeps every request and its answer in order (a 403 with the
// Status the server sent); a WriteLog keeps only the writes, each with its
// dryRun setting and the object the server answered, so that a test can
// prove a dry run wrote nothing and compare what was planned with what a
// later real write stored.
package apicount
