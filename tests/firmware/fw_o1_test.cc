// fw_o1_test.cc - the O(1) policy of firmware/fw_o1.c through sched_o1_ops (plain C run
// queues, firmware/fw_rq_sw.c) on a fake machine: no simulator, the test plays the machine
// (time, what runs where) and records what the scheduler asks of it (kicks, moves, charges).
// Every expected value is worked out in the comments from the rules of kernel/sched.c of
// Linux 2.6.12-2.6.22 (HZ = 1000) and the arithmetic of docs/balance.md.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <random>
#include <string>
#include <vector>

#include "firmware/fw_o1.h"
#include "hws/sched.h"

namespace {

constexpr int64_t MS = 1000000;

struct Move {
	sched_task *t;
	unsigned from, to;
};

struct Charge {
	unsigned cpu;
	double ns;
	int what;
};

// One CPU: no sched domain at all (every level has a single group and degenerates).
sched_topo uni_topo()
{
	sched_topo t{};
	t.nr_cpus = 1;
	t.smt = t.cores = t.pkgs = t.nodes = 1;
	return t;
}

// @n single-threaded cores in one package: one MC level whose groups are single CPUs.
sched_topo flat_topo(unsigned n)
{
	sched_topo t{};
	t.nr_cpus = n;
	t.smt = 1;
	t.cores = n;
	t.pkgs = t.nodes = 1;
	for (unsigned c = 0; c < n; c++) {
		t.lead[0][c] = uint8_t(c);
		t.lead[1][c] = 0;
		t.lead[2][c] = 0;
	}
	return t;
}

// 2 cores x 2 threads in one package: CPUs {0,1} core 0, {2,3} core 1.
sched_topo smt_topo()
{
	sched_topo t{};
	t.nr_cpus = 4;
	t.smt = 2;
	t.cores = 2;
	t.pkgs = t.nodes = 1;
	for (unsigned c = 0; c < 4; c++) {
		t.lead[0][c] = uint8_t(c & ~1u);
		t.lead[1][c] = 0;
		t.lead[2][c] = 0;
	}
	return t;
}

// The default options.
sched_opts defaults()
{
	sched_opts o;

	sched_opts_default(&o);
	return o;
}

// The defaults with wake balancing @on or off.
sched_opts wake_balance(int on)
{
	sched_opts o = defaults();

	o.wake_balance = on;
	return o;
}

// The machine: time, per-CPU current task, records of what the scheduler did.
struct Fake {
	const sched_ops *ops = &sched_o1_ops;
	sched_topo topo{};
	sched_env env{};
	uint32_t shares[2] = { 1024, 1024 };
	uint64_t now = 0;
	std::vector<sched_task *> curr;
	std::vector<unsigned> kicks;
	std::vector<Move> moves;
	std::vector<Charge> charges;
	std::deque<sched_task> tasks;	// stable addresses
	sched *s = nullptr;
	char msg[256] = "";

	explicit Fake(const sched_topo &tp, const sched_opts &opts = defaults(),
		      unsigned nr_groups = 1, unsigned nr_tasks = 64)
	{
		topo = tp;
		curr.assign(topo.nr_cpus, nullptr);
		env.machine = this;
		env.topo = &topo;
		env.nr_tasks = nr_tasks;
		env.nr_groups = nr_groups;
		env.group_shares = shares;
		env.now = [](void *m) { return static_cast<Fake *>(m)->now; };
		env.charge = [](void *m, unsigned cpu, double ns, int what) {
			static_cast<Fake *>(m)->charges.push_back({ cpu, ns, what });
		};
		env.moved = [](void *m, sched_task *t, unsigned from, unsigned to) {
			static_cast<Fake *>(m)->moves.push_back({ t, from, to });
		};
		env.kick = [](void *m, unsigned cpu) { static_cast<Fake *>(m)->kicks.push_back(cpu); };
		env.cpu_busy = [](void *m, unsigned cpu) {
			return static_cast<Fake *>(m)->curr[cpu] != nullptr ? 1 : 0;
		};
		env.curr = [](void *m, unsigned cpu) { return static_cast<Fake *>(m)->curr[cpu]; };
		s = ops->create(&env, &opts, msg, sizeof(msg));
	}
	~Fake()
	{
		if (s)
			ops->destroy(s);
	}
	Fake(const Fake &) = delete;
	Fake &operator=(const Fake &) = delete;

