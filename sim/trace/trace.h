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
 * A line's timestamp may be this much earlier than the latest before it (it is then taken
 * as that latest time); further back is an error (concatenated traces). perf script sorts
 * its events: on the shared traces no line goes back at all (measured, docs/trace.md).
 */
#define TRACE_TS_TOLERANCE_NS 1000000ll	/* 1 ms */

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
	/* lenient: told each warning ("file:line: what"), if set */
	void (*warn)(void *arg, const char *msg);
	void *warn_arg;
};

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
	int early;		/* SLEEP: its waking is stamped before the switch-out that began
				   it (1), or in the same microsecond (2): the wake was issued while
				   the task was still going to sleep (docs/trace.md) */
};

struct trace_task {
	int pid;
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
struct trace_wakeup {
	int pid, waker;		/* waker -1: none seen (fork: the parent) */
	int is_new;		/* sched_wakeup_new of a forked task */
	int kept;		/* the task is one of trace.tasks */
	int tool;		/* the task is the recording tool (comm perf) */
	int64_t wake_ns, lat_ns;
};

/* One stretch a task ran on a CPU, switch-in to switch-out (or the trace's end). */
struct trace_burst {
	int pid;
	unsigned cpu;
	int64_t t0, t1;		/* ns, the trace's clock */
	int64_t delay_ns;	/* the wakeup latency that ended at t0 (0: none) */
};

struct trace {
	unsigned nr_cpus;	/* highest [cpu] seen + 1 */
	int64_t start_ns, end_ns;	/* first and last line */
	uint64_t lines, skipped;	/* lines read, malformed lines skipped (lenient) */
	uint64_t warnings;	/* lenient: what strict mode refuses (skipped lines included) */
	uint64_t anomalies;	/* events inconsistent with the rebuilt state, tolerated */
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
 * What Linux did, as docs/trace.md defines each figure and as the table of
 * shared/traces/README.md reports it. "wl_" figures count only the kept tasks;
 * the others are system-wide where the README counts system-wide.
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
};

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

#ifdef __cplusplus
}
#endif

#endif /* HWS_TRACE_H */
