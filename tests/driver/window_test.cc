// window_test.cc - the POP and PEEKW windows (one-read picks) and posted commands
// (docs/accelerator.md 4.4, docs/firmware.md "Bus protocol"), on every backend.
//
// Expected values come from the spec: the order PICK_NEXT takes tasks in, the window
// read's timing (it waits like RESULT: L + 4 edges on an idle engine), its error word and
// POP_ERRP, and what a posted command's failure leaves in the error registers.
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "tests/test_util.h"

using hwstest::reg;
using hwstest::snapshot;

namespace {

class Window : public ::testing::TestWithParam<const char *> {
protected:
	void SetUp() override
	{
		d_.reset(hwstest::open_dev(GetParam()));
		ASSERT_NE(d_, nullptr);
		d = d_.get();
	}

	uint64_t edges()
	{
		hws_bus_stats s;
		hws_get_bus_stats(d, &s);
		return s.edges;
	}

	uint32_t raw(uint32_t off)
	{
		uint32_t v = 0;
		EXPECT_EQ(hws_reg_read(d, off, &v), 0) << hws_errmsg(d);
		return v;
	}

	std::unique_ptr<hws_dev, hwstest::DevCloser> d_;
	hws_dev *d = nullptr;
};

uint32_t enq(unsigned t, unsigned cpu, unsigned prio, unsigned arr = 0, unsigned head = 0)
{
	return hws_cmd(HWS_OP_ENQUEUE, t, prio, cpu, arr, head);
}

// Posted ENQUEUEs, then POP reads with no read in between: each read runs behind the
// writes before it, and the tasks come out in PICK_NEXT's order (priority, then FIFO, the
// expired array after a swap).
TEST_P(Window, PopRunsBehindEarlierPostedWritesAndTakesInPriorityOrder)
{
	ASSERT_EQ(hws_post(d, enq(5, 2, 120)), 0);
	ASSERT_EQ(hws_post(d, enq(6, 2, 110)), 0);
	ASSERT_EQ(hws_post(d, enq(7, 2, 120)), 0);
	ASSERT_EQ(hws_post(d, enq(8, 2, 100, 1)), 0);	// expired array
	ASSERT_EQ(hws_post(d, enq(9, 2, 120, 0, 1)), 0);	// head of list 120
	hws_pick p{};
	std::vector<unsigned> order;
	std::vector<int> swapped;
	for (int k = 0; k < 6; k++) {
		ASSERT_EQ(hws_pop(d, 2, &p, nullptr), 0) << hws_errmsg(d);
		if (!p.found)
			break;
		order.push_back(p.task);
		swapped.push_back(p.swapped);
	}
	EXPECT_EQ(order, (std::vector<unsigned>{ 6, 9, 5, 7, 8 }));
	EXPECT_EQ(swapped, (std::vector<int>{ 0, 0, 0, 0, 1 }));
	EXPECT_FALSE(p.found) << "the sixth read finds both arrays empty";
	EXPECT_EQ(reg(d, HWS_REG_ERR_TOTAL), 0u);

	// A PEEKW read changes nothing; the same task comes out of POP next.
	ASSERT_EQ(hws_post(d, enq(11, 4, 130)), 0);
	uint32_t w = 0;
	ASSERT_EQ(hws_peekw(d, 4, &p, &w), 0);
	EXPECT_EQ(w, 11u << HWS_RES_TASK_LSB | 130u << HWS_RES_PRIO_LSB);
	ASSERT_EQ(hws_peekw(d, 4, &p, nullptr), 0);
	EXPECT_EQ(p.task, 11u);
	ASSERT_EQ(hws_pop(d, 4, &p, &w), 0);
	EXPECT_EQ(w, 11u << HWS_RES_TASK_LSB | 130u << HWS_RES_PRIO_LSB);
	ASSERT_EQ(hws_pop(d, 4, &p, &w), 0);
	EXPECT_EQ(w, HWS_NONE_FLAG);
}

// The read waits like RESULT: on an idle engine, AR edge (pushes the command), popped at
// the next edge, done L edges later, latched at the edge after, R handshake: L + 4 edges;
// a CMD write plus a RESULT read take the same edges in two transactions.
TEST_P(Window, AReadTakesTheEdgesOfAWritePlusAResultRead)
{
	ASSERT_EQ(hws_enqueue(d, 3, 1, 120, 0, 0), 0);
	hws_pick p{};
	uint64_t e0 = edges();
	ASSERT_EQ(hws_peekw(d, 1, &p, nullptr), 0);
	EXPECT_EQ(edges() - e0, HWS_LAT_PEEK + 4u);
	e0 = edges();
	ASSERT_EQ(hws_pop(d, 1, &p, nullptr), 0);
	EXPECT_EQ(edges() - e0, HWS_LAT_PICK_NEXT + 4u);
	e0 = edges();
	ASSERT_EQ(hws_pick_next(d, 1, &p), 0);
	EXPECT_EQ(edges() - e0, HWS_LAT_PICK_NEXT + 4u) << "CMD write + RESULT read";
	// Behind a posted REQUEUE (5 cycles; the write's own 2 edges come first): the REQUEUE
	// is popped at the edge after the write was taken, the read's PICK_NEXT back to back.
	ASSERT_EQ(hws_enqueue(d, 3, 1, 120, 0, 0), 0);
	ASSERT_EQ(hws_post(d, hws_cmd(HWS_OP_REQUEUE, 3, 0, 0, 0, 0)), 0);
	e0 = edges();
	ASSERT_EQ(hws_pop(d, 1, &p, nullptr), 0);
	// Write taken at edge 1, REQUEUE popped at 2, done at 7; the read's AR at edge 3
	// (after B at 2), its PICK_NEXT popped at 7, done at 11, latched at 12, R at 13.
	EXPECT_EQ(edges() - e0, 13u - 2u);
	EXPECT_EQ(p.task, 3u);
}

// A window read keeps out of the result FIFO: a query's word written before it is still
// there after it, and the read needs no room in the result FIFO (condition 3 of 4.1 does
// not hold it back).
TEST_P(Window, TheResultFifoIsNotTouchedAndNeedsNoRoom)
{
	ASSERT_EQ(hws_enqueue(d, 3, 0, 120, 0, 0), 0);
	const hws_config *c = hws_config_of(d);
	// RES_DEPTH - 1 queries: the last is popped only because RES_LEVEL <= RES_DEPTH - 2.
	for (unsigned k = 0; k + 1 < c->res_depth; k++)
		ASSERT_EQ(hws_submit(d, hws_cmd(HWS_OP_CPU_STAT, 0, HWS_SEL_CPU_STAT_NR_RUNNING,
						k % 2, 0, 0)), 0);
	hws_pick p{};
	ASSERT_EQ(hws_peekw(d, 0, &p, nullptr), 0) << hws_errmsg(d);
	EXPECT_EQ(p.task, 3u);
	uint32_t st = reg(d, HWS_REG_STATUS);
	EXPECT_EQ((st & HWS_STATUS_RES_LEVEL_MASK) >> HWS_STATUS_RES_LEVEL_LSB, c->res_depth - 1);
	for (unsigned k = 0; k + 1 < c->res_depth; k++) {
		uint32_t w = 0;
		ASSERT_EQ(hws_result(d, &w), 0);
		EXPECT_EQ(w, k % 2 ? 0u : 1u) << "CPU_STAT word " << k;
	}
	EXPECT_EQ(reg(d, HWS_REG_ERR_TOTAL), 0u);
}

// A window read behind commands that would stall on a full result FIFO (only a RESULT
// read could end that, and this master is waiting) is refused at once: the word
// ERR_FLAG | POP_ERRP | OVERFLOW, the OVERFLOW error with the dropped PEEK's word, nothing
// pushed. Once the results are read, the same read works.
TEST_P(Window, AReadThatWouldWaitForeverIsRefused)
{
	ASSERT_EQ(hws_enqueue(d, 3, 0, 120, 0, 0), 0);
	const hws_config *c = hws_config_of(d);
	// RES_DEPTH + 1 queries: the result FIFO fills and the last one stalls (4.1 condition 3)
	for (unsigned k = 0; k <= c->res_depth; k++)
		ASSERT_EQ(hws_submit(d, hws_cmd(HWS_OP_CPU_STAT, 0, HWS_SEL_CPU_STAT_NR_RUNNING,
						0, 0, 0)), 0);
	const uint32_t done0 = reg(d, HWS_REG_CMD_DONE);
	uint64_t e0 = edges();
	uint32_t w = raw(HWS_PEEK_BASE);
	EXPECT_EQ(edges() - e0, 2u) << "answered at once";
	EXPECT_EQ(w, HWS_ERR_FLAG | HWS_POP_ERRP_MASK | HWS_ERR_OVERFLOW) << std::hex << w;
	EXPECT_EQ(reg(d, HWS_REG_ERR_LAST), (uint32_t)HWS_ERR_OVERFLOW);
	EXPECT_EQ(reg(d, HWS_REG_ERR_CMD), hws_cmd(HWS_OP_PEEK, 0, 0, 0, 0, 0));
	uint32_t st = reg(d, HWS_REG_STATUS);
	EXPECT_EQ((st & HWS_STATUS_CMD_LEVEL_MASK) >> HWS_STATUS_CMD_LEVEL_LSB, 1u)
		<< "the stalled CPU_STAT only";
	EXPECT_EQ(reg(d, HWS_REG_CMD_DONE), done0);
	hws_pick p{};
	EXPECT_EQ(hws_pop(d, 0, &p, nullptr), -EAGAIN);
	EXPECT_NE(std::string(hws_errmsg(d)).find("OVERFLOW"), std::string::npos) << hws_errmsg(d);
	for (unsigned k = 0; k <= c->res_depth; k++) {
		ASSERT_EQ(hws_result(d, &w), 0);
		EXPECT_EQ(w, 1u);
	}
	ASSERT_EQ(hws_pop(d, 0, &p, nullptr), 0) << hws_errmsg(d);
	EXPECT_EQ(p.task, 3u);
}

// Bad input: a CPU the engine does not have answers the CPU error (the word is
// ERR_FLAG | POP_ERRP | CPU, ERR_CMD the PICK_NEXT/PEEK word, in 1 cycle) and changes
// nothing; a misaligned window address, a write to a window, a read of the CURR window
// (0x300..0x3ff, write-only) and a write of CURR[c] for a CPU the engine does not have are
// SLVERR (ADDR, ERR_CMD the address).
TEST_P(Window, BadInputGivesTheDefinedErrors)
{
	ASSERT_EQ(hws_enqueue(d, 3, 7, 120, 0, 0), 0);
	std::vector<uint32_t> before = snapshot(d);
	for (unsigned cpu : { 8u, 63u }) {
		for (uint32_t base : { HWS_POP_BASE, HWS_PEEK_BASE }) {
			unsigned op = base == HWS_POP_BASE ? HWS_OP_PICK_NEXT : HWS_OP_PEEK;
			uint64_t e0 = edges();
			uint32_t w = raw(base + 4 * cpu);
			EXPECT_EQ(edges() - e0, 1u + 4u) << "a failing command takes 1 cycle";
			EXPECT_EQ(w, HWS_ERR_FLAG | HWS_POP_ERRP_MASK | HWS_ERR_CPU) << std::hex << w;
			EXPECT_EQ(reg(d, HWS_REG_ERR_LAST), (uint32_t)HWS_ERR_CPU);
			EXPECT_EQ(reg(d, HWS_REG_ERR_CMD), hws_cmd(op, 0, 0, cpu, 0, 0));
			EXPECT_EQ(reg(d, HWS_REG_STATUS) & HWS_STATUS_ERR_MASK, 0u)
				<< "the window read cleared STATUS.ERR";
		}
	}
	hws_pick p{};
	EXPECT_EQ(hws_pop(d, 9, &p, nullptr), -ERANGE);
	EXPECT_NE(std::string(hws_errmsg(d)).find("PICK_NEXT"), std::string::npos) << hws_errmsg(d);
	EXPECT_EQ(hws_pop(d, 64, &p, nullptr), -ERANGE) << "outside the window: nothing sent";
	EXPECT_EQ(before, snapshot(d));

	uint32_t v = 0;
	const uint32_t err0 = reg(d, HWS_REG_ERR_TOTAL);
	for (uint32_t off : { HWS_POP_BASE + 1u, HWS_PEEK_BASE + 4u * 7u + 2u, 0x300u, 0x3fcu }) {
		EXPECT_EQ(hws_reg_read(d, off, &v), -EFAULT) << std::hex << off;
		EXPECT_EQ(reg(d, HWS_REG_ERR_LAST), (uint32_t)HWS_ERR_ADDR);
		EXPECT_EQ(reg(d, HWS_REG_ERR_CMD), off);
	}
	for (uint32_t off : { HWS_POP_BASE, HWS_PEEK_BASE + 4u * 7u, HWS_CURR_BASE + 4u * 8u }) {
		EXPECT_EQ(hws_reg_write(d, off, 0), -EFAULT) << std::hex << off;
		EXPECT_EQ(reg(d, HWS_REG_ERR_CMD), off);
	}
	EXPECT_EQ(reg(d, HWS_REG_ERR_TOTAL) - err0, 7u);
	EXPECT_EQ(before, snapshot(d));
	// Only ADDR_W = 10 address bits are decoded: 0x400 + ID is ID, 0x500 + 4c is POP[c].
	reg(d, HWS_REG_STATUS);	// clears STATUS.ERR, so POP_ERRP is 0 below
	EXPECT_EQ(raw(0x400 + HWS_REG_ID), HWS_ID_VALUE);
	EXPECT_EQ(raw(0x500 + 4 * 7), 3u << HWS_RES_TASK_LSB | 120u << HWS_RES_PRIO_LSB);
}

// A planted failing posted command is reported: the next window word carries POP_ERRP,
// the driver reads ERR_TOTAL / ERR_LAST / ERR_CMD, and hws_post_errors() names the failed
// command word; two failures are both counted.
TEST_P(Window, APlantedFailingPostedCommandIsReportedWithItsWord)
{
	const uint32_t bad = enq(3, 1, 120);	// the second ENQUEUE of task 3: QUEUED
	ASSERT_EQ(hws_post(d, enq(3, 1, 120)), 0);
	ASSERT_EQ(hws_post(d, bad), 0);
	ASSERT_EQ(hws_post(d, enq(4, 1, 125)), 0);
	hws_post_err e{};
	EXPECT_EQ(hws_post_errors(d, &e), 0) << "nothing read yet: nothing known";
	hws_pick p{};
	uint32_t w = 0;
	ASSERT_EQ(hws_peekw(d, 1, &p, &w), 0) << "the pick itself is fine";
	EXPECT_TRUE(w & HWS_POP_ERRP_MASK) << std::hex << w;
	EXPECT_EQ(p.task, 3u);
	EXPECT_EQ(hws_post_errors(d, &e), -EEXIST);
	EXPECT_EQ(e.count, 1u);
	EXPECT_EQ(e.code, (unsigned)HWS_ERR_QUEUED);
	EXPECT_EQ(e.cmd, bad);
	EXPECT_NE(std::string(hws_errmsg(d)).find("ENQUEUE task=3"), std::string::npos)
		<< hws_errmsg(d);
	EXPECT_EQ(hws_post_errors(d, &e), 0) << "taken once";

	// Two failures (DEQUEUE of a task not queued, MIGRATE to a CPU out of range), then a
	// synchronous command that succeeds: its SYNC collects both, the last one's word kept.
	ASSERT_EQ(hws_post(d, hws_cmd(HWS_OP_DEQUEUE, 77, 0, 0, 0, 0)), 0);
	const uint32_t mig = hws_cmd(HWS_OP_MIGRATE, 4, 0, 12, 0, 0);
	ASSERT_EQ(hws_post(d, mig), 0);
	EXPECT_EQ(hws_set_idle(d, 1, 1), 0) << hws_errmsg(d);
	EXPECT_EQ(hws_post_errors(d, &e), -ERANGE);
	EXPECT_EQ(e.count, 2u);
	EXPECT_EQ(e.cmd, mig);
	// And a synchronous command that fails itself gets its own error; the posted one before
	// it is still counted, though its word is gone (ERR_CMD holds the later one): -EIO.
	ASSERT_EQ(hws_post(d, hws_cmd(HWS_OP_DEQUEUE, 78, 0, 0, 0, 0)), 0);
	EXPECT_EQ(hws_dequeue(d, 79), -ENOENT);
	EXPECT_EQ(hws_post_errors(d, &e), -EIO);
	EXPECT_EQ(e.count, 1u);
	EXPECT_EQ(e.code, 0u) << "unknown";
	EXPECT_NE(std::string(hws_errmsg(d)).find("1 posted command failed"), std::string::npos)
		<< hws_errmsg(d);
}

// Posting never overflows the command FIFO: the driver spends its credits, then reads
// SYNC. Three FIFOs' worth of slow commands in a row: no OVERFLOW, every one executed.
TEST_P(Window, PostingRespectsTheFifoCredits)
{
	const hws_config *c = hws_config_of(d);
	ASSERT_EQ(hws_enqueue(d, 3, 1, 120, 0, 0), 0);
	hws_bus_stats s0, s1;
	hws_get_bus_stats(d, &s0);
	const uint32_t done0 = reg(d, HWS_REG_CMD_DONE);
	EXPECT_EQ(hws_post_credits(d), c->cmd_depth);
	unsigned n = 3 * c->cmd_depth;
	for (unsigned k = 0; k < n; k++)
		ASSERT_EQ(hws_post(d, hws_cmd(HWS_OP_REQUEUE, 3, 0, 0, 0, 0)), 0);
	hws_get_bus_stats(d, &s1);
	EXPECT_EQ(s1.writes - s0.writes, n);
	EXPECT_GE(s1.reads - s0.reads, 2u) << "SYNC reads when the credits ran out";
	EXPECT_LE(s1.reads - s0.reads, 3u);
	ASSERT_EQ(hws_post_flush(d), 0);
	EXPECT_EQ(hws_post_credits(d), c->cmd_depth);
	EXPECT_EQ(reg(d, HWS_REG_ERR_TOTAL), 0u) << "no OVERFLOW";
	EXPECT_EQ(reg(d, HWS_REG_CMD_DONE) - done0, n);
}

// Random streams: posted commands and window reads, checked against a software shadow
// of the queues (tasks per CPU in PICK_NEXT order), with the seed printed on failure.
TEST_P(Window, RandomPostedStreamsMatchAShadow)
{
	const char *env = std::getenv("HWS_SEED");
	const uint64_t seed = env ? std::strtoull(env, nullptr, 0) : 2212;
	std::mt19937_64 rng(seed);
	auto rnd = [&](unsigned k) { return unsigned(rng() % k); };
	struct T { int cpu = -1; unsigned prio = 0; uint64_t seq = 0; };
	std::vector<T> tasks(64);
	uint64_t seq = 1;
	unsigned expect_err = 0;
	hws_post_err e{};

	for (unsigned i = 0; i < 3000 && !HasFailure(); i++) {
		unsigned t = rnd(64), cpu = rnd(9), r = rnd(10);	// cpu 8: out of range
		if (r < 4) {
			unsigned prio = 100 + rnd(3);
			ASSERT_EQ(hws_post(d, enq(t, cpu, prio)), 0);
			if (tasks[t].cpu >= 0 || cpu >= 8)
				expect_err++;
			else
				tasks[t] = T{ int(cpu), prio, seq++ };
		} else if (r < 6) {
			ASSERT_EQ(hws_post(d, hws_cmd(HWS_OP_DEQUEUE, t, 0, 0, 0, 0)), 0);
			if (tasks[t].cpu < 0)
				expect_err++;
			tasks[t].cpu = -1;
		} else {
			hws_pick p{};
			int ret = hws_pop(d, cpu, &p, nullptr);
			if (cpu >= 8) {
				ASSERT_EQ(ret, -ERANGE) << "seed " << seed;
			} else {
				ASSERT_EQ(ret, 0) << "seed " << seed << ": " << hws_errmsg(d);
				int best = -1;
				for (unsigned k = 0; k < 64; k++)
					if (tasks[k].cpu == int(cpu) &&
					    (best < 0 || tasks[k].prio < tasks[best].prio ||
					     (tasks[k].prio == tasks[best].prio &&
					      tasks[k].seq < tasks[best].seq)))
						best = int(k);
				ASSERT_EQ(p.found, best >= 0) << "seed " << seed << " step " << i;
				if (best >= 0) {
					ASSERT_EQ(p.task, unsigned(best)) << "seed " << seed << " step " << i;
					tasks[best].cpu = -1;
				}
			}
			hws_post_errors(d, &e);
			ASSERT_EQ(e.count, expect_err) << "seed " << seed << " step " << i;
			expect_err = 0;
		}
	}
}

INSTANTIATE_TEST_SUITE_P(Backends, Window,
			 ::testing::Values("model", "rtl", "lockstep", "model:pipe"),
			 [](const ::testing::TestParamInfo<const char *> &i) {
				 std::string n(i.param);
				 return n == "model:pipe" ? std::string("model_pipe") : n;
			 });

} // namespace
