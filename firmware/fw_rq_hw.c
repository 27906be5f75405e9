/*
 * fw_rq_hw.c - the run-queue primitives on the engine, through the driver (scheduler
 * `hw`). Every call is charged what it costs on the bus: each MMIO access the driver
 * makes costs the bus latency, and each engine cycle it waits for (RESULT or SYNC reads
 * that wait) costs one engine clock (docs/simulator.md). When the caller supplies a bus
 * (struct sched_engine's bus: the virtual platform of docs/vp.md), the engine is reached
 * through it, each access made by the CPU that is charged, and the charge is the time the
 * bus annotated.
 *
 * The bus protocol (docs/firmware.md, "Bus protocol"): unless sched_engine.sync_cmds asks
 * for the old one (or the bus cannot reach the windows: hws_windows()), the commands whose answer the policy does not need (ENQUEUE, DEQUEUE,
 * REQUEUE, MIGRATE, SET_GROUP, SET_WEIGHT, SET_IDLE, LOAD_TICK) are posted (hws_post(): a
 * CMD write, no completion read; the driver keeps the FIFO's credits) and PICK_NEXT / PEEK
 * are one read of the POP / PEEKW window; a BALANCE reads its result word and only the
 * BAL_* loads the policy goes on to use (none for a balanced domain). A posted command's
 * failure is collected by the driver where it reads anyway (a window word's ERRP bit, a
 * SYNC) and returned by the next operation of this file, with hws_errmsg() naming the
 * failed command word.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hws/hws.h"
#include "hws/regs.h"
#include "firmware/fw_rq.h"
#include "lib/hws_params.h"

struct fw_rq {
	const struct sched_env *env;
	struct sched_costs c;
	struct sched_engine e;
	struct hws_dev *d;
	struct hws_bus_stats last;
	/* What the irq_lines() stand-in for the interrupt pins took: left out of stats() */
	uint64_t probe_reads, probe_edges;
};

/* Charge @on_cpu for the bus traffic since the last charge. */
static void charge(struct fw_rq *q, unsigned on_cpu)
{
	struct hws_bus_stats s;
	uint64_t acc, wait;

	hws_get_bus_stats(q->d, &s);
	acc = (s.reads - q->last.reads) + (s.writes - q->last.writes);
	wait = s.edges - q->last.edges;
	wait = wait > 2 * acc ? wait - 2 * acc : 0;
	if (q->e.bus)
		q->env->charge(q->env->machine, on_cpu, s.delay_ns - q->last.delay_ns, SCHED_WORK_ENGINE);
	else
		q->env->charge(q->env->machine, on_cpu,
			       (double)acc * q->c.bus_ns + (double)wait * q->c.engine_clk_ns,
			       SCHED_WORK_ENGINE);
	q->last = s;
}

/* The device, its next accesses made by @cpu (the transport's master; else ignored). */
static struct hws_dev *on(struct fw_rq *q, unsigned cpu)
{
	hws_set_master(q->d, cpu);
	return q->d;
}

static int program_topology(struct fw_rq *q, char *msg, size_t len)
{
	const struct sched_topo *t = q->env->topo;
	unsigned k, x, l;
	int ret = 0;

	for (k = 1; k <= 3 && !ret; k++)
		for (x = 0; x < t->nr_cpus && !ret; x++)
			ret = hws_dom_set(q->d, x, k, hws_block(t->lead, k, x));
	for (l = 0; l < HWS_NR_LEVELS && !ret; l++) {
		ret = hws_dom_set_pct(q->d, l, fw_level_pct(l));
		for (x = 0; x < t->nr_cpus && !ret; x++)
			if (hws_block(t->lead, l, x) == x)
				ret = hws_dom_set_power(q->d, l, x, fw_group_power(t, l));
	}
	if (ret)
		snprintf(msg, len, "programming the domain table: %s", hws_errmsg(q->d));
	return ret;
}

/*
 * The preemption interrupt (sched_engine.irq): enable every CPU's line. Refused with a
 * reason when the engine has no interrupt or the bus cannot reach the CURR window.
 */
