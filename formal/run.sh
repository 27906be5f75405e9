#!/usr/bin/env bash
# run.sh - run the formal proofs of formal/proofs.list and print one table row per proof:
# property, method, depth or induction, result, time.
#
# usage: formal/run.sh [--fast] [--only NAME] [--src DIR] [--out DIR]
#   --fast      only the proofs of set "fast" (make formal-fast, run by make test)
#   --only N    only proof N (may be given more than once)
#   --src DIR   read the Verilog files from DIR instead of the repository (formal/mutate.sh
#               gives a copy with a planted bug)
#   --out DIR   where logs and counterexample traces go (default build/formal)
# Methods (formal/proofs.list): induction = a bounded check from reset to max(k, 12) steps,
# then the k-induction step; bmc = the bounded check to depth; tempinduct = yosys sat;
# satbmc = yosys sat's base case alone (a bounded check from reset to depth steps).
# Exit status: 0 when every proof selected passed, 1 when one failed (its log and, for a
# counterexample, trace.vcd are under OUT/NAME/), 2 for bad usage.
# Tools: yosys 0.23, yosys-smtbmc with z3 (docs/formal.md; no SymbiYosys on Debian 12).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
src=$root
out=$root/build/formal
fast=0
only=()
while [ $# -gt 0 ]; do
	case $1 in
	--fast) fast=1 ;;
	--only) only+=("$2"); shift ;;
	--src) src=$(cd "$2" && pwd) || exit 2; shift ;;
	--out) out=$2; shift ;;
	*) echo "formal/run.sh: unknown argument '$1' (usage: formal/run.sh [--fast] [--only NAME] [--src DIR] [--out DIR])" >&2; exit 2 ;;
	esac
	shift
done
for t in yosys yosys-smtbmc z3 verilator; do
	command -v $t >/dev/null || { echo "formal/run.sh: $t not found (apt-get install yosys z3)" >&2; exit 2; }
done
mkdir -p "$out"
list=$root/formal/proofs.list
tsv=$out/results.tsv
: >"$tsv"

now() { date +%s.%N; }

# The base case of an induction is checked from reset to at least this many steps: deeper
# than k costs little, and a planted bug then fails with a trace from reset (trace.vcd)
# rather than only as an induction step that does not close (induction.vcd, a state that
# need not be reachable).
BMC_MIN=12

