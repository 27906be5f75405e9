/*
 * hws_randcmd.c - random command streams; see hws_randcmd.h.
 *
 * Every command is generated together with the outcome the shadow predicts (which error
 * code, if any). Synchronous commands are checked against that prediction, so a rule that
 * the model and the RTL both got wrong is caught too, not only a disagreement between them.
 */
#include "hws_randcmd.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/hws_params.h"

#define NPRIO HWS_NR_PRIO

enum phase { FILL, DRAIN };

struct gen {
	struct hws_dev *d;
	const struct hws_config *c;
	const struct hws_randcmd_opts *o;
	struct hws_randcmd_report *r;
	uint64_t s;		/* xorshift state */
	uint8_t *queued;	/* shadow: tasks queued */
	uint32_t nq;		/* shadow: how many */
	enum phase phase;
	uint8_t dom_bad[5];	/* shadow: partition Pk was corrupted on purpose */
	int win;		/* the bus reaches the POP/PEEKW windows (hws_windows()); if
				 * not, the stream draws exactly what it drew before them */
};

/* A generated command with the outcome the shadow predicts. */
struct gcmd {
	uint32_t word;
	unsigned op;
	unsigned expect;	/* predicted error code, 0 = success */
	int query;		/* pushes a result word */
};

static uint64_t rnd64(struct gen *g)
{
	/* xorshift64* */
	g->s ^= g->s >> 12;
	g->s ^= g->s << 25;
	g->s ^= g->s >> 27;
	return g->s * 0x2545F4914F6CDD1DULL;
}

static unsigned rnd(struct gen *g, unsigned n)
{
	return (unsigned)((rnd64(g) >> 32) % n);
}

static int fail(struct gen *g, int ret, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(g->r->msg, sizeof(g->r->msg), fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n < sizeof(g->r->msg))
		snprintf(g->r->msg + n, sizeof(g->r->msg) - (size_t)n, ": %s", hws_errmsg(g->d));
	g->r->failed = 1;
	return ret ? ret : -EPROTO;
}

/* A task that is (want = 1) or is not (want = 0) queued, or -1 when there is none. */
static int pick_task(struct gen *g, int want)
{
	unsigned n = g->c->nr_tasks, t, i;

	if ((want && g->nq == 0) || (!want && g->nq == n))
		return -1;
	for (i = 0; i < 8; i++) {
		t = rnd(g, n);
		if (g->queued[t] == want)
			return (int)t;
	}
	for (i = 0, t = rnd(g, n); i < n; i++, t = (t + 1) % n)
		if (g->queued[t] == want)
			return (int)t;
	return -1;
}

static unsigned rand_prio(struct gen *g)
{
	return rnd(g, 10) < 7 ? HWS_MAX_RT_PRIO + rnd(g, 40) : rnd(g, HWS_MAX_RT_PRIO);
}

/* A command word @w of opcode @op, expected to fail with @expect (0: to succeed). */
static struct gcmd mk_word(uint32_t w, unsigned op, unsigned expect)
{
	struct gcmd c;

	c.word = w;
	c.op = op;
	c.expect = expect;
	c.query = op == HWS_OP_PICK_NEXT || op == HWS_OP_PEEK || op == HWS_OP_CPU_STAT ||
		  op == HWS_OP_TASK_STAT || op == HWS_OP_LCU_STAT || op == HWS_OP_QUERY;
	return c;
}

static struct gcmd mk(unsigned op, unsigned task, unsigned prio, unsigned cpu, unsigned arr,
		      unsigned head, unsigned expect)
{
	return mk_word(hws_cmd(op, task, prio, cpu, arr, head), op, expect);
}

/*
 * A QUERY of @kind whose first bad field would fail it with @code: OPCODE comes first, for
 * the reserved kind 3 and for BALANCE where it is not built (section 1, LCU_BALANCE).
 */
static unsigned query_fail(const struct gen *g, unsigned kind, unsigned code)
{
	return kind > 2 || (kind == 2 && g->c->no_balance) ? HWS_ERR_OPCODE : code;
}

/* The outcome the shadow predicts for a QUERY at @level of @kind (section 8.1). */
static unsigned query_expect(const struct gen *g, unsigned level, unsigned kind)
{
	unsigned code = 0;

	if (level >= HWS_NR_LEVELS)
		code = HWS_ERR_PRIO;
	else if (g->dom_bad[level] || g->dom_bad[level + 1] || (kind == 1 && g->dom_bad[1]))
		code = HWS_ERR_DOMAIN;
	return query_fail(g, kind, code);
}

/* A command that must fail, and with which code. */
static struct gcmd gen_illegal(struct gen *g)
{
	unsigned cpus = g->c->nr_cpus, tasks = g->c->nr_tasks, groups = g->c->nr_groups;
	unsigned cpu = rnd(g, cpus), prio = rand_prio(g);
	int t;

