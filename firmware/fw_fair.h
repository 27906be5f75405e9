/*
 * fw_fair.h - the fair-share policies: CFS as of Linux 2.6.26 (fw_cfs.c, scheduler `cfs`)
 * and EEVDF as of Linux 6.6 (fw_eevdf.c, scheduler `eevdf`), over one shared core
 * (fw_fair.c): per-CPU run queues of sched entities ordered by vruntime in an O(log n)
 * tree, per-group entities per CPU with their shares, the SMP group balancer (h_load and
 * the shares update) and domain balancing with the O(1) firmware's code (fw_domain.c,
 * lib/hws_balance.c, lib/hws_topo.c). docs/cfs.md and docs/eevdf.md give every constant
 * and formula with the kernel version it comes from.
 *
 * The run-queue primitives and each policy's rules are exported so that the tests can
 * work cases by hand on a bare run queue (tests/firmware/fair_test.cc).
 */
#ifndef HWS_FW_FAIR_H
#define HWS_FW_FAIR_H

#include <stdint.h>

#include "hws/sched.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FAIR_NICE_0_LOAD 1024u
#define FAIR_MIN_SHARES 2u		/* 2.6.26 MIN_SHARES */
#define FAIR_MAX_SHARES (1u << 18)	/* 2.6.26 MAX_SHARES */

/* A sched entity: a task, or a task group on one CPU. */
struct fair_ent {
	uint64_t vruntime;	/* ns of virtual time; compared modulo 2^64 as Linux does */
	uint64_t deadline;	/* EEVDF: virtual deadline */
	int64_t vlag;		/* EEVDF: lag saved at dequeue (RUN_TO_PARITY: = deadline while
				   picked and not yet given a new slice) */
	uint64_t slice;		/* EEVDF: ns of its request */
	uint32_t weight;	/* load weight (a task's by nice; a group's share on this CPU) */
	uint64_t exec_start, sum_exec, prev_sum_exec;	/* ns */
	int on_rq;
	unsigned key;		/* tie-break of equal vruntimes, and the tree's heap priority */
	struct fair_rq *my_q;	/* a group entity's own run queue; NULL for a task */
	/* the tree (a treap: ordered by vruntime, heap by hash(key)) */
	struct fair_ent *left, *right;
	uint32_t hprio;
	uint64_t min_deadline;	/* of the subtree (EEVDF's augmentation) */
};

/* A run queue (struct cfs_rq): the root one of a CPU, or a group's on a CPU. */
struct fair_rq {
	uint64_t load;		/* summed weight of its entities on_rq, curr included */
	unsigned nr_running;	/* its entities on_rq, curr included */
	uint64_t min_vruntime;
	int64_t avg_vruntime;	/* EEVDF: sum of (vruntime - min_vruntime) * weight, tree only */
	uint64_t avg_load;	/* EEVDF: summed weight of the tree's entities */
	struct fair_ent *root;	/* the tree: entities on_rq but curr */
	struct fair_ent *curr;	/* the entity running (picked) from this queue, or NULL */
	struct fair_ent *se;	/* the group entity that stands for it one level up; NULL: root */
	struct fair_rq *parent;	/* NULL: a CPU's root queue */
	unsigned cpu;		/* the CPU it belongs to */
};

/* The tunables of a policy, scaled to the machine (docs/cfs.md, docs/eevdf.md). */
struct fair_tun {
	uint64_t latency, min_granularity, wakeup_granularity;	/* CFS, ns */
	unsigned nr_latency;					/* CFS */
	uint64_t migration_cost;				/* both, ns (cache-hot) */
	uint64_t base_slice;					/* EEVDF, ns */
	int child_runs_first;					/* CFS */
	/* EEVDF by kernel version (eevdf_version(), docs/eevdf.md) */
	unsigned kernel;	/* major x 100 + minor: 606 = 6.6 */
	int linux6;		/* 6.x placement, balancing and PELT (fw_fair6.c) */
	int delay_dequeue;	/* 6.12: DELAY_DEQUEUE, DELAY_ZERO, PLACE_REL_DEADLINE */
	int preempt_short;	/* 6.12: PREEMPT_SHORT's did_preempt_short() at update_curr */
	uint64_t tick_nsec;	/* TICK_NSEC: a tick at the machine's HZ (0: 1 ms) */
};

