// balance_test.cc - the software reference of find_busiest_group / find_busiest_queue,
// find_idlest and select_idle_sibling, on the seed situations worked out by hand (the
// arithmetic of each expectation is in the comments, from docs/balance.md's formulas).
#include <gtest/gtest.h>

#include <cerrno>
#include <vector>

#include "lib/hws_balance.h"

namespace {

constexpr uint32_t W0 = 1024;	// a nice-0 task

// A domain whose groups are consecutive runs of @per CPUs, each CPU of power 1024.
hws_sd even_domain(unsigned ngroups, unsigned per, unsigned pct = 125)
{
	hws_sd sd{};
	sd.nr_groups = ngroups;
	sd.imbalance_pct = pct;
	for (unsigned g = 0; g < ngroups; g++) {
		sd.group_cpus[g] = ((1ull << per) - 1) << (g * per);
		sd.group_power[g] = per * 1024;
	}
	return sd;
}

std::vector<hws_cpu_load> loads(std::initializer_list<uint32_t> now)
{
	std::vector<hws_cpu_load> v(HWS_MAX_CPUS);
	unsigned i = 0;
	for (uint32_t n : now) {
		v[i].now = n;
		v[i].hist = n;
		i++;
	}
	return v;
}

// 16 CPUs in 4 nodes of 4, node 3 overloaded (12 tasks on 4 CPUs), the rest 1 task each.
TEST(FindBusiest, SixteenCpusOneNodeOverloaded)
{
	hws_sd sd = even_domain(4, 4);
	auto l = loads({ W0, W0, W0, W0, W0, W0, W0, W0, W0, W0, W0, W0,
			 3 * W0, 4 * W0, 3 * W0, 2 * W0 });
	hws_balance b{};
	ASSERT_EQ(hws_find_busiest(&sd, 0, HWS_CPU_NOT_IDLE, l.data(), &b), 0);
	// this = 4096 * 1024 / 4096 = 1024; node 3: 12288 * 1024 / 4096 = 3072;
	// avg = 24576 * 1024 / 16384 = 1536; imbalance = min(1536, 512) * 4096 / 1024 = 2048.
	EXPECT_EQ(b.verdict, HWS_BAL_MOVE);
	EXPECT_EQ(b.this_group, 0);
	EXPECT_EQ(b.busiest_group, 3);
	EXPECT_EQ(b.this_load, 1024u);
	EXPECT_EQ(b.max_load, 3072u);
	EXPECT_EQ(b.avg_load, 1536u);
	EXPECT_EQ(b.imbalance, 2048u);
	EXPECT_EQ(b.busiest_cpu, 13) << "the CPU with the most load in node 3";
}

TEST(FindBusiest, BalancedDomain)
{
	hws_sd sd = even_domain(4, 4);
	auto l = loads({ W0, W0, W0, W0, W0, W0, W0, W0, W0, W0, W0, W0, W0, W0, W0, W0 });
	hws_balance b{};
	ASSERT_EQ(hws_find_busiest(&sd, 5, HWS_CPU_NOT_IDLE, l.data(), &b), 0);
	EXPECT_EQ(b.verdict, HWS_BAL_THIS_IS_MAX);
	EXPECT_EQ(b.busiest_group, 0) << "ties: the lowest group index";
	EXPECT_EQ(b.busiest_cpu, -1);
	EXPECT_EQ(b.imbalance, 0u);
	auto empty = loads({});
	ASSERT_EQ(hws_find_busiest(&sd, 5, HWS_CPU_IDLE, empty.data(), &b), 0);
	EXPECT_EQ(b.verdict, HWS_BAL_NO_BUSIEST);
}

// Lozi et al.'s group imbalance: one heavy task in node 0 hides three idle CPUs there,
// while node 1 runs 8 light tasks on 4 CPUs. Averaged per node, node 0 looks busiest.
TEST(FindBusiest, LoziGroupImbalanceIsAnsweredAsTheFormulaSays)
{
	hws_sd sd = even_domain(2, 4);
	auto l = loads({ 88761, 0, 0, 0, 2 * W0, 2 * W0, 2 * W0, 2 * W0 });
	hws_balance b{};
	ASSERT_EQ(hws_find_busiest(&sd, 1, HWS_CPU_IDLE, l.data(), &b), 0);
	// this = 88761 * 1024 / 4096 = 22190 (floor), node 1 = 8192 * 1024 / 4096 = 2048.
	EXPECT_EQ(b.this_load, 22190u);
	EXPECT_EQ(b.max_load, 2048u);
	EXPECT_EQ(b.verdict, HWS_BAL_THIS_IS_MAX) << "idle CPU 1 pulls nothing: the bug";
	// Seen from node 1, node 0 is the busiest: node 1 would push toward ... nothing it
	// can take, the heavy task is running. Firmware must look past averages (docs).
	ASSERT_EQ(hws_find_busiest(&sd, 4, HWS_CPU_NOT_IDLE, l.data(), &b), 0);
	EXPECT_EQ(b.busiest_group, 0);
	EXPECT_EQ(b.verdict, HWS_BAL_MOVE);
	EXPECT_EQ(b.busiest_cpu, 0);
}

TEST(FindBusiest, SmallImbalanceMovesOneTaskOnlyWhenItGains)
{
	hws_sd sd = even_domain(2, 1);
	hws_balance b{};
	// 1 task vs 2: this 1024, max 2048, avg 1536, imbalance 512 < 1024. Gap 1024 < 2048.
	// pwr_now = (1024*1024 + 1024*1024)/1024 = 2048; pwr_move = (1024*1024 + 1024*1024)
	// /1024 = 2048 < 2048 + 128: no gain, balanced.
	auto l = loads({ W0, 2 * W0 });
	ASSERT_EQ(hws_find_busiest(&sd, 0, HWS_CPU_NOT_IDLE, l.data(), &b), 0);
	EXPECT_EQ(b.verdict, HWS_BAL_NO_GAIN);
	// Idle vs nice 0 + nice 2 (1024 + 655): this 0, max 1679, avg 839, imbalance 839.
	// pwr_now = 1024; pwr_move = (1024*655 + 1024*1024)/1024 = 1679 >= 1152: move one.
	l = loads({ 0, W0 + 655 });
	ASSERT_EQ(hws_find_busiest(&sd, 0, HWS_CPU_NEWLY_IDLE, l.data(), &b), 0);
	EXPECT_EQ(b.avg_load, 839u);
	EXPECT_EQ(b.verdict, HWS_BAL_MOVE_ONE);
	EXPECT_EQ(b.imbalance, W0);
	EXPECT_EQ(b.busiest_cpu, 1);
}

TEST(FindBusiest, ImbalancePctAndAverageRules)
{
	hws_sd sd = even_domain(2, 1);
	hws_balance b{};
	// 100 * 5120 = 512000 <= 125 * 4096 = 512000: within imbalance_pct (the edge).
	auto l = loads({ 4 * W0, 5 * W0 });
	ASSERT_EQ(hws_find_busiest(&sd, 0, HWS_CPU_NOT_IDLE, l.data(), &b), 0);
	EXPECT_EQ(b.verdict, HWS_BAL_WITHIN_PCT);
	sd.imbalance_pct = 124;
	ASSERT_EQ(hws_find_busiest(&sd, 0, HWS_CPU_NOT_IDLE, l.data(), &b), 0);
	EXPECT_NE(b.verdict, HWS_BAL_WITHIN_PCT);
	// Three groups: this 2048, others 3072 and 0: avg = 5120 * 1024 / 3072 = 1706.
	hws_sd sd3 = even_domain(3, 1);
	l = loads({ 2 * W0, 3 * W0, 0 });
	ASSERT_EQ(hws_find_busiest(&sd3, 0, HWS_CPU_NOT_IDLE, l.data(), &b), 0);
	EXPECT_EQ(b.avg_load, 1706u);
	EXPECT_EQ(b.verdict, HWS_BAL_THIS_ABOVE_AVG);
}

TEST(FindBusiest, BusyCpusUseTheHistoryIdleOnesTheLoadNow)
{
	hws_sd sd = even_domain(2, 1);
	std::vector<hws_cpu_load> l(HWS_MAX_CPUS);
	l[0] = { 0, 2048 };	// now, history: target_load = 2048
	l[1] = { 4096, 1024 };	// source_load = 1024
	hws_balance b{};
	ASSERT_EQ(hws_find_busiest(&sd, 0, HWS_CPU_NOT_IDLE, l.data(), &b), 0);
	EXPECT_EQ(b.this_load, 2048u);
	EXPECT_EQ(b.max_load, 1024u);
	EXPECT_EQ(b.verdict, HWS_BAL_THIS_IS_MAX);
	ASSERT_EQ(hws_find_busiest(&sd, 0, HWS_CPU_IDLE, l.data(), &b), 0);
	EXPECT_EQ(b.this_load, 0u);
	EXPECT_EQ(b.max_load, 4096u);
	EXPECT_EQ(b.verdict, HWS_BAL_MOVE);
}

TEST(FindBusiest, UnequalPowersScaleTheLoads)
{
	// SMT-like: group 0 = CPUs 0,1 with power 1178 (1.15 CPUs), group 1 = CPU 2, 1024.
	hws_sd sd{};
	sd.nr_groups = 2;
	sd.imbalance_pct = 110;
	sd.group_cpus[0] = 0x3;
	sd.group_cpus[1] = 0x4;
	sd.group_power[0] = 1178;
	sd.group_power[1] = 1024;
	auto l = loads({ W0, 0, 3 * W0 });
	hws_balance b{};
	ASSERT_EQ(hws_find_busiest(&sd, 1, HWS_CPU_IDLE, l.data(), &b), 0);
	// this = 1024 * 1024 / 1178 = 890; max = 3072; avg = 4096 * 1024 / 2202 = 1904;
	// imbalance = min(1168, 1014) * 1024 / 1024 = 1014 < 1024; gap 2182 >= 2048: one.
	EXPECT_EQ(b.this_load, 890u);
	EXPECT_EQ(b.avg_load, 1904u);
	EXPECT_EQ(b.verdict, HWS_BAL_MOVE_ONE);
	EXPECT_EQ(b.busiest_cpu, 2);
}

TEST(FindBusiest, InconsistentDomainsAreRefused)
{
	auto l = loads({ W0, W0, W0, W0 });
	hws_balance b{};
	hws_sd sd = even_domain(2, 2);
	sd.group_cpus[1] |= 0x1;	// CPU 0 in two groups
	EXPECT_EQ(hws_find_busiest(&sd, 0, HWS_CPU_IDLE, l.data(), &b), -EINVAL);
	sd = even_domain(2, 2);
	sd.group_power[1] = 0;
	EXPECT_EQ(hws_find_busiest(&sd, 0, HWS_CPU_IDLE, l.data(), &b), -EINVAL);
	sd = even_domain(2, 2);
	EXPECT_EQ(hws_find_busiest(&sd, 7, HWS_CPU_IDLE, l.data(), &b), -EINVAL)
		<< "this CPU in no group";
	sd.imbalance_pct = 99;
	EXPECT_EQ(hws_find_busiest(&sd, 0, HWS_CPU_IDLE, l.data(), &b), -EINVAL);
}

TEST(FindIdlest, LeastLoadedAllowedCpu)
{
	auto l = loads({ 5, 3, 3, 9 });
	EXPECT_EQ(hws_find_idlest(0xf, l.data(), -1), 1);
	EXPECT_EQ(hws_find_idlest(0xf, l.data(), 2), 2) << "a tie goes to the preferred CPU";
	EXPECT_EQ(hws_find_idlest(0x9, l.data(), -1), 0);
	EXPECT_EQ(hws_find_idlest(0, l.data(), -1), -1);
}

TEST(FindIdleCore, WholeIdleCoreFirstThenAnyIdleCpu)
{
	// 8 CPUs, SMT pairs {0,1} {2,3} {4,5} {6,7}.
	uint64_t core_of[HWS_MAX_CPUS] = {};
	for (unsigned c = 0; c < 8; c++)
		core_of[c] = 3ull << (c & ~1u);
	const uint64_t llc = 0xff;
	EXPECT_EQ(hws_find_idle_core(llc, core_of, 0xb2, 0), 4);	// idle {1,4,5,7}
	EXPECT_EQ(hws_find_idle_core(llc, core_of, 0xb2, 6), 4);
	EXPECT_EQ(hws_find_idle_core(llc, core_of, 0x82, 2), 7) << "no idle core: first idle";
	EXPECT_EQ(hws_find_idle_core(llc, core_of, 0x82, 0), 1);
	EXPECT_EQ(hws_find_idle_core(llc, core_of, 0x00, 3), -1);
	EXPECT_EQ(hws_find_idle_core(0x0f, core_of, 0x32, 0), 1) << "idle core 4/5 is outside";
}

} // namespace
