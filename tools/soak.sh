#!/usr/bin/env bash
# soak.sh - the lockstep soak (`make soak`, docs/fuzz.md "Soak").
#
# usage: tools/soak.sh HWSCHED OUT_DIR
# Random commands through `hwsched lockstep` (the C model beside the Verilated RTL, every
# read and response compared, every outcome checked against the spec's prediction), with
# resets of the engine cut into command bursts while commands are in flight (--resets):
#   SOAK_COMMANDS (default 100000000) on the default shape (8 CPUs x 256 tasks) and
#   SOAK_BIG_COMMANDS (default 10000000) on 64 CPUs x 4096 tasks,
# split into jobs of SOAK_CHUNK / SOAK_BIG_CHUNK commands (default 5 M / 1 M), each with a
# seed of its own (SOAK_SEED + k on the default shape, SOAK_SEED + 100000 + k on the big
# one), SOAK_JOBS at a time (default: the CPUs online). SOAK_RESETS (default 0.02) is
# --resets. Prints each job as it ends (seed, commands, mismatches, resets, seconds) and
# the running total; at the end the totals, and writes OUT_DIR/summary.json (written to a
# temporary file, then renamed). Each job's output: OUT_DIR/logs/<shape>-<seed>.log.
# SIGTERM or SIGINT stops it early: the jobs running are ended (their commands are not
# counted), none is started, and the summary of the jobs that ended is written, marked
# "stopped_early". Exit 0 iff every job ran to its end with no mismatch and nothing else
# failed.
set -uo pipefail

