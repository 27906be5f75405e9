/*
 * hws_m_lists.c - the model of rtl/hws_eng_lists.v: the per-task entries (queued, CPU,
 * priority, array) and the doubly linked lists; link, unlink, move, TASK_STAT
 * (docs/accelerator.md 2, 3). A link or unlink also updates the bitmap and the loads, as
 * the RTL's lists drive hws_eng_bitmap and hws_eng_loads at the same edge.
 */
#include "models/hws_model_int.h"

void hws_m_link(struct hws_model *m, unsigned t, unsigned cpu, unsigned parr, unsigned prio,
		int at_head)
{
	unsigned q = qidx(cpu, parr, prio);
	uint32_t *bm = m->bm[cpu * 2 + parr];

	if (!bm_test(bm, prio)) {
		m->head[q] = (uint16_t)t;
		m->tail[q] = (uint16_t)t;
		bm_set(bm, prio, 1);
	} else if (at_head) {
		m->next[t] = m->head[q];
		m->prev[m->head[q]] = (uint16_t)t;
		m->head[q] = (uint16_t)t;
	} else {
		m->prev[t] = m->tail[q];
		m->next[m->tail[q]] = (uint16_t)t;
		m->tail[q] = (uint16_t)t;
	}
	m->lnk_valid = 1;
	m->lnk_cpu = cpu;
	m->lnk_parr = parr;
	m->lnk_prio = prio;
	m->queued[t] = 1;
	m->t_cpu[t] = (uint8_t)cpu;
	m->t_prio[t] = (uint8_t)prio;
	m->t_arr[t] = (uint8_t)parr;
	hws_m_loads_add(m, t, cpu, parr, prio, 1);
}

void hws_m_unlink(struct hws_model *m, unsigned t)
{
	unsigned cpu = m->t_cpu[t], parr = m->t_arr[t], prio = m->t_prio[t];
	unsigned q = qidx(cpu, parr, prio);
	int is_head = m->head[q] == t, is_tail = m->tail[q] == t;

	if (is_head && is_tail)
		bm_set(m->bm[cpu * 2 + parr], prio, 0);
	else if (is_head)
		m->head[q] = m->next[t];
	else if (is_tail)
		m->tail[q] = m->prev[t];
	else {
		m->next[m->prev[t]] = m->next[t];
		m->prev[m->next[t]] = m->prev[t];
	}
	m->queued[t] = 0;
	hws_m_loads_add(m, t, cpu, parr, prio, -1);
}

/*
 * The moves (REQUEUE, SET_PRIO, MIGRATE): unlink @t, then link it at the tail of list
 * @prio of @cpu in the same logical array.
 */
void hws_m_move(struct hws_model *m, unsigned t, unsigned cpu, unsigned prio)
{
	unsigned logical = m->t_arr[t] ^ m->swap[m->t_cpu[t]];

	hws_m_unlink(m, t);
	hws_m_link(m, t, cpu, logical ^ m->swap[cpu], prio, 0);
}

uint32_t hws_m_task_stat(const struct hws_model *m, unsigned t, unsigned sel)
{
	if (sel == HWS_SEL_TASK_STAT_GROUP)
		return m->grp[t];
	if (!m->queued[t])
		return 0;
	if (sel == HWS_SEL_TASK_STAT_WEIGHT)
		return hws_m_task_weight(m, t, m->t_prio[t]);
	return 1u << HWS_TINFO_QUEUED_LSB |
	       (uint32_t)(m->t_arr[t] ^ m->swap[m->t_cpu[t]]) << HWS_TINFO_ARRAY_LSB |
	       (uint32_t)m->t_cpu[t] << HWS_TINFO_CPU_LSB |
	       (uint32_t)m->t_prio[t] << HWS_TINFO_PRIO_LSB;
}
