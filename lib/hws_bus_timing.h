/*
 * hws_bus_timing - how the AXI4-Lite master times one transaction, shared by the C model
 * (models/) and the Verilated harness's master (sim/harness/axi_master.h), so both take
 * the same clock edges for every channel order and every back-pressure.
 *
 * Edges are counted from the transaction's start (docs/accelerator.md 4.2):
 *   write: AWVALID rises before edge aw_delay, WVALID before edge w_delay; each stays until
 *          its handshake. The slave takes the write at edge max(aw_delay, w_delay) (AW and
 *          W on their own; together when the delays are equal). BVALID then stays up for
 *          resp_stall edges with BREADY low; the B handshake is the next edge. A write
 *          takes max(aw_delay, w_delay) + 2 + resp_stall edges.
 *   read:  ARVALID rises before edge ar_delay, the address is taken at that edge, RVALID
 *          rises at the edge RDATA is latched; RREADY stays low for resp_stall edges with
 *          RVALID up, the R handshake is the next edge. A read takes ar_delay + 2 +
 *          resp_stall edges plus the edges a RESULT or SYNC read waits.
 * All zero is the reference master (VALIDs together at once, BREADY = RREADY = 1).
 */
#ifndef HWS_BUS_TIMING_H
#define HWS_BUS_TIMING_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct hws_bus_timing {
	unsigned aw_delay;	/* write: edges before AWVALID rises */
	unsigned w_delay;	/* write: edges before WVALID rises */
	unsigned ar_delay;	/* read: edges before ARVALID rises */
	unsigned resp_stall;	/* edges BREADY / RREADY stay low while BVALID / RVALID is up */
};

/* The largest delay or stall hws_bus_timing_next() draws. */
#define HWS_BUS_TIMING_MAX	7u

/* A seeded source of timings: the same seed gives the same sequence on every side. */
struct hws_bus_gen {
	uint64_t state;
};

/* hws_bus_gen_init - start the sequence of @seed (any value). */
void hws_bus_gen_init(struct hws_bus_gen *g, uint64_t seed);

/**
 * hws_bus_timing_next - the timing of the next transaction
 * @g: the generator
 * @t: receives it
 *
 * One third of the draws present AW and W together, one third AW first, one third W first
 * (the other 1..HWS_BUS_TIMING_MAX edges later); half stall the response for
 * 1..HWS_BUS_TIMING_MAX edges; a quarter delay ARVALID. A read and a write draw alike, so
 * two sides that make the same transactions stay in step.
 */
void hws_bus_timing_next(struct hws_bus_gen *g, struct hws_bus_timing *t);

/* hws_bus_timing_write_edges - the edges a write with timing @t takes. */
unsigned hws_bus_timing_write_edges(const struct hws_bus_timing *t);

#ifdef __cplusplus
}
#endif

#endif /* HWS_BUS_TIMING_H */
