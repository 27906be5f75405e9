/*
 * programs.c - the program workloads (tbench, sysbench, volanomark, kernbench,
 * dbench; and replays): each task runs a list of operations (struct wop); messages go
 * to mailboxes.
 */
#include "sim/machine/machine_int.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void deliver(struct machine *m, struct mtask *from, unsigned to, unsigned cpu)
{
	struct mtask *r = &m->t[to];

	if (r->state == T_DEAD || !r->mb)
		return;
	if (r->mb_n == r->mb_cap) {
		unsigned ncap = r->mb_cap * 2, i;
		uint16_t *nb = malloc(ncap * sizeof(*nb));

		if (!nb) {
			mach_fail(m, "out of memory for task %u's mailbox", to);
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
	from->send_cpu = (int)cpu;
	if (r->wait == W_MSG && r->state == T_BLOCKED) {
		r->wait = W_NONE;
		mach_wake_task(m, r, cpu, SCHED_WAKE);
	}
}

/*
 * VolanoMark's JVM (2001): a thread that finds its monitor taken (here: its mailbox empty)
 * spins briefly and calls sched_yield() up to VOLANO_YIELDS times before it blocks
 * (docs/workloads.md gives the source; the count is the workload's `yields` key).
 * YIELD_SPIN_NS: the spin and the monitor retry between two yields.
 */
#define VOLANO_YIELDS 4
#define YIELD_SPIN_NS 1000.0

static void spawn(struct machine *m, struct mtask *parent, unsigned cpu);

/*
 * Causal replay: the wake that ended sleep @k of task @to in Linux, issued by the task
 * running on @cpu. Its wakee waiting at that sleep wakes now; one that has not reached it
 * yet finds it there (held), and the waker goes on either way.
 */
static void wake_token(struct machine *m, unsigned to, unsigned k, unsigned cpu, int sync)
{
	struct mtask *r = &m->t[to];

	if (r->state == T_DEAD || k >= r->ntok || r->tok[k] != TOK_NONE)
		return;
	if (r->state == T_BLOCKED && r->wait == W_TOKEN && r->wait_tok == k) {
		r->tok[k] = TOK_DONE;
		r->wait = W_NONE;
		mach_wake_task(m, r, cpu, sync ? SCHED_WAKE_SYNC : SCHED_WAKE);
		return;
	}
	r->tok[k] = TOK_HELD;
	r->tok_cpu[k] = (uint8_t)cpu;
	m->held_wakes++;
}

/*
 * Causal replay: @t, running on @cpu, reaches sleep @k. Returns 1 when it goes on
 * running (its wake was delivered, or came first and the order is MACHINE_REPLAY_TIED),
 * 0 when it blocked.
 */
static int wait_token(struct machine *m, struct mtask *t, unsigned k, unsigned cpu)
{
	if (k >= t->ntok || t->tok[k] == TOK_DONE)
		return 1;
	t->remain = 0;
	if (t->tok[k] == TOK_HELD) {
		t->tok[k] = TOK_DONE;
		if (m->o.replay_order == MACHINE_REPLAY_TIED)
			return 1;
		/* It blocks as it did in Linux, and the held wake ends the sleep at once. */
		mach_block_curr(m, cpu, 0);
		mach_wake_task(m, t, t->tok_cpu[k], SCHED_WAKE);
		return 0;
	}
	t->wait = W_TOKEN;
	t->wait_tok = k;
	mach_block_curr(m, cpu, 0);
	return 0;
}

/* ---- calibration and contention (docs/results.md; calib.h, contention.h) ---- */

/* The keys every seed workload takes for them, into @k (MACH_CONT_KEYS entries). */
size_t mach_cont_keys(struct mach_cont_keys *v, struct hws_kv *k)
{
	v->work = 0;
	v->calib = v->net = v->fs = v->numa = 1;
	k[0] = (struct hws_kv){ "work", HWS_KV_DOUBLE, 0.001, 10000, &v->work };
	k[1] = (struct hws_kv){ "calib", HWS_KV_UNSIGNED, 0, 1, &v->calib };
	k[2] = (struct hws_kv){ "net", HWS_KV_UNSIGNED, 0, 1, &v->net };
	k[3] = (struct hws_kv){ "fs", HWS_KV_UNSIGNED, 0, 1, &v->fs };
	k[4] = (struct hws_kv){ "numa", HWS_KV_UNSIGNED, 0, 1, &v->numa };
	return MACH_CONT_KEYS;
}

/*
 * The multiplier on @name's CPU bursts (work=X, else the calibration of the topology's
 * profile unless calib=0, else 1) and the contention models in force: each needs a
 * profile, a cost in the workload's line of contention.c and its key not 0; numa also a
 * profile whose remote memory is slower and more than one node.
 */
void mach_cont_setup(struct machine *m, const char *name, const struct mach_cont_keys *v)
{
	const struct coh_profile *p = m->profile;
	const struct cont_params *cp = p ? cont_find(name) : NULL;

	m->work_scale = 1;
	m->calib = NULL;
	if (v->work > 0)
		m->work_scale = v->work;
	else if (v->calib && p && (m->calib = calib_find(name, p->name)))
		m->work_scale = m->calib->work;
	memset(&m->cont, 0, sizeof(m->cont));
	if (!cp)
		return;
	m->cont.p = cp;
	m->cont.net = v->net && (cp->lo_hold_ns > 0 || cp->msg_lines || cp->msg_bytes > 0);
	m->cont.fs = v->fs && (cp->dcache_ops || cp->lru_ops);
	m->cont.numa = v->numa && p->numa_ratio > 1 && m->topo.nodes > 1 && cp->mem_frac > 0;
	m->cont.numa_ratio = p->numa_ratio;
}

/*
 * A burst of @ns of @t's work starting on @cpu: longer when the task runs off its
 * memory's node (the first burst places its memory), plus what it owes for lines pulled.
 * Return: the burst's remaining work, 1 + ns as the workloads count it.
 */
uint64_t mach_burst_ns(struct machine *m, struct mtask *t, unsigned cpu, double ns)
{
	if (m->cont.numa) {
		int node = m->topo.lead[2][cpu] + 1;

		if (!t->home) {
			t->home = node;
		} else if (t->home != node) {
			double more = ns * m->cont.p->mem_frac * (m->cont.numa_ratio - 1);

			m->cst.numa_bursts++;
			m->cst.numa_ns += more;
			ns += more;
		}
	}
	if (t->extra_ns > 0) {
		ns += t->extra_ns;
		t->extra_ns = 0;
	}
	return 1 + (uint64_t)ns;
}

/* @t, on @cpu, reads a message written on @from_cpu: on another CPU its lines and its
 * payload move to this one (owed by the next burst). */
void mach_msg_read(struct machine *m, struct mtask *t, unsigned cpu, int from_cpu)
{
	double ns;

	if (!m->cont.net || from_cpu < 0 || (unsigned)from_cpu == cpu || !m->coh)
		return;
	ns = m->cont.p->msg_lines * coh_distance_ns(m->coh, (unsigned)from_cpu, cpu) +
	     m->cont.p->msg_bytes * 1e3 / m->profile->bus_mbs;
	t->extra_ns += ns;
	m->cst.msg_remote++;
	m->cst.msg_ns += ns;
}

/* The calibration and the contention models' costs of a finished run into @r. */
void mach_cont_results(struct machine *m, struct machine_result *r)
{
	r->work_scale = m->work_scale > 0 ? m->work_scale : 1;
	r->calib_point = m->calib ? m->calib->point : NULL;
	r->cont_net = m->cont.net;
	r->cont_fs = m->cont.fs;
	r->cont_numa = m->cont.numa;
	r->lo_packets = m->cst.lo_packets;
	r->lo_waits = m->cst.lo_waits;
	r->lo_wait_ns = m->cst.lo_wait_ns;
	r->msg_remote = m->cst.msg_remote;
	r->msg_ns = m->cst.msg_ns;
	r->fs_ops = m->cst.fs_ops;
	r->fs_waits = m->cst.fs_waits;
	r->fs_wait_ns = m->cst.fs_wait_ns;
	r->numa_bursts = m->cst.numa_bursts;
	r->numa_ns = m->cst.numa_ns;
}

/* A global kernel lock taken @n times in a row by @cpu, held @hold_ns each: the ns it
 * costs (waits, line transfers, holds). */
static double kernel_lock(struct machine *m, struct cont_lock *l, unsigned cpu, unsigned n,
			  double hold_ns, uint64_t *waits, double *wait_ns)
{
	double ns = 0, w;
	int waited;

	for (unsigned i = 0; i < n; i++) {
		w = cont_spin(m->coh, l, cpu, m->now, hold_ns, &waited);
		*waits += (uint64_t)waited;
		*wait_ns += w;
		ns += w + hold_ns;
	}
	return ns;
}

/* @n packets sent over loopback from @cpu: the transmit lock's cost, 0 without it. */
static double lo_send(struct machine *m, unsigned cpu, unsigned n)
{
	if (!m->cont.net || !(m->cont.p->lo_hold_ns > 0) || !m->coh || !n)
		return 0;
	m->cst.lo_packets += n;
	return kernel_lock(m, &m->lo_lock, cpu, n, m->cont.p->lo_hold_ns, &m->cst.lo_waits,
			   &m->cst.lo_wait_ns);
}

/* One dbench operation's file-system locks, taken by @cpu: dcache_lock, and the LRU lock
 * of @cpu's node (pages are allocated on the node that runs the task). */
static double fs_op(struct machine *m, unsigned cpu)
{
	const struct cont_params *p = m->cont.p;
	double ns;

	if (!m->cont.fs || !m->coh)
		return 0;
	m->cst.fs_ops++;
	ns = kernel_lock(m, &m->dcache_lock, cpu, p->dcache_ops, p->dcache_hold_ns,
			 &m->cst.fs_waits, &m->cst.fs_wait_ns);
	ns += kernel_lock(m, &m->lru_lock[m->topo.lead[2][cpu]], cpu, p->lru_ops, p->lru_hold_ns,
			  &m->cst.fs_waits, &m->cst.fs_wait_ns);
	return ns;
}

/* A kernel step of @ns on @cpu inside @t's program: it runs as a burst; 0: none. */
static int kernel_step(struct mtask *t, double ns)
{
	if (!(ns > 0))
		return 0;
	t->remain = 1 + (uint64_t)ns;
	return 1;
}

/* Run @t's program until it starts a burst, blocks or exits. */
void mach_run_prog(struct machine *m, struct mtask *t, unsigned cpu)
{
	for (;;) {
		const struct wop *op = &t->prog[t->pc];

		switch (op->kind) {
		case OP_BURST: {
			double ns = m->work_scale > 0 ? op->ns * m->work_scale : op->ns;

			t->pc++;
			ns = op->exp ? mach_rnd_exp(m, ns) : ns;
			t->remain = m->cont.p ? mach_burst_ns(m, t, cpu, ns) : 1 + (uint64_t)ns;
			return;
		}
		case OP_SLEEP:
			t->pc++;
			t->remain = 0;
			mach_push(m, m->now + 1 + (uint64_t)(op->exp ? mach_rnd_exp(m, op->ns) : op->ns), EV_TIMER,
			     t->st.id, 0);
			mach_block_curr(m, cpu, 0);
			return;
		case OP_WAKE:
			deliver(m, t, op->arg, cpu);
			break;
		case OP_WAKE_TOK:
			wake_token(m, op->arg, op->n, cpu, op->exp);	/* exp: a sync wake */
			break;
		case OP_WAIT_TOK:
			if (!wait_token(m, t, op->n, cpu))
				return;	/* the op is done again when the wake resumes it */
			break;
		case OP_EXEC:
			if (m->ops->exec)
				m->ops->exec(m->s, &t->st, cpu);
			if (m->cont.numa) {
				/* exec maps a new image: its memory goes where it runs next, after
				 * sched_exec()'s move, which a 1 ns step lets happen first */
				t->home = 0;
				t->pc++;
				t->remain = 1;
				return;
			}
			break;
		case OP_SPAWN: {
			struct mtask *c = &m->t[op->arg];

			if (c->state == T_NEW) {
				mach_perf_fork(m, cpu, t, c);
				m->ops->task_new(m->s, &c->st, &t->st, cpu);
				mach_set_state(m, c, T_BLOCKED);
				mach_wake_task(m, c, cpu, SCHED_FORK);
			}
			break;
		}
		case OP_SEND:
			deliver(m, t, t->peer, cpu);
			t->pc++;
			if (!op->arg && kernel_step(t, lo_send(m, cpu, 1)))
				return;
			continue;
		case OP_NOTIFY:
			for (unsigned i = 0; i < t->room_n; i++)
				if (i != t->role_idx)
					deliver(m, t, t->room_lo + i, cpu);
			break;
		case OP_SEND_SRV:
			deliver(m, t, t->srv_lo + (unsigned)(mach_rnd64(m) % t->srv_n), cpu);
			t->pc++;
			if (kernel_step(t, lo_send(m, cpu, 1)))
				return;
			continue;
		case OP_BCAST:
			for (unsigned i = t->room_lo; i < t->room_lo + t->room_n; i++)
				if (i != t->st.id)
					deliver(m, t, i, cpu);
			t->pc++;
			if (kernel_step(t, lo_send(m, cpu, t->room_n - 1)))
				return;
			continue;
		case OP_REPLY:
			deliver(m, t, t->last_from, cpu);
			t->pc++;
			if (kernel_step(t, lo_send(m, cpu, 1)))
				return;
			continue;
		case OP_RECV:
			if (!t->mb_n && t->yielded < op->n) {
				/* a 2001 JVM's monitor: spin, yield, try again; block only
				 * after op->n yields (docs/workloads.md, volanomark) */
				t->yielded++;
				/* the JVM's spin is the workload's CPU work too: calibrated */
				t->remain = (uint64_t)(m->work_scale > 0 ? YIELD_SPIN_NS * m->work_scale
									 : YIELD_SPIN_NS);
				mach_yield_curr(m, cpu);
				return;
			}
			t->yielded = 0;
			if (!t->mb_n) {
				t->wait = W_MSG;
				t->remain = 0;
				mach_block_curr(m, cpu, 0);
				return;	/* the op is retried when a message wakes it */
			}
			t->last_from = t->mb[t->mb_head];
			t->mb_head = (t->mb_head + 1) % t->mb_cap;
			t->mb_n--;
			if (m->cont.net)
				mach_msg_read(m, t, cpu, m->t[t->last_from].send_cpu);
			break;
		case OP_COUNT:
			m->work += 1;
			if (m->cont.fs) {
				/* a dbench operation ends: its file-system locks */
				t->pc++;
				if (kernel_step(t, fs_op(m, cpu)))
					return;
				continue;
			}
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
			mach_block_curr(m, cpu, 0);
			return;
		case OP_END_ASLEEP:
			t->remain = 0;
			mach_block_curr(m, cpu, 0);	/* its last switch-out, as in Linux */
			m->live -= !t->bg;		/* but nothing will wake it */
			return;
		case OP_EXIT:
		default:
			if (t->parent >= 0) {
				struct mtask *p = &m->t[t->parent];

				p->children_live--;
				if (p->wait == W_CHILD && p->state == T_BLOCKED) {
					p->wait = W_NONE;
					mach_wake_task(m, p, cpu, SCHED_WAKE);
				}
			}
			mach_block_curr(m, cpu, 1);
			return;
		}
		t->pc++;
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
 * VolanoMark as its workload description has it (Hartner, IBM LTC, "VolanoMark 2.1.2 -
 * Workload Description"): per connection four Java threads, each a Linux process: a
 * client sender, a server receiver, a server sender and a client receiver. A client
 * sender's message goes over loopback to its server receiver, which wakes the other
 * users - 1 server senders of the room (a Java event: no packet), each of which sends it
 * over loopback to its client receiver. A room of U users is 4U tasks: senders, server
 * receivers, server senders, client receivers, U of each in connection order. A client
 * sender sends again once its receiver has had the round's U - 1 messages (the old
 * one-thread model's pacing, `relay=0`); Java event waits (a sender waiting for its
 * round, a server sender for work) spin and yield as VOLANO_YIELDS says, socket reads
 * block.
 */
static void volano_relay(struct mtask *t, unsigned i, unsigned users, unsigned yields)
{
	static struct wop cs[4], sr[4], ss[4], cr[6];
	unsigned room = i / (4 * users), role = i % (4 * users) / users, k = i % users;
	unsigned base = room * 4 * users;

	cs[0] = (struct wop){ OP_BURST, 8 * US, 1, 0, 0 };
	cs[1] = (struct wop){ OP_SEND, 0, 0, 0, 0 };
	cs[2] = (struct wop){ OP_RECV, 0, 0, 0, yields };
	cs[3] = (struct wop){ OP_LOOP, 0, 0, 0, 0 };
	sr[0] = (struct wop){ OP_RECV, 0, 0, 0, 0 };
	sr[1] = (struct wop){ OP_BURST, 3 * US, 1, 0, 0 };
	sr[2] = (struct wop){ OP_NOTIFY, 0, 0, 0, 0 };
	sr[3] = (struct wop){ OP_LOOP, 0, 0, 0, 0 };
	ss[0] = (struct wop){ OP_RECV, 0, 0, 0, yields };
	ss[1] = (struct wop){ OP_BURST, 3 * US, 1, 0, 0 };
	ss[2] = (struct wop){ OP_SEND, 0, 0, 0, 0 };
	ss[3] = (struct wop){ OP_LOOP, 0, 0, 0, 0 };
	cr[0] = (struct wop){ OP_RECV, 0, 0, 0, 0 };
	cr[1] = (struct wop){ OP_BURST, 3 * US, 1, 0, 0 };
	cr[2] = (struct wop){ OP_COUNT, 0, 0, 0, 0 };
	cr[3] = (struct wop){ OP_LOOP, 0, 0, 0, users - 1 };
	cr[4] = (struct wop){ OP_SEND, 0, 0, 1, 0 };	/* the round is in: wake the sender */
	cr[5] = (struct wop){ OP_LOOP, 0, 0, 0, 0 };
	t->role_idx = k;
	switch (role) {
	case 0:		/* client sender: to its server receiver */
		t->prog = cs;
		t->peer = base + users + k;
		break;
	case 1:		/* server receiver: wakes the room's server senders */
		t->prog = sr;
		t->room_lo = base + 2 * users;
		t->room_n = users;
		break;
	case 2:		/* server sender: to its client receiver */
		t->prog = ss;
		t->peer = base + 3 * users + k;
		break;
	default:	/* client receiver: counts, then wakes its sender */
		t->prog = cr;
		t->peer = base + k;
		break;
	}
}

/* The program workloads: parse k=v and lay out tasks and their programs. */
int mach_setup_prog(struct machine *m, const char *name, char *args, char *err, size_t len)
{
	unsigned clients = 8, threads = 16, backends = 8, cpu = 0, rooms = 4, users = 10,
		 jobs = 4, total = 40, groups = 1, group = 0, yields = VOLANO_YIELDS,
		 relay = 0;
	unsigned i, n = 0, nserv = 0;
	size_t k, nk = 0;
	uint64_t given;
	char what[64];
	/* Which workload (NULL: every one) takes which key, its range and where it goes. */
	const struct { const char *wl; struct hws_kv kv; } keys[] = {
		{ NULL, { "groups", HWS_KV_UNSIGNED, 1, SCHED_MAX_GROUPS, &groups } },
		{ NULL, { "group", HWS_KV_UNSIGNED, 0, SCHED_MAX_GROUPS - 1, &group } },
		{ "tbench", { "clients", HWS_KV_UNSIGNED, 1, MAX_TASKS / 2, &clients } },
		{ "dbench", { "clients", HWS_KV_UNSIGNED, 1, MAX_TASKS, &clients } },
		{ "sysbench", { "threads", HWS_KV_UNSIGNED, 1, MAX_TASKS, &threads } },
		{ "sysbench", { "backends", HWS_KV_UNSIGNED, 1, MAX_TASKS, &backends } },
		{ "sysbench", { "cpu", HWS_KV_UNSIGNED, 0, 1, &cpu } },
		{ "volanomark", { "rooms", HWS_KV_UNSIGNED, 1, MAX_TASKS, &rooms } },
		{ "volanomark", { "users", HWS_KV_UNSIGNED, 2, MAX_TASKS, &users } },
		{ "volanomark", { "yields", HWS_KV_UNSIGNED, 0, 1000, &yields } },
		{ "volanomark", { "relay", HWS_KV_UNSIGNED, 0, 1, &relay } },
		{ "kernbench", { "jobs", HWS_KV_UNSIGNED, 1, MAX_TASKS, &jobs } },
		{ "kernbench", { "total", HWS_KV_UNSIGNED, 1, MAX_TASKS - 1, &total } },
	};
	struct hws_kv kv[sizeof(keys) / sizeof(keys[0]) + MACH_CONT_KEYS + MACH_GENERIC_KEYS];
	struct mach_cont_keys ck;

	for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		if (!keys[k].wl || !strcmp(name, keys[k].wl))
			kv[nk++] = keys[k].kv;
	nk += mach_cont_keys(&ck, kv + nk);
	nk += mach_generic_keys(m, kv + nk);
	snprintf(what, sizeof(what), "workload %s", name);
	if (hws_parse_kv(what, args, kv, nk, &given, err, len))
		return -EINVAL;
	for (k = 0; k < nk; k++)	/* sysbench:cpu=1 runs no backends */
		if (!strcmp(kv[k].key, "backends") && (given >> k & 1) && cpu) {
			snprintf(err, len, "workload %s: backends=%u with cpu=1, which runs no "
				 "backends: it would do nothing", name, backends);
			return -EINVAL;
		}
	if ((given & 1) && (given & 2) && groups > 1) {
		snprintf(err, len, "workload %s: group=N puts every task in one group: not with "
			 "groups=%u", name, groups);
		return -EINVAL;
	}
	if (!strcmp(name, "tbench"))
		n = 2 * clients;
	else if (!strcmp(name, "dbench"))
		n = clients;
	else if (!strcmp(name, "sysbench"))
		n = threads + (cpu ? 0 : (nserv = backends));
	else if (!strcmp(name, "volanomark"))
		n = rooms * users * (relay ? 4 : 1);	/* at most 4 x 4096 x 4096: no overflow */
	else
		n = 1 + total;
	if (n > MAX_TASKS) {
		snprintf(err, len, "workload %s: %u tasks, at most %u", name, n, MAX_TASKS);
		return -EINVAL;
	}
	mach_cont_setup(m, name, &ck);
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

		mach_init_task(m, t, i);
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
		} else if (!strcmp(name, "volanomark") && relay) {
			volano_relay(t, i, (unsigned)users, (unsigned)yields);
		} else if (!strcmp(name, "volanomark")) {
			static struct wop user[7];

			user[0] = (struct wop){ OP_BURST, 8 * US, 1, 0, 0 };
			user[1] = (struct wop){ OP_BCAST, 0, 0, 0, 0 };
			user[2] = (struct wop){ OP_RECV, 0, 0, 0, (unsigned)yields };
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
	mach_perf_fork(m, cpu, parent, c);
	m->ops->task_new(m->s, &c->st, &parent->st, cpu);
	mach_set_state(m, c, T_BLOCKED);
	mach_wake_task(m, c, cpu, SCHED_FORK);
}
