#!/usr/bin/env bash
# Proves that an adopter can take a released module alone: for each module
# of the release list (or those named), a throwaway consumer module that
# requires only it (its siblings reached through replace directives, as the
# module proxy would serve them) imports every package of it but its
# commands, and must pass `go mod tidy` and `go build`. Prints how many
# modules the consumer's build list holds (`go list -m all`), which is what
# an adopter downloads.
#
#   hack/check-consumers.sh [dir...]         check and print the counts
#   hack/check-consumers.sh --readme [dir...] also fail when README.md's
#                                             module table states another count
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root="$PWD"
prefix=github.com/opkit-dev/opkit/

readme=0
if [[ "${1:-}" == "--readme" ]]; then readme=1; shift; fi
if (($#)); then mods=("$@"); else mapfile -t mods < <(hack/modules.sh --release); fi

# siblings <dir>: every sibling module <dir> needs, transitively.
siblings() {
	local -A seen=()
	local -a queue=("$1")
	while ((${#queue[@]})); do
		local d="${queue[0]}"
		queue=("${queue[@]:1}")
		for r in $(hack/modules.sh --requires "$d"); do
			[[ -n "${seen[$r]:-}" ]] && continue
			seen[$r]=1
			queue+=("$r")
		done
	done
	printf '%s\n' "${!seen[@]}" | sort
}

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
status=0
for m in "${mods[@]}"; do
	c="$tmp/${m//\//_}"
	mkdir -p "$c"
	# commands (package main) cannot be imported: an adopter runs them
	if ! pkgs="$(cd "$m" && GOWORK=off go list -f '{{if ne .Name "main"}}{{.ImportPath}}{{end}}' ./...)"; then
		echo "check-consumers: go list failed in $m" >&2
		status=1
		continue
	fi
	{
		echo "module example.com/consumer"
		echo
		echo "go $(sed -n 's/^go //p' "$m/go.mod")"
		echo
		echo "require $prefix$m v0.0.0"
		echo
		echo "replace $prefix$m => $root/$m"
		for s in $(siblings "$m"); do echo "replace $prefix$s => $root/$s"; done
	} >"$c/go.mod"
	{
		echo "// Command consumer imports every package of one module."
		echo "package main"
		echo
		echo "import ("
		for p in $pkgs; do
			# internal packages cannot be imported from outside the module
			[[ "$p" == */internal || "$p" == */internal/* ]] && continue
			echo "	_ \"$p\""
		done
		echo ")"
		echo
		echo "func main() {}"
	} >"$c/main.go"
	if ! (cd "$c" && GOWORK=off GOFLAGS=-mod=mod go mod tidy >"$c/log" 2>&1 && GOWORK=off go build ./... >>"$c/log" 2>&1); then
		echo "check-consumers: a module requiring only $m does not tidy and build:" >&2
		cat "$c/log" >&2
		status=1
		continue
	fi
	n="$(cd "$c" && GOWORK=off go list -m all | wc -l)"
	n=$((n - 1)) # the consumer itself
	printf '%-16s %4d modules\n' "$m" "$n"
	if ((readme)); then
		row="$(grep -E "^\| \[\`$m\`\]" README.md || true)"
		stated="$(sed -nE 's/.*\| *([0-9]+) *\|$/\1/p' <<<"$row")"
		if [[ "$stated" != "$n" ]]; then
			echo "check-consumers: README.md states ${stated:-no count} modules for $m; an adopter downloads $n (update the table)" >&2
			status=1
		fi
	fi
done
exit $status
