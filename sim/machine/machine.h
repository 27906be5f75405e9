/*
 * machine.h - the simulated N-CPU machine: a discrete-event simulation in nanoseconds that
 * runs a workload's tasks under one scheduler (include/hws/sched.h) and measures the
 * outcome. docs/simulator.md describes the events, the cost model and every constant's
 * source.
 */
#ifndef HWS_MACHINE_H
#define HWS_MACHINE_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "hws/sched.h"
#include "sim/trace/trace.h"

struct trace;

#ifdef __cplusplus
extern "C" {
#endif

/* The machine's own cost model (ns unless named otherwise); the scheduler's prices are
 * its options (struct sched_costs). Defaults: machine_default_opts(). */
struct machine_costs {
	double ctx_switch_ns;	/* a context switch (lmbench lat_ctx class figure) */
	double migrate_cold_ns;	/* extra work of a task that runs on a new CPU (cold cache) */
	double remote_node_ns;	/* extra on top when the new CPU is on another NUMA node */
	double smt_speed;	/* speed of a thread whose SMT sibling is busy (1 = no loss) */
	/*
	 * The wake path: how long after a wakeup the woken task's CPU switches to it (an
	 * interprocessor interrupt, leaving idle, returning from the waker's system call).
	 * All 0 for `run` (the CPU reschedules at once); `replay` uses the trace machine's,
	 * measured on its traces (machine_replay_defaults(), docs/trace.md).
	 */
	double wake_idle_ns;		/* an idle CPU woken from another CPU */
	double wake_idle_deep_ns;	/* the same after idling longer than halt_poll_ns */
	double halt_poll_ns;		/* idle time after which a remote wake costs the deep one */
	double wake_local_ns;		/* an idle CPU woken by its own interrupt (a timer) */
	double preempt_local_ns;	/* a task's wakeup preempting the task of its CPU */
	double preempt_irq_ns;		/* an interrupt's (a timer) preempting its CPU's task */
	double preempt_remote_ns;	/* a wakeup preempting another CPU's task */
};

/* How a replay orders its tasks' wakes and sleeps (docs/trace.md, "Causal order"). */
enum machine_replay_order {
	/* Each sleep waits for the wake that ended it in Linux; a wake that comes before its
	 * wakee reaches that sleep is held there (the wakee blocks and is woken at once), so
	 * every sleep that blocked in Linux blocks in the replay. */
	MACHINE_REPLAY_CAUSAL,
	/* Each sleep waits for the wake that ended it in Linux; a wake that comes first lets
	 * the wakee pass that sleep without blocking. */
	MACHINE_REPLAY_TIED,
	/* A sleep ended by a task waits for any message from any task (a mailbox); a wake
	 * is a message (the first replay's reconstruction). */
	MACHINE_REPLAY_PROGRAM,
};

#define MACHINE_PROGRESS_END UINT64_MAX

struct machine_opts {
	/* "numa=N,pkg=P,core=C,smt=S[,profile=NAME]" (missing keys = 1; a profile prices
	 * cache-line transfers, docs/simulator.md "Coherence") */
	const char *topology;
	const char *sched;	/* a scheduler by name (sched_find(): hw, o1, linux24) */
	struct sched_opts sched_opts;	/* its options, passed to it as they are */
	const char *workload;	/* NAME[:k=v,...] */
	const struct trace *trace;	/* replay this trace instead (sim/trace/trace.h) */
	uint64_t seed;
	uint64_t duration_ns;	/* stop after this much simulated time (0: when all exit) */
	unsigned hz;		/* ticks per second, default 1000 */
	/* 1: an idle CPU's tick stops while it has nothing queued (CONFIG_NO_HZ_IDLE), and
	 * restarts when it gets work; 0: every CPU ticks at hz all the time */
	int nohz_idle;
	enum machine_replay_order replay_order;	/* a replay's reconstruction */
	int check_every;	/* deep conservation check every N events (0: never) */
	struct machine_costs costs;
	/* Called every 1024 events with the simulated time (NULL: none); the caller prints.
	 * A last call with MACHINE_PROGRESS_END when the events end, before the machine
	 * prints its report (the caller erases its line). */
	void (*progress)(void *arg, uint64_t now_ns);
	void *progress_arg;
	/* When non-NULL and set (a signal handler's flag), the run stops after the event in
	 * hand, as at its time limit, and the result says interrupted. */
	const volatile sig_atomic_t *stop;
	unsigned top;		/* tasks in the report's table, by max delay (0: none) */
	const char *svg;	/* write a timeline picture here (NULL: none) */
	/* --svg-window: draw only [svg_from_ns, svg_to_ns) of the run (to 0: all of it) */
	uint64_t svg_from_ns, svg_to_ns;
	/* write the run's scheduling events here as `perf script` text of `perf sched
	 * record` (NULL: none): the trace reader measures it as it measures Linux */
	const char *perf_out;
	/* Hooks of the virtual platform (sim/vp, docs/vp.md); all NULL for `run`. The engine's
	 * bus, if any, is sched_opts.engine.bus. */
	const struct sched_ops *ops;	/* this scheduler instead of the one named by sched */
	/* Called with the time of each event before the event is handled. */
	void (*advance)(void *arg, uint64_t now_ns);
	void *advance_arg;
};

/* Per task, as `perf sched latency` prints it. */
struct machine_task_stat {
	unsigned id, group;
	int pid;		/* replay: the trace's pid; -1 otherwise */
	char comm[32];		/* replay: the trace's comm; "" otherwise */
	int bg;			/* replay: a background task (not counted in the figures) */
	double runtime_ms;
	uint64_t switches;	/* its switch-outs, counted as machine_result's switches */
	double delay_avg_us, delay_max_us;	/* wakeup to running */
};

/* What a run measured. */
struct machine_result {
	uint64_t sim_ns;		/* simulated time at the end */
	int interrupted;		/* stopped early by machine_opts.stop */
	uint64_t events;
	double throughput;		/* work units per simulated second */
	const char *unit;		/* its name */
	double work_units;
	double makespan_s;		/* until every task exited (0 if some did not) */
	double wake_lat_us[4];		/* p50, p90, p99, max */
	uint64_t wakeups;
	/*
	 * The same by wake path, classified as the trace reader classifies Linux's
	 * (enum trace_wake_path: how the CPU took the woken task), with the idle remote
	 * ones apart by how long the CPU had idled (TRACE_IDLE_DEEP_NS): count and median.
	 */
	uint64_t path_n[TRACE_PATH_NR];
	double path_p50_us[TRACE_PATH_NR];
	uint64_t idle_short_n, idle_deep_n;
	double idle_short_p50_us, idle_deep_p50_us;
	double rq_wait_ms;		/* total time tasks spent queued */
	/* Context switches as Linux's sched_switch counts them: switch-outs of a task that
	 * lives on, voluntary (it blocked) or involuntary (preempted, slice over, yield);
	 * switches = the two together. */
	uint64_t switches, vol_switches, invol_switches;
	/* Migrations as Linux's sched_migrate_task counts them, when the scheduler changes a
	 * task's CPU: at a wakeup placed away from its last CPU, and other (balancing moves,
	 * pushes, a global queue's pick by another CPU); migrations = the two together. */
	uint64_t migrations, mig_wakeup, mig_other;
	uint64_t held_wakes;		/* causal replay: wakes that came before their sleep */
	double busy_pct[SCHED_MAX_CPUS];
	unsigned nr_cpus;
	unsigned nr_groups;
	double group_share[SCHED_MAX_GROUPS], group_entitled[SCHED_MAX_GROUPS];
	uint64_t idle_core_violations;	/* idle-CPU ticks while a task waited elsewhere */
	/* time some package had a core with all SMT threads busy while another of its cores
	 * was all idle (0 without SMT) */
	double smt_share_ms, smt_share_pct;
	int has_smt;			/* SMT threads and several cores per package */
	double sched_overhead_pct;	/* scheduler CPU time / (CPUs x time) */
	const char *backend;		/* the engine's backend ("tlm": a caller's bus) */
	uint64_t engine_commands, engine_cycles, engine_mmio;
	/* coherence (a topology profile): its name (NULL: none), line transfers, their ns,
	 * spin-lock waits and the ns spent before holding (waiting + handoffs), task lines
	 * fetched from memory after their cache evicted them and their ns */
	const char *profile;
	uint64_t coh_transfers, coh_lock_waits, yields, coh_mem_fetches;
	double coh_transfer_ns, coh_lock_ns, coh_mem_ns;
	uint64_t conservation_checks;
	/* calibration and contention (docs/results.md "Calibration", docs/simulator.md
	 * "Contention"): the multiplier on the workload's CPU bursts and the published point
	 * it was derived from (NULL: none, or work= given), the contention models in force,
	 * and what they cost: loopback packets, the transmit lock's waits and ns before
	 * holding, messages read on another CPU than their writer's and the ns their lines
	 * and payload took, dbench operations, their lock waits and ns, bursts run off their
	 * memory's node and the ns it added */
	double work_scale;
	const char *calib_point;
	int cont_net, cont_fs, cont_numa;
	uint64_t lo_packets, lo_waits, msg_remote, fs_ops, fs_waits, numa_bursts;
	double lo_wait_ns, msg_ns, fs_wait_ns, numa_ns;
	struct machine_task_stat *tasks;	/* per task (free with machine_result_free) */
	unsigned ntasks;
};

void machine_result_free(struct machine_result *r);

void machine_default_opts(struct machine_opts *o);

/*
 * machine_replay_defaults - what `replay` changes in machine_default_opts(): the machine
 * the traces were recorded on (docs/trace.md, "The trace machine"): no context-switch or
 * cold-cache charge (a trace's runtimes already hold them), its wake path, its idle
 * CPUs' stopped ticks, and the causal reconstruction.
 */
void machine_replay_defaults(struct machine_opts *o);

/*
 * machine_run - build the machine, the workload and the scheduler, and run
 * Return: 0, or a negative errno with @err (len bytes) naming what was wrong
 * (topology, workload, scheduler creation, a broken invariant, an engine failure).
 */
int machine_run(const struct machine_opts *o, struct machine_result *r, FILE *report,
		char *err, size_t len);

/*
 * machine_check_opts - what machine_run() refuses as bad input (topology, scheduler,
 * workload and its keys), checked without running: 0, or -EINVAL with @err set.
 */
int machine_check_opts(const struct machine_opts *o, char *err, size_t len);

/*
 * The timeline of --svg (sim/machine/timeline.c; docs/simulator.md, "The timeline"): each
 * lane is MACHINE_SVG_COLS pixel columns wide and has at most that many burst rects.
 * Wakeup delays, and nothing else, are drawn in MACHINE_SVG_DELAY_COLOUR; task k's colour
 * is machine_svg_task_colour(k) ("#rrggbb", its hue 35..325 degrees: never red).
 * machine_svg_tick_step() is the axis's step: 1, 2 or 5 x 10^k ns, the smallest with
 * fewer than @max steps in @span_ns.
 */
#define MACHINE_SVG_COLS 1200
#define MACHINE_SVG_DELAY_COLOUR "#d62728"
void machine_svg_task_colour(unsigned k, char out[8]);
uint64_t machine_svg_tick_step(uint64_t span_ns, unsigned max);

/* Parse a topology string into @t. Return 0 or -EINVAL with @err set. */
int machine_parse_topology(const char *s, struct sched_topo *t, char *err, size_t len);

/*
 * Print the report of @r (text) or write it as JSON to @path (lib/hws_out.h's rules):
 * 0, or a negative errno with @err set.
 */
void machine_print(const struct machine_opts *o, const struct machine_result *r, FILE *f);
int machine_write_json(const struct machine_opts *o, const struct machine_result *r,
		       const char *path, char *err, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* HWS_MACHINE_H */
