// shapes_test.cc - engine shapes on demand (sim/harness/hws_shape.h, docs/shapes.md): a
// shape that is not built is built on first use, once, even by two programs at once; the
// next use takes it from the cache; building off (--no-build) refuses with the command
// that builds it; parameters outside the spec are refused before anything is built.
//
// Each test has a cache of its own (HWS_SHAPES, a fresh folder), so the build really
// happens: 3 CPUs x 100 tasks, small, about 20 s of one core.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/hws_params.h"
#include "sim/harness/hws_shape.h"
#include "tests/test_util.h"

namespace {

using hwstest::CliRun;

// The repository: build/hwsched's grandparent.
// The repository's root (the test binary's, tests/test_util.h; HWSCHED_BIN may be the
// sanitized build/san/hwsched, one level deeper).
std::string repo_root()
{
	return hwstest::repo_root();
}

// A fresh, empty cache folder.
std::string fresh_cache(const char *name)
{
	std::string t = testing::TempDir() + "hws_shapes_" + name + "_XXXXXX";
	std::vector<char> buf(t.begin(), t.end());
	buf.push_back('\0');
	EXPECT_NE(mkdtemp(buf.data()), nullptr) << strerror(errno);
	return buf.data();
}

std::vector<std::string> entries(const std::string &dir)
{
	std::vector<std::string> v;
	DIR *d = opendir(dir.c_str());
	if (!d)
		return v;
	while (struct dirent *e = readdir(d))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			v.push_back(e->d_name);
	closedir(d);
	return v;
}

using hwstest::shell;

std::string with_cache(const std::string &cache, const std::string &args)
{
	return "HWS_SHAPES=" + cache + " " + HWSCHED_BIN + " " + args;
}

const char *const kSmall = "lockstep --cpus 3 --tasks 100 --seed 7 --commands 3000";
const char *const kSmallKey = "3x100x16g16";
const char *const kBuilding = "building engine shape 3x100x16g16 (Verilator, about ";

struct timespec mtime_of(const std::string &p)
{
	struct stat st{};
	EXPECT_EQ(stat(p.c_str(), &st), 0) << p;
	return st.st_mtim;
}

TEST(Shapes, KeysAreCanonical)
{
	hws_vsim_opts o{};
	char key[HWS_SHAPE_KEY_MAX];

	o = { 8, 256, 16, 16, 16, nullptr, 0, 0, 0 };
	hws_shape_key(&o, key, sizeof(key));
	EXPECT_STREQ(key, "8x256x16g16");
	o = { 2, 64, 16, 16, 16, nullptr, 0, 1, 1 };
	hws_shape_key(&o, key, sizeof(key));
	EXPECT_STREQ(key, "2x64x16g16nbne");
	o = { 64, 4096, 4, 8, 1, nullptr, 0, 0, 1 };
	hws_shape_key(&o, key, sizeof(key));
	EXPECT_STREQ(key, "64x4096x4r8g1ne");
	// Ports: a suffix only above one, so a one-port shape keeps its key.
	o = { 8, 256, 16, 16, 16, nullptr, 0, 0, 0, 1 };
	hws_shape_key(&o, key, sizeof(key));
	EXPECT_STREQ(key, "8x256x16g16");
	o = { 2, 64, 16, 16, 16, nullptr, 0, 1, 1, 4 };
	hws_shape_key(&o, key, sizeof(key));
	EXPECT_STREQ(key, "2x64x16g16nbnep4");
	// BALANCE lanes: a suffix only below NR_CPUS (0 and NR_CPUS are the same shape).
	o = { 8, 256, 16, 16, 16, nullptr, 0, 0, 0, 1, 8 };
	hws_shape_key(&o, key, sizeof(key));
	EXPECT_STREQ(key, "8x256x16g16");
	o = { 4, 256, 16, 16, 16, nullptr, 0, 0, 1, 2, 1 };
	hws_shape_key(&o, key, sizeof(key));
	EXPECT_STREQ(key, "4x256x16g16nebl1p2");
	// Without the interrupt: ni after nb and ne, before the lanes and the ports.
	o = { 8, 256, 16, 16, 16, nullptr, 0, 1, 1, 1, 0, 1 };
	hws_shape_key(&o, key, sizeof(key));
	EXPECT_STREQ(key, "8x256x16g16nbneni");
	o = { 2, 16, 4, 4, 16, nullptr, 0, 0, 0, 2, 0, 1 };
	hws_shape_key(&o, key, sizeof(key));
	EXPECT_STREQ(key, "2x16x4g16nip2");
	o = { 4, 256, 16, 16, 16, nullptr, 0, 0, 0, 1, 2, 1 };
	hws_shape_key(&o, key, sizeof(key));
	EXPECT_STREQ(key, "4x256x16g16nibl2");
	// PIPE = 1 (overlapped issue): pi, last
	o = { 8, 256, 16, 16, 16, nullptr, 0, 0, 0, 1, 0, 0, 1 };
	hws_shape_key(&o, key, sizeof(key));
	EXPECT_STREQ(key, "8x256x16g16pi");
	o = { 2, 64, 4, 8, 16, nullptr, 0, 1, 1, 2, 0, 1, 1 };
	hws_shape_key(&o, key, sizeof(key));
	EXPECT_STREQ(key, "2x64x4r8g16nbnenip2pi");
	o = { 4, 256, 16, 16, 16, nullptr, 0, 0, 0, 2, 2, 0, 1 };
	hws_shape_key(&o, key, sizeof(key));
	EXPECT_STREQ(key, "4x256x16g16bl2p2pi");
}

// The RTL's range checks are the C ones: rtl/hws_params.vh's test of each parameter has the
// table's bounds (lib/hws_params.h), and Verilator stops hws_top at a value one past them.
TEST(Shapes, RtlRangesAreTheCOnes)
{
	const std::string root = repo_root();
	FILE *f = fopen((root + "/rtl/hws_params.vh").c_str(), "r");
	ASSERT_NE(f, nullptr);
	std::string vh;
	char buf[4096];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		vh.append(buf, n);
	fclose(f);
	hws_params def;
	hws_params_default(&def);
	for (unsigned i = 0; i < HWS_NR_PARAMS; i++) {
		const struct hws_param_desc *d = hws_param_desc(i);
		/* the RTL takes 0 too where 0 means another value and is the default */
		const unsigned lo = d->has_zero && d->def == 0 ? 0 : d->min;
		const std::string max = d->max_param >= 0 ? hws_param_desc(d->max_param)->name :
							    std::to_string(d->max);
		const std::string want = std::string("`define HWS_PARAM_BAD_") + d->name + " (" +
					 d->name + " < " + std::to_string(lo) + " || " + d->name +
					 " > " + max + ")";
		EXPECT_NE(vh.find(want), std::string::npos) << want;
	}
	for (const char *g : { "-GNR_CPUS=65", "-GCMD_DEPTH=1", "-GNR_PORTS=5", "-GBAL_LANES=9",
			       "-GPIPE=2" }) {
		CliRun r = shell("cd " + root + " && verilator --lint-only -Wall -Irtl --top-module hws_top " +
				 g + " rtl/*.v");
		EXPECT_NE(r.status, 0) << g;
		EXPECT_NE(r.out.find("hws_top: illegal parameters"), std::string::npos) << g << ": " << r.out;
	}
	CliRun r = shell("cd " + root + " && verilator --lint-only -Wall -Irtl --top-module hws_top "
			 "-GNR_CPUS=64 -GCMD_DEPTH=2 -GNR_PORTS=4 -GBAL_LANES=1 -GPIPE=1 rtl/*.v");
	EXPECT_EQ(r.status, 0) << r.out;
}

// Out of the spec's ranges: refused by name before any build (the cache stays empty), by
// the harness and by the make target a user may call by hand.
TEST(Shapes, BadParametersAreRefusedBeforeBuilding)
{
	const std::string cache = fresh_cache("bad");
	ASSERT_EQ(setenv("HWS_SHAPES", cache.c_str(), 1), 0);
	struct Bad {
		hws_vsim_opts o;
		const char *says;
	} bad[] = {
		{ { 0, 256, 16, 16, 16, nullptr, 0, 0, 0 }, "NR_CPUS must be 1..64" },
		{ { 65, 256, 16, 16, 16, nullptr, 0, 0, 0 }, "NR_CPUS must be 1..64" },
		{ { 8, 4097, 16, 16, 16, nullptr, 0, 0, 0 }, "NR_TASKS must be 1..4096" },
		{ { 8, 256, 1, 1, 16, nullptr, 0, 0, 0 }, "CMD_DEPTH must be 2..32" },
		{ { 8, 256, 16, 33, 16, nullptr, 0, 0, 0 }, "RES_DEPTH must be 2..32" },
		{ { 8, 256, 16, 16, 65, nullptr, 0, 0, 0 }, "NR_GROUPS must be 1..64" },
		{ { 8, 256, 16, 16, 16, nullptr, 0, 2, 0 }, "no_balance must be 0 or 1" },
		{ { 8, 256, 16, 16, 16, nullptr, 0, 0, 0, 5 }, "NR_PORTS must be 1..4" },
		{ { 8, 256, 16, 16, 16, nullptr, 0, 0, 0, 1, 9 }, "BAL_LANES must be 1..NR_CPUS" },
		{ { 8, 256, 16, 16, 16, nullptr, 0, 1, 0, 1, 2 }, "BAL_LANES must be 0 without BALANCE" },
		{ { 8, 256, 16, 16, 16, nullptr, 0, 0, 0, 1, 0, 0, 2 }, "PIPE must be 0 or 1" },
	};
	for (const Bad &b : bad) {
		hws_vsim *s = nullptr;
		char msg[512] = "";
		EXPECT_EQ(hws_vsim_create(&s, &b.o, msg, sizeof(msg)), -EINVAL) << b.says;
		EXPECT_NE(strstr(msg, b.says), nullptr) << msg;
		EXPECT_EQ(s, nullptr);
	}
	unsetenv("HWS_SHAPES");
	EXPECT_TRUE(entries(cache).empty()) << "something was built for a bad shape";

	const std::string make = "make -s -C " + repo_root() + " shape SHAPES_DIR=" + cache + " SHAPE=";
	struct {
		const char *key, *says;
	} keys[] = {
		{ "65x16x16g16", "65x16x16g16: NR_CPUS must be 1..64 (got 65)" },
		{ "8x5000x16g16", "NR_TASKS must be 1..4096 (got 5000)" },
		{ "8x256x40g16", "CMD_DEPTH must be 2..32 (got 40)" },
		{ "8x256x16g0", "NR_GROUPS must be 1..64 (got 0)" },
		{ "8x256x16r16g16", "not canonical: use 8x256x16g16" },
		{ "8x256x16", "is not a shape key" },
		{ "8x256x16g16nenb", "is not a shape key" },
		{ "8x256x16g16p5", "NR_PORTS must be 1..4 (got 5)" },
		{ "8x256x16g16p1", "not canonical: use 8x256x16g16" },
		{ "8x256x16g16p4ne", "is not a shape key" },
		{ "8x256x16g16bl9", "BAL_LANES must be 1..8 (got 9)" },
		{ "8x256x16g16bl0", "BAL_LANES must be 1..8 (got 0)" },
		{ "8x256x16g16bl8", "not canonical: use 8x256x16g16" },
		{ "8x256x16g16nbbl2", "bl<lanes> (BAL_LANES) needs BALANCE" },
		{ "8x256x16g16p2bl2", "is not a shape key" },
		{ "8x256x16g16ninb", "is not a shape key" },
		{ "8x256x16g16p2ni", "is not a shape key" },
		{ "8x256x16g16bl2ni", "is not a shape key" },
		{ "8x256x16g16p1pi", "not canonical: use 8x256x16g16pi" },
		{ "8x256x16g16pip2", "is not a shape key" },
		{ "8x256x16g16pini", "is not a shape key" },
	};
	for (const auto &k : keys) {
		CliRun r = shell(make + k.key);
		EXPECT_NE(r.status, 0) << k.key << ": " << r.out;
		EXPECT_NE(r.out.find(k.says), std::string::npos) << k.key << ": " << r.out;
	}
	for (const std::string &e : entries(cache))
		EXPECT_EQ(e.rfind(".", 0), 0u) << "a shape folder for a bad key: " << e;

	CliRun r = hwstest::hwsched("lockstep --cpus 65 --commands 10");
	EXPECT_EQ(r.status, 2) << r.out;
	EXPECT_NE(r.out.find("--cpus '65': expected a whole number in 1..64"), std::string::npos) << r.out;
}

// PIPE = 1 (the key's pi) is parsed and passed to hws_top, which builds overlapped issue
// (docs/accelerator.md 4.1.1): the shape is made, and the rtl side of a lockstep run opens
// it - the driver's identity check compares FEATURES, PIPE bit included (FEATURES.PIPE
// = 1), with the configuration - and agrees with the model on every edge.
TEST(Shapes, PipeShapeBuildsAndIdentifiesAsPipe)
{
	const std::string cache = fresh_cache("pipe");
	CliRun r = shell("make -s -C " + repo_root() + " shape SHAPES_DIR=" + cache +
			 " SHAPE=1x16x16g16pi");
	EXPECT_EQ(r.status, 0) << r.out;
	bool made = false;
	for (const std::string &e : entries(cache))
		made |= e == "1x16x16g16pi";
	EXPECT_TRUE(made) << "no shape folder 1x16x16g16pi in " << cache;

	r = shell(with_cache(cache, "lockstep --cpus 1 --tasks 16 --pipe --seed 5 "
				    "--commands 3000 --no-build"));
	EXPECT_EQ(r.status, 0) << r.out;
	EXPECT_NE(r.out.find("PIPE=1"), std::string::npos) << r.out;
	EXPECT_NE(r.out.find("lockstep: 3000 commands, 0 mismatches"), std::string::npos) << r.out;
	// The build without it is another shape: not in this cache, so refused (--no-build).
	r = shell(with_cache(cache, "lockstep --cpus 1 --tasks 16 --seed 5 --commands 10 "
				    "--no-build"));
	EXPECT_EQ(r.status, 1) << r.out;
	EXPECT_NE(r.out.find("engine shape 1x16x16g16 is not built"), std::string::npos) << r.out;
}

// Building off: a shape not in the cache is refused, with the command that builds it; a
// shape is never swapped for another one (the default shape is not given for 3 CPUs, nor
// the build with BALANCE for one without).
TEST(Shapes, NoBuildRefusesWithTheCommandThatBuilds)
{
	const std::string cache = fresh_cache("nobuild");
	const std::string cmd = "make -C " + repo_root() + " shape SHAPE=";

	CliRun r = shell(with_cache(cache, std::string(kSmall) + " --no-build"));
	EXPECT_EQ(r.status, 1) << r.out;
	EXPECT_NE(r.out.find("engine shape 3x100x16g16 is not built"), std::string::npos) << r.out;
	EXPECT_NE(r.out.find(cmd + kSmallKey + " SHAPES_DIR=" + cache), std::string::npos) << r.out;
	EXPECT_EQ(r.out.find("building engine shape"), std::string::npos) << r.out;

	r = shell(with_cache(cache, "run --sched hw --backend rtl --no-hw-balance --topology "
				    "core=2 --workload mix:tasks=4 --duration 1ms --no-build"));
	EXPECT_EQ(r.status, 1) << r.out;
	EXPECT_NE(r.out.find(cmd + "2x256x16g16nb SHAPES_DIR="), std::string::npos) << r.out;
	// Each option of the shape reaches the key: FIFO depth and no BALANCE, no counters.
	r = shell(with_cache(cache, "lockstep --cpus 2 --tasks 16 --depth 4 --no-balance --no-build"));
	EXPECT_EQ(r.status, 1) << r.out;
	EXPECT_NE(r.out.find(cmd + "2x16x4g16nb SHAPES_DIR="), std::string::npos) << r.out;
	r = shell(with_cache(cache, "run --backend rtl --no-err-counters --topology core=4 --duration 1ms "
				    "--no-build"));
	EXPECT_EQ(r.status, 1) << r.out;
	EXPECT_NE(r.out.find(cmd + "4x256x16g16ne SHAPES_DIR="), std::string::npos) << r.out;
	// The virtual platform's engine is the same shared object (build/hwsched_vp).
	r = shell(with_cache(cache, "vp --topology core=3 --workload mix:tasks=6 --duration 1ms "
				    "--no-build"));
	EXPECT_EQ(r.status, 1) << r.out;
	EXPECT_NE(r.out.find(cmd + "3x256x16g16 SHAPES_DIR="), std::string::npos) << r.out;
	EXPECT_TRUE(entries(cache).empty()) << "built although building is off";

	// The same refusal through the harness, in this process.
	ASSERT_EQ(setenv("HWS_SHAPES", cache.c_str(), 1), 0);
	hws_shape_set_build(0);
	hws_vsim_opts o = { 8, 256, 16, 16, 16, nullptr, 0, 0, 0, 1 };
	hws_vsim *s = nullptr;
	char msg[1024] = "";
	EXPECT_EQ(hws_vsim_create(&s, &o, msg, sizeof(msg)), -ENOTSUP);
	EXPECT_NE(strstr(msg, "shape SHAPE=8x256x16g16 SHAPES_DIR="), nullptr) << msg;
	hws_shape_set_build(1);
	unsetenv("HWS_SHAPES");
}

// Two programs need the same missing shape at once: both run, and the cache ends with the
// one shape, complete (its shared object and its list of sources, nothing half-built
// beside it). The next run takes it from the cache: no build, the object untouched.
TEST(Shapes, BuiltOnDemandOnceEvenByTwoAtOnceThenReused)
{
	const std::string cache = fresh_cache("ondemand");
	const std::string a = testing::TempDir() + "hws_shapes_a.out";
	const std::string b = testing::TempDir() + "hws_shapes_b.out";

	CliRun both = shell("( " + with_cache(cache, kSmall) + " > " + a + " 2>&1; echo a=$? >> " +
			    a + " ) & ( " + with_cache(cache, kSmall) + " > " + b +
			    " 2>&1; echo b=$? >> " + b + " ) & wait");
	ASSERT_EQ(both.status, 0) << both.out;
	const std::string out_a = hwstest::slurp(a), out_b = hwstest::slurp(b);
	for (const std::string *o : { &out_a, &out_b }) {
		EXPECT_NE(o->find("lockstep: 3000 commands, 0 mismatches"), std::string::npos) << *o;
		EXPECT_TRUE(o->find("\na=0") != std::string::npos ||
			    o->find("\nb=0") != std::string::npos) << *o;
	}
	EXPECT_TRUE(out_a.find(kBuilding) != std::string::npos ||
		    out_b.find(kBuilding) != std::string::npos)
		<< "no progress line:\n" << out_a << "\n" << out_b;

	std::vector<std::string> shapes;
	for (const std::string &e : entries(cache)) {
		EXPECT_EQ(e.find(".tmp-"), std::string::npos) << "left behind: " << e;
		EXPECT_EQ(e.find(".log"), std::string::npos) << "left behind: " << e;
		if (e[0] != '.')
			shapes.push_back(e);
	}
	ASSERT_EQ(shapes, std::vector<std::string>{ kSmallKey });
	const std::string dir = cache + "/" + kSmallKey;
	std::vector<std::string> files = entries(dir);
	std::sort(files.begin(), files.end());
	EXPECT_EQ(files, (std::vector<std::string>{ HWS_SHAPE_SO, "sources" }));
	EXPECT_NE(hwstest::slurp(dir + "/sources").find("rtl/hws_top.v"), std::string::npos);

	const struct timespec t0 = mtime_of(dir + "/" + HWS_SHAPE_SO);
	CliRun again = shell(with_cache(cache, kSmall));
	EXPECT_EQ(again.status, 0) << again.out;
	EXPECT_EQ(again.out.find("building engine shape"), std::string::npos) << again.out;
	const struct timespec t1 = mtime_of(dir + "/" + HWS_SHAPE_SO);
	EXPECT_TRUE(t0.tv_sec == t1.tv_sec && t0.tv_nsec == t1.tv_nsec) << "rebuilt";
	// And with building off, the cached shape is what runs.
	again = shell(with_cache(cache, std::string(kSmall) + " --no-build"));
	EXPECT_EQ(again.status, 0) << again.out;
}

} // namespace
