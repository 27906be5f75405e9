// vp.h - the virtual platform's modules (docs/vp.md):
//
//   Cpu 0 ..  Cpu N-1          one initiator per simulated CPU: an SC_THREAD that runs the
//   (initiator sockets)        firmware calls made on that CPU, and the socket its MMIO goes out of
//          |  |  |
//     Interconnect             latency per access (reads, writes); ports, each contended;
//                              posted writes
//          |
//     EngineTarget             the Verilated engine as a TLM-2.0 target (vp_target.h)
//
// Loosely timed with temporal decoupling: SystemC time follows the simulated machine's
// events; each CPU keeps its own local time (how far its bus work has got), and the
// annotated delay of every b_transport is that local offset plus what the access took.
#ifndef HWS_VP_H
#define HWS_VP_H

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>

#include "hws/hws.h"
#include "vp_target.h"

namespace hwsvp {

// The bus between the CPUs and the engine (docs/vp.md, "The interconnect's rules"):
//  - latency per access, reads and writes separately, split evenly between the request
//    and the response path;
//  - ports: CPU c (initiator c) uses port c * nr_ports / nr_cpus; each port serves one
//    transaction at a time, so a request that arrives while its port serves another one
//    waits until it is done (contention; can be switched off). Ports do not wait for each
//    other. Each port keeps the intervals it is busy in; since CPUs are decoupled in time,
//    a request may be placed in a gap before intervals placed earlier (their requests came
//    from CPUs whose local time is ahead), never on top of one;
//  - order: an initiator's accesses reach the engine in program order (Device-nGnRE, nR),
//    so an access is not served before the same initiator's previous one is done;
//  - posted writes (on/off): a write costs its initiator only the acceptance time
//    (early write acknowledgement, Device-nGnRE's E); it travels and is served later, and
//    a read from the same initiator, served after it, waits for it.
class Interconnect : public sc_core::sc_module {
public:
	tlm_utils::multi_passthrough_target_socket<Interconnect> in;
	tlm_utils::simple_initiator_socket<Interconnect> out;

	sc_core::sc_time read_latency, write_latency;
	sc_core::sc_time write_accept;	// what a posted write costs its initiator
	bool contention;
	bool posted;	// writes are posted
	unsigned nr_initiators, nr_ports;
	std::vector<std::map<uint64_t, uint64_t>> busy;	// per port: start -> end, in time units
	std::vector<uint64_t> order;	// per initiator: when its latest access was served

	// Of the latest access: the time it waited for its port, the time it waited behind its
	// initiator's earlier accesses, whether it was a posted write, its port.
	sc_core::sc_time last_wait = sc_core::SC_ZERO_TIME;
	sc_core::sc_time last_behind = sc_core::SC_ZERO_TIME;
	bool last_posted = false;
	unsigned last_port = 0;

	// Totals. wait and waited count the accesses their initiator waited for (reads,
	// writes not posted); a posted write's wait for its port is posted_wait (its
	// initiator does not see it, unless a later read waits behind the write: behind).
	sc_core::sc_time total_wait = sc_core::SC_ZERO_TIME;
	uint64_t waited = 0;	// accesses that found their port busy (not posted)
	sc_core::sc_time total_behind = sc_core::SC_ZERO_TIME;
	uint64_t posted_writes = 0;
	sc_core::sc_time posted_wait = sc_core::SC_ZERO_TIME;

	Interconnect(sc_core::sc_module_name name, sc_core::sc_time read_lat,
		     sc_core::sc_time write_lat, bool contend, unsigned initiators = 1,
		     unsigned ports = 1, bool post = false,
		     sc_core::sc_time accept = sc_core::SC_ZERO_TIME);

	// Both latencies at once; the number of ports (forgets the busy lines). For tests.
	void set_latency(sc_core::sc_time lat) { read_latency = write_latency = lat; }
	void set_ports(unsigned n)
	{
		nr_ports = n ? n : 1;
		busy.assign(nr_ports, {});
	}

	// The port of initiator @id.
	unsigned port_of(unsigned id) const
	{
		return (unsigned)((uint64_t)id * nr_ports / nr_initiators);
	}

