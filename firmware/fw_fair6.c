/*
 * fw_fair6.c - the placement and balancing of Linux 6.x's fair class under EEVDF
 * (kernel/sched/fair.c of 6.12, with 6.15's base slice where the version says so):
 * PELT averages, select_task_rq_fair() (wake_wide, wake_affine_idle/_weight with the
 * WF_SYNC hint, select_idle_sibling/_cpu/_core/_smt with SIS_UTIL, the fork's slow path
 * sched_balance_find_dst_cpu), and the load balancer (sched_balance_rq: group
 * classification, calculate_imbalance, detach_tasks with task_hot, active balance; its
 * periodic, nohz and newly-idle triggers). docs/eevdf.md, "Linux 6.x", lists every
 * constant with its source and what is simplified.
 */
#include <math.h>
#include <stdlib.h>

#include "firmware/fw_fair_int.h"
#include "lib/hws_topo.h"

#define MIGRATION_COST 500000ull	/* sysctl_sched_migration_cost, ns */
#define CAPACITY 1024.0			/* SCHED_CAPACITY_SCALE: a CPU's capacity */
#define NR_MIGRATE 32u			/* sysctl_sched_nr_migrate */
#define PELT_PERIOD_NS 1024000.0	/* PELT's period: 1024 us */
#define PELT_HALFLIFE 32.0		/* y^32 = 1/2 */
#define BUSY_FACTOR 16u			/* sd_init(): busy_factor */
#define NEWIDLE_DECAY_NS 1000000000ull	/* update_newidle_cost(): ~1% a second */

enum idle_type { CPU_IDLE, CPU_NOT_IDLE, CPU_NEWLY_IDLE };
/* enum group_type, in its order (the ones a symmetric machine meets) */
enum group_type { GROUP_HAS_SPARE, GROUP_FULLY_BUSY, GROUP_OVERLOADED = 6 };
enum migration_type { MIGRATE_LOAD, MIGRATE_UTIL, MIGRATE_TASK };

/* ---- The machine as 6.x's topology sees it ---- */

static const struct sched_topo *topo(const struct sched *s)
{
	return s->env->topo;
}

/* The CPUs of @cpu's domain at level @l (0 SMT, 1 MC, 2 package, 3 NUMA). */
static uint64_t span(const struct sched *s, int l, unsigned cpu)
{
	return hws_domain_span(topo(s)->lead, s->ncpu, (unsigned)l, cpu);
}

/* The group of that domain holding @x: its level-@l block. */
static uint64_t group_of(const struct sched *s, int l, unsigned cpu, unsigned x)
{
	uint64_t d = span(s, l, cpu), g = 0;
	unsigned lead = hws_block(topo(s)->lead, (unsigned)l, x);

	for (unsigned y = 0; y < s->ncpu; y++)
		if ((d >> y & 1) && hws_block(topo(s)->lead, (unsigned)l, y) == lead)
			g |= 1ull << y;
	return g;
}

/* sd_init(): imbalance_pct 110 between SMT siblings, 117 above (6.x). */
static unsigned imbalance_pct(int l)
{
	return l == 0 ? 110 : 117;
}

/* sd_init(): cache_nice_tries 0 for SMT, 2 for NUMA, 1 otherwise. */
static unsigned cache_nice_tries(int l)
{
	return l == 0 ? 0 : l == 3 ? 2 : 1;
}

/* The last-level cache: SMT and MC domains share it (SD_SHARE_LLC), i.e. a package. */
static uint64_t llc(const struct sched *s, unsigned cpu)
{
	return span(s, 1, cpu);
}

static int share_cache(const struct sched *s, unsigned a, unsigned b)
{
	return (int)(llc(s, a) >> b & 1);
}

static unsigned weight(uint64_t m)
{
	return (unsigned)__builtin_popcountll(m);
}

/* msecs_to_jiffies() at the machine's HZ, as ns (a jiffy is the tick). */
static uint64_t jiffies_ns(const struct sched *s, uint64_t ms)
{
	unsigned hz = s->env->hz ? s->env->hz : 1000;
	uint64_t j = (ms * hz + 999) / 1000, max = (uint64_t)hz * s->ncpu / 10;

	if (j < 1)
		j = 1;
	if (max >= 1 && j > max)
		j = max;	/* max_load_balance_interval = HZ * CPUs / 10 */
	return j * (1000000000ull / hz);
}

/* idle_cpu(), available_idle_cpu(): nothing running, nothing queued, nothing coming. */
static int idle_cpu(const struct sched *s, unsigned cpu)
{
	return !s->env->cpu_busy(s->env->machine, cpu) && !s->c[cpu].nr;
}

/* A per-CPU kernel thread (kthread_is_per_cpu()): allowed on one CPU only. */
static int per_cpu_kthread(const struct sched_task *t)
{
	return t && weight(t->allowed) == 1;
}

/* ---- PELT ---- */

static void pelt_step(struct fair_pelt *a, uint64_t now, double load, double runnable,
		      double util)
{
	double d;

	if (now <= a->t)
		return;
	d = exp2(-(double)(now - a->t) / (PELT_PERIOD_NS * PELT_HALFLIFE));
	a->load = a->load * d + load * (1 - d);
	a->runnable = a->runnable * d + runnable * (1 - d);
	a->util = a->util * d + util * (1 - d);
	a->t = now;
}

