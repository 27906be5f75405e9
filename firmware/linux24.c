/*
 * linux24.c - the Linux 2.4 scheduler (kernel/sched.c of 2.4.x, HZ=100) as a
 * software-only baseline behind include/hws/sched.h; docs/linux24.md gives the policy
 * decisions and the cost model.
 *
 * One global run queue of every runnable task that is not running, under one lock
 * (runqueue_lock). schedule() computes goodness() of every queued task and takes the
 * best; when every candidate's counter is exhausted it recalculates the counter of
 * every task in the system. The queue is reported as CPU 0's.
 *
 * t->counter holds the 2.4 counter in ns (1 tick of 2.4 = 10 ms); goodness() uses it
 * in ticks, rounded up.
 */
#include "hws/sched.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- The model's constants ------------------------------------------------------------ */

#define L24_TICK_NS	10000000LL	/* one 2.4 tick: HZ=100 */
#define L24_HZ_NS	1000000LL	/* our machine's tick: HZ=1000 */
/* 2.4 at HZ < 200: TICK_SCALE(x) = x >> 2; NICE_TO_TICKS(0) = 6 ticks = 60 ms. */
#define NICE_TO_TICKS(nice)	((((20 - (nice)) >> 2) + 1))
#define NICE_TO_NS(nice)	((int64_t)NICE_TO_TICKS(nice) * L24_TICK_NS)
/* Linux 2.4's <asm-i386/smp.h>: the bonus of a task that last ran on this CPU. */
#define PROC_CHANGE_PENALTY	15
/* 2.4 on i386: union task_union puts the task_struct at the base of its 8 KB kernel stack
 * (INIT_TASK_SIZE 2048 longs), so every task_struct is 8 KB-aligned, and the one cache
 * line goodness() reads (offset 32: counter, nice, policy, mm, processor, cpus_*,
 * run_list, kept together for the goodness() loop) sits at the same offset in each. */
#define L24_TASK_ALIGN	8192u

/*
 * Cost model (ns of CPU time), docs/linux24.md:
 *  L24_SCHED_NS     schedule() fixed part: lock, prev handling, switch bookkeeping
 *                   (a few hundred instructions of 2.4 schedule() outside the loop)
 *  goodness_ns      goodness() of one queued task: touches its task_struct, on SMP a
 *                   likely cache miss (~40 ns local DRAM/remote L2 circa 2002-2005);
 *                   an option (struct sched_opts.linux24), default in firmware/sched.c
 *  L24_RECALC_NS    recalculation of one task's counter in for_each_task(): a walk of
 *                   the task list, one load + store per task_struct (cache miss each)
 *  L24_WAKE_NS      wake_up_process(): lock, add_to_runqueue, reschedule_idle()'s scan
 *  L24_TICK_NS      update_process_times(): --counter and the need_resched test, no lock
 */
#define L24_SCHED_NS	200.0
#define L24_RECALC_NS	30.0
#define L24_WAKE_NS	150.0
#define L24_TICK_COST_NS 50.0
/*  L24_YIELD_NS     sys_sched_yield()'s move_last_runqueue() under runqueue_lock */
#define L24_YIELD_NS	100.0

struct l24_stats {
	uint64_t schedules, idle_picks, goodness_calls, recalcs, recalc_tasks;
	uint64_t wakes, kick_home, kick_idle, kick_preempt, tail_kicks, idle_rescues;
	uint64_t lock_ops, lock_waits, max_queued, yields, yields_alone;
	double lock_wait_ns, lock_hold_ns;
};

struct sched {
	struct sched_env env;
	unsigned nr_cpus, nr_tasks;
	double goodness_ns;		/* option linux24.goodness_ns */
	int lock_model;			/* option linux24.lock */
	double lock_free_at;		/* ns: when runqueue_lock is next free */
	/* per CPU: line transfers of its operation under way (a put_prev()'s queue insert
	 * counts toward the schedule() that follows it) */
	double xfer_ns[SCHED_MAX_CPUS];
	unsigned op_cpu;		/* the CPU whose operation touches the queue */

	struct sched_task **known;	/* by id: every task from task_new to task_exit */
	unsigned nr_known;
	int *next, *prev;		/* the run queue's links by task id, -1 ends */
	unsigned char *queued;
	unsigned char *yielding;	/* by id: SCHED_YIELD set, until its CPU schedules */
	int head, tail;
	unsigned nr_queued;

