#!/usr/bin/env bash
# mutate.sh - a proof that cannot fail is no proof: plant each bug below in a copy of the
# sources, run the proof that should catch it (formal/run.sh --src COPY --only PROOF), and
# expect FAIL with a counterexample trace. Prints one row per mutant.
#
# usage: formal/mutate.sh [--fast] [--only MUTANT] [--out DIR]  (default build/formal/mutants)
#   --fast      only the mutants whose proof is in the fast set of formal/proofs.list (make
#               test); the others (the engine's invariants, minutes each) run in make formal
# Exit status: 0 when every mutant was caught, 1 when one survived or did not apply.
#
# A mutant is: name, the proof that must fail, the file, the text replaced, its
# replacement, separated by @@ (a literal, exact match; a mutant whose text is not found is an error, so a
# change to the RTL cannot silently disarm it).
set -u
# --help: the comment block above is the usage.
case "${1:-}" in -h | --help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/build/formal/mutants
fast=0
only=""
while [ $# -gt 0 ]; do
	case $1 in
	--fast) fast=1 ;;
	--out) out=$2; shift ;;
	--only) only=$2; shift ;;
	*) echo "formal/mutate.sh: unknown argument '$1' (usage: formal/mutate.sh [--fast] [--only MUTANT] [--out DIR])" >&2; exit 2 ;;
	esac
	shift
done
mkdir -p "$out"

