#!/usr/bin/env bash
# co_design.sh - the break-even study of docs/co-design.md (make vp-study).
#
# For each cell (CPUs x run-queue length), the bus latency at which the engine scheduler
# (--sched hw, on the virtual platform: interconnect latency per access, one contended
# engine port) stops beating the same O(1) policy on software run queues (--sched o1)
# in (a) scheduler overhead and (b) workload throughput.
#
# Workload: mix:tasks=CPUS*RQ,burst=200,sleep=100,msg=0.3 (200 us bursts, half of them
# followed by a 100 us sleep, 30% wake another task; msg=0 for a single task, which has
# no other task to wake): RQ tasks per CPU, mostly runnable.
# Throughput is the workload's (bursts/s); o1 is also run with seeds SEED+1 and SEED+2,
# and a throughput crossing is marked * when hw and o1 differ at 0 ns by less than that
# spread (the decisions, not the bus, decide it).
# Steady state: every figure is the difference of two runs of the same seed, to WARM and
# to WARM+SPAN of simulated time (the machine is deterministic, so the first is a prefix
# of the second): the start, where every task is created and woken at once, drops out.
# WARM is WARM_MS or, for long queues, RQ x 0.5 ms (the first pass over every task's
# first 200 us burst), whichever is longer.
#
# Latency search per cell and metric: the coarse GRID, then STEPS bisections of the
# bracket where hw turns worse than o1, then linear interpolation inside the last bracket.
# "none": hw is worse already at 0 ns; ">MAX": still better at the largest grid latency.
#
# IFACE: the bus interface the hw runs use (docs/vp.md, "The interconnect's rules"):
#   old  writes not posted (the CPU waits for BRESP), one engine port shared by every CPU,
#        and the firmware's synchronous protocol (--sync-cmds: every command a CMD write
#        and a completion read): the interface of the first study; docs/co_design.tsv,
#        build/co_design
#   new  writes posted (accepted in 0 ns, a read waits behind its CPU's posted writes),
#        PORTS engine ports (default 4; CPU c uses port c x ports / CPUs, at most one port
#        per CPU), each contended on its own; the firmware's posted protocol (one-read
#        picks through the POP window, posted commands, docs/firmware.md):
#        docs/co_design_new.tsv, build/co_design_new, and the old table beside it in
#        $OUT/compare.md when docs/co_design.tsv (or OLD_TSV) exists
# o1 makes no MMIO access: its runs are the same under both.
#
# PROFILE=NAME: every topology gets profile=NAME (docs/simulator.md, "Coherence"): the
# software run queues pay their cache lines and contended locks; the engine pays none
# (make vp-study runs PROFILE=modern after the run without one).
#
# LEAN=1: the engine's BALANCE is the area-lean serial unit (--bal-lean, LCU_LEAN=1,
# docs/accelerator.md 8.2.1: the same answers, 218 + 21 N + N^2 cycles instead of 12-20):
# the table's hw figures are the lean unit's (runs named hwln_*), and each cell also gets,
# measured beside them with the same executables and the same o1 runs, the lean unit's
# overhead at REF_NS and the fast unit's overhead at 0 ns and REF_NS and its overhead
# break-even (the columns hw100_overhead_pct, fast_hw0_overhead_pct,
# fast_hw100_overhead_pct, fast_breakeven_overhead_ns); $OUT/compare.md sets the two units
# side by side. Names gain _lean: build/co_design_new_lean, docs/co_design_new_lean.tsv
# (make vp-study-lean: IFACE=new, 8 CPUs, without and with PROFILE=modern).
#
# Environment: HWSCHED (default build/hwsched), IFACE (old), PORTS (4, new only), LEAN (0),
# OUT (build/co_design[_new][_lean][_NAME]), JOBS (2), CPUS, RQS, GRID, STEPS, WARM_MS,
# SPAN_MS, SEED, PROFILE, SVG (docs/co_design[_new][_lean][_NAME].svg), TSV (likewise .tsv),
# OLD_TSV (new only: the table to set beside, docs/co_design[_NAME].tsv). The TSV and SVG
# are written to a temporary file and renamed.
set -euo pipefail
# --help: the comment block above is the usage.
case "${1:-}" in -h | --help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
cd "$(dirname "$0")/.."
HWSCHED=${HWSCHED:-build/hwsched}
PROFILE=${PROFILE:-}
IFACE=${IFACE:-old}
PORTS=${PORTS:-4}
LEAN=${LEAN:-0}
case $IFACE in
old) SUFFIX= ;;
new) SUFFIX=_new ;;
*) echo "co_design: IFACE '$IFACE': expected old or new" >&2; exit 2 ;;
esac
# HW: the run name of the engine scheduler's runs (vp_raw: hwln is --sched hw --bal-lean)
case $LEAN in
0) HW=hw ;;
1) HW=hwln SUFFIX=${SUFFIX}_lean ;;
*) echo "co_design: LEAN '$LEAN': expected 0 (the fast BALANCE) or 1 (the lean one, --bal-lean)" >&2
	exit 2 ;;
