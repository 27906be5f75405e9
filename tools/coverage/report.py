#!/usr/bin/env python3
"""report.py - make coverage's table: RTL line and toggle coverage per module, C line
coverage per folder, and whether the goals are met (docs/coverage.md).

usage: tools/coverage/report.py [--rtl MERGED.dat] [--rtl-info OUT.info] [--c C.info]
                                [--root DIR] [--rtl-goal P] [--c-goal P]

RTL (a Verilator coverage file, verilator_coverage --write of every instance's counts):
  - a point belongs to the module named by its page (v_line/M, v_branch/M, v_toggle/M;
    Verilator's suffix for a parameter set, M__D100_W10_A8, dropped); the points of every
    instance and parameter set of a module are added up (a point is hit when any
    instance hit it), so the figures are per module whatever the hierarchy;
  - line coverage: the source lines that line and branch points name (their line ranges,
    key S, else their line); a line is hit when a point on it was hit;
  - toggle coverage: every toggle point (one per signal bit), hit when it toggled;
  - assertion-only code is excluded: a point whose line lies where `define SYNTHESIS would
    drop it (inside `ifndef SYNTHESIS, or the `else of `ifdef SYNTHESIS), and a point from
    an included file whose every `include in the module's file lies in such a region. The
    shapes keep --assert: the checkers run during the coverage run, they are only not
    counted;
  - the functions tools/coverage/exclude.list names (module, function, reason): constant
    functions, evaluated at elaboration (a localparam's value), never at run time. Found
    by name (function ... NAME to endfunction), so a moved line does not disarm an entry;
    an entry that names no function is an error.
C (an lcov tracefile): per top folder (lib, models, driver, firmware), from its DA lines.
Goals: the RTL's lines in all (every module's together) >= --rtl-goal (95), the C's lines in
all >= --c-goal (90). Exit status 0 when both are met (or the side is not given), 1 when
one is missed, 2 for bad input.
"""
import argparse
import collections
import os
import re
import sys


def die(msg):
    print("coverage report: " + msg, file=sys.stderr)
    sys.exit(2)


def parse_dat(path):
    """The points of a Verilator coverage file: a list of (keys dict, count)."""
    pts = []
    rx = re.compile(r"^C '(.*)' (\d+)$")
    try:
        f = open(path, encoding="utf-8", errors="surrogateescape")
    except OSError as e:
        die("cannot read %s: %s" % (path, e.strerror))
    with f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            m = rx.match(line)
            if not m:
                die("%s:%d: not a coverage point" % (path, n))
            keys = {}
            for item in m.group(1).split("\x01"):
                if not item:
                    continue
                k, sep, v = item.partition("\x02")
                if not sep:
                    die("%s:%d: a key without a value" % (path, n))
                keys[k] = v
            pts.append((keys, int(m.group(2))))
    return pts


def synthesis_dropped(path):
    """Line numbers of @path that a `define SYNTHESIS drops (1-based)."""
    out = set()
    stack = []  # one entry per open `ifdef/`ifndef: True when its active branch is dropped
    try:
        lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
    except OSError:
        return out
    for n, text in enumerate(lines, 1):
        t = text.strip()
        m = re.match(r"`(ifdef|ifndef|elsif|else|endif)\b\s*(\w*)", t)
        if m:
            d, name = m.group(1), m.group(2)
            if d in ("ifdef", "ifndef"):
                if name == "SYNTHESIS":
                    stack.append(d == "ifndef")  # `ifndef SYNTHESIS: dropped
                else:
                    stack.append(None)  # not about SYNTHESIS
            elif d == "elsif":
                if stack and stack[-1] is not None:
                    stack[-1] = True  # `elsif after `ifdef SYNTHESIS: not taken
            elif d == "else":
                if stack and stack[-1] is not None:
                    stack[-1] = not stack[-1]
            elif d == "endif":
                if stack:
                    stack.pop()
            out.add(n)  # the directive itself is never code
            continue
        if any(s for s in stack if s is not None):
            out.add(n)
    return out


def line_ranges(s):
    """Lines of a Verilator S key: "12-14,16" -> [12, 13, 14, 16]."""
    out = []
    for part in s.split(","):
        part = part.strip()
        if not part:
            continue
        a, _, b = part.partition("-")
        try:
            lo = int(a)
            hi = int(b) if b else lo
        except ValueError:
            continue
        out.extend(range(lo, hi + 1))
    return out


def read_exclusions(path):
    """[(module, function, reason)] of an exclusion list (blank lines and # comments)."""
    out = []
    try:
        f = open(path, errors="replace")
    except OSError as e:
        die("cannot read %s: %s" % (path, e.strerror))
    with f:
        for n, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            parts = line.split(None, 3)
            if len(parts) < 4 or parts[1] != "function":
                die("%s:%d: expected 'MODULE function NAME REASON'" % (path, n))
            out.append((parts[0], parts[2], parts[3]))
    return out


