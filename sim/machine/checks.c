/*
 * checks.c - the online checks: conservation of tasks after every event (the
 * scheduler's queues against the machine's states) and the idle-core invariant of
 * Lozi et al. 2016 at every tick.
 */
#include "sim/machine/machine_int.h"

#include <string.h>

void mach_check_conservation(struct machine *m, int deep)
{
	unsigned q = m->nstate[T_QUEUED], c, run = m->nstate[T_RUNNING], i, n[T_DEAD + 1] = { 0 };

	for (c = 0; c < m->topo.nr_cpus; c++) {
		struct mtask *t = m->cpu[c].curr;

		if (t && t->state != T_RUNNING)
			mach_fail(m, "CPU %u runs task %u, which is not in the running state", c,
			     t->st.id);
		q -= m->ops->nr_queued(m->s, c);
		run -= t != NULL;
	}
	if (q || run)
		mach_fail(m, "conservation: the scheduler's queues and the machine disagree by %d "
			"queued / %d running tasks at %.6f s", (int)q, (int)run, m->now / 1e9);
	m->checks++;
	if (!deep)
		return;
	/* The counts the per-event check trusts, against the tasks themselves. */
	for (i = 0; i < m->nt; i++)
		n[m->t[i].state]++;
	if (memcmp(n, m->nstate, sizeof(n)))
		mach_fail(m, "conservation: the machine's state counts (%u queued, %u running) do not "
			"match its tasks (%u, %u)", m->nstate[T_QUEUED], m->nstate[T_RUNNING],
		     n[T_QUEUED], n[T_RUNNING]);
	for (i = 0; i < m->nt; i++) {
		struct mtask *t = &m->t[i];
		int w = m->ops->where(m->s, &t->st);

		if (t->state == T_QUEUED && w != t->qcpu && !m->ops->global_queue)
			mach_fail(m, "task %u: the machine has it queued on CPU %d, the scheduler on %d",
			     i, t->qcpu, w);
		if ((t->state == T_BLOCKED || t->state == T_DEAD) && w >= 0)
			mach_fail(m, "task %u is %s but the scheduler has it queued on CPU %d", i,
			     t->state == T_DEAD ? "dead" : "blocked", w);
	}
}

/* The idle-core invariant: an idle CPU while a task waits longer than a balance period. */
void mach_check_idle_core(struct machine *m, unsigned cpu)
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
