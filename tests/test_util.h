// test_util.h - shared helpers of the GoogleTest suites.
#ifndef HWS_TEST_UTIL_H
#define HWS_TEST_UTIL_H

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

#include "hws/hws.h"

namespace hwstest {

// Open a device or fail the test with the driver's message.
// @deep_check: the RTL walks all its lists every this many cycles (0: never). Each walk
// costs about NR_CPUS * 280 + NR_TASKS steps: every cycle is fine for directed tests of
// the default engine, long random runs use a sparser cadence.
// @b: a backend name ("model", "rtl", "lockstep"); with @tp, the caller's transport (the
// VP's tests), only a name. @bal_lanes: hws_config.bal_lanes (0: a lane per CPU).
inline hws_dev *open_dev(const char *b, unsigned cpus = 8, unsigned tasks = 256,
			 unsigned depth = 16, unsigned deep_check = 1,
			 const hws_transport *tp = nullptr, bool no_balance = false,
			 bool no_err_counters = false, bool no_irq = false,
			 unsigned bal_lanes = 0, bool pipe = false)
{
	hws_config c;
	hws_dev *d = nullptr;
	char msg[512];

	hws_config_default(&c);
	c.backend = b;
	c.nr_cpus = cpus;
	c.nr_tasks = tasks;
	c.cmd_depth = depth;
	c.res_depth = depth;
	c.deep_check = std::string(b) == "model" ? 0 : deep_check;
	c.transport = tp;
	c.no_balance = no_balance;
	c.no_err_counters = no_err_counters;
	c.no_irq = no_irq;
	c.bal_lanes = bal_lanes;
	c.pipe = pipe;
	int ret = hws_open(&d, &c, msg, sizeof(msg));
	EXPECT_EQ(ret, 0) << msg;
	return ret ? nullptr : d;
}

struct DevCloser {
	void operator()(hws_dev *d) const { hws_close(d); }
};

// Every observable per-CPU value and every task's state: a snapshot of the engine.
inline std::vector<uint32_t> snapshot(hws_dev *d)
{
	const hws_config *c = hws_config_of(d);
	std::vector<uint32_t> v;
	uint32_t x;

	for (unsigned cpu = 0; cpu < c->nr_cpus; cpu++)
		for (unsigned sel = 0; sel < HWS_SEL_CPU_STAT_COUNT; sel++) {
			EXPECT_EQ(hws_cpu_stat(d, cpu, sel, &x), 0) << hws_errmsg(d);
			v.push_back(x);
		}
	for (unsigned t = 0; t < c->nr_tasks; t++)
		for (unsigned sel = 0; sel < HWS_SEL_TASK_STAT_COUNT; sel++) {
			EXPECT_EQ(hws_task_stat(d, t, sel, &x), 0) << hws_errmsg(d);
			v.push_back(x);
		}
	return v;
}

inline uint32_t reg(hws_dev *d, uint32_t off)
{
	uint32_t v = 0;

	EXPECT_EQ(hws_reg_read(d, off, &v), 0) << hws_errmsg(d);
	return v;
}

#ifdef HWSCHED_BIN
// The hwsched executable run as a user runs it: exit status and stdout + stderr.
struct CliRun {
	int status;
	std::string out;
};

// Runs a shell command line: its output (stdout and stderr) and exit status.
inline CliRun shell(const std::string &cmd)
{
	CliRun r{ -1, "" };
	FILE *p = popen((cmd + " 2>&1").c_str(), "r");
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

inline CliRun hwsched(const std::string &args)
{
	return shell(std::string(HWSCHED_BIN) + " " + args);
}
#endif

// A whole file as a string ("" when it cannot be read).
inline std::string slurp(const std::string &path)
{
	std::string s;
	FILE *f = fopen(path.c_str(), "r");
	if (!f)
		return s;
	char buf[4096];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		s.append(buf, n);
	fclose(f);
	return s;
}

// The repository's root: this test binary is build/tests/NAME in it.
inline std::string repo_root()
{
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return ".";
	std::string p(exe, (size_t)n);
	for (int up = 0; up < 3; up++)
		p = p.substr(0, p.find_last_of('/'));
	return p.empty() ? "/" : p;
}

// Where the real traces are: $HWS_TRACE_DIR, else shared/traces beside the repository
// (../shared/traces from its root: the workplace's layout, and CI's fresh clone has a copy
// of shared/ beside it). "" when neither holds them.
inline std::string trace_dir()
{
	const char *env = getenv("HWS_TRACE_DIR");
	std::string d = env && *env ? std::string(env) : repo_root() + "/../shared/traces";
	return access((d + "/make_j4.txt.gz").c_str(), R_OK) ? std::string() : d;
}

// In make test the traces are always there: a test that needs them fails without them.
// HWS_TRACES_OPTIONAL=1 (a checkout without shared/) turns that into a skip, reported
// as a skip by tests/run_all.sh.
#define HWS_NEED_TRACES(dir)                                                               \
	do {                                                                               \
		if ((dir).empty()) {                                                       \
			const char *o_ = getenv("HWS_TRACES_OPTIONAL");                   \
			if (o_ && !strcmp(o_, "1"))                                        \
				GTEST_SKIP() << "no traces (HWS_TRACES_OPTIONAL=1)";       \
			FAIL() << "the traces are not in $HWS_TRACE_DIR nor in "           \
			       << hwstest::repo_root() << "/../shared/traces";             \
		}                                                                          \
	} while (0)

// A seed from HWS_SEED in the environment, else @def.
inline uint64_t seed_from_env(uint64_t def)
{
	const char *s = getenv("HWS_SEED");

	return s ? strtoull(s, nullptr, 0) : def;
}

} // namespace hwstest

#endif // HWS_TEST_UTIL_H
