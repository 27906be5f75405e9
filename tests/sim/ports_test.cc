// ports_test.cc - NR_PORTS AXI4-Lite ports (docs/accelerator.md 4.5): the C model and the
// Verilated RTL driven through their pins, every port with its own random traffic (posted
// CMD writes of every opcode, RESULT/STATUS/SYNC/window/register reads, bad accesses,
// ERR_CLEAR, soft resets, the interrupt's CURR/IRQ_PEND/IRQ_EN writes and reads) and its own random channel order and back-pressure, every output
// of every port compared at every edge; and directed checks of the port semantics:
// results go to the port that sent the command, a port's reads wait only for its own
// commands, the arbiter is round-robin, the interrupt's registers written by several ports
// at one edge follow 4.6's rule.
//
// Seeds: HWS_SEED overrides each test's default; a failure prints the seed.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstdio>
#include <string>
#include <vector>

#include "hws/hws.h"
#include "hws/regs.h"
#include "hws/axil_pins.h"
#include "lib/hws_bus_timing.h"
#include "lib/hws_params.h"
#include "lib/hws_port_master.h"
#include "models/hws_model.h"
#include "sim/harness/hws_vsim.h"
#include "tests/test_util.h"

namespace {

// xorshift64*: the test's own stream (one per port), reproducible from the seed.
struct Rng {
	uint64_t s;
	explicit Rng(uint64_t seed) : s(seed * 0x9e3779b97f4a7c15ull + 1) {}
	uint64_t next()
	{
		s ^= s >> 12;
		s ^= s << 25;
		s ^= s >> 27;
		return s * 0x2545f4914f6cdd1dull;
	}
	unsigned below(unsigned n) { return (unsigned)(next() >> 33) % n; }
};

// The optional units a shape leaves out (its key's nb, ne, ni), and whether it is the build
// with overlapped issue (its key's pi, PIPE=1).
struct Without {
	bool balance = false, err_counters = false, irq = false;
	bool pipe = false;
	bool class_mix = false;	// the traffic: mostly posted commands of the overlap class
};

// The model and the RTL of one shape with @ports ports, stepped together through the pins;
// the interrupt pins (irq_cpu_o, irq_o) compared with the model's lines at every edge too.
struct PortPair {
	hws_vsim *s = nullptr;
	hws_model *m = nullptr;
	unsigned np;
	hws_params p{};
	std::vector<hws_axil_out> out_m, out_r;
	uint64_t edges = 0;
	uint64_t irq_edges = 0;	// edges after which some interrupt line was high
	std::string fail;	// the first mismatch

	PortPair(unsigned cpus, unsigned tasks, unsigned depth, unsigned ports, Without w = {})
		: np(ports)
	{
		hws_vsim_opts o{};
		char msg[256];

		o.nr_cpus = p.nr_cpus = cpus;
		o.nr_tasks = p.nr_tasks = tasks;
		o.cmd_depth = p.cmd_depth = depth;
		o.res_depth = p.res_depth = depth;
		o.nr_groups = p.nr_groups = HWS_DEF_GROUPS;
		o.nr_ports = p.nr_ports = ports;
		o.no_balance = p.no_balance = w.balance;
		o.no_err_counters = p.no_err_counters = w.err_counters;
		o.no_irq = p.no_irq = w.irq;
		o.pipe = p.pipe = w.pipe;
		EXPECT_EQ(hws_vsim_create(&s, &o, msg, sizeof(msg)), 0) << msg;
		EXPECT_EQ(hws_model_create(&m, &p), 0);
		out_m.resize(ports);
		out_r.resize(ports);
		if (s && m) {
			EXPECT_EQ(hws_vsim_nr_ports(s), ports);
			EXPECT_EQ(hws_model_nr_ports(m), ports);
			hws_model_pins_now(m, out_m.data());
			out_r = out_m;	// both come out of reset with the same outputs
		}
	}
	~PortPair()
	{
		hws_vsim_destroy(s);
		hws_model_destroy(m);
	}
	bool ok() const { return s && m; }