	/* The task each CPU put back runnable, for schedule_tail's reschedule_idle(). */
	struct sched_task *put_back[SCHED_MAX_CPUS];
	uint64_t last_schedule[SCHED_MAX_CPUS];	/* ns of the CPU's last schedule() */
	struct l24_stats st;
};

/* ---- Counters and goodness ------------------------------------------------------------ */

static void set_counter(struct sched_task *t, int64_t ns)
{
	t->counter = ns > 0 ? ns : 0;
	t->time_slice = t->counter;
}

static int64_t counter_ticks(const struct sched_task *t)
{
	return (t->counter + L24_TICK_NS - 1) / L24_TICK_NS;
}

static int allowed_on(const struct sched_task *t, unsigned cpu)
{
	return (int)(t->allowed >> cpu & 1);
}

/* goodness(p, this_cpu) of 2.4 (without the +1 for a shared mm: no mm here). */
static int goodness(const struct sched_task *t, unsigned cpu, int yielding)
{
	int w;

	if (t->rt_prio >= 0)
		return 1000 + (99 - t->rt_prio);
	if (yielding)
		return -1;	/* SCHED_YIELD: anything else first, the idle task after */
	if (t->counter <= 0)
		return 0;
	w = (int)counter_ticks(t) + 20 - t->nice;
	if (t->cpu == (int)cpu)
		w += PROC_CHANGE_PENALTY;
	return w;
}

/* ---- The global run queue ------------------------------------------------------------- */

static void touch(struct sched *s, unsigned cpu, unsigned line, int write);

static void enqueue_tail(struct sched *s, struct sched_task *t)
{
	unsigned id = t->id;

	if (s->queued[id])
		return;
	s->known[id] = t;
	touch(s, s->op_cpu, SCHED_LINE_TASK(id), 1);
	if (s->tail >= 0)
		touch(s, s->op_cpu, SCHED_LINE_TASK(s->tail), 1);
	s->next[id] = -1;
	s->prev[id] = s->tail;
	if (s->tail >= 0)
		s->next[s->tail] = (int)id;
	else
		s->head = (int)id;
	s->tail = (int)id;
	s->queued[id] = 1;
	s->nr_queued++;
	if (s->nr_queued > s->st.max_queued)
		s->st.max_queued = s->nr_queued;
}

static void dequeue(struct sched *s, const struct sched_task *t)
{
	unsigned id = t->id;

	if (!s->queued[id])
		return;
	touch(s, s->op_cpu, SCHED_LINE_TASK(id), 1);
	if (s->prev[id] >= 0)
		touch(s, s->op_cpu, SCHED_LINE_TASK(s->prev[id]), 1);
	if (s->next[id] >= 0)
		touch(s, s->op_cpu, SCHED_LINE_TASK(s->next[id]), 1);
	if (s->prev[id] >= 0)
		s->next[s->prev[id]] = s->next[id];
	else
		s->head = s->next[id];
	if (s->next[id] >= 0)
		s->prev[s->next[id]] = s->prev[id];
	else
		s->tail = s->prev[id];
	s->queued[id] = 0;
	s->nr_queued--;
}

/* ---- runqueue_lock and charges -------------------------------------------------------- */

static void charge(struct sched *s, unsigned cpu, double ns, int what)
{
	if (ns > 0)
		s->env.charge(s->env.machine, cpu, ns, what);
}

/* @cpu reads or writes a cache line (the machine's coherence model, if it has one);
 * what it costs is added to the lock hold time of the schedule() or wakeup under way. */
static void touch(struct sched *s, unsigned cpu, unsigned line, int write)
{
	if (s->env.touch)
		s->xfer_ns[cpu % SCHED_MAX_CPUS] += s->env.touch(s->env.machine, cpu, line, write);
}

/* Take runqueue_lock on @cpu at @now for @hold ns: wait for its holder, charge the wait.
 * With the machine's coherence model the machine keeps the lock (its line's transfers
 * and spinners included); otherwise hold times are serialised here. */
