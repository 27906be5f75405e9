// vp.cpp - the virtual platform's modules (vp.h).
#include "vp.h"

#include <algorithm>

#include <cerrno>

extern "C" {
#include "hws/regs.h"
}

namespace hwsvp {

using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;

double to_ns(const sc_time &t)
{
	static const double ns_per_unit = sc_core::sc_get_time_resolution().to_seconds() * 1e9;

	return (double)t.value() * ns_per_unit;
}

// ---- Interconnect ----

Interconnect::Interconnect(sc_core::sc_module_name name, sc_time read_lat, sc_time write_lat,
			   bool contend, unsigned initiators, unsigned ports, bool post,
			   sc_time accept)
	: sc_core::sc_module(name), in("in"), out("out"), read_latency(read_lat),
	  write_latency(write_lat), write_accept(accept), contention(contend), posted(post),
	  nr_initiators(initiators ? initiators : 1), nr_ports(ports ? ports : 1),
	  busy(nr_ports), order(nr_initiators, 0)
{
	in.register_b_transport(this, &Interconnect::b_transport);
}

void Interconnect::restart()
{
	for (auto &b : busy)
		b.clear();
	std::fill(order.begin(), order.end(), 0);
}

void Interconnect::b_transport(int id, tlm::tlm_generic_payload &p, sc_time &delay)
{
	const sc_time now = sc_core::sc_time_stamp();
	const bool write = p.get_command() == tlm::TLM_WRITE_COMMAND;
	const sc_time latency = write ? write_latency : read_latency;
	const sc_time half = latency / 2;
	const unsigned who = id >= 0 && (unsigned)id < nr_initiators ? (unsigned)id : 0;
	const unsigned port = port_of(who);
	const uint64_t reach = (now + delay + half).value();	// at the port, unordered
	uint64_t arrive = std::max(reach, order[who]);	// behind its own earlier accesses
	sc_time service = SC_ZERO_TIME;
	std::map<uint64_t, uint64_t> &line = busy[port];
	uint64_t start, len;

	// The engine's answer does not depend on when it is asked (it is clocked by the
	// transactions), so serve first, then place the service in the port's time line.
	out->b_transport(p, service);
	len = service.value();
	// Intervals that ended before now cannot delay anyone: every CPU's time is >= now.
	while (!line.empty() && line.begin()->second <= now.value())
		line.erase(line.begin());
	start = arrive;
	if (contention && len) {
		auto it = line.upper_bound(start);

		if (it != line.begin() && std::prev(it)->second > start)
			start = std::prev(it)->second;
		for (; it != line.end() && it->first < start + len; ++it)
			start = std::max(start, it->second);
		line[start] = start + len;
	}
	order[who] = start + len;
	last_port = port;
	last_wait = sc_time::from_value(start - arrive);
	last_behind = sc_time::from_value(arrive - reach);
	last_posted = write && posted;
	if (last_posted) {
		// Accepted: the initiator goes on; the write is served at start.
		posted_writes++;
		posted_wait += last_wait;
		delay += write_accept;
		return;
	}
	if (start > arrive) {
		total_wait += last_wait;
		waited++;
	}
	total_behind += last_behind;
	delay += half + last_behind + last_wait + service + (latency - half);
}

// ---- Cpu ----

Cpu::Cpu(sc_core::sc_module_name name, unsigned cpu_id)
	: sc_core::sc_module(name), socket("socket"), id(cpu_id)
{
	SC_THREAD(thread);
	sensitive << go_;
	dont_initialize();
}

void Cpu::thread()
{
	for (;;) {
		if (job_)
			job_();
		job_ = nullptr;
		done_.notify();
		wait();
	}
}

void Cpu::run(const std::function<void()> &fn)
{
	job_ = fn;
	go_.notify();
	sc_core::wait(done_);
}

tlm::tlm_response_status Cpu::access(tlm::tlm_command cmd, uint64_t addr, uint32_t *data,
				     uint32_t strb, sc_time *took)
{
	tlm::tlm_generic_payload p;
	unsigned char buf[4], be[4];
	const sc_time now = sc_core::sc_time_stamp();
	const sc_time start = std::max(local, now);
	sc_time delay = start - now;

	memcpy(buf, data, 4);
	p.set_command(cmd);
	p.set_address(addr);
	p.set_data_ptr(buf);
	p.set_data_length(4);
	p.set_streaming_width(4);
	p.set_byte_enable_ptr(nullptr);
	if (cmd == tlm::TLM_WRITE_COMMAND && (strb & 0xf) != 0xf) {
		for (unsigned i = 0; i < 4; i++)
			be[i] = strb >> i & 1 ? TLM_BYTE_ENABLED : TLM_BYTE_DISABLED;
		p.set_byte_enable_ptr(be);
		p.set_byte_enable_length(4);
	}
	p.set_dmi_allowed(false);
	p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
	socket->b_transport(p, delay);
	if (cmd == tlm::TLM_READ_COMMAND)
		memcpy(data, buf, 4);
	local = now + delay;
	*took = local - start;
	return p.get_response_status();
}

// ---- Platform ----

// What the interconnect's port is bound to when there is no engine (software schedulers):
// every access is refused.
class NoEngine : public sc_core::sc_module {
public:
	tlm_utils::simple_target_socket<NoEngine> socket;

