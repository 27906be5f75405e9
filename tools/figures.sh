#!/usr/bin/env bash
# figures.sh - README.md's table of current figures, from the JSON records under build/.
#
# usage: tools/figures.sh [--records DIR] [--readme FILE]   write the table (make figures)
#        tools/figures.sh --check [--records DIR] [--readme FILE]
#        tools/figures.sh --print [--records DIR]          the table on stdout only
#        tools/figures.sh --help
#
# Reads the records the measurements write (--records DIR: the same paths under DIR,
# without build/): build/results/summary.json (make results),
# build/replay-check/summary.json (make replay-check), build/bench/engine.json (make
# bench), build/svg/size.json (tools/svg_size.sh), build/synth/ice40_8x256nbneni.json
# (the HX8K build, make synth SYNTH_CONFIGS=8x256nbneni SYNTH_FAMILIES=ice40). One row
# per headline figure: the figure, its value, the goal where there is one, the record
# it comes from and the record's date (its "date", else the file's time, marked "file
# time"; "dirty tree" when the record says it was made with uncommitted changes). The commit is in the record; the
# table names none (README.md holds no commit hash). A record that does not exist gives
# the row "not measured: run make X", never an old number.
# The table goes between the lines <!-- figures:begin --> and <!-- figures:end --> of the
# README (each once), written to a temporary file beside it and renamed over it; nothing
# outside the markers changes.
# --check: exit 1 when the README's table is not what the records give now, naming each
# row that differs; 0 when it is. Exit 2: bad usage, no markers, or a record that is not
# valid JSON or lacks a figure (the message names the file).
set -euo pipefail

case "${1:-}" in
-h | --help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
esac
root=$(cd "$(dirname "$0")/.." && pwd)
command -v python3 >/dev/null 2>&1 || { echo "figures: python3 is needed (apt-get install python3)" >&2; exit 2; }
exec python3 - "$root" "$@" <<'PY'
import datetime, json, os, sys, tempfile

BEGIN, END = "<!-- figures:begin -->", "<!-- figures:end -->"
root = sys.argv[1]
args = sys.argv[2:]


def die(msg, code=2):
    print("figures: " + msg, file=sys.stderr)
    sys.exit(code)


mode, records, readme = "write", None, None
i = 0
while i < len(args):
    a = args[i]
    if a in ("--check", "--print"):
        mode = a[2:]
    elif a in ("--records", "--readme"):
        if i + 1 >= len(args) or not args[i + 1]:
            die("%s needs an argument (try --help)" % a)
        i += 1
        if a == "--records":
            records = args[i]
        else:
            readme = args[i]
    else:
        die("unknown argument '%s' (try --help)" % a)
    i += 1
readme = readme or os.path.join(root, "README.md")
default_records = records is None
records = records or os.path.join(root, "build")
if not default_records and not os.path.isdir(records):
    die("%s: no such directory" % records)


class Record:
    """One JSON record: None when the file does not exist, an error naming it when it
    is not valid JSON or lacks a key a row reads."""

    def __init__(self, rel, make):
        # rel: the record's path under build/, named so in the table; under --records
        # DIR, its path under DIR
        self.make = make
        self.rel = rel if default_records else rel[len("build/"):]
        self.path = os.path.join(records, rel[len("build/"):])
        self.data = None
        if not os.path.exists(self.path):
            return
        try:
            with open(self.path, encoding="utf-8") as f:
                self.data = json.load(f)
        except (OSError, UnicodeDecodeError) as e:
            die("%s: cannot read it: %s" % (self.path, e))
        except json.JSONDecodeError as e:
            die("%s: not valid JSON (line %d, column %d: %s); rerun %s"
                % (self.path, e.lineno, e.colno, e.msg, make))
        if not isinstance(self.data, dict):
            die("%s: not a JSON object; rerun %s" % (self.path, make))

    def get(self, *keys, kind=(int, float)):
        x = self.data
        for k in keys:
            if not isinstance(x, dict) or k not in x:
                die("%s: no \"%s\" (a record of another version? rerun %s)"
                    % (self.path, "\".\"".join(keys), self.make))
            x = x[k]
        if kind is not None and (not isinstance(x, kind) or isinstance(x, bool) or
                                 (isinstance(x, float) and x != x or x in (float("inf"), -float("inf")))):
            die("%s: \"%s\" is %s, not %s" % (self.path, "\".\"".join(keys), json.dumps(x),
                                             "a number" if kind == (int, float) else kind.__name__))
        return x

    def date(self):
        d = self.data.get("date")
        if isinstance(d, str) and len(d) >= 16 and d[4] == "-" and d[10] in "T ":
            s = d[:10] + " " + d[11:16] + " UTC"
        else:
            t = os.stat(self.path).st_mtime
            s = datetime.datetime.fromtimestamp(t, datetime.timezone.utc).strftime(
                "%Y-%m-%d %H:%M UTC") + ", file time"
        c = self.data.get("commit")
        if isinstance(c, str) and "dirty" in c:
            s += ", dirty tree"
        return s


