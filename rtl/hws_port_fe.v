// hws_port_fe: one AXI4-Lite port's front end of hws_top (docs/accelerator.md 4.2-4.5).
//
// Owns the port's bus handshakes (hws_axil_slave), its command FIFO (posted CMD writes and
// window reads' commands, each tagged), its result FIFO, its POP/PEEKW window state
// (pop_issued, pop_ready, the window's word), its count of queued result-pushing commands
// and its STATUS.ERR bit; decodes the port's writes (CMD, CTRL; the interrupt's registers
// are decoded by hws_irq: wr_irq_hit_i) and reads (the whole register map: the shared
// registers come in as inputs). The address decode, which address names which register
// and whether it may be read or written, is generated from regmap/regmap.def
// (hws_regs_decode.vh: hws_rd_ok_fn, hws_rd_fn, hws_wr_fn, the window pages); this module gives each
// readable register its value. hws_top's arbiter pops the head
// (start_i) when eligible_o says the pop rule lets it; the engine's result word comes back
// to the port that issued the command (res_push_i into the result FIFO, win_push_i into
// the window's word).
//
// Every effect of an edge is computed from the state just before it (hws_top's header).
`default_nettype none

module hws_port_fe #(
  parameter integer NR_CPUS   = 8,
  parameter integer NR_TASKS  = 256,
  parameter integer CMD_DEPTH = 16,
  parameter integer RES_DEPTH = 16,
  parameter integer NR_GROUPS = 16,
  parameter integer LCU_BALANCE = 1,
  parameter integer ERR_COUNTERS = 1,
  parameter integer BAL_LANES = 0,    // BALANCE's lanes (0: NR_CPUS), read in FEATURES
  parameter integer IRQ = 1,            // FEATURES.IRQ only: hws_top builds hws_irq or not
  parameter integer PIPE      = 0,    // FEATURES.PIPE (docs/accelerator.md 4.1.1)
  parameter integer LCU_LEAN  = 0     // FEATURES.LEAN (docs/accelerator.md 8.2.1)
) (
  input  wire        clk_i,
  input  wire        rst_ni,
  input  wire        srst_i,          // reset or soft reset (any port's): clears the FIFOs
  // AXI4-Lite slave
  input  wire        s_axi_awvalid_i,
  output wire        s_axi_awready_o,
  input  wire [9:0]  s_axi_awaddr_i,
  input  wire        s_axi_wvalid_i,
  output wire        s_axi_wready_o,
  input  wire [31:0] s_axi_wdata_i,
  input  wire [3:0]  s_axi_wstrb_i,
  output wire        s_axi_bvalid_o,
  input  wire        s_axi_bready_i,
  output wire [1:0]  s_axi_bresp_o,
  input  wire        s_axi_arvalid_i,
  output wire        s_axi_arready_o,
  input  wire [9:0]  s_axi_araddr_i,
  output wire        s_axi_rvalid_o,
  input  wire        s_axi_rready_i,
  output wire [31:0] s_axi_rdata_o,
  output wire [1:0]  s_axi_rresp_o,
  // To and from the arbiter and the engine
  output wire        eligible_o /*verilator public_flat_rd*/,      // the head may start (pop rule, 4.1 conditions 1 and 3)
  output wire [32:0] head_o,          // the head command, bit 32: a window read's
  input  wire        start_i,         // the head starts at this edge
  input  wire        eng_busy_i,
  input  wire        run_mine_i,      // a command in flight (if any) is this port's
  input  wire [1:0]  run_nres_i,      // commands in flight from this port that will push a
                                      // result word (0..2; 2 only with PIPE = 1)
  output wire        room2_o,         // PIPE = 1, 4.1.1 (e): the head may pop beside an older
                                      // command (RES_LEVEL + run_nres <= RES_DEPTH - 2, or a
                                      // window read's)
  input  wire        res_push_i,      // this port's command pushes its result word now
  input  wire        win_push_i,      // this port's window command completes now
  input  wire [31:0] eng_res_i,
  input  wire        any_err_i,       // an error is recorded at this edge (any source)
  input  wire        err_clear_i,     // CTRL.ERR_CLEAR at this edge (any port)
  output wire        soft_reset_o,    // this port's CTRL write asks for a soft reset
  output wire        err_clear_o,     // this port's CTRL write asks for ERR_CLEAR
  output wire        e_wr_o,          // this port's write channel's error, code, word
  output wire [7:0]  e_wr_code_o,
  output wire [31:0] e_wr_word_o,
  output wire        e_rd_o,          // this port's read channel's error, code, word
  output wire [7:0]  e_rd_code_o,
  output wire [31:0] e_rd_word_o,
  // The shared registers, for the read mux
  input  wire [31:0] cmd_done_i,
  input  wire [31:0] cycles_i,
  input  wire [7:0]  err_last_i,
  input  wire [31:0] err_cmd_i,
  input  wire [31:0] err_seq_i,
  input  wire [31:0] err_total_i,
  input  wire [11*32-1:0] err_cnt_i,  // ERR_CNT1..11 (HWS_ERR_CODES - 1 of them, checked below)
  input  wire [127:0] bal_regs_i,
  input  wire [127:0] irq_regs_i,      // {IRQ_EN1, IRQ_EN0, IRQ_PEND1, IRQ_PEND0} (hws_irq)
  // this port's write to hws_irq (docs/accelerator.md 4.6): taken at this edge with
  // WSTRB = 0xF, its address and data; hws_irq says whether the address is one of its
  output wire        wr_irq_o,
  output wire [9:0]  wr_irq_addr_o,
  output wire [31:0] wr_irq_data_o,
  input  wire        wr_irq_hit_i
);
  /* verilator lint_off UNUSEDPARAM */
`include "hws_regs.vh"
`include "hws_regs_decode.vh"
  /* verilator lint_on UNUSEDPARAM */

`ifndef __ICARUS__
  generate
    if (HWS_ERR_CODES != 12) begin : g_bad_codes
      $error("hws_port_fe: err_cnt_i holds 11 counters, the register map has %0d", HWS_ERR_CODES - 1);
    end
  endgenerate
