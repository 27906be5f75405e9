// stim_test.cc - the random command streams of sim/stim/hws_randcmd.c on the model
// backend: the model's invariants hold under them (and a corruption is found), and a
// stream exercises every opcode and every error code. Also built with ASan + UBSan.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>

#include "sim/stim/hws_randcmd.h"
#include "tests/test_util.h"

namespace {

// A random stream on a model-backend device; the seed is printed with any failure.
void random_run(hws_dev *d, uint64_t seed, uint64_t commands, unsigned check_every,
		hws_randcmd_report *r)
{
	hws_randcmd_opts o{};
	o.seed = seed;
	o.commands = commands;
	o.check_every = check_every;
	EXPECT_EQ(hws_randcmd_run(d, &o, r), 0) << "seed " << seed << ": " << r->msg;
}

TEST(ModelCheck, InvariantsHoldUnderARandomStreamAndACorruptionIsFound)
{
	const uint64_t seed = hwstest::seed_from_env(7);
	hws_dev *d = hwstest::open_dev("model", 4, 64);
	ASSERT_NE(d, nullptr);
	hws_randcmd_report r{};
	random_run(d, seed, 50000, 50, &r);
	EXPECT_GT(r.fills, 0u) << "seed " << seed;
	EXPECT_GT(r.drains, 0u) << "seed " << seed;
	EXPECT_EQ(hws_check(d), 0) << hws_errmsg(d);
	// From a clean engine, queue something, then corrupt one counter: the checker must
	// name it.
	ASSERT_EQ(hws_reg_write(d, HWS_REG_CTRL, HWS_CTRL_SOFT_RESET_MASK), 0);
	ASSERT_EQ(hws_enqueue(d, 1, 2, 120, 0, 0), 0);
	ASSERT_EQ(hws_inject_model_fault(d, 2), 0);
	EXPECT_EQ(hws_check(d), -EPROTO);
	EXPECT_NE(std::strstr(hws_errmsg(d), "cpu 2: load"), nullptr) << hws_errmsg(d);
	hws_close(d);
}

TEST(ModelRandom, EveryErrorCodeAndOpcodeIsExercised)
{
	const uint64_t seed = hwstest::seed_from_env(11);
	hws_dev *d = hwstest::open_dev("model", 8, 256);
	ASSERT_NE(d, nullptr);
	hws_randcmd_report r{};
	random_run(d, seed, 200000, 5000, &r);
	ASSERT_FALSE(r.failed);
	for (unsigned op = 0; op <= HWS_OP_QUERY; op++)
		EXPECT_GT(r.by_op[op], 0u) << "opcode " << op << " never generated, seed " << seed;
	for (unsigned code = 1; code < HWS_ERR_CODES; code++)
		EXPECT_GT(r.errors[code], 0u) << hws_err_name(code) << " never seen, seed " << seed;
	EXPECT_EQ(r.max_occupancy, 256u) << "seed " << seed;
	hws_close(d);
}

} // namespace
