// cli_test.cc - the hwsched executable as a user runs it.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <sys/wait.h>

namespace {

struct CliRun {
	int status;
	std::string out;
};

// CliRun hwsched with @args; stdout and stderr together.
CliRun hwsched(const std::string &args)
{
	std::string cmd = std::string(HWSCHED_BIN) + " " + args + " 2>&1";
	CliRun r{ -1, "" };
	FILE *p = popen(cmd.c_str(), "r");
	if (!p)
		return r;
	char buf[4096];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), p)) > 0)
		r.out.append(buf, n);
	int st = pclose(p);
	r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	return r;
}

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
	for (const char *a : { "--help", "help", "lockstep --help", "help lockstep" }) {
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
		{ "lockstep --cpus 65", "--cpus must be a number in 1..64" },
		{ "lockstep --tasks x", "--tasks must be a number" },
		{ "lockstep --backend fpga", "--backend must be model, rtl or lockstep" },
		{ "lockstep --commands -5", "--commands must be a count" },
		{ "lockstep extra", "unexpected argument 'extra'" },
		{ "frobnicate", "unknown command 'frobnicate'" },
		{ "lockstep --cpus 3 --backend rtl", "no Verilated engine with 3 CPUs" },
	};
	for (const auto &c : cases) {
		CliRun r = hwsched(c.args);
		EXPECT_NE(r.status, 0) << c.args;
		EXPECT_NE(r.out.find(c.want), std::string::npos) << c.args << ": " << r.out;
	}
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
