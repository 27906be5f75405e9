#!/usr/bin/env bash
# bench_compare.sh - compare a make bench record with the last one of the same machine.
#
# usage: tools/bench_compare.sh RECORD [HISTORY]
#   RECORD   the record make bench just wrote (build/bench/engine.json)
#   HISTORY  the folder of earlier records (default: build/bench/history)
#
# Finds the newest record in HISTORY measured on the same machine (machine.cpu_model,
# machine.cores and machine.host all equal), prints each rate of RECORD beside it (the
# *_per_s figures and per_cpu_second.*) and says "FELL" for each that fell by more than
# 10%. This is a report, not a test: the exit status is 0 whatever the figures did. Then
# RECORD is copied into HISTORY as DATE-COMMIT.json (through a temporary file), so the
# next run compares with it. A record that is not JSON, or lacks date, commit or machine,
# is an error naming the file (exit 2; nothing is written).
set -u
case "${1:-}" in -h | --help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
[ $# -ge 1 ] && [ $# -le 2 ] || { echo "bench_compare: usage: tools/bench_compare.sh RECORD [HISTORY] (try --help)" >&2; exit 2; }
exec python3 - "$1" "${2:-build/bench/history}" <<'PY'
import json, os, sys, tempfile

FALL = 0.10	# a fall of more than 10% is reported (docs/accelerator.md, "Simulation speed")
rec_path, hist = sys.argv[1], sys.argv[2]

def load(path):
    try:
        with open(path) as f:
            d = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit("bench_compare: %s: not a readable JSON record (%s)" % (path, e))
    for k in ("date", "commit", "machine"):
        if k not in d:
            sys.exit("bench_compare: %s: no \"%s\" (a record of make bench has it)" % (path, k))
    m = d["machine"]
    if not isinstance(m, dict) or not all(k in m for k in ("cpu_model", "cores", "host")):
        sys.exit("bench_compare: %s: \"machine\" lacks cpu_model, cores or host" % path)
    return d

def rates(d):
    out = {k: v for k, v in d.items() if k.endswith("_per_s") and isinstance(v, (int, float))}
    for k, v in d.get("per_cpu_second", {}).items():
        if isinstance(v, (int, float)):
            out["per_cpu_second." + k] = v
    return out

def same_machine(a, b):
    return all(a["machine"][k] == b["machine"][k] for k in ("cpu_model", "cores", "host"))

try:
    new = load(rec_path)
except SystemExit as e:
    print(e, file=sys.stderr)
    sys.exit(2)
prev, prev_path = None, None
if os.path.isdir(hist):
    for name in sorted(os.listdir(hist)):
        p = os.path.join(hist, name)
        if not name.endswith(".json") or not os.path.isfile(p):
            continue
        try:
            d = load(p)
        except SystemExit as e:
            print("%s (skipped)" % e, file=sys.stderr)
            continue
        if same_machine(d, new) and d["date"] < new["date"] and (prev is None or d["date"] >= prev["date"]):
            prev, prev_path = d, p

m = new["machine"]
where = "%s, %s cores, host %s" % (m["cpu_model"], m["cores"], m["host"])
if prev is None:
    print("bench: no earlier record of this machine (%s) in %s: nothing to compare" % (where, hist))
else:
    print("bench: compared with %s (%s, %s) on this machine (%s); falls over %d%% marked FELL"
          % (prev_path, prev["date"], prev["commit"], where, FALL * 100))
    now, then = rates(new), rates(prev)
    fell = 0
    for k in sorted(now):
        if k not in then or not then[k]:
            continue
        ch = now[k] / then[k] - 1
        mark = "  FELL" if ch < -FALL else ""
        fell += bool(mark)
        print("  %-34s %14.0f  was %14.0f  %+6.1f%%%s" % (k, now[k], then[k], ch * 100, mark))
    print("bench: %d figure%s fell by more than %d%% (a report; the load average is in each record)"
          % (fell, "" if fell == 1 else "s", FALL * 100))
os.makedirs(hist, exist_ok=True)
name = "%s-%s.json" % (new["date"].replace(":", ""), str(new["commit"]).replace("/", "_"))
fd, tmp = tempfile.mkstemp(dir=hist, prefix=".record.")
with os.fdopen(fd, "w") as f, open(rec_path) as src:
    f.write(src.read())
os.chmod(tmp, 0o644)
os.replace(tmp, os.path.join(hist, name))
print("bench: kept as %s" % os.path.join(hist, name))
PY
