/*
 * trace.c - read `perf sched record` traces (perf script text, plain or gzip) and rebuild
 * each task's behaviour as RUN / SLEEP / FORK / EXIT segments; measure what Linux did.
 *
 * One pass over the lines in file order, with a bounded look-ahead: a task that appears
 * running on a CPU without a recorded switch-in (CPU1's idle task records nothing) gets
 * its switch-in from its first sched_stat_runtime (time minus runtime), found ahead.
 * docs/trace.md describes every rule and the figures on the real traces.
 */
#include "trace.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* Events read ahead at most, to find a switch-in that was not recorded. */
#define LOOKAHEAD_MAX	65536

enum ev_type {
	EV_SWITCH,
	EV_WAKING,
	EV_WAKEUP_NEW,
	EV_MIGRATE,
	EV_FORK,
	EV_RUNTIME,
	EV_IGNORED,	/* a known event that the rebuild does not need */
};

/*
 * One parsed line. For EV_SWITCH: pid/comm/prio are prev_*, pid2/comm2/prio2 next_*;
 * EV_FORK: pid/comm the parent, pid2/comm2 the child; otherwise pid/comm/prio the target.
 */
struct tev {
	int64_t ts;
	uint64_t line;
	int cpu;
	int hpid;		/* the header's tid (-1: unknown) */
	int type;
	int pid, pid2, prio, prio2;
	char state;		/* prev_state: 'R' preempted, 'S' blocked, 'Z' exited */
	char bstate;		/* prev_state's first letter */
	int64_t runtime;
	int orig_cpu, dest_cpu;
	char hcomm[TRACE_COMM_LEN], comm[TRACE_COMM_LEN], comm2[TRACE_COMM_LEN];
};

enum tstate {
	TS_UNKNOWN,	/* seen only as a target so far */
	TS_RUNNING,
	TS_RUNNABLE,	/* preempted or newly forked */
	TS_SLEEPING,
	TS_DEAD,
};

enum pend_kind {
	PEND_NONE,
	PEND_PRE,	/* woken while still running: ends the coming sleep */
	PEND_WAKE,	/* the waking that ends the current sleep */
	PEND_NEW,	/* sched_wakeup_new */
};

struct itask {
	struct trace_task pub;
	size_t segs_cap;
	int parent;		/* internal index of the parent at fork, -1 */
	int state;
	int cpu;
	int64_t burst_start;	/* switch-in of the current burst */
	int64_t burst_delay;	/* the wakeup latency that ended at burst_start (0: none) */
	int64_t brt, brt_ts;	/* runtime in this burst so far, time of the last one */
	int brt_n;		/* runtime events in this burst */
	int64_t seg_mark;	/* CPU ns of this burst already in segments */
	int64_t seg_run;	/* CPU ns not yet in a RUN segment */
	int64_t wrun;		/* CPU ns since the last sleep, before this burst */
	int64_t sleep_start;	/* -1: unknown (asleep before the trace) */
	int64_t rt_start;	/* earliest time - runtime seen while not running, -1 */
	int64_t rt_pre;		/* runtime seen while not running (a burst not seen yet) */
	int rt_pre_n;
	int pend;
	int pend_pre;		/* PEND_WAKE came from a waking before the switch-out */
	int64_t pend_ts, pend_off;
	int pend_waker;
	int seen_perf_exec, seen_perf, comm_match, kernel;
	int keep;
	int woken_only;		/* seen only as the target of sched_waking so far */
	uint64_t woken_line;	/* the first of those wakings */
};

struct cpu_state {
	int cur;		/* -1 unknown, 0 idle, else the running pid */
	int64_t idle_since;
	int last_type, last_pid;	/* the previous event on this CPU */
};

struct ctx {
	const char *path;
	gzFile gz;
	char *buf;
	size_t buf_cap;
	int eof;
	const struct trace_opts *o;
	char *err;
	size_t errlen;
	uint64_t lineno;
	/* look-ahead ring */
	struct tev *ring;
	size_t ring_cap, ring_head, ring_n;
	/* tasks */
	struct itask *tasks;
	size_t nt, tcap;
	int *hkeys, *hvals;	/* pid -> current task index, open addressing */
	size_t hcap, hn;
	struct cpu_state cpus[TRACE_MAX_CPUS];
	struct trace *t;
	size_t wk_cap, wkt_cap, burst_cap;
	int *wk_task;		/* internal task of each wakeup */
	int have_ev;
	int noeol;		/* the last line read had no newline */
	int64_t last_ts;	/* the latest timestamp so far */
	int have_ts;
	uint64_t last_ts_line;	/* its line */
	int code;		/* the errno of the error set (-EINVAL by default) */
};

