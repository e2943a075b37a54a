// Command etcd is the etcd server, built from go.etcd.io/etcd/server/v3 at
// the version this module pins, so the test control plane needs no download
// outside the Go module proxy.
package main
