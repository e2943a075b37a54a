#!/usr/bin/env bash
# Runs controller-gen at the version pinned in hack/tools/go.mod, in the
# current directory, with the given arguments. go:generate lines call it so
# that no module's go.mod carries the generator's dependencies.
set -euo pipefail
tools="$(cd "$(dirname "${BASH_SOURCE[0]}")/tools" && pwd)"
bin="$tools/bin/controller-gen"
(cd "$tools" && GOWORK=off go build -o "$bin" sigs.k8s.io/controller-tools/cmd/controller-gen)
exec "$bin" "$@"
