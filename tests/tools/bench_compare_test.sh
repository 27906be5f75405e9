#!/usr/bin/env bash
# bench_compare_test.sh - tools/bench_compare.sh (make bench's report) on fixture records.
#
# usage: tests/tools/bench_compare_test.sh
# Checks: with no earlier record it says so and keeps the record; a later record of the
# same machine whose lockstep rate fell 20% is reported FELL, one that fell 5% is not; a
# record of another machine (other host) is never compared with; a record without a
# machine and a file that is not JSON are errors naming the file (exit 2, nothing kept);
# the exit status is 0 when figures fell (a report, not a test).
# Prints one line per check and "bench_compare_test: N passed, M failed"; exit 1 on any failure.
set -u
case "${1:-}" in -h | --help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 2
bc=tools/bench_compare.sh
pass=0 fail=0
ok() { echo "  ok: $*"; pass=$((pass + 1)); }
bad() { echo "  FAILED: $*" >&2; fail=$((fail + 1)); }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
H=$t/history

rec() {	# FILE DATE HOST LOCKSTEP MODEL
	cat >"$1" <<JSON
{"version": "x", "schema": 1, "commit": "c-$2", "date": "$2",
 "machine": {"cpu_model": "Test CPU", "cores": 2, "host": "$3"},
 "lockstep_commands_per_s": $4, "model_commands_per_s": $5,
 "per_cpu_second": {"lockstep_commands": $4, "model_commands": $5}}
JSON
}

rec "$t/a.json" 2026-01-01T00:00:00Z vm 100000 4000000
out=$($bc "$t/a.json" "$H" 2>&1); rc=$?
[ $rc = 0 ] && [[ $out == *"no earlier record of this machine"* ]] && ok "the first record: nothing to compare" || bad "first record: rc $rc: $out"
[ "$(ls "$H" | wc -l)" = 1 ] && ok "the record is kept in the history" || bad "history: $(ls "$H")"

rec "$t/b.json" 2026-01-02T00:00:00Z vm 80000 3900000
out=$($bc "$t/b.json" "$H" 2>&1); rc=$?
[ $rc = 0 ] && ok "exit 0 when a figure fell (a report)" || bad "exit $rc"
grep -q '^  lockstep_commands_per_s .*-20.0%  FELL$' <<<"$out" && ok "a 20% fall is FELL" || bad "20% fall: $out"
grep -q '^  model_commands_per_s .*-2.5%$' <<<"$out" && ok "a 2.5% fall is not marked" || bad "2.5% fall: $out"
grep -q 'c-2026-01-01T00:00:00Z' <<<"$out" && ok "it names the record it compared with" || bad "which record: $out"
grep -q '^bench: 2 figures fell by more than 10%' <<<"$out" && ok "the count of falls (rate and its per CPU second)" || bad "count: $out"

rec "$t/c.json" 2026-01-03T00:00:00Z otherhost 10 10
out=$($bc "$t/c.json" "$H" 2>&1)
[[ $out == *"no earlier record of this machine"* ]] && ok "another machine's records are not compared with" || bad "other machine: $out"

rec "$t/d.json" 2026-01-04T00:00:00Z vm 84000 3900000
out=$($bc "$t/d.json" "$H" 2>&1)
grep -q 'c-2026-01-02T00:00:00Z' <<<"$out" && ok "the newest earlier record of the machine is the one compared with" || bad "newest: $out"
grep -q '  FELL$' <<<"$out" && bad "5% rise marked: $out" || ok "a rise is not marked"

n=$(ls "$H" | wc -l)
echo '{"date": "2026-01-05T00:00:00Z", "commit": "x"}' >"$t/e.json"
out=$($bc "$t/e.json" "$H" 2>&1); rc=$?
[ $rc = 2 ] && [[ $out == *"$t/e.json: no \"machine\""* ]] && ok "a record without machine: exit 2 naming it" || bad "no machine: rc $rc: $out"
echo 'not json' >"$t/f.json"
out=$($bc "$t/f.json" "$H" 2>&1); rc=$?
[ $rc = 2 ] && [[ $out == *"$t/f.json: not a readable JSON record"* ]] && ok "not JSON: exit 2 naming it" || bad "not json: rc $rc: $out"
[ "$(ls "$H" | wc -l)" = "$n" ] && ok "a bad record is not kept" || bad "history grew: $(ls "$H")"
ls -a "$H" | grep -q '^\.record\.' && bad "a temporary file was left" || ok "no temporary file left"
$bc --help | grep -q 'usage: tools/bench_compare.sh RECORD' && ok "--help" || bad "--help"

echo "bench_compare_test: $pass passed, $fail failed"
[ "$fail" = 0 ]