	switch (rnd(g, 14)) {
	case 7:
		return mk(HWS_OP_SET_GROUP, rnd(g, tasks), NPRIO + rnd(g, 256 - NPRIO), cpu, 0, 1,
			  HWS_ERR_PRIO);
	case 8:
		if (groups < 256)
			return mk(HWS_OP_SET_GROUP, rnd(g, tasks), groups + rnd(g, 256 - groups), cpu,
				  0, 0, HWS_ERR_GROUP);
		break;
	case 9:
		if (groups < 4096)
			return mk(HWS_OP_LCU_STAT, groups + rnd(g, 4096 - groups),
				  HWS_SEL_LCU_STAT_GROUP_LOAD + rnd(g, 2), cpu, 0, 0, HWS_ERR_GROUP);
		break;
	case 10:
		return mk(HWS_OP_LCU_STAT, rnd(g, 4096),
			  HWS_SEL_LCU_STAT_COUNT + rnd(g, 256 - HWS_SEL_LCU_STAT_COUNT), cpu, 0, 0,
			  HWS_ERR_PRIO);
	case 11:
		if (cpus < 64 && rnd(g, 3) == 0) {
			/* A QUERY of a CPU beyond NR_CPUS: CPU, but OPCODE first for a BALANCE
			 * where it is not built. */
			unsigned kind = rnd(g, 3);

			return mk(HWS_OP_QUERY, rnd(g, 3), rnd(g, HWS_NR_LEVELS),
				  cpus + rnd(g, 64 - cpus), kind >> 1, kind & 1,
				  query_fail(g, kind, HWS_ERR_CPU));
		}
		if (cpus < 64)
			return mk(rnd(g, 2) ? HWS_OP_LOAD_TICK : HWS_OP_SET_IDLE, 0, 0,
				  cpus + rnd(g, 64 - cpus), 0, 0, HWS_ERR_CPU);
		break;
	case 12:
		switch (rnd(g, 8)) {
		case 0:	/* k 0..3 with data bits in PRIO[7:3] */
			return mk(HWS_OP_DOM_SET, rnd(g, cpus), 8 * (1 + rnd(g, 31)) + rnd(g, 4), cpu,
				  0, 0, HWS_ERR_PRIO);
		case 1:	/* imbalance_pct below 100 */
			return mk(HWS_OP_DOM_SET, rnd(g, 4) << 10 | rnd(g, 100), 0, cpu, 0, 0,
				  HWS_ERR_PRIO);
		case 2:	/* TASK[9:8] set with k = 0 */
			return mk(HWS_OP_DOM_SET, (1 + rnd(g, 3)) << 8 | rnd(g, 256) | rnd(g, 4) << 10,
				  0, cpu, 0, 0, HWS_ERR_PRIO);
		case 3:	/* a power below 256 */
			return mk(HWS_OP_DOM_SET, rnd(g, HWS_MIN_POWER), 4 + rnd(g, 4), cpu, 0, 0,
				  HWS_ERR_PRIO);
		}
		if (cpus < 64)
			return mk(HWS_OP_DOM_SET, cpus + rnd(g, 64 - cpus), 1 + rnd(g, 3), cpu, 0, 0,
				  HWS_ERR_CPU);
		break;
	case 13: {
		unsigned kind = rnd(g, 3), level = HWS_NR_LEVELS + rnd(g, 256 - HWS_NR_LEVELS);

		return mk(HWS_OP_QUERY, rnd(g, 3), level, cpu, kind >> 1, kind & 1,
			  query_fail(g, kind, HWS_ERR_PRIO));
	}
	case 0:
		if (tasks < 4096)
			return mk(HWS_OP_ENQUEUE, tasks + rnd(g, 4096 - tasks), prio, cpu, 0, 0,
				  HWS_ERR_TASK);
		break;
	case 1:
		/* CPU is checked before NOTQUEUED: any in-range task will do. */
		if (cpus < 64)
			return mk(rnd(g, 2) ? HWS_OP_PICK_NEXT : HWS_OP_MIGRATE, rnd(g, tasks), 0,
				  cpus + rnd(g, 64 - cpus), 0, 0, HWS_ERR_CPU);
		break;
	case 2:
		t = pick_task(g, 0);
		if (t >= 0)
			return mk(HWS_OP_ENQUEUE, (unsigned)t, NPRIO + rnd(g, 256 - NPRIO), cpu, 0, 0,
				  HWS_ERR_PRIO);
		break;
	case 3:
		t = pick_task(g, 1);
		if (t >= 0)
			return mk(HWS_OP_ENQUEUE, (unsigned)t, prio, cpu, rnd(g, 2), 0,
				  HWS_ERR_QUEUED);
		break;
	case 4:
		t = pick_task(g, 0);
		if (t >= 0) {
			static const unsigned ops[] = { HWS_OP_DEQUEUE, HWS_OP_REQUEUE,
							HWS_OP_SET_PRIO, HWS_OP_MIGRATE };

			return mk(ops[rnd(g, 4)], (unsigned)t, prio, cpu, 0, 0,
				  HWS_ERR_NOTQUEUED);
		}
		break;
	case 5:
		return mk(rnd(g, 2) ? HWS_OP_CPU_STAT : HWS_OP_TASK_STAT, rnd(g, tasks),
			  HWS_SEL_CPU_STAT_COUNT + rnd(g, 256 - HWS_SEL_CPU_STAT_COUNT), cpu, 0, 0,
			  HWS_ERR_PRIO);
	case 6:
		t = pick_task(g, 1);
		if (t >= 0)
			return mk(HWS_OP_SET_PRIO, (unsigned)t, NPRIO + rnd(g, 256 - NPRIO), cpu, 0, 0,
				  HWS_ERR_PRIO);
		break;
	}
	/* BALANCE with an idle type >= 3: TASK comes before DOMAIN (OPCODE before both where
	 * BALANCE is not built). */
	if (rnd(g, 2))
		return mk(HWS_OP_QUERY, 3 + rnd(g, 4093), rnd(g, HWS_NR_LEVELS), cpu, 1, 0,
			  query_fail(g, 2, HWS_ERR_TASK));
	/* The reserved QUERY kind 3 (every opcode is defined; that kind is not). */
	return mk(HWS_OP_QUERY, rnd(g, 4096), rnd(g, 256), cpu, 1, 1, HWS_ERR_OPCODE);
}

/*
 * A legal command (or, 6% of the time, an illegal one). @neutral: only commands that
 * leave the set of queued tasks alone (for bursts that may overflow). @allow_pick: a
 * PICK_NEXT may be chosen.
 */
static struct gcmd gen_cmd(struct gen *g, int neutral, int allow_pick)
{
	/* Weights of the choices below, by case number; 10 is "illegal". */
	static const unsigned w_fill[] = { 40, 5, 8, 5, 8, 8, 8, 6, 4, 2, 6, 3, 4, 4, 2, 4 };
	static const unsigned w_drain[] = { 6, 25, 20, 5, 8, 8, 8, 6, 4, 2, 6, 3, 4, 4, 2, 4 };
	const unsigned nw = sizeof(w_fill) / sizeof(w_fill[0]);
	const unsigned *w = g->phase == FILL ? w_fill : w_drain;
	unsigned cpus = g->c->nr_cpus, tasks = g->c->nr_tasks, groups = g->c->nr_groups;
	unsigned k, x, sum = 0, cpu = rnd(g, cpus);
	int t;