static void lock_op(struct sched *s, unsigned cpu, uint64_t now, double hold)
{
	double wait = 0;

	if (!s->lock_model)
		return;
	s->st.lock_ops++;
	if (s->env.lock) {
		wait = s->env.lock(s->env.machine, cpu, SCHED_LINE_GLOBAL_LOCK, hold);
		if (wait > 0) {
			s->st.lock_waits++;
			s->st.lock_wait_ns += wait;
		}
		s->st.lock_hold_ns += hold;
		return;
	}
	if (s->lock_free_at > (double)now) {
		wait = s->lock_free_at - (double)now;
		s->st.lock_waits++;
		s->st.lock_wait_ns += wait;
		charge(s, cpu, wait, SCHED_WORK_LOCK_WAIT);
	}
	s->st.lock_hold_ns += hold;
	s->lock_free_at = (double)now + wait + hold;
}

/* ---- reschedule_idle() ---------------------------------------------------------------- */

/*
 * Is @cpu running something, and what: @self (>= 0) is the CPU in schedule(), about to
 * run @self_curr, which the machine does not know yet.
 */
static struct sched_task *cpu_state(struct sched *s, unsigned cpu, int self,
				    struct sched_task *self_curr, int *busy)
{
	if ((int)cpu == self) {
		*busy = 1;
		return self_curr;
	}
	*busy = s->env.cpu_busy(s->env.machine, cpu) != 0;
	return *busy ? s->env.curr(s->env.machine, cpu) : NULL;
}

/*
 * reschedule_idle(p) of 2.4 (SMP): the task's last CPU if it idles; else the idle CPU
 * that scheduled longest ago (lowest number on ties); else the busy CPU whose current
 * task @t beats by the most goodness (preemption_goodness > 0). Returns the CPU kicked
 * or -1.
 */
static int reschedule_idle(struct sched *s, struct sched_task *t, unsigned home, int self,
			   struct sched_task *self_curr)
{
	int best = -1, preempt = -1, max_gain = 0, busy;
	struct sched_task *c;
	unsigned cpu;

	if (home < s->nr_cpus && allowed_on(t, home)) {
		cpu_state(s, home, self, self_curr, &busy);
		if (!busy) {
			s->st.kick_home++;
			s->env.kick(s->env.machine, home);
			return (int)home;
		}
	}
	for (cpu = 0; cpu < s->nr_cpus; cpu++) {
		if (!allowed_on(t, cpu))
			continue;
		c = cpu_state(s, cpu, self, self_curr, &busy);
		if (!busy) {
			if (best < 0 || s->last_schedule[cpu] < s->last_schedule[best])
				best = (int)cpu;
		} else if (c && c != t) {
			touch(s, s->op_cpu, SCHED_LINE_TASK(c->id), 0);
			int gain = goodness(t, cpu, s->yielding[t->id]) - goodness(c, cpu, s->yielding[c->id]);

			if (gain > max_gain) {
				max_gain = gain;
				preempt = (int)cpu;
			}
		}
	}
	if (best >= 0)
		s->st.kick_idle++;
	else if ((best = preempt) >= 0)
		s->st.kick_preempt++;
	else
		return -1;
	s->env.kick(s->env.machine, (unsigned)best);
	return best;
}

/* ---- sched_ops ------------------------------------------------------------------------ */

static void l24_destroy(struct sched *s)
{
	if (!s)
		return;
	free(s->known);
	free(s->next);
	free(s->prev);
	free(s->queued);
	free(s->yielding);
	free(s);
}

static struct sched *l24_create(const struct sched_env *env, const struct sched_opts *o,
				char *msg, size_t len)
{
	struct sched *s;
	unsigned n;

	if (msg && len)
		msg[0] = '\0';
	if (sched_opts_check(o, msg, len))
		return NULL;
	if (!env || !env->topo || !env->now || !env->charge || !env->kick ||
	    !env->cpu_busy || !env->curr) {
		snprintf(msg, len, "linux24: incomplete sched_env");
		return NULL;
	}
	if (env->topo->nr_cpus < 1 || env->topo->nr_cpus > SCHED_MAX_CPUS || !env->nr_tasks) {
		snprintf(msg, len, "linux24: want 1..%d CPUs and at least one task",
			 SCHED_MAX_CPUS);
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(msg, len, "linux24: out of memory");
		return NULL;
	}
	s->env = *env;
	s->nr_cpus = env->topo->nr_cpus;
	s->nr_tasks = n = env->nr_tasks;
	s->goodness_ns = o->linux24.goodness_ns;
	s->lock_model = o->linux24.lock;
	s->head = s->tail = -1;
	s->known = calloc(n, sizeof(*s->known));
	s->next = calloc(n, sizeof(*s->next));
	s->prev = calloc(n, sizeof(*s->prev));
	s->queued = calloc(n, sizeof(*s->queued));
	s->yielding = calloc(n, sizeof(*s->yielding));
	if (!s->known || !s->next || !s->prev || !s->queued || !s->yielding) {
		l24_destroy(s);
		snprintf(msg, len, "linux24: out of memory for %u tasks", n);
		return NULL;
	}
	return s;
}

