// hws_eng_lists: the engine's run lists (part of hws_rq_engine).
//
// Owns: the task table tt[t] = {ht index, weight(prio), phys array, prio, cpu} (the ht
// index in its own RAM, u_hti); next[t], prev[t]; ht[{prio[7], cpu, phys, prio[6:0]}] = {head, tail}, one word per list, in two
// block RAMs (prio 0..127 in u_ht at {a, prio[6:0]}, prio 128..139 in u_hth at
// {a, prio[3:0]}; the registered top bit of the index picks the word); queued[t]
// (hws_flags, reset clears); and the registers a list operation decides a step early:
// the held ht address, a move's new list (hnew_q, bnew_q), whether PICK_NEXT's list has one
// task (pk_one_q), whether t is its list's head and tail (uh_q, ut_q), queued[t] of the
// command's task (qt_q), the ht index of the command's task read at the pop (hti_e).
//
// RAM is never cleared: a list is non-empty iff its bitmap bit is set (hws_eng_bitmap, f_ne_i),
// its head is the task h with ht.head == h, its tail the one with ht.tail == t; the prev of
// a head and the next of a tail are never read. Every RAM has one synchronous read port and
// one write port, each written at most once per cycle.
//
// Timing (fields of the control word ctl_i): the ht read address is presented in the step
// that reads a list (S_HT_*) and held otherwise, so a list's write address is the held read
// address; its word is used in the next step. tt, prev and next are read at the command's
// task t from the pop on (next also at PICK_NEXT's head in its step 3, S_NX_HEAD); u_hti at
// the FIFO head's task, so the old list of DEQUEUE and the moves is read in step 1 and
// their unlink (step 3) takes registered head/tail compares (uh_q, ut_q). An
// unlink (S_UNL_T, S_UNL_H) or link (S_LINK) writes ht, next, prev, tt at the end of its
// step, and queued for ENQUEUE, DEQUEUE and PICK_NEXT. qt_q is registered at the pop edge
// from the FIFO head, forwarding that edge's own write, and holds for the whole command.
`default_nettype none
`include "hws_eng_ctl.vh"

