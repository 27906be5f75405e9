// board_top: hws_top on a small board (iCEBreaker: UP5K sg48, 12 MHz), reached over a
// UART (8N1). The AXI4-Lite wrapper needs ~106 pins, the sg48 has 39: this top needs 5.
//
// The frame protocol ('W' ADDR D0..D3, 'S' ADDR STRB D0..D3, 'R' ADDR and their replies) is
// defined in docs/board.md; the driver's uart backend (driver/hws_uart.c) speaks it.
// Also the narrow top the synthesis sweep places on the UP5K (synth/synth_one.sh).
`default_nettype none

module board_top #(
  parameter integer NR_CPUS   = 8,
  parameter integer NR_TASKS  = 256,
  parameter integer CMD_DEPTH = 16,
  parameter integer RES_DEPTH = 16,
  parameter integer NR_GROUPS = 16,
  parameter integer LCU_BALANCE = 1,
  parameter integer ERR_COUNTERS = 1,
  parameter integer BAL_LANES = 0,
  parameter integer IRQ       = 1,    // 0: without the preemption interrupt (hws_top)
  parameter integer PIPE      = 0,    // hws_top's (docs/accelerator.md 4.1.1)
  parameter integer LCU_LEAN  = 0,    // 1: the area-lean BALANCE (hws_top; 8.2.1)
  parameter integer CLK_HZ    = 12000000,
  parameter integer BAUD      = 115200
) (
  input  wire CLK,
  input  wire BTN_N,    // reset button, active low
  input  wire RX,
  output wire TX,
  output wire LEDR_N,   // on: an AXI response other than OKAY since reset
  output wire LEDG_N    // on: out of reset
);
  localparam integer DIV = CLK_HZ / BAUD;   // clocks per bit
  localparam integer DW  = $clog2(DIV + 1);
  localparam [31:0] DIV_M1_32  = DIV - 1;
  localparam [31:0] HALF_M1_32 = DIV / 2 - 1;
  localparam [DW-1:0] DIV_M1  = DIV_M1_32[DW-1:0];
  localparam [DW-1:0] HALF_M1 = HALF_M1_32[DW-1:0];

  // ---- reset: power-on counter and the (synchronised) button ----------------------------
  reg [3:0] por_q = 4'd0;
  reg [1:0] btn_q = 2'b00;
  reg       rst_nq = 1'b0;
  always @(posedge CLK) begin
    btn_q  <= {btn_q[0], BTN_N};
    if (!por_q[3]) por_q <= por_q + 4'd1;
    rst_nq <= por_q[3] && btn_q[1];
  end

  // ---- UART receiver ------------------------------------------------------------------------
  reg [1:0]    rx_sync_q = 2'b11;
  reg          rx_busy_q;
  reg [DW-1:0] rx_cnt_q;
  reg [3:0]    rx_bit_q;
  reg [7:0]    rx_sh_q;
  reg          rx_stb_q;   // rx_sh_q holds a new byte for one cycle
  always @(posedge CLK) begin
    rx_sync_q <= {rx_sync_q[0], RX};
    rx_stb_q  <= 1'b0;
    if (!rst_nq) begin
      rx_busy_q <= 1'b0;
      rx_cnt_q  <= {DW{1'b0}};
      rx_bit_q  <= 4'd0;
    end else if (!rx_busy_q) begin
      if (!rx_sync_q[1]) begin             // start bit: sample in the middle of each bit
        rx_busy_q <= 1'b1;
        rx_cnt_q  <= HALF_M1;
        rx_bit_q  <= 4'd0;
      end
    end else if (rx_cnt_q != {DW{1'b0}}) begin
      rx_cnt_q <= rx_cnt_q - 1'b1;
    end else begin
      rx_cnt_q <= DIV_M1;
      rx_bit_q <= rx_bit_q + 4'd1;
      if (rx_bit_q == 4'd0) begin
        if (rx_sync_q[1]) rx_busy_q <= 1'b0;   // a glitch, not a start bit
      end else if (rx_bit_q == 4'd9) begin
        rx_busy_q <= 1'b0;
        rx_stb_q  <= rx_sync_q[1];           // stop bit seen: the byte is good
      end else begin
        rx_sh_q <= {rx_sync_q[1], rx_sh_q[7:1]};
      end
    end
  end

  // ---- UART transmitter -------------------------------------------------------------------
  reg          tx_busy_q;
  reg [DW-1:0] tx_cnt_q;
  reg [3:0]    tx_bit_q;
  reg [9:0]    tx_sh_q;
  reg          tx_q = 1'b1;
  wire         tx_load;
  wire [7:0]   tx_byte;
  always @(posedge CLK) begin
    if (!rst_nq) begin
      tx_busy_q <= 1'b0;
      tx_q      <= 1'b1;
      tx_cnt_q  <= {DW{1'b0}};
      tx_bit_q  <= 4'd0;
      tx_sh_q   <= 10'h3FF;
    end else if (!tx_busy_q) begin
      if (tx_load) begin
        tx_busy_q <= 1'b1;
        tx_sh_q   <= {1'b1, tx_byte, 1'b0};
        tx_cnt_q  <= {DW{1'b0}};
        tx_bit_q  <= 4'd0;
      end
    end else if (tx_cnt_q != {DW{1'b0}}) begin
      tx_cnt_q <= tx_cnt_q - 1'b1;
    end else if (tx_bit_q == 4'd10) begin
      tx_busy_q <= 1'b0;
    end else begin
      tx_q     <= tx_sh_q[0];
      tx_sh_q  <= {1'b1, tx_sh_q[9:1]};
      tx_cnt_q <= DIV_M1;
      tx_bit_q <= tx_bit_q + 4'd1;
    end
  end
  assign TX = tx_q;

  // ---- the bridge -------------------------------------------------------------------------
  localparam [2:0] S_OP = 3'd0, S_ADDR = 3'd1, S_DATA = 3'd2, S_BUS = 3'd3, S_REPLY = 3'd4,
                   S_STRB = 3'd5;
  reg [2:0]  st_q;
  reg        wr_q;        // the frame is a write
  reg        sf_q;        // the write frame carries a strobe byte ('S')
  reg [3:0]  wstrb_q;     // WSTRB of the write: 4'hF for 'W', the STRB byte's [3:0] for 'S'
  reg [7:0]  addr_q;
  reg [31:0] wdata_q;
  reg [39:0] reply_q;     // bytes to send, first in [7:0]
  reg [2:0]  n_q;         // bytes still to receive / send
  reg        awvalid_q, wvalid_q, arvalid_q, err_q;

  wire       awready, wready, bvalid, arready, rvalid;
  wire [1:0] bresp, rresp;
  wire       irq;
  wire [NR_CPUS-1:0] irq_cpu;
  wire [31:0] rdata;

  assign tx_load = (st_q == S_REPLY) && !tx_busy_q;   // tx_busy_q is set the next cycle
  assign tx_byte = reply_q[7:0];

  always @(posedge CLK) begin
    if (!rst_nq) begin
      st_q      <= S_OP;
      wr_q      <= 1'b0;
      sf_q      <= 1'b0;
      wstrb_q   <= 4'hF;
      addr_q    <= 8'd0;
      wdata_q   <= 32'd0;
      reply_q   <= 40'd0;
      n_q       <= 3'd0;
      awvalid_q <= 1'b0;
      wvalid_q  <= 1'b0;
      arvalid_q <= 1'b0;
      err_q     <= 1'b0;
    end else begin
      case (st_q)
        S_OP: if (rx_stb_q && (rx_sh_q == "W" || rx_sh_q == "S" || rx_sh_q == "R")) begin
          wr_q    <= (rx_sh_q != "R");
          sf_q    <= (rx_sh_q == "S");
          wstrb_q <= 4'hF;
          st_q    <= S_ADDR;
        end
        S_ADDR: if (rx_stb_q) begin
          addr_q <= rx_sh_q;
          n_q    <= 3'd4;
          if (wr_q) begin
            st_q <= sf_q ? S_STRB : S_DATA;
          end else begin
            st_q      <= S_BUS;
            arvalid_q <= 1'b1;
          end
        end
        S_STRB: if (rx_stb_q) begin
          wstrb_q <= rx_sh_q[3:0];   // [7:4] are ignored
          st_q    <= S_DATA;
        end
        S_DATA: if (rx_stb_q) begin
          wdata_q <= {rx_sh_q, wdata_q[31:8]};
          n_q     <= n_q - 3'd1;
          if (n_q == 3'd1) begin
            st_q      <= S_BUS;
            awvalid_q <= 1'b1;
            wvalid_q  <= 1'b1;
          end
        end
        S_BUS: begin
          if (awready) awvalid_q <= 1'b0;
          if (wready)  wvalid_q  <= 1'b0;
          if (arready) arvalid_q <= 1'b0;
          if (wr_q && bvalid) begin
            reply_q <= {32'd0, 6'd0, bresp};
            err_q   <= err_q || (bresp != 2'b00);
            n_q     <= 3'd1;
            st_q    <= S_REPLY;
          end else if (!wr_q && rvalid) begin
            reply_q <= {rdata, 6'd0, rresp};
            err_q   <= err_q || (rresp != 2'b00);
            n_q     <= 3'd5;
            st_q    <= S_REPLY;
          end
        end
        default: if (tx_load) begin   // S_REPLY
          reply_q <= {8'd0, reply_q[39:8]};
          n_q     <= n_q - 3'd1;
          if (n_q == 3'd1) st_q <= S_OP;
        end
      endcase
    end
  end

  hws_top #(
    .NR_CPUS(NR_CPUS), .NR_TASKS(NR_TASKS), .CMD_DEPTH(CMD_DEPTH),
    .RES_DEPTH(RES_DEPTH), .NR_GROUPS(NR_GROUPS), .LCU_BALANCE(LCU_BALANCE),
    .ERR_COUNTERS(ERR_COUNTERS), .BAL_LANES(BAL_LANES), .IRQ(IRQ), .PIPE(PIPE),
    .LCU_LEAN(LCU_LEAN)
  ) u_top (
    .clk_i(CLK), .rst_ni(rst_nq),
    .s_axi_awvalid_i(awvalid_q), .s_axi_awready_o(awready), .s_axi_awaddr_i({2'b0, addr_q}),
    .s_axi_awprot_i(3'd0),
    .s_axi_wvalid_i(wvalid_q), .s_axi_wready_o(wready), .s_axi_wdata_i(wdata_q),
    .s_axi_wstrb_i(wstrb_q),
    .s_axi_bvalid_o(bvalid), .s_axi_bready_i(st_q == S_BUS && wr_q), .s_axi_bresp_o(bresp),
    .s_axi_arvalid_i(arvalid_q), .s_axi_arready_o(arready), .s_axi_araddr_i({2'b0, addr_q}),
    .s_axi_arprot_i(3'd0),
    .s_axi_rvalid_o(rvalid), .s_axi_rready_i(st_q == S_BUS && !wr_q), .s_axi_rdata_o(rdata),
    .s_axi_rresp_o(rresp), .irq_o(irq), .irq_cpu_o(irq_cpu)
  );
  // The preemption interrupt has no pin on this board (its registers are still readable
  // through the serial line's 8-bit addresses; the CURR window is not).
  wire unused_irq = &{1'b0, irq, irq_cpu};

  assign LEDR_N = !err_q;
  assign LEDG_N = !rst_nq;
endmodule

`default_nettype wire
