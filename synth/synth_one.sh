#!/usr/bin/env bash
# synth_one.sh: synthesise one hwsched configuration for one FPGA family and write
# OUTDIR/<family>_<cpus>x<tasks>.json (see --help). Part of `make synth`.
set -eu

usage() {
	cat <<'EOF'
usage: synth/synth_one.sh FAMILY NR_CPUS NR_TASKS[nb][ne][ni][bl<lanes>][ln] OUTDIR
       synth/synth_one.sh "FAMILY NR_CPUS NR_TASKS[nb][ne][ni][bl<lanes>][ln] OUTDIR"   (one line of sweep_list.sh)

Synthesises synth/hws_synth_top.v (hws_top with every input and output registered) with
Yosys for FAMILY = ice40 | ecp5 | xilinx | gowin and writes OUTDIR/<family>_<C>x<T>.json:
LUTs, FFs, block RAMs, carry cells, LUT levels (Yosys ltp over the mapped LUT cells), Yosys
seconds, status (ok | too big | failed) and reason. For ice40 it also places and routes
with nextpnr-ice40 on an HX8K (ct256) and an UP5K (sg48, through the narrow UART board
top synth/board_top.v, as the AXI wrapper needs more pins than the sg48 has), records fit,
Fmax, the critical path and the icetime cross-check. Logs and netlists go to
OUTDIR/<family>_<C>x<T>/. NR_TASKS with the suffix nb (e.g. 256nb), or LCU_BALANCE=0,
builds the engine without its BALANCE unit (hws_top parameter LCU_BALANCE=0, the build for
FPGAs too small for it); the suffix ne, or ERR_COUNTERS=0, leaves out the per-code error
counters ERR_CNT1..11 (parameter ERR_COUNTERS=0); the suffix ni, or IRQ=0, leaves out the
preemption interrupt (parameter IRQ=0). Suffixes combine in the order nb, ne, ni: nbneni,
all three, is the reference HX8K build at 8x256; the files are then
<family>_<C>x<T>nb, ..ne, ..ni, ..nbne, ..nbneni and so on. The suffix bl<lanes> (last),
or BAL_LANES=<lanes>, builds BALANCE with that many lanes (hws_top parameter BAL_LANES,
1..NR_CPUS; docs/accelerator.md 8.2), files <family>_<C>x<T>bl<lanes> (none when the lanes
are NR_CPUS, the default). The suffix ln builds the area-lean BALANCE (hws_top parameter
LCU_LEAN=1, docs/accelerator.md 8.2.1), files <family>_<C>x<T>ln. The configuration is
the shape key's (docs/shapes.md) without x<cmd_depth>[r<res_depth>]g<groups>:
build/hws_shape_key --synth reads and checks it (it is built here when missing), and every
parameter synth/hws_synth_top.v declares is passed to Yosys. Exits 0 whenever the JSON was
written (even for "failed" or "too big"), 2 on bad usage. Runs from any directory; paths
are relative to the repository.

Environment (optional):
  NR_GROUPS CMD_DEPTH RES_DEPTH   other hws_top parameters (default 16 16 16)
  LCU_BALANCE      1 (default) or 0: as the nb suffix
  ERR_COUNTERS     1 (default) or 0: as the ne suffix
  BAL_LANES        1..NR_CPUS, or 0 (default: NR_CPUS): as the bl<lanes> suffix
  IRQ              1 (default) or 0: as the ni suffix
  SYNTH_TIMEOUT    seconds for Yosys (default 10800)
  PNR_TIMEOUT      seconds for each nextpnr run (default 3600)
  LTP_TIMEOUT      seconds for the LUT-level pass (default 1800)
  SYNTH_MEM_MB     virtual memory cap for Yosys and nextpnr (ulimit -v; default half of
                   MemTotal, 0 = none): ecp5 64x4096 grew past 14 GB in Yosys's share pass
  PNR_FREQ         nextpnr --freq target in MHz, 1..1000 (default 60)
  PNR_SEED         nextpnr --seed (default: none given, nextpnr's own; placement and so
                   Fmax vary with it by a MHz or two, recorded as "seed" in the JSON)
  PNR_TIMING_WEIGHT  nextpnr --placer-heap-timingweight, 0..1000 (default 20; nextpnr's 10):
                   how strongly the placer weighs critical paths; 20 is the flow the HX8K
                   table of docs/synthesis.md measures (recorded as "timing_weight")
  PNR              auto | yes | no: iCE40 place and route (auto: only NR_CPUS <= 16)
  UP5K_FORCE=1     run the UP5K P&R even when the engine alone already packs into more
                   logic cells than the UP5K has (normally skipped and recorded as such)
  BOARD            icebreaker: P&R the UART board top with synth/icebreaker.pcf on the
                   UP5K sg48 (pins constrained) instead of the unconstrained estimate
  YOSYS_EXTRA      extra options appended to synth_<family> (e.g. -abc9)
  SYNTH_NOSHARE=1  ecp5, xilinx: leave out the script's share pass (it ran out of memory
                   at 64x4096); the counts are then an upper bound, and yosys_flags says so
EOF
}

