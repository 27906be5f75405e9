// hws_eng_seq: the engine's sequencer and its step table (part of hws_rq_engine).
//
// Owns: busy_q, step_q, the executing command cmd_q and the control word ctl_q.
// ctrl_fn(cmd, step) is the engine's step schedule (the table above step_fn, its one home)
// as code: for a command word and a step it returns every named field of rtl/hws_eng_ctl.vh (which RAM
// reads a new address and from which source, which list links or unlinks, which flops
// update, where the focus list comes from, the checks and the result's source, whether
// the step is the last). ctl_q is that word registered a step ahead, so every action of
// the datapath is a flop or a flop and a state bit, never a decode of cmd_q and step_q.
//
// Timing: the pop edge (start_i) latches cmd_i into cmd_q and ctrl_fn(cmd_i, 1) into
// ctl_q; during step k of a command ctl_q == ctrl_fn(cmd_q, k) (its command fields are
// those of cmd_q from the pop on); while idle the step fields are 0. The checks on the
// command word are part of the word (check_fn, evaluated on the FIFO head before the pop);
// step 1 adds the one that reads state (QUEUED / NOTQUEUED from q_t_i, DOMAIN from
// hws_domain's flags), and a failing command completes there (done_o, failed_o) with
// nothing changed. BALANCE (QUERY kind 2) stays in step 2 until bal_done_i.
`default_nettype none
`include "hws_eng_ctl.vh"

module hws_eng_seq #(
  parameter integer NR_CPUS     = 8,    // CPUs, 1..64 (hws_rq_engine checks the ranges)
  parameter integer NR_TASKS    = 256,  // task table entries, 1..4096
  parameter integer NR_GROUPS   = 16,   // task groups, 1..64
  parameter integer LCU_BALANCE = 1,    // 0: QUERY kind 2 fails with OPCODE
  // 1: overlapped issue (docs/accelerator.md 4.1.1): the pop rule's (a)-(d) (ovl_ok_o)
  // and the retiring copy of the older command (cmd_ret_q, ctl_ret_q)
  parameter integer PIPE        = 0
) (
  input  wire                   clk_i,
  input  wire                   srst_i,     // synchronous reset: idle, the command abandoned
  input  wire                   start_i,    // pop: latch cmd_i, start it at this edge
  input  wire [31:0]            cmd_i,      // the command FIFO's head
  input  wire                   q_t_i,      // queued[t] of cmd_q's task (hws_eng_lists)
  input  wire                   q_head_i,   // queued[t] of cmd_i's task just after this
                                            // edge (hws_eng_lists; PIPE = 1, check (d))
  input  wire [4:0]             dom_ok_i,   // hws_domain's consistency flags
  input  wire                   dom_bad_i,  // hws_domain's own DOMAIN verdict (asserted equal)
  input  wire                   bal_done_i, // BALANCE: hws_balance's final cycle
  output wire                   busy_o /*verilator public_flat_rd*/,     // a command is executing (any in flight)
  output wire [2:0]             step_o,     // the youngest's step, 1..5 (0 idle)
  // The retiring view: the command in its last step when two are in flight (cmd_ret_q,
  // ctl_ret_q), else the one executing (cmd_q, ctl_q); its last-step actions read these.
  output wire [31:0]            cmd_o,
  output wire [`HWS_CTL_W-1:0]  ctl_o,
  // The youngest command (cmd_q, ctl_q): step 1 of a newcomer beside the older's last
  // step reads these (with PIPE = 0 they are cmd_o, ctl_o).
  output wire [31:0]            cmd_yng_o,
  output wire [`HWS_CTL_W-1:0]  ctl_yng_o,
  output wire                   two_o /*verilator public_flat_rd*/,      // two commands in flight (PIPE = 1; else 0)
  output wire                   free_o,     // condition 2 of 4.1: every command in flight
                                            // completes at the coming edge (or none)
  output wire                   ovl_ok_o,   // PIPE = 1: cmd_i may pop beside the older
                                            // command, 4.1.1 (a)-(d) (hws_top adds (e))
  output wire                   done_o,     // a command completes at the coming edge
  output wire                   failed_o,   // ... because it failed a check (in step 1)
  output wire                   ok1_o,      // step 1 of a command that passed its checks
  output wire [7:0]             ecode_o     // the error code (OK unless it fails)
);
  // The generated header defines every constant of the register map; this module uses some.
  /* verilator lint_off UNUSEDPARAM */
