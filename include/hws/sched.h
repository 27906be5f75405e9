/*
 * sched.h - the scheduler interface: what a machine offers a scheduler (struct
 * sched_env), what a scheduler does (struct sched_ops), and the scheduler's typed options
 * (struct sched_opts). Schedulers: firmware/fw_o1.c (the O(1) policy on the engine, "hw",
 * or on software run queues, "o1"), firmware/linux24.c, and the fair policies of
 * firmware/fw_fair.c ("cfs", "eevdf"); the machine that drives them
 * is sim/machine/, but nothing here knows it.
 *
 * The machine owns time, tasks' behaviour and the CPUs; a scheduler owns the runnable
 * tasks that are not running. A task is always in exactly one place:
 *
 *   RUNNING   on one CPU (the machine's curr[cpu])
 *   QUEUED    inside the scheduler, on one CPU's queue (linux24: the one global queue,
 *             reported as CPU 0)
 *   BLOCKED   with the machine (sleeping, waiting for a message, not yet forked, exited)
 *
 * Every call below runs "on" a CPU at the machine's current time. The scheduler charges
 * what its work costs (ns of CPU time, priced by struct sched_costs or its own constants)
 * with env->charge(), naming the kind of work (enum sched_work); the machine delays that
 * CPU by it and counts it as scheduler overhead.
 */
#ifndef HWS_SCHED_H
#define HWS_SCHED_H

#include <stddef.h>
#include <stdint.h>

#include "hws/regs.h"

