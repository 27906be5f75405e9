#!/usr/bin/env bash
# tools/record_trace.sh - record a real scheduler trace for hwsched replay, with its sidecar.
#
#   tools/record_trace.sh [--dir DIR] [--max-kb N] [--force] NAME -- COMMAND [ARGS...]
#       runs COMMAND under `perf record` of the events `perf sched record` takes (system
#       wide, every event) plus the kernel call chain of each sched_waking (it tells an
#       interrupt's wakeup from a task's, and a sync one: docs/trace.md), turns the data
#       into `perf script` text (-F comm,pid,tid,cpu,time,event,trace,ip,sym: the fields
#       hwsched's reader expects, the chains' kernel frames only), gzips
#       it (gzip -9n) as DIR/NAME.txt.gz (default DIR: traces/ of this repository) and
#       writes the sidecar DIR/NAME.json: how it was captured ("capture": command, kernel,
#       HZ, CPUs, CPU model, date, perf version, load average before) and what Linux did,
#       measured by the project's own reader ("linux": hwsched trace-info --json -).
#   tools/record_trace.sh [--dir DIR] [--max-kb N] [--force] --from-text FILE NAME -- COMMAND...
#       the same from a saved `perf script` text (plain or .gz) instead of running perf:
#       COMMAND is what the text recorded; the capture's machine fields are "unknown".
#   tools/record_trace.sh --refresh DIR/NAME.txt.gz
#       rewrites the sidecar's "linux" member from the trace, keeping its one-line
#       "capture" record as it is (after a change to the reader).
#
# NAME: lower-case letters, digits, '_', '.', '-', at most 64, starting with a letter or
# digit. Nothing is replaced without --force, and never a path that is not a regular file
# (a link, a directory, a device: left alone). A trace above --max-kb (default 1024)
# gzipped is refused, so that traces stay small enough to keep in git. The trace and its
# sidecar are written to a temporary directory and moved into DIR only when both are
# complete and the reader accepts the trace (strict).
#
# Recording needs root (perf reads the scheduler tracepoints) and Debian's linux-perf,
# which this script installs with apt-get when it is missing (only for this target);
# build/hwsched must be built (make build/hwsched), or HWSCHED names it. Record on a quiet
# machine: other work on the CPUs is in the trace and changes what Linux did.
# make traces-record re-records the repository's traces into build/traces-record/
# (traces/README.md). Exit status: 0 done, 1 a failure, 2 bad usage.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
HWSCHED=${HWSCHED:-$ROOT/build/hwsched}
DIR=$ROOT/traces
MAX_KB=1024
FORCE=0
REFRESH=
FROM_TEXT=

usage() { sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; }
die() { echo "record_trace: $1" >&2; exit "${2:-1}"; }

