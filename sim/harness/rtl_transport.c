/*
 * rtl_transport.c - the Verilated RTL behind the driver's transport interface
 * (include/hws/transport.h): backend "rtl", registered when the harness is linked.
 *
 * Which engine shapes exist is the harness's business: hws_vsim_create() loads the
 * shape's shared object, building it first when it is not built (sim/harness/hws_shape.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "hws/regs.h"
#include "hws/transport.h"
#include "lib/hws_bus_timing.h"
#include "sim/harness/hws_vsim.h"

/* The engine and its master's timing: the reference, or drawn per transaction. */
struct rtl_tp {
	struct hws_vsim *s;
	int random;
	struct hws_bus_gen bus;
};

static void next_timing(struct rtl_tp *r, struct hws_bus_timing *t)
{
	static const struct hws_bus_timing ref = { 0, 0, 0, 0 };

	if (r->random)
		hws_bus_timing_next(&r->bus, t);
	else
		*t = ref;
}

static unsigned rtl_read(void *ctx, unsigned master, uint32_t addr, uint32_t *data,
			 uint32_t *resp, double *ns)
{
	struct rtl_tp *r = ctx;
	struct hws_bus_timing t;

	(void)master;
	(void)ns;
	next_timing(r, &t);
	return hws_vsim_read_timed(r->s, &t, addr, data, resp);
}

static unsigned rtl_write(void *ctx, unsigned master, uint32_t addr, uint32_t data,
			  uint32_t strb, uint32_t *resp, double *ns)
{
	struct rtl_tp *r = ctx;
	struct hws_bus_timing t;

	(void)master;
	(void)ns;
	next_timing(r, &t);
	return hws_vsim_write_timed(r->s, &t, addr, data, strb, resp);
}

static void rtl_idle(void *ctx, unsigned edges, double *ns)
{
	(void)ns;
	hws_vsim_idle(((struct rtl_tp *)ctx)->s, edges);
}

static void rtl_destroy(void *ctx)
{
	struct rtl_tp *r = ctx;

	hws_vsim_destroy(r->s);
	free(r);
}

/* The reset pin of hws_top (rst_ni), held low HWS_RESET_EDGES edges by the harness. */
static unsigned rtl_reset(void *ctx, uint32_t *resp, double *ns)
{
	(void)ns;
	hws_vsim_reset(((struct rtl_tp *)ctx)->s);
	*resp = HWS_RESP_OKAY;
	return HWS_RESET_EDGES;
}

/* Every port's pins, one edge (hws_vsim_pins()). */
static int rtl_pins(void *ctx, const struct hws_axil_in *in, struct hws_axil_out *out)
{
	hws_vsim_pins(((struct rtl_tp *)ctx)->s, in, out);
	return 0;
}

/* The units' boundary values: the RTL's ports, whenever asked. */
static int rtl_units(void *ctx, struct hws_units *u)
{
	hws_vsim_units(((struct rtl_tp *)ctx)->s, u);
	return 0;
}

/* No check or fault injection: the RTL checks its own invariants (deep_check). */
static const struct hws_transport_ops rtl_ops = {
	.read = rtl_read,
	.write = rtl_write,
	.idle = rtl_idle,
	.destroy = rtl_destroy,
	.reset = rtl_reset,
	.pins = rtl_pins,
	.units = rtl_units,
};

/* The engine comes out of the harness's reset. */
static int rtl_open(const struct hws_backend_args *a, struct hws_transport *out, char *msg,
		    size_t len)
{
	const struct hws_params *p = &a->params;
	struct hws_vsim_opts o = { .wave = a->wave, .deep_check = a->deep_check };
	struct rtl_tp *r;
	int ret;

#define COPY(field, NAME) o.field = p->field;
	HWS_PARAMS_FIELDS(COPY)	/* every parameter of regmap/params.def */
#undef COPY
	r = calloc(1, sizeof(*r));
	if (!r) {
		snprintf(msg, len, "out of memory");
		return -ENOMEM;
	}
	ret = hws_vsim_create(&r->s, &o, msg, len);
	if (ret) {
		free(r);
		return ret;
	}
	r->random = a->bus_random != 0;
	hws_bus_gen_init(&r->bus, a->bus_seed);
	out->ops = &rtl_ops;
	out->ctx = r;
	out->name = "rtl";
	out->addr_w = HWS_ADDR_W;
	out->nr_ports = hws_vsim_nr_ports(r->s);
	return 0;
}

static struct hws_backend rtl_backend = {
	.name = "rtl",
	.summary = "the Verilated RTL (sim/harness/), any shape, built on first use",
	.open = rtl_open,
	.shapes = hws_vsim_shapes,
};

__attribute__((constructor)) static void rtl_register(void)
{
	hws_backend_register(&rtl_backend);
}