die_usage() { echo "synth_one.sh: $*" >&2; echo "try: synth/synth_one.sh --help" >&2; exit 2; }

case "${1:-}" in -h|--help) usage; exit 0;; esac
# One argument with spaces: a line of sweep_list.sh as GNU parallel passes {}.
if [ $# -eq 1 ]; then
	# shellcheck disable=SC2086
	set -- $1
fi
[ $# -eq 4 ] || die_usage "expected FAMILY NR_CPUS NR_TASKS OUTDIR, got $# arguments"
FAMILY=$1 CPUS=$2 TASKS=$3 OUTDIR=$4
case "$FAMILY" in ice40|ecp5|xilinx|gowin) ;; *) die_usage "unknown family '$FAMILY' (ice40 ecp5 xilinx gowin)";; esac
case "$CPUS" in ''|*[!0-9]*) die_usage "NR_CPUS '$CPUS' is not a number";; esac
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
# The configuration and the environment's parameters: build/hws_shape_key (lib/hws_params.c,
# regmap/params.def) checks them and gives each parameter's value, the canonical name and
# the -chparam list of the parameters synth/hws_synth_top.v declares. Built here when
# missing (a synthesis host may have only the sources).
KEYTOOL=${HWS_SHAPE_KEY:-$ROOT/build/hws_shape_key}
if [ ! -x "$KEYTOOL" ]; then
	mkdir -p "$(dirname "$KEYTOOL")"
	${CC:-cc} -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -I"$ROOT/include" -I"$ROOT" -o "$KEYTOOL.tmp.$$" \
		"$ROOT/tools/hws_shape_key.c" "$ROOT/lib/hws_params.c" && mv "$KEYTOOL.tmp.$$" "$KEYTOOL" ||
		die_usage "cannot build $KEYTOOL"
fi
TOP_PARAMS=$(sed -n 's/^ *parameter integer \([A-Z_0-9]*\) *=.*/\1/p' "$HERE/hws_synth_top.v" | tr '\n' ' ')
CFG=$("$KEYTOOL" --synth "$CPUS" "$TASKS" "${TOP_PARAMS% }" 2>&1) || die_usage "${CFG#hws_shape_key: }"
eval "$CFG"
BAL=$LCU_BALANCE ECNT=$ERR_COUNTERS LANES=$BAL_LANES IRQP=$IRQ CPUS=$NR_CPUS TASKS=$NR_TASKS
GROUPS_=$NR_GROUPS CMDD=$CMD_DEPTH RESD=$RES_DEPTH
SFX=${SYNTH_NAME#"${CPUS}x${TASKS}"}
SYNTH_TIMEOUT=${SYNTH_TIMEOUT:-10800}
PNR_TIMEOUT=${PNR_TIMEOUT:-3600}
LTP_TIMEOUT=${LTP_TIMEOUT:-1800}
PNR_FREQ=${PNR_FREQ:-60}
case "$PNR_FREQ" in ''|*[!0-9.]*|*.*.*|.*|*.) die_usage "PNR_FREQ '$PNR_FREQ' is not a frequency in MHz (1..1000, e.g. 40 or 12.5)";; esac
awk -v f="$PNR_FREQ" 'BEGIN { exit !(f >= 1 && f <= 1000) }' || die_usage "PNR_FREQ '$PNR_FREQ' is out of range 1..1000 MHz"
PNR_SEED=${PNR_SEED:-}
case "$PNR_SEED" in *[!0-9]*) die_usage "PNR_SEED '$PNR_SEED' is not a number";; esac
PNR_TIMING_WEIGHT=${PNR_TIMING_WEIGHT:-20}
case "$PNR_TIMING_WEIGHT" in ''|*[!0-9]*) die_usage "PNR_TIMING_WEIGHT '$PNR_TIMING_WEIGHT' is not a whole number 0..1000";; esac
[ "${#PNR_TIMING_WEIGHT}" -le 9 ] && [ "$((10#$PNR_TIMING_WEIGHT))" -le 1000 ] ||
	die_usage "PNR_TIMING_WEIGHT '$PNR_TIMING_WEIGHT' is out of range 0..1000"
