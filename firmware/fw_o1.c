/*
 * fw_o1.c - the Linux 2.6 O(1) scheduling policy (the rules of kernel/sched.c of Linux
 * 2.6.12-2.6.22) written against the run-queue primitives of
 * fw_rq.h, so that it runs on the engine (scheduler `hw`) or on plain C queues (`o1`).
 *
 * As in Linux 2.6, the running task stays queued: schedule() peeks at the first task,
 * and the tick moves an expired task to the expired array. Balancing asks BALANCE, IDLEST
 * and IDLE_CORE; only move_tasks() walks tasks, over the firmware's own per-CPU list of
 * what it queued (the engine has no iterator), in Linux's order: expired array first,
 * highest priority first.
 *
 * Group fairness on O(1): a task of group g != 0 gets a slice scaled by
 * shares(g) / weight(g), weight(g) the summed load weight of g's runnable tasks (the
 * engine's GROUP_TOTAL). Over one active/expired epoch every task runs one slice, so each
 * group's CPU time follows its shares, as CFS's per-CPU shares (shares_i = shares * w_i /
 * sum w) make each task's h_weight = weight * shares / sum w. docs/firmware.md.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "firmware/fw_o1.h"
#include "firmware/fw_rq.h"
#include "hws/regs.h"

#define MS 1000000LL
#define MIN_TIMESLICE (5 * MS)
#define DEF_TIMESLICE (100 * MS)
#define MAX_BONUS 10
#define MAX_SLEEP_AVG (DEF_TIMESLICE * MAX_BONUS)
#define STARVATION_LIMIT MAX_SLEEP_AVG
#define GRANULARITY (10 * MS)
#define CHILD_PENALTY 95
#define EXIT_WEIGHT 3
#define TICK_NS MS
#define NIL (-1)
/* Linux's names for the register map's priority range. */
#define MAX_RT_PRIO ((int)HWS_MAX_RT_PRIO)
#define MAX_PRIO ((int)HWS_NR_PRIO)

/* ---- State ---- */

struct ftask {
	int cpu;		/* queued on (including while running), or NIL */
	int next, prev;		/* the firmware's per-CPU list */
	unsigned prio;		/* the priority it is queued at */
	int parr;		/* physical array */
	unsigned wprio;		/* its load weight is weight(wprio) (SET_WEIGHT) */
};

/*
 * A task group's place in balancing (h_load). Its tasks weigh on the engine what they are
 * worth at the top level: weight * shares / W, W the group's runnable weight, rounded to
 * the nearest prio_to_weight entry, i.e. their static priority shifted by `shift` steps
 * (x1.25 each). W is smoothed per tick; the shift moves with hysteresis.
 */
struct fgroup {
	uint64_t raw;		/* runnable weight (static priorities) queued now */
	double avg;		/* raw, halved towards each tick's value */
	int shift;
};

struct fcpu {
	int head;		/* per-CPU list of queued tasks */
	unsigned nr;
	int swap;		/* mirror of the engine's swap bit */
	int idle;		/* the engine was told it is idle */
	uint64_t expired_timestamp;
	unsigned best_expired_prio;
	int64_t last_balance[4], interval[4];
	unsigned failed[4];
	uint64_t wload;		/* summed load weight of its queued tasks (= the engine's load) */
	int push_task;		/* active balance: the running task to move once it stops */
	unsigned push_to;	/* ... and where */
	unsigned curr_prio;	/* irq: what the engine's CURR[cpu] holds (HWS_CURR_IDLE: none) */
};

struct sched {
	const struct sched_env *env;	/* &denv */
	struct sched_env denv;		/* the machine's, with the domain topology */
	struct sched_topo dtopo;	/* the topology the domains follow (flat=1: one level) */
	int flat;
	const struct fw_rq_ops *ops;
	struct fw_rq *q;
	struct sched_opts opts;	/* as created (the run queue reads costs and engine) */
	unsigned ncpu;
	int levels[4], nlevels;	/* engine levels present, bottom up */
	int wake_balance;
	struct ftask *t;
	struct sched_task **tp;	/* the machine's tasks, by id (from task_new) */
	struct fcpu *c;
	struct fgroup *g;	/* per task group */
	uint64_t reweights;	/* SET_WEIGHTs of group tasks after a shift changed */
	uint64_t smpnice_moves;	/* balances the smpnice rules made move where 2.6.12's did not */
	uint64_t slices_returned;	/* children's unused first slices given back at exit */
	uint64_t moves, balances, active_balances, wake_affine, wake_idle, exec_moves;
	uint64_t yields;
	/* The preemption interrupt (sched_engine.irq; docs/firmware.md, "The preemption
	 * interrupt"): on, the engine's IRQ_PEND as last seen (bit c = CPU c), CURR writes
	 * still to skip (test hook), and counts for the report. */
	int irq;
	uint64_t irq_pend;
	unsigned irq_skip;
	uint64_t irq_kicks, irq_acks, curr_writes;
	int err;		/* first run-queue error */
	char errmsg[200];
};

static uint64_t now(struct sched *s)
{
	return s->env->now(s->env->machine);
}

/* Remember the first failure; the machine stops the run on it (fw_o1_error()). */
static void fail(struct sched *s, int ret, const char *what)
{
	if (ret < 0 && !s->err) {
		const char *why = s->ops->errmsg ? s->ops->errmsg(s->q) : NULL;

		s->err = ret;
		/* the driver's own words when it failed on its bus (-EIO: a board's line) */
		if (ret == -EIO && why && *why)
			snprintf(s->errmsg, sizeof(s->errmsg), "%s failed: %s", what, why);
		else
			snprintf(s->errmsg, sizeof(s->errmsg), "%s failed: %s", what, strerror(-ret));
	}
}

/* A task's own load weight: by its static priority (smpnice). */
static uint32_t raw_weight(const struct sched_task *t)
{
	return hws_weight_of((unsigned)(t->rt_prio >= 0 ? t->rt_prio : t->static_prio));
}

