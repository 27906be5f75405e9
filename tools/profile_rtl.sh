#!/usr/bin/env bash
# profile_rtl.sh - what one clock edge of the Verilated RTL costs, by module and by always
# block: instructions per edge, counted by callgrind (exact and independent of the
# machine's load, unlike a timer or perf's samples).
#
# usage: tools/profile_rtl.sh [--command TEXT] [OUT] [-- HWSCHED-LOCKSTEP-ARGS...]
#   OUT        the JSON record (default build/prof/rtl.json)
#   --command  the record's "command" (default: this script's command line)
#   the run: hwsched lockstep --backend rtl --commands 20k --seed 42 (the default shape),
#   or the arguments after -- (they must keep --backend rtl: the model's and the stream's
#   work is not the RTL's); HWSCHED=path another executable (default build/hwsched)
# Environment: HWS_SHAPES, the cache of the profiling build of the shape (default
# build/prof/shapes; make profile-rtl builds it: tools/build_shape.sh with
# HWS_SHAPE_PROF=1, every always block and assignment a function named after its module
# and line, docs/accelerator.md "Simulation speed").
#
# Counts every instruction of the run with valgrind's callgrind, divides by the clock edges
# the run reports, and sums the functions by part: each RTL module (the functions
# Verilator names ..._PROF__MODULE__lLINE), Verilator's scheduling between them (the
# other Vhws functions: eval, the trigger checks, the calls), and the rest (the harness's
# AXI master, the stream, startup). Writes the record through a temporary file (header of
# tools/record.sh; edges, instructions, per part and per block its instructions per
# edge) and prints the parts. Needs valgrind.
set -euo pipefail
case "${1:-}" in -h | --help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/tools/record.sh"
die() { echo "profile_rtl: $*" >&2; exit 2; }
command="tools/profile_rtl.sh $*"
if [ "${1:-}" = --command ]; then
	[ $# -ge 2 ] || die "--command needs a value"
	command=$2
	shift 2
fi
out=build/prof/rtl.json
if [ $# -gt 0 ] && [ "$1" != -- ]; then out=$1; shift; fi
if [ $# -gt 0 ]; then
	[ "$1" = -- ] || die "unexpected argument '$1' (usage: tools/profile_rtl.sh [--command TEXT] [OUT] [-- ARGS...])"
	shift
fi
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(--backend rtl --commands 20k --seed 42)
case " ${args[*]} " in *" --backend rtl "*) ;; *) die "the run must be on --backend rtl (got: ${args[*]})" ;; esac
hw=${HWSCHED:-$root/build/hwsched}
shapes=${HWS_SHAPES:-$root/build/prof/shapes}
command -v valgrind >/dev/null || die "valgrind is not installed (apt-get install valgrind)"
command -v callgrind_annotate >/dev/null || die "callgrind_annotate is not installed (apt-get install valgrind)"
[ -x "$hw" ] || die "$hw is not built (make)"
[ -d "$shapes" ] || die "no profiling shapes in $shapes (make profile-rtl builds them)"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
echo "profile_rtl: callgrind on hwsched lockstep ${args[*]} (about a minute)" >&2
HWS_SHAPES=$shapes valgrind --tool=callgrind --callgrind-out-file="$t/cg.out" \
	"$hw" lockstep --no-build "${args[@]}" >"$t/run.out" 2>"$t/vg.err" ||
	{ cat "$t/run.out" "$t/vg.err" >&2; die "the run failed"; }
edges=$(sed -n 's/^time: .*, \([0-9][0-9]*\) clock edges.*/\1/p' "$t/run.out")
[ -n "$edges" ] && [ "$edges" -gt 0 ] || { cat "$t/run.out" >&2; die "the run printed no clock edges"; }
callgrind_annotate --threshold=100 "$t/cg.out" >"$t/ann.txt" 2>/dev/null || die "callgrind_annotate failed"
grep -q 'PROF__' "$t/ann.txt" || die "no per-block functions: $shapes holds no profiling build (HWS_SHAPE_PROF=1)"
mkdir -p "$(dirname "$out")"
tmp=$(mktemp "$(dirname "$out")/.rtl.json.XXXXXX")
{
	echo "{"
	record_head "$command"
	printf '  "run": %s,\n' "$(record_str "hwsched lockstep ${args[*]}")"
	python3 - "$t/ann.txt" "$edges" <<'PY'
import json, re, sys
ann, edges = sys.argv[1], int(sys.argv[2])
parts, blocks, total = {}, {}, 0
line = re.compile(r'\s*([\d,]+) \(\s*[\d.]+%\)\s+(\S+?):(\S+)')
for l in open(ann):
    m = line.match(l)
    if not m or 'PROGRAM TOTALS' in l:
        continue
    ir, fn = int(m.group(1).replace(',', '')), m.group(3)
    total += ir
    p = re.search(r'_PROF__([A-Za-z0-9_]+?)__l(\d+)', fn)
    if p:
        k = p.group(1)
        b = '%s:%s' % (k, p.group(2))
        blocks[b] = blocks.get(b, 0) + ir
    elif fn.startswith('Vhws'):
        k = '(scheduling)'
    else:
        k = '(rest)'
    parts[k] = parts.get(k, 0) + ir
rtl = sum(v for k, v in parts.items() if k != '(rest)')
per = lambda v: round(v / edges, 1)
body = {
    "edges": edges,
    "instructions": total,
    "rtl_instructions_per_edge": per(rtl),
    "parts": {k: per(v) for k, v in sorted(parts.items(), key=lambda kv: -kv[1])},
    "top_blocks": {k: per(v) for k, v in sorted(blocks.items(), key=lambda kv: -kv[1])[:25]},
}
s = json.dumps(body, indent=1)
print(s[s.index('{') + 1:].lstrip('\n'))
PY
} >"$tmp" || { rm -f "$tmp"; die "could not write the record"; }
python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$tmp" || { rm -f "$tmp"; die "the record is not JSON"; }
mv -f "$tmp" "$out"
python3 - "$out" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print("RTL, instructions per clock edge: %.0f (%d edges)" % (r["rtl_instructions_per_edge"], r["edges"]))
for k, v in r["parts"].items():
    print("  %-16s %8.0f" % (k, v))
print("wrote " + sys.argv[1])
PY
