#!/usr/bin/env bash
# check_docs.sh - fail when the docs, comments or help text read as a lab log.
#
# usage: tools/check_docs.sh [ROOT]        check the tree at ROOT (default: the repository)
#        tools/check_docs.sh --self-test   show that each kind of finding is caught
#        tools/check_docs.sh --help
#
# Docs state rules and current figures; their history is docs/CHANGELOG.md's. Three
# findings, each printed as FILE:LINE: what, and any of them is exit 1:
#   hash   a commit hash: a word of 7-40 lower-case hex digits with at least one letter
#          and one digit (not after 0x, ' or a digit/letter, so 0x1f2e3d4c and
#          32'h1a2b3c4d pass), or a word of 7-40 decimal digits that names a commit of
#          the repository (git cat-file; 1234567 ns passes unless it is one);
#   issue  a tracker reference: "issue 22", "issues 24, 36", "#37" in brackets or after
#          see/in/of/fixes/closes/per/by/from/and/or; say what it means instead ("command
#          #3" and colours such as "#888888" are not references);
#   path   a repository path that does not exist: a word starting with a top-level
#          folder (rtl/ models/ lib/ driver/ firmware/ sim/ cli/ tests/ docs/ tools/
#          results/ synth/ formal/ regmap/ traces/ include/ board/) that names no
#          committed file or folder. build/ paths are outputs and pass; a glob (*, ?, [)
#          or placeholder (<key>, $VAR, an upper-case part such as expN or T) passes
#          when, read as a glob, it matches a committed path; {a,b} when each exists.
#          In markdown a path may also be relative to the page (a link: results/exp1.svg
#          in docs/), and a unit may be named without its extension (lib/hws_parse).
# Where: every committed .md except docs/CHANGELOG.md (which may name commits and
# issues), whole; the Makefile's comments; in source files (rtl models lib driver firmware
# sim cli tools results synth formal regmap include tests) the comments, and the string
# literals and here-documents (the --help and usage text) except under tests/, whose
# strings are test data. Traces, fuzz corpora, data files, the records of the measurements
# (records/: each names the commit it measured, tools/figures.sh) and this script (whose
# self-test plants findings) are not read.
# Allowlist: a line holding the marker "docs-check: allow" (in a comment, or an HTML
# comment in markdown) is skipped, e.g. a SHA-256 of a data file; the check prints how
# many lines it skipped so that the list stays visible and small.
# --self-test checks a small planted tree: one finding of each kind reported at its
# file:line, then the same tree without them passing. make docs-check runs both.
set -euo pipefail

case "${1:-}" in
-h | --help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
esac

