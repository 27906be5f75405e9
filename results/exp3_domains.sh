#!/usr/bin/env bash
# exp3: sched domains vs a flat balancer on 16 CPUs in 4 NUMA nodes (seed benchmark 3).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
if [ "${1:-}" = --help ] || [ "${1:-}" = -h ]; then
	cat <<H
usage: results/exp3_domains.sh [--help]
16 CPUs, profile=numaq16 (NUMA-Q). "domains" = topology numa=4,core=4 (MC and NUMA domain levels, remote-node
migration costs); "flat" = the same machine balanced with one flat domain over all 16
CPUs (hwsched run --flat: 2.6.0 before sched domains; remote-node costs still paid).
Schedulers o1 and hw on both; linux24 (global queue) on numa=4,core=4 as a
reference. Workloads: dbench clients 8,16,32,64,128 and tbench clients 8,16,24,32 (0.5 s
each; LONG=1: 3 s), kernbench jobs=32,total=640 (to completion), hackbench 1 group
(loops=100) and 100 groups (4000 tasks; loops=10, LONG=1: loops=30 - loops=100 takes
~100 s of wall time per run). Writes build/results/exp3/*.json and build/results/exp3.tsv.
H
	res_common_help; exit 0
fi
DUR=0.5s; HBL=10; [ "${LONG:-0}" = 1 ] && { DUR=3s; HBL=30; }
M=$(mktemp); trap 'rm -f $M' EXIT
T=$(res_topo numa=4,core=4 numaq16)
pts() {	# NAME WORKLOAD DURATION
	for s in o1 hw; do
		printf 'domains_%s\t%s\t%s\t%s\t%s\t\n' "$1" $s "$T" "$2" "$3"
		printf 'flat_%s\t%s\t%s\t%s\t%s\t--flat\n' "$1" $s "$T" "$2" "$3"
	done
	printf 'domains_%s\tlinux24\t%s\t%s\t%s\t\n' "$1" "$T" "$2" "$3"
}
{
	# the slow ones first, so that the parallel jobs finish together
	pts hb100 "hackbench:groups=100,loops=$HBL" -
	for c in 8 16 32 64 128; do pts dbench$c dbench:clients=$c $DUR; done
	for c in 8 16 24 32; do pts tbench$c tbench:clients=$c $DUR; done
	pts kernbench kernbench:jobs=32,total=640 60s
	pts hb1 hackbench:groups=1,loops=100 -
} >"$M"
res_run_matrix exp3 "$M"
res_summarize exp3 "$M"
