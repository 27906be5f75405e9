#!/usr/bin/env bash
# board_opts.sh - what the board's build and runs need from its shape key (the Makefile's
# BOARD_SHAPE, docs/board.md), from the key's one parser (build/hws_shape_key).
#
# usage: sim/board/board_opts.sh KEY WHAT
#   KEY   a shape key (build/hws_shape_key --grammar), e.g. 2x64x16g16nbne; the board has
#         one port, the serial engine and equal FIFO depths (board_top, synth/board_top.v)
#   WHAT  gflags    Verilator's -G flags of board_top's engine parameters
#         defines   the -DHWS_V_<field> defines of sim/board/board_sim.cpp
#         run       hwsched run's options for an engine of that shape (--topology core=C
#                   --engine-tasks T and the units left out)
#         lockstep  hwsched lockstep's options (--cpus C --tasks T --depth D and the units)
#         synth     synth/synth_one.sh's configuration "CPUS TASKS[SUFFIXES]"
#         name      its file name, CPUSxTASKS[SUFFIXES]
#         depth     the FIFO depth
#         groups    the task groups (NR_GROUPS)
# Environment: HWS_SHAPE_KEY, the key tool (default build/hws_shape_key; make builds it).
# Exit status 2, with the reason, for a key the tool refuses or the board cannot take.
set -euo pipefail
case "${1:-}" in -h | --help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
die() { echo "board_opts: $*" >&2; exit 2; }
[ $# -eq 2 ] || die "usage: sim/board/board_opts.sh KEY gflags|defines|run|lockstep|synth|name|depth|groups"
key=$1 what=$2
tool=${HWS_SHAPE_KEY:-build/hws_shape_key}
[ -x "$tool" ] || die "no $tool (make builds it)"
sh=$("$tool" --shell "$key" 2>&1) || die "BOARD_SHAPE '$key': ${sh#hws_shape_key: }"
NR_CPUS= NR_TASKS= CMD_DEPTH= RES_DEPTH= NR_GROUPS= LCU_BALANCE= ERR_COUNTERS= NR_PORTS= IRQ= PIPE= LCU_LEAN=
while IFS='=' read -r k v; do
	case $k in
	NR_CPUS | NR_TASKS | CMD_DEPTH | RES_DEPTH | NR_GROUPS | LCU_BALANCE | ERR_COUNTERS | NR_PORTS | IRQ | PIPE | LCU_LEAN)
		printf -v "$k" '%s' "$v" ;;
	esac
done <<<"$sh"
canon=$("$tool" --key "$key")
[ "$canon" = "$key" ] || die "BOARD_SHAPE '$key' is not canonical: write '$canon'"
[ "$NR_PORTS" = 1 ] || die "BOARD_SHAPE '$key': board_top has one port (no p<ports>)"
[ "$PIPE" = 0 ] || die "BOARD_SHAPE '$key': board_top runs the serial engine (no pi)"
[ "$RES_DEPTH" = "$CMD_DEPTH" ] || die "BOARD_SHAPE '$key': the board's FIFOs are equal (no r<res_depth>)"
sfx=
[ "$LCU_BALANCE" = 0 ] && sfx+=nb
[ "$ERR_COUNTERS" = 0 ] && sfx+=ne
[ "$IRQ" = 0 ] && sfx+=ni
[ "$LCU_LEAN" = 1 ] && sfx+=ln
units() { # the options that leave the units out: $1 is BALANCE's
	[ "$LCU_BALANCE" = 0 ] && printf ' %s' "$1"
	[ "$ERR_COUNTERS" = 0 ] && printf ' --no-err-counters'
	[ "$IRQ" = 0 ] && printf ' --no-irq'
	[ "$LCU_LEAN" = 1 ] && printf ' --bal-lean'
	return 0
}
case $what in
gflags) "$tool" --gflags "$key" | tr ' ' '\n' | grep -v '^-GNR_PORTS=' | paste -sd' ' ;;
defines) "$tool" --defines "$key" ;;
run) echo "--topology core=$NR_CPUS --engine-tasks $NR_TASKS$(units --no-hw-balance)" ;;
lockstep) echo "--cpus $NR_CPUS --tasks $NR_TASKS --depth $CMD_DEPTH$(units --no-balance)" ;;
synth) echo "$NR_CPUS $NR_TASKS$sfx" ;;
name) echo "${NR_CPUS}x$NR_TASKS$sfx" ;;
depth) echo "$CMD_DEPTH" ;;
groups) echo "$NR_GROUPS" ;;
*) die "WHAT must be gflags, defines, run, lockstep, synth, name, depth or groups, got '$what'" ;;
esac
