#!/usr/bin/env bash
# figures.sh - every table of current figures in README.md and docs/*.md, from the
# committed JSON records under records/ (make figures).
#
# usage: tools/figures.sh [--root DIR]            refresh records/ from build/, write every table
#        tools/figures.sh --check [--root DIR]    fail when a table is not what records/ gives
#        tools/figures.sh --print TABLE [--root DIR]   one table on stdout
#        tools/figures.sh --list                  the tables: NAME FILE RECORD
#        tools/figures.sh --help
#
# Each measurement writes a record under build/ (tools/record.sh's header: version, schema,
# commit, command, machine, date, full/scope). records/NAME.json is the committed copy of
# each (the RECORDS list below names the build/ file and the make goal of each).
# make figures (no option): first copies every record of build/ that is newer (its "date")
# than the one under records/, or that records/ lacks, into records/ (a small run, "full":
# false, never replaces a full one); a build/ record that is not a JSON object is an error
# naming it. Then it renders every table (the TABLES list below) from records/ and writes
# each between the lines <!-- figures:NAME:begin --> and <!-- figures:NAME:end --> of its
# file (each exactly once), through a temporary file renamed over it: nothing outside the
# markers changes. Each table starts with a line naming its record, the record's command,
# date and machine; a small run is said to be one; a record that does not exist gives
# "Not measured: run make X", never an old number. The commit is in the record; no doc
# names one (tools/check_docs.sh).
# --check reads records/ only (no build/: it passes on a fresh clone): exit 1 when a file's
# table differs from what its records give ("a figures table older than its records"),
# naming the file and table; 0 when every table is current. make test runs it.
# Exit 2: bad usage, a missing or doubled marker, a marker of an unknown table, or a record
# that is not valid JSON or lacks a figure (the message names the file).
# --root DIR: the tree to work on (default: this repository); the tests give a fixture tree.
set -euo pipefail

case "${1:-}" in
-h | --help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
esac
root=$(cd "$(dirname "$0")/.." && pwd)
command -v python3 >/dev/null 2>&1 || { echo "figures: python3 is needed (apt-get install python3)" >&2; exit 2; }
exec python3 - "$root" "$@" <<'PY'
import datetime, json, os, re, shutil, sys, tempfile

root = sys.argv[1]
args = sys.argv[2:]


def die(msg, code=2):
    print("figures: " + msg, file=sys.stderr)
    sys.exit(code)


mode, table_arg = "write", None
i = 0
while i < len(args):
    a = args[i]
    if a in ("--check", "--list"):
        mode = a[2:]
    elif a in ("--root", "--print"):
        if i + 1 >= len(args) or not args[i + 1]:
            die("%s needs an argument (try --help)" % a)
        i += 1
        if a == "--root":
            root = args[i]
            if not os.path.isdir(root):
                die("%s: no such directory" % root)
        else:
            mode, table_arg = "print", args[i]
    else:
        die("unknown argument '%s' (try --help)" % a)
    i += 1

# ---- the records: records/NAME.json <- the build/ file a measurement writes, and its goal
HX8K_SYNTH = "make synth SYNTH_CONFIGS=8x256nbneni SYNTH_FAMILIES=ice40"
RECORDS = {
    "bench": ("build/bench/engine.json", "make bench"),
    "synth": ("build/synth/report.json", "make synth"),
    "results": ("build/results/summary.json", "make results"),
    "replay-check": ("build/replay-check/summary.json", "make replay-check"),
    "vp-study-old": ("build/co_design/record.json", "make vp-study"),
    "vp-study-old-modern": ("build/co_design_modern/record.json", "make vp-study"),
    "vp-study-new": ("build/co_design_new/record.json", "make vp-study-new"),
    "vp-study-new-modern": ("build/co_design_new_modern/record.json", "make vp-study-new"),
    "vp-study-lean": ("build/co_design_new_lean/record.json", "make vp-study-lean"),
    "vp-study-lean-modern": ("build/co_design_new_lean_modern/record.json", "make vp-study-lean"),
    "coverage": ("build/coverage/record.json", "make coverage"),
    "formal": ("build/formal/record.json", "make formal"),
    "soak": ("build/soak/summary.json", "make soak"),
    "svg-size": ("build/svg/size.json", "tools/svg_size.sh"),
    "profile-rtl": ("build/prof/rtl.json", "make profile-rtl"),
    "profile": ("build/bench/profile.json", "make profile"),
    "fuzz": ("build/fuzz/summary.json", "make fuzz"),
    "synth-seeds": ("build/synth/seeds.json", "make synth-seeds"),
    "synth-seeds-lean": ("build/synth/seeds-lean.json", "make synth-seeds-lean"),
    "board": ("build/bench/board.json", "make bench-board"),
    "board-run": ("build/bench/board_run.json", "make board-run"),
}


def rec_path(name):
    return os.path.join(root, "records", name + ".json")


def load(path, make):
    """A record's JSON object; None when the file does not exist; an error naming the file
    when it is not a JSON object."""
    if not os.path.exists(path):
        return None
    try:
        with open(path, encoding="utf-8") as f:
            d = json.load(f)
    except (OSError, UnicodeDecodeError) as e:
        die("%s: cannot read it: %s" % (path, e))
    except json.JSONDecodeError as e:
        die("%s: not valid JSON (line %d, column %d: %s); rerun %s"
            % (path, e.lineno, e.colno, e.msg, make))
    if not isinstance(d, dict):
        die("%s: not a JSON object; rerun %s" % (path, make))
    return d


# ---- make figures: records/ <- build/, where build/ has a newer record
def refresh():
    for name, (built, make) in RECORDS.items():
        src = os.path.join(root, built)
        new = load(src, make)
        if new is None:
            continue
        dst = rec_path(name)
        old = load(dst, make)
        nd, od = str(new.get("date", "")), str((old or {}).get("date", ""))
        if old is not None:
            if nd <= od:
                continue
            if new.get("full") is False and old.get("full") is not False:
                print("figures: %s is a small run (%s): records/%s.json keeps the full one"
                      % (built, new.get("scope", "?"), name))
                continue
            if new.get("full") is False and new.get("scope") != old.get("scope"):
                print("figures: %s is a small run of another scope (%s, not %s): records/%s.json kept"
                      % (built, new.get("scope", "?"), old.get("scope", "?"), name))
                continue
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix="." + name + ".", dir=os.path.dirname(dst))
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(new, f, indent=1)
                f.write("\n")
            os.replace(tmp, dst)
        except OSError as e:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            die("%s: cannot write it: %s" % (dst, e))
        print("figures: records/%s.json <- %s (%s)" % (name, built, nd or "no date"))