PNR_TIMING_WEIGHT=$((10#$PNR_TIMING_WEIGHT))
SYNTH_MEM_MB=${SYNTH_MEM_MB:-$(awk '/^MemTotal:/ { printf "%d", $2 / 2048 }' /proc/meminfo 2>/dev/null || echo 0)}
case "$SYNTH_MEM_MB" in ''|*[!0-9]*) die_usage "SYNTH_MEM_MB '$SYNTH_MEM_MB' is not a number";; esac
PNR=${PNR:-auto}
BOARD=${BOARD:-}
YOSYS_EXTRA=${YOSYS_EXTRA:-}
case "$BOARD" in ''|icebreaker) ;; *) die_usage "unknown BOARD '$BOARD' (icebreaker)";; esac

# The cap holds for every tool this job starts (ulimit applies to this shell's children).
[ "$SYNTH_MEM_MB" -gt 0 ] && ulimit -v $((SYNTH_MEM_MB * 1024))

mkdir -p "$OUTDIR"
OUTDIR=$(cd "$OUTDIR" && pwd)
cd "$ROOT"

NAME="${FAMILY}_${CPUS}x${TASKS}${SFX}"
WORK="$OUTDIR/$NAME"
JSON="$OUTDIR/$NAME.json"
TAG="synth_one.sh [$FAMILY ${CPUS}x${TASKS}${SFX}]"
rm -rf "$WORK"; mkdir -p "$WORK"
rm -f "$JSON"

RTL_SRCS=$(ls rtl/*.v 2>/dev/null | sort | tr '\n' ' ')
[ -n "$RTL_SRCS" ] || { echo "$TAG: no rtl/*.v under $ROOT" >&2; exit 1; }

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
jstr() { # JSON string from $1
	printf '"%s"' "$(printf '%s' "$1" | tr '\n\t' '  ' | sed 's/\\/\\\\/g; s/"/\\"/g')"
}
jnum() { if [ -n "$1" ]; then printf '%s' "$1"; else printf 'null'; fi; }

# ---- per family: synthesis command, cell classes, reference device -----------------------
TOP=hws_synth_top
PARAMS=$CHPARAMS   # every parameter hws_synth_top declares (hws_shape_key --synth)
case "$FAMILY" in
ice40)
	SYNTH="synth_ice40 -top $TOP $YOSYS_EXTRA; write_json $WORK/netlist.json"
	LUT_RE='^SB_LUT4$'; FF_RE='^SB_DFF'; BRAM_RE='^SB_RAM40_4K'; CARRY_RE='^SB_CARRY$'
	LUTRAM_RE='^$'; MUX_RE='^$'; DSP_RE='^SB_MAC16$'
	LIB=+/ice40/cells_sim.v
	REF_DEV="iCE40HX8K"; REF_LUTS=7680; REF_BRAMS=32 ;;
ecp5)
	SYNTH="synth_ecp5 -top $TOP -nowidelut $YOSYS_EXTRA; write_json $WORK/netlist.json"
	LUT_RE='^LUT4$'; FF_RE='^TRELLIS_FF$'; BRAM_RE='^(DP16KD|PDPW16KD)$'; CARRY_RE='^CCU2C$'
	LUTRAM_RE='^TRELLIS_DPR16X4$'; MUX_RE='^(PFUMX|L6MUX21)$'; DSP_RE='^(MULT18X18D|ALU54B)$'
	LIB=+/ecp5/cells_sim.v
	REF_DEV="LFE5U-85F"; REF_LUTS=83640; REF_BRAMS=208 ;;
xilinx)
	SYNTH="synth_xilinx -top $TOP -family xc7 -flatten -noiopad $YOSYS_EXTRA; write_json $WORK/netlist.json"
	LUT_RE='^LUT[1-6]$'; FF_RE='^FD[A-Z_0-9]*$'; BRAM_RE='^RAMB(18|36)E1$'; CARRY_RE='^CARRY4$'
	LUTRAM_RE='^(RAM[0-9]+[A-Z0-9]*|SRL16E|SRLC32E)$'; MUX_RE='^MUXF[78]$'; DSP_RE='^DSP48E1$'
	LIB=+/xilinx/cells_sim.v
	REF_DEV="XC7A200T"; REF_LUTS=133800; REF_BRAMS=730 ;;   # BRAMs counted as RAMB18 halves
gowin)
	SYNTH="synth_gowin -top $TOP -noiopads -nowidelut $YOSYS_EXTRA; write_json $WORK/netlist.json"
	LUT_RE='^LUT[1-4]$'; FF_RE='^DFF[A-Z]*$'; BRAM_RE='^(SP|SPX9|SDP|SDPX9|SDPB|SDPX9B|DP|DPX9|DPB|DPX9B|pROM|pROMX9)$'
	CARRY_RE='^ALU$'; LUTRAM_RE='^RAM16S[A-Z0-9]*$'; MUX_RE='^MUX2_LUT[5-8]$'; DSP_RE='^(MULT[0-9A-Z]*|MULTALU[0-9A-Z]*|ALU54D|PADD[0-9]*)$'
	LIB=+/gowin/cells_sim.v
	REF_DEV="GW2A-18"; REF_LUTS=20736; REF_BRAMS=46 ;;
esac
YOSYS_FLAGS=$(printf '%s' "$SYNTH" | sed 's/;.*//; s/ *$//')
# SYNTH_NOSHARE=1: the family's script with its `share` step (SAT-based sharing of
# mutually exclusive operators) left out: the script up to its coarse label, the coarse
# commands of `help synth_<family>` (Yosys 0.23) without share, then the rest. For
# configurations where share runs out of memory; sharing can only remove cells, so the
# counts are then an upper bound. ecp5 and xilinx only (the families of the 64-CPU rows).
# On ecp5 the script's final `autoname` (renaming only) is left out too: at 64x4096 it ran
# past an 11 GB cap after everything else had finished; its `blackbox =A:whitebox` (the
# cell models become black boxes, which write_json needs) is kept.
SYNTH_NOSHARE=${SYNTH_NOSHARE:-0}
case "$SYNTH_NOSHARE" in
0) ;;
1)
	case "$FAMILY" in
	ecp5)
		S="synth_ecp5 -top $TOP -nowidelut $YOSYS_EXTRA"
		SYNTH="$S -run :coarse; proc; flatten; tribuf -logic; deminout; opt_expr; opt_clean; check;
			opt -nodffe -nosdff; fsm; opt; wreduce; peepopt; opt_clean;
			techmap -map +/cmp2lut.v -D LUT_WIDTH=4; opt_expr; opt_clean;
			techmap -map +/mul2dsp.v -map +/ecp5/dsp_map.v -D DSP_A_MAXWIDTH=18 -D DSP_B_MAXWIDTH=18 -D DSP_A_MINWIDTH=2 -D DSP_B_MINWIDTH=2 -D DSP_NAME=\$__MUL18X18;
			chtype -set \$mul t:\$__soft_mul; alumacc; opt; memory -nomap; opt_clean;
			$S -run map_ram:check; hierarchy -check; check -noinit; blackbox =A:whitebox;
			write_json $WORK/netlist.json" ;;
	xilinx)
		S="synth_xilinx -top $TOP -family xc7 -flatten -noiopad $YOSYS_EXTRA"
		SYNTH="$S -run :coarse; techmap -map +/cmp2lut.v -map +/cmp2lcu.v -D LUT_WIDTH=6;
			alumacc; opt; memory -nomap; opt_clean; $S -run map_memory:; write_json $WORK/netlist.json" ;;
	*) die_usage "SYNTH_NOSHARE=1 is implemented for ecp5 and xilinx, not $FAMILY" ;;
	esac
	YOSYS_FLAGS="$(printf "%s" "$S" | sed "s/  */ /g; s/ *$//") (without its share step: SYNTH_NOSHARE=1)" ;;
