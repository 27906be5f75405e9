/*
 * trace.h - read the `perf script` text of `perf sched record` (plain or gzip) and rebuild
 * what each task did: runs, sleeps with their wakers, forks and exits, in a form a replay
 * on the simulated machine can use; and measure what Linux did on the trace (busy time,
 * wakeup latency, migrations, context switches). docs/trace.md has the rules and figures.
 */
#ifndef HWS_TRACE_H
#define HWS_TRACE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * What a line may hold (docs/trace.md, "Strictness"): a line outside these is an error
 * naming file:line, or with lenient a counted warning and the line skipped.
 */
#define TRACE_MAX_CPUS	64		/* CPUs 0..63: the simulated machine's at most */
#define TRACE_COMM_LEN	32
#define TRACE_MAX_PID	4194304		/* Linux's PID_MAX_LIMIT: pids 0 (idle)..this */
#define TRACE_MIN_PRIO	(-1)		/* kernel prio: -1 (deadline) .. 139 */
#define TRACE_MAX_PRIO	139
#define TRACE_MAX_RUNTIME_NS 10000000000ll	/* one sched_stat_runtime: 0..10 s */
/*
 * A line's timestamp may be this much earlier than the latest before it, on another CPU
 * (it is then taken as that latest time and counted in trace.absorbed); further back is an
 * error (concatenated traces), and so is any step back among one CPU's own lines (perf
 * records each CPU's events in order). perf script sorts its events: on the repository's
 * traces no line goes back at all (measured, docs/trace.md).
 */
#define TRACE_TS_TOLERANCE_NS 1000000ll	/* 1 ms */
/*
 * The longest line, in bytes without its newline: perf script's sched lines are under 300
 * bytes; the longest field a sched event can hold is sched_process_exec's file name
 * (PATH_MAX, 4096). A longer line is an error, and the reader never holds more of it (a
 * stream of bytes without a newline is read in bounded memory).
 */
#define TRACE_MAX_LINE	8192

/*
 * Which tasks trace_load keeps. NULL or all zero: strict, the workload tasks (the process
 * tree of perf-exec, see docs/trace.md). Filters given together must all match.
 */
struct trace_opts {
	int lenient;		/* skip malformed lines (counted) instead of failing */
	const char *comm;	/* keep tasks whose comm ever was exactly this */
	int pid;		/* keep only this pid (0: no pid filter) */
	int tree_of;		/* keep this pid and its descendants by fork (0: none) */
	int all;		/* keep every task but the idle task (other filters still apply) */
	/* keep the other tasks too (but idle and the migration/N stoppers), as background:
	 * trace_task.workload tells them apart, and trace_linux's wl_ figures count the
	 * workload only (a replay runs both and measures the workload) */
	int background;
	/* lenient: told each warning ("file:line: what"), if set */
	void (*warn)(void *arg, const char *msg);
	void *warn_arg;
};

/*
 * Where a wakeup came from, read from the kernel call chain perf recorded with its
 * sched_waking (traces recorded with tools/record_trace.sh): a task's own wake (a system
 * call of the header's task), the same with WF_SYNC (__wake_up_sync_key: pipe and socket
 * writes, a child's exit), or an interrupt (a timer, a device, a softirq on the way out of
 * an interrupt) whose header task was merely running. UNKNOWN: no call chain.
 */
enum trace_wake_ctx { TRACE_WAKE_UNKNOWN, TRACE_WAKE_TASK, TRACE_WAKE_SYNC, TRACE_WAKE_IRQ };

enum trace_seg_kind {
	TRACE_RUN,		/* ns of CPU work */
	TRACE_SLEEP,		/* blocked ns, ended by waker's wakeup */
	TRACE_FORK,		/* forked child_pid after offset_ns of this run */
	TRACE_EXIT,
};

/*
 * One piece of a task's behaviour. A RUN is CPU work as the kernel accounted it (the
 * sched_stat_runtime of each on-CPU burst; wall time for a burst without one). Offsets
 * count CPU ns since the task's last SLEEP (or its start): a run between two sleeps is
 * one or more RUN segments, split by FORKs; preemptions do not split it.
 */
struct trace_seg {
	enum trace_seg_kind kind;
	int pid;		/* SLEEP: waker pid, -1 timer/interrupt/unknown; FORK: child */
	int64_t ns;		/* RUN: CPU ns; SLEEP: ns from block to the waking */
	int64_t offset_ns;	/* SLEEP: waker's CPU ns into its run at the waking (0 unknown);
				   FORK: this task's CPU ns into its run at the fork */
	int64_t at_ns;		/* SLEEP: when it ended (the waking, else the switch-in) */
	enum trace_wake_ctx wake_ctx;	/* SLEEP: where its waking came from */
	int early;		/* SLEEP: its waking is stamped before the switch-out that began
				   it (1), or in the same microsecond (2): the wake was issued while
				   the task was still going to sleep (docs/trace.md) */
};