static int setup_irq(struct fw_rq *q, const struct sched_env *env, char *msg, size_t len)
{
	uint64_t all = env->topo->nr_cpus >= 64 ? ~0ull : (1ull << env->topo->nr_cpus) - 1;
	int ret;

	if (!q->e.irq)
		return 0;
	if (!hws_windows(q->d)) {
		snprintf(msg, len, "engine irq: the engine's bus cannot reach the CURR window "
			 "(hws_windows() 0: a serial line's or a 256-byte bus's addresses)");
		return -ENOTSUP;
	}
	ret = hws_irq_enable(q->d, all);
	if (ret == -EOPNOTSUPP)
		snprintf(msg, len, "engine irq: the engine is built without the preemption "
			 "interrupt (FEATURES.IRQ = 0, IRQ=0)");
	else if (ret)
		snprintf(msg, len, "engine irq: enabling IRQ_EN: %s", hws_errmsg(q->d));
	return ret;
}

unsigned fw_engine_nr_tasks(unsigned nr_tasks)
{
	unsigned n = 256;

	while (n < nr_tasks)
		n *= 2;
	return n;
}

static struct fw_rq *hw_create(const struct sched_env *env, const struct sched_opts *o,
			       char *msg, size_t len)
{
	struct fw_rq *q = calloc(1, sizeof(*q));
	struct hws_config cfg = { 0 };
	char m[300];

	if (!q) {
		snprintf(msg, len, "out of memory");
		return NULL;
	}
	q->env = env;
	q->c = o->costs;
	q->e = o->engine;
	cfg.backend = o->engine.backend;
	cfg.nr_cpus = env->topo->nr_cpus;
	cfg.nr_tasks = o->engine.nr_tasks ? o->engine.nr_tasks : fw_engine_nr_tasks(env->nr_tasks);
	cfg.cmd_depth = cfg.res_depth = HWS_DEF_DEPTH;
	cfg.nr_groups = HWS_DEF_GROUPS;
	cfg.wave = o->engine.wave;
	cfg.no_balance = o->engine.no_balance != 0;
	cfg.no_err_counters = o->engine.no_err_counters != 0;
	cfg.no_irq = o->engine.no_irq != 0;
	cfg.lcu_lean = o->engine.lcu_lean != 0;
	cfg.transport = o->engine.bus;
	if (env->nr_tasks > cfg.nr_tasks) {
		snprintf(msg, len, "the engine holds %u tasks, the workload has %u",
			 cfg.nr_tasks, env->nr_tasks);
		free(q);
		return NULL;
	}
	if (env->nr_groups > cfg.nr_groups) {
		snprintf(msg, len, "the engine holds %u task groups, the workload has %u",
			 cfg.nr_groups, env->nr_groups);
		free(q);
		return NULL;
	}
	if (hws_open(&q->d, &cfg, m, sizeof(m))) {
		snprintf(msg, len, "engine (%u CPUs, %u tasks, %s backend): %s", cfg.nr_cpus,
			 cfg.nr_tasks, hws_config_backend(&cfg), m);
		free(q);
		return NULL;
	}
	/* A bus that cannot reach the windows (a board's serial line, a caller's bus that
	 * decodes 256 bytes) keeps the synchronous protocol throughout. */
	if (!hws_windows(q->d))
		q->e.sync_cmds = 1;
	if (program_topology(q, msg, len) || setup_irq(q, env, msg, len)) {
		hws_close(q->d);
		free(q);
		return NULL;
	}
	hws_get_bus_stats(q->d, &q->last);
	return q;
}

static void hw_destroy(struct fw_rq *q)
{
	if (!q)
		return;
	hws_close(q->d);
	free(q);
}

/*
 * Charge what @ret's call cost and pass its result on; when the call itself went well, a
 * posted command's failure the driver has collected is returned instead (its errno; the
 * driver's message names the command).
 */
