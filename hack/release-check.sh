#!/usr/bin/env bash
# Refuses to release a module whose go.mod still requires a sibling at
# v0.0.0 (the in-repository placeholder that only the relative replace
# resolves), or that is not a released module at all. Usage:
#   hack/release-check.sh <dir>
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
m="${1:?usage: hack/release-check.sh <dir>}"
if ! hack/modules.sh --release | grep -qx "$m"; then
	echo "release-check: $m is not a released module; released: $(hack/modules.sh --release | tr '\n' ' ')" >&2
	exit 1
fi
placeholders="$(grep -E 'github.com/opkit-dev/opkit/[a-z0-9/_-]+ v0\.0\.0( |$)' "$m/go.mod" | grep -v '=>' || true)"
if [[ -n "$placeholders" ]]; then
	echo "release-check: $m/go.mod requires siblings at v0.0.0; require their released versions first:" >&2
	echo "$placeholders" | sed 's/^/  /' >&2
	exit 1
fi
for dep in $(hack/modules.sh --requires "$m"); do
	if ! git tag --list "$dep/v*" | grep -q .; then
		echo "release-check: $m requires $dep, which has no release tag yet (release $dep first)" >&2
		exit 1
	fi
done
echo "release-check: $m can be tagged"
