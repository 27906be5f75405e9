/*
 * hws_m_irq.c - the model of rtl/hws_irq.v: the preemption interrupt (docs/accelerator.md
 * 4.6): CURR[c], IRQ_PEND (W1C), IRQ_EN, and the lines IRQ_PEND & IRQ_EN.
 */
#include "models/hws_model_int.h"

/* An address of the CURR window (section 4.6) of a CPU that exists, aligned. */
int hws_m_is_curr(const struct hws_model *m, uint32_t addr)
{
	return addr >= HWS_CURR_BASE && addr < HWS_CURR_BASE + 4 * m->p.nr_cpus && !(addr & 3u);
}

/* The mask of the CPUs that exist, as IRQ_PEND and IRQ_EN hold them. */
static uint64_t cpu_mask(const struct hws_model *m)
{
	return m->p.nr_cpus >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << m->p.nr_cpus) - 1;
}

/* Port @i's write, decoded by the front end as one of this unit's: recorded for the edge.
 * Returns through @e; the caller has checked the access. */
void hws_m_irq_decode(struct hws_model *m, struct edge_ctx *e, unsigned i)
{
	const struct bus_in *b = &e->in[i];

	if (b->waddr == HWS_REG_IRQ_PEND0 || b->waddr == HWS_REG_IRQ_PEND1) {
		e->w1c |= (uint64_t)b->data << (b->waddr == HWS_REG_IRQ_PEND1 ? 32 : 0);
	} else if (b->waddr == HWS_REG_IRQ_EN0 || b->waddr == HWS_REG_IRQ_EN1) {
		const int w = b->waddr == HWS_REG_IRQ_EN1;

		e->en_wr[w] = 1;	/* a later port's word replaces an earlier one's */
		e->en_data[w] = b->data;
	} else if (hws_m_is_curr(m, b->waddr)) {
		e->curr_cpu[i] = (int)((b->waddr - HWS_CURR_BASE) / 4);
	}
}

/* The registers at the edge; an engine built without the interrupt (IRQ=0) decodes the
 * same writes (answered OKAY) and keeps nothing. */
void hws_m_irq_step(struct hws_model *m, const struct edge_ctx *e)
{
	if (m->p.no_irq)
		return;
	m->irq_pend &= ~e->w1c;
	for (unsigned w = 0; w < 2; w++) {
		const unsigned sh = w ? 32 : 0;

		if (e->en_wr[w])
			m->irq_en = (m->irq_en & ~((uint64_t)0xffffffffu << sh)) |
				    ((uint64_t)e->en_data[w] << sh & cpu_mask(m));
	}
	for (unsigned i = 0; i < m->nports; i++)	/* port order: the last port's value stays */
		if (e->curr_cpu[i] >= 0)
			m->curr[e->curr_cpu[i]] = (uint8_t)(e->in[i].data & HWS_CURR_PRIO_MASK);
	if (e->pick_cpu >= 0) {
		m->curr[e->pick_cpu] = (uint8_t)e->pick_prio;
		m->irq_pend &= ~((uint64_t)1 << e->pick_cpu);
	}
	if (e->irq_set)
		m->irq_pend |= (uint64_t)1 << m->lnk_cpu;
}

uint64_t hws_model_irq_lines(const struct hws_model *m)
{
	return m->irq_pend & m->irq_en;
}
