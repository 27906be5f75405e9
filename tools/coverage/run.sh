#!/usr/bin/env bash
# run.sh - make coverage's runs and report (docs/coverage.md).
#
# usage: tools/coverage/run.sh COVDIR SHAPE
#   COVDIR  build/coverage: shapes/SHAPE/libhws_shape.so (the Verilated coverage variant),
#           bin/ (hws_core_tests, hws_engine_tests and hwsched over C built with --coverage),
#           obj/ (their objects, where gcov's counts land)
#   SHAPE   the shape measured (the default, 8x256x16g16)
# Writes COVDIR/rtl/ (the instances' .dat files, merged.dat, rtl.info, annotated/),
# COVDIR/c.info, COVDIR/html/{rtl,c}/index.html and COVDIR/report.txt (the table).
# Environment: HWS_SEED (the seed of the random runs, default 1); COV_COMMANDS (commands of
# each hwsched lockstep run, default 200000).
# Exit status: 0 when the goals are met, 1 when a run failed or a goal is missed.
set -euo pipefail
[ $# = 2 ] || { echo "usage: tools/coverage/run.sh COVDIR SHAPE" >&2; exit 2; }
cov=$1 shape=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
seed=${HWS_SEED:-1}
full_commands=200000	# each lockstep run of the full measurement (docs/coverage.md)
commands=${COV_COMMANDS:-$full_commands}
[ -s "$cov/shapes/$shape/libhws_shape.so" ] || { echo "coverage: no coverage shape $cov/shapes/$shape (make coverage builds it)" >&2; exit 2; }

rtl=$cov/rtl
rm -rf "$rtl" "$cov/html" "$cov/c.info" "$cov/logs"
mkdir -p "$rtl/dat" "$cov/logs"
find "$cov/obj" -name '*.gcda' -delete
export HWS_SHAPES=$cov/shapes HWS_COVERAGE_DIR=$root/$rtl/dat
# Shapes other than the one measured: taken from the ordinary cache (linked, not copied),
# so that a test needing one does not build it into this cache.
for d in "$root"/build/shapes/*/; do
	[ -d "$d" ] || continue	# no shapes built: the pattern itself
	k=$(basename "$d")
	[ "$k" = "$shape" ] || [ -e "$cov/shapes/$k" ] || ln -s "$d" "$cov/shapes/$k"
done

t0=$(date +%s)
step() { # NAME COMMAND...: run, log to logs/NAME.txt, stop on failure
	local name=$1 s
	shift
	s=$(date +%s)
	if ! "$@" >"$cov/logs/$name.txt" 2>&1; then
		tail -30 "$cov/logs/$name.txt" >&2
		echo "coverage: run '$name' failed (log $cov/logs/$name.txt): $*" >&2
		exit 1
	fi
	echo "coverage: $name: $(($(date +%s) - s)) s"
}

# 1. The C layers' own tests (lib, models, driver over the model, firmware).
step core_tests "$cov/bin/hws_core_tests"
# 2. The engine's directed tests, the POP/PEEKW windows and posted writes, and the
#    preemption interrupt, each on every backend; the NR_PORTS ports (their shapes are not
#    measured: the C is), the lockstep tests and the AXI channel orders, on the measured
#    shape. Left out: the tests that open other shapes only (the lockstep sweep, the
#    channel orders at 2x16x4, BALANCE's latency over 1..64 CPUs and its quotients at
#    64x4096; the nb/ne variants): not measured, and each shape would have to be built
#    first.
step engine_tests "$cov/bin/hws_engine_tests" \
	--gtest_filter='Backends/Engine.*:Backends/Window.*:Backends/Irq.*:Ports.*:Lockstep.*:TransportLockstep.*:AxiOrder.*:-*LockstepSweep*:AxiOrder.LockstepWithRandomChannelOrdersAndBackPressure:*BalanceLatencyIsLogarithmicInTheCpus*:*BalanceQuotientsAreExactAtTheWidthLimits*'
# 3. Random command streams in lockstep (every opcode and error, predicted outcomes), at
#    the measured shape (the AXI channel orders are AxiOrder.*'s).
step lockstep_a "$cov/bin/hwsched" lockstep --seed "$seed" --commands "$commands"
step lockstep_b "$cov/bin/hwsched" lockstep --seed $((seed + 1)) --commands "$commands"
# 4. The schedulers on the simulated machine: the firmware over the engine (hw, in
#    lockstep) and over its software queues, and the other policies.
for s in hw o1 linux24 cfs eevdf; do
	b=""
	[ $s = hw ] && b="--backend lockstep"
	step "run_$s" "$cov/bin/hwsched" run --sched $s $b --seed "$seed" \
		--workload hackbench:groups=2,loops=5 --topology pkg=2,core=2,smt=2
done
echo "coverage: runs took $(($(date +%s) - t0)) s"

# RTL: merge the instances' counts, annotate, and the lcov form for genhtml.
n=$(find "$rtl/dat" -name '*.dat' | wc -l)
[ "$n" -gt 0 ] || { echo "coverage: no RTL coverage written (HWS_COVERAGE_DIR, $cov/shapes/$shape)" >&2; exit 1; }
find "$rtl/dat" -name '*.dat' -print0 | xargs -0 verilator_coverage --write "$rtl/merged.dat" >/dev/null
verilator_coverage --annotate "$rtl/annotated" --annotate-min 1 "$rtl/merged.dat" >/dev/null
echo "coverage: RTL: $n instances merged into $rtl/merged.dat"

# C: the counts of the instrumented objects, the four measured folders only.
lcov -q --capture --directory "$cov/obj" --base-directory "$root" --output-file "$cov/c-all.info" 2>/dev/null
lcov -q --extract "$cov/c-all.info" "$root/lib/*" "$root/models/*" "$root/driver/*" "$root/firmware/*" \
	--output-file "$cov/c.info" 2>/dev/null

# The table (and the RTL's lcov file with the excluded lines left out), then the HTML.
python3 tools/coverage/report.py --rtl "$rtl/merged.dat" --rtl-info "$rtl/rtl.info" \
	--exclude tools/coverage/exclude.list \
	--c "$cov/c.info" --root "$root" | tee "$cov/report.txt"
rc=${PIPESTATUS[0]}
# The record (tools/record.sh): report.txt's rows as JSON, COVDIR/record.json through a
# temporary file. Fewer lockstep commands than the full measurement is a small run.
. "$root/tools/record.sh"
scope=
[ "$commands" -ge "$full_commands" ] || scope="COV_COMMANDS=$commands (the full measurement: $full_commands)"
{
	printf '{\n'
	record_head "${COV_RECORD_COMMAND:-make coverage}" "$scope"
	printf '  "seed": %s, "commands": %s, "exit": %s,\n' "$seed" "$commands" "$rc"
	python3 - "$cov/report.txt" <<'PY'
import json, re, sys
rows, goals = [], None
for l in open(sys.argv[1]):
    m = re.match(r"(rtl \S+|RTL, all modules|C \S+/|C, all folders)\s+(\d+)/(\d+)\s+([\d.]+)\s+([\d.]+)(?:\s+(\d+)/(\d+)\s+([\d.]+))?\s*$", l)
    if m:
        r = {"name": m.group(1), "lines_hit": int(m.group(2)), "lines": int(m.group(3)),
             "lines_pct": float(m.group(4)), "goal_pct": float(m.group(5))}
        if m.group(6):
            r.update(toggles_hit=int(m.group(6)), toggles=int(m.group(7)), toggles_pct=float(m.group(8)))
        rows.append(r)
    elif l.startswith("goals "):
        goals = l.strip()
print('  "goals": %s,\n  "goals_met": %s,\n  "rows": [\n    %s\n  ]\n}' % (
    json.dumps(goals), "true" if goals and goals.startswith("goals met") else "false",
    ",\n    ".join(json.dumps(r) for r in rows)))
PY
} >"$cov/record.json.tmp" && mv "$cov/record.json.tmp" "$cov/record.json" && echo "coverage: wrote $cov/record.json"
genhtml -q --output-directory "$cov/html/c" --title "hwsched C (lib, models, driver, firmware)" \
	"$cov/c.info" >/dev/null 2>&1 || echo "coverage: genhtml (C) failed" >&2
genhtml -q --output-directory "$cov/html/rtl" --title "hwsched RTL ($shape)" \
	"$rtl/rtl.info" >/dev/null 2>&1 || echo "coverage: genhtml (RTL) failed" >&2
echo "coverage: HTML $cov/html/rtl/index.html, $cov/html/c/index.html; annotated RTL $rtl/annotated/"
exit "$rc"
