/*
 * fw_eevdf.c - the rules of EEVDF as in Linux 6.6 (kernel/sched/fair.c): the weighted
 * average vruntime, lag and eligibility, the virtual deadline of a request of one base
 * slice, the pick of the eligible entity with the earliest deadline (RUN_TO_PARITY on),
 * placement with the saved lag (PLACE_LAG, PLACE_DEADLINE_INITIAL) and wakeup preemption
 * by the pick. The run queue, groups and balancing are the shared core's (fw_fair.c).
 * docs/eevdf.md gives the constants and what is simplified.
 */
#include "firmware/fw_fair.h"

#define BASE_SLICE 750000ull	/* sysctl_sched_base_slice, 0.75 ms (6.6-6.14) */
#define BASE_SLICE_615 700000ull	/* 0.70 ms from 6.15 (kernel/sched/fair.c) */
#define MIGRATION_COST 500000ull	/* sysctl_sched_migration_cost */
#define TICK_NSEC 1000000ll	/* HZ = 1000 */

static unsigned ilog2u(unsigned v)
{
	unsigned r = 0;

	while (v >>= 1)
		r++;
	return r;
}

/* sched_update_scaling() with SCHED_TUNABLESCALING_LOG: factor 1 + ilog2(min(CPUs, 8)). */
void eevdf_tunables(unsigned nr_cpus, struct fair_tun *t)
{
	unsigned n = nr_cpus < 8 ? nr_cpus : 8;

	*t = (struct fair_tun){ 0 };
	t->base_slice = BASE_SLICE * (1 + ilog2u(n ? n : 1));
	t->migration_cost = MIGRATION_COST;
}

void eevdf_version(unsigned kernel, unsigned nr_cpus, struct fair_tun *t)
{
	unsigned n = nr_cpus < 8 ? nr_cpus : 8;

	t->kernel = kernel ? kernel : 606;
	t->linux6 = 1;
	t->delay_dequeue = t->preempt_short = t->kernel >= 612;
	if (t->kernel >= 615)
		t->base_slice = BASE_SLICE_615 * (1 + ilog2u(n ? n : 1));
}

static int64_t key_of(const struct fair_rq *rq, const struct fair_ent *se)
{
	return (int64_t)(se->vruntime - rq->min_vruntime);
}

/* The queue's sum of key x weight and load, curr included (avg_vruntime()'s start). */
static void sums(const struct fair_rq *rq, int64_t *avg, int64_t *load)
{
	const struct fair_ent *curr = rq->curr;

	*avg = rq->avg_vruntime;
	*load = (int64_t)rq->avg_load;
	if (curr && curr->on_rq) {
		*avg += key_of(rq, curr) * (int64_t)curr->weight;
		*load += curr->weight;
	}
}

uint64_t eevdf_avg_vruntime(const struct fair_rq *rq)
{
	int64_t avg, load;

	sums(rq, &avg, &load);
	if (load) {
		/* sign flips effective floor / ceil */
		if (avg < 0)
			avg -= load - 1;
		avg /= load;
	}
	return rq->min_vruntime + (uint64_t)avg;
}

int eevdf_eligible(const struct fair_rq *rq, const struct fair_ent *se)
{
	int64_t avg, load;

	sums(rq, &avg, &load);
	return avg >= key_of(rq, se) * load;
}

void eevdf_save_lag(const struct fair_tun *t, struct fair_rq *rq, struct fair_ent *se)
{
	int64_t lag = (int64_t)(eevdf_avg_vruntime(rq) - se->vruntime);
	uint64_t tick = t->tick_nsec ? t->tick_nsec : (uint64_t)TICK_NSEC;
	int64_t lim = (int64_t)fair_calc_delta(2 * se->slice > tick ? 2 * se->slice : tick,
					       se->weight);

	se->vlag = lag < -lim ? -lim : lag > lim ? lim : lag;
}

