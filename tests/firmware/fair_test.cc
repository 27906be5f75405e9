// fair_test.cc - the fair policies of firmware/fw_fair.c: CFS (2.6.26, fw_cfs.c) and EEVDF
// (6.6, fw_eevdf.c). Bare run queues worked by hand (vruntime order, the wakeup
// granularity's edge, the sleeper credit, eligibility, lag on wake, the earliest eligible
// deadline, group shares), a random check of the tree's pick against a scan, and the
// schedulers through sched_ops on a fake one-CPU machine (weights and group shares over
// 2 s of CPU-bound tasks). Each expected figure is worked out in the comments from the
// formulas of docs/cfs.md and docs/eevdf.md.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <deque>
#include <random>
#include <vector>

#include "firmware/fw_fair.h"
#include "hws/sched.h"
#include "lib/hws_weight.h"
#include "tests/test_util.h"

namespace {

constexpr uint64_t MS = 1000000;

fair_ent ent(uint64_t v, uint32_t w, unsigned key)
{
	fair_ent e{};
	e.vruntime = v;
	e.weight = w;
	e.key = key;
	e.hprio = key * 2654435761u;
	return e;
}

void add(fair_rq &rq, fair_ent &e)
{
	fair_account_add(&rq, &e);
}

fair_tun cfs1()
{
	fair_tun t;
	cfs_tunables(1, &t);
	return t;
}

fair_tun eevdf1()
{
	fair_tun t;
	eevdf_tunables(1, &t);
	return t;
}

TEST(FairCfs, TunablesScaleWithTheCpuCountAs2626)
{
	fair_tun t = cfs1();
	EXPECT_EQ(t.latency, 20 * MS);
	EXPECT_EQ(t.min_granularity, 4 * MS);
	EXPECT_EQ(t.wakeup_granularity, 10 * MS);
	EXPECT_EQ(t.nr_latency, 5u);
	cfs_tunables(4, &t);	// factor 1 + ilog2(4) = 3
	EXPECT_EQ(t.latency, 60 * MS);
	EXPECT_EQ(t.min_granularity, 12 * MS);
	EXPECT_EQ(t.wakeup_granularity, 30 * MS);
	cfs_tunables(64, &t);	// factor 7: 140 ms, 28 ms, 70 ms (under the 200 ms cap)
	EXPECT_EQ(t.latency, 140 * MS);
	// period: latency up to nr_latency tasks, then nr x min_granularity
	t = cfs1();
	EXPECT_EQ(cfs_sched_period(&t, 5), 20 * MS);
	EXPECT_EQ(cfs_sched_period(&t, 6), 24 * MS);
}

TEST(FairCfs, TheTreeOrdersByVruntimeAndTiesByKey)
{
	fair_rq rq;
	fair_rq_init(&rq);
	fair_ent a = ent(30 * MS, 1024, 0), b = ent(10 * MS, 1024, 1), c = ent(20 * MS, 1024, 2),
		 d = ent(10 * MS, 1024, 3);
	add(rq, a);
	add(rq, b);
	add(rq, c);
	add(rq, d);
	EXPECT_EQ(rq.nr_running, 4u);
	EXPECT_EQ(rq.load, 4096u);
	EXPECT_EQ(fair_leftmost(&rq), &b) << "10 ms, key 1 before key 3";
	fair_account_remove(&rq, &b);
	EXPECT_EQ(fair_leftmost(&rq), &d);
	fair_account_remove(&rq, &d);
	EXPECT_EQ(fair_leftmost(&rq), &c);
	fair_account_remove(&rq, &c);
	EXPECT_EQ(fair_leftmost(&rq), &a);
	// vruntime near the 2^64 wrap still orders: 2^64 - 1 ms is before 1 ms.
	fair_ent w = ent(UINT64_MAX - MS + 1, 1024, 9);
	fair_ent x = ent(MS, 1024, 8);
	fair_rq r2;
	fair_rq_init(&r2);
	add(r2, x);
	add(r2, w);
	EXPECT_EQ(fair_leftmost(&r2), &w);
}

TEST(FairCfs, VruntimeAdvancesByDeltaTimesNice0OverWeight)
{
	// calc_delta_fair(): 10 ms at nice 5 (weight 335) is 10240000000 / 335 = 30567164 ns.
	EXPECT_EQ(hws_weight_of(125), 335u);
	EXPECT_EQ(fair_calc_delta(10 * MS, 335), 30567164u);
	EXPECT_EQ(fair_calc_delta(10 * MS, 1024), 10 * MS);
	fair_rq rq;
	fair_rq_init(&rq);
	fair_ent a = ent(0, 335, 0), b = ent(5 * MS, 1024, 1);
	add(rq, a);
	add(rq, b);
	fair_tree_remove(&rq, &a);	// a is picked: curr, out of the tree
	rq.curr = &a;
	fair_charge_curr(&rq, 10 * MS);
	EXPECT_EQ(a.vruntime, 30567164u);
	EXPECT_EQ(a.sum_exec, 10 * MS);
	// min_vruntime follows min(curr, leftmost) = b's 5 ms, never backwards
	EXPECT_EQ(rq.min_vruntime, 5 * MS);
}

TEST(FairCfs, WakeupPreemptsExactlyBeyondTheGranularity)
{
	fair_tun t = cfs1();	// 1 CPU: wakeup_granularity 10 ms
	fair_ent curr = ent(100 * MS, 1024, 0);
	fair_ent woken = ent(90 * MS, 1024, 1);
	// 100 - 90 = 10 ms: se + gran < curr is 100 < 100, false
	EXPECT_FALSE(cfs_wakeup_preempt(&t, &curr, &woken));
	woken.vruntime = 90 * MS - 1;	// 10 ms + 1 ns ahead: preempts
	EXPECT_TRUE(cfs_wakeup_preempt(&t, &curr, &woken));
	// A heavier current task (nice -5, 3121) is preempted more easily: gran =
	// 10240000000 / 3121 = 3280999 ns (3121 x 3281000 is 10240001000, just over).
	curr.weight = hws_weight_of(115);
	ASSERT_EQ(curr.weight, 3121u);
	woken.vruntime = 100 * MS - 3280999;
	EXPECT_FALSE(cfs_wakeup_preempt(&t, &curr, &woken));
	woken.vruntime--;
	EXPECT_TRUE(cfs_wakeup_preempt(&t, &curr, &woken));
	// A lighter one (nice 5) keeps the full 10 ms (2.6.26 scales only above nice 0).
	curr.weight = 335;
	woken.vruntime = 90 * MS;
	EXPECT_FALSE(cfs_wakeup_preempt(&t, &curr, &woken));
}

TEST(FairCfs, SleeperCreditIsOneLatencyAndNeverMovesBack)
{
	fair_tun t = cfs1();
	fair_rq rq;
	fair_rq_init(&rq);
	rq.min_vruntime = 100 * MS;
	fair_ent longsleep = ent(50 * MS, 1024, 0), shortsleep = ent(90 * MS, 1024, 1);
	cfs_place(&t, &rq, &longsleep, FAIR_ENQ_WAKEUP);
	EXPECT_EQ(longsleep.vruntime, 80 * MS) << "min_vruntime - latency (20 ms)";
	cfs_place(&t, &rq, &shortsleep, FAIR_ENQ_WAKEUP);
	EXPECT_EQ(shortsleep.vruntime, 90 * MS) << "max(own 90, 80)";
	// A new task (START_DEBIT) on a queue of one nice-0 task: min + period(2) x 1024 /
	// (1024 + 1024) = 100 + 10 ms.
	fair_ent other = ent(100 * MS, 1024, 2), child = ent(0, 1024, 3);
	add(rq, other);
	cfs_place(&t, &rq, &child, FAIR_ENQ_INITIAL);
	EXPECT_EQ(child.vruntime, 110 * MS);
}

TEST(FairCfs, TickPreemptsOnceTheSliceIsUsed)
{
	fair_tun t = cfs1();
	fair_rq rq;
	fair_rq_init(&rq);
	fair_ent a = ent(0, 1024, 0), b = ent(0, 3072, 1);
	add(rq, a);
	add(rq, b);
	// slice of a = period 20 ms x 1024 / 4096 = 5 ms; of b 15 ms
	EXPECT_EQ(cfs_sched_slice(&t, &rq, &a), 5 * MS);
	EXPECT_EQ(cfs_sched_slice(&t, &rq, &b), 15 * MS);
	a.prev_sum_exec = 0;
	a.sum_exec = 5 * MS;
	EXPECT_FALSE(cfs_tick_preempt(&t, &rq, &a));
	a.sum_exec = 5 * MS + 1;
	EXPECT_TRUE(cfs_tick_preempt(&t, &rq, &a));
}

TEST(FairGroups, SharesSplitByRunnableWeight)
{
	// 3 nice-0 tasks on CPU 0, 1 on CPU 1, none on CPU 2: sum 4096.
	EXPECT_EQ(fair_group_share(1024, 3072, 4096), 767u) << "1024 x 3072 / 4097";
	EXPECT_EQ(fair_group_share(1024, 1024, 4096), 255u) << "1024 x 1024 / 4097";
	EXPECT_EQ(fair_group_share(1024, 0, 4096), 255u) << "an empty CPU counts one nice-0 task";
	EXPECT_EQ(fair_group_share(1024, 0, 0), 1023u) << "nothing runnable: 1024 x 1024 / 1025";
	EXPECT_EQ(fair_group_share(2048, 4096, 4096), 2047u) << "all on one CPU";
	EXPECT_EQ(fair_group_share(2, 1024, 1 << 20), 2u) << "MIN_SHARES";
	EXPECT_EQ(fair_group_share(1u << 20, 1024, 1024), 1u << 18) << "MAX_SHARES";
}

TEST(FairEevdf, BaseSliceScalesWithLog2OfUpTo8Cpus)
{
	fair_tun t = eevdf1();
	EXPECT_EQ(t.base_slice, 750000u);
	eevdf_tunables(2, &t);
	EXPECT_EQ(t.base_slice, 1500000u);
	eevdf_tunables(8, &t);
	EXPECT_EQ(t.base_slice, 3000000u);
	eevdf_tunables(64, &t);
	EXPECT_EQ(t.base_slice, 3000000u) << "min(ncpus, 8)";
}

TEST(FairEevdf, EligibleWhenAtOrBelowTheWeightedAverage)
{
	fair_rq rq;
	fair_rq_init(&rq);
	fair_ent a = ent(0, 1024, 0), b = ent(20 * MS, 3072, 1), c = ent(15 * MS, 1024, 2);
	add(rq, a);
	add(rq, b);
	// avg = (0 x 1024 + 20 x 3072) / 4096 = 15 ms
	EXPECT_EQ(eevdf_avg_vruntime(&rq), 15 * MS);
	EXPECT_TRUE(eevdf_eligible(&rq, &a));
	EXPECT_FALSE(eevdf_eligible(&rq, &b));
	// c at exactly 15 ms (avg with c: (0 + 61440 + 15 x 1024) / 5120 = 15 ms): lag 0, eligible
	add(rq, c);
	EXPECT_EQ(eevdf_avg_vruntime(&rq), 15 * MS);
	EXPECT_TRUE(eevdf_eligible(&rq, &c));
	// curr counts in the average though it is out of the tree
	fair_tree_remove(&rq, &b);
	rq.curr = &b;
	EXPECT_EQ(eevdf_avg_vruntime(&rq), 15 * MS);
	EXPECT_FALSE(eevdf_eligible(&rq, &b));
}

TEST(FairEevdf, PicksTheEligibleEntityWithTheEarliestDeadline)
{
	fair_rq rq;
	fair_rq_init(&rq);
	fair_ent a = ent(0, 1024, 0), b = ent(5 * MS, 1024, 1), c = ent(20 * MS, 1024, 2);
	a.deadline = 10 * MS;
	b.deadline = 8 * MS;
	c.deadline = 6 * MS;
	add(rq, a);
	add(rq, b);
	add(rq, c);
	// avg = 25 / 3 ms: a, b eligible; c has the earliest deadline but is not eligible
	EXPECT_FALSE(eevdf_eligible(&rq, &c));
	EXPECT_EQ(eevdf_pick(&rq), &b);
	// b as curr, eligible and not yet given a new slice (RUN_TO_PARITY): b stays
	fair_tree_remove(&rq, &b);
	rq.curr = &b;
	b.vlag = (int64_t)b.deadline;
	b.deadline = 12 * MS;
	b.vlag = (int64_t)b.deadline;
	EXPECT_EQ(eevdf_pick(&rq), &b);
	// once it has had a new slice (vlag != deadline), a's 10 ms beats b's 12 ms
	b.vlag = 0;
	EXPECT_EQ(eevdf_pick(&rq), &a);
}

TEST(FairEevdf, AWakingTaskKeepsItsLag)
{
	fair_tun t = eevdf1();	// base slice 0.75 ms
	fair_rq rq;
	fair_rq_init(&rq);
	fair_ent a = ent(0, 1024, 0), b = ent(10 * MS, 1024, 1);
	a.slice = b.slice = t.base_slice;
	add(rq, a);
	add(rq, b);
	// avg 5 ms; a's lag 5 ms, clamped to max(2 x 0.75 ms, 1 ms) = 1.5 ms at nice 0
	eevdf_save_lag(&t, &rq, &a);
	EXPECT_EQ(a.vlag, 1500000);
	fair_account_remove(&rq, &a);
	fair_update_min_vruntime(&rq);
	EXPECT_EQ(rq.min_vruntime, 10 * MS);
	// placed back: avg 10 ms - 1.5 ms x (1024 + 1024) / 1024 = 7 ms; deadline + 0.75 ms
	eevdf_place(&t, &rq, &a, FAIR_ENQ_WAKEUP);
	EXPECT_EQ(a.vruntime, 7 * MS);
	EXPECT_EQ(a.deadline, 7 * MS + 750000);
	add(rq, a);
	// with a back in, avg = 8.5 ms: a's lag is again 1.5 ms
	EXPECT_EQ(eevdf_avg_vruntime(&rq), 8500000u);
	// a new task gets half a slice for its first deadline (PLACE_DEADLINE_INITIAL)
	fair_ent n = ent(0, 1024, 2);
	eevdf_place(&t, &rq, &n, FAIR_ENQ_INITIAL);
	EXPECT_EQ(n.vruntime, 8500000u);
	EXPECT_EQ(n.deadline, 8500000u + 375000);
	// a negative lag (it ran ahead) places it after the average
	fair_ent m = ent(0, 1024, 3);
	m.vlag = -1000000;
	eevdf_place(&t, &rq, &m, FAIR_ENQ_WAKEUP);
	EXPECT_EQ(m.vruntime, 8500000u + 1500000u) << "1 ms x (2048 + 1024) / 2048";
}

TEST(FairEevdf, TreePickMatchesAScanOnRandomQueues)
{
	const uint64_t seed = hwstest::seed_from_env(24);
	std::mt19937_64 rng(seed);
	for (int round = 0; round < 200; round++) {
		fair_rq rq;
		fair_rq_init(&rq);
		rq.min_vruntime = rng() % (1000 * MS);
		std::vector<fair_ent> es(1 + rng() % 40);
		for (unsigned i = 0; i < es.size(); i++) {
			es[i] = ent(rq.min_vruntime + rng() % (50 * MS), hws_weight_of(100 + rng() % 40), i);
			es[i].deadline = es[i].vruntime + rng() % (20 * MS);
			add(rq, es[i]);
		}
		// remove a few, to exercise the tree's erase
		for (unsigned i = 0; i < es.size(); i += 3 + rng() % 4)
			if (es.size() > 1 && i)
				fair_account_remove(&rq, &es[i]);
		const fair_ent *want = nullptr;
		for (auto &e : es)
			if (e.on_rq && eevdf_eligible(&rq, &e) &&
			    (!want || (int64_t)(e.deadline - want->deadline) < 0))
				want = &e;
		const fair_ent *got = eevdf_pick(&rq);
		ASSERT_NE(got, nullptr) << "seed " << seed << " round " << round;
		EXPECT_EQ(got->deadline, want->deadline) << "seed " << seed << " round " << round;
		const fair_ent *left = nullptr;
		for (auto &e : es)
			if (e.on_rq && (!left || (int64_t)(e.vruntime - left->vruntime) < 0 ||
					(e.vruntime == left->vruntime && e.key < left->key)))
				left = &e;
		EXPECT_EQ(fair_leftmost(&rq), left) << "seed " << seed << " round " << round;
	}
}

// A one-CPU machine of CPU-bound tasks, driven tick by tick.
struct Fake {
	const sched_ops *ops;
	sched_topo topo{};
	sched_env env{};
	uint32_t shares[SCHED_MAX_GROUPS];
	uint64_t now = 0;
	sched_task *curr = nullptr;
	bool kicked = false;
	std::deque<sched_task> tasks;
	std::vector<uint64_t> ran;
	sched *s = nullptr;
	char msg[256] = "";

