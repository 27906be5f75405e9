// hws_rq_engine: the run queues of hwsched and the sequencer that executes one command.
//
// The engine is five modules and the glue between them (docs/accelerator.md section 2):
//   hws_eng_seq     the sequencer: busy, step, the command, the control word ctl_q =
//                   ctrl_fn(cmd, step) registered a step ahead (its step table is the
//                   engine's step schedule, as code), the checks and the error code
//   hws_eng_lists   the task table tt, next, prev, the lists' {head, tail} (ht), queued
//   hws_eng_bitmap  the 140-bit bitmap of each array (block RAM) with its summary flops,
//                   the two-level find-first-set of PICK_NEXT/PEEK, CPU_STAT's chunk
//   hws_eng_loads   counts, loads, swap, hist, idle; the load weights (wt) and the group
//                   loads (grp, gload, gtotal) with their update unit
//   hws_eng_result  the result word
//   hws_domain      the domain table and the placement queries (with hws_balance)
// This module owns the focus list f = (f_cpu, f_phys, f_prio): the list the current step
// reads or updates, chosen by the control word's S_F* fields (registered a step ahead, so
// no opcode decode sits on the link and unlink paths):
//   step 1:   the command's CPU; ENQUEUE its list, PICK_NEXT/PEEK the summary FFS result
//             (word k: only the word is known)
//   step 2-3: ENQUEUE its list, PICK/PEEK the latched prio (step 3; step 2 reads its list
//             at pk_ht, not through f), the others their task's list (tt[t])
//   step 4-5: PICK_NEXT's latched prio (step 4), a move's new list (bnew_q: its array and
//             prio[7:4], formed a step before from the entry and the command)
// Every flop update names one list at a time, the focus list.
//
// A command is latched at its pop edge (start_i) and runs steps 1..L; "step k" is the
// cycle after the (k-1)-th edge following the pop, and the command completes at the edge
// ending step L (done_o). Checks are decided in step 1; a failing command completes there
// with nothing changed. The step schedule, what each command does in each step, has one
// home: the table above step_fn in rtl/hws_eng_seq.v (and step_fn, the table as code).
`default_nettype none
`include "hws_eng_ctl.vh"

module hws_rq_engine #(
  parameter integer NR_CPUS   = 8,    // CPUs, 1..64
  parameter integer NR_TASKS  = 256,  // entries of the task table, 1..4096
  parameter integer NR_GROUPS = 16,   // task groups whose per-CPU loads are kept, 1..64
  parameter integer LCU_BALANCE = 1,  // 0: no BALANCE unit, QUERY kind 2 fails with OPCODE
  parameter integer BAL_LANES = 0,    // BALANCE's lanes, 1..NR_CPUS (0: NR_CPUS)
  parameter integer PIPE      = 0,    // 1: overlapped issue (docs/accelerator.md 4.1.1): a
                                      // newcomer's step 1 beside the older's last step
  parameter integer LCU_LEAN  = 0     // 1: BALANCE is the area-lean serial unit (8.2.1)
`ifdef FORMAL
  ,
  // formal only (docs/formal.md): the list priorities the proof's commands use, the lowest
  // F_NPL and the highest F_NPH of HWS_NR_PRIO (ENQUEUE and SET_PRIO name one of them, or
  // an invalid one); the default, every priority, leaves the proof unrestricted
  parameter integer F_NPL = 140,
  parameter integer F_NPH = 0
`endif
) (
  input  wire        clk_i,
  input  wire        srst_i,      // synchronous reset (rst_ni or CTRL.SOFT_RESET): empties
                                  // every queue and abandons the executing command
  input  wire        start_i,     // pop: latch cmd_i and start it at this edge (the caller
                                  // guarantees free_o, or ovl_ok_o and the result room)
  input  wire [31:0] cmd_i,       // command word at the head of the command FIFO
  output wire        busy_o,      // a command is executing (one or two in flight)
  output wire        free_o,      // every command in flight completes at the coming edge
  output wire        ovl_ok_o,    // PIPE = 1: cmd_i may pop beside the older (4.1.1 (a)-(d))
  output wire        two_o,       // PIPE = 1: two commands in flight
  output wire        done_o,      // a command completes at the coming edge (the older)
  output wire        res_push_o,  // ... and pushes res_data_o into the result FIFO
  output wire [31:0] res_data_o,
  output wire        err_o,       // ... and failed with err_code_o
  output wire [7:0]  err_code_o,
  output wire [31:0] cmd_o,       // the executing command word (for ERR_CMD)
  output wire [127:0] bal_regs_o, // {BAL_IMB, BAL_AVG, BAL_MAX, BAL_THIS}
  output wire [15:0] lnk_o        // the coming edge links a task: {1, the list's logical
                                  // array is active, cpu, prio} (hws_irq), else 0
);
  // The generated header defines every constant of the register map; this module uses some.
  /* verilator lint_off UNUSEDPARAM */
`include "hws_regs.vh"
  /* verilator lint_on UNUSEDPARAM */
`ifndef SYNTHESIS
`include "hws_weight_fn.vh"
`endif

`include "hws_params.vh"
`ifndef __ICARUS__
  generate
    if (`HWS_PARAM_BAD_NR_CPUS || `HWS_PARAM_BAD_NR_TASKS || `HWS_PARAM_BAD_NR_GROUPS) begin : g_bad_param
      $error("hws_rq_engine: NR_CPUS=%0d NR_TASKS=%0d NR_GROUPS=%0d (need 1..64, 1..4096, 1..64)",
             NR_CPUS, NR_TASKS, NR_GROUPS);
    end
  endgenerate
`endif
`ifndef SYNTHESIS
  // Elaboration errors are warnings to Verilator -Wno-fatal and unknown to Icarus: stop the
  // simulation at time 0 as well.
  initial if (`HWS_PARAM_BAD_NR_CPUS || `HWS_PARAM_BAD_NR_TASKS || `HWS_PARAM_BAD_NR_GROUPS)
    $fatal(1, "hws_rq_engine: NR_CPUS=%0d NR_TASKS=%0d NR_GROUPS=%0d (need 1..64, 1..4096, 1..64)",
           NR_CPUS, NR_TASKS, NR_GROUPS);