	explicit NoEngine(sc_core::sc_module_name name) : sc_core::sc_module(name), socket("socket")
	{
		socket.register_b_transport(this, &NoEngine::b_transport);
	}

private:
	void b_transport(tlm::tlm_generic_payload &p, sc_time &)
	{
		p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
	}
};

std::unique_ptr<Platform> Platform::create(const PlatformConfig &c, std::string *err)
{
	std::unique_ptr<Platform> pl(new Platform());
	const sc_time period(c.clk_ns, sc_core::SC_NS);

	pl->cfg = c;
	if (c.engine) {
		hws_vsim_opts o = {};

		o.nr_cpus = c.nr_cpus;
		o.nr_tasks = c.nr_tasks;
		o.cmd_depth = c.cmd_depth;
		o.res_depth = c.res_depth;
		o.nr_groups = c.nr_groups;
		o.lcu_lean = c.lcu_lean;
		pl->target = EngineTarget::create("engine", period, o, err);
		if (!pl->target)
			return nullptr;
	}
	pl->ic.reset(new Interconnect("interconnect", sc_time(c.read_latency_ns, sc_core::SC_NS),
				      sc_time(c.write_latency_ns, sc_core::SC_NS), c.contention,
				      c.nr_cpus, c.ports, c.posted_writes,
				      sc_time(c.write_accept_ns, sc_core::SC_NS)));
	if (pl->target) {
		pl->ic->out.bind(pl->target->socket);
	} else {
		NoEngine *n = new NoEngine("no_engine");

		pl->no_engine.reset(n);
		pl->ic->out.bind(n->socket);
	}
	for (unsigned i = 0; i < c.nr_cpus; i++) {
		pl->cpus.emplace_back(new Cpu(("cpu" + std::to_string(i)).c_str(), i));
		pl->cpus.back()->socket.bind(pl->ic->in);
	}
	// The optional operations stay NULL (value-initialised, so a member added to the
	// struct later is NULL here too).
	static const struct hws_transport_ops ops = [] {
		struct hws_transport_ops o{};
		o.read = tp_read;
		o.write = tp_write;
		o.idle = tp_idle;
		return o;
	}();
	// settle_edges 0: the platform clocks the engine; addr_w: its bus reaches the POP/PEEK
	// windows (vp_target.h decodes 1 << ADDR_W bytes)
	pl->transport = hws_transport{};
	pl->transport.ops = &ops;
	pl->transport.ctx = pl.get();
	pl->transport.name = "tlm";
	pl->transport.settle_edges = 0;
	pl->transport.addr_w = HWS_ADDR_W;
	return pl;
}

void Platform::restart_time()
{
	ic->restart();
	for (auto &c : cpus)
		c->local = SC_ZERO_TIME;
}

unsigned Platform::access(unsigned master, bool write, uint32_t addr, uint32_t *data,
			  uint32_t strb, uint32_t *resp, double *ns)
{
	tlm::tlm_response_status st;
	sc_time took;
	unsigned edges;

	if (master >= cpus.size() || !target) {
		*resp = HWS_RESP_NONE;
		return 0;
	}
	st = cpus[master]->access(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, addr,
				  data, strb, &took);
	edges = target->last_edges;
	*resp = st == tlm::TLM_OK_RESPONSE	     ? HWS_RESP_OKAY :
		st == tlm::TLM_INCOMPLETE_RESPONSE ? HWS_RESP_NONE :
						     HWS_RESP_SLVERR;
	*ns += to_ns(took);
	// This access's counters: a posted write waits for nothing its CPU sees.
	Counters one;
	one.accesses = 1;
	one.edges = edges;
	one.bus_ns = to_ns(took);
	if (ic->last_posted) {
		posted_edges += edges;
	} else {
		one.wait_ns = to_ns(ic->last_wait);
		one.behind_ns = to_ns(ic->last_behind);
	}
	count += one;
	if (!write)
		reads++;
	// A BALANCE query: the CMD write of QUERY kind 2 (ARRAY=1, HEAD=0) and the reads that
	// follow it directly and belong to it: RESULT, STATUS (after a failure) and the BAL_*
	// registers, as many as the firmware reads (docs/firmware.md, "Bus protocol"). Any
	// other access ends it.
	const bool bal_cmd = write && addr == HWS_REG_CMD &&
			     (*data & HWS_CMD_OP_MASK) >> HWS_CMD_OP_LSB == HWS_OP_QUERY &&
			     (*data & HWS_CMD_ARRAY_MASK) && !(*data & HWS_CMD_HEAD_MASK);
	const bool bal_read = !write && (addr == HWS_REG_RESULT || addr == HWS_REG_STATUS ||
					 addr == HWS_REG_BAL_THIS || addr == HWS_REG_BAL_MAX ||
					 addr == HWS_REG_BAL_AVG || addr == HWS_REG_BAL_IMB);
	if (bal_cmd)
		balances.emplace_back();
	in_balance_ = bal_cmd || (in_balance_ && bal_read);
	if (in_balance_)
		balances.back() += one;
	return edges;
}

unsigned Platform::tp_read(void *ctx, unsigned master, uint32_t addr, uint32_t *data,
			   uint32_t *resp, double *ns)
{
	*data = 0;
	return static_cast<Platform *>(ctx)->access(master, false, addr, data, 0xf, resp, ns);
}

unsigned Platform::tp_write(void *ctx, unsigned master, uint32_t addr, uint32_t data,
			    uint32_t strb, uint32_t *resp, double *ns)
{
	return static_cast<Platform *>(ctx)->access(master, true, addr, &data, strb, resp, ns);
}

void Platform::tp_idle(void *ctx, unsigned edges, double *ns)
{
	Platform *pl = static_cast<Platform *>(ctx);

	if (pl->target)
		*ns += to_ns(pl->target->idle(edges));
}

} // namespace hwsvp
