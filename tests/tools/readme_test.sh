#!/usr/bin/env bash
# readme_test.sh - README.md's examples run as written, and its tables current (make test).
#
# usage: tests/tools/readme_test.sh
# Runs each line of each ```sh block of README.md from the repository's root, as written
# (bash -c LINE): each must exit 0 and print something. Checks that the README has no commit
# hash and no issue number, that every goal of its goals table is a goal of `make help`
# with the package group tools/deps.sh gives it, that the HX8K example uses the reference
# build's flags, and that README.md stays about one screen (at most 80 lines).
# Prints one line per check and "readme_test: N passed, M failed"; exit 1 on any failure.
set -u
case "${1:-}" in -h | --help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 2
readme=${README:-README.md}
pass=0 fail=0
ok() { echo "  ok: $*"; pass=$((pass + 1)); }
bad() { echo "  FAILED: $*" >&2; fail=$((fail + 1)); }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

# The ```sh blocks, one command a line.
awk '/^```sh$/ { on = 1; next } /^```/ { on = 0 } on && NF' "$readme" >"$t/lines"
n=$(wc -l <"$t/lines")
[ "$n" -gt 0 ] && ok "$readme has $n example lines" || bad "$readme has no \`\`\`sh example"
while IFS= read -r line; do
	case $line in *\\) bad "a continued line cannot run as written: $line"; continue ;; esac
	if bash -c "$line" >"$t/out" 2>&1 </dev/null && [ -s "$t/out" ]; then
		ok "\$ $line ($(wc -l <"$t/out") lines)"
	else
		bad "\$ $line: exit status $?, output: $(tail -5 "$t/out")"
	fi
done <"$t/lines"

# No commit hashes, no tracker numbers.
# A hash: 7 to 40 hex digits with at least one letter and one digit (no English word).
grep -oE '\b[0-9a-f]{7,40}\b' "$readme" | grep '[a-f]' | grep '[0-9]' >"$t/h"
if [ -s "$t/h" ]; then
	bad "commit hashes in $readme: $(tr '\n' ' ' <"$t/h")"
else
	ok "no commit hash"
fi
if grep -niE '(issue|#)[ ]?[0-9]+' "$readme" >"$t/i"; then
	bad "issue numbers in $readme: $(cat "$t/i")"
else
	ok "no issue number"
fi

# The goals table: | `make GOAL ...`[, `make GOAL2`] | what | group |
make --no-print-directory -s help >"$t/help" 2>&1 || bad "make help failed: $(tail -3 "$t/help")"
rows=0
while IFS='|' read -r _ goals _ group _; do
	group=$(echo "$group" | tr -d ' ')
	for g in $(echo "$goals" | grep -o '`make [a-z0-9-]*' | sed 's/`make //'); do
		rows=$((rows + 1))
		grep -qE "^  $g " "$t/help" || bad "README goal '$g' is not in make help"
		want=$(tools/deps.sh --groups "$g")
		[ "$group" = "${want:-none}" ] || bad "README says goal '$g' needs '$group'; tools/deps.sh says '${want:-none}'"
	done
done < <(grep -E '^\| `make ' "$readme")
[ $rows -ge 10 ] && ok "$rows goals of the goals table are make help's, with deps.sh's groups" ||
	bad "the goals table has $rows goals"

grep -E '^build/hwsched run .*--backend rtl' "$readme" | grep -- '--no-hw-balance' | grep -- '--no-err-counters' |
	grep -q -- '--no-irq' && ok "the HX8K example uses --no-hw-balance --no-err-counters --no-irq" ||
	bad "no HX8K example with the reference build's flags"
lines=$(wc -l <"$readme")
[ "$lines" -le 80 ] && ok "$readme is $lines lines" || bad "$readme is $lines lines, more than a screen"

echo "readme_test: $pass passed, $fail failed"
[ $fail = 0 ]
