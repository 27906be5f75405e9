/*
 * hws_m_seq.c - the model of rtl/hws_eng_seq.v: each command's checks (docs/accelerator.md
 * 3), its latency (7, 8.2), the issue (a pop, 4.1) and the overlapped issue (PIPE = 1,
 * 4.1.1), the completion (the whole command applied at once, dispatched to the units that
 * own its state) and the steps of the commands in flight.
 */
#include "models/hws_model_int.h"

#include <string.h>

/* The checks of the commands that name a task (ENQUEUE .. MIGRATE), in section 3's order. */
static unsigned check_task_cmd(const struct hws_model *m, unsigned op, unsigned t,
			       unsigned cpu, unsigned prio)
{
	const int bad_t = t >= m->p.nr_tasks, bad_c = cpu >= m->p.nr_cpus;

	if (bad_t)
		return HWS_ERR_TASK;
	switch (op) {
	case HWS_OP_ENQUEUE:
		if (bad_c)
			return HWS_ERR_CPU;
		if (prio >= NPRIO)
			return HWS_ERR_PRIO;
		return m->queued[t] ? HWS_ERR_QUEUED : 0;
	case HWS_OP_SET_PRIO:
		if (prio >= NPRIO)
			return HWS_ERR_PRIO;
		break;
	case HWS_OP_MIGRATE:
		if (bad_c)
			return HWS_ERR_CPU;
		break;
	}
	return m->queued[t] ? 0 : HWS_ERR_NOTQUEUED;
}

/* QUERY's checks (section 8.2). */
static unsigned check_query(const struct hws_model *m, uint32_t c)
{
	const unsigned t = f_task(c), prio = f_prio(c);

	if (q_kind(c) == 3 || (q_kind(c) == 2 && m->p.no_balance))
		return HWS_ERR_OPCODE;	/* reserved; BALANCE when it is not built */
	if (f_cpu(c) >= m->p.nr_cpus)
		return HWS_ERR_CPU;
	if (prio >= HWS_NR_LEVELS)
		return HWS_ERR_PRIO;
	if (q_kind(c) == 2 && t >= 3)
		return HWS_ERR_TASK;
	return hws_m_domain_ok(m, prio, q_kind(c) == 1) ? 0 : HWS_ERR_DOMAIN;
}

/* The checks of each command, in the order of the table in section 3. */
unsigned hws_m_check_cmd(const struct hws_model *m, uint32_t c)
{
	unsigned op = f_op(c), t = f_task(c), cpu = f_cpu(c), prio = f_prio(c);
	int bad_t = t >= m->p.nr_tasks, bad_c = cpu >= m->p.nr_cpus;

	if (!hws_m_op_defined[op])
		return HWS_ERR_OPCODE;
	switch (op) {
	case HWS_OP_NOP:
		return 0;
	case HWS_OP_ENQUEUE:
	case HWS_OP_DEQUEUE:
	case HWS_OP_REQUEUE:
	case HWS_OP_SET_PRIO:
	case HWS_OP_MIGRATE:
		return check_task_cmd(m, op, t, cpu, prio);
	case HWS_OP_PICK_NEXT:
	case HWS_OP_PEEK:
	case HWS_OP_LOAD_TICK:
	case HWS_OP_SET_IDLE:
		return bad_c ? HWS_ERR_CPU : 0;
	case HWS_OP_CPU_STAT:
		if (bad_c)
			return HWS_ERR_CPU;
		return prio >= HWS_SEL_CPU_STAT_COUNT ? HWS_ERR_PRIO : 0;
	case HWS_OP_TASK_STAT:
		if (bad_t)
			return HWS_ERR_TASK;
		return prio >= HWS_SEL_TASK_STAT_COUNT ? HWS_ERR_PRIO : 0;
	case HWS_OP_SET_GROUP:
		if (bad_t)
			return HWS_ERR_TASK;
		if (c & HWS_CMD_HEAD_MASK)	/* SET_WEIGHT */
			return prio >= NPRIO ? HWS_ERR_PRIO : 0;
		return prio >= m->p.nr_groups ? HWS_ERR_GROUP : 0;
	case HWS_OP_DOM_SET:
		if (bad_c)
			return HWS_ERR_CPU;
		return hws_m_dom_set_check(m, c);
	case HWS_OP_QUERY:
		return check_query(m, c);
	case HWS_OP_LCU_STAT:
		if (bad_c)
			return HWS_ERR_CPU;
		if (prio >= HWS_SEL_LCU_STAT_COUNT)
			return HWS_ERR_PRIO;
		if ((prio == HWS_SEL_LCU_STAT_GROUP_LOAD || prio == HWS_SEL_LCU_STAT_GROUP_TOTAL) &&
		    t >= m->p.nr_groups)
			return HWS_ERR_GROUP;
		return 0;
	}
	return HWS_ERR_OPCODE;
}

