// results_test.cc - reduced versions of the five published experiments of make results
// (docs/results.md): one seed, short runs, a few points each. Each test asserts
// the DIRECTION of a published effect that our simulator reproduces in the full runs;
// effects it does not reproduce are documented in docs/results.md, not asserted here.
#include <gtest/gtest.h>

#include <cctype>
#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>
#include <string>

#include "sim/machine/calib.h"
#include "sim/machine/machine.h"
#include "tests/test_util.h"

namespace {

struct Out {
	int ret;
	double throughput, makespan_s, group_share[2], group_entitled[2], smt_share_pct;
	std::string err;
};

Out run(const std::string &workload, const char *topo, const char *sched, uint64_t duration_ms,
	int wake_balance = 1, uint64_t seed = 1, int flat = 0)
{
	machine_opts o;
	machine_default_opts(&o);
	o.workload = workload.c_str();
	o.topology = topo;
	o.sched = sched;
	o.sched_opts.engine.backend = "model";
	o.seed = seed;
	o.duration_ns = duration_ms * 1000000ull;
	o.sched_opts.wake_balance = wake_balance;
	o.sched_opts.flat = flat;
	o.check_every = 0;	// the machine's own suites run the deep checks
	machine_result r;
	char err[400] = "";
	Out x{};
	x.ret = machine_run(&o, &r, nullptr, err, sizeof(err));
	x.err = err;
	if (x.ret == 0) {
		x.throughput = r.throughput;
		x.makespan_s = r.makespan_s;
		x.group_share[0] = r.nr_groups > 0 ? r.group_share[0] : 0;
		x.group_share[1] = r.nr_groups > 1 ? r.group_share[1] : 0;
		x.group_entitled[0] = r.nr_groups > 0 ? r.group_entitled[0] : 0;
		x.group_entitled[1] = r.nr_groups > 1 ? r.group_entitled[1] : 0;
		x.smt_share_pct = r.smt_share_pct;
	}
	machine_result_free(&r);
	return x;
}

// Seed 1: at 192 tbench processes on 4 CPUs the O(1) scheduler (o1, and hw) beats 2.4 by
// far; at 64 the difference is much smaller.
TEST(Results, Exp1TbenchO1BeatsLinux24At192Processes)
{
	double t[2][3];
	const char *sch[3] = { "linux24", "o1", "hw" };
	for (int p = 0; p < 2; p++)
		for (int s = 0; s < 3; s++) {
			Out o = run(p ? "tbench:clients=96" : "tbench:clients=32", "core=4", sch[s], 500);
			ASSERT_EQ(o.ret, 0) << o.err;
			t[p][s] = o.throughput;
		}
	for (int s = 1; s < 3; s++) {
		EXPECT_GT(t[1][s], 1.3 * t[1][0]) << sch[s] << " vs linux24 at 192 processes";
		EXPECT_GT(t[1][s] / t[1][0], t[0][s] / t[0][0])
			<< sch[s] << ": the advantage grows with the run-queue length";
	}
}

// Seed 2: VolanoMark scales better from 1 to 8 CPUs under per-CPU queues (o1, hw) than
// under 2.4's global queue.
TEST(Results, Exp2VolanoScalesBetterWithPerCpuQueues)
{
	const char *sch[3] = { "linux24", "o1", "hw" };
	double sc[3];
	for (int s = 0; s < 3; s++) {
		Out one = run("volanomark:rooms=10,users=20", "core=1", sch[s], 300);
		Out eight = run("volanomark:rooms=10,users=20", "core=8", sch[s], 300);
		ASSERT_EQ(one.ret, 0) << one.err;
		ASSERT_EQ(eight.ret, 0) << eight.err;
		sc[s] = eight.throughput / one.throughput;
	}
	EXPECT_GT(sc[1], sc[0] * 1.2) << "o1 " << sc[1] << " linux24 " << sc[0];
	EXPECT_GT(sc[2], sc[0] * 1.2) << "hw " << sc[2] << " linux24 " << sc[0];
}

// Seed 3: per-CPU queues with domains beat the global queue on the 16-CPU NUMA machine for
// hackbench with 100 groups (reduced: 10 groups, 5 loops) - the part of seed 3 that our
// simulator reproduces robustly. Domains vs a flat balancer is not asserted: see
// docs/results.md.
TEST(Results, Exp3DomainSchedulerBeatsGlobalQueueOnHackbench)
{
	Out l24 = run("hackbench:groups=10,loops=5", "numa=4,core=4", "linux24", 0);
	Out o1 = run("hackbench:groups=10,loops=5", "numa=4,core=4", "o1", 0);
	ASSERT_EQ(l24.ret, 0) << l24.err;
	ASSERT_EQ(o1.ret, 0) << o1.err;
	ASSERT_GT(o1.makespan_s, 0);
	EXPECT_LT(o1.makespan_s, l24.makespan_s);
}

// Seed 3: domains are not worse than a flat balancer on tbench with 24 clients on the NUMA
// machine (published +8%; ours larger). "flat": the same machine, one flat domain (--flat).
TEST(Results, Exp3DomainsNotWorseThanFlatOnTbench)
{
	for (const char *s : { "o1", "hw" }) {
		Out dom = run("tbench:clients=24", "numa=4,core=4", s, 300);
		Out flat = run("tbench:clients=24", "numa=4,core=4", s, 300, 1, 1, 1);
		ASSERT_EQ(dom.ret, 0) << dom.err;
		ASSERT_EQ(flat.ret, 0) << flat.err;
		EXPECT_GE(dom.throughput, 0.98 * flat.throughput) << s << ": domains cost more than 2%";
	}
}

// Seed 3: sched domains beat one flat domain on dbench (32 clients) on the NUMA machine:
// published +40% at 32 clients (w25 vs bk19), ours about +8% (docs/results.md).
TEST(Results, Exp3DomainsBeatFlatOnDbench)
{
	for (const char *s : { "o1", "hw" }) {
		Out dom = run("dbench:clients=32", "numa=4,core=4", s, 300);
		Out flat = run("dbench:clients=32", "numa=4,core=4", s, 300, 1, 1, 1);
		ASSERT_EQ(dom.ret, 0) << dom.err;
		ASSERT_EQ(flat.ret, 0) << flat.err;
		EXPECT_GT(dom.throughput, 1.03 * flat.throughput) << s;
	}
}

// ---- Under the machine profiles (docs/results.md "Under the machine profiles") ----

// Seed 1 on the 4-way P-III Xeon: O(1) beats 2.4 at 192 processes by more than at 64.
TEST(Results, ProfileExp1O1BeatsLinux24MoreAt192)
{
	double r[2];
	for (int p = 0; p < 2; p++) {
		const char *wl = p ? "tbench:clients=96" : "tbench:clients=32";
		Out l24 = run(wl, "core=4,profile=p3xeon4", "linux24", 500);
		Out o1 = run(wl, "core=4,profile=p3xeon4", "o1", 500);
		ASSERT_EQ(l24.ret, 0) << l24.err;
		ASSERT_EQ(o1.ret, 0) << o1.err;
		r[p] = o1.throughput / l24.throughput;
	}
	EXPECT_GT(r[1], 1.5) << "192 processes";
	EXPECT_GT(r[1], r[0] + 0.3) << "64: " << r[0] << ", 192: " << r[1];
	// published 1.05 at 64; ours stays within 0.25 of it (1.21 at full size, not the
	// goal's 1.10: docs/results.md says which part of the model is responsible)
	EXPECT_LT(r[0], 1.05 + 0.25) << "64 processes";
}

// Seed 2 on the 8-way P-III Xeon, with VolanoMark's yields, on the model's own burst
// lengths (calib=0, no loopback model: the profile's mechanism alone): 2.4 does worse on
// 8 CPUs than on 4 (the collapse), while the per-CPU queues scale past 3.5. Calibrated,
// the collapse is gone (docs/results.md, the misses of experiment 2).
TEST(Results, ProfileExp2Linux24FallsFrom4To8CpusPerCpuQueuesScale)
{
	const char *wl = "volanomark:rooms=10,users=20,calib=0,net=0";
	// 2 s, as make results: in the first second the 4-CPU run's scan still misses in the
	// cache more than the 8-CPU one's (task lines evicted, docs/simulator.md)
	Out l4 = run(wl, "core=4,profile=p3xeon8", "linux24", 2000);
	Out l8 = run(wl, "core=8,profile=p3xeon8", "linux24", 2000);
	ASSERT_EQ(l4.ret, 0) << l4.err;
	ASSERT_EQ(l8.ret, 0) << l8.err;
	EXPECT_LT(l8.throughput, l4.throughput);
	for (const char *s : { "o1", "hw" }) {
		Out one = run(wl, "core=1,profile=p3xeon8", s, 300);
		Out eight = run(wl, "core=8,profile=p3xeon8", s, 300);
		ASSERT_EQ(one.ret, 0) << one.err;
		ASSERT_EQ(eight.ret, 0) << eight.err;
		EXPECT_GT(eight.throughput / one.throughput, 3.5) << s;
	}
}

// Seed 3 on NUMA-Q: hackbench with one group finishes sooner with domains than with one
// flat domain on o1 (published 0.62x; ours 0.51x at full size). hw does not (documented).
TEST(Results, ProfileExp3DomainsFinishHackbenchOneGroupSoonerOnO1)
{
	Out dom = run("hackbench:groups=1,loops=100", "numa=4,core=4,profile=numaq16", "o1", 0);
	Out flat = run("hackbench:groups=1,loops=100", "numa=4,core=4,profile=numaq16", "o1", 0,
		       1, 1, 1);
	ASSERT_EQ(dom.ret, 0) << dom.err;
	ASSERT_EQ(flat.ret, 0) << flat.err;
	ASSERT_GT(flat.makespan_s, 0);
	EXPECT_LT(dom.makespan_s, 0.8 * flat.makespan_s);
}

// Seed 4: putting every sysbench task into one child group costs no more than 5%.
TEST(Results, Exp4GroupingCostsAtMostFivePercent)
{
	for (const char *s : { "o1", "hw" })
		for (int t : { 4, 32 }) {
			std::string w = "sysbench:threads=" + std::to_string(t) +
					",backends=" + std::to_string(t);
			Out root = run(w + ",group=0", "core=4", s, 500);
			Out child = run(w + ",group=1", "core=4", s, 500);
			ASSERT_EQ(root.ret, 0) << root.err;
			ASSERT_EQ(child.ret, 0) << child.err;
			EXPECT_GT(child.throughput, 0.95 * root.throughput) << s << " threads " << t;
		}
}

// Seed 4: two groups of equal shares on one CPU (1 task vs 16) each get about half.
TEST(Results, Exp4EqualSharesOnOneCpu)
{
	Out o = run("mix:tasks=17,sleep=0,msg=0,groups=2,g0=1,cpus=1", "core=4", "hw", 5000);
	ASSERT_EQ(o.ret, 0) << o.err;
	EXPECT_NEAR(o.group_share[0], 0.5, 0.02);
	EXPECT_NEAR(o.group_share[1], 0.5, 0.02);
}

// Seed 4 on SMP: 1 root task vs 16 in group 1 on 4 CPUs: each group within 2% of its
// water-filled entitlement (25% / 75%: the root task can use one CPU), on o1 and hw.
TEST(Results, Exp4EqualSharesOnFourCpus)
{
	for (const char *s : { "o1", "hw" }) {
		Out o = run("mix:tasks=17,sleep=0,msg=0,groups=2,g0=1", "core=4", s, 2000);
		ASSERT_EQ(o.ret, 0) << o.err;
		EXPECT_NEAR(o.group_entitled[0], 0.25, 1e-9) << s;
		EXPECT_NEAR(o.group_share[0], o.group_entitled[0], 0.02 * o.group_entitled[0]) << s;
		EXPECT_NEAR(o.group_share[1], o.group_entitled[1], 0.02 * o.group_entitled[1]) << s;
	}
}

// Seed 5: select_idle_sibling keeps two busy threads off one core while another core of
// the package idles: with wake balancing on that happens for less of the run than off.
TEST(Results, Exp5WakeBalancingSharesCoresLess)
{
	for (const char *s : { "o1", "hw" }) {
		Out on = run("sysbench:threads=16,backends=16", "pkg=2,core=4,smt=2", s, 500, 1);
		Out off = run("sysbench:threads=16,backends=16", "pkg=2,core=4,smt=2", s, 500, 0);
		ASSERT_EQ(on.ret, 0) << on.err;
		ASSERT_EQ(off.ret, 0) << off.err;
		EXPECT_GT(off.smt_share_pct, 0.0) << s;
		EXPECT_LT(on.smt_share_pct, 0.5 * off.smt_share_pct) << s;
	}
}

// Seed 5: wake balancing (select_idle_sibling) on is no worse than off (1% tolerance for a
// single short seed).
TEST(Results, Exp5WakeBalancingNoLoss)
{
	for (const char *s : { "o1", "hw" }) {
		Out on = run("sysbench:threads=16,backends=16", "pkg=2,core=4,smt=2", s, 500, 1);
		Out off = run("sysbench:threads=16,backends=16", "pkg=2,core=4,smt=2", s, 500, 0);
		ASSERT_EQ(on.ret, 0) << on.err;
		ASSERT_EQ(off.ret, 0) << off.err;
		EXPECT_GE(on.throughput, 0.99 * off.throughput) << s;
	}
}

// ---- Experiments 4 and 5 on their machine profile: the modern profile prices
// the software run queues' lines and locks; the matches they had must hold under it.

// Seed 4 under contention: every sysbench task in a child group costs at most the
// published "few %" (5%), on o1, hw and cfs.
TEST(Results, ProfileExp4GroupingCostsAtMostFivePercent)
{
	for (const char *s : { "o1", "hw", "cfs" })
		for (int t : { 4, 64 }) {
			std::string w = "sysbench:threads=" + std::to_string(t) +
					",backends=" + std::to_string(t);
			Out root = run(w + ",group=0", "core=4,profile=modern", s, 500);
			Out child = run(w + ",group=1", "core=4,profile=modern", s, 500);
			ASSERT_EQ(root.ret, 0) << root.err;
			ASSERT_EQ(child.ret, 0) << child.err;
			EXPECT_GT(child.throughput, 0.95 * root.throughput) << s << " threads " << t;
		}
}

// Seed 4 under contention: 1 root task vs 16 in group 1 on 4 CPUs still gets its
// entitlement (25% / 75%) within 2 points.
TEST(Results, ProfileExp4EqualSharesOnFourCpus)
{
	for (const char *s : { "o1", "hw" }) {
		Out o = run("mix:tasks=17,sleep=0,msg=0,groups=2,g0=1", "core=4,profile=modern", s, 2000);
		ASSERT_EQ(o.ret, 0) << o.err;
		EXPECT_NEAR(o.group_share[0], 0.25, 0.02) << s;
		EXPECT_NEAR(o.group_share[1], 0.75, 0.02) << s;
	}
}

// Seed 5 under contention: wake balancing on is no worse than off (published +0.07%; 1%
// tolerance for a single short seed) and shares cores less than half as long.
TEST(Results, ProfileExp5WakeBalancingNoLossSharesCoresLess)
{
	for (const char *s : { "o1", "hw" }) {
		Out on = run("sysbench:threads=16,backends=16", "pkg=2,core=4,smt=2,profile=modern", s, 500, 1);
		Out off = run("sysbench:threads=16,backends=16", "pkg=2,core=4,smt=2,profile=modern", s, 500, 0);
		ASSERT_EQ(on.ret, 0) << on.err;
		ASSERT_EQ(off.ret, 0) << off.err;
		EXPECT_GE(on.throughput, 0.99 * off.throughput) << s;
		EXPECT_LT(on.smt_share_pct, 0.5 * off.smt_share_pct) << s;
	}
}

// ---- The calibration (sim/machine/calib.c, docs/results.md "Calibration") ----

// Every constant of the table is what its published point gives: derived again from the
// table's own value, the derivation keeps it (its point lands within 1% of the published
// figure at the first run; a wrong constant would make it move on).
TEST(Results, CalibEachConstantIsWhatItsPublishedPointGives)
{
	ASSERT_GE(calib_n, 8u);
	for (unsigned i = 0; i < calib_n; i++) {
		const calib *c = &calib_table[i];
		char err[400] = "";
		double w = 0;
		ASSERT_EQ(calib_derive(c, c->work, &w, err, sizeof(err)), 0) << c->exp << " " << err;
		EXPECT_EQ(w, c->work) << c->exp << " " << c->workload << " (" << c->point << ")";
		EXPECT_EQ(calib_find(c->workload, c->profile), c) << "one entry per workload and profile";
	}
	EXPECT_EQ(calib_find("mix", "modern"), nullptr);
	EXPECT_EQ(calib_find("tbench", "modern"), nullptr);
}

// From scratch (work=1, the workload's own burst lengths) the derivation lands on the
// table's value for the smooth points (exp1's tbench on linux24, exp4's sysbench on cfs):
// the table is not a hand-picked figure.
TEST(Results, CalibDerivedFromScratchLandsOnTheTable)
{
	for (unsigned i = 0; i < calib_n; i++) {
		const calib *c = &calib_table[i];
		if (strcmp(c->exp, "exp1") && strcmp(c->exp, "exp4"))
			continue;
		char err[400] = "";
		double w = 0;
		ASSERT_EQ(calib_derive(c, 1.0, &w, err, sizeof(err)), 0) << err;
		EXPECT_NEAR(w / c->work, 1.0, 0.03) << c->exp << " " << c->workload;
	}
}

// A workload run on a profile with an entry takes its multiplier; calib=0 and work=X
// override it; without a profile nothing is calibrated.
TEST(Results, CalibAppliesOnItsProfileOnly)
{
	machine_opts o;
	machine_result r;
	char err[400] = "";
	struct { const char *topo, *wl; double want; } cases[] = {
		{ "core=4,profile=p3xeon4", "tbench:clients=4", calib_find("tbench", "p3xeon4")->work },
		{ "core=4,profile=p3xeon4", "tbench:clients=4,calib=0", 1 },
		{ "core=4,profile=p3xeon4", "tbench:clients=4,work=2.5", 2.5 },
		{ "core=4", "tbench:clients=4", 1 },
		{ "core=4,profile=modern", "tbench:clients=4", 1 },
		{ "numa=4,core=4,profile=numaq16", "hackbench:groups=1,loops=2",
		  calib_find("hackbench", "numaq16")->work },
	};
	for (const auto &k : cases) {
		machine_default_opts(&o);
		o.topology = k.topo;
		o.workload = k.wl;
		o.sched = "o1";
		o.duration_ns = 20000000ull;
		ASSERT_EQ(machine_run(&o, &r, nullptr, err, sizeof(err)), 0) << err;
		EXPECT_EQ(r.work_scale, k.want) << k.topo << " " << k.wl;
		machine_result_free(&r);
	}
}

// ---- build/results/summary.json (make results, results/report.sh) ----


// The cells of the first table row of @md that starts with @head ("| x | a | b |" -> x, a, b).
std::vector<std::string> row(const std::string &md, const std::string &head)
{
	std::vector<std::string> cells;
	std::istringstream in(md);
	std::string line;
	while (std::getline(in, line)) {
		if (line.rfind(head, 0) != 0)
			continue;
		std::string c;
		for (size_t k = 1; k < line.size(); k++) {
			if (line[k] == '|') {
				size_t a = c.find_first_not_of(' '), b = c.find_last_not_of(' ');
				cells.push_back(a == std::string::npos ? "" : c.substr(a, b - a + 1));
				c.clear();
			} else {
				c += line[k];
			}
		}
		break;
	}
	return cells;
}

// "+0.7%" -> "0.7", as report.sh writes it into the JSON.
std::string bare(std::string x)
{
	if (!x.empty() && x.back() == '%') x.pop_back();
	if (!x.empty() && x[0] == '+') x.erase(0, 1);
	return x;
}

// A small run of experiments 1, 2 and 5 (seed 1, every timed run 0.2 s: RES_DURATION) into
// a scratch build/results: report.sh's summary.json parses, and each figure in it is the
// one its table prints; experiments not run have no keys; the plots are written.
TEST(Results, SummaryJsonHoldsTheReportsFigures)
{
	std::string root = hwstest::repo_root();
	std::string tmpl = root + "/build/tests/summary_XXXXXX";
	std::vector<char> buf(tmpl.begin(), tmpl.end());
	buf.push_back(0);
	ASSERT_NE(mkdtemp(buf.data()), nullptr);
	std::string dir(buf.data());
	std::string env = "OUT_BASE=" + dir + " SVG_DIR=" + dir + "/svg SEED_LIST=1 RES_DURATION=0.2s "
			  "JOBS=2 HWSCHED=" + std::string(HWSCHED_BIN) + " ";
	for (const char *e : { "exp1_tbench", "exp2_volano", "exp5_wakebal" }) {
		hwstest::CliRun r = hwstest::shell(env + root + "/results/" + e + ".sh");
		ASSERT_EQ(r.status, 0) << e << ": " << r.out;
	}
	hwstest::CliRun r = hwstest::shell(env + root + "/results/report.sh");
	ASSERT_EQ(r.status, 0) << r.out;
	std::string md = hwstest::slurp(dir + "/tables.md");
	std::string summary = hwstest::slurp(dir + "/summary.json");
	hwstest::Json j(summary);	// it keeps a reference: the text must outlive it
	ASSERT_TRUE(j.ok) << summary;
	auto &L = j.leaves;
	EXPECT_EQ(L["seeds.0"], "1");

	std::vector<std::string> e1 = row(md, "| ours ratio o1/linux24 |");
	ASSERT_EQ(e1.size(), 3u) << md;
	EXPECT_EQ(L["exp1_ratio_64"], e1[1]);
	EXPECT_EQ(L["exp1_ratio_192"], e1[2]);
	std::vector<std::string> e2 = row(md, "| scaling 8P |");
	ASSERT_EQ(e2.size(), 6u) << md;
	EXPECT_EQ(L["exp2_scaling_8p.linux24"], e2[3]);
	EXPECT_EQ(L["exp2_scaling_8p.o1"], e2[4]);
	EXPECT_EQ(L["exp2_scaling_8p.hw"], e2[5]);
	for (const char *s : { "o1", "hw", "cfs", "eevdf" }) {
		std::vector<std::string> e5 = row(md, std::string("| ours ") + s + " transactions/s |");
		ASSERT_EQ(e5.size(), 4u) << s;
		EXPECT_EQ(L[std::string("exp5_wake_on_vs_off_pct.") + s], bare(e5[3])) << s;
	}
	for (const auto &kv : L) {
		EXPECT_NE(kv.first.rfind("exp3_", 0), 0u) << kv.first << ": experiment 3 was not run";
		EXPECT_NE(kv.first.rfind("exp4_", 0), 0u) << kv.first << ": experiment 4 was not run";
		EXPECT_NE(kv.second, "null") << kv.first;
	}
	for (const char *p : { "exp1", "exp2", "exp5" })
		EXPECT_NE(hwstest::slurp(dir + "/svg/" + p + ".svg").find("</svg>"), std::string::npos) << p;
	// every published point of the experiments run (exp1: 3, exp2: 5), with its error
	EXPECT_EQ(L["points_total"], "8");
	EXPECT_NE(L["points_within_25pct"], "");
	EXPECT_EQ(L["points.0.exp"], "exp1");
	EXPECT_EQ(L["points.0.published"], "29.70");
	double pub = atof(L["points.7.published"].c_str()), ours = atof(L["points.7.ours"].c_str());
	EXPECT_EQ(pub, 46166);
	EXPECT_NEAR(atof(L["points.7.error_pct"].c_str()), 100 * (ours / pub - 1), 0.01);
	EXPECT_EQ(L["ratio_goals.0.goal"], "exp1 o1/linux24 at 192 processes");
	EXPECT_TRUE(L["ratio_goals.0.met"] == "true" || L["ratio_goals.0.met"] == "false");
	EXPECT_NE(L["commit"], "");
	EXPECT_NE(L["date"], "");
	EXPECT_NE(L["machine.cpu_model"], "");	// tools/record.sh's header
	EXPECT_EQ(access((dir + "/summary.json.tmp").c_str(), F_OK), -1) << "renamed into place";
	hwstest::shell("rm -rf '" + dir + "'");
}

}  // namespace
