#!/usr/bin/env bash
# Decides whether a module can be released, as VERSION when one is given:
#
#   hack/release-check.sh <dir> [vX.Y.Z]
#
# 1. <dir> is a released module (hack/modules.sh --release).
# 2. Its go.mod requires no sibling at v0.0.0 (the in-repository placeholder
#    that only the relative replace resolves), and every sibling it requires
#    has a release tag.
# 3. Its API, as it is in the working tree, is compared with its last
#    release, the highest tag <dir>/vX.Y.Z, by apidiff (pinned in hack/tools),
#    with semantic versioning as Go modules apply it:
#      no API change            any later version; the next patch is enough
#      only additions           a new minor version at least: vX.(Y+1).0
#      incompatible changes     before v1, a new minor version: v0.(Y+1).0;
#                               from v1 on, a new major version, which in Go
#                               is a new module path (<dir>/vN), so it fails
#    Without a version, incompatible changes fail and the smallest allowed
#    version is printed; with one, a version the changes do not allow fails.
#    v1.0.0 may follow any v0 release. A module without a release tag has no
#    earlier API to compare with, and passes this step.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root="$PWD"
prefix=github.com/opkit-dev/opkit/
m="${1:?usage: hack/release-check.sh <dir> [vX.Y.Z]}"
m="${m%/}"
version="${2:-}"

released="$(hack/modules.sh --release | tr '\n' ' ')"
if [[ " $released" != *" $m "* ]]; then
	echo "release-check: $m is not a released module; released: $released" >&2
	exit 1
fi
semver='^v(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$'
if [[ -n "$version" && ! "$version" =~ $semver ]]; then
	echo "release-check: version $version is not of the form vX.Y.Z" >&2
	exit 1
fi
if [[ -n "$version" ]] && git rev-parse -q --verify "refs/tags/$m/$version" >/dev/null; then
	echo "release-check: $m/$version is already tagged" >&2
	exit 1
fi

status=0

# --- 2. siblings
placeholders="$(grep -E "${prefix//./\\.}[a-z0-9/_-]+ v0\.0\.0( |$)" "$m/go.mod" | grep -v '=>' || true)"
if [[ -n "$placeholders" ]]; then
	echo "release-check: $m/go.mod requires siblings at v0.0.0; require their released versions first:" >&2
	echo "$placeholders" | sed 's/^/  /' >&2
	status=1
fi
for dep in $(hack/modules.sh --requires "$m"); do
	if [[ -z "$(git tag --list "$dep/v*")" ]]; then
		echo "release-check: $m requires $dep, which has no release tag yet (release $dep first)" >&2
		status=1
	fi
done

# --- 3. API compatibility with the last release
# the highest release tag <m>/vX.Y.Z (pre-releases are not compared with)
last="$(git tag --list "$m/v*" | sed "s#^$m/##" | grep -E "$semver" | sort -t. -k1.2,1n -k2,2n -k3,3n | tail -n1 || true)"
if [[ -z "$last" ]]; then
	echo "release-check: $m has no release yet (no tag $m/vX.Y.Z): there is no earlier API to compare with"
	[[ -n "$version" ]] && echo "release-check: $m/$version would be its first release"
else
	tmp="$(mktemp -d)"
	trap 'rm -rf "$tmp"' EXIT
	# The whole tree at the tag, so the relative replaces of its go.mod
	# find the siblings as they were released with it.
	mkdir "$tmp/base"
	git archive "$m/$last" | tar -x -C "$tmp/base"
	if ! (cd "$tmp/base/$m" && GOWORK=off "$root/hack/tool.sh" apidiff -m -w "$tmp/base.zip" "$prefix$m") >"$tmp/log" 2>&1; then
		echo "release-check: could not load the API of $m at $m/$last:" >&2
		grep -v '^Ignoring internal package' "$tmp/log" >&2
		exit 1
	fi
	if ! (cd "$m" && GOWORK=off "$root/hack/tool.sh" apidiff -m "$tmp/base.zip" "$prefix$m") >"$tmp/report" 2>"$tmp/log"; then
		echo "release-check: could not compare the API of $m with $m/$last:" >&2
		grep -v '^Ignoring internal package' "$tmp/log" >&2
		exit 1
	fi
	# apidiff prints "Incompatible changes:" and "Compatible changes:"
	# sections in map order, packages relative to the module ("./sub");
	# sort each and name packages from the repository root.
	incompatible="$(sed -n '/^Incompatible changes:/,/^Compatible changes:/{/^- /p}' "$tmp/report" | sed "s#^- \./#- $m/#" | sort)"
	compatible="$(sed -n '/^Compatible changes:/,${/^- /p}' "$tmp/report" | sed "s#^- \./#- $m/#" | sort)"

	IFS=. read -r x y z <<<"${last#v}"
	if [[ -n "$incompatible" ]]; then
		kind="incompatible changes"
		if ((x == 0)); then need="v0.$((y + 1)).0"; else need=""; fi
	elif [[ -n "$compatible" ]]; then
		kind="additions"
		need="v$x.$((y + 1)).0"
	else
		kind="no API change"
		need="v$x.$y.$((z + 1))"
	fi
	echo "release-check: $m compared with $m/$last: $kind"
	[[ -n "$incompatible" ]] && { echo "  incompatible:"; echo "$incompatible" | sed 's/^/    /'; }
	[[ -n "$compatible" ]] && { echo "  compatible:"; echo "$compatible" | sed 's/^/    /'; }

	# atleast <a> <b>: whether version a is b or later
	atleast() {
		local a1 a2 a3 b1 b2 b3
		IFS=. read -r a1 a2 a3 <<<"${1#v}"
		IFS=. read -r b1 b2 b3 <<<"${2#v}"
		((a1 != b1)) && { ((a1 > b1)); return; }
		((a2 != b2)) && { ((a2 > b2)); return; }
		((a3 >= b3))
	}
	if [[ -z "$version" ]]; then
		if [[ -n "$incompatible" ]]; then
			if [[ -n "$need" ]]; then
				echo "release-check: $m breaks the API of $m/$last; before v1 that needs a new minor version: make release-check MODULE=$m VERSION=$need" >&2
			else
				echo "release-check: $m breaks the API of $m/$last; from v1 on that needs a new major version, a new module path $prefix$m/v$((x + 1)); restore the API instead" >&2
			fi
			status=1
		else
			echo "release-check: the next release of $m is $need or later"
		fi
	else
		IFS=. read -r a _ _ <<<"${version#v}"
		if ! atleast "$version" "v$x.$y.$((z + 1))"; then
			echo "release-check: $version is not later than $m/$last" >&2
			status=1
		elif ((x == 0 && a == 1)); then
			: # v1.0.0 may follow any v0 release
		elif ((a != x)); then
			echo "release-check: $m/$version changes the major version of $m/$last; from v2 on that needs a new module path $prefix$m/v$a" >&2
			status=1
		elif [[ -z "$need" ]]; then
			echo "release-check: $m breaks the API of $m/$last; from v1 on that needs a new major version, a new module path $prefix$m/v$((x + 1)); restore the API instead" >&2
			status=1
		elif ! atleast "$version" "$need"; then
			echo "release-check: $m/$version is too small: $m has $kind since $m/$last; the smallest allowed version is $need" >&2
			status=1
		fi
	fi
fi

if ((status)); then
	echo "release-check: $m cannot be tagged${version:+ as $m/$version}" >&2
	exit 1
fi
echo "release-check: $m can be tagged${version:+ as $m/$version}"
