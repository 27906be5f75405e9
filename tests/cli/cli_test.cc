// cli_test.cc - the hwsched executable as a user runs it.
#include <gtest/gtest.h>

#include <cstring>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

#include "tests/test_util.h"

namespace {

using hwstest::CliRun;
using hwstest::hwsched;
using hwstest::slurp;

std::string last_line(const std::string &s)
{
	std::string t = s;
	while (!t.empty() && t.back() == '\n')
		t.pop_back();
	size_t nl = t.rfind('\n');
	return nl == std::string::npos ? t : t.substr(nl + 1);
}

TEST(Cli, HelpOnEveryCommand)
{
	for (const char *a : { "--help", "help", "lockstep --help", "help lockstep", "run --help",
			       "help run", "replay --help", "help replay", "trace-info --help",
			       "help trace-info" }) {
		CliRun r = hwsched(a);
		EXPECT_EQ(r.status, 0) << a;
		EXPECT_NE(r.out.find("usage:"), std::string::npos) << a << ": " << r.out;
	}
}

TEST(Cli, LockstepLastLineAndSummary)
{
	CliRun r = hwsched("lockstep --seed 3 --commands 20000");
	EXPECT_EQ(r.status, 0) << r.out;
	EXPECT_EQ(last_line(r.out), "lockstep: 20000 commands, 0 mismatches") << r.out;
	for (const char *want : { "occupancy: max", "commands by type:", "errors by code:",
				  "cycles per command" })
		EXPECT_NE(r.out.find(want), std::string::npos) << want << "\n" << r.out;
}

// The build without BALANCE, as a user reaches it: lockstep on its variant, and a run
// whose firmware balances in software on it.
TEST(Cli, TheBuildWithoutBalanceRunsFromTheCommandLine)
{
	CliRun l = hwsched("lockstep --no-balance --seed 4 --commands 20000");
	EXPECT_EQ(l.status, 0) << l.out;
	EXPECT_EQ(last_line(l.out), "lockstep: 20000 commands, 0 mismatches") << l.out;
	CliRun r = hwsched("run --no-hw-balance --backend rtl --duration 50ms --topology pkg=2,core=4");
	EXPECT_EQ(r.status, 0) << r.out;
	EXPECT_NE(r.out.find("migrations"), std::string::npos) << r.out;
}

// The build that fits an HX8K (no BALANCE, no per-code error counters) from the command
// line: random commands in lockstep, and a machine run on its RTL that is, line for line,
// the run on its C model (only the backend's name differs).
TEST(Cli, TheHx8kBuildRunsFromTheCommandLine)
{
	// the reference HX8K build: no BALANCE, no per-code counters, no interrupt (nbneni)
	CliRun l = hwsched("lockstep --no-balance --no-err-counters --no-irq --seed 5 "
			   "--commands 20000");
	EXPECT_EQ(l.status, 0) << l.out;
	EXPECT_EQ(last_line(l.out), "lockstep: 20000 commands, 0 mismatches") << l.out;
	EXPECT_NE(l.out.find("errors by code: not counted"), std::string::npos) << l.out;
	const std::string run = "run --duration 50ms --topology pkg=2,core=4 --seed 3 "
				"--no-hw-balance --no-err-counters --no-irq --backend ";
	CliRun r = hwsched(run + "rtl");
	CliRun m = hwsched(run + "model");
	ASSERT_EQ(r.status, 0) << r.out;
	ASSERT_EQ(m.status, 0) << m.out;
	EXPECT_NE(r.out.find("migrations"), std::string::npos) << r.out;
	std::string rm = r.out;
	size_t i = rm.find("backend rtl");
	ASSERT_NE(i, std::string::npos) << r.out;
	rm.replace(i, 11, "backend model");
	EXPECT_EQ(rm, m.out);
}

TEST(Cli, SameSeedSameRun)
{
	CliRun a = hwsched("lockstep --backend model --seed 9 --commands 5000 --cpus 2 --tasks 16");
	CliRun b = hwsched("lockstep --backend model --seed 9 --commands 5000 --cpus 2 --tasks 16");
	ASSERT_EQ(a.status, 0) << a.out;
	auto strip_time = [](const std::string &s) {
		size_t p = s.find("time:");
		size_t e = s.find('\n', p);
		return s.substr(0, p) + s.substr(e);
	};
	EXPECT_EQ(strip_time(a.out), strip_time(b.out));
}

TEST(Cli, BadArgumentsAreNamed)
{
	struct {
		const char *args, *want;
	} cases[] = {
		{ "lockstep --cpus 65", "--cpus '65': expected a whole number in 1..64" },
		{ "lockstep --tasks x", "--tasks 'x': expected a whole number in 1..4096" },
		{ "lockstep --backend fpga", "--backend must be one of lockstep, model, rtl, uart (got 'fpga')" },
		{ "lockstep --commands -5", "--commands '-5': expected a whole number" },
		{ "lockstep extra", "unexpected argument 'extra'" },
		{ "frobnicate", "unknown command 'frobnicate'" },
		{ "run --sched o1 --no-hw-balance", "--no-hw-balance is an option of --sched hw" },
		{ "run --sched o1 --no-err-counters", "--no-err-counters is an option of --sched hw" },
		{ "vp --no-err-counters", "--no-err-counters is an option of 'run'" },
	};
	for (const auto &c : cases) {
		CliRun r = hwsched(c.args);
		EXPECT_NE(r.status, 0) << c.args;
		EXPECT_NE(r.out.find(c.want), std::string::npos) << c.args << ": " << r.out;
	}
}

// The options that set engine parameters (regmap/params.def's cli lines, cli/cli_param_opts.h):
// each refuses a value outside its range naming the option and the range, and takes the
// edges of the range (on the model backend: no shape to build).
TEST(Cli, EngineParameterOptionsTakeTheirRangeAndNameIt)
{
	const struct {
		const char *opt;
		unsigned lo, hi;
	} opts[] = {
		{ "--cpus", 1, 64 }, { "--tasks", 1, 4096 }, { "--depth", 2, 32 },
		{ "--ports", 1, 4 }, { "--bal-lanes", 1, 64 },
	};
	for (const auto &o : opts) {
		for (unsigned bad : { o.lo - 1, o.hi + 1 }) {
			const std::string args = std::string("lockstep --backend model --commands 10 ") +
						 o.opt + " " + std::to_string(bad) +
						 (!strcmp(o.opt, "--bal-lanes") ? " --cpus 64" : "");
			CliRun r = hwsched(args);
			EXPECT_EQ(r.status, 2) << args << ": " << r.out;
			const std::string want = std::string(o.opt) + " '" + std::to_string(bad) +
						 "': expected a whole number in " + std::to_string(o.lo) +
						 ".." + std::to_string(o.hi);
			EXPECT_NE(r.out.find(want), std::string::npos) << args << ": " << r.out;
		}
		for (unsigned good : { o.lo, o.hi }) {
			/* --bal-lanes N needs N CPUs; --tasks 4096 and 64 CPUs are slow enough */
			const std::string args = std::string("lockstep --backend model --commands 10 ") +
						 o.opt + " " + std::to_string(good) +
						 (!strcmp(o.opt, "--bal-lanes") ? " --cpus " + std::to_string(good) : "");
			CliRun r = hwsched(args);
			EXPECT_EQ(r.status, 0) << args << ": " << r.out;
		}
	}
	CliRun r = hwsched("lockstep --backend model --commands 10 --cpus 4 --bal-lanes 5");
	EXPECT_NE(r.status, 0) << r.out;
	EXPECT_NE(r.out.find("BAL_LANES must be 1..NR_CPUS"), std::string::npos) << r.out;
}

TEST(Cli, WaveformIsWritten)
{
	std::string f = testing::TempDir() + "hws_wave.fst";
	std::remove(f.c_str());
	CliRun r = hwsched("lockstep --backend rtl --commands 300 --wave " + f);
	ASSERT_EQ(r.status, 0) << r.out;
	FILE *fp = fopen(f.c_str(), "rb");
	ASSERT_NE(fp, nullptr) << "no waveform at " << f;
	fseek(fp, 0, SEEK_END);
	EXPECT_GT(ftell(fp), 1000) << "waveform too small";
	fclose(fp);
	std::remove(f.c_str());
}

} // namespace