/* enqueue flags */
#define FAIR_ENQ_WAKEUP 1	/* the end of a sleep */
#define FAIR_ENQ_INITIAL 2	/* a new task */

/* ---- The run queue (fw_fair.c) ---- */
void fair_rq_init(struct fair_rq *rq);
/* calc_delta_fair(): @delta ns of real time as virtual time of an entity of @weight. */
uint64_t fair_calc_delta(uint64_t delta, uint32_t weight);
/* Put @se in the tree / take it out (the accounting of load and nr_running is apart). */
void fair_tree_insert(struct fair_rq *rq, struct fair_ent *se);
void fair_tree_remove(struct fair_rq *rq, struct fair_ent *se);
/* The tree's entity of least vruntime, or NULL. */
struct fair_ent *fair_leftmost(const struct fair_rq *rq);
/* account_entity_enqueue + __enqueue_entity (unless @se is curr), and the reverse. */
void fair_account_add(struct fair_rq *rq, struct fair_ent *se);
void fair_account_remove(struct fair_rq *rq, struct fair_ent *se);
/* update_min_vruntime(): max(min_vruntime, min(curr, leftmost)). */
void fair_update_min_vruntime(struct fair_rq *rq);
/* update_curr()'s arithmetic: @curr ran @delta ns (sum_exec, vruntime, min_vruntime). */
void fair_charge_curr(struct fair_rq *rq, uint64_t delta);

/* ---- CFS, Linux 2.6.26 (fw_cfs.c) ---- */
void cfs_tunables(unsigned nr_cpus, struct fair_tun *t);
/* __sched_period(): latency, or nr_running x min_granularity beyond nr_latency. */
uint64_t cfs_sched_period(const struct fair_tun *t, unsigned nr_running);
/* sched_slice(): the period x weight / the queue's load. */
uint64_t cfs_sched_slice(const struct fair_tun *t, const struct fair_rq *rq,
			 const struct fair_ent *se);
/* place_entity(): START_DEBIT for a new task, the sleeper credit for a waking one. */
void cfs_place(const struct fair_tun *t, struct fair_rq *rq, struct fair_ent *se, int flags);
/* check_preempt_wakeup()'s test: 1 when @se (woken) preempts @curr (same queue). */
int cfs_wakeup_preempt(const struct fair_tun *t, const struct fair_ent *curr,
		       const struct fair_ent *se);
/* check_preempt_tick(): 1 when @curr ran more than its slice since it was picked. */
int cfs_tick_preempt(const struct fair_tun *t, const struct fair_rq *rq,
		     const struct fair_ent *curr);

/* ---- EEVDF, Linux 6.6 (fw_eevdf.c) ---- */
void eevdf_tunables(unsigned nr_cpus, struct fair_tun *t);
/*
 * eevdf_version - what changes with the kernel version @kernel (major x 100 + minor; 0 is
 * 6.6): the base slice (0.70 ms from 6.15, else 0.75 ms, scaled as eevdf_tunables()
 * scales it) and the 6.12 features; every version has 6.x placement and balancing.
 */
void eevdf_version(unsigned kernel, unsigned nr_cpus, struct fair_tun *t);
/* avg_vruntime(): the load-weighted mean vruntime of the queue, curr included. */
uint64_t eevdf_avg_vruntime(const struct fair_rq *rq);
/* entity_eligible(): lag >= 0, i.e. vruntime <= avg_vruntime. */
int eevdf_eligible(const struct fair_rq *rq, const struct fair_ent *se);
/* update_entity_lag(): vlag = avg_vruntime - vruntime, clamped (at dequeue). */
void eevdf_save_lag(const struct fair_tun *t, struct fair_rq *rq, struct fair_ent *se);
/* place_entity(): vruntime = avg_vruntime - the lag scaled by the load; deadline. */
void eevdf_place(const struct fair_tun *t, struct fair_rq *rq, struct fair_ent *se, int flags);
/* pick_eevdf(): the eligible entity with the earliest deadline (curr included). */
struct fair_ent *eevdf_pick(const struct fair_rq *rq);
/* update_deadline(): a new request once the deadline is passed; 1: reschedule. */
int eevdf_update_deadline(const struct fair_tun *t, struct fair_rq *rq, struct fair_ent *se);

