// target_test.cc - the virtual platform at the TLM level (docs/vp.md): the engine target,
// the interconnect, the initiators, and the driver's transport backend over them.
//
// SystemC elaborates once per process, so this binary builds one platform (8 CPUs, the
// default 8x256x16 engine) before the tests, and each test runs its accesses in a thread
// spawned into that simulation (run_in_sc). Random tests take HWS_SEED and print it on
// failure.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <string>

#include <systemc>

#include "sim/vp/vp.h"

extern "C" {
#include "hws/hws.h"
#include "lib/hws_params.h"
#include "models/hws_model.h"
#include "tests/test_util.h"
}

namespace {

using namespace hwsvp;
using sc_core::sc_time;
using sc_core::SC_NS;

Platform *pl;
constexpr double kClk = 10;	// ns

// Run @fn in a fresh SystemC thread and simulate until nothing is left to do.
void run_in_sc(const std::function<void()> &fn)
{
	bool done = false;

	sc_core::sc_spawn([&] {
		fn();
		done = true;
	});
	sc_core::sc_start();
	ASSERT_TRUE(done) << "the SystemC thread did not finish";
}

// The interconnect of the first platform: one latency, writes not posted, one port.
void set_bus(double latency_ns, bool contention)
{
	pl->ic->set_latency(sc_time(latency_ns, SC_NS));
	pl->ic->contention = contention;
	pl->ic->posted = false;
	pl->ic->write_accept = sc_core::SC_ZERO_TIME;
	pl->ic->set_ports(1);
	pl->restart_time();
}

// Reads and writes apart, posting, acceptance, ports.
void set_bus(double read_ns, double write_ns, bool posted, double accept_ns, unsigned ports,
	     bool contention = true)
{
	pl->ic->read_latency = sc_time(read_ns, SC_NS);
	pl->ic->write_latency = sc_time(write_ns, SC_NS);
	pl->ic->contention = contention;
	pl->ic->posted = posted;
	pl->ic->write_accept = sc_time(accept_ns, SC_NS);
	pl->ic->set_ports(ports);
	pl->restart_time();
}

// One access of CPU @cpu (at the world's time, after its own earlier ones): its time.
sc_time acc(unsigned cpu, bool write, uint32_t addr, uint32_t data = 0)
{
	sc_time took;
	uint32_t v = data;

	EXPECT_EQ(pl->cpus[cpu]->access(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND,
					addr, &v, 0xf, &took),
		  tlm::TLM_OK_RESPONSE);
	return took;
}

sc_time ns(double x)
{
	return sc_time(x, SC_NS);
}

hws_dev *open_tlm(const hws_transport *tp)
{
	return hwstest::open_dev("tlm", 8, 256, 16, 0, tp);
}

using Closer = hwstest::DevCloser;

unsigned seed_of()
{
	const char *e = std::getenv("HWS_SEED");

	return e ? (unsigned)std::strtoul(e, nullptr, 0) : 20261202u;
}

uint32_t reg(hws_dev *d, uint32_t off)
{
	uint32_t v = 0;

	EXPECT_EQ(hws_reg_read(d, off, &v), 0) << hws_errmsg(d);
	return v;
}

// A bad access straight through CPU 0's initiator socket.
tlm::tlm_response_status raw(tlm::tlm_command cmd, uint64_t addr, uint32_t data,
			     unsigned len = 4, sc_time *took = nullptr)
{
	tlm::tlm_generic_payload p;
	unsigned char buf[8] = { 0 };
	// From CPU 0's local time, as its own accesses (the interconnect keeps their order).
	const sc_time start = std::max(pl->cpus[0]->local, sc_core::sc_time_stamp());
	sc_time d = start - sc_core::sc_time_stamp();

	memcpy(buf, &data, 4);
	p.set_command(cmd);
	p.set_address(addr);
	p.set_data_ptr(buf);
	p.set_data_length(len);
	p.set_streaming_width(len);
	p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
	pl->cpus[0]->socket->b_transport(p, d);
	pl->cpus[0]->local = sc_core::sc_time_stamp() + d;
	if (took)
		*took = sc_core::sc_time_stamp() + d - start;
	return p.get_response_status();
}

} // namespace

