// hws_formal_env.vh - the formal environment every proof starts from. Include it inside a
// module, under `ifdef FORMAL, where clk_i is the module's clock: it declares f_past_valid
// (0 in the first cycle, then 1) and, when HWS_F_RESET is defined as the module's
// reset-active expression before the include, assumes that the first cycle is in reset
// (and undefines HWS_F_RESET, so the next module states its own).
  reg f_past_valid = 1'b0;
  always @(posedge clk_i) f_past_valid <= 1'b1;
`ifdef HWS_F_RESET
  always @(*) if (!f_past_valid) assume (`HWS_F_RESET);
`undef HWS_F_RESET
`endif
