// honest_options_test.cc - options that would do nothing, or do something else than was
// said, are refused with a message naming what and why (the rules --help states: exit 2
// for bad usage or input, nothing run). Each class below is one a user met: an output
// given twice, a write error on standard output, an option the chosen scheduler, backend
// or mode ignores, an abbreviated option, a backend argument nobody reads, a workload key
// the workload ignores or a fraction finer than its resolution, a --cost key given twice
// across options, numbers with many leading zeros, help --help, a trace filter that keeps
// nothing, and a path too long to open.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include <sys/stat.h>
#include <unistd.h>

#include "tests/test_util.h"

namespace {

using hwstest::CliRun;
using hwstest::hwsched;
using hwstest::shell;
using hwstest::trace_dir;

using hwstest::TempDir;

bool exists(const std::string &p)
{
	struct stat st;
	return lstat(p.c_str(), &st) == 0;
}

struct Row {
	std::string args;
	int status;
	std::string says;
};

void expect_rows(const Row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		CliRun c = hwsched(rows[i].args);
		EXPECT_EQ(c.status, rows[i].status) << "hwsched " << rows[i].args << "\n" << c.out;
		EXPECT_NE(c.out.find(rows[i].says), std::string::npos)
			<< "hwsched " << rows[i].args << "\nwanted: " << rows[i].says
			<< "\ngot: " << c.out;
	}
}

TEST(HonestOptions, TheSameFileForTwoOutputsIsRefused)
{
	TempDir d;
	CliRun c = hwsched("run --duration 5ms --json " + d / "a" + " --svg " + d / "a");
	EXPECT_EQ(c.status, 2) << c.out;
	EXPECT_NE(c.out.find("--json and --svg name the same file"), std::string::npos) << c.out;
	EXPECT_FALSE(exists(d / "a")) << "nothing is written when refused";

	// the same existing file under two names (a symbolic link): refused, left as it was
	ASSERT_EQ(shell("echo keep > " + d / "f" + " && ln -s f " + d / "l").status, 0);
	c = hwsched("run --duration 5ms --json " + d / "f" + " --perf-out " + d / "l");
	EXPECT_EQ(c.status, 2) << c.out;
	EXPECT_NE(c.out.find("--json and --perf-out name the same file"), std::string::npos)
		<< c.out;
	EXPECT_EQ(hwstest::slurp(d / "f"), "keep\n");

	// /dev/null may take several: it is written into, never replaced
	c = hwsched("run --duration 5ms --json /dev/null --svg /dev/null");
	EXPECT_EQ(c.status, 0) << c.out;
}

TEST(HonestOptions, PerfOutThatIsTheInputTraceIsRefused)
{
	TempDir d;
	std::string t = d / "t.txt.gz";
	ASSERT_EQ(shell("cp " + trace_dir() + "/make_j4.txt.gz " + t).status, 0);
	std::string before = hwstest::slurp(t);
	CliRun c = hwsched("replay " + t + " --perf-out " + t);
	EXPECT_EQ(c.status, 2) << c.out;
	EXPECT_NE(c.out.find("--perf-out"), std::string::npos) << c.out;
	EXPECT_NE(c.out.find("is the input trace"), std::string::npos) << c.out;
	EXPECT_EQ(hwstest::slurp(t), before) << "the trace was changed";
}

TEST(HonestOptions, AWriteErrorOnStandardOutputFails)
{
	std::string h = HWSCHED_BIN;
	CliRun c = shell("sh -c '" + h + " lockstep --commands 50 --quiet >/dev/full'");
	EXPECT_EQ(c.status, 1) << c.out;
	EXPECT_NE(c.out.find("hwsched: writing standard output: "),
		  std::string::npos) << c.out;

	c = shell("sh -c '" + h + " run --duration 5ms >&-'");
	EXPECT_EQ(c.status, 1) << c.out;
	EXPECT_NE(c.out.find("standard output is closed"), std::string::npos) << c.out;

	// bad usage keeps its own status when the report could not be printed either
	c = shell("sh -c '" + h + " lockstep --cpus 0 >/dev/full'");
	EXPECT_EQ(c.status, 2) << c.out;

	c = shell("sh -c '" + h + " lockstep --commands 50 --quiet >/dev/null'");
	EXPECT_EQ(c.status, 0) << c.out;
}

