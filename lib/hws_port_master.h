/*
 * hws_port_master - the AXI4-Lite master of sim/harness/axi_master.h, one per port, as a
 * state machine stepped one edge at a time, so that several ports can run transactions at
 * once against an engine driven through its pins (hws_model_pins(), hws_vsim_pins()).
 *
 * A transaction is timed by a struct hws_bus_timing exactly as axi_master.h times it
 * (AWVALID from edge aw_delay, WVALID from w_delay, ARVALID from ar_delay, each held until
 * its handshake; BREADY/RREADY low for resp_stall edges once the response is up), so a
 * port of a multi-port engine takes the same edges as the single-port harness would.
 * Between transactions the master drives the idle inputs (VALIDs 0, BREADY = RREADY = 1).
 *
 * Per edge: hws_pm_drive() with the port's outputs as the last edge left them fills the
 * inputs for the next edge; after the edge, hws_pm_after() advances the state.
 */
#ifndef HWS_PORT_MASTER_H
#define HWS_PORT_MASTER_H

#include <stdint.h>

#include "hws/axil_pins.h"
#include "lib/hws_bus_timing.h"

#ifdef __cplusplus
extern "C" {
#endif

enum hws_pm_phase { HWS_PM_IDLE, HWS_PM_ADDR, HWS_PM_RESP };

struct hws_port_master {
	enum hws_pm_phase phase;
	int write;			/* the transaction is a write */
	uint32_t addr, data, strb;
	struct hws_bus_timing t;
	unsigned n;			/* edges since the transaction started */
	int aw_done, w_done;
	unsigned stalled;		/* edges the response was up with READY low */
	/* Decided by hws_pm_drive() for the coming edge. */
	int aw_hs, w_hs, ar_hs, resp_now, resp_up;
	/* The finished transaction's answer (valid once done is set). */
	int done;
	uint32_t rdata, resp;
	unsigned edges;
};

/* hws_pm_init - an idle master. */
void hws_pm_init(struct hws_port_master *pm);

/* hws_pm_write / hws_pm_read - start a transaction (the master must be idle). */
void hws_pm_write(struct hws_port_master *pm, const struct hws_bus_timing *t, uint32_t addr,
		  uint32_t data, uint32_t strb);
void hws_pm_read(struct hws_port_master *pm, const struct hws_bus_timing *t, uint32_t addr);

/* hws_pm_busy - a transaction is in flight. */
int hws_pm_busy(const struct hws_port_master *pm);

/**
 * hws_pm_drive - the inputs for the next edge
 * @pm: the master
 * @out: the port's outputs as the last edge left them
 * @in: receives the inputs to drive during the cycle before the next edge
 */
void hws_pm_drive(struct hws_port_master *pm, const struct hws_axil_out *out,
		  struct hws_axil_in *in);

/**
 * hws_pm_after - the edge has happened
 *
 * Return: 1 when the transaction finished at this edge (pm->rdata, pm->resp, pm->edges
 * hold its answer: the read's RDATA, BRESP/RRESP, the edges it took), else 0.
 */
int hws_pm_after(struct hws_port_master *pm);

#ifdef __cplusplus
}
#endif

#endif /* HWS_PORT_MASTER_H */
