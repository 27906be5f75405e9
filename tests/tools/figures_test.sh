#!/usr/bin/env bash
# figures_test.sh - tools/figures.sh (make figures) on fixture records (make test).
#
# usage: tests/tools/figures_test.sh
# Builds the records of make replay-check, make results, make bench, tools/svg_size.sh and
# the HX8K synthesis in a temporary folder, and a README with text around the markers;
# checks the rows and their values, the record and date of each, that no commit hash is
# printed, that text outside the markers is untouched byte for byte and no temporary file
# is left, a missing record's "not measured" row, that --check passes on a current table,
# fails naming the row when a record's value changed and passes again after regeneration,
# that a malformed record and a record without a figure are errors naming the file (the
# README untouched), that a README without markers is refused, and that README.md's table
# has the rows the script gives.
# Prints one line per check and "figures_test: N passed, M failed"; exit 1 on any failure.
set -u
case "${1:-}" in -h | --help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 2
fig=tools/figures.sh
pass=0 fail=0
ok() { echo "  ok: $*"; pass=$((pass + 1)); }
bad() { echo "  FAILED: $*" >&2; fail=$((fail + 1)); }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
R=$t/rec
mkdir -p "$R/replay-check" "$R/results" "$R/bench" "$R/svg" "$R/synth"

cat >"$R/replay-check/summary.json" <<'EOF'
{
  "commit": "fixture-commit-1",
  "command": "make replay-check",
  "machine": "Linux x86_64 2 CPUs",
  "date": "2026-01-02T03:04:05Z",
  "sched": "eevdf", "goals_met": 55, "goals": 88, "goals_met_not_calibration": 35, "goals_not_calibration": 56,
  "figures": []
}
EOF
cat >"$R/results/summary.json" <<'EOF'
{
  "commit": "fixture-commit-2-dirty",
  "command": "make results",
  "machine": "Linux x86_64 2 CPUs",
  "date": "2026-02-03T04:05:06Z",
  "seeds": [1,2,3],
  "points": [],
  "points_within_25pct": 26,
  "points_total": 45,
  "ratio_goals": [
    {"goal": "a", "bound": ">= 1", "ours": 1.2, "met": true},
    {"goal": "b", "bound": ">= 1", "ours": 0.8, "met": false},
    {"goal": "c", "bound": ">= 1", "ours": null, "met": null}
  ]
}
EOF
cat >"$R/bench/engine.json" <<'EOF'
{
  "version": "0.1", "schema": 1,
  "commit": "fixture-commit-3",
  "load_average": [0.52, 1.25],
  "lockstep_commands_per_s": 1234567,
  "model_commands_per_s": 23456789.4
}
EOF
touch -d '2026-03-04 05:06:00 UTC' "$R/bench/engine.json"
cat >"$R/svg/size.json" <<'EOF'
{
  "commit": "fixture-commit-1",
  "date": "2026-04-05T06:07:08Z",
  "machine": "x86_64, 2 CPUs",
  "cases": [
    {"name": "small", "command": "hwsched run", "lanes": 4, "bytes": 4812, "rects": 15, "draw_s": null},
    {"name": "many_lanes", "command": "hwsched run", "lanes": 64, "bytes": 1726708, "rects": 9594, "draw_s": null},
    {"name": "worst", "command": "hwsched replay", "lanes": 4, "bytes": 564105, "rects": 3076, "draw_s": null}
  ]
}
EOF
cat >"$R/synth/ice40_8x256nbneni.json" <<'EOF'
{
  "family": "ice40", "nr_cpus": 8, "nr_tasks": 256, "status": "ok", "commit": "fixture-commit-1+dirty",
  "pnr": {"hx8k": {"device": "hx8k", "status": "ok", "lc_used": 7531, "lc_avail": 7680, "fmax_mhz": 60.61, "target_mhz": 60, "seed": 1},
          "up5k": {"device": "up5k", "status": "skipped", "lc_used": null, "lc_avail": null, "fmax_mhz": null, "target_mhz": 60}}
}
EOF
touch -d '2026-05-06 07:08:00 UTC' "$R/synth/ice40_8x256nbneni.json"

head_text='# A project

Some text before the table | with a bar.
<!-- figures:begin -->'
tail_text='<!-- figures:end -->

Text after the table.
No newline at the end'
readme=$t/README.md
printf '%s\n| old | table |\n%s' "$head_text" "$tail_text" >"$readme"
chmod 640 "$readme"

