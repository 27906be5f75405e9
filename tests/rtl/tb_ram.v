// tb_ram: rtl/hws_ram.v alone against a reference array: random writes and reads, read
// data checked one edge after its address; a read/write collision returns the inverse of
// the old word (the simulation's marker, rtl/hws_ram.v). Parameters DEPTH, WIDTH, AW;
// +seed=N, +cycles=N.
`timescale 1ns / 1ps
`default_nettype none

module tb_ram;
  parameter integer DEPTH = 256;
  parameter integer WIDTH = 16;
  parameter integer AW    = 8;

  reg              clk = 1'b0, we = 1'b0;
  reg  [AW-1:0]    waddr = {AW{1'b0}}, raddr = {AW{1'b0}};
  reg  [WIDTH-1:0] wdata = {WIDTH{1'b0}};
  wire [WIDTH-1:0] rdata;

  hws_ram #(.DEPTH(DEPTH), .WIDTH(WIDTH), .AW(AW)) dut (
    .clk_i(clk), .we_i(we), .waddr_i(waddr), .wdata_i(wdata), .raddr_i(raddr), .rdata_o(rdata)
  );

  reg [WIDTH-1:0] m [0:DEPTH-1];
  reg             v [0:DEPTH-1];   // written at least once
  reg [WIDTH-1:0] expect_d;
  reg             expect_v;
  integer seed0, seed, cycles, c, i, checked, collisions;

  initial begin
    if (!$value$plusargs("seed=%d", seed)) seed = 1;
    if (!$value$plusargs("cycles=%d", cycles)) cycles = 20000;
    seed0 = seed;
    for (i = 0; i < DEPTH; i = i + 1) v[i] = 1'b0;
    checked = 0; collisions = 0;
    for (c = 0; c < cycles; c = c + 1) begin
      we = ($random(seed) & 3) != 0;
      waddr = $unsigned($random(seed)) % DEPTH;
      // Reads mostly of a recent write's neighbourhood, sometimes the word being written.
      raddr = (($random(seed) & 7) == 0) ? waddr : $unsigned($random(seed)) % DEPTH;
      wdata = $random(seed);
      expect_v = v[raddr];
      expect_d = (we && waddr == raddr) ? ~m[raddr] : m[raddr];
      #1 clk = 1'b1;
      if (we) begin
        m[waddr] = wdata;
        v[waddr] = 1'b1;
      end
      #1 clk = 1'b0;
      if (expect_v) begin
        checked = checked + 1;
        if (we && waddr == raddr) collisions = collisions + 1;
        if (rdata !== expect_d)
          $fatal(1, "tb_ram DEPTH=%0d WIDTH=%0d seed=%0d: FAIL at cycle %0d: read [%0d] %h, reference %h",
                 DEPTH, WIDTH, seed0, c, raddr, rdata, expect_d);
      end
    end
    if (checked < cycles / 2 || collisions == 0)
      $fatal(1, "tb_ram DEPTH=%0d WIDTH=%0d seed=%0d: FAIL: weak run (%0d reads checked, %0d collisions)",
             DEPTH, WIDTH, seed0, checked, collisions);
    $display("tb_ram DEPTH=%0d WIDTH=%0d AW=%0d seed=%0d: PASS (%0d reads checked, %0d collisions)",
             DEPTH, WIDTH, AW, seed0, checked, collisions);
    $finish;
  end
endmodule

`default_nettype wire
