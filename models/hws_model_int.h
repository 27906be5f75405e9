/*
 * hws_model_int.h - the model's shared state and its units' interfaces (private to
 * models/). One C file per RTL unit, named after it (docs/harness.md, "The model"):
 *
 *   hws_model.c      rtl/hws_top.v          create, reset, the edge, CMD_DONE, CYCLES, errors
 *   hws_m_fe.c       rtl/hws_port_fe.v, rtl/hws_axil_slave.v: port decode, registers,
 *                    STATUS, the window reads, the transactions and the pins
 *   hws_m_arbiter.c  rtl/hws_arbiter.v      the round-robin choice of a port
 *   hws_m_seq.c      rtl/hws_eng_seq.v      checks, latency, issue, overlapped issue,
 *                    completion (the command's effect, dispatched to the units below)
 *   hws_m_lists.c    rtl/hws_eng_lists.v    link, unlink, move, TASK_STAT
 *   hws_m_bitmap.c   rtl/hws_eng_bitmap.v   the bitmaps: set, test, first set; PICK_NEXT's
 *                    list, CPU_STAT
 *   hws_m_loads.c    rtl/hws_eng_loads.v    per-CPU counts, loads, history, idle, groups
 *   hws_m_domain.c   rtl/hws_domain.v, rtl/hws_balance.v: the domain table, QUERY, BALANCE
 *   hws_m_irq.c      rtl/hws_irq.v          CURR, IRQ_PEND, IRQ_EN
 *   hws_m_axil.c     rtl/hws_axil_slave.v  the handshakes around the edge; the transactions
 *   hws_m_units.c    the units' boundary values a lockstep pair compares (hws/units.h)
 *
 * The FIFOs (rtl/hws_fifo.v) and the bitmaps' bit operations are small enough to be inline
 * functions here. Each unit's fields of struct hws_model are grouped under its name.
 */
#ifndef HWS_MODEL_INT_H
#define HWS_MODEL_INT_H

#include <stdint.h>

#include "hws/regs.h"
#include "hws/units.h"
#include "lib/hws_balance.h"
#include "lib/hws_bus_timing.h"
#include "lib/hws_params.h"
#include "models/hws_model.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NPRIO HWS_NR_PRIO
#define FIFO_MAX HWS_MAX_DEPTH
#define BM_WORDS ((HWS_NR_PRIO + 31) / 32)	/* NR_PRIO bits in 32-bit words */
#define RESP_OKAY 0u
#define RESP_SLVERR 2u
#define HWS_MODEL_MAX_WAIT 100000u	/* the harness's kMaxWaitEdges */
/*
 * The engine's AXI4-Lite address ports are ADDR_W = 10 bits wide (rtl/hws_top.v,
 * s_axi_awaddr_i and s_axi_araddr_i [9:0]): the engine sees only an address's low 10 bits,
 * as the model does here. (Found by fuzz_regs when they were 8: a read of 0x200 was
 * unmapped for the model, ID for the RTL.)
 */
#define BUS_ADDR_MASK ((1u << HWS_ADDR_W) - 1u)

extern const uint8_t hws_m_op_lat[16];
extern const uint8_t hws_m_op_has_result[16];
extern const uint8_t hws_m_op_defined[16];

/* rtl/hws_fifo.v */
struct fifo {
	uint32_t w[FIFO_MAX];
	uint8_t tag[FIFO_MAX];	/* command FIFO: 1 = pushed by a POP read (section 4.4) */
	unsigned head;		/* index of the oldest word */
	unsigned n;		/* words held */
};

/* One port's front end (rtl/hws_port_fe.v): FIFOs, window state, STATUS.ERR, bus state. */
struct port {
	struct fifo cmdf, resf;
	unsigned qcnt;		/* commands in the command FIFO that will push a result word */
	/* The window read (section 4.4): its command pushed, its result word back. */
	int pop_issued, pop_ready;
	uint32_t pop_word;
	int err_sticky;		/* STATUS.ERR of this port */

	/* Bus state (not reset by a soft reset): a read that waits (section 4.2) ... */
	int rpend;
	uint32_t raddr;
	/* ... and, for hws_model_pins(), hws_axil_slave's registers. */
	int aw_held, w_held, bvalid, rvalid;
	uint32_t awaddr, wdata, wstrb, bresp, rdata, rresp;
};

