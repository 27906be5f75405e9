// json_keys_test.cc - the version, the JSON outputs and their one table (docs/json.md),
// --json -, the progress line and Ctrl-C, as a user meets them.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <pty.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "lib/hws_version.h"
#include "tests/test_util.h"

namespace {

using hwstest::CliRun;
using hwstest::hwsched;
using hwstest::slurp;

using hwstest::TempDir;

// hwsched @args with stdout and stderr apart: status, stdout, stderr.
struct Split {
	int status;
	std::string out, err;
};

// hwsched @args, run in directory @dir: status, stdout, stderr.
Split split_run(const std::string &args, const std::string &dir)
{
	Split s{ -1, "", "" };
	std::string err = dir + "/stderr.txt";
	FILE *p = popen(("cd '" + dir + "' && " + std::string(HWSCHED_BIN) + " " + args + " 2>'" +
			 err + "'").c_str(), "r");
	if (!p)
		return s;
	char buf[4096];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), p)) > 0)
		s.out.append(buf, n);
	int st = pclose(p);
	s.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	s.err = slurp(err);
	return s;
}

std::string last_line(const std::string &s)
{
	std::string t = s;
	while (!t.empty() && t.back() == '\n')
		t.pop_back();
	size_t nl = t.rfind('\n');
	return nl == std::string::npos ? t : t.substr(nl + 1);
}

// docs/json.md's table: (key pattern, the commands of its row).
struct Row {
	std::vector<std::string> keys;
	std::set<std::string> cmds;	// "all": every command
};

std::vector<std::string> split(const std::string &s, char sep)
{
	std::vector<std::string> v;
	std::stringstream ss(s);
	std::string x;
	while (std::getline(ss, x, sep))
		v.push_back(x);
	return v;
}

