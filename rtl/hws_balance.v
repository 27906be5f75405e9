// hws_balance: the BALANCE query of the load-comparison unit (docs/accelerator.md 8.2, 8.3)
// and the state only it reads: group powers pw[l][x] and imbalance_pct pct[l].
//
// BALANCE(c, level l, idle type) answers find_busiest_group + find_busiest_queue exactly as
// hws_find_busiest() of firmware/hws_balance.c, over c's level-l domain (the CPUs x with
// block(l+1, x) == block(l+1, c)) whose groups are the level-l blocks in it, taken in
// increasing order of their first CPU (leader). The engine checks the command (including
// DOMAIN, so the partitions read here are consistent) and pulses go_i at the edge that ends
// the check cycle; done_o is high in the final cycle, whose edge is the completion edge.
//
// Schedule after the check cycle (cnt_q counts 0..40 in every 41-cycle window):
//   per group, in leader order:  cnt 0     sum of the group's loads (masked adder over all
//                                          CPUs), and its busiest CPU by source load
//                                cnt 1..40 sum*1024 / pw[l][leader], one quotient bit per cycle
//   T1 (41 cycles)               avg_load  = total*1024 / total power
//   T2 (41 cycles)               tmp1      = 1024*1024 / pb
//   T3 (41 cycles)               tmp2      = (max_load*pb < 2^20 ? max_load*pb : 2^20) / pt
//   FIN (1 cycle)                result word pushed, BAL_* registers written at its edge
// so a BALANCE over G groups completes 1 + 41 G + 123 + 1 = 125 + 41 G edges after its pop.
//
// One shared restoring divider: {dr_q, dx_q} = partial remainder and the 40 dividend bits
// still to bring down (quotient bits shift in at the bottom). Every dividend is below 2^46
// (sum < NR_CPUS * 2^LOAD_W <= 2^36 even with the history loads) and every divisor is
// >= 256 (powers >= MIN_POWER), so bits 47..40 of a dividend give a partial remainder below
// the divisor and 40 iterations give the whole quotient.
//
// One serial multiplier (MSB first over a 17-bit operand, 17 cycles per product) runs beside
// the divider in T1..T3, so no wide multiplier is built:
//   T1: PM = pb * min(max_load, 8191), PT = pt * min(this_load, 8191)
//   T2: P5 = min(max_load - avg_load, avg_load - this_load) * min(pb, pt)  (imb = P5 >> 10),
//       PP = pct[l] * this_load
//   T3: 100 * max_load, compared with PP (WITHIN_PCT)
// The products of the small-imbalance test need no other multiply: pb * tmp1 = 2^20 - rem1
// and pt * tmp2 = N2 - rem2 (the divider's remainders), and the clamp to 8191 changes no
// min(1024, ...) that the C computes (tmp1, tmp2 <= 4096). The verdict is decided from
// these registers at the edge ending T3 and registered, so the final cycle only presents it.
// The busiest CPU of each group is found in its sum cycle (the same per-CPU source loads
// as the sum: the busiest group is never the local one) and kept with the busiest group.
// The spec's final cycle "multiplies and runs the comparator tree"; this schedule gives the
// same answers and the same cycle count.
//
// Every wide computation (the masked adder, the leader search, the verdict) is in a clocked
// block under its enable, so Verilator evaluates none of it outside a BALANCE; only the
// divider and multiplier steps (a few narrow adders) are continuous.
`default_nettype none

module hws_balance #(
  parameter integer NR_CPUS = 8,   // CPUs, 1..64
  parameter integer LOAD_W  = 26,  // width of a per-CPU load or history, 18..30
  // cpu index width (derived; not to be overridden)
  parameter integer CW      = (NR_CPUS > 1) ? $clog2(NR_CPUS) : 1
) (
  input  wire                       clk_i,
  input  wire                       srst_i,     // synchronous reset: pw = 1024, pct = 125,
                                                // BAL_* = 0, a running BALANCE abandoned
  // DOM_SET k = 0 (checks passed): pct[pct_lvl_i] = pct_i
  input  wire                       pct_we_i,
  input  wire [1:0]                 pct_lvl_i,
  input  wire [7:0]                 pct_i,
  // DOM_SET k = 4..7 (checks passed): pw[pw_lvl_i][pw_cpu_i] = pw_i
  input  wire                       pw_we_i,
  input  wire [1:0]                 pw_lvl_i,
  input  wire [5:0]                 pw_cpu_i,   // < NR_CPUS
  input  wire [16:0]                pw_i,       // >= 256
  // The stored partitions P1..P3 (lead of CPU x at [x*CW +: CW]), consistent when go_i
  input  wire [NR_CPUS*CW-1:0]      lead1_i,
  input  wire [NR_CPUS*CW-1:0]      lead2_i,
  input  wire [NR_CPUS*CW-1:0]      lead3_i,
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

  localparam integer SW  = LOAD_W + CW;        // a sum of per-CPU loads
  localparam integer AW  = SW + 2;             // a scaled load, sum * 1024 / power (>= 256)
  localparam integer MW  = (SW + 10 > 30) ? SW + 10 : 30;   // products (and dividends)
  localparam integer DVW = 17 + CW;            // divisors: up to NR_CPUS powers of 17 bits
  localparam integer NPW = 4 << CW;            // pw words, address {level, cpu}

`ifndef __ICARUS__
  generate
    if (NR_CPUS < 1 || NR_CPUS > 64 || LOAD_W < 18 || LOAD_W > 30 ||
        CW != ((NR_CPUS > 1) ? $clog2(NR_CPUS) : 1)) begin : g_bad_param
      $error("hws_balance: NR_CPUS=%0d LOAD_W=%0d CW=%0d (need 1..64, 18..30, clog2(NR_CPUS))",
             NR_CPUS, LOAD_W, CW);
    end
  endgenerate
