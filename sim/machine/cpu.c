/*
 * cpu.c - the CPUs: what the machine offers a scheduler (struct sched_env), the
 * running task's segments (work done at the CPU's speed, SMT siblings slowing each
 * other), switching, blocking and waking, and what each switch measures.
 */
#include "sim/machine/machine_int.h"

#include <math.h>
#include <stdlib.h>

static uint64_t env_now(void *mm)
{
	return ((struct machine *)mm)->now;
}

static void env_charge(void *mm, unsigned cpu, double ns, int what)
{
	struct machine *m = mm;

	(void)what;
	if (cpu < m->topo.nr_cpus) {
		m->cpu[cpu].debt += ns;
		m->cpu[cpu].overhead += ns;
	}
}

static void env_moved(void *mm, struct sched_task *st, unsigned from, unsigned to)
{
	struct machine *m = mm;
	struct mtask *t = (struct mtask *)st;

	if (t->state == T_RUNNING && m->cpu[from].curr == t) {
		if (from != to)
			m->mig_other += !t->bg;
		mach_perf_migrate(m, to, t, from, to);
		/* Active balance: it keeps running until @from reschedules, then waits on @to. */
		t->moved_to = (int)to;
		return;
	}
	if (from != to)
		m->mig_other += !t->bg;
	mach_perf_migrate(m, to, t, from, to);
	if (t->state != T_QUEUED || t->qcpu != (int)from)
		mach_fail(m, "the scheduler moved task %u from CPU %u, but it is %s on CPU %d", st->id,
		     from, t->state == T_QUEUED ? "queued" : "not queued", t->qcpu);
	t->qcpu = (int)to;
}

/* @cpu reschedules @delay_ns from now; an earlier request stands, a later one moves it. */
void mach_kick_after(struct machine *m, unsigned cpu, uint64_t delay_ns)
{
	struct mcpu *c = &m->cpu[cpu];
	uint64_t at = m->now + delay_ns;

	if (c->resched_pending && c->resched_at <= at)
		return;
	c->resched_pending = 1;
	c->resched_at = at;
	mach_push(m, at, EV_RESCHED, cpu, ++c->resched_gen);
}

void mach_kick(struct machine *m, unsigned cpu)
{
	mach_kick_after(m, cpu, 0);
}

/*
 * How long a wakeup from CPU m->kick_from takes to reach @cpu (struct machine_costs, the
 * wake path): 0 outside a wakeup (a tick, a balancer's pull).
 */
static uint64_t wake_delay(const struct machine *m, unsigned cpu)
{
	const struct machine_costs *k = &m->o.costs;
	const struct mcpu *c = &m->cpu[cpu];
	double ns;

	if (m->kick_from < 0)
		return 0;
	if (!c->curr)
		ns = (unsigned)m->kick_from == cpu ? k->wake_local_ns :
		     (double)(m->now - c->idle_since) >= k->halt_poll_ns ? k->wake_idle_deep_ns :
		     k->wake_idle_ns;
	else if ((unsigned)m->kick_from == cpu)
		ns = m->kick_irq ? k->preempt_irq_ns : k->preempt_local_ns;
	else
		ns = k->preempt_remote_ns;
	return (uint64_t)ns;
}

static void env_kick(void *mm, unsigned cpu)
{
	struct machine *m = mm;
	struct mcpu *c = &m->cpu[cpu];
	uint64_t d = wake_delay(m, cpu);

	if (d && c->curr && m->kick_from == (int)cpu) {
		/*
		 * A wakeup preempting its own CPU's task: that task makes no progress from the
		 * wakeup on (it is in the kernel, the waker's system call or the interrupt,
		 * until the switch at its end), and the switch comes d later: the CPU owes d
		 * and reschedules now, so the wakee starts after it.
		 */
		c->debt += (double)d;
		d = 0;
	}
	mach_kick_after(m, cpu, d);
}

