#!/usr/bin/env bash
# exp1: tbench 64 and 192 processes on a 4-CPU SMP, linux24 vs o1 vs hw
# (seed benchmark 1, O(1) vs 2.4, May 2002). docs/results.md.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
if [ "${1:-}" = --help ] || [ "${1:-}" = -h ]; then
	cat <<H
usage: results/exp1_tbench.sh [--help]
tbench:clients=32 and clients=96 (64 and 192 processes: a client and a server per pair) on
topology core=4,profile=p3xeon4 (a 4-way P-III Xeon), schedulers linux24, o1, hw; each
point over the seeds. Simulated time per run: 3 s (LONG=1: 10 s). tbench's CPU work is the
calibration of profile p3xeon4 (docs/results.md, "Calibration"); points pN_nonet run
linux24 and o1 without the loopback model (net=0).
Writes build/results/exp1/*.json and build/results/exp1.tsv.
H
	res_common_help; exit 0
fi
DUR=3s; [ "${LONG:-0}" = 1 ] && DUR=10s
M=$(mktemp); trap 'rm -f $M' EXIT
for c in 32 96; do
	for s in linux24 o1 hw; do
		printf 'p%d\t%s\t%s\ttbench:clients=%d\t%s\t\n' $((2 * c)) $s \
			"$(res_topo core=4 p3xeon4)" $c $DUR
	done
	# what the loopback model moves (docs/results.md, "Contention")
	for s in linux24 o1; do
		printf 'p%d_nonet\t%s\t%s\ttbench:clients=%d,net=0\t%s\t\n' $((2 * c)) $s \
			"$(res_topo core=4 p3xeon4)" $c $DUR
	done
done >"$M"
res_run_matrix exp1 "$M"
res_summarize exp1 "$M"
