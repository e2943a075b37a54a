#!/usr/bin/env bash
# Proves the API check of hack/release-check.sh in a throwaway clone of this
# repository, so no tag is ever made here. In the clone, the api module gets
# a small probe package, then:
#
#   no tag yet                      passes: no earlier API to compare with
#   tag api/v0.1.0, no change       passes: no API change
#   change Probe's signature        fails without a version and as v0.1.1;
#                                   passes as v0.2.0 (a v0 minor release)
#   add a function instead          passes, naming v0.2.0 as the next
#                                   release; fails as v0.1.1
#   tag api/v1.0.0, remove Probe    fails as v1.1.0: from v1 on a break
#                                   needs a new module path
#
# The clone takes the working tree's hack/ scripts and tool pins, so the
# proof holds for what is about to be committed. make check runs it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root="$PWD"

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
repo="$tmp/repo"
git clone -q --shared --no-checkout "$root" "$repo"
git -C "$repo" checkout -q --detach "$(git rev-parse HEAD)"
cp hack/*.sh "$repo/hack/"
cp hack/tools/go.mod hack/tools/go.sum "$repo/hack/tools/"

probe="$repo/api/releaseprobe/probe.go"
mkdir -p "$(dirname "$probe")"
write_probe() {
	{
		echo "// Package releaseprobe is the API hack/test-release-check.sh changes."
		echo "package releaseprobe"
		echo
		printf '%s\n' "$@"
	} >"$probe"
}
write_probe "// Probe is the function whose signature changes." "func Probe() string { return \"\" }"
git -C "$repo" add api/releaseprobe
git -C "$repo" -c user.name=release-check -c user.email=release-check@example.invalid \
	commit -q --no-verify -m "api: a probe package for the release check's test"

failed=0
# expect <exit status> <text the output contains> <args of release-check.sh...>
expect() {
	local want="$1" text="$2" got=0
	shift 2
	"$repo/hack/release-check.sh" "$@" >"$tmp/out" 2>&1 || got=$?
	if [[ "$got" -ne "$want" ]] || ! grep -qF -- "$text" "$tmp/out"; then
		echo "test-release-check: FAIL: release-check.sh $* exited $got (want $want) and should print \"$text\"; it printed:" >&2
		sed 's/^/    /' "$tmp/out" >&2
		failed=1
		return
	fi
	echo "ok  release-check.sh $* exits $want: $(grep -F -- "$text" "$tmp/out" | head -n1 | sed 's/^ *//')"
}

expect 0 "there is no earlier API to compare with" api

git -C "$repo" tag api/v0.1.0
expect 0 "no API change" api

write_probe "// Probe is the function whose signature changes." "func Probe(n int) string { return \"\" }"
expect 1 "api/releaseprobe.Probe: changed from func() string to func(int) string" api
expect 1 "the smallest allowed version is v0.2.0" api v0.1.1
expect 0 "api can be tagged as api/v0.2.0" api v0.2.0

write_probe "// Probe is the function whose signature changes." "func Probe() string { return \"\" }" \
	"" "// Added is new API." "func Added() {}"
expect 0 "the next release of api is v0.2.0 or later" api
expect 1 "the smallest allowed version is v0.2.0" api v0.1.1

git -C "$repo" tag api/v1.0.0
write_probe "// Other replaces Probe." "func Other() {}"
expect 1 "a new module path github.com/opkit-dev/opkit/api/v2" api v1.1.0

if ((failed)); then
	echo "test-release-check: the release check does not behave as RELEASING.md says" >&2
	exit 1
fi
echo "test-release-check: the API check behaves as RELEASING.md says"