class Record:
    """records/NAME.json: .data is None when it does not exist."""

    def __init__(self, name, make=None):
        self.name = name
        self.make = make or RECORDS[name][1]
        self.rel = "records/%s.json" % name
        self.path = rec_path(name)
        self.data = load(self.path, self.make)

    def get(self, *keys, kind=(int, float)):
        x = self.data
        for k in keys:
            if isinstance(x, list) and isinstance(k, int) and 0 <= k < len(x):
                x = x[k]
                continue
            if not isinstance(x, dict) or k not in x:
                die("%s: no \"%s\" (a record of another version? rerun %s)"
                    % (self.path, "\".\"".join(str(k) for k in keys), self.make))
            x = x[k]
        if kind is not None and (not isinstance(x, kind) or isinstance(x, bool) or
                                 (isinstance(x, float) and (x != x or x in (float("inf"), -float("inf"))))):
            die("%s: \"%s\" is %s, not %s" % (self.path, "\".\"".join(str(k) for k in keys), json.dumps(x),
                                             "a number" if kind == (int, float) else kind.__name__))
        return x

    def small(self):
        return self.data.get("full") is False

    def date(self):
        d = self.data.get("date")
        if isinstance(d, str) and len(d) >= 16 and d[4] == "-" and d[10] in "T ":
            return d[:10] + " " + d[11:16] + " UTC"
        return "no date"

    def dirty(self):
        c = self.data.get("commit")
        return isinstance(c, str) and "dirty" in c

    def machine(self):
        m = self.data.get("machine")
        if isinstance(m, dict):
            s = str(m.get("cpu_model", "?"))
            if isinstance(m.get("cores"), int):
                s += ", %d cores" % m["cores"]
            return s
        return str(m) if m else "machine not recorded"

    def caption(self):
        """The line above a table: its record and how it was made."""
        if self.data is None:
            return "Not measured: run `%s` (it writes %s for `make figures`)." % (self.make, self.rel)
        cmd = self.data.get("command")
        s = "From %s: `%s`, %s, %s%s." % (self.rel, cmd if isinstance(cmd, str) else self.make,
                                          self.date(), self.machine(),
                                          ", a tree with uncommitted changes" if self.dirty() else "")
        if self.small():
            s += " **A small run (%s): not the full figure.**" % self.data.get("scope", "scope not recorded")
        return s


def n(x):
    """A whole number with thousands separators."""
    return "{:,}".format(int(round(x)))


def of(a, b):
    return "%s of %s" % (n(a), n(b))


def num(x, fmt="%.3f"):
    return fmt % x if isinstance(x, (int, float)) and not isinstance(x, bool) else "-"


def cell(s):
    return str(s).replace("|", "\\|") or "-"


def md(header, rows, align=None):
    out = ["| %s |" % " | ".join(header), "|%s|" % "|".join(align or ["---"] * len(header))]
    out += ["| %s |" % " | ".join(cell(c) for c in r) for r in rows]
    return out


def with_caption(rec, body):
    """The caption, then (when the record exists) the table body()."""
    if rec.data is None:
        return [rec.caption()]
    return [rec.caption(), ""] + body()


# ---- README.md: the headline figures, one row each -------------------------------------
def t_current():
    rows = []  # (figure, value, goal, record, date)

    def row(rec, figure, value_goal):
        src = "`%s`" % rec.rel
        if rec.data is None:
            rows.append((figure, "not measured: run `%s`" % rec.make, "", src, ""))
            return
        value, goal = value_goal()
        if rec.small():
            value += " (a small run: %s)" % rec.data.get("scope", "?")
        rows.append((figure, value, goal, src, rec.date() + (", dirty tree" if rec.dirty() else "")))

    replay = Record("replay-check")
    row(replay, "replay fidelity goals met, all traces",
        lambda: (of(replay.get("goals_met"), replay.get("goals")), "all %s" % n(replay.get("goals"))))
    row(replay, "replay fidelity goals met, traces not calibrated on",
        lambda: (of(replay.get("goals_met_not_calibration"), replay.get("goals_not_calibration")),
                 "all %s" % n(replay.get("goals_not_calibration"))))
    results = Record("results")
    row(results, "published points within 25%",
        lambda: (of(results.get("points_within_25pct"), results.get("points_total")),
                 "all %s" % n(results.get("points_total"))))

    def ratio_goals():
        g = ratio_list(results)
        return of(sum(1 for x in g if x["met"] is True), len(g)), "all %s" % n(len(g))

    row(results, "ratio goals of the published results met", ratio_goals)
    bench = Record("bench")

    def rates():
        """The two rates per CPU second of the bench (a shared machine's wall-clock rate
        falls with its load; docs/accelerator.md's table has both), with the machine's load
        average when the bench recorded it."""
        v = "%s / %s" % (n(bench.get("per_cpu_second", "lockstep_commands")),
                         n(bench.get("per_cpu_second", "model_commands")))
        la = bench.data.get("load_average")
        if isinstance(la, list) and la and all(isinstance(x, (int, float)) for x in la):
            v += " (load average %.1f)" % max(la)
        return v, ""

    row(bench, "commands per CPU second: lockstep (model and RTL, every answer compared) / C model", rates)
    synth = Record("synth", HX8K_SYNTH)

    def hx8k():
        p = hx8k_pnr(synth)
        if p is None:
            return "not in the record: run `%s`" % HX8K_SYNTH, ""
        st = p.get("status")
        used, avail, fmax, target = (p.get(k) for k in ("lc_used", "lc_avail", "fmax_mhz", "target_mhz"))
        isnum = lambda x: isinstance(x, (int, float)) and not isinstance(x, bool)
        cells = "%s of %s logic cells" % (n(used), n(avail)) if isnum(used) and isnum(avail) \
            else "logic cells not recorded"
        mhz = "%.2f MHz" % fmax if isnum(fmax) else "no Fmax (%s)" % st
        if isnum(fmax) and isinstance(p.get("seed"), int):
            mhz += " (nextpnr seed %d)" % p["seed"]  # one seed; docs/synthesis.md says how seeds spread
        goal = "%s MHz, fits" % (("%g" % target) if isnum(target) else "?")
        return "%s, %s" % (mhz, cells), goal

    row(synth, "HX8K build (8x256, no BALANCE, error counters, IRQ): Fmax, cells", hx8k)
    lean = Record("synth-seeds-lean")

    def hx8k_lean():
        """The lean BALANCE's HX8K seed study: its median over the seeds, how many reached
        the target, and the logic cells of the first seed that routed."""
        seeds = lean.get("seeds", kind=list)
        med, target = lean.data.get("median_mhz"), lean.get("target_mhz")
        routed = [x for x in seeds if isinstance(x, dict) and isinstance(x.get("lc_used"), (int, float))]
        cells = "%s of %s logic cells" % (n(routed[0]["lc_used"]), n(routed[0].get("lc_avail"))) \
            if routed else "no seed routed"
        mhz = "median %.2f MHz over seeds %s (%s at %g MHz or more)" % (
            med, ", ".join(str(x.get("seed")) for x in seeds if isinstance(x, dict)),
            of(lean.get("seeds_at_target"), len(seeds)), target) \
            if isinstance(med, (int, float)) else "no seed routed"
        return "%s: %s, %s" % (lean.data.get("config", "?"), mhz, cells), "median %g MHz, fits" % target

    row(lean, "HX8K build with the lean BALANCE (seed study): Fmax, cells", hx8k_lean)
    svg = Record("svg-size")

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
                "at most 1,201 a lane")  # the bound: docs/simulator.md, "The timeline"

    row(svg, "SVG timeline: rects a lane, worst case of tools/svg_size.sh", svg_bound)
    return md(["figure", "value", "goal", "record (its commit inside)", "date"], rows)


