/*
 * hws_m_fe.c - the model of rtl/hws_port_fe.v and rtl/hws_axil_slave.v, one port's front
 * end: the address decode, the register reads (STATUS, RESULT, the POP/PEEKW windows, the
 * rest), the reads that wait, the writes (CTRL, CMD and the interrupt's, passed to
 * hws_m_irq.c), the command and result FIFOs (sections 4.2-4.5). The AXI4-Lite
 * handshakes around the edge are hws_m_axil.c's.
 */
#include "models/hws_model_int.h"

#include "lib/hws_params.h"

enum reg_access { ACC_NONE, ACC_RO, ACC_WO, ACC_RW };

/* An address of the POP window (section 4.4), aligned. */
int hws_m_is_pop(uint32_t addr)
{
	return addr >= HWS_POP_BASE && addr < HWS_PEEK_BASE + 4 * HWS_POP_WORDS && !(addr & 3u);
}

/* The command a read of window address @addr pushes: PICK_NEXT or PEEK of its CPU. */
uint32_t hws_m_pop_cmd(uint32_t addr)
{
	unsigned op = addr >= HWS_PEEK_BASE ? HWS_OP_PEEK : HWS_OP_PICK_NEXT;

	return (uint32_t)op << HWS_CMD_OP_LSB | (addr & 0xffu) / 4 << HWS_CMD_CPU_LSB;
}

static enum reg_access reg_access(const struct hws_model *m, uint32_t addr)
{
	if (hws_m_is_pop(addr))
		return ACC_RO;
	if (hws_m_is_curr(m, addr))
		return ACC_WO;
	if (addr & 3u || addr > 0xffu)
		return ACC_NONE;
	switch (addr) {
#define X(name, off, acc) case off: return ACC_##acc;
	HWS_FOR_EACH_REG(X)
#undef X
	}
	return ACC_NONE;
}

uint32_t hws_m_status_word(const struct hws_model *m, const struct port *pt)
{
	return pt->cmdf.n << HWS_STATUS_CMD_LEVEL_LSB | pt->resf.n << HWS_STATUS_RES_LEVEL_LSB |
	       (uint32_t)m->run[0].busy << HWS_STATUS_BUSY_LSB |
	       (uint32_t)pt->err_sticky << HWS_STATUS_ERR_LSB |
	       (uint32_t)(pt->cmdf.n == m->p.cmd_depth) << HWS_STATUS_CMD_FULL_LSB |
	       (uint32_t)(pt->resf.n == m->p.res_depth) << HWS_STATUS_RES_FULL_LSB;
}

/* Does a read of @addr on port @i wait, given the state before this edge? RESULT and SYNC
 * wait for the port's own commands only (section 4.5). */
static int read_waits(const struct hws_model *m, unsigned i, uint32_t addr)
{
	const struct port *pt = &m->port[i];
	const int busy_mine = (m->run[0].busy && m->run[0].port == i) ||
			      (m->run[1].busy && m->run[1].port == i);

	if (addr == HWS_REG_RESULT)
		return pt->resf.n == 0 && (busy_mine || pt->cmdf.n != 0);
	if (addr == HWS_REG_SYNC)
		return busy_mine || (pt->cmdf.n != 0 && pt->resf.n + 2 <= m->p.res_depth);
	if (hws_m_is_pop(addr))
		return !pt->pop_ready;
	return 0;
}

/* The registers of the engine and its units, as the front end reads them. */
static uint32_t reg_value_engine(const struct hws_model *m, uint32_t addr)
{
	switch (addr) {
	case HWS_REG_CMD_DONE:
		return m->cmd_done;
	case HWS_REG_CYCLES:
		return m->cycles;
	case HWS_REG_ERR_LAST:
		return m->err_last;
	case HWS_REG_ERR_CMD:
		return m->err_cmd;
	case HWS_REG_ERR_SEQ:
		return m->err_seq;
	case HWS_REG_ERR_TOTAL:
		return m->err_total;
	case HWS_REG_BAL_THIS:
	case HWS_REG_BAL_MAX:
	case HWS_REG_BAL_AVG:
	case HWS_REG_BAL_IMB:
		return m->bal[(addr - HWS_REG_BAL_THIS) / 4];
	case HWS_REG_IRQ_PEND0:
		return (uint32_t)m->irq_pend;
	case HWS_REG_IRQ_PEND1:
		return (uint32_t)(m->irq_pend >> 32);
	case HWS_REG_IRQ_EN0:
		return (uint32_t)m->irq_en;
	case HWS_REG_IRQ_EN1:
		return (uint32_t)(m->irq_en >> 32);
	}
	if (addr >= HWS_REG_ERR_CNT1 && addr <= HWS_REG_ERR_CNT11)
		return m->err_cnt[(addr - HWS_REG_ERR_TOTAL) / 4];
	return 0;
}