// Misaligned and out-of-window accesses answer TLM_ADDRESS_ERROR_RESPONSE and do not touch
// the engine: no clock edge (CYCLES moves only by the edges of the reads that look), no
// error recorded, no command taken (a misaligned write of an ENQUEUE to CMD+1 enqueues
// nothing). An unmapped register inside the window reaches the engine, which refuses it
// (SLVERR -> TLM_GENERIC_ERROR_RESPONSE) and records an ADDR error: the contrast.
TEST(VpTarget, RejectsMisalignedAndOutOfRangeWithoutTouchingTheEngine)
{
	set_bus(40, true);
	run_in_sc([] {
		std::unique_ptr<hws_dev, Closer> d(open_tlm(&pl->transport));
		ASSERT_TRUE(d);
		ASSERT_EQ(hws_soft_reset(d.get()), 0) << hws_errmsg(d.get());
		const uint32_t enq = hws_cmd(HWS_OP_ENQUEUE, 3, 120, 0, 0, 0);
		const uint32_t err0 = reg(d.get(), HWS_REG_ERR_TOTAL);
		const uint32_t done0 = reg(d.get(), HWS_REG_CMD_DONE);
		const uint64_t tr0 = pl->target->transactions, ref0 = pl->target->refused;
		const uint32_t cyc0 = reg(d.get(), HWS_REG_CYCLES);
		const uint64_t edges0 = pl->target->edges;
		const struct {
			tlm::tlm_command cmd;
			uint64_t addr;
		} bad[] = {
			{ tlm::TLM_WRITE_COMMAND, HWS_REG_CMD + 1 },	// misaligned CMD
			{ tlm::TLM_WRITE_COMMAND, HWS_REG_CMD + 2 },
			{ tlm::TLM_READ_COMMAND, HWS_REG_CYCLES + 3 },
			{ tlm::TLM_READ_COMMAND, HWS_REG_RESULT + 1 },	// would pop a result
			{ tlm::TLM_WRITE_COMMAND, hwsvp::kWindow },	// past the window
			{ tlm::TLM_READ_COMMAND, hwsvp::kWindow + HWS_REG_ID },
			{ tlm::TLM_WRITE_COMMAND, hwsvp::kWindow + HWS_REG_CMD },	// aliases CMD if masked
			{ tlm::TLM_READ_COMMAND, 0xfffffffcull },
			{ tlm::TLM_WRITE_COMMAND, 1ull << 40 | HWS_REG_CTRL },
		};
		for (const auto &b : bad) {
			sc_time took;

			EXPECT_EQ(raw(b.cmd, b.addr, enq, 4, &took), tlm::TLM_ADDRESS_ERROR_RESPONSE)
				<< "address 0x" << std::hex << b.addr;
			EXPECT_EQ(pl->target->last_edges, 0u);
			// Only the interconnect's round trip: the engine was not asked.
			EXPECT_EQ(took, sc_time(40, SC_NS));
		}
		EXPECT_EQ(pl->target->edges, edges0) << "the engine was clocked";
		EXPECT_EQ(pl->target->refused - ref0, sizeof(bad) / sizeof(bad[0]));
		const uint32_t cyc1 = reg(d.get(), HWS_REG_CYCLES);
		EXPECT_EQ(cyc1 - cyc0, 2u) << "CYCLES moved by more than the first CYCLES read";
		EXPECT_EQ(reg(d.get(), HWS_REG_ERR_TOTAL), err0);
		EXPECT_EQ(reg(d.get(), HWS_REG_CMD_DONE), done0);
		uint32_t running = 99;
		ASSERT_EQ(hws_cpu_stat(d.get(), 0, HWS_SEL_CPU_STAT_NR_RUNNING, &running), 0);
		EXPECT_EQ(running, 0u) << "a refused write enqueued a task";
		hws_task_state ts;
		ASSERT_EQ(hws_read_task_state(d.get(), 3, &ts), 0) << hws_errmsg(d.get());
		EXPECT_FALSE(ts.queued);
		// A wrong length is a burst error, also untouched.
		EXPECT_EQ(raw(tlm::TLM_WRITE_COMMAND, HWS_REG_CMD, enq, 8),
			  tlm::TLM_BURST_ERROR_RESPONSE);
		EXPECT_EQ(raw(tlm::TLM_READ_COMMAND, HWS_REG_ID, 0, 2), tlm::TLM_BURST_ERROR_RESPONSE);
		ASSERT_EQ(hws_cpu_stat(d.get(), 0, HWS_SEL_CPU_STAT_NR_RUNNING, &running), 0);
		EXPECT_EQ(running, 0u);
		// The contrast: an unmapped register inside the window reaches the engine.
		const uint32_t e1 = reg(d.get(), HWS_REG_ERR_TOTAL);
		EXPECT_EQ(raw(tlm::TLM_READ_COMMAND, 0xfc, 0), tlm::TLM_GENERIC_ERROR_RESPONSE);
		EXPECT_EQ(pl->target->last_edges, 2u);
		EXPECT_EQ(reg(d.get(), HWS_REG_ERR_TOTAL), e1 + 1);
		EXPECT_EQ(reg(d.get(), HWS_REG_ERR_LAST), (uint32_t)HWS_ERR_ADDR);
		(void)reg(d.get(), HWS_REG_STATUS);	// clears the sticky ERR bit
		// And an aligned write of the same word to CMD does enqueue.
		EXPECT_EQ(raw(tlm::TLM_WRITE_COMMAND, HWS_REG_CMD, enq), tlm::TLM_OK_RESPONSE);
		ASSERT_EQ(hws_sync(d.get(), nullptr), 0) << hws_errmsg(d.get());
		ASSERT_EQ(hws_cpu_stat(d.get(), 0, HWS_SEL_CPU_STAT_NR_RUNNING, &running), 0);
		EXPECT_EQ(running, 1u);
		EXPECT_GT(pl->target->transactions, tr0);
	});
}

