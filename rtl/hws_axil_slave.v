// hws_axil_slave: the AXI4-Lite handshakes of hws_top (docs/accelerator.md 4.2).
//
// Owns the bus state: the AW and W holding registers, the B response, and the read
// channel's pending address and R response. The register file stays in hws_top: it sees
// a write as one strobe (wr_take_o with address, data and strobes) and a read as the
// address it asks about (rd_addr_o), and answers with rd_wait_i / rd_valid_i / rd_word_i.
//
// Write: AW and W are handshaken each on its own. AWREADY = !BVALID && !aw_held and
// WREADY = !BVALID && !w_held, registers only. A beat taken before its partner is held;
// the write is taken (wr_take_o, with the held or the live address and data) at the edge
// where the second of the two is handshaken, or at the edge both are when they come
// together. BVALID rises at that edge with BRESP = wr_ok_i ? OKAY : SLVERR, and falls at
// the edge where BREADY is 1. At most one write is outstanding.
// Read: ARREADY = !RVALID && !pending. At the AR edge the read latches RDATA when the
// register does not wait (rd_wait_i low), else it becomes pending and latches at the first
// later edge whose prior state ends the wait; RVALID rises at the latching edge (rd_latch_o)
// and falls at the edge where RREADY is 1.
// The reset (rst_ni, synchronous, active low) clears the handshake state; a soft reset of
// the engine does not reach it.
//
// Under `ifdef FORMAL`: the AXI4-Lite rules for a slave, against any legal master (the
// assumptions), proven by k-induction (formal/proofs.list, docs/formal.md).
`default_nettype none

module hws_axil_slave #(
  parameter integer AW = 10  // address bits (hws_top: ADDR_W = 10, the registers and the POP/PEEK windows)
) (
  input  wire        clk_i,
  input  wire        rst_ni,
  // AXI4-Lite slave
  input  wire        s_axi_awvalid_i,
  output wire        s_axi_awready_o,
  input  wire [AW-1:0] s_axi_awaddr_i,
  input  wire        s_axi_wvalid_i,
  output wire        s_axi_wready_o,
  input  wire [31:0] s_axi_wdata_i,
  input  wire [3:0]  s_axi_wstrb_i,
  output wire        s_axi_bvalid_o,
  input  wire        s_axi_bready_i,
  output wire [1:0]  s_axi_bresp_o,
  input  wire        s_axi_arvalid_i,
  output wire        s_axi_arready_o,
  input  wire [AW-1:0] s_axi_araddr_i,
  output wire        s_axi_rvalid_o,
  input  wire        s_axi_rready_i,
  output wire [31:0] s_axi_rdata_o,
  output wire [1:0]  s_axi_rresp_o,
  // The register file's side
  output wire        wr_take_o,    // a write is taken at this edge
  output wire [AW-1:0] wr_addr_o,    // its address, data and strobes (valid with wr_take_o)
  output wire [31:0] wr_data_o,
  output wire [3:0]  wr_strb_o,
  input  wire        wr_ok_i,      // wr_addr_o/wr_strb_o name a writable register: OKAY
  output wire        rd_act_o,     // a read asks about rd_addr_o at this edge
  output wire [AW-1:0] rd_addr_o,
  input  wire        rd_wait_i,    // rd_addr_o's register is not ready yet
  input  wire        rd_valid_i,   // rd_addr_o is a readable register (else SLVERR, RDATA 0)
  input  wire [31:0] rd_word_i,    // its value before this edge
  output wire        rd_take_o,    // ARVALID && ARREADY at this edge
  output wire        rd_latch_o    // RDATA is latched at this edge (the read's side effects)
);
  localparam [1:0] RESP_OKAY   = 2'b00;
  localparam [1:0] RESP_SLVERR = 2'b10;

  // ---------------------------------------------------------------------------------------
  // Write channels
  reg        bvalid_q;
  reg [1:0]  bresp_q;
  reg        aw_held_q, w_held_q;
  reg [AW-1:0] awaddr_q;
  reg [31:0] wdata_q;
  reg [3:0]  wstrb_q;

  wire awready = !bvalid_q && !aw_held_q;
  wire wready  = !bvalid_q && !w_held_q;
  wire aw_hs   = s_axi_awvalid_i && awready;
  wire w_hs    = s_axi_wvalid_i && wready;
  // (aw_held_q || aw_hs) && (w_held_q || w_hs), written from the invariants BVALID ->
  // neither held, and never both held (asserted under FORMAL below): one level less.
  wire wr_take = !bvalid_q && (aw_held_q || s_axi_awvalid_i) && (w_held_q || s_axi_wvalid_i);

  assign wr_take_o = wr_take;
  assign wr_addr_o = aw_held_q ? awaddr_q : s_axi_awaddr_i;
  assign wr_data_o = w_held_q ? wdata_q : s_axi_wdata_i;
  assign wr_strb_o = w_held_q ? wstrb_q : s_axi_wstrb_i;

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      bvalid_q  <= 1'b0;
      bresp_q   <= RESP_OKAY;
      aw_held_q <= 1'b0;
      w_held_q  <= 1'b0;
    end else if (wr_take) begin
      bvalid_q  <= 1'b1;
      bresp_q   <= wr_ok_i ? RESP_OKAY : RESP_SLVERR;
      aw_held_q <= 1'b0;
      w_held_q  <= 1'b0;
    end else begin
      if (aw_hs) aw_held_q <= 1'b1;
      if (w_hs)  w_held_q  <= 1'b1;
      if (bvalid_q && s_axi_bready_i) bvalid_q <= 1'b0;
    end
  end

  // The held payload needs no reset: it is used only while its held flag is set.
  always @(posedge clk_i) begin
    if (aw_hs) awaddr_q <= s_axi_awaddr_i;
    if (w_hs) begin
      wdata_q <= s_axi_wdata_i;
      wstrb_q <= s_axi_wstrb_i;
    end
  end

  // ---------------------------------------------------------------------------------------
  // Read channels
  reg        rvalid_q, rpend_q;
  reg [AW-1:0] raddr_q;
  reg [31:0] rdata_q;
  reg [1:0]  rresp_q;

  wire rd_take  = s_axi_arvalid_i && !rvalid_q && !rpend_q;
  wire rd_act   = rd_take || rpend_q;
  wire rd_latch = rd_act && !rd_wait_i;

  assign rd_act_o   = rd_act;
  assign rd_addr_o  = rpend_q ? raddr_q : s_axi_araddr_i;
  assign rd_take_o  = rd_take;
  assign rd_latch_o = rd_latch;

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      rvalid_q <= 1'b0;
      rpend_q  <= 1'b0;
      raddr_q  <= {AW{1'b0}};
      rdata_q  <= 32'd0;
      rresp_q  <= RESP_OKAY;
    end else begin
      if (rd_take) raddr_q <= s_axi_araddr_i;
      if (rd_latch) begin
        rvalid_q <= 1'b1;
        rpend_q  <= 1'b0;
        rdata_q  <= rd_valid_i ? rd_word_i : 32'd0;
        rresp_q  <= rd_valid_i ? RESP_OKAY : RESP_SLVERR;
      end else begin
        if (rd_take) rpend_q <= 1'b1;
        if (rvalid_q && s_axi_rready_i) rvalid_q <= 1'b0;
      end
    end
  end

  // ---------------------------------------------------------------------------------------
  // Outputs
  assign s_axi_awready_o = awready;
  assign s_axi_wready_o  = wready;
  assign s_axi_bvalid_o  = bvalid_q;
  assign s_axi_bresp_o   = bresp_q;
  assign s_axi_arready_o = !rvalid_q && !rpend_q;
  assign s_axi_rvalid_o  = rvalid_q;
  assign s_axi_rdata_o   = rdata_q;
  assign s_axi_rresp_o   = rresp_q;

`ifdef FORMAL
  // ---------------------------------------------------------------------------------------
  // AXI4-Lite (AMBA AXI and ACE spec, IHI 0022, A3.1-A3.3), for one slave and any legal
  // master. f_* are the checker's own state.
