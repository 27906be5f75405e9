// hws_eng_ctl.vh - the engine's control word: the position of each named field.
// Include at file scope (macros, guarded: a port width needs them before the module
// header); a field is read as ctl_i[`HWS_C_ENQ]. The word is hws_eng_seq's ctl_q, formed
// by its ctrl_fn(cmd, step) (the step table of hws_rq_engine's header, as code) and
// registered a step ahead:
// during step k of a command ctl_q == ctrl_fn(cmd_q, k), idle its step fields are 0
// (asserted in hws_eng_seq). The datapath modules take the word and read fields by name,
// so no module but the sequencer decodes an opcode or compares a step number.
// Each field follows the one before it (a field of N bits takes N positions); the command
// fields come first (bits C_W-1..0, loaded at the pop only), the step fields after.
`ifndef HWS_ENG_CTL_VH
`define HWS_ENG_CTL_VH
// Command fields (C_*): functions of the command word alone, registered at the pop edge
// and held for the whole command (and after it, like cmd_q).
`define HWS_C_ENQ     0   // ENQUEUE
`define HWS_C_DEQ     1   // DEQUEUE
`define HWS_C_PICK    2   // PICK_NEXT
`define HWS_C_PK      3   // PICK_NEXT or PEEK (they search the bitmap)
`define HWS_C_MOVE    4   // REQUEUE, SET_PRIO or MIGRATE (unlink, then link)
`define HWS_C_SETP    5   // SET_PRIO
`define HWS_C_MIGR    6   // MIGRATE
`define HWS_C_TICK    7   // LOAD_TICK
`define HWS_C_SETW    8   // SET_WEIGHT (SET_GROUP with HEAD = 1)
`define HWS_C_GSET    9   // SET_GROUP with HEAD = 0 (a change of group)
`define HWS_C_LCU     10  // LCU_STAT
`define HWS_C_IDLE    11  // SET_IDLE
`define HWS_C_DSET    12  // DOM_SET
`define HWS_C_QRY     13  // QUERY (any kind)
`define HWS_C_BAL     14  // QUERY kind 2, BALANCE: ends on hws_balance's done
`define HWS_C_RES     15  // the command pushes a result word
`define HWS_C_HEAD    16  // ENQUEUE at the head of its list
`define HWS_C_TTW     17  // the link writes weight(PRIO) (wl_q) into tt, not tt's own
`define HWS_C_WLC     18  // the focus weight is wl_q (ENQUEUE, PICK_NEXT, PEEK)
`define HWS_C_RS      19  // 7 bits: the result's source, one-hot (hws_eng_result)
`define HWS_C_CK_CODE 26  // 8 bits: code of the first failing word check (OK: none)
`define HWS_C_CK_BAD  34  // ... is not OK
`define HWS_C_CK_Q    35  // QUEUED check follows
`define HWS_C_CK_NQ   36  // NOTQUEUED check follows
`define HWS_C_CK_DM   37  // 5 bits: DOMAIN check follows, needing these flags
`define HWS_C_W       42  // width of the command fields
// Step fields (S_*): functions of the command and the step, 0 while idle.
`define HWS_S_1       42  // step 1
`define HWS_S_2       43  // step 2
`define HWS_S_3       44  // step 3
`define HWS_S_FIN     45  // the last step (not BALANCE, which ends on bal_done)
`define HWS_S_STAY    46  // BALANCE's step 2: the step number holds
`define HWS_S_FT      47  // focus CPU: the task's (tt), else the command's
`define HWS_S_FN      48  // focus list: a move's new list (bnew_q)
`define HWS_S_FCP     49  // focus phys array from the command (ARRAY ^ swap)
`define HWS_S_FCPR    50  // focus prio from the command (PRIO)
`define HWS_S_FPK     51  // focus array and prio from PICK_NEXT/PEEK's latches
`define HWS_S_HT_RD   52  // ht: a new read address (else the held one)
`define HWS_S_HT_ENQ  53  //   ... ENQUEUE's list
`define HWS_S_HT_PK   54  //   ... the list PICK_NEXT/PEEK found
`define HWS_S_HT_OLD  55  //   ... the task's list (its ht index read at the pop); else the new list
`define HWS_S_BM_RD   56  // bm: a new read address (else the held one)
`define HWS_S_BM_CST  57  //   ... CPU_STAT's chunk
`define HWS_S_BM_PK   58  //   ... the word of the summary search
`define HWS_S_BM_ENQ  59  //   ... ENQUEUE's list's word
`define HWS_S_BM_OLD  60  //   ... the task's list's word; else the new list's
`define HWS_S_NX_HEAD 61  // next/wt read at the head found (else at the task)
`define HWS_S_UNL_T   62  // unlink the command's task from its list
`define HWS_S_UNL_H   63  // unlink the head found (when there is one)
`define HWS_S_LINK    64  // link the task into the focus list
`define HWS_S_GRP_WE  65  // write grp[t] and wt[t] (SET_GROUP, SET_WEIGHT)
`define HWS_S_SETW    66  // SET_WEIGHT's load update (when queued)
`define HWS_S_GOLD    67  // SET_GROUP: take the weight from the old group
`define HWS_S_GNEW    68  // SET_GROUP: add it to the new group
`define HWS_S_WLS     69  // the focus weight is wl_q (SET_PRIO's new list)
`define HWS_S_WL_LD   70  // wl_q latches the weight ROM
`define HWS_CTL_W     71  // width of the word
`endif
