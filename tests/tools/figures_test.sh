#!/usr/bin/env bash
# figures_test.sh - tools/figures.sh (make figures, --check) and tools/record.sh on fixture
# records (make test).
#
# usage: tests/tools/figures_test.sh
# Builds a fixture tree (README.md and every doc of tools/figures.sh --list, text around
# each table's markers; records/ with fixture records, among them a small run) and checks:
# the tables rendered from the records (values, captions, a small run said to be one, a
# missing record's "Not measured", no commit printed); text outside the markers untouched
# byte for byte, the file's mode kept, no temporary file left, a second run changing
# nothing; --check passing on current tables with no build/ at all, failing (1) naming the
# file and table when a table was edited or a record changed, writing nothing; a record
# newer in build/ copied into records/ and rendered, an older one or a small run over a
# full one not; a malformed record in build/ or records/ an error (2) naming the file, every
# doc untouched; a missing, doubled or unknown marker an error naming the file and table;
# every row of the profile, fuzz, seed study and board tables (no row dropped or doubled),
# each experiment's verdict line; tools/fuzz_record.sh's record from libFuzzer logs;
# record_head's header valid JSON with every key, and a small run's "full": false and
# "scope"; and that the repository's own tables are current (tools/figures.sh --check).
# Prints one line per check and "figures_test: N passed, M failed"; exit 1 on any failure.
set -u
case "${1:-}" in -h | --help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 2
fig=$root/tools/figures.sh
pass=0 fail=0
ok() { echo "  ok: $*"; pass=$((pass + 1)); }
bad() { echo "  FAILED: $*" >&2; fail=$((fail + 1)); }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
T=$t/tree
mkdir -p "$T/docs" "$T/records"

# ---- the fixture tree: every file of --list, text before, between and after its tables
head_text='# A page

Some text before the tables | with a bar.'
tail_text='Text after the tables.
No newline at the end'
$fig --list >"$t/list" || { echo "figures_test: tools/figures.sh --list failed" >&2; exit 1; }
[ -s "$t/list" ] && ok "--list names $(wc -l <"$t/list") tables" || bad "--list printed nothing"
for f in $(awk '{ print $2 }' "$t/list" | sort -u); do
	{
		printf '%s\n' "$head_text"
		awk -v f="$f" '$2 == f { print "\n<!-- figures:" $1 ":begin -->\n| old | table |\n<!-- figures:" $1 ":end -->\nbetween " $1 }' "$t/list"
		printf '\n%s' "$tail_text"
	} >"$T/$f"
done
chmod 640 "$T/README.md"

