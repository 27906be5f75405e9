// reset_test.cc - the engine's reset pin asserted with commands in flight (hws_reset(),
// the transports' reset(), hwsched lockstep --resets): the model and the RTL both return
// to the reset state and go on agreeing; and a reset of the model that differs from the
// RTL's is caught by the lockstep comparison (a planted difference in a test transport
// wrapped around the RTL: the production code is not touched).
#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <string>

#include "hws/transport.h"
#include "lib/hws_params.h"
#include "models/hws_model.h"
#include "sim/stim/hws_randcmd.h"
#include "tests/test_util.h"

namespace {

// The reset values, from the register map's descriptions (docs/accelerator.md), for an
// engine of @cpus x @tasks with 16-deep FIFOs, 16 groups and every optional unit.
struct RegWant {
	uint32_t off, val;
};

std::vector<RegWant> reset_values(unsigned cpus, unsigned tasks)
{
	return {
		{ HWS_REG_STATUS, 0 }, { HWS_REG_ID, HWS_ID_VALUE }, { HWS_REG_NR_CPUS, cpus },
		{ HWS_REG_NR_TASKS, tasks }, { HWS_REG_DEPTHS, 16u | 16u << 8 },
		{ HWS_REG_NR_GROUPS, 16 },
		{ HWS_REG_FEATURES, HWS_FEATURES_BALANCE_MASK | HWS_FEATURES_ERR_COUNTERS_MASK |
					    HWS_FEATURES_IRQ_MASK | cpus << HWS_FEATURES_BAL_LANES_LSB },
		{ HWS_REG_CMD_DONE, 0 },
		{ HWS_REG_ERR_LAST, 0 }, { HWS_REG_ERR_CMD, 0 }, { HWS_REG_ERR_SEQ, 0 },
		{ HWS_REG_ERR_TOTAL, 0 }, { HWS_REG_ERR_CNT1, 0 }, { HWS_REG_ERR_CNT2, 0 },
		{ HWS_REG_ERR_CNT3, 0 }, { HWS_REG_ERR_CNT4, 0 }, { HWS_REG_ERR_CNT5, 0 },
		{ HWS_REG_ERR_CNT6, 0 }, { HWS_REG_ERR_CNT7, 0 }, { HWS_REG_ERR_CNT8, 0 },
		{ HWS_REG_ERR_CNT9, 0 }, { HWS_REG_ERR_CNT10, 0 }, { HWS_REG_ERR_CNT11, 0 },
		{ HWS_REG_BAL_THIS, 0 }, { HWS_REG_BAL_MAX, 0 }, { HWS_REG_BAL_AVG, 0 },
		{ HWS_REG_BAL_IMB, 0 },
	};
}

// Leave the engine busy with state: tasks queued, a group, a topology change, an error
// recorded, a BALANCE answered; then a burst of commands written and not waited for.
// Returns the STATUS read right after the burst (commands must still be in flight).
uint32_t load_and_leave_in_flight(hws_dev *d)
{
	for (unsigned t = 0; t < 40; t++)
		EXPECT_EQ(hws_enqueue(d, t, t % 8, 100 + t % 40, 0, 0), 0) << hws_errmsg(d);
	EXPECT_EQ(hws_set_group(d, 3, 5), 0) << hws_errmsg(d);
	EXPECT_EQ(hws_dom_set(d, 1, 1, 0), 0) << hws_errmsg(d);
	EXPECT_EQ(hws_enqueue(d, 3, 0, 120, 0, 0), -EEXIST) << hws_errmsg(d);	// QUEUED
	hws_bal bal{};
	EXPECT_EQ(hws_balance_query(d, 0, 0, 0, &bal), 0) << hws_errmsg(d);
	// The burst: twelve commands back to back, PICK_NEXTs among them (result words).
	for (unsigned i = 0; i < 12; i++) {
		uint32_t w = i % 3 == 0 ? hws_cmd(HWS_OP_PICK_NEXT, 0, 0, i % 8, 0, 0) :
					  hws_cmd(HWS_OP_ENQUEUE, 100 + i, 120, i % 8, 0, 0);
		EXPECT_EQ(hws_submit(d, w), 0) << hws_errmsg(d);
	}
	uint32_t st = 0;
	EXPECT_EQ(hws_reg_read(d, HWS_REG_STATUS, &st), 0) << hws_errmsg(d);
	return st;
}

// After a reset: every readable register reads its reset value, no CPU holds a task, no
// task is queued or in a group, the result FIFO is empty.
void expect_reset_state(hws_dev *d, unsigned cpus, unsigned tasks)
{
	for (const RegWant &w : reset_values(cpus, tasks)) {
		uint32_t v = 0xdeadbeef;
		ASSERT_EQ(hws_reg_read(d, w.off, &v), 0) << hws_errmsg(d);
		EXPECT_EQ(v, w.val) << hws_reg_name(w.off) << " after the reset";
	}
	uint32_t cyc = 0;
	ASSERT_EQ(hws_reg_read(d, HWS_REG_CYCLES, &cyc), 0) << hws_errmsg(d);
	EXPECT_LT(cyc, 200u) << "CYCLES counts from the reset";
	for (unsigned c = 0; c < cpus; c++) {
		hws_cpu_counters cc{};
		ASSERT_EQ(hws_read_cpu_counters(d, c, &cc), 0) << hws_errmsg(d);
		EXPECT_EQ(cc.nr_running + cc.load, 0u) << "cpu " << c;
	}
	for (unsigned t = 0; t < tasks; t++) {
		hws_task_state ts{};
		ASSERT_EQ(hws_read_task_state(d, t, &ts), 0) << hws_errmsg(d);
		EXPECT_FALSE(ts.queued) << "task " << t;
		EXPECT_EQ(ts.group, 0u) << "task " << t;
	}
	uint32_t w = 0;
	ASSERT_EQ(hws_result(d, &w), 0) << hws_errmsg(d);
	EXPECT_EQ(w, HWS_ERR_FLAG | HWS_ERR_UNDERFLOW) << "the result FIFO was emptied";
	ASSERT_EQ(hws_reg_read(d, HWS_REG_STATUS, &w), 0) << hws_errmsg(d);	// ERR seen
}

// The model and the RTL in lockstep (every read above compared between them), reset with
// commands in the FIFO: both read the reset values, and agree on what follows.
TEST(EngineReset, CommandsInFlightLeaveNothingAndLockstepGoesOn)
{
	hws_dev *d = hwstest::open_dev("lockstep", 8, 256);
	ASSERT_NE(d, nullptr);
	uint32_t st = load_and_leave_in_flight(d);
	EXPECT_NE(st & (HWS_STATUS_CMD_LEVEL_MASK | HWS_STATUS_BUSY_MASK), 0u)
		<< "commands in flight at the reset, STATUS 0x" << std::hex << st;
	ASSERT_EQ(hws_reset(d), 0) << hws_errmsg(d);
	expect_reset_state(d, 8, 256);
	// Going on: a task queued before the reset enqueues again, and is picked.
	ASSERT_EQ(hws_enqueue(d, 3, 2, 110, 0, 0), 0) << hws_errmsg(d);
	hws_pick p{};
	ASSERT_EQ(hws_pick_next(d, 2, &p), 0) << hws_errmsg(d);
	EXPECT_TRUE(p.found);
	EXPECT_EQ(p.task, 3u);
	// And a random stream with resets cut into its bursts, every answer compared.
	const uint64_t seed = hwstest::seed_from_env(2020);
	hws_randcmd_opts o{};
	o.seed = seed;
	o.commands = 30000;
	o.resets = 0.25;
	auto r = std::make_unique<hws_randcmd_report>();
	EXPECT_EQ(hws_randcmd_run(d, &o, r.get()), 0) << "seed " << seed << ": " << r->msg;
	EXPECT_GT(r->resets, 20u) << "seed " << seed;
	EXPECT_GT(r->resets_seen_busy, 0u) << "seed " << seed;
	hws_close(d);
}

// Each backend alone: the model and the RTL each return to the same reset state.
TEST(EngineReset, EachBackendAloneReadsTheResetValues)
{
	for (const char *b : { "model", "rtl" }) {
		SCOPED_TRACE(b);
		hws_dev *d = hwstest::open_dev(b, 8, 256);
		ASSERT_NE(d, nullptr);
		load_and_leave_in_flight(d);
		ASSERT_EQ(hws_reset(d), 0) << hws_errmsg(d);
		expect_reset_state(d, 8, 256);
		hws_close(d);
	}
}

// ---- A reset that differs between the sides is caught ---------------------------------

// The RTL behind a test transport whose reset() is wrong on purpose, in one of these ways
// (HONEST forwards it: the control).
enum class Plant { HONEST, FORGETS, KEEPS_A_TASK, ONE_EDGE_SHORT };

struct PlantedRtl {
	hws_transport rtl{};
	Plant plant;
	hws_transport tp{};