// A fixed sequence of engine commands through the driver's transport backend: at every
// latency it makes the same accesses and edges, and its annotated time is exactly
// accesses x latency + edges x clock (one CPU: nothing to contend with).
TEST(VpTarget, AnnotatedTimeGrowsLinearlyWithTheLatency)
{
	const double lat[] = { 0, 1, 50, 100, 333, 1000, 5000 };
	uint64_t acc0 = 0, edges0 = 0;

	for (double L : lat) {
		set_bus(L, true);
		run_in_sc([&] {
			std::unique_ptr<hws_dev, Closer> d(open_tlm(&pl->transport));
			ASSERT_TRUE(d);
			ASSERT_EQ(hws_soft_reset(d.get()), 0);
			hws_bus_stats a, b;
			hws_get_bus_stats(d.get(), &a);
			for (unsigned t = 0; t < 40; t++)
				ASSERT_EQ(hws_enqueue(d.get(), t, t % 8, 100 + t % 40, 0, t % 3 == 0), 0)
					<< hws_errmsg(d.get());
			for (unsigned c = 0; c < 8; c++)
				ASSERT_EQ(hws_load_tick(d.get(), c), 0);
			hws_bal bal;
			(void)hws_balance_query(d.get(), 0, 3, 1, &bal);
			for (unsigned i = 0; i < 20; i++) {
				hws_pick p;
				ASSERT_EQ(hws_pick_next(d.get(), i % 8, &p), 0);
			}
			hws_get_bus_stats(d.get(), &b);
			const uint64_t acc = b.reads + b.writes - a.reads - a.writes;
			const uint64_t edges = b.edges - a.edges;
			if (acc0 == 0) {
				acc0 = acc;
				edges0 = edges;
			}
			EXPECT_EQ(acc, acc0) << "latency " << L;
			EXPECT_EQ(edges, edges0) << "latency " << L;
			EXPECT_DOUBLE_EQ(b.delay_ns - a.delay_ns,
					 (double)acc * L + (double)edges * kClk)
				<< "latency " << L;
		});
	}
	EXPECT_GT(acc0, 100u);
}

