/*
 * hws_model.c - reference model of the hwsched engine; see hws_model.h and
 * docs/accelerator.md. Every rule below cites the section of the spec it follows.
 */
#include "hws_model.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hws/regs.h"
#include "lib/hws_balance.h"
#include "lib/hws_params.h"
#include "lib/hws_topo.h"
#include "lib/hws_weight.h"

#define NPRIO HWS_NR_PRIO
#define FIFO_MAX HWS_MAX_DEPTH
#define BM_WORDS ((HWS_NR_PRIO + 31) / 32)	/* NR_PRIO bits in 32-bit words */
#define RESP_OKAY 0u
#define RESP_SLVERR 2u
#define HWS_MODEL_MAX_WAIT 100000u	/* the harness's kMaxWaitEdges */

static const uint8_t op_lat[16] = {
#define X(name, code, lat, res) [code] = lat,
	HWS_FOR_EACH_OP(X)
#undef X
};

static const uint8_t op_has_result[16] = {
#define X(name, code, lat, res) [code] = res,
	HWS_FOR_EACH_OP(X)
#undef X
};

static const uint8_t op_defined[16] = {
#define X(name, code, lat, res) [code] = 1,
	HWS_FOR_EACH_OP(X)
#undef X
};

struct fifo {
	uint32_t w[FIFO_MAX];
	uint8_t tag[FIFO_MAX];	/* command FIFO: 1 = pushed by a POP read (section 4.4) */
	unsigned head;		/* index of the oldest word */
	unsigned n;		/* words held */
};

/* One port's front end: FIFOs, window state, STATUS.ERR, and its bus state. */
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

/* A command in flight (section 4.1). */
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

	/* Queue state (section 2). q = (cpu * 2 + physical array) * NPRIO + prio. */
	uint8_t *queued;	/* per task */
	uint8_t *t_cpu;		/* per task, valid while queued */
	uint8_t *t_prio;
	uint8_t *t_arr;		/* physical array */
	uint16_t *next, *prev;	/* per task */
	uint16_t *head, *tail;	/* per list */
	uint32_t (*bm)[BM_WORDS];	/* per (cpu, physical array) */
	uint32_t *nr;		/* per (cpu, physical array) */
	uint32_t *load;		/* per cpu */
	uint8_t *swap;		/* per cpu: physical index of the active array */

	/* Load-comparison unit (section 8). */
	uint32_t *hist;		/* per cpu: decayed load history */
	uint8_t *grp;		/* per task: its group */
	uint8_t *wprio;		/* per task: the priority its load weight follows (SET_WEIGHT) */
	uint8_t *wfix;		/* per task: 1 when wprio was set, else the list priority counts */
	uint32_t *gload;	/* per (cpu, group): cpu * nr_groups + group */
	uint32_t *gtotal;	/* per group */
	uint8_t *idle;		/* per cpu */
	uint8_t lead[3][HWS_MAX_CPUS];	/* partitions P1..P3: first CPU of each CPU's block */
	uint32_t pw[HWS_NR_LEVELS][HWS_MAX_CPUS];	/* power of the level-l group each CPU leads */
	uint8_t pct[HWS_NR_LEVELS];	/* imbalance_pct per level */
	uint32_t bal[4];	/* BAL_THIS, BAL_MAX, BAL_AVG, BAL_IMB */

	/* The ports' front ends (sections 4.2-4.5). */
	unsigned nports;
	struct port port[HWS_MAX_NR_PORTS];

	/* Engine (section 4.1): the commands in flight, oldest first. With PIPE = 0 only
	 * run[0] is ever used; with PIPE = 1 (section 4.1.1) run[1] holds a newcomer popped
	 * beside run[0]'s last step. */
	struct run run[2];
	uint64_t overlaps;	/* PIPE = 1: pops beside an older command since the create (a
				 * figure for tests, not engine state: no reset clears it) */
	unsigned rr;		/* the arbiter's first port to look at (section 4.5) */

	/* The preemption interrupt (section 4.6): CURR[c], IRQ_PEND, IRQ_EN (bit c = CPU c). */
	uint8_t curr[HWS_MAX_CPUS];
	uint64_t irq_pend, irq_en;
	/* The link of the command completing at this edge (link_task()): its CPU, physical
	 * array and prio; lnk_valid is cleared before each completion. */
	int lnk_valid;
	unsigned lnk_cpu, lnk_parr, lnk_prio;

	/* Registers. */
	uint32_t cmd_done, cycles;
	uint32_t err_last, err_cmd, err_seq, err_total, err_cnt[16];

	/* The master: the reference timing, or drawn per transaction (hws_model_set_bus()).
	 * Not the engine's state: no reset touches it. */
	int bus_random;
	struct hws_bus_gen bus;
};

/* The load weight of task @t when on list @prio: its SET_WEIGHT priority once set. */
static uint32_t task_weight(const struct hws_model *m, unsigned t, unsigned prio)
{
	return hws_weight_of(m->wfix[t] ? m->wprio[t] : prio);
}

static void fifo_push_tag(struct fifo *f, uint32_t w, int tag)
{
	f->w[(f->head + f->n) % FIFO_MAX] = w;
	f->tag[(f->head + f->n) % FIFO_MAX] = (uint8_t)tag;
	f->n++;
}

static void fifo_push(struct fifo *f, uint32_t w)
{
	fifo_push_tag(f, w, 0);
}

static uint32_t fifo_pop(struct fifo *f)
{
	uint32_t w = f->w[f->head];

	f->head = (f->head + 1) % FIFO_MAX;
	f->n--;
	return w;
}

static unsigned qidx(unsigned cpu, unsigned parr, unsigned prio)
{
	return (cpu * 2 + parr) * NPRIO + prio;
}

static int bm_test(const uint32_t *bm, unsigned prio)
{
	return (bm[prio / 32] >> (prio % 32)) & 1;
}

static void bm_set(uint32_t *bm, unsigned prio, int v)
{
	if (v)
		bm[prio / 32] |= 1u << (prio % 32);
	else
		bm[prio / 32] &= ~(1u << (prio % 32));
}

/* First set bit (lowest priority number), or NPRIO when empty. */
static unsigned bm_ffs(const uint32_t *bm)
{
	unsigned w;

	for (w = 0; w < BM_WORDS; w++)
		if (bm[w])
			return w * 32 + (unsigned)__builtin_ctz(bm[w]);
	return NPRIO;
}

/* What CTRL.ERR_CLEAR clears (and reset, with the rest). */
static void clear_errors(struct hws_model *m)
{
	m->err_last = 0;
	m->err_cmd = 0;
	m->err_seq = 0;
	m->err_total = 0;
	memset(m->err_cnt, 0, sizeof(m->err_cnt));
	for (unsigned i = 0; i < m->nports; i++)
		m->port[i].err_sticky = 0;
}

/* What a soft reset clears: everything but the bus state. */
static void reset_core(struct hws_model *m)
{
	const struct hws_params *p = &m->p;

	memset(m->queued, 0, p->nr_tasks);
	memset(m->bm, 0, sizeof(*m->bm) * p->nr_cpus * 2);
	memset(m->nr, 0, sizeof(*m->nr) * p->nr_cpus * 2);
	memset(m->load, 0, sizeof(*m->load) * p->nr_cpus);
	memset(m->swap, 0, p->nr_cpus);
	memset(m->hist, 0, sizeof(*m->hist) * p->nr_cpus);
	memset(m->grp, 0, p->nr_tasks);
	memset(m->wprio, 0, p->nr_tasks);
	memset(m->wfix, 0, p->nr_tasks);
	memset(m->gload, 0, sizeof(*m->gload) * p->nr_cpus * p->nr_groups);
	memset(m->gtotal, 0, sizeof(*m->gtotal) * p->nr_groups);
	memset(m->idle, 0, p->nr_cpus);
	for (unsigned k = 0; k < 3; k++)
		for (unsigned c = 0; c < HWS_MAX_CPUS; c++)
			m->lead[k][c] = (uint8_t)c;
	for (unsigned l = 0; l < HWS_NR_LEVELS; l++) {
		for (unsigned c = 0; c < HWS_MAX_CPUS; c++)
			m->pw[l][c] = HWS_DEF_POWER;
		m->pct[l] = HWS_DEF_PCT;
	}
	memset(m->bal, 0, sizeof(m->bal));
	for (unsigned i = 0; i < m->nports; i++) {
		struct port *pt = &m->port[i];

		memset(&pt->cmdf, 0, sizeof(pt->cmdf));
		memset(&pt->resf, 0, sizeof(pt->resf));
		pt->qcnt = 0;
		pt->pop_issued = 0;
		pt->pop_ready = 0;
		pt->pop_word = 0;
	}
	memset(m->run, 0, sizeof(m->run));
	m->rr = 0;
	memset(m->curr, HWS_CURR_IDLE, sizeof(m->curr));
	m->irq_pend = 0;
	m->irq_en = 0;
	m->lnk_valid = 0;
	m->cmd_done = 0;
	m->cycles = 0;
	clear_errors(m);
}

