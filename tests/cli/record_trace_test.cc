// record_trace_test.cc - the capture recipe, tools/record_trace.sh (traces/README.md): a
// trace it records (with perf where perf can record here, else from a saved perf script
// text) is one the reader loads, and its sidecar's "linux" member is what hwsched
// trace-info prints; what it must not do (replace a trace without --force, touch a path
// that is not a regular file, take a bad NAME, keep a trace above --max-kb or one the reader
// refuses) it refuses with nothing written; --refresh rewrites the figures only.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "tests/test_util.h"

namespace {

using hwstest::CliRun;
using hwstest::shell;
using hwstest::sidecar_linux;
using hwstest::slurp;

using hwstest::TempDir;

// The script with the hwsched under test, its arguments appended.
CliRun record(const std::string &args)
{
	return shell("HWSCHED=" HWSCHED_BIN " " + hwstest::repo_root() + "/tools/record_trace.sh " +
		     args);
}

// A small saved perf script text in the repository (the first 120 lines of make_j4).
std::string saved_text()
{
	return hwstest::repo_root() + "/tests/fuzz/corpus/trace/make_j4_head.txt";
}

// Files in @dir, dot files too, one a line.
std::string listing(const std::string &dir)
{
	return shell("ls -A '" + dir + "'").out;
}

// The sidecar of @dir/@name against the trace beside it: its keys, its capture command,
// and its "linux" member byte for byte what hwsched trace-info prints now.
void check_sidecar(const std::string &dir, const std::string &name, const std::string &command)
{
	std::string side = slurp(dir + "/" + name + ".json");
	ASSERT_FALSE(side.empty()) << dir << "/" << name << ".json";
	EXPECT_EQ(side.find("{\n  \"schema\": 1,\n  \"trace\": \"" + name + ".txt.gz\",\n  \"capture\": {"),
		  0u) << side;
	EXPECT_NE(side.find("\"command\": \"" + command + "\""), std::string::npos) << side;
	CliRun info = hwstest::hwsched("trace-info " + dir + "/" + name + ".txt.gz --json -");
	ASSERT_EQ(info.status, 0) << info.out;
	EXPECT_EQ(sidecar_linux(side), hwstest::without_provenance(info.out));
}

// Record a tiny trace with perf when it can record here (root, perf present, a probe
// recording works), else build it from a saved text: either way the reader loads it and
// its sidecar holds what trace-info says.
TEST(RecordTrace, RecordsATraceTheReaderLoads)
{
	TempDir d;
	bool live = getuid() == 0 &&
		    shell("perf sched record -o " + d / "probe.data" + " -- true").status == 0;
	std::remove((d / "probe.data").c_str());
	std::string cmd = live ? "perf bench sched pipe -l 200" : "make -j4";
	printf("RecordTrace: %s\n", live ? "recording with perf (root, perf sched record works)"
					 : "perf cannot record here: the recipe on a saved text");
	CliRun r = record("--dir " + d.path + (live ? "" : " --from-text " + saved_text()) +
			  " tiny -- " + cmd);
	ASSERT_EQ(r.status, 0) << r.out;
	EXPECT_NE(r.out.find("record_trace: wrote " + d / "tiny.txt.gz"), std::string::npos) << r.out;
	EXPECT_EQ(listing(d.path), "tiny.json\ntiny.txt.gz\n");
	struct stat st;
	ASSERT_EQ(stat((d / "tiny.txt.gz").c_str(), &st), 0);
	EXPECT_LT(st.st_size, 1024 * 1024);
	EXPECT_EQ(slurp(d / "tiny.txt.gz").substr(0, 2), "\x1f\x8b") << "gzip";
	check_sidecar(d.path, "tiny", cmd);
	std::string side = slurp(d / "tiny.json");
	if (live) {
		utsname u;
		ASSERT_EQ(uname(&u), 0);
		EXPECT_NE(side.find("\"kernel\": \"" + std::string(u.release) + "\""), std::string::npos);
		EXPECT_NE(side.find("\"cpus\": " + std::to_string(sysconf(_SC_NPROCESSORS_ONLN))),
			  std::string::npos) << side;
		// sched-pipe's two processes, perf-exec's tree
		EXPECT_NE(side.find("\"tasks\": 2,"), std::string::npos) << side;
	} else {
		EXPECT_NE(side.find("\"kernel\": \"unknown\""), std::string::npos) << side;
	}
}

// The recipe on a saved text, wherever the tests run: the capture says where it came from.
TEST(RecordTrace, BuildsTheSidecarFromASavedText)
{
	TempDir d;
	CliRun r = record("--dir " + d.path + " --from-text " + saved_text() + " head -- make -j4");
	ASSERT_EQ(r.status, 0) << r.out;
	check_sidecar(d.path, "head", "make -j4");
	std::string side = slurp(d / "head.json");
	for (const char *k : { "\"recorder\": \"tools/record_trace.sh --from-text\"",
			       "\"text\": \"make_j4_head.txt\"", "\"date\": \"unknown\"",
			       "    \"lines\": 120,\n", "    \"tasks\": 8,\n" })
		EXPECT_NE(side.find(k), std::string::npos) << k << "\n" << side;
	// the same text, gzipped, gives the same sidecar
	ASSERT_EQ(std::system(("gzip -c " + saved_text() + " > " + d / "saved.txt.gz").c_str()), 0);
	r = record("--dir " + d.path + " --from-text " + d / "saved.txt.gz" + " head2 -- make -j4");
	ASSERT_EQ(r.status, 0) << r.out;
	EXPECT_EQ(sidecar_linux(slurp(d / "head2.json")), sidecar_linux(side));
}

// What the recipe refuses, each with nothing written or replaced.
TEST(RecordTrace, RefusesWhatItMustNotTouch)
{
	TempDir d;
	const std::string from = " --from-text " + saved_text() + " ";
	CliRun r = record("--dir " + d.path + from + "t -- make -j4");
	ASSERT_EQ(r.status, 0) << r.out;
	const std::string trace = slurp(d / "t.txt.gz"), side = slurp(d / "t.json");

	// an existing trace is not replaced without --force
	r = record("--dir " + d.path + from + "t -- other");
	EXPECT_EQ(r.status, 2) << r.out;
	EXPECT_NE(r.out.find(d / "t.txt.gz" + " exists (--force replaces it)"), std::string::npos)
		<< r.out;
	EXPECT_EQ(slurp(d / "t.json"), side);
	// with --force it is, through a rename (the new command in the capture)
	r = record("--dir " + d.path + " --force" + from + "t -- other");
	EXPECT_EQ(r.status, 0) << r.out;
	EXPECT_NE(slurp(d / "t.json").find("\"command\": \"other\""), std::string::npos);
	EXPECT_EQ(slurp(d / "t.txt.gz"), trace);

	// a path that is not a regular file is left alone, --force or not
	ASSERT_EQ(symlink("/etc/hostname", (d / "l.json").c_str()), 0);
	ASSERT_EQ(mkdir((d / "dir.txt.gz").c_str(), 0755), 0);
	for (const char *name : { "l", "dir" }) {
		r = record("--dir " + d.path + " --force" + from + name + " -- x");
		EXPECT_EQ(r.status, 2) << r.out;
		EXPECT_NE(r.out.find("exists and is not a regular file: left alone"), std::string::npos)
			<< r.out;
	}
	struct stat st;
	ASSERT_EQ(lstat((d / "l.json").c_str(), &st), 0);
	EXPECT_TRUE(S_ISLNK(st.st_mode));
	EXPECT_EQ(access((d / "l.txt.gz").c_str(), F_OK), -1) << "written beside the link";

	// bad NAMEs
	for (const std::string &name : { std::string("Bad"), std::string("a/b"), std::string("../x"),
					 std::string(".x"), std::string("x y"), std::string(65, 'a') }) {
		r = record("--dir " + d.path + from + "'" + name + "' -- x");
		EXPECT_EQ(r.status, 2) << name << ": " << r.out;
		EXPECT_NE(r.out.find("NAME '" + name + "': lower-case letters"), std::string::npos)
			<< r.out;
	}
	r = record("--dir " + d.path + from + "-x -- x");
	EXPECT_EQ(r.status, 2) << r.out;

	// above --max-kb: refused, nothing written (2 KB gzipped against 1)
	r = record("--dir " + d.path + " --max-kb 1" + from + "big -- x");
	EXPECT_EQ(r.status, 1) << r.out;
	EXPECT_NE(r.out.find("big.txt.gz is 2 KB gzipped, above --max-kb 1"), std::string::npos)
		<< r.out;
	r = record("--dir " + d.path + " --max-kb 0" + from + "big -- x");
	EXPECT_EQ(r.status, 2) << r.out;

	// a text the reader refuses: nothing written
	FILE *f = fopen((d / "bad.txt").c_str(), "w");
	fputs("this is not a perf line\n", f);
	fclose(f);
	r = record("--dir " + d.path + " --from-text " + d / "bad.txt" + " bad -- x");
	EXPECT_EQ(r.status, 1) << r.out;
	EXPECT_NE(r.out.find("no 'COMM PID/TID [CPU]' header"), std::string::npos) << r.out;
	EXPECT_EQ(listing(d.path), "bad.txt\ndir.txt.gz\nl.json\nt.json\nt.txt.gz\n")
		<< "something written";
}

// --refresh rewrites the "linux" member from the trace and keeps the capture record.
TEST(RecordTrace, RefreshKeepsTheCapture)
{
	TempDir d;
	CliRun r = record("--dir " + d.path + " --from-text " + saved_text() + " t -- make -j4");
	ASSERT_EQ(r.status, 0) << r.out;
	std::string side = slurp(d / "t.json");
	size_t cap = side.find("  \"capture\": ");
	std::string capture = side.substr(cap, side.find('\n', cap) - cap);
	std::string stale = side.substr(0, side.find("  \"linux\": ")) + "  \"linux\": {}\n}\n";
	{
		FILE *f = fopen((d / "t.json").c_str(), "w");
		fputs(stale.c_str(), f);
		fclose(f);
	}
	r = record("--refresh " + d / "t.txt.gz");
	ASSERT_EQ(r.status, 0) << r.out;
	EXPECT_EQ(slurp(d / "t.json"), side);
	EXPECT_NE(slurp(d / "t.json").find(capture + "\n"), std::string::npos);
	EXPECT_EQ(listing(d.path), "t.json\nt.txt.gz\n");
	r = record("--refresh " + d / "none.txt.gz");
	EXPECT_EQ(r.status, 2) << r.out;
	r = record("--refresh " + d / "t.txt.gz" + " extra -- x");
	EXPECT_EQ(r.status, 2) << r.out;
}

} // namespace
