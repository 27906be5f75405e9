// irq_test.cc - the preemption interrupt (docs/accelerator.md 4.6): CURR, IRQ_PEND, IRQ_EN,
// on every backend.
//
// Expected values come from a reference kept by the test itself: each task's CPU, logical
// array and priority, each CPU's CURR, and the rule of 4.6 (a link into an active array
// with a priority below CURR sets the CPU's bit; a PICK_NEXT that did not fail sets CURR
// to what it picked and clears the bit). The engine's picks come from the engine; which
// task it picks is tested elsewhere (window_test, engine_test), the bits are judged here.
#include <gtest/gtest.h>

#include <cinttypes>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "tests/test_util.h"

using hwstest::reg;

namespace {

uint64_t bit(unsigned c)
{
	return uint64_t{ 1 } << c;
}

class Irq : public ::testing::TestWithParam<const char *> {
protected:
	// 8 x 256 is the default shape: the one make coverage measures.
	void open(unsigned cpus = 8, unsigned tasks = 256)
	{
		d_.reset(hwstest::open_dev(GetParam(), cpus, tasks));
		ASSERT_NE(d_, nullptr);
		d = d_.get();
	}

	uint64_t pending()
	{
		uint64_t p = ~uint64_t{ 0 };
		EXPECT_EQ(hws_irq_pending(d, &p), 0) << hws_errmsg(d);
		return p;
	}

	uint64_t edges()
	{
		hws_bus_stats s;
		hws_get_bus_stats(d, &s);
		return s.edges;
	}

	std::unique_ptr<hws_dev, hwstest::DevCloser> d_;
	hws_dev *d = nullptr;
};

// The test's reference (docs/accelerator.md 4.6), independent of the model.
struct Ref {
	struct Task {
		bool queued = false;
		unsigned cpu = 0, prio = 0;
		int logical = 0;	// 0 active, 1 expired
	};
	std::vector<Task> t;
	std::vector<unsigned> curr;
	uint64_t pend = 0;

	Ref(unsigned cpus, unsigned tasks) : t(tasks), curr(cpus, HWS_CURR_IDLE) {}

