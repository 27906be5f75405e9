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

  // Storage has no reset: a slot is read only after it was written (a push at a clearing
  // edge writes a slot the clear leaves unread, so it need not wait for clr_i).
  always @(posedge clk_i) begin
    if (do_push) mem_q[wr_ptr_q] <= wdata_i;
  end

  assign head_o  = mem_q[rd_ptr_q];
  assign level_o = level_q;
  assign empty_o = (level_q == 6'd0);
  assign full_o  = (level_q == DEPTH32[5:0]);

`ifdef FORMAL
  // ---------------------------------------------------------------------------------------
  // Properties, for any push/pop/clear sequence (formal/proofs.list, docs/formal.md).
`define HWS_F_RESET clr_i
`include "hws_formal_env.vh"

  // Slots from the read pointer to @p, modulo DEPTH.
  function automatic [31:0] f_dist(input [PW-1:0] p, input [PW-1:0] r);
    f_dist = ({{(32-PW){1'b0}}, p} >= {{(32-PW){1'b0}}, r}) ?
             {{(32-PW){1'b0}}, p} - {{(32-PW){1'b0}}, r} :
             {{(32-PW){1'b0}}, p} + DEPTH32 - {{(32-PW){1'b0}}, r};
  endfunction
  function automatic [PW-1:0] f_inc(input [PW-1:0] p);
    f_inc = (p == LAST32[PW-1:0]) ? {PW{1'b0}} : p + ONE32[PW-1:0];
  endfunction

  // Occupancy: 0..DEPTH, the flags say so, the pointers agree with it, and a level
  // changes by the push and pop that were done.
  always @(*) begin
    if (f_past_valid) begin
      assert ({26'd0, level_q} <= DEPTH32);
      assert (empty_o == (level_q == 6'd0));
      assert (full_o == (level_q == DEPTH32[5:0]));
      assert ({{(32-PW){1'b0}}, rd_ptr_q} < DEPTH32 && {{(32-PW){1'b0}}, wr_ptr_q} < DEPTH32);
      assert (f_dist(wr_ptr_q, rd_ptr_q) == ((level_q == DEPTH32[5:0]) ? 32'd0 : {26'd0, level_q}));
    end
  end
  always @(posedge clk_i) begin
    if (f_past_valid && !$past(clr_i)) begin
      assert (level_q == $past(level_q) + {5'd0, $past(do_push)} - {5'd0, $past(do_pop)});
      // A push into a full FIFO and a pop of an empty one are ignored.
      if ($past(push_i && full_o && !pop_i)) assert (level_q == $past(level_q));
      if ($past(pop_i && empty_o && !push_i)) assert (level_q == 6'd0);
    end
    if (f_past_valid && $past(clr_i)) assert (level_q == 6'd0);
  end

  // Twin writes: two values pushed at successive pushes (f_a, then f_b, any values) come
  // out in that order. f_st: 0 watching, 1 f_a queued at f_pa and the last pushed, 2 f_b
  // queued right behind it, 3 f_a popped and f_b at the head.
  // The solver's choice, constant over a trace (undriven to a simulator).
  /* verilator lint_off UNDRIVEN */
  (* anyconst *) reg [WIDTH-1:0] f_a;
  (* anyconst *) reg [WIDTH-1:0] f_b;
  /* verilator lint_on UNDRIVEN */
  reg [1:0]    f_st = 2'd0;
  reg [PW-1:0] f_pa;
  wire [PW-1:0] f_pb  = f_inc(f_pa);
  wire          f_popa = do_pop && rd_ptr_q == f_pa;
  wire          f_pushb = do_push && wdata_i == f_b;
  always @(posedge clk_i) begin
    if (clr_i) f_st <= 2'd0;
    else case (f_st)
      2'd0: if (do_push && wdata_i == f_a) begin
              f_st <= 2'd1;
              f_pa <= wr_ptr_q;
            end
      2'd1: if (f_popa && f_pushb) f_st <= 2'd3;
            else if (f_popa) f_st <= 2'd0;
            else if (f_pushb) f_st <= 2'd2;
            else if (do_push) f_st <= 2'd0;
      2'd2: if (f_popa) f_st <= 2'd3;
      default: if (do_pop) f_st <= 2'd0;
    endcase
  end
  always @(*) begin
    if (f_past_valid) begin
      if (f_st != 2'd0) assert ({{(32-PW){1'b0}}, f_pa} < DEPTH32);
      case (f_st)
        2'd1: begin
          assert (mem_q[f_pa] == f_a);
          assert (wr_ptr_q == f_pb && level_q != 6'd0);
          assert (f_dist(f_pa, rd_ptr_q) + 32'd1 <= {26'd0, level_q});
        end
        2'd2: begin
          assert (mem_q[f_pa] == f_a && mem_q[f_pb] == f_b);
          assert (f_dist(f_pa, rd_ptr_q) + 32'd2 <= {26'd0, level_q});
          if (rd_ptr_q == f_pa) assert (head_o == f_a);
        end
        2'd3: begin
          assert (rd_ptr_q == f_pb && level_q != 6'd0);
          assert (head_o == f_b);
        end
        default: ;
      endcase
    end
  end
`endif

endmodule

`default_nettype wire