module hws_eng_lists #(
  parameter integer NR_CPUS  = 8,    // CPUs, 1..64
  parameter integer NR_TASKS = 256,  // task table entries, 1..4096
  // Derived: leave them at their defaults. WGTW must be HWS_WEIGHT_W (checked below).
  parameter integer TW   = (NR_TASKS > 1) ? $clog2(NR_TASKS) : 1,  // task pointer width
  parameter integer CW   = (NR_CPUS > 1) ? $clog2(NR_CPUS) : 1,    // cpu index width
  parameter integer AIW  = CW + 1,                                 // array index {cpu, phys}
  parameter integer HTAW = AIW + 8,                                // ht index {p[7], a, p[6:0]}
  parameter integer WGTW = 18                                      // a load weight
) (
  input  wire                  clk_i,
  input  wire                  srst_i,     // synchronous reset: every task not queued
  input  wire [`HWS_CTL_W-1:0] ctl_i,      // the control word (hws_eng_seq's retiring view:
                                           // the links, unlinks and their writes)
  input  wire [`HWS_CTL_W-1:0] ctl_yng_i,    // the youngest command's (the read addresses; with
                                           // PIPE = 0 the same word)
  input  wire                  start_i,    // pop edge: qt_q samples cmd_i's task
  input  wire [31:0]           cmd_i,      // the command FIFO's head
  input  wire [11:0]           task_i,     // the command's TASK field (retiring view)
  input  wire [11:0]           task_yng_i,   // ... the youngest command's (read addresses)
  // The youngest command's fields (they form read addresses; the moves are serial):
  input  wire [CW-1:0]         c_i,        // the command's CPU
  input  wire [7:0]            prio_i,     // the command's PRIO field
  input  wire                  array_i,    // the command's ARRAY field (logical)
  input  wire                  swap_c_i,   // swap[c] of the command's CPU
  input  wire [NR_CPUS-1:0]    swap_i,     // every CPU's swap flag
  input  wire [HTAW-1:0]       pk_ht_i,    // the list PICK_NEXT/PEEK found (step 2)
  input  wire                  pk_none_i,  // PICK_NEXT found no task
  input  wire                  f_ne_i,     // the focus list is non-empty (its bitmap bit)
  input  wire [CW-1:0]         f_cpu_i,    // the focus list (the list linked into)
  input  wire                  f_phys_i,
  input  wire [7:0]            f_prio_i,
  input  wire [WGTW-1:0]       wl_i,       // weight(PRIO) (hws_eng_loads' wl_q)
  output wire [CW-1:0]         tt_cpu_o,   // the task's entry, read at t
  output wire [7:0]            tt_prio_o,
  output wire                  tt_phys_o,
  output wire [WGTW-1:0]       tt_wgt_o,   // weight(tt_prio), kept beside the entry
  output wire                  swap_o_o,   // swap of the task's CPU
  output wire [TW-1:0]         ht_h_o,     // head of the list read
  output wire                  link_o,     // this edge links t into the focus list
  output wire                  unlink_o,   // ... unlinks u_task_o from its list
  output wire [TW-1:0]         u_task_o,   // the task u of the youngest command: t, or
                                           // PICK_NEXT's head (grp's read address)
  output wire                  u_empty_o,  // the unlink empties the list
  output wire [TW-1:0]         nx_raddr_o, // next's read address (wt is read there too)
  output wire [AIW+3:0]        bnew_o,     // a move's new list {array, prio[7:4]} (bnew_q)
  output wire [NR_TASKS-1:0]   queued_o /*verilator public_flat_rd*/,   // queued[t] of every task
  output wire                  q_t_o,      // queued[t] of the command's task (qt_q)
  output wire                  q_head_o    // queued[t] of cmd_i's task just after this edge
                                           // (qt_q's D input)
`ifdef FORMAL
  ,
  // formal only: the RAMs' words, for hws_rq_engine's invariants
  output wire [(1 << TW)*(CW + 9 + WGTW + HTAW)-1:0] f_tt_o,
  output wire [(1 << TW)*TW-1:0]                     f_nx_o,
  output wire [(1 << TW)*TW-1:0]                     f_pv_o,
  output wire [2*NR_CPUS*128*2*TW-1:0]               f_ht_o,
  output wire [2*NR_CPUS*16*2*TW-1:0]                f_hth_o
`endif
);
  /* verilator lint_off UNUSEDPARAM */
`include "hws_regs.vh"
  /* verilator lint_on UNUSEDPARAM */

  localparam integer NARR = 2 * NR_CPUS;                           // physical arrays
  localparam integer TTW  = CW + 9;                                // tt word {phys, prio, cpu}
  localparam integer HLD  = NARR * 128;                            // u_ht words (prio 0..127)
  localparam integer HHD  = NARR * 16;                             // u_hth words (prio 128..143)
  localparam integer HLAW = $clog2(HLD);                           // AIW + 7 (AIW + 6 at
  localparam integer HHAW = $clog2(HHD);                           // NR_CPUS = 1), AIW + 4 (+ 3)
  localparam integer TDEP = 1 << TW;                               // task RAM depth (>= 2)
  localparam [31:0]  NR_TASKS32 = NR_TASKS;
`ifndef __ICARUS__
  generate
    if (WGTW != HWS_WEIGHT_W || TW != ((NR_TASKS > 1) ? $clog2(NR_TASKS) : 1) ||
        CW != ((NR_CPUS > 1) ? $clog2(NR_CPUS) : 1) || AIW != CW + 1 || HTAW != AIW + 8) begin : g_bad_param
      $error("hws_eng_lists: a derived parameter was set (WGTW=%0d TW=%0d CW=%0d)", WGTW, TW, CW);
    end
  endgenerate