MUTANTS=(
	# The slave before its holding registers: AWREADY = WREADY = !BVALID, the write taken only when AWVALID
	# and WVALID are high together, nothing held. Checked with the protocol properties only
	# (proof axil_slave_noaux: FORMAL_NO_AUX, bounded), so the trace shows the rule it breaks.
	"axi_ready_old@@axil_slave_noaux@@rtl/hws_axil_slave.v@@wire awready = !bvalid_q && !aw_held_q;@@wire awready = !bvalid_q;"
	"axi_ready_old@@axil_slave_noaux@@rtl/hws_axil_slave.v@@wire wready  = !bvalid_q && !w_held_q;@@wire wready  = !bvalid_q;"
	"axi_ready_old@@axil_slave_noaux@@rtl/hws_axil_slave.v@@wire wr_take = !bvalid_q && (aw_held_q || s_axi_awvalid_i) && (w_held_q || s_axi_wvalid_i);@@wire wr_take = s_axi_awvalid_i && s_axi_wvalid_i && !bvalid_q;"
	"axi_ready_old@@axil_slave_noaux@@rtl/hws_axil_slave.v@@      if (aw_hs) aw_held_q <= 1'b1;@@"
	"axi_ready_old@@axil_slave_noaux@@rtl/hws_axil_slave.v@@      if (w_hs)  w_held_q  <= 1'b1;@@"
	# A write response that drops before its BREADY.
	"axi_bvalid_drops@@axil_slave@@rtl/hws_axil_slave.v@@      if (bvalid_q && s_axi_bready_i) bvalid_q <= 1'b0;@@      bvalid_q <= 1'b0;"
	# The ports' arbiter (docs/accelerator.md 4.5) whose pointer never moves: port 0 wins
	# whenever it is eligible and the others can starve (the bound of NR_PORTS starts fails).
	"arbiter_fixed_priority@@arbiter_p3@@rtl/hws_arbiter.v@@    else if (start_o) rr_q <= (win_next >= NR_PORTS[PW:0]) ? {PW{1'b0}} : win_next[PW-1:0];@@    else if (start_o) rr_q <= (win_next >= NR_PORTS[PW:0]) ? {PW{1'b0}} : {PW{1'b0}};"
	# ... or that picks the farthest eligible port from the pointer instead of the nearest:
	# the pointer can jump past a waiting port.
	"arbiter_farthest@@arbiter_p4@@rtl/hws_arbiter.v@@    for (i = NR_PORTS - 1; i >= 0; i = i - 1) begin@@    for (i = 0; i < NR_PORTS; i = i + 1) begin"
	# A FIFO that drops the second of two successive writes: the write pointer does not
	# advance after a push, so the next push overwrites it.
	"fifo_twin_dropped@@fifo_w4_d4@@rtl/hws_fifo.v@@        wr_ptr_q <= (wr_ptr_q == LAST32[PW-1:0]) ? {PW{1'b0}} : wr_ptr_q + ONE32[PW-1:0];@@        wr_ptr_q <= wr_ptr_q;"
	# A FIFO whose level is not capped: a push into a full FIFO counts.
	"fifo_overfull@@fifo_w4_d3@@rtl/hws_fifo.v@@  wire do_push = push_i && (level_q != DEPTH32[5:0]);@@  wire do_push = push_i;"
	# A RAM that writes the read address.
	"ram_wrong_port@@ram_d6_w3@@rtl/hws_ram.v@@    if (we_i) mem_q[waddr_i] <= wdata_i;@@    if (we_i) mem_q[raddr_i] <= wdata_i;"
	# Flags: a write of 0 that does not clear.
	"flags_no_clear@@flags_n8@@rtl/hws_flags.v@@(q[i] ^ wdata_i));@@(q[i] ^ wdata_i) & wdata_i);"
	# Flags: a write to the top row of the address decode (flags 240..255 of N=256) also
	# writes row 0 (flags 0..15); caught by the sat -tempinduct proof at AW = 8.
	# Verilator's text of the write (sel_fn) with the column one-hot inverted: the other
	# flags of the row are written. The proof's f_q == q, the two texts equal, fails.
	"flags_sim_text@@flags_n8@@rtl/hws_flags.v@@        all[r*NC +: NC] = {NC{rw[r]}} & cl;@@        all[r*NC +: NC] = {NC{rw[r]}} & ~cl;"
	"flags_row_alias@@flags_n256_aw8@@rtl/hws_flags.v@@  wire [NR-1:0] row  = {{(NR - 1){1'b0}}, 1'b1} << a_hi;@@  wire [NR-1:0] row  = ({{(NR - 1){1'b0}}, 1'b1} << a_hi) | {{(NR - 1){1'b0}}, &a_hi};"
	# The engine's bitmap: an unlink that empties its list forgets to clear the
	# list's bit (the word is written back unchanged; the summary bit still follows it).
	"eng_unlink_keeps_bit@@eng_bitmap_1cpu@@rtl/hws_eng_bitmap.v@@                         u_empty_i ? (bm_tw & ~plo_q) : bm_tw;@@                         bm_tw;"
	# The same bug under ABC pdr (the unbounded proof of the same properties).
	"eng_unlink_keeps_bit_pdr@@eng_bitmap_1cpu_pdr@@rtl/hws_eng_bitmap.v@@                         u_empty_i ? (bm_tw & ~plo_q) : bm_tw;@@                         bm_tw;"
	# The engine's invariants (proof eng_inv_1x3x2_abc12, the whole engine, ABC bmc3 to 12
	# frames): an unlink that does not decrement its array's count (the count is no longer
	# the number of queued tasks); a SET_WEIGHT of a queued task that does not update load,
	# gload and gtotal; the bitmap's unlink that keeps the bit, in the whole engine (its
	# invariant 1: a bit is set exactly when its list is non-empty).
	"eng_nr_no_dec@@eng_inv_1x3x2_abc12@@rtl/hws_eng_loads.v@@      wire [NRW-1:0] nr_inc = nr_q + (link ? ONE32[NRW-1:0] : {NRW{1'b1}});@@      wire [NRW-1:0] nr_inc = nr_q + (link ? ONE32[NRW-1:0] : {NRW{1'b0}});"
	"eng_setw_no_load@@eng_inv_1x3x2_abc12@@rtl/hws_eng_loads.v@@  wire           setw_upd = ctl_i[\`HWS_S_SETW] && q_t_i;@@  wire           setw_upd = 1'b0 && ctl_i[\`HWS_S_SETW] && q_t_i;"
	"eng_unlink_keeps_bit_eng@@eng_inv_1x3x2_abc12@@rtl/hws_eng_bitmap.v@@                         u_empty_i ? (bm_tw & ~plo_q) : bm_tw;@@                         bm_tw;"
	# The preemption interrupt (docs/accelerator.md 4.6): a link at CURR's own priority
	# preempts (<= for <); a pick that does not clear its CPU's pending bit.
	"irq_le@@irq_n3@@rtl/hws_irq.v@@  wire       l_set  = l_vld && l_act && (l_prio < l_curr);@@  wire       l_set  = l_vld && l_act && (l_prio <= l_curr);"
	"irq_pick_keeps@@irq_n5@@rtl/hws_irq.v@@        else if ((pick_i && (pick_cpu_i == c[5:0])) || w1c[c])@@        else if (w1c[c])"
	# Several ports writing CURR[c] at one edge: the lowest-numbered port's word kept
	# instead of the highest's (the ports applied in reverse order).
	"irq_curr_first_port@@irq_n3_p2@@rtl/hws_irq.v@@          for (q = 0; q < NR_PORTS; q = q + 1)   // port order: the last one writing stays@@          for (q = NR_PORTS - 1; q >= 0; q = q - 1)   // port order: the last one writing stays"
	# The sequencer free at the completion of a failed state check (QUEUED, NOTQUEUED,
	# DOMAIN), so the next command would pop at that edge (accelerator.md 4.1, condition 2).
	"seq_free_sfail@@eng_seq_2x4@@rtl/hws_eng_seq.v@@  wire       done_w  = (s1 && ck_bad) || fin_y;@@  wire       done_w  = failed || fin_y;"
	"seq_free_sfail_pi@@eng_seq_2x4_pi@@rtl/hws_eng_seq.v@@  wire       done_w  = (s1 && ck_bad) || fin_y;@@  wire       done_w  = failed || fin_y;"
	# The BALANCE unit (rtl/hws_balance.v): BAL_* written from the pick on instead of only at
	# the final edge (the protocol, bal_proto_n2, fast set); a non-local group with load 0
	# taken as the busiest (the C's strict > from max_load = 0; the reference,
	# bal_ref_n2_pw1024, at the pick). The verdict's mutants are not here: that proof's
	# bound ends before the verdict (docs/formal.md, "What is not proven here").
	"bal_regs_early@@bal_proto_n2@@rtl/hws_balance.v@@    end else if (cnt_q == C_FIN) begin@@    end else if (cnt_q >= C_PICK) begin"
	"bal_no_busiest_zero@@bal_ref_n2_pw1024@@rtl/hws_balance.v@@          tk = lgv[g] && (ldx_d[g*QW +: AW] != {AW{1'b0}});@@          tk = lgv[g];"
	# Find-first-set: the third nibble's first bit taken from the second nibble.
	"ffs_wrong_nibble@@ffs16_exhaustive@@rtl/hws_ffs16.vh@@      f2 = ffs4(b[10:8]);@@      f2 = ffs4(b[6:4]);  "
)

