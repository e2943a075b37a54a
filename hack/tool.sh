#!/usr/bin/env bash
# Runs a tool pinned in hack/tools/go.mod (a `tool` directive there), in the
# current directory, with the given arguments:
#   hack/tool.sh controller-gen object paths=./...
#   hack/tool.sh golangci-lint run ./...
# The tools live in their own module so that no library module's go.mod
# carries their dependencies.
set -euo pipefail
tools="$(cd "$(dirname "${BASH_SOURCE[0]}")/tools" && pwd)"
name="$1"
shift
bin="$(GOWORK=off go tool -C "$tools" -n "$name")"
exec "$bin" "$@"