struct trace_task {
	int pid;
	int workload;		/* 1: chosen by the filters (or the default workload rule);
				   0: kept as background (trace_opts.background) */
	int bound_cpu;		/* a per-CPU kernel thread's CPU (kworker/N:M, ksoftirqd/N,
				   ...), from its comm; -1 otherwise */
	int ends_asleep;	/* alive at the end, blocked since its last switch-out (no
				   waking ended that sleep in the trace) */
	int ppid;		/* -1 if unknown */
	char comm[TRACE_COMM_LEN];	/* last seen */
	int prio;		/* last seen kernel prio (120 = nice 0) */
	int nice;		/* prio - 120 for normal tasks, 0 for real-time ones */
	int64_t fork_ns;	/* fork, or first appearance */
	int64_t exit_ns;	/* 0 if it did not exit in the trace */
	int64_t runtime_ns;	/* sum of sched_stat_runtime for this pid */
	int64_t run_ns;		/* sum of the rebuilt RUN segments */
	int64_t oncpu_ns;	/* wall time between its switch-ins and switch-outs */
	unsigned csw_vol, csw_invol;	/* switch-outs blocked (S/D/I), preempted (R/R+) */
	unsigned mig_wakeup, mig_other;	/* sched_migrate_task at a wakeup, other */
	unsigned wakeups;	/* sleeps ended by a sched_waking */
	size_t nr_segs;
	struct trace_seg *segs;
};

/* One wakeup: from the waking (or sched_wakeup_new) to the task's next switch-in. */
/*
 * How the CPU a woken task ran on took it (the wake path, docs/trace.md "The trace
 * machine"): that CPU idled since before the waking (on the waking's own CPU, or another:
 * an interprocessor interrupt), or was running a task that the wakee preempted (the same
 * split, the local one apart when an interrupt woke it: PREEMPT_IRQ), or the wakee waited
 * until a task there blocked.
 */
enum trace_wake_path {
	TRACE_PATH_UNKNOWN,
	TRACE_PATH_IDLE_LOCAL,
	TRACE_PATH_IDLE_REMOTE,
	TRACE_PATH_PREEMPT_LOCAL,
	TRACE_PATH_PREEMPT_IRQ,
	TRACE_PATH_PREEMPT_REMOTE,
	TRACE_PATH_WAITED,
	TRACE_PATH_NR
};

/* An idle remote CPU woken after idling this long is "deep" (the wake path's bins). */
#define TRACE_IDLE_DEEP_NS 100000ll	/* 100 us */

struct trace_wakeup {
	int pid, waker;		/* waker -1: none seen (fork: the parent) */
	int is_new;		/* sched_wakeup_new of a forked task */
	int kept;		/* the task is one of trace.tasks and of the workload */
	int tool;		/* the task is the recording tool (comm perf, not the workload: perf
				   bench runs the workload as perf) */
	int64_t wake_ns, lat_ns;
	enum trace_wake_path path;
	int64_t idle_ns;	/* IDLE_*: how long its CPU had idled at the waking */
};

/* One stretch a task ran on a CPU, switch-in to switch-out (or the trace's end). */
struct trace_burst {
	int pid;
	unsigned cpu;
	int64_t t0, t1;		/* ns, the trace's clock */
	int64_t delay_ns;	/* the wakeup latency that ended at t0 (0: none) */
};

/*
 * Events that contradict the state the reader rebuilt, tolerated and counted by kind
 * (trace.anomaly[]); each is an event the trace did not record (docs/trace.md, "The
 * rebuild").
 */
enum trace_anomaly {
	TRACE_ANOM_NO_SWITCH_OUT,	/* a task acts on a CPU where another was running */
	TRACE_ANOM_TWO_CPUS,	/* a switch-in of a task believed running on another CPU */
	TRACE_ANOM_IDLE_LEFT_BUSY,	/* the idle task leaves a CPU believed busy */
	TRACE_ANOM_WAKING_NOT_ASLEEP,	/* a sched_waking of a runnable or exited task */
	TRACE_ANOM_WAKEUP_NEW_OLD,	/* a sched_wakeup_new of a task already running or asleep */
	TRACE_ANOM_FORK_NOT_RUNNING,	/* a fork by a task not believed running */
	TRACE_ANOM_NR,
};

