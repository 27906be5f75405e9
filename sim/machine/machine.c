/*
 * machine.c - the simulated machine (machine.h): events, CPUs, tasks and their workloads,
 * the cost model, the online checks (conservation after every event, the idle-core
 * invariant of Lozi et al. 2016 at every tick), and the measurements.
 */
#include "machine.h"
#include "sim/trace/trace.h"
#include "lib/hws_balance.h"
#include "lib/hws_weight.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define MS 1000000ull
#define MAX_TASKS 4096


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

struct seg {
	uint64_t t0, t1;
	uint16_t task, cpu;
	uint32_t delay_ns;	/* wakeup-to-run delay that ended at t0 (0: none) */
	uint8_t migrated, group;
};

#define MAX_SEGS 400000

struct mtask {
	struct sched_task st;
	enum tstate state;
	int qcpu;		/* QUEUED: the CPU it waits on */
	int moved_to;		/* RUNNING: pushed to this CPU by active balance, or -1 */
	int last_cpu;		/* where it last ran */
	uint64_t remain;	/* ns of work left in the current burst */
	uint64_t queued_at, woken_at;
	int wake_pending;	/* a wakeup whose latency is not yet measured */
	uint64_t runtime;
	uint64_t nswitch, ndelay;	/* switches in; delays measured */
	double delay_sum, delay_max;	/* wakeup-to-run delays, us */
	/* workload state */
	unsigned role, role_idx, grp_idx, loops_left, msgs, sent_to, waiting_sender;
	int blocked_on_full;	/* hackbench sender waiting for room at receiver sent_to */
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
};

/* A workload program: a task runs its ops in order (docs/simulator.md). */
enum wop_kind {
	OP_BURST,	/* run: mean ns, exponential if exp else fixed */
	OP_SLEEP,	/* block on a timer: mean ns (I/O, think time) */
	OP_SEND,	/* a message to the peer */
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
};

struct wop {
	int kind;
	double ns;
	int exp;
	unsigned arg, n;
};

enum { W_NONE, W_MSG, W_CHILD };

struct mcpu {
	struct mtask *curr;
	uint64_t seg_start;	/* when the current segment's work begins (after debt) */
	double speed;
	uint64_t gen;
	double debt;		/* scheduler/switch time not yet taken from the running task */
	double overhead;	/* total scheduler time charged */
	uint64_t busy_ns, busy_since;
	int resched_pending;
	uint64_t log_since;	/* timeline: when the current segment began */
	uint32_t log_delay;
	uint8_t log_migr;
};

struct machine {
	struct machine_opts o;
	struct sched_topo topo;
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
	double unit_scale;	/* work units per OP_COUNT, e.g. MB per transaction */
	int g_nice, g_rt;	/* every task's nice and SCHED_RR priority (-1: normal) */
	unsigned g_cpus;	/* every task may run on CPUs 0..g_cpus-1 (0: all) */
	const char *unit;
	unsigned hb_groups, hb_loops, hb_cap;
	uint64_t hb_send_ns, hb_recv_ns;
	double work;
	/* measurements */
	double *lat;
	size_t nlat, caplat;
	uint64_t switches, vol, invol, migrations, violations, checks;
	unsigned nstate[T_DEAD + 1];	/* tasks in each state, kept by set_state() */
	double rq_wait;
	double group_time[SCHED_MAX_GROUPS];
	/* SMT sharing while a core idles: per core (by leader) its busy threads, per package
	 * (by leader) its cores with every thread busy / none busy, and the packages where
	 * both exist at once (docs/simulator.md) */
	unsigned core_busy[SCHED_MAX_CPUS], pkg_full[SCHED_MAX_CPUS], pkg_empty[SCHED_MAX_CPUS];
	unsigned smt_bad_pkgs;
	uint64_t smt_bad_since, smt_bad_ns;
	int failed;
	char err[300];
	struct seg *segs;
	size_t nseg, capseg;
};

/* @s as XML character data. */
static void xml_text(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else
			fputc(*s, f);
	}
}

/* One lane per CPU, bursts coloured by task (or group), delays and migrations marked. */
static int write_svg(struct machine *m, const char *path)
{
	FILE *f = fopen(path, "w");
	unsigned n = m->topo.nr_cpus, lane = n <= 8 ? 28 : n <= 16 ? 18 : n <= 32 ? 12 : 8, top = 30;
	double W = 1200, left = 60, span = m->now ? (double)m->now : 1;
	size_t i;

	if (!f)
		return -errno;
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%u\" "
		   "font-family=\"sans-serif\" font-size=\"10\">\n",
		W + left + 20, top + n * lane + 40);
	fprintf(f, "<text x=\"%.0f\" y=\"16\">", left);
	xml_text(f, m->o.workload);
	fprintf(f, " on ");
	xml_text(f, m->o.topology);
	fprintf(f, ", scheduler ");
	xml_text(f, m->o.sched);
	fprintf(f, ": %.3f ms; red: wakeup delay before a burst, black mark: migrated</text>\n",
		m->now / 1e6);
	for (unsigned c = 0; c < n; c++) {
		fprintf(f, "<text x=\"4\" y=\"%.1f\">CPU %u</text>\n",
			top + c * lane + lane * 0.7, c);
		fprintf(f, "<rect x=\"%.0f\" y=\"%.1f\" width=\"%.0f\" height=\"%.1f\" "
			   "fill=\"#f4f4f4\"/>\n", left, (double)(top + c * lane + 1), W, lane - 2.0);
	}
	for (i = 0; i < m->nseg; i++) {
		const struct seg *g = &m->segs[i];
		double x0 = left + W * (double)g->t0 / span, x1 = left + W * (double)g->t1 / span;
		double y = top + g->cpu * lane + 1;
		unsigned hue = m->ngroups > 1 ? g->group * 360 / m->ngroups : (g->task * 47u) % 360;

		fprintf(f, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" "
			   "fill=\"hsl(%u,65%%,55%%)\"><title>task %u, %.3f-%.3f ms</title></rect>\n",
			x0, y, x1 - x0 > 0.2 ? x1 - x0 : 0.2, lane - 2.0, hue, g->task, g->t0 / 1e6,
			g->t1 / 1e6);
		if (g->delay_ns)
			fprintf(f, "<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\" "
				   "stroke=\"red\" stroke-width=\"1\"/>\n",
				x0 - W * g->delay_ns / span, y + lane - 4.0, x0, y + lane - 4.0);
		if (g->migrated)
			fprintf(f, "<path d=\"M%.2f %.1f l3 -4 l-6 0 z\" fill=\"black\"/>\n", x0, y + 4);
	}
	/* Time axis: ten ticks, labelled in ms. */
	for (unsigned k = 0; k <= 10; k++) {
		double x = left + W * k / 10;

		fprintf(f, "<line x1=\"%.1f\" y1=\"%u\" x2=\"%.1f\" y2=\"%u\" stroke=\"#888\"/>\n"
			   "<text x=\"%.1f\" y=\"%u\" text-anchor=\"middle\">%.3g</text>\n",
			x, top + n * lane, x, top + n * lane + 4, x, top + n * lane + 14,
			m->now / 1e6 * k / 10);
	}
	fprintf(f, "<text x=\"%.0f\" y=\"%u\" text-anchor=\"end\">ms</text>\n", left - 4,
		top + n * lane + 14);
	if (m->nseg == MAX_SEGS)
		fprintf(f, "<text x=\"%.0f\" y=\"%u\">(only the first %d bursts are drawn)</text>\n",
			left, top + n * lane + 30, MAX_SEGS);
	fprintf(f, "</svg>\n");
	return fclose(f) ? -errno : 0;
}

/* ---- utilities ---- */

static uint64_t rnd64(struct machine *m)
{
	m->rng ^= m->rng << 13;
	m->rng ^= m->rng >> 7;
	m->rng ^= m->rng << 17;
	return m->rng;
}

static double rnd_exp(struct machine *m, double mean)
{
	double u = ((double)(rnd64(m) >> 11) + 0.5) / 9007199254740992.0;

	return -log(u) * mean;
}

static void fail(struct machine *m, const char *fmt, ...)
{
	va_list ap;

	if (m->failed)
		return;
	m->failed = 1;
	va_start(ap, fmt);
	vsnprintf(m->err, sizeof(m->err), fmt, ap);
	va_end(ap);
}

static int ev_less(const struct event *a, const struct event *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

static void push(struct machine *m, uint64_t time, int kind, unsigned who, uint64_t gen)
{
	struct event e = { time, m->seq++, kind, who, gen };
	size_t i;

	if (m->hn == m->hcap) {
		m->hcap = m->hcap ? 2 * m->hcap : 1024;
		m->h = realloc(m->h, m->hcap * sizeof(*m->h));
		if (!m->h) {
			fprintf(stderr, "out of memory\n");
			exit(1);
		}
	}
	i = m->hn++;
	while (i && ev_less(&e, &m->h[(i - 1) / 2])) {
		m->h[i] = m->h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	m->h[i] = e;
}

static struct event pop(struct machine *m)
{
	struct event top = m->h[0], last = m->h[--m->hn];
	size_t i = 0;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= m->hn)
			break;
		if (c + 1 < m->hn && ev_less(&m->h[c + 1], &m->h[c]))
			c++;
		if (!ev_less(&m->h[c], &last))
			break;
		m->h[i] = m->h[c];
		i = c;
	}
	m->h[i] = last;
	return top;
}

