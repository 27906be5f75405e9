#!/usr/bin/env bash
# exp4: SMP group fairness on a quad-core: root group vs one child group (seed benchmark 4).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
if [ "${1:-}" = --help ] || [ "${1:-}" = -h ]; then
	cat <<H
usage: results/exp4_groups.sh [--help]
Topology core=4,profile=modern (a quad-core: the modern profile, docs/simulator.md), schedulers o1, hw, cfs and eevdf (linux24 has no groups).
 - sysbench OLTP, threads 1,2,4,...,256, one backend per client thread (PostgreSQL forks a
   backend per connection): every task in the root group (group=0, point rootT) vs every
   task in child group 1 (group=1, point childT). 2 s per run (LONG=1: 10 s).
 - volanomark:rooms=10,users=20, group=0 vs group=1. 2 s (LONG=1: 10 s).
 - two groups with equal shares (1024 each), CPU-bound tasks (mix sleep=0,msg=0):
   split1v16: 1 task in the root group, 16 in group 1 (mix groups=2,g0=1) on all 4 CPUs;
   split1v16pin: the same, all 17 tasks pinned to CPU 0 (cpus=1);
   split4v16: 4 tasks in the root group, 16 in group 1. 10 s per run (LONG=1: 30 s).
Writes build/results/exp4/*.json and build/results/exp4.tsv (group0_share, group1_share).
H
	res_common_help; exit 0
fi
DUR=2s; SDUR=10s; [ "${LONG:-0}" = 1 ] && { DUR=10s; SDUR=30s; }
M=$(mktemp); trap 'rm -f $M' EXIT
T=$(res_topo core=4 modern)
{
	for s in o1 hw cfs eevdf; do
		for t in 1 2 4 8 16 32 64 128 256; do
			printf 'root%d\t%s\t%s\tsysbench:threads=%d,backends=%d,group=0\t%s\t\n' $t $s "$T" $t $t $DUR
			printf 'child%d\t%s\t%s\tsysbench:threads=%d,backends=%d,group=1\t%s\t\n' $t $s "$T" $t $t $DUR
		done
		printf 'volano_root\t%s\t%s\tvolanomark:rooms=10,users=20,group=0\t%s\t\n' $s "$T" $DUR
		printf 'volano_child\t%s\t%s\tvolanomark:rooms=10,users=20,group=1\t%s\t\n' $s "$T" $DUR
		printf 'split1v16\t%s\t%s\tmix:tasks=17,sleep=0,msg=0,groups=2,g0=1\t%s\t\n' $s "$T" $SDUR
		printf 'split1v16pin\t%s\t%s\tmix:tasks=17,sleep=0,msg=0,groups=2,g0=1,cpus=1\t%s\t\n' $s "$T" $SDUR
		printf 'split4v16\t%s\t%s\tmix:tasks=20,sleep=0,msg=0,groups=2,g0=4\t%s\t\n' $s "$T" $SDUR
	done
} >"$M"
res_run_matrix exp4 "$M"
res_summarize exp4 "$M"