	for (k = 0; k < nw; k++)
		sum += w[k];
	x = rnd(g, sum);
	for (k = 0; k < nw - 1 && x >= w[k]; k++)
		x -= w[k];
	if (neutral && (k == 0 || k == 1 || k == 2))
		k = 3 + rnd(g, 7);
	if (!allow_pick && k == 2)
		k = 3;
	switch (k) {
	case 0:
		t = pick_task(g, 0);
		if (t < 0)
			break;
		return mk(HWS_OP_ENQUEUE, (unsigned)t, rand_prio(g), cpu, rnd(g, 2), rnd(g, 4) == 0,
			  0);
	case 1:
		t = pick_task(g, 1);
		if (t < 0)
			break;
		return mk(HWS_OP_DEQUEUE, (unsigned)t, rnd(g, 256), rnd(g, 64), rnd(g, 2), rnd(g, 2),
			  0);
	case 2:
		return mk(HWS_OP_PICK_NEXT, rnd(g, 4096), 0, cpu, 0, 0, 0);
	case 3:
		return mk(HWS_OP_PEEK, 0, 0, cpu, 0, 0, 0);
	case 4:
	case 5:
	case 6:
		t = pick_task(g, 1);
		if (t < 0)
			break;
		if (k == 4)
			return mk(HWS_OP_REQUEUE, (unsigned)t, 0, 0, 0, 0, 0);
		if (k == 5)
			return mk(HWS_OP_SET_PRIO, (unsigned)t, rand_prio(g), 0, 0, 0, 0);
		return mk(HWS_OP_MIGRATE, (unsigned)t, 0, cpu, 0, 0, 0);
	case 7:
		return mk(HWS_OP_CPU_STAT, 0, rnd(g, HWS_SEL_CPU_STAT_COUNT), cpu, 0, 0, 0);
	case 8:
		return mk(HWS_OP_TASK_STAT, rnd(g, tasks), rnd(g, HWS_SEL_TASK_STAT_COUNT), 0, 0, 0,
			  0);
	case 9:
		return mk(HWS_OP_NOP, rnd(g, 4096), rnd(g, 256), rnd(g, 64), 0, 0, 0);
	case 11:
		return mk(HWS_OP_LOAD_TICK, rnd(g, 4096), rnd(g, 256), cpu, 0, 0, 0);
	case 12:
		if (rnd(g, 3) == 0)	/* SET_WEIGHT: the load weight follows a priority */
			return mk(HWS_OP_SET_GROUP, rnd(g, tasks), rand_prio(g), rnd(g, 64), rnd(g, 2),
				  1, 0);
		return mk(HWS_OP_SET_GROUP, rnd(g, tasks), rnd(g, groups), 0, 0, 0, 0);
	case 13:
		return mk(HWS_OP_LCU_STAT, rnd(g, groups), rnd(g, HWS_SEL_LCU_STAT_COUNT), cpu, 0,
			  0, 0);
	case 14:
		return mk(HWS_OP_SET_IDLE, 0, 0, cpu, rnd(g, 2), 0, 0);
	case 15: {
		/* BALANCE one query in four (chosen when it took 125 + 41 cycles per group; now
		 * 8 + 2 max(2, log2 NR_CPUS)): kept, so that a seed replays the same stream. */
		unsigned kind = rnd(g, 4) == 0 ? 2 : rnd(g, 2), level = rnd(g, HWS_NR_LEVELS);

		return mk(HWS_OP_QUERY, kind == 2 ? rnd(g, 3) : rnd(g, 4096), level, cpu,
			  kind >> 1, kind & 1, query_expect(g, level, kind));
	}
	}
	/* An illegal command never changes the queued set, so any burst may hold it. */
	if (k == 10 || rnd(g, 2))
		return gen_illegal(g);
	return mk(HWS_OP_PEEK, 0, 0, cpu, 0, 0, 0);
}

/* Apply a command's predicted effect on the shadow (PICK_NEXT: when its result is read). */
static void shadow_apply(struct gen *g, const struct gcmd *c)
{
	unsigned t = (c->word & HWS_CMD_TASK_MASK) >> HWS_CMD_TASK_LSB;

	if (c->expect)
		return;
	if (c->op == HWS_OP_ENQUEUE) {
		g->queued[t] = 1;
		g->nq++;
	} else if (c->op == HWS_OP_DEQUEUE) {
		g->queued[t] = 0;
		g->nq--;
	}
}

/* Check a query's result word against the shadow; PICK_NEXT updates the shadow. */
static int check_result(struct gen *g, const struct gcmd *c, uint32_t w)
{
	unsigned task = (w & HWS_RES_TASK_MASK) >> HWS_RES_TASK_LSB;
	char buf[96];

	if (c->expect) {
		if (w != (HWS_ERR_FLAG | c->expect))
			return fail(g, 0, "%s: result 0x%08x, expected error %s",
				    hws_cmd_format(c->word, buf, sizeof(buf)), w,
				    hws_err_name(c->expect));
		return 0;
	}
	if (w & HWS_ERR_FLAG)
		return fail(g, 0, "%s: unexpected error result 0x%08x",
			    hws_cmd_format(c->word, buf, sizeof(buf)), w);
	if (c->op == HWS_OP_PICK_NEXT && !(w & HWS_NONE_FLAG)) {
		if (task >= g->c->nr_tasks || !g->queued[task])
			return fail(g, 0, "PICK_NEXT returned task %u, which is not queued", task);
		g->queued[task] = 0;
		g->nq--;
	}
	if (c->op == HWS_OP_QUERY && (c->word & (HWS_CMD_ARRAY_MASK | HWS_CMD_HEAD_MASK)) == 2) {
		unsigned v = (w & HWS_BRES_VERDICT_MASK) >> HWS_BRES_VERDICT_LSB;

		if (v < 1 || v > 7)
			return fail(g, 0, "BALANCE answered verdict %u (0x%08x)", v, w);
		g->r->bal_verdicts[v]++;
	}
	if ((c->op == HWS_OP_PICK_NEXT || c->op == HWS_OP_PEEK) && (w & HWS_NONE_FLAG) &&
	    w != HWS_NONE_FLAG)
		return fail(g, 0, "NONE result with other bits set: 0x%08x", w);
	return 0;
}

