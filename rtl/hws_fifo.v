// hws_fifo: synchronous FIFO in flip-flops with its head word readable combinationally.
//
// The head is needed in the same cycle as the pop (the engine latches it at the pop edge,
// the RESULT read returns it at the read edge), so the storage is flops, not block RAM.
// Pushing a full FIFO or popping an empty one is the caller's error and is ignored.
`default_nettype none

module hws_fifo #(
  parameter integer WIDTH = 32,  // bits per word, >= 1
  parameter integer DEPTH = 16   // words, 2..32 (the level is reported in 6 bits)
) (
  input  wire             clk_i,
  input  wire             clr_i,    // synchronous clear (reset, soft reset): wins over push/pop
  input  wire             push_i,   // append wdata_i at this edge
  input  wire [WIDTH-1:0] wdata_i,
  input  wire             pop_i,    // drop the head at this edge
  output wire [WIDTH-1:0] head_o,   // oldest word (meaningless when empty_o)
  output wire [5:0]       level_o,  // words held
  output wire             empty_o,
  output wire             full_o
);
`ifndef __ICARUS__
  generate
    if (WIDTH < 1 || DEPTH < 2 || DEPTH > 32) begin : g_bad_param
      $error("hws_fifo: WIDTH=%0d DEPTH=%0d (need WIDTH >= 1, DEPTH 2..32)", WIDTH, DEPTH);
    end
  endgenerate
`endif
`ifndef SYNTHESIS
  // Elaboration errors are warnings to Verilator -Wno-fatal and unknown to Icarus: stop the
  // simulation at time 0 as well.
  initial if (WIDTH < 1 || DEPTH < 2 || DEPTH > 32)
    $fatal(1, "hws_fifo: WIDTH=%0d DEPTH=%0d (need WIDTH >= 1, DEPTH 2..32)", WIDTH, DEPTH);
`endif

  localparam integer PW = $clog2(DEPTH);      // pointer width
  localparam [31:0]  LAST32 = DEPTH - 1;      // last slot
  localparam [31:0]  DEPTH32 = DEPTH;
  localparam [31:0]  ONE32 = 32'd1;

  reg [WIDTH-1:0] mem_q [0:DEPTH-1];
  reg [PW-1:0]    rd_ptr_q, wr_ptr_q;
  reg [5:0]       level_q;

  wire do_push = push_i && (level_q != DEPTH32[5:0]);
  wire do_pop  = pop_i && (level_q != 6'd0);

  always @(posedge clk_i) begin
    if (clr_i) begin
      rd_ptr_q <= {PW{1'b0}};
      wr_ptr_q <= {PW{1'b0}};
      level_q  <= 6'd0;
    end else begin
      if (do_push) begin
        wr_ptr_q <= (wr_ptr_q == LAST32[PW-1:0]) ? {PW{1'b0}} : wr_ptr_q + ONE32[PW-1:0];
      end
      if (do_pop) begin
        rd_ptr_q <= (rd_ptr_q == LAST32[PW-1:0]) ? {PW{1'b0}} : rd_ptr_q + ONE32[PW-1:0];
      end
      if (do_push && !do_pop) level_q <= level_q + 6'd1;
      if (!do_push && do_pop) level_q <= level_q - 6'd1;
    end
  end

  // Storage has no reset: a slot is read only after it was written.
  always @(posedge clk_i) begin
    if (do_push && !clr_i) mem_q[wr_ptr_q] <= wdata_i;
  end

  assign head_o  = mem_q[rd_ptr_q];
  assign level_o = level_q;
  assign empty_o = (level_q == 6'd0);
  assign full_o  = (level_q == DEPTH32[5:0]);

endmodule

`default_nettype wire