def ratio_list(results):
    g = results.get("ratio_goals", kind=list)
    for k, x in enumerate(g):
        if not isinstance(x, dict) or "met" not in x or x["met"] not in (True, False, None):
            die("%s: \"ratio_goals\" entry %d has no \"met\" of true, false or null"
                % (results.path, k + 1))
    return g


def hx8k_pnr(synth):
    """The HX8K place and route of the reference build (ice40, 8x256 nbneni), or None."""
    for r in synth.get("results", kind=list):
        if isinstance(r, dict) and r.get("family") == "ice40" and r.get("nr_cpus") == 8 and \
                r.get("nr_tasks") == 256 and r.get("lcu_balance") == 0 and r.get("err_counters") == 0 \
                and r.get("irq") == 0:
            p = (r.get("pnr") or {}).get("hx8k")
            return p if isinstance(p, dict) else None
    return None


# ---- docs/accelerator.md, section 9: make bench ------------------------------------------
def t_bench_latency():
    b = Record("bench")

    def body():
        lat = b.get("latency_cycles", kind=dict)
        ivl = b.get("issue_interval_cycles", kind=dict)
        occ = b.get("occupancy", kind=list)
        rows = []
        for op in lat:
            l = b.get("latency_cycles", op, kind=list)
            i = ivl.get(op)
            rows.append((op.replace("PICK_NEXT_NONE", "PICK_NEXT (NONE)"), " / ".join(n(x) for x in l),
                         " / ".join("%.2f" % x for x in i) if isinstance(i, list) else "-"))
        occs = " / ".join(n(x) for x in occ)
        return md(["command", "latency (cycles) at %s queued" % occs,
                   "issue interval (cycles/command, FIFO kept fed) at %s queued" % occs], rows)
    return with_caption(b, body)


def t_bench_sustained():
    b = Record("bench")

    def body():
        rows = []
        for key, stream, engine, backend in (
                ("sustained_commands_per_cycle", "independent", "`PIPE = 1`, 8x4096", "lockstep"),
                ("pipe0_independent_sustained_commands_per_cycle", "independent", "`PIPE = 0`", "model"),
                ("pipe0_mixed_sustained_commands_per_cycle", "mixed", "`PIPE = 0`, 8x256", "lockstep"),
                ("pipe1_model_mixed_sustained_commands_per_cycle", "mixed", "`PIPE = 1`, 8x256", "model")):
            v = b.get(key, kind=dict)
            rows.append((stream, engine, backend, "`%s`" % key) +
                        tuple(num(v.get(p)) for p in ("1", "2", "4")))
        return md(["stream", "engine", "backend", "key", "1 port", "2 ports", "4 ports"], rows,
                  ["---"] * 4 + ["---:"] * 3)
    return with_caption(b, body)


def t_bench_speed():
    b = Record("bench")

    def body():
        pc = b.get("per_cpu_second", kind=dict)
        rows = []
        for label, wall, cpu, scale in (
                ("lockstep, checked commands/s", "lockstep_commands_per_s", "lockstep_commands", 1),
                ("RTL alone, commands/s", "rtl_commands_per_s", "rtl_commands", 1),
                ("RTL simulated cycles/s (M)", "rtl_sim_cycles_per_s", "rtl_sim_cycles", 1e6),
                ("model, commands/s (M)", "model_commands_per_s", "model_commands", 1e6),
                ("Verilator idle clocking, cycles/s (M)", "rtl_idle_cycles_per_s", "rtl_idle_cycles", 1e6)):
            f = (lambda x: n(x)) if scale == 1 else (lambda x: "%.2f" % (x / scale))
            w = b.get(wall)
            c = pc.get(cpu)
            rows.append((label, f(c) if isinstance(c, (int, float)) else "-", f(w)))
        la = b.data.get("load_average")
        out = md(["figure", "per CPU second", "per wall second"], rows, ["---", "---:", "---:"])
        mr = b.data.get("machine_run")
        if isinstance(mr, dict):
            out += ["", "`hwsched run --workload %s --topology %s`: %s CPU s on the rtl backend, "
                    "%s on the model, %sx (goal: at most %sx)." % (
                        mr.get("workload", "?"), mr.get("topology", "?"), num(mr.get("rtl_cpu_s"), "%.2f"),
                        num(mr.get("model_cpu_s"), "%.2f"), num(mr.get("rtl_over_model"), "%.1f"),
                        mr.get("goal_rtl_over_model", "?"))]
        if isinstance(la, list) and la:
            out += ["", "Load average before and after: %s." % " / ".join(num(x, "%.2f") for x in la)]
        return out
    return with_caption(b, body)


def t_profile_rtl():
    r = Record("profile-rtl")

    def body():
        parts = r.get("parts", kind=dict)
        per = r.get("rtl_instructions_per_edge")
        rows = [("all of the RTL's evaluation", n(per) if isinstance(per, (int, float)) else "-", "100%")]
        for k, v in parts.items():
            if k == "(rest)" or not isinstance(v, (int, float)):
                continue
            label = "Verilator's scheduling between blocks" if k == "(scheduling)" else "`%s`" % k
            rows.append((label, n(v), "%.1f%%" % (100.0 * v / per) if per else "-"))
        blocks = r.get("top_blocks", kind=dict)
        top = ", ".join("`%s` %s" % (k, n(v)) for k, v in list(blocks.items())[:5] if isinstance(v, (int, float)))
        out = md(["part", "instructions per edge", "share"], rows, ["---", "---:", "---:"])
        out += ["", "%s clock edges of `%s`; the costliest blocks (module:line): %s." % (
            n(r.get("edges")), r.get("run", kind=str), top)]
        return out
    return with_caption(r, body)


def t_bench_balance():
    b = Record("bench")

    def body():
        q = b.get("balance_cycles_per_query", kind=dict)
        fl = b.get("balance_cycles_flat", kind=dict)
        rtl = b.get("balance_cycles_rtl", kind=dict)
        iv = b.get("balance_issue_interval_cycles", kind=dict)
        cpus = ["4", "8", "16", "64"]
        f = lambda d, k, fmt="%g": (fmt % d[k]) if isinstance(d.get(k), (int, float)) else "-"
        rows = [("BALANCE cycles, 4 groups (model)",) + tuple(f(q, c) for c in cpus),
                ("BALANCE cycles, N groups (flat, model)",) + tuple(f(fl, c) for c in cpus),
                ("BALANCE cycles, RTL",) + tuple(f(rtl, c) for c in cpus),
                ("cycles per query, back to back",) + tuple(f(iv, c, "%.2f") for c in cpus)]
        return md(["CPUs"] + cpus, rows, ["---"] + ["---:"] * 4)
    return with_caption(b, body)


