/*
 * workload.c - the workloads: the keys every workload takes, the mix and hackbench
 * interpreters, and setup_workload(), which lays out the tasks of any workload (the
 * program workloads of programs.c, the replay of replay.c).
 */
#include "sim/machine/machine_int.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { R_MIX, R_SENDER, R_RECEIVER };

static struct mtask *receiver_of(struct machine *m, struct mtask *s, unsigned i)
{
	return &m->t[s->grp_idx * 40 + 20 + i];
}


/*
 * Keys every workload takes: nice=N (-20..19), rt=P (SCHED_RR priority 0..99, lower is
 * higher), cpus=N (affinity: CPUs 0..N-1). 1: taken, 0: not one of them, -EINVAL: a bad
 * value (@err names it, in workload @name).
 */
int mach_generic_key(struct machine *m, const char *kv, const char *name, char *err,
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

int mach_kv_double(const char *v, double *out)
{
	char *end;

	*out = strtod(v, &end);
	return end == v || *end || *out < 0 ? -1 : 0;
}

void mach_init_task(struct machine *m, struct mtask *t, unsigned i)
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

/*
 * The task has finished its burst (or is starting): decide what it does next. Runs on
 * @cpu at m->now, the task being curr there.
 */
void mach_next_action(struct machine *m, struct mtask *t, unsigned cpu)
{
	if (t->prog) {
		mach_run_prog(m, t, cpu);
		return;
	}
	for (;;) {
		if (t->role == R_MIX) {
			if (t->msgs++ > 0)
				m->work += 1;	/* a burst completed */
			if (mach_rnd64(m) % 1000 < (uint64_t)(m->mix_msg * 1000) && m->nt > 1) {
				struct mtask *o = &m->t[mach_rnd64(m) % m->nt];

				if (o != t && o->state == T_BLOCKED)
					mach_wake_task(m, o, cpu, SCHED_WAKE);
			}
			if (t->msgs > 1 && m->mix_sleep > 0 && mach_rnd64(m) % 2) {
				t->remain = 0;
				mach_push(m, m->now + (uint64_t)mach_rnd_exp(m, m->mix_sleep), EV_TIMER,
				     t->st.id, 0);
				mach_block_curr(m, cpu, 0);
				return;
			}
			t->remain = 1 + (uint64_t)mach_rnd_exp(m, m->mix_burst);
			return;
		}
		if (t->role == R_SENDER) {
			struct mtask *r;

			if (t->loops_left == 0) {
				mach_block_curr(m, cpu, 1);
				return;
			}
			r = receiver_of(m, t, t->sent_to);
			if (t->msgs == 1) {
				/* The message written by the last burst arrives. */
				t->msgs = 0;
				r->msgs++;
				if (r->state == T_BLOCKED)
					mach_wake_task(m, r, cpu, SCHED_WAKE);
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
				mach_block_curr(m, cpu, 0);
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
					mach_wake_task(m, s, cpu, SCHED_WAKE);
				}
			}
			t->waiting_sender = 0;
		}
		if (t->loops_left == 0) {
			mach_block_curr(m, cpu, 1);
			return;
		}
		if (t->msgs == 0) {
			mach_block_curr(m, cpu, 0);
			return;
		}
		t->msgs--;
		t->blocked_on_full = 1;	/* reading */
		t->remain = m->hb_recv_ns;
		return;
	}
}

int mach_setup_workload(struct machine *m, char *err, size_t len)
{
	char buf[256], *save = NULL, *kv, *name, *args;
	unsigned tasks = 16, i, g0 = 0;
	double groups = 0;

	if (m->o.trace)
		return mach_setup_replay(m, err, len);
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
		return mach_setup_prog(m, name, args, err, len);
	else {
		snprintf(err, len, "workload '%s': unknown (mix, hackbench, tbench, sysbench, "
			 "volanomark, kernbench, dbench)", name);
		return -EINVAL;
	}
	for (kv = args ? strtok_r(args, ",", &save) : NULL; kv; kv = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(kv, '=');
		double v;
		int gk = mach_generic_key(m, kv, name, err, len);

		if (gk < 0)
			return gk;
		if (gk)
			continue;

		if (!eq || mach_kv_double(eq + 1, &v)) {
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
