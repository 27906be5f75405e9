#!/usr/bin/env bash
# deps.sh - the Debian 12 packages hwsched needs, checked and (as root) installed.
#
#   tools/deps.sh --missing   print the missing packages on one line (nothing when none)
#   tools/deps.sh --list      print every package the build needs
#   tools/deps.sh             install the missing ones with apt-get when run as root;
#                             otherwise print the exact apt-get line and exit 1
#
# The Makefile runs this before it reads any rule (see "Debian packages" there): GNU make
# caches directory listings, so a rule whose prerequisite lives under a directory that
# apt-get creates during the same make run (/usr/share/verilator/include) would fail.
# Exit status: 0 when every package is installed afterwards, 1 otherwise.
set -u

# One line per package and why it is needed.
PACKAGES=(
	build-essential		# gcc, g++, make
	verilator		# the RTL backend, lint
	yosys			# lint (read_verilog), synthesis, formal (sat, write_smt2)
	iverilog		# lint, per-module testbenches
	libsystemc-dev		# the SystemC virtual platform (make vp)
	libgtest-dev		# GoogleTest
	libgmock-dev		# GoogleTest's matchers
	zlib1g-dev		# FST waveforms, gzip traces
	z3			# formal: yosys-smtbmc's solver
	nextpnr-ice40		# synthesis: place and route
	fpga-icestorm		# icetime, icepack (make board)
	fpga-icestorm-chipdb	# the iCE40 chip databases
	valgrind		# make bench: callgrind instruction counts
	gnuplot-nox		# results plots (without Qt/GTK)
	parallel		# make results, make vp-study: GNU parallel
	clang			# make fuzz: libFuzzer targets
	libfuzzer-14-dev	# make fuzz
	lcov			# make coverage
	python3			# formal/mutate.sh, make coverage's report (tools/coverage/report.py)
)

names() {
	local p
	for p in "${PACKAGES[@]}"; do
		printf '%s\n' "${p%%[[:space:]]*}"
	done
}

missing() {
	local p out=()
	for p in $(names); do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
			out+=("$p")
	done
	echo "${out[*]:-}"
}

case "${1:-}" in
--missing)
	missing
	exit 0
	;;
--list)
	names | tr '\n' ' '
	echo
	exit 0
	;;
-h | --help)
	sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
	exit 0
	;;
"") ;;
*)
	echo "deps.sh: unknown option '$1' (try --help)" >&2
	exit 2
	;;
esac

need=$(missing)
[ -z "$need" ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "deps: missing Debian packages: $need" >&2
	echo "deps: run as root: apt-get update && apt-get install -y --no-install-recommends $need" >&2
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
left=$(missing)
if [ -n "$left" ]; then
	echo "deps: still missing after apt-get: $left" >&2
	exit 1
fi
echo "deps: installed in $(($(date +%s) - t0)) s"