std::string trim(const std::string &s)
{
	size_t b = s.find_first_not_of(' '), e = s.find_last_not_of(' ');
	return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::vector<Row> json_table()
{
	std::vector<Row> rows;
	std::stringstream doc(slurp(hwstest::repo_root() + "/docs/json.md"));
	std::string line;
	while (std::getline(doc, line)) {
		if (line.compare(0, 3, "| `") != 0)
			continue;
		std::vector<std::string> col = split(line, '|');
		if (col.size() < 6)
			continue;
		Row r;
		std::regex tick("`([^`]+)`");
		for (std::sregex_iterator it(col[1].begin(), col[1].end(), tick), end; it != end; ++it)
			r.keys.push_back((*it)[1]);
		for (const std::string &c : split(col[4], ','))
			r.cmds.insert(trim(c));
		rows.push_back(r);
	}
	return rows;
}

// A leaf's path ("a.b.0") against a table key ("a.*.0"): segment by segment, * any one.
bool matches(const std::string &path, const std::string &key)
{
	std::vector<std::string> p = split(path, '.'), k = split(key, '.');
	if (p.size() != k.size())
		return false;
	for (size_t i = 0; i < p.size(); i++)
		if (k[i] != "*" && k[i] != p[i])
			return false;
	return true;
}

bool documented(const std::vector<Row> &rows, const std::string &cmd, const std::string &path)
{
	for (const Row &r : rows) {
		if (!r.cmds.count(cmd) && !r.cmds.count("all"))
			continue;
		for (const std::string &k : r.keys)
			if (matches(path, k))
				return true;
	}
	return false;
}

// Every key of @json (the output of @cmd) is in the table for @cmd; version and schema
// are the build's.
void check_keys(const std::vector<Row> &rows, const std::string &cmd, const std::string &json)
{
	SCOPED_TRACE(cmd);
	ASSERT_FALSE(json.empty());
	hwstest::Json j(json);
	ASSERT_TRUE(j.ok) << "not JSON: " << json.substr(0, 400);
	EXPECT_GT(j.leaves.size(), 3u);
	for (const auto &kv : j.leaves)
		EXPECT_TRUE(documented(rows, cmd, kv.first))
			<< cmd << " writes '" << kv.first << "', which docs/json.md's table lacks";
	EXPECT_EQ(j.leaves["version"], hws_version())
		<< "built from another tree than this test: a stale executable? (make test builds "
		   "them all; else make build/hwsched_vp build/hws_bench)";
	EXPECT_EQ(j.leaves["schema"], std::to_string(HWS_JSON_SCHEMA));
}

TEST(JsonKeys, TheTableIsReadAndCanFail)
{
	std::vector<Row> rows = json_table();
	ASSERT_GT(rows.size(), 100u) << "docs/json.md's table";
	EXPECT_TRUE(documented(rows, "run", "wakeup_latency_us.p50"));
	EXPECT_TRUE(documented(rows, "run", "busy_pct.3"));
	EXPECT_TRUE(documented(rows, "lockstep", "version"));
	EXPECT_TRUE(documented(rows, "replay", "replay.wake_path.waited.n"));
	EXPECT_FALSE(documented(rows, "run", "no_such_key"));
	EXPECT_FALSE(documented(rows, "lockstep", "sim_s")) << "a key of another command";
	EXPECT_FALSE(documented(rows, "run", "wakeup_latency_us.p50.x")) << "deeper than any row";
}

// Each command with --json: every key it writes is in docs/json.md's table.
TEST(JsonKeys, EveryKeyWrittenIsInTheTable)
{
	std::string traces = hwstest::trace_dir();
	HWS_NEED_TRACES(traces);
	std::vector<Row> rows = json_table();
	ASSERT_GT(rows.size(), 100u);
	TempDir d;

	CliRun r = hwsched("run --workload mix:tasks=6,groups=2 --topology pkg=2,core=2,"
			   "profile=p3xeon4 --sched hw --duration 30ms --seed 4 --json " + d / "run.json");
	ASSERT_EQ(r.status, 0) << r.out;
	check_keys(rows, "run", slurp(d / "run.json"));
	EXPECT_EQ(hwstest::Json(slurp(d / "run.json")).leaves["seed"], "4");
	EXPECT_EQ(hwstest::Json(slurp(d / "run.json")).leaves["backend"], "model");

	CliRun v = hwsched("vp --topology core=2 --duration 10ms --json " + d / "vp.json" +
			   " --vp-json " + d / "vpx.json");
	ASSERT_EQ(v.status, 0) << v.out;
	check_keys(rows, "vp", slurp(d / "vp.json"));
	check_keys(rows, "vp-json", slurp(d / "vpx.json"));

	CliRun p = hwsched("replay " + traces + "/nice_hogs.txt.gz --json " + d / "replay.json");
	ASSERT_EQ(p.status, 0) << p.out;
	check_keys(rows, "replay", slurp(d / "replay.json"));

	// hackbench_g4 has an anomaly (the anomaly map is not empty); --pid: tasks_kept's object
	for (const char *filter : { "", " --pid 5149", " --comm hackbench --tree-of 5149" }) {
		CliRun t = hwsched("trace-info " + traces + "/hackbench_g4.txt.gz --json -" + filter);
		ASSERT_EQ(t.status, 0) << t.out;
		check_keys(rows, "trace-info", t.out);
	}

	// the bench measures for minutes: its JSON's keys, every figure 0 (--keys-only)
	const std::string bench = hwstest::repo_root() + "/build/hws_bench";
	CliRun b = hwstest::shell(bench + " --keys-only --json " + d / "bench.json");
	ASSERT_EQ(b.status, 0) << bench << ": " << b.out;
	check_keys(rows, "bench", slurp(d / "bench.json"));

	CliRun l = hwsched("lockstep --backend model --cpus 4 --tasks 64 --commands 20000 "
			   "--resets 0.05 --seed 3 --json " + d / "lockstep.json");
	ASSERT_EQ(l.status, 0) << l.out;
	std::string lj = slurp(d / "lockstep.json");
	check_keys(rows, "lockstep", lj);
	hwstest::Json lk(lj);
	EXPECT_EQ(lk.leaves["commands"], "20000");
	EXPECT_EQ(lk.leaves["mismatches"], "0");
	EXPECT_EQ(lk.leaves["seed"], "3");
	EXPECT_EQ(lk.leaves["backend"], "model");
	EXPECT_EQ(lk.leaves["shape.cpus"], "4");
}

TEST(JsonKeys, VersionOnEveryCommand)
{
	const std::string want = std::string("hwsched ") + hws_version() + "\n";
	EXPECT_NE(std::string(hws_version()), "unknown") << "tools/gen_version.sh did not run";
	for (const char *c : { "", "run ", "lockstep ", "replay ", "trace-info ", "vp " }) {
		CliRun r = hwsched(std::string(c) + "--version");
		EXPECT_EQ(r.status, 0) << c;
		EXPECT_EQ(r.out, want) << c;
	}
	// after other options too, and nothing run
	CliRun r = hwsched("lockstep --commands 1G --version");
	EXPECT_EQ(r.status, 0);
	EXPECT_EQ(r.out, want);
	CliRun h = hwsched("run --help");
	EXPECT_NE(h.out.find("--version"), std::string::npos) << "in --help";
	EXPECT_NE(h.out.find("--progress"), std::string::npos) << "in --help";
	EXPECT_NE(h.out.find("--no-progress"), std::string::npos) << "in --help";
}

// Outside a git checkout (a release tarball) the version is VERSION's; the header is
// rewritten only when the version changes (so make rebuilds one object, and only then).
TEST(JsonKeys, VersionOutsideGitIsTheReleaseFile)
{
	TempDir d;
	const std::string root = hwstest::repo_root();
	ASSERT_EQ(std::system(("mkdir -p '" + d / "tools" + "' && cp '" + root +
			       "/tools/gen_version.sh' '" + d / "tools/" + "' && cp '" + root +
			       "/VERSION' '" + d.path + "/'").c_str()), 0);
	std::string release = slurp(root + "/VERSION");
	while (!release.empty() && release.back() == '\n')
		release.pop_back();
	ASSERT_FALSE(release.empty());
	CliRun g = hwstest::shell(d / "tools/gen_version.sh" + " " + d / "v.h");
	ASSERT_EQ(g.status, 0) << g.out;
	EXPECT_NE(slurp(d / "v.h").find("#define HWS_VERSION_STRING \"" + release + "\"\n"),
		  std::string::npos) << slurp(d / "v.h");
	struct stat a, b;
	ASSERT_EQ(stat((d / "v.h").c_str(), &a), 0);
	ASSERT_EQ(std::system(("touch -d '2001-01-01' '" + d / "v.h" + "'").c_str()), 0);
	ASSERT_EQ(stat((d / "v.h").c_str(), &a), 0);
	g = hwstest::shell(d / "tools/gen_version.sh" + " " + d / "v.h");
	ASSERT_EQ(g.status, 0) << g.out;
	ASSERT_EQ(stat((d / "v.h").c_str(), &b), 0);
	EXPECT_EQ(a.st_mtime, b.st_mtime) << "rewritten though the version is the same";
}

// --json -: the JSON alone on stdout (it parses), the report on stderr, no file named "-".
TEST(JsonKeys, JsonDashIsStdoutAlone)
{
	std::string traces = hwstest::trace_dir();
	HWS_NEED_TRACES(traces);
	TempDir d;
	struct {
		std::string args, report;
	} cases[] = {
		{ "lockstep --backend model --commands 3000 --json -",
		  "lockstep: 3000 commands, 0 mismatches" },
		{ "run --sched o1 --duration 20ms --json -", "run: workload mix" },
		{ "vp --topology core=2 --duration 5ms --json -", "virtual platform: 2 initiators" },
		{ "replay " + traces + "/nice_hogs.txt.gz --sched o1 --json -", "wake path" },
	};
	for (const auto &c : cases) {
		Split s = split_run(c.args, d.path);
		ASSERT_EQ(s.status, 0) << c.args << "\n" << s.err;
		hwstest::Json j(s.out);
		EXPECT_TRUE(j.ok) << c.args << ": stdout is not JSON alone:\n" << s.out.substr(0, 400);
		EXPECT_EQ(j.leaves["version"], hws_version());
		EXPECT_NE(s.err.find(c.report), std::string::npos) << c.args << ": the report on "
								    "stderr:\n" << s.err;
		struct stat st;
		EXPECT_NE(stat((d / "-").c_str(), &st), 0) << "a file named '-' was created";
	}
}

// Progress: off when stderr is not a terminal, --progress forces it, --no-progress and
// --progress together are refused, and on a terminal it is on unless --no-progress.
TEST(Progress, OffWhenPipedForcedByTheOption)
{
	TempDir d;
	Split off = split_run("lockstep --backend model --commands 50000", d.path);
	ASSERT_EQ(off.status, 0) << off.err;
	EXPECT_EQ(off.err.find('\r'), std::string::npos) << "progress on a pipe: " << off.err;

	Split on = split_run("lockstep --backend model --commands 50000 --progress", d.path);
	ASSERT_EQ(on.status, 0) << on.err;
	EXPECT_TRUE(std::regex_search(on.err, std::regex("\r *[0-9]+% [0-9.kMG]+/[0-9.kMG]+ "
							  "commands, [0-9.kMG]+ commands/s")))
		<< "no percent line: " << on.err;
	EXPECT_EQ(on.err.back(), '\r') << "the line is erased at the end";
	EXPECT_EQ(last_line(on.out), "lockstep: 50000 commands, 0 mismatches");

	Split run = split_run("run --sched o1 --duration 200ms --progress", d.path);
	ASSERT_EQ(run.status, 0) << run.err;
	EXPECT_TRUE(std::regex_search(run.err, std::regex("\r *[0-9]+% [0-9.]+/[0-9.]+ sim s, ")))
		<< "no percent line: " << run.err;

	CliRun both = hwsched("lockstep --progress --no-progress");
	EXPECT_EQ(both.status, 2);
	EXPECT_NE(both.out.find("--progress and --no-progress"), std::string::npos) << both.out;
}

// stderr on a pseudo-terminal: @args's stderr, the child's exit status in *@status.
std::string on_a_terminal(const std::string &args, int *status)
{
	int master;
	pid_t pid = forkpty(&master, nullptr, nullptr, nullptr);
	if (pid < 0)
		return "forkpty failed";
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		dup2(null, 1);	// stdout away: only stderr on the terminal
		std::string cmd = std::string(HWSCHED_BIN) + " " + args;
		execl("/bin/sh", "sh", "-c", cmd.c_str(), (char *)nullptr);
		_exit(127);
	}
	std::string out;
	char buf[4096];
	ssize_t n;
	while ((n = read(master, buf, sizeof(buf))) > 0)	// EIO once the child is gone
		out.append(buf, (size_t)n);
	int st;
	waitpid(pid, &st, 0);
	close(master);
	*status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	return out;
}

