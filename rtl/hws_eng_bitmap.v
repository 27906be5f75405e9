// hws_eng_bitmap: the engine's priority bitmaps, their summaries and find-first-set (part
// of hws_rq_engine).
//
// Owns: the 140-bit bitmap of each physical array a = cpu*2 + phys, 9 words of 16 bits in
// the block RAM bm, word k (bits 16k+15..16k; bits 140..143 of word 8 always 0) at address
// a*16 + k (a concatenation: no adder; words 9..15 of each array are never written); the
// summary bits sm[a][k] (flops, reset clears), set iff word k is non-zero (a word whose
// summary bit is clear is not trusted and reads as 0, so the RAM needs no reset);
// PICK_NEXT/PEEK's search results (pk_*_q); the summary bit of the focus word a step
// before (smk_q) and the focus list's one-hots a step before (plo_q: its bit in the word,
// phi_q: its word, foh_q: its array); CPU_STAT's chunk.
//
// Timing (fields of ctl_i): find-first-set is two-level. Step 1 (S_BM_PK): each CPU forms
// from its flops the first set summary bit k of its active array, else of its expired one,
// the command's CPU selects its answer, word k is read and pk_*_q latch. Step 2: FFS16 of
// that word gives the priority (pk_prio_q latches, pk_ht_o names its list). The focus
// list's word (f_arr, f_prio>>4) is read in the step that reads its ht entry (S_BM_ENQ,
// S_BM_OLD, or a move's new list; PICK_NEXT's one step earlier) and rewritten at the held
// address by the link or unlink of a later step, which also sets sm[a][k] = (new word !=
// 0). A word read at its own write edge (the held read address does that) is undefined in
// hws_ram and never used; the simulation returns it inverted, so lockstep would catch a use.
// CPU_STAT reads chunk k of array (c, chunk_phys) in step 1 (S_BM_CST); chunk_o in step 2.
`default_nettype none
`include "hws_eng_ctl.vh"

