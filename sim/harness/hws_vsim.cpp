// hws_vsim.cpp - the variant registry and the C ABI of hws_vsim.h.
#include "hws_vsim_impl.h"

#include <cerrno>
#include <cstdio>
#include <string>

namespace hws {

static VsimVariant *variants;

void register_variant(VsimVariant *v)
{
	v->next = variants;
	variants = v;
}

} // namespace hws

struct hws_vsim {
	hws::Vsim *impl;
};

extern "C" const char *hws_vsim_variants(void)
{
	static std::string list;

	list.clear();
	for (hws::VsimVariant *v = hws::variants; v; v = v->next) {
		if (!list.empty())
			list += ' ';
		list += std::to_string(v->nr_cpus) + "x" + std::to_string(v->nr_tasks) + "/" +
			std::to_string(v->cmd_depth) + "/" + std::to_string(v->res_depth) + "/g" +
			std::to_string(v->nr_groups) + (v->no_balance ? "/nobal" : "") +
			(v->no_err_counters ? "/nocnt" : "");
	}
	return list.c_str();
}

extern "C" int hws_vsim_create(struct hws_vsim **out, const struct hws_vsim_opts *o,
			       char *msg, size_t len)
{
	for (hws::VsimVariant *v = hws::variants; v; v = v->next) {
		if (v->nr_cpus != o->nr_cpus || v->nr_tasks != o->nr_tasks ||
		    v->cmd_depth != o->cmd_depth || v->res_depth != o->res_depth ||
		    v->nr_groups != o->nr_groups || v->no_balance != o->no_balance ||
		    v->no_err_counters != o->no_err_counters)
			continue;
		std::string err;
		hws::Vsim *impl = v->create(o, &err);
		if (!impl) {
			snprintf(msg, len, "%s", err.c_str());
			return -EIO;
		}
		*out = new hws_vsim{ impl };
		return 0;
	}
	snprintf(msg, len,
		 "no Verilated engine with %u CPUs, %u tasks, FIFOs %u/%u, %u groups%s%s is built "
		 "in (cpus x tasks / cmd / res depth / groups [/nobal] [/nocnt] available: %s; add "
		 "one to RTL_VARIANTS in the Makefile)",
		 o->nr_cpus, o->nr_tasks, o->cmd_depth, o->res_depth, o->nr_groups,
		 o->no_balance ? ", no BALANCE" : "",
		 o->no_err_counters ? ", no per-code error counters" : "", hws_vsim_variants());
	return -ENOTSUP;
}

extern "C" void hws_vsim_destroy(struct hws_vsim *s)
{
	if (!s)
		return;
	delete s->impl;
	delete s;
}

extern "C" void hws_vsim_reset(struct hws_vsim *s)
{
	s->impl->reset();
}

extern "C" unsigned hws_vsim_write(struct hws_vsim *s, uint32_t addr, uint32_t data,
				   uint32_t strb, uint32_t *resp)
{
	return s->impl->write(hwsaxi::kReference, addr, data, strb, resp);
}

extern "C" unsigned hws_vsim_read(struct hws_vsim *s, uint32_t addr, uint32_t *data,
				  uint32_t *resp)
{
	return s->impl->read(hwsaxi::kReference, addr, data, resp);
}

extern "C" unsigned hws_vsim_write_timed(struct hws_vsim *s, const struct hws_bus_timing *t,
					 uint32_t addr, uint32_t data, uint32_t strb,
					 uint32_t *resp)
{
	return s->impl->write(*t, addr, data, strb, resp);
}

extern "C" unsigned hws_vsim_read_timed(struct hws_vsim *s, const struct hws_bus_timing *t,
					uint32_t addr, uint32_t *data, uint32_t *resp)
{
	return s->impl->read(*t, addr, data, resp);
}

extern "C" void hws_vsim_idle(struct hws_vsim *s, unsigned edges)
{
	s->impl->idle(edges);
}
