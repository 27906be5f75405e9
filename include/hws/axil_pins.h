/*
 * hws_axil_pins - the pins of one AXI4-Lite slave port of the engine (docs/accelerator.md
 * 4.2), as one edge sees them: the master's inputs before the edge, the slave's outputs
 * (all registers) after it. The C model (hws_model_pins()) and the Verilated harness
 * (hws_vsim_pins()) take them per port and per edge, so a multi-port lockstep can drive
 * every port with its own traffic and compare every output of every port at every edge
 * (lib/hws_port_master.h drives them; the driver: hws_pins(), include/hws/hws.h).
 */
#ifndef HWS_AXIL_PINS_H
#define HWS_AXIL_PINS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The most ports an engine has (NR_PORTS 1..4): HWS_MAX_NR_PORTS of lib/hws_params.h,
 * the range's home (hws_params.c asserts the two are equal). */
#define HWS_AXIL_MAX_PORTS 4

/* The master's side: what it drives into the port during the cycle before an edge. */
struct hws_axil_in {
	uint8_t awvalid, wvalid, bready, arvalid, rready;
	uint32_t awaddr, wdata, wstrb, araddr;	/* awaddr/araddr: the low HWS_ADDR_W bits count */
};

/* The slave's side after an edge. */
struct hws_axil_out {
	uint8_t awready, wready, bvalid, arready, rvalid;
	uint32_t bresp, rdata, rresp;
};

#ifdef __cplusplus
}
#endif

#endif /* HWS_AXIL_PINS_H */
