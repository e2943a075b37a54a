// Command kwok-stages writes the kwok stages the test control plane uses to
// standard output, as one multi-document YAML stream: the "fast" node and pod
// stages and the node lease heartbeat. kwok embeds them in its Go packages, so
// they always match the kwok version this module pins.
package main