static void note_occupancy(struct gen *g)
{
	if (g->nq > g->r->max_occupancy)
		g->r->max_occupancy = g->nq;
	if (g->phase == FILL && g->nq == g->c->nr_tasks) {
		g->phase = DRAIN;
		g->r->fills++;
	} else if (g->phase == DRAIN && g->nq == 0) {
		g->phase = FILL;
		g->r->drains++;
	}
}

static void count_cmd(struct gen *g, const struct gcmd *c)
{
	g->r->commands++;
	g->r->by_op[c->op]++;
}

/* One synchronous command, its outcome checked against the prediction. */
static int run_sync(struct gen *g, const struct gcmd *c)
{
	uint32_t w;
	char buf[96];
	int ret, want;

	count_cmd(g, c);
	if (c->query) {
		ret = hws_submit(g->d, c->word);
		if (!ret)
			ret = hws_result(g->d, &w);
		if (ret)
			return fail(g, ret, "%s", hws_cmd_format(c->word, buf, sizeof(buf)));
		ret = check_result(g, c, w);
		if (ret)
			return ret;
		if (w & HWS_ERR_FLAG) {
			ret = hws_reg_read(g->d, HWS_REG_STATUS, &w);
			if (ret)
				return fail(g, ret, "STATUS read");
		}
		return 0;
	}
	ret = hws_submit(g->d, c->word);
	if (!ret)
		ret = hws_sync(g->d, NULL);
	want = c->expect ? hws_err_errno(c->expect) : 0;
	if (ret != want)
		return fail(g, ret, "%s returned %d, expected %d (%s)",
			    hws_cmd_format(c->word, buf, sizeof(buf)), ret, want,
			    hws_err_name(c->expect));
	shadow_apply(g, c);
	return 0;
}

static int read_reg(struct gen *g, uint32_t off, uint32_t *v)
{
	int ret = hws_reg_read(g->d, off, v);

	return ret ? fail(g, ret, "read of register 0x%02x", off) : 0;
}

static int is_pick(const struct gcmd *c)
{
	return c->op == HWS_OP_PICK_NEXT || c->op == HWS_OP_PEEK;
}

/*
 * A PICK_NEXT or PEEK as one read of its window (POP[c] or PEEKW[c], docs/accelerator.md
 * 4.4), behind whatever was written before it: the word is the command's result word with
 * POP_ERRP, which must be set when the command itself failed (its error is recorded
 * before the read returns).
 */
static int run_window(struct gen *g, const struct gcmd *c)
{
	unsigned cpu = (c->word & HWS_CMD_CPU_MASK) >> HWS_CMD_CPU_LSB;
	uint32_t off = (c->op == HWS_OP_PEEK ? HWS_PEEK_BASE : HWS_POP_BASE) + 4 * cpu, w;
	char buf[96];
	int ret;

	count_cmd(g, c);
	g->r->windows++;
	ret = read_reg(g, off, &w);
	if (ret)
		return ret;
	if (c->expect && !(w & HWS_POP_ERRP_MASK))
		return fail(g, 0, "window read of %s: 0x%08x, an error without POP_ERRP",
			    hws_cmd_format(c->word, buf, sizeof(buf)), w);
	ret = check_result(g, c, w & ~HWS_POP_ERRP_MASK);
	/* Now and then the interrupt's pending word: a PICK_NEXT that did not fail cleared
	 * its CPU's bit at its completion, and nothing has run since (section 4.6). */
	if (!ret && rnd(g, 4) == 0) {
		uint32_t pw;

		g->r->irq_actions++;
		ret = read_reg(g, cpu < 32 ? HWS_REG_IRQ_PEND0 : HWS_REG_IRQ_PEND1, &pw);
		if (!ret && c->op == HWS_OP_PICK_NEXT && !c->expect && (pw >> (cpu % 32) & 1))
			return fail(g, 0, "IRQ_PEND bit of cpu %u set right after POP[%u]", cpu, cpu);
	}
	return ret;
}

/*
 * The preemption interrupt (docs/accelerator.md 4.6), where the bus reaches the CURR
 * window: a CURR[c] write (a priority, idle, or any 8 bits with junk above), an IRQ_EN or
 * IRQ_PEND (W1C) write, or a read of one of the four registers. Lockstep compares them;
 * the unit tests (tests/driver/irq_test.cc) predict them. An engine built without the
 * interrupt (no_irq) answers the same OKAY and reads 0, checked here.
 */
static int run_irq(struct gen *g)
{
	static const uint32_t regs[] = { HWS_REG_IRQ_PEND0, HWS_REG_IRQ_PEND1, HWS_REG_IRQ_EN0,
					 HWS_REG_IRQ_EN1 };
	unsigned cpu = rnd(g, g->c->nr_cpus), k = rnd(g, 8);
	uint32_t v, w = (uint32_t)rnd64(g);
	int ret;

	g->r->irq_actions++;
	if (k < 3) {
		v = k == 0 ? HWS_CURR_IDLE : k == 1 ? rand_prio(g) : w;
		ret = hws_reg_write(g->d, HWS_CURR_BASE + 4 * cpu, v);
		return ret ? fail(g, ret, "CURR[%u] write", cpu) : 0;
	}
	if (k < 5) {
		ret = hws_reg_write(g->d, regs[rnd(g, 4)], w);
		return ret ? fail(g, ret, "IRQ register write") : 0;
	}
	k = rnd(g, 4);
	ret = read_reg(g, regs[k], &v);
	if (!ret && g->c->no_irq && v)	/* not built: must read 0 (IRQ=0) */
		return fail(g, 0, "%s reads 0x%08x on an engine built without the interrupt",
			    hws_reg_name(regs[k]), v);
	return ret;
}

/*
 * A burst: up to @n commands written back to back, then SYNC, then their results.
 * @overflow: the burst may pass the FIFO depth, so it holds neutral commands only and its
 * result count is not known (extra RESULT reads underflow, which is part of the test).
 */
