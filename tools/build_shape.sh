#!/usr/bin/env bash
# build_shape.sh - build one engine shape into the cache (docs/shapes.md).
#
# usage: tools/build_shape.sh KEY CACHE TRACE RUNTIME JOBS SOURCE...
#   KEY      the shape key, `build/hws_shape_key --grammar` (docs/shapes.md), e.g. 8x256x16g16,
#            4x256x16g16bl1, 8x256x16g16nbneni, 8x256x16g16p2pi
#   CACHE    the cache folder (build/shapes); the shape goes to CACHE/KEY/
#   TRACE    1: the build with FST waveform support (libhws_shape_trace.so), 0: without
#            (libhws_shape.so)
#   RUNTIME  the Verilator runtime archive, compiled -fPIC -fvisibility=hidden (Makefile)
#   JOBS     parallel compiler jobs
#   SOURCE   what the shape is built from: the RTL (*.v, *.vh) and the harness; the list
#            is written beside the shape, and a shape older than one of them is rebuilt
# Environment: HWS_SHAPE_KEY, the key tool (default build/hws_shape_key; make builds it).
# HWS_SHAPE_COVERAGE=1 builds the coverage variant instead (make coverage,
# docs/coverage.md): Verilated with --coverage-line --coverage-toggle, the harness of
# tools/coverage/cov_shape_so.cpp (hws_shape_so.cpp plus the writing of the counts); CACHE
# is then the coverage build's own (build/coverage/shapes), never build/shapes.
# HWS_SHAPE_PROF=1 builds the profiling variant (make profile-rtl, tools/profile_rtl.sh):
# Verilated with --prof-cfuncs, so that every always block and assignment is a function
# named after its module and line, compiled -g without gprof's -pg (VM_PROFC=0: the run is
# measured by callgrind, not gprof); CACHE is then its own (build/prof/shapes).
# Run by `make shape SHAPE=KEY` (the Makefile passes the rest). Under a lock per shape
# (flock on CACHE/.KEY.lock), in a temporary folder CACHE/.tmp-KEY.*, the shared object
# then renamed into place: two builds of one shape at once leave one good shape, and a
# build that finds the shape made while it waited for the lock does nothing.
set -euo pipefail

die() { echo "build_shape: $*" >&2; exit 2; }
[ $# -ge 6 ] || die "usage: tools/build_shape.sh KEY CACHE TRACE RUNTIME JOBS SOURCE..."
key=$1 cache=$2 trace=$3 runtime=$4 jobs=$5
shift 5

# The key: build/hws_shape_key (lib/hws_params.c, regmap/params.def) checks it (canonical,
# every parameter in its range) and gives the Verilator -G flags and the harness's -D defines.
tool=${HWS_SHAPE_KEY:-build/hws_shape_key}
[ -x "$tool" ] || die "no $tool (make builds it)"
gflags=$("$tool" --gflags "$key" 2>&1) || die "${gflags#hws_shape_key: }"
defines=$("$tool" --defines "$key")
read -r -a gflags <<<"$gflags"
read -r -a defines <<<"$defines"
case $trace in 0) so=libhws_shape.so ;; 1) so=libhws_shape_trace.so ;; *) die "TRACE must be 0 or 1" ;; esac
[ -r "$runtime" ] || die "no Verilator runtime archive $runtime (make builds it)"

mkdir -p "$cache"
cache=$(cd "$cache" && pwd)
stamp=$(mktemp "$cache/.stamp-$key.XXXXXX")
exec 9>"$cache/.$key-$trace.lock"
flock 9
if [ "$cache/$key/$so" -nt "$stamp" ]; then
	rm -f "$stamp"
	exit 0	# built by another process while this one waited for the lock
fi
rm -f "$stamp"
tmp=$(mktemp -d "$cache/.tmp-$key.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

rtl=() srcs=()
for s in "$@"; do
	srcs+=("$s")
	case $s in *.v) rtl+=("$s") ;; esac
done

