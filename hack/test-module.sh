#!/usr/bin/env bash
# Runs one module's tests the way CI does (GOWORK=off, inside the module);
# its fuzz targets run on their seed corpora with the other tests (make fuzz
# fuzzes them). Usage:
#   hack/test-module.sh <dir> [go test flags...]
#   hack/test-module.sh --needs <dir>   print what the module's tests need:
#                                       none, apiserver or controllers
#
# The control-plane binaries are built (or waited for, when another build
# holds them) before the tests only when the module needs them: a module
# whose go.mod requires testkit needs etcd and kube-apiserver, and one whose
# code asks for controllers (controlplane.Options{Controllers: true}) needs
# kube-controller-manager, kube-scheduler and kwok too. Modules whose code
# starts goroutines (RACE_MODULES, matched on the first path segment, so a
# nested test module follows its parent) run with the race detector; the
# others build with -trimpath and without cgo, like the images and the
# control-plane binaries (see below).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

RACE_MODULES="apply orphan reconciler shard testkit e2e"

# Modules whose tests may outlast go test's default timeout of 10 minutes
# on a loaded machine (hack/load-check.sh): scaffold/servertest generates,
# builds, tests and deploys two projects. A -timeout among the flags given
# still wins.
LONG_MODULES="scaffold/servertest"

# needs <dir>: none, apiserver or controllers. It fails, rather than guess,
# when the module list or the module's files cannot be read. (No pipe into
# grep -q here: grep stops reading at the first match, and the writer's
# SIGPIPE would fail the pipeline under pipefail.)
needs() {
	local dir="$1" reqs
	reqs="$(hack/modules.sh --requires "$dir")" || {
		echo "test-module: cannot read the requirements of $dir" >&2
		return 1
	}
	if [[ "$dir" != testkit ]] && ! grep -qx testkit <<<"$reqs"; then
		echo none
		return
	fi
	# The module's own files, not those of modules nested in it.
	local mods nested=() m
	mods="$(hack/modules.sh)" || {
		echo "test-module: cannot list the modules" >&2
		return 1
	}
	for m in $mods; do
		[[ "$m" == "$dir"/* ]] && nested+=(-not -path "./$m/*")
	done
	local found files=()
	found="$(find "./$dir" -name '*.go' "${nested[@]+"${nested[@]}"}")" || {
		echo "test-module: cannot list the Go files of $dir" >&2
		return 1
	}
	mapfile -t files <<<"$found"
	local status=0
	grep -qE 'Controllers: *true' "${files[@]}" || status=$?
	case "$status" in
	0) echo controllers ;;
	1) echo apiserver ;;
	*)
		echo "test-module: cannot read the Go files of $dir" >&2
		return 1
		;;
	esac
}

if [[ "${1:-}" == "--needs" ]]; then
	needs "${2:?usage: hack/test-module.sh --needs <dir>}"
	exit 0
fi

dir="${1:?usage: hack/test-module.sh <dir> [go test flags...]}"
shift

flags=("$@")
if [[ " $RACE_MODULES " == *" ${dir%%/*} "* ]]; then
	flags=(-race "${flags[@]+"${flags[@]}"}")
else
	# Without the race detector, build as the images and the control-plane
	# binaries are built (-trimpath, no cgo), the go commands the tests run
	# too (they inherit the environment): Go's build cache then holds one
	# compiled copy of the packages they share, not one per set of build
	# settings. On a fresh machine that saves compiling the Kubernetes
	# libraries once more.
	export CGO_ENABLED=0 GOFLAGS="-trimpath${GOFLAGS:+ $GOFLAGS}"
fi

if [[ " $LONG_MODULES " == *" $dir "* ]]; then
	flags=(-timeout 30m "${flags[@]+"${flags[@]}"}")
fi

need="$(needs "$dir")"
if [[ "$need" != none ]]; then
	if ! hack/k8s-assets/build.sh --check "$need"; then
		# While the binaries are built, compile the test binaries (into a
		# directory thrown away: only Go's build cache keeps them), so
		# that the tests start as soon as the binaries are there. A
		# compile error shows in the run below.
		bins="$(mktemp -d)"
		echo "test-module: compiling the tests of $dir while the control plane is built"
		(cd "$dir" && GOWORK=off go test -c -o "$bins" "${flags[@]+"${flags[@]}"}" ./... >/dev/null 2>&1) || true
		rm -rf "$bins"
	fi
	hack/k8s-assets/build.sh "$need"
fi

(cd "$dir" && GOWORK=off go test "${flags[@]+"${flags[@]}"}" ./...)
