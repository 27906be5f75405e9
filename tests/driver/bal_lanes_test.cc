// BALANCE with fewer lanes than CPUs (parameter BAL_LANES, docs/accelerator.md 8.2) and the
// area-lean serial unit (LCU_LEAN, 8.2.1): the answers are those of the fast unit with a lane
// per CPU, the latency is the register map's formula (written out here from its constants,
// not taken from the model), and FEATURES reports the lanes and the lean unit. On the model,
// the RTL and lockstep, at 8 and 4 CPUs with 1, 2, 3 (8 CPUs) and NR_CPUS lanes, and the
// lean unit at 8, 4 and 3 CPUs. Random: the seed is printed on failure; HWS_TEST_SEED
// overrides it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "hws/hws.h"
#include "hws/regs.h"
#include "tests/test_util.h"

namespace {

unsigned ceil_log2(unsigned n)
{
	unsigned lg = 0;
	while ((1u << lg) < n)
		lg++;
	return lg;
}

// BAL_LAT_BASE + BAL_LAT_PASS x (ceil(N / L) - 1) + BAL_LAT_LEVEL x (max(MIN_LG, lg L) +
// max(MIN_LG, lg N)): the register map's description of BAL_LAT_BASE.
unsigned spec_latency(unsigned cpus, unsigned lanes)
{
	const unsigned passes = (cpus + lanes - 1) / lanes;
	return HWS_BAL_LAT_BASE + HWS_BAL_LAT_PASS * (passes - 1) +
	       HWS_BAL_LAT_LEVEL * (std::max(HWS_BAL_LAT_MIN_LG, ceil_log2(lanes)) +
				    std::max(HWS_BAL_LAT_MIN_LG, ceil_log2(cpus)));
}

// BAL_LEAN_BASE + BAL_LEAN_CPU x N + N^2: the register map's description of BAL_LEAN_BASE.
unsigned spec_latency_lean(unsigned cpus)
{
	return HWS_BAL_LEAN_BASE + HWS_BAL_LEAN_CPU * cpus + cpus * cpus;
}

struct Shape {
	unsigned cpus, lanes;
	bool lean;
};

// The shapes: 8 and 4 CPUs (16 tasks, FIFOs of 16) with 1, 2, (3) and NR_CPUS lanes; the
// lean unit at 8, 4 and 3 CPUs.
const Shape kShapes[] = { { 8, 1, false }, { 8, 2, false }, { 8, 3, false }, { 8, 8, false },
			  { 4, 1, false }, { 4, 2, false }, { 4, 4, false }, { 8, 8, true },
			  { 4, 4, true },  { 3, 3, true } };
constexpr unsigned kTasks = 16;

hws_dev *open_lanes(const char *backend, unsigned cpus, unsigned lanes, bool lean = false)
{
	return hwstest::open_dev(backend, cpus, kTasks, 16, 1, nullptr, false, false, false,
				 lanes, false, lean);
}

// The shape's latency: the lanes' formula, or the lean unit's.
unsigned shape_latency(const Shape &sh)
{
	return sh.lean ? spec_latency_lean(sh.cpus) : spec_latency(sh.cpus, sh.lanes);
}

std::string shape_name(const Shape &sh)
{
	return std::to_string(sh.cpus) + " CPUs, " +
	       (sh.lean ? std::string("the lean unit") : std::to_string(sh.lanes) + " lanes");
}

uint32_t reg(hws_dev *d, uint32_t off)
{
	uint32_t v = 0;
	EXPECT_EQ(hws_reg_read(d, off, &v), 0) << hws_errmsg(d);
	return v;
}

// Cycles from the QUERY's write to its RESULT word, minus the same around a NOP (whose
// latency is 1): the command's latency. The result word goes to *@word; the first NOP's
// synchronous read answers @want (the error a failing BALANCE maps to).
unsigned balance_latency(hws_dev *d, unsigned cpu, unsigned level, unsigned idle,
			 uint32_t *word, int want = 0)
{
	uint32_t c0 = reg(d, HWS_REG_CYCLES);
	EXPECT_EQ(hws_submit(d, hws_cmd(HWS_OP_QUERY, idle, level, cpu, 1, 0)), 0);
	EXPECT_EQ(hws_result(d, word), 0) << hws_errmsg(d);
	uint32_t c1 = reg(d, HWS_REG_CYCLES);
	EXPECT_EQ(hws_nop(d), want);
	uint32_t c2 = reg(d, HWS_REG_CYCLES);
	EXPECT_EQ(hws_nop(d), 0);
	uint32_t c3 = reg(d, HWS_REG_CYCLES);
	return (c1 - c0) - (c3 - c2) + 1;
}

uint64_t test_seed(uint64_t def)
{
	const char *e = getenv("HWS_TEST_SEED");
	return e && *e ? strtoull(e, nullptr, 0) : def;
}

struct Rng {
	uint64_t s;
	uint32_t operator()(uint32_t n)
	{
		s = s * 6364136223846793005ULL + 1442695040888963407ULL;
		return (uint32_t)((s >> 33) % n);
	}
};

// Random nested partitions P1 <= P2 <= P3 (each block named by its lowest CPU, not
// necessarily contiguous): P3 from random labels, P2 splits every P3 block by a second
// label, P1 every P2 block by a third. *lead[k-1][x] = the leader of x in Pk.
void random_partitions(Rng &r, unsigned cpus, std::vector<unsigned> lead[3])
{
	const unsigned k3 = 1 + r(3), k2 = 1 + r(3), k1 = 1 + r(2);
	std::vector<unsigned> lab(cpus, 0);
	for (unsigned k = 3; k >= 1; k--) {
		const unsigned n = k == 3 ? k3 : k == 2 ? k2 : k1;
		for (unsigned x = 0; x < cpus; x++)
			lab[x] = lab[x] * 4 + r(n);
		lead[k - 1].assign(cpus, 0);
		for (unsigned x = 0; x < cpus; x++) {
			unsigned m = x;
			for (unsigned y = 0; y < x; y++)
				if (lab[y] == lab[x]) {
					m = y;
					break;
				}
			lead[k - 1][x] = m;
		}
	}
}

class BalLanes : public ::testing::TestWithParam<const char *> {};

// FEATURES.BAL_LANES names the lanes, and BALANCE takes the formula's cycles at every level,
// idle type and group count (flat, nodes of 2 and 4, one group, single CPUs).
TEST_P(BalLanes, FeaturesNameTheLanesAndLatencyIsTheFormulas)
{
	// The formula agrees with a lane per CPU's 8 + 2 max(2, ceil(log2 NR_CPUS)).
	EXPECT_EQ(spec_latency(8, 8), 8u + 2 * 3);
	EXPECT_EQ(spec_latency(4, 4), 8u + 2 * 2);
	EXPECT_EQ(spec_latency(64, 64), 8u + 2 * 6);
	for (Shape sh : kShapes) {
		SCOPED_TRACE(shape_name(sh));
		std::unique_ptr<hws_dev, hwstest::DevCloser> dp(open_lanes(
			GetParam(), sh.cpus, sh.lanes == sh.cpus ? 0 : sh.lanes, sh.lean));
		ASSERT_NE(dp, nullptr);
		hws_dev *d = dp.get();
		EXPECT_EQ((reg(d, HWS_REG_FEATURES) & HWS_FEATURES_BAL_LANES_MASK) >>
				  HWS_FEATURES_BAL_LANES_LSB, sh.lanes);
		EXPECT_NE(reg(d, HWS_REG_FEATURES) & HWS_FEATURES_BALANCE_MASK, 0u);
		EXPECT_EQ((reg(d, HWS_REG_FEATURES) & HWS_FEATURES_LEAN_MASK) != 0, sh.lean);
		const unsigned want = shape_latency(sh);
		for (unsigned t = 0; t < kTasks; t++)
			ASSERT_EQ(hws_enqueue(d, t, (t * 3) % sh.cpus, 100 + t % 40, 0, 0), 0);
		ASSERT_EQ(hws_load_tick(d, 1), 0);
		uint32_t w;
		for (unsigned idle = 0; idle < 3; idle++)
			for (unsigned level = 0; level < 4; level++)
				EXPECT_EQ(balance_latency(d, sh.cpus - 1, level, idle, &w), want)
					<< "flat, level " << level << ", idle type " << idle;
		for (unsigned node : { 2u, 4u }) {
			for (unsigned x = 0; x < sh.cpus; x++)
				ASSERT_EQ(hws_dom_set(d, x, 3, x - x % node), 0);
			EXPECT_EQ(balance_latency(d, 0, 3, 0, &w), want) << "nodes of " << node;
			EXPECT_EQ(w & HWS_ERR_FLAG, 0u);
			EXPECT_EQ(balance_latency(d, 1, 2, 1, &w), want) << node << " groups of 1";
		}
		for (unsigned x = 0; x < sh.cpus; x++)
			ASSERT_EQ(hws_dom_set(d, x, 3, 0), 0);
		for (unsigned x = 0; x < sh.cpus; x++)
			ASSERT_EQ(hws_dom_set(d, x, 2, 0), 0);
		EXPECT_EQ(balance_latency(d, 0, 3, 0, &w), want) << "one group";
		EXPECT_EQ(w & HWS_ERR_FLAG, 0u);
		// A failing BALANCE still takes 1 cycle.
		EXPECT_EQ(balance_latency(d, 0, 4, 0, &w, -ERANGE), 1u);
		EXPECT_NE(w & HWS_ERR_FLAG, 0u);
	}
}

// Every group the busiest by the same quotient: the lowest leader wins whatever lane and
// pass it falls in (lane j serves groups jR .. jR+R-1; the C's strict '>' in leader order).
TEST_P(BalLanes, TiesGoToTheLowestLeaderWhateverItsLane)
{
	for (Shape sh : kShapes) {
		SCOPED_TRACE(shape_name(sh));
		std::unique_ptr<hws_dev, hwstest::DevCloser> dp(
			open_lanes(GetParam(), sh.cpus, sh.lanes, sh.lean));
		ASSERT_NE(dp, nullptr);
		hws_dev *d = dp.get();
		// One task of the same weight on every CPU but `me`, each CPU a group (flat):
		// every other group ties; the busiest is the lowest CPU other than `me`.
		for (unsigned me = 0; me < sh.cpus; me++) {
			for (unsigned x = 0; x < sh.cpus; x++) {
				if (x == me)
					continue;
				ASSERT_EQ(hws_enqueue(d, x, x, 120, 0, 0), 0);
			}
			hws_bal b;
			ASSERT_EQ(hws_balance_query(d, me, 3, 1, &b), 0) << hws_errmsg(d);
			EXPECT_EQ(b.busiest, me == 0 ? 1 : 0) << "this CPU " << me;
			EXPECT_EQ(b.this_load, 0u);
			for (unsigned x = 0; x < sh.cpus; x++)
				if (x != me)
					ASSERT_EQ(hws_dequeue(d, x), 0);
		}
		// The highest group alone is the busiest: it lies in the last lane's last pass.
		ASSERT_EQ(hws_enqueue(d, 0, sh.cpus - 1, 100, 0, 0), 0);
		hws_bal b;
		ASSERT_EQ(hws_balance_query(d, 0, 3, 1, &b), 0);
		EXPECT_EQ(b.busiest, (int)sh.cpus - 1);
		EXPECT_EQ(b.busiest_cpu, (int)sh.cpus - 1);
	}
}

// Random commands on an engine of each shape and on the model with a lane per CPU: every
// BALANCE (random CPU, level, idle type, over random nested partitions, powers and
// imbalance_pct) answers the same, BAL_* included, in the formula's cycles.
TEST_P(BalLanes, RandomAnswersEqualALanePerCpus)
{
	const uint64_t seed = test_seed(0x6a1a5e5);
	SCOPED_TRACE("seed " + std::to_string(seed) + " (HWS_TEST_SEED)");
	const bool model = std::string(GetParam()) == "model";
	for (Shape sh : kShapes) {
		SCOPED_TRACE(shape_name(sh));
		std::unique_ptr<hws_dev, hwstest::DevCloser> dp(
			open_lanes(GetParam(), sh.cpus, sh.lanes, sh.lean));
		std::unique_ptr<hws_dev, hwstest::DevCloser> rp(open_lanes("model", sh.cpus, 0));
		ASSERT_NE(dp, nullptr);
		ASSERT_NE(rp, nullptr);
		hws_dev *d = dp.get(), *ref = rp.get();
		Rng r{ seed ^ (sh.cpus * 131u + sh.lanes + (sh.lean ? 977u : 0u)) };
		const unsigned want = shape_latency(sh);
		const unsigned rounds = model ? 40 : 12;
		unsigned answered = 0;
		for (unsigned round = 0; round < rounds; round++) {
			std::vector<unsigned> lead[3];
			random_partitions(r, sh.cpus, lead);
			for (unsigned k = 1; k <= 3; k++)
				for (unsigned x = 0; x < sh.cpus; x++) {
					ASSERT_EQ(hws_dom_set(d, x, k, lead[k - 1][x]), 0);
					ASSERT_EQ(hws_dom_set(ref, x, k, lead[k - 1][x]), 0);
				}
			// Powers: mostly equal (ties), some random, some at the limits.
			for (unsigned n = r(2 * sh.cpus); n > 0; n--) {
				const unsigned l = r(4), x = r(sh.cpus);
				const uint32_t p = r(3) == 0 ? 256 + r(131072 - 256)
						 : r(2) ? 1024 : r(2) ? 256 : 131071;
				ASSERT_EQ(hws_dom_set_power(d, l, x, p), 0);
				ASSERT_EQ(hws_dom_set_power(ref, l, x, p), 0);
			}
			const unsigned pl = r(4), pct = 100 + r(156);
			ASSERT_EQ(hws_dom_set_pct(d, pl, pct), 0);
			ASSERT_EQ(hws_dom_set_pct(ref, pl, pct), 0);
			// Tasks: a few priorities only, so that groups often tie.
			for (unsigned n = 0; n < 3 * sh.cpus; n++) {
				const unsigned t = r(kTasks), what = r(4);
				int a, b;
				if (what == 0) {
					const unsigned c = r(sh.cpus), p = 118 + 2 * r(3);
					a = hws_enqueue(d, t, c, p, 0, 0);
					b = hws_enqueue(ref, t, c, p, 0, 0);
				} else if (what == 1) {
					a = hws_dequeue(d, t);
					b = hws_dequeue(ref, t);
				} else if (what == 2) {
					const unsigned c = r(sh.cpus);
					a = hws_migrate(d, t, c);
					b = hws_migrate(ref, t, c);
				} else {
					const unsigned c = r(sh.cpus);
					a = hws_load_tick(d, c);
					b = hws_load_tick(ref, c);
				}
				ASSERT_EQ(a, b) << "command " << what << " of task " << t;
			}
			for (unsigned q = 0; q < 6; q++) {
				const unsigned c = r(sh.cpus), l = r(4), idle = r(3);
				SCOPED_TRACE("round " + std::to_string(round) + ": BALANCE(" +
					     std::to_string(c) + ", " + std::to_string(l) + ", " +
					     std::to_string(idle) + ")");
				uint32_t w, wr;
				EXPECT_EQ(balance_latency(d, c, l, idle, &w), want);
				(void)balance_latency(ref, c, l, idle, &wr);
				ASSERT_EQ(w, wr) << std::hex << "result word";
				answered += !(w & HWS_ERR_FLAG);
				for (uint32_t a : { HWS_REG_BAL_THIS, HWS_REG_BAL_MAX, HWS_REG_BAL_AVG,
						    HWS_REG_BAL_IMB })
					ASSERT_EQ(reg(d, a), reg(ref, a)) << "register 0x" << std::hex << a;
			}
		}
		EXPECT_GT(answered, rounds * 3) << "most BALANCEs pass their checks";
	}
}

INSTANTIATE_TEST_SUITE_P(Backends, BalLanes, ::testing::Values("model", "rtl", "lockstep"),
			 [](const ::testing::TestParamInfo<const char *> &i) {
				 return std::string(i.param);
			 });

// Bad lane counts are refused before anything opens, naming the parameter.
TEST(BalLanesParams, BadLaneCountsAreRefused)
{
	for (unsigned lanes : { 9u, 65u }) {
		hws_config c;
		hws_dev *d = nullptr;
		char msg[512] = "";
		hws_config_default(&c);
		c.bal_lanes = lanes;
		EXPECT_EQ(hws_open(&d, &c, msg, sizeof(msg)), -EINVAL) << lanes;
		EXPECT_NE(std::string(msg).find("BAL_LANES"), std::string::npos) << msg;
	}
	hws_config c;
	hws_dev *d = nullptr;
	char msg[512] = "";
	hws_config_default(&c);
	c.bal_lanes = 2;
	c.no_balance = 1;
	EXPECT_EQ(hws_open(&d, &c, msg, sizeof(msg)), -EINVAL);
	EXPECT_NE(std::string(msg).find("BAL_LANES"), std::string::npos) << msg;
}

// The lean unit has no lanes to choose and needs BALANCE: both are refused, naming what.
TEST(BalLanesParams, LeanWithLanesOrWithoutBalanceIsRefused)
{
	struct {
		unsigned lanes, no_balance;
		const char *names;
	} bad[] = { { 2, 0, "BAL_LANES" }, { 0, 1, "LCU_LEAN" } };
	for (const auto &b : bad) {
		hws_config c;
		hws_dev *d = nullptr;
		char msg[512] = "";
		hws_config_default(&c);
		c.lcu_lean = 1;
		c.bal_lanes = b.lanes;
		c.no_balance = b.no_balance;
		EXPECT_EQ(hws_open(&d, &c, msg, sizeof(msg)), -EINVAL) << b.names;
		EXPECT_NE(std::string(msg).find(b.names), std::string::npos) << msg;
	}
	hws_config c;
	hws_dev *d = nullptr;
	char msg[512] = "";
	hws_config_default(&c);
	c.lcu_lean = 1;
	c.bal_lanes = c.nr_cpus;	/* one per CPU: the default, spelled out */
	ASSERT_EQ(hws_open(&d, &c, msg, sizeof(msg)), 0) << msg;
	hws_close(d);
}

} // namespace