static void l24_task_new(struct sched *s, struct sched_task *t, struct sched_task *parent,
			 unsigned cpu)
{
	if (t->id >= s->nr_tasks)
		return;
	if (!s->known[t->id])
		s->nr_known++;
	s->known[t->id] = t;
	t->static_prio = SCHED_NICE_0_PRIO + t->nice;
	t->prio = t->rt_prio >= 0 ? t->rt_prio : t->static_prio;
	t->sleep_avg = 0;
	t->array = 0;
	t->timestamp = t->last_ran = s->env.now(s->env.machine);
	if (parent) {
		/* do_fork(): p->counter = (current->counter + 1) >> 1; current->counter >>= 1 */
		set_counter(t, (parent->counter + 1) >> 1);
		set_counter(parent, parent->counter >> 1);
		t->cpu = (int)cpu;	/* p->processor = current->processor */
	} else {
		set_counter(t, NICE_TO_NS(t->nice));
		t->cpu = -1;
	}
	t->first_slice = t->counter;
}

static unsigned l24_wake(struct sched *s, struct sched_task *t, unsigned waker_cpu,
			 enum sched_wake_kind kind)
{
	uint64_t now = s->env.now(s->env.machine);
	unsigned home = t->cpu >= 0 ? (unsigned)t->cpu : waker_cpu;
	int kicked;

	(void)kind;
	if (t->id >= s->nr_tasks)
		return home;
	if (!s->known[t->id]) {
		s->known[t->id] = t;
		s->nr_known++;
	}
	s->op_cpu = waker_cpu;
	s->st.wakes++;
	t->timestamp = now;
	enqueue_tail(s, t);
	kicked = reschedule_idle(s, t, home, -1, NULL);
	lock_op(s, waker_cpu, now, L24_WAKE_NS + s->xfer_ns[waker_cpu]);
	s->xfer_ns[waker_cpu] = 0;
	charge(s, waker_cpu, L24_WAKE_NS, SCHED_WORK_SW_OP);
	return kicked >= 0 ? (unsigned)kicked : home;
}

static void l24_put_prev(struct sched *s, unsigned cpu, struct sched_task *t, int runnable,
			 uint64_t ran_ns)
{
	(void)ran_ns;
	if (t->id >= s->nr_tasks || cpu >= s->nr_cpus)
		return;
	t->last_ran = s->env.now(s->env.machine);
	s->put_back[cpu] = NULL;
	if (!runnable)
		return;
	/* Its cost is part of the schedule() that pick() charges. */
	s->op_cpu = cpu;
	enqueue_tail(s, t);
	s->put_back[cpu] = t;
}

static void l24_task_exit(struct sched *s, struct sched_task *t, struct sched_task *parent)
{
	unsigned c;

	/* 2.4 gives the counter back when the parent reaps the child (release_task), which
	 * this model does not have: the parent is not used. */
	(void)parent;
	if (t->id >= s->nr_tasks)
		return;
	s->op_cpu = t->cpu >= 0 ? (unsigned)t->cpu : 0;
	dequeue(s, t);
	s->xfer_ns[s->op_cpu % SCHED_MAX_CPUS] = 0;
	s->yielding[t->id] = 0;
	for (c = 0; c < s->nr_cpus; c++)
		if (s->put_back[c] == t)
			s->put_back[c] = NULL;
	if (s->known[t->id] == t) {
		s->known[t->id] = NULL;
		s->nr_known--;
	}
}

/* The goodness loop of schedule(): the best allowed task, first on ties; @best gets its
 * goodness (-1000 when none). Returns the number of tasks looked at. */