static int charged(struct fw_rq *q, unsigned cpu, int ret)
{
	charge(q, cpu);
	if (!ret && !q->e.sync_cmds)
		ret = hws_post_errors(q->d, NULL);
	return ret;
}

/* A command whose answer is not needed, posted. */
static int post(struct fw_rq *q, unsigned on_cpu, uint32_t cmd)
{
	return charged(q, on_cpu, hws_post(on(q, on_cpu), cmd));
}

static int hw_enqueue(struct fw_rq *q, unsigned on_cpu, unsigned t, unsigned cpu, unsigned prio,
		      int expired, int head)
{
	if (q->e.sync_cmds)
		return charged(q, on_cpu, hws_enqueue(on(q, on_cpu), t, cpu, prio, expired, head));
	return post(q, on_cpu, hws_cmd(HWS_OP_ENQUEUE, t, prio, cpu, expired != 0, head != 0));
}

static int hw_dequeue(struct fw_rq *q, unsigned on_cpu, unsigned t)
{
	if (q->e.sync_cmds)
		return charged(q, on_cpu, hws_dequeue(on(q, on_cpu), t));
	return post(q, on_cpu, hws_cmd(HWS_OP_DEQUEUE, t, 0, 0, 0, 0));
}

static int hw_requeue(struct fw_rq *q, unsigned on_cpu, unsigned t)
{
	if (q->e.sync_cmds)
		return charged(q, on_cpu, hws_requeue(on(q, on_cpu), t));
	return post(q, on_cpu, hws_cmd(HWS_OP_REQUEUE, t, 0, 0, 0, 0));
}

static int look(struct fw_rq *q, unsigned on_cpu, unsigned cpu, unsigned *t, int *swapped,
		int take)
{
	struct hws_dev *d = on(q, on_cpu);
	struct hws_pick p;
	int ret;

	if (q->e.sync_cmds)
		ret = take ? hws_pick_next(d, cpu, &p) : hws_peek(d, cpu, &p);
	else if (cpu >= HWS_POP_WORDS)	/* no window word: the engine's CPU error */
		ret = -ERANGE;
	else
		ret = take ? hws_pop(d, cpu, &p, NULL) : hws_peekw(d, cpu, &p, NULL);
	ret = charged(q, on_cpu, ret);
	if (ret)
		return ret;
	*t = p.task;
	*swapped = p.swapped;
	return p.found;
}

static int hw_pick(struct fw_rq *q, unsigned on_cpu, unsigned cpu, unsigned *t, int *swapped)
{
	return look(q, on_cpu, cpu, t, swapped, 1);
}

static int hw_peek(struct fw_rq *q, unsigned on_cpu, unsigned cpu, unsigned *t, int *swapped)
{
	return look(q, on_cpu, cpu, t, swapped, 0);
}

static int hw_migrate(struct fw_rq *q, unsigned on_cpu, unsigned t, unsigned cpu)
{
	if (q->e.sync_cmds)
		return charged(q, on_cpu, hws_migrate(on(q, on_cpu), t, cpu));
	return post(q, on_cpu, hws_cmd(HWS_OP_MIGRATE, t, 0, cpu, 0, 0));
}

static int hw_set_group(struct fw_rq *q, unsigned on_cpu, unsigned t, unsigned group)
{
	if (q->e.sync_cmds)
		return charged(q, on_cpu, hws_set_group(on(q, on_cpu), t, group));
	return post(q, on_cpu, hws_cmd(HWS_OP_SET_GROUP, t, group, 0, 0, 0));
}

static int hw_set_weight(struct fw_rq *q, unsigned on_cpu, unsigned t, unsigned prio)
{
	if (q->e.sync_cmds)
		return charged(q, on_cpu, hws_set_weight(on(q, on_cpu), t, prio));
	return post(q, on_cpu, hws_cmd(HWS_OP_SET_GROUP, t, prio, 0, 0, 1));
}

