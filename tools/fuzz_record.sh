#!/usr/bin/env bash
# fuzz_record.sh - make fuzz's record: each target's run, from libFuzzer's logs.
#
# usage: tools/fuzz_record.sh FUZZ_DIR FUZZ_TIME [FUZZ_RUNS]
#   FUZZ_DIR/runs.tsv   one line per target run by make fuzz: TARGET, exit status, seconds
#   FUZZ_DIR/T.log      its libFuzzer log (-print_final_stats=1)
#   FUZZ_RECORD_COMMAND the record's "command" (make fuzz gives its goal and variables)
#
# Writes FUZZ_DIR/summary.json through a temporary file: tools/record.sh's header (a run of
# less than make fuzz's default 180 s a target, without FUZZ_RUNS, is a small run: "full":
# false and "scope"), the time and run limits, the goal, and per
# target: executions (stat::number_of_executed_units), executions per second, seconds,
# new inputs, corpus size and coverage (libFuzzer's last line: cov, ft, corp), peak RSS,
# exit status and the finding (null, or the sanitizer's or the target's first error line
# and the input libFuzzer saved). make figures renders it (docs/fuzz.md, "Figures").
# Exit 2 on bad usage or a missing log.
set -eu
case "${1:-}" in -h | --help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
[ $# -ge 2 ] || { echo "usage: tools/fuzz_record.sh FUZZ_DIR FUZZ_TIME [FUZZ_RUNS] (try --help)" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$1 time=$2 runs=${3:-}
[ -s "$dir/runs.tsv" ] || { echo "fuzz_record: no $dir/runs.tsv (make fuzz writes it)" >&2; exit 2; }
# shellcheck source=tools/record.sh
. "$root/tools/record.sh"
scope=
if [ -z "$runs" ] && [ "$time" -lt 180 ]; then
	scope="$time s a target (make fuzz's default: 180)"
fi
t=$(mktemp "$dir/.head.XXXXXX")
trap 'rm -f "$t"' EXIT
{ printf '{\n'; record_head "${FUZZ_RECORD_COMMAND:-make fuzz FUZZ_TIME=$time}" "$scope"
  printf '  "_": 0\n}\n'; } >"$t"
python3 - "$t" "$dir" "$time" "$runs" <<'PY'
import json, os, re, sys, tempfile
head, d, time_s, runs = sys.argv[1:5]
rec = json.load(open(head))
del rec["_"]
rec["fuzz_time_s"] = int(time_s)
rec["fuzz_runs"] = int(runs) if runs else None
rec["goal_executions"] = 10000000  # per target, in one run (docs/fuzz.md)
targets = []
for line in open(os.path.join(d, "runs.tsv")):
    t, rc, secs = line.rstrip("\n").split("\t")
    log = os.path.join(d, t + ".log")
    try:
        text = open(log, errors="replace").read()
    except OSError as e:
        print("fuzz_record: %s: %s" % (log, e.strerror), file=sys.stderr)
        sys.exit(2)
    stat = dict(re.findall(r"^stat::(\w+):\s*(\d+)", text, re.M))
    last = re.findall(r"^#\d+\s+(?:DONE|pulse|NEW|REDUCE|INITED)\s+cov: (\d+) ft: (\d+) corp: (\d+)/", text, re.M)
    finding = None
    if rc != "0":
        m = re.search(r"^(==\d+==ERROR: .*|SUMMARY: .*|.*lockstep mismatch.*|.*deadly signal.*)$", text, re.M)
        finding = {"error": m.group(1).strip() if m else "exit %s" % rc,
                   "input": next(iter(re.findall(r"Test unit written to (\S+)", text)), None)}
    targets.append({"target": "fuzz_" + t, "exit": int(rc), "seconds": int(secs),
                    "executions": int(stat.get("number_of_executed_units", 0)),
                    "executions_per_s": int(stat.get("average_exec_per_sec", 0)),
                    "new_inputs": int(stat.get("new_units_added", 0)),
                    "peak_rss_mb": int(stat.get("peak_rss_mb", 0)),
                    "coverage": int(last[-1][0]) if last else None,
                    "features": int(last[-1][1]) if last else None,
                    "corpus": int(last[-1][2]) if last else None,
                    "finding": finding})
rec["targets"] = targets
out = os.path.join(d, "summary.json")
fd, tmp = tempfile.mkstemp(dir=d, prefix=".summary.")
with os.fdopen(fd, "w") as f:
    json.dump(rec, f, indent=1)
    f.write("\n")
os.chmod(tmp, 0o644)
os.replace(tmp, out)
print("fuzz: wrote %s" % out)
PY
