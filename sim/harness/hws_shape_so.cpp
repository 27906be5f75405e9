// hws_shape_so.cpp - the harness of one engine shape, compiled into that shape's shared
// object (build/shapes/<key>/libhws_shape.so, tools/build_shape.sh; docs/shapes.md).
//
// Compiled with -DHWS_VHDR="Vhws.h" (the Verilated class Vhws of this shape), the
// parameters as built, -DHWS_V_<field>=N for each field of struct hws_params
// (build/hws_shape_key --defines KEY: regmap/params.def's, nr_ports and bal_lanes never 0),
// -DHWS_V_BUILT_WITH="..." and VM_TRACE 0 or 1,
// and -fvisibility=hidden: the one symbol exported is hws_shape_v1().
#include "hws_vsim_impl.h"

#include <cstdio>

#include HWS_VHDR
#include "hws_shape.h"

namespace {

using Impl = hws::Vsim;

void *create(const hws_vsim_opts *o, char *msg, size_t len)
{
	std::string err;
	Impl *v = hws::create_instance<Vhws>(o, &err);

	if (!v)
		snprintf(msg, len, "%s", err.c_str());
	return v;
}

void destroy(void *inst)
{
	delete static_cast<Impl *>(inst);
}

void reset(void *inst)
{
	static_cast<Impl *>(inst)->reset();
}

unsigned write(void *inst, const hws_bus_timing *t, uint32_t addr, uint32_t data, uint32_t strb,
	       uint32_t *resp)
{
	return static_cast<Impl *>(inst)->write(*t, addr, data, strb, resp);
}

unsigned read(void *inst, const hws_bus_timing *t, uint32_t addr, uint32_t *data, uint32_t *resp)
{
	return static_cast<Impl *>(inst)->read(*t, addr, data, resp);
}

void idle(void *inst, unsigned edges)
{
	static_cast<Impl *>(inst)->idle(edges);
}

void pins(void *inst, const hws_axil_in *in, hws_axil_out *out)
{
	static_cast<Impl *>(inst)->pins(in, out);
}

uint64_t irq(void *inst, unsigned *any)
{
	return static_cast<Impl *>(inst)->irq(any);
}

const hws_shape_ops ops = {
	HWS_SHAPE_ABI, sizeof(hws_shape_ops),
#define HWS_V_FIELD(field, NAME) HWS_V_##field,
	HWS_PARAMS_FIELDS(HWS_V_FIELD)
#undef HWS_V_FIELD
	VM_TRACE, HWS_V_BUILT_WITH,
	create, destroy, reset, write, read, idle, pins, irq,
};

} // namespace

extern "C" __attribute__((visibility("default"))) const hws_shape_ops *hws_shape_v1(void);

extern "C" const hws_shape_ops *hws_shape_v1(void)
{
	return &ops;
}
