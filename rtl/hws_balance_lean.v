// hws_balance_lean: an area-lean drop-in for hws_balance (the BALANCE query of the
// load-comparison unit, docs/accelerator.md 8.2, 8.3): the same parameters and ports, and
// at done_o the same result word and BAL_* registers for the same query and state, but a
// serial datapath: one divider, one micro-programmed adder (products and compares), one
// load adder, no block sums.
//
// BALANCE(c, level l, idle type) answers find_busiest_group + find_busiest_queue exactly as
// hws_find_busiest() of lib/hws_balance.c (and as hws_balance), over c's level-l domain
// (the CPUs x with block(l+1, x) == block(l+1, c)) whose groups are the level-l blocks in
// it, in increasing order of their leader. The engine pulses go_i at the edge that ends
// the check cycle; done_o is high in the final cycle, whose edge is the completion edge.
//
// Structure. Nothing is kept between queries but pw and pct: pct in flops, pw in a block
// RAM with a valid bit per word (flops, so srst_i sets every power to 1024 at once). The
// group sums are added at query time by scanning the CPUs through a CPU-index multiplexer
// (one load, history and leader read per cycle), group by group, so the upd_* and lset_*
// ports (hws_bsum's protocol) are not used. One divider (hws_div_lean below: hws_div8's
// restoring steps, BL_DSTEP = 2 a cycle, so no cycle chains more than two subtractors;
// BL_DSTEP = 8 makes it an hws_div8) divides in turn every group's sum * 1024 / pw,
// avg_load, tmp1 = 2^20 / pb and tmp2 = n2 / pt; one adder, micro-programmed, makes the
// five products of the verdict (MSB-first shift-add) and its compares; a last scan finds
// the busiest CPU. Every division is a 40-quotient-bit restoring division (BL_DIV = 40 /
// BL_DSTEP cycles from the dividend {r = bits 47..40, x = bits 39..0}), so every quotient
// and remainder is that of the integer formula, as in hws_balance (whose tmp1 and tmp2
// take 16 of the same steps: the same quotient and remainder).
//
// Schedule (k = the step counter of a phase; N = NR_CPUS; cycle 1 = the cycle after the go
// edge):
//   INIT   1 cycle          T = leader of c's level-l block, h = c's level-(l+1) leader
//   GROUP  N slots of       slot g (candidate leader g = 0..N-1):
//          N + BL_DIV         k = 0..N-1   scan CPU k: sum += its load (target load when
//                                          g = T, source load else, load now for the idle
//                                          types) when lead_l[k] == g; at k = 0 also the
//                                          previous slot's quotient is compared (below)
//                             k = N        g leads a group of the domain (lead_l[g] == g,
//                                          lead_(l+1)[g] == h): total_load += sum,
//                                          total_pwr += pw[l][g]; first divider cycle
//                             k = N..N+BL_DIV-1  sum * 1024 / pw[l][g]
//                          the compare (at k = 0 of the next slot, or AVG's first cycle):
//                          g = T gives this_load; another group of the domain with a
//                          quotient > max_load (strictly: the lowest leader wins ties,
//                          as the C's '>' in leader order; max_load starts at 0) is the
//                          busiest so far
//   AVG    BL_DIV           avg_load = total_load * 1024 / total_pwr
//   PW     BL_PW = 2        pb = pw[l][busiest], then pt = pw[l][T]
//   ALU    BL_ALU           the verdict's terms, by a micro-program of BL_NOP micro-ops on
//                           one adder (the ALU below): five products (BL_NMUL micro-ops of
//                           BL_MUL = 17 MSB-first shift-add steps: pm = pb * min(max, 8191),
//                           ptp = pt * min(this, 8191), p5 = min(max - avg, avg - this) *
//                           min(pb, pt), pct[l] * this, 100 * max), two divisions on the
//                           divider (BL_NDIV micro-ops of BL_DIV cycles: tmp1 = 2^20 / pb,
//                           tmp2 = n2 / pt, n2 = min(pm, 2^20)), and the compares of
//                           hws_balance's verdict_fn (flags): BL_ALU = BL_NOP + BL_NMUL
//                           (BL_MUL - 1) + BL_NDIV (BL_DIV - 1) cycles
//   VERD   1                the verdict, from the flags (and CPU 0 read)
//   CPU    N                the busiest CPU: the CPUs of the busiest group, the greatest
//                           source load (load now for the idle types), the lowest on ties
//                           (k = 1..N: CPU k - 1, read the cycle before, is compared)
//   FIN    1                result word out, BAL_* registers written at its edge
// So the final cycle is CF = BL_INIT + N (N + BL_DIV) + BL_DIV + BL_PW + BL_ALU + BL_VERD
// + N + BL_FIN, and a BALANCE completes CF + 1 = BL_LAT_BASE + BL_LAT_CPU N + N^2 edges
// after its pop (BL_LAT_BASE = 218, BL_LAT_CPU = BL_DIV + 1 = 21: 240 edges at N = 1, 264
// at 2, 290 at 3, 318 at 4, 450 at 8, 5658 at 64), whatever the loads, groups, level and
// verdict. One BALANCE runs at a time (the engine executes one command at a time).
//
// Parameter BAL_LANES is accepted (so a generate can pick either unit with the same
// parameter list) and ignored: this unit has one divider.
//
// Simulation cost: outside a BALANCE an edge costs a few compares (blocks under their phase's
// enable), the micro-op ROM's read, operand B's selection and the scan's read registers.
`default_nettype none

module hws_balance_lean #(
  parameter integer NR_CPUS = 8,   // CPUs, 1..64
  parameter integer LOAD_W  = 26,  // width of a per-CPU load or history, 18..30
  parameter integer BAL_LANES = 0, // accepted (0..NR_CPUS, as hws_balance) and ignored
  // cpu index width (derived; not to be overridden)
  parameter integer CW      = (NR_CPUS > 1) ? $clog2(NR_CPUS) : 1
) (
  input  wire                       clk_i,
  input  wire                       srst_i,     // synchronous reset: pw = 1024, pct = 125,
                                                // BAL_* = 0, a BALANCE abandoned
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
  // The leader writes and load updates of hws_balance's block sums: not used here (the
  // sums are added at query time from lead*_i, load_i and hist_i).
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire                       lset_i,
  input  wire [1:0]                 lset_k_i,
  input  wire [CW-1:0]              lset_cpu_i,
  input  wire [CW-1:0]              lset_v_i,
  input  wire                       upd_i,
  input  wire [CW-1:0]              upd_cpu_i,
  input  wire [LOAD_W-1:0]          upd_now_old_i,
  input  wire [LOAD_W-1:0]          upd_now_new_i,
  input  wire [LOAD_W-1:0]          upd_h_old_i,
  input  wire [LOAD_W-1:0]          upd_h_new_i,
  /* verilator lint_on UNUSEDSIGNAL */
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
  /* verilator lint_off UNUSEDPARAM */
`include "hws_regs.vh"
  /* verilator lint_on UNUSEDPARAM */

  localparam integer N   = NR_CPUS;
  // Widths of the datapath (docs/accelerator.md 8.3), as hws_balance's
  localparam integer PWW = HWS_DSET_HI_W + HWS_DSET_DATA_W;  // a group power
  localparam integer QW  = 40;                 // dividend bits brought down, then quotient
  localparam integer DNW = QW + 8;             // a dividend: its top 8 bits the first
                                               // partial remainder
  localparam integer SW  = LOAD_W + CW;        // a sum of per-CPU loads
  localparam integer AW  = SW + 2;             // a scaled load, sum * 1024 / power (>= 256)
  localparam integer DVW = PWW + CW;           // total power: up to NR_CPUS powers
  localparam integer NPW = 4 << CW;            // pw words, address {level, cpu}
  localparam integer ACW = (AW + PWW > 42) ? AW + PWW : 42;   // the ALU's accumulator: a
                                               // product of a scaled load and a power
  localparam integer TW  = AW + 8;             // its temporaries: t (up to 100 * max_load),
  localparam integer UW  = (AW > 31) ? AW : 31;   // u (up to a scaled load, or move_s),
  localparam integer VW  = 31;                 // v (pt * min(this_load, 8191))

  // The schedule's terms (the latency formula of the header)
  localparam integer BL_INIT = 1;              // T and h
  localparam integer BL_DSTEP = 2;             // the divider's steps (quotient bits) a cycle:
                                               // 1, 2, 4, 5 or 8 (8: an hws_div8)
  localparam integer BL_DIV  = QW / BL_DSTEP;  // one division: 40 quotient bits (20 cycles)
  localparam integer BL_PW   = 2;              // pb, pt
  localparam integer BL_NOP  = 74;             // the ALU's micro-ops
  localparam integer BL_MUL  = PWW;            // a multiplication: 17 steps, one micro-op
  localparam integer BL_NMUL = 5;              // multiplications in the micro-program
  localparam integer BL_NDIV = 2;              // divisions in it (tmp1, tmp2)
  localparam integer BL_ALU  = BL_NOP + BL_NMUL * (BL_MUL - 1) + BL_NDIV * (BL_DIV - 1);
  localparam integer BL_VERD = 1;              // the verdict
  localparam integer BL_FIN  = 1;              // the final cycle
  localparam integer BL_LAT_BASE = BL_INIT + BL_DIV + BL_PW + BL_ALU + BL_VERD + BL_FIN + 1;
                                               // (+ 1: the check cycle) = 218
  localparam integer BL_LAT_CPU  = BL_DIV + 1;   // per CPU: a slot's divider cycles, the
                                                 // busiest-CPU scan; plus N^2 scan cycles
  localparam integer CF  = BL_LAT_BASE - 1 + BL_LAT_CPU * N + N * N;   // the final cycle
  localparam integer SLOT = N + BL_DIV;        // cycles of one GROUP slot
  localparam integer KMAX = (SLOT > BL_MUL) ? SLOT : BL_MUL;
  localparam integer KW  = $clog2(KMAX + 1);   // the step counter