// Two CPUs asking at the same moment: with contention the second waits for the first's
// engine time; without, neither waits. The latency is not contended (the request paths
// are separate up to the port).
TEST(VpTarget, OneEnginePortIsContended)
{
	for (int contend = 0; contend < 2; contend++) {
		set_bus(100, contend);
		run_in_sc([&] {
			uint32_t v0 = 0, v1 = 0;
			sc_time t0, t1;

			ASSERT_EQ(pl->cpus[0]->access(tlm::TLM_READ_COMMAND, HWS_REG_ID, &v0, 0xf, &t0),
				  tlm::TLM_OK_RESPONSE);
			ASSERT_EQ(pl->cpus[1]->access(tlm::TLM_READ_COMMAND, HWS_REG_ID, &v1, 0xf, &t1),
				  tlm::TLM_OK_RESPONSE);
			EXPECT_EQ(v0, (uint32_t)HWS_ID_VALUE);
			EXPECT_EQ(v1, (uint32_t)HWS_ID_VALUE);
			EXPECT_EQ(t0, sc_time(100 + 2 * kClk, SC_NS));
			EXPECT_EQ(t1, sc_time(100 + 2 * kClk + (contend ? 2 * kClk : 0), SC_NS))
				<< "contention " << contend;
			// The same CPU never overlaps itself: its next access starts at its end.
			sc_time t2;
			const sc_time before = pl->cpus[0]->local;
			ASSERT_EQ(pl->cpus[0]->access(tlm::TLM_READ_COMMAND, HWS_REG_ID, &v0, 0xf, &t2),
				  tlm::TLM_OK_RESPONSE);
			EXPECT_EQ(pl->cpus[0]->local, before + t2);
		});
	}
}

// The driver's accesses go out of the initiator hws_set_master() names (the CPU the
// firmware charges): only that CPU's local time moves, by exactly what was annotated.
TEST(VpTarget, AccessesGoOutOfTheMastersInitiator)
{
	set_bus(100, true);
	run_in_sc([] {
		std::unique_ptr<hws_dev, Closer> d(open_tlm(&pl->transport));
		ASSERT_TRUE(d);
		for (unsigned m : { 3u, 7u, 0u }) {
			pl->restart_time();
			hws_set_master(d.get(), m);
			hws_bus_stats a, b;
			hws_get_bus_stats(d.get(), &a);
			hws_pick p;
			ASSERT_EQ(hws_peek(d.get(), 1, &p), 0) << hws_errmsg(d.get());
			hws_get_bus_stats(d.get(), &b);
			for (unsigned c = 0; c < pl->cpus.size(); c++)
				if (c == m)
					EXPECT_EQ(to_ns(pl->cpus[c]->local), b.delay_ns - a.delay_ns);
				else
					EXPECT_EQ(pl->cpus[c]->local, sc_core::SC_ZERO_TIME) << "CPU " << c;
		}
	});
}

