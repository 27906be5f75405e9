/*
 * machine_int.h - what the units of the simulated machine share (machine.c lists them):
 * its tasks, CPUs and events, and the functions one unit calls in another. Not for use
 * outside sim/machine/.
 */
#ifndef HWS_MACHINE_INT_H
#define HWS_MACHINE_INT_H

#include <stdint.h>
#include <stdio.h>

#include "lib/hws_balance.h"
#include "lib/hws_out.h"
#include "lib/hws_parse.h"
#include "lib/hws_weight.h"
#include "sim/machine/calib.h"
#include "sim/machine/coherence.h"
#include "sim/machine/contention.h"
#include "sim/machine/machine.h"

#define MS 1000000ull
#define MAX_TASKS 4096
/* mix:msg=P is drawn as a whole number of 1/MIX_MSG_SCALE (docs/workloads.md). */
#define MIX_MSG_SCALE 1000


enum tstate { T_NEW, T_BLOCKED, T_QUEUED, T_RUNNING, T_DEAD };
enum ev_kind { EV_TICK, EV_BURST_END, EV_TIMER, EV_RESCHED };

struct event {
	uint64_t time, seq;
	int kind;
	unsigned who;		/* cpu or task */
	uint64_t gen;		/* BURST_END: the CPU's segment generation */
};

/* What a task does next (the workload's program). */
enum act { A_BURST, A_SLEEP, A_WAIT_MSG, A_EXIT };

/* A burst a CPU ran, or consecutive ones merged for the timeline (timeline.c). */
struct seg {
	uint64_t t0, t1;	/* first start, last end */
	uint64_t busy;		/* ns run in it (t1 - t0 for one burst, less for merged ones) */
	uint64_t dfrom, dto;	/* the wakeup delays that ended in it span [dfrom, dto);
				   dto <= dfrom: none */
	uint32_t n;		/* bursts in it (1: one burst) */
	uint16_t task, dom, cpu;	/* its task (0xffff: several), the longest one's, CPU */
	uint8_t migrated, group, bg;	/* group 0xff: several; bg: every one background */
};

#define LAT_DEEP 16

struct mtask {
	struct sched_task st;
	enum tstate state;
	int qcpu;		/* QUEUED: the CPU it waits on */
	int moved_to;		/* RUNNING: pushed to this CPU by active balance, or -1 */
	int last_cpu;		/* where it last ran */
	uint64_t remain;	/* ns of work left in the current burst */
	uint64_t queued_at, woken_at;
	int wake_pending;	/* a wakeup whose latency is not yet measured */
	int wake_cpu;		/* and the CPU that woke it */
	int wake_irq;		/* from an interrupt (a timer) */
	uint64_t runtime;
	uint64_t nswitch, ndelay;	/* switches in; delays measured */
	uint64_t nout;		/* switches out while it lives on (voluntary + involuntary) */
	double delay_sum, delay_max;	/* wakeup-to-run delays, us */
	/* workload state */
	unsigned role, role_idx, grp_idx, loops_left, msgs, sent_to, waiting_sender;
	int blocked_on_full;
	/* causal replay: per sleep of the trace, whether its wake came (TOK_*), and for a
	 * held one the CPU it came from */
	uint8_t *tok, *tok_cpu;
	unsigned ntok, wait_tok;
	int pid;		/* replay: the trace's pid (-1: none) */
	int bg;			/* replay: a background task (not of the workload): it runs, but
				   the figures count the workload's tasks only */
	uint64_t start_ns;	/* replay: a task present from the start first runs then */
	const char *comm;	/* replay: the trace's comm (NULL: none) */
	unsigned yielded;	/* sched_yield() calls of the current OP_RECV */	/* hackbench sender waiting for room at receiver sent_to */
	/* program workloads (tbench, sysbench, volanomark, kernbench, dbench) */
	const struct wop *prog;
	struct wop *own_prog;	/* replay: built from the trace, freed with the task */
	unsigned pc, loopc;
	unsigned peer, room_lo, room_n, srv_lo, srv_n;
	uint16_t *mb;		/* mailbox: sender ids, a ring */
	unsigned mb_head, mb_n, mb_cap;
	unsigned last_from;
	int wait;		/* W_NONE, W_MSG, W_CHILD */
	int parent;
	unsigned children_live, jobs_left, spawn_next;
	int spawned;		/* 0: created at start; 1: created by a FORK op */
	/* contention (contention.h): the node its memory is on (its leader CPU + 1; 0: not
	 * yet placed), the CPU it last sent a message from, the CPU the last message it was
	 * given was written on (hackbench), and ns its next burst owes (lines pulled) */
	int home;
	int send_cpu, msg_cpu;
	double extra_ns;
};

