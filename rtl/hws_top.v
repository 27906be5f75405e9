// hws_top: the hwsched run-queue engine behind an AXI4-Lite slave.
//
// Holds the register file (docs/regmap.md), the command and result FIFOs, the error
// registers and the pop rule of docs/accelerator.md section 4; hws_rq_engine holds the
// queues and executes one command at a time.
//
// Every effect of an edge is computed from the state just before it:
//   - a command is popped when the command FIFO is not empty, the engine is idle or
//     completes now, and the result FIFO holds at most RES_DEPTH - 2 words;
//   - the AXI4-Lite handshakes are hws_axil_slave's (AW and W each on its own, the write
//     taken at the edge the second of them is; docs/accelerator.md 4.2); the register side
//     effect of a write happens at its taking edge, a read's (RESULT pop, STATUS.ERR clear)
//     at the edge RDATA is latched; RESULT and SYNC reads may wait (rd_wait);
//   - errors of one edge are all counted; ERR_LAST/ERR_CMD/ERR_SEQ describe the last one
//     in the order command, write channel, read channel;
//   - CTRL.ERR_CLEAR clears the error registers before this edge's errors are recorded,
//     CTRL.SOFT_RESET resets everything but the bus handshake state and wins over all.
// The reset is synchronous; the AXI handshake state is reset by rst_ni only.
`default_nettype none

module hws_top #(
  parameter integer NR_CPUS   = 8,    // CPUs, each with two priority arrays: 1..64
  parameter integer NR_TASKS  = 256,  // entries of the task table: 1..4096
  parameter integer CMD_DEPTH = 16,   // command FIFO depth: 2..32
  parameter integer RES_DEPTH = 16,   // result FIFO depth: 2..32
  parameter integer NR_GROUPS = 16,   // task groups of the load-comparison unit: 1..64
  parameter integer LCU_BALANCE = 1,  // 1: build the BALANCE query (section 8.2); 0: leave
                                      // it out (QUERY kind 2 fails with OPCODE, BAL_* read 0)
  parameter integer ERR_COUNTERS = 1  // 1: build the per-code counters ERR_CNT1..11; 0: leave
                                      // them out (they read 0; ERR_TOTAL still counts)
) (
  input  wire        clk_i,
  input  wire        rst_ni,           // synchronous active-low reset
  // AXI4-Lite slave, write channels
  input  wire        s_axi_awvalid_i,
  output wire        s_axi_awready_o,
  input  wire [9:0]  s_axi_awaddr_i,   // ADDR_W bits: registers below 0x100, then the windows
  input  wire [2:0]  s_axi_awprot_i,   // ignored
  input  wire        s_axi_wvalid_i,
  output wire        s_axi_wready_o,
  input  wire [31:0] s_axi_wdata_i,
  input  wire [3:0]  s_axi_wstrb_i,    // must be 4'hF, else SLVERR (ADDR error)
  output wire        s_axi_bvalid_o,
  input  wire        s_axi_bready_i,
  output wire [1:0]  s_axi_bresp_o,
  // AXI4-Lite slave, read channels
  input  wire        s_axi_arvalid_i,
  output wire        s_axi_arready_o,
  input  wire [9:0]  s_axi_araddr_i,
  input  wire [2:0]  s_axi_arprot_i,   // ignored
  output wire        s_axi_rvalid_o,
  input  wire        s_axi_rready_i,
  output wire [31:0] s_axi_rdata_o,
  output wire [1:0]  s_axi_rresp_o,
  // the preemption interrupt (docs/accelerator.md 4.5, hws_irq): |(IRQ_PEND & IRQ_EN), and
  // the same per CPU
  output wire               irq_o,
  output wire [NR_CPUS-1:0] irq_cpu_o
);
  // The generated header defines every constant of the register map; this module uses some.
  /* verilator lint_off UNUSEDPARAM */
`include "hws_regs.vh"
  /* verilator lint_on UNUSEDPARAM */