*) die_usage "SYNTH_NOSHARE '$SYNTH_NOSHARE' is not 0 or 1" ;;
esac

# ---- Yosys --------------------------------------------------------------------------------
echo "$TAG: yosys ($YOSYS_FLAGS) ..." >&2
STATUS=ok REASON=""
YOSYS_VER=$(yosys -V 2>/dev/null | head -1 || echo unknown)
t0=$(now)
set +e
timeout "$SYNTH_TIMEOUT" yosys -q -l "$WORK/yosys.log" -p "
	read_verilog -sv -DSYNTHESIS -Irtl synth/hws_synth_top.v $RTL_SRCS;
	hierarchy -check -top $TOP $PARAMS;
	$SYNTH;
	tee -q -o $WORK/stat.txt stat" >"$WORK/yosys.out" 2>&1
rc=$?
set -e
t1=$(now)
YOSYS_S=$(elapsed "$t0" "$t1")
if [ $rc -eq 124 ]; then
	STATUS=failed REASON="yosys timed out after ${SYNTH_TIMEOUT} s"
elif [ $rc -ne 0 ] && grep -q -i -E 'bad_alloc|out of memory|Cannot allocate' "$WORK/yosys.out" "$WORK/yosys.log" 2>/dev/null; then
	STATUS=failed REASON="yosys ran out of memory (cap SYNTH_MEM_MB=$SYNTH_MEM_MB) after $YOSYS_S s"
elif [ $rc -gt 128 ]; then
	STATUS=failed REASON="yosys killed by signal $((rc - 128)) after $YOSYS_S s (last pass: $(grep -E '^[0-9.]+ Executing' "$WORK/yosys.log" 2>/dev/null | tail -1 | cut -c1-120))"
elif [ $rc -ne 0 ] || [ ! -s "$WORK/stat.txt" ]; then
	msg=$(grep -m1 -E 'ERROR|rror:' "$WORK/yosys.out" "$WORK/yosys.log" 2>/dev/null | head -1 | cut -d: -f2- | cut -c1-300)
	STATUS=failed REASON="yosys exited $rc: ${msg:-see $WORK/yosys.log}"