class Rtl:
    def __init__(self, points, root, exclusions=()):
        self.root = root
        self.dropped = {}
        self.modfile = self._module_files(points)
        self.listed = collections.defaultdict(set)  # module -> excluded (file, line)
        self.listed_lines = 0
        for module, fn, _ in exclusions:
            mf = self.modfile.get(module)
            if not mf:
                die("exclusion: module %s is not in the coverage data" % module)
            text = open(os.path.join(root, mf), errors="replace").read().split("\n")
            lo = next((n for n, t in enumerate(text, 1)
                       if re.match(r"\s*function\b.*\b%s\s*\(" % re.escape(fn), t)), None)
            if lo is None:
                die("exclusion: no function %s in %s (module %s)" % (fn, mf, module))
            hi = next(n for n, t in enumerate(text, 1)
                      if n > lo and re.match(r"\s*endfunction\b", t))
            for n in range(lo, hi + 1):
                self.listed[module].add((mf, n))
        # (kind, module, file, line, column, comment) -> count, over every instance
        agg = collections.Counter()
        lines_of = {}
        for keys, count in points:
            page = keys.get("page", "")
            kind, _, module = page.partition("/")
            # A module Verilated with parameters other than its defaults is named
            # <module>__<parameters> (hws_ram__D100_W10_A8): one module all the same.
            module = module.split("__")[0]
            if kind not in ("v_line", "v_branch", "v_toggle") or not module:
                continue
            f = keys.get("f", "")
            k = (kind, module, f, keys.get("l", "0"), keys.get("n", ""), keys.get("o", ""))
            agg[k] += count
            if kind != "v_toggle":
                ls = line_ranges(keys["S"]) if keys.get("S") else [int(keys.get("l", "0"))]
                lines_of[k] = ls
        self.excluded_points = 0
        self.mods = collections.defaultdict(lambda: {"lines": {}, "tog": [0, 0]})
        self.files = collections.defaultdict(dict)  # file -> line -> count (for rtl.info)
        for k, count in agg.items():
            kind, module, f, l, _, _ = k
            if self.excluded(module, f, int(l)):
                self.excluded_points += 1
                continue
            m = self.mods[module]
            if kind == "v_toggle":
                m["tog"][1] += 1
                m["tog"][0] += count > 0
                continue
            for ln in lines_of[k]:
                if self.excluded(module, f, ln):
                    continue
                key = (f, ln)
                m["lines"][key] = max(m["lines"].get(key, 0), count)
                self.files[f][ln] = max(self.files[f].get(ln, 0), count)

    def _module_files(self, points):
        """module name -> the file that defines it (the .v files the points name)."""
        out = {}
        for f in sorted({k.get("f", "") for k, _ in points}):
            p = os.path.join(self.root, f)
            if not f.endswith(".v") or not os.path.isfile(p):
                continue
            for m in re.finditer(r"^\s*module\s+(\w+)", open(p, errors="replace").read(), re.M):
                out.setdefault(m.group(1), f)
        return out

    def _dropped(self, f):
        if f not in self.dropped:
            self.dropped[f] = synthesis_dropped(os.path.join(self.root, f))
        return self.dropped[f]

    def excluded(self, module, f, line):
        if line in self._dropped(f) or (f, line) in self.listed.get(module, ()):
            return True
        mf = self.modfile.get(module)
        if mf and mf != f:
            # An included file: excluded when every `include of it in the module's file is.
            base = os.path.basename(f)
            try:
                text = open(os.path.join(self.root, mf), errors="replace").read().split("\n")
            except OSError:
                return False
            sites = [n for n, t in enumerate(text, 1)
                     if re.match(r'\s*`include\s+"([^"]*)"', t)
                     and os.path.basename(re.match(r'\s*`include\s+"([^"]*)"', t).group(1)) == base]
            if sites and all(s in self._dropped(mf) for s in sites):
                return True
        return False

    def rows(self):
        out = []
        for name in sorted(self.mods):
            m = self.mods[name]
            lh = sum(1 for c in m["lines"].values() if c > 0)
            out.append((name, lh, len(m["lines"]), m["tog"][0], m["tog"][1]))
        return out

    def uncovered(self):
        """module -> sorted 'file:line' strings never hit."""
        out = {}
        for name, m in self.mods.items():
            miss = sorted(k for k, c in m["lines"].items() if c == 0)
            if miss:
                out[name] = ["%s:%d" % k for k in miss]
        return out

    def write_info(self, path):
        tmp = path + ".tmp"
        with open(tmp, "w") as o:
            o.write("TN:rtl\n")
            for f in sorted(self.files):
                lines = self.files[f]
                o.write("SF:%s\n" % os.path.join(self.root, f))
                for ln in sorted(lines):
                    o.write("DA:%d,%d\n" % (ln, lines[ln]))
                o.write("LF:%d\nLH:%d\nend_of_record\n"
                        % (len(lines), sum(1 for c in lines.values() if c > 0)))
        os.replace(tmp, path)


