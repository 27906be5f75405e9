/*
 * hws_m_loads.c - the model of rtl/hws_eng_loads.v: the per-CPU task counts, loads, load
 * history, idle flags and array swap flags; the per-task group and weight; the group loads
 * (docs/accelerator.md 3, 8); CPU_STAT and LCU_STAT's words.
 */
#include "models/hws_model_int.h"

#include "lib/hws_weight.h"

/* The load weight of task @t when on list @prio: its SET_WEIGHT priority once set. */
uint32_t hws_m_task_weight(const struct hws_model *m, unsigned t, unsigned prio)
{
	return hws_weight_of(m->wfix[t] ? m->wprio[t] : prio);
}

/* A link (@sign 1) or unlink (-1) of task @t on list (@cpu, @parr, @prio): the counts. */
void hws_m_loads_add(struct hws_model *m, unsigned t, unsigned cpu, unsigned parr,
		     unsigned prio, int sign)
{
	const uint32_t w = hws_m_task_weight(m, t, prio);

	if (sign > 0) {
		m->nr[cpu * 2 + parr]++;
		m->load[cpu] += w;
		m->gload[cpu * m->p.nr_groups + m->grp[t]] += w;
		m->gtotal[m->grp[t]] += w;
	} else {
		m->nr[cpu * 2 + parr]--;
		m->load[cpu] -= w;
		m->gload[cpu * m->p.nr_groups + m->grp[t]] -= w;
		m->gtotal[m->grp[t]] -= w;
	}
}

uint32_t hws_m_cpu_stat(const struct hws_model *m, unsigned cpu, unsigned sel)
{
	unsigned act = m->swap[cpu];

	switch (sel) {
	case HWS_SEL_CPU_STAT_NR_RUNNING:
		return m->nr[cpu * 2] + m->nr[cpu * 2 + 1];
	case HWS_SEL_CPU_STAT_NR_ACTIVE:
		return m->nr[cpu * 2 + act];
	case HWS_SEL_CPU_STAT_NR_EXPIRED:
		return m->nr[cpu * 2 + (act ^ 1)];
	case HWS_SEL_CPU_STAT_LOAD:
		return m->load[cpu];
	case HWS_SEL_CPU_STAT_SWAP:
		return act;
	}
	return hws_m_bm_chunk(m, cpu, sel);
}

uint32_t hws_m_lcu_stat(const struct hws_model *m, unsigned cpu, unsigned sel, unsigned g)
{
	uint32_t h = m->hist[cpu], l = m->load[cpu], mask = 0;
	unsigned c, base;

	switch (sel) {
	case HWS_SEL_LCU_STAT_HIST:
		return h;
	case HWS_SEL_LCU_STAT_SOURCE_LOAD:
		return h < l ? h : l;
	case HWS_SEL_LCU_STAT_TARGET_LOAD:
		return h > l ? h : l;
	case HWS_SEL_LCU_STAT_GROUP_LOAD:
		return m->gload[cpu * m->p.nr_groups + g];
	case HWS_SEL_LCU_STAT_GROUP_TOTAL:
		return m->gtotal[g];
	}
	base = (sel - HWS_SEL_LCU_STAT_IDLE0) * 16;
	for (c = base; c < base + 16 && c < m->p.nr_cpus; c++)
		mask |= (uint32_t)m->idle[c] << (c - base);
	return mask;
}

/* SET_WEIGHT: @t's load weight follows @wp from now on; a queued task's load changes. */
void hws_m_set_weight(struct hws_model *m, unsigned t, unsigned wp)
{
	unsigned cpu = m->t_cpu[t], g = m->grp[t];
	uint32_t old = hws_m_task_weight(m, t, m->t_prio[t]), w = hws_weight_of(wp);

	m->wprio[t] = (uint8_t)wp;
	m->wfix[t] = 1;
	if (m->queued[t]) {
		m->load[cpu] += w - old;
		m->gload[cpu * m->p.nr_groups + g] += w - old;
		m->gtotal[g] += w - old;
	}
}

/* Move task @t (queued or not) to group @g, carrying its weight if it is queued. */
void hws_m_set_group(struct hws_model *m, unsigned t, unsigned g)
{
	unsigned old = m->grp[t], cpu = m->t_cpu[t];
	uint32_t w = hws_m_task_weight(m, t, m->t_prio[t]);

	if (m->queued[t]) {
		m->gload[cpu * m->p.nr_groups + old] -= w;
		m->gtotal[old] -= w;
		m->gload[cpu * m->p.nr_groups + g] += w;
		m->gtotal[g] += w;
	}
	m->grp[t] = (uint8_t)g;
}

/* LOAD_TICK: the history decays toward the load now. */
void hws_m_load_tick(struct hws_model *m, unsigned cpu)
{
	m->hist[cpu] = (uint32_t)(((uint64_t)m->hist[cpu] + m->load[cpu]) >> 1);
}