TEST(HonestOptions, AnOptionTheModeIgnoresIsRefusedNamingBoth)
{
	const Row rows[] = {
		{ "run --sched hw --tick-shares --duration 5ms", 2,
		  "--tick-shares is an option of --sched cfs or eevdf (task groups' shares) (got 'hw'" },
		{ "run --sched linux24 --flat --duration 5ms", 2,
		  "--flat is an option of --sched hw, o1, cfs or eevdf (sched domains) (got 'linux24'" },
		{ "run --sched linux24 --no-wake-balance --duration 5ms", 2,
		  "--no-wake-balance is an option of --sched hw, o1, cfs or eevdf" },
		{ "run --sched o1 --backend rtl --duration 5ms", 2,
		  "--backend is an option of --sched hw (got 'o1', which would ignore it)" },
		{ "run --sched o1 --sync-cmds --duration 5ms", 2,
		  "--sync-cmds is an option of --sched hw (got 'o1'" },
		{ "run --sched cfs --no-hw-balance --duration 5ms", 2,
		  "--no-hw-balance is an option of --sched hw (got 'cfs'" },
		{ "replay " + trace_dir() + "/make_j4.txt.gz --sched eevdf --backend rtl", 2,
		  "--backend is an option of --sched hw (got 'eevdf'" },
		{ "vp --sched o1 --bus-latency 100 --duration 5ms", 2,
		  "--bus-latency is an option of --sched hw (the engine on the bus) (got 'o1'" },
		{ "vp --posted-writes off --write-accept 5 --duration 5ms", 2,
		  "--write-accept is what a posted write costs: with --posted-writes off" },
		{ "lockstep --backend model --deep-check 5 --commands 10", 2,
		  "--deep-check walks the RTL's lists: --backend model has no RTL" },
		// where they do something they are taken
		{ "run --sched cfs --tick-shares --flat --duration 5ms", 0, "scheduler cfs" },
		{ "run --sched o1 --flat --no-wake-balance --duration 5ms", 0, "scheduler o1" },
		{ "lockstep --backend rtl --deep-check 5 --commands 10 --quiet", 0,
		  "lockstep: 10 commands, 0 mismatches" },
	};
	expect_rows(rows, sizeof(rows) / sizeof(rows[0]));
}

TEST(HonestOptions, LongOptionsAreTakenAsWritten)
{
	const Row rows[] = {
		{ "lockstep --c 5", 2, "--c: options are taken as written, not abbreviated" },
		{ "lockstep --comm 5", 2, "--comm is an option of 'replay' and 'trace-info'" },
		{ "lockstep --command 5", 2, "(it starts --commands)" },
		{ "run --dur 5ms", 2, "--dur: options are taken as written" },
		{ "lockstep --commandz 5", 2, "--commandz: no such option" },
		{ "lockstep --commands=5 --quiet", 0, "lockstep: 5 commands" },
		{ "lockstep --commands 5 --quiet", 0, "lockstep: 5 commands" },
	};
	expect_rows(rows, sizeof(rows) / sizeof(rows[0]));
}

TEST(HonestOptions, ABackendArgumentNobodyReadsIsRefused)
{
	const Row rows[] = {
		{ "run --backend rtl:foo --duration 5ms", 2,
		  "--backend: backend 'rtl' takes no argument (got 'rtl:foo')" },
		{ "lockstep --backend rtl:x --commands 5", 2,
		  "backend 'rtl' takes no argument (got 'rtl:x')" },
		{ "lockstep --backend model:x --commands 5", 2,
		  "the model backend takes no argument but \"pipe\" (got \"x\")" },
		{ "lockstep --backend uart: --commands 5", 2, "backend 'uart': nothing after ':'" },
		{ "lockstep --backend lockstep:model --commands 20 --quiet", 0,
		  "lockstep: 20 commands, 0 mismatches" },
	};
	expect_rows(rows, sizeof(rows) / sizeof(rows[0]));
}

