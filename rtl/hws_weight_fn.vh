// hws_weight_fn.vh: load weight of a priority, shared by hws_weight (the datapath) and the
// simulation-only checks of hws_rq_engine. Include inside a module body.
//
// prio 0..99 (real-time): HWS_RT_WEIGHT = 177522, twice the nice -20 weight, as Linux
// 2.6.24+ set_load_weight(); prio 100..139 (nice -20..19): Linux prio_to_weight[prio - 100];
// prio >= 140 never reaches the datapath with a meaning and weighs 0.
function automatic [17:0] hws_weight_fn;
  input [7:0] prio;
  begin
    case (prio)
      8'd100: hws_weight_fn = 18'd88761;
      8'd101: hws_weight_fn = 18'd71755;
      8'd102: hws_weight_fn = 18'd56483;
      8'd103: hws_weight_fn = 18'd46273;
      8'd104: hws_weight_fn = 18'd36291;
      8'd105: hws_weight_fn = 18'd29154;
      8'd106: hws_weight_fn = 18'd23254;
      8'd107: hws_weight_fn = 18'd18705;
      8'd108: hws_weight_fn = 18'd14949;
      8'd109: hws_weight_fn = 18'd11916;
      8'd110: hws_weight_fn = 18'd9548;
      8'd111: hws_weight_fn = 18'd7620;
      8'd112: hws_weight_fn = 18'd6100;
      8'd113: hws_weight_fn = 18'd4904;
      8'd114: hws_weight_fn = 18'd3906;
      8'd115: hws_weight_fn = 18'd3121;
      8'd116: hws_weight_fn = 18'd2501;
      8'd117: hws_weight_fn = 18'd1991;
      8'd118: hws_weight_fn = 18'd1586;
      8'd119: hws_weight_fn = 18'd1277;
      8'd120: hws_weight_fn = 18'd1024;
      8'd121: hws_weight_fn = 18'd820;
      8'd122: hws_weight_fn = 18'd655;
      8'd123: hws_weight_fn = 18'd526;
      8'd124: hws_weight_fn = 18'd423;
      8'd125: hws_weight_fn = 18'd335;
      8'd126: hws_weight_fn = 18'd272;
      8'd127: hws_weight_fn = 18'd215;
      8'd128: hws_weight_fn = 18'd172;
      8'd129: hws_weight_fn = 18'd137;
      8'd130: hws_weight_fn = 18'd110;
      8'd131: hws_weight_fn = 18'd87;
      8'd132: hws_weight_fn = 18'd70;
      8'd133: hws_weight_fn = 18'd56;
      8'd134: hws_weight_fn = 18'd45;
      8'd135: hws_weight_fn = 18'd36;
      8'd136: hws_weight_fn = 18'd29;
      8'd137: hws_weight_fn = 18'd23;
      8'd138: hws_weight_fn = 18'd18;
      8'd139: hws_weight_fn = 18'd15;
      default: hws_weight_fn = (prio < 8'd100) ? HWS_RT_WEIGHT[17:0] : 18'd0;
    endcase
  end
endfunction
