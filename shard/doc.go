// Package shard spreads an operator's resources over its replicas, so that
// each replica reconciles, and caches, only its share, and moves a resource
// between replicas only through a handover that never lets two of them
// reconcile it at once.
//
// Each replica is a Member of a ring. It keeps a coordination.k8s.io Lease
// named after it and renewed by it; a member is live while the others see
// its Lease change within the lease duration, and gone only once it deleted
// its Lease or they saw it unchanged for the duration plus a margin. The
// live members (and the expired ones, until gone) form a consistent-hash
// Ring with virtual nodes, which gives every resource one owner.
//
// The owner is written on the resource, in a label the members write
// themselves. A member claims the unowned resources its ring gives it and
// asks the owners of the others for them with a drain label; the owner
// acknowledges at the start of its next pass by removing both labels, and
// only then is the resource claimed. A gone member's Lease is deleted on
// condition it did not change before its resources are claimed. Every
// change is conditioned on the version read.
//
//	member, err := shard.New(direct, direct, shard.Options{
//		Ring: "kafka-operator", Member: podName, Namespace: podNamespace,
//		Resources: []schema.GroupVersionKind{kafkaGVK},
//	})
//	mgr, err := ctrl.NewManager(cfg, ctrl.Options{Cache: cache.Options{
//		ByObject: member.CacheByObject(&kafkav1.KafkaCluster{}, &appsv1.StatefulSet{}),
//	}})
//	_ = mgr.Add(member)
//	// in the reconciler, first thing in every pass:
//	if owns, err := member.Owns(ctx, kc); !owns || err != nil {
//		return reconcile.Result{}, err
//	}
//	ctx, cancel := member.WithLease(ctx) // ends if the replica stops being live
//	defer cancel()
//	// ... every object the pass writes carries member.ObjectLabels()
//	// after mgr.Start returned:
//	_ = member.Release(context.Background())
//
// Everything that depends on time goes through an injected
// k8s.io/utils/clock, so tests move a fake clock instead of waiting.
package shard