PROFILE_PARTS = (
    ("rtl_sequential", "the Verilated RTL, sequential blocks (`nba_sequent`)"),
    ("rtl_combinational", "the Verilated RTL, combinational settling (`ico_sequent`)"),
    ("rtl_other", "the Verilated RTL, the rest of its evaluation"),
    ("model", "the C model (`edge`, its reads and writes)"),
    ("harness", "the harness's AXI master and bus timing"),
    ("stimulus", "the random stream and its predictions"),
    ("lockstep_compare", "the lockstep comparison"),
    ("other", "other (libc, kernel)"))


def t_profile():
    r = Record("profile")

    def body():
        p = {k: r.get("parts_pct", k) for k, _ in PROFILE_PARTS}
        rows = [(label, "%.1f%%" % p[k]) for k, label in PROFILE_PARTS]
        la = r.data.get("load_average")
        return md(["part", "share"], rows, ["---", "---:"]) + [
            "", "The RTL's evaluation: %.1f%% together; the model, the stream and the comparison: %.1f%% "
            "(%s samples of `%s`%s)." % (
                p["rtl_sequential"] + p["rtl_combinational"] + p["rtl_other"],
                p["model"] + p["stimulus"] + p["lockstep_compare"], r.data.get("samples", "?"),
                r.data.get("run", "?"),
                ", load average before and after %s" % " / ".join(num(x, "%.2f") for x in la)
                if isinstance(la, list) and la else "")]
    return with_caption(r, body)


# ---- docs/synthesis.md: make synth --------------------------------------------------------
def t_synth_hx8k():
    s = Record("synth", HX8K_SYNTH)

    def body():
        p = hx8k_pnr(s)
        if p is None:
            return ["The record holds no HX8K place and route of the reference build: run `%s`." % HX8K_SYNTH]
        isnum = lambda x: isinstance(x, (int, float)) and not isinstance(x, bool)
        rows = [("status", p.get("status", "?"))]
        if isnum(p.get("lc_used")) and isnum(p.get("lc_avail")) and p["lc_avail"]:
            rows.append(("logic cells", "%s of %s (%.0f%%)" % (n(p["lc_used"]), n(p["lc_avail"]),
                                                            100.0 * p["lc_used"] / p["lc_avail"])))
        rows.append(("Fmax, nextpnr (goal %s MHz)" % num(p.get("target_mhz"), "%g"), num(p.get("fmax_mhz"), "%.2f MHz")))
        rows.append(("Fmax, icetime", num(p.get("icetime_mhz"), "%.2f MHz")))
        rows.append(("nextpnr seed, timing weight", "%s, %s" % (
            p["seed"] if isinstance(p.get("seed"), int) else "nextpnr's default", p.get("timing_weight", "-"))))
        if p.get("critical_path_split"):
            rows.append(("critical path", p["critical_path_split"]))
        # the command rate: Fmax times the mixed stream's commands per cycle on one port with
        # PIPE = 0 (docs/accelerator.md section 9), when the bench's record is there
        b = Record("bench")
        if b.data is not None and isnum(p.get("fmax_mhz")):
            r = b.data.get("pipe0_mixed_sustained_commands_per_cycle", {}).get("1")
            if isnum(r):
                rows.append(("M commands/s at that Fmax, mixed stream, one port (%.3f a cycle, records/bench.json)" % r,
                             "%.1f" % (p["fmax_mhz"] * r)))
        return md(["figure", "value"], rows)
    return with_caption(s, body)


def t_synth_sweep():
    s = Record("synth")

    def body():
        rows = []
        for r in s.get("results", kind=list):
            if not isinstance(r, dict):
                continue
            opts = [o for o, k in (("no BALANCE", "lcu_balance"), ("no ERR_CNTn", "err_counters"),
                                   ("no IRQ", "irq")) if r.get(k) == 0]
            hx = ((r.get("pnr") or {}).get("hx8k") or {})
            up = ((r.get("pnr") or {}).get("up5k") or {})
            fm = lambda p: "%.1f" % p["fmax_mhz"] if isinstance(p.get("fmax_mhz"), (int, float)) else "-"
            rows.append((r.get("family", "?"), "%sx%s%s" % (r.get("nr_cpus"), r.get("nr_tasks"),
                                                            (" (" + ", ".join(opts) + ")") if opts else ""),
                         *(n(r[k]) if isinstance(r.get(k), (int, float)) else "-"
                           for k in ("luts", "ffs", "brams", "carries", "lut_levels")),
                         fm(hx), fm(up), r.get("status", "?")))
        return md(["family", "configuration", "LUTs", "FFs", "BRAMs", "carries", "LUT levels",
                   "HX8K MHz", "UP5K MHz", "status"], rows)
    return with_caption(s, body)


def t_synth_seeds(name="synth-seeds"):
    r = Record(name)

    def body():
        rows = []
        for k, x in enumerate(r.get("seeds", kind=list)):
            if not isinstance(x, dict) or not isinstance(x.get("seed"), int) or "status" not in x:
                die("%s: \"seeds\" entry %d lacks seed or status" % (r.path, k + 1))
            lc = "%s of %s" % (n(x["lc_used"]), n(x["lc_avail"])) \
                if all(isinstance(x.get(f), (int, float)) for f in ("lc_used", "lc_avail")) else "-"
            rows.append(("%d" % x["seed"], x["status"], num(x.get("fmax_mhz"), "%.2f"),
                         num(x.get("icetime_mhz"), "%.2f"), lc, x.get("critical_path_split") or "-",
                         num(x.get("seconds"), "%.0f s")))
        target, med = r.get("target_mhz"), r.data.get("median_mhz")
        seeds = [x["seed"] for x in r.data["seeds"]]
        verdict = "no seed routed" if not isinstance(med, (int, float)) else "%.2f MHz: %s" % (
            med, "meets the goal" if med >= target else "**misses the goal**")
        return md(["seed", "status", "nextpnr MHz", "icetime MHz", "logic cells", "critical path", "time"],
                  rows, ["---:", "---", "---:", "---:", "---", "---", "---:"]) + [
            "", "%s, timing weight %s, goal %g MHz: median of seeds %s %s; %s of the seeds at %g MHz or "
            "more (%s LUT4, %s BRAM)." % (
                r.data.get("config", "?"), r.data.get("timing_weight", "?"), target,
                ", ".join(str(x) for x in seeds), verdict, of(r.get("seeds_at_target"), len(seeds)), target,
                n(r.get("luts")), n(r.get("brams")))]
    return with_caption(r, body)


