// bad_input_test.cc - every class of bad input, as a user types it: one table,
// command line -> exit status and a fragment of the message. Exit 2 is bad usage or input
// (nothing ran), 1 a failure at run time; every error reads "hwsched CMD: ...". Then the
// output paths that must destroy nothing, the numbers that must come out exact, and the
// traces that break a rule (strict: an error naming file:line; --lenient: a counted warning).
#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "tests/test_util.h"

namespace {

using hwstest::CliRun;
using hwstest::hwsched;
using hwstest::slurp;
using hwstest::trace_dir;

using hwstest::TempDir;

// The command's prefix of every error: "hwsched CMD: " ("hwsched: " without a command).
std::string prefix_of(const std::string &args)
{
	std::string cmd = args.substr(0, args.find(' '));
	for (const char *c : { "lockstep", "run", "vp", "replay", "trace-info" })
		if (cmd == c)
			return "hwsched " + cmd + ": ";
	return "hwsched: ";
}

struct Row {
	const char *cls;	// the class
	std::string args;
	int status;
	std::string says;
};

void expect_row(const Row &r)
{
	CliRun c = hwsched(r.args);
	EXPECT_EQ(c.status, r.status) << r.cls << ": hwsched " << r.args << "\n" << c.out;
	EXPECT_NE(c.out.find(r.says), std::string::npos)
		<< r.cls << ": hwsched " << r.args << "\nwanted: " << r.says << "\ngot: " << c.out;
	if (r.status) {
		EXPECT_EQ(c.out.find(prefix_of(r.args) + prefix_of(r.args).substr(8)),
			  std::string::npos) << "a doubled prefix: " << c.out;
	}
	if (r.status == 2) {
		EXPECT_NE(c.out.find(prefix_of(r.args)), std::string::npos)
			<< r.cls << ": the message has no '" << prefix_of(r.args) << "': " << c.out;
	}
}

TEST(BadInput, NumbersAreParsedStrictly)
{
	const Row rows[] = {
		{ "fraction where an integer is meant", "lockstep --cpus 8.9", 2,
		  "--cpus '8.9': expected a whole number in 1..64" },
		{ "fraction", "run --workload hackbench:loops=1.5", 2,
		  "workload hackbench 'loops=1.5': loops '1.5': expected a whole number in 1..1000000" },
		{ "fraction", "run --workload mix:tasks=2.5", 2,
		  "tasks '2.5': expected a whole number in 1..4096" },
		{ "fraction", "lockstep --commands 0.4", 2, "--commands '0.4': expected a whole number" },
		{ "negative seed", "run --seed -1", 2,
		  "--seed '-1': expected a whole number in 0..18446744073709551615" },
		{ "overflowing seed", "lockstep --seed 18446744073709551616", 2, "--seed '18446744073709551616'" },
		{ "nan duration", "run --duration nan", 2, "--duration 'nan': expected a duration in 1us..3600s" },
		{ "inf duration", "run --duration inf", 2, "--duration 'inf'" },
		{ "nan burst", "run --workload mix:burst=nan", 2, "burst 'nan': expected a number in 1..1e+06" },
		{ "inf sleep", "run --workload mix:sleep=inf", 2, "sleep 'inf': expected a number in 0..1e+07" },
		{ "nan cost", "run --cost bus_ns=nan", 2, "bus_ns 'nan': expected a number in 0..1e+09" },
		{ "inf cost", "replay x.txt --cost ctx_switch_ns=inf", 2, "ctx_switch_ns 'inf'" },
		{ "huge cost", "run --cost engine_clk_ns=1e300", 2, "engine_clk_ns '1e300'" },
		{ "loops overflow", "run --workload hackbench:loops=4294967296", 2,
		  "loops '4294967296': expected a whole number in 1..1000000" },
		{ "ignored key value", "run --workload mix:g0=1e20", 2, "g0 '1e20'" },
		{ "g0 beyond the tasks", "run --workload mix:tasks=4,g0=5,groups=2", 2,
		  "g0=5 is more than its 4 tasks" },
		{ "no upper bound", "run --duration 1e9s", 2, "--duration '1e9s': expected a duration in 1us..3600s" },
		{ "hang", "run --workload mix:burst=0,sleep=0", 2, "burst '0': expected a number in 1..1e+06" },
		{ "bus latency nan", "vp --bus-latency nan", 2, "--bus-latency 'nan'" },
		{ "hz out of range", "run --hz 5", 2, "--hz '5': expected a whole number in 10..10000" },
		{ "pid 0", "replay x.txt --pid 0", 2, "--pid '0': expected a whole number in 1..4194304" },
	};
	for (const Row &r : rows)
		expect_row(r);
}

TEST(BadInput, KeyValueStringsAcceptNoNonsense)
{
	const Row rows[] = {
		{ "a key twice", "run --topology core=2,core=3", 2,
		  "--topology 'core=2,core=3': key 'core' given twice" },
		{ "empty items", "run --topology ,,,", 2, "--topology ',,,': an empty item" },
		{ "empty topology", "run --topology ''", 2, "topology '': empty" },
		{ "unknown key", "run --topology cores=4", 2, "unknown key 'cores' (known: numa, pkg, core, smt)" },
		{ "too many CPUs", "run --topology pkg=8,core=9", 2, "72 CPUs, at most 64" },
		{ "a workload key twice", "run --workload mix:tasks=2,tasks=3", 2, "key 'tasks' given twice" },
		{ "a workload's empty item", "run --workload mix:tasks=2,", 2, "an empty item" },
		{ "another workload's key", "run --workload tbench:threads=4", 2,
		  "unknown key 'threads' (known: groups, group, clients, work, calib, net, fs, "
		  "numa, nice, rt, cpus)" },
		{ "cpus beyond the topology", "run --topology core=2 --workload mix:cpus=3", 2,
		  "cpus '3': expected a whole number in 1..2" },
		{ "a cost key twice", "run --cost bus_ns=1,bus_ns=2", 2, "key 'bus_ns' given twice" },
		{ "empty cost", "run --cost ''", 2, "--cost '': expected key=value" },
		{ "unknown cost", "run --cost bus=1", 2, "unknown key 'bus'" },
		{ "smt_speed 0", "run --cost smt_speed=0", 2, "smt_speed '0': expected a number in 0.01..1" },
	};
	for (const Row &r : rows)
		expect_row(r);
}

TEST(BadInput, ErrorsAreConsistent)
{
	const Row rows[] = {
		{ "--sched bogus exits 2 like --backend bogus", "run --sched bogus", 2,
		  "hwsched run: --sched must be one of hw, o1, linux24, cfs, eevdf (got 'bogus')" },
		{ "--backend bogus", "run --backend bogus", 2, "hwsched run: --backend must be one of" },
		{ "replay --sched bogus", "replay x.txt --sched bogus", 2, "hwsched replay: --sched" },
		{ "an unknown workload is input", "run --workload nosuch", 2,
		  "hwsched run: workload 'nosuch': unknown" },
		{ "a missing trace is input", "replay /nonexistent/t.txt", 2,
		  "hwsched replay: /nonexistent/t.txt: cannot open" },
		{ "an option of another command", "lockstep --duration 1s", 2,
		  "hwsched lockstep: --duration is an option of 'run' and 'vp'" },
		{ "the interrupt mode on an engine built without it", "run --engine-irq --no-irq", 2,
		  "hwsched run: --engine-irq needs the engine's preemption interrupt, and --no-irq "
		  "builds the engine without it" },
		{ "the interrupt mode of a scheduler without an engine", "run --engine-irq --sched o1",
		  2, "hwsched run: --engine-irq is an option of --sched hw (got 'o1'" },
		{ "the lean BALANCE of a scheduler without an engine", "run --bal-lean --sched cfs", 2,
		  "hwsched run: --bal-lean is an option of --sched hw (got 'cfs'" },
		{ "the lean BALANCE on an engine without BALANCE", "run --bal-lean --no-hw-balance", 2,
		  "LCU_LEAN must be 0 without BALANCE" },
		{ "the lean BALANCE with lanes", "lockstep --bal-lean --bal-lanes 2", 2,
		  "BAL_LANES must be 0 with LCU_LEAN" },
	};
	for (const Row &r : rows)
		expect_row(r);
	// vp's own usage, --cost KEY=V, reaches build/hwsched_vp intact
	CliRun vp = hwsched("vp --cost engine_clk_ns=10,bus_ns=0 --duration 1ms --workload mix:tasks=4 "
			    "--topology core=8");
	EXPECT_EQ(vp.status, 0) << vp.out;
	EXPECT_NE(vp.out.find("virtual platform: 8 initiators"), std::string::npos) << vp.out;
	// --help documents the exit statuses, on every command
	for (const char *c : { "lockstep", "run", "vp", "replay", "trace-info" }) {
		CliRun h = hwsched(std::string(c) + " --help");
		EXPECT_NE(h.out.find("Exit status: 0 done, 1 a failure at run time, 2 bad usage or"),
			  std::string::npos) << c;
	}
}

// Integers never go through a double, and every command reads them in decimal.
TEST(BadInput, SeedsComeOutExact)
{
	CliRun r = hwsched("run --seed 9007199254740993 --duration 1ms --workload mix:tasks=2");
	ASSERT_EQ(r.status, 0) << r.out;
	EXPECT_NE(r.out.find("seed 9007199254740993"), std::string::npos) << r.out;
	r = hwsched("run --seed 010 --duration 1ms --workload mix:tasks=2");
	ASSERT_EQ(r.status, 0) << r.out;
	EXPECT_NE(r.out.find("seed 10\n"), std::string::npos) << "not octal: " << r.out;
	r = hwsched("lockstep --backend model --seed 010 --commands 10");
	ASSERT_EQ(r.status, 0) << r.out;
	EXPECT_NE(r.out.find("seed 10\n"), std::string::npos) << r.out;
	r = hwsched("lockstep --backend model --seed 18446744073709551615 --commands 10");
	ASSERT_EQ(r.status, 0) << r.out;
	EXPECT_NE(r.out.find("seed 18446744073709551615"), std::string::npos) << r.out;
}

// No output path can destroy anything: a device node, a FIFO, a directory, a block
// device stay what they were; regular files are replaced whole; bad paths are refused
// before the run.
TEST(BadInput, OutputPathsDestroyNothing)
{
	TempDir d;
	struct stat st;
	const std::string run = "run --workload mix:tasks=2 --duration 1ms ";
	// --wave needs a regular file: /dev/null is refused, and stays a device
	Row wave_null{ "--wave on a device", run + "--backend rtl --wave /dev/null", 2,
		       "/dev/null: a character device: refused, left untouched" };
	expect_row(wave_null);
	ASSERT_EQ(stat("/dev/null", &st), 0);
	EXPECT_TRUE(S_ISCHR(st.st_mode)) << "/dev/null is no longer a device";
	// --json into /dev/null: written into, never replaced
	CliRun r = hwsched(run + "--json /dev/null");
	EXPECT_EQ(r.status, 0) << r.out;
	ASSERT_EQ(stat("/dev/null", &st), 0);
	EXPECT_TRUE(S_ISCHR(st.st_mode));
	// /dev/stdout (here a pipe): the JSON follows the report, in order
	r = hwsched(run + "--json /dev/stdout");
	EXPECT_EQ(r.status, 0) << r.out;
	size_t rep = r.out.find("run: workload mix"), js = r.out.find("{\n  \"version\": ");
	EXPECT_NE(js, std::string::npos) << r.out;
	EXPECT_LT(rep, js) << r.out;
	// /dev/full: the write error, named, exit 1
	expect_row({ "a write error", run + "--json /dev/full", 1,
		     "hwsched run: cannot write /dev/full: No space left on device" });
	// a directory: refused before the run, untouched
	ASSERT_EQ(mkdir((d / "dir").c_str(), 0755), 0);
	FILE *f = fopen((d / "dir/keep").c_str(), "w");
	fputs("kept", f);
	fclose(f);
	expect_row({ "a directory", run + "--svg " + d / "dir", 2, "a directory: refused" });
	expect_row({ "a directory (vp)", "vp --vp-json " + d / "dir", 2, "a directory: refused" });
	EXPECT_EQ(slurp(d / "dir/keep"), "kept");
	// a FIFO without a reader: refused at once, still a FIFO
	ASSERT_EQ(mkfifo((d / "fifo").c_str(), 0600), 0);
	expect_row({ "a FIFO", run + "--json " + d / "fifo", 1, "a FIFO with no reader" });
	ASSERT_EQ(lstat((d / "fifo").c_str(), &st), 0);
	EXPECT_TRUE(S_ISFIFO(st.st_mode));
	// a block device node
	if (!mknod((d / "blk").c_str(), S_IFBLK | 0600, makedev(7, 201))) {
		expect_row({ "a block device", run + "--json " + d / "blk", 2,
			     "a block device: refused, left untouched" });
		ASSERT_EQ(lstat((d / "blk").c_str(), &st), 0);
		EXPECT_TRUE(S_ISBLK(st.st_mode));
	} else {
		ADD_FAILURE() << "cannot mknod a block device to test with: " << strerror(errno);
	}
	// checked before the run: a 3600 s run stops at once
	expect_row({ "checked before the run", "run --duration 3600s --json /no/such/dir/x.json", 2,
		     "/no/such/dir/x.json: no directory '/no/such/dir'" });
	expect_row({ "--wave on the model backend", run + "--wave " + d / "w.fst", 2,
		     "--wave needs a backend that simulates the RTL (rtl or lockstep; got 'model')" });
	expect_row({ "--wave without an engine", run + "--sched o1 --wave " + d / "w.fst",
		     2, "--wave is the engine's waveform: it needs --sched hw (got 'o1')" });
	expect_row({ "--wave on lockstep's model", "lockstep --backend model --wave " + d / "w.fst", 2,
		     "--wave needs a backend that simulates the RTL" });
	// a regular file is replaced whole, and a waveform goes through a temporary file
	f = fopen((d / "w.fst").c_str(), "w");
	fputs("old", f);
	fclose(f);
	r = hwsched("lockstep --backend rtl --commands 50 --wave " + d / "w.fst");
	ASSERT_EQ(r.status, 0) << r.out;
	EXPECT_GT(slurp(d / "w.fst").size(), 100u);
	r = hwsched("run --workload mix:tasks=2 --duration 1ms --json " + d / "r.json");
	ASSERT_EQ(r.status, 0) << r.out;
	EXPECT_EQ(slurp(d / "r.json").substr(0, 14), "{\n  \"version\":");
	CliRun listing = { 0, "" };
	FILE *p = popen(("ls -A " + d.path).c_str(), "r");
	char b[256];
	while (p && fgets(b, sizeof(b), p))
		listing.out += b;
	if (p)
		pclose(p);
	EXPECT_EQ(listing.out, "blk\ndir\nfifo\nr.json\nw.fst\n") << "a temporary file left";
}

// ---- Traces that break a rule ----------------------------------------------------------

std::vector<std::string> real_lines(const std::string &file)
{
	std::vector<std::string> v;
	gzFile g = gzopen(file.c_str(), "rb");
	char b[1024];
	while (g && gzgets(g, b, sizeof(b))) {
		std::string l(b);
		if (!l.empty() && l.back() == '\n')
			l.pop_back();
		v.push_back(l);
	}
	if (g)
		gzclose(g);
	return v;
}

// The lines of @v as a text file (a line may hold a NUL byte).
void write_lines(const std::string &path, const std::vector<std::string> &v, bool eol = true)
{
	FILE *f = fopen(path.c_str(), "w");
	for (size_t i = 0; i < v.size(); i++) {
		fwrite(v[i].data(), 1, v[i].size(), f);
		if (i + 1 < v.size() || eol)
			fputc('\n', f);
	}
	fclose(f);
}

// The timestamp of a perf script line, in microseconds (-1 if none).
long long ts_us(const std::string &l)
{
	size_t colon = l.find(": sched:"), sp = colon == std::string::npos ? colon : l.rfind(' ', colon);
	if (sp == std::string::npos)
		return -1;
	std::string t = l.substr(sp + 1, colon - sp - 1);
	size_t dot = t.find('.');
	return atoll(t.substr(0, dot).c_str()) * 1000000 + atoll(t.substr(dot + 1).c_str());
}

// The CPU of a perf script line ("[001]"), -1 if none.
int cpu_of(const std::string &l)
{
	size_t b = l.find(" [");
	return b == std::string::npos ? -1 : atoi(l.c_str() + b + 2);
}

// The first line (1-based) of @v holding @what.
size_t line_with(const std::vector<std::string> &v, const std::string &what, size_t from = 1)
{
	for (size_t i = from - 1; i < v.size(); i++)
		if (v[i].find(what) != std::string::npos)
			return i + 1;
	return 0;
}

std::string replace(std::string s, const std::string &a, const std::string &b)
{
	size_t at = s.find(a);
	return at == std::string::npos ? s : s.replace(at, a.size(), b);
}

TEST(BadInput, TracesThatBreakARuleAreNamedByLine)
{
	std::string dir = trace_dir();
	HWS_NEED_TRACES(dir);
	TempDir d;
	const std::vector<std::string> base = real_lines(dir + "/make_j4.txt.gz");
	ASSERT_GT(base.size(), 2000u);
	struct Bad {
		const char *cls, *file;
		std::vector<std::string> lines;
		size_t line;	// where the error is (0: the test finds it)
		const char *says;
		bool eol;
	};
	std::vector<Bad> bad;
	auto edit = [&](const char *cls, const char *file, const std::string &what,
			const std::string &a, const std::string &b, const char *says) {
		std::vector<std::string> v = base;
		size_t at = line_with(v, what, 100);
		v[at - 1] = replace(v[at - 1], a, b);
		bad.push_back({ cls, file, v, at, says, true });
	};
	edit("CPU out of range", "cpu.txt", "[001]", "[001]", "[064]", "CPU [064] out of range 0..63");
	edit("pid out of range", "pid.txt", "sched_waking:", " pid=", " pid=-5 x=",
	     "sched_waking: pid=-5 out of range 1..4194304");
	edit("pid too large", "pid2.txt", "sched_switch:", "next_pid=", "next_pid=4194305 x=",
	     "next_pid=4194305 out of range 0..4194304");
	edit("prio out of range", "prio.txt", "sched_switch:", "prev_prio=120", "prev_prio=140",
	     "prev_prio=140 out of range -1..139");
	edit("negative runtime", "rt.txt", "runtime=", "runtime=", "runtime=-", "runtime");
	edit("absurd runtime", "rt2.txt", "runtime=", "runtime=", "runtime=9999999",
	     "out of range 0..10000000000");
	{
		// a self-parent fork
		std::vector<std::string> v = base;
		size_t at = line_with(v, "sched_process_fork:");
		ASSERT_GT(at, 0u);
		std::string &l = v[at - 1];
		std::string parent = l.substr(l.find(" pid=") + 5);
		parent = parent.substr(0, parent.find(' '));
		l = l.substr(0, l.find("child_pid=")) + "child_pid=" + parent;
		bad.push_back({ "self-parent fork", "fork.txt", v, at, "forks itself", true });
	}
	{
		// a line 10 ms before its own time, so about as much before the one above it
		std::vector<std::string> v = base;
		size_t at = 500;
		std::string &l = v[at - 1];
		size_t colon = l.find(": sched:");
		size_t sp = l.rfind(' ', colon);
		double ts = atof(l.substr(sp + 1, colon - sp - 1).c_str()) - 0.010;
		char b[32];
		snprintf(b, sizeof(b), "%.6f", ts);
		l = l.substr(0, sp + 1) + b + l.substr(colon);
		bad.push_back({ "time going backwards", "back.txt", v, at,
				"the time goes back 0.0", true });
	}
	{
		// concatenated traces
		std::vector<std::string> v = base;
		v.insert(v.end(), base.begin(), base.end());
		bad.push_back({ "concatenated traces", "twice.txt", v, base.size() + 1,
				"concatenated traces?", true });
	}
	{
		// a waking of a pid that appears nowhere else
		std::vector<std::string> v = base;
		size_t at = line_with(v, "sched_waking:", 300);
		v[at - 1] = v[at - 1].substr(0, v[at - 1].find(" pid=")) + " pid=4000000 prio=120 target_cpu=000";
		bad.push_back({ "a waking of a pid never seen", "ghost.txt", v, at,
				"sched_waking of pid 4000000, which appears nowhere else", true });
	}
	{
		std::vector<std::string> v = base;
		v.back() = v.back().substr(0, v.back().size() - 3);
		bad.push_back({ "a truncated text file", "cut.txt", v, base.size(),
				"the last line has no newline", false });
	}
	// the trace reader's bad input (docs/trace.md)
	{
		std::vector<std::string> v = base;
		std::string &l = v[99];
		l[l.find("sched:") + 3] = '\0';
		bad.push_back({ "a NUL byte in a line", "nul.txt", v, 100, "a NUL byte in the line",
				true });
	}
	edit("an unused field's CPU out of range", "tcpu.txt", "sched_waking:", "target_cpu=",
	     "target_cpu=999 was=", "sched_waking: target_cpu=999 out of range 0..63");
	edit("a negative CPU", "ocpu.txt", "sched_migrate_task:", "orig_cpu=", "orig_cpu=-3 was=",
	     "sched_migrate_task: orig_cpu=-3 out of range 0..63");
	{
		// every line twice: named at the first repeat of an event that cannot repeat
		std::vector<std::string> v;
		size_t at = 0;
		for (const std::string &l : base) {
			v.push_back(l);
			v.push_back(l);
			if (!at && l.find("sched_stat_runtime") == std::string::npos)
				at = v.size();
		}
		bad.push_back({ "every line duplicated", "dup.txt", v, at, "the same line as line",
				true });
	}
	{
		// two lines of one CPU swapped (less than 1 ms apart): the time goes back there
		std::vector<std::string> v = base;
		size_t k = 300;
		while (k + 1 < v.size() && !(cpu_of(v[k]) == cpu_of(v[k + 1]) &&
					     ts_us(v[k]) < ts_us(v[k + 1]) &&
					     ts_us(v[k + 1]) - ts_us(v[k]) < 1000))
			k++;
		ASSERT_LT(k + 1, v.size());
		std::swap(v[k], v[k + 1]);
		bad.push_back({ "the time going back on one CPU", "cpuback.txt", v, k + 2,
				"s on CPU", true });
	}
	for (const Bad &b : bad) {
		std::string path = d / b.file;
		write_lines(path, b.lines, b.eol);
		std::string at = path + ":" + std::to_string(b.line) + ": ";
		Row strict{ b.cls, "replay " + path, 2, at };
		expect_row(strict);
		CliRun r = hwsched("replay " + path);
		EXPECT_NE(r.out.find(b.says), std::string::npos) << b.cls << ": " << r.out;
		Row info{ b.cls, "trace-info " + path, 2, at };
		expect_row(info);
		// lenient: the same, as a counted warning; the replay runs
		r = hwsched("replay --lenient " + path);
		EXPECT_EQ(r.status, 0) << b.cls << ": " << r.out;
		EXPECT_NE(r.out.find("hwsched replay: warning: " + at), std::string::npos)
			<< b.cls << ": " << r.out;
		EXPECT_NE(r.out.find(" warning"), std::string::npos) << r.out;
	}
	// a truncated gzip: an error naming the file (lenient: a warning, what was read kept)
	std::string gz = slurp(dir + "/make_j4.txt.gz");
	FILE *f = fopen((d / "cut.txt.gz").c_str(), "wb");
	fwrite(gz.data(), 1, gz.size() * 2 / 3, f);
	fclose(f);
	expect_row({ "a truncated gzip", "replay " + d / "cut.txt.gz", 2, "a truncated or damaged gzip file" });
	CliRun r = hwsched("replay --lenient " + d / "cut.txt.gz");
	EXPECT_EQ(r.status, 0) << r.out;
	EXPECT_NE(r.out.find("warning: " + d / "cut.txt.gz"), std::string::npos) << r.out;
	// trailing garbage after the gzip stream: named by its byte (lenient: ignored)
	f = fopen((d / "tail.txt.gz").c_str(), "wb");
	fwrite(gz.data(), 1, gz.size(), f);
	fputs("garbage after the stream\n", f);
	fclose(f);
	expect_row({ "trailing garbage after gzip", "replay " + d / "tail.txt.gz", 2,
		     d / "tail.txt.gz" + ": bytes after the end of the gzip stream (at byte " +
			     std::to_string(gz.size()) + ") that are not a gzip member" });
	r = hwsched("trace-info --lenient " + d / "tail.txt.gz");
	EXPECT_EQ(r.status, 0) << r.out;
	EXPECT_NE(r.out.find("read: " + std::to_string(base.size()) + " lines, 0 skipped, 1 warnings"),
		  std::string::npos) << r.out;
	// a stream of NULs without a newline: the first line named, at once
	f = fopen((d / "nuls.txt").c_str(), "wb");
	std::string zeros(1 << 20, '\0');
	for (int i = 0; i < 16; i++)
		fwrite(zeros.data(), 1, zeros.size(), f);
	fclose(f);
	expect_row({ "a stream of NULs", "trace-info " + d / "nuls.txt", 2,
		     d / "nuls.txt" + ":1: a line longer than 8192 bytes (TRACE_MAX_LINE) holding "
			     "NUL bytes" });
	expect_row({ "a stream of NULs, lenient", "replay --lenient " + d / "nuls.txt", 2,
		     d / "nuls.txt" + ": no events" });
	// the base itself is fine
	write_lines(d / "base.txt", base);
	r = hwsched("replay " + d / "base.txt");
	EXPECT_EQ(r.status, 0) << r.out;
}

// --topology is honoured by replay (not replaced by the trace's CPU count); a trace path
// holding a quote still makes valid JSON (escaped).
TEST(BadInput, ReplayHonoursTopologyAndEscapesItsJson)
{
	std::string dir = trace_dir();
	HWS_NEED_TRACES(dir);
	TempDir d;
	std::string q = d / "a\"b.txt.gz";
	std::system(("cp '" + dir + "/make_j4.txt.gz' '" + q + "'").c_str());
	CliRun r = hwsched("replay '" + q + "' --topology core=4 --json " + d / "r.json");
	ASSERT_EQ(r.status, 0) << r.out;
	EXPECT_NE(r.out.find("topology core=4 (4 CPUs)"), std::string::npos) << r.out;
	EXPECT_NE(r.out.find("4 CPUs replay the trace's 2"), std::string::npos) << r.out;
	std::string j = slurp(d / "r.json");
	EXPECT_NE(j.find("\"trace\": \"" + d.path + "/a\\\"b.txt.gz\""), std::string::npos) << j;
	EXPECT_NE(j.find("\"topology\": \"core=4\""), std::string::npos) << j;
	size_t rp = j.find("\"replay\": {");	// the replay side, not a check line's figure
	ASSERT_NE(rp, std::string::npos);
	size_t b0 = j.find('[', rp), b1 = j.find(']', rp);
	std::string busy = j.substr(b0, b1 - b0);
	EXPECT_EQ(std::count(busy.begin(), busy.end(), ','), 3) << "4 CPUs' busy %: " << busy;
	// when the trace's own CPU count is given, it is the default
	r = hwsched("replay '" + q + "' --topology core=2");
	ASSERT_EQ(r.status, 0) << r.out;
	EXPECT_EQ(r.out.find("replay the trace's"), std::string::npos) << r.out;
}

// An output that is the input trace would replace it: refused (exit 2) before anything
// is written, whatever the spelling (a symbolic link, "sub/..", "//", a hard link, the
// trace itself given through a link, /dev/stdout appending to it), for replay's --json,
// --svg and --wave and trace-info's --json. The trace is left byte for byte, and no
// temporary file is left beside it.
TEST(BadInput, AnOutputThatIsTheInputTraceIsRefused)
{
	std::string dir = trace_dir();
	HWS_NEED_TRACES(dir);
	TempDir d;
	const std::string t = d / "t.txt.gz";
	std::system(("cp '" + dir + "/make_j4.txt.gz' '" + t + "'").c_str());
	const std::string before = slurp(t);
	ASSERT_GT(before.size(), 1000u);
	ASSERT_EQ(mkdir((d / "sub").c_str(), 0755), 0);
	ASSERT_EQ(symlink(t.c_str(), (d / "link.gz").c_str()), 0);
	ASSERT_EQ(link(t.c_str(), (d / "hard.gz").c_str()), 0);
	const std::string says = "is the input trace";
	for (const std::string &out : { t, d / "link.gz", d / "sub/../t.txt.gz", d.path + "//t.txt.gz",
					d / "hard.gz" }) {
		expect_row({ "--json", "replay " + t + " --json " + out, 2, says });
		expect_row({ "--svg", "replay " + t + " --svg " + out, 2, says });
		expect_row({ "--wave", "replay " + t + " --backend rtl --wave " + out, 2, says });
		expect_row({ "trace-info --json", "trace-info " + t + " --json " + out, 2, says });
	}
	expect_row({ "the input through a link", "replay " + d / "link.gz" + " --json " + t, 2,
		     "hwsched replay: --json " + t + " is the input trace " + d / "link.gz" +
			     " (the same file): refused" });
	int st = std::system((std::string(HWSCHED_BIN) + " trace-info " + t +
			      " --json /dev/stdout >> " + t + " 2>/dev/null").c_str());
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 2) << "stdout appending to the trace";
	EXPECT_EQ(slurp(t) == before, true) << "the trace changed";
	struct stat s;
	ASSERT_EQ(lstat((d / "link.gz").c_str(), &s), 0);
	EXPECT_TRUE(S_ISLNK(s.st_mode));
	// another file is fine, and /dev/null (a device) is written into
	CliRun r = hwsched("trace-info " + t + " --json " + d / "t.json");
	EXPECT_EQ(r.status, 0) << r.out;
	r = hwsched("trace-info /dev/null --json /dev/null");
	EXPECT_EQ(r.status, 2) << r.out;
	EXPECT_NE(r.out.find("/dev/null: no events"), std::string::npos) << r.out;
	CliRun listing = hwstest::shell("ls -A " + d.path);
	EXPECT_EQ(listing.out, "hard.gz\nlink.gz\nsub\nt.json\nt.txt.gz\n") << "a temporary file left";
}