`ifndef __ICARUS__
  generate
    if (NR_CPUS < 1 || NR_CPUS > 64 || NR_TASKS < 1 || NR_TASKS > 4096 ||
        CMD_DEPTH < 2 || CMD_DEPTH > 32 || RES_DEPTH < 2 || RES_DEPTH > 32 ||
        NR_GROUPS < 1 || NR_GROUPS > 64 || LCU_BALANCE < 0 || LCU_BALANCE > 1 ||
        ERR_COUNTERS < 0 || ERR_COUNTERS > 1) begin : g_bad_param
      $error("hws_top: illegal parameters NR_CPUS=%0d (1..64) NR_TASKS=%0d (1..4096) CMD_DEPTH=%0d (2..32) RES_DEPTH=%0d (2..32) NR_GROUPS=%0d (1..64) LCU_BALANCE=%0d (0, 1) ERR_COUNTERS=%0d (0, 1)",
             NR_CPUS, NR_TASKS, CMD_DEPTH, RES_DEPTH, NR_GROUPS, LCU_BALANCE, ERR_COUNTERS);
    end
  endgenerate
`endif
`ifndef SYNTHESIS
  // Elaboration errors are warnings to Verilator -Wno-fatal and unknown to Icarus: stop the
  // simulation at time 0 as well.
  initial if (NR_CPUS < 1 || NR_CPUS > 64 || NR_TASKS < 1 || NR_TASKS > 4096 ||
              CMD_DEPTH < 2 || CMD_DEPTH > 32 || RES_DEPTH < 2 || RES_DEPTH > 32 ||
              NR_GROUPS < 1 || NR_GROUPS > 64 || LCU_BALANCE < 0 || LCU_BALANCE > 1 ||
              ERR_COUNTERS < 0 || ERR_COUNTERS > 1)
    $fatal(1, "hws_top: illegal parameters NR_CPUS=%0d (1..64) NR_TASKS=%0d (1..4096) CMD_DEPTH=%0d (2..32) RES_DEPTH=%0d (2..32) NR_GROUPS=%0d (1..64) LCU_BALANCE=%0d (0, 1) ERR_COUNTERS=%0d (0, 1)",
           NR_CPUS, NR_TASKS, CMD_DEPTH, RES_DEPTH, NR_GROUPS, LCU_BALANCE, ERR_COUNTERS);
`endif

  localparam [31:0] NR_CPUS32   = NR_CPUS;
  localparam [31:0] NR_TASKS32  = NR_TASKS;
  localparam [31:0] NR_GROUPS32 = NR_GROUPS;
  localparam [31:0] FEATURES32  = ((LCU_BALANCE != 0) ? (32'd1 << HWS_FEATURES_BALANCE_LSB) : 32'd0) |
                                  ((ERR_COUNTERS != 0) ? (32'd1 << HWS_FEATURES_ERR_COUNTERS_LSB) : 32'd0);
  localparam integer NCNT       = HWS_ERR_CODES - 1;   // ERR_CNTn, n = 1..NCNT
  localparam [31:0] CMD_DEPTH32 = CMD_DEPTH;
  localparam [31:0] RES_DEPTH32 = RES_DEPTH;
  localparam [31:0] RES_ROOM32  = RES_DEPTH - 2;   // pop only while RES_LEVEL <= this

  // ---------------------------------------------------------------------------------------
  // State declared up front
  reg [31:0] cmd_done_q, cycles_q;
  reg [7:0]  err_last_q;
  reg [31:0] err_cmd_q, err_seq_q, err_total_q;
  wire [NCNT*32-1:0] err_cnt;     // ERR_CNTn at [(n-1)*32 +: 32], n = 1..NCNT (0 if not built)
  reg        err_sticky_q;        // STATUS.ERR

  wire        cmd_empty, cmd_full, res_empty, res_full;
  wire [5:0]  cmd_level, res_level;
  wire [32:0] cmd_head;           // bit 32: the command was pushed by a POP read (section 4.4)
  wire [31:0] res_head;

  // The POP window (docs/accelerator.md 4.4): a read of POP[c] pushes PICK_NEXT(c), tagged,
  // into the command FIFO; the tagged command's result word goes to pop_word_q, not to the
  // result FIFO, and the read returns it.
  reg         pop_issued_q;       // the pending POP read has pushed its command
  reg         pop_ready_q;        // pop_word_q holds its result
  reg  [31:0] pop_word_q;
  reg         run_tag_q;          // the executing command is a POP read's
  reg  [5:0]  qcnt_q;             // commands in the command FIFO that will push a result word
  reg         run_res_q;          // the executing command will push one

  wire        eng_busy, eng_done, eng_res_push, eng_err;
  wire [31:0] eng_res, eng_cmd;
  wire [7:0]  eng_code;
  wire [127:0] bal_regs;   // {BAL_IMB, BAL_AVG, BAL_MAX, BAL_THIS}
  wire [127:0] irq_regs;   // {IRQ_EN1, IRQ_EN0, IRQ_PEND1, IRQ_PEND0}
  wire [15:0]  eng_lnk;    // the engine's link at the coming edge (hws_irq)

  // ---------------------------------------------------------------------------------------
  // The AXI4-Lite handshakes (hws_axil_slave): a write reaches the registers as wr_take
  wire        wr_take;
  wire [9:0]  wr_addr;
  wire [31:0] wr_data;
  wire [3:0]  wr_strb;
  wire        wr_ok;
  wire        rd_act, rd_take, rd_latch, rd_wait, rd_valid;
  wire [9:0]  rd_addr;
  reg  [31:0] rd_word;

  hws_axil_slave #(.AW(10)) u_axil (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .s_axi_awvalid_i(s_axi_awvalid_i), .s_axi_awready_o(s_axi_awready_o),
    .s_axi_awaddr_i(s_axi_awaddr_i),
    .s_axi_wvalid_i(s_axi_wvalid_i), .s_axi_wready_o(s_axi_wready_o),
    .s_axi_wdata_i(s_axi_wdata_i), .s_axi_wstrb_i(s_axi_wstrb_i),
    .s_axi_bvalid_o(s_axi_bvalid_o), .s_axi_bready_i(s_axi_bready_i),
    .s_axi_bresp_o(s_axi_bresp_o),
    .s_axi_arvalid_i(s_axi_arvalid_i), .s_axi_arready_o(s_axi_arready_o),
    .s_axi_araddr_i(s_axi_araddr_i),
    .s_axi_rvalid_o(s_axi_rvalid_o), .s_axi_rready_i(s_axi_rready_i),
    .s_axi_rdata_o(s_axi_rdata_o), .s_axi_rresp_o(s_axi_rresp_o),
    .wr_take_o(wr_take), .wr_addr_o(wr_addr), .wr_data_o(wr_data), .wr_strb_o(wr_strb),
    .wr_ok_i(wr_ok),
    .rd_act_o(rd_act), .rd_addr_o(rd_addr), .rd_wait_i(rd_wait), .rd_valid_i(rd_valid),
    .rd_word_i(rd_word), .rd_take_o(rd_take), .rd_latch_o(rd_latch)
  );

  // ---------------------------------------------------------------------------------------
  // Write decode
  wire wr_is_ctrl = (wr_addr[9:8] == 2'd0) && (wr_addr[7:0] == HWS_REG_CTRL);
  wire wr_is_cmd  = (wr_addr[9:8] == 2'd0) && (wr_addr[7:0] == HWS_REG_CMD);
  wire wr_is_irq;                 // IRQ_PENDn, IRQ_ENn, or CURR[c] of a CPU that exists
  assign wr_ok    = (wr_is_ctrl || wr_is_cmd || wr_is_irq) && (wr_strb == 4'hF);
  wire wr_addr_err = wr_take && !wr_ok;
  wire wr_cmd     = wr_take && wr_ok && wr_is_cmd;
  wire wr_ctrl    = wr_take && wr_ok && wr_is_ctrl;
  wire cmd_push   = wr_cmd && !cmd_full;
  wire wr_ovf     = wr_cmd && cmd_full;
  wire soft_reset = wr_ctrl && wr_data[HWS_CTRL_SOFT_RESET_LSB];
  wire err_clear  = wr_ctrl && wr_data[HWS_CTRL_ERR_CLEAR_LSB];
  wire srst       = !rst_ni || soft_reset;

  // ---------------------------------------------------------------------------------------
  // Pop rule
  wire res_room  = ({26'd0, res_level} <= RES_ROOM32);
  // (a POP read's command pushes no result word into the result FIFO: it needs no room)
  wire eng_start = !cmd_empty && (!eng_busy || eng_done) && (res_room || cmd_head[32]);

  // ---------------------------------------------------------------------------------------
  // Read decode: the register rd_addr names, whether it waits, its value before this edge
  wire rd_lo        = (rd_addr[9:8] == 2'd0);
  wire rd_is_result = rd_lo && (rd_addr[7:0] == HWS_REG_RESULT);
  wire rd_is_sync   = rd_lo && (rd_addr[7:0] == HWS_REG_SYNC);
  wire rd_is_status = rd_lo && (rd_addr[7:0] == HWS_REG_STATUS);
  wire rd_is_pop    = (rd_addr[9] != rd_addr[8]) && (rd_addr[1:0] == 2'b00);  // POP or PEEKW

  assign rd_wait = (rd_is_result && res_empty && (eng_busy || !cmd_empty)) ||
                 (rd_is_sync && (eng_busy || (!cmd_empty && res_room))) ||
                 (rd_is_pop && !pop_ready_q && !pop_refuse);

  // A window read pushes its PICK_NEXT/PEEK at the first edge it is active (taken or
  // pending) with room in the command FIFO and no CMD write taken at the same edge (the
  // write goes first) - unless a command queued could stall on a full result FIFO
  // (condition 3 of 4.1: commands queued and RES_LEVEL + the result words still to come
  // >= RES_DEPTH - 1), which only a RESULT read could end: then the read is refused at the
  // first edge it is active and not yet pushed, with ERR_FLAG | POP_ERRP | OVERFLOW and
  // the OVERFLOW error, its command dropped.
  wire [6:0]  res_future = {1'b0, res_level} + {1'b0, qcnt_q} + {6'd0, run_res_q};
  wire        pop_stall  = !cmd_empty && (res_future >= {1'b0, RES_ROOM32[5:0]} + 7'd1);
  wire        pop_wants  = rd_act && rd_is_pop && !pop_issued_q && !pop_ready_q;
  wire        pop_refuse = pop_wants && pop_stall;
  wire        pop_push   = pop_wants && !pop_stall && !cmd_full && !wr_cmd;
  wire [31:0] pop_cmd  = {rd_addr[9] ? HWS_OP_PEEK : HWS_OP_PICK_NEXT, 20'd0, rd_addr[7:2], 2'b00};
  localparam [31:0] POP_REFUSED = HWS_ERR_FLAG | (32'd1 << HWS_POP_ERRP_LSB) |
                                  {24'd0, HWS_ERR_OVERFLOW};

  wire [31:0] status_word =
      ({26'd0, cmd_level}   << HWS_STATUS_CMD_LEVEL_LSB) |
      ({26'd0, res_level}   << HWS_STATUS_RES_LEVEL_LSB) |
      ({31'd0, eng_busy}    << HWS_STATUS_BUSY_LSB) |
      ({31'd0, err_sticky_q} << HWS_STATUS_ERR_LSB) |
      ({31'd0, cmd_full}    << HWS_STATUS_CMD_FULL_LSB) |
      ({31'd0, res_full}    << HWS_STATUS_RES_FULL_LSB);
  wire [31:0] depths_word =
      ({26'd0, CMD_DEPTH32[5:0]} << HWS_DEPTHS_CMD_DEPTH_LSB) |
      ({26'd0, RES_DEPTH32[5:0]} << HWS_DEPTHS_RES_DEPTH_LSB);
  wire [31:0] result_word = res_empty ? (HWS_ERR_FLAG | {24'd0, HWS_ERR_UNDERFLOW}) : res_head;

  reg rd_valid_r;   // a readable register
  assign rd_valid = rd_valid_r;
  always @* begin
    rd_valid_r = 1'b1;
    rd_word    = 32'd0;
    if (rd_is_pop)
      rd_word = pop_refuse ? POP_REFUSED :
                pop_word_q | ({31'd0, err_sticky_q} << HWS_POP_ERRP_LSB);
    else if (!rd_lo)
      rd_valid_r = 1'b0;                    // misaligned in a window, or 0x300..0x3FF
    else case (rd_addr[7:0])
      HWS_REG_ID:        rd_word = HWS_ID_VALUE;
      HWS_REG_NR_CPUS:   rd_word = NR_CPUS32;
      HWS_REG_NR_TASKS:  rd_word = NR_TASKS32;
      HWS_REG_NR_GROUPS: rd_word = NR_GROUPS32;
      HWS_REG_DEPTHS:    rd_word = depths_word;
      HWS_REG_FEATURES:  rd_word = FEATURES32;
      HWS_REG_STATUS:    rd_word = status_word;
      HWS_REG_RESULT:    rd_word = result_word;
      HWS_REG_SYNC:      rd_word = status_word;
      HWS_REG_CMD_DONE:  rd_word = cmd_done_q;
      HWS_REG_CYCLES:    rd_word = cycles_q;
      HWS_REG_ERR_LAST:  rd_word = {24'd0, err_last_q};
      HWS_REG_ERR_CMD:   rd_word = err_cmd_q;
      HWS_REG_ERR_SEQ:   rd_word = err_seq_q;
      HWS_REG_ERR_TOTAL: rd_word = err_total_q;
      HWS_REG_ERR_CNT1:  rd_word = err_cnt[0*32 +: 32];
      HWS_REG_ERR_CNT2:  rd_word = err_cnt[1*32 +: 32];
      HWS_REG_ERR_CNT3:  rd_word = err_cnt[2*32 +: 32];
      HWS_REG_ERR_CNT4:  rd_word = err_cnt[3*32 +: 32];
      HWS_REG_ERR_CNT5:  rd_word = err_cnt[4*32 +: 32];
      HWS_REG_ERR_CNT6:  rd_word = err_cnt[5*32 +: 32];
      HWS_REG_ERR_CNT7:  rd_word = err_cnt[6*32 +: 32];
      HWS_REG_ERR_CNT8:  rd_word = err_cnt[7*32 +: 32];
      HWS_REG_ERR_CNT9:  rd_word = err_cnt[8*32 +: 32];
      HWS_REG_ERR_CNT10: rd_word = err_cnt[9*32 +: 32];
      HWS_REG_ERR_CNT11: rd_word = err_cnt[10*32 +: 32];
      HWS_REG_BAL_THIS:  rd_word = bal_regs[0*32 +: 32];
      HWS_REG_BAL_MAX:   rd_word = bal_regs[1*32 +: 32];
      HWS_REG_BAL_AVG:   rd_word = bal_regs[2*32 +: 32];
      HWS_REG_BAL_IMB:   rd_word = bal_regs[3*32 +: 32];
      HWS_REG_IRQ_PEND0: rd_word = irq_regs[0*32 +: 32];
      HWS_REG_IRQ_PEND1: rd_word = irq_regs[1*32 +: 32];
      HWS_REG_IRQ_EN0:   rd_word = irq_regs[2*32 +: 32];
      HWS_REG_IRQ_EN1:   rd_word = irq_regs[3*32 +: 32];
      default:           rd_valid_r = 1'b0;   // unmapped, misaligned, or write-only
    endcase
  end

  wire rd_addr_err  = rd_latch && !rd_valid;
  wire rd_underflow = rd_latch && rd_is_result && res_empty;
  wire res_pop      = rd_latch && rd_is_result && !res_empty;
  wire rd_status    = rd_latch && (rd_is_status || rd_is_sync || rd_is_pop);
  wire pop_done     = rd_latch && rd_is_pop;

  // ---------------------------------------------------------------------------------------
  // FIFOs and engine
  hws_fifo #(.WIDTH(33), .DEPTH(CMD_DEPTH)) u_cmd_fifo (
    .clk_i(clk_i), .clr_i(srst), .push_i(cmd_push || pop_push),
    .wdata_i(pop_push ? {1'b1, pop_cmd} : {1'b0, wr_data}), .pop_i(eng_start),
    .head_o(cmd_head), .level_o(cmd_level), .empty_o(cmd_empty), .full_o(cmd_full)
  );
  hws_fifo #(.WIDTH(32), .DEPTH(RES_DEPTH)) u_res_fifo (
    .clk_i(clk_i), .clr_i(srst), .push_i(eng_res_push && !run_tag_q), .wdata_i(eng_res),
    .pop_i(res_pop),
    .head_o(res_head), .level_o(res_level), .empty_o(res_empty), .full_o(res_full)
  );

  hws_rq_engine #(.NR_CPUS(NR_CPUS), .NR_TASKS(NR_TASKS), .NR_GROUPS(NR_GROUPS),
                  .LCU_BALANCE(LCU_BALANCE)) u_engine (
    .clk_i(clk_i), .srst_i(srst), .start_i(eng_start), .cmd_i(cmd_head[31:0]),
    .busy_o(eng_busy), .done_o(eng_done), .res_push_o(eng_res_push), .res_data_o(eng_res),
    .err_o(eng_err), .err_code_o(eng_code), .cmd_o(eng_cmd), .bal_regs_o(bal_regs),
    .lnk_o(eng_lnk)
  );

  // The preemption interrupt (docs/accelerator.md 4.5): links and PICK_NEXTs at their
  // completion edge, CURR/IRQ writes at their taking edge.
  wire eng_pick = eng_done && !eng_err && (eng_cmd[31:28] == HWS_OP_PICK_NEXT[3:0]);
  hws_irq #(.NR_CPUS(NR_CPUS)) u_irq (
    .clk_i(clk_i), .srst_i(srst), .wr_i(wr_take && (wr_strb == 4'hF)), .wr_addr_i(wr_addr),
    .wr_data_i(wr_data), .wr_hit_o(wr_is_irq), .lnk_i(eng_lnk), .pick_i(eng_pick),
    .pick_cpu_i(eng_cmd[HWS_CMD_CPU_LSB +: HWS_CMD_CPU_W]),
    .pick_prio_i(eng_res[HWS_RES_NONE_LSB] ? HWS_CURR_IDLE[7:0] :
                 eng_res[HWS_RES_PRIO_LSB +: HWS_RES_PRIO_W]),
    .regs_o(irq_regs), .irq_o(irq_o), .irq_cpu_o(irq_cpu_o)
  );

  // ---------------------------------------------------------------------------------------
  // Error registers: up to three errors per edge (command, write channel, read channel)
  wire        e_wr      = wr_addr_err || wr_ovf;
  wire [7:0]  e_wr_code = wr_addr_err ? HWS_ERR_ADDR : HWS_ERR_OVERFLOW;
  wire [31:0] e_wr_word = wr_addr_err ? {22'd0, wr_addr} : wr_data;
  wire        e_rd      = rd_addr_err || rd_underflow || pop_refuse;
  wire [7:0]  e_rd_code = rd_addr_err ? HWS_ERR_ADDR :
                          pop_refuse ? HWS_ERR_OVERFLOW : HWS_ERR_UNDERFLOW;
  wire [31:0] e_rd_word = rd_addr_err ? {22'd0, rd_addr} : pop_refuse ? pop_cmd : 32'd0;
  wire        any_err   = eng_err || e_wr || e_rd;
  // ERR_TOTAL's next value, base + n_err (n_err <= 3) by carry select: the engine's error
  // flag and the write's CTRL.ERR_CLEAR come late in the cycle, so they only form the low
  // two bits and pick the upper 30: the register's, its plus one (a carry chain on the
  // register alone), or 0 after a clear (base 0 and n_err <= 3 carry nothing out).
  wire [1:0]  tot_b_lo  = err_clear ? 2'd0 : err_total_q[1:0];
  wire [1:0]  n_err     = {1'b0, eng_err} + {1'b0, e_wr} + {1'b0, e_rd};
  wire [2:0]  tot_lo    = {1'b0, tot_b_lo} + {1'b0, n_err};
  wire [29:0] tot_hi1   = err_total_q[31:2] + 30'd1;
  wire [29:0] tot_hi    = err_clear ? 30'd0 : tot_lo[2] ? tot_hi1 : err_total_q[31:2];
  wire [31:0] tot_next  = {tot_hi, tot_lo[1:0]};

  generate
    if (ERR_COUNTERS != 0) begin : g_err_cnt
      reg [NCNT*32-1:0] err_cnt_q, err_cnt_d;
      integer           k;
      always @* begin
        err_cnt_d = err_clear ? {NCNT*32{1'b0}} : err_cnt_q;
        for (k = 1; k <= NCNT; k = k + 1) begin
          err_cnt_d[(k-1)*32 +: 32] = err_cnt_d[(k-1)*32 +: 32] +
              {31'd0, eng_err && (eng_code == k[7:0])} +
              {31'd0, e_wr && (e_wr_code == k[7:0])} +
              {31'd0, e_rd && (e_rd_code == k[7:0])};
        end
      end
      always @(posedge clk_i) err_cnt_q <= srst ? {NCNT*32{1'b0}} : err_cnt_d;
      assign err_cnt = err_cnt_q;
    end else begin : g_no_err_cnt
      assign err_cnt = {NCNT*32{1'b0}};
    end
  endgenerate

  // The POP read's state: its command pushed, its result word back.
  always @(posedge clk_i) begin
    if (srst) begin
      pop_issued_q <= 1'b0;
      pop_ready_q  <= 1'b0;
      run_tag_q    <= 1'b0;
      qcnt_q       <= 6'd0;
      run_res_q    <= 1'b0;
    end else begin
      if (eng_start) run_tag_q <= cmd_head[32];
      qcnt_q <= qcnt_q + {5'd0, cmd_push && HWS_RES_OPS[wr_data[31:28]]}
                       - {5'd0, eng_start && !cmd_head[32] && HWS_RES_OPS[cmd_head[31:28]]};
      if (eng_start) run_res_q <= !cmd_head[32] && HWS_RES_OPS[cmd_head[31:28]];
      else if (eng_done) run_res_q <= 1'b0;
      if (pop_push) pop_issued_q <= 1'b1;
      if (eng_res_push && run_tag_q) pop_ready_q <= 1'b1;
      if (pop_done) begin
        pop_issued_q <= 1'b0;
        pop_ready_q  <= 1'b0;
      end
    end
  end
  always @(posedge clk_i) if (eng_res_push && run_tag_q) pop_word_q <= eng_res;

  always @(posedge clk_i) begin
    if (srst) begin
      cmd_done_q   <= 32'd0;
      cycles_q     <= 32'd0;
      err_last_q   <= HWS_ERR_OK;
      err_cmd_q    <= 32'd0;
      err_seq_q    <= 32'd0;
      err_total_q  <= 32'd0;
      err_sticky_q <= 1'b0;
    end else begin
      cycles_q <= cycles_q + 32'd1;
      if (eng_done) cmd_done_q <= cmd_done_q + 32'd1;

      if (err_clear) begin
        err_last_q  <= HWS_ERR_OK;
        err_cmd_q   <= 32'd0;
        err_seq_q   <= 32'd0;
      end
      if (any_err) begin
        err_seq_q <= cmd_done_q;
        if (e_rd) begin
          err_last_q <= e_rd_code;
          err_cmd_q  <= e_rd_word;
        end else if (e_wr) begin
          err_last_q <= e_wr_code;
          err_cmd_q  <= e_wr_word;
        end else begin
          err_last_q <= eng_code;
          err_cmd_q  <= eng_cmd;
        end
      end
      err_total_q <= tot_next;

      if (any_err) err_sticky_q <= 1'b1;
      else if (rd_status || err_clear) err_sticky_q <= 1'b0;
    end
  end

  wire unused = &{1'b0, s_axi_awprot_i, s_axi_arprot_i, rd_act, rd_take, RES_DEPTH32,
                  CMD_DEPTH32};

`ifndef SYNTHESIS
  // The pop rule keeps the result FIFO from overflowing; the engine never pushes while full.
  always @(posedge clk_i) begin
    if (rst_ni && eng_res_push && !run_tag_q && res_full && !soft_reset) begin
      $display("hws_top: ASSERTION FAILED at %0t: result pushed into a full FIFO", $time);
      $fatal(1, "hws_top: result FIFO overflow");
    end
    if (rst_ni && eng_start && cmd_empty) begin
      $display("hws_top: ASSERTION FAILED at %0t: pop of an empty command FIFO", $time);
      $fatal(1, "hws_top: command FIFO underflow");
    end
  end
`endif
endmodule

`default_nettype wire
