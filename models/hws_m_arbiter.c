/*
 * hws_m_arbiter.c - the model of rtl/hws_arbiter.v: the round-robin choice among the
 * ports whose head may start (docs/accelerator.md 4.5), and its pointer rr.
 */
#include "models/hws_model_int.h"

/*
 * The first eligible port from rr on, when the engine is idle or completes now (condition
 * 2; with PIPE = 1 the chosen port's head may instead be popped beside the older command,
 * decided after the completion: hws_m_seq_pop()). A window read's command needs no room in
 * the result FIFO.
 */
void hws_m_arbiter(const struct hws_model *m, struct edge_ctx *e)
{
	const unsigned np = m->nports;

	e->win = m->rr;
	e->chosen = 0;
	e->pop = 0;
	for (unsigned k = 0; k < np; k++) {
		const unsigned i = (m->rr + k) % np;
		const struct port *pt = &m->port[i];

		if (pt->cmdf.n > 0 &&
		    (pt->resf.n + 2 <= m->p.res_depth || pt->cmdf.tag[pt->cmdf.head])) {
			e->win = i;
			e->chosen = 1;
			e->pop = !m->run[0].busy ||
				 (e->done && !m->run[1].busy && !m->run[0].sfail);
			break;
		}
	}
}

/* A command started from port @win: the pointer moves past it. */
void hws_m_arbiter_started(struct hws_model *m, unsigned win)
{
	m->rr = (win + 1) % m->nports;
}