	// One edge on both; false (with fail set) at the first output that differs.
	bool edge(const std::vector<hws_axil_in> &in)
	{
		hws_model_pins(m, in.data(), out_m.data());
		hws_vsim_pins(s, in.data(), out_r.data());
		edges++;
		for (unsigned i = 0; i < np; i++) {
			const hws_axil_out &a = out_m[i], &b = out_r[i];
			char buf[256];

			if (a.awready != b.awready || a.wready != b.wready || a.bvalid != b.bvalid ||
			    a.bresp != b.bresp || a.arready != b.arready || a.rvalid != b.rvalid ||
			    (a.rvalid && (a.rdata != b.rdata || a.rresp != b.rresp))) {
				snprintf(buf, sizeof(buf),
					 "edge %llu port %u: model aw%u w%u b%u/%u ar%u r%u/%u 0x%08x, "
					 "rtl aw%u w%u b%u/%u ar%u r%u/%u 0x%08x",
					 (unsigned long long)edges, i, a.awready, a.wready, a.bvalid,
					 a.bresp, a.arready, a.rvalid, a.rresp, a.rdata, b.awready,
					 b.wready, b.bvalid, b.bresp, b.arready, b.rvalid, b.rresp,
					 b.rdata);
				fail = buf;
				return false;
			}
		}
		unsigned any = 2;
		const uint64_t lm = hws_model_irq_lines(m), lr = hws_vsim_irq(s, &any);
		if (lm != lr || any != (lr != 0)) {
			char buf[160];

			snprintf(buf, sizeof(buf), "edge %llu: irq lines model 0x%llx, rtl 0x%llx "
				 "(irq_o %u)", (unsigned long long)edges, (unsigned long long)lm,
				 (unsigned long long)lr, any);
			fail = buf;
			return false;
		}
		irq_edges += lr != 0;
		return true;
	}
};

// One port's random traffic: the next transaction to start. @class_mix: six in ten are
// posted commands of the overlap class (docs/accelerator.md 4.1.1: ENQUEUE, PICK_NEXT,
// PEEK, CPU_STAT) with fields mostly in range, so the command FIFOs stay full and heads
// meet an older command in its last step, three in ten RESULT reads that make room for
// their words; the rest is the usual mix.
void random_transaction(Rng &r, hws_bus_gen &g, const hws_params &p, hws_port_master *pm,
			bool class_mix = false)
{
	static const hws_bus_timing ref = { 0, 0, 0, 0 };
	static const uint32_t cls[4] = { HWS_OP_ENQUEUE, HWS_OP_PICK_NEXT, HWS_OP_PEEK,
					 HWS_OP_CPU_STAT };
	hws_bus_timing t = ref;
	unsigned k = r.below(1000);

	if (r.below(2))
		hws_bus_timing_next(&g, &t);
	const unsigned mix = class_mix ? r.below(10) : 9;

	if (mix >= 6 && mix < 9) {
		hws_pm_read(pm, &t, HWS_REG_RESULT);
		return;
	}
	if (mix < 6) {
		const unsigned o = r.below(20);
		const uint32_t op = cls[o < 9 ? 0 : o < 16 ? 1 : o < 18 ? 2 : 3];
		const uint32_t prio = op == HWS_OP_CPU_STAT ? r.below(16) :
				      r.below(16) ? 100 + r.below(40) : r.below(256);
		const uint32_t w = op << HWS_CMD_OP_LSB |
				   (uint32_t)r.below(p.nr_tasks + (r.below(16) ? 0 : 1)) << HWS_CMD_TASK_LSB |
				   prio << HWS_CMD_PRIO_LSB |
				   (uint32_t)r.below(p.nr_cpus + (r.below(16) ? 0 : 1)) << HWS_CMD_CPU_LSB |
				   r.below(4);

		hws_pm_write(pm, &t, HWS_REG_CMD, w, 0xf);
		return;
	}
	if (k < 420) {	// a posted command: every opcode, fields in and out of range
		uint32_t op = r.below(4) ? 1 + r.below(9) : r.below(16);
		uint32_t w = op << HWS_CMD_OP_LSB |
			     (uint32_t)r.below(p.nr_tasks + 1) << HWS_CMD_TASK_LSB |
			     (uint32_t)(r.below(8) ? 100 + r.below(40) : r.below(256)) << HWS_CMD_PRIO_LSB |
			     (uint32_t)r.below(p.nr_cpus + 1) << HWS_CMD_CPU_LSB | r.below(4);

		if (op == HWS_OP_ENQUEUE && r.below(4))
			w = (w & ~HWS_CMD_TASK_MASK) | (uint32_t)r.below(p.nr_tasks) << HWS_CMD_TASK_LSB;
		hws_pm_write(pm, &t, HWS_REG_CMD, w, 0xf);
	} else if (k < 580) {
		hws_pm_read(pm, &t, HWS_REG_RESULT);
	} else if (k < 650) {
		hws_pm_read(pm, &t, HWS_REG_STATUS);
	} else if (k < 700) {
		hws_pm_read(pm, &t, HWS_REG_SYNC);
	} else if (k < 820) {
		hws_pm_read(pm, &t, HWS_POP_BASE + 4 * r.below(p.nr_cpus + 1));
	} else if (k < 870) {
		hws_pm_read(pm, &t, HWS_PEEK_BASE + 4 * r.below(p.nr_cpus + 1));
	} else if (k < 930) {	// a register: every offset of the map, mapped or not
		hws_pm_read(pm, &t, 4 * r.below(0x98 / 4 + 2));
	} else if (k < 960) {	// the interrupt's registers (4.6): shared by every port
		const unsigned what = r.below(4);
		const uint32_t hi = r.below(4) ? 0 : 4;	// IRQ_PEND1/IRQ_EN1 now and then

		if (what == 0)	// CURR[c], c up to NR_CPUS (an ADDR error)
			hws_pm_write(pm, &t, HWS_CURR_BASE + 4 * r.below(p.nr_cpus + 1),
				     r.below(4) ? 100 + r.below(40) : (uint32_t)r.next(), 0xf);
		else if (what == 1)	// W1C: one CPU's bit, or anything
			hws_pm_write(pm, &t, HWS_REG_IRQ_PEND0 + hi,
				     r.below(2) ? 1u << r.below(p.nr_cpus) : (uint32_t)r.next(), 0xf);
		else if (what == 2)
			hws_pm_write(pm, &t, HWS_REG_IRQ_EN0 + hi, (uint32_t)r.next(), 0xf);
		else
			hws_pm_read(pm, &t, HWS_REG_IRQ_PEND0 + 4 * r.below(4));
	} else if (k < 980) {	// anything: misaligned, unmapped, wrong direction, bad strobes
		if (r.below(2))
			hws_pm_read(pm, &t, r.below(1u << HWS_ADDR_W));
		else
			hws_pm_write(pm, &t, r.below(0x40), (uint32_t)r.next(),
				     r.below(4) ? 0xf : r.below(16));
	} else if (k < 999) {
		hws_pm_write(pm, &t, HWS_REG_CTRL, HWS_CTRL_ERR_CLEAR_MASK, 0xf);
	} else {
		hws_pm_write(pm, &t, HWS_REG_CTRL, HWS_CTRL_SOFT_RESET_MASK, 0xf);
	}
}

// Random traffic on every port for @edges edges; every output compared at every edge.
// What the ports saw, summed: window reads answered with a task, refused (4.4), RESULT
// words that were a command's (not an UNDERFLOW), SLVERR responses, IRQ_PEND0 reads that
// were not 0.
// were not 0 (any of the four interrupt registers, for irq_regs), edges after which an
// interrupt pin was high.
struct Seen {
	uint64_t picked = 0, refused = 0, results = 0, slverr = 0, irq_pend = 0;
	uint64_t irq_regs = 0, irq_edges = 0, irq_writes = 0;
	uint64_t overlaps = 0;	// PIPE=1: commands popped beside an older one (the model's)
};

Seen lockstep_random(unsigned cpus, unsigned tasks, unsigned depth, unsigned ports,
		     uint64_t seed, uint64_t edges, Without w = {})
{
	Seen seen;
	PortPair pp(cpus, tasks, depth, ports, w);
	std::vector<hws_port_master> pm(ports);
	std::vector<Rng> rng;
	std::vector<hws_bus_gen> gen(ports);
	std::vector<hws_axil_in> in(ports);
	std::vector<uint64_t> done(ports, 0);
	char msg[256];

	EXPECT_TRUE(pp.ok());
	if (!pp.ok())
		return seen;
	for (unsigned i = 0; i < ports; i++) {
		hws_pm_init(&pm[i]);
		rng.emplace_back(seed * 8 + i);
		hws_bus_gen_init(&gen[i], seed * 8 + i + 1000);
	}
	for (uint64_t e = 0; e < edges; e++) {
		for (unsigned i = 0; i < ports; i++) {
			if (!hws_pm_busy(&pm[i]) && rng[i].below(4))	// idle gaps between
				random_transaction(rng[i], gen[i], pp.p, &pm[i], w.class_mix);
			hws_pm_drive(&pm[i], &pp.out_m[i], &in[i]);
		}
		if (!pp.edge(in)) {
			ADD_FAILURE() << pp.fail << " (seed " << seed << ", " << ports << " ports)";
			return seen;
		}
		for (unsigned i = 0; i < ports; i++) {
			const hws_port_master &q = pm[i];

			if (!hws_pm_after(&pm[i]))
				continue;
			done[i]++;
			seen.slverr += q.resp == 2;
			seen.irq_writes += q.write && q.resp == 0 &&
					   ((q.addr >= HWS_REG_IRQ_PEND0 && q.addr <= HWS_REG_IRQ_EN1) ||
					    q.addr >= HWS_CURR_BASE);
			if (q.write || q.resp)
				continue;
			seen.irq_regs += q.addr >= HWS_REG_IRQ_PEND0 && q.addr <= HWS_REG_IRQ_EN1 &&
					 q.rdata != 0;
			if (q.addr >= HWS_POP_BASE && q.addr < HWS_PEEK_BASE)
				seen.picked += (q.rdata & HWS_ERR_FLAG) == 0 &&
					       (q.rdata & HWS_RES_NONE_MASK) == 0;
			seen.refused += q.rdata == (HWS_ERR_FLAG | HWS_POP_ERRP_MASK | HWS_ERR_OVERFLOW);
			seen.irq_pend += q.addr == HWS_REG_IRQ_PEND0 && q.rdata != 0;
			seen.results += q.addr == HWS_REG_RESULT &&
					q.rdata != (HWS_ERR_FLAG | HWS_ERR_UNDERFLOW);
		}
		if (e % 4096 == 0 && hws_model_check(pp.m, msg, sizeof(msg))) {
			ADD_FAILURE() << msg << " (seed " << seed << ")";
			return seen;
		}
	}
	for (unsigned i = 0; i < ports; i++)	// every port made progress
		EXPECT_GT(done[i], edges / 40) << "port " << i << " (seed " << seed << ")";
	seen.irq_edges = pp.irq_edges;
	seen.overlaps = hws_model_overlaps(pp.m);
	return seen;
}

// The reference HX8K build, 8x256 without BALANCE, the per-code counters and the interrupt
// (IRQ=0, shape 8x256x16g16nbneni): the same traffic, the interrupt's writes among it, in
// lockstep at every edge; the interrupt's writes are answered OKAY, its registers read 0
// and its pins stay low. The same seed on the default shape (IRQ=1) shows the traffic
// does raise them there.
TEST(Ports, LockstepRandomTrafficWithoutTheInterrupt)
{
	const uint64_t seed = hwstest::seed_from_env(24);
	Without hx8k;
	hx8k.balance = hx8k.err_counters = hx8k.irq = true;
	Seen s = lockstep_random(8, 256, 16, 1, seed, 300000, hx8k);

	EXPECT_GT(s.picked, 1000u) << "seed " << seed;
	EXPECT_GT(s.results, 5000u) << "seed " << seed;
	EXPECT_GT(s.irq_writes, 1000u) << "seed " << seed;
	EXPECT_EQ(s.irq_regs, 0u) << "seed " << seed;
	EXPECT_EQ(s.irq_edges, 0u) << "seed " << seed;

	Seen c = lockstep_random(8, 256, 16, 1, seed, 300000);
	EXPECT_GT(c.irq_regs, 100u) << "seed " << seed;
	EXPECT_GT(c.irq_edges, 1000u) << "seed " << seed;
}

// ... and the multi-port decode of the build without it (IRQ=0, NR_PORTS=2).
TEST(Ports, LockstepRandomTrafficTwoPortsWithoutTheInterrupt)
{
	const uint64_t seed = hwstest::seed_from_env(25);
	Without ni;
	ni.irq = true;
	Seen s = lockstep_random(2, 16, 4, 2, seed, 300000, ni);

	EXPECT_GT(s.picked, 300u) << "seed " << seed;
	EXPECT_GT(s.irq_writes, 1000u) << "seed " << seed;
	EXPECT_EQ(s.irq_regs, 0u) << "seed " << seed;
	EXPECT_EQ(s.irq_edges, 0u) << "seed " << seed;
}

TEST(Ports, LockstepRandomTrafficTwoPortsSmallShape)
{
	Seen s = lockstep_random(2, 16, 4, 2, hwstest::seed_from_env(21), 1000000);

	EXPECT_GT(s.picked, 1000u);
	EXPECT_GT(s.irq_pend, 100u);	// IRQ_PEND read non-zero: links did set it
	EXPECT_GT(s.refused, 10u);
	EXPECT_GT(s.results, 10000u);
	EXPECT_GT(s.slverr, 1000u);
}

TEST(Ports, LockstepRandomTrafficFourPortsSmallShape)
{
	Seen s = lockstep_random(2, 16, 4, 4, hwstest::seed_from_env(22), 1000000);

	EXPECT_GT(s.picked, 1000u);
	EXPECT_GT(s.irq_pend, 100u);	// IRQ_PEND read non-zero: links did set it
	EXPECT_GT(s.refused, 10u);
	EXPECT_GT(s.results, 10000u);
}

// Overlapped issue (PIPE=1, docs/accelerator.md 4.1.1): the same traffic on the pi builds,
// every port posting commands, so heads of the overlap class meet an older command in its
// last step; the model counts the overlapped pops, and the RTL agrees at every edge.
TEST(Ports, LockstepRandomTrafficPipeOnePortSmallShape)
{
	const uint64_t seed = hwstest::seed_from_env(26);
	printf("[ seed     ] %llu\n", (unsigned long long)seed);
	Without pi;
	pi.pipe = true;
	Seen s = lockstep_random(2, 16, 4, 1, seed, 1000000, pi);

	EXPECT_GT(s.overlaps, 100u) << "seed " << seed;
	EXPECT_GT(s.picked, 1000u) << "seed " << seed;
	EXPECT_GT(s.results, 10000u) << "seed " << seed;
}

TEST(Ports, LockstepRandomTrafficPipeTwoPortsSmallShape)
{
	const uint64_t seed = hwstest::seed_from_env(27);
	printf("[ seed     ] %llu\n", (unsigned long long)seed);
	Without pi;
	pi.pipe = true;
	Seen s = lockstep_random(2, 16, 4, 2, seed, 1000000, pi);

	EXPECT_GT(s.overlaps, 1000u) << "seed " << seed;
	EXPECT_GT(s.picked, 1000u) << "seed " << seed;
	EXPECT_GT(s.refused, 10u) << "seed " << seed;
	EXPECT_GT(s.results, 10000u) << "seed " << seed;
}

TEST(Ports, LockstepRandomTrafficPipeFourPortsDefaultShape)
{
	const uint64_t seed = hwstest::seed_from_env(28);
	printf("[ seed     ] %llu\n", (unsigned long long)seed);
	Without pi;
	pi.pipe = true;
	Seen s = lockstep_random(8, 256, 16, 4, seed, 400000, pi);

	EXPECT_GT(s.overlaps, 1000u) << "seed " << seed;
	EXPECT_GT(s.picked, 1000u) << "seed " << seed;
	EXPECT_GT(s.results, 10000u) << "seed " << seed;
}

// ... and traffic made of the overlap class, so that most pops overlap: chains of ENQUEUEs
// (each beside the one before), PICK_NEXTs beside ENQUEUEs, the QUEUED check of (d), full
// result FIFOs ((e)), window reads among them.
TEST(Ports, LockstepOverlapClassTrafficPipe)
{
	const uint64_t seed = hwstest::seed_from_env(29);
	printf("[ seed     ] %llu\n", (unsigned long long)seed);
	Without pi;
	pi.pipe = pi.class_mix = true;
	for (unsigned ports = 1; ports <= 2; ports++) {
		Seen s = lockstep_random(4, 16, 4, ports, seed + ports, 500000, pi);

		printf("[ ports %u  ] %llu overlapped pops, %llu results, %llu picked\n", ports,
		       (unsigned long long)s.overlaps, (unsigned long long)s.results,
		       (unsigned long long)s.picked);
		// (one port posts a command every few edges at most; two keep the FIFOs full)
		EXPECT_GT(s.overlaps, ports == 1 ? 2000u : 20000u)
			<< "seed " << seed + ports << ", " << ports << " ports";
		EXPECT_GT(s.picked, 200u) << "seed " << seed + ports;
		EXPECT_GT(s.results, 10000u) << "seed " << seed + ports;
	}
}

TEST(Ports, LockstepRandomTrafficFourPortsDefaultShape)
{
	Seen s = lockstep_random(8, 256, 16, 4, hwstest::seed_from_env(23), 400000);

	EXPECT_GT(s.picked, 1000u);
	EXPECT_GT(s.irq_pend, 100u);	// IRQ_PEND read non-zero: links did set it
	EXPECT_GT(s.results, 10000u);
}

// Transactions on several ports at once, run to completion on the pair; answers
// compared between the sides at every edge, returned from the model's side.
struct Txn {
	unsigned port;
	bool write;
	uint32_t addr, data;
	uint32_t rdata = 0, resp = 9, edges = 0;
};

void run_together(PortPair &pp, std::vector<Txn> &tx)
{
	static const hws_bus_timing ref = { 0, 0, 0, 0 };
	std::vector<hws_port_master> pm(pp.np);
	std::vector<hws_axil_in> in(pp.np);
	std::vector<int> which(pp.np, -1);
	size_t next = 0, left = tx.size();

	for (auto &m : pm)
		hws_pm_init(&m);
	while (left) {
		for (unsigned i = 0; i < pp.np; i++) {
			if (!hws_pm_busy(&pm[i])) {
				for (size_t k = next; k < tx.size(); k++) {
					if (tx[k].port == i && tx[k].resp == 9 && which[i] != (int)k) {
						if (tx[k].write)
							hws_pm_write(&pm[i], &ref, tx[k].addr, tx[k].data, 0xf);
						else
							hws_pm_read(&pm[i], &ref, tx[k].addr);
						which[i] = (int)k;
						break;
					}
				}
			}
			hws_pm_drive(&pm[i], &pp.out_m[i], &in[i]);
		}
		ASSERT_TRUE(pp.edge(in)) << pp.fail;
		for (unsigned i = 0; i < pp.np; i++) {
			if (hws_pm_after(&pm[i])) {
				Txn &t = tx[which[i]];

				t.rdata = pm[i].rdata;
				t.resp = pm[i].resp;
				t.edges = pm[i].edges;
				left--;
			}
		}
		while (next < tx.size() && tx[next].resp != 9)
			next++;
		ASSERT_LT(pp.edges, 100000u) << "transactions did not finish";
	}
}

uint32_t cmd(unsigned op, unsigned task, unsigned prio, unsigned cpu)
{
	return (uint32_t)op << HWS_CMD_OP_LSB | task << HWS_CMD_TASK_LSB |
	       prio << HWS_CMD_PRIO_LSB | cpu << HWS_CMD_CPU_LSB;
}

// Each port enqueues its own task on its own CPU and asks PEEK through CMD + RESULT and
// through the PEEKW window: each sees its own task, the other port's RESULT FIFO is not
// touched, and STATUS shows the port's own levels.
TEST(Ports, ResultsGoToThePortThatSentTheCommand)
{
	PortPair pp(8, 256, 16, 4);
	std::vector<Txn> tx;

	ASSERT_TRUE(pp.ok());
	for (unsigned i = 0; i < 4; i++) {
		tx.push_back({ i, true, HWS_REG_CMD, cmd(HWS_OP_ENQUEUE, 10 + i, 100 + i, i) });
		tx.push_back({ i, true, HWS_REG_CMD, cmd(HWS_OP_PEEK, 0, 0, i) });
		tx.push_back({ i, true, HWS_REG_CMD, cmd(HWS_OP_PEEK, 0, 0, i) });
		tx.push_back({ i, false, HWS_REG_RESULT, 0 });
		tx.push_back({ i, false, HWS_PEEK_BASE + 4 * i, 0 });
		tx.push_back({ i, false, HWS_REG_STATUS, 0 });
		tx.push_back({ i, false, HWS_REG_RESULT, 0 });
		tx.push_back({ i, false, HWS_REG_STATUS, 0 });
	}
	run_together(pp, tx);
	for (unsigned i = 0; i < 4; i++) {
		const Txn *t = &tx[i * 8];

		EXPECT_EQ(t[3].resp, 0u);
		EXPECT_EQ((t[3].rdata & HWS_RES_TASK_MASK) >> HWS_RES_TASK_LSB, 10 + i) << "port " << i;
		EXPECT_EQ((t[4].rdata & HWS_RES_TASK_MASK) >> HWS_RES_TASK_LSB, 10 + i) << "port " << i;
		// After one RESULT read, one word left in this port's result FIFO, none queued.
		EXPECT_EQ((t[5].rdata & HWS_STATUS_RES_LEVEL_MASK) >> HWS_STATUS_RES_LEVEL_LSB, 1u)
			<< "port " << i;
		EXPECT_EQ((t[5].rdata & HWS_STATUS_CMD_LEVEL_MASK) >> HWS_STATUS_CMD_LEVEL_LSB, 0u);
		EXPECT_EQ((t[6].rdata & HWS_RES_TASK_MASK) >> HWS_RES_TASK_LSB, 10 + i) << "port " << i;
		EXPECT_EQ((t[7].rdata & HWS_STATUS_RES_LEVEL_MASK) >> HWS_STATUS_RES_LEVEL_LSB, 0u);
		EXPECT_EQ(t[7].rdata & HWS_STATUS_ERR_MASK, 0u);
	}
}

// A port's SYNC does not wait for another port's backlog, and an error on one port shows
// in every port's STATUS.ERR (each port clears its own by reading STATUS).
TEST(Ports, SyncWaitsForItsOwnPortAndErrorsReachEveryPort)
{
	PortPair pp(2, 16, 4, 2);
	std::vector<Txn> tx;

	ASSERT_TRUE(pp.ok());
	// Port 1 is idle: its SYNC right after port 0's 2 PICK_NEXTs (4 edges each) were
	// posted takes 2 edges, while port 0's SYNC waits for them. (Two: their result words
	// leave room for one more command in port 0's result FIFO of 4, condition 3 of 4.1.)
	for (unsigned k = 0; k < 2; k++)
		tx.push_back({ 0, true, HWS_REG_CMD, cmd(HWS_OP_PICK_NEXT, 0, 0, 0) });
	run_together(pp, tx);
	tx.clear();
	tx.push_back({ 0, false, HWS_REG_SYNC, 0 });
	tx.push_back({ 1, false, HWS_REG_SYNC, 0 });
	run_together(pp, tx);
	EXPECT_GT(tx[0].edges, 2u);
	EXPECT_EQ(tx[1].edges, 2u);
	// A CPU out of range on port 0: ERR in port 1's STATUS too, cleared by that read only.
	tx.clear();
	tx.push_back({ 0, true, HWS_REG_CMD, cmd(HWS_OP_PEEK, 0, 0, 3) });
	tx.push_back({ 0, false, HWS_REG_SYNC, 0 });
	run_together(pp, tx);
	tx.clear();
	tx.push_back({ 1, false, HWS_REG_STATUS, 0 });
	tx.push_back({ 1, false, HWS_REG_STATUS, 0 });
	tx.push_back({ 0, false, HWS_REG_STATUS, 0 });
	run_together(pp, tx);
	EXPECT_NE(tx[0].rdata & HWS_STATUS_ERR_MASK, 0u);
	EXPECT_EQ(tx[1].rdata & HWS_STATUS_ERR_MASK, 0u);
	// Port 0's SYNC above read ERR (the error was recorded before it latched) and cleared
	// it for port 0.
	EXPECT_EQ(tx[2].rdata & HWS_STATUS_ERR_MASK, 0u);
}

// Round robin: with every port's FIFO kept non-empty, the engine takes the ports in turn,
// so after the same number of NOPs was posted on each, the ports' backlogs never differ
// by more than one command while all are busy (docs/accelerator.md 4.5: a port with a
// startable command starts within NR_PORTS engine starts).
TEST(Ports, ArbiterTakesThePortsInTurn)
{
	PortPair pp(2, 16, 4, 4);
	std::vector<Txn> tx;

	ASSERT_TRUE(pp.ok());
	// PICK_NEXTs take 4 edges each: 4 per port posted quickly build a backlog.
	for (unsigned k = 0; k < 4; k++)
		for (unsigned i = 0; i < 4; i++)
			tx.push_back({ i, true, HWS_REG_CMD, cmd(HWS_OP_PICK_NEXT, 0, 0, 0) });
	run_together(pp, tx);
	// Read every port's STATUS at the same edges, a few times over.
	for (unsigned round = 0; round < 5; round++) {
		std::vector<Txn> st;
		unsigned lo = 99, hi = 0;

		for (unsigned i = 0; i < 4; i++)
			st.push_back({ i, false, HWS_REG_STATUS, 0 });
		run_together(pp, st);
		for (auto &t : st) {
			unsigned l = (t.rdata & HWS_STATUS_CMD_LEVEL_MASK) >> HWS_STATUS_CMD_LEVEL_LSB;
			lo = l < lo ? l : lo;
			hi = l > hi ? l : hi;
		}
		EXPECT_GT(hi, 0u) << "round " << round;
		EXPECT_LE(hi - lo, 1u) << "round " << round;
	}
}

// The interrupt's shared registers (docs/accelerator.md 4.6) written by several ports at
// the same edge: IRQ_EN0 and CURR[c] keep the highest-numbered port's word, the IRQ_PEND
// W1C masks are OR-ed; reads of them from any port. Model and RTL in lockstep, and the
// values against the rule.
TEST(Ports, IrqRegistersWrittenByEveryPortAtOneEdge)
{
	PortPair pp(2, 16, 4, 4);
	std::vector<Txn> tx;

	ASSERT_TRUE(pp.ok());
	for (unsigned i = 0; i < 4; i++)	// IRQ_EN0: 1, 2, 3 from ports 0..2, then 2 from port 3
		tx.push_back({ i, true, HWS_REG_IRQ_EN0, i == 3 ? 2u : i + 1 });
	run_together(pp, tx);
	for (unsigned i = 1; i < 4; i++)	// taken at the same edge
		EXPECT_EQ(tx[i].edges, tx[0].edges);
	tx.clear();
	for (unsigned i = 0; i < 4; i++)
		tx.push_back({ i, false, HWS_REG_IRQ_EN0, 0 });
	run_together(pp, tx);
	for (unsigned i = 0; i < 4; i++)
		EXPECT_EQ(tx[i].rdata, 2u) << "port " << i;

	// CURR[0] written by every port at one edge; then a task of priority 110 linked into
	// CPU 0's active array sets IRQ_PEND[0] only if the CURR kept is above 110. Ports
	// 0..3 write 150, 150, 150, 100 (port 3's 100 kept: no interrupt), then 100, 100, 100,
	// 150 (port 3's 150 kept: interrupt).
	for (unsigned round = 0; round < 2; round++) {
		const uint32_t last = round ? 150 : 100, others = round ? 100 : 150;

		tx.clear();
		for (unsigned i = 0; i < 4; i++)
			tx.push_back({ i, true, HWS_CURR_BASE, i == 3 ? last : others });
		run_together(pp, tx);
		for (unsigned i = 1; i < 4; i++)
			EXPECT_EQ(tx[i].edges, tx[0].edges);
		tx.clear();
		tx.push_back({ 1, true, HWS_REG_CMD, cmd(HWS_OP_ENQUEUE, 5 + round, 110, 0) });
		tx.push_back({ 1, false, HWS_REG_SYNC, 0 });
		tx.push_back({ 2, false, HWS_REG_IRQ_PEND0, 0 });
		run_together(pp, tx);
		tx.clear();
		tx.push_back({ 2, false, HWS_REG_IRQ_PEND0, 0 });
		run_together(pp, tx);
		EXPECT_EQ(tx[0].resp, 0u);
		EXPECT_EQ(tx[0].rdata & 1u, round ? 1u : 0u) << "round " << round;
	}

	// Both CPUs pending (CURR[1] is idle: any link preempts), then ports 0 and 2 clear one
	// bit each at the same edge: both cleared.
	tx.clear();
	tx.push_back({ 0, true, HWS_REG_CMD, cmd(HWS_OP_ENQUEUE, 9, 120, 1) });
	tx.push_back({ 0, false, HWS_REG_SYNC, 0 });
	run_together(pp, tx);
	tx.clear();
	tx.push_back({ 3, false, HWS_REG_IRQ_PEND0, 0 });
	run_together(pp, tx);
	EXPECT_EQ(tx[0].rdata, 3u);
	tx.clear();
	tx.push_back({ 0, true, HWS_REG_IRQ_PEND0, 1 });
	tx.push_back({ 2, true, HWS_REG_IRQ_PEND0, 2 });
	run_together(pp, tx);
	EXPECT_EQ(tx[0].edges, tx[1].edges);
	tx.clear();
	for (unsigned i = 0; i < 4; i++)
		tx.push_back({ i, false, HWS_REG_IRQ_PEND0, 0 });
	run_together(pp, tx);
	for (unsigned i = 0; i < 4; i++)
		EXPECT_EQ(tx[i].rdata, 0u) << "port " << i;
}

} // namespace

