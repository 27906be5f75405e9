// hws_irq: the preemption interrupt (docs/accelerator.md 4.6).
//
// Owns CURR[c] (the priority CPU c runs at, CURR_IDLE = 255 for none), IRQ_PEND (a bit per
// CPU) and IRQ_EN, and drives irq_o = |(IRQ_PEND & IRQ_EN) and the per-CPU lines. Every
// effect of an edge is computed from the state just before it:
//   - a link into CPU c's active array that completes at this edge (ENQUEUE with ARRAY 0,
//     the link of REQUEUE, SET_PRIO or MIGRATE into an active array: the engine's lnk_i)
//     sets IRQ_PEND[c] when its priority is below CURR[c] as it was before the edge;
//   - a PICK_NEXT(c) that completes at this edge without an error (a POP[c] read's or a
//     CMD write's) sets CURR[c] to the picked task's priority (CURR_IDLE when it returns
//     NONE) and clears IRQ_PEND[c];
//   - a write taken at this edge (on any of the NR_PORTS ports): CURR[c] (CURR_BASE + 4c,
//     c < NR_CPUS) takes bits 7:0 (a PICK_NEXT of the same CPU at the same edge wins);
//     IRQ_PENDn clears the bits written 1 (a link at the same edge sets its bit all the
//     same); IRQ_ENn is written. Writes of several ports at one edge: the W1C masks are
//     OR-ed; of CURR[c] or IRQ_ENn written by more than one port the highest-numbered
//     port's word is taken;
//   - the reset (rst_ni or CTRL.SOFT_RESET) wins over all: CURR[*] = CURR_IDLE, IRQ_PEND
//     and IRQ_EN 0.
// A failed command links nothing and picks nothing, so it changes nothing here.
`default_nettype none

module hws_irq #(
  parameter integer NR_CPUS  = 8,      // CPUs, 1..64
  parameter integer NR_PORTS = 1       // bus ports whose writes come in, 1..4
) (
  input  wire               clk_i,
  input  wire               srst_i,      // synchronous reset (rst_ni or CTRL.SOFT_RESET)
  // per port p (bit p, [p*10 +: 10], [p*32 +: 32]): a bus write taken at this edge with
  // WSTRB = 0xF, its address and data
  input  wire [NR_PORTS-1:0]    wr_i,
  input  wire [NR_PORTS*10-1:0] wr_addr_i,
  input  wire [NR_PORTS*32-1:0] wr_data_i,
  output wire [NR_PORTS-1:0]    wr_hit_o,  // port p's address is one of this module's
  // the engine's completion at this edge: a link {valid, active array, cpu, prio}
  input  wire [15:0]        lnk_i,
  // ... a PICK_NEXT that did not fail, its CPU and the picked prio (CURR_IDLE: NONE)
  input  wire               pick_i,
  input  wire [5:0]         pick_cpu_i,
  input  wire [7:0]         pick_prio_i,
  output wire [127:0]       regs_o,      // {IRQ_EN1, IRQ_EN0, IRQ_PEND1, IRQ_PEND0}
  output wire               irq_o,       // |(IRQ_PEND & IRQ_EN)
  output wire [NR_CPUS-1:0] irq_cpu_o    // IRQ_PEND & IRQ_EN, a line per CPU
);
  // The generated header defines every constant of the register map; this module uses some.
  /* verilator lint_off UNUSEDPARAM */
`include "hws_regs.vh"
  /* verilator lint_on UNUSEDPARAM */

  localparam [31:0] NCPU32 = NR_CPUS;
  localparam [6:0]  NCPU7  = NCPU32[6:0];
  localparam integer CW   = (NR_CPUS > 1) ? $clog2(NR_CPUS) : 1;   // cpu index width

  reg [NR_CPUS*8-1:0] curr_q;
  reg [NR_CPUS-1:0]   pend_q, en_q;

  // Write decode, per port: the four registers, or CURR[c] of a CPU that exists. The W1C
  // masks of all ports are OR-ed; CURR[c] and IRQ_ENn take the word of the highest-numbered
  // port writing them (the register loop below applies the ports in order).
  wire [NR_PORTS-1:0] w_pend0, w_pend1, w_en0, w_en1, w_curr;
  wire [NR_PORTS*6-1:0] w_cpu;
  wire [NR_PORTS*64-1:0] w1c_p;          // port p's W1C mask
  genvar gp;
  generate
    for (gp = 0; gp < NR_PORTS; gp = gp + 1) begin : g_wr
      wire [9:0]  a  = wr_addr_i[gp*10 +: 10];
      wire [31:0] d  = wr_data_i[gp*32 +: 32];
      wire        lo = (a[9:8] == 2'd0);
      assign w_pend0[gp] = lo && (a[7:0] == HWS_REG_IRQ_PEND0);
      assign w_pend1[gp] = lo && (a[7:0] == HWS_REG_IRQ_PEND1);
      assign w_en0[gp]   = lo && (a[7:0] == HWS_REG_IRQ_EN0);
      assign w_en1[gp]   = lo && (a[7:0] == HWS_REG_IRQ_EN1);
      assign w_cpu[gp*6 +: 6] = a[7:2];
      assign w_curr[gp]  = (a[9:8] == HWS_CURR_BASE[9:8]) && (a[1:0] == 2'b00) &&
                           ({1'b0, a[7:2]} < NCPU7);
      assign w1c_p[gp*64 +: 64] = {d, d} & {{32{wr_i[gp] && w_pend1[gp]}},
                                            {32{wr_i[gp] && w_pend0[gp]}}};
    end
  endgenerate
  assign wr_hit_o = w_pend0 | w_pend1 | w_en0 | w_en1 | w_curr;
  reg [63:0] w1c;                        // IRQ_PEND bits cleared at this edge
  integer    wp;
  always @* begin
    w1c = 64'd0;
    for (wp = 0; wp < NR_PORTS; wp = wp + 1)
      w1c = w1c | w1c_p[wp*64 +: 64];
  end

  // The 64-bit views of the per-CPU vectors (bits >= NR_CPUS are 0).
  reg  [63:0] pend64, en64;
  always @* begin
    pend64 = 64'd0;
    en64   = 64'd0;
    pend64[NR_CPUS-1:0] = pend_q;
    en64[NR_CPUS-1:0]   = en_q;
  end

  // The link's verdict: into an active array, below its CPU's CURR (the value before the edge).
  wire       l_vld  = lnk_i[15];
  wire       l_act  = lnk_i[14];
  wire [5:0] l_cpu  = lnk_i[13:8];
  wire [7:0] l_prio = lnk_i[7:0];
  wire [7:0] l_curr = curr_q[l_cpu[CW-1:0] * 8 +: 8];
  wire       l_set  = l_vld && l_act && (l_prio < l_curr);

  integer c, q;
  always @(posedge clk_i) begin
    if (srst_i) begin
      curr_q <= {NR_CPUS{HWS_CURR_IDLE[7:0]}};
      pend_q <= {NR_CPUS{1'b0}};
      en_q   <= {NR_CPUS{1'b0}};
    end else begin
      for (c = 0; c < NR_CPUS; c = c + 1) begin
        if (pick_i && (pick_cpu_i == c[5:0]))
          curr_q[c*8 +: 8] <= pick_prio_i;
        else
          for (q = 0; q < NR_PORTS; q = q + 1)   // port order: the last one writing stays
            if (wr_i[q] && w_curr[q] && (w_cpu[q*6 +: 6] == c[5:0]))
              curr_q[c*8 +: 8] <= wr_data_i[q*32 + HWS_CURR_PRIO_LSB +: HWS_CURR_PRIO_W];
        if (l_set && (l_cpu == c[5:0]))
          pend_q[c] <= 1'b1;
        else if ((pick_i && (pick_cpu_i == c[5:0])) || w1c[c])
          pend_q[c] <= 1'b0;
        for (q = 0; q < NR_PORTS; q = q + 1)
          if (wr_i[q] && (c < 32 ? w_en0[q] : w_en1[q]))
            en_q[c] <= wr_data_i[q*32 + (c % 32)];
      end
    end
  end

  assign regs_o    = {en64[63:32], en64[31:0], pend64[63:32], pend64[31:0]};
  assign irq_cpu_o = pend_q & en_q;
  assign irq_o     = |(pend_q & en_q);

  // Bits that some configurations do not need.
  wire unused = &{1'b0, wr_data_i, w1c, l_cpu};

`ifdef FORMAL
  // ---------------------------------------------------------------------------------------
  // Properties (formal/proofs.list irq_*, docs/formal.md): for any CPU f_c, IRQ_PEND[f_c]
  // rises only at an edge with a qualifying link (active array, priority below CURR[f_c]
  // before the edge, no reset) and always rises at one; it falls only at a reset, a W1C
  // write of its bit or a PICK_NEXT of f_c, and always falls at one without such a link; CURR[f_c] changes only by a reset, a CURR[f_c] write or such a pick;
  // the interrupt lines are the AND of pending and enable.
`define HWS_F_RESET srst_i
`include "hws_formal_env.vh"
  /* verilator lint_off UNDRIVEN */
  (* anyconst *) reg [5:0] f_c;
  /* verilator lint_on UNDRIVEN */
  always @(*) assume ({1'b0, f_c} < NCPU7);
  // the engine never names a CPU it does not have
  always @(*) if (lnk_i[15]) assume ({1'b0, lnk_i[13:8]} < NCPU7);
  always @(*) if (pick_i) assume ({1'b0, pick_cpu_i} < NCPU7);

  // The reference for the writes, from the ports' pins: f_w1c, whether some port writes
  // IRQ_PEND's word of f_c with f_c's bit 1; f_cw/f_wprio, CURR[f_c]'s write by the
  // highest-numbered port writing it (searched from the top port down).
  reg       f_w1c, f_cw, f_found;
  reg [7:0] f_wprio;
  reg [31:0] f_word;
  integer   fp;
  always @* begin
    f_w1c   = 1'b0;
    f_cw    = 1'b0;
    f_found = 1'b0;
    f_wprio = 8'd0;
    f_word  = 32'd0;
    for (fp = NR_PORTS - 1; fp >= 0; fp = fp - 1) begin
      f_word = wr_data_i[fp*32 +: 32];
      if (wr_i[fp] && wr_addr_i[fp*10 +: 10] ==
          (f_c[5] ? {2'b00, HWS_REG_IRQ_PEND1} : {2'b00, HWS_REG_IRQ_PEND0}) && f_word[f_c[4:0]])
        f_w1c = 1'b1;
      if (!f_found && wr_i[fp] && wr_addr_i[fp*10 +: 10] == {HWS_CURR_BASE[9:8], f_c, 2'b00}) begin
        f_found = 1'b1;
        f_cw    = 1'b1;
        f_wprio = wr_data_i[fp*32 +: 8];
      end
    end
  end

  reg       p_srst, p_set, p_w1c, p_pick, p_cw;
  reg [7:0] p_curr, p_pprio, p_wprio;
  always @(posedge clk_i) begin
    p_srst  <= srst_i;
    p_set   <= l_vld && l_act && (l_cpu == f_c) && (l_prio < curr_q[f_c * 8 +: 8]);
    p_w1c   <= f_w1c;
    p_pick  <= pick_i && (pick_cpu_i == f_c);
    p_cw    <= f_cw;
    p_curr  <= curr_q[f_c * 8 +: 8];
    p_pprio <= pick_prio_i;
    p_wprio <= f_wprio;
  end
  wire       f_pend  = pend64[f_c];
  wire [7:0] f_curr  = curr_q[f_c * 8 +: 8];
  reg        f_pend_p;
  reg [63:0] f_irq64;
  always @* begin
    f_irq64 = 64'd0;
    f_irq64[NR_CPUS-1:0] = irq_cpu_o;
  end
  always @(posedge clk_i) f_pend_p <= f_pend;
  always @(*) begin
    if (f_past_valid) begin
      if (p_srst) begin
        assert (!f_pend && f_curr == HWS_CURR_IDLE[7:0]);
      end else begin
        if (f_pend && !f_pend_p) assert (p_set);
        if (!f_pend && f_pend_p) assert (p_w1c || p_pick);
        if (p_set) assert (f_pend);
        if ((p_w1c || p_pick) && !p_set) assert (!f_pend);
        assert (f_curr == (p_pick ? p_pprio : p_cw ? p_wprio : p_curr));
      end
    end
    assert (irq_o == |(pend_q & en_q));
    assert (f_irq64[f_c] == (pend64[f_c] && en64[f_c]));
  end
`endif
endmodule

`default_nettype wire