/* ---- topology ---- */

int machine_parse_topology(const char *str, struct sched_topo *t, char *err, size_t len)
{
	unsigned v[4] = { 1, 1, 1, 1 };	/* numa, pkg, core, smt */
	static const char *const keys[4] = { "numa", "pkg", "core", "smt" };
	char buf[128], *save = NULL, *kv;
	unsigned n, x;

	memset(t, 0, sizeof(*t));
	if (!str || !*str || strlen(str) >= sizeof(buf)) {
		snprintf(err, len, "topology: empty or too long (expected numa=N,pkg=P,core=C,smt=S)");
		return -EINVAL;
	}
	strcpy(buf, str);
	for (kv = strtok_r(buf, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(kv, '='), *end;
		unsigned long val;
		int k;

		if (!eq) {
			snprintf(err, len, "topology '%s': '%s' is not key=value", str, kv);
			return -EINVAL;
		}
		*eq = 0;
		for (k = 0; k < 4 && strcmp(kv, keys[k]); k++)
			;
		if (k == 4) {
			snprintf(err, len, "topology '%s': unknown key '%s' (numa, pkg, core, smt)",
				 str, kv);
			return -EINVAL;
		}
		val = strtoul(eq + 1, &end, 10);
		if (end == eq + 1 || *end || val < 1 || val > 64) {
			snprintf(err, len, "topology '%s': %s=%s must be a number 1..64", str, kv,
				 eq + 1);
			return -EINVAL;
		}
		v[k] = (unsigned)val;
	}
	n = v[0] * v[1] * v[2] * v[3];
	if (n > SCHED_MAX_CPUS) {
		snprintf(err, len, "topology '%s': %u CPUs, at most %u are supported", str, n,
			 SCHED_MAX_CPUS);
		return -EINVAL;
	}
	t->nr_cpus = n;
	t->nodes = v[0];
	t->pkgs = v[1];
	t->cores = v[2];
	t->smt = v[3];
	for (x = 0; x < n; x++) {
		t->lead[0][x] = (uint8_t)(x - x % v[3]);
		t->lead[1][x] = (uint8_t)(x - x % (v[3] * v[2]));
		t->lead[2][x] = (uint8_t)(x - x % (v[3] * v[2] * v[1]));
	}
	return 0;
}

/* ---- environment callbacks ---- */

static uint64_t env_now(void *mm)
{
	return ((struct machine *)mm)->now;
}

static void env_charge(void *mm, unsigned cpu, double ns, int what)
{
	struct machine *m = mm;

	(void)what;
	if (cpu < m->topo.nr_cpus) {
		m->cpu[cpu].debt += ns;
		m->cpu[cpu].overhead += ns;
	}
}

static void env_moved(void *mm, struct sched_task *st, unsigned from, unsigned to)
{
	struct machine *m = mm;
	struct mtask *t = (struct mtask *)st;

	if (t->state == T_RUNNING && m->cpu[from].curr == t) {
		/* Active balance: it keeps running until @from reschedules, then waits on @to. */
		t->moved_to = (int)to;
		return;
	}
	if (t->state != T_QUEUED || t->qcpu != (int)from)
		fail(m, "the scheduler moved task %u from CPU %u, but it is %s on CPU %d", st->id,
		     from, t->state == T_QUEUED ? "queued" : "not queued", t->qcpu);
	t->qcpu = (int)to;
}

static void kick(struct machine *m, unsigned cpu)
{
	if (!m->cpu[cpu].resched_pending) {
		m->cpu[cpu].resched_pending = 1;
		push(m, m->now, EV_RESCHED, cpu, 0);
	}
}

static void env_kick(void *mm, unsigned cpu)
{
	kick(mm, cpu);
}

static int env_busy(void *mm, unsigned cpu)
{
	return ((struct machine *)mm)->cpu[cpu].curr != NULL;
}

static struct sched_task *env_curr(void *mm, unsigned cpu)
{
	struct mtask *t = ((struct machine *)mm)->cpu[cpu].curr;

	return t ? &t->st : NULL;
}

/* Every state change goes through here, so the per-event check needs no scan. */
static void set_state(struct machine *m, struct mtask *t, enum tstate st)
{
	m->nstate[t->state]--;
	m->nstate[st]++;
	t->state = st;
}

/* ---- running tasks ---- */

static double speed_of(struct machine *m, unsigned cpu)
{
	unsigned lead = m->topo.lead[0][cpu], x;

	for (x = lead; x < lead + m->topo.smt; x++)
		if (x != cpu && m->cpu[x].curr)
			return m->o.costs.smt_speed;
	return 1.0;
}

/* Start (or restart) the running task's segment on @cpu: schedule its burst end. */
static void start_segment(struct machine *m, unsigned cpu)
{
	struct mcpu *c = &m->cpu[cpu];
	double d;

	c->gen++;
	if (!c->curr)
		return;
	c->speed = speed_of(m, cpu);
	c->seg_start = m->now + (uint64_t)c->debt;
	c->debt = 0;
	d = (double)c->curr->remain / c->speed;
	push(m, c->seg_start + (uint64_t)ceil(d), EV_BURST_END, cpu, c->gen);
}

/* Stop the segment: account the work done so far. */
static void stop_segment(struct machine *m, unsigned cpu)
{
	struct mcpu *c = &m->cpu[cpu];
	uint64_t done;

	c->gen++;
	if (!c->curr)
		return;
	if (m->now > c->seg_start) {
		done = (uint64_t)((double)(m->now - c->seg_start) * c->speed);
		if (done > c->curr->remain)
			done = c->curr->remain;
		c->curr->remain -= done;
		c->curr->runtime += m->now - c->seg_start;
		m->group_time[c->curr->st.group % SCHED_MAX_GROUPS] += (double)(m->now - c->seg_start);
		c->seg_start = m->now;	/* a second stop at this time adds nothing */
	} else {
		/* The debt was not worked off yet: carry it. */
		c->debt += (double)(c->seg_start - m->now);
		c->seg_start = m->now;
	}
}

/* ---- timeline (--svg) ---- */

/* @cpu's running task changes at m->now: close the segment of the old one. */
static void log_switch(struct machine *m, unsigned cpu, struct mtask *next)
{
	struct mcpu *c = &m->cpu[cpu];

	if (!m->o.svg || c->curr == next)
		return;
	if (c->curr && m->nseg < MAX_SEGS) {
		if (m->nseg == m->capseg) {
			m->capseg = m->capseg ? 2 * m->capseg : 4096;
			m->segs = realloc(m->segs, m->capseg * sizeof(*m->segs));
			if (!m->segs) {
				fprintf(stderr, "out of memory\n");
				exit(1);
			}
		}
		m->segs[m->nseg++] = (struct seg){ c->log_since, m->now, (uint16_t)c->curr->st.id,
						   (uint16_t)cpu, c->log_delay, c->log_migr,
						   (uint8_t)c->curr->st.group };
	}
	c->log_since = m->now;
	c->log_delay = next && next->wake_pending ? (uint32_t)(m->now - next->woken_at) : 0;
	c->log_migr = next && next->last_cpu >= 0 && next->last_cpu != (int)cpu;
}

/*
 * @cpu starts (@d = +1) or stops (-1) running a task: keep the time during which some
 * package has a core with every SMT thread busy while another of its cores is all idle
 * (two busy threads sharing a core while a core idles: select_idle_sibling's case).
 */
static void smt_account(struct machine *m, unsigned cpu, int d)
{
	unsigned k = m->topo.lead[0][cpu], p = m->topo.lead[1][cpu], smt = m->topo.smt;
	unsigned old = m->core_busy[k], nw = (unsigned)((int)old + d);
	int bad0 = m->pkg_full[p] && m->pkg_empty[p], bad1;

	m->core_busy[k] = nw;
	m->pkg_empty[p] += (nw == 0) - (old == 0);
	m->pkg_full[p] += (nw == smt) - (old == smt);
	bad1 = m->pkg_full[p] && m->pkg_empty[p];
	if (bad1 && !bad0 && m->smt_bad_pkgs++ == 0)
		m->smt_bad_since = m->now;
	if (bad0 && !bad1 && --m->smt_bad_pkgs == 0)
		m->smt_bad_ns += m->now - m->smt_bad_since;
}

static void set_busy(struct machine *m, unsigned cpu, int busy)
{
	struct mcpu *c = &m->cpu[cpu];

	if (busy && !c->curr) {
		c->busy_since = m->now;
		if (m->topo.smt > 1)
			smt_account(m, cpu, 1);
	} else if (!busy && c->curr) {
		c->busy_ns += m->now - c->busy_since;
		if (m->topo.smt > 1)
			smt_account(m, cpu, -1);
	}
}

static void note_lat(struct machine *m, double us)
{
	if (m->nlat == m->caplat) {
		m->caplat = m->caplat ? 2 * m->caplat : 4096;
		m->lat = realloc(m->lat, m->caplat * sizeof(*m->lat));
		if (!m->lat) {
			fprintf(stderr, "out of memory\n");
			exit(1);
		}
	}
	m->lat[m->nlat++] = us;
}

static void next_action(struct machine *m, struct mtask *t, unsigned cpu);

/* Pick the next task on @cpu (its current one has been put back or has stopped). */
static void dispatch(struct machine *m, unsigned cpu, struct mtask *prev)
{
	struct mcpu *c = &m->cpu[cpu];
	struct sched_task *st = m->ops->pick(m->s, cpu);
	struct mtask *n = (struct mtask *)st;

	if (n && n->state != T_QUEUED && n != prev) {
		fail(m, "CPU %u picked task %u, which is not queued", cpu, n->st.id);
		return;
	}
	if (n && n != prev && n->qcpu != (int)cpu && !m->ops->global_queue) {
		fail(m, "CPU %u picked task %u, queued on CPU %d", cpu, n->st.id, n->qcpu);
		return;
	}
	if (n != prev) {
		if (prev && prev->state == T_RUNNING) {
			set_state(m, prev, T_QUEUED);
			prev->qcpu = prev->moved_to >= 0 ? prev->moved_to : (int)cpu;
			prev->moved_to = -1;
			prev->queued_at = m->now;
		}
		if (n) {
			m->switches++;
			n->nswitch++;
			c->debt += m->o.costs.ctx_switch_ns;
			c->overhead += m->o.costs.ctx_switch_ns;
		}
	}
	log_switch(m, cpu, n);
	set_busy(m, cpu, n != NULL);
	c->curr = n;
	if (n) {
		if (n->state == T_QUEUED)
			m->rq_wait += (double)(m->now - n->queued_at);
		set_state(m, n, T_RUNNING);
		n->qcpu = -1;
		if (n->wake_pending) {
			/* It runs once the switch (and any scheduler work) is done. */
			double us = ((double)(m->now - n->woken_at) + c->debt) / 1000.0;

			note_lat(m, us);
			n->wake_pending = 0;
			n->ndelay++;
			n->delay_sum += us;
			if (us > n->delay_max)
				n->delay_max = us;
		}
		if (n->last_cpu >= 0 && n->last_cpu != (int)cpu) {
			m->migrations++;
			n->remain += (uint64_t)m->o.costs.migrate_cold_ns;
			if (m->topo.lead[2][n->last_cpu] != m->topo.lead[2][cpu])
				n->remain += (uint64_t)m->o.costs.remote_node_ns;
		}
		n->last_cpu = (int)cpu;
		if (n->remain == 0)
			next_action(m, n, cpu);
		if (c->curr == n)
			start_segment(m, cpu);
	}
	/* A sibling's speed changed: restart the siblings' segments. */
	if (m->topo.smt > 1)
		for (unsigned x = m->topo.lead[0][cpu]; x < m->topo.lead[0][cpu] + m->topo.smt; x++)
			if (x != cpu && m->cpu[x].curr && m->cpu[x].speed != speed_of(m, x)) {
				stop_segment(m, x);
				start_segment(m, x);
			}
}

/* The running task of @cpu stops being runnable (blocks or exits). */
static void block_curr(struct machine *m, unsigned cpu, int exiting)
{
	struct mcpu *c = &m->cpu[cpu];
	struct mtask *t = c->curr;

	stop_segment(m, cpu);
	m->ops->put_prev(m->s, cpu, &t->st, 0, m->now - t->st.timestamp);
	set_state(m, t, exiting ? T_DEAD : T_BLOCKED);
	if (exiting) {
		struct mtask *p = t->parent >= 0 ? &m->t[t->parent] : NULL;

		m->ops->task_exit(m->s, &t->st, p && p->state != T_DEAD ? &p->st : NULL);
		m->live--;
	}
	m->vol++;
	log_switch(m, cpu, NULL);
	set_busy(m, cpu, 0);
	c->curr = NULL;
	dispatch(m, cpu, NULL);
}

/* Make @t runnable, woken from @cpu. */
static void wake_task(struct machine *m, struct mtask *t, unsigned cpu, enum sched_wake_kind k)
{
	unsigned q;

	if (t->state != T_BLOCKED && t->state != T_NEW)
		return;
	set_state(m, t, T_QUEUED);
	t->queued_at = t->woken_at = m->now;
	t->wake_pending = 1;
	q = m->ops->wake(m->s, &t->st, cpu, k);
	if (q >= m->topo.nr_cpus) {
		fail(m, "the scheduler queued task %u on CPU %u", t->st.id, q);
		return;
	}
	t->qcpu = (int)q;
}

/* ---- workloads ---- */

enum { R_MIX, R_SENDER, R_RECEIVER };

static struct mtask *receiver_of(struct machine *m, struct mtask *s, unsigned i)
{
	return &m->t[s->grp_idx * 40 + 20 + i];
}

static void deliver(struct machine *m, struct mtask *from, unsigned to, unsigned cpu)
{
	struct mtask *r = &m->t[to];

	if (r->state == T_DEAD || !r->mb)
		return;
	if (r->mb_n == r->mb_cap) {
		unsigned ncap = r->mb_cap * 2, i;
		uint16_t *nb = malloc(ncap * sizeof(*nb));

		if (!nb) {
			fail(m, "out of memory for task %u's mailbox", to);
			return;
		}
		for (i = 0; i < r->mb_n; i++)
			nb[i] = r->mb[(r->mb_head + i) % r->mb_cap];
		free(r->mb);
		r->mb = nb;
		r->mb_head = 0;
		r->mb_cap = ncap;
	}
	r->mb[(r->mb_head + r->mb_n++) % r->mb_cap] = (uint16_t)from->st.id;
	if (r->wait == W_MSG && r->state == T_BLOCKED) {
		r->wait = W_NONE;
		wake_task(m, r, cpu, SCHED_WAKE);
	}
}

static void spawn(struct machine *m, struct mtask *parent, unsigned cpu);

/* Run @t's program until it starts a burst, blocks or exits. */
static void run_prog(struct machine *m, struct mtask *t, unsigned cpu)
{
	for (;;) {
		const struct wop *op = &t->prog[t->pc];

		switch (op->kind) {
		case OP_BURST:
			t->pc++;
			t->remain = 1 + (uint64_t)(op->exp ? rnd_exp(m, op->ns) : op->ns);
			return;
		case OP_SLEEP:
			t->pc++;
			t->remain = 0;
			push(m, m->now + 1 + (uint64_t)(op->exp ? rnd_exp(m, op->ns) : op->ns), EV_TIMER,
			     t->st.id, 0);
			block_curr(m, cpu, 0);
			return;
		case OP_WAKE:
			deliver(m, t, op->arg, cpu);
			break;
		case OP_EXEC:
			if (m->ops->exec)
				m->ops->exec(m->s, &t->st, cpu);
			break;
		case OP_SPAWN: {
			struct mtask *c = &m->t[op->arg];

			if (c->state == T_NEW) {
				m->ops->task_new(m->s, &c->st, &t->st, cpu);
				set_state(m, c, T_BLOCKED);
				wake_task(m, c, cpu, SCHED_FORK);
			}
			break;
		}
		case OP_SEND:
			deliver(m, t, t->peer, cpu);
			break;
		case OP_SEND_SRV:
			deliver(m, t, t->srv_lo + (unsigned)(rnd64(m) % t->srv_n), cpu);
			break;
		case OP_BCAST:
			for (unsigned i = t->room_lo; i < t->room_lo + t->room_n; i++)
				if (i != t->st.id)
					deliver(m, t, i, cpu);
			break;
		case OP_REPLY:
			deliver(m, t, t->last_from, cpu);
			break;
		case OP_RECV:
			if (!t->mb_n) {
				t->wait = W_MSG;
				t->remain = 0;
				block_curr(m, cpu, 0);
				return;	/* the op is retried when a message wakes it */
			}
			t->last_from = t->mb[t->mb_head];
			t->mb_head = (t->mb_head + 1) % t->mb_cap;
			t->mb_n--;
			break;
		case OP_COUNT:
			m->work += 1;
			break;
		case OP_LOOP:
			if (op->n && ++t->loopc >= op->n) {
				t->loopc = 0;
				break;
			}
			t->pc = op->arg;
			continue;
		case OP_FORK_JOBS:
			if (t->jobs_left && t->children_live < op->arg) {
				spawn(m, t, cpu);
				continue;
			}
			if (!t->jobs_left && !t->children_live)
				break;
			t->wait = W_CHILD;
			t->remain = 0;
			block_curr(m, cpu, 0);
			return;
		case OP_EXIT:
		default:
			if (t->parent >= 0) {
				struct mtask *p = &m->t[t->parent];

				p->children_live--;
				if (p->wait == W_CHILD && p->state == T_BLOCKED) {
					p->wait = W_NONE;
					wake_task(m, p, cpu, SCHED_WAKE);
				}
			}
			block_curr(m, cpu, 1);
			return;
		}
		t->pc++;
	}
}

/*
 * The task has finished its burst (or is starting): decide what it does next. Runs on
 * @cpu at m->now, the task being curr there.
 */
static void next_action(struct machine *m, struct mtask *t, unsigned cpu)
{
	if (t->prog) {
		run_prog(m, t, cpu);
		return;
	}
	for (;;) {
		if (t->role == R_MIX) {
			if (t->msgs++ > 0)
				m->work += 1;	/* a burst completed */
			if (rnd64(m) % 1000 < (uint64_t)(m->mix_msg * 1000) && m->nt > 1) {
				struct mtask *o = &m->t[rnd64(m) % m->nt];

				if (o != t && o->state == T_BLOCKED)
					wake_task(m, o, cpu, SCHED_WAKE);
			}
			if (t->msgs > 1 && m->mix_sleep > 0 && rnd64(m) % 2) {
				t->remain = 0;
				push(m, m->now + (uint64_t)rnd_exp(m, m->mix_sleep), EV_TIMER,
				     t->st.id, 0);
				block_curr(m, cpu, 0);
				return;
			}
			t->remain = 1 + (uint64_t)rnd_exp(m, m->mix_burst);
			return;
		}
		if (t->role == R_SENDER) {
			struct mtask *r;

			if (t->loops_left == 0) {
				block_curr(m, cpu, 1);
				return;
			}
			r = receiver_of(m, t, t->sent_to);
			if (t->msgs == 1) {
				/* The message written by the last burst arrives. */
				t->msgs = 0;
				r->msgs++;
				if (r->state == T_BLOCKED)
					wake_task(m, r, cpu, SCHED_WAKE);
				if (++t->sent_to == 20) {
					t->sent_to = 0;
					t->loops_left--;
				}
				continue;
			}
			if (r->msgs >= m->hb_cap) {
				/* The pipe is full: sleep until the receiver reads. */
				r->waiting_sender = t->st.id + 1;
				t->blocked_on_full = 1;
				block_curr(m, cpu, 0);
				return;
			}
			t->msgs = 1;
			t->remain = m->hb_send_ns;
			return;
		}
		/* receiver */
		if (t->blocked_on_full == 1) {	/* the read burst just ended */
			t->blocked_on_full = 0;
			t->loops_left--;
			m->work += 1;
			/* Room in the pipe: wake every sender waiting for it. */
			for (unsigned k = 0; t->waiting_sender && k < 20; k++) {
				struct mtask *s = &m->t[t->grp_idx * 40 + k];

				if (s->blocked_on_full && s->sent_to == t->role_idx &&
				    s->state == T_BLOCKED) {
					s->blocked_on_full = 0;
					wake_task(m, s, cpu, SCHED_WAKE);
				}
			}
			t->waiting_sender = 0;
		}
		if (t->loops_left == 0) {
			block_curr(m, cpu, 1);
			return;
		}
		if (t->msgs == 0) {
			block_curr(m, cpu, 0);
			return;
		}
		t->msgs--;
		t->blocked_on_full = 1;	/* reading */
		t->remain = m->hb_recv_ns;
		return;
	}
}

#define US 1000.0
static const struct wop P_TB_CLIENT[] = {
	{ OP_BURST, 15 * US, 1, 0, 0 }, { OP_SEND, 0, 0, 0, 0 }, { OP_RECV, 0, 0, 0, 0 },
	{ OP_COUNT, 0, 0, 0, 0 }, { OP_LOOP, 0, 0, 0, 0 },
};
static const struct wop P_SERVER[] = {	/* tbench server, sysbench backend */
	{ OP_RECV, 0, 0, 0, 0 }, { OP_BURST, 25 * US, 1, 0, 0 }, { OP_REPLY, 0, 0, 0, 0 },
	{ OP_LOOP, 0, 0, 0, 0 },
};
static const struct wop P_SB_THREAD[] = {
	{ OP_BURST, 300 * US, 1, 0, 0 }, { OP_SEND_SRV, 0, 0, 0, 0 }, { OP_RECV, 0, 0, 0, 0 },
	{ OP_COUNT, 0, 0, 0, 0 }, { OP_LOOP, 0, 0, 0, 0 },
};
static const struct wop P_SB_CPU[] = {
	{ OP_BURST, 1000 * US, 0, 0, 0 }, { OP_COUNT, 0, 0, 0, 0 }, { OP_LOOP, 0, 0, 0, 0 },
};
static const struct wop P_DBENCH[] = {
	{ OP_BURST, 40 * US, 1, 0, 0 }, { OP_SLEEP, 150 * US, 1, 0, 0 },
	{ OP_COUNT, 0, 0, 0, 0 }, { OP_LOOP, 0, 0, 0, 0 },
};
static const struct wop P_MAKE[] = { { OP_FORK_JOBS, 0, 0, 4, 0 }, { OP_EXIT, 0, 0, 0, 0 } };
static const struct wop P_CC[] = {	/* make forks, the child execs cc1 */
	{ OP_BURST, 300 * US, 1, 0, 0 }, { OP_EXEC, 0, 0, 0, 0 },
	{ OP_BURST, 30000 * US, 1, 0, 0 }, { OP_SLEEP, 2000 * US, 1, 0, 0 },
	{ OP_BURST, 15000 * US, 1, 0, 0 }, { OP_COUNT, 0, 0, 0, 0 }, { OP_EXIT, 0, 0, 0, 0 },
};

/*
 * Keys every workload takes: nice=N (-20..19), rt=P (SCHED_RR priority 0..99, lower is
 * higher), cpus=N (affinity: CPUs 0..N-1). 1: taken, 0: not one of them, -EINVAL: a bad
 * value (@err names it, in workload @name).
 */
static int generic_key(struct machine *m, const char *kv, const char *name, char *err,
		       size_t len)
{
	const char *eq = strchr(kv, '=');
	char *end;
	long v, lo, hi;

	if (!eq)
		return 0;
	if (!strncmp(kv, "nice=", 5))
		lo = -20, hi = 19;
	else if (!strncmp(kv, "rt=", 3))
		lo = 0, hi = 99;
	else if (!strncmp(kv, "cpus=", 5))
		lo = 1, hi = (long)m->topo.nr_cpus;
	else
		return 0;
	v = strtol(eq + 1, &end, 10);
	if (end == eq + 1 || *end || v < lo || v > hi) {
		snprintf(err, len, "workload %s: '%s': nice -20..19, rt 0..99, cpus 1..%u", name, kv,
			 m->topo.nr_cpus);
		return -EINVAL;
	}
	if (kv[0] == 'n')
		m->g_nice = (int)v;
	else if (kv[0] == 'r')
		m->g_rt = (int)v;
	else
		m->g_cpus = (unsigned)v;
	return 1;
}

static int kv_double(const char *v, double *out)
{
	char *end;

	*out = strtod(v, &end);
	return end == v || *end || *out < 0 ? -1 : 0;
}

static void init_task(struct machine *m, struct mtask *t, unsigned i)
{
	t->st.id = i;
	t->st.rt_prio = -1;
	t->st.allowed = m->topo.nr_cpus == 64 ? ~0ull : (1ull << m->topo.nr_cpus) - 1;
	t->last_cpu = -1;
	t->qcpu = -1;
	t->moved_to = -1;
	t->parent = -1;
	t->state = T_NEW;
}

/* The program workloads: parse k=v and lay out tasks and their programs. */
static int setup_prog(struct machine *m, const char *name, char *args, char *err, size_t len)
{
	double clients = 8, threads = 16, backends = 8, cpu = 0, rooms = 4, users = 10,
	       jobs = 4, total = 40, groups = 1, group = 0;
	char *save = NULL, *kv;
	unsigned i, n = 0, nserv = 0;
	size_t k;
	/* Which workload (NULL: every one) takes which key, and where it goes. */
	const struct { const char *wl, *key; double *val; } keys[] = {
		{ NULL, "groups", &groups }, { NULL, "group", &group },
		{ "tbench", "clients", &clients }, { "dbench", "clients", &clients },
		{ "sysbench", "threads", &threads }, { "sysbench", "backends", &backends },
		{ "sysbench", "cpu", &cpu }, { "volanomark", "rooms", &rooms },
		{ "volanomark", "users", &users }, { "kernbench", "jobs", &jobs },
		{ "kernbench", "total", &total },
	};

	for (kv = args ? strtok_r(args, ",", &save) : NULL; kv; kv = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(kv, '=');
		double v, *dst = NULL;
		int gk = generic_key(m, kv, name, err, len);

		if (gk < 0)
			return gk;
		if (gk)
			continue;
		if (!eq || kv_double(eq + 1, &v) || v != floor(v)) {
			snprintf(err, len, "workload %s: '%s' is not key=integer", name, kv);
			return -EINVAL;
		}
		*eq = 0;
		for (k = 0; k < sizeof(keys) / sizeof(keys[0]) && !dst; k++)
			if ((!keys[k].wl || !strcmp(name, keys[k].wl)) && !strcmp(kv, keys[k].key))
				dst = keys[k].val;
		if (!dst) {
			snprintf(err, len, "workload %s: unknown key '%s'", name, kv);
			return -EINVAL;
		}
		*dst = v;
	}
	if (groups < 1 || groups > SCHED_MAX_GROUPS || group > SCHED_MAX_GROUPS - 1 ||
	    clients < 1 || threads < 1 || backends < 1 || rooms < 1 || users < 2 || jobs < 1 ||
	    total < 1 || (group && groups > 1)) {
		snprintf(err, len, "workload %s: a value is out of range (groups 1..%u, group "
			 "0..%u and not with groups, counts >= 1, users >= 2)", name,
			 SCHED_MAX_GROUPS, SCHED_MAX_GROUPS - 1);
		return -EINVAL;
	}
	if (!strcmp(name, "tbench"))
		n = 2 * (unsigned)clients;
	else if (!strcmp(name, "dbench"))
		n = (unsigned)clients;
	else if (!strcmp(name, "sysbench"))
		n = (unsigned)threads + (cpu ? 0 : (nserv = (unsigned)backends));
	else if (!strcmp(name, "volanomark"))
		n = (unsigned)(rooms * users);
	else
		n = 1 + (unsigned)total;
	if (n > MAX_TASKS) {
		snprintf(err, len, "workload %s: %u tasks, at most %u", name, n, MAX_TASKS);
		return -EINVAL;
	}
	m->wl = 2;
	m->nt = n;
	m->unit_scale = 1;
	m->t = calloc(n, sizeof(*m->t));
	if (!m->t) {
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	m->ngroups = group ? (unsigned)group + 1 : (unsigned)groups;
	for (i = 0; i < SCHED_MAX_GROUPS; i++)
		m->shares[i] = HWS_SCHED_LOAD_SCALE;
	for (i = 0; i < n; i++) {
		struct mtask *t = &m->t[i];

		init_task(m, t, i);
		t->st.group = group ? (unsigned)group : i % (unsigned)groups;
		t->mb_cap = 8;
		t->mb = malloc(t->mb_cap * sizeof(*t->mb));
		if (!t->mb) {
			snprintf(err, len, "out of memory");
			return -ENOMEM;
		}
		if (!strcmp(name, "tbench")) {
			t->prog = i % 2 ? P_SERVER : P_TB_CLIENT;
			t->peer = i ^ 1;
		} else if (!strcmp(name, "dbench")) {
			t->prog = P_DBENCH;
		} else if (!strcmp(name, "sysbench")) {
			t->prog = cpu ? P_SB_CPU : i < (unsigned)threads ? P_SB_THREAD : P_SERVER;
			t->srv_lo = (unsigned)threads;
			t->srv_n = nserv;
		} else if (!strcmp(name, "volanomark")) {
			static struct wop user[7];

			user[0] = (struct wop){ OP_BURST, 8 * US, 1, 0, 0 };
			user[1] = (struct wop){ OP_BCAST, 0, 0, 0, 0 };
			user[2] = (struct wop){ OP_RECV, 0, 0, 0, 0 };
			user[3] = (struct wop){ OP_BURST, 3 * US, 1, 0, 0 };
			user[4] = (struct wop){ OP_COUNT, 0, 0, 0, 0 };
			user[5] = (struct wop){ OP_LOOP, 0, 0, 2, (unsigned)users - 1 };
			user[6] = (struct wop){ OP_LOOP, 0, 0, 0, 0 };
			t->prog = user;
			t->room_lo = i - i % (unsigned)users;
			t->room_n = (unsigned)users;
		} else if (i == 0) {
			static struct wop make[2];

			make[0] = P_MAKE[0];
			make[0].arg = (unsigned)jobs;
			make[1] = P_MAKE[1];
			t->prog = make;
			t->jobs_left = (unsigned)total;
			t->spawn_next = 1;
		} else {
			t->prog = P_CC;
			t->spawned = 1;
			t->parent = 0;
		}
	}
	m->unit = "operations/s";
	if (!strcmp(name, "tbench")) {
		m->unit_scale = 4096.0 / 1e6;	/* MB per request/response pair */
		m->unit = "MB/s";
	} else if (!strcmp(name, "sysbench")) {
		m->unit = cpu ? "events/s" : "transactions/s";
	} else if (!strcmp(name, "volanomark")) {
		m->unit = "messages/s";
	} else if (!strcmp(name, "kernbench")) {
		m->unit = "jobs/s";
	} else if (!strcmp(name, "dbench")) {
		m->unit_scale = 65536.0 / 1e6;	/* MB per operation (a 64 KB read/write) */
		m->unit = "MB/s";
	}
	return 0;
}

/* A FORK op of @parent: the next prepared child starts, placed by fork balancing. */
static void spawn(struct machine *m, struct mtask *parent, unsigned cpu)
{
	struct mtask *c = &m->t[parent->spawn_next++];

	parent->jobs_left--;
	parent->children_live++;
	m->ops->task_new(m->s, &c->st, &parent->st, cpu);
	set_state(m, c, T_BLOCKED);
	wake_task(m, c, cpu, SCHED_FORK);
}

/* ---- replay of a perf sched trace (hwsched replay, docs/simulator.md) ---- */

struct rev {
	int64_t off;
	int kind;	/* OP_WAKE, OP_SPAWN */
	unsigned arg;
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

/* Which run phase (0 = before its first sleep) task @w was in at @at_ns. */
static unsigned phase_at(const struct trace_task *w, int64_t at_ns)
{
	unsigned ph = 0;

	for (size_t k = 0; k < w->nr_segs; k++)
		if (w->segs[k].kind == TRACE_SLEEP && w->segs[k].at_ns <= at_ns)
			ph++;
	return ph;
}

/*
 * Turn each kept task of the trace into a program: its runs as fixed bursts, a sleep
 * ended by another kept task as RECV (the waker's program gets a WAKE at the same CPU
 * offset into its run), other sleeps as timed sleeps of the recorded length, forks as
 * SPAWN at their offsets, and the exit.
 */
static int setup_replay(struct machine *m, char *err, size_t len)
{
	const struct trace *tr = m->o.trace;
	size_t n = tr->nr_tasks, i, k;
	struct rev **ev = calloc(n, sizeof(*ev));	/* per task: events by (phase, off) */
	size_t *nev = calloc(n, sizeof(*nev)), *cap = calloc(n, sizeof(*cap));
	unsigned **phase_of = calloc(n, sizeof(*phase_of));
	int ret = -ENOMEM;

	if (n == 0 || n > MAX_TASKS) {
		snprintf(err, len, "replay: %zu tasks in the trace (need 1..%u)", n, MAX_TASKS);
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
	if (!m->t || !ev || !nev || !cap || !phase_of)
		goto nomem;
	/* Gather every WAKE and SPAWN into the acting task's list, keyed by phase. */
	for (i = 0; i < n; i++) {
		const struct trace_task *tt = &tr->tasks[i];
		unsigned ph = 0;

		for (k = 0; k < tt->nr_segs; k++) {
			const struct trace_seg *sg = &tt->segs[k];
			struct rev r = { 0, 0, 0 };
			size_t who = i;
			int w;

			if (sg->kind == TRACE_FORK) {
				w = index_of(tr, sg->pid);
				if (w < 0)
					continue;
				r = (struct rev){ (int64_t)ph << 40 | sg->offset_ns, OP_SPAWN,
						  (unsigned)w };
			} else if (sg->kind == TRACE_SLEEP) {
				ph++;
				w = sg->pid >= 0 ? index_of(tr, sg->pid) : -1;
				if (w < 0 || (size_t)w == i)
					continue;
				who = (size_t)w;
				r = (struct rev){ (int64_t)phase_at(&tr->tasks[w], sg->at_ns) << 40 |
							  sg->offset_ns,
						  OP_WAKE, (unsigned)i };
			} else {
				continue;
			}
			if (nev[who] == cap[who]) {
				cap[who] = cap[who] ? 2 * cap[who] : 8;
				ev[who] = realloc(ev[who], cap[who] * sizeof(**ev));
				if (!ev[who])
					goto nomem;
			}
			ev[who][nev[who]++] = r;
		}
	}
	for (i = 0; i < n; i++) {
		const struct trace_task *tt = &tr->tasks[i];
		struct mtask *t = &m->t[i];
		size_t nops = 0, ops_cap = 2 * tt->nr_segs + 2 * nev[i] + 4, e = 0;
		struct wop *p = calloc(ops_cap, sizeof(*p));
		unsigned ph = 0;
		int64_t done = 0;	/* CPU ns run so far in this phase */

		if (!p)
			goto nomem;
		qsort(ev[i], nev[i], sizeof(**ev), rev_cmp);
		init_task(m, t, (unsigned)i);
		t->st.nice = tt->nice;
		t->mb_cap = 8;
		t->mb = malloc(t->mb_cap * sizeof(*t->mb));
		if (!t->mb) {
			free(p);
			goto nomem;
		}
		t->own_prog = p;
		t->prog = p;
		/* Started by a kept parent's SPAWN, or present from the start. */
		t->spawned = tt->ppid >= 0 && index_of(tr, tt->ppid) >= 0;
		for (k = 0; k <= tt->nr_segs; k++) {
			const struct trace_seg *sg = k < tt->nr_segs ? &tt->segs[k] : NULL;
			int end_phase = !sg || sg->kind == TRACE_SLEEP || sg->kind == TRACE_EXIT;

			if (sg && sg->kind == TRACE_RUN) {
				int64_t left = sg->ns;

				/* Events falling inside this run split it. */
				while (e < nev[i] && (ev[i][e].off >> 40) == ph &&
				       (ev[i][e].off & ((1ll << 40) - 1)) < done + left) {
					int64_t at = ev[i][e].off & ((1ll << 40) - 1);

					if (at > done) {
						p[nops++] = (struct wop){ OP_BURST, (double)(at - done), 0,
									  0, 0 };
						left -= at - done;
						done = at;
					}
					p[nops++] = (struct wop){ ev[i][e].kind, 0, 0, ev[i][e].arg, 0 };
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
			while (e < nev[i] && (ev[i][e].off >> 40) <= ph) {
				p[nops++] = (struct wop){ ev[i][e].kind, 0, 0, ev[i][e].arg, 0 };
				e++;
			}
			if (!sg || sg->kind == TRACE_EXIT) {
				p[nops++] = (struct wop){ OP_EXIT, 0, 0, 0, 0 };
				break;
			}
			if (sg->pid >= 0 && index_of(tr, sg->pid) >= 0 && index_of(tr, sg->pid) != (int)i)
				p[nops++] = (struct wop){ OP_RECV, 0, 0, 0, 0 };
			else
				p[nops++] = (struct wop){ OP_SLEEP, (double)sg->ns, 0, 0, 0 };
			ph++;
			done = 0;
		}
		if (nops == 0 || p[nops - 1].kind != OP_EXIT) {
			/* Still alive when the trace ended: stop there (counted as not exited). */
			while (e < nev[i])
				p[nops++] = (struct wop){ ev[i][e].kind, 0, 0, ev[i][e++].arg, 0 };
			p[nops++] = (struct wop){ OP_RECV, 0, 0, 0, 0 };
		}
		if (nops > ops_cap) {
			snprintf(err, len, "replay: internal: program of task %d overflowed", tt->pid);
			ret = -EPROTO;
			goto out;
		}
	}
	ret = 0;
	goto out;
nomem:
	snprintf(err, len, "out of memory");
	ret = -ENOMEM;
out:
	for (i = 0; ev && i < n; i++)
		free(ev[i]);
	free(ev);
	free(nev);
	free(cap);
	free(phase_of);
	return ret;
}

static int setup_workload(struct machine *m, char *err, size_t len)
{
	char buf[256], *save = NULL, *kv, *name, *args;
	unsigned tasks = 16, i, g0 = 0;
	double groups = 0;

	if (m->o.trace)
		return setup_replay(m, err, len);
	if (!m->o.workload || strlen(m->o.workload) >= sizeof(buf)) {
		snprintf(err, len, "workload: missing or too long");
		return -EINVAL;
	}
	strcpy(buf, m->o.workload);
	name = buf;
	args = strchr(buf, ':');
	if (args)
		*args++ = 0;
	m->mix_burst = 2e6;
	m->mix_sleep = 2e6;
	m->mix_msg = 0.3;
	m->hb_groups = 2;
	m->hb_loops = 20;
	m->hb_cap = 16;
	m->hb_send_ns = 3000;
	m->hb_recv_ns = 2000;
	m->ngroups = 1;
	if (!strcmp(name, "mix"))
		m->wl = 0;
	else if (!strcmp(name, "hackbench"))
		m->wl = 1;
	else if (!strcmp(name, "tbench") || !strcmp(name, "sysbench") ||
		 !strcmp(name, "volanomark") || !strcmp(name, "kernbench") ||
		 !strcmp(name, "dbench"))
		return setup_prog(m, name, args, err, len);
	else {
		snprintf(err, len, "workload '%s': unknown (mix, hackbench, tbench, sysbench, "
			 "volanomark, kernbench, dbench)", name);
		return -EINVAL;
	}
	for (kv = args ? strtok_r(args, ",", &save) : NULL; kv; kv = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(kv, '=');
		double v;
		int gk = generic_key(m, kv, name, err, len);

		if (gk < 0)
			return gk;
		if (gk)
			continue;

		if (!eq || kv_double(eq + 1, &v)) {
			snprintf(err, len, "workload %s: '%s' is not key=number", name, kv);
			return -EINVAL;
		}
		*eq = 0;
		if (m->wl == 0 && !strcmp(kv, "tasks") && v >= 1 && v <= MAX_TASKS)
			tasks = (unsigned)v;
		else if (m->wl == 0 && !strcmp(kv, "burst"))
			m->mix_burst = v * 1000.0;	/* us */
		else if (m->wl == 0 && !strcmp(kv, "sleep"))
			m->mix_sleep = v * 1000.0;
		else if (m->wl == 0 && !strcmp(kv, "msg") && v <= 1)
			m->mix_msg = v;
		else if (m->wl == 0 && !strcmp(kv, "groups") && v >= 1 && v <= SCHED_MAX_GROUPS)
			groups = v;
		else if (m->wl == 0 && !strcmp(kv, "g0") && v >= 1)
			g0 = (unsigned)v;
		else if (m->wl == 1 && !strcmp(kv, "groups") && v >= 1 && v <= 100)
			m->hb_groups = (unsigned)v;
		else if (m->wl == 1 && !strcmp(kv, "loops") && v >= 1)
			m->hb_loops = (unsigned)v;
		else {
			snprintf(err, len, "workload %s: bad key or value '%s=%s'", name, kv, eq + 1);
			return -EINVAL;
		}
	}
	m->nt = m->wl == 0 ? tasks : m->hb_groups * 40;
	if (m->nt > MAX_TASKS) {
		snprintf(err, len, "workload %s: %u tasks, at most %u", name, m->nt, MAX_TASKS);
		return -EINVAL;
	}
	m->t = calloc(m->nt, sizeof(*m->t));
	if (!m->t) {
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	if (groups >= 1)
		m->ngroups = (unsigned)groups;
	for (i = 0; i < SCHED_MAX_GROUPS; i++)
		m->shares[i] = HWS_SCHED_LOAD_SCALE;
	for (i = 0; i < m->nt; i++) {
		struct mtask *t = &m->t[i];

		t->st.id = i;
		t->st.rt_prio = -1;
		t->st.allowed = m->topo.nr_cpus == 64 ? ~0ull : (1ull << m->topo.nr_cpus) - 1;
		t->last_cpu = -1;
		t->qcpu = -1;
		t->moved_to = -1;
		t->state = T_NEW;
		if (m->wl == 0) {
			t->role = R_MIX;
			/* g0=N: the first N tasks in group 0, the others spread over the rest. */
			if (g0 && m->ngroups > 1)
				t->st.group = i < g0 ? 0 : 1 + (i - g0) % (m->ngroups - 1);
			else
				t->st.group = m->ngroups > 1 ? i % m->ngroups : 0;
		} else {
			t->grp_idx = i / 40;
			t->role = i % 40 < 20 ? R_SENDER : R_RECEIVER;
			t->role_idx = i % 20;
			t->loops_left = m->hb_loops * (t->role == R_SENDER ? 1 : 20);
		}
	}
	return 0;
}

/* ---- checks ---- */

static void check_conservation(struct machine *m, int deep)
{
	unsigned q = m->nstate[T_QUEUED], c, run = m->nstate[T_RUNNING], i, n[T_DEAD + 1] = { 0 };

	for (c = 0; c < m->topo.nr_cpus; c++) {
		struct mtask *t = m->cpu[c].curr;

		if (t && t->state != T_RUNNING)
			fail(m, "CPU %u runs task %u, which is not in the running state", c,
			     t->st.id);
		q -= m->ops->nr_queued(m->s, c);
		run -= t != NULL;
	}
	if (q || run)
		fail(m, "conservation: the scheduler's queues and the machine disagree by %d "
			"queued / %d running tasks at %.6f s", (int)q, (int)run, m->now / 1e9);
	m->checks++;
	if (!deep)
		return;
	/* The counts the per-event check trusts, against the tasks themselves. */
	for (i = 0; i < m->nt; i++)
		n[m->t[i].state]++;
	if (memcmp(n, m->nstate, sizeof(n)))
		fail(m, "conservation: the machine's state counts (%u queued, %u running) do not "
			"match its tasks (%u, %u)", m->nstate[T_QUEUED], m->nstate[T_RUNNING],
		     n[T_QUEUED], n[T_RUNNING]);
	for (i = 0; i < m->nt; i++) {
		struct mtask *t = &m->t[i];
		int w = m->ops->where(m->s, &t->st);

		if (t->state == T_QUEUED && w != t->qcpu && !m->ops->global_queue)
			fail(m, "task %u: the machine has it queued on CPU %d, the scheduler on %d",
			     i, t->qcpu, w);
		if ((t->state == T_BLOCKED || t->state == T_DEAD) && w >= 0)
			fail(m, "task %u is %s but the scheduler has it queued on CPU %d", i,
			     t->state == T_DEAD ? "dead" : "blocked", w);
	}
}

/* The idle-core invariant: an idle CPU while a task waits longer than a balance period. */
static void check_idle_core(struct machine *m, unsigned cpu)
{
	uint64_t limit = (m->topo.nodes > 1 ? 32 : 4) * MS;

	for (unsigned i = 0; i < m->nt; i++) {
		struct mtask *t = &m->t[i];

		if (t->state == T_QUEUED && t->qcpu != (int)cpu && (t->st.allowed >> cpu & 1) &&
		    m->now - t->queued_at > limit) {
			m->violations++;
			return;
		}
	}
}

/* ---- the run ---- */

void machine_default_opts(struct machine_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->topology = "pkg=1,core=4,smt=1";
	o->sched = "hw";
	sched_opts_default(&o->sched_opts);
	o->workload = "mix";
	o->seed = 1;
	o->hz = 1000;
	o->check_every = 64;
	o->costs.ctx_switch_ns = 1500;
	o->costs.migrate_cold_ns = 20000;
	o->costs.remote_node_ns = 30000;
	o->costs.smt_speed = 0.6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void handle(struct machine *m, const struct event *e)
{
	struct mcpu *c;
	struct mtask *t;

	switch (e->kind) {
	case EV_TICK:
		c = &m->cpu[e->who];
		if (m->live)
			push(m, m->now + 1000000000ull / m->o.hz, EV_TICK, e->who, 0);
		if (!c->curr)
			check_idle_core(m, e->who);
		if (m->ops->tick(m->s, e->who, c->curr ? &c->curr->st : NULL))
			kick(m, e->who);
		else if (c->curr && c->debt > 0) {
			stop_segment(m, e->who);
			start_segment(m, e->who);
		}
		break;
	case EV_RESCHED:
		c = &m->cpu[e->who];
		c->resched_pending = 0;
		t = c->curr;
		if (t) {
			stop_segment(m, e->who);
			m->ops->put_prev(m->s, e->who, &t->st, 1, m->now - t->st.timestamp);
		}
		dispatch(m, e->who, t);
		if (t && c->curr != t)
			m->invol++;
		break;
	case EV_BURST_END:
		c = &m->cpu[e->who];
		if (e->gen != c->gen || !c->curr)
			break;	/* stale */
		stop_segment(m, e->who);
		t = c->curr;
		t->remain = 0;
		next_action(m, t, e->who);
		if (c->curr == t && t->state == T_RUNNING)
			start_segment(m, e->who);
		break;
	case EV_TIMER:
		t = &m->t[e->who];
		if (t->state == T_BLOCKED)
			wake_task(m, t, t->last_cpu >= 0 ? (unsigned)t->last_cpu : 0, SCHED_WAKE);
		break;
	}
}

int machine_run(const struct machine_opts *o, struct machine_result *r, FILE *report,
		char *err, size_t len)
{
	struct machine *m = calloc(1, sizeof(*m));
	char msg[300];
	const char *e1;
	unsigned i, c;
	int ret = 0;
	uint64_t next_progress = 0;

	if (!m)
		return -ENOMEM;
	memset(r, 0, sizeof(*r));
	m->o = *o;
	m->rng = o->seed * 0x9E3779B97F4A7C15ull + 1;
	m->g_rt = -1;
	if (o->hz < 10 || o->hz > 10000) {
		snprintf(err, len, "hz %u: expected 10..10000", o->hz);
		ret = -EINVAL;
		goto out;
	}
	ret = machine_parse_topology(o->topology, &m->topo, err, len);
	if (ret)
		goto out;
	for (unsigned x = 0; x < m->topo.nr_cpus; x++)
		if (m->topo.lead[0][x] == x)
			m->pkg_empty[m->topo.lead[1][x]]++;	/* every core idle */
	m->ops = o->ops ? o->ops : sched_find(o->sched);
	if (!m->ops) {
		snprintf(err, len, "scheduler '%s': unknown (%s)", o->sched, sched_names());
		ret = -EINVAL;
		goto out;
	}
	ret = setup_workload(m, err, len);
	if (ret)
		goto out;
	m->nstate[T_NEW] = m->nt;	/* every task starts new */
	if (m->wl != 1 && !o->duration_ns && !(m->wl == 2 && m->t[0].jobs_left)) {
		snprintf(err, len, "workload mix never ends: give a duration");
		ret = -EINVAL;
		goto out;
	}
	m->env = (struct sched_env){ m, &m->topo, m->nt, m->ngroups, m->shares, env_now,
				     env_charge, env_moved, env_kick, env_busy, env_curr };
	m->s = m->ops->create(&m->env, &o->sched_opts, msg, sizeof(msg));
	if (!m->s) {
		snprintf(err, len, "scheduler %s: %s", o->sched, msg);
		ret = -EINVAL;
		goto out;
	}
	for (i = 0; i < m->nt && !o->trace; i++) {
		struct sched_task *st = &m->t[i].st;

		st->nice = m->g_nice;
		st->rt_prio = m->g_rt;
		if (m->g_cpus)
			st->allowed = m->g_cpus == 64 ? ~0ull : (1ull << m->g_cpus) - 1;
	}
	for (i = 0; i < m->nt; i++) {
		if (m->t[i].spawned)
			continue;	/* forked later by its parent */
		m->ops->task_new(m->s, &m->t[i].st, NULL, i % m->topo.nr_cpus);
		set_state(m, &m->t[i], T_BLOCKED);
	}
	m->live = m->nt;
	/* Every task starts runnable, woken in turn from CPU 0 (as a shell would fork them). */
	for (i = 0; i < m->nt; i++)
		if (!m->t[i].spawned)
			wake_task(m, &m->t[i], 0, SCHED_FORK);
	for (c = 0; c < m->topo.nr_cpus; c++) {
		push(m, (uint64_t)c * 1000000000ull / m->o.hz / m->topo.nr_cpus, EV_TICK, c, 0);
		kick(m, c);
	}
	while (m->hn && !m->failed) {
		struct event e = pop(m);

		if (o->duration_ns && e.time > o->duration_ns)
			break;
		if (!m->live && e.kind == EV_TICK)
			continue;
		m->now = e.time;
		if (o->advance)
			o->advance(o->advance_arg, m->now);
		m->events++;
		handle(m, &e);
		e1 = m->ops->error ? m->ops->error(m->s) : NULL;
		if (e1)
			fail(m, "firmware: %s", e1);
		check_conservation(m, o->check_every && m->events % (unsigned)o->check_every == 0);
		if (o->progress && m->now >= next_progress) {
			fprintf(stderr, "\r  simulated %.3f s, %llu events, %u tasks live   ",
				m->now / 1e9, (unsigned long long)m->events, m->live);
			next_progress = m->now + 100 * MS;
		}
		if (!m->live && !m->failed) {
			/* Drain: only ticks remain. */
			break;
		}
	}
	if (o->progress)
		fprintf(stderr, "\n");
	if (m->failed) {
		snprintf(err, len, "at %.9f s: %s", m->now / 1e9, m->err);
		ret = -EPROTO;
		goto out;
	}
	check_conservation(m, 1);
	/* results */
	r->sim_ns = m->now;
	r->events = m->events;
	r->nr_cpus = m->topo.nr_cpus;
	r->work_units = m->work * (m->wl == 2 ? m->unit_scale : 1);
	r->unit = m->wl == 0 ? "bursts/s" : m->wl == 1 ? "messages/s" : m->unit;
	r->throughput = m->now ? r->work_units / (m->now / 1e9) : 0;
	r->makespan_s = m->live ? 0 : m->now / 1e9;
	r->wakeups = m->nlat;
	if (m->nlat) {
		qsort(m->lat, m->nlat, sizeof(double), cmp_double);
		r->wake_lat_us[0] = m->lat[m->nlat / 2];
		r->wake_lat_us[1] = m->lat[m->nlat * 9 / 10];
		r->wake_lat_us[2] = m->lat[m->nlat * 99 / 100];
		r->wake_lat_us[3] = m->lat[m->nlat - 1];
	}
	r->rq_wait_ms = m->rq_wait / 1e6;
	r->switches = m->switches;
	r->vol_switches = m->vol;
	r->invol_switches = m->invol;
	r->migrations = m->migrations;
	r->idle_core_violations = m->violations;
	r->has_smt = m->topo.smt > 1 && m->topo.cores > 1;
	r->smt_share_ms = (double)(m->smt_bad_ns + (m->smt_bad_pkgs ? m->now - m->smt_bad_since : 0)) / 1e6;
	r->smt_share_pct = m->now ? 100.0 * r->smt_share_ms * 1e6 / (double)m->now : 0;
	r->conservation_checks = m->checks;
	{
		double ov = 0, tot = 0, shares = 0;

		for (c = 0; c < m->topo.nr_cpus; c++) {
			if (m->cpu[c].curr)
				m->cpu[c].busy_ns += m->now - m->cpu[c].busy_since;
			r->busy_pct[c] = m->now ? 100.0 * (double)m->cpu[c].busy_ns / (double)m->now : 0;
			ov += m->cpu[c].overhead;
		}
		r->sched_overhead_pct = m->now ? 100.0 * ov / ((double)m->now * m->topo.nr_cpus) : 0;
		/*
		 * Entitlement, as the firmware divides the CPU: each root-group task counts by
		 * its own weight, each other group with tasks by its shares (docs/firmware.md).
		 * This is the split a machine busy with all of them would give.
		 */
		double want[SCHED_MAX_GROUPS] = { 0 };

		r->nr_groups = m->ngroups;
		for (i = 0; i < m->nt; i++) {
			unsigned g = m->t[i].st.group % SCHED_MAX_GROUPS;

			if (g == 0)
				want[0] += hws_weight_of((unsigned)(SCHED_NICE_0_PRIO + m->t[i].st.nice));
			else
				want[g] = m->shares[g];
		}
		/* Water-filling: a group cannot use more CPUs than it has tasks; what it cannot
		 * use goes to the others in proportion ... */
		double cap[SCHED_MAX_GROUPS] = { 0 }, got[SCHED_MAX_GROUPS] = { 0 }, left = 1;
		int open[SCHED_MAX_GROUPS] = { 0 }, more = 1;

		/* ... on the CPUs the tasks may use (the union of their affinities). */
		uint64_t usable = 0;

		for (i = 0; i < m->nt; i++)
			usable |= m->t[i].st.allowed;
		for (i = 0; i < m->nt; i++)
			cap[m->t[i].st.group % SCHED_MAX_GROUPS] += 1.0 / __builtin_popcountll(usable);
		for (i = 0; i < m->ngroups && i < SCHED_MAX_GROUPS; i++) {
			tot += m->group_time[i];
			open[i] = want[i] > 0;
		}
		while (more && left > 1e-12) {
			more = 0;
			shares = 0;
			for (i = 0; i < SCHED_MAX_GROUPS; i++)
				shares += open[i] ? want[i] : 0;
			if (shares <= 0)
				break;
			for (i = 0; i < SCHED_MAX_GROUPS; i++)
				if (open[i] && got[i] + left * want[i] / shares > cap[i]) {
					left -= cap[i] - got[i];
					got[i] = cap[i];
					open[i] = 0;
					more = 1;
				}
			if (!more) {
				for (i = 0; i < SCHED_MAX_GROUPS; i++)
					if (open[i])
						got[i] += left * want[i] / shares;
				left = 0;
			}
		}
		for (i = 0; i < m->ngroups && i < SCHED_MAX_GROUPS; i++) {
			r->group_share[i] = tot ? m->group_time[i] / tot : 0;
			r->group_entitled[i] = got[i] / (1 - left);
		}
	}
	r->tasks = calloc(m->nt, sizeof(*r->tasks));
	if (r->tasks) {
		r->ntasks = m->nt;
		for (i = 0; i < m->nt; i++) {
			struct mtask *t = &m->t[i];
			struct machine_task_stat *ts = &r->tasks[i];

			ts->id = i;
			ts->group = t->st.group;
			ts->runtime_ms = t->runtime / 1e6;
			ts->switches = t->nswitch;
			ts->delay_avg_us = t->ndelay ? t->delay_sum / t->ndelay : 0;
			ts->delay_max_us = t->delay_max;
		}
	}
	r->backend = o->sched_opts.engine.bus ? "tlm" : o->sched_opts.engine.backend;
	if (m->ops->engine_stats)
		m->ops->engine_stats(m->s, &r->engine_commands, &r->engine_cycles, &r->engine_mmio);
	if (report)
		m->ops->report(m->s, report);
	if (o->svg) {
		for (c = 0; c < m->topo.nr_cpus; c++)
			log_switch(m, c, NULL);
		ret = write_svg(m, o->svg);
		if (ret) {
			snprintf(err, len, "cannot write %s: %s", o->svg, strerror(-ret));
			goto out;
		}
	}
out:
	if (m->s)
		m->ops->destroy(m->s);
	for (i = 0; m->t && i < m->nt; i++) {
		free(m->t[i].mb);
		free(m->t[i].own_prog);
	}
	free(m->t);
	free(m->h);
	free(m->lat);
	free(m->segs);
	free(m);
	return ret;
}

void machine_result_free(struct machine_result *r)
{
	free(r->tasks);
	r->tasks = NULL;
	r->ntasks = 0;
}

static int by_max_delay(const void *a, const void *b)
{
	const struct machine_task_stat *x = a, *y = b;

	if (x->delay_max_us != y->delay_max_us)
		return x->delay_max_us < y->delay_max_us ? 1 : -1;
	return x->id < y->id ? -1 : x->id > y->id;
}

void machine_print(const struct machine_opts *o, const struct machine_result *r, FILE *f)
{
	unsigned c;

	const struct sched_ops *ops = o->ops ? o->ops : sched_find(o->sched);
	int engine = ops && (ops->uses & SCHED_USES_ENGINE);

	fprintf(f, "run: workload %s, topology %s (%u CPUs), scheduler %s%s%s, seed %llu\n",
		o->workload, o->topology, r->nr_cpus, o->sched, engine ? ", backend " : "",
		engine ? r->backend : "", (unsigned long long)o->seed);
	fprintf(f, "simulated: %.6f s, %llu events%s\n", r->sim_ns / 1e9,
		(unsigned long long)r->events, r->makespan_s > 0 ? ", every task exited" : "");
	if (r->makespan_s > 0)
		fprintf(f, "makespan: %.6f s\n", r->makespan_s);
	fprintf(f, "throughput: %.1f %s (%.0f units)\n", r->throughput, r->unit, r->work_units);
	fprintf(f, "wakeup latency (us): p50 %.1f  p90 %.1f  p99 %.1f  max %.1f  (%llu wakeups)\n",
		r->wake_lat_us[0], r->wake_lat_us[1], r->wake_lat_us[2], r->wake_lat_us[3],
		(unsigned long long)r->wakeups);
	fprintf(f, "run-queue wait: %.3f ms in total\n", r->rq_wait_ms);
	fprintf(f, "context switches: %llu (%llu voluntary, %llu involuntary), migrations: %llu\n",
		(unsigned long long)r->switches, (unsigned long long)r->vol_switches,
		(unsigned long long)r->invol_switches, (unsigned long long)r->migrations);
	fprintf(f, "busy %%:");
	for (c = 0; c < r->nr_cpus; c++)
		fprintf(f, " %.1f", r->busy_pct[c]);
	fprintf(f, "\n");
	if (r->nr_groups > 1) {
		fprintf(f, "group CPU share (entitled):");
		for (c = 0; c < r->nr_groups; c++)
			fprintf(f, " g%u %.1f%% (%.1f%%)", c, 100 * r->group_share[c],
				100 * r->group_entitled[c]);
		fprintf(f, "\n");
	}
	fprintf(f, "idle-core violations: %llu idle-CPU ticks with a task waiting elsewhere\n",
		(unsigned long long)r->idle_core_violations);
	if (r->has_smt)
		fprintf(f, "SMT sharing: %.3f ms (%.2f%% of the run) with a core's threads all busy "
			   "while another core of the package idled\n", r->smt_share_ms, r->smt_share_pct);
	fprintf(f, "scheduler overhead: %.3f %% of CPU time\n", r->sched_overhead_pct);
	if (r->engine_commands)
		fprintf(f, "engine: %llu commands, %llu MMIO accesses, %llu cycles\n",
			(unsigned long long)r->engine_commands, (unsigned long long)r->engine_mmio,
			(unsigned long long)r->engine_cycles);
	fprintf(f, "checks: %llu conservation checks, 0 violations\n",
		(unsigned long long)r->conservation_checks);
	if (r->ntasks && o->top) {
		struct machine_task_stat *v = malloc(r->ntasks * sizeof(*v));
		unsigned n = r->ntasks < o->top ? r->ntasks : o->top;

		if (!v)
			return;
		memcpy(v, r->tasks, r->ntasks * sizeof(*v));
		qsort(v, r->ntasks, sizeof(*v), by_max_delay);
		fprintf(f, "\n %-8s %5s %12s %10s %14s %14s\n", "task", "group", "runtime ms",
			"switches", "avg delay ms", "max delay ms");
		for (c = 0; c < n; c++)
			fprintf(f, " %-8u %5u %12.3f %10llu %14.3f %14.3f\n", v[c].id, v[c].group,
				v[c].runtime_ms, (unsigned long long)v[c].switches,
				v[c].delay_avg_us / 1000, v[c].delay_max_us / 1000);
		if (n < r->ntasks)
			fprintf(f, " ... %u more tasks (--top N)\n", r->ntasks - n);
		free(v);
	}
}

int machine_write_json(const struct machine_opts *o, const struct machine_result *r,
		       const char *path)
{
	FILE *f = fopen(path, "w");
	unsigned c;

	if (!f)
		return -errno;
	fprintf(f, "{\n  \"workload\": \"%s\", \"topology\": \"%s\", \"sched\": \"%s\", "
		   "\"backend\": \"%s\", \"seed\": %llu,\n",
		o->workload, o->topology, o->sched, r->backend, (unsigned long long)o->seed);
	fprintf(f, "  \"sim_s\": %.9f, \"makespan_s\": %.9f, \"throughput\": %.3f, "
		   "\"unit\": \"%s\",\n",
		r->sim_ns / 1e9, r->makespan_s, r->throughput, r->unit);
	fprintf(f, "  \"wakeup_latency_us\": {\"p50\": %.3f, \"p90\": %.3f, \"p99\": %.3f, "
		   "\"max\": %.3f},\n",
		r->wake_lat_us[0], r->wake_lat_us[1], r->wake_lat_us[2], r->wake_lat_us[3]);
	fprintf(f, "  \"rq_wait_ms\": %.3f, \"switches\": %llu, \"voluntary\": %llu, "
		   "\"involuntary\": %llu, \"migrations\": %llu,\n",
		r->rq_wait_ms, (unsigned long long)r->switches,
		(unsigned long long)r->vol_switches, (unsigned long long)r->invol_switches,
		(unsigned long long)r->migrations);
	fprintf(f, "  \"busy_pct\": [");
	for (c = 0; c < r->nr_cpus; c++)
		fprintf(f, "%s%.3f", c ? ", " : "", r->busy_pct[c]);
	fprintf(f, "],\n  \"group_share\": [");
	for (c = 0; c < r->nr_groups; c++)
		fprintf(f, "%s%.5f", c ? ", " : "", r->group_share[c]);
	fprintf(f, "],\n  \"group_entitled\": [");
	for (c = 0; c < r->nr_groups; c++)
		fprintf(f, "%s%.5f", c ? ", " : "", r->group_entitled[c]);
	fprintf(f, "],\n  \"idle_core_violations\": %llu, \"sched_overhead_pct\": %.5f,\n",
		(unsigned long long)r->idle_core_violations, r->sched_overhead_pct);
	fprintf(f, "  \"smt_share_while_core_idle_ms\": %.3f, \"smt_share_while_core_idle_pct\": %.4f,\n",
		r->smt_share_ms, r->smt_share_pct);
	fprintf(f, "  \"engine_commands\": %llu, \"engine_cycles\": %llu, \"engine_mmio\": %llu\n}\n",
		(unsigned long long)r->engine_commands, (unsigned long long)r->engine_cycles,
		(unsigned long long)r->engine_mmio);
	return fclose(f) ? -errno : 0;
}