// Every access through the TLM target against the C model (cycle-exact at the pins, and
// equal to the rtl backend in lockstep): the same data, response and clock edges, for a
// random stream of commands, legal and not, through the driver.
namespace {
struct Compare {
	const hws_transport *tlm;
	hws_model *model;
	uint64_t accesses = 0;
	std::string first;
};

unsigned cmp_read(void *ctx, unsigned m, uint32_t addr, uint32_t *data, uint32_t *resp,
		  double *ns)
{
	Compare *c = static_cast<Compare *>(ctx);
	uint32_t md = 0, mr = 0;
	unsigned e = c->tlm->ops->read(c->tlm->ctx, m, addr, data, resp, ns);
	unsigned me = hws_model_read(c->model, addr, &md, &mr);

	c->accesses++;
	if ((md != *data || mr != *resp || me != e) && c->first.empty())
		c->first = "access " + std::to_string(c->accesses) + ": read 0x" +
			   std::to_string(addr) + ": tlm " + std::to_string(*data) + "/" +
			   std::to_string(*resp) + "/" + std::to_string(e) + " model " +
			   std::to_string(md) + "/" + std::to_string(mr) + "/" + std::to_string(me);
	return e;
}

unsigned cmp_write(void *ctx, unsigned m, uint32_t addr, uint32_t data, uint32_t strb,
		   uint32_t *resp, double *ns)
{
	Compare *c = static_cast<Compare *>(ctx);
	uint32_t mr = 0;
	unsigned e = c->tlm->ops->write(c->tlm->ctx, m, addr, data, strb, resp, ns);
	unsigned me = hws_model_write(c->model, addr, data, strb, &mr);

	c->accesses++;
	if ((mr != *resp || me != e) && c->first.empty())
		c->first = "access " + std::to_string(c->accesses) + ": write " +
			   std::to_string(addr) + "=" + std::to_string(data) + ": tlm " +
			   std::to_string(*resp) + "/" + std::to_string(e) + " model " +
			   std::to_string(mr) + "/" + std::to_string(me);
	return e;
}

void cmp_idle(void *ctx, unsigned edges, double *ns)
{
	Compare *c = static_cast<Compare *>(ctx);

	c->tlm->ops->idle(c->tlm->ctx, edges, ns);
	hws_model_idle(c->model, edges);
}
} // namespace

TEST(VpTarget, SameAnswersAndEdgesAsTheModel)
{
	const unsigned seed = seed_of();

	set_bus(25, true);
	run_in_sc([&] {
		hws_params mp;
		hws_model *m = nullptr;

		hws_params_default(&mp);
		ASSERT_EQ(hws_model_create(&m, &mp), 0);
		Compare c{ &pl->transport, m, 0, {} };
		hws_transport_ops ops{};	// the optional operations NULL
		ops.read = cmp_read;
		ops.write = cmp_write;
		ops.idle = cmp_idle;
		hws_transport tp{};
		tp.ops = &ops;
		tp.ctx = &c;
		tp.name = "tlm";
		std::unique_ptr<hws_dev, Closer> d(open_tlm(&tp));
		ASSERT_TRUE(d);
		// Both start from a soft reset (the platform's engine has a history).
		ASSERT_EQ(hws_soft_reset(d.get()), 0);
		c.first.clear();
		std::mt19937 rng(seed);
		auto r = [&](unsigned n) { return (unsigned)(rng() % n); };
		for (unsigned i = 0; i < 4000 && c.first.empty(); i++) {
			unsigned t = r(300), cpu = r(9), prio = r(150);
			hws_pick p;
			uint32_t v;
			unsigned f;
			hws_bal b;

			switch (r(10)) {
			case 0:
			case 1:
				(void)hws_enqueue(d.get(), t, cpu, prio, r(2), r(2));
				break;
			case 2:
				(void)hws_dequeue(d.get(), t);
				break;
			case 3:
				(void)hws_pick_next(d.get(), cpu, &p);
				break;
			case 4:
				(void)hws_set_prio(d.get(), t, prio);
				break;
			case 5:
				(void)hws_migrate(d.get(), t, cpu);
				break;
			case 6:
				(void)hws_load_tick(d.get(), cpu);
				break;
			case 7:
				(void)hws_dom_set(d.get(), cpu, 1 + r(3), cpu - cpu % 2);
				(void)hws_idlest(d.get(), cpu, r(4), &f);
				break;
			case 8:
				(void)hws_balance_query(d.get(), cpu, r(4), r(3), &b);
				break;
			default:
				for (unsigned k = 0; k < 1 + r(20); k++)
					(void)hws_submit(d.get(), hws_cmd(r(16), t, prio, cpu, 0, 0));
				(void)hws_sync(d.get(), nullptr);
				while (r(2) && hws_result(d.get(), &v) == 0 && v != (HWS_ERR_FLAG | HWS_ERR_UNDERFLOW))
					;
				break;
			}
		}
		EXPECT_EQ(c.first, "") << "first difference, HWS_SEED=" << seed;
		EXPECT_GT(c.accesses, 10000u);
		hws_model_destroy(m);
	});
}