# Verilator: the RTL's simulation assertions stay on (--assert); no trace support unless
# asked for (it costs every edge, docs/shapes.md); X's resolved the fast way.
vflags=(--cc -Wall -O3 --assert --x-assign fast --x-initial fast --top-module hws_top -Irtl)
defs=(-DVM_COVERAGE=0 -DVM_SC=0 -DVM_TRACE=$trace -DVM_TRACE_FST=$trace -DVM_TRACE_VCD=0)
[ "$trace" = 1 ] && vflags+=(--trace-fst)
harness=sim/harness/hws_shape_so.cpp
if [ "${HWS_SHAPE_COVERAGE:-0}" = 1 ]; then
	vflags+=(--coverage-line --coverage-toggle)
	defs[0]=-DVM_COVERAGE=1
	harness=tools/coverage/cov_shape_so.cpp
fi
vmake=()
if [ "${HWS_SHAPE_PROF:-0}" = 1 ]; then
	vflags+=(--prof-cfuncs)
	vmake=(-MAKEFLAGS VM_PROFC=0)
fi
# Position-independent, every symbol hidden: the one export is hws_shape_v1().
pic="-fPIC -fvisibility=hidden -fvisibility-inlines-hidden"
[ "${HWS_SHAPE_PROF:-0}" = 1 ] && pic="-g $pic"
# C++ -O2: -O3 (and -march=native) measured no faster on the default shape (docs/shapes.md).
opt=-O2
# Verilator's own make runs -j JOBS, not as a sub-make of the make that runs this script.
unset MAKEFLAGS MFLAGS MAKELEVEL
verilator "${vflags[@]}" --prefix Vhws --Mdir "$tmp/vl" --build -j "$jobs" \
	"${gflags[@]}" \
	-CFLAGS "$pic" -MAKEFLAGS "OPT_FAST=$opt" -MAKEFLAGS "OPT_SLOW=-O1" -MAKEFLAGS "OPT_GLOBAL=-O1" "${vmake[@]}" \
	"${rtl[@]}" >"$tmp/verilator.log" || { cat "$tmp/verilator.log" >&2; exit 1; }

vl=/usr/share/verilator/include
built_with="Verilator $(verilator --version | awk '{ print $2 }') ${vflags[*]} $opt"
${CXX:-g++} -std=gnu++17 $opt $pic "${defs[@]}" -I"$vl" -I"$vl/vltstd" -I"$tmp/vl" -Isim/harness -I. -Iinclude \
	-Wall -Wextra -Wno-unused-parameter -DHWS_VHDR='"Vhws.h"' \
	"${defines[@]}" \
	-DHWS_V_BUILT_WITH="\"$built_with\"" -c -o "$tmp/hws_shape_so.o" "$harness"
# The harness's AXI master steps lib/hws_port_master (its timing rule's one home).
${CC:-cc} -std=c11 $opt -fPIC -fvisibility=hidden -I. -Iinclude -Wall -Wextra -c -o "$tmp/hws_port_master.o" \
	lib/hws_port_master.c
cov_obj=()
if [ "${HWS_SHAPE_COVERAGE:-0}" = 1 ]; then
	# The coverage database of the runtime (not in the shared runtime archive).
	${CXX:-g++} -std=gnu++17 $opt $pic "${defs[@]}" -I"$vl" -I"$vl/vltstd" \
		-c -o "$tmp/verilated_cov.o" "$vl/verilated_cov.cpp"
	cov_obj=("$tmp/verilated_cov.o")
fi
printf '{ global: hws_shape_v1; local: *; };\n' >"$tmp/exports.map"
${CXX:-g++} -shared -o "$tmp/$so" "$tmp/hws_shape_so.o" "$tmp/hws_port_master.o" "${cov_obj[@]}" "$tmp/vl/Vhws__ALL.a" "$runtime" \
	-Wl,--version-script="$tmp/exports.map" -Wl,--exclude-libs,ALL -Wl,-Bsymbolic \
	-Wl,-z,defs -lz -pthread
printf '%s\n' "${srcs[@]}" >"$tmp/sources"

# Into place: the list of sources first, the shared object last (each a rename).
mkdir -p "$cache/$key"
mv -f "$tmp/sources" "$cache/$key/sources"
mv -f "$tmp/$so" "$cache/$key/$so"