fi

# Every family flattens (synth_xilinx only with -flatten): a second module would mean the
# counts below miss its cells.
if [ "$STATUS" = ok ] && [ "$(grep -c '^=== ' "$WORK/stat.txt")" -ne 1 ]; then
	STATUS=failed REASON="the netlist is not flat ($(grep '^=== ' "$WORK/stat.txt" | wc -l) modules in $WORK/stat.txt)"
fi

# ---- cell counts ------------------------------------------------------------------------
count() { # regexp -> sum of the matching cell counts in stat.txt
	[ -s "$WORK/stat.txt" ] || { printf ''; return; }
	awk -v re="$1" -v top="$TOP" 'BEGIN { n = 0 }
		/^=== / { in_top = ($2 == top); in_c = 0; next }
		in_top && /Number of cells:/ { in_c = 1; next }
		in_c && NF == 2 && $2 ~ /^[0-9]+$/ { if (re != "^$" && $1 ~ re) n += $2; next }
		in_c && NF != 2 { in_c = 0 }
		END { print n }' "$WORK/stat.txt"
}
LUTS="" FFS="" BRAMS="" CARRIES="" LUTRAMS="" MUXES="" DSPS="" LUT_SIZES="{}"
if [ "$STATUS" = ok ]; then
	LUTS=$(count "$LUT_RE"); FFS=$(count "$FF_RE"); BRAMS=$(count "$BRAM_RE")
	CARRIES=$(count "$CARRY_RE"); LUTRAMS=$(count "$LUTRAM_RE"); MUXES=$(count "$MUX_RE")
	DSPS=$(count "$DSP_RE")
	if [ "$FAMILY" = xilinx ] || [ "$FAMILY" = gowin ]; then
		LUT_SIZES=$(for k in 1 2 3 4 5 6; do
			[ "$FAMILY" = gowin ] && [ $k -gt 4 ] && continue
			printf '"LUT%s": %s\n' "$k" "$(count "^LUT$k\$")"; done | paste -sd, - | sed 's/^/{/; s/$/}/; s/,/, /g')
	fi
	if [ "$LUTS" -gt "$REF_LUTS" ]; then
		STATUS="too big"; REASON="$LUTS LUTs > $REF_LUTS of the $REF_DEV"
	fi
fi

# ---- LUT levels (ltp over the mapped LUT cells) -----------------------------------------
# ltp only knows directions of cells whose modules are in the design: read the family's cell
# library as blackboxes. LUT levels: the longest chain of LUT cells (cut at flops, block
# RAM, carry chains and pads). Logic depth: the same over LUTs, carry and wide-mux cells.
LUT_LEVELS="" DEPTH_CELLS="" LTP_S="" LTP_FROM="" LTP_TO=""
if [ "$STATUS" != failed ]; then
	case "$FAMILY" in
	ice40) lsel="t:SB_LUT4"; dsel="t:SB_LUT4 t:SB_CARRY" ;;
	ecp5) lsel="t:LUT4"; dsel="t:LUT4 t:CCU2C t:PFUMX t:L6MUX21" ;;
	xilinx) lsel="t:LUT1 t:LUT2 t:LUT3 t:LUT4 t:LUT5 t:LUT6"; dsel="$lsel t:CARRY4 t:MUXF7 t:MUXF8" ;;
	gowin) lsel="t:LUT1 t:LUT2 t:LUT3 t:LUT4"; dsel="$lsel t:ALU t:MUX2_LUT5 t:MUX2_LUT6 t:MUX2_LUT7 t:MUX2_LUT8" ;;
	esac
	t0=$(now)
	set +e
	timeout "$LTP_TIMEOUT" yosys -q -p "
		read_json $WORK/netlist.json; read_verilog -lib $LIB;
		tee -q -o $WORK/ltp_luts.txt ltp -noff $TOP/w:* $(printf '%s' "$lsel" | sed "s|t:|$TOP/t:|g");
		tee -q -o $WORK/ltp_depth.txt ltp -noff $TOP/w:* $(printf '%s' "$dsel" | sed "s|t:|$TOP/t:|g")" \
		>"$WORK/ltp.out" 2>&1
	lrc=$?
	set -e
	LTP_S=$(elapsed "$t0" "$(now)")
	lv() { sed -n 's/.*(length=\(-*[0-9]*\)).*/\1/p' "$1" 2>/dev/null | tail -1; }
	if [ $lrc -eq 0 ]; then
		LUT_LEVELS=$(lv "$WORK/ltp_luts.txt"); DEPTH_CELLS=$(lv "$WORK/ltp_depth.txt")
		[ "${LUT_LEVELS:--1}" -ge 0 ] || LUT_LEVELS=""
		[ "${DEPTH_CELLS:--1}" -ge 0 ] || DEPTH_CELLS=""
		# The path's first and last signal, for reading it in RTL terms.
		LTP_FROM=$(awk '/^ *[0-9]+: /{ sub(/^\\/, "", $2); print $2; exit }' "$WORK/ltp_luts.txt")
		LTP_TO=$(awk '/^ *[0-9]+: /{ s = $2 } END { sub(/^\\/, "", s); print s }' "$WORK/ltp_luts.txt")
	else
		echo "$TAG: ltp failed or timed out (rc $lrc), LUT levels left null" >&2
	fi