/* A workload program: a task runs its ops in order (docs/simulator.md). */
enum wop_kind {
	OP_BURST,	/* run: mean ns, exponential if exp else fixed */
	OP_SLEEP,	/* block on a timer: mean ns (I/O, think time) */
	OP_SEND,	/* a message to the peer (arg 1: inside the process, no packet) */
	OP_SEND_SRV,	/* a message to a random server of the task's server range */
	OP_BCAST,	/* a message to every task of the room but itself */
	OP_RECV,	/* take a message, blocking while the mailbox is empty */
	OP_REPLY,	/* a message to the sender of the last message taken */
	OP_COUNT,	/* one unit of work done */
	OP_LOOP,	/* back to op arg (n times, 0 = forever), then on */
	OP_FORK_JOBS,	/* keep up to arg children alive until jobs_left run out */
	OP_EXIT,
	OP_WAKE,	/* replay: end task arg's sleep (a token if it is not asleep yet) */
	OP_SPAWN,	/* replay: fork task arg */
	OP_EXEC,	/* exec a new program: the scheduler may move the task (sched_exec) */
	OP_WAKE_TOK,	/* causal replay: the wake of task arg's sleep n (exp 1: sync) */
	OP_WAIT_TOK,	/* causal replay: sleep n, until its wake */
	OP_END_ASLEEP,	/* replay: asleep at the trace's end: block for good (the run may end) */
	OP_NOTIFY,	/* a message to every task of room_lo..+room_n but room_lo + role_idx,
			 * inside the process (a Java notify: no packet) */
};

struct wop {
	int kind;
	double ns;
	int exp;
	unsigned arg, n;
};

enum { W_NONE, W_MSG, W_CHILD, W_TOKEN };
enum { TOK_NONE, TOK_HELD, TOK_DONE };	/* a sleep's wake: not yet, came first, delivered */

struct mcpu {
	struct mtask *curr;
	uint64_t seg_start;	/* when the current segment's work begins (after debt) */
	double speed;
	uint64_t gen;
	double debt;		/* scheduler/switch time not yet taken from the running task */
	double overhead;	/* total scheduler time charged */
	uint64_t busy_ns, busy_since;
	int resched_pending;
	uint64_t resched_at, resched_gen;	/* the pending reschedule's time and tag */
	uint64_t idle_since;	/* when it last went idle */
	int tick_stopped;	/* nohz_idle: no tick while idle */
	uint64_t tick_gen;	/* tags its tick events (a stopped tick's stale one is dropped) */
	uint64_t log_since;	/* timeline: when the current segment began */
	/* perf_out: its task's runtime at switch-in; a task that blocked or exited and the
	 * state it left in, until the switch to the next one is written */
	uint64_t perf_runtime0;
	struct mtask *perf_prev;
	char perf_state;
	uint32_t log_delay;
	uint8_t log_migr;
};

struct machine {
	struct machine_opts o;
	int interrupted;	/* the run stopped at o.stop */
	struct sched_topo topo;
	const struct coh_profile *profile;	/* the topology's profile=, or NULL */
	struct coh *coh;	/* the coherence model (NULL without a profile) */
	struct sched_env env;
	const struct sched_ops *ops;
	struct sched *s;
	struct mcpu cpu[SCHED_MAX_CPUS];
	struct mtask *t;
	unsigned nt, live;
	uint32_t shares[SCHED_MAX_GROUPS];
	unsigned ngroups;
	/* event heap */
	struct event *h;
	size_t hn, hcap;
	uint64_t seq, now, events;
	uint64_t rng;
	/* workload */
	int wl;			/* 0 mix, 1 hackbench */
	double mix_burst, mix_sleep, mix_msg;
	unsigned mix_msg_pm;	/* mix_msg in 1/MIX_MSG_SCALE: the draw's resolution */
	double unit_scale;	/* work units per OP_COUNT, e.g. MB per transaction */
	int g_nice, g_rt;	/* every task's nice and SCHED_RR priority (-1: normal) */
	unsigned g_cpus;	/* every task may run on CPUs 0..g_cpus-1 (0: all) */
	const char *unit;
	unsigned hb_groups, hb_loops, hb_cap;
	uint64_t hb_send_ns, hb_recv_ns;
	double work;
	/* measurements */
	double *lat;
	unsigned char *lat_path;	/* each one's wake path (enum trace_wake_path),
					   + LAT_DEEP for an idle remote CPU's deep one */
	size_t nlat, caplat;
	uint64_t switches, vol, invol, migrations, violations, checks;
	uint64_t mig_wakeup, mig_other;	/* counted at the move, as Linux does */
	uint64_t yields;		/* sched_yield() calls of the workload */
	uint64_t held_wakes;		/* causal replay: wakes that came before their sleep */
	uint64_t wl_start;		/* the first workload task's start (makespan's origin) */
	int wl_started;
	int kick_from;			/* during a wakeup: the waker's CPU; else -1 */
	int kick_irq;			/* and the wakeup is an interrupt's (a timer) */
	unsigned nstate[T_DEAD + 1];	/* tasks in each state, kept by set_state() */
	double rq_wait;
	double group_time[SCHED_MAX_GROUPS];
	/* SMT sharing while a core idles: per core (by leader) its busy threads, per package
	 * (by leader) its cores with every thread busy / none busy, and the packages where
	 * both exist at once (docs/simulator.md) */
	unsigned core_busy[SCHED_MAX_CPUS], pkg_full[SCHED_MAX_CPUS], pkg_empty[SCHED_MAX_CPUS];
	unsigned smt_bad_pkgs;
	uint64_t smt_bad_since, smt_bad_ns;
	FILE *perf;			/* perf_out's file, or NULL */
	/* calibration and contention (docs/results.md): the multiplier on the workload's CPU bursts
	 * (0 or 1: none), the calibration entry it came from (NULL: none or work=), the
	 * models in force, their locks and what they cost */
	double work_scale;
	const struct calib *calib;
	struct cont cont;
	struct cont_lock lo_lock, dcache_lock, lru_lock[SCHED_MAX_CPUS];
	struct cont_stats cst;
	int failed;
	char err[300];
	struct seg *segs;
	size_t nseg, capseg;
	size_t seg_limit;	/* records before the next compaction (0: the first's) */
	int seg_dropped;	/* some were not kept (beyond the hard limit) */
	int limit_hit;		/* the run stopped at its duration */
};

