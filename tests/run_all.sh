#!/usr/bin/env bash
# run_all.sh - run the GoogleTest binaries given as arguments, then print one closing line
# "tests: N passed, M failed" counted over every test case of every binary.
#
# usage: tests/run_all.sh OUTDIR BINARY...
# Exit status: 0 iff every binary ran and every test passed.
set -u
outdir=$1
shift
mkdir -p "$outdir"
passed=0
failed=0
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
	passed=$((passed + t - f))
	failed=$((failed + f))
	[ "$rc" = 0 ] || status=1
done
echo "tests: $passed passed, $failed failed"
exit $status
