#!/usr/bin/env bash
# exp5: wake balancing (select_idle_sibling) on vs off, 2 packages x 4 cores x 2 SMT
# (seed benchmark 5).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
if [ "${1:-}" = --help ] || [ "${1:-}" = -h ]; then
	cat <<H
usage: results/exp5_wakebal.sh [--help]
Topology pkg=2,core=4,smt=2,profile=modern (16 CPUs; the X5570 pair is a two-socket SMT server: the modern profile), sysbench:threads=16,backends=16 (the OLTP model
stands for sysbench read-only: the simulator has one sysbench OLTP shape; MySQL runs one
server thread per connection, hence 16 backends), schedulers o1, hw, cfs and eevdf, wake balancing on
(default) vs off (--no-wake-balance). 3 s per run (LONG=1: 10 s).
Writes build/results/exp5/*.json and build/results/exp5.tsv.
H
	res_common_help; exit 0
fi
DUR=3s; [ "${LONG:-0}" = 1 ] && DUR=10s
M=$(mktemp); trap 'rm -f $M' EXIT
T=$(res_topo pkg=2,core=4,smt=2 modern)
for s in o1 hw cfs eevdf; do
	printf 'wake_on\t%s\t%s\tsysbench:threads=16,backends=16\t%s\t\n' $s "$T" $DUR
	printf 'wake_off\t%s\t%s\tsysbench:threads=16,backends=16\t%s\t--no-wake-balance\n' $s "$T" $DUR
done >"$M"
res_run_matrix exp5 "$M"
res_summarize exp5 "$M"
