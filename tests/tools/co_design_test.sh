#!/usr/bin/env bash
# co_design_test.sh - results/co_design.sh (make vp-study) with stand-in executables.
#
# usage: tests/tools/co_design_test.sh
# Checks: a VP run that fails stops the study with exit 1, names the run, and writes no
# table (a failed run inside a command substitution once left zeros in the table); a study
# whose runs all answer writes its table, through the stand-in's JSON. Nothing is written
# under docs/ (SVG and TSV are sent to a temporary folder).
# Prints one line per check and "co_design_test: N passed, M failed"; exit 1 on any failure.
set -u
case "${1:-}" in -h | --help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 2
pass=0 fail=0
ok() { echo "  ok: $*"; pass=$((pass + 1)); }
bad() { echo "  FAILED: $*" >&2; fail=$((fail + 1)); }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
command -v parallel >/dev/null || { echo "co_design_test: GNU parallel is needed (make deps)" >&2; exit 2; }

# A stand-in hwsched: fails when $FAIL_AT is in its arguments, else writes a JSON with the
# figures co_design.sh reads to the path after --json.
mkdir -p "$t/bin"
cat >"$t/bin/hwsched" <<'SH'
#!/usr/bin/env bash
out=""
for a in "$@"; do
	[ -n "${FAIL_AT:-}" ] && [ "$a" = "$FAIL_AT" ] && exit 3
	[ "$prev" = --json ] && out=$a
	prev=$a
done
printf '{\n "sim_s": 0.01, "throughput": 1000,\n "sched_overhead_pct": 1.5,\n "rq_wait_ms": 0.2\n}\n' >"$out"
SH
chmod +x "$t/bin/hwsched"
cp "$t/bin/hwsched" "$t/bin/hwsched_vp"
study() {	# NAME: runs the study into $t/NAME.*
	HWSCHED=$t/bin/hwsched CPUS=1 RQS="1 2" GRID="0 50" STEPS=1 OUT=$t/$1 \
		SVG=$t/$1.svg TSV=$t/$1.tsv results/co_design.sh >"$t/$1.log" 2>&1
}

FAIL_AT=50 study failing
rc=$?
[ "$rc" = 1 ] && ok "a failed VP run stops the study (exit 1)" || bad "a failed VP run: exit $rc, expected 1"
grep -q "vp run failed: hw 1 x [12] at 50 ns" "$t/failing.log" && ok "the failed run is named" ||
	bad "the failed run is not named: $(tail -3 "$t/failing.log")"
[ ! -e "$t/failing.tsv" ] && ok "no table after a failed run" || bad "a table was written after a failed run"

FAIL_AT="" study good
rc=$?
[ "$rc" = 0 ] && ok "a study whose runs answer succeeds" || bad "exit $rc: $(tail -3 "$t/good.log")"
[ -s "$t/good.tsv" ] && [ "$(grep -c '^1	' "$t/good.tsv")" = 2 ] && ok "its table has both cells" ||
	bad "its table: $(cat "$t/good.tsv" 2>/dev/null)"

echo "co_design_test: $pass passed, $fail failed"
[ "$fail" = 0 ]
