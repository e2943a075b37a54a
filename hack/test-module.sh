#!/usr/bin/env bash
# Runs one module's tests the way CI does (GOWORK=off, inside the module),
# then each of its fuzz targets briefly (hack/fuzz-brief.sh). Usage:
#   hack/test-module.sh <dir> [go test flags...]
#
# The control-plane binaries are built first only when the module's go.mod
# requires testkit, so the pure modules never wait for them. Modules whose
# code starts goroutines (RACE_MODULES, matched on the first path segment, so
# a nested test module follows its parent) run with the race detector.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

RACE_MODULES="apply orphan reconciler testkit e2e"

dir="${1:?usage: hack/test-module.sh <dir> [go test flags...]}"
shift

if hack/modules.sh --requires "$dir" | grep -qx testkit || [[ "$dir" == testkit ]]; then
	hack/k8s-assets/build.sh
fi

flags=("$@")
if [[ " $RACE_MODULES " == *" ${dir%%/*} "* ]]; then
	flags=(-race "${flags[@]+"${flags[@]}"}")
fi

(cd "$dir" && GOWORK=off go test "${flags[@]+"${flags[@]}"}" ./...)
hack/fuzz-brief.sh "$dir"
