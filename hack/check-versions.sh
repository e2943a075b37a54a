#!/usr/bin/env bash
# Fails when testkit's default assets directory would not be where
# hack/k8s-assets builds the binaries: both follow the k8s.io/kubernetes
# version pinned in hack/k8s-assets/go.mod.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

pinned="$(cd hack/k8s-assets && GOWORK=off go list -m -f '{{.Version}}' k8s.io/kubernetes)"
declared="$(sed -n 's/^const AssetsVersion = "\(.*\)"$/\1/p' testkit/controlplane/assets.go)"
if [[ "$pinned" != "$declared" ]]; then
	echo "check-versions: hack/k8s-assets pins k8s.io/kubernetes $pinned but testkit/controlplane.AssetsVersion is $declared" >&2
	exit 1
fi