# ---- docs/trace.md: make replay-check -----------------------------------------------------
def t_replay_check():
    r = Record("replay-check")

    def body():
        figs, order, cells, role, tot, ok = [], [], {}, {}, {}, {}
        for k, f in enumerate(r.get("figures", kind=list)):
            if not isinstance(f, dict) or not all(x in f for x in ("trace", "figure", "linux", "replay", "pass")):
                die("%s: \"figures\" entry %d lacks trace, figure, linux, replay or pass" % (r.path, k + 1))
            t = f["trace"]
            if f["figure"] not in figs:
                figs.append(f["figure"])
            if t not in order:
                order.append(t)
            role[t] = " (calibration)" if f.get("calibration") else " (holdout)" if f.get("holdout") else ""
            fmt = lambda x: "n/a" if not isinstance(x, (int, float)) else \
                "%.0f" % x if x >= 100 or x == int(x) else "%.1f" % x
            e = f.get("error_pct")
            c = "%s / %s (%s)" % (fmt(f["linux"]), fmt(f["replay"]),
                                  "n/a" if not isinstance(e, (int, float)) else "%+.0f%%" % e)
            cells[t, f["figure"]] = c if f["pass"] is True else "**%s**" % c
            tot[t] = tot.get(t, 0) + 1
            ok[t] = ok.get(t, 0) + (f["pass"] is True)
        rows = [(t + role[t],) + tuple(cells.get((t, g), "-") for g in figs) + ("%d/%d" % (ok[t], tot[t]),)
                for t in order]
        return md(["trace"] + figs + ["goals met"], rows) + [
            "", "%s of %s goals met; %s of %s on the traces not calibrated on (`--sched %s`)." % (
                n(r.get("goals_met")), n(r.get("goals")), n(r.get("goals_met_not_calibration")),
                n(r.get("goals_not_calibration")), r.data.get("sched", "?"))]
    return with_caption(r, body)


# ---- docs/results.md: make results --------------------------------------------------------
def t_results_points():
    r = Record("results")

    def body():
        rows = []
        for k, p in enumerate(r.get("points", kind=list)):
            if not isinstance(p, dict):
                die("%s: \"points\" entry %d is not an object" % (r.path, k + 1))
            e = p.get("error_pct")
            within = "n/a" if not isinstance(e, (int, float)) else "yes" if abs(e) <= 25 else "**no**"
            he = p.get("hw_error_pct")
            g = lambda x: "%.4g" % x if isinstance(x, (int, float)) else "n/a"
            rows.append((p.get("exp", "?"), p.get("point", "?"), p.get("kernel", "?"), p.get("published", "?"),
                         g(p.get("ours")), "%+.1f%%" % e if isinstance(e, (int, float)) else "n/a", within,
                         g(p["hw"]) if "hw" in p else "", "%+.1f%%" % he if isinstance(he, (int, float)) else ""))
        return md(["experiment", "point", "kernel: ours", "published", "ours", "error", "within 25%", "hw",
                   "hw error"], rows) + [
            "", "%s published points within 25%% (the calibration points excluded)." % of(
                r.get("points_within_25pct"), r.get("points_total"))]
    return with_caption(r, body)


def t_results_ratios():
    r = Record("results")

    def body():
        rows = []
        for g in ratio_list(r):
            o = g.get("ours")
            rows.append((g.get("goal", "?"), g.get("bound", "?"), "%.4g" % o if isinstance(o, (int, float)) else "n/a",
                         {True: "yes", False: "no", None: "n/a"}[g["met"]]))
        met = sum(1 for g in ratio_list(r) if g["met"] is True)
        return md(["goal", "bound", "ours", "met"], rows) + ["", "%s ratio goals met." % of(met, len(rows))]
    return with_caption(r, body)


def t_results_section(slug):
    """One section of results/report.sh's tables (an experiment's, the calibration's or the
    contention models'), as the record holds it: the record's "sections"."""
    def t():
        r = Record("results")

        def body():
            lines = r.get("sections", slug, kind=list)
            for k, l in enumerate(lines):
                if not isinstance(l, str):
                    die("%s: \"sections\".\"%s\" line %d is not a string" % (r.path, slug, k + 1))
            return list(lines)
        return with_caption(r, body)
    return t


def t_results_verdict(slug):
    """An experiment's published points and ratio goals counted from the record, the misses
    named: the line the experiment's verdict cites."""
    def t():
        r = Record("results")
        if r.data is None:
            return [r.caption()]
        pts = []
        for k, p in enumerate(r.get("points", kind=list)):
            if not isinstance(p, dict):
                die("%s: \"points\" entry %d is not an object" % (r.path, k + 1))
            if p.get("exp") == slug:
                pts.append(p)
        ok = lambda p: isinstance(p.get("error_pct"), (int, float)) and abs(p["error_pct"]) <= 25
        goals = [g for g in ratio_list(r) if str(g.get("goal", "")).startswith(slug + " ")]
        if not pts and not goals:
            die("%s: no point and no ratio goal of %s" % (r.path, slug))
        out = []
        if pts:
            miss = ["%s, %s" % (p.get("point", "?"), p.get("kernel", "?")) for p in pts if not ok(p)]
            out.append("%s published points within 25%%%s" % (
                of(sum(1 for p in pts if ok(p)), len(pts)), " (not: %s)" % "; ".join(miss) if miss else ""))
        if goals:
            miss = [g.get("goal", "?")[len(slug) + 1:] for g in goals if g["met"] is not True]
            out.append("%s ratio goals met%s" % (
                of(sum(1 for g in goals if g["met"] is True), len(goals)), " (not: %s)" % "; ".join(miss) if miss else ""))
        return [r.caption(), "", "Experiment %s: %s." % (slug[3:], "; ".join(out))]
    return t


# ---- docs/co-design.md: make vp-study -----------------------------------------------------
def t_vp(name):
    def t():
        r = Record(name)

        def body():
            rows = []
            for k, c in enumerate(r.get("cells", kind=list)):
                if not isinstance(c, dict):
                    die("%s: \"cells\" entry %d is not an object" % (r.path, k + 1))
                f = lambda key, fmt: fmt % c[key] if isinstance(c.get(key), (int, float)) else str(c.get(key, "-"))
                rows.append((f("cpus", "%d"), f("rq", "%d"), f("o1_overhead_pct", "%.3f"),
                             f("hw0_overhead_pct", "%.3f"), f("breakeven_overhead_ns", "%s"),
                             f("o1_throughput", "%.0f"), f("hw0_throughput", "%.0f"),
                             f("o1_throughput_seed_spread_pct", "%.1f"), f("breakeven_throughput_ns", "%s")))
            return md(["CPUs", "tasks/CPU", "overhead o1 %", "overhead hw @0 ns %", "break-even (overhead) ns",
                       "throughput o1 (bursts/s)", "hw @0 ns", "o1 over the seeds: spread %",
                       "break-even (throughput) ns"], rows)
        return with_caption(r, body)
    return t


