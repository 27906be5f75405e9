// tb_ffs16: ffs16() of rtl/hws_ffs16.vh against a priority scan over all 2^16 inputs.
// Prints "tb_ffs16: PASS ..." or stops at the first difference with $fatal.
`timescale 1ns / 1ps
`default_nettype none

module tb_ffs16;
`include "hws_ffs16.vh"

  function automatic [3:0] ref_ffs(input [15:0] b);
    integer i;
    begin
      ref_ffs = 4'd0;
      for (i = 15; i >= 0; i = i - 1)
        if (b[i]) ref_ffs = i[3:0];
    end
  endfunction

  integer v, hits;
  reg [15:0] b;
  initial begin
    hits = 0;
    for (v = 0; v < 65536; v = v + 1) begin
      b = v[15:0];
      if (ffs16(b) !== ref_ffs(b))
        $fatal(1, "tb_ffs16: FAIL at 0x%04h: ffs16 %0d, reference %0d", b, ffs16(b), ref_ffs(b));
      hits = hits + 1;
    end
    $display("tb_ffs16: PASS (%0d inputs, every one)", hits);
    $finish;
  end
endmodule

`default_nettype wire
