// hws_arbiter: the round-robin arbiter of hws_top's ports into the engine
// (docs/accelerator.md 4.5).
//
// At an edge where the engine can take a command (ready_i: idle, or its command completes
// now) and some port's head may start (eligible_i), the first eligible port in the order
// rr_q, rr_q + 1, ..., NR_PORTS - 1, 0, ... starts (start_o, win_o), and rr_q becomes the
// port after it. rr_q is 0 after a reset (srst_i: reset or soft reset). With NR_PORTS = 1
// this is the single port's pop rule, and rr_q stays 0.
//
// The bound, under `ifdef FORMAL (formal/proofs.list, arbiter_p3/_p4): a port that is
// eligible at every edge starts within NR_PORTS engine starts - at most NR_PORTS - 1 other
// ports' commands start before it - whatever the eligibility of the others and the
// engine's readiness.
`default_nettype none

module hws_arbiter #(
  parameter integer NR_PORTS = 1,                           // 1..4 (hws_top checks)
  parameter integer PW = (NR_PORTS > 1) ? $clog2(NR_PORTS) : 1  // port index width
) (
  input  wire                clk_i,
  input  wire                srst_i,
  input  wire                ready_i,     // the engine can start a command at this edge
  input  wire [NR_PORTS-1:0] eligible_i,  // each port's head may start (pop rule)
  output wire                start_o,     // a command starts at this edge
  output reg  [PW-1:0]       win_o /*verilator public_flat_rd*/,       // from this port (meaningful with start_o)
  output wire [NR_PORTS-1:0] start_vec_o  // start_o, one-hot by port
);
  reg  [PW-1:0] rr_q;
  reg  [PW:0]   cand;
  integer       i;

  assign start_o = ready_i && (|eligible_i);

  // The first eligible port from rr_q on: the loop runs backwards so the nearest wins.
  always @* begin
    win_o = rr_q;
    for (i = NR_PORTS - 1; i >= 0; i = i - 1) begin
      cand = {1'b0, rr_q} + i[PW:0];
      if (cand >= NR_PORTS[PW:0]) cand = cand - NR_PORTS[PW:0];
      if (eligible_i[cand[PW-1:0]]) win_o = cand[PW-1:0];
    end
  end

  genvar gp;
  generate
    for (gp = 0; gp < NR_PORTS; gp = gp + 1) begin : g_start
      assign start_vec_o[gp] = start_o && (win_o == gp[PW-1:0]);
    end
  endgenerate

  wire [PW:0] win_next = {1'b0, win_o} + {{PW{1'b0}}, 1'b1};
  always @(posedge clk_i) begin
    if (srst_i) rr_q <= {PW{1'b0}};
    else if (start_o) rr_q <= (win_next >= NR_PORTS[PW:0]) ? {PW{1'b0}} : win_next[PW-1:0];
  end

`ifdef FORMAL
`define HWS_F_RESET srst_i
`include "hws_formal_env.vh"
  // f_wait[p]: other ports' starts since port p became eligible, while it stayed eligible
  // and did not start. The bound: f_wait[p] <= NR_PORTS - 1. Inductive with the distance
  // from rr_q to p: every other start before p moves rr_q strictly closer to p.
  reg [3:0] f_wait [0:NR_PORTS-1];
  integer   f;
  always @(posedge clk_i) begin
    for (f = 0; f < NR_PORTS; f = f + 1) begin
      if (srst_i || !eligible_i[f] || (start_o && win_o == f[PW-1:0]))
        f_wait[f] <= 4'd0;
      else if (start_o)
        f_wait[f] <= f_wait[f] + 4'd1;
    end
  end
  localparam [31:0] F_MAX32 = NR_PORTS - 1;
  localparam [3:0]  F_MAX = F_MAX32[3:0];   // the bound on f_wait
  reg [PW:0] f_dist;
  always @(*) begin
    f_dist = {(PW+1){1'b0}};
    if (f_past_valid) begin
      assert ({1'b0, rr_q} < NR_PORTS[PW:0]);
      if (start_o) assert (eligible_i[win_o]);
      for (f = 0; f < NR_PORTS; f = f + 1) begin
        // how many ports the pointer must still pass to reach f
        f_dist = ({1'b0, f[PW-1:0]} >= {1'b0, rr_q}) ?
                 {1'b0, f[PW-1:0]} - {1'b0, rr_q} :
                 {1'b0, f[PW-1:0]} + NR_PORTS[PW:0] - {1'b0, rr_q};
        assert (f_wait[f] <= F_MAX);
        if (eligible_i[f]) assert ({{(3-PW){1'b0}}, f_dist} + f_wait[f] <= F_MAX);
      end
    end
  end
`endif
endmodule

`default_nettype wire
