#!/usr/bin/env bash
# profile_lockstep.sh - where a lockstep run's time goes, by part, from perf's samples.
#
# usage: tools/profile_lockstep.sh [OUT] [-- HWSCHED-LOCKSTEP-ARGS...]
#   OUT   the JSON record (default build/bench/profile.json)
#   the run: hwsched lockstep --commands 200k --seed 42 --quiet (the default shape), or the
#   arguments after --; HWSCHED=path another executable (default build/hwsched)
#   PROFILE_RECORD_COMMAND  the record's "command" (make profile gives "make profile")
#
# Samples the run with perf record (user and kernel, 2 kHz), sorts the samples by
# function, and sums them by part: the Verilated RTL's evaluation (symbols Vhws* of the
# shape's libhws_shape.so, with its sequential and combinational blocks apart), the AXI
# master and bus timing of the harness (hwsaxi, hws_pm), the C model (hws_model*, edge),
# the random stream and its checks (sim/stim: gen_cmd, check_cmd, hws_randcmd*), the
# lockstep comparison (driver/hws_lockstep.c) and the rest. Writes one JSON record through a
# temporary file (tools/record.sh's header; then the run, the load average before and
# after, samples, per part its share, the top 15 functions) and prints the parts; a run
# other than the default one is a small run ("full": false). make figures renders its
# table (docs/accelerator.md). Needs perf (linux-perf) and the right to use it.
set -eu
case "${1:-}" in -h | --help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
root=$(cd "$(dirname "$0")/.." && pwd)
out=build/bench/profile.json
if [ $# -gt 0 ] && [ "$1" != -- ]; then out=$1; shift; fi
[ "${1:-}" = -- ] && shift
args=("$@")
default=(--commands 200k --seed 42 --quiet)
scope=
[ ${#args[@]} -gt 0 ] && scope="the run hwsched lockstep ${args[*]} (the full one: ${default[*]})"
[ ${#args[@]} -gt 0 ] || args=("${default[@]}")
hw=${HWSCHED:-$root/build/hwsched}
command -v perf >/dev/null || { echo "profile_lockstep: perf is not installed (apt-get install linux-perf)" >&2; exit 2; }
[ -x "$hw" ] || { echo "profile_lockstep: $hw is not built (make)" >&2; exit 2; }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
# shellcheck source=tools/record.sh
. "$root/tools/record.sh"
{ printf '{\n'; record_head "${PROFILE_RECORD_COMMAND:-tools/profile_lockstep.sh ${args[*]}}" "$scope"
  printf '  "load_average_before": %s\n}\n' "$(cut -d' ' -f1 /proc/loadavg)"; } >"$t/head.json"
perf record -q -F 2000 -o "$t/perf.data" -- "$hw" lockstep "${args[@]}" >/dev/null
perf report -i "$t/perf.data" --no-children --sort dso,symbol --stdio -q 2>/dev/null |
	awk 'NF >= 4 && $1 ~ /%$/ { p = $1; sub(/%/, "", p); dso = $2; $1 = $2 = $3 = ""; sub(/^ +/, ""); sub(/ +- +- *$/, ""); print p "\t" dso "\t" $0 }' >"$t/rows"
samples=$(perf report -i "$t/perf.data" --stdio 2>/dev/null | sed -n 's/^# Samples: \([0-9.]*[kKM]*\).*/\1/p' | head -1)
mkdir -p "$(dirname "$out")"
python3 - "$t/rows" "$out" "$t/head.json" "$samples" "hwsched lockstep ${args[*]}" <<'PY'
import json, os, sys, tempfile
rows_path, out, head, samples, run = sys.argv[1:6]
parts = {"rtl_sequential": 0.0, "rtl_combinational": 0.0, "rtl_other": 0.0, "harness": 0.0,
         "model": 0.0, "stimulus": 0.0, "lockstep_compare": 0.0, "other": 0.0}
top = []
for line in open(rows_path):
    p, dso, sym = line.rstrip("\n").split("\t", 2)
    pct = float(p)
    top.append((pct, dso, sym))
    if sym.startswith("Vhws") and "nba_sequent" in sym:
        parts["rtl_sequential"] += pct
    elif sym.startswith("Vhws") and ("ico_sequent" in sym or "act_" in sym or "comb" in sym):
        parts["rtl_combinational"] += pct
    elif sym.startswith("Vhws") or sym.startswith("Verilated") or sym.startswith("Vhws::"):
        parts["rtl_other"] += pct
    elif "hwsaxi" in sym or sym.startswith("hws_pm") or "VsimImpl" in sym or "write" == sym.split("::")[-1]:
        parts["harness"] += pct
    elif sym.startswith("hws_model") or sym in ("edge",) or sym.startswith("model_"):
        parts["model"] += pct
    elif sym in ("gen_cmd", "check_cmd", "pick_task", "run_burst") or sym.startswith("hws_randcmd"):
        parts["stimulus"] += pct
    elif sym.startswith("ls_") or "lockstep" in sym:
        parts["lockstep_compare"] += pct
    else:
        parts["other"] += pct
rec = json.load(open(head))  # tools/record.sh's header first
rec["run"] = run
rec["load_average"] = [rec.pop("load_average_before"), os.getloadavg()[0]]
rec["samples"] = samples
rec["parts_pct"] = {k: round(v, 2) for k, v in parts.items()}
rec["top"] = [{"pct": p, "dso": d, "symbol": s} for p, d, s in sorted(top, reverse=True)[:15]]
fd, tmp = tempfile.mkstemp(dir=os.path.dirname(out) or ".", prefix=".profile.")
with os.fdopen(fd, "w") as f:
    json.dump(rec, f, indent=1)
    f.write("\n")
os.chmod(tmp, 0o644)
os.replace(tmp, out)
for k, v in sorted(parts.items(), key=lambda kv: -kv[1]):
    print("profile: %-18s %5.1f%%" % (k, v))
print("profile: %s samples; wrote %s" % (samples, out))
PY