`endif

  wire          s3  = ctl_i[`HWS_S_3];
  wire [TW-1:0] t_i = task_i[TW-1:0];       // the command's task
  wire [TW-1:0] t_yng = task_yng_i[TW-1:0];     // the youngest command's task

  // ht index of list (a, p): {p[7], a, p[6:0]} (p[6:4] is 0 when p[7] is set)
  function automatic [HTAW-1:0] ht_idx(input [AIW-1:0] a, input [7:0] p);
    ht_idx = {p[7], a, p[6:0]};
  endfunction

  // RAM read data
  wire [TTW-1:0]  tt_rd;
  wire [WGTW-1:0] tt_wgt;
  wire [2*TW-1:0] ht_rd;
  wire [TW-1:0]   nx_rd, pv_rd;
  wire [CW-1:0]   tt_cpu  = tt_rd[CW-1:0];
  wire [7:0]      tt_prio = tt_rd[CW +: 8];
  wire            tt_phys = tt_rd[CW + 8];
  wire [TW-1:0]   ht_h    = ht_rd[TW +: TW];
  wire [TW-1:0]   ht_t    = ht_rd[0 +: TW];
  wire            swap_o  = swap_i[tt_cpu];          // swap of a task's old CPU

  // ---------------------------------------------------------------------------------------
  // The ht index of a task's list, stored at its link (u_hti, beside its entry in u_tt) and
  // read at the command FIFO's head, so that at the pop edge it reads the index of the
  // command's own task and hti_e holds it in step 1. A link at the pop edge (the last step
  // of the command before) that writes the same task's index is forwarded (hfw_q): the
  // RAM's word read at its own write edge is undefined.
  wire [11:0]     t_in     = cmd_i[HWS_CMD_TASK_LSB +: HWS_CMD_TASK_W];   // the head's task
  wire [TW-1:0]   t_head   = t_in[TW-1:0];
  wire [HTAW-1:0] hti_rd;
  reg             hfw_q;
  reg  [HTAW-1:0] hfw_d_q;
  wire [HTAW-1:0] hti_e    = hfw_q ? hfw_d_q : hti_rd;

  // ht read address. It comes from registers or straight from a RAM word, not through the
  // focus-list multiplexer: ENQUEUE (step 1) from the command; PICK_NEXT/PEEK (step 2) the
  // list the bitmap search found; the old list of DEQUEUE and the moves (step 1) from
  // hti_e, the index stored at the task's link and read at the pop; the new list of a move
  // (step 4) from hnew_q, formed in step 3 from the entry and the command.
  reg  [HTAW-1:0] ht_addr_q, hnew_q;
  reg  [AIW+3:0]  bnew_q;
  wire [AIW-1:0]  enq_arr  = {c_i, array_i ^ swap_c_i};   // ENQUEUE's list
  wire [HTAW-1:0] ht_raddr = !ctl_yng_i[`HWS_S_HT_RD] ? ht_addr_q :
                             ctl_yng_i[`HWS_S_HT_ENQ] ? ht_idx(enq_arr, prio_i) :
                             ctl_yng_i[`HWS_S_HT_PK]  ? pk_ht_i :
                             ctl_yng_i[`HWS_S_HT_OLD] ? hti_e : hnew_q;
  // The new list of a move: MIGRATE keeps the logical array on the command's CPU, SET_PRIO
  // takes the command's priority, REQUEUE the same list. Taken whole a step later (hnew_q,
  // bnew_q), as MIGRATE's array needs the swap flags of two CPUs.
  wire [AIW-1:0]  nl_arr  = ctl_i[`HWS_C_MIGR] ? {c_i, tt_phys ^ swap_o ^ swap_c_i}
                                               : {tt_cpu, tt_phys};
  wire [7:0]      nl_prio = ctl_i[`HWS_C_SETP] ? prio_i : tt_prio;

  wire [TW-1:0] nx_raddr = ctl_yng_i[`HWS_S_NX_HEAD] ? ht_h : t_yng;

  // Unlink (step 3 of DEQUEUE and moves, step 4 of PICK_NEXT with a task) of task u from
  // its list; link (step 2 of ENQUEUE, step 5 of moves) of t into the focus list.
  wire          unlink = ctl_i[`HWS_S_UNL_T] || (ctl_i[`HWS_S_UNL_H] && !pk_none_i);
  wire          link   = ctl_i[`HWS_S_LINK];
  wire          pick   = ctl_i[`HWS_C_PICK];
  wire [TW-1:0] u_task = pick ? ht_h : t_i;
  wire [TW-1:0] u_task_yng = ctl_yng_i[`HWS_C_PICK] ? ht_h : t_yng;
  // PICK_NEXT unlinks its list's head, and whether that is also the tail is registered in
  // step 3 (pk_one_q), so no compare sits after the ht read of its step 4. DEQUEUE and the
  // moves read their list in step 1 and unlink t in step 3: whether t is its head and its
  // tail is registered at every edge (uh_q, ut_q) from the word of step 2, the word of
  // step 3 too (the address is held and nothing writes ht in step 2).
  reg           pk_one_q, uh_q, ut_q;
  wire          u_is_h = pick || uh_q;
  wire          u_is_t = pick ? pk_one_q : ut_q;

  reg            ht_we, nx_we, pv_we;
  reg [2*TW-1:0] ht_wd;
  reg [TW-1:0]   nx_wa, nx_wd, pv_wa, pv_wd;
  always @* begin
    ht_we = 1'b0;  ht_wd = {ht_h, ht_t};
    nx_we = 1'b0;  nx_wa = nx_rd;  nx_wd = t_i;
    pv_we = 1'b0;  pv_wa = t_i;    pv_wd = ht_t;
    if (unlink) begin
      // p = prev[u] (pv_rd), n = next[u] (nx_rd); an emptied list only loses its bitmap bit.
      // Every RAM is written at an unlink, whatever u's place in its list, so that no write
      // enable waits for the compares of u with the head and the tail: where a pointer does
      // not change, the word is written back as read (ht) or u's own next/prev are (dead
      // words once u leaves its list: the next of a tail and the prev of a head are never
      // read, and a link rewrites what it needs).
      ht_we = 1'b1;
      nx_we = 1'b1;  nx_wa = u_task;  nx_wd = nx_rd;
      pv_we = 1'b1;  pv_wa = u_task;  pv_wd = pv_rd;
      if (u_is_h && !u_is_t) begin
        ht_wd = {nx_rd, ht_t};
      end else if (!u_is_h && u_is_t) begin
        ht_wd = {ht_h, pv_rd};
      end else if (!u_is_h && !u_is_t) begin
        nx_wa = pv_rd;
        pv_wa = nx_rd;
      end
    end else if (link) begin
      ht_we = 1'b1;
      if (!f_ne_i) begin
        ht_wd = {t_i, t_i};
      end else if (ctl_i[`HWS_C_HEAD]) begin
        ht_wd = {t_i, ht_t};
        nx_we = 1'b1;  nx_wa = t_i;   nx_wd = ht_h;
        pv_we = 1'b1;  pv_wa = ht_h;  pv_wd = t_i;
      end else begin
        ht_wd = {ht_h, t_i};
        nx_we = 1'b1;  nx_wa = ht_t;  nx_wd = t_i;
        pv_we = 1'b1;  pv_wa = t_i;   pv_wd = ht_t;
      end
    end
  end

  // (No RAM write enable here waits for srst_i: a word is read only while a flop the reset
  // clears vouches for it, docs/accelerator.md section 2; srst_i comes late in the cycle.)
  // tt[t] = {ht index, weight(prio), phys, prio, cpu} in two RAMs: u_tt {weight(prio),
  // phys, prio, cpu} read at t, u_hti the ht index read at the FIFO head (above), both
  // written at the link. ENQUEUE and SET_PRIO link at the command's PRIO (weight wl_i),
  // REQUEUE and MIGRATE at the task's own (tt_wgt, unchanged); the ht index is the held
  // one at the link.
  wire [WGTW-1:0] tt_wgt_wd = ctl_i[`HWS_C_TTW] ? wl_i : tt_wgt;
`ifdef FORMAL
  wire [TDEP*(TTW + WGTW)-1:0] f_tt_lo;
  wire [TDEP*HTAW-1:0]         f_hti;
`endif
  hws_ram #(.DEPTH(TDEP), .WIDTH(TTW + WGTW), .AW(TW)) u_tt (
    .clk_i(clk_i), .we_i(link), .waddr_i(t_i),
    .wdata_i({tt_wgt_wd, f_phys_i, f_prio_i, f_cpu_i}),
    .raddr_i(t_yng), .rdata_o({tt_wgt, tt_rd})
`ifdef FORMAL
    , .f_mem_o(f_tt_lo)
`endif
  );
  hws_ram #(.DEPTH(TDEP), .WIDTH(HTAW), .AW(TW)) u_hti (
    .clk_i(clk_i), .we_i(link), .waddr_i(t_i), .wdata_i(ht_addr_q),
    .raddr_i(t_head), .rdata_o(hti_rd)
`ifdef FORMAL
    , .f_mem_o(f_hti)
`endif
  );
