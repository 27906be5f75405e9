/*
 * hws_model - the bit-exact, cycle-exact C reference model of the hwsched engine.
 *
 * The model reproduces rtl/hws_top.v as seen from its AXI4-Lite pins when driven by the
 * bus master of sim/harness/axi_master.h (VALIDs held until taken, one transaction at a
 * time) with any timing of lib/hws_bus_timing.h (AW before W, W before AW, together;
 * BREADY/RREADY low for a while): the data and response of every read, the response of
 * every write, and the number of clock edges each transaction takes. Inside, each command is
 * applied atomically at the edge where the RTL completes it (docs/accelerator.md, 4.1).
 *
 *   bus ops --> [ edge(): AXI slave | CMD FIFO | engine (latency L) | RESULT FIFO | errors ]
 *
 * The placement and balance queries use the rules of lib/hws_balance.c, the software
 * reference the RTL must match. models/hws_model_transport.c puts the model behind the
 * driver's transport interface (backend "model"). The model never prints; errors are
 * negative errno values.
 */
#ifndef HWS_MODEL_H
#define HWS_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "hws/transport.h"
#include "hws/axil_pins.h"
#include "lib/hws_bus_timing.h"

#ifdef __cplusplus
extern "C" {
#endif

struct hws_model;

/**
 * hws_model_create - allocate a model in its reset state
 * @out: receives the model
 * @p: parameters, checked with hws_params_check() (lib/hws_params.h)
 *
 * Return: 0, -EINVAL for illegal parameters, -ENOMEM.
 */
int hws_model_create(struct hws_model **out, const struct hws_params *p);
void hws_model_destroy(struct hws_model *m);

/* hws_model_reset - the state after rst_ni: every queue empty, counters 0. */
void hws_model_reset(struct hws_model *m);

/**
 * hws_model_write - one AXI4-Lite write transaction
 * @m: the model
 * @addr: byte address (8 bits are decoded; higher bits make the access unmapped)
 * @data: write data
 * @strb: write strobes (anything but 0xF is refused with SLVERR)
 * @resp: receives BRESP (0 OKAY, 2 SLVERR)
 *
 * The master's timing is the reference (AW and W together, BREADY = RREADY = 1), or drawn
 * per transaction after hws_model_set_bus().
 *
 * Return: the number of clock edges the transaction took (2 with the reference master).
 */
unsigned hws_model_write(struct hws_model *m, uint32_t addr, uint32_t data, uint32_t strb,
			 uint32_t *resp);

/**
 * hws_model_set_bus - how hws_model_write() and hws_model_read() time their master
 * @m: the model
 * @random: 0: the reference master; 1: each transaction's timing drawn by
 *	hws_bus_timing_next() from a generator started at @seed (no reset restarts it)
 * @seed: the generator's seed
 *
 * The rtl backend draws the same sequence for the same seed, so a lockstep pair with the
 * same seed on both sides stays edge for edge in step.
 */
void hws_model_set_bus(struct hws_model *m, int random, uint64_t seed);

/**
 * hws_model_write_timed - hws_model_write() with the master's timing @t
 *
 * Return: the clock edges taken, hws_bus_timing_write_edges(@t).
 */
unsigned hws_model_write_timed(struct hws_model *m, const struct hws_bus_timing *t,
			       uint32_t addr, uint32_t data, uint32_t strb, uint32_t *resp);

/**
 * hws_model_read_timed - hws_model_read() with the master's timing @t
 *
 * Return: clock edges taken (2 + t->ar_delay + t->resp_stall, plus the edges waited).
 */
unsigned hws_model_read_timed(struct hws_model *m, const struct hws_bus_timing *t,
			      uint32_t addr, uint32_t *data, uint32_t *resp);

/**
 * hws_model_read - one AXI4-Lite read transaction
 * @m: the model
 * @addr: byte address
 * @data: receives RDATA
 * @resp: receives RRESP
 *
 * Return: clock edges taken (2, plus the edges a RESULT or SYNC read waited).
 */
unsigned hws_model_read(struct hws_model *m, uint32_t addr, uint32_t *data, uint32_t *resp);

/* hws_model_irq_lines - the interrupt lines now: IRQ_PEND & IRQ_EN, bit c = CPU c
 * (rtl/hws_top.v irq_cpu_o; irq_o is their OR). */
uint64_t hws_model_irq_lines(const struct hws_model *m);

/* hws_model_idle - let @edges clock edges pass with the bus idle. */
void hws_model_idle(struct hws_model *m, unsigned edges);

/* hws_model_nr_ports - the model's AXI4-Lite ports (struct hws_params.nr_ports, 0 -> 1). */
unsigned hws_model_nr_ports(const struct hws_model *m);

/**
 * hws_model_pins - one clock edge with every port's pins driven (docs/accelerator.md 4.5)
 * @m: the model
 * @in: hws_model_nr_ports() entries: each port's master inputs during the cycle
 * @out: as many entries: each port's outputs after the edge
 *
 * The model then keeps hws_axil_slave's handshake state too (held AW/W, BVALID, RVALID),
 * so its outputs equal the RTL's pins at every edge. The transaction functions above drive
 * port 0 alone and assume no transaction of this function is in flight: do not mix the two
 * while a transaction is open.
 */
void hws_model_pins(struct hws_model *m, const struct hws_axil_in *in, struct hws_axil_out *out);

/* hws_model_pins_now - every port's outputs as the last edge left them. */
void hws_model_pins_now(const struct hws_model *m, struct hws_axil_out *out);

/* A command in flight, as hws_model_inflight() reports it. */
struct hws_model_run {
	uint32_t cmd;		/* the command word */
	unsigned step;		/* 1..lat: the step it is in during the coming cycle */
	unsigned lat;		/* its latency (1 when it fails a check) */
	unsigned port;		/* the port it came from */
	int tag;		/* a POP/PEEKW window read's command */
};

/**
 * hws_model_inflight - the commands in flight after the last edge, oldest first
 * @m: the model
 * @out: receives them (two at most: PIPE = 1, docs/accelerator.md 4.1.1; else one)
 *
 * For tests of the issue rules: a command with step 1 was popped at the last edge, and
 * it completes at the edge after the coming lat - step.
 *
 * Return: how many (0..2).
 */
unsigned hws_model_inflight(const struct hws_model *m, struct hws_model_run out[2]);

/**
 * hws_model_overlaps - the commands popped beside an older one (PIPE = 1, the pop rule's
 * (a)-(e), docs/accelerator.md 4.1.1) since hws_model_create(); no reset clears it
 * @m: the model
 *
 * For tests that must show their stimulus overlaps. Return: the count (0 with PIPE = 0).
 */
uint64_t hws_model_overlaps(const struct hws_model *m);

/**
 * hws_model_check - check the invariants of docs/accelerator.md section 6
 * @m: the model
 * @msg: receives the first violation found
 * @len: size of @msg
 *
 * Walks every list. Return: 0, or -EPROTO with @msg set.
 */
int hws_model_check(const struct hws_model *m, char *msg, size_t len);

/**
 * hws_model_inject_fault - corrupt the model on purpose (tests of the lockstep checker)
 * @m: the model
 * @cpu: whose load counter gains 1
 *
 * Return: 0, or -EINVAL for a CPU out of range.
 */
int hws_model_inject_fault(struct hws_model *m, unsigned cpu);

#ifdef __cplusplus
}
#endif

#endif /* HWS_MODEL_H */
