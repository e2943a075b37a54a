#!/usr/bin/env bash
# Runs every fuzz target of one module briefly (FUZZTIME, default 5s each),
# beyond the seed corpora that its tests run; make fuzz runs it for every
# module, and CI runs make fuzz. go test -fuzz instruments every package it
# builds, the Kubernetes libraries included, so the first fuzz build
# compiles them once more (about 270 s on two idle cores): that is why
# make test does not fuzz. Usage:
#   hack/fuzz-brief.sh <module-dir>
set -euo pipefail
module="$1"
fuzztime="${FUZZTIME:-5s}"
cd "$(dirname "${BASH_SOURCE[0]}")/../$module"

status=0
while IFS= read -r file; do
	pkg="./$(dirname "$file")"
	for target in $(sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*/\1/p' "$file"); do
		echo "fuzz $module/$pkg $target ($fuzztime)"
		if ! GOWORK=off go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" "$pkg"; then
			status=1
		fi
	done
done < <(grep -rl --include='*_test.go' '^func Fuzz' . | sed 's#^\./##' | sort)
exit $status
