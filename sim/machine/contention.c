/*
 * contention.c - the contention models (contention.h): their constants, one line per
 * workload, and the spin lock of the workload's kernel data. The machine applies them in
 * programs.c (messages, dbench's operations, bursts off their memory's node) and
 * workload.c (hackbench's messages). docs/simulator.md ("Contention") has the rules and
 * the sources in prose; estimates are marked as such there and here.
 */
#include "sim/machine/contention.h"

#include <string.h>

/*
 * The constants. Sources (the numbers are P-III era; the profiles price the lines):
 *  lo_hold_ns   1000: 2.4's dev_queue_xmit() takes dev->xmit_lock for a device without a
 *               queue, loopback's case (net/core/dev.c, 2.4.x; loopback_xmit() and
 *               netif_rx() run under it), until 2.6's NETIF_F_LLTX let loopback skip it.
 *               The hold is an estimate: a few hundred instructions of loopback_xmit()
 *               and netif_rx() at 700 MHz, about 1 us.
 *  msg_lines    8: the lines a message's reader pulls from its writer's cache besides the
 *               payload: the sk_buff head (2.4's struct sk_buff is about 160 bytes, 5
 *               lines of the P-III's 32), the socket's receive queue and wait queue (2),
 *               the TCP/unix socket state (1). Estimate from the structures' sizes.
 *  msg_bytes    the payload: tbench 4096 (our unit, 4 KB per request and response),
 *               VolanoMark 100 and hackbench 100 (hackbench.c's DATASIZE; a chat line is
 *               of that size: estimate).
 *  dcache_*     dcache_lock, one lock for the whole dentry cache in 2.4 and 2.6.0: mean
 *               hold 2.0 us measured by lockmeter on an 8-way P-III Xeon with the RCU
 *               dcache (Sarma, "specweb99: dcache scalability results", linux-kernel,
 *               2002-07-12; 2.6.0 has that RCU dcache, merged in 2.5.62). dcache_ops 4
 *               per 64 KB operation: with RCU lookups, what still takes the lock is a
 *               create, an unlink, a rename and the last dput of a dentry; estimate from
 *               dbench's NetBench load, which mixes such calls with reads and writes.
 *  lru_*        the page cache's LRU lock (zone->lru_lock, one per NUMA node's zone in
 *               2.6.0, mm/swap.c): pages join and leave the LRU in pagevecs of 16
 *               (PAGEVEC_SIZE), so a 64 KB operation (16 pages) takes it twice (added,
 *               later freed); 1.6 us held for 16 pages at about 100 ns each: estimate.
 *  mem_frac     the share of a burst's time stalled on memory when the memory is local:
 *               0.5 for the kernel-heavy workloads (file system, network, pipes), 0.2
 *               for a compiler. Estimates: commercial and OS-heavy workloads on servers
 *               of the time spent about half their cycles in memory stalls (Barroso,
 *               Gharachorloo, Bugnion, ISCA 1998), compute-bound code far less.
 */
static const struct cont_params cont_table[] = {
	/* workload     lo_hold lines bytes  dcache        lru           mem */
	{ "tbench", 1000, 8, 4096, 0, 0, 0, 0, 0.5 },
	{ "volanomark", 1000, 8, 100, 0, 0, 0, 0, 0.5 },
	{ "hackbench", 0, 8, 100, 0, 0, 0, 0, 0.5 },
	{ "dbench", 0, 0, 0, 4, 2000, 2, 1600, 0.5 },
	{ "kernbench", 0, 0, 0, 0, 0, 0, 0, 0.2 },
};

const struct cont_params *cont_find(const char *name)
{
	for (unsigned i = 0; name && i < sizeof(cont_table) / sizeof(cont_table[0]); i++)
		if (!strcmp(name, cont_table[i].workload))
			return &cont_table[i];
	return NULL;
}

double cont_spin(const struct coh *c, struct cont_lock *l, unsigned cpu, uint64_t now,
		 double hold_ns, int *waited)
{
	double t = (double)now, wait = 0, xfer = 0, start;
	unsigned ahead = 0;

	*waited = 0;
	if (l->holder == (int)cpu + 1 && l->free_at > t) {
		l->free_at += hold_ns;	/* its own earlier hold: its charged time covers it */
		return 0;
	}
	if (l->free_at > t) {
		wait = l->free_at - t;
		for (unsigned i = 0; i < CONT_PENDING; i++)
			if (l->grant[i] > t)
				ahead++;
		*waited = 1;
	}
	if (l->holder && l->holder != (int)cpu + 1)
		xfer = coh_distance_ns(c, (unsigned)(l->holder - 1), cpu);
	if (wait > 0)
		xfer *= 1 + ahead;	/* the spinners re-read the line at the handoff */
	l->holder = (int)cpu + 1;
	start = t + wait + xfer;
	l->grant[l->next] = start;
	l->next = (l->next + 1) % CONT_PENDING;
	l->free_at = start + hold_ns;
	return wait + xfer;
}
