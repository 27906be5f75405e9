// hws_div8: eight steps of a restoring divider, combinational (docs/accelerator.md 8.2).
//
// {r_i, x_i} is the state of one division: r_i the partial remainder, x_i the dividend
// bits still to bring down (most significant first) with the quotient bits so far shifted
// in from the right. Each step subtracts the divisor from {r, the next dividend bit}; when
// that does not borrow (the borrow is the compare) the quotient bit is 1 and the
// difference is the new remainder. So five registered calls divide a 40-bit dividend and
// leave the quotient in x. Every divider of hws_balance (the lanes, avg_load, tmp1, tmp2)
// is one instance of this module.
//
// en_i says the outputs are used in this cycle. Otherwise they are don't-care (x): a
// simulator then skips the eight steps (Verilator evaluates combinational logic at every
// edge, docs/accelerator.md "Simulation speed"), and synthesis takes the x as the steps'
// value and builds no multiplexer for it (opt -mux_undef), so the netlist is the same.
`default_nettype none

module hws_div8 #(
  parameter integer DW = 17,    // divisor and remainder width (hws_balance: a group power)
  parameter integer XW = 40     // dividend bits to bring down, then the quotient: five calls
                                // (BAL_LAT_PASS) of eight steps (hws_balance's QW)
) (
  input  wire          en_i,     // the outputs are used in this cycle
  input  wire [DW-1:0] r_i,     // partial remainder (< d_i)
  input  wire [XW-1:0] x_i,     // dividend bits to bring down, then quotient bits
  input  wire [DW-1:0] d_i,     // divisor
  output reg  [DW-1:0] r_o,
  output reg  [XW-1:0] x_o
);
  reg [DW+1:0] df;
  reg          q;
  integer      k;
  always @* begin
    r_o = {DW{1'bx}};
    x_o = {XW{1'bx}};
    df  = {(DW+2){1'b0}};
    q   = 1'b0;
    if (en_i) begin
      r_o = r_i;
      x_o = x_i;
      for (k = 0; k < 8; k = k + 1) begin
        df  = {1'b0, r_o, x_o[XW-1]} - {2'b0, d_i};
        q   = !df[DW+1];
        r_o = q ? df[DW-1:0] : {r_o[DW-2:0], x_o[XW-1]};
        x_o = {x_o[XW-2:0], q};
      end
    end
  end
  // df[DW] is the top bit of a remainder below the divisor: always 0 when q is 1.
  wire unused_df = df[DW];
`ifdef FORMAL
  // One call (en_i high) as a relation: from a partial remainder below the
  // divisor, {r_i, the top 8 bits of x_i} = q * d_i + r_o with q = x_o[7:0] and r_o < d_i
  // (so q and r_o are the quotient and remainder of that (DW+8)-bit number by d_i), and the
  // rest of x_i moves up by 8. Five calls from r = the dividend's top 8 bits then leave the
  // quotient of the whole dividend in x (hws_balance). Not checked inside hws_balance's
  // proofs (HWS_F_DIV8_TRUSTED) or the engine's (HWS_F_ENGINE). Not proven: docs/formal.md,
  // "What is not proven here".
`ifndef HWS_F_DIV8_TRUSTED
`ifndef HWS_F_ENGINE
  always @(*) begin
    if (en_i && (r_i < d_i)) begin
      assert (r_o < d_i);
      assert ({r_i, x_i[XW-1 -: 8]} ==
              ({{DW{1'b0}}, x_o[7:0]} * {8'd0, d_i}) + {8'd0, r_o});
      assert (x_o[XW-1:8] == x_i[XW-9:0]);
    end
  end
`endif
`endif
`endif
endmodule

`default_nettype wire
