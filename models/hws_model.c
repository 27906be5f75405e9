/*
 * hws_model.c - the model of rtl/hws_top.v: create, reset, the edge (the units in the
 * order their signals flow), CMD_DONE, CYCLES and the error registers; the invariants
 * (docs/accelerator.md 6). The units are one file each (hws_model_int.h lists them); see
 * hws_model.h and docs/accelerator.md. Every rule cites the section of the spec it follows.
 */
#include "models/hws_model_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const uint8_t hws_m_op_lat[16] = {
#define X(name, code, lat, res) [code] = lat,
	HWS_FOR_EACH_OP(X)
#undef X
};

const uint8_t hws_m_op_has_result[16] = {
#define X(name, code, lat, res) [code] = res,
	HWS_FOR_EACH_OP(X)
#undef X
};

const uint8_t hws_m_op_defined[16] = {
#define X(name, code, lat, res) [code] = 1,
	HWS_FOR_EACH_OP(X)
#undef X
};

/* What CTRL.ERR_CLEAR clears (and reset, with the rest). */
void hws_m_clear_errors(struct hws_model *m)
{
	m->err_last = 0;
	m->err_cmd = 0;
	m->err_seq = 0;
	m->err_total = 0;
	memset(m->err_cnt, 0, sizeof(m->err_cnt));
	for (unsigned i = 0; i < m->nports; i++)
		m->port[i].err_sticky = 0;
}

/* What a soft reset clears: everything but the bus state. */
void hws_m_reset_core(struct hws_model *m)
{
	const struct hws_params *p = &m->p;

	memset(m->queued, 0, p->nr_tasks);
	memset(m->bm, 0, sizeof(*m->bm) * p->nr_cpus * 2);
	memset(m->nr, 0, sizeof(*m->nr) * p->nr_cpus * 2);
	memset(m->load, 0, sizeof(*m->load) * p->nr_cpus);
	memset(m->swap, 0, p->nr_cpus);
	memset(m->hist, 0, sizeof(*m->hist) * p->nr_cpus);
	memset(m->grp, 0, p->nr_tasks);
	memset(m->wprio, 0, p->nr_tasks);
	memset(m->wfix, 0, p->nr_tasks);
	memset(m->gload, 0, sizeof(*m->gload) * p->nr_cpus * p->nr_groups);
	memset(m->gtotal, 0, sizeof(*m->gtotal) * p->nr_groups);
	memset(m->idle, 0, p->nr_cpus);
	hws_m_domain_reset(m);
	for (unsigned i = 0; i < m->nports; i++) {
		struct port *pt = &m->port[i];

		memset(&pt->cmdf, 0, sizeof(pt->cmdf));
		memset(&pt->resf, 0, sizeof(pt->resf));
		pt->qcnt = 0;
		pt->pop_issued = 0;
		pt->pop_ready = 0;
		pt->pop_word = 0;
	}
	memset(m->run, 0, sizeof(m->run));
	m->rr = 0;
	memset(m->curr, HWS_CURR_IDLE, sizeof(m->curr));
	m->irq_pend = 0;
	m->irq_en = 0;
	m->lnk_valid = 0;
	m->cmd_done = 0;
	m->cycles = 0;
	hws_m_clear_errors(m);
}

void hws_model_reset(struct hws_model *m)
{
	hws_m_reset_core(m);
	for (unsigned i = 0; i < m->nports; i++) {
		struct port *pt = &m->port[i];

		pt->rpend = 0;
		pt->raddr = 0;
		pt->aw_held = pt->w_held = pt->bvalid = pt->rvalid = 0;
		pt->awaddr = pt->wdata = pt->wstrb = pt->bresp = pt->rdata = pt->rresp = 0;
	}
}

