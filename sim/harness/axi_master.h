// axi_master.h - the reference AXI4-Lite master of docs/accelerator.md 4.2, written once
// for both harnesses that drive the Verilated engine: the C++ one (sim/harness/hws_vsim_impl.h,
// the rtl backend) and the SystemC TLM-2.0 target (sim/vp/vp_target.h). VALIDs are held
// until taken, BREADY = RREADY = 1, one transaction at a time, so an access takes the same
// clock edges on both (the VP's zero-latency equivalence with `run` rests on it).
//
// @P is a harness's view of the slave's pins and clock:
//   void aw_begin(addr, data, strb)   AWVALID = WVALID = 1 with address, data and strobes
//   void aw_end()                     AWVALID = WVALID = 0
//   bool aw_taken()                   AWREADY && WREADY
//   void ar_begin(addr), ar_end()     ARVALID = 1 with the address / ARVALID = 0
//   bool ar_taken()                   ARREADY
//   bool b_valid(), r_valid()         BVALID, RVALID
//   uint32_t b_resp(), r_resp(), r_data()
//   void edge()                       one rising edge with the inputs as they are
// The slave's outputs are registers (READY and VALID are functions of its state only), so
// they are sampled as the last edge left them.
#ifndef HWS_AXI_MASTER_H
#define HWS_AXI_MASTER_H

#include <cstdint>

namespace hwsaxi {

// A hung bus (a slave that never answers) is a harness bug: stop after this many edges.
constexpr unsigned kMaxWaitEdges = 100000;

// Wait for BVALID (@wr) or RVALID and take the response at that edge; DECERR (3) when the
// slave never answers.
template <class P> unsigned wait_response(P &p, bool wr, uint32_t *data, uint32_t *resp)
{
	unsigned n = 0;

	for (;;) {
		if (wr ? p.b_valid() : p.r_valid()) {
			*resp = wr ? p.b_resp() : p.r_resp();
			if (data)
				*data = p.r_data();
			p.edge();
			return n + 1;
		}
		p.edge();
		if (++n >= kMaxWaitEdges) {
			*resp = 3;
			return n;
		}
	}
}

// One write transaction; returns the edges it took, *resp gets BRESP.
template <class P>
unsigned write(P &p, uint32_t addr, uint32_t data, uint32_t strb, uint32_t *resp)
{
	unsigned n = 0;
	bool taken;

	p.aw_begin(addr & 0xffu, data, strb & 0xfu);
	do {
		taken = p.aw_taken();
		p.edge();
		n++;
	} while (!taken && n < kMaxWaitEdges);
	p.aw_end();
	return n + wait_response(p, true, nullptr, resp);
}

// One read transaction; returns the edges it took, *data and *resp get RDATA and RRESP.
template <class P> unsigned read(P &p, uint32_t addr, uint32_t *data, uint32_t *resp)
{
	unsigned n = 0;
	bool taken;

	p.ar_begin(addr & 0xffu);
	do {
		taken = p.ar_taken();
		p.edge();
		n++;
	} while (!taken && n < kMaxWaitEdges);
	p.ar_end();
	return n + wait_response(p, false, data, resp);
}

} // namespace hwsaxi

#endif // HWS_AXI_MASTER_H
