// fair6_test.cc - EEVDF's Linux 6.x placement and balancing (firmware/fw_fair6.c) and
// 6.12's delayed dequeue (fw_fair.c), on a fake machine of N CPUs whose running tasks the
// test sets. Each expected CPU is worked out in the comments from kernel/sched/fair.c of
// 6.12 (docs/eevdf.md, "Linux 6.x"): select_task_rq_fair's wake_affine (idle, weight,
// the sync hint), wake_wide, select_idle_sibling, the fork's slow path, PELT's half-life,
// the newly idle pull and the nohz kick, and the version's base slice.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <deque>
#include <vector>

#include "firmware/fw_fair.h"
#include "hws/sched.h"

namespace {

constexpr uint64_t MS = 1000000;

// A machine of @ncpu cores in one package (one MC domain sharing the LLC), HZ 250.
struct Mach {
	const sched_ops *ops = &sched_eevdf_ops;
	sched_topo topo{};
	sched_env env{};
	uint32_t shares[SCHED_MAX_GROUPS];
	uint64_t now = 0;
	std::vector<sched_task *> curr;
	std::vector<int> kicked;
	std::deque<sched_task> tasks;
	sched *s = nullptr;
	char msg[256] = "";

	explicit Mach(unsigned ncpu, unsigned kernel = 618)
	{
		topo.nr_cpus = ncpu;
		topo.smt = topo.pkgs = topo.nodes = 1;
		topo.cores = ncpu;
		for (unsigned c = 0; c < ncpu; c++) {
			topo.lead[0][c] = uint8_t(c);
			topo.lead[1][c] = 0;
			topo.lead[2][c] = 0;
		}
		curr.assign(ncpu, nullptr);
		kicked.assign(ncpu, 0);
		for (auto &x : shares)
			x = 1024;
		env.machine = this;
		env.topo = &topo;
		env.nr_tasks = 32;
		env.nr_groups = 1;
		env.group_shares = shares;
		env.now = [](void *m) { return static_cast<Mach *>(m)->now; };
		env.charge = [](void *, unsigned, double, int) {};
		env.moved = [](void *, sched_task *, unsigned, unsigned) {};
		env.kick = [](void *m, unsigned c) { static_cast<Mach *>(m)->kicked[c]++; };
		env.cpu_busy = [](void *m, unsigned c) {
			return static_cast<Mach *>(m)->curr[c] ? 1 : 0;
		};
		env.curr = [](void *m, unsigned c) { return static_cast<Mach *>(m)->curr[c]; };
		env.hz = 250;
		sched_opts o;
		sched_opts_default(&o);
		o.fair.kernel = kernel;
		s = ops->create(&env, &o, msg, sizeof(msg));
	}
	~Mach()
	{
		if (s)
			ops->destroy(s);
	}
	Mach(const Mach &) = delete;
	Mach &operator=(const Mach &) = delete;

