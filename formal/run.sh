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
# satbmc = yosys sat's base case alone (a bounded check from reset to depth steps);
# pdr = ABC's property-directed reachability on an AIGER model (unbounded: it proves the
# property or gives a counterexample; depth is its time limit in seconds); abcbmc = ABC's
# bmc3 on the same model, depth frames.
# Exit status: 0 when every proof selected passed, 1 when one failed (its log and, for a
# counterexample, trace.vcd are under OUT/NAME/), 2 for bad usage.
# Tools: yosys 0.23, yosys-smtbmc with z3 (docs/formal.md; no SymbiYosys on Debian 12).
set -u
# --help: the comment block above is the usage.
case "${1:-}" in -h | --help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
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
for t in yosys yosys-smtbmc yosys-abc z3 verilator; do
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

# f_cex2vcd DIR: ABC's counterexample (write_cex -a: the initial latch values, then the
# inputs of each frame) as an AIGER witness, replayed by yosys sim on the model that
# became DIR/model.aig, to DIR/trace.vcd (fold's own latch, the last, is dropped).
f_cex2vcd() {
	local d=$1 nl
	nl=$(head -1 "$d/model.aig" | awk '{ print $4 }')
	python3 - "$d/cex.txt" "$d/cex.aiw" "$nl" <<'PY' || return 0
import sys
rows = open(sys.argv[1]).read().replace("# DONE", "").split()
rows = [r for r in rows if not r.startswith("#")]
if not rows:
    sys.exit(1)
out = ["1", "b0", rows[0][:int(sys.argv[3])]] + rows[1:] + ["."]
open(sys.argv[2], "w").write("\n".join(out) + "\n")
PY
	yosys -q -p "read_rtlil $d/model.il; sim -clock clk_i -r $d/cex.aiw -map $d/model.aim -vcd $d/trace.vcd" >"$d/sim.txt" 2>&1 || true
}

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
	pdr | abcbmc)
		# ABC on an AIGER model (flow 3 of the toolchain notes): x bits become free inputs
		# (setundef -anyseq: the proof holds whatever value synthesis picks), a register
		# without an initial value a free initial value (-zinit), the assumptions AIGER
		# invariant constraints that fold turns into the property.
		if ! yosys -q -l "$log" -p "$script; flatten; async2sync; delete -output; setundef -undriven -anyseq; memory_map; opt -full; techmap; opt -fast; dffunmap; abc -g AND -fast; opt_clean; write_rtlil $dir/model.il; write_aiger -zinit -map $dir/model.aim $dir/model.aig" >/dev/null 2>&1; then
			RESULT=ERROR; WHY="yosys failed, see $log"; return
		fi
		local eng
		# pdr: depth is its time limit in seconds; abcbmc: bmc3 to depth frames (frame 0 is
		# the first cycle, in reset: the same count as satbmc's steps)
		if [ "$method" = pdr ]; then eng="pdr -T $depth"; else eng="bmc3 -F $depth"; fi
		yosys-abc -c "read_aiger $dir/model.aig; print_stats; fold; strash; $eng; write_cex -a $dir/cex.txt" >"$dir/abc.txt" 2>&1
		cat "$dir/abc.txt" >>"$log"
		if grep -aq "Property proved" "$dir/abc.txt"; then
			RESULT=PASS; KIND=unbounded
		elif [ "$method" = abcbmc ] && grep -aq "No output asserted in $depth frames" "$dir/abc.txt"; then
			RESULT=PASS; KIND=$depth
		elif grep -aq "was asserted in frame" "$dir/abc.txt"; then
			RESULT=FAIL; KIND="cex $(grep -ao 'asserted in frame [0-9]*' "$dir/abc.txt" | head -1 | awk '{ print $NF }')"
			WHY="$method: $(grep -ao 'Output [0-9]* of miter .* was asserted in frame [0-9]*' "$dir/abc.txt" | head -1)"
			f_cex2vcd "$dir"
		else
			RESULT=FAIL; KIND="undecided"
			WHY="$method: no answer ($(grep -ao 'Reached timeout[^.]*\|Reached limit[^.]*' "$dir/abc.txt" | head -1)), see $dir/abc.txt"
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
	pdr) d="${KIND:-?}"; [ "$RESULT" = PASS ] || d="${KIND:-?} (<=${depth}s)" ;;
	abcbmc) d="bmc $depth"; [ "$RESULT" = PASS ] || d="${KIND:-?} (bmc $depth)" ;;
	*) d="<=$depth steps"; [ -n "$KIND" ] && d="k=$KIND (<=$depth)" ;;
	esac
	printf '%-18s %-11s %-14s %-7s %7ss\n' "$name" "$method" "$d" "$RESULT" "$secs"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$method" "$depth" "$RESULT" "$secs" "$WHY" "$d" >>"$tsv"
	if [ "$RESULT" != PASS ]; then
		failed=$((failed + 1))
		echo "  $WHY" >&2
		[ -s "$out/$name/trace.vcd" ] && echo "  counterexample: $out/$name/trace.vcd" >&2
	fi
done <"$list"
[ $n -gt 0 ] || { echo "formal/run.sh: no proof selected" >&2; exit 2; }
echo "formal: $((n - failed)) of $n proofs passed"
# The record (tools/record.sh), of the repository's RTL only (formal/mutate.sh's runs on a
# planted bug write none): OUT/record.json, through a temporary file. A run of some proofs
# (--fast, --only) says so in its "scope".
if [ "$src" = "$root" ]; then
	. "$root/tools/record.sh"
	scope=
	[ $fast = 1 ] && scope="the proofs of set fast only (make formal-fast)"
	[ ${#only[@]} -gt 0 ] && scope="${scope:+$scope; }--only ${only[*]}"
	{
		printf '{\n'
		record_head "${FORMAL_RECORD_COMMAND:-make formal}" "$scope"
		printf '  "passed": %d, "total": %d,\n  "proofs": [' $((n - failed)) $n
		awk -F'\t' '{ printf "%s\n    {\"name\": \"%s\", \"method\": \"%s\", \"depth\": \"%s\", \"result\": \"%s\", \"seconds\": %s}",
			(NR > 1 ? "," : ""), $1, $2, $7, $4, $5 }' "$tsv"
		printf '\n  ]\n}\n'
	} >"$out/record.json.tmp" && mv "$out/record.json.tmp" "$out/record.json" &&
		echo "formal: wrote $out/record.json"
fi
[ $failed = 0 ]
