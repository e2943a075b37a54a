package configfold

import (
	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// foldResources folds resources per leaf: for each of cpu.min, cpu.max,
// memory.limit, storage.capacity and storage.storageClass the last layer
// stating it wins. A group (cpu, memory, storage) appears in the result only
// when one of its leaves is set: resources has a structural schema, so an
// empty group may be a pruning artifact rather than something a user meant.
// The result is nil when no leaf is set.
func foldResources(layers []layer[v1alpha1.RoleGroupConfigSpec]) *v1alpha1.ResourcesSpec {
	var (
		cpuMin, cpuMax, memLimit, capacity *resource.Quantity
		storageClass                       *string
	)
	for _, l := range layers {
		if l.spec == nil || l.spec.Resources == nil {
			continue
		}
		r := l.spec.Resources
		if r.CPU != nil {
			cpuMin = laterQuantity(cpuMin, r.CPU.Min)
			cpuMax = laterQuantity(cpuMax, r.CPU.Max)
		}
		if r.Memory != nil {
			memLimit = laterQuantity(memLimit, r.Memory.Limit)
		}
		if r.Storage != nil {
			capacity = laterQuantity(capacity, r.Storage.Capacity)
			if r.Storage.StorageClass != nil {
				storageClass = r.Storage.StorageClass
			}
		}
	}

	out := &v1alpha1.ResourcesSpec{}
	if cpuMin != nil || cpuMax != nil {
		out.CPU = &v1alpha1.CPUResource{Min: copyQuantity(cpuMin), Max: copyQuantity(cpuMax)}
	}
	if memLimit != nil {
		out.Memory = &v1alpha1.MemoryResource{Limit: copyQuantity(memLimit)}
	}
	if capacity != nil || storageClass != nil {
		out.Storage = &v1alpha1.StorageResource{Capacity: copyQuantity(capacity)}
		if storageClass != nil {
			// "" is kept: it means "never provision", not "unset".
			out.Storage.StorageClass = new(*storageClass)
		}
	}
	if out.CPU == nil && out.Memory == nil && out.Storage == nil {
		return nil
	}
	return out
}

func laterQuantity(current, next *resource.Quantity) *resource.Quantity {
	if next != nil {
		return next
	}
	return current
}

func copyQuantity(q *resource.Quantity) *resource.Quantity {
	if q == nil {
		return nil
	}
	c := q.DeepCopy()
	return &c
}