	Fake(const char *name, unsigned nr_groups)
	{
		ops = sched_find(name);
		topo.nr_cpus = 1;
		topo.smt = topo.cores = topo.pkgs = topo.nodes = 1;
		for (auto &x : shares)
			x = 1024;
		env.machine = this;
		env.topo = &topo;
		env.nr_tasks = 16;
		env.nr_groups = nr_groups;
		env.group_shares = shares;
		env.now = [](void *m) { return static_cast<Fake *>(m)->now; };
		env.charge = [](void *, unsigned, double, int) {};
		env.moved = [](void *, sched_task *, unsigned, unsigned) {};
		env.kick = [](void *m, unsigned) { static_cast<Fake *>(m)->kicked = true; };
		env.cpu_busy = [](void *m, unsigned) { return static_cast<Fake *>(m)->curr ? 1 : 0; };
		env.curr = [](void *m, unsigned) { return static_cast<Fake *>(m)->curr; };
		sched_opts o;
		sched_opts_default(&o);
		s = ops->create(&env, &o, msg, sizeof(msg));
	}
	~Fake()
	{
		if (s)
			ops->destroy(s);
	}
	Fake(const Fake &) = delete;
	Fake &operator=(const Fake &) = delete;

	sched_task *add(int nice, unsigned group)
	{
		sched_task t{};
		t.id = unsigned(tasks.size());
		t.nice = nice;
		t.rt_prio = -1;
		t.group = group;
		t.allowed = 1;
		tasks.push_back(t);
		ran.push_back(0);
		ops->task_new(s, &tasks.back(), nullptr, 0);
		ops->wake(s, &tasks.back(), 0, SCHED_FORK);
		return &tasks.back();
	}
	void resched()
	{
		kicked = false;
		if (curr)
			ops->put_prev(s, 0, curr, 1, 0);
		curr = ops->pick(s, 0);
	}
	void run_ms(unsigned ms)
	{
		if (!curr || kicked)
			resched();
		for (unsigned i = 0; i < ms; i++) {
			now += MS;
			if (curr)
				ran[curr->id] += MS;
			if (ops->tick(s, 0, curr) || kicked)
				resched();
		}
	}
};

TEST(FairSched, CpuTimeFollowsTheWeights)
{
	// nice 0 (1024) against nice 5 (335) for 2 s: 2000 x 1024 / 1359 = 1507 ms.
	for (const char *name : { "cfs", "eevdf" }) {
		Fake f(name, 1);
		ASSERT_NE(f.s, nullptr) << f.msg;
		f.add(0, 0);
		f.add(5, 0);
		f.run_ms(2000);
		EXPECT_NEAR(double(f.ran[0]) / MS, 1507.0, 25.0) << name;
		EXPECT_EQ(f.ran[0] + f.ran[1], 2000 * MS) << name;
	}
}

TEST(FairSched, AGroupOfFourGetsOneTasksShareAgainstARootTask)
{
	// The group's entity weighs fair_group_share(1024, 4096, 4096) = 1023 against the root
	// task's 1024: the root task gets 1024 / 2047 of 2 s = 1000.5 ms.
	for (const char *name : { "cfs", "eevdf" }) {
		Fake f(name, 2);
		ASSERT_NE(f.s, nullptr) << f.msg;
		f.add(0, 0);
		for (int i = 0; i < 4; i++)
			f.add(0, 1);
		f.run_ms(2000);
		EXPECT_NEAR(double(f.ran[0]) / MS, 1000.5, 25.0) << name;
		for (int i = 1; i < 5; i++)
			EXPECT_NEAR(double(f.ran[i]) / MS, 250.0, 25.0) << name << " task " << i;
	}
}

TEST(FairSched, ASleeperWakesOneLatencyBehindAndPreempts)
{
	// CFS on 1 CPU: b runs 1 ms and blocks; a runs alone for 100 ms, so min_vruntime is a's
	// vruntime; b wakes at min_vruntime - 20 ms (its own is far behind), 20 ms > the 10 ms
	// granularity behind a: the CPU is kicked.
	Fake f("cfs", 1);
	ASSERT_NE(f.s, nullptr) << f.msg;
	sched_task *a = f.add(0, 0);
	sched_task *b = f.add(0, 0);
	f.run_ms(0);
	if (f.curr != b) {
		// a was picked first: let it run until b's turn
		for (int i = 0; i < 100 && f.curr != b; i++)
			f.run_ms(1);
	}
	ASSERT_EQ(f.curr, b);
	f.now += MS;
	f.ops->put_prev(f.s, 0, b, 0, MS);	// b blocks
	f.curr = f.ops->pick(f.s, 0);
	ASSERT_EQ(f.curr, a);
	f.run_ms(100);
	ASSERT_EQ(f.curr, a);
	f.kicked = false;
	f.ops->wake(f.s, b, 0, SCHED_WAKE);
	const fair_ent *ea = fair_task_entity(f.s, a->id), *eb = fair_task_entity(f.s, b->id);
	EXPECT_EQ(eb->vruntime, ea->vruntime - 20 * MS);
	EXPECT_TRUE(f.kicked);
	f.run_ms(0);
	EXPECT_EQ(f.curr, b);
}

}	// namespace