void hws_model_reset(struct hws_model *m)
{
	reset_core(m);
	for (unsigned i = 0; i < m->nports; i++) {
		struct port *pt = &m->port[i];

		pt->rpend = 0;
		pt->raddr = 0;
		pt->aw_held = pt->w_held = pt->bvalid = pt->rvalid = 0;
		pt->awaddr = pt->wdata = pt->wstrb = pt->bresp = pt->rdata = pt->rresp = 0;
	}
}

int hws_model_create(struct hws_model **out, const struct hws_params *p)
{
	struct hws_model *m;
	size_t nq;
	int ret;

	ret = hws_params_check(p, NULL, 0);
	if (ret)
		return ret;
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->p = *p;
	m->nports = p->nr_ports ? p->nr_ports : 1;
	nq = (size_t)p->nr_cpus * 2 * NPRIO;
	m->queued = calloc(p->nr_tasks, 1);
	m->t_cpu = calloc(p->nr_tasks, 1);
	m->t_prio = calloc(p->nr_tasks, 1);
	m->t_arr = calloc(p->nr_tasks, 1);
	m->next = calloc(p->nr_tasks, sizeof(*m->next));
	m->prev = calloc(p->nr_tasks, sizeof(*m->prev));
	m->head = calloc(nq, sizeof(*m->head));
	m->tail = calloc(nq, sizeof(*m->tail));
	m->bm = calloc((size_t)p->nr_cpus * 2, sizeof(*m->bm));
	m->nr = calloc((size_t)p->nr_cpus * 2, sizeof(*m->nr));
	m->load = calloc(p->nr_cpus, sizeof(*m->load));
	m->swap = calloc(p->nr_cpus, 1);
	m->hist = calloc(p->nr_cpus, sizeof(*m->hist));
	m->grp = calloc(p->nr_tasks, 1);
	m->wprio = calloc(p->nr_tasks, 1);
	m->wfix = calloc(p->nr_tasks, 1);
	m->gload = calloc((size_t)p->nr_cpus * p->nr_groups, sizeof(*m->gload));
	m->gtotal = calloc(p->nr_groups, sizeof(*m->gtotal));
	m->idle = calloc(p->nr_cpus, 1);
	if (!m->queued || !m->t_cpu || !m->t_prio || !m->t_arr || !m->next || !m->prev ||
	    !m->head || !m->tail || !m->bm || !m->nr || !m->load || !m->swap || !m->hist ||
	    !m->grp || !m->wprio || !m->wfix || !m->gload || !m->gtotal || !m->idle) {
		hws_model_destroy(m);
		return -ENOMEM;
	}
	hws_model_reset(m);
	*out = m;
	return 0;
}

void hws_model_destroy(struct hws_model *m)
{
	if (!m)
		return;
	free(m->queued);
	free(m->t_cpu);
	free(m->t_prio);
	free(m->t_arr);
	free(m->next);
	free(m->prev);
	free(m->head);
	free(m->tail);
	free(m->bm);
	free(m->nr);
	free(m->load);
	free(m->swap);
	free(m->hist);
	free(m->grp);
	free(m->wprio);
	free(m->wfix);
	free(m->gload);
	free(m->gtotal);
	free(m->idle);
	free(m);
}

/* ---- Commands (section 3) ---- */

static unsigned f_op(uint32_t c)
{
	return (c & HWS_CMD_OP_MASK) >> HWS_CMD_OP_LSB;
}

static unsigned f_task(uint32_t c)
{
	return (c & HWS_CMD_TASK_MASK) >> HWS_CMD_TASK_LSB;
}

static unsigned f_prio(uint32_t c)
{
	return (c & HWS_CMD_PRIO_MASK) >> HWS_CMD_PRIO_LSB;
}

static unsigned f_cpu(uint32_t c)
{
	return (c & HWS_CMD_CPU_MASK) >> HWS_CMD_CPU_LSB;
}

/* ---- Domain table (section 8.1) ---- */

/* Is stored partition Pk (k = 1..3) named by first CPUs, as section 8.1 requires? */
static int partition_ok(const struct hws_model *m, unsigned k)
{
	unsigned x, l;

	if (k < 1 || k > 3)
		return 1;
	for (x = 0; x < m->p.nr_cpus; x++) {
		l = m->lead[k - 1][x];
		if (l > x || m->lead[k - 1][l] != l)
			return 0;
	}
	return 1;
}

/* The consistency a QUERY at @level checks (@idle_core: also P1). */
static int domain_ok(const struct hws_model *m, unsigned level, int idle_core)
{
	unsigned x;

	if (!partition_ok(m, level) || !partition_ok(m, level + 1) ||
	    (idle_core && !partition_ok(m, 1)))
		return 0;
	if (level >= 1 && level + 1 <= 3)
		for (x = 0; x < m->p.nr_cpus; x++)
			if (m->lead[level][x] != m->lead[level][m->lead[level - 1][x]])
				return 0;
	return 1;
}

/* QUERY: IDLEST or IDLE_CORE, with the rules of lib/hws_balance.c. */
static uint32_t query(const struct hws_model *m, unsigned cpu, unsigned level, int idle_core)
{
	struct hws_cpu_load loads[HWS_MAX_CPUS] = { { 0, 0 } };
	uint64_t core_of[HWS_MAX_CPUS];
	uint64_t span = hws_domain_span(m->lead, m->p.nr_cpus, level, cpu), idle = 0;
	unsigned x;
	int found;

	if (!idle_core) {
		for (x = 0; x < m->p.nr_cpus; x++)
			loads[x].now = m->load[x];
		return (uint32_t)hws_find_idlest(span, loads, (int)cpu);
	}
	for (x = 0; x < m->p.nr_cpus; x++)
		idle |= (uint64_t)m->idle[x] << x;
	hws_core_of(m->lead, m->p.nr_cpus, core_of);
	found = hws_find_idle_core(span, core_of, idle, cpu);
	if (found < 0)
		return HWS_QRES_NONE_MASK;
	return (uint32_t)found |
	       ((core_of[found] & span & ~idle) ? 0 : HWS_QRES_WHOLE_CORE_MASK);
}

/* QUERY BALANCE (section 8.2): hws_find_busiest() on the domain the table describes. */
static uint32_t balance(struct hws_model *m, unsigned cpu, unsigned level, unsigned idle)
{
	struct hws_cpu_load loads[HWS_MAX_CPUS] = { { 0, 0 } };
	struct hws_sd sd;
	struct hws_balance b;
	unsigned x, g;
	uint32_t res;

	for (x = 0; x < m->p.nr_cpus; x++) {
		loads[x].now = m->load[x];
		loads[x].hist = m->hist[x];
	}
	hws_domain_sd(m->lead, m->p.nr_cpus, level, cpu, m->pw[level], m->pct[level], &sd);
	/* The table cannot describe an inconsistent domain once DOMAIN has passed. */
	if (hws_find_busiest(&sd, cpu, (enum hws_idle_type)idle, loads, &b))
		abort();
	m->bal[0] = b.this_load;
	m->bal[1] = b.max_load;
	m->bal[2] = b.avg_load;
	m->bal[3] = b.imbalance;
	g = (unsigned)__builtin_ctzll(sd.group_cpus[b.this_group]);
	res = (uint32_t)b.verdict << HWS_BRES_VERDICT_LSB | g << HWS_BRES_THIS_LSB;
	if (b.busiest_group >= 0)
		res |= HWS_BRES_HAS_BUSIEST_MASK |
		       (uint32_t)__builtin_ctzll(sd.group_cpus[b.busiest_group])
			       << HWS_BRES_BUSIEST_LSB;
	if (b.busiest_cpu >= 0)
		res |= HWS_BRES_HAS_CPU_MASK | (uint32_t)b.busiest_cpu << HWS_BRES_BUSIEST_CPU_LSB;
	return res;
}

/* The checks of each command, in the order of the table in section 3. */
static unsigned q_kind(uint32_t c)
{
	return c & (HWS_CMD_ARRAY_MASK | HWS_CMD_HEAD_MASK);
}

