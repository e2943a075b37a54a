#!/usr/bin/env bash
# Builds the test control plane from the Go module proxy into a versioned
# cache directory outside the checkout. Every version comes from this
# directory's go.mod; nothing else pins them.
#
#   build.sh [apiserver | controllers | all]   (default: all)
#     apiserver    etcd and kube-apiserver: what most server tests need
#     controllers  also kube-controller-manager, kube-scheduler, kwok and its
#                  stages: for tests whose behaviour needs real controllers
#   build.sh --print-dir                       print the target directory
#   build.sh --check [apiserver | controllers] succeed when the group's files
#                                              are built and current, fail
#                                              otherwise; builds nothing
#
#   OPKIT_ASSETS   target directory (default:
#                  ${XDG_CACHE_HOME:-$HOME/.cache}/opkit/k8s/<kubernetes version>)
#
# Each file is built into a temporary name and renamed into place, then a
# record of it is written under .stamps/ (what it was built from, and its
# size). A file without a record, with a record of other versions, or whose
# size differs from its record (a truncated or replaced binary) is built
# again; testkit refuses to run such a file. Builds of one group hold a lock
# (flock), so runs started at once share the cache: the second waits, then
# finds the files up to date. While compiling, a line every 20 seconds says
# what is being built, for how long and how many packages are compiled.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"
export GOWORK=off
export GOFLAGS=-mod=mod

version() { go list -m -f '{{.Version}}' "$1"; }
k8s="$(version k8s.io/kubernetes)"
dest="${OPKIT_ASSETS:-${XDG_CACHE_HOME:-$HOME/.cache}/opkit/k8s/$k8s}"

check=false
if [[ "${1:-}" == --check ]]; then
	check=true
	shift
fi
group="${1:-all}"
case "$group" in
--print-dir)
	echo "$dest"
	exit 0
	;;
apiserver | controllers) ;;
all) group=controllers ;;
*)
	echo "usage: $0 [apiserver | controllers | all | --print-dir]" >&2
	exit 2
	;;
esac

etcd="$(version go.etcd.io/etcd/server/v3)"
kwok="$(version sigs.k8s.io/kwok)"
gover="$(go env GOVERSION)"

minor="${k8s#v1.}"
minor="${minor%%.*}"
# The build settings besides the link flags (see the go build below).
cgo=0
buildflags=(-trimpath)
ldflags="-s -w"
ldflags+=" -X k8s.io/component-base/version.gitVersion=$k8s"
ldflags+=" -X k8s.io/component-base/version.gitMajor=1"
ldflags+=" -X k8s.io/component-base/version.gitMinor=$minor"
ldflags+=" -X k8s.io/component-base/version.gitTreeState=clean"

# source <file>: the package or command a file is built from, and the
# version that decides its content.
source_of() {
	case "$1" in
	etcd) echo "./cmd/etcd go.etcd.io/etcd/server/v3@$etcd" ;;
	kube-apiserver | kube-controller-manager | kube-scheduler) echo "k8s.io/kubernetes/cmd/$1 k8s.io/kubernetes@$k8s" ;;
	kwok) echo "sigs.k8s.io/kwok/cmd/kwok sigs.k8s.io/kwok@$kwok" ;;
	kwok-stages.yaml) echo "./cmd/kwok-stages sigs.k8s.io/kwok@$kwok" ;;
	esac
}

# record <file>: what the stamp of a file says when it is up to date
# (without its size).
record() {
	printf 'from %s\ngo %s\nsettings CGO_ENABLED=%s\nldflags %s\n' "$(source_of "$1")" "$gover" "$cgo ${buildflags[*]}" "$ldflags"
}

stamps="$dest/.stamps"
# Temporary build directories, removed however the script ends.
tmps=()
trap 'rm -rf "${tmps[@]+"${tmps[@]}"}"' EXIT

