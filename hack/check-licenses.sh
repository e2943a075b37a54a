#!/usr/bin/env bash
# Fails when the repository root has no LICENSE, or when a released module
# (hack/modules.sh --release) has no LICENSE identical to the root's. A
# module's zip holds only its own directory, so a nested module without its
# own copy is published without a license, and the Go package index then
# shows none of its documentation.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [[ ! -s LICENSE ]]; then
	echo "check-licenses: the repository root has no LICENSE" >&2
	exit 1
fi
status=0
for m in $(hack/modules.sh --release); do
	if [[ ! -f "$m/LICENSE" ]]; then
		echo "check-licenses: released module $m has no LICENSE (cp LICENSE $m/)" >&2
		status=1
	elif ! cmp -s LICENSE "$m/LICENSE"; then
		echo "check-licenses: $m/LICENSE differs from the root's LICENSE (cp LICENSE $m/)" >&2
		status=1
	fi
done
exit $status
