// hws_ffs140: one-cycle find-first-set over a 140-bit priority bitmap.
//
// A binary tree in heap order: leaf 256 + i holds bit i (bits 140..255 are constant 0),
// inner node k (1..255) is valid when either child is and carries the index of its left
// child when that one is valid, else of its right one. Node 1 is the answer: the lowest
// set bit, i.e. the highest priority that has a task. Written as a tree on purpose: a
// 140-iteration loop stays a run-time loop in Verilator and is ten times slower.
`default_nettype none

module hws_ffs140 (
  input  wire [139:0] bits_i,   // bitmap, bit p = list p is non-empty
  output wire         valid_o,  // some bit is set
  output wire [7:0]   idx_o     // lowest set bit (0 when none)
);
  localparam integer LEAVES = 256;  // 140 rounded up to a power of two

  /*verilator tracing_off*/
  // Heap-ordered tree; split so that Verilator orders each node on its own (UNOPTFLAT).
  wire [2*LEAVES-1:1]   vld /*verilator split_var*/;
  wire [2*LEAVES*8-1:8] idx /*verilator split_var*/;

  genvar gi;
  generate
    for (gi = 0; gi < LEAVES; gi = gi + 1) begin : g_leaf
      localparam [7:0] LEAF_IDX = gi[7:0];
      if (gi < 140) begin : g_bit
        assign vld[LEAVES + gi] = bits_i[gi];
      end else begin : g_pad
        assign vld[LEAVES + gi] = 1'b0;
      end
      assign idx[(LEAVES + gi)*8 +: 8] = LEAF_IDX;
    end
    for (gi = 1; gi < LEAVES; gi = gi + 1) begin : g_node
      assign vld[gi] = vld[2*gi] | vld[2*gi + 1];
      assign idx[gi*8 +: 8] = vld[2*gi] ? idx[2*gi*8 +: 8] : idx[(2*gi + 1)*8 +: 8];
    end
  endgenerate
  /*verilator tracing_on*/

  assign valid_o = vld[1];
  assign idx_o   = vld[1] ? idx[8 +: 8] : 8'd0;
endmodule

`default_nettype wire
