/*
 * fw_fair.c - the core the fair policies share (fw_fair.h): run queues of sched entities
 * in a vruntime-ordered tree, the hierarchy of task groups (one entity and one run queue
 * per group per CPU, under the CPU's root queue), the shares update and h_load of the SMP
 * group balancer, domain balancing with the O(1) firmware's rules (fw_domain.c,
 * lib/hws_balance.c) and wakeup placement with select_idle_sibling (lib/hws_balance.c's
 * scan over lib/hws_topo.c's domains). A policy (fw_cfs.c, fw_eevdf.c) says how entities
 * are placed, picked and preempted. docs/cfs.md, docs/eevdf.md.
 *
 * As in Linux, the running entity of each queue is its curr, counted in its load but out
 * of its tree; the machine's rule (include/hws/sched.h) that a running task is not queued
 * is kept by nr_queued(), which leaves the running task out.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "firmware/fw_fair_int.h"

/* ---- The tree: a treap ordered by (vruntime, key), a heap by hprio ---- */

static int ent_before(const struct fair_ent *a, const struct fair_ent *b)
{
	int64_t d = (int64_t)(a->vruntime - b->vruntime);

	return d < 0 || (d == 0 && a->key < b->key);
}

static void ent_update(struct fair_ent *n)
{
	uint64_t m = n->deadline;

	if (n->left && (int64_t)(n->left->min_deadline - m) < 0)
		m = n->left->min_deadline;
	if (n->right && (int64_t)(n->right->min_deadline - m) < 0)
		m = n->right->min_deadline;
	n->min_deadline = m;
}

/* Split @t into the entities before @x and the others. */
static void split(struct fair_ent *t, const struct fair_ent *x, struct fair_ent **l,
		  struct fair_ent **r)
{
	if (!t) {
		*l = *r = NULL;
	} else if (ent_before(t, x)) {
		split(t->right, x, &t->right, r);
		ent_update(t);
		*l = t;
	} else {
		split(t->left, x, l, &t->left);
		ent_update(t);
		*r = t;
	}
}

static struct fair_ent *merge(struct fair_ent *l, struct fair_ent *r)
{
	if (!l)
		return r;
	if (!r)
		return l;
	if (l->hprio > r->hprio) {
		l->right = merge(l->right, r);
		ent_update(l);
		return l;
	}
	r->left = merge(l, r->left);
	ent_update(r);
	return r;
}

static struct fair_ent *insert(struct fair_ent *t, struct fair_ent *x)
{
	if (!t) {
		x->left = x->right = NULL;
		ent_update(x);
		return x;
	}
	if (x->hprio > t->hprio) {
		split(t, x, &x->left, &x->right);
		ent_update(x);
		return x;
	}
	if (ent_before(x, t))
		t->left = insert(t->left, x);
	else
		t->right = insert(t->right, x);
	ent_update(t);
	return t;
}

static struct fair_ent *erase(struct fair_ent *t, struct fair_ent *x)
{
	if (!t)
		return NULL;
	if (t == x)
		return merge(t->left, t->right);
	if (ent_before(x, t))
		t->left = erase(t->left, x);
	else
		t->right = erase(t->right, x);
	ent_update(t);
	return t;
}

void fair_rq_init(struct fair_rq *rq)
{
	memset(rq, 0, sizeof(*rq));
}

uint64_t fair_calc_delta(uint64_t delta, uint32_t weight)
{
	if (weight == FAIR_NICE_0_LOAD || !weight)
		return delta;
	return delta * FAIR_NICE_0_LOAD / weight;
}

static int64_t key_of(const struct fair_rq *rq, const struct fair_ent *se)
{
	return (int64_t)(se->vruntime - rq->min_vruntime);
}

void fair_tree_insert(struct fair_rq *rq, struct fair_ent *se)
{
	rq->root = insert(rq->root, se);
	rq->avg_vruntime += key_of(rq, se) * (int64_t)se->weight;
	rq->avg_load += se->weight;
}

void fair_tree_remove(struct fair_rq *rq, struct fair_ent *se)
{
	rq->root = erase(rq->root, se);
	se->left = se->right = NULL;
	rq->avg_vruntime -= key_of(rq, se) * (int64_t)se->weight;
	rq->avg_load -= se->weight;
}

struct fair_ent *fair_leftmost(const struct fair_rq *rq)
{
	struct fair_ent *n = rq->root;

	while (n && n->left)
		n = n->left;
	return n;
}

void fair_account_add(struct fair_rq *rq, struct fair_ent *se)
{
	rq->load += se->weight;
	rq->nr_running++;
	if (se != rq->curr)
		fair_tree_insert(rq, se);
	se->on_rq = 1;
}

void fair_account_remove(struct fair_rq *rq, struct fair_ent *se)
{
	if (se != rq->curr)
		fair_tree_remove(rq, se);
	rq->load -= se->weight;
	rq->nr_running--;
	se->on_rq = 0;
}

void fair_update_min_vruntime(struct fair_rq *rq)
{
	struct fair_ent *curr = rq->curr, *left = fair_leftmost(rq);
	uint64_t v = rq->min_vruntime;

	if (curr && !curr->on_rq)
		curr = NULL;
	if (curr)
		v = curr->vruntime;
	if (left)
		v = !curr || (int64_t)(left->vruntime - v) < 0 ? left->vruntime : v;
	if ((int64_t)(v - rq->min_vruntime) > 0) {
		/* the tree's keys are relative to min_vruntime: move their sum with it */
		rq->avg_vruntime -= (int64_t)rq->avg_load * (int64_t)(v - rq->min_vruntime);
		rq->min_vruntime = v;
	}
}

void fair_charge_curr(struct fair_rq *rq, uint64_t delta)
{
	struct fair_ent *curr = rq->curr;

	curr->sum_exec += delta;
	curr->vruntime += fair_calc_delta(delta, curr->weight);
	fair_update_min_vruntime(rq);
}