fi

# ---- iCE40 place and route -----------------------------------------------------------------
# pnr_one DEVICE PACKAGE NETLIST PCF WORKDIR: writes WORKDIR/pnr.json (one JSON object).
# cpath_field nets|src|split LOG: of the last clock-to-clock critical path report of a
# nextpnr log, the nets along it, the RTL source locations nextpnr names for them (in order,
# each once), or its "x ns logic, y ns routing" split.
cpath_field() {
	awk -v what="$1" '
		/Critical path report for clock/ { coll = 1; n = 0; m = 0; split("", seen); sp = ""; next }
		/Critical path report for cross-domain/ { coll = 0; next }
		coll && / Net / { for (i = 1; i <= NF; i++) if ($i == "Net") { a[++n] = $(i + 1); break } }
		coll && /Info: +(rtl|synth)\/[^ ]+:[0-9]/ { loc = $2; if (!(loc in seen)) { seen[loc] = 1; b[++m] = loc } }
		coll && / ns logic, / { sub(/^Info: */, ""); sp = $0; coll = 0; fn = n; fm = m; fsp = sp
			for (i = 1; i <= n; i++) fa[i] = a[i]; for (i = 1; i <= m; i++) fb[i] = b[i] }
		END {
			if (what == "nets") for (i = 1; i <= fn; i++) printf "%s%s", (i > 1 ? " " : ""), fa[i]
			if (what == "src") for (i = 1; i <= fm; i++) printf "%s%s", (i > 1 ? " " : ""), fb[i]
			if (what == "split") printf "%s", fsp
		}' "$2"
}

