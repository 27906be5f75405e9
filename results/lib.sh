#!/usr/bin/env bash
# results/lib.sh - shared helpers of the results/expN_*.sh scripts (make results).
#
# An experiment is a list of points, one line each, tab-separated:
#     POINT  SCHED  TOPOLOGY  WORKLOAD  DURATION  EXTRA-FLAGS
# POINT is a label without blanks (e.g. c64, domains_c64); the same POINT/SCHED pair is run
# once per seed, or only with the first seed when a seventh column says "once" (a workload
# without random inputs, e.g. hackbench: its seeds are identical runs). res_run_matrix runs every (line x seed) as an independent job under GNU
# parallel, each writing build/results/expN/POINT__SCHED__sSEED.json; res_summarize turns
# the JSON files into build/results/expN.tsv (mean, sample sd, min, max per POINT/SCHED).
#
# Environment:
#   SEEDS=N          seeds 1..N per point (default 3)
#   SEED_LIST="a b"  explicit seeds (overrides SEEDS)
#   LONG=1           longer simulated durations (each script says how much)
#   HOSTS=a,b        run the jobs on these ssh hosts (parallel --sshlogin a,b); the hosts
#                    must see this worktree at the same path (shared filesystem); add ':'
#                    to the list to use this machine too
#   JOBS=N           jobs at a time per host (default: parallel's default, one per core)
#   HWSCHED=path     the executable (default build/hwsched)
#   RES_DURATION=T   every timed run lasts T instead (tests/sim/results_test.cc's small
#                    runs; not for figures)
#   OUT_BASE=dir     where build/results goes (default build/results)
set -euo pipefail

RES_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
HWSCHED=${HWSCHED:-$RES_ROOT/build/hwsched}
OUT_BASE=${OUT_BASE:-$RES_ROOT/build/results}

res_seeds() {
	if [ -n "${SEED_LIST:-}" ]; then
		echo "$SEED_LIST" | tr ',' ' '
	else
		seq 1 "${SEEDS:-3}" | tr '\n' ' '
	fi
}

# The machine profile of an experiment's machine (docs/simulator.md, "Machine profiles"):
# TOPOLOGY,profile=NAME, or TOPOLOGY alone with PROFILES=0 (the model without machine profiles).
res_topo() {
	if [ "${PROFILES:-1}" = 0 ]; then echo "$1"; else echo "$1,profile=$2"; fi
}

res_common_help() {
	cat <<'H'
PROFILES=0: run without the experiment's machine profile (no coherence costs, no calibration,
no contention models).
Environment: SEEDS=N (seeds 1..N, default 3) or SEED_LIST="1 5 9"; LONG=1 (longer runs);
HOSTS=a,b (GNU parallel --sshlogin a,b; the hosts must see this worktree at the same path);
JOBS=N (jobs at a time per host); HWSCHED=path (default build/hwsched); OUT_BASE=dir
(default build/results); RES_DURATION=T (every timed run T long: small runs for tests).
Output: build/results/EXP/POINT__SCHED__sSEED.json (raw, one per run) and
build/results/EXP.tsv (point, sched, n, metric, mean, sd, min, max, and extra columns).
H
}

# One run. Arguments: OUTDIR POINT SCHED TOPOLOGY WORKLOAD DURATION SEED [EXTRA...]
res_point() {
	local outdir=$1 point=$2 sched=$3 topo=$4 wl=$5 dur=$6 seed=$7
	shift 7
	local json=$outdir/${point}__${sched}__s${seed}.json
	local durflag=()
	[ "$dur" != "-" ] && [ -n "${RES_DURATION:-}" ] && dur=$RES_DURATION
	[ "$dur" != "-" ] && durflag=(--duration "$dur")
	# shellcheck disable=SC2068
	if ! "$HWSCHED" run --sched "$sched" --topology "$topo" --workload "$wl" \
		"${durflag[@]}" --seed "$seed" --json "$json.tmp" $@ >"$outdir/${point}__${sched}__s${seed}.log" 2>&1; then
		echo "FAILED: $point $sched seed $seed (see $outdir/${point}__${sched}__s${seed}.log)" >&2
		rm -f "$json.tmp"
		return 1
	fi
	mv "$json.tmp" "$json"
}

# Run every line of the matrix file $2 for every seed, into $OUT_BASE/$1/.
res_run_matrix() {
	local exp=$1 matrix=$2 outdir=$OUT_BASE/$1
	mkdir -p "$outdir"
	[ -x "$HWSCHED" ] || { echo "$HWSCHED missing: run make build/hwsched" >&2; exit 1; }
	local jobs=()
	[ -n "${JOBS:-}" ] && jobs=(-j "$JOBS")
	local hosts=()
	[ -n "${HOSTS:-}" ] && hosts=(--sshlogin "$HOSTS" --workdir "$RES_ROOT")
	local n seeds
	n=$(grep -c . "$matrix")
	seeds=$(res_seeds)
	echo "$exp: $n points x seeds { $seeds} = $(( n * $(echo $seeds | wc -w) )) runs" >&2
	local t0=$SECONDS
	# Each job: POINT SCHED TOPO WORKLOAD DURATION EXTRA SEED
	# shellcheck disable=SC2086
	parallel --halt soon,fail=1 "${jobs[@]}" "${hosts[@]}" --colsep '\t' \
		"HWSCHED=$HWSCHED bash $RES_ROOT/results/lib.sh point $outdir {1} {2} {3} {4} {5} {7} {6}" \
		:::: <(awk -F'\t' -v OFS='\t' -v seeds="$seeds" 'NF{n=split(seeds,s," "); once=($7=="once"); NF=6; for(i=1;i<=(once?1:n);i++) print $0 "\t" s[i]}' "$matrix")
	echo "$exp: done in $(( SECONDS - t0 )) s" >&2
}

