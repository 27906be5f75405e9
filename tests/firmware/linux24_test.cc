// linux24_test.cc - the Linux 2.4 scheduler baseline (firmware/linux24.c) on a small fake
// machine: goodness order, the CPU bonus, recalculation, fork, reschedule_idle, affinity,
// the runqueue_lock cost, and conservation over a random run. Expected values are worked
// out from docs/linux24.md in the comments.
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

#include "hws/sched.h"

namespace {

constexpr int64_t MS = 1000000;
constexpr int64_t TICK24 = 10 * MS;	// one 2.4 tick (HZ=100)

struct Charge {
	unsigned cpu;
	double ns;
	int what;
};

// The machine: time, per-CPU current task, and a record of what the scheduler did.
struct Fake {
	sched_topo topo{};
	sched_env env{};
	uint64_t now = 0;
	std::vector<sched_task *> curr;
	std::vector<Charge> charges;
	std::vector<unsigned> kicks;
	unsigned moved = 0;
	std::deque<sched_task> tasks;	// stable addresses
	sched *s = nullptr;
	char msg[256] = "";

	explicit Fake(unsigned cpus, unsigned nr_tasks = 64, const sched_opts *opts = nullptr)
	{
		sched_opts def;

		sched_opts_default(&def);
		topo.nr_cpus = cpus;
		topo.smt = topo.cores = topo.pkgs = topo.nodes = 1;
		curr.assign(cpus, nullptr);
		env.machine = this;
		env.topo = &topo;
		env.nr_tasks = nr_tasks;
		env.nr_groups = 1;
		env.now = [](void *m) { return static_cast<Fake *>(m)->now; };
		env.charge = [](void *m, unsigned cpu, double ns, int what) {
			static_cast<Fake *>(m)->charges.push_back({ cpu, ns, what });
		};
		env.moved = [](void *m, sched_task *, unsigned, unsigned) {
			static_cast<Fake *>(m)->moved++;
		};
		env.kick = [](void *m, unsigned cpu) { static_cast<Fake *>(m)->kicks.push_back(cpu); };
		env.cpu_busy = [](void *m, unsigned cpu) {
			return static_cast<Fake *>(m)->curr[cpu] != nullptr ? 1 : 0;
		};
		env.curr = [](void *m, unsigned cpu) { return static_cast<Fake *>(m)->curr[cpu]; };
		s = sched_linux24_ops.create(&env, opts ? opts : &def, msg, sizeof(msg));
	}
	~Fake()
	{
		if (s)
			sched_linux24_ops.destroy(s);
	}