/*
 * nohz_idle: @cpu got work after idling with its tick stopped: the tick restarts at the
 * next boundary of its period (each CPU's ticks keep their stagger, machine.c's start()).
 */
void mach_tick_restart(struct machine *m, unsigned cpu)
{
	struct mcpu *c = &m->cpu[cpu];
	uint64_t period = 1000000000ull / m->o.hz;
	uint64_t off = (uint64_t)cpu * period / m->topo.nr_cpus, next;

	if (!c->tick_stopped)
		return;
	c->tick_stopped = 0;
	next = m->now < off ? off : off + ((m->now - off) / period + 1) * period;
	mach_push(m, next, EV_TICK, cpu, ++c->tick_gen);
}

static int env_busy(void *mm, unsigned cpu)
{
	return ((struct machine *)mm)->cpu[cpu].curr != NULL;
}

static struct sched_task *env_curr(void *mm, unsigned cpu)
{
	struct mtask *t = ((struct machine *)mm)->cpu[cpu].curr;

	return t ? &t->st : NULL;
}

static double env_touch(void *mm, unsigned cpu, unsigned line, int write)
{
	struct machine *m = mm;
	double ns = coh_touch(m->coh, cpu, line, write);

	if (ns > 0)
		env_charge(m, cpu, ns, SCHED_WORK_COHERENCE);
	return ns;
}

static double env_lock(void *mm, unsigned cpu, unsigned line, double hold_ns)
{
	struct machine *m = mm;
	double ns = coh_lock(m->coh, cpu, line, m->now, hold_ns);

	if (ns > 0)
		env_charge(m, cpu, ns, SCHED_WORK_LOCK_WAIT);
	return ns;
}

void mach_env_init(struct machine *m)
{
	m->env = (struct sched_env){ m, &m->topo, m->nt, m->ngroups, m->shares, env_now,
				     env_charge, env_moved, env_kick, env_busy, env_curr,
				     m->coh ? env_touch : NULL, m->coh ? env_lock : NULL, m->o.hz };
}

/* Every state change goes through here, so the per-event check needs no scan. */
void mach_set_state(struct machine *m, struct mtask *t, enum tstate st)
{
	m->nstate[t->state]--;
	m->nstate[st]++;
	t->state = st;
}

/* ---- running tasks ---- */

static double speed_of(struct machine *m, unsigned cpu)
{
	unsigned lead = m->topo.lead[0][cpu], x;

	for (x = lead; x < lead + m->topo.smt; x++)
		if (x != cpu && m->cpu[x].curr)
			return m->o.costs.smt_speed;
	return 1.0;
}

/* Start (or restart) the running task's segment on @cpu: schedule its burst end. */
void mach_start_segment(struct machine *m, unsigned cpu)
{
	struct mcpu *c = &m->cpu[cpu];
	double d;

	c->gen++;
	if (!c->curr)
		return;
	/* Started again without a stop (a yield that picked the same task inside the
	 * program step that yielded): the debt not yet worked off is still owed. */
	if (c->seg_start > m->now)
		c->debt += (double)(c->seg_start - m->now);
	c->speed = speed_of(m, cpu);
	c->seg_start = m->now + (uint64_t)c->debt;
	c->debt = 0;
	d = (double)c->curr->remain / c->speed;
	mach_push(m, c->seg_start + (uint64_t)ceil(d), EV_BURST_END, cpu, c->gen);
}

/* Stop the segment: account the work done so far. */
void mach_stop_segment(struct machine *m, unsigned cpu)
{
	struct mcpu *c = &m->cpu[cpu];
	uint64_t done;

	c->gen++;
	if (!c->curr)
		return;
	if (m->now > c->seg_start) {
		done = (uint64_t)((double)(m->now - c->seg_start) * c->speed);
		if (done > c->curr->remain)
			done = c->curr->remain;
		c->curr->remain -= done;
		c->curr->runtime += m->now - c->seg_start;
		m->group_time[c->curr->st.group % SCHED_MAX_GROUPS] += (double)(m->now - c->seg_start);
		c->seg_start = m->now;	/* a second stop at this time adds nothing */
	} else {
		/* The debt was not worked off yet: carry it. */
		c->debt += (double)(c->seg_start - m->now);
		c->seg_start = m->now;
	}
}

