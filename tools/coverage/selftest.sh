#!/usr/bin/env bash
# selftest.sh - make coverage-selftest (run by make test): tools/coverage/report.py on a
# tiny Verilator coverage file, two Verilog files and an lcov tracefile written here, whose
# figures are known: the per-module sums over instances, the `ifndef SYNTHESIS exclusion,
# the per-folder C figures, the percentages and the goal verdict with its exit status.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fail() { echo "coverage-selftest: $*" >&2; [ -f "$t/out.txt" ] && cat "$t/out.txt" >&2; exit 1; }

mkdir -p "$t/rtl" "$t/lib" "$t/models"
cat >"$t/rtl/m.v" <<'EOF'
module m(input wire clk_i);
  reg a;
  always @(posedge clk_i) a <= 1'b1;
  always @(posedge clk_i) if (a) a <= 1'b0;
`ifndef SYNTHESIS
  reg chk;
  always @(posedge clk_i) if (a === 1'bx) chk <= 1'b1;
`endif
  function automatic [3:0] k_fn(input integer u);
    k_fn = u[3:0];
  endfunction
  localparam [3:0] K = k_fn(1);
endmodule
EOF
cat >"$t/rtl/n.v" <<'EOF'
module n(input wire clk_i);
  reg b;
  always @(posedge clk_i) b <= ~b;
`ifdef SYNTHESIS
`else
  always @(posedge clk_i) if (b) $display("b");
`endif
  always @(posedge clk_i) if (!b) b <= 1'b0;
endmodule
EOF
# One point per line: C '<keys>' count, keys \001key\002value.
pt() { # page file line lines comment hier count
	printf "C '\001t\002%s\001page\002%s\001f\002%s\001l\002%s\001n\0023\001S\002%s\001o\002%s\001h\002%s' %s\n" \
		"${2%%/*}" "$1" "$2" "$3" "$4" "$5" "$6" "$7"
}
{
	echo "# SystemC::Coverage-3"
	pt v_line/m rtl/m.v 3 3 block TOP.u0 5	# m line 3: hit in u0 ...
	pt v_line/m rtl/m.v 3 3 block TOP.u1 0	# ... not in u1: hit (instances add up)
	pt v_branch/m rtl/m.v 4 4 if TOP.u0 0	# line 4: the if never taken ...
	pt v_branch/m rtl/m.v 4 4 else TOP.u1 2	# ... the else taken: the line is hit
	pt v_line/m rtl/m.v 7 7 block TOP.u0 0	# `ifndef SYNTHESIS: excluded
	pt v_line/m rtl/m.v 10 10 block TOP.u0 0	# a constant function: exclude.list
	pt v_toggle/m rtl/m.v 2 2 a TOP.u0 1	# toggles: a hit
	pt v_toggle/m rtl/m.v 6 6 chk TOP.u0 0	# chk excluded
	pt v_line/n rtl/n.v 3 3 block TOP.v 1	# n: line 3 hit
	pt v_line/n rtl/n.v 6 6 block TOP.v 0	# the `else of `ifdef SYNTHESIS: excluded
	pt v_branch/n rtl/n.v 8 8 if TOP.v 0	# line 8 never hit
	pt v_toggle/n rtl/n.v 2 2 b TOP.v 0	# b never toggled
} >"$t/cov.dat"
cat >"$t/c.info" <<EOF
TN:
SF:$t/lib/x.c
DA:1,1
DA:2,0
DA:3,5
end_of_record
SF:$t/models/y.c
DA:1,0
DA:2,0
DA:4,7
DA:5,1
DA:6,1
end_of_record
EOF
printf '# a comment\nm function k_fn evaluated at elaboration only\n' >"$t/excl.list"
printf 'm function no_such_fn a stale entry\n' >"$t/stale.list"
# Expected: m 2/2 lines (100.0), toggles 1/1; n 1/2 (50.0), toggles 0/1; RTL 3/4 = 75.0;
# 4 points excluded; C lib 2/3 (66.7), models 3/5 (60.0), in all 5/8 = 62.5.
report() { python3 "$root/tools/coverage/report.py" --root "$t" --rtl "$t/cov.dat" \
	--rtl-info "$t/rtl.info" --exclude "$t/excl.list" --c "$t/c.info" "$@" >"$t/out.txt" 2>&1; }
report
rc=$?
[ $rc = 1 ] || fail "goals of 95/90 on 75%/62.5%: exit $rc, expected 1"
want=(
	'^rtl m +2/2 +100\.0 +95 +1/1 +100\.0$'
	'^rtl n +1/2 +50\.0 +95 +0/1 +0\.0$'
	'^RTL, all modules +3/4 +75\.0 +95 +1/2 +50\.0$'
	'4 points excluded'
	'^C lib/ +2/3 +66\.7 +90'
	'^C models/ +3/5 +60\.0 +90'
	'^C, all folders +5/8 +62\.5 +90'
	'^goals NOT met: RTL line 75\.0% < 95%; C line 62\.5% < 90%$'
)
for w in "${want[@]}"; do
	grep -Eq "$w" "$t/out.txt" || fail "no line matching '$w'"
done
grep -q "^DA:4,2$" "$t/rtl.info" && ! grep -q "^DA:7," "$t/rtl.info" ||
	fail "rtl.info: line 4 should count 2 and line 7 (excluded) be absent"
python3 "$root/tools/coverage/report.py" --root "$t" --rtl "$t/cov.dat" --exclude "$t/stale.list" \
	>"$t/out.txt" 2>&1
rc=$?
[ $rc = 2 ] && grep -q "no function no_such_fn" "$t/out.txt" || fail "a stale exclusion: exit $rc, expected 2 naming it"
report --rtl-goal 75 --c-goal 62.5
rc=$?
[ $rc = 0 ] || fail "goals of 75/62.5 on 75%/62.5%: exit $rc, expected 0"
grep -q '^goals met: RTL line 75\.0% >= 75%; C line 62\.5% >= 62\.5%$' "$t/out.txt" || fail "goals not met at their own figures"
echo "coverage-selftest: report.py sums instances, excludes assertion-only code and computes the figures right"