/* events.c: the event heap, random numbers, the first failure */
uint64_t mach_rnd64(struct machine *m);
double mach_rnd_exp(struct machine *m, double mean);
void mach_fail(struct machine *m, const char *fmt, ...);
void mach_push(struct machine *m, uint64_t time, int kind, unsigned who, uint64_t gen);
struct event mach_pop(struct machine *m);

/* topology.c: the topology string, with its machine profile (NULL when it names none) */
int mach_parse_topology(const char *str, struct sched_topo *t, const struct coh_profile **prof,
			char *err, size_t len);

/* cpu.c: switching, segments, waking and blocking */
void mach_kick(struct machine *m, unsigned cpu);
void mach_kick_after(struct machine *m, unsigned cpu, uint64_t delay_ns);
void mach_tick_restart(struct machine *m, unsigned cpu);
void mach_set_state(struct machine *m, struct mtask *t, enum tstate st);
void mach_start_segment(struct machine *m, unsigned cpu);
void mach_stop_segment(struct machine *m, unsigned cpu);
void mach_dispatch(struct machine *m, unsigned cpu, struct mtask *prev);
void mach_block_curr(struct machine *m, unsigned cpu, int exiting);
void mach_yield_curr(struct machine *m, unsigned cpu);
void mach_wake_task(struct machine *m, struct mtask *t, unsigned cpu, enum sched_wake_kind k);

/* perfout.c: the run's events as perf script text (machine_opts.perf_out) */
void mach_perf_switch(struct machine *m, unsigned cpu, struct mtask *prev, struct mtask *next,
		      char state);
void mach_perf_wake(struct machine *m, unsigned cpu, const struct mtask *t, int is_new,
		    unsigned target);
void mach_perf_migrate(struct machine *m, unsigned cpu, const struct mtask *t, unsigned from,
		       unsigned to);
void mach_perf_fork(struct machine *m, unsigned cpu, const struct mtask *parent,
		    const struct mtask *child);

/* timeline.c: --svg */
void mach_log_switch(struct machine *m, unsigned cpu, struct mtask *next);
/* the run ends at @end: the last bursts, the window's check (-ERANGE), the picture */
int mach_svg_finish(struct machine *m, uint64_t end, char *err, size_t len);

/* workload.c: workload keys, mix and hackbench, the layout of any workload */
#define MACH_GENERIC_KEYS 3
size_t mach_generic_keys(struct machine *m, struct hws_kv *k);
void mach_init_task(struct machine *m, struct mtask *t, unsigned i);
void mach_next_action(struct machine *m, struct mtask *t, unsigned cpu);
int mach_setup_workload(struct machine *m, char *err, size_t len);

/* programs.c: the program workloads */
void mach_run_prog(struct machine *m, struct mtask *t, unsigned cpu);
int mach_setup_prog(struct machine *m, const char *name, char *args, char *err, size_t len);

/* programs.c: calibration and contention of the seed workloads (calib.h, contention.h) */
struct mach_cont_keys {
	double work;		/* work=X (0: not given) */
	unsigned calib, net, fs, numa;	/* calib=0|1 ... (default 1) */
};
#define MACH_CONT_KEYS 5
size_t mach_cont_keys(struct mach_cont_keys *v, struct hws_kv *k);
void mach_cont_setup(struct machine *m, const char *name, const struct mach_cont_keys *v);
uint64_t mach_burst_ns(struct machine *m, struct mtask *t, unsigned cpu, double ns);
void mach_msg_read(struct machine *m, struct mtask *t, unsigned cpu, int from_cpu);
void mach_cont_results(struct machine *m, struct machine_result *r);

/* replay.c: a trace as programs */
int mach_setup_replay(struct machine *m, char *err, size_t len);

/* checks.c: the online checks */
void mach_check_conservation(struct machine *m, int deep);
void mach_check_idle_core(struct machine *m, unsigned cpu);
/* cpu.c: the callbacks of struct sched_env into m->env */
void mach_env_init(struct machine *m);
/* stats.c: the results of a finished run */
void mach_results(struct machine *m, struct machine_result *r);

#endif /* HWS_MACHINE_INT_H */