/* The root queue's: the weight on it (delayed tasks' too), its runnable tasks, running. */
void fair6_pelt_cpu(struct sched *s, unsigned cpu)
{
	struct fcpu *c = &s->c[cpu];

	pelt_step(&c->avg, fair_now(s), (double)c->root.load,
		  CAPACITY * (c->nr - c->nr_delayed), c->curr ? CAPACITY : 0);
}

void fair6_pelt_task(struct sched *s, struct sched_task *t)
{
	struct ftask *f = &s->t[t->id];
	int on_rq = f->cpu != NIL;

	if (f->avg_cpu != NIL)
		fair6_pelt_cpu(s, (unsigned)f->avg_cpu);
	pelt_step(&f->avg, fair_now(s), on_rq ? f->se.weight : 0,
		  on_rq && !f->delayed ? CAPACITY : 0,
		  on_rq && s->c[f->cpu].curr == t ? CAPACITY : 0);
}

static void pelt_sub(double *a, double v)
{
	*a = *a > v ? *a - v : 0;
}

void fair6_pelt_move(struct sched *s, struct sched_task *t, unsigned cpu)
{
	struct ftask *f = &s->t[t->id];

	if (f->avg_cpu == (int)cpu)
		return;
	fair6_pelt_task(s, t);
	if (f->avg_cpu != NIL) {	/* detach_entity_load_avg() */
		struct fair_pelt *o = &s->c[f->avg_cpu].avg;

		pelt_sub(&o->load, f->avg.load);
		pelt_sub(&o->runnable, f->avg.runnable);
		pelt_sub(&o->util, f->avg.util);
	}
	f->avg_cpu = (int)cpu;
	if (cpu != (unsigned)NIL) {	/* attach_entity_load_avg() */
		struct fair_pelt *n = &s->c[cpu].avg;

		fair6_pelt_cpu(s, cpu);
		n->load += f->avg.load;
		n->runnable += f->avg.runnable;
		n->util += f->avg.util;
	}
}

/*
 * init_entity_runnable_average() and post_init_entity_util_avg(): a new task starts at
 * its full weight, and with half the CPU's spare utilization at most.
 */
void fair6_pelt_new(struct sched *s, struct sched_task *t, unsigned cpu)
{
	struct ftask *f = &s->t[t->id];
	struct fair_pelt *c = &s->c[cpu].avg;
	double cap, util;

	fair6_pelt_cpu(s, cpu);
	cap = (CAPACITY - c->util) / 2;
	util = c->util > 0 ? c->util * f->se.weight / (c->load + 1) : cap;
	if (util > cap)
		util = cap;
	if (util < 0)
		util = 0;
	f->avg = (struct fair_pelt){ f->se.weight, util, util, fair_now(s) };
	f->avg_cpu = NIL;
}

static double cpu_load(const struct sched *s, unsigned cpu)
{
	return s->c[cpu].avg.load;
}

static double cpu_util(const struct sched *s, unsigned cpu)
{
	double u = s->c[cpu].avg.util;

	return u < CAPACITY ? u : CAPACITY;
}

double fair_cpu_load(struct sched *s, unsigned cpu)
{
	fair6_pelt_cpu(s, cpu);
	return cpu_load(s, cpu);
}

double fair_cpu_util(struct sched *s, unsigned cpu)
{
	fair6_pelt_cpu(s, cpu);
	return cpu_util(s, cpu);
}

/* task_h_load(): its load as a share of its group's on its CPU (the root group: itself). */
static double task_h_load(struct sched *s, const struct sched_task *t)
{
	const struct ftask *f = &s->t[t->id];
	struct fair_rq *rq;

	if (!t->group || f->cpu == NIL)
		return f->avg.load;
	rq = fair_rq_of(s, t->group, (unsigned)f->cpu);
	return rq->load ? f->avg.load * rq->se->weight / (double)rq->load : f->avg.load;
}

/* ---- select_task_rq_fair() ---- */

/* The wakee bookkeeping of the task running on @cpu (or its idle task's). */
struct waker {
	unsigned *flips;
	uint64_t *decay;
	int *last;
};

static struct waker waker_of(struct sched *s, unsigned cpu)
{
	struct sched_task *cur = s->env->curr(s->env->machine, cpu);
	struct fcpu *c = &s->c[cpu];

	if (!cur)
		return (struct waker){ &c->idle_flips, &c->idle_flip_decay, &c->idle_last_wakee };
	return (struct waker){ &s->t[cur->id].wakee_flips, &s->t[cur->id].flip_decay,
			       &s->t[cur->id].last_wakee };
}

/* record_wakee(): a waker that wakes another task than last flips; halved each second. */
static void record_wakee(struct sched *s, struct waker w, const struct sched_task *p)
{
	uint64_t now = fair_now(s);

	if (now > *w.decay + 1000000000ull) {
		*w.flips >>= 1;
		*w.decay = now;
	}
	if (*w.last != (int)p->id) {
		*w.last = (int)p->id;
		(*w.flips)++;
	}
}

/* wake_wide(): a many-to-many waker and wakee spread over the LLC instead of pulling. */
static int wake_wide(const struct sched *s, struct waker w, const struct sched_task *p,
		     unsigned cpu)
{
	unsigned master = *w.flips, slave = s->t[p->id].wakee_flips, factor = weight(llc(s, cpu));

	if (master < slave) {
		unsigned x = master;

		master = slave;
		slave = x;
	}
	return !(slave < factor || master < slave * factor);
}