// A posted write costs its CPU only the acceptance; it reaches the port after half the
// write latency and is served there (its 2 edges); the CPU's next read, issued right
// after, is served only after it (same initiator, program order) and so waits behind it.
// Two posted writes: the read waits behind both. Another CPU's read is not behind them.
TEST(VpBus, PostedWriteCostsTheAcceptanceAndTheNextReadWaitsBehindIt)
{
	for (double A : { 0.0, 7.0 }) {
		SCOPED_TRACE("acceptance " + std::to_string(A) + " ns");
		set_bus(100, 100, true, A, 1);
		run_in_sc([&] {
			const uint32_t nop = hws_cmd(HWS_OP_NOP, 0, 0, 0, 0, 0);
			// Write at 0: port [50, 70). Read at A: reaches 50 + A, served [70, 90),
			// answered at 140.
			EXPECT_EQ(acc(0, true, HWS_REG_CMD, nop), ns(A));
			EXPECT_TRUE(pl->ic->last_posted);
			EXPECT_EQ(pl->ic->last_wait, sc_core::SC_ZERO_TIME);
			EXPECT_EQ(acc(0, false, HWS_REG_ID), ns(140 - A));
			EXPECT_EQ(pl->ic->last_behind, ns(20 - A));
			EXPECT_EQ(pl->ic->last_wait, sc_core::SC_ZERO_TIME);
			EXPECT_EQ(pl->cpus[0]->local, ns(140));
		});
		set_bus(100, 100, true, A, 1);
		run_in_sc([&] {
			const uint32_t nop = hws_cmd(HWS_OP_NOP, 0, 0, 0, 0, 0);
			// Two writes: [50, 70), [70, 90) (the second reaches at 50 + A, behind the
			// first); the read is served at 90, answered at 160. CPU 1's read at time 0
			// is not behind CPU 0's writes: it waits only for the shared port.
			EXPECT_EQ(acc(0, true, HWS_REG_CMD, nop), ns(A));
			EXPECT_EQ(acc(0, true, HWS_REG_CMD, nop), ns(A));
			EXPECT_EQ(acc(0, false, HWS_REG_ID), ns(160 - 2 * A));
			EXPECT_EQ(pl->ic->last_behind, ns(40 - 2 * A));
			EXPECT_EQ(acc(1, false, HWS_REG_ID), ns(180))
				<< "CPU 1's read (reaches 50) waits for the port until 110";
			EXPECT_EQ(pl->ic->last_behind, sc_core::SC_ZERO_TIME);
			EXPECT_EQ(pl->ic->last_wait, ns(60));
		});
	}
	// Without posting, the same write costs the round trip and the read does not wait.
	set_bus(100, 100, false, 7, 1);
	run_in_sc([&] {
		EXPECT_EQ(acc(0, true, HWS_REG_CMD, hws_cmd(HWS_OP_NOP, 0, 0, 0, 0, 0)), ns(120));
		EXPECT_FALSE(pl->ic->last_posted);
		EXPECT_EQ(acc(0, false, HWS_REG_ID), ns(120));
		EXPECT_EQ(pl->ic->last_behind, sc_core::SC_ZERO_TIME);
	});
}

