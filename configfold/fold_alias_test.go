package configfold

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// mutateCommon changes every value reachable from c in place, through its
// pointers, maps and byte slices, so any of them shared with an input shows
// up as a change in that input.
func mutateCommon(c *v1alpha1.RoleGroupConfigSpec) {
	bump := func(q *resource.Quantity) {
		if q != nil {
			q.Add(resource.MustParse("7"))
		}
	}
	bumpLevel := func(l *v1alpha1.LogLevelSpec) {
		if l != nil && l.Level != nil {
			*l.Level += "-mutated"
		}
	}
	if r := c.Resources; r != nil {
		if r.CPU != nil {
			bump(r.CPU.Min)
			bump(r.CPU.Max)
		}
		if r.Memory != nil {
			bump(r.Memory.Limit)
		}
		if r.Storage != nil {
			bump(r.Storage.Capacity)
			if r.Storage.StorageClass != nil {
				*r.Storage.StorageClass += "-mutated"
			}
		}
	}
	if c.Affinity != nil {
		for i := range c.Affinity.Raw {
			c.Affinity.Raw[i] = '#'
		}
	}
	if l := c.Logging; l != nil {
		if l.EnableVectorAgent != nil {
			*l.EnableVectorAgent = !*l.EnableVectorAgent
		}
		for name, cl := range l.Containers {
			bumpLevel(cl.Console)
			bumpLevel(cl.File)
			for logger, lv := range cl.Loggers {
				bumpLevel(&lv)
				cl.Loggers[logger] = lv
			}
			if cl.Loggers != nil {
				cl.Loggers["mutated"] = v1alpha1.LogLevelSpec{}
			}
			l.Containers[name] = cl
		}
		if l.Containers != nil {
			l.Containers["mutated"] = v1alpha1.ContainerLoggingSpec{}
		}
	}
	if c.GracefulShutdownTimeout != nil {
		*c.GracefulShutdownTimeout += "-mutated"
	}
}

// mutateAffinity changes the typed affinity's terms in place.
func mutateAffinity(a *corev1.Affinity) {
	if a == nil {
		return
	}
	for _, terms := range [][]corev1.WeightedPodAffinityTerm{
		podAffinityTerms(a.PodAffinity), podAntiAffinityTerms(a.PodAntiAffinity),
	} {
		for i := range terms {
			terms[i].Weight++
			terms[i].PodAffinityTerm.TopologyKey += "-mutated"
			if s := terms[i].PodAffinityTerm.LabelSelector; s != nil && s.MatchLabels != nil {
				s.MatchLabels["mutated"] = "x"
			}
		}
	}
	if a.NodeAffinity != nil {
		for i := range a.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution {
			a.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution[i].Weight++
		}
	}
}

func podAffinityTerms(p *corev1.PodAffinity) []corev1.WeightedPodAffinityTerm {
	if p == nil {
		return nil
	}
	return p.PreferredDuringSchedulingIgnoredDuringExecution
}

func podAntiAffinityTerms(p *corev1.PodAntiAffinity) []corev1.WeightedPodAffinityTerm {
	if p == nil {
		return nil
	}
	return p.PreferredDuringSchedulingIgnoredDuringExecution
}

// assertFoldDoesNotAlias folds the layers, mutates the result and checks
// the layers are unchanged.
func assertFoldDoesNotAlias(t *testing.T, layers [3]*v1alpha1.RoleGroupConfigSpec) {
	t.Helper()
	var before [3]*v1alpha1.RoleGroupConfigSpec
	for i, l := range layers {
		before[i] = l.DeepCopy()
	}
	got, err := foldCommon(layers[0], layers[1], layers[2])
	if err != nil {
		return // nothing returned, nothing to alias
	}
	mutateCommon(got.Config)
	mutateAffinity(got.Affinity)
	for i := range layers {
		if diff := cmp.Diff(before[i], layers[i]); diff != "" {
			t.Fatalf("layer %d changed through the fold result (-before +after):\n%s", i, diff)
		}
	}
}

func fullLayer(lv v1alpha1.LogLevel, cpu string) *v1alpha1.RoleGroupConfigSpec {
	return &v1alpha1.RoleGroupConfigSpec{
		Resources: &v1alpha1.ResourcesSpec{
			CPU:     &v1alpha1.CPUResource{Min: qty(cpu), Max: qty(cpu)},
			Memory:  &v1alpha1.MemoryResource{Limit: qty("1Gi")},
			Storage: &v1alpha1.StorageResource{Capacity: qty("1Gi"), StorageClass: new("standard")},
		},
		Affinity: raw(hostnameAntiAffinity),
		Logging: &v1alpha1.LoggingSpec{
			EnableVectorAgent: new(true),
			Containers: map[string]v1alpha1.ContainerLoggingSpec{"server": {
				Console: level(lv), File: level(lv),
				Loggers: map[string]v1alpha1.LogLevelSpec{v1alpha1.RootLogger: *level(lv)},
			}},
		},
		GracefulShutdownTimeout: new("30s"),
	}
}

func TestFoldCommonResultSharesNothingWithItsInputs(t *testing.T) {
	tests := []struct {
		name   string
		layers [3]*v1alpha1.RoleGroupConfigSpec
	}{
		{name: "a single layer", layers: [3]*v1alpha1.RoleGroupConfigSpec{nil, nil, fullLayer(v1alpha1.LogLevelInfo, "1")}},
		{name: "three full layers", layers: [3]*v1alpha1.RoleGroupConfigSpec{
			fullLayer(v1alpha1.LogLevelInfo, "1"), fullLayer(v1alpha1.LogLevelWarn, "2"), fullLayer(v1alpha1.LogLevelDebug, "3")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Precondition: the mutation must reach every part of the result.
			folded, err := foldCommon(tt.layers[0], tt.layers[1], tt.layers[2])
			require.NoError(t, err)
			got := folded.Config
			mutated := got.DeepCopy()
			mutateCommon(mutated)
			require.NotEqual(t, got.Resources.CPU.Min.String(), mutated.Resources.CPU.Min.String())
			assertFoldDoesNotAlias(t, tt.layers)
		})
	}
}

// FuzzFoldCommonNeverAliases checks, for arbitrary layers given as JSON,
// that mutating the folded result never changes an input.
func FuzzFoldCommonNeverAliases(f *testing.F) {
	full, err := json.Marshal(fullLayer(v1alpha1.LogLevelInfo, "500m"))
	require.NoError(f, err)
	f.Add(string(full), `{"resources":{"cpu":{"max":"2"}}}`, `{"affinity":{}}`)
	f.Add(`{}`, string(full), `{"logging":{"containers":{"server":{"loggers":{"a":{"level":"WARN"}}}}}}`)
	f.Add(`{"affinity":`+bothAff+`}`, `{"affinity":`+nodeAff+`}`, `{"gracefulShutdownTimeout":"1m"}`)
	f.Add(`null`, `{"resources":{"storage":{"storageClass":""}}}`, string(full))
	f.Fuzz(func(t *testing.T, a, b, c string) {
		var layers [3]*v1alpha1.RoleGroupConfigSpec
		for i, s := range []string{a, b, c} {
			if err := json.Unmarshal([]byte(s), &layers[i]); err != nil {
				return
			}
		}
		assertFoldDoesNotAlias(t, layers)
	})
}