`ifdef FORMAL
  genvar f_gt;
  generate
    for (f_gt = 0; f_gt < TDEP; f_gt = f_gt + 1) begin : g_f_tt
      assign f_tt_o[f_gt*(TTW + WGTW + HTAW) +: TTW + WGTW + HTAW] =
          {f_hti[f_gt*HTAW +: HTAW], f_tt_lo[f_gt*(TTW + WGTW) +: TTW + WGTW]};
    end
  endgenerate
`endif
  hws_ram #(.DEPTH(TDEP), .WIDTH(TW), .AW(TW)) u_nx (
    .clk_i(clk_i), .we_i(nx_we), .waddr_i(nx_wa), .wdata_i(nx_wd),
    .raddr_i(nx_raddr), .rdata_o(nx_rd)
`ifdef FORMAL
    , .f_mem_o(f_nx_o)
`endif
  );
  hws_ram #(.DEPTH(TDEP), .WIDTH(TW), .AW(TW)) u_pv (
    .clk_i(clk_i), .we_i(pv_we), .waddr_i(pv_wa), .wdata_i(pv_wd),
    .raddr_i(t_yng), .rdata_o(pv_rd)
`ifdef FORMAL
    , .f_mem_o(f_pv_o)
`endif
  );
  // ht in two RAMs by prio[7] (the index's top bit): u_ht for prio 0..127, u_hth for
  // 128..139. Both are read at every edge; the registered top bit of the read index picks
  // the word.
  wire            ht_w_hi = ht_addr_q[HTAW-1];
  wire [2*TW-1:0] htl_rd, hth_rd;
  reg             ht_hi_q;
  wire [AIW+6:0]  htl_wa = ht_addr_q[AIW+6:0];
  wire [AIW+6:0]  htl_ra = ht_raddr[AIW+6:0];
  wire [AIW+3:0]  hth_wa = {ht_addr_q[AIW+6:7], ht_addr_q[3:0]};
  wire [AIW+3:0]  hth_ra = {ht_raddr[AIW+6:7], ht_raddr[3:0]};
  hws_ram #(.DEPTH(HLD), .WIDTH(2*TW), .AW(HLAW)) u_ht (
    .clk_i(clk_i), .we_i(ht_we && !ht_w_hi), .waddr_i(htl_wa[HLAW-1:0]),
    .wdata_i(ht_wd), .raddr_i(htl_ra[HLAW-1:0]), .rdata_o(htl_rd)