`endif

  // ---------------------------------------------------------------------------------------
  // Sizes
  localparam integer NP    = HWS_NR_PRIO;                           // priority levels
  localparam integer NK    = (HWS_NR_PRIO + 15) / 16;               // bitmap words per array
  localparam integer WGTW  = HWS_WEIGHT_W;                          // a load weight
  localparam integer TW    = (NR_TASKS > 1) ? $clog2(NR_TASKS) : 1; // task pointer width
  localparam integer CW    = (NR_CPUS > 1) ? $clog2(NR_CPUS) : 1;   // cpu index width
  localparam integer AIW   = CW + 1;                                // array index {cpu, phys}
  localparam integer NARR  = 2 * NR_CPUS;                           // physical arrays
  localparam integer NRW   = $clog2(NR_TASKS + 1);                  // task count width
  localparam integer LDW   = $clog2(NR_TASKS * HWS_RT_WEIGHT + 1);  // load width (<= 30)
  localparam integer TTW   = CW + 9;                                // tt word {phys, prio, cpu}
  localparam integer HTAW  = AIW + 8;                               // ht index {p[7], a, p[6:0]}
  localparam integer HLAW  = $clog2(NARR * 128);                    // u_ht address width
  localparam integer HHAW  = $clog2(NARR * 16);                     // u_hth address width
  localparam integer TDEP  = 1 << TW;                               // task RAM depth (>= 2)
  localparam integer GW    = (NR_GROUPS > 1) ? $clog2(NR_GROUPS) : 1; // group index width
  localparam integer GLD   = NR_CPUS * NR_GROUPS;                   // gload words
  localparam integer GLAW  = (GLD > 1) ? $clog2(GLD) : 1;           // gload address width
  localparam [31:0]  NR_TASKS32  = NR_TASKS;

`ifdef FORMAL
  // The state the invariants below read (the submodules' formal-only ports).
  localparam integer TTEW = TTW + WGTW + HTAW;                      // a tt word
  wire [TDEP*TTEW-1:0]          f_tt;
  wire [TDEP*TW-1:0]            f_nx, f_pv;
  wire [NARR*128*2*TW-1:0]      f_ht;
  wire [NARR*16*2*TW-1:0]       f_hth;
  wire [NARR*16-1:0]            f_sm;
  wire [NARR*16*16-1:0]         f_bm;
  wire [TDEP*(WGTW+9)-1:0]      f_wt;
  wire [NR_TASKS-1:0]           f_gvld;
  wire [TDEP*GW-1:0]            f_grp;
  wire [GLD*LDW-1:0]            f_gl;
  wire [NR_GROUPS*LDW-1:0]      f_gt;
