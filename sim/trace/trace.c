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

#define STR_(x)		#x
#define STR(x)		STR_(x)
#define TRACE_MAX_LINE_STR STR(TRACE_MAX_LINE)

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
	int hpgid;		/* the header's pid: the task's process (its tgid) */
	int type;
	int pid, pid2, prio, prio2;
	char state;		/* prev_state: 'R' preempted, 'S' blocked, 'Z' exited */
	char bstate;		/* prev_state's first letter */
	int64_t runtime;
	int orig_cpu, dest_cpu;
	int wctx;		/* waking: enum trace_wake_ctx, from the call chain after it */
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
	int pend_ctx;		/* the pending waking's enum trace_wake_ctx */
	int pend_cpu;		/* the CPU its waking was on */
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

/* Bytes read from the file and inflated, one buffer of each (bounded memory). */
#define IO_BUF		65536

struct ctx {
	const char *path;
	FILE *f;
	int gz;			/* the file is gzip (one or more members), else plain text */
	z_stream zs;
	int zs_init;
	int z_end;		/* the last member ended; what follows is being looked at */
	uint64_t in_off;	/* file bytes handed to inflate so far */
	unsigned char *in, *out;	/* IO_BUF each: file bytes, text bytes */
	size_t out_pos, out_len;
	int src_end;		/* no more text: the end, or (lenient) a damaged stream */
	char *buf;		/* the current line: TRACE_MAX_LINE + 2 bytes */
	char *prev;		/* the line before it, as read (a duplicate is looked for) */
	size_t prev_len;
	int prev_ok;		/* prev holds that line (it was not cut or bad) */
	size_t buf_len;		/* the current line's length as read */
	const char *line_bad;	/* the current line holds a NUL or is too long: why */
	int eof;
	const struct trace_opts *o;
	char *err;
	size_t errlen;
	uint64_t lineno;
	char sw_from;		/* the switch under way came from idle 'I', a preemption 'R',
				   a task that left 'B'; 0: an inferred switch-in */
	int64_t sw_idle_since;	/* and for 'I', since when the CPU idled */
	int pushed;		/* buf holds a line read ahead (after a call chain), not taken */
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
	/* each CPU's latest timestamp (as written) and its line (0: none yet) */
	int64_t cpu_ts[TRACE_MAX_CPUS];
	uint64_t cpu_ts_line[TRACE_MAX_CPUS];
	uint64_t cur_line;	/* the line of the event being processed */
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
 * The file is read with zlib's inflate() rather than gzopen()/gzgets(): gzgets() cannot
 * tell a NUL byte from the end of its string, grows no bound on a line, and gzread()
 * silently drops bytes after a gzip stream that are not another gzip member. Here a gzip
 * file is one or more members (as gzip -d reads it) and nothing after the last one; a
 * file that does not start with gzip's magic bytes is plain text.
 */

/* A damaged or cut gzip stream: an error, or lenient a warning and the end of the text. */
static int gz_damaged(struct ctx *c, const char *what)
{
	if (lenient(c)) {
		warn(c, "%s:%llu: %s (a truncated or damaged gzip file): the rest is lost",
		     c->path, (unsigned long long)c->lineno + 1, what);
		c->src_end = 1;
		return 0;
	}
	set_err(c, "%s:%llu: %s (a truncated or damaged gzip file)", c->path,
		(unsigned long long)c->lineno + 1, what);
	c->code = -EINVAL;
	return -1;
}

static int read_failed(struct ctx *c)
{
	set_err(c, "%s:%llu: read error: %s", c->path, (unsigned long long)c->lineno + 1,
		strerror(errno ? errno : EIO));
	c->code = -EIO;
	return -1;
}

/* More file bytes for inflate: 1, 0 at the end of the file, -1 on a read error. */
static int more_input(struct ctx *c)
{
	size_t n;

	if (c->zs.avail_in)
		return 1;
	errno = 0;
	n = fread(c->in, 1, IO_BUF, c->f);
	if (!n)
		return ferror(c->f) ? read_failed(c) : 0;
	c->zs.next_in = c->in;
	c->zs.avail_in = (uInt)n;
	return 1;
}

/*
 * A member ended: another gzip member may follow, nothing else. 0 with the stream reset for
 * the next member (or src_end at the end of the file), -1 on an error.
 */
static int after_member(struct ctx *c)
{
	int r;

	r = more_input(c);
	if (r <= 0) {
		c->src_end = r == 0;
		return r;
	}
	if (c->zs.avail_in == 1 && c->zs.next_in[0] == 0x1f) {
		/* one byte of a possible header: look at the next one too */
		unsigned char b = c->zs.next_in[0];

		c->in[0] = b;
		errno = 0;
		if (fread(c->in + 1, 1, 1, c->f) == 1) {
			c->zs.next_in = c->in;
			c->zs.avail_in = 2;
		} else if (ferror(c->f)) {
			return read_failed(c);
		}
	}
	if (c->zs.avail_in >= 2 && c->zs.next_in[0] == 0x1f && c->zs.next_in[1] == 0x8b) {
		if (inflateReset(&c->zs) != Z_OK)
			return gz_damaged(c, "inflateReset failed");
		c->z_end = 0;
		return 0;
	}
	if (lenient(c)) {
		warn(c, "%s:%llu: bytes after the end of the gzip stream (at byte %llu) that are "
		     "not a gzip member: ignored", c->path, (unsigned long long)c->lineno + 1,
		     (unsigned long long)c->in_off);
		c->src_end = 1;
		return 0;
	}
	set_err(c, "%s: bytes after the end of the gzip stream (at byte %llu) that are not a "
		"gzip member: trailing garbage (a damaged or appended-to file)", c->path,
		(unsigned long long)c->in_off);
	c->code = -EINVAL;
	return -1;
}

/* Inflate more text into c->out: its length, 0 at the end, -1 on an error. */
static int fill_gz(struct ctx *c)
{
	for (;;) {
		unsigned before;
		int r;

		if (c->src_end)
			return 0;
		if (c->z_end) {
			if (after_member(c))
				return -1;
			continue;
		}
		r = more_input(c);
		if (r < 0)
			return -1;
		if (r == 0)
			return gz_damaged(c, "unexpected end of file") ? -1 : 0;
		c->zs.next_out = c->out;
		c->zs.avail_out = IO_BUF;
		before = c->zs.avail_in;
		r = inflate(&c->zs, Z_NO_FLUSH);
		c->in_off += before - c->zs.avail_in;
		if (r == Z_STREAM_END)
			c->z_end = 1;
		else if (r == Z_MEM_ERROR) {
			set_err(c, "%s: out of memory", c->path);
			c->code = -ENOMEM;
			return -1;
		} else if (r != Z_OK && r != Z_BUF_ERROR) {
			/* what was inflated before the damage is good text: keep it */
			size_t n = IO_BUF - c->zs.avail_out;
			int e = gz_damaged(c, c->zs.msg ? c->zs.msg : "bad gzip data");

			if (e)
				return -1;
			return (int)n;
		}
		if (c->zs.avail_out < IO_BUF)
			return (int)(IO_BUF - c->zs.avail_out);
	}
}

/* More text into c->out: its length, 0 at the end, -1 on an error. */
static int fill_text(struct ctx *c)
{
	size_t n;

	if (c->gz)
		return fill_gz(c);
	if (c->src_end)
		return 0;
	errno = 0;
	n = fread(c->out, 1, IO_BUF, c->f);
	if (!n) {
		if (ferror(c->f))
			return read_failed(c);
		c->src_end = 1;
	}
	return (int)n;
}

/*
 * The next line without its newline in c->buf (c->buf_len bytes): 1, 0 at the end, -1 on
 * an error. A line longer than TRACE_MAX_LINE or holding a NUL sets c->line_bad; strict
 * mode stops reading once the line is known to be too long (a stream without a newline
 * costs one buffer), lenient reads on to its newline keeping none of the rest.
 */
static int read_line(struct ctx *c)
{
	size_t n = 0;
	int got_nl = 0, any = 0, nul = 0, toolong = 0;

	if (c->pushed) {	/* the line read past a call chain, not yet taken */
		c->pushed = 0;
		return 1;
	}
	if (c->eof)
		return 0;
	c->line_bad = NULL;
	for (;;) {
		const char *p, *nl;
		size_t len, take;

		if (c->out_pos == c->out_len) {
			int r = fill_text(c);

			if (r < 0)
				return -1;
			if (r == 0) {
				c->eof = 1;
				break;
			}
			c->out_pos = 0;
			c->out_len = (size_t)r;
		}
		any = 1;
		p = (const char *)c->out + c->out_pos;
		len = c->out_len - c->out_pos;
		nl = memchr(p, '\n', len);
		take = nl ? (size_t)(nl - p) : len;
		c->out_pos += take + (nl != NULL);
		if (!toolong) {
			size_t room = TRACE_MAX_LINE - n, k = take < room ? take : room;

			memcpy(c->buf + n, p, k);
			nul |= memchr(c->buf + n, '\0', k) != NULL;
			n += k;
			toolong = take > room;
		}
		if (nl) {
			got_nl = 1;
			break;
		}
		if (toolong && !lenient(c))
			break;	/* the error is known: read no further */
	}
	if (!any)
		return 0;
	if (toolong)
		c->line_bad = nul ? "a line longer than " TRACE_MAX_LINE_STR " bytes "
				    "(TRACE_MAX_LINE) holding NUL bytes: not perf script text" :
				    "a line longer than " TRACE_MAX_LINE_STR " bytes "
				    "(TRACE_MAX_LINE): not a perf script line";
	else if (nul)
		c->line_bad = "a NUL byte in the line (perf script writes text)";
	c->noeol = !got_nl;
	while (!c->line_bad && n && c->buf[n - 1] == '\r')
		n--;
	c->buf[n] = '\0';
	c->buf_len = n;
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
		ev->hpid = (int)tid;
		ev->hpgid = (int)pid;
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
 * Every integer field whose name says what it holds, in any event but the NUMA ones (whose
 * -1 means "none"): a CPU, a pid, a prio. The fields the rebuild does not read (target_cpu,
 * a sched_wakeup's or sched_process_exit's pid and prio, ...) are held to the same ranges:
 * an impossible value there says the line is not what perf wrote.
 */
static const struct {
	const char *key;
	long long lo, hi;
} field_ranges[] = {
	{ "target_cpu", CPU_RANGE }, { "orig_cpu", CPU_RANGE }, { "dest_cpu", CPU_RANGE },
	{ "cpu", CPU_RANGE },
	{ "pid", PID_RANGE }, { "prev_pid", PID_RANGE }, { "next_pid", PID_RANGE },
	{ "child_pid", PID_RANGE }, { "old_pid", PID_RANGE },
	{ "prio", PRIO_RANGE }, { "prev_prio", PRIO_RANGE }, { "next_prio", PRIO_RANGE },
	{ "oldprio", PRIO_RANGE }, { "newprio", PRIO_RANGE },
};

/* The fields of @f named in field_ranges[]: NULL, or the field that is bad. */
static const char *fields_in_range(const char *f, const char *name, struct why *w)
{
	const char *what = NULL;
	long long v;
	size_t i;

	if (strstr(name, "_numa"))
		return NULL;
	for (i = 0; i < sizeof(field_ranges) / sizeof(field_ranges[0]); i++)
		if (fkey(f, field_ranges[i].key) &&
		    get_int(f, field_ranges[i].key, field_ranges[i].lo, field_ranges[i].hi, &v,
			    &what, w))
			return what;
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
	if (!what)
		what = fields_in_range(f, name, &w);
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

/*
 * Events that cannot happen twice in a row as the same line: a task switched out, woken,
 * made new, moved off a CPU or forked a child cannot be again before something else
 * happens to it. (Two sched_stat_runtime updates within one microsecond can carry the same
 * figure, and the events the rebuild ignores are not judged.)
 */
static int unrepeatable(int type)
{
	return type == EV_SWITCH || type == EV_WAKING || type == EV_WAKEUP_NEW ||
	       type == EV_MIGRATE || type == EV_FORK;
}

/* The time rules of a parsed line (docs/trace.md, "Strictness"): 0, or -1 with @why. */
static int check_time(struct ctx *c, const struct tev *ev, char *why, size_t wl)
{
	if (c->have_ts && ev->ts < c->last_ts - TRACE_TS_TOLERANCE_NS) {
		snprintf(why, wl, "the time goes back %.6f s from line %llu's (more than the %.3f "
			 "ms tolerated: concatenated traces?)", (double)(c->last_ts - ev->ts) / 1e9,
			 (unsigned long long)c->last_ts_line, (double)TRACE_TS_TOLERANCE_NS / 1e6);
		return -1;
	}
	if (c->cpu_ts_line[ev->cpu] && ev->ts < c->cpu_ts[ev->cpu]) {
		snprintf(why, wl, "the time goes back %.6f s on CPU %d from line %llu's (perf "
			 "records each CPU's events in order: a reordered or edited trace?)",
			 (double)(c->cpu_ts[ev->cpu] - ev->ts) / 1e9, ev->cpu,
			 (unsigned long long)c->cpu_ts_line[ev->cpu]);
		return -1;
	}
	return 0;
}

/*
 * The call chain perf printed after an event, if any (`perf script -F ...,ip,sym` of a
 * sched_waking recorded with call-graph=fp): tab-indented "ADDRESS SYMBOL" lines, then a
 * blank line. Returns the waking's enum trace_wake_ctx (UNKNOWN without a chain); the line
 * after the chain stays for the next read. -1 on a read error.
 */
static int read_call_chain(struct ctx *c)
{
	static const char *const irq[] = {	/* an interrupt's entry or a timer's callback */
		"asm_common_interrupt", "asm_sysvec_", "sysvec_", "irq_exit", "__do_softirq",
		"hrtimer_wakeup", "call_timer_fn", "handle_edge_irq", "handle_irq_event",
	};
	int frames = 0, is_irq = 0, sync = 0, r;

	while ((r = read_line(c)) > 0) {
		const char *sym;

		if (c->line_bad || (c->buf[0] != '\t' && c->buf_len)) {
			c->pushed = 1;	/* not a frame: the next event, or a bad line */
			break;
		}
		if (!c->buf_len) {
			if (frames)
				break;	/* the blank line that ends a chain */
			continue;
		}
		frames++;
		sym = strchr(c->buf + 1, ' ');
		if (!sym)
			continue;
		sym++;
		/* a softirq run by ksoftirqd is that task's own work */
		if (!strcmp(sym, "run_ksoftirqd"))
			is_irq = 0;
		for (size_t i = 0; i < sizeof(irq) / sizeof(irq[0]); i++)
			if (!strncmp(sym, irq[i], strlen(irq[i])))
				is_irq = 1;
		if (!strcmp(sym, "__wake_up_sync_key") || !strcmp(sym, "__wake_up_sync"))
			sync = 1;
	}
	if (r < 0)
		return -1;
	if (!frames)
		return TRACE_WAKE_UNKNOWN;
	return is_irq ? TRACE_WAKE_IRQ : sync ? TRACE_WAKE_SYNC : TRACE_WAKE_TASK;
}

/* Parse the next event into the ring: 1, 0 at the end, -1 on an error. */
static int fill_one(struct ctx *c)
{
	for (;;) {
		struct tev ev;
		char why[300];
		int r = read_line(c), dup;

		if (r <= 0)
			return r;
		dup = c->prev_ok && c->buf_len == c->prev_len &&
		      !memcmp(c->buf, c->prev, c->buf_len);
		c->prev_ok = !c->line_bad;
		if (c->prev_ok) {
			memcpy(c->prev, c->buf, c->buf_len);
			c->prev_len = c->buf_len;
		}
		if (c->line_bad) {
			snprintf(why, sizeof(why), "%s", c->line_bad);
			r = -1;
		} else {
			r = parse_line(c->buf, &ev, why, sizeof(why));
		}
		if (r == 0)
			continue;
		if (r != 0 && c->noeol && !c->line_bad) {
			/* the cause, whether what is left parses or not */
			snprintf(why, sizeof(why), "the last line has no newline (a truncated file?)");
			r = -1;
		}
		if (r > 0 && dup && unrepeatable(ev.type)) {
			snprintf(why, sizeof(why), "the same line as line %llu, byte for byte: an "
				 "event that cannot happen twice in a row (a duplicated line?)",
				 (unsigned long long)c->lineno - 1);
			r = -1;
		}
		if (r > 0 && check_time(c, &ev, why, sizeof(why)))
			r = -1;
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
		ev.line = c->lineno;
		ev.wctx = TRACE_WAKE_UNKNOWN;
		if (!c->noeol) {	/* a call chain may follow */
			int w = read_call_chain(c);

			if (w < 0)
				return -1;
			if (ev.type == EV_WAKING) {
				ev.wctx = w;
				c->t->wakings_with_stack += w != TRACE_WAKE_UNKNOWN;
			}
		}
		c->cpu_ts[ev.cpu] = ev.ts;
		c->cpu_ts_line[ev.cpu] = ev.line;
		if (c->have_ts && ev.ts < c->last_ts) {
			/* within the tolerance, behind another CPU's line: as the latest line */
			struct trace *t = c->t;

			if (!t->absorbed++)
				t->absorbed_line = ev.line;
			if (c->last_ts - ev.ts > t->absorbed_max_ns)
				t->absorbed_max_ns = c->last_ts - ev.ts;
			ev.ts = c->last_ts;
		} else {
			c->last_ts = ev.ts;
			c->last_ts_line = ev.line;
			c->have_ts = 1;
		}
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

/* An event that contradicts the rebuilt state, counted by kind with its first line. */
static void anomaly(struct ctx *c, enum trace_anomaly k)
{
	struct trace *t = c->t;

	t->anomalies++;
	if (!t->anomaly[k]++)
		t->anomaly_line[k] = c->cur_line;
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
	s->wake_ctx = TRACE_WAKE_UNKNOWN;
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
		anomaly(c, TRACE_ANOM_TWO_CPUS);
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
		struct trace_wakeup *w;

		if (add_wakeup(c, ti, 0, k->pend_ts, s - k->pend_ts, k->pend_waker))
			return -1;
		w = &c->t->wakeups[c->t->nr_wakeups - 1];
		if (c->sw_from == 'I' && c->sw_idle_since <= k->pend_ts) {
			w->path = k->pend_cpu == cpu ? TRACE_PATH_IDLE_LOCAL : TRACE_PATH_IDLE_REMOTE;
			w->idle_ns = k->pend_ts - c->sw_idle_since;
		} else if (c->sw_from == 'R') {
			w->path = k->pend_cpu != cpu ? TRACE_PATH_PREEMPT_REMOTE :
				  k->pend_ctx == TRACE_WAKE_IRQ ? TRACE_PATH_PREEMPT_IRQ :
								  TRACE_PATH_PREEMPT_LOCAL;
		} else if (c->sw_from) {
			w->path = TRACE_PATH_WAITED;
		}
		t_lat = s > k->pend_ts ? s - k->pend_ts : 0;
		k->pub.wakeups++;
		if (k->state == TS_SLEEPING && k->sleep_start >= 0) {
			int64_t d = k->pend_ts - k->sleep_start;

			if (add_seg(k, TRACE_SLEEP, k->pend_waker, d > 0 ? d : 0, k->pend_off))
				return -1;
			k->pub.segs[k->pub.nr_segs - 1].at_ns = k->pend_ts;
			k->pub.segs[k->pub.nr_segs - 1].early = d < 0 ? 1 : d == 0 ? 2 : 0;
			k->pub.segs[k->pub.nr_segs - 1].wake_ctx = k->pend_ctx;
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

		anomaly(c, TRACE_ANOM_NO_SWITCH_OUT);
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

		anomaly(c, TRACE_ANOM_IDLE_LEFT_BUSY);
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
	/* how this CPU takes the task: from idle, by preempting, or after a task left */
	c->sw_from = !a && ev->pid <= 0 ? 'I' : ev->state == 'R' ? 'R' : 'B';
	c->sw_idle_since = cs->idle_since;
	{
		int r = switch_in(c, k, ev->cpu, ev->ts) ? -1 : 0;

		c->sw_from = 0;
		return r;
	}
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
			k->pend_ctx = ev->wctx;
			k->pend_cpu = ev->cpu;
		}
		break;
	case TS_RUNNING:
		if (k->pend == PEND_NONE) {
			k->pend = PEND_PRE;
			k->pend_ts = ev->ts;
			k->pend_waker = waker;
			k->pend_off = off;
			k->pend_ctx = ev->wctx;
			k->pend_cpu = ev->cpu;
		}
		break;
	default:
		anomaly(c, TRACE_ANOM_WAKING_NOT_ASLEEP);
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
		anomaly(c, TRACE_ANOM_WAKEUP_NEW_OLD);
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
		anomaly(c, TRACE_ANOM_FORK_NOT_RUNNING);
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
	c->cur_line = ev->line;
	actor = ev->type == EV_SWITCH ? ev->pid : ev->hpid;
	if (actor < 0) {
		/*
		 * An exiting task's header reads ":-1 PID/-1": PID is its process's (tgid), the
		 * task itself only if it is not a thread. The task running on the CPU is the
		 * one exiting; PID only when that is not known.
		 */
		actor = cs->cur > 0 ? cs->cur : ev->hpgid;
	}
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
		k->pub.ends_asleep = k->state == TS_SLEEPING && k->pend != PEND_WAKE &&
				     !k->pub.exit_ns;
		if (k->state == TS_SLEEPING && k->pend == PEND_WAKE && k->sleep_start >= 0) {
			int64_t d = k->pend_ts - k->sleep_start;

			if (add_seg(k, TRACE_SLEEP, k->pend_waker, d > 0 ? d : 0, k->pend_off))
				return -1;
			k->pub.segs[k->pub.nr_segs - 1].at_ns = k->pend_ts;
			k->pub.segs[k->pub.nr_segs - 1].early = d < 0 ? 1 : d == 0 ? 2 : 0;
			k->pub.segs[k->pub.nr_segs - 1].wake_ctx = k->pend_ctx;
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

/* The CPU a per-CPU kernel thread is bound to, from its comm ("ksoftirqd/1"), or -1. */
static int bound_cpu_of(const char *comm)
{
	static const char *const per_cpu[] = { "kworker/", "ksoftirqd/", "migration/", "cpuhp/",
					       "idle_inject/", "watchdog/", "rcuc/" };
	char *end;
	long n;

	for (size_t i = 0; i < sizeof(per_cpu) / sizeof(per_cpu[0]); i++) {
		size_t len = strlen(per_cpu[i]);

		if (strncmp(comm, per_cpu[i], len) || comm[len] < '0' || comm[len] > '9')
			continue;	/* kworker/u8:1 and kworker/R-... are unbound */
		n = strtol(comm + len, &end, 10);
		return n < TRACE_MAX_CPUS && (*end == 0 || *end == ':') ? (int)n : -1;
	}
	return -1;
}

static int build(struct ctx *c)
{
	struct trace *t = c->t;
	size_t i, n = 0;

	choose(c);
	for (i = 0; i < c->nt; i++) {
		struct itask *k = &c->tasks[i];

		k->pub.workload = k->keep;
		k->pub.bound_cpu = bound_cpu_of(k->pub.comm);
		/* background: every other task but idle and the stoppers (their work is the
		 * scheduler's own: a replay's scheduler migrates by itself) */
		if (c->o && c->o->background && !k->keep && k->pub.pid > 0 &&
		    strncmp(k->pub.comm, "migration/", 10))
			k->keep = 1;
		n += k->keep;
	}
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

		t->wakeups[i].kept = k->pub.workload;
		t->wakeups[i].tool = k->seen_perf && !k->pub.workload;
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

/* Open c->path and look at its first bytes: gzip, or plain text. 0, or -1 (error set). */
static int open_source(struct ctx *c)
{
	size_t n;

	errno = 0;
	c->f = fopen(c->path, "rb");
	if (!c->f) {
		c->code = errno ? -errno : -EIO;
		set_err(c, "%s: cannot open: %s", c->path, strerror(errno ? errno : EIO));
		return -1;
	}
	n = fread(c->in, 1, IO_BUF, c->f);
	if (!n && ferror(c->f)) {
		c->code = -(errno ? errno : EIO);	/* a directory: EISDIR */
		set_err(c, "%s: cannot read: %s", c->path, strerror(errno ? errno : EIO));
		return -1;
	}
	if (n >= 2 && c->in[0] == 0x1f && c->in[1] == 0x8b) {
		c->gz = 1;
		if (inflateInit2(&c->zs, 15 + 16) != Z_OK) {	/* gzip only, not zlib */
			set_err(c, "%s: out of memory", c->path);
			c->code = -ENOMEM;
			return -1;
		}
		c->zs_init = 1;
		c->zs.next_in = c->in;
		c->zs.avail_in = (uInt)n;
		return 0;
	}
	memcpy(c->out, c->in, n);
	c->out_len = n;
	return 0;
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
	c->buf = malloc(TRACE_MAX_LINE + 2);
	c->prev = malloc(TRACE_MAX_LINE + 2);
	c->in = malloc(IO_BUF);
	c->out = malloc(IO_BUF);
	if (!c->t || !c->buf || !c->prev || !c->in || !c->out ||
	    !(c->t->idle_ns = calloc(TRACE_MAX_CPUS, sizeof(int64_t)))) {
		set_err(c, "out of memory");
		c->code = -ENOMEM;
		goto out;
	}
	if (open_source(c))
		goto out;
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
	if (c->zs_init)
		inflateEnd(&c->zs);
	if (c->f)
		fclose(c->f);
	free(c->in);
	free(c->out);
	free(c->prev);
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

const char *trace_anomaly_name(enum trace_anomaly k)
{
	static const char *const names[TRACE_ANOM_NR] = {
		[TRACE_ANOM_NO_SWITCH_OUT] = "no_switch_out",
		[TRACE_ANOM_TWO_CPUS] = "two_cpus",
		[TRACE_ANOM_IDLE_LEFT_BUSY] = "idle_left_busy",
		[TRACE_ANOM_WAKING_NOT_ASLEEP] = "waking_not_asleep",
		[TRACE_ANOM_WAKEUP_NEW_OLD] = "wakeup_new_old",
		[TRACE_ANOM_FORK_NOT_RUNNING] = "fork_not_running",
	};

	return (unsigned)k < TRACE_ANOM_NR ? names[k] : "?";
}

const char *trace_wake_path_name(enum trace_wake_path p)
{
	static const char *const names[TRACE_PATH_NR] = {
		"unknown", "idle_local", "idle_remote", "preempt_local", "preempt_irq",
		"preempt_remote", "waited",
	};

	return (unsigned)p < TRACE_PATH_NR ? names[p] : "?";
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
	for (i = 0; i < t->nr_tasks; i++) {
		const struct trace_task *k = &t->tasks[i];

		if (!k->workload)
			continue;	/* background (trace_opts.background) */
		m->tasks++;
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
	if (m->tasks)
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
	/* the workload's sleeps by wake path; the idle remote ones split by idle time */
	for (int p = 0; p < TRACE_PATH_NR + 2; p++) {
		double x, p50;

		nw = 0;
		for (i = 0; i < t->nr_wakeups; i++) {
			const struct trace_wakeup *w = &t->wakeups[i];

			if (!w->kept || w->is_new)
				continue;
			if (p < TRACE_PATH_NR ? (int)w->path == p :
			    w->path == TRACE_PATH_IDLE_REMOTE &&
			    (p == TRACE_PATH_NR) == (w->idle_ns < TRACE_IDLE_DEEP_NS))
				wl[nw++] = w->lat_ns;
		}
		quantiles(wl, nw, &p50, &x, &x, &x);
		if (p < TRACE_PATH_NR) {
			m->path_n[p] = nw;
			m->path_p50_us[p] = p50;
		} else if (p == TRACE_PATH_NR) {
			m->idle_short_n = nw;
			m->idle_short_p50_us = p50;
		} else {
			m->idle_deep_n = nw;
			m->idle_deep_p50_us = p50;
		}
	}
	free(all);
	free(wl);
	return 0;
}