# prove NAME TOP FILES PARAMS METHOD DEPTH: sets RESULT (PASS/FAIL/ERROR) and WHY.
prove() {
	local name=$1 top=$2 files=$3 params=$4 method=$5 depth=$6 dir=$out/$1
	local read="" f chp="" gpar="" defs="" kv log
	rm -rf "$dir" && mkdir -p "$dir"
	log=$dir/log.txt
	for f in ${files//,/ }; do read+=" $src/$f"; done
	if [ "$params" != "-" ]; then
		for kv in ${params//,/ }; do
			case $kv in
			*=*) chp+=" -chparam ${kv%%=*} ${kv#*=}"; gpar+=" -G${kv%%=*}=${kv#*=}" ;;
			*) defs+=" -D$kv" ;;
			esac
		done
	fi
	# -defer: the modules are elaborated once, with the proof's parameters (hws_rq_engine's
	# properties loop over every task: at the default 256 tasks the first elaboration did not
	# end). proc -norom: a case of constants stays logic (a ROM is an SMT array that z3 did
	# not solve in minutes, hws_eng_seq's lat_fn).
	local script="read_verilog -defer -formal$defs -I$src/rtl$read; hierarchy -top $top$chp; proc -norom; prep -top $top"
	WHY=""
	# The properties are code too: Verilator -Wall with FORMAL defined, as the RTL without.
	# (with the proof's parameters: the engine's properties have a generate block per list
	# and task, which at the default 8 x 256 took Verilator 7 GB)
	if ! verilator --lint-only -Wall -DFORMAL$defs$gpar -I"$src/rtl" --top-module "$top" $read >"$dir/lint.txt" 2>&1; then
		RESULT=ERROR; WHY="verilator --lint-only -Wall -DFORMAL is not clean, see $dir/lint.txt"; return
	fi
	case $method in
	induction | bmc)
		if ! yosys -q -l "$log" -p "$script; write_smt2 $dir/model.smt2" >/dev/null 2>&1; then
			RESULT=ERROR; WHY="yosys failed, see $log"; return
		fi
		local base=$depth
		[ "$method" = induction ] && [ "$base" -lt "$BMC_MIN" ] && base=$BMC_MIN
		yosys-smtbmc -s z3 -t "$base" --dump-vcd "$dir/trace.vcd" "$dir/model.smt2" >>"$log" 2>&1
		if ! grep -aq "Status: PASSED" "$log"; then
			RESULT=FAIL; WHY="bmc: $(grep -ao 'Assert failed in .*' "$log" | head -1)"; return
		fi
		if [ "$method" = induction ]; then
			yosys-smtbmc -s z3 -i -t "$depth" --dump-vcd "$dir/induction.vcd" "$dir/model.smt2" >"$dir/induction.txt" 2>&1
			cat "$dir/induction.txt" >>"$log"
			if ! grep -aq "Status: PASSED" "$dir/induction.txt"; then
				RESULT=FAIL; WHY="induction did not close at k=$depth: $(grep -ao 'Assert failed in .*' "$dir/induction.txt" | head -1)"; return
			fi
		fi
		RESULT=PASS ;;
	tempinduct)
		if yosys -q -l "$log" -p "$script; flatten; memory_map; opt_clean; async2sync; sat -tempinduct -prove-asserts -set-assumes -set-init-zero -maxsteps $depth -dump_vcd $dir/trace.vcd -verify $top" >/dev/null 2>&1; then
			RESULT=PASS
			# The length at which the induction closed (sat tries 1, 2, ... up to depth).
			KIND=$(grep -ao 'Trying induction with length [0-9]*' "$log" | tail -1 | awk '{ print $NF }')
		else
			RESULT=FAIL; WHY="sat -tempinduct failed, see $log"
		fi ;;
	satbmc)
		if yosys -q -l "$log" -p "$script; flatten; memory_map; opt_clean; async2sync; sat -tempinduct -tempinduct-baseonly -prove-asserts -set-assumes -set-init-zero -maxsteps $depth -dump_vcd $dir/trace.vcd -verify $top" >/dev/null 2>&1; then
			RESULT=PASS
		else
			RESULT=FAIL; WHY="sat bounded check failed, see $log"
		fi ;;
	*) RESULT=ERROR; WHY="unknown method '$method' in formal/proofs.list" ;;
	esac
}

printf '%-18s %-11s %-14s %-7s %8s\n' property method depth result time
printf '%-18s %-11s %-14s %-7s %8s\n' -------- ------ ----- ------ ----
failed=0
n=0
while read -r name top files params method depth set rest; do
	case $name in '' | '#'*) continue ;; esac
	if [ -n "$rest" ] || [ -z "$set" ]; then
		echo "formal/run.sh: $list: bad line for '$name' (need 7 fields)" >&2; exit 2
	fi
	[ $fast = 1 ] && [ "$set" != fast ] && continue
	if [ ${#only[@]} -gt 0 ]; then
		hit=0; for o in "${only[@]}"; do [ "$o" = "$name" ] && hit=1; done
		[ $hit = 1 ] || continue
	fi
	n=$((n + 1))
	KIND=""
	t0=$(now)
	prove "$name" "$top" "$files" "$params" "$method" "$depth"
	t1=$(now)
	secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
	case $method in
	induction) d="k-ind k=$depth" ;;	# base case: max(k, BMC_MIN) steps
	bmc | satbmc) d="bmc $depth" ;;
	*) d="<=$depth steps"; [ -n "$KIND" ] && d="k=$KIND (<=$depth)" ;;
	esac
	printf '%-18s %-11s %-14s %-7s %7ss\n' "$name" "$method" "$d" "$RESULT" "$secs"
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$method" "$depth" "$RESULT" "$secs" "$WHY" >>"$tsv"
	if [ "$RESULT" != PASS ]; then
		failed=$((failed + 1))
		echo "  $WHY" >&2
		[ -s "$out/$name/trace.vcd" ] && echo "  counterexample: $out/$name/trace.vcd" >&2
	fi
done <"$list"
[ $n -gt 0 ] || { echo "formal/run.sh: no proof selected" >&2; exit 2; }
echo "formal: $((n - failed)) of $n proofs passed"
[ $failed = 0 ]
