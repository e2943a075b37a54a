#!/usr/bin/env bash
# Runs the README's test command with every core busy, to show that the
# tests assert behaviour, not timing. Usage:
#   hack/load-check.sh [runs]     (default 3)
#
# It runs `make test` the given number of times in a row, with Go's
# test cache off (-count=1), under
# hack/busy.sh (one CPU burner per core, stopped however it ends) and
# prints each run's time. It fails at the first run that fails. (The
# script calls itself under hack/busy.sh with --runs N; that form runs
# without burners of its own.)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if (($# == 0)); then
	exec hack/busy.sh "$0" --runs 3
elif [[ "$1" != --runs ]]; then
	exec hack/busy.sh "$0" --runs "$1"
fi
runs="$2"
echo "load-check: make test ${runs} times with every core busy"

times=()
for ((run = 1; run <= runs; run++)); do
	began=$SECONDS
	echo "load-check: run $run of $runs"
	# -count=1: every test runs again; a cached result proves nothing
	# about this run's load.
	if ! make test GOTEST_FLAGS="-count=1 ${GOTEST_FLAGS:-}"; then
		echo "load-check: run $run FAILED after $((SECONDS - began))s under load"
		exit 1
	fi
	times+=("run $run: $((SECONDS - began))s")
done
echo "load-check: $runs of $runs runs passed under load on $(getconf _NPROCESSORS_ONLN) cores: ${times[*]}"
