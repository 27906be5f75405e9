// hws_eng_loads: the engine's counters, loads and load weights (part of hws_rq_engine).
//
// Owns, in flops (reset clears): per physical array a = cpu*2 + phys its task count nr[a]
// and non-empty flag ne[a] (nr != 0, kept as a flop); per CPU c load[c], swap[c], hist[c]
// (one flat register: BALANCE reads every CPU's at once), idle[c]; swap[c] of the command's
// CPU registered at the pop (swc_q). The load weights: weight(PRIO) latched (wl_q), the
// block RAM wt[t] = {weight(wprio), wfix, wprio} (SET_WEIGHT), and SET_WEIGHT's change
// (sw_dlt_q). The group loads (docs/accelerator.md section 8): grp[t], gload[c][g] and
// gtotal[g] in block RAM, each word with a valid flop (hws_flags; an invalid word reads 0),
// the group update unit, grp_vld[t] of the command's task registered at the pop (tv_q).
//
// Each array counts and each CPU adds its load for itself (one carry chain each, enabled
// by the focus list), so no multiplexer of the focus list's count or load sits before an
// adder. At every edge that links or unlinks (the focus list f), nr[f] and load[f_cpu]
// change by one task and its weight in force w; the group update unit is asked to add the
// same +-w to gload[f_cpu][grp[u]] and gtotal[grp[u]] (u the task linked or unlinked): it
// reads both words in that cycle and writes the sums at the next edge, before anything
// can read them (LCU_STAT forwards the one case where it could). SET_GROUP of a queued
// task asks twice: -w for the old group in step 2 (S_GOLD), +w for the new one in step 3
// (S_GNEW). SET_WEIGHT of a queued task latches weight(PRIO) - w in step 2 and adds it in
// step 3 (S_SETW), so no update passes two carry chains.
//
// Load weights (section 8, "Load weights"): a task weighs weight(wfix[t] ? wprio[t] :
// prio). wt is read at next's address (t, or the head PICK_NEXT unlinks), so every step
// that links, unlinks or reports a task has its word. The weight of a list priority is kept
// beside it in tt (tt_wgt_i), that of a SET_WEIGHT priority beside it in wt: the load
// adders take a RAM output or a register through one multiplexer, never a ROM. The only
// ROM weighs a priority held in a register (the command's PRIO in step 1, PICK_NEXT's
// latched prio in step 3) into wl_q, used a step later. A RAM cannot be cleared at reset,
// so wt[t].wfix counts only while grp[t]'s valid bit is set: SET_GROUP and SET_WEIGHT both
// write grp[t] and wt[t] at the same edge, so a valid grp word always has an up-to-date wt
// word, and after a reset every task's weight follows its list again.
`default_nettype none
`include "hws_eng_ctl.vh"

