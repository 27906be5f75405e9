// engine_test.cc - directed tests of every command and every error, on each backend.
//
// The same test body runs on the model, on the Verilated RTL, and in lockstep (where every
// read is also compared between the two). Expected values come from the spec
// (docs/accelerator.md) and Linux's tables, never from either implementation.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "tests/test_util.h"

using hwstest::reg;
using hwstest::snapshot;

namespace {

// Linux kernel/sched.c prio_to_weight[], nice -20..19.
const uint32_t kLinuxWeights[40] = {
	88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916,
	9548, 7620, 6100, 4904, 3906, 3121, 2501, 1991, 1586, 1277,
	1024, 820, 655, 526, 423, 335, 272, 215, 172, 137,
	110, 87, 70, 56, 45, 36, 29, 23, 18, 15,
};

class Engine : public ::testing::TestWithParam<const char *> {
protected:
	void SetUp() override
	{
		d_.reset(hwstest::open_dev(GetParam()));
		ASSERT_NE(d_, nullptr);
		d = d_.get();
	}

	hws_pick pick(unsigned cpu)
	{
		hws_pick p{};
		EXPECT_EQ(hws_pick_next(d, cpu, &p), 0) << hws_errmsg(d);
		return p;
	}

	hws_cpu_counters counters(unsigned cpu)
	{
		hws_cpu_counters c{};
		EXPECT_EQ(hws_read_cpu_counters(d, cpu, &c), 0) << hws_errmsg(d);
		return c;
	}

	hws_task_state task(unsigned t)
	{
		hws_task_state s{};
		EXPECT_EQ(hws_read_task_state(d, t, &s), 0) << hws_errmsg(d);
		return s;
	}

	// Drain @cpu with PICK_NEXT; the tasks in the order they came out.
	std::vector<unsigned> drain(unsigned cpu)
	{
		std::vector<unsigned> out;
		for (;;) {
			hws_pick p = pick(cpu);
			if (!p.found)
				return out;
			out.push_back(p.task);
		}
	}

	// Cycles from writing @cmd to SYNC returning, minus the same for a NOP (latency 1).
	unsigned latency_of(uint32_t cmd, int want = 0)
	{
		// Raw SYNC read: the driver's hws_sync() would add error-register reads.
		uint32_t c0 = reg(d, HWS_REG_CYCLES);
		EXPECT_EQ(hws_submit(d, cmd), 0);
		uint32_t st = reg(d, HWS_REG_SYNC);
		EXPECT_EQ(!!(st & HWS_STATUS_ERR_MASK), want != 0) << std::hex << cmd;
		uint32_t c1 = reg(d, HWS_REG_CYCLES);
		EXPECT_EQ(hws_nop(d), 0);
		uint32_t c2 = reg(d, HWS_REG_CYCLES);
		EXPECT_EQ(hws_nop(d), 0);
		uint32_t c3 = reg(d, HWS_REG_CYCLES);
		return (c1 - c0) - (c3 - c2) + 1;	/* a NOP's latency, the spec's 1 */
	}

	// The same for a query: its RESULT word arrives L cycles after it starts.
	unsigned query_latency_of(uint32_t cmd)
	{
		uint32_t w, c0 = reg(d, HWS_REG_CYCLES);
		EXPECT_EQ(hws_submit(d, cmd), 0);
		EXPECT_EQ(hws_result(d, &w), 0) << hws_errmsg(d);
		EXPECT_EQ(w & HWS_ERR_FLAG, 0u);
		last_word_ = w;
		uint32_t c1 = reg(d, HWS_REG_CYCLES);
		EXPECT_EQ(hws_nop(d), 0);
		uint32_t c2 = reg(d, HWS_REG_CYCLES);
		EXPECT_EQ(hws_nop(d), 0);
		uint32_t c3 = reg(d, HWS_REG_CYCLES);
		return (c1 - c0) - (c3 - c2) + 1;	/* a NOP's latency, the spec's 1 */
	}

