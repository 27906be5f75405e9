/*
 * fw_rq_sw.c - plain C O(1) run queues (scheduler `o1`): the data structure of Linux
 * 2.6.0-2.6.22's runqueue (two priority arrays per CPU, NR_PRIO lists and a bitmap each),
 * with the engine's semantics so that fw_o1.c runs unchanged on either. Loads, history
 * and group loads are kept the same way as the engine's load-comparison unit, and
 * balancing runs lib/hws_balance.c in software.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "firmware/fw_rq.h"
#include "hws/regs.h"

#define NPRIO HWS_NR_PRIO
#define BM_WORDS ((NPRIO + 31) / 32)	/* a bitmap of NPRIO bits in 32-bit words */
#define NIL 0xffffu

struct sw_task {
	uint16_t next, prev;
	uint8_t queued, cpu, prio, parr;
	uint8_t group;
	uint8_t wprio, wfix;	/* SET_WEIGHT: the weight follows wprio */
	uint32_t weight;
};

struct sw_cpu {
	uint32_t bm[2][BM_WORDS];
	uint16_t head[2][NPRIO], tail[2][NPRIO];
	uint32_t nr[2];
	uint32_t load, hist;
	int swap;		/* physical index of the active array */
	int idle;
};

struct fw_rq {
	const struct sched_env *env;
	struct sched_costs c;
	unsigned ncpu;
	struct sw_cpu *cpu;
	struct sw_task *t;
	uint32_t *gtotal;	/* per group */
};

static void charge(struct fw_rq *q, unsigned on_cpu, double ns, int what)
{
	q->env->charge(q->env->machine, on_cpu, ns, what);
}

/*
 * The machine's coherence model (sched_env's touch and lock; NULL without a profile):
 * @on_cpu takes @cpu's run-queue lock for one operation, and writes the task's line
 * (its run_list links and array live in its task_struct). The engine's queues (fw_rq_hw)
 * have neither: their state is in the engine, reached over the bus.
 */
static void rq_lock(struct fw_rq *q, unsigned on_cpu, unsigned cpu)
{
	if (q->env->lock && cpu < q->ncpu)
		q->env->lock(q->env->machine, on_cpu, SCHED_LINE_RQ(cpu), q->c.sw_op_ns);
}

static void task_line(struct fw_rq *q, unsigned on_cpu, unsigned t)
{
	if (q->env->touch && t < q->env->nr_tasks)
		q->env->touch(q->env->machine, on_cpu, SCHED_LINE_TASK(t), 1);
}

/* A remote run queue's header read without its lock (loads, balancing scans). */
static void rq_read(struct fw_rq *q, unsigned on_cpu, unsigned cpu)
{
	if (q->env->touch && cpu < q->ncpu)
		q->env->touch(q->env->machine, on_cpu, SCHED_LINE_RQ(cpu), 0);
}

static void rq_read_span(struct fw_rq *q, unsigned on_cpu, uint64_t span)
{
	for (unsigned x = 0; q->env->touch && x < q->ncpu; x++)
		if (span >> x & 1)
			rq_read(q, on_cpu, x);
}

static struct fw_rq *sw_create(const struct sched_env *env, const struct sched_opts *o,
			       char *msg, size_t len)
{
	struct fw_rq *q = calloc(1, sizeof(*q));
	unsigned i, a, p;

	if (!q || env->nr_tasks > NIL) {
		snprintf(msg, len, "software run queues: out of memory or too many tasks");
		free(q);
		return NULL;
	}
	q->env = env;
	q->c = o->costs;
	q->ncpu = env->topo->nr_cpus;
	q->cpu = calloc(q->ncpu, sizeof(*q->cpu));
	q->t = calloc(env->nr_tasks, sizeof(*q->t));
	q->gtotal = calloc(env->nr_groups ? env->nr_groups : 1, sizeof(*q->gtotal));
	if (!q->cpu || !q->t || !q->gtotal) {
		snprintf(msg, len, "software run queues: out of memory");
		free(q->cpu);
		free(q->t);
		free(q->gtotal);
		free(q);
		return NULL;
	}
	for (i = 0; i < q->ncpu; i++)
		for (a = 0; a < 2; a++)
			for (p = 0; p < NPRIO; p++)
				q->cpu[i].head[a][p] = q->cpu[i].tail[a][p] = NIL;
	return q;
}

