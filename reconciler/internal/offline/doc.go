// Package offline is the cluster a reconciler renders against when there
// is no API server: the objects a file holds, kept in memory, read through
// an ordinary controller-runtime client. Reads find those objects and
// nothing else; events go nowhere.
package offline
