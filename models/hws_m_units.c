/*
 * hws_m_units.c - the model's unit boundary values (include/hws/units.h), each from the
 * state of the file that mirrors its RTL unit, for a lockstep pair to compare with the
 * RTL's ports; and faults injected into one unit, for the tests of that comparison.
 */
#include "models/hws_model_int.h"

#include <errno.h>
#include <string.h>

/* Quiescent: no command in flight, every command FIFO empty (include/hws/units.h). */
static int quiescent(const struct hws_model *m)
{
	if (m->run[0].busy || m->run[1].busy)
		return 0;
	for (unsigned i = 0; i < m->nports; i++)
		if (m->port[i].cmdf.n)
			return 0;
	return 1;
}

int hws_model_units(const struct hws_model *m, struct hws_units *u)
{
	const struct hws_params *p = &m->p;

	if (!quiescent(m))
		return -EAGAIN;
	u->nr_cpus = p->nr_cpus;
	u->nr_tasks = p->nr_tasks;
	u->fe_eligible = 0;	/* every command FIFO empty */
	u->arb_win = m->rr;	/* no port eligible: hws_arbiter's win_o is rr_q */
	u->seq_busy = u->seq_two = 0;
	for (unsigned k = 0; k * 32 < p->nr_tasks; k++) {
		const unsigned n = p->nr_tasks - k * 32 < 32 ? p->nr_tasks - k * 32 : 32;
		const uint8_t *q = &m->queued[k * 32];
		uint32_t w = 0;

		for (unsigned b = 0; b < n; b++)
			w |= (uint32_t)q[b] << b;
		u->queued[k] = w;
	}
	u->idle = u->swap = 0;
	for (unsigned c = 0; c < p->nr_cpus; c++) {
		u->nr[c * 2] = m->nr[c * 2];
		u->nr[c * 2 + 1] = m->nr[c * 2 + 1];
		u->load[c] = m->load[c];
		u->hist[c] = m->hist[c];
		u->idle |= (uint64_t)m->idle[c] << c;
		u->swap |= (uint64_t)m->swap[c] << c;
	}
	memcpy(u->bal, m->bal, sizeof(u->bal));
	u->irq_pend = m->irq_pend;
	u->irq_en = m->irq_en;
	return 0;
}

int hws_model_inject_unit_fault(struct hws_model *m, enum hws_unit unit)
{
	switch (unit) {
	case HWS_UNIT_ARBITER:
		if (m->nports < 2)
			return -ENOTSUP;	/* one port: the pointer has one value */
		m->rr = (m->rr + 1) % m->nports;
		return 0;
	case HWS_UNIT_LISTS:
		m->queued[m->p.nr_tasks - 1] ^= 1;
		return 0;
	case HWS_UNIT_LOADS:
		m->load[0]++;
		return 0;
	case HWS_UNIT_DOMAIN:
		m->bal[0] ^= 1;
		return 0;
	case HWS_UNIT_IRQ:
		if (m->p.no_irq)
			return -ENOTSUP;
		m->irq_en ^= 1;
		return 0;
	default:
		return -ENOTSUP;
	}
}