// CPU c uses port c x N / CPUs. Two CPUs asking at the same moment on the same port: the
// second waits for the first's engine time; on different ports neither waits. A long
// access (the RESULT read of a BALANCE, which holds its port for the command's cycles)
// delays its own port only.
TEST(VpBus, EachPortHasItsOwnContention)
{
	set_bus(100, 100, false, 0, 4);
	for (unsigned c = 0; c < 8; c++)
		EXPECT_EQ(pl->ic->port_of(c), c / 2) << "CPU " << c;
	pl->ic->set_ports(3);
	for (unsigned c = 0; c < 8; c++)
		EXPECT_EQ(pl->ic->port_of(c), c * 3 / 8) << "CPU " << c;
	for (unsigned ports : { 1u, 2u, 8u }) {
		SCOPED_TRACE(std::to_string(ports) + " ports");
		set_bus(100, 100, false, 0, ports);
		run_in_sc([&] {
			// CPUs 0 and 1 share a port unless there are 8; 0 and 4 unless there is 1.
			EXPECT_EQ(acc(0, false, HWS_REG_ID), ns(120));
			EXPECT_EQ(acc(1, false, HWS_REG_ID), ns(ports == 8 ? 120 : 140));
			EXPECT_EQ(acc(4, false, HWS_REG_ID), ns(ports == 1 ? 160 : 120));
			EXPECT_EQ(pl->ic->last_port, ports == 1 ? 0u : ports / 2);
		});
	}
	// A BALANCE on CPU 0: its RESULT read holds port 0 for the command's cycles. CPUs 1
	// (port 0) and 4 (port 1 of 2) ask while it is held: on port 0 they wait, on port 1 not.
	for (unsigned ports : { 1u, 2u }) {
		SCOPED_TRACE(std::to_string(ports) + " ports, BALANCE");
		set_bus(100, 100, false, 0, ports);
		run_in_sc([&] {
			std::unique_ptr<hws_dev, Closer> d(open_tlm(&pl->transport));
			ASSERT_TRUE(d);
			ASSERT_EQ(hws_soft_reset(d.get()), 0);
			for (unsigned t = 0; t < 24; t++)
				ASSERT_EQ(hws_enqueue(d.get(), t, t % 3, 120, 0, 0), 0);
			pl->restart_time();
			hws_set_master(d.get(), 0);
			// The CMD write: port [50, 70), answered at 120.
			ASSERT_EQ(hws_submit(d.get(), hws_cmd(HWS_OP_QUERY, 0, 3, 0, 1, 0)), 0);
			uint32_t v = 0;
			sc_time took;
			// The RESULT read: reaches at 170, holds the port for all its edges.
			ASSERT_EQ(pl->cpus[0]->access(tlm::TLM_READ_COMMAND, HWS_REG_RESULT, &v, 0xf,
						      &took), tlm::TLM_OK_RESPONSE);
			const double held = 10.0 * pl->target->last_edges;
			ASSERT_GT(held, 100) << "the RESULT read did not wait for the BALANCE";
			EXPECT_EQ(took, ns(100 + held));
			// CPU 4 from 150: reaches at 200, inside the hold.
			pl->cpus[4]->local = ns(150);
			const double w4 = ports == 1 ? 170 + held - 200 : 0;
			EXPECT_EQ(acc(4, false, HWS_REG_ID), ns(120 + w4));
			EXPECT_EQ(pl->ic->last_wait, ns(w4));
			// CPU 1 from 150: port 0 in both cases, behind the hold (and, with one
			// port, behind CPU 4's read too).
			pl->cpus[1]->local = ns(150);
			const double w1 = 170 + held - 200 + (ports == 1 ? 20 : 0);
			EXPECT_EQ(acc(1, false, HWS_REG_ID), ns(120 + w1));
			EXPECT_EQ(pl->ic->last_wait, ns(w1));
		});
	}
}

