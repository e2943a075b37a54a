#!/usr/bin/env bash
# Fails when a module's non-test code imports a sibling module the
# architecture does not allow (hack/deps.txt), when a module in the tree has
# no line there, or when a line names no module. Production code never
# imports testkit, examples or e2e; package api/failure imports the standard
# library only.
#
# It also holds the table to the go.mod files: a module's line lists exactly
# the siblings its go.mod requires (directly or // indirect, tests included).
# A required sibling the line does not allow fails, and so does a listed
# sibling the go.mod no longer requires, so the table states the graph as it
# is rather than a looser one. Lines with "*" and nested test modules are not
# compared.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

prefix=github.com/opkit-dev/opkit/
declare -A allowed=()
while read -r mod deps; do
	[[ -z "$mod" || "$mod" == \#* ]] && continue
	allowed[$mod]="$deps"
done < hack/deps.txt

status=0
mapfile -t modules < <(hack/modules.sh)
declare -A present=()
for m in "${modules[@]}"; do present[$m]=1; done
for m in "${!allowed[@]}"; do
	if [[ -z "${present[$m]:-}" ]]; then
		echo "check-imports: hack/deps.txt names $m, which has no go.mod" >&2
		status=1
	fi
done

for m in "${modules[@]}"; do
	[[ "$m" == */servertest ]] && continue
	if [[ -z "${allowed[$m]+set}" ]]; then
		echo "check-imports: module $m has no line in hack/deps.txt" >&2
		status=1
		continue
	fi
	ok="${allowed[$m]}"
	[[ "$ok" == "*" ]] && continue
	[[ "$ok" == "-" ]] && ok=""
	required=" $(hack/modules.sh --requires "$m" | tr '\n' ' ')"
	for r in $required; do
		if [[ " $ok " != *" $r "* ]]; then
			echo "check-imports: $m/go.mod requires $r, which hack/deps.txt does not allow for $m (allowed: ${ok:-none})" >&2
			status=1
		fi
	done
	for a in $ok; do
		if [[ "$required " != *" $a "* ]]; then
			echo "check-imports: hack/deps.txt lists $a for $m, but $m/go.mod does not require it; remove it from the line" >&2
			status=1
		fi
	done
	if ! listed="$(cd "$m" && GOWORK=off go list -deps -f '{{if not .Standard}}{{.ImportPath}}{{end}}' ./...)"; then
		echo "check-imports: go list failed in module $m" >&2
		status=1
		continue
	fi
	deps="$(grep "^$prefix" <<<"$listed" || true)"
	for dep in $deps; do
		sib="${dep#"$prefix"}"
		# the longest module directory that is a prefix of the package path
		owner=""
		for cand in "${modules[@]}"; do
			if [[ "$sib" == "$cand" || "$sib" == "$cand/"* ]] && ((${#cand} > ${#owner})); then owner="$cand"; fi
		done
		[[ "$owner" == "$m" ]] && continue
		if [[ " $ok " != *" $owner "* ]]; then
			echo "check-imports: module $m imports $dep (module $owner); allowed siblings: ${ok:-none}" >&2
			status=1
		fi
	done
done

listed="$(cd api && GOWORK=off go list -deps -f '{{if not .Standard}}{{.ImportPath}}{{end}}' ./failure)"
nonstd="$(grep -v '^github.com/opkit-dev/opkit/api/failure$' <<<"$listed" || true)"
if [[ -n "$nonstd" ]]; then
	echo "check-imports: api/failure must use the standard library only; it imports: $nonstd" >&2
	status=1
fi
exit $status