/* DOM_SET's checks after CPU (section 8.2): @prio is the whole PRIO field. */
/* The DSET fields of a DOM_SET word (section 8.2). */
struct dset {
	unsigned k, hi, data, pct, rsvd, level;
};

#define DSET_FIELD(c, f) (((c) & HWS_DSET_##f##_MASK) >> HWS_DSET_##f##_LSB)

static struct dset dset_of(uint32_t c)
{
	return (struct dset){ DSET_FIELD(c, K), DSET_FIELD(c, HI), DSET_FIELD(c, DATA),
			      DSET_FIELD(c, PCT), DSET_FIELD(c, PCT_RSVD), DSET_FIELD(c, LEVEL) };
}

static unsigned dom_set_check(const struct hws_model *m, uint32_t c)
{
	struct dset f = dset_of(c);

	if (f.k == HWS_DSET_K_PCT)
		return f.hi || f.rsvd || f.pct < HWS_MIN_PCT ? HWS_ERR_PRIO : 0;
	if (f.k < HWS_DSET_K_POWER) {
		if (f.hi)
			return HWS_ERR_PRIO;
		return f.data >= m->p.nr_cpus ? HWS_ERR_CPU : 0;
	}
	return (f.hi << HWS_DSET_DATA_W | f.data) < HWS_MIN_POWER ? HWS_ERR_PRIO : 0;
}

/* DOM_SET's effect on the domain table of @cpu. */
static void dom_set(struct hws_model *m, uint32_t c, unsigned cpu)
{
	struct dset f = dset_of(c);

	if (f.k == HWS_DSET_K_PCT)
		m->pct[f.level] = (uint8_t)f.pct;
	else if (f.k < HWS_DSET_K_POWER)
		m->lead[f.k - 1][cpu] = (uint8_t)f.data;
	else
		m->pw[f.k - HWS_DSET_K_POWER][cpu] = f.hi << HWS_DSET_DATA_W | f.data;
}

static unsigned check_cmd(const struct hws_model *m, uint32_t c)
{
	unsigned op = f_op(c), t = f_task(c), cpu = f_cpu(c), prio = f_prio(c);
	int bad_t = t >= m->p.nr_tasks, bad_c = cpu >= m->p.nr_cpus;

	if (!op_defined[op])
		return HWS_ERR_OPCODE;
	switch (op) {
	case HWS_OP_NOP:
		return 0;
	case HWS_OP_ENQUEUE:
		if (bad_t)
			return HWS_ERR_TASK;
		if (bad_c)
			return HWS_ERR_CPU;
		if (prio >= NPRIO)
			return HWS_ERR_PRIO;
		return m->queued[t] ? HWS_ERR_QUEUED : 0;
	case HWS_OP_DEQUEUE:
	case HWS_OP_REQUEUE:
		if (bad_t)
			return HWS_ERR_TASK;
		return m->queued[t] ? 0 : HWS_ERR_NOTQUEUED;
	case HWS_OP_SET_PRIO:
		if (bad_t)
			return HWS_ERR_TASK;
		if (prio >= NPRIO)
			return HWS_ERR_PRIO;
		return m->queued[t] ? 0 : HWS_ERR_NOTQUEUED;
	case HWS_OP_MIGRATE:
		if (bad_t)
			return HWS_ERR_TASK;
		if (bad_c)
			return HWS_ERR_CPU;
		return m->queued[t] ? 0 : HWS_ERR_NOTQUEUED;
	case HWS_OP_PICK_NEXT:
	case HWS_OP_PEEK:
		return bad_c ? HWS_ERR_CPU : 0;
	case HWS_OP_CPU_STAT:
		if (bad_c)
			return HWS_ERR_CPU;
		return prio >= HWS_SEL_CPU_STAT_COUNT ? HWS_ERR_PRIO : 0;
	case HWS_OP_TASK_STAT:
		if (bad_t)
			return HWS_ERR_TASK;
		return prio >= HWS_SEL_TASK_STAT_COUNT ? HWS_ERR_PRIO : 0;
	case HWS_OP_LOAD_TICK:
	case HWS_OP_SET_IDLE:
		return bad_c ? HWS_ERR_CPU : 0;
	case HWS_OP_SET_GROUP:
		if (bad_t)
			return HWS_ERR_TASK;
		if (c & HWS_CMD_HEAD_MASK)	/* SET_WEIGHT */
			return prio >= NPRIO ? HWS_ERR_PRIO : 0;
		return prio >= m->p.nr_groups ? HWS_ERR_GROUP : 0;
	case HWS_OP_DOM_SET:
		if (bad_c)
			return HWS_ERR_CPU;
		return dom_set_check(m, c);
	case HWS_OP_QUERY:
		if (q_kind(c) == 3 || (q_kind(c) == 2 && m->p.no_balance))
			return HWS_ERR_OPCODE;	/* reserved; BALANCE when it is not built */
		if (bad_c)
			return HWS_ERR_CPU;
		if (prio >= HWS_NR_LEVELS)
			return HWS_ERR_PRIO;
		if (q_kind(c) == 2 && t >= 3)
			return HWS_ERR_TASK;
		return domain_ok(m, prio, q_kind(c) == 1) ? 0 : HWS_ERR_DOMAIN;
	case HWS_OP_LCU_STAT:
		if (bad_c)
			return HWS_ERR_CPU;
		if (prio >= HWS_SEL_LCU_STAT_COUNT)
			return HWS_ERR_PRIO;
		if ((prio == HWS_SEL_LCU_STAT_GROUP_LOAD || prio == HWS_SEL_LCU_STAT_GROUP_TOTAL) &&
		    t >= m->p.nr_groups)
			return HWS_ERR_GROUP;
		return 0;
	}
	return HWS_ERR_OPCODE;
}

static void link_task(struct hws_model *m, unsigned t, unsigned cpu, unsigned parr,
		      unsigned prio, int at_head)
{
	unsigned q = qidx(cpu, parr, prio);
	uint32_t *bm = m->bm[cpu * 2 + parr];

	if (!bm_test(bm, prio)) {
		m->head[q] = (uint16_t)t;
		m->tail[q] = (uint16_t)t;
		bm_set(bm, prio, 1);
	} else if (at_head) {
		m->next[t] = m->head[q];
		m->prev[m->head[q]] = (uint16_t)t;
		m->head[q] = (uint16_t)t;
	} else {
		m->prev[t] = m->tail[q];
		m->next[m->tail[q]] = (uint16_t)t;
		m->tail[q] = (uint16_t)t;
	}
	m->lnk_valid = 1;
	m->lnk_cpu = cpu;
	m->lnk_parr = parr;
	m->lnk_prio = prio;
	m->queued[t] = 1;
	m->t_cpu[t] = (uint8_t)cpu;
	m->t_prio[t] = (uint8_t)prio;
	m->t_arr[t] = (uint8_t)parr;
	m->nr[cpu * 2 + parr]++;
	m->load[cpu] += task_weight(m, t, prio);
	m->gload[cpu * m->p.nr_groups + m->grp[t]] += task_weight(m, t, prio);
	m->gtotal[m->grp[t]] += task_weight(m, t, prio);
}

static void unlink_task(struct hws_model *m, unsigned t)
{
	unsigned cpu = m->t_cpu[t], parr = m->t_arr[t], prio = m->t_prio[t];
	unsigned q = qidx(cpu, parr, prio);
	int is_head = m->head[q] == t, is_tail = m->tail[q] == t;

	if (is_head && is_tail)
		bm_set(m->bm[cpu * 2 + parr], prio, 0);
	else if (is_head)
		m->head[q] = m->next[t];
	else if (is_tail)
		m->tail[q] = m->prev[t];
	else {
		m->next[m->prev[t]] = m->next[t];
		m->prev[m->next[t]] = m->prev[t];
	}
	m->queued[t] = 0;
	m->nr[cpu * 2 + parr]--;
	m->load[cpu] -= task_weight(m, t, prio);
	m->gload[cpu * m->p.nr_groups + m->grp[t]] -= task_weight(m, t, prio);
	m->gtotal[m->grp[t]] -= task_weight(m, t, prio);
}

/*
 * The moves (REQUEUE, SET_PRIO, MIGRATE): unlink @t, then link it at the tail of list
 * @prio of @cpu in the same logical array.
 */