# The checker proper (python3, a dependency of formal/ and coverage already).
check() {
	python3 - "$1" <<'PY'
import os, re, subprocess, sys, fnmatch

root = sys.argv[1]
os.chdir(root)
try:
    files = subprocess.run(["git", "ls-files", "-z"], check=True, capture_output=True,
                           text=True).stdout.split("\0")
    files = [f for f in files if f]
except Exception:
    files = []
    for d, _, fs in os.walk("."):
        if "/." in d or d.startswith("./build"):
            continue
        for f in fs:
            files.append(os.path.normpath(os.path.join(d, f)))
files = [f for f in files if os.path.isfile(f)]
known = set(files)
dirs = set()
for f in files:
    p = f
    while "/" in p:
        p = p.rsplit("/", 1)[0]
        dirs.add(p)

MARK = "docs-check: allow"
TOP = ("rtl models lib driver firmware sim cli tests docs tools results synth formal "
       "regmap traces include board").split()
SRC_DIRS = ("rtl models lib driver firmware sim cli tools results synth formal regmap "
            "include tests").split()
C_EXT = {"c", "h", "cc", "cpp", "hpp", "v", "vh", "sv"}
SH_EXT = {"sh", "py", "mk", "def", "pcf", "tcl", "ys", "sby"}

HASH = re.compile(r"(?<![0-9A-Za-z_'.$#])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}(?![0-9A-Za-z_])")
ISSUE = re.compile(r"(?P<w>\bissues?\s+#?\d+(?:(?:,\s*|\s+and\s+)#?\d+\b)*)|(?:[(\[]|\b(?:see|in|of|fixes|fixed|closes|closed|"
                   r"per|by|from|and|or)\s+|#\d+,\s*)(?P<h>#\d{1,5})(?![\w.#])", re.I)
DIGITS = re.compile(r"(?<![0-9A-Za-z_'.,$#])[0-9]{7,40}(?![0-9A-Za-z_]|[.,][0-9])")
PATH = re.compile(r"(?<![\w./$~-])(?:%s)/(?:[\w.*?\[\]<>$/+-]|\{[^}\s]*\})*" % "|".join(TOP))

findings = []
numbers = []    # all-digit words: a hash only when the repository has such a commit
allowed = 0

def exists(p, here):
    p = p.rstrip("/")
    # {a,b}: every alternative must exist (lib/hws_parse.{c,h})
    m = re.search(r"\{([^{}]*,[^{}]*)\}", p)
    if m:
        return all(exists(p[:m.start()] + a + p[m.end():], here) for a in m.group(1).split(","))
    for q in (p, os.path.normpath(os.path.join(here, p)) if here else p):
        if q in known or q in dirs:
            return True
        # a unit named without its extension: lib/hws_parse for lib/hws_parse.{c,h}
        if any(k.startswith(q + ".") and "/" not in k[len(q):] for k in known):
            return True
    # a glob or placeholder: <x> {a,b} $VAR [optional] 1..5, upper-case parts (expN, T)
    g = re.sub(r"<[^>/]*>|\{[^}/]*\}|\$\(?\{?\w*\}?|\[[^\]/]*\]|\d+\.\.\d+", "*", p)
    g = re.sub(r"[A-Z][A-Z0-9_]*", "*", g)
    if g == p and not re.search(r"[*?\[]", p):
        return False
    return any(fnmatch.fnmatchcase(k, g) for k in known | dirs)

def scan(f, lineno, text):
    global allowed
    if MARK in text:
        allowed += 1
        return
    for m in HASH.finditer(text):
        findings.append((f, lineno, "hash", "commit hash '%s'" % m.group(0)))
    for m in DIGITS.finditer(text):
        numbers.append((f, lineno, m.group(0)))
    for m in ISSUE.finditer(text):
        findings.append((f, lineno, "issue", "tracker reference '%s'" % (m.group("w") or m.group("h"))))
    for m in PATH.finditer(text):
        p = m.group(0)
        while True:
            q = re.sub(r"[.,:;)'\"`]+$", "", p)
            for o, c in ("[]", "{}", "<>"):
                if q.endswith(c) and o not in q:
                    q = q[:-1]
            if q == p:
                break
            p = q
        p = re.sub(r"\.\.\.$", "", p)
        if p.endswith("/..."):
            continue
        if not exists(p, os.path.dirname(f) if f.endswith(".md") else ""):
            findings.append((f, lineno, "path", "no such path '%s'" % p))

def pieces_c(src, strings):
    """(line, text) of the comments (and string literals when strings) of C-like source."""
    out = []
    i, n, line = 0, len(src), 1
    while i < n:
        c = src[i]
        if c == "\n":
            line += 1; i += 1
        elif src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            out.append((line, src[i + 2:j])); i = j
        elif src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j
            for k, t in enumerate(src[i + 2:j].split("\n")):
                out.append((line + k, t))
            line += src.count("\n", i, j); i = j + 2
        elif c == '"':
            j, buf = i + 1, []
            while j < n and src[j] != '"' and src[j] != "\n":
                if src[j] == "\\" and j + 1 < n:
                    buf.append(" " if src[j + 1] in "nt" else src[j + 1]); j += 2
                else:
                    buf.append(src[j]); j += 1
            if strings:
                out.append((line, "".join(buf)))
            i = j + 1
        elif c == "'" and re.match(r"'(\\.|[^\\'\n])'", src[i:i + 4]):
            i += 3 if src[i + 1] != "\\" else 4
        else:
            i += 1
    return out

def pieces_sh(src, strings):
    """(line, text) of the # comments, here-documents and quoted strings of a script."""
    out = []
    lines = src.split("\n")
    k = 0
    while k < len(lines):
        t = lines[k]
        hd = re.search(r"<<-?\s*['\"]?(\w+)['\"]?", t)
        # comment: a # at the start or after a blank, outside quotes
        q, cpos = None, -1
        for j, ch in enumerate(t):
            if q:
                if ch == q:
                    q = None
            elif ch in "'\"":
                q = ch
            elif ch == "#" and (j == 0 or t[j - 1] in " \t;("):
                cpos = j
                break
        code = t if cpos < 0 else t[:cpos]
        if cpos >= 0:
            out.append((k + 1, t[cpos + 1:]))
        if strings:
            for m in re.finditer(r"\"((?:\\.|[^\"\\])*)\"|'([^']*)'", code):
                out.append((k + 1, m.group(1) if m.group(1) is not None else m.group(2)))
        k += 1
        if hd and strings is not None:
            end = hd.group(1)
            while k < len(lines) and lines[k].strip() != end:
                out.append((k + 1, lines[k])); k += 1
            k += 1
    return out

for f in sorted(files):
    top = f.split("/", 1)[0]
    ext = f.rsplit(".", 1)[-1] if "." in f.rsplit("/", 1)[-1] else ""
    if f == "tools/check_docs.sh":
        continue        # its self-test's fixtures plant findings on purpose
    if top == "records":
        continue        # the measurements' records: each names its commit on purpose
    if f.endswith(".md"):
        if f == "docs/CHANGELOG.md":
            continue
        kind = "md"
    elif f == "Makefile":
        kind = "make"
    elif top in SRC_DIRS and "/corpus/" not in f and (ext in C_EXT or ext in SH_EXT):
        kind = "c" if ext in C_EXT else "sh"
    else:
        continue
    try:
        src = open(f, encoding="utf-8", errors="replace").read()
    except OSError:
        continue
    strings = top != "tests"
    if kind == "md":
        for k, t in enumerate(src.split("\n")):
            scan(f, k + 1, t)
    elif kind == "make":
        for k, t in enumerate(src.split("\n")):
            j = t.find("#")
            if j >= 0 and (j == 0 or t[j - 1] in " \t"):
                scan(f, k + 1, t[j + 1:])
    else:
        seen = {}
        for ln, t in (pieces_c if kind == "c" else pieces_sh)(src, strings):
            seen.setdefault(ln, []).append(t)
        lines = src.split("\n")
        for ln in sorted(seen):
            if MARK in lines[ln - 1]:
                seen[ln] = [MARK]
            scan(f, ln, "  ".join(seen[ln]))

if numbers:
    q = "".join("%s^{commit}\n" % w for _, _, w in numbers)
    try:
        r = subprocess.run(["git", "cat-file", "--batch-check"], input=q, check=True,
                           capture_output=True, text=True).stdout.split("\n")
    except Exception:
        r = []
    for (f, ln, w), a in zip(numbers, r):
        if a.split(" ")[1:2] == ["commit"]:
            findings.append((f, ln, "hash", "commit hash '%s'" % w))
    findings.sort(key=lambda x: (x[0], x[1]))

for f, ln, kind, what in findings:
    print("%s:%d: %s: %s" % (f, ln, kind, what))
counts = {}
for _, _, kind, _ in findings:
    counts[kind] = counts.get(kind, 0) + 1
summary = ", ".join("%d %s" % (counts[k], k) for k in ("hash", "issue", "path") if k in counts)
print("check_docs: %s%s" % (summary or "no findings",
      "" if not allowed else " (%d line%s allowed by '%s')" % (allowed, "" if allowed == 1 else "s", MARK)),
      file=sys.stderr)
sys.exit(1 if findings else 0)
PY
}

