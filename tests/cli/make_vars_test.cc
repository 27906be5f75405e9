// make_vars_test.cc - the variables a user gives make are checked before any rule runs
// (tools/make_vars.mk): a value of the wrong kind stops make with a message naming the
// variable, and no value reaches a shell unless it is made of safe characters.
#include <gtest/gtest.h>

#include <string>

#include "tests/test_util.h"

namespace {

using hwstest::CliRun;
using hwstest::shell;

// make -n GOAL VAR=VALUE in the repository (the tests run at its root): only the checks
// and the printed commands, nothing is built.
CliRun make_n(const std::string &goal, const std::string &assign)
{
	return shell("make -s -n " + goal + " " + assign);
}

TEST(MakeVars, AValueOfTheWrongKindStopsMake)
{
	const struct {
		std::string goal, assign, says;
	} bad[] = {
		{ "replay-check", "STRICT=yes", "STRICT='yes': expected 0 or 1" },
		{ "replay-check", "REPLAY_SCHED=bfs", "REPLAY_SCHED='bfs': expected one of hw o1" },
		{ "run", "'RUN_SEED=1;touch /tmp/hws_pwned'", "RUN_SEED='1;touch /tmp/hws_pwned': "
								 "expected a whole number" },
		{ "run", "'RUN_WORKLOAD=mix;id'", "RUN_WORKLOAD='mix;id': only letters, digits" },
		{ "run", "'RUN_TOPOLOGY=core=2 core=4'", "RUN_TOPOLOGY='core=2 core=4': only" },
		{ "results", "SEEDS=3x", "SEEDS='3x': expected a whole number" },
		{ "results", "LONG=true", "LONG='true': expected 0 or 1" },
		{ "vp-study", "PROFILE=", "PROFILE='': expected one of" },
		{ "vp-study", "PROFILE=p4", "PROFILE='p4': expected one of" },
		{ "board-run", "BOARD_FAST_BAUD=fast", "BOARD_FAST_BAUD='fast': expected a whole number" },
		{ "board-run", "BOARD_FAST_BAUD=2000000", "BOARD_FAST_BAUD='2000000': expected 1..1200000" },
		{ "board-run", "BOARD_FAST_BAUD=0", "BOARD_FAST_BAUD='0': expected 1..1200000" },
		{ "fuzz", "'FUZZ_TARGETS=trace nope'", "FUZZ_TARGETS='trace nope': expected some of" },
		{ "traces-record", "'TRACES_OUT=a`b`'", "TRACES_OUT='a`b`': only letters" },
	};
	for (const auto &b : bad) {
		CliRun r = make_n(b.goal, b.assign);
		EXPECT_NE(r.status, 0) << "make " << b.goal << " " << b.assign << "\n" << r.out;
		EXPECT_NE(r.out.find(b.says), std::string::npos)
			<< "make " << b.goal << " " << b.assign << "\nwanted: " << b.says
			<< "\ngot: " << r.out;
	}
}

TEST(MakeVars, GoodValuesReachTheCommandQuoted)
{
	CliRun r = make_n("run", "RUN_SEED=42 RUN_WORKLOAD=mix:tasks=4");
	ASSERT_EQ(r.status, 0) << r.out;
	EXPECT_NE(r.out.find("--workload 'mix:tasks=4'"), std::string::npos) << r.out;
	EXPECT_NE(r.out.find("--seed '42'"), std::string::npos) << r.out;
	r = make_n("replay-check", "STRICT=1 REPLAY_SCHED=cfs");
	ASSERT_EQ(r.status, 0) << r.out;
	EXPECT_NE(r.out.find("SCHED='cfs' STRICT='1' "), std::string::npos) << r.out;
	EXPECT_NE(r.out.find("tools/replay_check.sh"), std::string::npos) << r.out;
	// 0 means off: FORCE=0 does not force, UPDATE_DOC=0 does not update
	r = make_n("replay-check", "UPDATE_DOC=0");
	ASSERT_EQ(r.status, 0) << r.out;
	EXPECT_EQ(r.out.find("--update-doc"), std::string::npos) << r.out;
	r = make_n("replay-check", "UPDATE_DOC=1");
	EXPECT_NE(r.out.find("--update-doc"), std::string::npos) << r.out;
}

// A script that exports its unset PROFILE (results/co_design.sh, for GNU parallel) runs the
// engine-shape build with PROFILE='' in the environment: that is no value, not a bad one.
// On the command line an empty PROFILE is still an error (above).
TEST(MakeVars, AnEmptyOneOfValueInTheEnvironmentIsNoValue)
{
	CliRun r = shell("PROFILE= make -s -n shape SHAPE=8x256x16g16");
	EXPECT_EQ(r.status, 0) << r.out;
	EXPECT_EQ(r.out.find("PROFILE="), std::string::npos) << r.out;
	r = shell("PROFILE=bad make -s -n shape SHAPE=8x256x16g16");
	EXPECT_NE(r.status, 0) << r.out;
	EXPECT_NE(r.out.find("PROFILE='bad': expected one of"), std::string::npos) << r.out;
}

}  // namespace