pnr_one() {
	dev=$1 pkg=$2 net=$3 pcf=$4 dir=$5
	mkdir -p "$dir"
	pcfopt="--pcf-allow-unconstrained"
	[ -n "$pcf" ] && pcfopt="--pcf $pcf"
	[ -n "$PNR_SEED" ] && pcfopt="$pcfopt --seed $PNR_SEED"
	echo "$TAG: nextpnr-ice40 --$dev --package $pkg ..." >&2
	p0=$(now)
	set +e
	# shellcheck disable=SC2086
	timeout "$PNR_TIMEOUT" nextpnr-ice40 --"$dev" --package "$pkg" --json "$net" $pcfopt \
		--freq "$PNR_FREQ" --placer-heap-timingweight "$PNR_TIMING_WEIGHT" \
		--timing-allow-fail --asc "$dir/out.asc" -l "$dir/nextpnr.log" \
		>"$dir/nextpnr.out" 2>&1
	prc=$?
	set -e
	ps=$(elapsed "$p0" "$(now)")
	log="$dir/nextpnr.log"; [ -s "$log" ] || log="$dir/nextpnr.out"
	lc=$(awk '/ICESTORM_LC:/ { split($3, a, "/"); u = a[1]; v = $4 } END { print u " " v }' "$log")
	lc_used=${lc% *}; lc_avail=${lc#* }
	io=$(awk '/SB_IO:/ { split($3, a, "/"); u = a[1]; v = $4 } END { print u " " v }' "$log")
	io_used=${io% *}; io_avail=${io#* }
	fmax="" icet="" cpath="" csrc="" csplit="" pstat="" preason=""
	if [ $prc -eq 124 ]; then
		pstat=failed preason="nextpnr timed out after $PNR_TIMEOUT s"
	elif [ $prc -ne 0 ]; then
		err=$(grep -m1 'ERROR:' "$log" | sed 's/^ERROR: *//' | cut -c1-300)
		if printf '%s' "$err" | grep -q -E 'no BELs remaining|Unable to place|Design uses|too many|does not fit|Failed to place|Failed to expand region|IO pin'; then
			pstat="does not fit"
			preason="${err}; ICESTORM_LC ${lc_used:-?}/${lc_avail:-?}, SB_IO ${io_used:-?}/${io_avail:-?}"
		else
			pstat=failed preason="nextpnr exited $prc: ${err:-see $log}"
		fi
	else
		pstat=ok
		fmax=$(sed -n "s/.*Max frequency for clock '[^']*': \([0-9.]*\) MHz.*/\1/p" "$log" | tail -1)
		# Critical path of the last report (after routing): the nets along it.
		cpath=$(cpath_field nets "$log")
		csrc=$(cpath_field src "$log")
		csplit=$(cpath_field split "$log")
		if [ -s "$dir/out.asc" ]; then
			set +e
			# No -p: icetime's PCF reader rejects "set_io -nowarn" (assertion), and the
			# routed .asc already holds the placement.
			timeout "$PNR_TIMEOUT" icetime -d "$dev" -P "$pkg" -t -r "$dir/icetime.rpt" "$dir/out.asc" \
				>"$dir/icetime.out" 2>&1
			set -e
			icet=$(sed -n 's/.*Total path delay:.*(\([0-9.]*\) MHz).*/\1/p' "$dir/icetime.out" "$dir/icetime.rpt" 2>/dev/null | tail -1)
		fi
	fi
	{
		printf '{"device": "%s", "package": "%s", "status": %s, "reason": %s, ' "$dev" "$pkg" "$(jstr "$pstat")" "$(jstr "$preason")"
		printf '"lc_used": %s, "lc_avail": %s, "io_used": %s, "io_avail": %s, ' "$(jnum "$lc_used")" "$(jnum "$lc_avail")" "$(jnum "$io_used")" "$(jnum "$io_avail")"
		printf '"fmax_mhz": %s, "icetime_mhz": %s, "target_mhz": %s, "seconds": %s, "critical_path": %s' \
			"$(jnum "$fmax")" "$(jnum "$icet")" "$PNR_FREQ" "$ps" "$(jstr "$cpath")"
		printf ', "critical_path_src": %s, "critical_path_split": %s' "$(jstr "$csrc")" "$(jstr "$csplit")"
		printf ', "seed": %s, "timing_weight": %s}\n' "$(jnum "$PNR_SEED")" "$PNR_TIMING_WEIGHT"
	} >"$dir/pnr.json"
}
pnr_skip() { # DEVICE PACKAGE DIR REASON
	mkdir -p "$3"
	printf '{"device": "%s", "package": "%s", "status": "skipped", "reason": %s, ' "$1" "$2" "$(jstr "$4")" >"$3/pnr.json"
	printf '"lc_used": null, "lc_avail": null, "io_used": null, "io_avail": null, "fmax_mhz": null, ' >>"$3/pnr.json"
	printf '"icetime_mhz": null, "target_mhz": %s, "seconds": null, "critical_path": "", ' "$PNR_FREQ" >>"$3/pnr.json"
	printf '"critical_path_src": "", "critical_path_split": "", "seed": null, "timing_weight": null}\n' >>"$3/pnr.json"
}

PNR_JSON=""
if [ "$FAMILY" = ice40 ]; then
	do_pnr=$PNR
	if [ "$do_pnr" = auto ]; then
		if [ "$CPUS" -le 16 ]; then do_pnr=yes; else do_pnr=no; fi
	fi
	if [ "$STATUS" = failed ]; then
		pnr_skip hx8k ct256 "$WORK/hx8k" "synthesis failed"
		pnr_skip up5k sg48 "$WORK/up5k" "synthesis failed"
	elif [ "$do_pnr" != yes ]; then
		pnr_skip hx8k ct256 "$WORK/hx8k" "P&R only for NR_CPUS <= 16 (PNR=$PNR)"
		pnr_skip up5k sg48 "$WORK/up5k" "P&R only for NR_CPUS <= 16 (PNR=$PNR)"
	else
		pnr_one hx8k ct256 "$WORK/netlist.json" "" "$WORK/hx8k"
		# UP5K sg48: 39 pins, the AXI wrapper needs ~106: P&R the UART board top instead
		# (a second Yosys run), unless the engine alone is already bigger than the device.
		hx_lc=$(sed -n 's/.*"lc_used": \([0-9]*\).*/\1/p' "$WORK/hx8k/pnr.json")
		if [ -z "$BOARD" ] && [ "${UP5K_FORCE:-0}" != 1 ] && [ -n "$hx_lc" ] && [ "$hx_lc" -gt 5280 ]; then
			pnr_skip up5k sg48 "$WORK/up5k" "does not fit: the engine alone packs into $hx_lc logic cells (HX8K run), the UP5K has 5280 (UP5K_FORCE=1 runs it anyway)"
			sed -i 's/"status": "skipped"/"status": "does not fit"/' "$WORK/up5k/pnr.json"
		else
			echo "$TAG: yosys for the UP5K board top ..." >&2
			set +e
			timeout "$SYNTH_TIMEOUT" yosys -q -l "$WORK/yosys_board.log" -p "
				read_verilog -sv -DSYNTHESIS -Irtl synth/board_top.v $RTL_SRCS;
				hierarchy -check -top board_top $PARAMS;
				synth_ice40 -top board_top $YOSYS_EXTRA; write_json $WORK/board.json" \
				>"$WORK/yosys_board.out" 2>&1
			brc=$?
			set -e
			if [ $brc -ne 0 ]; then
				pnr_skip up5k sg48 "$WORK/up5k" "yosys for synth/board_top.v exited $brc (see $WORK/yosys_board.log)"
				sed -i 's/"status": "skipped"/"status": "failed"/' "$WORK/up5k/pnr.json"
			else
				pcf=""; [ "$BOARD" = icebreaker ] && pcf="$ROOT/synth/icebreaker.pcf"
				pnr_one up5k sg48 "$WORK/board.json" "$pcf" "$WORK/up5k"
			fi
		fi
	fi
	PNR_JSON=$(printf '{"hx8k": %s, "up5k": %s}' "$(cat "$WORK/hx8k/pnr.json")" "$(cat "$WORK/up5k/pnr.json")")
	if [ "$STATUS" != failed ] && [ "$do_pnr" = yes ]; then
		if grep -q '"status": "ok"' "$WORK/hx8k/pnr.json" || grep -q '"status": "ok"' "$WORK/up5k/pnr.json"; then
			STATUS=ok REASON=""
		elif grep -q '"status": "does not fit"' "$WORK/hx8k/pnr.json"; then
			STATUS="too big"; REASON="does not fit an HX8K or an UP5K (nextpnr)"
		fi
	fi
fi

# ---- the JSON ---------------------------------------------------------------------------
COMMIT=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
DIRTY=$(git -C "$ROOT" status --porcelain -- rtl synth 2>/dev/null | head -1)
[ -n "$DIRTY" ] && COMMIT="$COMMIT+dirty"
RTL_COMMIT=$(git -C "$ROOT" log -1 --format=%h -- rtl 2>/dev/null || echo unknown)
[ -n "$(git -C "$ROOT" status --porcelain -- rtl 2>/dev/null | head -1)" ] && RTL_COMMIT="$RTL_COMMIT+dirty"
{
	printf '{\n'
	printf '  "family": "%s", "nr_cpus": %s, "nr_tasks": %s,\n' "$FAMILY" "$CPUS" "$TASKS"
	printf '  "nr_groups": %s, "cmd_depth": %s, "res_depth": %s, "lcu_balance": %s, "err_counters": %s, "bal_lanes": %s, "irq": %s, "lcu_lean": %s,\n' "$GROUPS_" "$CMDD" "$RESD" "$BAL" "$ECNT" "$LANES" "$IRQP" "$LCU_LEAN"
	printf '  "status": %s, "reason": %s,\n' "$(jstr "$STATUS")" "$(jstr "$REASON")"
	printf '  "luts": %s, "lut_sizes": %s, "ffs": %s, "brams": %s, "carries": %s,\n' \
		"$(jnum "$LUTS")" "$LUT_SIZES" "$(jnum "$FFS")" "$(jnum "$BRAMS")" "$(jnum "$CARRIES")"
	printf '  "lutrams": %s, "wide_muxes": %s, "dsps": %s,\n' "$(jnum "$LUTRAMS")" "$(jnum "$MUXES")" "$(jnum "$DSPS")"
	printf '  "lut_levels": %s, "depth_cells": %s, "lut_path_from": %s, "lut_path_to": %s,\n' \
		"$(jnum "$LUT_LEVELS")" "$(jnum "$DEPTH_CELLS")" "$(jstr "$LTP_FROM")" "$(jstr "$LTP_TO")"
	printf '  "ref_device": "%s", "ref_device_luts": %s, "ref_device_brams": %s,\n' "$REF_DEV" "$REF_LUTS" "$REF_BRAMS"
	printf '  "yosys_seconds": %s, "ltp_seconds": %s, "mem_cap_mb": %s,\n' "$(jnum "$YOSYS_S")" "$(jnum "$LTP_S")" "$SYNTH_MEM_MB"
	printf '  "yosys": %s, "yosys_flags": %s, "commit": "%s", "rtl_commit": "%s", "host": %s' \
		"$(jstr "$YOSYS_VER")" "$(jstr "$YOSYS_FLAGS")" "$COMMIT" "$RTL_COMMIT" "$(jstr "$(hostname)")"
	if [ -n "$PNR_JSON" ]; then printf ',\n  "pnr": %s\n' "$PNR_JSON"; else printf '\n'; fi
	printf '}\n'
} >"$JSON.tmp"
mv "$JSON.tmp" "$JSON"
echo "$TAG: $STATUS${REASON:+ ($REASON)}: LUTs ${LUTS:-?} FFs ${FFS:-?} BRAMs ${BRAMS:-?}, yosys ${YOSYS_S} s -> $JSON" >&2
