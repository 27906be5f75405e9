/*
 * stats.c - the results of a finished run (struct machine_result): throughput, wakeup
 * latency percentiles, switches, busy time, scheduler overhead, the CPU share of each
 * task group beside its entitlement, and the per-task table.
 */
#include "sim/machine/machine_int.h"

#include <stdlib.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median of the latencies whose path (m->lat_path) passes @want; count in *@n. */
static double path_median(const struct machine *m, int (*want)(unsigned p, unsigned arg),
			  unsigned arg, uint64_t *n, double *tmp)
{
	size_t i, k = 0;

	for (i = 0; i < m->nlat; i++)
		if (want(m->lat_path[i], arg))
			tmp[k++] = m->lat[i];
	*n = k;
	if (!k)
		return 0;
	qsort(tmp, k, sizeof(double), cmp_double);
	return tmp[k / 2];
}

static int path_is(unsigned p, unsigned arg)
{
	return (p & ~(unsigned)LAT_DEEP) == arg;
}

static int idle_remote_deep(unsigned p, unsigned deep)
{
	return p == (TRACE_PATH_IDLE_REMOTE | (deep ? LAT_DEEP : 0u));
}

/* p50, p90, p99 and max of the wakeup latencies, all and by wake path. */
static void latencies(struct machine *m, struct machine_result *r)
{
	double *tmp;
	unsigned p;

	r->wakeups = m->nlat;
	if (!m->nlat)
		return;
	tmp = malloc(m->nlat * sizeof(*tmp));
	if (!tmp) {
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
	for (p = 0; p < TRACE_PATH_NR; p++)
		r->path_p50_us[p] = path_median(m, path_is, p, &r->path_n[p], tmp);
	r->idle_short_p50_us = path_median(m, idle_remote_deep, 0, &r->idle_short_n, tmp);
	r->idle_deep_p50_us = path_median(m, idle_remote_deep, 1, &r->idle_deep_n, tmp);
	free(tmp);
	qsort(m->lat, m->nlat, sizeof(double), cmp_double);
	r->wake_lat_us[0] = m->lat[m->nlat / 2];
	r->wake_lat_us[1] = m->lat[m->nlat * 9 / 10];
	r->wake_lat_us[2] = m->lat[m->nlat * 99 / 100];
	r->wake_lat_us[3] = m->lat[m->nlat - 1];
}

/* Busy % per CPU (closing the busy stretch of a CPU still running) and the overhead. */
static void busy(struct machine *m, struct machine_result *r)
{
	double ov = 0;
	unsigned c;

	for (c = 0; c < m->topo.nr_cpus; c++) {
		if (m->cpu[c].curr)
			m->cpu[c].busy_ns += m->now - m->cpu[c].busy_since;
		r->busy_pct[c] = m->now ? 100.0 * (double)m->cpu[c].busy_ns / (double)m->now : 0;
		ov += m->cpu[c].overhead;
	}
	r->sched_overhead_pct = m->now ? 100.0 * ov / ((double)m->now * m->topo.nr_cpus) : 0;
}

/*
 * Water-filling of the CPU among groups that want @want: a group cannot use more than
 * @cap (its tasks' share of the usable CPUs); what it cannot use goes to the others in
 * proportion. @got receives each group's share; returns what is left unassigned.
 */
static double water_fill(const double *want, const double *cap, int *open, double *got)
{
	double left = 1, shares;
	int more = 1;
	unsigned i;

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
	return left;
}

/*
 * Each group's CPU share, and its entitlement as the firmware divides the CPU: each
 * root-group task counts by its own weight, each other group with tasks by its shares
 * (docs/firmware.md); the split a machine busy with all of them would give, on the CPUs
 * the tasks may use (the union of their affinities).
 */
static void groups(struct machine *m, struct machine_result *r)
{
	double want[SCHED_MAX_GROUPS] = { 0 }, cap[SCHED_MAX_GROUPS] = { 0 };
	double got[SCHED_MAX_GROUPS] = { 0 }, tot = 0, left;
	int open[SCHED_MAX_GROUPS] = { 0 };
	uint64_t usable = 0;
	unsigned i;

	r->nr_groups = m->ngroups;
	for (i = 0; i < m->nt; i++) {
		unsigned g = m->t[i].st.group % SCHED_MAX_GROUPS;

		if (g == 0)
			want[0] += hws_weight_of((unsigned)(SCHED_NICE_0_PRIO + m->t[i].st.nice));
		else
			want[g] = m->shares[g];
	}
	for (i = 0; i < m->nt; i++)
		usable |= m->t[i].st.allowed;
	for (i = 0; i < m->nt; i++)
		cap[m->t[i].st.group % SCHED_MAX_GROUPS] += 1.0 / __builtin_popcountll(usable);
	for (i = 0; i < m->ngroups && i < SCHED_MAX_GROUPS; i++) {
		tot += m->group_time[i];
		open[i] = want[i] > 0;
	}
	left = water_fill(want, cap, open, got);
	for (i = 0; i < m->ngroups && i < SCHED_MAX_GROUPS; i++) {
		r->group_share[i] = tot ? m->group_time[i] / tot : 0;
		r->group_entitled[i] = got[i] / (1 - left);
	}
}

/* The per-task table (NULL tasks when out of memory: the report then has no table). */
static void tasks(struct machine *m, struct machine_result *r)
{
	unsigned i;

	r->tasks = calloc(m->nt, sizeof(*r->tasks));
	if (!r->tasks)
		return;
	r->ntasks = m->nt;
	for (i = 0; i < m->nt; i++) {
		struct mtask *t = &m->t[i];
		struct machine_task_stat *ts = &r->tasks[i];

		ts->id = i;
		ts->group = t->st.group;
		ts->pid = t->pid;
		ts->bg = t->bg;
		if (t->comm)
			snprintf(ts->comm, sizeof(ts->comm), "%s", t->comm);
		ts->runtime_ms = t->runtime / 1e6;
		ts->switches = t->nout;
		ts->delay_avg_us = t->ndelay ? t->delay_sum / t->ndelay : 0;
		ts->delay_max_us = t->delay_max;
	}
}

void mach_results(struct machine *m, struct machine_result *r)
{
	r->sim_ns = m->now;
	r->events = m->events;
	r->nr_cpus = m->topo.nr_cpus;
	r->work_units = m->work * (m->wl == 2 ? m->unit_scale : 1);
	r->unit = m->wl == 0 ? "bursts/s" : m->wl == 1 ? "messages/s" : m->unit;
	r->throughput = m->now ? r->work_units / (m->now / 1e9) : 0;
	r->makespan_s = m->live ? 0 : (m->now - m->wl_start) / 1e9;
	latencies(m, r);
	r->rq_wait_ms = m->rq_wait / 1e6;
	r->switches = m->vol + m->invol;
	r->vol_switches = m->vol;
	r->invol_switches = m->invol;
	r->migrations = m->mig_wakeup + m->mig_other;
	r->mig_wakeup = m->mig_wakeup;
	r->mig_other = m->mig_other;
	r->held_wakes = m->held_wakes;
	r->idle_core_violations = m->violations;
	r->has_smt = m->topo.smt > 1 && m->topo.cores > 1;
	r->smt_share_ms = (double)(m->smt_bad_ns +
				   (m->smt_bad_pkgs ? m->now - m->smt_bad_since : 0)) / 1e6;
	r->smt_share_pct = m->now ? 100.0 * r->smt_share_ms * 1e6 / (double)m->now : 0;
	r->conservation_checks = m->checks;
	mach_cont_results(m, r);
	busy(m, r);
	groups(m, r);
	tasks(m, r);
}
