/*
 * coherence.c - the coherence cost model (coherence.h): lines with holders, transfers
 * priced by topology distance, spin locks with their handoffs.
 */
#include "sim/machine/coherence.h"

#include <stdlib.h>
#include <string.h>

/*
 * The profiles. Each constant's source, and which are estimates, is in docs/simulator.md
 * ("Machine profiles"); tests/sim/coherence_test.cc holds each one to its value.
 */
const struct coh_profile coh_profiles[] = {
	{ "p3xeon4", 250, 250, 250, 250, "4-way Pentium III Xeon, one shared front-side bus (2002)",
	  200, 1024, 1, 800 },
	{ "p3xeon8", 335, 335, 335, 335, "8-way Pentium III Xeon, two front-side buses (2001)",
	  200, 1024, 1, 800 },
	{ "numaq16", 250, 250, 250, 2500, "16-way NUMA-Q, 4 nodes of 4 Pentium III Xeons (2003-4)",
	  200, 1024, 3.5, 800 },
	{ "modern", 10, 50, 100, 150, "a two-socket multicore server with SMT (2020s)", 90, 2048,
	  1, 20000 },
};
const unsigned coh_nr_profiles = sizeof(coh_profiles) / sizeof(coh_profiles[0]);

const struct coh_profile *coh_find_profile(const char *name)
{
	for (unsigned i = 0; name && i < coh_nr_profiles; i++)
		if (!strcmp(name, coh_profiles[i].name))
			return &coh_profiles[i];
	return NULL;
}

const char *coh_profile_names(void)
{
	return "p3xeon4, p3xeon8, numaq16, modern";
}

#define PENDING 128	/* grant times kept per lock: more than CPUs x their requests */

struct coh_lock {
	double free_at;
	int holder;		/* the CPU that took it last + 1, 0 never */
	double grant[PENDING];	/* when recent acquisitions began to hold */
	unsigned next;
};

struct coh {
	struct sched_topo topo;
	struct coh_profile p;
	unsigned nr_lines;
	uint64_t *holders;		/* per line: CPUs holding a copy */
	unsigned char *cached;		/* per line: some cache has held it (not a cold miss) */
	/* The task lines' per-CPU LRU lists when they alias (cap > 0): node cpu * nr_lines +
	 * line, most recent at head[cpu]; -1 ends a list. */
	unsigned cap;
	int *lru_prev, *lru_next, *lru_head, *lru_tail;
	unsigned *lru_n;
	struct coh_lock *locks;		/* per line, allocated on first use */
	struct coh_stats st;
};

unsigned coh_task_lines(const struct coh_profile *p, unsigned task_align)
{
	if (!task_align || !p->cache_kb)
		return 0;
	return (unsigned)((uint64_t)p->cache_kb * 1024 / task_align);
}

struct coh *coh_create(const struct sched_topo *topo, const struct coh_profile *p,
		       unsigned nr_lines, unsigned task_align)
{
	struct coh *c = calloc(1, sizeof(*c));
	size_t n;

	if (!c)
		return NULL;
	c->topo = *topo;
	c->p = *p;
	c->nr_lines = nr_lines;
	c->holders = calloc(nr_lines, sizeof(*c->holders));
	c->cached = calloc(nr_lines, 1);
	c->locks = calloc(nr_lines, sizeof(*c->locks));
	if (!c->holders || !c->cached || !c->locks) {
		coh_destroy(c);
		return NULL;
	}
	c->cap = coh_task_lines(p, task_align);
	if (c->cap && topo->nr_cpus) {
		n = (size_t)topo->nr_cpus * nr_lines;
		c->lru_prev = malloc(n * sizeof(int));
		c->lru_next = malloc(n * sizeof(int));
		c->lru_head = malloc(topo->nr_cpus * sizeof(int));
		c->lru_tail = malloc(topo->nr_cpus * sizeof(int));
		c->lru_n = calloc(topo->nr_cpus, sizeof(unsigned));
		if (!c->lru_prev || !c->lru_next || !c->lru_head || !c->lru_tail || !c->lru_n) {
			coh_destroy(c);
			return NULL;
		}
		for (size_t i = 0; i < n; i++)
			c->lru_prev[i] = c->lru_next[i] = -2;	/* -2: not in the list */
		for (unsigned i = 0; i < topo->nr_cpus; i++)
			c->lru_head[i] = c->lru_tail[i] = -1;
	}
	return c;
}

void coh_destroy(struct coh *c)
{
	if (!c)
		return;
	free(c->holders);
	free(c->cached);
	free(c->locks);
	free(c->lru_prev);
	free(c->lru_next);
	free(c->lru_head);
	free(c->lru_tail);
	free(c->lru_n);
	free(c);
}

double coh_distance_ns(const struct coh *c, unsigned from, unsigned to)
{
	const struct sched_topo *t = &c->topo;

	if (from == to)
		return 0;
	if (t->lead[0][from] == t->lead[0][to])
		return c->p.smt_ns;
	if (t->lead[1][from] == t->lead[1][to])
		return c->p.pkg_ns;
	if (t->lead[2][from] == t->lead[2][to])
		return c->p.node_ns;
	return c->p.remote_ns;
}