uint32_t fair_group_share(uint32_t shares, uint64_t rq_weight, uint64_t sum_weight)
{
	uint64_t sh;

	if (!sum_weight)
		sum_weight = FAIR_NICE_0_LOAD;
	if (!rq_weight)
		rq_weight = FAIR_NICE_0_LOAD;
	if (rq_weight > sum_weight)
		rq_weight = sum_weight;
	sh = (uint64_t)shares * rq_weight / (sum_weight + 1);
	return (uint32_t)(sh < FAIR_MIN_SHARES ? FAIR_MIN_SHARES :
			  sh > FAIR_MAX_SHARES ? FAIR_MAX_SHARES : sh);
}

/* ---- The scheduler (its state: fw_fair_int.h) ---- */

static uint64_t now(const struct sched *s)
{
	return s->env->now(s->env->machine);
}

uint64_t fair_now(const struct sched *s)
{
	return now(s);
}

static void charge_ops(struct sched *s, unsigned cpu, double n)
{
	s->env->charge(s->env->machine, cpu, n * s->opts.costs.sw_op_ns, SCHED_WORK_SW_OP);
}

/*
 * The machine's coherence model (sched_env's lock and touch; NULL without a profile): the
 * CPU under way takes @cpu's run-queue lock for one operation and writes the task's line
 * (its sched_entity lives in its task_struct).
 */
static void rq_lock(struct sched *s, unsigned cpu)
{
	if (s->env->lock)
		s->env->lock(s->env->machine, s->on_cpu, SCHED_LINE_RQ(cpu), s->opts.costs.sw_op_ns);
}

static void task_line(struct sched *s, unsigned id)
{
	if (s->env->touch)
		s->env->touch(s->env->machine, s->on_cpu, SCHED_LINE_TASK(id), 1);
}

static uint32_t hash32(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x85ebca6bu;
	x ^= x >> 13;
	x *= 0xc2b2ae35u;
	x ^= x >> 16;
	return x;
}

static struct fair_rq *rq_of(struct sched *s, unsigned group, unsigned cpu)
{
	return group ? &s->grq[(group - 1) * s->ncpu + cpu] : &s->c[cpu].root;
}

static struct ftask *ft_of(struct fair_ent *se)
{
	return (struct ftask *)(void *)se;
}

static unsigned id_of(struct sched *s, struct fair_ent *se)
{
	return (unsigned)(ft_of(se) - s->t);
}

static int allowed(const struct sched_task *t, unsigned cpu)
{
	return (int)(t->allowed >> cpu & 1);
}

/* update_curr() of one queue on @cpu. */
static void update_curr(struct sched *s, struct fair_rq *rq)
{
	struct fair_ent *curr = rq->curr;
	uint64_t t = now(s), delta;

	if (!curr)
		return;
	delta = t - curr->exec_start;
	if ((int64_t)delta <= 0)
		return;
	curr->exec_start = t;
	fair_charge_curr(rq, delta);
	if (s->pol->curr_updated && s->pol->curr_updated(&s->tun, rq, curr))
		s->c[rq->cpu].resched = 1;
	else if (s->tun.preempt_short && rq->nr_running > 1 &&
		 (uint64_t)curr->vlag != curr->deadline && !eevdf_eligible(rq, curr))
		s->c[rq->cpu].resched = 1;	/* 6.12's did_preempt_short(): its slice is
						   no longer protected and it fell behind */
}

/* update_curr() at every level of the task running on @cpu. */
static void update_curr_chain(struct sched *s, unsigned cpu)
{
	struct sched_task *t = s->c[cpu].curr;

	for (struct fair_rq *rq = t ? rq_of(s, t->group, cpu) : NULL; rq; rq = rq->parent)
		update_curr(s, rq);
}

static void enqueue_entity(struct sched *s, struct fair_rq *rq, struct fair_ent *se, int flags)
{
	update_curr(s, rq);
	if (s->pol->place_always || (flags & (FAIR_ENQ_WAKEUP | FAIR_ENQ_INITIAL)))
		s->pol->place(&s->tun, rq, se, flags);
	fair_account_add(rq, se);
}

static void dequeue_entity(struct sched *s, struct fair_rq *rq, struct fair_ent *se)
{
	update_curr(s, rq);
	if (s->pol->dequeued)
		s->pol->dequeued(&s->tun, rq, se);
	fair_account_remove(rq, se);
	if (s->pol->min_on_dequeue)
		fair_update_min_vruntime(rq);
}

static void list_add(struct sched *s, unsigned id, unsigned cpu)
{
	struct ftask *f = &s->t[id];
	struct fcpu *c = &s->c[cpu];

	f->cpu = (int)cpu;
	f->prev = NIL;
	f->next = c->head;
	if (c->head != NIL)
		s->t[c->head].prev = (int)id;
	else
		c->tail = (int)id;
	c->head = (int)id;
	c->nr++;
	if (c->nr >= 2)
		s->rd_overloaded = 1;	/* add_nr_running()'s set_rd_overloaded() */
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
	else
		c->tail = f->prev;
	c->nr--;
	f->cpu = NIL;
}

/* @id to the head of its CPU's list (set_next_task_fair()'s list_move: it just ran). */
static void list_front(struct sched *s, unsigned id)
{
	unsigned cpu = (unsigned)s->t[id].cpu;

	list_del(s, id);
	list_add(s, id, cpu);
}

static void update_group_shares(struct sched *s, unsigned g);