	void link(unsigned task, unsigned cpu, unsigned prio, int logical)
	{
		t[task] = { true, cpu, prio, logical };
		if (logical == 0 && prio < curr[cpu])
			pend |= bit(cpu);
	}
	// PICK_NEXT(cpu) answered @p: a swap turns the expired tasks active first.
	void pick(unsigned cpu, const hws_pick &p)
	{
		if (p.swapped)
			for (auto &x : t)
				if (x.queued && x.cpu == cpu)
					x.logical ^= 1;
		if (p.found)
			t[p.task].queued = false;
		curr[cpu] = p.found ? p.prio : HWS_CURR_IDLE;
		pend &= ~bit(cpu);
	}
};

// After a reset: nothing pending, nothing enabled, every CURR idle (any arrival preempts).
TEST_P(Irq, ResetStateAndAnyArrivalPreemptsAnIdleCpu)
{
	open();
	EXPECT_EQ(reg(d, HWS_REG_IRQ_PEND0), 0u);
	EXPECT_EQ(reg(d, HWS_REG_IRQ_PEND1), 0u);
	EXPECT_EQ(reg(d, HWS_REG_IRQ_EN0), 0u);
	EXPECT_EQ(reg(d, HWS_REG_IRQ_EN1), 0u);
	// The lowest priority there is still preempts an idle CPU; the expired array never does.
	ASSERT_EQ(hws_enqueue(d, 1, 3, HWS_NR_PRIO - 1, 1, 0), 0);
	EXPECT_EQ(pending(), 0u) << "a link into the expired array";
	ASSERT_EQ(hws_enqueue(d, 2, 3, HWS_NR_PRIO - 1, 0, 0), 0);
	EXPECT_EQ(pending(), bit(3));
}

// Planted cases, each judged by the reference: arrivals above, equal to and below CURR,
// a pick that sets CURR and clears the bit, MIGRATE's destination, SET_PRIO, REQUEUE, the
// expired array, failing commands, W1C and the enable mask.
TEST_P(Irq, PlantedPreemptionsSetExactlyTheReferenceBits)
{
	open();
	const hws_config *c = hws_config_of(d);
	Ref r(c->nr_cpus, c->nr_tasks);
	hws_pick p{};

	auto check = [&](const char *what) { EXPECT_EQ(pending(), r.pend) << what; };
	auto enq = [&](unsigned t, unsigned cpu, unsigned prio, int arr) {
		ASSERT_EQ(hws_enqueue(d, t, cpu, prio, (unsigned)arr, 0), 0) << hws_errmsg(d);
		r.link(t, cpu, prio, arr);
	};
	auto pop = [&](unsigned cpu) {
		ASSERT_EQ(hws_pop(d, cpu, &p, nullptr), 0) << hws_errmsg(d);
		r.pick(cpu, p);
	};
	auto ack = [&](uint64_t m) {
		ASSERT_EQ(hws_irq_ack(d, m), 0);
		r.pend &= ~m;
	};
	auto curr = [&](unsigned cpu, unsigned prio) {
		ASSERT_EQ(hws_set_curr(d, cpu, prio), 0) << hws_errmsg(d);
		r.curr[cpu] = prio;
	};

	// CPU 0 runs a prio-120 task: 130 and 120 do not preempt it, 119 does.
	curr(0, 120);
	enq(10, 0, 130, 0);
	enq(11, 0, 120, 0);
	check("arrivals at and below the running priority");
	enq(12, 0, 119, 0);
	check("an arrival above the running priority");
	// The pick takes 12 (119): CURR[0] = 119, the bit clears; then 118 preempts, 125 not.
	pop(0);
	EXPECT_EQ(p.task, 12u);
	check("the pick clears its CPU's bit");
	enq(13, 0, 125, 0);
	check("below the picked priority");
	enq(14, 0, 118, 0);
	check("above the picked priority");
	ack(bit(0));
	check("W1C");

	// MIGRATE sets the destination's bit (the task's priority against its CURR), SET_PRIO
	// and REQUEUE link again on their own CPU.
	curr(5, 100);
	curr(6, 139);
	ASSERT_EQ(hws_migrate(d, 10, 5), 0);
	r.link(10, 5, r.t[10].prio, r.t[10].logical);
	check("MIGRATE of a 130 to a CPU running 100");
	ASSERT_EQ(hws_migrate(d, 10, 6), 0);
	r.link(10, 6, r.t[10].prio, r.t[10].logical);
	check("MIGRATE of a 130 to a CPU running 139");
	ack(bit(6));
	ASSERT_EQ(hws_set_prio(d, 10, 99), 0);
	r.link(10, 6, 99, r.t[10].logical);
	ASSERT_EQ(hws_set_prio(d, 13, 140 - 1), 0);
	r.link(13, 0, 139, r.t[13].logical);
	check("SET_PRIO");
	ack(r.pend);
	ASSERT_EQ(hws_requeue(d, 10), 0);
	r.link(10, 6, 99, r.t[10].logical);
	check("REQUEUE of a task that still preempts");

	// The expired array: no bit, not even below an idle CURR; moving an expired task keeps
	// it expired.
	ack(r.pend);
	enq(20, 7, 0, 1);
	ASSERT_EQ(hws_migrate(d, 20, 4), 0);
	r.link(20, 4, 0, 1);
	check("the expired array");

	// Failing commands set nothing: ENQUEUE of a queued task, PRIO out of range, a MIGRATE
	// of a task not queued, a POP of a CPU that does not exist.
	curr(2, 139);
	EXPECT_EQ(hws_enqueue(d, 14, 2, 0, 0, 0), -EEXIST);
	EXPECT_EQ(hws_enqueue(d, 30, 2, HWS_NR_PRIO, 0, 0), -ERANGE);
	EXPECT_EQ(hws_migrate(d, 31, 2), -ENOENT);
	check("failed commands");
	ASSERT_EQ(hws_enqueue(d, 32, 1, 50, 0, 0), 0);
	r.link(32, 1, 50, 0);
	EXPECT_EQ(hws_pop(d, c->nr_cpus, &p, nullptr), -ERANGE);
	check("a POP of a CPU that does not exist clears nothing");

	// PEEK changes nothing; PICK_NEXT by CMD (not the window) acts as a POP read does.
	ASSERT_EQ(hws_peek(d, 1, &p), 0);
	check("PEEK");
	ASSERT_EQ(hws_pick_next(d, 1, &p), 0);
	r.pick(1, p);
	check("PICK_NEXT by CMD");
	// An empty pick leaves the CPU idle: any arrival preempts again.
	ASSERT_EQ(hws_pick_next(d, 1, &p), 0);
	ASSERT_FALSE(p.found);
	r.pick(1, p);
	enq(33, 1, HWS_NR_PRIO - 1, 0);
	check("after an empty pick");

	// The enable mask: stored for the CPUs that exist, no effect on IRQ_PEND.
	ASSERT_EQ(hws_irq_enable(d, ~uint64_t{ 0 }), 0);
	EXPECT_EQ(reg(d, HWS_REG_IRQ_EN0), (uint32_t)(bit(c->nr_cpus) - 1));
	EXPECT_EQ(reg(d, HWS_REG_IRQ_EN1), 0u);
	check("enable");
	ASSERT_EQ(hws_reg_write(d, HWS_REG_IRQ_PEND0, 0), 0);
	check("a W1C write of zeros");
	EXPECT_EQ(reg(d, HWS_REG_ERR_TOTAL), 3u + 1u) << "the four failures above, nothing else";
}

// The edge: a link sets the bit at its command's completion edge. A write taken at edge
// 0 (the reference master) is popped at edge 1 and completes at 1 + L; a read latches at
// its first edge from the state before it, so it sees the bit only from edge 2 + L on.
TEST_P(Irq, TheBitRisesAtTheCompletionEdge)
{
	open();
	const unsigned lat = 2;	// ENQUEUE's latency (regmap.md)
	for (unsigned k = 0; k < 4; k++) {
		ASSERT_EQ(hws_post(d, hws_cmd(HWS_OP_ENQUEUE, k, 120, k, 0, 0)), 0);
		// the write took 2 edges (0 and 1); idle k, then the read's AR edge is 2 + k
		ASSERT_EQ(hws_idle(d, k), 0);
		const uint64_t want = 2 + k > 1 + lat ? bit(k) : 0;
		EXPECT_EQ(pending() & bit(k), want) << "read at edge " << 2 + k;
	}
}

// CURR writes: a posted write at its own edge; CPUs that do not exist and reads are ADDR
// errors; bits 31:8 are ignored.
TEST_P(Irq, CurrWindowDecode)
{
	open();
	const hws_config *c = hws_config_of(d);
	uint32_t v = 0;
	EXPECT_EQ(hws_reg_write(d, HWS_CURR_BASE + 4 * c->nr_cpus, 1), -EFAULT);
	EXPECT_EQ(reg(d, HWS_REG_ERR_LAST), (uint32_t)HWS_ERR_ADDR);
	EXPECT_EQ(reg(d, HWS_REG_ERR_CMD), HWS_CURR_BASE + 4 * c->nr_cpus);
	EXPECT_EQ(hws_reg_read(d, HWS_CURR_BASE, &v), -EFAULT) << "CURR is write-only";
	EXPECT_EQ(hws_reg_write(d, HWS_CURR_BASE + 2, 1), -EFAULT) << "misaligned";
	EXPECT_EQ(hws_set_curr(d, c->nr_cpus, 1), -ERANGE);
	EXPECT_EQ(reg(d, HWS_REG_ERR_TOTAL), 3u) << "three ADDR errors; -ERANGE is the driver's";
	ASSERT_EQ(hws_reg_write(d, HWS_REG_CTRL, HWS_CTRL_ERR_CLEAR_MASK), 0);
	// bits 31:8 ignored: 0xffffff00 | 110 is CURR 110
	ASSERT_EQ(hws_reg_write(d, HWS_CURR_BASE + 4 * 2, 0xffffff00u | 110u), 0);
	ASSERT_EQ(hws_enqueue(d, 1, 2, 110, 0, 0), 0);
	EXPECT_EQ(pending(), 0u);
	ASSERT_EQ(hws_enqueue(d, 2, 2, 109, 0, 0), 0);
	EXPECT_EQ(pending(), bit(2));
	// A soft reset: the bit clears and CURR is idle again.
	ASSERT_EQ(hws_irq_enable(d, bit(2)), 0);
	ASSERT_EQ(hws_soft_reset(d), 0);
	EXPECT_EQ(pending(), 0u);
	EXPECT_EQ(reg(d, HWS_REG_IRQ_EN0), 0u);
	ASSERT_EQ(hws_enqueue(d, 1, 2, HWS_NR_PRIO - 1, 0, 0), 0);
	EXPECT_EQ(pending(), bit(2));
}

// 64 CPUs: CPUs 32..63 in IRQ_PEND1 and IRQ_EN1.
TEST_P(Irq, SixtyFourCpusUseTheSecondWord)
{
	open(64, 256);
	ASSERT_EQ(hws_set_curr(d, 40, 120), 0);
	ASSERT_EQ(hws_enqueue(d, 1, 40, 100, 0, 0), 0);
	ASSERT_EQ(hws_enqueue(d, 2, 63, 100, 0, 0), 0);
	ASSERT_EQ(hws_enqueue(d, 3, 31, 100, 0, 0), 0);
	EXPECT_EQ(reg(d, HWS_REG_IRQ_PEND1), (uint32_t)((bit(40) | bit(63)) >> 32));
	EXPECT_EQ(pending(), bit(31) | bit(40) | bit(63));
	ASSERT_EQ(hws_irq_enable(d, bit(63) | bit(0)), 0);
	EXPECT_EQ(reg(d, HWS_REG_IRQ_EN1), 1u << 31);
	EXPECT_EQ(reg(d, HWS_REG_IRQ_EN0), 1u);
	ASSERT_EQ(hws_irq_ack(d, bit(63)), 0);
	EXPECT_EQ(pending(), bit(31) | bit(40));
}

// Random traffic judged by the reference after every step: ENQUEUE (either array),
// DEQUEUE, MIGRATE, SET_PRIO, REQUEUE, POP and PICK_NEXT, CURR writes, acks. Seeded; the
// seed is printed on failure.
TEST_P(Irq, RandomTrafficMatchesTheReference)
{
	// The traffic uses CPUs 0-3 and tasks 0-23 of the default shape (bits of 4-7 must stay 0).
	const unsigned cpus = 4, tasks = 24;
	open();
	const uint64_t seed = 0x1234 + (std::string(GetParam()) == "model" ? 0 : 1);
	SCOPED_TRACE("seed " + std::to_string(seed));
	std::mt19937_64 rng(seed);
	Ref r(cpus, tasks);
	hws_pick p{};
	auto rnd = [&](unsigned n) { return (unsigned)(rng() % n); };
	unsigned sets = 0;

	for (int i = 0; i < 600 && !HasFailure(); i++) {
		unsigned t = rnd(tasks), cpu = rnd(cpus), prio = 95 + rnd(45);
		uint64_t before = r.pend;
		switch (rnd(9)) {
		case 0:
		case 1:
			if (r.t[t].queued)
				continue;
			{
				const int arr = rnd(4) == 0;	// the expired array a quarter of the time
				ASSERT_EQ(hws_enqueue(d, t, cpu, prio, (unsigned)arr, 0), 0);
				r.link(t, cpu, prio, arr);
			}
			break;
		case 2:
			if (!r.t[t].queued)
				continue;
			ASSERT_EQ(hws_dequeue(d, t), 0);
			r.t[t].queued = false;
			break;
		case 3:
			if (!r.t[t].queued)
				continue;
			ASSERT_EQ(hws_migrate(d, t, cpu), 0);
			r.link(t, cpu, r.t[t].prio, r.t[t].logical);
			break;
		case 4:
			if (!r.t[t].queued)
				continue;
			ASSERT_EQ(hws_set_prio(d, t, prio), 0);
			r.link(t, r.t[t].cpu, prio, r.t[t].logical);
			break;
		case 5:
			if (!r.t[t].queued)
				continue;
			ASSERT_EQ(hws_requeue(d, t), 0);
			r.link(t, r.t[t].cpu, r.t[t].prio, r.t[t].logical);
			break;
		case 6:
			ASSERT_EQ(rnd(2) ? hws_pop(d, cpu, &p, nullptr) : hws_pick_next(d, cpu, &p), 0);
			r.pick(cpu, p);
			break;
		case 7: {
			unsigned v = rnd(3) ? prio : HWS_CURR_IDLE;
			ASSERT_EQ(hws_set_curr(d, cpu, v), 0);
			r.curr[cpu] = v;
			break;
		}
		default: {
			uint64_t m = rng() & (bit(cpus) - 1);
			ASSERT_EQ(hws_irq_ack(d, m), 0);
			r.pend &= ~m;
			break;
		}
		}
		sets += (r.pend & ~before) != 0;
		ASSERT_EQ(pending(), r.pend) << "step " << i;
	}
	EXPECT_GT(sets, 30u) << "the traffic set bits often enough to test them";
	EXPECT_EQ(reg(d, HWS_REG_ERR_TOTAL), 0u);
}

INSTANTIATE_TEST_SUITE_P(Backends, Irq, ::testing::Values("model", "rtl", "lockstep"),
			 [](const ::testing::TestParamInfo<const char *> &i) {
				 return std::string(i.param);
			 });

// The build without the interrupt (IRQ=0), at the reference HX8K shape 8x256x16g16nbneni
// (no BALANCE, no per-code counters, no interrupt). The same accesses go to an engine with
// the interrupt (the model at 8x256x16g16nbne) as the control: there they set bits and
// take effect, here they are answered the same, change nothing and read 0.
class IrqNotBuilt : public ::testing::TestWithParam<const char *> {
protected:
	void SetUp() override
	{
		d_.reset(hwstest::open_dev(GetParam(), 8, 256, 16, 1, nullptr, true, true, true));
		ASSERT_NE(d_, nullptr);
		d = d_.get();
		ref_.reset(hwstest::open_dev("model", 8, 256, 16, 1, nullptr, true, true, false));
		ASSERT_NE(ref_, nullptr);
		ref = ref_.get();
	}