/* The value a (mapped, readable) register shows on port @pt before this edge. */
static uint32_t reg_value(const struct hws_model *m, const struct port *pt, uint32_t addr)
{
	if (hws_m_is_pop(addr))
		return pt->pop_word | (uint32_t)pt->err_sticky << HWS_POP_ERRP_LSB;
	switch (addr) {
	case HWS_REG_ID:
		return HWS_ID_VALUE;
	case HWS_REG_NR_CPUS:
		return m->p.nr_cpus;
	case HWS_REG_NR_TASKS:
		return m->p.nr_tasks;
	case HWS_REG_NR_GROUPS:
		return m->p.nr_groups;
	case HWS_REG_FEATURES:
		return hws_params_features(&m->p);
	case HWS_REG_DEPTHS:
		return m->p.cmd_depth << HWS_DEPTHS_CMD_DEPTH_LSB |
		       m->p.res_depth << HWS_DEPTHS_RES_DEPTH_LSB;
	case HWS_REG_STATUS:
	case HWS_REG_SYNC:
		return hws_m_status_word(m, pt);
	case HWS_REG_RESULT:
		return pt->resf.n ? pt->resf.w[pt->resf.head] : (HWS_ERR_FLAG | HWS_ERR_UNDERFLOW);
	}
	return reg_value_engine(m, addr);
}

/* Port @i's write at this edge: decode; a soft reset wins over everything at this edge. */
static void decode_write(struct hws_model *m, struct edge_ctx *e, unsigned i)
{
	const struct bus_in *b = &e->in[i];
	enum reg_access acc;

	e->curr_cpu[i] = -1;
	if (!b->write)
		return;
	acc = reg_access(m, b->waddr);
	if ((acc != ACC_WO && acc != ACC_RW) || b->strb != 0xfu) {
		e->out[i].wresp = RESP_SLVERR;
		e->wr_err[i] = HWS_ERR_ADDR;
		e->wr_info[i] = b->waddr;
	} else if (b->waddr == HWS_REG_CTRL) {
		e->soft |= !!(b->data & HWS_CTRL_SOFT_RESET_MASK);
		e->err_clear |= !!(b->data & HWS_CTRL_ERR_CLEAR_MASK);
	} else if (b->waddr == HWS_REG_IRQ_PEND0 || b->waddr == HWS_REG_IRQ_PEND1 ||
		   b->waddr == HWS_REG_IRQ_EN0 || b->waddr == HWS_REG_IRQ_EN1 ||
		   hws_m_is_curr(m, b->waddr)) {
		hws_m_irq_decode(m, e, i);
	} else if (e->cmdf_n[i] == m->p.cmd_depth) {
		e->wr_err[i] = HWS_ERR_OVERFLOW;
		e->wr_info[i] = b->data;
	}
}

/* Port @i's read at this edge: a new address, or a pending one whose wait has ended. */
static void decode_read(struct hws_model *m, struct edge_ctx *e, unsigned i)
{
	struct port *pt = &m->port[i];
	const struct bus_in *b = &e->in[i];
	struct bus_out *o = &e->out[i];

	if (b->read) {
		enum reg_access acc = reg_access(m, b->raddr);

		if (acc != ACC_RO && acc != ACC_RW) {
			o->rlatched = 1;
			o->rdata = 0;
			o->rresp = RESP_SLVERR;
			e->rd_err[i] = HWS_ERR_ADDR;
			e->rd_info[i] = b->raddr;
		} else if (read_waits(m, i, b->raddr) && !e->pop_refuse[i]) {
			pt->rpend = 1;
		} else {
			e->latch[i] = 1;
		}
		pt->raddr = b->raddr;
	} else if (pt->rpend && (!read_waits(m, i, pt->raddr) || e->pop_refuse[i])) {
		e->latch[i] = 1;
		pt->rpend = 0;
	}
	if (!e->latch[i])
		return;
	o->rlatched = 1;
	o->rdata = e->pop_refuse[i] ? HWS_ERR_FLAG | HWS_POP_ERRP_MASK | HWS_ERR_OVERFLOW :
				      reg_value(m, pt, pt->raddr);
	o->rresp = RESP_OKAY;
	if (e->pop_refuse[i]) {
		e->rd_err[i] = HWS_ERR_OVERFLOW;
		e->rd_info[i] = hws_m_pop_cmd(pt->raddr);
	}
	if (pt->raddr == HWS_REG_RESULT && e->resf_n[i] == 0) {
		e->rd_err[i] = HWS_ERR_UNDERFLOW;
		e->rd_info[i] = 0;
	}
}

