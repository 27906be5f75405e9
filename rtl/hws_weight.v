// hws_weight: load weight of a priority (combinational ROM, 18 bits).
// Linux prio_to_weight[prio - 100] for prio 100..139, HWS_RT_WEIGHT for prio < 100, 0 for
// prio >= 140 (never used with a meaning). The table lives in hws_weight_fn.vh so that the
// simulation-only checks of hws_rq_engine compute the same value.
`default_nettype none

module hws_weight (
  input  wire [7:0]  prio_i,    // priority 0..139
  output wire [17:0] weight_o   // its load weight
);
  // The generated header defines every constant of the register map; this module uses one.
  /* verilator lint_off UNUSEDPARAM */
`include "hws_regs.vh"
  /* verilator lint_on UNUSEDPARAM */
`include "hws_weight_fn.vh"

  assign weight_o = hws_weight_fn(prio_i);
endmodule

`default_nettype wire
