#!/usr/bin/env bash
# board_run.sh: hackbench scheduled through the simulated board's UART (make board-run).
# For each simulator given (build/board/board_sim at the board's 115200 baud, the fast one
# at BOARD_FAST_BAUD), starts it, runs `hwsched run --sched hw --backend uart:PTY` (the
# firmware drives the engine over the line, one frame per register access), stops it,
# runs the same command on the rtl backend at the board's shape, and checks that the two
# reports agree but for the figures of the engine's clock (see CLOCK_LINES below). Writes
# one JSON object: per simulator, the engine commands and frames the run made, the bytes
# on the line, the simulated board time, and the commands per second over the link, after
# tools/record.sh's header (make figures renders it: docs/board.md).
#
# usage: sim/board/board_run.sh HWSCHED OUT.json LOOPS SEED "RUN_OPTS" BOARD_SIM...
set -eu

[ $# -ge 6 ] || { echo "usage: $0 HWSCHED OUT.json LOOPS SEED \"RUN_OPTS\" BOARD_SIM..." >&2; exit 2; }
HWS=$1 OUT=$2 LOOPS=$3 SEED=$4 RUN_OPTS=$5
shift 5
[ -x "$HWS" ] || { echo "board_run.sh: $HWS is not an executable (make all)" >&2; exit 1; }
TMP=$(mktemp -d)
SIM_PID=""
cleanup() {
	[ -n "$SIM_PID" ] && kill "$SIM_PID" 2>/dev/null || true
	rm -rf "$TMP"
}
trap cleanup EXIT

# The same run on every backend: the line's protocol is the synchronous one
# (--sync-cmds: a serial line cannot reach the POP/PEEKW windows), and the engine's clock
# is not charged (engine_clk_ns=0: the line does not carry the board's clock, so the
# uart backend reports no clock edges; docs/board.md, section 7).
WL="hackbench:groups=1,loops=$LOOPS"
COMMON="run --sched hw --sync-cmds --cost engine_clk_ns=0 $RUN_OPTS --workload $WL --seed $SEED"
# The report's lines that count the engine's clock: the rtl backend's edges, none over
# the line (the board counts its own in CYCLES, which the firmware does not read).
CLOCK_LINES='^engine: '
# The reports compared: without those lines, and with the backend's name on "run: " as B.
compared() { grep -v "$CLOCK_LINES" "$1" | sed 's/^\(run: .*\), backend [^ ]*, seed /\1, backend B, seed /'; }

# shellcheck disable=SC2086
"$HWS" $COMMON --backend rtl >"$TMP/rtl.out" 2>&1 || {
	echo "board_run.sh: hwsched $COMMON --backend rtl failed:" >&2; cat "$TMP/rtl.out" >&2; exit 1; }

records=""
for SIM in "$@"; do
	[ -x "$SIM" ] || { echo "board_run.sh: $SIM is not an executable (make board-sim)" >&2; exit 1; }
	"$SIM" --max-idle 600 >"$TMP/sim.out" 2>&1 &
	SIM_PID=$!
	for _ in $(seq 100); do
		grep -q '^board_sim: lockstep options: ' "$TMP/sim.out" && break
		sleep 0.1
	done
	PTY=$(sed -n 's/^board_sim: pty //p' "$TMP/sim.out")
	[ -n "$PTY" ] || { echo "board_run.sh: $SIM did not start:" >&2; cat "$TMP/sim.out" >&2; exit 1; }
	BAUD=$(sed -n 's/.* \([0-9]*\) baud (.*/\1/p' "$TMP/sim.out" | head -1)
	CMD="hwsched $COMMON --backend uart:PTY,baud=$BAUD"
	t0=$(date +%s.%N)
	# shellcheck disable=SC2086
	"$HWS" $COMMON --backend "uart:$PTY,baud=$BAUD,timeout=30000" >"$TMP/uart.out" 2>&1 || {
		echo "board_run.sh: $CMD failed:" >&2; cat "$TMP/uart.out" >&2; exit 1; }
	t1=$(date +%s.%N)
	kill "$SIM_PID"
	wait "$SIM_PID" || true
	SIM_PID=""
	if ! diff <(compared "$TMP/rtl.out") <(compared "$TMP/uart.out") >"$TMP/diff"; then
		echo "board_run.sh: the reports of --backend rtl and --backend uart:PTY differ beyond the engine's clock:" >&2
		cat "$TMP/diff" >&2
		exit 1
	fi
	# engine: N commands, M MMIO accesses, C cycles
	read -r NCMD NMMIO < <(sed -n 's/^engine: \([0-9]*\) commands, \([0-9]*\) MMIO accesses, .*/\1 \2/p' "$TMP/uart.out")
	read -r FRAMES READS WRITES BIN BOUT CLOCKS HZ < <(sed -n 's/^board_sim: \([0-9]*\) frames (\([0-9]*\) reads, \([0-9]*\) writes), \([0-9]*\) bytes in, \([0-9]*\) bytes out, .*; \([0-9]*\) clocks simulated = [0-9.]* s at \([0-9]*\) Hz$/\1 \2 \3 \4 \5 \6 \7/p' "$TMP/sim.out")
	[ -n "${CLOCKS:-}" ] && [ -n "${NCMD:-}" ] || {
		echo "board_run.sh: no figures from the run or the simulator:" >&2; cat "$TMP/uart.out" "$TMP/sim.out" >&2; exit 1; }
	rec=$(awk -v cmd="$CMD" -v ncmd="$NCMD" -v mmio="$NMMIO" -v frames="$FRAMES" -v reads="$READS" \
		-v writes="$WRITES" -v bin="$BIN" -v bout="$BOUT" -v clocks="$CLOCKS" -v hz="$HZ" \
		-v baud="$BAUD" -v t0="$t0" -v t1="$t1" 'BEGIN {
		s = clocks / hz; wall = t1 - t0; bytes = bin + bout
		printf "    {\"command\": \"%s\", \"baud\": %d, \"clk_hz\": %d,\n", cmd, baud, hz
		printf "     \"engine_commands\": %d, \"mmio_accesses\": %d, \"frames\": %d, \"reads\": %d, \"writes\": %d,\n", ncmd, mmio, frames, reads, writes
		printf "     \"bytes_to_board\": %d, \"bytes_from_board\": %d, \"bytes_per_command\": %.3f,\n", bin, bout, bytes / ncmd
		printf "     \"board_clocks\": %d, \"board_seconds\": %.6f, \"commands_per_s\": %.1f, \"frames_per_s\": %.1f,\n", clocks, s, ncmd / s, frames / s
		# The rule: every byte is 10 bit times (8N1), frames back to back.
		printf "     \"line_bound_commands_per_s\": %.1f,\n", ncmd * baud / (bytes * 10)
		printf "     \"wall_seconds\": %.2f, \"wall_commands_per_s\": %.1f}", wall, ncmd / wall
	}')
	records="${records:+$records,
}$rec"
done

# tools/record.sh's header (version, schema, commit, command, machine, date, full);
# BOARD_RUN_RECORD_COMMAND is the command (make board-run gives its goal and variables).
# shellcheck source=tools/record.sh
. "$(cd "$(dirname "$0")/../.." && pwd)/tools/record.sh"
{
	printf '{\n'
	record_head "${BOARD_RUN_RECORD_COMMAND:-sim/board/board_run.sh $HWS $OUT $LOOPS $SEED \"$RUN_OPTS\" $*}"
	printf '  "workload": "%s", "seed": %s, "run_options": "%s",\n' "$WL" "$SEED" "$RUN_OPTS"
	printf '  "compared_with_rtl": "equal but the lines matching %s",\n' "$CLOCK_LINES"
	printf '  "runs": [\n%s\n  ]\n}\n' "$records"
} >"$OUT.tmp"
mv "$OUT.tmp" "$OUT"
cat "$OUT"