module hws_eng_loads #(
  parameter integer NR_CPUS   = 8,    // CPUs, 1..64
  parameter integer NR_TASKS  = 256,  // task table entries, 1..4096
  parameter integer NR_GROUPS = 16,   // task groups, 1..64
  // Derived: leave them at their defaults (the parent passes LDW and WGTW; checked below).
  parameter integer TW   = (NR_TASKS > 1) ? $clog2(NR_TASKS) : 1,   // task pointer width
  parameter integer CW   = (NR_CPUS > 1) ? $clog2(NR_CPUS) : 1,     // cpu index width
  parameter integer GW   = (NR_GROUPS > 1) ? $clog2(NR_GROUPS) : 1, // group index width
  parameter integer NRW  = $clog2(NR_TASKS + 1),                    // task count width
  parameter integer WGTW = 18,                                      // HWS_WEIGHT_W
  parameter integer PIPE = 0,                                       // 1: overlapped issue
                                                                    // (retiring copies of swc_q,
                                                                    // tv_q; group forwarding)
  parameter integer LDW  = 26                                       // load width:
                                                   // $clog2(NR_TASKS * HWS_RT_WEIGHT + 1)
) (
  input  wire                    clk_i,
  input  wire                    srst_i,      // synchronous reset: counts, loads, flags 0
  input  wire [`HWS_CTL_W-1:0]   ctl_i,       // the control word (hws_eng_seq's retiring view)
  input  wire [`HWS_CTL_W-1:0]   ctl_yng_i,     // the youngest command's (wl_q's latch)
  input  wire                    two_i,       // PIPE = 1: two commands in flight (hws_eng_seq)
  input  wire                    opop_i,      // PIPE = 1: an overlapping pop at this edge
  input  wire                    start_i,     // pop edge: swc_q and tv_q sample cmd_i's
  input  wire [31:0]             cmd_i,       // the command FIFO's head
  input  wire                    ok1_i,       // step 1 of a command that passed its checks
  input  wire [CW-1:0]           c_i,         // the command's CPU
  input  wire [CW-1:0]           c_yng_i,       // the youngest command's CPU (the per-CPU words
                                              // hws_eng_result registers in step 1)
  input  wire [11:0]             task_i,      // the command's TASK field (LCU_STAT: group)
  input  wire [7:0]              prio_i,      // the youngest command's PRIO field
  input  wire                    array_i,     // the command's ARRAY field (SET_IDLE: idle)
  input  wire [CW-1:0]           f_cpu_i,     // the focus list
  input  wire                    f_phys_i,
  input  wire                    link_i,      // this edge links into the focus list
  input  wire                    unlink_i,    // ... unlinks u_task_i from it
  input  wire [TW-1:0]           u_task_i,    // the task u of the youngest command (t, or
                                              // PICK_NEXT's head): grp's read address
  input  wire [TW-1:0]           nx_raddr_i,  // next's read address (wt is read there)
  input  wire                    q_t_i,       // queued[t] of the command's task
  input  wire [WGTW-1:0]         tt_wgt_i,    // weight of the task's list priority (tt)
  input  wire [7:0]              pk_prio_i,   // PICK_NEXT's priority (from step 3)
  input  wire                    pk_swap_i,   // PICK_NEXT swaps the arrays
  output wire [2*NR_CPUS-1:0]    ne_o,        // array a is non-empty
  output wire [2*NR_CPUS*NRW-1:0] nr_o /*verilator public_flat_rd*/,       // task count of array a at [a*NRW +: NRW]
  output wire [NR_CPUS*LDW-1:0]  load_o /*verilator public_flat_rd*/,      // load of CPU c at [c*LDW +: LDW]
  output wire [NR_CPUS*LDW-1:0]  hist_o /*verilator public_flat_rd*/,      // hist of CPU c
  output wire [NR_CPUS-1:0]      idle_o /*verilator public_flat_rd*/,
  output wire [NR_CPUS-1:0]      swap_o /*verilator public_flat_rd*/,
  output wire                    swap_c_o,    // swap[c] of the command's CPU (retiring view)
  output wire                    swap_c_yng_o,  // ... of the youngest command's CPU (swc_q)
  output wire [WGTW-1:0]         wl_o,        // weight(PRIO), or of PICK_NEXT's prio (wl_q)
  output wire [WGTW-1:0]         f_weight_o,  // the weight in force of the task u
  output wire [GW-1:0]           grp_u_o,     // the group of the task u
  output wire [LDW-1:0]          gl_lcu_o,    // LCU_STAT: gload[c][g] (step 2)
  output wire [LDW-1:0]          gt_lcu_o,    // LCU_STAT: gtotal[g] (step 2)
  output wire [LDW-1:0]          load_c_o,    // load[c] of the command's CPU
  output wire [LDW-1:0]          hist_c_o,    // hist[c]
  output wire [NRW-1:0]          nr_c0_o,     // nr of the command's CPU's phys array 0
  output wire [NRW-1:0]          nr_c1_o,     // ... and 1
  // to hws_domain: the load or history of one CPU changes at this edge
  output wire                    upd_o,
  output wire [5:0]              upd_cpu_o,
  output wire [LDW-1:0]          upd_n_old_o,
  output wire [LDW-1:0]          upd_n_new_o,
  output wire [LDW-1:0]          upd_h_old_o,
  output wire [LDW-1:0]          upd_h_new_o
`ifdef FORMAL
  ,
  // formal only, for hws_rq_engine's invariants: wt[t] and grp_vld[t] of every task, and
  // every gload/gtotal word as it reads after this edge's pending write lands
  output wire [(1 << TW)*(WGTW + 9)-1:0]  f_wt_o,
  output wire [NR_TASKS-1:0]              f_gvld_o,
  output wire [(1 << TW)*GW-1:0]          f_grp_o,
  output wire [NR_CPUS*NR_GROUPS*LDW-1:0] f_gl_o,
  output wire [NR_GROUPS*LDW-1:0]         f_gt_o
`endif
);
  /* verilator lint_off UNUSEDPARAM */
`include "hws_regs.vh"
  /* verilator lint_on UNUSEDPARAM */
`include "hws_weight_fn.vh"

  localparam integer AIW  = CW + 1;                       // array index {cpu, phys}
  localparam integer NARR = 2 * NR_CPUS;                  // physical arrays
  localparam integer TDEP = 1 << TW;                      // task RAM depth (>= 2)
  localparam integer GLD  = NR_CPUS * NR_GROUPS;          // gload words
  localparam integer GLAW = (GLD > 1) ? $clog2(GLD) : 1;  // gload address width
  localparam [31:0]  NR_TASKS32  = NR_TASKS;
  localparam [31:0]  NR_GROUPS32 = NR_GROUPS;
  localparam [31:0]  ONE32       = 32'd1;