	// A new task, forked from @cpu and queued wherever fork balancing puts it.
	sched_task *fork(unsigned cpu)
	{
		sched_task t{};
		t.id = unsigned(tasks.size());
		t.rt_prio = -1;
		t.allowed = (1ull << topo.nr_cpus) - 1;
		tasks.push_back(t);
		ops->task_new(s, &tasks.back(), nullptr, cpu);
		ops->wake(s, &tasks.back(), cpu, SCHED_FORK);
		return &tasks.back();
	}
	// @cpu picks; the task it picks runs there.
	sched_task *pick(unsigned cpu)
	{
		if (curr[cpu])
			ops->put_prev(s, cpu, curr[cpu], 1, 0);
		curr[cpu] = ops->pick(s, cpu);
		return curr[cpu];
	}
	// The task running on @cpu blocks.
	void block(unsigned cpu)
	{
		ops->put_prev(s, cpu, curr[cpu], 0, 0);
		curr[cpu] = nullptr;
	}
	// Where a task runs: fork it from @cpu and make it run there (however fork placed it,
	// the test wants it on @cpu: it is moved by waking it there after a first run).
	sched_task *running_on(unsigned cpu)
	{
		sched_task *t = fork(cpu);
		unsigned q = unsigned(t->cpu);
		EXPECT_EQ(pick(q), t);
		if (q != cpu) {	// block and wake it from @cpu with @cpu idle: it goes there
			block(q);
			t->cpu = int(cpu);
			t->allowed = 1ull << cpu;
			ops->wake(s, t, cpu, SCHED_WAKE);
			EXPECT_EQ(pick(cpu), t);
			t->allowed = (1ull << topo.nr_cpus) - 1;
		}
		return t;
	}
};

TEST(Fair6, BaseSliceFollowsTheKernelVersion)
{
	// sysctl_sched_base_slice: 0.75 ms to 6.14, 0.70 ms from 6.15, times 1 + ilog2(2) = 2.
	fair_tun t{};
	eevdf_tunables(2, &t);
	eevdf_version(612, 2, &t);
	EXPECT_EQ(t.base_slice, 1500000u);
	EXPECT_TRUE(t.delay_dequeue);
	eevdf_tunables(2, &t);
	eevdf_version(615, 2, &t);
	EXPECT_EQ(t.base_slice, 1400000u);
	eevdf_tunables(2, &t);
	eevdf_version(0, 2, &t);
	EXPECT_EQ(t.kernel, 606u);
	EXPECT_FALSE(t.delay_dequeue) << "6.6 has no delayed dequeue";
	EXPECT_TRUE(t.linux6);
}

TEST(Fair6, AnIdlePreviousCpuKeepsItsWakee)
{
	// select_idle_sibling(): wake_affine_idle() with this CPU busy and prev idle returns
	// prev, and an idle target is taken at once: the wakee stays on CPU 1.
	Mach m(2);
	ASSERT_NE(m.s, nullptr) << m.msg;
	sched_task *w = m.running_on(0);
	sched_task *p = m.running_on(1);
	m.now += MS;
	m.block(1);
	ASSERT_EQ(m.curr[0], w);
	EXPECT_EQ(m.ops->wake(m.s, p, 0, SCHED_WAKE_SYNC), 1u);
}

TEST(Fair6, ASyncWakeupPullsToAWakerThatRunsAlone)
{
	// wake_affine_idle(): this CPU (0) runs only the waker and the wake is sync: target 0.
	// select_idle_sibling(p, prev 1, target 0): 0 busy, 1 busy (x runs there), no other
	// CPU: target 0.
	Mach m(2);
	ASSERT_NE(m.s, nullptr) << m.msg;
	sched_task *w = m.running_on(0);
	sched_task *p = m.running_on(1);
	m.now += MS;
	m.block(1);
	sched_task *x = m.running_on(1);
	ASSERT_EQ(m.curr[0], w);
	ASSERT_EQ(m.curr[1], x);
	EXPECT_EQ(m.ops->wake(m.s, p, 0, SCHED_WAKE_SYNC), 0u);
}

TEST(Fair6, WithoutTheSyncHintTheWeightDecides)
{
	// The same, not sync: wake_affine_weight() compares (load(0) + load(p)) x 100 with
	// (load(1) - load(p)) x 108 (imbalance_pct 117: 100 + 17 / 2). Every task is new, so
	// every load is its weight (1024): 2048 x 100 against (2048 - 1024) x 108 is not
	// smaller: prev. CPU 1 busy, CPU 0 busy: p stays on 1.
	Mach m(2);
	ASSERT_NE(m.s, nullptr) << m.msg;
	m.running_on(0);
	sched_task *p = m.running_on(1);
	m.block(1);
	m.running_on(1);
	EXPECT_EQ(m.ops->wake(m.s, p, 0, SCHED_WAKE), 1u);
}

TEST(Fair6, AWakerOfManyWakesWide)
{
	// wake_wide(): the waker flipped among 8 wakees, the wakee among 2, on an LLC of 2:
	// slave 2 >= factor 2 and master 8 >= 2 x 2: wide, no wake_affine, so even a sync
	// wake leaves the wakee on its own (busy) CPU, where select_idle_sibling finds no
	// idle CPU either.
	Mach m(2);
	ASSERT_NE(m.s, nullptr) << m.msg;
	std::vector<sched_task *> parked;
	for (int i = 0; i < 10; i++) {	// tasks that ran on CPU 1 and sleep
		parked.push_back(m.running_on(1));
		m.block(1);
	}
	sched_task *p = m.running_on(1);
	m.ops->wake(m.s, parked[0], 1, SCHED_WAKE);	// p wakes two tasks: 2 flips
	m.ops->wake(m.s, parked[1], 1, SCHED_WAKE);
	m.block(1);
	sched_task *w = m.running_on(0);
	for (int i = 2; i < 10; i++)	// w wakes eight: 8 flips
		m.ops->wake(m.s, parked[i], 0, SCHED_WAKE);
	m.pick(1);
	ASSERT_EQ(m.curr[0], w);
	ASSERT_NE(m.curr[1], nullptr);
	EXPECT_EQ(m.ops->wake(m.s, p, 0, SCHED_WAKE_SYNC), 1u);
}

TEST(Fair6, AForkGoesToTheGroupWithAnIdleCpu)
{
	// sched_balance_find_dst_group(): local group {0} runs a task (has no idle CPU), the
	// group {1} is idle: both have spare capacity, the other has more idle CPUs: CPU 1.
	Mach m(2);
	ASSERT_NE(m.s, nullptr) << m.msg;
	m.running_on(0);
	sched_task *c = m.fork(0);
	EXPECT_EQ(c->cpu, 1);
}

TEST(Fair6, AnIneligibleSleeperStaysQueuedUntilPicked)
{
	// DELAY_DEQUEUE (6.12): a and b on one CPU; a runs 5 ms while b waits, so a's vruntime
	// is past the average and a is not eligible when it blocks: it stays on the queue,
	// out of the machine's count, and a wake finds it there (no CPU is chosen).
	Mach m(1);
	ASSERT_NE(m.s, nullptr) << m.msg;
	sched_task *a = m.fork(0);
	sched_task *b = m.fork(0);
	sched_task *first = m.pick(0);
	sched_task *other = first == a ? b : a;
	m.now += 5 * MS;
	m.ops->tick(m.s, 0, first);
	m.block(0);
	EXPECT_TRUE(fair_task_delayed(m.s, first->id));
	EXPECT_EQ(m.ops->where(m.s, first), -1) << "blocked to the machine";
	EXPECT_EQ(m.ops->nr_queued(m.s, 0), 1u) << "only the other task is runnable";
	EXPECT_EQ(m.pick(0), other);
	EXPECT_EQ(m.ops->wake(m.s, first, 0, SCHED_WAKE), 0u);
	EXPECT_FALSE(fair_task_delayed(m.s, first->id));
	EXPECT_EQ(m.ops->where(m.s, first), 0);
}

TEST(Fair6, The66VersionDequeuesAtOnce)
{
	Mach m(1, 606);
	ASSERT_NE(m.s, nullptr) << m.msg;
	sched_task *a = m.fork(0);
	m.fork(0);
	sched_task *first = m.pick(0);
	(void)a;
	m.now += 5 * MS;
	m.block(0);
	EXPECT_FALSE(fair_task_delayed(m.s, first->id));
}

TEST(Fair6, PeltLoadHalvesIn32Periods)
{
	// PELT: y^32 = 1/2 with a period of 1024 us. A task runs alone long enough to reach
	// its weight, then blocks: 32 periods later the CPU's load is half of it.
	Mach m(1);
	ASSERT_NE(m.s, nullptr) << m.msg;
	m.fork(0);
	m.pick(0);
	for (int i = 0; i < 400; i++) {
		m.now += MS;
		m.ops->tick(m.s, 0, m.curr[0]);
	}
	double full = fair_cpu_load(m.s, 0);
	EXPECT_NEAR(full, 1024.0, 1.0);
	m.block(0);
	m.now += 32 * 1024000;
	EXPECT_NEAR(fair_cpu_load(m.s, 0), full / 2, 1.0);
}

TEST(Fair6, ANewlyIdleCpuPullsACacheColdTask)
{
	// sched_balance_newidle(): CPU 0 runs one task and has two queued that last ran
	// 10 ms ago (colder than sysctl_sched_migration_cost, 0.5 ms); CPU 1 goes idle: the
	// root domain is overloaded, avg_idle (1 ms at boot) is above the balance's cost;
	// the domain's newidle_ratio (50% at boot) throws a dice, so try a few times.
	Mach m(2);
	ASSERT_NE(m.s, nullptr) << m.msg;
	sched_task *r = m.running_on(0);
	sched_task *q1 = m.running_on(1);
	sched_task *q2 = nullptr;
	m.block(1);
	q2 = m.running_on(1);
	m.block(1);
	// both wake onto CPU 0 (CPU 1 not allowed for the wake), then may move again
	q1->allowed = q2->allowed = 1;
	m.ops->wake(m.s, q1, 0, SCHED_WAKE);
	m.ops->wake(m.s, q2, 0, SCHED_WAKE);
	q1->allowed = q2->allowed = 3;
	ASSERT_EQ(m.ops->nr_queued(m.s, 0), 2u);
	m.now += 10 * MS;
	sched_task *got = nullptr;
	for (int i = 0; i < 20 && !got; i++)
		got = m.pick(1);
	ASSERT_NE(got, nullptr) << "no pull in 20 newly idle balances";
	EXPECT_NE(got, r) << "the running task is not pulled";
	EXPECT_EQ(m.ops->nr_queued(m.s, 0), 1u);
}

}	// namespace
