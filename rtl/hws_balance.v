// hws_balance: the BALANCE query of the load-comparison unit (docs/accelerator.md 8.2, 8.3),
// the state only it reads (group powers pw[l][x], imbalance_pct pct[l], and the per-block
// load sums of hws_bsum), and the trees that answer it in O(log2 NR_CPUS) cycles with a
// lane per CPU, O(NR_CPUS / BAL_LANES) with fewer lanes.
//
// BALANCE(c, level l, idle type) answers find_busiest_group + find_busiest_queue exactly as
// hws_find_busiest() of lib/hws_balance.c, over c's level-l domain (the CPUs x with
// block(l+1, x) == block(l+1, c)) whose groups are the level-l blocks in it, taken in
// increasing order of their first CPU (leader). The engine checks the command (including
// DOMAIN, so the partitions read here are consistent) and pulses go_i at the edge that ends
// the check cycle; done_o is high in the final cycle, whose edge is the completion edge.
//
// Structure: NL = BAL_LANES lanes (NR_CPUS unless the parameter says fewer), each with a
// divider and a leaf of the group-max tree; R = ceil(NR_CPUS / NL) passes, lane j serving
// in pass p the level-l group that CPU index g = jR + p leads (a g that leads no group of
// the domain, or is >= NR_CPUS, is ignored). Group sums are not added at query time:
// hws_bsum keeps, for each partition P1..P3 and each leader, the sums of the load now, the
// source load and the target load of the block's CPUs, updated at every edge that changes a
// CPU's load or history and at every DOM_SET that moves a CPU between blocks; level 0's
// groups are single CPUs, whose values are read directly; the domain totals come from the
// sums of P(l+1) (or the machine-wide sums for level 3). So every group's sum is ready at
// the go edge, and the query is a fixed schedule (cnt_q = cycle after the check cycle;
// LG = ceil(log2 NR_CPUS), LGP = max(2, LG), LGL = ceil(log2 NL), GLP = max(2, LGL),
// CD = 5R, the register map's BAL_LAT_* constants):
//   go edge          pass 0's lane dividends {sum, 10'b0}, this group's leader T, the CPUs
//                    that lead a group (lv), the masked powers (pw fold leaves), total_load
//   cnt 1..CD        pass p (cycles 5p+1..5p+5): every lane divides sum*1024 / pw[l][g]:
//                    40 quotient bits, 8 per cycle (restoring; the remainder is below the
//                    divisor >= 256 from the start); at the edge ending the pass, each lane
//                    keeps the greater of its quotient and its best so far (only a strictly
//                    greater one replaces it: a later group has a higher leader) for groups
//                    that lead a non-local group with a quotient > 0, with the leader, and
//                    this_load when g = T; and loads the next pass's dividends
//   cnt 1..LG        total_pwr: an adder tree over the CPUs' powers, one level per cycle
//   cnt LG+1..LG+5   avg_load = total_load*1024 / total_pwr, 8 quotient bits per cycle
//   cnt CD+1..CD+GLP the group-max tree over the lanes, one level per cycle (ties: the
//                    lower lane, whose groups all have lower leaders: the lowest leader, as
//                    the C's strict '>' in leader order)
//   cnt CP = CD+1+GLP (pick) max_load, the busiest leader B, this_load, pb, pt and every
//                    product the verdict needs (parallel multipliers); the leaves of the
//                    busiest-CPU tree (CPUs of B's block, their source load or load now)
//   cnt CP+1..CP+2   tmp1 = 2^20 / pb and tmp2 = min(max_load*pb, 2^20) / pt, 8 bits per
//                    cycle; the verdict at the edge ending CP+2
//   cnt CP+1..CP+LGP the busiest-CPU tree (ties: the lowest CPU)
//   cnt CF = CP+1+LGP (final) result word out, BAL_* registers written at its edge
// so a BALANCE completes CF + 1 = 8 + 5 (R - 1) + GLP + LGP edges after its pop (BAL_LAT_BASE
// + BAL_LAT_PASS (R - 1) + BAL_LAT_LEVEL (GLP + LGP); 8 + 2 max(2, ceil(log2 NR_CPUS)) with a
// lane per CPU), whatever the number of groups. The trees are folded in place (entry i
// takes entries 2i and 2i+1), so each is a register per leaf and half as many combiners,
// not a pipeline: one BALANCE runs at a time (the engine executes one command at a time).
//
// All divisions are true restoring divisions (no reciprocal): every quotient is the integer
// formula's by construction. Dividends are below 2^46 (8.3) and divisors at least 256, so
// starting from the dividend's bits 47..40 as the partial remainder, 40 steps give the
// whole quotient.
//
// Simulation cost: everything of a query is computed under its cycle's enable (clocked
// blocks, or the always @* blocks' `run` / `go_i` guards), so an edge outside a BALANCE
// costs a few compares here; an edge that changes a CPU's load or history costs a loop
// over the NR_CPUS words of each partition's sums (hws_bsum: one adder per word).
`default_nettype none

module hws_balance #(
  parameter integer NR_CPUS = 8,   // CPUs, 1..64
  parameter integer LOAD_W  = 26,  // width of a per-CPU load or history, 18..30
  parameter integer BAL_LANES = 0, // lanes (dividers and group-max leaves), 1..NR_CPUS; 0 means
                                   // NR_CPUS (one per CPU). Each lane serves
                                   // ceil(NR_CPUS / lanes) groups in turn.
  // cpu index width (derived; not to be overridden)
  parameter integer CW      = (NR_CPUS > 1) ? $clog2(NR_CPUS) : 1
) (
  input  wire                       clk_i,
  input  wire                       srst_i,     // synchronous reset: pw = 1024, pct = 125,
                                                // sums and BAL_* = 0, a BALANCE abandoned
  // DOM_SET k = 0 (checks passed): pct[pct_lvl_i] = pct_i
  input  wire                       pct_we_i,
  input  wire [1:0]                 pct_lvl_i,
  input  wire [7:0]                 pct_i,
  // DOM_SET k = 4..7 (checks passed): pw[pw_lvl_i][pw_cpu_i] = pw_i
  input  wire                       pw_we_i,
  input  wire [1:0]                 pw_lvl_i,
  input  wire [5:0]                 pw_cpu_i,   // < NR_CPUS
  input  wire [16:0]                pw_i,       // >= 256 (PWW bits)
  // The stored partitions P1..P3 (lead of CPU x at [x*CW +: CW]), consistent when go_i
  input  wire [NR_CPUS*CW-1:0]      lead1_i,
  input  wire [NR_CPUS*CW-1:0]      lead2_i,
  input  wire [NR_CPUS*CW-1:0]      lead3_i,
  // DOM_SET k = 1..3 (checks passed): lead[lset_k_i][lset_cpu_i] = lset_v_i at this edge
  input  wire                       lset_i,
  input  wire [1:0]                 lset_k_i,
  input  wire [CW-1:0]              lset_cpu_i,
  input  wire [CW-1:0]              lset_v_i,
  // CPU upd_cpu_i's load goes from n_old to n_new and its history from h_old to h_new at
  // this edge (the engine's load and history writes)
  input  wire                       upd_i,
  input  wire [CW-1:0]              upd_cpu_i,
  input  wire [LOAD_W-1:0]          upd_now_old_i,
  input  wire [LOAD_W-1:0]          upd_now_new_i,
  input  wire [LOAD_W-1:0]          upd_h_old_i,
  input  wire [LOAD_W-1:0]          upd_h_new_i,
  // BALANCE(cpu, level, idle type): go_i at the edge ending its check cycle
  input  wire                       go_i,
  input  wire [5:0]                 cpu_i,      // < NR_CPUS
  input  wire [1:0]                 level_i,
  input  wire                       now_only_i, // idle type IDLE or NEWLY_IDLE: loads now
  input  wire [NR_CPUS*LOAD_W-1:0]  load_i,     // load[x] (now) at [x*LOAD_W +: LOAD_W]
  input  wire [NR_CPUS*LOAD_W-1:0]  hist_i,     // hist[x]
  output wire                       done_o,     // the final cycle: completes at this edge
  output wire [31:0]                res_o,      // the result word, valid with done_o
  output wire [127:0]               regs_o      // {BAL_IMB, BAL_AVG, BAL_MAX, BAL_THIS}
);
  // The generated header defines every constant of the register map; this module uses some.
  /* verilator lint_off UNUSEDPARAM */
`include "hws_regs.vh"
  /* verilator lint_on UNUSEDPARAM */

  localparam integer N   = NR_CPUS;
  // Widths of the datapath (docs/accelerator.md 8.3)
  localparam integer PWW = HWS_DSET_HI_W + HWS_DSET_DATA_W;  // a group power: DOM_SET's HI:DATA
  localparam integer QW  = HWS_BAL_LAT_PASS * 8;  // a lane division's dividend bits brought
                                                 // down, then its quotient: a pass of hws_div8
  localparam integer DNW = QW + 8;   // a dividend {sum, 10'b0} < 2^46: its top 8 bits are the
                                     // first partial remainder, the QW below are brought down
  localparam [PWW-1:0] TMP1_R0 = 16;   // tmp1 = 2^20 / pb: bits 20..16 of its dividend, its
                                       // first partial remainder
  localparam integer SW  = LOAD_W + CW;        // a sum of per-CPU loads
  localparam integer AW  = SW + 2;             // a scaled load, sum * 1024 / power (>= 256)
  localparam integer DVW = PWW + CW;           // total power: up to NR_CPUS powers of PWW bits
  localparam integer NPW = 4 << CW;            // pw words, address {level, cpu}
  localparam integer LG  = (NR_CPUS > 1) ? $clog2(NR_CPUS) : 0;   // busiest-CPU tree depth
  localparam integer MLG = HWS_BAL_LAT_MIN_LG; // each tree takes at least this many cycles
  localparam integer LGP = (LG > MLG) ? LG : MLG;  // busiest-CPU tree cycles (>= 2: see CF)
  localparam integer NL  = (BAL_LANES == 0) ? NR_CPUS : BAL_LANES;  // lanes
  localparam integer R   = (N + NL - 1) / NL;  // passes: lane j serves groups jR .. jR+R-1
  localparam integer LGL = (NL > 1) ? $clog2(NL) : 0;   // group-max tree depth
  localparam integer GLP = (LGL > MLG) ? LGL : MLG;     // group-max tree cycles
  localparam integer DP  = HWS_BAL_LAT_PASS;   // cycles of one lane division (QW bits / 8)
  localparam integer CD  = DP * R;             // the last lane-divider cycle
  localparam integer CP  = CD + 1 + GLP;       // the pick cycle
  localparam integer CF  = CP + 1 + LGP;       // the final cycle
  localparam integer CNTW = (CF >= 63) ? 10 : 6;   // cycle counter width
  localparam integer PSW = (R > 1) ? $clog2(R) : 1; // pass index width

