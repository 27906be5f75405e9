// rq_compare_test.cc - the two O(1) run queues the firmware runs on, compared: the plain C
// queues of firmware/fw_rq_sw.c (scheduler o1) and the engine through the driver
// (firmware/fw_rq_hw.c, scheduler hw, on the model backend). Both implement fw_rq.h with
// the engine's semantics; the same random operations, legal and illegal, must give the
// same answers: errors, picks, loads, histories, group totals and the balancing queries.
//
// The engine's queues run in both bus protocols (docs/firmware.md, "Bus protocol"): with
// sync_cmds every command returns its own outcome and is compared at once; posted (the
// default), a mutating command the software refuses is not sent to the engine (its error
// would come back later), and the window reads and queries are compared as before.
//
// Seeds: HWS_SEED overrides the default; a failure names the seed and the operation.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>

#include "firmware/fw_rq.h"

namespace {

// A machine that only keeps the time still; the queues charge, nobody counts.
struct Env {
	sched_topo topo{};
	sched_env env{};
	uint32_t shares[SCHED_MAX_GROUPS];

	Env(unsigned smt, unsigned cores, unsigned pkgs, unsigned nr_tasks)
	{
		topo.nr_cpus = smt * cores * pkgs;
		topo.smt = smt;
		topo.cores = cores;
		topo.pkgs = pkgs;
		topo.nodes = 1;
		for (unsigned x = 0; x < topo.nr_cpus; x++) {
			topo.lead[0][x] = uint8_t(x - x % smt);
			topo.lead[1][x] = uint8_t(x - x % (smt * cores));
			topo.lead[2][x] = 0;
		}
		for (uint32_t &s : shares)
			s = 1024;
		env.machine = this;
		env.topo = &topo;
		env.nr_tasks = nr_tasks;
		env.nr_groups = SCHED_MAX_GROUPS;	// what the engine holds
		env.group_shares = shares;
		env.now = [](void *) -> uint64_t { return 0; };
		env.charge = [](void *, unsigned, double, int) {};
	}
};

struct Queue {
	const fw_rq_ops *ops;
	fw_rq *q = nullptr;
	char msg[256] = "";

