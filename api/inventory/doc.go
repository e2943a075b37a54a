// Package inventory holds the record an object engine keeps of the objects
// it manages for one owner: what each object is, how it was last written
// and where it is in its life cycle. The record is plain data meant to live
// in the status of a custom resource:
//
//	type ShopStatus struct {
//		// Inventory lists the objects the operator manages for this shop.
//		// +optional
//		Inventory inventory.Inventory `json:"inventory,omitempty"`
//	}
//
// The JSON form is compact (short keys, defaults omitted, about 100 bytes
// per object), and an inventory too large to stay readable is written
// gzip-compressed, so that tens of thousands of objects still fit in one
// status. Lookups go through an Index built once per pass.
//
// +kubebuilder:object:generate=true
package inventory

//go:generate ../../hack/controller-gen.sh object paths=./...
