// Package podview keeps in memory the pods of the buckets a sharded
// replica owns. A replica's managed objects carry its owner label and its
// cache selects them by it; pods cannot (their template would change at
// every move and roll them), so they carry their resource's bucket instead,
// fixed for the resource's life, and the replica caches the pods of the
// buckets its ring gives it. When the ring changes, the view builds a cache
// for the new buckets, waits for it to fill, and only then drops the old
// one; a pod of a bucket the view does not hold yet is read from the API
// server.
package podview