namespace {

using hwstest::trace_dir;

// The number after "key": in @json, searched after @side's key.
double json_num(const std::string &json, const std::string &side, const std::string &key)
{
	size_t at = json.find("\"" + side + "\"");
	at = at == std::string::npos ? at : json.find("\"" + key + "\"", at);
	if (at == std::string::npos)
		return -1;
	return atof(json.c_str() + json.find(':', at) + 1);
}

} // namespace

TEST(Cli, RunReportsAndWritesJsonAndSvg)
{
	CliRun r = hwsched("run --workload hackbench:groups=1,loops=2 --topology core=2 --sched o1 "
			   "--json build/cli_run.json --svg build/cli_run.svg --top 3");
	ASSERT_EQ(r.status, 0) << r.out;
	for (const char *k : { "makespan:", "wakeup latency (us): p50", "context switches:",
			       "busy %:", "idle-core violations:", "scheduler overhead:", "max delay ms" })
		EXPECT_NE(r.out.find(k), std::string::npos) << k << "\n" << r.out;
	std::string j = slurp("build/cli_run.json");
	EXPECT_GT(json_num(j, "workload", "makespan_s"), 0.0) << j;
	EXPECT_NE(slurp("build/cli_run.svg").find("CPU 1"), std::string::npos);
	r = hwsched("run --workload hackbench --topology core=99");
	EXPECT_EQ(r.status, 2) << "bad input";
	EXPECT_NE(r.out.find("core=99"), std::string::npos) << r.out;
	r = hwsched("run --sched bfs --duration 10ms");
	EXPECT_NE(r.status, 0);
	EXPECT_NE(r.out.find("bfs"), std::string::npos) << r.out;
}

