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
and 100 groups (4000 tasks), both with hackbench's 100 loops, as published, and run with
the first seed only (hackbench has no random inputs; linux24 not at 100 groups: it takes
minutes). The workloads' CPU work is the calibration of profile numaq16 (docs/results.md,
"Calibration"). Points NAME_noX run o1 without contention model X (fs=0, net=0, numa=0).
Writes build/results/exp3/*.json and build/results/exp3.tsv.
H
	res_common_help; exit 0
fi
DUR=0.5s; [ "${LONG:-0}" = 1 ] && DUR=3s
M=$(mktemp); trap 'rm -f $M' EXIT
T=$(res_topo numa=4,core=4 numaq16)
pts() {	# NAME WORKLOAD DURATION [once] [no24]
	for s in o1 hw; do
		printf 'domains_%s\t%s\t%s\t%s\t%s\t\t%s\n' "$1" $s "$T" "$2" "$3" "${4:-}"
		printf 'flat_%s\t%s\t%s\t%s\t%s\t--flat\t%s\n' "$1" $s "$T" "$2" "$3" "${4:-}"
	done
	[ -n "${5:-}" ] || printf 'domains_%s\tlinux24\t%s\t%s\t%s\t\t%s\n' "$1" "$T" "$2" "$3" "${4:-}"
}
{
	# the slow ones first, so that the parallel jobs finish together
	pts hb100 "hackbench:groups=100,loops=100" - once no24
	pts kernbench kernbench:jobs=32,total=640 600s
	for c in 8 16 32 64 128; do pts dbench$c dbench:clients=$c $DUR; done
	for c in 8 16 24 32; do pts tbench$c tbench:clients=$c $DUR; done
	pts hb1 hackbench:groups=1,loops=100 - once
	# what each contention model moves (docs/results.md, "Contention"): o1 without it
	ab() {	# NAME WORKLOAD DURATION [once]
		printf 'domains_%s\to1\t%s\t%s\t%s\t\t%s\n' "$1" "$T" "$2" "$3" "${4:-}"
		printf 'flat_%s\to1\t%s\t%s\t%s\t--flat\t%s\n' "$1" "$T" "$2" "$3" "${4:-}"
	}
	ab dbench64_nofs dbench:clients=64,fs=0 $DUR
	ab dbench64_nonuma dbench:clients=64,numa=0 $DUR
	ab tbench16_nonet tbench:clients=16,net=0 $DUR
	ab tbench16_nonuma tbench:clients=16,numa=0 $DUR
	ab kernbench_nonuma kernbench:jobs=32,total=640,numa=0 600s
	ab hb1_nonet hackbench:groups=1,loops=100,net=0 - once
	ab hb1_nonuma hackbench:groups=1,loops=100,numa=0 - once
} >"$M"
res_run_matrix exp3 "$M"
res_summarize exp3 "$M"