/* The priority whose weight a task carries on the engine: its own, shifted by its group's. */
static unsigned weight_prio(const struct sched *s, const struct sched_task *t)
{
	int p;

	if (t->rt_prio >= 0)
		return (unsigned)t->rt_prio;
	p = t->static_prio + (t->group ? s->g[t->group].shift : 0);
	return (unsigned)(p < MAX_RT_PRIO ? MAX_RT_PRIO : p > MAX_PRIO - 1 ? MAX_PRIO - 1 : p);
}

/* The load weight @t carries on the engine (h_load: SET_WEIGHT(weight_prio)). */
static uint32_t load_of(const struct sched *s, const struct sched_task *t)
{
	return hws_weight_of(s->t[t->id].wprio);
}

/* ---- Priorities and slices (2.6.12-2.6.22) ---- */

static int64_t scale_prio(int64_t x, int prio)
{
	int64_t v = x * (MAX_PRIO - prio) / 20;

	return v > MIN_TIMESLICE ? v : MIN_TIMESLICE;
}

int64_t fw_task_timeslice(int static_prio)
{
	return static_prio < 120 ? scale_prio(4 * DEF_TIMESLICE, static_prio) :
				   scale_prio(DEF_TIMESLICE, static_prio);
}

static int current_bonus(const struct sched_task *t)
{
	return (int)(t->sleep_avg * MAX_BONUS / MAX_SLEEP_AVG);
}

int fw_effective_prio(const struct sched_task *t)
{
	int p;

	if (t->rt_prio >= 0)
		return t->rt_prio;
	p = t->static_prio - (current_bonus(t) - MAX_BONUS / 2);
	return p < MAX_RT_PRIO ? MAX_RT_PRIO : p > MAX_PRIO - 1 ? MAX_PRIO - 1 : p;
}

static int delta(const struct sched_task *t)
{
	return (t->nice + 20) * MAX_BONUS / 40 - 20 * MAX_BONUS / 40 + 2;
}

int fw_task_interactive(const struct sched_task *t)
{
	return t->prio <= t->static_prio - delta(t);
}

static int64_t interactive_sleep(const struct sched_task *t)
{
	return MAX_SLEEP_AVG * (MAX_BONUS / 2 + delta(t) + 1) / MAX_BONUS - 1 * MS;
}

/*
 * The slice of @t. In a task group g != 0 the group as a whole is worth shares(g) nice-0
 * tasks, split among its runnable tasks by weight (CFS: a task's h_weight is
 * weight * shares / the group's weight): slice = DEF_TIMESLICE * shares * w / (1024 *
 * W), W the group's runnable weight from the engine's GROUP_TOTAL (t included).
 */
static int64_t slice_of(struct sched *s, const struct sched_task *t, unsigned on_cpu)
{
	int64_t sl = fw_task_timeslice(t->static_prio), w = load_of(s, t);
	uint32_t total = 0;

	if (t->group == 0 || t->rt_prio >= 0)
		return sl;
	fail(s, s->ops->group_total(s->q, on_cpu, t->group, &total), "GROUP_TOTAL");
	if (s->t[t->id].cpu == NIL)
		total += (uint32_t)w;
	sl = DEF_TIMESLICE * (int64_t)s->env->group_shares[t->group] * w / (1024 * (int64_t)total);
	return sl > MS ? sl : MS;
}

/* ---- Queue bookkeeping ---- */

static void list_add(struct sched *s, unsigned id, unsigned cpu, unsigned prio, int larr)
{
	struct ftask *f = &s->t[id];
	struct fcpu *c = &s->c[cpu];

	f->cpu = (int)cpu;
	f->prio = prio;
	f->parr = larr ^ c->swap;
	f->prev = NIL;
	f->next = c->head;
	if (c->head != NIL)
		s->t[c->head].prev = (int)id;
	c->head = (int)id;
	c->nr++;
	c->wload += hws_weight_of(f->wprio);
	if (s->tp[id])
		s->g[s->tp[id]->group].raw += raw_weight(s->tp[id]);
}

static void list_del(struct sched *s, unsigned id)
{
	struct ftask *f = &s->t[id];
	struct fcpu *c = &s->c[f->cpu];

	if (f->prev != NIL)
		s->t[f->prev].next = f->next;
	else
		c->head = f->next;
	if (f->next != NIL)
		s->t[f->next].prev = f->prev;
	c->nr--;
	c->wload -= hws_weight_of(f->wprio);
	if (s->tp[id])
		s->g[s->tp[id]->group].raw -= raw_weight(s->tp[id]);
	f->cpu = NIL;
}

static void enqueue(struct sched *s, unsigned on_cpu, struct sched_task *t, unsigned cpu,
		    int expired, int head)
{
	fail(s, s->ops->enqueue(s->q, on_cpu, t->id, cpu, (unsigned)t->prio, expired, head),
	     "ENQUEUE");
	list_add(s, t->id, cpu, (unsigned)t->prio, expired);
	t->cpu = (int)cpu;
	t->array = expired;
}

static void dequeue(struct sched *s, unsigned on_cpu, struct sched_task *t)
{
	fail(s, s->ops->dequeue(s->q, on_cpu, t->id), "DEQUEUE");
	list_del(s, t->id);
}

static void set_idle(struct sched *s, unsigned cpu, int idle)
{
	if (s->c[cpu].idle != idle) {
		fail(s, s->ops->set_idle(s->q, cpu, cpu, idle), "SET_IDLE");
		s->c[cpu].idle = idle;
	}
}

/* ---- The preemption interrupt (sched_engine.irq) ---- */

/* Keep the engine's CURR[@cpu] equal to @prio, the priority @cpu runs (or HWS_CURR_IDLE). */
static void set_curr(struct sched *s, unsigned cpu, unsigned prio)
{
	if (!s->irq || s->c[cpu].curr_prio == prio)
		return;
	s->c[cpu].curr_prio = prio;
	if (s->irq_skip) {	/* test hook: leave CURR stale */
		s->irq_skip--;
		return;
	}
	fail(s, s->ops->set_curr(s->q, cpu, cpu, prio), "CURR write");
	s->curr_writes++;
}

/* Look at the interrupt lines after commands that may have linked a task into an active
 * array below CURR; returns them (IRQ_PEND & IRQ_EN, every CPU enabled). */