esac
# The reference latency of the LEAN=1 columns: 100 ns per access, the estimate of a
# Zynq-7000-class GP port (docs/vp.md, "The interconnect's rules", 6; docs/simulator.md's
# bus_ns default), the latency docs/co-design.md asks "does it pay at" about.
REF_NS=100
[[ $PORTS =~ ^[1-9][0-9]*$ ]] && [ "$PORTS" -le 64 ] ||
	{ echo "co_design: PORTS '$PORTS': expected a whole number in 1..64" >&2; exit 2; }
OUT=${OUT:-build/co_design$SUFFIX${PROFILE:+_$PROFILE}}
PORTS_KEY=
if [ "$IFACE" = new ]; then PORTS_KEY=_p$PORTS; fi
JOBS=${JOBS:-2}
FULL_CPUS="1 8 64" FULL_RQS="1 8 64 512" FULL_GRID="0 50 200 800 3200 12800" FULL_STEPS=4
# The lean unit's study is 8 CPUs (docs/co-design.md asks about 8): a unit for small
# machines; at 64 its BALANCE is 5,658 cycles (docs/accelerator.md 8.2.1).
if [ "$LEAN" = 1 ]; then FULL_CPUS=8; fi
CPUS=${CPUS:-$FULL_CPUS}
RQS=${RQS:-$FULL_RQS}
GRID=${GRID:-$FULL_GRID}
STEPS=${STEPS:-$FULL_STEPS}
WARM_MS=${WARM_MS:-5}
SPAN_MS=${SPAN_MS:-20}
SEED=${SEED:-1}
SVG=${SVG:-docs/co_design$SUFFIX${PROFILE:+_$PROFILE}.svg}
TSV=${TSV:-docs/co_design$SUFFIX${PROFILE:+_$PROFILE}.tsv}
OLD_TSV=${OLD_TSV:-docs/co_design${PROFILE:+_$PROFILE}.tsv}
MAX_TASKS=4096

command -v parallel >/dev/null || { echo "co_design: GNU parallel is needed (make deps)" >&2; exit 1; }
command -v gnuplot >/dev/null || { echo "co_design: gnuplot is needed (make deps)" >&2; exit 1; }
[ -x "$HWSCHED" ] && [ -x "$(dirname "$HWSCHED")/hwsched_vp" ] ||
	{ echo "co_design: $HWSCHED and hwsched_vp beside it are needed (make vp-study)" >&2; exit 1; }