/* A command in flight (section 4.1; rtl/hws_eng_seq.v). */
struct run {
	int busy;
	unsigned step;		/* 1..lat while busy */
	unsigned lat;		/* its latency */
	uint32_t cmd;
	int tag;		/* a POP read's command */
	int res;		/* it will push a word into its port's result FIFO */
	unsigned port;		/* the port it came from */
	int sfail;		/* it fails a check that reads state (QUEUED, NOTQUEUED,
				 * DOMAIN): nothing pops at its completion edge (4.1) */
};

struct hws_model {
	struct hws_params p;

	/* hws_m_lists.c (rtl/hws_eng_lists.v). q = (cpu * 2 + physical array) * NPRIO + prio. */
	uint8_t *queued;	/* per task */
	uint8_t *t_cpu;		/* per task, valid while queued */
	uint8_t *t_prio;
	uint8_t *t_arr;		/* physical array */
	uint16_t *next, *prev;	/* per task */
	uint16_t *head, *tail;	/* per list */
	/* hws_m_bitmap.c (rtl/hws_eng_bitmap.v) */
	uint32_t (*bm)[BM_WORDS];	/* per (cpu, physical array) */
	/* hws_m_loads.c (rtl/hws_eng_loads.v) */
	uint32_t *nr;		/* per (cpu, physical array) */
	uint32_t *load;		/* per cpu */
	uint8_t *swap;		/* per cpu: physical index of the active array */
	uint32_t *hist;		/* per cpu: decayed load history */
	uint8_t *grp;		/* per task: its group */
	uint8_t *wprio;		/* per task: the priority its load weight follows (SET_WEIGHT) */
	uint8_t *wfix;		/* per task: 1 when wprio was set, else the list priority counts */
	uint32_t *gload;	/* per (cpu, group): cpu * nr_groups + group */
	uint32_t *gtotal;	/* per group */
	uint8_t *idle;		/* per cpu */

	/* hws_m_domain.c (rtl/hws_domain.v, rtl/hws_balance.v; section 8) */
	uint8_t lead[3][HWS_MAX_CPUS];	/* partitions P1..P3: first CPU of each CPU's block */
	uint32_t pw[HWS_NR_LEVELS][HWS_MAX_CPUS];	/* power of the level-l group each CPU leads */
	uint8_t pct[HWS_NR_LEVELS];	/* imbalance_pct per level */
	uint32_t bal[4];	/* BAL_THIS, BAL_MAX, BAL_AVG, BAL_IMB */

	/* hws_m_fe.c: the ports' front ends (sections 4.2-4.5). */
	unsigned nports;
	struct port port[HWS_MAX_NR_PORTS];

	/* hws_m_seq.c (section 4.1): the commands in flight, oldest first. With PIPE = 0 only
	 * run[0] is ever used; with PIPE = 1 (section 4.1.1) run[1] holds a newcomer popped
	 * beside run[0]'s last step. */
	struct run run[2];
	uint64_t overlaps;	/* PIPE = 1: pops beside an older command since the create (a
				 * figure for tests, not engine state: no reset clears it) */
	/* hws_m_arbiter.c: the arbiter's first port to look at (section 4.5) */
	unsigned rr;

	/* hws_m_irq.c (section 4.6): CURR[c], IRQ_PEND, IRQ_EN (bit c = CPU c). */
	uint8_t curr[HWS_MAX_CPUS];
	uint64_t irq_pend, irq_en;
	/* The link of the command completing at this edge (hws_m_link()): its CPU, physical
	 * array and prio; lnk_valid is cleared before each completion. */
	int lnk_valid;
	unsigned lnk_cpu, lnk_parr, lnk_prio;

	/* hws_model.c (rtl/hws_top.v): registers. */
	uint32_t cmd_done, cycles;
	uint32_t err_last, err_cmd, err_seq, err_total, err_cnt[16];

	/* The master: the reference timing, or drawn per transaction (hws_model_set_bus()).
	 * Not the engine's state: no reset touches it. */
	int bus_random;
	struct hws_bus_gen bus;
};

/* What one port's bus does at one edge. */
struct bus_in {
	int write;		/* a write is taken at this edge */
	int read;		/* a read address is taken at this edge */
	uint32_t waddr, data, strb;	/* the write's */
	uint32_t raddr;		/* the read's */
};

struct bus_out {
	uint32_t wresp;		/* BRESP of the write taken at this edge */
	int rlatched;		/* RDATA latched at this edge */
	uint32_t rdata, rresp;
};

/*
 * One edge's decisions, all taken on the state just before the edge (section 4.3), passed
 * from unit to unit in the order hws_model.c's edge runs them.
 */
