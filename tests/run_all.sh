#!/usr/bin/env bash
# run_all.sh - run the GoogleTest binaries given as arguments, then print one closing line
# "tests: N passed, M failed, K skipped" counted over every test case of every binary. A
# skipped test (GTEST_SKIP) is counted as skipped, never as passed; the names of the
# skipped tests are listed before the closing line.
#
# usage: tests/run_all.sh OUTDIR BINARY...
# Exit status: 0 iff every binary ran and every test passed.
set -u
# --help: the comment block above is the usage.
case "${1:-}" in -h | --help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
outdir=$1
shift
mkdir -p "$outdir"
passed=0
failed=0
skipped=0
status=0
for bin in "$@"; do
	name=$(basename "$bin")
	json="$outdir/$name.json"
	rm -f "$json"
	echo "== $name"
	"$bin" --gtest_brief=1 --gtest_output="json:$json"
	rc=$?
	if [ ! -s "$json" ]; then
		echo "run_all: $name wrote no report (exit $rc): counted as one failure" >&2
		failed=$((failed + 1))
		status=1
		continue
	fi
	# The report's first "tests" and "failures" keys are the totals of the binary.
	t=$(grep -m1 -o '"tests": [0-9]*' "$json" | grep -o '[0-9]*$')
	f=$(grep -m1 -o '"failures": [0-9]*' "$json" | grep -o '[0-9]*$')
	# A skipped case is "result": "SKIPPED" (and not a failure) in the report.
	s=$(grep -c '"result": "SKIPPED"' "$json")
	s=${s:-0}
	if [ "$s" -gt 0 ]; then
		echo "run_all: $name skipped $s:"
		# each case: "name": "X", ... "result": "SKIPPED" within the same object
		awk '/"name": /{n=$0} /"result": "SKIPPED"/{gsub(/.*"name": "|",?$/,"",n); print "  skipped: " n}' "$json"
	fi
	passed=$((passed + t - f - s))
	failed=$((failed + f))
	skipped=$((skipped + s))
	[ "$rc" = 0 ] || status=1
done
echo "tests: $passed passed, $failed failed, $skipped skipped"
exit $status
