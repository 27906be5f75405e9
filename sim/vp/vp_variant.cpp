// vp_variant.cpp - registers one Verilated SystemC parameter set (verilator --sc) with the
// virtual platform.
//
// Compiled once per variant with -DHWS_VCLASS=Vhws_sc_<name> -DHWS_VHDR="Vhws_sc_<name>.h"
// and -DHWS_V_CPUS/-DHWS_V_TASKS/-DHWS_V_CMD_DEPTH/-DHWS_V_RES_DEPTH/-DHWS_V_GROUPS (see
// the Makefile's VP_VARIANTS).
#include "vp_target.h"

#include HWS_VHDR

namespace {

hwsvp::EngineTarget *create(const char *name, sc_core::sc_time period)
{
	return new hwsvp::EngineTargetV<HWS_VCLASS>(name, period, HWS_V_CPUS, HWS_V_TASKS,
						    HWS_V_CMD_DEPTH, HWS_V_RES_DEPTH,
						    HWS_V_GROUPS);
}

hwsvp::TargetVariant variant = {
	HWS_V_CPUS, HWS_V_TASKS, HWS_V_CMD_DEPTH, HWS_V_RES_DEPTH, HWS_V_GROUPS, create, nullptr,
};

struct Registrar {
	Registrar() { hwsvp::register_target(&variant); }
} registrar;

} // namespace