static int hw_set_idle(struct fw_rq *q, unsigned on_cpu, unsigned cpu, int idle)
{
	if (q->e.sync_cmds)
		return charged(q, on_cpu, hws_set_idle(on(q, on_cpu), cpu, idle));
	return post(q, on_cpu, hws_cmd(HWS_OP_SET_IDLE, 0, 0, cpu, idle != 0, 0));
}

static int hw_load_tick(struct fw_rq *q, unsigned on_cpu, unsigned cpu)
{
	if (q->e.sync_cmds)
		return charged(q, on_cpu, hws_load_tick(on(q, on_cpu), cpu));
	return post(q, on_cpu, hws_cmd(HWS_OP_LOAD_TICK, 0, 0, cpu, 0, 0));
}

static int hw_loads(struct fw_rq *q, unsigned on_cpu, unsigned cpu, uint32_t *now,
		    uint32_t *src, uint32_t *tgt)
{
	int ret = hws_cpu_stat(on(q, on_cpu), cpu, HWS_SEL_CPU_STAT_LOAD, now);

	if (!ret)
		ret = hws_lcu_stat(q->d, cpu, HWS_SEL_LCU_STAT_SOURCE_LOAD, 0, src);
	if (!ret)
		ret = hws_lcu_stat(q->d, cpu, HWS_SEL_LCU_STAT_TARGET_LOAD, 0, tgt);
	charge(q, on_cpu);
	return ret;
}

static int hw_group_total(struct fw_rq *q, unsigned on_cpu, unsigned group, uint32_t *w)
{
	return charged(q, on_cpu,
		       hws_lcu_stat(on(q, on_cpu), 0, HWS_SEL_LCU_STAT_GROUP_TOTAL, group, w));
}

/*
 * An engine built without BALANCE (the small-FPGA build): read the load now (CPU_STAT) and
 * history (LCU_STAT) of every CPU of the domain, two commands each, and decide in software
 * with the same arithmetic (fw_find_busiest): the answer is the engine's, the cost is
 * 2 x |span| command round trips instead of one query.
 */
static int hw_balance_soft(struct fw_rq *q, unsigned cpu, unsigned level,
			   enum hws_idle_type idle, struct hws_balance *out)
{
	struct hws_cpu_load l[HWS_MAX_CPUS] = { { 0, 0 } };
	uint64_t span;
	int ret = 0;

	if (cpu >= q->env->topo->nr_cpus || level >= HWS_NR_LEVELS)
		return -ERANGE;
	span = hws_domain_span(q->env->topo->lead, q->env->topo->nr_cpus, level, cpu);
	for (; span && !ret; span &= span - 1) {
		unsigned x = (unsigned)__builtin_ctzll(span);

		ret = hws_cpu_stat(on(q, cpu), x, HWS_SEL_CPU_STAT_LOAD, &l[x].now);
		if (!ret)
			ret = hws_lcu_stat(q->d, x, HWS_SEL_LCU_STAT_HIST, 0, &l[x].hist);
	}
	charge(q, cpu);
	return ret ? ret : fw_find_busiest(q->env->topo, cpu, level, idle, l, out);
}

static int hw_balance(struct fw_rq *q, unsigned cpu, unsigned level, enum hws_idle_type idle,
		      struct hws_balance *out)
{
	struct hws_bal b;
	int ret;

	if (q->e.no_balance)
		return hw_balance_soft(q, cpu, level, idle, out);
	/* Posted protocol: the result word, then only the loads the policy will read (fw_rq.h):
	 * a balanced domain costs a CMD write and a RESULT read, the others three BAL_* reads
	 * more. The synchronous protocol reads all four. */
	ret = hws_balance_verdict(on(q, cpu), cpu, level, (unsigned)idle, &b);
	if (!ret && q->e.sync_cmds)
		ret = hws_balance_loads(on(q, cpu), HWS_BAL_RD_ALL, &b);
	else if (!ret && fw_balance_needs_loads((enum hws_balance_verdict)b.verdict))
		ret = hws_balance_loads(on(q, cpu),
					HWS_BAL_RD_THIS | HWS_BAL_RD_MAX | HWS_BAL_RD_AVG, &b);
	charge(q, cpu);
	if (ret)
		return ret;
	out->verdict = (enum hws_balance_verdict)b.verdict;
	out->busiest_group = b.busiest;	/* a leader CPU, not an index: callers use the CPU */
	out->busiest_cpu = b.busiest_cpu;
	out->this_group = (int)b.this_group;
	out->this_load = b.this_load;
	out->max_load = b.max_load;
	out->avg_load = b.avg_load;
	out->imbalance = b.imbalance;
	return 0;
}