# JSON string of $1 (backslash, quote and control characters escaped).
jstr() {
	local s=$1
	s=${s//\\/\\\\}
	s=${s//\"/\\\"}
	s=${s//$'\t'/\\t}
	s=${s//$'\n'/\\n}
	s=${s//$'\r'/\\r}
	printf '"%s"' "$s"
}

while [ $# -gt 0 ]; do
	case "$1" in
	-h | --help) usage; exit 0 ;;
	--dir) [ $# -ge 2 ] || die "--dir needs a directory" 2; DIR=$2; shift 2 ;;
	--max-kb)
		[ $# -ge 2 ] && [[ $2 =~ ^[1-9][0-9]{0,6}$ ]] || die "--max-kb needs a whole number 1..9999999" 2
		MAX_KB=$2; shift 2 ;;
	--force) FORCE=1; shift ;;
	--refresh) [ $# -ge 2 ] || die "--refresh needs a trace" 2; REFRESH=$2; shift 2 ;;
	--from-text) [ $# -ge 2 ] || die "--from-text needs a file" 2; FROM_TEXT=$2; shift 2 ;;
	--) shift; break ;;
	-*) die "unknown option '$1' (try --help)" 2 ;;
	*) break ;;
	esac
done

[ -x "$HWSCHED" ] || die "$HWSCHED is not built (make build/hwsched)"

# The sidecar of trace $1 into file $3 (a new file): capture record $2 (one line of JSON)
# and the "linux" member, hwsched trace-info's JSON indented by two spaces, without its
# first line's "version" and "schema" (the build's, which would make every sidecar stale
# at the next commit; docs/json.md).
write_sidecar() {
	local trace=$1 capture=$2 out=$3 info
	info=$("$HWSCHED" trace-info "$trace" --json -) ||
		die "hwsched trace-info refused $trace (its message above): nothing written"
	info=$(printf '%s\n' "$info" | sed '2{/^  "version": /d}')
	{
		echo "{"
		echo "  \"schema\": 1,"
		echo "  \"trace\": $(jstr "$(basename "$trace")"),"
		echo "  \"capture\": $capture,"
		printf '  "linux": '
		printf '%s\n' "$info" | sed '2,$s/^/  /'
		echo "}"
	} >"$out"
}

if [ -n "$REFRESH" ]; then
	[ $# -eq 0 ] || die "--refresh takes no NAME or COMMAND" 2
	[ -f "$REFRESH" ] || die "$REFRESH: no such trace" 2
	side=${REFRESH%.gz}; side=${side%.txt}.json
	[ -f "$side" ] && [ ! -L "$side" ] ||
		die "$side: no sidecar to refresh (or not a regular file: left alone)" 2
	capture=$(sed -n 's/^  "capture": \(.*\),$/\1/p' "$side")
	[ -n "$capture" ] && [ "$(printf '%s\n' "$capture" | wc -l)" = 1 ] ||
		die "$side: no one-line capture record (\"capture\": {...},) to keep" 2
	tmp=$(mktemp "$(dirname "$side")/.$(basename "$side").XXXXXX")
	trap 'rm -f "$tmp"' EXIT
	write_sidecar "$REFRESH" "$capture" "$tmp"
	chmod 644 "$tmp"
	mv -f "$tmp" "$side"
	echo "record_trace: $side refreshed" >&2
	exit 0
fi

[ $# -ge 3 ] && [ "$2" = -- ] || { usage >&2; exit 2; }
NAME=$1; shift 2
[[ $NAME =~ ^[a-z0-9][a-z0-9_.-]{0,63}$ ]] ||
	die "NAME '$NAME': lower-case letters, digits, '_', '.', '-' (at most 64, the first a letter or digit)" 2
[ -d "$DIR" ] || die "$DIR: not a directory" 2
out_trace=$DIR/$NAME.txt.gz
out_side=$DIR/$NAME.json
for f in "$out_trace" "$out_side"; do
	if [ -e "$f" ] || [ -L "$f" ]; then
		[ -f "$f" ] && [ ! -L "$f" ] || die "$f exists and is not a regular file: left alone" 2
		[ "$FORCE" = 1 ] || die "$f exists (--force replaces it)" 2
	fi
done
if [ -n "$FROM_TEXT" ]; then
	[ -f "$FROM_TEXT" ] || die "--from-text $FROM_TEXT: no such file" 2
else
	[ "$(id -u)" = 0 ] || die "perf record needs root (the scheduler tracepoints)"
	if ! command -v perf >/dev/null 2>&1; then
		echo "record_trace: installing linux-perf (Debian's perf)" >&2
		{ apt-get install -y --no-install-recommends linux-perf ||
			{ apt-get update && apt-get install -y --no-install-recommends linux-perf; }; } \
			>/dev/null || die "could not install linux-perf: apt-get install -y linux-perf"
	fi
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/record_trace.XXXXXX")
trap 'rm -rf "$work"' EXIT
cmd=$(printf '%q ' "$@"); cmd=${cmd% }
if [ -n "$FROM_TEXT" ]; then
	# gzip -dc reads a gzip file, -f passes plain text through
	gzip -dcf -- "$FROM_TEXT" >"$work/$NAME.txt" || die "cannot read $FROM_TEXT"
	unk='"unknown"'
	capture="{\"command\": $(jstr "$cmd"), \"kernel\": $unk, \"hz\": null, \"cpus\": null, \"cpu_model\": $unk, \"date\": $unk, \"perf\": $unk, \"loadavg_before\": $unk, \"recorder\": \"tools/record_trace.sh --from-text\", \"text\": $(jstr "$(basename "$FROM_TEXT")")}"
else
	load=$(cut -d' ' -f1-3 /proc/loadavg)
	date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
	echo "record_trace: recording $NAME: $cmd" >&2
	# perf sched record's options and events (-a -R -c 1 -m 1024), sched_waking with
	# its kernel call chain
	perf record -o "$work/perf.data" -a -R -c 1 -m 1024 -e sched:sched_switch \
		-e sched:sched_stat_runtime -e sched:sched_process_fork \
		-e sched:sched_wakeup_new -e sched:sched_migrate_task \
		-e 'sched:sched_waking/call-graph=fp,max-stack=24/' -- "$@" \
		>"$work/cmd.out" 2>"$work/perf.err" ||
		{ cat "$work/perf.err" >&2; die "perf record failed (its messages above)"; }
	# the chains' kernel frames (ffff...) and their blank line; an event without a chain
	# gets its own ip and symbol on its line: dropped
	perf script -i "$work/perf.data" -F comm,pid,tid,cpu,time,event,trace,ip,sym \
		2>"$work/script.err" |
		awk '/^\t/ { if ($1 ~ /^ffff/) print; next } /^$/ { print; next }
		     { sub(/ +[0-9a-f]+ [^ ]+$/, ""); print }' >"$work/$NAME.txt" ||
		{ cat "$work/script.err" >&2; die "perf script failed"; }
	hz=$( (zcat /proc/config.gz 2>/dev/null || cat "/boot/config-$(uname -r)" 2>/dev/null || true) |
		sed -n 's/^CONFIG_HZ=\([0-9]*\)$/\1/p' | head -1)
	model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
	capture="{\"command\": $(jstr "$cmd"), \"kernel\": $(jstr "$(uname -r)"), \"hz\": ${hz:-null}, \"cpus\": $(nproc), \"cpu_model\": $(jstr "$model"), \"date\": $(jstr "$date"), \"perf\": $(jstr "$(perf --version)"), \"loadavg_before\": $(jstr "$load"), \"recorder\": \"tools/record_trace.sh\"}"
fi
gzip -9n "$work/$NAME.txt"
kb=$(( ($(stat -c %s "$work/$NAME.txt.gz") + 1023) / 1024 ))
[ "$kb" -le "$MAX_KB" ] ||
	die "$NAME.txt.gz is $kb KB gzipped, above --max-kb $MAX_KB: record a shorter run (nothing written)"
write_sidecar "$work/$NAME.txt.gz" "$capture" "$work/$NAME.json"
# Into DIR: a temporary file beside each target, renamed over it (a rename within DIR
# replaces the old file whole; a move from another file system would not).
place() {
	local tmp
	tmp=$(mktemp "$DIR/.$(basename "$2").XXXXXX")
	cat "$1" >"$tmp" && chmod 644 "$tmp" && mv -f "$tmp" "$2" || { rm -f "$tmp"; return 1; }
}
place "$work/$NAME.txt.gz" "$out_trace" || die "cannot write $out_trace"
place "$work/$NAME.json" "$out_side" || die "cannot write $out_side"
echo "record_trace: wrote $out_trace ($kb KB) and $out_side" >&2