struct edge_ctx {
	const struct bus_in *in;
	struct bus_out *out;
	uint32_t done_before;	/* CMD_DONE before the edge (ERR_SEQ) */
	int done;		/* run[0] completes at this edge */
	struct run ran;		/* the command completing, when done */
	/* arbiter */
	unsigned win;
	int chosen, pop;
	/* front end, per port */
	unsigned cmdf_n[HWS_MAX_NR_PORTS], resf_n[HWS_MAX_NR_PORTS];
	int pop_refuse[HWS_MAX_NR_PORTS], pop_push[HWS_MAX_NR_PORTS];
	int latch[HWS_MAX_NR_PORTS], wr_cmd[HWS_MAX_NR_PORTS];
	unsigned wr_err[HWS_MAX_NR_PORTS], rd_err[HWS_MAX_NR_PORTS];
	uint32_t wr_info[HWS_MAX_NR_PORTS], rd_info[HWS_MAX_NR_PORTS];
	uint32_t act_addr[HWS_MAX_NR_PORTS];
	int err_clear, soft;
	/* irq: this edge's W1C mask (every port's OR-ed), IRQ_ENn written (the last port's
	 * word), CURR writes (per port, applied in port order), PICK_NEXT's CURR */
	uint64_t w1c;
	int en_wr[2], curr_cpu[HWS_MAX_NR_PORTS], pick_cpu, irq_set;
	uint32_t en_data[2];
	unsigned pick_prio;
	/* sequencer: the completion's error, result; the command popped */
	unsigned eng_err;
	uint32_t res, popped;
	int has_res, popped_tag;
};

/* ---- rtl/hws_fifo.v ---- */
static inline void fifo_push_tag(struct fifo *f, uint32_t w, int tag)
{
	f->w[(f->head + f->n) % FIFO_MAX] = w;
	f->tag[(f->head + f->n) % FIFO_MAX] = (uint8_t)tag;
	f->n++;
}

static inline void fifo_push(struct fifo *f, uint32_t w)
{
	fifo_push_tag(f, w, 0);
}

static inline uint32_t fifo_pop(struct fifo *f)
{
	uint32_t w = f->w[f->head];

	f->head = (f->head + 1) % FIFO_MAX;
	f->n--;
	return w;
}

/* ---- the command word (section 3) ---- */
static inline unsigned f_op(uint32_t c)
{
	return (c & HWS_CMD_OP_MASK) >> HWS_CMD_OP_LSB;
}

static inline unsigned f_task(uint32_t c)
{
	return (c & HWS_CMD_TASK_MASK) >> HWS_CMD_TASK_LSB;
}

static inline unsigned f_prio(uint32_t c)
{
	return (c & HWS_CMD_PRIO_MASK) >> HWS_CMD_PRIO_LSB;
}

static inline unsigned f_cpu(uint32_t c)
{
	return (c & HWS_CMD_CPU_MASK) >> HWS_CMD_CPU_LSB;
}

/* QUERY's kind: the ARRAY and HEAD bits. */
static inline unsigned q_kind(uint32_t c)
{
	return c & (HWS_CMD_ARRAY_MASK | HWS_CMD_HEAD_MASK);
}

/* ---- rtl/hws_eng_bitmap.v: the bit operations ---- */
static inline unsigned qidx(unsigned cpu, unsigned parr, unsigned prio)
{
	return (cpu * 2 + parr) * NPRIO + prio;
}

static inline int bm_test(const uint32_t *bm, unsigned prio)
{
	return (bm[prio / 32] >> (prio % 32)) & 1;
}

static inline void bm_set(uint32_t *bm, unsigned prio, int v)
{
	if (v)
		bm[prio / 32] |= 1u << (prio % 32);
	else
		bm[prio / 32] &= ~(1u << (prio % 32));
}

/* First set bit (lowest priority number), or NPRIO when empty. */
static inline unsigned bm_ffs(const uint32_t *bm)
{
	unsigned w;

	for (w = 0; w < BM_WORDS; w++)
		if (bm[w])
			return w * 32 + (unsigned)__builtin_ctz(bm[w]);
	return NPRIO;
}

/* hws_model.c (rtl/hws_top.v) */
void hws_m_clear_errors(struct hws_model *m);
void hws_m_reset_core(struct hws_model *m);
void hws_m_edge(struct hws_model *m, const struct bus_in *in, struct bus_out *out);