static int run_burst(struct gen *g, unsigned n, int overflow)
{
	struct gcmd cmds[80];
	uint32_t before, after, w;
	unsigned i, nres = 0, nerr = 0;
	int ret;

	if (n > 80)
		n = 80;
	ret = read_reg(g, HWS_REG_ERR_TOTAL, &before);
	if (ret)
		return ret;
	for (i = 0; i < n; i++) {
		cmds[i] = gen_cmd(g, overflow, !overflow && i == n - 1);
		/* The last command of a burst, when a pick, is read from its window half the time:
		 * it runs behind the posted writes before it (and needs no result-FIFO room). */
		if (g->win && !overflow && i == n - 1 && is_pick(&cmds[i]) &&
		    nres + 1 < g->c->res_depth && rnd(g, 2)) {
			ret = run_window(g, &cmds[i]);
			if (ret)
				return ret;
			cmds[i].query = 0;	/* its word is not in the result FIFO */
			nerr += cmds[i].expect != 0;
			continue;
		}
		count_cmd(g, &cmds[i]);
		ret = hws_submit(g->d, cmds[i].word);
		if (ret)
			return fail(g, ret, "burst write %u", i);
		if (!overflow)
			shadow_apply(g, &cmds[i]);
		nres += cmds[i].query;
		nerr += cmds[i].expect != 0;
	}
	ret = hws_sync(g->d, NULL);
	if (ret && ret != -EIO && ret != -ETIMEDOUT)
		ret = 0;	/* the batch's errors were expected; counted below */
	if (ret)
		return fail(g, ret, "SYNC after a burst");
	if (g->win && overflow && rnd(g, 2)) {
		/* A PEEKW read now: the result FIFO may be full with a query stalled behind it,
		 * which only a RESULT read could end: then the read is refused (OVERFLOW,
		 * docs/accelerator.md 4.4); else it answers. Either way nothing moves. */
		unsigned cpu = rnd(g, g->c->nr_cpus);

		g->r->windows++;
		ret = read_reg(g, HWS_PEEK_BASE + 4 * cpu, &w);
		if (ret)
			return ret;
		if (w == (HWS_ERR_FLAG | HWS_POP_ERRP_MASK | HWS_ERR_OVERFLOW))
			g->r->windows_refused++;
		else if (w & HWS_ERR_FLAG)
			return fail(g, 0, "PEEKW[%u] after an overflow burst: 0x%08x", cpu, w);
	}
	if (overflow) {
		/* One more RESULT read than words can exist: it underflows. */
		for (i = 0; i <= nres; i++)
			if ((ret = hws_result(g->d, &w)) != 0)
				return fail(g, ret, "RESULT read after an overflow burst");
		return read_reg(g, HWS_REG_STATUS, &w);
	}
	for (i = 0; i < n; i++) {
		if (!cmds[i].query)
			continue;
		ret = hws_result(g->d, &w);
		if (ret)
			return fail(g, ret, "RESULT read after a burst");
		ret = check_result(g, &cmds[i], w);
		if (ret)
			return ret;
	}
	ret = read_reg(g, HWS_REG_ERR_TOTAL, &after);
	if (!ret)
		ret = read_reg(g, HWS_REG_STATUS, &w);
	if (ret)
		return ret;
	if (after - before != nerr)
		return fail(g, 0, "a burst of %u commands recorded %u errors, expected %u", n,
			    after - before, nerr);
	return 0;
}

/* Add the error counters to the report (before a clear or a reset, and at the end). */
static int harvest_errors(struct gen *g)
{
	uint32_t v;
	unsigned code;
	int ret;

	for (code = 1; code < HWS_ERR_CODES; code++) {
		ret = read_reg(g, HWS_REG_ERR_TOTAL + 4 * code, &v);
		if (ret)
			return ret;
		if (g->c->no_err_counters && v)	/* not built: must read 0 (ERR_COUNTERS) */
			return fail(g, 0, "ERR_CNT%u reads %u on an engine built without the "
				    "per-code error counters", code, v);
		g->r->errors[code] += v;
	}
	return 0;
}

/* Add CYCLES and CMD_DONE to the report (before a soft reset, and at the end). */
static int harvest_counts(struct gen *g)
{
	uint32_t v;
	int ret;

	ret = read_reg(g, HWS_REG_CYCLES, &v);
	if (ret)
		return ret;
	g->r->engine_cycles += v;
	ret = read_reg(g, HWS_REG_CMD_DONE, &v);
	if (!ret)
		g->r->engine_done += v;
	return ret;
}

/*
 * Write a whole topology: cores of s1 CPUs, packages of s2 cores, nodes of s3 packages
 * (blocks named by their first CPU, so consistent), and now and then corrupt one
 * partition on purpose; the shadow remembers which, for the QUERY predictions.
 */
