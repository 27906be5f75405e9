// hws_domain: the domain table and the placement and balance queries of the load-comparison
// unit (docs/accelerator.md sections 8.1, 8.2).
//
// State: lead[k][c], k = 1..3 (cores, packages, nodes), the first CPU of c's block in
// partition Pk, in flops (reset: lead[k][c] = c). DOM_SET writes one entry at its
// completion edge (set_i). Values are < NR_CPUS (DOM_SET checks its leader), so CW bits
// hold them; the 6-bit field of the spec is the zero-extension. DOM_SET k = 0 and 4..7
// write imbalance_pct and the group powers, kept by hws_balance (their only reader).
//
// Consistency flags, registered: ok_q[k-1] says Pk is well formed (lead[k][x] <= x and
// lead[k][lead[k][x]] == lead[k][x] for every x), ok_q[3] that P1 nests in P2, ok_q[4] that
// P2 nests in P3 (lead[k+1][x] == lead[k+1][lead[k][x]]). They change only at a DOM_SET
// edge that writes a leader and describe the table as that edge leaves it, so a QUERY
// issued back to back reads the right flags in its step 1, and the DOMAIN check (q_bad_o)
// is a few gates. They are kept incrementally, from per-CPU violation bits (bad<j>_q),
// not recomputed over every CPU (see there).
//
// QUERY kinds 0 and 1: step 1 (the engine's checks pass, q_go_i): at its edge the domain
// of the query is latched (dom_q); step 2 computes from it, the table, load[] and idle[]
// IDLEST's winner (a comparison tree, its first levels folded in step 1) and IDLE_CORE's
// candidate sets, latched at its edge; step 3 forms the answer and returns it. Kind 2
// (BALANCE): q_go_i starts hws_balance, which raises q_done_o in its
// final cycle with the result word on q_res_o. hws_balance also keeps the per-block load
// sums BALANCE reads, from the leader writes (set_i) and the engine's load and history
// writes (upd_i). The query logic sits under q_go_i / set_i / qv_q in clocked blocks or
// under qv2_q (step 3 of a query), so Verilator evaluates none of it in cycles without a
// DOM_SET or QUERY.
`default_nettype none

module hws_domain #(
  parameter integer NR_CPUS = 8,   // CPUs, 1..64
  parameter integer LOAD_W  = 26,  // width of a per-CPU load, 18..30
  parameter integer LCU_BALANCE = 1, // 0: no hws_balance (the engine refuses BALANCE), so no
                                     // block sums, powers or imbalance_pct are kept
  parameter integer BAL_LANES = 0,   // hws_balance's lanes, 1..NR_CPUS (0: NR_CPUS)
  parameter integer LCU_LEAN  = 0    // 1: hws_balance_lean instead of hws_balance (8.2.1)
) (
  input  wire                       clk_i,
  input  wire                       srst_i,     // synchronous reset: every lead[k][c] = c,
                                                // every power 1024, every pct 125
  // DOM_SET (checks passed) at this edge, k = set_k_i:
  //   0: pct[data[11:10]] = data[7:0];  1..3: lead[k][cpu] = data;  4..7: pw[k-4][cpu] = data
  input  wire                       set_i,
  input  wire [2:0]                 set_k_i,
  input  wire [5:0]                 set_cpu_i,  // < NR_CPUS
  input  wire [16:0]                set_data_i, // {PRIO[7:3], TASK}
  // QUERY(cpu, level, kind)
  input  wire [5:0]                 q_cpu_i,    // < NR_CPUS (when q_go_i)
  input  wire [1:0]                 q_level_i,  // 0..3
  input  wire [1:0]                 q_kind_i,   // 0 IDLEST, 1 IDLE_CORE, 2 BALANCE
  input  wire                       q_now_i,    // BALANCE: idle type IDLE or NEWLY_IDLE
  output wire                       q_bad_o,    // DOMAIN: the partitions it reads are inconsistent
  output wire [4:0]                 q_ok_o,     // the consistency flags (ok_q, below)
  input  wire                       q_go_i,     // step 1 of a QUERY that passed every check
  input  wire [NR_CPUS*LOAD_W-1:0]  load_i,     // load[c] at [c*LOAD_W +: LOAD_W]
  input  wire [NR_CPUS*LOAD_W-1:0]  hist_i,     // hist[c]
  input  wire [NR_CPUS-1:0]         idle_i,     // idle[c]
  // CPU upd_cpu_i's load goes from n_old to n_new and its history from h_old to h_new at
  // this edge (for hws_balance's block sums)
  input  wire                       upd_i,
  input  wire [5:0]                 upd_cpu_i,  // < NR_CPUS
  input  wire [LOAD_W-1:0]          upd_now_old_i,
  input  wire [LOAD_W-1:0]          upd_now_new_i,
  input  wire [LOAD_W-1:0]          upd_h_old_i,
  input  wire [LOAD_W-1:0]          upd_h_new_i,
  output wire                       q_done_o,   // BALANCE: its final cycle
  output wire [31:0]                q_res_o,    // the result word: kinds 0, 1 in step 3,
                                                // BALANCE with q_done_o
  output wire [127:0]               bal_regs_o /*verilator public_flat_rd*/  // {BAL_IMB, BAL_AVG, BAL_MAX, BAL_THIS}
);
  // The generated header defines every constant of the register map; this module uses some.
  /* verilator lint_off UNUSEDPARAM */
`include "hws_regs.vh"
  /* verilator lint_on UNUSEDPARAM */

