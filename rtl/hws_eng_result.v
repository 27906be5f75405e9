// hws_eng_result: the engine's result word (part of hws_rq_engine).
//
// Owns: the registers a result is selected from a step ahead: CPU_STAT's and LCU_STAT's
// flop selections (cst_q, lcu_q, lcu_h_q, lcu_l_q, and hist_lt_q, their compare), whether
// CPU_STAT names a bitmap chunk (cst_bm_q). The word's source is one-hot in the control word (C_RS, registered at the
// pop), so the multiplexer is an AND-OR of five words, not a chain of choices.
//
// Timing: a command's result is on res_o in its last step (done); a command that fails
// its checks gets {ERR_FLAG, code} in step 1. CPU_STAT and LCU_STAT select the values that
// read flops in step 1 and register them (they change nothing between their two steps);
// step 2 selects a RAM word (a bitmap chunk, a group word) or a register. PICK_NEXT/PEEK
// report the head read and the latched search; TASK_STAT the task's entry, group and weight.
`default_nettype none
`include "hws_eng_ctl.vh"

module hws_eng_result #(
  parameter integer NR_CPUS   = 8,    // CPUs, 1..64
  parameter integer NR_TASKS  = 256,  // task table entries, 1..4096
  parameter integer NR_GROUPS = 16,   // task groups, 1..64
  // Derived: leave them at their defaults (the parent passes LDW and WGTW; checked there).
  parameter integer TW   = (NR_TASKS > 1) ? $clog2(NR_TASKS) : 1,   // task pointer width
  parameter integer CW   = (NR_CPUS > 1) ? $clog2(NR_CPUS) : 1,     // cpu index width
  parameter integer GW   = (NR_GROUPS > 1) ? $clog2(NR_GROUPS) : 1, // group index width
  parameter integer NRW  = $clog2(NR_TASKS + 1),                    // task count width
  parameter integer WGTW = 18,                                      // HWS_WEIGHT_W
  parameter integer LDW  = 26                                       // load width
) (
  input  wire                   clk_i,
  input  wire [`HWS_CTL_W-1:0]  ctl_i,      // the control word (hws_eng_seq)
  input  wire [7:0]             prio_i,     // the command's PRIO field (the selectors)
  input  wire                   failed_i,   // the command failed a check
  input  wire [7:0]             ecode_i,    // ... with this code
  input  wire [NRW-1:0]         nr_c0_i,    // the command CPU's counts, phys 0 and 1
  input  wire [NRW-1:0]         nr_c1_i,
  input  wire [LDW-1:0]         load_c_i,   // ... its load, history and swap flag
  input  wire [LDW-1:0]         hist_c_i,
  input  wire                   swap_c_i,
  input  wire [15:0]            chunk_i,    // CPU_STAT: the bitmap chunk (step 2)
  input  wire [NR_CPUS-1:0]     idle_i,     // every CPU's idle flag
  input  wire [LDW-1:0]         gl_lcu_i,   // LCU_STAT: gload[c][g], gtotal[g] (step 2)
  input  wire [LDW-1:0]         gt_lcu_i,
  input  wire [31:0]            qry_i,      // QUERY's answer (hws_domain)
  input  wire                   pk_none_i,  // PICK_NEXT/PEEK: both arrays empty
  input  wire                   pk_swap_i,  // ... the task came from the expired array
  input  wire [7:0]             pk_prio_i,  // ... its priority
  input  wire [TW-1:0]          ht_h_i,     // ... the head read (the task)
  input  wire [CW-1:0]          tt_cpu_i,   // TASK_STAT: the task's entry
  input  wire                   tt_phys_i,
  input  wire [7:0]             tt_prio_i,
  input  wire                   swap_o_i,   // ... swap of the task's CPU
  input  wire [GW-1:0]          grp_u_i,    // ... its group
  input  wire                   q_t_i,      // ... queued[t]
  input  wire [WGTW-1:0]        f_weight_i, // ... its weight in force
  output wire [31:0]            res_o       // the result word (pushed at done for C_RES)
);
  /* verilator lint_off UNUSEDPARAM */
`include "hws_regs.vh"
  /* verilator lint_on UNUSEDPARAM */

  wire [6:0] rs = ctl_i[`HWS_C_RS +: 7];

  // ---------------------------------------------------------------------------------------
  // CPU_STAT
  wire [NRW:0]   nr_run = {1'b0, nr_c0_i} + {1'b0, nr_c1_i};
  wire [NRW-1:0] nr_act = swap_c_i ? nr_c1_i : nr_c0_i;
  wire [NRW-1:0] nr_exp = swap_c_i ? nr_c0_i : nr_c1_i;
  // The selectors that read flops are formed in step 1 and registered (cst_q, sampled at
  // every edge, used in step 2); only a bitmap chunk, a RAM word, is selected in step 2.
  reg        cst_bm_q;
  reg [31:0] cst_pre, cst_q;
  always @* begin
    cst_pre = 32'd0;
    if (prio_i == HWS_SEL_CPU_STAT_NR_RUNNING)      cst_pre[NRW:0] = nr_run;
    else if (prio_i == HWS_SEL_CPU_STAT_NR_ACTIVE)  cst_pre[NRW-1:0] = nr_act;
    else if (prio_i == HWS_SEL_CPU_STAT_NR_EXPIRED) cst_pre[NRW-1:0] = nr_exp;
    else if (prio_i == HWS_SEL_CPU_STAT_LOAD)       cst_pre[LDW-1:0] = load_c_i;
    else if (prio_i == HWS_SEL_CPU_STAT_SWAP)       cst_pre[0] = swap_c_i;
  end
  always @(posedge clk_i) begin
    cst_q    <= cst_pre;
    cst_bm_q <= (prio_i >= HWS_SEL_CPU_STAT_ACT_BM0);
  end
  wire [31:0] cst_word = cst_bm_q ? {16'd0, chunk_i} : cst_q;

  // ---------------------------------------------------------------------------------------
  // PICK_NEXT/PEEK
  wire [31:0] h32   = {{(32-TW){1'b0}}, ht_h_i};
  wire [11:0] h_ext = h32[11:0];
  wire [31:0] pick_word = pk_none_i ? HWS_NONE_FLAG :
                          (({31'd0, pk_swap_i} << HWS_RES_SWAP_LSB) |
                           ({20'd0, h_ext} << HWS_RES_TASK_LSB) |
                           ({24'd0, pk_prio_i} << HWS_RES_PRIO_LSB));

  // ---------------------------------------------------------------------------------------
  // TASK_STAT
  wire [31:0] tinfo_word = ({31'd0, 1'b1} << HWS_TINFO_QUEUED_LSB) |
                           ({31'd0, tt_phys_i ^ swap_o_i} << HWS_TINFO_ARRAY_LSB) |
                           ({{(32-CW){1'b0}}, tt_cpu_i} << HWS_TINFO_CPU_LSB) |
                           ({24'd0, tt_prio_i} << HWS_TINFO_PRIO_LSB);
  wire [31:0] grp32    = {{(32-GW){1'b0}}, grp_u_i};   // u = t for TASK_STAT
  wire [31:0] tst_word = rs[5] ? grp32 :
                         !q_t_i ? 32'd0 :
                         rs[6] ? tinfo_word : {{(32-WGTW){1'b0}}, f_weight_i};

  // ---------------------------------------------------------------------------------------
  // LCU_STAT. As for CPU_STAT, the values that read flops (history, load, idle flags) are
  // selected in step 1 and registered, and so is the compare of the history with the load
  // for SOURCE/TARGET (hist_lt_q, registered from the same values at the same edges, so
  // always lcu_h_q < lcu_l_q); step 2 selects, or takes a group word (block RAM). (The
  // compare after the registers put a carry chain before the result multiplexer and the
  // result FIFO's write data, the engine's worst path at HX8K placement seed 1.)
  reg [63:0] idle64;
  always @* begin
    idle64 = 64'd0;
    idle64[NR_CPUS-1:0] = idle_i;
  end
  reg [LDW-1:0] lcu_h_q, lcu_l_q;
  reg           hist_lt_q;
  reg [31:0]    lcu_pre, lcu_q;
  always @* begin
    lcu_pre = 32'd0;
    // IDLE0 + k, k = 0..3 (selectors 5..8): CPUs 16k+15..16k. 16-bit chunks keep bit 31,
    // the error flag of a result word, clear.
    case (prio_i[1:0])
      2'b01:   lcu_pre[15:0] = idle64[15:0];
      2'b10:   lcu_pre[15:0] = idle64[31:16];
      2'b11:   lcu_pre[15:0] = idle64[47:32];
      default: lcu_pre[15:0] = idle64[63:48];
    endcase
  end
  always @(posedge clk_i) begin
    lcu_q   <= lcu_pre;
    lcu_h_q <= hist_c_i;
    lcu_l_q <= load_c_i;
    hist_lt_q <= (hist_c_i < load_c_i);
  end
  wire hist_lt = hist_lt_q;
  reg [31:0] lcu_word;
  always @* begin
    lcu_word = lcu_q;
    if (prio_i == HWS_SEL_LCU_STAT_GROUP_LOAD)       lcu_word = {{(32-LDW){1'b0}}, gl_lcu_i};
    else if (prio_i == HWS_SEL_LCU_STAT_GROUP_TOTAL) lcu_word = {{(32-LDW){1'b0}}, gt_lcu_i};
    else if (prio_i == HWS_SEL_LCU_STAT_HIST)        lcu_word = {{(32-LDW){1'b0}}, lcu_h_q};
    else if (prio_i == HWS_SEL_LCU_STAT_SOURCE_LOAD)
      lcu_word = {{(32-LDW){1'b0}}, hist_lt ? lcu_h_q : lcu_l_q};
    else if (prio_i == HWS_SEL_LCU_STAT_TARGET_LOAD)
      lcu_word = {{(32-LDW){1'b0}}, hist_lt ? lcu_l_q : lcu_h_q};
  end

  // ---------------------------------------------------------------------------------------
  wire [31:0] res_ok = ({32{rs[0]}} & pick_word) | ({32{rs[1]}} & cst_word) |
                       ({32{rs[2]}} & lcu_word)  | ({32{rs[3]}} & qry_i) |
                       ({32{rs[4]}} & tst_word);
  assign res_o = failed_i ? (HWS_ERR_FLAG | {24'd0, ecode_i}) : res_ok;

  // Bits that some configurations do not need, and the fields this module does not read.
  wire unused_bits = &{1'b0, h32, ctl_i};
endmodule

`default_nettype wire