def n(x):
    """A whole number with thousands separators."""
    return "{:,}".format(int(round(x)))


def of(a, b):
    return "%s of %s" % (n(a), n(b))


rows = []  # (figure, value, goal, record, date)


def row(rec, figure, value_goal):
    src = "`%s`" % rec.rel
    if rec.data is None:
        rows.append((figure, "not measured: run `%s`" % rec.make, "", src, ""))
        return
    value, goal = value_goal()
    rows.append((figure, value, goal, src, rec.date()))


replay = Record("build/replay-check/summary.json", "make replay-check")
row(replay, "replay fidelity goals met, all traces",
    lambda: (of(replay.get("goals_met"), replay.get("goals")), "all %s" % n(replay.get("goals"))))
row(replay, "replay fidelity goals met, traces not calibrated on",
    lambda: (of(replay.get("goals_met_not_calibration"), replay.get("goals_not_calibration")),
             "all %s" % n(replay.get("goals_not_calibration"))))

results = Record("build/results/summary.json", "make results")
row(results, "published points within 25%",
    lambda: (of(results.get("points_within_25pct"), results.get("points_total")),
             "all %s" % n(results.get("points_total"))))


def ratio_goals():
    g = results.get("ratio_goals", kind=list)
    for k, x in enumerate(g):
        if not isinstance(x, dict) or "met" not in x or x["met"] not in (True, False, None):
            die("%s: \"ratio_goals\" entry %d has no \"met\" of true, false or null"
                % (results.path, k + 1))
    return of(sum(1 for x in g if x["met"] is True), len(g)), "all %s" % n(len(g))


row(results, "ratio goals of the published results met", ratio_goals)

bench = Record("build/bench/engine.json", "make bench")
def rates():
    """The two wall-clock rates, with the machine's load average when the bench recorded
    it (a shared machine's figure is only as good as its load)."""
    v = "%s / %s" % (n(bench.get("lockstep_commands_per_s")), n(bench.get("model_commands_per_s")))
    la = bench.data.get("load_average")
    if isinstance(la, list) and la and all(isinstance(x, (int, float)) for x in la):
        v += " (load average %.1f)" % max(la)
    return v, ""


row(bench, "commands/s: lockstep (model and RTL, every answer compared) / C model", rates)

hx = Record("build/synth/ice40_8x256nbneni.json",
            "make synth SYNTH_CONFIGS=8x256nbneni SYNTH_FAMILIES=ice40")


def hx8k():
    p = hx.get("pnr", "hx8k", kind=dict)
    st = hx.get("pnr", "hx8k", "status", kind=str)
    used = p.get("lc_used")
    avail = p.get("lc_avail")
    fmax = p.get("fmax_mhz")
    target = p.get("target_mhz")
    cells = "%s of %s logic cells" % (n(used), n(avail)) if isinstance(used, (int, float)) \
        and isinstance(avail, (int, float)) else "logic cells not recorded"
    mhz = "%.2f MHz" % fmax if isinstance(fmax, (int, float)) else "no Fmax (%s)" % st
    if isinstance(fmax, (int, float)) and isinstance(p.get("seed"), int):
        mhz += " (nextpnr seed %d)" % p["seed"]  # one seed; docs/synthesis.md gives medians
    goal = "%s MHz, fits" % (("%g" % target) if isinstance(target, (int, float)) else "?")
    return "%s, %s" % (mhz, cells), goal


