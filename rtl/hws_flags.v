// hws_flags: N one-bit flags in flip-flops, all cleared by a synchronous reset, at most one
// written per edge (the engine's queued[t] and the valid bits of the block-RAM words).
//
// Built for iCE40 logic cells: the write enable is the shared we_i, and the next value of
// flag i is q[i] ^ (row[hi(i)] & col[lo(i)] & (q[i] ^ d)), a four-input function of the
// flag, the data bit and two predecoded halves of the address (row and column one-hots),
// one LUT that packs with its flip-flop. Behaviour is that of `q[waddr] <= d`. Measured on
// 8x256 without BALANCE (synth/synth_one.sh; the revision is in docs/CHANGELOG.md), the
// three ways to write it:
//   `if (we) q[waddr] <= d`                         7,026 LUT4, 8,398 logic cells
//   `if (we) for i: if (row & col) q[i] <= d`       6,760 LUT4, 8,770 logic cells (each
//        flag gets its own enable, whose LUT cannot share a cell with the flip-flop)
//   this XOR form                                   6,705 LUT4, 8,058 logic cells
// The XOR keeps Yosys from reading the update as a multiplexer with feedback, i.e. from
// making the per-flag enable of the second form.
`default_nettype none

module hws_flags #(
  parameter integer N  = 256,  // flags, >= 1
  parameter integer AW = 8     // address width, 2**AW >= N
) (
  input  wire          clk_i,
  input  wire          srst_i,   // synchronous reset: every flag 0
  input  wire          we_i,     // write wdata_i to flag waddr_i at this edge
  input  wire [AW-1:0] waddr_i,  // < N when we_i
  input  wire          wdata_i,
  output wire [N-1:0]  q_o
);
`ifndef __ICARUS__
  generate
    if (N < 1 || AW < 1 || AW > 16 || (1 << AW) < N) begin : g_bad_param
      $error("hws_flags: N=%0d AW=%0d (need N >= 1, 1 <= AW <= 16, 2**AW >= N)", N, AW);
    end
  endgenerate
`endif

  localparam integer AW2 = (AW < 2) ? 2 : AW;   // at least one row and one column bit
  localparam integer LA  = AW2 / 2;             // column (low) address bits
  localparam integer HA  = AW2 - LA;            // row (high) address bits
  localparam integer NC  = 1 << LA;
  localparam integer NR  = 1 << HA;

  wire [31:0]   a32  = {{(32 - AW){1'b0}}, waddr_i};
  wire [LA-1:0] a_lo = a32[LA-1:0];
  wire [HA-1:0] a_hi = a32[AW2-1:LA];
  wire [NC-1:0] col  = {{(NC - 1){1'b0}}, 1'b1} << a_lo;
  wire [NR-1:0] row  = {{(NR - 1){1'b0}}, 1'b1} << a_hi;

  // Two texts of one rule. Synthesis (and formal, and Icarus) read the XOR form flag by
  // flag, whose packing the header measured; Verilator reads the same update with the
  // written flag's one-hot built row by row (sel_fn): a few word operations at a write,
  // where the loop over the N flags cost about 7,700 instructions (docs/accelerator.md,
  // "Simulation speed"). The properties below prove the two equal.
  reg [N-1:0] q;
`ifndef VERILATOR
  integer i;
  always @(posedge clk_i) begin
    if (srst_i) q <= {N{1'b0}};
    else if (we_i)
      for (i = 0; i < N; i = i + 1)
        q[i] <= q[i] ^ (row[i / NC] & col[i % NC] & (q[i] ^ wdata_i));
  end
`else
  always @(posedge clk_i) begin
    if (srst_i) q <= {N{1'b0}};
    else if (we_i)
      q <= q ^ (sel_fn(row, col) & (q ^ {N{wdata_i}}));
  end
`endif
`ifdef VERILATOR
`define HWS_FLAGS_SEL_FN
`elsif FORMAL
`define HWS_FLAGS_SEL_FN
`endif
`ifdef HWS_FLAGS_SEL_FN
  // The written flag's one-hot, row r's NC columns at [r*NC +: NC]: bit i is
  // row[i / NC] & col[i % NC].
  function automatic [N-1:0] sel_fn(input [NR-1:0] rw, input [NC-1:0] cl);
    /* verilator lint_off UNUSEDSIGNAL */
    reg [NR*NC-1:0] all;   // the rows past flag N - 1 are dropped
    /* verilator lint_on UNUSEDSIGNAL */
    integer         r;
    begin
      for (r = 0; r < NR; r = r + 1)
        all[r*NC +: NC] = {NC{rw[r]}} & cl;
      sel_fn = all[N-1:0];
    end
  endfunction
`undef HWS_FLAGS_SEL_FN
`endif
  assign q_o = q;

  wire unused_a = &{1'b0, a32};

`ifdef FORMAL
`ifndef HWS_F_ENGINE   // (the engine's proof, formal/proofs.list eng_inv_*, takes this one as proven)
  // ---------------------------------------------------------------------------------------
  // Properties (formal/proofs.list, docs/formal.md): any flag f_i behaves as `q[waddr] <= d`
  // says: cleared by the reset, set to wdata_i by a write to it, unchanged by writes to
  // others. The first cycle is in reset.
`define HWS_F_RESET srst_i
`include "hws_formal_env.vh"

  // The solver's choice, constant over a trace (undriven to a simulator).
  /* verilator lint_off UNDRIVEN */
  (* anyconst *) reg [AW-1:0] f_i;
  /* verilator lint_on UNDRIVEN */
  reg f_v;
  always @(*) assume ({{(32-AW){1'b0}}, f_i} < N);
  always @(posedge clk_i) begin
    if (srst_i) f_v <= 1'b0;
    else if (we_i && waddr_i == f_i) f_v <= wdata_i;
  end
  always @(*) if (f_past_valid) assert (q_o[f_i] == f_v);
  // The update as Verilator reads it (sel_fn) gives the flags synthesis's text gives.
  reg [N-1:0] f_q;
  always @(posedge clk_i) begin
    if (srst_i) f_q <= {N{1'b0}};
    else if (we_i) f_q <= f_q ^ (sel_fn(row, col) & (f_q ^ {N{wdata_i}}));
  end
  always @(*) if (f_past_valid) assert (f_q == q);
`endif
`endif
endmodule

`default_nettype wire
