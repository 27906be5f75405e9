// vp_target.h - the engine as a TLM-2.0 target: the Verilated SystemC model of
// rtl/hws_top.v (verilator --sc) behind a tlm_utils::simple_target_socket.
//
// b_transport turns each generic-payload read or write into one AXI4-Lite transaction,
// driven by the reference master of sim/harness/axi_master.h, as the rtl backend drives it
// by default (VALIDs held until taken, BREADY = RREADY = 1, one transaction at a time), so every access takes the
// same clock edges as on the rtl backend. Loosely timed: the clock is toggled inside
// b_transport in delta cycles, SystemC time does not move, and the edges the transaction
// took, times the clock period, are added to the annotated delay (docs/vp.md).
//
// Refused without touching the engine (no clock edge, no signal change):
//   misaligned address, or beyond the 256-byte register window -> TLM_ADDRESS_ERROR_RESPONSE
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

#include "sim/harness/axi_master.h"

namespace hwsvp {

constexpr uint32_t kWindow = 0x100;	// the engine's register window (8-bit addresses)

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
		ensure_reset();
		for (unsigned i = 0; i < n; i++)
			edge();
		return period_ * n;
	}

protected:
	EngineTarget(sc_core::sc_module_name name, sc_core::sc_time period, unsigned cpus,
		     unsigned tasks, unsigned cmd, unsigned res, unsigned groups)
		: sc_core::sc_module(name), socket("socket"), nr_cpus(cpus), nr_tasks(tasks),
		  cmd_depth(cmd), res_depth(res), nr_groups(groups), period_(period)
	{
		socket.register_b_transport(this, &EngineTarget::b_transport);
		clk_.write(false);
		rst_n_.write(true);
		awvalid_.write(false);
		wvalid_.write(false);
		arvalid_.write(false);
		bready_.write(true);
		rready_.write(true);
	}

	// The AXI signals the Verilated model's ports bind to. Written by whichever thread
	// makes the access (each CPU's), hence many writers (one at a time).
	template <class T> using sig = sc_core::sc_signal<T, sc_core::SC_MANY_WRITERS>;
	sig<bool> clk_{ "clk" }, rst_n_{ "rst_n" };
	sig<bool> awvalid_{ "awvalid" }, awready_{ "awready" };
	sig<uint32_t> awaddr_{ "awaddr" }, awprot_{ "awprot" };
	sig<bool> wvalid_{ "wvalid" }, wready_{ "wready" };
	sig<uint32_t> wdata_{ "wdata" }, wstrb_{ "wstrb" };
	sig<bool> bvalid_{ "bvalid" }, bready_{ "bready" };
	sig<uint32_t> bresp_{ "bresp" };
	sig<bool> arvalid_{ "arvalid" }, arready_{ "arready" };
	sig<uint32_t> araddr_{ "araddr" }, arprot_{ "arprot" };
	sig<bool> rvalid_{ "rvalid" }, rready_{ "rready" };
	sig<uint32_t> rresp_{ "rresp" }, rdata_{ "rdata" };

