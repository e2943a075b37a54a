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
package apicount