/* On a failure (a board that stopped answering) the answer is a harmless one, the asking
 * CPU or none: the policy goes on to use it before the machine sees the error and stops. */
static int hw_idlest(struct fw_rq *q, unsigned cpu, unsigned level, unsigned *found)
{
	int ret = charged(q, cpu, hws_idlest(on(q, cpu), cpu, level, found));

	if (ret)
		*found = cpu;
	return ret;
}

static int hw_idle_core(struct fw_rq *q, unsigned cpu, unsigned level, int *found)
{
	int whole, ret = charged(q, cpu, hws_idle_core(on(q, cpu), cpu, level, found, &whole));

	if (ret)
		*found = -1;
	return ret;
}

static int hw_set_curr(struct fw_rq *q, unsigned on_cpu, unsigned cpu, unsigned prio)
{
	return charged(q, on_cpu, hws_set_curr(on(q, on_cpu), cpu, prio));
}

static int hw_irq_ack(struct fw_rq *q, unsigned on_cpu, unsigned cpu)
{
	return charged(q, on_cpu, hws_irq_ack(on(q, on_cpu), 1ull << cpu));
}

/*
 * The engine's per-CPU lines (irq_cpu_o) as the CPUs would see them: a line rises one edge
 * after the command that sets its bit completes, and interrupts its CPU with no bus access.
 * The driver reaches the lines of no backend but through IRQ_PEND, so this lets the posted
 * commands drain (every one in the FIFO and the one executing, at most HWS_LAT_MIGRATE
 * cycles each) and reads IRQ_PEND; neither is charged nor counted in hw_stats().
 */
static int hw_irq_lines(struct fw_rq *q, uint64_t *lines)
{
	struct hws_bus_stats s;
	int ret;

	ret = hws_idle(q->d, (HWS_DEF_DEPTH + 2) * HWS_LAT_MIGRATE);
	if (!ret)
		ret = hws_irq_pending(q->d, lines);
	hws_get_bus_stats(q->d, &s);
	q->probe_reads += (s.reads - q->last.reads) + (s.writes - q->last.writes);
	q->probe_edges += s.edges - q->last.edges;
	q->last = s;
	return ret;
}

static const char *hw_errmsg(struct fw_rq *q)
{
	return hws_errmsg(q->d);
}

static void hw_stats(struct fw_rq *q, uint64_t *commands, uint64_t *cycles, uint64_t *mmio)
{
	struct hws_bus_stats s;

	hws_get_bus_stats(q->d, &s);
	*commands = s.commands;
	*cycles = s.edges - q->probe_edges;
	*mmio = s.reads + s.writes - q->probe_reads;
}

const struct fw_rq_ops fw_rq_hw_ops = {
	.name = "engine",
	.create = hw_create,
	.destroy = hw_destroy,
	.enqueue = hw_enqueue,
	.dequeue = hw_dequeue,
	.requeue = hw_requeue,
	.pick = hw_pick,
	.peek = hw_peek,
	.migrate = hw_migrate,
	.set_group = hw_set_group,
	.set_weight = hw_set_weight,
	.set_idle = hw_set_idle,
	.load_tick = hw_load_tick,
	.loads = hw_loads,
	.group_total = hw_group_total,
	.balance = hw_balance,
	.idlest = hw_idlest,
	.idle_core = hw_idle_core,
	.set_curr = hw_set_curr,
	.irq_ack = hw_irq_ack,
	.irq_lines = hw_irq_lines,
	.stats = hw_stats,
	.errmsg = hw_errmsg,
};