`ifndef __ICARUS__
  generate
    if (WGTW != HWS_WEIGHT_W || LDW != $clog2(NR_TASKS * HWS_RT_WEIGHT + 1) || LDW > 32 ||
        TW != ((NR_TASKS > 1) ? $clog2(NR_TASKS) : 1) || CW != ((NR_CPUS > 1) ? $clog2(NR_CPUS) : 1) ||
        GW != ((NR_GROUPS > 1) ? $clog2(NR_GROUPS) : 1) || NRW != $clog2(NR_TASKS + 1)) begin : g_bad_param
      $error("hws_eng_loads: a derived parameter is not its value (WGTW=%0d LDW=%0d)", WGTW, LDW);
    end
  endgenerate
`endif

  wire s1   = ctl_i[`HWS_S_1];
  wire s1_yng = ctl_yng_i[`HWS_S_1];
  wire [TW-1:0] t_i = task_i[TW-1:0];   // the command's task
  wire link = link_i;
  wire upd  = link_i || unlink_i;
  wire [AIW-1:0] f_arr = {f_cpu_i, f_phys_i};

  // ---------------------------------------------------------------------------------------
  // The weight in force of the task u the step links, unlinks or reports (wt[u] is read in
  // the step before; in step 1 nothing is read yet). Whether u's wt and grp words are to
  // be trusted (uv): a queued task's always are (ENQUEUE rewrites them with the values in
  // force, and only SET_GROUP/SET_WEIGHT change them after), so PICK_NEXT/PEEK's head needs
  // no valid bit; for the command's own task the bit grp_vld[t] is registered at the pop
  // edge (tv_q).
  wire [8:0]      wt_rd;
  wire [WGTW-1:0] wt_wgt;
  reg  [WGTW-1:0] wl_q;      // weight(PRIO) from step 2 on; PICK_NEXT: weight(its prio) in step 4
  reg             tv_q;      // grp_vld[t] of the command's task
  wire            tv_o;      // ... of the retiring command's (tv_q, or its copy)
  wire            uv     = ctl_i[`HWS_C_PK] || tv_o;
  wire [WGTW-1:0] wl_rom = hws_weight_fn(s1_yng ? prio_i : pk_prio_i);
  // the weight of the focus list's priority: from the command or PICK_NEXT's FFS (wl_q),
  // else the task's own list (tt_wgt)
  wire            wl_use = ctl_i[`HWS_C_WLC] || ctl_i[`HWS_S_WLS];
  wire [WGTW-1:0] l_wgt  = wl_use ? wl_q : tt_wgt_i;
  wire            u_fix  = uv && wt_rd[8] && !s1;              // wfix[u]
  wire [WGTW-1:0] f_weight = u_fix ? wt_wgt : l_wgt;

  // wt[t] = {weight(wprio), wfix, wprio}: written by SET_GROUP (unchanged) and SET_WEIGHT at
  // their completion (step 3, with grp[t]), and by ENQUEUE at its link (unchanged where
  // valid, wfix 0 where not: a queued task's word is always in force).
  wire            enq_we = link && ctl_i[`HWS_C_ENQ];
  wire            grp_we = ctl_i[`HWS_S_GRP_WE];
  wire [WGTW+8:0] wt_wd  = ctl_i[`HWS_C_SETW] ? {wl_q, 1'b1, prio_i} : {wt_wgt, u_fix, wt_rd[7:0]};
  // (No RAM write enable here waits for srst_i: a word is read only while a flop the reset
  // clears vouches for it, docs/accelerator.md section 2; srst_i comes late in the cycle.)
  hws_ram #(.DEPTH(TDEP), .WIDTH(WGTW + 9), .AW(TW)) u_wt (
    .clk_i(clk_i), .we_i(grp_we || enq_we), .waddr_i(t_i), .wdata_i(wt_wd),
    .raddr_i(nx_raddr_i), .rdata_o({wt_wgt, wt_rd})
`ifdef FORMAL
    , .f_mem_o(f_wt_o)
`endif
  );

  // ---------------------------------------------------------------------------------------
  // What load, gload and gtotal (port 0) add, modulo 2^LDW: +w at a link, -w at an unlink
  // and for SET_GROUP's old group, sw_dlt_q for SET_WEIGHT. The per-CPU adders take it as
  // one carry chain, load + (w ^ {sub}) + sub, the carry-in as a low bit.
  wire [31:0]    w32     = {{(32-WGTW){1'b0}}, f_weight};
  wire [LDW-1:0] w_ext   = w32[LDW-1:0];
  wire [31:0]    wn32    = {{(32-WGTW){1'b0}}, wl_q};
  wire [LDW-1:0] wn_ext  = wn32[LDW-1:0];
  reg  [LDW-1:0] sw_dlt_q;   // SET_WEIGHT: weight(PRIO) - the weight in force (step 2)
  always @(posedge clk_i) sw_dlt_q <= wn_ext - w_ext;
  wire           setw_upd = ctl_i[`HWS_S_SETW] && q_t_i;
  wire           w_sub   = !link && !setw_upd;
  wire [LDW-1:0] w_opnd  = setw_upd ? sw_dlt_q : (w_ext ^ {LDW{w_sub}});
  wire [LDW-1:0] w_delta = w_opnd + {{(LDW-1){1'b0}}, w_sub};
  wire           load_we  = upd || setw_upd;
  wire           swap_flip = unlink_i && ctl_i[`HWS_C_PICK] && pk_swap_i;

  // ---------------------------------------------------------------------------------------
  // Counts (per array), loads and swap flags (per CPU)
  wire [NARR*NRW-1:0]    nr_all;
  wire [NARR-1:0]        ne_all;
  wire [NR_CPUS*LDW-1:0] load_all;
  wire [NR_CPUS-1:0]     swap_all;
  // Per-CPU views as arrays: an indexed array is a plain mux to Yosys (a variable part-select
  // of the flat vector became a 12k-LUT shifter) and one load to Verilator.
  wire [2*NRW-1:0] nr_cpu   [0:NR_CPUS-1];   // {phys 1, phys 0} counts of a CPU
  wire [LDW-1:0]   load_cpu [0:NR_CPUS-1];
  wire [LDW-1:0]   hist_cpu [0:NR_CPUS-1];
  // The focus CPU's new load, for hws_balance's block sums: its own adder's sum, not a
  // second adder after a multiplexer of the loads.
  wire [LDW-1:0]   load_sum_cpu [0:NR_CPUS-1];
  reg  [NR_CPUS*LDW-1:0] hist_all;

  genvar ga, gc;
  generate
    for (ga = 0; ga < NARR; ga = ga + 1) begin : g_arr
      reg [NRW-1:0] nr_q;
      reg           ne_q;         // nr_q != 0, without a compare after the adder
      // (+1 at a link, else + all ones = -1: one carry chain)
      wire [NRW-1:0] nr_inc = nr_q + (link ? ONE32[NRW-1:0] : {NRW{1'b1}});
      localparam [31:0] ARR32 = ga;
      always @(posedge clk_i) begin
        if (srst_i) begin
          nr_q <= {NRW{1'b0}};
          ne_q <= 1'b0;
        end else if (upd && (f_arr == ARR32[AIW-1:0])) begin
          nr_q <= nr_inc;
          ne_q <= link || (nr_q != ONE32[NRW-1:0]);   // an unlink leaves nr_q - 1
        end
      end
      assign nr_all[ga*NRW +: NRW] = nr_q;
      assign ne_all[ga]            = ne_q;
    end
    for (gc = 0; gc < NR_CPUS; gc = gc + 1) begin : g_cpu
      reg [LDW-1:0] load_q;
      reg           swap_q;
      localparam [31:0] CPU32 = gc;
      /* verilator lint_off UNUSEDSIGNAL */
      wire [LDW:0]   load_s1  = {load_q, 1'b1} + {w_opnd, w_sub};   // bit 0: the carry-in
      /* verilator lint_on UNUSEDSIGNAL */
      wire [LDW-1:0] load_sum = load_s1[LDW:1];
      assign load_sum_cpu[gc] = load_sum;
      always @(posedge clk_i) begin
        if (srst_i) begin
          load_q <= {LDW{1'b0}};
          swap_q <= 1'b0;
        end else if (f_cpu_i == CPU32[CW-1:0]) begin
          if (load_we) load_q <= load_sum;
          if (swap_flip) swap_q <= ~swap_q;
        end
      end
      assign load_all[gc*LDW +: LDW] = load_q;
      assign swap_all[gc]            = swap_q;
      assign nr_cpu[gc]   = nr_all[gc*2*NRW +: 2*NRW];
      assign load_cpu[gc] = load_q;
      assign hist_cpu[gc] = hist_all[gc*LDW +: LDW];
    end
  endgenerate
  wire [LDW-1:0] load_new = load_sum_cpu[f_cpu_i];
  wire [LDW-1:0] load_f   = load_cpu[f_cpu_i];
  // The command's CPU's load and counts, for the commands that name a CPU and report or
  // decay them (CPU_STAT, LCU_STAT, LOAD_TICK): not through the focus multiplexer, which
  // also takes a task's CPU from tt, a path from a RAM output no result needs.
  wire [LDW-1:0] load_c   = load_cpu[c_yng_i];

  // swap[c] of the command's CPU, registered at the pop from the FIFO head (swc_q): a swap
  // flips only at PICK_NEXT's last edge, which is forwarded, so swc_q holds for the whole
  // command and no select of the swap flags by the command word sits before ENQUEUE's
  // array or CPU_STAT's selectors.
  reg            swc_q;
  wire [5:0]     cf_in = cmd_i[HWS_CMD_CPU_LSB +: HWS_CMD_CPU_W];
  wire [CW-1:0]  c_in  = cf_in[CW-1:0];     // (any value when CPU is out of range: the
                                            // command then fails its CPU check)
  wire [11:0]    t_in     = cmd_i[HWS_CMD_TASK_LSB +: HWS_CMD_TASK_W];
  wire           t_in_bad = ({1'b0, t_in} >= NR_TASKS32[12:0]);

  // ---------------------------------------------------------------------------------------
  // grp[t]: block RAM read at u (the task linked/unlinked, or t of SET_GROUP/TASK_STAT),
  // written by SET_GROUP at its completion. grp_vld_q[t] (flops, cleared by reset) says
  // grp[t] and wt[t] were written since reset; an invalid grp[t] reads as group 0.
  wire [GW-1:0]       grp_rd;
  wire [NR_TASKS-1:0] grp_vld_q;   // hws_flags u_grp_vld
  wire [GW-1:0] grp_u    = uv ? grp_rd : {GW{1'b0}};       // used from step 2 on
  wire [GW-1:0] g_new    = prio_i[GW-1:0];                 // SET_GROUP: the new group
  wire [GW-1:0] g_lcu    = task_i[GW-1:0];                 // LCU_STAT: the group asked for
  // SET_WEIGHT rewrites grp[t] unchanged, so that its valid bit vouches for wt[t]; ENQUEUE
  // rewrites it as it reads (group 0 where not valid), as it does wt[t].
  wire [GW-1:0] grp_wd   = ctl_i[`HWS_C_GSET] ? g_new : grp_u;
  // SET_GROUP of a queued task moves its weight from the old group (step 2) to the new one
  // (step 3); nothing to do when the group stays.
  wire          g_moves  = q_t_i && (grp_u != g_new);
  wire          setg_old = ctl_i[`HWS_S_GOLD] && g_moves;
  wire          setg_new = ctl_i[`HWS_S_GNEW] && g_moves;
  hws_ram #(.DEPTH(TDEP), .WIDTH(GW), .AW(TW)) u_grp (
    .clk_i(clk_i), .we_i(grp_we || enq_we), .waddr_i(t_i), .wdata_i(grp_wd),
    .raddr_i(u_task_i), .rdata_o(grp_rd)
`ifdef FORMAL
    , .f_mem_o(f_grp_o)
`endif
  );
  hws_flags #(.N(NR_TASKS), .AW(TW)) u_grp_vld (
    .clk_i(clk_i), .srst_i(srst_i), .we_i(grp_we), .waddr_i(t_i), .wdata_i(1'b1),
    .q_o(grp_vld_q)
  );

  // gload[c][g] (word c*NR_GROUPS + g) and gtotal[g]: a request presents both read
  // addresses in the step that links, unlinks or reweighs a task (or moves it between
  // groups), the sums are written at the next edge. Requests are at least one cycle apart,
  // except SET_GROUP's two (steps 2 and 3, different words), so a request never reads a
  // word still pending (asserted below). LCU_STAT reads in step 1 and answers in step 2;
  // the word pending in its step 1 (the previous command's last update) is forwarded.
  wire          gu_req   = upd || setw_upd || setg_old || setg_new;
  wire [GW-1:0] gu_g     = setg_new ? g_new : grp_u;
  // +w at a link and at the new group, -w at an unlink and the old group, the change for
  // SET_WEIGHT: w_delta, with the new group's +w apart
  wire [LDW-1:0] gu_dlt  = setg_new ? w_ext : w_delta;
  wire [GW-1:0] g_a      = ctl_i[`HWS_C_LCU] ? g_lcu : gu_g;
  wire [31:0]   gl_a_full = ({{(32-CW){1'b0}}, f_cpu_i} * NR_GROUPS32) + {{(32-GW){1'b0}}, g_a};
  wire [GLAW-1:0] gl_a   = gl_a_full[GLAW-1:0];
  // LCU_STAT's word (c, g) straight from the command: its valid bit and forwarding compare
  // are registered from it every cycle.
  wire [31:0]   lcu_la_full = ({{(32-CW){1'b0}}, c_i} * NR_GROUPS32) + {{(32-GW){1'b0}}, g_lcu};
  wire [GLAW-1:0] lcu_la = lcu_la_full[GLAW-1:0];
  reg             gu_pend_q;
  reg [GLAW-1:0]  gu_la_q;
  reg [GW-1:0]    gu_ga_q;
  reg [LDW-1:0]   gu_dlt_q;
  wire [GLD-1:0]  gl_vld_q;         // hws_flags u_gl_vld
  wire [NR_GROUPS-1:0] gt_vld_q;    // hws_flags u_gt_vld
  wire [LDW-1:0]  gl_rd, gt_rd;
  // (an invalid word reads 0: the sum is the delta alone; the valid bit picks between the
  // two after the adder instead of feeding it)
  wire [LDW-1:0]  gl_base, gt_base;   // the words read (PIPE = 1: or the one pending)
  wire            gl_fwv, gt_fwv;     // ... forwarded (then valid)
  wire [LDW-1:0]  gl_add = gl_base + gu_dlt_q;
  wire [LDW-1:0]  gt_add = gt_base + gu_dlt_q;
  wire [LDW-1:0]  gl_wd  = (gl_fwv || gl_vld_q[gu_la_q]) ? gl_add : gu_dlt_q;
  wire [LDW-1:0]  gt_wd  = (gt_fwv || gt_vld_q[gu_ga_q]) ? gt_add : gu_dlt_q;
  hws_ram #(.DEPTH((GLD > 1) ? GLD : 2), .WIDTH(LDW), .AW(GLAW)) u_gl (
    .clk_i(clk_i), .we_i(gu_pend_q), .waddr_i(gu_la_q), .wdata_i(gl_wd),
    .raddr_i(gl_a), .rdata_o(gl_rd)
`ifdef FORMAL
    , .f_mem_o(f_glm)
`endif
  );
  hws_ram #(.DEPTH((NR_GROUPS > 1) ? NR_GROUPS : 2), .WIDTH(LDW), .AW(GW)) u_gt (
    .clk_i(clk_i), .we_i(gu_pend_q), .waddr_i(gu_ga_q), .wdata_i(gt_wd),
    .raddr_i(g_a), .rdata_o(gt_rd)
`ifdef FORMAL
    , .f_mem_o(f_gtm)
`endif
  );
`ifdef FORMAL
  wire [((GLD > 1) ? GLD : 2)*LDW-1:0]             f_glm;
  wire [((NR_GROUPS > 1) ? NR_GROUPS : 2)*LDW-1:0] f_gtm;
`endif
  // LCU_STAT: forwarding of the word written at the edge that ends its step 1 (the valid
  // bits of the words read in step 1 are registered with them: lcu_vl_q, lcu_vt_q)
  // PIPE = 1 (docs/accelerator.md 7): the last steps of two overlapped commands fall on
  // consecutive cycles, so two group updates of one word can follow each other: the read
  // of the second misses the first's write (at the same edge), and the pending sum is
  // forwarded to it instead. The retiring command's swc_q and tv_q are copied at an
  // overlapping pop (opop_i), the newcomer's replace them.
  generate
    if (PIPE != 0) begin : g_pipe
      reg           gl_fw_q, gt_fw_q, swc_ret_q, tv_ret_q;
      reg [LDW-1:0] gl_fd_q, gt_fd_q;
      always @(posedge clk_i) begin
        gl_fw_q <= gu_pend_q && gu_req && (gu_la_q == gl_a);
        gt_fw_q <= gu_pend_q && gu_req && (gu_ga_q == gu_g);
        gl_fd_q <= gl_wd;
        gt_fd_q <= gt_wd;
        if (opop_i) begin
          swc_ret_q <= swc_q;
          tv_ret_q  <= tv_q;
        end
      end
      assign gl_fwv   = gl_fw_q;
      assign gt_fwv   = gt_fw_q;
      assign gl_base  = gl_fw_q ? gl_fd_q : gl_rd;
      assign gt_base  = gt_fw_q ? gt_fd_q : gt_rd;
      assign swap_c_o = two_i ? swc_ret_q : swc_q;
      assign tv_o     = two_i ? tv_ret_q : tv_q;
    end else begin : g_serial
      assign gl_fwv   = 1'b0;
      assign gt_fwv   = 1'b0;
      assign gl_base  = gl_rd;
      assign gt_base  = gt_rd;
      assign swap_c_o = swc_q;
      assign tv_o     = tv_q;
      wire unused_pipe = &{1'b0, two_i, opop_i};
    end
  endgenerate

  reg            lcu_fl_q, lcu_ft_q, lcu_vl_q, lcu_vt_q;
  reg [LDW-1:0]  lcu_gl_q, lcu_gt_q;
  always @(posedge clk_i) begin
    if (srst_i) gu_pend_q <= 1'b0;
    else        gu_pend_q <= gu_req;
  end
  hws_flags #(.N(GLD), .AW(GLAW)) u_gl_vld (
    .clk_i(clk_i), .srst_i(srst_i), .we_i(gu_pend_q), .waddr_i(gu_la_q), .wdata_i(1'b1),
    .q_o(gl_vld_q)
  );
  hws_flags #(.N(NR_GROUPS), .AW(GW)) u_gt_vld (
    .clk_i(clk_i), .srst_i(srst_i), .we_i(gu_pend_q), .waddr_i(gu_ga_q), .wdata_i(1'b1),
    .q_o(gt_vld_q)
  );

  // ---------------------------------------------------------------------------------------
  // hist[c]: the decayed load of the command's CPU. It never exceeds the largest load, so
  // LDW bits hold it; the sum takes one more bit, so the halving is exact. One flat
  // register, hist of CPU x at [x*LDW +: LDW] (a flat vector costs Verilator nothing to
  // pass; read for one CPU through the array view hist_cpu).
  wire [LDW-1:0] hist_c   = hist_cpu[c_yng_i];
  wire [LDW:0]   hist_sum = {1'b0, hist_c} + {1'b0, load_c};
  wire           tick_we  = ok1_i && ctl_i[`HWS_C_TICK];
  integer hx;
  always @(posedge clk_i) begin
    if (srst_i) hist_all <= {NR_CPUS*LDW{1'b0}};
    else if (tick_we) begin
      for (hx = 0; hx < NR_CPUS; hx = hx + 1)
        if (c_i == hx[CW-1:0]) hist_all[hx*LDW +: LDW] <= hist_sum[LDW:1];
    end
  end

  // idle[c]
  reg [NR_CPUS-1:0] idle_q;
  always @(posedge clk_i) begin
    if (srst_i) idle_q <= {NR_CPUS{1'b0}};
    else if (ok1_i && ctl_i[`HWS_C_IDLE]) idle_q[c_i] <= array_i;
  end

  // The load or history of one CPU, f_cpu, changes at this edge (a load write, or
  // LOAD_TICK in step 1, where f_cpu = c): hws_balance keeps its block sums from these.
  wire [LDW-1:0] hist_f   = hist_cpu[f_cpu_i];
  reg  [5:0]     gs_cpu6;
  always @* begin
    gs_cpu6 = 6'd0;
    gs_cpu6[CW-1:0] = f_cpu_i;
  end

  // ---------------------------------------------------------------------------------------
  // Registers without reset
  always @(posedge clk_i) begin
    if (start_i) begin
      swc_q <= swap_all[c_in] ^ (swap_flip && (c_i == c_in));
      tv_q  <= !t_in_bad && ((grp_we && (t_i == t_in[TW-1:0])) || grp_vld_q[t_in[TW-1:0]]);
    end
    if (ctl_yng_i[`HWS_S_WL_LD]) wl_q <= wl_rom;   // weight(PRIO), or of PICK_NEXT's prio
    gu_la_q  <= gl_a;
    gu_ga_q  <= gu_g;
    gu_dlt_q <= gu_dlt;
    lcu_fl_q <= gu_pend_q && (gu_la_q == lcu_la);
    lcu_vl_q <= gl_vld_q[lcu_la];
    lcu_vt_q <= gt_vld_q[g_lcu];
    lcu_ft_q <= gu_pend_q && (gu_ga_q == g_lcu);
    lcu_gl_q <= gl_wd;
    lcu_gt_q <= gt_wd;
  end

  assign ne_o        = ne_all;
  assign nr_o        = nr_all;
  assign load_o      = load_all;
  assign hist_o      = hist_all;
  assign idle_o      = idle_q;
  assign swap_o      = swap_all;
  assign swap_c_yng_o  = swc_q;
  assign wl_o        = wl_q;
  assign f_weight_o  = f_weight;
  assign grp_u_o     = grp_u;
  assign gl_lcu_o    = lcu_fl_q ? lcu_gl_q : lcu_vl_q ? gl_rd : {LDW{1'b0}};
  assign gt_lcu_o    = lcu_ft_q ? lcu_gt_q : lcu_vt_q ? gt_rd : {LDW{1'b0}};
  assign load_c_o    = load_c;
  assign hist_c_o    = hist_c;
  assign nr_c0_o     = nr_cpu[c_yng_i][0 +: NRW];
  assign nr_c1_o     = nr_cpu[c_yng_i][NRW +: NRW];
  assign upd_o       = load_we || tick_we;
  assign upd_cpu_o   = gs_cpu6;
  assign upd_n_old_o = load_f;
  assign upd_n_new_o = load_we ? load_new : load_f;
  assign upd_h_old_o = hist_f;
  assign upd_h_new_o = tick_we ? hist_sum[LDW:1] : hist_f;

`ifdef FORMAL
  assign f_gvld_o = grp_vld_q;
  genvar f_g;
  generate
    for (f_g = 0; f_g < GLD; f_g = f_g + 1) begin : g_f_gl
      localparam [31:0] FG32 = f_g;
      assign f_gl_o[f_g*LDW +: LDW] = (gu_pend_q && (gu_la_q == FG32[GLAW-1:0])) ? gl_wd :
                                      gl_vld_q[f_g] ? f_glm[f_g*LDW +: LDW] : {LDW{1'b0}};
    end
    for (f_g = 0; f_g < NR_GROUPS; f_g = f_g + 1) begin : g_f_gt
      localparam [31:0] FG32 = f_g;
      assign f_gt_o[f_g*LDW +: LDW] = (gu_pend_q && (gu_ga_q == FG32[GW-1:0])) ? gt_wd :
                                      gt_vld_q[f_g] ? f_gtm[f_g*LDW +: LDW] : {LDW{1'b0}};
    end
  endgenerate
  wire f_unused_loads = &{1'b0, f_glm, f_gtm};
  // Auxiliary invariants of hws_rq_engine's proof (formal/proofs.list eng_inv_*): tv_q,
  // latched at the pop, is grp_vld[t] in every step of the command; the group update
  // unit never reads a word whose sum is still to be written.
`define HWS_F_RESET srst_i
`include "hws_formal_env.vh"
  wire f_running = (ctl_i[`HWS_CTL_W-1:`HWS_C_W] != {(`HWS_CTL_W - `HWS_C_W){1'b0}});
  always @(*) begin
    if (f_past_valid && !srst_i && f_running)
      assert (tv_q == (({1'b0, task_i} < NR_TASKS32[12:0]) && grp_vld_q[t_i]));
    if (f_past_valid && !srst_i && gu_req && gu_pend_q)
      assert (gu_la_q != gl_a && gu_ga_q != gu_g);
  end
`endif

  // Bits that some configurations do not need, and the fields this module does not read.
  wire unused_bits = &{1'b0, ctl_yng_i, w32, wn32, gl_a_full, lcu_la_full, cf_in, hist_sum[0], task_i,
                       prio_i, cmd_i, ctl_i};

  // ---------------------------------------------------------------------------------------
  // Simulation-only checks: swc_q and tv_q, latched at the pop, are swap[c] and grp_vld[t]
  // in every step of the command; the group update unit never reads a word whose sum is
  // still to be written.
`ifndef SYNTHESIS
`ifndef FORMAL   // ($fatal in an always block: simulation only)
  wire        running = (ctl_i[`HWS_CTL_W-1:`HWS_C_W] != {(`HWS_CTL_W - `HWS_C_W){1'b0}});
  always @(posedge clk_i) begin
    if (!srst_i && running && (swap_c_o != swap_all[c_i])) begin
      $display("hws_eng_loads: INVARIANT FAILED at %0t: swc_q %0d, swap[%0d] %0d",
               $time, swap_c_o, c_i, swap_all[c_i]);
      $fatal(1, "hws_eng_loads: swc_q differs from the command CPU's swap");
    end
    if (!srst_i && running && (tv_o != (({1'b0, task_i} >= NR_TASKS32[12:0]) ? 1'b0 : grp_vld_q[t_i]))) begin
      $display("hws_eng_loads: INVARIANT FAILED at %0t: tv_q %0d, grp_vld[%0d] %0d",
               $time, tv_o, t_i, grp_vld_q[t_i]);
      $fatal(1, "hws_eng_loads: tv_q differs from grp_vld[t]");
    end
    if (PIPE == 0 && !srst_i && gu_req && gu_pend_q && ((gu_la_q == gl_a) || (gu_ga_q == gu_g))) begin
      $display("hws_eng_loads: INVARIANT FAILED at %0t: group update of word %0d / group %0d while the same word is pending",
               $time, gl_a, gu_g);
      $fatal(1, "hws_eng_loads: group update hazard");
    end
  end
`endif
`endif
endmodule

`default_nettype wire