TEST(Progress, OnATerminalUnlessTurnedOff)
{
	int st = -1;
	std::string tty = on_a_terminal("lockstep --backend model --commands 50000", &st);
	EXPECT_EQ(st, 0) << tty;
	EXPECT_TRUE(std::regex_search(tty, std::regex("\r *[0-9]+% "))) << tty;
	tty = on_a_terminal("lockstep --backend model --commands 50000 --no-progress", &st);
	EXPECT_EQ(st, 0) << tty;
	EXPECT_FALSE(std::regex_search(tty, std::regex("[0-9]+% "))) << tty;
}

// Run @argv with stdout and stderr into files; once stderr shows the progress line, send
// SIGINT: the exit status (-1 when it did not end within the generous timeout).
int interrupt(const std::vector<std::string> &args, const std::string &out, const std::string &err)
{
	pid_t pid = fork();
	if (pid == 0) {
		int o = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int e = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(o, 1);
		dup2(e, 2);
		std::vector<char *> av;
		av.push_back((char *)HWSCHED_BIN);
		for (const std::string &a : args)
			av.push_back((char *)a.c_str());
		av.push_back(nullptr);
		execv(HWSCHED_BIN, av.data());
		_exit(127);
	}
	// wait (at most 120 s) until the run is under way: its progress line
	for (int i = 0; i < 1200 && slurp(err).find('%') == std::string::npos; i++)
		usleep(100000);
	kill(pid, SIGINT);
	int st = 0;
	for (int i = 0; i < 1200; i++) {	// at most 120 s more
		if (waitpid(pid, &st, WNOHANG) == pid)
			return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
		usleep(100000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	return -1;
}

TEST(Interrupt, CtrlCStopsLockstepWithThePartialLine)
{
	TempDir d;
	int st = interrupt({ "lockstep", "--backend", "model", "--commands", "1000G", "--progress",
			     "--json", d / "l.json" }, d / "out", d / "err");
	EXPECT_EQ(st, 130) << slurp(d / "err");
	std::string out = slurp(d / "out");
	EXPECT_TRUE(std::regex_match(last_line(out), std::regex("lockstep: [0-9]+ commands, 0 "
								"mismatches \\(interrupted\\)")))
		<< out;
	EXPECT_NE(slurp(d / "err").find("--json " + d / "l.json" + " not written: interrupted"),
		  std::string::npos) << slurp(d / "err");
	struct stat sb;
	EXPECT_NE(stat((d / "l.json").c_str(), &sb), 0) << "an interrupted run writes no JSON";
}

TEST(Interrupt, CtrlCStopsARunWithItsPartialReport)
{
	TempDir d;
	int st = interrupt({ "run", "--sched", "o1", "--workload", "mix:tasks=4,sleep=0",
			     "--duration", "3600s", "--top", "0", "--check-every", "0", "--progress",
			     "--json", d / "r.json" }, d / "out", d / "err");
	EXPECT_EQ(st, 130) << slurp(d / "err");
	std::string out = slurp(d / "out");
	EXPECT_NE(out.find("throughput:"), std::string::npos) << "the partial report: " << out;
	EXPECT_NE(slurp(d / "err").find("--json " + d / "r.json" + " not written: interrupted"),
		  std::string::npos) << slurp(d / "err");
	EXPECT_TRUE(std::regex_search(last_line(out), std::regex("^run: interrupted at [0-9.]+ s "
								 "simulated")))
		<< out;
	struct stat sb;
	EXPECT_NE(stat((d / "r.json").c_str(), &sb), 0) << "an interrupted run writes no JSON";
}

} // namespace
