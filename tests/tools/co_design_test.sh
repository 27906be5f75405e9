#!/usr/bin/env bash
# co_design_test.sh - results/co_design.sh (make vp-study) with stand-in executables.
#
# usage: tests/tools/co_design_test.sh
# Checks: a VP run that fails stops the study with exit 1, names the run, and writes no
# table (a failed run inside a command substitution once left zeros in the table); a study
# whose runs all answer writes its table, through the stand-in's JSON; LEAN=1 runs the
# engine's runs with --bal-lean (and the fast unit's columns without), a LEAN other than 0
# or 1 is refused naming it. Nothing is written under docs/ (SVG and TSV are sent to a
# temporary folder).
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
# figures co_design.sh reads to the path after --json: the simulated time its --duration
# asks for, and an overhead of 2 % under o1, 1.5 % under hw, 2.5 % under hw --bal-lean
# (so the steady-state overhead of each is that). Each run's arguments go to $ARGS_LOG.
mkdir -p "$t/bin"
cat >"$t/bin/hwsched" <<'SH'
#!/usr/bin/env bash
out="" ms=10 ov=2 prev=""
for a in "$@"; do
	[ -n "${FAIL_AT:-}" ] && [ "$a" = "$FAIL_AT" ] && exit 3
	[ "$prev" = --json ] && out=$a
	[ "$prev" = --duration ] && ms=${a%ms}
	[ "$prev" = --sched ] && [ "$a" = hw ] && ov=1.5
	[ "$a" = --bal-lean ] && ov=2.5
	prev=$a
done
[ -n "${ARGS_LOG:-}" ] && echo "$*" >>"$ARGS_LOG"
printf '{\n "sim_s": %s, "throughput": 1000,\n "sched_overhead_pct": %s,\n "rq_wait_ms": 0.2\n}\n' \
	"$(awk -v m="$ms" 'BEGIN { print m / 1000 }')" "$ov" >"$out"
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

# LEAN=1: the engine's runs with --bal-lean, the fast unit's columns from runs without.
ARGS_LOG=$t/lean.args LEAN=1 IFACE=new study lean
rc=$?
[ "$rc" = 0 ] && ok "LEAN=1 succeeds" || bad "LEAN=1: exit $rc: $(tail -3 "$t/lean.log")"
grep -q -- "--sched hw .*--bal-lean" "$t/lean.args" && grep -- "--sched hw" "$t/lean.args" | grep -qv -- --bal-lean &&
	! grep -- "--sched o1" "$t/lean.args" | grep -q -- --bal-lean &&
	ok "LEAN=1 runs hw with and without --bal-lean, o1 without" ||
	bad "LEAN=1's runs: $(sort -u "$t/lean.args" | head -5)"
# columns: 6 hw0 (lean), 7 its break-even, 11 lean at 100 ns, 12 fast at 0 ns, 13 fast at
# 100 ns, 14 the fast break-even: lean 2.5 % is above o1's 2 % from 0 ns, fast 1.5 % below
# it at every latency of the grid
row=$(awk -F'\t' 'NR == 2 { printf "%.1f %s %.1f %.1f %.1f %s", $6, $7, $11, $12, $13, $14 }' "$t/lean.tsv" 2>/dev/null)
[ "$row" = "2.5 none 2.5 1.5 1.5 >50" ] && ok "LEAN=1's columns: lean, then the fast unit's" ||
	bad "LEAN=1's first row: '$row', expected '2.5 none 2.5 1.5 1.5 >50'"
grep -q '"lean": 1, "ref_ns": 100' "$t/lean/record.json" && grep -q '"fast_breakeven_overhead_ns": ">50"' "$t/lean/record.json" &&
	ok "LEAN=1's record says lean and has the fast unit's figures" || bad "LEAN=1's record: $(head -c 600 "$t/lean/record.json")"
grep -q '^| 1 | 1 | 2.000 | 1.500 / 2.500 | 1.500 / 2.500 | >50 / none | yes / no | ' "$t/lean/compare.md" &&
	ok "LEAN=1's compare.md sets fast and lean side by side" || bad "LEAN=1's compare.md: $(cat "$t/lean/compare.md")"
LEAN=2 study badlean
rc=$?
[ "$rc" = 2 ] && grep -q "LEAN '2': expected 0" "$t/badlean.log" && ok "LEAN=2 is refused, naming it" ||
	bad "LEAN=2: exit $rc: $(cat "$t/badlean.log")"

echo "co_design_test: $pass passed, $fail failed"
[ "$fail" = 0 ]