	std::unique_ptr<hws_dev, hwstest::DevCloser> d_;
	hws_dev *d = nullptr;
	uint32_t last_word_ = 0;
};

TEST_P(Engine, IdentifiesItselfAndStartsEmpty)
{
	EXPECT_EQ(reg(d, HWS_REG_ID), HWS_ID_VALUE);
	EXPECT_EQ(reg(d, HWS_REG_NR_CPUS), 8u);
	EXPECT_EQ(reg(d, HWS_REG_NR_TASKS), 256u);
	EXPECT_EQ(reg(d, HWS_REG_DEPTHS), 16u | 16u << 8);
	EXPECT_EQ(reg(d, HWS_REG_STATUS), 0u);
	EXPECT_EQ(reg(d, HWS_REG_CMD_DONE), 0u);
	for (unsigned cpu = 0; cpu < 8; cpu++) {
		hws_cpu_counters c = counters(cpu);
		EXPECT_EQ(c.nr_running + c.nr_active + c.nr_expired + c.load, 0u);
		hws_pick p{};
		ASSERT_EQ(hws_peek(d, cpu, &p), 0);
		EXPECT_FALSE(p.found);
	}
	EXPECT_FALSE(task(0).queued);
}

TEST_P(Engine, EnqueueThenPickReturnsTheTaskAndCountsFollow)
{
	ASSERT_EQ(hws_enqueue(d, 7, 3, 120, 0, 0), 0) << hws_errmsg(d);
	hws_cpu_counters c = counters(3);
	EXPECT_EQ(c.nr_running, 1u);
	EXPECT_EQ(c.nr_active, 1u);
	EXPECT_EQ(c.nr_expired, 0u);
	EXPECT_EQ(c.load, 1024u);
	hws_task_state s = task(7);
	EXPECT_TRUE(s.queued);
	EXPECT_EQ(s.cpu, 3u);
	EXPECT_EQ(s.prio, 120u);
	EXPECT_EQ(s.array, 0u);
	EXPECT_EQ(s.weight, 1024u);
	uint32_t bm;
	ASSERT_EQ(hws_cpu_stat(d, 3, HWS_SEL_CPU_STAT_ACT_BM0 + 120 / 16, &bm), 0);
	EXPECT_EQ(bm, 1u << (120 % 16));

	hws_pick pk{};
	ASSERT_EQ(hws_peek(d, 3, &pk), 0);
	EXPECT_TRUE(pk.found);
	EXPECT_EQ(pk.task, 7u);
	EXPECT_EQ(counters(3).nr_running, 1u) << "PEEK must not remove";
	hws_pick p = pick(3);
	EXPECT_TRUE(p.found);
	EXPECT_EQ(p.task, 7u);
	EXPECT_EQ(p.prio, 120u);
	EXPECT_FALSE(p.swapped);
	c = counters(3);
	EXPECT_EQ(c.nr_running + c.load, 0u);
	EXPECT_FALSE(task(7).queued);
	ASSERT_EQ(hws_cpu_stat(d, 3, HWS_SEL_CPU_STAT_ACT_BM0 + 120 / 16, &bm), 0);
	EXPECT_EQ(bm, 0u);
	EXPECT_FALSE(pick(3).found);
}

TEST_P(Engine, FifoWithinAPriorityAndHeadInsert)
{
	for (unsigned t : { 10u, 11u, 12u })
		ASSERT_EQ(hws_enqueue(d, t, 0, 130, 0, 0), 0);
	ASSERT_EQ(hws_enqueue(d, 13, 0, 130, 0, 1), 0);	// at the head
	EXPECT_EQ(drain(0), (std::vector<unsigned>{ 13, 10, 11, 12 }));
}

TEST_P(Engine, LowestPriorityNumberFirstRealTimeBeforeNormal)
{
	const unsigned prios[] = { 139, 100, 0, 99, 120, 31, 32, 63, 64, 127, 128, 5 };
	for (unsigned i = 0; i < sizeof(prios) / sizeof(prios[0]); i++)
		ASSERT_EQ(hws_enqueue(d, i, 1, prios[i], 0, 0), 0);
	std::vector<unsigned> got;
	for (;;) {
		hws_pick p = pick(1);
		if (!p.found)
			break;
		EXPECT_EQ(p.prio, prios[p.task]);
		got.push_back(p.prio);
	}
	std::vector<unsigned> want(std::begin(prios), std::end(prios));
	std::sort(want.begin(), want.end());
	EXPECT_EQ(got, want);
}

TEST_P(Engine, DequeueFromHeadMiddleTailAndOnly)
{
	for (unsigned t = 20; t < 25; t++)
		ASSERT_EQ(hws_enqueue(d, t, 2, 110, 0, 0), 0);
	ASSERT_EQ(hws_dequeue(d, 22), 0);	// middle
	ASSERT_EQ(hws_dequeue(d, 20), 0);	// head
	ASSERT_EQ(hws_dequeue(d, 24), 0);	// tail
	EXPECT_EQ(counters(2).nr_running, 2u);
	EXPECT_EQ(counters(2).load, 2u * kLinuxWeights[10]);
	EXPECT_EQ(drain(2), (std::vector<unsigned>{ 21, 23 }));
	ASSERT_EQ(hws_enqueue(d, 30, 2, 110, 1, 0), 0);
	ASSERT_EQ(hws_dequeue(d, 30), 0);	// the only one, in the expired array
	EXPECT_EQ(counters(2).nr_expired, 0u);
	EXPECT_FALSE(pick(2).found);
}

TEST_P(Engine, ExpiredArraySwapsInWhenActiveRunsOut)
{
	ASSERT_EQ(hws_enqueue(d, 1, 4, 120, 0, 0), 0);	// active
	ASSERT_EQ(hws_enqueue(d, 2, 4, 100, 1, 0), 0);	// expired, higher priority
	ASSERT_EQ(hws_enqueue(d, 3, 4, 125, 1, 0), 0);	// expired
	hws_cpu_counters c = counters(4);
	EXPECT_EQ(c.nr_active, 1u);
	EXPECT_EQ(c.nr_expired, 2u);
	EXPECT_EQ(task(2).array, 1u);

	hws_pick p = pick(4);	// active first, whatever the expired array holds
	EXPECT_EQ(p.task, 1u);
	EXPECT_FALSE(p.swapped);
	uint32_t swap;
	ASSERT_EQ(hws_cpu_stat(d, 4, HWS_SEL_CPU_STAT_SWAP, &swap), 0);
	EXPECT_EQ(swap, 0u);

	hws_pick pk{};
	ASSERT_EQ(hws_peek(d, 4, &pk), 0);
	EXPECT_TRUE(pk.swapped);
	EXPECT_EQ(pk.task, 2u);
	ASSERT_EQ(hws_cpu_stat(d, 4, HWS_SEL_CPU_STAT_SWAP, &swap), 0);
	EXPECT_EQ(swap, 0u) << "PEEK must not swap";

	p = pick(4);	// active empty: swap, then take the best of the new active
	EXPECT_EQ(p.task, 2u);
	EXPECT_TRUE(p.swapped);
	ASSERT_EQ(hws_cpu_stat(d, 4, HWS_SEL_CPU_STAT_SWAP, &swap), 0);
	EXPECT_EQ(swap, 1u);
	EXPECT_EQ(task(3).array, 0u) << "task 3 is now in the active array";
	c = counters(4);
	EXPECT_EQ(c.nr_active, 1u);
	EXPECT_EQ(c.nr_expired, 0u);

	// An ENQUEUE to logical "expired" now lands in physical array 0.
	ASSERT_EQ(hws_enqueue(d, 5, 4, 101, 1, 0), 0);
	EXPECT_EQ(task(5).array, 1u);
	uint32_t bm;
	ASSERT_EQ(hws_cpu_stat(d, 4, HWS_SEL_CPU_STAT_EXP_BM0 + 101 / 16, &bm), 0);
	EXPECT_EQ(bm, 1u << (101 % 16));
	p = pick(4);
	EXPECT_EQ(p.task, 3u);
	EXPECT_FALSE(p.swapped);
	p = pick(4);
	EXPECT_EQ(p.task, 5u);
	EXPECT_TRUE(p.swapped);
	EXPECT_FALSE(pick(4).found);
}

TEST_P(Engine, RequeueMovesToTheTailOfItsList)
{
	for (unsigned t = 40; t < 43; t++)
		ASSERT_EQ(hws_enqueue(d, t, 5, 115, 0, 0), 0);
	ASSERT_EQ(hws_requeue(d, 40), 0);
	ASSERT_EQ(hws_requeue(d, 42), 0);	// already the tail: stays
	EXPECT_EQ(counters(5).nr_running, 3u);
	EXPECT_EQ(drain(5), (std::vector<unsigned>{ 41, 40, 42 }));
}

TEST_P(Engine, SetPrioMovesListAndReweights)
{
	ASSERT_EQ(hws_enqueue(d, 50, 6, 120, 1, 0), 0);
	ASSERT_EQ(hws_enqueue(d, 51, 6, 110, 1, 0), 0);
	ASSERT_EQ(hws_set_prio(d, 50, 50), 0);	// to real time
	hws_task_state s = task(50);
	EXPECT_EQ(s.prio, 50u);
	EXPECT_EQ(s.array, 1u) << "SET_PRIO keeps the array";
	EXPECT_EQ(s.weight, HWS_RT_WEIGHT);
	EXPECT_EQ(counters(6).load, HWS_RT_WEIGHT + kLinuxWeights[10]);
	hws_pick p = pick(6);
	EXPECT_EQ(p.task, 50u);
	EXPECT_EQ(p.prio, 50u);
}

TEST_P(Engine, MigrateKeepsTheLogicalArrayAcrossSwappedCpus)
{
	// Make CPU 1's arrays swapped: one expired task, picked.
	ASSERT_EQ(hws_enqueue(d, 60, 1, 120, 1, 0), 0);
	ASSERT_TRUE(pick(1).swapped);
	ASSERT_EQ(hws_enqueue(d, 61, 0, 105, 1, 0), 0);	// expired on CPU 0 (not swapped)
	ASSERT_EQ(hws_enqueue(d, 62, 0, 105, 0, 0), 0);	// active on CPU 0
	ASSERT_EQ(hws_migrate(d, 61, 1), 0);
	ASSERT_EQ(hws_migrate(d, 62, 1), 0);
	hws_task_state s = task(61);
	EXPECT_EQ(s.cpu, 1u);
	EXPECT_EQ(s.array, 1u);
	EXPECT_EQ(s.prio, 105u);
	EXPECT_EQ(task(62).array, 0u);
	hws_cpu_counters c0 = counters(0), c1 = counters(1);
	EXPECT_EQ(c0.nr_running + c0.load, 0u);
	EXPECT_EQ(c1.nr_active, 1u);
	EXPECT_EQ(c1.nr_expired, 1u);
	EXPECT_EQ(c1.load, 2u * kLinuxWeights[5]);
	ASSERT_EQ(hws_migrate(d, 62, 1), 0);	// to its own CPU: acts as REQUEUE
	EXPECT_EQ(drain(1), (std::vector<unsigned>{ 62, 61 }));
}

TEST_P(Engine, WeightsFollowLinuxPrioToWeight)
{
	uint32_t sum = 0;
	for (unsigned prio = 0; prio < HWS_NR_PRIO; prio++) {
		unsigned t = prio;
		ASSERT_EQ(hws_enqueue(d, t, prio % 8, prio, prio % 2, 0), 0);
		uint32_t w = prio < 100 ? 177522u : kLinuxWeights[prio - 100];
		EXPECT_EQ(task(t).weight, w) << "prio " << prio;
		sum += w;
	}
	uint32_t total = 0;
	for (unsigned cpu = 0; cpu < 8; cpu++)
		total += counters(cpu).load;
	EXPECT_EQ(total, sum);
}

// ---- Errors: each one is reported, counted, and changes nothing else ----

struct BadCase {
	const char *name;
	uint32_t cmd;
	unsigned code;
};

TEST_P(Engine, EveryBadCommandIsRefusedCountedAndHarmless)
{
	ASSERT_EQ(hws_enqueue(d, 3, 1, 120, 0, 0), 0);
	ASSERT_EQ(hws_enqueue(d, 4, 1, 120, 1, 0), 0);
	const BadCase cases[] = {
		{ "enqueue task range", hws_cmd(HWS_OP_ENQUEUE, 256, 120, 0, 0, 0), HWS_ERR_TASK },
		{ "enqueue cpu range", hws_cmd(HWS_OP_ENQUEUE, 5, 120, 8, 0, 0), HWS_ERR_CPU },
		{ "enqueue prio range", hws_cmd(HWS_OP_ENQUEUE, 5, 140, 0, 0, 0), HWS_ERR_PRIO },
		{ "enqueue queued", hws_cmd(HWS_OP_ENQUEUE, 3, 120, 2, 0, 0), HWS_ERR_QUEUED },
		{ "task checked before cpu", hws_cmd(HWS_OP_ENQUEUE, 4095, 200, 63, 0, 0),
		  HWS_ERR_TASK },
		{ "dequeue not queued", hws_cmd(HWS_OP_DEQUEUE, 5, 0, 0, 0, 0), HWS_ERR_NOTQUEUED },
		{ "dequeue task range", hws_cmd(HWS_OP_DEQUEUE, 300, 0, 0, 0, 0), HWS_ERR_TASK },
		{ "requeue not queued", hws_cmd(HWS_OP_REQUEUE, 5, 0, 0, 0, 0), HWS_ERR_NOTQUEUED },
		{ "requeue task range", hws_cmd(HWS_OP_REQUEUE, 256, 0, 0, 0, 0), HWS_ERR_TASK },
		{ "set_prio task range", hws_cmd(HWS_OP_SET_PRIO, 256, 100, 0, 0, 0), HWS_ERR_TASK },
		{ "set_prio task checked before prio", hws_cmd(HWS_OP_SET_PRIO, 4000, 255, 0, 0, 0),
		  HWS_ERR_TASK },
		{ "set_prio not queued", hws_cmd(HWS_OP_SET_PRIO, 5, 100, 0, 0, 0),
		  HWS_ERR_NOTQUEUED },
		{ "set_prio range", hws_cmd(HWS_OP_SET_PRIO, 3, 255, 0, 0, 0), HWS_ERR_PRIO },
		{ "migrate not queued", hws_cmd(HWS_OP_MIGRATE, 5, 0, 1, 0, 0), HWS_ERR_NOTQUEUED },
		{ "migrate cpu range", hws_cmd(HWS_OP_MIGRATE, 3, 0, 9, 0, 0), HWS_ERR_CPU },
		{ "migrate task range", hws_cmd(HWS_OP_MIGRATE, 256, 0, 1, 0, 0), HWS_ERR_TASK },
		{ "migrate task checked before cpu", hws_cmd(HWS_OP_MIGRATE, 300, 0, 9, 0, 0),
		  HWS_ERR_TASK },
		{ "set_group range", hws_cmd(HWS_OP_SET_GROUP, 3, 16, 0, 0, 0), HWS_ERR_GROUP },
		{ "set_group task range", hws_cmd(HWS_OP_SET_GROUP, 256, 99, 0, 0, 0),
		  HWS_ERR_TASK },
		{ "load_tick cpu range", hws_cmd(HWS_OP_LOAD_TICK, 0, 0, 8, 0, 0), HWS_ERR_CPU },
		{ "set_idle cpu range", hws_cmd(HWS_OP_SET_IDLE, 0, 0, 40, 1, 0), HWS_ERR_CPU },
	};
	const std::vector<uint32_t> before = snapshot(d);
	uint32_t total = reg(d, HWS_REG_ERR_TOTAL);
	for (const BadCase &bc : cases) {
		uint32_t cnt = reg(d, HWS_REG_ERR_TOTAL + 4 * bc.code);
		uint32_t done = reg(d, HWS_REG_CMD_DONE);
		ASSERT_EQ(hws_submit(d, bc.cmd), 0);
		EXPECT_EQ(hws_sync(d, nullptr), hws_err_errno(bc.code)) << bc.name;
		EXPECT_EQ(reg(d, HWS_REG_ERR_LAST), bc.code) << bc.name;
		EXPECT_EQ(reg(d, HWS_REG_ERR_CMD), bc.cmd) << bc.name;
		EXPECT_EQ(reg(d, HWS_REG_ERR_SEQ), done) << bc.name;
		EXPECT_EQ(reg(d, HWS_REG_ERR_TOTAL + 4 * bc.code), cnt + 1) << bc.name;
		EXPECT_EQ(reg(d, HWS_REG_ERR_TOTAL), ++total) << bc.name;
	}
	// Queries push an error word instead.
	const BadCase queries[] = {
		{ "pick cpu range", hws_cmd(HWS_OP_PICK_NEXT, 0, 0, 8, 0, 0), HWS_ERR_CPU },
		{ "peek cpu range", hws_cmd(HWS_OP_PEEK, 0, 0, 63, 0, 0), HWS_ERR_CPU },
		{ "cpu_stat selector", hws_cmd(HWS_OP_CPU_STAT, 0, 23, 0, 0, 0), HWS_ERR_PRIO },
		{ "cpu_stat cpu range", hws_cmd(HWS_OP_CPU_STAT, 0, 0, 8, 0, 0), HWS_ERR_CPU },
		{ "cpu_stat cpu checked before selector", hws_cmd(HWS_OP_CPU_STAT, 0, 23, 8, 0, 0),
		  HWS_ERR_CPU },
		{ "balance idle type", hws_cmd(HWS_OP_QUERY, 3, 0, 0, 1, 0), HWS_ERR_TASK },
		{ "query kind 3", hws_cmd(HWS_OP_QUERY, 0, 9, 99, 1, 1), HWS_ERR_OPCODE },
		{ "task_stat selector", hws_cmd(HWS_OP_TASK_STAT, 3, 3, 0, 0, 0), HWS_ERR_PRIO },
		{ "lcu_stat selector", hws_cmd(HWS_OP_LCU_STAT, 0, 9, 0, 0, 0), HWS_ERR_PRIO },
		{ "lcu_stat group", hws_cmd(HWS_OP_LCU_STAT, 16, 3, 0, 0, 0), HWS_ERR_GROUP },
		{ "lcu_stat cpu first", hws_cmd(HWS_OP_LCU_STAT, 16, 9, 8, 0, 0), HWS_ERR_CPU },
		{ "task_stat range", hws_cmd(HWS_OP_TASK_STAT, 256, 0, 0, 0, 0), HWS_ERR_TASK },
	};
	for (const BadCase &bc : queries) {
		uint32_t w;
		ASSERT_EQ(hws_submit(d, bc.cmd), 0);
		ASSERT_EQ(hws_result(d, &w), 0);
		EXPECT_EQ(w, HWS_ERR_FLAG | bc.code) << bc.name;
		EXPECT_EQ(reg(d, HWS_REG_ERR_LAST), bc.code) << bc.name;
		EXPECT_EQ(reg(d, HWS_REG_ERR_TOTAL), ++total) << bc.name;
	}
	(void)reg(d, HWS_REG_STATUS);
	EXPECT_EQ(snapshot(d), before) << "a refused command changed state";
	// And the driver names the problem.
	EXPECT_EQ(hws_enqueue(d, 3, 0, 120, 0, 0), -EEXIST);
	EXPECT_NE(std::string(hws_errmsg(d)).find("QUEUED"), std::string::npos) << hws_errmsg(d);
}

TEST_P(Engine, BadBusAccessesGetSlverrAndAreCounted)
{
	const std::vector<uint32_t> before = snapshot(d);
	const uint32_t done = reg(d, HWS_REG_CMD_DONE);
	uint32_t v;
	EXPECT_EQ(hws_reg_read(d, 0x3c, &v), -EFAULT);		// unmapped
	EXPECT_EQ(v, 0u);
	EXPECT_EQ(reg(d, HWS_REG_ERR_CMD), 0x3cu);
	EXPECT_EQ(hws_reg_read(d, HWS_REG_CMD, &v), -EFAULT);	// write-only
	EXPECT_EQ(hws_reg_read(d, 0x15, &v), -EFAULT);		// misaligned
	EXPECT_EQ(hws_reg_write(d, HWS_REG_STATUS, 1), -EFAULT);	// read-only
	EXPECT_EQ(hws_reg_write_strb(d, HWS_REG_CMD, hws_cmd(HWS_OP_ENQUEUE, 9, 120, 0, 0, 0),
				     0x7), -EFAULT);		// partial strobe: not executed
	EXPECT_EQ(reg(d, HWS_REG_ERR_LAST), (uint32_t)HWS_ERR_ADDR);
	EXPECT_EQ(reg(d, HWS_REG_ERR_CNT9), 5u);
	EXPECT_EQ(reg(d, HWS_REG_CMD_DONE), done) << "the refused CMD write did not execute";
	EXPECT_FALSE(task(9).queued);
	(void)reg(d, HWS_REG_STATUS);
	EXPECT_EQ(snapshot(d), before);
}

TEST_P(Engine, ResultUnderflowReturnsAnErrorWord)
{
	uint32_t w;
	ASSERT_EQ(hws_result(d, &w), 0);
	EXPECT_EQ(w, HWS_ERR_FLAG | HWS_ERR_UNDERFLOW);
	EXPECT_EQ(reg(d, HWS_REG_ERR_LAST), (uint32_t)HWS_ERR_UNDERFLOW);
	EXPECT_EQ(reg(d, HWS_REG_ERR_CNT8), 1u);
	EXPECT_NE(reg(d, HWS_REG_STATUS) & HWS_STATUS_ERR_MASK, 0u);
	EXPECT_EQ(reg(d, HWS_REG_STATUS) & HWS_STATUS_ERR_MASK, 0u) << "ERR clears on read";
}

TEST_P(Engine, CommandFifoOverflowDropsOnlyTheExtraCommands)
{
	// Fill two CPUs so that 40 MIGRATEs (5 cycles each) outrun the 2-cycle bus writes.
	for (unsigned t = 0; t < 40; t++)
		ASSERT_EQ(hws_enqueue(d, t, 0, 120, 0, 0), 0);
	uint32_t accepted_before = reg(d, HWS_REG_CMD_DONE);
	for (unsigned t = 0; t < 40; t++)
		ASSERT_EQ(hws_submit(d, hws_cmd(HWS_OP_MIGRATE, t, 0, 1, 0, 0)), 0);
	uint32_t st;
	EXPECT_EQ(hws_sync(d, &st), -EAGAIN) << hws_errmsg(d);
	uint32_t dropped = reg(d, HWS_REG_ERR_CNT7);
	uint32_t done = reg(d, HWS_REG_CMD_DONE) - accepted_before;
	EXPECT_GT(dropped, 0u);
	EXPECT_EQ(done + dropped, 40u);
	// Exactly the executed MIGRATEs moved; nothing lost, nothing doubled.
	hws_cpu_counters c0 = counters(0), c1 = counters(1);
	EXPECT_EQ(c1.nr_running, done);
	EXPECT_EQ(c0.nr_running + c1.nr_running, 40u);
	std::set<unsigned> seen;
	for (unsigned cpu : { 0u, 1u })
		for (unsigned t : drain(cpu))
			EXPECT_TRUE(seen.insert(t).second) << "task " << t << " twice";
	EXPECT_EQ(seen.size(), 40u);
}

TEST_P(Engine, ResultFifoFullStallsTheEngineWithoutLoss)
{
	for (unsigned t = 0; t < 20; t++)
		ASSERT_EQ(hws_enqueue(d, t, 2, 100 + t, 0, 0), 0);
	// 12 PEEKs and 6 PICKs: 18 results, 2 more than RES_DEPTH, before any is read.
	for (unsigned i = 0; i < 12; i++)
		ASSERT_EQ(hws_submit(d, hws_cmd(HWS_OP_PEEK, 0, 0, 2, 0, 0)), 0);
	for (unsigned i = 0; i < 6; i++)
		ASSERT_EQ(hws_submit(d, hws_cmd(HWS_OP_PICK_NEXT, 0, 0, 2, 0, 0)), 0);
	uint32_t st;
	ASSERT_EQ(hws_sync(d, &st), 0) << "SYNC must not wait for a stall only software ends";
	// A command starts only with RES_DEPTH - 2 words waiting, so the 16th result fits
	// (its own slot was free when it started) and the 17th command does not start.
	EXPECT_EQ((st & HWS_STATUS_RES_LEVEL_MASK) >> HWS_STATUS_RES_LEVEL_LSB, 16u);
	EXPECT_NE(st & HWS_STATUS_RES_FULL_MASK, 0u);
	EXPECT_EQ(st & HWS_STATUS_CMD_LEVEL_MASK, 2u);
	for (unsigned i = 0; i < 18; i++) {
		uint32_t w;
		ASSERT_EQ(hws_result(d, &w), 0);
		unsigned want = i < 12 ? 0 : i - 12;
		EXPECT_EQ((w & HWS_RES_TASK_MASK) >> HWS_RES_TASK_LSB, want) << "result " << i;
	}
	EXPECT_EQ(counters(2).nr_running, 14u);
}

TEST_P(Engine, FillingTheTaskTableLosesNothing)
{
	const unsigned n = 256;
	for (unsigned t = 0; t < n; t++)
		ASSERT_EQ(hws_enqueue(d, t, t % 8, 100 + t % 40, t % 3 == 0, t % 5 == 0), 0)
			<< hws_errmsg(d);
	// One more: there is no free task, so it can only name a queued task or none.
	EXPECT_EQ(hws_enqueue(d, 17, 0, 120, 0, 0), -EEXIST);
	EXPECT_EQ(hws_enqueue(d, n, 0, 120, 0, 0), -ERANGE);
	uint32_t total = 0;
	for (unsigned cpu = 0; cpu < 8; cpu++)
		total += counters(cpu).nr_running;
	EXPECT_EQ(total, n);
	std::vector<int> seen(n, 0);
	for (unsigned cpu = 0; cpu < 8; cpu++)
		for (unsigned t : drain(cpu)) {
			ASSERT_LT(t, n);
			EXPECT_EQ(t % 8, cpu);
			seen[t]++;
		}
	for (unsigned t = 0; t < n; t++)
		EXPECT_EQ(seen[t], 1) << "task " << t;
}

// The spec's latencies (docs/accelerator.md, section 4.1), written here by hand: the RTL
// and the model both take theirs from the table regmap.def generates (HWS_LAT_*), so a
// test against HWS_LAT_* could not catch a wrong table. A failing command takes 1 cycle.
namespace spec {
constexpr unsigned NOP = 1, ENQUEUE = 2, DEQUEUE = 3, PICK_NEXT = 4, PEEK = 3, REQUEUE = 5,
		   SET_PRIO = 5, MIGRATE = 5, CPU_STAT = 2, TASK_STAT = 2, FAILED = 1;
}

// Every latency against the spec's, at occupancies from 1 to the whole table, with the
// target task at the head, the middle and the tail of a list as long as the occupancy (a
// walk along the list would show as a latency growing with the position or the length),
// and again with the tasks spread over every CPU and many priorities (a search of the
// bitmaps would show as a latency depending on the highest queued priority).
TEST_P(Engine, LatencyIsConstantWhateverTheOccupancy)
{
	// The measurement itself tells latencies apart (else the test could not fail).
	ASSERT_EQ(latency_of(hws_cmd(HWS_OP_NOP, 0, 0, 0, 0, 0)), spec::NOP);
	ASSERT_EQ(latency_of(hws_cmd(HWS_OP_ENQUEUE, 200, 120, 0, 0, 0)), spec::ENQUEUE);
	ASSERT_EQ(latency_of(hws_cmd(HWS_OP_REQUEUE, 200, 0, 0, 0, 0)), spec::REQUEUE);
	ASSERT_EQ(latency_of(hws_cmd(HWS_OP_DEQUEUE, 200, 0, 0, 0, 0)), spec::DEQUEUE);

	unsigned queued = 0;
	for (unsigned occ : { 1u, 2u, 16u, 128u, 254u }) {
		for (; queued < occ; queued++)
			ASSERT_EQ(hws_enqueue(d, queued, 0, 120, 0, 0), 0);
		for (unsigned pos : { 0u, occ / 2, occ - 1 }) {
			// After REQUEUE the task is at the tail: the next ones find others at pos.
			std::string at = "occupancy " + std::to_string(occ) + ", task " +
					 std::to_string(pos);
			EXPECT_EQ(latency_of(hws_cmd(HWS_OP_REQUEUE, pos, 0, 0, 0, 0)),
				  spec::REQUEUE) << at;
			EXPECT_EQ(latency_of(hws_cmd(HWS_OP_SET_PRIO, pos, 120, 0, 0, 0)),
				  spec::SET_PRIO) << at;
			EXPECT_EQ(latency_of(hws_cmd(HWS_OP_MIGRATE, pos, 0, 5, 0, 0)),
				  spec::MIGRATE) << at << " to CPU 5";
			EXPECT_EQ(latency_of(hws_cmd(HWS_OP_MIGRATE, pos, 0, 0, 0, 0)),
				  spec::MIGRATE) << at << " back";
			EXPECT_EQ(query_latency_of(hws_cmd(HWS_OP_TASK_STAT, pos, 0, 0, 0, 0)),
				  spec::TASK_STAT) << at;
			EXPECT_EQ(latency_of(hws_cmd(HWS_OP_DEQUEUE, pos, 0, 0, 0, 0)),
				  spec::DEQUEUE) << at;
			EXPECT_EQ(latency_of(hws_cmd(HWS_OP_ENQUEUE, pos, 120, 0, 0, 0)),
				  spec::ENQUEUE) << at << ", back at the tail";
		}
		EXPECT_EQ(latency_of(hws_cmd(HWS_OP_ENQUEUE, 255, 121, 0, 0, 0)), spec::ENQUEUE);
		EXPECT_EQ(latency_of(hws_cmd(HWS_OP_DEQUEUE, 255, 0, 0, 0, 0)), spec::DEQUEUE);
		EXPECT_EQ(latency_of(hws_cmd(HWS_OP_ENQUEUE, 1000, 0, 0, 0, 0), -ERANGE),
			  spec::FAILED) << "a failing command";
		EXPECT_EQ(query_latency_of(hws_cmd(HWS_OP_PEEK, 0, 0, 0, 0, 0)), spec::PEEK);
		EXPECT_EQ(query_latency_of(hws_cmd(HWS_OP_PEEK, 0, 0, 7, 0, 0)), spec::PEEK)
			<< "PEEK of an empty CPU takes as long";
		for (unsigned sel = 0; sel < HWS_SEL_CPU_STAT_COUNT; sel++)
			EXPECT_EQ(query_latency_of(hws_cmd(HWS_OP_CPU_STAT, 0, sel, 0, 0, 0)),
				  spec::CPU_STAT) << "selector " << sel << ", occupancy " << occ;
		EXPECT_EQ(query_latency_of(hws_cmd(HWS_OP_PICK_NEXT, 0, 0, 0, 0, 0)),
			  spec::PICK_NEXT) << "occupancy " << occ;
		ASSERT_EQ(hws_enqueue(d, (last_word_ & HWS_RES_TASK_MASK) >> HWS_RES_TASK_LSB, 0,
				      120, 0, 1), 0) << "put the picked task back";
		EXPECT_EQ(query_latency_of(hws_cmd(HWS_OP_PICK_NEXT, 0, 0, 7, 0, 0)),
			  spec::PICK_NEXT) << "NONE takes as long";
	}
	// Spread: every CPU, priorities 0..139 in both arrays, the highest on each CPU
	// somewhere else in the bitmap each time.
	for (unsigned t = 0; t < queued; t++)
		ASSERT_EQ(hws_dequeue(d, t), 0);
	for (unsigned t = 0; t < 250; t++)
		ASSERT_EQ(hws_enqueue(d, t, t % 8, (t * 37) % 140, (t / 8) % 2, 0), 0);
	EXPECT_EQ(latency_of(hws_cmd(HWS_OP_SET_PRIO, 100, 0, 0, 0, 0)), spec::SET_PRIO);
	EXPECT_EQ(latency_of(hws_cmd(HWS_OP_SET_PRIO, 101, 139, 0, 0, 0)), spec::SET_PRIO);
	for (unsigned cpu = 0; cpu < 8; cpu++) {
		EXPECT_EQ(query_latency_of(hws_cmd(HWS_OP_PEEK, 0, 0, cpu, 0, 0)), spec::PEEK)
			<< "CPU " << cpu;
		for (unsigned k = 0; k < 3; k++)
			EXPECT_EQ(query_latency_of(hws_cmd(HWS_OP_PICK_NEXT, 0, 0, cpu, 0, 0)),
				  spec::PICK_NEXT) << "CPU " << cpu << ", pick " << k;
	}
}

// The engine's AXI4-Lite address ports are ADDR_W = 10 bits wide (8 before the POP and
// PEEKW windows, docs/accelerator.md 4.4): an address beyond the 1 KB space reaches the
// register of its low 10 bits, on the model as on the RTL (fuzz_regs found the model
// answering SLVERR where the RTL answered ID; tests/fuzz/regress/regs/).
TEST_P(Engine, TheAddressPortIsTenBitsWide)
{
	EXPECT_EQ(reg(d, 0x400 + HWS_REG_ID), HWS_ID_VALUE);
	EXPECT_EQ(reg(d, 0xfc00 + HWS_REG_NR_CPUS), 8u);
	uint32_t v = 0;
	EXPECT_EQ(hws_reg_read(d, 0x400 + HWS_REG_CMD, &v), -EFAULT) << "CMD is write-only";
	EXPECT_EQ(hws_reg_read(d, 0x300 + HWS_REG_ID, &v), -EFAULT) << "0x300..0x3ff (CURR) is write-only";
}

TEST_P(Engine, SoftResetEmptiesEverything)
{
	for (unsigned t = 0; t < 30; t++)
		ASSERT_EQ(hws_enqueue(d, t, t % 4, 120, t % 2, 0), 0);
	ASSERT_TRUE(pick(0).found);
	uint32_t w;
	ASSERT_EQ(hws_result(d, &w), 0);	// an underflow to leave an error behind
	ASSERT_EQ(hws_soft_reset(d), 0);
	EXPECT_EQ(reg(d, HWS_REG_ERR_TOTAL), 0u);
	EXPECT_EQ(reg(d, HWS_REG_CMD_DONE), 0u);
	for (unsigned cpu = 0; cpu < 8; cpu++) {
		hws_cpu_counters c = counters(cpu);
		EXPECT_EQ(c.nr_running + c.load, 0u);
		EXPECT_FALSE(pick(cpu).found);
	}
	EXPECT_FALSE(task(3).queued);
	EXPECT_EQ(hws_enqueue(d, 3, 0, 120, 0, 0), 0) << "task 3 is free again";
}

// Spec section 2: RAM is not cleared by a reset, and nothing in it counts unless a flag says
// so. The bitmaps live in block RAM behind per-word summary flags: after a soft reset the
// words of a full array read 0, and the first task queued there is the only bit of its word.
TEST_P(Engine, BitmapsAreEmptyAfterASoftResetWhateverTheRamHeld)
{
	auto chunk = [&](unsigned cpu, unsigned sel) {
		uint32_t w = ~0u;
		EXPECT_EQ(hws_cpu_stat(d, cpu, sel, &w), 0) << hws_errmsg(d);
		return w;
	};
	const unsigned act7 = HWS_SEL_CPU_STAT_ACT_BM0 + 7, act8 = HWS_SEL_CPU_STAT_ACT_BM0 + 8;
	const unsigned prios[] = { 120, 121, 125, 139 };
	for (unsigned i = 0; i < 4; i++)
		ASSERT_EQ(hws_enqueue(d, i, 2, prios[i], 0, 0), 0) << hws_errmsg(d);
	ASSERT_EQ(hws_enqueue(d, 4, 2, 100, 1, 0), 0) << hws_errmsg(d);
	EXPECT_EQ(chunk(2, act7), (1u << 8) | (1u << 9) | (1u << 13));
	EXPECT_EQ(chunk(2, act8), 1u << 11) << "bits 140..143 of chunk 8 read 0";
	EXPECT_EQ(chunk(2, HWS_SEL_CPU_STAT_EXP_BM0 + 6), 1u << 4);

	ASSERT_EQ(hws_soft_reset(d), 0);
	for (unsigned k = 0; k < 9; k++) {
		EXPECT_EQ(chunk(2, HWS_SEL_CPU_STAT_ACT_BM0 + k), 0u) << "active chunk " << k;
		EXPECT_EQ(chunk(2, HWS_SEL_CPU_STAT_EXP_BM0 + k), 0u) << "expired chunk " << k;
	}
	hws_pick p{};
	ASSERT_EQ(hws_peek(d, 2, &p), 0);
	EXPECT_FALSE(p.found);

	ASSERT_EQ(hws_enqueue(d, 5, 2, 122, 0, 0), 0) << hws_errmsg(d);
	EXPECT_EQ(chunk(2, act7), 1u << 10) << "the stale bits of the word do not come back";
	ASSERT_EQ(hws_peek(d, 2, &p), 0);
	EXPECT_TRUE(p.found);
	EXPECT_EQ(p.task, 5u);
	EXPECT_EQ(p.prio, 122u);
	ASSERT_EQ(hws_enqueue(d, 6, 2, 139, 0, 0), 0) << hws_errmsg(d);
	EXPECT_EQ(chunk(2, act8), 1u << 11);
	ASSERT_EQ(hws_enqueue(d, 7, 2, 100, 1, 1), 0) << hws_errmsg(d);
	EXPECT_EQ(chunk(2, HWS_SEL_CPU_STAT_EXP_BM0 + 6), 1u << 4);
	ASSERT_EQ(hws_dequeue(d, 5), 0);
	EXPECT_EQ(chunk(2, act7), 0u);
	p = pick(2);
	EXPECT_TRUE(p.found);
	EXPECT_EQ(p.task, 6u);
	EXPECT_EQ(p.prio, 139u);
	EXPECT_FALSE(p.swapped);
	EXPECT_EQ(chunk(2, act8), 0u);
	p = pick(2);
	EXPECT_TRUE(p.found);
	EXPECT_EQ(p.task, 7u) << "active empty: the expired array's task, after a swap";
	EXPECT_TRUE(p.swapped);
	for (unsigned k = 0; k < 9; k++)
		EXPECT_EQ(chunk(2, HWS_SEL_CPU_STAT_ACT_BM0 + k) | chunk(2, HWS_SEL_CPU_STAT_EXP_BM0 + k),
			  0u) << "chunk " << k;
	EXPECT_FALSE(pick(2).found);
}

TEST_P(Engine, ErrClearZeroesTheErrorRegistersOnly)
{
	ASSERT_EQ(hws_enqueue(d, 1, 0, 120, 0, 0), 0);
	EXPECT_EQ(hws_dequeue(d, 2), -ENOENT);
	EXPECT_EQ(reg(d, HWS_REG_ERR_TOTAL), 1u);
	ASSERT_EQ(hws_reg_write(d, HWS_REG_CTRL, HWS_CTRL_ERR_CLEAR_MASK), 0);
	EXPECT_EQ(reg(d, HWS_REG_ERR_TOTAL), 0u);
	EXPECT_EQ(reg(d, HWS_REG_ERR_LAST), 0u);
	EXPECT_EQ(reg(d, HWS_REG_ERR_CNT6), 0u);
	EXPECT_TRUE(task(1).queued);
	EXPECT_GT(reg(d, HWS_REG_CMD_DONE), 0u);
}

TEST_P(Engine, BusTransactionsTakeTheDocumentedEdges)
{
	hws_bus_stats s0, s1;
	hws_get_bus_stats(d, &s0);
	(void)reg(d, HWS_REG_ID);
	hws_get_bus_stats(d, &s1);
	EXPECT_EQ(s1.edges - s0.edges, 2u) << "a read takes 2 edges";
	ASSERT_EQ(hws_reg_write(d, HWS_REG_CTRL, 0), 0);
	hws_get_bus_stats(d, &s0);
	EXPECT_EQ(s0.edges - s1.edges, 2u) << "a write takes 2 edges";
	// CYCLES counts edges: two reads 2 edges apart.
	uint32_t a = reg(d, HWS_REG_CYCLES), b = reg(d, HWS_REG_CYCLES);
	EXPECT_EQ(b - a, 2u);
}

// ---- Load-comparison unit, first part (docs/accelerator.md section 8) ----

TEST_P(Engine, LoadTickDecaysTheHistoryAndBoundsSourceAndTarget)
{
	auto lcu = [&](unsigned cpu, unsigned sel) {
		uint32_t v = 0;
		EXPECT_EQ(hws_lcu_stat(d, cpu, sel, 0, &v), 0) << hws_errmsg(d);
		return v;
	};
	ASSERT_EQ(hws_enqueue(d, 1, 2, 120, 0, 0), 0);	// load 1024
	EXPECT_EQ(lcu(2, HWS_SEL_LCU_STAT_HIST), 0u);
	EXPECT_EQ(lcu(2, HWS_SEL_LCU_STAT_SOURCE_LOAD), 0u);
	EXPECT_EQ(lcu(2, HWS_SEL_LCU_STAT_TARGET_LOAD), 1024u);
	ASSERT_EQ(hws_load_tick(d, 2), 0);
	EXPECT_EQ(lcu(2, HWS_SEL_LCU_STAT_HIST), 512u);
	ASSERT_EQ(hws_load_tick(d, 2), 0);
	EXPECT_EQ(lcu(2, HWS_SEL_LCU_STAT_HIST), 768u);
	ASSERT_EQ(hws_dequeue(d, 1), 0);
	EXPECT_EQ(lcu(2, HWS_SEL_LCU_STAT_SOURCE_LOAD), 0u);
	EXPECT_EQ(lcu(2, HWS_SEL_LCU_STAT_TARGET_LOAD), 768u);
	ASSERT_EQ(hws_load_tick(d, 2), 0);
	EXPECT_EQ(lcu(2, HWS_SEL_LCU_STAT_HIST), 384u);
	EXPECT_EQ(lcu(3, HWS_SEL_LCU_STAT_HIST), 0u) << "a tick touches its own CPU only";
	// The fixed point of the decay under a constant load.
	for (unsigned t = 0; t < 200; t++)
		ASSERT_EQ(hws_enqueue(d, t, 5, t % 100, 0, 0), 0);	// real time: 177522 each
	for (unsigned i = 0; i < 40; i++)
		ASSERT_EQ(hws_load_tick(d, 5), 0);
	EXPECT_EQ(lcu(5, HWS_SEL_LCU_STAT_HIST), 200u * 177522u - 1u)
		<< "(h + L) >> 1 from 0 reaches L - 1 and stays there";
}

TEST_P(Engine, GroupLoadsFollowEveryQueueCommand)
{
	auto gl = [&](unsigned cpu, unsigned g) {
		uint32_t v = 0;
		EXPECT_EQ(hws_lcu_stat(d, cpu, HWS_SEL_LCU_STAT_GROUP_LOAD, g, &v), 0);
		return v;
	};
	auto gt = [&](unsigned g) {
		uint32_t v = 0;
		EXPECT_EQ(hws_lcu_stat(d, 0, HWS_SEL_LCU_STAT_GROUP_TOTAL, g, &v), 0);
		return v;
	};
	ASSERT_EQ(hws_set_group(d, 1, 3), 0);	// before it is queued
	ASSERT_EQ(hws_set_group(d, 2, 3), 0);
	ASSERT_EQ(hws_set_group(d, 3, 15), 0);
	EXPECT_EQ(task(1).group, 3u);
	EXPECT_EQ(gt(3), 0u);
	ASSERT_EQ(hws_enqueue(d, 1, 0, 120, 0, 0), 0);	// 1024
	ASSERT_EQ(hws_enqueue(d, 2, 1, 110, 1, 0), 0);	// 9548
	ASSERT_EQ(hws_enqueue(d, 3, 0, 130, 0, 0), 0);	// 110
	ASSERT_EQ(hws_enqueue(d, 4, 0, 139, 0, 0), 0);	// 15, group 0
	EXPECT_EQ(gl(0, 3), 1024u);
	EXPECT_EQ(gl(1, 3), 9548u);
	EXPECT_EQ(gt(3), 1024u + 9548u);
	EXPECT_EQ(gl(0, 15), 110u);
	EXPECT_EQ(gl(0, 0), 15u);
	ASSERT_EQ(hws_migrate(d, 2, 0), 0);
	EXPECT_EQ(gl(1, 3), 0u);
	EXPECT_EQ(gl(0, 3), 1024u + 9548u);
	ASSERT_EQ(hws_set_prio(d, 1, 100), 0);	// 88761
	EXPECT_EQ(gl(0, 3), 88761u + 9548u);
	EXPECT_EQ(gt(3), 88761u + 9548u);
	ASSERT_EQ(hws_set_group(d, 1, 15), 0);	// while queued: its weight moves
	EXPECT_EQ(gl(0, 3), 9548u);
	EXPECT_EQ(gl(0, 15), 88761u + 110u);
	EXPECT_EQ(gt(15), 88761u + 110u);
	ASSERT_EQ(hws_requeue(d, 3), 0);
	EXPECT_EQ(gl(0, 15), 88761u + 110u);
	hws_pick p = pick(0);	// task 1, prio 100
	EXPECT_EQ(p.task, 1u);
	EXPECT_EQ(gl(0, 15), 110u);
	EXPECT_EQ(task(1).group, 15u) << "the group stays with a task that is not queued";
	ASSERT_EQ(hws_dequeue(d, 2), 0);
	ASSERT_EQ(hws_dequeue(d, 3), 0);
	ASSERT_EQ(hws_dequeue(d, 4), 0);
	for (unsigned g : { 0u, 3u, 15u }) {
		EXPECT_EQ(gt(g), 0u) << "group " << g;
		EXPECT_EQ(gl(0, g), 0u) << "group " << g;
	}
	ASSERT_EQ(hws_soft_reset(d), 0);
	EXPECT_EQ(task(1).group, 0u) << "reset puts every task back in group 0";
}

// The group sums are written one cycle after the update that asks for them (block RAM,
// docs/accelerator.md 8): a LCU_STAT queued right behind the update must still see it.
// The commands are queued first so that each pops at the edge the one before completes.
TEST_P(Engine, GroupLoadReadRightBehindItsUpdateSeesIt)
{
	ASSERT_EQ(hws_set_group(d, 7, 5), 0);
	ASSERT_EQ(hws_set_group(d, 8, 5), 0);
	const uint32_t gl5 = hws_cmd(HWS_OP_LCU_STAT, 5, HWS_SEL_LCU_STAT_GROUP_LOAD, 2, 0, 0);
	const uint32_t gt5 = hws_cmd(HWS_OP_LCU_STAT, 5, HWS_SEL_LCU_STAT_GROUP_TOTAL, 2, 0, 0);
	const uint32_t gt6 = hws_cmd(HWS_OP_LCU_STAT, 6, HWS_SEL_LCU_STAT_GROUP_TOTAL, 2, 0, 0);
	const uint32_t cmds[] = {
		hws_cmd(HWS_OP_ENQUEUE, 7, 120, 2, 0, 0), gl5,	// +1024
		hws_cmd(HWS_OP_ENQUEUE, 8, 100, 2, 0, 0), gt5,	// +88761
		hws_cmd(HWS_OP_DEQUEUE, 7, 0, 0, 0, 0), gl5,	// -1024
		hws_cmd(HWS_OP_SET_GROUP, 8, 6, 0, 0, 0), gt5, gt6,	// 88761 moves to group 6
		hws_cmd(HWS_OP_SET_GROUP, 8, 139, 0, 0, 1), gt6,	// SET_WEIGHT: now 15
	};
	const uint32_t want[] = { 1024, 1024 + 88761, 88761, 0, 88761, 15 };
	for (uint32_t c : cmds)
		ASSERT_EQ(hws_submit(d, c), 0);
	for (unsigned i = 0; i < sizeof want / sizeof want[0]; i++) {
		uint32_t w = 0;
		ASSERT_EQ(hws_result(d, &w), 0);
		EXPECT_EQ(w, want[i]) << "result " << i;
	}
	EXPECT_EQ(hws_sync(d, nullptr), 0);
}

TEST_P(Engine, IdleFlags)
{
	uint32_t v;
	ASSERT_EQ(hws_set_idle(d, 1, 1), 0);
	ASSERT_EQ(hws_set_idle(d, 3, 1), 0);
	ASSERT_EQ(hws_set_idle(d, 7, 1), 0);
	ASSERT_EQ(hws_set_idle(d, 1, 0), 0);
	ASSERT_EQ(hws_lcu_stat(d, 0, HWS_SEL_LCU_STAT_IDLE0, 0, &v), 0);
	EXPECT_EQ(v, (1u << 3) | (1u << 7));
	for (unsigned k = 1; k < 4; k++) {
		ASSERT_EQ(hws_lcu_stat(d, 0, HWS_SEL_LCU_STAT_IDLE0 + k, 0, &v), 0);
		EXPECT_EQ(v, 0u) << "chunk " << k;
	}
}

// ---- Domain table and placement queries (docs/accelerator.md section 8.1) ----

TEST_P(Engine, IdlestOnTheFlatMachineAfterReset)
{
	for (unsigned cpu = 0; cpu < 8; cpu++) {
		if (cpu == 5)
			continue;
		ASSERT_EQ(hws_enqueue(d, cpu, cpu, cpu == 2 ? 130 : 120, 0, 0), 0);
	}
	unsigned found = 99;
	ASSERT_EQ(hws_idlest(d, 2, 3, &found), 0) << hws_errmsg(d);
	EXPECT_EQ(found, 5u) << "level 3 spans every CPU after reset";
	ASSERT_EQ(hws_idlest(d, 2, 0, &found), 0);
	EXPECT_EQ(found, 2u) << "level 0's domain is the CPU alone after reset";
	ASSERT_EQ(hws_enqueue(d, 5, 5, 130, 0, 0), 0);	// CPU 5 now weighs 110, like CPU 2
	ASSERT_EQ(hws_idlest(d, 2, 3, &found), 0);
	EXPECT_EQ(found, 2u) << "a tie goes to the asking CPU";
	ASSERT_EQ(hws_idlest(d, 0, 3, &found), 0);
	EXPECT_EQ(found, 2u) << "else to the lowest CPU number";
}

TEST_P(Engine, IdleCoreOnSmtPairsInTwoPackages)
{
	for (unsigned cpu = 0; cpu < 8; cpu++) {
		ASSERT_EQ(hws_dom_set(d, cpu, 1, cpu & ~1u), 0) << hws_errmsg(d);	// SMT pairs
		ASSERT_EQ(hws_dom_set(d, cpu, 2, cpu & ~3u), 0);	// packages of 4
		ASSERT_EQ(hws_dom_set(d, cpu, 3, 0), 0);		// one node
	}
	// Level 1 (MC) spans a package, the LLC domain; level 2 spans the node.
	int found, whole;
	ASSERT_EQ(hws_idle_core(d, 0, 1, &found, &whole), 0);
	EXPECT_EQ(found, -1) << "nothing idle yet";
	for (unsigned cpu : { 1u, 4u, 5u })
		ASSERT_EQ(hws_set_idle(d, cpu, 1), 0);
	ASSERT_EQ(hws_idle_core(d, 0, 1, &found, &whole), 0);
	EXPECT_EQ(found, 1) << "package 0 has an idle CPU but no idle core";
	EXPECT_EQ(whole, 0);
	ASSERT_EQ(hws_idle_core(d, 0, 2, &found, &whole), 0);
	EXPECT_EQ(found, 4) << "the whole node: core 4/5 is idle";
	EXPECT_EQ(whole, 1);
	ASSERT_EQ(hws_idle_core(d, 6, 1, &found, &whole), 0);
	EXPECT_EQ(found, 4) << "scanning 6, 7, then wrapping to 4";
	EXPECT_EQ(whole, 1);
	ASSERT_EQ(hws_idle_core(d, 5, 0, &found, &whole), 0);
	EXPECT_EQ(found, 5) << "level 0: the SMT pair of CPU 5";
	unsigned c;
	ASSERT_EQ(hws_idlest(d, 1, 1, &c), 0);
	EXPECT_EQ(c, 1u) << "level 1 spans package 0; all loads 0: the asking CPU";
}

TEST_P(Engine, BadDomainTablesAndQueriesAreRefused)
{
	uint32_t w;
	const BadCase bad_sets[] = {
		{ "dom_set k=0", hws_cmd(HWS_OP_DOM_SET, 0, 0, 1, 0, 0), HWS_ERR_PRIO },
		{ "dom_set k=4", hws_cmd(HWS_OP_DOM_SET, 0, 4, 1, 0, 0), HWS_ERR_PRIO },
		{ "dom_set power 255", hws_cmd(HWS_OP_DOM_SET, 255, 7, 1, 0, 0), HWS_ERR_PRIO },
		{ "dom_set k=1 data bits", hws_cmd(HWS_OP_DOM_SET, 0, 9, 1, 0, 0), HWS_ERR_PRIO },
		{ "dom_set pct 99", hws_cmd(HWS_OP_DOM_SET, 99, 0, 0, 0, 0), HWS_ERR_PRIO },
		{ "dom_set pct bits 9:8", hws_cmd(HWS_OP_DOM_SET, 0x17d, 0, 0, 0, 0), HWS_ERR_PRIO },
		{ "dom_set pct cpu", hws_cmd(HWS_OP_DOM_SET, 125, 0, 8, 0, 0), HWS_ERR_CPU },
		{ "dom_set leader range", hws_cmd(HWS_OP_DOM_SET, 8, 1, 1, 0, 0), HWS_ERR_CPU },
		{ "dom_set cpu range", hws_cmd(HWS_OP_DOM_SET, 0, 1, 8, 0, 0), HWS_ERR_CPU },
	};
	for (const BadCase &bc : bad_sets) {
		ASSERT_EQ(hws_submit(d, bc.cmd), 0);
		EXPECT_EQ(hws_sync(d, nullptr), hws_err_errno(bc.code)) << bc.name;
		EXPECT_EQ(reg(d, HWS_REG_ERR_LAST), bc.code) << bc.name;
	}
	// CPU 2 named as led by CPU 3: P1 is inconsistent.
	ASSERT_EQ(hws_dom_set(d, 2, 1, 3), 0);
	const BadCase queries[] = {
		{ "reserved kind", hws_cmd(HWS_OP_QUERY, 0, 3, 0, 1, 1), HWS_ERR_OPCODE },
		{ "balance level 0 reads P1", hws_cmd(HWS_OP_QUERY, 0, 0, 0, 1, 0), HWS_ERR_DOMAIN },
		{ "balance idle type before domain", hws_cmd(HWS_OP_QUERY, 7, 0, 0, 1, 0),
		  HWS_ERR_TASK },
		{ "level range", hws_cmd(HWS_OP_QUERY, 0, 4, 0, 0, 0), HWS_ERR_PRIO },
		{ "cpu range", hws_cmd(HWS_OP_QUERY, 0, 4, 9, 0, 0), HWS_ERR_CPU },
		{ "idlest level 0 reads P1", hws_cmd(HWS_OP_QUERY, 0, 0, 0, 0, 0), HWS_ERR_DOMAIN },
		{ "idlest level 1 reads P1", hws_cmd(HWS_OP_QUERY, 0, 1, 0, 0, 0), HWS_ERR_DOMAIN },
		{ "idle_core reads P1", hws_cmd(HWS_OP_QUERY, 0, 3, 0, 0, 1), HWS_ERR_DOMAIN },
	};
	for (const BadCase &bc : queries) {
		ASSERT_EQ(hws_submit(d, bc.cmd), 0);
		ASSERT_EQ(hws_result(d, &w), 0);
		EXPECT_EQ(w, HWS_ERR_FLAG | bc.code) << bc.name;
		(void)reg(d, HWS_REG_STATUS);
	}
	EXPECT_EQ(reg(d, HWS_REG_ERR_CNT11), 4u);
	unsigned c;
	EXPECT_EQ(hws_idlest(d, 0, 2, &c), 0) << "levels 2 and 3 do not read P1";
	// A group that straddles two domains: P2 block {0..3} but CPU 2's P3 block differs.
	ASSERT_EQ(hws_dom_set(d, 2, 1, 2), 0);	// P1 fine again
	for (unsigned cpu = 0; cpu < 8; cpu++)
		ASSERT_EQ(hws_dom_set(d, cpu, 2, cpu & ~3u), 0);
	ASSERT_EQ(hws_dom_set(d, 2, 3, 2), 0);
	ASSERT_EQ(hws_dom_set(d, 3, 3, 2), 0);
	EXPECT_EQ(hws_idlest(d, 0, 2, &c), -EINVAL) << "P2 does not refine P3";
	EXPECT_NE(std::string(hws_errmsg(d)).find("DOMAIN"), std::string::npos) << hws_errmsg(d);
}

TEST_P(Engine, SetWeightMakesTheLoadFollowTheStaticPriority)
{
	// A nice-0 task on list 125 (no interactivity bonus) weighs 335 until SET_WEIGHT.
	ASSERT_EQ(hws_set_group(d, 7, 2), 0);
	ASSERT_EQ(hws_enqueue(d, 7, 3, 125, 0, 0), 0);
	uint32_t v;
	ASSERT_EQ(hws_cpu_stat(d, 3, HWS_SEL_CPU_STAT_LOAD, &v), 0);
	EXPECT_EQ(v, 335u);
	ASSERT_EQ(hws_set_weight(d, 7, 120), 0) << hws_errmsg(d);
	ASSERT_EQ(hws_cpu_stat(d, 3, HWS_SEL_CPU_STAT_LOAD, &v), 0);
	EXPECT_EQ(v, 1024u) << "the queued task's load changes at once";
	ASSERT_EQ(hws_lcu_stat(d, 3, HWS_SEL_LCU_STAT_GROUP_LOAD, 2, &v), 0);
	EXPECT_EQ(v, 1024u);
	ASSERT_EQ(hws_lcu_stat(d, 0, HWS_SEL_LCU_STAT_GROUP_TOTAL, 2, &v), 0);
	EXPECT_EQ(v, 1024u);
	ASSERT_EQ(hws_task_stat(d, 7, HWS_SEL_TASK_STAT_WEIGHT, &v), 0);
	EXPECT_EQ(v, 1024u);
	// It stays with the task across list changes and dequeues.
	ASSERT_EQ(hws_set_prio(d, 7, 115), 0);
	ASSERT_EQ(hws_migrate(d, 7, 5), 0);
	ASSERT_EQ(hws_cpu_stat(d, 5, HWS_SEL_CPU_STAT_LOAD, &v), 0);
	EXPECT_EQ(v, 1024u);
	ASSERT_EQ(hws_cpu_stat(d, 3, HWS_SEL_CPU_STAT_LOAD, &v), 0);
	EXPECT_EQ(v, 0u);
	ASSERT_EQ(hws_dequeue(d, 7), 0);
	ASSERT_EQ(hws_set_weight(d, 7, 100), 0);	// nice -20, while not queued
	ASSERT_EQ(hws_enqueue(d, 7, 1, 139, 1, 0), 0);
	ASSERT_EQ(hws_cpu_stat(d, 1, HWS_SEL_CPU_STAT_LOAD, &v), 0);
	EXPECT_EQ(v, 88761u);
	ASSERT_EQ(hws_set_weight(d, 7, 50), 0);	// real-time
	ASSERT_EQ(hws_cpu_stat(d, 1, HWS_SEL_CPU_STAT_LOAD, &v), 0);
	EXPECT_EQ(v, HWS_RT_WEIGHT);
	EXPECT_EQ(hws_set_weight(d, 7, 140), -ERANGE) << "PRIO";
	EXPECT_EQ(hws_set_weight(d, 256, 120), -ERANGE) << "TASK";
	ASSERT_EQ(hws_cpu_stat(d, 1, HWS_SEL_CPU_STAT_LOAD, &v), 0);
	EXPECT_EQ(v, HWS_RT_WEIGHT) << "failed SET_WEIGHTs change nothing";
	// A soft reset returns to list-priority weights.
	ASSERT_EQ(hws_reg_write(d, HWS_REG_CTRL, HWS_CTRL_SOFT_RESET_MASK), 0);
	ASSERT_EQ(hws_enqueue(d, 7, 1, 139, 0, 0), 0);
	ASSERT_EQ(hws_cpu_stat(d, 1, HWS_SEL_CPU_STAT_LOAD, &v), 0);
	EXPECT_EQ(v, 15u);
	ASSERT_EQ(hws_lcu_stat(d, 1, HWS_SEL_LCU_STAT_GROUP_LOAD, 0, &v), 0);
	EXPECT_EQ(v, 15u) << "in group 0 again";
	// PICK_NEXT reads its head's weight and group words with no valid bit (ENQUEUE wrote
	// them back as in force: wfix 0, group 0), so it takes the same 15 off group 0, not
	// the real-time weight from group 2 that the block RAM held before the reset.
	hws_pick p = pick(1);
	EXPECT_EQ(p.task, 7u);
	ASSERT_EQ(hws_cpu_stat(d, 1, HWS_SEL_CPU_STAT_LOAD, &v), 0);
	EXPECT_EQ(v, 0u);
	ASSERT_EQ(hws_lcu_stat(d, 1, HWS_SEL_LCU_STAT_GROUP_LOAD, 0, &v), 0);
	EXPECT_EQ(v, 0u);
	ASSERT_EQ(hws_lcu_stat(d, 1, HWS_SEL_LCU_STAT_GROUP_LOAD, 2, &v), 0);
	EXPECT_EQ(v, 0u);
	ASSERT_EQ(hws_task_stat(d, 7, HWS_SEL_TASK_STAT_GROUP, &v), 0);
	EXPECT_EQ(v, 0u);
}

// 8 CPUs as 2 NUMA nodes of 4 (no SMT): cores are CPUs, packages = nodes.
static void two_nodes_of_four(hws_dev *d)
{
	for (unsigned cpu = 0; cpu < 8; cpu++) {
		ASSERT_EQ(hws_dom_set(d, cpu, 2, cpu & ~3u), 0) << hws_errmsg(d);
		ASSERT_EQ(hws_dom_set(d, cpu, 3, cpu & ~3u), 0);
	}
	// Level 3 (NUMA) groups are the nodes: 4 CPUs, power 4096.
	ASSERT_EQ(hws_dom_set_power(d, 3, 0, 4096), 0);
	ASSERT_EQ(hws_dom_set_power(d, 3, 4, 4096), 0);
}

// two_nodes_of_four, then node 0: one nice-0 task on CPU 0; node 1: three on each of
// CPUs 4..7 (tasks 0..12). Returns the next free task.
static unsigned overloaded_node1(hws_dev *d)
{
	unsigned t = 0;
	two_nodes_of_four(d);
	EXPECT_EQ(hws_enqueue(d, t++, 0, 120, 0, 0), 0);
	for (unsigned cpu = 4; cpu < 8; cpu++)
		for (unsigned k = 0; k < 3; k++)
			EXPECT_EQ(hws_enqueue(d, t++, cpu, 120, 0, 0), 0);
	return t;
}

TEST_P(Engine, BalanceFindsTheOverloadedNodeAndTheDocumentedImbalance)
{
	unsigned t = overloaded_node1(d);
	ASSERT_FALSE(HasFailure());
	// CPU 1, idle, balances the top level (loads now).
	//   node 0: 1024 * 1024 / 4096 = 256; node 1: 12288 * 1024 / 4096 = 3072;
	//   avg = 13312 * 1024 / 8192 = 1664; 100 * 3072 > 125 * 256;
	//   imbalance = min(3072 - 1664, 1664 - 256) * min(4096, 4096) / 1024 = 5632 >= 1024.
	hws_bal b;
	ASSERT_EQ(hws_balance_query(d, 1, 3, 1, &b), 0) << hws_errmsg(d);
	EXPECT_EQ(b.verdict, 6u) << "MOVE";
	EXPECT_EQ(b.busiest, 4);
	EXPECT_EQ(b.busiest_cpu, 4) << "CPUs 4..7 tie: the lowest";
	EXPECT_EQ(b.this_group, 0u);
	EXPECT_EQ(b.this_load, 256u);
	EXPECT_EQ(b.max_load, 3072u);
	EXPECT_EQ(b.avg_load, 1664u);
	EXPECT_EQ(b.imbalance, 5632u);
	// A heavier CPU 6 is the one to pull from.
	ASSERT_EQ(hws_enqueue(d, t++, 6, 120, 0, 0), 0);
	ASSERT_EQ(hws_balance_query(d, 1, 3, 2, &b), 0);
	EXPECT_EQ(b.busiest_cpu, 6);
	// Busy CPU 0 without history: other CPUs' source_load = min(hist 0, now) = 0.
	ASSERT_EQ(hws_balance_query(d, 0, 3, 0, &b), 0);
	EXPECT_EQ(b.verdict, 1u) << "NO_BUSIEST";
	EXPECT_EQ(b.busiest, -1);
	EXPECT_EQ(b.avg_load, 0u);
	EXPECT_EQ(b.imbalance, 0u);
	// After a LOAD_TICK everywhere hist = now / 2: node 1's source load is half.
	for (unsigned cpu = 0; cpu < 8; cpu++)
		ASSERT_EQ(hws_load_tick(d, cpu), 0);
	ASSERT_EQ(hws_balance_query(d, 0, 3, 0, &b), 0);
	// node 0 (local, target_load = now): 256; node 1: (1536 * 3 + 2048) * 1024 / 4096 = 1664;
	// avg = (1024 + 6656) * 1024 / 8192 = 960; imbalance = min(704, 704) * 4096 / 1024.
	EXPECT_EQ(b.verdict, 6u);
	EXPECT_EQ(b.max_load, 1664u);
	EXPECT_EQ(b.avg_load, 960u);
	EXPECT_EQ(b.imbalance, 2816u);
}

TEST_P(Engine, BalanceVerdictAloneIsOneQueryAndTheLoadsAreReadOnDemand)
{
	overloaded_node1(d);
	ASSERT_FALSE(HasFailure());
	hws_bal full, b;
	ASSERT_EQ(hws_balance_query(d, 1, 3, 1, &full), 0) << hws_errmsg(d);
	ASSERT_EQ(full.verdict, 6u) << "MOVE (the documented case above)";
	hws_bus_stats s0, s1;
	hws_get_bus_stats(d, &s0);
	memset(&b, 0xa5, sizeof(b));
	ASSERT_EQ(hws_balance_verdict(d, 1, 3, 1, &b), 0) << hws_errmsg(d);
	hws_get_bus_stats(d, &s1);
	EXPECT_EQ(s1.writes - s0.writes, 1u) << "the CMD write";
	EXPECT_EQ(s1.reads - s0.reads, 1u) << "the RESULT read, no BAL_* register";
	EXPECT_EQ(b.verdict, full.verdict);
	EXPECT_EQ(b.busiest, full.busiest);
	EXPECT_EQ(b.busiest_cpu, full.busiest_cpu);
	EXPECT_EQ(b.this_group, full.this_group);
	EXPECT_EQ(b.this_load + b.max_load + b.avg_load + b.imbalance, 0u) << "not read yet";
	// Two of the four: one read each, the others left as they were.
	b.avg_load = 77;
	ASSERT_EQ(hws_balance_loads(d, HWS_BAL_RD_MAX | HWS_BAL_RD_IMB, &b), 0) << hws_errmsg(d);
	hws_get_bus_stats(d, &s0);
	EXPECT_EQ(s0.reads - s1.reads, 2u);
	EXPECT_EQ(s0.writes, s1.writes);
	EXPECT_EQ(b.max_load, full.max_load);
	EXPECT_EQ(b.imbalance, full.imbalance);
	EXPECT_EQ(b.this_load, 0u);
	EXPECT_EQ(b.avg_load, 77u);
	ASSERT_EQ(hws_balance_loads(d, HWS_BAL_RD_ALL, &b), 0);
	EXPECT_EQ(b.this_load, full.this_load);
	EXPECT_EQ(b.avg_load, full.avg_load);
	// A mask with a bit outside the four: refused, nothing read, nothing changed.
	hws_get_bus_stats(d, &s1);
	EXPECT_EQ(hws_balance_loads(d, HWS_BAL_RD_ALL + 1, &b), -EINVAL);
	EXPECT_NE(std::string(hws_errmsg(d)).find("mask"), std::string::npos) << hws_errmsg(d);
	hws_get_bus_stats(d, &s0);
	EXPECT_EQ(s0.reads, s1.reads);
	EXPECT_EQ(b.max_load, full.max_load);
}

TEST_P(Engine, BalanceAnswersBalancedDomainsAndTheSmallImbalanceRules)
{
	two_nodes_of_four(d);
	for (unsigned cpu = 0; cpu < 8; cpu++)
		ASSERT_EQ(hws_enqueue(d, cpu, cpu, 120, 0, 0), 0);
	hws_bal b;
	ASSERT_EQ(hws_balance_query(d, 2, 3, 1, &b), 0);
	EXPECT_EQ(b.verdict, 2u) << "THIS_IS_MAX: both nodes 1024";
	EXPECT_EQ(b.busiest, 4);
	EXPECT_EQ(b.this_load, 1024u);
	EXPECT_EQ(b.avg_load, 0u) << "not reached";
	// Level 2's domain is the node, its groups single CPUs (power 1024 after reset).
	ASSERT_EQ(hws_enqueue(d, 8, 5, 120, 0, 0), 0);	// CPU 5: 2048
	// Level 1 (MC) spans the package (here the node); its groups are single CPUs.
	ASSERT_EQ(hws_balance_query(d, 4, 1, 1, &b), 0);
	// this 1024, max 2048, avg 5120 * 1024 / 4096 = 1280; 100 * 2048 > 125 * 1024;
	// imbalance = min(768, 256) * 1024 / 1024 = 256 < 1024; the gap 1024 < 2048;
	// pwr_now = (1024 * 1024 + 1024 * 1024) / 1024 = 2048; tmp = 1024;
	// pwr_move = (1024 * 1024 + 1024 * min(1024, 1024 + 2048)) / 1024 = 2048 < 2048 + 128.
	EXPECT_EQ(b.verdict, 5u) << "NO_GAIN";
	EXPECT_EQ(b.busiest, 5);
	EXPECT_EQ(b.busiest_cpu, -1);
	EXPECT_EQ(b.imbalance, 0u);
	// An idle CPU beside a CPU with two tasks: moving one puts a CPU to use.
	ASSERT_EQ(hws_dequeue(d, 4), 0);	// CPU 4 now empty
	ASSERT_EQ(hws_balance_query(d, 4, 1, 1, &b), 0);
	// this 0, max 2048, avg 4096 * 1024 / 4096 = 1024, imbalance = min(1024, 1024) = 1024.
	EXPECT_EQ(b.verdict, 6u) << "MOVE";
	EXPECT_EQ(b.busiest_cpu, 5);
	EXPECT_EQ(b.imbalance, 1024u);
	// imbalance_pct: with 1.5 tasks per CPU on node 1 vs 1.25 on node 0, level 3.
	ASSERT_EQ(hws_enqueue(d, 4, 4, 120, 0, 0), 0);
	ASSERT_EQ(hws_enqueue(d, 9, 6, 120, 0, 0), 0);
	ASSERT_EQ(hws_enqueue(d, 10, 0, 120, 0, 0), 0);
	// node 0: 5120 -> 1280; node 1: 6144 -> 1536; 100 * 1536 <= 125 * 1280.
	ASSERT_EQ(hws_balance_query(d, 1, 3, 1, &b), 0);
	EXPECT_EQ(b.verdict, 4u) << "WITHIN_PCT (this 1280 < avg 1408)";
	ASSERT_EQ(hws_dom_set_pct(d, 3, 110), 0);
	ASSERT_EQ(hws_balance_query(d, 1, 3, 1, &b), 0);
	// 110%: past the margin; imbalance = min(128, 128) * 4096 / 1024 = 512, and
	// pwr_move = 4096 * 1024 / 1024 * 2 = 8192 < pwr_now 8192 + 128.
	EXPECT_EQ(b.verdict, 5u) << "NO_GAIN";
	EXPECT_EQ(b.avg_load, 1408u);
}

// The spec's formula (docs/accelerator.md 8.2), written out here rather than taken from the
// model: 8 + 2 max(2, ceil(log2 NR_CPUS)) cycles, whatever the groups.
static unsigned spec_balance_latency(unsigned cpus)
{
	unsigned lg = 0;
	while ((1u << lg) < cpus)
		lg++;
	return 8 + 2 * std::max(2u, lg);
}

TEST_P(Engine, BalanceLatencyIsTheSameForEveryGroupCountAndBadBalancesChangeNothing)
{
	// 8 CPUs: 8 + 2 x 3 = 14 cycles. After reset level 3 spans all 8 CPUs, each a group.
	ASSERT_EQ(spec_balance_latency(8), 14u);
	EXPECT_EQ(HWS_BAL_LAT_BASE + HWS_BAL_LAT_LEVEL * (3 + 3), 14u)
		<< "the register map agrees (a lane per CPU: no extra pass, two trees of 3 levels)";
	EXPECT_EQ(query_latency_of(hws_cmd(HWS_OP_QUERY, 0, 3, 0, 1, 0)), 14u) << "8 groups";
	two_nodes_of_four(d);
	EXPECT_EQ(query_latency_of(hws_cmd(HWS_OP_QUERY, 1, 3, 5, 1, 0)), 14u) << "2 groups";
	EXPECT_EQ(query_latency_of(hws_cmd(HWS_OP_QUERY, 2, 0, 5, 1, 0)), 14u)
		<< "level 0: one CPU, one group";
	EXPECT_EQ(query_latency_of(hws_cmd(HWS_OP_QUERY, 0, 2, 6, 1, 0)), 14u)
		<< "level 2: a node of 4 single-CPU groups, busy CPU";
	ASSERT_EQ(hws_enqueue(d, 0, 6, 120, 0, 0), 0);
	hws_bal good, b;
	ASSERT_EQ(hws_balance_query(d, 0, 3, 1, &good), 0);
	uint32_t done = reg(d, HWS_REG_CMD_DONE);
	EXPECT_EQ(hws_balance_query(d, 8, 3, 0, &b), -ERANGE);
	EXPECT_EQ(hws_balance_query(d, 0, 4, 0, &b), -ERANGE);
	EXPECT_EQ(hws_balance_query(d, 0, 3, 3, &b), -ERANGE);
	ASSERT_EQ(hws_dom_set(d, 1, 1, 2), 0);	// P1 broken: CPU 1 led by CPU 2
	EXPECT_EQ(hws_balance_query(d, 0, 1, 0, &b), -EINVAL);
	EXPECT_EQ(reg(d, HWS_REG_BAL_THIS), good.this_load);
	EXPECT_EQ(reg(d, HWS_REG_BAL_MAX), good.max_load);
	EXPECT_EQ(reg(d, HWS_REG_BAL_AVG), good.avg_load);
	EXPECT_EQ(reg(d, HWS_REG_BAL_IMB), good.imbalance);
	EXPECT_EQ(good.max_load, 256u) << "node 1: 1024 * 1024 / 4096";
	EXPECT_EQ(good.avg_load, 128u);
	EXPECT_EQ(reg(d, HWS_REG_CMD_DONE), done + 5);
	// A failing BALANCE takes 1 cycle like every failing command.
	EXPECT_EQ(latency_of(hws_cmd(HWS_OP_QUERY, 0, 4, 0, 1, 0), -ERANGE), 1u);
}

// The same at 1, 2, 8 and 64 CPUs (the RTL variants of the build) and at every group count
// a domain of them can have: flat (every CPU a group), nodes of 4 or of 16, one group.
TEST_P(Engine, BalanceLatencyIsLogarithmicInTheCpus)
{
	struct shape {
		unsigned cpus, tasks, depth, want;
	};
	for (shape sh : { shape{ 1, 16, 16, 12 }, shape{ 2, 16, 4, 12 }, shape{ 8, 16, 16, 14 },
			  shape{ 64, 256, 16, 20 } }) {
		SCOPED_TRACE("cpus " + std::to_string(sh.cpus));
		ASSERT_EQ(spec_balance_latency(sh.cpus), sh.want);
		d_.reset(hwstest::open_dev(GetParam(), sh.cpus, sh.tasks, sh.depth, 0));
		ASSERT_NE(d_, nullptr);
		d = d_.get();
		// flat: level 3 spans every CPU, each a group (NR_CPUS groups)
		for (unsigned t = 0; t < std::min(sh.tasks, 3 * sh.cpus); t++)
			ASSERT_EQ(hws_enqueue(d, t, t % sh.cpus, 100 + t % 40, 0, 0), 0);
		for (unsigned idle = 0; idle < 3; idle++)
			EXPECT_EQ(query_latency_of(hws_cmd(HWS_OP_QUERY, 0, 3, sh.cpus - 1, 1, 0)
						   | idle << HWS_CMD_TASK_LSB), sh.want)
				<< "flat, idle type " << idle;
		// nodes of 4 (and of 16 at 64 CPUs) at level 3, single CPUs at level 2
		for (unsigned node : { 4u, 16u }) {
			if (sh.cpus < node)
				continue;
			for (unsigned x = 0; x < sh.cpus; x++) {
				ASSERT_EQ(hws_dom_set(d, x, 3, x - x % node), 0);
				if (x % node == 0) {
					ASSERT_EQ(hws_dom_set_power(d, 3, x, node * 1024), 0);
				}
			}
			EXPECT_EQ(query_latency_of(hws_cmd(HWS_OP_QUERY, 0, 3, 1, 1, 0)), sh.want)
				<< sh.cpus / node << " groups of " << node;
			EXPECT_EQ(query_latency_of(hws_cmd(HWS_OP_QUERY, 0, 2, 1, 1, 0)), sh.want)
				<< node << " groups of 1";
		}
		EXPECT_EQ(query_latency_of(hws_cmd(HWS_OP_QUERY, 0, 0, 0, 1, 0)), sh.want)
			<< "one group";
	}
}

// Every quotient of BALANCE is the integer formula's (the RTL divides for real, 8.3): at
// the width limits of the largest engine, 64 CPUs x 4096 real-time tasks (load sums near
// 2^30, history sums near 2^36 for this_load), with the smallest and the largest powers
// and random ones, at every level and idle type. Lockstep compares every answer and every
// BAL_* register with the model, whose hws_find_busiest() divides in 64-bit C; the test
// also checks a few by hand.
TEST_P(Engine, BalanceQuotientsAreExactAtTheWidthLimits)
{
	d_.reset(hwstest::open_dev(GetParam(), 64, 4096, 16, 0));
	ASSERT_NE(d_, nullptr);
	d = d_.get();
	// 4096 real-time tasks (weight 177522) piled onto CPUs 8..63, most on the last ones.
	for (unsigned t = 0; t < 4096; t++)
		ASSERT_EQ(hws_enqueue(d, t, t < 2048 ? 63 - t % 8 : 8 + t % 56, t % 100, 0, 0), 0);
	for (unsigned k = 0; k < 20; k++)
		for (unsigned x = 0; x < 64; x++)
			ASSERT_EQ(hws_load_tick(d, x), 0);
	// The load moves away: histories stay near the old (large) loads.
	for (unsigned t = 0; t < 2048; t++)
		ASSERT_EQ(hws_migrate(d, t, t % 8), 0);
	// Nodes of 16, packages of 8, cores of 2.
	for (unsigned x = 0; x < 64; x++) {
		ASSERT_EQ(hws_dom_set(d, x, 1, x & ~1u), 0);
		ASSERT_EQ(hws_dom_set(d, x, 2, x & ~7u), 0);
		ASSERT_EQ(hws_dom_set(d, x, 3, x & ~15u), 0);
	}
	uint64_t s = 99;
	auto rnd = [&s]() {
		s = s * 6364136223846793005ULL + 1442695040888963407ULL;
		return (uint32_t)(s >> 33);
	};
	for (unsigned round = 0; round < 6; round++) {
		for (unsigned l = 0; l < 4; l++)
			for (unsigned x = 0; x < 64; x++) {
				uint32_t p = round == 0 ? 256 : round == 1 ? 131071
					   : 256 + rnd() % (131072 - 256);
				ASSERT_EQ(hws_dom_set_power(d, l, x, p), 0);
			}
		for (unsigned q = 0; q < 24; q++) {
			hws_bal b;
			ASSERT_EQ(hws_balance_query(d, rnd() % 64, q % 4, (q / 4) % 3, &b), 0)
				<< hws_errmsg(d);
		}
	}
	// By hand: every power 256 (round 0 again), level 3 from CPU 0 (node 0 = CPUs 0..15),
	// loads now (idle): node 0 holds 2048 tasks on CPUs 0..7 and 56/56 of the rest ...
	for (unsigned l = 0; l < 4; l++)
		for (unsigned x = 0; x < 64; x++)
			ASSERT_EQ(hws_dom_set_power(d, l, x, 256), 0);
	hws_bal b;
	ASSERT_EQ(hws_balance_query(d, 0, 3, 1, &b), 0);
	// node sums (loads now): CPUs 0..7 hold tasks 0..2047, CPUs 8..15 the tasks 2048..4095
	// with 8 + t % 56 in 8..15; every task weighs 177522.
	uint64_t tasks[4] = { 2048, 0, 0, 0 };
	for (unsigned t = 2048; t < 4096; t++)
		tasks[(8 + t % 56) / 16]++;
	uint64_t q[4];
	for (unsigned n = 0; n < 4; n++)
		q[n] = tasks[n] * 177522 * 1024 / 256;
	unsigned busiest = q[1] >= q[2] && q[1] >= q[3] ? 1 : q[2] >= q[3] ? 2 : 3;
	EXPECT_EQ(b.this_load, (uint32_t)q[0]);
	EXPECT_EQ(b.max_load, (uint32_t)q[busiest]);
	EXPECT_EQ(b.busiest, (int)busiest * 16);
	EXPECT_EQ(b.verdict, 2u) << "THIS_IS_MAX: node 0 holds half the tasks";
}

// The small-FPGA build (LCU_BALANCE=0, shape 8x256x16g16nb): FEATURES says so, BALANCE is
// refused with OPCODE before any other check and changes nothing, and everything else,
// including the placement queries and the loads firmware balances from, still works.
class EngineNoBalance : public Engine {
protected:
	void SetUp() override
	{
		d_.reset(hwstest::open_dev(GetParam(), 8, 256, 16, 1, nullptr, true));
		ASSERT_NE(d_, nullptr);
		d = d_.get();
	}
};

TEST_P(EngineNoBalance, BalanceIsRefusedWithOpcodeAndTheRestWorks)
{
	EXPECT_EQ(reg(d, HWS_REG_FEATURES) & HWS_FEATURES_BALANCE_MASK, 0u);
	ASSERT_EQ(hws_enqueue(d, 1, 2, 120, 0, 0), 0);
	ASSERT_EQ(hws_enqueue(d, 2, 2, 100, 0, 0), 0);
	ASSERT_EQ(hws_load_tick(d, 2), 0);
	// DOM_SET of powers and imbalance_pct is still checked and accepted.
	EXPECT_EQ(hws_dom_set_power(d, 1, 0, 2048), 0) << hws_errmsg(d);
	EXPECT_EQ(hws_dom_set_pct(d, 1, 117), 0) << hws_errmsg(d);
	// The driver does not send it...
	hws_bal b;
	EXPECT_EQ(hws_balance_query(d, 0, 0, 1, &b), -EOPNOTSUPP);
	EXPECT_NE(std::string(hws_errmsg(d)).find("without"), std::string::npos);
	// ...and the engine refuses it: legal fields, and fields that would fail CPU, PRIO,
	// TASK or DOMAIN with the unit built, all fail OPCODE in one cycle.
	const uint32_t cmds[] = {
		hws_cmd(HWS_OP_QUERY, 1, 3, 0, 1, 0),	// legal with the unit
		hws_cmd(HWS_OP_QUERY, 0, 0, 9, 1, 0),	// CPU 9 of 8
		hws_cmd(HWS_OP_QUERY, 0, 7, 0, 1, 0),	// level 7
		hws_cmd(HWS_OP_QUERY, 5, 1, 0, 1, 0),	// idle type 5
	};
	uint32_t e0 = reg(d, HWS_REG_ERR_CNT1), c0 = reg(d, HWS_REG_CMD_DONE);
	for (uint32_t c : cmds) {
		EXPECT_EQ(latency_of(c, 1), 1u) << std::hex << c;
		uint32_t w = 0;
		ASSERT_EQ(hws_result(d, &w), 0);
		EXPECT_EQ(w, HWS_ERR_FLAG | HWS_ERR_OPCODE) << std::hex << c;
		EXPECT_EQ(reg(d, HWS_REG_ERR_LAST), (uint32_t)HWS_ERR_OPCODE);
		EXPECT_EQ(reg(d, HWS_REG_ERR_CMD), c);
	}
	EXPECT_EQ(reg(d, HWS_REG_ERR_CNT1) - e0, 4u);
	EXPECT_EQ(reg(d, HWS_REG_CMD_DONE) - c0, 4u * 3u);	// each probe adds two NOPs
	for (uint32_t a = HWS_REG_BAL_THIS; a <= HWS_REG_BAL_IMB; a += 4)
		EXPECT_EQ(reg(d, a), 0u);
	// Nothing changed: the queue, the loads, the other queries.
	uint32_t v = 0;
	ASSERT_EQ(hws_cpu_stat(d, 2, HWS_SEL_CPU_STAT_NR_RUNNING, &v), 0);
	EXPECT_EQ(v, 2u);
	ASSERT_EQ(hws_cpu_stat(d, 2, HWS_SEL_CPU_STAT_LOAD, &v), 0);
	const uint32_t load = kLinuxWeights[20] + kLinuxWeights[0];	// prio 120 and 100
	EXPECT_EQ(v, load);
	ASSERT_EQ(hws_lcu_stat(d, 2, HWS_SEL_LCU_STAT_HIST, 0, &v), 0);
	EXPECT_EQ(v, load / 2) << "LOAD_TICK from 0";
	unsigned idlest = 99;
	ASSERT_EQ(hws_idlest(d, 2, 3, &idlest), 0) << hws_errmsg(d);
	EXPECT_EQ(idlest, 0u) << "the lowest of the empty CPUs";
	hws_pick p{};
	ASSERT_EQ(hws_pick_next(d, 2, &p), 0);
	EXPECT_TRUE(p.found);
	EXPECT_EQ(p.task, 2u);
}

TEST_P(Engine, TheDefaultBuildReportsItsOptionalUnits)
{
	// FEATURES.PIPE: 1 on model:pipe (PIPE = 1, docs/accelerator.md 4.1.1) alone
	const bool pipe = std::string(GetParam()) == "model:pipe";
	EXPECT_EQ(reg(d, HWS_REG_FEATURES),
		  HWS_FEATURES_BALANCE_MASK | HWS_FEATURES_ERR_COUNTERS_MASK | HWS_FEATURES_IRQ_MASK |
			  8u << HWS_FEATURES_BAL_LANES_LSB | (pipe ? HWS_FEATURES_PIPE_MASK : 0u))
		<< "a BALANCE lane per CPU";
}

// One error of each code a test can make without timing (OVERFLOW needs a full FIFO):
// OPCODE, TASK, CPU, PRIO, QUEUED, NOTQUEUED, UNDERFLOW, ADDR, GROUP, DOMAIN. Returns the
// number of errors made.
static unsigned make_one_error_of_each_code(hws_dev *d)
{
	const uint32_t cmds[] = {
		hws_cmd(HWS_OP_QUERY, 0, 0, 0, 1, 1),		// kind 3: OPCODE
		hws_cmd(HWS_OP_ENQUEUE, 300, 120, 0, 0, 0),	// TASK (256 tasks)
		hws_cmd(HWS_OP_ENQUEUE, 1, 120, 9, 0, 0),	// CPU (8 CPUs)
		hws_cmd(HWS_OP_ENQUEUE, 1, 140, 0, 0, 0),	// PRIO
		hws_cmd(HWS_OP_ENQUEUE, 1, 120, 0, 0, 0),	// fine...
		hws_cmd(HWS_OP_ENQUEUE, 1, 120, 0, 0, 0),	// ...then QUEUED
		hws_cmd(HWS_OP_DEQUEUE, 2, 0, 0, 0, 0),		// NOTQUEUED
		hws_cmd(HWS_OP_SET_GROUP, 1, 16, 0, 0, 0),	// GROUP (16 groups)
		hws_cmd(HWS_OP_DOM_SET, 1, 1, 0, 0, 0),		// P1: CPU 0 led by 1 (fine)...
		hws_cmd(HWS_OP_QUERY, 0, 0, 0, 0, 0),		// ...IDLEST at level 0: DOMAIN
	};
	uint32_t v = 0;
	for (uint32_t c : cmds)
		EXPECT_EQ(hws_submit(d, c), 0) << std::hex << c;
	(void)reg(d, HWS_REG_SYNC);
	while (hws_result(d, &v) == 0 && v != (HWS_ERR_FLAG | HWS_ERR_UNDERFLOW))
		;
	EXPECT_EQ(v, HWS_ERR_FLAG | HWS_ERR_UNDERFLOW) << "the result FIFO drained";
	EXPECT_EQ(hws_reg_read(d, 0x3c, &v), -EFAULT);	// unmapped: ADDR
	return 10;	// eight of the commands, UNDERFLOW, ADDR
}

// The build without the per-code counters (ERR_COUNTERS=0, shape 8x256x16g16nbne, the one
// that fits an HX8K): FEATURES says so, every error is still recorded in ERR_TOTAL,
// ERR_LAST, ERR_CMD and STATUS.ERR, and ERR_CNTn read 0. The same errors on an engine with
// the counters (the model) show what they would have counted.
class EngineNoErrCounters : public Engine {
protected:
	void SetUp() override
	{
		d_.reset(hwstest::open_dev(GetParam(), 8, 256, 16, 1, nullptr, true, true));
		ASSERT_NE(d_, nullptr);
		d = d_.get();
	}
};

TEST_P(EngineNoErrCounters, ErrorsAreRecordedButNotCountedByCode)
{
	EXPECT_EQ(reg(d, HWS_REG_FEATURES), HWS_FEATURES_IRQ_MASK)
		<< "neither BALANCE nor the counters; the interrupt is built";
	std::unique_ptr<hws_dev, hwstest::DevCloser> ref(hwstest::open_dev("model"));
	ASSERT_NE(ref, nullptr);
	const unsigned n = make_one_error_of_each_code(d);
	EXPECT_EQ(make_one_error_of_each_code(ref.get()), n);

	uint32_t counted = 0;
	unsigned codes = 0;
	for (uint32_t a = HWS_REG_ERR_CNT1; a <= HWS_REG_ERR_CNT11; a += 4) {
		EXPECT_EQ(reg(d, a), 0u) << "ERR_CNT" << (a - HWS_REG_ERR_TOTAL) / 4;
		counted += reg(ref.get(), a);
		codes += reg(ref.get(), a) != 0;
	}
	EXPECT_EQ(counted, n) << "the engine with counters counts every error by its code";
	EXPECT_EQ(codes, 10u) << "all but OVERFLOW";
	EXPECT_EQ(reg(d, HWS_REG_ERR_TOTAL), n);
	EXPECT_EQ(reg(ref.get(), HWS_REG_ERR_TOTAL), n);
	EXPECT_EQ(reg(d, HWS_REG_ERR_LAST), (uint32_t)HWS_ERR_ADDR);
	EXPECT_EQ(reg(d, HWS_REG_ERR_CMD), 0x3cu);
	EXPECT_NE(reg(d, HWS_REG_STATUS) & HWS_STATUS_ERR_MASK, 0u);
	EXPECT_EQ(reg(d, HWS_REG_CMD_DONE), reg(ref.get(), HWS_REG_CMD_DONE));
	EXPECT_EQ(hws_reg_write(d, HWS_REG_CTRL, HWS_CTRL_ERR_CLEAR_MASK), 0);
	EXPECT_EQ(reg(d, HWS_REG_ERR_TOTAL), 0u);
	EXPECT_EQ(reg(d, HWS_REG_ERR_LAST), 0u);
}

INSTANTIATE_TEST_SUITE_P(Backends, EngineNoErrCounters,
			 ::testing::Values("model", "rtl",
					   "lockstep"),
			 [](const ::testing::TestParamInfo<const char *> &i) {
				 return std::string(i.param);
			 });

INSTANTIATE_TEST_SUITE_P(Backends, EngineNoBalance,
			 ::testing::Values("model", "rtl",
					   "lockstep"),
			 [](const ::testing::TestParamInfo<const char *> &i) {
				 return std::string(i.param);
			 });

INSTANTIATE_TEST_SUITE_P(Backends, Engine,
			 ::testing::Values("model", "rtl",
					   "lockstep", "model:pipe"),
			 [](const ::testing::TestParamInfo<const char *> &i) {
				 std::string n(i.param);
				 return n == "model:pipe" ? std::string("model_pipe") : n;
			 });

} // namespace