cat >"$T/records/replay-check.json" <<'EOF'
{
  "version": "fixture-commit-1", "schema": 1,
  "commit": "fixture-commit-1",
  "command": "make replay-check",
  "machine": {"cpu_model": "Fixture CPU", "cores": 2, "host": "h"},
  "date": "2026-01-02T03:04:05Z", "full": true,
  "sched": "eevdf", "goals_met": 3, "goals": 4, "goals_met_not_calibration": 1, "goals_not_calibration": 2,
  "figures": [
    {"trace": "a", "calibration": true, "holdout": false, "figure": "makespan_ms", "linux": 100, "replay": 104, "error_pct": 4.0, "tolerance_pct": 5, "abs_below_10": false, "pass": true},
    {"trace": "a", "calibration": true, "holdout": false, "figure": "p50", "linux": 10, "replay": 12.5, "error_pct": 25.0, "tolerance_pct": 25, "abs_below_10": false, "pass": true},
    {"trace": "b", "calibration": false, "holdout": true, "figure": "makespan_ms", "linux": 200, "replay": 230, "error_pct": 15.0, "tolerance_pct": 5, "abs_below_10": false, "pass": false},
    {"trace": "b", "calibration": false, "holdout": true, "figure": "p50", "linux": 20, "replay": 21, "error_pct": 5.0, "tolerance_pct": 25, "abs_below_10": false, "pass": true}
  ]
}
EOF
cat >"$T/records/results.json" <<'EOF'
{
  "commit": "fixture-commit-2-dirty", "command": "make results", "machine": "Linux x86_64 2 CPUs",
  "date": "2026-02-03T04:05:06Z", "seeds": [1,2,3],
  "points": [{"exp": "exp1", "point": "tbench 64", "kernel": "o1", "published": 108.23, "ours": 109.8, "error_pct": 1.45, "hw": 109.6, "hw_error_pct": 1.27},
             {"exp": "exp2", "point": "volano 4", "kernel": "2.4.4", "published": 19748, "ours": 48010, "error_pct": 143.1},
             {"exp": "exp3", "point": "dbench 8", "kernel": "w25", "published": 473.1, "ours": 475.1, "error_pct": 0.4},
             {"exp": "exp4", "point": "sysbench 128", "kernel": "cfs", "published": 2606, "ours": 3260, "error_pct": 25.1},
             {"exp": "exp4", "point": "sysbench 64", "kernel": "cfs", "published": 2981.78, "ours": 3300, "error_pct": -25.0}],
  "points_within_25pct": 1, "points_total": 2,
  "ratio_goals": [
    {"goal": "exp1 a", "bound": ">= 1", "ours": 1.2, "met": true},
    {"goal": "exp1 b", "bound": ">= 1", "ours": 0.8, "met": false},
    {"goal": "exp5 c", "bound": ">= 1", "ours": null, "met": null}
  ],
  "sections": {"exp1": ["| scheduler | 64 procs |", "|---|---|", "| ours o1 | 109.8 \u00b1 1.3 |"],
               "exp2": ["x"], "exp3": ["dbench, MB/s:", "", "| a | b |"], "exp4": ["x"], "exp5": ["x"],
               "calibration": ["| experiment | work |", "|---|---|", "| exp1 | 3.42771 |"],
               "contention": ["Each row: ..."]}
}
EOF
cat >"$T/records/bench.json" <<'EOF'
{
  "version": "fixture-commit-3", "schema": 1, "commit": "fixture-commit-3",
  "date": "2026-03-04T05:06:07Z", "command": "hws_bench --json x",
  "machine": {"cpu_model": "Fixture CPU", "cores": 2, "host": "h"},
  "load_average": [0.52, 1.25],
  "occupancy": [1, 16, 255],
  "latency_cycles": {"NOP": [1, 1, 1], "PICK_NEXT_NONE": [4, 4, 4]},
  "issue_interval_cycles": {"NOP": [2.0, 2.0, 2.0]},
  "lockstep_commands_per_s": 1234567, "rtl_commands_per_s": 140000, "rtl_sim_cycles_per_s": 880000,
  "rtl_idle_cycles_per_s": 1100000, "model_commands_per_s": 23456789.4,
  "machine_run": {"workload": "hackbench:groups=4,loops=7", "topology": "pkg=1,core=8,smt=1", "model_cpu_s": 0.5,
                  "rtl_cpu_s": 4.25, "rtl_over_model": 8.5, "engine_cycles": 1000, "goal_rtl_over_model": 3},
  "per_cpu_second": {"lockstep_commands": 1300000, "rtl_commands": 150000, "rtl_sim_cycles": 900000,
                     "rtl_idle_cycles": 1200000, "model_commands": 24000000},
  "balance_cycles_per_query": {"4": 12, "8": 14, "16": 16, "64": 20},
  "balance_cycles_flat": {"4": 12, "8": 14, "16": 16, "64": 20},
  "balance_cycles_rtl": {"8": 14, "64": 20},
  "balance_issue_interval_cycles": {"4": 12.5, "8": 14.5, "16": 16.5, "64": 20.5},
  "sustained_commands_per_cycle": {"1": 0.444, "2": 0.888, "4": 0.968},
  "pipe0_independent_sustained_commands_per_cycle": {"1": 0.444, "2": 0.485, "4": 0.5},
  "pipe0_mixed_sustained_commands_per_cycle": {"1": 0.235, "2": 0.27, "4": 0.27},
  "pipe1_model_mixed_sustained_commands_per_cycle": {"1": 0.235, "2": 0.275, "4": 0.281}
}
EOF
cat >"$T/records/synth.json" <<'EOF'
{
  "version": "fixture-commit-1", "schema": 1, "commit": "fixture-commit-1-dirty",
  "command": "make synth SYNTH_CONFIGS=8x256nbneni SYNTH_FAMILIES=ice40",
  "machine": {"cpu_model": "Fixture CPU", "cores": 2, "host": "h"}, "date": "2026-05-06T07:08:09Z", "full": true,
  "results": [
    {"family": "ice40", "nr_cpus": 8, "nr_tasks": 256, "lcu_balance": 0, "err_counters": 0, "irq": 0, "status": "ok",
     "luts": 6255, "ffs": 4000, "brams": 27, "carries": 900, "lut_levels": 20,
     "pnr": {"hx8k": {"device": "hx8k", "status": "ok", "lc_used": 7412, "lc_avail": 7680, "fmax_mhz": 60.61, "target_mhz": 60, "seed": 1},
             "up5k": {"device": "up5k", "status": "skipped", "fmax_mhz": null}}}
  ]
}
EOF
cat >"$T/records/soak.json" <<'EOF'
{
  "version": "fixture-commit-1", "schema": 1, "commit": "fixture-commit-1", "command": "make soak SOAK_COMMANDS=1000",
  "machine": {"cpu_model": "Fixture CPU", "cores": 2, "host": "h"}, "date": "2026-06-07T08:09:10Z",
  "full": false, "scope": "1000 commands on 8x256 and 10 on 64x4096",
  "resets_rate": 0.02, "jobs_at_a_time": 2, "wall_s": 3, "stopped_early": false,
  "runs": [{"shape": "8x256", "seed": 1, "commands": 1000, "mismatches": 0, "resets": 4, "wall_s": 1, "exit": 0},
           {"shape": "64x4096", "seed": 100001, "commands": 10, "mismatches": 0, "resets": 0, "wall_s": 1, "exit": 0}],
  "totals": {"default": {"shape": "8x256", "jobs": 1, "commands": 1000, "mismatches": 0, "resets": 4},
             "big": {"shape": "64x4096", "jobs": 1, "commands": 10, "mismatches": 0, "resets": 0}},
  "failed_jobs": 0
}
EOF
for v in old:1.075:0.883:21 old-modern:1.220:0.883:37; do
	IFS=: read -r name o1 hw be <<<"$v"
	printf '{"date": "2026-06-01T00:00:00Z", "command": "make vp-study", "machine": "m", "cells": [
  {"cpus": 8, "rq": 1, "tasks": 8, "o1_throughput_seed_spread_pct": 3.4, "o1_overhead_pct": %s, "hw0_overhead_pct": %s,
   "breakeven_overhead_ns": %s, "o1_throughput": 57200, "hw0_throughput": 57500, "breakeven_throughput_ns": "174*"}]}\n' \
		"$o1" "$hw" "$be" >"$T/records/vp-study-$name.json"
done
# LEAN=1: the lean unit's figures under the study's names, the fast unit's as fast_*; at
# 100 ns fast is below o1 (pays) and lean above it
printf '{"date": "2026-06-01T00:00:00Z", "command": "make vp-study-lean", "machine": "m", "lean": 1, "ref_ns": 100, "cells": [
  {"cpus": 8, "rq": 1, "tasks": 8, "o1_throughput_seed_spread_pct": 3.4, "o1_overhead_pct": 1.075, "hw0_overhead_pct": 1.5,
   "breakeven_overhead_ns": "none", "o1_throughput": 57200, "hw0_throughput": 57000, "breakeven_throughput_ns": "none*",
   "hw100_overhead_pct": 2.25, "fast_hw0_overhead_pct": 0.768, "fast_hw100_overhead_pct": 0.9, "fast_breakeven_overhead_ns": 108}]}\n' \
	>"$T/records/vp-study-lean.json"
cat >"$T/records/profile.json" <<'EOF'
{"version": "fixture-commit-1", "schema": 1, "commit": "fixture-commit-1", "command": "make profile",
 "machine": {"cpu_model": "Fixture CPU", "cores": 2, "host": "h"}, "date": "2026-06-08T00:00:00Z", "full": true,
 "run": "hwsched lockstep --commands 200k --seed 42 --quiet", "load_average": [0.5, 1.25], "samples": "3K",
 "parts_pct": {"rtl_sequential": 80.9, "rtl_combinational": 6.4, "rtl_other": 3.3, "harness": 2.4, "model": 3.3,
               "stimulus": 1.1, "lockstep_compare": 0.1, "other": 2.5}, "top": []}