/*
 * @cpu starts (@d = +1) or stops (-1) running a task: keep the time during which some
 * package has a core with every SMT thread busy while another of its cores is all idle
 * (two busy threads sharing a core while a core idles: select_idle_sibling's case).
 */
static void smt_account(struct machine *m, unsigned cpu, int d)
{
	unsigned k = m->topo.lead[0][cpu], p = m->topo.lead[1][cpu], smt = m->topo.smt;
	unsigned old = m->core_busy[k], nw = (unsigned)((int)old + d);
	int bad0 = m->pkg_full[p] && m->pkg_empty[p], bad1;

	m->core_busy[k] = nw;
	m->pkg_empty[p] += (nw == 0) - (old == 0);
	m->pkg_full[p] += (nw == smt) - (old == smt);
	bad1 = m->pkg_full[p] && m->pkg_empty[p];
	if (bad1 && !bad0 && m->smt_bad_pkgs++ == 0)
		m->smt_bad_since = m->now;
	if (bad0 && !bad1 && --m->smt_bad_pkgs == 0)
		m->smt_bad_ns += m->now - m->smt_bad_since;
}

static void set_busy(struct machine *m, unsigned cpu, int busy)
{
	struct mcpu *c = &m->cpu[cpu];

	if (busy && !c->curr) {
		c->busy_since = m->now;
		if (m->topo.smt > 1)
			smt_account(m, cpu, 1);
		if (m->o.nohz_idle)
			mach_tick_restart(m, cpu);
	} else if (!busy && c->curr) {
		c->busy_ns += m->now - c->busy_since;
		c->idle_since = m->now;
		if (m->topo.smt > 1)
			smt_account(m, cpu, -1);
		if (m->o.nohz_idle)
			c->tick_stopped = 1;	/* tick_nohz_idle_stop_tick() */
	}
}

static void note_lat(struct machine *m, double us, unsigned path)
{
	if (m->nlat == m->caplat) {
		m->caplat = m->caplat ? 2 * m->caplat : 4096;
		m->lat = realloc(m->lat, m->caplat * sizeof(*m->lat));
		m->lat_path = realloc(m->lat_path, m->caplat);
		if (!m->lat || !m->lat_path) {
			fprintf(stderr, "out of memory\n");
			exit(1);
		}
	}
	m->lat_path[m->nlat] = (unsigned char)path;
	m->lat[m->nlat++] = us;
}

/*
 * The wake path of woken task @n that @cpu takes now after @prev (the trace reader's
 * classification of Linux's, trace.c switch_in): the CPU idled since before the wake, or
 * preempted a task that stays runnable, or took it after a task stopped; local when it is
 * the waker's CPU. + LAT_DEEP: an idle remote CPU that had idled TRACE_IDLE_DEEP_NS.
 */
static unsigned wake_path(const struct machine *m, unsigned cpu, const struct mtask *n,
			  const struct mtask *prev)
{
	const struct mcpu *c = &m->cpu[cpu];
	int local = n->wake_cpu == (int)cpu;

	if (!c->curr && !prev && c->idle_since <= n->woken_at) {
		if (local)
			return TRACE_PATH_IDLE_LOCAL;
		return TRACE_PATH_IDLE_REMOTE +
		       (n->woken_at - c->idle_since >= (uint64_t)TRACE_IDLE_DEEP_NS ? LAT_DEEP : 0);
	}
	if (prev && prev->state == T_RUNNING)
		return !local ? TRACE_PATH_PREEMPT_REMOTE :
		       n->wake_irq ? TRACE_PATH_PREEMPT_IRQ : TRACE_PATH_PREEMPT_LOCAL;
	return TRACE_PATH_WAITED;
}