/* enqueue_task_fair(): the task's entity, then each group entity not yet queued. */
static void enqueue_task(struct sched *s, struct sched_task *t, unsigned cpu, int flags)
{
	struct ftask *f = &s->t[t->id];
	struct fair_rq *rq = rq_of(s, t->group, cpu);
	struct fair_ent *se = &f->se;

	if (s->tun.linux6) {
		/* its averages and both CPUs', before it becomes runnable; they follow it */
		fair6_pelt_task(s, t);
		fair6_pelt_cpu(s, cpu);
		fair6_pelt_move(s, t, cpu);
	}
	/* A vruntime kept relative to another CPU's queue moves with the task
	 * (2.6.26 set_task_cpu(): vruntime -= old min_vruntime - new min_vruntime). */
	if (f->rq_cpu != NIL && f->rq_cpu != (int)cpu)
		se->vruntime = se->vruntime - rq_of(s, t->group, (unsigned)f->rq_cpu)->min_vruntime +
			       rq->min_vruntime;
	f->rq_cpu = (int)cpu;
	while (se && !se->on_rq) {
		enqueue_entity(s, rq, se, flags);
		if (se == &f->se && f->has_rel_deadline) {
			/* PLACE_REL_DEADLINE (6.12): a moved task keeps its deadline's distance */
			int in_tree = se != rq->curr;

			if (in_tree)
				fair_tree_remove(rq, se);
			se->deadline = se->vruntime + (uint64_t)f->rel_deadline;
			f->has_rel_deadline = 0;
			if (in_tree)
				fair_tree_insert(rq, se);
		}
		flags = FAIR_ENQ_WAKEUP;
		se = rq->se;
		rq = rq->parent;
	}
	list_add(s, t->id, cpu);
	t->cpu = (int)cpu;
	charge_ops(s, cpu, 1);
	rq_lock(s, cpu);
	task_line(s, t->id);
	if (t->group && !s->tick_shares)
		update_group_shares(s, t->group);
}

/* dequeue_task_fair(): up the hierarchy while a queue becomes empty. */
static void dequeue_task(struct sched *s, struct sched_task *t, unsigned cpu)
{
	struct fair_rq *rq = rq_of(s, t->group, cpu);
	struct fair_ent *se = &s->t[t->id].se;

	if (s->tun.linux6)
		fair6_pelt_task(s, t);
	while (se) {
		dequeue_entity(s, rq, se);
		if (rq->nr_running)
			break;
		se = rq->se;
		rq = rq->parent;
	}
	list_del(s, t->id);
	charge_ops(s, cpu, 1);
	rq_lock(s, cpu);
	task_line(s, t->id);
	if (t->group && !s->tick_shares)
		update_group_shares(s, t->group);
}

/*
 * The running task @t blocks (dequeue with DEQUEUE_SLEEP). Since 6.12 (DELAY_DEQUEUE) a
 * task that is not eligible stays on its queue, still competing, until it would be
 * picked: then it leaves (finish_delayed) with a lag of at most 0 (DELAY_ZERO). The
 * machine sees it blocked either way.
 */
static void block_task(struct sched *s, struct sched_task *t, unsigned cpu)
{
	struct ftask *f = &s->t[t->id];
	struct fair_rq *rq = rq_of(s, t->group, cpu);

	if (s->tun.delay_dequeue) {
		update_curr(s, rq);
		if (!eevdf_eligible(rq, &f->se)) {
			fair6_pelt_task(s, t);
			f->delayed = 1;
			s->c[cpu].nr_delayed++;
			s->delayed_dequeues++;
			return;
		}
	}
	dequeue_task(s, t, cpu);
}

/* A delayed task's queue picked it: it leaves now (finish_delayed_dequeue_entity()). */
static void finish_delayed(struct sched *s, struct sched_task *t, unsigned cpu)
{
	struct ftask *f = &s->t[t->id];

	fair6_pelt_task(s, t);
	f->delayed = 0;
	s->c[cpu].nr_delayed--;
	dequeue_task(s, t, cpu);
	if (f->se.vlag > 0)
		f->se.vlag = 0;	/* DELAY_ZERO */
}

/*
 * A delayed task is woken where it still is (ttwu_runnable(): no CPU is chosen):
 * requeue_delayed_entity(), which gives it a fresh place at lag 0 if it has caught up
 * (DELAY_ZERO).
 */
static void requeue_delayed(struct sched *s, struct sched_task *t, unsigned cpu)
{
	struct ftask *f = &s->t[t->id];
	struct fair_rq *rq = rq_of(s, t->group, cpu);
	struct fair_ent *se = &f->se;

	fair6_pelt_task(s, t);
	update_curr(s, rq);
	eevdf_save_lag(&s->tun, rq, se);
	if (se->vlag > 0) {
		int in_tree = se != rq->curr;

		if (in_tree)
			fair_tree_remove(rq, se);
		rq->nr_running--;
		se->vlag = 0;
		eevdf_place(&s->tun, rq, se, 0);
		rq->nr_running++;
		if (in_tree)
			fair_tree_insert(rq, se);
	}
	f->delayed = 0;
	s->c[cpu].nr_delayed--;
}

/* Change a group entity's weight (its share on this CPU) in place. */
static void reweight(struct sched *s, struct fair_ent *se, struct fair_rq *rq, uint32_t w)
{
	int in_tree = se->on_rq && se != rq->curr;

	if (se->weight == w)
		return;
	if (s->tun.linux6)
		fair6_pelt_cpu(s, rq->cpu);
	if (se->on_rq)
		update_curr(s, rq);
	if (in_tree)
		fair_tree_remove(rq, se);
	if (se->on_rq)
		rq->load = rq->load - se->weight + w;
	se->weight = w;
	if (in_tree)
		fair_tree_insert(rq, se);
	s->reweights++;
}

/*
 * The shares update (2.6.27's update_shares() over the whole machine): every tick from
 * CPU 0, and for one group at every enqueue and dequeue of its tasks unless tick_shares
 * (update_cfs_shares()'s pace, 2.6.38).
 */
static void update_group_shares(struct sched *s, unsigned g)
{
	uint64_t sum = 0;

	for (unsigned x = 0; x < s->ncpu; x++)
		sum += rq_of(s, g, x)->load;
	for (unsigned x = 0; x < s->ncpu; x++)
		reweight(s, &s->gse[(g - 1) * s->ncpu + x], &s->c[x].root,
			 fair_group_share(s->env->group_shares[g], rq_of(s, g, x)->load, sum));
}

static void update_shares(struct sched *s, unsigned cpu)
{
	for (unsigned g = 1; g < s->ngroups; g++)
		update_group_shares(s, g);
	if (s->ngroups > 1)
		charge_ops(s, cpu, (s->ngroups - 1) * s->ncpu / 4.0);
}

/* A task's h_load: its weight as a share of its group's entity on its CPU. */
static uint64_t h_load(struct sched *s, const struct sched_task *t, unsigned cpu)
{
	uint64_t w = s->t[t->id].se.weight;
	struct fair_rq *rq;

	if (!t->group)
		return w;
	rq = rq_of(s, t->group, cpu);
	return rq->load ? w * rq->se->weight / rq->load : w;
}