# current <file>: the file exists, its stamp matches, its size is the
# recorded one.
current() {
	local f="$dest/$1" s="$stamps/$1"
	[[ -f "$f" && -f "$s" ]] || return 1
	[[ "$(sed '$d' "$s")" == "$(record "$1")" ]] || return 1
	[[ "$(tail -n 1 "$s")" == "size $(stat -c %s "$f")" ]]
}

# The files of each group, in the order they are built.
apiserver_files=(etcd kube-apiserver)
controllers_files=(kube-controller-manager kube-scheduler kwok kwok-stages.yaml)

if $check; then
	files=("${apiserver_files[@]}")
	[[ "$group" == controllers ]] && files+=("${controllers_files[@]}")
	for f in "${files[@]}"; do
		current "$f" || exit 1
	done
	exit 0
fi
mkdir -p "$stamps"

# install <tmp> <file>: rename a built file into place and stamp it.
install_file() {
	local tmp="$1" name="$2"
	rm -f "$stamps/$name"
	mv -f "$tmp" "$dest/$name"
	{
		record "$name"
		echo "size $(stat -c %s "$dest/$name")"
	} >"$stamps/$name.tmp"
	mv -f "$stamps/$name.tmp" "$stamps/$name"
}

# build_group <name> <files...>: build the files of a group that are not
# current, under the group's lock.
build_group() {
	local name="$1"
	shift
	exec {lock}>"$dest/.lock-$name"
	if ! flock -n "$lock"; then
		echo "k8s-assets: another build of the $name group runs; waiting for it"
		flock "$lock"
	fi
	local todo=() f
	for f in "$@"; do
		current "$f" || todo+=("$f")
	done
	if ((${#todo[@]} == 0)); then
		echo "k8s-assets: $* up to date in $dest"
		exec {lock}>&-
		return
	fi
	echo "k8s-assets: building ${todo[*]} into $dest"
	local start=$SECONDS tmp
	tmp="$(mktemp -d "$dest/.build-XXXXXX")"
	tmps+=("$tmp")
	local pkgs=() bins=()
	for f in "${todo[@]}"; do
		[[ "$f" == kwok-stages.yaml ]] && continue
		pkgs+=("$(source_of "$f" | cut -d' ' -f1)")
		bins+=("$f")
	done
	if ((${#pkgs[@]})); then
		# One go build for the group, so that shared packages compile once;
		# with the build settings of the images and of the tests run without
		# the race detector (hack/test-module.sh: -trimpath, no cgo), so that
		# the packages they import too (k8s.io/api, client-go, apimachinery
		# and below) compile once for all of them (hack/versions.sh keeps
		# their versions equal).
		CGO_ENABLED="$cgo" go build -v "${buildflags[@]}" -ldflags "$ldflags" -o "$tmp/" "${pkgs[@]}" 2>"$tmp/build.log" &
		local pid=$! status=0 next=$((SECONDS + 20))
		while kill -0 "$pid" 2>/dev/null; do
			sleep 1
			if ((SECONDS >= next)); then
				next=$((SECONDS + 20))
				echo "k8s-assets: building ${bins[*]}: $((SECONDS - start))s, $(grep -c '^[^# ]*$' "$tmp/build.log" || true) packages compiled"
			fi
		done
		wait "$pid" || status=$?
		if ((status != 0)); then
			grep -v '^[^# ]*$' "$tmp/build.log" >&2 || true
			echo "k8s-assets: FAILED to build ${bins[*]} (go build exit $status); nothing was installed, rerun after fixing the error above" >&2
			exit 1
		fi
		for f in "${bins[@]}"; do
			install_file "$tmp/$f" "$f"
		done
	fi
	if [[ " ${todo[*]} " == *" kwok-stages.yaml "* ]]; then
		go run ./cmd/kwok-stages >"$tmp/kwok-stages.yaml"
		install_file "$tmp/kwok-stages.yaml" kwok-stages.yaml
	fi
	echo "k8s-assets: built ${todo[*]} in $((SECONDS - start))s"
	exec {lock}>&-
}

build_group apiserver "${apiserver_files[@]}"
if [[ "$group" == controllers ]]; then
	build_group controllers "${controllers_files[@]}"
fi
