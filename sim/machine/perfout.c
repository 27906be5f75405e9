/*
 * perfout.c - the machine's own scheduling events as the `perf script` text of
 * `perf sched record` (machine_opts.perf_out, `--perf-out FILE`): the same events and
 * fields Linux's traces have (docs/trace.md, "Parsing"), so that the trace reader and
 * `hwsched trace-info` measure a simulated run exactly as they measure Linux.
 */
#include "sim/machine/machine_int.h"

#include <inttypes.h>

/* A task's pid and comm in the output: the trace's for a replay, else 1000 + id. */
static int pid_of(const struct mtask *t)
{
	return t->pid >= 0 ? t->pid : 1000 + (int)t->st.id;
}

static const char *comm_of(const struct machine *m, const struct mtask *t)
{
	(void)m;
	return t->comm ? t->comm : "task";
}

static int prio_of(const struct mtask *t)
{
	return t->st.rt_prio >= 0 ? t->st.rt_prio : (int)SCHED_NICE_0_PRIO + t->st.nice;
}

/* The header of a line on @cpu with @t (NULL: the idle task) as its task. */
static void head(struct machine *m, unsigned cpu, const struct mtask *t, const char *event)
{
	int pid = t ? pid_of(t) : 0;

	if (t)
		fprintf(m->perf, "%16s %6d/%-6d", comm_of(m, t), pid, pid);
	else
		fprintf(m->perf, "%16s %6d/%-6d", "swapper", 0, 0);
	fprintf(m->perf, " [%03u] %6llu.%06llu: sched:%s: ", cpu,
		(unsigned long long)(m->now / 1000000000ull),
		(unsigned long long)(m->now / 1000 % 1000000), event);
}

void mach_perf_switch(struct machine *m, unsigned cpu, struct mtask *prev, struct mtask *next,
		      char state)
{
	struct mcpu *c = &m->cpu[cpu];

	if (!m->perf || prev == next)
		return;
	if (prev) {
		head(m, cpu, prev, "sched_stat_runtime");
		fprintf(m->perf, "comm=%s pid=%d runtime=%" PRIu64 " [ns]\n", comm_of(m, prev),
			pid_of(prev), prev->runtime - c->perf_runtime0);
	}
	head(m, cpu, prev, "sched_switch");
	if (prev)
		fprintf(m->perf, "prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%c ==> ",
			comm_of(m, prev), pid_of(prev), prio_of(prev), state);
	else
		fprintf(m->perf, "prev_comm=swapper/%u prev_pid=0 prev_prio=120 prev_state=R ==> ",
			cpu);
	if (next)
		fprintf(m->perf, "next_comm=%s next_pid=%d next_prio=%d\n", comm_of(m, next),
			pid_of(next), prio_of(next));
	else
		fprintf(m->perf, "next_comm=swapper/%u next_pid=0 next_prio=120\n", cpu);
	c->perf_runtime0 = next ? next->runtime : 0;
}

void mach_perf_wake(struct machine *m, unsigned cpu, const struct mtask *t, int is_new,
		    unsigned target)
{
	if (!m->perf)
		return;
	head(m, cpu, m->cpu[cpu].curr, is_new ? "sched_wakeup_new" : "sched_waking");
	fprintf(m->perf, "comm=%s pid=%d prio=%d target_cpu=%03u\n", comm_of(m, t), pid_of(t),
		prio_of(t), target);
}

void mach_perf_migrate(struct machine *m, unsigned cpu, const struct mtask *t, unsigned from,
		       unsigned to)
{
	if (!m->perf || from == to)
		return;
	head(m, cpu, m->cpu[cpu].curr, "sched_migrate_task");
	fprintf(m->perf, "comm=%s pid=%d prio=%d orig_cpu=%u dest_cpu=%u\n", comm_of(m, t),
		pid_of(t), prio_of(t), from, to);
}

void mach_perf_fork(struct machine *m, unsigned cpu, const struct mtask *parent,
		    const struct mtask *child)
{
	if (!m->perf)
		return;
	head(m, cpu, parent, "sched_process_fork");
	fprintf(m->perf, "comm=%s pid=%d child_comm=%s child_pid=%d\n", comm_of(m, parent),
		pid_of(parent), comm_of(m, child), pid_of(child));
}
