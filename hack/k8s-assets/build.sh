#!/usr/bin/env bash
# Builds the test control plane (etcd, kube-apiserver, kube-controller-manager,
# kube-scheduler, kwok and kwok's stages) from the Go module proxy into a
# versioned cache directory outside the checkout. Every version comes from
# this directory's go.mod; nothing else pins them.
#
#   OPKIT_ASSETS   target directory (default: ${XDG_CACHE_HOME:-$HOME/.cache}/opkit/k8s/<kubernetes version>)
#   --print-dir    print the target directory and exit
#
# Idempotent: a stamp file records the versions built; a matching stamp skips
# the build. A failed build leaves no stamp, so the next run starts over.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"
export GOWORK=off
export GOFLAGS=-mod=mod

trap 'echo "k8s-assets: FAILED (line $LINENO); nothing was stamped, rerun make k8s-assets after fixing the error above" >&2' ERR

version() { go list -m -f '{{.Version}}' "$1"; }
k8s="$(version k8s.io/kubernetes)"
etcd="$(version go.etcd.io/etcd/server/v3)"
kwok="$(version sigs.k8s.io/kwok)"
dest="${OPKIT_ASSETS:-${XDG_CACHE_HOME:-$HOME/.cache}/opkit/k8s/$k8s}"

if [[ "${1:-}" == "--print-dir" ]]; then
	echo "$dest"
	exit 0
fi

want="$(printf 'kubernetes %s\netcd %s\nkwok %s\ngo %s\n' "$k8s" "$etcd" "$kwok" "$(go env GOVERSION)")"
stamp="$dest/.stamp"
if [[ -f "$stamp" ]] && [[ "$(cat "$stamp")" == "$want" ]]; then
	echo "k8s-assets: up to date in $dest"
	exit 0
fi

mkdir -p "$dest"
rm -f "$stamp"
echo "k8s-assets: building into $dest"
echo "  kube-apiserver, kube-controller-manager, kube-scheduler  k8s.io/kubernetes $k8s"
echo "  etcd                                                    go.etcd.io/etcd/server/v3 $etcd"
echo "  kwok, kwok-stages.yaml                                  sigs.k8s.io/kwok $kwok"
start=$SECONDS

minor="${k8s#v1.}"
minor="${minor%%.*}"
ldflags="-s -w"
ldflags+=" -X k8s.io/component-base/version.gitVersion=$k8s"
ldflags+=" -X k8s.io/component-base/version.gitMajor=1"
ldflags+=" -X k8s.io/component-base/version.gitMinor=$minor"
ldflags+=" -X k8s.io/component-base/version.gitTreeState=clean"

# One go build for all commands, so shared packages compile once.
CGO_ENABLED=0 go build -trimpath -ldflags "$ldflags" -o "$dest/" \
	k8s.io/kubernetes/cmd/kube-apiserver \
	k8s.io/kubernetes/cmd/kube-controller-manager \
	k8s.io/kubernetes/cmd/kube-scheduler \
	sigs.k8s.io/kwok/cmd/kwok \
	./cmd/etcd

go run ./cmd/kwok-stages > "$dest/kwok-stages.yaml.tmp"
mv "$dest/kwok-stages.yaml.tmp" "$dest/kwok-stages.yaml"

for bin in etcd kube-apiserver kube-controller-manager kube-scheduler kwok; do
	if [[ ! -x "$dest/$bin" ]]; then
		echo "k8s-assets: $bin missing from $dest after the build" >&2
		exit 1
	fi
done

printf '%s\n' "$want" > "$stamp"
echo "k8s-assets: done in $((SECONDS - start))s: $(cd "$dest" && ls | tr '\n' ' ')"
