package inventory

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
)

// PackAbove is the size of the plain JSON form of the items above which an
// inventory is written packed (gzip-compressed). Below it the items stay
// readable in the status; above it a status stays well within the API
// server's request limit (about 1.5 MiB) up to tens of thousands of objects.
const PackAbove = 128 << 10

// inventoryJSON is Inventory without its methods.
type inventoryJSON struct {
	Items  []Item `json:"items,omitempty"`
	Packed []byte `json:"z,omitempty"`
}

// MarshalJSON writes the items plainly, or packed when their plain form
// exceeds PackAbove bytes.
func (inv Inventory) MarshalJSON() ([]byte, error) {
	if len(inv.Items) == 0 {
		return json.Marshal(inventoryJSON{Packed: inv.Packed})
	}
	plain, err := json.Marshal(inv.Items)
	if err != nil {
		return nil, fmt.Errorf("encoding inventory items: %w", err)
	}
	if len(plain) <= PackAbove {
		return append(append([]byte(`{"items":`), plain...), '}'), nil
	}
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(plain); err != nil {
		return nil, fmt.Errorf("packing inventory: %w", err)
	}
	if err := zw.Close(); err != nil {
		return nil, fmt.Errorf("packing inventory: %w", err)
	}
	return json.Marshal(inventoryJSON{Packed: buf.Bytes()})
}

// UnmarshalJSON reads either form; packed items are unpacked into Items.
func (inv *Inventory) UnmarshalJSON(b []byte) error {
	var raw inventoryJSON
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	inv.Items, inv.Packed = raw.Items, nil
	if len(raw.Packed) == 0 {
		return nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw.Packed))
	if err != nil {
		return fmt.Errorf("unpacking inventory: %w", err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil {
		return fmt.Errorf("unpacking inventory: %w", err)
	}
	var items []Item
	if err := json.Unmarshal(plain, &items); err != nil {
		return fmt.Errorf("decoding packed inventory items: %w", err)
	}
	inv.Items = append(inv.Items, items...)
	return nil
}
