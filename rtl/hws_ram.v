// hws_ram: single-clock RAM with one write port and one synchronous read port.
//
// Read data appears one cycle after the address. When both ports name the same word at one
// edge (a read/write collision) the word read is undefined: the engine never uses it. In
// synthesis the memory carries no_rw_check, so Yosys maps it straight to a block RAM (the
// iCE40 SB_RAM40_4K leaves the collision undefined; without the attribute Yosys emulated
// read-before-write with a register for every written bit and address and a multiplexer
// after every read bit). In simulation a collision returns the inverse of the old word, so
// any use of it shows up as a mismatch with the model. No reset and no initial contents:
// the engine reads a word only after writing it. Infers iCE40 SB_RAM40_4K, ECP5 DP16KD,
// Xilinx RAMB18/36 block RAM.
`default_nettype none

module hws_ram #(
  parameter integer DEPTH = 256,  // number of words, >= 2
  parameter integer WIDTH = 16,   // bits per word, >= 1
  parameter integer AW    = 8     // address width, must satisfy 2**AW >= DEPTH
) (
  input  wire             clk_i,
  input  wire             we_i,     // write wdata_i to waddr_i at this edge
  input  wire [AW-1:0]    waddr_i,
  input  wire [WIDTH-1:0] wdata_i,
  input  wire [AW-1:0]    raddr_i,  // read address, its word is on rdata_o after the edge
  output wire [WIDTH-1:0] rdata_o
`ifdef FORMAL
  ,
  // formal only: every word (word i at [i*WIDTH +: WIDTH]), for the properties of the
  // module that owns the RAM's contents (hws_rq_engine's invariants)
  output wire [DEPTH*WIDTH-1:0] f_mem_o
`endif
);
`ifndef __ICARUS__
  generate
    if (DEPTH < 2 || WIDTH < 1 || (1 << AW) < DEPTH) begin : g_bad_param
      $error("hws_ram: DEPTH=%0d WIDTH=%0d AW=%0d (need DEPTH >= 2, WIDTH >= 1, 2**AW >= DEPTH)",
             DEPTH, WIDTH, AW);
    end
  endgenerate
`endif
`ifndef SYNTHESIS
  // Elaboration errors are warnings to Verilator -Wno-fatal and unknown to Icarus: stop the
  // simulation at time 0 as well.
  initial if (DEPTH < 2 || WIDTH < 1 || (1 << AW) < DEPTH)
    $fatal(1, "hws_ram: DEPTH=%0d WIDTH=%0d AW=%0d (need DEPTH >= 2, WIDTH >= 1, 2**AW >= DEPTH)",
           DEPTH, WIDTH, AW);
`endif

  (* no_rw_check *)
  reg [WIDTH-1:0] mem_q [0:DEPTH-1];
  reg [WIDTH-1:0] rdata_q;

  always @(posedge clk_i) begin
    if (we_i) mem_q[waddr_i] <= wdata_i;
`ifdef SYNTHESIS
    rdata_q <= mem_q[raddr_i];
`else
    rdata_q <= (we_i && (waddr_i == raddr_i)) ? ~mem_q[raddr_i] : mem_q[raddr_i];
`endif
  end

  assign rdata_o = rdata_q;

`ifdef FORMAL
`ifndef HWS_F_ENGINE   // (the engine's proof, formal/proofs.list eng_inv_*, takes this one as proven)
  // ---------------------------------------------------------------------------------------
  // Properties (formal/proofs.list, docs/formal.md): for any address f_addr, a read returns
  // the last word written there, one edge after the address, unless a write to the same
  // word falls on the read's edge (the collision the engine never uses).
`include "hws_formal_env.vh"

  localparam [31:0] DEPTH32 = DEPTH;
  // The solver's choice, constant over a trace (undriven to a simulator).
  /* verilator lint_off UNDRIVEN */
  (* anyconst *) reg [AW-1:0] f_addr;
  /* verilator lint_on UNDRIVEN */
  reg             f_written = 1'b0;
  reg [WIDTH-1:0] f_data;
  always @(*) assume ({{(32-AW){1'b0}}, f_addr} < DEPTH32);
  always @(posedge clk_i) begin
    if (we_i && waddr_i == f_addr) begin
      f_written <= 1'b1;
      f_data    <= wdata_i;
    end
  end
  always @(*) if (f_written) assert (mem_q[f_addr] == f_data);
`endif
  genvar f_i;
  generate
    for (f_i = 0; f_i < DEPTH; f_i = f_i + 1) begin : g_f_mem
      assign f_mem_o[f_i*WIDTH +: WIDTH] = mem_q[f_i];
    end
  endgenerate
`ifndef HWS_F_ENGINE
  always @(posedge clk_i) begin
    if (f_past_valid && $past(f_written && raddr_i == f_addr && !(we_i && waddr_i == f_addr)))
      assert (rdata_o == $past(f_data));
  end
`endif
`endif
endmodule

`default_nettype wire
