// axi_order_test.cc - the AXI4-Lite slave with every legal channel order and back-pressure
// (docs/accelerator.md 4.2): a master that sends W before AW (or AW before W) has its write taken with
// its own address and data, and the model stays edge for edge with the RTL whatever the
// master's timing (lib/hws_bus_timing.h).
//
// Seeds: HWS_SEED overrides each test's default; a failure prints the seed.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <string>

#include "hws/hws.h"
#include "hws/regs.h"
#include "lib/hws_bus_timing.h"
#include "models/hws_model.h"
#include "sim/harness/hws_vsim.h"
#include "sim/stim/hws_randcmd.h"
#include "tests/test_util.h"

namespace {

struct Pair {
	hws_vsim *s = nullptr;
	hws_model *m = nullptr;

	Pair()
	{
		hws_vsim_opts o{};
		hws_params p{};
		char msg[256];

		o.nr_cpus = p.nr_cpus = 8;
		o.nr_tasks = p.nr_tasks = 256;
		o.cmd_depth = p.cmd_depth = 16;
		o.res_depth = p.res_depth = 16;
		o.nr_groups = p.nr_groups = HWS_DEF_GROUPS;
		EXPECT_EQ(hws_vsim_create(&s, &o, msg, sizeof(msg)), 0) << msg;
		EXPECT_EQ(hws_model_create(&m, &p), 0);
	}
	~Pair()
	{
		hws_vsim_destroy(s);
		hws_model_destroy(m);
	}