	static hws_transport &in(void *c) { return static_cast<PlantedRtl *>(c)->rtl; }
	static unsigned rd(void *c, unsigned m, uint32_t a, uint32_t *d, uint32_t *r, double *ns)
	{
		return in(c).ops->read(in(c).ctx, m, a, d, r, ns);
	}
	static unsigned wr(void *c, unsigned m, uint32_t a, uint32_t d, uint32_t s, uint32_t *r,
			   double *ns)
	{
		return in(c).ops->write(in(c).ctx, m, a, d, s, r, ns);
	}
	static void idle(void *c, unsigned e, double *ns) { in(c).ops->idle(in(c).ctx, e, ns); }
	static unsigned reset(void *c, uint32_t *r, double *ns)
	{
		auto *p = static_cast<PlantedRtl *>(c);
		hws_transport &t = p->rtl;
		unsigned e;

		switch (p->plant) {
		case Plant::FORGETS:	// the RTL keeps whatever it held
			*r = HWS_RESP_OKAY;
			return HWS_RESET_EDGES;
		case Plant::KEEPS_A_TASK: {	// reset, then one task slips in unseen
			uint32_t wr_resp;
			double n = 0;
			e = t.ops->reset(t.ctx, r, ns);
			t.ops->write(t.ctx, 0, HWS_REG_CMD, hws_cmd(HWS_OP_ENQUEUE, 7, 120, 1, 0, 0),
				     0xf, &wr_resp, &n);
			t.ops->idle(t.ctx, 8, &n);
			return e;
		}
		case Plant::ONE_EDGE_SHORT:
			return t.ops->reset(t.ctx, r, ns) - 1;
		default:
			return t.ops->reset(t.ctx, r, ns);
		}
	}
	static constexpr hws_transport_ops ops = { rd, wr, idle, nullptr, nullptr, nullptr,
						   nullptr, nullptr, reset };