`endif

  // ---------------------------------------------------------------------------------------
  // Sequencer
  wire                  busy;
  wire [2:0]            step;
  wire [31:0]           cmd_q;      // the retiring view (last-step actions, the result)
  wire [`HWS_CTL_W-1:0] ctl;
  wire [31:0]           cmd_yng;      // the youngest command (step-1 reads; PIPE = 0: cmd_q)
  wire [`HWS_CTL_W-1:0] ctl_yng;
  wire                  two, free, ovl_ok, q_head;
  wire                  done, failed, ok1;
  wire [7:0]            ecode;
  wire                  q_t;        // queued[t] of the command's task
  wire [4:0]            dom_ok;     // hws_domain's consistency flags
  wire                  dom_bad;    // hws_domain's DOMAIN verdict
  wire                  bal_done;   // BALANCE: hws_balance's final cycle
  hws_eng_seq #(.NR_CPUS(NR_CPUS), .NR_TASKS(NR_TASKS), .NR_GROUPS(NR_GROUPS),
                .LCU_BALANCE(LCU_BALANCE), .PIPE(PIPE)) u_seq (
    .clk_i(clk_i), .srst_i(srst_i), .start_i(start_i), .cmd_i(cmd_i), .q_t_i(q_t),
    .q_head_i(q_head), .dom_ok_i(dom_ok), .dom_bad_i(dom_bad), .bal_done_i(bal_done),
    .busy_o(busy), .step_o(step), .cmd_o(cmd_q), .ctl_o(ctl), .cmd_yng_o(cmd_yng),
    .ctl_yng_o(ctl_yng), .two_o(two), .free_o(free), .ovl_ok_o(ovl_ok), .done_o(done),
    .failed_o(failed), .ok1_o(ok1), .ecode_o(ecode)
  );

  wire [11:0]   tfield = cmd_q[HWS_CMD_TASK_LSB +: HWS_CMD_TASK_W];
  wire [7:0]    pfield = cmd_q[HWS_CMD_PRIO_LSB +: HWS_CMD_PRIO_W];
  wire [5:0]    cfield = cmd_q[HWS_CMD_CPU_LSB  +: HWS_CMD_CPU_W];
  wire          afield = cmd_q[HWS_CMD_ARRAY_LSB];
  wire          hfield = cmd_q[HWS_CMD_HEAD_LSB];
  wire [CW-1:0] c_w    = cfield[CW-1:0];
  // The youngest command's fields: what a step 1 beside the older's last step reads (the
  // read addresses, the latches of step 1). With PIPE = 0 they are the fields above.
  wire [11:0]   tfield_yng = cmd_yng[HWS_CMD_TASK_LSB +: HWS_CMD_TASK_W];
  wire [7:0]    pfield_yng = cmd_yng[HWS_CMD_PRIO_LSB +: HWS_CMD_PRIO_W];
  wire [5:0]    cfield_yng = cmd_yng[HWS_CMD_CPU_LSB  +: HWS_CMD_CPU_W];
  wire          afield_yng = cmd_yng[HWS_CMD_ARRAY_LSB];
  wire [CW-1:0] c_yng      = cfield_yng[CW-1:0];
  wire          opop     = start_i && !free;   // an overlapping pop (PIPE = 1)

  // ---------------------------------------------------------------------------------------
  // Focus list
  wire [CW-1:0]   tt_cpu;            // the task's entry (hws_eng_lists)
  wire [7:0]      tt_prio;
  wire            tt_phys;
  wire [AIW+3:0]  bnew;              // a move's new list {array, prio[7:4]}
  wire            pk_phys;           // PICK_NEXT/PEEK's latched search (hws_eng_bitmap)
  wire [7:0]      pk_prio;
  wire            swap_c;            // swap[c] of the command's CPU
  wire            swap_c_yng;          // ... of the youngest command's CPU
  wire [CW-1:0]   f_cpu  = ctl[`HWS_S_FN] ? bnew[AIW+3:5] : ctl[`HWS_S_FT] ? tt_cpu : c_w;
  wire            f_phys = ctl[`HWS_S_FN] ? bnew[4] : ctl[`HWS_S_FPK] ? pk_phys :
                           ctl[`HWS_S_FCP] ? (afield ^ swap_c) : tt_phys;
  wire [7:0]      f_prio = ctl[`HWS_S_FPK] ? pk_prio : ctl[`HWS_S_FCPR] ? pfield : tt_prio;
  wire [AIW-1:0]  f_arr  = {f_cpu, f_phys};
  // The youngest command's focus list (PIPE = 1): the bitmap unit registers the list of the
  // coming step from it; the links and unlinks of the last step use f above.
  wire [CW-1:0]   fn_cpu;
  wire            fn_phys;
  wire [7:0]      fn_prio;
  generate
    if (PIPE != 0) begin : g_fn
      assign fn_cpu  = ctl_yng[`HWS_S_FN] ? bnew[AIW+3:5] : ctl_yng[`HWS_S_FT] ? tt_cpu : c_yng;
      assign fn_phys = ctl_yng[`HWS_S_FN] ? bnew[4] : ctl_yng[`HWS_S_FPK] ? pk_phys :
                       ctl_yng[`HWS_S_FCP] ? (afield_yng ^ swap_c_yng) : tt_phys;
      assign fn_prio = ctl_yng[`HWS_S_FPK] ? pk_prio : ctl_yng[`HWS_S_FCPR] ? pfield_yng : tt_prio;
    end else begin : g_f
      assign fn_cpu  = f_cpu;
      assign fn_phys = f_phys;
      assign fn_prio = f_prio;
    end
  endgenerate

  // ---------------------------------------------------------------------------------------
  // Lists
  wire [NR_CPUS-1:0]  swap_all;
  wire [HTAW-1:0]     pk_ht;
  wire                pk_none, pk_swap, f_ne;
  wire [WGTW-1:0]     wl, tt_wgt;
  wire                swap_o;        // swap of the task's CPU
  wire [TW-1:0]       ht_h, u_task_yng, nx_raddr;
  wire                link, unlink, u_empty;
  wire [NR_TASKS-1:0] queued_q;
  hws_eng_lists #(.NR_CPUS(NR_CPUS), .NR_TASKS(NR_TASKS), .WGTW(WGTW)) u_lists (
    .clk_i(clk_i), .srst_i(srst_i), .ctl_i(ctl), .ctl_yng_i(ctl_yng), .start_i(start_i),
    .cmd_i(cmd_i), .task_i(tfield), .task_yng_i(tfield_yng), .c_i(c_yng), .prio_i(pfield_yng),
    .array_i(afield_yng), .swap_c_i(swap_c_yng),
    .swap_i(swap_all), .pk_ht_i(pk_ht), .pk_none_i(pk_none), .f_ne_i(f_ne),
    .f_cpu_i(f_cpu), .f_phys_i(f_phys), .f_prio_i(f_prio), .wl_i(wl),
    .tt_cpu_o(tt_cpu), .tt_prio_o(tt_prio), .tt_phys_o(tt_phys), .tt_wgt_o(tt_wgt),
    .swap_o_o(swap_o), .ht_h_o(ht_h), .link_o(link), .unlink_o(unlink),
    .u_task_o(u_task_yng), .u_empty_o(u_empty), .nx_raddr_o(nx_raddr), .bnew_o(bnew),
    .queued_o(queued_q), .q_t_o(q_t), .q_head_o(q_head)
`ifdef FORMAL
    , .f_tt_o(f_tt), .f_nx_o(f_nx), .f_pv_o(f_pv), .f_ht_o(f_ht), .f_hth_o(f_hth)
`endif
  );

  // ---------------------------------------------------------------------------------------
  // Bitmaps
  wire [NARR-1:0] ne_all;
  wire [15:0]     chunk;
  hws_eng_bitmap #(.NR_CPUS(NR_CPUS)) u_bitmap (
    .clk_i(clk_i), .srst_i(srst_i), .ctl_i(ctl_yng), .c_i(c_yng), .prio_i(pfield_yng),
    .array_i(afield_yng), .swap_c_i(swap_c_yng), .swap_i(swap_all), .ne_i(ne_all),
    .f_cpu_i(fn_cpu), .f_phys_i(fn_phys), .f_prio_i(fn_prio), .fo_cpu_i(f_cpu),
    .fo_phys_i(f_phys), .fo_prio_i(f_prio), .tt_cpu_i(tt_cpu),
    .tt_phys_i(tt_phys), .tt_prio_i(tt_prio), .bnew_i(bnew), .link_i(link),
    .unlink_i(unlink), .u_empty_i(u_empty), .pk_ht_o(pk_ht), .pk_phys_o(pk_phys),
    .pk_prio_o(pk_prio), .pk_none_o(pk_none), .pk_swap_o(pk_swap), .f_ne_o(f_ne),
    .chunk_o(chunk)
`ifdef FORMAL
    , .f_sm_o(f_sm), .f_bm_o(f_bm)
`endif
  );

  // ---------------------------------------------------------------------------------------
  // Counts, loads, weights, group loads
  wire [NARR*NRW-1:0]    nr_all;
  wire [NR_CPUS*LDW-1:0] load_all, hist_all;
  wire [NR_CPUS-1:0]     idle_q;
  wire [WGTW-1:0]        f_weight;
  wire [GW-1:0]          grp_u;
  wire [LDW-1:0]         gl_lcu, gt_lcu, load_c, hist_c;
  wire [NRW-1:0]         nr_c0, nr_c1;
  wire                   gs_upd;
  wire [5:0]             gs_cpu6;
  wire [LDW-1:0]         gs_n_old, gs_n_new, gs_h_old, gs_h_new;
  hws_eng_loads #(.NR_CPUS(NR_CPUS), .NR_TASKS(NR_TASKS), .NR_GROUPS(NR_GROUPS),
                  .WGTW(WGTW), .LDW(LDW), .PIPE(PIPE)) u_loads (
    .clk_i(clk_i), .srst_i(srst_i), .ctl_i(ctl), .ctl_yng_i(ctl_yng), .two_i(two),
    .opop_i(opop), .start_i(start_i), .cmd_i(cmd_i),
    .ok1_i(ok1), .c_i(c_w), .c_yng_i(c_yng), .task_i(tfield), .prio_i(pfield_yng), .array_i(afield),
    .f_cpu_i(f_cpu), .f_phys_i(f_phys), .link_i(link), .unlink_i(unlink),
    .u_task_i(u_task_yng), .nx_raddr_i(nx_raddr), .q_t_i(q_t),
    .tt_wgt_i(tt_wgt),
    .pk_prio_i(pk_prio), .pk_swap_i(pk_swap),
    .ne_o(ne_all), .nr_o(nr_all), .load_o(load_all), .hist_o(hist_all), .idle_o(idle_q),
    .swap_o(swap_all), .swap_c_o(swap_c), .swap_c_yng_o(swap_c_yng), .wl_o(wl),
    .f_weight_o(f_weight),
    .grp_u_o(grp_u), .gl_lcu_o(gl_lcu), .gt_lcu_o(gt_lcu), .load_c_o(load_c),
    .hist_c_o(hist_c), .nr_c0_o(nr_c0), .nr_c1_o(nr_c1),
    .upd_o(gs_upd), .upd_cpu_o(gs_cpu6), .upd_n_old_o(gs_n_old), .upd_n_new_o(gs_n_new),
    .upd_h_old_o(gs_h_old), .upd_h_new_o(gs_h_new)
`ifdef FORMAL
    , .f_wt_o(f_wt), .f_gvld_o(f_gvld), .f_grp_o(f_grp), .f_gl_o(f_gl), .f_gt_o(f_gt)
`endif
  );

  // ---------------------------------------------------------------------------------------
  // Domain table and placement queries (section 8.1)
  // DOM_SET: k = PRIO[2:0]; PRIO[7:3] is data (the top bits of a power)
  wire [2:0]  dset_k   = pfield[2:0];
  wire [16:0] dset_val = {pfield[7:3], tfield};
  wire [31:0] qry_word;
  hws_domain #(.NR_CPUS(NR_CPUS), .LOAD_W(LDW), .LCU_BALANCE(LCU_BALANCE),
               .BAL_LANES(BAL_LANES), .LCU_LEAN(LCU_LEAN)) u_dom (
    .clk_i(clk_i), .srst_i(srst_i),
    .set_i(ok1 && ctl[`HWS_C_DSET]), .set_k_i(dset_k), .set_cpu_i(cfield),
    .set_data_i(dset_val),
    .q_cpu_i(cfield), .q_level_i(pfield[1:0]), .q_kind_i({afield, hfield}),
    .q_now_i(tfield[1:0] != 2'd0), .q_bad_o(dom_bad), .q_ok_o(dom_ok),
    .q_go_i(ok1 && ctl[`HWS_C_QRY]), .load_i(load_all), .hist_i(hist_all), .idle_i(idle_q),
    .upd_i(gs_upd), .upd_cpu_i(gs_cpu6), .upd_now_old_i(gs_n_old), .upd_now_new_i(gs_n_new),
    .upd_h_old_i(gs_h_old), .upd_h_new_i(gs_h_new),
    .q_done_o(bal_done), .q_res_o(qry_word), .bal_regs_o(bal_regs_o)
  );

  // ---------------------------------------------------------------------------------------
  // Result word
  wire [31:0] res_word;
  hws_eng_result #(.NR_CPUS(NR_CPUS), .NR_TASKS(NR_TASKS), .NR_GROUPS(NR_GROUPS),
                   .WGTW(WGTW), .LDW(LDW)) u_result (
    .clk_i(clk_i), .ctl_i(ctl), .prio_i(pfield_yng), .failed_i(failed), .ecode_i(ecode),
    .nr_c0_i(nr_c0), .nr_c1_i(nr_c1), .load_c_i(load_c), .hist_c_i(hist_c),
    .swap_c_i(swap_c_yng), .chunk_i(chunk), .idle_i(idle_q), .gl_lcu_i(gl_lcu),
    .gt_lcu_i(gt_lcu), .qry_i(qry_word), .pk_none_i(pk_none), .pk_swap_i(pk_swap),
    .pk_prio_i(pk_prio), .ht_h_i(ht_h), .tt_cpu_i(tt_cpu), .tt_phys_i(tt_phys),
    .tt_prio_i(tt_prio), .swap_o_i(swap_o), .grp_u_i(grp_u), .q_t_i(q_t),
    .f_weight_i(f_weight), .res_o(res_word)
  );

  assign busy_o     = busy;
  assign free_o     = free;
  assign ovl_ok_o   = ovl_ok;
  assign two_o      = two;
  assign done_o     = done;
  assign res_push_o = done && ctl[`HWS_C_RES];
  assign res_data_o = res_word;
  assign err_o      = failed;
  assign err_code_o = ecode;
  assign cmd_o      = cmd_q;
  // The link of ENQUEUE, REQUEUE, SET_PRIO and MIGRATE (their last step) into the focus
  // list; its logical array is active when its physical one is swap[cpu] (docs/accelerator.md
  // 4.6). A failed command never links (its checks fail in step 1, before any link step).
  reg  [5:0]  lnk_cpu6;
  always @* begin
    lnk_cpu6 = 6'd0;
    lnk_cpu6[CW-1:0] = f_cpu;
  end
  assign lnk_o = link ? {1'b1, f_phys == swap_all[f_cpu], lnk_cpu6, f_prio} : 16'd0;

  // Bits that some configurations do not need.
  wire unused_bits = &{1'b0, tfield, cfield, step, nr_all, queued_q, f_arr, tfield_yng,
                        cfield_yng};

  // ---------------------------------------------------------------------------------------
  // Simulation-only checks of the invariants of docs/accelerator.md section 6.
  // They run at every edge where no command is half done (idle, or step 1: every earlier
  // command has completed and this one has not changed anything yet).
`ifndef SYNTHESIS
`ifndef FORMAL   // ($fatal in an always block: simulation only)
  wire consistent = !busy || (step == 3'd1);
  // ht index of list (a, p): {p[7], a, p[6:0]}, as hws_eng_lists forms it
  function automatic [HTAW-1:0] ht_idx(input [AIW-1:0] a, input [7:0] p);
    ht_idx = {p[7], a, p[6:0]};
  endfunction

  // Cheap, every such edge: for the (at most two) arrays updated since the last such edge,
  // bitmap == 0 iff count == 0, and their CPU's load == 0 when it has no task. Arrays
  // change only through these updates, so this covers all of them at a fraction of the cost.
  // With them, the group word updated with each: gload[c][g] <= load[c] and <= gtotal[g],
  // and every gload[c][*] == 0 when the CPU has no task.
  reg [AIW-1:0] chk_arr0_q, chk_arr1_q;
  reg [GW-1:0]  chk_grp0_q, chk_grp1_q;
  reg           chk_vld0_q, chk_vld1_q;
  integer       ck_ngrp;   // a variable loop bound: Verilator keeps the loop a loop
  initial ck_ngrp = NR_GROUPS;

  // Group loads and groups as the engine holds them (a cleared word reads 0), for the
  // checks; an index out of range is a bug of the checks themselves.
  function automatic [31:0] gl_val(input integer c, input integer g);
    integer i;
    begin
      i = c * NR_GROUPS + g;
      if (i < 0 || i >= GLD) $fatal(1, "hws_rq_engine: gl_val(%0d, %0d) out of range", c, g);
      gl_val = 32'd0;
      if (u_loads.gu_pend_q && (u_loads.gu_la_q == i[GLAW-1:0])) gl_val[LDW-1:0] = u_loads.gl_wd;   // lands at this edge
      else if (u_loads.gl_vld_q[i[GLAW-1:0]]) gl_val[LDW-1:0] = u_loads.u_gl.mem_q[i[GLAW-1:0]];
    end
  endfunction
  function automatic [31:0] gt_val(input integer g);
    begin
      if (g < 0 || g >= NR_GROUPS) $fatal(1, "hws_rq_engine: gt_val(%0d) out of range", g);
      gt_val = 32'd0;
      if (u_loads.gu_pend_q && (u_loads.gu_ga_q == g[GW-1:0])) gt_val[LDW-1:0] = u_loads.gt_wd;     // lands at this edge
      else if (u_loads.gt_vld_q[g[GW-1:0]]) gt_val[LDW-1:0] = u_loads.u_gt.mem_q[g[GW-1:0]];
    end
  endfunction
  function automatic integer grp_val(input integer t);
    begin
      if (t < 0 || t >= TDEP) $fatal(1, "hws_rq_engine: grp_val(%0d) out of range", t);
      grp_val = 0;
      if (u_loads.grp_vld_q[t[TW-1:0]]) grp_val = {{(32-GW){1'b0}}, u_loads.u_grp.mem_q[t[TW-1:0]]};
    end
  endfunction

  // The priority a task's weight follows (section 8, "Load weights"), as the engine holds it.
  // (The weight stored beside wprio is checked by deep_check.)
  function automatic [7:0] wt_prio_val(input [TW-1:0] t, input [7:0] p);
    /* verilator lint_off UNUSEDSIGNAL */
    reg [WGTW+8:0] wt;
    /* verilator lint_on UNUSEDSIGNAL */
    begin
      wt = u_loads.u_wt.mem_q[t];
      wt_prio_val = (u_loads.grp_vld_q[t] && wt[8]) ? wt[7:0] : p;
    end
  endfunction

  // Word k of physical array a's bitmap as the engine holds it: the RAM word while its
  // summary bit is set, else 0. An index out of range is a bug of the checks themselves.
  function automatic [15:0] bm_word_val(input integer a, input integer k);
    begin
      if (a < 0 || a >= NARR || k < 0 || k >= NK)
        $fatal(1, "hws_rq_engine: bm_word_val(%0d, %0d) out of range", a, k);
      bm_word_val = 16'd0;
      if (u_bitmap.sm_all[a * NK + k]) bm_word_val = u_bitmap.u_bm.mem_q[a * 16 + k];
    end
  endfunction

  task automatic check_array(input [AIW-1:0] arr, input [GW-1:0] grp);
    reg [2*NRW-1:0] nr2;
    reg [NK-1:0]    sm;
    reg [15:0]      wd;
    reg [NRW-1:0]   nr;
    reg [LDW-1:0]   ld;
    reg [31:0]      gl, gt, ld32;
    integer         a, c, g, k;
    begin
      a   = {{(32-AIW){1'b0}}, arr};
      c   = {{(32-CW){1'b0}}, arr[AIW-1:1]};
      gl  = gl_val(c, {{(32-GW){1'b0}}, grp});
      gt  = gt_val({{(32-GW){1'b0}}, grp});
      sm  = u_bitmap.sm_all[a*NK +: NK];
      nr2 = nr_all[c*2*NRW +: 2*NRW];
      ld  = load_all[c*LDW +: LDW];
      nr  = arr[0] ? nr2[NRW +: NRW] : nr2[0 +: NRW];
      // Each summary bit says its word is non-zero (a clear one makes the word read 0), and
      // no bit above 139 is set: so the bitmap is empty iff the summary is.
      for (k = 0; k < NK; k = k + 1) begin
        wd = u_bitmap.u_bm.mem_q[a * 16 + k];
        if (sm[k] && ((wd == 16'd0) || ((k == NK - 1) && (wd[15:12] != 4'd0)))) begin
          $display("hws_rq_engine: INVARIANT FAILED at %0t: cpu %0d phys array %0d: summary bit %0d set, word %h",
                   $time, arr[AIW-1:1], arr[0], k, wd);
          $fatal(1, "hws_rq_engine: bitmap summary/word mismatch");
        end
      end
      if ((sm == {NK{1'b0}}) != (nr == {NRW{1'b0}})) begin
        $display("hws_rq_engine: INVARIANT FAILED at %0t: cpu %0d phys array %0d: bitmap %0s, count %0d",
                 $time, arr[AIW-1:1], arr[0], (sm == {NK{1'b0}}) ? "empty" : "non-empty", nr);
        $fatal(1, "hws_rq_engine: bitmap/count mismatch");
      end
      if ((nr2 == {2*NRW{1'b0}}) && (ld != {LDW{1'b0}})) begin
        $display("hws_rq_engine: INVARIANT FAILED at %0t: cpu %0d has no task but load %0d",
                 $time, arr[AIW-1:1], ld);
        $fatal(1, "hws_rq_engine: load of an empty CPU");
      end
      ld32 = 32'd0;
      ld32[LDW-1:0] = ld;
      if ((gl > ld32) || (gl > gt)) begin
        $display("hws_rq_engine: INVARIANT FAILED at %0t: cpu %0d group %0d: gload %0d, load %0d, gtotal %0d",
                 $time, c, grp, gl, ld, gt);
        $fatal(1, "hws_rq_engine: group load above the CPU load or the group total");
      end
      if (nr2 == {2*NRW{1'b0}}) begin
        for (g = 0; g < ck_ngrp; g = g + 1) begin
          if (gl_val(c, g) != 32'd0) begin
            $display("hws_rq_engine: INVARIANT FAILED at %0t: cpu %0d has no task but gload[%0d] %0d",
                     $time, c, g, gl_val(c, g));
            $fatal(1, "hws_rq_engine: group load of an empty CPU");
          end
        end
      end
    end
  endtask

  always @(posedge clk_i) begin
    if (srst_i) begin
      chk_vld0_q <= 1'b0;
      chk_vld1_q <= 1'b0;
    end else begin
      if (consistent) begin
        if (chk_vld0_q) check_array(chk_arr0_q, chk_grp0_q);
        if (chk_vld1_q) check_array(chk_arr1_q, chk_grp1_q);
      end
      if (link || unlink || u_loads.setw_upd) begin
        chk_arr0_q <= f_arr;
        chk_arr1_q <= chk_arr0_q;
        chk_grp0_q <= u_loads.g_a;
        chk_grp1_q <= chk_grp0_q;
        chk_vld0_q <= 1'b1;
        chk_vld1_q <= chk_vld0_q;
      end else if (consistent) begin
        chk_vld0_q <= 1'b0;
        chk_vld1_q <= 1'b0;
      end
    end
  end

  // Number of queued tasks == sum of the counts of all arrays.
  function automatic [31:0] nr_sum(input [NARR*NRW-1:0] all);
    integer    i;
    reg [31:0] nr;
    begin
      nr_sum = 32'd0;
      for (i = 0; i < NARR; i = i + 1) begin
        nr = 32'd0;
        nr[NRW-1:0] = all[i*NRW +: NRW];
        nr_sum = nr_sum + nr;
      end
    end
  endfunction

  always @(posedge clk_i) begin
    if (!srst_i && consistent && (nr_sum(nr_all) != $countones(queued_q))) begin
      $display("hws_rq_engine: INVARIANT FAILED at %0t: %0d tasks queued, the counts sum to %0d",
               $time, $countones(queued_q), nr_sum(nr_all));
      $fatal(1, "hws_rq_engine: queued/count mismatch");
    end
  end

  // No task queued: every group total is 0.
  integer ck_g;
  always @(posedge clk_i) begin
    if (!srst_i && consistent && (queued_q == {NR_TASKS{1'b0}})) begin
      for (ck_g = 0; ck_g < ck_ngrp; ck_g = ck_g + 1) begin
        if (gt_val(ck_g) != 32'd0) begin
          $display("hws_rq_engine: INVARIANT FAILED at %0t: no task queued but gtotal[%0d] %0d",
                   $time, ck_g, gt_val(ck_g));
          $fatal(1, "hws_rq_engine: group total with no task");
        end
      end
    end
  end

  // Deep, with +hws_deep_check[=N] (every N-th consistent edge, default 1): walk every
  // non-empty list through the RAM arrays and check bitmap bits, counts, loads, task
  // entries, prev links, that every queued task is in exactly one list, that every task's
  // group is < NR_GROUPS, and that gload[c][g] is the summed weight of group g's tasks in
  // the lists of c and gtotal[g] that sum over all CPUs.
  reg     deep_en;
  integer deep_every, deep_cnt;
  // Loop bounds of the deep check as variables: Verilator then keeps the loops as loops
  // instead of unrolling them into the per-cycle code (which slowed every cycle by ~40%).
  integer dk_ncpu, dk_narr, dk_np, dk_ntask;
  initial begin
    deep_en    = $test$plusargs("hws_deep_check") != 0;
    deep_every = 1;
    if ($value$plusargs("hws_deep_check=%d", deep_every) == 0) deep_every = 1;
    if (deep_every < 1) deep_every = 1;
    deep_cnt = 0;
    dk_ncpu = NR_CPUS;
    dk_narr = 2;
    dk_np = NP;
    dk_ntask = NR_TASKS;
  end

  task automatic deep_fail(input [8*40-1:0] what, input integer c, input integer a,
                           input integer p, input integer x);
    begin
      $display("hws_rq_engine: DEEP CHECK FAILED at %0t: %0s (cpu %0d phys %0d prio %0d task %0d)",
               $time, what, c, a, p, x);
      $fatal(1, "hws_rq_engine: deep check");
    end
  endtask

  task automatic deep_check;
    reg [NR_TASKS-1:0] seen;
    reg [2*TW-1:0]     ht;
    reg [TTW+WGTW+HTAW-1:0] tt;
    reg [TTW-1:0]      tt_exp;
    reg [WGTW+8:0]     wtw;
    reg [TW-1:0]       x, prv;
    reg [31:0]         load, cnt, nr, ldq, w;
    reg                first, fin;
    reg [HTAW-1:0]     li;
    /* verilator lint_off UNUSEDSIGNAL */
    reg [AIW+6:0]      lla;   // li in u_ht (prio < 128; the top bit unused at NR_CPUS = 1)
    reg [AIW+3:0]      lha;   // ... in u_hth
    /* verilator lint_on UNUSEDSIGNAL */
    reg [31:0]         xi;
    reg [NR_GROUPS*32-1:0] gsum, gtot;   // per group: on this CPU, on all CPUs
    integer            c, a, p, g, gx, ti;
    begin
      seen = {NR_TASKS{1'b0}};
      gtot = {NR_GROUPS*32{1'b0}};
      for (ti = 0; ti < dk_ntask; ti = ti + 1) begin
        if (grp_val(ti) >= NR_GROUPS) deep_fail("task group out of range", 0, 0, 0, ti);
      end
      for (c = 0; c < dk_ncpu; c = c + 1) begin
        load = 32'd0;
        gsum = {NR_GROUPS*32{1'b0}};
        for (a = 0; a < dk_narr; a = a + 1) begin
          cnt = 32'd0;
          for (p = 0; p < dk_np; p = p + 1) begin
            li = ht_idx(c[CW:0] * 2 + a[CW:0], p[7:0]);
            if (((bm_word_val(c*2 + a, p / 16) >> (p % 16)) & 16'd1) != 16'd0) begin
              lla = li[AIW+6:0];
              lha = {li[AIW+6:7], li[3:0]};
              ht = li[HTAW-1] ? u_lists.u_hth.mem_q[lha[HHAW-1:0]] : u_lists.u_ht.mem_q[lla[HLAW-1:0]];
              x = ht[TW +: TW];
              prv = x;
              first = 1'b1;
              fin = 1'b0;
              tt_exp = {TTW{1'b0}};
              tt_exp[CW-1:0] = c[CW-1:0];
              tt_exp[CW +: 8] = p[7:0];
              tt_exp[CW + 8] = a[0];
              while (!fin) begin
                xi = {{(32-TW){1'b0}}, x};
                if (xi >= NR_TASKS32) deep_fail("list reaches a task out of range", c, a, p, xi);
                if (!queued_q[x]) deep_fail("task in a list but not queued", c, a, p, xi);
                if (seen[x]) deep_fail("task twice in the lists (or a cycle)", c, a, p, xi);
                seen[x] = 1'b1;
                tt = {u_lists.u_hti.mem_q[x], u_lists.u_tt.mem_q[x]};
                if (tt[TTW-1:0] != tt_exp) deep_fail("task entry names another list", c, a, p, xi);
                if (tt[TTW + WGTW +: HTAW] != li) deep_fail("task entry's ht index is wrong", c, a, p, xi);
                if (tt[TTW +: WGTW] != hws_weight_fn(p[7:0]))
                  deep_fail("entry weight is not its prio's", c, a, p, xi);
                wtw = u_loads.u_wt.mem_q[x];
                if (!u_loads.grp_vld_q[x] && (wtw[8] || (u_loads.u_grp.mem_q[x] != {GW{1'b0}})))
                  deep_fail("queued task's wt/grp word not in force", c, a, p, xi);
                if (u_loads.grp_vld_q[x] && wtw[8] && wtw[9 +: WGTW] != hws_weight_fn(wtw[7:0]))
                  deep_fail("SET_WEIGHT weight not its prio's", c, a, p, xi);
                if (!first && (u_lists.u_pv.mem_q[x] != prv)) deep_fail("prev link inconsistent", c, a, p, xi);
                cnt = cnt + 32'd1;
                w = {{(32-WGTW){1'b0}}, hws_weight_fn(wt_prio_val(x, p[7:0]))};
                load = load + w;
                gx = grp_val(xi);
                if (gx < NR_GROUPS) begin
                  gsum[gx*32 +: 32] = gsum[gx*32 +: 32] + w;
                  gtot[gx*32 +: 32] = gtot[gx*32 +: 32] + w;
                end
                if (x == ht[0 +: TW]) begin
                  fin = 1'b1;
                end else begin
                  prv = x;
                  first = 1'b0;
                  x = u_lists.u_nx.mem_q[x];
                end
              end
            end
          end
          nr = 32'd0;
          nr[NRW-1:0] = nr_all[(c*2 + a)*NRW +: NRW];
          if (cnt != nr) deep_fail("count differs from the lists", c, a, 0, 0);
          if ((nr != 32'd0) != ne_all[c*2 + a]) deep_fail("non-empty flag differs", c, a, 0, 0);
        end
        ldq = 32'd0;
        ldq[LDW-1:0] = load_all[c*LDW +: LDW];
        if (load != ldq) deep_fail("load differs from the lists", c, 0, 0, 0);
        for (g = 0; g < ck_ngrp; g = g + 1) begin
          if (gl_val(c, g) != gsum[g*32 +: 32]) deep_fail("gload differs from the lists", c, 0, g, 0);
        end
      end
      for (g = 0; g < ck_ngrp; g = g + 1) begin
        if (gt_val(g) != gtot[g*32 +: 32]) deep_fail("gtotal differs from the lists", 0, 0, g, 0);
      end
      if (seen != queued_q) deep_fail("a queued task is in no list", 0, 0, 0, 0);
    end
  endtask

  always @(posedge clk_i) begin
    if (!srst_i && consistent) begin
      if (deep_en) begin
        if (deep_cnt + 1 >= deep_every) begin
          deep_cnt <= 0;
          deep_check();
        end else begin
          deep_cnt <= deep_cnt + 1;
        end
      end
    end
  end
`endif
`endif
`ifdef FORMAL
  // ---------------------------------------------------------------------------------------
  // Formal properties: the invariants of docs/accelerator.md section 6 (formal/proofs.list
  // eng_inv_*, docs/formal.md; small shapes, read with HWS_F_ENGINE: the submodules'
  // assumptions about the engine become assertions here, and the RAM and flag contracts,
  // proven alone, are left out). The environment: reset at the start, a pop only when the
  // caller may (hws_top's rule), and ENQUEUE, SET_PRIO and SET_WEIGHT name one of the
  // F_NPL + F_NPH list priorities of the proof or an invalid priority (a command that
  // fails its PRIO check). The invariants hold at every edge where no command is half done (idle, or
  // step 1: f_chk); k-induction carries them over the steps of one command.
`define HWS_F_RESET srst_i
`include "hws_formal_env.vh"
  localparam integer FNL = F_NPL + F_NPH;                     // list priorities proven
  localparam integer NL  = NARR * FNL;                        // lists proven
  localparam [31:0] NR_CPUS32 = NR_CPUS;
  localparam [31:0] NP32      = NP;
  localparam [31:0] F_NPL32   = F_NPL;
  localparam [31:0] F_NPH32   = F_NPH;
  wire [3:0] f_op_in = cmd_i[HWS_CMD_OP_LSB +: HWS_CMD_OP_W];
  wire [7:0] f_pr_in = cmd_i[HWS_CMD_PRIO_LSB +: HWS_CMD_PRIO_W];
  always @(*) if (start_i) assume (!busy || done);
  always @(*) begin
    if (start_i && (f_op_in == HWS_OP_ENQUEUE || f_op_in == HWS_OP_SET_PRIO ||
                    (f_op_in == HWS_OP_SET_GROUP && cmd_i[HWS_CMD_HEAD_LSB])))
      assume (f_pok(f_pr_in) || {24'd0, f_pr_in} >= NP32);
  end
  wire f_chk = f_past_valid && !srst_i && (!busy || (step == 3'd1));
  wire f_run = f_past_valid && !srst_i && busy;
  // (hws_weight_fn: included above, outside synthesis)
  wire [31:0] f_unused_p = GLAW + HLAW + HHAW + NR_TASKS32;   // (the simulation checks)
  wire        f_unused   = &{1'b0, f_unused_p, f_ht, f_hth,   // (lists outside the proof's,
                              f_tt, f_wt, f_grp, f_nx, f_pv}; // tasks past NR_TASKS)

  // A list priority the proof covers.
  function automatic f_pok(input [7:0] p);
    f_pok = ({24'd0, p} < F_NPL32) || ({24'd0, p} >= NP32 - F_NPH32 && {24'd0, p} < NP32);
  endfunction
  // hws_weight_fn over the proof's priorities only (0 for the others): a ROM of FNL words,
  // not of 140, for each task's checks.
  function automatic [WGTW-1:0] f_wfn(input [7:0] p);
    integer j;
    reg [31:0] pj;
    begin
      f_wfn = {WGTW{1'b0}};
      for (j = 0; j < FNL; j = j + 1) begin
        pj = (j < F_NPL) ? j : NP - F_NPH + (j - F_NPL);
        if ({24'd0, p} == pj) f_wfn = hws_weight_fn(pj[7:0]);
      end
    end
  endfunction

  // The lists proven, l = a * FNL + j: key {a, prio}, {head, tail} as hws_eng_lists stores
  // them, and the bit as the engine reads it (a word is trusted while its summary bit is
  // set). Constant selects only: a variable part-select of the RAM images is a barrel
  // shifter the SAT solver does not get through.
  wire [NL*(AIW+8)-1:0] f_lkey;
  wire [NL*2*TW-1:0]    f_lht;
  wire [NL-1:0]         f_lbit;
  genvar fgx, fga, fgp, fgg;
  generate
    for (fga = 0; fga < NARR; fga = fga + 1) begin : g_f_list_a
      for (fgp = 0; fgp < FNL; fgp = fgp + 1) begin : g_f_list_p
        localparam integer L  = fga * FNL + fgp;
        localparam integer P  = (fgp < F_NPL) ? fgp : NP - F_NPH + (fgp - F_NPL);
        localparam [31:0]  A32 = fga;
        localparam [31:0]  P32 = P;
        localparam integer WA = fga * 16 + P / 16;          // its bitmap word
        assign f_lkey[L*(AIW+8) +: AIW+8] = {A32[AIW-1:0], P32[7:0]};
        if (P < 128) begin : g_lo
          assign f_lht[L*2*TW +: 2*TW] = f_ht[(fga*128 + P)*2*TW +: 2*TW];
        end else begin : g_hi
          assign f_lht[L*2*TW +: 2*TW] = f_hth[(fga*16 + P - 128)*2*TW +: 2*TW];
        end
        assign f_lbit[L] = f_sm[WA] && f_bm[WA*16 + P % 16];
      end
    end
  endgenerate
  // {head, tail} and bit of the list with key k (0 when no list proven has it)
  function automatic [2*TW-1:0] f_ht_of(input [AIW+7:0] k);
    integer l;
    begin
      f_ht_of = {2*TW{1'b0}};
      for (l = 0; l < NL; l = l + 1)
        if (k == f_lkey[l*(AIW+8) +: AIW+8]) f_ht_of = f_ht_of | f_lht[l*2*TW +: 2*TW];
    end
  endfunction
  function automatic f_bit_of(input [AIW+7:0] k);
    integer l;
    begin
      f_bit_of = 1'b0;
      for (l = 0; l < NL; l = l + 1)
        if (k == f_lkey[l*(AIW+8) +: AIW+8]) f_bit_of = f_bit_of | f_lbit[l];
    end
  endfunction
  // x is reached from h through next in fewer than NR_TASKS steps, not past the tail t
  // (the tail's next is a dead word)
  function automatic f_reach(input [TW-1:0] h, input [TW-1:0] t, input [TW-1:0] x);
    integer   k;
    reg [TW-1:0] r;
    reg          fin;
    begin
      f_reach = 1'b0;
      fin = 1'b0;
      r = h;
      for (k = 0; k < NR_TASKS; k = k + 1) begin
        if (!fin && r == x) f_reach = 1'b1;
        if (r == t) fin = 1'b1;
        r = f_nx[r*TW +: TW];
      end
    end
  endfunction

  // Per task: its entry's list {cpu, phys, prio}, its weight in force and its group.
  wire [NR_TASKS*(AIW+8)-1:0] f_lst;
  wire [NR_TASKS*WGTW-1:0]    f_wif;
  wire [NR_TASKS*GW-1:0]      f_gof;
  generate
    for (fgx = 0; fgx < NR_TASKS; fgx = fgx + 1) begin : g_f_task
      localparam [31:0] X32 = fgx;
      wire [TTEW-1:0]  e    = f_tt[fgx*TTEW +: TTEW];
      wire [AIW-1:0]   arr  = {e[CW-1:0], e[CW+8]};
      wire [7:0]       prio = e[CW +: 8];
      wire [2*TW-1:0]  ht   = f_ht_of({arr, prio});
      wire [TW-1:0]    h    = ht[TW +: TW];
      wire [TW-1:0]    t    = ht[0 +: TW];
      wire [TW-1:0]    n    = f_nx[fgx*TW +: TW];
      wire [TW-1:0]    v    = f_pv[fgx*TW +: TW];
      wire [WGTW+8:0]  w    = f_wt[fgx*(WGTW+9) +: WGTW+9];
      wire [TW-1:0]    x    = X32[TW-1:0];
      assign f_lst[fgx*(AIW+8) +: AIW+8] = {arr, prio};
      assign f_wif[fgx*WGTW +: WGTW] = (f_gvld[fgx] && w[8]) ? w[9 +: WGTW] : e[TTW +: WGTW];
      assign f_gof[fgx*GW +: GW] = f_gvld[fgx] ? f_grp[fgx*GW +: GW] : {GW{1'b0}};
      always @(*) begin
        if (f_chk && queued_q[fgx]) begin
          // (3) A queued task's entry names a list that exists (of the proof's
          // priorities), with its ht index and weight; that list's bitmap bit is set.
          assert ({1'b0, e[CW-1:0]} < NR_CPUS32[CW:0] && f_pok(prio));
          assert (e[TTW + WGTW +: HTAW] == {prio[7], arr, prio[6:0]});
          assert (e[TTW +: WGTW] == f_wfn(prio));
          assert (f_bit_of({arr, prio}));
          // (4) Its list's head and tail are queued tasks of the same list; next and prev
          // agree (the head has no prev that counts, the tail no next); it is reached from
          // the head before the tail is passed, so every queued task is in its entry's
          // list and in no other.
          assert (queued_q[h] && f_lst[h*(AIW+8) +: AIW+8] == {arr, prio});
          assert (queued_q[t] && f_lst[t*(AIW+8) +: AIW+8] == {arr, prio});
          if (x != t) assert (queued_q[n] && f_lst[n*(AIW+8) +: AIW+8] == {arr, prio} &&
                              f_pv[n*TW +: TW] == x);
          if (x != h) assert (queued_q[v] && f_lst[v*(AIW+8) +: AIW+8] == {arr, prio} &&
                              f_nx[v*TW +: TW] == x);
          assert (f_reach(h, t, x));
          // Its wt and grp words are in force (SET_GROUP/SET_WEIGHT wrote them, or they
          // say nothing).
          assert (f_gvld[fgx] || (!w[8] && f_grp[fgx*GW +: GW] == {GW{1'b0}}));
        end
        // Queued or not, a SET_WEIGHT weight in force is its priority's, one of the
        // proof's (ENQUEUE keeps the word of a task whose grp word is valid).
        if (f_chk && f_gvld[fgx] && w[8]) assert (f_pok(w[7:0]) && w[9 +: WGTW] == f_wfn(w[7:0]));
      end
    end
    // (1) Each bitmap bit of a list proven is set exactly when a queued task names the
    // list; every other bit (priorities outside the proof's, and 140..143) is 0.
    for (fgp = 0; fgp < NL; fgp = fgp + 1) begin : g_f_lbit
      wire [NR_TASKS-1:0] hit;
      for (fgx = 0; fgx < NR_TASKS; fgx = fgx + 1) begin : g_x
        assign hit[fgx] = queued_q[fgx] &&
                          (f_lst[fgx*(AIW+8) +: AIW+8] == f_lkey[fgp*(AIW+8) +: AIW+8]);
      end
      always @(*) if (f_chk) assert (f_lbit[fgp] == (hit != {NR_TASKS{1'b0}}));
    end
    for (fga = 0; fga < NARR; fga = fga + 1) begin : g_f_arr
      localparam [31:0] A32 = fga;
      wire [NR_TASKS-1:0] in_a;      // the queued tasks of array a
      for (fgx = 0; fgx < NR_TASKS; fgx = fgx + 1) begin : g_x
        assign in_a[fgx] = queued_q[fgx] && (f_lst[fgx*(AIW+8) + 8 +: AIW] == A32[AIW-1:0]);
      end
      // (2) The array's count is the number of its queued tasks, ne is count != 0; (1) a
      // summary bit is set only for a word with a bit set, and none above word NK-1.
      always @(*) begin
        if (f_chk) begin
          assert ({{(32-NRW){1'b0}}, nr_all[fga*NRW +: NRW]} == f_popc(in_a));
          assert (ne_all[fga] == (in_a != {NR_TASKS{1'b0}}));
        end
      end
      for (fgp = 0; fgp < 16; fgp = fgp + 1) begin : g_k
        always @(*) begin
          if (f_chk && (fgp >= NK)) assert (!f_sm[fga*16 + fgp]);
          if (f_chk && (fgp < NK) && f_sm[fga*16 + fgp])
            assert (f_bm[(fga*16 + fgp)*16 +: 16] != 16'd0);
        end
      end
      for (fgp = 0; fgp < NK * 16; fgp = fgp + 1) begin : g_p
        if (!(fgp < F_NPL || (fgp >= NP - F_NPH && fgp < NP))) begin : g_off
          always @(*) if (f_chk) assert (!(f_sm[fga*16 + fgp/16] && f_bm[(fga*16 + fgp/16)*16 + fgp%16]));
        end
      end
    end
    // (5) load[c] is the sum of the weights in force of the tasks queued on c; gload[c][g]
    // that sum over group g's tasks; gtotal[g] that sum over every CPU.
    for (fga = 0; fga < NR_CPUS; fga = fga + 1) begin : g_f_cpu
      localparam [31:0] C32 = fga;
      wire [NR_TASKS-1:0] on_c;
      for (fgx = 0; fgx < NR_TASKS; fgx = fgx + 1) begin : g_x
        assign on_c[fgx] = queued_q[fgx] && (f_lst[fgx*(AIW+8) + 9 +: CW] == C32[CW-1:0]);
      end
      always @(*) if (f_chk) assert (load_all[fga*LDW +: LDW] == f_wsum(on_c, f_wif));
      for (fgg = 0; fgg < NR_GROUPS; fgg = fgg + 1) begin : g_g
        localparam [31:0] G32 = fgg;
        wire [NR_TASKS-1:0] in_g;
        for (fgx = 0; fgx < NR_TASKS; fgx = fgx + 1) begin : g_x
          assign in_g[fgx] = on_c[fgx] && (f_gof[fgx*GW +: GW] == G32[GW-1:0]);
        end
        always @(*) if (f_chk) assert (f_gl[(fga*NR_GROUPS + fgg)*LDW +: LDW] == f_wsum(in_g, f_wif));
      end
    end
    for (fgg = 0; fgg < NR_GROUPS; fgg = fgg + 1) begin : g_f_grp
      localparam [31:0] G32 = fgg;
      wire [NR_TASKS-1:0] in_g;
      for (fgx = 0; fgx < NR_TASKS; fgx = fgx + 1) begin : g_x
        assign in_g[fgx] = queued_q[fgx] && (f_gof[fgx*GW +: GW] == G32[GW-1:0]);
      end
      always @(*) if (f_chk) assert (f_gt[fgg*LDW +: LDW] == f_wsum(in_g, f_wif));
    end
  endgenerate
  function automatic [31:0] f_popc(input [NR_TASKS-1:0] m);
    integer k;
    begin
      f_popc = 32'd0;
      for (k = 0; k < NR_TASKS; k = k + 1) f_popc = f_popc + {31'd0, m[k]};
    end
  endfunction
  // the sum of the weights of the tasks in m, LDW bits (loads never exceed them)
  function automatic [LDW-1:0] f_wsum(input [NR_TASKS-1:0] m, input [NR_TASKS*WGTW-1:0] wv);
    integer k;
    reg [31:0] sum;
    begin
      sum = 32'd0;
      for (k = 0; k < NR_TASKS; k = k + 1)
        if (m[k]) sum = sum + {{(32-WGTW){1'b0}}, wv[k*WGTW +: WGTW]};
      f_wsum = sum[LDW-1:0];
    end
  endfunction

  // Auxiliary invariants for the induction: what a command latched at its pop holds for
  // all its steps (queued[t] and swap[c]; grp_vld[t] in hws_eng_loads). swap[c] of a CPU
  // past NR_CPUS is an out-of-range select, x (any value in the AIGER model of the pdr
  // and abcbmc proofs): such a command fails its CPU check and reads no swap.
  always @(*) begin
    if (f_run) begin
      assert (q_t == (({1'b0, tfield} < NR_TASKS32[12:0]) && queued_q[tfield[TW-1:0]]));
      if ({{(32-CW){1'b0}}, c_w} < NR_CPUS32) assert (swap_c == swap_all[c_w]);
    end
  end

  // (6) A command that fails a check changes nothing but the error registers (hws_top's):
  // at its edge no list, bitmap, count, load, group, weight, history, idle or domain write
  // (ok1 enables the one-cycle ones).
  always @(*) begin
    if (f_past_valid && !srst_i && failed)
      assert (!link && !unlink && !gs_upd && !ok1 && !ctl[`HWS_S_GRP_WE] && !ctl[`HWS_S_SETW] &&
              !ctl[`HWS_S_GOLD] && !ctl[`HWS_S_GNEW]);
  end
`endif
endmodule


`default_nettype wire