# row FIGURE-PREFIX: the README's row of that figure
row() { grep -F "| $1" "$readme" | head -1; }
has() { # NAME FIGURE-PREFIX TEXT: the row of FIGURE contains TEXT
	local r
	r=$(row "$2")
	case $r in *"$3"*) ok "$1" ;; *) bad "$1: row '$2' is '$r', wanted '$3' in it" ;; esac
}
outside_ok() { # NAME: the text outside the markers is what it was, byte for byte
	local h tl
	h=$(awk '{ print } /^<!-- figures:begin -->$/ { exit }' "$readme")
	tl=$(sed -n '/^<!-- figures:end -->$/,$p' "$readme"; printf x)
	if [ "$h" = "$head_text" ] && [ "${tl%x}" = "$tail_text" ]; then ok "$1"; else bad "$1: $(cat "$readme")"; fi
}

# ---- all records there
if out=$($fig --records "$R" --readme "$readme" 2>&1); then ok "writes the table: $out"; else bad "exit $?: $out"; fi
n=$(sed -n '/^<!-- figures:begin -->$/,/^<!-- figures:end -->$/p' "$readme" | grep -c '^|')
[ "$n" = 9 ] && ok "7 rows, a header and its rule" || bad "$n table lines between the markers: $(cat "$readme")"
has "replay goals, all traces" "replay fidelity goals met, all traces" "| 55 of 88 | all 88 | \`replay-check/summary.json\` | 2026-01-02 03:04 UTC |"
has "replay goals, not calibration" "replay fidelity goals met, traces not calibrated on" "| 35 of 56 | all 56 |"
has "published points, dirty tree" "published points within 25%" "| 26 of 45 | all 45 | \`results/summary.json\` | 2026-02-03 04:05 UTC, dirty tree |"
has "ratio goals: null is not met" "ratio goals" "| 1 of 3 | all 3 |"
has "lockstep and model commands/s rounded; no date: the file's time" "commands/s" "| 1,234,567 / 23,456,789 (load average 1.2) | - | \`bench/engine.json\` | 2026-03-04 05:06 UTC, file time |"
has "HX8K Fmax and cells" "HX8K build" "| 60.61 MHz (nextpnr seed 1), 7,531 of 7,680 logic cells | 60 MHz, fits | \`synth/ice40_8x256nbneni.json\` | 2026-05-06 07:08 UTC, file time, dirty tree |"
has "SVG: the worst case per lane" "SVG timeline" "| 769 rects a lane (worst, 564 KB) | at most 1,201 a lane |"
if grep -q 'fixture-commit' "$readme"; then bad "a commit printed: $(grep 'fixture-commit' "$readme")"; else ok "no commit printed"; fi
outside_ok "text outside the markers untouched"
[ "$(stat -c %a "$readme")" = 640 ] && ok "the README's mode kept" || bad "mode $(stat -c %a "$readme")"
ls -A "$t" | grep -q '^\.README' && bad "a temporary file left: $(ls -A "$t")" || ok "no temporary file left"
cp "$readme" "$t/first"
$fig --records "$R" --readme "$readme" >/dev/null 2>&1 && cmp -s "$readme" "$t/first" && ok "a second run changes nothing" ||
	bad "a second run changed the README: $(diff "$t/first" "$readme")"

# ---- --check
if out=$($fig --check --records "$R" --readme "$readme" 2>&1); then ok "--check passes on a current table"; else bad "--check on a current table: exit $?: $out"; fi
sed -i 's/"model_commands_per_s": 23456789.4/"model_commands_per_s": 24000000/' "$R/bench/engine.json"
touch -d '2026-03-04 05:06:00 UTC' "$R/bench/engine.json"	# one change: the value
out=$($fig --check --records "$R" --readme "$readme" 2>&1); rc=$?
[ $rc = 1 ] && ok "--check fails (1) on a changed value" || bad "--check after a change: exit $rc: $out"
case $out in *"row 'commands/s: lockstep"*"' differs"*24,000,000*) ok "--check names the row that differs" ;;
*) bad "--check did not name the row: $out" ;; esac
[ "$(printf '%s\n' "$out" | grep -c "^figures: .*row '")" = 1 ] && ok "--check names only that row" ||
	bad "--check named rows that did not change: $out"
cmp -s "$readme" "$t/first" && ok "--check writes nothing" || bad "--check changed the README"
$fig --records "$R" --readme "$readme" >/dev/null 2>&1
if out=$($fig --check --records "$R" --readme "$readme" 2>&1); then ok "--check passes after regeneration"; else bad "--check after regeneration: exit $?: $out"; fi
has "the new value" "commands/s" "| 1,234,567 / 24,000,000 (load average 1.2) |"
outside_ok "text outside the markers untouched after regeneration"

# ---- a record that is not there
mv "$R/bench/engine.json" "$t/engine.json"
$fig --records "$R" --readme "$readme" >/dev/null 2>&1 || bad "exit $? without the bench record"
has "a missing record: not measured" "commands/s" "| not measured: run \`make bench\` | - | \`bench/engine.json\` | - |"
grep -q '24,000,000' "$readme" && bad "the old figure is still there" || ok "no stale figure"
has "the other rows stay" "published points within 25%" "| 26 of 45 |"
out=$($fig --check --records "$R" --readme "$t/first" 2>&1); rc=$?
[ $rc = 1 ] && case $out in *"row 'commands/s: lockstep"*) true ;; *) false ;; esac &&
	ok "--check fails on a table with a figure whose record is gone" || bad "--check: exit $rc: $out"
