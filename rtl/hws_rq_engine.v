// hws_rq_engine: the run queues of hwsched and the sequencer that executes one command.
//
// State (docs/accelerator.md section 2):
//   per CPU c:            swap[c], load[c]                     flip-flops
//   per physical array:   9-bit bitmap summary, task count nr  flip-flops
//   bitmaps bm[a*16 + k]  = bits 16k+15..16k of array a's bitmap RAM, 9 words per array
//                                                              (k = 0..8; 7 unused)
//   per task t:           queued[t]                            flip-flops (hws_flags; reset clears)
//   task table  tt[t]  = {ht index, weight(prio), phys array, prio, cpu} RAM, by task
//   weight table wt[t] = {weight(wprio), wfix, wprio} (SET_WEIGHT) RAM, indexed by task
//   next[t], prev[t]                                           RAM, indexed by task
//   ht[{prio[7], cpu, phys, prio[6:0]}] = {head, tail}         RAM, one word per list, in
//                         two block RAMs: prio 0..127 at {a, prio[6:0]} (u_ht), prio
//                         128..139 at {a, prio[3:0]} (u_hth); the address is a
//                         concatenation, and the read data passes one 2:1 multiplexer
//                         (one RAM of 144 words per array took a 9:1 one)
// RAM is never cleared: a list is non-empty iff its bitmap bit is set, its head is the task
// h with ht.head == h, its tail the one with ht.tail == t; the prev of a head and the next
// of a tail are never read. Every RAM has one synchronous read port and one write port,
// and each is written at most once per cycle.
//
// Bitmaps (docs/accelerator.md section 2): the 140-bit bitmap of physical array a = cpu*2 +
// phys is 9 words of 16 bits in the RAM bm, word k (bits 16k+15..16k; bits 140..143 of word
// 8 are always 0) at address a*16 + k (a concatenation: no adder; words 9..15 of each array
// are never written). Summary bit sm[a][k] (flops, reset clears) is set iff word k is
// non-zero; a word whose summary bit is clear is not trusted and reads as 0, so the RAM
// needs no reset. Find-first-set is two-level: FFS over the 9 summary bits, read that word,
// FFS over its 16 bits. A link/unlink that changes a bitmap bit rewrites the word it read
// in an earlier step of the same command (at the step that reads the list's ht entry, at
// address (f_arr, f_prio>>4)) and sets sm[a][k] = (new word != 0). Every word is written at
// the end of a step and read at a later edge: a word read at its own write edge (the held
// read address does that) is undefined in hws_ram and never used; the simulation returns
// it inverted, so lockstep would catch a use.
//
// A command is latched at its pop edge (start_i) and runs steps 1..L; "step k" is the
// cycle after the (k-1)-th edge following the pop, and the command completes at the edge
// ending step L (done_o). Checks are decided in step 1 (those on the command word
// alone evaluated on the FIFO head and registered at the pop, see check_fn); a failing command
// completes there with nothing changed. Step schedule (R = RAM read address presented,
// its data is used in the next step; W = RAM/flop write at the end of the step):
//
//   NOP        1: done
//   ENQUEUE    1: R ht[list], bm word       2: W link at head/tail, tt[t], bitmap word and
//                                              summary, nr, load, queued
//   DEQUEUE    1: R tt[t], next[t], prev[t] 2: R ht[old list], bm word
//              3: W unlink, bitmap word and summary, nr, load, queued
//   PICK_NEXT  1: FFS of the summary of the active (else expired) array, R bm[that word]
//              2: FFS16 of the word -> prio, R ht[that list]
//              3: R next[head], wt[head]    4: W unlink head, bitmap word and summary, nr,
//                                              load, queued, swap; result
//   PEEK       1, 2: as PICK_NEXT           3: result
//   REQUEUE,   1: R tt[t], next[t], prev[t] 2: R ht[old list], bm word
//   SET_PRIO,  3: W unlink from the old list, its bitmap word and summary, nr, load
//   MIGRATE    4: R ht[new list], bm word (after the unlink wrote)
//              5: W link at the tail of the new list, tt[t], its bitmap word and summary,
//                 nr, load
//   CPU_STAT   1: R bm[chunk] (every selector) 2: result from the flops or the word
//   TASK_STAT  1: R tt[t]                   2: result
//   LOAD_TICK  1: W hist[c] = (hist[c] + load[c]) >> 1
//   SET_GROUP  1: R tt[t], wt[t], grp[t]    2: if queued and the group changes, subtract
//                                              its weight from gload[cpu][old], gtotal[old]
//              3: ... and add it to gload[cpu][new], gtotal[new]; W grp[t], wt[t]
//                 (rewritten unchanged)
//   SET_WEIGHT 1: R tt[t], wt[t], grp[t];   2: if queued, latch weight(PRIO) - the old
//   (SET_GROUP    latch weight(PRIO)           weight
//    HEAD = 1)                              3: ... add it to load, gload and gtotal;
//                                              W wt[t] = {1, PRIO}, grp[t] (unchanged)
//   LCU_STAT   1: R gload[c][g], gtotal[g]  2: result (a group word pending at the edge
//                                              ending step 1 is forwarded)
//   SET_IDLE   1: W idle[c]
//   DOM_SET    1: W lead[k][c] (hws_domain, with its consistency flags), pct[l] or pw[l][c]
//   QUERY      1: DOMAIN check from the registered flags; kinds 0, 1: hws_domain latches
//                 the query's domain (one bit per CPU)   2: hws_domain computes IDLEST's
//                 winner and IDLE_CORE's candidate sets from it, load[], idle[] and
//                 lead[1][], latched            3: the answer from them; result
//              BALANCE (kind 2): 1: checks, then hws_balance runs; the command stays in
//                 step 2 until hws_balance's final cycle (8 + 2 max(2, ceil(log2
//                 NR_CPUS)) cycles in all, whatever the number of groups)
//
// Every flop update names one list at a time (the "focus" list f below); each array
// counts its tasks and each CPU adds its load for itself (one carry chain each, enabled
// by the focus list), so no multiplexer of the focus list's count or load sits before an
// adder.
//
// Load-comparison unit, first part (docs/accelerator.md section 8): grp[t], gload[c][g],
// gtotal[g] live in block RAM with a valid flop per word (reset clears the flops, an
// invalid word reads 0), hist[c] in one flat register (BALANCE reads every CPU's at once),
// idle[c] in flops. Group loads follow load[c]: at every edge that adds/subtracts the focus
// weight w to/from load[f_cpu] (link, unlink), the group update unit is asked to add the
// same +-w to gload[f_cpu][grp[u]] and gtotal[grp[u]], u being the task linked or
// unlinked; it reads both words in that cycle and writes the sums at the next edge, before
// anything can read them (LCU_STAT forwards the one case where it could). SET_GROUP of a
// queued task asks twice: -w for the old group in step 2, +w for the new one in step 3.
//
// Load weights (section 8, "Load weights"): a task weighs weight(wfix[t] ? wprio[t] : prio).
// wprio and wfix are kept in the block RAM wt, read at the same address as next (t, or the
// head PICK_NEXT unlinks), so every step that links, unlinks or reports a task has its word.
// The weights themselves are stored beside the priorities they belong to (in tt and wt), so
// the load adders take a RAM output or a register through one multiplexer, never a ROM.
// A RAM cannot be cleared at reset, so wt[t].wfix counts only while grp[t]'s valid bit in
// u_grp is set (a reset clears those bits): SET_GROUP and SET_WEIGHT both write grp[t] and
// wt[t] at the same edge, so a valid grp word always has an up-to-date wt word, and after a
// reset every task's weight follows its list again. No flip-flop per task is added.
`default_nettype none

module hws_rq_engine #(
  parameter integer NR_CPUS   = 8,    // CPUs, 1..64
  parameter integer NR_TASKS  = 256,  // entries of the task table, 1..4096
  parameter integer NR_GROUPS = 16,   // task groups whose per-CPU loads are kept, 1..64
  parameter integer LCU_BALANCE = 1   // 0: no BALANCE unit, QUERY kind 2 fails with OPCODE
) (
  input  wire        clk_i,
  input  wire        srst_i,      // synchronous reset (rst_ni or CTRL.SOFT_RESET): empties
                                  // every queue and abandons the executing command
  input  wire        start_i,     // pop: latch cmd_i and start it at this edge (the caller
                                  // guarantees !busy_o || done_o)
  input  wire [31:0] cmd_i,       // command word at the head of the command FIFO
  output wire        busy_o,      // a command is executing
  output wire        done_o,      // the executing command completes at the coming edge
  output wire        res_push_o,  // ... and pushes res_data_o into the result FIFO
  output wire [31:0] res_data_o,
  output wire        err_o,       // ... and failed with err_code_o
  output wire [7:0]  err_code_o,
  output wire [31:0] cmd_o,       // the executing command word (for ERR_CMD)
  output wire [127:0] bal_regs_o  // {BAL_IMB, BAL_AVG, BAL_MAX, BAL_THIS}
);
  // The generated header defines every constant of the register map; this module uses some.
  /* verilator lint_off UNUSEDPARAM */
`include "hws_regs.vh"
  /* verilator lint_on UNUSEDPARAM */
`ifndef SYNTHESIS
`include "hws_weight_fn.vh"
`endif

`ifndef __ICARUS__
  generate
    if (NR_CPUS < 1 || NR_CPUS > 64 || NR_TASKS < 1 || NR_TASKS > 4096 ||
        NR_GROUPS < 1 || NR_GROUPS > 64) begin : g_bad_param
      $error("hws_rq_engine: NR_CPUS=%0d NR_TASKS=%0d NR_GROUPS=%0d (need 1..64, 1..4096, 1..64)",
             NR_CPUS, NR_TASKS, NR_GROUPS);
    end
  endgenerate
`endif
`ifndef SYNTHESIS
  // Elaboration errors are warnings to Verilator -Wno-fatal and unknown to Icarus: stop the
  // simulation at time 0 as well.
  initial if (NR_CPUS < 1 || NR_CPUS > 64 || NR_TASKS < 1 || NR_TASKS > 4096 ||
              NR_GROUPS < 1 || NR_GROUPS > 64)
    $fatal(1, "hws_rq_engine: NR_CPUS=%0d NR_TASKS=%0d NR_GROUPS=%0d (need 1..64, 1..4096, 1..64)",
           NR_CPUS, NR_TASKS, NR_GROUPS);