static int run_topology(struct gen *g)
{
	static const unsigned s1s[] = { 1, 2, 4 }, s2s[] = { 1, 2, 3, 4 }, s3s[] = { 1, 2 };
	unsigned s1 = s1s[rnd(g, 3)], s2 = s2s[rnd(g, 4)], s3 = s3s[rnd(g, 2)];
	unsigned size[4] = { 1, s1, s1 * s2, s1 * s2 * s3 }, k, x, n = g->c->nr_cpus;
	struct gcmd c;
	int ret;

	for (k = 1; k <= 3; k++)
		for (x = 0; x < n; x++) {
			/* Out of budget: stop; no QUERY follows to see the half-written table. */
			if (g->r->commands >= g->o->commands)
				return 0;
			c = mk_word(hws_cmd_dom_leader(x, k, x - x % size[k]), HWS_OP_DOM_SET, 0);
			ret = run_sync(g, &c);
			if (ret)
				return ret;
		}
	/* Group powers (realistic: 1024 per CPU, SMT cores a little more; or any legal
	 * value) and each level's imbalance_pct. */
	for (k = 0; k < HWS_NR_LEVELS; k++) {
		unsigned pct = rnd(g, 2) ? 125 : 100 + rnd(g, 156), pw;

		c = mk_word(hws_cmd_dom_pct(rnd(g, n), k, pct), HWS_OP_DOM_SET, 0);
		if (g->r->commands >= g->o->commands)
			return 0;
		ret = run_sync(g, &c);
		if (ret)
			return ret;
		for (x = 0; x < n; x++) {
			if (x % size[k] != 0 && rnd(g, 16) != 0)
				continue;	/* not a leader: mostly left alone */
			switch (rnd(g, 4)) {
			case 0:
				pw = HWS_MIN_POWER + rnd(g, (1u << 17) - HWS_MIN_POWER);
				break;
			case 1:
				pw = k && s1 > 1 ? size[k] / s1 * 1178 : 1024 * size[k];
				break;
			default:
				pw = 1024 * size[k];
				break;
			}
			if (g->r->commands >= g->o->commands)
				return 0;
			c = mk_word(hws_cmd_dom_power(x, k, pw), HWS_OP_DOM_SET, 0);
			ret = run_sync(g, &c);
			if (ret)
				return ret;
		}
	}
	memset(g->dom_bad, 0, sizeof(g->dom_bad));
	if (n > 1 && rnd(g, 4) == 0 && g->r->commands < g->o->commands) {
		k = 1 + rnd(g, 3);
		x = rnd(g, n - 1);
		c = mk_word(hws_cmd_dom_leader(x, k, x + 1 + rnd(g, n - 1 - x)), HWS_OP_DOM_SET, 0);
		ret = run_sync(g, &c);
		if (ret)
			return ret;
		g->dom_bad[k] = 1;	/* a block named by a later CPU */
	}
	return 0;
}

/* Bus-level actions: register reads, deliberate bad accesses, idle time, clears, resets. */
static int run_bus(struct gen *g)
{
	static const uint32_t readable[] = {
		HWS_REG_ID, HWS_REG_NR_CPUS, HWS_REG_NR_TASKS, HWS_REG_DEPTHS, HWS_REG_STATUS,
		HWS_REG_CMD_DONE, HWS_REG_CYCLES, HWS_REG_ERR_LAST, HWS_REG_ERR_CMD,
		HWS_REG_ERR_SEQ, HWS_REG_ERR_TOTAL, HWS_REG_ERR_CNT1, HWS_REG_ERR_CNT11,
		HWS_REG_NR_GROUPS, HWS_REG_BAL_THIS, HWS_REG_BAL_MAX, HWS_REG_BAL_AVG,
		HWS_REG_BAL_IMB, HWS_REG_FEATURES,
	};
	/* The last four reads and three writes only where the bus reaches beyond 0xff. */
	static const uint32_t bad_read[] = { HWS_REG_CMD, HWS_REG_CTRL, 0x3c, 0x80, 0xfc, 0x15,
					     HWS_POP_BASE + 2, HWS_PEEK_BASE + 4 * 63 + 1, 0x300,
					     0x3fc };
	static const uint32_t bad_write[] = { HWS_REG_ID, HWS_REG_STATUS, HWS_REG_RESULT,
					      HWS_REG_NR_GROUPS, HWS_REG_FEATURES, 0x70, 0xf0,
					      0x1a, HWS_POP_BASE, HWS_PEEK_BASE + 4 * 5,
					      HWS_CURR_BASE + 4 * 6 + 2 };
	const unsigned nbr = sizeof(bad_read) / sizeof(bad_read[0]) - (g->win ? 0 : 4);
	const unsigned nbw = sizeof(bad_write) / sizeof(bad_write[0]) - (g->win ? 0 : 3);
	uint32_t v;
	int ret;

	if (g->win && rnd(g, 2))
		return run_irq(g);
	switch (rnd(g, 8)) {
	case 0:
	case 1:
		return read_reg(g, readable[rnd(g, sizeof(readable) / sizeof(readable[0]))], &v);
	case 2:
		g->r->bus_errors_made++;
		ret = hws_reg_read(g->d, bad_read[rnd(g, nbr)], &v);
		if (ret != -EFAULT)
			return fail(g, ret, "bad read returned %d, expected -EFAULT", ret);
		return read_reg(g, HWS_REG_STATUS, &v);
	case 3:
		g->r->bus_errors_made++;
		if (rnd(g, 2))
			ret = hws_reg_write(g->d, bad_write[rnd(g, nbw)], (uint32_t)rnd64(g));
		else
			ret = hws_reg_write_strb(g->d, HWS_REG_CMD, (uint32_t)rnd64(g),
						 rnd(g, 15));
		if (ret != -EFAULT)
			return fail(g, ret, "bad write returned %d, expected -EFAULT", ret);
		return read_reg(g, HWS_REG_STATUS, &v);
	case 4:
		/* Nothing to come: RESULT underflows with an error word. */
		g->r->bus_errors_made++;
		ret = hws_result(g->d, &v);
		if (ret)
			return fail(g, ret, "RESULT read");
		if (v != (HWS_ERR_FLAG | HWS_ERR_UNDERFLOW))
			return fail(g, 0, "empty RESULT read gave 0x%08x", v);
		return read_reg(g, HWS_REG_STATUS, &v);
	case 5:
		return hws_idle(g->d, rnd(g, 8));
	case 6:
		ret = harvest_errors(g);
		if (ret)
			return ret;
		ret = hws_reg_write(g->d, HWS_REG_CTRL, HWS_CTRL_ERR_CLEAR_MASK);
		if (!ret)
			ret = read_reg(g, HWS_REG_ERR_TOTAL, &v);
		if (ret)
			return fail(g, ret, "ERR_CLEAR");
		return v ? fail(g, 0, "ERR_TOTAL is %u after ERR_CLEAR", v) : 0;
	default:
		/* A new topology now and then (rarer on many CPUs: it takes about 6 commands per
		 * CPU), a soft reset rarely (it empties the queues). */
		if (rnd(g, 8 * (g->c->nr_cpus > 8 ? g->c->nr_cpus / 8 : 1)) == 0)
			return run_topology(g);
		if (rnd(g, 64))
			return read_reg(g, HWS_REG_SYNC, &v);
		ret = harvest_errors(g);
		if (!ret)
			ret = harvest_counts(g);
		if (!ret)
			ret = hws_soft_reset(g->d);
		if (ret)
			return fail(g, ret, "soft reset");
		memset(g->queued, 0, g->c->nr_tasks);
		memset(g->dom_bad, 0, sizeof(g->dom_bad));
		g->nq = 0;
		g->phase = FILL;
		return 0;
	}
}