int hws_model_create(struct hws_model **out, const struct hws_params *p)
{
	struct hws_model *m;
	size_t nq;
	int ret;

	ret = hws_params_check(p, NULL, 0);
	if (ret)
		return ret;
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->p = *p;
	m->nports = p->nr_ports ? p->nr_ports : 1;
	nq = (size_t)p->nr_cpus * 2 * NPRIO;
	m->queued = calloc(p->nr_tasks, 1);
	m->t_cpu = calloc(p->nr_tasks, 1);
	m->t_prio = calloc(p->nr_tasks, 1);
	m->t_arr = calloc(p->nr_tasks, 1);
	m->next = calloc(p->nr_tasks, sizeof(*m->next));
	m->prev = calloc(p->nr_tasks, sizeof(*m->prev));
	m->head = calloc(nq, sizeof(*m->head));
	m->tail = calloc(nq, sizeof(*m->tail));
	m->bm = calloc((size_t)p->nr_cpus * 2, sizeof(*m->bm));
	m->nr = calloc((size_t)p->nr_cpus * 2, sizeof(*m->nr));
	m->load = calloc(p->nr_cpus, sizeof(*m->load));
	m->swap = calloc(p->nr_cpus, 1);
	m->hist = calloc(p->nr_cpus, sizeof(*m->hist));
	m->grp = calloc(p->nr_tasks, 1);
	m->wprio = calloc(p->nr_tasks, 1);
	m->wfix = calloc(p->nr_tasks, 1);
	m->gload = calloc((size_t)p->nr_cpus * p->nr_groups, sizeof(*m->gload));
	m->gtotal = calloc(p->nr_groups, sizeof(*m->gtotal));
	m->idle = calloc(p->nr_cpus, 1);
	if (!m->queued || !m->t_cpu || !m->t_prio || !m->t_arr || !m->next || !m->prev ||
	    !m->head || !m->tail || !m->bm || !m->nr || !m->load || !m->swap || !m->hist ||
	    !m->grp || !m->wprio || !m->wfix || !m->gload || !m->gtotal || !m->idle) {
		hws_model_destroy(m);
		return -ENOMEM;
	}
	hws_model_reset(m);
	*out = m;
	return 0;
}

void hws_model_destroy(struct hws_model *m)
{
	if (!m)
		return;
	free(m->queued);
	free(m->t_cpu);
	free(m->t_prio);
	free(m->t_arr);
	free(m->next);
	free(m->prev);
	free(m->head);
	free(m->tail);
	free(m->bm);
	free(m->nr);
	free(m->load);
	free(m->swap);
	free(m->hist);
	free(m->grp);
	free(m->wprio);
	free(m->wfix);
	free(m->gload);
	free(m->gtotal);
	free(m->idle);
	free(m);
}

/* ---- Errors and the edge (rtl/hws_top.v) ---- */

static void record_err(struct hws_model *m, unsigned code, uint32_t info, uint32_t seq)
{
	m->err_last = code;
	m->err_cmd = info;
	m->err_seq = seq;
	m->err_total++;
	if (!m->p.no_err_counters)	/* not built: ERR_CNTn stay 0 */
		m->err_cnt[code]++;
	for (unsigned i = 0; i < m->nports; i++)
		m->port[i].err_sticky = 1;
}

/* Errors: clear first, then the engine's, then each port's write and read (the last
 * recorded is the one ERR_LAST shows). */
static void errors_step(struct hws_model *m, const struct edge_ctx *e)
{
	if (e->err_clear)
		hws_m_clear_errors(m);
	hws_m_fe_clear_sticky(m, e);
	if (e->eng_err)
		record_err(m, e->eng_err, e->ran.cmd, e->done_before);
	for (unsigned i = 0; i < m->nports; i++) {
		if (e->wr_err[i])
			record_err(m, e->wr_err[i], e->wr_info[i], e->done_before);
		if (e->rd_err[i])
			record_err(m, e->rd_err[i], e->rd_info[i], e->done_before);
	}
}

/* One edge, every port's bus at once (@in and @out: m->nports each): the units in the
 * order rtl/hws_top.v's signals flow, every decision on the state just before the edge. */
void hws_m_edge(struct hws_model *m, const struct bus_in *in, struct bus_out *out)
{
	struct edge_ctx e;

	e.in = in;
	e.out = out;
	e.done_before = m->cmd_done;
	e.done = m->run[0].busy && m->run[0].step == m->run[0].lat;
	e.ran = m->run[0];
	e.err_clear = e.soft = 0;
	e.w1c = 0;
	e.en_wr[0] = e.en_wr[1] = 0;
	e.en_data[0] = e.en_data[1] = 0;
	e.pick_cpu = -1;
	e.pick_prio = 0;
	e.irq_set = 0;
	e.eng_err = 0;
	e.res = e.popped = 0;
	e.has_res = e.popped_tag = 0;
	hws_m_arbiter(m, &e);
	hws_m_fe_decode(m, &e);
	if (e.soft) {	/* the bus state stays; the reads latched above keep their words */
		hws_m_reset_core(m);
		return;
	}
	hws_m_fe_read_effects(m, &e);
	hws_m_seq_complete(m, &e);
	hws_m_irq_step(m, &e);
	hws_m_fe_route_result(m, &e);
	hws_m_seq_pop(m, &e);
	hws_m_fe_push(m, &e);
	errors_step(m, &e);
	m->cycles++;
	hws_m_seq_advance(m, &e);
}

uint64_t hws_model_overlaps(const struct hws_model *m)
{
	return m->overlaps;
}