static uint64_t irq_lines(struct sched *s)
{
	uint64_t l = 0;

	fail(s, s->ops->irq_lines(s->q, &l), "IRQ_PEND");
	s->irq_pend = l;
	return l;
}

/* @cpu takes its interrupt (it reschedules, or does not preempt for a pull): clear it. */
static void irq_ack(struct sched *s, unsigned cpu)
{
	if (!s->irq || !(s->irq_pend >> cpu & 1))
		return;
	fail(s, s->ops->irq_ack(s->q, cpu, cpu), "IRQ_PEND ack");
	s->irq_pend &= ~(1ull << cpu);
	s->irq_acks++;
}

/* A line that is up interrupts its CPU: it reschedules (the machine's kick). */
static void irq_kick(struct sched *s)
{
	uint64_t l = irq_lines(s);

	for (unsigned c = 0; c < s->ncpu; c++)
		if (l >> c & 1) {
			s->env->kick(s->env->machine, c);
			s->irq_kicks++;
		}
}

/* ---- Balancing ---- */

/* A scan of @n tasks on @cpu: a quarter of a run-queue operation each. */
static void charge_scan(struct sched *s, unsigned cpu, unsigned n)
{
	s->env->charge(s->env->machine, cpu, n * s->opts.costs.sw_op_ns / 4, SCHED_WORK_SW_OP);
}

static int allowed(const struct sched_task *t, unsigned cpu)
{
	return (int)(t->allowed >> cpu & 1);
}

static int task_hot(struct sched *s, const struct sched_task *t, int level)
{
	return (int64_t)(now(s) - t->last_ran) < fw_sd_params[level].cache_hot;
}

/*
 * move_tasks(): pull up to @imbalance of weighted load from @busiest to @this, expired
 * array first, highest priority first; returns the number moved. @force ignores
 * cache-hotness (active balance).
 */
static unsigned move_tasks(struct sched *s, unsigned this, unsigned busiest, uint32_t imbalance,
			   int level, int force)
{
	struct sched_task *curr = s->env->curr(s->env->machine, busiest);
	int64_t rem = imbalance;
	unsigned moved = 0, scanned = 0;

	for (int pass = 0; pass < 2 && rem > 0; pass++) {
		int want = pass == 0 ? 1 : 0;	/* logical array: expired, then active */

		for (unsigned p = 0; p < HWS_NR_PRIO && rem > 0; p++) {
			int id = s->c[busiest].head, nxt;

			for (; id != NIL && rem > 0; id = nxt) {
				struct ftask *f = &s->t[id];
				struct sched_task *t;

				nxt = f->next;
				if (f->prio != p || (f->parr ^ s->c[busiest].swap) != want)
					continue;
				scanned++;
				if (curr && curr->id == (unsigned)id)
					continue;
				t = s->tp[id];
				if (!t || !allowed(t, this))
					continue;
				if (!force && task_hot(s, t, level) &&
				    s->c[this].failed[level] <= fw_sd_params[level].cache_nice_tries)
					continue;
				if ((int64_t)load_of(s, t) > 2 * rem)
					continue;
				fail(s, s->ops->migrate(s->q, this, (unsigned)id, this), "MIGRATE");
				list_del(s, (unsigned)id);
				list_add(s, (unsigned)id, this, p, want);
				t->cpu = (int)this;
				s->env->moved(s->env->machine, t, busiest, this);
				rem -= load_of(s, t);
				moved++;
				if (force)
					rem = 0;
			}
		}
	}
	charge_scan(s, this, scanned);
	s->moves += moved;
	/* A pulled task does not preempt @this (the policy's rule in both modes), but its
	 * MIGRATE may have raised @this's line: @this clears it. */
	if (s->irq && moved) {
		irq_lines(s);
		irq_ack(s, this);
	}
	return moved;
}

/*
 * The migration thread's push (active_load_balance): the task running on @busiest, with
 * nothing else there to move, goes to @this. As in Linux it moves only once it is off its
 * CPU (the migration thread preempts it first): @busiest reschedules now, and put_prev()
 * moves the task and kicks @this. Until then it stays queued on @busiest, where no one
 * else can take it (move_tasks() skips a running task; pick() on @this cannot see it).
 */
static unsigned push_running(struct sched *s, unsigned this, unsigned busiest)
{
	struct sched_task *curr = s->env->curr(s->env->machine, busiest);

	if (!curr || s->t[curr->id].cpu != (int)busiest || !allowed(curr, this) ||
	    s->c[busiest].push_task != NIL)
		return 0;
	s->c[busiest].push_task = (int)curr->id;
	s->c[busiest].push_to = this;
	s->env->kick(s->env->machine, busiest);
	return 1;
}

/* The pushed task @t stopped running on @cpu: move it, still queued, to the pushing CPU. */
static void finish_push(struct sched *s, unsigned cpu, struct sched_task *t)
{
	unsigned to = s->c[cpu].push_to;

	fail(s, s->ops->migrate(s->q, cpu, t->id, to), "MIGRATE");
	list_del(s, t->id);
	list_add(s, t->id, to, s->t[t->id].prio, t->array);
	t->cpu = (int)to;
	s->env->moved(s->env->machine, t, cpu, to);
	s->env->kick(s->env->machine, to);
	if (s->irq)
		irq_lines(s);	/* @to's pick clears what the MIGRATE raised */
	s->moves++;
}

/*
 * update_shares() for the O(1) policy, once per tick on CPU 0: each group's runnable
 * weight W is smoothed (avg = (avg + W) / 2, skipped while the group has nothing runnable);
 * when log1.25(avg / shares) is more than 3/4 of a step from the group's shift, the shift
 * becomes its rounded value and every task of the group is re-weighted (SET_WEIGHT; a
 * queued task's CPU load changes at once, the others' at their next enqueue).
 */