static void set_err(struct ctx *c, const char *fmt, ...)
{
	va_list ap;

	if (!c->err || !c->errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(c->err, c->errlen, fmt, ap);
	va_end(ap);
}

/* Lenient: a counted warning, told to the caller's warn(). */
static void warn(struct ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void warn(struct ctx *c, const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	c->t->warnings++;
	if (!c->o || !c->o->warn)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	c->o->warn(c->o->warn_arg, msg);
}

static int lenient(const struct ctx *c)
{
	return c->o && c->o->lenient;
}

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
	size_t n = *cap ? *cap : 16;
	void *q;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	q = realloc(*p, n * elem);
	if (!q)
		return -1;
	*p = q;
	*cap = n;
	return 0;
}

/* ---- Reading lines ------------------------------------------------------------------ */

/*
 * After gzgets() found no more: a read error or a gzip stream cut short is an error (or,
 * lenient, a warning: what was read is kept). 0, or -1 with the error set.
 */
static int read_error(struct ctx *c)
{
	int e;
	const char *msg = gzerror(c->gz, &e);

	if (e == Z_OK || e == Z_STREAM_END)
		return 0;
	if (e == Z_BUF_ERROR || e == Z_DATA_ERROR) {
		/* "unexpected end of file", or bytes that are not gzip: the input's fault */
		if (lenient(c)) {
			warn(c, "%s:%llu: %s (a truncated or damaged gzip file): the rest is lost",
			     c->path, (unsigned long long)c->lineno + 1, msg);
			return 0;
		}
		set_err(c, "%s:%llu: %s (a truncated or damaged gzip file)", c->path,
			(unsigned long long)c->lineno + 1, msg);
		c->code = -EINVAL;
		return -1;
	}
	set_err(c, "%s:%llu: read error: %s", c->path, (unsigned long long)c->lineno + 1,
		e == Z_ERRNO ? strerror(errno) : msg);
	c->code = -EIO;
	return -1;
}

/* The next line without its newline in c->buf: 1, 0 at the end, -1 on a read error. */
static int read_line(struct ctx *c)
{
	size_t n = 0;

	if (c->eof)
		return 0;
	for (;;) {
		int len;

		if (c->buf_cap - n < 2 && grow((void **)&c->buf, &c->buf_cap, c->buf_cap * 2,
					       1)) {
			set_err(c, "%s: out of memory", c->path);
			c->code = -ENOMEM;
			return -1;
		}
		if (!gzgets(c->gz, c->buf + n, (int)(c->buf_cap - n))) {
			/* gzgets() may have copied bytes before failing, unterminated
			 * (fuzz_trace: a truncated gzip read leniently) */
			c->buf[n] = '\0';
			if (read_error(c))
				return -1;
			c->eof = 1;
			if (!n)
				return 0;
			break;
		}
		len = (int)strlen(c->buf + n);
		n += (size_t)len;
		if (n && c->buf[n - 1] == '\n')
			break;
		if (gzeof(c->gz)) {
			if (read_error(c))
				return -1;
			c->eof = 1;
			break;
		}
	}
	c->noeol = !(n && c->buf[n - 1] == '\n');
	while (n && (c->buf[n - 1] == '\n' || c->buf[n - 1] == '\r'))
		c->buf[--n] = '\0';
	c->lineno++;
	c->t->lines++;
	return 1;
}

/* ---- Parsing ------------------------------------------------------------------------ */

/* [s, e) is a whole decimal integer. */
static int parse_ll(const char *s, const char *e, long long *v)
{
	long long x = 0;
	int neg = 0;

	if (s < e && *s == '-') {
		neg = 1;
		s++;
	}
	if (s >= e)
		return -1;
	for (; s < e; s++) {
		if (!isdigit((unsigned char)*s) || x > (long long)(INT64_MAX / 10 - 10))
			return -1;
		x = x * 10 + (*s - '0');
	}
	*v = neg ? -x : x;
	return 0;
}

static void copy_comm(char *dst, const char *s, const char *e)
{
	size_t n;

	while (s < e && isspace((unsigned char)*s))
		s++;
	while (e > s && isspace((unsigned char)e[-1]))
		e--;
	n = (size_t)(e - s);
	if (n >= TRACE_COMM_LEN)
		n = TRACE_COMM_LEN - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

/* The value of key=... in @f: it starts a word. NULL if absent. */
static const char *fkey(const char *f, const char *key)
{
	size_t kl = strlen(key);
	const char *p = f;

	while ((p = strstr(p, key))) {
		if ((p == f || p[-1] == ' ') && p[kl] == '=')
			return p + kl + 1;
		p += kl;
	}
	return NULL;
}

/* Where get_int() writes why a value is out of range (the caller's line buffer). */
struct why {
	char *buf;
	size_t len;
};

/*
 * An integer field in @lo..@hi: digits up to a space, '[' or the end. -1 with *@what the
 * field's name (missing, not a number) or the message in @w (out of range).
 */
static int get_int(const char *f, const char *key, long long lo, long long hi, long long *v,
		   const char **what, struct why *w)
{
	const char *s = fkey(f, key), *e;

	if (!s) {
		*what = key;
		return -1;
	}
	for (e = s; *e && *e != ' ' && *e != '['; e++)
		;
	if (parse_ll(s, e, v)) {
		*what = key;
		return -1;
	}
	if (*v < lo || *v > hi) {
		snprintf(w->buf, w->len, "%s=%lld out of range %lld..%lld", key, *v, lo, hi);
		*what = w->buf;
		return -1;
	}
	return 0;
}

#define PID_RANGE	0, TRACE_MAX_PID
#define TASK_RANGE	1, TRACE_MAX_PID	/* not the idle task */
#define PRIO_RANGE	TRACE_MIN_PRIO, TRACE_MAX_PRIO
#define CPU_RANGE	0, TRACE_MAX_CPUS - 1

/* A comm field: it may hold spaces, so it runs up to the word " @next=". */
static int get_comm(const char *f, const char *key, const char *next, char *out,
		    const char **what)
{
	const char *s = fkey(f, key), *e;

	if (!s || !(e = fkey(s, next))) {
		*what = s ? next : key;
		return -1;
	}
	copy_comm(out, s, e - strlen(next) - 1);
	return 0;
}

static int event_type(const char *name)
{
	static const char *const ignored[] = {
		"sched_wakeup", "sched_process_exit", "sched_process_exec",
		"sched_process_free", "sched_process_wait", "sched_process_hang",
		"sched_stat_wait", "sched_stat_sleep", "sched_stat_iowait",
		"sched_stat_blocked", "sched_wake_idle_without_ipi", "sched_move_numa",
		"sched_swap_numa", "sched_stick_numa", "sched_pi_setprio",
		"sched_kthread_stop", "sched_kthread_stop_ret", "sched_kthread_work_queue_work",
		"sched_kthread_work_execute_start", "sched_kthread_work_execute_end",
	};
	size_t i;

	if (!strcmp(name, "sched_switch"))
		return EV_SWITCH;
	if (!strcmp(name, "sched_waking"))
		return EV_WAKING;
	if (!strcmp(name, "sched_wakeup_new"))
		return EV_WAKEUP_NEW;
	if (!strcmp(name, "sched_migrate_task"))
		return EV_MIGRATE;
	if (!strcmp(name, "sched_process_fork"))
		return EV_FORK;
	if (!strcmp(name, "sched_stat_runtime"))
		return EV_RUNTIME;
	for (i = 0; i < sizeof(ignored) / sizeof(ignored[0]); i++)
		if (!strcmp(name, ignored[i]))
			return EV_IGNORED;
	return -1;
}

/*
 * The header "COMM PID/TID [CPU]" of line @s: the header's task and CPU into @ev. Returns
 * what follows "]", or NULL with the reason in @why.
 */
static char *parse_header(char *s, struct tev *ev, char *why, size_t wl)
{
	char *p, *e, *tok;
	long long v;

	/* the header's "[cpu]", preceded by space and a pid/tid word */
	for (p = strchr(s, '['); p; p = strchr(p + 1, '[')) {
		char *q = p + 1, *slash;
		long long pid, tid;

		while (isdigit((unsigned char)*q))
			q++;
		if (q == p + 1 || *q != ']' || p == s || p[-1] != ' ')
			continue;
		e = p;
		while (e > s && e[-1] == ' ')
			e--;
		tok = e;
		while (tok > s && tok[-1] != ' ')
			tok--;
		if (tok == e)
			continue;
		slash = memchr(tok, '/', (size_t)(e - tok));
		if (slash) {
			if (parse_ll(tok, slash, &pid) || parse_ll(slash + 1, e, &tid))
				continue;
		} else {
			if (parse_ll(tok, e, &pid))
				continue;
			tid = pid;
		}
		if (pid < -1 || pid > TRACE_MAX_PID || tid < -1 || tid > TRACE_MAX_PID) {
			snprintf(why, wl, "header pid/tid %lld/%lld out of range -1..%d", pid, tid,
				 TRACE_MAX_PID);
			return NULL;
		}
		ev->hpid = (int)(tid >= 0 ? tid : pid);
		copy_comm(ev->hcomm, s, tok);
		if (parse_ll(p + 1, q, &v) || v >= TRACE_MAX_CPUS) {
			snprintf(why, wl, "CPU [%.*s] out of range 0..%d (the simulated machine has "
				 "at most %d)", (int)(q - p - 1), p + 1, TRACE_MAX_CPUS - 1,
				 TRACE_MAX_CPUS);
			return NULL;
		}
		ev->cpu = (int)v;
		return q + 1;
	}
	snprintf(why, wl, "no 'COMM PID/TID [CPU]' header");
	return NULL;
}

/* The timestamp "SECS.FRAC:" at @b into @ev->ts; returns what follows, or NULL. */
static char *parse_timestamp(char *b, struct tev *ev, char *why, size_t wl)
{
	char *p, *dot, *fe;
	long long sec, frac = 0;
	int nd, i;

	while (*b == ' ')
		b++;
	for (p = b; isdigit((unsigned char)*p); p++)
		;
	dot = p;
	if (p == b || *dot != '.' || parse_ll(b, dot, &sec)) {
		snprintf(why, wl, "bad timestamp");
		return NULL;
	}
	for (fe = dot + 1; isdigit((unsigned char)*fe); fe++)
		;
	nd = (int)(fe - dot - 1);
	if (nd < 1 || nd > 9 || *fe != ':' || sec > 9000000000LL) {
		snprintf(why, wl, "bad timestamp");
		return NULL;
	}
	parse_ll(dot + 1, fe, &frac);
	for (i = nd; i < 9; i++)
		frac *= 10;
	ev->ts = (int64_t)sec * 1000000000LL + frac;
	return fe + 1;
}

/* sched_switch's fields; NULL, or the field that is missing or bad. */
static const char *fields_switch(const char *f, struct tev *ev, struct why *w)
{
	const char *what = NULL, *st;
	long long v;

	if (get_comm(f, "prev_comm", "prev_pid", ev->comm, &what) ||
	    get_int(f, "prev_pid", PID_RANGE, &v, &what, w))
		return what;
	ev->pid = (int)v;
	if (get_int(f, "prev_prio", PRIO_RANGE, &v, &what, w))
		return what;
	ev->prio = (int)v;
	if (!(st = fkey(f, "prev_state")) || !*st || *st == ' ')
		return "prev_state";
	ev->bstate = *st;
	if (*st == 'R')
		ev->state = 'R';
	else if (*st == 'Z' || *st == 'X')
		ev->state = 'Z';
	else if (strchr("SDITtPKWN", *st))
		ev->state = 'S';
	else
		return "prev_state";
	if (get_comm(f, "next_comm", "next_pid", ev->comm2, &what) ||
	    get_int(f, "next_pid", PID_RANGE, &v, &what, w))
		return what;
	ev->pid2 = (int)v;
	if (get_int(f, "next_prio", PRIO_RANGE, &v, &what, w))
		return what;
	ev->prio2 = (int)v;
	if (ev->pid && ev->pid == ev->pid2) {
		snprintf(w->buf, w->len, "pid %d switches to itself", ev->pid);
		return w->buf;
	}
	return NULL;
}

/* The fields of the other events. */
static const char *fields_other(const char *f, struct tev *ev, struct why *w)
{
	const char *what = NULL;
	long long v;

	if (ev->type == EV_FORK) {
		if (get_comm(f, "comm", "pid", ev->comm, &what) ||
		    get_int(f, "pid", PID_RANGE, &v, &what, w))
			return what;
		ev->pid = (int)v;
		if (get_comm(f, "child_comm", "child_pid", ev->comm2, &what) ||
		    get_int(f, "child_pid", TASK_RANGE, &v, &what, w))
			return what;
		ev->pid2 = (int)v;
		if (ev->pid2 == ev->pid) {
			snprintf(w->buf, w->len, "pid %d forks itself (child_pid = pid)", ev->pid);
			return w->buf;
		}
		return NULL;
	}
	if (get_comm(f, "comm", "pid", ev->comm, &what) ||
	    get_int(f, "pid", TASK_RANGE, &v, &what, w))
		return what;
	ev->pid = (int)v;
	if (ev->type == EV_RUNTIME) {
		if (get_int(f, "runtime", 0, TRACE_MAX_RUNTIME_NS, &v, &what, w))
			return what;
		ev->runtime = v;
		return NULL;
	}
	/* waking, wakeup_new, migrate */
	if (get_int(f, "prio", PRIO_RANGE, &v, &what, w))
		return what;
	ev->prio = (int)v;
	if (ev->type == EV_MIGRATE) {
		if (get_int(f, "orig_cpu", CPU_RANGE, &v, &what, w))
			return what;
		ev->orig_cpu = (int)v;
		if (get_int(f, "dest_cpu", CPU_RANGE, &v, &what, w))
			return what;
		ev->dest_cpu = (int)v;
	}
	return NULL;
}

/*
 * Parse "COMM PID/TID [CPU] SECS.FRAC: sys:event: fields" (COMM may hold spaces and
 * colons). 1 = parsed, 0 = nothing to parse (blank or comment), -1 = malformed, the
 * reason in @why.
 */
static int parse_line(char *s, struct tev *ev, char *why, size_t wl)
{
	char *p, *e, *name, *f, range[128];
	const char *what = NULL;
	struct why w = { range, sizeof(range) };

	memset(ev, 0, sizeof(*ev));
	for (p = s; isspace((unsigned char)*p); p++)
		;
	if (!*p || *p == '#')
		return 0;
	p = parse_header(s, ev, why, wl);
	if (p)
		p = parse_timestamp(p, ev, why, wl);
	if (!p)
		return -1;
	/* event: "sched:sched_switch:" */
	while (*p == ' ')
		p++;
	name = p;
	while (*p && *p != ' ')
		p++;
	if (p == name || p[-1] != ':') {
		snprintf(why, wl, "no event name");
		return -1;
	}
	p[-1] = '\0';
	f = *p ? p + 1 : p;
	if ((e = strchr(name, ':')))
		name = e + 1;
	ev->type = event_type(name);
	if (ev->type < 0) {
		snprintf(why, wl, "unknown event '%s'", name);
		return -1;
	}
	while (*f == ' ')
		f++;
	if (ev->type == EV_SWITCH)
		what = fields_switch(f, ev, &w);
	else if (ev->type != EV_IGNORED)
		what = fields_other(f, ev, &w);
	if (what == range) {
		snprintf(why, wl, "%s: %s", name, range);
		return -1;
	}
	if (what) {
		snprintf(why, wl, "%s: missing or bad field '%s'", name, what);
		return -1;
	}
	return 1;
}

/* Parse the next event into the ring: 1, 0 at the end, -1 on an error. */
static int fill_one(struct ctx *c)
{
	for (;;) {
		struct tev ev;
		char why[160];
		int r = read_line(c);

		if (r <= 0)
			return r;
		r = parse_line(c->buf, &ev, why, sizeof(why));
		if (r == 0)
			continue;
		if (r != 0 && c->noeol) {	/* the cause, whether what is left parses or not */
			snprintf(why, sizeof(why), "the last line has no newline (a truncated file?)");
			r = -1;
		}
		if (r > 0 && c->have_ts && ev.ts < c->last_ts - TRACE_TS_TOLERANCE_NS) {
			snprintf(why, sizeof(why), "the time goes back %.6f s from line %llu's "
				 "(more than the %.3f ms tolerated: concatenated traces?)",
				 (double)(c->last_ts - ev.ts) / 1e9,
				 (unsigned long long)c->last_ts_line,
				 (double)TRACE_TS_TOLERANCE_NS / 1e6);
			r = -1;
		}
		if (r < 0) {
			if (lenient(c)) {
				c->t->skipped++;
				warn(c, "%s:%llu: %s: line skipped", c->path,
				     (unsigned long long)c->lineno, why);
				continue;
			}
			set_err(c, "%s:%llu: %s", c->path, (unsigned long long)c->lineno, why);
			return -1;
		}
		if (c->have_ts && ev.ts < c->last_ts) {
			ev.ts = c->last_ts;	/* within the tolerance: as the line before */
			c->t->anomalies++;
		} else {
			c->last_ts = ev.ts;
			c->last_ts_line = c->lineno;
			c->have_ts = 1;
		}
		ev.line = c->lineno;
		if (c->ring_n == c->ring_cap) {
			/* grow, unwrapping the ring */
			size_t n = c->ring_cap ? c->ring_cap * 2 : 256, i;
			struct tev *q = malloc(n * sizeof(*q));

			if (!q) {
				set_err(c, "%s: out of memory", c->path);
			c->code = -ENOMEM;
				return -1;
			}
			for (i = 0; i < c->ring_n; i++)
				q[i] = c->ring[(c->ring_head + i) % c->ring_cap];
			free(c->ring);
			c->ring = q;
			c->ring_cap = n;
			c->ring_head = 0;
		}
		c->ring[(c->ring_head + c->ring_n) % c->ring_cap] = ev;
		c->ring_n++;
		return 1;
	}
}

/* The k-th event ahead of the current one (k = 0: the current), NULL past the end. */
static struct tev *peek(struct ctx *c, size_t k, int *fail)
{
	while (c->ring_n <= k) {
		int r = fill_one(c);

		if (r < 0)
			*fail = 1;
		if (r <= 0)
			return NULL;
	}
	return &c->ring[(c->ring_head + k) % c->ring_cap];
}

/* ---- Tasks -------------------------------------------------------------------------- */

static int is_kernel_comm(const char *s)
{
	static const char *const pre[] = {
		"swapper", "migration/", "rcu_", "kworker", "ksoftirqd", "kthreadd",
		"cpuhp/", "idle_inject", "watchdog", "kcompactd", "kswapd", "khugepaged",
		"irq/", "oom_reaper", "kauditd", "kdevtmpfs", "khungtaskd", "jbd2/",
	};
	size_t i;

	for (i = 0; i < sizeof(pre) / sizeof(pre[0]); i++)
		if (!strncmp(s, pre[i], strlen(pre[i])))
			return 1;
	return 0;
}

static size_t hslot(const struct ctx *c, int pid)
{
	return ((size_t)(unsigned)pid * 2654435761u) & (c->hcap - 1);
}

static int find_task(const struct ctx *c, int pid)
{
	size_t i;

	if (!c->hcap)
		return -1;
	for (i = hslot(c, pid); c->hkeys[i] != -1; i = (i + 1) & (c->hcap - 1))
		if (c->hkeys[i] == pid)
			return c->hvals[i];
	return -1;
}

static int hput(struct ctx *c, int pid, int idx)
{
	size_t i;

	if ((c->hn + 1) * 2 > c->hcap) {
		size_t ocap = c->hcap, n = ocap ? ocap * 2 : 1024, j;
		int *ok = c->hkeys, *ov = c->hvals;

		c->hkeys = malloc(n * sizeof(int));
		c->hvals = malloc(n * sizeof(int));
		if (!c->hkeys || !c->hvals) {
			free(c->hkeys);
			free(c->hvals);
			c->hkeys = ok;
			c->hvals = ov;
			return -1;
		}
		c->hcap = n;
		c->hn = 0;
		for (j = 0; j < n; j++)
			c->hkeys[j] = -1;
		for (j = 0; j < ocap; j++)
			if (ok[j] != -1)
				hput(c, ok[j], ov[j]);
		free(ok);
		free(ov);
	}
	for (i = hslot(c, pid); c->hkeys[i] != -1; i = (i + 1) & (c->hcap - 1))
		if (c->hkeys[i] == pid) {
			c->hvals[i] = idx;
			return 0;
		}
	c->hkeys[i] = pid;
	c->hvals[i] = idx;
	c->hn++;
	return 0;
}

static void note_comm(struct ctx *c, struct itask *k, const char *comm, int from_fields)
{
	if (!*comm)
		return;
	if (from_fields || !k->pub.comm[0])
		snprintf(k->pub.comm, sizeof(k->pub.comm), "%s", comm);
	if (!strcmp(comm, "perf-exec"))
		k->seen_perf_exec = 1;
	if (!strcmp(comm, "perf"))
		k->seen_perf = 1;
	if (is_kernel_comm(comm))
		k->kernel = 1;
	if (c->o && c->o->comm && !strcmp(comm, c->o->comm))
		k->comm_match = 1;
}

static void note_prio(struct itask *k, int prio)
{
	k->pub.prio = prio;
	k->pub.nice = prio >= 100 ? prio - 120 : 0;
}

/* A new task for @pid; it replaces any older task of that pid. -1 if out of memory. */
static int new_task(struct ctx *c, int pid, int64_t ts)
{
	struct itask *k;

	if (grow((void **)&c->tasks, &c->tcap, c->nt + 1, sizeof(*c->tasks)) ||
	    hput(c, pid, (int)c->nt))
		return -1;
	k = &c->tasks[c->nt];
	memset(k, 0, sizeof(*k));
	k->pub.pid = pid;
	k->pub.ppid = -1;
	k->pub.prio = 120;
	k->pub.fork_ns = ts;
	k->parent = -1;
	k->cpu = -1;
	k->sleep_start = -1;
	k->rt_start = -1;
	return (int)c->nt++;
}

/* The task of @pid, created on first sight. NULL for the idle task, bad pids, no memory. */
static struct itask *task_of(struct ctx *c, int pid, int64_t ts, int *oom)
{
	int i;

	if (pid <= 0)
		return NULL;
	i = find_task(c, pid);
	if (i < 0 && (i = new_task(c, pid, ts)) < 0) {
		*oom = 1;
		return NULL;
	}
	return &c->tasks[i];
}

static int add_seg(struct itask *k, int kind, int pid, int64_t ns, int64_t off)
{
	struct trace_seg *s;

	if (grow((void **)&k->pub.segs, &k->segs_cap, k->pub.nr_segs + 1, sizeof(*s)))
		return -1;
	s = &k->pub.segs[k->pub.nr_segs++];
	s->kind = kind;
	s->pid = pid;
	s->ns = ns;
	s->offset_ns = off;
	s->at_ns = 0;
	s->early = 0;
	return 0;
}

static int last_kind(const struct itask *k)
{
	return k->pub.nr_segs ? (int)k->pub.segs[k->pub.nr_segs - 1].kind : -1;
}

/* Close the pending RUN: at a block or an exit, or (@fork) before a FORK marker. */
static int flush_run(struct itask *k, int fork)
{
	int r = 0;

	if (k->seg_run > 0 || (!fork && (last_kind(k) == TRACE_SLEEP || !k->pub.nr_segs)))
		r = add_seg(k, TRACE_RUN, -1, k->seg_run, 0);
	k->seg_run = 0;
	return r;
}

/* ---- The rebuild -------------------------------------------------------------------- */

static int add_wakeup(struct ctx *c, int ti, int is_new, int64_t wake, int64_t lat,
		      int waker)
{
	struct trace *t = c->t;
	struct trace_wakeup *w;

	if (grow((void **)&t->wakeups, &c->wk_cap, t->nr_wakeups + 1, sizeof(*w)) ||
	    grow((void **)&c->wk_task, &c->wkt_cap, t->nr_wakeups + 1, sizeof(int)))
		return -1;
	w = &t->wakeups[t->nr_wakeups];
	memset(w, 0, sizeof(*w));
	w->pid = c->tasks[ti].pub.pid;
	w->waker = waker;
	w->is_new = is_new;
	w->wake_ns = wake;
	w->lat_ns = lat > 0 ? lat : 0;
	c->wk_task[t->nr_wakeups++] = ti;
	return 0;
}

/*
 * CPU ns of @k's current burst at time @ts: its runtime so far plus the wall time since
 * the last runtime event (since the switch-in if none).
 */
static int64_t cpu_at(const struct itask *k, int64_t ts)
{
	int64_t from = k->brt_n ? k->brt_ts : k->burst_start;

	return k->brt + (ts > from ? ts - from : 0);
}

/* The whole burst's CPU ns, ending at @e: its runtime, or wall time without any. */
static int64_t burst_cpu(const struct itask *k, int64_t e)
{
	if (k->brt_n)
		return k->brt;
	return e > k->burst_start ? e - k->burst_start : 0;
}

/* @k's burst on its CPU ends at @e; @how 'R' preempted, 'S' blocked, 'Z' exited. */
/* Record @k's burst on its CPU, from its switch-in to @e. */
static int add_burst(struct ctx *c, struct itask *k, int64_t e)
{
	struct trace *t = c->t;

	if (grow((void **)&t->bursts, &c->burst_cap, t->nr_bursts + 1, sizeof(*t->bursts)))
		return -1;
	t->bursts[t->nr_bursts++] = (struct trace_burst){ k->pub.pid, (unsigned)k->cpu,
							   k->burst_start, e, k->burst_delay };
	return 0;
}

static int end_burst(struct ctx *c, struct itask *k, int64_t e, char how, char bstate)
{
	int counted = bstate != 0;
	int64_t run = burst_cpu(k, e);
	struct trace *t = c->t;

	if (k->cpu >= 0 && add_burst(c, k, e))
		return -1;
	if (run < k->seg_mark)
		run = k->seg_mark;
	if (e > k->burst_start)
		k->pub.oncpu_ns += e - k->burst_start;
	if (run > k->seg_mark)
		k->seg_run += run - k->seg_mark;
	k->pub.run_ns += run;
	k->wrun += run;
	k->brt = k->brt_n = 0;
	k->rt_start = -1;
	k->rt_pre = k->rt_pre_n = 0;
	if (how == 'R') {
		k->state = TS_RUNNABLE;
		if (counted) {
			k->pub.csw_invol++;
			t->csw_invol++;
		}
		if (k->pend == PEND_PRE)
			k->pend = PEND_NONE;
		return 0;
	}
	if (how == 'S') {
		k->state = TS_SLEEPING;
		k->sleep_start = e;
		if (bstate == 'S' || bstate == 'D' || bstate == 'I') {
			k->pub.csw_vol++;
			t->csw_vol++;
		}
		if (k->pend == PEND_PRE) {
			k->pend = PEND_WAKE;
			k->pend_pre = 1;
		} else {
			k->pend = PEND_NONE;
		}
		k->wrun = 0;
		return flush_run(k, 0);
	}
	k->state = TS_DEAD;
	k->pub.exit_ns = e;
	k->pend = PEND_NONE;
	if (flush_run(k, 0))
		return -1;
	return add_seg(k, TRACE_EXIT, -1, 0, 0);
}

/* @k starts running on @cpu at @s. */
static int switch_in(struct ctx *c, struct itask *k, int cpu, int64_t s)
{
	int64_t t_lat = 0;	/* the wakeup latency this switch-in ends */
	struct cpu_state *cs = &c->cpus[cpu];
	int ti = (int)(k - c->tasks);

	if (cs->cur == 0 && s > cs->idle_since)
		c->t->idle_ns[cpu] += s - cs->idle_since;
	cs->cur = k->pub.pid;
	if (k->state == TS_RUNNING && k->cpu != cpu) {
		/* still running elsewhere: that switch-out was not recorded */
		c->t->anomalies++;
		if (c->cpus[k->cpu].cur == k->pub.pid)
			c->cpus[k->cpu].cur = -1;
		if (end_burst(c, k, s, 'R', 0))
			return -1;
	}
	if (k->pend == PEND_NEW) {
		if (add_wakeup(c, ti, 1, k->pend_ts, s - k->pend_ts, k->pend_waker))
			return -1;
		t_lat = s > k->pend_ts ? s - k->pend_ts : 0;
	} else if (k->pend == PEND_WAKE && (k->state == TS_SLEEPING ||
					    k->state == TS_UNKNOWN)) {
		if (add_wakeup(c, ti, 0, k->pend_ts, s - k->pend_ts, k->pend_waker))
			return -1;
		t_lat = s > k->pend_ts ? s - k->pend_ts : 0;
		k->pub.wakeups++;
		if (k->state == TS_SLEEPING && k->sleep_start >= 0) {
			int64_t d = k->pend_ts - k->sleep_start;

			if (add_seg(k, TRACE_SLEEP, k->pend_waker, d > 0 ? d : 0, k->pend_off))
				return -1;
			k->pub.segs[k->pub.nr_segs - 1].at_ns = k->pend_ts;
			k->pub.segs[k->pub.nr_segs - 1].early = d < 0 ? 1 : d == 0 ? 2 : 0;
		}
	} else if (k->state == TS_SLEEPING && k->sleep_start >= 0) {
		/* no waking seen: a timer or an interrupt on an idle CPU1 */
		if (add_seg(k, TRACE_SLEEP, -1, s > k->sleep_start ? s - k->sleep_start : 0, 0))
			return -1;
		k->pub.segs[k->pub.nr_segs - 1].at_ns = s;
	}
	k->pend = PEND_NONE;
	k->pend_pre = 0;
	k->state = TS_RUNNING;
	k->cpu = cpu;
	k->burst_start = s;
	k->burst_delay = t_lat;
	k->seg_mark = 0;
	k->brt = k->brt_n = 0;
	k->rt_start = -1;
	k->rt_pre = k->rt_pre_n = 0;
	return 0;
}

/*
 * @k shows up running on @cpu at the current event without a recorded switch-in: it
 * started at its first sched_stat_runtime's time minus that runtime (seen before, in
 * this event or ahead), and not before the CPU went idle.
 */
static int implicit_switch_in(struct ctx *c, struct itask *k, int cpu, const struct tev *ev)
{
	struct cpu_state *cs = &c->cpus[cpu];
	int64_t s = ev->ts;
	size_t i;
	int fail = 0;

	if (cs->cur > 0) {
		/* someone else was running here: its switch-out is missing */
		int oi = find_task(c, cs->cur);

		c->t->anomalies++;
		if (oi >= 0 && c->tasks[oi].state == TS_RUNNING && c->tasks[oi].cpu == cpu &&
		    end_burst(c, &c->tasks[oi], ev->ts, 'R', 0))
			return -1;
		cs->cur = -1;
	}
	if (k->rt_start >= 0 && k->rt_start < s)
		s = k->rt_start;
	for (i = 0; i < LOOKAHEAD_MAX; i++) {
		struct tev *x = peek(c, i, &fail);

		if (!x)
			break;
		if (x->type == EV_RUNTIME && x->pid == k->pub.pid) {
			if (x->ts - x->runtime < s)
				s = x->ts - x->runtime;
			break;
		}
		if (x->type == EV_SWITCH && (x->cpu == cpu || x->pid == k->pub.pid ||
					     x->pid2 == k->pub.pid))
			break;
	}
	if (fail)
		return -1;
	if (cs->cur == 0 && s < cs->idle_since)
		s = cs->idle_since;
	if (k->state == TS_SLEEPING && k->sleep_start > s)
		s = k->sleep_start;
	{
		/* runtime already reported (from another CPU) belongs to this burst */
		int64_t pre = k->rt_pre;
		int pre_n = k->rt_pre_n;

		if (switch_in(c, k, cpu, s))
			return -1;
		k->brt = pre;
		k->brt_n = pre_n;
		k->brt_ts = ev->ts;
	}
	return 0;
}

/*
 * The event handlers of process(): 0, -1 on an error (set), PROC_NOMEM when out of
 * memory. @ai is the actor's index (-1: none), @oom is set by task_of().
 */
#define PROC_NOMEM 1

static int on_switch(struct ctx *c, const struct tev *ev, int ai, int *oom)
{
	struct cpu_state *cs = &c->cpus[ev->cpu];
	struct itask *a = ai >= 0 ? &c->tasks[ai] : NULL, *k;

	if (a) {
		note_comm(c, a, ev->comm, 1);
		note_prio(a, ev->prio);
		if (end_burst(c, a, ev->ts, ev->state, ev->bstate))
			return -1;
		cs->cur = -1;
	} else if (cs->cur > 0) {
		/* the idle task leaves a CPU we thought busy */
		int oi = find_task(c, cs->cur);

		c->t->anomalies++;
		if (oi >= 0 && c->tasks[oi].state == TS_RUNNING &&
		    end_burst(c, &c->tasks[oi], ev->ts, 'R', 0))
			return -1;
		cs->cur = -1;
	}
	if (ev->pid2 <= 0) {
		cs->cur = 0;
		cs->idle_since = ev->ts;
		return 0;
	}
	if (!(k = task_of(c, ev->pid2, ev->ts, oom)))
		return PROC_NOMEM;
	note_comm(c, k, ev->comm2, 1);
	note_prio(k, ev->prio2);
	return switch_in(c, k, ev->cpu, ev->ts) ? -1 : 0;
}

/* sched_waking of @ev->pid by the actor @ai (its CPU time into its run: the offset). */
static int on_waking(struct ctx *c, const struct tev *ev, int ai, int actor, int *oom)
{
	struct itask *a = ai >= 0 ? &c->tasks[ai] : NULL, *k;
	int64_t off = 0;
	int waker = a ? actor : -1;
	int known = find_task(c, ev->pid) >= 0;

	if (a && a->state == TS_RUNNING)
		off = a->wrun + cpu_at(a, ev->ts);
	if (!(k = task_of(c, ev->pid, ev->ts, oom)))
		return 0;
	if (!known) {
		k->woken_only = 1;
		k->woken_line = ev->line;
	}
	note_comm(c, k, ev->comm, 1);
	note_prio(k, ev->prio);
	switch (k->state) {
	case TS_UNKNOWN:
	case TS_SLEEPING:
		if (k->pend == PEND_NONE || (k->pend == PEND_WAKE && k->pend_pre)) {
			k->pend = PEND_WAKE;
			k->pend_pre = 0;
			k->pend_ts = ev->ts;
			k->pend_waker = waker;
			k->pend_off = off;
		}
		break;
	case TS_RUNNING:
		if (k->pend == PEND_NONE) {
			k->pend = PEND_PRE;
			k->pend_ts = ev->ts;
			k->pend_waker = waker;
			k->pend_off = off;
		}
		break;
	default:
		c->t->anomalies++;
		break;
	}
	return 0;
}

static int on_wakeup_new(struct ctx *c, const struct tev *ev, int *oom)
{
	struct itask *k = task_of(c, ev->pid, ev->ts, oom);

	if (!k)
		return 0;
	note_comm(c, k, ev->comm, 1);
	note_prio(k, ev->prio);
	if (k->state == TS_UNKNOWN || k->state == TS_RUNNABLE) {
		k->state = TS_RUNNABLE;
		k->pend = PEND_NEW;
		k->pend_ts = ev->ts;
		k->pend_waker = k->pub.ppid;
	} else {
		c->t->anomalies++;
	}
	return 0;
}

/* sched_process_fork: the child, and a FORK segment in the parent's run. */
static int on_fork(struct ctx *c, const struct tev *ev, int *oom)
{
	struct itask *p, *k;
	int ci;
	int64_t off = 0;

	if (!(p = task_of(c, ev->pid, ev->ts, oom)))
		return 0;
	note_comm(c, p, ev->comm, 1);
	if ((ci = new_task(c, ev->pid2, ev->ts)) < 0)
		return PROC_NOMEM;
	p = &c->tasks[find_task(c, ev->pid)];	/* the array may have moved */
	k = &c->tasks[ci];
	k->pub.ppid = ev->pid;
	k->parent = (int)(p - c->tasks);
	k->state = TS_RUNNABLE;
	note_comm(c, k, ev->comm2, 1);
	note_prio(k, p->pub.prio);
	if (p->state == TS_RUNNING) {
		int64_t at = cpu_at(p, ev->ts);

		if (at > p->seg_mark) {
			p->seg_run += at - p->seg_mark;
			p->seg_mark = at;
		}
		off = p->wrun + at;
	} else {
		off = p->wrun;
		c->t->anomalies++;
	}
	if (flush_run(p, 1) || add_seg(p, TRACE_FORK, ev->pid2, 0, off))
		return PROC_NOMEM;
	return 0;
}

static int on_runtime(struct ctx *c, const struct tev *ev, int *oom)
{
	struct itask *k = task_of(c, ev->pid, ev->ts, oom);

	if (!k)
		return 0;
	note_comm(c, k, ev->comm, 1);
	k->pub.runtime_ns += ev->runtime;
	if (k->state == TS_RUNNING) {
		k->brt += ev->runtime;
		k->brt_n++;
		k->brt_ts = ev->ts;
	} else {
		if (k->rt_start < 0)
			k->rt_start = ev->ts - ev->runtime;
		k->rt_pre += ev->runtime;
		k->rt_pre_n++;
	}
	return 0;
}

/* sched_migrate_task: at a wakeup when it follows the task's sched_waking on this CPU. */
static int on_migrate(struct ctx *c, const struct tev *ev, int *oom)
{
	struct cpu_state *cs = &c->cpus[ev->cpu];
	int at_wake = cs->last_type == EV_WAKING && cs->last_pid == ev->pid;
	struct itask *k = task_of(c, ev->pid, ev->ts, oom);

	if (!k)
		return 0;
	note_comm(c, k, ev->comm, 1);
	if (at_wake) {
		k->pub.mig_wakeup++;
		c->t->mig_wakeup++;
	} else {
		k->pub.mig_other++;
		c->t->mig_other++;
	}
	return 0;
}

/*
 * The task acting on the event's CPU (the switch's prev task, else the header's): known,
 * and running there (switched in implicitly when the trace did not show it). Its index
 * into *@ai (-1: none); 0, -1 on an error, PROC_NOMEM.
 */
static int note_actor(struct ctx *c, const struct tev *ev, int actor, int *ai, int *oom)
{
	struct cpu_state *cs = &c->cpus[ev->cpu];
	struct itask *a;

	*ai = -1;
	if (actor <= 0)
		return 0;
	a = task_of(c, actor, ev->ts, oom);
	if (!a)
		return PROC_NOMEM;
	*ai = (int)(a - c->tasks);
	if (ev->type != EV_SWITCH && ev->hpid == actor)
		note_comm(c, a, ev->hcomm, 0);
	if (cs->cur != actor || a->state != TS_RUNNING || a->cpu != ev->cpu) {
		if (implicit_switch_in(c, a, ev->cpu, ev))
			return -1;
	}
	return 0;
}

/* A pid seen in an event other than as the target of a sched_waking. */
static void seen(struct ctx *c, int pid)
{
	int i = pid > 0 ? find_task(c, pid) : -1;

	if (i >= 0)
		c->tasks[i].woken_only = 0;
}

static int process(struct ctx *c, const struct tev *ev)
{
	struct trace *t = c->t;
	struct cpu_state *cs = &c->cpus[ev->cpu];
	int oom = 0, actor, ai, ret;

	if ((unsigned)ev->cpu + 1 > t->nr_cpus)
		t->nr_cpus = (unsigned)ev->cpu + 1;
	if (!c->have_ev) {
		t->start_ns = ev->ts;
		c->have_ev = 1;
	}
	t->end_ns = ev->ts;
	actor = ev->type == EV_SWITCH ? ev->pid : ev->hpid;
	ret = note_actor(c, ev, actor, &ai, &oom);
	if (!ret) {
		switch (ev->type) {
		case EV_SWITCH:
			ret = on_switch(c, ev, ai, &oom);
			break;
		case EV_WAKING:
			ret = on_waking(c, ev, ai, actor, &oom);
			break;
		case EV_WAKEUP_NEW:
			ret = on_wakeup_new(c, ev, &oom);
			break;
		case EV_FORK:
			ret = on_fork(c, ev, &oom);
			break;
		case EV_RUNTIME:
			ret = on_runtime(c, ev, &oom);
			break;
		case EV_MIGRATE:
			ret = on_migrate(c, ev, &oom);
			break;
		default:
			break;
		}
	}
	if (ret < 0)
		return -1;
	if (ret == PROC_NOMEM || oom) {
		set_err(c, "%s: out of memory", c->path);
			c->code = -ENOMEM;
		return -1;
	}
	seen(c, actor);
	if (ev->type != EV_WAKING)
		seen(c, ev->pid);
	if (ev->type == EV_SWITCH || ev->type == EV_FORK)
		seen(c, ev->pid2);
	cs->last_type = ev->type;
	cs->last_pid = ev->pid;
	return 0;
}

/* ---- After the last line ------------------------------------------------------------ */

/*
 * A sched_waking of a pid that appears nowhere else (no switch, runtime, fork, migration
 * or event of its own): an error, or lenient a warning (none on the shared traces).
 */
static int check_woken(struct ctx *c)
{
	size_t i;

	for (i = 0; i < c->nt; i++) {
		const struct itask *k = &c->tasks[i];

		if (!k->woken_only)
			continue;
		if (!lenient(c)) {
			set_err(c, "%s:%llu: sched_waking of pid %d, which appears nowhere else in "
				"the trace", c->path, (unsigned long long)k->woken_line, k->pub.pid);
			return -1;
		}
		warn(c, "%s:%llu: sched_waking of pid %d, which appears nowhere else in the trace",
		     c->path, (unsigned long long)k->woken_line, k->pub.pid);
	}
	return 0;
}

static int finish(struct ctx *c)
{
	struct trace *t = c->t;
	size_t i;
	unsigned cpu;

	for (cpu = 0; cpu < t->nr_cpus; cpu++)
		if (c->cpus[cpu].cur == 0 && t->end_ns > c->cpus[cpu].idle_since)
			t->idle_ns[cpu] += t->end_ns - c->cpus[cpu].idle_since;
	for (i = 0; i < c->nt; i++) {
		struct itask *k = &c->tasks[i];

		if (k->state == TS_RUNNING) {
			if (k->cpu >= 0 && add_burst(c, k, t->end_ns))
				return -1;
			/* cut at the end: what ran after the last runtime event counts too */
			int64_t run = cpu_at(k, t->end_ns);

			if (t->end_ns > k->burst_start)
				k->pub.oncpu_ns += t->end_ns - k->burst_start;
			k->pub.run_ns += run;
			if (run > k->seg_mark)
				k->seg_run += run - k->seg_mark;
		}
		if (k->seg_run > 0 && add_seg(k, TRACE_RUN, -1, k->seg_run, 0))
			return -1;
		k->seg_run = 0;
		if (k->state == TS_SLEEPING && k->pend == PEND_WAKE && k->sleep_start >= 0) {
			int64_t d = k->pend_ts - k->sleep_start;

			if (add_seg(k, TRACE_SLEEP, k->pend_waker, d > 0 ? d : 0, k->pend_off))
				return -1;
			k->pub.segs[k->pub.nr_segs - 1].at_ns = k->pend_ts;
			k->pub.segs[k->pub.nr_segs - 1].early = d < 0 ? 1 : d == 0 ? 2 : 0;
		}
	}
	return 0;
}

/* Mark the kept tasks: the filters, else the workload (docs/trace.md). */
static void choose(struct ctx *c)
{
	const struct trace_opts *o = c->o;
	int filtered = o && (o->comm || o->pid > 0 || o->tree_of > 0 || o->all);
	size_t i;

	c->t->root_pid = -1;
	if (filtered) {
		for (i = 0; i < c->nt; i++) {
			struct itask *k = &c->tasks[i];
			int in_tree = 0;

			if (o->tree_of > 0) {
				int p;

				for (p = (int)i; p >= 0; p = c->tasks[p].parent)
					if (c->tasks[p].pub.pid == o->tree_of) {
						in_tree = 1;
						break;
					}
			}
			k->keep = (!o->comm || k->comm_match) &&
				  (o->pid <= 0 || k->pub.pid == o->pid) &&
				  (o->tree_of <= 0 || in_tree);
		}
		if (o->tree_of > 0)
			c->t->root_pid = o->tree_of;
		return;
	}
	/* the workload: the trees of perf-exec; without perf-exec, of the first forker */
	for (i = 0; i < c->nt; i++)
		if (c->tasks[i].seen_perf_exec) {
			c->tasks[i].keep = 1;
			if (c->t->root_pid < 0)
				c->t->root_pid = c->tasks[i].pub.pid;
		}
	if (c->t->root_pid < 0) {
		for (i = 0; i < c->nt; i++) {
			struct itask *k = &c->tasks[i];

			if (k->parent >= 0 && !c->tasks[k->parent].kernel &&
			    !c->tasks[k->parent].seen_perf) {
				c->tasks[k->parent].keep = 1;
				c->t->root_pid = c->tasks[k->parent].pub.pid;
				break;
			}
		}
	}
	/* children come after their parents */
	for (i = 0; i < c->nt; i++)
		if (c->tasks[i].parent >= 0 && c->tasks[c->tasks[i].parent].keep)
			c->tasks[i].keep = 1;
}

static int build(struct ctx *c)
{
	struct trace *t = c->t;
	size_t i, n = 0;

	choose(c);
	for (i = 0; i < c->nt; i++)
		n += c->tasks[i].keep;
	t->tasks = calloc(n ? n : 1, sizeof(*t->tasks));
	if (!t->tasks)
		return -1;
	for (i = 0; i < c->nt; i++) {
		struct itask *k = &c->tasks[i];

		if (k->keep) {
			t->tasks[t->nr_tasks++] = k->pub;
			k->pub.segs = NULL;
		}
	}
	for (i = 0; i < t->nr_wakeups; i++) {
		const struct itask *k = &c->tasks[c->wk_task[i]];

		t->wakeups[i].kept = k->keep;
		t->wakeups[i].tool = k->seen_perf;
	}
	return 0;
}

void trace_free(struct trace *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->nr_tasks; i++)
		free(t->tasks[i].segs);
	free(t->tasks);
	free(t->idle_ns);
	free(t->wakeups);
	free(t->bursts);
	free(t);
}

int trace_load(const char *path, const struct trace_opts *o, struct trace **out, char *err,
	       size_t len)
{
	struct ctx *c;
	int ret = -1;
	size_t i;

	if (err && len)
		err[0] = '\0';
	*out = NULL;
	c = calloc(1, sizeof(*c));
	if (!c) {
		if (err && len)
			snprintf(err, len, "out of memory");
		return -1;
	}
	c->path = path;
	c->code = -EINVAL;
	c->o = o;
	c->err = err;
	c->errlen = len;
	for (i = 0; i < TRACE_MAX_CPUS; i++)
		c->cpus[i].cur = -1;
	c->t = calloc(1, sizeof(*c->t));
	c->buf_cap = 4096;
	c->buf = malloc(c->buf_cap);
	if (!c->t || !c->buf || !(c->t->idle_ns = calloc(TRACE_MAX_CPUS, sizeof(int64_t)))) {
		set_err(c, "out of memory");
		c->code = -ENOMEM;
		goto out;
	}
	errno = 0;
	c->gz = gzopen(path, "rb");
	if (!c->gz) {
		c->code = errno ? -errno : -EIO;
		set_err(c, "%s: cannot open: %s", path, errno ? strerror(errno) : "gzopen failed");
		goto out;
	}
	gzbuffer(c->gz, 1 << 16);
	for (;;) {
		int fail = 0;
		struct tev ev, *x = peek(c, 0, &fail);

		if (fail)
			goto out;
		if (!x)
			break;
		ev = *x;
		if (process(c, &ev))
			goto out;
		c->ring_head = (c->ring_head + 1) % c->ring_cap;
		c->ring_n--;
	}
	if (!c->have_ev) {
		set_err(c, "%s: no events", path);
		goto out;
	}
	if (check_woken(c))
		goto out;
	if (finish(c) || build(c)) {
		set_err(c, "%s: out of memory", path);
		c->code = -ENOMEM;
		goto out;
	}
	*out = c->t;
	c->t = NULL;
	c->code = 0;
out:
	ret = c->code;
	if (c->gz)
		gzclose(c->gz);
	for (i = 0; i < c->nt; i++)
		free(c->tasks[i].pub.segs);
	free(c->tasks);
	free(c->hkeys);
	free(c->hvals);
	free(c->ring);
	free(c->buf);
	free(c->wk_task);
	if (c->t) {
		c->t->nr_tasks = 0;
		trace_free(c->t);
	}
	free(c);
	return ret;
}

/* ---- What Linux did ----------------------------------------------------------------- */

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* Nearest-rank quantiles of @v (sorted here), in µs. */
static void quantiles(int64_t *v, size_t n, double *p50, double *p90, double *p99, double *max)
{
	static const double q[3] = { 0.50, 0.90, 0.99 };
	double *out[3] = { p50, p90, p99 };
	int i;

	*p50 = *p90 = *p99 = *max = 0;
	if (!n)
		return;
	qsort(v, n, sizeof(*v), cmp_i64);
	for (i = 0; i < 3; i++) {
		size_t r = (size_t)(q[i] * (double)n + 0.999999999);

		if (r < 1)
			r = 1;
		if (r > n)
			r = n;
		*out[i] = (double)v[r - 1] / 1000.0;
	}
	*max = (double)v[n - 1] / 1000.0;
}

int trace_linux_metrics(const struct trace *t, struct trace_linux *m)
{
	int64_t first = INT64_MAX, last = 0, dur, *all, *wl;
	int alive = 0;
	size_t i, na = 0, nw = 0;
	unsigned cpu;

	memset(m, 0, sizeof(*m));
	dur = t->end_ns - t->start_ns;
	m->duration_ms = (double)dur / 1e6;
	m->nr_cpus = t->nr_cpus;
	for (cpu = 0; cpu < t->nr_cpus && cpu < TRACE_MAX_CPUS; cpu++)
		m->busy_pct[cpu] = dur > 0 ? 100.0 * (1.0 - (double)t->idle_ns[cpu] / (double)dur)
					   : 0;
	m->tasks = (unsigned)t->nr_tasks;
	for (i = 0; i < t->nr_tasks; i++) {
		const struct trace_task *k = &t->tasks[i];

		if (k->ppid >= 0)
			m->forks++;
		if (k->exit_ns) {
			m->exits++;
			if (k->exit_ns > last)
				last = k->exit_ns;
		} else {
			alive = 1;
		}
		if (k->fork_ns < first)
			first = k->fork_ns;
		m->cpu_time_ms += (double)k->runtime_ns / 1e6;
		m->wl_mig_wakeup += k->mig_wakeup;
		m->wl_mig_other += k->mig_other;
		m->wl_csw_vol += k->csw_vol;
		m->wl_csw_invol += k->csw_invol;
	}
	if (alive)
		last = t->end_ns;
	if (t->nr_tasks)
		m->makespan_ms = (double)(last - first) / 1e6;
	m->mig_wakeup = t->mig_wakeup;
	m->mig_other = t->mig_other;
	m->csw_vol = t->csw_vol;
	m->csw_invol = t->csw_invol;

	all = malloc((t->nr_wakeups + 1) * sizeof(*all));
	wl = malloc((t->nr_wakeups + 1) * sizeof(*wl));
	if (!all || !wl) {
		free(all);
		free(wl);
		return -1;
	}
	for (i = 0; i < t->nr_wakeups; i++) {
		const struct trace_wakeup *w = &t->wakeups[i];

		if (!w->tool)
			all[na++] = w->lat_ns;
		if (w->kept && !w->is_new)
			wl[nw++] = w->lat_ns;
	}
	m->lat_n = na;
	quantiles(all, na, &m->lat_p50_us, &m->lat_p90_us, &m->lat_p99_us, &m->lat_max_us);
	m->wl_lat_n = nw;
	quantiles(wl, nw, &m->wl_lat_p50_us, &m->wl_lat_p90_us, &m->wl_lat_p99_us,
		  &m->wl_lat_max_us);
	free(all);
	free(wl);
	return 0;
}