def vp_cells(r):
    """{(cpus, rq): cell} of a vp-study record."""
    out = {}
    for k, c in enumerate(r.get("cells", kind=list)):
        if not isinstance(c, dict) or not all(isinstance(c.get(f), (int, float)) for f in
                                              ("cpus", "rq", "o1_overhead_pct", "hw0_overhead_pct")):
            die("%s: \"cells\" entry %d lacks cpus, rq, o1_overhead_pct or hw0_overhead_pct" % (r.path, k + 1))
        out[(c["cpus"], c["rq"])] = c
    return out


def ns(x):
    """A break-even as the study writes it: a number of ns, "none", a "*" when within the
    seed spread."""
    return "%g" % x if isinstance(x, (int, float)) else str(x if x is not None else "-")


def ns_val(x):
    try:
        return float(str(x).rstrip("*"))
    except ValueError:
        return None


def t_vp_compare(a_name, b_name, kind):
    """Two vp-study records side by side: "iface" (old / new interface) or "contention"
    (without / with the modern profile)."""
    def t():
        a, b = Record(a_name), Record(b_name)
        missing = [r for r in (a, b) if r.data is None]
        if missing:
            return [" ".join(r.caption() for r in missing)]

        def body():
            ca, cb = vp_cells(a), vp_cells(b)
            rows = []
            for key in sorted(set(ca) & set(cb)):
                x, y = ca[key], cb[key]
                ea, eb = x.get("breakeven_overhead_ns"), y.get("breakeven_overhead_ns")
                va, vb = ns_val(ea), ns_val(eb)
                if kind == "iface":
                    ratio = "%.1fx" % (vb / va) if va and vb is not None else ""
                    pays = " / ".join("yes" if v is not None and v > 100 else "no" for v in (va, vb))
                    row = ["%d" % key[0], "%d" % key[1], "%.3f" % y["o1_overhead_pct"],
                           "%.3f / %.3f" % (x["hw0_overhead_pct"], y["hw0_overhead_pct"]),
                           "%s / %s" % (ns(ea), ns(eb)), ratio, pays,
                           ns(y.get("breakeven_throughput_ns"))]
                else:
                    ma = x["o1_overhead_pct"] - x["hw0_overhead_pct"]
                    mb = y["o1_overhead_pct"] - y["hw0_overhead_pct"]
                    share = "%.0f%%" % (100 * (mb - ma) / mb) if mb > 0 and ma > 0 else ""
                    row = ["%d" % key[0], "%d" % key[1],
                           "%.3f / %.3f" % (x["o1_overhead_pct"], y["o1_overhead_pct"]),
                           "%.3f / %.3f" % (x["hw0_overhead_pct"], y["hw0_overhead_pct"]),
                           "%.3f / %.3f" % (ma, mb), share, "%s / %s" % (ns(ea), ns(eb)),
                           "%s / %s" % (ns(x.get("breakeven_throughput_ns")), ns(y.get("breakeven_throughput_ns")))]
                rows.append(row)
            if kind == "iface":
                return md(["CPUs", "tasks/CPU", "o1 overhead %", "hw @0 ns %: old / new",
                           "break-even (overhead) ns: old / new", "new / old", "pays at 100 ns: old / new",
                           "break-even (throughput) ns: new"], rows)
            return md(["CPUs", "tasks/CPU", "o1 overhead %: none / contention", "hw @0 ns %: none / contention",
                       "o1 - hw at 0 ns (points): none / contention", "share of the margin from contention",
                       "break-even (overhead) ns: none / contention",
                       "break-even (throughput) ns: none / contention"], rows)
        return [a.caption(), b.caption(), ""] + body()
    return t


def t_vp_lean(name):
    """A LEAN=1 vp-study record (results/co_design.sh): per cell the fast and the lean
    BALANCE, measured in the same run: hw's overhead at 0 ns and at the record's ref_ns, the
    overhead break-even, whether hw's overhead at ref_ns is below o1's."""
    def t():
        r = Record(name)

        def body():
            ref = r.get("ref_ns")
            keys = ("o1_overhead_pct", "hw0_overhead_pct", "hw100_overhead_pct", "fast_hw0_overhead_pct",
                    "fast_hw100_overhead_pct")
            rows = []
            for key, c in sorted(vp_cells(r).items()):
                if not all(isinstance(c.get(k), (int, float)) for k in keys):
                    die("%s: cell %d x %d lacks one of %s (a record of LEAN=0? rerun %s)"
                        % (r.path, key[0], key[1], ", ".join(keys), r.make))
                o1 = c["o1_overhead_pct"]
                pays = " / ".join("yes" if h < o1 else "no" for h in (c["fast_hw100_overhead_pct"],
                                                                       c["hw100_overhead_pct"]))
                rows.append(("%d" % key[0], "%d" % key[1], "%.3f" % o1,
                             "%.3f / %.3f" % (c["fast_hw0_overhead_pct"], c["hw0_overhead_pct"]),
                             "%.3f / %.3f" % (c["fast_hw100_overhead_pct"], c["hw100_overhead_pct"]),
                             "%s / %s" % (ns(c.get("fast_breakeven_overhead_ns")), ns(c.get("breakeven_overhead_ns"))),
                             pays, ns(c.get("breakeven_throughput_ns"))))
            return md(["CPUs", "tasks/CPU", "o1 overhead %", "hw @0 ns %: fast / lean",
                       "hw @%g ns %%: fast / lean" % ref, "break-even (overhead) ns: fast / lean",
                       "pays at %g ns: fast / lean" % ref, "break-even (throughput) ns: lean"], rows)
        return with_caption(r, body)
    return t


# ---- docs/coverage.md, docs/formal.md, docs/fuzz.md ----------------------------------------
def t_coverage():
    r = Record("coverage")

    def body():
        rows = []
        for k, x in enumerate(r.get("rows", kind=list)):
            if not isinstance(x, dict) or not all(isinstance(x.get(f), (int, float)) for f in ("lines_hit", "lines")):
                die("%s: \"rows\" entry %d lacks lines_hit or lines" % (r.path, k + 1))
            total = x.get("name", "").endswith(("all modules", "all folders"))
            b = (lambda s: "**%s**" % s) if total else (lambda s: s)
            tg = "%d/%d" % (x["toggles_hit"], x["toggles"]) if "toggles" in x else ""
            rows.append((b(x.get("name", "?")), b("%d/%d" % (x["lines_hit"], x["lines"])),
                         b(num(x.get("lines_pct"), "%.1f")), num(x.get("goal_pct"), "%g"),
                         tg, num(x.get("toggles_pct"), "%.1f") if "toggles" in x else ""))
        return md(["module / folder", "lines hit/total", "%", "goal %", "toggles hit/total", "%"], rows) + [
            "", "%s (seed %s, %s commands a lockstep run)." % (r.data.get("goals", "no verdict"),
                                                             r.data.get("seed", "?"), n(r.get("commands")))]
    return with_caption(r, body)