module hws_eng_bitmap #(
  parameter integer NR_CPUS = 8,                               // CPUs, 1..64
  // Derived: leave them at their defaults.
  parameter integer CW   = (NR_CPUS > 1) ? $clog2(NR_CPUS) : 1,  // cpu index width
  parameter integer AIW  = CW + 1,                              // array index {cpu, phys}
  parameter integer HTAW = AIW + 8                              // ht index {p[7], a, p[6:0]}
) (
  input  wire                   clk_i,
  input  wire                   srst_i,     // synchronous reset: every bitmap empty
  input  wire [`HWS_CTL_W-1:0]  ctl_i,      // the control word (hws_eng_seq)
  input  wire [CW-1:0]          c_i,        // the command's CPU
  input  wire [7:0]             prio_i,     // the command's PRIO field (CPU_STAT: selector)
  input  wire                   array_i,    // the command's ARRAY field (logical)
  input  wire                   swap_c_i,   // swap[c] of the command's CPU
  input  wire [NR_CPUS-1:0]     swap_i,     // every CPU's swap flag
  input  wire [2*NR_CPUS-1:0]   ne_i,       // array a is non-empty (hws_eng_loads)
  input  wire [CW-1:0]          f_cpu_i,    // the focus list (the youngest command's)
  input  wire                   f_phys_i,
  input  wire [7:0]             f_prio_i,
  input  wire [CW-1:0]          fo_cpu_i,   // the list a link or unlink writes (the retiring
  input  wire                   fo_phys_i,  // command's focus; PIPE = 0: f_*), for the
  input  wire [7:0]             fo_prio_i,  // simulation checks
  input  wire [CW-1:0]          tt_cpu_i,   // the task's list (its entry in tt)
  input  wire                   tt_phys_i,
  input  wire [7:0]             tt_prio_i,
  input  wire [AIW+3:0]         bnew_i,     // a move's new list {array, prio[7:4]}
  input  wire                   link_i,     // this edge links into the focus list
  input  wire                   unlink_i,   // ... unlinks from it
  input  wire                   u_empty_i,  // ... and the unlink empties it
  output wire [HTAW-1:0]        pk_ht_o,    // PICK_NEXT/PEEK: the list found (step 2)
  output wire                   pk_phys_o,  // ... its physical array (from step 2)
  output wire [7:0]             pk_prio_o,  // ... its priority (from step 3)
  output wire                   pk_none_o,  // ... both arrays are empty (from step 2)
  output wire                   pk_swap_o,  // ... PICK_NEXT swaps the arrays (from step 2)
  output wire                   f_ne_o,     // the focus list is non-empty
  output wire [15:0]            chunk_o     // CPU_STAT's bitmap chunk (step 2)
`ifdef FORMAL
  ,
  // formal only, for hws_rq_engine's invariants: the summaries (array a's at [a*16 +: 16],
  // the bits above NK 0) and the bitmap RAM's words
  output wire [2*NR_CPUS*16-1:0]    f_sm_o,
  output wire [2*NR_CPUS*16*16-1:0] f_bm_o
`endif
);
  /* verilator lint_off UNUSEDPARAM */
`include "hws_regs.vh"
  /* verilator lint_on UNUSEDPARAM */

  localparam integer NK   = (HWS_NR_PRIO + 15) / 16;               // bitmap words per array
  localparam integer NARR = 2 * NR_CPUS;                           // physical arrays
  localparam integer BMD  = NARR * 16;                             // bm words (a*16 + k)
  localparam integer BMAW = $clog2(BMD);                           // AIW + 4 (+ 3 at 1 CPU)
`ifndef __ICARUS__
  generate
    if (CW != ((NR_CPUS > 1) ? $clog2(NR_CPUS) : 1) || AIW != CW + 1 || HTAW != AIW + 8 ||
        NK > 16) begin : g_bad_param
      $error("hws_eng_bitmap: a derived parameter was set (CW=%0d AIW=%0d HTAW=%0d)", CW, AIW, HTAW);
    end
  endgenerate
`endif

  wire s1 = ctl_i[`HWS_S_1];
  wire s2 = ctl_i[`HWS_S_2];

  // ht index of list (a, p): {p[7], a, p[6:0]}
  function automatic [HTAW-1:0] ht_idx(input [AIW-1:0] a, input [7:0] p);
    ht_idx = {p[7], a, p[6:0]};
  endfunction

  // Find-first-set of 16 bits, ffs16() (rtl/hws_ffs16.vh: proven equal to a priority scan
  // over all 2^16 inputs, formal/proofs.list; tests/rtl/tb_ffs16.v).
`include "hws_ffs16.vh"

  // Summaries, per array
  wire [NARR*NK-1:0] sm_all;
  wire [2*NK-1:0]    sm_cpu [0:NR_CPUS-1];   // {phys 1, phys 0} summaries of a CPU
  wire [1:0]         ne_cpu [0:NR_CPUS-1];

  // PICK_NEXT/PEEK, step 1: first set summary bit k of the active array, else of the
  // expired one (its word k is read); step 2: first set bit of that word, trusted when the
  // summary had a set bit (then bit k is set).
  wire [15:0]   bm_rd;
  reg           pk_phys_q, pk_swap_q, pk_none_q, pk_tw_q;
  reg  [3:0]    pk_k_q;
  reg  [7:0]    pk_prio_q;
  // Each CPU forms its own step-1 answer from its flops (pkc: {array to search, the
  // first set summary bit k, the summary has one, PICK_NEXT swaps, both arrays empty});
  // the command's CPU then selects one. Selecting the CPU's flops first and searching
  // after put the command word's wide fan-out at the head of the path.
  wire [7:0] pkc [0:NR_CPUS-1];
  genvar gp;
  generate
    for (gp = 0; gp < NR_CPUS; gp = gp + 1) begin : g_pick
      wire [1:0]      ne   = ne_cpu[gp];
      wire            sw   = swap_i[gp];
      wire [2*NK-1:0] sm   = sm_cpu[gp];
      wire            act  = sw ? ne[1] : ne[0];     // the active array is non-empty
      wire            exp  = sw ? ne[0] : ne[1];
      wire            ph   = act ? sw : ~sw;         // the array to search (physical)
      wire [NK-1:0]   smp  = ph ? sm[NK +: NK] : sm[0 +: NK];
      assign pkc[gp] = {ph, ffs16({{(16-NK){1'b0}}, smp}), (smp != {NK{1'b0}}),
                        !act && exp, !act && !exp};
    end
  endgenerate
  wire [7:0]      pk_c     = pkc[c_i];
  wire            ffs_phys = pk_c[7];
  wire [3:0]      ffs_k    = pk_c[6:3];
  wire [3:0]      ffs_lo   = ffs16(pk_tw_q ? bm_rd : 16'd0);
  wire [HTAW-1:0] pk_ht    = ht_idx({c_i, pk_phys_q}, {pk_k_q, ffs_lo});

  // one-hots of f_prio's word (k = f_prio[7:4]) and of its bit in the word
  wire [15:0]    prio_hi = 16'd1 << f_prio_i[7:4];
  wire [15:0]    prio_lo = 16'd1 << f_prio_i[3:0];
  wire [AIW-1:0] f_arr   = {f_cpu_i, f_phys_i};
  // The focus list's bitmap word, read in an earlier step of this command: trusted only
  // while its summary bit is set.
  wire [2*NK-1:0] sm_f   = sm_cpu[f_cpu_i];
  wire [NK-1:0]   f_sm   = f_phys_i ? sm_f[NK +: NK] : sm_f[0 +: NK];
  wire            f_sm_k = ((f_sm & prio_hi[NK-1:0]) != {NK{1'b0}});
  // The links and unlinks use the summary bit of the step before (smk_q): the focus list
  // is the same in both, nothing writes the summaries between them (asserted below), and
  // the bit then comes from a flop, not from the task entry through the focus multiplexer.
  // For the same reason they take the focus list's one-hots of the step before: its bit in
  // the word (plo_q), its word in the summary (phi_q) and its array (foh_q), so that the
  // bitmap word's update, its emptiness and the summary flops' enables start at flops
  // and at the bitmap RAM, not at the task entry's RAM through the focus multiplexer.
  reg             smk_q;
  reg  [15:0]     plo_q;
  reg  [NK-1:0]   phi_q;
  reg  [NARR-1:0] foh_q;
  wire [NARR-1:0] f_arr_oh = {{(NARR-1){1'b0}}, 1'b1} << f_arr;
  wire [15:0]     bm_tw  = smk_q ? bm_rd : 16'd0;
  wire            f_ne   = ((bm_tw & plo_q) != 16'd0);       // the focus list is non-empty

  // bm read address: presented in the steps that read a word and held otherwise, so the
  // word a link or unlink rewrites is at the held address (bm_addr_q).
  wire [7:0]     sel_act    = prio_i - HWS_SEL_CPU_STAT_ACT_BM0;
  wire [7:0]     sel_exp    = prio_i - HWS_SEL_CPU_STAT_EXP_BM0;
  wire           sel_is_exp = (prio_i >= HWS_SEL_CPU_STAT_EXP_BM0);
  wire           chunk_phys = sel_is_exp ^ swap_c_i;          // logical array -> physical
  wire [3:0]     chunk_k    = sel_is_exp ? sel_exp[3:0] : sel_act[3:0];
  wire [AIW+3:0] f_bma   = {f_arr, f_prio_i[7:4]};
  wire [AIW+3:0] cst_bma = {c_i, chunk_phys, chunk_k};
  reg  [BMAW-1:0] bm_addr_q;
  wire [AIW+3:0] pk_bma  = {c_i, ffs_phys, ffs_k};             // PICK_NEXT/PEEK step 1
  wire [AIW+3:0] tt_bma  = {tt_cpu_i, tt_phys_i, tt_prio_i[7:4]}; // the old list (step 2)
  wire [AIW+3:0] enq_bma = {c_i, array_i ^ swap_c_i, prio_i[7:4]}; // ENQUEUE (step 1)
  wire [BMAW-1:0] bm_raddr = !ctl_i[`HWS_S_BM_RD] ? bm_addr_q :
                             ctl_i[`HWS_S_BM_CST] ? cst_bma[BMAW-1:0] :
                             ctl_i[`HWS_S_BM_PK]  ? pk_bma[BMAW-1:0] :
                             ctl_i[`HWS_S_BM_ENQ] ? enq_bma[BMAW-1:0] :
                             ctl_i[`HWS_S_BM_OLD] ? tt_bma[BMAW-1:0] : bnew_i[BMAW-1:0];

  // A link sets the focus list's bit in its (trusted) word, an unlink that empties the list
  // clears it (written at every unlink, unchanged unless the list empties).
  wire           upd   = link_i || unlink_i;
`ifdef FORMAL
  wire [2*NR_CPUS*16*16-1:0] f_bm;   // the bitmap RAM's words (formal only)
`endif
  wire [15:0]    bm_wd = link_i ? (bm_tw | plo_q) :
                         u_empty_i ? (bm_tw & ~plo_q) : bm_tw;
  // The summary bit of the focus word after a link or unlink, as data rather than an
  // enable: 1 after a link, unchanged (1: the list was in it) after an unlink that leaves
  // the list non-empty, else whether the word keeps another bit.
  wire           sm_new = link_i || !u_empty_i || ((bm_tw & ~plo_q) != 16'd0);
  // (No RAM write enable here waits for srst_i: a word is read only while a flop the reset
  // clears vouches for it, docs/accelerator.md section 2; srst_i comes late in the cycle.)
  hws_ram #(.DEPTH(BMD), .WIDTH(16), .AW(BMAW)) u_bm (
    .clk_i(clk_i), .we_i(upd), .waddr_i(bm_addr_q), .wdata_i(bm_wd),
    .raddr_i(bm_raddr), .rdata_o(bm_rd)
`ifdef FORMAL
    , .f_mem_o(f_bm)
`endif
  );

  genvar ga, gc;
  generate
    for (ga = 0; ga < NARR; ga = ga + 1) begin : g_arr
      reg [NK-1:0] sm_q;
      always @(posedge clk_i) begin
        if (srst_i)
          sm_q <= {NK{1'b0}};
        else if (upd && foh_q[ga])
          sm_q <= (sm_q & ~phi_q) | ({NK{sm_new}} & phi_q);
      end
      assign sm_all[ga*NK +: NK] = sm_q;
`ifdef FORMAL
      assign f_sm_o[ga*16 +: 16] = {{(16-NK){1'b0}}, sm_q};
`endif
    end
    for (gc = 0; gc < NR_CPUS; gc = gc + 1) begin : g_cpu
      assign sm_cpu[gc] = sm_all[gc*2*NK +: 2*NK];
      assign ne_cpu[gc] = ne_i[gc*2 +: 2];
    end
  endgenerate

  always @(posedge clk_i) begin
    smk_q     <= f_sm_k;
    plo_q     <= prio_lo;
    phi_q     <= prio_hi[NK-1:0];
    foh_q     <= f_arr_oh;
    bm_addr_q <= bm_raddr;
    if (s1) begin
      pk_phys_q <= ffs_phys;
      pk_k_q    <= ffs_k;
      pk_tw_q   <= pk_c[2];
      pk_swap_q <= pk_c[1];
      pk_none_q <= pk_c[0];
    end
    if (s2) pk_prio_q <= {pk_k_q, ffs_lo};
  end

  // CPU_STAT's chunk k (step 2): the word read in step 1, trusted while its summary bit is
  // set (registered in step 1, cst_tw_q, so step 2 passes the RAM word through one gate).
  wire [2*NK-1:0] sm_c     = sm_cpu[c_i];
  wire [NK-1:0]   chunk_sm = chunk_phys ? sm_c[NK +: NK] : sm_c[0 +: NK];
  wire [15:0]     chunk_oh = 16'd1 << chunk_k;
  reg             cst_tw_q;
  always @(posedge clk_i) cst_tw_q <= ((chunk_sm & chunk_oh[NK-1:0]) != {NK{1'b0}});

  assign pk_ht_o   = pk_ht;
  assign pk_phys_o = pk_phys_q;
  assign pk_prio_o = pk_prio_q;
  assign pk_none_o = pk_none_q;
  assign pk_swap_o = pk_swap_q;
  assign f_ne_o    = f_ne;
  assign chunk_o   = cst_tw_q ? bm_rd : 16'd0;
`ifdef FORMAL
  assign f_bm_o    = f_bm;
`endif

  // Bits that some configurations do not need, and the fields this module does not read.
  wire unused_bits = &{1'b0, sel_act[7:4], sel_exp[7:4], prio_hi[15:NK], chunk_oh[15:NK],
                       f_bma, cst_bma, pk_bma, tt_bma, bnew_i, enq_bma, tt_prio_i, ctl_i,
                       fo_cpu_i, fo_phys_i, fo_prio_i};

  // ---------------------------------------------------------------------------------------
  // Simulation-only checks: the word a link or unlink rewrites is the focus list's, read
  // earlier in this command; the list a task is unlinked from has its bit set; smk_q is the
  // focus list's summary bit (nothing wrote the summaries since the step before); sm_new is
  // the written word's summary bit.
`ifndef SYNTHESIS
`ifndef FORMAL   // ($fatal in an always block: simulation only)
  // (the focus list of the write: the retiring command's)
  wire [15:0]     o_prio_hi = 16'd1 << fo_prio_i[7:4];
  wire [15:0]     o_prio_lo = 16'd1 << fo_prio_i[3:0];
  wire [AIW-1:0]  o_arr     = {fo_cpu_i, fo_phys_i};
  wire [NARR-1:0] o_arr_oh  = {{(NARR-1){1'b0}}, 1'b1} << o_arr;
  wire [2*NK-1:0] o_sm_c    = sm_cpu[fo_cpu_i];
  wire [NK-1:0]   o_sm      = fo_phys_i ? o_sm_c[NK +: NK] : o_sm_c[0 +: NK];
  wire            o_sm_k    = ((o_sm & o_prio_hi[NK-1:0]) != {NK{1'b0}});
  wire [AIW+3:0]  o_bma     = {o_arr, fo_prio_i[7:4]};
  wire            o_unused  = &{1'b0, o_prio_hi[15:NK], o_bma};
  always @(posedge clk_i) begin
    if (!srst_i) begin
      if (upd && (bm_addr_q != o_bma[BMAW-1:0])) begin
        $display("hws_eng_bitmap: INVARIANT FAILED at %0t: bitmap word %0d written, focus list cpu %0d phys %0d prio %0d",
                 $time, bm_addr_q, fo_cpu_i, fo_phys_i, fo_prio_i);
        $fatal(1, "hws_eng_bitmap: bitmap write address");
      end
      if (unlink_i && !f_ne) begin
        $display("hws_eng_bitmap: INVARIANT FAILED at %0t: unlink from cpu %0d phys %0d prio %0d, its bitmap bit is clear",
                 $time, fo_cpu_i, fo_phys_i, fo_prio_i);
        $fatal(1, "hws_eng_bitmap: bitmap bit of a non-empty list");
      end
      if (upd && ((plo_q != o_prio_lo) || (phi_q != o_prio_hi[NK-1:0]) || (foh_q != o_arr_oh))) begin
        $display("hws_eng_bitmap: INVARIANT FAILED at %0t: one-hots of the step before %h %h %h, now %h %h %h",
                 $time, plo_q, phi_q, foh_q, o_prio_lo, o_prio_hi[NK-1:0], o_arr_oh);
        $fatal(1, "hws_eng_bitmap: plo_q/phi_q/foh_q differ from the focus list's one-hots");
      end
      if (upd && (smk_q != o_sm_k)) begin
        $display("hws_eng_bitmap: INVARIANT FAILED at %0t: summary bit %0d, a step earlier %0d",
                 $time, o_sm_k, smk_q);
        $fatal(1, "hws_eng_bitmap: smk_q differs from the focus list's summary bit");
      end
      if (s2 && ctl_i[`HWS_C_PK] && (pk_tw_q == pk_none_q)) begin
        $display("hws_eng_bitmap: INVARIANT FAILED at %0t: PICK_NEXT/PEEK on cpu %0d: summary %0s, counts %0s",
                 $time, c_i, pk_tw_q ? "non-empty" : "empty", pk_none_q ? "empty" : "non-empty");
        $fatal(1, "hws_eng_bitmap: bitmap summary/count mismatch");
      end
      if (upd && (sm_new != (bm_wd != 16'd0))) begin
        $display("hws_eng_bitmap: INVARIANT FAILED at %0t: new summary bit %0d, word %h",
                 $time, sm_new, bm_wd);
        $fatal(1, "hws_eng_bitmap: sm_new is not the written word's summary bit");
      end
    end
  end
`endif
`endif
`ifdef FORMAL
  // ---------------------------------------------------------------------------------------
  // Formal properties (formal/proofs.list): the bitmap's write contract, for any list (a, p)
  // the solver picks. Assumed of the engine (its simulation checks assert them): reset at
  // the start; a link or unlink rewrites the focus list's word at the held read address
  // (bm_addr_q) with the summary bit and the one-hots of the step before (smk_q == f_sm_k,
  // plo_q, phi_q, foh_q those of the focus list now), a list below
  // NR_PRIO on one of the NR_CPUS, never in two successive cycles; an unlink is from a non-empty list; link and
  // unlink exclude each other. Asserted: a link sets the list's bit, an unlink clears it
  // exactly when it empties the list, and every other list's bit keeps its value (a bit as
  // the engine reads it: its word trusted while the summary bit is set).
  // In the engine's proof (HWS_F_ENGINE, formal/proofs.list eng_inv_*) the assumptions
  // about the engine are assertions instead, proven there (assume-guarantee), and the
  // contract below is left to this module's own proof.
  localparam [31:0] NARR32 = NARR;
`define HWS_F_RESET srst_i
`include "hws_formal_env.vh"
`ifdef HWS_F_ENGINE
`define HWS_F_ENV assert
  wire f_env_on = f_past_valid && !srst_i;
`else
`define HWS_F_ENV assume
  wire f_env_on = 1'b1;
`endif
  always @(*) begin
    if (f_env_on && upd) begin
      `HWS_F_ENV (bm_addr_q == f_bma[BMAW-1:0] && smk_q == f_sm_k && f_prio_i < HWS_NR_PRIO[7:0]);
      `HWS_F_ENV (plo_q == prio_lo && phi_q == prio_hi[NK-1:0] && foh_q == f_arr_oh);
      `HWS_F_ENV ({1'b0, f_arr} < NARR32[AIW:0]);
      `HWS_F_ENV (!(link_i && unlink_i));
    end
    if (f_env_on && unlink_i) `HWS_F_ENV (f_ne);
  end
  always @(posedge clk_i) if (f_env_on && f_past_valid && upd) `HWS_F_ENV (!$past(upd));
`undef HWS_F_ENV
`ifndef HWS_F_ENGINE
  /* verilator lint_off UNDRIVEN */
  (* anyconst *) reg [AIW-1:0] f_a;
  (* anyconst *) reg [7:0]     f_p;
  /* verilator lint_on UNDRIVEN */
  always @(*) assume (f_p < HWS_NR_PRIO[7:0] && {1'b0, f_a} < NARR32[AIW:0]);
  wire [AIW+3:0] f_wa = {f_a, f_p[7:4]};
  wire [15:0]    f_w  = f_bm[f_wa*16 +: 16];
  wire           f_b  = sm_all[{{(32-AIW){1'b0}}, f_a} * NK + {28'd0, f_p[7:4]}] && f_w[f_p[3:0]];   // (a, p)'s bit
  wire           f_is = (f_arr == f_a) && (f_prio_i == f_p);            // it is the focus list
  always @(posedge clk_i) begin
    if (f_past_valid && !$past(srst_i) && !srst_i) begin
      if ($past(upd && f_is)) begin
        assert (f_b == ($past(link_i) || !$past(u_empty_i)));
      end else begin
        assert (f_b == $past(f_b));
      end
    end
  end
`endif
`endif
endmodule

`default_nettype wire
