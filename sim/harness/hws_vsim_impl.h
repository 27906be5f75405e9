// hws_vsim_impl.h - the harness, written once as a template over the Verilated class.
//
// Each shape's shared object (sim/harness/hws_shape_so.cpp, compiled once per shape into
// build/shapes/<key>/, docs/shapes.md) instantiates VsimImpl<Vhws> and exports it through
// the table of hws_shape.h; sim/harness/hws_vsim.c loads it and exports the C ABI of
// hws_vsim.h.
#ifndef HWS_VSIM_IMPL_H
#define HWS_VSIM_IMPL_H

#include <cstdint>
#include <memory>
#include <string>

#include "verilated.h"
#if VM_TRACE
#include "verilated_fst_c.h"
#endif

#include "axi_master.h"
#include "hws_vsim.h"

namespace hws {

// Port p's field of a packed pin vector (NR_PORTS ports, each field @w bits at p * w):
// Verilator gives a vector of up to 64 bits as an integer, a wider one as VlWide words.
template <class T> inline void set_field(T &sig, unsigned lsb, unsigned w, uint32_t v)
{
	const uint64_t mask = ((w >= 32) ? 0xffffffffull : ((1ull << w) - 1)) << lsb;

	sig = static_cast<T>((static_cast<uint64_t>(sig) & ~mask) |
			     ((static_cast<uint64_t>(v) << lsb) & mask));
}
template <std::size_t N>
inline void set_field(VlWide<N> &sig, unsigned lsb, unsigned w, uint32_t v)
{
	for (unsigned b = 0; b < w; b++) {
		const unsigned k = lsb + b;
		const uint32_t bit = 1u << (k % 32);

		sig[k / 32] = ((v >> b) & 1u) ? (sig[k / 32] | bit) : (sig[k / 32] & ~bit);
	}
}
template <class T> inline uint32_t get_field(const T &sig, unsigned lsb, unsigned w)
{
	const uint64_t mask = (w >= 32) ? 0xffffffffull : ((1ull << w) - 1);

	return static_cast<uint32_t>((static_cast<uint64_t>(sig) >> lsb) & mask);
}
template <std::size_t N>
inline uint32_t get_field(const VlWide<N> &sig, unsigned lsb, unsigned w)
{
	uint32_t v = 0;

	for (unsigned b = 0; b < w; b++) {
		const unsigned k = lsb + b;

		v |= ((sig[k / 32] >> (k % 32)) & 1u) << b;
	}
	return v;
}

// What the C ABI needs from one engine instance.
class Vsim {
public:
	virtual ~Vsim() = default;
	virtual void reset() = 0;
	virtual unsigned write(const hws_bus_timing &t, uint32_t addr, uint32_t data,
			       uint32_t strb, uint32_t *resp) = 0;
	virtual unsigned read(const hws_bus_timing &t, uint32_t addr, uint32_t *data,
			      uint32_t *resp) = 0;
	virtual void idle(unsigned edges) = 0;
	virtual void pins(const hws_axil_in *in, hws_axil_out *out) = 0;
	virtual uint64_t irq(unsigned *any) = 0;
};

template <class T> class VsimImpl final : public Vsim {
public:
	explicit VsimImpl(const hws_vsim_opts *o)
	{
		wave_ = o->wave != nullptr;
		ports_ = o->nr_ports ? o->nr_ports : 1;
		ctx_ = std::make_unique<VerilatedContext>();
		// The RTL asks for +hws_deep_check=N: the arguments must exist even when empty.
		std::string arg = "+hws_deep_check=" + std::to_string(o->deep_check);
		const char *argv[] = { "hwsched", arg.c_str() };
		ctx_->commandArgs(o->deep_check ? 2 : 1, argv);
#if VM_TRACE
		if (o->wave)
			ctx_->traceEverOn(true);
#endif
		top_ = std::make_unique<T>(ctx_.get(), "hws");
#if VM_TRACE
		if (o->wave) {
			tfp_ = std::make_unique<VerilatedFstC>();
			top_->trace(tfp_.get(), 99);
			tfp_->open(o->wave);
		}
#endif
		top_->clk_i = 0;
		idle_inputs();
		top_->eval();
		reset();
	}

	~VsimImpl() override
	{
#if VM_TRACE
		if (tfp_)
			tfp_->close();
#endif
		top_->final();
	}

	// False when a waveform was asked for and could not be opened (or this shape was
	// Verilated without --trace-fst).
#if VM_TRACE
	bool wave_ok() const { return !wave_ || (tfp_ && tfp_->isOpen()); }
#else
	bool wave_ok() const { return !wave_; }
#endif

	void reset() override
	{
		top_->rst_ni = 0;
		tick();
		tick();
		top_->rst_ni = 1;
		top_->eval();
	}

	unsigned write(const hws_bus_timing &t, uint32_t addr, uint32_t data, uint32_t strb,
		       uint32_t *resp) override
	{
		Pins p{ *this };

		return hwsaxi::write(p, t, addr, data, strb, resp);
	}

	unsigned read(const hws_bus_timing &t, uint32_t addr, uint32_t *data,
		      uint32_t *resp) override
	{
		Pins p{ *this };

		return hwsaxi::read(p, t, addr, data, resp);
	}

	void idle(unsigned edges) override
	{
		while (edges--)
			tick();
	}

	// The interrupt pins now: irq_cpu_o (bit c = CPU c), irq_o into *@any.
	uint64_t irq(unsigned *any) override
	{
		*any = top_->irq_o;
		return static_cast<uint64_t>(top_->irq_cpu_o);
	}

	// One edge with every port's inputs set as @in says, then every port's outputs.
	void pins(const hws_axil_in *in, hws_axil_out *out) override
	{
		for (unsigned p = 0; p < ports_; p++) {
			const hws_axil_in &i = in[p];

			set_field(top_->s_axi_awvalid_i, p, 1, i.awvalid);
			set_field(top_->s_axi_awaddr_i, p * HWS_ADDR_W, HWS_ADDR_W, i.awaddr);
			set_field(top_->s_axi_wvalid_i, p, 1, i.wvalid);
			set_field(top_->s_axi_wdata_i, p * 32, 32, i.wdata);
			set_field(top_->s_axi_wstrb_i, p * 4, 4, i.wstrb);
			set_field(top_->s_axi_bready_i, p, 1, i.bready);
			set_field(top_->s_axi_arvalid_i, p, 1, i.arvalid);
			set_field(top_->s_axi_araddr_i, p * HWS_ADDR_W, HWS_ADDR_W, i.araddr);
			set_field(top_->s_axi_rready_i, p, 1, i.rready);
		}
		tick();
		for (unsigned p = 0; p < ports_; p++) {
			hws_axil_out &o = out[p];

			o.awready = get_field(top_->s_axi_awready_o, p, 1);
			o.wready = get_field(top_->s_axi_wready_o, p, 1);
			o.bvalid = get_field(top_->s_axi_bvalid_o, p, 1);
			o.bresp = get_field(top_->s_axi_bresp_o, p * 2, 2);
			o.arready = get_field(top_->s_axi_arready_o, p, 1);
			o.rvalid = get_field(top_->s_axi_rvalid_o, p, 1);
			o.rdata = get_field(top_->s_axi_rdata_o, p * 32, 32);
			o.rresp = get_field(top_->s_axi_rresp_o, p * 2, 2);
		}
	}

	// The Verilated model, for the shape's reads of public signals (the units' ports).
	T *model() { return top_.get(); }

private:
	// The slave's pins for the shared master (sim/harness/axi_master.h).
	struct Pins {
		VsimImpl &v;

		// Port 0; the others stay idle (BREADY = RREADY = 1).
		void aw(bool valid, uint32_t addr)
		{
			set_field(v.top_->s_axi_awvalid_i, 0, 1, valid);
			set_field(v.top_->s_axi_awaddr_i, 0, HWS_ADDR_W, addr);
		}
		void w(bool valid, uint32_t data, uint32_t strb)
		{
			set_field(v.top_->s_axi_wvalid_i, 0, 1, valid);
			set_field(v.top_->s_axi_wdata_i, 0, 32, data);
			set_field(v.top_->s_axi_wstrb_i, 0, 4, strb);
		}
		void ar(bool valid, uint32_t addr)
		{
			set_field(v.top_->s_axi_arvalid_i, 0, 1, valid);
			set_field(v.top_->s_axi_araddr_i, 0, HWS_ADDR_W, addr);
		}
		void b_ready(bool r) { set_field(v.top_->s_axi_bready_i, 0, 1, r); }
		void r_ready(bool r) { set_field(v.top_->s_axi_rready_i, 0, 1, r); }
		bool aw_ready() const { return get_field(v.top_->s_axi_awready_o, 0, 1); }
		bool w_ready() const { return get_field(v.top_->s_axi_wready_o, 0, 1); }
		bool ar_ready() const { return get_field(v.top_->s_axi_arready_o, 0, 1); }
		bool b_valid() const { return get_field(v.top_->s_axi_bvalid_o, 0, 1); }
		bool r_valid() const { return get_field(v.top_->s_axi_rvalid_o, 0, 1); }
		uint32_t b_resp() const { return get_field(v.top_->s_axi_bresp_o, 0, 2); }
		uint32_t r_resp() const { return get_field(v.top_->s_axi_rresp_o, 0, 2); }
		uint32_t r_data() const { return get_field(v.top_->s_axi_rdata_o, 0, 32); }
		void edge() { v.tick(); }
	};

	void idle_inputs()
	{
		top_->rst_ni = 1;
		for (unsigned p = 0; p < ports_; p++) {
			set_field(top_->s_axi_awvalid_i, p, 1, 0);
			set_field(top_->s_axi_awaddr_i, p * HWS_ADDR_W, HWS_ADDR_W, 0);
			set_field(top_->s_axi_awprot_i, p * 3, 3, 0);
			set_field(top_->s_axi_wvalid_i, p, 1, 0);
			set_field(top_->s_axi_wdata_i, p * 32, 32, 0);
			set_field(top_->s_axi_wstrb_i, p * 4, 4, 0);
			set_field(top_->s_axi_bready_i, p, 1, 1);
			set_field(top_->s_axi_arvalid_i, p, 1, 0);
			set_field(top_->s_axi_araddr_i, p * HWS_ADDR_W, HWS_ADDR_W, 0);
			set_field(top_->s_axi_arprot_i, p * 3, 3, 0);
			set_field(top_->s_axi_rready_i, p, 1, 1);
		}
	}

	// One rising edge: inputs are already set; settle, rise, settle, fall.
	void tick()
	{
		top_->clk_i = 1;
		top_->eval();
#if VM_TRACE
		if (tfp_)
			tfp_->dump(time_);
#endif
		time_ += 5;
		top_->clk_i = 0;
		top_->eval();
#if VM_TRACE
		if (tfp_)
			tfp_->dump(time_);
#endif
		time_ += 5;
	}

	std::unique_ptr<VerilatedContext> ctx_;
	std::unique_ptr<T> top_;
#if VM_TRACE
	std::unique_ptr<VerilatedFstC> tfp_;
#endif
	uint64_t time_ = 0;
	bool wave_ = false;
	unsigned ports_ = 1;
};

template <class T> Vsim *create_instance(const hws_vsim_opts *o, std::string *err)
{
	auto *v = new VsimImpl<T>(o);

	if (!v->wave_ok()) {
		*err = std::string("cannot open waveform file ") + o->wave;
		delete v;
		return nullptr;
	}
	return v;
}

} // namespace hws

#endif // HWS_VSIM_IMPL_H