`include "hws_params.vh"
`ifndef __ICARUS__
  generate
    if (`HWS_PARAM_BAD_NR_CPUS || LOAD_W < 18 || LOAD_W > 30) begin : g_bad_param
      $error("hws_domain: NR_CPUS=%0d LOAD_W=%0d (need 1..64, 18..30)", NR_CPUS, LOAD_W);
    end
  endgenerate
`endif

  localparam integer CW = (NR_CPUS > 1) ? $clog2(NR_CPUS) : 1;   // cpu index width

  // ---------------------------------------------------------------------------------------
  // The table: per CPU flops, read as flat vectors, lead k of CPU x at [x*CW +: CW]
  wire [CW-1:0]         set_c = set_cpu_i[CW-1:0];
  wire [CW-1:0]         set_v = set_data_i[CW-1:0];
  wire                  set_lead = set_i && !set_k_i[2] && (set_k_i[1:0] != 2'd0);   // k 1..3
  // One flat register per partition (not per-CPU flops gathered into a vector: Verilator
  // would rebuild that wide vector at every edge).
  reg  [NR_CPUS*CW-1:0] lead1_q, lead2_q, lead3_q;

  function automatic [NR_CPUS*CW-1:0] ident_fn(input integer unused_arg);
    integer x;
    begin
      ident_fn = {NR_CPUS*CW{1'b0}};
      for (x = 0; x < NR_CPUS; x = x + 1) ident_fn[x*CW +: CW] = x[CW-1:0];
      if (unused_arg != 0) ident_fn = {NR_CPUS*CW{1'b0}};
    end
  endfunction
  localparam [NR_CPUS*CW-1:0] IDENT = ident_fn(0);   // lead[k][c] = c

  always @(posedge clk_i) begin
    if (srst_i) begin
      lead1_q <= IDENT;
      lead2_q <= IDENT;
      lead3_q <= IDENT;
    end else if (set_lead) begin
      if (set_k_i == 3'd1) lead1_q[set_c*CW +: CW] <= set_v;
      if (set_k_i == 3'd2) lead2_q[set_c*CW +: CW] <= set_v;
      if (set_k_i == 3'd3) lead3_q[set_c*CW +: CW] <= set_v;
    end
  end

  // ---------------------------------------------------------------------------------------
`ifndef SYNTHESIS
  // Consistency flags {P2 in P3, P1 in P2, P3 ok, P2 ok, P1 ok} of the table (t1, t2, t3)
  // after the write of v at (k, c), recomputed from scratch: the simulation's reference for
  // the incremental flags below (every x looks up two table entries: 5 x NR_CPUS
  // variable-index reads, 40k LUT6 and more memory than Yosys's share pass had at 64 CPUs).
  function automatic [4:0] flags_fn(input [NR_CPUS*CW-1:0] t1, input [NR_CPUS*CW-1:0] t2,
                                    input [NR_CPUS*CW-1:0] t3, input [1:0] k,
                                    input [CW-1:0] c, input [CW-1:0] v);
    reg [NR_CPUS*CW-1:0] n1, n2, n3;
    reg [CW-1:0]         xc, a1, a2, a3;
    integer              x;
    begin
      n1 = t1;
      n2 = t2;
      n3 = t3;
      if (k == 2'd1) n1[c*CW +: CW] = v;
      if (k == 2'd2) n2[c*CW +: CW] = v;
      if (k == 2'd3) n3[c*CW +: CW] = v;
      flags_fn = 5'b11111;
      for (x = 0; x < NR_CPUS; x = x + 1) begin
        xc = x[CW-1:0];
        a1 = n1[x*CW +: CW];
        a2 = n2[x*CW +: CW];
        a3 = n3[x*CW +: CW];
        if ((a1 > xc) || (n1[a1*CW +: CW] != a1)) flags_fn[0] = 1'b0;
        if ((a2 > xc) || (n2[a2*CW +: CW] != a2)) flags_fn[1] = 1'b0;
        if ((a3 > xc) || (n3[a3*CW +: CW] != a3)) flags_fn[2] = 1'b0;
        if (n2[a1*CW +: CW] != a2) flags_fn[3] = 1'b0;   // lead2_q[lead1_q[x]] == lead2_q[x]
        if (n3[a2*CW +: CW] != a3) flags_fn[4] = 1'b0;   // lead3_q[lead2_q[x]] == lead3_q[x]
      end
    end
  endfunction

`endif

  // The flags, kept incrementally. bad<j>_q[x] says CPU x breaks property j (0: P1 well
  // formed at x, lead1_q[x] <= x and lead1_q[lead1_q[x]] == lead1_q[x]; 1, 2: the same for P2, P3;
  // 3: lead2_q[lead1_q[x]] == lead2_q[x]; 4: lead3_q[lead2_q[x]] == lead3_q[x]); a flag is the NOR of its
  // bits. A DOM_SET writing v at (k, c) can change only the bits of x = c and of the x whose
  // looked-up entry is c (lead[k][x] == c, or lead1_q[x] == c for property 3 and lead2_q[x] == c
  // for property 4 when k is the outer table); for those the new bit needs v and at most a
  // few lookups at v or c, not one per CPU. The simulation checks every update against
  // flags_fn. Reset: lead[k][x] = x, every property holds.
  wire [CW-1:0] t1v [0:NR_CPUS-1];   // array views: lead<k>[x]
  wire [CW-1:0] t2v [0:NR_CPUS-1];
  wire [CW-1:0] t3v [0:NR_CPUS-1];
  genvar gt;
  generate
    for (gt = 0; gt < NR_CPUS; gt = gt + 1) begin : g_tv
      assign t1v[gt] = lead1_q[gt*CW +: CW];
      assign t2v[gt] = lead2_q[gt*CW +: CW];
      assign t3v[gt] = lead3_q[gt*CW +: CW];
    end
  endgenerate
  wire [1:0]    set_kk  = set_k_i[1:0];
  wire [CW-1:0] n1_v    = t1v[set_v];
  wire [CW-1:0] n2_v    = t2v[set_v];
  wire [CW-1:0] n3_v    = t3v[set_v];
  wire [CW-1:0] n1_c    = t1v[set_c];
  wire [CW-1:0] n2_c    = t2v[set_c];
  wire [CW-1:0] n2_n1c  = t2v[n1_c];
  wire [CW-1:0] n3_n2c  = t3v[n2_c];
  wire [CW-1:0] nk_v    = (set_kk == 2'd1) ? n1_v : (set_kk == 2'd2) ? n2_v : n3_v;
  // property k of x = c after the write: v <= c and lead[k]'[v] == v
  wire          wf_c    = (set_v > set_c) || (((set_v == set_c) ? set_v : nk_v) != set_v);
  // property 3 (k = 1 or 2) and 4 (k = 2 or 3) of x = c after the write
  wire          p3_c    = (set_kk == 2'd1) ? (n2_v != n2_c)
                                           : (((n1_c == set_c) ? set_v : n2_n1c) != set_v);
  wire          p4_c    = (set_kk == 2'd2) ? (n3_v != t3v[set_c])
                                           : (((n2_c == set_c) ? set_v : n3_n2c) != set_v);
  reg  [NR_CPUS-1:0] bad0_q, bad1_q, bad2_q, bad3_q, bad4_q;
  reg  [NR_CPUS-1:0] bad0_d, bad1_d, bad2_d, bad3_d, bad4_d;
  integer bx;
  always @* begin
    bad0_d = bad0_q;  bad1_d = bad1_q;  bad2_d = bad2_q;
    bad3_d = bad3_q;  bad4_d = bad4_q;
    for (bx = 0; bx < NR_CPUS; bx = bx + 1) begin
      if (bx[CW-1:0] == set_c) begin
        if (set_kk == 2'd1) bad0_d[bx] = wf_c;
        if (set_kk == 2'd2) bad1_d[bx] = wf_c;
        if (set_kk == 2'd3) bad2_d[bx] = wf_c;
        if (set_kk != 2'd3) bad3_d[bx] = p3_c;
        if (set_kk != 2'd1) bad4_d[bx] = p4_c;
      end else begin
        // x's own entry is unchanged; the entry it looks up is c's
        if ((set_kk == 2'd1) && (t1v[bx] == set_c))
          bad0_d[bx] = (set_c > bx[CW-1:0]) || (set_v != set_c);
        if ((set_kk == 2'd2) && (t2v[bx] == set_c))
          bad1_d[bx] = (set_c > bx[CW-1:0]) || (set_v != set_c);
        if ((set_kk == 2'd3) && (t3v[bx] == set_c))
          bad2_d[bx] = (set_c > bx[CW-1:0]) || (set_v != set_c);
        if ((set_kk == 2'd2) && (t1v[bx] == set_c)) bad3_d[bx] = (set_v != t2v[bx]);
        if ((set_kk == 2'd3) && (t2v[bx] == set_c)) bad4_d[bx] = (set_v != t3v[bx]);
      end
    end
  end
  wire [4:0] ok_d = {~|bad4_d, ~|bad3_d, ~|bad2_d, ~|bad1_d, ~|bad0_d};

  // Registered at a DOM_SET edge that writes a leader, so a QUERY issued back to back sees
  // the new table.
  reg [4:0] ok_q;
  always @(posedge clk_i) begin
    if (srst_i) begin
      ok_q   <= 5'b11111;
      bad0_q <= {NR_CPUS{1'b0}};  bad1_q <= {NR_CPUS{1'b0}};  bad2_q <= {NR_CPUS{1'b0}};
      bad3_q <= {NR_CPUS{1'b0}};  bad4_q <= {NR_CPUS{1'b0}};
    end else if (set_lead) begin
      ok_q   <= ok_d;
      bad0_q <= bad0_d;  bad1_q <= bad1_d;  bad2_q <= bad2_d;
      bad3_q <= bad3_d;  bad4_q <= bad4_d;
    end
  end
`ifndef SYNTHESIS
`ifndef FORMAL   // ($fatal in an always block: simulation only)
  // (The recomputation under its own if: a simulator evaluates the operands of && eagerly,
  // and this one is a loop over the CPUs.)
  always @(posedge clk_i) begin
    if (!srst_i && set_lead) begin
      if (ok_d != flags_fn(lead1_q, lead2_q, lead3_q, set_kk, set_c, set_v)) begin
        $display("hws_domain: INVARIANT FAILED at %0t: DOM_SET k %0d cpu %0d leader %0d: incremental flags %b, recomputed %b",
                 $time, set_kk, set_c, set_v, ok_d, flags_fn(lead1_q, lead2_q, lead3_q, set_kk, set_c, set_v));
        $fatal(1, "hws_domain: consistency flags");
      end
    end
  end
`endif
`endif

  // DOMAIN check of a QUERY at level l: Pl and P(l+1) where stored (k in 1..3), their
  // nesting when both are stored, and P1 for IDLE_CORE (BALANCE checks what IDLEST does).
  wire core = (q_kind_i == 2'd1);
  reg  bad;
  always @* begin
    case (q_level_i)
      2'd0:    bad = !ok_q[0];
      2'd1:    bad = !(ok_q[0] && ok_q[1] && ok_q[3]);
      2'd2:    bad = !(ok_q[1] && ok_q[2] && ok_q[4]) || (core && !ok_q[0]);
      default: bad = !ok_q[2] || (core && !ok_q[0]);
    endcase
  end
  assign q_bad_o = bad;
  assign q_ok_o  = ok_q;

  // ---------------------------------------------------------------------------------------
  // The answer of QUERY(c, level l, kind), from a consistent table, in two parts so that no
  // path runs from the command word to the answer: at the edge ending step 1 the domain
  // (one bit per CPU) is latched; in step 2 the answer is computed from it and pushed.
  // Nothing else executes between the two, so the loads, idle flags and table it reads in
  // step 2 are those of step 1.
  //   domain of c: x with block(l+1, x) == block(l+1, c); block(k, x) = lead[k][x], block(4, x) = 0
  //   IDLEST:    least load, c on a tie with it, else the lowest CPU number
  //   IDLE_CORE: scanning c, c+1, .., NR_CPUS-1, 0, .., c-1 (first x >= c, else first x):
  //              the first idle x whose core (P1 block, within the domain) is all idle,
  //              else the first idle x, else NONE
  function automatic [NR_CPUS-1:0] dom_fn(input [NR_CPUS*CW-1:0] t1, input [NR_CPUS*CW-1:0] t2,
                                          input [NR_CPUS*CW-1:0] t3, input [CW-1:0] c,
                                          input [1:0] l);
    reg [NR_CPUS*CW-1:0] tb;                      // block(l+1, x) of every x
    integer              x;
    begin
      case (l)
        2'd0:    tb = t1;
        2'd1:    tb = t2;
        2'd2:    tb = t3;
        default: tb = {NR_CPUS*CW{1'b0}};
      endcase
      for (x = 0; x < NR_CPUS; x = x + 1)
        dom_fn[x] = (tb[x*CW +: CW] == tb[c*CW +: CW]);
    end
  endfunction

  // IDLEST as a comparison tree (log2 NR_CPUS levels, not a chain of NR_CPUS): key
  // {not in the domain, load, x != c}, the smaller key wins, the lower CPU on equal keys.
  // So the least load wins, c among equals, else the lowest CPU: the rule above. The tree
  // is split over the two steps: step 1 computes the domain and folds the first S1 levels
  // (the loads are final in step 1: the command before has completed), the edge ending it
  // latches the N1 survivors, step 2 picks the least of them by all pairwise comparisons
  // (idlest2_fn). The order of the entries is kept, so the lower CPU still wins a tie.
  localparam integer LG  = (NR_CPUS > 1) ? $clog2(NR_CPUS) : 1;
  localparam integer NP2 = 1 << LG;
  localparam integer KW  = LOAD_W + 2;
  localparam integer S1  = LG / 2;          // tree levels folded in step 1
  localparam integer N1  = NP2 >> S1;       // entries latched at the end of step 1
  // Fold the first LV levels of a tree of N entries, in place (entry i is read before it
  // is written; constant loop bounds for Yosys): entries 0 .. (N >> LV) - 1 are the result.
  function automatic [NP2*(KW+CW)-1:0] fold_fn(input [NP2*KW-1:0] key_i,
                                               input [NP2*CW-1:0] idx_i,
                                               input integer n, input integer nlv);
    reg [NP2*KW-1:0] key;
    reg [NP2*CW-1:0] idx;
    reg [KW-1:0]     ka, kb;
    integer          lv, i;
    begin
      key = key_i;
      idx = idx_i;
      for (lv = 0; lv < LG; lv = lv + 1) begin
        for (i = 0; i < NP2 / 2; i = i + 1) begin
          if (lv < nlv && i < (n >> (lv + 1))) begin
            ka = key[(2*i)*KW +: KW];
            kb = key[(2*i+1)*KW +: KW];
            if (kb < ka) begin
              key[i*KW +: KW] = kb;
              idx[i*CW +: CW] = idx[(2*i+1)*CW +: CW];
            end else begin
              key[i*KW +: KW] = ka;
              idx[i*CW +: CW] = idx[(2*i)*CW +: CW];
            end
          end
        end
      end
      fold_fn = {key, idx};
    end
  endfunction
  // Step 1: the keys of every CPU, folded S1 levels: {keys, indices} of N1 entries.
  function automatic [N1*(KW+CW)-1:0] idlest1_fn(input [NR_CPUS-1:0] dm,
                                                 input [NR_CPUS*LOAD_W-1:0] lds,
                                                 input [CW-1:0] c);
    reg [NP2*KW-1:0] key;
    reg [NP2*CW-1:0] idx;
    integer          x;
    begin
      for (x = 0; x < NP2; x = x + 1) begin
        if (x < NR_CPUS)
          key[x*KW +: KW] = {!dm[x], lds[x*LOAD_W +: LOAD_W], (x[CW-1:0] != c)};
        else
          key[x*KW +: KW] = {KW{1'b1}};
        idx[x*CW +: CW] = x[CW-1:0];
      end
      {key, idx} = fold_fn(key, idx, NP2, S1);
      idlest1_fn = {key[0 +: N1*KW], idx[0 +: N1*CW]};
    end
  endfunction
  // Step 2: the least of the N1 latched entries, by all pairwise comparisons at once (one
  // comparator deep instead of log2 N1): entry i wins when its key is below every earlier
  // entry's and not above any later one's (the lower entry, hence the lower CPU, wins a tie).
  function automatic [CW-1:0] idlest2_fn(input [N1*KW-1:0] k1, input [N1*CW-1:0] i1);
    reg [N1*N1-1:0] bl;                     // bl[a*N1 + b], a < b: key b < key a
    reg             win;
    integer         i, j;
    begin
      bl = {N1*N1{1'b0}};
      for (i = 0; i < N1; i = i + 1)
        for (j = 0; j < N1; j = j + 1)
          if (i < j) bl[i*N1 + j] = (k1[j*KW +: KW] < k1[i*KW +: KW]);
      idlest2_fn = {CW{1'b0}};
      for (i = 0; i < N1; i = i + 1) begin
        win = 1'b1;
        for (j = 0; j < N1; j = j + 1) begin
          if (j < i && !bl[j*N1 + i]) win = 1'b0;   // i must be below every earlier entry
          if (j > i && bl[i*N1 + j])  win = 1'b0;   // and no later entry below i
        end
        if (win) idlest2_fn = idlest2_fn | i1[i*CW +: CW];
      end
    end
  endfunction

  // IDLE_CORE, step 2: its candidates (idle CPUs of the domain) and, among them, those
  // whose whole core is idle (no busy CPU of the domain on it), each also masked to the CPUs
  // at or after c: {whole >= c, cand >= c, whole, cand}.
  function automatic [4*NR_CPUS-1:0] core_fn(input [NR_CPUS-1:0] dom,
                                            input [NR_CPUS*CW-1:0] t1,
                                            input [NR_CPUS-1:0] idl, input [CW-1:0] c);
    reg [NR_CPUS-1:0]    busy_core;               // busy_core[b]: core b has a busy CPU in the domain
    reg [NR_CPUS-1:0]    cand, whole, ge;
    integer              x;
    begin
      busy_core = {NR_CPUS{1'b0}};
      for (x = 0; x < NR_CPUS; x = x + 1)
        if (dom[x] && !idl[x]) busy_core[t1[x*CW +: CW]] = 1'b1;
      for (x = 0; x < NR_CPUS; x = x + 1) begin
        cand[x]  = dom[x] && idl[x];
        whole[x] = cand[x] && !busy_core[t1[x*CW +: CW]];
        ge[x]    = (x[CW-1:0] >= c);
      end
      core_fn = {whole & ge, cand & ge, whole, cand};
    end
  endfunction

  // Step 3: the answer, from step 2's registered IDLEST winner and IDLE_CORE sets.
  function automatic [31:0] answer_fn(input [4*NR_CPUS-1:0] sets, input [CW-1:0] idlest,
                                      input kind);
    reg [CW-1:0]         xc, hi_w, lo_w, hi_i, lo_i;
    reg [NR_CPUS-1:0]    whole_hi, cand_hi, whole, cand;
    reg                  f_hi_w, f_lo_w, f_hi_i, f_lo_i;
    reg [5:0]            r_cpu;
    integer              x;
    begin
      {whole_hi, cand_hi, whole, cand} = sets;
      // IDLE_CORE: the first candidate at or after c (hi), else the first one (lo)
      f_hi_w = 1'b0;  f_lo_w = 1'b0;  f_hi_i = 1'b0;  f_lo_i = 1'b0;
      hi_w = {CW{1'b0}};  lo_w = {CW{1'b0}};  hi_i = {CW{1'b0}};  lo_i = {CW{1'b0}};
      for (x = 0; x < NR_CPUS; x = x + 1) begin
        xc    = x[CW-1:0];
        if (whole[x] && !f_lo_w) begin f_lo_w = 1'b1; lo_w = xc; end
        if (whole_hi[x] && !f_hi_w) begin f_hi_w = 1'b1; hi_w = xc; end
        if (cand[x] && !f_lo_i) begin f_lo_i = 1'b1; lo_i = xc; end
        if (cand_hi[x] && !f_hi_i) begin f_hi_i = 1'b1; hi_i = xc; end
      end
      answer_fn = 32'd0;
      r_cpu = 6'd0;
      if (!kind) begin
        r_cpu[CW-1:0] = idlest;
      end else if (f_lo_w) begin
        r_cpu[CW-1:0] = f_hi_w ? hi_w : lo_w;
        answer_fn[HWS_QRES_WHOLE_CORE_LSB] = 1'b1;
      end else if (f_lo_i) begin
        r_cpu[CW-1:0] = f_hi_i ? hi_i : lo_i;
      end else begin
        answer_fn[HWS_QRES_NONE_LSB] = 1'b1;
      end
      answer_fn[HWS_QRES_CPU_LSB +: HWS_QRES_CPU_W] = r_cpu;
    end
  endfunction

  // The domain, c and the kind, latched at the edge ending step 1; qv_q marks step 2 and
  // qv2_q step 3 (the query logic is only evaluated then, which also keeps Verilator from
  // evaluating it in every cycle that changes a load).
  // IDLEST's first tree levels are latched with them (ik_q, ii_q); step 2 latches IDLEST's
  // winner (iw_q) and IDLE_CORE's candidate sets (sets_q); step 3 answers from those.
  reg [NR_CPUS-1:0] dom_q;
  reg [CW-1:0]      qc_q, iw_q;
  reg               qcore_q, qv_q, qv2_q;
  reg [N1*KW-1:0]   ik_q;
  reg [N1*CW-1:0]   ii_q;
  reg [4*NR_CPUS-1:0] sets_q;
  always @(posedge clk_i) begin
    qv_q  <= q_go_i && !q_kind_i[1];
    qv2_q <= qv_q;
    if (qv_q) begin
      iw_q   <= idlest2_fn(ik_q, ii_q);
      sets_q <= core_fn(dom_q, lead1_q, idle_i, qc_q);
    end
    if (q_go_i && !q_kind_i[1]) begin
      dom_q   <= dom_fn(lead1_q, lead2_q, lead3_q, q_cpu_i[CW-1:0], q_level_i);
      qc_q    <= q_cpu_i[CW-1:0];
      qcore_q <= q_kind_i[0];
      {ik_q, ii_q} <= idlest1_fn(dom_fn(lead1_q, lead2_q, lead3_q, q_cpu_i[CW-1:0], q_level_i),
                                 load_i, q_cpu_i[CW-1:0]);
    end
  end
  reg [31:0] res_w;
  always @* begin
    res_w = 32'd0;
    if (qv2_q) res_w = answer_fn(sets_q, iw_q, qcore_q);
  end

  // ---------------------------------------------------------------------------------------
  // BALANCE (section 8.2), with the powers and imbalance_pct it reads
  wire [31:0] bal_res;
  generate
    if (LCU_BALANCE != 0 && LCU_LEAN != 0) begin : g_lean
      hws_balance_lean #(.NR_CPUS(NR_CPUS), .LOAD_W(LOAD_W)) u_bal (
        .clk_i(clk_i), .srst_i(srst_i),
        .pct_we_i(set_i && (set_k_i == 3'd0)), .pct_lvl_i(set_data_i[11:10]),
        .pct_i(set_data_i[7:0]),
        .pw_we_i(set_i && set_k_i[2]), .pw_lvl_i(set_k_i[1:0]), .pw_cpu_i(set_cpu_i),
        .pw_i(set_data_i),
        .lead1_i(lead1_q), .lead2_i(lead2_q), .lead3_i(lead3_q),
        .lset_i(set_lead), .lset_k_i(set_k_i[1:0]), .lset_cpu_i(set_c), .lset_v_i(set_v),
        .upd_i(upd_i), .upd_cpu_i(upd_cpu_i[CW-1:0]), .upd_now_old_i(upd_now_old_i),
        .upd_now_new_i(upd_now_new_i), .upd_h_old_i(upd_h_old_i), .upd_h_new_i(upd_h_new_i),
        .go_i(q_go_i && q_kind_i[1]), .cpu_i(q_cpu_i), .level_i(q_level_i), .now_only_i(q_now_i),
        .load_i(load_i), .hist_i(hist_i),
        .done_o(q_done_o), .res_o(bal_res), .regs_o(bal_regs_o)
      );
    end else if (LCU_BALANCE != 0) begin : g_bal
      hws_balance #(.NR_CPUS(NR_CPUS), .LOAD_W(LOAD_W), .BAL_LANES(BAL_LANES)) u_bal (
        .clk_i(clk_i), .srst_i(srst_i),
        .pct_we_i(set_i && (set_k_i == 3'd0)), .pct_lvl_i(set_data_i[11:10]),
        .pct_i(set_data_i[7:0]),
        .pw_we_i(set_i && set_k_i[2]), .pw_lvl_i(set_k_i[1:0]), .pw_cpu_i(set_cpu_i),
        .pw_i(set_data_i),
        .lead1_i(lead1_q), .lead2_i(lead2_q), .lead3_i(lead3_q),
        .lset_i(set_lead), .lset_k_i(set_k_i[1:0]), .lset_cpu_i(set_c), .lset_v_i(set_v),
        .upd_i(upd_i), .upd_cpu_i(upd_cpu_i[CW-1:0]), .upd_now_old_i(upd_now_old_i),
        .upd_now_new_i(upd_now_new_i), .upd_h_old_i(upd_h_old_i), .upd_h_new_i(upd_h_new_i),
        .go_i(q_go_i && q_kind_i[1]), .cpu_i(q_cpu_i), .level_i(q_level_i), .now_only_i(q_now_i),
        .load_i(load_i), .hist_i(hist_i),
        .done_o(q_done_o), .res_o(bal_res), .regs_o(bal_regs_o)
      );
    end else begin : g_nobal
      // Without the unit DOM_SET still checks and accepts pct and power writes (the table
      // is the same for every build) but nothing keeps them; BALANCE never starts.
      assign q_done_o   = 1'b0;
      assign bal_res    = 32'd0;
      assign bal_regs_o = 128'd0;
      wire unused_nobal = &{1'b0, upd_i, upd_now_old_i, upd_now_new_i, upd_h_old_i, upd_h_new_i,
                            hist_i, q_now_i, set_k_i, set_lead, set_c, set_v};
    end
  endgenerate
  assign q_res_o = q_kind_i[1] ? bal_res : res_w;

  wire unused_bits = &{1'b0, set_cpu_i, set_data_i, q_cpu_i, upd_cpu_i};

  // ---------------------------------------------------------------------------------------
  // Simulation checks (cheap: only at DOM_SET and QUERY edges): every lead value written
  // is a CPU; a query's answer is a CPU of the domain.
`ifndef SYNTHESIS
`ifndef FORMAL   // ($fatal in an always block: simulation only)
  localparam [31:0] NR_CPUS32 = NR_CPUS;
  always @(posedge clk_i) begin
    if (!srst_i && set_i) begin
      if ((set_lead && ({15'd0, set_data_i} >= NR_CPUS32)) || ({26'd0, set_cpu_i} >= NR_CPUS32)) begin
        $display("hws_domain: ASSERTION FAILED at %0t: DOM_SET k %0d cpu %0d data %0d",
                 $time, set_k_i, set_cpu_i, set_data_i);
        $fatal(1, "hws_domain: DOM_SET out of range");
      end
    end
    if (!srst_i && q_go_i && ({26'd0, q_cpu_i} >= NR_CPUS32)) begin
      $display("hws_domain: ASSERTION FAILED at %0t: QUERY of cpu %0d", $time, q_cpu_i);
      $fatal(1, "hws_domain: QUERY cpu out of range");
    end
  end
`endif
`endif
endmodule

`default_nettype wire