// The goal: on both traces, on a 2-CPU machine, the replay's makespan within 10%
// of Linux's and its CPU time within 5%, whichever scheduler.
TEST(Cli, ReplayMatchesLinuxOnBothTraces)
{
	std::string dir = trace_dir();
	HWS_NEED_TRACES(dir);
	for (const char *t : { "hackbench_g4", "make_j4" })
		for (const char *s : { "hw", "o1", "linux24", "cfs", "eevdf" }) {
			std::string json = std::string("build/replay_") + t + "_" + s + ".json";
			CliRun r = hwsched(std::string("replay ") + dir + "/" + t + ".txt.gz --sched " + s +
					   " --json " + json);
			ASSERT_EQ(r.status, 0) << r.out;
			std::string j = slurp(json);
			double lm = json_num(j, "linux", "makespan_ms"), rm = json_num(j, "replay", "makespan_ms");
			double lc = json_num(j, "linux", "cpu_time_ms"), rc = json_num(j, "replay", "cpu_time_ms");
			EXPECT_NEAR(rm / lm, 1.0, 0.10) << t << " " << s << ": " << rm << " vs " << lm;
			EXPECT_NEAR(rc / lc, 1.0, 0.05) << t << " " << s << ": " << rc << " vs " << lc;
			if (std::string(s) == "eevdf") {	// the replay's 5% tolerance, the traces' policy
				EXPECT_NEAR(rm / lm, 1.0, 0.05) << t << ": " << rm << " vs " << lm;
			}
			for (const char *k : { "busy_pct", "wakeup_latency_us", "p99", "migrations", "switches" })
				EXPECT_NE(j.find(k), std::string::npos) << k;
			// Both sides split switches and migrations as Linux does (docs/trace.md,
			// "Replay fidelity"); Linux's are the workload's figures of the trace reader.
			for (const char *side : { "linux", "replay" }) {
				EXPECT_EQ(json_num(j, side, "switches_voluntary") +
						  json_num(j, side, "switches_involuntary"),
					  json_num(j, side, "switches")) << t << " " << s << " " << side;
				EXPECT_EQ(json_num(j, side, "migrations_wakeup") +
						  json_num(j, side, "migrations_other"),
					  json_num(j, side, "migrations")) << t << " " << s << " " << side;
			}
			const bool hb = std::string(t) == "hackbench_g4";
			EXPECT_EQ(json_num(j, "linux", "switches_voluntary"), hb ? 2874 : 285);
			EXPECT_EQ(json_num(j, "linux", "switches_involuntary"), hb ? 1372 : 323);
			EXPECT_EQ(json_num(j, "linux", "migrations_wakeup"), hb ? 380 : 33);
			EXPECT_EQ(json_num(j, "linux", "migrations_other"), hb ? 90 : 13);
		}
	// --svg: Linux's lanes from the trace above the replay's, one time axis, a tooltip on
	// every burst with task, pid, start, length and wakeup delay.
	CliRun v = hwsched("replay " + dir + "/make_j4.txt.gz --sched eevdf --svg build/replay_make.svg");
	ASSERT_EQ(v.status, 0) << v.out;
	std::string svg = slurp("build/replay_make.svg");
	for (const char *k : { ">Linux CPU 0<", ">Linux CPU 1<", ">CPU 0<", ">CPU 1<", ", pid ",
			       "wakeup delay", "</svg>" })
		EXPECT_NE(svg.find(k), std::string::npos) << k;
	EXPECT_LT(svg.find(">Linux CPU 1<"), svg.find(">CPU 0<")) << "Linux above the replay";
	CliRun bad = hwsched("replay /nonexistent.txt");
	EXPECT_EQ(bad.status, 2) << "a missing input is bad input";
	EXPECT_NE(bad.out.find("nonexistent"), std::string::npos) << bad.out;
}