`include "hws_formal_env.vh"

  // The first cycle is in reset; VALIDs are low in reset (A3.1.2).
  always @(*) begin
    if (!f_past_valid) assume (!rst_ni);
    if (!rst_ni) begin
      assume (!s_axi_awvalid_i);
      assume (!s_axi_wvalid_i);
      assume (!s_axi_arvalid_i);
    end
  end

  // Master: VALIDs low in the first cycle after reset too (A3.1.2); a VALID, once raised,
  // stays until its READY, with its payload stable (A3.2.1), unless reset intervenes.
  always @(posedge clk_i) begin
    if (!f_past_valid || !$past(rst_ni)) begin
      assume (!s_axi_awvalid_i);
      assume (!s_axi_wvalid_i);
      assume (!s_axi_arvalid_i);
    end else if (rst_ni) begin
      if ($past(s_axi_awvalid_i && !s_axi_awready_o))
        assume (s_axi_awvalid_i && s_axi_awaddr_i == $past(s_axi_awaddr_i));
      if ($past(s_axi_wvalid_i && !s_axi_wready_o))
        assume (s_axi_wvalid_i && s_axi_wdata_i == $past(s_axi_wdata_i) &&
                s_axi_wstrb_i == $past(s_axi_wstrb_i));
      if ($past(s_axi_arvalid_i && !s_axi_arready_o))
        assume (s_axi_arvalid_i && s_axi_araddr_i == $past(s_axi_araddr_i));
    end
  end

  // Handshakes seen on the pins.
  wire f_aw = s_axi_awvalid_i && s_axi_awready_o;
  wire f_w  = s_axi_wvalid_i && s_axi_wready_o;
  wire f_b  = s_axi_bvalid_o && s_axi_bready_i;
  wire f_ar = s_axi_arvalid_i && s_axi_arready_o;
  wire f_r  = s_axi_rvalid_o && s_axi_rready_i;

  // Requests accepted and not yet answered, per channel. 2 bits: the bound asserted below
  // is 1, so a count of 2 or 3 is a failure seen before it could wrap.
  reg [1:0] f_aw_out, f_w_out, f_ar_out;
  // The address and data of the write in flight, as handshaken, and of the read.
  reg [AW-1:0] f_awaddr, f_araddr;
  reg [31:0] f_wdata;
  reg [3:0]  f_wstrb;
  always @(posedge clk_i) begin
    if (!rst_ni) begin
      f_aw_out <= 2'd0;
      f_w_out  <= 2'd0;
      f_ar_out <= 2'd0;
    end else begin
      f_aw_out <= f_aw_out + {1'b0, f_aw} - {1'b0, f_b};
      f_w_out  <= f_w_out + {1'b0, f_w} - {1'b0, f_b};
      f_ar_out <= f_ar_out + {1'b0, f_ar} - {1'b0, f_r};
    end
    if (f_aw) f_awaddr <= s_axi_awaddr_i;
    if (f_w) begin
      f_wdata <= s_axi_wdata_i;
      f_wstrb <= s_axi_wstrb_i;
    end
    if (f_ar) f_araddr <= s_axi_araddr_i;
  end

  always @(posedge clk_i) begin
    if (f_past_valid) begin
      // Slave: BVALID and RVALID low after reset (A3.1.2).
      if (!$past(rst_ni)) begin
        assert (!s_axi_bvalid_o);
        assert (!s_axi_rvalid_o);
      end else begin
        // A response, once valid, stays until READY, its payload stable (A3.2.1).
        if ($past(s_axi_bvalid_o && !s_axi_bready_i))
          assert (s_axi_bvalid_o && s_axi_bresp_o == $past(s_axi_bresp_o));
        if ($past(s_axi_rvalid_o && !s_axi_rready_i))
          assert (s_axi_rvalid_o && s_axi_rdata_o == $past(s_axi_rdata_o) &&
                  s_axi_rresp_o == $past(s_axi_rresp_o));
      end
    end
  end

  // Checked in every cycle after the first (the first is in reset with the state unknown).
  always @(*) begin
    if (f_past_valid) begin
      // Bounded: at most one request of each channel outstanding.
      assert (f_aw_out <= 2'd1);
      assert (f_w_out <= 2'd1);
      assert (f_ar_out <= 2'd1);
      // No response without a request: a write response follows an AW and a W (A3.3.1),
      // a read response an AR.
      if (s_axi_bvalid_o) assert (f_aw_out == 2'd1 && f_w_out == 2'd1);
      if (s_axi_rvalid_o) assert (f_ar_out == 2'd1);
      // Exactly one response per request: a write whose AW and W were both accepted is
      // answered (BVALID is up until the B handshake retires both counts); a read accepted
      // is pending (waiting for the register file) or answered.
      if (f_aw_out == 2'd1 && f_w_out == 2'd1) assert (s_axi_bvalid_o);
      if (f_ar_out == 2'd1) assert (s_axi_rvalid_o || rpend_q);
      // The register file sees the write that was handshaken, once.
      if (wr_take) begin
        assert (wr_addr_o == (f_aw ? s_axi_awaddr_i : f_awaddr));
        assert (wr_data_o == (f_w ? s_axi_wdata_i : f_wdata));
        assert (wr_strb_o == (f_w ? s_axi_wstrb_i : f_wstrb));
        assert (f_aw_out + {1'b0, f_aw} == 2'd1 && f_w_out + {1'b0, f_w} == 2'd1);
      end
      if (rd_act) assert (rd_addr_o == (f_ar ? s_axi_araddr_i : f_araddr));
`ifndef FORMAL_NO_AUX
      // Auxiliary invariants (for induction): the slave's state names the counts. Left out
      // with FORMAL_NO_AUX, so that a bounded check shows which protocol rule a mutant breaks.
      if (!s_axi_bvalid_o) begin
        assert (f_aw_out == {1'b0, aw_held_q});
        assert (f_w_out == {1'b0, w_held_q});
      end else begin
        assert (!aw_held_q && !w_held_q);
      end
      assert (!(aw_held_q && w_held_q));
      assert (!(rvalid_q && rpend_q));
      assert (f_ar_out == {1'b0, rvalid_q || rpend_q});
      if (aw_held_q) assert (awaddr_q == f_awaddr);
      if (w_held_q) assert (wdata_q == f_wdata && wstrb_q == f_wstrb);
      if (rpend_q) assert (raddr_q == f_araddr);
`endif
    end
  end
`endif
endmodule

`default_nettype wire