/* ---- Preemption ---- */

/*
 * check_preempt_wakeup(): @t was just queued on @cpu. Compare it with the running task at
 * the level where both have an entity on one queue (the same group's queue, else the root
 * one with their groups' entities); kick @cpu when the policy says @t preempts.
 */
static void check_preempt(struct sched *s, unsigned cpu, struct sched_task *t)
{
	struct fcpu *c = &s->c[cpu];
	struct sched_task *curr = c->curr;
	struct fair_ent *se, *pse;
	struct fair_rq *rq;

	if (!curr) {
		s->env->kick(s->env->machine, cpu);
		return;
	}
	update_curr_chain(s, cpu);
	se = &s->t[curr->id].se;
	pse = &s->t[t->id].se;
	if (curr->group == t->group) {
		rq = rq_of(s, t->group, cpu);
	} else {
		rq = &c->root;
		if (curr->group)
			se = rq_of(s, curr->group, cpu)->se;
		if (t->group)
			pse = rq_of(s, t->group, cpu)->se;
	}
	if (c->resched || (rq->curr == se && s->pol->wakeup_preempt(&s->tun, rq, se, pse))) {
		c->resched = 0;
		s->wake_preempts++;
		s->env->kick(s->env->machine, cpu);
	}
}

/* ---- Balancing (2.6.2x load_balance() over the shared domain code) ---- */

static void cpu_loads(struct sched *s, struct hws_cpu_load *l)
{
	for (unsigned x = 0; x < s->ncpu; x++) {
		uint64_t n = s->c[x].root.load;

		l[x].now = (uint32_t)(n > UINT32_MAX ? UINT32_MAX : n);
		l[x].hist = s->c[x].hist;
	}
}

static int task_hot(struct sched *s, const struct sched_task *t)
{
	return now(s) - s->t[t->id].se.exec_start < s->tun.migration_cost;
}

/* Move queued (not running) @t from @from to @to. */
static void move_task(struct sched *s, struct sched_task *t, unsigned from, unsigned to)
{
	struct ftask *f = &s->t[t->id];

	if (s->tun.delay_dequeue) {	/* PLACE_REL_DEADLINE: a move keeps the deadline */
		f->rel_deadline = (int64_t)(f->se.deadline - f->se.vruntime);
		f->has_rel_deadline = 1;
	}
	dequeue_task(s, t, from);
	if (s->tun.linux6)
		f->se.exec_start = 0;	/* ENQUEUE_MIGRATED: no longer cache-hot */
	enqueue_task(s, t, to, 0);
	s->env->moved(s->env->machine, t, from, to);
	s->env->charge(s->env->machine, to, s->opts.costs.sw_op_ns, SCHED_WORK_MIGRATE);
	s->moves++;
}

/* ---- The core's operations, for fw_fair6.c (fw_fair_int.h) ---- */

int fair_allowed(const struct sched_task *t, unsigned cpu)
{
	return allowed(t, cpu);
}

struct fair_rq *fair_rq_of(struct sched *s, unsigned group, unsigned cpu)
{
	return rq_of(s, group, cpu);
}

void fair_check_preempt(struct sched *s, unsigned cpu, struct sched_task *t)
{
	check_preempt(s, cpu, t);
}

void fair_update_curr_chain(struct sched *s, unsigned cpu)
{
	update_curr_chain(s, cpu);
}

void fair_move_task(struct sched *s, struct sched_task *t, unsigned from, unsigned to)
{
	move_task(s, t, from, to);
}

/*
 * balance_tasks(): pull up to @imbalance of h_load from @busiest to @this, skipping the
 * running task, tasks not allowed on @this, cache-hot ones (run within migration_cost)
 * unless balancing failed more than cache_nice_tries times or @force, and tasks whose
 * h_load is more than twice what is left to move. @force moves one task.
 */
static unsigned move_tasks(struct sched *s, unsigned this, unsigned busiest, uint64_t imbalance,
			   int level, int force)
{
	int64_t rem = (int64_t)imbalance;
	unsigned moved = 0, scanned = 0;
	int id = s->c[busiest].head, nxt;

	for (; id != NIL && rem > 0; id = nxt) {
		struct sched_task *t = s->tp[id];
		int64_t h;

		nxt = s->t[id].next;
		scanned++;
		if (!t || t == s->c[busiest].curr || !allowed(t, this))
			continue;
		if (!force && task_hot(s, t) &&
		    s->c[this].failed[level] <= fw_sd_params[level].cache_nice_tries)
			continue;
		h = (int64_t)h_load(s, t, busiest);
		if (!force && h > 2 * rem)
			continue;
		move_task(s, t, busiest, this);
		check_preempt(s, this, t);
		rem -= h;
		moved++;
		if (force)
			break;
	}
	charge_ops(s, this, scanned / 4.0);
	return moved;
}

/* The migration thread's push: move the task running on @busiest once it is off. */
static unsigned push_running(struct sched *s, unsigned this, unsigned busiest)
{
	struct sched_task *curr = s->c[busiest].curr;

	if (!curr || !allowed(curr, this) || s->c[busiest].push_task != NIL)
		return 0;
	s->c[busiest].push_task = (int)curr->id;
	s->c[busiest].push_to = this;
	s->env->kick(s->env->machine, busiest);
	return 1;
}