`endif

  // ---------------------------------------------------------------------------------------
  // Sizes
  localparam integer NP    = HWS_NR_PRIO;                           // priority levels
  localparam integer NK    = 9;                                     // bitmap words per array
  localparam integer TW    = (NR_TASKS > 1) ? $clog2(NR_TASKS) : 1; // task pointer width
  localparam integer CW    = (NR_CPUS > 1) ? $clog2(NR_CPUS) : 1;   // cpu index width
  localparam integer AIW   = CW + 1;                                // array index {cpu, phys}
  localparam integer NARR  = 2 * NR_CPUS;                           // physical arrays
  localparam integer NRW   = $clog2(NR_TASKS + 1);                  // task count width
  localparam integer LDW   = $clog2(NR_TASKS * HWS_RT_WEIGHT + 1);  // load width (<= 30)
  localparam integer TTW   = CW + 9;                                // tt word {phys, prio, cpu}
  localparam integer HTAW  = AIW + 8;                              // ht index {p[7], a, p[6:0]}
  localparam integer HLD   = NARR * 128;                            // u_ht words (prio 0..127)
  localparam integer HHD   = NARR * 16;                             // u_hth words (prio 128..143)
  localparam integer HLAW  = $clog2(HLD);                           // AIW + 7 (AIW + 6 at
  localparam integer HHAW  = $clog2(HHD);                           // NR_CPUS = 1), AIW + 4 (+ 3)
  localparam integer BMD   = NARR * 16;                             // bm words (a*16 + k)
  localparam integer BMAW  = $clog2(BMD);                           // bm address width (AIW + 4,
                                                                    // AIW + 3 at NR_CPUS = 1)
  localparam integer TDEP  = 1 << TW;                               // task RAM depth (>= 2)
  localparam integer GW    = (NR_GROUPS > 1) ? $clog2(NR_GROUPS) : 1; // group index width
  localparam integer GLD   = NR_CPUS * NR_GROUPS;                   // gload words
  localparam integer GLAW  = (GLD > 1) ? $clog2(GLD) : 1;           // gload address width
  localparam [31:0]  NR_TASKS32  = NR_TASKS;
  localparam [31:0]  NR_CPUS32   = NR_CPUS;
  localparam [31:0]  NR_GROUPS32 = NR_GROUPS;
  localparam [31:0]  ONE32      = 32'd1;
  localparam         BAL_BUILT  = (LCU_BALANCE != 0);

  // ---------------------------------------------------------------------------------------
  // Sequencer
  reg        busy_q;
  reg [2:0]  step_q;
  reg [31:0] cmd_q;

  wire [3:0]    op     = cmd_q[HWS_CMD_OP_LSB   +: HWS_CMD_OP_W];
  wire [11:0]   tfield = cmd_q[HWS_CMD_TASK_LSB +: HWS_CMD_TASK_W];
  wire [7:0]    pfield = cmd_q[HWS_CMD_PRIO_LSB +: HWS_CMD_PRIO_W];
  wire [5:0]    cfield = cmd_q[HWS_CMD_CPU_LSB  +: HWS_CMD_CPU_W];
  wire          afield = cmd_q[HWS_CMD_ARRAY_LSB];
  wire          hfield = cmd_q[HWS_CMD_HEAD_LSB];
  wire [TW-1:0] t_w    = tfield[TW-1:0];
  wire [CW-1:0] c_w    = cfield[CW-1:0];

  wire op_enq  = (op == HWS_OP_ENQUEUE);
  wire op_deq  = (op == HWS_OP_DEQUEUE);
  wire op_pick = (op == HWS_OP_PICK_NEXT);
  wire op_peek = (op == HWS_OP_PEEK);
  wire op_req  = (op == HWS_OP_REQUEUE);
  wire op_setp = (op == HWS_OP_SET_PRIO);
  wire op_migr = (op == HWS_OP_MIGRATE);
  wire op_cst  = (op == HWS_OP_CPU_STAT);
  wire op_tst  = (op == HWS_OP_TASK_STAT);
  wire op_tick = (op == HWS_OP_LOAD_TICK);
  wire op_setg = (op == HWS_OP_SET_GROUP);
  wire op_lcu  = (op == HWS_OP_LCU_STAT);
  wire op_idle = (op == HWS_OP_SET_IDLE);
  wire op_dset = (op == HWS_OP_DOM_SET);
  wire op_qry  = (op == HWS_OP_QUERY);
  wire op_move = op_req || op_setp || op_migr;
  wire op_bal  = op_qry && afield && !hfield;   // QUERY kind 2, BALANCE (kind 3 fails OPCODE)
  wire op_setw = op_setg && hfield;             // SET_WEIGHT (SET_GROUP with HEAD = 1)

  wire s1 = busy_q && (step_q == 3'd1);
  wire s2 = busy_q && (step_q == 3'd2);
  wire s3 = busy_q && (step_q == 3'd3);
  wire s4 = busy_q && (step_q == 3'd4);
  wire s5 = busy_q && (step_q == 3'd5);

  // ---------------------------------------------------------------------------------------
  // Flop state (declared here, updated further down)
  wire [NR_TASKS-1:0] queued_q;   // hws_flags u_queued
  wire [NARR*NK-1:0]  sm_all;     // bitmap summary of physical array a at [a*NK +: NK], a = cpu*2+phys
  wire [NARR*NRW-1:0] nr_all;     // task count of physical array a
  wire [NARR-1:0]     ne_all;     // array a is non-empty (nr != 0, kept as a flop)
  wire [NR_CPUS*LDW-1:0] load_all;
  wire [NR_CPUS-1:0]  swap_all;

  // ---------------------------------------------------------------------------------------
  // Checks, in the order of docs/accelerator.md section 3. The command's own word decides
  // all of them but the last of its order, which reads state: QUEUED / NOTQUEUED (queued[t])
  // and DOMAIN (the domain table's flags). check_fn evaluates the word checks on the FIFO
  // head in the cycle before step 1 and the pop edge registers them (ck_*_q), with which
  // state check follows; step 1 adds that one from qt_q or the domain flags. So no compare of a
  // command field sits between cmd_q and the error flag, the sequencer's done and the pop.
  // check_fn's result: {code of the first failing word check (OK if none), QUEUED applies,
  // NOTQUEUED applies, the domain-table flags DOMAIN needs (hws_domain's q_ok_o; 0: no
  // DOMAIN check)}. The flags a QUERY at level l needs: Pl and P(l+1) where stored, their
  // nesting when both are (ok[0..2]: P1..P3 well formed, ok[3]: P1 in P2, ok[4]: P2 in P3),
  // and P1 for IDLE_CORE, as hws_domain's q_bad_o (checked against it below).
  // hws_domain's flag positions (its ok_q) and the flags each QUERY level needs:
  localparam integer DOM_OK_P1  = 0;   // P1 well formed
  localparam integer DOM_OK_P2  = 1;   // P2 well formed
  localparam integer DOM_OK_P3  = 2;   // P3 well formed
  localparam integer DOM_OK_P12 = 3;   // P1 nests in P2
  localparam integer DOM_OK_P23 = 4;   // P2 nests in P3
  function automatic [4:0] ok_bit(input integer k);
    ok_bit = 5'd1 << k;
  endfunction
  localparam [4:0] DOM_NEED_L0 = ok_bit(DOM_OK_P1);
  localparam [4:0] DOM_NEED_L1 = ok_bit(DOM_OK_P1) | ok_bit(DOM_OK_P2) | ok_bit(DOM_OK_P12);
  localparam [4:0] DOM_NEED_L2 = ok_bit(DOM_OK_P2) | ok_bit(DOM_OK_P3) | ok_bit(DOM_OK_P23);
  localparam [4:0] DOM_NEED_L3 = ok_bit(DOM_OK_P3);
  function automatic [14:0] check_fn(input [31:0] c);
    reg [3:0]  o;
    reg [11:0] tf;
    reg [7:0]  pf;
    reg [5:0]  cf;
    reg        af, hf;
    reg        t_bad, c_bad, p_bad, pg_bad, tg_bad, lg, ld_bad, pc_bad, pwr_bad, dhi, bal;
    reg [2:0]  dk;
    reg [16:0] dv;
    reg [7:0]  code;
    reg        nq, nnq;
    reg [4:0]  nd;
    begin
      o  = c[HWS_CMD_OP_LSB   +: HWS_CMD_OP_W];
      tf = c[HWS_CMD_TASK_LSB +: HWS_CMD_TASK_W];
      pf = c[HWS_CMD_PRIO_LSB +: HWS_CMD_PRIO_W];
      cf = c[HWS_CMD_CPU_LSB  +: HWS_CMD_CPU_W];
      af = c[HWS_CMD_ARRAY_LSB];
      hf = c[HWS_CMD_HEAD_LSB];
      t_bad   = ({1'b0, tf} >= NR_TASKS32[12:0]);
      c_bad   = ({1'b0, cf} >= NR_CPUS32[6:0]);
      p_bad   = (pf >= HWS_NR_PRIO[7:0]);
      pg_bad  = ({1'b0, pf} >= NR_GROUPS32[8:0]);    // SET_GROUP: group in PRIO
      tg_bad  = ({1'b0, tf} >= NR_GROUPS32[12:0]);   // LCU_STAT: group in TASK
      lg      = (pf == HWS_SEL_LCU_STAT_GROUP_LOAD) || (pf == HWS_SEL_LCU_STAT_GROUP_TOTAL);
      ld_bad  = ({1'b0, tf} >= NR_CPUS32[12:0]);     // DOM_SET: leader in TASK
      // DOM_SET: k = PRIO[2:0]; PRIO[7:3] is data (the top bits of a power)
      dk      = pf[2:0];
      dhi     = (pf[7:3] != 5'd0);
      dv      = {pf[7:3], tf};
      pc_bad  = dhi || (tf[9:8] != 2'd0) || (tf[7:0] < HWS_MIN_PCT[7:0]);
      pwr_bad = (dv < HWS_MIN_POWER[16:0]);
      bal     = af && !hf;                           // QUERY kind 2, BALANCE
      code = HWS_ERR_OK;
      nq = 1'b0;  nnq = 1'b0;  nd = 5'b00000;
      case (o)
        HWS_OP_NOP: code = HWS_ERR_OK;
        HWS_OP_ENQUEUE:
          if (t_bad)       code = HWS_ERR_TASK;
          else if (c_bad)  code = HWS_ERR_CPU;
          else if (p_bad)  code = HWS_ERR_PRIO;
          else             nq = 1'b1;                 // then QUEUED
        HWS_OP_DEQUEUE, HWS_OP_REQUEUE:
          if (t_bad)       code = HWS_ERR_TASK;
          else             nnq = 1'b1;                // then NOTQUEUED
        HWS_OP_PICK_NEXT, HWS_OP_PEEK:
          if (c_bad)       code = HWS_ERR_CPU;
        HWS_OP_SET_PRIO:
          if (t_bad)       code = HWS_ERR_TASK;
          else if (p_bad)  code = HWS_ERR_PRIO;
          else             nnq = 1'b1;
        HWS_OP_MIGRATE:
          if (t_bad)       code = HWS_ERR_TASK;
          else if (c_bad)  code = HWS_ERR_CPU;
          else             nnq = 1'b1;
        HWS_OP_CPU_STAT:
          if (c_bad)       code = HWS_ERR_CPU;
          else if (pf >= HWS_SEL_CPU_STAT_COUNT) code = HWS_ERR_PRIO;
        HWS_OP_TASK_STAT:
          if (t_bad)       code = HWS_ERR_TASK;
          else if (pf >= HWS_SEL_TASK_STAT_COUNT) code = HWS_ERR_PRIO;
        HWS_OP_LOAD_TICK, HWS_OP_SET_IDLE:
          if (c_bad)       code = HWS_ERR_CPU;
        HWS_OP_SET_GROUP:                              // HEAD = 1: SET_WEIGHT
          if (t_bad)       code = HWS_ERR_TASK;
          else if (hf) begin
            if (p_bad)     code = HWS_ERR_PRIO;
          end else if (pg_bad) code = HWS_ERR_GROUP;
        HWS_OP_LCU_STAT:
          if (c_bad)       code = HWS_ERR_CPU;
          else if (pf >= HWS_SEL_LCU_STAT_COUNT) code = HWS_ERR_PRIO;
          else if (lg && tg_bad) code = HWS_ERR_GROUP;
        HWS_OP_DOM_SET:
          if (c_bad)       code = HWS_ERR_CPU;
          else if (dk == 3'd0) begin                   // imbalance_pct
            if (pc_bad)    code = HWS_ERR_PRIO;
          end else if (!dk[2]) begin                   // leader, k 1..3
            if (dhi)       code = HWS_ERR_PRIO;
            else if (ld_bad) code = HWS_ERR_CPU;
          end else if (pwr_bad) code = HWS_ERR_PRIO;   // power, k 4..7
        HWS_OP_QUERY:
          if (af && (hf || !BAL_BUILT)) code = HWS_ERR_OPCODE;  // kind 3 reserved,
                                                       // kind 2 when BALANCE is not built
          else if (c_bad)  code = HWS_ERR_CPU;
          else if (pf >= HWS_NR_LEVELS[7:0]) code = HWS_ERR_PRIO;
          else if (bal && ({1'b0, tf} >= 13'd3)) code = HWS_ERR_TASK;   // idle type
          else case (pf[1:0])                         // then DOMAIN
            2'd0:    nd = DOM_NEED_L0;
            2'd1:    nd = DOM_NEED_L1;
            2'd2:    nd = DOM_NEED_L2 | (ok_bit(DOM_OK_P1) & {5{!af && hf}});  // IDLE_CORE
            default: nd = DOM_NEED_L3 | (ok_bit(DOM_OK_P1) & {5{!af && hf}});  // also needs P1
          endcase
        default:           code = HWS_ERR_OPCODE;
      endcase
      check_fn = {code, nq, nnq, nd};
    end
  endfunction

  // queued[t] of the command's task, registered at the pop edge from the command word
  // then at the FIFO head (qt_q): the 256:1 select of queued_q then runs in the cycle before
  // step 1, in parallel with the command before, whose own write at that edge is forwarded.
  // A command's own task changes queued only at its last edge, so qt_q holds for all its
  // steps (asserted below).
  reg  qt_q;
  wire q_t      = qt_q;
  wire dom_bad;                                            // QUERY: DOMAIN (hws_domain)
  // DOM_SET: k = PRIO[2:0]; PRIO[7:3] is data (the top bits of a power)
  wire [2:0]  dset_k   = pfield[2:0];
  wire [16:0] dset_val = {pfield[7:3], tfield};

  wire [4:0] dom_ok;                     // hws_domain's consistency flags
  reg  [7:0] ck_code_q;                  // the word checks' code
  reg        ck_bad_q;                   // ... is not OK
  reg        ck_q_q, ck_nq_q;            // QUEUED, NOTQUEUED follow
  reg  [4:0] ck_dm_q;                    // DOMAIN follows, needing these flags
  wire       dom_fail = ((ck_dm_q & ~dom_ok) != 5'd0);
  wire [14:0] ck_in   = check_fn(cmd_i);     // the FIFO head's, registered at the pop
  wire [7:0] ecode = ck_bad_q          ? ck_code_q :
                     (ck_q_q && q_t)   ? HWS_ERR_QUEUED :
                     (ck_nq_q && !q_t) ? HWS_ERR_NOTQUEUED :
                     dom_fail          ? HWS_ERR_DOMAIN : HWS_ERR_OK;
  wire       ck_fail = ck_bad_q || (ck_q_q && q_t) || (ck_nq_q && !q_t) || dom_fail;

  // Latency of an opcode; fin_q says the coming step is the command's last (registered a
  // step ahead, so done is not a compare of step_q with a decode of cmd_q).
  function automatic [2:0] lat_fn(input [3:0] o);
    case (o)
      HWS_OP_ENQUEUE:   lat_fn = HWS_LAT_ENQUEUE[2:0];
      HWS_OP_DEQUEUE:   lat_fn = HWS_LAT_DEQUEUE[2:0];
      HWS_OP_PICK_NEXT: lat_fn = HWS_LAT_PICK_NEXT[2:0];
      HWS_OP_PEEK:      lat_fn = HWS_LAT_PEEK[2:0];
      HWS_OP_REQUEUE:   lat_fn = HWS_LAT_REQUEUE[2:0];
      HWS_OP_SET_PRIO:  lat_fn = HWS_LAT_SET_PRIO[2:0];
      HWS_OP_MIGRATE:   lat_fn = HWS_LAT_MIGRATE[2:0];
      HWS_OP_CPU_STAT:  lat_fn = HWS_LAT_CPU_STAT[2:0];
      HWS_OP_TASK_STAT: lat_fn = HWS_LAT_TASK_STAT[2:0];
      HWS_OP_LOAD_TICK: lat_fn = HWS_LAT_LOAD_TICK[2:0];
      HWS_OP_SET_GROUP: lat_fn = HWS_LAT_SET_GROUP[2:0];
      HWS_OP_LCU_STAT:  lat_fn = HWS_LAT_LCU_STAT[2:0];
      HWS_OP_SET_IDLE:  lat_fn = HWS_LAT_SET_IDLE[2:0];
      HWS_OP_DOM_SET:   lat_fn = HWS_LAT_DOM_SET[2:0];
      HWS_OP_QUERY:     lat_fn = HWS_LAT_QUERY[2:0];
      default:          lat_fn = HWS_LAT_NOP[2:0];   // NOP
    endcase
  endfunction
  wire [2:0] lat = lat_fn(op);
  reg        fin_q;

  // The result word's source, one-hot: {TASK_STAT's INFO selector, its GROUP selector,
  // TASK_STAT, QUERY, LCU_STAT, CPU_STAT, PICK_NEXT/PEEK}; registered at the pop (rs_q).
  /* verilator lint_off UNUSEDSIGNAL */
  function automatic [6:0] rsrc_fn(input [31:0] c);   // (reads the OP and PRIO fields)
  /* verilator lint_on UNUSEDSIGNAL */
    reg [3:0] o;
    reg [7:0] pf;
    begin
      o  = c[HWS_CMD_OP_LSB   +: HWS_CMD_OP_W];
      pf = c[HWS_CMD_PRIO_LSB +: HWS_CMD_PRIO_W];
      rsrc_fn = {pf == HWS_SEL_TASK_STAT_INFO, pf == HWS_SEL_TASK_STAT_GROUP,
                 o == HWS_OP_TASK_STAT, o == HWS_OP_QUERY, o == HWS_OP_LCU_STAT,
                 o == HWS_OP_CPU_STAT, (o == HWS_OP_PICK_NEXT) || (o == HWS_OP_PEEK)};
    end
  endfunction
  reg [6:0]  rs_q;

  wire failed = s1 && ck_fail;
  wire bal_done;   // BALANCE: hws_balance's final cycle
  wire done   = failed || (busy_q && (op_bal ? bal_done : fin_q));

  // ---------------------------------------------------------------------------------------
  // RAM read data
  wire [TTW-1:0]  tt_rd;
  wire [17:0]     tt_wrd;
  wire [2*TW-1:0] ht_rd;
  wire [TW-1:0]   nx_rd, pv_rd;

  wire [CW-1:0] tt_cpu  = tt_rd[CW-1:0];
  wire [7:0]    tt_prio = tt_rd[CW +: 8];
  wire          tt_phys = tt_rd[CW + 8];
  wire [17:0]   tt_wgt  = tt_wrd[17:0];     // weight(tt_prio), kept beside the entry
  wire [TW-1:0] ht_h    = ht_rd[TW +: TW];
  wire [TW-1:0] ht_t    = ht_rd[0 +: TW];

  // ---------------------------------------------------------------------------------------
  // Focus list f = (f_cpu, f_phys, f_prio): the list the current step reads or updates.
  //   step 1:   the command's CPU; ENQUEUE its list, PICK_NEXT/PEEK the summary FFS
  //             result (word k, prio 16k: only the word is known)
  //   step 2-3: ENQUEUE its list, PICK/PEEK the latched prio (step 3; step 2 reads its
  //             list at pk_ht), others tt[t] (old list)
  //   step 4-5: PICK_NEXT's latched prio (step 4), the new list of a move
  // Which of the two it is, is registered a step ahead (ft_q: 0 in step 1, set for the
  // commands on a task's list from step 2 on, MIGRATE's new list in steps 4-5 is c again),
  // so the opcode decode is not on the paths from tt's read data.
  // A move's new list (steps 4, 5) is taken whole from bnew_q, the {array, prio[7:4]} it
  // formed from the task entry and the command a step before (MIGRATE's array needs the
  // swap flags of two CPUs); fn_q, registered a step ahead, marks those steps.
  reg          ft_q, fn_q;
  reg  [AIW+3:0] bnew_q;
  wire         ft_ops = op_deq || op_req || op_setp || op_tst || op_setg;
  wire [CW-1:0] f_cpu = fn_q ? bnew_q[AIW+3:5] : ft_q ? tt_cpu : c_w;

  // Per-CPU views as arrays: an indexed array is a plain mux to Yosys (a variable part-select
  // of the flat vector became a 12k-LUT shifter) and one load to Verilator.
  wire [2*NK-1:0]  sm_cpu   [0:NR_CPUS-1];   // {phys 1, phys 0} bitmap summaries of a CPU
  wire [2*NRW-1:0] nr_cpu   [0:NR_CPUS-1];   // {phys 1, phys 0} counts of a CPU
  wire [LDW-1:0]   load_cpu [0:NR_CPUS-1];
  wire [LDW-1:0]   hist_cpu [0:NR_CPUS-1];
  wire [1:0]       ne_cpu   [0:NR_CPUS-1];   // {phys 1, phys 0} non-empty flags of a CPU

  // Values of the focus CPU
  wire [2*NK-1:0] sm_f    = sm_cpu[f_cpu];
  wire [LDW-1:0]  load_f  = load_cpu[f_cpu];
  // The command's CPU's load, for the commands that name a CPU and report or decay its load
  // (CPU_STAT, LCU_STAT, LOAD_TICK): f_cpu is c_w for them, but through the multiplexer that
  // also takes a task's CPU from tt, a path from a RAM output no result needs. The same for
  // its counts (CPU_STAT) and its swap flag (every command whose focus CPU is the command's:
  // ENQUEUE, CPU_STAT, and a move's new list).
  wire [LDW-1:0]  load_c  = load_cpu[c_w];
  wire [NRW-1:0]  nr_c0   = nr_cpu[c_w][0 +: NRW];
  wire [NRW-1:0]  nr_c1   = nr_cpu[c_w][NRW +: NRW];
  wire            swap_o  = swap_all[tt_cpu];               // swap of a task's old CPU

  // PICK_NEXT/PEEK step 1 reads the command's CPU directly (f_cpu is c_w in step 1, but
  // through the multiplexer of the other steps and commands), and whether an array is empty
  // from its ne flop (an array is empty iff its count is 0, asserted below).
  wire [2*NK-1:0] sm_c    = sm_cpu[c_w];
  // swap[c] of the command's CPU, registered at the pop from the FIFO head (swc_q): a swap
  // flips only at PICK_NEXT's last edge, which is forwarded, so swc_q holds for the whole
  // command (asserted below) and no select of the swap flags by the command word sits
  // before ENQUEUE's array or CPU_STAT's selectors.
  reg             swc_q;
  wire            swap_c  = swc_q;
  wire [NRW-1:0] nr_act  = swap_c ? nr_c1 : nr_c0;
  wire [NRW-1:0] nr_exp  = swap_c ? nr_c0 : nr_c1;

  // Find-first-set of 16 bits, ffs16() (rtl/hws_ffs16.vh: proven equal to a priority scan
  // over all 2^16 inputs, formal/proofs.list; tests/rtl/tb_ffs16.v).
`include "hws_ffs16.vh"

  // PICK_NEXT/PEEK, step 1: first set summary bit k of the active array, else of the
  // expired one (its word k is read); step 2: first set bit of that word, trusted when the
  // summary had a set bit (then bit k is set).
  wire [15:0]   bm_rd;
  reg           pk_phys_q, pk_swap_q, pk_none_q, pk_tw_q;
  reg  [3:0]    pk_k_q;
  reg  [7:0]    pk_prio_q;
  // Each CPU forms its own step-1 answer from its flops (pkc: {array to search, the
  // first set summary bit k, the summary has one, PICK_NEXT swaps, both arrays empty});
  // the command's CPU then selects one. Selecting the CPU's flops first and searching
  // after put the command word's wide fan-out at the head of the path.
  wire [7:0] pkc [0:NR_CPUS-1];
  genvar gp;
  generate
    for (gp = 0; gp < NR_CPUS; gp = gp + 1) begin : g_pick
      wire [1:0]      ne   = ne_cpu[gp];
      wire            sw   = swap_all[gp];
      wire [2*NK-1:0] sm   = sm_cpu[gp];
      wire            act  = sw ? ne[1] : ne[0];     // the active array is non-empty
      wire            exp  = sw ? ne[0] : ne[1];
      wire            ph   = act ? sw : ~sw;         // the array to search (physical)
      wire [NK-1:0]   smp  = ph ? sm[NK +: NK] : sm[0 +: NK];
      assign pkc[gp] = {ph, ffs16({{(16-NK){1'b0}}, smp}), (smp != {NK{1'b0}}),
                        !act && exp, !act && !exp};
    end
  endgenerate
  wire [7:0]    pk_c     = pkc[c_w];
  wire          ffs_phys = pk_c[7];
  wire [3:0]    ffs_k    = pk_c[6:3];
  wire [3:0]    ffs_lo   = ffs16(pk_tw_q ? bm_rd : 16'd0);

  // The focus list's physical array and priority come from the command (ENQUEUE: its
  // logical array and PRIO; SET_PRIO's new list: PRIO), PICK_NEXT/PEEK's latched FFS
  // results (from step 3 on: step 1 reads its bitmap word at pk_bma and step 2 its list at
  // pk_ht, not through f, so the bitmap word's FFS16 feeds no link or unlink logic), the
  // task entry (the commands on a task's list), or for a move's new list (steps 4, 5) its
  // array from bnew_q (MIGRATE keeps the logical array: physical ^ swap[old cpu] ^
  // swap[new cpu], formed in nl_arr a step before). Which one, is registered a step ahead
  // (fsel_fn: {phys from the command, prio from the command, both from PICK_NEXT's
  // latches}), like ft_q, so no opcode decode sits on the link and unlink paths.
  function automatic [2:0] fsel_fn(input [3:0] o, input [2:0] st);
    reg pk, tt;
    begin
      pk = (o == HWS_OP_PICK_NEXT) || (o == HWS_OP_PEEK);
      tt = (o == HWS_OP_DEQUEUE) || (o == HWS_OP_REQUEUE) || (o == HWS_OP_TASK_STAT) ||
           (o == HWS_OP_SET_GROUP) || (o == HWS_OP_SET_PRIO) || (o == HWS_OP_MIGRATE);
      fsel_fn = {!pk && !tt,
                 (!pk && !tt) || ((o == HWS_OP_SET_PRIO) && ((st == 3'd4) || (st == 3'd5))),
                 pk};
    end
  endfunction
  reg       fcp_q, fcpr_q, fpk_q;
  wire      f_phys = fn_q ? bnew_q[4] : fpk_q ? pk_phys_q : fcp_q ? (afield ^ swap_c) : tt_phys;
  wire [7:0] f_prio = fpk_q ? pk_prio_q : fcpr_q ? pfield : tt_prio;

  wire [AIW-1:0] f_arr = {f_cpu, f_phys};
  // ht index of list (a, p): {p[7], a, p[6:0]} (p[6:4] is 0 when p[7] is set)
  function automatic [HTAW-1:0] ht_idx(input [AIW-1:0] a, input [7:0] p);
    ht_idx = {p[7], a, p[6:0]};
  endfunction
  // one-hots of f_prio's word (k = f_prio[7:4]) and of its bit in the word
  wire [15:0]    prio_hi = 16'd1 << f_prio[7:4];
  wire [15:0]    prio_lo = 16'd1 << f_prio[3:0];
  // The focus list's bitmap word, read in an earlier step of this command (see the RAM
  // ports): trusted only while its summary bit is set.
  wire [NK-1:0]  f_sm   = f_phys ? sm_f[NK +: NK] : sm_f[0 +: NK];
  wire           f_sm_k = ((f_sm & prio_hi[NK-1:0]) != {NK{1'b0}});
  // The links and unlinks use the summary bit of the step before (smk_q): the focus list
  // is the same in both, nothing writes the summaries between them (asserted below), and
  // the bit then comes from a flop, not from the task entry through the focus multiplexer.
  reg            smk_q;
  wire [15:0]    bm_tw  = smk_q ? bm_rd : 16'd0;
  wire           f_ne   = ((bm_tw & prio_lo) != 16'd0);     // the focus list is non-empty

  // The weight in force of the task u the step links, unlinks or reports (wt[u] is read in
  // the step before; in step 1 nothing is read yet).
  wire [8:0]  wt_rd;
  wire [17:0] wt_wgt;
  // No weight ROM sits between a RAM output and the load adders: the weight of a list
  // priority is kept beside it in tt (tt_wgt, written at every link) and the weight of a
  // SET_WEIGHT priority beside it in wt (wt_wgt); the only ROM, hws_weight, weighs a
  // priority held in a register (the command's PRIO in step 1, PICK_NEXT's latched prio in
  // step 3, so the FFS results of its steps 1 and 2 never reach it) into wl_q, used a step
  // later.
  // Whether u's wt and grp words are to be trusted (uv): a queued task's always are (ENQUEUE
  // rewrites them with the values in force, and only SET_GROUP/SET_WEIGHT change them
  // after), so PICK_NEXT/PEEK's head needs no valid bit; for the command's own task the
  // bit grp_vld[t] is registered at the pop edge (tv_q, like qt_q). No 256:1 select of a
  // valid bit sits after the head read from ht.
  reg  [17:0] wl_q;      // weight(PRIO) from step 2 on; PICK_NEXT: weight(its prio) in step 4
  reg         tv_q;      // grp_vld[t] of the command's task
  wire        uv = op_pick || op_peek || tv_q;
  wire [17:0] wl_rom;
  hws_weight u_weight (.prio_i(s1 ? pfield : pk_prio_q), .weight_o(wl_rom));
  // the weight of the focus list's priority: from the command or PICK_NEXT's FFS (wl_q),
  // else the task's own list (tt_wgt)
  wire        wl_use = op_enq || op_pick || op_peek || (op_setp && (s4 || s5));
  wire [17:0] l_wgt  = wl_use ? wl_q : tt_wgt;
  wire        u_fix  = uv && wt_rd[8] && !s1;              // wfix[u]
  wire [17:0] f_weight = u_fix ? wt_wgt : l_wgt;

  // ---------------------------------------------------------------------------------------
  // RAM ports
  // ht: the read address is presented in the steps that read a list and held otherwise, so
  // the write address of a list is always the held read address (ht_addr_q).
  // The address comes from registers or straight from a RAM word, not through the
  // focus-list multiplexer: ENQUEUE (step 1) from the command; PICK_NEXT/PEEK (step 2) as
  // {their array * 9 + word k, the word's FFS16}, the sum formed from registers while the
  // bitmap word is read; the old list of DEQUEUE and the moves (step 2) from tt_hti, the
  // index stored beside the task's entry at its link; the new list of a move (step 4) from
  // hnew_q, formed in step 3 from the entry and the command.
  wire ht_rd_en = (s1 && op_enq) || (s2 && (op_pick || op_peek || op_deq || op_move)) ||
                  (s4 && op_move);
  reg  [HTAW-1:0] ht_addr_q, hnew_q;
  wire [HTAW-1:0] tt_hti;
  wire [HTAW-1:0] pk_ht  = ht_idx({c_w, pk_phys_q}, {pk_k_q, ffs_lo});
  wire [AIW-1:0]  enq_arr = {c_w, afield ^ swap_c};       // ENQUEUE's list (as f in step 1)
  wire [HTAW-1:0] ht_raddr = !ht_rd_en ? ht_addr_q :
                             s1 ? ht_idx(enq_arr, pfield) :
                             (op_pick || op_peek) ? pk_ht :
                             s2 ? tt_hti : hnew_q;
  // the new list of a move: MIGRATE keeps the logical array on the command's CPU, SET_PRIO
  // takes the command's priority, REQUEUE the same list
  wire [AIW-1:0]  nl_arr = op_migr ? {c_w, tt_phys ^ swap_o ^ swap_c} : {tt_cpu, tt_phys};
  wire [7:0]      nl_prio = op_setp ? pfield : tt_prio;

  // bm: the same scheme. The focus list's word (f_arr, f_prio>>4) is read in the step that
  // reads its ht entry (PICK_NEXT/PEEK: the word of the summary FFS, one step earlier), and
  // is rewritten (link/unlink) at the held address; CPU_STAT reads chunk k of array
  // (c, chunk_phys) in step 1.
  wire [7:0]    sel_act    = pfield - HWS_SEL_CPU_STAT_ACT_BM0;
  wire [7:0]    sel_exp    = pfield - HWS_SEL_CPU_STAT_EXP_BM0;
  wire          sel_is_exp = (pfield >= HWS_SEL_CPU_STAT_EXP_BM0);
  wire          chunk_phys = sel_is_exp ^ swap_c;           // logical array -> physical
  wire [3:0]    chunk_k    = sel_is_exp ? sel_exp[3:0] : sel_act[3:0];
  wire bm_rd_en = (s1 && (op_enq || op_pick || op_peek || op_cst)) ||
                  (s2 && (op_deq || op_move)) || (s4 && op_move);
  wire [AIW+3:0] f_bma   = {f_arr, f_prio[7:4]};
  wire [AIW+3:0] cst_bma = {c_w, chunk_phys, chunk_k};
  reg  [BMAW-1:0] bm_addr_q;
  wire [AIW+3:0] pk_bma  = {c_w, ffs_phys, ffs_k};        // PICK_NEXT/PEEK step 1
  wire [AIW+3:0] tt_bma  = {tt_cpu, tt_phys, tt_prio[7:4]}; // the old list (step 2)
  wire [AIW+3:0] enq_bma = {enq_arr, pfield[7:4]};          // ENQUEUE (step 1)
  wire [BMAW-1:0] bm_raddr = !bm_rd_en ? bm_addr_q :
                             op_cst ? cst_bma[BMAW-1:0] :
                             (op_pick || op_peek) ? pk_bma[BMAW-1:0] :
                             op_enq ? enq_bma[BMAW-1:0] :
                             s2 ? tt_bma[BMAW-1:0] : bnew_q[BMAW-1:0];

  wire [TW-1:0] nx_raddr = (s3 && op_pick) ? ht_h : t_w;

  // Unlink (step 3 of DEQUEUE and moves, step 4 of PICK_NEXT with a task) of task u from
  // the old list.
  wire          unlink = (s3 && (op_deq || op_move)) || (s4 && op_pick && !pk_none_q);
  wire [TW-1:0] u_task = op_pick ? ht_h : t_w;
  // the pop edge's forwarding for qt_q (q_we, q_idx and link are defined below)
  wire [11:0]   t_in     = cmd_i[HWS_CMD_TASK_LSB +: HWS_CMD_TASK_W];
  wire          t_in_bad = ({1'b0, t_in} >= NR_TASKS32[12:0]);
  wire [5:0]    cf_in    = cmd_i[HWS_CMD_CPU_LSB +: HWS_CMD_CPU_W];
  wire [CW-1:0] c_in     = cf_in[CW-1:0];     // (any value when CPU is out of range: the
                                              // command then fails its CPU check)
  // PICK_NEXT unlinks its list's head, and whether that is also the tail is registered in
  // step 3 (pk_one_q), so no compare sits after the ht read of its step 4.
  reg           pk_one_q;
  wire          u_is_h = op_pick || (ht_h == t_w);
  wire          u_is_t = op_pick ? pk_one_q : (ht_t == t_w);
  // Link (step 2 of ENQUEUE, step 5 of moves) of t into the focus list.
  wire          link    = (s2 && op_enq) || (s5 && op_move);
  wire          at_head = op_enq && hfield;

  reg            ht_we, nx_we, pv_we;
  reg [2*TW-1:0] ht_wd;
  reg [TW-1:0]   nx_wa, nx_wd, pv_wa, pv_wd;
  always @* begin
    ht_we = 1'b0;  ht_wd = {ht_h, ht_t};
    nx_we = 1'b0;  nx_wa = nx_rd;  nx_wd = t_w;
    pv_we = 1'b0;  pv_wa = t_w;    pv_wd = ht_t;
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
      if (!f_ne) begin
        ht_wd = {t_w, t_w};
      end else if (at_head) begin
        ht_wd = {t_w, ht_t};
        nx_we = 1'b1;  nx_wa = t_w;   nx_wd = ht_h;
        pv_we = 1'b1;  pv_wa = ht_h;  pv_wd = t_w;
      end else begin
        ht_wd = {ht_h, t_w};
        nx_we = 1'b1;  nx_wa = ht_t;  nx_wd = t_w;
        pv_we = 1'b1;  pv_wa = t_w;   pv_wd = ht_t;
      end
    end
  end

  wire tt_we = link;

  // tt[t] = {ht index, weight(prio), phys, prio, cpu}: ENQUEUE and SET_PRIO link at the command's
  // PRIO (weight wl_q), REQUEUE and MIGRATE at the task's own (tt_wgt, unchanged).
  wire [17:0] tt_wgt_wd = (op_enq || op_setp) ? wl_q : tt_wgt;
  // ... and beside them the list's ht address, the held one at the link (ht_addr_q).
  hws_ram #(.DEPTH(TDEP), .WIDTH(TTW + 18 + HTAW), .AW(TW)) u_tt (
    .clk_i(clk_i), .we_i(tt_we && !srst_i), .waddr_i(t_w),
    .wdata_i({ht_addr_q, tt_wgt_wd, f_phys, f_prio, f_cpu}),
    .raddr_i(t_w), .rdata_o({tt_hti, tt_wrd, tt_rd})
  );
  hws_ram #(.DEPTH(TDEP), .WIDTH(TW), .AW(TW)) u_nx (
    .clk_i(clk_i), .we_i(nx_we && !srst_i), .waddr_i(nx_wa), .wdata_i(nx_wd),
    .raddr_i(nx_raddr), .rdata_o(nx_rd)
  );
  // wt[t] = {wfix, wprio}: written by SET_GROUP (unchanged) and SET_WEIGHT at their
  // completion (step 3, with grp[t]), and by ENQUEUE at its link (unchanged where valid,
  // wfix 0 where not: a queued task's word is always in force), read where next is read
  // (t, or the head that PICK_NEXT unlinks).
  // Beside them, wt_wgt = weight(wprio) (written with it: wl_q holds weight(PRIO)).
  wire        enq_we = link && op_enq;
  wire        wt_we = (s3 && op_setg) || enq_we;
  wire [26:0] wt_wd = op_setw ? {wl_q, 1'b1, pfield} : {wt_wgt, u_fix, wt_rd[7:0]};
  hws_ram #(.DEPTH(TDEP), .WIDTH(27), .AW(TW)) u_wt (
    .clk_i(clk_i), .we_i(wt_we && !srst_i), .waddr_i(t_w), .wdata_i(wt_wd),
    .raddr_i(nx_raddr), .rdata_o({wt_wgt, wt_rd})
  );
  hws_ram #(.DEPTH(TDEP), .WIDTH(TW), .AW(TW)) u_pv (
    .clk_i(clk_i), .we_i(pv_we && !srst_i), .waddr_i(pv_wa), .wdata_i(pv_wd),
    .raddr_i(t_w), .rdata_o(pv_rd)
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
    .clk_i(clk_i), .we_i(ht_we && !ht_w_hi && !srst_i), .waddr_i(htl_wa[HLAW-1:0]),
    .wdata_i(ht_wd), .raddr_i(htl_ra[HLAW-1:0]), .rdata_o(htl_rd)
  );
  hws_ram #(.DEPTH(HHD), .WIDTH(2*TW), .AW(HHAW)) u_hth (
    .clk_i(clk_i), .we_i(ht_we && ht_w_hi && !srst_i), .waddr_i(hth_wa[HHAW-1:0]),
    .wdata_i(ht_wd), .raddr_i(hth_ra[HHAW-1:0]), .rdata_o(hth_rd)
  );
  always @(posedge clk_i) ht_hi_q <= ht_raddr[HTAW-1];
  assign ht_rd = ht_hi_q ? hth_rd : htl_rd;

  // Bitmap words. A link sets the focus list's bit in its (trusted) word, an unlink that
  // empties the list clears it; the summary bit follows the new word (below).
  // (written at every unlink too, unchanged unless the list empties: see the RAM writes)
  wire           bm_we = link || unlink;
  wire [15:0]    bm_wd = link ? (bm_tw | prio_lo) :
                         (u_is_h && u_is_t) ? (bm_tw & ~prio_lo) : bm_tw;
  // The summary bit of the focus word after a link or unlink, as data rather than an
  // enable: 1 after a link, unchanged (1: the list was in it) after an unlink that leaves
  // the list non-empty, else whether the word keeps another bit. The compares of the
  // unlinked task with head and tail meet the word's test in one gate.
  wire           sm_new = link || !(u_is_h && u_is_t) || ((bm_tw & ~prio_lo) != 16'd0);
  hws_ram #(.DEPTH(BMD), .WIDTH(16), .AW(BMAW)) u_bm (
    .clk_i(clk_i), .we_i(bm_we && !srst_i), .waddr_i(bm_addr_q), .wdata_i(bm_wd),
    .raddr_i(bm_raddr), .rdata_o(bm_rd)
  );

  // ---------------------------------------------------------------------------------------
  // Flop updates of the focus list: bitmap summary bit, count, load; queued; swap
  wire           upd     = unlink || link;
  wire [31:0]    w32     = {14'd0, f_weight};
  wire [LDW-1:0] w_ext   = w32[LDW-1:0];
  // SET_WEIGHT of a queued task (f = its list): its weight changes from w_ext (the weight
  // in force) to weight(PRIO), latched in step 1. Step 2 latches the difference (sw_d_q),
  // step 3 adds it, so no update passes two carry chains (a subtractor, then the adder).
  wire [31:0]    wn32    = {14'd0, wl_q};
  wire [LDW-1:0] wn_ext  = wn32[LDW-1:0];
  reg  [LDW-1:0] sw_d_q;
  always @(posedge clk_i) sw_d_q <= wn_ext - w_ext;
  wire           setw_upd = s3 && op_setw && q_t;
  // What load, gload and gtotal (port 0) add, modulo 2^LDW: +w at a link, -w at an unlink
  // and for SET_GROUP's old group, sw_d_q for SET_WEIGHT. The per-CPU adders take it as
  // one carry chain, load + (w ^ {sub}) + sub, the carry-in as a low bit (load_sum).
  wire           w_sub   = !link && !setw_upd;
  wire [LDW-1:0] w_opnd  = setw_upd ? sw_d_q : (w_ext ^ {LDW{w_sub}});
  wire [LDW-1:0] w_delta = w_opnd + {{(LDW-1){1'b0}}, w_sub};
  // The focus CPU's new load, for hws_balance's block sums: its own adder's sum (load_sum
  // below), not a second adder after a multiplexer of the loads.
  wire [LDW-1:0] load_sum_cpu [0:NR_CPUS-1];
  wire [LDW-1:0] load_new = load_sum_cpu[f_cpu];
  wire           load_we  = upd || setw_upd;
  wire           swap_flip = unlink && op_pick && pk_swap_q;

  genvar ga, gc;
  generate
    for (ga = 0; ga < NARR; ga = ga + 1) begin : g_arr
      reg [NK-1:0]  sm_q;
      reg [NRW-1:0] nr_q;
      reg           ne_q;         // nr_q != 0, without a compare after the adder
      // Each array counts for itself (a multiplexer of the focus list's count before one
      // shared adder was a critical path: tt -> f_cpu -> f_arr -> count -> adder).
      // (+1 at a link, else + all ones = -1: one carry chain)
      wire [NRW-1:0] nr_inc = nr_q + (link ? ONE32[NRW-1:0] : {NRW{1'b1}});
      localparam [31:0] ARR32 = ga;
      always @(posedge clk_i) begin
        if (srst_i) begin
          sm_q <= {NK{1'b0}};
          nr_q <= {NRW{1'b0}};
          ne_q <= 1'b0;
        end else if (upd && (f_arr == ARR32[AIW-1:0])) begin
          sm_q <= (sm_q & ~prio_hi[NK-1:0]) | ({NK{sm_new}} & prio_hi[NK-1:0]);
          nr_q <= nr_inc;
          ne_q <= link || (nr_q != ONE32[NRW-1:0]);   // an unlink leaves nr_q - 1
        end
      end
      assign sm_all[ga*NK +: NK]   = sm_q;
      assign nr_all[ga*NRW +: NRW] = nr_q;
      assign ne_all[ga]            = ne_q;
    end
    for (gc = 0; gc < NR_CPUS; gc = gc + 1) begin : g_cpu
      reg [LDW-1:0] load_q;
      reg           swap_q;
      localparam [31:0] CPU32 = gc;
      // Each CPU adds for itself (the focus CPU's load through a multiplexer before one
      // shared adder was a critical path: tt -> f_cpu -> load -> adder).
      /* verilator lint_off UNUSEDSIGNAL */
      wire [LDW:0]   load_s1  = {load_q, 1'b1} + {w_opnd, w_sub};   // bit 0: the carry-in
      /* verilator lint_on UNUSEDSIGNAL */
      wire [LDW-1:0] load_sum = load_s1[LDW:1];
      assign load_sum_cpu[gc] = load_sum;
      always @(posedge clk_i) begin
        if (srst_i) begin
          load_q <= {LDW{1'b0}};
          swap_q <= 1'b0;
        end else if (f_cpu == CPU32[CW-1:0]) begin
          if (load_we) load_q <= load_sum;
          if (swap_flip) swap_q <= ~swap_q;
        end
      end
      assign load_all[gc*LDW +: LDW] = load_q;
      assign swap_all[gc]            = swap_q;
      assign sm_cpu[gc]   = sm_all[gc*2*NK +: 2*NK];
      assign nr_cpu[gc]   = nr_all[gc*2*NRW +: 2*NRW];
      assign ne_cpu[gc]   = ne_all[gc*2 +: 2];
      assign load_cpu[gc] = load_q;
      assign hist_cpu[gc] = hist_all[gc*LDW +: LDW];
    end
  endgenerate

  // queued: set by ENQUEUE, cleared by DEQUEUE and PICK_NEXT, kept by moves
  wire          q_we  = (link && op_enq) || (unlink && (op_deq || op_pick));
  wire [TW-1:0] q_idx = u_task;   // t, or the picked head
  hws_flags #(.N(NR_TASKS), .AW(TW)) u_queued (
    .clk_i(clk_i), .srst_i(srst_i), .we_i(q_we), .waddr_i(q_idx), .wdata_i(link),
    .q_o(queued_q)
  );

  // ---------------------------------------------------------------------------------------
  // Load-comparison unit state (section 8)
  wire ok1 = s1 && !ck_fail;   // a 1-cycle command that passed its checks

  // grp[t]: block RAM read at u (the task linked/unlinked, or t of SET_GROUP/TASK_STAT; the
  // address is presented from step 1, or from the step PICK_NEXT learns its head, so the
  // word is there in every step that links, unlinks or reports u), written by SET_GROUP at
  // its completion. grp_vld_q[t] (flops, cleared by reset) says grp[t] and wt[t] were
  // written since reset; an invalid grp[t] reads as group 0.
  wire [GW-1:0] grp_rd;
  wire [NR_TASKS-1:0] grp_vld_q;   // hws_flags u_grp_vld
  wire [GW-1:0] grp_u    = uv ? grp_rd : {GW{1'b0}};       // used from step 2 on
  wire [GW-1:0] g_new    = pfield[GW-1:0];              // SET_GROUP: the new group
  wire [GW-1:0] g_lcu    = tfield[GW-1:0];              // LCU_STAT: the group asked for
  // SET_WEIGHT rewrites grp[t] unchanged, so that its valid bit vouches for wt[t]; ENQUEUE
  // rewrites it as it reads (group 0 where not valid), as it does wt[t].
  wire          setg_we  = s3 && op_setg;
  wire [GW-1:0] grp_wd   = (op_setg && !hfield) ? g_new : grp_u;
  // SET_GROUP of a queued task moves its weight from the old group (step 2) to the new one
  // (step 3); f is the task's list, f_weight its weight; nothing to do when the group stays.
  wire          setg_mv  = op_setg && !hfield && q_t && (grp_u != g_new);
  wire          setg_old = s2 && setg_mv;
  wire          setg_new = s3 && setg_mv;
  hws_ram #(.DEPTH(TDEP), .WIDTH(GW), .AW(TW)) u_grp (
    .clk_i(clk_i), .we_i((setg_we || enq_we) && !srst_i), .waddr_i(t_w), .wdata_i(grp_wd),
    .raddr_i(u_task), .rdata_o(grp_rd)
  );
  hws_flags #(.N(NR_TASKS), .AW(TW)) u_grp_vld (
    .clk_i(clk_i), .srst_i(srst_i), .we_i(setg_we), .waddr_i(t_w), .wdata_i(1'b1),
    .q_o(grp_vld_q)
  );

  // gload[c][g] (word c*NR_GROUPS + g) and gtotal[g] in block RAM, each word with a valid
  // flop (reset clears them; an invalid word reads 0). The group update unit adds a delta to
  // gload[a] and gtotal[g] in two cycles: a request presents both read addresses in the
  // step that links, unlinks or reweighs a task (or moves it between groups), the sums are
  // written at the next edge. Requests are at least one cycle apart, except SET_GROUP's two
  // (steps 2 and 3, different words), so a request never reads a word still pending; the
  // simulation asserts it. LCU_STAT reads in step 1 and answers in step 2; the word pending
  // in its step 1 (the previous command's last update) is forwarded.
  wire          gu_req   = upd || setw_upd || setg_old || setg_new;
  wire [GW-1:0] gu_g     = setg_new ? g_new : grp_u;
  // +w at a link and at the new group, -w at an unlink and the old group, the change for
  // SET_WEIGHT: w_delta, with the new group's +w apart
  wire [LDW-1:0] gu_d    = setg_new ? w_ext : w_delta;
  wire [GW-1:0] g_a      = op_lcu ? g_lcu : gu_g;
  wire [31:0]   gl_a_full = ({{(32-CW){1'b0}}, f_cpu} * NR_GROUPS32) + {{(32-GW){1'b0}}, g_a};
  wire [GLAW-1:0] gl_a   = gl_a_full[GLAW-1:0];
  // LCU_STAT's word (c, g) straight from the command (gl_a is the same for LCU_STAT, but
  // through the multiplexers that also take a task's CPU and group from RAM): its valid bit
  // and forwarding compare are registered from it every cycle.
  wire [31:0]   lcu_la_full = ({{(32-CW){1'b0}}, c_w} * NR_GROUPS32) + {{(32-GW){1'b0}}, g_lcu};
  wire [GLAW-1:0] lcu_la = lcu_la_full[GLAW-1:0];
  reg             gu_pend_q;
  reg [GLAW-1:0]  gu_la_q;
  reg [GW-1:0]    gu_ga_q;
  reg [LDW-1:0]   gu_d_q;
  wire [GLD-1:0]  gl_vld_q;         // hws_flags u_gl_vld
  wire [NR_GROUPS-1:0] gt_vld_q;    // hws_flags u_gt_vld
  wire [LDW-1:0]  gl_rd, gt_rd;
  // (an invalid word reads 0: the sum is the delta alone; the valid bit, a 128:1 select of
  // flops at 8 CPUs, picks between the two after the adder instead of feeding it)
  wire [LDW-1:0]  gl_add = gl_rd + gu_d_q;
  wire [LDW-1:0]  gt_add = gt_rd + gu_d_q;
  wire [LDW-1:0]  gl_wd  = gl_vld_q[gu_la_q] ? gl_add : gu_d_q;
  wire [LDW-1:0]  gt_wd  = gt_vld_q[gu_ga_q] ? gt_add : gu_d_q;
  hws_ram #(.DEPTH((GLD > 1) ? GLD : 2), .WIDTH(LDW), .AW(GLAW)) u_gl (
    .clk_i(clk_i), .we_i(gu_pend_q && !srst_i), .waddr_i(gu_la_q), .wdata_i(gl_wd),
    .raddr_i(gl_a), .rdata_o(gl_rd)
  );
  hws_ram #(.DEPTH((NR_GROUPS > 1) ? NR_GROUPS : 2), .WIDTH(LDW), .AW(GW)) u_gt (
    .clk_i(clk_i), .we_i(gu_pend_q && !srst_i), .waddr_i(gu_ga_q), .wdata_i(gt_wd),
    .raddr_i(g_a), .rdata_o(gt_rd)
  );
  // LCU_STAT: forwarding of the word written at the edge that ends its step 1
  // (the valid bits of the words read in step 1 are registered with them: lcu_vl_q, lcu_vt_q;
  // a word made valid at the edge ending step 1 is the forwarded one)
  reg            lcu_fl_q, lcu_ft_q, lcu_vl_q, lcu_vt_q;
  reg [LDW-1:0]  lcu_gl_q, lcu_gt_q;
  wire [LDW-1:0] gl_lcu = lcu_fl_q ? lcu_gl_q : lcu_vl_q ? gl_rd : {LDW{1'b0}};
  wire [LDW-1:0] gt_lcu = lcu_ft_q ? lcu_gt_q : lcu_vt_q ? gt_rd : {LDW{1'b0}};
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
  always @(posedge clk_i) begin
    gu_la_q  <= gl_a;
    gu_ga_q  <= gu_g;
    gu_d_q   <= gu_d;
    lcu_fl_q <= gu_pend_q && (gu_la_q == lcu_la);
    lcu_vl_q <= gl_vld_q[lcu_la];
    lcu_vt_q <= gt_vld_q[g_lcu];
    lcu_ft_q <= gu_pend_q && (gu_ga_q == g_lcu);
    lcu_gl_q <= gl_wd;
    lcu_gt_q <= gt_wd;
  end

  // hist[c]: the decayed load of the command's CPU (f_cpu = c in step 1). It never exceeds
  // the largest load, so LDW bits hold it; the sum takes one more bit, so the halving is exact.
  // One flat register, hist of CPU x at [x*LDW +: LDW]: BALANCE reads all of them at once,
  // and a flat vector costs Verilator nothing to pass (per-CPU flops gathered into a vector
  // would be rebuilt at every edge). Read for one CPU through the array view hist_cpu (an
  // indexed part-select of the flat vector costs Yosys about 600 LUTs more).
  reg  [NR_CPUS*LDW-1:0] hist_all;
  wire [LDW-1:0] hist_c = hist_cpu[c_w];
  wire [LDW:0]   hist_sum = {1'b0, hist_c} + {1'b0, load_c};
  integer hx;
  always @(posedge clk_i) begin
    if (srst_i) hist_all <= {NR_CPUS*LDW{1'b0}};
    else if (ok1 && op_tick) begin
      for (hx = 0; hx < NR_CPUS; hx = hx + 1)
        if (c_w == hx[CW-1:0]) hist_all[hx*LDW +: LDW] <= hist_sum[LDW:1];
    end
  end

  // idle[c]
  reg [NR_CPUS-1:0] idle_q;
  always @(posedge clk_i) begin
    if (srst_i) idle_q <= {NR_CPUS{1'b0}};
    else if (ok1 && op_idle) idle_q[c_w] <= afield;
  end

  // The load or history of one CPU, f_cpu, changes at this edge (a load write, or LOAD_TICK
  // in step 1, where f_cpu = c): hws_balance keeps its block sums from these.
  wire [LDW-1:0] hist_f   = hist_cpu[f_cpu];
  wire           tick_we  = ok1 && op_tick;
  wire           gs_upd   = load_we || tick_we;
  wire [LDW-1:0] gs_n_new = load_we ? load_new : load_f;
  wire [LDW-1:0] gs_h_new = tick_we ? hist_sum[LDW:1] : hist_f;
  reg  [5:0]     gs_cpu6;
  always @* begin
    gs_cpu6 = 6'd0;
    gs_cpu6[CW-1:0] = f_cpu;
  end

  // ---------------------------------------------------------------------------------------
  // Domain table and placement queries (section 8.1)
  wire [31:0] qry_word;
  hws_domain #(.NR_CPUS(NR_CPUS), .LOAD_W(LDW), .LCU_BALANCE(LCU_BALANCE)) u_dom (
    .clk_i(clk_i), .srst_i(srst_i),
    .set_i(ok1 && op_dset), .set_k_i(dset_k), .set_cpu_i(cfield), .set_data_i(dset_val),
    .q_cpu_i(cfield), .q_level_i(pfield[1:0]), .q_kind_i({afield, hfield}),
    .q_now_i(tfield[1:0] != 2'd0), .q_bad_o(dom_bad), .q_ok_o(dom_ok),
    .q_go_i(ok1 && op_qry), .load_i(load_all), .hist_i(hist_all), .idle_i(idle_q),
    .upd_i(gs_upd), .upd_cpu_i(gs_cpu6), .upd_n_old_i(load_f), .upd_n_new_i(gs_n_new),
    .upd_h_old_i(hist_f), .upd_h_new_i(gs_h_new),
    .q_done_o(bal_done), .q_res_o(qry_word), .bal_regs_o(bal_regs_o)
  );

  // ---------------------------------------------------------------------------------------
  // Sequencer registers
  always @(posedge clk_i) begin
    if (srst_i) begin
      busy_q <= 1'b0;
      step_q <= 3'd0;
    end else if (start_i) begin
      busy_q <= 1'b1;
      step_q <= 3'd1;
    end else if (done) begin
      busy_q <= 1'b0;
      step_q <= 3'd0;
    end else if (busy_q && !(op_bal && s2)) begin   // BALANCE waits in step 2
      step_q <= step_q + 3'd1;
    end
  end

  // Datapath registers without reset
  always @(posedge clk_i) begin
    if (start_i) begin
      cmd_q <= cmd_i;
      swc_q <= swap_all[c_in] ^ (swap_flip && (c_w == c_in));
      ft_q  <= 1'b0;
      fn_q  <= 1'b0;
      {fcp_q, fcpr_q, fpk_q} <= fsel_fn(cmd_i[HWS_CMD_OP_LSB +: HWS_CMD_OP_W], 3'd1);
      fin_q <= (lat_fn(cmd_i[HWS_CMD_OP_LSB +: HWS_CMD_OP_W]) == 3'd1);
      {ck_code_q, ck_q_q, ck_nq_q, ck_dm_q} <= ck_in;
      ck_bad_q <= (ck_in[14:7] != HWS_ERR_OK);
      rs_q  <= rsrc_fn(cmd_i);
      qt_q  <= !t_in_bad && ((q_we && (q_idx == t_in[TW-1:0])) ? link : queued_q[t_in[TW-1:0]]);
      tv_q  <= !t_in_bad && ((setg_we && (t_w == t_in[TW-1:0])) || grp_vld_q[t_in[TW-1:0]]);
    end
    if (!start_i) begin
      ft_q  <= ft_ops || (op_migr && ((step_q == 3'd1) || (step_q == 3'd2)));
      fn_q  <= op_move && ((step_q == 3'd3) || (step_q == 3'd4));
      {fcp_q, fcpr_q, fpk_q} <= fsel_fn(op, step_q + 3'd1);
      // (BALANCE waits in step 2 and ends on bal_done, not fin_q)
      fin_q <= ((step_q + 3'd1) == lat) && !(op_bal && s2);
    end
    ht_addr_q <= ht_raddr;
    hnew_q    <= ht_idx(nl_arr, nl_prio);       // used in step 4 of a move
    smk_q     <= f_sm_k;
    bnew_q    <= {nl_arr, nl_prio[7:4]};
    bm_addr_q <= bm_raddr;
    if (s1 || (s3 && op_pick)) wl_q <= wl_rom;   // weight(PRIO), or of PICK_NEXT's prio
    if (s1) begin
      pk_phys_q <= ffs_phys;
      pk_k_q    <= ffs_k;
      pk_tw_q   <= pk_c[2];
      pk_swap_q <= pk_c[1];
      pk_none_q <= pk_c[0];
    end
    if (s2) pk_prio_q <= {pk_k_q, ffs_lo};
    if (s3) pk_one_q  <= (ht_t == ht_h);
  end

  // ---------------------------------------------------------------------------------------
  // Result word
  wire [NRW:0]  nr_run = {1'b0, nr_c0} + {1'b0, nr_c1};
  // Bitmap chunk k (step 2): the word read in step 1, trusted while its summary bit is set
  // (bits 140..143 of chunk 8 are never set). The summary bit and whether the selector
  // names a chunk are registered in step 1 (cst_tw_q, cst_bm_q), so step 2 passes the RAM
  // word through one gate and the result multiplexer.
  wire [NK-1:0] chunk_sm = chunk_phys ? sm_c[NK +: NK] : sm_c[0 +: NK];
  wire [15:0]   chunk_oh = 16'd1 << chunk_k;
  reg           cst_tw_q, cst_bm_q;
  always @(posedge clk_i) begin
    cst_tw_q <= ((chunk_sm & chunk_oh[NK-1:0]) != {NK{1'b0}});
    cst_bm_q <= (pfield >= HWS_SEL_CPU_STAT_ACT_BM0);
  end
  wire [15:0]   chunk_w  = cst_tw_q ? bm_rd : 16'd0;

  // The selectors that read flops are formed in step 1 and registered (cst_q, sampled at
  // every edge, used in step 2: CPU_STAT changes nothing between its two steps); only a
  // bitmap chunk, a RAM word, is selected in step 2.
  reg [31:0] cst_pre, cst_q;
  always @* begin
    cst_pre = 32'd0;
    if (pfield == HWS_SEL_CPU_STAT_NR_RUNNING)      cst_pre[NRW:0] = nr_run;
    else if (pfield == HWS_SEL_CPU_STAT_NR_ACTIVE)  cst_pre[NRW-1:0] = nr_act;
    else if (pfield == HWS_SEL_CPU_STAT_NR_EXPIRED) cst_pre[NRW-1:0] = nr_exp;
    else if (pfield == HWS_SEL_CPU_STAT_LOAD)       cst_pre[LDW-1:0] = load_c;
    else if (pfield == HWS_SEL_CPU_STAT_SWAP)       cst_pre[0] = swap_c;
  end
  always @(posedge clk_i) cst_q <= cst_pre;
  wire [31:0] cst_word = cst_bm_q ? {16'd0, chunk_w} : cst_q;

  wire [31:0] h32   = {{(32-TW){1'b0}}, ht_h};
  wire [11:0] h_ext = h32[11:0];
  wire [31:0] pick_word = pk_none_q ? HWS_NONE_FLAG :
                          (({31'd0, pk_swap_q} << HWS_RES_SWAP_LSB) |
                           ({20'd0, h_ext} << HWS_RES_TASK_LSB) |
                           ({24'd0, pk_prio_q} << HWS_RES_PRIO_LSB));

  wire [31:0] tinfo_word = ({31'd0, 1'b1} << HWS_TINFO_QUEUED_LSB) |
                           ({31'd0, tt_phys ^ swap_o} << HWS_TINFO_ARRAY_LSB) |
                           ({{(32-CW){1'b0}}, tt_cpu} << HWS_TINFO_CPU_LSB) |
                           ({24'd0, tt_prio} << HWS_TINFO_PRIO_LSB);
  wire [31:0] grp32    = {{(32-GW){1'b0}}, grp_u};   // u = t for TASK_STAT
  wire [31:0] tst_word = rs_q[5] ? grp32 :
                         !q_t ? 32'd0 :
                         rs_q[6] ? tinfo_word : {14'd0, f_weight};

  // LCU_STAT (step 1: f_cpu = c, g_a = the TASK field)
  reg [63:0] idle64;
  always @* begin
    idle64 = 64'd0;
    idle64[NR_CPUS-1:0] = idle_q;
  end
  // As for CPU_STAT, the values that read flops (history, load, idle flags) are selected
  // in step 1 and registered (lcu_h_q, lcu_l_q, lcu_q); step 2 compares the history with
  // the load for SOURCE/TARGET (a carry chain after a CPU select was too long for one
  // step) and selects, or takes a group word (block RAM).
  reg [LDW-1:0] lcu_h_q, lcu_l_q;
  reg [31:0]    lcu_pre, lcu_q;
  always @* begin
    lcu_pre = 32'd0;
    // IDLE0 + k, k = 0..3 (selectors 5..8): CPUs 16k+15..16k. 16-bit chunks keep bit 31,
    // the error flag of a result word, clear.
    case (pfield[1:0])
      2'b01:   lcu_pre[15:0] = idle64[15:0];
      2'b10:   lcu_pre[15:0] = idle64[31:16];
      2'b11:   lcu_pre[15:0] = idle64[47:32];
      default: lcu_pre[15:0] = idle64[63:48];
    endcase
  end
  always @(posedge clk_i) begin
    lcu_q   <= lcu_pre;
    lcu_h_q <= hist_c;
    lcu_l_q <= load_c;
  end
  wire hist_lt = (lcu_h_q < lcu_l_q);
  reg [31:0] lcu_word;
  always @* begin
    lcu_word = lcu_q;
    if (pfield == HWS_SEL_LCU_STAT_GROUP_LOAD)       lcu_word = {{(32-LDW){1'b0}}, gl_lcu};
    else if (pfield == HWS_SEL_LCU_STAT_GROUP_TOTAL) lcu_word = {{(32-LDW){1'b0}}, gt_lcu};
    else if (pfield == HWS_SEL_LCU_STAT_HIST)        lcu_word = {{(32-LDW){1'b0}}, lcu_h_q};
    else if (pfield == HWS_SEL_LCU_STAT_SOURCE_LOAD)
      lcu_word = {{(32-LDW){1'b0}}, hist_lt ? lcu_h_q : lcu_l_q};
    else if (pfield == HWS_SEL_LCU_STAT_TARGET_LOAD)
      lcu_word = {{(32-LDW){1'b0}}, hist_lt ? lcu_l_q : lcu_h_q};
  end

  // The result's source is one-hot (rs_q, registered at the pop), so the multiplexer is an
  // AND-OR of the five words, not a chain of choices.
  wire [31:0] res_ok = ({32{rs_q[0]}} & pick_word) | ({32{rs_q[1]}} & cst_word) |
                       ({32{rs_q[2]}} & lcu_word)  | ({32{rs_q[3]}} & qry_word) |
                       ({32{rs_q[4]}} & tst_word);
  wire [31:0] res_word = failed ? (HWS_ERR_FLAG | {24'd0, ecode}) : res_ok;

  assign busy_o     = busy_q;
  assign done_o     = done;
  assign res_push_o = done && (op_pick || op_peek || op_cst || op_tst || op_lcu || op_qry);
  assign res_data_o = res_word;
  assign err_o      = failed;
  assign err_code_o = ecode;
  assign cmd_o      = cmd_q;

  // Bits that some configurations do not need.
  wire unused_bits = &{1'b0, tfield, cfield, sel_act[7:4], sel_exp[7:4], h32,
                            w32, wn32, prio_hi[15:9], load_all, gl_a_full, lcu_la_full, cf_in,
                            hist_sum[0]};
  // ... and of the bitmap RAM's addresses (the top bit at NR_CPUS = 1) and one-hots.
  wire unused_bm   = &{1'b0, chunk_oh[15:9], f_bma, cst_bma, pk_bma, tt_bma, bnew_q, enq_bma,
                            htl_wa, htl_ra, hth_wa, hth_ra};

  // ---------------------------------------------------------------------------------------
  // Simulation-only checks of the invariants of docs/accelerator.md section 6.
  // They run at every edge where no command is half done (idle, or step 1: every earlier
  // command has completed and this one has not changed anything yet).
`ifndef SYNTHESIS
  wire consistent = !busy_q || (step_q == 3'd1);
  wire task_bad   = ({1'b0, tfield} >= NR_TASKS32[12:0]);

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
      if (gu_pend_q && (gu_la_q == i[GLAW-1:0])) gl_val[LDW-1:0] = gl_wd;   // lands at this edge
      else if (gl_vld_q[i[GLAW-1:0]]) gl_val[LDW-1:0] = u_gl.mem_q[i[GLAW-1:0]];
    end
  endfunction
  function automatic [31:0] gt_val(input integer g);
    begin
      if (g < 0 || g >= NR_GROUPS) $fatal(1, "hws_rq_engine: gt_val(%0d) out of range", g);
      gt_val = 32'd0;
      if (gu_pend_q && (gu_ga_q == g[GW-1:0])) gt_val[LDW-1:0] = gt_wd;     // lands at this edge
      else if (gt_vld_q[g[GW-1:0]]) gt_val[LDW-1:0] = u_gt.mem_q[g[GW-1:0]];
    end
  endfunction
  function automatic integer grp_val(input integer t);
    begin
      if (t < 0 || t >= TDEP) $fatal(1, "hws_rq_engine: grp_val(%0d) out of range", t);
      grp_val = 0;
      if (grp_vld_q[t[TW-1:0]]) grp_val = {{(32-GW){1'b0}}, u_grp.mem_q[t[TW-1:0]]};
    end
  endfunction

  // The priority a task's weight follows (section 8, "Load weights"), as the engine holds it.
  // (The weight stored beside wprio is checked by deep_check.)
  function automatic [7:0] wt_prio_val(input [TW-1:0] t, input [7:0] p);
    /* verilator lint_off UNUSEDSIGNAL */
    reg [26:0] wt;
    /* verilator lint_on UNUSEDSIGNAL */
    begin
      wt = u_wt.mem_q[t];
      wt_prio_val = (grp_vld_q[t] && wt[8]) ? wt[7:0] : p;
    end
  endfunction

  // Word k of physical array a's bitmap as the engine holds it: the RAM word while its
  // summary bit is set, else 0. An index out of range is a bug of the checks themselves.
  function automatic [15:0] bm_word_val(input integer a, input integer k);
    begin
      if (a < 0 || a >= NARR || k < 0 || k >= NK)
        $fatal(1, "hws_rq_engine: bm_word_val(%0d, %0d) out of range", a, k);
      bm_word_val = 16'd0;
      if (sm_all[a * NK + k]) bm_word_val = u_bm.mem_q[a * 16 + k];
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
      sm  = sm_all[a*NK +: NK];
      nr2 = nr_cpu[arr[AIW-1:1]];
      ld  = load_cpu[arr[AIW-1:1]];
      nr  = arr[0] ? nr2[NRW +: NRW] : nr2[0 +: NRW];
      // Each summary bit says its word is non-zero (a clear one makes the word read 0), and
      // no bit above 139 is set: so the bitmap is empty iff the summary is.
      for (k = 0; k < NK; k = k + 1) begin
        wd = u_bm.mem_q[a * 16 + k];
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
      if (upd || setw_upd) begin
        chk_arr0_q <= f_arr;
        chk_arr1_q <= chk_arr0_q;
        chk_grp0_q <= g_a;
        chk_grp1_q <= chk_grp0_q;
        chk_vld0_q <= 1'b1;
        chk_vld1_q <= chk_vld0_q;
      end else if (consistent) begin
        chk_vld0_q <= 1'b0;
        chk_vld1_q <= 1'b0;
      end
    end
  end

  // The bitmap word a step rewrites is the focus list's, read earlier in this command; the
  // list a task is unlinked from has its bit set; PICK_NEXT/PEEK find a set summary bit
  // exactly when the count says the array they search has a task.
  always @(posedge clk_i) begin
    if (!srst_i) begin
      if (bm_we && (bm_addr_q != f_bma[BMAW-1:0])) begin
        $display("hws_rq_engine: INVARIANT FAILED at %0t: bitmap word %0d written, focus list cpu %0d phys %0d prio %0d",
                 $time, bm_addr_q, f_cpu, f_phys, f_prio);
        $fatal(1, "hws_rq_engine: bitmap write address");
      end
      if (unlink && !f_ne) begin
        $display("hws_rq_engine: INVARIANT FAILED at %0t: unlink from cpu %0d phys %0d prio %0d, its bitmap bit is clear",
                 $time, f_cpu, f_phys, f_prio);
        $fatal(1, "hws_rq_engine: bitmap bit of a non-empty list");
      end
      if (s2 && (op_pick || op_peek) && (pk_tw_q == pk_none_q)) begin
        $display("hws_rq_engine: INVARIANT FAILED at %0t: PICK_NEXT/PEEK on cpu %0d: summary %0s, counts %0s",
                 $time, f_cpu, pk_tw_q ? "non-empty" : "empty", pk_none_q ? "empty" : "non-empty");
        $fatal(1, "hws_rq_engine: bitmap summary/count mismatch");
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
    if (!srst_i && (link || unlink) && (smk_q != f_sm_k)) begin
      $display("hws_rq_engine: INVARIANT FAILED at %0t: summary bit %0d, a step earlier %0d",
               $time, f_sm_k, smk_q);
      $fatal(1, "hws_rq_engine: smk_q differs from the focus list's summary bit");
    end
    // the checks and the last-step flag registered at the pop are those of cmd_q
    if (!srst_i && busy_q && (({ck_code_q, ck_q_q, ck_nq_q, ck_dm_q} != check_fn(cmd_q)) ||
                             (ck_bad_q != (ck_code_q != HWS_ERR_OK)) ||
                             (s1 && !ck_bad_q && (ck_dm_q != 5'd0) && (dom_fail != dom_bad)))) begin
      $display("hws_rq_engine: INVARIANT FAILED at %0t: registered checks of %h", $time, cmd_q);
      $fatal(1, "hws_rq_engine: ck_*_q differ from check_fn(cmd_q)");
    end
    if (!srst_i && busy_q && (rs_q != rsrc_fn(cmd_q))) begin
      $display("hws_rq_engine: INVARIANT FAILED at %0t: registered result source of %h", $time, cmd_q);
      $fatal(1, "hws_rq_engine: rs_q differs from rsrc_fn(cmd_q)");
    end
    if (!srst_i && busy_q && !op_bal && (fin_q != (step_q == lat))) begin
      $display("hws_rq_engine: INVARIANT FAILED at %0t: fin_q %0d in step %0d of %0d",
               $time, fin_q, step_q, lat);
      $fatal(1, "hws_rq_engine: fin_q is not step == latency");
    end
    // qt_q, latched at the pop, is queued[t] in every step of the command
    if (!srst_i && busy_q && (qt_q != (task_bad ? 1'b0 : queued_q[t_w]))) begin
      $display("hws_rq_engine: INVARIANT FAILED at %0t: qt_q %0d, queued[%0d] %0d",
               $time, qt_q, t_w, queued_q[t_w]);
      $fatal(1, "hws_rq_engine: qt_q differs from queued[t]");
    end
    // tv_q, latched at the pop, is grp_vld[t] in every step of the command
    if (!srst_i && busy_q && (tv_q != (task_bad ? 1'b0 : grp_vld_q[t_w]))) begin
      $display("hws_rq_engine: INVARIANT FAILED at %0t: tv_q %0d, grp_vld[%0d] %0d",
               $time, tv_q, t_w, grp_vld_q[t_w]);
      $fatal(1, "hws_rq_engine: tv_q differs from grp_vld[t]");
    end
    if (!srst_i && busy_q && ({fcp_q, fcpr_q, fpk_q} != fsel_fn(op, step_q))) begin
      $display("hws_rq_engine: INVARIANT FAILED at %0t: focus selects %b in step %0d of op %0d",
               $time, {fcp_q, fcpr_q, fpk_q}, step_q, op);
      $fatal(1, "hws_rq_engine: registered focus selects are not this step's");
    end
    if (!srst_i && busy_q && (swc_q != swap_all[c_w])) begin
      $display("hws_rq_engine: INVARIANT FAILED at %0t: swc_q %0d, swap[%0d] %0d",
               $time, swc_q, c_w, swap_all[c_w]);
      $fatal(1, "hws_rq_engine: swc_q differs from the command CPU's swap");
    end
    // sm_new is the summary bit of the word written
    if (!srst_i && upd && (sm_new != (bm_wd != 16'd0))) begin
      $display("hws_rq_engine: INVARIANT FAILED at %0t: new summary bit %0d, word %h",
               $time, sm_new, bm_wd);
      $fatal(1, "hws_rq_engine: sm_new is not the written word's summary bit");
    end
    if (!srst_i && busy_q && (fn_q != (op_move && (s4 || s5)))) begin
      $display("hws_rq_engine: INVARIANT FAILED at %0t: fn_q %0d in step %0d of op %0d",
               $time, fn_q, step_q, op);
      $fatal(1, "hws_rq_engine: fn_q marks the wrong steps");
    end
    if (!srst_i && fn_q && (bnew_q[AIW+3:4] != nl_arr)) begin
      $display("hws_rq_engine: INVARIANT FAILED at %0t: bnew_q array %0d, new list's %0d",
               $time, bnew_q[AIW+3:4], nl_arr);
      $fatal(1, "hws_rq_engine: bnew_q is not the new list's array");
    end
    // ft_q selects the focus CPU of docs' step schedule: the task's (tt) for the commands
    // on a task's list after step 1, except MIGRATE's new list (steps 4, 5)
    if (!srst_i && busy_q &&
        (ft_q != (!s1 && (ft_ops || (op_migr && !s4 && !s5))))) begin
      $display("hws_rq_engine: INVARIANT FAILED at %0t: ft_q %0d in step %0d of op %0d",
               $time, ft_q, step_q, op);
      $fatal(1, "hws_rq_engine: ft_q names the wrong focus CPU");
    end
  end

  // The group update unit never reads a word whose sum is still to be written.
  always @(posedge clk_i) begin
    if (!srst_i && gu_req && gu_pend_q && ((gu_la_q == gl_a) || (gu_ga_q == gu_g))) begin
      $display("hws_rq_engine: INVARIANT FAILED at %0t: group update of word %0d / group %0d while the same word is pending",
               $time, gl_a, gu_g);
      $fatal(1, "hws_rq_engine: group update hazard");
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
    reg [TTW+17+HTAW:0] tt;
    reg [TTW-1:0]      tt_exp;
    reg [26:0]         wtw;
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
              ht = li[HTAW-1] ? u_hth.mem_q[lha[HHAW-1:0]] : u_ht.mem_q[lla[HLAW-1:0]];
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
                tt = u_tt.mem_q[x];
                if (tt[TTW-1:0] != tt_exp) deep_fail("task entry names another list", c, a, p, xi);
                if (tt[TTW + 18 +: HTAW] != li) deep_fail("task entry's ht index is wrong", c, a, p, xi);
                if (tt[TTW +: 18] != hws_weight_fn(p[7:0]))
                  deep_fail("entry weight is not its prio's", c, a, p, xi);
                wtw = u_wt.mem_q[x];
                if (!grp_vld_q[x] && (wtw[8] || (u_grp.mem_q[x] != {GW{1'b0}})))
                  deep_fail("queued task's wt/grp word not in force", c, a, p, xi);
                if (grp_vld_q[x] && wtw[8] && wtw[9 +: 18] != hws_weight_fn(wtw[7:0]))
                  deep_fail("SET_WEIGHT weight not its prio's", c, a, p, xi);
                if (!first && (u_pv.mem_q[x] != prv)) deep_fail("prev link inconsistent", c, a, p, xi);
                cnt = cnt + 32'd1;
                w = {14'd0, hws_weight_fn(wt_prio_val(x, p[7:0]))};
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
                  x = u_nx.mem_q[x];
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
endmodule

`default_nettype wire