EOF
cat >"$T/records/profile-rtl.json" <<'EOF'
{"version": "fixture-commit-1", "schema": 1, "commit": "fixture-commit-1", "command": "make profile-rtl",
 "machine": {"cpu_model": "Fixture CPU", "cores": 2, "host": "h"}, "date": "2026-06-08T00:00:00Z", "full": true,
 "run": "hwsched lockstep --backend rtl --commands 20k --seed 42", "edges": 130402, "instructions": 2000000000,
 "rtl_instructions_per_edge": 10000.0,
 "parts": {"(scheduling)": 2500.0, "hws_eng_bitmap": 1500.4, "(rest)": 390.0, "hws_flags": 80.0, "hws_fifo": 5919.6},
 "top_blocks": {"hws_eng_bitmap:126": 706.1, "hws_top:328": 480.0}}
EOF
cat >"$T/records/fuzz.json" <<'EOF'
{"version": "fixture-commit-1", "schema": 1, "commit": "fixture-commit-1", "command": "make fuzz FUZZ_TIME=60",
 "machine": {"cpu_model": "Fixture CPU", "cores": 2, "host": "h"}, "date": "2026-06-09T00:00:00Z",
 "full": false, "scope": "60 s a target (make fuzz's default: 180)",
 "fuzz_time_s": 60, "fuzz_runs": null, "goal_executions": 10000000,
 "targets": [
  {"target": "fuzz_trace", "exit": 0, "seconds": 61, "executions": 123456, "executions_per_s": 2023, "new_inputs": 7,
   "peak_rss_mb": 90, "coverage": 1500, "features": 4000, "corpus": 321, "finding": null},
  {"target": "fuzz_parse", "exit": 0, "seconds": 60, "executions": 12000000, "executions_per_s": 200000, "new_inputs": 0,
   "peak_rss_mb": 60, "coverage": 900, "features": 2000, "corpus": 150, "finding": null},
  {"target": "fuzz_regs", "exit": 1, "seconds": 12, "executions": 4567, "executions_per_s": 380, "new_inputs": 3,
   "peak_rss_mb": 120, "coverage": null, "features": null, "corpus": null,
   "finding": {"error": "==1==ERROR: AddressSanitizer: heap-buffer-overflow", "input": "build/fuzz/artifacts/regs/crash-1"}}]}
EOF
cat >"$T/records/synth-seeds.json" <<'EOF'
{"version": "fixture-commit-1", "schema": 1, "commit": "fixture-commit-1", "command": "make synth-seeds",
 "machine": {"cpu_model": "Fixture CPU", "cores": 2, "host": "h"}, "date": "2026-06-10T00:00:00Z", "full": true,
 "luts": 6255, "brams": 27, "yosys": null, "target_mhz": 60, "timing_weight": 20,
 "family": "ice40", "config": "8x256nbneni", "device": "hx8k",
 "seeds": [
  {"seed": 1, "status": "ok", "fmax_mhz": 60.61, "icetime_mhz": 61.35, "lc_used": 7412, "lc_avail": 7680, "critical_path_split": "4.2 ns logic, 12.3 ns routing", "seconds": 2580.3},
  {"seed": 2, "status": "ok", "fmax_mhz": 61.9, "icetime_mhz": null, "lc_used": 7412, "lc_avail": 7680, "critical_path_split": "", "seconds": 2400},
  {"seed": 3, "status": "ok", "fmax_mhz": 59.16, "icetime_mhz": 59.0, "lc_used": 7412, "lc_avail": 7680, "critical_path_split": "", "seconds": 2500},
  {"seed": 4, "status": "failed", "fmax_mhz": null, "icetime_mhz": null, "lc_used": null, "lc_avail": null, "critical_path_split": "", "seconds": 3600}],
 "median_mhz": 60.61, "seeds_at_target": 2}
EOF
cat >"$T/records/synth-seeds-lean.json" <<'EOF'
{"version": "fixture-commit-1", "schema": 1, "commit": "fixture-commit-1", "command": "make synth-seeds-lean",
 "machine": {"cpu_model": "Fixture CPU", "cores": 2, "host": "h"}, "date": "2026-06-10T00:00:00Z", "full": true,
 "luts": 5966, "brams": 27, "yosys": null, "target_mhz": 40, "timing_weight": 20,
 "family": "ice40", "config": "4x256neniln", "device": "hx8k",
 "seeds": [
  {"seed": 2, "status": "failed", "fmax_mhz": null, "icetime_mhz": null, "lc_used": null, "lc_avail": null, "critical_path_split": "", "seconds": 60},
  {"seed": 3, "status": "ok", "fmax_mhz": 41.5, "icetime_mhz": 41.0, "lc_used": 7534, "lc_avail": 7680, "critical_path_split": "", "seconds": 150},
  {"seed": 5, "status": "ok", "fmax_mhz": 38.25, "icetime_mhz": 38.0, "lc_used": 7534, "lc_avail": 7680, "critical_path_split": "", "seconds": 160}],
 "median_mhz": 39.88, "seeds_at_target": 1}
EOF
cat >"$T/records/board.json" <<'EOF'
{"version": "fixture-commit-1", "schema": 1, "commit": "fixture-commit-1", "command": "make bench-board",
 "machine": {"cpu_model": "Fixture CPU", "cores": 2, "host": "h"}, "date": "2026-06-11T00:00:00Z", "full": true,
 "run": "hwsched lockstep --backend lockstep:uart:PTY --cpus 2 --commands 2000 --seed 1", "shape": "--cpus 2",
 "commands": 2000, "seed": 1, "frames": 4547, "reads": 2292, "writes": 2255,
 "bytes_to_board": 18122, "bytes_from_board": 13715, "frames_per_command": 2.274,
 "baud": 115200, "clk_hz": 12000000, "board_clocks": 32924233, "board_seconds": 2.743686,
 "commands_per_s": 729.0, "frames_per_s": 1657.2, "line_bound_seconds": 2.76, "line_bound_commands_per_s": 723.7,
 "frame_bound_per_s": 1645.7, "sync_command_bound_per_s": 822.9,
 "wall_seconds": 19.1, "wall_commands_per_s": 104.7, "sim_clocks_per_wall_s": 1723782}