static void update_group_weights(struct sched *s, unsigned cpu)
{
	for (unsigned g = 1; g < s->env->nr_groups; g++) {
		struct fgroup *G = &s->g[g];
		unsigned scanned = 0;
		double x;

		if (!G->raw)
			continue;
		G->avg = G->avg ? (G->avg + (double)G->raw) / 2 : (double)G->raw;
		x = log(G->avg / s->env->group_shares[g]) / log(1.25);
		if (fabs(x - G->shift) <= 0.75)
			continue;
		G->shift = (int)lround(x);
		for (unsigned id = 0; id < s->env->nr_tasks; id++) {
			struct sched_task *t = s->tp[id];
			struct ftask *f = &s->t[id];
			unsigned wp;

			scanned++;
			if (!t || t->group != g || (wp = weight_prio(s, t)) == f->wprio)
				continue;
			fail(s, s->ops->set_weight(s->q, cpu, id, wp), "SET_WEIGHT");
			if (f->cpu != NIL)
				s->c[f->cpu].wload = s->c[f->cpu].wload - hws_weight_of(f->wprio) +
						     hws_weight_of(wp);
			f->wprio = wp;
			s->reweights++;
		}
		charge_scan(s, cpu, scanned);
	}
}

/* Load weight and tasks queued on the CPUs of @cpu's level-@level domain in group @lead. */
static void group_sums(struct sched *s, unsigned cpu, int level, unsigned lead, uint64_t *w,
		       unsigned *nr)
{
	const struct sched_topo *tp = s->env->topo;
	unsigned dom = hws_block(tp->lead, (unsigned)level + 1, cpu);

	*w = 0;
	*nr = 0;
	for (unsigned x = 0; x < s->ncpu; x++)
		if (hws_block(tp->lead, (unsigned)level + 1, x) == dom &&
		    hws_block(tp->lead, (unsigned)level, x) == lead) {
			*w += s->c[x].wload;
			*nr += s->c[x].nr;
		}
}

static uint64_t min64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/*
 * The smpnice tail of find_busiest_group() and find_busiest_queue() (2.6.16-2.6.22). The
 * unit answers with 2.6.12's rules, where "one task" is a nice-0 task's 1024. With
 * weighted loads, and with group tasks carrying their h_load, a task may weigh much less,
 * so from the unit's max / avg / this loads the firmware redoes the imbalance with
 * busiest_load_per_task (the busiest group's load now per queued task), then picks the
 * busiest CPU of that group, skipping a CPU whose one task outweighs the imbalance
 * (moving it would only move the imbalance). Returns that CPU and sets *@imb, or -1 when
 * balanced. docs/balance.md, "smpnice in firmware".
 */
static int smpnice(struct sched *s, unsigned cpu, int level, enum hws_idle_type idle,
		   const struct hws_balance *b, uint32_t *imb)
{
	const struct sched_topo *tp = s->env->topo;
	uint64_t max = b->max_load, avg = b->avg_load, this = b->this_load, bw, tw;
	uint64_t pb = fw_group_power(tp, (unsigned)level), pt = pb, im;
	uint64_t best_wl = 0;
	unsigned bnr, tnr, dom = hws_block(tp->lead, (unsigned)level + 1, cpu);
	int best = -1;

	if (!fw_balance_needs_loads(b->verdict))
		return -1;
	group_sums(s, cpu, level, (unsigned)b->busiest_group, &bw, &bnr);
	group_sums(s, cpu, level, (unsigned)b->this_group, &tw, &tnr);
	if (!bnr)
		return -1;
	if (fw_smpnice_imbalance(max, avg, this, bw, bnr, tw, tnr, pb, pt, &im))
		return -1;
	*imb = (uint32_t)min64(im, UINT32_MAX);
	/* The unit named the busiest CPU (MOVE, MOVE_ONE) by the same rule as the scan below
	 * (largest load, lowest CPU on a tie); unless the lone-task skip applies to it, it is
	 * the scan's answer too, without reading any load again. */
	if (b->busiest_cpu >= 0 && s->c[b->busiest_cpu].nr > 1)
		return b->busiest_cpu;
	for (unsigned x = 0; x < s->ncpu; x++) {
		uint32_t n, src, tgt;
		uint64_t wl;

		if (hws_block(tp->lead, (unsigned)level + 1, x) != dom ||
		    hws_block(tp->lead, (unsigned)level, x) != (unsigned)b->busiest_group || !s->c[x].nr)
			continue;
		fail(s, s->ops->loads(s->q, cpu, x, &n, &src, &tgt), "loads");
		wl = idle == HWS_CPU_NOT_IDLE ? src : n;
		if (s->c[x].nr == 1 && wl > im)
			continue;
		if (best < 0 || wl > best_wl) {
			best = (int)x;
			best_wl = wl;
		}
	}
	return best;
}

/* load_balance() / load_balance_newidle() at one engine level; returns tasks moved. */
static unsigned load_balance(struct sched *s, unsigned cpu, int level, enum hws_idle_type idle)
{
	struct fcpu *c = &s->c[cpu];
	const struct fw_sd_param *sp = &fw_sd_params[level];
	struct hws_balance b;
	unsigned moved = 0;
	uint32_t imb = 0;
	int ret, busiest;

	s->balances++;
	ret = s->ops->balance(s->q, cpu, (unsigned)level, idle, &b);
	fail(s, ret, "BALANCE");
	if (ret)
		return 0;
	busiest = smpnice(s, cpu, level, idle, &b, &imb);
	if (busiest >= 0 && (unsigned)busiest != cpu) {
		if (b.verdict == HWS_BAL_NO_GAIN)
			s->smpnice_moves++;
		moved = move_tasks(s, cpu, (unsigned)busiest, imb, level, 0);
		if (!moved && idle != HWS_CPU_NEWLY_IDLE) {
			c->failed[level]++;
			if (c->failed[level] > sp->cache_nice_tries + 2) {
				/* Active balance: the migration thread moves one task regardless
				 * of cache-hotness. */
				moved = move_tasks(s, cpu, (unsigned)busiest, 1024, level, 1);
				if (!moved)
					moved = push_running(s, cpu, (unsigned)busiest);
				s->active_balances += moved;
				c->failed[level] = sp->cache_nice_tries + 1;
			}
		}
	}
	if (idle == HWS_CPU_NEWLY_IDLE)
		return moved;
	fw_sd_after_balance(&c->failed[level], &c->interval[level], sp, moved,
			    busiest >= 0 && (unsigned)busiest != cpu);
	return moved;
}

