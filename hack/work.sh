#!/usr/bin/env bash
# Writes go.work from the module list (hack/modules.sh): every module but
# the tool modules under hack/. With --check it writes nothing and fails when
# go.work differs from what it would write.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

want="$(
	echo "go $(sed -n 's/^go //p' api/go.mod)"
	echo
	echo "use ("
	hack/modules.sh | sort | sed 's#^#\t./#'
	echo ")"
)"
if [[ "${1:-}" == "--check" ]]; then
	if [[ "$want" != "$(cat go.work)" ]]; then
		echo "go.work is out of date with the modules in the tree; run make work" >&2
		diff <(echo "$want") go.work >&2 || true
		exit 1
	fi
	exit 0
fi
echo "$want" > go.work
