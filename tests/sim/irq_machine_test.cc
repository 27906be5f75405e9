// irq_machine_test.cc - the O(1) firmware with the engine's preemption interrupt
// (sched_engine.irq, `run --engine-irq`; docs/firmware.md, "The preemption interrupt"):
// the engine's rule (a link into an active array below CURR[c] raises c's line) and the
// firmware's software check (Linux's TASK_PREEMPTS_CURR: !curr || t->prio < curr->prio)
// must make the same kicks, so a run with the interrupt is the same run event for event as
// one without, when the bus costs nothing (the interrupt's own CURR writes and acks are
// then free, and only the decisions can tell the runs apart). A stale CURR (a test hook
// that skips CURR writes) must make them differ, so the comparison can fail. Seeds are
// printed with any difference (HWS_SEED overrides the default).
#include <gtest/gtest.h>

#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "sim/machine/machine.h"
#include "tests/sim/sim_run.h"
#include "tests/test_util.h"

namespace {

using IrqRun = SimRun;

// One run of scheduler hw with the bus and the engine's clock free; @irq: the interrupt
// mode, @skip: CURR writes it leaves out (the test hook).
IrqRun run(const char *wl, const char *topo, uint64_t seed, uint64_t ms, const char *backend,
	int irq, unsigned skip = 0)
{
	return sim_run(wl, topo, "hw", seed, ms, backend, [irq, skip](machine_opts *o) {
		o->sched_opts.engine.irq = irq;
		o->sched_opts.engine.irq_skip_curr = skip;
		o->sched_opts.costs.bus_ns = 0;
		o->sched_opts.costs.engine_clk_ns = 0;
	});
}

// What differs between two runs' summaries and per-task lines ("" when nothing does).
std::string differences(const IrqRun &a, const IrqRun &b)
{
	std::ostringstream d;
	auto cmp = [&d](const char *what, double x, double y) {
		if (x != y)
			d << what << ": " << x << " vs " << y << "\n";
	};
	cmp("simulated ns", (double)a.r.sim_ns, (double)b.r.sim_ns);
	cmp("events", (double)a.r.events, (double)b.r.events);
	cmp("wakeups", (double)a.r.wakeups, (double)b.r.wakeups);
	cmp("switches", (double)a.r.switches, (double)b.r.switches);
	cmp("voluntary switches", (double)a.r.vol_switches, (double)b.r.vol_switches);
	cmp("involuntary switches", (double)a.r.invol_switches, (double)b.r.invol_switches);
	cmp("migrations", (double)a.r.migrations, (double)b.r.migrations);
	cmp("work units", a.r.work_units, b.r.work_units);
	cmp("run-queue wait ms", a.r.rq_wait_ms, b.r.rq_wait_ms);
	cmp("scheduler overhead %", a.r.sched_overhead_pct, b.r.sched_overhead_pct);
	cmp("engine commands", (double)a.r.engine_commands, (double)b.r.engine_commands);
	for (int i = 0; i < 4; i++)
		cmp("wakeup latency quantile", a.r.wake_lat_us[i], b.r.wake_lat_us[i]);
	for (unsigned c = 0; c < a.r.nr_cpus; c++)
		cmp("busy %", a.r.busy_pct[c], b.r.busy_pct[c]);
	cmp("tasks", (double)a.tasks.size(), (double)b.tasks.size());
	for (size_t i = 0; i < a.tasks.size() && i < b.tasks.size(); i++) {
		cmp("task runtime ms", a.tasks[i].runtime_ms, b.tasks[i].runtime_ms);
		cmp("task switches", (double)a.tasks[i].switches, (double)b.tasks[i].switches);
		cmp("task max delay us", a.tasks[i].delay_max_us, b.tasks[i].delay_max_us);
	}
	return d.str();
}

struct Case {
	const char *wl, *topo;
	uint64_t ms;
};

// Wakes, forks, balancing pulls and pushes, SMT, groups, nice and SCHED_RR tasks, 2 to 40
// CPUs (40: IRQ_PEND1 holds CPUs 32..39).
const Case cases[] = {
	{ "hackbench:groups=2,loops=5", "pkg=2,core=2,smt=2", 0 },
	{ "mix:tasks=24,groups=3", "numa=2,pkg=1,core=2,smt=2", 200 },
	{ "mix:tasks=10,burst=300,sleep=500,nice=5", "core=2", 300 },
	{ "kernbench:jobs=6,total=12", "pkg=1,core=4,smt=1", 0 },
	{ "tbench:clients=6", "pkg=1,core=3,smt=2", 100 },
	{ "mix:tasks=8,sleep=2000,rt=50", "core=4", 200 },
	{ "mix:tasks=60,burst=200,sleep=300", "numa=2,pkg=1,core=20", 60 },
};

TEST(MachineIrq, TheInterruptMakesTheSameKicksAsTheSoftwareCheck)
{
	const uint64_t seed = hwstest::seed_from_env(11);
	for (const Case &c : cases) {
		SCOPED_TRACE(std::string(c.wl) + " on " + c.topo + ", seed " + std::to_string(seed));
		IrqRun sw = run(c.wl, c.topo, seed, c.ms, "model", 0);
		IrqRun irq = run(c.wl, c.topo, seed, c.ms, "model", 1);
		ASSERT_EQ(sw.ret, 0) << sw.err;
		ASSERT_EQ(irq.ret, 0) << irq.err;
		EXPECT_EQ(differences(sw, irq), "");
		EXPECT_GT(sw.r.wakeups, 20u) << "the run must wake tasks to mean anything";
		// The interrupt's CURR writes and acks are MMIO accesses the other run lacks.
		EXPECT_GT(irq.r.engine_mmio, sw.r.engine_mmio);
	}
}

// The same on the Verilated engine beside the model (every access compared), one short run.
TEST(MachineIrq, TheInterruptMakesTheSameKicksOnLockstep)
{
	const uint64_t seed = hwstest::seed_from_env(3);
	SCOPED_TRACE("hackbench:groups=1,loops=4 on pkg=2,core=2, seed " + std::to_string(seed));
	IrqRun sw = run("hackbench:groups=1,loops=4", "pkg=2,core=2", seed, 0, "lockstep", 0);
	IrqRun irq = run("hackbench:groups=1,loops=4", "pkg=2,core=2", seed, 0, "lockstep", 1);
	IrqRun model = run("hackbench:groups=1,loops=4", "pkg=2,core=2", seed, 0, "model", 1);
	ASSERT_EQ(sw.ret, 0) << sw.err;
	ASSERT_EQ(irq.ret, 0) << irq.err;
	ASSERT_EQ(model.ret, 0) << model.err;
	EXPECT_EQ(differences(sw, irq), "");
	EXPECT_EQ(differences(model, irq), "");
	EXPECT_EQ(model.r.engine_mmio, irq.r.engine_mmio);
	EXPECT_EQ(model.r.engine_cycles, irq.r.engine_cycles);
	EXPECT_GT(sw.r.wakeups, 20u);
	EXPECT_STREQ(irq.r.backend, "lockstep");
}

// A CURR the firmware leaves stale (the hook skips its first writes) makes the engine
// raise lines the software check would not: extra reschedules, a different run.
TEST(MachineIrq, AStaleCurrMakesTheRunsDiffer)
{
	const uint64_t seed = hwstest::seed_from_env(11);
	unsigned differ = 0;
	for (const Case &c : cases) {
		IrqRun sw = run(c.wl, c.topo, seed, c.ms, "model", 0);
		IrqRun stale = run(c.wl, c.topo, seed, c.ms, "model", 1, 1);
		ASSERT_EQ(sw.ret, 0) << sw.err;
		ASSERT_EQ(stale.ret, 0) << stale.err;
		if (differences(sw, stale) != "")
			differ++;
		else
			printf("stale CURR changed nothing on %s on %s, seed %llu\n", c.wl, c.topo,
			       (unsigned long long)seed);
	}
	EXPECT_GE(differ, 4u) << "of " << sizeof(cases) / sizeof(cases[0]) << " workloads, seed "
			      << seed;
}

// The interrupt mode needs the interrupt, and an engine.
TEST(MachineIrq, TheModeIsRefusedWithoutTheInterruptOrAnEngine)
{
	machine_opts o;
	machine_default_opts(&o);
	o.workload = "mix:tasks=4";
	o.topology = "core=2";
	o.duration_ns = 10000000;
	o.sched_opts.engine.irq = 1;
	o.sched_opts.engine.no_irq = 1;
	machine_result r;
	char err[400] = "";
	EXPECT_NE(machine_run(&o, &r, nullptr, err, sizeof(err)), 0);
	machine_result_free(&r);
	EXPECT_NE(std::string(err).find("engine irq = 1 needs the engine's preemption interrupt"),
		  std::string::npos) << err;
	o.sched_opts.engine.no_irq = 0;
	o.sched = "o1";
	err[0] = 0;
	EXPECT_NE(machine_run(&o, &r, nullptr, err, sizeof(err)), 0);
	machine_result_free(&r);
	EXPECT_NE(std::string(err).find("engine irq: an option of the engine's run queue"),
		  std::string::npos) << err;
}

} // namespace