static void sw_destroy(struct fw_rq *q)
{
	if (!q)
		return;
	free(q->cpu);
	free(q->t);
	free(q->gtotal);
	free(q);
}

static void link_tail(struct fw_rq *q, unsigned t, unsigned cpu, unsigned parr, unsigned prio,
		      int head)
{
	struct sw_cpu *c = &q->cpu[cpu];
	struct sw_task *e = &q->t[t];

	e->queued = 1;
	e->cpu = (uint8_t)cpu;
	e->prio = (uint8_t)prio;
	e->parr = (uint8_t)parr;
	e->weight = hws_weight_of(e->wfix ? e->wprio : prio);
	if (head) {
		e->prev = NIL;
		e->next = c->head[parr][prio];
		if (e->next != NIL)
			q->t[e->next].prev = (uint16_t)t;
		else
			c->tail[parr][prio] = (uint16_t)t;
		c->head[parr][prio] = (uint16_t)t;
	} else {
		e->next = NIL;
		e->prev = c->tail[parr][prio];
		if (e->prev != NIL)
			q->t[e->prev].next = (uint16_t)t;
		else
			c->head[parr][prio] = (uint16_t)t;
		c->tail[parr][prio] = (uint16_t)t;
	}
	c->bm[parr][prio / 32] |= 1u << (prio % 32);
	c->nr[parr]++;
	c->load += e->weight;
	q->gtotal[e->group] += e->weight;
}

static void unlink_task(struct fw_rq *q, unsigned t)
{
	struct sw_task *e = &q->t[t];
	struct sw_cpu *c = &q->cpu[e->cpu];

	if (e->prev != NIL)
		q->t[e->prev].next = e->next;
	else
		c->head[e->parr][e->prio] = e->next;
	if (e->next != NIL)
		q->t[e->next].prev = e->prev;
	else
		c->tail[e->parr][e->prio] = e->prev;
	if (c->head[e->parr][e->prio] == NIL)
		c->bm[e->parr][e->prio / 32] &= ~(1u << (e->prio % 32));
	c->nr[e->parr]--;
	c->load -= e->weight;
	q->gtotal[e->group] -= e->weight;
	e->queued = 0;
}

static int sw_enqueue(struct fw_rq *q, unsigned on_cpu, unsigned t, unsigned cpu, unsigned prio,
		      int expired, int head)
{
	charge(q, on_cpu, q->c.sw_op_ns, SCHED_WORK_SW_OP);
	if (t >= q->env->nr_tasks || cpu >= q->ncpu || prio >= NPRIO)
		return -ERANGE;
	if (q->t[t].queued)
		return -EEXIST;
	rq_lock(q, on_cpu, cpu);
	task_line(q, on_cpu, t);
	link_tail(q, t, cpu, (unsigned)(expired ^ q->cpu[cpu].swap), prio, head);
	return 0;
}

static int sw_dequeue(struct fw_rq *q, unsigned on_cpu, unsigned t)
{
	charge(q, on_cpu, q->c.sw_op_ns, SCHED_WORK_SW_OP);
	if (t >= q->env->nr_tasks)
		return -ERANGE;
	if (!q->t[t].queued)
		return -ENOENT;
	rq_lock(q, on_cpu, q->t[t].cpu);
	task_line(q, on_cpu, t);
	unlink_task(q, t);
	return 0;
}

static int sw_requeue(struct fw_rq *q, unsigned on_cpu, unsigned t)
{
	struct sw_task *e;

	charge(q, on_cpu, q->c.sw_op_ns, SCHED_WORK_SW_OP);
	if (t >= q->env->nr_tasks)
		return -ERANGE;
	e = &q->t[t];
	if (!e->queued)
		return -ENOENT;
	rq_lock(q, on_cpu, e->cpu);
	task_line(q, on_cpu, t);
	unlink_task(q, t);
	link_tail(q, t, e->cpu, e->parr, e->prio, 0);
	return 0;
}

/* sched_find_first_bit over one array: -1 when empty. */
static int first_bit(const uint32_t *bm)
{
	for (unsigned w = 0; w < BM_WORDS; w++)
		if (bm[w])
			return w * 32 + __builtin_ctz(bm[w]);
	return -1;
}