unsigned hws_model_inflight(const struct hws_model *m, struct hws_model_run out[2])
{
	unsigned n = 0;

	for (unsigned k = 0; k < 2; k++) {
		const struct run *r = &m->run[k];

		if (!r->busy)
			continue;
		out[n].cmd = r->cmd;
		out[n].step = r->step;
		out[n].lat = r->lat;
		out[n].port = r->port;
		out[n].tag = r->tag;
		n++;
	}
	return n;
}

int hws_model_inject_fault(struct hws_model *m, unsigned cpu)
{
	if (cpu >= m->p.nr_cpus)
		return -EINVAL;
	m->load[cpu]++;
	return 0;
}

/* ---- Invariants (section 6) ---- */

#define FAIL(...) do { snprintf(msg, len, __VA_ARGS__); return -EPROTO; } while (0)

/* Group loads equal the weights of the groups' queued tasks, per CPU and in total. */
static int check_groups(const struct hws_model *m, char *msg, size_t len)
{
	const struct hws_params *p = &m->p;
	uint32_t *sum = calloc((size_t)p->nr_cpus * p->nr_groups, sizeof(*sum));
	unsigned t, c, g;
	uint32_t tot;

	if (!sum) {
		snprintf(msg, len, "out of memory");
		return -ENOMEM;
	}
	for (t = 0; t < p->nr_tasks; t++)
		if (m->queued[t])
			sum[m->t_cpu[t] * p->nr_groups + m->grp[t]] +=
				hws_m_task_weight(m, t, m->t_prio[t]);
	for (g = 0; g < p->nr_groups; g++) {
		tot = 0;
		for (c = 0; c < p->nr_cpus; c++) {
			if (sum[c * p->nr_groups + g] != m->gload[c * p->nr_groups + g]) {
				snprintf(msg, len, "cpu %u group %u: group load %u, its tasks weigh %u",
					 c, g, m->gload[c * p->nr_groups + g],
					 sum[c * p->nr_groups + g]);
				free(sum);
				return -EPROTO;
			}
			tot += sum[c * p->nr_groups + g];
		}
		if (tot != m->gtotal[g]) {
			free(sum);
			FAIL("group %u: total %u, its tasks weigh %u", g, m->gtotal[g], tot);
		}
	}
	free(sum);
	return 0;
}

int hws_model_check(const struct hws_model *m, char *msg, size_t len)
{
	const struct hws_params *p = &m->p;
	unsigned cpu, a, prio, t, steps;
	unsigned char *seen;
	uint32_t load, nr;

	seen = calloc(p->nr_tasks, 1);
	if (!seen) {
		snprintf(msg, len, "out of memory");
		return -ENOMEM;
	}
	for (cpu = 0; cpu < p->nr_cpus; cpu++) {
		load = 0;
		for (a = 0; a < 2; a++) {
			nr = 0;
			for (prio = 0; prio < NPRIO; prio++) {
				unsigned q = qidx(cpu, a, prio), prev_t = 0;

				if (!bm_test(m->bm[cpu * 2 + a], prio))
					continue;
				t = m->head[q];
				for (steps = 0;; steps++) {
					if (t >= p->nr_tasks || steps > p->nr_tasks || seen[t] ||
					    !m->queued[t] || m->t_cpu[t] != cpu ||
					    m->t_arr[t] != a || m->t_prio[t] != prio ||
					    (steps && m->prev[t] != prev_t)) {
						free(seen);
						FAIL("list cpu %u array %u prio %u broken at task %u "
						     "(step %u)", cpu, a, prio, t, steps);
					}
					seen[t] = 1;
					nr++;
					load += hws_m_task_weight(m, t, prio);
					if (t == m->tail[q])
						break;
					prev_t = t;
					t = m->next[t];
				}
			}
			for (prio = NPRIO; prio < BM_WORDS * 32; prio++)
				if (bm_test(m->bm[cpu * 2 + a], prio)) {
					free(seen);
					FAIL("cpu %u array %u: bitmap bit %u set", cpu, a, prio);
				}
			if (nr != m->nr[cpu * 2 + a]) {
				free(seen);
				FAIL("cpu %u array %u: counter %u, lists hold %u", cpu, a,
				     m->nr[cpu * 2 + a], nr);
			}
		}
		if (load != m->load[cpu]) {
			free(seen);
			FAIL("cpu %u: load %u, lists weigh %u", cpu, m->load[cpu], load);
		}
	}
	for (t = 0; t < p->nr_tasks; t++) {
		if (m->queued[t] && !seen[t]) {
			free(seen);
			FAIL("task %u queued but in no list", t);
		}
	}
	free(seen);
	return check_groups(m, msg, len);
}
