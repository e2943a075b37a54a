package shard

import (
	"context"
	"fmt"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
)

// Renew creates the member's Lease on first use (taking over one left by an
// earlier process of the same name) and renews it after. It returns a
// *LostError when the member had joined and its Lease was since deleted or
// taken (the other members have counted it as gone), or was written by
// another process running under the same member name.
func (m *Member) Renew(ctx context.Context) error {
	m.renewMu.Lock()
	defer m.renewMu.Unlock()
	joined := m.held()
	sent := m.opts.Clock.Now()
	current := &coordinationv1.Lease{}
	err := m.reader.Get(ctx, client.ObjectKey{Namespace: m.opts.Namespace, Name: m.opts.Member}, current)
	switch {
	case apierrors.IsNotFound(err) && joined != nil:
		m.hold(nil, sent)
		return &LostError{Member: m.opts.Member, Reason: "its Lease was deleted by another member"}
	case apierrors.IsNotFound(err):
		return m.create(ctx, sent)
	case err != nil:
		return fmt.Errorf("reading the lease of member %q: %w", m.opts.Member, err)
	}
	if joined != nil && current.UID != joined.UID {
		m.hold(nil, sent)
		return &LostError{Member: m.opts.Member, Reason: "its Lease was replaced"}
	}
	if joined != nil && current.ResourceVersion != joined.ResourceVersion && !m.wrote(current) {
		// Nobody but the member writes its Lease (the others delete it):
		// another process runs under the same member name.
		m.hold(nil, sent)
		return &LostError{Member: m.opts.Member, Reason: "its Lease was renewed by another process of the same name"}
	}
	joining := joined == nil
	current.Spec.HolderIdentity = ptr.To(m.opts.Member)
	current.Spec.LeaseDurationSeconds = ptr.To(int32(m.opts.LeaseDuration.Seconds()))
	current.Spec.RenewTime = &metav1.MicroTime{Time: sent}
	if joining {
		current.Spec.AcquireTime = &metav1.MicroTime{Time: sent}
	}
	metav1.SetMetaDataLabel(&current.ObjectMeta, commonsv1alpha1.LabelShardRing, m.opts.Ring)
	m.lastSent = sent
	if err := m.client.Update(ctx, current); err != nil {
		if apierrors.IsNotFound(err) && !joining {
			m.hold(nil, sent)
			return &LostError{Member: m.opts.Member, Reason: "its Lease was deleted by another member"}
		}
		return fmt.Errorf("renewing the lease of member %q: %w", m.opts.Member, err)
	}
	m.hold(current, sent)
	return nil
}

func (m *Member) create(ctx context.Context, sent time.Time) error {
	lease := &coordinationv1.Lease{
		ObjectMeta: metav1.ObjectMeta{
			Namespace: m.opts.Namespace,
			Name:      m.opts.Member,
			Labels:    map[string]string{commonsv1alpha1.LabelShardRing: m.opts.Ring},
		},
		Spec: coordinationv1.LeaseSpec{
			HolderIdentity:       ptr.To(m.opts.Member),
			LeaseDurationSeconds: ptr.To(int32(m.opts.LeaseDuration.Seconds())),
			AcquireTime:          &metav1.MicroTime{Time: sent},
			RenewTime:            &metav1.MicroTime{Time: sent},
		},
	}
	if err := m.client.Create(ctx, lease); err != nil {
		return fmt.Errorf("creating the lease of member %q: %w", m.opts.Member, err)
	}
	m.hold(lease, sent)
	return nil
}

// wrote reports whether the Lease's renew time is the one this member sent
// last: a renewal that reached the server although its answer was lost.
func (m *Member) wrote(l *coordinationv1.Lease) bool {
	// The server keeps microseconds.
	return l.Spec.RenewTime != nil && l.Spec.RenewTime.Time.Equal(m.lastSent.Truncate(time.Microsecond))
}

// held returns the Lease last written, nil when the member holds none.
func (m *Member) held() *coordinationv1.Lease {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.lease
}

// hold records the Lease written by a renewal sent at sent; nil records
// that the member holds none.
func (m *Member) hold(lease *coordinationv1.Lease, sent time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.lease = lease
	if lease != nil {
		m.renewedAt = sent
	}
}

// Release leaves the ring: it deletes the member's Lease, so the other
// members take its resources at once instead of after the lease expires.
// Call it only once the replica's passes have stopped (after the manager's
// Start returned); Owns refuses every pass from the call on.
func (m *Member) Release(ctx context.Context) error {
	m.renewMu.Lock()
	defer m.renewMu.Unlock()
	lease := m.held()
	if lease == nil {
		return nil
	}
	m.hold(nil, time.Time{})
	err := m.client.Delete(ctx, lease, client.Preconditions{UID: &lease.UID, ResourceVersion: &lease.ResourceVersion})
	if err != nil && !apierrors.IsNotFound(err) && !apierrors.IsConflict(err) {
		return fmt.Errorf("releasing the lease of member %q: %w", m.opts.Member, err)
	}
	return nil
}