static void move_task(struct hws_model *m, unsigned t, unsigned cpu, unsigned prio)
{
	unsigned logical = m->t_arr[t] ^ m->swap[m->t_cpu[t]];

	unlink_task(m, t);
	link_task(m, t, cpu, logical ^ m->swap[cpu], prio, 0);
}

/* The word PICK_NEXT/PEEK return, and the physical array and prio they take from. */
static uint32_t pick_word(const struct hws_model *m, unsigned cpu, int *swapped,
			  unsigned *parr, unsigned *prio)
{
	unsigned act = m->swap[cpu], p;

	*swapped = 0;
	p = bm_ffs(m->bm[cpu * 2 + act]);
	if (p == NPRIO) {
		act ^= 1;
		p = bm_ffs(m->bm[cpu * 2 + act]);
		if (p == NPRIO)
			return HWS_NONE_FLAG;
		*swapped = 1;
	}
	*parr = act;
	*prio = p;
	return (*swapped ? HWS_SWAP_FLAG : 0) |
	       ((uint32_t)m->head[qidx(cpu, act, p)] << HWS_RES_TASK_LSB) |
	       ((uint32_t)p << HWS_RES_PRIO_LSB);
}

static uint32_t cpu_stat(const struct hws_model *m, unsigned cpu, unsigned sel)
{
	unsigned act = m->swap[cpu];
	const uint32_t *bm;
	unsigned k;

	switch (sel) {
	case HWS_SEL_CPU_STAT_NR_RUNNING:
		return m->nr[cpu * 2] + m->nr[cpu * 2 + 1];
	case HWS_SEL_CPU_STAT_NR_ACTIVE:
		return m->nr[cpu * 2 + act];
	case HWS_SEL_CPU_STAT_NR_EXPIRED:
		return m->nr[cpu * 2 + (act ^ 1)];
	case HWS_SEL_CPU_STAT_LOAD:
		return m->load[cpu];
	case HWS_SEL_CPU_STAT_SWAP:
		return act;
	}
	if (sel >= HWS_SEL_CPU_STAT_EXP_BM0) {
		bm = m->bm[cpu * 2 + (act ^ 1)];
		k = sel - HWS_SEL_CPU_STAT_EXP_BM0;
	} else {
		bm = m->bm[cpu * 2 + act];
		k = sel - HWS_SEL_CPU_STAT_ACT_BM0;
	}
	return (bm[k / 2] >> (16 * (k % 2))) & 0xffffu;
}

static uint32_t task_stat(const struct hws_model *m, unsigned t, unsigned sel)
{
	if (sel == HWS_SEL_TASK_STAT_GROUP)
		return m->grp[t];
	if (!m->queued[t])
		return 0;
	if (sel == HWS_SEL_TASK_STAT_WEIGHT)
		return task_weight(m, t, m->t_prio[t]);
	return 1u << HWS_TINFO_QUEUED_LSB |
	       (uint32_t)(m->t_arr[t] ^ m->swap[m->t_cpu[t]]) << HWS_TINFO_ARRAY_LSB |
	       (uint32_t)m->t_cpu[t] << HWS_TINFO_CPU_LSB |
	       (uint32_t)m->t_prio[t] << HWS_TINFO_PRIO_LSB;
}

static uint32_t lcu_stat(const struct hws_model *m, unsigned cpu, unsigned sel, unsigned g)
{
	uint32_t h = m->hist[cpu], l = m->load[cpu], mask = 0;
	unsigned c, base;

	switch (sel) {
	case HWS_SEL_LCU_STAT_HIST:
		return h;
	case HWS_SEL_LCU_STAT_SOURCE_LOAD:
		return h < l ? h : l;
	case HWS_SEL_LCU_STAT_TARGET_LOAD:
		return h > l ? h : l;
	case HWS_SEL_LCU_STAT_GROUP_LOAD:
		return m->gload[cpu * m->p.nr_groups + g];
	case HWS_SEL_LCU_STAT_GROUP_TOTAL:
		return m->gtotal[g];
	}
	base = (sel - HWS_SEL_LCU_STAT_IDLE0) * 16;
	for (c = base; c < base + 16 && c < m->p.nr_cpus; c++)
		mask |= (uint32_t)m->idle[c] << (c - base);
	return mask;
}

/* SET_WEIGHT: @t's load weight follows @wp from now on; a queued task's load changes. */
static void set_weight(struct hws_model *m, unsigned t, unsigned wp)
{
	unsigned cpu = m->t_cpu[t], g = m->grp[t];
	uint32_t old = task_weight(m, t, m->t_prio[t]), w = hws_weight_of(wp);

	m->wprio[t] = (uint8_t)wp;
	m->wfix[t] = 1;
	if (m->queued[t]) {
		m->load[cpu] += w - old;
		m->gload[cpu * m->p.nr_groups + g] += w - old;
		m->gtotal[g] += w - old;
	}
}

/* Move task @t (queued or not) to group @g, carrying its weight if it is queued. */
static void set_group(struct hws_model *m, unsigned t, unsigned g)
{
	unsigned old = m->grp[t], cpu = m->t_cpu[t];
	uint32_t w = task_weight(m, t, m->t_prio[t]);

	if (m->queued[t]) {
		m->gload[cpu * m->p.nr_groups + old] -= w;
		m->gtotal[old] -= w;
		m->gload[cpu * m->p.nr_groups + g] += w;
		m->gtotal[g] += w;
	}
	m->grp[t] = (uint8_t)g;
}

/*
 * Apply command @c at its completion edge. Returns its error code; *res receives the
 * result word and *has_res whether one is pushed.
 */
static unsigned execute(struct hws_model *m, uint32_t c, uint32_t *res, int *has_res)
{
	unsigned op = f_op(c), t = f_task(c), cpu = f_cpu(c), prio = f_prio(c);
	unsigned err = check_cmd(m, c), parr, p;
	int swapped;

	*has_res = op_defined[op] && op_has_result[op];
	*res = 0;
	if (err) {
		*res = HWS_ERR_FLAG | err;
		return err;
	}
	switch (op) {
	case HWS_OP_ENQUEUE:
		link_task(m, t, cpu, ((c >> HWS_CMD_ARRAY_LSB) & 1) ^ m->swap[cpu], prio,
			  (c >> HWS_CMD_HEAD_LSB) & 1);
		break;
	case HWS_OP_DEQUEUE:
		unlink_task(m, t);
		break;
	case HWS_OP_PICK_NEXT:
	case HWS_OP_PEEK:
		*res = pick_word(m, cpu, &swapped, &parr, &p);
		if (op == HWS_OP_PICK_NEXT && !(*res & HWS_NONE_FLAG)) {
			if (swapped)
				m->swap[cpu] ^= 1;
			unlink_task(m, m->head[qidx(cpu, parr, p)]);
		}
		break;
	case HWS_OP_REQUEUE:
		move_task(m, t, m->t_cpu[t], m->t_prio[t]);
		break;
	case HWS_OP_SET_PRIO:
		move_task(m, t, m->t_cpu[t], prio);
		break;
	case HWS_OP_MIGRATE:
		move_task(m, t, cpu, m->t_prio[t]);
		break;
	case HWS_OP_CPU_STAT:
		*res = cpu_stat(m, cpu, prio);
		break;
	case HWS_OP_TASK_STAT:
		*res = task_stat(m, t, prio);
		break;
	case HWS_OP_LOAD_TICK:
		m->hist[cpu] = (uint32_t)(((uint64_t)m->hist[cpu] + m->load[cpu]) >> 1);
		break;
	case HWS_OP_SET_GROUP:
		if (c & HWS_CMD_HEAD_MASK)
			set_weight(m, t, prio);
		else
			set_group(m, t, prio);
		break;
	case HWS_OP_LCU_STAT:
		*res = lcu_stat(m, cpu, prio, t);
		break;
	case HWS_OP_SET_IDLE:
		m->idle[cpu] = (c >> HWS_CMD_ARRAY_LSB) & 1;
		break;
	case HWS_OP_DOM_SET:
		dom_set(m, c, cpu);
		break;
	case HWS_OP_QUERY:
		if (q_kind(c) == 2)
			*res = balance(m, cpu, prio, t);
		else
			*res = query(m, cpu, prio, c & HWS_CMD_HEAD_MASK);
		break;
	}
	return 0;
}

/* A failure of a check that reads the queue state or the domain table (section 4.1,
 * condition 2), as opposed to one of the command word alone. */
static int state_check_failed(unsigned code)
{
	return code == HWS_ERR_QUEUED || code == HWS_ERR_NOTQUEUED || code == HWS_ERR_DOMAIN;
}