die() { echo "soak: $*" >&2; exit 2; }
. "$(dirname "$0")/record.sh"	# record_head: the record's header
[ $# -eq 2 ] || die "usage: tools/soak.sh HWSCHED OUT_DIR"
bin=$1 out=$2
[ -x "$bin" ] || die "no executable $bin (make builds it)"

num() { # name value: a whole number
	[[ $2 =~ ^[0-9]+$ ]] || die "$1 must be a whole number (got '$2')"
}
full_commands=100000000 full_big_commands=10000000	# the full soak (docs/fuzz.md, "Soak")
commands=${SOAK_COMMANDS:-$full_commands}
big_commands=${SOAK_BIG_COMMANDS:-$full_big_commands}
chunk=${SOAK_CHUNK:-5000000}
big_chunk=${SOAK_BIG_CHUNK:-1000000}
seed0=${SOAK_SEED:-1}
jobs=${SOAK_JOBS:-$(nproc)}
resets=${SOAK_RESETS:-0.02}
for v in commands big_commands chunk big_chunk seed0 jobs; do num "$v" "${!v}"; done
[ "$chunk" -ge 1 ] && [ "$big_chunk" -ge 1 ] && [ "$jobs" -ge 1 ] ||
	die "SOAK_CHUNK, SOAK_BIG_CHUNK and SOAK_JOBS must be at least 1"

mkdir -p "$out/logs" || die "cannot create $out/logs"
rm -f "$out"/logs/*.log

# The job list: shape name, CPUs, tasks, seed, commands.
list=()
add_jobs() { # name cpus tasks total chunk seed_base
	local left=$4 k=0 n
	while [ "$left" -gt 0 ]; do
		n=$(( left < $5 ? left : $5 ))
		list+=("$1 $2 $3 $(( $6 + k )) $n")
		left=$(( left - n ))
		k=$(( k + 1 ))
	done
}
add_jobs default 8 256 "$commands" "$chunk" "$seed0"
add_jobs big 64 4096 "$big_commands" "$big_chunk" $(( seed0 + 100000 ))
total_jobs=${#list[@]}
total_cmds=$(( commands + big_commands ))

start=$(date +%s)
echo "soak: $total_jobs jobs, $commands commands on 8x256 and $big_commands on 64x4096," \
     "$jobs at a time, --resets $resets, seeds from $seed0 (default) and" \
     "$(( seed0 + 100000 )) (64x4096); logs in $out/logs"

# One job: its output to its log; "shape seed" to stdout of the runner when done.
run_job() { # name cpus tasks seed commands
	local log="$out/logs/$1-$4.log" t0 t1 rc
	t0=$(date +%s.%N)
	"$bin" lockstep --cpus "$2" --tasks "$3" --seed "$4" --commands "$5" \
		--resets "$resets" >"$log" 2>&1 &
	echo $! >"$out/logs/$1-$4.pid"
	wait $!
	rc=$?
	rm -f "$out/logs/$1-$4.pid"
	t1=$(date +%s.%N)
	awk -v a="$t0" -v b="$t1" -v rc="$rc" 'BEGIN { printf "exit %d\nwall %.1f\n", rc, b - a }' \
		>>"$log"
}

# What a finished job's log says: commands mismatches resets wall exit.
job_figures() { # log
	awk '/^lockstep: [0-9]+ commands, [0-9]+ mismatches$/ { c = $2; m = $4 }
	     /^resets: [0-9]+ bursts/ { r = $2 }
	     /^exit / { e = $2 } /^wall / { w = $2 }
	     END { printf "%s %s %s %s %s\n", c == "" ? 0 : c, m == "" ? 0 : m,
		   r == "" ? 0 : r, w == "" ? 0 : w, e == "" ? -1 : e }' "$1"
}

done_cmds=0 done_jobs=0 bad=0 stopped=0
# Stop early: end the running jobs (their hwsched by pid), start none.
stop() {
	local f
	stopped=1
	for f in "$out"/logs/*.pid; do
		[ -e "$f" ] && kill "$(cat "$f")" 2>/dev/null
	done
}
trap stop TERM INT
declare -A pid_job=()
report_done() { # pid
	local j=${pid_job[$1]} name cpus tasks seed n c m r w e
	unset "pid_job[$1]"
	read -r name cpus tasks seed n <<<"$j"
	read -r c m r w e < <(job_figures "$out/logs/$name-$seed.log")
	done_cmds=$(( done_cmds + c ))
	done_jobs=$(( done_jobs + 1 ))
	if [ "$stopped" = 1 ] && [ "$m" = 0 ] && [ "$c" != "$n" ]; then
		echo "soak: ${cpus}x$tasks seed $seed ended by the stop (not counted)"
		done_jobs=$(( done_jobs + 1 ))
		ended_by_stop+=("$name $seed")
		return
	fi
	if [ "$e" != 0 ] || [ "$m" != 0 ] || [ "$c" != "$n" ]; then
		bad=$(( bad + 1 ))
		echo "soak: FAILED: ${cpus}x$tasks seed $seed (exit $e, $c of $n commands," \
		     "$m mismatches): $out/logs/$name-$seed.log; replay: $bin lockstep --cpus" \
		     "$cpus --tasks $tasks --seed $seed --commands $n --resets $resets"
	fi
	printf 'soak: [%d/%d] %sx%s seed %s: %s commands, %s mismatches, %s resets, %s s;' \
		"$done_jobs" "$total_jobs" "$cpus" "$tasks" "$seed" "$c" "$m" "$r" "$w"
	printf ' %d of %d commands done, %d s\n' "$done_cmds" "$total_cmds" \
		$(( $(date +%s) - start ))
}

ended_by_stop=()
next=0
while { [ "$next" -lt "$total_jobs" ] && [ "$stopped" = 0 ]; } || [ ${#pid_job[@]} -gt 0 ]; do
	while [ "$stopped" = 0 ] && [ "$next" -lt "$total_jobs" ] && [ ${#pid_job[@]} -lt "$jobs" ]; do
		run_job ${list[$next]} &
		pid_job[$!]=${list[$next]}
		next=$(( next + 1 ))
	done
	[ ${#pid_job[@]} -gt 0 ] || break
	# Poll (a trap may interrupt a wait): report each job whose process has ended.
	sleep 1
	for p in "${!pid_job[@]}"; do
		kill -0 "$p" 2>/dev/null && continue
		wait "$p" 2>/dev/null
		report_done "$p"
	done
done
wall=$(( $(date +%s) - start ))
# The jobs that ran to their end (or failed): the summary's; those never started or
# ended by a stop are left out.
ran=()
for j in "${list[@]}"; do
	read -r name _ _ seed _ <<<"$j"
	[ -e "$out/logs/$name-$seed.log" ] || continue
	[[ " ${ended_by_stop[*]:-} " == *" $name $seed "* ]] && continue
	ran+=("$j")
done
list=("${ran[@]}")

# Totals per shape, and the JSON.
tmp=$(mktemp "$out/.summary.json.XXXXXX") || die "cannot write in $out"
{
	printf '{\n'
	# A soak of fewer commands than the full one, or stopped early, is a small run.
	scope=
	[ "$commands" -ge "$full_commands" ] && [ "$big_commands" -ge "$full_big_commands" ] ||
		scope="$commands commands on 8x256 and $big_commands on 64x4096 (the full soak: $full_commands and $full_big_commands)"
	[ "$stopped" = 1 ] && scope="${scope:+$scope; }stopped early"
	record_head "${SOAK_RECORD_COMMAND:-make soak}" "$scope"
	printf '  "resets_rate": %s,\n  "jobs_at_a_time": %d,\n' "$resets" "$jobs"
	printf '  "wall_s": %d,\n  "stopped_early": %s,\n  "runs": [\n' "$wall" \
		"$([ "$stopped" = 1 ] && echo true || echo false)"
	sep=
	for j in "${list[@]}"; do
		read -r name cpus tasks seed n <<<"$j"
		read -r c m r w e < <(job_figures "$out/logs/$name-$seed.log")
		printf '%s    {"shape": "%sx%s", "seed": %s, "commands": %s, "mismatches": %s, ' \
			"$sep" "$cpus" "$tasks" "$seed" "$c" "$m"
		printf '"resets": %s, "wall_s": %s, "exit": %s}' "$r" "$w" "$e"
		sep=$',\n'
	done
	printf '\n  ],\n  "totals": {\n'
	sep=
	for s in default big; do
		awk -v s="$s" -v sep="$sep" '
			{ c += $1; m += $2; r += $3; n++ }
			END { printf "%s    \"%s\": {\"shape\": \"%s\", \"jobs\": %d, \"commands\": %d, \"mismatches\": %d, \"resets\": %d}",
			      sep, s, s == "default" ? "8x256" : "64x4096", n, c, m, r }' \
			< <(for j in "${list[@]}"; do
				read -r name _ _ seed _ <<<"$j"
				[ "$name" = "$s" ] && job_figures "$out/logs/$name-$seed.log"
			    done)
		sep=$',\n'
	done
	printf '\n  },\n  "failed_jobs": %d\n}\n' "$bad"
} >"$tmp" && mv -f "$tmp" "$out/summary.json" || die "cannot write $out/summary.json"

echo "soak: totals:"
for s in default big; do
	awk -v s="$s" '{ c += $1; m += $2; r += $3; n++ }
		END { printf "soak:   %s: %d jobs, %d commands, %d mismatches, %d resets\n",
		      s == "default" ? "8x256" : "64x4096", n, c, m, r }' \
		< <(for j in "${list[@]}"; do
			read -r name _ _ seed _ <<<"$j"
			[ "$name" = "$s" ] && job_figures "$out/logs/$name-$seed.log"
		    done)
done
echo "soak: $wall s wall, $bad failed jobs$([ "$stopped" = 1 ] && echo ", stopped early" \
	"(${#ended_by_stop[@]} jobs ended, $(( total_jobs - next )) never started)"); $out/summary.json"
[ "$bad" = 0 ] && [ "$stopped" = 0 ]