static int wake_affine_idle(struct sched *s, unsigned this, unsigned prev, int sync)
{
	const struct fcpu *c = &s->c[this];

	if (idle_cpu(s, this) && share_cache(s, this, prev))
		return idle_cpu(s, prev) ? (int)prev : (int)this;
	if (sync && c->nr - c->nr_delayed == 1)
		return (int)this;
	if (idle_cpu(s, prev))
		return (int)prev;
	return -1;
}

static int wake_affine_weight(struct sched *s, int l, const struct sched_task *p, unsigned this,
			      unsigned prev, int sync)
{
	double this_eff = cpu_load(s, this), prev_eff, task_load;
	struct sched_task *cur = s->env->curr(s->env->machine, this);

	if (sync && cur) {
		double cur_load = task_h_load(s, cur);

		if (cur_load > this_eff)
			return (int)this;
		this_eff -= cur_load;
	}
	task_load = task_h_load(s, p);
	this_eff = (this_eff + task_load) * 100 * CAPACITY;	/* WA_BIAS; capacity_of(prev) */
	prev_eff = (cpu_load(s, prev) - task_load) * (100 + (imbalance_pct(l) - 100) / 2) *
		   CAPACITY;
	if (sync)
		prev_eff += 1;
	return this_eff < prev_eff ? (int)this : -1;
}

/* wake_affine(): the waker's CPU when it is the one the task will run on soonest. */
static unsigned wake_affine(struct sched *s, int l, const struct sched_task *p, unsigned this,
			    unsigned prev, int sync)
{
	int target = wake_affine_idle(s, this, prev, sync);

	if (target < 0)
		target = wake_affine_weight(s, l, p, this, prev, sync);
	if (target != (int)this)
		return prev;
	s->wake_affine++;
	return this;
}

/* A core (its SMT siblings) all idle. */
static int core_idle(const struct sched *s, unsigned cpu)
{
	uint64_t m = s->core_of[cpu];

	for (unsigned x = 0; x < s->ncpu; x++)
		if ((m >> x & 1) && !idle_cpu(s, x))
			return 0;
	return 1;
}

/* select_idle_cpu(): scan the LLC from target + 1 for an idle core, else an idle CPU. */
static int select_idle_cpu(struct sched *s, const struct sched_task *p, int has_idle_core,
			   unsigned target)
{
	uint64_t cpus = llc(s, target) & p->allowed;
	int nr = s->nr_idle_scan + 1, idle = -1;

	if (!has_idle_core && nr == 1)
		return -1;	/* SIS_UTIL: an overloaded LLC has no idle CPU worth the scan */
	for (unsigned k = 1; k <= s->ncpu; k++) {
		unsigned x = (target + k) % s->ncpu;

		if (!(cpus >> x & 1))
			continue;
		if (has_idle_core) {
			if (core_idle(s, x))
				return (int)x;
			if (idle < 0 && idle_cpu(s, x))
				idle = (int)x;
			cpus &= ~s->core_of[x];
		} else {
			if (--nr <= 0)
				return -1;
			if (idle_cpu(s, x))
				return (int)x;
		}
	}
	return idle;
}

/* select_idle_sibling(): an idle CPU sharing the target's cache, else the target. */
static unsigned select_idle_sibling(struct sched *s, struct sched_task *p, unsigned waker,
				    unsigned prev, unsigned target)
{
	struct ftask *f = &s->t[p->id];
	int recent = f->recent_used_cpu, i, has_idle_core = 0;

	if (idle_cpu(s, target))
		return target;
	if (prev != target && share_cache(s, prev, target) && idle_cpu(s, prev))
		return prev;
	/* a per-CPU kthread waking the task that queued work for it: stack on its CPU */
	if (per_cpu_kthread(s->env->curr(s->env->machine, waker)) && prev == waker &&
	    s->c[waker].nr <= 1)
		return prev;
	f->recent_used_cpu = (int)prev;
	if (recent >= 0 && (unsigned)recent != prev && (unsigned)recent != target &&
	    share_cache(s, (unsigned)recent, target) && idle_cpu(s, (unsigned)recent) &&
	    fair_allowed(p, (unsigned)recent))
		return (unsigned)recent;
	if (weight(llc(s, target)) == 1)
		return target;	/* no LLC domain */
	if (topo(s)->smt > 1) {
		for (unsigned x = 0; x < s->ncpu && !has_idle_core; x++)
			has_idle_core = (llc(s, target) >> x & 1) && core_idle(s, x);
		if (!has_idle_core && share_cache(s, prev, target))	/* select_idle_smt() */
			for (unsigned x = 0; x < s->ncpu; x++)
				if ((s->core_of[prev] >> x & 1) && x != prev && idle_cpu(s, x) &&
				    fair_allowed(p, x) && (llc(s, target) >> x & 1))
					return x;
	}
	i = select_idle_cpu(s, p, has_idle_core, target);
	if (i >= 0) {
		s->wake_idle++;
		return (unsigned)i;
	}
	return target;
}

/* ---- The fork's slow path: sched_balance_find_dst_cpu() ---- */

struct sgs {
	double load, util, runnable, capacity, avg_load;
	unsigned nr, idle_cpus, weight;
	int type;
	uint64_t cpus;
};

/* group_classify() of a symmetric machine: overloaded, fully busy or with spare room. */
static int classify(unsigned pct, const struct sgs *g)
{
	if (g->nr > g->weight && (g->capacity * 100 < g->util * pct ||
				  g->capacity * pct < g->runnable * 100))
		return GROUP_OVERLOADED;
	if (g->nr < g->weight)
		return GROUP_HAS_SPARE;
	if (g->capacity * pct < g->runnable * 100)
		return GROUP_FULLY_BUSY;
	return g->capacity * 100 > g->util * pct ? GROUP_HAS_SPARE : GROUP_FULLY_BUSY;
}