/* Pick the next task on @cpu (its current one has been put back or has stopped). */
void mach_dispatch(struct machine *m, unsigned cpu, struct mtask *prev)
{
	struct mcpu *c = &m->cpu[cpu];
	struct sched_task *st = m->ops->pick(m->s, cpu);
	struct mtask *n = (struct mtask *)st;
	unsigned path;

	if (n && n->state != T_QUEUED && n != prev) {
		mach_fail(m, "CPU %u picked task %u, which is not queued", cpu, n->st.id);
		return;
	}
	if (n && n != prev && n->qcpu != (int)cpu && !m->ops->global_queue) {
		mach_fail(m, "CPU %u picked task %u, queued on CPU %d", cpu, n->st.id, n->qcpu);
		return;
	}
	path = n && n->wake_pending ? wake_path(m, cpu, n, prev) : 0;
	if (m->perf) {
		struct mtask *from = c->perf_prev ? c->perf_prev : prev;

		mach_perf_switch(m, cpu, from, n, c->perf_prev ? c->perf_state : 'R');
		c->perf_prev = NULL;
		if (n && n != prev && n->last_cpu >= 0 && n->last_cpu != (int)cpu &&
		    m->ops->global_queue)
			mach_perf_migrate(m, cpu, n, (unsigned)n->last_cpu, cpu);
	}
	if (n != prev) {
		if (prev && prev->state == T_RUNNING) {
			mach_set_state(m, prev, T_QUEUED);
			prev->qcpu = prev->moved_to >= 0 ? prev->moved_to : (int)cpu;
			prev->moved_to = -1;
			prev->queued_at = m->now;
		}
		if (n) {
			m->switches++;
			n->nswitch++;
			c->debt += m->o.costs.ctx_switch_ns;
			c->overhead += m->o.costs.ctx_switch_ns;
		}
	}
	mach_log_switch(m, cpu, n);
	set_busy(m, cpu, n != NULL);
	c->curr = n;
	if (n) {
		if (n->state == T_QUEUED)
			m->rq_wait += (double)(m->now - n->queued_at);
		mach_set_state(m, n, T_RUNNING);
		n->qcpu = -1;
		if (n->wake_pending) {
			/* It runs once the switch (and any scheduler work) is done. */
			double us = ((double)(m->now - n->woken_at) + c->debt) / 1000.0;

			if (!n->bg)
				note_lat(m, us, path);
			n->wake_pending = 0;
			n->ndelay++;
			n->delay_sum += us;
			if (us > n->delay_max)
				n->delay_max = us;
		}
		if (n->last_cpu >= 0 && n->last_cpu != (int)cpu) {
			m->migrations++;
			/* one global queue (linux24): the task moves when another CPU picks it */
			if (m->ops->global_queue)
				m->mig_other += !n->bg;
			n->remain += (uint64_t)m->o.costs.migrate_cold_ns;
			if (m->topo.lead[2][n->last_cpu] != m->topo.lead[2][cpu])
				n->remain += (uint64_t)m->o.costs.remote_node_ns;
		}
		n->last_cpu = (int)cpu;
		/* n has run nothing yet here: a program step that stops it at once (it blocks or
		 * exits) must not account the CPU's time since its last segment (an idle CPU's
		 * seg_start is when it went idle) */
		if (n != prev && c->seg_start < m->now)
			c->seg_start = m->now;
		if (n->remain == 0)
			mach_next_action(m, n, cpu);
		if (c->curr == n)
			mach_start_segment(m, cpu);
	}
	/* A sibling's speed changed: restart the siblings' segments. */
	if (m->topo.smt > 1)
		for (unsigned x = m->topo.lead[0][cpu]; x < m->topo.lead[0][cpu] + m->topo.smt; x++)
			if (x != cpu && m->cpu[x].curr && m->cpu[x].speed != speed_of(m, x)) {
				mach_stop_segment(m, x);
				mach_start_segment(m, x);
			}
}