`ifdef FORMAL
    , .f_mem_o(f_ht_o)
`endif
  );
  hws_ram #(.DEPTH(HHD), .WIDTH(2*TW), .AW(HHAW)) u_hth (
    .clk_i(clk_i), .we_i(ht_we && ht_w_hi), .waddr_i(hth_wa[HHAW-1:0]),
    .wdata_i(ht_wd), .raddr_i(hth_ra[HHAW-1:0]), .rdata_o(hth_rd)
`ifdef FORMAL
    , .f_mem_o(f_hth_o)
`endif
  );
  always @(posedge clk_i) ht_hi_q <= ht_raddr[HTAW-1];
  assign ht_rd = ht_hi_q ? hth_rd : htl_rd;

  // queued: set by ENQUEUE, cleared by DEQUEUE and PICK_NEXT, kept by moves
  wire          q_we  = (link && ctl_i[`HWS_C_ENQ]) ||
                        (unlink && (ctl_i[`HWS_C_DEQ] || pick));
  wire [NR_TASKS-1:0] queued_q;
  hws_flags #(.N(NR_TASKS), .AW(TW)) u_queued (
    .clk_i(clk_i), .srst_i(srst_i), .we_i(q_we), .waddr_i(u_task), .wdata_i(link),
    .q_o(queued_q)
  );

  // queued[t] of the command's task, registered at the pop edge from the command word then
  // at the FIFO head (qt_q): the select of queued_q runs in the cycle before step 1, in
  // parallel with the command before, whose own write at that edge is forwarded. A command's
  // own task changes queued only at its last edge, so qt_q holds for all its steps.
  reg           qt_q;
  wire          t_in_bad = ({1'b0, t_in} >= NR_TASKS32[12:0]);

  wire          q_head = !t_in_bad && ((q_we && (u_task == t_head)) ? link : queued_q[t_head]);

  always @(posedge clk_i) begin
    if (start_i)
      qt_q <= q_head;
    hfw_q     <= link && (t_i == t_head);
    hfw_d_q   <= ht_addr_q;
    uh_q      <= (ht_h == t_i);
    ut_q      <= (ht_t == t_i);
    ht_addr_q <= ht_raddr;
    hnew_q    <= ht_idx(nl_arr, nl_prio);       // used in step 4 of a move
    bnew_q    <= {nl_arr, nl_prio[7:4]};
    if (s3) pk_one_q <= (ht_t == ht_h);
  end

  assign tt_cpu_o   = tt_cpu;
  assign tt_prio_o  = tt_prio;
  assign tt_phys_o  = tt_phys;
  assign tt_wgt_o   = tt_wgt;
  assign swap_o_o   = swap_o;
  assign ht_h_o     = ht_h;
  assign link_o     = link;
  assign unlink_o   = unlink;
  assign u_task_o   = u_task_yng;
  assign u_empty_o  = u_is_h && u_is_t;
  assign nx_raddr_o = nx_raddr;
  assign bnew_o     = bnew_q;
  assign queued_o   = queued_q;
  assign q_t_o      = qt_q;
  assign q_head_o   = q_head;

  // Bits that some configurations do not need, and the fields this module does not read.
  wire unused_bits = &{1'b0, htl_wa, htl_ra, hth_wa, hth_ra, cmd_i, task_i, task_yng_i, ctl_i,
                       ctl_yng_i};

  // ---------------------------------------------------------------------------------------
  // Simulation-only checks: qt_q is queued[t] in every step of the command (the command's
  // own task changes only at its last edge); an unlink of t is from the list its entry
  // names (read through hti_e in step 1), with uh_q and ut_q the compares of the word it
  // rewrites; in the steps that link into a move's new list
  // (S_FN) bnew_q still names its array.
`ifndef SYNTHESIS
`ifndef FORMAL   // ($fatal in an always block: simulation only)
  // (a command runs while any step field is set: every step of every command has one)
  always @(posedge clk_i) begin
    // (PICK_NEXT, PEEK and CPU_STAT do not read it: their TASK field is no task, and with
    // PIPE = 1 an older command may link it after their pop)
    if (!srst_i && (ctl_yng_i[`HWS_CTL_W-1:`HWS_C_W] != {(`HWS_CTL_W - `HWS_C_W){1'b0}}) &&
        !ctl_yng_i[`HWS_C_PK] && !ctl_yng_i[`HWS_C_RS + 1] &&
        (qt_q != (({1'b0, task_yng_i} >= NR_TASKS32[12:0]) ? 1'b0 : queued_q[t_yng]))) begin
      $display("hws_eng_lists: INVARIANT FAILED at %0t: qt_q %0d, queued[%0d] %0d",
               $time, qt_q, t_yng, queued_q[t_yng]);
      $fatal(1, "hws_eng_lists: qt_q differs from queued[t]");
    end
    if (!srst_i && ctl_i[`HWS_S_UNL_T] &&
        ((ht_addr_q != ht_idx({tt_cpu, tt_phys}, tt_prio)) ||
         (uh_q != (ht_h == t_i)) || (ut_q != (ht_t == t_i)))) begin
      $display("hws_eng_lists: INVARIANT FAILED at %0t: unlink of %0d from ht %0d (entry's %0d), head %0d/%0d tail %0d/%0d",
               $time, t_i, ht_addr_q, ht_idx({tt_cpu, tt_phys}, tt_prio), uh_q, ht_h == t_i,
               ut_q, ht_t == t_i);
      $fatal(1, "hws_eng_lists: an unlink's list or its registered head/tail compares");
    end
    if (!srst_i && ctl_i[`HWS_S_FN] && (bnew_q[AIW+3:4] != nl_arr)) begin
      $display("hws_eng_lists: INVARIANT FAILED at %0t: bnew_q array %0d, new list's %0d",
               $time, bnew_q[AIW+3:4], nl_arr);
      $fatal(1, "hws_eng_lists: bnew_q is not the new list's array");
    end
  end
`endif
`endif
endmodule

`default_nettype wire