/*
 * The sums both update_sg_lb_stats() and update_sg_wakeup_stats() take over the CPUs
 * @sum of a group @cpus wide, and its class at level @l.
 */
static void group_sums(struct sched *s, int l, uint64_t cpus, uint64_t sum, struct sgs *g)
{
	*g = (struct sgs){ 0 };
	g->cpus = sum;
	for (unsigned x = 0; x < s->ncpu; x++) {
		if (!(sum >> x & 1))
			continue;
		fair6_pelt_cpu(s, x);
		g->load += cpu_load(s, x);
		g->util += cpu_util(s, x);
		g->runnable += s->c[x].avg.runnable;
		g->nr += s->c[x].nr;
		g->idle_cpus += idle_cpu(s, x);
	}
	g->weight = weight(cpus);
	g->capacity = CAPACITY * g->weight;
	g->type = classify(imbalance_pct(l), g);
}

/* update_sg_wakeup_stats() for a task not yet on any CPU: its allowed CPUs only. */
static void wakeup_stats(struct sched *s, int l, uint64_t cpus, const struct sched_task *p,
			 struct sgs *g)
{
	group_sums(s, l, cpus, cpus & p->allowed, g);
	if (g->type != GROUP_HAS_SPARE)
		g->avg_load = g->load * CAPACITY / g->capacity;
}

/* update_pick_idlest(): 1 when @g is idler than @idlest. */
static int idler(const struct sgs *g, const struct sgs *idlest)
{
	if (g->type != idlest->type)
		return g->type < idlest->type;
	if (g->type != GROUP_HAS_SPARE)
		return g->avg_load < idlest->avg_load;
	if (idlest->idle_cpus != g->idle_cpus)
		return g->idle_cpus > idlest->idle_cpus;
	return g->util < idlest->util;
}

/* sched_balance_find_dst_group(): the idlest group, if better than this CPU's; 0 if none. */
static uint64_t find_dst_group(struct sched *s, int l, const struct sched_task *p, unsigned this)
{
	uint64_t d = span(s, l, this), seen = 0, idlest_cpus = 0;
	struct sgs local = { 0 }, idlest = { .avg_load = 1e300, .type = GROUP_OVERLOADED }, g;
	int has_local = 0, has_idlest = 0;
	unsigned imb;

	for (unsigned x = 0; x < s->ncpu; x++) {
		uint64_t gc;

		if (!(d >> x & 1) || (seen >> x & 1))
			continue;
		gc = group_of(s, l, this, x);
		seen |= gc;
		if (!(gc & p->allowed))
			continue;
		wakeup_stats(s, l, gc, p, &g);
		if (gc >> this & 1) {
			local = g;
			has_local = 1;
		} else if (idler(&g, &idlest)) {
			idlest = g;
			idlest_cpus = gc;
			has_idlest = 1;
		}
	}
	if (!has_idlest)
		return 0;
	if (!has_local || local.type > idlest.type)
		return idlest_cpus;
	if (local.type < idlest.type)
		return 0;
	if (local.type != GROUP_HAS_SPARE) {
		imb = FAIR_NICE_0_LOAD * (imbalance_pct(l) - 100) / 100;
		if (l == 3 && idlest.avg_load + imb >= local.avg_load)
			return 0;
		if (idlest.avg_load >= local.avg_load + imb ||
		    100 * local.avg_load <= imbalance_pct(l) * idlest.avg_load)
			return 0;
		return idlest_cpus;
	}
	return local.idle_cpus >= idlest.idle_cpus ? 0 : idlest_cpus;
}

/* sched_balance_find_dst_group_cpu(): its most recently idled CPU, else the least loaded. */
static unsigned find_dst_group_cpu(struct sched *s, uint64_t cpus, const struct sched_task *p,
				   unsigned this)
{
	int idle = -1, least = (int)this;
	uint64_t latest = 0;
	double min_load = 1e300;

	if (weight(cpus) == 1)
		return (unsigned)__builtin_ctzll(cpus);
	for (unsigned x = 0; x < s->ncpu; x++) {
		if (!(cpus >> x & 1) || !fair_allowed(p, x))
			continue;
		if (idle_cpu(s, x)) {
			if (idle < 0 || s->c[x].idle_stamp > latest) {
				idle = (int)x;
				latest = s->c[x].idle_stamp;
			}
		} else if (idle < 0 && cpu_load(s, x) < min_load) {
			min_load = cpu_load(s, x);
			least = (int)x;
		}
	}
	return (unsigned)(idle >= 0 ? idle : least);
}

static unsigned find_dst_cpu(struct sched *s, const struct sched_task *p, unsigned cpu)
{
	unsigned new_cpu = cpu;
	int i = s->nlevels - 1;

	while (i >= 0) {
		int l = s->levels[i];
		uint64_t g = find_dst_group(s, l, p, cpu);
		unsigned w;

		if (!g) {
			i--;
			continue;
		}
		new_cpu = find_dst_group_cpu(s, g, p, cpu);
		if (new_cpu == cpu) {
			i--;
			continue;
		}
		/* go on at the domain of new_cpu below this level */
		cpu = new_cpu;
		w = weight(span(s, l, cpu));
		for (i--; i >= 0 && weight(span(s, s->levels[i], cpu)) >= w; i--)
			;
	}
	return new_cpu;
}

