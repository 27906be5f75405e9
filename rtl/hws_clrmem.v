// hws_clrmem: a flop array that a synchronous clear empties in one cycle.
//
// Each word has a valid bit; clr_i clears the valid bits only, and a word whose valid bit
// is 0 reads as 0. So the array behaves as if every word were reset to 0, but the words
// themselves need no reset (a reset loop over an unpacked array is costly in Verilator and
// gives Yosys one write port per word). Two write ports, two asynchronous read ports
// (reads see the state before the edge). When both write ports name the same word at one
// edge, port 1 wins; the engine never does that. Reads and writes outside 0..DEPTH-1 are
// not made (the caller guarantees it for writes; reads there return 0 or junk). Each read
// port also shows the word's valid bit (written since the last clear), so that a caller
// can keep further per-word state elsewhere (in block RAM) and trust it only while valid.
// Asynchronous reads: flip-flops, not block RAM.
`default_nettype none

module hws_clrmem #(
  parameter integer DEPTH = 16,  // number of words, >= 1
  parameter integer WIDTH = 32,  // bits per word, >= 1
  parameter integer AW    = 4    // address width, >= 1, must satisfy 2**AW >= DEPTH
) (
  input  wire             clk_i,
  input  wire             clr_i,    // synchronous clear: every word reads 0 after the edge
  input  wire             we0_i,    // write port 0 (ignored while clr_i)
  input  wire [AW-1:0]    wa0_i,
  input  wire [WIDTH-1:0] wd0_i,
  input  wire             we1_i,    // write port 1 (ignored while clr_i), wins over port 0
  input  wire [AW-1:0]    wa1_i,
  input  wire [WIDTH-1:0] wd1_i,
  input  wire [AW-1:0]    ra0_i,    // read port 0: rd0_o = word ra0_i, combinational
  output wire [WIDTH-1:0] rd0_o,
  output wire             vld0_o,   // ... and its valid bit
  input  wire [AW-1:0]    ra1_i,    // read port 1
  output wire [WIDTH-1:0] rd1_o,
  output wire             vld1_o
);
`ifndef __ICARUS__
  generate
    if (DEPTH < 1 || WIDTH < 1 || AW < 1 || (1 << AW) < DEPTH) begin : g_bad_param
      $error("hws_clrmem: DEPTH=%0d WIDTH=%0d AW=%0d (need DEPTH >= 1, WIDTH >= 1, AW >= 1, 2**AW >= DEPTH)",
             DEPTH, WIDTH, AW);
    end
  endgenerate
`endif
`ifndef SYNTHESIS
  // Elaboration errors are warnings to Verilator -Wno-fatal and unknown to Icarus: stop the
  // simulation at time 0 as well.
  initial if (DEPTH < 1 || WIDTH < 1 || AW < 1 || (1 << AW) < DEPTH)
    $fatal(1, "hws_clrmem: DEPTH=%0d WIDTH=%0d AW=%0d (need DEPTH >= 1, WIDTH >= 1, AW >= 1, 2**AW >= DEPTH)",
           DEPTH, WIDTH, AW);
`endif

  reg [WIDTH-1:0] mem_q [0:DEPTH-1];   // word contents, meaningful only while valid
  reg [DEPTH-1:0] vld_q;               // word w has been written since the last clear

  always @(posedge clk_i) begin
    if (clr_i) begin
      vld_q <= {DEPTH{1'b0}};
    end else begin
      if (we0_i) vld_q[wa0_i] <= 1'b1;
      if (we1_i) vld_q[wa1_i] <= 1'b1;
    end
  end

  always @(posedge clk_i) begin
    if (we0_i) mem_q[wa0_i] <= wd0_i;
    if (we1_i) mem_q[wa1_i] <= wd1_i;
  end

  assign vld0_o = vld_q[ra0_i];
  assign vld1_o = vld_q[ra1_i];
  assign rd0_o  = vld0_o ? mem_q[ra0_i] : {WIDTH{1'b0}};
  assign rd1_o  = vld1_o ? mem_q[ra1_i] : {WIDTH{1'b0}};
endmodule

`default_nettype wire