`include "hws_regs.vh"
  /* verilator lint_on UNUSEDPARAM */

  localparam [31:0] NR_TASKS32  = NR_TASKS;
  localparam [31:0] NR_CPUS32   = NR_CPUS;
  localparam [31:0] NR_GROUPS32 = NR_GROUPS;
  localparam        BAL_BUILT   = (LCU_BALANCE != 0);

  // ---------------------------------------------------------------------------------------
  // Checks, in the order of docs/accelerator.md section 3. check_fn's result: {code of the
  // first failing word check (OK if none), QUEUED applies, NOTQUEUED applies, the
  // domain-table flags DOMAIN needs (hws_domain's q_ok_o; 0: no DOMAIN check)}. The flags
  // a QUERY at level l needs: Pl and P(l+1) where stored, their nesting when both are
  // (ok[0..2]: P1..P3 well formed, ok[3]: P1 in P2, ok[4]: P2 in P3), and P1 for
  // IDLE_CORE, as hws_domain's q_bad_o (checked against it below).
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
  // DOM_SET k = PRIO[2:0] (DSET fields of the register map): 0 imbalance_pct, 1..3 a
  // leader, DSET_K_POWER.. a power
  localparam [2:0] DSET_K_PCT3 = HWS_DSET_K_PCT[2:0];
  localparam [2:0] DSET_K_PWR3 = HWS_DSET_K_POWER[2:0];
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
          else if (dk == DSET_K_PCT3) begin            // imbalance_pct
            if (pc_bad)    code = HWS_ERR_PRIO;
          end else if (dk < DSET_K_PWR3) begin         // leader, k 1..3
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

  // Latency of an opcode (the register map's HWS_LAT_*).
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

  // The result word's source, one-hot: {TASK_STAT's INFO selector, its GROUP selector,
  // TASK_STAT, QUERY, LCU_STAT, CPU_STAT, PICK_NEXT/PEEK} (hws_eng_result).
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

  // ---------------------------------------------------------------------------------------
  // The step table. R = a RAM read address presented (its word is used in the next step),
  // W = a RAM or flop write at the end of the step; "f" is the focus list (hws_rq_engine).
  // The read address of ht and bm is held in the steps that present none.
  //
  //   op          step  ht read   bm read   next/wt   list action    other
  //   ENQUEUE     1     ENQ       ENQ                                wl = weight(PRIO)
  //               2                                   link t         W tt, wt, grp, queued
  //   DEQUEUE     1     OLD                                          (ht: hws_eng_lists' hti_e)
  //               2               OLD
  //               3                                   unlink t       queued = 0
  //   PICK_NEXT   1               PK (summary FFS)                   latch array, word
  //               2     PK (word FFS)                                latch prio
  //               3                         head                     wl = weight(prio)
  //               4                                   unlink head    swap, queued; result
  //   PEEK        1, 2  as PICK_NEXT; 3: result
  //   REQUEUE,    1     OLD
  //   SET_PRIO,   2               OLD
  //               3                                   unlink t
  //   MIGRATE     4     NEW       NEW
  //               5                                   link t (tail)  W tt
  //   CPU_STAT    1               CST (chunk)         2: result
  //   TASK_STAT   1: R tt, wt, grp at t;  2: result
  //   SET_GROUP   2: a queued task's weight leaves its old group
  //               3: ... and joins the new one; W grp[t], wt[t]
  //   SET_WEIGHT  2: latch weight(PRIO) - weight in force; 3: add it; W grp[t], wt[t]
  //   LCU_STAT    1: R gload, gtotal;  2: result
  //   LOAD_TICK, SET_IDLE, DOM_SET: 1: W (when the checks pass)
  //   QUERY       1: hws_domain latches; 2, 3 (BALANCE: 2 until bal_done); result
  localparam [2:0] A_HOLD = 3'd0;   // read address sources (ht and bm)
  localparam [2:0] A_ENQ  = 3'd1;   // ENQUEUE's list, from the command
  localparam [2:0] A_PK   = 3'd2;   // PICK_NEXT/PEEK's search
  localparam [2:0] A_OLD  = 3'd3;   // the task's list: ht from its index read at the pop
                                    // (hws_eng_lists' u_hti), bm from its entry in tt
  localparam [2:0] A_NEW  = 3'd4;   // a move's new list (hnew_q, bnew_q)
  localparam [2:0] A_CST  = 3'd5;   // CPU_STAT's bitmap chunk (bm only)
  // The command fields of a command word (bits C_W-1..0 of the word; the rest 0).
  function automatic [`HWS_CTL_W-1:0] cmd_fn(input [31:0] c);
    reg [3:0]  o;
    reg        af, hf, enq, pk, setp, setg, qry;
    reg [14:0] ck;
    reg [`HWS_CTL_W-1:0] w;
    begin
      o  = c[HWS_CMD_OP_LSB +: HWS_CMD_OP_W];
      af = c[HWS_CMD_ARRAY_LSB];
      hf = c[HWS_CMD_HEAD_LSB];
      enq  = (o == HWS_OP_ENQUEUE);
      pk   = (o == HWS_OP_PICK_NEXT) || (o == HWS_OP_PEEK);
      setp = (o == HWS_OP_SET_PRIO);
      setg = (o == HWS_OP_SET_GROUP);
      qry  = (o == HWS_OP_QUERY);
      ck   = check_fn(c);
      w = {`HWS_CTL_W{1'b0}};
      w[`HWS_C_ENQ]  = enq;
      w[`HWS_C_DEQ]  = (o == HWS_OP_DEQUEUE);
      w[`HWS_C_PICK] = (o == HWS_OP_PICK_NEXT);
      w[`HWS_C_PK]   = pk;
      w[`HWS_C_MOVE] = (o == HWS_OP_REQUEUE) || setp || (o == HWS_OP_MIGRATE);
      w[`HWS_C_SETP] = setp;
      w[`HWS_C_MIGR] = (o == HWS_OP_MIGRATE);
      w[`HWS_C_TICK] = (o == HWS_OP_LOAD_TICK);
      w[`HWS_C_SETW] = setg && hf;                 // SET_WEIGHT
      w[`HWS_C_GSET] = setg && !hf;
      w[`HWS_C_LCU]  = (o == HWS_OP_LCU_STAT);
      w[`HWS_C_IDLE] = (o == HWS_OP_SET_IDLE);
      w[`HWS_C_DSET] = (o == HWS_OP_DOM_SET);
      w[`HWS_C_QRY]  = qry;
      w[`HWS_C_BAL]  = qry && af && !hf;           // QUERY kind 2 (kind 3 fails OPCODE)
      w[`HWS_C_RES]  = pk || (o == HWS_OP_CPU_STAT) || (o == HWS_OP_TASK_STAT) ||
                       (o == HWS_OP_LCU_STAT) || qry;
      w[`HWS_C_HEAD] = enq && hf;
      w[`HWS_C_TTW]  = enq || setp;   // ENQUEUE and SET_PRIO link at PRIO, moves at their own
      w[`HWS_C_WLC]  = enq || pk;
      w[`HWS_C_RS +: 7]      = rsrc_fn(c);
      w[`HWS_C_CK_CODE +: 8] = ck[14:7];
      w[`HWS_C_CK_BAD]       = (ck[14:7] != HWS_ERR_OK);
      w[`HWS_C_CK_Q]         = ck[6];
      w[`HWS_C_CK_NQ]        = ck[5];
      w[`HWS_C_CK_DM +: 5]   = ck[4:0];
      cmd_fn = w;
    end
  endfunction

  // The engine's step schedule (its one home; hws_rq_engine's header and
  // docs/accelerator.md section 7 cite it): what each command reads (R) and writes (W) in
  // each step k (the cycle after the (k-1)-th edge following its pop; it completes at the
  // edge ending its last step, its latency in regmap.def). The focus list each step names
  // is hws_rq_engine's (S_F* below).
  //
  //   NOP        1: done
  //   ENQUEUE    1: R ht[list], bm word       2: W link at head/tail, tt[t], bitmap word and
  //                                              summary, nr, load, queued
  //   DEQUEUE    1: R tt[t], next[t], prev[t], ht[old list] (its index read at the pop)
  //              2: R bm word
  //              3: W unlink, bitmap word and summary, nr, load, queued
  //   PICK_NEXT  1: FFS of the summary of the active (else expired) array, R bm[that word]
  //              2: FFS16 of the word -> prio, R ht[that list]
  //              3: R next[head], wt[head]    4: W unlink head, bitmap word and summary, nr,
  //                                              load, queued, swap; result
  //   PEEK       1, 2: as PICK_NEXT           3: result
  //   REQUEUE,   1: R tt[t], next[t], prev[t], ht[old list] (its index read at the pop)
  //              2: R bm word
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
  //   SET_WEIGHT 1: R tt[t], wt[t], grp[t];   2: if queued, latch weight(PRIO) - the old
  //   (SET_GROUP                                 weight
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
  //                 step 2 until hws_balance's final cycle (BAL_LAT_* of the register
  //                 map: 8 + 2 max(2, ceil(log2 NR_CPUS)) cycles with a lane per CPU,
  //                 more with fewer BAL_LANES; never a function of the groups)
  //
  // step_fn is this table as code: the step fields of a command word in step st (bits
  // CTL_W-1..C_W; the rest 0; none in step 0, idle).
  function automatic [`HWS_CTL_W-1:0] step_fn(input [31:0] c, input [2:0] st);
    reg [3:0]  o;
    reg        af, hf, deq, pick, pk, req, setp, migr, move, tst, setg, bal;
    reg [2:0]  ht, bm;             // read address sources
    reg        nxh, unt, unh, lnk, gwe, sw, gold, gnew;
    reg [`HWS_CTL_W-1:0] w;
    begin
      o  = c[HWS_CMD_OP_LSB +: HWS_CMD_OP_W];
      af = c[HWS_CMD_ARRAY_LSB];
      hf = c[HWS_CMD_HEAD_LSB];
      deq  = (o == HWS_OP_DEQUEUE);
      pick = (o == HWS_OP_PICK_NEXT);
      pk   = pick || (o == HWS_OP_PEEK);
      req  = (o == HWS_OP_REQUEUE);
      setp = (o == HWS_OP_SET_PRIO);
      migr = (o == HWS_OP_MIGRATE);
      move = req || setp || migr;
      tst  = (o == HWS_OP_TASK_STAT);
      setg = (o == HWS_OP_SET_GROUP);
      bal  = (o == HWS_OP_QUERY) && af && !hf;
      ht = A_HOLD;  bm = A_HOLD;
      nxh = 1'b0;  unt = 1'b0;  unh = 1'b0;  lnk = 1'b0;
      gwe = 1'b0;  sw = 1'b0;  gold = 1'b0;  gnew = 1'b0;
      case (o)
        HWS_OP_ENQUEUE:
          case (st)
            3'd1:    begin ht = A_ENQ;  bm = A_ENQ;  end
            3'd2:    lnk = 1'b1;
            default: ;
          endcase
        HWS_OP_DEQUEUE:
          case (st)
            3'd1:    ht = A_OLD;
            3'd2:    bm = A_OLD;
            3'd3:    unt = 1'b1;
            default: ;
          endcase
        HWS_OP_PICK_NEXT, HWS_OP_PEEK:
          case (st)
            3'd1:    bm = A_PK;
            3'd2:    ht = A_PK;
            3'd3:    nxh = pick;
            3'd4:    unh = pick;
            default: ;
          endcase
        HWS_OP_REQUEUE, HWS_OP_SET_PRIO, HWS_OP_MIGRATE:
          case (st)
            3'd1:    ht = A_OLD;
            3'd2:    bm = A_OLD;
            3'd3:    unt = 1'b1;
            3'd4:    begin ht = A_NEW;  bm = A_NEW;  end
            3'd5:    lnk = 1'b1;
            default: ;
          endcase
        HWS_OP_CPU_STAT:
          if (st == 3'd1) bm = A_CST;
        HWS_OP_SET_GROUP:
          case (st)
            3'd2:    gold = !hf;
            3'd3:    begin gwe = 1'b1;  sw = hf;  gnew = !hf;  end
            default: ;
          endcase
        default: ;
      endcase
      w = {`HWS_CTL_W{1'b0}};
      if (st != 3'd0) begin
        w[`HWS_S_1]    = (st == 3'd1);
        w[`HWS_S_2]    = (st == 3'd2);
        w[`HWS_S_3]    = (st == 3'd3);
        w[`HWS_S_FIN]  = (st == lat_fn(o)) && !bal;
        w[`HWS_S_STAY] = bal && (st == 3'd2);
        // The focus list (hws_rq_engine): the task's CPU after step 1 for the commands on a
        // task's list, except a move's new list (steps 4, 5: bnew_q); the array and prio
        // from the command where it names the list, from PICK_NEXT/PEEK's latches for
        // their search, else from the task's entry.
        w[`HWS_S_FT]   = (st != 3'd1) && (deq || req || setp || tst || setg ||
                                          (migr && (st != 3'd4) && (st != 3'd5)));
        w[`HWS_S_FN]   = move && ((st == 3'd4) || (st == 3'd5));
        w[`HWS_S_FCP]  = !pk && !(deq || move || tst || setg);
        w[`HWS_S_FCPR] = (!pk && !(deq || move || tst || setg)) ||
                         (setp && ((st == 3'd4) || (st == 3'd5)));
        w[`HWS_S_FPK]  = pk;
        w[`HWS_S_HT_RD]  = (ht != A_HOLD);
        w[`HWS_S_HT_ENQ] = (ht == A_ENQ);
        w[`HWS_S_HT_PK]  = (ht == A_PK);
        w[`HWS_S_HT_OLD] = (ht == A_OLD);
        w[`HWS_S_BM_RD]  = (bm != A_HOLD);
        w[`HWS_S_BM_CST] = (bm == A_CST);
        w[`HWS_S_BM_PK]  = (bm == A_PK);
        w[`HWS_S_BM_ENQ] = (bm == A_ENQ);
        w[`HWS_S_BM_OLD] = (bm == A_OLD);
        w[`HWS_S_NX_HEAD] = nxh;
        w[`HWS_S_UNL_T]  = unt;
        w[`HWS_S_UNL_H]  = unh;
        w[`HWS_S_LINK]   = lnk;
        w[`HWS_S_GRP_WE] = gwe;
        w[`HWS_S_SETW]   = sw;
        w[`HWS_S_GOLD]   = gold;
        w[`HWS_S_GNEW]   = gnew;
        w[`HWS_S_WLS]    = setp && ((st == 3'd4) || (st == 3'd5));
        w[`HWS_S_WL_LD]  = (st == 3'd1) || (pick && (st == 3'd3));
      end
      step_fn = w;
    end
  endfunction

  // The whole word of a command in step st.
  function automatic [`HWS_CTL_W-1:0] ctrl_fn(input [31:0] c, input [2:0] st);
    ctrl_fn = cmd_fn(c) | step_fn(c, st);
  endfunction

  // The overlap class of 4.1.1 (PIPE = 1): ENQUEUE, PICK_NEXT, PEEK, CPU_STAT.
  /* verilator lint_off UNUSEDSIGNAL */
  function automatic cls_fn(input [31:0] c);   // (reads the OP field)
  /* verilator lint_on UNUSEDSIGNAL */
    reg [3:0] o;
    begin
      o = c[HWS_CMD_OP_LSB +: HWS_CMD_OP_W];
      cls_fn = (o == HWS_OP_ENQUEUE) || (o == HWS_OP_PICK_NEXT) || (o == HWS_OP_PEEK) ||
               (o == HWS_OP_CPU_STAT);
    end
  endfunction

  // ---------------------------------------------------------------------------------------
  // Sequencer registers
  reg        busy_q;
  reg [2:0]  step_q;
  reg [31:0] cmd_q;
  reg [`HWS_CTL_W-1:0] ctl_q;

  wire s1 = ctl_q[`HWS_S_1];

  // The check that reads state, in step 1: QUEUED / NOTQUEUED from q_t_i, DOMAIN from the
  // flags; the word checks come registered in the control word.
  wire [4:0] ck_dm    = ctl_q[`HWS_C_CK_DM +: 5];
  wire       dom_fail = ((ck_dm & ~dom_ok_i) != 5'd0);
  wire       ck_bad   = ctl_q[`HWS_C_CK_BAD];
  wire       ck_q     = ctl_q[`HWS_C_CK_Q];
  wire       ck_nq    = ctl_q[`HWS_C_CK_NQ];
  wire [7:0] ecode = ck_bad              ? ctl_q[`HWS_C_CK_CODE +: 8] :
                     (ck_q && q_t_i)     ? HWS_ERR_QUEUED :
                     (ck_nq && !q_t_i)   ? HWS_ERR_NOTQUEUED :
                     dom_fail            ? HWS_ERR_DOMAIN : HWS_ERR_OK;
  wire       ck_fail = ck_bad || (ck_q && q_t_i) || (ck_nq && !q_t_i) || dom_fail;
  wire       failed  = s1 && ck_fail;
  // done_y: the youngest command (cmd_q) completes at the coming edge
  // fin_y: the youngest command ends its last step (BALANCE: hws_balance's done)
  wire       fin_y   = busy_q && (ctl_q[`HWS_C_BAL] ? bal_done_i : ctl_q[`HWS_S_FIN]);
  wire       done_y  = failed || fin_y;
  wire       done;   // a command completes: the older when two are in flight, else done_y
  // done_w: done_y but for a failed state check (QUEUED, NOTQUEUED, DOMAIN), which
  // completes without letting the next command pop at its edge (4.1, condition 2): the
  // pop rule reads only registers of this module
  wire       done_w  = (s1 && ck_bad) || fin_y;

  // The word of the coming step: the command's first at the pop, the next step's while the
  // command runs on (BALANCE's step 2 holds), none when it completes.
  wire [2:0]            step_d  = ctl_q[`HWS_S_STAY] ? step_q : step_q + 3'd1;
  wire [`HWS_CTL_W-1:0] ctl_pop  = ctrl_fn(cmd_i, 3'd1);
  wire [`HWS_CTL_W-1:0] ctl_d = step_fn(cmd_q, step_d);

  always @(posedge clk_i) begin
    if (srst_i) begin
      busy_q <= 1'b0;
      step_q <= 3'd0;
    end else if (start_i) begin
      busy_q <= 1'b1;
      step_q <= 3'd1;
    end else if (done_y) begin
      busy_q <= 1'b0;
      step_q <= 3'd0;
    end else if (busy_q) begin
      step_q <= step_d;
    end
  end

  // The command fields and cmd_q have no reset (they are read only while busy, or as data);
  // the step fields are 0 from reset and whenever no command runs.
  always @(posedge clk_i) begin
    if (start_i) begin
      cmd_q <= cmd_i;
      ctl_q[`HWS_C_W-1:0] <= ctl_pop[`HWS_C_W-1:0];
    end
    if (srst_i)
      ctl_q[`HWS_CTL_W-1:`HWS_C_W] <= {(`HWS_CTL_W - `HWS_C_W){1'b0}};
    else if (start_i)
      ctl_q[`HWS_CTL_W-1:`HWS_C_W] <= ctl_pop[`HWS_CTL_W-1:`HWS_C_W];
    else if (busy_q && !done_y)
      ctl_q[`HWS_CTL_W-1:`HWS_C_W] <= ctl_d[`HWS_CTL_W-1:`HWS_C_W];
    else
      ctl_q[`HWS_CTL_W-1:`HWS_C_W] <= {(`HWS_CTL_W - `HWS_C_W){1'b0}};
  end

  // ---------------------------------------------------------------------------------------
  // Overlapped issue (PIPE = 1, docs/accelerator.md 4.1.1). The youngest command is cmd_q;
  // a newcomer popped while it stays in flight (an overlapping pop, opop) moves it into the
  // retiring copy cmd_ret_q / ctl_ret_q with the word of its last step, and two_q says two are in
  // flight for the one cycle that follows: the older completes at the edge ending it.
  generate
    if (PIPE != 0) begin : g_pipe
      reg                   two_q;
      reg [31:0]            cmd_ret_q;
      reg [`HWS_CTL_W-1:0]  ctl_ret_q;
      wire [3:0] op_q = cmd_q[HWS_CMD_OP_LSB +: HWS_CMD_OP_W];
      wire [3:0] op_i = cmd_i[HWS_CMD_OP_LSB +: HWS_CMD_OP_W];
      wire free = !busy_q || (done_w && !two_q);
      wire opop = start_i && !free;
      // (a) the youngest stays in flight and enters its last step; (b) both in the class;
      // (c) the raw CPU fields differ, and the TASK fields of two ENQUEUEs; (d) the
      // newcomer passes its word checks and, ENQUEUE, QUEUED on the state after this edge.
      wire ok_a = busy_q && !done_y && ctl_d[`HWS_S_FIN];
      wire ok_b = cls_fn(cmd_q) && cls_fn(cmd_i);
      wire ok_c = (cmd_q[HWS_CMD_CPU_LSB +: HWS_CMD_CPU_W] != cmd_i[HWS_CMD_CPU_LSB +: HWS_CMD_CPU_W]) &&
                  !((op_q == HWS_OP_ENQUEUE) && (op_i == HWS_OP_ENQUEUE) &&
                    (cmd_q[HWS_CMD_TASK_LSB +: HWS_CMD_TASK_W] == cmd_i[HWS_CMD_TASK_LSB +: HWS_CMD_TASK_W]));
      wire ok_d = !ctl_pop[`HWS_C_CK_BAD] && !(ctl_pop[`HWS_C_CK_Q] && q_head_i);
      always @(posedge clk_i) begin
        if (srst_i) two_q <= 1'b0;
        else        two_q <= opop;     // the older completes at the edge after it
      end
      always @(posedge clk_i) begin
        if (opop) begin
          cmd_ret_q <= cmd_q;
          ctl_ret_q <= {ctl_d[`HWS_CTL_W-1:`HWS_C_W], ctl_q[`HWS_C_W-1:0]};
        end
      end
      assign done     = two_q || done_y;
      assign two_o    = two_q;
      assign free_o   = free;
      assign ovl_ok_o = ok_a && ok_b && ok_c && ok_d;
      assign cmd_o    = two_q ? cmd_ret_q : cmd_q;
      assign ctl_o    = two_q ? ctl_ret_q : ctl_q;
`ifndef SYNTHESIS
`ifndef FORMAL
      // The retiring copy is its command's last step; the youngest beside it is in step 1
      // and passed its checks; a pop is condition 2's or the overlap rule's.
      always @(posedge clk_i) begin
        if (!srst_i && two_q &&
            ((ctl_ret_q != ctrl_fn(cmd_ret_q, lat_fn(cmd_ret_q[HWS_CMD_OP_LSB +: HWS_CMD_OP_W]))) ||
             !ctl_ret_q[`HWS_S_FIN] || step_q != 3'd1 || failed || done_y)) begin
          $display("hws_eng_seq: INVARIANT FAILED at %0t: retiring %h word %h, youngest %h step %0d failed %0d",
                   $time, cmd_ret_q, ctl_ret_q, cmd_q, step_q, failed);
          $fatal(1, "hws_eng_seq: two in flight");
        end
        if (!srst_i && start_i && !free && !ovl_ok_o) begin
          $display("hws_eng_seq: INVARIANT FAILED at %0t: pop of %h beside %h outside the rule",
                   $time, cmd_i, cmd_q);
          $fatal(1, "hws_eng_seq: overlapping pop");
        end
      end
`endif
`endif
    end else begin : g_serial
      assign done     = done_y;
      assign two_o    = 1'b0;
      assign free_o   = !busy_q || done_w;
      assign ovl_ok_o = 1'b0;
      assign cmd_o    = cmd_q;
      assign ctl_o    = ctl_q;
      wire unused_pipe = &{1'b0, q_head_i};
    end
  endgenerate

  assign busy_o   = busy_q;
  assign step_o   = step_q;
  assign cmd_yng_o  = cmd_q;
  assign ctl_yng_o  = ctl_q;
  assign done_o   = done;
  assign failed_o = failed;
  assign ok1_o    = s1 && !ck_fail;
  assign ecode_o  = ecode;
  // (step_fn leaves the command fields 0)
  wire unused_ctl_d = &{1'b0, ctl_d[`HWS_C_W-1:0]};

  // ---------------------------------------------------------------------------------------
  // Simulation-only check: the control word is the step table's, the one register for every
  // decision taken a step ahead (its command fields, among them the checks and the result
  // source, are cmd_q's; its step fields this step's, none while idle), and the DOMAIN
  // check agrees with hws_domain's own.
`ifndef SYNTHESIS
`ifndef FORMAL   // ($fatal in an always block: simulation only)
  wire [`HWS_CTL_W-1:0] ctl_exp = ctrl_fn(cmd_q, busy_q ? step_q : 3'd0);
  always @(posedge clk_i) begin
    if (!srst_i && (busy_q ? (ctl_q != ctl_exp)
                           : (ctl_q[`HWS_CTL_W-1:`HWS_C_W] != {(`HWS_CTL_W - `HWS_C_W){1'b0}}))) begin
      $display("hws_eng_seq: INVARIANT FAILED at %0t: control word %h in step %0d of %h, the table says %h",
               $time, ctl_q, step_q, cmd_q, ctl_exp);
      $fatal(1, "hws_eng_seq: ctl_q differs from ctrl_fn(cmd_q, step_q)");
    end
    if (!srst_i && s1 && !ck_bad && (ck_dm != 5'd0) && (dom_fail != dom_bad_i)) begin
      $display("hws_eng_seq: INVARIANT FAILED at %0t: DOMAIN check %0d, hws_domain says %0d",
               $time, dom_fail, dom_bad_i);
      $fatal(1, "hws_eng_seq: DOMAIN check differs from hws_domain's");
    end
  end
`endif
`endif

`ifdef FORMAL
  // ---------------------------------------------------------------------------------------
  // Formal properties (formal/proofs.list, docs/formal.md). The environment: reset at the
  // start, and a pop only when the caller may (hws_top's pop rule: free_o, condition 2 of
  // 4.1; with PIPE = 1 also ovl_ok_o, the rule's (a)-(d), hws_top adding (e)). f_cnt and
  // the latency properties follow the youngest command (done_y: with PIPE = 0 done).
`define HWS_F_RESET srst_i
`include "hws_formal_env.vh"
  always @(*) if (start_i) assume (free_o || ovl_ok_o);
  // hws_balance's done comes at the earliest in the cycle after its go, the step-1 edge of
  // a BALANCE that passed its checks: never in a step 1 (its counter is 0 from the last
  // completion on, hws_balance cnt_q).
  always @(*) if (s1) assume (!bal_done_i);

  // f_cnt: the step a command is in, counted from its pop (0 idle).
  reg [3:0] f_cnt = 4'd0;
  always @(posedge clk_i) begin
    if (srst_i)                  f_cnt <= 4'd0;
    else if (start_i)            f_cnt <= 4'd1;
    else if (done_y)             f_cnt <= 4'd0;
    else if (busy_q && f_cnt != 4'hf) f_cnt <= f_cnt + 4'd1;
  end
  wire [2:0] f_lat = lat_fn(cmd_q[HWS_CMD_OP_LSB +: HWS_CMD_OP_W]);
  wire [`HWS_CTL_W-1:0] f_cmd_w = cmd_fn(cmd_q);
  // (cmd_fn leaves the step fields 0; hws_domain's verdict is compared in simulation)
  wire f_unused = &{1'b0, f_cmd_w[`HWS_CTL_W-1:`HWS_C_W], dom_bad_i};
  wire       f_bal = ctl_q[`HWS_C_BAL];
  // The command fields are cmd_q's from the pop on (kept in f_cmd_ok).
  reg f_cmd_ok = 1'b0;
  always @(posedge clk_i) if (start_i) f_cmd_ok <= 1'b1;

  always @(*) begin
    if (f_past_valid && !srst_i) begin
      // The control word is the table's: while a command runs ctrl_fn(cmd_q, step_q), idle
      // no step field; its command fields are cmd_q's once a command was popped.
      if (busy_q) begin
        assert (ctl_q == ctrl_fn(cmd_q, step_q));
      end else begin
        assert (ctl_q[`HWS_CTL_W-1:`HWS_C_W] == {(`HWS_CTL_W - `HWS_C_W){1'b0}});
      end
      if (f_cmd_ok) assert (ctl_q[`HWS_C_W-1:0] == f_cmd_w[`HWS_C_W-1:0]);
      assert (busy_q == (step_q != 3'd0));
      // Every popped command completes in exactly its latency: its steps are counted from
      // the pop, it never runs past its last one, and it completes at the edge ending it
      // (a command that fails a check completes in step 1). BALANCE ends on hws_balance's
      // done (its own latency, hws_balance's properties), staying in step 2.
      assert (f_cnt == {1'b0, step_q} || (f_bal && step_q == 3'd2 && f_cnt >= 4'd2));
      if (busy_q && !f_bal) assert (step_q <= f_lat);
      if (busy_q && f_bal)  assert (step_q <= 3'd2);
      if (done_y && !failed && !f_bal) assert (f_cnt == {1'b0, f_lat});
      if (failed) assert (f_cnt == 4'd1);
      if (busy_q && !f_bal && f_cnt == {1'b0, f_lat}) assert (done_y);
      // A command that fails a check changes nothing but the error registers: in its
      // step 1 no field that writes state is set, and ok1 (the 1-cycle writes) is 0.
      if (failed) assert (!ok1_o && !ctl_q[`HWS_S_LINK] && !ctl_q[`HWS_S_UNL_T] &&
                          !ctl_q[`HWS_S_UNL_H] && !ctl_q[`HWS_S_GRP_WE] &&
                          !ctl_q[`HWS_S_SETW] && !ctl_q[`HWS_S_GOLD] && !ctl_q[`HWS_S_GNEW]);
      // Condition 2 of 4.1: the engine is free exactly when idle, or when its only command
      // completes at the coming edge other than by failing a state check (QUEUED,
      // NOTQUEUED, DOMAIN: nothing pops at that edge; a word-check failure, ck_bad, frees).
      assert (free_o == (!busy_q || (done_y && !two_o && !(failed && !ck_bad))));
    end
  end

  // Overlapped issue (PIPE = 1, docs/accelerator.md 4.1.1): at most two commands in flight,
  // they complete one per edge and in pop order, and two are in flight only as the rule
  // says - the older (the retiring view) in its last step with its own last-step word, of
  // the class, on another CPU than the youngest, which is in step 1 and passed its checks.
  // Pops are numbered (f_pops); f_yid and f_oid are the youngest's and the older's
  // numbers, f_dones the number of the next command to complete.
  generate
    if (PIPE != 0) begin : g_f_pipe
      reg [3:0] f_pops = 4'd0, f_dones = 4'd0, f_yid = 4'd0, f_oid = 4'd0;
      always @(posedge clk_i) begin
        if (srst_i) begin
          f_pops  <= 4'd0;
          f_dones <= 4'd0;
        end else begin
          if (start_i) begin
            f_pops <= f_pops + 4'd1;
            f_yid  <= f_pops;
            if (!free_o) f_oid <= f_yid;
          end
          if (done) f_dones <= f_dones + 4'd1;
        end
      end
      wire [3:0] f_nr = f_pops - f_dones;   // commands in flight
      // The environment's queued[t]: hws_eng_lists registers it at the pop (qt_q) from the
      // value q_head_i gave the pop rule, and holds it for the command.
      reg f_qh = 1'b0;
      always @(posedge clk_i) if (start_i) f_qh <= q_head_i;
      always @(*) if (f_past_valid && busy_q) assume (q_t_i == f_qh);
      always @(*) begin
        if (f_past_valid && !srst_i) begin
          assert (f_nr == {3'd0, busy_q} + {3'd0, two_o});
          assert (f_nr <= 4'd2);
          if (busy_q)          assert (f_yid == f_pops - 4'd1);
          if (busy_q && !two_o) assert (f_dones == f_yid);
          if (two_o) begin
            assert (f_oid == f_pops - 4'd2 && f_dones == f_oid);
            assert (busy_q && step_q == 3'd1 && !failed && !done_y && done);
            assert (ctl_o == ctrl_fn(cmd_o, lat_fn(cmd_o[HWS_CMD_OP_LSB +: HWS_CMD_OP_W])));
            assert (ctl_o[`HWS_S_FIN] && cls_fn(cmd_o) && cls_fn(cmd_q));
            assert (cmd_o[HWS_CMD_CPU_LSB +: HWS_CMD_CPU_W] != cmd_q[HWS_CMD_CPU_LSB +: HWS_CMD_CPU_W]);
          end
        end
      end
    end
  endgenerate
`endif
endmodule

`default_nettype wire