# --self-test: a small tree with one planted finding of each kind (and a line of each
# kind that must pass) must report exactly those, at their file:line.
self_test() {
	local tmp out want
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' RETURN
	mkdir -p "$tmp/docs" "$tmp/lib" "$tmp/tools" "$tmp/results"
	printf 'x\n' >"$tmp/lib/real.c"
	printf 'x\n' >"$tmp/results/exp1.svg"
	cat >"$tmp/docs/a.md" <<'EOF'
# A doc
The figure is 12 ns (lib/real.c, results/expN.svg, build/x/y.json, lib/*.c).
Measured at 3a05415 and 0x1f2e3d4c.
Fixed in issue 12.
See lib/gone.c for the rule (lib/{real,none}.c, lib/real.{c,c}).
A SHA-256 of data: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 <!-- docs-check: allow -->
EOF
	cat >"$tmp/docs/CHANGELOG.md" <<'EOF'
At 3505415 (issue 12), lib/gone.c.
EOF
	cat >"$tmp/lib/real.c" <<'EOF'
/* real.c - a unit (see lib/real.c). */
int x = 0x1234abcd;	/* the rule */
const char *s = "abc1234 in a string";
// the bus of issue 22
EOF
	cat >"$tmp/tools/t.sh" <<'EOF'
#!/bin/sh
# t.sh - a tool; see tools/none.sh
n=${#1}
cat <<USAGE
usage: t.sh (#7)
USAGE
EOF
	(cd "$tmp" && git init -q && git add -A) >/dev/null 2>&1 || true
	want_md="docs/a.md:3: hash: commit hash '3a05415'
docs/a.md:4: issue: tracker reference 'issue 12'
docs/a.md:5: path: no such path 'lib/gone.c'
docs/a.md:5: path: no such path 'lib/{real,none}.c'"
	want_src="lib/real.c:3: hash: commit hash 'abc1234'
lib/real.c:4: issue: tracker reference 'issue 22'
tools/t.sh:2: path: no such path 'tools/none.sh'
tools/t.sh:5: issue: tracker reference '#7'"
	# An all-digit hash is one only when it names a commit: borrow this repository's
	# objects and plant the abbreviation of one of its all-digit commits, if it has one.
	local here objs digits
	here=$(cd "$(dirname "$0")/.." && pwd)
	if objs=$(git -C "$here" rev-parse --path-format=absolute --git-common-dir 2>/dev/null) &&
		digits=$(git -C "$here" log --format=%h -n 5000 2>/dev/null |
			awk '/^[0-9]+$/ && d == "" { d = $0 } END { print d }') && [ -n "$digits" ] &&
		[ -d "$tmp/.git/objects/info" ]; then
		echo "$objs/objects" >"$tmp/.git/objects/info/alternates"
		printf 'Rerun at %s; 1234567 ns is a figure.\n' "$digits" >>"$tmp/docs/a.md"
		want_md="$want_md
docs/a.md:7: hash: commit hash '$digits'"
	fi
	want="$want_md
$want_src"
	if out=$(check "$tmp" 2>/dev/null); then
		echo "check_docs self-test: FAILED, the planted tree passed" >&2
		return 1
	fi
	if [ "$out" != "$want" ]; then
		echo "check_docs self-test: FAILED; expected:" >&2
		echo "$want" >&2
		echo "got:" >&2
		echo "$out" >&2
		return 1
	fi
	# The same tree without the planted lines passes.
	sed -i '7d; 3,5d' "$tmp/docs/a.md"
	sed -i '3,4d' "$tmp/lib/real.c"
	sed -i 's,tools/none.sh,tools/t.sh,; s,(#7),(-h),' "$tmp/tools/t.sh"
	if ! out=$(check "$tmp" 2>&1); then
		echo "check_docs self-test: FAILED, the clean tree did not pass:" >&2
		echo "$out" >&2
		return 1
	fi
	echo "check_docs self-test: the planted hash, tracker reference and path are caught; the clean tree passes" >&2
}

case "${1:-}" in
--self-test) self_test ;;
*) check "${1:-$(cd "$(dirname "$0")/.." && pwd)}" ;;
esac