EOF
cat >"$T/records/board-run.json" <<'EOF'
{"version": "fixture-commit-1", "schema": 1, "commit": "fixture-commit-1", "command": "make board-run",
 "machine": {"cpu_model": "Fixture CPU", "cores": 2, "host": "h"}, "date": "2026-06-12T00:00:00Z", "full": true,
 "workload": "hackbench:groups=1,loops=2", "seed": 1, "run_options": "--topology core=2",
 "compared_with_rtl": "equal but the lines matching ^engine: ",
 "runs": [
    {"command": "hwsched run", "baud": 115200, "clk_hz": 12000000, "engine_commands": 1234, "mmio_accesses": 2800, "frames": 2806,
     "reads": 1400, "writes": 1406, "bytes_to_board": 11000, "bytes_from_board": 8600, "bytes_per_command": 15.9,
     "board_clocks": 20000000, "board_seconds": 1.666667, "commands_per_s": 740.4, "frames_per_s": 1683.6,
     "line_bound_commands_per_s": 725.3, "wall_seconds": 12.5, "wall_commands_per_s": 98.7},
    {"command": "hwsched run", "baud": 1000000, "clk_hz": 12000000, "engine_commands": 1234, "mmio_accesses": 2800, "frames": 2806,
     "reads": 1400, "writes": 1406, "bytes_to_board": 11000, "bytes_from_board": 8600, "bytes_per_command": 15.9,
     "board_clocks": 2400000, "board_seconds": 0.2, "commands_per_s": 6170, "frames_per_s": 14030,
     "line_bound_commands_per_s": 6296.0, "wall_seconds": 3.25, "wall_commands_per_s": 379.7}]}
EOF
cp -r "$T/records" "$t/records0"
for f in $(awk '{ print $2 }' "$t/list" | sort -u); do cp "$T/$f" "$t/orig_$(basename "$f")"; done

# tab NAME: the lines of table NAME in its file
tab() {
	local f
	f=$(awk -v n="$1" '$1 == n { print $2 }' "$t/list")
	sed -n "/^<!-- figures:$1:begin -->\$/,/^<!-- figures:$1:end -->\$/p" "$T/$f"
}
has() { # CHECK TABLE TEXT: table TABLE contains TEXT
	case $(tab "$2") in *"$3"*) ok "$1" ;; *) bad "$1: table $2 is [$(tab "$2")], wanted '$3' in it" ;; esac
}
outside_ok() { # CHECK: every file's text outside the markers is what it was
	local f o
	for f in $(awk '{ print $2 }' "$t/list" | sort -u); do
		o=$t/orig_$(basename "$f")
		if ! cmp -s <(sed '/^<!-- figures:.*:begin -->$/,/^<!-- figures:.*:end -->$/d' "$T/$f") \
			<(sed '/^<!-- figures:.*:begin -->$/,/^<!-- figures:.*:end -->$/d' "$o"); then
			bad "$1: $f changed outside its markers: $(diff <(cat "$o") <(cat "$T/$f") | head -5)"
			return
		fi
	done
	ok "$1"
}

# ---- write every table (no build/ in the tree: nothing to refresh)
if out=$($fig --root "$T" 2>&1); then ok "writes the tables"; else bad "exit $?: $out"; fi
has "README: replay goals" current "| replay fidelity goals met, all traces | 3 of 4 | all 4 | \`records/replay-check.json\` | 2026-01-02 03:04 UTC |"
has "README: published points, dirty tree" current "| 1 of 2 | all 2 | \`records/results.json\` | 2026-02-03 04:05 UTC, dirty tree |"
has "README: ratio goals, null is not met" current "| ratio goals of the published results met | 1 of 3 | all 3 |"
has "README: commands per CPU second with the load" current "| 1,300,000 / 24,000,000 (load average 1.2) |"
has "README: HX8K Fmax and cells" current "| 60.61 MHz (nextpnr seed 1), 7,412 of 7,680 logic cells | 60 MHz, fits |"
has "README: the lean seed study, a seed failed" current "| HX8K build with the lean BALANCE (seed study): Fmax, cells | 4x256neniln: median 39.88 MHz over seeds 2, 3, 5 (1 of 3 at 40 MHz or more), 7,534 of 7,680 logic cells | median 40 MHz, fits | \`records/synth-seeds-lean.json\` | 2026-06-10 00:00 UTC |"
has "README: a missing record" current "| SVG timeline: rects a lane, worst case of tools/svg_size.sh | not measured: run \`tools/svg_size.sh\` | - | \`records/svg-size.json\` | - |"
has "caption: record, command, date, machine" bench-latency "From records/bench.json: \`hws_bench --json x\`, 2026-03-04 05:06 UTC, Fixture CPU, 2 cores."
has "bench latency row" bench-latency "| PICK_NEXT (NONE) | 4 / 4 / 4 | - |"
has "bench interval row" bench-latency "| NOP | 1 / 1 / 1 | 2.00 / 2.00 / 2.00 |"
has "bench sustained row" bench-sustained "| independent | \`PIPE = 1\`, 8x4096 | lockstep | \`sustained_commands_per_cycle\` | 0.444 | 0.888 | 0.968 |"
has "bench speed row" bench-speed "| lockstep, checked commands/s | 1,300,000 | 1,234,567 |"
has "bench balance row" bench-balance "| BALANCE cycles, RTL | - | 14 | - | 20 |"
has "synth: HX8K cells" synth-hx8k "| logic cells | 7,412 of 7,680 (97%) |"
has "synth: HX8K Fmax" synth-hx8k "| Fmax, nextpnr (goal 60 MHz) | 60.61 MHz |"
has "synth: HX8K rate with the bench's record" synth-hx8k "| M commands/s at that Fmax, mixed stream, one port (0.235 a cycle, records/bench.json) | 14.2 |"
has "synth: a dirty tree said" synth-hx8k "a tree with uncommitted changes"
has "synth: sweep row" synth-sweep "| ice40 | 8x256 (no BALANCE, no ERR_CNTn, no IRQ) | 6,255 | 4,000 | 27 | 900 | 20 | 60.6 | - | ok |"
has "replay: a miss in bold, roles" replay-check "| b (holdout) | **200 / 230 (+15%)** | 20 / 21 (+5%) | 1/2 |"
has "replay: calibration" replay-check "| a (calibration) | 100 / 104 (+4%) | 10 / 12.5 (+25%) | 2/2 |"
has "results: a point" results-points "| exp2 | volano 4 | 2.4.4 | 19748 | 4.801e+04 | +143.1% | **no** |"
has "results: the ratio goals" results-ratios "| exp5 c | >= 1 | n/a | n/a |"
has "results: exp1's verdict line" results-verdict-exp1 "Experiment 1: 1 of 1 published points within 25%; 1 of 2 ratio goals met (not: b)."
has "results: exp2's, a miss named" results-verdict-exp2 "Experiment 2: 0 of 1 published points within 25% (not: volano 4, 2.4.4)."
has "results: exp4's, 25% is within" results-verdict-exp4 "Experiment 4: 1 of 2 published points within 25% (not: sysbench 128, cfs)."
has "results: exp5's, a goal with no verdict is not met" results-verdict-exp5 "Experiment 5: 0 of 1 ratio goals met (not: c)."
[ "$(tab results-verdict-exp3 | grep -c '^Experiment')" = 1 ] && ok "results: one verdict line an experiment" || bad "results-verdict-exp3: $(tab results-verdict-exp3)"
has "results: an experiment's tables, as the record holds them" results-exp1 "| ours o1 | 109.8 ± 1.3 |"
has "results: the calibration table" results-calibration "| exp1 | 3.42771 |"
has "soak: a small run in the caption" soak "**A small run (1000 commands on 8x256 and 10 on 64x4096): not the full figure.**"
has "soak: totals" soak "| 8x256 | 1 | 1,000 | 0 | 4 |"
has "vp-study: one record's table" vp-study-old "| 8 | 1 | 1.075 | 0.883 | 21 | 57200 | 57500 | 3.4 | 174* |"
has "vp-study: two records side by side" vp-study-contention "| 8 | 1 | 1.075 / 1.220 | 0.883 / 0.883 | 0.192 / 0.337 | 43% | 21 / 37 | 174* / 174* |"
has "vp-study: the lean unit beside the fast one" vp-study-lean "| 8 | 1 | 1.075 | 0.768 / 1.500 | 0.900 / 2.250 | 108 / none | yes / no | none* |"
has "vp-study: the lean table's header" vp-study-lean "| hw @100 ns %: fast / lean | break-even (overhead) ns: fast / lean | pays at 100 ns: fast / lean |"
has "vp-study: the lean record missing" vp-study-lean-modern "Not measured: run \`make vp-study-lean\`"
has "vp-study: one of two records missing" vp-study-new "Not measured: run \`make vp-study-new\` (it writes records/vp-study-new.json"
has "a missing record: Not measured" formal "Not measured: run \`make formal\` (it writes records/formal.json for \`make figures\`)."
has "a missing record: Not measured (coverage)" coverage "Not measured: run \`make coverage\`"
# each row of the tables of make profile, fuzz, synth-seeds, bench-board and board-run, and
# no more rows than the record gives (a renderer that drops or doubles a row fails)
rows() { tab "$1" | grep -c '^| [^-]'; }
for r in "the Verilated RTL, sequential blocks (\`nba_sequent\`) | 80.9%" \
	"the Verilated RTL, combinational settling (\`ico_sequent\`) | 6.4%" \
	"the Verilated RTL, the rest of its evaluation | 3.3%" "the C model (\`edge\`, its reads and writes) | 3.3%" \
	"the harness's AXI master and bus timing | 2.4%" "the random stream and its predictions | 1.1%" \
	"the lockstep comparison | 0.1%" "other (libc, kernel) | 2.5%"; do
	has "profile row: ${r%% |*}" profile "| $r |"