/* The busiest CPU of the busiest group: the smpnice rules (fw_domain.c). */
static int find_busiest_cpu(struct sched *s, unsigned cpu, int level, const struct hws_balance *b,
			    const struct hws_cpu_load *l, enum hws_idle_type idle, uint64_t *imb)
{
	const struct sched_topo *tp = s->env->topo;
	unsigned dom = hws_block(tp->lead, (unsigned)level + 1, cpu), bnr = 0, tnr = 0;
	uint64_t bw = 0, tw = 0, pw = fw_group_power(tp, (unsigned)level), best_wl = 0;
	int best = -1;

	if (b->verdict != HWS_BAL_MOVE && b->verdict != HWS_BAL_MOVE_ONE &&
	    b->verdict != HWS_BAL_NO_GAIN)
		return -1;
	for (unsigned x = 0; x < s->ncpu; x++) {
		unsigned g;

		if (hws_block(tp->lead, (unsigned)level + 1, x) != dom)
			continue;
		g = hws_block(tp->lead, (unsigned)level, x);
		if (g == (unsigned)b->busiest_group) {
			bw += s->c[x].root.load;
			bnr += s->c[x].nr;
		} else if (g == (unsigned)b->this_group) {
			tw += s->c[x].root.load;
			tnr += s->c[x].nr;
		}
	}
	if (fw_smpnice_imbalance(b->max_load, b->avg_load, b->this_load, bw, bnr, tw, tnr, pw, pw,
				 imb))
		return -1;
	for (unsigned x = 0; x < s->ncpu; x++) {
		uint64_t wl;

		if (hws_block(tp->lead, (unsigned)level + 1, x) != dom ||
		    hws_block(tp->lead, (unsigned)level, x) != (unsigned)b->busiest_group ||
		    !s->c[x].nr)
			continue;
		wl = idle == HWS_CPU_NOT_IDLE ? (l[x].now < l[x].hist ? l[x].now : l[x].hist) :
						l[x].now;
		if (s->c[x].nr == 1 && wl > *imb)
			continue;
		if (best < 0 || wl > best_wl) {
			best = (int)x;
			best_wl = wl;
		}
	}
	return best;
}

