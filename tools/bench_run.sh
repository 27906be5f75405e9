#!/usr/bin/env bash
# bench_run.sh - make bench's machine-run figure: `hwsched run` of hackbench (4 groups,
# 8 CPUs) on the rtl backend against the model backend, CPU seconds each, into make
# bench's record (docs/accelerator.md, "Simulation speed"; the goal: rtl at most 3x the
# model).
#
# usage: tools/bench_run.sh RECORD [HWSCHED]
#   RECORD   make bench's JSON record (build/bench/engine.json): gains "machine_run"
#   HWSCHED  the executable (default build/hwsched)
# Environment: BENCH_RUN_LOOPS, hackbench's loops (default 200: about a second on the
# model), BENCH_RUN_REPEATS, runs of each backend, the least CPU time kept (default 3).
#
# Both runs must give the same report apart from the backend's name (the engine's
# answers are bit-exact); a difference stops it with exit 1 and the diff. The record is
# rewritten through a temporary file.
set -euo pipefail
case "${1:-}" in -h | --help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
die() { echo "bench_run: $*" >&2; exit 2; }
[ $# -ge 1 ] && [ $# -le 2 ] || die "usage: tools/bench_run.sh RECORD [HWSCHED]"
rec=$1
hw=${2:-build/hwsched}
loops=${BENCH_RUN_LOOPS:-200}
reps=${BENCH_RUN_REPEATS:-3}
case $loops in '' | *[!0-9]*) loops=x ;; esac
[ "$loops" != x ] && [ ${#loops} -le 6 ] && [ "$loops" -ge 1 ] ||
	die "BENCH_RUN_LOOPS must be a whole number 1..999999, got '${BENCH_RUN_LOOPS:-}'"
case $reps in '' | *[!0-9]*) reps=x ;; esac
[ "$reps" != x ] && [ ${#reps} -le 2 ] && [ "$reps" -ge 1 ] ||
	die "BENCH_RUN_REPEATS must be a whole number 1..99, got '${BENCH_RUN_REPEATS:-}'"
[ -f "$rec" ] || die "no record $rec (make bench writes it first)"
[ -x "$hw" ] || die "$hw is not built (make)"
t=$(mktemp -d)
tmp=
trap 'rm -rf "$t"; [ -z "$tmp" ] || rm -f "$tmp"' EXIT
workload="hackbench:groups=4,loops=$loops"
topo="pkg=1,core=8,smt=1"
for b in model rtl; do
	best=
	for ((i = 0; i < reps; i++)); do
		/usr/bin/time -f '%U %S' -o "$t/time" "$hw" run --workload "$workload" --topology "$topo" \
			--backend "$b" --no-build >"$t/$b.out" 2>"$t/$b.err" ||
			{ cat "$t/$b.err" >&2; die "hwsched run --backend $b failed"; }
		s=$(awk 'END { printf "%.3f", $1 + $2 }' "$t/time")
		best=$(awk -v a="$s" -v b="${best:-}" 'BEGIN { print (b == "" || a < b) ? a : b }')
	done
	echo "$best" >"$t/$b.cpu"
	echo "bench_run: $workload on $topo, backend $b: $best CPU s (least of $reps)"
done
if ! diff <(sed 's/, backend [a-z]*, /, backend B, /' "$t/model.out") \
	<(sed 's/, backend [a-z]*, /, backend B, /' "$t/rtl.out") >"$t/diff"; then
	cat "$t/diff" >&2
	echo "bench_run: the rtl backend's report differs from the model's" >&2
	exit 1
fi
cycles=$(sed -n 's/^engine: .* \([0-9][0-9]*\) cycles.*/\1/p' "$t/rtl.out")
tmp=$(mktemp "$(dirname "$rec")/.engine.json.XXXXXX")
python3 - "$rec" "$tmp" "$(cat "$t/model.cpu")" "$(cat "$t/rtl.cpu")" "$workload" "$topo" "${cycles:-0}" <<'PY'
import json, sys
rec, tmp, m, r, w, topo, cycles = sys.argv[1:8]
d = json.load(open(rec))
m, r = float(m), float(r)
d["machine_run"] = {"workload": w, "topology": topo, "model_cpu_s": m, "rtl_cpu_s": r,
                    "rtl_over_model": round(r / m, 2) if m > 0 else None,
                    "engine_cycles": int(cycles), "goal_rtl_over_model": 3}
with open(tmp, "w") as f:
    json.dump(d, f, indent=2)
    f.write("\n")
PY
[ -s "$tmp" ] || { rm -f "$tmp"; die "could not rewrite $rec"; }
mv -f "$tmp" "$rec"
echo "bench_run: rtl / model = $(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['machine_run']['rtl_over_model'])" "$rec") (goal: at most 3)"