	Queue(const fw_rq_ops *o, const sched_env *env, bool sync_cmds = true) : ops(o)
	{
		sched_opts so;

		sched_opts_default(&so);	// engine: the model backend
		so.engine.sync_cmds = sync_cmds;
		q = ops->create(env, &so, msg, sizeof(msg));
	}
	~Queue()
	{
		if (q)
			ops->destroy(q);
	}
	Queue(const Queue &) = delete;
	Queue &operator=(const Queue &) = delete;
};

// What the balance op of fw_rq.h promises on both queues in either protocol: the loads
// only for the verdicts whose loads the policy reads (fw_balance_needs_loads), and no
// imbalance (the caller compares the rest where the protocol promises it).
std::string balance_str(const hws_balance &b)
{
	std::string s = "verdict " + std::to_string(b.verdict) + " busiest " +
			std::to_string(b.busiest_group) + "/" + std::to_string(b.busiest_cpu) +
			" this " + std::to_string(b.this_group);
	if (fw_balance_needs_loads(b.verdict))
		s += " loads " + std::to_string(b.this_load) + "/" + std::to_string(b.max_load) +
		     "/" + std::to_string(b.avg_load);
	return s;
}

// @n random operations on both queues; the first difference fails the test.
void compare(unsigned smt, unsigned cores, unsigned pkgs, uint64_t seed, unsigned n,
	     bool posted = false)
{
	const unsigned nr_tasks = 48;
	Env e(smt, cores, pkgs, nr_tasks);
	Queue sw(&fw_rq_sw_ops, &e.env), hw(&fw_rq_hw_ops, &e.env, !posted);
	ASSERT_NE(sw.q, nullptr) << sw.msg;
	ASSERT_NE(hw.q, nullptr) << hw.msg;
	const unsigned cpus = e.topo.nr_cpus;
	std::mt19937_64 rng(seed);
	auto rnd = [&](unsigned k) { return unsigned(rng() % k); };
	// Mostly legal arguments, sometimes one out of range (both must refuse it alike).
	auto task = [&] { return rnd(50) ? rnd(nr_tasks) : 3000 + rnd(4); };
	auto cpu = [&] { return rnd(50) ? rnd(cpus) : cpus + rnd(3); };
	// Few priorities mostly, so that lists hold several tasks and their order matters.
	auto prio = [&] {
		static const unsigned common[4] = { 5, 100, 120, 139 };
		unsigned r = rnd(100);
		return r < 70 ? common[r % 4] : r < 98 ? rnd(HWS_NR_PRIO) : HWS_NR_PRIO + rnd(50);
	};
	unsigned picked = 0, moved = 0, balanced = 0, needs_loads = 0;

	for (unsigned i = 0; i < n && !::testing::Test::HasFailure(); i++) {
		const unsigned op = rnd(16), on = rnd(cpus);
		std::string what = "seed " + std::to_string(seed) + ", operation " +
				   std::to_string(i) + " (kind " + std::to_string(op) + ")";
		int a = 0, b = 0;

		switch (op) {
		case 0:
		case 1:
		case 2: {
			unsigned t = task(), c = cpu(), p = prio();
			int x = rnd(2), h = rnd(4) == 0;
			a = sw.ops->enqueue(sw.q, on, t, c, p, x, h);
			b = posted && a ? a : hw.ops->enqueue(hw.q, on, t, c, p, x, h);
			break;
		}
		case 3: {
			unsigned t = task();
			a = sw.ops->dequeue(sw.q, on, t);
			b = posted && a ? a : hw.ops->dequeue(hw.q, on, t);
			break;
		}
		case 4: {
			unsigned t = task();
			a = sw.ops->requeue(sw.q, on, t);
			b = posted && a ? a : hw.ops->requeue(hw.q, on, t);
			break;
		}
		case 5:
		case 6: {
			unsigned c = cpu(), ta = 0, tb = 0;
			int sa = 0, sb = 0, take = op == 5;
			a = take ? sw.ops->pick(sw.q, on, c, &ta, &sa) : sw.ops->peek(sw.q, on, c, &ta, &sa);
			b = take ? hw.ops->pick(hw.q, on, c, &tb, &sb) : hw.ops->peek(hw.q, on, c, &tb, &sb);
			if (a == 1 && b == 1) {
				EXPECT_EQ(ta, tb) << what;
				EXPECT_EQ(sa, sb) << what;
				picked++;
			}
			break;
		}
		case 7: {
			unsigned t = task(), c = cpu();
			a = sw.ops->migrate(sw.q, on, t, c);
			b = posted && a ? a : hw.ops->migrate(hw.q, on, t, c);
			moved += a == 0;
			break;
		}
		case 8: {
			unsigned t = task(), g = rnd(40) ? rnd(SCHED_MAX_GROUPS) : SCHED_MAX_GROUPS;
			a = sw.ops->set_group(sw.q, on, t, g);
			b = posted && a ? a : hw.ops->set_group(hw.q, on, t, g);
			break;
		}
		case 9: {
			unsigned t = task(), p = prio();
			a = sw.ops->set_weight(sw.q, on, t, p);
			b = posted && a ? a : hw.ops->set_weight(hw.q, on, t, p);
			break;
		}
		case 10: {
			unsigned c = cpu();
			int idle = rnd(2);
			a = sw.ops->set_idle(sw.q, on, c, idle);
			b = posted && a ? a : hw.ops->set_idle(hw.q, on, c, idle);
			break;
		}
		case 11: {
			unsigned c = cpu();
			a = sw.ops->load_tick(sw.q, on, c);
			b = posted && a ? a : hw.ops->load_tick(hw.q, on, c);
			break;
		}
		case 12: {
			unsigned c = cpu();
			uint32_t la[3] = { 0, 0, 0 }, lb[3] = { 0, 0, 0 };
			a = sw.ops->loads(sw.q, on, c, &la[0], &la[1], &la[2]);
			b = hw.ops->loads(hw.q, on, c, &lb[0], &lb[1], &lb[2]);
			for (int k = 0; !a && !b && k < 3; k++)
				EXPECT_EQ(la[k], lb[k]) << what << ": load " << k;
			break;
		}
		case 13: {
			unsigned g = rnd(40) ? rnd(SCHED_MAX_GROUPS) : SCHED_MAX_GROUPS;
			uint32_t wa = 0, wb = 0;
			a = sw.ops->group_total(sw.q, on, g, &wa);
			b = hw.ops->group_total(hw.q, on, g, &wb);
			if (!a && !b) {
				EXPECT_EQ(wa, wb) << what << ": group " << g;
			}
			break;
		}
		case 14: {
			unsigned l = rnd(HWS_NR_LEVELS);
			auto idle = (enum hws_idle_type)rnd(3);
			hws_balance ba{}, bb{};
			a = sw.ops->balance(sw.q, on, l, idle, &ba);
			b = hw.ops->balance(hw.q, on, l, idle, &bb);
			if (!a && !b) {
				EXPECT_EQ(balance_str(ba), balance_str(bb)) << what << ": level " << l;
				// Posted, the engine's queue reads no BAL_* register it does not
				// need; synchronous, all four (the answer is the software's whole).
				if (!posted) {
					EXPECT_EQ(ba.this_load, bb.this_load) << what;
					EXPECT_EQ(ba.max_load, bb.max_load) << what;
					EXPECT_EQ(ba.avg_load, bb.avg_load) << what;
					EXPECT_EQ(ba.imbalance, bb.imbalance) << what;
				} else if (!fw_balance_needs_loads(bb.verdict)) {
					EXPECT_EQ(bb.this_load + bb.max_load + bb.avg_load, 0u)
						<< what << ": level " << l;
				}
				if (posted) {
					EXPECT_EQ(bb.imbalance, 0u) << what << ": level " << l;
				}
				needs_loads += fw_balance_needs_loads(bb.verdict);
				balanced++;
			}
			break;
		}
		default: {
			unsigned l = rnd(HWS_NR_LEVELS), fa = 0, fb = 0;
			int ia = 0, ib = 0;
			a = sw.ops->idlest(sw.q, on, l, &fa);
			b = hw.ops->idlest(hw.q, on, l, &fb);
			if (!a && !b) {
				EXPECT_EQ(fa, fb) << what << ": IDLEST level " << l;
			}
			EXPECT_EQ(a, b) << what << ": IDLEST";
			a = sw.ops->idle_core(sw.q, on, l, &ia);
			b = hw.ops->idle_core(hw.q, on, l, &ib);
			if (!a && !b) {
				EXPECT_EQ(ia, ib) << what << ": IDLE_CORE level " << l;
			}
			break;
		}
		}
		EXPECT_EQ(a, b) << what << ": software " << a << ", engine " << b;
	}
	// The stream did what it is for: queues filled, picks and balances answered.
	EXPECT_GT(picked, n / 40) << "seed " << seed;
	EXPECT_GT(moved, n / 200) << "seed " << seed;
	EXPECT_GT(balanced, n / 40) << "seed " << seed;
	EXPECT_GT(needs_loads, 0u) << "seed " << seed << ": no answer whose loads were compared";
}

uint64_t seed_or(uint64_t def)
{
	const char *s = std::getenv("HWS_SEED");

	return s ? std::strtoull(s, nullptr, 0) : def;
}

TEST(RqCompare, SoftwareAndEngineQueuesAgreeOnRandomOperationsSmt)
{
	compare(2, 2, 2, seed_or(19), 20000);
}

TEST(RqCompare, SoftwareAndEngineQueuesAgreeOnRandomOperationsFlat)
{
	compare(1, 4, 1, seed_or(20), 20000);
}

TEST(RqCompare, PostedCommandsAndWindowReadsAgreeWithTheSoftwareQueues)
{
	compare(2, 2, 2, seed_or(21), 20000, true);
}

// A posted command that fails is not lost: the engine records it, the next window read's
// word carries POP_ERRP, the driver reads the error registers, and the firmware's next
// operation returns the failed command's errno (QUEUED: -EEXIST) while its own pick is
// still made; the operation after it is clean again.
TEST(RqCompare, APlantedFailingPostedCommandIsReportedByTheNextRead)
{
	Env e(1, 2, 1, 16);
	Queue hw(&fw_rq_hw_ops, &e.env, false);
	ASSERT_NE(hw.q, nullptr) << hw.msg;
	unsigned t = 99;
	int sw = -1;

	ASSERT_EQ(hw.ops->enqueue(hw.q, 0, 3, 1, 120, 0, 0), 0);
	ASSERT_EQ(hw.ops->enqueue(hw.q, 0, 3, 1, 110, 0, 0), 0) << "posted: no answer yet";
	ASSERT_EQ(hw.ops->enqueue(hw.q, 0, 4, 1, 130, 0, 0), 0);
	EXPECT_EQ(hw.ops->peek(hw.q, 1, 1, &t, &sw), -EEXIST) << "the planted ENQUEUE";
	EXPECT_EQ(hw.ops->peek(hw.q, 1, 1, &t, &sw), 1);
	EXPECT_EQ(t, 3u) << "the failed ENQUEUE changed nothing: task 3 stays at 120";
	EXPECT_EQ(hw.ops->dequeue(hw.q, 1, 7), 0) << "posted";
	EXPECT_EQ(hw.ops->pick(hw.q, 1, 1, &t, &sw), -ENOENT) << "the planted DEQUEUE";
	EXPECT_EQ(hw.ops->pick(hw.q, 1, 1, &t, &sw), 1);
	EXPECT_EQ(t, 4u) << "the pick that reported the error took task 3";
}

} // namespace
