// hws_flags: N one-bit flags in flip-flops, all cleared by a synchronous reset, at most one
// written per edge (the engine's queued[t] and the valid bits of the block-RAM words).
//
// Built for iCE40 logic cells. Written as `if (we) q[waddr] <= d`, every flag gets its own
// clock enable, the decode of its address: a LUT that feeds only an enable pin cannot share
// a logic cell with the flip-flop, so each flag took two cells. Here the enable is the
// shared we_i and the next value of flag i is q[i] ^ (row[hi(i)] & col[lo(i)] & (q[i] ^ d)):
// a four-input function of the flag, the data bit and two predecoded halves of the address
// (row and column one-hots), one LUT that packs with its flip-flop. The XOR form keeps
// Yosys from reading the update as a multiplexer with feedback (a second, per-flag enable).
// Behaviour is that of the plain form: flag waddr_i takes wdata_i when we_i, the others
// keep their value.
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

  reg [N-1:0] q;
  integer     i;
  always @(posedge clk_i) begin
    if (srst_i) q <= {N{1'b0}};
    else if (we_i)
      for (i = 0; i < N; i = i + 1)
        q[i] <= q[i] ^ (row[i / NC] & col[i % NC] & (q[i] ^ wdata_i));
  end
  assign q_o = q;

  wire unused_a = &{1'b0, a32};
endmodule

`default_nettype wire