static unsigned first_allowed(const struct sched *s, const struct sched_task *t)
{
	for (unsigned c = 0; c < s->ncpu; c++)
		if (fair_allowed(t, c))
			return c;
	return 0;
}

unsigned fair6_select_cpu(struct sched *s, struct sched_task *t, unsigned waker,
			  enum sched_wake_kind kind)
{
	unsigned prev = t->cpu >= 0 ? (unsigned)t->cpu : waker, new_cpu;
	int sync = kind == SCHED_WAKE_SYNC, want_affine;
	struct waker w;

	if (waker >= s->ncpu)
		waker = 0;
	if (!fair_allowed(t, prev))
		prev = first_allowed(s, t);
	if (kind == SCHED_FORK) {
		/* no SD_WAKE_AFFINE for a fork: the slow path from the highest domain */
		unsigned c = find_dst_cpu(s, t, fair_allowed(t, waker) ? waker : prev);

		return fair_allowed(t, c) ? c : prev;
	}
	w = waker_of(s, waker);
	record_wakee(s, w, t);
	want_affine = !wake_wide(s, w, t, waker) && fair_allowed(t, waker);
	new_cpu = prev;
	for (int i = 0; i < s->nlevels && want_affine; i++)
		if (span(s, s->levels[i], waker) >> prev & 1) {
			if (waker != prev)
				new_cpu = wake_affine(s, s->levels[i], t, waker, prev, sync);
			break;
		}
	if (!s->wake_balance)
		return new_cpu;
	return select_idle_sibling(s, t, waker, prev, new_cpu);
}

/* ---- The load balancer: sched_balance_rq() ---- */

struct lb_env {
	unsigned dst, src;
	int l;			/* the domain's level */
	enum idle_type idle;
	int type;		/* enum migration_type */
	double imbalance;
	unsigned loop, loop_max;
};

struct sds {
	struct sgs local, busiest;
	uint64_t local_cpus, busiest_cpus;
	int has_busiest, prefer_sibling;
	double total_load, total_capacity, avg_load;
};

/* update_sg_lb_stats() */
static void lb_stats(struct sched *s, int l, uint64_t cpus, struct sgs *g)
{
	group_sums(s, l, cpus, cpus, g);
	if (g->type == GROUP_OVERLOADED)
		g->avg_load = g->load * CAPACITY / g->capacity;
}

/* update_sd_pick_busiest() */
static int busier(const struct sgs *g, const struct sds *d)
{
	const struct sgs *b = &d->busiest;

	if (!g->nr)
		return 0;
	if (!d->has_busiest || g->type != b->type)
		return !d->has_busiest || g->type > b->type;
	if (g->type == GROUP_OVERLOADED || g->type == GROUP_FULLY_BUSY)
		return g->avg_load > b->avg_load;
	/* has spare: the fewest idle CPUs, then the most tasks */
	if (g->idle_cpus != b->idle_cpus)
		return g->idle_cpus < b->idle_cpus;
	return g->nr > b->nr;
}

/* update_sd_lb_stats(): every group of the domain; the root domain's overload flag; the
 * LLC's SIS_UTIL scan depth (update_idle_cpu_scan). */
static void domain_stats(struct sched *s, const struct lb_env *e, struct sds *d, int top)
{
	uint64_t dom = span(s, e->l, e->dst), seen = 0;
	double sum_util = 0;
	int overloaded = 0;

	*d = (struct sds){ 0 };
	for (unsigned x = 0; x < s->ncpu; x++) {
		uint64_t gc;
		struct sgs g;

		if (!(dom >> x & 1) || (seen >> x & 1))
			continue;
		gc = group_of(s, e->l, e->dst, x);
		seen |= gc;
		lb_stats(s, e->l, gc, &g);
		for (unsigned y = 0; y < s->ncpu; y++)
			overloaded |= (gc >> y & 1) && s->c[y].nr > 1;
		if (gc >> e->dst & 1) {
			d->local = g;
			d->local_cpus = gc;
		} else if (busier(&g, d)) {
			d->busiest = g;
			d->busiest_cpus = gc;
			d->has_busiest = 1;
		}
		d->total_load += g.load;
		d->total_capacity += g.capacity;
		sum_util += g.util;
	}
	/* groups made of child domains (not single CPUs) prefer their siblings */
	d->prefer_sibling = d->has_busiest && weight(d->busiest_cpus) > 1 && e->l != 3;
	if (top)
		s->rd_overloaded = overloaded;
	if (e->idle != CPU_NEWLY_IDLE && weight(dom) == weight(llc(s, e->dst))) {
		double x = sum_util / weight(dom), pct = imbalance_pct(e->l);
		double tmp = x * x * pct * pct / (10000 * CAPACITY);

		if (tmp > CAPACITY)
			tmp = CAPACITY;
		s->nr_idle_scan = (int)((CAPACITY - tmp) * weight(dom) / CAPACITY);
	}
}

/* sibling_imbalance() of groups with as many cores each */
static double sibling_imbalance(const struct lb_env *e, const struct sds *d)
{
	double imb;

	if (e->idle == CPU_NOT_IDLE || !d->busiest.nr)
		return 0;
	imb = (double)d->busiest.nr - d->local.nr;
	return imb > 0 ? imb : 0;
}