done
[ "$(rows profile)" = 9 ] && ok "profile: 8 parts and the header" || bad "profile: $(rows profile) rows: $(tab profile)"
has "profile: the sums" profile "The RTL's evaluation: 90.6% together; the model, the stream and the comparison: 4.5% (3K samples of \`hwsched lockstep --commands 200k --seed 42 --quiet\`, load average before and after 0.50 / 1.25)."
for r in "all of the RTL's evaluation | 10,000 | 100%" "Verilator's scheduling between blocks | 2,500 | 25.0%" \
	"\`hws_eng_bitmap\` | 1,500 | 15.0%" "\`hws_flags\` | 80 | 0.8%" "\`hws_fifo\` | 5,920 | 59.2%"; do
	has "profile-rtl row: ${r%% |*}" profile-rtl "| $r |"
done
[ "$(rows profile-rtl)" = 6 ] && ok "profile-rtl: the total, 4 parts (not the rest) and the header" || bad "profile-rtl: $(rows profile-rtl) rows: $(tab profile-rtl)"
has "profile-rtl: edges and blocks" profile-rtl "130,402 clock edges of \`hwsched lockstep --backend rtl --commands 20k --seed 42\`; the costliest blocks (module:line): \`hws_eng_bitmap:126\` 706, \`hws_top:328\` 480."
has "bench-speed: the machine run" bench-speed "\`hwsched run --workload hackbench:groups=4,loops=7 --topology pkg=1,core=8,smt=1\`: 4.25 CPU s on the rtl backend, 0.50 on the model, 8.5x (goal: at most 3x)."
has "fuzz row: trace" fuzz "| fuzz_trace | 61 | 123,456 | 2,023 | 7 | 321 | 1500 | none |"
has "fuzz row: parse, over the goal" fuzz "| fuzz_parse | 60 | 12,000,000 | 200,000 | 0 | 150 | 900 | none |"
has "fuzz row: a finding in bold" fuzz "| fuzz_regs | 12 | 4,567 | 380 | 3 | - | - | **==1==ERROR: AddressSanitizer: heap-buffer-overflow** |"
[ "$(rows fuzz)" = 4 ] && ok "fuzz: 3 targets and the header" || bad "fuzz: $(rows fuzz) rows: $(tab fuzz)"
has "fuzz: the goal counted" fuzz "is met by 1 of 3 targets in this record."
has "fuzz: a small run said" fuzz "**A small run (60 s a target (make fuzz's default: 180)): not the full figure.**"
has "seeds row 1" synth-seeds "| 1 | ok | 60.61 | 61.35 | 7,412 of 7,680 | 4.2 ns logic, 12.3 ns routing | 2580 s |"
has "seeds row 2, no icetime" synth-seeds "| 2 | ok | 61.90 | - | 7,412 of 7,680 | - | 2400 s |"
has "seeds row 3" synth-seeds "| 3 | ok | 59.16 | 59.00 | 7,412 of 7,680 | - | 2500 s |"
has "seeds row 4, failed" synth-seeds "| 4 | failed | - | - | - | - | 3600 s |"
[ "$(rows synth-seeds)" = 5 ] && ok "seeds: 4 seeds and the header" || bad "seeds: $(rows synth-seeds) rows: $(tab synth-seeds)"
has "seeds: the median and the goal" synth-seeds "8x256nbneni, timing weight 20, goal 60 MHz: median of seeds 1, 2, 3, 4 60.61 MHz: meets the goal; 2 of 4 of the seeds at 60 MHz or more (6,255 LUT4, 27 BRAM)."
for r in "frames (reads + writes) | 4,547 (2,292 + 2,255): 2.27 frames per command" \
	"bytes to / from the board | 18,122 / 13,715" \
	"simulated board time | 32,924,233 clocks = 2.744 s at 12 MHz" \
	"**commands per second over the UART** | **729** (1,657 frames/s)" \
	"bound from the bytes (10 bit times each, 115200 baud) | 723.7 commands/s" \
	"bounds from the frame sizes: frames/s, synchronous commands/s | 1645.7, 822.9" \
	"wall clock (the simulation's own speed) | 19.1 s: 105 commands/s, 1.7 M simulated clocks/s"; do
	has "board row: ${r%% |*}" board "| $r |"