	// Forget every busy interval and every initiator's order (time restarts).
	void restart();

private:
	void b_transport(int id, tlm::tlm_generic_payload &p, sc_core::sc_time &delay);
};

// One simulated CPU as a bus master.
class Cpu : public sc_core::sc_module {
public:
	tlm_utils::simple_initiator_socket<Cpu> socket;
	const unsigned id;
	sc_core::sc_time local = sc_core::SC_ZERO_TIME;	// absolute: its bus work is done until

	SC_HAS_PROCESS(Cpu);
	Cpu(sc_core::sc_module_name name, unsigned id);

	// Run @fn on this CPU's thread and wait until it returns (called from another thread).
	void run(const std::function<void()> &fn);

	// One access made now: starts at max(now, local), so a CPU's accesses never overlap;
	// *took gets the time from that start to the response, and local moves to the end.
	tlm::tlm_response_status access(tlm::tlm_command cmd, uint64_t addr, uint32_t *data,
					uint32_t strb, sc_core::sc_time *took);

private:
	void thread();

	sc_core::sc_event go_, done_;
	std::function<void()> job_;
};

struct PlatformConfig {
	unsigned nr_cpus = 8;
	bool engine = true;	// false: no engine (software schedulers)
	unsigned nr_tasks = 256, cmd_depth = 16, res_depth = 16, nr_groups = 16;
	bool lcu_lean = false;	// BALANCE is the area-lean unit (LCU_LEAN=1, shape suffix ln)
	double clk_ns = 10;
	double read_latency_ns = 0, write_latency_ns = 0;
	bool contention = true;
	bool posted_writes = true;	// as hwsched vp's --posted-writes
	double write_accept_ns = 0;
	unsigned ports = 1;
};

// Per-access counters, for the per-decision report.
struct Counters {
	uint64_t accesses = 0, edges = 0;
	double bus_ns = 0, wait_ns = 0;
	double behind_ns = 0;	// reads waiting behind their initiator's posted writes

	Counters &operator+=(const Counters &o)
	{
		accesses += o.accesses;
		edges += o.edges;
		bus_ns += o.bus_ns;
		wait_ns += o.wait_ns;
		behind_ns += o.behind_ns;
		return *this;
	}
};

class Platform {
public:
	// Build the modules (before sc_start); the engine's shape is built first when it is
	// not (docs/shapes.md). NULL with *err when the engine cannot be had.
	static std::unique_ptr<Platform> create(const PlatformConfig &c, std::string *err);

	PlatformConfig cfg;
	EngineTarget *target = nullptr;	// NULL without an engine
	std::unique_ptr<sc_core::sc_module> no_engine;	// then: answers every access ADDRESS_ERROR
	std::unique_ptr<Interconnect> ic;
	std::vector<std::unique_ptr<Cpu>> cpus;
	struct hws_transport transport;	// the driver's view ("tlm"): ctx is this platform
	Counters count;
	uint64_t reads = 0, posted_edges = 0;	// reads; edges of posted writes

	// BALANCE queries seen on the bus (the CMD write of QUERY kind 2 and the RESULT,
	// STATUS and BAL_* reads right after it): per query, its accesses, bus time, engine
	// cycles and waits.
	std::vector<Counters> balances;

	// Forget the time of the accesses so far (engine programmed "before time 0").
	void restart_time();

private:
	Platform() = default;
	bool in_balance_ = false;	// the accesses now belong to balances.back()

	static unsigned tp_read(void *ctx, unsigned master, uint32_t addr, uint32_t *data,
				uint32_t *resp, double *ns);
	static unsigned tp_write(void *ctx, unsigned master, uint32_t addr, uint32_t data,
				 uint32_t strb, uint32_t *resp, double *ns);
	static void tp_idle(void *ctx, unsigned edges, double *ns);
	unsigned access(unsigned master, bool write, uint32_t addr, uint32_t *data, uint32_t strb,
			uint32_t *resp, double *ns);
};

// sc_time -> ns as a double (exact for whole picoseconds below 2^53).
double to_ns(const sc_core::sc_time &t);

} // namespace hwsvp

#endif // HWS_VP_H
