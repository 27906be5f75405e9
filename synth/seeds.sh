#!/usr/bin/env bash
# seeds.sh - the seed study: one iCE40 configuration placed and routed on the HX8K with
# each nextpnr seed given, as the record build/synth/seeds.json (make synth-seeds).
#
# usage: synth/seeds.sh OUT.json WORKDIR CONFIG SEED...
#   CONFIG  NR_CPUS x NR_TASKS with synth_one.sh's suffixes (e.g. 8x256nbneni, the HX8K build)
#   SEED    nextpnr --seed values (make synth-seeds: 1 2 3 4 5)
#   SEEDS_RECORD_COMMAND  the record's "command" (make synth-seeds gives its goal and variables)
#   SEEDS_FULL_CONFIG     the configuration whose study over seeds 1-5 is the full one
#                         (default 8x256nbneni; make synth-seeds-lean: 4x256neniln)
#
# Per seed: PNR_SEED=SEED synth/synth_one.sh ice40 C T WORKDIR/seed_SEED (Yosys, then nextpnr
# with the flow's options: --freq PNR_FREQ, --placer-heap-timingweight PNR_TIMING_WEIGHT,
# both synth_one.sh's defaults unless set). Yosys runs for every seed (the same netlist each
# time: its JSON's LUTs are compared, a difference is an error), so a seed costs Yosys and
# one HX8K place and route: tens of minutes of one core here (docs/synthesis.md).
# Writes one JSON object through a temporary file: tools/record.sh's header (a study other
# than SEEDS_FULL_CONFIG over seeds 1-5 is a small run, "full": false), the configuration, the
# flow's options, per seed its status, nextpnr and icetime Fmax, logic cells, critical path
# split and seconds, and the median Fmax of the seeds that routed. make figures renders it
# (docs/synthesis.md, "The seed study"). Exit 1 when a seed's synth_one.sh fails or writes
# no HX8K result; 2 on bad usage.
set -eu
case "${1:-}" in -h | --help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
[ $# -ge 4 ] || { echo "usage: synth/seeds.sh OUT.json WORKDIR CONFIG SEED... (try --help)" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
out=$1 work=$2 config=$3
shift 3
for s in "$@"; do
	case "$s" in '' | *[!0-9]*) echo "seeds.sh: seed '$s' is not a whole number" >&2; exit 2 ;; esac
done
case "$config" in [0-9]*x[0-9]*) ;; *) echo "seeds.sh: CONFIG '$config' is not CPUSxTASKS[suffixes]" >&2; exit 2 ;; esac
cpus=${config%%x*} tasks=${config#*x}
# shellcheck source=tools/record.sh
. "$root/tools/record.sh"
full=${SEEDS_FULL_CONFIG:-8x256nbneni}
scope=
[ "$config $*" = "$full 1 2 3 4 5" ] || scope="$config, seeds $* (the full study: $full, seeds 1-5)"
mkdir -p "$work" "$(dirname "$out")"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
{ printf '{\n'; record_head "${SEEDS_RECORD_COMMAND:-synth/seeds.sh $out $work $config $*}" "$scope"
  printf '  "_": 0\n}\n'; } >"$t/head.json"
for s in "$@"; do
	echo "seeds.sh: seed $s: PNR_SEED=$s synth/synth_one.sh ice40 $cpus $tasks $work/seed_$s" >&2
	PNR_SEED=$s "$root/synth/synth_one.sh" ice40 "$cpus" "$tasks" "$work/seed_$s" ||
		{ echo "seeds.sh: synth_one.sh failed on seed $s" >&2; exit 1; }
	for j in "$work/seed_$s"/ice40_*.json; do break; done
	[ -e "$j" ] || { echo "seeds.sh: seed $s wrote no ice40 JSON under $work/seed_$s" >&2; exit 1; }
	printf '%s\t%s\n' "$s" "$j" >>"$t/runs"
done
python3 - "$t/head.json" "$t/runs" "$out" "$config" <<'PY'
import json, os, statistics, sys, tempfile
head, runs, out, config = sys.argv[1:5]
rec = json.load(open(head))
del rec["_"]
seeds, luts = [], None
for line in open(runs):
    s, path = line.rstrip("\n").split("\t", 1)
    d = json.load(open(path))
    p = (d.get("pnr") or {}).get("hx8k")
    if not isinstance(p, dict):
        sys.exit("seeds.sh: %s has no HX8K place and route" % path)
    if luts is not None and d.get("luts") != luts:
        sys.exit("seeds.sh: %s: %s LUTs, not the %s of the seeds before (another netlist)" % (path, d.get("luts"), luts))
    luts = d.get("luts")
    rec.setdefault("luts", luts)
    rec.setdefault("brams", d.get("brams"))
    rec.setdefault("yosys", d.get("yosys"))
    rec.setdefault("target_mhz", p.get("target_mhz"))
    rec.setdefault("timing_weight", p.get("timing_weight"))
    seeds.append({"seed": int(s), "status": p.get("status"), "fmax_mhz": p.get("fmax_mhz"),
                  "icetime_mhz": p.get("icetime_mhz"), "lc_used": p.get("lc_used"),
                  "lc_avail": p.get("lc_avail"), "critical_path_split": p.get("critical_path_split"),
                  "seconds": p.get("seconds")})
rec["family"], rec["config"], rec["device"] = "ice40", config, "hx8k"
rec["seeds"] = seeds
ok = [x["fmax_mhz"] for x in seeds if x["status"] == "ok" and isinstance(x["fmax_mhz"], (int, float))]
rec["median_mhz"] = statistics.median(ok) if ok else None
rec["seeds_at_target"] = sum(1 for f in ok if isinstance(rec["target_mhz"], (int, float)) and f >= rec["target_mhz"])
fd, tmp = tempfile.mkstemp(dir=os.path.dirname(out) or ".", prefix=".seeds.")
with os.fdopen(fd, "w") as f:
    json.dump(rec, f, indent=1)
    f.write("\n")
os.chmod(tmp, 0o644)
os.replace(tmp, out)
print("seeds.sh: %s on the HX8K, seeds %s: median %s MHz (%d of %d at the target); wrote %s" % (
    config, " ".join(str(x["seed"]) for x in seeds), rec["median_mhz"], rec["seeds_at_target"], len(seeds), out))
PY
