/*
 * hws_balance - Linux 2.6's load-balancing arithmetic in plain C: the software reference
 * of the load-comparison unit's queries, and the code path of the software schedulers.
 *
 *   domain (span of CPUs) = groups (child domains' spans), each with a cpu_power
 *   per CPU: load now (weighted, nice 0 = 1024) and the decayed history (cpu_load)
 *
 *   hws_find_busiest()      find_busiest_group() + find_busiest_queue() (2.6.12 rules)
 *   hws_find_idlest()       the least-loaded allowed CPU (fork/exec/wake placement)
 *   hws_find_idle_core()    select_idle_sibling()'s scan for a wholly idle SMT core
 *
 * Integer arithmetic exactly as documented in docs/balance.md; the hardware queries must
 * give the same answers bit for bit. Nothing here allocates or prints.
 */
#ifndef HWS_BALANCE_H
#define HWS_BALANCE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A nice-0 task's load weight, and one full CPU's cpu_power (2.6.23+'s scale). */
#define HWS_SCHED_LOAD_SCALE 1024u
#define HWS_MAX_CPUS 64
#define HWS_MAX_GROUPS 64
/* Group powers the hardware can hold (docs/accelerator.md 8.2-8.3: every load fits 32 bits). */
#define HWS_BAL_MIN_POWER 256u
#define HWS_BAL_MAX_POWER 131071u

enum hws_idle_type {
	HWS_CPU_NOT_IDLE,	/* periodic balance of a busy CPU: loads with history */
	HWS_CPU_IDLE,		/* periodic balance of an idle CPU: loads now */
	HWS_CPU_NEWLY_IDLE,	/* balance on becoming idle: loads now */
};

/* One sched domain as find_busiest_group() sees it. */
struct hws_sd {
	unsigned nr_groups;			/* 1..HWS_MAX_GROUPS */
	uint64_t group_cpus[HWS_MAX_GROUPS];	/* disjoint CPU masks; union = span */
	uint32_t group_power[HWS_MAX_GROUPS];	/* cpu_power, HWS_BAL_MIN_POWER..HWS_BAL_MAX_POWER */
	unsigned imbalance_pct;			/* 100..255, e.g. 125 */
};

/* Per-CPU input. */
struct hws_cpu_load {
	uint32_t now;	/* weighted load of the run queue */
	uint32_t hist;	/* decayed history (LOAD_TICK) */
};

/* Which rule ended the search; the hardware reports the same code. */
enum hws_balance_verdict {
	HWS_BAL_NO_BUSIEST = 1,		/* no other group has load above 0 */
	HWS_BAL_THIS_IS_MAX,		/* this_load >= max_load */
	HWS_BAL_THIS_ABOVE_AVG,		/* this_load >= avg_load */
	HWS_BAL_WITHIN_PCT,		/* 100 * max_load <= imbalance_pct * this_load */
	HWS_BAL_NO_GAIN,		/* small imbalance, and moving gains too little */
	HWS_BAL_MOVE,			/* move imbalance_load */
	HWS_BAL_MOVE_ONE,		/* small imbalance: move one task */
};

struct hws_balance {
	enum hws_balance_verdict verdict;
	int busiest_group;	/* -1 when none */
	int busiest_cpu;	/* find_busiest_queue(): -1 when balanced */
	int this_group;
	uint32_t this_load;	/* the groups' loads scaled by power: sum * 1024 / power */
	uint32_t max_load;
	uint32_t avg_load;	/* the domain's (0 when not reached) */
	uint32_t imbalance;	/* weighted load to move (0 when balanced) */
};

/**
 * hws_find_busiest - find_busiest_group() and find_busiest_queue() of Linux 2.6.12
 * @sd: the domain
 * @this_cpu: the CPU that balances; it must be in a group of @sd
 * @idle: its idle type
 * @cpus: loads of every CPU (indexed by CPU number)
 * @out: the answer
 *
 * Return: 0, or -EINVAL when @sd is inconsistent (overlapping or empty groups, a power of
 * 0, too many groups, @this_cpu in no group).
 */
int hws_find_busiest(const struct hws_sd *sd, unsigned this_cpu, enum hws_idle_type idle,
		     const struct hws_cpu_load *cpus, struct hws_balance *out);

/**
 * hws_find_idlest - the allowed CPU with the least load now
 * @allowed: candidate CPUs
 * @cpus: loads
 * @prefer: on a tie with the minimum, this CPU wins (pass -1 for none); otherwise the
 *          lowest CPU number wins
 *
 * Return: the CPU, or -1 when @allowed is empty.
 */
int hws_find_idlest(uint64_t allowed, const struct hws_cpu_load *cpus, int prefer);

/**
 * hws_find_idle_core - select_idle_sibling()'s scan (Linux 3.x, 2012)
 * @llc: the CPUs sharing the last-level cache with @this_cpu
 * @core_of: for each CPU, a mask of its SMT core (itself and its siblings)
 * @idle: idle CPUs
 * @this_cpu: where the scan starts; it goes up from @this_cpu and wraps around
 *
 * Return: the first CPU, scanning from @this_cpu, whose whole core (within @llc) is idle;
 * else the first idle CPU in @llc in the same order; else -1.
 */
int hws_find_idle_core(uint64_t llc, const uint64_t *core_of, uint64_t idle,
		       unsigned this_cpu);

#ifdef __cplusplus
}
#endif

#endif /* HWS_BALANCE_H */