// The engine's waveform from a run on the RTL backend, and a trace replayed on it (the
// 2-CPU, 256-task build): the same makespan as on the model, which it is checked against.
TEST(Cli, RunWritesTheEngineWaveformAndReplaysOnTheRtl)
{
	remove("build/cli_run.fst");
	CliRun r = hwsched("run --workload hackbench:groups=1,loops=1 --topology pkg=2,core=2,smt=2 "
			   "--backend rtl --wave build/cli_run.fst");
	ASSERT_EQ(r.status, 0) << r.out;
	std::string fst = slurp("build/cli_run.fst");
	EXPECT_GT(fst.size(), 1000u) << "no waveform";
	std::string dir = trace_dir();
	HWS_NEED_TRACES(dir);
	CliRun a = hwsched("replay " + dir + "/make_j4.txt.gz --backend lockstep --json build/rl.json");
	CliRun b = hwsched("replay " + dir + "/make_j4.txt.gz --backend model --json build/rm.json");
	ASSERT_EQ(a.status, 0) << a.out;
	ASSERT_EQ(b.status, 0) << b.out;
	EXPECT_EQ(json_num(slurp("build/rl.json"), "replay", "makespan_ms"),
		  json_num(slurp("build/rm.json"), "replay", "makespan_ms"));
}

TEST(Cli, RunAndReplayRefuseBadNumbersNamingTheOption)
{
	struct Case {
		const char *args, *names;
	};
	for (const Case &c : { Case{ "run --top x", "--top 'x'" }, Case{ "run --hz -5", "--hz '-5'" },
			       Case{ "run --check-every 1e3", "--check-every" },
			       Case{ "run --duration 5parsecs", "--duration" },
			       Case{ "replay x.txt --pid abc", "--pid 'abc'" },
			       Case{ "replay x.txt --tree-of 9999999999", "--tree-of" },
			       Case{ "run --cost smt_speed=2", "smt_speed" },
			       Case{ "lockstep --resets 1.5", "--resets" },
			       Case{ "lockstep --resets nan", "--resets" },
			       Case{ "run --resets 0.1", "--resets" } }) {
		CliRun r = hwsched(c.args);
		EXPECT_EQ(r.status, 2) << c.args << ": " << r.out;
		EXPECT_NE(r.out.find(c.names), std::string::npos) << c.args << ": " << r.out;
	}
}