static int sw_look(struct fw_rq *q, unsigned cpu, unsigned *t, int *swapped, int take)
{
	struct sw_cpu *c = &q->cpu[cpu];
	int act = c->swap, p;

	*swapped = 0;
	p = first_bit(c->bm[act]);
	if (p < 0) {
		p = first_bit(c->bm[act ^ 1]);
		if (p < 0)
			return 0;
		*swapped = 1;
		act ^= 1;
		if (take)
			c->swap ^= 1;
	}
	*t = c->head[act][p];
	if (take)
		unlink_task(q, *t);
	return 1;
}

static int sw_pick(struct fw_rq *q, unsigned on_cpu, unsigned cpu, unsigned *t, int *swapped)
{
	int ret;

	charge(q, on_cpu, q->c.sw_op_ns, SCHED_WORK_SW_OP);
	if (cpu >= q->ncpu)
		return -ERANGE;
	rq_lock(q, on_cpu, cpu);
	ret = sw_look(q, cpu, t, swapped, 1);
	if (ret > 0)
		task_line(q, on_cpu, *t);
	return ret;
}

static int sw_peek(struct fw_rq *q, unsigned on_cpu, unsigned cpu, unsigned *t, int *swapped)
{
	int ret;

	charge(q, on_cpu, q->c.sw_op_ns, SCHED_WORK_SW_OP);
	if (cpu >= q->ncpu)
		return -ERANGE;
	rq_lock(q, on_cpu, cpu);
	ret = sw_look(q, cpu, t, swapped, 0);
	if (ret > 0)
		task_line(q, on_cpu, *t);
	return ret;
}

static int sw_migrate(struct fw_rq *q, unsigned on_cpu, unsigned t, unsigned cpu)
{
	struct sw_task *e;
	unsigned larr;

	/* Two run-queue locks and two list operations (double_rq_lock). */
	charge(q, on_cpu, 2 * q->c.sw_op_ns, SCHED_WORK_MIGRATE);
	if (t >= q->env->nr_tasks || cpu >= q->ncpu)
		return -ERANGE;
	e = &q->t[t];
	if (!e->queued)
		return -ENOENT;
	larr = e->parr ^ (unsigned)q->cpu[e->cpu].swap;
	rq_lock(q, on_cpu, e->cpu);	/* double_rq_lock() */
	rq_lock(q, on_cpu, cpu);
	task_line(q, on_cpu, t);
	unlink_task(q, t);
	link_tail(q, t, cpu, larr ^ (unsigned)q->cpu[cpu].swap, e->prio, 0);
	return 0;
}

static int sw_set_group(struct fw_rq *q, unsigned on_cpu, unsigned t, unsigned group)
{
	struct sw_task *e;

	charge(q, on_cpu, q->c.sw_op_ns, SCHED_WORK_SW_OP);
	if (t >= q->env->nr_tasks || group >= (q->env->nr_groups ? q->env->nr_groups : 1))
		return -ERANGE;
	e = &q->t[t];
	if (e->queued)
		q->gtotal[e->group] -= e->weight;
	e->group = (uint8_t)group;
	if (e->queued)
		q->gtotal[e->group] += e->weight;
	return 0;
}

static int sw_set_weight(struct fw_rq *q, unsigned on_cpu, unsigned t, unsigned prio)
{
	struct sw_task *e;
	uint32_t w;

	charge(q, on_cpu, q->c.sw_op_ns / 4, SCHED_WORK_SW_OP);
	if (t >= q->env->nr_tasks || prio >= NPRIO)
		return -ERANGE;
	e = &q->t[t];
	w = hws_weight_of(prio);
	e->wprio = (uint8_t)prio;
	e->wfix = 1;
	if (e->queued) {
		q->cpu[e->cpu].load += w - e->weight;
		q->gtotal[e->group] += w - e->weight;
	}
	e->weight = w;
	return 0;
}

static int sw_set_idle(struct fw_rq *q, unsigned on_cpu, unsigned cpu, int idle)
{
	(void)on_cpu;
	if (cpu >= q->ncpu)
		return -ERANGE;
	q->cpu[cpu].idle = idle;	/* a per-CPU flag the code already has: free */
	return 0;
}

static int sw_load_tick(struct fw_rq *q, unsigned on_cpu, unsigned cpu)
{
	struct sw_cpu *c;

	charge(q, on_cpu, q->c.sw_op_ns / 4, SCHED_WORK_SW_OP);
	if (cpu >= q->ncpu)
		return -ERANGE;
	c = &q->cpu[cpu];
	c->hist = (uint32_t)(((uint64_t)c->hist + c->load) >> 1);
	return 0;
}

