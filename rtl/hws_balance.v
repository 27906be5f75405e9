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
// Simulation cost: the wide computations (the masked adder, the leader search, the verdict) are
// in clocked blocks under their enables, and the divider and multiplier steps in an
// always @* block whose body runs only inside a window, so an edge outside a BALANCE costs
// a few compares here (and an edge inside one about what an idle edge costs).
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

  // ---------------------------------------------------------------------------------------
  // Phases
  localparam [2:0] PH_IDLE = 3'd0, PH_GRP = 3'd1, PH_T1 = 3'd2, PH_T2 = 3'd3, PH_T3 = 3'd4,
                   PH_FIN = 3'd5;
  wire in_run = (ph_q >= PH_GRP) && (ph_q <= PH_T3);   // a window: GRP, T1, T2 or T3

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
  reg [31:0]        res_q;                  // the result word, from the edge ending T3

  // ---------------------------------------------------------------------------------------
  // Functions of the table, evaluated only at the edges that need them.

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

  // Partition P0 (every CPU alone) as a table: lead of x = x.
  function automatic [NR_CPUS*CW-1:0] ident_fn(input integer unused_arg);
    integer x;
    begin
      ident_fn = {NR_CPUS*CW{1'b0}};
      for (x = 0; x < NR_CPUS; x = x + 1) ident_fn[x*CW +: CW] = x[CW-1:0];
      if (unused_arg != 0) ident_fn = {NR_CPUS*CW{1'b0}};
    end
  endfunction
  localparam [NR_CPUS*CW-1:0] IDENT = ident_fn(0);

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
  // consistent: blocks are named by their first CPU and nest in the domain). tl, th: the
  // tables of Pl and P(l+1) (P0 every CPU alone, P4 all CPUs in one block).
  // The functions read the tables and loads from the module's ports instead of taking
  // them as arguments, and call no other function: Verilator zeroes the arguments and
  // locals of every inlined call at every edge, whether the call runs or not.
  function automatic [2*CW+NR_CPUS-1:0] start_fn(input [CW-1:0] c, input [1:0] l);
    reg [NR_CPUS*CW-1:0] tl, th;
    reg [NR_CPUS-1:0]    lds;
    reg [CW-1:0]         hc, idx;
    integer              x;
    begin
      case (l)
        2'd0:    begin tl = IDENT;   th = lead1_i; end
        2'd1:    begin tl = lead1_i; th = lead2_i; end
        2'd2:    begin tl = lead2_i; th = lead3_i; end
        default: begin tl = lead3_i; th = {NR_CPUS*CW{1'b0}}; end
      endcase
      hc  = th[c*CW +: CW];
      lds = {NR_CPUS{1'b0}};
      idx = {CW{1'b0}};
      for (x = NR_CPUS - 1; x >= 0; x = x - 1) begin
        lds[x] = (th[x*CW +: CW] == hc) && (tl[x*CW +: CW] == x[CW-1:0]);
        if (lds[x]) idx = x[CW-1:0];
      end
      start_fn = {tl[c*CW +: CW], idx, lds & (lds - ONE_M)};
    end
  endfunction

  // Sum cycle of the group led by g: {its busiest CPU, its load sum}. Per CPU the load is
  // the load now for the idle types, else the target load max(hist, now) in the local group
  // and the source load min(hist, now) elsewhere; the busiest CPU is the first with the
  // largest such load (only used for a non-local group, where it is the source load).
  function automatic [CW+SW-1:0] sum_fn(input [1:0] l, input [CW-1:0] g, input loc);
    reg [NR_CPUS*CW-1:0] tl;
    reg [SW-1:0]         s;
    reg [LOAD_W-1:0]     n, h, v, best;
    reg [CW-1:0]         bi;
    reg                  found;
    integer              x;
    begin
      case (l)
        2'd0:    tl = IDENT;
        2'd1:    tl = lead1_i;
        2'd2:    tl = lead2_i;
        default: tl = lead3_i;
      endcase
      s     = {SW{1'b0}};
      best  = {LOAD_W{1'b0}};
      bi    = {CW{1'b0}};
      found = 1'b0;
      for (x = 0; x < NR_CPUS; x = x + 1) begin
        n = load_i[x*LOAD_W +: LOAD_W];
        h = hist_i[x*LOAD_W +: LOAD_W];
        v = (now_only_q || (loc == (h < n))) ? n : h;
        if (tl[x*CW +: CW] == g) begin
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

  // The verdict (enum hws_balance_verdict) at the edge ending T3, from the registers and
  // T3's dividend n2 and remainder rem2 = n2 % pt.
  //   pwr_now  * 1024 = pb * min(1024, max) + pt * min(1024, this)
  //   pwr_move * 1024 = [max > tmp1] pb * min(1024, max - tmp1) + pt * min(1024, this + tmp2)
  // with pb * min(1024, v) = min(pb << 10, pb * v), pb * tmp1 = 2^20 - rem1 and
  // pt * tmp2 = n2 - rem2.
  function automatic [2:0] verdict_fn(input [20:0] n2, input [16:0] rem2);
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
      x1 = pm_q - (30'd1048576 - {13'd0, rem1_q});               // pb * (max - tmp1)
      x2 = {1'b0, ptp_q} + {10'd0, n2} - {14'd0, rem2};          // pt * (this + tmp2)
      m1 = 27'd0;
      if (max_q > {{(AW-13){1'b0}}, tmp1_q})
        m1 = (x1 < {3'd0, pbk}) ? x1[26:0] : pbk;
      m2 = (x2 < {4'd0, ptk}) ? x2[26:0] : ptk;
      now_s  = {1'b0, a1} + {1'b0, a2};
      move_s = {1'b0, m1} + {1'b0, m2};
      if (!has_b_q)                    verdict_fn = 3'd1;   // NO_BUSIEST
      else if (this_q >= max_q)        verdict_fn = 3'd2;   // THIS_IS_MAX
      else if (this_q >= avg_q)        verdict_fn = 3'd3;   // THIS_ABOVE_AVG
      else if (within_q)               verdict_fn = 3'd4;   // WITHIN_PCT
      else if (imb_big_q)              verdict_fn = 3'd6;   // MOVE
      else if (max_q - this_q >= L2048) verdict_fn = 3'd7;  // MOVE_ONE: a gap of two tasks
      else if ({8'd0, move_s[27:10]} < {8'd0, now_s[27:10]} + 26'd128)
                                       verdict_fn = 3'd5;   // NO_GAIN
      else                             verdict_fn = 3'd7;   // MOVE_ONE: 1/8 CPU gained
    end
  endfunction

  // The result word of verdict v (BRES fields; every other bit 0).
  function automatic [31:0] res_fn(input [2:0] v);
    reg [5:0] bus6, bq6, this6;
    reg       has_cpu;
    begin
      has_cpu = (v == 3'd6) || (v == 3'd7);
      bus6  = 6'd0;
      bq6   = 6'd0;
      this6 = 6'd0;
      bus6[CW-1:0]  = bus_q;
      bq6[CW-1:0]   = has_cpu ? bq_q : {CW{1'b0}};
      this6[CW-1:0] = this_ld_q;
      res_fn = ({29'd0, v}       << HWS_BRES_VERDICT_LSB) |
               ({31'd0, has_b_q} << HWS_BRES_HAS_BUSIEST_LSB) |
               ({26'd0, bus6}    << HWS_BRES_BUSIEST_LSB) |
               ({31'd0, has_cpu} << HWS_BRES_HAS_CPU_LSB) |
               ({26'd0, bq6}     << HWS_BRES_BUSIEST_CPU_LSB) |
               ({26'd0, this6}   << HWS_BRES_THIS_LSB);
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
  // Datapath of one cycle: the divider step (cnt 1..40 of every window; at cnt 1 it starts
  // from the window's dividend) and the multiplier step (acc = 2 acc + (bit ? a : 0), MSB
  // first over mb_q; products in cnt 1..17 and 18..34 of T1..T3). Computed only while a
  // BALANCE runs (zeros otherwise), so an idle edge costs Verilator one compare here.
  reg  [DVW-1:0] dr_q;               // partial remainder (< divisor)
  reg  [39:0]    dx_q;               // dividend bits to bring down, quotient bits below
  reg  [MW-1:0]  acc_q;
  reg  [16:0]    mb_q;

  reg  [16:0]    pw_val;             // pw[l][cur] (DEF_POWER when not written)
  reg  [20:0]    n2;                 // T3's dividend: max_load * pb, or 2^20
  reg  [DVW-1:0] dv;                 // divisor of the window
  reg  [47:0]    dn;                 // dividend of the window
  reg  [DVW-1:0] dr_in, dr_nx;
  reg  [39:0]    dx_in, dx_nx;
  reg  [DVW:0]   dt, dsub;
  reg            dge;
  reg  [AW-1:0]  dmx, dth, ma_l;
  reg  [MW-1:0]  ma, acc_in, acc_nx;
  always @* begin
    pw_val = 17'd0;  n2 = 21'd0;  dv = {DVW{1'b0}};  dn = 48'd0;
    dr_in = {DVW{1'b0}};  dx_in = 40'd0;  dt = {(DVW+1){1'b0}};  dsub = {(DVW+1){1'b0}};
    dge = 1'b0;  dr_nx = {DVW{1'b0}};  dx_nx = 40'd0;
    dmx = {AW{1'b0}};  dth = {AW{1'b0}};  ma_l = {AW{1'b0}};
    ma = {MW{1'b0}};  acc_in = {MW{1'b0}};  acc_nx = {MW{1'b0}};
    if (in_run) begin
      pw_val = pvld_q[pw_ra] ? pw_rd : HWS_DEF_POWER[16:0];
      n2     = (pm_q < 30'd1048576) ? pm_q[20:0] : 21'd1048576;
      case (ph_q)
        PH_GRP: begin
          dv = {{(DVW-17){1'b0}}, pw_val};
          dn[SW+9:0] = {sum_q, 10'd0};
        end
        PH_T1: begin
          dv = tot_pw_q;
          dn[SW+9:0] = {tot_ld_q, 10'd0};
        end
        PH_T2: begin
          dv = {{(DVW-17){1'b0}}, pb_q};
          dn[20] = 1'b1;
        end
        default: begin
          dv = {{(DVW-17){1'b0}}, pt_q};
          dn[20:0] = n2;
        end
      endcase
      // the divider
      dr_in = (cnt_q == 6'd1) ? {{(DVW-8){1'b0}}, dn[47:40]} : dr_q;
      dx_in = (cnt_q == 6'd1) ? dn[39:0] : dx_q;
      dt    = {dr_in, dx_in[39]};
      dge   = (dt >= {1'b0, dv});
      dsub  = dt - {1'b0, dv};
      dr_nx = dge ? dsub[DVW-1:0] : dt[DVW-1:0];
      dx_nx = {dx_in[38:0], dge};
      // the multiplier
      dmx = max_q - avg_q;
      dth = avg_q - this_q;
      case (ph_q)
        PH_T1:   ma_l = (cnt_q <= 6'd17) ? ((max_q > L8191) ? L8191 : max_q)
                                         : ((this_q > L8191) ? L8191 : this_q);
        PH_T2:   ma_l = (cnt_q <= 6'd17) ? ((dmx < dth) ? dmx : dth) : this_q;
        default: ma_l = max_q;
      endcase
      ma[AW-1:0] = ma_l;
      acc_in = ((cnt_q == 6'd1) || (cnt_q == 6'd18)) ? {MW{1'b0}} : acc_q;
      acc_nx = {acc_in[MW-2:0], 1'b0} + (mb_q[16] ? ma : {MW{1'b0}});
    end
  end
  wire [AW-1:0] quot = dx_nx[AW-1:0];   // the quotient, at a window's last edge

  // ---------------------------------------------------------------------------------------
  // Sequencing and registers. Every register has one assignment statement under one
  // enable: Verilator then updates it in place (a register assigned in two statements gets
  // a shadow copy, written back at every edge).
  wire          grp_end = (ph_q == PH_GRP) && (cnt_q == 6'd40);   // a group's last cycle
  wire          loc_end = grp_end && (cur_q == this_ld_q);       // ... the local group's
  wire          bus_end = grp_end && (cur_q != this_ld_q) && (quot > max_q);   // a new busiest
                                                     // (strictly: the first in leader order wins)
  always @(posedge clk_i) begin
    if (srst_i || go_i || (ph_q != PH_IDLE))
      ph_q <= srst_i ? PH_IDLE :
              go_i ? PH_GRP :
              (ph_q == PH_FIN) ? PH_IDLE :
              ((cnt_q == 6'd40) && ((ph_q != PH_GRP) || (rem_q == {NR_CPUS{1'b0}}))) ?
                  ph_q + 3'd1 : ph_q;
    if (srst_i || go_i || in_run)
      cnt_q <= (srst_i || go_i || (cnt_q == 6'd40)) ? 6'd0 : cnt_q + 6'd1;
  end

  always @(posedge clk_i) begin
    if (go_i) begin
      lvl_q      <= level_i;
      now_only_q <= now_only_i;
    end
    if (go_i || grp_end) begin
      {this_ld_q, cur_q, rem_q} <= go_i ? start_fn(cpu_i[CW-1:0], level_i)
                                        : {this_ld_q, pop_fn(rem_q)};
      tot_ld_q <= go_i ? {SW{1'b0}} : tot_ld_q + sum_q;
      tot_pw_q <= go_i ? {DVW{1'b0}} : tot_pw_q + {{(DVW-17){1'b0}}, pw_val};
    end
    if (go_i || loc_end) this_q <= go_i ? {AW{1'b0}} : quot;
    if (loc_end)         pt_q   <= pw_val;
    if (go_i || bus_end) begin
      max_q   <= go_i ? {AW{1'b0}} : quot;
      has_b_q <= !go_i;
      bus_q   <= go_i ? {CW{1'b0}} : cur_q;
      bq_q    <= go_i ? {CW{1'b0}} : grp_bq_q;
      pb_q    <= go_i ? HWS_DEF_POWER[16:0] : pw_val;   // (any power when none is busiest)
    end
    if (in_run) begin
      // a group's sum cycle
      if ((ph_q == PH_GRP) && (cnt_q == 6'd0))
        {grp_bq_q, sum_q} <= sum_fn(lvl_q, cur_q, cur_q == this_ld_q);
      // the divider
      if (cnt_q != 6'd0) begin
        dr_q <= dr_nx;
        dx_q <= dx_nx;
      end
      // the last cycle of a tail window
      if (cnt_q == 6'd40) begin
        case (ph_q)
          PH_T1: avg_q <= quot;
          PH_T2: begin
            tmp1_q <= dx_nx[12:0];
            rem1_q <= dr_nx[16:0];
          end
          PH_T3: res_q <= res_fn(verdict_fn(n2, dr_nx[16:0]));
          default: ;
        endcase
      end
      // the multiplier (T1..T3)
      if (ph_q != PH_GRP) begin
        // the 17-bit operands: T1 pb then pt, T2 min(pb, pt) then pct[l], T3 100
        mb_q <= (cnt_q == 6'd0) ? ((ph_q == PH_T1) ? pb_q :
                                   (ph_q == PH_T2) ? ((pb_q < pt_q) ? pb_q : pt_q) : 17'd100) :
                (cnt_q == 6'd17) ? ((ph_q == PH_T1) ? pt_q : {9'd0, pct_q[lvl_q*8 +: 8]}) :
                {mb_q[15:0], 1'b0};
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
  end

  // ---------------------------------------------------------------------------------------
  // Result and registers
  wire [2:0] verdict = res_q[HWS_BRES_VERDICT_LSB +: 3];
  assign res_o  = res_q;
  assign done_o = (ph_q == PH_FIN);

  // BAL_THIS, BAL_MAX, BAL_AVG, BAL_IMB at [0 +: 32] .. [96 +: 32]: one register, so the
  // ports up to the register file pass it without rebuilding a vector.
  reg [127:0] bal_q;
  always @(posedge clk_i) begin
    if (srst_i) begin
      bal_q <= 128'd0;
    end else if (ph_q == PH_FIN) begin
      bal_q[0*32 +: 32] <= lo32(this_q);
      bal_q[1*32 +: 32] <= lo32(max_q);
      bal_q[2*32 +: 32] <= (verdict >= 3'd3) ? lo32(avg_q) : 32'd0;
      bal_q[3*32 +: 32] <= (verdict == 3'd6) ? imb_q : (verdict == 3'd7) ? 32'd1024 : 32'd0;
    end
  end
  assign regs_o = bal_q;

  wire unused_bits = &{1'b0, cpu_i, pw_cpu_i, dsub[DVW], dx_nx[39:AW], acc_in[MW-1],
                            res_q[31:27], res_q[23], res_q[15], res_q[7:6]};

  // ---------------------------------------------------------------------------------------
  // Simulation checks: the quotients fit their registers (the width argument of 8.3).
`ifndef SYNTHESIS
  always @(posedge clk_i) begin
    if (!srst_i && in_run && (cnt_q == 6'd40) && ((ph_q == PH_GRP) || (ph_q == PH_T1)) &&
        (dx_nx[39:AW] != {(40-AW){1'b0}})) begin
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