done
[ "$(rows board)" = 8 ] && ok "board: 7 rows and the header" || bad "board: $(rows board) rows: $(tab board)"
has "board-run row: 115200 baud" board-run "| 115,200 | 1,234 | 2,806 | 11,000 / 8,600 | 1.667 | **740** | 725 | 12.5 |"
has "board-run row: the fast simulator" board-run "| 1,000,000 | 1,234 | 2,806 | 11,000 / 8,600 | 0.200 | **6,170** | 6,296 | 3.2 |"
[ "$(rows board-run)" = 3 ] && ok "board-run: 2 runs and the header" || bad "board-run: $(rows board-run) rows: $(tab board-run)"
if grep -rq 'fixture-commit' "$T/README.md" "$T/docs"; then bad "a commit printed"; else ok "no commit printed"; fi
outside_ok "text outside the markers untouched"
[ "$(stat -c %a "$T/README.md")" = 640 ] && ok "the file's mode kept" || bad "mode $(stat -c %a "$T/README.md")"
ls -A "$T" "$T/docs" | grep -q '^\.' && bad "a temporary file left: $(ls -A "$T" "$T/docs")" || ok "no temporary file left"
cp -r "$T" "$t/first"
$fig --root "$T" >/dev/null 2>&1 && diff -r "$T" "$t/first" >/dev/null && ok "a second run changes nothing" ||
	bad "a second run changed the tree: $(diff -r "$t/first" "$T" | head -5)"

# ---- --check: no build/ at all, reads records/ only
[ ! -e "$T/build" ] || bad "the fixture tree has a build/"
if out=$($fig --check --root "$T" 2>&1); then ok "--check passes on current tables without build/"; else bad "--check: exit $?: $out"; fi
sed -i 's/^| PICK_NEXT (NONE) | 4 \/ 4 \/ 4 | - |$/| PICK_NEXT (NONE) | 3 \/ 3 \/ 3 | - |/' "$T/docs/accelerator.md"
out=$($fig --check --root "$T" 2>&1); rc=$?
[ $rc = 1 ] && ok "--check fails (1) on an edited table" || bad "--check after an edit: exit $rc: $out"
case $out in *"docs/accelerator.md: table 'bench-latency' is older than its records"*"3 / 3 / 3"*"4 / 4 / 4"*) ok "--check names the file, the table and the line" ;;
*) bad "--check did not name them: $out" ;; esac
[ "$(printf '%s\n' "$out" | grep -c "is older than its records")" = 1 ] && ok "--check names only that table" ||
	bad "--check named tables that did not change: $out"
cp "$t/first/docs/accelerator.md" "$T/docs/accelerator.md"
sed -i 's/"goals_met": 3,/"goals_met": 4,/' "$T/records/replay-check.json"
out=$($fig --check --root "$T" 2>&1); rc=$?
[ $rc = 1 ] && case $out in *"README.md: table 'current'"*) true ;; *) false ;; esac &&
	ok "--check fails when a record changed, naming README.md's table" || bad "--check after a record change: exit $rc: $out"
diff -r "$T/docs" "$t/first/docs" >/dev/null && cmp -s "$T/README.md" "$t/first/README.md" &&
	ok "--check writes nothing" || bad "--check changed a file"
$fig --root "$T" >/dev/null 2>&1
if out=$($fig --check --root "$T" 2>&1); then ok "--check passes after make figures"; else bad "exit $?: $out"; fi
has "the new value" current "| 4 of 4 | all 4 |"
outside_ok "text outside the markers untouched after regeneration"

# ---- build/: a newer record is copied into records/, an older one or a small run is not
mkdir -p "$T/build/bench" "$T/build/soak" "$T/build/formal"
sed 's/"date": "2026-03-04T05:06:07Z"/"date": "2026-03-05T00:00:00Z"/; s/"lockstep_commands": 1300000/"lockstep_commands": 7654321/' \
	"$T/records/bench.json" >"$T/build/bench/engine.json"
printf '{"commit": "c", "date": "2025-01-01T00:00:00Z", "full": true, "totals": {}}\n' >"$T/build/soak/summary.json"
cat >"$T/build/formal/record.json" <<'EOF'
{"version": "c", "schema": 1, "commit": "c", "command": "make formal-fast", "machine": {"cpu_model": "Fixture CPU", "cores": 2, "host": "h"},
 "date": "2026-07-01T00:00:00Z", "full": false, "scope": "the proofs of set fast only (make formal-fast)",
 "passed": 2, "total": 2, "proofs": [{"name": "p1", "method": "bmc", "depth": "bmc 12", "result": "PASS", "seconds": 1.25},
                                      {"name": "p2", "method": "induction", "depth": "k-ind k=4", "result": "PASS", "seconds": 0.5}]}