	explicit PlantedRtl(Plant pl) : plant(pl)
	{
		hws_backend_args a{};
		char msg[512];
		hws_params_default(&a.params);
		EXPECT_EQ(hws_transport_open("rtl", &a, &rtl, msg, sizeof(msg)), 0) << msg;
		tp = { &ops, this, "rtl", 0 };
	}
	~PlantedRtl() { hws_transport_close(&rtl); }
};

// The model beside the planted RTL, through hws_lockstep_create(); a random stream whose
// every command burst is cut by a reset.
int stream_with_resets(Plant pl, std::string *msg)
{
	PlantedRtl rtl(pl);
	hws_transport ref{}, pair{};
	hws_backend_args a{};
	char m[512];
	hws_params_default(&a.params);
	EXPECT_EQ(hws_transport_open("model", &a, &ref, m, sizeof(m)), 0) << m;
	hws_transport dut = rtl.tp;
	EXPECT_EQ(hws_lockstep_create(&ref, &dut, &pair), 0);
	EXPECT_NE(pair.ops->reset, nullptr) << "both sides can be reset: so can the pair";
	hws_config c;
	hws_config_default(&c);
	c.transport = &pair;
	hws_dev *d = nullptr;
	EXPECT_EQ(hws_open(&d, &c, m, sizeof(m)), 0) << m;
	hws_randcmd_opts o{};
	o.seed = hwstest::seed_from_env(5);
	o.commands = 20000;
	o.resets = 1;
	auto r = std::make_unique<hws_randcmd_report>();
	int ret = d ? hws_randcmd_run(d, &o, r.get()) : -EINVAL;
	*msg = r->msg;
	EXPECT_GT(r->resets, 0u) << "seed " << o.seed;
	hws_close(d);
	pair.ops->destroy(pair.ctx);	// the model; the planted side is closed by its owner
	(void)dut;
	return ret;
}

TEST(EngineReset, TheStreamWithResetsPassesOnAnHonestPair)
{
	std::string msg;
	EXPECT_EQ(stream_with_resets(Plant::HONEST, &msg), 0) << msg;
}

class PlantedReset : public ::testing::TestWithParam<Plant> {};

std::string plant_name(const ::testing::TestParamInfo<Plant> &i)
{
	static const char *const n[] = { "honest", "forgets", "keeps_a_task", "one_edge_short" };
	return n[static_cast<int>(i.param)];
}

TEST_P(PlantedReset, AResetOfTheModelThatDiffersFromTheRtlsIsCaught)
{
	std::string msg;
	EXPECT_EQ(stream_with_resets(GetParam(), &msg), -EIO) << msg;
	EXPECT_NE(msg.find("lockstep mismatch"), std::string::npos) << msg;
}

INSTANTIATE_TEST_SUITE_P(Plants, PlantedReset,
			 ::testing::Values(Plant::FORGETS, Plant::KEEPS_A_TASK,
					   Plant::ONE_EDGE_SHORT),
			 plant_name);

// A transport without reset (a board, a caller's bus): hws_reset() says so, and a pair
// with such a side has no reset either.
TEST(EngineReset, ATransportWithoutResetRefusesIt)
{
	struct NoReset {
		static unsigned rd(void *c, unsigned, uint32_t a, uint32_t *d, uint32_t *r,
				   double *)
		{
			return hws_model_read(static_cast<hws_model *>(c), a, d, r);
		}
		static unsigned wr(void *c, unsigned, uint32_t a, uint32_t d, uint32_t s,
				   uint32_t *r, double *)
		{
			return hws_model_write(static_cast<hws_model *>(c), a, d, s, r);
		}
		static void idle(void *c, unsigned e, double *)
		{
			hws_model_idle(static_cast<hws_model *>(c), e);
		}
	};
	static constexpr hws_transport_ops ops = { NoReset::rd, NoReset::wr, NoReset::idle,
						   nullptr, nullptr, nullptr, nullptr, nullptr,
						   nullptr };
	hws_params p;
	hws_params_default(&p);
	hws_model *m = nullptr;
	ASSERT_EQ(hws_model_create(&m, &p), 0);
	hws_transport tp = { &ops, m, "board", 0 };
	hws_dev *d = hwstest::open_dev("tlm", 8, 256, 16, 0, &tp);
	ASSERT_NE(d, nullptr);
	EXPECT_EQ(hws_reset(d), -ENOTSUP);
	EXPECT_NE(std::strstr(hws_errmsg(d), "cannot drive the engine's reset"), nullptr)
		<< hws_errmsg(d);
	hws_close(d);
	hws_model_destroy(m);
}

} // namespace
