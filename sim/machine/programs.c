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

/* Run @t's program until it starts a burst, blocks or exits. */
void mach_run_prog(struct machine *m, struct mtask *t, unsigned cpu)
{
	for (;;) {
		const struct wop *op = &t->prog[t->pc];

		switch (op->kind) {
		case OP_BURST:
			t->pc++;
			t->remain = 1 + (uint64_t)(op->exp ? mach_rnd_exp(m, op->ns) : op->ns);
			return;
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
		case OP_EXEC:
			if (m->ops->exec)
				m->ops->exec(m->s, &t->st, cpu);
			break;
		case OP_SPAWN: {
			struct mtask *c = &m->t[op->arg];

			if (c->state == T_NEW) {
				m->ops->task_new(m->s, &c->st, &t->st, cpu);
				mach_set_state(m, c, T_BLOCKED);
				mach_wake_task(m, c, cpu, SCHED_FORK);
			}
			break;
		}
		case OP_SEND:
			deliver(m, t, t->peer, cpu);
			break;
		case OP_SEND_SRV:
			deliver(m, t, t->srv_lo + (unsigned)(mach_rnd64(m) % t->srv_n), cpu);
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
			if (!t->mb_n && t->yielded < op->n) {
				/* a 2001 JVM's monitor: spin, yield, try again; block only
				 * after op->n yields (docs/workloads.md, volanomark) */
				t->yielded++;
				t->remain = (uint64_t)YIELD_SPIN_NS;
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
			mach_block_curr(m, cpu, 0);
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

/* The program workloads: parse k=v and lay out tasks and their programs. */
int mach_setup_prog(struct machine *m, const char *name, char *args, char *err, size_t len)
{
	unsigned clients = 8, threads = 16, backends = 8, cpu = 0, rooms = 4, users = 10,
		 jobs = 4, total = 40, groups = 1, group = 0, yields = VOLANO_YIELDS;
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
		{ "kernbench", { "jobs", HWS_KV_UNSIGNED, 1, MAX_TASKS, &jobs } },
		{ "kernbench", { "total", HWS_KV_UNSIGNED, 1, MAX_TASKS - 1, &total } },
	};
	struct hws_kv kv[sizeof(keys) / sizeof(keys[0]) + MACH_GENERIC_KEYS];

	for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		if (!keys[k].wl || !strcmp(name, keys[k].wl))
			kv[nk++] = keys[k].kv;
	nk += mach_generic_keys(m, kv + nk);
	snprintf(what, sizeof(what), "workload %s", name);
	if (hws_parse_kv(what, args, kv, nk, &given, err, len))
		return -EINVAL;
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
		n = rooms * users;	/* at most 4096 x 4096: no overflow */
	else
		n = 1 + total;
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
	m->ops->task_new(m->s, &c->st, &parent->st, cpu);
	mach_set_state(m, c, T_BLOCKED);
	mach_wake_task(m, c, cpu, SCHED_FORK);
}