static unsigned scan(struct sched *s, unsigned cpu, struct sched_task **next, int *best)
{
	struct sched_task *t;
	unsigned n = 0;
	int id, g;

	*next = NULL;
	*best = -1000;
	for (id = s->head; id >= 0; id = s->next[id]) {
		t = s->known[id];
		n++;
		if (!allowed_on(t, cpu))
			continue;
		touch(s, cpu, SCHED_LINE_TASK(t->id), 0);
		g = goodness(t, cpu, s->yielding[t->id]);
		if (g > *best) {
			*best = g;
			*next = t;
		}
	}
	return n;
}

/* for_each_task(p) p->counter = (p->counter >> 1) + NICE_TO_TICKS(p->nice); */
static void recalculate(struct sched *s)
{
	unsigned id;

	touch(s, s->op_cpu, SCHED_LINE_TASKLIST, 1);	/* read_lock(&tasklist_lock) */
	for (id = 0; id < s->nr_tasks; id++) {
		struct sched_task *t = s->known[id];

		if (t)
			touch(s, s->op_cpu, SCHED_LINE_TASK(id), 1);
		if (t)
			set_counter(t, (t->counter >> 1) + NICE_TO_NS(t->nice));
	}
	s->st.recalcs++;
	s->st.recalc_tasks += s->nr_known;
}

static struct sched_task *l24_pick(struct sched *s, unsigned cpu)
{
	uint64_t now = s->env.now(s->env.machine);
	struct sched_task *next, *prev;
	unsigned scanned, recalced = 0;
	double hold;
	int best;

	if (cpu >= s->nr_cpus)
		return NULL;
	s->op_cpu = cpu;
	scanned = scan(s, cpu, &next, &best);
	if (next && best == 0) {
		recalced = s->nr_known;
		recalculate(s);
		scanned += scan(s, cpu, &next, &best);
	}
	prev = s->put_back[cpu];
	s->put_back[cpu] = NULL;
	s->last_schedule[cpu] = now;
	if (next) {
		dequeue(s, next);
		touch(s, cpu, SCHED_LINE_TASK(next->id), 1);	/* next->processor, has_cpu */
		next->cpu = (int)cpu;
		next->timestamp = now;
	}
	/* schedule_tail(): a runnable prev that lost the CPU looks for another one, unless
	 * it yielded; its SCHED_YIELD is cleared (__schedule_tail) */
	if (prev && next && prev != next && s->queued[prev->id] && !s->yielding[prev->id] &&
	    reschedule_idle(s, prev, cpu, (int)cpu, next) >= 0)
		s->st.tail_kicks++;
	if (prev)
		s->yielding[prev->id] = 0;
	hold = L24_SCHED_NS + s->goodness_ns * scanned + L24_RECALC_NS * recalced + s->xfer_ns[cpu];
	s->xfer_ns[cpu] = 0;
	lock_op(s, cpu, now, hold);
	charge(s, cpu, L24_SCHED_NS, SCHED_WORK_SW_OP);
	charge(s, cpu, s->goodness_ns * scanned, SCHED_WORK_GOODNESS);
	charge(s, cpu, L24_RECALC_NS * recalced, SCHED_WORK_RECALC);
	s->st.schedules++;
	s->st.goodness_calls += scanned;
	if (!next) {
		s->st.idle_picks++;
		return NULL;
	}
	return next;
}

static int any_allowed_queued(const struct sched *s, unsigned cpu)
{
	int id;

	for (id = s->head; id >= 0; id = s->next[id])
		if (allowed_on(s->known[id], cpu))
			return 1;
	return 0;
}

static int l24_tick(struct sched *s, unsigned cpu, struct sched_task *curr)
{
	if (cpu >= s->nr_cpus)
		return 0;
	charge(s, cpu, L24_TICK_COST_NS, SCHED_WORK_SW_OP);
	if (!curr) {
		/* Not 2.4 (its idle loop waits for need_resched): a safety net for a task
		 * left queued while this CPU idles; counted in report(). */
		if (s->nr_queued && any_allowed_queued(s, cpu)) {
			s->st.idle_rescues++;
			return 1;
		}
		return 0;
	}
	s->op_cpu = cpu;
	touch(s, cpu, SCHED_LINE_TASK(curr->id), 1);	/* --p->counter */
	s->xfer_ns[cpu] = 0;	/* no lock: nothing held longer */
	set_counter(curr, curr->counter - L24_HZ_NS);
	if (curr->counter > 0)
		return 0;
	/* SCHED_RR: a new quantum; put_prev() queues it at the tail. */
	if (curr->rt_prio >= 0)
		set_counter(curr, NICE_TO_NS(curr->nice));
	return 1;
}