def t_formal():
    r = Record("formal")

    def body():
        rows = []
        for k, p in enumerate(r.get("proofs", kind=list)):
            if not isinstance(p, dict) or not all(f in p for f in ("name", "method", "result")):
                die("%s: \"proofs\" entry %d lacks name, method or result" % (r.path, k + 1))
            rows.append((p["name"], p["method"], p.get("depth", "-"), p["result"],
                         num(p.get("seconds"), "%.1f s")))
        return md(["proof", "method", "depth", "result", "time"], rows) + [
            "", "%s proofs passed." % of(r.get("passed"), r.get("total"))]
    return with_caption(r, body)


def t_soak():
    r = Record("soak")

    def body():
        t = r.get("totals", kind=dict)
        rows = [(x.get("shape", k), n(x.get("jobs", 0)), n(r.get("totals", k, "commands")),
                 n(r.get("totals", k, "mismatches")), n(x.get("resets", 0)))
                for k, x in t.items() if isinstance(x, dict)]
        out = md(["shape", "jobs", "commands", "mismatches", "resets"], rows, ["---"] + ["---:"] * 4)
        seeds = [j.get("seed") for j in r.data.get("runs", []) if isinstance(j, dict)]
        out += ["", "%s s wall, %s jobs at a time, `--resets %s`, seeds %s-%s; %s failed jobs%s." % (
            n(r.get("wall_s")), r.data.get("jobs_at_a_time", "?"), r.data.get("resets_rate", "?"),
            min(seeds) if seeds else "?", max(seeds) if seeds else "?", n(r.data.get("failed_jobs", 0)),
            ", stopped early" if r.data.get("stopped_early") else "")]
        return out
    return with_caption(r, body)


def t_fuzz():
    r = Record("fuzz")

    def body():
        rows, met, goal = [], 0, r.get("goal_executions")
        lim = "%s s" % n(r.get("fuzz_time_s"))
        if isinstance(r.data.get("fuzz_runs"), int):
            lim += " or %s executions" % n(r.data["fuzz_runs"])
        for k, x in enumerate(r.get("targets", kind=list)):
            if not isinstance(x, dict) or not all(isinstance(x.get(f), int) for f in
                                                  ("executions", "seconds", "exit")):
                die("%s: \"targets\" entry %d lacks executions, seconds or exit" % (r.path, k + 1))
            f = x.get("finding")
            found = "none" if not f and x["exit"] == 0 else \
                "**%s**" % ((f or {}).get("error") or "exit %d" % x["exit"])
            met += x["executions"] >= goal and not f and x["exit"] == 0
            rows.append((x.get("target", "?"), n(x["seconds"]), n(x["executions"]),
                         n(x.get("executions_per_s", 0)), n(x.get("new_inputs", 0)),
                         num(x.get("corpus"), "%d"), num(x.get("coverage"), "%d"), found))
        return md(["target", "seconds", "executions", "per second", "new inputs", "corpus", "coverage",
                   "finding"], rows, ["---"] + ["---:"] * 6 + ["---"]) + [
            "", "Each target ran at most %s; the goal, %s executions a target in one run with no finding, "
            "is met by %s targets in this record." % (lim, n(goal), of(met, len(rows)))]
    return with_caption(r, body)


# ---- docs/board.md: make bench-board, make board-run ----------------------------------------
def t_board():
    r = Record("board")

    def body():
        g = r.get
        rows = [("frames (reads + writes)", "%s (%s + %s): %.2f frames per command" % (
                    n(g("frames")), n(g("reads")), n(g("writes")), g("frames_per_command"))),
                ("bytes to / from the board", "%s / %s" % (n(g("bytes_to_board")), n(g("bytes_from_board")))),
                ("simulated board time", "%s clocks = %.3f s at %g MHz" % (
                    n(g("board_clocks")), g("board_seconds"), g("clk_hz") / 1e6)),
                ("**commands per second over the UART**", "**%s** (%s frames/s)" % (
                    n(g("commands_per_s")), n(g("frames_per_s")))),
                ("bound from the bytes (10 bit times each, %s baud)" % g("baud"),
                 "%.1f commands/s" % g("line_bound_commands_per_s")),
                ("bounds from the frame sizes: frames/s, synchronous commands/s",
                 "%.1f, %.1f" % (g("frame_bound_per_s"), g("sync_command_bound_per_s"))),
                ("wall clock (the simulation's own speed)", "%.1f s: %s commands/s, %.1f M simulated clocks/s" % (
                    g("wall_seconds"), n(g("wall_commands_per_s")), g("sim_clocks_per_wall_s") / 1e6))]
        return md(["", "figure"], rows) + ["", "The run: `%s` (%s commands, seed %s)." % (
            r.data.get("run", "?"), n(g("commands")), r.data.get("seed", "?"))]
    return with_caption(r, body)


def t_board_run():
    r = Record("board-run")

    def body():
        rows = []
        for k, x in enumerate(r.get("runs", kind=list)):
            f = ("baud", "engine_commands", "frames", "bytes_to_board", "bytes_from_board", "board_seconds",
                 "commands_per_s", "line_bound_commands_per_s", "wall_seconds")
            if not isinstance(x, dict) or not all(isinstance(x.get(y), (int, float)) for y in f):
                die("%s: \"runs\" entry %d lacks one of %s" % (r.path, k + 1, ", ".join(f)))
            rows.append((n(x["baud"]), n(x["engine_commands"]), n(x["frames"]),
                         "%s / %s" % (n(x["bytes_to_board"]), n(x["bytes_from_board"])),
                         "%.3f" % x["board_seconds"], "**%s**" % n(x["commands_per_s"]),
                         n(x["line_bound_commands_per_s"]), "%.1f" % x["wall_seconds"]))
        return md(["baud", "engine commands", "frames", "bytes to / from the board", "board seconds",
                   "commands/s over the line", "bound from the bytes", "wall seconds"], rows,
                  ["---:"] * 8) + ["", "The workload: `%s`, seed %s, `%s`; each run's report against the rtl "
                                   "backend's: %s." % (
                      r.data.get("workload", "?"), r.data.get("seed", "?"), r.data.get("run_options", "?"),
                      r.data.get("compared_with_rtl", "not compared"))]
    return with_caption(r, body)