`endif

  // ---------------------------------------------------------------------------------------
  // pct[l]: four 8-bit words
  reg [31:0] pct_q;
  always @(posedge clk_i) begin
    if (srst_i)        pct_q <= {4{HWS_DEF_PCT[7:0]}};
    else if (pct_we_i) pct_q[pct_lvl_i*8 +: 8] <= pct_i;
  end

  // pw[l][x]: block RAM (one word per {level, cpu}) with a valid bit per word; a word not
  // written since reset reads DEF_POWER. The read address is the current group's leader,
  // registered before the group's sum cycle, so the word is there from its cnt 1 on.
  reg  [2:0]      ph_q;                      // phase, below
  reg  [5:0]      cnt_q;                     // cycle within the 41-cycle window
  reg  [1:0]      lvl_q;
  reg  [CW-1:0]   cur_q;                     // leader of the group being summed/divided
  reg  [NPW-1:0]  pvld_q;
  wire [CW+1:0]   pw_wa = {pw_lvl_i, pw_cpu_i[CW-1:0]};
  wire [CW+1:0]   pw_ra = {lvl_q, cur_q};
  wire [16:0]     pw_rd;
  hws_ram #(.DEPTH(NPW), .WIDTH(17), .AW(CW + 2)) u_pw (
    .clk_i(clk_i), .we_i(pw_we_i && !srst_i), .waddr_i(pw_wa), .wdata_i(pw_i),
    .raddr_i(pw_ra), .rdata_o(pw_rd)
  );
  always @(posedge clk_i) begin
    if (srst_i)       pvld_q <= {NPW{1'b0}};
    else if (pw_we_i) pvld_q[pw_wa] <= 1'b1;
  end
  wire [16:0] pw_val = pvld_q[pw_ra] ? pw_rd : HWS_DEF_POWER[16:0];

  // ---------------------------------------------------------------------------------------
  // Phases
  localparam [2:0] PH_IDLE = 3'd0, PH_GRP = 3'd1, PH_T1 = 3'd2, PH_T2 = 3'd3, PH_T3 = 3'd4,
                   PH_FIN = 3'd5;
  wire in_grp  = (ph_q == PH_GRP);
  wire in_tail = (ph_q == PH_T1) || (ph_q == PH_T2) || (ph_q == PH_T3);
  wire win_end = (in_grp || in_tail) && (cnt_q == 6'd40);   // the window's last cycle

  // Registered state of one BALANCE (no reset: go_i sets what is read before written)
  reg               now_only_q;
  reg [CW-1:0]      this_ld_q;              // leader of the local group
  reg [NR_CPUS-1:0] rem_q;                  // leaders of the groups not yet started
  reg [SW-1:0]      sum_q;                  // the current group's load sum
  reg [CW-1:0]      grp_bq_q;               // ... and its busiest CPU
  reg [SW-1:0]      tot_ld_q;               // total_load
  reg [DVW-1:0]     tot_pw_q;               // total_pwr
  reg [AW-1:0]      this_q, max_q, avg_q;   // this_load, max_load, avg_load
  reg               has_b_q;                // a busiest group exists
  reg [CW-1:0]      bus_q, bq_q;            // its leader, its busiest CPU
  reg [16:0]        pb_q, pt_q;             // powers of the busiest and the local group
  reg [29:0]        pm_q, ptp_q;            // pb * min(max, 8191), pt * min(this, 8191)
  reg               imb_big_q;              // imb >= 1024
  reg [31:0]        imb_q;                  // (uint32) imb
  reg [MW-1:0]      pp_q;                   // pct * this_load
  reg               within_q;               // 100 * max_load <= pct * this_load
  reg [12:0]        tmp1_q;                 // 2^20 / pb (<= 4096)
  reg [16:0]        rem1_q;                 // 2^20 % pb
  reg [2:0]         verdict_q;

  // ---------------------------------------------------------------------------------------
  // Functions of the table, evaluated only at the edges that need them.

  // Block of CPU x in partition P(k), k = 0..4, from the stored P1..P3.
  function automatic [CW-1:0] blk_fn(input [NR_CPUS*CW-1:0] t1, input [NR_CPUS*CW-1:0] t2,
                                     input [NR_CPUS*CW-1:0] t3, input [2:0] k,
                                     /* verilator lint_off UNUSEDSIGNAL */
                                     input integer x   // a CPU, 0..NR_CPUS-1
                                     /* verilator lint_on UNUSEDSIGNAL */);
    begin
      case (k)
        3'd0:    blk_fn = x[CW-1:0];
        3'd1:    blk_fn = t1[x*CW +: CW];
        3'd2:    blk_fn = t2[x*CW +: CW];
        3'd3:    blk_fn = t3[x*CW +: CW];
        default: blk_fn = {CW{1'b0}};
      endcase
    end
  endfunction

  localparam [NR_CPUS-1:0] ONE_M = 1;
  localparam [AW-1:0]      L8191 = 8191;
  localparam [AW-1:0]      L2048 = 2048;

  // (uint32)(p >> 10)
  function automatic [31:0] imb32(input [MW-1:0] p);
    /* verilator lint_off UNUSEDSIGNAL */
    reg [MW+31:0] w;               // zero-extended: bits 41:10 are the result
    /* verilator lint_on UNUSEDSIGNAL */
    begin
      w = {32'd0, p};
      imb32 = w[41:10];
    end
  endfunction

  // {lowest set bit's index, mask without it}
  function automatic [CW+NR_CPUS-1:0] pop_fn(input [NR_CPUS-1:0] m);
    reg [CW-1:0] idx;
    integer      x;
    begin
      idx = {CW{1'b0}};
      for (x = NR_CPUS - 1; x >= 0; x = x - 1)
        if (m[x]) idx = x[CW-1:0];
      pop_fn = {idx, m & (m - ONE_M)};
    end
  endfunction

  // At go: {leader of c's level-l block, first group's leader, the other leaders}. The
  // leaders of the domain's groups are its CPUs that name themselves in Pl (the table is
  // consistent: blocks are named by their first CPU and nest in the domain).
  function automatic [2*CW+NR_CPUS-1:0] start_fn(input [NR_CPUS*CW-1:0] t1,
                                                 input [NR_CPUS*CW-1:0] t2,
                                                 input [NR_CPUS*CW-1:0] t3,
                                                 input [CW-1:0] c, input [1:0] l);
    reg [NR_CPUS-1:0] lds;
    reg [CW-1:0]      hc;
    reg [2:0]         kl, kh;
    integer           x;
    begin
      kl  = {1'b0, l};
      kh  = {1'b0, l} + 3'd1;
      hc  = blk_fn(t1, t2, t3, kh, {{(32-CW){1'b0}}, c});
      lds = {NR_CPUS{1'b0}};
      for (x = 0; x < NR_CPUS; x = x + 1)
        lds[x] = (blk_fn(t1, t2, t3, kh, x) == hc) && (blk_fn(t1, t2, t3, kl, x) == x[CW-1:0]);
      start_fn = {blk_fn(t1, t2, t3, kl, {{(32-CW){1'b0}}, c}), pop_fn(lds)};
    end
  endfunction

  // Sum cycle of the group led by g: {its busiest CPU, its load sum}. Per CPU the load is
  // the load now for the idle types, else the target load max(hist, now) in the local group
  // and the source load min(hist, now) elsewhere; the busiest CPU is the first with the
  // largest such load (only used for a non-local group, where it is the source load).
  function automatic [CW+SW-1:0] sum_fn(input [NR_CPUS*CW-1:0] t1, input [NR_CPUS*CW-1:0] t2,
                                        input [NR_CPUS*CW-1:0] t3, input [1:0] l,
                                        input [CW-1:0] g, input loc, input now_only,
                                        input [NR_CPUS*LOAD_W-1:0] ld,
                                        input [NR_CPUS*LOAD_W-1:0] hs);
    reg [SW-1:0]     s;
    reg [LOAD_W-1:0] n, h, v, best;
    reg [CW-1:0]     bi;
    reg              found;
    integer          x;
    begin
      s     = {SW{1'b0}};
      best  = {LOAD_W{1'b0}};
      bi    = {CW{1'b0}};
      found = 1'b0;
      for (x = 0; x < NR_CPUS; x = x + 1) begin
        n = ld[x*LOAD_W +: LOAD_W];
        h = hs[x*LOAD_W +: LOAD_W];
        v = (now_only || (loc == (h < n))) ? n : h;
        if (blk_fn(t1, t2, t3, {1'b0, l}, x) == g) begin
          s = s + {{CW{1'b0}}, v};
          if (!found || (v > best)) begin
            best  = v;
            bi    = x[CW-1:0];
            found = 1'b1;
          end
        end
      end
      sum_fn = {bi, s};
    end
  endfunction

  // The verdict (enum hws_balance_verdict) at the edge ending T3, rem2 = N2 % pt.
  function automatic [2:0] verdict_fn(input has_b, input [AW-1:0] this_l,
                                      input [AW-1:0] max_l, input [AW-1:0] avg_l,
                                      input in_pct, input imb_big,
                                      input [16:0] pb, input [16:0] pt,
                                      input [29:0] pm, input [29:0] ptp,
                                      input [12:0] tmp1, input [16:0] rem1,
                                      input [20:0] n2, input [16:0] rem2);
    reg [26:0] pbk, ptk, a1, a2, m1, m2;
    reg [29:0] x1;
    reg [30:0] x2;
    /* verilator lint_off UNUSEDSIGNAL */
    reg [27:0] now_s, move_s;      // * 1024: only bits 27:10 are compared
    /* verilator lint_on UNUSEDSIGNAL */
    reg [AW-1:0] gap;
    begin
      pbk = {pb, 10'd0};
      ptk = {pt, 10'd0};
      // pwr_now * 1024 = pb * min(1024, max) + pt * min(1024, this)
      a1 = (pm < {3'd0, pbk}) ? pm[26:0] : pbk;
      a2 = (ptp < {3'd0, ptk}) ? ptp[26:0] : ptk;
      // pwr_move * 1024 = [max > tmp1] pb * min(1024, max - tmp1) + pt * min(1024, this + tmp2)
      x1 = pm - (30'd1048576 - {13'd0, rem1});                  // pb * (max - tmp1)
      x2 = {1'b0, ptp} + {10'd0, n2} - {14'd0, rem2};             // pt * (this + tmp2)
      m1 = 27'd0;
      if (max_l > {{(AW-13){1'b0}}, tmp1})
        m1 = (x1 < {3'd0, pbk}) ? x1[26:0] : pbk;
      m2 = (x2 < {4'd0, ptk}) ? x2[26:0] : ptk;
      now_s  = {1'b0, a1} + {1'b0, a2};
      move_s = {1'b0, m1} + {1'b0, m2};
      gap = max_l - this_l;
      if (!has_b)                verdict_fn = 3'd1;   // NO_BUSIEST
      else if (this_l >= max_l)  verdict_fn = 3'd2;   // THIS_IS_MAX
      else if (this_l >= avg_l)  verdict_fn = 3'd3;   // THIS_ABOVE_AVG
      else if (in_pct)           verdict_fn = 3'd4;   // WITHIN_PCT
      else if (imb_big)          verdict_fn = 3'd6;   // MOVE
      else if (gap >= L2048)     verdict_fn = 3'd7;   // MOVE_ONE
      else if ({8'd0, move_s[27:10]} < {8'd0, now_s[27:10]} + 26'd128)
                                 verdict_fn = 3'd5;   // NO_GAIN
      else                       verdict_fn = 3'd7;   // MOVE_ONE
    end
  endfunction

  // ---------------------------------------------------------------------------------------
  // The divider: one quotient bit per cycle in cnt 1..40 of every window; at cnt 1 it
  // starts from the window's dividend.
  wire [DVW-1:0] dv;                 // divisor of the window
  reg  [47:0]    dn;                 // dividend of the window
  reg  [DVW-1:0] dr_q;               // partial remainder (< divisor)
  reg  [39:0]    dx_q;               // dividend bits to bring down, quotient bits below
  wire [20:0]    n2 = (pm_q < 30'd1048576) ? pm_q[20:0] : 21'd1048576;
  assign dv = in_grp ? {{(DVW-17){1'b0}}, pw_val} :
              (ph_q == PH_T1) ? tot_pw_q :
              (ph_q == PH_T2) ? {{(DVW-17){1'b0}}, pb_q} : {{(DVW-17){1'b0}}, pt_q};
  always @* begin
    dn = 48'd0;
    if (in_grp)                dn[SW+9:0] = {sum_q, 10'd0};
    else if (ph_q == PH_T1)    dn[SW+9:0] = {tot_ld_q, 10'd0};
    else if (ph_q == PH_T2)    dn[20] = 1'b1;
    else                       dn[20:0] = n2;
  end
  wire           d_first = (cnt_q == 6'd1);
  wire [DVW-1:0] dr_in = d_first ? {{(DVW-8){1'b0}}, dn[47:40]} : dr_q;
  wire [39:0]    dx_in = d_first ? dn[39:0] : dx_q;
  wire [DVW:0]   dt    = {dr_in, dx_in[39]};
  wire           dge   = (dt >= {1'b0, dv});
  wire [DVW:0]   dsub  = dt - {1'b0, dv};
  wire [DVW-1:0] dr_nx = dge ? dsub[DVW-1:0] : dt[DVW-1:0];
  wire [39:0]    dx_nx = {dx_in[38:0], dge};
  wire [AW-1:0]  quot  = dx_nx[AW-1:0];      // the quotient, at a window's last edge

  // The multiplier: acc = 2 acc + (bit ? a : 0), MSB first over mb_q; products in cnt 1..17
  // and 18..34 of T1..T3.
  reg  [MW-1:0]  acc_q;
  reg  [16:0]    mb_q;
  reg  [MW-1:0]  ma;
  wire           m_lo  = (cnt_q <= 6'd17);
  wire [AW-1:0]  dmx   = max_q - avg_q;
  wire [AW-1:0]  dth   = avg_q - this_q;
  wire [AW-1:0]  dmin  = (dmx < dth) ? dmx : dth;
  wire [AW-1:0]  max13 = (max_q > L8191) ? L8191 : max_q;
  wire [AW-1:0]  this13 = (this_q > L8191) ? L8191 : this_q;
  always @* begin
    ma = {MW{1'b0}};
    case (ph_q)
      PH_T1:   ma[AW-1:0] = m_lo ? max13 : this13;
      PH_T2:   ma[AW-1:0] = m_lo ? dmin : this_q;
      default: ma[AW-1:0] = max_q;
    endcase
  end
  wire [MW-1:0]  acc_in = ((cnt_q == 6'd1) || (cnt_q == 6'd18)) ? {MW{1'b0}} : acc_q;
  wire [MW-1:0]  acc_nx = {acc_in[MW-2:0], 1'b0} + (mb_q[16] ? ma : {MW{1'b0}});
  wire [16:0]    pct_l  = {9'd0, pct_q[lvl_q*8 +: 8]};
  wire [16:0]    pmin   = (pb_q < pt_q) ? pb_q : pt_q;

  // ---------------------------------------------------------------------------------------
  // Sequencing
  always @(posedge clk_i) begin
    if (srst_i) begin
      ph_q  <= PH_IDLE;
      cnt_q <= 6'd0;
    end else if (go_i) begin
      ph_q  <= PH_GRP;
      cnt_q <= 6'd0;
    end else if (ph_q == PH_FIN) begin
      ph_q  <= PH_IDLE;
    end else if (win_end) begin
      cnt_q <= 6'd0;
      if (!in_grp || (rem_q == {NR_CPUS{1'b0}})) ph_q <= ph_q + 3'd1;
    end else if (in_grp || in_tail) begin
      cnt_q <= cnt_q + 6'd1;
    end
  end

  // The BALANCE's own registers
  always @(posedge clk_i) begin
    if (go_i) begin
      lvl_q      <= level_i;
      now_only_q <= now_only_i;
      {this_ld_q, cur_q, rem_q} <= start_fn(lead1_i, lead2_i, lead3_i, cpu_i[CW-1:0], level_i);
      tot_ld_q   <= {SW{1'b0}};
      tot_pw_q   <= {DVW{1'b0}};
      this_q     <= {AW{1'b0}};
      max_q      <= {AW{1'b0}};
      has_b_q    <= 1'b0;
      bus_q      <= {CW{1'b0}};
      bq_q       <= {CW{1'b0}};
      pb_q       <= HWS_DEF_POWER[16:0];   // any power: divided by when no group is busiest
    end
    // a group's sum cycle
    if (in_grp && (cnt_q == 6'd0))
      {grp_bq_q, sum_q} <= sum_fn(lead1_i, lead2_i, lead3_i, lvl_q, cur_q,
                                  cur_q == this_ld_q, now_only_q, load_i, hist_i);
    // a group's last cycle: its scaled load is the quotient
    if (in_grp && win_end) begin
      tot_ld_q <= tot_ld_q + sum_q;
      tot_pw_q <= tot_pw_q + {{(DVW-17){1'b0}}, pw_val};
      if (cur_q == this_ld_q) begin
        this_q <= quot;
        pt_q   <= pw_val;
      end else if (quot > max_q) begin   // strictly: the first group in leader order wins
        max_q   <= quot;
        has_b_q <= 1'b1;
        bus_q   <= cur_q;
        bq_q    <= grp_bq_q;
        pb_q    <= pw_val;
      end
      {cur_q, rem_q} <= pop_fn(rem_q);
    end
    // the divider
    if ((in_grp || in_tail) && (cnt_q != 6'd0)) begin
      dr_q <= dr_nx;
      dx_q <= dx_nx;
    end
    if ((ph_q == PH_T1) && win_end) avg_q <= quot;
    if ((ph_q == PH_T2) && win_end) begin
      tmp1_q <= dx_nx[12:0];
      rem1_q <= dr_nx[16:0];
    end
    if ((ph_q == PH_T3) && win_end)
      verdict_q <= verdict_fn(has_b_q, this_q, max_q, avg_q, within_q, imb_big_q, pb_q, pt_q,
                              pm_q, ptp_q, tmp1_q, rem1_q, n2, dr_nx[16:0]);
    // the multiplier
    if (in_tail) begin
      if (cnt_q == 6'd0) begin
        case (ph_q)
          PH_T1:   mb_q <= pb_q;
          PH_T2:   mb_q <= pmin;
          default: mb_q <= 17'd100;
        endcase
      end else if (cnt_q == 6'd17) begin
        mb_q <= (ph_q == PH_T1) ? pt_q : pct_l;
      end else begin
        mb_q <= {mb_q[15:0], 1'b0};
      end
      if ((cnt_q != 6'd0) && (cnt_q <= 6'd34)) acc_q <= acc_nx;
      if (cnt_q == 6'd17) begin
        case (ph_q)
          PH_T1: pm_q <= acc_nx[29:0];
          PH_T2: begin
            imb_big_q <= (acc_nx >= {{(MW-21){1'b0}}, 21'd1048576});
            imb_q     <= imb32(acc_nx);
          end
          default: within_q <= (acc_nx <= pp_q);
        endcase
      end
      if (cnt_q == 6'd34) begin
        if (ph_q == PH_T1) ptp_q <= acc_nx[29:0];
        if (ph_q == PH_T2) pp_q  <= acc_nx;
      end
    end
  end

  // ---------------------------------------------------------------------------------------
  // Result and registers
  wire        has_cpu = (verdict_q == 3'd6) || (verdict_q == 3'd7);
  reg  [5:0]  bus6, bq6, this6;
  always @* begin
    bus6 = 6'd0;
    bq6  = 6'd0;
    this6 = 6'd0;
    bus6[CW-1:0]  = bus_q;
    bq6[CW-1:0]   = has_cpu ? bq_q : {CW{1'b0}};
    this6[CW-1:0] = this_ld_q;
  end
  assign res_o = ({29'd0, verdict_q} << HWS_BRES_VERDICT_LSB) |
                 ({31'd0, has_b_q}   << HWS_BRES_HAS_BUSIEST_LSB) |
                 ({26'd0, bus6}      << HWS_BRES_BUSIEST_LSB) |
                 ({31'd0, has_cpu}   << HWS_BRES_HAS_CPU_LSB) |
                 ({26'd0, bq6}       << HWS_BRES_BUSIEST_CPU_LSB) |
                 ({26'd0, this6}     << HWS_BRES_THIS_LSB);
  assign done_o = (ph_q == PH_FIN);

  reg [31:0] bal_this_q, bal_max_q, bal_avg_q, bal_imb_q;
  wire [AW+31:0] this_x = {32'd0, this_q};
  wire [AW+31:0] max_x  = {32'd0, max_q};
  wire [AW+31:0] avg_x  = {32'd0, avg_q};
  always @(posedge clk_i) begin
    if (srst_i) begin
      bal_this_q <= 32'd0;
      bal_max_q  <= 32'd0;
      bal_avg_q  <= 32'd0;
      bal_imb_q  <= 32'd0;
    end else if (ph_q == PH_FIN) begin
      bal_this_q <= this_x[31:0];
      bal_max_q  <= max_x[31:0];
      bal_avg_q  <= (verdict_q >= 3'd3) ? avg_x[31:0] : 32'd0;
      bal_imb_q  <= (verdict_q == 3'd6) ? imb_q : (verdict_q == 3'd7) ? 32'd1024 : 32'd0;
    end
  end
  assign regs_o = {bal_imb_q, bal_avg_q, bal_max_q, bal_this_q};

  wire unused_bits = &{1'b0, cpu_i, pw_cpu_i, dsub[DVW], dx_nx[39:AW], acc_in[MW-1],
                            this_x[AW+31:32], max_x[AW+31:32], avg_x[AW+31:32]};

  // ---------------------------------------------------------------------------------------
  // Simulation checks: the quotients fit their registers (the width argument of 8.3).
`ifndef SYNTHESIS
  always @(posedge clk_i) begin
    if (!srst_i && win_end && (in_grp || (ph_q == PH_T1)) && (dx_nx[39:AW] != {(40-AW){1'b0}})) begin
      $display("hws_balance: ASSERTION FAILED at %0t: quotient %0d wider than %0d bits",
               $time, dx_nx, AW);
      $fatal(1, "hws_balance: quotient overflow");
    end
    if (!srst_i && pw_we_i && (pw_i < HWS_MIN_POWER[16:0])) begin
      $display("hws_balance: ASSERTION FAILED at %0t: power %0d written", $time, pw_i);
      $fatal(1, "hws_balance: power below MIN_POWER");
    end
  end
`endif
endmodule

`default_nettype wire