/* ---- The scheduler interface ---- */

static struct sched *create(const struct sched_env *env, const struct sched_opts *o,
			    char *msg, size_t len, const struct fw_rq_ops *ops)
{
	struct sched *s;
	const struct sched_topo *tp;
	unsigned i, l;

	if (sched_opts_check(o, msg, len))
		return NULL;
	if (o->engine.irq && !ops->set_curr) {
		snprintf(msg, len, "engine irq: an option of the engine's run queue (scheduler hw), "
			 "not of %s queues", ops->name);
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(msg, len, "out of memory");
		return NULL;
	}
	s->ops = ops;
	s->opts = *o;
	s->irq = o->engine.irq;
	s->irq_skip = o->engine.irq_skip_curr;
	s->wake_balance = o->wake_balance;
	s->flat = o->flat;
	/* flat=1: one domain over every CPU whose groups are single CPUs (2.6.0's balancer
	 * before sched domains), on the same machine. */
	fw_domain_topo(&s->dtopo, env->topo, s->flat);
	s->denv = *env;
	s->denv.topo = &s->dtopo;
	s->env = &s->denv;
	tp = &s->dtopo;
	s->ncpu = tp->nr_cpus;
	s->t = calloc(env->nr_tasks, sizeof(*s->t));
	s->tp = calloc(env->nr_tasks, sizeof(*s->tp));
	s->c = calloc(s->ncpu, sizeof(*s->c));
	s->g = calloc(env->nr_groups ? env->nr_groups : 1, sizeof(*s->g));
	if (!s->t || !s->tp || !s->c || !s->g) {
		snprintf(msg, len, "out of memory");
		goto err;
	}
	s->q = ops->create(&s->denv, &s->opts, msg, len);
	if (!s->q)
		goto err;
	for (i = 0; i < env->nr_tasks; i++)
		s->t[i].cpu = NIL;
	s->nlevels = fw_domain_levels(tp, s->levels);
	for (i = 0; i < s->ncpu; i++) {
		s->c[i].head = NIL;
		s->c[i].best_expired_prio = HWS_NR_PRIO;
		s->c[i].idle = -1;	/* unknown: the first set_idle() always writes */
		s->c[i].push_task = NIL;
		s->c[i].curr_prio = HWS_CURR_IDLE;	/* CURR's reset value */
		for (l = 0; l < 4; l++)
			s->c[i].interval[l] = fw_sd_params[l].min_interval;
	}
	for (i = 0; i < s->ncpu; i++)
		set_idle(s, i, 1);
	if (s->err) {
		snprintf(msg, len, "%s", s->errmsg);
		ops->destroy(s->q);
		goto err;
	}
	return s;
err:
	free(s->t);
	free(s->tp);
	free(s->c);
	free(s->g);
	free(s);
	return NULL;
}

static struct sched *create_hw(const struct sched_env *env, const struct sched_opts *o,
			       char *msg, size_t len)
{
	return create(env, o, msg, len, &fw_rq_hw_ops);
}

static struct sched *create_sw(const struct sched_env *env, const struct sched_opts *o,
			       char *msg, size_t len)
{
	return create(env, o, msg, len, &fw_rq_sw_ops);
}

static void destroy(struct sched *s)
{
	if (!s)
		return;
	s->ops->destroy(s->q);
	free(s->t);
	free(s->tp);
	free(s->c);
	free(s->g);
	free(s);
}

static void task_new(struct sched *s, struct sched_task *t, struct sched_task *parent,
		     unsigned cpu)
{
	s->tp[t->id] = t;
	s->t[t->id].cpu = NIL;
	t->cpu = -1;
	t->static_prio = SCHED_NICE_0_PRIO + t->nice;
	t->timestamp = t->last_ran = now(s);
	t->array = 0;
	if (parent && t->rt_prio < 0) {
		/* sched_fork(): the child gets half the parent's slice, rounded up. */
		t->time_slice = (parent->time_slice + 1) / 2;
		parent->time_slice /= 2;
		if (parent->time_slice <= 0)
			parent->time_slice = 1;
		t->sleep_avg = parent->sleep_avg * CHILD_PENALTY / 100;
	} else {
		/* A task group's slice depends on the group's weight: set at the first wake. */
		t->time_slice = t->group ? 0 : fw_task_timeslice(t->static_prio);
		t->sleep_avg = 0;
	}
	t->first_slice = t->time_slice;
	t->prio = fw_effective_prio(t);
	fail(s, s->ops->set_group(s->q, cpu, t->id, t->group), "SET_GROUP");
	/* Load weight by static priority (smpnice), not the dynamic list priority, shifted
	 * by the task's group (h_load). */
	s->t[t->id].wprio = weight_prio(s, t);
	fail(s, s->ops->set_weight(s->q, cpu, t->id, s->t[t->id].wprio), "SET_WEIGHT");
}

/* recalc_task_prio(): credit the sleep that ends now. */
static void credit_sleep(struct sched *s, struct sched_task *t)
{
	int64_t slept = (int64_t)(now(s) - t->timestamp);

	if (t->rt_prio >= 0 || slept <= 0)
		return;
	if (slept > MAX_SLEEP_AVG)
		slept = MAX_SLEEP_AVG;
	if (slept > interactive_sleep(t)) {
		/* A long sleep: interactive, but not more than a little above. */
		if (t->sleep_avg < MAX_SLEEP_AVG - DEF_TIMESLICE)
			t->sleep_avg = MAX_SLEEP_AVG - DEF_TIMESLICE;
	} else {
		int mult = MAX_BONUS - current_bonus(t);

		t->sleep_avg += slept * (mult ? mult : 1);
		if (t->sleep_avg > MAX_SLEEP_AVG)
			t->sleep_avg = MAX_SLEEP_AVG;
	}
	t->prio = fw_effective_prio(t);
}

