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
#include "Vhws___024root.h"
#include "hws_shape.h"
#include "hws/regs.h"

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

// ---- The units' boundary values (include/hws/units.h): output ports the RTL marks
// /*verilator public_flat_rd*/, read from the Verilated root by their flattened names.

constexpr unsigned clog2(uint64_t v)
{
	unsigned n = 0;

	while ((1ull << n) < v)
		n++;
	return n;
}

// rtl/hws_rq_engine.v's widths: a task count (NRW), a load (LDW).
constexpr unsigned kNrw = clog2(HWS_V_nr_tasks + 1ull);
constexpr unsigned kLdw = clog2(uint64_t(HWS_V_nr_tasks) * HWS_RT_WEIGHT + 1);

// @w <= 32 bits at @lsb: word by word from a wide signal, by shifts from a narrow one.
template <class T> inline uint32_t ufield(const T &sig, unsigned lsb, unsigned w)
{
	return hws::get_field(sig, lsb, w);
}
template <std::size_t N> inline uint32_t ufield(const VlWide<N> &sig, unsigned lsb, unsigned w)
{
	const unsigned k = lsb / 32, sh = lsb % 32;
	uint64_t v = static_cast<uint64_t>(sig[k]) >> sh;

	if (sh + w > 32 && k + 1 < N)
		v |= static_cast<uint64_t>(sig[k + 1]) << (32 - sh);
	return static_cast<uint32_t>(w >= 32 ? v : v & ((1ull << w) - 1));
}
template <class T> inline uint64_t ufield64(const T &sig, unsigned n)
{
	return n > 32 ? ufield(sig, 0, 32) | static_cast<uint64_t>(ufield(sig, 32, n - 32)) << 32 :
			ufield(sig, 0, n);
}

#define HWS_R(sig) (r->hws_top__DOT__##sig)
#define HWS_ENG(sig) HWS_R(u_engine__DOT__##sig)

void units(void *inst, hws_units *u)
{
	const Vhws___024root *r = static_cast<hws::VsimImpl<Vhws> *>(static_cast<Impl *>(inst))
					  ->model()->rootp;

	u->nr_cpus = HWS_V_nr_cpus;
	u->nr_tasks = HWS_V_nr_tasks;
	u->fe_eligible = HWS_R(g_port__BRA__0__KET____DOT__u_fe__DOT__eligible_o);
#if HWS_V_nr_ports > 1
	u->fe_eligible |= HWS_R(g_port__BRA__1__KET____DOT__u_fe__DOT__eligible_o) << 1;
#endif
#if HWS_V_nr_ports > 2
	u->fe_eligible |= HWS_R(g_port__BRA__2__KET____DOT__u_fe__DOT__eligible_o) << 2;
#endif
#if HWS_V_nr_ports > 3
	u->fe_eligible |= HWS_R(g_port__BRA__3__KET____DOT__u_fe__DOT__eligible_o) << 3;
#endif
	u->arb_win = HWS_R(u_arb__DOT__win_o);
	u->seq_busy = HWS_ENG(u_seq__DOT__busy_o);
	u->seq_two = HWS_ENG(u_seq__DOT__two_o);
	for (unsigned k = 0; k * 32 < HWS_V_nr_tasks; k++)
		u->queued[k] = ufield(HWS_ENG(u_lists__DOT__queued_o), k * 32,
				      HWS_V_nr_tasks - k * 32 < 32 ? HWS_V_nr_tasks - k * 32 : 32);
	for (unsigned c = 0; c < HWS_V_nr_cpus; c++) {
		u->nr[c * 2] = ufield(HWS_ENG(u_loads__DOT__nr_o), (c * 2) * kNrw, kNrw);
		u->nr[c * 2 + 1] = ufield(HWS_ENG(u_loads__DOT__nr_o), (c * 2 + 1) * kNrw, kNrw);
		u->load[c] = ufield(HWS_ENG(u_loads__DOT__load_o), c * kLdw, kLdw);
		u->hist[c] = ufield(HWS_ENG(u_loads__DOT__hist_o), c * kLdw, kLdw);
	}
	u->idle = ufield64(HWS_ENG(u_loads__DOT__idle_o), HWS_V_nr_cpus);
	u->swap = ufield64(HWS_ENG(u_loads__DOT__swap_o), HWS_V_nr_cpus);
	for (unsigned k = 0; k < 4; k++)
		u->bal[k] = ufield(HWS_ENG(u_dom__DOT__bal_regs_o), k * 32, 32);
	u->irq_pend = u->irq_en = 0;
#if !HWS_V_no_irq
	u->irq_pend = ufield(HWS_R(g_irq__DOT__u_irq__DOT__regs_o), 0, 32) |
		      static_cast<uint64_t>(ufield(HWS_R(g_irq__DOT__u_irq__DOT__regs_o), 32, 32))
			      << 32;
	u->irq_en = ufield(HWS_R(g_irq__DOT__u_irq__DOT__regs_o), 64, 32) |
		    static_cast<uint64_t>(ufield(HWS_R(g_irq__DOT__u_irq__DOT__regs_o), 96, 32))
			    << 32;
#endif
}

const hws_shape_ops ops = {
	HWS_SHAPE_ABI, sizeof(hws_shape_ops),
#define HWS_V_FIELD(field, NAME) HWS_V_##field,
	HWS_PARAMS_FIELDS(HWS_V_FIELD)
#undef HWS_V_FIELD
	VM_TRACE, HWS_V_BUILT_WITH,
	create, destroy, reset, write, read, idle, pins, irq, units,
};

} // namespace

extern "C" __attribute__((visibility("default"))) const hws_shape_ops *hws_shape_v1(void);

extern "C" const hws_shape_ops *hws_shape_v1(void)
{
	return &ops;
}