def parse_info(path, root):
    """Per top folder of an lcov tracefile: [hit, total] lines (from DA records)."""
    per = collections.defaultdict(lambda: [0, 0])
    cur = None
    seen = {}
    try:
        f = open(path, errors="replace")
    except OSError as e:
        die("cannot read %s: %s" % (path, e.strerror))
    with f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if line.startswith("SF:"):
                p = line[3:]
                rel = os.path.relpath(p, root) if os.path.isabs(p) else p
                cur = rel.split(os.sep)[0]
                seen = {}
            elif line.startswith("DA:"):
                if cur is None:
                    die("%s:%d: DA before SF" % (path, n))
                try:
                    ln, cnt = line[3:].split(",")[:2]
                    ln, cnt = int(ln), int(cnt)
                except ValueError:
                    die("%s:%d: bad DA record" % (path, n))
                seen[ln] = max(seen.get(ln, 0), cnt)
            elif line == "end_of_record":
                if cur is not None:
                    per[cur][0] += sum(1 for c in seen.values() if c > 0)
                    per[cur][1] += len(seen)
                cur = None
    return per


def row(fmt, *cols):
    print((fmt % cols).rstrip())


def pct(h, t):
    return 100.0 * h / t if t else 100.0


def main():
    ap = argparse.ArgumentParser(description="make coverage's table")
    ap.add_argument("--rtl")
    ap.add_argument("--rtl-info")
    ap.add_argument("--c")
    ap.add_argument("--root", default=".")
    ap.add_argument("--rtl-goal", type=float, default=95.0)
    ap.add_argument("--c-goal", type=float, default=90.0)
    ap.add_argument("--exclude", help="an exclusion list (tools/coverage/exclude.list)")
    ap.add_argument("--uncovered", action="store_true",
                    help="list the RTL lines never hit, per module")
    a = ap.parse_args()
    root = os.path.abspath(a.root)
    fmt = "%-22s %15s %7s %6s   %17s %7s"
    row(fmt, "module / folder", "lines hit/total", "%", "goal", "toggles hit/total", "%")
    row(fmt, "---------------", "---------------", "-", "----", "-----------------", "-")
    verdicts = []
    if a.rtl:
        excl = read_exclusions(a.exclude) if a.exclude else []
        rtl = Rtl(parse_dat(a.rtl), root, excl)
        if not rtl.mods:
            die("%s: no line, branch or toggle points" % a.rtl)
        th = tt = tgh = tgt = 0
        for name, lh, lt, gh, gt in rtl.rows():
            row(fmt, "rtl " + name, "%d/%d" % (lh, lt), "%.1f" % pct(lh, lt),
                         "%g" % a.rtl_goal, "%d/%d" % (gh, gt), "%.1f" % pct(gh, gt))
            th, tt, tgh, tgt = th + lh, tt + lt, tgh + gh, tgt + gt
        row(fmt, "RTL, all modules", "%d/%d" % (th, tt), "%.1f" % pct(th, tt),
                     "%g" % a.rtl_goal, "%d/%d" % (tgh, tgt), "%.1f" % pct(tgh, tgt))
        print("  (%d points excluded: assertion-only code, dropped by `define SYNTHESIS%s)"
              % (rtl.excluded_points, "; the functions of %s" % a.exclude if excl else ""))
        verdicts.append(("RTL line", pct(th, tt), a.rtl_goal))
        if a.rtl_info:
            rtl.write_info(a.rtl_info)
        if a.uncovered:
            for name, miss in sorted(rtl.uncovered().items()):
                print("  never hit in %s: %s" % (name, " ".join(miss)))
    if a.c:
        per = parse_info(a.c, root)
        if not per:
            die("%s: no source files" % a.c)
        th = tt = 0
        for d in sorted(per):
            h, t = per[d]
            row(fmt, "C " + d + "/", "%d/%d" % (h, t), "%.1f" % pct(h, t),
                         "%g" % a.c_goal, "", "")
            th, tt = th + h, tt + t
        row(fmt, "C, all folders", "%d/%d" % (th, tt), "%.1f" % pct(th, tt),
                     "%g" % a.c_goal, "", "")
        verdicts.append(("C line", pct(th, tt), a.c_goal))
    if not verdicts:
        die("nothing to report: give --rtl and/or --c")
    met = all(v >= g for _, v, g in verdicts)
    print("goals %s: %s" % ("met" if met else "NOT met", "; ".join(
        "%s %.1f%% %s %g%%" % (n, v, ">=" if v >= g else "<", g) for n, v, g in verdicts)))
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
