// vp_target.h - the engine as a TLM-2.0 target: the Verilated engine of the harness
// (sim/harness/hws_vsim.h: the shape's shared object, built on demand, docs/shapes.md)
// behind a tlm_utils::simple_target_socket.
//
// b_transport turns each generic-payload read or write into one AXI4-Lite transaction of
// the harness's reference master (sim/harness/axi_master.h: VALIDs held until taken,
// BREADY = RREADY = 1, one transaction at a time), the same code as the rtl backend's, so
// every access takes the same clock edges there and here. Loosely timed: the engine is
// clocked inside b_transport, SystemC time does not move, and the edges the transaction
// took, times the clock period, are added to the annotated delay (docs/vp.md).
//
// Refused without touching the engine (no clock edge):
//   misaligned address, or beyond the engine's 2^ADDR_W-byte space -> TLM_ADDRESS_ERROR_RESPONSE
//   data length other than 4 bytes, or a streaming width below 4 -> TLM_BURST_ERROR_RESPONSE
//   byte enables on a read                                     -> TLM_BYTE_ENABLE_ERROR_RESPONSE
// An engine SLVERR (an unmapped register inside the window) is TLM_GENERIC_ERROR_RESPONSE.
#ifndef HWS_VP_TARGET_H
#define HWS_VP_TARGET_H

#include <cstdint>
#include <cstring>
#include <string>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "hws/regs.h"
#include "sim/harness/hws_vsim.h"

namespace hwsvp {

constexpr uint32_t kWindow = 1u << HWS_ADDR_W;	// the engine's address space: the registers
							// and the POP/PEEK windows (regmap ADDR_W)

class EngineTarget : public sc_core::sc_module {
public:
	tlm_utils::simple_target_socket<EngineTarget> socket;

	unsigned nr_cpus, nr_tasks, cmd_depth, res_depth, nr_groups;

	// Clock edges since reset (what the engine's CYCLES counts), transactions performed,
	// transactions refused before reaching the engine.
	uint64_t edges = 0, transactions = 0, refused = 0;
	unsigned last_edges = 0;	// of the most recent b_transport (0 when refused)

	sc_core::sc_time period() const { return period_; }

	// Let @n edges pass with the bus idle (from a thread); returns the time they took.
	sc_core::sc_time idle(unsigned n)
	{
		hws_vsim_idle(vs_, n);
		edges += n;
		return period_ * n;
	}

	// The engine of @o's shape (built first if it is not: hws_vsim_create()), out of
	// reset; NULL with *err set when it cannot be had.
	static EngineTarget *create(sc_core::sc_module_name name, sc_core::sc_time period,
				    const hws_vsim_opts &o, std::string *err)
	{
		struct hws_vsim *vs;
		char msg[1024];

		if (hws_vsim_create(&vs, &o, msg, sizeof(msg))) {
			*err = msg;
			return nullptr;
		}
		return new EngineTarget(name, period, o, vs);
	}

	~EngineTarget() override { hws_vsim_destroy(vs_); }

private:
	EngineTarget(sc_core::sc_module_name name, sc_core::sc_time period, const hws_vsim_opts &o,
		     struct hws_vsim *vs)
		: sc_core::sc_module(name), socket("socket"), nr_cpus(o.nr_cpus),
		  nr_tasks(o.nr_tasks), cmd_depth(o.cmd_depth), res_depth(o.res_depth),
		  nr_groups(o.nr_groups), period_(period), vs_(vs)
	{
		socket.register_b_transport(this, &EngineTarget::b_transport);
	}

	sc_core::sc_time period_;
	struct hws_vsim *vs_;

	void b_transport(tlm::tlm_generic_payload &p, sc_core::sc_time &delay)
	{
		const uint64_t addr = p.get_address();
		const tlm::tlm_command cmd = p.get_command();
		uint32_t data = 0, resp = 0, strb = 0xf;
		unsigned n;

		last_edges = 0;
		p.set_dmi_allowed(false);
		if (cmd == tlm::TLM_IGNORE_COMMAND) {
			p.set_response_status(tlm::TLM_OK_RESPONSE);
			return;
		}
		if ((addr & 3) || addr >= kWindow) {
			refused++;
			p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
			return;
		}
		if (p.get_data_length() != 4 || p.get_streaming_width() < 4 || !p.get_data_ptr()) {
			refused++;
			p.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
			return;
		}
		if (p.get_byte_enable_ptr()) {
			const unsigned char *be = p.get_byte_enable_ptr();
			unsigned len = p.get_byte_enable_length();

			if (cmd == tlm::TLM_READ_COMMAND || len == 0) {
				refused++;
				p.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
				return;
			}
			strb = 0;
			for (unsigned i = 0; i < 4; i++)
				if (be[i % len])
					strb |= 1u << i;
		}
		if (cmd == tlm::TLM_WRITE_COMMAND) {
			memcpy(&data, p.get_data_ptr(), 4);
			n = hws_vsim_write(vs_, (uint32_t)addr, data, strb, &resp);
		} else {
			n = hws_vsim_read(vs_, (uint32_t)addr, &data, &resp);
			memcpy(p.get_data_ptr(), &data, 4);
		}
		transactions++;
		edges += n;
		last_edges = n;
		delay += period_ * n;
		p.set_response_status(resp == 0 ? tlm::TLM_OK_RESPONSE :
						  tlm::TLM_GENERIC_ERROR_RESPONSE);
	}
};

} // namespace hwsvp

#endif // HWS_VP_TARGET_H
