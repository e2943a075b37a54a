package shard

import (
	"slices"
	"strings"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
)

// View is what one member knows of the ring at one moment, each list sorted.
// It is built from the members' Leases and from when this member last saw
// each of them change, never from the clocks of the members that wrote them.
type View struct {
	// Live members renewed their Lease within its duration.
	Live []string
	// Expired members have not been seen renewing for longer than their
	// lease duration, but not yet for the margin beyond it. They keep their
	// resources and their place on the ring: a short pause moves nothing.
	Expired []string
	// Gone members are certainly not working: they released their Lease
	// or were not seen renewing for their lease duration plus the margin.
	// Their Leases are deleted (with a precondition on the version seen)
	// before anyone takes their resources.
	Gone []LeaseRef
}

// LeaseRef names one version of a member's Lease.
type LeaseRef struct {
	// Name is the Lease's and the member's name.
	Name string
	// ResourceVersion is the version last seen.
	ResourceVersion string
}

// RingMembers returns the members that hold a place on the ring: the live
// and the expired ones, sorted.
func (v View) RingMembers() []string {
	members := append(slices.Clone(v.Live), v.Expired...)
	slices.Sort(members)
	return members
}

// sighting records when a member first saw a version of another's Lease.
type sighting struct {
	version string
	seenAt  time.Time
}

// observer turns successive lists of Leases into Views. It measures each
// Lease's age from the moment it saw the Lease's current version, so a
// member that starts late, or whose clock runs differently, waits a whole
// lease duration before it counts a silent member as expired.
type observer struct {
	defaultDuration time.Duration
	margin          time.Duration
	seen            map[string]sighting
}

// observe returns the view at now given the ring's Leases. self is the
// observing member; it is live when selfLive, and left out otherwise.
func (o *observer) observe(leases []coordinationv1.Lease, now time.Time, self string, selfLive bool) View {
	var v View
	seen := make(map[string]sighting, len(leases))
	for i := range leases {
		l := &leases[i]
		if l.Name == self {
			if selfLive {
				v.Live = append(v.Live, self)
			}
			continue
		}
		s, ok := o.seen[l.Name]
		if !ok || s.version != l.ResourceVersion {
			s = sighting{version: l.ResourceVersion, seenAt: now}
		}
		seen[l.Name] = s
		holder := l.Spec.HolderIdentity
		if holder == nil || *holder != l.Name {
			// Released, or written by something that is not the member:
			// nobody works under this Lease.
			v.Gone = append(v.Gone, LeaseRef{Name: l.Name, ResourceVersion: l.ResourceVersion})
			continue
		}
		duration := o.defaultDuration
		if d := l.Spec.LeaseDurationSeconds; d != nil && *d > 0 {
			duration = time.Duration(*d) * time.Second
		}
		switch age := now.Sub(s.seenAt); {
		case age < duration:
			v.Live = append(v.Live, l.Name)
		case age < duration+o.margin:
			v.Expired = append(v.Expired, l.Name)
		default:
			v.Gone = append(v.Gone, LeaseRef{Name: l.Name, ResourceVersion: l.ResourceVersion})
		}
	}
	o.seen = seen
	slices.Sort(v.Live)
	slices.Sort(v.Expired)
	slices.SortFunc(v.Gone, func(a, b LeaseRef) int { return strings.Compare(a.Name, b.Name) })
	return v
}