/* calculate_imbalance() */
static void calculate_imbalance(struct lb_env *e, struct sds *d)
{
	struct sgs *local = &d->local, *busiest = &d->busiest;

	if (local->type == GROUP_HAS_SPARE) {
		if (busiest->type > GROUP_FULLY_BUSY && e->l > 1) {	/* not sharing the LLC */
			e->type = MIGRATE_UTIL;
			e->imbalance = (local->capacity > local->util ? local->capacity :
									local->util) - local->util;
			if (e->idle != CPU_NOT_IDLE && e->imbalance == 0) {
				e->type = MIGRATE_TASK;
				e->imbalance = 1;
			}
			return;
		}
		e->type = MIGRATE_TASK;
		if (busiest->weight == 1 || d->prefer_sibling)
			e->imbalance = sibling_imbalance(e, d);
		else
			e->imbalance = local->idle_cpus > busiest->idle_cpus ?
					       (double)(local->idle_cpus - busiest->idle_cpus) : 0;
		e->imbalance = (double)((unsigned)e->imbalance >> 1);
		return;
	}
	if (local->type < GROUP_OVERLOADED) {
		local->avg_load = local->load * CAPACITY / local->capacity;
		if (local->avg_load >= busiest->avg_load) {
			e->imbalance = 0;
			return;
		}
		d->avg_load = d->total_load * CAPACITY / d->total_capacity;
		if (local->avg_load >= d->avg_load) {
			e->imbalance = 0;
			return;
		}
	}
	e->type = MIGRATE_LOAD;
	e->imbalance = fmin((busiest->avg_load - d->avg_load) * busiest->capacity,
			    (d->avg_load - local->avg_load) * local->capacity) / CAPACITY;
}

/* sched_balance_find_src_group(): 1 when there is an imbalance to move (in @e). */
static int find_src_group(struct sched *s, struct lb_env *e, struct sds *d, int top)
{
	struct sgs *local = &d->local, *busiest = &d->busiest;

	domain_stats(s, e, d, top);
	e->imbalance = 0;
	if (!d->has_busiest || local->type > busiest->type)
		return 0;
	if (local->type == GROUP_OVERLOADED) {
		if (local->avg_load >= busiest->avg_load)
			return 0;
		d->avg_load = d->total_load * CAPACITY / d->total_capacity;
		if (local->avg_load >= d->avg_load ||
		    100 * busiest->avg_load <= imbalance_pct(e->l) * local->avg_load)
			return 0;
	}
	if (!(d->prefer_sibling && local->type == GROUP_HAS_SPARE &&
	      sibling_imbalance(e, d) > 1) &&
	    busiest->type != GROUP_OVERLOADED) {
		if (e->idle == CPU_NOT_IDLE)
			return 0;	/* let an idle CPU pull */
		if (busiest->weight > 1 && local->idle_cpus <= busiest->idle_cpus + 1)
			return 0;
		if (busiest->nr == 1)
			return 0;
	}
	calculate_imbalance(e, d);
	return e->imbalance > 0;
}

/* sched_balance_find_src_rq() */
static int find_src_rq(struct sched *s, const struct lb_env *e, uint64_t cpus)
{
	int busiest = -1;
	double best = 0;

	for (unsigned x = 0; x < s->ncpu; x++) {
		unsigned nr = s->c[x].nr;
		double v;

		if (!(cpus >> x & 1) || !nr || x == e->dst)
			continue;
		if (e->type == MIGRATE_LOAD) {
			v = cpu_load(s, x);
			if (nr == 1 && v > e->imbalance)
				continue;
		} else if (e->type == MIGRATE_UTIL) {
			if (nr <= 1)
				continue;
			v = cpu_util(s, x);
		} else {
			v = nr;
		}
		if (busiest < 0 || v > best) {
			busiest = (int)x;
			best = v;
		}
	}
	return busiest;
}

/* task_hot(): run within sysctl_sched_migration_cost (not between SMT siblings). */
static int task_hot(struct sched *s, const struct lb_env *e, const struct sched_task *t)
{
	if (e->l == 0)
		return 0;
	return fair_now(s) - s->t[t->id].se.exec_start < MIGRATION_COST;
}

/* can_migrate_task(); @active: the stopper's move (LBF_ACTIVE_LB). */
static int can_migrate(struct sched *s, const struct lb_env *e, const struct sched_task *t,
		       int active)
{
	const struct fcpu *src = &s->c[e->src];
	const struct ftask *f = &s->t[t->id];

	if (per_cpu_kthread(t) || !fair_allowed(t, e->dst) || t == src->curr || f->delayed)
		return 0;
	if (active)
		return 1;
	return !task_hot(s, e, t) ||
	       s->c[e->dst].sd[e->l].nr_balance_failed > cache_nice_tries(e->l);
}

static void move_one(struct sched *s, const struct lb_env *e, struct sched_task *t)
{
	fair_move_task(s, t, e->src, e->dst);
	fair_check_preempt(s, e->dst, t);	/* attach_task()'s wakeup_preempt() */
}

/* detach_tasks() + attach_tasks(): from the tail of the source's list (least recently
 * run); a task skipped goes to its head. Returns the tasks moved. */