#ifdef __cplusplus
extern "C" {
#endif

struct hws_transport;

#define SCHED_MAX_CPUS 64
#define SCHED_NICE_0_PRIO (HWS_MAX_RT_PRIO + 20)	/* Linux NICE_TO_PRIO(0) */
/* Task groups a workload may have: what the default engine holds (NR_GROUPS). */
#define SCHED_MAX_GROUPS HWS_DEF_GROUPS

/* The machine's shape: levels of the sched-domain hierarchy (section 8.1 of the spec). */
struct sched_topo {
	unsigned nr_cpus;		/* 1..SCHED_MAX_CPUS */
	unsigned smt, cores, pkgs, nodes;	/* per core, per package, per node, nodes */
	/* lead[k][cpu]: first CPU of cpu's block: k 0 core (SMT siblings), 1 package, 2 node */
	uint8_t lead[3][SCHED_MAX_CPUS];
};

/* A task as the scheduler sees it. The machine allocates and owns it. */
struct sched_task {
	unsigned id;			/* 0..nr_tasks-1, unique among live tasks */
	int nice;			/* -20..19 */
	int rt_prio;			/* -1: SCHED_NORMAL; 0..99: SCHED_RR, lower is higher */
	unsigned group;			/* task group (cgroup), 0 = root */
	uint64_t allowed;		/* CPU affinity mask */

	/* Owned by the scheduler. */
	int cpu;			/* the CPU it is queued on, last ran on, or -1 */
	int static_prio, prio;		/* 100..139 for normal tasks */
	int64_t time_slice;		/* ns left of its slice */
	int64_t first_slice;		/* ns of its first slice (returned to the parent at exit) */
	int64_t sleep_avg;		/* ns, 0..MAX_SLEEP_AVG */
	uint64_t timestamp;		/* when it last started running or was woken (ns) */
	uint64_t last_ran;		/* when it last stopped running (ns), for cache-hot */
	int array;			/* 0 active, 1 expired (o1) */
	int64_t counter;		/* linux24: ticks left */
	void *sched_priv;		/* anything else a scheduler needs */
};

/*
 * Shared scheduler data as cache lines (docs/simulator.md, "Coherence"): a scheduler names
 * the line it reads or writes, or the spin lock it takes, with env->touch / env->lock.
 */
#define SCHED_LINE_RQ(cpu)	((unsigned)(cpu))	/* a run queue's lock and header */
#define SCHED_LINE_GLOBAL_LOCK	((unsigned)SCHED_MAX_CPUS)	/* linux24's runqueue_lock */
#define SCHED_LINE_TASKLIST	((unsigned)SCHED_MAX_CPUS + 1)	/* linux24's task list */
#define SCHED_LINE_TASK(id)	((unsigned)SCHED_MAX_CPUS + 2 + (unsigned)(id))	/* its sched fields */
#define SCHED_NR_LINES(nr_tasks)	SCHED_LINE_TASK(nr_tasks)

/* What the machine offers a scheduler. */
struct sched_env {
	void *machine;
	const struct sched_topo *topo;
	unsigned nr_tasks;		/* task ids are < nr_tasks */
	unsigned nr_groups;		/* group ids are < nr_groups */
	const uint32_t *group_shares;	/* per group, default 1024 */
	uint64_t (*now)(void *machine);	/* ns */
	/* Charge @ns of CPU time on @cpu to scheduling; @what names the cost-model item. */
	void (*charge)(void *machine, unsigned cpu, double ns, int what);
	/* The scheduler moved queued task @t from @from to @to (balancing). */
	void (*moved)(void *machine, struct sched_task *t, unsigned from, unsigned to);
	/* Ask @cpu to reschedule soon (it got work while idle, or must preempt). */
	void (*kick)(void *machine, unsigned cpu);
	/* Is @cpu running a task now? */
	int (*cpu_busy)(void *machine, unsigned cpu);
	/* The task running on @cpu, or NULL. */
	struct sched_task *(*curr)(void *machine, unsigned cpu);
	/* Coherence, both NULL when the machine has no profile (then data moves for free and
	 * a scheduler keeps its own lock model, if any). touch: @cpu reads (@write 0) or
	 * writes line @line (SCHED_LINE_*); lock: @cpu takes the spin lock in @line now and
	 * holds it @hold_ns. Each charges @cpu what it cost (SCHED_WORK_COHERENCE, resp.
	 * SCHED_WORK_LOCK_WAIT) and returns it in ns. */
	double (*touch)(void *machine, unsigned cpu, unsigned line, int write);
	double (*lock)(void *machine, unsigned cpu, unsigned line, double hold_ns);
	unsigned hz;			/* timer ticks per second (0: 1000) */
};

/* The kinds of work a scheduler charges (env->charge()'s @what). */
enum sched_work {
	SCHED_WORK_SW_OP,	/* a software run-queue operation */
	SCHED_WORK_SW_BALANCE,	/* software find_busiest_group/queue, per CPU scanned */
	SCHED_WORK_ENGINE,	/* engine accesses: bus latency x accesses + engine cycles */
	SCHED_WORK_LOCK_WAIT,	/* waiting for a lock another CPU holds */
	SCHED_WORK_GOODNESS,	/* linux24: goodness() of one task */
	SCHED_WORK_RECALC,	/* linux24: recalculating one task's counter */
	SCHED_WORK_MIGRATE,	/* moving a task between run queues */
	SCHED_WORK_COHERENCE,	/* a cache line moved from another CPU (env->touch) */
	SCHED_WORK__COUNT
};

/* What the O(1) policy's work costs (ns of CPU time); docs/simulator.md gives the sources. */
struct sched_costs {
	double bus_ns;		/* hw: one MMIO read or write, round trip */
	double engine_clk_ns;	/* hw: one engine clock cycle waited for */
	double sw_op_ns;	/* o1: one software run-queue operation */
	double sw_cpu_ns;	/* o1: software balancing, per CPU whose load is read */
	double sw_base_ns;	/* o1: software balancing, fixed part */
};

/* The engine a scheduler that uses one opens (SCHED_USES_ENGINE). */
struct sched_engine {
	const char *backend;	/* a driver backend by name: model, rtl, lockstep */
	const char *wave;	/* the engine's FST waveform (backends that simulate RTL), or NULL */
	/* The engine's task table (NR_TASKS): 0 (default) the smallest power of 2 >= 256 that
	 * holds the workload's tasks (fw_engine_nr_tasks()); N: exactly N, the shape of an
	 * engine built smaller (a board's, docs/board.md), and a workload with more tasks is
	 * refused, naming both numbers */
	unsigned nr_tasks;
	int no_balance;		/* built without BALANCE (LCU_BALANCE=0): balance in software */
	int no_err_counters;	/* built without the per-code error counters (ERR_COUNTERS=0) */
	int no_irq;		/* built without the preemption interrupt (IRQ=0) */
	int lcu_lean;		/* BALANCE built as the area-lean serial unit (LCU_LEAN=1) */
	/* 1: every command waits for its completion read (CMD + SYNC/RESULT: the first
	 * interface's bus protocol); 0 (default): mutating commands are posted and picks are one read
	 * of the POP/PEEKW windows (docs/firmware.md, "Bus protocol") */
	int sync_cmds;
	/* 1: the O(1) firmware learns of wake-up preemption from the engine's interrupt
	 * (docs/accelerator.md 4.6; docs/firmware.md, "The preemption interrupt") instead of
	 * comparing priorities itself: it keeps CURR[cpu] equal to the priority the CPU runs,
	 * enables IRQ_EN for every CPU, and kicks each CPU whose line an enqueue raised. Needs
	 * the interrupt (no_irq 0) and a bus that reaches the CURR window; scheduler hw only.
	 * 0 (default): the software check (fw_o1.c wake()). */
	int irq;
	/* Test hook of irq = 1: skip this many of the firmware's CURR writes (leaving CURR
	 * stale, so a test can show the runs then differ). 0 normally. */
	unsigned irq_skip_curr;
	/* The engine's bus when the caller supplies one (the virtual platform, sim/vp), the
	 * driver's opaque transport: the scheduler reaches the engine through it, each access
	 * from the CPU it charges, and charges the time the bus annotates. NULL: @backend. */
	const struct hws_transport *bus;
};

/* A scheduler's options, typed; each scheduler reads the ones it uses (struct sched_ops's
 * @uses). Defaults: sched_opts_default(). */
struct sched_opts {
	int wake_balance;	/* SCHED_USES_DOMAINS: select_idle_sibling on wakeups */
	int flat;		/* SCHED_USES_DOMAINS: one flat domain over all CPUs (2.6.0) */
	struct sched_costs costs;	/* SCHED_USES_COSTS */
	struct sched_engine engine;	/* SCHED_USES_ENGINE */
	struct {
		double goodness_ns;	/* goodness() of one task (docs/linux24.md) */
		int lock;		/* 1: model runqueue_lock's contention; 0: a free lock */
	} linux24;
	struct {
		/* 1: task groups' shares are updated once per tick only (2.6.26-rc's pace);
		 * 0: also at every enqueue and dequeue of a group's task (docs/cfs.md) */
		int tick_shares;
		/* eevdf: the Linux version it follows, major x 100 + minor, 606..699 (0: 6.6);
		 * docs/eevdf.md lists what each changes */
		unsigned kernel;
	} fair;
};

/* sched_opts_default - every option's default (the one place they are written). */
void sched_opts_default(struct sched_opts *o);

/**
 * sched_opts_check - refuse options no scheduler can use
 * @o: the options
 * @msg: receives the reason, naming the option and its value
 * @len: size of @msg
 *
 * Return: 0, or -EINVAL (a cost or linux24.goodness_ns that is negative, not finite or
 * above 1e9 ns; a flag other than 0 or 1; engine.irq with engine.no_irq).
 */
int sched_opts_check(const struct sched_opts *o, char *msg, size_t len);

/* What a scheduler uses of struct sched_opts (struct sched_ops's @uses). */
#define SCHED_USES_DOMAINS	1u	/* wake_balance, flat */
#define SCHED_USES_COSTS	2u	/* costs */
#define SCHED_USES_ENGINE	4u	/* engine (and costs.bus_ns, costs.engine_clk_ns) */
#define SCHED_USES_LINUX24	8u	/* linux24 */
#define SCHED_USES_FAIR		16u	/* fair (cfs, eevdf) */

/*
 * SCHED_WAKE_SYNC: a wakeup whose waker is about to sleep (Linux's WF_SYNC: pipe and socket
 * writes, a child's exit waking its parent), given only to a scheduler whose ops set
 * wake_sync; the machine passes SCHED_WAKE to the others.
 */
enum sched_wake_kind { SCHED_WAKE, SCHED_FORK, SCHED_WAKE_SYNC };

struct sched;

struct sched_ops {
	const char *name;
	/* One run queue for every CPU (linux24): nr_queued(0) counts every queued task and
	 * a task may be picked on any CPU whatever CPU wake() returned. */
	int global_queue;
	/* SCHED_USES_*: the options it reads (a caller refuses the others, e.g. an engine
	 * backend for a scheduler without an engine). */
	unsigned uses;
	/* Create; return NULL with @msg filled on failure (bad options, an engine that cannot
	 * hold the machine). @o is read during the call; its strings must outlive the
	 * scheduler. */
	struct sched *(*create)(const struct sched_env *env, const struct sched_opts *o,
				char *msg, size_t len);
	void (*destroy)(struct sched *s);
	/* A new task (before its first wake): set its priority and slice. @parent is NULL
	 * for tasks present at start; otherwise the parent's slice is split (fork). */
	void (*task_new)(struct sched *s, struct sched_task *t, struct sched_task *parent,
			 unsigned cpu);
	/* @t, BLOCKED, becomes runnable, woken by code running on @waker_cpu (or the
	 * parent's CPU for a fork). The scheduler picks a CPU, queues @t there and returns
	 * it; it kicks that CPU when @t should preempt its current task or the CPU is idle. */
	unsigned (*wake)(struct sched *s, struct sched_task *t, unsigned waker_cpu,
			 enum sched_wake_kind kind);
	/* The task running on @cpu stops: @runnable 1 (preempted, slice over, yield: the
	 * scheduler queues it again), 0 (it blocks or exits: the scheduler forgets it until
	 * its next wake). @ran_ns: how long it ran since it was picked. */
	void (*put_prev)(struct sched *s, unsigned cpu, struct sched_task *t, int runnable,
			 uint64_t ran_ns);
	/* sched_yield() of the task running on @cpu. Returns 1 when @cpu must reschedule:
	 * put_prev(..., 1) follows, then a pick (perhaps of @t again); 0: @t goes on running.
	 * May be NULL: a yield is then a plain requeue. */
	int (*yield)(struct sched *s, unsigned cpu, struct sched_task *t);
	/* A task exits (after put_prev(..., 0)); @parent: the task that forked it, if it
	 * still lives, else NULL. */
	void (*task_exit)(struct sched *s, struct sched_task *t, struct sched_task *parent);
	/* Take the next task to run on @cpu out of its queue (balancing first if the CPU
	 * would go idle), or NULL: the CPU idles. */
	struct sched_task *(*pick)(struct sched *s, unsigned cpu);
	/* Timer tick on @cpu (running @curr, or NULL when idle). Returns 1 when @curr must
	 * be rescheduled (its slice ran out) or the idle CPU found work. Periodic balancing
	 * runs from here. */
	int (*tick)(struct sched *s, unsigned cpu, struct sched_task *curr);
	/* The task running on @cpu execs a new program (may be NULL: no exec balancing).
	 * sched_exec(): the scheduler may move it to a less loaded CPU; it then kicks @cpu
	 * and reports the move with moved() once the task is off @cpu. */
	void (*exec)(struct sched *s, struct sched_task *t, unsigned cpu);
	/* Tasks queued on @cpu (for the machine's conservation check). */
	unsigned (*nr_queued)(struct sched *s, unsigned cpu);
	/* Deep check: where the scheduler has @t queued (CPU), or -1 when not queued. */
	int (*where)(struct sched *s, const struct sched_task *t);
	/* Print scheduler-specific statistics. */
	void (*report)(struct sched *s, void *file);
	/* The first internal failure (e.g. an engine error), or NULL. May be NULL. */
	const char *(*error)(const struct sched *s);
	/* Engine traffic so far: commands, clock edges, MMIO accesses. May be NULL. */
	void (*engine_stats)(const struct sched *s, uint64_t *commands, uint64_t *cycles,
			     uint64_t *mmio);
	/* Where its tasks' scheduling lines sit, for a machine profile's cache (docs/
	 * simulator.md, "Coherence"): when not 0, every task's line is at the same offset of
	 * a block of task_align bytes (2.4 on i386: the task_struct heads its 8 KB kernel
	 * stack), so they compete for the same cache sets. 0: spread (a slab). */
	unsigned task_align;
	/* 1: wake() takes SCHED_WAKE_SYNC */
	int wake_sync;
};

extern const struct sched_ops sched_linux24_ops;
extern const struct sched_ops sched_o1_ops;	/* the O(1) policy on software queues */
extern const struct sched_ops sched_hw_ops;	/* the O(1) policy on the engine */
extern const struct sched_ops sched_cfs_ops;	/* CFS as of Linux 2.6.26 (docs/cfs.md) */
extern const struct sched_ops sched_eevdf_ops;	/* EEVDF as of Linux 6.6 (docs/eevdf.md) */

/* sched_find - the scheduler called @name (firmware/sched.c lists them), or NULL. */
const struct sched_ops *sched_find(const char *name);

/* sched_names - their names for messages: "hw, o1, linux24, cfs, eevdf". */
const char *sched_names(void);

#ifdef __cplusplus
}
#endif

#endif /* HWS_SCHED_H */
