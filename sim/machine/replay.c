/*
 * replay.c - a perf sched trace (sim/trace/) turned into program workloads:
 * hwsched replay (docs/simulator.md; docs/trace.md, "Causal order", for the three
 * reconstructions of struct machine_opts's replay_order).
 */
#include "sim/machine/machine_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sim/trace/trace.h"

struct rev {
	int64_t off;
	int kind;	/* OP_WAKE, OP_WAKE_TOK, OP_SPAWN */
	unsigned arg;
	unsigned n;	/* OP_WAKE_TOK: which sleep of task arg */
	int sync;	/* OP_WAKE_TOK: a WF_SYNC wake */
};

static int rev_cmp(const void *a, const void *b)
{
	const struct rev *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

static int index_of(const struct trace *tr, int pid)
{
	for (size_t i = 0; i < tr->nr_tasks; i++)
		if (tr->tasks[i].pid == pid)
			return (int)i;
	return -1;
}

/*
 * The kept task whose own wake ended sleep @sg of task @i, or -1: a sleep ended by an
 * interrupt (the call chain says so), by no waking, by a task not kept or by itself
 * replays as a timed sleep of its recorded length.
 */
static int waker_of(const struct trace *tr, size_t i, const struct trace_seg *sg)
{
	int w;

	if (sg->pid < 0 || sg->wake_ctx == TRACE_WAKE_IRQ)
		return -1;
	w = index_of(tr, sg->pid);
	return w >= 0 && (size_t)w != i ? w : -1;
}

/* Which run phase (0 = before its first sleep) task @w was in at @at_ns. */
static unsigned phase_at(const struct trace_task *w, int64_t at_ns)
{
	unsigned ph = 0;

	for (size_t k = 0; k < w->nr_segs; k++)
		if (w->segs[k].kind == TRACE_SLEEP && w->segs[k].at_ns <= at_ns)
			ph++;
	return ph;
}

/* Every WAKE and SPAWN, in the list of the task that performs it, keyed by phase. */
struct revs {
	struct rev **ev;	/* per task */
	size_t *n, *cap;
};

static int add_rev(struct revs *r, size_t who, struct rev e)
{
	if (r->n[who] == r->cap[who]) {
		r->cap[who] = r->cap[who] ? 2 * r->cap[who] : 8;
		r->ev[who] = realloc(r->ev[who], r->cap[who] * sizeof(**r->ev));
		if (!r->ev[who])
			return -ENOMEM;
	}
	r->ev[who][r->n[who]++] = e;
	return 0;
}

static int gather(const struct trace *tr, enum machine_replay_order order, struct revs *r)
{
	size_t i, k;

	for (i = 0; i < tr->nr_tasks; i++) {
		const struct trace_task *tt = &tr->tasks[i];
		unsigned ph = 0;

		for (k = 0; k < tt->nr_segs; k++) {
			const struct trace_seg *sg = &tt->segs[k];
			struct rev e;
			size_t who = i;
			int w;

			if (sg->kind == TRACE_FORK) {
				w = index_of(tr, sg->pid);
				if (w < 0)
					continue;
				e = (struct rev){ (int64_t)ph << 40 | sg->offset_ns, OP_SPAWN,
						  (unsigned)w, 0, 0 };
			} else if (sg->kind == TRACE_SLEEP) {
				ph++;	/* this is sleep ph - 1 of task i */
				w = waker_of(tr, i, sg);
				if (w < 0)
					continue;
				who = (size_t)w;
				/* without a call chain a task's wake is taken as sync: the pipe
				 * and socket writes these traces hold */
				e = (struct rev){ (int64_t)phase_at(&tr->tasks[w], sg->at_ns) << 40 |
							  sg->offset_ns,
						  order == MACHINE_REPLAY_PROGRAM ? OP_WAKE : OP_WAKE_TOK,
						  (unsigned)i, ph - 1, sg->wake_ctx != TRACE_WAKE_TASK };
			} else {
				continue;
			}
			if (add_rev(r, who, e))
				return -ENOMEM;
		}
	}
	return 0;
}

#define OFF_MASK ((1ll << 40) - 1)

/*
 * The program of task @i into @p: its runs as bursts, split where its events @ev (@nev of
 * them, sorted) fall; returns the number of operations.
 */
static size_t program(const struct trace *tr, enum machine_replay_order order, size_t i,
		      const struct rev *ev, size_t nev, struct wop *p)
{
	const struct trace_task *tt = &tr->tasks[i];
	size_t nops = 0, e = 0, k;
	unsigned ph = 0;
	int64_t done = 0;	/* CPU ns run so far in this phase */

	for (k = 0; k <= tt->nr_segs; k++) {
		const struct trace_seg *sg = k < tt->nr_segs ? &tt->segs[k] : NULL;
		int end_phase = !sg || sg->kind == TRACE_SLEEP || sg->kind == TRACE_EXIT;

		if (sg && sg->kind == TRACE_RUN) {
			int64_t left = sg->ns;

			/* Events falling inside this run split it. */
			while (e < nev && (ev[e].off >> 40) == ph &&
			       (ev[e].off & OFF_MASK) < done + left) {
				int64_t at = ev[e].off & OFF_MASK;

				if (at > done) {
					p[nops++] = (struct wop){ OP_BURST, (double)(at - done), 0, 0, 0 };
					left -= at - done;
					done = at;
				}
				p[nops++] = (struct wop){ ev[e].kind, 0, ev[e].sync, ev[e].arg, ev[e].n };
				e++;
			}
			if (left > 0)
				p[nops++] = (struct wop){ OP_BURST, (double)left, 0, 0, 0 };
			done += left;
			continue;
		}
		if (!end_phase)
			continue;	/* FORK markers: their SPAWN is in the event list */
		/* Events of this phase past its recorded CPU time happen at its end. */
		while (e < nev && (ev[e].off >> 40) <= ph) {
			p[nops++] = (struct wop){ ev[e].kind, 0, ev[e].sync, ev[e].arg, ev[e].n };
			e++;
		}
		if (!sg || sg->kind == TRACE_EXIT) {
			p[nops++] = (struct wop){ !sg && tt->ends_asleep ? OP_END_ASLEEP : OP_EXIT,
						  0, 0, 0, 0 };
			break;
		}
		if (waker_of(tr, i, sg) >= 0)
			p[nops++] = order == MACHINE_REPLAY_PROGRAM ?
					    (struct wop){ OP_RECV, 0, 0, 0, 0 } :
					    (struct wop){ OP_WAIT_TOK, 0, 0, 0, ph };
		else
			p[nops++] = (struct wop){ OP_SLEEP, (double)sg->ns, 0, 0, 0 };
		ph++;
		done = 0;
	}
	if (nops == 0 || (p[nops - 1].kind != OP_EXIT && p[nops - 1].kind != OP_END_ASLEEP)) {
		/* Still alive when the trace ended: stop there (counted as not exited). */
		for (; e < nev; e++)
			p[nops++] = (struct wop){ ev[e].kind, 0, ev[e].sync, ev[e].arg, ev[e].n };
		p[nops++] = (struct wop){ OP_RECV, 0, 0, 0, 0 };
	}
	return nops;
}

/* Task @i of the machine, running its program. */
static int replay_task(struct machine *m, size_t i, struct rev *ev, size_t nev, char *err,
		       size_t len)
{
	const struct trace *tr = m->o.trace;
	const struct trace_task *tt = &tr->tasks[i];
	struct mtask *t = &m->t[i];
	size_t ops_cap = 2 * tt->nr_segs + 2 * nev + 4;
	struct wop *p = calloc(ops_cap, sizeof(*p));

	if (!p)
		return -ENOMEM;
	if (nev)	/* ev is NULL for a task no other task acts on: qsort wants a pointer */
		qsort(ev, nev, sizeof(*ev), rev_cmp);
	mach_init_task(m, t, (unsigned)i);
	t->st.nice = tt->nice;
	t->mb_cap = 8;
	t->mb = malloc(t->mb_cap * sizeof(*t->mb));
	if (!t->mb) {
		free(p);
		return -ENOMEM;
	}
	t->own_prog = p;
	t->prog = p;
	t->pid = tt->pid;
	t->comm = tt->comm;
	t->bg = !tt->workload;
	if (tt->fork_ns > tr->start_ns)
		t->start_ns = (uint64_t)(tt->fork_ns - tr->start_ns);
	if (tt->bound_cpu >= 0 && (unsigned)tt->bound_cpu < m->topo.nr_cpus)
		t->st.allowed = 1ull << tt->bound_cpu;	/* a per-CPU kernel thread */
	for (size_t k = 0; k < tt->nr_segs; k++)
		t->ntok += tt->segs[k].kind == TRACE_SLEEP;
	if (m->o.replay_order != MACHINE_REPLAY_PROGRAM && t->ntok) {
		t->tok = calloc(t->ntok, 1);
		t->tok_cpu = calloc(t->ntok, 1);
		if (!t->tok || !t->tok_cpu)
			return -ENOMEM;
	}
	/* Started by a kept parent's SPAWN, or present from the start. */
	t->spawned = tt->ppid >= 0 && index_of(tr, tt->ppid) >= 0;
	if (program(tr, m->o.replay_order, i, ev, nev, p) > ops_cap) {
		snprintf(err, len, "internal: program of task %d overflowed", tt->pid);
		return -EPROTO;
	}
	return 0;
}

/*
 * Turn each kept task of the trace into a program: its runs as fixed bursts, a sleep
 * ended by another kept task as RECV (the waker's program gets a WAKE at the same CPU
 * offset into its run), other sleeps as timed sleeps of the recorded length, forks as
 * SPAWN at their offsets, and the exit.
 */
int mach_setup_replay(struct machine *m, char *err, size_t len)
{
	const struct trace *tr = m->o.trace;
	size_t n = tr->nr_tasks, i;
	struct revs r = { calloc(n, sizeof(*r.ev)), calloc(n, sizeof(*r.n)),
			  calloc(n, sizeof(*r.cap)) };
	int ret = -ENOMEM;

	if (n == 0 || n > MAX_TASKS) {
		snprintf(err, len, "%zu tasks in the trace (need 1..%u)", n, MAX_TASKS);
		ret = -EINVAL;
		goto out;
	}
	m->nt = (unsigned)n;
	m->wl = 2;
	m->unit = "runs/s";
	m->unit_scale = 1;
	m->ngroups = 1;
	for (i = 0; i < SCHED_MAX_GROUPS; i++)
		m->shares[i] = HWS_SCHED_LOAD_SCALE;
	m->t = calloc(n, sizeof(*m->t));
	if (m->t && r.ev && r.n && r.cap)
		ret = gather(tr, m->o.replay_order, &r);
	for (i = 0; !ret && i < n; i++)
		ret = replay_task(m, i, r.ev[i], r.n[i], err, len);
	if (ret == -ENOMEM)
		snprintf(err, len, "out of memory");
out:
	for (i = 0; r.ev && i < n; i++)
		free(r.ev[i]);
	free(r.ev);
	free(r.n);
	free(r.cap);
	return ret;
}