	uint64_t edges(hws_dev *x)
	{
		hws_bus_stats st;
		hws_get_bus_stats(x, &st);
		return st.edges;
	}

	std::unique_ptr<hws_dev, hwstest::DevCloser> d_, ref_;
	hws_dev *d = nullptr, *ref = nullptr;
};

// FEATURES.IRQ tells the builds apart (hws_open() checked it against hws_config.no_irq).
TEST_P(IrqNotBuilt, FeaturesSaysSo)
{
	EXPECT_EQ(reg(d, HWS_REG_FEATURES) & HWS_FEATURES_IRQ_MASK, 0u);
	EXPECT_EQ(reg(d, HWS_REG_FEATURES), 0u) << "nothing optional in the HX8K build";
	EXPECT_EQ(reg(ref, HWS_REG_FEATURES), HWS_FEATURES_IRQ_MASK);
}

// The driver's interrupt functions refuse with -EOPNOTSUPP and send nothing.
TEST_P(IrqNotBuilt, DriverFunctionsAreRefusedAndSendNothing)
{
	const uint64_t e0 = edges(d);
	uint64_t p = 0x1234;

	EXPECT_EQ(hws_irq_pending(d, &p), -EOPNOTSUPP);
	EXPECT_EQ(p, 0x1234u) << "left as it was";
	std::string msg = hws_errmsg(d);
	EXPECT_NE(msg.find("hws_irq_pending"), std::string::npos) << msg;
	EXPECT_NE(msg.find("FEATURES.IRQ = 0"), std::string::npos) << msg;
	EXPECT_EQ(hws_irq_ack(d, 0xff), -EOPNOTSUPP);
	EXPECT_EQ(hws_irq_enable(d, 0xff), -EOPNOTSUPP);
	EXPECT_EQ(hws_set_curr(d, 0, 100), -EOPNOTSUPP);
	EXPECT_EQ(hws_set_curr(d, 99, 100), -EOPNOTSUPP) << "refused before the range check";
	EXPECT_EQ(edges(d), e0) << "no bus transaction";
	// the control: the same calls work on the build with the interrupt
	EXPECT_EQ(hws_irq_enable(ref, 0xff), 0) << hws_errmsg(ref);
	EXPECT_EQ(hws_set_curr(ref, 0, 100), 0) << hws_errmsg(ref);
	EXPECT_EQ(hws_irq_pending(ref, &p), 0) << hws_errmsg(ref);
	EXPECT_EQ(hws_irq_ack(ref, 0xff), 0) << hws_errmsg(ref);
}

// The registers: writes answered OKAY (CURR[c] for c < NR_CPUS, IRQ_PEND0/1, IRQ_EN0/1)
// and ignored, reads 0, while the control engine, given the same accesses, sets bits; the
// accesses that are errors (CURR[NR_CPUS], a CURR read, a misaligned CURR write) are the
// same errors in both, and the error registers agree.
TEST_P(IrqNotBuilt, RegistersReadZeroWritesAreAcceptedAndIgnored)
{
	const hws_config *c = hws_config_of(d);
	const uint32_t regs[] = { HWS_REG_IRQ_PEND0, HWS_REG_IRQ_PEND1, HWS_REG_IRQ_EN0,
				  HWS_REG_IRQ_EN1 };
	for (hws_dev *x : { d, ref }) {
		SCOPED_TRACE(x == d ? "IRQ=0" : "IRQ=1 (control)");
		for (uint32_t r : regs)
			EXPECT_EQ(reg(x, r), 0u) << "after reset";
		EXPECT_EQ(hws_reg_write(x, HWS_REG_IRQ_EN0, 0xffffffffu), 0);
		EXPECT_EQ(hws_reg_write(x, HWS_REG_IRQ_EN1, 0xffffffffu), 0);
		for (unsigned cpu = 0; cpu < c->nr_cpus; cpu++)
			EXPECT_EQ(hws_reg_write(x, HWS_CURR_BASE + 4 * cpu, 120), 0) << cpu;
		// below CURR in CPU 3's active array: a preemption where the interrupt is built
		ASSERT_EQ(hws_enqueue(x, 1, 3, 100, 0, 0), 0) << hws_errmsg(x);
		ASSERT_EQ(hws_enqueue(x, 2, 5, 130, 0, 0), 0) << hws_errmsg(x);
		EXPECT_EQ(hws_reg_write(x, HWS_REG_IRQ_PEND1, 0xffffffffu), 0);
		EXPECT_EQ(reg(x, HWS_REG_ERR_TOTAL), 0u) << "every write above was OKAY";
		EXPECT_EQ(reg(x, HWS_REG_STATUS) & HWS_STATUS_ERR_MASK, 0u);
		// the errors: the same in both builds
		uint32_t v = 0;
		EXPECT_EQ(hws_reg_write(x, HWS_CURR_BASE + 4 * c->nr_cpus, 1), -EFAULT);
		EXPECT_EQ(hws_reg_read(x, HWS_CURR_BASE, &v), -EFAULT) << "CURR is write-only";
		EXPECT_EQ(hws_reg_write(x, HWS_CURR_BASE + 2, 1), -EFAULT) << "misaligned";
		EXPECT_EQ(hws_reg_write(x, HWS_REG_IRQ_EN0 + 1, 1), -EFAULT) << "misaligned";
	}
	EXPECT_EQ(reg(d, HWS_REG_IRQ_PEND0), 0u);
	EXPECT_EQ(reg(d, HWS_REG_IRQ_PEND1), 0u);
	EXPECT_EQ(reg(d, HWS_REG_IRQ_EN0), 0u);
	EXPECT_EQ(reg(d, HWS_REG_IRQ_EN1), 0u);
	EXPECT_EQ(reg(ref, HWS_REG_IRQ_PEND0), bit(3)) << "the control preempted CPU 3";
	EXPECT_EQ(reg(ref, HWS_REG_IRQ_EN0), 0xffu) << "the control stored its CPUs' bits";
	for (uint32_t r : { HWS_REG_ERR_TOTAL, HWS_REG_ERR_LAST, HWS_REG_ERR_CMD, HWS_REG_ERR_SEQ,
			    HWS_REG_CMD_DONE })
		EXPECT_EQ(reg(d, r), reg(ref, r)) << hws_reg_name(r);
	EXPECT_EQ(reg(d, HWS_REG_ERR_TOTAL), 4u);
	EXPECT_EQ(reg(d, HWS_REG_ERR_LAST), (uint32_t)HWS_ERR_ADDR);
	// a pick: no CURR to set, nothing to clear; the pick itself is the same
	hws_pick pd{}, pr{};
	ASSERT_EQ(hws_pop(d, 3, &pd, nullptr), 0) << hws_errmsg(d);
	ASSERT_EQ(hws_pop(ref, 3, &pr, nullptr), 0) << hws_errmsg(ref);
	EXPECT_TRUE(pd.found);
	EXPECT_EQ(pd.task, pr.task);
	EXPECT_EQ(reg(ref, HWS_REG_IRQ_PEND0), 0u) << "the control's pick cleared it";
	for (uint32_t r : regs)
		EXPECT_EQ(reg(d, r), 0u) << hws_reg_name(r);
}

INSTANTIATE_TEST_SUITE_P(Backends, IrqNotBuilt, ::testing::Values("model", "rtl", "lockstep"),
			 [](const ::testing::TestParamInfo<const char *> &i) {
				 return std::string(i.param);
			 });

} // namespace
