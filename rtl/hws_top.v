// hws_top: the hwsched run-queue engine behind NR_PORTS AXI4-Lite slave ports.
//
// Holds the register file (docs/regmap.md), per port the command and result FIFOs and the
// POP/PEEKW window state (hws_port_fe), the round-robin arbiter into the engine, the
// shared error registers and the pop rule of docs/accelerator.md section 4;
// hws_rq_engine holds the queues and executes one command at a time.
//
// Every effect of an edge is computed from the state just before it:
//   - a command is popped from the port the arbiter picks (docs/accelerator.md 4.5) when
//     that port's command FIFO is not empty and its result FIFO holds at most
//     RES_DEPTH - 2 words (or its head is a window read's), and the engine is idle or
//     completes now;
//   - the AXI4-Lite handshakes are hws_axil_slave's, one per port (AW and W each on its
//     own, the write taken at the edge the second of them is; docs/accelerator.md 4.2); the
//     register side effect of a write happens at its taking edge, a read's (RESULT pop,
//     STATUS.ERR clear) at the edge RDATA is latched; RESULT and SYNC reads may wait;
//   - errors of one edge are all counted; ERR_LAST/ERR_CMD/ERR_SEQ describe the last one
//     in the order command, port 0 write, port 0 read, port 1 write, port 1 read, ...;
//   - CTRL.ERR_CLEAR (any port) clears the error registers before this edge's errors are
//     recorded, CTRL.SOFT_RESET (any port) resets everything but the bus handshake state
//     and wins over all.
// Register decode: the address decode is generated from regmap/regmap.def
// (rtl/hws_regs_decode.vh); the read mux and the write decode of one port are in
// rtl/hws_port_fe.v (it gets the shared registers as inputs); the shared registers are
// written here.
// The reset is synchronous; the AXI handshake state is reset by rst_ni only.
`default_nettype none

module hws_top #(
  parameter integer NR_CPUS   = 8,    // CPUs, each with two priority arrays: 1..64
  parameter integer NR_TASKS  = 256,  // entries of the task table: 1..4096
  parameter integer CMD_DEPTH = 16,   // command FIFO depth (per port): 2..32
  parameter integer RES_DEPTH = 16,   // result FIFO depth (per port): 2..32
  parameter integer NR_GROUPS = 16,   // task groups of the load-comparison unit: 1..64
  parameter integer LCU_BALANCE = 1,  // 1: build the BALANCE query (section 8.2); 0: leave
                                      // it out (QUERY kind 2 fails with OPCODE, BAL_* read 0)
  parameter integer ERR_COUNTERS = 1, // 1: build the per-code counters ERR_CNT1..11; 0: leave
                                      // them out (they read 0; ERR_TOTAL still counts)
  parameter integer NR_PORTS  = 1,    // AXI4-Lite slave ports, each with its own FIFOs: 1..4
  parameter integer BAL_LANES = 0,    // BALANCE's lanes, 1..NR_CPUS (0: NR_CPUS, one per CPU):
                                      // fewer lanes, less area, a longer BALANCE (section 8.2)
  parameter integer IRQ       = 1,    // 1: build the preemption interrupt (hws_irq, section
                                      // 4.6); 0: leave it out (IRQ_PEND/IRQ_EN read 0, their
                                      // and CURR's writes are OKAY and ignored, irq pins 0)
  parameter integer PIPE      = 0,    // 1: overlapped issue (docs/accelerator.md 4.1.1): a
                                      // command of the overlap class may pop beside the
                                      // older one's last step (0, 1)
  parameter integer LCU_LEAN  = 0     // 1: BALANCE is the area-lean serial unit (section
                                      // 8.2.1: the same answers, a longer latency); 0: the
                                      // fast unit
) (
  input  wire        clk_i,
  input  wire        rst_ni,           // synchronous active-low reset
  // AXI4-Lite slave ports, port p in bits [p*W +: W] of each (W the field's width)
  // write channels
  input  wire [NR_PORTS-1:0]    s_axi_awvalid_i,
  output wire [NR_PORTS-1:0]    s_axi_awready_o,
  input  wire [NR_PORTS*10-1:0] s_axi_awaddr_i,   // ADDR_W bits: registers below 0x100, then the windows
  input  wire [NR_PORTS*3-1:0]  s_axi_awprot_i,   // ignored
  input  wire [NR_PORTS-1:0]    s_axi_wvalid_i,
  output wire [NR_PORTS-1:0]    s_axi_wready_o,
  input  wire [NR_PORTS*32-1:0] s_axi_wdata_i,
  input  wire [NR_PORTS*4-1:0]  s_axi_wstrb_i,    // must be 4'hF, else SLVERR (ADDR error)
  output wire [NR_PORTS-1:0]    s_axi_bvalid_o,
  input  wire [NR_PORTS-1:0]    s_axi_bready_i,
  output wire [NR_PORTS*2-1:0]  s_axi_bresp_o,
  // read channels
  input  wire [NR_PORTS-1:0]    s_axi_arvalid_i,
  output wire [NR_PORTS-1:0]    s_axi_arready_o,
  input  wire [NR_PORTS*10-1:0] s_axi_araddr_i,
  input  wire [NR_PORTS*3-1:0]  s_axi_arprot_i,   // ignored
  output wire [NR_PORTS-1:0]    s_axi_rvalid_o,
  input  wire [NR_PORTS-1:0]    s_axi_rready_i,
  output wire [NR_PORTS*32-1:0] s_axi_rdata_o,
  output wire [NR_PORTS*2-1:0]  s_axi_rresp_o,
  // the preemption interrupt (docs/accelerator.md 4.6, hws_irq): |(IRQ_PEND & IRQ_EN), and
  // the same per CPU
  output wire               irq_o,
  output wire [NR_CPUS-1:0] irq_cpu_o
);
  // The generated header defines every constant of the register map; this module uses some.
  /* verilator lint_off UNUSEDPARAM */
`include "hws_regs.vh"
`include "hws_regs_decode.vh"
  /* verilator lint_on UNUSEDPARAM */

  // The ranges of regmap/params.def (generated): an illegal value stops elaboration.
`include "hws_params.vh"
`include "hws_params_check.vh"

  localparam integer NCNT = HWS_ERR_CODES - 1;   // ERR_CNTn, n = 1..NCNT
  localparam integer BLN  = (BAL_LANES == 0) ? NR_CPUS : BAL_LANES;   // BALANCE's lanes
  localparam integer PW   = (NR_PORTS > 1) ? $clog2(NR_PORTS) : 1;   // port index width
  localparam integer NW   = $clog2(2 * NR_PORTS + 2);  // width of an edge's error count
  localparam integer LW   = NW;                        // ERR_TOTAL's low bits, carry select

  // ---------------------------------------------------------------------------------------
  // Shared state declared up front
  reg [31:0] cmd_done_q, cycles_q;
  reg [7:0]  err_last_q;
  reg [31:0] err_cmd_q, err_seq_q, err_total_q;
  wire [NCNT*32-1:0] err_cnt;     // ERR_CNTn at [(n-1)*32 +: 32], n = 1..NCNT (0 if not built)

  wire        eng_busy, eng_done, eng_res_push, eng_err;
  wire [31:0] eng_res, eng_cmd;
  wire [7:0]  eng_code;
  wire [127:0] bal_regs;   // {BAL_IMB, BAL_AVG, BAL_MAX, BAL_THIS}
  wire [127:0] irq_regs;   // {IRQ_EN1, IRQ_EN0, IRQ_PEND1, IRQ_PEND0}
  wire [15:0]  eng_lnk;    // the engine's link at the coming edge (hws_irq)

  // The commands in flight (docs/accelerator.md 4.1.1): per port, whether one is its own
  // (run_mine) and how many will push a result word into its FIFO (run_nres); the one
  // completing at the coming edge is a window read's (c_tag) from port c_port.
  wire [NR_PORTS-1:0]   run_mine;
  wire [NR_PORTS*2-1:0] run_nres;
  wire                  c_tag;
  wire [PW-1:0]         c_port;
  wire [NR_PORTS-1:0]   p_room2;    // each port's (e) of 4.1.1
  wire                  eng_free, eng_ovl_ok, eng_two;

  // ---------------------------------------------------------------------------------------
  // The ports' front ends
  wire [NR_PORTS-1:0]    p_eligible;   // the port's head command may start (pop rule)
  wire [NR_PORTS*33-1:0] p_head;       // its head, bit 32: a window read's
  wire [NR_PORTS-1:0]    p_start;      // its head starts at this edge
  wire [NR_PORTS-1:0]    p_soft_reset, p_err_clear;
  wire [NR_PORTS-1:0]    p_e_wr, p_e_rd;
  wire [NR_PORTS*8-1:0]  p_e_wr_code, p_e_rd_code;
  wire [NR_PORTS*32-1:0] p_e_wr_word, p_e_rd_word;
  wire [NR_PORTS-1:0]    p_wr_irq, p_wr_irq_hit;   // the ports' writes to hws_irq
  wire [NR_PORTS*10-1:0] p_wr_irq_addr;
  wire [NR_PORTS*32-1:0] p_wr_irq_data;

  wire soft_reset = |p_soft_reset;
  wire err_clear  = |p_err_clear;
  wire srst       = !rst_ni || soft_reset;

  wire [NR_PORTS-1:0] e_wr_all = p_e_wr;
  wire [NR_PORTS-1:0] e_rd_all = p_e_rd;
  wire any_err = eng_err || (|e_wr_all) || (|e_rd_all);

  genvar gp;
  generate
    for (gp = 0; gp < NR_PORTS; gp = gp + 1) begin : g_port
      wire [PW-1:0] me = gp[PW-1:0];
      hws_port_fe #(.NR_CPUS(NR_CPUS), .NR_TASKS(NR_TASKS), .CMD_DEPTH(CMD_DEPTH),
                    .RES_DEPTH(RES_DEPTH), .NR_GROUPS(NR_GROUPS), .LCU_BALANCE(LCU_BALANCE),
                    .ERR_COUNTERS(ERR_COUNTERS), .BAL_LANES(BLN), .IRQ(IRQ), .PIPE(PIPE),
                    .LCU_LEAN(LCU_LEAN)) u_fe (
        .clk_i(clk_i), .rst_ni(rst_ni), .srst_i(srst),
        .s_axi_awvalid_i(s_axi_awvalid_i[gp]), .s_axi_awready_o(s_axi_awready_o[gp]),
        .s_axi_awaddr_i(s_axi_awaddr_i[gp*10 +: 10]),
        .s_axi_wvalid_i(s_axi_wvalid_i[gp]), .s_axi_wready_o(s_axi_wready_o[gp]),
        .s_axi_wdata_i(s_axi_wdata_i[gp*32 +: 32]), .s_axi_wstrb_i(s_axi_wstrb_i[gp*4 +: 4]),
        .s_axi_bvalid_o(s_axi_bvalid_o[gp]), .s_axi_bready_i(s_axi_bready_i[gp]),
        .s_axi_bresp_o(s_axi_bresp_o[gp*2 +: 2]),
        .s_axi_arvalid_i(s_axi_arvalid_i[gp]), .s_axi_arready_o(s_axi_arready_o[gp]),
        .s_axi_araddr_i(s_axi_araddr_i[gp*10 +: 10]),
        .s_axi_rvalid_o(s_axi_rvalid_o[gp]), .s_axi_rready_i(s_axi_rready_i[gp]),
        .s_axi_rdata_o(s_axi_rdata_o[gp*32 +: 32]), .s_axi_rresp_o(s_axi_rresp_o[gp*2 +: 2]),
        .eligible_o(p_eligible[gp]), .head_o(p_head[gp*33 +: 33]), .start_i(p_start[gp]),
        .eng_busy_i(eng_busy), .run_mine_i(run_mine[gp]), .run_nres_i(run_nres[gp*2 +: 2]),
        .room2_o(p_room2[gp]),
        .res_push_i(eng_res_push && !c_tag && c_port == me),
        .win_push_i(eng_res_push && c_tag && c_port == me), .eng_res_i(eng_res),
        .any_err_i(any_err), .err_clear_i(err_clear),
        .soft_reset_o(p_soft_reset[gp]), .err_clear_o(p_err_clear[gp]),
        .e_wr_o(p_e_wr[gp]), .e_wr_code_o(p_e_wr_code[gp*8 +: 8]),
        .e_wr_word_o(p_e_wr_word[gp*32 +: 32]),
        .e_rd_o(p_e_rd[gp]), .e_rd_code_o(p_e_rd_code[gp*8 +: 8]),
        .e_rd_word_o(p_e_rd_word[gp*32 +: 32]),
        .cmd_done_i(cmd_done_q), .cycles_i(cycles_q), .err_last_i(err_last_q),
        .err_cmd_i(err_cmd_q), .err_seq_i(err_seq_q), .err_total_i(err_total_q),
        .err_cnt_i(err_cnt), .bal_regs_i(bal_regs), .irq_regs_i(irq_regs),
        .wr_irq_o(p_wr_irq[gp]), .wr_irq_addr_o(p_wr_irq_addr[gp*10 +: 10]),
        .wr_irq_data_o(p_wr_irq_data[gp*32 +: 32]), .wr_irq_hit_i(p_wr_irq_hit[gp])
      );
    end
  endgenerate

  // ---------------------------------------------------------------------------------------
  // The arbiter (docs/accelerator.md 4.5, rtl/hws_arbiter.v): when the engine can take a
  // command, the first eligible port from its round-robin pointer on starts. With PIPE = 1
  // it can also when the chosen port's head may pop beside the older command (4.1.1: the
  // engine's (a)-(d), the port's result room (e)); no other port is tried.
  wire          eng_start;
  wire [PW-1:0] win;
  wire          arb_ready;
  hws_arbiter #(.NR_PORTS(NR_PORTS), .PW(PW)) u_arb (
    .clk_i(clk_i), .srst_i(srst), .ready_i(arb_ready), .eligible_i(p_eligible),
    .start_o(eng_start), .win_o(win), .start_vec_o(p_start)
  );
  wire [32:0]   head = p_head[win*33 +: 33];

  hws_rq_engine #(.NR_CPUS(NR_CPUS), .NR_TASKS(NR_TASKS), .NR_GROUPS(NR_GROUPS),
                  .LCU_BALANCE(LCU_BALANCE), .BAL_LANES(BLN), .PIPE(PIPE),
                  .LCU_LEAN(LCU_LEAN)) u_engine (
    .clk_i(clk_i), .srst_i(srst), .start_i(eng_start), .cmd_i(head[31:0]),
    .busy_o(eng_busy), .free_o(eng_free), .ovl_ok_o(eng_ovl_ok), .two_o(eng_two),
    .done_o(eng_done), .res_push_o(eng_res_push), .res_data_o(eng_res),
    .err_o(eng_err), .err_code_o(eng_code), .cmd_o(eng_cmd), .bal_regs_o(bal_regs),
    .lnk_o(eng_lnk)
  );

  // The preemption interrupt (docs/accelerator.md 4.6): links and PICK_NEXTs at their
  // completion edge, CURR/IRQ writes of every port at their taking edge (several ports at
  // one edge: W1C masks OR-ed, CURR[c] and IRQ_ENn from the highest-numbered port).
  // IRQ = 0: hws_irq is not built. The ports decode the same addresses as with it (IRQ_PEND0/1,
  // IRQ_EN0/1, CURR[c] for c < NR_CPUS: writes OKAY, so no error register tells the builds
  // apart), the registers read 0, the writes change nothing and the pins are 0.
  generate
    if (IRQ != 0) begin : g_irq
      wire eng_pick = eng_done && !eng_err && (eng_cmd[31:28] == HWS_OP_PICK_NEXT[3:0]);
      hws_irq #(.NR_CPUS(NR_CPUS), .NR_PORTS(NR_PORTS)) u_irq (
        .clk_i(clk_i), .srst_i(srst), .wr_i(p_wr_irq), .wr_addr_i(p_wr_irq_addr),
        .wr_data_i(p_wr_irq_data), .wr_hit_o(p_wr_irq_hit), .lnk_i(eng_lnk), .pick_i(eng_pick),
        .pick_cpu_i(eng_cmd[HWS_CMD_CPU_LSB +: HWS_CMD_CPU_W]),
        .pick_prio_i(eng_res[HWS_RES_NONE_LSB] ? HWS_CURR_IDLE[7:0] :
                     eng_res[HWS_RES_PRIO_LSB +: HWS_RES_PRIO_W]),
        .regs_o(irq_regs), .irq_o(irq_o), .irq_cpu_o(irq_cpu_o)
      );
    end else begin : g_no_irq
      // CPUs 0..NR_CPUS-1 as a mask: a lookup, not a comparator (a carry chain on iCE40)
      localparam [63:0] CPU_MASK = (NR_CPUS >= 64) ? {64{1'b1}} : ((64'd1 << NR_CPUS) - 64'd1);
      for (gp = 0; gp < NR_PORTS; gp = gp + 1) begin : g_hit
        wire [9:0] a = p_wr_irq_addr[gp*10 +: 10];
        wire [HWS_WR_N-1:0] sel = hws_wr_fn(a);   // CTRL and CMD are hws_port_fe's
        assign p_wr_irq_hit[gp] =
            sel[HWS_WR_IRQ_PEND0] || sel[HWS_WR_IRQ_PEND1] || sel[HWS_WR_IRQ_EN0] ||
            sel[HWS_WR_IRQ_EN1] || (hws_win_curr_fn(a) && CPU_MASK[a[7:2]]);
      end
      assign irq_regs  = 128'd0;
      assign irq_o     = 1'b0;
      assign irq_cpu_o = {NR_CPUS{1'b0}};
      wire unused_irq = &{1'b0, p_wr_irq, p_wr_irq_data, eng_lnk};
    end
  endgenerate

  // The commands in flight: the youngest (run_*_q, loaded at its pop) and, with PIPE = 1,
  // the older one beside it (old_*_q, the youngest's copied at an overlapping pop; it
  // completes at the edge after that pop, so it is valid while the engine's two_o).
  reg          run_tag_q;         // the youngest command is a window read's
  reg          run_res_q;         // ... will push a result word (0 once it completed)
  reg [PW-1:0] run_port_q;        // ... came from this port
  always @(posedge clk_i) begin
    if (srst) begin
      run_tag_q  <= 1'b0;
      run_res_q  <= 1'b0;
      run_port_q <= {PW{1'b0}};
    end else begin
      if (eng_start) begin
        run_tag_q  <= head[32];
        run_res_q  <= !head[32] && HWS_RES_OPS[head[31:28]];
        run_port_q <= win;
      end else if (eng_done && !eng_two) begin
        run_res_q <= 1'b0;
      end
    end
  end
  generate
    if (PIPE != 0) begin : g_pipe
      reg          old_tag_q, old_res_q;
      reg [PW-1:0] old_port_q;
      always @(posedge clk_i) begin
        if (eng_start && !eng_free) begin
          old_tag_q  <= run_tag_q;
          old_res_q  <= run_res_q;
          old_port_q <= run_port_q;
        end
      end
      assign arb_ready = eng_free || (eng_ovl_ok && p_room2[win]);
      assign c_tag     = eng_two ? old_tag_q : run_tag_q;
      assign c_port    = eng_two ? old_port_q : run_port_q;
      for (gp = 0; gp < NR_PORTS; gp = gp + 1) begin : g_run
        wire [PW-1:0] me   = gp[PW-1:0];
        wire          y_my = (run_port_q == me);
        wire          o_my = eng_two && (old_port_q == me);
        assign run_mine[gp] = y_my || o_my;
        assign run_nres[gp*2 +: 2] = {1'b0, run_res_q && y_my} + {1'b0, old_res_q && o_my};
      end
    end else begin : g_serial
      assign arb_ready = eng_free;
      assign c_tag     = run_tag_q;
      assign c_port    = run_port_q;
      for (gp = 0; gp < NR_PORTS; gp = gp + 1) begin : g_run
        wire [PW-1:0] me = gp[PW-1:0];
        assign run_mine[gp] = (run_port_q == me);
        assign run_nres[gp*2 +: 2] = {1'b0, run_res_q && (run_port_q == me)};
      end
      wire unused_pipe = &{1'b0, eng_ovl_ok, eng_two, p_room2};
    end
  endgenerate

  // ---------------------------------------------------------------------------------------
  // Error registers: up to 1 + 2 * NR_PORTS errors per edge (command, each port's write
  // and read channel). The last one in the order command, port 0 write, port 0 read,
  // port 1 write, ... is the one ERR_LAST and ERR_CMD describe.
  reg [7:0]    last_code;
  reg [31:0]   last_word;
  reg [NW-1:0] n_err;
  integer      j;
  always @* begin
    last_code = eng_code;
    last_word = eng_cmd;
    n_err     = {{(NW-1){1'b0}}, eng_err};
    for (j = 0; j < NR_PORTS; j = j + 1) begin
      if (p_e_wr[j]) begin
        last_code = p_e_wr_code[j*8 +: 8];
        last_word = p_e_wr_word[j*32 +: 32];
      end
      if (p_e_rd[j]) begin
        last_code = p_e_rd_code[j*8 +: 8];
        last_word = p_e_rd_word[j*32 +: 32];
      end
      n_err = n_err + {{(NW-1){1'b0}}, p_e_wr[j]} + {{(NW-1){1'b0}}, p_e_rd[j]};
    end
  end
  // ERR_TOTAL's next value, base + n_err by carry select: the engine's error flag and the
  // write's CTRL.ERR_CLEAR come late in the cycle, so they only form the low LW bits and
  // pick the upper ones: the register's, its plus one (a carry chain on the register
  // alone), or 0 after a clear (base 0 and n_err < 2^LW carry nothing out).
  wire [LW-1:0]    tot_b_lo = err_clear ? {LW{1'b0}} : err_total_q[LW-1:0];
  wire [LW:0]      tot_lo   = {1'b0, tot_b_lo} + {{(LW+1-NW){1'b0}}, n_err};
  wire [31-LW:0]   tot_hi1  = err_total_q[31:LW] + {{(31-LW){1'b0}}, 1'b1};
  wire [31-LW:0]   tot_hi   = err_clear ? {(32-LW){1'b0}} : tot_lo[LW] ? tot_hi1 : err_total_q[31:LW];
  wire [31:0]      err_total_d = {tot_hi, tot_lo[LW-1:0]};

  generate
    if (ERR_COUNTERS != 0) begin : g_err_cnt
      reg [NCNT*32-1:0] err_cnt_q, err_cnt_d;
      integer           k, q;
      always @* begin
        err_cnt_d = err_clear ? {NCNT*32{1'b0}} : err_cnt_q;
        for (k = 1; k <= NCNT; k = k + 1) begin
          err_cnt_d[(k-1)*32 +: 32] = err_cnt_d[(k-1)*32 +: 32] +
              {31'd0, eng_err && (eng_code == k[7:0])};
          for (q = 0; q < NR_PORTS; q = q + 1)
            err_cnt_d[(k-1)*32 +: 32] = err_cnt_d[(k-1)*32 +: 32] +
                {31'd0, p_e_wr[q] && (p_e_wr_code[q*8 +: 8] == k[7:0])} +
                {31'd0, p_e_rd[q] && (p_e_rd_code[q*8 +: 8] == k[7:0])};
        end
      end
      always @(posedge clk_i) err_cnt_q <= srst ? {NCNT*32{1'b0}} : err_cnt_d;
      assign err_cnt = err_cnt_q;
    end else begin : g_no_err_cnt
      assign err_cnt = {NCNT*32{1'b0}};
    end
  endgenerate

  always @(posedge clk_i) begin
    if (srst) begin
      cmd_done_q   <= 32'd0;
      cycles_q     <= 32'd0;
      err_last_q   <= HWS_ERR_OK;
      err_cmd_q    <= 32'd0;
      err_seq_q    <= 32'd0;
      err_total_q  <= 32'd0;
    end else begin
      cycles_q <= cycles_q + 32'd1;
      if (eng_done) cmd_done_q <= cmd_done_q + 32'd1;

      if (err_clear) begin
        err_last_q  <= HWS_ERR_OK;
        err_cmd_q   <= 32'd0;
        err_seq_q   <= 32'd0;
      end
      if (any_err) begin
        err_seq_q  <= cmd_done_q;
        err_last_q <= last_code;
        err_cmd_q  <= last_word;
      end
      err_total_q <= err_total_d;
    end
  end

  wire unused = &{1'b0, s_axi_awprot_i, s_axi_arprot_i};

`ifndef SYNTHESIS
  // The pop rule keeps the result FIFOs from overflowing (hws_port_fe checks its own); the
  // arbiter never starts a port that has nothing to start.
  always @(posedge clk_i) begin
    if (rst_ni && eng_start && !p_eligible[win]) begin
      $display("hws_top: ASSERTION FAILED at %0t: the arbiter started an ineligible port", $time);
      $fatal(1, "hws_top: arbiter");
    end
  end
`endif
endmodule

`default_nettype wire
