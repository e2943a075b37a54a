#!/usr/bin/env bash
# The one source of the module list: every directory with a go.mod, found in
# the tree, printed in dependency order (a module after every sibling it
# requires), ties broken by name. Everything else (the Makefile, go.work, the
# import check, the release order) is derived from this output.
#
#   hack/modules.sh             modules built, vetted and tested (not hack/)
#   hack/modules.sh --tools     the tool modules under hack/
#   hack/modules.sh --release   modules that are released (no examples, e2e,
#                               nested test modules or tools), in release order
#   hack/modules.sh --requires <dir>   siblings <dir>'s go.mod requires, in order
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

prefix=github.com/opkit-dev/opkit/

all_dirs() {
	find . -name go.mod -not -path './.git/*' -printf '%h\n' | sed 's#^\./##' | grep -v '^\.$' | sort
}

# requires <dir>: the sibling directories required by <dir>/go.mod.
requires() {
	awk -v p="$prefix" '
		/^require[ \t]*\(/ { inreq = 1; next }
		inreq && /^\)/ { inreq = 0; next }
		/^require[ \t]/ { sub(/^require[ \t]+/, ""); print $1; next }
		inreq { print $1 }
	' "$1/go.mod" | sed -n "s#^${prefix}##p" | sort -u
}

# order <dirs...>: topological order over the sibling requires, stable by name.
order() {
	local -a todo=("$@") done=()
	local -A placed=() wanted=()
	for d in "${todo[@]}"; do wanted[$d]=1; done
	while ((${#todo[@]})); do
		local progressed=0 rest=()
		for d in "${todo[@]}"; do
			local ready=1
			for r in $(requires "$d"); do
				if [[ -n "${wanted[$r]:-}" && -z "${placed[$r]:-}" ]]; then ready=0; break; fi
			done
			if ((ready)); then placed[$d]=1; done+=("$d"); progressed=1; else rest+=("$d"); fi
		done
		if ((!progressed)); then
			echo "modules.sh: require cycle among: ${rest[*]}" >&2
			exit 1
		fi
		todo=("${rest[@]+"${rest[@]}"}")
	done
	printf '%s\n' "${done[@]}"
}

case "${1:-}" in
"")
	mapfile -t mods < <(all_dirs | grep -v '^hack/')
	order "${mods[@]}"
	;;
--tools)
	all_dirs | grep '^hack/'
	;;
--release)
	mapfile -t mods < <(all_dirs | grep -v -e '^hack/' -e '^examples' -e '^e2e' -e '/servertest$')
	order "${mods[@]}"
	;;
--requires)
	d="${2:?usage: modules.sh --requires <dir>}"
	if [[ ! -f "$d/go.mod" ]]; then
		echo "modules.sh: $d has no go.mod" >&2
		exit 1
	fi
	mapfile -t reqs < <(requires "$d")
	if ((${#reqs[@]})); then order "${reqs[@]}"; fi
	;;
*)
	echo "usage: hack/modules.sh [--tools | --release | --requires <dir>]" >&2
	exit 2
	;;
esac
