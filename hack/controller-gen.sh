#!/usr/bin/env bash
# Runs controller-gen at the version pinned in hack/tools/go.mod; go:generate
# lines call it.
exec "$(dirname "${BASH_SOURCE[0]}")/tool.sh" controller-gen "$@"
