#!/usr/bin/env bash
# collect.sh: merge the per-configuration JSONs of synth_one.sh into a report.
set -eu

usage() {
	cat <<'USAGE'
usage: synth/collect.sh OUTDIR

Merges OUTDIR/<family>_<C>x<T>.json (written by synth/synth_one.sh) into
OUTDIR/report.json (the record: tools/record.sh's header, "results": [...]) and
OUTDIR/report.md (a Markdown
table: family, configuration ("no BALANCE": LCU_BALANCE=0, files <C>x<T>nb; "no ERR_CNTn":
ERR_COUNTERS=0, files ..ne), LUTs, FFs, BRAMs, carries, LUT levels, iCE40 Fmax on HX8K
and UP5K, Yosys seconds, status; then LUTs per CPU of the 64x4096 xilinx/ecp5 rows and the
iCE40 critical paths). Prints report.md. Exits 1 when there is no result to collect.
USAGE
}
case "${1:-}" in -h|--help) usage; exit 0;; esac
[ $# -eq 1 ] || { echo "collect.sh: expected OUTDIR (try --help)" >&2; exit 2; }
OUTDIR=$1
[ -d "$OUTDIR" ] || { echo "collect.sh: no directory '$OUTDIR'" >&2; exit 1; }

# The results in table order: family, then NR_CPUS, then NR_TASKS.
FILES=$(for f in "$OUTDIR"/*_*x*.json; do
	[ -e "$f" ] || continue
	b=$(basename "$f" .json); fam=${b%%_*}; cfg=${b#*_}
	case "$fam" in ice40) o=1;; ecp5) o=2;; xilinx) o=3;; gowin) o=4;; *) continue;; esac
	printf '%s %s %s %s\n' "$o" "${cfg%x*}" "${cfg#*x}" "$f"
done | sort -k1,1n -k2,2n -k3,3n | cut -d' ' -f4-)
[ -n "$FILES" ] || { echo "collect.sh: no <family>_<C>x<T>.json in $OUTDIR (run synth/synth_one.sh first)" >&2; exit 1; }

# ---- report.json --------------------------------------------------------------------------
# The record's header (tools/record.sh): version, schema, commit, command, machine, date;
# the results are every configuration in OUTDIR, each with its own commit.
. "$(dirname "$0")/../tools/record.sh"
COMMIT=$(record_commit)
{
	printf '{\n'
	record_head "${SYNTH_RECORD_COMMAND:-make synth}"
	printf '  "results": [\n'
	sep=""
	for f in $FILES; do printf '%s' "$sep"; cat "$f"; sep=","; done
	printf ']}\n'
} >"$OUTDIR/report.json.tmp"
mv "$OUTDIR/report.json.tmp" "$OUTDIR/report.json"

# ---- report.md ----------------------------------------------------------------------------
# jget FILE KEY [OBJECT]: the first value of "KEY" in FILE (inside "OBJECT": {...} if given),
# strings without their quotes, null as empty.
jget() {
	awk -v key="$2" -v obj="${3:-}" 'BEGIN { RS = "\001" } {
		s = $0
		if (obj != "") { i = index(s, "\"" obj "\": {"); if (!i) exit; s = substr(s, i + length(obj) + 4) }
		i = index(s, "\"" key "\": "); if (!i) exit
		s = substr(s, i + length(key) + 4)
		if (substr(s, 1, 1) == "\"") {
			v = ""; for (j = 2; j <= length(s); j++) { c = substr(s, j, 1)
				if (c == "\\") { v = v substr(s, j + 1, 1); j++; continue }
				if (c == "\"") break; v = v c }
			print v
		} else { match(s, /^[^,}\n]*/); v = substr(s, 1, RLENGTH); if (v != "null") print v }
	}' "$1"
}
# The optional units a row was built without, as a label (" no BALANCE, no ERR_CNTn"), or
# nothing for the full engine. Older JSONs have no err_counters or irq field: built with them.
opts_label() {
	local l=""
	[ "$(jget "$1" lcu_balance)" = 0 ] && l=" no BALANCE"
	[ "$(jget "$1" err_counters)" = 0 ] && l="${l:+$l,} no ERR_CNTn"
	[ "$(jget "$1" irq)" = 0 ] && l="${l:+$l,} no IRQ"
	printf '%s' "$l"
}
fmax_cell() { # FILE DEVICE
	st=$(jget "$1" status "$2")
	case "$st" in
	"") printf -- '-';;
	ok) printf '%s MHz (icetime %s)' "$(jget "$1" fmax_mhz "$2")" "$(jget "$1" icetime_mhz "$2")";;
	"does not fit")
		u=$(jget "$1" lc_used "$2"); a=$(jget "$1" lc_avail "$2")
		if [ -n "$u" ]; then printf 'does not fit (%s/%s LC)' "$u" "$a"; else printf 'does not fit'; fi;;
	*) printf '%s' "$st";;
	esac
}
{
	echo "# hwsched synthesis sweep"
	echo
	echo "Commit $COMMIT, $(yosys -V 2>/dev/null | head -1). Top: synth/hws_synth_top.v (hws_top, inputs and"
	echo "outputs registered). LUTs: LUT4 (ice40, ecp5 -nowidelut), LUT1-4 (gowin -nowidelut),"
	echo "LUT1-6 (xilinx). LUT levels: Yosys ltp over the mapped LUT cells (cut at FFs, BRAM and"
	echo "carry chains). Fmax: nextpnr-ice40 (register to register), icetime in brackets."
	echo
	echo "| family | config | LUTs | FFs | BRAMs | carries | LUT levels | Fmax HX8K | Fmax UP5K | Yosys s | status |"
	echo "|---|---|---:|---:|---:|---:|---:|---|---|---:|---|"
	for f in $FILES; do
		fam=$(jget "$f" family); st=$(jget "$f" status); why=$(jget "$f" reason)
		if [ "$fam" = ice40 ]; then hx=$(fmax_cell "$f" hx8k); up=$(fmax_cell "$f" up5k); else hx=-; up=-; fi
		luts=$(jget "$f" luts)
		if [ "$fam" = xilinx ]; then
			sz=$(awk 'BEGIN{RS="\001"} { if (match($0, /"lut_sizes": \{[^}]*\}/)) { s = substr($0, RSTART + 14, RLENGTH - 15); gsub(/"LUT/, "", s); gsub(/": /, ":", s); gsub(/, /, " ", s); print s } }' "$f")
			[ -n "$sz" ] && [ -n "$luts" ] && luts="$luts ($sz)"
		fi
		ffs=$(jget "$f" ffs); brams=$(jget "$f" brams); car=$(jget "$f" carries); lv=$(jget "$f" lut_levels)
		nb=$(opts_label "$f")
		printf '| %s | %sx%s%s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$fam" \
			"$(jget "$f" nr_cpus)" "$(jget "$f" nr_tasks)" "$nb" "${luts:--}" "${ffs:--}" \
			"${brams:--}" "${car:--}" "${lv:--}" "$hx" "$up" \
			"$(jget "$f" yosys_seconds)" "$st${why:+: $why}"
	done
	per=""
	for fam in xilinx ecp5; do
		f="$OUTDIR/${fam}_64x4096.json"
		[ -e "$f" ] || continue
		l=$(jget "$f" luts); [ -n "$l" ] || continue
		per="$per| $fam | 64x4096 | $l | $(awk -v l="$l" 'BEGIN { printf "%.0f", l / 64 }') |
"
	done
	if [ -n "$per" ]; then
		echo
		echo "LUTs per CPU at 64x4096:"
		echo
		echo "| family | config | LUTs | LUTs per CPU |"
		echo "|---|---|---:|---:|"
		printf '%s' "$per"
	fi
	cp=""
	for f in $FILES; do
		[ "$(jget "$f" family)" = ice40 ] || continue
		for d in hx8k up5k; do
			[ "$(jget "$f" status "$d")" = ok ] || continue
			nb=$(opts_label "$f"); [ -n "$nb" ] && nb=" (${nb# })"
			cp="$cp- ice40 $(jget "$f" nr_cpus)x$(jget "$f" nr_tasks)$nb $d: $(jget "$f" fmax_mhz "$d") MHz, $(jget "$f" critical_path_split "$d"); RTL: $(jget "$f" critical_path_src "$d")
"
		done
	done
	if [ -n "$cp" ]; then
		echo
		echo "iCE40 critical paths (source locations nextpnr names along the path):"
		echo
		printf '%s' "$cp"
	fi
} >"$OUTDIR/report.md"
cat "$OUTDIR/report.md"