`include "hws_params.vh"
`ifndef __ICARUS__
  generate
    if (`HWS_PARAM_BAD_NR_CPUS || LOAD_W < 18 || LOAD_W > 30 || `HWS_PARAM_BAD_BAL_LANES ||
        CW != ((NR_CPUS > 1) ? $clog2(NR_CPUS) : 1)) begin : g_bad_param
      $error("hws_balance_lean: NR_CPUS=%0d LOAD_W=%0d BAL_LANES=%0d CW=%0d (need 1..64, 18..30, 0..NR_CPUS, clog2(NR_CPUS))",
             NR_CPUS, LOAD_W, BAL_LANES, CW);
    end
    if (BL_LAT_BASE != HWS_BAL_LEAN_BASE || BL_LAT_CPU != HWS_BAL_LEAN_CPU ||
        HWS_BAL_LAT_PASS * 8 != QW ||
        BL_DIV * BL_DSTEP != QW ||
        CF != BL_INIT + N * SLOT + BL_DIV + BL_PW + BL_ALU + BL_VERD + N + BL_FIN ||
        KW < 5) begin : g_bad_lat
      $error("hws_balance_lean: the schedule's terms disagree with the header or with the register map's BAL_LEAN_BASE, BAL_LEAN_CPU");
    end
  endgenerate