/* PICK_NEXT and PEEK: the word; PICK_NEXT also takes the task (and swaps the arrays). */
static uint32_t pick(struct hws_model *m, unsigned op, unsigned cpu)
{
	unsigned parr = 0, p = 0;
	int swapped;
	uint32_t res = hws_m_pick_word(m, cpu, &swapped, &parr, &p);

	if (op == HWS_OP_PICK_NEXT && !(res & HWS_NONE_FLAG)) {
		if (swapped)
			m->swap[cpu] ^= 1;
		hws_m_unlink(m, m->head[qidx(cpu, parr, p)]);
	}
	return res;
}

/*
 * Apply command @c at its completion edge. Returns its error code; *res receives the
 * result word and *has_res whether one is pushed.
 */
static unsigned execute(struct hws_model *m, uint32_t c, uint32_t *res, int *has_res)
{
	unsigned op = f_op(c), t = f_task(c), cpu = f_cpu(c), prio = f_prio(c);
	unsigned err = hws_m_check_cmd(m, c);

	*has_res = hws_m_op_defined[op] && hws_m_op_has_result[op];
	*res = 0;
	if (err) {
		*res = HWS_ERR_FLAG | err;
		return err;
	}
	switch (op) {
	case HWS_OP_ENQUEUE:
		hws_m_link(m, t, cpu, ((c >> HWS_CMD_ARRAY_LSB) & 1) ^ m->swap[cpu], prio,
			   (c >> HWS_CMD_HEAD_LSB) & 1);
		break;
	case HWS_OP_DEQUEUE:
		hws_m_unlink(m, t);
		break;
	case HWS_OP_PICK_NEXT:
	case HWS_OP_PEEK:
		*res = pick(m, op, cpu);
		break;
	case HWS_OP_REQUEUE:
		hws_m_move(m, t, m->t_cpu[t], m->t_prio[t]);
		break;
	case HWS_OP_SET_PRIO:
		hws_m_move(m, t, m->t_cpu[t], prio);
		break;
	case HWS_OP_MIGRATE:
		hws_m_move(m, t, cpu, m->t_prio[t]);
		break;
	case HWS_OP_CPU_STAT:
		*res = hws_m_cpu_stat(m, cpu, prio);
		break;
	case HWS_OP_TASK_STAT:
		*res = hws_m_task_stat(m, t, prio);
		break;
	case HWS_OP_LOAD_TICK:
		hws_m_load_tick(m, cpu);
		break;
	case HWS_OP_SET_GROUP:
		if (c & HWS_CMD_HEAD_MASK)
			hws_m_set_weight(m, t, prio);
		else
			hws_m_set_group(m, t, prio);
		break;
	case HWS_OP_LCU_STAT:
		*res = hws_m_lcu_stat(m, cpu, prio, t);
		break;
	case HWS_OP_SET_IDLE:
		m->idle[cpu] = (c >> HWS_CMD_ARRAY_LSB) & 1;
		break;
	case HWS_OP_DOM_SET:
		hws_m_dom_set(m, c, cpu);
		break;
	case HWS_OP_QUERY:
		if (q_kind(c) == 2)
			*res = hws_m_balance(m, cpu, prio, t);
		else
			*res = hws_m_query(m, cpu, prio, c & HWS_CMD_HEAD_MASK);
		break;
	}
	return 0;
}

/* A failure of a check that reads the queue state or the domain table (section 4.1,
 * condition 2), as opposed to one of the command word alone. */
static int state_check_failed(unsigned code)
{
	return code == HWS_ERR_QUEUED || code == HWS_ERR_NOTQUEUED || code == HWS_ERR_DOMAIN;
}

/* A command's latency, judged on the state when it is popped (sections 7, 8.2); @code is
 * hws_m_check_cmd()'s verdict on that state. */
static unsigned cmd_latency(const struct hws_model *m, uint32_t c, unsigned code)
{
	if (code)
		return 1;
	if (f_op(c) == HWS_OP_QUERY && q_kind(c) == 2)
		return m->p.lcu_lean ? hws_bal_latency_lean(m->p.nr_cpus)
				     : hws_bal_latency(m->p.nr_cpus, hws_params_bal_lanes(&m->p));
	return hws_m_op_lat[f_op(c)];
}

/* Commands in flight from port @i that will push a word into its result FIFO. */
unsigned hws_m_inflight_res(const struct hws_model *m, unsigned i)
{
	unsigned r = 0;

	for (unsigned k = 0; k < 2; k++)
		r += m->run[k].busy && m->run[k].res && m->run[k].port == i;
	return r;
}

/* The overlap class of section 4.1.1: ENQUEUE, PICK_NEXT, PEEK, CPU_STAT. */
static int overlap_class(uint32_t c)
{
	const unsigned op = f_op(c);

	return op == HWS_OP_ENQUEUE || op == HWS_OP_PICK_NEXT || op == HWS_OP_PEEK ||
	       op == HWS_OP_CPU_STAT;
}

