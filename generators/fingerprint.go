package generators

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strconv"
)

// Fingerprinter is implemented by a generator whose output depends on
// sources that can change while a component's inputs do not: a chart or
// manifests built into the operator. Fingerprint identifies those
// sources; a reconciler that renders a component only when its inputs
// change counts the fingerprint among them, so that an operator upgraded
// with a new chart renders again. Generators of this module implement it.
type Fingerprinter interface {
	Fingerprint() string
}

// FingerprintOf returns g's fingerprint, "" when g has none.
func FingerprintOf(g Generator) string {
	if f, ok := g.(Fingerprinter); ok {
		return f.Fingerprint()
	}
	return ""
}

// SourceFile is one file of a generator's sources, for FingerprintFiles.
type SourceFile struct {
	Path string
	Data []byte
}

// FingerprintFiles hashes files (paths and contents, in path order) into a
// fingerprint.
func FingerprintFiles(files []SourceFile) string {
	sorted := slices.Clone(files)
	slices.SortFunc(sorted, func(a, b SourceFile) int {
		switch {
		case a.Path < b.Path:
			return -1
		case a.Path > b.Path:
			return 1
		}
		return 0
	})
	h := sha256.New()
	for _, f := range sorted {
		h.Write([]byte(strconv.Itoa(len(f.Path)) + ":" + f.Path + strconv.Itoa(len(f.Data)) + ":"))
		h.Write(f.Data)
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// concatenated is what Concat returns: a generator that is also a
// Fingerprinter when its parts have fingerprints.
type concatenated struct {
	GeneratorFunc
	parts []Generator
}

// Fingerprint combines the fingerprints of the parts, in order.
func (c concatenated) Fingerprint() string {
	files := make([]SourceFile, 0, len(c.parts))
	for i, g := range c.parts {
		files = append(files, SourceFile{Path: strconv.Itoa(i), Data: []byte(FingerprintOf(g))})
	}
	return FingerprintFiles(files)
}