/*
 * sys_sched_yield() of 2.4: when some runnable task is not running (nr_running less the
 * busy CPUs), mark the caller SCHED_YIELD (goodness -1 until its CPU has scheduled) and
 * move it to the end of the run queue under runqueue_lock; then schedule(). Otherwise
 * return at once. The caller is running, so it is not on our queue yet: put_prev()
 * queues it at the tail, which is move_last_runqueue().
 */
static int l24_yield(struct sched *s, unsigned cpu, struct sched_task *t)
{
	if (t->id >= s->nr_tasks || cpu >= s->nr_cpus)
		return 0;
	s->st.yields++;
	if (!s->nr_queued) {
		s->st.yields_alone++;
		return 0;
	}
	if (t->rt_prio < 0)
		s->yielding[t->id] = 1;
	s->op_cpu = cpu;
	touch(s, cpu, SCHED_LINE_TASK(t->id), 1);
	lock_op(s, cpu, s->env.now(s->env.machine), L24_YIELD_NS + s->xfer_ns[cpu]);
	s->xfer_ns[cpu] = 0;
	charge(s, cpu, L24_YIELD_NS, SCHED_WORK_SW_OP);
	return 1;
}

static unsigned l24_nr_queued(struct sched *s, unsigned cpu)
{
	return cpu == 0 ? s->nr_queued : 0;
}

static int l24_where(struct sched *s, const struct sched_task *t)
{
	return t->id < s->nr_tasks && s->queued[t->id] ? 0 : -1;
}

static void l24_report(struct sched *s, void *file)
{
	FILE *f = file;
	const struct l24_stats *st = &s->st;

	fprintf(f, "linux24: %llu schedule() (%llu idle), %llu goodness() calls (%.1f per "
		"schedule), %llu recalculations of %llu task counters\n",
		(unsigned long long)st->schedules, (unsigned long long)st->idle_picks,
		(unsigned long long)st->goodness_calls,
		st->schedules ? (double)st->goodness_calls / (double)st->schedules : 0.0,
		(unsigned long long)st->recalcs, (unsigned long long)st->recalc_tasks);
	fprintf(f, "linux24: %llu wakes; kicks: %llu last CPU idle, %llu other idle CPU, "
		"%llu preemptions, %llu from schedule_tail; %llu idle-tick rescues; "
		"longest queue %llu\n",
		(unsigned long long)st->wakes, (unsigned long long)st->kick_home,
		(unsigned long long)st->kick_idle, (unsigned long long)st->kick_preempt,
		(unsigned long long)st->tail_kicks, (unsigned long long)st->idle_rescues,
		(unsigned long long)st->max_queued);
	fprintf(f, "linux24: runqueue_lock %s: %llu acquisitions, %llu waited (%.0f ns in "
		"all), %.0f ns held; goodness %.1f ns; %llu sched_yield (%llu with nothing else "
		"runnable)\n",
		s->lock_model ? (s->env.lock ? "modelled with its cache line" : "modelled") : "off", (unsigned long long)st->lock_ops,
		(unsigned long long)st->lock_waits, st->lock_wait_ns, st->lock_hold_ns,
		s->goodness_ns, (unsigned long long)st->yields,
		(unsigned long long)st->yields_alone);
}

const struct sched_ops sched_linux24_ops = {
	.name = "linux24",
	.global_queue = 1,
	.task_align = L24_TASK_ALIGN,
	.uses = SCHED_USES_LINUX24,
	.create = l24_create,
	.destroy = l24_destroy,
	.task_new = l24_task_new,
	.wake = l24_wake,
	.put_prev = l24_put_prev,
	.task_exit = l24_task_exit,
	.yield = l24_yield,
	.pick = l24_pick,
	.tick = l24_tick,
	.nr_queued = l24_nr_queued,
	.where = l24_where,
	.report = l24_report,
};