namespace {

// The driver's API for ports (hws_pins(), include/hws/hws.h): the lockstep backend opened
// with 2 ports, random traffic on both through the pins, every output compared by the
// backend; hws_nr_ports() says 2; the model alone answers the same pins.
TEST(Ports, TheDriverDrivesEveryPortThroughTheLockstepBackend)
{
	const uint64_t seed = hwstest::seed_from_env(24);
	hws_config c;
	hws_dev *d = nullptr;
	char msg[512];

	hws_config_default(&c);
	c.backend = "lockstep";
	c.nr_cpus = 2;
	c.nr_tasks = 16;
	c.cmd_depth = c.res_depth = 4;
	c.nr_ports = 2;
	ASSERT_EQ(hws_open(&d, &c, msg, sizeof(msg)), 0) << msg;
	ASSERT_EQ(hws_nr_ports(d), 2u);
	hws_params p{};
	p.nr_cpus = 2;
	p.nr_tasks = 16;
	p.cmd_depth = p.res_depth = 4;
	p.nr_groups = HWS_DEF_GROUPS;
	p.nr_ports = 2;
	std::vector<hws_port_master> pm(2);
	std::vector<Rng> rng{ Rng(seed * 8), Rng(seed * 8 + 1) };
	std::vector<hws_bus_gen> gen(2);
	hws_axil_in in[2];
	hws_axil_out out[2] = { { 1, 1, 0, 1, 0, 0, 0, 0 }, { 1, 1, 0, 1, 0, 0, 0, 0 } };
	uint64_t done = 0;

	for (unsigned i = 0; i < 2; i++) {
		hws_pm_init(&pm[i]);
		hws_bus_gen_init(&gen[i], seed + i);
	}
	for (unsigned e = 0; e < 100000; e++) {
		for (unsigned i = 0; i < 2; i++) {
			if (!hws_pm_busy(&pm[i]))
				random_transaction(rng[i], gen[i], p, &pm[i]);
			hws_pm_drive(&pm[i], &out[i], &in[i]);
		}
		ASSERT_EQ(hws_pins(d, in, out), 0) << hws_errmsg(d) << " (seed " << seed << ")";
		for (unsigned i = 0; i < 2; i++)
			done += hws_pm_after(&pm[i]);
	}
	EXPECT_GT(done, 10000u);
	hws_close(d);
}

// A bus without pins (a caller's transport) refuses hws_pins() by name.
TEST(Ports, PinsAreRefusedOnABusWithoutThem)
{
	hws_config c;
	hws_dev *d = nullptr;
	char msg[512];
	hws_axil_in in{};
	hws_axil_out out{};

	hws_config_default(&c);
	c.backend = "model";
	ASSERT_EQ(hws_open(&d, &c, msg, sizeof(msg)), 0) << msg;
	EXPECT_EQ(hws_nr_ports(d), 1u);
	in.bready = in.rready = 1;
	EXPECT_EQ(hws_pins(d, &in, &out), 0);	// the model has them
	hws_close(d);

	// uart-like: the model's transport with its pins taken away
	hws_transport t{};
	char m2[256];
	hws_backend_args a{};
	hws_params_default(&a.params);
	ASSERT_EQ(hws_transport_open("model", &a, &t, m2, sizeof(m2)), 0) << m2;
	hws_transport_ops ops = *t.ops;
	ops.pins = nullptr;
	ops.destroy = nullptr;
	const hws_transport_ops *orig = t.ops;
	t.ops = &ops;
	c.transport = &t;
	ASSERT_EQ(hws_open(&d, &c, msg, sizeof(msg)), 0) << msg;
	EXPECT_EQ(hws_pins(d, &in, &out), -ENOTSUP);
	EXPECT_NE(std::string(hws_errmsg(d)).find("no pins"), std::string::npos) << hws_errmsg(d);
	hws_close(d);
	t.ops = orig;
	hws_transport_close(&t);
}

} // namespace
