#!/usr/bin/env bash
# equiv.sh - prove modules of rtl/ equivalent to the same modules at another git revision:
# every output at every edge, from any common state (sequential equivalence by induction).
#
# usage: formal/equiv.sh [--rev REV] [--out DIR] [CASE...]
#   --rev REV   the revision to compare the working tree with (default main)
#   --out DIR   logs (default build/formal/equiv)
#   CASE        cases to run, by name (default every case of the table below)
# Each case is a module and a small parameter set (the FIFOs and memories mapped to
# flip-flops). Both versions are read and flattened by Yosys 0.23 (the reference from
# `git archive REV rtl`), paired by equiv_make (outputs, and registers of the same name),
# and equiv_struct, equiv_simple -seq, equiv_induct must prove every pair: equiv_status -assert.
# A case lists the ports and registers renamed since REV (paired under the new name); a
# register renamed and not listed is not assumed equal, so the induction must prove it or
# the case fails. The hws_balance cases take longer than minutes on 2 cores. Exit status: 0 when every case is proven, 1 when one is not (its log under
# OUT/), 2 for bad usage.
set -u
case "${1:-}" in -h | --help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
root=$(cd "$(dirname "$0")/.." && pwd)
rev=main
out=$root/build/formal/equiv
sel=()
while [ $# -gt 0 ]; do
	case $1 in
	--rev) rev=$2; shift ;;
	--out) out=$2; shift ;;
	-*) echo "formal/equiv.sh: unknown option '$1' (usage: formal/equiv.sh [--rev REV] [--out DIR] [CASE...])" >&2; exit 2 ;;
	*) sel+=("$1") ;;
	esac
	shift
done
command -v yosys >/dev/null || { echo "formal/equiv.sh: yosys not found (apt-get install yosys)" >&2; exit 2; }
git -C "$root" rev-parse --verify -q "$rev^{commit}" >/dev/null \
	|| { echo "formal/equiv.sh: '$rev' is not a revision of $root" >&2; exit 2; }

# name | top | chparam settings (K V ...) | internal nets not to pair (their values differ
# where nothing reads them: hws_port_fe's pop_cmd names PICK_NEXT or PEEK outside the
# window too, read only inside it) | names the revision had: OLD:NEW, ports and registers
# renamed since (paired under the new name)
cases() {
	cat <<'EOF'
port_fe    | hws_port_fe  | CMD_DEPTH 4 RES_DEPTH 4 | pop_cmd |
port_fe_p  | hws_port_fe  | CMD_DEPTH 4 RES_DEPTH 4 NR_CPUS 64 LCU_BALANCE 0 ERR_COUNTERS 0 IRQ 0 PIPE 1 | pop_cmd |
irq        | hws_irq      | NR_CPUS 4 NR_PORTS 2 | |
irq_wide   | hws_irq      | NR_CPUS 40 NR_PORTS 1 | |
balance    | hws_balance  | NR_CPUS 4 LOAD_W 18 | | BAL_RENAMES
balance_l  | hws_balance  | NR_CPUS 5 LOAD_W 18 BAL_LANES 2 | | BAL_RENAMES
bsum       | hws_bsum     | NR_CPUS 3 LOAD_W 18 | | d_n_i:d_now_i v_n_i:v_now_i
EOF
}
BAL_RENAMES="upd_n_old_i:upd_now_old_i upd_n_new_i:upd_now_new_i gf_v:gf_v_q gf_q:gf_quo_q
	gf_i:gf_i_q cf_v:cf_v_q cf_l:cf_l_q cf_i:cf_i_q ldr_nx:ldr_d ldx_nx:ldx_d"

mkdir -p "$out"
ref=$(mktemp -d)
trap 'rm -rf "$ref"' EXIT
git -C "$root" archive "$rev" rtl | tar -x -C "$ref"

# flatten DIR TOP PARAMS OUT.il NAME: the module TOP of DIR/rtl, flattened, renamed NAME
flatten() {
	local dir=$1 top=$2 params=$3 il=$4 name=$5 cp=""
	set -- $params
	while [ $# -ge 2 ]; do cp="$cp -set $1 $2"; shift 2; done
	yosys -q -p "read_verilog -sv -DSYNTHESIS -I$dir/rtl $dir/rtl/*.v;
		${cp:+chparam$cp $top;} hierarchy -top $top; proc; flatten; opt_clean;
		memory; opt -fast; rename $top $name; write_rtlil $il"
}

fail=0
n=0
while IFS='|' read -r name top params skip renames; do
	name=$(echo $name); top=$(echo $top)
	[ "$(echo $renames)" = BAL_RENAMES ] && renames=$BAL_RENAMES
	ren=""
	for r in $renames; do ren="$ren rename ${r%%:*} ${r#*:};"; done
	bl=$out/$name.blacklist
	: >"$bl"
	for w in $skip; do echo "$w" >>"$bl"; done
	if [ ${#sel[@]} -gt 0 ]; then
		hit=0
		for s in "${sel[@]}"; do [ "$s" = "$name" ] && hit=1; done
		[ $hit = 1 ] || continue
	fi
	n=$((n + 1))
	log=$out/$name.log
	t0=$(date +%s)
	if flatten "$ref" "$top" "$params" "$out/$name.gold.il" gold >"$log" 2>&1 &&
	   flatten "$root" "$top" "$params" "$out/$name.gate.il" gate >>"$log" 2>&1 &&
	   yosys -p "read_rtlil $out/$name.gold.il $out/$name.gate.il;
		${ren:+cd gold;$ren cd ..;}
		equiv_make -blacklist $bl gold gate equiv; hierarchy -top equiv; async2sync;
		equiv_struct; equiv_simple -seq 4; equiv_induct -seq 4; equiv_status -assert" >>"$log" 2>&1; then
		echo "equiv: $name ($top $params): proven ($(( $(date +%s) - t0 )) s)"
	else
		echo "equiv: $name ($top $params): NOT proven, see $log" >&2
		grep -E 'unproven|Found [0-9]+ unproven|ERROR' "$log" | head -5 >&2
		fail=1
	fi
done < <(cases)
[ $n -gt 0 ] || { echo "formal/equiv.sh: no case named ${sel[*]}" >&2; exit 2; }
exit $fail