// A valid trace whose last event lies 100,000 s after the rest: trace-info reads it at
// once and says so (the gap is idle time and a sleep).
TEST(BadInput, ATraceWhoseLastEventIsFarAfterTheRest)
{
	TempDir d;
	write_lines(d / "far.txt",
		    { "       a    10/10    [000]     6.000000: sched:sched_switch: prev_comm=swapper/0 "
		      "prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=a next_pid=10 next_prio=120",
		      "       a    10/10    [000]     6.000100: sched:sched_stat_runtime: comm=a "
		      "pid=10 runtime=100000 [ns]",
		      "       a    10/10    [000]     6.000100: sched:sched_switch: prev_comm=a "
		      "prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 "
		      "next_prio=120",
		      " swapper     0/0     [000] 100006.000100: sched:sched_waking: comm=a pid=10 "
		      "prio=120 target_cpu=000",
		      " swapper     0/0     [000] 100006.000110: sched:sched_switch: prev_comm=swapper/0 "
		      "prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=a next_pid=10 next_prio=120" });
	CliRun r = hwsched("trace-info " + d / "far.txt" + " --pid 10");
	ASSERT_EQ(r.status, 0) << r.out;
	EXPECT_NE(r.out.find("duration 100000000.110 ms, makespan 100000000.110 ms, CPU time "
			     "0.100 ms"), std::string::npos) << r.out;
	EXPECT_NE(r.out.find("busy %: CPU0 0.00\n"), std::string::npos) << r.out;
}

} // namespace