row(hx, "HX8K build (8x256, no BALANCE, error counters, IRQ): Fmax, cells", hx8k)

svg = Record("build/svg/size.json", "tools/svg_size.sh")


def svg_bound():
    cases = svg.get("cases", kind=list)
    worst = None
    for k, c in enumerate(cases):
        if not isinstance(c, dict) or not all(isinstance(c.get(f), (int, float))
                                              for f in ("rects", "lanes", "bytes")) or c["lanes"] <= 0:
            die("%s: case %d lacks a number \"rects\", \"lanes\" or \"bytes\"" % (svg.path, k + 1))
        per = c["rects"] / c["lanes"]
        if worst is None or per > worst[0]:
            worst = (per, c)
    if worst is None:
        die("%s: \"cases\" is empty; rerun tools/svg_size.sh" % svg.path)
    per, c = worst
    return ("%s rects a lane (%s, %.0f KB)" % (n(per), c.get("name", "?"), c["bytes"] / 1000),
            "at most 1,201 a lane")


row(svg, "SVG timeline: rects a lane, worst case of tools/svg_size.sh", svg_bound)


def cell(s):
    return s.replace("|", "\\|") or "-"


table = ["| figure | value | goal | record (its commit inside) | date |", "|---|---|---|---|---|"]
table += ["| %s |" % " | ".join(cell(c) for c in r) for r in rows]

if mode == "print":
    print("\n".join(table))
    sys.exit(0)

try:
    with open(readme, encoding="utf-8") as f:
        text = f.read()
except OSError as e:
    die("%s: %s" % (readme, e.strerror))
lines = text.split("\n")
b = [k for k, l in enumerate(lines) if l == BEGIN]
e = [k for k, l in enumerate(lines) if l == END]
if len(b) != 1 or len(e) != 1 or b[0] > e[0]:
    die("%s: needs one line %s and, after it, one line %s (found %d and %d)"
        % (readme, BEGIN, END, len(b), len(e)))
old = lines[b[0] + 1:e[0]]

if mode == "check":
    if old == table:
        print("figures: %s's table is current (%d rows)" % (readme, len(rows)))
        sys.exit(0)
    key = lambda l: l.split("|")[1].strip() if l.startswith("|") and l.count("|") > 2 else l
    have = {key(l): l for l in old}
    want = {key(l): l for l in table}
    for l in table:
        k = key(l)
        if k not in have:
            print("figures: %s: row '%s' is missing; the records give: %s" % (readme, k, l), file=sys.stderr)
        elif have[k] != l:
            print("figures: %s: row '%s' differs:\n  README:  %s\n  records: %s" % (readme, k, have[k], l),
                  file=sys.stderr)
    for l in old:
        if key(l) not in want:
            print("figures: %s: row '%s' is not one the records give" % (readme, key(l)), file=sys.stderr)
    print("figures: %s's table is stale: run make figures" % readme, file=sys.stderr)
    sys.exit(1)

new = "\n".join(lines[:b[0] + 1] + table + lines[e[0]:])
if new == text:
    print("figures: %s's table is current (%d rows)" % (readme, len(rows)))
    sys.exit(0)
d = os.path.dirname(os.path.abspath(readme))
fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(readme) + ".", dir=d)
try:
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(new)
    os.chmod(tmp, os.stat(readme).st_mode & 0o7777)
    os.replace(tmp, readme)
except OSError as ex:
    try:
        os.unlink(tmp)
    except OSError:
        pass
    die("%s: cannot write it: %s" % (readme, ex))
print("figures: wrote %d rows into %s" % (len(rows), readme))
PY
