#!/usr/bin/env bash
# deps.sh - the Debian 12 packages each make goal needs, checked and (as root) installed.
#
#   tools/deps.sh [GOAL...]            install what GOALs need and is missing (apt-get, as
#                                      root); not root, or HWS_NO_APT=1: print the exact
#                                      apt-get line instead and exit 1
#   tools/deps.sh --missing [GOAL...]  print the missing packages on one line (nothing when none)
#   tools/deps.sh --list [GOAL...]     print the packages GOALs need on one line
#   tools/deps.sh --groups GOAL...     print the package groups GOALs map to, one line
#   tools/deps.sh --table              the Markdown table of groups, goals and packages
#                                      (README.md's)
#   tools/deps.sh --check              check the tables of this script (names, groups, each
#                                      package listed once); exit 1 naming the fault
#
# A GOAL is a make goal (run, test, synth, ...) or a group name (run, test, lint, synth,
# formal, fuzz, coverage, board, bench, results, traces). No GOAL, or a goal this script does not
# know (a file name, a new target), means every group: the safe side.
# Environment:
#   HWS_NO_APT=1                  never run apt-get: print its line and fail
#   HWS_DEPS_ASSUME_MISSING=LIST  treat these packages as not installed (tests)
#
# The Makefile runs this before it reads any rule (see "Debian packages" there): GNU make
# caches directory listings, so a rule whose prerequisite lives under a directory that
# apt-get creates during the same make run (/usr/share/verilator/include) would fail.
# Exit status: 0 when every package needed is installed afterwards, 1 otherwise, 2 on bad
# usage.
set -u

# One line per package: the name, the groups that need it, and why.
PACKAGES=(
	"build-essential	run test lint synth formal fuzz coverage board bench results traces	# gcc, g++, make"
	"verilator	run test lint formal fuzz coverage board bench results traces	# the RTL backend (engine shapes), lint"
	"libsystemc-dev	run test results	# the SystemC virtual platform (make all builds it; make vp-study)"
	"zlib1g-dev	run test fuzz coverage board bench results traces	# FST waveforms, gzip traces"
	"libgtest-dev	test coverage	# GoogleTest"
	"libgmock-dev	test coverage	# GoogleTest's matchers"
	"iverilog	test lint	# lint, per-module testbenches (make rtl-tb)"
	"yosys	test lint synth formal board	# lint (read_verilog), synthesis, formal (sat, write_smt2)"
	"z3	test formal	# formal: yosys-smtbmc's solver"
	"python3	test formal coverage	# formal/mutate.sh, the coverage report (tools/coverage/report.py)"
	"clang	test fuzz	# libFuzzer targets (make fuzz; make test replays their inputs)"
	"libfuzzer-14-dev	test fuzz	# libFuzzer's runtime"
	"parallel	test results synth	# GNU parallel: make results, make vp-study, make synth (test: a small results run)"
	"gnuplot-nox	test results	# the results plots (without Qt/GTK)"
	"pkg-config	test	# the install test builds a program with pkg-config --cflags --libs hwsched"
	"nextpnr-ice40	synth board	# place and route"
	"fpga-icestorm	synth board	# icetime, icepack (make board)"
	"fpga-icestorm-chipdb	synth board	# the iCE40 chip databases"
	"valgrind	bench	# make bench: callgrind instruction counts"
	"lcov	coverage	# make coverage: C line coverage (lcov, genhtml)"
	"linux-perf	traces	# make traces-record (perf sched record; the test records with it when present), make profile"
)

# The groups, in the table's order, and what each is for.
DEP_GROUPS=(run test lint synth formal fuzz coverage board bench results traces)
declare -A GROUP_WHAT=(
	[run]="build the C code, engine shapes (Verilator) and the virtual platform; run them"
	[test]="make test: lint, synthesis smoke, formal, fuzz inputs, GoogleTest, install, README"
	[lint]="RTL lint with Verilator, Icarus and Yosys; the Icarus testbenches"
	[synth]="the FPGA synthesis sweep"
	[formal]="the formal proofs and their mutation check"
	[fuzz]="the libFuzzer targets"
	[coverage]="RTL and C coverage"
	[board]="the iCEBreaker bitstream and the board's simulator"
	[bench]="the benchmarks"
	[results]="the published results and the break-even study"
	[traces]="recording real traces and profiles with perf (as root)"
)
# The make goals of each group (a goal not listed here needs every group).
declare -A GROUP_GOALS=(
	[run]="all run run-lockstep vp shape lib gen gen-check layers install soak replay-check"
	[test]="test test-shapes test-deps test-install test-readme docs-check test-figures test-bench-compare"
	[lint]="lint lint-verilator lint-iverilog lint-yosys synth-smoke rtl-tb"
	[synth]="synth synth-check synth-seeds synth-seeds-lean"
	[formal]="formal formal-fast formal-mutate"
	[fuzz]="fuzz fuzz-regress"
	[coverage]="coverage coverage-selftest"
	[board]="board board-sim bench-board board-run"
	[bench]="bench bench-balance"
	[results]="results results-report vp-study vp-study-new vp-study-lean"
	[traces]="traces-record profile"
)
# Goals that need no package (the Makefile checks nothing for them either).
NO_PACKAGE_GOALS="clean help deps deps-list uninstall figures fn-length"

die() { echo "deps.sh: $*" >&2; exit 2; }

# The groups of goal $1 on stdout, one line; "" for a goal that needs nothing.
groups_of() {
	local g w
	case " $NO_PACKAGE_GOALS " in *" $1 "*) return 0 ;; esac
	for g in "${DEP_GROUPS[@]}"; do
		[ "$1" = "$g" ] && { echo "$g"; return 0; }
	done
	for g in "${DEP_GROUPS[@]}"; do
		for w in ${GROUP_GOALS[$g]}; do
			[ "$1" = "$w" ] && { echo "$g"; return 0; }
		done
	done
	case $1 in results-*) echo results; return 0 ;; esac
	echo "${DEP_GROUPS[*]}"	# unknown: every group
}

