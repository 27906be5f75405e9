/*
 * hws_m_axil.c - the model of rtl/hws_axil_slave.v around the edge: the AXI4-Lite
 * handshakes of hws_model_pins() (held AW/W, BVALID, RVALID) and the transactions of
 * hws_model_write()/hws_model_read() with the master's timing (lib/hws_bus_timing.h).
 */
#include "models/hws_model_int.h"

/* One edge with port 0's bus doing @b0 and the other ports idle. */
static void edge0(struct hws_model *m, const struct bus_in *b0, struct bus_out *o0)
{
	struct bus_in in[HWS_MAX_NR_PORTS] = { { 0 } };
	struct bus_out out[HWS_MAX_NR_PORTS];

	in[0] = *b0;
	hws_m_edge(m, in, out);
	*o0 = out[0];
}


/*
 * A write with the master's timing @t (lib/hws_bus_timing.h): the slave holds whichever of
 * AW and W comes first and takes the write at the edge the second comes, max(aw_delay,
 * w_delay); the edges before it change nothing but the slave's holding registers.
 */
unsigned hws_model_write_timed(struct hws_model *m, const struct hws_bus_timing *t,
			       uint32_t addr, uint32_t data, uint32_t strb, uint32_t *resp)
{
	struct bus_in in = { .write = 1, .waddr = addr & BUS_ADDR_MASK, .data = data, .strb = strb };
	unsigned wait = t->aw_delay > t->w_delay ? t->aw_delay : t->w_delay;

	hws_model_idle(m, wait);	/* AWVALID or WVALID not both up yet */
	{
		struct bus_out out;

		edge0(m, &in, &out);	/* the second of AW and W taken, BVALID rises */
		*resp = out.wresp;
	}
	hws_model_idle(m, t->resp_stall);	/* BVALID up, BREADY low */
	hws_model_idle(m, 1);		/* B handshake */
	return wait + 2 + t->resp_stall;
}

void hws_model_set_bus(struct hws_model *m, int random, uint64_t seed)
{
	m->bus_random = random;
	hws_bus_gen_init(&m->bus, seed);
}

/* The timing of the next transaction: the reference, or the generator's next draw. */
static void next_timing(struct hws_model *m, struct hws_bus_timing *t)
{
	static const struct hws_bus_timing ref = { 0, 0, 0, 0 };

	if (m->bus_random)
		hws_bus_timing_next(&m->bus, t);
	else
		*t = ref;
}

unsigned hws_model_write(struct hws_model *m, uint32_t addr, uint32_t data, uint32_t strb,
			 uint32_t *resp)
{
	struct hws_bus_timing t;

	next_timing(m, &t);
	return hws_model_write_timed(m, &t, addr, data, strb, resp);
}

unsigned hws_model_read_timed(struct hws_model *m, const struct hws_bus_timing *t,
			      uint32_t addr, uint32_t *data, uint32_t *resp)
{
	struct bus_in in = { .read = 1, .raddr = addr & BUS_ADDR_MASK };
	struct bus_in idle = { 0 };
	struct bus_out out;
	unsigned edges = 1 + t->ar_delay;

	hws_model_idle(m, t->ar_delay);	/* ARVALID not up yet */
	edge0(m, &in, &out);	/* AR taken */
	while (!out.rlatched) {
		if (edges >= HWS_MODEL_MAX_WAIT + t->ar_delay) {	/* cannot happen by 4.2 */
			*data = 0;
			*resp = 3;
			return edges;
		}
		edge0(m, &idle, &out);
		edges++;
	}
	*data = out.rdata;
	*resp = out.rresp;
	hws_model_idle(m, t->resp_stall);	/* RVALID up, RREADY low */
	hws_model_idle(m, 1);		/* R handshake */
	return edges + t->resp_stall + 1;
}