static int shares_llc(struct sched *s, unsigned a, unsigned b)
{
	return hws_block(s->env->topo->lead, 2, a) == hws_block(s->env->topo->lead, 2, b);
}

static int cpu_idle(struct sched *s, unsigned cpu)
{
	return !s->env->cpu_busy(s->env->machine, cpu);
}

static unsigned first_allowed(struct sched *s, const struct sched_task *t)
{
	for (unsigned c = 0; c < s->ncpu; c++)
		if (allowed(t, c))
			return c;
	return 0;
}

/*
 * find_idlest_cpu() over @t's allowed CPUs of @on_cpu's domain at @level. The unit's IDLEST
 * answers for the whole domain; when @t may not run on that CPU, the firmware reads the
 * load now of each allowed CPU of the domain (what Linux does at every placement) and takes
 * the least loaded: @pref on a tie if it is among the tied, else the lowest. No allowed CPU
 * in the domain: @pref if allowed, else the first allowed CPU.
 */
static unsigned idlest_allowed(struct sched *s, const struct sched_task *t, unsigned on_cpu,
			       unsigned pref, int level)
{
	const struct sched_topo *tp = s->env->topo;
	unsigned found, dom = hws_block(tp->lead, (unsigned)level + 1, on_cpu);
	uint64_t best_ld = UINT64_MAX;
	int best = -1;

	fail(s, s->ops->idlest(s->q, on_cpu, (unsigned)level, &found), "IDLEST");
	if (allowed(t, found))
		return found;
	for (unsigned x = 0; x < s->ncpu; x++) {
		uint32_t n, src, tgt;

		if (!allowed(t, x) || hws_block(tp->lead, (unsigned)level + 1, x) != dom)
			continue;
		fail(s, s->ops->loads(s->q, on_cpu, x, &n, &src, &tgt), "loads");
		if (n < best_ld || (n == best_ld && x == pref)) {
			best = (int)x;
			best_ld = n;
		}
	}
	if (best >= 0)
		return (unsigned)best;
	return allowed(t, pref) ? pref : first_allowed(s, t);
}

/* The wake_affine decision of 2.6.12 between the waker's CPU and the task's. */
static int wake_affine(struct sched *s, struct sched_task *t, unsigned this, unsigned prev)
{
	uint32_t n, src, tgt, this_tgt, prev_tgt, load, pct;
	int level = -1;

	for (int i = 0; i < s->nlevels; i++)
		if (fw_sd_params[s->levels[i]].wake_affine &&
		    hws_block(s->env->topo->lead, (unsigned)s->levels[i] + 1, this) ==
			    hws_block(s->env->topo->lead, (unsigned)s->levels[i] + 1, prev)) {
			level = s->levels[i];
			break;
		}
	if (level < 0 || task_hot(s, t, level))
		return 0;
	fail(s, s->ops->loads(s->q, this, prev, &n, &src, &prev_tgt), "loads");
	load = src;
	fail(s, s->ops->loads(s->q, this, this, &n, &src, &this_tgt), "loads");
	tgt = this_tgt;
	pct = fw_level_pct((unsigned)level);
	pct = pct + (pct - 100) / 2;
	return (tgt <= load && tgt + prev_tgt <= 1024) ||
	       100ull * (tgt + load_of(s, t)) <= (uint64_t)pct * load;
}

static unsigned select_cpu(struct sched *s, struct sched_task *t, unsigned waker,
			   enum sched_wake_kind kind)
{
	unsigned prev = t->cpu >= 0 ? (unsigned)t->cpu : waker, target;
	int f;

	if (kind == SCHED_FORK) {
		/* sched_balance_fork(): the idlest CPU of the widest domain. */
		int top = s->nlevels ? s->levels[s->nlevels - 1] : 3;

		return idlest_allowed(s, t, waker, waker, top);
	}
	if (!allowed(t, prev))
		prev = first_allowed(s, t);
	target = prev;
	if (waker != prev && allowed(t, waker) && wake_affine(s, t, waker, prev)) {
		target = waker;
		s->wake_affine++;
	}
	if (!s->wake_balance || cpu_idle(s, target))
		return target;
	/* select_idle_sibling() (3.x): the previous CPU if it shares the cache and idles,
	 * else a wholly idle core of the last-level-cache domain. */
	if (prev != target && shares_llc(s, prev, target) && cpu_idle(s, prev))
		return prev;
	fail(s, s->ops->idle_core(s->q, target, 1, &f), "IDLE_CORE");
	if (f >= 0 && allowed(t, (unsigned)f) && cpu_idle(s, (unsigned)f)) {
		s->wake_idle++;
		return (unsigned)f;
	}
	return target;
}

static unsigned wake(struct sched *s, struct sched_task *t, unsigned waker,
		     enum sched_wake_kind kind)
{
	struct sched_task *curr;
	unsigned cpu;

	if (kind == SCHED_WAKE)
		credit_sleep(s, t);
	cpu = select_cpu(s, t, waker, kind);
	/* A task group's first slice waits for the first pick: by then its siblings forked
	 * at the same moment are runnable and the group's weight is known. */
	if (t->time_slice <= 0 && !t->group)
		t->time_slice = slice_of(s, t, waker);
	enqueue(s, waker, t, cpu, 0, 0);
	t->timestamp = now(s);
	if (s->irq) {	/* the engine compared t->prio with CURR[cpu] */
		irq_kick(s);
		return cpu;
	}
	curr = s->env->curr(s->env->machine, cpu);
	if (!curr || t->prio < curr->prio)
		s->env->kick(s->env->machine, cpu);
	return cpu;
}

static void put_prev(struct sched *s, unsigned cpu, struct sched_task *t, int runnable,
		     uint64_t ran_ns)
{
	int b = current_bonus(t);

	if (t->rt_prio < 0) {
		t->sleep_avg -= (int64_t)ran_ns / (b ? b : 1);
		if (t->sleep_avg < 0)
			t->sleep_avg = 0;
	}
	t->last_ran = t->timestamp = now(s);
	if (!runnable && s->t[t->id].cpu != NIL)
		dequeue(s, cpu, t);
	if (s->c[cpu].push_task == (int)t->id) {
		s->c[cpu].push_task = NIL;	/* a task that blocks is not pushed */
		if (runnable && s->t[t->id].cpu == (int)cpu && allowed(t, s->c[cpu].push_to))
			finish_push(s, cpu, t);
	}
}