static unsigned detach_tasks(struct sched *s, struct lb_env *e)
{
	struct fcpu *src = &s->c[e->src];
	unsigned moved = 0, failed = s->c[e->dst].sd[e->l].nr_balance_failed;

	if (src->nr <= 1 || e->imbalance <= 0)
		return 0;
	while (src->tail != NIL) {
		struct sched_task *t = s->tp[src->tail];
		double v = 0;

		if (e->idle != CPU_NOT_IDLE && src->nr <= 1)
			break;
		if (++e->loop > e->loop_max)
			break;
		if (!can_migrate(s, e, t, 0))
			goto next;
		if (e->type == MIGRATE_LOAD) {
			v = task_h_load(s, t);
			if (v < 1)
				v = 1;
			if (ldexp(v, -(int)(failed < 30 ? failed : 30)) > e->imbalance)
				goto next;
		} else if (e->type == MIGRATE_UTIL) {
			v = s->t[t->id].avg.util;
			if (ldexp(v, -(int)(failed < 30 ? failed : 30)) > e->imbalance)
				goto next;
		} else {
			v = 1;
		}
		e->imbalance -= v;
		move_one(s, e, t);
		moved++;
		if (e->idle == CPU_NEWLY_IDLE || e->imbalance <= 0)
			break;	/* CONFIG_PREEMPTION: a newly idle CPU takes one */
		continue;
next:
		/* list_move(): to the head */
		{
			struct ftask *f = &s->t[t->id];

			if (f->prev == NIL)
				break;	/* the only one left */
			s->t[f->prev].next = NIL;
			src->tail = f->prev;
			f->prev = NIL;
			f->next = src->head;
			s->t[src->head].prev = (int)t->id;
			src->head = (int)t->id;
		}
	}
	return moved;
}

/* should_we_balance(): the first idle CPU of the local group balances for it, else its
 * first CPU; a newly idle CPU always (while it has nothing). */
static int should_we_balance(struct sched *s, const struct lb_env *e)
{
	uint64_t local = group_of(s, e->l, e->dst, e->dst);
	int idle_smt = -1;

	if (e->idle == CPU_NEWLY_IDLE)
		return s->c[e->dst].nr == 0;
	for (unsigned x = 0; x < s->ncpu; x++) {
		if (!(local >> x & 1) || !idle_cpu(s, x))
			continue;
		if (e->l != 0 && !core_idle(s, x)) {
			if (idle_smt < 0)
				idle_smt = (int)x;
			continue;
		}
		return x == e->dst;
	}
	if (idle_smt >= 0)
		return (unsigned)idle_smt == e->dst;
	return (unsigned)__builtin_ctzll(local) == e->dst;
}

static int sched_balance_rq(struct sched *s, unsigned cpu, int li, enum idle_type idle,
			    int *cont)
{
	int l = s->levels[li];
	struct fair_sd *sd = &s->c[cpu].sd[l];
	struct lb_env e = { cpu, 0, l, idle, MIGRATE_TASK, 0, 0, 0 };
	struct sds d;
	unsigned moved = 0;
	int src;

	s->balances++;
	s->env->charge(s->env->machine, cpu, s->opts.costs.sw_base_ns +
			       s->opts.costs.sw_cpu_ns * weight(span(s, l, cpu)),
		       SCHED_WORK_SW_BALANCE);
	if (!should_we_balance(s, &e)) {
		*cont = 0;
		goto balanced;
	}
	if (!find_src_group(s, &e, &d, li == s->nlevels - 1))
		goto balanced;
	src = find_src_rq(s, &e, d.busiest_cpus);
	if (src < 0)
		goto balanced;
	e.src = (unsigned)src;
	if (s->c[src].nr > 1) {
		e.loop_max = s->c[src].nr < NR_MIGRATE ? s->c[src].nr : NR_MIGRATE;
		moved = detach_tasks(s, &e);
		s->moves += moved;
	}
	if (!moved) {
		if (idle != CPU_NEWLY_IDLE)
			sd->nr_balance_failed++;
		/* need_active_balance(): spreading tasks failed too often (all cache-hot) */
		if (e.type == MIGRATE_TASK && sd->nr_balance_failed > cache_nice_tries(l) + 2) {
			struct fcpu *b = &s->c[src];

			if (b->curr && fair_allowed(b->curr, cpu) && !b->active_balance) {
				b->active_balance = 1;
				b->push_to = cpu;
				s->env->kick(s->env->machine, (unsigned)src);
			}
		}
	} else {
		sd->nr_balance_failed = 0;
	}
	sd->balance_interval = weight(span(s, l, cpu));	/* min_interval */
	return (int)moved;
balanced:
	sd->nr_balance_failed = 0;
	if (idle != CPU_NEWLY_IDLE && sd->balance_interval < 2 * weight(span(s, l, cpu)))
		sd->balance_interval *= 2;
	return 0;
}

/* The active balance's stopper on @cpu, its running task now off it: detach_one_task(). */
void fair6_active_balance(struct sched *s, unsigned cpu)
{
	struct fcpu *c = &s->c[cpu];
	struct lb_env e = { c->push_to, cpu, 1, CPU_IDLE, MIGRATE_TASK, 1, 0, 0 };

	c->active_balance = 0;
	for (int id = c->tail; id != NIL; id = s->t[id].prev) {
		struct sched_task *t = s->tp[id];

		if (!can_migrate(s, &e, t, 1))
			continue;
		move_one(s, &e, t);
		s->active_balances++;
		s->env->kick(s->env->machine, e.dst);
		return;
	}
}

