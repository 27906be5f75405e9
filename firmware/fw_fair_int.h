/*
 * fw_fair_int.h - what the fair core (fw_fair.c) and its Linux 6.x placement and balancing
 * (fw_fair6.c) share: the scheduler's state and the core's operations they call in each
 * other. Not for use outside firmware/.
 */
#ifndef HWS_FW_FAIR_INT_H
#define HWS_FW_FAIR_INT_H

#include "firmware/fw_fair.h"
#include "firmware/fw_rq.h"

#define NIL (-1)

/*
 * PELT, the per-entity load tracking of Linux 3.8+ (kernel/sched/pelt.c): geometric
 * averages with a half-life of 32 periods of 1024 us, kept here in their continuous form
 * (docs/eevdf.md, "Linux 6.x"). load: the weight while on a run queue; runnable: 1024
 * while runnable; util: 1024 while running. t: when they were last brought up to date.
 */
struct fair_pelt {
	double load, runnable, util;
	uint64_t t;
};

struct ftask {
	struct fair_ent se;	/* first: a task's entity converts back to its ftask */
	int cpu;		/* queued on (running and delayed included), or NIL */
	int rq_cpu;		/* the CPU whose queue its vruntime is relative to, or NIL */
	int next, prev;		/* the per-CPU list of queued tasks (balancing walks it) */
	int parent;		/* the task that forked it, or NIL */
	/* Linux 6.x (fw_fair6.c) */
	int delayed;		/* DELAY_DEQUEUE: blocked, but on its queue until eligible */
	struct fair_pelt avg;	/* its own averages */
	int avg_cpu;		/* the CPU its averages are attached to, or NIL (new) */
	unsigned wakee_flips;	/* record_wakee(): how often it wakes another task than last */
	uint64_t flip_decay;	/* when wakee_flips was last halved */
	int last_wakee;		/* the task it woke last, or NIL */
	int recent_used_cpu;	/* select_idle_sibling()'s candidate */
	int64_t rel_deadline;	/* PLACE_REL_DEADLINE: deadline - vruntime across a move */
	int has_rel_deadline;
};

/* One sched domain of one CPU (Linux 6.x's struct sched_domain, the balancing state). */
struct fair_sd {
	uint64_t last_balance;	/* ns */
	unsigned balance_interval;	/* ms */
	unsigned nr_balance_failed;
	/* newidle balancing's cost and success (sched_balance_newidle, NI_RANDOM) */
	uint64_t max_newidle_lb_cost, last_decay;
	unsigned newidle_call, newidle_success, newidle_ratio;
};

struct fcpu {
	struct fair_rq root;
	struct sched_task *curr;	/* picked and running */
	unsigned nr;			/* tasks on the queue: running, queued and delayed */
	unsigned nr_delayed;		/* of them, DELAY_DEQUEUE's blocked ones */
	int head, tail;			/* the list: most recently queued or run first */
	uint32_t hist;			/* decayed root load (cpu_load) */
	int resched;
	int64_t last_balance[4], interval[4];
	unsigned failed[4];
	int push_task;			/* active balance: the running task to move once off */
	unsigned push_to;
	/* Linux 6.x (fw_fair6.c) */
	struct fair_pelt avg;		/* the root queue's averages (cpu_load(), cpu_util()) */
	struct fair_sd sd[4];		/* per level */
	uint64_t avg_idle, max_idle_balance_cost, idle_stamp;	/* ns */
	int active_balance;		/* a push to push_to is pending (the stopper) */
	unsigned idle_flips;		/* record_wakee() of the idle task */
	uint64_t idle_flip_decay;
	int idle_last_wakee;
	struct sched_task *prev_curr;	/* put back at prev_at while runnable */
	uint64_t prev_at;
};

struct sched {
	const struct fair_policy *pol;
	struct fair_tun tun;
	const struct sched_env *env;
	struct sched_env denv;
	struct sched_topo dtopo;
	struct sched_opts opts;
	unsigned ncpu, ngroups;
	int levels[4], nlevels;
	int wake_balance;
	int tick_shares;	/* shares updated by the tick only */
	struct ftask *t;
	struct sched_task **tp;
	struct fcpu *c;
	struct fair_rq *grq;	/* group g's queue on CPU c: grq[(g - 1) * ncpu + c] */
	struct fair_ent *gse;	/* and its entity on c's root queue */
	uint64_t core_of[HWS_MAX_CPUS];
	uint64_t moves, balances, active_balances, wake_affine, wake_idle, wake_preempts;
	uint64_t reweights, delayed_dequeues;
	unsigned on_cpu;	/* the CPU whose call is under way (coherence: who touches) */
	/* Linux 6.x (fw_fair6.c) */
	int rd_overloaded;	/* some CPU has had more than one task (root_domain) */
	int nr_idle_scan;	/* SIS_UTIL: CPUs select_idle_cpu() scans, per LLC */
	uint64_t rng;		/* NI_RANDOM's dice */
};

/* ---- The core (fw_fair.c), for fw_fair6.c ---- */
uint64_t fair_now(const struct sched *s);
int fair_allowed(const struct sched_task *t, unsigned cpu);
struct fair_rq *fair_rq_of(struct sched *s, unsigned group, unsigned cpu);
void fair_move_task(struct sched *s, struct sched_task *t, unsigned from, unsigned to);
void fair_check_preempt(struct sched *s, unsigned cpu, struct sched_task *t);
void fair_update_curr_chain(struct sched *s, unsigned cpu);

/* ---- Linux 6.x (fw_fair6.c) ---- */
/* Bring @t's averages and its CPU's up to now (before a change of its state). */
void fair6_pelt_task(struct sched *s, struct sched_task *t);
void fair6_pelt_cpu(struct sched *s, unsigned cpu);
/* @t's averages follow it to @cpu (attach; detach from where they were). */
void fair6_pelt_move(struct sched *s, struct sched_task *t, unsigned cpu);
/* A new task's first averages (init_entity_runnable_average, post_init_entity_util_avg). */
void fair6_pelt_new(struct sched *s, struct sched_task *t, unsigned cpu);
/* select_task_rq_fair(): where @t, woken (or forked) from @waker, is queued. */
unsigned fair6_select_cpu(struct sched *s, struct sched_task *t, unsigned waker,
			  enum sched_wake_kind kind);
/* The periodic balance of @cpu's tick (sched_balance_trigger, and the nohz kick). */
int fair6_tick_balance(struct sched *s, unsigned cpu, struct sched_task *curr);
/* sched_balance_newidle(): @cpu is about to idle; 1 when it pulled a task. */
int fair6_newidle(struct sched *s, unsigned cpu);
/* A task was queued on idle @cpu: its avg_idle learns the idle time (ttwu_do_wakeup). */
void fair6_idle_ends(struct sched *s, unsigned cpu);
/* The pending active balance of @cpu, once its running task is off it. */
void fair6_active_balance(struct sched *s, unsigned cpu);
/* Per-CPU initial state. */
void fair6_init(struct sched *s);

#endif /* HWS_FW_FAIR_INT_H */