void eevdf_place(const struct fair_tun *t, struct fair_rq *rq, struct fair_ent *se, int flags)
{
	uint64_t vslice, v = eevdf_avg_vruntime(rq);
	int64_t lag = 0;

	se->slice = t->base_slice;
	vslice = fair_calc_delta(se->slice, se->weight);
	if (rq->nr_running) {
		/* The lag is of the queue with the entity in it: scale it so that it survives
		 * the entity's own weight moving the average (6.6's long comment). */
		int64_t load = (int64_t)rq->avg_load;

		if (rq->curr && rq->curr->on_rq)
			load += rq->curr->weight;
		lag = se->vlag * (load + (int64_t)se->weight);
		if (!load)
			load = 1;
		lag /= load;
	}
	se->vruntime = v - (uint64_t)lag;
	if (flags & FAIR_ENQ_INITIAL)
		vslice /= 2;	/* PLACE_DEADLINE_INITIAL */
	se->deadline = se->vruntime + vslice;
}

static int deadline_gt(uint64_t a, uint64_t b)
{
	return (int64_t)(a - b) > 0;
}

/* The entity of @node's subtree whose deadline is the subtree's min_deadline. */
static struct fair_ent *find_min_deadline(struct fair_ent *node)
{
	while (node) {
		if (node->left && node->left->min_deadline == node->min_deadline)
			node = node->left;
		else if (node->deadline == node->min_deadline)
			return node;
		else
			node = node->right;
	}
	return NULL;
}

/*
 * pick_eevdf(): eligible entities are a prefix of the vruntime order, so one descent
 * finds the best eligible node on the path and the eligible left subtree with the least
 * min_deadline; the answer is the better of the two. curr competes while eligible, and
 * wins outright while it has not yet had a new slice (RUN_TO_PARITY).
 */
struct fair_ent *eevdf_pick(const struct fair_rq *rq)
{
	struct fair_ent *node = rq->root, *curr = rq->curr, *best, *best_left = NULL;

	if (curr && (!curr->on_rq || !eevdf_eligible(rq, curr)))
		curr = NULL;
	best = curr;
	if (curr && (uint64_t)curr->vlag == curr->deadline)
		return curr;
	while (node) {
		if (!eevdf_eligible(rq, node)) {
			node = node->left;
			continue;
		}
		if (!best || deadline_gt(best->deadline, node->deadline))
			best = node;
		if (node->left) {
			if (!best_left || deadline_gt(best_left->min_deadline, node->left->min_deadline))
				best_left = node->left;
			if (node->left->min_deadline == node->min_deadline)
				break;
		}
		if (node->deadline == node->min_deadline)
			break;
		node = node->right;
	}
	if (!best_left || (int64_t)(best_left->min_deadline - best->deadline) > 0)
		return best;
	return find_min_deadline(best_left);
}

int eevdf_update_deadline(const struct fair_tun *t, struct fair_rq *rq, struct fair_ent *se)
{
	if ((int64_t)(se->vruntime - se->deadline) < 0)
		return 0;
	se->slice = t->base_slice;
	se->deadline = se->vruntime + fair_calc_delta(se->slice, se->weight);
	return rq->nr_running > 1;
}

static struct fair_ent *pick(const struct fair_rq *rq)
{
	struct fair_ent *se = eevdf_pick(rq);

	return se ? se : fair_leftmost(rq);
}

static int wakeup_preempt(const struct fair_tun *t, const struct fair_rq *rq,
			  const struct fair_ent *curr, const struct fair_ent *se)
{
	(void)t;
	(void)curr;
	return eevdf_pick(rq) == se;
}

static void picked(struct fair_ent *se)
{
	se->vlag = (int64_t)se->deadline;	/* RUN_TO_PARITY's mark (6.6's HACK) */
}

const struct fair_policy fair_eevdf_policy = {
	.tunables = eevdf_tunables,
	.place = eevdf_place,
	.place_always = 1,
	.pick = pick,
	.curr_updated = eevdf_update_deadline,
	.tick_preempt = NULL,
	.wakeup_preempt = wakeup_preempt,
	.dequeued = eevdf_save_lag,
	.picked = picked,
	.min_on_dequeue = 1,
};