/*
 * PIPE = 1 (section 4.1.1): may the head of port @win be popped at this edge beside the
 * older command? Called after the completion at this edge was applied (m's queue state is
 * the state just after the edge, which check (d) reads); m->run[] and @resf_n (the port's
 * result FIFO level) are still as they were just before the edge; @done: run[0] completes
 * at this edge.
 */
static int overlap_ok(const struct hws_model *m, int done, unsigned win, unsigned resf_n)
{
	const struct port *pt = &m->port[win];
	const uint32_t n = pt->cmdf.w[pt->cmdf.head];
	const struct run *o;

	/* (a) exactly one older command stays in flight, and completes at the next edge */
	if (done != m->run[1].busy)
		return 0;	/* none (then condition 2 holds), or two */
	o = done ? &m->run[1] : &m->run[0];
	if (o->lat - o->step != 1)
		return 0;
	/* (b) both in the class; (c) no shared CPU, no shared task (two ENQUEUEs) */
	if (!overlap_class(o->cmd) || !overlap_class(n) || f_cpu(o->cmd) == f_cpu(n))
		return 0;
	if (f_op(o->cmd) == HWS_OP_ENQUEUE && f_op(n) == HWS_OP_ENQUEUE &&
	    f_task(o->cmd) == f_task(n))
		return 0;
	/* (d) the newcomer passes its checks on the state just after the edge */
	if (hws_m_check_cmd(m, n))
		return 0;
	/* (e) room for the results (a window read's command pushes none) */
	if (!pt->cmdf.tag[pt->cmdf.head] &&
	    resf_n + hws_m_inflight_res(m, win) + 2 > m->p.res_depth)
		return 0;
	return 1;
}

/*
 * The engine's completion: the whole command at once (section 4.1); its result word goes
 * to the port that issued it (hws_m_fe_route_result()). Section 4.6: a link into an active
 * array below CURR (before this edge) sets IRQ_PEND; a PICK_NEXT that did not fail sets
 * CURR and clears IRQ_PEND (hws_m_irq_step()).
 */
void hws_m_seq_complete(struct hws_model *m, struct edge_ctx *e)
{
	if (!e->done)
		return;
	m->lnk_valid = 0;
	e->eng_err = execute(m, e->ran.cmd, &e->res, &e->has_res);
	m->cmd_done++;
	e->irq_set = m->lnk_valid && m->lnk_parr == m->swap[m->lnk_cpu] &&
		     m->lnk_prio < m->curr[m->lnk_cpu];
	if (!e->eng_err && f_op(e->ran.cmd) == HWS_OP_PICK_NEXT) {
		e->pick_cpu = (int)f_cpu(e->ran.cmd);
		e->pick_prio = e->res & HWS_NONE_FLAG ? HWS_CURR_IDLE :
			       (e->res & HWS_RES_PRIO_MASK) >> HWS_RES_PRIO_LSB;
	}
}

/* The pop of the chosen port's head: at condition 2, or with PIPE = 1 beside the older
 * command (section 4.1.1). */
void hws_m_seq_pop(struct hws_model *m, struct edge_ctx *e)
{
	struct port *pt;

	if (e->chosen && !e->pop && m->p.pipe) {
		e->pop = overlap_ok(m, e->done, e->win, e->resf_n[e->win]);
		m->overlaps += (uint64_t)e->pop;
	}
	if (!e->pop)
		return;
	pt = &m->port[e->win];
	e->popped_tag = pt->cmdf.tag[pt->cmdf.head];
	e->popped = fifo_pop(&pt->cmdf);
	if (!e->popped_tag && hws_m_op_has_result[f_op(e->popped)])
		pt->qcnt--;
}

/* Sequencing: the completed command leaves, the others go on a step, and the command
 * popped starts, its latency judged on the new state. */
void hws_m_seq_advance(struct hws_model *m, const struct edge_ctx *e)
{
	if (e->done) {
		m->run[0] = m->run[1];
		memset(&m->run[1], 0, sizeof(m->run[1]));
	}
	for (unsigned k = 0; k < 2; k++)
		if (m->run[k].busy)
			m->run[k].step++;
	if (e->pop) {
		struct run *r = &m->run[m->run[0].busy];
		const unsigned code = hws_m_check_cmd(m, e->popped);	/* on the state at the pop */

		r->cmd = e->popped;
		r->tag = e->popped_tag;
		r->res = !e->popped_tag && hws_m_op_has_result[f_op(e->popped)];
		r->port = e->win;
		r->busy = 1;
		r->step = 1;
		r->lat = cmd_latency(m, e->popped, code);
		r->sfail = state_check_failed(code);
		hws_m_arbiter_started(m, e->win);
	}
}