/* hws_m_fe.c (rtl/hws_port_fe.v, rtl/hws_axil_slave.v) */
int hws_m_is_pop(uint32_t addr);
uint32_t hws_m_pop_cmd(uint32_t addr);
void hws_m_fe_decode(struct hws_model *m, struct edge_ctx *e);
void hws_m_fe_read_effects(struct hws_model *m, const struct edge_ctx *e);
void hws_m_fe_route_result(struct hws_model *m, const struct edge_ctx *e);
void hws_m_fe_push(struct hws_model *m, const struct edge_ctx *e);
void hws_m_fe_clear_sticky(struct hws_model *m, const struct edge_ctx *e);
uint32_t hws_m_status_word(const struct hws_model *m, const struct port *pt);

/* hws_m_arbiter.c (rtl/hws_arbiter.v) */
void hws_m_arbiter(const struct hws_model *m, struct edge_ctx *e);
void hws_m_arbiter_started(struct hws_model *m, unsigned win);

/* hws_m_seq.c (rtl/hws_eng_seq.v) */
unsigned hws_m_check_cmd(const struct hws_model *m, uint32_t c);
unsigned hws_m_inflight_res(const struct hws_model *m, unsigned i);
void hws_m_seq_complete(struct hws_model *m, struct edge_ctx *e);
void hws_m_seq_pop(struct hws_model *m, struct edge_ctx *e);
void hws_m_seq_advance(struct hws_model *m, const struct edge_ctx *e);

/* hws_m_lists.c (rtl/hws_eng_lists.v) */
void hws_m_link(struct hws_model *m, unsigned t, unsigned cpu, unsigned parr, unsigned prio,
		int at_head);
void hws_m_unlink(struct hws_model *m, unsigned t);
void hws_m_move(struct hws_model *m, unsigned t, unsigned cpu, unsigned prio);
uint32_t hws_m_task_stat(const struct hws_model *m, unsigned t, unsigned sel);

/* hws_m_bitmap.c (rtl/hws_eng_bitmap.v) */
uint32_t hws_m_pick_word(const struct hws_model *m, unsigned cpu, int *swapped,
			 unsigned *parr, unsigned *prio);
uint32_t hws_m_bm_chunk(const struct hws_model *m, unsigned cpu, unsigned sel);

/* hws_m_loads.c (rtl/hws_eng_loads.v) */
uint32_t hws_m_task_weight(const struct hws_model *m, unsigned t, unsigned prio);
void hws_m_loads_add(struct hws_model *m, unsigned t, unsigned cpu, unsigned parr,
		     unsigned prio, int sign);
uint32_t hws_m_cpu_stat(const struct hws_model *m, unsigned cpu, unsigned sel);
uint32_t hws_m_lcu_stat(const struct hws_model *m, unsigned cpu, unsigned sel, unsigned g);
void hws_m_set_weight(struct hws_model *m, unsigned t, unsigned wp);
void hws_m_set_group(struct hws_model *m, unsigned t, unsigned g);
void hws_m_load_tick(struct hws_model *m, unsigned cpu);

/* hws_m_domain.c (rtl/hws_domain.v, rtl/hws_balance.v) */
int hws_m_domain_ok(const struct hws_model *m, unsigned level, int idle_core);
unsigned hws_m_dom_set_check(const struct hws_model *m, uint32_t c);
void hws_m_dom_set(struct hws_model *m, uint32_t c, unsigned cpu);
uint32_t hws_m_query(const struct hws_model *m, unsigned cpu, unsigned level, int idle_core);
uint32_t hws_m_balance(struct hws_model *m, unsigned cpu, unsigned level, unsigned idle);
void hws_m_domain_reset(struct hws_model *m);

/* hws_m_irq.c (rtl/hws_irq.v) */
int hws_m_is_curr(const struct hws_model *m, uint32_t addr);
void hws_m_irq_decode(struct hws_model *m, struct edge_ctx *e, unsigned i);
void hws_m_irq_step(struct hws_model *m, const struct edge_ctx *e);

/* hws_m_units.c: the boundary values (include/hws/units.h): 0, or -EAGAIN when the model
 * is not quiescent; a fault in one unit's state (tests): 0, or -ENOTSUP for a unit this
 * engine cannot corrupt that way (the arbiter of one port, the irq of an IRQ = 0 build). */
int hws_model_units(const struct hws_model *m, struct hws_units *u);
int hws_model_inject_unit_fault(struct hws_model *m, enum hws_unit unit);

#ifdef __cplusplus
}
#endif

#endif /* HWS_MODEL_INT_H */
