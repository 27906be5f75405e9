/*
 * hws_port_master.c - sim/harness/axi_master.h as a per-edge state machine; see
 * hws_port_master.h.
 */
#include "lib/hws_port_master.h"

#include <string.h>

#include "hws/regs.h"

void hws_pm_init(struct hws_port_master *pm)
{
	memset(pm, 0, sizeof(*pm));
	pm->phase = HWS_PM_IDLE;
}

static void start(struct hws_port_master *pm, const struct hws_bus_timing *t, int write,
		  uint32_t addr, uint32_t data, uint32_t strb)
{
	pm->phase = HWS_PM_ADDR;
	pm->write = write;
	pm->addr = addr & ((1u << HWS_ADDR_W) - 1u);	/* the bits the engine decodes */
	pm->data = data;
	pm->strb = strb & 0xfu;
	pm->t = *t;
	pm->n = 0;
	pm->aw_done = pm->w_done = 0;
	pm->stalled = 0;
	pm->done = 0;
}

void hws_pm_write(struct hws_port_master *pm, const struct hws_bus_timing *t, uint32_t addr,
		  uint32_t data, uint32_t strb)
{
	start(pm, t, 1, addr, data, strb);
}

void hws_pm_read(struct hws_port_master *pm, const struct hws_bus_timing *t, uint32_t addr)
{
	start(pm, t, 0, addr, 0, 0);
}

int hws_pm_busy(const struct hws_port_master *pm)
{
	return pm->phase != HWS_PM_IDLE;
}

void hws_pm_drive(struct hws_port_master *pm, const struct hws_axil_out *out,
		  struct hws_axil_in *in)
{
	memset(in, 0, sizeof(*in));
	in->bready = 1;
	in->rready = 1;
	in->awaddr = in->araddr = pm->addr;
	in->wdata = pm->data;
	in->wstrb = pm->strb;
	pm->aw_hs = pm->w_hs = pm->ar_hs = pm->resp_now = pm->resp_up = 0;
	if (pm->phase == HWS_PM_ADDR && pm->write) {
		in->awvalid = !pm->aw_done && pm->n >= pm->t.aw_delay;
		in->wvalid = !pm->w_done && pm->n >= pm->t.w_delay;
		pm->aw_hs = in->awvalid && out->awready;
		pm->w_hs = in->wvalid && out->wready;
	} else if (pm->phase == HWS_PM_ADDR) {
		in->arvalid = pm->n >= pm->t.ar_delay;
		pm->ar_hs = in->arvalid && out->arready;
	} else if (pm->phase == HWS_PM_RESP) {
		int v = pm->write ? out->bvalid : out->rvalid;
		int ready = !v || pm->stalled >= pm->t.resp_stall;

		if (pm->write)
			in->bready = (uint8_t)ready;
		else
			in->rready = (uint8_t)ready;
		pm->resp_up = v;
		if (v && ready) {
			pm->resp_now = 1;
			pm->resp = pm->write ? out->bresp : out->rresp;
			pm->rdata = pm->write ? 0 : out->rdata;
		}
	}
}

int hws_pm_after(struct hws_port_master *pm)
{
	if (pm->phase == HWS_PM_IDLE)
		return 0;
	pm->n++;
	if (pm->phase == HWS_PM_ADDR) {
		pm->aw_done |= pm->aw_hs;
		pm->w_done |= pm->w_hs;
		if (pm->write ? pm->aw_done && pm->w_done : pm->ar_hs)
			pm->phase = HWS_PM_RESP;
		return 0;
	}
	if (pm->resp_now) {
		pm->phase = HWS_PM_IDLE;
		pm->done = 1;
		pm->edges = pm->n;
		return 1;
	}
	if (pm->resp_up)
		pm->stalled++;
	return 0;
}