EOF
out=$($fig --root "$T" 2>&1) && ok "make figures with build/ records" || bad "exit $?: $out"
case $out in *"records/bench.json <- build/bench/engine.json"*) ok "a newer build/ record is copied into records/" ;; *) bad "no copy: $out" ;; esac
has "and its figure rendered" current "| 7,654,321 / 24,000,000 (load average 1.2) |"
has "a newer record's date" bench-speed "2026-03-05 00:00 UTC"
cmp -s "$T/records/soak.json" "$t/records0/soak.json" && ok "an older build/ record is not copied" || bad "records/soak.json changed"
[ -e "$T/records/formal.json" ] && ok "a small run where records/ has none is copied" || bad "records/formal.json not written"
has "formal: the small run's rows" formal "| p1 | bmc | bmc 12 | PASS | 1.2 s |"
has "formal: the small run said" formal "**A small run (the proofs of set fast only (make formal-fast)): not the full figure.**"
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["full"] = True; del d["scope"]; json.dump(d, open(sys.argv[1], "w"))' \
	"$T/records/formal.json"	# as if the full run was there
sed -i 's/"date": "2026-07-01T00:00:00Z"/"date": "2026-08-01T00:00:00Z"/' "$T/build/formal/record.json"
out=$($fig --root "$T" 2>&1)
case $out in *"is a small run"*"keeps the full one"*) ok "a small run does not replace a full record" ;; *) bad "$out" ;; esac
python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))["full"] is True' "$T/records/formal.json" && ok "the full record stays" || bad "records/formal.json: $(cat "$T/records/formal.json")"
# a small run of one scope does not replace a small run of another (--only p1 over the fast set)
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["full"] = False; d["scope"] = "the proofs of set fast only (make formal-fast)"; json.dump(d, open(sys.argv[1], "w"))' \
	"$T/records/formal.json"
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["scope"] = "--only p1"; d["date"] = "2026-09-01T00:00:00Z"; json.dump(d, open(sys.argv[1], "w"))' \
	"$T/build/formal/record.json"
out=$($fig --root "$T" 2>&1)
case $out in *"small run of another scope"*) ok "a small run does not replace one of another scope" ;; *) bad "$out" ;; esac
python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))["scope"].startswith("the proofs of set fast")' "$T/records/formal.json" \
	&& ok "the record of the other scope stays" || bad "records/formal.json: $(cat "$T/records/formal.json")"
if out=$($fig --check --root "$T" 2>&1); then ok "--check passes after the refresh"; else bad "exit $?: $out"; fi

# ---- malformed records: an error naming the file, every doc untouched
cp -r "$T" "$t/before"
printf '{\n  "commit": "c",\n  "date": "2027-01-01T00:00:00Z",, \n}\n' >"$T/build/bench/engine.json"
out=$($fig --root "$T" 2>&1); rc=$?
[ $rc = 2 ] && case $out in *"$T/build/bench/engine.json: not valid JSON (line 3"*) true ;; *) false ;; esac &&
	ok "a malformed build/ record: exit 2 naming the file and line" || bad "exit $rc: $out"
diff -r "$T/docs" "$t/before/docs" >/dev/null && diff -r "$T/records" "$t/before/records" >/dev/null &&
	ok "docs and records untouched after the error" || bad "a file changed on an error"
rm "$T/build/bench/engine.json"
printf '[1, 2]\n' >"$T/records/results.json"
out=$($fig --check --root "$T" 2>&1); rc=$?
[ $rc = 2 ] && case $out in *"$T/records/results.json: not a JSON object"*) true ;; *) false ;; esac &&
	ok "a record that is no object: --check exit 2 naming it" || bad "exit $rc: $out"
printf '{"commit": "c", "date": "2026-01-02T03:04:05Z", "goals_met": "3", "goals": 4}\n' >"$T/records/replay-check.json"
cp "$t/before/records/results.json" "$T/records/results.json"
out=$($fig --root "$T" 2>&1); rc=$?
[ $rc = 2 ] && case $out in *"$T/records/replay-check.json"*goals_met*) true ;; *) false ;; esac &&
	ok "a figure that is no number: exit 2 naming file and key" || bad "exit $rc: $out"
printf '{"commit": "c", "date": "2026-01-02T03:04:05Z", "goals_met": 3, "goals": 4}\n' >"$T/records/replay-check.json"
out=$($fig --root "$T" 2>&1); rc=$?
[ $rc = 2 ] && case $out in *"$T/records/replay-check.json: no \"goals_met_not_calibration\""*) true ;; *) false ;; esac &&
	ok "a record without a figure: exit 2 naming file and key" || bad "exit $rc: $out"
diff -r "$T/docs" "$t/before/docs" >/dev/null && cmp -s "$T/README.md" "$t/before/README.md" &&
	ok "every doc still untouched" || bad "a doc changed on an error"
cp "$t/before/records/replay-check.json" "$T/records/replay-check.json"

# ---- markers
sed -i '/^<!-- figures:soak:end -->$/d' "$T/docs/fuzz.md"
out=$($fig --check --root "$T" 2>&1); rc=$?
[ $rc = 2 ] && case $out in *"docs/fuzz.md: table 'soak' needs one line <!-- figures:soak:begin -->"*"(found 1 and 0)"*) true ;; *) false ;; esac &&
	ok "a missing marker: exit 2 naming file and table" || bad "exit $rc: $out"
out=$($fig --root "$T" 2>&1); rc=$?
[ $rc = 2 ] && diff -r "$T/docs" "$t/before/docs" | grep -q 'figures:soak:end' && cmp -s "$T/README.md" "$t/before/README.md" &&
	ok "a missing marker: nothing written" || bad "exit $rc: $out"
cp "$t/before/docs/fuzz.md" "$T/docs/fuzz.md"
printf '\n<!-- figures:soak:begin -->\n<!-- figures:soak:end -->\n' >>"$T/docs/fuzz.md"
out=$($fig --root "$T" 2>&1); rc=$?
[ $rc = 2 ] && case $out in *"(found 2 and 2)"*) true ;; *) false ;; esac && ok "a doubled table: exit 2" || bad "exit $rc: $out"
cp "$t/before/docs/fuzz.md" "$T/docs/fuzz.md"
printf '\n<!-- figures:nonesuch:begin -->\n<!-- figures:nonesuch:end -->\n' >>"$T/docs/vp.md"
out=$($fig --check --root "$T" 2>&1); rc=$?
[ $rc = 2 ] && case $out in *"docs/vp.md:2: a marker of table 'nonesuch'"*) true ;; *) false ;; esac &&
	ok "a marker of an unknown table: exit 2 naming file and line" || bad "exit $rc: $out"
rm "$T/docs/vp.md"

