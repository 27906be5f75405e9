// replay_test.cc - the replay of a trace on the simulated machine (sim/machine/replay.c):
// the three reconstructions of struct machine_opts's replay_order on hand-built traces
// whose order is known (docs/trace.md, "Causal order"), the background tasks, the
// definitions the replay's figures share with Linux's (trace_linux), and the machine's
// own events written as a trace (--perf-out) read back by the same reader.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>
#include <utility>
#include <vector>

#include "sim/machine/machine.h"
#include "sim/trace/trace.h"
#include "tests/test_util.h"

namespace {

// A trace written event by event at microsecond times, as perf script prints it; @prio
// gives a pid its kernel priority (120 unless set).
struct Lines {
	std::vector<std::pair<long, std::string>> ev;
	std::vector<std::pair<int, int>> prio;
	int prio_of(int pid) const
	{
		for (auto &p : prio)
			if (p.first == pid)
				return p.second;
		return 120;
	}
	void add(const char *comm, int pid, int cpu, long us, const std::string &e)
	{
		char b[512];
		snprintf(b, sizeof(b), "%16s %5d/%-5d [%03d] %4ld.%06ld: sched:%s\n", comm, pid, pid,
			 cpu, us / 1000000, us % 1000000, e.c_str());
		ev.emplace_back(us, b);
	}
	// The lines in time order (events of one time in the order they were added).
	std::string text() const
	{
		auto v = ev;
		std::stable_sort(v.begin(), v.end(),
				 [](const auto &a, const auto &b) { return a.first < b.first; });
		std::string s;
		for (auto &x : v)
			s += x.second;
		return s;
	}
	void sw(int cpu, long us, const char *pc, int pp, const char *state, const char *nc,
		int np)
	{
		add(pp ? pc : "swapper", pp, cpu, us,
		    "sched_switch: prev_comm=" + std::string(pc) + " prev_pid=" + std::to_string(pp) +
			    " prev_prio=" + std::to_string(prio_of(pp)) + " prev_state=" + state +
			    " ==> next_comm=" + nc + " next_pid=" + std::to_string(np) +
			    " next_prio=" + std::to_string(prio_of(np)));
	}
	void run(int cpu, long us, const char *c, int p, long ns)
	{
		add(c, p, cpu, us,
		    "sched_stat_runtime: comm=" + std::string(c) + " pid=" + std::to_string(p) +
			    " runtime=" + std::to_string(ns) + " [ns]");
	}
	void wake(int cpu, long us, const char *hc, int hp, const char *c, int p, int target)
	{
		add(hc, hp, cpu, us,
		    "sched_waking: comm=" + std::string(c) + " pid=" + std::to_string(p) +
			    " prio=" + std::to_string(prio_of(p)) +
			    " target_cpu=" + std::to_string(target));
	}
};

// A file holding @text, removed with the object.
struct File {
	std::string path;
	explicit File(const std::string &text)
	{
		char t[] = "/tmp/replay_test_XXXXXX";
		int fd = mkstemp(t);
		EXPECT_GE(fd, 0);
		EXPECT_EQ(write(fd, text.data(), text.size()), ssize_t(text.size()));
		close(fd);
		path = t;
	}
	~File() { unlink(path.c_str()); }
};

// Ping-pong of a (pid 10, CPU 0) and b (pid 20, CPU 1), @rounds times: a runs @run_us,
// wakes b, runs @after_us more and sleeps; b runs @run_us, wakes a and sleeps. Each
// sleeps @rounds times in Linux, each wake comes after its wakee's sleep began. @b_prio:
// b's kernel priority.
Lines ping_pong(int rounds, long run_us, long after_us = 0, int b_prio = 120)
{
	Lines l;
	long t = 1000000;
	l.prio.emplace_back(20, b_prio);
	for (int i = 0; i < rounds; i++) {
		l.sw(0, t, "swapper/0", 0, "R", "a", 10);
		t += run_us;
		l.wake(0, t, "a", 10, "b", 20, 1);
		t += after_us;
		l.run(0, t, "a", 10, (run_us + after_us) * 1000);
		l.sw(0, t, "a", 10, "S", "swapper/0", 0);
		t += 10;
		l.sw(1, t, "swapper/1", 0, "R", "b", 20);
		t += run_us;
		l.run(1, t, "b", 20, run_us * 1000);
		l.wake(1, t, "b", 20, "a", 10, 0);
		l.sw(1, t, "b", 20, "S", "swapper/1", 0);
		t += 10;
	}
	l.sw(0, t, "swapper/0", 0, "R", "a", 10);
	l.run(0, t + 5, "a", 10, 5000);
	l.sw(0, t + 5, "a", 10, "Z", "swapper/0", 0);
	return l;
}

struct Replay {
	trace *tr = nullptr;
	machine_result r{};
	trace_linux lx{};
	int ret = -1;
	std::string err;
	~Replay()
	{
		machine_result_free(&r);
		trace_free(tr);
	}
};

trace_opts all_tasks()
{
	trace_opts to{};
	to.all = 1;
	return to;
}

void replay(Replay &x, const std::string &path, const char *topo,
	    machine_replay_order order = MACHINE_REPLAY_CAUSAL, const char *sched = "eevdf",
	    const char *perf_out = nullptr, trace_opts to = all_tasks())
{
	char err[512] = "";
	x.ret = trace_load(path.c_str(), &to, &x.tr, err, sizeof(err));
	ASSERT_EQ(x.ret, 0) << err;
	ASSERT_EQ(trace_linux_metrics(x.tr, &x.lx), 0);
	machine_opts o;
	machine_default_opts(&o);
	machine_replay_defaults(&o);
	o.trace = x.tr;
	o.workload = "test trace";
	o.topology = topo;
	o.sched = sched;
	o.sched_opts.fair.kernel = 618;
	o.hz = 250;
	o.replay_order = order;
	o.duration_ns = (uint64_t)(3 * (x.tr->end_ns - x.tr->start_ns)) + 1000000000ull;	// as replay's
	o.check_every = 1;
	o.perf_out = perf_out;
	x.ret = machine_run(&o, &x.r, nullptr, err, sizeof(err));
	x.err = err;
}

TEST(Replay, TheCausalOrderOnTheTracesMachineIsLinuxs)
{
	// Two CPUs as in Linux: every wake finds its wakee asleep, none is held, and the
	// replay blocks exactly as often as Linux did.
	File f(ping_pong(20, 100).text());
	Replay x;
	replay(x, f.path, "core=2");
	ASSERT_EQ(x.ret, 0) << x.err;
	EXPECT_EQ(x.lx.wl_csw_vol, 40u);
	EXPECT_EQ(x.r.vol_switches, x.lx.wl_csw_vol);
	EXPECT_EQ(x.r.held_wakes, 0u);
	EXPECT_GT(x.r.makespan_s, 0.0);
}

TEST(Replay, ALongIdleGapCostsNoCpuTime)
{
	// A task woken 100,000 s after the rest of the trace (a bad input of docs/trace.md): the
	// replay waits that long in simulated time, in a few events, and the task that runs
	// after the gap accounts none of it as CPU time (an idle CPU's last segment start is
	// not the woken task's).
	Lines l;
	l.sw(0, 1000000, "swapper/0", 0, "R", "a", 10);
	l.run(0, 1000100, "a", 10, 100000);
	l.sw(0, 1000100, "a", 10, "S", "swapper/0", 0);
	long gap = 100000L * 1000000L;
	l.wake(0, 1000100 + gap, "swapper/0", 0, "a", 10, 0);
	l.sw(0, 1000110 + gap, "swapper/0", 0, "R", "a", 10);
	l.sw(0, 1000110 + gap, "a", 10, "Z", "swapper/0", 0);	// exits at once
	File f(l.text());
	Replay x;
	replay(x, f.path, "core=1");
	ASSERT_EQ(x.ret, 0) << x.err;
	EXPECT_NEAR(x.lx.cpu_time_ms, 0.1, 1e-9);
	ASSERT_EQ(x.r.ntasks, 1u);
	EXPECT_NEAR(x.r.tasks[0].runtime_ms, 0.1, 0.001) << "the gap is not CPU time";
	EXPECT_NEAR(x.r.makespan_s, x.lx.makespan_ms / 1e3, 0.001);
	EXPECT_LT(x.r.events, 1000u) << "the gap is one timer, not a tick per ms";
}

TEST(Replay, OnOneCpuWakesComeFirstAndAreHeld)
{
	// One CPU under the O(1) policy: b (nice -5) woken by a preempts it 100 us before a
	// reaches its sleep, so b's wake of a comes first. The causal order holds it at a's
	// sleep: a still blocks there, as in Linux. The tied order lets a pass that sleep
	// instead; the program order is a mailbox.
	File f(ping_pong(20, 100, 100, 115).text());
	Replay causal, tied, program;
	replay(causal, f.path, "core=1", MACHINE_REPLAY_CAUSAL, "o1");
	replay(tied, f.path, "core=1", MACHINE_REPLAY_TIED, "o1");
	replay(program, f.path, "core=1", MACHINE_REPLAY_PROGRAM, "o1");
	ASSERT_EQ(causal.ret, 0) << causal.err;
	ASSERT_EQ(tied.ret, 0) << tied.err;
	ASSERT_EQ(program.ret, 0) << program.err;
	EXPECT_GT(causal.r.held_wakes, 0u) << "on one CPU some wake must come first";
	EXPECT_EQ(causal.r.vol_switches, causal.lx.wl_csw_vol);
	EXPECT_LT(tied.r.vol_switches, causal.r.vol_switches);
	EXPECT_EQ(program.r.held_wakes, 0u) << "a mailbox holds no wake";
	for (Replay *x : { &causal, &tied, &program })
		EXPECT_NEAR(x->r.makespan_s, 0.006, 0.001) << "6 ms of work on one CPU";
}

TEST(Replay, BackgroundTasksRunButAreNotCounted)
{
	// A kernel thread (pid 30, bound to CPU 0 by its name) wakes from an interrupt every
	// 300 us on CPU 0 and runs 50 us. The workload is a alone (a pid filter); b and the
	// kworker are kept as background: they run in the replay (the kworker takes CPU 0
	// from a) but its figures count a only, as Linux's do.
	Lines l = ping_pong(10, 100);
	for (long t = 1000050; t < 1004000; t += 300) {
		l.wake(0, t, "swapper", 0, "kworker/0:1", 30, 0);
		l.run(0, t + 50, "kworker/0:1", 30, 50000);
	}
	File f(l.text());
	trace *tr = nullptr;
	char err[512] = "";
	trace_opts to{};
	to.pid = 10;
	to.background = 1;
	ASSERT_EQ(trace_load(f.path.c_str(), &to, &tr, err, sizeof(err)), 0) << err;
	size_t wl = 0, bg = 0;
	for (size_t i = 0; i < tr->nr_tasks; i++)
		(tr->tasks[i].workload ? wl : bg)++;
	EXPECT_EQ(wl, 1u) << "the filter keeps a";
	EXPECT_EQ(bg, 2u) << "b and the kworker are background";
	for (size_t i = 0; i < tr->nr_tasks; i++)
		if (tr->tasks[i].pid == 30)
			EXPECT_EQ(tr->tasks[i].bound_cpu, 0) << "kworker/0:1 is CPU 0's";
	trace_free(tr);
	Replay with, without;
	trace_opts alone = to;
	alone.background = 0;
	replay(with, f.path, "core=2", MACHINE_REPLAY_CAUSAL, "eevdf", nullptr, to);
	replay(without, f.path, "core=2", MACHINE_REPLAY_CAUSAL, "eevdf", nullptr, alone);
	ASSERT_EQ(with.ret, 0) << with.err;
	ASSERT_EQ(without.ret, 0) << without.err;
	EXPECT_EQ(with.lx.wl_csw_vol, 10u) << "a's sleeps";
	EXPECT_EQ(with.r.vol_switches, with.lx.wl_csw_vol);
	EXPECT_EQ(without.r.vol_switches, with.lx.wl_csw_vol);
	double kw_ms = -1;
	for (unsigned i = 0; i < with.r.ntasks; i++)
		if (with.r.tasks[i].pid == 30) {
			EXPECT_TRUE(with.r.tasks[i].bg);
			kw_ms = with.r.tasks[i].runtime_ms;
		}
	EXPECT_NEAR(kw_ms, 14 * 0.05, 0.001) << "the kworker's 14 runs of 50 us";
}

TEST(Replay, ItsOwnEventsReadBackAsItsFigures)
{
	// --perf-out: the replay's events, read by the trace reader, give the replay's own
	// switches: one definition for both sides.
	File f(ping_pong(20, 100, 100).text());
	char out[] = "/tmp/replay_test_out_XXXXXX";
	int fd = mkstemp(out);
	ASSERT_GE(fd, 0);
	close(fd);
	Replay x;
	replay(x, f.path, "core=1", MACHINE_REPLAY_CAUSAL, "eevdf", out);
	ASSERT_EQ(x.ret, 0) << x.err;
	trace *back = nullptr;
	char err[512] = "";
	trace_opts to{};
	to.all = 1;
	ASSERT_EQ(trace_load(out, &to, &back, err, sizeof(err)), 0) << err;
	trace_linux m{};
	ASSERT_EQ(trace_linux_metrics(back, &m), 0);
	EXPECT_EQ(m.wl_csw_vol, x.r.vol_switches);
	EXPECT_EQ(m.wl_csw_invol, x.r.invol_switches);
	EXPECT_EQ(m.wl_mig_wakeup + m.wl_mig_other, x.r.migrations);
	EXPECT_NEAR(m.cpu_time_ms, x.lx.cpu_time_ms, 0.01);
	trace_free(back);
	unlink(out);
}

}	// namespace

