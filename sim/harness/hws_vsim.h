/*
 * hws_vsim - the Verilated engine (rtl/hws_top.v) behind a small C ABI.
 *
 * The reusable Verilator harness: clock, reset, N idle cycles, an optional FST waveform,
 * and the AXI4-Lite bus master of axi_master.h: the reference one (VALIDs held until taken,
 * BREADY = RREADY = 1, one transaction at a time, docs/accelerator.md section 4.2), or timed
 * per transaction by a struct hws_bus_timing (channel order, back-pressure). Its
 * functions have the same shape as hws_model_*, so the driver treats both alike.
 *
 * Verilator fixes parameters at build time, so each parameter set is its own Verilated
 * model: a shared object per shape, built on demand into build/shapes/ and loaded with
 * dlopen (hws_shape.h, docs/shapes.md). These functions are the C ABI over whichever
 * shape an instance was created with.
 */
#ifndef HWS_VSIM_H
#define HWS_VSIM_H

#include <stddef.h>
#include <stdint.h>

#include "include/hws/axil_pins.h"
#include "include/hws/params_list.h"
#include "include/hws/units.h"
#include "lib/hws_bus_timing.h"

#ifdef __cplusplus
extern "C" {
#endif

struct hws_vsim;

/* Harness options. */
struct hws_vsim_opts {
	unsigned nr_cpus, nr_tasks, cmd_depth, res_depth, nr_groups;
	const char *wave;	/* FST file to write, or NULL */
	unsigned deep_check;	/* 0: off; N: RTL walks every list every N idle cycles */
	unsigned no_balance;	/* the variant built without BALANCE (LCU_BALANCE = 0) */
	unsigned no_err_counters; /* ... without the per-code error counters (ERR_COUNTERS = 0) */
	unsigned nr_ports;	/* NR_PORTS, 1..4 (0 means 1) */
	unsigned bal_lanes;	/* BAL_LANES, 1..nr_cpus (0 means nr_cpus) */
	unsigned no_irq;	/* ... without the preemption interrupt (IRQ = 0) */
	unsigned pipe;		/* PIPE, 0 or 1 (overlapped issue, docs/accelerator.md 4.1.1;
				 * the shape key's pi) */
	HWS_PARAMS_ADDED(HWS_PARAMS_DECLARE)	/* regmap/params.def's, after "added" */
};

/**
 * hws_vsim_create - build an engine instance and reset it
 * @out: receives the instance
 * @o: parameters and options
 * @msg: receives the reason on failure
 * @len: size of @msg
 *
 * The shape is built first when it is not in the cache (a line on stderr says so), unless
 * building is off (hws_shape_set_build()).
 *
 * Return: 0; -EINVAL for parameters outside the spec's ranges; -ENOTSUP when the shape is
 * not built and building is off (@msg gives the command that builds it); -EIO when the
 * build fails, the shape does not load or the waveform cannot be opened.
 */
int hws_vsim_create(struct hws_vsim **out, const struct hws_vsim_opts *o, char *msg,
		    size_t len);
void hws_vsim_destroy(struct hws_vsim *s);

/* hws_vsim_reset - hold rst_ni low for two edges, then release it. */
void hws_vsim_reset(struct hws_vsim *s);

/* One write transaction; returns the edges it took, *resp gets BRESP. */
unsigned hws_vsim_write(struct hws_vsim *s, uint32_t addr, uint32_t data, uint32_t strb,
			uint32_t *resp);

/* One read transaction; returns the edges it took. */
unsigned hws_vsim_read(struct hws_vsim *s, uint32_t addr, uint32_t *data, uint32_t *resp);

/* hws_vsim_write() / hws_vsim_read() with the master timed by @t (lib/hws_bus_timing.h). */
unsigned hws_vsim_write_timed(struct hws_vsim *s, const struct hws_bus_timing *t,
			      uint32_t addr, uint32_t data, uint32_t strb, uint32_t *resp);
unsigned hws_vsim_read_timed(struct hws_vsim *s, const struct hws_bus_timing *t,
			     uint32_t addr, uint32_t *data, uint32_t *resp);

/* Let @edges edges pass with the bus idle. */
void hws_vsim_idle(struct hws_vsim *s, unsigned edges);

/* The instance's AXI4-Lite ports (NR_PORTS). */
unsigned hws_vsim_nr_ports(const struct hws_vsim *s);

/*
 * hws_vsim_pins - one edge with every port's pins driven: @in and @out hold
 * hws_vsim_nr_ports() entries (the master's inputs during the cycle, the slave's outputs
 * after the edge). The transaction functions above drive port 0 with the others idle; do
 * not mix the two while a transaction is open.
 */
void hws_vsim_pins(struct hws_vsim *s, const struct hws_axil_in *in, struct hws_axil_out *out);

/* hws_vsim_irq - the interrupt pins now: irq_cpu_o (bit c = CPU c; 0 in a shape built
 * without the interrupt, IRQ = 0); @any, when not NULL, receives irq_o. */
uint64_t hws_vsim_irq(struct hws_vsim *s, unsigned *any);

/* hws_vsim_units - the units' boundary values now (include/hws/units.h): the output ports
 * the RTL marks public_flat_rd, read after the last edge. */
void hws_vsim_units(struct hws_vsim *s, struct hws_units *u);

/* The shapes that can be simulated and where they are built, for help texts. */
const char *hws_vsim_shapes(void);

#ifdef __cplusplus
}
#endif

#endif /* HWS_VSIM_H */
