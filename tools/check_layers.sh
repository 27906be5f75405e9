#!/usr/bin/env bash
# check_layers.sh - fail when a source file includes from a layer it may not depend on.
#
# usage: tools/check_layers.sh [ROOT]        check the tree at ROOT (default: the repository)
#        tools/check_layers.sh --self-test   show that a bad include is caught
#
# The folders are the layers (docs/layout.md, The folders). Each may include from the layers listed
# for it below, which all lie beneath it; anything else is an error that names the file,
# the line and both layers. An include "X" is resolved as the compiler does with
# -Iinclude -I.: beside the including file, then include/X, then X from the root.
# Includes that resolve to no file of the tree (system and Verilator headers) are not
# layers and are skipped.
set -euo pipefail

# layer: the layers its files may include from (itself always).
declare -A ALLOWED=(
	[regmap]=""
	[include]=""
	[lib]="include"
	[models]="include lib"
	[driver]="include lib"
	[firmware]="include lib"
	[sim/harness]="include lib"
	[sim/stim]="include lib"
	[sim/trace]="include lib"
	[sim/machine]="include lib firmware sim/trace"
	[sim/vp]="include lib firmware sim/harness sim/machine"
	[sim/board]=""
	[cli]="include lib driver firmware sim/harness sim/stim sim/trace sim/machine sim/vp"
	[tests]="include lib models driver firmware sim/harness sim/stim sim/trace sim/machine sim/vp sim/board cli"
)

# The layer of path $1 (relative to the root) into LAYER, "" when it is in none.
layer_of() {
	local rest
	case $1 in
	sim/*/*) rest=${1#sim/}; LAYER=sim/${rest%%/*} ;;
	*/*) LAYER=${1%%/*} ;;
	*) LAYER="" ;;
	esac
}

# Normalise relative path $1 (a/b/../c -> a/c) into NORM.
norm() {
	local IFS=/ out=() p
	for p in $1; do
		case $p in
		'' | .) ;;
		..) [ ${#out[@]} -gt 0 ] && unset 'out[${#out[@]}-1]' ;;
		*) out+=("$p") ;;
		esac
	done
	NORM="${out[*]}"
}

check_tree() {
	local root=$1 bad=0 n=0 f dir inc target from to lineno LAYER NORM
	cd "$root"
	while IFS= read -r f; do
		layer_of "$f"
		from=$LAYER
		[ -n "$from" ] && [ -n "${ALLOWED[$from]+x}" ] || continue
		dir=${f%/*}
		while IFS=: read -r lineno inc; do
			n=$((n + 1))
			target=""
			if [ -f "$dir/$inc" ]; then
				target="$dir/$inc"
			elif [ -f "include/$inc" ]; then
				target="include/$inc"
			elif [ -f "$inc" ]; then
				target="$inc"
			fi
			[ -n "$target" ] || continue
			norm "$target"
			target=$NORM
			layer_of "$target"
			to=$LAYER
			[ -n "$to" ] && [ "$to" != "$from" ] || continue
			case " ${ALLOWED[$from]} " in
			*" $to "*) ;;
			*)
				echo "check_layers: $f:$lineno: includes $target: layer $from may not" \
					"depend on $to (it may use: ${ALLOWED[$from]:-nothing})" >&2
				bad=$((bad + 1))
				;;
			esac
		done < <(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" |
			sed 's/^\([0-9]*\):[^"]*"\([^"]*\)".*/\1:\2/')
	done < <(find regmap include lib models driver firmware sim cli tests -type f \
		\( -name '*.c' -o -name '*.h' -o -name '*.cc' -o -name '*.cpp' \) 2>/dev/null | sort)
	# The two rules everyone checks by eye, spelled out on the text as well.
	if grep -En '#include ".*(sim/|hws_vsim|models/|hws_model)' driver/* >&2 2>/dev/null; then
		echo "check_layers: the driver includes the simulator or the model" >&2
		bad=$((bad + 1))
	fi
	if grep -En '#include ".*(firmware/|driver/)' models/* >&2 2>/dev/null; then
		echo "check_layers: the model includes the firmware or the driver" >&2
		bad=$((bad + 1))
	fi
	if [ "$bad" -ne 0 ]; then
		echo "check_layers: $bad include(s) point up or sideways" >&2
		return 1
	fi
	echo "check_layers: $n includes, every one points down"
}

self_test() {
	local t
	t=$(mktemp -d)
	trap 'rm -rf "$t"' RETURN
	mkdir -p "$t/include/hws" "$t/lib" "$t/models" "$t/driver" "$t/sim/harness"
	echo '#include "hws/transport.h"' >"$t/driver/ok.c"
	touch "$t/include/hws/transport.h" "$t/sim/harness/hws_vsim.h" "$t/models/hws_model.h"
	check_tree "$t" >/dev/null || { echo "check_layers: self-test: a clean tree failed" >&2; return 1; }
	echo '#include "../sim/harness/hws_vsim.h"' >"$t/driver/bad.c"
	if (check_tree "$t") 2>/dev/null; then
		echo "check_layers: self-test: the driver including sim/ was not caught" >&2
		return 1
	fi
	rm "$t/driver/bad.c"
	echo '#include "models/hws_model.h"' >"$t/lib/bad.c"
	if (check_tree "$t") 2>/dev/null; then
		echo "check_layers: self-test: lib including models/ was not caught" >&2
		return 1
	fi
	echo "check_layers: self-test: bad includes are caught"
}

case ${1:-} in
--self-test) self_test ;;
-h | --help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' ;;
*) check_tree "${1:-$(cd "$(dirname "$0")/.." && pwd)}" ;;
esac
