package reconciler

import (
	"context"
	"sync"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure/apierr"
	"github.com/opkit-dev/opkit/sidecar"
	"github.com/opkit-dev/opkit/vector"
)

// discoverAggregator reads the aggregator discovery ConfigMap the spec
// names, if any. Its data is read only when its resourceVersion (from the
// dependency cache, which watches it) moved since the last read, so a
// no-op pass costs no request.
func (r *Reconciler[CR]) discoverAggregator(ctx context.Context, p *pass, cr CR) LogAgent {
	name := cr.GetClusterSpec().VectorAggregatorConfigMapName
	if name == "" {
		return LogAgent{}
	}
	req := vector.AggregatorRequirement(r.clusterScope(cr), name)
	key := client.ObjectKey{Namespace: req.Namespace, Name: req.Name}
	meta := &metav1.PartialObjectMetadata{}
	meta.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("ConfigMap"))
	if err := r.dependencyReader().Get(ctx, key, meta); err != nil {
		if isNotFound(err) {
			_, err = vector.AggregatorAddress(req, nil)
			return LogAgent{Err: err}
		}
		return LogAgent{Err: apierr.Classify(err)}
	}
	if a, ok := r.vectorMemo.get(key, meta.ResourceVersion); ok {
		return a
	}
	cm := &corev1.ConfigMap{}
	if err := r.apiReader.Get(ctx, key, cm); err != nil {
		if isNotFound(err) {
			cm = nil
		} else {
			return LogAgent{Err: apierr.Classify(err)}
		}
	}
	addr, err := vector.AggregatorAddress(req, cm)
	a := LogAgent{Address: addr, Err: err}
	if cm != nil {
		r.vectorMemo.put(key, cm.ResourceVersion, a)
	}
	p.log.V(1).Info("read the Vector aggregator discovery ConfigMap", "configMap", name, "address", addr)
	return a
}

// decideVector applies the gate for a role group: whether its pods run the
// agent, whether the framework renders vector.yaml into the group's
// ConfigMap (then the aggregator must be known), and, when the user asked
// for an agent they cannot have, why. It returns the agent's provider for
// the build's sidecar plan (nil for none) and the rendered vector.yaml
// ("" when the framework renders none).
func decideVector(bc *BuildContext, agent LogAgent) (prov sidecar.Provider, skipped, config string, err error) {
	var logging *commonsv1alpha1.LoggingSpec
	if bc.Config.Config != nil {
		logging = bc.Config.Config.Logging
	}
	d := vector.Decide(vector.GateInput{
		AggregatorConfigMap: bc.ClusterSpec.VectorAggregatorConfigMapName,
		OwnsVectorConfig:    bc.Declaration.OwnsVectorConfig,
		Producers:           bc.Declaration.LogProducers,
		Logging:             logging,
	})
	if agent.Unknown {
		return nil, "", "", nil
	}
	if d.Warn {
		skipped = d.Reason
	}
	if !d.Inject {
		return nil, skipped, "", nil
	}
	if d.Render {
		if agent.Err != nil {
			return nil, "", "", agent.Err
		}
		if config, err = vector.RenderConfig(vector.ConfigOptions{Producers: bc.Declaration.LogProducers, Aggregator: agent.Address, Scope: bc.Scope}); err != nil {
			return nil, "", "", err
		}
	}
	p, err := vector.NewProvider(vector.ProviderOptions{Producers: bc.Declaration.LogProducers})
	if err != nil {
		return nil, "", "", err
	}
	return p, "", config, nil
}

// addressMemo remembers discovery outcomes by ConfigMap and version. It
// holds one entry per discovery ConfigMap, so it stays as small as the
// number of aggregators the clusters name.
type addressMemo struct {
	mu sync.Mutex
	m  map[client.ObjectKey]memoEntry
}

type memoEntry struct {
	version string
	value   LogAgent
}

func newAddressMemo() *addressMemo { return &addressMemo{m: map[client.ObjectKey]memoEntry{}} }

func (m *addressMemo) get(key client.ObjectKey, version string) (LogAgent, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.m[key]
	return e.value, ok && e.version == version
}

func (m *addressMemo) put(key client.ObjectKey, version string, a LogAgent) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.m[key] = memoEntry{version: version, value: a}
}
