#!/usr/bin/env bash
# make test: every module's tests, each module on its own (hack/test-module.sh),
# reporting every failing module and failing if any did. Usage:
#   hack/test.sh [go test flags...]
#
#   TEST_JOBS   how many modules are tested at once (default: the number of
#               cores). Each module's output is printed in one piece when it
#               ends, so the outputs of modules tested at once do not mix.
#
# The control plane is built in the background from the start, while the
# modules that do not need it are tested; the modules that need etcd and
# kube-apiserver come next (each waits for that part of the build only,
# compiling its tests meanwhile), then those that need the controllers.
# Within each of these groups the modules that require the most sibling
# modules start first: they are the widest tests and the longest, and
# starting them early keeps every core busy to the end. With the binaries
# already built the build step only checks them. Each module's time and the
# total are printed at the end.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

jobs_max="${TEST_JOBS:-$(getconf _NPROCESSORS_ONLN)}"
if ! [[ "$jobs_max" =~ ^[1-9][0-9]*$ ]]; then
	echo "hack/test.sh: TEST_JOBS=$jobs_max is not a positive number" >&2
	exit 2
fi

mapfile -t modules < <(hack/modules.sh)
declare -A need
order=()
for group in none apiserver controllers; do
	ranked=()
	for m in "${modules[@]}"; do
		need[$m]="${need[$m]:-$(hack/test-module.sh --needs "$m")}"
		if [[ "${need[$m]}" == "$group" ]]; then
			ranked+=("$(hack/modules.sh --requires "$m" | wc -l) $m")
		fi
	done
	# Most sibling requirements first; ties keep hack/modules.sh's order
	# (sort -s).
	if ((${#ranked[@]})); then
		mapfile -t -O "${#order[@]}" order < <(printf '%s\n' "${ranked[@]}" | sort -s -k1,1nr | cut -d' ' -f2)
	fi
done

start=$SECONDS
build_pid=
if [[ " ${need[*]} " == *" apiserver "* || " ${need[*]} " == *" controllers "* ]]; then
	group=apiserver
	[[ " ${need[*]} " == *" controllers "* ]] && group=controllers
	hack/k8s-assets/build.sh "$group" &
	build_pid=$!
fi

logs="$(mktemp -d)"
running=() # pids of the modules under test
declare -A module_of began
trap 'kill "${running[@]}" 2>/dev/null || true; rm -rf "$logs"' EXIT

failed=()
times=()

# collect: wait for one module under test to end and print its output.
collect() {
	local pid status=0 m
	wait -n -p pid "${running[@]}" || status=$?
	m="${module_of[$pid]}"
	local still=() p
	for p in "${running[@]}"; do
		[[ "$p" != "$pid" ]] && still+=("$p")
	done
	running=("${still[@]+"${still[@]}"}")
	local took=$((SECONDS - began[$m]))
	local verdict=ok
	((status == 0)) || verdict=FAILED
	echo "=== module $m (needs: ${need[$m]}): $verdict after ${took}s"
	cat "$logs/${m//\//_}.log"
	((status == 0)) || failed+=("$m")
	times+=("$(printf '%5ds  %s' "$took" "$m")")
}

for m in "${order[@]}"; do
	while ((${#running[@]} >= jobs_max)); do
		collect
	done
	echo "=== start $m (needs: ${need[$m]}) at $((SECONDS - start))s"
	hack/test-module.sh "$m" "$@" >"$logs/${m//\//_}.log" 2>&1 &
	running+=("$!")
	module_of[$!]="$m"
	began[$m]=$SECONDS
done
while ((${#running[@]})); do
	collect
done
if [[ -n "$build_pid" ]] && ! wait "$build_pid"; then
	failed+=("(control-plane build)")
fi

echo "=== time per module"
printf '%s\n' "${times[@]}"
echo "=== total $((SECONDS - start))s, $jobs_max modules at a time"
if ((${#failed[@]})); then
	echo "FAILED modules: ${failed[*]}"
	exit 1
fi
echo "all ${#order[@]} modules passed"
