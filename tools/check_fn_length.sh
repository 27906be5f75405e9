#!/usr/bin/env bash
# check_fn_length.sh - fail when a C function is longer than the limit (80 lines).
#
# usage: tools/check_fn_length.sh [--max N] [--allow FILE] PATH...   check the C files
#            under each PATH (a folder, searched for *.c, or a file)
#        tools/check_fn_length.sh --self-test   show that an 81-line function fails and
#            an 80-line one passes (tests/tools/fn_length/)
#
# A function is counted from the line its definition starts on (its return type, at column
# 0) to its closing brace at column 0, both included: the project's style (a function's
# opening brace alone on a line at column 0). Each one over the limit is printed as
# "file:line: name N lines". --allow FILE names functions that may stay longer for now, one
# "file:name" a line ('#' starts a comment): they are printed with "(allowed)" and do not
# fail the check; an allowed entry that is no longer too long is reported, so that the list
# only shrinks. Exit status: 0 when nothing fails, 1 otherwise, 2 on bad usage.
set -euo pipefail

MAX=80
ALLOW=""
ROOT=$(cd "$(dirname "$0")/.." && pwd)

usage() {
	sed -n '3,8p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

# The functions of C file $1 longer than $MAX lines, one "file:line: name N lines" each.
long_functions() {
	awk -v max="$MAX" -v file="$1" '
	# A line at column 0 that may start a definition: not a brace, preprocessor line,
	# comment or blank, and not inside a function.
	# A declaration (ending in ";") starts none.
	depth == 0 && /^[A-Za-z_]/ {
		if (!sig) { sig = NR; sigtext = $0 } else sigtext = sigtext " " $0
		if ($0 ~ /;[ \t]*$/) sig = 0
		next
	}
	depth == 0 && sig && /^[ \t]/ {
		sigtext = sigtext " " $0
		if ($0 ~ /;[ \t]*$/) sig = 0
		next
	}
	depth == 0 && /^\{[ \t]*$/ && sig {
		depth = 1; start = sig; text = sigtext; next
	}
	depth == 1 && /^\}/ {
		depth = 0
		n = NR - start + 1
		if (n > max) {
			name = text
			sub(/\(.*/, "", name)
			sub(/.*[ \t*]/, "", name)
			printf "%s:%d: %s %d lines\n", file, start, name, n
		}
		sig = 0
		next
	}
	depth == 0 && !/^[A-Za-z_ \t]/ { sig = 0 }
	' "$1"
}

# Check every path; print the long functions; return 1 when one is not allowed.
check() {
	local bad=0 f line key name
	local -A allowed=() seen=()
	if [ -n "$ALLOW" ]; then
		while IFS= read -r line; do
			line=${line%%#*}
			line=${line//[[:space:]]/}
			[ -n "$line" ] && allowed[$line]=1
		done <"$ALLOW"
	fi
	while IFS= read -r f; do
		while IFS= read -r line; do
			name=${line#*: }
			name=${name%% *}
			key="${f}:${name}"
			if [ -n "${allowed[$key]:-}" ]; then
				echo "$line (allowed)"
				seen[$key]=1
			else
				echo "$line"
				bad=1
			fi
		done < <(long_functions "$f")
	done < <(for p in "$@"; do
			if [ -d "$p" ]; then find "$p" -name '*.c' | sort; else echo "$p"; fi
		done)
	for key in "${!allowed[@]}"; do
		[ -n "${seen[$key]:-}" ] ||
			echo "check_fn_length: $key is on the allow-list but no longer over $MAX lines: remove it" >&2
	done
	return $bad
}

self_test() {
	local dir=$ROOT/tests/tools/fn_length out
	MAX=80
	ALLOW=""
	if ! out=$(check "$dir/fn80.c"); then
		echo "check_fn_length self-test: the 80-line function failed: $out" >&2
		return 1
	fi
	if out=$(check "$dir/fn81.c"); then
		echo "check_fn_length self-test: the 81-line function passed" >&2
		return 1
	fi
	case $out in
	*"fn81.c:"*": too_long 81 lines"*) ;;
	*) echo "check_fn_length self-test: unexpected report: $out" >&2; return 1 ;;
	esac
	echo "check_fn_length self-test: an 81-line function fails, an 80-line one passes"
}

paths=()
while [ $# -gt 0 ]; do
	case $1 in
	--self-test) self_test; exit $? ;;
	--max) [ $# -ge 2 ] && [[ $2 =~ ^[0-9]+$ ]] || usage; MAX=$2; shift 2 ;;
	--allow) [ $# -ge 2 ] && [ -r "$2" ] || { echo "check_fn_length: cannot read allow-list '${2:-}'" >&2; exit 2; }; ALLOW=$2; shift 2 ;;
	-h | --help) usage ;;
	-*) echo "check_fn_length: unknown option '$1'" >&2; usage ;;
	*) [ -e "$1" ] || { echo "check_fn_length: no such file or folder '$1'" >&2; exit 2; }; paths+=("$1"); shift ;;
	esac
done
[ ${#paths[@]} -gt 0 ] || usage
if ! check "${paths[@]}"; then
	echo "check_fn_length: functions over $MAX lines (split them; docs/layout.md)" >&2
	exit 1
fi
