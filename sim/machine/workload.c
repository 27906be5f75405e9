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
 * Keys every workload takes, into @k (MACH_GENERIC_KEYS entries): nice=N (-20..19), rt=P
 * (SCHED_RR priority 0..99, lower is higher), cpus=N (affinity: CPUs 0..N-1, 1..the
 * topology's CPUs).
 */
size_t mach_generic_keys(struct machine *m, struct hws_kv *k)
{
	k[0] = (struct hws_kv){ "nice", HWS_KV_INT, -20, 19, &m->g_nice };
	k[1] = (struct hws_kv){ "rt", HWS_KV_INT, 0, 99, &m->g_rt };
	k[2] = (struct hws_kv){ "cpus", HWS_KV_UNSIGNED, 1, m->topo.nr_cpus, &m->g_cpus };
	return MACH_GENERIC_KEYS;
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
	t->pid = -1;
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
			if (mach_rnd64(m) % MIX_MSG_SCALE < m->mix_msg_pm && m->nt > 1) {
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
				r->msg_cpu = (int)cpu;
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
			if (m->cont.p)	/* remote memory, lines owed (contention.h) */
				t->remain = mach_burst_ns(m, t, cpu, (double)m->hb_send_ns) - 1;
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
		if (m->cont.p) {
			/* AF_UNIX: the message's lines come from its writer's CPU (the last
			 * writer's, for the pipe's messages); remote memory */
			mach_msg_read(m, t, cpu, t->msg_cpu);
			t->remain = mach_burst_ns(m, t, cpu, (double)m->hb_recv_ns) - 1;
		}
		return;
	}
}

int mach_setup_workload(struct machine *m, char *err, size_t len)
{
	char buf[256], *name, *args;
	unsigned tasks = 16, i, g0 = 0, groups = 0;

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
	{
		/* the ranges: docs/workloads.md */
		double burst_us = m->mix_burst / 1000.0, sleep_us = m->mix_sleep / 1000.0;
		struct hws_kv mix[6 + MACH_GENERIC_KEYS] = {
			{ "tasks", HWS_KV_UNSIGNED, 1, MAX_TASKS, &tasks },
			{ "burst", HWS_KV_DOUBLE, 1, 1e6, &burst_us },
			{ "sleep", HWS_KV_DOUBLE, 0, 1e7, &sleep_us },
			{ "msg", HWS_KV_DOUBLE, 0, 1, &m->mix_msg },
			{ "groups", HWS_KV_UNSIGNED, 1, SCHED_MAX_GROUPS, &groups },
			{ "g0", HWS_KV_UNSIGNED, 1, MAX_TASKS, &g0 },
		};
		struct hws_kv hb[2 + MACH_CONT_KEYS + MACH_GENERIC_KEYS] = {
			{ "groups", HWS_KV_UNSIGNED, 1, 100, &m->hb_groups },
			{ "loops", HWS_KV_UNSIGNED, 1, 1000000, &m->hb_loops },
		};
		struct hws_kv *keys = m->wl == 0 ? mix : hb;
		size_t n = m->wl == 0 ? 6 : 2;
		struct mach_cont_keys ck;
		uint64_t given = 0;	/* a bit per key of keys[] given */
		char what[64];

		if (m->wl == 1)
			n += mach_cont_keys(&ck, keys + n);
		n += mach_generic_keys(m, keys + n);
		snprintf(what, sizeof(what), "workload %s", name);
		if (hws_parse_kv(what, args, keys, n, &given, err, len))
			return -EINVAL;
		m->mix_burst = burst_us * 1000.0;
		m->mix_sleep = sleep_us * 1000.0;
		if (m->wl == 1) {
			/* calibration (calib.h): the writes' and reads' CPU time */
			mach_cont_setup(m, name, &ck);
			m->hb_send_ns = (uint64_t)llround((double)m->hb_send_ns * m->work_scale);
			m->hb_recv_ns = (uint64_t)llround((double)m->hb_recv_ns * m->work_scale);
		}
		if (m->wl == 0 && g0 > tasks) {
			snprintf(err, len, "workload %s: g0=%u is more than its %u tasks", name, g0,
				 tasks);
			return -EINVAL;
		}
		/* keys that would do nothing, and fractions finer than their resolution */
		if (m->wl == 0 && g0 && groups < 2) {
			snprintf(err, len, "workload %s: g0=%u puts tasks in group 0 beside the "
				 "others: it needs groups=2 or more (got %u), else it does nothing",
				 name, g0, groups ? groups : 1);
			return -EINVAL;
		}
		if (m->wl == 0) {
			double pm = m->mix_msg * MIX_MSG_SCALE;

			if (fabs(pm - nearbyint(pm)) > 1e-6) {
				snprintf(err, len, "workload %s: msg=%g is finer than the key's "
					 "resolution, 1/%d", name, m->mix_msg, MIX_MSG_SCALE);
				return -EINVAL;
			}
			m->mix_msg_pm = (unsigned)nearbyint(pm);
			if ((given & 1u << 3) && m->mix_msg_pm && tasks < 2) {	/* mix[3]: msg */
				snprintf(err, len, "workload %s: msg=%g sends to another task: with "
					 "tasks=1 there is none, so it does nothing", name, m->mix_msg);
				return -EINVAL;
			}
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

		mach_init_task(m, t, i);
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