/* What every readable register holds after a reset (docs/accelerator.md; regs.h). */
static int check_reset_state(struct gen *g, uint64_t edges_at_reset)
{
	const struct hws_config *c = g->c;
	struct hws_params p;
	hws_params_of_config(&p, c);
	const struct {
		uint32_t off, val;
	} want[] = {
		{ HWS_REG_STATUS, 0 },	/* first: nothing waiting, executing or recorded */
		{ HWS_REG_ID, HWS_ID_VALUE },
		{ HWS_REG_NR_CPUS, c->nr_cpus },
		{ HWS_REG_NR_TASKS, c->nr_tasks },
		{ HWS_REG_DEPTHS, c->cmd_depth << HWS_DEPTHS_CMD_DEPTH_LSB |
				  c->res_depth << HWS_DEPTHS_RES_DEPTH_LSB },
		{ HWS_REG_NR_GROUPS, c->nr_groups },
		{ HWS_REG_FEATURES, hws_params_features(&p) },
		{ HWS_REG_CMD_DONE, 0 }, { HWS_REG_ERR_LAST, 0 }, { HWS_REG_ERR_CMD, 0 },
		{ HWS_REG_ERR_SEQ, 0 }, { HWS_REG_ERR_TOTAL, 0 },
		{ HWS_REG_ERR_CNT1, 0 }, { HWS_REG_ERR_CNT2, 0 }, { HWS_REG_ERR_CNT3, 0 },
		{ HWS_REG_ERR_CNT4, 0 }, { HWS_REG_ERR_CNT5, 0 }, { HWS_REG_ERR_CNT6, 0 },
		{ HWS_REG_ERR_CNT7, 0 }, { HWS_REG_ERR_CNT8, 0 }, { HWS_REG_ERR_CNT9, 0 },
		{ HWS_REG_ERR_CNT10, 0 }, { HWS_REG_ERR_CNT11, 0 },
		{ HWS_REG_BAL_THIS, 0 }, { HWS_REG_BAL_MAX, 0 }, { HWS_REG_BAL_AVG, 0 },
		{ HWS_REG_BAL_IMB, 0 }, { HWS_REG_SYNC, 0 },
	};
	struct hws_bus_stats st;
	struct hws_cpu_counters cc;
	struct hws_task_state ts;
	unsigned i, cpu = rnd(g, c->nr_cpus), task = rnd(g, c->nr_tasks);
	uint32_t v;
	int ret;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		ret = read_reg(g, want[i].off, &v);
		if (ret)
			return ret;
		/* FEATURES.PIPE not asked for: either (the driver's rule, check_id) */
		if (want[i].off == HWS_REG_FEATURES && !c->pipe)
			v &= ~HWS_FEATURES_PIPE_MASK;
		if (v != want[i].val)
			return fail(g, 0, "after a reset %s reads 0x%08x, its reset value is 0x%08x",
				    hws_reg_name(want[i].off), v, want[i].val);
	}
	/* The interrupt's registers (section 4.6), where the bus reaches CURR too. */
	for (i = 0; g->win && i < 4; i++) {
		ret = read_reg(g, HWS_REG_IRQ_PEND0 + 4 * i, &v);
		if (ret)
			return ret;
		if (v)
			return fail(g, 0, "after a reset %s reads 0x%08x, its reset value is 0",
				    hws_reg_name(HWS_REG_IRQ_PEND0 + 4 * i), v);
	}
	/* CYCLES counts from the reset: no more edges than have passed since. */
	ret = read_reg(g, HWS_REG_CYCLES, &v);
	if (ret)
		return ret;
	hws_get_bus_stats(g->d, &st);
	if (v > st.edges - edges_at_reset)
		return fail(g, 0, "CYCLES reads %u, %llu edges after a reset", v,
			    (unsigned long long)(st.edges - edges_at_reset));
	/* The queues: one CPU empty, one task not queued (the stream checks the rest). */
	ret = hws_read_cpu_counters(g->d, cpu, &cc);
	if (ret)
		return fail(g, ret, "counters of cpu %u after a reset", cpu);
	if (cc.nr_running || cc.nr_active || cc.nr_expired || cc.load)
		return fail(g, 0, "cpu %u after a reset: %u running (%u + %u), load %u", cpu,
			    cc.nr_running, cc.nr_active, cc.nr_expired, cc.load);
	ret = hws_read_task_state(g->d, task, &ts);
	if (ret)
		return fail(g, ret, "state of task %u after a reset", task);
	if (ts.queued || ts.group)
		return fail(g, 0, "task %u after a reset: queued %d, group %u", task, ts.queued,
			    ts.group);
	/* The result FIFO is empty: a RESULT read underflows. */
	ret = hws_result(g->d, &v);
	if (ret)
		return fail(g, ret, "RESULT read after a reset");
	if (v != (HWS_ERR_FLAG | HWS_ERR_UNDERFLOW))
		return fail(g, 0, "RESULT read after a reset gave 0x%08x, not UNDERFLOW", v);
	g->r->bus_errors_made++;
	return read_reg(g, HWS_REG_STATUS, &v);
}

/*
 * A burst cut by the engine's reset: @n commands written back to back, a few edges (or
 * a STATUS read that sees them in flight), then hws_reset() while they are waiting or
 * executing. Nothing of them may survive: every register reads its reset value, and the
 * stream goes on from an empty engine (its shadow emptied too).
 */