# ---- the tables: NAME -> (file, record, renderer) ------------------------------------------
TABLES = {
    "current": ("README.md", "*", t_current),
    "bench-latency": ("docs/accelerator.md", "bench", t_bench_latency),
    "bench-sustained": ("docs/accelerator.md", "bench", t_bench_sustained),
    "bench-speed": ("docs/accelerator.md", "bench", t_bench_speed),
    "bench-balance": ("docs/accelerator.md", "bench", t_bench_balance),
    "profile-rtl": ("docs/accelerator.md", "profile-rtl", t_profile_rtl),
    "synth-hx8k": ("docs/synthesis.md", "synth", t_synth_hx8k),
    "synth-sweep": ("docs/synthesis.md", "synth", t_synth_sweep),
    "replay-check": ("docs/trace.md", "replay-check", t_replay_check),
    "results-points": ("docs/results.md", "results", t_results_points),
    "results-ratios": ("docs/results.md", "results", t_results_ratios),
    "results-calibration": ("docs/results.md", "results", t_results_section("calibration")),
    "results-contention": ("docs/results.md", "results", t_results_section("contention")),
    "results-exp1": ("docs/results.md", "results", t_results_section("exp1")),
    "results-exp2": ("docs/results.md", "results", t_results_section("exp2")),
    "results-exp3": ("docs/results.md", "results", t_results_section("exp3")),
    "results-exp4": ("docs/results.md", "results", t_results_section("exp4")),
    "results-exp5": ("docs/results.md", "results", t_results_section("exp5")),
    "results-verdict-exp1": ("docs/results.md", "results", t_results_verdict("exp1")),
    "results-verdict-exp2": ("docs/results.md", "results", t_results_verdict("exp2")),
    "results-verdict-exp3": ("docs/results.md", "results", t_results_verdict("exp3")),
    "results-verdict-exp4": ("docs/results.md", "results", t_results_verdict("exp4")),
    "results-verdict-exp5": ("docs/results.md", "results", t_results_verdict("exp5")),
    "vp-study-new": ("docs/co-design.md", "vp-study-old vp-study-new", t_vp_compare("vp-study-old", "vp-study-new", "iface")),
    "vp-study-new-modern": ("docs/co-design.md", "vp-study-old-modern vp-study-new-modern",
                            t_vp_compare("vp-study-old-modern", "vp-study-new-modern", "iface")),
    "vp-study-old": ("docs/co-design.md", "vp-study-old", t_vp("vp-study-old")),
    "vp-study-lean": ("docs/co-design.md", "vp-study-lean", t_vp_lean("vp-study-lean")),
    "vp-study-lean-modern": ("docs/co-design.md", "vp-study-lean-modern", t_vp_lean("vp-study-lean-modern")),
    "vp-study-contention": ("docs/co-design.md", "vp-study-old vp-study-old-modern",
                            t_vp_compare("vp-study-old", "vp-study-old-modern", "contention")),
    "coverage": ("docs/coverage.md", "coverage", t_coverage),
    "formal": ("docs/formal.md", "formal", t_formal),
    "soak": ("docs/fuzz.md", "soak", t_soak),
    "fuzz": ("docs/fuzz.md", "fuzz", t_fuzz),
    "profile": ("docs/accelerator.md", "profile", t_profile),
    "synth-seeds": ("docs/synthesis.md", "synth-seeds", t_synth_seeds),
    "synth-seeds-lean": ("docs/synthesis.md", "synth-seeds-lean", lambda: t_synth_seeds("synth-seeds-lean")),
    "board": ("docs/board.md", "board", t_board),
    "board-run": ("docs/board.md", "board-run", t_board_run),
}

if mode == "list":
    for k, (f, r, _) in TABLES.items():
        print("%s %s %s" % (k, f, r))
    sys.exit(0)
if mode == "print":
    if table_arg not in TABLES:
        die("no table '%s' (tools/figures.sh --list)" % table_arg)
    print("\n".join(TABLES[table_arg][2]()))
    sys.exit(0)

if mode == "write":
    refresh()

MARK = re.compile(r"^<!-- figures:([\w.-]+):(begin|end) -->$")
files = {}
for name, (f, _, _) in TABLES.items():
    files.setdefault(f, []).append(name)
# every markdown file of the tree that carries a figures marker, so that a marker of an
# unknown table is found too
for f in ["README.md"] + sorted("docs/" + x for x in os.listdir(os.path.join(root, "docs"))
                                if x.endswith(".md")) if os.path.isdir(os.path.join(root, "docs")) else []:
    if f not in files and os.path.exists(os.path.join(root, f)):
        with open(os.path.join(root, f), encoding="utf-8") as h:
            if "<!-- figures:" in h.read():
                files[f] = []

stale, writes = 0, []
for f, names in files.items():
    path = os.path.join(root, f)
    try:
        with open(path, encoding="utf-8") as h:
            text = h.read()
    except OSError as e:
        die("%s: %s (it carries the tables %s)" % (path, e.strerror, ", ".join(names)))
    lines = text.split("\n")
    where = {}
    for k, l in enumerate(lines):
        m = MARK.match(l)
        if m:
            if m.group(1) not in TABLES or TABLES[m.group(1)][0] != f:
                die("%s:%d: a marker of table '%s', which is not one of %s's (tools/figures.sh --list)"
                    % (path, k + 1, m.group(1), f))
            where.setdefault((m.group(1), m.group(2)), []).append(k)
    for name in names:
        b, e = where.get((name, "begin"), []), where.get((name, "end"), [])
        if len(b) != 1 or len(e) != 1 or b[0] > e[0]:
            die("%s: table '%s' needs one line <!-- figures:%s:begin --> and, after it, one line "
                "<!-- figures:%s:end --> (found %d and %d)" % (path, name, name, name, len(b), len(e)))
    new = list(lines)
    # replace from the last table up, so that earlier line numbers stay right
    for name in sorted(names, key=lambda x: -where[(x, "begin")][0]):
        b, e = where[(name, "begin")][0], where[(name, "end")][0]
        want = TABLES[name][2]()
        if mode == "check":
            if lines[b + 1:e] != want:
                stale += 1
                old = lines[b + 1:e]
                first = next((k for k in range(max(len(old), len(want)))
                              if k >= len(old) or k >= len(want) or old[k] != want[k]), 0)
                print("figures: %s: table '%s' is older than its records (%s): line %d of it is\n"
                      "  doc:     %s\n  records: %s" % (f, name, ", ".join(
                          "records/%s.json" % x if x != "*" else "records/" for x in TABLES[name][1].split()),
                          first + 1,
                                                      old[first] if first < len(old) else "(none)",
                                                      want[first] if first < len(want) else "(none)"),
                      file=sys.stderr)
        new[b + 1:e] = want
    if mode == "write" and "\n".join(new) != text:
        writes.append((f, path, "\n".join(new), names))

# every table rendered and every marker found before the first file is written: an error
# leaves every file as it was
for f, path, out, names in writes:
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(f) + ".", dir=os.path.dirname(path))
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as h:
            h.write(out)
        os.chmod(tmp, os.stat(path).st_mode & 0o7777)
        os.replace(tmp, path)
    except OSError as ex:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        die("%s: cannot write it: %s" % (path, ex))
    print("figures: wrote %s (%s)" % (f, ", ".join(names)))

if mode == "check":
    if stale:
        print("figures: %d table%s older than %s records: run make figures"
              % (stale, "s" if stale > 1 else "", "their"), file=sys.stderr)
        sys.exit(1)
    print("figures: every table is current (%d tables in %d files)" % (len(TABLES), len(files)))
PY
