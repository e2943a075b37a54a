#!/usr/bin/env bash
# Keeps the modules (hack/modules.sh, and the control-plane build in
# hack/k8s-assets) on one version of each dependency they share, so that
# Go's build cache compiles each shared package once for all of them
# (hack/tools/versions says why). Usage:
#   hack/versions.sh           raise every requirement to the highest version
#                              among the modules, tidy each module, repeat until
#                              nothing moves (part of make tidy)
#   hack/versions.sh --check   list the dependencies required at more than one
#                              version and fail if there is one (part of make check)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

mapfile -t modules < <(hack/modules.sh)
# The control-plane build (hack/k8s-assets) joins them: it is built with the
# settings of the tests run without the race detector (hack/test-module.sh),
# so the packages it shares with them (k8s.io/api, client-go, apimachinery
# and what lies below) then compile once for both.
modules+=(hack/k8s-assets)
dirs=("${modules[@]/#/$PWD/}")
versions() { (cd hack/tools && GOWORK=off go run ./versions "$@"); }

if [[ "${1:-}" == "--check" ]]; then
	if ! versions "${dirs[@]}"; then
		echo "versions: the modules above require a dependency at more than one version; run make tidy" >&2
		exit 1
	fi
	exit 0
fi

for round in 1 2 3 4 5; do
	if versions "${dirs[@]}" >/dev/null; then
		exit 0
	fi
	echo "versions: round $round: raising shared dependencies to one version"
	versions -w "${dirs[@]}" >/dev/null
	for m in "${modules[@]}"; do
		(cd "$m" && GOWORK=off go mod tidy)
	done
done
versions "${dirs[@]}" || {
	echo "versions: still more than one version after 5 rounds" >&2
	exit 1
}
