#!/usr/bin/env bash
# make test: every module's tests, each module on its own (hack/test-module.sh),
# reporting every failing module and failing if any did. Usage:
#   hack/test.sh [go test flags...]
#
# The control plane is built in the background from the start, while the
# modules that do not need it are tested; the modules that need etcd and
# kube-apiserver come next (each waits for that part of the build only),
# then those that need the controllers. With the binaries already built the
# build step only checks them. Each module's time and the total are printed
# at the end.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

mapfile -t modules < <(hack/modules.sh)
declare -A need
order=()
for group in none apiserver controllers; do
	for m in "${modules[@]}"; do
		need[$m]="${need[$m]:-$(hack/test-module.sh --needs "$m")}"
		[[ "${need[$m]}" == "$group" ]] && order+=("$m")
	done
done

start=$SECONDS
build_pid=
if [[ " ${need[*]} " == *" apiserver "* || " ${need[*]} " == *" controllers "* ]]; then
	group=apiserver
	[[ " ${need[*]} " == *" controllers "* ]] && group=controllers
	hack/k8s-assets/build.sh "$group" &
	build_pid=$!
fi

failed=()
times=()
for m in "${order[@]}"; do
	echo "=== module $m (needs: ${need[$m]})"
	began=$SECONDS
	hack/test-module.sh "$m" "$@" || failed+=("$m")
	times+=("$(printf '%5ds  %s' $((SECONDS - began)) "$m")")
done
if [[ -n "$build_pid" ]] && ! wait "$build_pid"; then
	failed+=("(control-plane build)")
fi

echo "=== time per module"
printf '%s\n' "${times[@]}"
echo "=== total $((SECONDS - start))s"
if ((${#failed[@]})); then
	echo "FAILED modules: ${failed[*]}"
	exit 1
fi
echo "all ${#order[@]} modules passed"