namespace {

// The calibration traces (their sidecars' "role") and the wake path price each one
// measures (sim/machine/machine.c, machine_replay_defaults): TRACE_PATH_NR stands for
// idle_remote below TRACE_IDLE_DEEP_NS of idle, TRACE_PATH_NR + 1 for the deep ones.
struct Calib {
	const char *file;
	int path;
	double machine_costs::*price;
};
const Calib kCalibration[] = {
	{ "pipe_pingpong.txt.gz", TRACE_PATH_NR, &machine_costs::wake_idle_ns },
	{ "pipe_pingpong.txt.gz", TRACE_PATH_NR + 1, &machine_costs::wake_idle_deep_ns },
	{ "sleepy_threads.txt.gz", TRACE_PATH_IDLE_LOCAL, &machine_costs::wake_local_ns },
	{ "sleepy_threads.txt.gz", TRACE_PATH_PREEMPT_IRQ, &machine_costs::preempt_irq_ns },
	{ "pipe_pairs.txt.gz", TRACE_PATH_PREEMPT_LOCAL, &machine_costs::preempt_local_ns },
	{ "pipe_hogs.txt.gz", TRACE_PATH_PREEMPT_REMOTE, &machine_costs::preempt_remote_ns },
};

void replay_real(Replay &x, const char *file, const char *perf_out = nullptr)
{
	trace_opts to{};
	to.background = 1;	// as hwsched replay does
	replay(x, hwstest::trace_dir() + "/" + file, "core=2", MACHINE_REPLAY_CAUSAL, "eevdf",
	       perf_out, to);
}

// Count and median of path @p (as kCalibration numbers them) on Linux's side or the replay's.
std::pair<double, double> path_of(const Replay &x, int p, bool linux_side)
{
	if (p == TRACE_PATH_NR)
		return linux_side ? std::make_pair((double)x.lx.idle_short_n, x.lx.idle_short_p50_us)
				  : std::make_pair((double)x.r.idle_short_n, x.r.idle_short_p50_us);
	if (p == TRACE_PATH_NR + 1)
		return linux_side ? std::make_pair((double)x.lx.idle_deep_n, x.lx.idle_deep_p50_us)
				  : std::make_pair((double)x.r.idle_deep_n, x.r.idle_deep_p50_us);
	return linux_side ? std::make_pair((double)x.lx.path_n[p], x.lx.path_p50_us[p])
			  : std::make_pair((double)x.r.path_n[p], x.r.path_p50_us[p]);
}

TEST(Replay, WakePathMatchesTheCalibrationTraces)
{
	// Each wake path price of the trace machine is its calibration trace's median (within
	// 0.5 us: what the replay adds on the path), and where the replay takes that path at
	// least 20 times, its own median is Linux's within 1 us or 10% (docs/trace.md, "Wake
	// paths"). A change of a price, of the classification or of what the replay adds on
	// a path breaks it.
	HWS_NEED_TRACES(hwstest::trace_dir());
	machine_opts o;
	machine_default_opts(&o);
	machine_replay_defaults(&o);
	int replayed = 0;
	for (const Calib &c : kCalibration) {
		SCOPED_TRACE(std::string(c.file) + ", path " + std::to_string(c.path));
		Replay x;
		replay_real(x, c.file);
		ASSERT_EQ(x.ret, 0) << x.err;
		auto [ln, lp] = path_of(x, c.path, true);
		auto [rn, rp] = path_of(x, c.path, false);
		ASSERT_GE(ln, 1) << "Linux never took the path";
		double price_us = o.costs.*c.price / 1000.0;
		EXPECT_LE(lp - price_us, 0.5) << "price " << price_us << " us, Linux " << lp;
		EXPECT_GE(lp - price_us, 0.0) << "price " << price_us << " us, Linux " << lp;
		if (ln >= 20 && rn >= 20) {
			EXPECT_LE(std::abs(rp - lp), std::max(1.0, 0.1 * lp))
				<< "Linux " << lp << " us (" << ln << "), replay " << rp << " us (" << rn
				<< ")";
			replayed++;
		}
	}
	EXPECT_GE(replayed, 3) << "idle remote, timer preemption, local preemption";
}

TEST(Replay, ItsWakePathsReadBackAsLinuxsAre)
{
	// The replay's own events (--perf-out) read by the trace reader give the replay's wake
	// path counts: the machine classifies its wakeups as the reader classifies Linux's.
	// perf-out writes no call chains, so the reader cannot tell an interrupt's local
	// preemption from a task's: those two are compared together.
	HWS_NEED_TRACES(hwstest::trace_dir());
	for (const char *file : { "pipe_pairs.txt.gz", "sleepy_threads.txt.gz" }) {
		char out[] = "/tmp/replay_test_paths_XXXXXX";
		int fd = mkstemp(out);
		ASSERT_GE(fd, 0);
		close(fd);
		Replay x;
		replay_real(x, file, out);
		ASSERT_EQ(x.ret, 0) << file << ": " << x.err;
		trace *back = nullptr;
		char err[512] = "";
		trace_opts to{};
		to.background = 1;
		ASSERT_EQ(trace_load(out, &to, &back, err, sizeof(err)), 0) << err;
		trace_linux m{};
		ASSERT_EQ(trace_linux_metrics(back, &m), 0);
		for (int p : { TRACE_PATH_IDLE_LOCAL, TRACE_PATH_IDLE_REMOTE,
			       TRACE_PATH_PREEMPT_REMOTE, TRACE_PATH_WAITED })
			EXPECT_EQ(m.path_n[p], x.r.path_n[p])
				<< file << ": " << trace_wake_path_name((trace_wake_path)p);
		EXPECT_EQ(m.path_n[TRACE_PATH_PREEMPT_LOCAL] + m.path_n[TRACE_PATH_PREEMPT_IRQ],
			  x.r.path_n[TRACE_PATH_PREEMPT_LOCAL] + x.r.path_n[TRACE_PATH_PREEMPT_IRQ])
			<< file;
		EXPECT_GT(x.r.path_n[TRACE_PATH_PREEMPT_LOCAL] + x.r.path_n[TRACE_PATH_PREEMPT_IRQ],
			  100u) << file << ": preemptions to compare";
		trace_free(back);
		unlink(out);
	}
}

}	// namespace