mv "$t/engine.json" "$R/bench/engine.json"

# ---- malformed records: an error naming the file, the README untouched
cp "$readme" "$t/before"
printf '{\n  "commit": "fixture-commit-1",\n  "goals_met": 55,, \n}\n' >"$R/replay-check/summary.json"
out=$($fig --records "$R" --readme "$readme" 2>&1); rc=$?
[ $rc = 2 ] && case $out in *"$R/replay-check/summary.json: not valid JSON (line 3"*) true ;; *) false ;; esac &&
	ok "a malformed record: exit 2 naming the file and line ($out)" || bad "malformed record: exit $rc: $out"
cmp -s "$readme" "$t/before" && ok "the README untouched after the error" || bad "the README changed on an error"
out=$($fig --check --records "$R" --readme "$readme" 2>&1); rc=$?
[ $rc = 2 ] && ok "--check: exit 2 on a malformed record" || bad "--check on a malformed record: exit $rc: $out"
printf '{"commit": "fixture-commit-1", "date": "2026-01-02T03:04:05Z", "goals_met": "55", "goals": 88}\n' >"$R/replay-check/summary.json"
out=$($fig --records "$R" --readme "$readme" 2>&1); rc=$?
[ $rc = 2 ] && case $out in *"$R/replay-check/summary.json"*goals_met*) true ;; *) false ;; esac &&
	ok "a figure that is no number: exit 2 naming file and key" || bad "exit $rc: $out"
printf '{"commit": "fixture-commit-1", "date": "2026-01-02T03:04:05Z", "goals_met": NaN, "goals": 88}\n' >"$R/replay-check/summary.json"
out=$($fig --records "$R" --readme "$readme" 2>&1); rc=$?
[ $rc = 2 ] && case $out in *"$R/replay-check/summary.json"*goals_met*NaN*) true ;; *) false ;; esac &&
	ok "a figure that is NaN: exit 2 naming file and key" || bad "exit $rc: $out"
printf '{"commit": "fixture-commit-1", "date": "2026-01-02T03:04:05Z", "goals_met": 55, "goals": 88}\n' >"$R/replay-check/summary.json"
out=$($fig --records "$R" --readme "$readme" 2>&1); rc=$?
[ $rc = 2 ] && case $out in *"$R/replay-check/summary.json: no \"goals_met_not_calibration\""*) true ;; *) false ;; esac &&
	ok "a record without a figure: exit 2 naming file and key" || bad "exit $rc: $out"
cmp -s "$readme" "$t/before" && ok "the README still untouched" || bad "the README changed on an error"

# ---- usage and markers
out=$($fig --records "$t/none" --readme "$readme" 2>&1); rc=$?
[ $rc = 2 ] && ok "a records folder that is not there: exit 2" || bad "exit $rc: $out"
out=$($fig --bogus 2>&1); rc=$?
[ $rc = 2 ] && ok "an unknown argument: exit 2" || bad "exit $rc: $out"
printf '# no markers\n' >"$t/bare.md"
mkdir -p "$t/empty"
out=$($fig --records "$t/empty" --readme "$t/bare.md" 2>&1); rc=$?
[ $rc = 2 ] && [ "$(cat "$t/bare.md")" = "# no markers" ] && ok "a README without markers: exit 2, untouched ($out)" ||
	bad "no markers: exit $rc: $out"
$fig --help | grep -q -- '--check' && ok "--help" || bad "--help says nothing of --check"

# ---- README.md's table: the rows the script gives, in its order
want=$($fig --print --records "$t/empty" | awk -F'|' 'NR > 2 { print $2 }')
have=$(sed -n '/^<!-- figures:begin -->$/,/^<!-- figures:end -->$/p' README.md | awk -F'|' '/^\| / && NR > 3 { print $2 }')
[ -n "$want" ] && [ "$want" = "$have" ] && ok "README.md's table has the script's $(echo "$want" | wc -l) rows" ||
	bad "README.md's figures rows differ from the script's: have [$have] want [$want]"

echo "figures_test: $pass passed, $fail failed"
[ $fail = 0 ]