private:
	sc_core::sc_time period_;
	bool reset_done_ = false;

	// Two delta cycles: the signal writes are applied, the Verilated eval (an SC_METHOD
	// sensitive to them) runs, and its output writes are applied, whatever order the
	// kernel runs this thread and that method in.
	static void settle()
	{
		sc_core::wait(sc_core::SC_ZERO_TIME);
		sc_core::wait(sc_core::SC_ZERO_TIME);
	}

	// One rising edge with the inputs already written: rise, settle, fall, settle (the
	// harness's tick()).
	void edge()
	{
		clk_.write(true);
		settle();
		clk_.write(false);
		settle();
		if (reset_done_)
			edges++;
	}

	// rst_ni low for two edges, then released (the harness's reset()); done on the first
	// access, from the caller's thread, since a constructor cannot wait.
	void ensure_reset()
	{
		if (reset_done_)
			return;
		settle();	// the model's initial evaluation
		rst_n_.write(false);
		edge();
		edge();
		rst_n_.write(true);
		settle();
		reset_done_ = true;
	}

	// The slave's pins for the shared master (sim/harness/axi_master.h): the signals the
	// Verilated model's ports bind to, and the delta-cycle edge().
	struct Pins {
		EngineTarget &t;

		void aw(bool valid, uint32_t addr)
		{
			t.awvalid_.write(valid);
			t.awaddr_.write(addr);
		}
		void w(bool valid, uint32_t data, uint32_t strb)
		{
			t.wvalid_.write(valid);
			t.wdata_.write(data);
			t.wstrb_.write(strb);
		}
		void ar(bool valid, uint32_t addr)
		{
			t.arvalid_.write(valid);
			t.araddr_.write(addr);
		}
		void b_ready(bool r) { t.bready_.write(r); }
		void r_ready(bool r) { t.rready_.write(r); }
		bool aw_ready() const { return t.awready_.read(); }
		bool w_ready() const { return t.wready_.read(); }
		bool ar_ready() const { return t.arready_.read(); }
		bool b_valid() const { return t.bvalid_.read(); }
		bool r_valid() const { return t.rvalid_.read(); }
		uint32_t b_resp() const { return t.bresp_.read(); }
		uint32_t r_resp() const { return t.rresp_.read(); }
		uint32_t r_data() const { return t.rdata_.read(); }
		void edge() { t.edge(); }
	};

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
		Pins pins{ *this };

		ensure_reset();
		if (cmd == tlm::TLM_WRITE_COMMAND) {
			memcpy(&data, p.get_data_ptr(), 4);
			n = hwsaxi::write(pins, (uint32_t)addr, data, strb, &resp);
		} else {
			n = hwsaxi::read(pins, (uint32_t)addr, &data, &resp);
			memcpy(p.get_data_ptr(), &data, 4);
		}
		transactions++;
		last_edges = n;
		delay += period_ * n;
		p.set_response_status(resp == 0 ? tlm::TLM_OK_RESPONSE :
						  tlm::TLM_GENERIC_ERROR_RESPONSE);
	}
};

// One Verilated class (one parameter set) wired to the signals.
template <class V> class EngineTargetV final : public EngineTarget {
public:
	EngineTargetV(sc_core::sc_module_name name, sc_core::sc_time period, unsigned cpus,
		      unsigned tasks, unsigned cmd, unsigned res, unsigned groups)
		: EngineTarget(name, period, cpus, tasks, cmd, res, groups), top_("engine")
	{
		top_.clk_i(clk_);
		top_.rst_ni(rst_n_);
		top_.s_axi_awvalid_i(awvalid_);
		top_.s_axi_awready_o(awready_);
		top_.s_axi_awaddr_i(awaddr_);
		top_.s_axi_awprot_i(awprot_);
		top_.s_axi_wvalid_i(wvalid_);
		top_.s_axi_wready_o(wready_);
		top_.s_axi_wstrb_i(wstrb_);
		top_.s_axi_bvalid_o(bvalid_);
		top_.s_axi_bready_i(bready_);
		top_.s_axi_bresp_o(bresp_);
		top_.s_axi_arvalid_i(arvalid_);
		top_.s_axi_arready_o(arready_);
		top_.s_axi_araddr_i(araddr_);
		top_.s_axi_arprot_i(arprot_);
		top_.s_axi_rvalid_o(rvalid_);
		top_.s_axi_rready_i(rready_);
		top_.s_axi_rresp_o(rresp_);
		top_.s_axi_wdata_i(wdata_);
		top_.s_axi_rdata_o(rdata_);
	}

private:
	V top_;
};

// A factory per linked-in variant (sim/vp/vp_variant.cpp), registered at start-up.
struct TargetVariant {
	unsigned nr_cpus, nr_tasks, cmd_depth, res_depth, nr_groups;
	EngineTarget *(*create)(const char *name, sc_core::sc_time period);
	TargetVariant *next;
};
void register_target(TargetVariant *v);
// The variant with these parameters, or NULL; *built lists the linked-in ones.
const TargetVariant *find_target(unsigned cpus, unsigned tasks, unsigned cmd, unsigned res,
				 unsigned groups, std::string *built);

} // namespace hwsvp

#endif // HWS_VP_TARGET_H
