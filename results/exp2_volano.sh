#!/usr/bin/env bash
# exp2: VolanoMark on 1, 4 and 8 CPUs, scaling vs 1 CPU per scheduler (seed benchmark 2).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
if [ "${1:-}" = --help ] || [ "${1:-}" = -h ]; then
	cat <<H
usage: results/exp2_volano.sh [--help]
volanomark:rooms=10,users=20 (VolanoMark's default shape: 10 rooms of 20 users, 200 tasks)
on topologies core=1, core=4, core=8 with profile=p3xeon8 (the 8-way P-III Xeon),
VolanoMark's yields (the workload's default), schedulers linux24, o1, hw. Simulated time per run:
2 s (LONG=1: 10 s). VolanoMark's CPU work is the calibration of profile p3xeon8
(docs/results.md, "Calibration"); points cpuN_nonet run linux24 and o1 without the loopback
model (net=0). Writes build/results/exp2/*.json and build/results/exp2.tsv.
H
	res_common_help; exit 0
fi
DUR=2s; [ "${LONG:-0}" = 1 ] && DUR=10s
M=$(mktemp); trap 'rm -f $M' EXIT
for n in 1 4 8; do
	for s in linux24 o1 hw; do
		printf 'cpu%d\t%s\t%s\tvolanomark:rooms=10,users=20\t%s\t\n' $n $s \
			"$(res_topo core=$n p3xeon8)" $DUR
	done
	# what the loopback model moves (docs/results.md, "Contention")
	for s in linux24 o1; do
		printf 'cpu%d_nonet\t%s\t%s\tvolanomark:rooms=10,users=20,net=0\t%s\t\n' $n $s \
			"$(res_topo core=$n p3xeon8)" $DUR
	done
done >"$M"
res_run_matrix exp2 "$M"
res_summarize exp2 "$M"
