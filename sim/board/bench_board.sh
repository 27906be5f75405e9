#!/usr/bin/env bash
# bench_board.sh: the command rate of hwsched lockstep over the simulated UART (make
# bench-board). Starts build/board/board_sim, runs the random lockstep against it, stops
# it, and writes one JSON object: frames and commands per second of simulated board time
# (the simulator clocks only while the board has work: a host that answers at once), the
# rate the frame sizes allow, and the wall-clock speed of the simulation itself, after
# tools/record.sh's header (make figures renders it: docs/board.md section 6).
#
# usage: sim/board/bench_board.sh BOARD_SIM HWSCHED OUT.json [COMMANDS [SEED]]
set -eu

[ $# -ge 3 ] || { echo "usage: $0 BOARD_SIM HWSCHED OUT.json [COMMANDS [SEED]]" >&2; exit 2; }
SIM=$1 HWS=$2 OUT=$3 N=${4:-2000} SEED=${5:-1}
for f in "$SIM" "$HWS"; do
	[ -x "$f" ] || { echo "bench_board.sh: $f is not an executable (make board-sim all)" >&2; exit 1; }
done
TMP=$(mktemp -d)
SIM_PID=""
cleanup() {
	[ -n "$SIM_PID" ] && kill "$SIM_PID" 2>/dev/null || true
	rm -rf "$TMP"
}
trap cleanup EXIT

"$SIM" --max-idle 600 >"$TMP/sim.out" 2>&1 &
SIM_PID=$!
for _ in $(seq 100); do
	grep -q '^board_sim: lockstep options: ' "$TMP/sim.out" && break
	sleep 0.1
done
PTY=$(sed -n 's/^board_sim: pty //p' "$TMP/sim.out")
OPTS=$(sed -n 's/^board_sim: lockstep options: //p' "$TMP/sim.out")
[ -n "$PTY" ] && [ -n "$OPTS" ] || { echo "bench_board.sh: the simulator did not start:" >&2; cat "$TMP/sim.out" >&2; exit 1; }

CMD="hwsched lockstep --backend lockstep:uart:PTY $OPTS --commands $N --seed $SEED"
t0=$(date +%s.%N)
# shellcheck disable=SC2086
"$HWS" lockstep --backend "lockstep:uart:$PTY,timeout=30000" $OPTS --commands "$N" --seed "$SEED" >"$TMP/hws.out" 2>&1 || {
	echo "bench_board.sh: $CMD failed:" >&2; cat "$TMP/hws.out" >&2; exit 1; }
t1=$(date +%s.%N)
kill "$SIM_PID"
wait "$SIM_PID" || true
SIM_PID=""

# board_sim: F frames (R reads, W writes), Bi bytes in, Bo bytes out, ...; C clocks simulated = S s at HZ Hz
read -r FRAMES READS WRITES BIN BOUT CLOCKS HZ < <(sed -n 's/^board_sim: \([0-9]*\) frames (\([0-9]*\) reads, \([0-9]*\) writes), \([0-9]*\) bytes in, \([0-9]*\) bytes out, .*; \([0-9]*\) clocks simulated = [0-9.]* s at \([0-9]*\) Hz$/\1 \2 \3 \4 \5 \6 \7/p' "$TMP/sim.out")
[ -n "${CLOCKS:-}" ] || { echo "bench_board.sh: no statistics from the simulator:" >&2; cat "$TMP/sim.out" >&2; exit 1; }
BAUD=$(sed -n 's/.* \([0-9]*\) baud (.*/\1/p' "$TMP/sim.out" | head -1)
grep -q "^lockstep: $N commands, 0 mismatches$" "$TMP/hws.out" || { echo "bench_board.sh: unexpected result:" >&2; cat "$TMP/hws.out" >&2; exit 1; }
# tools/record.sh's header first (BENCH_BOARD_RECORD_COMMAND: the command, make
# bench-board gives its goal and variables); the run's own command is "run".
# shellcheck source=tools/record.sh
. "$(cd "$(dirname "$0")/../.." && pwd)/tools/record.sh"
{ printf '{\n'; record_head "${BENCH_BOARD_RECORD_COMMAND:-sim/board/bench_board.sh $SIM $HWS $OUT $N $SEED}"; } >"$OUT.tmp"
awk -v n="$N" -v seed="$SEED" -v frames="$FRAMES" -v reads="$READS" -v writes="$WRITES" \
	-v bin="$BIN" -v bout="$BOUT" -v clocks="$CLOCKS" -v hz="$HZ" -v baud="$BAUD" \
	-v t0="$t0" -v t1="$t1" -v cmd="$CMD" -v opts="$OPTS" 'BEGIN {
	s = clocks / hz; wall = t1 - t0
	bytes = bin + bout
	# What the line allows: every byte is 10 bit times, frames back to back.
	ideal_s = bytes * 10 / baud
	printf "  \"run\": \"%s\", \"shape\": \"%s\",\n", cmd, opts
	printf "  \"commands\": %d, \"seed\": %d, \"frames\": %d, \"reads\": %d, \"writes\": %d,\n", n, seed, frames, reads, writes
	printf "  \"bytes_to_board\": %d, \"bytes_from_board\": %d, \"frames_per_command\": %.3f,\n", bin, bout, frames / n
	printf "  \"baud\": %d, \"clk_hz\": %d, \"board_clocks\": %d, \"board_seconds\": %.6f,\n", baud, hz, clocks, s
	printf "  \"commands_per_s\": %.1f, \"frames_per_s\": %.1f,\n", n / s, frames / s
	printf "  \"line_bound_seconds\": %.6f, \"line_bound_commands_per_s\": %.1f,\n", ideal_s, n / ideal_s
	# A 7-byte frame (R + reply, W + reply) is 70 bit times; a synchronous command is two.
	printf "  \"frame_bound_per_s\": %.1f, \"sync_command_bound_per_s\": %.1f,\n", baud / 70, baud / 140
	printf "  \"wall_seconds\": %.2f, \"wall_commands_per_s\": %.1f, \"sim_clocks_per_wall_s\": %.0f\n", wall, n / wall, clocks / wall
	printf "}\n"
}' >>"$OUT.tmp"
mv "$OUT.tmp" "$OUT"
cat "$OUT"