/*
 * sched_exec() / sched_balance_exec() (2.6.12): a task that execs has no cache footprint
 * worth keeping, so it goes to the least loaded CPU of the widest domain if that takes load
 * off this one (its load plus the task's below this CPU's). The move itself is the
 * migration thread's: once the task is off this CPU (the push of active balance).
 */
static void exec_balance(struct sched *s, struct sched_task *t, unsigned cpu)
{
	uint32_t n_here, n_there, src, tgt;
	unsigned found;

	if (!s->nlevels || s->t[t->id].cpu != (int)cpu || s->c[cpu].push_task != NIL)
		return;
	found = idlest_allowed(s, t, cpu, cpu, s->levels[s->nlevels - 1]);
	if (found == cpu)
		return;
	fail(s, s->ops->loads(s->q, cpu, cpu, &n_here, &src, &tgt), "loads");
	fail(s, s->ops->loads(s->q, cpu, found, &n_there, &src, &tgt), "loads");
	if ((uint64_t)n_there + load_of(s, t) >= n_here)
		return;
	s->c[cpu].push_task = (int)t->id;
	s->c[cpu].push_to = found;
	s->exec_moves++;
	s->env->kick(s->env->machine, cpu);
}

/*
 * sched_exit() (2.6.12): a child that exits within its first slice gives what is left of
 * it back to its parent (up to one full slice of the child's priority), and a child that
 * slept less than its parent pulls the parent's sleep_avg down (EXIT_WEIGHT 3).
 */
static void task_exit(struct sched *s, struct sched_task *t, struct sched_task *parent)
{
	if (s->t[t->id].cpu != NIL)
		dequeue(s, t->cpu >= 0 ? (unsigned)t->cpu : 0, t);
	s->tp[t->id] = NULL;
	if (!parent || t->rt_prio >= 0 || parent->rt_prio >= 0)
		return;
	if (t->first_slice && t->time_slice > 0) {
		int64_t cap = fw_task_timeslice(t->static_prio);

		parent->time_slice += t->time_slice;
		if (parent->time_slice > cap)
			parent->time_slice = cap;
		s->slices_returned++;
	}
	if (t->sleep_avg < parent->sleep_avg)
		parent->sleep_avg = parent->sleep_avg / (EXIT_WEIGHT + 1) * EXIT_WEIGHT +
				    t->sleep_avg / (EXIT_WEIGHT + 1);
}

/*
 * sys_sched_yield() of 2.6.0-2.6.22: the caller moves to the tail of its priority's list
 * in the expired array (an RT task round-robins in the active one), keeping its slice;
 * expired_timestamp and best_expired_prio are left alone; then schedule().
 */
static int yield(struct sched *s, unsigned cpu, struct sched_task *t)
{
	s->yields++;
	if (s->t[t->id].cpu != (int)cpu)
		return 1;	/* being pushed away: schedule() only */
	if (t->rt_prio >= 0) {
		fail(s, s->ops->requeue(s->q, cpu, t->id), "REQUEUE");
		return 1;
	}
	dequeue(s, cpu, t);
	enqueue(s, cpu, t, cpu, 1, 0);
	return 1;
}

static struct sched_task *pick(struct sched *s, unsigned cpu)
{
	struct fcpu *c = &s->c[cpu];
	unsigned id;
	int swapped, found;

	if (c->nr == 0)	/* idle_balance(): newly idle, bottom-up */
		for (int i = 0; i < s->nlevels && c->nr == 0; i++)
			if (fw_sd_params[s->levels[i]].newidle)
				load_balance(s, cpu, s->levels[i], HWS_CPU_NEWLY_IDLE);
	if (c->nr == 0) {
		set_idle(s, cpu, 1);
		irq_ack(s, cpu);
		set_curr(s, cpu, HWS_CURR_IDLE);
		return NULL;
	}
	found = s->ops->peek(s->q, cpu, cpu, &id, &swapped);
	fail(s, found, "PEEK");
	if (found <= 0) {
		if (!s->err)
			fail(s, -EPROTO, "PEEK (the firmware counts queued tasks the engine lacks)");
		return NULL;
	}
	if (swapped) {
		/* Active ran out: swap the arrays (PICK_NEXT does) and put the task back. */
		fail(s, s->ops->pick(s->q, cpu, cpu, &id, &swapped), "PICK_NEXT");
		c->swap ^= 1;
		if (s->irq) {	/* PICK_NEXT set CURR[cpu] and cleared its IRQ_PEND bit */
			c->curr_prio = s->t[id].prio;
			s->irq_pend &= ~(1ull << cpu);
		}
		list_del(s, id);
		fail(s, s->ops->enqueue(s->q, cpu, id, cpu, s->t[id].prio, 0, 1), "ENQUEUE");
		list_add(s, id, cpu, s->t[id].prio, 0);
		c->expired_timestamp = 0;
		c->best_expired_prio = HWS_NR_PRIO;
	}
	set_idle(s, cpu, 0);
	/* The running task stays queued (PEEK), so CURR is the firmware's to write. */
	irq_ack(s, cpu);
	set_curr(s, cpu, s->t[id].prio);
	s->tp[id]->timestamp = now(s);
	if (s->tp[id]->time_slice <= 0)
		s->tp[id]->time_slice = slice_of(s, s->tp[id], cpu);
	s->tp[id]->array = 0;
	return s->tp[id];
}

/*
 * EXPIRED_STARVING, from the tick after @curr was dequeued: Linux's nr_running still counts
 * it there (dequeue_task() leaves nr_running alone), so it is c->nr + 1.
 */
static int expired_starving(struct sched *s, unsigned cpu, const struct sched_task *curr)
{
	struct fcpu *c = &s->c[cpu];

	if (c->expired_timestamp &&
	    (int64_t)(now(s) - c->expired_timestamp) >=
		    STARVATION_LIMIT * (int64_t)(c->nr + 1) + 1)
		return 1;
	return (unsigned)curr->static_prio > c->best_expired_prio;
}