`endif

  // Phases
  localparam [3:0] P_IDLE = 4'd0, P_INIT = 4'd1, P_GRP = 4'd2, P_AVG = 4'd3, P_PB = 4'd4,
                   P_PT = 4'd5, P_ALU = 4'd6, P_VERD = 4'd7, P_CPU = 4'd8, P_FIN = 4'd9;
  localparam integer I_OLAST = BL_NOP - 1;
  localparam [7:0] O_LAST = I_OLAST[7:0];
  localparam [7:0] O_DIV1 = 8'd41;          // the micro-op of tmp1's division
  localparam integer I_SLOT = SLOT - 1;
  localparam integer I_DIV  = BL_DIV - 1;
  localparam integer I_MUL  = BL_MUL - 1;
  localparam integer I_CPU  = N - 1;
  localparam [KW-1:0] K_N    = N[KW-1:0];              // GROUP: the leader cycle
  localparam [KW-1:0] K_SLOT = I_SLOT[KW-1:0];         // GROUP: the slot's last cycle
  localparam [KW-1:0] K_DIV  = I_DIV[KW-1:0];          // a division's last cycle
  localparam [KW-1:0] K_MUL  = I_MUL[KW-1:0];          // a product's last step
  localparam [KW-1:0] K_ONE  = 1;
  localparam [CW-1:0] G_LAST = I_CPU[CW-1:0];

  // ---------------------------------------------------------------------------------------
  // pct[l] and pw[l][x]: as hws_balance
  reg [31:0] pct_q;
  always @(posedge clk_i) begin
    if (srst_i)        pct_q <= {4{HWS_DEF_PCT[7:0]}};
    else if (pct_we_i) pct_q[pct_lvl_i*8 +: 8] <= pct_i;
  end
  // pw[l][x]: a block RAM word per {level, cpu}, read one cycle after its address (pw_ra,
  // below), and a valid bit per word (flops, cleared by srst_i): a word not written since
  // the reset reads as 1024. (A write at a reset's edge writes the RAM and leaves the word
  // invalid, so the write is lost, as in hws_balance.)
  reg  [PWW-1:0]    pw_mem [0:NPW-1];
  reg  [NPW-1:0]    pw_v_q;
  reg  [PWW-1:0]    pw_mq;                  // the word read
  reg               pw_vq;                  // its valid bit
  wire [CW+1:0]     pw_wa = {pw_lvl_i, pw_cpu_i[CW-1:0]};
  wire [CW+1:0]     pw_ra;
  wire              run;
  always @(posedge clk_i) begin
    if (pw_we_i) pw_mem[pw_wa] <= pw_i;
    if (run) pw_mq <= pw_mem[pw_ra];
  end
  integer           pwx;
  always @(posedge clk_i) begin
    if (srst_i) begin
      pw_v_q <= {NPW{1'b0}};
    end else if (pw_we_i) begin
      for (pwx = 0; pwx < NPW; pwx = pwx + 1)
        if (pw_wa == pwx[CW+1:0]) pw_v_q[pwx] <= 1'b1;
    end
    if (run) begin
      pw_vq <= 1'b0;
      for (pwx = 0; pwx < NPW; pwx = pwx + 1)
        if (pw_ra == pwx[CW+1:0]) pw_vq <= pw_v_q[pwx];
    end
  end
  wire [PWW-1:0]    pw_rd = pw_vq ? pw_mq : HWS_DEF_POWER[PWW-1:0];   // pw[l][the address]

  // ---------------------------------------------------------------------------------------
  // State of one BALANCE (no reset but the phase: go_i sets what is read before written)
  reg  [3:0]        ph_q;                   // phase, P_IDLE outside a BALANCE
  reg  [KW-1:0]     k_q;                    // step in the phase
  reg  [CW-1:0]     g_q;                    // GROUP: the slot's candidate leader
  reg  [1:0]        lvl_q;
  reg               now_q;
  reg  [CW-1:0]     c_q;                    // the query's CPU
  reg  [CW-1:0]     this_ld_q;              // T, leader of the local group
  reg  [CW-1:0]     hc_q;                   // c's level-(l+1) leader (the domain)
  reg  [SW-1:0]     sum_q;                  // the slot's group sum
  reg  [SW-1:0]     tot_q;                  // total_load
  reg  [DVW-1:0]    tpw_q;                  // total_pwr
  reg               lvg_q, isT_q;           // the divided group leads a group of the
  reg  [CW-1:0]     dg_q;                   // domain, is T; its leader
  reg  [DVW-1:0]    dr_q;                   // divider: partial remainder
  reg  [QW-1:0]     dx_q;                   // ... dividend bits to bring down / quotient
  reg               has_b_q;                // a busiest group so far
  reg  [CW-1:0]     bus_q;                  // its leader (0 when none)
  reg  [AW-1:0]     max_q, this_q, avg_q;   // max_load, this_load, avg_load
  reg  [PWW-1:0]    pb_q, pt_q;             // powers of the busiest and the local group
  reg  [ACW-1:0]    acc_q;                  // ALU: the accumulator
  reg  [TW-1:0]     t_q;                    // ... its three temporaries
  reg  [UW-1:0]     u_q;
  reg  [VW-1:0]     v_q;
  reg  [PWW-1:0]    mq_q;                   // ... the multiplier, MSB first
  reg               ge_q;                   // ... the last compare's flag
  reg               f_max_q, f_avg_q, f_gap_q, f_win_q, f_nog_q, f_gain_q, f_big_q;
  reg  [7:0]        oi_q;                   // ... the micro-op
  reg  [31:0]       imb_q;                  // (uint32) imb
  reg  [12:0]       tmp1_q;                 // 2^20 / pb
  reg  [PWW-1:0]    rem1_q;                 // 2^20 % pb
  reg  [2:0]        verd_q;                 // the verdict
  reg               cv_q;                   // busiest CPU so far: found, load, CPU
  reg  [LOAD_W-1:0] cl_q;
  reg  [CW-1:0]     ci_q;

  assign run = (ph_q != P_IDLE);
  wire in_grp = (ph_q == P_GRP);
  wire in_alu = (ph_q == P_ALU);
  wire [22:0] uop;                          // the micro-op (uop_q, below)
  wire [2:0]  u_kind = uop[5:3];
  wire in_t1  = in_alu && (u_kind == U_DIV1);
  wire in_t2  = in_alu && (u_kind == U_DIV2);
  wire in_div = (in_grp && (k_q >= K_N)) || (ph_q == P_AVG) || in_t1 || in_t2;
  wire div_first = (in_grp && (k_q == K_N)) || (((ph_q == P_AVG) || in_t1 || in_t2) &&
                                               (k_q == {KW{1'b0}}));

  // ---------------------------------------------------------------------------------------
  // The CPU-index multiplexer: CPU idx's load, history, level-l and level-(l+1) leaders.
  // idx: c (INIT), the candidate leader g (GROUP, k = N), else the scan's CPU k.
  reg  [CW-1:0]     idx;
  reg  [LOAD_W-1:0] rd_n, rd_h;
  reg  [CW-1:0]     rd_l1, rd_l2, rd_l3, rd_tl, rd_th;
  integer           rx;
  always @* begin
    idx = {CW{1'b0}};
    rd_n = {LOAD_W{1'b0}};  rd_h = {LOAD_W{1'b0}};
    rd_l1 = {CW{1'b0}};  rd_l2 = {CW{1'b0}};  rd_l3 = {CW{1'b0}};
    rd_tl = {CW{1'b0}};  rd_th = {CW{1'b0}};
    if (run) begin
      idx = (ph_q == P_INIT) ? c_q : (in_grp && (k_q == K_N)) ? g_q : k_q[CW-1:0];
      for (rx = 0; rx < N; rx = rx + 1) begin
        if (idx == rx[CW-1:0]) begin
          rd_n  = load_i[rx*LOAD_W +: LOAD_W];
          rd_h  = hist_i[rx*LOAD_W +: LOAD_W];
          rd_l1 = lead1_i[rx*CW +: CW];
          rd_l2 = lead2_i[rx*CW +: CW];
          rd_l3 = lead3_i[rx*CW +: CW];
        end
      end
      case (lvl_q)
        2'd0:    begin rd_tl = idx;   rd_th = rd_l1;      end
        2'd1:    begin rd_tl = rd_l1; rd_th = rd_l2;      end
        2'd2:    begin rd_tl = rd_l2; rd_th = rd_l3;      end
        default: begin rd_tl = rd_l3; rd_th = {CW{1'b0}}; end
      endcase
    end
  end
  // source (min) and target (max) load of that CPU
  // The CPU's load as the scans weigh it, one multiplexer: the load now for the idle types,
  // else the target load max(hist, now) in the GROUP slot of T, the source load min(hist,
  // now) in the other slots and the busiest-CPU scan.
  wire              h_lt  = (rd_h < rd_n);
  wire              w_tgt = in_grp && (g_q == this_ld_q);
  wire [LOAD_W-1:0] rd_v  = (now_q || (w_tgt == h_lt)) ? rd_n : rd_h;

  // The power read: pw[l][pidx] one cycle later, pidx the slot's g (GROUP: read from its
  // k = 1), B in AVG, PT and the ALU up to tmp1's division (read by PB and that division),
  // else T (read by PT and tmp2's division).
  wire [CW-1:0]     pidx = in_grp ? g_q : ((ph_q == P_AVG) || (ph_q == P_PT) ||
                                           (in_alu && (oi_q <= O_DIV1))) ? bus_q : this_ld_q;
  assign pw_ra = {lvl_q, pidx};

  // ---------------------------------------------------------------------------------------
  // The divider: a division's first cycle takes the dividend (GROUP {sum, 10'b0}, AVG
  // {total_load, 10'b0}, T1 2^20, T2 n2), the others the registers; the divisor is
  // total_pwr (AVG) or the power read (pw[l][g], pb, pt).
  reg  [DNW-1:0]    dn;
  always @* begin
    dn = {DNW{1'b0}};
    if (div_first) begin
      if (in_grp)              dn[SW+9:0] = {sum_q, 10'd0};
      else if (ph_q == P_AVG)  dn[SW+9:0] = {tot_q, 10'd0};
      else if (in_t1)          dn[20] = 1'b1;
      else                     dn[20:0] = u_q[20:0];
    end
  end
  wire [DVW-1:0] dv_d = (ph_q == P_AVG) ? tpw_q : {{(DVW-PWW){1'b0}}, pw_rd};
  wire [DVW-1:0] dr_st;
  wire [QW-1:0]  dx_st;
  wire [DVW-1:0] dr_in = div_first ? {{(DVW-8){1'b0}}, dn[DNW-1:QW]} : dr_q;
  wire [QW-1:0]  dx_in = div_first ? dn[QW-1:0] : dx_q;
  generate
    if (BL_DSTEP == 8) begin : g_div8
      hws_div8 #(.DW(DVW), .XW(QW)) u_div (
        .en_i(in_div), .r_i(dr_in), .x_i(dx_in), .d_i(dv_d), .r_o(dr_st), .x_o(dx_st));
    end else begin : g_divs
      hws_div_lean #(.DW(DVW), .XW(QW), .DS(BL_DSTEP)) u_div (
        .en_i(in_div), .r_i(dr_in), .x_i(dx_in), .d_i(dv_d), .r_o(dr_st), .x_o(dx_st));
    end
  endgenerate

  // The quotient just completed (dx_q) against the busiest so far: at k = 0 of a GROUP
  // slot (the previous slot's group; nothing in slot 0) and AVG's first cycle (the last).
  wire           cmp_en = (in_grp || (ph_q == P_AVG)) && (k_q == {KW{1'b0}});
  wire [AW-1:0]  dq     = dx_q[AW-1:0];
  wire           take   = cmp_en && lvg_q && !isT_q && (dq != {AW{1'b0}}) &&
                          (!has_b_q || (dq > max_q));

  // The scan's load of CPU k for the slot's group: target load of T, source load else,
  // load now for the idle types; counted when CPU k is in group g.
  wire           scan_en = in_grp && (k_q < K_N);
  wire [LOAD_W-1:0] sv   = rd_v;
  wire           smem    = scan_en && (rd_tl == g_q);
  wire [SW-1:0]  sum_d   = ((k_q == {KW{1'b0}}) ? {SW{1'b0}} : sum_q) +
                           (smem ? {{CW{1'b0}}, sv} : {SW{1'b0}});
  wire           lv_now  = in_grp && (k_q == K_N) && (rd_tl == g_q) && (rd_th == hc_q);

  // ---------------------------------------------------------------------------------------
  // ---------------------------------------------------------------------------------------
  // The ALU of the verdict: one adder, acc = A + B or A - B (A = 0, acc or 2 acc; B one of
  // the registers below or a constant), its carry the compare's flag (A >= B), run by a
  // micro-program of BL_NOP micro-ops (one cycle each; a multiplication step repeats
  // BL_MUL times, acc = 2 acc + (mq's top bit ? B : 0), mq shifting left; a division waits
  // BL_DIV cycles for the divider). It computes every term of hws_balance's verdict_fn:
  // the flags this >= max, this >= avg, max - this >= 2048, within (pct * this >= 100 *
  // max), imb >= 1024 (and imb), tmp1 >= max, and move_one_pays' compare of pwr_move and
  // pwr_now + 128, from the products and quotients of its formulas:
  //   now_s  = min(pm, pb << 10) + min(ptp, pt << 10)
  //   move_s = [max > tmp1] min(pm - 2^20 + rem1, pb << 10) + min(ptp + n2 - rem2, pt << 10)
  // (pm = pb * min(max, 8191), ptp = pt * min(this, 8191), n2 = min(pm, 2^20); every
  // difference here is that of hws_balance wherever the verdict reads it: max > tmp1 makes
  // pm - 2^20 + rem1 > 0, and max - this, max - avg, avg - this are read only when this <
  // avg <= max.)
  localparam [1:0] A_ZERO = 2'd0, A_ACC = 2'd1, A_ACC2 = 2'd2, A_SHR = 2'd3;
  localparam [4:0] B_ZERO = 5'd0, B_THIS = 5'd1, B_MAX = 5'd2, B_AVG = 5'd3, B_PB = 5'd4,
                   B_PT = 5'd5, B_PBK = 5'd6, B_PTK = 5'd7, B_T = 5'd8, B_U = 5'd9,
                   B_V = 5'd10, B_K = 5'd11, B_PCT = 5'd12, B_REM1 = 5'd13, B_REM2 = 5'd14,
                   B_TMP1 = 5'd15;
  localparam [1:0] C_ALW = 2'd0, C_GE = 2'd1, C_NOG = 2'd2;   // write acc: always, if ge_q,
                                                              // if tmp1 >= max
  localparam [2:0] F_NONE = 3'd0, F_GE = 3'd1, F_MAX = 3'd2, F_AVG = 3'd3, F_GAP = 3'd4,
                   F_WIN = 3'd5, F_NOG = 3'd6, F_GAIN = 3'd7;  // the flag a compare sets
  localparam [2:0] U_ONE = 3'd0, U_MQ = 3'd1, U_MUL = 3'd2, U_DIV1 = 3'd3, U_DIV2 = 3'd4,
                   U_IMB = 3'd5;   // one cycle; mq = acc (acc = 0); BL_MUL steps; tmp1
                                   // (BL_DIV cycles); tmp2 (BL_DIV); one cycle, imb kept
  localparam [2:0] K_0 = 3'd0, K_2048 = 3'd1, K_100 = 3'd2, K_8191 = 3'd3, K_2P20 = 3'd4,
                   K_128 = 3'd5;   // the constants of B_K
  // The micro-program: {A, B, sub, write acc, condition, write t/u/v, flag, kind, constant},
  // micro-op oi
  function automatic [22:0] uop_fn(input [7:0] oi);
    begin
      uop_fn = 23'd0;
      case (oi)
      8'd0: uop_fn = {A_ZERO, B_THIS, 1'b0, 1'b1, C_ALW, 3'b000, F_NONE, U_ONE, K_0};  // f_max etc: acc = this
      8'd1: uop_fn = {A_ACC, B_MAX, 1'b1, 1'b0, C_ALW, 3'b000, F_MAX, U_ONE, K_0};  // this >= max_load
      8'd2: uop_fn = {A_ACC, B_AVG, 1'b1, 1'b0, C_ALW, 3'b000, F_AVG, U_ONE, K_0};  // this >= avg_load
      8'd3: uop_fn = {A_ZERO, B_MAX, 1'b0, 1'b1, C_ALW, 3'b000, F_NONE, U_ONE, K_0};
      8'd4: uop_fn = {A_ACC, B_THIS, 1'b1, 1'b1, C_ALW, 3'b000, F_NONE, U_ONE, K_0};  // acc = max - this
      8'd5: uop_fn = {A_ACC, B_K, 1'b1, 1'b0, C_ALW, 3'b000, F_GAP, U_ONE, K_2048};  // max - this >= 2048
      8'd6: uop_fn = {A_ZERO, B_AVG, 1'b0, 1'b1, C_ALW, 3'b000, F_NONE, U_ONE, K_0};
      8'd7: uop_fn = {A_ACC, B_THIS, 1'b1, 1'b1, C_ALW, 3'b100, F_NONE, U_ONE, K_0};  // t = acc = avg - this
      8'd8: uop_fn = {A_ZERO, B_MAX, 1'b0, 1'b1, C_ALW, 3'b000, F_NONE, U_ONE, K_0};
      8'd9: uop_fn = {A_ACC, B_AVG, 1'b1, 1'b1, C_ALW, 3'b000, F_NONE, U_ONE, K_0};  // acc = max - avg
      8'd10: uop_fn = {A_ACC, B_T, 1'b1, 1'b0, C_ALW, 3'b000, F_GE, U_ONE, K_0};
      8'd11: uop_fn = {A_ZERO, B_T, 1'b0, 1'b1, C_GE, 3'b000, F_NONE, U_ONE, K_0};  // acc = min(max - avg, avg - this)
      8'd12: uop_fn = {A_ACC, B_ZERO, 1'b0, 1'b0, C_ALW, 3'b010, F_NONE, U_ONE, K_0};  // u = that
      8'd13: uop_fn = {A_ZERO, B_PB, 1'b0, 1'b1, C_ALW, 3'b000, F_NONE, U_ONE, K_0};
      8'd14: uop_fn = {A_ACC, B_PT, 1'b1, 1'b0, C_ALW, 3'b000, F_GE, U_ONE, K_0};
      8'd15: uop_fn = {A_ZERO, B_PT, 1'b0, 1'b1, C_GE, 3'b000, F_NONE, U_ONE, K_0};  // acc = min(pb, pt)
      8'd16: uop_fn = {A_ZERO, B_ZERO, 1'b0, 1'b1, C_ALW, 3'b000, F_NONE, U_MQ, K_0};  // mq = acc, acc = 0
      8'd17: uop_fn = {A_ACC2, B_U, 1'b0, 1'b1, C_ALW, 3'b000, F_NONE, U_MUL, K_0};  // acc = p5 = u * mq
      8'd18: uop_fn = {A_ZERO, B_K, 1'b0, 1'b1, C_ALW, 3'b000, F_NONE, U_IMB, K_100};  // imb, imb_big from p5; acc = 100
      8'd19: uop_fn = {A_ZERO, B_ZERO, 1'b0, 1'b1, C_ALW, 3'b000, F_NONE, U_MQ, K_0};
      8'd20: uop_fn = {A_ACC2, B_MAX, 1'b0, 1'b1, C_ALW, 3'b000, F_NONE, U_MUL, K_0};  // acc = 100 * max
      8'd21: uop_fn = {A_ACC, B_ZERO, 1'b0, 1'b0, C_ALW, 3'b100, F_NONE, U_ONE, K_0};  // t = 100 * max
      8'd22: uop_fn = {A_ZERO, B_PCT, 1'b0, 1'b1, C_ALW, 3'b000, F_NONE, U_ONE, K_0};
      8'd23: uop_fn = {A_ZERO, B_ZERO, 1'b0, 1'b1, C_ALW, 3'b000, F_NONE, U_MQ, K_0};
      8'd24: uop_fn = {A_ACC2, B_THIS, 1'b0, 1'b1, C_ALW, 3'b000, F_NONE, U_MUL, K_0};  // acc = pct * this
      8'd25: uop_fn = {A_ACC, B_T, 1'b1, 1'b0, C_ALW, 3'b000, F_WIN, U_ONE, K_0};  // within: pct * this >= 100 * max
      8'd26: uop_fn = {A_ZERO, B_MAX, 1'b0, 1'b1, C_ALW, 3'b000, F_NONE, U_ONE, K_0};
      8'd27: uop_fn = {A_ACC, B_K, 1'b1, 1'b0, C_ALW, 3'b000, F_GE, U_ONE, K_8191};
      8'd28: uop_fn = {A_ZERO, B_K, 1'b0, 1'b1, C_GE, 3'b000, F_NONE, U_ONE, K_8191};  // acc = min(max, 8191)
      8'd29: uop_fn = {A_ZERO, B_ZERO, 1'b0, 1'b1, C_ALW, 3'b000, F_NONE, U_MQ, K_0};
      8'd30: uop_fn = {A_ACC2, B_PB, 1'b0, 1'b1, C_ALW, 3'b000, F_NONE, U_MUL, K_0};  // acc = pm
      8'd31: uop_fn = {A_ACC, B_ZERO, 1'b0, 1'b0, C_ALW, 3'b100, F_NONE, U_ONE, K_0};  // t = pm
      8'd32: uop_fn = {A_ACC, B_K, 1'b1, 1'b0, C_ALW, 3'b000, F_GE, U_ONE, K_2P20};
      8'd33: uop_fn = {A_ZERO, B_K, 1'b0, 1'b1, C_GE, 3'b000, F_NONE, U_ONE, K_2P20};  // acc = n2 = min(pm, 2^20)
      8'd34: uop_fn = {A_ACC, B_ZERO, 1'b0, 1'b0, C_ALW, 3'b010, F_NONE, U_ONE, K_0};  // u = n2
      8'd35: uop_fn = {A_ZERO, B_THIS, 1'b0, 1'b1, C_ALW, 3'b000, F_NONE, U_ONE, K_0};
      8'd36: uop_fn = {A_ACC, B_K, 1'b1, 1'b0, C_ALW, 3'b000, F_GE, U_ONE, K_8191};
      8'd37: uop_fn = {A_ZERO, B_K, 1'b0, 1'b1, C_GE, 3'b000, F_NONE, U_ONE, K_8191};  // acc = min(this, 8191)
      8'd38: uop_fn = {A_ZERO, B_ZERO, 1'b0, 1'b1, C_ALW, 3'b000, F_NONE, U_MQ, K_0};
      8'd39: uop_fn = {A_ACC2, B_PT, 1'b0, 1'b1, C_ALW, 3'b000, F_NONE, U_MUL, K_0};  // acc = ptp
      8'd40: uop_fn = {A_ACC, B_ZERO, 1'b0, 1'b0, C_ALW, 3'b001, F_NONE, U_ONE, K_0};  // v = ptp
      8'd41: uop_fn = {A_ACC, B_ZERO, 1'b0, 1'b0, C_ALW, 3'b000, F_NONE, U_DIV1, K_0};  // tmp1 = 2^20 / pb, rem1
      8'd42: uop_fn = {A_ACC, B_ZERO, 1'b0, 1'b0, C_ALW, 3'b000, F_NONE, U_ONE, K_0};  // (the power read switches from pb to pt)
      8'd43: uop_fn = {A_ACC, B_ZERO, 1'b0, 1'b0, C_ALW, 3'b000, F_NONE, U_DIV2, K_0};  // tmp2 = n2 / pt, rem2 (tmp1, rem1 kept in its first cycle)
      8'd44: uop_fn = {A_ZERO, B_TMP1, 1'b0, 1'b1, C_ALW, 3'b000, F_NONE, U_ONE, K_0};
      8'd45: uop_fn = {A_ACC, B_MAX, 1'b1, 1'b0, C_ALW, 3'b000, F_NOG, U_ONE, K_0};  // tmp1 >= max: m1 = 0
      8'd46: uop_fn = {A_ZERO, B_V, 1'b0, 1'b1, C_ALW, 3'b000, F_NONE, U_ONE, K_0};
      8'd47: uop_fn = {A_ACC, B_U, 1'b0, 1'b1, C_ALW, 3'b000, F_NONE, U_ONE, K_0};
      8'd48: uop_fn = {A_ACC, B_REM2, 1'b1, 1'b1, C_ALW, 3'b000, F_NONE, U_ONE, K_0};  // acc = x2 = ptp + n2 - rem2
      8'd49: uop_fn = {A_ACC, B_PTK, 1'b1, 1'b0, C_ALW, 3'b000, F_GE, U_ONE, K_0};
      8'd50: uop_fn = {A_ZERO, B_PTK, 1'b0, 1'b1, C_GE, 3'b000, F_NONE, U_ONE, K_0};  // acc = m2
      8'd51: uop_fn = {A_ACC, B_ZERO, 1'b0, 1'b0, C_ALW, 3'b010, F_NONE, U_ONE, K_0};  // u = m2
      8'd52: uop_fn = {A_ZERO, B_T, 1'b0, 1'b1, C_ALW, 3'b000, F_NONE, U_ONE, K_0};
      8'd53: uop_fn = {A_ACC, B_K, 1'b1, 1'b1, C_ALW, 3'b000, F_NONE, U_ONE, K_2P20};
      8'd54: uop_fn = {A_ACC, B_REM1, 1'b0, 1'b1, C_ALW, 3'b000, F_NONE, U_ONE, K_0};  // acc = x1 = pm - 2^20 + rem1
      8'd55: uop_fn = {A_ACC, B_PBK, 1'b1, 1'b0, C_ALW, 3'b000, F_GE, U_ONE, K_0};
      8'd56: uop_fn = {A_ZERO, B_PBK, 1'b0, 1'b1, C_GE, 3'b000, F_NONE, U_ONE, K_0};
      8'd57: uop_fn = {A_ZERO, B_ZERO, 1'b0, 1'b1, C_NOG, 3'b000, F_NONE, U_ONE, K_0};  // acc = m1
      8'd58: uop_fn = {A_ACC, B_U, 1'b0, 1'b1, C_ALW, 3'b000, F_NONE, U_ONE, K_0};  // acc = move_s = m1 + m2
      8'd59: uop_fn = {A_ACC, B_ZERO, 1'b0, 1'b0, C_ALW, 3'b010, F_NONE, U_ONE, K_0};  // u = move_s
      8'd60: uop_fn = {A_ZERO, B_T, 1'b0, 1'b1, C_ALW, 3'b000, F_NONE, U_ONE, K_0};
      8'd61: uop_fn = {A_ACC, B_PBK, 1'b1, 1'b0, C_ALW, 3'b000, F_GE, U_ONE, K_0};
      8'd62: uop_fn = {A_ZERO, B_PBK, 1'b0, 1'b1, C_GE, 3'b000, F_NONE, U_ONE, K_0};
      8'd63: uop_fn = {A_ACC, B_ZERO, 1'b0, 1'b0, C_ALW, 3'b100, F_NONE, U_ONE, K_0};  // t = a1 = min(pm, pb << 10)
      8'd64: uop_fn = {A_ZERO, B_V, 1'b0, 1'b1, C_ALW, 3'b000, F_NONE, U_ONE, K_0};
      8'd65: uop_fn = {A_ACC, B_PTK, 1'b1, 1'b0, C_ALW, 3'b000, F_GE, U_ONE, K_0};
      8'd66: uop_fn = {A_ZERO, B_PTK, 1'b0, 1'b1, C_GE, 3'b000, F_NONE, U_ONE, K_0};  // acc = a2
      8'd67: uop_fn = {A_ACC, B_T, 1'b0, 1'b1, C_ALW, 3'b000, F_NONE, U_ONE, K_0};  // acc = now_s = a1 + a2
      8'd68: uop_fn = {A_SHR, B_ZERO, 1'b0, 1'b1, C_ALW, 3'b000, F_NONE, U_ONE, K_0};  // acc = now_s >> 10
      8'd69: uop_fn = {A_ACC, B_K, 1'b0, 1'b1, C_ALW, 3'b000, F_NONE, U_ONE, K_128};
      8'd70: uop_fn = {A_ACC, B_ZERO, 1'b0, 1'b0, C_ALW, 3'b100, F_NONE, U_ONE, K_0};  // t = (now_s >> 10) + 128
      8'd71: uop_fn = {A_ZERO, B_U, 1'b0, 1'b1, C_ALW, 3'b000, F_NONE, U_ONE, K_0};
      8'd72: uop_fn = {A_SHR, B_ZERO, 1'b0, 1'b1, C_ALW, 3'b000, F_NONE, U_ONE, K_0};  // acc = move_s >> 10
      8'd73: uop_fn = {A_ACC, B_T, 1'b1, 1'b0, C_ALW, 3'b000, F_GAIN, U_ONE, K_0};  // move_s >> 10 >= (now_s >> 10) + 128: MOVE_ONE, else NO_GAIN
      default: uop_fn = 23'd0;
      endcase
    end
  endfunction
  wire [1:0]  u_a    = uop[22:21];
  wire        u_sub  = uop[15];
  wire        u_wacc = uop[14];
  wire [1:0]  u_cond = uop[13:12];
  wire [2:0]  u_wtuv = uop[11:9];
  wire [2:0]  u_flag = uop[8:6];
  // (the op of the last micro-op's last cycle)
  wire [KW-1:0] u_last = (u_kind == U_MUL) ? K_MUL : ((u_kind == U_DIV1) || (u_kind == U_DIV2)) ?
                         K_DIV : {KW{1'b0}};

  // A micro-op's fields that operand B needs: {B, sub, kind, constant}
  /* verilator lint_off UNUSEDSIGNAL */
  function automatic [11:0] bf_fn(input [22:0] u);
    bf_fn = {u[20:15], u[5:0]};
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */
  // Operand B of a micro-op of B fields f (bf_fn; from the registers given, or the
  // constant of B_K), zero in a product step whose multiplier bit mqt is 0, inverted for a
  // subtraction
  function automatic [ACW-1:0] opb_fn(input [11:0] f, input mqt,
                                      input [AW-1:0] th, input [AW-1:0] mx, input [AW-1:0] av,
                                      input [PWW-1:0] b, input [PWW-1:0] tp,
                                      input [TW-1:0] tt, input [UW-1:0] uu, input [VW-1:0] vv,
                                      input [7:0] pc, input [PWW-1:0] r1, input [PWW-1:0] r2,
                                      input [12:0] t1);
    reg [ACW-1:0] x;
    begin
      x = {ACW{1'b0}};
      case (f[11:7])
        B_THIS:  x[AW-1:0]      = th;
        B_MAX:   x[AW-1:0]      = mx;
        B_AVG:   x[AW-1:0]      = av;
        B_PB:    x[PWW-1:0]     = b;
        B_PT:    x[PWW-1:0]     = tp;
        B_PBK:   x[PWW+9:0]     = {b, 10'd0};
        B_PTK:   x[PWW+9:0]     = {tp, 10'd0};
        B_T:     x[TW-1:0]      = tt;
        B_U:     x[UW-1:0]      = uu;
        B_V:     x[VW-1:0]      = vv;
        B_K:
          case (f[2:0])
            K_2048:  x[20:0] = 21'd2048;
            K_100:   x[20:0] = 21'd100;
            K_8191:  x[20:0] = 21'd8191;
            K_2P20:  x[20:0] = 21'd1048576;
            K_128:   x[20:0] = 21'd128;
            default: x[20:0] = 21'd0;
          endcase
        B_PCT:   x[7:0]         = pc;
        B_REM1:  x[PWW-1:0]     = r1;
        B_REM2:  x[PWW-1:0]     = r2;
        B_TMP1:  x[12:0]        = t1;
        default: x = {ACW{1'b0}};
      endcase
      if ((f[5:3] == U_MUL) && !mqt) x = {ACW{1'b0}};
      opb_fn = f[6] ? ~x : x;
    end
  endfunction

  // The ALU's pipeline. The micro-program is a block RAM read at every edge: word a holds
  // micro-op a's fields but B and its constant (cur_fn) and the B fields of micro-op a + 1
  // (bf_fn); the RAM reads the next cycle's micro-op (ra; word 255, all zero, outside
  // ALU). At every edge bf_q takes the next cycle's B fields (bn: micro-op 0's from PT,
  // the RAM's next-op fields when a micro-op ends, else its own) and b_q that operand
  // (opb_fn), so neither the micro-program nor B's multiplexer is on the path through the
  // adder (A is the accumulator, shifted or not, or zero). B is read from the registers
  // before the edge: no micro-op reads t, u or v when the one before it writes them, the
  // products' operands stay put, and the multiplier bit is the one of after the edge
  // (mq_n). The simulation check below compares the micro-op and b_q with those of the
  // cycle's own micro-op and registers at every ALU cycle.
  /* verilator lint_off UNUSEDSIGNAL */
  function automatic [14:0] cur_fn(input [22:0] u);
    cur_fn = {u[22:21], u[15:3]};
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */
  function automatic [26:0] rom_fn(input [8:0] a);
    if (a > {1'b0, O_LAST})       rom_fn = 27'd0;
    else if (a == {1'b0, O_LAST}) rom_fn = {cur_fn(uop_fn(a[7:0])), 12'd0};
    else rom_fn = {cur_fn(uop_fn(a[7:0])), bf_fn(uop_fn(a[7:0] + 8'd1))};
  endfunction
  reg  [26:0]    rom [0:255];
  integer        ri;
  initial begin
    for (ri = 0; ri < 256; ri = ri + 1) rom[ri] = rom_fn(ri[8:0]);
  end
  localparam [11:0] BF0 = bf_fn(uop_fn(8'd0));
  wire           op_end = in_alu && (k_q == u_last);
  wire           alu_n  = !srst_i && !go_i &&
                          ((ph_q == P_PT) || (in_alu && !(op_end && (oi_q == O_LAST))));
  wire [7:0]     ra     = !alu_n ? 8'hff : (ph_q == P_PT) ? 8'd0 : op_end ? oi_q + 8'd1 : oi_q;
  reg  [26:0]    rom_q;
  reg  [11:0]    bf_q;
  wire [11:0]    bn     = (ph_q == P_PT) ? BF0 : op_end ? rom_q[11:0] : bf_q;
  wire           mq_n   = (in_alu && (u_kind == U_MQ))  ? acc_q[PWW-1] :
                          (in_alu && (u_kind == U_MUL)) ? mq_q[PWW-2] : mq_q[PWW-1];
  wire [7:0]     pct_l  = pct_q[lvl_q*8 +: 8];
  reg  [ACW-1:0] b_q;
  always @(posedge clk_i) begin
    rom_q <= rom[ra];
    bf_q  <= bn;
    b_q   <= opb_fn(bn, mq_n, this_q, max_q, avg_q, pb_q, pt_q, t_q, u_q, v_q, pct_l,
                    rem1_q, dr_q[PWW-1:0], tmp1_q);
  end
  // the micro-op: {A, B, sub, ..., kind, constant}, zero outside ALU but B and its constant
  assign uop = {rom_q[26:25], bf_q[11:7], rom_q[24:12], bf_q[2:0]};

  reg  [ACW-1:0] al_a;
  always @* begin
    case (u_a)
      A_ACC:   al_a = acc_q;
      A_ACC2:  al_a = {acc_q[ACW-2:0], 1'b0};
      A_SHR:   al_a = {10'd0, acc_q[ACW-1:10]};
      default: al_a = {ACW{1'b0}};
    endcase
  end
  wire [ACW:0] al_s = {1'b0, al_a} + {1'b0, b_q} + {{ACW{1'b0}}, u_sub};   // {carry, sum}
  wire al_ge = al_s[ACW];                   // with u_sub: A >= B
  wire al_we = in_alu && u_wacc && ((u_cond == C_ALW) || ((u_cond == C_GE) && ge_q) ||
                                    ((u_cond == C_NOG) && f_nog_q));
  function automatic [63:0] a64(input [ACW-1:0] v);
    a64 = {{(64-ACW){1'b0}}, v};
  endfunction
  wire [63:0] acc64 = a64(acc_q);

  // The verdict (enum hws_balance_verdict), hws_balance's chain, from the ALU's flags
  reg [2:0] verd_d;
  always @* begin
    verd_d = 3'd0;
    if (ph_q == P_VERD) begin
      if (!has_b_q)      verd_d = 3'd1;   // NO_BUSIEST
      else if (f_max_q)  verd_d = 3'd2;   // THIS_IS_MAX
      else if (f_avg_q)  verd_d = 3'd3;   // THIS_ABOVE_AVG
      else if (f_win_q)  verd_d = 3'd4;   // WITHIN_PCT
      else if (f_big_q)  verd_d = 3'd6;   // MOVE
      else if (f_gap_q)  verd_d = 3'd7;   // MOVE_ONE: a gap of two tasks
      else if (!f_gain_q) verd_d = 3'd5;  // NO_GAIN
      else               verd_d = 3'd7;   // MOVE_ONE: 1/8 CPU gained
    end
  end

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

  // The busiest-CPU scan: a CPU of the busiest group whose source load (load now for the
  // idle types) is greater than the best so far. The read is registered: the multiplexer
  // reads CPU 0 in VERD (k = 0) and CPU k in the scan's cycle k = 1..N, whose compare takes
  // the CPU read the cycle before (k - 1), so the multiplexer and the source load's
  // compare are not in series with the compare with the best so far.
  wire              cpu_en = (ph_q == P_CPU);
  reg  [LOAD_W-1:0] cv;                     // the CPU read the cycle before: its load
  reg  [CW-1:0]     ctl;                    // ... and its level-l leader
  always @(posedge clk_i) begin
    cv  <= rd_v;
    ctl <= rd_tl;
  end
  wire              ctake  = cpu_en && has_b_q && (ctl == bus_q) && (!cv_q || (cv > cl_q));

  // ---------------------------------------------------------------------------------------
  // Sequencing
  always @(posedge clk_i) begin
    if (srst_i) begin
      ph_q <= P_IDLE;
    end else if (go_i) begin
      ph_q <= P_INIT;
      k_q  <= {KW{1'b0}};
    end else if (run) begin
      k_q <= k_q + K_ONE;
      case (ph_q)
        P_INIT: begin
          ph_q <= P_GRP;
          k_q  <= {KW{1'b0}};
          g_q  <= {CW{1'b0}};
        end
        P_GRP:
          if (k_q == K_SLOT) begin
            k_q <= {KW{1'b0}};
            g_q <= g_q + {{(CW-1){1'b0}}, 1'b1};
            if (g_q == G_LAST) ph_q <= P_AVG;
          end
        P_AVG:
          if (k_q == K_DIV) begin
            ph_q <= P_PB;
            k_q  <= {KW{1'b0}};
          end
        P_PB: ph_q <= P_PT;
        P_PT: begin
          ph_q <= P_ALU;
          k_q  <= {KW{1'b0}};
          oi_q <= 8'd0;
        end
        P_ALU:
          if (k_q == u_last) begin
            k_q  <= {KW{1'b0}};
            oi_q <= oi_q + 8'd1;
            if (oi_q == O_LAST) ph_q <= P_VERD;
          end
        P_VERD: begin
          ph_q <= P_CPU;
          k_q  <= K_ONE;
        end
        P_CPU:
          if (k_q == K_N) ph_q <= P_FIN;
        default: ph_q <= P_IDLE;   // P_FIN
      endcase
    end
  end

  // Datapath registers
  always @(posedge clk_i) begin
    if (go_i) begin
      lvl_q     <= level_i;
      now_q     <= now_only_i;
      c_q       <= cpu_i[CW-1:0];
      tot_q     <= {SW{1'b0}};
      tpw_q     <= {DVW{1'b0}};
      lvg_q     <= 1'b0;
      isT_q     <= 1'b0;
      has_b_q   <= 1'b0;
      bus_q     <= {CW{1'b0}};
      max_q     <= {AW{1'b0}};
      cv_q      <= 1'b0;
      cl_q      <= {LOAD_W{1'b0}};
      ci_q      <= {CW{1'b0}};
    end
    if (ph_q == P_INIT) begin
      this_ld_q <= rd_tl;
      hc_q      <= rd_th;
    end
    if (scan_en) sum_q <= sum_d;
    if (lv_now) begin
      tot_q <= tot_q + sum_q;
      tpw_q <= tpw_q + {{(DVW-PWW){1'b0}}, pw_rd};
    end
    if (in_grp && (k_q == K_N)) begin
      lvg_q <= lv_now;
      isT_q <= (g_q == this_ld_q);
      dg_q  <= g_q;
    end
    if (in_div) begin
      dr_q <= dr_st;
      dx_q <= dx_st;
    end
    if (cmp_en && isT_q) this_q <= dq;
    if (take) begin
      has_b_q <= 1'b1;
      bus_q   <= dg_q;
      max_q   <= dq;
    end
    if ((ph_q == P_AVG) && (k_q == K_DIV)) avg_q <= dx_st[AW-1:0];
    if (ph_q == P_PB) pb_q <= pw_rd;
    if (ph_q == P_PT) pt_q <= pw_rd;
    // ALU
    if (al_we) acc_q <= al_s[ACW-1:0];
    if (in_alu && u_wtuv[2]) t_q <= al_s[TW-1:0];
    if (in_alu && u_wtuv[1]) u_q <= al_s[UW-1:0];
    if (in_alu && u_wtuv[0]) v_q <= al_s[VW-1:0];
    if (in_alu && (u_kind == U_MQ)) mq_q <= acc_q[PWW-1:0];
    if (in_alu && (u_kind == U_MUL)) mq_q <= {mq_q[PWW-2:0], 1'b0};
    if (in_alu && (u_kind == U_IMB)) begin
      f_big_q <= (acc64 >= 64'd1048576);
      imb_q   <= acc64[41:10];
    end
    if (in_alu) begin
      case (u_flag)
        F_GE:    ge_q     <= al_ge;
        F_MAX:   f_max_q  <= al_ge;
        F_AVG:   f_avg_q  <= al_ge;
        F_GAP:   f_gap_q  <= al_ge;
        F_WIN:   f_win_q  <= al_ge;
        F_NOG:   f_nog_q  <= al_ge;
        F_GAIN:  f_gain_q <= al_ge;
        default: ;
      endcase
    end
    if (in_t2 && (k_q == {KW{1'b0}})) begin
      tmp1_q <= dx_q[12:0];
      rem1_q <= dr_q[PWW-1:0];
    end
    if (ph_q == P_VERD) verd_q <= verd_d;
    if ((ph_q == P_VERD) && (verd_d == 3'd7)) imb_q <= 32'd1024;   // MOVE_ONE: BAL_IMB 1024
    if (ctake) begin
      cv_q <= 1'b1;
      cl_q <= cv;
      ci_q <= k_q[CW-1:0] - {{(CW-1){1'b0}}, 1'b1};
    end
  end

  // ---------------------------------------------------------------------------------------
  // ---------------------------------------------------------------------------------------
  // Result and registers (as hws_balance)
  wire       has_cpu = (verd_q == 3'd6) || (verd_q == 3'd7);
  reg  [5:0] bus6, bq6, this6;
  always @* begin
    bus6 = 6'd0;
    bq6  = 6'd0;
    this6 = 6'd0;
    bus6[CW-1:0]  = bus_q;
    bq6[CW-1:0]   = has_cpu ? ci_q : {CW{1'b0}};
    this6[CW-1:0] = this_ld_q;
  end
  assign res_o = ({29'd0, verd_q}   << HWS_BRES_VERDICT_LSB) |
                 ({31'd0, has_b_q}  << HWS_BRES_HAS_BUSIEST_LSB) |
                 ({26'd0, bus6}     << HWS_BRES_BUSIEST_LSB) |
                 ({31'd0, has_cpu}  << HWS_BRES_HAS_CPU_LSB) |
                 ({26'd0, bq6}      << HWS_BRES_BUSIEST_CPU_LSB) |
                 ({26'd0, this6}    << HWS_BRES_THIS_LSB);
  assign done_o = (ph_q == P_FIN);

  // BAL_THIS, BAL_MAX, BAL_AVG, BAL_IMB: written at the final edge; BAL_AVG 0 before
  // THIS_ABOVE_AVG, BAL_IMB imb for MOVE, 1024 for MOVE_ONE (imb_q set so at the verdict's
  // edge), 0 else. (Zeros as synchronous resets: no multiplexer per bit.)
  wire        fin = (ph_q == P_FIN);
  reg [127:0] bal_q;
  always @(posedge clk_i) begin
    if (srst_i) begin
      bal_q[63:0] <= 64'd0;
    end else if (fin) begin
      bal_q[0*32 +: 32] <= lo32(this_q);
      bal_q[1*32 +: 32] <= lo32(max_q);
    end
    if (srst_i || (fin && (verd_q < 3'd3)))
      bal_q[2*32 +: 32] <= 32'd0;
    else if (fin)
      bal_q[2*32 +: 32] <= lo32(avg_q);
    if (srst_i || (fin && !has_cpu))
      bal_q[3*32 +: 32] <= 32'd0;
    else if (fin)
      bal_q[3*32 +: 32] <= imb_q;
  end
  assign regs_o = bal_q;

  wire unused_bits = &{1'b0, cpu_i, pw_cpu_i, dx_st[QW-1:AW], dx_q[QW-1:AW], dr_q,
                            acc64[63:42], dn, uop[20:16], uop[2:0]};

`ifndef SYNTHESIS
`ifndef FORMAL
  // Simulation checks: the quotients fit their registers (the width argument of 8.3)
  always @(posedge clk_i) begin
    if (!srst_i && cmp_en && lvg_q && (dx_q[QW-1:AW] != {(QW-AW){1'b0}})) begin
      $display("hws_balance_lean: ASSERTION FAILED at %0t: group %0d quotient wider than %0d bits",
               $time, dg_q, AW);
      $fatal(1, "hws_balance_lean: quotient overflow");
    end
    if (!srst_i && (ph_q == P_AVG) && (k_q == K_DIV) && (dx_st[QW-1:AW] != {(QW-AW){1'b0}})) begin
      $display("hws_balance_lean: ASSERTION FAILED at %0t: avg_load wider than %0d bits", $time, AW);
      $fatal(1, "hws_balance_lean: quotient overflow");
    end
    // the ALU's pipeline: the registered micro-op and operand B are the cycle's own
    if (!srst_i && in_alu && ((uop != uop_fn(oi_q)) || (bf_q != bf_fn(uop)) ||
        (b_q != opb_fn(bf_q, mq_q[PWW-1], this_q, max_q, avg_q, pb_q, pt_q, t_q, u_q, v_q,
                       pct_l, rem1_q, dr_q[PWW-1:0], tmp1_q)))) begin
      $display("hws_balance_lean: ASSERTION FAILED at %0t: micro-op %0d's registered operand is stale",
               $time, oi_q);
      $fatal(1, "hws_balance_lean: ALU pipeline hazard");
    end
  end
`endif
`endif
endmodule

// hws_div_lean: DS steps of a restoring divider, combinational: hws_div8's steps (the same
// state {r, x}, the same rule), DS a cycle instead of eight, so that hws_balance_lean's one
// divider is DS subtractors. en_i as hws_div8's: the outputs are don't-care (x) when low.
// (Kept in this file, its only user.)
/* verilator lint_off DECLFILENAME */
module hws_div_lean #(
  parameter integer DW = 17,    // divisor and remainder width
  parameter integer XW = 40,    // dividend bits to bring down, then the quotient
  parameter integer DS = 2      // steps (quotient bits) per call, 1..8
) (
  input  wire          en_i,
  input  wire [DW-1:0] r_i,     // partial remainder (< d_i)
  input  wire [XW-1:0] x_i,     // dividend bits to bring down, then quotient bits
  input  wire [DW-1:0] d_i,     // divisor
  output reg  [DW-1:0] r_o,
  output reg  [XW-1:0] x_o
);
  reg [DW+1:0] df;
  reg          q;
  integer      k;
  always @* begin
    r_o = {DW{1'bx}};
    x_o = {XW{1'bx}};
    df  = {(DW+2){1'b0}};
    q   = 1'b0;
    if (en_i) begin
      r_o = r_i;
      x_o = x_i;
      for (k = 0; k < DS; k = k + 1) begin
        df  = {1'b0, r_o, x_o[XW-1]} - {2'b0, d_i};
        q   = !df[DW+1];
        r_o = q ? df[DW-1:0] : {r_o[DW-2:0], x_o[XW-1]};
        x_o = {x_o[XW-2:0], q};
      end
    end
  end
  // df[DW] is the top bit of a remainder below the divisor: always 0 when q is 1.
  wire unused_df = df[DW];
endmodule
/* verilator lint_on DECLFILENAME */

`default_nettype wire