static void lru_unlink(struct coh *c, unsigned cpu, unsigned line)
{
	size_t base = (size_t)cpu * c->nr_lines;
	int p = c->lru_prev[base + line], n = c->lru_next[base + line];

	if (p >= 0)
		c->lru_next[base + (unsigned)p] = n;
	else
		c->lru_head[cpu] = n;
	if (n >= 0)
		c->lru_prev[base + (unsigned)n] = p;
	else
		c->lru_tail[cpu] = p;
	c->lru_prev[base + line] = c->lru_next[base + line] = -2;
	c->lru_n[cpu]--;
}

/* @cpu used task line @line: it goes to the head of @cpu's list; past the capacity the
 * least recently used one leaves @cpu's cache (a modified copy is written back). */
static void lru_use(struct coh *c, unsigned cpu, unsigned line)
{
	size_t base = (size_t)cpu * c->nr_lines;

	if (!c->cap || line < SCHED_LINE_TASK(0))
		return;
	if (c->lru_prev[base + line] != -2)
		lru_unlink(c, cpu, line);
	c->lru_prev[base + line] = -1;
	c->lru_next[base + line] = c->lru_head[cpu];
	if (c->lru_head[cpu] >= 0)
		c->lru_prev[base + (unsigned)c->lru_head[cpu]] = (int)line;
	else
		c->lru_tail[cpu] = (int)line;
	c->lru_head[cpu] = (int)line;
	if (++c->lru_n[cpu] > c->cap) {
		unsigned victim = (unsigned)c->lru_tail[cpu];

		lru_unlink(c, cpu, victim);
		c->holders[victim] &= ~(1ull << cpu);
		c->st.evictions++;
	}
}

/* A CPU lost its copy of a line to another CPU's write: it leaves its list. */
static void lru_drop(struct coh *c, uint64_t lost, unsigned line)
{
	if (!c->cap || line < SCHED_LINE_TASK(0))
		return;
	for (unsigned x = 0; x < 64 && lost >> x; x++)	/* a shift by 64 is undefined */
		if (lost >> x & 1 && c->lru_prev[(size_t)x * c->nr_lines + line] != -2)
			lru_unlink(c, x, line);
}

double coh_touch(struct coh *c, unsigned cpu, unsigned line, int write)
{
	uint64_t me, h, others;
	double cost = -1;

	if (line >= c->nr_lines || cpu >= c->topo.nr_cpus)
		return 0;
	me = 1ull << cpu;
	h = c->holders[line];
	others = h & ~me;
	c->st.touches++;
	lru_use(c, cpu, line);
	h = c->holders[line] | (h & me);	/* lru_use may evict another line, never this one */
	if (!write && (h & me))
		return 0;
	for (unsigned x = 0; x < 64 && others >> x; x++) {	/* a shift by 64 is undefined */
		double d;

		if (!(others >> x & 1))
			continue;
		d = coh_distance_ns(c, x, cpu);
		/* a read: the nearest copy; a write: every copy invalidated, the farthest last */
		if (cost < 0 || (write ? d > cost : d < cost))
			cost = d;
	}
	if (write)
		lru_drop(c, others, line);
	c->holders[line] = write ? me : h | me;
	if (cost < 0 && !(h & me) && c->cached[line]) {
		/* no cache holds it, but one did: it was evicted and written back */
		c->cached[line] = 1;
		c->st.mem_fetches++;
		c->st.mem_ns += c->p.mem_ns;
		return c->p.mem_ns;
	}
	c->cached[line] = 1;
	if (cost <= 0)
		return 0;
	c->st.transfers++;
	c->st.transfer_ns += cost;
	return cost;
}

double coh_lock(struct coh *c, unsigned cpu, unsigned line, uint64_t now, double hold_ns)
{
	struct coh_lock *l;
	double t = (double)now, wait = 0, xfer, start;
	unsigned ahead = 0;

	if (line >= c->nr_lines || cpu >= c->topo.nr_cpus)
		return 0;
	l = &c->locks[line];
	c->st.lock_ops++;
	if (l->holder == (int)cpu + 1 && l->free_at > t) {
		/* its own previous hold, from the same event: its CPU's charged time already
		 * runs that long, so the lock is free when this CPU gets here */
		l->free_at += hold_ns;
		return 0;
	}
	l->holder = (int)cpu + 1;
	if (l->free_at > t) {
		wait = l->free_at - t;
		for (unsigned i = 0; i < PENDING; i++)
			if (l->grant[i] > t)
				ahead++;
		c->st.lock_waits++;
	}
	xfer = coh_touch(c, cpu, line, 1);
	if (wait > 0 && xfer > 0) {
		/* the spinners re-read and retry on the bus before the line settles here */
		double first = xfer;

		xfer = first * (1 + ahead);
		c->st.transfers += ahead;
		c->st.transfer_ns += first * ahead;
		c->st.handoffs++;
	}
	start = t + wait + xfer;
	l->grant[l->next] = start;
	l->next = (l->next + 1) % PENDING;
	l->free_at = start + hold_ns;
	c->st.lock_wait_ns += wait + xfer;
	return wait + xfer;
}

const struct coh_stats *coh_stats(const struct coh *c)
{
	return &c->st;
}