static int sw_loads(struct fw_rq *q, unsigned on_cpu, unsigned cpu, uint32_t *now,
		    uint32_t *src, uint32_t *tgt)
{
	struct sw_cpu *c;

	charge(q, on_cpu, q->c.sw_cpu_ns, SCHED_WORK_SW_BALANCE);
	if (cpu >= q->ncpu)
		return -ERANGE;
	rq_read(q, on_cpu, cpu);
	c = &q->cpu[cpu];
	*now = c->load;
	*src = c->load < c->hist ? c->load : c->hist;
	*tgt = c->load > c->hist ? c->load : c->hist;
	return 0;
}

static int sw_group_total(struct fw_rq *q, unsigned on_cpu, unsigned group, uint32_t *w)
{
	charge(q, on_cpu, q->c.sw_op_ns / 4, SCHED_WORK_SW_OP);
	if (group >= (q->env->nr_groups ? q->env->nr_groups : 1))
		return -ERANGE;
	*w = q->gtotal[group];
	return 0;
}

static void cpu_loads(struct fw_rq *q, struct hws_cpu_load *l)
{
	for (unsigned x = 0; x < q->ncpu; x++) {
		l[x].now = q->cpu[x].load;
		l[x].hist = q->cpu[x].hist;
	}
}

/* The CPUs of @cpu's domain at @level. */
static uint64_t span_of(const struct fw_rq *q, unsigned level, unsigned cpu)
{
	return hws_domain_span(q->env->topo->lead, q->env->topo->nr_cpus, level, cpu);
}

static int sw_balance(struct fw_rq *q, unsigned cpu, unsigned level, enum hws_idle_type idle,
		      struct hws_balance *out)
{
	struct hws_cpu_load l[HWS_MAX_CPUS] = { { 0, 0 } };

	charge(q, cpu, q->c.sw_base_ns +
			       q->c.sw_cpu_ns * __builtin_popcountll(span_of(q, level, cpu)),
	       SCHED_WORK_SW_BALANCE);
	rq_read_span(q, cpu, span_of(q, level, cpu));
	cpu_loads(q, l);
	return fw_find_busiest(q->env->topo, cpu, level, idle, l, out);
}

static int sw_idlest(struct fw_rq *q, unsigned cpu, unsigned level, unsigned *found)
{
	struct hws_cpu_load l[HWS_MAX_CPUS] = { { 0, 0 } };
	uint64_t span = span_of(q, level, cpu);

	charge(q, cpu, q->c.sw_cpu_ns * __builtin_popcountll(span), SCHED_WORK_SW_BALANCE);
	rq_read_span(q, cpu, span);
	cpu_loads(q, l);
	*found = (unsigned)hws_find_idlest(span, l, (int)cpu);
	return 0;
}

static int sw_idle_core(struct fw_rq *q, unsigned cpu, unsigned level, int *found)
{
	uint64_t span = span_of(q, level, cpu), idle = 0, core_of[HWS_MAX_CPUS];

	charge(q, cpu, q->c.sw_cpu_ns * __builtin_popcountll(span), SCHED_WORK_SW_BALANCE);
	rq_read_span(q, cpu, span);
	for (unsigned x = 0; x < q->ncpu; x++)
		idle |= (uint64_t)(q->cpu[x].idle != 0) << x;
	hws_core_of(q->env->topo->lead, q->ncpu, core_of);
	*found = hws_find_idle_core(span, core_of, idle, cpu);
	return 0;
}

static void sw_stats(struct fw_rq *q, uint64_t *commands, uint64_t *cycles, uint64_t *mmio)
{
	(void)q;
	*commands = *cycles = *mmio = 0;
}

const struct fw_rq_ops fw_rq_sw_ops = {
	.name = "software",
	.create = sw_create,
	.destroy = sw_destroy,
	.enqueue = sw_enqueue,
	.dequeue = sw_dequeue,
	.requeue = sw_requeue,
	.pick = sw_pick,
	.peek = sw_peek,
	.migrate = sw_migrate,
	.set_group = sw_set_group,
	.set_weight = sw_set_weight,
	.set_idle = sw_set_idle,
	.load_tick = sw_load_tick,
	.loads = sw_loads,
	.group_total = sw_group_total,
	.balance = sw_balance,
	.idlest = sw_idlest,
	.idle_core = sw_idle_core,
	.stats = sw_stats,
};