	sched_task *alloc(int nice, int rt, uint64_t allowed, unsigned group)
	{
		tasks.emplace_back();
		sched_task *t = &tasks.back();
		t->id = unsigned(tasks.size() - 1);
		t->nice = nice;
		t->rt_prio = rt;
		t->group = group;
		t->allowed = allowed;
		t->cpu = -1;
		return t;
	}
	// A task present at start (no parent), created now.
	sched_task *task(int nice = 0, uint64_t allowed = ~0ull, unsigned group = 0, int rt = -1)
	{
		sched_task *t = alloc(nice, rt, allowed, group);
		ops->task_new(s, t, nullptr, 0);
		return t;
	}
	sched_task *fork(sched_task *parent, unsigned cpu)
	{
		sched_task *t = alloc(parent->nice, parent->rt_prio, parent->allowed, parent->group);
		ops->task_new(s, t, parent, cpu);
		return t;
	}
	unsigned wake(sched_task *t, unsigned waker = 0, sched_wake_kind k = SCHED_WAKE)
	{
		return ops->wake(s, t, waker, k);
	}
	sched_task *run(unsigned cpu)
	{
		curr[cpu] = ops->pick(s, cpu);
		return curr[cpu];
	}
	// The running task stops (the machine passes how long it ran since it was picked).
	void stop(unsigned cpu, int runnable)
	{
		ops->put_prev(s, cpu, curr[cpu], runnable, now - curr[cpu]->timestamp);
		curr[cpu] = nullptr;
	}
	int tick(unsigned cpu) { return ops->tick(s, cpu, curr[cpu]); }
	// Advance 1 ms and tick @cpu, until the tick asks for a reschedule: how many ticks.
	int ticks_to_resched(unsigned cpu, int limit = 5000)
	{
		for (int i = 1; i <= limit; i++) {
			now += MS;
			if (tick(cpu))
				return i;
		}
		return -1;
	}
	unsigned queued(unsigned cpu) { return ops->nr_queued(s, cpu); }
	int where(const sched_task *t) { return ops->where(s, t); }
	bool kicked(unsigned cpu) const
	{
		for (unsigned k : kicks)
			if (k == cpu)
				return true;
		return false;
	}
};

#define ASSERT_CREATED(m) ASSERT_NE((m).s, nullptr) << (m).msg

// ---- 1. Slices and expiry ----

TEST(FwO1, SliceByNiceOnFirstWake)
{
	Fake m(uni_topo());
	ASSERT_CREATED(m);
	sched_task *hi = m.task(-20), *n0 = m.task(0), *lo = m.task(19), *n10 = m.task(10);
	// task_timeslice = SCALE_PRIO(4 * DEF, sp) for sp < 120, else SCALE_PRIO(DEF, sp),
	// SCALE_PRIO(x, p) = max(x * (140 - p) / 20, 5 ms):
	//   nice -20: 400 ms * 40 / 20 = 800 ms; nice 0: 100 * 20 / 20 = 100 ms;
	//   nice 19: 100 * 1 / 20 = 5 ms (= MIN_TIMESLICE); nice 10: 100 * 10 / 20 = 50 ms.
	// A fresh task has sleep_avg 0: CURRENT_BONUS 0, prio = static_prio + 5 (clamped 139).
	for (sched_task *t : { hi, n0, lo, n10 })
		m.wake(t);	// now == creation time: no sleep to credit, the slice is kept
	EXPECT_EQ(hi->time_slice, 800 * MS);
	EXPECT_EQ(n0->time_slice, 100 * MS);
	EXPECT_EQ(lo->time_slice, 5 * MS);
	EXPECT_EQ(n10->time_slice, 50 * MS);
	EXPECT_EQ(hi->static_prio, 100);
	EXPECT_EQ(lo->static_prio, 139);
	EXPECT_EQ(hi->prio, 105);
	EXPECT_EQ(n0->prio, 125);
	EXPECT_EQ(lo->prio, 139);
	EXPECT_EQ(n0->sleep_avg, 0);
	EXPECT_EQ(m.queued(0), 4u);
	EXPECT_EQ(m.where(n0), 0);
}

TEST(FwO1, NiceZeroExpiresAfterExactlyOneHundredTicksIntoTheExpiredArray)
{
	Fake m(uni_topo());
	ASSERT_CREATED(m);
	sched_task *a = m.task(0), *b = m.task(0);
	m.wake(a);
	m.wake(b);
	ASSERT_EQ(m.run(0), a) << "equal prio 125: FIFO, a first";
	// 100 ms slice, 1 ms per tick: ticks 1..99 leave 99..1 ms; the 100th reaches 0.
	// Not interactive (125 > 120 - DELTA(0) = 118), so no round-robin tick before.
	EXPECT_EQ(m.ticks_to_resched(0), 100);
	EXPECT_EQ(a->array, 1) << "expired array";
	EXPECT_EQ(a->time_slice, 100 * MS) << "refilled";
	EXPECT_EQ(a->prio, 125);
	EXPECT_EQ(m.where(a), 0) << "still queued (on the expired array)";
	m.stop(0, 1);
	ASSERT_EQ(m.run(0), b) << "the active array still holds b";
	EXPECT_EQ(m.ticks_to_resched(0), 100);
	EXPECT_EQ(b->array, 1);
	m.stop(0, 1);
	// Active is now empty: the arrays swap and a (expired first) runs again from active.
	ASSERT_EQ(m.run(0), a);
	EXPECT_EQ(a->array, 0);
	EXPECT_EQ(m.queued(0), 1u) << "b waits; a runs and stays queued";
}

// sched_yield() as 2.6.0-2.6.22: the caller goes to the expired array with its slice kept;
// the others run first, and the yielders come back after the swap in the order they
// yielded.
TEST(FwO1, YieldMovesTheTaskToTheExpiredArray)
{
	Fake m(uni_topo());
	ASSERT_CREATED(m);
	sched_task *a = m.task(0), *b = m.task(0), *c = m.task(0);
	m.wake(a);
	m.wake(b);
	m.wake(c);
	ASSERT_EQ(m.run(0), a);
	m.now += 3 * MS;
	EXPECT_EQ(m.ticks_to_resched(0, 3), -1) << "3 ticks of a 100 ms slice: no resched";
	int64_t left = a->time_slice;
	EXPECT_EQ(m.ops->yield(m.s, 0, a), 1) << "2.6 always schedules";
	EXPECT_EQ(a->array, 1) << "expired";
	EXPECT_EQ(a->time_slice, left) << "the slice is kept";
	m.stop(0, 1);
	ASSERT_EQ(m.run(0), b) << "the active array's b first";
	EXPECT_EQ(m.ops->yield(m.s, 0, b), 1);
	m.stop(0, 1);
	ASSERT_EQ(m.run(0), c) << "then c; a and b wait in expired";
	m.stop(0, 0);
	ASSERT_EQ(m.run(0), a) << "active empty: swap; a yielded first";
	EXPECT_EQ(a->array, 0);
	EXPECT_EQ(a->time_slice, left);
	m.stop(0, 0);
	EXPECT_EQ(m.run(0), b);
}

// An RT task round-robins in the active array instead.
TEST(FwO1, YieldOfAnRtTaskRoundRobinsInTheActiveArray)
{
	Fake m(uni_topo());
	ASSERT_CREATED(m);
	sched_task *r1 = m.task(0, ~0ull, 0, 10), *r2 = m.task(0, ~0ull, 0, 10);
	m.wake(r1);
	m.wake(r2);
	ASSERT_EQ(m.run(0), r1);
	EXPECT_EQ(m.ops->yield(m.s, 0, r1), 1);
	EXPECT_EQ(r1->array, 0);
	m.stop(0, 1);
	EXPECT_EQ(m.run(0), r2);
}

// ---- 2. Interactivity ----

TEST(FwO1, SleepCreditRaisesPriority)
{
	Fake m(uni_topo());
	ASSERT_CREATED(m);
	sched_task *t = m.task(0);	// timestamp 0, sleep_avg 0, prio 125
	auto nap = [&](int64_t sleep_ms, int64_t run_ms) {
		m.now += uint64_t(sleep_ms * MS);
		m.wake(t);
		EXPECT_EQ(m.run(0), t);
		m.now += uint64_t(run_ms * MS);
		m.stop(0, 0);
	};
	// 10 ms sleep: x (MAX_BONUS - 0) = 100 ms; bonus 100 * 10 / 1000 = 1: prio 124.
	nap(10, 0);
	EXPECT_EQ(t->sleep_avg, 100 * MS);
	EXPECT_EQ(t->prio, 124);
	// 30 ms: x (10 - 1) = 270 ms -> 370 ms, bonus 3: prio 122.
	nap(30, 0);
	EXPECT_EQ(t->sleep_avg, 370 * MS);
	EXPECT_EQ(t->prio, 122);
	// 800 ms > INTERACTIVE_SLEEP(nice 0) = 1000 * (5 + 2 + 1) / 10 - 1 = 799 ms: a long
	// sleep sets sleep_avg to MAX_SLEEP_AVG - DEF_TIMESLICE = 900 ms: bonus 9, prio 116.
	nap(800, 20);
	EXPECT_EQ(t->prio, 116);
	// Running 20 ms debits 20 ms / CURRENT_BONUS 9 = 2222222 ns.
	EXPECT_EQ(t->sleep_avg, 900 * MS - 20 * MS / 9);
	// That left 897.78 ms, bonus 8 (prio is recomputed at the next wake): a 50 ms sleep
	// x (10 - 8) = 100 ms -> 997.78 ms, bonus 9, prio 116; 60 ms x 1 more: capped at 1 s,
	// bonus 10, prio 115.
	nap(50, 0);
	EXPECT_EQ(t->sleep_avg, 900 * MS - 20 * MS / 9 + 100 * MS);
	EXPECT_EQ(t->prio, 116);
	nap(60, 0);
	EXPECT_EQ(t->sleep_avg, 1000 * MS);
	EXPECT_EQ(t->prio, 115);
}

TEST(FwO1, InteractiveSleepBoundary)
{
	Fake m(uni_topo());
	ASSERT_CREATED(m);
	sched_task *a = m.task(0), *b = m.task(0);
	// 799 ms is not > INTERACTIVE_SLEEP (799 ms): x 10 = 7990 ms, capped at 1000 ms: prio 115.
	m.now = 799 * MS;
	m.wake(a);
	EXPECT_EQ(a->sleep_avg, 1000 * MS);
	EXPECT_EQ(a->prio, 115);
	// 800 ms is a long sleep: 900 ms, prio 116.
	m.now = 800 * MS;
	m.wake(b);
	EXPECT_EQ(b->sleep_avg, 900 * MS);
	EXPECT_EQ(b->prio, 116);
}

TEST(FwO1, InteractiveTaskIsReinsertedIntoTheActiveArray)
{
	Fake m(uni_topo());
	ASSERT_CREATED(m);
	sched_task *b = m.task(0), *a = m.task(0);
	m.wake(b);			// no sleep: prio 125
	m.now = 800 * MS;
	m.wake(a);			// long sleep: sleep_avg 900 ms, prio 116
	ASSERT_EQ(a->prio, 116);
	ASSERT_EQ(m.run(0), a);
	// TASK_INTERACTIVE: 116 <= 120 - DELTA(0) = 118. TIMESLICE_GRANULARITY with bonus 9 is
	// 10 ms x 2^(1 - 1) = 10 ms: a round-robin resched after 10, 20, .. 90 ms (9), then
	// the expiry at 100 ms: 10 reschedule requests in 100 ticks.
	int resched = 0;
	for (int i = 0; i < 100; i++) {
		m.now += MS;
		resched += m.tick(0);
	}
	EXPECT_EQ(resched, 10);
	EXPECT_EQ(a->array, 0) << "interactive and nothing starving: back into active";
	EXPECT_EQ(a->time_slice, 100 * MS);
	m.stop(0, 1);
	EXPECT_EQ(m.run(0), a) << "prio 116 in active beats b's 125";
	EXPECT_EQ(m.where(b), 0);
}

// Run b (nice 0, CPU-bound) to expiry at 100 ms, which sets expired_timestamp = 100 ms; then
// wake interactive task a (a 100 ms sleep x 10 = 1 s: bonus 10, prio 115) with @extra more
// nice-0 tasks queued in active, and expire a's slice at expired_timestamp + @age_ms.
// Returns a's array after its expiry.
int array_after_expiry(int extra, int64_t age_ms)
{
	Fake m(uni_topo());
	EXPECT_NE(m.s, nullptr) << m.msg;
	if (!m.s)
		return -1;
	sched_task *b = m.task(0), *a = m.task(0);
	m.wake(b);
	for (int i = 0; i < extra; i++)
		m.wake(m.task(0));
	EXPECT_EQ(m.run(0), b);
	EXPECT_EQ(m.ticks_to_resched(0), 100);
	EXPECT_EQ(b->array, 1);
	m.stop(0, 1);
	const uint64_t expired_ts = m.now;	// 100 ms
	m.wake(a);
	EXPECT_EQ(a->prio, 115);
	EXPECT_EQ(m.run(0), a);
	for (int i = 0; i < 99; i++) {
		m.now += MS;
		m.tick(0);
	}
	EXPECT_EQ(a->array, 0);
	m.now = expired_ts + uint64_t(age_ms * MS);
	EXPECT_EQ(m.tick(0), 1) << "the 100th tick ends a's slice";
	EXPECT_EQ(fw_o1_error(m.s), nullptr);
	return a->array;
}

TEST(FwO1, ExpiredStarvingForcesExpiredInsertion)
{
	// EXPIRED_STARVING: jiffies - expired_timestamp >= STARVATION_LIMIT * nr_running + 1,
	// STARVATION_LIMIT = 1000 ms, and nr_running counts every runnable task of the run
	// queue including the current one (scheduler_tick's dequeue_task() leaves nr_running
	// alone). a + b: nr_running 2, so the limit is 2001 ms.
	EXPECT_EQ(array_after_expiry(0, 100), 0) << "young expired array: active";
	EXPECT_EQ(array_after_expiry(0, 2000), 0) << "2000 < 2 * 1000 + 1";
	EXPECT_EQ(array_after_expiry(0, 2001), 1) << "2001 >= 2 * 1000 + 1: starving";
	// Two more queued: nr_running 4, limit 4001 ms.
	EXPECT_EQ(array_after_expiry(2, 4000), 0);
	EXPECT_EQ(array_after_expiry(2, 4001), 1);
}

TEST(FwO1, BetterStaticPrioInExpiredForcesExpiredInsertion)
{
	// The other half of EXPIRED_STARVING: curr->static_prio > best_expired_prio.
	// b and d: nice @bnice (CPU-bound); a: nice 5 (static 125, slice 100 * 15 / 20 = 75 ms),
	// woken after a 100 ms sleep: 100 x 10 = 1000 ms, bonus 10, prio 125 - 5 = 120
	// <= 125 - DELTA(5) = 125 - (25 * 10 / 40 - 5 + 2) = 122: interactive.
	for (int bnice : { 0, 5 }) {
		SCOPED_TRACE(bnice);
		Fake m(uni_topo());
		ASSERT_CREATED(m);
		sched_task *a = m.task(5), *b = m.task(bnice), *d = m.task(bnice);
		const int slice_ms = bnice ? 75 : 100;
		m.wake(b);
		m.wake(d);
		ASSERT_EQ(m.run(0), b);
		ASSERT_EQ(m.ticks_to_resched(0), slice_ms);
		ASSERT_EQ(b->array, 1);		// best_expired_prio = 120 + bnice
		m.stop(0, 1);
		ASSERT_EQ(m.run(0), d);
		for (int i = slice_ms; i < 100; i++) {
			m.now += MS;
			m.tick(0);
		}
		m.kicks.clear();
		m.wake(a);
		ASSERT_EQ(a->prio, 120);
		EXPECT_TRUE(m.kicked(0)) << "120 < d's " << d->prio;
		m.stop(0, 1);
		ASSERT_EQ(m.run(0), a);
		for (int i = 0; i < 75; i++) {
			m.now += MS;
			m.tick(0);
		}
		EXPECT_EQ(a->time_slice, 75 * MS) << "expired and refilled";
		if (bnice == 0)
			EXPECT_EQ(a->array, 1) << "125 > best_expired_prio 120: expired";
		else
			EXPECT_EQ(a->array, 0) << "125 is not > 125: interactive reinsertion";
	}
}

// ---- 3. Wakeup preemption ----

TEST(FwO1, WakeupPreemptsOnlyForABetterPrio)
{
	Fake m(uni_topo());
	ASSERT_CREATED(m);
	sched_task *a = m.task(0), *better = m.task(0);
	m.wake(a);
	EXPECT_EQ(m.kicks, std::vector<unsigned>{ 0 }) << "CPU 0 idled: kicked";
	ASSERT_EQ(m.run(0), a);		// prio 125
	m.kicks.clear();
	m.now = 10 * MS;
	sched_task *equal = m.task(0), *worse = m.task(1);	// created now: no sleep
	m.wake(equal);
	EXPECT_EQ(equal->prio, 125);
	EXPECT_TRUE(m.kicks.empty()) << "125 is not < 125";
	m.wake(worse);
	EXPECT_EQ(worse->prio, 126);
	EXPECT_TRUE(m.kicks.empty()) << "126 is not < 125";
	m.wake(better);			// slept 10 ms: sleep_avg 100 ms, bonus 1: prio 124
	EXPECT_EQ(better->prio, 124);
	EXPECT_EQ(m.kicks, std::vector<unsigned>{ 0 });
}

// ---- 4. Fork ----

TEST(FwO1, ForkSplitsTheSliceAndPenalisesTheChildsSleepAvg)
{
	Fake m(uni_topo());
	ASSERT_CREATED(m);
	sched_task *p = m.task(0);
	m.now = 50 * MS;
	m.wake(p);	// 50 ms x 10 = 500 ms: bonus 5, prio 120
	ASSERT_EQ(p->sleep_avg, 500 * MS);
	ASSERT_EQ(m.run(0), p);
	for (int i = 0; i < 37; i++) {
		m.now += MS;
		m.tick(0);
	}
	ASSERT_EQ(p->time_slice, 63 * MS);
	sched_task *c = m.fork(p, 0);
	// sched_fork: child (63 ms + 1) / 2 = 31.5 ms (ns, rounded down), parent 63 / 2.
	EXPECT_EQ(c->time_slice, 31500000);
	EXPECT_EQ(p->time_slice, 31500000);
	EXPECT_EQ(c->first_slice, 31500000);
	// CHILD_PENALTY 95%: 475 ms, bonus 4, prio 121. (Linux rounds through CURRENT_BONUS:
	// 5 * 95 / 100 = 4 -> 400 ms, the same bonus here.)
	EXPECT_EQ(c->sleep_avg, 475 * MS);
	EXPECT_EQ(c->prio, 121);
	EXPECT_EQ(p->sleep_avg, 500 * MS) << "PARENT_PENALTY 100";
	EXPECT_EQ(m.wake(c, 0, SCHED_FORK), 0u);
	EXPECT_EQ(c->sleep_avg, 475 * MS) << "a fork is no sleep";
	EXPECT_EQ(c->time_slice, 31500000) << "the split slice is kept at the first wake";
	// An odd slice: the child gets the rounding.
	p->time_slice = 63 * MS + 1;
	sched_task *c2 = m.fork(p, 0);
	EXPECT_EQ(c2->time_slice, 31500001);
	EXPECT_EQ(p->time_slice, 31500000);
	// A 1 ns slice: the child gets 1, the parent keeps 1 (Linux: 0 -> 1 and a tick).
	p->time_slice = 1;
	sched_task *c3 = m.fork(p, 0);
	EXPECT_EQ(c3->time_slice, 1);
	EXPECT_EQ(p->time_slice, 1);
}

// ---- 5. Balancing (4 CPUs, one MC domain of four single-CPU groups, power 1024 each) ----

// @n nice-0 tasks woken at time 0 on CPU 0 (all CPUs idle: each wake stays on its target),
// the first one running there.
std::vector<sched_task *> load_cpu0(Fake &m, int n)
{
	std::vector<sched_task *> v;
	for (int i = 0; i < n; i++) {
		v.push_back(m.task(0));
		EXPECT_EQ(m.wake(v.back()), 0u);
	}
	EXPECT_EQ(m.run(0), v[0]);
	return v;
}

TEST(FwO1, IdleTickPullsTheImbalance)
{
	Fake m(flat_topo(4));
	ASSERT_CREATED(m);
	std::vector<sched_task *> t = load_cpu0(m, 4);
	EXPECT_EQ(m.queued(0), 3u);
	m.now = 10 * MS;	// last_ran 0: cache-cold (>= 2.5 ms)
	// CPU 1 idle: loads now. Groups: CPU 0 4096, others 0; this_load 0, max 4096,
	// avg = 4096 * 1024 / 4096 = 1024; imbalance = min(4096 - 1024, 1024 - 0) * 1024 / 1024
	// = 1024 >= 1024: MOVE 1024 = one nice-0 task; move_tasks takes the last queued of prio
	// 125 (Linux walks the list from its tail), never the running t0.
	EXPECT_EQ(m.tick(1), 1) << "an idle CPU that pulled reschedules";
	ASSERT_EQ(m.moves.size(), 1u);
	EXPECT_EQ(m.moves[0].t, t[3]);
	EXPECT_EQ(m.moves[0].from, 0u);
	EXPECT_EQ(m.moves[0].to, 1u);
	EXPECT_EQ(m.where(t[3]), 1);
	EXPECT_EQ(t[3]->cpu, 1);
	EXPECT_EQ(m.queued(0), 2u);
	EXPECT_EQ(m.queued(1), 1u);
	EXPECT_EQ(m.run(1), t[3]);

	// Newly idle pick on CPU 2: CPU 0 3072, CPU 1 1024 (its running task stays queued),
	// avg 1024, this 0: min(3072 - 1024, 1024) = 1024: one task, t2.
	EXPECT_EQ(m.run(2), t[2]);
	ASSERT_EQ(m.moves.size(), 2u);
	EXPECT_EQ(m.moves[1].t, t[2]);
	EXPECT_EQ(m.moves[1].from, 0u);
	EXPECT_EQ(m.moves[1].to, 2u);
	// CPU 3: CPU 0 2048, 1 and 2 1024 each: max 2048 - avg 1024 = 1024: t1.
	EXPECT_EQ(m.run(3), t[1]);
	ASSERT_EQ(m.moves.size(), 3u);
	EXPECT_EQ(m.moves[2].from, 0u);
	for (unsigned c = 0; c < 4; c++)
		EXPECT_EQ(m.queued(c), 0u) << "CPU " << c;
	// Balanced now: an idle tick (none idle) or more picks move nothing.
	for (const Move &mv : m.moves)
		EXPECT_NE(mv.t, t[0]) << "the running task is never pulled";
	EXPECT_EQ(fw_o1_error(m.s), nullptr);
}

TEST(FwO1, ImbalanceOfTwoTasksMovesTwo)
{
	Fake m(flat_topo(4));
	ASSERT_CREATED(m);
	std::vector<sched_task *> t = load_cpu0(m, 8);
	m.now = 10 * MS;
	// 8192 on CPU 0: avg 2048, imbalance min(8192 - 2048, 2048 - 0) = 2048: two tasks
	// (the second: weight 1024 is not > 2 x the 1024 left), the last two queued.
	EXPECT_EQ(m.tick(1), 1);
	ASSERT_EQ(m.moves.size(), 2u);
	EXPECT_EQ(m.moves[0].t, t[7]);
	EXPECT_EQ(m.moves[1].t, t[6]);
	EXPECT_EQ(m.queued(0), 5u);
	EXPECT_EQ(m.queued(1), 2u);
}

TEST(FwO1, CacheHotTasksWaitForBalanceFailures)
{
	Fake m(flat_topo(4));
	ASSERT_CREATED(m);
	std::vector<sched_task *> t = load_cpu0(m, 4);
	const uint64_t T = 10 * MS;
	m.now = T;
	// The queued tasks stopped running just now (as if preempted on CPU 0): cache-hot at
	// the MC level while now - last_ran < cache_hot_time = 2.5 ms.
	for (int i = 1; i < 4; i++)
		t[i]->last_ran = T;
	// Periodic balancing of idle CPU 1 every 1 ms (min_interval; busy_factor only when
	// busy): MOVE 1024 each time. can_migrate_task skips hot tasks while nr_balance_failed
	// <= cache_nice_tries (1): failure 1 (failed 0 -> 1), failure 2 (1 -> 2) ...
	EXPECT_EQ(m.tick(1), 0);
	m.now = T + MS;
	EXPECT_EQ(m.tick(1), 0);
	EXPECT_TRUE(m.moves.empty()) << "hot, and failed <= cache_nice_tries";
	m.now = T + 2 * MS;
	// A newly idle CPU has failed nothing (and newly idle failures are not counted): the
	// tasks, 2 ms after they ran, stay where they are.
	EXPECT_EQ(m.run(2), nullptr);
	EXPECT_TRUE(m.moves.empty());
	// ... then failed 2 > 1: CPU 1 pulls a task still hot (2 ms).
	EXPECT_EQ(m.tick(1), 1);
	ASSERT_EQ(m.moves.size(), 1u);
	EXPECT_EQ(m.moves[0].t, t[3]);
	EXPECT_EQ(m.moves[0].from, 0u);
	EXPECT_EQ(m.moves[0].to, 1u);
	// The hotness boundary for newly idle CPU 3 (CPU 0 3072, CPU 1 1024, avg 1024: one task).
	m.now = T + 2499999;
	EXPECT_EQ(m.run(3), nullptr) << "2.499999 ms < 2.5 ms: hot";
	m.now = T + 2500000;
	EXPECT_EQ(m.run(3), t[2]) << "2.5 ms: cold";
	ASSERT_EQ(m.moves.size(), 2u);
	EXPECT_EQ(m.moves[1].from, 0u);
	EXPECT_EQ(m.moves[1].to, 3u);
	EXPECT_EQ(fw_o1_error(m.s), nullptr);
}

TEST(FwO1, ActiveBalancePushesTheRunningTaskAfterCacheNiceTriesPlusTwoFailures)
{
	Fake m(flat_topo(4));
	ASSERT_CREATED(m);
	sched_task *a = m.task(0), *pinned = m.task(0, 1ull << 0);
	m.wake(a);
	m.wake(pinned);
	ASSERT_EQ(m.where(pinned), 0);
	ASSERT_EQ(m.run(0), a);
	m.now = 10 * MS;	// everything cold
	m.kicks.clear();
	// CPU 1 idle: CPU 0 2048, avg 512, this 0: min(1536, 512) = 512 < 1024 but max - this
	// = 2048 >= 2 x 1024: MOVE_ONE. move_tasks: a runs, pinned may not go to CPU 1: 0
	// moved, nr_balance_failed 1, 2, 3 -- the running task is never pulled by move_tasks.
	for (int i = 0; i < 3; i++) {
		EXPECT_EQ(m.tick(1), 0) << "balance " << i + 1;
		m.now += MS;
	}
	EXPECT_TRUE(m.moves.empty());
	EXPECT_TRUE(m.kicks.empty());
	// Failure 4 > cache_nice_tries + 2 = 3: active balance; with no queued task to move,
	// the migration thread pushes the running a. As in Linux, a moves once it has been
	// preempted: CPU 0 is kicked now (the migration thread preempts a), a goes to CPU 1 when
	// CPU 0 puts it back, and CPU 1 is kicked then.
	EXPECT_EQ(m.tick(1), 1);
	EXPECT_TRUE(m.moves.empty()) << "a still runs on CPU 0";
	EXPECT_EQ(m.kicks, std::vector<unsigned>{ 0 });
	EXPECT_EQ(m.where(a), 0);
	EXPECT_EQ(m.queued(0), 1u) << "pinned";
	EXPECT_EQ(m.queued(1), 0u);
	m.kicks.clear();
	m.stop(0, 1);		// the machine reschedules CPU 0
	ASSERT_EQ(m.moves.size(), 1u);
	EXPECT_EQ(m.moves[0].t, a);
	EXPECT_EQ(m.moves[0].from, 0u);
	EXPECT_EQ(m.moves[0].to, 1u);
	EXPECT_EQ(m.kicks, std::vector<unsigned>{ 1 });
	EXPECT_EQ(m.where(a), 1);
	EXPECT_EQ(a->cpu, 1);
	EXPECT_EQ(m.queued(0), 1u);
	EXPECT_EQ(m.queued(1), 1u);
	EXPECT_EQ(m.run(0), pinned);
	EXPECT_EQ(m.run(1), a);
	EXPECT_EQ(m.queued(0), 0u);
	EXPECT_EQ(m.queued(1), 0u);
	EXPECT_EQ(fw_o1_error(m.s), nullptr);
}

// Pushes a (running on CPU 0 beside a task pinned there) from idle CPU 1, as above.
void push_from_cpu0(Fake &m, sched_task *a, sched_task *pinned)
{
	m.wake(a);
	m.wake(pinned);
	ASSERT_EQ(m.run(0), a);
	m.now = 10 * MS;
	for (int i = 0; i < 4; i++) {
		m.tick(1);
		m.now += MS;
	}
	ASSERT_EQ(m.where(pinned), 0);
}

TEST(FwO1, APushedTaskIsNeverTakenElsewhereWhileItStillRuns)
{
	// Linux's can_migrate_task refuses a running task, and the migration thread moves a
	// task only once it is off its CPU. Here, before CPU 0 reschedules, CPU 1 gets a task
	// pinned to it and CPU 2 goes newly idle: nothing may give CPU 2 the task CPU 0 runs.
	Fake m(flat_topo(4));
	ASSERT_CREATED(m);
	sched_task *a = m.task(0), *pinned = m.task(0, 1ull << 0);
	push_from_cpu0(m, a, pinned);
	sched_task *w = m.task(0, 1ull << 1);
	EXPECT_EQ(m.wake(w, 1), 1u);
	sched_task *got = m.run(2);
	EXPECT_NE(got, a) << "a runs on CPU 0";
	for (const Move &mv : m.moves)
		EXPECT_FALSE(mv.t == a && mv.to == 2) << "a pulled to CPU 2 while running on CPU 0";
	EXPECT_EQ(m.run(1), w);
	m.stop(0, 1);
	EXPECT_EQ(m.where(a), 1) << "the push lands when CPU 0 puts a back";
	EXPECT_EQ(m.run(0), pinned);
	EXPECT_EQ(m.queued(1), 1u) << "a waits on CPU 1 behind w";
	EXPECT_EQ(fw_o1_error(m.s), nullptr);
}

TEST(FwO1, APushIsDroppedWhenTheTaskBlocks)
{
	Fake m(flat_topo(4));
	ASSERT_CREATED(m);
	sched_task *a = m.task(0), *pinned = m.task(0, 1ull << 0);
	push_from_cpu0(m, a, pinned);
	m.stop(0, 0);		// a blocks before the migration thread gets to it
	EXPECT_TRUE(m.moves.empty());
	EXPECT_EQ(m.where(a), -1);
	EXPECT_EQ(m.run(0), pinned);
	m.now += 10 * MS;
	m.kicks.clear();
	EXPECT_EQ(m.wake(a, 0), 1u) << "wakes on idle CPU 1 (select_idle_sibling), not pushed";
	EXPECT_TRUE(m.moves.empty());
	EXPECT_EQ(m.queued(1), 1u);
}

// ---- 6. Wake placement on SMT ----

// x last ran on CPU 0; then a runs on CPU 0 and b on its sibling CPU 1, core 1 idles; x
// wakes from CPU 0. Returns where it is queued.
unsigned smt_wake(const sched_opts &opts, bool prev_busy)
{
	SCOPED_TRACE(std::string("wake_balance=") + std::to_string(opts.wake_balance) +
		     (prev_busy ? ", CPU 0 busy" : ", CPU 0 idle"));
	Fake m(smt_topo(), opts);
	EXPECT_NE(m.s, nullptr) << m.msg;
	if (!m.s)
		return 99;
	sched_task *x = m.task(0);
	EXPECT_EQ(m.wake(x, 0), 0u);
	EXPECT_EQ(m.run(0), x);
	m.now = 10 * MS;
	m.stop(0, 0);		// x blocks; its previous CPU is 0
	sched_task *a = m.task(0), *b = m.task(0);	// created now: prio 125
	EXPECT_EQ(m.wake(b, 1), 1u);
	EXPECT_EQ(m.run(1), b);
	if (prev_busy) {
		EXPECT_EQ(m.wake(a, 0), 0u);
		EXPECT_EQ(m.run(0), a);
	}
	m.now = 20 * MS;
	m.kicks.clear();
	unsigned cpu = m.wake(x, prev_busy ? 0 : 1);
	EXPECT_EQ(m.where(x), int(cpu));
	// x: ran 10 ms with sleep_avg 0 (stays 0), slept 10 ms: 100 ms, prio 124. An idle CPU
	// is kicked, and so is CPU 0 running a at 125.
	EXPECT_EQ(x->prio, 124);
	EXPECT_TRUE(m.kicked(cpu));
	EXPECT_EQ(fw_o1_error(m.s), nullptr);
	return cpu;
}

TEST(FwO1, WakeBalancePlacesOnTheIdleCore)
{
	// prev CPU 0 busy, its sibling 1 busy, core {2, 3} idle: select_idle_sibling finds
	// the wholly idle core, scanning the package up from CPU 0: CPU 2.
	EXPECT_EQ(smt_wake(wake_balance(1), true), 2u);
	EXPECT_EQ(smt_wake(defaults(), true), 2u) << "wake balancing is on by default";
	EXPECT_EQ(smt_wake(wake_balance(0), true), 0u) << "off: the previous CPU";
	// prev CPU 0 idle (its sibling busy, the waker): wake_affine declines (CPU 1's target
	// load 1024 > CPU 0's 0), and select_idle_sibling keeps an idle target: CPU 0. (Linux
	// 3.x: "if (target == prev_cpu && idle_cpu(prev_cpu)) return prev_cpu".)
	EXPECT_EQ(smt_wake(wake_balance(1), false), 0u);
	EXPECT_EQ(smt_wake(wake_balance(0), false), 0u);
}

TEST(FwO1, ForkPlacementHonoursAffinityWhenTheIdlestCpuIsNotAllowed)
{
	// 4 single-CPU groups, wake balancing off (each wake stays on the waker's CPU). CPU 2
	// holds one task, CPU 3 two (one of them the parent, allowed on {2, 3}); CPUs 0 and 1
	// idle, so IDLEST answers CPU 0, which the child (it inherits {2, 3}) may not use. The
	// firmware then reads the allowed CPUs' loads: CPU 2 (1024) < CPU 3 (2048).
	Fake m(flat_topo(4), wake_balance(0));
	ASSERT_CREATED(m);
	sched_task *a = m.task(0);
	ASSERT_EQ(m.wake(a, 2), 2u);
	sched_task *b = m.task(0);
	ASSERT_EQ(m.wake(b, 3), 3u);
	sched_task *p = m.task(0, 0xcull);
	ASSERT_EQ(m.wake(p, 3), 3u);
	sched_task *c = m.fork(p, 3);
	EXPECT_EQ(m.wake(c, 3, SCHED_FORK), 2u) << "the least loaded allowed CPU, not the waker";
	// Equal loads on the allowed CPUs: the waker's CPU wins the tie.
	sched_task *d = m.task(0);
	ASSERT_EQ(m.wake(d, 2), 2u);	// CPU 2: 3 tasks with c, CPU 3: 2
	sched_task *e = m.task(0);
	ASSERT_EQ(m.wake(e, 3), 3u);	// 3 and 3
	sched_task *c2 = m.fork(p, 3);
	EXPECT_EQ(m.wake(c2, 3, SCHED_FORK), 3u);
	// Allowed on CPU 0 only: IDLEST's answer stands.
	sched_task *q = m.task(0, 0x1ull);
	sched_task *c3 = m.fork(q, 3);
	EXPECT_EQ(m.wake(c3, 3, SCHED_FORK), 0u);
}

// ---- 7. Group shares ----

TEST(FwO1, GroupSliceFollowsTheGroupsRunnableWeight)
{
	Fake m(uni_topo(), defaults(), 2);
	ASSERT_CREATED(m);
	std::vector<sched_task *> g;
	sched_task *root = m.task(0);
	m.wake(root);
	EXPECT_EQ(root->time_slice, 100 * MS) << "group 0: the plain slice";
	// slice = DEF_TIMESLICE * shares * w / (1024 * W), W the group's runnable weight. A
	// group task's first slice is set when it is first picked, when all 8 are runnable.
	for (int k = 0; k < 8; k++) {
		g.push_back(m.task(0, ~0ull, 1));
		m.wake(g.back());
		EXPECT_EQ(g.back()->time_slice, 0) << "not before its first pick, task " << k;
	}
	ASSERT_EQ(m.run(0), root);
	EXPECT_EQ(m.ticks_to_resched(0), 100);
	m.stop(0, 1);
	// 100 ms * 1024 * 1024 / (1024 * 8192) = 12.5 ms: the tick ends it after 13 ticks,
	// 0.5 ms over, and the overrun comes off the next slice: 12 ms.
	ASSERT_EQ(m.run(0), g[0]);
	EXPECT_EQ(m.ticks_to_resched(0), 13);
	EXPECT_EQ(g[0]->time_slice, 12000000);
	m.stop(0, 1);
	ASSERT_EQ(m.run(0), g[1]);
	EXPECT_EQ(m.ticks_to_resched(0), 13);
	EXPECT_EQ(g[1]->time_slice, 12000000);
	// Group tasks carry their h_load on the engine: CPU 0's ticks smoothed W to 8192,
	// log1.25(8192 / 1024) = 9.3, so the group's shift is 9 and the nice-0 tasks weigh
	// weight(129) = 137. A nice 5 task joining weighs weight(125 + 9) = 45 (W = 8527 moves
	// log1.25 to 9.5, within the 3/4-step hysteresis): at its first pick W = 8 x 137 + 45
	// = 1141 and its slice 100 ms * 1024 * 45 / (1024 * 1141) = 3943908.85 ns (3928697
	// with raw weights: the quantised h_load costs 0.4% here).
	sched_task *n5 = m.task(5, ~0ull, 1);
	m.wake(n5);
	EXPECT_EQ(n5->time_slice, 0);
	for (int k = 0; k < 20; k++) {	// the others run their turns until n5's
		sched_task *t = m.run(0);
		ASSERT_NE(t, nullptr);
		if (t == n5)
			break;
		m.ticks_to_resched(0);
		m.stop(0, 1);
	}
	EXPECT_EQ(n5->time_slice, 3943908);
}

TEST(FwO1, AChildsUnusedFirstSliceGoesBackToItsParentAtExit)
{
	Fake m(uni_topo());
	ASSERT_CREATED(m);
	sched_task *p = m.task(0);
	m.wake(p);
	ASSERT_EQ(m.run(0), p);
	for (int i = 0; i < 20; i++) {
		m.now += MS;
		m.tick(0);
	}
	ASSERT_EQ(p->time_slice, 80 * MS);
	sched_task *c = m.fork(p, 0);
	ASSERT_EQ(p->time_slice, 40 * MS);
	ASSERT_EQ(c->time_slice, 40 * MS);
	// The child runs 10 ms of its first slice, sleeping less than the parent, and exits:
	// sched_exit() gives the parent the 30 ms left, and sleep_avg 3/4 parent + 1/4 child.
	m.stop(0, 0);	// the parent waits for the child
	p->sleep_avg = 400 * MS;
	m.wake(c, 0, SCHED_FORK);
	ASSERT_EQ(m.run(0), c);
	for (int i = 0; i < 10; i++) {
		m.now += MS;
		m.tick(0);
	}
	ASSERT_EQ(c->time_slice, 30 * MS);
	int64_t child_avg = c->sleep_avg;
	m.stop(0, 0);
	m.ops->task_exit(m.s, c, p);
	EXPECT_EQ(p->time_slice, 70 * MS);
	EXPECT_EQ(p->sleep_avg, 400 * MS / 4 * 3 + child_avg / 4);
	// Capped at one full slice of the child's priority (100 ms for nice 0).
	sched_task *c2 = m.fork(p, 0);
	ASSERT_EQ(c2->time_slice, 35 * MS);
	p->time_slice = 90 * MS;
	m.ops->task_exit(m.s, c2, p);
	EXPECT_EQ(p->time_slice, 100 * MS);
	// A child past its first slice gives nothing back; nor does one whose parent is gone.
	sched_task *c3 = m.fork(p, 0);
	c3->first_slice = 0;
	int64_t before = p->time_slice;
	m.ops->task_exit(m.s, c3, p);
	EXPECT_EQ(p->time_slice, before);
	sched_task *c4 = m.fork(p, 0);
	m.ops->task_exit(m.s, c4, nullptr);
	EXPECT_EQ(p->time_slice, before - c4->time_slice);
}

// ---- 8. Conservation under a random run ----

enum RState { R_BLOCKED, R_QUEUED, R_RUNNING, R_DEAD };

struct RTask {
	RState st = R_BLOCKED;
	int qcpu = -1;		// R_QUEUED: where
	int rcpu = -1;		// R_RUNNING: where it runs
	int moved_to = -1;	// R_RUNNING and pushed away by active balance: its new queue
};

unsigned test_seed()
{
	const char *e = std::getenv("HWS_SEED");
	return e && *e ? unsigned(std::strtoul(e, nullptr, 0)) : 20240611u;
}

// The fake's own bookkeeping of every task against nr_queued() and where(), after every
// call of a seeded random sequence of wake / fork / pick / put_prev / tick / exit.
void random_run(const sched_topo &tp, unsigned seed, int steps)
{
	Fake m(tp, defaults(), 2, 64);
	ASSERT_CREATED(m);
	const unsigned ncpu = tp.nr_cpus;
	std::mt19937 rng(seed);
	auto R = [&](unsigned n) { return unsigned(rng() % n); };
	std::vector<RTask> st;
	std::vector<bool> resched(ncpu, false);
	size_t moves_seen = 0, kicks_seen = 0;
	uint64_t nmoves = 0, npicks = 0, nwakes = 0;

	for (int i = 0; i < 12; i++) {
		uint64_t allowed = ~0ull;
		if (R(4) == 0)
			allowed = (1ull << R(ncpu)) | (1ull << R(ncpu));
		m.task(int(R(16)) - 5, allowed, R(3) == 0 ? 1 : 0);
		st.emplace_back();
	}
	int stopping = -1;	// the task being put back (put_prev), if any
	auto drain = [&]() {
		for (; moves_seen < m.moves.size(); moves_seen++) {
			const Move &mv = m.moves[moves_seen];
			RTask &r = st[mv.t->id];
			nmoves++;
			EXPECT_TRUE(mv.t->allowed >> mv.to & 1) << "task " << mv.t->id;
			EXPECT_NE(mv.from, mv.to);
			if (r.st == R_QUEUED) {
				EXPECT_EQ(r.qcpu, int(mv.from)) << "task " << mv.t->id;
				r.qcpu = int(mv.to);
			} else if (r.st == R_RUNNING) {
				// Active balance: only once the task is off its CPU (put_prev).
				EXPECT_EQ(int(mv.t->id), stopping)
					<< "task " << mv.t->id << " moved while it runs on CPU " << r.rcpu;
				EXPECT_EQ(r.rcpu, int(mv.from));
				r.moved_to = int(mv.to);
			} else {
				ADD_FAILURE() << "moved task " << mv.t->id << " is not runnable";
			}
		}
		for (; kicks_seen < m.kicks.size(); kicks_seen++)
			resched[m.kicks[kicks_seen]] = true;
	};
	auto put_back = [&](unsigned cpu, int runnable, bool exiting) {
		sched_task *t = m.curr[cpu];
		RTask &r = st[t->id];
		stopping = int(t->id);
		m.stop(cpu, runnable);
		drain();
		stopping = -1;
		if (runnable) {
			r.st = R_QUEUED;
			r.qcpu = r.moved_to >= 0 ? r.moved_to : int(cpu);
		} else {
			r.st = exiting ? R_DEAD : R_BLOCKED;
			if (exiting)
				m.ops->task_exit(m.s, t, nullptr);
		}
		r.moved_to = -1;
		r.rcpu = -1;
	};
	auto schedule = [&](unsigned cpu) {	// the machine's reschedule of @cpu
		if (m.curr[cpu])
			put_back(cpu, 1, false);
		sched_task *n = m.ops->pick(m.s, cpu);
		drain();
		resched[cpu] = false;
		if (!n)
			return;
		npicks++;
		RTask &r = st[n->id];
		EXPECT_EQ(r.st, R_QUEUED) << "picked task " << n->id;
		EXPECT_EQ(r.qcpu, int(cpu)) << "picked task " << n->id;
		EXPECT_TRUE(n->allowed >> cpu & 1);
		r.st = R_RUNNING;
		r.rcpu = int(cpu);
		m.curr[cpu] = n;
	};
	auto check = [&](int step) {
		std::vector<unsigned> q(ncpu, 0);
		for (size_t id = 0; id < st.size(); id++) {
			const RTask &r = st[id];
			const sched_task *t = &m.tasks[id];
			int want = r.st == R_QUEUED ? r.qcpu :
				   r.st == R_RUNNING ? (r.moved_to >= 0 ? r.moved_to : r.rcpu) : -1;
			if (r.st == R_DEAD)
				continue;
			EXPECT_EQ(m.where(t), want) << "step " << step << " task " << id;
			if (r.st == R_QUEUED) {
				q[r.qcpu]++;
				EXPECT_EQ(t->cpu, r.qcpu) << "step " << step << " task " << id;
			}
		}
		for (unsigned c = 0; c < ncpu; c++)
			EXPECT_EQ(m.queued(c), q[c]) << "step " << step << " CPU " << c;
		EXPECT_EQ(fw_o1_error(m.s), nullptr);
	};

	for (int step = 0; step < steps && !::testing::Test::HasFailure(); step++) {
		unsigned op = R(100), cpu = R(ncpu);
		m.now += R(2000) * 1000;	// 0 .. 2 ms
		if (op < 35) {
			if (m.tick(cpu))
				resched[cpu] = true;
			drain();
		} else if (op < 50) {
			for (unsigned c = 0; c < ncpu; c++)
				if (resched[(cpu + c) % ncpu]) {
					cpu = (cpu + c) % ncpu;
					break;
				}
			schedule(cpu);
		} else if (op < 72) {
			std::vector<unsigned> blocked;
			for (size_t id = 0; id < st.size(); id++)
				if (st[id].st == R_BLOCKED)
					blocked.push_back(unsigned(id));
			if (!blocked.empty()) {
				unsigned id = blocked[R(unsigned(blocked.size()))];
				unsigned q = m.wake(&m.tasks[id], cpu);
				drain();
				nwakes++;
				EXPECT_LT(q, ncpu);
				EXPECT_TRUE(m.tasks[id].allowed >> q & 1) << "task " << id << " on " << q;
				st[id].st = R_QUEUED;
				st[id].qcpu = int(q);
			}
		} else if (op < 88) {
			if (m.curr[cpu]) {
				put_back(cpu, 0, false);
				schedule(cpu);
			}
		} else if (op < 90) {
			unsigned live = 0;
			for (const RTask &r : st)
				live += r.st != R_DEAD;
			if (m.curr[cpu] && live > 8) {
				put_back(cpu, 0, true);
				schedule(cpu);
			}
		} else if (op < 95) {
			if (m.curr[cpu] && m.tasks.size() < 64) {
				sched_task *c = m.fork(m.curr[cpu], cpu);
				st.emplace_back();
				unsigned q = m.wake(c, cpu, SCHED_FORK);
				drain();
				EXPECT_LT(q, ncpu);
				st[c->id].st = R_QUEUED;
				st[c->id].qcpu = int(q);
			}
		} else {
			schedule(cpu);		// a yield or a preemption
		}
		check(step);
	}
	// The run must have exercised what it checks.
	EXPECT_GT(nmoves, 0u);
	EXPECT_GT(npicks, 3000u);
	EXPECT_GT(nwakes, 2000u);
	std::printf("[ seed %u ] %llu picks, %llu wakes, %llu moves\n", seed,
		    (unsigned long long)npicks, (unsigned long long)nwakes,
		    (unsigned long long)nmoves);
}

TEST(FwO1, ConservationUnderRandomCallsFlat4)
{
	const unsigned seed = test_seed();
	SCOPED_TRACE("HWS_SEED=" + std::to_string(seed));
	random_run(flat_topo(4), seed, 50000);
	if (HasFailure())
		std::fprintf(stderr, "FwO1 random run failed with HWS_SEED=%u\n", seed);
}

TEST(FwO1, ConservationUnderRandomCallsSmt2x2)
{
	const unsigned seed = test_seed() + 1;
	SCOPED_TRACE("HWS_SEED+1=" + std::to_string(seed));
	random_run(smt_topo(), seed, 50000);
	if (HasFailure())
		std::fprintf(stderr, "FwO1 random run failed with seed %u\n", seed);
}

// ---- 9. Options ----

// Options are typed (struct sched_opts): what the firmware refuses is a value, named with
// the option; an engine backend that does not exist is the driver's clear error.
TEST(FwO1, BadOptionsAreRejectedByName)
{
	struct Bad {
		void (*set)(sched_opts &o);
		std::vector<const char *> words;
	} bad[] = {
		{ [](sched_opts &o) { o.costs.sw_op_ns = -5; }, { "sw_op_ns", "-5" } },
		{ [](sched_opts &o) { o.costs.bus_ns = NAN; }, { "bus_ns", "nan" } },
		{ [](sched_opts &o) { o.costs.engine_clk_ns = INFINITY; }, { "engine_clk_ns", "inf" } },
		{ [](sched_opts &o) { o.costs.sw_base_ns = 2e9; }, { "sw_base_ns", "0..1e9" } },
		{ [](sched_opts &o) { o.wake_balance = 2; }, { "wake_balance", "2" } },
		{ [](sched_opts &o) { o.flat = -1; }, { "flat", "-1" } },
	};
	for (const Bad &b : bad) {
		sched_opts o = defaults();
		b.set(o);
		Fake m(uni_topo(), o);
		EXPECT_EQ(m.s, nullptr) << b.words[0];
		for (const char *w : b.words)
			EXPECT_NE(std::strstr(m.msg, w), nullptr)
				<< "'" << m.msg << "' does not name '" << w << "'";
	}
	// The engine scheduler opens the backend it is given, by name.
	Fake m(uni_topo());
	ASSERT_NE(m.s, nullptr) << m.msg;
	sched_opts o = defaults();
	o.engine.backend = "fpga";
	char msg[256] = "";
	EXPECT_EQ(sched_hw_ops.create(&m.env, &o, msg, sizeof(msg)), nullptr);
	EXPECT_NE(std::strstr(msg, "no backend 'fpga'"), nullptr) << msg;
}

TEST(FwO1, GoodOptionsTakeEffect)
{
	sched_opts o = wake_balance(0);
	o.costs.sw_op_ns = 10;
	o.costs.bus_ns = 50;
	Fake m(uni_topo(), o);
	ASSERT_CREATED(m);
	sched_task *t = m.task(0);
	m.charges.clear();
	m.wake(t);
	// A wake on an idle CPU: no sleep, no placement query, one ENQUEUE at sw_op_ns.
	ASSERT_EQ(m.charges.size(), 1u);
	EXPECT_EQ(m.charges[0].ns, 10.0);
	EXPECT_EQ(m.charges[0].what, SCHED_WORK_SW_OP);
}

}	// namespace