	// A write on both, with the same timing: the response and the edges must agree.
	uint32_t write(const hws_bus_timing &t, uint32_t addr, uint32_t data)
	{
		uint32_t rr = 9, mr = 9;
		unsigned re = hws_vsim_write_timed(s, &t, addr, data, 0xf, &rr);
		unsigned me = hws_model_write_timed(m, &t, addr, data, 0xf, &mr);

		EXPECT_EQ(re, me) << "write 0x" << std::hex << addr;
		EXPECT_EQ(re, hws_bus_timing_write_edges(&t));
		EXPECT_EQ(rr, mr);
		return rr;
	}
	uint32_t read(const hws_bus_timing &t, uint32_t addr, uint32_t *resp = nullptr)
	{
		uint32_t rd = 0, rr = 9, md = 1, mr = 9;
		unsigned re = hws_vsim_read_timed(s, &t, addr, &rd, &rr);
		unsigned me = hws_model_read_timed(m, &t, addr, &md, &mr);

		EXPECT_EQ(re, me) << "read 0x" << std::hex << addr;
		EXPECT_EQ(rd, md) << "read 0x" << std::hex << addr;
		EXPECT_EQ(rr, mr);
		if (resp)
			*resp = rr;
		return rd;
	}
};

uint32_t task_of(uint32_t res)
{
	return (res & HWS_RES_TASK_MASK) >> HWS_RES_TASK_LSB;
}

uint32_t prio_of(uint32_t res)
{
	return (res & HWS_RES_PRIO_MASK) >> HWS_RES_PRIO_LSB;
}

// The bug: W handshaken three edges before AW. The old slave took the W beat and
// dropped it, and the master waited for BRESP forever (HWS_RESP_NONE after the harness's
// limit). Now the write is taken when AW comes, with W's data: the task is queued where
// the data said, and PEEK (written AW first) returns it.
TEST(AxiOrder, WBeforeAwWriteCompletesWithItsData)
{
	Pair p;
	ASSERT_NE(p.s, nullptr);
	ASSERT_NE(p.m, nullptr);
	const hws_bus_timing w_first = { 3, 0, 0, 0 }, aw_first = { 0, 5, 0, 2 };
	const hws_bus_timing late_ar = { 0, 0, 4, 3 };

	EXPECT_EQ(p.write(w_first, HWS_REG_CMD, hws_cmd(HWS_OP_ENQUEUE, 37, 101, 2, 0, 0)),
		  HWS_RESP_OKAY);
	EXPECT_EQ(p.write(aw_first, HWS_REG_CMD, hws_cmd(HWS_OP_PEEK, 0, 0, 2, 0, 0)),
		  HWS_RESP_OKAY);
	uint32_t resp = 9, res = p.read(late_ar, HWS_REG_RESULT, &resp);
	EXPECT_EQ(resp, HWS_RESP_OKAY);
	EXPECT_EQ(res & (HWS_RES_ERR_MASK | HWS_RES_NONE_MASK), 0u) << std::hex << res;
	EXPECT_EQ(task_of(res), 37u);
	EXPECT_EQ(prio_of(res), 101u);
	EXPECT_EQ(p.read(late_ar, HWS_REG_CMD_DONE), 2u);
	EXPECT_EQ(p.read(w_first, HWS_REG_ERR_TOTAL), 0u);

	// A bad write taken W first still names its own address: SLVERR, ERR_CMD = address.
	EXPECT_EQ(p.write(w_first, HWS_REG_STATUS, 0x1234), HWS_RESP_SLVERR);
	EXPECT_EQ(p.read(aw_first, HWS_REG_ERR_LAST), (uint32_t)HWS_ERR_ADDR);
	EXPECT_EQ(p.read(aw_first, HWS_REG_ERR_CMD), (uint32_t)HWS_REG_STATUS);
}

// Every order and stall on its own, each checked on RTL and model alike: the edges a write
// takes are max(aw_delay, w_delay) + 2 + resp_stall, and the data follows its write.
TEST(AxiOrder, EveryOrderAndStallTakesItsEdges)
{
	Pair p;
	ASSERT_NE(p.s, nullptr);
	unsigned task = 0;

	for (unsigned aw = 0; aw <= 3; aw++)
		for (unsigned w = 0; w <= 3; w++)
			for (unsigned st = 0; st <= 2; st++) {
				const hws_bus_timing t = { aw, w, aw + w, st };
				uint32_t prio = 100 + task % 40;

				p.write(t, HWS_REG_CMD,
					hws_cmd(HWS_OP_ENQUEUE, task, prio, 1, 0, 1));
				p.write(t, HWS_REG_CMD, hws_cmd(HWS_OP_PEEK, 0, 0, 1, 0, 0));
				uint32_t res = p.read(t, HWS_REG_RESULT);
				EXPECT_EQ(task_of(res), task) << aw << "/" << w << "/" << st;
				EXPECT_EQ(prio_of(res), prio);
				p.write(t, HWS_REG_CMD, hws_cmd(HWS_OP_DEQUEUE, task, 0, 0, 0, 0));
				task++;
			}
	const hws_bus_timing ref = { 0, 0, 0, 0 };
	EXPECT_EQ(p.read(ref, HWS_REG_ERR_TOTAL), 0u);
}

// Lockstep (model against RTL, every answer and every edge compared) over random commands
// with a random channel order and random BREADY/RREADY stalls on every transaction.
// Random commands on @backend with the master random (@bus_random) or the reference.
hws_randcmd_report run_random(const char *backend, unsigned bus_random, uint64_t seed,
			      uint64_t commands, unsigned cpus = 2, unsigned tasks = 16,
			      unsigned depth = 4)
{
	hws_config c;
	hws_dev *d = nullptr;
	char msg[512];
	hws_randcmd_report r{};

	hws_config_default(&c);
	c.backend = backend;
	c.nr_cpus = cpus;
	c.nr_tasks = tasks;
	c.cmd_depth = c.res_depth = depth;
	c.deep_check = std::string(backend) == "model" ? 0 : (cpus * 280 + tasks) / 4;
	c.bus_random = bus_random;
	c.bus_seed = seed;
	EXPECT_EQ(hws_open(&d, &c, msg, sizeof(msg)), 0) << msg;
	if (!d) {
		r.failed = 1;
		return r;
	}
	hws_randcmd_opts o{};
	o.seed = seed;
	o.commands = commands;
	o.check_every = 1000;
	EXPECT_EQ(hws_randcmd_run(d, &o, &r), 0) << backend << ", seed " << seed << ": " << r.msg;
	hws_close(d);
	return r;
}

// Lockstep (model against RTL, every answer and every edge compared) over random commands
// with a random channel order and random BREADY/RREADY stalls on every transaction.
TEST(AxiOrder, LockstepWithRandomChannelOrdersAndBackPressure)
{
	const uint64_t seed = hwstest::seed_from_env(2112);
	const uint64_t n = 100000;
	printf("[ seed     ] %llu\n", (unsigned long long)seed);

	hws_randcmd_report r = run_random("lockstep", 1, seed, n);
	EXPECT_EQ(r.commands, n) << "seed " << seed;
	EXPECT_GT(r.drains, 0u) << "seed " << seed;
	// The master really was another: the same stream with the reference master (on the
	// model alone) takes fewer edges.
	hws_randcmd_report ref = run_random("model", 0, seed, n);
	EXPECT_LT(ref.edges, r.edges) << "seed " << seed;
}

// The same on the default engine (8 CPUs, 256 tasks, FIFOs of 16).
TEST(AxiOrder, LockstepWithRandomChannelOrdersDefaultEngine)
{
	const uint64_t seed = hwstest::seed_from_env(2113);
	const uint64_t n = 300000;
	printf("[ seed     ] %llu\n", (unsigned long long)seed);

	hws_randcmd_report r = run_random("lockstep", 1, seed, n, 8, 256, 16);
	EXPECT_EQ(r.commands, n) << "seed " << seed;
	EXPECT_GE(r.max_occupancy, 256u) << "never filled the table, seed " << seed;
}

} // namespace
