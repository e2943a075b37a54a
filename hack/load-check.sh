#!/usr/bin/env bash
# Runs the README's test command with every core busy, to show that the
# tests assert behaviour, not timing. Usage:
#   hack/load-check.sh [runs]     (default 3)
#
# It starts one CPU burner per core (a busy shell loop at normal priority),
# runs `make test` the given number of times in a row, stops the burners
# however it ends, and prints each run's time. It fails at the first run
# that fails.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

runs="${1:-3}"
cores="$(getconf _NPROCESSORS_ONLN)"

burners=()
stop_burners() {
	((${#burners[@]})) && kill "${burners[@]}" 2>/dev/null || true
}
trap stop_burners EXIT
for ((i = 0; i < cores; i++)); do
	bash -c 'while :; do :; done' &
	burners+=($!)
done
echo "load-check: ${#burners[@]} CPU burners on $cores cores; make test ${runs} times"

times=()
for ((run = 1; run <= runs; run++)); do
	began=$SECONDS
	echo "load-check: run $run of $runs"
	if ! make test; then
		echo "load-check: run $run FAILED after $((SECONDS - began))s under load"
		exit 1
	fi
	times+=("run $run: $((SECONDS - began))s")
done
echo "load-check: $runs of $runs runs passed under load on $cores cores: ${times[*]}"
