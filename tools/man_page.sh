#!/usr/bin/env bash
# man_page.sh - write the man page hwsched(1) from the program's own --help texts.
#
# usage: tools/man_page.sh HWSCHED OUT
#   HWSCHED  the built program (build/hwsched)
#   OUT      the page to write (build/man/hwsched.1), through a temporary file and a rename
# The page: NAME and SYNOPSIS from `hwsched --help`'s first lines, DESCRIPTION its text,
# then one section per command with `hwsched COMMAND --help`, verbatim. No help2man: make
# install needs nothing beyond the run group's packages (tools/deps.sh).
set -euo pipefail
case "${1:-}" in -h | --help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
[ $# = 2 ] || { echo "man_page.sh: usage: tools/man_page.sh HWSCHED OUT (try --help)" >&2; exit 2; }
bin=$1 out=$2
[ -x "$bin" ] || { echo "man_page.sh: $bin is not an executable (make builds build/hwsched)" >&2; exit 2; }

# roff-safe verbatim: backslashes doubled, a leading . or ' escaped.
verbatim() { sed -e 's/\\/\\e/g' -e "s/^\([.']\)/\\\\\&\1/"; }

top=$("$bin" --help) || { echo "man_page.sh: '$bin --help' failed" >&2; exit 1; }
# The commands: the lines "  NAME  text" of the "commands:" block, "help" aside.
cmds=$(echo "$top" | awk '/^commands:/ { on = 1; next } on && /^$/ { on = 0 } on && /^  [a-z]/ { print $1 }' |
	grep -v '^help$' || true)
[ -n "$cmds" ] || { echo "man_page.sh: '$bin --help' lists no commands" >&2; exit 1; }
what=$(echo "$top" | sed -n '3p')

mkdir -p "$(dirname "$out")"
tmp=$(mktemp "$out.XXXXXX")
trap 'rm -f "$tmp"' EXIT
{
	echo '.TH HWSCHED 1 "" "hwsched" "User Commands"'
	echo '.SH NAME'
	echo "hwsched \\- ${what%.}"
	echo '.SH SYNOPSIS'
	echo '.B hwsched'
	echo '.I COMMAND'
	echo '[\fIOPTIONS\fR]'
	echo '.SH DESCRIPTION'
	echo '.nf'
	echo "$top" | verbatim
	echo '.fi'
	for c in $cmds; do
		echo ".SH COMMAND: ${c^^}"
		echo '.nf'
		"$bin" "$c" --help | verbatim || { echo "man_page.sh: '$bin $c --help' failed" >&2; exit 1; }
		echo '.fi'
	done
	echo '.SH FILES'
	echo 'Engine shapes are built on first use into'
	echo '.I ${XDG_CACHE_HOME:-$HOME/.cache}/hwsched/shapes'
	echo 'from the RTL installed under share/hwsched (in a source tree: build/shapes).'
} >"$tmp"
chmod 644 "$tmp"
mv -f "$tmp" "$out"
trap - EXIT
