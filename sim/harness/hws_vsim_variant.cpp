// hws_vsim_variant.cpp - registers one Verilated parameter set with the harness.
//
// Compiled once per variant with -DHWS_VCLASS=Vhws_<name> -DHWS_VHDR="Vhws_<name>.h" and
// -DHWS_V_CPUS/-DHWS_V_TASKS/-DHWS_V_CMD_DEPTH/-DHWS_V_RES_DEPTH/-DHWS_V_GROUPS and
// -DHWS_V_NO_BALANCE/-DHWS_V_NO_ERR_COUNTERS (see the Makefile).
#include "hws_vsim_impl.h"

#include HWS_VHDR

namespace {

hws::VsimVariant variant = {
	HWS_V_CPUS, HWS_V_TASKS, HWS_V_CMD_DEPTH, HWS_V_RES_DEPTH, HWS_V_GROUPS, HWS_V_NO_BALANCE,
	HWS_V_NO_ERR_COUNTERS,
	hws::create_variant<HWS_VCLASS>, nullptr,
};

struct Registrar {
	Registrar() { hws::register_variant(&variant); }
} registrar;

} // namespace
