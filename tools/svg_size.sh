#!/bin/sh
# svg_size.sh - how big the timelines of --svg are, and how many rects they hold: the
# figures docs/simulator.md ("The timeline") and docs/trace.md quote.
#
#   tools/svg_size.sh [OUT]      (default build/svg/size.json; HWSCHED=... another binary)
#
# Runs the cases the timeline's bound was set for (2 s of tbench, 32 clients on 4 CPUs:
# 449,074 switches; 5 ms of it through --svg-window; hackbench on 64 CPUs, the most lanes; the replays of the
# longest trace of traces/, make_j6, and of the one with the most events, pipe_pingpong)
# and writes one JSON record through a temporary file: commit, date, machine, and per
# case the command, the file's bytes, its <rect> elements, its lanes, and the seconds
# rsvg-convert took to draw it when it is installed (null otherwise: it is no dependency
# of the build; a wall-clock figure, for the docs only). It refuses an OUT that is one of
# the pictures it writes.
set -eu
cd "$(dirname "$0")/.."
HWSCHED=${HWSCHED:-build/hwsched}
OUT=${1:-build/svg/size.json}
DIR=build/svg
case $OUT in *.svg|*.png) echo "svg_size.sh: $OUT: the record is JSON, not a picture" >&2; exit 2;; esac
mkdir -p "$DIR" "$(dirname "$OUT")"
[ -x "$HWSCHED" ] || { echo "svg_size.sh: $HWSCHED: not built (make build/hwsched)" >&2; exit 2; }

# one case: NAME, LANES, then the hwsched arguments (the SVG goes to $DIR/NAME.svg)
case_json() {
	name=$1 lanes=$2
	shift 2
	svg=$DIR/$name.svg
	"$HWSCHED" "$@" --svg "$svg" >/dev/null
	bytes=$(wc -c <"$svg")
	rects=$(grep -o '<rect ' "$svg" | wc -l)
	draw=null
	if command -v rsvg-convert >/dev/null 2>&1; then
		t0=$(date +%s.%N)
		rsvg-convert -o "$DIR/$name.png" "$svg"
		draw=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
	fi
	printf '    {"name": "%s", "command": "hwsched %s --svg %s", "lanes": %s, "bytes": %s, "rects": %s, "draw_s": %s}' \
		"$name" "$*" "$svg" "$lanes" "$bytes" "$rects" "$draw"
}

commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
dirty=$(git status --porcelain 2>/dev/null | grep -v '^??' | head -1)
[ -z "$dirty" ] || commit="$commit+dirty"
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
tmp=$(mktemp "$(dirname "$OUT")/.size.XXXXXX")
trap 'rm -f "$tmp"' EXIT
{
	printf '{\n  "commit": "%s",\n  "date": "%s",\n' "$commit" "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
	printf '  "machine": "%s, %s CPUs, %s",\n' "$(uname -m)" "$(nproc)" "$cpu"
	printf '  "cases": [\n'
	case_json run_tbench 4 run --workload tbench:clients=32 --topology core=4 --sched o1 \
		--duration 2s
	printf ',\n'
	case_json run_tbench_window 4 run --workload tbench:clients=32 --topology core=4 \
		--sched o1 --duration 2s --svg-window 1s:1.005s
	printf ',\n'
	case_json run_hackbench_64cpus 64 run --workload hackbench:groups=4 \
		--topology pkg=2,core=16,smt=2 --sched o1
	printf ',\n'
	case_json replay_make_j6 4 replay traces/make_j6.txt.gz --sched eevdf
	printf ',\n'
	case_json replay_pipe_pingpong 4 replay traces/pipe_pingpong.txt.gz --sched eevdf
	printf '\n  ]\n}\n'
} >"$tmp"
mv "$tmp" "$OUT"
trap - EXIT
cat "$OUT"