# The groups of goals "$@" (every group when none), each once.
groups_for() {
	local gl=() g seen=" "
	if [ $# = 0 ]; then
		gl=("${DEP_GROUPS[@]}")
	else
		for g in "$@"; do
			# shellcheck disable=SC2207
			gl+=($(groups_of "$g"))
		done
	fi
	for g in "${gl[@]}"; do
		case $seen in *" $g "*) ;; *) seen+="$g " ;; esac
	done
	echo "${seen# }" | sed 's/ *$//'
}

# The packages of groups "$@", in the table's order, one per line.
packages_of() {
	local p name rest g
	for p in "${PACKAGES[@]}"; do
		name=${p%%	*}
		rest=${p#*	}
		rest=${rest%%#*}
		for g in "$@"; do
			case " $rest " in *[[:space:]]"$g"[[:space:]]*) echo "$name"; break ;; esac
		done
	done
}

installed() {
	case " ${HWS_DEPS_ASSUME_MISSING:-} " in *" $1 "*) return 1 ;; esac
	dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

missing() {
	local p out=()
	# shellcheck disable=SC2046
	for p in $(packages_of $(groups_for "$@")); do
		installed "$p" || out+=("$p")
	done
	echo "${out[*]:-}"
}

# --check: the tables are consistent; prints the fault and returns 1.
check_tables() {
	local p name rest g seen=" " bad=0 known=" ${DEP_GROUPS[*]} "
	for p in "${PACKAGES[@]}"; do
		name=${p%%	*}
		rest=${p#*	}
		[[ $name =~ ^[a-z0-9][a-z0-9+.-]+$ ]] ||
			{ echo "deps.sh: package '$name' is not a Debian package name" >&2; bad=1; }
		case $seen in *" $name "*)
			echo "deps.sh: package '$name' is listed twice" >&2; bad=1 ;;
		esac
		seen+="$name "
		case $p in *"#"*) ;; *) echo "deps.sh: package '$name' says not why (# ...)" >&2; bad=1 ;; esac
		rest=${rest%%#*}
		[ -n "${rest//[[:space:]]/}" ] || { echo "deps.sh: package '$name' is in no group" >&2; bad=1; }
		for g in $rest; do
			case $known in *" $g "*) ;; *)
				echo "deps.sh: package '$name': unknown group '$g'" >&2; bad=1 ;;
			esac
		done
	done
	for g in "${DEP_GROUPS[@]}"; do
		[ -n "$(packages_of "$g")" ] || { echo "deps.sh: group '$g' has no package" >&2; bad=1; }
		[ -n "${GROUP_WHAT[$g]:-}" ] || { echo "deps.sh: group '$g' says not what it is for" >&2; bad=1; }
		[ -n "${GROUP_GOALS[$g]:-}" ] || { echo "deps.sh: group '$g' has no goal" >&2; bad=1; }
	done
	return $bad
}

table() {
	local g
	echo "| group | for | make goals | Debian packages |"
	echo "|---|---|---|---|"
	for g in "${DEP_GROUPS[@]}"; do
		printf '| %s | %s | %s | %s |\n' "$g" "${GROUP_WHAT[$g]}" \
			"$(echo "${GROUP_GOALS[$g]}" | sed 's/ /, /g')" \
			"$(packages_of "$g" | tr '\n' ' ' | sed 's/ $//; s/ /, /g')"
	done
}

mode=install
case "${1:-}" in
--missing) mode=missing; shift ;;
--list) mode=list; shift ;;
--groups) mode=groups; shift ;;
--table) mode=table; shift ;;
--check) mode=check; shift ;;
-h | --help)
	sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"
	exit 0
	;;
-*) die "unknown option '$1' (try --help)" ;;
esac
for a in "$@"; do
	case $a in -*) die "unknown option '$a' (options come first; try --help)" ;; esac
done

case $mode in
missing) missing "$@"; exit 0 ;;
# shellcheck disable=SC2046
list) packages_of $(groups_for "$@") | tr '\n' ' ' | sed 's/ $//'; echo; exit 0 ;;
groups) groups_for "$@"; exit 0 ;;
table) [ $# = 0 ] || die "--table takes no goal"; table; exit 0 ;;
check) [ $# = 0 ] || die "--check takes no goal"; check_tables; exit $? ;;
esac

need=$(missing "$@")
[ -z "$need" ] && exit 0
line="apt-get update && apt-get install -y --no-install-recommends $need"
if [ "${HWS_NO_APT:-0}" = 1 ] || [ "$(id -u)" != 0 ]; then
	echo "deps: missing Debian packages for '${*:-every goal}': $need" >&2
	if [ "${HWS_NO_APT:-0}" = 1 ]; then
		echo "deps: HWS_NO_APT=1: not installing; run: $line" >&2
	else
		echo "deps: run as root: $line" >&2
	fi
	exit 1
fi
echo "deps: installing $need (apt-get; about a minute on a fresh machine)"
t0=$(date +%s)
export DEBIAN_FRONTEND=noninteractive
# shellcheck disable=SC2086
if ! { apt-get update -qq && apt-get install -y -qq --no-install-recommends $need >/dev/null; }; then
	echo "deps: apt-get install failed for: $need" >&2
	exit 1
fi
left=$(missing "$@")
if [ -n "$left" ]; then
	echo "deps: still missing after apt-get: $left" >&2
	exit 1
fi
echo "deps: installed in $(($(date +%s) - t0)) s"
