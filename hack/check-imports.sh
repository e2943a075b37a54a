#!/usr/bin/env bash
# Fails when a module's non-test code imports a sibling module that the
# architecture does not allow (see the module table in README.md). Tests may
# import testkit; production code never imports testkit, examples or e2e.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

declare -A allowed=(
	[api]=""
	[configfold]="api"
	[imageresolve]="api"
	[builders]="api"
	[productlogging]="api"
	[sidecar]="api builders"
	[vector]="api sidecar productlogging builders"
	[orphan]="api builders"
	[apply]="api"
	[reconciler]="api configfold imageresolve builders productlogging sidecar vector orphan apply"
	[testkit]="api"
	[examples]="*"
	[e2e]="*"
)

prefix=github.com/opkit-dev/opkit/
status=0
for m in "${!allowed[@]}"; do
	ok="${allowed[$m]}"
	[[ "$ok" == "*" ]] && continue
	deps="$(cd "$m" && GOWORK=off go list -deps -f '{{if not .Standard}}{{.ImportPath}}{{end}}' ./... 2>/dev/null | grep "^$prefix" || true)"
	for dep in $deps; do
		sib="${dep#"$prefix"}"
		sib="${sib%%/*}"
		[[ "$sib" == "$m" ]] && continue
		if [[ " $ok " != *" $sib "* ]]; then
			echo "check-imports: module $m imports $dep; allowed siblings: ${ok:-none}" >&2
			status=1
		fi
	done
done
exit $status
