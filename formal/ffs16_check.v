// ffs16_check: ffs16() of rtl/hws_ffs16.vh against a priority scan, for a free 16-bit
// input. Combinational: one step of bounded model checking covers all 2^16 inputs.
`default_nettype none

module ffs16_check (
  input wire [15:0] b_i
);
`include "hws_ffs16.vh"

  // The reference: the lowest index whose bit is set, scanning from bit 15 down so that
  // the last assignment wins; 0 when none is.
  function automatic [3:0] ref_ffs(input [15:0] b);
    integer i;
    begin
      ref_ffs = 4'd0;
      for (i = 15; i >= 0; i = i - 1)
        if (b[i]) ref_ffs = i[3:0];
    end
  endfunction

`ifdef FORMAL
  always @(*) assert (ffs16(b_i) == ref_ffs(b_i));
`endif
  wire unused = &{1'b0, b_i};
endmodule

`default_nettype wire