/* What a policy does differently; the core (fw_fair.c) does the rest. */
struct fair_policy {
	void (*tunables)(unsigned nr_cpus, struct fair_tun *t);
	/* Placement at enqueue; CFS places only waking and new tasks, EEVDF every enqueue. */
	void (*place)(const struct fair_tun *t, struct fair_rq *rq, struct fair_ent *se,
		      int flags);
	int place_always;
	/* The entity to run next of @rq (curr is not in the tree when it is NULL). */
	struct fair_ent *(*pick)(const struct fair_rq *rq);
	/* update_curr() ran on @rq: 1 asks to reschedule (EEVDF's new request). */
	int (*curr_updated)(const struct fair_tun *t, struct fair_rq *rq, struct fair_ent *curr);
	/* Tick on a queue of more than one entity: 1 reschedules. */
	int (*tick_preempt)(const struct fair_tun *t, const struct fair_rq *rq,
			    const struct fair_ent *curr);
	/* A woken @se on @curr's queue: 1 preempts. */
	int (*wakeup_preempt)(const struct fair_tun *t, const struct fair_rq *rq,
			      const struct fair_ent *curr, const struct fair_ent *se);
	/* At dequeue (EEVDF saves the lag); may be NULL. */
	void (*dequeued)(const struct fair_tun *t, struct fair_rq *rq, struct fair_ent *se);
	/* At set_next_entity (EEVDF: RUN_TO_PARITY's mark); may be NULL. */
	void (*picked)(struct fair_ent *se);
	/* update_min_vruntime() at dequeue too (6.6; 2.6.26 only in update_curr). */
	int min_on_dequeue;
};

extern const struct fair_policy fair_cfs_policy;
extern const struct fair_policy fair_eevdf_policy;

/* The core's scheduler over a policy (sched_cfs_ops and sched_eevdf_ops use it). */
struct sched *fair_create(const struct fair_policy *p, const struct sched_env *env,
			  const struct sched_opts *o, char *msg, size_t len);

/* The entity of task @id of a scheduler fair_create() made (for tests and reports). */
const struct fair_ent *fair_task_entity(const struct sched *s, unsigned id);
/* The tunables it runs with. */
const struct fair_tun *fair_tunables(const struct sched *s);
/* Linux 6.x (eevdf): @cpu's PELT load and utilization averages (cpu_load(), cpu_util()),
 * brought up to now. */
double fair_cpu_load(struct sched *s, unsigned cpu);
double fair_cpu_util(struct sched *s, unsigned cpu);
/* Linux 6.12+ (eevdf): task @id blocked but still queued (DELAY_DEQUEUE). */
int fair_task_delayed(const struct sched *s, unsigned id);

/**
 * fair_group_share - a task group's weight on one CPU (2.6.27's update shares)
 * @shares: the group's shares
 * @rq_weight: the group's runnable weight on that CPU (0: counted as one nice-0 task)
 * @sum_weight: its runnable weight on every CPU
 *
 * Return: shares x rq_weight / (sum_weight + 1), rq_weight at most sum_weight, clamped
 * to FAIR_MIN_SHARES..FAIR_MAX_SHARES; a group with nothing runnable anywhere counts
 * sum_weight as one nice-0 task (docs/cfs.md).
 */
uint32_t fair_group_share(uint32_t shares, uint64_t rq_weight, uint64_t sum_weight);

#ifdef __cplusplus
}
#endif

#endif /* HWS_FW_FAIR_H */