// hwsched trace-info: the reader's counts and Linux's figures, as text and as JSON (one key
// a line; --json - the JSON alone on stdout), both from the same numbers; the filters and
// --lenient as replay takes them; the output may not be the trace.
TEST(Cli, TraceInfoPrintsWhatTheReaderMadeOfATrace)
{
	std::string dir = trace_dir();
	HWS_NEED_TRACES(dir);
	const std::string hb = dir + "/hackbench_g4.txt.gz";
	CliRun t = hwsched("trace-info " + hb);
	ASSERT_EQ(t.status, 0) << t.out;
	for (const char *k : { "read: 14916 lines, 0 skipped, 0 warnings\n",
			       "anomalies: 1: no_switch_out 1 (first at line 6384)\n",
			       "absorbed: 0 lines stamped before another CPU's latest line\n",
			       "CPUs: 2; tasks kept: 161, the workload (root pid 5149); forks 160, "
			       "exits 161\n",
			       "duration 196.144 ms, makespan 195.334 ms, CPU time 365.907 ms\n",
			       "switches voluntary                 3005         2874\n",
			       "migrations at wakeup                385          380\n",
			       "wakeup latency p50 us              21.0         20.0\n" })
		EXPECT_NE(t.out.find(k), std::string::npos) << k << "\n" << t.out;

	CliRun j = hwsched("trace-info " + hb + " --json -");
	ASSERT_EQ(j.status, 0) << j.out;
	EXPECT_EQ(j.out.substr(0, 2), "{\n") << "the JSON alone: " << j.out;
	EXPECT_EQ(j.out.substr(j.out.size() - 2), "}\n");
	for (const char *k : { "  \"tasks_kept\": \"workload\",\n", "  \"lines\": 14916,\n",
			       "  \"anomaly\": {\"no_switch_out\": {\"n\": 1, \"first_line\": 6384}},\n",
			       "  \"absorbed\": {\"n\": 0, \"max_us\": 0.000, \"first_line\": 0},\n",
			       "  \"cpus\": 2,\n", "  \"tasks\": 161,\n", "  \"cpu_time_ms\": 365.907,\n",
			       "  \"switches_voluntary\": 3005,\n", "  \"wl_switches_voluntary\": 2874,\n",
			       "  \"wl_migrations_other\": 90,\n",
			       "  \"wl_wakeup_latency_us\": {\"n\": 2874, \"p50\": 20.000, \"p90\": "
			       "21859.000," })
		EXPECT_NE(j.out.find(k), std::string::npos) << k << "\n" << j.out;
	// --json FILE: the same bytes, and the text on stdout
	std::string f = testing::TempDir() + "hws_trace_info.json";
	CliRun w = hwsched("trace-info " + hb + " --json " + f);
	ASSERT_EQ(w.status, 0) << w.out;
	EXPECT_EQ(slurp(f), j.out);
	EXPECT_NE(w.out.find("read: 14916 lines"), std::string::npos) << w.out;
	std::remove(f.c_str());

	// a filter: one task, named in both forms
	CliRun p = hwsched("trace-info " + hb + " --pid 5149 --json -");
	ASSERT_EQ(p.status, 0) << p.out;
	EXPECT_NE(p.out.find("\"tasks_kept\": {\"pid\": 5149},\n"), std::string::npos) << p.out;
	EXPECT_NE(p.out.find("\"tasks\": 1,\n"), std::string::npos) << p.out;
	EXPECT_NE(p.out.find("\"switches_voluntary\": 3005,\n"), std::string::npos)
		<< "system-wide, whatever the filter: " << p.out;
	CliRun pt = hwsched("trace-info " + hb + " --comm hackbench --tree-of 5149");
	ASSERT_EQ(pt.status, 0) << pt.out;
	EXPECT_NE(pt.out.find("tasks kept: 161, comm hackbench, tree of 5149;"), std::string::npos)
		<< pt.out;

	// bad input as replay has it: a missing trace, two traces, another command's option
	CliRun m = hwsched("trace-info /nonexistent.txt");
	EXPECT_EQ(m.status, 2);
	EXPECT_NE(m.out.find("hwsched trace-info: /nonexistent.txt: cannot open"), std::string::npos)
		<< m.out;
	CliRun two = hwsched("trace-info " + hb + " " + hb);
	EXPECT_EQ(two.status, 2);
	EXPECT_NE(two.out.find("expected one TRACE file"), std::string::npos) << two.out;
	CliRun o = hwsched("trace-info " + hb + " --sched eevdf");
	EXPECT_EQ(o.status, 2);
	EXPECT_NE(o.out.find("hwsched trace-info: --sched is an option of 'run', 'vp' and "
			     "'replay'"), std::string::npos) << o.out;
}

