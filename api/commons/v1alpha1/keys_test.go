package v1alpha1_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
)

func TestReservedLabelKeysAreTheSortedSlotMarkers(t *testing.T) {
	want := []string{
		v1alpha1.LabelMetricsService,
		v1alpha1.LabelRolePodDisruptionBudget,
		v1alpha1.LabelRoleGroupPodDisruptionBudget,
	}
	slices.Sort(want)
	if diff := cmp.Diff(want, v1alpha1.ReservedLabelKeys()); diff != "" {
		t.Errorf("ReservedLabelKeys (-want +got):\n%s", diff)
	}
}

func TestReservedLabelKeysReturnsAFreshSlice(t *testing.T) {
	keys := v1alpha1.ReservedLabelKeys()
	keys[0] = "changed"
	if v1alpha1.ReservedLabelKeys()[0] == "changed" {
		t.Error("a caller's change to the returned slice leaked into the next call")
	}
}

func TestKeysAreQualifiedNames(t *testing.T) {
	keys := map[string]string{
		"LabelName":                         v1alpha1.LabelName,
		"LabelInstance":                     v1alpha1.LabelInstance,
		"LabelVersion":                      v1alpha1.LabelVersion,
		"LabelComponent":                    v1alpha1.LabelComponent,
		"LabelRoleGroup":                    v1alpha1.LabelRoleGroup,
		"LabelManagedBy":                    v1alpha1.LabelManagedBy,
		"LabelMetricsService":               v1alpha1.LabelMetricsService,
		"LabelRolePodDisruptionBudget":      v1alpha1.LabelRolePodDisruptionBudget,
		"LabelRoleGroupPodDisruptionBudget": v1alpha1.LabelRoleGroupPodDisruptionBudget,
		"AnnotationPendingDeletion":         v1alpha1.AnnotationPendingDeletion,
		"AnnotationDrainStarted":            v1alpha1.AnnotationDrainStarted,
		"AnnotationDeletePVCs":              v1alpha1.AnnotationDeletePVCs,
		"LabelShardRing":                    v1alpha1.LabelShardRing,
		"LabelShardPrefix+ring":             v1alpha1.LabelShardPrefix + "ring",
		"LabelShardDrainPrefix+ring":        v1alpha1.LabelShardDrainPrefix + "ring",
		"LabelShardBucketPrefix+ring":       v1alpha1.LabelShardBucketPrefix + "ring",
	}
	for name, key := range keys {
		t.Run(name, func(t *testing.T) {
			if errs := validation.IsQualifiedName(key); len(errs) > 0 {
				t.Errorf("%s = %q is not a legal label or annotation key: %v", name, key, errs)
			}
		})
	}
}

func TestOpkitKeysUseTheOpkitDomain(t *testing.T) {
	keys := []string{
		v1alpha1.LabelMetricsService,
		v1alpha1.LabelRolePodDisruptionBudget,
		v1alpha1.LabelRoleGroupPodDisruptionBudget,
		v1alpha1.AnnotationPendingDeletion,
		v1alpha1.AnnotationDrainStarted,
		v1alpha1.AnnotationDeletePVCs,
		v1alpha1.LabelShardRing,
		v1alpha1.LabelShardPrefix,
		v1alpha1.LabelShardDrainPrefix,
	}
	for _, key := range keys {
		prefix, _, _ := strings.Cut(key, "/")
		if !strings.HasSuffix(prefix, ".opkit.dev") {
			t.Errorf("%q: prefix %q is not under opkit.dev", key, prefix)
		}
	}
}

func TestDefaultManagedByIsALegalLabelValue(t *testing.T) {
	if errs := validation.IsValidLabelValue(v1alpha1.DefaultManagedBy); len(errs) > 0 {
		t.Errorf("DefaultManagedBy %q: %v", v1alpha1.DefaultManagedBy, errs)
	}
}

func TestReservedLabelPrefixesAreSortedAndCoverTheShardLabels(t *testing.T) {
	got := v1alpha1.ReservedLabelPrefixes()
	if !slices.IsSorted(got) {
		t.Errorf("ReservedLabelPrefixes is not sorted: %v", got)
	}
	for _, key := range []string{v1alpha1.LabelShardPrefix + "ring", v1alpha1.LabelShardDrainPrefix + "ring", v1alpha1.LabelShardBucketPrefix + "ring"} {
		if !slices.ContainsFunc(got, func(p string) bool { return strings.HasPrefix(key, p) }) {
			t.Errorf("no reserved prefix covers %q: %v", key, got)
		}
	}
}