static unsigned load_balance(struct sched *s, unsigned cpu, int level, enum hws_idle_type idle)
{
	const struct fw_sd_param *sp = &fw_sd_params[level];
	struct fcpu *c = &s->c[cpu];
	struct hws_cpu_load l[HWS_MAX_CPUS];
	struct hws_balance b;
	unsigned moved = 0;
	uint64_t imb = 0;
	int busiest;

	s->balances++;
	s->env->charge(s->env->machine, cpu, s->opts.costs.sw_base_ns +
			       s->opts.costs.sw_cpu_ns * s->ncpu, SCHED_WORK_SW_BALANCE);
	for (unsigned x = 0; s->env->touch && x < s->ncpu; x++)
		s->env->touch(s->env->machine, cpu, SCHED_LINE_RQ(x), 0);	/* each CPU's load */
	cpu_loads(s, l);
	if (fw_find_busiest(s->env->topo, cpu, (unsigned)level, idle, l, &b))
		return 0;
	busiest = find_busiest_cpu(s, cpu, level, &b, l, idle, &imb);
	if (busiest >= 0 && (unsigned)busiest != cpu) {
		moved = move_tasks(s, cpu, (unsigned)busiest, imb, level, 0);
		if (!moved && idle != HWS_CPU_NEWLY_IDLE) {
			c->failed[level]++;
			if (c->failed[level] > sp->cache_nice_tries + 2) {
				moved = move_tasks(s, cpu, (unsigned)busiest, imb, level, 1);
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

/* ---- Wakeup placement ---- */

static unsigned first_allowed(const struct sched *s, const struct sched_task *t)
{
	for (unsigned c = 0; c < s->ncpu; c++)
		if (allowed(t, c))
			return c;
	return 0;
}

static int cpu_idle(const struct sched *s, unsigned cpu)
{
	return !s->env->cpu_busy(s->env->machine, cpu);
}

/* sched_balance_self(SD_BALANCE_FORK): the least loaded allowed CPU of the widest domain. */
static unsigned fork_cpu(struct sched *s, const struct sched_task *t, unsigned waker)
{
	struct hws_cpu_load l[HWS_MAX_CPUS];
	uint64_t span = 0;
	int c;

	for (unsigned x = 0; x < s->ncpu; x++)
		if (allowed(t, x))
			span |= 1ull << x;
	cpu_loads(s, l);
	c = hws_find_idlest(span, l, (int)waker);
	return c < 0 ? first_allowed(s, t) : (unsigned)c;
}

/*
 * effective_load() (2.6.27): how much @cpu's root load changes when @wl of weight joins
 * @group's queue there and @wg joins the group's total: the change of the group
 * entity's share (fair_group_share()), or @wl itself in the root group.
 */
static int64_t effective_load(struct sched *s, unsigned group, unsigned cpu, int64_t wl,
			      int64_t wg)
{
	uint64_t sum = 0, w = rq_of(s, group, cpu)->load;
	uint32_t sh = s->env->group_shares[group];

	if (!group)
		return wl;
	for (unsigned x = 0; x < s->ncpu; x++)
		sum += rq_of(s, group, x)->load;
	return (int64_t)fair_group_share(sh, (uint64_t)((int64_t)w + wl), (uint64_t)((int64_t)sum + wg)) -
	       (int64_t)fair_group_share(sh, w, sum);
}

/*
 * wake_affine() of 2.6.27 (the SMP group balancer's) between the waker's CPU @this and
 * the task's @prev, without the sync hint (the machine gives none): affine when this CPU
 * is not busier than prev and the two together hold less than one of this CPU's tasks
 * on average, or when this CPU's load with the task's effective load added stays within
 * (100 + (imbalance_pct - 100) / 2)% of prev's.
 */
static int wake_affine(struct sched *s, const struct sched_task *t, unsigned this, unsigned prev)
{
	struct hws_cpu_load l[HWS_MAX_CPUS];
	int64_t tl, load, prev_tl, tl_per_task, w = s->t[t->id].se.weight;
	unsigned pct;
	int level = -1;

	for (int i = 0; i < s->nlevels; i++)
		if (fw_sd_params[s->levels[i]].wake_affine &&
		    hws_block(s->env->topo->lead, (unsigned)s->levels[i] + 1, this) ==
			    hws_block(s->env->topo->lead, (unsigned)s->levels[i] + 1, prev)) {
			level = s->levels[i];
			break;
		}
	if (level < 0)
		return 0;
	cpu_loads(s, l);
	tl = l[this].now > l[this].hist ? l[this].now : l[this].hist;		/* target_load */
	prev_tl = l[prev].now > l[prev].hist ? l[prev].now : l[prev].hist;
	load = l[prev].now < l[prev].hist ? l[prev].now : l[prev].hist;	/* source_load */
	tl_per_task = s->c[this].nr ? (int64_t)s->c[this].root.load / s->c[this].nr : 0;
	pct = fw_level_pct((unsigned)level);
	pct = 100 + (pct - 100) / 2;
	return (tl <= load && tl + prev_tl <= tl_per_task) ||
	       100 * (tl + effective_load(s, t->group, this, w, w)) <=
		       (int64_t)pct * (load + effective_load(s, t->group, prev, 0, w));
}

static unsigned select_cpu(struct sched *s, struct sched_task *t, unsigned waker,
			   enum sched_wake_kind kind)
{
	unsigned prev = t->cpu >= 0 ? (unsigned)t->cpu : waker, target;
	uint64_t idle = 0, llc;
	int f;

	if (kind == SCHED_FORK)
		return fork_cpu(s, t, waker);
	if (!allowed(t, prev))
		prev = first_allowed(s, t);
	target = prev;
	if (waker != prev && waker < s->ncpu && allowed(t, waker) && wake_affine(s, t, waker, prev)) {
		target = waker;
		s->wake_affine++;
	}
	if (!s->wake_balance || cpu_idle(s, target))
		return target;
	/* select_idle_sibling(): the previous CPU if it shares the cache and idles, else a
	 * wholly idle core of the last-level-cache domain. */
	llc = hws_domain_span(s->env->topo->lead, s->ncpu, 1, target);
	if (prev != target && (llc >> prev & 1) && cpu_idle(s, prev))
		return prev;
	for (unsigned x = 0; x < s->ncpu; x++)
		if (cpu_idle(s, x))
			idle |= 1ull << x;
	f = hws_find_idle_core(llc, s->core_of, idle, target);
	if (f >= 0 && allowed(t, (unsigned)f)) {
		s->wake_idle++;
		return (unsigned)f;
	}
	return target;
}

/* ---- The scheduler interface ---- */

static void destroy(struct sched *s)
{
	if (!s)
		return;
	free(s->t);
	free(s->tp);
	free(s->c);
	free(s->grq);
	free(s->gse);
	free(s);
}

/* The domain levels present, and each CPU's root run queue and balance intervals. */
static void fair_init_cpus(struct sched *s)
{
	unsigned i, k;

	s->nlevels = fw_domain_levels(&s->dtopo, s->levels);
	hws_core_of(s->dtopo.lead, s->ncpu, s->core_of);
	for (i = 0; i < s->ncpu; i++) {
		struct fcpu *c = &s->c[i];

		fair_rq_init(&c->root);
		c->root.cpu = i;
		c->head = c->tail = c->push_task = NIL;
		for (k = 0; k < 4; k++)
			c->interval[k] = fw_sd_params[k].min_interval;
	}
}

/* Each task group's run queue and scheduling entity on every CPU (group 0 is the root). */
static void fair_init_groups(struct sched *s, const struct sched_env *env)
{
	unsigned g, i;

	for (g = 1; g < s->ngroups; g++)
		for (i = 0; i < s->ncpu; i++) {
			struct fair_rq *rq = &s->grq[(g - 1) * s->ncpu + i];
			struct fair_ent *se = &s->gse[(g - 1) * s->ncpu + i];

			fair_rq_init(rq);
			rq->cpu = i;
			rq->parent = &s->c[i].root;
			rq->se = se;
			se->my_q = rq;
			se->key = env->nr_tasks + (g - 1) * s->ncpu + i;
			se->hprio = hash32(se->key + 1);
			se->slice = s->tun.base_slice;
			se->weight = fair_group_share(env->group_shares[g], 0, 0);
		}
}

struct sched *fair_create(const struct fair_policy *p, const struct sched_env *env,
			  const struct sched_opts *o, char *msg, size_t len)
{
	struct sched *s;
	unsigned i, ng;

	if (sched_opts_check(o, msg, len))
		return NULL;
	s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(msg, len, "out of memory");
		return NULL;
	}
	s->pol = p;
	s->opts = *o;
	s->wake_balance = o->wake_balance;
	s->tick_shares = o->fair.tick_shares;
	fw_domain_topo(&s->dtopo, env->topo, o->flat);
	s->denv = *env;
	s->denv.topo = &s->dtopo;
	s->env = &s->denv;
	s->ncpu = s->dtopo.nr_cpus;
	s->ngroups = env->nr_groups ? env->nr_groups : 1;
	ng = s->ngroups - 1;
	p->tunables(s->ncpu, &s->tun);
	if (p == &fair_eevdf_policy)
		eevdf_version(o->fair.kernel, s->ncpu, &s->tun);
	s->tun.tick_nsec = 1000000000ull / (env->hz ? env->hz : 1000);
	s->t = calloc(env->nr_tasks ? env->nr_tasks : 1, sizeof(*s->t));
	s->tp = calloc(env->nr_tasks ? env->nr_tasks : 1, sizeof(*s->tp));
	s->c = calloc(s->ncpu, sizeof(*s->c));
	s->grq = calloc(ng ? ng * s->ncpu : 1, sizeof(*s->grq));
	s->gse = calloc(ng ? ng * s->ncpu : 1, sizeof(*s->gse));
	if (!s->t || !s->tp || !s->c || !s->grq || !s->gse) {
		snprintf(msg, len, "out of memory");
		destroy(s);
		return NULL;
	}
	for (i = 0; i < env->nr_tasks; i++) {
		s->t[i].cpu = s->t[i].rq_cpu = s->t[i].parent = NIL;
		s->t[i].se.key = i;
		s->t[i].se.hprio = hash32(i + 1);
	}
	fair_init_cpus(s);
	fair6_init(s);
	fair_init_groups(s, env);
	return s;
}

static void task_new(struct sched *s, struct sched_task *t, struct sched_task *parent,
		     unsigned cpu)
{
	struct ftask *f = &s->t[t->id];

	(void)cpu;
	s->tp[t->id] = t;
	f->cpu = f->rq_cpu = NIL;
	f->parent = parent ? (int)parent->id : NIL;
	f->delayed = f->has_rel_deadline = 0;
	f->avg_cpu = f->last_wakee = f->recent_used_cpu = NIL;
	f->wakee_flips = 0;
	f->flip_decay = now(s);
	memset(&f->se, 0, offsetof(struct fair_ent, key));
	f->se.left = f->se.right = NULL;
	t->cpu = -1;
	t->static_prio = SCHED_NICE_0_PRIO + t->nice;
	t->prio = t->rt_prio >= 0 ? t->rt_prio : t->static_prio;
	t->time_slice = 0;
	t->timestamp = t->last_ran = now(s);
	/* No real-time class here: a SCHED_RR task is a fair task of RT_WEIGHT. */
	f->se.weight = hws_weight_of((unsigned)(t->rt_prio >= 0 ? t->rt_prio : t->static_prio));
	f->se.slice = s->tun.base_slice;
}

/* Linux 6.x's wakeup (try_to_wake_up(), wake_up_new_task()). */
static unsigned wake6(struct sched *s, struct sched_task *t, unsigned waker,
		      enum sched_wake_kind kind)
{
	struct ftask *f = &s->t[t->id];
	unsigned cpu;

	s->on_cpu = waker;
	if (f->delayed) {	/* still on its queue: ttwu_runnable() */
		cpu = (unsigned)f->cpu;
		requeue_delayed(s, t, cpu);
		check_preempt(s, cpu, t);
		return cpu;
	}
	cpu = fair6_select_cpu(s, t, waker, kind);
	if (kind == SCHED_FORK) {
		fair6_pelt_new(s, t, cpu);
	} else {
		fair6_idle_ends(s, cpu);
		if (t->cpu >= 0 && (unsigned)t->cpu != cpu)
			f->se.exec_start = 0;	/* ENQUEUE_MIGRATED */
	}
	enqueue_task(s, t, cpu, kind == SCHED_FORK ? FAIR_ENQ_INITIAL : FAIR_ENQ_WAKEUP);
	check_preempt(s, cpu, t);
	return cpu;
}

static unsigned wake(struct sched *s, struct sched_task *t, unsigned waker,
		     enum sched_wake_kind kind)
{
	struct ftask *f = &s->t[t->id];
	unsigned cpu;
	struct fcpu *c;

	if (s->tun.linux6)
		return wake6(s, t, waker, kind);
	cpu = select_cpu(s, t, waker, kind);
	c = &s->c[cpu];
	s->on_cpu = waker;
	enqueue_task(s, t, cpu, kind == SCHED_FORK ? FAIR_ENQ_INITIAL : FAIR_ENQ_WAKEUP);
	/* sysctl_sched_child_runs_first (2.6.26 task_new_fair()): a child forked onto its
	 * parent's CPU and queue swaps vruntimes with the parent if the parent's is smaller,
	 * and the parent is rescheduled. */
	if (kind == SCHED_FORK && s->tun.child_runs_first && c->curr && cpu == waker &&
	    (int)c->curr->id == f->parent && c->curr->group == t->group) {
		struct fair_ent *pse = &s->t[c->curr->id].se;

		update_curr_chain(s, cpu);
		if ((int64_t)(pse->vruntime - f->se.vruntime) < 0) {
			struct fair_rq *rq = rq_of(s, t->group, cpu);
			uint64_t v = pse->vruntime;

			fair_tree_remove(rq, &f->se);
			pse->vruntime = f->se.vruntime;
			f->se.vruntime = v;
			fair_tree_insert(rq, &f->se);
		}
		s->env->kick(s->env->machine, cpu);
		return cpu;
	}
	check_preempt(s, cpu, t);
	return cpu;
}

static void finish_push(struct sched *s, unsigned cpu, struct sched_task *t)
{
	unsigned to = s->c[cpu].push_to;

	move_task(s, t, cpu, to);
	s->env->kick(s->env->machine, to);
}

static void put_prev(struct sched *s, unsigned cpu, struct sched_task *t, int runnable,
		     uint64_t ran_ns)
{
	struct fcpu *c = &s->c[cpu];

	(void)ran_ns;
	s->on_cpu = cpu;
	if (s->tun.linux6)
		fair6_pelt_task(s, t);	/* it stops running */
	if (c->curr == t)
		update_curr_chain(s, cpu);
	if (!runnable && s->t[t->id].cpu != NIL)
		block_task(s, t, cpu);
	for (struct fair_rq *rq = rq_of(s, t->group, cpu); rq; rq = rq->parent) {
		struct fair_ent *se = rq->curr;

		if (!se)
			continue;
		if (se->on_rq)
			fair_tree_insert(rq, se);
		rq->curr = NULL;
	}
	if (c->curr == t)
		c->curr = NULL;
	t->last_ran = now(s);
	if (runnable) {	/* a pick at this instant that takes it again continues its run */
		c->prev_curr = t;
		c->prev_at = now(s);
	}
	if (s->tun.linux6 && c->active_balance) {
		fair6_active_balance(s, cpu);
		return;
	}
	if (c->push_task == (int)t->id) {
		c->push_task = NIL;
		if (runnable && s->t[t->id].cpu == (int)cpu && allowed(t, c->push_to))
			finish_push(s, cpu, t);
	}
}

static void task_exit(struct sched *s, struct sched_task *t, struct sched_task *parent)
{
	(void)parent;
	if (s->t[t->id].cpu != NIL) {
		s->on_cpu = (unsigned)s->t[t->id].cpu;
		if (s->t[t->id].delayed)
			finish_delayed(s, t, (unsigned)s->t[t->id].cpu);
		else
			dequeue_task(s, t, (unsigned)s->t[t->id].cpu);
	}
	if (s->tun.linux6)
		fair6_pelt_move(s, t, (unsigned)NIL);	/* remove_entity_load_avg() */
	s->tp[t->id] = NULL;
}

/*
 * The entity to run from each level of @cpu's queues, down to a task (pick_task_fair()):
 * set as each queue's curr; NULL when nothing is runnable. A delayed task the pick meets
 * leaves its queue, and the pick starts again.
 */
static struct sched_task *pick_task(struct sched *s, unsigned cpu)
{
	struct fcpu *c = &s->c[cpu];
	struct fair_rq *rq;
	struct fair_ent *se = NULL;
	struct sched_task *t;
	int again;

	s->on_cpu = cpu;
	do {
		again = 0;
		if (!c->nr)
			return NULL;
		for (rq = &c->root; rq; rq = se->my_q) {
			se = s->pol->pick(rq);
			if (!se)
				return NULL;
			if (!se->my_q && ft_of(se)->delayed) {
				finish_delayed(s, s->tp[id_of(s, se)], cpu);
				again = 1;
				break;
			}
			/* set_next_entity() */
			if (se != rq->curr) {
				fair_tree_remove(rq, se);
				rq->curr = se;
			}
			se->exec_start = now(s);
			se->prev_sum_exec = se->sum_exec;
		}
	} while (again);
	t = s->tp[id_of(s, se)];
	/* RUN_TO_PARITY's protection starts with a pick; a task picked again at the
	 * instant it was put back has not stopped (Linux does not set it next again) */
	if (!(s->tun.linux6 && t == c->prev_curr && c->prev_at == now(s)))
		for (struct fair_rq *q = rq_of(s, t->group, cpu); q && s->pol->picked; q = q->parent)
			s->pol->picked(q->curr);
	return t;
}

static struct sched_task *pick(struct sched *s, unsigned cpu)
{
	struct fcpu *c = &s->c[cpu];
	struct sched_task *t;

	s->on_cpu = cpu;
	if (!s->tun.linux6 && !c->nr)	/* idle_balance(): newly idle, bottom-up */
		for (int i = 0; i < s->nlevels && !c->nr; i++)
			if (fw_sd_params[s->levels[i]].newidle)
				load_balance(s, cpu, s->levels[i], HWS_CPU_NEWLY_IDLE);
	c->resched = 0;
	t = pick_task(s, cpu);
	if (!t && s->tun.linux6 && fair6_newidle(s, cpu))
		t = pick_task(s, cpu);
	c->prev_curr = NULL;
	if (!t)
		return NULL;
	if (s->tun.linux6) {
		fair6_pelt_task(s, t);	/* it starts running */
		list_front(s, t->id);
	}
	c->curr = t;
	t->timestamp = now(s);
	charge_ops(s, cpu, 1);
	s->on_cpu = cpu;	/* idle_balance() may have pulled (same CPU) */
	rq_lock(s, cpu);
	task_line(s, t->id);
	return t;
}

static int tick(struct sched *s, unsigned cpu, struct sched_task *curr)
{
	struct fcpu *c = &s->c[cpu];
	int resched = 0;

	s->on_cpu = cpu;
	c->hist = (uint32_t)(((uint64_t)c->hist + (c->root.load > UINT32_MAX ? UINT32_MAX :
							   c->root.load)) / 2);
	if (cpu == 0)
		update_shares(s, cpu);
	if (curr && c->curr == curr) {
		update_curr_chain(s, cpu);	/* EEVDF: a passed deadline asks to resched */
		for (struct fair_rq *rq = rq_of(s, curr->group, cpu); rq; rq = rq->parent)
			if (rq->curr && rq->nr_running > 1 && s->pol->tick_preempt &&
			    s->pol->tick_preempt(&s->tun, rq, rq->curr))
				resched = 1;
		resched |= c->resched;
		c->resched = 0;
	}
	if (s->tun.linux6) {
		fair6_pelt_cpu(s, cpu);
		return fair6_tick_balance(s, cpu, curr) || resched;
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
	struct fcpu *c = &s->c[cpu];

	return c->nr - c->nr_delayed - (c->curr && s->t[c->curr->id].cpu == (int)cpu);
}

static int where(struct sched *s, const struct sched_task *t)
{
	return s->t[t->id].delayed ? NIL : s->t[t->id].cpu;	/* a delayed task is blocked */
}

static void report(struct sched *s, void *file)
{
	fprintf(file, "firmware: %llu balances, %llu tasks moved (%llu by active balance), "
		      "%llu affine wakeups, %llu wakeups placed on an idle core, %llu wakeup "
		      "preemptions, %llu group re-weightings, %llu delayed dequeues\n",
		(unsigned long long)s->balances, (unsigned long long)s->moves,
		(unsigned long long)s->active_balances, (unsigned long long)s->wake_affine,
		(unsigned long long)s->wake_idle, (unsigned long long)s->wake_preempts,
		(unsigned long long)s->reweights, (unsigned long long)s->delayed_dequeues);
}

const struct fair_ent *fair_task_entity(const struct sched *s, unsigned id)
{
	return &s->t[id].se;
}

const struct fair_tun *fair_tunables(const struct sched *s)
{
	return &s->tun;
}

int fair_task_delayed(const struct sched *s, unsigned id)
{
	return s->t[id].delayed;
}

static struct sched *create_cfs(const struct sched_env *env, const struct sched_opts *o,
				char *msg, size_t len)
{
	return fair_create(&fair_cfs_policy, env, o, msg, len);
}

static struct sched *create_eevdf(const struct sched_env *env, const struct sched_opts *o,
				  char *msg, size_t len)
{
	return fair_create(&fair_eevdf_policy, env, o, msg, len);
}

#define FAIR_OPS(nm, create_fn, sync)					\
	{								\
		.name = nm,						\
		.uses = SCHED_USES_DOMAINS | SCHED_USES_COSTS | SCHED_USES_FAIR, \
		.create = create_fn,					\
		.destroy = destroy,					\
		.task_new = task_new,					\
		.wake = wake,						\
		.put_prev = put_prev,					\
		.task_exit = task_exit,					\
		.pick = pick,						\
		.tick = tick,						\
		.exec = NULL,						\
		.nr_queued = nr_queued,					\
		.where = where,						\
		.report = report,					\
		.error = NULL,						\
		.engine_stats = NULL,					\
		.wake_sync = sync,					\
	}

/* CFS 2.6.26 takes no sync hint from the machine; EEVDF's 6.x wake_affine() does. */
const struct sched_ops sched_cfs_ops = FAIR_OPS("cfs", create_cfs, 0);
const struct sched_ops sched_eevdf_ops = FAIR_OPS("eevdf", create_eevdf, 1);