/* Every port's bus at this edge, decoded on the state before it. */
void hws_m_fe_decode(struct hws_model *m, struct edge_ctx *e)
{
	for (unsigned i = 0; i < m->nports; i++) {
		const struct port *pt = &m->port[i];
		const struct bus_in *b = &e->in[i];

		/* The read active at this edge (taken now, or pending) and whether it is a
		 * window read that pushes its PICK_NEXT now: room in the command FIFO, no CMD
		 * write at this edge ... */
		e->act_addr[i] = b->read ? b->raddr : pt->raddr;
		const int wants = (b->read || pt->rpend) && hws_m_is_pop(e->act_addr[i]) &&
				  !pt->pop_issued && !pt->pop_ready;
		/* ... unless a command queued could stall on a full result FIFO: refused. */
		const int stall = pt->cmdf.n && pt->resf.n + pt->qcnt +
							hws_m_inflight_res(m, i) + 1 >=
						m->p.res_depth;

		e->cmdf_n[i] = pt->cmdf.n;
		e->resf_n[i] = pt->resf.n;
		e->wr_cmd[i] = b->write && b->waddr == HWS_REG_CMD && b->strb == 0xfu;
		e->pop_refuse[i] = wants && stall;
		e->pop_push[i] = wants && !stall && e->cmdf_n[i] < m->p.cmd_depth && !e->wr_cmd[i];
		e->wr_err[i] = e->rd_err[i] = 0;
		e->wr_info[i] = e->rd_info[i] = 0;
		e->latch[i] = 0;
		e->out[i].rlatched = 0;
		e->out[i].wresp = RESP_OKAY;
		decode_write(m, e, i);
		decode_read(m, e, i);
	}
}

/* Side effects of the reads latched at this edge. */
void hws_m_fe_read_effects(struct hws_model *m, const struct edge_ctx *e)
{
	for (unsigned i = 0; i < m->nports; i++) {
		struct port *pt = &m->port[i];

		if (!e->latch[i])
			continue;
		if (pt->raddr == HWS_REG_RESULT && e->resf_n[i] > 0)
			fifo_pop(&pt->resf);	/* the head present before the edge */
		if (hws_m_is_pop(pt->raddr)) {
			pt->pop_issued = 0;
			pt->pop_ready = 0;
		}
	}
}

/* The completed command's result word: to its port's window, or its result FIFO. */
void hws_m_fe_route_result(struct hws_model *m, const struct edge_ctx *e)
{
	if (e->has_res && e->ran.tag) {
		m->port[e->ran.port].pop_word = e->res;
		m->port[e->ran.port].pop_ready = 1;
	} else if (e->has_res) {
		fifo_push(&m->port[e->ran.port].resf, e->res);
	}
}

/* The command FIFOs' pushes: CMD writes and the window reads' commands. */
void hws_m_fe_push(struct hws_model *m, const struct edge_ctx *e)
{
	for (unsigned i = 0; i < m->nports; i++) {
		struct port *pt = &m->port[i];

		if (e->in[i].write && !e->wr_err[i] && e->in[i].waddr == HWS_REG_CMD) {
			fifo_push(&pt->cmdf, e->in[i].data);
			if (hws_m_op_has_result[f_op(e->in[i].data)])
				pt->qcnt++;
		}
		if (e->pop_push[i]) {
			fifo_push_tag(&pt->cmdf, hws_m_pop_cmd(e->act_addr[i]), 1);
			pt->pop_issued = 1;
		}
	}
}

/* STATUS.ERR: cleared by a read of STATUS, SYNC or a window at this edge. */
void hws_m_fe_clear_sticky(struct hws_model *m, const struct edge_ctx *e)
{
	for (unsigned i = 0; i < m->nports; i++)
		if (e->latch[i] && (m->port[i].raddr == HWS_REG_STATUS ||
				    m->port[i].raddr == HWS_REG_SYNC ||
				    hws_m_is_pop(m->port[i].raddr)))
			m->port[i].err_sticky = 0;
}
