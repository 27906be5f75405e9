// tb_flags: rtl/hws_flags.v alone against a reference vector: random single-flag writes
// and occasional resets, every flag compared after every edge. Parameters N, AW;
// +seed=N, +cycles=N.
`timescale 1ns / 1ps
`default_nettype none

module tb_flags;
  parameter integer N  = 256;
  parameter integer AW = 8;

  reg           clk = 1'b0, srst = 1'b1, we = 1'b0, wdata = 1'b0;
  reg  [AW-1:0] waddr = {AW{1'b0}};
  wire [N-1:0]  q;

  hws_flags #(.N(N), .AW(AW)) dut (
    .clk_i(clk), .srst_i(srst), .we_i(we), .waddr_i(waddr), .wdata_i(wdata), .q_o(q)
  );

  reg [N-1:0] ref_q;
  integer seed0, seed, cycles, c, sets, clears;

  initial begin
    if (!$value$plusargs("seed=%d", seed)) seed = 1;
    if (!$value$plusargs("cycles=%d", cycles)) cycles = 20000;
    seed0 = seed;
    ref_q = {N{1'b0}};
    sets = 0; clears = 0;
    #1 clk = 1'b1; #1 clk = 1'b0;
    if (q !== ref_q) $fatal(1, "tb_flags N=%0d seed=%0d: FAIL: not clear after reset", N, seed0);
    for (c = 0; c < cycles; c = c + 1) begin
      srst = ($random(seed) & 2047) == 0;
      we = ($random(seed) & 3) != 0;
      waddr = $unsigned($random(seed)) % N;
      wdata = ($random(seed) & 3) != 0;   // mostly sets, so that many flags are up
      #1 clk = 1'b1;
      if (srst) ref_q = {N{1'b0}};
      else if (we) begin
        if (wdata && !ref_q[waddr]) sets = sets + 1;
        if (!wdata && ref_q[waddr]) clears = clears + 1;
        ref_q[waddr] = wdata;
      end
      #1 clk = 1'b0;
      if (q !== ref_q)
        $fatal(1, "tb_flags N=%0d AW=%0d seed=%0d: FAIL at cycle %0d: q %h, reference %h",
               N, AW, seed0, c, q, ref_q);
    end
    if (sets == 0 || clears == 0)
      $fatal(1, "tb_flags N=%0d seed=%0d: FAIL: weak run (%0d sets, %0d clears)", N, seed0, sets, clears);
    $display("tb_flags N=%0d AW=%0d seed=%0d: PASS (%0d cycles, %0d sets, %0d clears)",
             N, AW, seed0, cycles, sets, clears);
    $finish;
  end
endmodule

`default_nettype wire
