/*
 * hws_model_transport.c - the C model behind the driver's transport interface
 * (include/hws/transport.h): backend "model", registered when this unit is linked.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "hws/regs.h"
#include "hws/transport.h"
#include "models/hws_model_int.h"

static unsigned model_read(void *ctx, unsigned master, uint32_t addr, uint32_t *data,
			   uint32_t *resp, double *ns)
{
	(void)master;
	(void)ns;
	return hws_model_read(ctx, addr, data, resp);
}

static unsigned model_write(void *ctx, unsigned master, uint32_t addr, uint32_t data,
			    uint32_t strb, uint32_t *resp, double *ns)
{
	(void)master;
	(void)ns;
	return hws_model_write(ctx, addr, data, strb, resp);
}

static void model_idle(void *ctx, unsigned edges, double *ns)
{
	(void)ns;
	hws_model_idle(ctx, edges);
}

static void model_destroy(void *ctx)
{
	hws_model_destroy(ctx);
}

static int model_check(void *ctx, char *msg, size_t len)
{
	return hws_model_check(ctx, msg, len);
}

static int model_inject_fault(void *ctx, unsigned cpu)
{
	return hws_model_inject_fault(ctx, cpu);
}

/* rst_ni: the model's reset state; the edges under reset change nothing in it. */
static unsigned model_reset(void *ctx, uint32_t *resp, double *ns)
{
	(void)ns;
	hws_model_reset(ctx);
	*resp = HWS_RESP_OKAY;
	return HWS_RESET_EDGES;
}

/* Every port's pins, one edge (hws_model_pins()). */
static int model_pins(void *ctx, const struct hws_axil_in *in, struct hws_axil_out *out)
{
	hws_model_pins(ctx, in, out);
	return 0;
}

static int model_overlaps(void *ctx, uint64_t *n)
{
	*n = hws_model_overlaps(ctx);
	return 0;
}

static int model_units(void *ctx, struct hws_units *u)
{
	return hws_model_units(ctx, u);
}

static const struct hws_transport_ops model_ops = {
	.read = model_read,
	.write = model_write,
	.idle = model_idle,
	.destroy = model_destroy,
	.check = model_check,
	.inject_fault = model_inject_fault,
	.reset = model_reset,
	.pins = model_pins,
	.overlaps = model_overlaps,
	.units = model_units,
};

/* The model starts in its reset state, as the RTL comes out of its harness's reset. */
static int model_open(const struct hws_backend_args *a, struct hws_transport *out, char *msg,
		      size_t len)
{
	struct hws_model *m;
	struct hws_params p = a->params;
	int ret;

	/* "model:pipe": PIPE = 1 (docs/accelerator.md 4.1.1) whatever hws_config.pipe says */
	if (a->arg && !strcmp(a->arg, "pipe")) {
		p.pipe = 1;
	} else if (a->arg && *a->arg) {
		snprintf(msg, len, "the model backend takes no argument but \"pipe\" (got \"%s\")",
			 a->arg);
		return -EINVAL;
	}
	ret = hws_model_create(&m, &p);
	if (ret) {
		snprintf(msg, len, "cannot create the model: %s", strerror(-ret));
		return ret;
	}
	hws_model_set_bus(m, a->bus_random != 0, a->bus_seed);
	out->ops = &model_ops;
	out->ctx = m;
	out->name = "model";
	out->addr_w = HWS_ADDR_W;
	out->nr_ports = hws_model_nr_ports(m);
	return 0;
}

static struct hws_backend model_backend = {
	.name = "model",
	.summary = "the bit- and cycle-exact C model (models/)",
	.open = model_open,
	.arg = "pipe (the engine with PIPE = 1)",
};

__attribute__((constructor)) static void model_register(void)
{
	hws_backend_register(&model_backend);
}