static int run_reset_burst(struct gen *g, unsigned n)
{
	struct hws_bus_stats st;
	struct gcmd c;
	uint32_t v;
	unsigned i;
	int ret;

	ret = harvest_errors(g);
	if (!ret)
		ret = harvest_counts(g);
	if (ret)
		return ret;
	for (i = 0; i < n; i++) {
		c = gen_cmd(g, 0, 1);
		count_cmd(g, &c);
		ret = hws_submit(g->d, c.word);
		if (ret)
			return fail(g, ret, "write %u of a burst to be cut by a reset", i);
	}
	switch (rnd(g, 3)) {
	case 0:
		break;
	case 1:
		ret = hws_idle(g->d, rnd(g, 4));
		break;
	default:
		ret = read_reg(g, HWS_REG_STATUS, &v);
		if (!ret && (v & (HWS_STATUS_CMD_LEVEL_MASK | HWS_STATUS_BUSY_MASK)))
			g->r->resets_seen_busy++;
		break;
	}
	if (ret)
		return ret;
	g->r->resets++;
	ret = hws_reset(g->d);
	if (ret)
		return fail(g, ret, "reset with %u commands written", n);
	hws_get_bus_stats(g->d, &st);
	g->r->resets_cut += n;
	memset(g->queued, 0, g->c->nr_tasks);
	memset(g->dom_bad, 0, sizeof(g->dom_bad));
	g->nq = 0;
	g->phase = FILL;
	return check_reset_state(g, st.edges);
}

/* 1 with probability @p (0..1), from 53 bits of the stream. */
static int chance(struct gen *g, double p)
{
	return (double)(rnd64(g) >> 11) * 0x1p-53 < p;
}

/* At the end: every per-CPU value and every task's state, checked against the shadow. */
static int final_sweep(struct gen *g)
{
	struct hws_cpu_counters cc;
	struct hws_task_state ts;
	uint64_t total = 0;
	unsigned cpu, t, sel;
	uint32_t v;
	int ret;

	for (cpu = 0; cpu < g->c->nr_cpus; cpu++) {
		for (sel = 0; sel < HWS_SEL_CPU_STAT_COUNT; sel++) {
			ret = hws_cpu_stat(g->d, cpu, sel, &v);
			if (ret)
				return fail(g, ret, "CPU_STAT cpu %u sel %u", cpu, sel);
		}
		ret = hws_read_cpu_counters(g->d, cpu, &cc);
		if (ret)
			return fail(g, ret, "counters of cpu %u", cpu);
		if (cc.nr_running != cc.nr_active + cc.nr_expired)
			return fail(g, 0, "cpu %u: nr_running %u != %u + %u", cpu, cc.nr_running,
				    cc.nr_active, cc.nr_expired);
		total += cc.nr_running;
	}
	for (t = 0; t < g->c->nr_tasks; t++) {
		ret = hws_read_task_state(g->d, t, &ts);
		if (ret)
			return fail(g, ret, "state of task %u", t);
		if (ts.queued != g->queued[t])
			return fail(g, 0, "task %u: engine says queued=%d, the commands say %d", t,
				    ts.queued, g->queued[t]);
	}
	if (total != g->nq)
		return fail(g, 0, "CPUs hold %llu tasks, %u are queued", (unsigned long long)total,
			    g->nq);
	return 0;
}

int hws_randcmd_run(struct hws_dev *d, const struct hws_randcmd_opts *o,
		    struct hws_randcmd_report *r)
{
	struct hws_bus_stats st;
	struct gen g;
	uint64_t next_progress = 0, last_check = 0;
	uint32_t v;
	int ret = 0;

	memset(r, 0, sizeof(*r));
	memset(&g, 0, sizeof(g));
	g.d = d;
	g.c = hws_config_of(d);
	g.o = o;
	g.r = r;
	g.s = o->seed * 0x9E3779B97F4A7C15ULL + 0x1234567ULL;
	if (!g.s)
		g.s = 1;
	g.win = hws_windows(d);
	g.queued = calloc(g.c->nr_tasks, 1);
	if (!g.queued) {
		snprintf(r->msg, sizeof(r->msg), "out of memory");
		return -ENOMEM;
	}
	/* Start from a known state whatever the device did before. */
	ret = hws_soft_reset(d);
	if (ret) {
		fail(&g, ret, "initial soft reset");
		goto out;
	}
	while (r->commands < o->commands) {
		if (o->stop && *o->stop) {
			r->interrupted = 1;
			break;
		}
		unsigned x = rnd(&g, 1000);
		uint64_t left = o->commands - r->commands;
		unsigned nb;
		struct gcmd c;

		if (x < 900) {
			c = gen_cmd(&g, 0, 1);
			if (g.win && is_pick(&c) && rnd(&g, 2))
				ret = run_window(&g, &c);
			else
				ret = run_sync(&g, &c);
		} else if (x < 960) {
			nb = 1 + rnd(&g, g.c->cmd_depth);
			if (o->resets > 0 && chance(&g, o->resets))
				ret = run_reset_burst(&g, nb < left ? nb : (unsigned)left);
			else
				ret = run_burst(&g, nb < left ? nb : (unsigned)left, 0);
		} else if (x < 975) {
			nb = g.c->cmd_depth + 1 + rnd(&g, g.c->cmd_depth + 4);
			ret = run_burst(&g, nb < left ? nb : (unsigned)left, 1);
		} else {
			ret = run_bus(&g);
		}
		if (ret)
			goto out;
		note_occupancy(&g);
		if (o->check_every && r->commands - last_check >= o->check_every) {
			last_check = r->commands;
			ret = hws_check(d);
			if (ret && ret != -ENOTSUP) {
				fail(&g, ret, "invariant check after %llu commands",
				     (unsigned long long)r->commands);
				goto out;
			}
			ret = 0;
		}
		if (o->progress && r->commands >= next_progress) {
			o->progress(o->progress_arg, r->commands, o->commands);
			next_progress = r->commands + 1024;
		}
	}
	ret = final_sweep(&g);
	if (!ret)
		ret = harvest_errors(&g);
	if (!ret)
		ret = harvest_counts(&g);
	if (!ret)
		ret = read_reg(&g, HWS_REG_STATUS, &v);
out:
	hws_get_bus_stats(d, &st);
	r->edges = st.edges;
	r->has_overlaps = hws_overlaps(d, &r->overlaps) == 0;
	free(g.queued);
	return ret;
}