`include "hws_params.vh"
`ifndef __ICARUS__
  generate
    if (`HWS_PARAM_BAD_NR_CPUS || LOAD_W < 18 || LOAD_W > 30 || `HWS_PARAM_BAD_BAL_LANES ||
        CW != ((NR_CPUS > 1) ? $clog2(NR_CPUS) : 1)) begin : g_bad_param
      $error("hws_balance: NR_CPUS=%0d LOAD_W=%0d BAL_LANES=%0d CW=%0d (need 1..64, 18..30, 0..NR_CPUS, clog2(NR_CPUS))",
             NR_CPUS, LOAD_W, BAL_LANES, CW);
    end
    // The schedule and the register map's latency formula must agree: BAL_LAT_BASE +
    // BAL_LAT_PASS x (passes - 1) + BAL_LAT_LEVEL x (group-max tree cycles + busiest-CPU
    // tree cycles). The tmp1/tmp2 dividers (2 cycles) run under the busiest-CPU tree, and
    // avg_load (pw fold, then 5 cycles) must be ready at the pick.
    if (CF + 1 != HWS_BAL_LAT_BASE + HWS_BAL_LAT_PASS * (R - 1) +
                  HWS_BAL_LAT_LEVEL * (GLP + LGP) ||
        HWS_BAL_LAT_PASS != 5 || HWS_BAL_LAT_LEVEL != 1 || MLG < 2 ||
        LG + 5 >= CP) begin : g_bad_lat
      $error("hws_balance: BALANCE takes %0d cycles, the register map says otherwise", CF + 1);
    end
  endgenerate
