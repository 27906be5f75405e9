/*
 * coherence.h - the machine's coherence cost model (docs/simulator.md, "Coherence"):
 * shared scheduler data as cache lines with holders, a transfer priced by the topology
 * distance between two CPUs, and spin locks whose waiters pay the line's transfers.
 * The machine profiles (named by the topology's profile= key) hold the prices.
 * Not for use outside sim/machine/.
 */
#ifndef HWS_COHERENCE_H
#define HWS_COHERENCE_H

#include <stdint.h>

#include "hws/sched.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A machine profile: what one cache-line transfer costs at each distance (ns). */
struct coh_profile {
	const char *name;
	double smt_ns;		/* between the two SMT threads of one core */
	double pkg_ns;		/* between cores of one package */
	double node_ns;		/* between packages of one node (one bus) */
	double remote_ns;	/* between nodes */
	const char *machine;	/* the machine it stands for */
	double mem_ns;		/* a line fetched from memory after its cache evicted it */
	unsigned cache_kb;	/* each CPU's last-level cache (KB): what aliased task lines
				 * compete for (coh_create) */
	/* memory seen from another node: how many times as long as local (1: uniform);
	 * a task's bursts off its memory's node pay it (contention.h, numa) */
	double numa_ratio;
	double bus_mbs;		/* MB/s a payload crosses between two CPUs' caches at
				 * (contention.h, net: msg_bytes) */
};

/* The profiles (docs/simulator.md gives each constant's source). */
extern const struct coh_profile coh_profiles[];
extern const unsigned coh_nr_profiles;

/* The profile called @name, or NULL. */
const struct coh_profile *coh_find_profile(const char *name);
/* Their names for messages: "p3xeon4, p3xeon8, numaq16, modern". */
const char *coh_profile_names(void);

struct coh_stats {
	uint64_t touches, transfers, lock_ops, lock_waits, handoffs, evictions, mem_fetches;
	double transfer_ns, lock_wait_ns, mem_ns;
};

struct coh;

/*
 * The model for @topo under @p, for lines 0..nr_lines-1 (SCHED_LINE_*). @task_align: the
 * scheduler's task_align (sched_ops): when it is not 0, every task's scheduling line sits
 * at the same offset of a block of @task_align bytes, so in a cache whose ways are at
 * least that large they all compete for the same sets: each CPU keeps at most
 * coh_task_lines() of them (least recently used out). 0: no limit. NULL: no memory.
 */
struct coh *coh_create(const struct sched_topo *topo, const struct coh_profile *p,
		       unsigned nr_lines, unsigned task_align);

/* How many task lines one CPU's cache holds under @p with @task_align (0: no limit). */
unsigned coh_task_lines(const struct coh_profile *p, unsigned task_align);
void coh_destroy(struct coh *c);

/* What one transfer from @from to @to costs (0 for the same CPU). */
double coh_distance_ns(const struct coh *c, unsigned from, unsigned to);

/*
 * coh_touch - @cpu reads (@write 0) or writes @line
 * A read of a line @cpu does not hold costs one transfer from its nearest holder; a
 * write costs the farthest other holder's transfer (every copy is invalidated) and
 * leaves @cpu the only holder. A line no CPU holds comes from memory: free on its first
 * touch (the scheduler's own constants price a cold access), mem_ns once a cache has
 * evicted it (a capacity/conflict miss; only task lines under a task_align are evicted).
 * Return: the ns it costs @cpu.
 */
double coh_touch(struct coh *c, unsigned cpu, unsigned line, int write);

/*
 * coh_lock - @cpu takes the spin lock in @line at @now and holds it @hold_ns
 * It waits until the lock is free; the line then moves to @cpu (a write). When it had
 * to wait, every other CPU still spinning at the handoff re-reads the line and retries
 * its atomic (test-and-test-and-set, 2.4's spin_lock), so the handoff costs one
 * transfer per spinner besides its own: the spinners counted are those queued ahead of
 * @cpu when it arrived (for a FIFO queue, what an arrival sees is what a departure leaves
 * behind). A CPU that took the lock last and whose hold is not over yet (an earlier
 * operation of the same event) does not wait for itself: its charged time covers it.
 * Return: the ns @cpu spends before it holds the lock (waiting, spinning, the transfer).
 */
double coh_lock(struct coh *c, unsigned cpu, unsigned line, uint64_t now, double hold_ns);

const struct coh_stats *coh_stats(const struct coh *c);

#ifdef __cplusplus
}
#endif

#endif /* HWS_COHERENCE_H */