unsigned hws_model_read(struct hws_model *m, uint32_t addr, uint32_t *data, uint32_t *resp)
{
	struct hws_bus_timing t;

	next_timing(m, &t);
	return hws_model_read_timed(m, &t, addr, data, resp);
}

void hws_model_idle(struct hws_model *m, unsigned edges)
{
	struct bus_in idle = { 0 };
	struct bus_out out;

	while (edges--)
		edge0(m, &idle, &out);
}

/* ---- The pins, per port and per edge (hws_model_pins()) ---- */

static void pins_out(const struct port *pt, struct hws_axil_out *o)
{
	o->awready = !pt->bvalid && !pt->aw_held;
	o->wready = !pt->bvalid && !pt->w_held;
	o->bvalid = (uint8_t)pt->bvalid;
	o->bresp = pt->bresp;
	o->arready = !pt->rvalid && !pt->rpend;
	o->rvalid = (uint8_t)pt->rvalid;
	o->rdata = pt->rdata;
	o->rresp = pt->rresp;
}

unsigned hws_model_nr_ports(const struct hws_model *m)
{
	return m->nports;
}

void hws_model_pins_now(const struct hws_model *m, struct hws_axil_out *out)
{
	for (unsigned i = 0; i < m->nports; i++)
		pins_out(&m->port[i], &out[i]);
}

/*
 * hws_axil_slave's handshakes around edge(): AWREADY = !BVALID && !aw_held, WREADY =
 * !BVALID && !w_held, ARREADY = !RVALID && !pending; the write taken at the edge the second
 * of AW and W is handshaken, BVALID up from that edge until BREADY; RVALID up from the
 * latching edge until RREADY.
 */
void hws_model_pins(struct hws_model *m, const struct hws_axil_in *in, struct hws_axil_out *out)
{
	struct bus_in b[HWS_MAX_NR_PORTS] = { { 0 } };
	struct bus_out o[HWS_MAX_NR_PORTS];
	int aw_hs[HWS_MAX_NR_PORTS], w_hs[HWS_MAX_NR_PORTS];

	for (unsigned i = 0; i < m->nports; i++) {
		const struct port *pt = &m->port[i];
		const struct hws_axil_in *p = &in[i];

		aw_hs[i] = p->awvalid && !pt->bvalid && !pt->aw_held;
		w_hs[i] = p->wvalid && !pt->bvalid && !pt->w_held;
		b[i].write = (pt->aw_held || aw_hs[i]) && (pt->w_held || w_hs[i]);
		b[i].waddr = (pt->aw_held ? pt->awaddr : p->awaddr) & BUS_ADDR_MASK;
		b[i].data = pt->w_held ? pt->wdata : p->wdata;
		b[i].strb = (pt->w_held ? pt->wstrb : p->wstrb) & 0xfu;
		b[i].read = p->arvalid && !pt->rvalid && !pt->rpend;
		b[i].raddr = p->araddr & BUS_ADDR_MASK;
	}
	hws_m_edge(m, b, o);
	for (unsigned i = 0; i < m->nports; i++) {
		struct port *pt = &m->port[i];
		const struct hws_axil_in *p = &in[i];

		if (b[i].write) {
			pt->bvalid = 1;
			pt->bresp = o[i].wresp;
			pt->aw_held = 0;
			pt->w_held = 0;
		} else {
			if (aw_hs[i]) {
				pt->aw_held = 1;
				pt->awaddr = p->awaddr;
			}
			if (w_hs[i]) {
				pt->w_held = 1;
				pt->wdata = p->wdata;
				pt->wstrb = p->wstrb;
			}
			if (pt->bvalid && p->bready)
				pt->bvalid = 0;
		}
		if (o[i].rlatched) {
			pt->rvalid = 1;
			pt->rdata = o[i].rdata;
			pt->rresp = o[i].rresp;
		} else if (pt->rvalid && p->rready) {
			pt->rvalid = 0;
		}
		pins_out(pt, &out[i]);
	}
}