static int64_t granularity(const struct sched_task *t)
{
	int b = MAX_BONUS - current_bonus(t);

	return GRANULARITY * (1 << ((b ? b : 1) - 1));
}

static int tick(struct sched *s, unsigned cpu, struct sched_task *curr)
{
	struct fcpu *c = &s->c[cpu];
	int resched = 0;

	fail(s, s->ops->load_tick(s->q, cpu, cpu), "LOAD_TICK");
	if (cpu == 0)
		update_group_weights(s, cpu);
	if (curr && s->t[curr->id].cpu == (int)cpu) {
		curr->time_slice -= TICK_NS;
		if (curr->rt_prio >= 0) {
			if (curr->time_slice <= 0) {	/* SCHED_RR: round robin */
				curr->time_slice = fw_task_timeslice(curr->static_prio);
				fail(s, s->ops->requeue(s->q, cpu, curr->id), "REQUEUE");
				resched = 1;
			}
		} else if (curr->time_slice <= 0) {
			dequeue(s, cpu, curr);
			curr->prio = fw_effective_prio(curr);
			set_curr(s, cpu, (unsigned)curr->prio);
			/* A group slice is not a whole number of ticks: the overrun of this one
			 * comes off the next, so the group's CPU time follows its shares. */
			curr->time_slice += slice_of(s, curr, cpu);
			if (curr->time_slice < TICK_NS)
				curr->time_slice = TICK_NS;
			curr->first_slice = 0;
			if (!c->expired_timestamp)
				c->expired_timestamp = now(s);
			if (!fw_task_interactive(curr) || expired_starving(s, cpu, curr)) {
				enqueue(s, cpu, curr, cpu, 1, 0);
				if ((unsigned)curr->static_prio < c->best_expired_prio)
					c->best_expired_prio = (unsigned)curr->static_prio;
			} else {
				enqueue(s, cpu, curr, cpu, 0, 0);
			}
			resched = 1;
		} else if (fw_task_interactive(curr) &&
			   (fw_task_timeslice(curr->static_prio) - curr->time_slice) %
					   granularity(curr) == 0 &&
			   curr->time_slice >= granularity(curr) && curr->array == 0) {
			/* Interactive tasks round-robin within their priority. */
			fail(s, s->ops->requeue(s->q, cpu, curr->id), "REQUEUE");
			resched = 1;
		}
	}
	/* rebalance_tick() */
	for (int i = 0; i < s->nlevels; i++) {
		int l = s->levels[i];
		int64_t iv = c->interval[l] * (curr ? fw_sd_params[l].busy_factor : 1);

		if ((int64_t)(now(s) - (uint64_t)c->last_balance[l]) >= iv) {
			c->last_balance[l] = (int64_t)now(s);
			if (load_balance(s, cpu, l, curr ? HWS_CPU_NOT_IDLE : HWS_CPU_IDLE) && !curr)
				resched = 1;
		}
	}
	return resched;
}

static unsigned nr_queued(struct sched *s, unsigned cpu)
{
	struct sched_task *curr = s->env->curr(s->env->machine, cpu);

	/* A running task stays queued on the CPU it runs on: a push (active balance, exec)
	 * moves it only once it is off that CPU (put_prev). */
	return s->c[cpu].nr - (curr && s->t[curr->id].cpu == (int)cpu);
}

static int where(struct sched *s, const struct sched_task *t)
{
	return s->t[t->id].cpu;
}

static void report(struct sched *s, void *file)
{
	FILE *f = file;

	fprintf(f, "firmware: %llu balance queries, %llu tasks pulled (%llu by active balance), "
		   "%llu affine wakeups, %llu wakeups placed on an idle core, %llu exec moves\n",
		(unsigned long long)s->balances, (unsigned long long)s->moves,
		(unsigned long long)s->active_balances, (unsigned long long)s->wake_affine,
		(unsigned long long)s->wake_idle, (unsigned long long)s->exec_moves);
	fprintf(f, "firmware: %llu balances moved by the smpnice rules where 2.6.12's gave "
		   "NO_GAIN, %llu group re-weightings (h_load), %llu first slices returned at exit, "
		   "%llu sched_yield\n",
		(unsigned long long)s->smpnice_moves, (unsigned long long)s->reweights,
		(unsigned long long)s->slices_returned, (unsigned long long)s->yields);
	if (s->irq)
		fprintf(f, "firmware: preemption interrupt: %llu kicks by its lines, %llu CURR "
			   "writes, %llu IRQ_PEND acks\n",
			(unsigned long long)s->irq_kicks, (unsigned long long)s->curr_writes,
			(unsigned long long)s->irq_acks);
}

const char *fw_o1_error(const struct sched *s)
{
	return s->err ? s->errmsg : NULL;
}

void fw_o1_engine_stats(const struct sched *s, uint64_t *commands, uint64_t *cycles,
			uint64_t *mmio)
{
	s->ops->stats(s->q, commands, cycles, mmio);
}

/* The same policy on the engine (hw) and on software run queues (o1). */
#define FW_O1_OPS(nm, uses_, create_fn)					\
	{								\
		.name = nm,						\
		.uses = uses_,						\
		.create = create_fn,					\
		.destroy = destroy,					\
		.task_new = task_new,					\
		.wake = wake,						\
		.put_prev = put_prev,					\
		.task_exit = task_exit,					\
		.pick = pick,						\
		.yield = yield,						\
		.tick = tick,						\
		.exec = exec_balance,					\
		.nr_queued = nr_queued,					\
		.where = where,						\
		.report = report,					\
		.error = fw_o1_error,					\
		.engine_stats = fw_o1_engine_stats,			\
	}

const struct sched_ops sched_hw_ops =
	FW_O1_OPS("hw", SCHED_USES_DOMAINS | SCHED_USES_COSTS | SCHED_USES_ENGINE, create_hw);
const struct sched_ops sched_o1_ops =
	FW_O1_OPS("o1", SCHED_USES_DOMAINS | SCHED_USES_COSTS, create_sw);
