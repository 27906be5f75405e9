/*
 * fw_cfs.c - the rules of CFS as of Linux 2.6.26 (kernel/sched_fair.c, kernel/sched.c):
 * the period and the slice, placement (START_DEBIT for a new task, the sleeper credit of
 * NEW_FAIR_SLEEPERS for a waking one), wakeup preemption with the wakeup granularity and
 * preemption at the tick. The run queue, group scheduling and balancing are the shared
 * core's (fw_fair.c). docs/cfs.md gives every constant with its source.
 */
#include "firmware/fw_fair.h"

#define MS 1000000ull

/* 2.6.26 defaults, before sched_init_granularity() scales them. */
#define CFS_LATENCY (20 * MS)		/* sysctl_sched_latency */
#define CFS_MIN_GRANULARITY (4 * MS)	/* sysctl_sched_min_granularity */
#define CFS_NR_LATENCY 5u		/* sched_nr_latency = 20 / 4 */
#define CFS_WAKEUP_GRANULARITY (10 * MS)	/* sysctl_sched_wakeup_granularity */
#define CFS_MIGRATION_COST 500000ull	/* sysctl_sched_migration_cost, 0.5 ms */
#define CFS_LIMIT (200 * MS)		/* sched_init_granularity()'s cap */

static unsigned ilog2u(unsigned v)
{
	unsigned r = 0;

	while (v >>= 1)
		r++;
	return r;
}

static uint64_t capped(uint64_t v)
{
	return v > CFS_LIMIT ? CFS_LIMIT : v;
}

/* sched_init_granularity(): factor 1 + ilog2(online CPUs), latency and min_granularity
 * capped at 200 ms; sched_nr_latency stays 5. */
void cfs_tunables(unsigned nr_cpus, struct fair_tun *t)
{
	unsigned factor = 1 + ilog2u(nr_cpus ? nr_cpus : 1);

	*t = (struct fair_tun){ 0 };
	t->latency = capped(CFS_LATENCY * factor);
	t->min_granularity = capped(CFS_MIN_GRANULARITY * factor);
	t->wakeup_granularity = CFS_WAKEUP_GRANULARITY * factor;
	t->nr_latency = CFS_NR_LATENCY;
	t->migration_cost = CFS_MIGRATION_COST;
	t->child_runs_first = 1;	/* sysctl_sched_child_runs_first */
}

uint64_t cfs_sched_period(const struct fair_tun *t, unsigned nr_running)
{
	if (nr_running > t->nr_latency)
		return t->min_granularity * nr_running;
	return t->latency;
}

uint64_t cfs_sched_slice(const struct fair_tun *t, const struct fair_rq *rq,
			 const struct fair_ent *se)
{
	uint64_t load = rq->load ? rq->load : se->weight;

	return cfs_sched_period(t, rq->nr_running) * se->weight / (load ? load : 1);
}

static int before(uint64_t a, uint64_t b)
{
	return (int64_t)(a - b) < 0;
}

/*
 * place_entity() with 2.6.26's features (START_DEBIT and NEW_FAIR_SLEEPERS on, TREE_AVG
 * and APPROX_AVG off): a new task starts one virtual slice of the queue it joins after
 * min_vruntime (sched_vslice_add(): period(nr + 1) x NICE_0_LOAD / (load + weight)); a
 * waking one at min_vruntime - latency, but never before its own vruntime.
 */
void cfs_place(const struct fair_tun *t, struct fair_rq *rq, struct fair_ent *se, int flags)
{
	uint64_t v = rq->min_vruntime;

	if (flags & FAIR_ENQ_INITIAL) {
		v += cfs_sched_period(t, rq->nr_running + 1) * FAIR_NICE_0_LOAD /
		     (rq->load + se->weight);
	} else if (flags & FAIR_ENQ_WAKEUP) {
		v -= t->latency;
		if (before(v, se->vruntime))
			v = se->vruntime;
	} else {
		return;
	}
	se->vruntime = v;
}

/*
 * check_preempt_wakeup() of 2.6.25/2.6.26: the woken @se preempts @curr when
 * se.vruntime + gran < curr.vruntime, gran = wakeup_granularity, scaled down by the
 * current entity's weight when it is above nice 0 ("more easily preempt - nice tasks").
 */
int cfs_wakeup_preempt(const struct fair_tun *t, const struct fair_ent *curr,
		       const struct fair_ent *se)
{
	uint64_t gran = t->wakeup_granularity;

	if (curr->weight > FAIR_NICE_0_LOAD)
		gran = fair_calc_delta(gran, curr->weight);
	return before(se->vruntime + gran, curr->vruntime);
}

int cfs_tick_preempt(const struct fair_tun *t, const struct fair_rq *rq,
		     const struct fair_ent *curr)
{
	return curr->sum_exec - curr->prev_sum_exec > cfs_sched_slice(t, rq, curr);
}

static void place(const struct fair_tun *t, struct fair_rq *rq, struct fair_ent *se, int flags)
{
	cfs_place(t, rq, se, flags);
}

static struct fair_ent *pick(const struct fair_rq *rq)
{
	return fair_leftmost(rq);
}

static int wakeup_preempt(const struct fair_tun *t, const struct fair_rq *rq,
			  const struct fair_ent *curr, const struct fair_ent *se)
{
	(void)rq;
	return cfs_wakeup_preempt(t, curr, se);
}

const struct fair_policy fair_cfs_policy = {
	.tunables = cfs_tunables,
	.place = place,
	.place_always = 0,
	.pick = pick,
	.curr_updated = NULL,
	.tick_preempt = cfs_tick_preempt,
	.wakeup_preempt = wakeup_preempt,
	.dequeued = NULL,
	.picked = NULL,
	.min_on_dequeue = 0,
};