`endif

  localparam integer I_AVG0 = LG + 1;
  localparam integer I_AVGE = LG + 5;
  localparam integer I_GFE  = CD + GLP;
  localparam integer I_SDE  = CP + 2;
  localparam integer I_CFE  = CP + LGP;
  localparam [CNTW-1:0] C_DIV_END = CD[CNTW-1:0];         // last lane-divider cycle
  localparam [CNTW-1:0] C_PW_END  = LG[CNTW-1:0];         // last pw-fold cycle
  localparam [CNTW-1:0] C_AVG0    = I_AVG0[CNTW-1:0];     // first avg-divider cycle
  localparam [CNTW-1:0] C_AVG_END = I_AVGE[CNTW-1:0];     // its last
  localparam [CNTW-1:0] C_GF_END  = I_GFE[CNTW-1:0];      // last group-fold cycle
  localparam [CNTW-1:0] C_PICK    = CP[CNTW-1:0];
  localparam [CNTW-1:0] C_SD_END  = I_SDE[CNTW-1:0];      // last tmp1/tmp2 divider cycle
  localparam [CNTW-1:0] C_CF_END  = I_CFE[CNTW-1:0];      // last busiest-CPU-fold cycle
  localparam [CNTW-1:0] C_FIN     = CF[CNTW-1:0];
  localparam [CNTW-1:0] C_ONE     = 1;
  localparam [AW-1:0] L8191 = 8191;
  localparam [AW-1:0] L2048 = 2048;

  // ---------------------------------------------------------------------------------------
  // pct[l]: four 8-bit words
  reg [31:0] pct_q;
  always @(posedge clk_i) begin
    if (srst_i)        pct_q <= {4{HWS_DEF_PCT[7:0]}};
    else if (pct_we_i) pct_q[pct_lvl_i*8 +: 8] <= pct_i;
  end

  // pw[l][x]: flops (every lane reads its power at once), word {level, cpu}. Every read
  // and write below selects words with constant part-selects under compares: a variable
  // part-select of a flat vector becomes a barrel shifter in Yosys.
  reg  [NPW*PWW-1:0] pw_q;
  wire [CW+1:0]     pw_wa = {pw_lvl_i, pw_cpu_i[CW-1:0]};
  integer           pwx;
  always @(posedge clk_i) begin
    if (srst_i) begin
      pw_q <= {NPW{HWS_DEF_POWER[PWW-1:0]}};
    end else if (pw_we_i) begin
      for (pwx = 0; pwx < NPW; pwx = pwx + 1)
        if (pw_wa == pwx[CW+1:0]) pw_q[pwx*PWW +: PWW] <= pw_i;
    end
  end
  // The powers of level l, lane g at [g*PWW +: PWW]
  function automatic [N*PWW-1:0] lvl_pw_fn(input [1:0] l);
    case (l)
      2'd0:    lvl_pw_fn = pw_q[(0 << CW)*PWW +: N*PWW];
      2'd1:    lvl_pw_fn = pw_q[(1 << CW)*PWW +: N*PWW];
      2'd2:    lvl_pw_fn = pw_q[(2 << CW)*PWW +: N*PWW];
      default: lvl_pw_fn = pw_q[(3 << CW)*PWW +: N*PWW];
    endcase
  endfunction

  // ---------------------------------------------------------------------------------------
  // Block sums (hws_bsum) of P1..P3, and the machine-wide sums (P4) of the load now and the
  // source load. The changes of the updated CPU's three values, and the values of a CPU a
  // DOM_SET moves, modulo 2^SW.
  function automatic [SW-1:0] ext(input [LOAD_W-1:0] v);
    ext = {{CW{1'b0}}, v};
  endfunction
  wire [LOAD_W-1:0] u_so = (upd_h_old_i < upd_now_old_i) ? upd_h_old_i : upd_now_old_i;
  wire [LOAD_W-1:0] u_to = (upd_h_old_i < upd_now_old_i) ? upd_now_old_i : upd_h_old_i;
  wire [LOAD_W-1:0] u_sn = (upd_h_new_i < upd_now_new_i) ? upd_h_new_i : upd_now_new_i;
  wire [LOAD_W-1:0] u_tn = (upd_h_new_i < upd_now_new_i) ? upd_now_new_i : upd_h_new_i;
  wire [SW-1:0]     d_now  = ext(upd_now_new_i) - ext(upd_now_old_i);
  wire [SW-1:0]     d_s  = ext(u_sn) - ext(u_so);
  wire [SW-1:0]     d_t  = ext(u_tn) - ext(u_to);
  reg  [LOAD_W-1:0] m_now, m_h;               // load and history of the moved CPU
  integer           mx;
  always @* begin
    m_now = {LOAD_W{1'b0}};
    m_h = {LOAD_W{1'b0}};
    if (lset_i) begin
      for (mx = 0; mx < N; mx = mx + 1) begin
        if (lset_cpu_i == mx[CW-1:0]) begin
          m_now = load_i[mx*LOAD_W +: LOAD_W];
          m_h = hist_i[mx*LOAD_W +: LOAD_W];
        end
      end
    end
  end
  wire [SW-1:0]     v_now  = ext(m_now);
  wire [SW-1:0]     v_s  = ext((m_h < m_now) ? m_h : m_now);
  wire [SW-1:0]     v_t  = ext((m_h < m_now) ? m_now : m_h);

  wire [N*SW-1:0] s1n, s1s, s1t, s2n, s2s, s2t, s3n, s3s, s3t;
  hws_bsum #(.NR_CPUS(N), .LOAD_W(LOAD_W)) u_s1 (
    .clk_i(clk_i), .srst_i(srst_i), .lead_i(lead1_i),
    .upd_i(upd_i), .upd_cpu_i(upd_cpu_i), .d_now_i(d_now), .d_s_i(d_s), .d_t_i(d_t),
    .mv_i(lset_i && (lset_k_i == 2'd1)), .mv_cpu_i(lset_cpu_i), .mv_v_i(lset_v_i),
    .v_now_i(v_now), .v_s_i(v_s), .v_t_i(v_t), .sn_o(s1n), .ss_o(s1s), .st_o(s1t)
  );
  hws_bsum #(.NR_CPUS(N), .LOAD_W(LOAD_W)) u_s2 (
    .clk_i(clk_i), .srst_i(srst_i), .lead_i(lead2_i),
    .upd_i(upd_i), .upd_cpu_i(upd_cpu_i), .d_now_i(d_now), .d_s_i(d_s), .d_t_i(d_t),
    .mv_i(lset_i && (lset_k_i == 2'd2)), .mv_cpu_i(lset_cpu_i), .mv_v_i(lset_v_i),
    .v_now_i(v_now), .v_s_i(v_s), .v_t_i(v_t), .sn_o(s2n), .ss_o(s2s), .st_o(s2t)
  );
  hws_bsum #(.NR_CPUS(N), .LOAD_W(LOAD_W)) u_s3 (
    .clk_i(clk_i), .srst_i(srst_i), .lead_i(lead3_i),
    .upd_i(upd_i), .upd_cpu_i(upd_cpu_i), .d_now_i(d_now), .d_s_i(d_s), .d_t_i(d_t),
    .mv_i(lset_i && (lset_k_i == 2'd3)), .mv_cpu_i(lset_cpu_i), .mv_v_i(lset_v_i),
    .v_now_i(v_now), .v_s_i(v_s), .v_t_i(v_t), .sn_o(s3n), .ss_o(s3s), .st_o(s3t)
  );
  reg [SW-1:0] s4n_q, s4s_q;
  always @(posedge clk_i) begin
    if (srst_i) begin
      s4n_q <= {SW{1'b0}};
      s4s_q <= {SW{1'b0}};
    end else if (upd_i) begin
      s4n_q <= s4n_q + d_now;
      s4s_q <= s4s_q + d_s;
    end
  end

  // ---------------------------------------------------------------------------------------
  // Registered state of one BALANCE (no reset: go_i sets what is read before written)
  reg  [CNTW-1:0]   cnt_q;                  // cycle after the check cycle, 0 = idle
  reg  [2:0]        ph_q;                   // lane phase: cycle 1..DP of the current pass
  reg  [PSW-1:0]    ps_q;                   // the current pass, 0..R-1
  reg  [1:0]        lvl_q;
  reg               now_q;
  reg  [CW-1:0]     this_ld_q;              // T, leader of the local group
  reg  [SW-1:0]     tot_q;                  // total_load
  reg  [NL*PWW-1:0]  ldr_q;                  // lane dividers: partial remainders
  reg  [NL*QW-1:0]  ldx_q;                  // ... dividend bits to bring down / quotient
  reg  [AW-1:0]     thq_q;                  // this_load, from the pass that divides T
  reg  [N*DVW-1:0]  pf_q;                   // pw fold
  reg  [DVW-1:0]    adr_q;                  // avg divider
  reg  [QW-1:0]       adx_q;
  reg  [AW-1:0]     avg_q;
  reg  [NL-1:0]     gf_v_q;                   // group-max fold: valid, quotient, leader;
  reg  [NL*AW-1:0]  gf_quo_q;                   // during the passes each lane's running max
  reg  [NL*CW-1:0]  gf_i_q;
  reg  [N-1:0]      cf_v_q;                   // busiest-CPU fold: member, load, CPU
  reg  [N*LOAD_W-1:0] cf_l_q;
  reg  [N*CW-1:0]   cf_i_q;
  reg               has_b_q;                // pick: a busiest group exists
  reg  [CW-1:0]     bus_q;                  // its leader (0 when none)
  reg  [AW-1:0]     this_q, max_q;          // this_load, max_load
  reg  [PWW-1:0]       pb_q, pt_q;             // powers of the busiest and the local group
  reg  [29:0]       pm_q, ptp_q;            // pb * min(max, 8191), pt * min(this, 8191)
  reg               imb_big_q;              // imb >= 1024
  reg  [31:0]       imb_q;                  // (uint32) imb
  reg               within_q;               // 100 * max_load <= pct * this_load
  reg  [20:0]       n2_q;                   // min(max_load * pb, 2^20)
  reg  [PWW-1:0]       sdr1_q, sdr2_q;         // tmp1, tmp2 dividers
  reg  [QW-1:0]       sdx1_q, sdx2_q;
  reg  [2:0]        verd_q;                 // the verdict, from the edge ending CP+2
  reg  [N-1:0]      lv_q;                   // lanes that lead a group of the domain

  wire run = (cnt_q != {CNTW{1'b0}});
  // The last cycle of a pass (lane divisions complete at its edge), and of the last pass
  wire pass_end = run && (cnt_q <= C_DIV_END) && (ph_q == DP[2:0]);
  wire last_end = run && (cnt_q == C_DIV_END);
  wire [N*PWW-1:0] pwl;                      // the powers of level lvl_q, lane g at [g*PWW]

  // ---------------------------------------------------------------------------------------
  // Functions of the table, evaluated only at the edges that need them. They read the
  // tables, sums and loads from the module's signals instead of taking them as arguments:
  // the simulator zeroes the arguments and locals of every inlined call at every edge.

  // Partition P0 (every CPU alone) as a table: lead of x = x.
  function automatic [N*CW-1:0] ident_fn(input integer unused_arg);
    integer x;
    begin
      ident_fn = {N*CW{1'b0}};
      for (x = 0; x < N; x = x + 1) ident_fn[x*CW +: CW] = x[CW-1:0];
      if (unused_arg != 0) ident_fn = {N*CW{1'b0}};
    end
  endfunction
  localparam [N*CW-1:0] IDENT = ident_fn(0);

  // The table of P(l) (l = 0..3).
  function automatic [N*CW-1:0] tab_fn(input [1:0] l);
    case (l)
      2'd0:    tab_fn = IDENT;
      2'd1:    tab_fn = lead1_i;
      2'd2:    tab_fn = lead2_i;
      default: tab_fn = lead3_i;
    endcase
  endfunction

  // At go: {T = leader of c's level-l block, lv = the lanes that lead a group of c's domain}
  // (the CPUs naming themselves in Pl whose P(l+1) block is c's; P4 is one block).
  function automatic [CW+N-1:0] start_fn(input [CW-1:0] c, input [1:0] l);
    reg [N*CW-1:0] tl, th;
    reg [N-1:0]    lds;
    reg [CW-1:0]   hc, tc;
    integer        x;
    begin
      tl = tab_fn(l);
      th = (l == 2'd3) ? {N*CW{1'b0}} : tab_fn(l + 2'd1);
      hc = {CW{1'b0}};
      tc = {CW{1'b0}};
      for (x = 0; x < N; x = x + 1) begin
        if (c == x[CW-1:0]) begin
          hc = th[x*CW +: CW];
          tc = tl[x*CW +: CW];
        end
      end
      lds = {N{1'b0}};
      for (x = 0; x < N; x = x + 1)
        lds[x] = (th[x*CW +: CW] == hc) && (tl[x*CW +: CW] == x[CW-1:0]);
      start_fn = {tc, lds};
    end
  endfunction

  // At go: total_load of c's level-l domain: the domain's sum of source loads (loads now for
  // the idle types), with the local group T counted by target loads instead.
  function automatic [SW-1:0] total_fn(input [CW-1:0] c, input [1:0] l, input now_only);
    reg [N*CW-1:0]   th, tl;
    reg [CW-1:0]     d, t;
    reg [SW-1:0]     base, ls, lt;
    reg [LOAD_W-1:0] n, h;
    integer          x;
    begin
      th = (l == 2'd3) ? {N*CW{1'b0}} : tab_fn(l + 2'd1);
      tl = tab_fn(l);
      d  = {CW{1'b0}};
      t  = {CW{1'b0}};
      n  = {LOAD_W{1'b0}};
      h  = {LOAD_W{1'b0}};
      for (x = 0; x < N; x = x + 1) begin
        if (c == x[CW-1:0]) begin
          d = th[x*CW +: CW];
          t = tl[x*CW +: CW];
          n = load_i[x*LOAD_W +: LOAD_W];
          h = hist_i[x*LOAD_W +: LOAD_W];
        end
      end
      base = now_only ? s4n_q : s4s_q;
      ls   = ext((h < n) ? h : n);
      lt   = ext((h < n) ? n : h);
      for (x = 0; x < N; x = x + 1) begin
        if ((l != 2'd3) && (d == x[CW-1:0]))
          base = (l == 2'd0) ? (now_only ? s1n[x*SW +: SW] : s1s[x*SW +: SW]) :
                 (l == 2'd1) ? (now_only ? s2n[x*SW +: SW] : s2s[x*SW +: SW]) :
                               (now_only ? s3n[x*SW +: SW] : s3s[x*SW +: SW]);
        if ((l != 2'd0) && (t == x[CW-1:0])) begin
          ls = (l == 2'd1) ? s1s[x*SW +: SW] : (l == 2'd2) ? s2s[x*SW +: SW] : s3s[x*SW +: SW];
          lt = (l == 2'd1) ? s1t[x*SW +: SW] : (l == 2'd2) ? s2t[x*SW +: SW] : s3t[x*SW +: SW];
        end
      end
      total_fn = now_only ? base : (base - ls + lt);
    end
  endfunction

  // At go (pass p = 0) and at the end of pass p - 1: every lane's divider, {remainders,
  // dividend bits} (the layout of {ldr_q, ldx_q}): lane j divides group g = jR + p (none
  // when g >= NR_CPUS: dividend 0); the dividend is the sum of group g times 1024; the local
  // group T sums target loads, the others source loads, the idle types loads now.
  function automatic [NL*(QW+PWW)-1:0] lanes_fn(input [CW-1:0] t, input [1:0] l, input now_only,
                                           input [PSW-1:0] p);
    reg [SW-1:0]     s;
    reg [N*SW-1:0]   sg;                    // the sum of every group g at [g*SW +: SW]
    reg [SW-1:0]     sl;
    reg [DNW-1:0]       dn;
    reg [LOAD_W-1:0] n, h;
    reg [1:0]        kd;                    // 0 now, 1 source, 2 target
    integer          g, j, r;
    begin
      lanes_fn = {NL*(QW+PWW){1'b0}};
      sg = {N*SW{1'b0}};
      for (g = 0; g < N; g = g + 1) begin
        kd = now_only ? 2'd0 : (g[CW-1:0] == t) ? 2'd2 : 2'd1;
        n  = load_i[g*LOAD_W +: LOAD_W];
        h  = hist_i[g*LOAD_W +: LOAD_W];
        case (l)
          2'd0:    s = ext((kd == 2'd0) ? n : (kd == 2'd1) ? ((h < n) ? h : n)
                                                          : ((h < n) ? n : h));
          2'd1:    s = (kd == 2'd0) ? s1n[g*SW +: SW] : (kd == 2'd1) ? s1s[g*SW +: SW]
                                                                     : s1t[g*SW +: SW];
          2'd2:    s = (kd == 2'd0) ? s2n[g*SW +: SW] : (kd == 2'd1) ? s2s[g*SW +: SW]
                                                                     : s2t[g*SW +: SW];
          default: s = (kd == 2'd0) ? s3n[g*SW +: SW] : (kd == 2'd1) ? s3s[g*SW +: SW]
                                                                     : s3t[g*SW +: SW];
        endcase
        sg[g*SW +: SW] = s;
      end
      for (j = 0; j < NL; j = j + 1) begin
        sl = {SW{1'b0}};
        for (r = 0; r < R; r = r + 1)
          if ((j * R + r < N) && (p == r[PSW-1:0]))
            sl = sg[((j * R + r < N) ? j * R + r : 0) * SW +: SW];
        dn = {DNW{1'b0}};
        dn[SW+9:0] = {sl, 10'd0};
        lanes_fn[NL*QW + j*PWW +: PWW] = {{(PWW-8){1'b0}}, dn[DNW-1:QW]};
        lanes_fn[j*QW +: QW]         = dn[QW-1:0];
      end
    end
  endfunction

  // At go: the pw fold's leaves, pw[l][g] for the lanes lv, 0 elsewhere.
  function automatic [N*DVW-1:0] pwl_fn(input [1:0] l, input [N-1:0] lv);
    reg [N*PWW-1:0] pl;
    integer        g;
    begin
      pl = lvl_pw_fn(l);
      pwl_fn = {N*DVW{1'b0}};
      for (g = 0; g < N; g = g + 1)
        if (lv[g]) pwl_fn[g*DVW +: DVW] = {{(DVW-PWW){1'b0}}, pl[g*PWW +: PWW]};
    end
  endfunction

  // At the pick edge: the busiest-CPU fold's leaves: the CPUs of block b at level l, with
  // their source load (the load now for the idle types).
  function automatic [N+N*LOAD_W-1:0] cpul_fn(input [1:0] l, input [CW-1:0] b,
                                                input now_only, input has_b);
    reg [N*CW-1:0]   tl;
    reg [LOAD_W-1:0] n, h;
    integer          x;
    begin
      tl = tab_fn(l);
      cpul_fn = {(N+N*LOAD_W){1'b0}};
      for (x = 0; x < N; x = x + 1) begin
        n = load_i[x*LOAD_W +: LOAD_W];
        h = hist_i[x*LOAD_W +: LOAD_W];
        cpul_fn[N*LOAD_W + x] = has_b && (tl[x*CW +: CW] == b);
        cpul_fn[x*LOAD_W +: LOAD_W] = (now_only || !(h < n)) ? n : h;
      end
    end
  endfunction

  localparam [N*CW-1:0] LANE_IDX = IDENT;   // the index of every leaf

  // The verdict (enum hws_balance_verdict) at the edge ending CP+2, from the registers,
  // tmp1 = 2^20 / pb with rem1 = 2^20 % pb, and rem2 = n2 % pt.
  //   pwr_now  * 1024 = pb * min(1024, max) + pt * min(1024, this)
  //   pwr_move * 1024 = [max > tmp1] pb * min(1024, max - tmp1) + pt * min(1024, this + tmp2)
  // with pb * min(1024, v) = min(pb << 10, pb * v), pb * tmp1 = 2^20 - rem1 and
  // pt * tmp2 = n2 - rem2. The clamp of max and this to 8191 in pm and ptp changes no
  // min(1024, ...) (tmp1, tmp2 <= 4096).
  function automatic [2:0] verdict_fn(input [12:0] tmp1, input [PWW-1:0] rem1,
                                      input [PWW-1:0] rem2);
    reg [26:0] pbk, ptk, a1, a2, m1, m2;
    reg [29:0] x1;
    reg [30:0] x2;
    /* verilator lint_off UNUSEDSIGNAL */
    reg [27:0] now_s, move_s;      // * 1024: only bits 27:10 are compared
    /* verilator lint_on UNUSEDSIGNAL */
    begin
      pbk = {pb_q, 10'd0};
      ptk = {pt_q, 10'd0};
      a1 = (pm_q < {3'd0, pbk}) ? pm_q[26:0] : pbk;
      a2 = (ptp_q < {3'd0, ptk}) ? ptp_q[26:0] : ptk;
      x1 = pm_q - (30'd1048576 - {13'd0, rem1});                 // pb * (max - tmp1)
      x2 = {1'b0, ptp_q} + {10'd0, n2_q} - {14'd0, rem2};        // pt * (this + tmp2)
      m1 = 27'd0;
      if (max_q > {{(AW-13){1'b0}}, tmp1})
        m1 = (x1 < {3'd0, pbk}) ? x1[26:0] : pbk;
      m2 = (x2 < {4'd0, ptk}) ? x2[26:0] : ptk;
      now_s  = {1'b0, a1} + {1'b0, a2};
      move_s = {1'b0, m1} + {1'b0, m2};
      if (!has_b_q)                      verdict_fn = 3'd1;   // NO_BUSIEST
      else if (this_q >= max_q)          verdict_fn = 3'd2;   // THIS_IS_MAX
      else if (this_q >= avg_q)          verdict_fn = 3'd3;   // THIS_ABOVE_AVG
      else if (within_q)                 verdict_fn = 3'd4;   // WITHIN_PCT
      else if (imb_big_q)                verdict_fn = 3'd6;   // MOVE
      else if (max_q - this_q >= L2048)  verdict_fn = 3'd7;   // MOVE_ONE: a gap of two tasks
      else if ({8'd0, move_s[27:10]} < {8'd0, now_s[27:10]} + 26'd128)
                                         verdict_fn = 3'd5;   // NO_GAIN
      else                               verdict_fn = 3'd7;   // MOVE_ONE: 1/8 CPU gained
    end
  endfunction

  // (uint32) of a scaled load
  function automatic [31:0] lo32(input [AW-1:0] v);
    /* verilator lint_off UNUSEDSIGNAL */
    reg [AW+31:0] w;
    /* verilator lint_on UNUSEDSIGNAL */
    begin
      w = {32'd0, v};
      lo32 = w[31:0];
    end
  endfunction

  // ---------------------------------------------------------------------------------------
  // Datapath of one cycle (zeros outside a BALANCE, so an idle edge costs one compare):
  // divider steps, tree levels.
  assign pwl = lvl_pw_fn(lvl_q);

  reg  [NL*PWW-1:0]    ldr_d;
  reg  [NL*QW-1:0]    ldx_d;
  reg  [N*DVW-1:0]    pf_d;
  reg  [DVW-1:0]      adr_d;
  reg  [QW-1:0]         adx_d;
  reg  [NL-1:0]       gf_v_d;
  reg  [N-1:0]        cf_v_d;
  reg  [NL*AW-1:0]    gf_quo_d;
  reg  [NL*CW-1:0]    gf_i_d;
  reg  [N*CW-1:0]     cf_i_d;
  reg  [AW-1:0]       thq_d;
  reg  [N*LOAD_W-1:0] cf_l_d;
  reg  [PWW-1:0]         sdr1_d, sdr2_d;
  reg  [QW-1:0]         sdx1_d, sdx2_d;
  // Each lane's group in the current pass (g = jR + ps_q): its power (the lane's divisor;
  // 1024 when g >= NR_CPUS, a lane with no group this pass), whether it exists (lge), leads a group of
  // the domain (lgl) and a group other than the local one (lgv), and g itself (lgi).
  reg  [NL*PWW-1:0]    ldd;
  reg  [NL-1:0]       lge, lgl, lgv;
  reg  [NL*CW-1:0]    lgi;
  integer             lj, lr, lg_;
  always @* begin
    ldd = {NL{HWS_DEF_POWER[PWW-1:0]}};
    lge = {NL{1'b0}};
    lgl = {NL{1'b0}};
    lgv = {NL{1'b0}};
    lgi = {NL*CW{1'b0}};
    lg_ = 0;
    if (run) begin
      for (lj = 0; lj < NL; lj = lj + 1) begin
        for (lr = 0; lr < R; lr = lr + 1) begin
          lg_ = (lj * R + lr < N) ? lj * R + lr : 0;
          if ((lj * R + lr < N) && (ps_q == lr[PSW-1:0])) begin
            ldd[lj*PWW +: PWW] = pwl[lg_*PWW +: PWW];
            lge[lj]          = 1'b1;
            lgl[lj]          = lv_q[lg_];
            lgv[lj]          = lv_q[lg_] && (lg_[CW-1:0] != this_ld_q);
            lgi[lj*CW +: CW] = lg_[CW-1:0];
          end
        end
      end
    end
  end
  // The dividers, one hws_div8 each: the lanes (cnt 1..DP*R, DP cycles per pass) from
  // their registers, avg (cnt LG+1..LG+5) from {total_load, 10'b0} / total_pwr, tmp1 =
  // 2^20 / pb and tmp2 = n2 / pt (cnt CP+1..CP+2, 16 quotient bits, from bits 20..16 of the
  // dividend, which are below 256 <= the divisor).
  // Each divider's and fold's outputs are used in its cycles only (en_i, don't-care
  // outside them: hws_div8): the lanes while they divide, avg in its five cycles, tmp1 and
  // tmp2 in theirs, the group-max fold after the last pass, the busiest-CPU fold after pick.
  wire en_lane = run && (cnt_q <= C_DIV_END);
  wire en_avg  = run && (cnt_q >= C_AVG0) && (cnt_q <= C_AVG_END);
  wire en_sd   = run && (cnt_q > C_PICK) && (cnt_q <= C_SD_END);
  wire en_gm   = run && (cnt_q > C_DIV_END) && (cnt_q <= C_GF_END);
  wire en_cm   = run && (cnt_q > C_PICK) && (cnt_q <= C_CF_END);
  wire [NL*PWW-1:0]    ldr_st;
  wire [NL*QW-1:0]    ldx_st;
  genvar              gv;
  generate
    for (gv = 0; gv < NL; gv = gv + 1) begin : g_lane_div
      hws_div8 #(.DW(PWW), .XW(QW)) u_div (
        .en_i(en_lane), .r_i(ldr_q[gv*PWW +: PWW]), .x_i(ldx_q[gv*QW +: QW]), .d_i(ldd[gv*PWW +: PWW]),
        .r_o(ldr_st[gv*PWW +: PWW]), .x_o(ldx_st[gv*QW +: QW]));
    end
  endgenerate
  wire [DNW-1:0]         a_dn = {{(DNW - 10 - SW){1'b0}}, tot_q, 10'd0};
  wire                a_first = (cnt_q == C_AVG0);
  wire [DVW-1:0]      adr_st;
  wire [QW-1:0]         adx_st;
  hws_div8 #(.DW(DVW), .XW(QW)) u_avg_div (
    .en_i(en_avg), .r_i(a_first ? {{(DVW-8){1'b0}}, a_dn[DNW-1:QW]} : adr_q), .x_i(a_first ? a_dn[QW-1:0] : adx_q),
    .d_i(pf_q[0 +: DVW]), .r_o(adr_st), .x_o(adx_st));
  wire                s_first = (cnt_q == C_PICK + C_ONE);
  wire [PWW-1:0]         sdr1_st, sdr2_st;
  wire [QW-1:0]         sdx1_st, sdx2_st;
  hws_div8 #(.DW(PWW), .XW(QW)) u_tmp1_div (
    .en_i(en_sd), .r_i(s_first ? TMP1_R0 : sdr1_q), .x_i(s_first ? {QW{1'b0}} : sdx1_q), .d_i(pb_q),
    .r_o(sdr1_st), .x_o(sdx1_st));
  hws_div8 #(.DW(PWW), .XW(QW)) u_tmp2_div (
    .en_i(en_sd), .r_i(s_first ? {{(PWW-5){1'b0}}, n2_q[20:16]} : sdr2_q), .x_i(s_first ? {n2_q[15:0], {(QW-16){1'b0}}} : sdx2_q),
    .d_i(pt_q), .r_o(sdr2_st), .x_o(sdx2_st));
  // One level of each argmax fold (hws_argmax, below): the group-max tree over the lanes
  // after the last pass, the busiest-CPU tree over the CPUs
  wire [NL-1:0]       gm_v;
  wire [NL*AW-1:0]    gm_quo;
  wire [NL*CW-1:0]    gm_i;
  hws_argmax #(.N(NL), .VW(AW), .IW(CW)) u_group_max (
    .en_i(en_gm), .v_i(gf_v_q), .val_i(gf_quo_q), .idx_i(gf_i_q), .v_o(gm_v), .val_o(gm_quo), .idx_o(gm_i));
  wire [N-1:0]        cm_v;
  wire [N*LOAD_W-1:0] cm_l;
  wire [N*CW-1:0]     cm_i;
  hws_argmax #(.N(N), .VW(LOAD_W), .IW(CW)) u_busiest_cpu (
    .en_i(en_cm), .v_i(cf_v_q), .val_i(cf_l_q), .idx_i(cf_i_q), .v_o(cm_v), .val_o(cm_l), .idx_o(cm_i));
  // temporaries
  reg  [2*N*DVW-1:0]  pf_in;
  reg                 tk;
  integer             g;
  always @* begin
    ldr_d = {NL*PWW{1'b0}};  ldx_d = {NL*QW{1'b0}};  pf_d = {N*DVW{1'b0}};
    adr_d = {DVW{1'b0}};   adx_d = {QW{1'b0}};
    gf_v_d = {NL{1'b0}};   gf_quo_d = {NL*AW{1'b0}};  gf_i_d = {NL*CW{1'b0}};
    thq_d = thq_q;
    cf_v_d = {N{1'b0}};    cf_l_d = {N*LOAD_W{1'b0}};  cf_i_d = {N*CW{1'b0}};
    sdr1_d = {PWW{1'b0}};  sdr2_d = {PWW{1'b0}};  sdx1_d = {QW{1'b0}};  sdx2_d = {QW{1'b0}};
    pf_in = {2*N*DVW{1'b0}};
    tk = 1'b0;
    if (run) begin
      // lane dividers (cnt 1..DP*R): eight restoring steps each (hws_div8)
      if (cnt_q <= C_DIV_END) begin
        ldr_d = ldr_st;
        ldx_d = ldx_st;
      end
      // pw fold (cnt 1..LG): entry i = entry 2i + entry 2i+1
      pf_in[N*DVW-1:0] = pf_q;
      for (g = 0; g < N; g = g + 1)
        pf_d[g*DVW +: DVW] = pf_in[2*g*DVW +: DVW] + pf_in[(2*g+1)*DVW +: DVW];
      adr_d = adr_st;
      adx_d = adx_st;
      // group-max fold: at the end of every pass each lane keeps the greatest quotient of
      // its groups so far (a later group, a higher leader, only when strictly greater: the
      // first pass sets it), a valid one leading a non-local group with a quotient > 0;
      // after the last pass, one level per cycle over the lanes. An entry takes its left
      // child when that is valid and not below the right (lane j's groups all lead lane
      // j+1's, so ties go to the lowest leader, as the C's strict '>' in leader order).
      if (pass_end) begin
        for (g = 0; g < NL; g = g + 1) begin
          tk = lgv[g] && (ldx_d[g*QW +: AW] != {AW{1'b0}});
          if ((ps_q == {PSW{1'b0}}) ||
              (tk && (!gf_v_q[g] || (ldx_d[g*QW +: AW] > gf_quo_q[g*AW +: AW])))) begin
            gf_quo_d[g*AW +: AW] = ldx_d[g*QW +: AW];
            gf_v_d[g]          = tk;
            gf_i_d[g*CW +: CW] = lgi[g*CW +: CW];
          end else begin
            gf_quo_d[g*AW +: AW] = gf_quo_q[g*AW +: AW];
            gf_v_d[g]          = gf_v_q[g];
            gf_i_d[g*CW +: CW] = gf_i_q[g*CW +: CW];
          end
          // this_load: the quotient of the local group T, in the pass that divides it
          if (lge[g] && (lgi[g*CW +: CW] == this_ld_q)) thq_d = ldx_d[g*QW +: AW];
        end
        tk = 1'b0;
      end else begin
        gf_v_d   = gm_v;
        gf_quo_d = gm_quo;
        gf_i_d   = gm_i;
      end
      // busiest-CPU fold (cnt CP+1..CP+LGP), the same rule
      cf_v_d = cm_v;
      cf_l_d = cm_l;
      cf_i_d = cm_i;
      sdr1_d = sdr1_st;
      sdx1_d = sdx1_st;
      sdr2_d = sdr2_st;
      sdx2_d = sdx2_st;
    end
  end

  // ---------------------------------------------------------------------------------------
  // Sequencing and registers
  always @(posedge clk_i) begin
    if (srst_i || go_i || run)
      cnt_q <= (srst_i || (cnt_q == C_FIN)) ? {CNTW{1'b0}} : go_i ? C_ONE : cnt_q + C_ONE;
  end
  always @(posedge clk_i) begin
    if (go_i || pass_end) begin
      ph_q <= 3'd1;
      ps_q <= go_i ? {PSW{1'b0}} : ps_q + {{(PSW-1){1'b0}}, 1'b1};
    end else if (run && (cnt_q <= C_DIV_END)) begin
      ph_q <= ph_q + 3'd1;
    end
  end

  // The pick cycle's values: max_load and the busiest leader from the group fold, this_load
  // from T's pass, their powers, and their products (64 bits wide; every product fits, 8.3).
  function automatic [63:0] x64(input [AW-1:0] v);
    x64 = {{(64-AW){1'b0}}, v};
  endfunction
  function automatic [63:0] p64(input [PWW-1:0] v);
    p64 = {{(64-PWW){1'b0}}, v};
  endfunction
  function automatic [63:0] c64(input [AW-1:0] v);   // min(v, 8191)
    c64 = {51'd0, (v > L8191) ? 13'h1fff : v[12:0]};
  endfunction
  reg [AW-1:0] pk_max, pk_this, pk_dmx, pk_dth;
  reg [CW-1:0] pk_b;
  reg [PWW-1:0]   pk_pb, pk_pt;
  reg [63:0]   pk_pm, pk_ptp, pk_p5, pk_pp, pk_m100;
  integer      px;
  always @* begin
    pk_max = {AW{1'b0}};  pk_this = {AW{1'b0}};  pk_dmx = {AW{1'b0}};  pk_dth = {AW{1'b0}};
    pk_b = {CW{1'b0}};  pk_pb = {PWW{1'b0}};  pk_pt = {PWW{1'b0}};
    pk_pm = 64'd0;  pk_ptp = 64'd0;  pk_p5 = 64'd0;  pk_pp = 64'd0;  pk_m100 = 64'd0;
    if (cnt_q == C_PICK) begin
      pk_max = gf_v_q[0] ? gf_quo_q[0 +: AW] : {AW{1'b0}};
      pk_b   = gf_v_q[0] ? gf_i_q[0 +: CW] : {CW{1'b0}};
      for (px = 0; px < N; px = px + 1) begin
        if (pk_b == px[CW-1:0])      pk_pb   = pwl[px*PWW +: PWW];
        if (this_ld_q == px[CW-1:0]) pk_pt   = pwl[px*PWW +: PWW];
      end
      pk_this = thq_q;
      pk_dmx  = pk_max - avg_q;
      pk_dth  = avg_q - pk_this;
      // min(v, 8191) as 13 bits: the same value, but a 17 x 13 multiplier instead of
      // 17 x AW (synthesis cannot see that the clamp zeroes the high bits)
      pk_pm   = p64(pk_pb) * c64(pk_max);
      pk_ptp  = p64(pk_pt) * c64(pk_this);
      pk_p5   = x64((pk_dmx < pk_dth) ? pk_dmx : pk_dth) * p64((pk_pb < pk_pt) ? pk_pb : pk_pt);
      pk_pp   = {56'd0, pct_q[lvl_q*8 +: 8]} * x64(pk_this);
      pk_m100 = 64'd100 * x64(pk_max);
    end
  end

  // At go: {T, lv}
  reg [CW+N-1:0] go_st;
  always @* begin
    go_st = {(CW+N){1'b0}};
    if (go_i) go_st = start_fn(cpu_i[CW-1:0], level_i);
  end

  // The lanes' dividends: at go those of pass 0, at the end of a pass but the last those of
  // the next (R = 1: at go only). One lanes_fn, its arguments chosen first.
  wire           mid_end = (R > 1) && pass_end && !last_end;
  wire [CW-1:0]  ld_t    = go_i ? go_st[CW+N-1:N] : this_ld_q;
  wire [1:0]     ld_l    = go_i ? level_i : lvl_q;
  wire           ld_now  = go_i ? now_only_i : now_q;
  wire [PSW-1:0] ld_p    = ((R > 1) && !go_i) ? ps_q + {{(PSW-1){1'b0}}, 1'b1} : {PSW{1'b0}};

  always @(posedge clk_i) begin
    if (go_i) begin
      lvl_q <= level_i;
      now_q <= now_only_i;
      {this_ld_q, lv_q} <= go_st;
      tot_q <= total_fn(cpu_i[CW-1:0], level_i, now_only_i);
    end
    if (go_i || (run && (cnt_q <= C_PW_END)))
      pf_q  <= go_i ? pwl_fn(level_i, go_st[N-1:0]) : pf_d;
    if (go_i || (run && (cnt_q <= C_DIV_END)))
      {ldr_q, ldx_q} <= (go_i || mid_end) ? lanes_fn(ld_t, ld_l, ld_now, ld_p)
                                          : {ldr_d, ldx_d};
    if (pass_end) thq_q <= thq_d;
    if (run && (cnt_q >= C_AVG0) && (cnt_q <= C_AVG_END)) begin
      adr_q <= adr_d;
      adx_q <= adx_d;
    end
    if (run && (cnt_q == C_AVG_END)) avg_q <= adx_d[AW-1:0];
    if (pass_end || (run && (cnt_q > C_DIV_END) && (cnt_q <= C_GF_END))) begin
      gf_v_q <= gf_v_d;
      gf_quo_q <= gf_quo_d;
      gf_i_q <= gf_i_d;
    end
    if (run && (cnt_q == C_PICK)) begin
      has_b_q   <= gf_v_q[0];
      bus_q     <= pk_b;
      max_q     <= pk_max;
      this_q    <= pk_this;
      pb_q      <= pk_pb;
      pt_q      <= pk_pt;
      pm_q      <= pk_pm[29:0];
      ptp_q     <= pk_ptp[29:0];
      imb_big_q <= (pk_p5 >= 64'd1048576);
      imb_q     <= pk_p5[41:10];
      within_q  <= (pk_m100 <= pk_pp);
      n2_q      <= (pk_pm < 64'd1048576) ? pk_pm[20:0] : 21'd1048576;
    end
    if (run && (cnt_q >= C_PICK) && (cnt_q <= C_CF_END)) begin
      {cf_v_q, cf_l_q} <= (cnt_q == C_PICK) ? cpul_fn(lvl_q, pk_b, now_q, gf_v_q[0])
                                        : {cf_v_d, cf_l_d};
      cf_i_q         <= (cnt_q == C_PICK) ? LANE_IDX : cf_i_d;
    end
    if (run && (cnt_q == C_PICK + C_ONE)) begin
      sdr1_q <= sdr1_d;
      sdx1_q <= sdx1_d;
      sdr2_q <= sdr2_d;
      sdx2_q <= sdx2_d;
    end
    if (run && (cnt_q == C_SD_END))
      verd_q <= verdict_fn(sdx1_d[12:0], sdr1_d, sdr2_d);
  end

  // ---------------------------------------------------------------------------------------
  // Result and registers
  wire       has_cpu = (verd_q == 3'd6) || (verd_q == 3'd7);
  reg  [5:0] bus6, bq6, this6;
  always @* begin
    bus6 = 6'd0;
    bq6  = 6'd0;
    this6 = 6'd0;
    bus6[CW-1:0]  = bus_q;
    bq6[CW-1:0]   = has_cpu ? cf_i_q[0 +: CW] : {CW{1'b0}};
    this6[CW-1:0] = this_ld_q;
  end
  assign res_o = ({29'd0, verd_q}   << HWS_BRES_VERDICT_LSB) |
                 ({31'd0, has_b_q}  << HWS_BRES_HAS_BUSIEST_LSB) |
                 ({26'd0, bus6}     << HWS_BRES_BUSIEST_LSB) |
                 ({31'd0, has_cpu}  << HWS_BRES_HAS_CPU_LSB) |
                 ({26'd0, bq6}      << HWS_BRES_BUSIEST_CPU_LSB) |
                 ({26'd0, this6}    << HWS_BRES_THIS_LSB);
  assign done_o = (cnt_q == C_FIN);

  // BAL_THIS, BAL_MAX, BAL_AVG, BAL_IMB at [0 +: 32] .. [96 +: 32]: one register, so the
  // ports up to the register file pass it without rebuilding a vector.
  reg [127:0] bal_q;
  always @(posedge clk_i) begin
    if (srst_i) begin
      bal_q <= 128'd0;
    end else if (cnt_q == C_FIN) begin
      bal_q[0*32 +: 32] <= lo32(this_q);
      bal_q[1*32 +: 32] <= lo32(max_q);
      bal_q[2*32 +: 32] <= (verd_q >= 3'd3) ? lo32(avg_q) : 32'd0;
      bal_q[3*32 +: 32] <= (verd_q == 3'd6) ? imb_q : (verd_q == 3'd7) ? 32'd1024 : 32'd0;
    end
  end
  assign regs_o = bal_q;

  wire unused_bits = &{1'b0, cpu_i, pw_cpu_i, cf_l_d, adx_d[QW-1:AW], sdx1_d[QW-1:13],
                            sdx2_d, pk_pm[63:30], pk_ptp[63:30], pk_p5[63:42],
                            s4n_q, ldx_q, pw_q};

  // ---------------------------------------------------------------------------------------
  // Simulation checks: the quotients fit their registers (the width argument of 8.3), the
  // powers are legal, and at every BALANCE the incremental sums equal the sums of the CPUs.
`ifndef SYNTHESIS
`ifndef FORMAL   // ($fatal in an always block: simulation only)
  function automatic [SW-1:0] sum_of(input [N*CW-1:0] tl, input [CW-1:0] b, input [1:0] kd);
    reg [LOAD_W-1:0] n, h;
    integer          x;
    begin
      sum_of = {SW{1'b0}};
      for (x = 0; x < N; x = x + 1) begin
        n = load_i[x*LOAD_W +: LOAD_W];
        h = hist_i[x*LOAD_W +: LOAD_W];
        if (tl[x*CW +: CW] == b)
          sum_of = sum_of + ext((kd == 2'd0) ? n : (kd == 2'd1) ? ((h < n) ? h : n)
                                                              : ((h < n) ? n : h));
      end
    end
  endfunction
  integer cx;
  always @(posedge clk_i) begin
    if (!srst_i && go_i) begin
      for (cx = 0; cx < N; cx = cx + 1) begin
        if (s1n[cx*SW +: SW] != sum_of(lead1_i, cx[CW-1:0], 2'd0) ||
            s1s[cx*SW +: SW] != sum_of(lead1_i, cx[CW-1:0], 2'd1) ||
            s1t[cx*SW +: SW] != sum_of(lead1_i, cx[CW-1:0], 2'd2) ||
            s2n[cx*SW +: SW] != sum_of(lead2_i, cx[CW-1:0], 2'd0) ||
            s2s[cx*SW +: SW] != sum_of(lead2_i, cx[CW-1:0], 2'd1) ||
            s2t[cx*SW +: SW] != sum_of(lead2_i, cx[CW-1:0], 2'd2) ||
            s3n[cx*SW +: SW] != sum_of(lead3_i, cx[CW-1:0], 2'd0) ||
            s3s[cx*SW +: SW] != sum_of(lead3_i, cx[CW-1:0], 2'd1) ||
            s3t[cx*SW +: SW] != sum_of(lead3_i, cx[CW-1:0], 2'd2)) begin
          $display("hws_balance: ASSERTION FAILED at %0t: block sums of leader %0d stale",
                   $time, cx);
          $fatal(1, "hws_balance: block sums");
        end
      end
      if (s4n_q != sum_of({N*CW{1'b0}}, {CW{1'b0}}, 2'd0) ||
          s4s_q != sum_of({N*CW{1'b0}}, {CW{1'b0}}, 2'd1)) begin
        $display("hws_balance: ASSERTION FAILED at %0t: machine sums stale", $time);
        $fatal(1, "hws_balance: machine sums");
      end
    end
    if (!srst_i && pass_end) begin
      for (cx = 0; cx < NL; cx = cx + 1) begin
        if (lgl[cx] && (ldx_d[cx*QW + AW +: QW - AW] != {(QW-AW){1'b0}})) begin
          $display("hws_balance: ASSERTION FAILED at %0t: lane %0d (group %0d) quotient wider than %0d bits",
                   $time, cx, lgi[cx*CW +: CW], AW);
          $fatal(1, "hws_balance: quotient overflow");
        end
      end
    end
    if (!srst_i && run && (cnt_q == C_AVG_END) && (adx_d[QW-1:AW] != {(QW-AW){1'b0}})) begin
      $display("hws_balance: ASSERTION FAILED at %0t: avg_load wider than %0d bits", $time, AW);
      $fatal(1, "hws_balance: quotient overflow");
    end
    if (!srst_i && pw_we_i && (pw_i < HWS_MIN_POWER[PWW-1:0])) begin
      $display("hws_balance: ASSERTION FAILED at %0t: power %0d written", $time, pw_i);
      $fatal(1, "hws_balance: power below MIN_POWER");
    end
  end
`endif
`endif
`ifdef FORMAL
  // ---------------------------------------------------------------------------------------
  // Formal properties (docs/formal.md, proofs bal_*). Not with HWS_F_ENGINE (a proof of the
  // engine around this unit would have to prove the environment below, not assume it).
  // The environment (the engine's contract, assumed in both modes): a go only while no
  // BALANCE runs, naming a CPU below NR_CPUS; from the go edge to the final cycle no load,
  // history, leader, power or pct write, and load_i, hist_i, lead*_i stable (the engine
  // executes one command at a time).
  // Two modes:
  // - default (proofs bal_proto_*): reset in the first cycle, every input else free. The
  //   protocol: done_o exactly once per go, at the latency of the register map
  //   (BAL_LAT_BASE + BAL_LAT_PASS (R - 1) + BAL_LAT_LEVEL (max(2, lg L) + max(2, lg N))
  //   cycles from the pop, computed here from the parameters), never outside a query or in
  //   the cycle after a reset; BAL_* change only at the edge ending the final cycle (reset
  //   aside); pw and pct change only by their writes, each word to the value written.
  // - HWS_F_BAL_REF (proofs bal_ref_*): the reference. No reset; the go in the first cycle,
  //   from any idle state whose stored values are legal (assumed at the go: every power
  //   >= 256, every pct >= 100, partitions Pl and P(l+1) as the DOMAIN check leaves them,
  //   every block sum of hws_bsum the sum of its CPUs' values, as the simulation check
  //   asserts); loads, histories, partitions, powers, pct and the query free. At the final
  //   cycle the result word, and at the next edge BAL_*, equal find_busiest_group's and
  //   find_busiest_queue's rules (hws_find_busiest() of lib/hws_balance.c) computed here
  //   from those inputs, independently of the datapath: sums over the CPUs, divisions by the
  //   operator, the C's verdict chain and move_one_pays in full width. Intermediate values
  //   (each lane's quotient, avg_load, the pick) are asserted too, which localises a bug.