`endif

  localparam [31:0] NR_CPUS32   = NR_CPUS;
  localparam [31:0] NR_TASKS32  = NR_TASKS;
  localparam [31:0] NR_GROUPS32 = NR_GROUPS;
`include "hws_params.vh"
  localparam [31:0] FEATURES32  = `HWS_PARAMS_FEATURES;   // regmap/params.def's FEATURE column
  localparam [31:0] CMD_DEPTH32 = CMD_DEPTH;
  localparam [31:0] RES_DEPTH32 = RES_DEPTH;
  localparam [31:0] RES_ROOM32  = RES_DEPTH - 2;   // pop only while RES_LEVEL <= this

  wire        cmd_empty, cmd_full, res_empty, res_full;
  wire [5:0]  cmd_level, res_level;
  wire [32:0] cmd_head;           // bit 32: the command was pushed by a window read (4.4)
  wire [31:0] res_head;

  reg         pop_issued_q;       // the pending window read has pushed its command
  reg         pop_ready_q;        // pop_word_q holds its result
  reg  [31:0] pop_word_q;
  reg  [5:0]  qcnt_q;             // commands in the command FIFO that will push a result word
  reg         err_sticky_q;       // STATUS.ERR of this port

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
  // Write decode (the generated write select; the IRQ registers and CURR[c] are hws_irq's)
  wire [HWS_WR_N-1:0] wr_sel = hws_wr_fn(wr_addr);
  wire wr_is_ctrl = wr_sel[HWS_WR_CTRL];
  wire wr_is_cmd  = wr_sel[HWS_WR_CMD];
  assign wr_ok    = (wr_is_ctrl || wr_is_cmd || wr_irq_hit_i) && (wr_strb == 4'hF);
  assign wr_irq_o      = wr_take && (wr_strb == 4'hF);
  assign wr_irq_addr_o = wr_addr;
  assign wr_irq_data_o = wr_data;
  wire wr_addr_err = wr_take && !wr_ok;
  wire wr_cmd     = wr_take && wr_ok && wr_is_cmd;
  wire wr_ctrl    = wr_take && wr_ok && wr_is_ctrl;
  wire cmd_push   = wr_cmd && !cmd_full;
  wire wr_ovf     = wr_cmd && cmd_full;
  assign soft_reset_o = wr_ctrl && wr_data[HWS_CTRL_SOFT_RESET_LSB];
  assign err_clear_o  = wr_ctrl && wr_data[HWS_CTRL_ERR_CLEAR_LSB];

  // ---------------------------------------------------------------------------------------
  // Pop rule, this port's part (conditions 1 and 3 of 4.1)
  wire res_room  = ({26'd0, res_level} <= RES_ROOM32);
  // (a window read's command pushes no result word into the result FIFO: it needs no room)
  assign eligible_o = !cmd_empty && (res_room || cmd_head[32]);
  assign head_o     = cmd_head;
  assign room2_o    = cmd_head[32] || (({26'd0, res_level} + {30'd0, run_nres_i}) <= RES_ROOM32);
  wire busy_mine = eng_busy_i && run_mine_i;

  // ---------------------------------------------------------------------------------------
  // Read decode: the register rd_addr names, whether it waits, its value before this edge
  wire rd_lo        = hws_pg_regs_fn(rd_addr);
  wire rd_is_result = rd_lo && (rd_addr[7:0] == HWS_REG_RESULT);
  wire rd_is_sync   = rd_lo && (rd_addr[7:0] == HWS_REG_SYNC);
  wire rd_is_status = rd_lo && (rd_addr[7:0] == HWS_REG_STATUS);
  wire rd_is_pop    = hws_win_pop_fn(rd_addr);   // POP or PEEKW

  // RESULT and SYNC wait for this port's commands only: its FIFO, and the executing
  // command when it is this port's.
  assign rd_wait = (rd_is_result && res_empty && (busy_mine || !cmd_empty)) ||
                 (rd_is_sync && (busy_mine || (!cmd_empty && res_room))) ||
                 (rd_is_pop && !pop_ready_q && !pop_refuse);

  // A window read pushes its PICK_NEXT/PEEK at the first edge it is active (taken or
  // pending) with room in the command FIFO and no CMD write taken at the same edge (the
  // write goes first) - unless a command queued could stall on a full result FIFO
  // (condition 3 of 4.1: commands queued and RES_LEVEL + the result words still to come
  // >= RES_DEPTH - 1), which only a RESULT read could end: then the read is refused at the
  // first edge it is active and not yet pushed, with ERR_FLAG | POP_ERRP | OVERFLOW and
  // the OVERFLOW error, its command dropped.
  // RES_LEVEL + the result words still to come is kept as a register, res_future_q, so
  // the refusal needs no adder between the FIFO levels and the read's latch: it changes
  // only when a result-pushing CMD is pushed (+1) and when a RESULT read pops (-1); a
  // command's start (qcnt - 1, run_res + 1) and its completion (run_res - 1, RES_LEVEL + 1)
  // leave the sum as it is. Checked against the sum in simulation (below).
  reg  [6:0]  res_future_q;
  wire        pop_stall  = !cmd_empty && (res_future_q >= {1'b0, RES_ROOM32[5:0]} + 7'd1);
  wire        pop_wants  = rd_act && rd_is_pop && !pop_issued_q && !pop_ready_q;
  wire        pop_refuse = pop_wants && pop_stall;
  wire        pop_push   = pop_wants && !pop_stall && !cmd_full && !wr_cmd;
  wire [31:0] pop_cmd  = {hws_win_peek_fn(rd_addr) ? HWS_OP_PEEK : HWS_OP_PICK_NEXT, 20'd0,
                          rd_addr[7:2], 2'b00};
  localparam [31:0] POP_REFUSED = HWS_ERR_FLAG | (32'd1 << HWS_POP_ERRP_LSB) |
                                  {24'd0, HWS_ERR_OVERFLOW};

  wire [31:0] status_word =
      ({26'd0, cmd_level}   << HWS_STATUS_CMD_LEVEL_LSB) |
      ({26'd0, res_level}   << HWS_STATUS_RES_LEVEL_LSB) |
      ({31'd0, eng_busy_i}  << HWS_STATUS_BUSY_LSB) |
      ({31'd0, err_sticky_q} << HWS_STATUS_ERR_LSB) |
      ({31'd0, cmd_full}    << HWS_STATUS_CMD_FULL_LSB) |
      ({31'd0, res_full}    << HWS_STATUS_RES_FULL_LSB);
  wire [31:0] depths_word =
      ({26'd0, CMD_DEPTH32[5:0]} << HWS_DEPTHS_CMD_DEPTH_LSB) |
      ({26'd0, RES_DEPTH32[5:0]} << HWS_DEPTHS_RES_DEPTH_LSB);
  wire [31:0] result_word = res_empty ? (HWS_ERR_FLAG | {24'd0, HWS_ERR_UNDERFLOW}) : res_head;

  // The value of each readable register (the generated read mux hws_rd_fn picks one,
  // hws_rd_ok_fn says whether the address names one; a
  // register of regmap.def without a value here is an undriven bit for the lint)
  wire [HWS_RD_N*32-1:0] rd_vals;
  assign rd_vals[HWS_RD_ID*32 +: 32]        = HWS_ID_VALUE;
  assign rd_vals[HWS_RD_NR_CPUS*32 +: 32]   = NR_CPUS32;
  assign rd_vals[HWS_RD_NR_TASKS*32 +: 32]  = NR_TASKS32;
  assign rd_vals[HWS_RD_NR_GROUPS*32 +: 32] = NR_GROUPS32;
  assign rd_vals[HWS_RD_DEPTHS*32 +: 32]    = depths_word;
  assign rd_vals[HWS_RD_FEATURES*32 +: 32]  = FEATURES32;
  assign rd_vals[HWS_RD_STATUS*32 +: 32]    = status_word;
  assign rd_vals[HWS_RD_RESULT*32 +: 32]    = result_word;
  assign rd_vals[HWS_RD_SYNC*32 +: 32]      = status_word;
  assign rd_vals[HWS_RD_CMD_DONE*32 +: 32]  = cmd_done_i;
  assign rd_vals[HWS_RD_CYCLES*32 +: 32]    = cycles_i;
  assign rd_vals[HWS_RD_ERR_LAST*32 +: 32]  = {24'd0, err_last_i};
  assign rd_vals[HWS_RD_ERR_CMD*32 +: 32]   = err_cmd_i;
  assign rd_vals[HWS_RD_ERR_SEQ*32 +: 32]   = err_seq_i;
  assign rd_vals[HWS_RD_ERR_TOTAL*32 +: 32] = err_total_i;
  assign rd_vals[HWS_RD_ERR_CNT*32 +: HWS_RD_ERR_CNT_N*32] = err_cnt_i;
  assign rd_vals[HWS_RD_BAL*32 +: HWS_RD_BAL_N*32]         = bal_regs_i;
  assign rd_vals[HWS_RD_IRQ*32 +: HWS_RD_IRQ_N*32]         = irq_regs_i;
  wire        rd_reg_ok = hws_rd_ok_fn(rd_addr);
  wire [31:0] rd_reg    = hws_rd_fn(rd_addr, rd_vals);

  reg rd_valid_r;   // a readable register or window word
  assign rd_valid = rd_valid_r;
  always @* begin
    if (rd_is_pop) begin
      rd_valid_r = 1'b1;
      rd_word    = pop_refuse ? POP_REFUSED :
                   pop_word_q | ({31'd0, err_sticky_q} << HWS_POP_ERRP_LSB);
    end else begin
      // unmapped, misaligned, write-only, or CURR (write-only): not readable, 0
      rd_valid_r = rd_reg_ok;
      rd_word    = rd_reg;
    end
  end

  wire rd_addr_err  = rd_latch && !rd_valid;
  wire rd_underflow = rd_latch && rd_is_result && res_empty;
  wire res_pop      = rd_latch && rd_is_result && !res_empty;
  wire rd_status    = rd_latch && (rd_is_status || rd_is_sync || rd_is_pop);
  wire pop_done     = rd_latch && rd_is_pop;

  // Errors of this port's channels
  assign e_wr_o      = wr_addr_err || wr_ovf;
  assign e_wr_code_o = wr_addr_err ? HWS_ERR_ADDR : HWS_ERR_OVERFLOW;
  assign e_wr_word_o = wr_addr_err ? {22'd0, wr_addr} : wr_data;
  // The read channel's error, written without rd_wait (so without rd_latch): an unreadable
  // address never waits, a RESULT read underflows only when it does not wait (nothing of
  // this port's queued or executing), and pop_refuse does not involve the latch. The same
  // value as rd_addr_err || rd_underflow || pop_refuse (checked below in simulation), with
  // fewer logic levels before ERR_TOTAL.
  wire e_rd_fast = rd_act && (!rd_valid ||
                              (rd_is_result && res_empty && !busy_mine && cmd_empty) ||
                              (rd_is_pop && !pop_issued_q && !pop_ready_q && pop_stall));
  assign e_rd_o      = e_rd_fast;
  assign e_rd_code_o = !rd_valid ? HWS_ERR_ADDR :     // (read only with e_rd_o)
                       pop_refuse ? HWS_ERR_OVERFLOW : HWS_ERR_UNDERFLOW;
  assign e_rd_word_o = !rd_valid ? {22'd0, rd_addr} : pop_refuse ? pop_cmd : 32'd0;

  // ---------------------------------------------------------------------------------------
  // FIFOs
  hws_fifo #(.WIDTH(33), .DEPTH(CMD_DEPTH)) u_cmd_fifo (
    .clk_i(clk_i), .clr_i(srst_i), .push_i(cmd_push || pop_push),
    .wdata_i(pop_push ? {1'b1, pop_cmd} : {1'b0, wr_data}), .pop_i(start_i),
    .head_o(cmd_head), .level_o(cmd_level), .empty_o(cmd_empty), .full_o(cmd_full)
  );
  hws_fifo #(.WIDTH(32), .DEPTH(RES_DEPTH)) u_res_fifo (
    .clk_i(clk_i), .clr_i(srst_i), .push_i(res_push_i), .wdata_i(eng_res_i),
    .pop_i(res_pop),
    .head_o(res_head), .level_o(res_level), .empty_o(res_empty), .full_o(res_full)
  );

  // The window read's state, the queued result count, STATUS.ERR.
  always @(posedge clk_i) begin
    if (srst_i) begin
      pop_issued_q <= 1'b0;
      pop_ready_q  <= 1'b0;
      qcnt_q       <= 6'd0;
      res_future_q <= 7'd0;
      err_sticky_q <= 1'b0;
    end else begin
      res_future_q <= res_future_q + {6'd0, cmd_push && HWS_RES_OPS[wr_data[31:28]]}
                                   - {6'd0, res_pop};
      qcnt_q <= qcnt_q + {5'd0, cmd_push && HWS_RES_OPS[wr_data[31:28]]}
                       - {5'd0, start_i && !cmd_head[32] && HWS_RES_OPS[cmd_head[31:28]]};
      if (pop_push) pop_issued_q <= 1'b1;
      if (win_push_i) pop_ready_q <= 1'b1;
      if (pop_done) begin
        pop_issued_q <= 1'b0;
        pop_ready_q  <= 1'b0;
      end
      if (any_err_i) err_sticky_q <= 1'b1;
      else if (rd_status || err_clear_i) err_sticky_q <= 1'b0;
    end
  end
  always @(posedge clk_i) if (win_push_i) pop_word_q <= eng_res_i;

  wire unused = &{1'b0, rd_take, RES_DEPTH32, CMD_DEPTH32};

`ifndef SYNTHESIS
  // The pop rule keeps the result FIFO from overflowing; the engine never pushes while full.
  always @(posedge clk_i) begin
    if (rst_ni && res_push_i && res_full && !srst_i) begin
      $display("hws_port_fe: ASSERTION FAILED at %0t: result pushed into a full FIFO", $time);
      $fatal(1, "hws_port_fe: result FIFO overflow");
    end
    if (rst_ni && !srst_i &&
        res_future_q != {1'b0, res_level} + {1'b0, qcnt_q} + {5'd0, run_nres_i}) begin
      $display("hws_port_fe: ASSERTION FAILED at %0t: res_future_q %0d, RES_LEVEL %0d + queued %0d + executing %0d",
               $time, res_future_q, res_level, qcnt_q, run_nres_i);
      $fatal(1, "hws_port_fe: res_future_q");
    end
    if (rst_ni && e_rd_fast != (rd_addr_err || rd_underflow || pop_refuse)) begin
      $display("hws_port_fe: ASSERTION FAILED at %0t: e_rd_fast %0d, the latch's errors %0d",
               $time, e_rd_fast, rd_addr_err || rd_underflow || pop_refuse);
      $fatal(1, "hws_port_fe: e_rd_fast");
    end
    if (rst_ni && start_i && cmd_empty) begin
      $display("hws_port_fe: ASSERTION FAILED at %0t: pop of an empty command FIFO", $time);
      $fatal(1, "hws_port_fe: command FIFO underflow");
    end
  end
`endif
endmodule

`default_nettype wire