/* A command's latency, judged on the state when it is popped (sections 7, 8.2); @code is
 * check_cmd()'s verdict on that state. */
static unsigned cmd_latency(const struct hws_model *m, uint32_t c, unsigned code)
{
	if (code)
		return 1;
	if (f_op(c) == HWS_OP_QUERY && q_kind(c) == 2)
		return hws_bal_latency(m->p.nr_cpus, hws_params_bal_lanes(&m->p));
	return op_lat[f_op(c)];
}

/* ---- Bus and clock (section 4) ---- */

/*
 * The engine's AXI4-Lite address ports are ADDR_W = 10 bits wide (rtl/hws_top.v,
 * s_axi_awaddr_i and s_axi_araddr_i [9:0]): the engine sees only an address's low 10 bits,
 * as the model does here. (Found by fuzz_regs when they were 8: a read of 0x200 was
 * unmapped for the model, ID for the RTL.)
 */
#define BUS_ADDR_MASK ((1u << HWS_ADDR_W) - 1u)

enum reg_access { ACC_NONE, ACC_RO, ACC_WO, ACC_RW };

/* An address of the CURR window (section 4.6) of a CPU that exists, aligned. */
static int is_curr(const struct hws_model *m, uint32_t addr)
{
	return addr >= HWS_CURR_BASE && addr < HWS_CURR_BASE + 4 * m->p.nr_cpus && !(addr & 3u);
}

/* The mask of the CPUs that exist, as IRQ_PEND and IRQ_EN hold them. */
static uint64_t cpu_mask(const struct hws_model *m)
{
	return m->p.nr_cpus >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << m->p.nr_cpus) - 1;
}

/* An address of the POP window (section 4.4), aligned. */
static int is_pop(uint32_t addr)
{
	return addr >= HWS_POP_BASE && addr < HWS_PEEK_BASE + 4 * HWS_POP_WORDS && !(addr & 3u);
}

/* The command a read of window address @addr pushes: PICK_NEXT or PEEK of its CPU. */
static uint32_t pop_cmd(uint32_t addr)
{
	unsigned op = addr >= HWS_PEEK_BASE ? HWS_OP_PEEK : HWS_OP_PICK_NEXT;

	return (uint32_t)op << HWS_CMD_OP_LSB | (addr & 0xffu) / 4 << HWS_CMD_CPU_LSB;
}

static enum reg_access reg_access(const struct hws_model *m, uint32_t addr)
{
	if (is_pop(addr))
		return ACC_RO;
	if (is_curr(m, addr))
		return ACC_WO;
	if (addr & 3u || addr > 0xffu)
		return ACC_NONE;
	switch (addr) {
#define X(name, off, acc) case off: return ACC_##acc;
	HWS_FOR_EACH_REG(X)
#undef X
	}
	return ACC_NONE;
}

static uint32_t status_word(const struct hws_model *m, const struct port *pt)
{
	return pt->cmdf.n << HWS_STATUS_CMD_LEVEL_LSB | pt->resf.n << HWS_STATUS_RES_LEVEL_LSB |
	       (uint32_t)m->run[0].busy << HWS_STATUS_BUSY_LSB |
	       (uint32_t)pt->err_sticky << HWS_STATUS_ERR_LSB |
	       (uint32_t)(pt->cmdf.n == m->p.cmd_depth) << HWS_STATUS_CMD_FULL_LSB |
	       (uint32_t)(pt->resf.n == m->p.res_depth) << HWS_STATUS_RES_FULL_LSB;
}

/* Does a read of @addr on port @i wait, given the state before this edge? RESULT and SYNC
 * wait for the port's own commands only (section 4.5). */
static int read_waits(const struct hws_model *m, unsigned i, uint32_t addr)
{
	const struct port *pt = &m->port[i];
	const int busy_mine = (m->run[0].busy && m->run[0].port == i) ||
			      (m->run[1].busy && m->run[1].port == i);

	if (addr == HWS_REG_RESULT)
		return pt->resf.n == 0 && (busy_mine || pt->cmdf.n != 0);
	if (addr == HWS_REG_SYNC)
		return busy_mine || (pt->cmdf.n != 0 && pt->resf.n + 2 <= m->p.res_depth);
	if (is_pop(addr))
		return !pt->pop_ready;
	return 0;
}

/* The value a (mapped, readable) register shows on port @pt before this edge. */
static uint32_t reg_value(const struct hws_model *m, const struct port *pt, uint32_t addr)
{
	if (is_pop(addr))
		return pt->pop_word | (uint32_t)pt->err_sticky << HWS_POP_ERRP_LSB;
	switch (addr) {
	case HWS_REG_ID:
		return HWS_ID_VALUE;
	case HWS_REG_NR_CPUS:
		return m->p.nr_cpus;
	case HWS_REG_NR_TASKS:
		return m->p.nr_tasks;
	case HWS_REG_NR_GROUPS:
		return m->p.nr_groups;
	case HWS_REG_FEATURES:
		return hws_params_features(&m->p);
	case HWS_REG_DEPTHS:
		return m->p.cmd_depth << HWS_DEPTHS_CMD_DEPTH_LSB |
		       m->p.res_depth << HWS_DEPTHS_RES_DEPTH_LSB;
	case HWS_REG_STATUS:
	case HWS_REG_SYNC:
		return status_word(m, pt);
	case HWS_REG_RESULT:
		return pt->resf.n ? pt->resf.w[pt->resf.head] : (HWS_ERR_FLAG | HWS_ERR_UNDERFLOW);
	case HWS_REG_CMD_DONE:
		return m->cmd_done;
	case HWS_REG_CYCLES:
		return m->cycles;
	case HWS_REG_ERR_LAST:
		return m->err_last;
	case HWS_REG_ERR_CMD:
		return m->err_cmd;
	case HWS_REG_ERR_SEQ:
		return m->err_seq;
	case HWS_REG_ERR_TOTAL:
		return m->err_total;
	case HWS_REG_BAL_THIS:
	case HWS_REG_BAL_MAX:
	case HWS_REG_BAL_AVG:
	case HWS_REG_BAL_IMB:
		return m->bal[(addr - HWS_REG_BAL_THIS) / 4];
	case HWS_REG_IRQ_PEND0:
		return (uint32_t)m->irq_pend;
	case HWS_REG_IRQ_PEND1:
		return (uint32_t)(m->irq_pend >> 32);
	case HWS_REG_IRQ_EN0:
		return (uint32_t)m->irq_en;
	case HWS_REG_IRQ_EN1:
		return (uint32_t)(m->irq_en >> 32);
	}
	if (addr >= HWS_REG_ERR_CNT1 && addr <= HWS_REG_ERR_CNT11)
		return m->err_cnt[(addr - HWS_REG_ERR_TOTAL) / 4];
	return 0;
}

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

static void record_err(struct hws_model *m, unsigned code, uint32_t info, uint32_t seq)
{
	m->err_last = code;
	m->err_cmd = info;
	m->err_seq = seq;
	m->err_total++;
	if (!m->p.no_err_counters)	/* not built: ERR_CNTn stay 0 */
		m->err_cnt[code]++;
	for (unsigned i = 0; i < m->nports; i++)
		m->port[i].err_sticky = 1;
}

/* Commands in flight from port @i that will push a word into its result FIFO. */
static unsigned inflight_res(const struct hws_model *m, unsigned i)
{
	unsigned r = 0;

	for (unsigned k = 0; k < 2; k++)
		r += m->run[k].busy && m->run[k].res && m->run[k].port == i;
	return r;
}

/* The overlap class of section 4.1.1: ENQUEUE, PICK_NEXT, PEEK, CPU_STAT. */
static int overlap_class(uint32_t c)
{
	const unsigned op = f_op(c);

	return op == HWS_OP_ENQUEUE || op == HWS_OP_PICK_NEXT || op == HWS_OP_PEEK ||
	       op == HWS_OP_CPU_STAT;
}

/*
 * PIPE = 1 (section 4.1.1): may the head of port @win be popped at this edge beside the
 * older command? Called after the completion at this edge was applied (m's queue state is
 * the state just after the edge, which check (d) reads); m->run[] and @resf_n (the port's
 * result FIFO level) are still as they were just before the edge; @done: run[0] completes
 * at this edge.
 */