printf '%-18s %-18s %-8s %s\n' mutant proof result trace
printf '%-18s %-18s %-8s %s\n' ------ ----- ------ -----
names=$(printf '%s\n' "${MUTANTS[@]}" | sed 's/@@.*//' | uniq)
bad=0
for m in $names; do
	[ -n "$only" ] && [ "$m" != "$only" ] && continue
	if [ $fast = 1 ]; then
		pr=$(printf '%s\n' "${MUTANTS[@]}" | awk -F'@@' -v m="$m" '$1 == m { print $2; exit }')
		set_of=$(awk -v p="$pr" '$1 == p { print $7 }' "$root/formal/proofs.list")
		[ "$set_of" = fast ] || continue
	fi
	copy=$out/$m/src
	rm -rf "$out/$m" && mkdir -p "$copy"
	cp -r "$root/rtl" "$root/formal" "$copy/"
	proof=""
	for line in "${MUTANTS[@]}"; do
		name=${line%%@@*}; rest=${line#*@@}
		pr=${rest%%@@*}; rest=${rest#*@@}
		file=${rest%%@@*}; rest=${rest#*@@}
		old=${rest%%@@*}; new=${rest#*@@}
		[ "$name" = "$m" ] || continue
		proof=$pr
		if ! OLD=$old NEW=$new python3 - "$copy/$file" <<'PY'
import os, sys
p = sys.argv[1]
s = open(p).read()
o, n = os.environ["OLD"], os.environ["NEW"]
if s.count(o) != 1:
    sys.exit(1)
open(p, "w").write(s.replace(o, n))
PY
		then
			echo "formal/mutate.sh: mutant $m: '$old' not found once in $file" >&2
			bad=$((bad + 1))
			continue 2
		fi
	done
	"$root/formal/run.sh" --src "$copy" --only "$proof" --out "$out/$m" >"$out/$m/run.txt" 2>&1
	rc=$?
	trace=$out/$m/$proof/trace.vcd
	if [ $rc = 1 ] && grep -q "FAIL" "$out/$m/run.txt" && [ -s "$trace" ]; then
		printf '%-18s %-18s %-8s %s\n' "$m" "$proof" caught "${trace#$root/}"
		grep -aoE 'Assert failed in [^(]*|Output [0-9]+ of miter .* was asserted in frame [0-9]+' "$out/$m/$proof/log.txt" | head -1 | sed "s|$copy/||; s|$out/$m/$proof/||; s/^/    /; s/ *\$//"
		# (pdr, abcbmc: the assertion the replayed trace fails, from yosys sim)
		[ -s "$out/$m/$proof/sim.txt" ] && grep -ao 'Assert [^ ]* ([^)]*) failed' "$out/$m/$proof/sim.txt" | head -1 | sed "s|$copy/||g; s/^/    sim: /"
	else
		printf '%-18s %-18s %-8s %s\n' "$m" "$proof" SURVIVED "see $out/$m/run.txt"
		bad=$((bad + 1))
	fi
done
if [ $bad = 0 ]; then
	echo "mutate: every planted bug was caught with a counterexample"
else
	echo "mutate: $bad mutant(s) survived or did not apply" >&2
	exit 1
fi
