# record.sh - the header of every measurement's JSON record; sourced by bash, not run.
#
# usage: . tools/record.sh
#        record_head COMMAND [SCOPE]    print the header members, each line ending in ","
#        record_commit                  print the commit alone
#
# Every measurement (make bench, synth, results, replay-check, vp-study, coverage, formal,
# soak, profile, fuzz, synth-seeds, bench-board, board-run) writes a record under build/
# whose first members are, in this order:
#   "version", "schema"  as in every JSON output (docs/json.md): the version is the commit
#                        below, the schema HWS_JSON_SCHEMA of lib/hws_version.h (its home);
#   "commit"             `git describe --always --dirty` of this tree, or the release in
#                        VERSION outside a git checkout of its own (tools/gen_version.sh's
#                        rule);
#   "command"            COMMAND: the make goal and its variables;
#   "machine"            {"cpu_model", "cores", "host"} (/proc/cpuinfo, nproc, hostname), as
#                        make bench's record (tools/bench_compare.sh compares on them);
#   "date"               UTC, ISO 8601;
#   "full"               true, or false for a small run (fewer commands, the fast proofs):
#                        then "scope" says what was cut, and tools/figures.sh marks every
#                        figure of it as a small run, never the full figure.
# The caller prints "{", then record_head's lines, then its own members and "}".
# make figures copies the record into records/ (tools/figures.sh; docs/usage.md).

_record_root=$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")/.." && pwd)

# record_str TEXT: TEXT as a JSON string (backslash, quote and control characters escaped)
record_str() {
	printf '"%s"' "$(printf '%s' "$1" | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/\t/\\t/g' | tr -d '\000-\010\013-\037' | awk 'NR > 1 { printf "\\n" } { printf "%s", $0 }')"
}

record_commit() {
	local top v=
	if top=$(git --no-optional-locks -C "$_record_root" rev-parse --show-toplevel 2>/dev/null) &&
		[ "$(cd "$top" && pwd -P)" = "$(cd "$_record_root" && pwd -P)" ]; then
		v=$(git --no-optional-locks -C "$_record_root" describe --always --dirty 2>/dev/null) || v=
	fi
	[ -n "$v" ] || v=$(tr -d ' \n' <"$_record_root/VERSION")
	printf '%s\n' "$v"
}

record_head() {
	local command=$1 scope=${2:-} commit schema model cores host
	commit=$(record_commit)
	schema=$(sed -n 's/^#define HWS_JSON_SCHEMA \([0-9][0-9]*\).*/\1/p' "$_record_root/lib/hws_version.h")
	[ -n "$schema" ] || { echo "record.sh: no HWS_JSON_SCHEMA in lib/hws_version.h" >&2; return 2; }
	model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1)
	cores=$(nproc 2>/dev/null || echo 0)
	host=$(hostname 2>/dev/null || uname -n)
	printf '  "version": %s,\n  "schema": %s,\n' "$(record_str "$commit")" "$schema"
	printf '  "commit": %s,\n  "command": %s,\n' "$(record_str "$commit")" "$(record_str "$command")"
	printf '  "machine": {"cpu_model": %s, "cores": %s, "host": %s},\n' \
		"$(record_str "${model:-unknown}")" "$cores" "$(record_str "${host:-unknown}")"
	printf '  "date": "%s",\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
	if [ -n "$scope" ]; then
		printf '  "full": false,\n  "scope": %s,\n' "$(record_str "$scope")"
	else
		printf '  "full": true,\n'
	fi
}
