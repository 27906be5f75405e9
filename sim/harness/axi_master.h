// axi_master.h - the AXI4-Lite master of docs/accelerator.md 4.2, written once for both
// harnesses that drive the Verilated engine: the C++ one (sim/harness/hws_vsim_impl.h, the
// rtl backend) and the SystemC TLM-2.0 target (sim/vp/vp_target.h). One transaction at a
// time, each VALID held until its handshake, timed by a struct hws_bus_timing
// (lib/hws_bus_timing.h, which the C model shares) as lib/hws_port_master.h steps it (the
// per-edge master of the multi-port tests and bench, the rule's one home): AW and W
// together or either first,
// ARVALID late, BREADY/RREADY low for a span while the response is up. All-zero timing is
// the reference master (VALIDs at once, BREADY = RREADY = 1), whose edges the VP's
// zero-latency equivalence with `run` rests on.
//
// @P is a harness's view of the slave's pins and clock:
//   void aw(bool valid, addr)          AWVALID and AWADDR
//   void w(bool valid, data, strb)     WVALID, WDATA and WSTRB
//   void ar(bool valid, addr)          ARVALID and ARADDR
//   void b_ready(bool), r_ready(bool)  BREADY, RREADY (1 between transactions)
//   bool aw_ready(), w_ready(), ar_ready(), b_valid(), r_valid()
//   uint32_t b_resp(), r_resp(), r_data()
//   void edge()                        one rising edge with the inputs as they are
// The slave's outputs are registers (READY and VALID are functions of its state only), so
// they are sampled as the last edge left them.
#ifndef HWS_AXI_MASTER_H
#define HWS_AXI_MASTER_H

#include <cstdint>

#include "include/hws/axil_pins.h"
#include "include/hws/regs.h"
#include "lib/hws_bus_timing.h"
#include "lib/hws_port_master.h"

namespace hwsaxi {

// A hung bus (a slave that never answers) is a harness bug: stop after this many edges.
constexpr unsigned kMaxWaitEdges = 100000;

// The reference master's timing.
constexpr hws_bus_timing kReference = { 0, 0, 0, 0 };

// Run the transaction @pm holds to its end on @p's pins: each edge, the slave's outputs as
// the last edge left them go to hws_pm_drive() (lib/hws_port_master.h, the one home of the
// master's timing), its inputs to the pins of the channels this transaction uses (the
// other channel's pins are left as they are). Returns the edges taken; *resp gets
// BRESP/RRESP and *data RDATA (reads), or DECERR (3) and READYs of 1 when the slave never
// answers.
template <class P>
unsigned run(P &p, hws_port_master &pm, uint32_t *data, uint32_t *resp)
{
	unsigned n = 0;

	for (;;) {
		hws_axil_out o;
		hws_axil_in in;

		o.awready = p.aw_ready();
		o.wready = p.w_ready();
		o.bvalid = p.b_valid();
		o.bresp = p.b_resp();
		o.arready = p.ar_ready();
		o.rvalid = p.r_valid();
		o.rdata = p.r_data();
		o.rresp = p.r_resp();
		hws_pm_drive(&pm, &o, &in);
		if (pm.write) {
			p.aw(in.awvalid, in.awaddr);
			p.w(in.wvalid, in.wdata, in.wstrb);
			p.b_ready(in.bready);
		} else {
			p.ar(in.arvalid, in.araddr);
			p.r_ready(in.rready);
		}
		p.edge();
		n++;
		if (hws_pm_after(&pm)) {
			*resp = pm.resp;
			if (data)
				*data = pm.rdata;
			return n;
		}
		if (n >= 2 * kMaxWaitEdges) {	// the address phase's and the response's waits
			if (pm.write) {
				p.aw(false, pm.addr);
				p.w(false, pm.data, pm.strb);
				p.b_ready(true);
			} else {
				p.ar(false, pm.addr);
				p.r_ready(true);
			}
			*resp = 3;
			if (data)
				*data = 0;
			return n;
		}
	}
}

// One write transaction timed by @t; returns the edges it took, *resp gets BRESP.
template <class P>
unsigned write(P &p, const hws_bus_timing &t, uint32_t addr, uint32_t data, uint32_t strb,
	       uint32_t *resp)
{
	hws_port_master pm;

	hws_pm_init(&pm);
	hws_pm_write(&pm, &t, addr, data, strb);
	return run(p, pm, nullptr, resp);
}

// One write with the reference timing.
template <class P>
unsigned write(P &p, uint32_t addr, uint32_t data, uint32_t strb, uint32_t *resp)
{
	return write(p, kReference, addr, data, strb, resp);
}

// One read transaction timed by @t; returns the edges it took, *data and *resp get RDATA
// and RRESP.
template <class P>
unsigned read(P &p, const hws_bus_timing &t, uint32_t addr, uint32_t *data, uint32_t *resp)
{
	hws_port_master pm;

	hws_pm_init(&pm);
	hws_pm_read(&pm, &t, addr);
	return run(p, pm, data, resp);
}

// One read with the reference timing.
template <class P> unsigned read(P &p, uint32_t addr, uint32_t *data, uint32_t *resp)
{
	return read(p, kReference, addr, data, resp);
}

} // namespace hwsaxi

#endif // HWS_AXI_MASTER_H
