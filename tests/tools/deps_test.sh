#!/usr/bin/env bash
# deps_test.sh - tools/deps.sh and the Makefile's use of it (run by make test).
#
# usage: tests/tools/deps_test.sh
# Checks: the tables pass --check; run's packages are a strict subset of test's, every
# group's of the union's; each package is listed once and is a Debian package apt or dpkg
# knows; the tools make test runs come from packages of the test group; HWS_NO_APT=1 with a
# package taken as missing prints the exact apt-get line and fails, for deps.sh and
# through the Makefile (make run does not need iverilog, make test does, an unknown goal
# needs everything, make clean nothing); as root (faked: dpkg-query, apt-get and id on
# PATH) with verilator missing, make run installs it, restarts and goes on, and stops when
# apt-get installed nothing; README.md holds the current --table.
# Prints one line per check and "deps_test: N passed, M failed"; exit 1 on any failure.
set -u
case "${1:-}" in -h | --help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 2
deps=tools/deps.sh
pass=0 fail=0
ok() { echo "  ok: $*"; pass=$((pass + 1)); }
bad() { echo "  FAILED: $*" >&2; fail=$((fail + 1)); }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

# --check
if out=$($deps --check 2>&1); then ok "deps.sh --check"; else bad "deps.sh --check: $out"; fi

# run is a strict subset of test; every group a subset of the union.
words() { tr ' ' '\n' | sed '/^$/d' | sort; }
run=$($deps --list run | words)
tst=$($deps --list test | words)
all=$($deps --list | words)
if [ -n "$run" ] && [ -z "$(comm -23 <(echo "$run") <(echo "$tst"))" ] &&
	[ -n "$(comm -13 <(echo "$run") <(echo "$tst"))" ]; then
	ok "--list run ($(echo "$run" | wc -l)) is a strict subset of --list test ($(echo "$tst" | wc -l))"
else
	bad "--list run is not a strict subset of --list test: run=[$run] test=[$tst]"
fi
for g in $($deps --groups); do
	extra=$(comm -23 <($deps --list "$g" | words) <(echo "$all"))
	[ -z "$extra" ] || bad "group $g has packages outside the union: $extra"
done
ok "every group is within the union"
[ "$($deps --list all | words)" = "$run" ] && ok "make all needs the run group only" ||
	bad "make all needs $($deps --list all), not the run group"
[ "$($deps --list no-such-goal | words)" = "$all" ] && ok "an unknown goal needs the union" ||
	bad "an unknown goal needs $($deps --list no-such-goal), not the union"
[ -z "$($deps --list clean)" ] && ok "make clean needs no package" || bad "make clean needs $($deps --list clean)"

# Each package once, and a real Debian package.
dups=$(echo "$all" | uniq -d)
[ -z "$dups" ] && ok "each of $(echo "$all" | wc -l) packages listed once" || bad "listed twice: $dups"
# A line of the table per package, too (the source, not only the output).
n_lines=$(grep -cE '^[[:space:]]+"[a-z0-9][a-z0-9+.-]+	' "$deps")
[ "$n_lines" = "$(echo "$all" | wc -l)" ] && ok "one table line per package" ||
	bad "$n_lines table lines for $(echo "$all" | wc -l) packages"
unknown=()
for p in $all; do
	if apt-cache show --no-all-versions "$p" >/dev/null 2>&1 && [ -n "$(apt-cache show --no-all-versions "$p" 2>/dev/null)" ]; then
		continue
	fi
	dpkg-query -W "$p" >/dev/null 2>&1 || unknown+=("$p")