// Reads and writes have their own latency: a read costs the read latency plus its edges,
// a write (not posted) the write latency plus its edges; posted, the write reaches the
// port after half the write latency and the read waits behind it from there.
TEST(VpBus, ReadAndWriteLatenciesApart)
{
	const uint32_t nop = hws_cmd(HWS_OP_NOP, 0, 0, 0, 0, 0);

	set_bus(100, 300, false, 0, 1);
	run_in_sc([&] {
		EXPECT_EQ(acc(0, false, HWS_REG_ID), ns(120));
		EXPECT_EQ(acc(0, true, HWS_REG_CMD, nop), ns(320));
		EXPECT_EQ(acc(0, false, HWS_REG_ID), ns(120));
	});
	set_bus(300, 100, false, 0, 1);
	run_in_sc([&] {
		EXPECT_EQ(acc(0, false, HWS_REG_ID), ns(320));
		EXPECT_EQ(acc(0, true, HWS_REG_CMD, nop), ns(120));
	});
	set_bus(100, 300, true, 5, 1);
	run_in_sc([&] {
		// The write reaches the port at 150, served [150, 170); the read, issued at 5,
		// reaches at 55 and waits 115 behind it; answered at 170 + 20 + 50 = 240.
		EXPECT_EQ(acc(0, true, HWS_REG_CMD, nop), ns(5));
		EXPECT_EQ(acc(0, false, HWS_REG_ID), ns(235));
		EXPECT_EQ(pl->ic->last_behind, ns(115));
	});
}

// With writes not posted, every access costs exactly latency + edges x clock + the wait
// for its port (the first platform's rule, docs/vp.md), over a random stream of commands
// from several CPUs; no access ever waits behind another of its own CPU.
TEST(VpBus, PostedWritesOffIsTheFirstTiming)
{
	const unsigned seed = seed_of();

	set_bus(80, true);
	run_in_sc([&] {
		std::unique_ptr<hws_dev, Closer> d(open_tlm(&pl->transport));
		ASSERT_TRUE(d);
		ASSERT_EQ(hws_soft_reset(d.get()), 0);
		pl->restart_time();
		std::mt19937 rng(seed);
		double waited = 0;
		const double wait0 = to_ns(pl->ic->total_wait);
		const uint64_t posted0 = pl->ic->posted_writes;
		for (unsigned i = 0; i < 600; i++) {
			const unsigned cpu = rng() % 8;
			hws_set_master(d.get(), cpu);
			hws_bus_stats a, b;
			hws_get_bus_stats(d.get(), &a);
			const double local0 = to_ns(pl->cpus[cpu]->local);
			uint32_t v;
			hws_pick p;
			switch (rng() % 3) {
			case 0:
				(void)hws_enqueue(d.get(), rng() % 200, rng() % 8, 100 + rng() % 40, 0, 0);
				break;
			case 1:
				(void)hws_pick_next(d.get(), rng() % 8, &p);
				break;
			default:
				(void)hws_reg_read(d.get(), HWS_REG_CYCLES, &v);
				break;
			}
			hws_get_bus_stats(d.get(), &b);
			const uint64_t n = b.reads + b.writes - a.reads - a.writes;
			const double took = b.delay_ns - a.delay_ns;
			const double base = (double)n * 80 + (double)(b.edges - a.edges) * kClk;
			ASSERT_GE(took, base - 1e-6) << "HWS_SEED=" << seed;
			waited += took - base;
			EXPECT_EQ(pl->ic->last_behind, sc_core::SC_ZERO_TIME) << "HWS_SEED=" << seed;
			EXPECT_DOUBLE_EQ(to_ns(pl->cpus[cpu]->local), local0 + took);
		}
		EXPECT_NEAR(waited, to_ns(pl->ic->total_wait) - wait0, 1e-3) << "HWS_SEED=" << seed;
		EXPECT_GT(waited, 0) << "nothing waited: the stream did not test contention";
		EXPECT_EQ(pl->ic->posted_writes, posted0);
	});
}

int sc_main(int argc, char **argv)
{
	PlatformConfig pc;
	std::string err;

	testing::InitGoogleTest(&argc, argv);
	pc.nr_cpus = 8;
	pc.clk_ns = kClk;
	std::unique_ptr<Platform> p = Platform::create(pc, &err);
	if (!p) {
		fprintf(stderr, "hws_vp_tests: %s\n", err.c_str());
		return 1;
	}
	pl = p.get();
	return RUN_ALL_TESTS();
}

int main(int argc, char **argv)
{
	setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
	return sc_core::sc_elab_and_sim(argc, argv);
}
