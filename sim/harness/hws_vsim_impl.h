// hws_vsim_impl.h - the harness, written once as a template over the Verilated class.
//
// Each variant's translation unit (sim/harness/hws_vsim_variant.cpp, compiled once per parameter
// set) instantiates VsimImpl<Vhws_xxx> and registers a factory; sim/harness/hws_vsim.cpp keeps
// the registry and exports the C ABI of hws_vsim.h.
#ifndef HWS_VSIM_IMPL_H
#define HWS_VSIM_IMPL_H

#include <cstdint>
#include <memory>
#include <string>

#include "verilated.h"
#include "verilated_fst_c.h"

#include "axi_master.h"
#include "hws_vsim.h"
#include "lib/hws_out.h"

namespace hws {

// What the C ABI needs from one engine instance.
class Vsim {
public:
	virtual ~Vsim() = default;
	virtual void reset() = 0;
	virtual unsigned write(uint32_t addr, uint32_t data, uint32_t strb, uint32_t *resp) = 0;
	virtual unsigned read(uint32_t addr, uint32_t *data, uint32_t *resp) = 0;
	virtual void idle(unsigned edges) = 0;
};

// A factory registered by each variant at static-initialisation time.
struct VsimVariant {
	unsigned nr_cpus, nr_tasks, cmd_depth, res_depth, nr_groups;
	unsigned no_balance;	// built with LCU_BALANCE = 0
	unsigned no_err_counters;	// built with ERR_COUNTERS = 0
	Vsim *(*create)(const hws_vsim_opts *o, std::string *err);
	VsimVariant *next;
};
void register_variant(VsimVariant *v);

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
		if (o->wave)
			ctx_->traceEverOn(true);
		top_ = std::make_unique<T>(ctx_.get(), "hws");
#if VM_TRACE
		// The FST writer opens (and first unlinks) the file it is given: it gets a
		// temporary file beside the target, renamed over it once closed (lib/hws_out.h).
		char e[400];

		if (o->wave && hws_out_temp(&wave_out_, o->wave, e, sizeof(e)))
			wave_err_ = e;
		else if (o->wave) {
			tfp_ = std::make_unique<VerilatedFstC>();
			top_->trace(tfp_.get(), 99);
			tfp_->open(wave_out_.tmp);
		}
#endif
		top_->clk_i = 0;
		idle_inputs();
		top_->eval();
		reset();
	}

	~VsimImpl() override
	{
		char e[400];
		bool written = tfp_ && tfp_->isOpen();

		if (tfp_)
			tfp_->close();
		if (written)
			hws_out_commit(&wave_out_, e, sizeof(e));
		else if (wave_out_.tmp)
			hws_out_abort(&wave_out_);
		top_->final();
	}

	// False when a waveform was asked for and could not be opened (or this variant was
	// Verilated without --trace-fst).
	bool wave_ok() const { return !wave_ || (tfp_ && tfp_->isOpen()); }
	const std::string &wave_err() const { return wave_err_; }

	void reset() override
	{
		top_->rst_ni = 0;
		tick();
		tick();
		top_->rst_ni = 1;
		top_->eval();
	}

	unsigned write(uint32_t addr, uint32_t data, uint32_t strb, uint32_t *resp) override
	{
		Pins p{ *this };

		return hwsaxi::write(p, addr, data, strb, resp);
	}

	unsigned read(uint32_t addr, uint32_t *data, uint32_t *resp) override
	{
		Pins p{ *this };

		return hwsaxi::read(p, addr, data, resp);
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

		void aw_begin(uint32_t addr, uint32_t data, uint32_t strb)
		{
			v.top_->s_axi_awvalid_i = 1;
			v.top_->s_axi_wvalid_i = 1;
			v.top_->s_axi_awaddr_i = addr;
			v.top_->s_axi_wdata_i = data;
			v.top_->s_axi_wstrb_i = strb;
		}
		void aw_end()
		{
			v.top_->s_axi_awvalid_i = 0;
			v.top_->s_axi_wvalid_i = 0;
		}
		bool aw_taken() const { return v.top_->s_axi_awready_o && v.top_->s_axi_wready_o; }
		void ar_begin(uint32_t addr)
		{
			v.top_->s_axi_arvalid_i = 1;
			v.top_->s_axi_araddr_i = addr;
		}
		void ar_end() { v.top_->s_axi_arvalid_i = 0; }
		bool ar_taken() const { return v.top_->s_axi_arready_o; }
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
		if (tfp_)
			tfp_->dump(time_);
		time_ += 5;
		top_->clk_i = 0;
		top_->eval();
		if (tfp_)
			tfp_->dump(time_);
		time_ += 5;
	}

	std::unique_ptr<VerilatedContext> ctx_;
	std::unique_ptr<T> top_;
	std::unique_ptr<VerilatedFstC> tfp_;
	uint64_t time_ = 0;
	bool wave_ = false;
	hws_out wave_out_ = {};
	std::string wave_err_;
};

template <class T> Vsim *create_variant(const hws_vsim_opts *o, std::string *err)
{
	auto *v = new VsimImpl<T>(o);

	if (!v->wave_ok()) {
		*err = v->wave_err().empty() ? std::string("cannot open waveform file ") + o->wave
					      : v->wave_err();
		delete v;
		return nullptr;
	}
	return v;
}

} // namespace hws

#endif // HWS_VSIM_IMPL_H