# Flatten one JSON into: throughput makespan_s overhead_pct migrations p99_us g0 g1 busy_mean
# smt_share_pct
res_flat() {
	tr -d '\n' <"$1" | awk '
	function num(key,   r) { if (match($0, "\"" key "\": [-0-9.e+]+")) { r = substr($0, RSTART, RLENGTH); sub(/.*: /, "", r); return r } return "nan" }
	function arr(key,   r) { if (match($0, "\"" key "\": \\[[^]]*\\]")) { r = substr($0, RSTART, RLENGTH); sub(/.*\[/, "", r); sub(/\]/, "", r); gsub(/ /, "", r); return r } return "" }
	{
		p99 = "nan"; if (match($0, "\"p99\": [-0-9.e+]+")) { p99 = substr($0, RSTART, RLENGTH); sub(/.*: /, "", p99) }
		g = arr("group_share"); ng = split(g, gs, ","); g0 = ng >= 1 && gs[1] != "" ? gs[1] : "nan"; g1 = ng >= 2 ? gs[2] : "nan"
		b = arr("busy_pct"); nb = split(b, bs, ","); s = 0; for (i = 1; i <= nb; i++) s += bs[i]
		printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%.3f\t%s\n", num("throughput"), num("makespan_s"), num("sched_overhead_pct"), num("migrations"), p99, g0, g1, nb ? s / nb : 0, num("smt_share_while_core_idle_pct")
	}'
}

# Summarize $OUT_BASE/$1/*.json into $OUT_BASE/$1.tsv, points in the matrix file's order.
res_summarize() {
	local exp=$1 matrix=$2 outdir=$OUT_BASE/$1 tsv=$OUT_BASE/$1.tsv
	{
		printf 'point\tsched\tn\tthroughput_mean\tthroughput_sd\tthroughput_min\tthroughput_max\tmakespan_mean\tmakespan_sd\toverhead_pct\tmigrations\tp99_us\tgroup0_share\tgroup1_share\tbusy_pct\tsmt_share_pct\tunit\n'
		awk -F'\t' 'NF{print $1 "\t" $2}' "$matrix" | while IFS=$'\t' read -r point sched; do
			local unit=""
			for f in "$outdir/${point}__${sched}__s"*.json; do
				[ -e "$f" ] || continue
				res_flat "$f"
				unit=$(grep -o '"unit": "[^"]*"' "$f" | sed 's/.*: "//; s/"//')
			done | awk -F'\t' -v p="$point" -v s="$sched" '
			{ n++; t[n] = $1; ts += $1; ms += $2; m2[n] = $2; ov += $3; mi += $4; p9 += $5; g0 += $6; g1 += $7; bu += $8; sm += $9
			  if (n == 1 || $1 < tmin) tmin = $1; if (n == 1 || $1 > tmax) tmax = $1 }
			END {
				if (!n) { printf "%s\t%s\t0\n", p, s; exit }
				tm = ts / n; mm = ms / n; sd = 0; sdm = 0
				for (i = 1; i <= n; i++) { sd += (t[i] - tm) ^ 2; sdm += (m2[i] - mm) ^ 2 }
				sd = n > 1 ? sqrt(sd / (n - 1)) : 0; sdm = n > 1 ? sqrt(sdm / (n - 1)) : 0
				printf "%s\t%s\t%d\t%.4f\t%.4f\t%.4f\t%.4f\t%.6f\t%.6f\t%.4f\t%.1f\t%.1f\t%.5f\t%.5f\t%.2f\t%.3f\n",
					p, s, n, tm, sd, tmin, tmax, mm, sdm, ov / n, mi / n, p9 / n, g0 / n, g1 / n, bu / n, sm / n
			}'
		done
	} >"$tsv.tmp"
	# the unit column: from any JSON of the experiment
	local unit
	unit=$({ grep -ho '"unit": "[^"]*"' "$outdir"/*.json 2>/dev/null || true; } | head -1 | sed 's/.*: "//; s/"//')
	awk -F'\t' -v OFS='\t' -v u="$unit" 'NR==1{print; next}{print $0, u}' "$tsv.tmp" >"$tsv"
	rm -f "$tsv.tmp"
	echo "wrote $tsv" >&2
}

# Mean throughput of POINT/SCHED from a summary TSV.
res_get() { awk -F'\t' -v p="$2" -v s="$3" -v c="${4:-4}" '$1==p && $2==s {print $c}' "$1"; }

if [ "${1:-}" = point ]; then
	shift
	res_point "$@"
fi