/* The running task of @cpu stops being runnable (blocks or exits). */
void mach_block_curr(struct machine *m, unsigned cpu, int exiting)
{
	struct mcpu *c = &m->cpu[cpu];
	struct mtask *t = c->curr;

	mach_stop_segment(m, cpu);
	m->ops->put_prev(m->s, cpu, &t->st, 0, m->now - t->st.timestamp);
	mach_set_state(m, t, exiting ? T_DEAD : T_BLOCKED);
	if (exiting) {
		struct mtask *p = t->parent >= 0 ? &m->t[t->parent] : NULL;

		m->ops->task_exit(m->s, &t->st, p && p->state != T_DEAD ? &p->st : NULL);
		m->live -= !t->bg;
	}
	if (!exiting) {
		m->vol += !t->bg;	/* an exit is no voluntary switch (Linux: prev_state Z/X) */
		t->nout++;
	}
	mach_log_switch(m, cpu, NULL);
	set_busy(m, cpu, 0);
	c->curr = NULL;
	c->perf_prev = t;	/* its switch is written with the next task's */
	c->perf_state = exiting ? 'Z' : 'S';
	mach_dispatch(m, cpu, NULL);
}

/*
 * sched_yield() of the task running on @cpu: it stays runnable, the scheduler moves it
 * where its yield() puts it, and @cpu picks again (perhaps the same task).
 */
void mach_yield_curr(struct machine *m, unsigned cpu)
{
	struct mcpu *c = &m->cpu[cpu];
	struct mtask *t = c->curr;

	m->yields++;
	if (m->ops->yield && !m->ops->yield(m->s, cpu, &t->st))
		return;
	mach_stop_segment(m, cpu);
	m->ops->put_prev(m->s, cpu, &t->st, 1, m->now - t->st.timestamp);
	mach_dispatch(m, cpu, t);
	if (c->curr != t) {
		m->invol += !t->bg;
		t->nout++;
	}
}

/* Make @t runnable, woken from @cpu. */
void mach_wake_task(struct machine *m, struct mtask *t, unsigned cpu, enum sched_wake_kind k)
{
	int from = m->kick_from;
	unsigned q;

	if (t->state != T_BLOCKED && t->state != T_NEW)
		return;
	mach_set_state(m, t, T_QUEUED);
	t->queued_at = t->woken_at = m->now;
	t->wake_cpu = (int)cpu;
	t->wake_irq = m->kick_irq;
	/* a replay measures what Linux's column does: the ends of sleeps, not forks */
	t->wake_pending = !(m->o.trace && k == SCHED_FORK);
	if (!t->bg && !m->wl_started) {
		m->wl_started = 1;
		m->wl_start = m->now;	/* Linux's makespan starts at the workload's first fork */
	}
	if (k == SCHED_WAKE_SYNC && !m->ops->wake_sync)
		k = SCHED_WAKE;	/* a scheduler that takes no hint */
	if (k != SCHED_FORK)
		mach_perf_wake(m, cpu, t, 0, t->last_cpu >= 0 ? (unsigned)t->last_cpu : cpu);
	m->kick_from = (int)cpu;	/* the CPUs it kicks are reached through the wake path */
	q = m->ops->wake(m->s, &t->st, cpu, k);
	m->kick_from = from;
	if (k == SCHED_FORK)
		mach_perf_wake(m, cpu, t, 1, q);
	else if (t->last_cpu >= 0)
		mach_perf_migrate(m, cpu, t, (unsigned)t->last_cpu, q);
	if (q >= m->topo.nr_cpus) {
		mach_fail(m, "the scheduler queued task %u on CPU %u", t->st.id, q);
		return;
	}
	t->qcpu = (int)q;
	if (k != SCHED_FORK && t->last_cpu >= 0 && q != (unsigned)t->last_cpu)
		m->mig_wakeup += !t->bg;
}
