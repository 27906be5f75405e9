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
};

template <class T> class VsimImpl final : public Vsim {
public:
	explicit VsimImpl(const hws_vsim_opts *o)
	{
		wave_ = o->wave != nullptr;
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

private:
	// The slave's pins for the shared master (sim/harness/axi_master.h).
	struct Pins {
		VsimImpl &v;

		void aw(bool valid, uint32_t addr)
		{
			v.top_->s_axi_awvalid_i = valid;
			v.top_->s_axi_awaddr_i = addr;
		}
		void w(bool valid, uint32_t data, uint32_t strb)
		{
			v.top_->s_axi_wvalid_i = valid;
			v.top_->s_axi_wdata_i = data;
			v.top_->s_axi_wstrb_i = strb;
		}
		void ar(bool valid, uint32_t addr)
		{
			v.top_->s_axi_arvalid_i = valid;
			v.top_->s_axi_araddr_i = addr;
		}
		void b_ready(bool r) { v.top_->s_axi_bready_i = r; }
		void r_ready(bool r) { v.top_->s_axi_rready_i = r; }
		bool aw_ready() const { return v.top_->s_axi_awready_o; }
		bool w_ready() const { return v.top_->s_axi_wready_o; }
		bool ar_ready() const { return v.top_->s_axi_arready_o; }
		bool b_valid() const { return v.top_->s_axi_bvalid_o; }
		bool r_valid() const { return v.top_->s_axi_rvalid_o; }
		uint32_t b_resp() const { return v.top_->s_axi_bresp_o; }
		uint32_t r_resp() const { return v.top_->s_axi_rresp_o; }
		uint32_t r_data() const { return v.top_->s_axi_rdata_o; }
		void edge() { v.tick(); }
	};

	void idle_inputs()
	{
		top_->rst_ni = 1;
		top_->s_axi_awvalid_i = 0;
		top_->s_axi_awaddr_i = 0;
		top_->s_axi_awprot_i = 0;
		top_->s_axi_wvalid_i = 0;
		top_->s_axi_wdata_i = 0;
		top_->s_axi_wstrb_i = 0;
		top_->s_axi_bready_i = 1;
		top_->s_axi_arvalid_i = 0;
		top_->s_axi_araddr_i = 0;
		top_->s_axi_arprot_i = 0;
		top_->s_axi_rready_i = 1;
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
