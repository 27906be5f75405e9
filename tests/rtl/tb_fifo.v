// tb_fifo: rtl/hws_fifo.v alone against a reference queue, random push/pop/clear with
// phases that fill and drain it. Self-checking: level, empty, full and head after every
// edge. Parameters WIDTH, DEPTH (tests/rtl/run.sh sweeps them); +seed=N, +cycles=N.
`timescale 1ns / 1ps
`default_nettype none

module tb_fifo;
  parameter integer WIDTH = 32;
  parameter integer DEPTH = 16;

  reg              clk = 1'b0, clr = 1'b1, push = 1'b0, pop = 1'b0;
  reg  [WIDTH-1:0] wdata = {WIDTH{1'b0}};
  wire [WIDTH-1:0] head;
  wire [5:0]       level;
  wire             empty, full;

  hws_fifo #(.WIDTH(WIDTH), .DEPTH(DEPTH)) dut (
    .clk_i(clk), .clr_i(clr), .push_i(push), .wdata_i(wdata), .pop_i(pop),
    .head_o(head), .level_o(level), .empty_o(empty), .full_o(full)
  );

  reg [WIDTH-1:0] q [0:DEPTH-1];   // the reference: q[(qh + k) % DEPTH], k < qn
  integer qh, qn, seed0, seed, cycles, c, r, fulls, empties, twins;
  reg     last_push;

  task check;
    begin
      if (level !== qn[5:0] || empty !== (qn == 0) || full !== (qn == DEPTH))
        $fatal(1, "tb_fifo WIDTH=%0d DEPTH=%0d seed=%0d: FAIL at cycle %0d: level %0d empty %b full %b, reference %0d",
               WIDTH, DEPTH, seed0, c, level, empty, full, qn);
      if (qn != 0 && head !== q[qh])
        $fatal(1, "tb_fifo WIDTH=%0d DEPTH=%0d seed=%0d: FAIL at cycle %0d: head %h, reference %h",
               WIDTH, DEPTH, seed0, c, head, q[qh]);
    end
  endtask

  initial begin
    if (!$value$plusargs("seed=%d", seed)) seed = 1;
    if (!$value$plusargs("cycles=%d", cycles)) cycles = 20000;
    seed0 = seed;
    qh = 0; qn = 0; fulls = 0; empties = 0; twins = 0; last_push = 1'b0;
    #1 clk = 1'b1; #1 clk = 1'b0;   // the clear
    clr = 1'b0;
    for (c = 0; c < cycles; c = c + 1) begin
      r = $random(seed);
      // Phases of 64 cycles: push-heavy, pop-heavy, balanced; a clear now and then.
      case ((c / 64) % 3)
        0: begin push = (r & 7) != 0; pop = (r & 56) == 0; end
        1: begin push = (r & 56) == 0; pop = (r & 7) != 0; end
        default: begin push = r[0]; pop = r[1]; end
      endcase
      clr = ((r >>> 8) & 1023) == 0;
      wdata = $random(seed);
      #1 clk = 1'b1;
      // The reference, from the state before the edge.
      if (clr) begin
        qh = 0; qn = 0;
      end else begin
        if (push && qn != DEPTH) begin
          q[(qh + qn) % DEPTH] = wdata;
          if (last_push) twins = twins + 1;
        end
        if (pop && qn != 0) qh = (qh + 1) % DEPTH;
        qn = qn + ((push && qn != DEPTH) ? 1 : 0) - ((pop && level != 0) ? 1 : 0);
      end
      last_push = push && !clr;
      #1 clk = 1'b0;
      check;
      if (qn == DEPTH) fulls = fulls + 1;
      if (qn == 0) empties = empties + 1;
    end
    if (fulls == 0 || empties == 0 || twins == 0)
      $fatal(1, "tb_fifo WIDTH=%0d DEPTH=%0d seed=%0d: FAIL: weak run (full %0d, empty %0d, twin writes %0d cycles)",
             WIDTH, DEPTH, seed0, fulls, empties, twins);
    $display("tb_fifo WIDTH=%0d DEPTH=%0d seed=%0d: PASS (%0d cycles, full %0d, empty %0d, twin writes %0d)",
             WIDTH, DEPTH, seed0, cycles, fulls, empties, twins);
    $finish;
  end
endmodule

`default_nettype wire