struct trace {
	unsigned nr_cpus;	/* highest [cpu] seen + 1 */
	int64_t start_ns, end_ns;	/* first and last line */
	uint64_t lines, skipped;	/* lines read, malformed lines skipped (lenient) */
	uint64_t warnings;	/* lenient: what strict mode refuses (skipped lines included) */
	uint64_t anomalies;	/* events inconsistent with the rebuilt state, tolerated */
	uint64_t anomaly[TRACE_ANOM_NR];	/* the same by kind (they sum to anomalies) */
	uint64_t anomaly_line[TRACE_ANOM_NR];	/* the first line of each kind (0: none) */
	/*
	 * Lines stamped before the latest line of another CPU, within TRACE_TS_TOLERANCE_NS:
	 * taken at that latest time. How many, the largest step back, the first one's line.
	 */
	uint64_t absorbed;
	int64_t absorbed_max_ns;
	uint64_t absorbed_line;
	uint64_t wakings_with_stack;	/* sched_waking lines with a call chain */
	int root_pid;		/* root of the workload tree (-1: none found) */
	size_t nr_tasks;
	struct trace_task *tasks;	/* the kept tasks, in order of appearance */
	/* System-wide, whatever the filter: */
	int64_t *idle_ns;	/* per CPU: time spent idle (nr_cpus entries) */
	uint64_t csw_vol, csw_invol;	/* switch-outs of every non-idle task */
	uint64_t mig_wakeup, mig_other;	/* every sched_migrate_task */
	size_t nr_wakeups;
	struct trace_wakeup *wakeups;	/* every task's, in order of switch-in */
	size_t nr_bursts;
	struct trace_burst *bursts;	/* every task's but idle, in order of their end */
};

/*
 * What Linux did, as docs/trace.md defines each figure. "wl_" figures count only the kept
 * tasks; the others are system-wide, as the README that came with the first two traces
 * counted them (traces/README.md).
 */
struct trace_linux {
	double duration_ms;	/* first to last line */
	double makespan_ms;	/* first kept task's fork/appearance to the last one's exit */
	unsigned tasks, forks, exits;	/* kept tasks, their forks (as child), exits */
	double cpu_time_ms;	/* kept tasks' sched_stat_runtime */
	unsigned nr_cpus;
	double busy_pct[TRACE_MAX_CPUS];	/* non-idle time over the duration */
	/* Wakeup latency, µs: every task but idle and perf, sleeps and forks (README). */
	size_t lat_n;
	double lat_p50_us, lat_p90_us, lat_p99_us, lat_max_us;
	/* The same over the kept tasks' sleeps only. */
	size_t wl_lat_n;
	double wl_lat_p50_us, wl_lat_p90_us, wl_lat_p99_us, wl_lat_max_us;
	uint64_t mig_wakeup, mig_other;	/* every task (README) */
	uint64_t wl_mig_wakeup, wl_mig_other;
	uint64_t csw_vol, csw_invol;	/* every non-idle task (README) */
	uint64_t wl_csw_vol, wl_csw_invol;
	/*
	 * The wake path of the workload's sleeps (enum trace_wake_path): how many, and their
	 * median latency in us; idle remote CPUs apart by idle time (TRACE_IDLE_DEEP_NS).
	 */
	size_t path_n[TRACE_PATH_NR];
	double path_p50_us[TRACE_PATH_NR];
	size_t idle_short_n, idle_deep_n;
	double idle_short_p50_us, idle_deep_p50_us;
};

/* trace_wake_path_name - "idle_local", ... for output. */
const char *trace_wake_path_name(enum trace_wake_path p);

/*
 * Read @path (plain text or gzip) into *@out. Returns 0, or a negative errno with a
 * message in @err: -EINVAL for a trace that breaks a rule ("file:line: what was wrong";
 * lenient: only when nothing usable is left), the open's errno (-ENOENT, ...), -EIO for a
 * read error, -ENOMEM.
 */
int trace_load(const char *path, const struct trace_opts *o, struct trace **out, char *err,
	       size_t len);
void trace_free(struct trace *t);
int trace_linux_metrics(const struct trace *t, struct trace_linux *m);

/* trace_anomaly_name - a short name of anomaly kind @k ("no_switch_out", ...), for JSON. */
const char *trace_anomaly_name(enum trace_anomaly k);

#ifdef __cplusplus
}
#endif

#endif /* HWS_TRACE_H */