// replay's report and JSON show what the reader absorbed and met, never silently.
TEST(Cli, ReplayShowsTheReadersCounts)
{
	std::string dir = trace_dir();
	HWS_NEED_TRACES(dir);
	std::string f = testing::TempDir() + "hws_replay_reader.json";
	CliRun r = hwsched("replay " + dir + "/hackbench_g4.txt.gz --sched o1 --json " + f);
	ASSERT_EQ(r.status, 0) << r.out;
	EXPECT_NE(r.out.find("14916 lines (0 skipped; 1 anomalies, 0 absorbed)"), std::string::npos)
		<< r.out;
	EXPECT_NE(slurp(f).find("\"reader\": {\"lines\": 14916, \"skipped\": 0, \"warnings\": 0, "
				"\"anomalies\": 1, \"absorbed\": 0, \"absorbed_max_us\": 0.000}"),
		  std::string::npos) << slurp(f);
	std::remove(f.c_str());
}

// Tasks a workload creates without a fork have no parent: none returns a first slice to
// another at its exit (the O(1) rule for a forked child; docs/firmware.md).
TEST(Cli, WorkloadTasksHaveNoParent)
{
	// hackbench runs until its tasks exit (no --duration); before the fix 3 of its 160
	// tasks returned their slice to task 0
	for (const char *wl : { "hackbench:groups=4", "hackbench:groups=2,loops=40" }) {
		CliRun r = hwsched(std::string("run --sched o1 --workload ") + wl);
		ASSERT_EQ(r.status, 0) << r.out;
		EXPECT_NE(r.out.find(" 0 first slices returned at exit"), std::string::npos)
			<< wl << "\n" << r.out;
	}
}