// sched_exec(): a task that execs on a loaded CPU goes to the idlest CPU of the widest
// domain, through the migration thread's push (moved once it is off its CPU).
TEST(FwO1, ExecMovesTheTaskToTheIdlestCpuOnceItIsOff)
{
	Fake m(flat_topo(4));
	ASSERT_CREATED(m);
	sched_task *a = m.task(0, ~0ull), *b = m.task(0, 1ull << 0);
	m.wake(a);
	m.wake(b);
	ASSERT_EQ(m.where(a), 0);
	ASSERT_EQ(m.run(0), a);
	m.kicks.clear();
	// CPU 0: a + b = 2048; CPU 1 (the lowest of the idle ones): 0 + 1024 < 2048: move.
	sched_o1_ops.exec(m.s, a, 0);
	EXPECT_TRUE(m.moves.empty()) << "a still runs on CPU 0";
	EXPECT_EQ(m.kicks, std::vector<unsigned>{ 0 });
	m.kicks.clear();
	m.stop(0, 1);
	ASSERT_EQ(m.moves.size(), 1u);
	EXPECT_EQ(m.moves[0].t, a);
	EXPECT_EQ(m.moves[0].to, 1u);
	EXPECT_EQ(m.where(a), 1);
	// b alone on CPU 0 now: 1024, and CPU 2 would end at 1024: no gain, no move.
	ASSERT_EQ(m.run(0), b);
	m.kicks.clear();
	sched_o1_ops.exec(m.s, b, 0);
	EXPECT_TRUE(m.kicks.empty());
	m.stop(0, 1);
	EXPECT_EQ(m.moves.size(), 1u);
	EXPECT_EQ(fw_o1_error(m.s), nullptr);
}