mkdir -p "$OUT/runs"
# Runs are kept in $OUT/runs and reused, but only for the same executables.
sum=$(cat "$HWSCHED" "$(dirname "$HWSCHED")/hwsched_vp" | md5sum | cut -d' ' -f1)
if [ "$(cat "$OUT/binaries.md5" 2>/dev/null)" != "$sum" ]; then
	rm -f "$OUT"/runs/*.json
	echo "$sum" >"$OUT/binaries.md5"
fi

topology() {
	local t
	case $1 in
	1) t=core=1 ;;
	8) t=pkg=2,core=4 ;;
	64) t=numa=4,pkg=2,core=8 ;;
	*) t="core=$1" ;;
	esac
	echo "$t${PROFILE:+,profile=$PROFILE}"
}

# The VP's bus options of interface $IFACE on a machine of $1 CPUs.
bus_opts() {	# cpus
	if [ "$IFACE" = old ]; then
		echo "--posted-writes off --ports 1 --sync-cmds"
	else
		echo "--posted-writes on --ports $((PORTS < $1 ? PORTS : $1))"
	fi
}

# One VP run: prints "overhead_ns_per_cpu_s work_units sim_s rq_wait_ms" (raw, for diffs).
# sched: o1, hw, or hwln (hw with the lean BALANCE, --bal-lean).
vp_raw() {	# sched cpus rq latency duration_ms [seed]
	local s=$1 c=$2 q=$3 lat=$4 ms=$5 j
	local seed=${6:-$SEED} sched=$1 lean=
	[ "$s" = hwln ] && sched=hw lean=--bal-lean
	# The name holds everything a run depends on besides the executables (binaries.md5),
	# IFACE and PROFILE (both in $OUT): the new interface's port count too.
	j="$OUT/runs/${s}_c${c}_q${q}_l${lat}_d${ms}_s${seed}${PORTS_KEY}.json"
	if [ ! -s "$j" ]; then
		# the bus options are the engine's: a software scheduler refuses them (it has no
		# bus traffic), so it runs without
		local bus="" msg=0.3
		[ "$sched" = hw ] && bus="--bus-latency $lat $(bus_opts "$c") $lean"
		# one task has no other to wake: the workload refuses msg= then
		[ $((c * q)) -gt 1 ] || msg=0
		# shellcheck disable=SC2086
		"$HWSCHED" vp --sched "$sched" --workload "mix:tasks=$((c * q)),burst=200,sleep=100,msg=$msg" \
			--topology "$(topology "$c")" --duration "${ms}ms" $bus \
			--seed "$seed" --top 0 --json "$j.$$.tmp" >/dev/null ||
			{ echo "co_design: vp run failed: $s $c x $q at $lat ns" | tee -a "$OUT/failed" >&2
			  return 1; }
		# two cells may run the same run at once (the o1 runs are shared): each through a
		# file of its own, the same result renamed into place
		mv -f "$j.$$.tmp" "$j"
	fi
	awk -v c="$c" '
		/"sim_s"/ { for (i = 1; i <= NF; i++) { if ($i == "\"sim_s\":") sim = $(i+1) + 0;
			if ($i == "\"throughput\":") tp = $(i+1) + 0 } }
		/"sched_overhead_pct"/ { for (i = 1; i <= NF; i++) if ($i == "\"sched_overhead_pct\":") ov = $(i+1) + 0 }
		/"rq_wait_ms"/ { for (i = 1; i <= NF; i++) if ($i == "\"rq_wait_ms\":") rq = $(i+1) + 0 }
		END { printf "%.9g %.9g %.9g %.9g\n", ov / 100 * sim * c, tp * sim, sim, rq }' "$j"
}

# Steady state between WARM and WARM+SPAN: "overhead_pct throughput rq_per_cpu".
vp_steady() {	# sched cpus rq latency [seed]
	local a b w=$WARM_MS
	[ $(($3 / 2)) -gt "$w" ] && w=$(($3 / 2))
	a=$(vp_raw "$1" "$2" "$3" "$4" "$w" "${5:-$SEED}")
	b=$(vp_raw "$1" "$2" "$3" "$4" $((w + SPAN_MS)) "${5:-$SEED}")
	echo "$a $b" | awk -v c="$2" '{ dt = $7 - $3; if (dt <= 0) dt = 1e-9;
		printf "%.6f %.3f %.3f\n", 100 * ($5 - $1) / (c * dt), ($6 - $2) / dt,
			($8 - $4) / 1000 / dt / c }'
}

# hw worse than o1 at latency L for metric m (1 overhead: higher is worse; 2 throughput:
# lower is worse)? Prints the signed margin hw - o1 (overhead) or o1 - hw (throughput).
# sched: hw or hwln (default $HW).
margin() {	# cpus rq latency metric o1_value [sched]
	local v
	v=$(vp_steady "${6:-$HW}" "$1" "$2" "$3" | awk -v m="$4" '{ print $m }')
	awk -v m="$4" -v h="$v" -v o="$5" 'BEGIN { printf "%.9g\n", m == 1 ? h - o : o - h }'
}

breakeven() {	# cpus rq metric o1_value [sched] -> latency, "none" or ">MAX"
	local c=$1 q=$2 m=$3 o=$4 s=${5:-$HW} lo="" lomar hi="" himar L d k mid midmar
	for L in $GRID; do
		d=$(margin "$c" "$q" "$L" "$m" "$o" "$s")
		if awk -v d="$d" 'BEGIN { exit !(d > 0) }'; then hi=$L; himar=$d; break; fi
		lo=$L; lomar=$d
	done
	[ -n "$hi" ] || { echo ">${GRID##* }"; return; }
	[ -n "$lo" ] || { echo none; return; }
	for ((k = 0; k < STEPS; k++)); do
		mid=$(awk -v a="$lo" -v b="$hi" 'BEGIN { printf "%d\n", (a + b) / 2 }')
		[ "$mid" -gt "$lo" ] && [ "$mid" -lt "$hi" ] || break
		midmar=$(margin "$c" "$q" "$mid" "$m" "$o" "$s")
		if awk -v d="$midmar" 'BEGIN { exit !(d > 0) }'; then hi=$mid; himar=$midmar
		else lo=$mid; lomar=$midmar; fi
	done
	awk -v a="$lo" -v b="$hi" -v da="$lomar" -v db="$himar" \
		'BEGIN { printf "%.0f\n", (db == da) ? a : a + (b - a) * (0 - da) / (db - da) }'
}

cell() {	# cpus rq
	local c=$1 q=$2 o1 ov tp rq h0 lov ltp spread s
	o1=$(vp_steady o1 "$c" "$q" 0)
	read -r ov tp rq <<<"$o1"
	# The throughput o1 reaches with two other seeds: how far decisions alone move it.
	spread=$( { echo "$tp"; for s in $((SEED + 1)) $((SEED + 2)); do
		vp_steady o1 "$c" "$q" 0 "$s" | awk '{ print $2 }'; done; } |
		awk '{ v[NR] = $1; t += $1 } END { lo = v[1]; hi = v[1]; for (i in v) { if (v[i] < lo) lo = v[i];
			if (v[i] > hi) hi = v[i] } printf "%.2f\n", t ? 100 * (hi - lo) / (t / NR) : 0 }')
	h0=$(vp_steady "$HW" "$c" "$q" 0)
	lov=$(breakeven "$c" "$q" 1 "$ov")
	ltp=$(breakeven "$c" "$q" 2 "$tp")
	# A throughput gap at 0 ns smaller than the seed spread is noise: the crossing is too.
	if echo "$h0 $tp $spread" | awk '{ exit !(100 * ($2 - $4 < 0 ? $4 - $2 : $2 - $4) / $4 < $5) }'; then
		ltp="$ltp*"
	fi
	printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s%s\n" "$c" "$q" "$((c * q))" "$spread" "$ov" \
		"$(echo "$h0" | awk '{ print $1 }')" "$lov" "$tp" "$(echo "$h0" | awk '{ print $2 }')" "$ltp" \
		"$([ "$LEAN" = 0 ] || lean_cols "$c" "$q" "$ov")"
}

# LEAN=1's extra columns of a cell (tab first): the lean unit's overhead at REF_NS, the
# fast unit's at 0 ns and at REF_NS, and its overhead break-even against the same o1.
lean_cols() {	# cpus rq o1_overhead
	printf "\t%s\t%s\t%s\t%s" "$(vp_steady hwln "$1" "$2" "$REF_NS" | awk '{ print $1 }')" \
		"$(vp_steady hw "$1" "$2" 0 | awk '{ print $1 }')" \
		"$(vp_steady hw "$1" "$2" "$REF_NS" | awk '{ print $1 }')" "$(breakeven "$1" "$2" 1 "$3" hw)"
}
export -f topology bus_opts vp_raw vp_steady margin breakeven cell lean_cols
export HWSCHED OUT GRID STEPS WARM_MS SPAN_MS SEED PROFILE IFACE PORTS PORTS_KEY LEAN HW REF_NS

t0=$(date +%s)
cells=()
for c in $CPUS; do
	for q in $RQS; do
		[ $((c * q)) -le $MAX_TASKS ] && cells+=("$c $q")
	done
done
# A run that fails inside a command substitution would leave zeros in the table: each
# failure is written to $OUT/failed, and any stops the study before its table is written.
rm -f "$OUT/failed"
printf '%s\n' "${cells[@]}" | parallel -j "$JOBS" --colsep ' ' cell {1} {2} >"$OUT/cells.tsv"
if [ -s "$OUT/failed" ]; then
	echo "co_design: $(wc -l <"$OUT/failed") VP run(s) failed; no table written (see above)" >&2
	exit 1
fi
{
	printf "cpus\trq\ttasks\to1_throughput_seed_spread_pct\to1_overhead_pct\thw0_overhead_pct\tbreakeven_overhead_ns\t"
	printf "o1_throughput\thw0_throughput\tbreakeven_throughput_ns"
	[ "$LEAN" = 0 ] || printf "\thw100_overhead_pct\tfast_hw0_overhead_pct\tfast_hw100_overhead_pct\tfast_breakeven_overhead_ns"
	printf "\n"
	sort -n -k1,1 -k2,2 "$OUT/cells.tsv"
} >"$OUT/summary.tsv.tmp"
mv "$OUT/summary.tsv.tmp" "$OUT/summary.tsv"
# The record (tools/record.sh; make figures renders docs/co-design.md's tables from it):
# OUT/record.json, every cell of summary.tsv; a grid other than the study's is a small run.
. "$(dirname "$0")/../tools/record.sh"
scope=
[ "$CPUS" = "$FULL_CPUS" ] && [ "$RQS" = "$FULL_RQS" ] && [ "$GRID" = "$FULL_GRID" ] && [ "$STEPS" = "$FULL_STEPS" ] ||
	scope="CPUS='$CPUS' RQS='$RQS' GRID='$GRID' STEPS=$STEPS (the study's: '$FULL_CPUS', '$FULL_RQS', '$FULL_GRID', $FULL_STEPS)"
{
	printf '{\n'
	record_head "${VP_RECORD_COMMAND:-results/co_design.sh}${IFACE:+ IFACE=$IFACE}$([ "$LEAN" = 0 ] || echo " LEAN=1")${PROFILE:+ PROFILE=$PROFILE}" "$scope"
	printf '  "iface": "%s", "ports": %s, "profile": "%s", "seed": %s, "warm_ms": %s, "span_ms": %s,\n' \
		"$IFACE" "$([ "$IFACE" = new ] && echo "$PORTS" || echo 1)" "$PROFILE" "$SEED" "$WARM_MS" "$SPAN_MS"
	printf '  "lean": %s, "ref_ns": %s,\n  "cells": [' "$LEAN" "$REF_NS"
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) k[i] = $i; next }
		{ printf "%s\n    {", (NR > 2 ? "," : "")
		  for (i = 1; i <= NF; i++) printf "%s\"%s\": %s", (i > 1 ? ", " : ""), k[i],
			$i ~ /^-?[0-9]+(\.[0-9]+)?$/ ? $i : "\"" $i "\""
		  printf "}" }' "$OUT/summary.tsv"
	printf '\n  ]\n}\n'
} >"$OUT/record.json.tmp" && mv "$OUT/record.json.tmp" "$OUT/record.json"
cp "$OUT/summary.tsv" "$TSV.tmp.$$"
mv "$TSV.tmp.$$" "$TSV"
runs=$(ls "$OUT/runs" | wc -l)
echo "co_design: interface $IFACE$([ "$IFACE" = new ] && echo ", $PORTS ports")$([ "$LEAN" = 0 ] || echo ", lean BALANCE"), ${#cells[@]} cells, $runs VP runs, $(( $(date +%s) - t0 )) s; $OUT/summary.tsv"

# The table for docs/co-design.md.
awk -F'\t' 'NR == 1 { print "| CPUs | tasks/CPU | overhead o1 % | overhead hw @0 ns % | break-even (overhead) ns | throughput o1 (bursts/s) | hw @0 ns | o1 over 3 seeds: spread % | break-even (throughput) ns |";
	print "|---|---|---|---|---|---|---|---|---|"; next }
	{ printf "| %s | %s | %.3f | %.3f | %s | %.0f | %.0f | %.1f | %s |\n", $1, $2, $5, $6, $7, $8, $9, $4, $10 }' \
	"$OUT/summary.tsv" >"$OUT/table.md"
cat "$OUT/table.md"

# The plot: break-even latency against run-queue length, one line per CPU count, both
# metrics; cells without a break-even are left out (see the table); throughput crossings
# within o1's seed spread (marked * in the table) are drawn as open circles, unjoined;
# 0 ns is drawn at 1 ns (log scale).
for c in $CPUS; do
	awk -F'\t' -v c="$c" 'NR > 1 && $1 == c && $7 ~ /^[0-9]+$/ { print $2, ($7 > 0 ? $7 : 1) }' \
		"$OUT/summary.tsv" >"$OUT/plot_ov_c${c}.dat"
	awk -F'\t' -v c="$c" 'NR > 1 && $1 == c && $10 ~ /^[0-9]+$/ { print $2, ($10 > 0 ? $10 : 1) }' \
		"$OUT/summary.tsv" >"$OUT/plot_tp_c${c}.dat"
	awk -F'\t' -v c="$c" 'NR > 1 && $1 == c && $10 ~ /^[0-9]+\*$/ { v = $10 + 0; print $2, (v > 0 ? v : 1) }' \
		"$OUT/summary.tsv" >"$OUT/plot_tpn_c${c}.dat"
done
{
	echo "set terminal svg size 900,420 font 'sans,11'"
	echo "set output '$SVG.tmp.$$'"
	echo "set multiplot layout 1,2 title 'Bus latency at which the engine (hw) stops beating software run queues (o1), VP runs, $([ "$IFACE" = old ] && echo "writes not posted, one port" || echo "posted writes, up to $PORTS ports")$([ "$LEAN" = 0 ] || echo ", lean BALANCE")${PROFILE:+, profile $PROFILE (contention)}'"
	echo "set logscale xy; set xlabel 'tasks per CPU'; set ylabel 'break-even latency per access (ns)'"
	echo "set key top left; set grid; set xrange [0.7:800]; set yrange [0.7:20000]"
	echo "set title 'equal scheduler overhead'"
	p="plot"
	for c in $CPUS; do
		f="$OUT/plot_ov_c${c}.dat"
		[ -s "$f" ] && p="$p '$f' using 1:2 with linespoints lw 2 title '$c CPUs',"
	done
	[ "$p" = plot ] && p="plot 1/0 notitle,"
	echo "${p%,}"
	echo "set title 'equal throughput (open: not resolved)'"
	p="plot"
	for c in $CPUS; do
		f="$OUT/plot_tp_c${c}.dat"
		[ -s "$f" ] && p="$p '$f' using 1:2 with linespoints lw 2 title '$c CPUs',"
		f="$OUT/plot_tpn_c${c}.dat"
		[ -s "$f" ] && p="$p '$f' using 1:2 with points pt 6 ps 1.5 title '$c CPUs, not resolved',"
	done
	[ "$p" = plot ] && p="plot 1/0 notitle,"
	echo "${p%,}"
	echo "unset multiplot"
} >"$OUT/plot.gp"
gnuplot "$OUT/plot.gp"
mv "$SVG.tmp.$$" "$SVG"
echo "co_design: wrote $TSV and $SVG"

# The new interface beside the old (docs/co-design.md): per cell, the overhead break-even
# of both, their ratio, and whether hw beats o1 at 100 ns (break-even above 100 ns).
if [ "$IFACE" = new ] && [ "$LEAN" = 0 ] && [ -s "$OLD_TSV" ]; then
	awk -F'\t' '
		function num(x) { return x ~ /^[0-9]+$/ ? x + 0 : (x ~ /^>/ ? substr(x, 2) + 0 : -1) }
		function pays(x) { return x ~ /^>/ || (x ~ /^[0-9]+$/ && x + 0 > 100) ? "yes" : "no" }
		NR == FNR { if (FNR > 1) { old[$1 " " $2] = $7; oldh[$1 " " $2] = sprintf("%.3f", $6) }; next }
		FNR == 1 { print "| CPUs | tasks/CPU | o1 overhead % | hw @0 ns %: old / new | break-even (overhead) ns: old / new | new / old | pays at 100 ns: old / new | break-even (throughput) ns: new |";
			print "|---|---|---|---|---|---|---|---|"; next }
		{ k = $1 " " $2; o = (k in old) ? old[k] : "?"; r = ""
		  if (num(o) > 0 && num($7) >= 0) r = sprintf("%.1fx", num($7) / num(o))
		  printf "| %s | %s | %.3f | %s / %.3f | %s / %s | %s | %s / %s | %s |\n", $1, $2, $5,
			(k in oldh) ? oldh[k] : "", $6, o, $7, r, pays(o), pays($7), $10 }
	' "$OLD_TSV" "$OUT/summary.tsv" >"$OUT/compare.md.tmp"
	mv "$OUT/compare.md.tmp" "$OUT/compare.md"
	cat "$OUT/compare.md"
fi

# LEAN=1: the two BALANCE units side by side (docs/co-design.md, tools/figures.sh renders the
# same table from the record): per cell, hw's overhead at 0 ns and at REF_NS, the overhead
# break-even, and whether hw's overhead at REF_NS is below o1's, fast / lean.
if [ "$LEAN" = 1 ]; then
	awk -F'\t' -v ref="$REF_NS" '
		function pays(h, o) { return h < o ? "yes" : "no" }
		NR == 1 { printf "| CPUs | tasks/CPU | o1 overhead %% | hw @0 ns %%: fast / lean | hw @%s ns %%: fast / lean | break-even (overhead) ns: fast / lean | pays at %s ns: fast / lean | break-even (throughput) ns: lean |\n", ref, ref
			print "|---|---|---|---|---|---|---|---|"; next }
		{ printf "| %s | %s | %.3f | %.3f / %.3f | %.3f / %.3f | %s / %s | %s / %s | %s |\n", $1, $2, $5,
			$12, $6, $13, $11, $14, $7, pays($13, $5), pays($11, $5), $10 }
	' "$OUT/summary.tsv" >"$OUT/compare.md.tmp"
	mv "$OUT/compare.md.tmp" "$OUT/compare.md"
	cat "$OUT/compare.md"
fi