# ---- usage
out=$($fig --root "$t/none" 2>&1); rc=$?
[ $rc = 2 ] && ok "a root that is not there: exit 2" || bad "exit $rc: $out"
out=$($fig --bogus 2>&1); rc=$?
[ $rc = 2 ] && ok "an unknown argument: exit 2" || bad "exit $rc: $out"
out=$($fig --print nonesuch 2>&1); rc=$?
[ $rc = 2 ] && ok "--print of an unknown table: exit 2" || bad "exit $rc: $out"
out=$($fig --print soak --root "$T" 2>&1)
printf '%s\n' "$out" | grep -q '^| 8x256 | 1 | 1,000 | 0 | 4 |$' && ok "--print TABLE" || bad "--print soak: $out"
$fig --help | grep -q -- '--check' && ok "--help" || bad "--help says nothing of --check"

# ---- tools/fuzz_record.sh: make fuzz's record from libFuzzer's logs, rendered
F=$t/fuzz
mkdir -p "$F"
printf 'trace\t0\t61\nregs\t1\t12\n' >"$F/runs.tsv"
cat >"$F/trace.log" <<'EOF'
INFO: Seed: 1
#2	INITED cov: 700 ft: 3000 corp: 40/20Kb exec/s: 0 rss: 40Mb
#123456	REDUCE cov: 722 ft: 3646 corp: 802/1076Kb lim: 4096 exec/s: 2023 rss: 295Mb L: 38/4096 MS: 1 EraseBytes-
#123456	DONE   cov: 723 ft: 3650 corp: 803/1077Kb lim: 4096 exec/s: 2023 rss: 296Mb
Done 123456 runs in 61 second(s)
stat::number_of_executed_units: 123456
stat::average_exec_per_sec:     2023
stat::new_units_added:          763
stat::slowest_unit_time_sec:    0
stat::peak_rss_mb:              296
EOF
cat >"$F/regs.log" <<'EOF'
#2	INITED cov: 500 ft: 900 corp: 30/2Kb exec/s: 0 rss: 60Mb
==77==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x1
SUMMARY: AddressSanitizer: heap-buffer-overflow x.c:1 in f
artifact_prefix='build/fuzz/artifacts/regs/'; Test unit written to build/fuzz/artifacts/regs/crash-abc
stat::number_of_executed_units: 4567
stat::average_exec_per_sec:     380
stat::new_units_added:          3
stat::peak_rss_mb:              120
EOF
if out=$(FUZZ_RECORD_COMMAND='make fuzz FUZZ_TIME=60' tools/fuzz_record.sh "$F" 60 2>&1); then ok "fuzz_record.sh writes the record"; else bad "fuzz_record.sh: exit $?: $out"; fi
if python3 - "$F/summary.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert list(d)[:2] == ["version", "schema"] and d["command"] == "make fuzz FUZZ_TIME=60", d
assert d["full"] is False and "60 s a target" in d["scope"], d
a, b = d["targets"]
assert (a["target"], a["executions"], a["executions_per_s"], a["new_inputs"], a["corpus"], a["coverage"], a["peak_rss_mb"],
        a["seconds"], a["finding"]) == ("fuzz_trace", 123456, 2023, 763, 803, 723, 296, 61, None), a
assert b["exit"] == 1 and b["finding"]["error"].startswith("==77==ERROR: AddressSanitizer: heap-buffer-overflow"), b
assert b["finding"]["input"] == "build/fuzz/artifacts/regs/crash-abc" and b["corpus"] == 30, b
EOF
then ok "fuzz_record.sh: the header, a small run, each target's statistics and its finding"; else bad "fuzz_record.sh: $(cat "$F/summary.json")"; fi
ls -A "$F" | grep -q '^\.' && bad "fuzz_record.sh left a temporary file: $(ls -A "$F")" || ok "fuzz_record.sh leaves no temporary file"
cp "$F/summary.json" "$T/records/fuzz.json"
$fig --root "$T" >/dev/null 2>&1
has "fuzz_record.sh's record rendered" fuzz "| fuzz_trace | 61 | 123,456 | 2,023 | 763 | 803 | 723 | none |"
has "fuzz_record.sh's finding rendered" fuzz "| fuzz_regs | 12 | 4,567 | 380 | 3 | 30 | 500 | **==77==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x1** |"
printf 'trace\t0\t1\n' >"$F/runs.tsv"
rm "$F/trace.log"
out=$(tools/fuzz_record.sh "$F" 60 2>&1); rc=$?
[ $rc != 0 ] && case $out in *"trace.log"*) true ;; *) false ;; esac && ok "fuzz_record.sh: a missing log is an error naming it" ||
	bad "fuzz_record.sh without a log: exit $rc: $out"

# ---- tools/record.sh: the header every record starts with
hdr=$(bash -c '. tools/record.sh && { printf "{\n"; record_head "make x Y=\"1\""; printf "  \"z\": 1\n}\n"; }')
if printf '%s' "$hdr" | python3 -c '
import json, sys
d = json.load(sys.stdin)
for k in ("version", "schema", "commit", "command", "machine", "date", "full"):
    assert k in d, k
assert list(d)[:2] == ["version", "schema"], list(d)
assert d["command"] == "make x Y=\"1\"" and d["full"] is True and "scope" not in d
assert isinstance(d["schema"], int) and set(d["machine"]) == {"cpu_model", "cores", "host"}
assert d["date"].endswith("Z") and d["date"][10] == "T"
'; then ok "record_head: valid JSON, every key, a quote in the command escaped"; else bad "record_head: $hdr"; fi
hdr=$(bash -c '. tools/record.sh && { printf "{\n"; record_head "make soak" "10 commands"; printf "  \"z\": 1\n}\n"; }')
printf '%s' "$hdr" | python3 -c 'import json, sys; d = json.load(sys.stdin); assert d["full"] is False and d["scope"] == "10 commands"' &&
	ok "record_head: a small run's full false and scope" || bad "record_head small: $hdr"
[ "$(bash -c '. tools/record.sh && record_commit')" = "$(git describe --always --dirty 2>/dev/null || tr -d ' \n' <VERSION)" ] &&
	ok "record_commit is git describe --always --dirty" || bad "record_commit: $(bash -c '. tools/record.sh && record_commit')"

# ---- the repository's tables are what its records give
if out=$($fig --check 2>&1); then ok "the repository's tables are current ($out)"; else bad "the repository: $out"; fi

echo "figures_test: $pass passed, $fail failed"
[ $fail = 0 ]
