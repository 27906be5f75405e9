#!/usr/bin/env bash
# run.sh - the per-module testbenches of tests/rtl/, each compiled by Icarus (-g2012) for
# every parameter set below and run with a seed; each prints PASS or stops with FAIL and
# the seed. usage: tests/rtl/run.sh OUTDIR [SEED]   (SEED: default 1, or $HWS_SEED)
# Exit status: 0 when every run printed PASS.
set -u
# --help: the comment block above is the usage.
case "${1:-}" in -h | --help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/build/rtl-tb}
seed=${2:-${HWS_SEED:-1}}
mkdir -p "$out"

# tb  module files (several joined by +)  parameter sets (space-separated; each a comma
# list of K=V, or -)
RUNS=(
	"tb_ffs16 - -"
	"tb_fifo rtl/hws_fifo.v WIDTH=1,DEPTH=2 WIDTH=8,DEPTH=3 WIDTH=32,DEPTH=4 WIDTH=16,DEPTH=5 WIDTH=32,DEPTH=16 WIDTH=32,DEPTH=17 WIDTH=8,DEPTH=32"
	"tb_ram rtl/hws_ram.v DEPTH=2,WIDTH=1,AW=1 DEPTH=5,WIDTH=7,AW=3 DEPTH=16,WIDTH=16,AW=4 DEPTH=140,WIDTH=12,AW=8 DEPTH=256,WIDTH=32,AW=8"
	"tb_flags rtl/hws_flags.v N=1,AW=1 N=2,AW=1 N=5,AW=3 N=16,AW=4 N=100,AW=7 N=256,AW=8 N=300,AW=9"
	"tb_bal_lean rtl/hws_balance_lean.v+rtl/hws_balance.v+rtl/hws_bsum.v+rtl/hws_div8.v NR_CPUS=1,LOAD_W=26 NR_CPUS=2,LOAD_W=26 NR_CPUS=3,LOAD_W=26 NR_CPUS=4,LOAD_W=26 NR_CPUS=8,LOAD_W=26 NR_CPUS=4,LOAD_W=18"
)
fail=0
n=0
for line in "${RUNS[@]}"; do
	read -r tb file sets <<<"$line"
	src=$root/tests/rtl/$tb.v
	if [ "$file" != - ]; then
		for f in ${file//+/ }; do src="$src $root/$f"; done
	fi
	for set in $sets; do
		args=()
		tag=$tb
		if [ "$set" != - ]; then
			for kv in ${set//,/ }; do args+=(-P "$tb.$kv"); done
			tag=${tb}_${set//[=,]/_}
		fi
		n=$((n + 1))
		if ! iverilog -g2012 -I"$root/rtl" "${args[@]}" -o "$out/$tag.vvp" $src 2>"$out/$tag.log"; then
			echo "rtl-tb: $tag does not compile (see $out/$tag.log)" >&2
			fail=$((fail + 1))
			continue
		fi
		vvp -n "$out/$tag.vvp" +seed="$seed" >"$out/$tag.out" 2>&1
		if grep -q ': PASS' "$out/$tag.out" && ! grep -q 'FAIL' "$out/$tag.out"; then
			grep -h ': PASS' "$out/$tag.out"
		else
			echo "rtl-tb: $tag failed (seed $seed):" >&2
			grep -h 'FAIL\|error' "$out/$tag.out" >&2
			fail=$((fail + 1))
		fi
	done
done
echo "rtl-tb: $((n - fail)) of $n runs passed (seed $seed)"
[ $fail = 0 ]
