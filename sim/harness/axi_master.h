// axi_master.h - the AXI4-Lite master of docs/accelerator.md 4.2, written once for both
// harnesses that drive the Verilated engine: the C++ one (sim/harness/hws_vsim_impl.h, the
// rtl backend) and the SystemC TLM-2.0 target (sim/vp/vp_target.h). One transaction at a
// time, each VALID held until its handshake, timed by a struct hws_bus_timing
// (lib/hws_bus_timing.h, which the C model shares): AW and W together or either first,
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

#include "include/hws/regs.h"
#include "lib/hws_bus_timing.h"

namespace hwsaxi {

// A hung bus (a slave that never answers) is a harness bug: stop after this many edges.
constexpr unsigned kMaxWaitEdges = 100000;

// The reference master's timing.
constexpr hws_bus_timing kReference = { 0, 0, 0, 0 };

// Wait for BVALID (@wr) or RVALID, hold its READY low for @stall edges with it up, then
// take the response at the next edge; DECERR (3) when the slave never answers. Returns the
// edges taken; the READY is 1 again when it returns.
template <class P>
unsigned wait_response(P &p, bool wr, unsigned stall, uint32_t *data, uint32_t *resp)
{
	unsigned n = 0, stalled = 0;

	for (;;) {
		bool v = wr ? p.b_valid() : p.r_valid();
		bool ready = !v || stalled >= stall;

		if (wr)
			p.b_ready(ready);
		else
			p.r_ready(ready);
		if (v && ready) {
			*resp = wr ? p.b_resp() : p.r_resp();
			if (data)
				*data = p.r_data();
			p.edge();
			return n + 1;
		}
		if (v)
			stalled++;
		p.edge();
		if (++n >= kMaxWaitEdges) {
			*resp = 3;
			if (wr)
				p.b_ready(true);
			else
				p.r_ready(true);
			return n;
		}
	}
}

// One write transaction timed by @t; returns the edges it took, *resp gets BRESP.
template <class P>
unsigned write(P &p, const hws_bus_timing &t, uint32_t addr, uint32_t data, uint32_t strb,
	       uint32_t *resp)
{
	unsigned n = 0;
	bool aw_done = false, w_done = false;

	addr &= (1u << HWS_ADDR_W) - 1u;	// the address bits the engine decodes
	strb &= 0xfu;
	while (!(aw_done && w_done) && n < kMaxWaitEdges) {
		bool awv = !aw_done && n >= t.aw_delay;
		bool wv = !w_done && n >= t.w_delay;
		bool aw_hs, w_hs;

		p.aw(awv, addr);
		p.w(wv, data, strb);
		aw_hs = awv && p.aw_ready();
		w_hs = wv && p.w_ready();
		p.edge();
		n++;
		aw_done = aw_done || aw_hs;
		w_done = w_done || w_hs;
	}
	p.aw(false, addr);
	p.w(false, data, strb);
	return n + wait_response(p, true, t.resp_stall, nullptr, resp);
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
	unsigned n = 0;
	bool taken = false;

	addr &= (1u << HWS_ADDR_W) - 1u;	// the address bits the engine decodes
	while (!taken && n < kMaxWaitEdges) {
		bool arv = n >= t.ar_delay;

		p.ar(arv, addr);
		taken = arv && p.ar_ready();
		p.edge();
		n++;
	}
	p.ar(false, addr);
	return n + wait_response(p, false, t.resp_stall, data, resp);
}

// One read with the reference timing.
template <class P> unsigned read(P &p, uint32_t addr, uint32_t *data, uint32_t *resp)
{
	return read(p, kReference, addr, data, resp);
}

} // namespace hwsaxi

#endif // HWS_AXI_MASTER_H