TEST(HonestOptions, AWorkloadKeyTheWorkloadIgnoresIsRefused)
{
	const Row rows[] = {
		{ "run --workload mix:g0=1 --duration 5ms", 2,
		  "workload mix: g0=1 puts tasks in group 0 beside the others: it needs groups=2" },
		{ "run --workload mix:groups=2,g0=1 --duration 5ms", 0, "workload mix:groups=2,g0=1" },
		{ "run --workload sysbench:cpu=1,backends=4 --duration 5ms", 2,
		  "backends=4 with cpu=1, which runs no backends" },
		{ "run --workload sysbench:threads=4,backends=4 --duration 5ms", 0, "workload sysbench" },
		{ "run --workload mix:msg=0.0009 --duration 5ms", 2,
		  "msg=0.0009 is finer than the key's resolution, 1/1000" },
		{ "run --workload mix:msg=0.001 --duration 5ms", 0, "workload mix:msg=0.001" },
		{ "run --workload mix:tasks=1,msg=0.5 --duration 5ms", 2,
		  "msg=0.5 sends to another task: with tasks=1 there is none" },
		{ "run --workload mix:tasks=1 --duration 5ms", 0, "workload mix:tasks=1" },
		{ "run --cost ctx_switch_ns=5 --cost ctx_switch_ns=6 --duration 5ms", 2,
		  "--cost: key 'ctx_switch_ns' given twice (in two --cost options)" },
		{ "run --cost ctx_switch_ns=5 --cost sw_op_ns=6 --duration 5ms", 0, "simulated" },
	};
	expect_rows(rows, sizeof(rows) / sizeof(rows[0]));
}

// A number is taken by its value: sixty leading zeros change nothing, in any parser.
TEST(HonestOptions, LeadingZerosAreTakenByValue)
{
	const std::string z(60, '0');
	const std::string plain = "run --sched cfs --duration 20ms --workload "
				  "mix:msg=0.25,burst=100 --cost smt_speed=0.5,ctx_switch_ns=1500 "
				  "--seed 7";
	const std::string zeros = "run --sched cfs --duration " + z + "20ms --workload mix:msg=" +
				  z + "0.25,burst=" + z + "100 --cost smt_speed=" + z +
				  "0.5,ctx_switch_ns=" + z + "1500.0 --seed " + z + "7";
	CliRun a = hwsched(plain), b = hwsched(zeros);
	ASSERT_EQ(a.status, 0) << a.out;
	ASSERT_EQ(b.status, 0) << b.out;
	// everything after the "run:" line (which echoes the arguments) is the same
	auto tail = [](const std::string &s) { return s.substr(s.find("simulated:")); };
	EXPECT_EQ(tail(a.out), tail(b.out));
	CliRun c = hwsched("vp --duration 5ms --bus-latency " + z + "100.5");
	EXPECT_EQ(c.status, 0) << c.out;
}

TEST(HonestOptions, HelpHelpPrintsTheUsage)
{
	CliRun c = hwsched("help --help");
	EXPECT_EQ(c.status, 0) << c.out;
	EXPECT_NE(c.out.find("usage: hwsched COMMAND"), std::string::npos) << c.out;
	c = hwsched("help run");
	EXPECT_EQ(c.status, 0) << c.out;
	EXPECT_NE(c.out.find("usage: hwsched run"), std::string::npos) << c.out;
	c = hwsched("help run extra");
	EXPECT_EQ(c.status, 2) << c.out;
	EXPECT_NE(c.out.find("help takes one command at most"), std::string::npos) << c.out;
}

TEST(HonestOptions, AFilterThatKeepsNothingIsNamed)
{
	const std::string t = trace_dir() + "/make_j4.txt.gz";
	const Row rows[] = {
		{ "replay " + t + " --comm no-such-comm", 2,
		  "--comm no-such-comm keeps none of its tasks: nothing to replay" },
		{ "replay " + t + " --pid 4", 2, "--pid 4 keeps none of its tasks" },
		{ "trace-info " + t + " --tree-of 3", 2,
		  "--tree-of 3 keeps none of its tasks: nothing to report" },
		{ "trace-info " + t + " --comm cc1", 0, "tasks kept:" },
	};
	expect_rows(rows, sizeof(rows) / sizeof(rows[0]));
}

TEST(HonestOptions, APathTooLongSaysSo)
{
	std::string p = "/tmp/" + std::string(5000, 'a');
	CliRun c = hwsched("run --duration 5ms --json " + p);
	EXPECT_EQ(c.status, 2) << c.out.substr(0, 400);
	EXPECT_NE(c.out.find("(a path of 5005 characters): File name too long"), std::string::npos)
		<< c.out.substr(0, 400);
	EXPECT_LT(c.out.size(), 400u) << "the message shows the path shortened";
}

}  // namespace