// --svg-window (docs/trace.md, "Side by side"): run and replay take it; a window that is
// malformed, empty, beyond the run or without --svg is refused naming the option, exit 2,
// and no picture is written. The replay's lanes say which side is which.
TEST(Cli, SvgWindowIsCheckedAndTheReplaysLanesAreNamed)
{
	const std::string out = "build/cli_window.svg";
	const std::string run = "run --workload mix:tasks=4 --topology core=2 --sched o1 "
				"--duration 20ms ";
	struct {
		std::string args, says;
	} bad[] = {
		{ run + "--svg-window 1ms:2ms", "--svg-window chooses what --svg draws" },
		{ run + "--svg " + out + " --svg-window 2ms:1ms", "--svg-window '2ms:1ms': END" },
		{ run + "--svg " + out + " --svg-window 5ms", "--svg-window '5ms': expected START:END" },
		{ run + "--svg " + out + " --svg-window 1ms:2xs", "--svg-window '1ms:2xs': END '2xs'" },
		{ run + "--svg " + out + " --svg-window 10ms:30ms", "10ms:30ms: ends after the run's --duration (20 ms)" },
	};
	for (auto &b : bad) {
		remove(out.c_str());
		CliRun r = hwsched(b.args);
		EXPECT_EQ(r.status, 2) << b.args << "\n" << r.out;
		EXPECT_EQ(r.out.find("hwsched run: --svg-window"), 0u) << b.args << "\n" << r.out;
		EXPECT_NE(r.out.find(b.says), std::string::npos) << b.args << "\n" << r.out;
		EXPECT_NE(access(out.c_str(), F_OK), 0) << b.args;
	}
	CliRun r = hwsched(run + "--svg " + out + " --svg-window 5ms:15ms");
	ASSERT_EQ(r.status, 0) << r.out;
	EXPECT_NE(slurp(out).find("drawn: 5 to 15 ms"), std::string::npos);

	std::string dir = trace_dir();
	HWS_NEED_TRACES(dir);
	const std::string replay = "replay " + dir + "/make_j4.txt.gz --sched eevdf --svg " + out;
	remove(out.c_str());
	r = hwsched(replay + " --svg-window 0:10s");
	EXPECT_EQ(r.status, 2) << r.out;
	EXPECT_NE(r.out.find("hwsched replay: --svg-window"), std::string::npos) << r.out;
	EXPECT_NE(r.out.find("ends after the replay and the trace"), std::string::npos) << r.out;
	EXPECT_NE(access(out.c_str(), F_OK), 0);
	r = hwsched(replay + " --svg-window 100ms:150ms");
	ASSERT_EQ(r.status, 0) << r.out;
	std::string svg = slurp(out);
	for (const char *k : { ">Linux (the trace)<", ">replay (eevdf)<", ">Linux CPU 0<", ">CPU 1<",
			       ">Legend:<", "background: the trace", ">100<", ">150<", ">time (ms); 0: the" })
		EXPECT_NE(svg.find(k), std::string::npos) << k;
	EXPECT_LT(svg.find(">Linux (the trace)<"), svg.find(">replay (eevdf)<"));
	// a task has one colour on both sides: every single burst's tooltip "task K ..." has
	// the same fill for the same K, on Linux's lanes and the replay's
	std::map<std::string, std::string> fill_of;
	size_t seen = 0;
	for (size_t i = svg.find("<rect "); i != std::string::npos; i = svg.find("<rect ", i + 1)) {
		size_t t = svg.find("><title>task ", i), e = svg.find('>', i);
		if (t != e)
			continue;
		size_t f = svg.find(" fill=\"", i) + 7;
		std::string task = svg.substr(t + 8, svg.find(',', t) - t - 8);
		std::string fill = svg.substr(f, svg.find('"', f) - f);
		auto it = fill_of.emplace(task, fill).first;
		EXPECT_EQ(it->second, fill) << task;
		seen++;
	}
	EXPECT_GT(fill_of.size(), 3u);
	EXPECT_GT(seen, fill_of.size()) << "tasks seen more than once";
}

// The sidecar line says what the sidecar holds, apart from what the replay runs with: a
// value the sidecar does not have is "not recorded", never the default shown as if read.
TEST(Cli, ReplaySaysWhatTheSidecarHoldsAndWhatItRuns)
{
	const std::string dir = hwstest::trace_dir();
	CliRun r = hwsched("replay " + dir + "/make_j4.txt.gz --sched eevdf");
	ASSERT_EQ(r.status, 0) << r.out;
	EXPECT_NE(r.out.find("make_j4.json: HZ not recorded, kernel not recorded (replayed at HZ "
			     "1000)"), std::string::npos) << r.out.substr(0, 600);
	r = hwsched("replay " + dir + "/pipe_pairs.txt.gz --sched eevdf --kernel 6.6 --hz 1000");
	ASSERT_EQ(r.status, 0) << r.out;
	EXPECT_NE(r.out.find("pipe_pairs.json: HZ 250, kernel 6.18 (replayed at HZ 1000, eevdf as "
			     "Linux 6.6)"), std::string::npos) << r.out.substr(0, 600);
	r = hwsched("replay " + dir + "/pipe_pairs.txt.gz --sched eevdf");
	EXPECT_NE(r.out.find("(replayed at HZ 250, eevdf as Linux 6.18)"), std::string::npos)
		<< r.out.substr(0, 600);
}
