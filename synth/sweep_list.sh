#!/usr/bin/env bash
# sweep_list.sh: print the synthesis sweep, one job a line: FAMILY NR_CPUS NR_TASKS OUTDIR.
set -eu

usage() {
	cat <<'USAGE'
usage: synth/sweep_list.sh [OUTDIR [CONFIGS [FAMILIES]]]

Prints one line per synthesis job, "FAMILY NR_CPUS NR_TASKS OUTDIR", for
synth/synth_one.sh (which accepts such a line as its only argument). Defaults:
  OUTDIR    build/synth
  CONFIGS   every CPUSxTASKS of {2,4,8,16,64} x {64,256,1024,4096}; CPUSxTASKSnb is the
            engine without its BALANCE unit (LCU_BALANCE=0), ..ne without the per-code
            error counters (ERR_COUNTERS=0), ..ni without the interrupt (IRQ=0), combined
            in that order: ..nbneni without all three (the HX8K build);
            never in the default sweep
  FAMILIES  ice40 ecp5 xilinx gowin
Skipped (not printed): NR_CPUS = 64 on ice40 and gowin. Today's engine already needs about
3x an HX8K at 8x256 and the biggest Gowin parts hold ~20k LUT4: those rows would only say
"too big" after hours of Yosys. ecp5 and xilinx get every configuration. Configurations
given explicitly in CONFIGS are never skipped.
Example (spread over hosts, repository at the same path on each):
  synth/sweep_list.sh build/synth | parallel --sshlogin 2/host1,2/host2 --workdir "$PWD" \
      synth/synth_one.sh {}
USAGE
}
case "${1:-}" in -h|--help) usage; exit 0;; esac

OUTDIR=${1:-build/synth}
CONFIGS=${2:-}
FAMILIES=${3:-ice40 ecp5 xilinx gowin}
explicit=1
ROOT=$(cd "$(dirname "$0")/.." && pwd)
KEYTOOL=${HWS_SHAPE_KEY:-$ROOT/build/hws_shape_key}
TOP_PARAMS=$(sed -n 's/^ *parameter integer \([A-Z_0-9]*\) *=.*/\1/p' "$ROOT/synth/hws_synth_top.v" | tr '\n' ' ')
TOP_PARAMS=${TOP_PARAMS% }
if [ -z "$CONFIGS" ]; then
	explicit=0
	for c in 2 4 8 16 64; do for t in 64 256 1024 4096; do CONFIGS="$CONFIGS ${c}x${t}"; done; done
fi
for f in $FAMILIES; do
	case "$f" in ice40|ecp5|xilinx|gowin) ;; *) echo "sweep_list.sh: unknown family '$f'" >&2; exit 2;; esac
	for cfg in $CONFIGS; do
		c=${cfg%x*} t=${cfg#*x}
		case "$c" in ''|*[!0-9]*) echo "sweep_list.sh: bad configuration '$cfg' (want CPUSxTASKS, e.g. 8x256, with optional suffixes nb, ne, ni, bl<lanes> in that order, e.g. 8x256nbneni)" >&2; exit 2;; esac
		# the configuration as synth_one.sh reads it (build/hws_shape_key, when built)
		if [ -x "$KEYTOOL" ]; then
			err=$("$KEYTOOL" --synth "$c" "$t" "$TOP_PARAMS" 2>&1 >/dev/null) ||
				{ echo "sweep_list.sh: bad configuration '$cfg': ${err#hws_shape_key: }" >&2; exit 2; }
		fi
		if [ $explicit = 0 ] && [ "$c" -gt 16 ] && { [ "$f" = ice40 ] || [ "$f" = gowin ]; }; then
			continue
		fi
		echo "$f $c $t $OUTDIR"
	done
done