static int overlap_ok(const struct hws_model *m, int done, unsigned win, unsigned resf_n)
{
	const struct port *pt = &m->port[win];
	const uint32_t n = pt->cmdf.w[pt->cmdf.head];
	const struct run *o;

	/* (a) exactly one older command stays in flight, and completes at the next edge */
	if (done != m->run[1].busy)
		return 0;	/* none (then condition 2 holds), or two */
	o = done ? &m->run[1] : &m->run[0];
	if (o->lat - o->step != 1)
		return 0;
	/* (b) both in the class; (c) no shared CPU, no shared task (two ENQUEUEs) */
	if (!overlap_class(o->cmd) || !overlap_class(n) || f_cpu(o->cmd) == f_cpu(n))
		return 0;
	if (f_op(o->cmd) == HWS_OP_ENQUEUE && f_op(n) == HWS_OP_ENQUEUE &&
	    f_task(o->cmd) == f_task(n))
		return 0;
	/* (d) the newcomer passes its checks on the state just after the edge */
	if (check_cmd(m, n))
		return 0;
	/* (e) room for the results (a window read's command pushes none) */
	if (!pt->cmdf.tag[pt->cmdf.head] && resf_n + inflight_res(m, win) + 2 > m->p.res_depth)
		return 0;
	return 1;
}

/* One edge, every port's bus at once (@in and @out: m->nports each). */
static void edge(struct hws_model *m, const struct bus_in *in, struct bus_out *out)
{
	/* The state just before the edge, which every decision uses (section 4.3). */
	const unsigned np = m->nports;
	const uint32_t done_before = m->cmd_done;
	const int done = m->run[0].busy && m->run[0].step == m->run[0].lat;
	const struct run ran = m->run[0];	/* the command completing, when done */
	unsigned cmdf_n[HWS_MAX_NR_PORTS], resf_n[HWS_MAX_NR_PORTS];
	int pop_refuse[HWS_MAX_NR_PORTS], pop_push[HWS_MAX_NR_PORTS];
	int latch[HWS_MAX_NR_PORTS], wr_cmd[HWS_MAX_NR_PORTS];
	unsigned wr_err[HWS_MAX_NR_PORTS], rd_err[HWS_MAX_NR_PORTS];
	uint32_t wr_info[HWS_MAX_NR_PORTS], rd_info[HWS_MAX_NR_PORTS];
	uint32_t act_addr[HWS_MAX_NR_PORTS];
	unsigned eng_err = 0, win = m->rr;
	uint32_t res = 0, popped = 0;
	int has_res = 0, err_clear = 0, soft = 0, popped_tag = 0, pop = 0, chosen = 0;
	/* Section 4.6: this edge's W1C mask (every port's OR-ed), IRQ_ENn written (the last
	 * port's word), CURR writes (per port, applied in port order). */
	uint64_t w1c = 0;
	int en_wr[2] = { 0, 0 }, curr_cpu[HWS_MAX_NR_PORTS], pick_cpu = -1;
	uint32_t en_data[2] = { 0, 0 };
	unsigned pick_prio = 0;
	int irq_set = 0;

	/* The arbiter (section 4.5): the first eligible port from rr on, when the engine is
	 * idle or completes now (condition 2; with PIPE = 1 the chosen port's head may instead
	 * be popped beside the older command, decided after the completion below). A window
	 * read's command needs no room in the result FIFO. */
	for (unsigned k = 0; k < np; k++) {
		const unsigned i = (m->rr + k) % np;
		const struct port *pt = &m->port[i];

		if (pt->cmdf.n > 0 && (pt->resf.n + 2 <= m->p.res_depth || pt->cmdf.tag[pt->cmdf.head])) {
			win = i;
			chosen = 1;
			pop = !m->run[0].busy ||
			      (done && !m->run[1].busy && !m->run[0].sfail);
			break;
		}
	}

	for (unsigned i = 0; i < np; i++) {
		struct port *pt = &m->port[i];
		const struct bus_in *b = &in[i];
		struct bus_out *o = &out[i];
		enum reg_access acc;

		/* The read active at this edge (taken now, or pending) and whether it is a
		 * window read that pushes its PICK_NEXT now: room in the command FIFO, no CMD
		 * write at this edge ... */
		act_addr[i] = b->read ? b->raddr : pt->raddr;
		const int wants = (b->read || pt->rpend) && is_pop(act_addr[i]) &&
				  !pt->pop_issued && !pt->pop_ready;
		/* ... unless a command queued could stall on a full result FIFO: refused. */
		const int stall = pt->cmdf.n &&
				  pt->resf.n + pt->qcnt + inflight_res(m, i) + 1 >= m->p.res_depth;

		cmdf_n[i] = pt->cmdf.n;
		resf_n[i] = pt->resf.n;
		wr_cmd[i] = b->write && b->waddr == HWS_REG_CMD && b->strb == 0xfu;
		pop_refuse[i] = wants && stall;
		pop_push[i] = wants && !stall && cmdf_n[i] < m->p.cmd_depth && !wr_cmd[i];
		wr_err[i] = rd_err[i] = 0;
		wr_info[i] = rd_info[i] = 0;
		latch[i] = 0;
		o->rlatched = 0;
		o->wresp = RESP_OKAY;

		/* Writes: decode; a soft reset wins over everything at this edge. */
		curr_cpu[i] = -1;
		if (b->write) {
			acc = reg_access(m, b->waddr);
			if ((acc != ACC_WO && acc != ACC_RW) || b->strb != 0xfu) {
				o->wresp = RESP_SLVERR;
				wr_err[i] = HWS_ERR_ADDR;
				wr_info[i] = b->waddr;
			} else if (b->waddr == HWS_REG_CTRL) {
				soft |= !!(b->data & HWS_CTRL_SOFT_RESET_MASK);
				err_clear |= !!(b->data & HWS_CTRL_ERR_CLEAR_MASK);
			} else if (b->waddr == HWS_REG_IRQ_PEND0 || b->waddr == HWS_REG_IRQ_PEND1) {
				w1c |= (uint64_t)b->data << (b->waddr == HWS_REG_IRQ_PEND1 ? 32 : 0);
			} else if (b->waddr == HWS_REG_IRQ_EN0 || b->waddr == HWS_REG_IRQ_EN1) {
				const int w = b->waddr == HWS_REG_IRQ_EN1;

				en_wr[w] = 1;	/* a later port's word replaces an earlier one's */
				en_data[w] = b->data;
			} else if (is_curr(m, b->waddr)) {
				curr_cpu[i] = (int)((b->waddr - HWS_CURR_BASE) / 4);
			} else if (cmdf_n[i] == m->p.cmd_depth) {
				wr_err[i] = HWS_ERR_OVERFLOW;
				wr_info[i] = b->data;
			}
		}

		/* Reads: a new address, or a pending one whose wait has ended. */
		if (b->read) {
			acc = reg_access(m, b->raddr);
			if (acc != ACC_RO && acc != ACC_RW) {
				o->rlatched = 1;
				o->rdata = 0;
				o->rresp = RESP_SLVERR;
				rd_err[i] = HWS_ERR_ADDR;
				rd_info[i] = b->raddr;
			} else if (read_waits(m, i, b->raddr) && !pop_refuse[i]) {
				pt->rpend = 1;
			} else {
				latch[i] = 1;
			}
			pt->raddr = b->raddr;
		} else if (pt->rpend && (!read_waits(m, i, pt->raddr) || pop_refuse[i])) {
			latch[i] = 1;
			pt->rpend = 0;
		}
		if (latch[i]) {
			o->rlatched = 1;
			o->rdata = pop_refuse[i] ?
				HWS_ERR_FLAG | HWS_POP_ERRP_MASK | HWS_ERR_OVERFLOW :
				reg_value(m, pt, pt->raddr);
			o->rresp = RESP_OKAY;
			if (pop_refuse[i]) {
				rd_err[i] = HWS_ERR_OVERFLOW;
				rd_info[i] = pop_cmd(pt->raddr);
			}
			if (pt->raddr == HWS_REG_RESULT && resf_n[i] == 0) {
				rd_err[i] = HWS_ERR_UNDERFLOW;
				rd_info[i] = 0;
			}
		}
	}
	if (soft) {	/* the bus state stays; the reads latched above keep their words */
		reset_core(m);
		return;
	}

	/* Side effects of the reads latched at this edge. */
	for (unsigned i = 0; i < np; i++) {
		struct port *pt = &m->port[i];

		if (!latch[i])
			continue;
		if (pt->raddr == HWS_REG_RESULT && resf_n[i] > 0)
			fifo_pop(&pt->resf);	/* the head present before the edge */
		if (is_pop(pt->raddr)) {
			pt->pop_issued = 0;
			pt->pop_ready = 0;
		}
	}

	/* The engine's completion: the whole command at once (section 4.1); its result word
	 * goes to the port that issued it. */
	if (done) {
		m->lnk_valid = 0;
		eng_err = execute(m, ran.cmd, &res, &has_res);
		m->cmd_done++;
		/* Section 4.6: a link into an active array below CURR (before this edge) sets
		 * IRQ_PEND; a PICK_NEXT that did not fail sets CURR and clears IRQ_PEND. */
		irq_set = m->lnk_valid && m->lnk_parr == m->swap[m->lnk_cpu] &&
			  m->lnk_prio < m->curr[m->lnk_cpu];
		if (!eng_err && f_op(ran.cmd) == HWS_OP_PICK_NEXT) {
			pick_cpu = (int)f_cpu(ran.cmd);
			pick_prio = res & HWS_NONE_FLAG ? HWS_CURR_IDLE :
				    (res & HWS_RES_PRIO_MASK) >> HWS_RES_PRIO_LSB;
		}
	}

	/* The preemption interrupt's registers (section 4.6); an engine built without it
	 * (IRQ=0) decodes the same writes (answered OKAY above) and keeps nothing. */
	if (!m->p.no_irq) {
		m->irq_pend &= ~w1c;
		for (unsigned w = 0; w < 2; w++) {
			const unsigned sh = w ? 32 : 0;

			if (en_wr[w])
				m->irq_en = (m->irq_en & ~((uint64_t)0xffffffffu << sh)) |
					    ((uint64_t)en_data[w] << sh & cpu_mask(m));
		}
		for (unsigned i = 0; i < np; i++)	/* port order: the last port's value stays */
			if (curr_cpu[i] >= 0)
				m->curr[curr_cpu[i]] = (uint8_t)(in[i].data & HWS_CURR_PRIO_MASK);
		if (pick_cpu >= 0) {
			m->curr[pick_cpu] = (uint8_t)pick_prio;
			m->irq_pend &= ~((uint64_t)1 << pick_cpu);
		}
		if (irq_set)
			m->irq_pend |= (uint64_t)1 << m->lnk_cpu;
	}

	if (has_res && ran.tag) {
		m->port[ran.port].pop_word = res;
		m->port[ran.port].pop_ready = 1;
	} else if (has_res) {
		fifo_push(&m->port[ran.port].resf, res);
	}
	/* PIPE = 1: the chosen head beside the older command (section 4.1.1). */
	if (chosen && !pop && m->p.pipe) {
		pop = overlap_ok(m, done, win, resf_n[win]);
		m->overlaps += (uint64_t)pop;
	}
	if (pop) {
		struct port *pt = &m->port[win];

		popped_tag = pt->cmdf.tag[pt->cmdf.head];
		popped = fifo_pop(&pt->cmdf);
		if (!popped_tag && op_has_result[f_op(popped)])
			pt->qcnt--;
	}
	for (unsigned i = 0; i < np; i++) {
		struct port *pt = &m->port[i];

		if (in[i].write && !wr_err[i] && in[i].waddr == HWS_REG_CMD) {
			fifo_push(&pt->cmdf, in[i].data);
			if (op_has_result[f_op(in[i].data)])
				pt->qcnt++;
		}
		if (pop_push[i]) {
			fifo_push_tag(&pt->cmdf, pop_cmd(act_addr[i]), 1);
			pt->pop_issued = 1;
		}
	}

	/* Errors: clear first, then the engine's, then each port's write and read (the last
	 * recorded is the one ERR_LAST shows). */
	if (err_clear)
		clear_errors(m);
	for (unsigned i = 0; i < np; i++)
		if (latch[i] && (m->port[i].raddr == HWS_REG_STATUS ||
				 m->port[i].raddr == HWS_REG_SYNC || is_pop(m->port[i].raddr)))
			m->port[i].err_sticky = 0;
	if (eng_err)
		record_err(m, eng_err, ran.cmd, done_before);
	for (unsigned i = 0; i < np; i++) {
		if (wr_err[i])
			record_err(m, wr_err[i], wr_info[i], done_before);
		if (rd_err[i])
			record_err(m, rd_err[i], rd_info[i], done_before);
	}

	m->cycles++;

	/* Sequencing: the completed command leaves, the others go on a step, and the command
	 * popped starts, its latency judged on the new state. */
	if (done) {
		m->run[0] = m->run[1];
		memset(&m->run[1], 0, sizeof(m->run[1]));
	}
	for (unsigned k = 0; k < 2; k++)
		if (m->run[k].busy)
			m->run[k].step++;
	if (pop) {
		struct run *r = &m->run[m->run[0].busy];
		const unsigned code = check_cmd(m, popped);	/* on the state at the pop */

		r->cmd = popped;
		r->tag = popped_tag;
		r->res = !popped_tag && op_has_result[f_op(popped)];
		r->port = win;
		r->busy = 1;
		r->step = 1;
		r->lat = cmd_latency(m, popped, code);
		r->sfail = state_check_failed(code);
		m->rr = (win + 1) % np;
	}
}