/* sched_balance_domains(): each domain whose interval has passed, bottom-up. */
static int balance_domains(struct sched *s, unsigned cpu, enum idle_type idle)
{
	int cont = 1, moved = 0;
	uint64_t now = fair_now(s);

	for (int i = 0; i < s->nlevels && cont; i++) {
		struct fair_sd *sd = &s->c[cpu].sd[s->levels[i]];
		uint64_t iv = jiffies_ns(s, (uint64_t)sd->balance_interval *
						    (idle == CPU_IDLE ? 1 : BUSY_FACTOR));

		if (now >= sd->last_balance + iv) {
			if (sched_balance_rq(s, cpu, i, idle, &cont))
				moved = 1;
			sd->last_balance = now;
		}
	}
	return moved;
}

int fair6_tick_balance(struct sched *s, unsigned cpu, struct sched_task *curr)
{
	struct fcpu *c = &s->c[cpu];
	int moved = balance_domains(s, cpu, curr || c->nr ? CPU_NOT_IDLE : CPU_IDLE);
	unsigned busy = 0;

	/* nohz_balancer_kick(): a busy CPU with waiting work (or a busy LLC) has the idle
	 * CPUs, whose ticks are stopped, balance for themselves */
	for (unsigned x = 0; x < s->ncpu; x++)
		busy += (llc(s, cpu) >> x & 1) && !idle_cpu(s, x);
	if (curr && (c->nr >= 2 || busy > 1))
		for (unsigned x = 0; x < s->ncpu; x++)
			if (x != cpu && idle_cpu(s, x) && balance_domains(s, x, CPU_IDLE))
				s->env->kick(s->env->machine, x);
	return moved && !curr;
}

static uint32_t rng32(struct sched *s)
{
	s->rng ^= s->rng << 13;
	s->rng ^= s->rng >> 7;
	s->rng ^= s->rng << 17;
	return (uint32_t)(s->rng >> 32);
}

static void newidle_stats(struct fair_sd *sd, unsigned success)
{
	sd->newidle_call++;
	sd->newidle_success += success;
	if (sd->newidle_call >= 1024) {
		sd->newidle_ratio = sd->newidle_success;
		sd->newidle_call /= 2;
		sd->newidle_success /= 2;
	}
}

int fair6_newidle(struct sched *s, unsigned cpu)
{
	struct fcpu *c = &s->c[cpu];
	uint64_t now = fair_now(s), curr_cost = 0;
	int pulled = 0, cont = 1;

	c->idle_stamp = now;
	if (!s->nlevels || !s->rd_overloaded ||
	    c->avg_idle < c->sd[s->levels[0]].max_newidle_lb_cost)
		return 0;
	for (int i = 0; i < s->nlevels && !pulled && cont; i++) {
		struct fair_sd *sd = &c->sd[s->levels[i]];
		uint64_t cost;
		unsigned w;

		if (c->avg_idle < curr_cost + sd->max_newidle_lb_cost)
			break;
		/* NI_RANDOM: run it as often as it has succeeded, over the last 1024 */
		w = 1 + sd->newidle_ratio;
		if (rng32(s) % 1024 > w) {
			newidle_stats(sd, 0);
			continue;
		}
		w = (1024 + w / 2) / w;
		pulled = sched_balance_rq(s, cpu, i, CPU_NEWLY_IDLE, &cont);
		/* what the balance cost this CPU: the price it was charged */
		cost = (uint64_t)(s->opts.costs.sw_base_ns +
				  s->opts.costs.sw_cpu_ns * weight(span(s, s->levels[i], cpu)));
		curr_cost += cost;
		if (cost)
			newidle_stats(sd, w * (pulled != 0));
		if (cost > sd->max_newidle_lb_cost) {
			sd->max_newidle_lb_cost = cost;
			sd->last_decay = now;
		} else if (now > sd->last_decay + NEWIDLE_DECAY_NS) {
			sd->max_newidle_lb_cost = sd->max_newidle_lb_cost * 253 / 256;
			sd->last_decay = now;
		}
	}
	if (curr_cost > c->max_idle_balance_cost)
		c->max_idle_balance_cost = curr_cost;
	if (pulled)
		c->idle_stamp = 0;
	return pulled;
}

void fair6_idle_ends(struct sched *s, unsigned cpu)
{
	struct fcpu *c = &s->c[cpu];
	int64_t delta, diff;
	uint64_t max = 2 * c->max_idle_balance_cost;

	if (!c->idle_stamp)
		return;
	delta = (int64_t)(fair_now(s) - c->idle_stamp);
	diff = delta - (int64_t)c->avg_idle;	/* update_avg(): 1/8 of the new sample */
	c->avg_idle = (uint64_t)((int64_t)c->avg_idle + diff / 8);
	if (c->avg_idle > max)
		c->avg_idle = max;
	c->idle_stamp = 0;
}

void fair6_init(struct sched *s)
{
	s->rng = 0x9E3779B97F4A7C15ull;
	s->nr_idle_scan = s->ncpu ? (int)weight(llc(s, 0)) : 0;
	for (unsigned x = 0; x < s->ncpu; x++) {
		struct fcpu *c = &s->c[x];

		c->avg_idle = 2 * MIGRATION_COST;
		c->max_idle_balance_cost = MIGRATION_COST;
		c->idle_last_wakee = NIL;
		for (int i = 0; i < s->nlevels; i++) {
			struct fair_sd *sd = &c->sd[s->levels[i]];

			sd->balance_interval = weight(span(s, s->levels[i], x));
			sd->newidle_call = 512;	/* sd_init(): a 50% success rate */
			sd->newidle_success = 256;
			sd->newidle_ratio = 512;
		}
	}
}
