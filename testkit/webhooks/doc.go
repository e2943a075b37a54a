// Package webhooks lets a test's control plane call admission webhooks the
// test serves: a controller-runtime webhook server on a free local port
// with a fresh serving certificate, and the test's webhook configurations
// installed against it, scoped to the test's namespace, removed at cleanup.
//
//	srv := webhooks.New(t)
//	mgr, _ := ctrl.NewManager(cp.RESTConfig(), ctrl.Options{WebhookServer: srv, …})
//	// register handlers on mgr (or srv.Register), start mgr
//	srv.Install(t, cp.Client, ns, mutating, validating)
//	// from here on the API server calls the handlers for objects in ns
//
// Install points every webhook at the server (the path of its Service
// reference or URL is kept), adds the server's CA bundle, restricts it to
// the namespace and suffixes the configuration's name with it, so tests
// sharing a control plane never see each other's webhooks. It returns only
// once the API server demonstrably calls the server for each
// configuration: a probe webhook added to each answers a marked dry-run
// ConfigMap with a denial Install waits for.
package webhooks