/* One edge with port 0's bus doing @b0 and the other ports idle. */
static void edge0(struct hws_model *m, const struct bus_in *b0, struct bus_out *o0)
{
	struct bus_in in[HWS_MAX_NR_PORTS] = { { 0 } };
	struct bus_out out[HWS_MAX_NR_PORTS];

	in[0] = *b0;
	edge(m, in, out);
	*o0 = out[0];
}


/*
 * A write with the master's timing @t (lib/hws_bus_timing.h): the slave holds whichever of
 * AW and W comes first and takes the write at the edge the second comes, max(aw_delay,
 * w_delay); the edges before it change nothing but the slave's holding registers.
 */
unsigned hws_model_write_timed(struct hws_model *m, const struct hws_bus_timing *t,
			       uint32_t addr, uint32_t data, uint32_t strb, uint32_t *resp)
{
	struct bus_in in = { .write = 1, .waddr = addr & BUS_ADDR_MASK, .data = data, .strb = strb };
	unsigned wait = t->aw_delay > t->w_delay ? t->aw_delay : t->w_delay;

	hws_model_idle(m, wait);	/* AWVALID or WVALID not both up yet */
	{
		struct bus_out out;

		edge0(m, &in, &out);	/* the second of AW and W taken, BVALID rises */
		*resp = out.wresp;
	}
	hws_model_idle(m, t->resp_stall);	/* BVALID up, BREADY low */
	hws_model_idle(m, 1);		/* B handshake */
	return wait + 2 + t->resp_stall;
}

void hws_model_set_bus(struct hws_model *m, int random, uint64_t seed)
{
	m->bus_random = random;
	hws_bus_gen_init(&m->bus, seed);
}

/* The timing of the next transaction: the reference, or the generator's next draw. */
static void next_timing(struct hws_model *m, struct hws_bus_timing *t)
{
	static const struct hws_bus_timing ref = { 0, 0, 0, 0 };

	if (m->bus_random)
		hws_bus_timing_next(&m->bus, t);
	else
		*t = ref;
}

unsigned hws_model_write(struct hws_model *m, uint32_t addr, uint32_t data, uint32_t strb,
			 uint32_t *resp)
{
	struct hws_bus_timing t;

	next_timing(m, &t);
	return hws_model_write_timed(m, &t, addr, data, strb, resp);
}

unsigned hws_model_read_timed(struct hws_model *m, const struct hws_bus_timing *t,
			      uint32_t addr, uint32_t *data, uint32_t *resp)
{
	struct bus_in in = { .read = 1, .raddr = addr & BUS_ADDR_MASK };
	struct bus_in idle = { 0 };
	struct bus_out out;
	unsigned edges = 1 + t->ar_delay;

	hws_model_idle(m, t->ar_delay);	/* ARVALID not up yet */
	edge0(m, &in, &out);	/* AR taken */
	while (!out.rlatched) {
		if (edges >= HWS_MODEL_MAX_WAIT + t->ar_delay) {	/* cannot happen by 4.2 */
			*data = 0;
			*resp = 3;
			return edges;
		}
		edge0(m, &idle, &out);
		edges++;
	}
	*data = out.rdata;
	*resp = out.rresp;
	hws_model_idle(m, t->resp_stall);	/* RVALID up, RREADY low */
	hws_model_idle(m, 1);		/* R handshake */
	return edges + t->resp_stall + 1;
}

unsigned hws_model_read(struct hws_model *m, uint32_t addr, uint32_t *data, uint32_t *resp)
{
	struct hws_bus_timing t;

	next_timing(m, &t);
	return hws_model_read_timed(m, &t, addr, data, resp);
}

