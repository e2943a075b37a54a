// Package samples holds the example website operator's sample resources,
// embedded so the demo applies exactly what the README shows.
package samples

import "embed"

// Files holds website.yaml (the Website) and dependencies.yaml (the Secret
// it refers to).
//
//go:embed *.yaml
var Files embed.FS
