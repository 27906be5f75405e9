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
	{ "p3xeon4", 250, 250, 250, 250, "4-way Pentium III Xeon, one shared front-side bus (2002)" },
	{ "p3xeon8", 335, 335, 335, 335, "8-way Pentium III Xeon, two front-side buses (2001)" },
	{ "numaq16", 250, 250, 250, 2500, "16-way NUMA-Q, 4 nodes of 4 Pentium III Xeons (2003-4)" },
	{ "modern", 10, 50, 100, 150, "a two-socket multicore server with SMT (2020s)" },
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
	struct coh_lock *locks;		/* per line, allocated on first use */
	struct coh_stats st;
};

struct coh *coh_create(const struct sched_topo *topo, const struct coh_profile *p,
		       unsigned nr_lines)
{
	struct coh *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->topo = *topo;
	c->p = *p;
	c->nr_lines = nr_lines;
	c->holders = calloc(nr_lines, sizeof(*c->holders));
	c->locks = calloc(nr_lines, sizeof(*c->locks));
	if (!c->holders || !c->locks) {
		coh_destroy(c);
		return NULL;
	}
	return c;
}

void coh_destroy(struct coh *c)
{
	if (!c)
		return;
	free(c->holders);
	free(c->locks);
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
	if (!write && (h & me))
		return 0;
	for (unsigned x = 0; others >> x; x++) {
		double d;

		if (!(others >> x & 1))
			continue;
		d = coh_distance_ns(c, x, cpu);
		/* a read: the nearest copy; a write: every copy invalidated, the farthest last */
		if (cost < 0 || (write ? d > cost : d < cost))
			cost = d;
	}
	c->holders[line] = write ? me : h | me;
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