`ifndef HWS_F_ENGINE
`ifndef HWS_F_BAL_REF
`define HWS_F_RESET srst_i
`endif
`include "hws_formal_env.vh"
  // The documented latency, from the parameters (docs/accelerator.md 8.2)
  localparam integer F_LGL = (NL > 1) ? $clog2(NL) : 0;
  localparam integer F_LGN = (N > 1) ? $clog2(N) : 0;
  localparam integer F_LAT = 8 + 5 * (((N + NL - 1) / NL) - 1) + ((F_LGL > 2) ? F_LGL : 2) +
                             ((F_LGN > 2) ? F_LGN : 2);
  localparam integer F_FIN32 = F_LAT - 1;  // the final cycle, counted from the go edge (the
  localparam [10:0]  F_FIN = F_FIN32[10:0]; // pop and the check cycle come before it)

  // Environment
  always @(*) begin
    if (go_i) assume (!run && ({26'd0, cpu_i} < N));
    if (go_i || run) assume (!upd_i && !lset_i && !pw_we_i && !pct_we_i);
  end
  // (stable: equal to their values at the go edge, latched; assumed in the cycle itself, so
  // that what the cycle computes from them is constrained)
  reg [NR_CPUS*LOAD_W-1:0] f_load, f_hist;
  reg [NR_CPUS*CW-1:0]     f_lead1, f_lead2, f_lead3;
  always @(posedge clk_i) begin
    if (go_i) begin
      f_load  <= load_i;
      f_hist  <= hist_i;
      f_lead1 <= lead1_i;
      f_lead2 <= lead2_i;
      f_lead3 <= lead3_i;
    end
  end
  always @(*) begin
    if (f_past_valid && run)
      assume ((load_i == f_load) && (hist_i == f_hist) && (lead1_i == f_lead1) &&
              (lead2_i == f_lead2) && (lead3_i == f_lead3));
  end

  reg [10:0]   f_age;   // the cycle of the query in flight (1 = the cycle after the go edge)

`ifndef HWS_F_BAL_REF
  // ---- Protocol. f_busy: a query in flight.
  reg          f_busy;
  wire         f_unused = &{1'b0, lgl};   // (read by the reference and the simulation checks)
  initial f_busy = 1'b0;
  initial f_age = 11'd0;
  always @(posedge clk_i) begin
    if (srst_i || (f_busy && done_o)) begin
      f_busy <= 1'b0;
      f_age  <= 11'd0;
    end else if (go_i) begin
      f_busy <= 1'b1;
      f_age  <= 11'd1;
    end else if (f_busy) begin
      f_age  <= f_age + 11'd1;
    end
  end
  integer fw;
  always @(*) begin
    if (f_past_valid) begin
      // exactly once, at the documented latency: done_o in cycle F_LAT - 1 after the go
      // edge and in no other cycle
      assert (done_o == (f_busy && (f_age == F_FIN)));
      assert (!f_busy || ((f_age >= 11'd1) && (f_age <= F_FIN)));
      // the counter behind it (auxiliary, for the induction)
      assert (run == f_busy);
      assert (!f_busy || ({{(11-CNTW){1'b0}}, cnt_q} == f_age));
    end
  end
  always @(posedge clk_i) begin
    if (f_past_valid) begin
      if ($past(srst_i)) begin
        assert (!done_o);
        assert (regs_o == 128'd0);
        assert (pct_q == {4{HWS_DEF_PCT[7:0]}});
        assert (pw_q == {NPW{HWS_DEF_POWER[PWW-1:0]}});
      end else begin
        // BAL_* change only at the edge ending the final cycle
        if (!$past(done_o)) assert (regs_o == $past(regs_o));
        // pct and pw: only their writes change them, each to the value written
        for (fw = 0; fw < 4; fw = fw + 1)
          assert (pct_q[fw*8 +: 8] == (($past(pct_we_i) && ($past(pct_lvl_i) == fw[1:0])) ?
                                       $past(pct_i) : $past(pct_q[fw*8 +: 8])));
        for (fw = 0; fw < NPW; fw = fw + 1)
          assert (pw_q[fw*PWW +: PWW] ==
                  (($past(pw_we_i) && ({$past(pw_lvl_i), $past(pw_cpu_i[CW-1:0])} == fw[CW+1:0])) ?
                   $past(pw_i) : $past(pw_q[fw*PWW +: PWW])));
      end
    end
  end
`else
  // ---- Reference (HWS_F_BAL_REF)
  // The reference's arithmetic: the C's uint64_t, here as wide as its largest value (a
  // quotient of AW bits times a power, 8.3) plus 2 bits, so nothing wraps; divisions of an
  // F_DW-bit dividend (sum * 1024, or 2^20) by an F_VW-bit divisor (a power, total_pwr)
  localparam integer F_RW = AW + PWW + 2;
  localparam integer F_DW = (SW + 10 > 21) ? SW + 10 : 21;
  localparam integer F_VW = DVW;
  localparam [F_RW-1:0] F_K100 = 100, F_K128 = 128, F_K1024 = 1024, F_K2048 = 2048,
                        F_K2P20 = 1048576;
  always @(*) begin
    assume (!srst_i);
    assume (go_i == !f_past_valid);
  end
  // the query, latched at go
  reg [CW-1:0] f_c;
  reg [1:0]    f_l;
  reg          f_nw;
  always @(posedge clk_i) begin
    if (go_i) begin
      f_c  <= cpu_i[CW-1:0];
      f_l  <= level_i;
      f_nw <= now_only_i;
    end
    f_age <= f_past_valid ? f_age + 11'd1 : 11'd1;
  end

  // The tables of the query's level l (P0 every CPU alone, P1..P3 stored) and of l + 1 (P4
  // for level 3: every CPU names 0), from the level at go (level_i) or latched (f_l)
  localparam [N*CW-1:0] F_IDENT = IDENT;   // P0, the datapath's table (ident_fn)
  reg [2:0]      fk_l;
  reg [N*CW-1:0] fk_tl, fk_th;
  reg            fk_pl, fk_ph, fk_nest;   // the DOMAIN check's rules hold for Pl, P(l+1), both
  integer        fkx, fky;
  always @(*) begin
    fk_l = {1'b0, f_past_valid ? f_l : level_i};
    case (fk_l)
      3'd0:    begin fk_tl = F_IDENT;  fk_th = lead1_i; end
      3'd1:    begin fk_tl = lead1_i;  fk_th = lead2_i; end
      3'd2:    begin fk_tl = lead2_i;  fk_th = lead3_i; end
      default: begin fk_tl = lead3_i;  fk_th = {N*CW{1'b0}}; end
    endcase
    // a stored partition: lead[x] <= x and lead[lead[x]] == lead[x]; every Pl block inside
    // one P(l+1) block
    fk_pl = 1'b1;
    fk_ph = 1'b1;
    fk_nest = 1'b1;
    for (fkx = 0; fkx < N; fkx = fkx + 1) begin
      if (fk_tl[fkx*CW +: CW] > fkx[CW-1:0]) fk_pl = 1'b0;
      if (fk_th[fkx*CW +: CW] > fkx[CW-1:0]) fk_ph = 1'b0;
      for (fky = 0; fky < N; fky = fky + 1) begin
        if ((fk_tl[fkx*CW +: CW] == fky[CW-1:0]) && (fk_tl[fky*CW +: CW] != fky[CW-1:0]))
          fk_pl = 1'b0;
        if ((fk_th[fkx*CW +: CW] == fky[CW-1:0]) && (fk_th[fky*CW +: CW] != fky[CW-1:0]))
          fk_ph = 1'b0;
        if ((fk_tl[fkx*CW +: CW] == fky[CW-1:0]) &&
            (fk_th[fkx*CW +: CW] != fk_th[fky*CW +: CW]))
          fk_nest = 1'b0;
      end
    end
  end
  // a CPU's load as find_busiest_group weighs it: 0 now, 1 source, 2 target
  function automatic [LOAD_W-1:0] f_cl(input [LOAD_W-1:0] n, input [LOAD_W-1:0] h,
                                       input [1:0] kd);
    f_cl = (kd == 2'd0) ? n : (kd == 2'd1) ? ((n < h) ? n : h) : ((n > h) ? n : h);
  endfunction
  // the sum over the CPUs x with table t naming b (a block sum of hws_bsum)
  function automatic [SW-1:0] f_bsum(input [N*CW-1:0] t, input [CW-1:0] b, input [1:0] kd);
    reg [LOAD_W-1:0] n, h, v;
    integer x;
    begin
      f_bsum = {SW{1'b0}};
      for (x = 0; x < N; x = x + 1) begin
        n = load_i[x*LOAD_W +: LOAD_W];
        h = hist_i[x*LOAD_W +: LOAD_W];
        v = (kd == 2'd0) ? n : (kd == 2'd1) ? ((n < h) ? n : h) : ((n > h) ? n : h);
        if (t[x*CW +: CW] == b) f_bsum = f_bsum + {{CW{1'b0}}, v};
      end
    end
  endfunction
  function automatic [F_RW-1:0] f_min(input [F_RW-1:0] a, input [F_RW-1:0] b);
    f_min = (a < b) ? a : b;
  endfunction

  // The stored values are legal at the go
  integer fx;
  always @(*) begin
    if (go_i) begin
      for (fx = 0; fx < NPW; fx = fx + 1) begin
        assume (pw_q[fx*PWW +: PWW] >= HWS_MIN_POWER[PWW-1:0]);
`ifdef HWS_F_BAL_PW1024
        // the solver's restriction (docs/formal.md): every power 1024, SCHED_LOAD_SCALE
        assume (pw_q[fx*PWW +: PWW] == 17'd1024);
`elsif HWS_F_BAL_PW2
        // the solver's restriction (docs/formal.md): every power a power of two
        assume ((pw_q[fx*PWW +: PWW] & (pw_q[fx*PWW +: PWW] - 17'd1)) == 17'd0);
`endif
      end
      for (fx = 0; fx < 4; fx = fx + 1)
        assume (pct_q[fx*8 +: 8] >= 8'd100);
      // P0 and P4 pass these rules by construction; the DOMAIN check checks the stored ones
      assume (fk_pl && fk_ph && fk_nest);
      for (fx = 0; fx < N; fx = fx + 1) begin
        assume (s1n[fx*SW +: SW] == f_bsum(lead1_i, fx[CW-1:0], 2'd0));
        assume (s1s[fx*SW +: SW] == f_bsum(lead1_i, fx[CW-1:0], 2'd1));
        assume (s1t[fx*SW +: SW] == f_bsum(lead1_i, fx[CW-1:0], 2'd2));
        assume (s2n[fx*SW +: SW] == f_bsum(lead2_i, fx[CW-1:0], 2'd0));
        assume (s2s[fx*SW +: SW] == f_bsum(lead2_i, fx[CW-1:0], 2'd1));
        assume (s2t[fx*SW +: SW] == f_bsum(lead2_i, fx[CW-1:0], 2'd2));
        assume (s3n[fx*SW +: SW] == f_bsum(lead3_i, fx[CW-1:0], 2'd0));
        assume (s3s[fx*SW +: SW] == f_bsum(lead3_i, fx[CW-1:0], 2'd1));
        assume (s3t[fx*SW +: SW] == f_bsum(lead3_i, fx[CW-1:0], 2'd2));
      end
      assume (s4n_q == f_bsum({N*CW{1'b0}}, {CW{1'b0}}, 2'd0));
      assume (s4s_q == f_bsum({N*CW{1'b0}}, {CW{1'b0}}, 2'd1));
    end
  end

  // find_busiest_group + find_busiest_queue for the query latched at go (f_c, f_l, f_nw)
  // over the inputs (stable since the go) and the stored powers and pct (unwritten since)
  reg [N*CW-1:0]   fr_tl, fr_th;
  reg [CW-1:0]     fr_t, fr_b, fr_bc;
  reg [N-1:0]      fr_grp;                  // x leads a group of the domain
  reg [F_RW-1:0]   fr_sum, fr_q, fr_max, fr_this, fr_tload, fr_tpwr, fr_avg, fr_pb, fr_pt;
  reg [N*F_RW-1:0] fr_qs;                   // every group's quotient, by leader
  reg              fr_hasb, fr_hasc;
  reg [F_RW-1:0]   fr_imb, fr_now, fr_move, fr_tmp, fr_best, fr_l;
  reg [2:0]        fr_v;
  reg [31:0]       fr_res;
  reg [127:0]      fr_regs;
  reg [PWW-1:0]    fr_pw;
  reg [7:0]        fr_pct;
  integer          fg, fy;
  always @(*) begin
    fr_tl = fk_tl;
    fr_th = fk_th;
    fr_t = {CW{1'b0}};
    for (fy = 0; fy < N; fy = fy + 1)
      if (f_c == fy[CW-1:0]) fr_t = fr_tl[fy*CW +: CW];
    fr_grp = {N{1'b0}};
    fr_qs = {N*F_RW{1'b0}};
    fr_max = {F_RW{1'b0}};  fr_this = {F_RW{1'b0}};  fr_b = {CW{1'b0}};  fr_hasb = 1'b0;
    fr_tload = {F_RW{1'b0}};  fr_tpwr = {F_RW{1'b0}};
    fr_sum = {F_RW{1'b0}};  fr_q = {F_RW{1'b0}};  fr_pw = {PWW{1'b0}};
    // the groups in leader order
    for (fg = 0; fg < N; fg = fg + 1) begin
      fr_grp[fg] = 1'b0;
      for (fy = 0; fy < N; fy = fy + 1)
        if ((f_c == fy[CW-1:0]) && (fr_th[fg*CW +: CW] == fr_th[fy*CW +: CW]) &&
            (fr_tl[fg*CW +: CW] == fg[CW-1:0]))
          fr_grp[fg] = 1'b1;
      fr_sum = {F_RW{1'b0}};
      for (fy = 0; fy < N; fy = fy + 1)
        if (fr_tl[fy*CW +: CW] == fg[CW-1:0])
          fr_sum = fr_sum + {{(F_RW-LOAD_W){1'b0}},
                             f_cl(load_i[fy*LOAD_W +: LOAD_W], hist_i[fy*LOAD_W +: LOAD_W],
                                  f_nw ? 2'd0 : (fg[CW-1:0] == fr_t) ? 2'd2 : 2'd1)};
      for (fy = 0; fy < NPW; fy = fy + 1)     // (constant selects: no x outside the range)
        if ({f_l, fg[CW-1:0]} == fy[CW+1:0]) fr_pw = pw_q[fy*PWW +: PWW];
      fr_q = f_udiv(fr_sum * F_K1024, {{(F_RW-PWW){1'b0}}, fr_pw});
      fr_qs[fg*F_RW +: F_RW] = fr_q;
      if (fr_grp[fg]) begin
        fr_tload = fr_tload + fr_sum;
        fr_tpwr = fr_tpwr + {{(F_RW-PWW){1'b0}}, fr_pw};
        if (fg[CW-1:0] == fr_t) begin
          fr_this = fr_q;
        end else if (fr_q > fr_max) begin    // strictly: the lowest leader wins ties
          fr_max = fr_q;
          fr_b = fg[CW-1:0];
          fr_hasb = 1'b1;
        end
      end
    end
    fr_avg = f_udiv(fr_tload * F_K1024, fr_tpwr);
    fr_pb = {F_RW{1'b0}};
    fr_pt = {F_RW{1'b0}};
    fr_pct = 8'd0;
    for (fy = 0; fy < NPW; fy = fy + 1) begin
      if ({f_l, fr_b} == fy[CW+1:0]) fr_pb[PWW-1:0] = pw_q[fy*PWW +: PWW];
      if ({f_l, fr_t} == fy[CW+1:0]) fr_pt[PWW-1:0] = pw_q[fy*PWW +: PWW];
    end
    for (fy = 0; fy < 4; fy = fy + 1)
      if (f_l == fy[1:0]) fr_pct = pct_q[fy*8 +: 8];
    fr_imb = {F_RW{1'b0}};  fr_now = {F_RW{1'b0}};  fr_move = {F_RW{1'b0}};
    fr_tmp = {F_RW{1'b0}};
    if (!fr_hasb)                    fr_v = 3'd1;   // NO_BUSIEST
    else if (fr_this >= fr_max)      fr_v = 3'd2;   // THIS_IS_MAX
    else if (fr_this >= fr_avg)      fr_v = 3'd3;   // THIS_ABOVE_AVG
    else if (F_K100 * fr_max <= {{(F_RW-8){1'b0}}, fr_pct} * fr_this)
                                     fr_v = 3'd4;   // WITHIN_PCT
    else begin
      fr_imb = (f_min(fr_max - fr_avg, fr_avg - fr_this) * f_min(fr_pb, fr_pt)) >> 10;   // / SCALE
      if (fr_imb >= F_K1024)        fr_v = 3'd6;   // MOVE
      else if (fr_max - fr_this >= F_K2048)
                                     fr_v = 3'd7;   // MOVE_ONE: move_one_pays, a gap of two
      else begin
        // move_one_pays(): does moving one task gain 1/8 of a CPU?
        fr_now = (fr_pb * f_min(F_K1024, fr_max) + fr_pt * f_min(F_K1024, fr_this)) >> 10;   // / SCALE
        fr_tmp = f_udiv(F_K2P20, fr_pb);
        if (fr_max > fr_tmp) fr_move = fr_pb * f_min(F_K1024, fr_max - fr_tmp);
        if (fr_max * fr_pb < F_K2P20) fr_tmp = f_udiv(fr_max * fr_pb, fr_pt);
        else                              fr_tmp = f_udiv(F_K2P20, fr_pt);
        fr_move = (fr_move + fr_pt * f_min(F_K1024, fr_this + fr_tmp)) >> 10;   // / SCALE
        fr_v = (fr_move >= fr_now + F_K128) ? 3'd7 : 3'd5;
      end
    end
    // find_busiest_queue: the CPU of the busiest group with the largest source load (load
    // now for the idle types), the lowest on ties
    fr_hasc = (fr_v == 3'd6) || (fr_v == 3'd7);
    fr_bc = {CW{1'b0}};
    fr_best = {F_RW{1'b0}};
    fr_l = {F_RW{1'b0}};
    for (fy = N - 1; fy >= 0; fy = fy - 1) begin
      fr_l = {{(F_RW-LOAD_W){1'b0}}, f_cl(load_i[fy*LOAD_W +: LOAD_W],
                                          hist_i[fy*LOAD_W +: LOAD_W], f_nw ? 2'd0 : 2'd1)};
      if ((fr_tl[fy*CW +: CW] == fr_b) && (fr_l >= fr_best)) begin
        fr_best = fr_l;
        fr_bc = fy[CW-1:0];
      end
    end
    if (!fr_hasc) fr_bc = {CW{1'b0}};
    // the result word (docs/accelerator.md 8.2) and BAL_IMB/AVG/MAX/THIS
    fr_res = 32'd0;
    fr_res[26:24] = fr_v;
    fr_res[22] = fr_hasb;
    fr_res[16 +: CW] = fr_b;
    fr_res[14] = fr_hasc;
    fr_res[8 +: CW] = fr_bc;
    fr_res[0 +: CW] = fr_t;
    fr_regs[0*32 +: 32] = fr_this[31:0];
    fr_regs[1*32 +: 32] = fr_max[31:0];
    fr_regs[2*32 +: 32] = (fr_v >= 3'd3) ? fr_avg[31:0] : 32'd0;
    fr_regs[3*32 +: 32] = (fr_v == 3'd6) ? fr_imb[31:0] : (fr_v == 3'd7) ? 32'd1024 : 32'd0;
  end
  // (every dividend it is given fits F_DW bits, every divisor F_VW: sum * 1024, 2^20,
  // max_load * pb below 2^20; a power, total_pwr)
  /* verilator lint_off UNUSEDSIGNAL */
  function automatic [F_RW-1:0] f_udiv(input [F_RW-1:0] n, input [F_RW-1:0] d);
    f_udiv = {{(F_RW-F_DW){1'b0}}, n[F_DW-1:0] / {{(F_DW-F_VW){1'b0}}, d[F_VW-1:0]}};
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  // The datapath against it
  integer fj;
  always @(*) begin
    if (f_past_valid) begin
      assert (run == (f_age <= F_FIN[10:0]));
      assert (done_o == (f_age == F_FIN[10:0]));
      // each lane's quotient, at the edge ending its pass, for a group of the domain
      if (pass_end)
        for (fj = 0; fj < NL; fj = fj + 1)
          for (fg = 0; fg < N; fg = fg + 1)
            if (lge[fj] && (lgi[fj*CW +: CW] == fg[CW-1:0]) && fr_grp[fg])
              assert ({{(F_RW-AW){1'b0}}, ldx_d[fj*QW +: AW]} == fr_qs[fg*F_RW +: F_RW]);
      // (and, as the simulation checks, fits AW bits: the width argument of 8.3)
      if (pass_end)
        for (fj = 0; fj < NL; fj = fj + 1)
          if (lgl[fj]) assert (ldx_d[fj*QW + AW +: QW - AW] == {(QW-AW){1'b0}});
      if (run && (cnt_q == C_AVG_END))
        assert ({{(F_RW-AW){1'b0}}, adx_d[AW-1:0]} == fr_avg);
      if (run && (cnt_q == C_PICK)) begin
        assert (gf_v_q[0] == fr_hasb);
        assert ({{(F_RW-AW){1'b0}}, pk_max} == fr_max);
        assert (pk_b == fr_b);
        assert ({{(F_RW-AW){1'b0}}, pk_this} == fr_this);
      end
      if (done_o) assert (res_o == fr_res);
    end
  end
  always @(posedge clk_i)
    if (f_past_valid && $past(done_o)) assert (regs_o == $past(fr_regs));
`endif
`endif
`endif
endmodule

// hws_argmax: one level of an in-place argmax fold, the rule of both of hws_balance's trees
// (the group-max tree over the lanes, the busiest-CPU tree over the CPUs). Entry g of the
// output is the better of input entries 2g and 2g+1 (entries at N and above are invalid):
// the left one when it is valid and the right one is not valid or not greater (so ties go
// to the lower entry), else the right one. Combinational; the outputs are don't-care (x)
// when en_i is low, as hws_div8's. (Kept in this file, its only user.)
/* verilator lint_off DECLFILENAME */
module hws_argmax #(
  parameter integer N  = 8,    // entries
  parameter integer VW = 26,   // value width
  parameter integer IW = 3     // index width
) (
  input  wire            en_i,   // the outputs are used in this cycle
  input  wire [N-1:0]    v_i,    // entry g valid
  input  wire [N*VW-1:0] val_i,  // its value at [g*VW +: VW]
  input  wire [N*IW-1:0] idx_i,  // its index at [g*IW +: IW]
  output reg  [N-1:0]    v_o,
  output reg  [N*VW-1:0] val_o,
  output reg  [N*IW-1:0] idx_o
);
  reg [2*N-1:0]    f_v;     // the inputs, entries N..2N-1 invalid (0)
  reg [2*N*VW-1:0] f_q;
  reg [2*N*IW-1:0] f_i;
  reg              tk;      // the left entry wins
  integer          g;
  always @* begin
    f_v = {2*N{1'b0}};  f_q = {2*N*VW{1'b0}};  f_i = {2*N*IW{1'b0}};
    v_o = {N{1'bx}};  val_o = {N*VW{1'bx}};  idx_o = {N*IW{1'bx}};
    tk = 1'b0;
    if (en_i) begin
      f_v[N-1:0] = v_i;  f_q[N*VW-1:0] = val_i;  f_i[N*IW-1:0] = idx_i;
      for (g = 0; g < N; g = g + 1) begin
        tk = f_v[2*g] && (!f_v[2*g+1] || (f_q[2*g*VW +: VW] >= f_q[(2*g+1)*VW +: VW]));
        v_o[g]            = tk ? f_v[2*g] : f_v[2*g+1];
        val_o[g*VW +: VW] = tk ? f_q[2*g*VW +: VW] : f_q[(2*g+1)*VW +: VW];
        idx_o[g*IW +: IW] = tk ? f_i[2*g*IW +: IW] : f_i[(2*g+1)*IW +: IW];
      end
    end
  end
endmodule
/* verilator lint_on DECLFILENAME */

`default_nettype wire