done
[ ${#unknown[@]} = 0 ] && ok "every package is known to apt or dpkg" || bad "not Debian packages: ${unknown[*]}"

# The tools make test runs, and the packages that hold them: each must be in the test group.
for tp in verilator:verilator iverilog:iverilog yosys:yosys z3:z3 python3:python3 \
	parallel:parallel gnuplot:gnuplot-nox clang-14:clang pkg-config:pkg-config g++:build-essential; do
	tool=${tp%%:*} pkg=${tp#*:}
	echo "$tst" | grep -qx "$pkg" && continue
	bad "make test runs $tool, but its package $pkg is not in the test group"
done
ok "the tools of make test are in the test group"

# HWS_NO_APT=1 with a package taken as missing: the exact line, and failure.
line="apt-get update && apt-get install -y --no-install-recommends verilator"
HWS_NO_APT=1 HWS_DEPS_ASSUME_MISSING=verilator $deps run >"$t/out" 2>&1
rc=$?
if [ $rc != 0 ] && grep -qF "$line" "$t/out"; then
	ok "HWS_NO_APT=1, verilator missing: exit $rc and the apt-get line"
else
	bad "HWS_NO_APT=1, verilator missing: exit $rc, output: $(cat "$t/out")"
fi
[ "$(HWS_DEPS_ASSUME_MISSING=verilator $deps --missing run)" = verilator ] &&
	ok "--missing run names verilator" || bad "--missing run: '$(HWS_DEPS_ASSUME_MISSING=verilator $deps --missing run)'"
[ -z "$(HWS_DEPS_ASSUME_MISSING=iverilog $deps --missing run)" ] &&
	ok "--missing run does not name iverilog" || bad "--missing run names iverilog"
$deps --bogus >/dev/null 2>&1
[ $? = 2 ] && ok "a bad option: exit 2" || bad "a bad option does not exit 2"

# Through the Makefile (make -n: the package check is made all the same), a scratch BUILD.
mk() { HWS_NO_APT=1 HWS_DEPS_ASSUME_MISSING=iverilog make --no-print-directory -n BUILD="$t/b" "$@" >"$t/mk" 2>&1; }
mk run && ok "make run does not need iverilog" || bad "make run needs iverilog: $(tail -3 "$t/mk")"
mk && ok "make (all) does not need iverilog" || bad "make needs iverilog: $(tail -3 "$t/mk")"
if ! mk test && grep -qF "apt-get install -y --no-install-recommends iverilog" "$t/mk"; then
	ok "make test needs iverilog: stops with the apt-get line"
else
	bad "make test did not stop for iverilog: $(tail -3 "$t/mk")"
fi
if ! mk "$t/b/no-such-file"; then ok "an unknown goal needs every group"; else bad "an unknown goal passed"; fi
mk clean && ok "make clean checks no package" || bad "make clean checked packages: $(tail -3 "$t/mk")"

# The first try: a package missing, make run as root installs it and restarts itself
# (the included $(BUILD)/.deps.mk), then goes on. Fakes on PATH: dpkg-query says
# verilator is not installed until apt-get (fake) has "installed" it; id says root.
mkdir -p "$t/fake"
printf '%s\n' '#!/usr/bin/env bash' \
	"[ \"\${*: -1}\" = verilator ] && [ ! -e '$t/installed' ] && exit 1" \
	'exec /usr/bin/dpkg-query "$@"' >"$t/fake/dpkg-query"
printf '%s\n' '#!/usr/bin/env bash' \
	"echo \"apt-get \$*\" >>'$t/apt.log'" \
	"case \" \$* \" in *' install '*) touch '$t/installed' ;; esac" >"$t/fake/apt-get"
printf '%s\n' '#!/usr/bin/env bash' '[ "$1" = -u ] && { echo 0; exit 0; }' \
	'exec /usr/bin/id "$@"' >"$t/fake/id"
chmod +x "$t/fake/dpkg-query" "$t/fake/apt-get" "$t/fake/id"
if PATH="$t/fake:$PATH" make --no-print-directory -n BUILD="$t/b2" run >"$t/first" 2>&1 &&
	grep -q -- "install -y -qq --no-install-recommends verilator$" "$t/apt.log" &&
	grep -q "deps: installing verilator" "$t/first" && [ -f "$t/b2/.deps.mk" ] &&
	grep -q "hwsched run --workload" "$t/first"; then
	ok "first try: make run as root installs the missing verilator, restarts, goes on"
else
	bad "first try: make run with verilator missing: $(tail -5 "$t/first") apt: $(cat "$t/apt.log" 2>&1)"
fi
# An apt-get that installs nothing: make stops and names the package.
rm -f "$t/installed"
printf '%s\n' '#!/usr/bin/env bash' 'exit 0' >"$t/fake/apt-get"
if ! PATH="$t/fake:$PATH" make --no-print-directory -n BUILD="$t/b3" run >"$t/first" 2>&1 &&
	grep -q "still missing after apt-get: verilator" "$t/first"; then
	ok "an apt-get that installs nothing: make run stops, naming verilator"
else
	bad "apt-get without effect: $(tail -3 "$t/first")"
fi

# README.md holds the table deps.sh prints now.
if grep -qF -- "$($deps --table | sed -n 3p)" README.md &&
	diff <($deps --table) <(grep -F -A 200 -- "$($deps --table | sed -n 1p)" README.md |
		sed -n "1,$($deps --table | wc -l)p") >"$t/diff"; then
	ok "README.md holds the current tools/deps.sh --table"
else
	bad "README.md's package table is not tools/deps.sh --table (paste its output there): $(cat "$t/diff")"
fi

echo "deps_test: $pass passed, $fail failed"
[ $fail = 0 ]