	// A task present at start (no parent).
	sched_task *task(int nice = 0, int rt = -1, uint64_t allowed = ~0ull)
	{
		tasks.emplace_back();
		sched_task *t = &tasks.back();
		t->id = unsigned(tasks.size() - 1);
		t->nice = nice;
		t->rt_prio = rt;
		t->allowed = allowed;
		t->cpu = -1;
		sched_linux24_ops.task_new(s, t, nullptr, 0);
		return t;
	}
	unsigned wake(sched_task *t, unsigned waker = 0)
	{
		return sched_linux24_ops.wake(s, t, waker, SCHED_WAKE);
	}
	sched_task *run(unsigned cpu)
	{
		curr[cpu] = sched_linux24_ops.pick(s, cpu);
		return curr[cpu];
	}
	void stop(unsigned cpu, int runnable)
	{
		sched_linux24_ops.put_prev(s, cpu, curr[cpu], runnable, 0);
		curr[cpu] = nullptr;
	}
	int tick(unsigned cpu) { return sched_linux24_ops.tick(s, cpu, curr[cpu]); }
	// Tick @cpu until the scheduler asks for a reschedule; the number of ticks.
	int ticks_to_resched(unsigned cpu, int limit = 1000)
	{
		for (int i = 1; i <= limit; i++) {
			now += MS;
			if (tick(cpu))
				return i;
		}
		return -1;
	}
	double sum(int what, int cpu = -1) const
	{
		double n = 0;
		for (const Charge &c : charges)
			if (c.what == what && (cpu < 0 || int(c.cpu) == cpu))
				n += c.ns;
		return n;
	}
	unsigned queued() { return sched_linux24_ops.nr_queued(s, 0); }
	int where(const sched_task *t) { return sched_linux24_ops.where(s, t); }
};

TEST(Linux24, NiceToTicksAndSixtyTicksOfOneMs)
{
	Fake m(1);
	ASSERT_NE(m.s, nullptr) << m.msg;
	sched_task *a = m.task(0), *lo = m.task(19), *hi = m.task(-20), *n5 = m.task(5);
	// NICE_TO_TICKS(n) = ((20 - n) >> 2) + 1 ticks of 10 ms.
	EXPECT_EQ(a->counter, 6 * TICK24);
	EXPECT_EQ(lo->counter, 1 * TICK24);
	EXPECT_EQ(hi->counter, 11 * TICK24);
	EXPECT_EQ(n5->counter, 4 * TICK24);
	EXPECT_EQ(a->time_slice, a->counter);
	EXPECT_EQ(a->static_prio, 120);
	EXPECT_EQ(hi->static_prio, 100);

	m.wake(a);
	m.now = MS;			// the wake's lock hold is over
	ASSERT_EQ(m.run(0), a);
	EXPECT_EQ(a->cpu, 0);
	EXPECT_EQ(a->timestamp, uint64_t(MS));
	EXPECT_EQ(m.ticks_to_resched(0), 60) << "60 ms of 1 ms ticks";
	EXPECT_EQ(a->counter, 0);
	EXPECT_EQ(m.tick(0), 1) << "still exhausted";
	EXPECT_EQ(m.sum(SCHED_WORK_SW_OP), 200 + 150 + 61 * 50) << "schedule + wake + 61 ticks";
	EXPECT_EQ(m.sum(SCHED_WORK_LOCK_WAIT), 0);
}

TEST(Linux24, HigherNiceLosesAndTiesGoToTheFirstQueued)
{
	Fake m(2);
	sched_task *n5 = m.task(5), *a = m.task(0), *b = m.task(0);
	m.wake(n5);
	m.wake(a);
	m.wake(b);
	EXPECT_EQ(m.queued(), 3u);
	// goodness: n5 4 + 15 = 19; a, b 6 + 20 = 26 (equal: a was queued first).
	EXPECT_EQ(m.run(0), a);
	EXPECT_EQ(m.run(1), b);
	EXPECT_EQ(m.queued(), 1u);
	EXPECT_EQ(m.where(n5), 0);
	EXPECT_EQ(m.where(a), -1);
	EXPECT_EQ(m.sum(SCHED_WORK_GOODNESS, 0), 3 * 40.0);
	EXPECT_EQ(m.sum(SCHED_WORK_GOODNESS, 1), 2 * 40.0);
}

TEST(Linux24, CpuBonusMakesTheTaskThatRanHereWin)
{
	Fake m(2);
	sched_task *a = m.task(0), *b = m.task(0);
	m.wake(a);
	m.wake(b);
	ASSERT_EQ(m.run(1), a) << "equal goodness: the first queued";
	for (int i = 0; i < 55; i++)
		m.tick(1);		// a: 5 ms left = 1 tick, rounded up
	m.stop(1, 1);			// queue: b, a
	// On CPU 1: a 1 + 20 + 15 = 36 > b 26, though b is first and has 6 ticks.
	EXPECT_EQ(m.run(1), a);
	m.stop(1, 1);			// queue: b, a
	// On CPU 0 a has no bonus: 21 < 26.
	EXPECT_EQ(m.run(0), b);
}

TEST(Linux24, APartlyUsedTickCountsAsATick)
{
	Fake m(1);
	sched_task *a = m.task(0), *d = m.task(-8);
	m.wake(a);
	ASSERT_EQ(m.run(0), a);
	for (int i = 0; i < 55; i++)
		m.tick(0);		// 5 ms left
	m.stop(0, 1);
	m.wake(d);
	// a: 1 (5 ms rounded up) + 20 + 15 = 36; d: ((28 >> 2) + 1) + 28 = 36: a, queued first.
	EXPECT_EQ(m.run(0), a);
}

TEST(Linux24, RecalculationOnlyWhenAllCandidatesAreExhausted)
{
	Fake m(1);
	sched_task *a = m.task(0), *b = m.task(0), *sleeper = m.task(0), *lo = m.task(19);
	m.wake(a);
	m.wake(b);
	ASSERT_EQ(m.run(0), a);
	ASSERT_EQ(m.ticks_to_resched(0), 60);
	m.stop(0, 1);
	ASSERT_EQ(m.run(0), b) << "a is exhausted (goodness 0), b is not";
	EXPECT_EQ(m.sum(SCHED_WORK_RECALC), 0) << "b still had a counter: no recalculation";
	ASSERT_EQ(m.ticks_to_resched(0), 60);
	m.stop(0, 1);
	m.charges.clear();
	ASSERT_EQ(m.run(0), a) << "after recalculating, a (first queued, same goodness)";
	// Every known task: counter / 2 + NICE_TO_TICKS.
	EXPECT_EQ(a->counter, 60 * MS);
	EXPECT_EQ(b->counter, 60 * MS);
	EXPECT_EQ(sleeper->counter, 30 * MS + 60 * MS) << "a sleeper gains";
	EXPECT_EQ(lo->counter, 5 * MS + 10 * MS);
	EXPECT_EQ(m.sum(SCHED_WORK_RECALC), 4 * 30.0) << "4 tasks known";
	EXPECT_EQ(m.sum(SCHED_WORK_GOODNESS), (2 + 2) * 40.0) << "the queue scanned twice";
	EXPECT_EQ(m.sum(SCHED_WORK_SW_OP), 200.0);

	// More rounds: the sleeper tends to 2 x 60 ms and never gets past it.
	const int64_t want[] = { 105 * MS, 112500 * 1000, 116250 * 1000 };
	for (int64_t w : want) {
		m.ticks_to_resched(0);
		m.stop(0, 1);
		m.run(0);
		m.ticks_to_resched(0);
		m.stop(0, 1);
		m.run(0);
		EXPECT_EQ(sleeper->counter, w);
	}
	EXPECT_LT(sleeper->counter, 120 * MS);
}

TEST(Linux24, NoRecalculationForAnEmptyQueue)
{
	Fake m(1);
	m.task(0);
	EXPECT_EQ(m.run(0), nullptr);
	EXPECT_EQ(m.sum(SCHED_WORK_RECALC), 0);
	EXPECT_EQ(m.sum(SCHED_WORK_SW_OP), 200);
	EXPECT_EQ(m.sum(SCHED_WORK_GOODNESS), 0);
}

TEST(Linux24, ForkSplitsTheParentsCounter)
{
	Fake m(2);
	sched_task *p = m.task(0);
	m.wake(p);
	ASSERT_EQ(m.run(1), p);
	for (int i = 0; i < 15; i++)
		m.tick(1);		// 45 ms left
	m.tasks.emplace_back();
	sched_task *c = &m.tasks.back();
	c->id = 1;
	c->nice = 0;
	c->rt_prio = -1;
	c->allowed = ~0ull;
	c->cpu = -1;
	sched_linux24_ops.task_new(m.s, c, p, 1);
	EXPECT_EQ(c->counter, 22500 * 1000);
	EXPECT_EQ(p->counter, 22500 * 1000);
	EXPECT_EQ(c->cpu, 1) << "the child starts on the parent's CPU";
	for (int i = 0; i < 22; i++)
		m.tick(1);		// parent: 500 us left
	m.tasks.emplace_back();
	sched_task *g = &m.tasks.back();
	*g = *c;
	g->id = 2;
	sched_linux24_ops.task_new(m.s, g, p, 1);
	EXPECT_EQ(g->counter, 250 * 1000);
	EXPECT_EQ(p->counter, 250 * 1000);
	m.kicks.clear();
	EXPECT_EQ(sched_linux24_ops.wake(m.s, c, 1, SCHED_FORK), 0u) << "CPU 0 idles";
	EXPECT_EQ(m.kicks, std::vector<unsigned>{ 0 });
}

TEST(Linux24, WakeKicksTheLastCpuOrTheLongestIdle)
{
	Fake m(3);
	sched_task *x = m.task(0), *y = m.task(0), *z = m.task(0);
	m.now = 2 * MS;
	EXPECT_EQ(m.run(2), nullptr);	// CPU 2 idles since 2 ms
	m.now = 5 * MS;
	EXPECT_EQ(m.run(1), nullptr);	// CPU 1 since 5 ms
	m.wake(x);
	m.kicks.clear();
	ASSERT_EQ(m.run(0), x);
	m.now = 6 * MS;
	// y never ran: its CPU is the waker's (0), busy; the idle CPU idle longest is 2.
	EXPECT_EQ(m.wake(y, 0), 2u);
	EXPECT_EQ(m.kicks, std::vector<unsigned>{ 2 });
	ASSERT_EQ(m.run(2), y);
	// z last ran on CPU 1, which idles: kicked though CPU 1 idled less long.
	z->cpu = 1;
	m.kicks.clear();
	EXPECT_EQ(m.wake(z, 0), 1u);
	EXPECT_EQ(m.kicks, std::vector<unsigned>{ 1 });
	EXPECT_EQ(m.moved, 0u);
}

TEST(Linux24, WakePreemptsTheCpuWithTheLargestGain)
{
	Fake m(2);
	sched_task *a = m.task(0), *b = m.task(0), *hi = m.task(-20), *lo = m.task(19);
	m.wake(a);
	m.wake(b);
	ASSERT_EQ(m.run(0), a);
	ASSERT_EQ(m.run(1), b);
	for (int i = 0; i < 59; i++)
		m.tick(0);		// a: 1 ms left: 1 + 20 + 15 = 36; b: 6 + 20 + 15 = 41
	m.kicks.clear();
	// lo: 1 + 1 = 2: beats nobody.
	EXPECT_EQ(m.wake(lo, 1), 1u) << "no kick: its CPU (the waker's)";
	EXPECT_TRUE(m.kicks.empty());
	// hi: 11 + 40 = 51: gains 15 on CPU 0, 10 on CPU 1.
	EXPECT_EQ(m.wake(hi, 1), 0u);
	EXPECT_EQ(m.kicks, std::vector<unsigned>{ 0 });
	m.stop(0, 1);
	EXPECT_EQ(m.run(0), hi);
	// A real-time task (1000 + 99 - 10) beats any normal task.
	sched_task *rt = m.task(0, 10);
	m.kicks.clear();
	EXPECT_EQ(m.wake(rt, 0), 1u) << "gain 1089 - 66 on CPU 0, 1089 - 41 on CPU 1";
	EXPECT_EQ(m.kicks, std::vector<unsigned>{ 1 });
}

TEST(Linux24, ScheduleTailSendsThePreemptedTaskToAnIdleCpu)
{
	Fake m(2);
	sched_task *a = m.task(0), *hi = m.task(-20, -1, 1);	// hi only on CPU 0
	m.wake(a);
	ASSERT_EQ(m.run(0), a);
	m.kicks.clear();
	EXPECT_EQ(m.wake(hi, 0), 0u) << "CPU 1 idles but hi may not run there";
	EXPECT_EQ(m.kicks, std::vector<unsigned>{ 0 });
	m.stop(0, 1);
	m.kicks.clear();
	EXPECT_EQ(m.run(0), hi);
	EXPECT_EQ(m.kicks, std::vector<unsigned>{ 1 }) << "a, still runnable, wakes CPU 1";
	EXPECT_EQ(m.run(1), a);
	EXPECT_EQ(m.queued(), 0u);
}

TEST(Linux24, AffinityIsRespected)
{
	Fake m(2);
	sched_task *t = m.task(0, -1, 2), *u = m.task(0);	// t only on CPU 1
	m.curr[1] = u;			// CPU 1 busy with u (as if picked)
	u->cpu = 1;
	EXPECT_EQ(m.wake(t, 0), 0u) << "no gain on CPU 1 (26 vs 41), CPU 0 not allowed";
	EXPECT_TRUE(m.kicks.empty());
	EXPECT_EQ(m.run(0), nullptr);
	EXPECT_EQ(m.sum(SCHED_WORK_GOODNESS, 0), 40.0) << "t was looked at";
	EXPECT_EQ(m.tick(0), 0) << "nothing CPU 0 may run";
	EXPECT_EQ(m.where(t), 0);
	m.curr[1] = nullptr;
	EXPECT_EQ(m.tick(1), 1) << "an idle CPU with work queued for it";
	EXPECT_EQ(m.run(1), t);
	EXPECT_EQ(t->cpu, 1);
}

TEST(Linux24, RoundRobinGetsANewQuantumAtTheTail)
{
	Fake m(1);
	sched_task *r1 = m.task(0, 50), *r2 = m.task(0, 50), *n = m.task(-20);
	m.wake(n);
	m.wake(r1);
	m.wake(r2);
	ASSERT_EQ(m.run(0), r1) << "1049 beats 51; r1 first";
	EXPECT_EQ(m.ticks_to_resched(0), 60);
	EXPECT_EQ(r1->counter, 60 * MS) << "refilled";
	m.stop(0, 1);
	EXPECT_EQ(m.run(0), r2) << "r1 went to the tail";
	r2->counter = 0;
	m.stop(0, 1);
	r1->counter = 0;
	m.charges.clear();
	EXPECT_EQ(m.run(0), r1) << "real-time goodness ignores the counter";
	EXPECT_EQ(m.sum(SCHED_WORK_RECALC), 0) << "no recalculation: n has 51";
	sched_task *top = m.task(0, 10);
	m.wake(top);
	m.stop(0, 1);
	EXPECT_EQ(m.run(0), top) << "rt_prio 10 (goodness 1089) beats 50 (1049), queued earlier";
}

TEST(Linux24, LockSerializesCpusSchedulingAtTheSameTime)
{
	Fake m(3);
	for (int i = 0; i < 3; i++)
		m.wake(m.task(0));
	m.now = 1000 * MS;		// the wakes' lock holds are long over
	m.charges.clear();
	ASSERT_NE(m.run(0), nullptr);
	EXPECT_EQ(m.sum(SCHED_WORK_LOCK_WAIT), 0);
	ASSERT_NE(m.run(1), nullptr);
	// CPU 0 held the lock 200 + 3 x 40 = 320 ns; CPU 1 waits all of it, holds 280.
	EXPECT_EQ(m.sum(SCHED_WORK_LOCK_WAIT, 1), 320.0);
	ASSERT_NE(m.run(2), nullptr);
	EXPECT_EQ(m.sum(SCHED_WORK_LOCK_WAIT, 2), 320.0 + 280.0);
	m.now += 1000;
	m.charges.clear();
	EXPECT_EQ(m.run(0), nullptr);
	EXPECT_EQ(m.sum(SCHED_WORK_LOCK_WAIT), 0) << "free again";
}

TEST(Linux24, OptionsSetGoodnessCostAndTurnTheLockOff)
{
	sched_opts o;
	sched_opts_default(&o);
	EXPECT_EQ(o.linux24.goodness_ns, 40.0) << "docs/linux24.md's default";
	EXPECT_EQ(o.linux24.lock, 1);
	o.linux24.goodness_ns = 10;
	o.linux24.lock = 0;
	Fake m(2, 64, &o);
	ASSERT_NE(m.s, nullptr) << m.msg;
	m.wake(m.task(0));
	m.wake(m.task(0));
	m.run(0);
	m.run(1);
	EXPECT_EQ(m.sum(SCHED_WORK_LOCK_WAIT), 0);
	EXPECT_EQ(m.sum(SCHED_WORK_GOODNESS, 0), 20.0);
	EXPECT_EQ(m.sum(SCHED_WORK_GOODNESS, 1), 10.0);
}

TEST(Linux24, BadOptionsAreRejected)
{
	struct {
		double goodness_ns;
		int lock;
		const char *says;
	} bad[] = {
		{ -1, 1, "linux24 goodness_ns = -1" },
		{ NAN, 1, "linux24 goodness_ns = nan" },
		{ 2e9, 1, "want ns, 0..1e9" },
		{ 40, 2, "linux24 lock = 2: want 0 or 1" },
	};
	for (const auto &b : bad) {
		sched_opts o;
		sched_opts_default(&o);
		o.linux24.goodness_ns = b.goodness_ns;
		o.linux24.lock = b.lock;
		Fake m(1, 64, &o);
		EXPECT_EQ(m.s, nullptr) << b.says;
		EXPECT_NE(std::strstr(m.msg, b.says), nullptr) << m.msg;
	}
	Fake z(1, 0);
	EXPECT_EQ(z.s, nullptr);
	EXPECT_NE(std::strstr(z.msg, "at least one task"), nullptr) << z.msg;
}

TEST(Linux24, ReportPrintsTheCounts)
{
	Fake m(1);
	m.wake(m.task(0));
	m.run(0);
	char buf[1024] = "";
	FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");
	ASSERT_NE(f, nullptr);
	sched_linux24_ops.report(m.s, f);
	fclose(f);
	EXPECT_NE(std::strstr(buf, "1 schedule()"), nullptr) << buf;
	EXPECT_NE(std::strstr(buf, "1 wakes"), nullptr) << buf;
}

// Random wake / pick / put_prev / tick / exit: every task is in exactly one place, the
// queue counts agree with the fake's own bookkeeping, picks honour affinity.
TEST(Linux24, ConservationOverARandomRun)
{
	const char *env = std::getenv("HWS_SEED");
	const unsigned seed = env ? unsigned(std::strtoul(env, nullptr, 0)) : 24u;
	SCOPED_TRACE("seed " + std::to_string(seed) + " (set HWS_SEED to repeat)");
	std::mt19937 rng(seed);
	constexpr unsigned CPUS = 4, TASKS = 24;
	Fake m(CPUS, TASKS);
	enum { BLOCKED, QUEUED, RUNNING, GONE };
	std::vector<int> state(TASKS, BLOCKED);
	for (unsigned i = 0; i < TASKS; i++) {
		uint64_t allowed = rng() % 4 ? ~0ull : (1ull << (rng() % CPUS)) | 1ull << (rng() % CPUS);
		m.task(int(rng() % 40) - 20, rng() % 8 ? -1 : int(rng() % 100), allowed);
	}
	for (int step = 0; step < 20000; step++) {
		unsigned op = rng() % 6, cpu = rng() % CPUS, id = rng() % TASKS;
		sched_task *t = &m.tasks[id];
		m.now += rng() % 3000;
		switch (op) {
		case 0:
			if (state[id] == BLOCKED) {
				m.wake(t, cpu);
				state[id] = QUEUED;
			}
			break;
		case 1:
			if (!m.curr[cpu]) {
				sched_task *p = m.run(cpu);
				if (p) {
					ASSERT_EQ(state[p->id], QUEUED) << "step " << step;
					ASSERT_TRUE(p->allowed >> cpu & 1) << "step " << step;
					ASSERT_EQ(p->cpu, int(cpu));
					state[p->id] = RUNNING;
				}
			}
			break;
		case 2:
		case 3:
			if (m.curr[cpu]) {
				int runnable = op == 2;
				state[m.curr[cpu]->id] = runnable ? QUEUED : BLOCKED;
				m.stop(cpu, runnable);
			}
			break;
		case 4:			// 10 ms on every CPU
			for (int k = 0; k < 10; k++)
				for (unsigned c = 0; c < CPUS; c++)
					m.tick(c);
			break;
		case 5:
			if (state[id] == BLOCKED && rng() % 8 == 0) {
				sched_linux24_ops.task_exit(m.s, t, nullptr);
				state[id] = GONE;
			}
			break;
		}
		unsigned nq = 0;
		for (unsigned i = 0; i < TASKS; i++) {
			nq += state[i] == QUEUED;
			ASSERT_EQ(m.where(&m.tasks[i]), state[i] == QUEUED ? 0 : -1)
				<< "task " << i << " step " << step;
			ASSERT_GE(m.tasks[i].counter, 0);
		}
		ASSERT_EQ(m.queued(), nq) << "step " << step;
		for (unsigned c = 1; c < CPUS; c++)
			ASSERT_EQ(sched_linux24_ops.nr_queued(m.s, c), 0u);
		for (unsigned k : m.kicks)
			ASSERT_LT(k, CPUS);
	}
	EXPECT_EQ(m.moved, 0u);
	EXPECT_GT(m.sum(SCHED_WORK_RECALC), 0) << "the run should exhaust counters now and then";
	EXPECT_GT(m.sum(SCHED_WORK_LOCK_WAIT), 0) << "and contend for the lock";
}

// sys_sched_yield() of 2.4: SCHED_YIELD makes the yielder's goodness -1 until its CPU has
// scheduled once, so the other task runs even though the yielder has the CPU bonus; the
// flag is then cleared.
TEST(Linux24, YieldLetsTheOtherTaskRunOnceThenTheFlagIsCleared)
{
	Fake m(1);
	ASSERT_NE(m.s, nullptr) << m.msg;
	sched_task *a = m.task(0), *b = m.task(0);
	m.wake(a);
	m.wake(b);
	m.now = MS;
	ASSERT_EQ(m.run(0), a) << "both 6 + 20 = 26: first in the queue";
	// Without a yield, a (26 + PROC_CHANGE_PENALTY 15 on its own CPU) would run again.
	m.stop(0, 1);
	m.now += MS;
	ASSERT_EQ(m.run(0), a) << "41 against 26";
	m.charges.clear();
	m.now += MS;
	EXPECT_EQ(sched_linux24_ops.yield(m.s, 0, a), 1) << "b is runnable: schedule()";
	EXPECT_EQ(m.sum(SCHED_WORK_SW_OP, 0), 100.0) << "move_last_runqueue under the lock";
	m.stop(0, 1);
	ASSERT_EQ(m.run(0), b) << "a yielded: -1 against 26";
	m.stop(0, 1);
	m.now += MS;
	EXPECT_EQ(m.run(0), a) << "a's SCHED_YIELD cleared: 41 ties b's 41, a is first";
}

// With nothing else runnable, 2.4's sys_sched_yield() returns at once.
TEST(Linux24, YieldAloneDoesNotSchedule)
{
	Fake m(2);
	ASSERT_NE(m.s, nullptr) << m.msg;
	sched_task *a = m.task(0);
	m.wake(a);
	ASSERT_EQ(m.run(0), a);
	m.charges.clear();
	EXPECT_EQ(sched_linux24_ops.yield(m.s, 0, a), 0);
	EXPECT_TRUE(m.charges.empty()) << "no lock taken, nothing charged";
}

}	// namespace
