// machine_test.cc - the simulated machine and the firmware's policy: topology
// parsing, Linux's slice and priority rules, whole runs on every scheduler with the
// machine's own checks on, group shares, and the same decisions on model and RTL.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "firmware/fw_o1.h"
#include "sim/machine/machine.h"
#include "tests/sim/sim_run.h"
#include "tests/test_util.h"

namespace {

SimRun run(const char *workload, const char *topo, const char *sched, uint64_t seed,
	uint64_t duration_ms, const char *backend = "model",
	void (*tweak)(machine_opts *) = nullptr)
{
	return sim_run(workload, topo, sched, seed, duration_ms, backend, tweak);
}

TEST(Machine, TopologyRejectsImpossibleShapes)
{
	sched_topo t;
	char err[200];
	EXPECT_EQ(machine_parse_topology("numa=4,pkg=1,core=4,smt=1", &t, err, sizeof(err)), 0);
	EXPECT_EQ(t.nr_cpus, 16u);
	EXPECT_EQ(t.lead[2][5], 4) << "CPU 5 is in node 1, led by CPU 4";
	EXPECT_EQ(machine_parse_topology("pkg=2,core=4,smt=2", &t, err, sizeof(err)), 0);
	EXPECT_EQ(t.nr_cpus, 16u);
	EXPECT_EQ(t.lead[0][7], 6) << "SMT pairs";
	EXPECT_EQ(t.lead[1][9], 8) << "packages of 8 threads";
	for (const char *bad : { "numa=0", "pkg=2,core=8,smt=8", "cores=4", "core=x", "", "smt" }) {
		EXPECT_EQ(machine_parse_topology(bad, &t, err, sizeof(err)), -EINVAL) << bad;
		EXPECT_NE(std::string(err).find("topology"), std::string::npos) << err;
	}
}

TEST(Firmware, SlicesAndPrioritiesFollowLinux26)
{
	EXPECT_EQ(fw_task_timeslice(100), 800000000) << "nice -20";
	EXPECT_EQ(fw_task_timeslice(120), 100000000) << "nice 0";
	EXPECT_EQ(fw_task_timeslice(139), 5000000) << "nice 19";
	EXPECT_EQ(fw_task_timeslice(130), 50000000) << "nice 10";
	sched_task t{};
	t.rt_prio = -1;
	t.nice = 0;
	t.static_prio = 120;
	t.sleep_avg = 0;
	EXPECT_EQ(fw_effective_prio(&t), 125) << "no sleep: bonus -5";
	t.prio = 125;
	EXPECT_FALSE(fw_task_interactive(&t));
	t.sleep_avg = 1000000000;	// MAX_SLEEP_AVG: bonus +5
	EXPECT_EQ(fw_effective_prio(&t), 115);
	t.prio = 115;
	EXPECT_TRUE(fw_task_interactive(&t)) << "115 <= 120 - DELTA(2)";
	t.sleep_avg = 700000000;	// bonus 7 - 5 = 2: prio 118 = 120 - 2, the edge
	t.prio = fw_effective_prio(&t);
	EXPECT_EQ(t.prio, 118);
	EXPECT_TRUE(fw_task_interactive(&t));
	t.rt_prio = 10;
	EXPECT_EQ(fw_effective_prio(&t), 10) << "real-time keeps its priority";
}

TEST(Machine, HackbenchDeliversEveryMessageOnEveryScheduler)
{
	for (const char *s : { "hw", "o1", "linux24", "cfs", "eevdf" }) {
		SimRun x = run("hackbench:groups=2,loops=5", "pkg=2,core=2,smt=2", s, 3, 0);
		ASSERT_EQ(x.ret, 0) << s << ": " << x.err;
		EXPECT_EQ(x.r.work_units, 2.0 * 20 * 20 * 5) << s << ": every message read once";
		EXPECT_GT(x.r.makespan_s, 0.0) << s << ": every task exited";
		EXPECT_GT(x.r.conservation_checks, 1000u) << s;
		EXPECT_GT(x.r.switches, 0u) << s;
	}
}

TEST(Machine, RandomRunsKeepEveryTaskInExactlyOnePlace)
{
	const uint64_t base = hwstest::seed_from_env(77);
	for (uint64_t seed = base; seed < base + 3; seed++)
		for (const char *s : { "hw", "o1", "linux24", "cfs", "eevdf" }) {
			SimRun x = run("mix:tasks=24,burst=500,sleep=800,msg=0.5,groups=3", "numa=2,core=2,smt=2",
				    s, seed, 150);
			EXPECT_EQ(x.ret, 0) << s << " seed " << seed << ": " << x.err;
			EXPECT_GT(x.r.conservation_checks, 500u) << s << " seed " << seed;
			EXPECT_GT(x.r.work_units, 100.0) << s << " seed " << seed;
			// A task that runs on another CPU than last time was moved at least once
			// since (at a wakeup or by balancing): counted at the move, as Linux does.
			EXPECT_LE(x.r.migrations, x.r.mig_wakeup + x.r.mig_other) << s << " seed " << seed;
		}
}

TEST(Machine, AGroupOfOneAndAGroupOfEightShareOneCpuEvenly)
{
	for (const char *s : { "hw", "o1", "cfs", "eevdf" }) {
		SimRun x = run("mix:tasks=9,sleep=0,msg=0,burst=1000000,groups=2,g0=1", "core=1", s, 1,
			    20000);
		ASSERT_EQ(x.ret, 0) << x.err;
		EXPECT_NEAR(x.r.group_share[0], 0.5, 0.02) << s;
		EXPECT_NEAR(x.r.group_share[1], 0.5, 0.02) << s;
	}
}

TEST(Machine, OneRootTaskAgainstSixteenGroupTasksGetsItsWholeCpu)
{
	// 4 CPUs, 1 CPU-bound root task and 16 of group 1 (shares 1024 each): water-filling
	// entitles the root task to one CPU (25%). The group's tasks carry their h_load
	// (1024 / 16 each, as weight(132) = 56), so the root task's CPU looks loaded, the
	// smpnice rules pull the group tasks off it and never move the root task itself (its
	// load exceeds the imbalance). With raw weights it kept 4 group tasks beside it: 20%.
	for (const char *s : { "hw", "o1", "cfs", "eevdf" }) {
		SimRun x = run("mix:tasks=17,sleep=0,msg=0,groups=2,g0=1", "core=4", s, 1, 3000);
		ASSERT_EQ(x.ret, 0) << x.err;
		EXPECT_NEAR(x.r.group_entitled[0], 0.25, 1e-9) << s;
		EXPECT_NEAR(x.r.group_share[0], 0.25, 0.02 * 0.25) << s;
		EXPECT_NEAR(x.r.group_share[1], 0.75, 0.02 * 0.75) << s;
	}
}

TEST(Machine, TwoCpuBoundTasksOnA2x2SmtMachineEndOnDifferentCores)
{
	// Fork placement puts both on core 0 (CPUs 0 and 1 are the least loaded in turn);
	// MC-level balancing from an idle core must push one of them over (active balance).
	for (const char *s : { "hw", "o1" }) {
		SimRun x = run("mix:tasks=2,sleep=0,burst=5000,msg=0", "core=2,smt=2", s, 1, 1000);
		ASSERT_EQ(x.ret, 0) << x.err;
		double core0 = x.r.busy_pct[0] + x.r.busy_pct[1];
		double core1 = x.r.busy_pct[2] + x.r.busy_pct[3];
		EXPECT_GT(core0, 95.0) << s;
		EXPECT_GT(core1, 95.0) << s;
		EXPECT_LT(core0, 105.0) << s << ": both tasks on core 0";
		EXPECT_GE(x.r.migrations, 1u) << s;
	}
}

TEST(Machine, SmtSharingWhileACoreIdlesIsTimed)
{
	// Two CPU-bound tasks allowed only on CPUs 0 and 1 (core 0's threads): core 0 is full
	// and core 1 idles the whole run.
	SimRun pinned = run("mix:tasks=2,sleep=0,burst=5000,msg=0,cpus=2", "core=2,smt=2", "hw", 1,
			    500);
	ASSERT_EQ(pinned.ret, 0) << pinned.err;
	EXPECT_EQ(pinned.r.has_smt, 1);
	EXPECT_GT(pinned.r.smt_share_pct, 99.0);
	EXPECT_NEAR(pinned.r.smt_share_ms, pinned.r.smt_share_pct * 5.0, 0.01) << "ms vs % of 500 ms";
	// Both on CPU 0: one thread of core 0 busy, never full.
	SimRun one = run("mix:tasks=2,sleep=0,burst=5000,msg=0,cpus=1", "core=2,smt=2", "hw", 1, 500);
	ASSERT_EQ(one.ret, 0) << one.err;
	EXPECT_EQ(one.r.smt_share_ms, 0.0);
	// Free to move: balancing separates them within a few balance intervals.
	for (const char *s : { "hw", "o1" }) {
		SimRun x = run("mix:tasks=2,sleep=0,burst=5000,msg=0", "core=2,smt=2", s, 1, 1000);
		ASSERT_EQ(x.ret, 0) << x.err;
		EXPECT_LT(x.r.smt_share_pct, 5.0) << s;
	}
	// Two packages of one core each: nothing to share a package with.
	SimRun nosmt = run("mix:tasks=2,sleep=0,burst=5000,msg=0,cpus=2", "core=2", "hw", 1, 100);
	ASSERT_EQ(nosmt.ret, 0) << nosmt.err;
	EXPECT_EQ(nosmt.r.has_smt, 0);
	EXPECT_EQ(nosmt.r.smt_share_ms, 0.0);
}

TEST(Machine, Linux24PaysForItsGlobalLockAndScan)
{
	SimRun l = run("hackbench:groups=4,loops=5", "pkg=2,core=2,smt=2", "linux24", 5, 0);
	SimRun o = run("hackbench:groups=4,loops=5", "pkg=2,core=2,smt=2", "o1", 5, 0);
	ASSERT_EQ(l.ret, 0) << l.err;
	ASSERT_EQ(o.ret, 0) << o.err;
	EXPECT_GT(l.r.sched_overhead_pct, 2 * o.r.sched_overhead_pct);
}

TEST(Machine, TheEngineMakesTheSameDecisionsOnModelAndRtl)
{
	SimRun m = run("hackbench:groups=1,loops=4", "pkg=2,core=2,smt=2", "hw", 9, 0, "model");
	SimRun r = run("hackbench:groups=1,loops=4", "pkg=2,core=2,smt=2", "hw", 9, 0, "rtl");
	ASSERT_EQ(m.ret, 0) << m.err;
	ASSERT_EQ(r.ret, 0) << r.err;
	EXPECT_EQ(m.r.sim_ns, r.r.sim_ns);
	EXPECT_EQ(m.r.switches, r.r.switches);
	EXPECT_EQ(m.r.migrations, r.r.migrations);
	EXPECT_EQ(m.r.engine_commands, r.r.engine_commands);
	EXPECT_EQ(m.r.engine_cycles, r.r.engine_cycles);
	for (int i = 0; i < 4; i++)
		EXPECT_EQ(m.r.wake_lat_us[i], r.r.wake_lat_us[i]);
	EXPECT_GT(m.r.engine_commands, 1000u);
}

// docs/firmware.md: hw (the engine) and o1 (plain C queues) are one policy and "make the
// same decisions on the same inputs". With every price zero (the bus, the engine's clock
// and the software operations; the machine's own costs, a context switch, stay), nothing
// but the decisions can tell them apart: the same
// run event for event, on workloads that wake, fork, balance, use SMT and groups. The seed
// is printed with any difference (HWS_SEED overrides it).
TEST(Machine, HwAndO1MakeTheSameDecisionsWhenTheBusCostsNothing)
{
	const uint64_t seed = hwstest::seed_from_env(5);
	auto free_costs = [](machine_opts *o) {
		o->sched_opts.costs.bus_ns = 0;
		o->sched_opts.costs.engine_clk_ns = 0;
		o->sched_opts.costs.sw_op_ns = 0;
		o->sched_opts.costs.sw_cpu_ns = 0;
		o->sched_opts.costs.sw_base_ns = 0;
	};
	struct {
		const char *wl, *topo;
		uint64_t ms;
	} cases[] = {
		{ "hackbench:groups=2,loops=5", "pkg=2,core=2,smt=2", 0 },
		{ "mix:tasks=24,groups=3", "numa=2,pkg=1,core=2,smt=2", 200 },
		{ "kernbench:jobs=6,total=12", "pkg=1,core=4,smt=1", 0 },
		{ "tbench:clients=6", "pkg=1,core=3,smt=2", 100 },
	};
	for (const auto &c : cases) {
		SimRun h = run(c.wl, c.topo, "hw", seed, c.ms, "model", free_costs);
		SimRun o = run(c.wl, c.topo, "o1", seed, c.ms, "model", free_costs);
		ASSERT_EQ(h.ret, 0) << h.err;
		ASSERT_EQ(o.ret, 0) << o.err;
		SCOPED_TRACE(std::string(c.wl) + " on " + c.topo + ", seed " + std::to_string(seed));
		EXPECT_EQ(h.r.sim_ns, o.r.sim_ns);
		EXPECT_EQ(h.r.events, o.r.events);
		EXPECT_EQ(h.r.switches, o.r.switches);
		EXPECT_EQ(h.r.vol_switches, o.r.vol_switches);
		EXPECT_EQ(h.r.migrations, o.r.migrations);
		EXPECT_EQ(h.r.sched_overhead_pct, o.r.sched_overhead_pct) << "(context switches)";
		for (int i = 0; i < 4; i++)
			EXPECT_EQ(h.r.wake_lat_us[i], o.r.wake_lat_us[i]) << "quantile " << i;
		ASSERT_EQ(h.tasks.size(), o.tasks.size());
		for (size_t i = 0; i < h.tasks.size(); i++) {
			EXPECT_EQ(h.tasks[i].runtime_ms, o.tasks[i].runtime_ms) << "task " << i;
			EXPECT_EQ(h.tasks[i].switches, o.tasks[i].switches) << "task " << i;
			EXPECT_EQ(h.tasks[i].delay_max_us, o.tasks[i].delay_max_us) << "task " << i;
		}
		EXPECT_GT(h.r.engine_commands, 100u) << "hw used its engine";
		EXPECT_EQ(o.r.engine_commands, 0u);
		EXPECT_GT(h.r.migrations + h.r.switches, 10u);
	}
}

// The engine built without BALANCE (the small-FPGA build): the firmware reads every CPU's
// loads and decides in software with the same arithmetic. With the bus free, the run is
// the same event for event; the only difference is the commands it takes.
TEST(Machine, WithoutHwBalanceTheFirmwareDecidesTheSameInSoftware)
{
	auto free_bus = [](machine_opts *o) {
		o->sched_opts.costs.bus_ns = 0;
		o->sched_opts.costs.engine_clk_ns = 0;
	};
	auto free_bus_nobal = [](machine_opts *o) {
		o->sched_opts.costs.bus_ns = 0;
		o->sched_opts.costs.engine_clk_ns = 0;
		o->sched_opts.engine.no_balance = 1;
	};
	const char *wl = "mix:tasks=24,burst=300,sleep=200,groups=3";
	SimRun hw = run(wl, "pkg=2,core=2,smt=2", "hw", 4, 200, "model", free_bus);
	SimRun nb = run(wl, "pkg=2,core=2,smt=2", "hw", 4, 200, "model", free_bus_nobal);
	SimRun nbr = run(wl, "pkg=2,core=2,smt=2", "hw", 4, 200, "rtl", free_bus_nobal);
	ASSERT_EQ(hw.ret, 0) << hw.err;
	ASSERT_EQ(nb.ret, 0) << nb.err;
	ASSERT_EQ(nbr.ret, 0) << nbr.err;
	EXPECT_GT(hw.r.migrations, 0u) << "the run must balance for the test to mean anything";
	for (const SimRun *x : { &nb, &nbr }) {
		EXPECT_EQ(x->r.sim_ns, hw.r.sim_ns);
		EXPECT_EQ(x->r.switches, hw.r.switches);
		EXPECT_EQ(x->r.migrations, hw.r.migrations);
		for (int i = 0; i < 4; i++)
			EXPECT_EQ(x->r.wake_lat_us[i], hw.r.wake_lat_us[i]);
		ASSERT_EQ(x->tasks.size(), hw.tasks.size());
		for (size_t i = 0; i < hw.tasks.size(); i++)
			EXPECT_EQ(x->tasks[i].runtime_ms, hw.tasks[i].runtime_ms) << "task " << i;
		// Each software BALANCE reads two words per CPU of its domain instead of
		// sending one query.
		EXPECT_GT(x->r.engine_commands, hw.r.engine_commands);
	}
	EXPECT_EQ(nb.r.engine_commands, nbr.r.engine_commands);
	EXPECT_EQ(nb.r.engine_cycles, nbr.r.engine_cycles);
	// With the bus priced, the software decisions cost the CPUs more bus time.
	SimRun hwc = run(wl, "pkg=2,core=2,smt=2", "hw", 4, 200, "model");
	SimRun nbc = run(wl, "pkg=2,core=2,smt=2", "hw", 4, 200, "model",
			 [](machine_opts *o) { o->sched_opts.engine.no_balance = 1; });
	ASSERT_EQ(nbc.ret, 0) << nbc.err;
	EXPECT_GT(nbc.r.engine_mmio, hwc.r.engine_mmio);
}

TEST(Machine, EveryWorkloadRunsOnEveryScheduler)
{
	struct W {
		const char *w;
		const char *unit;
	};
	for (const W &w : { W{ "tbench:clients=4", "MB/s" },
			    W{ "sysbench:threads=8,backends=2", "transactions/s" },
			    W{ "sysbench:threads=4,cpu=1", "events/s" },
			    W{ "volanomark:rooms=2,users=5", "messages/s" },
			    W{ "dbench:clients=6,groups=2", "MB/s" } })
		for (const char *s : { "hw", "o1", "linux24", "cfs", "eevdf" }) {
			SimRun x = run(w.w, "pkg=2,core=2", s, 4, 60);
			ASSERT_EQ(x.ret, 0) << w.w << " " << s << ": " << x.err;
			EXPECT_GT(x.r.throughput, 0.0) << w.w << " " << s;
			EXPECT_STREQ(x.r.unit, w.unit) << w.w;
			EXPECT_GT(x.r.conservation_checks, 100u) << w.w << " " << s;
		}
	// sysbench cpu: 4 CPU-bound threads on 4 CPUs run 1 ms events back to back.
	SimRun c = run("sysbench:threads=4,cpu=1", "core=4", "o1", 1, 1000);
	ASSERT_EQ(c.ret, 0) << c.err;
	EXPECT_NEAR(c.r.throughput, 4000.0, 40.0);
}

// VolanoMark with its four threads per connection (relay=1, the benchmark's workload
// description): 4 tasks per user; each round every user's message reaches the other
// users - 1 of its room through a server receiver and the server senders, so the messages
// counted by the client receivers are a multiple of users x (users - 1) per room and round,
// minus the rounds in flight. Every scheduler runs it.
TEST(Machine, VolanoMarkRelayRunsFourThreadsPerConnection)
{
	for (const char *s : { "hw", "o1", "linux24", "cfs", "eevdf" }) {
		SimRun one = run("volanomark:rooms=2,users=5", "pkg=2,core=2", s, 4, 60);
		SimRun x = run("volanomark:rooms=2,users=5,relay=1", "pkg=2,core=2", s, 4, 60);
		ASSERT_EQ(x.ret, 0) << s << ": " << x.err;
		EXPECT_EQ(x.tasks.size(), 40u) << s;
		EXPECT_EQ(one.tasks.size(), 10u) << s;
		EXPECT_GT(x.r.work_units, 2 * 5 * 4.0) << s << ": more than one round";
		EXPECT_GT(x.r.switches, one.r.switches) << s << ": twice the hops per message";
	}
}

TEST(Machine, KernbenchForksEveryJobAndWaitsForThem)
{
	for (const char *s : { "hw", "o1", "linux24", "cfs", "eevdf" }) {
		SimRun x = run("kernbench:jobs=3,total=12", "core=2", s, 2, 0);
		ASSERT_EQ(x.ret, 0) << s << ": " << x.err;
		EXPECT_EQ(x.r.work_units, 12.0) << s << ": every job ran to its exit";
		EXPECT_GT(x.r.makespan_s, 0.0) << s;
		// 12 jobs of ~47 ms of CPU each (30 + 15 ms) on 2 CPUs: at least 12 x 45 / 2 ms.
		EXPECT_GT(x.r.makespan_s, 0.2) << s;
	}
}

TEST(Machine, AffinityNiceAndRealTimeAreHonoured)
{
	// Four CPU-bound tasks allowed on CPUs 0-1 only, on a 4-CPU machine.
	for (const char *s : { "hw", "o1", "linux24", "cfs", "eevdf" }) {
		SimRun x = run("mix:tasks=4,sleep=0,msg=0,cpus=2", "core=4", s, 1, 200);
		ASSERT_EQ(x.ret, 0) << s << ": " << x.err;
		EXPECT_GT(x.r.busy_pct[0], 99.0) << s;
		EXPECT_GT(x.r.busy_pct[1], 99.0) << s;
		EXPECT_EQ(x.r.busy_pct[2], 0.0) << s;
		EXPECT_EQ(x.r.busy_pct[3], 0.0) << s;
	}
	// SCHED_RR tasks: round robin every 100 ms slice, six on 4 CPUs all make progress.
	SimRun r = run("mix:tasks=6,sleep=0,msg=0,rt=50", "core=4", "hw", 1, 600);
	ASSERT_EQ(r.ret, 0) << r.err;
	ASSERT_EQ(r.tasks.size(), 6u);
	for (unsigned i = 0; i < r.tasks.size(); i++)
		EXPECT_GT(r.tasks[i].runtime_ms, 100.0) << "task " << i;
	SimRun bad = run("mix:tasks=2,cpus=9", "core=4", "o1", 1, 10);
	EXPECT_NE(bad.err.find("cpus=9"), std::string::npos) << bad.err;
}

TEST(Machine, SameSeedSameRunDifferentSeedDifferentRun)
{
	SimRun a = run("mix:tasks=12,msg=0.5", "pkg=2,core=2", "hw", 5, 100);
	SimRun b = run("mix:tasks=12,msg=0.5", "pkg=2,core=2", "hw", 5, 100);
	SimRun c = run("mix:tasks=12,msg=0.5", "pkg=2,core=2", "hw", 6, 100);
	ASSERT_EQ(a.ret, 0);
	EXPECT_EQ(a.r.events, b.r.events);
	EXPECT_EQ(a.r.switches, b.r.switches);
	EXPECT_EQ(a.r.work_units, b.r.work_units);
	EXPECT_EQ(a.r.wake_lat_us[3], b.r.wake_lat_us[3]);
	EXPECT_NE(a.r.events, c.r.events) << "the seed must matter";
}

TEST(Machine, EveryWorkloadRunsOnTheRtlEngine)
{
	// The engine's default build: 8 CPUs, 256 tasks; lockstep compares it with the model.
	for (const char *w : { "mix:tasks=16", "hackbench:groups=1,loops=2", "tbench:clients=8",
			       "sysbench:threads=8,backends=2", "volanomark:rooms=2,users=4",
			       "kernbench:jobs=4,total=8", "dbench:clients=8" }) {
		SimRun x = run(w, "pkg=2,core=2,smt=2", "hw", 3, 20, "lockstep");
		EXPECT_EQ(x.ret, 0) << w << ": " << x.err;
		EXPECT_GT(x.r.engine_commands, 100u) << w;
	}
}

TEST(Machine, TheTimelineIsWellFormedWithOneLanePerCpu)
{
	for (const char *topo : { "core=2", "numa=4,core=4", "pkg=2,core=16,smt=2" }) {
		machine_opts o;
		machine_default_opts(&o);
		o.workload = "mix:tasks=8";
		o.topology = topo;
		o.sched = "o1";
		o.duration_ns = 30000000;
		std::string path = std::string("build/timeline_") + topo + ".svg";
		o.svg = path.c_str();
		machine_result r;
		char err[300];
		ASSERT_EQ(machine_run(&o, &r, nullptr, err, sizeof(err)), 0) << err;
		FILE *f = fopen(path.c_str(), "r");
		ASSERT_NE(f, nullptr);
		std::string x;
		char buf[4096];
		size_t n;
		while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
			x.append(buf, n);
		fclose(f);
		EXPECT_TRUE(hwstest::svg_well_formed(x)) << topo;
		unsigned lanes = 0;
		for (size_t i = x.find(">CPU "); i != std::string::npos; i = x.find(">CPU ", i + 1))
			lanes++;
		EXPECT_EQ(lanes, r.nr_cpus) << topo;
		EXPECT_NE(x.find("text-anchor=\"middle\">0<"), std::string::npos) << "time axis";
		machine_result_free(&r);
	}
}

TEST(Machine, BadInputIsNamed)
{
	SimRun x = run("fizz", "core=2", "hw", 1, 10);
	EXPECT_EQ(x.ret, -EINVAL);
	EXPECT_NE(x.err.find("fizz"), std::string::npos) << x.err;
	x = run("mix:tasks=4", "core=2", "bfs", 1, 10);
	EXPECT_NE(x.err.find("bfs"), std::string::npos) << x.err;
	x = run("mix:tasks=4", "core=2", "hw", 1, 0);
	EXPECT_NE(x.err.find("duration"), std::string::npos) << x.err;
	x = run("mix:tasks=4,bogus=3", "core=2", "o1", 1, 10);
	EXPECT_NE(x.err.find("bogus"), std::string::npos) << x.err;
	x = run("tbench:clients=4,rooms=2", "core=2", "o1", 1, 10);
	EXPECT_NE(x.err.find("rooms"), std::string::npos) << x.err;
	x = run("volanomark:users=1", "core=2", "o1", 1, 10);
	EXPECT_NE(x.err.find("users"), std::string::npos) << x.err;
}

} // namespace
