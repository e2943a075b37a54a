package apply

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"
)

// readLive reads the live object of d through the client, nil when there
// is none, and settles what a client that lags behind the engine's own
// writes (a cache whose informer has not seen them yet) would get wrong;
// see known.go:
//
//   - the client does not show an object the engine wrote: it is read
//     through the reader, so that a create the cache has not seen is not
//     made again;
//   - the client shows an object older than the engine's last write of it:
//     when that write holds the desired state, lagging is set and the
//     object is not to be acted on; otherwise (the desired state changed
//     since) it is read through the reader, so the update starts from the
//     version it replaces.
func (p *pass) readLive(ctx context.Context, d *desired) (live client.Object, lagging bool, err error) {
	r := p.r
	live, err = r.getWith(ctx, r.client, d.ref, metadataOnly(d.gvk.GroupKind(), d.settings.hint))
	if err != nil {
		return nil, false, err
	}
	v, wrote := r.known.get(d.key)
	switch {
	case !wrote:
		return live, false, nil
	case live == nil && r.separateReader:
		if live, err = r.getWith(ctx, r.reader, d.ref, false); err == nil && live == nil {
			r.known.drop(d.key)
		}
		return live, false, err
	case live == nil:
		return nil, false, nil
	case v.uid == live.GetUID() && v.newerThan(live):
		if v.digest == d.digest {
			p.log.V(1).Info("the cache has not seen the last write yet; waiting for it", "object", d.ref.String(),
				"cached", live.GetResourceVersion(), "written", v.resourceVersion)
			return live, true, nil
		}
		if r.separateReader {
			live, err = r.getWith(ctx, r.reader, d.ref, false)
		}
		return live, false, err
	}
	r.known.observed(d.key, live)
	return live, false, nil
}
