#!/usr/bin/env bash
# Runs a command with every core busy: one CPU burner per core (a busy
# shell loop at normal priority), stopped however the command ends. The
# resource-level benchmark in e2e runs once so, to show what the figures
# become on a loaded machine. Usage:
#   hack/busy.sh <command> [args...]
# e.g. (in e2e/) ../hack/busy.sh go test -run '^$' -bench 'Scale/products' -benchtime 1x .
set -euo pipefail

if (($# == 0)); then
	echo "usage: hack/busy.sh <command> [args...]" >&2
	exit 2
fi
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
echo "busy: ${#burners[@]} CPU burners on $cores cores: $*" >&2
"$@"