namespace {

// The number after "key": in @s from @from, or NAN.
double num_after(const std::string &s, size_t from, const std::string &key)
{
	size_t k = s.find("\"" + key + "\": ", from);
	if (k == std::string::npos)
		return NAN;
	return strtod(s.c_str() + k + key.size() + 4, nullptr);
}

TEST(Replay, ReplayCheckJudgesEachFigureByItsGoal)
{
	// make replay-check (tools/replay_check.sh) on two traces: every goal figure of each
	// is in build/.../summary.json, and each verdict is the goal's rule recomputed here
	// from Linux's and the replay's figures: within tolerance_pct % of Linux's, or, for
	// migrations, within 10 when both counts are below 10.
	HWS_NEED_TRACES(hwstest::trace_dir());
	char d[] = "/tmp/replay_check_test_XXXXXX";
	ASSERT_NE(mkdtemp(d), nullptr);
	std::string dir = d, src = hwstest::trace_dir();
	for (const char *n : { "pipe_pingpong", "nice_hogs" })
		ASSERT_EQ(std::system(("cp '" + src + "/" + n + ".txt.gz' '" + src + "/" + n +
				       ".json' '" + dir + "/'").c_str()), 0);
	hwstest::CliRun r = hwstest::shell("HWS_TRACE_DIR=" + dir + " OUT=" + dir + "/out " +
					   hwstest::repo_root() + "/tools/replay_check.sh");
	ASSERT_EQ(r.status, 0) << r.out;
	EXPECT_NE(r.out.find("pipe_pingpong (cal)"), std::string::npos) << r.out;
	std::string j = hwstest::slurp(dir + "/out/summary.json");
	int figures = 0, passed = 0;
	for (size_t at = j.find("{\"trace\": "); at != std::string::npos;
	     at = j.find("{\"trace\": ", at + 1)) {
		double l = num_after(j, at, "linux"), x = num_after(j, at, "replay");
		double tol = num_after(j, at, "tolerance_pct");
		bool abs10 = j.compare(j.find("\"abs_below_10\": ", at) + 16, 4, "true") == 0;
		bool pass = j.compare(j.find("\"pass\": ", at) + 8, 4, "true") == 0;
		bool want = (abs10 && l < 10 && x < 10) ? std::abs(x - l) <= 10
			    : l != 0			 ? std::abs(x - l) <= tol / 100 * l
							 : x == 0;
		EXPECT_EQ(pass, want) << j.substr(at, 200);
		figures++;
		passed += pass;
	}
	EXPECT_EQ(figures, 16) << "8 goals per trace: " << j;
	EXPECT_EQ(num_after(j, 0, "goals"), 16);
	EXPECT_EQ(num_after(j, 0, "goals_met"), passed);
	EXPECT_EQ(num_after(j, 0, "goals_not_calibration"), 8) << "pipe_pingpong is a calibration trace";
	std::string md = hwstest::slurp(dir + "/out/table.md");
	EXPECT_NE(md.find("| nice_hogs |"), std::string::npos) << md;
	EXPECT_NE(md.find("| pipe_pingpong (calibration) |"), std::string::npos) << md;
	std::system(("rm -rf '" + dir + "'").c_str());
}

}	// namespace
