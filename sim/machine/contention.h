/*
 * contention.h - what bounds a seed benchmark besides the scheduler (docs/simulator.md,
 * "Contention"): the loopback socket path (tbench, VolanoMark; hackbench's AF_UNIX
 * messages pay only its cache lines), the file system's global locks (dbench: dcache_lock
 * and the page cache's per-node LRU lock) and remote memory on a NUMA profile (a task's
 * bursts run slower on a node that is not its memory's). Each applies only under a machine
 * profile (it prices the cache lines) and can be turned off with a workload key (net=0,
 * fs=0, numa=0). Every constant and its source is in contention.c's table.
 * Not for use outside sim/machine/.
 */
#ifndef HWS_CONTENTION_H
#define HWS_CONTENTION_H

#include <stdint.h>

#include "sim/machine/coherence.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A workload's contention constants (contention.c's cont_table gives each source). */
struct cont_params {
	const char *workload;
	/* the loopback path, per message: the device's transmit lock held lo_hold_ns
	 * (0: not over loopback, e.g. AF_UNIX), and when its reader runs on another CPU
	 * than its writer, msg_lines cache lines at the profile's transfer price plus
	 * msg_bytes of payload at the profile's bus bandwidth */
	double lo_hold_ns;
	unsigned msg_lines;
	double msg_bytes;
	/* the file system, per operation: dcache_lock taken dcache_ops times for
	 * dcache_hold_ns each, the local node's LRU lock lru_ops times for lru_hold_ns */
	unsigned dcache_ops;
	double dcache_hold_ns;
	unsigned lru_ops;
	double lru_hold_ns;
	/* remote memory: the fraction of a burst's time stalled on memory when local */
	double mem_frac;
};

/* The constants of workload @name, or NULL (no contention model). */
const struct cont_params *cont_find(const char *name);

/* The switches of a run (workload keys) and the models in force. */
struct cont {
	const struct cont_params *p;	/* NULL: none */
	int net, fs, numa;		/* in force (each needs a profile) */
	double numa_ratio;		/* remote / local memory time (the profile's) */
};

/* A spin lock of the workload's kernel data (coh_spin()). */
#define CONT_PENDING 128
struct cont_lock {
	double free_at;
	int holder;		/* the CPU that took it last + 1, 0: never */
	double grant[CONT_PENDING];	/* when recent acquisitions began to hold */
	unsigned next;
};

/* What the models cost in a run (the report's "contention" line, --json cont_*). */
struct cont_stats {
	uint64_t lo_packets, lo_waits, msg_remote, fs_ops, fs_waits, numa_bursts;
	double lo_wait_ns, msg_ns, fs_wait_ns, numa_ns;
};

/*
 * cont_spin - @cpu takes spin lock @l at @now and holds it @hold_ns; return the ns it
 * spends before holding: waiting for the holder, and the lock's line, which moves from
 * the last holder at the distance price of @c (each CPU still spinning at the handoff
 * re-reads it too: one more transfer each, as coh_lock()). @waited: set to 1 when it had
 * to wait. A CPU that took it last and whose hold is not over yet (an earlier packet of
 * the same step) does not wait for itself.
 */
double cont_spin(const struct coh *c, struct cont_lock *l, unsigned cpu, uint64_t now,
		 double hold_ns, int *waited);

#ifdef __cplusplus
}
#endif

#endif /* HWS_CONTENTION_H */
