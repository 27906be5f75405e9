#!/usr/bin/env bash
# check_units_elab.sh - a unit the configuration leaves out is not elaborated: Verilator's
# netlist of a shape without it holds none of the unit's instances or state, so a
# simulation of that shape spends nothing on it (docs/accelerator.md, "Simulation speed").
#
# usage: tools/check_units_elab.sh [--keep DIR]
#   --keep DIR  keep Verilator's XML netlists in DIR (default: a temporary folder)
# Environment: HWS_SHAPE_KEY, the key tool (default build/hws_shape_key; make builds it).
#
# For each optional unit: the default shape's netlist (`verilator --xml-only`, the -G
# flags of build/hws_shape_key) must hold the unit's marks, an instance path or a
# register (so the check can fail), and the shape with the unit's suffix must hold none:
#   LCU_BALANCE=0 (nb)  no hws_balance, hws_bsum, hws_div8 instance
#   IRQ=0 (ni)          no hws_irq instance
#   ERR_COUNTERS=0 (ne) no err_cnt_q register (hws_top's counters)
#   NR_PORTS=1          one port front end (u_fe), and 2 with p2
#   LCU_LEAN=1 (ln)     the lean unit (hws_balance_lean) in place of the fast one: no
#                       hws_balance, hws_bsum instance; one hws_balance_lean, none by default
# Prints a line per unit; exits 1 when one is elaborated where it must not be (or missing
# where it must be), 2 on a usage or tool error.
set -euo pipefail
case "${1:-}" in -h | --help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
keep=
if [ "${1:-}" = --keep ]; then
	[ $# -ge 2 ] || { echo "check_units_elab: --keep needs a folder" >&2; exit 2; }
	keep=$2
	shift 2
fi
[ $# -eq 0 ] || { echo "check_units_elab: unexpected argument '$1' (usage: tools/check_units_elab.sh [--keep DIR])" >&2; exit 2; }
tool=${HWS_SHAPE_KEY:-build/hws_shape_key}
[ -x "$tool" ] || { echo "check_units_elab: no $tool (make builds it)" >&2; exit 2; }
command -v verilator >/dev/null || { echo "check_units_elab: verilator is not installed (apt-get install verilator)" >&2; exit 2; }
if [ -n "$keep" ]; then
	mkdir -p "$keep"
	dir=$keep
else
	dir=$(mktemp -d)
	trap 'rm -rf "$dir"' EXIT
fi
base=8x256x16g16

# netlist KEY: the instances and register names of KEY's Verilated netlist, one a line
# ("cell PATH MODULE", once per instance: the XML's paths leave out generate scopes, so
# two instances of a generate loop give two equal lines; and "var NAME").
netlist() {
	local key=$1 g
	g=$("$tool" --gflags "$key") || exit 2
	# shellcheck disable=SC2086
	verilator --xml-only -Wno-fatal -Irtl --top-module hws_top --Mdir "$dir/$key" $g rtl/*.v \
		>"$dir/$key.log" 2>&1 || { cat "$dir/$key.log" >&2; echo "check_units_elab: verilator failed on $key" >&2; exit 2; }
	sed -n -e 's/.*<cell [^>]*submodname="\([^"]*\)" hier="\([^"]*\)".*/cell \2 \1/p' \
		-e 's/.*<var [^>]*name="\([^"]*\)".*/var \1/p' "$dir/$key/Vhws_top.xml" >"$dir/$key.txt"
}

fail=0
# has KEY PATTERN: the count of KEY's netlist lines that match PATTERN (an ERE)
has() { grep -cE "$2" "$dir/$1.txt" || true; }
# expect UNIT KEY PATTERN [WANT_BASE WANT_KEY]: PATTERN's netlist entries, in the default
# shape's netlist WANT_BASE of them (default "+": at least one), in KEY's WANT_KEY (default 0)
expect() {
	local unit=$1 key=$2 pat=$3 wb=${4:-+} wk=${5:-0} with without
	with=$(has "$base" "$pat")
	without=$(has "$key" "$pat")
	if { [ "$wb" = + ] && [ "$with" -gt 0 ] || [ "$with" = "$wb" ]; } && [ "$without" = "$wk" ]; then
		echo "check_units_elab: $unit: $with netlist entries in $base, $without in $key"
	else
		echo "check_units_elab: $unit: FAILED: $with netlist entries in $base (must be $wb), $without in $key (must be $wk), pattern '$pat'" >&2
		fail=1
	fi
}
for k in $base ${base}nb ${base}ni ${base}ne ${base}p2 ${base}ln; do netlist "$k"; done
expect "LCU_BALANCE=0" ${base}nb ' (hws_balance|hws_bsum|hws_div8)(__|$)'
expect "IRQ=0" ${base}ni ' hws_irq(__|$)'
expect "ERR_COUNTERS=0" ${base}ne '^var err_cnt_q$'
expect "NR_PORTS, port front ends" ${base}p2 '^cell hws_top\.u_fe hws_port_fe' 1 2
expect "LCU_LEAN=1, the fast unit" ${base}ln ' (hws_balance|hws_bsum)(__|$)'
expect "LCU_LEAN=1, the lean unit" ${base}ln ' hws_balance_lean(__|$)' 0 1
exit $fail