uint64_t hws_model_irq_lines(const struct hws_model *m)
{
	return m->irq_pend & m->irq_en;
}

void hws_model_idle(struct hws_model *m, unsigned edges)
{
	struct bus_in idle = { 0 };
	struct bus_out out;

	while (edges--)
		edge0(m, &idle, &out);
}

/* ---- The pins, per port and per edge (hws_model_pins()) ---- */

static void pins_out(const struct port *pt, struct hws_axil_out *o)
{
	o->awready = !pt->bvalid && !pt->aw_held;
	o->wready = !pt->bvalid && !pt->w_held;
	o->bvalid = (uint8_t)pt->bvalid;
	o->bresp = pt->bresp;
	o->arready = !pt->rvalid && !pt->rpend;
	o->rvalid = (uint8_t)pt->rvalid;
	o->rdata = pt->rdata;
	o->rresp = pt->rresp;
}

unsigned hws_model_nr_ports(const struct hws_model *m)
{
	return m->nports;
}

void hws_model_pins_now(const struct hws_model *m, struct hws_axil_out *out)
{
	for (unsigned i = 0; i < m->nports; i++)
		pins_out(&m->port[i], &out[i]);
}

/*
 * hws_axil_slave's handshakes around edge(): AWREADY = !BVALID && !aw_held, WREADY =
 * !BVALID && !w_held, ARREADY = !RVALID && !pending; the write taken at the edge the second
 * of AW and W is handshaken, BVALID up from that edge until BREADY; RVALID up from the
 * latching edge until RREADY.
 */
void hws_model_pins(struct hws_model *m, const struct hws_axil_in *in, struct hws_axil_out *out)
{
	struct bus_in b[HWS_MAX_NR_PORTS] = { { 0 } };
	struct bus_out o[HWS_MAX_NR_PORTS];
	int aw_hs[HWS_MAX_NR_PORTS], w_hs[HWS_MAX_NR_PORTS];

	for (unsigned i = 0; i < m->nports; i++) {
		const struct port *pt = &m->port[i];
		const struct hws_axil_in *p = &in[i];

		aw_hs[i] = p->awvalid && !pt->bvalid && !pt->aw_held;
		w_hs[i] = p->wvalid && !pt->bvalid && !pt->w_held;
		b[i].write = (pt->aw_held || aw_hs[i]) && (pt->w_held || w_hs[i]);
		b[i].waddr = (pt->aw_held ? pt->awaddr : p->awaddr) & BUS_ADDR_MASK;
		b[i].data = pt->w_held ? pt->wdata : p->wdata;
		b[i].strb = (pt->w_held ? pt->wstrb : p->wstrb) & 0xfu;
		b[i].read = p->arvalid && !pt->rvalid && !pt->rpend;
		b[i].raddr = p->araddr & BUS_ADDR_MASK;
	}
	edge(m, b, o);
	for (unsigned i = 0; i < m->nports; i++) {
		struct port *pt = &m->port[i];
		const struct hws_axil_in *p = &in[i];

		if (b[i].write) {
			pt->bvalid = 1;
			pt->bresp = o[i].wresp;
			pt->aw_held = 0;
			pt->w_held = 0;
		} else {
			if (aw_hs[i]) {
				pt->aw_held = 1;
				pt->awaddr = p->awaddr;
			}
			if (w_hs[i]) {
				pt->w_held = 1;
				pt->wdata = p->wdata;
				pt->wstrb = p->wstrb;
			}
			if (pt->bvalid && p->bready)
				pt->bvalid = 0;
		}
		if (o[i].rlatched) {
			pt->rvalid = 1;
			pt->rdata = o[i].rdata;
			pt->rresp = o[i].rresp;
		} else if (pt->rvalid && p->rready) {
			pt->rvalid = 0;
		}
		pins_out(pt, &out[i]);
	}
}

uint64_t hws_model_overlaps(const struct hws_model *m)
{
	return m->overlaps;
}

unsigned hws_model_inflight(const struct hws_model *m, struct hws_model_run out[2])
{
	unsigned n = 0;

	for (unsigned k = 0; k < 2; k++) {
		const struct run *r = &m->run[k];

		if (!r->busy)
			continue;
		out[n].cmd = r->cmd;
		out[n].step = r->step;
		out[n].lat = r->lat;
		out[n].port = r->port;
		out[n].tag = r->tag;
		n++;
	}
	return n;
}

int hws_model_inject_fault(struct hws_model *m, unsigned cpu)
{
	if (cpu >= m->p.nr_cpus)
		return -EINVAL;
	m->load[cpu]++;
	return 0;
}

/* ---- Invariants (section 6) ---- */

#define FAIL(...) do { snprintf(msg, len, __VA_ARGS__); return -EPROTO; } while (0)

/* Group loads equal the weights of the groups' queued tasks, per CPU and in total. */
static int check_groups(const struct hws_model *m, char *msg, size_t len)
{
	const struct hws_params *p = &m->p;
	uint32_t *sum = calloc((size_t)p->nr_cpus * p->nr_groups, sizeof(*sum));
	unsigned t, c, g;
	uint32_t tot;

	if (!sum) {
		snprintf(msg, len, "out of memory");
		return -ENOMEM;
	}
	for (t = 0; t < p->nr_tasks; t++)
		if (m->queued[t])
			sum[m->t_cpu[t] * p->nr_groups + m->grp[t]] += task_weight(m, t, m->t_prio[t]);
	for (g = 0; g < p->nr_groups; g++) {
		tot = 0;
		for (c = 0; c < p->nr_cpus; c++) {
			if (sum[c * p->nr_groups + g] != m->gload[c * p->nr_groups + g]) {
				snprintf(msg, len, "cpu %u group %u: group load %u, its tasks weigh %u",
					 c, g, m->gload[c * p->nr_groups + g],
					 sum[c * p->nr_groups + g]);
				free(sum);
				return -EPROTO;
			}
			tot += sum[c * p->nr_groups + g];
		}
		if (tot != m->gtotal[g]) {
			free(sum);
			FAIL("group %u: total %u, its tasks weigh %u", g, m->gtotal[g], tot);
		}
	}
	free(sum);
	return 0;
}

int hws_model_check(const struct hws_model *m, char *msg, size_t len)
{
	const struct hws_params *p = &m->p;
	unsigned cpu, a, prio, t, steps;
	unsigned char *seen;
	uint32_t load, nr;

	seen = calloc(p->nr_tasks, 1);
	if (!seen) {
		snprintf(msg, len, "out of memory");
		return -ENOMEM;
	}
	for (cpu = 0; cpu < p->nr_cpus; cpu++) {
		load = 0;
		for (a = 0; a < 2; a++) {
			nr = 0;
			for (prio = 0; prio < NPRIO; prio++) {
				unsigned q = qidx(cpu, a, prio), prev_t = 0;

				if (!bm_test(m->bm[cpu * 2 + a], prio))
					continue;
				t = m->head[q];
				for (steps = 0;; steps++) {
					if (t >= p->nr_tasks || steps > p->nr_tasks || seen[t] ||
					    !m->queued[t] || m->t_cpu[t] != cpu ||
					    m->t_arr[t] != a || m->t_prio[t] != prio ||
					    (steps && m->prev[t] != prev_t)) {
						free(seen);
						FAIL("list cpu %u array %u prio %u broken at task %u "
						     "(step %u)", cpu, a, prio, t, steps);
					}
					seen[t] = 1;
					nr++;
					load += task_weight(m, t, prio);
					if (t == m->tail[q])
						break;
					prev_t = t;
					t = m->next[t];
				}
			}
			for (prio = NPRIO; prio < BM_WORDS * 32; prio++)
				if (bm_test(m->bm[cpu * 2 + a], prio)) {
					free(seen);
					FAIL("cpu %u array %u: bitmap bit %u set", cpu, a, prio);
				}
			if (nr != m->nr[cpu * 2 + a]) {
				free(seen);
				FAIL("cpu %u array %u: counter %u, lists hold %u", cpu, a,
				     m->nr[cpu * 2 + a], nr);
			}
		}
		if (load != m->load[cpu]) {
			free(seen);
			FAIL("cpu %u: load %u, lists weigh %u", cpu, m->load[cpu], load);
		}
	}
	for (t = 0; t < p->nr_tasks; t++) {
		if (m->queued[t] && !seen[t]) {
			free(seen);
			FAIL("task %u queued but in no list", t);
		}
	}
	free(seen);
	return check_groups(m, msg, len);
}
