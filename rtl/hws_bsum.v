// hws_bsum: per-block load sums of one partition Pk of the domain table (docs/accelerator.md
// 8.2, "Group sums"), kept exact incrementally so that BALANCE reads every group's sum at
// once instead of adding the group's CPUs.
//
// For every CPU index L, three sums over the CPUs x with lead[x] == L (lead = this
// partition's table, lead_i):
//   sn: load now,  ss: source load min(hist, load),  st: target load max(hist, load).
// (Only entries L that lead a block are ever read; the others hold the sums of the CPUs
// that name L, which is 0 in a consistent table.)
//
// Two kinds of update, never at the same edge (the engine executes one command at a time):
//   upd_i: CPU upd_cpu_i's load or history changes at this edge; d_* are the changes of its
//          three values (modulo 2^SW), added to the sums of its block lead[upd_cpu_i].
//   mv_i:  DOM_SET writes lead[mv_cpu_i] = mv_v_i at this edge (this partition): the CPU's
//          values v_* leave the sums of its old leader and join those of the new one.
// Reset (srst_i) clears every sum, as it clears every load and history.
`default_nettype none

module hws_bsum #(
  parameter integer NR_CPUS = 8,   // CPUs, 1..64
  parameter integer LOAD_W  = 26,  // width of a per-CPU load or history
  // derived; not to be overridden
  parameter integer CW      = (NR_CPUS > 1) ? $clog2(NR_CPUS) : 1,
  parameter integer SW      = LOAD_W + CW
) (
  input  wire                  clk_i,
  input  wire                  srst_i,
  input  wire [NR_CPUS*CW-1:0] lead_i,     // the partition, lead of CPU x at [x*CW +: CW]
  input  wire                  upd_i,
  input  wire [CW-1:0]         upd_cpu_i,
  input  wire [SW-1:0]         d_now_i,
  input  wire [SW-1:0]         d_s_i,
  input  wire [SW-1:0]         d_t_i,
  input  wire                  mv_i,
  input  wire [CW-1:0]         mv_cpu_i,
  input  wire [CW-1:0]         mv_v_i,
  input  wire [SW-1:0]         v_now_i,
  input  wire [SW-1:0]         v_s_i,
  input  wire [SW-1:0]         v_t_i,
  output wire [NR_CPUS*SW-1:0] sn_o,       // sum of block L at [L*SW +: SW]
  output wire [NR_CPUS*SW-1:0] ss_o,
  output wire [NR_CPUS*SW-1:0] st_o
);
`include "hws_params.vh"
`ifndef __ICARUS__
  generate
    if (`HWS_PARAM_BAD_NR_CPUS || CW != ((NR_CPUS > 1) ? $clog2(NR_CPUS) : 1) ||
        SW != LOAD_W + CW) begin : g_bad_param
      $error("hws_bsum: NR_CPUS=%0d CW=%0d SW=%0d", NR_CPUS, CW, SW);
    end
  endgenerate
`endif

  reg [NR_CPUS*SW-1:0] sn_q, ss_q, st_q;

  // The updated CPU's block a, the moved CPU's old block o (plain muxes: a variable
  // part-select of a flat vector becomes a barrel shifter in Yosys).
  reg [CW-1:0] a, o;
  integer      x;
  always @* begin
    a = {CW{1'b0}};
    o = {CW{1'b0}};
    for (x = 0; x < NR_CPUS; x = x + 1) begin
      if (upd_cpu_i == x[CW-1:0]) a = lead_i[x*CW +: CW];
      if (mv_cpu_i == x[CW-1:0])  o = lead_i[x*CW +: CW];
    end
  end
  wire mv = mv_i && (o != mv_v_i);

  // One adder per word and kind, fed by two gated buses: bus 1 carries the update's change
  // (upd_i) or the moved values negated (to the old block), bus 2 the moved values (to the
  // new block). At most one bus is enabled per word.
  wire [SW-1:0] b1n = upd_i ? d_now_i : -v_now_i;
  wire [SW-1:0] b1s = upd_i ? d_s_i : -v_s_i;
  wire [SW-1:0] b1t = upd_i ? d_t_i : -v_t_i;
  wire [CW-1:0] h1  = upd_i ? a : o;
  integer w;
  always @(posedge clk_i) begin
    if (srst_i) begin
      sn_q <= {NR_CPUS*SW{1'b0}};
      ss_q <= {NR_CPUS*SW{1'b0}};
      st_q <= {NR_CPUS*SW{1'b0}};
    end else if (upd_i || mv) begin
      for (w = 0; w < NR_CPUS; w = w + 1) begin
        if ((h1 == w[CW-1:0]) || (!upd_i && (mv_v_i == w[CW-1:0]))) begin
          sn_q[w*SW +: SW] <= sn_q[w*SW +: SW] +
                              (((h1 == w[CW-1:0]) ? b1n : {SW{1'b0}}) |
                               ((!upd_i && (mv_v_i == w[CW-1:0])) ? v_now_i : {SW{1'b0}}));
          ss_q[w*SW +: SW] <= ss_q[w*SW +: SW] +
                              (((h1 == w[CW-1:0]) ? b1s : {SW{1'b0}}) |
                               ((!upd_i && (mv_v_i == w[CW-1:0])) ? v_s_i : {SW{1'b0}}));
          st_q[w*SW +: SW] <= st_q[w*SW +: SW] +
                              (((h1 == w[CW-1:0]) ? b1t : {SW{1'b0}}) |
                               ((!upd_i && (mv_v_i == w[CW-1:0])) ? v_t_i : {SW{1'b0}}));
        end
      end
    end
  end

  assign sn_o = sn_q;
  assign ss_o = ss_q;
  assign st_o = st_q;
endmodule

`default_nettype wire
