// vp_cli_test.cc - hwsched vp (the SystemC virtual platform, docs/vp.md) as a user runs it,
// against hwsched run. Needs build/hwsched_vp (make vp; make test builds it).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <regex>
#include <string>
#include <unistd.h>

#include "lib/hws_params.h"
#include "tests/test_util.h"

namespace {

using hwstest::hwsched;
using hwstest::slurp;
using hwstest::CliRun;

// The number after "key": in a JSON text (NaN when absent).
double json_num(const std::string &j, const std::string &key)
{
	std::smatch m;
	if (!std::regex_search(j, m, std::regex("\"" + key + "\": (-?[0-9.eE+-]+)")))
		return NAN;
	return std::stod(m[1]);
}

// The report of `run` without the line naming the backend and without vp's own section.
std::string machine_report(const std::string &out)
{
	std::string s = out;
	size_t vp = s.find("\nvirtual platform:");
	if (vp != std::string::npos)
		s.erase(vp);
	return std::regex_replace(s, std::regex(", backend [a-z]+, seed"), ", backend X, seed");
}

std::string tmp(const std::string &name)
{
	return "/tmp/hws_vp_test_" + std::to_string(getpid()) + "_" + name;
}

unsigned seed_of()
{
	const char *e = std::getenv("HWS_SEED");
	return e ? (unsigned)std::strtoul(e, nullptr, 0) : 1u;
}

} // namespace

TEST(Vp, HelpAndBadInput)
{
	for (const char *a : { "vp --help", "help vp" }) {
		CliRun r = hwsched(a);
		EXPECT_EQ(r.status, 0) << a;
		for (const char *o : { "--bus-latency", "--bus-read-latency", "--bus-write-latency",
				       "--posted-writes on|off", "--write-accept", "--ports" })
			EXPECT_NE(r.out.find(o), std::string::npos) << a << ": " << o;
	}
	struct {
		const char *args, *says;
		int status;
	} bad[] = {
		{ "vp --bus-latency -5", "--bus-latency '-5'", 2 },
		{ "vp --bus-latency 10x", "--bus-latency '10x'", 2 },
		{ "vp --backend rtl", "--backend is an option of 'run'", 2 },
		{ "vp --wave x.fst", "--wave is an option of 'run'", 2 },
		{ "vp --no-hw-balance", "--no-hw-balance is an option of 'run'", 2 },
		{ "run --bus-latency 5", "--bus-latency is an option of 'vp'", 2 },
		{ "vp --workload nosuch", "workload 'nosuch': unknown", 2 },
		{ "vp --posted-writes maybe", "--posted-writes 'maybe': expected on or off", 2 },
		{ "vp --posted-writes ON", "--posted-writes 'ON': expected on or off", 2 },
		{ "vp --posted-writes", "--posted-writes", 2 },
		{ "vp --bus-read-latency -1", "--bus-read-latency '-1'", 2 },
		{ "vp --bus-write-latency 1x", "--bus-write-latency '1x'", 2 },
		{ "vp --write-accept nan", "--write-accept 'nan'", 2 },
		{ "vp --ports 0", "--ports '0': expected a whole number in 1..64", 2 },
		{ "vp --ports 2.5", "--ports '2.5'", 2 },
		{ "vp --ports 65", "--ports '65'", 2 },
		{ "vp --workload hackbench:groups=1,loops=1 --topology core=8 --ports 9",
		  "--ports 9: more ports than the topology's 8 CPUs", 2 },
		{ "run --posted-writes on", "--posted-writes is an option of 'vp'", 2 },
		{ "run --ports 2", "--ports is an option of 'vp'", 2 },
	};
	for (const auto &b : bad) {
		CliRun r = hwsched(b.args);
		EXPECT_EQ(r.status, b.status) << b.args << ": " << r.out;
		EXPECT_NE(r.out.find(b.says), std::string::npos) << b.args << ": " << r.out;
	}
}

// The equivalence: with no interconnect latency (and the port not contended), the
// virtual platform makes exactly the decisions of `run` on the rtl backend, whose bus_ns
// then is the two edges of an access that does not wait: the same report line for line
// (switches, migrations, per-task runtimes and delays, overhead, engine traffic) and the
// same JSON. And at 100 ns, the same against bus_ns = 120.
TEST(Vp, ZeroLatencyMakesTheDecisionsOfRunOnRtl)
{
	const unsigned seed = seed_of();
	const struct {
		const char *args;
		double lat;
	} cases[] = {
		{ "--workload hackbench:groups=2,loops=5 --topology pkg=2,core=2,smt=2", 0 },
		{ "--workload tbench:clients=16 --topology pkg=2,core=2,smt=2 --duration 60ms", 0 },
		{ "--workload mix:tasks=40,burst=300,sleep=300,groups=2 --topology numa=2,core=2,smt=2 "
		  "--duration 100ms", 0 },
		{ "--workload hackbench:groups=2,loops=5 --topology core=8", 100 },
	};
	for (const auto &c : cases) {
		const std::string common = std::string(c.args) + " --seed " + std::to_string(seed) +
					   " --top 1000";
		const std::string ja = tmp("run.json"), jb = tmp("vp.json");
		char bus[64], lat[64];
		snprintf(bus, sizeof(bus), "%g", c.lat + 20);
		snprintf(lat, sizeof(lat), "%g", c.lat);
		// The platform's bus reaches the POP/PEEK windows, so both run the firmware's
		// posted protocol (docs/firmware.md, "Bus protocol").
		CliRun a = hwsched("run --sched hw --backend rtl --cost bus_ns=" +
				std::string(bus) + " " + common + " --json " + ja);
		CliRun b = hwsched("vp --sched hw --bus-latency " + std::string(lat) +
				" --posted-writes off --no-contention " + common + " --json " + jb);
		SCOPED_TRACE(std::string(c.args) + ", HWS_SEED=" + std::to_string(seed));
		ASSERT_EQ(a.status, 0) << a.out;
		ASSERT_EQ(b.status, 0) << b.out;
		EXPECT_NE(b.out.find("virtual platform: 8 initiators, engine 8x256x16"),
			  std::string::npos) << b.out;
		EXPECT_EQ(machine_report(a.out), machine_report(b.out));
		std::string x = slurp(ja), y = slurp(jb);
		EXPECT_GT(json_num(x, "engine_mmio"), 1000) << x;
		EXPECT_EQ(std::regex_replace(x, std::regex("\"backend\": \"rtl\""), "B"),
			  std::regex_replace(y, std::regex("\"backend\": \"tlm\""), "B"));
		std::remove(ja.c_str());
		std::remove(jb.c_str());
	}
}

// Every access's annotated time is the configured latency plus its engine edges plus the
// time it waited for the port: over a whole run, bus_ns = accesses x L + edges x clock +
// wait, at every L; without contention nothing waits; with it, something does at a high
// latency on 8 CPUs; and the scheduler overhead grows with L.
TEST(Vp, AnnotatedTimeIsLinearInTheLatency)
{
	const std::string wl = "--workload tbench:clients=16 --topology pkg=2,core=2,smt=2 "
			       "--duration 40ms --seed " + std::to_string(seed_of());
	double last_overhead = -1;

	for (double L : { 0.0, 100.0, 400.0, 1600.0 })
		for (int contend = 0; contend < 2; contend++) {
			const std::string jv = tmp("lin.vp.json"), jm = tmp("lin.json");
			char lat[64];
			snprintf(lat, sizeof(lat), "%g", L);
			CliRun r = hwsched("vp " + wl + " --bus-latency " + lat + " --posted-writes off" +
					(contend ? "" : " --no-contention") + " --vp-json " + jv +
					" --json " + jm);
			SCOPED_TRACE("latency " + std::string(lat) + (contend ? " contended" : ""));
			ASSERT_EQ(r.status, 0) << r.out;
			std::string v = slurp(jv), m = slurp(jm);
			double acc = json_num(v, "accesses"), edges = json_num(v, "edges"),
			       bus = json_num(v, "bus_ns"), wait = json_num(v, "wait_ns");
			ASSERT_GT(acc, 10000) << v;
			EXPECT_NEAR(bus, acc * L + edges * 10 + wait, 1e-9 * bus + 0.01) << v;
			if (!contend) {
				EXPECT_EQ(wait, 0) << v;
			} else if (L >= 400) {
				EXPECT_GT(wait, 0) << v;
			}
			double ov = json_num(m, "sched_overhead_pct");
			if (!contend) {
				EXPECT_GT(ov, last_overhead) << m;
				last_overhead = ov;
			}
			std::remove(jv.c_str());
			std::remove(jm.c_str());
		}
}

// Posted writes over a whole run: each access is charged by the interconnect's rules
// (docs/vp.md): bus_ns = reads x read latency + writes not posted x write latency +
// posted writes x acceptance + the edges of the accesses charged x clock + waiting for a
// port + reads waiting behind posted writes. With as many ports as CPUs no access waits
// for its port (a CPU never overlaps itself); posting lowers the overhead against the
// same bus with writes not posted; a read's wait behind its posted writes is real.
TEST(Vp, PostedWritesAndPortsChargeByTheRules)
{
	const std::string wl = "--workload tbench:clients=16 --topology pkg=2,core=2,smt=2 "
			       "--duration 40ms --seed " + std::to_string(seed_of());
	const double R = 150, W = 250, A = 4;
	double ov_off = -1, ov_on = -1;

	for (const char *ports : { "1", "2", "8" })
		for (int posted = 0; posted < 2; posted++) {
			const std::string jv = tmp("posted.vp.json"), jm = tmp("posted.json");
			// --write-accept only where writes are posted (else it is refused)
			CliRun r = hwsched("vp " + wl + " --bus-read-latency 150 --bus-write-latency 250" +
					(posted ? " --write-accept 4" : "") + " --ports " + ports +
					" --posted-writes " + (posted ? "on" : "off") + " --vp-json " + jv +
					" --json " + jm);
			SCOPED_TRACE(std::string(ports) + " ports, posted " + (posted ? "on" : "off"));
			ASSERT_EQ(r.status, 0) << r.out;
			EXPECT_NE(r.out.find("bus latency 150 ns per read, 250 ns per write, " +
					     std::string(ports) + " port"), std::string::npos) << r.out;
			std::string v = slurp(jv), m = slurp(jm);
			const double acc = json_num(v, "accesses"), reads = json_num(v, "reads"),
				     pst = json_num(v, "posted"), edges = json_num(v, "edges"),
				     pedges = json_num(v, "posted_edges"), bus = json_num(v, "bus_ns"),
				     wait = json_num(v, "wait_ns"), behind = json_num(v, "behind_ns");
			ASSERT_GT(acc, 10000) << v;
			const double writes = acc - reads;
			ASSERT_GT(writes, 1000) << v;
			if (posted) {
				EXPECT_EQ(pst, writes) << v;
				EXPECT_GT(behind, 0) << v;
			} else {
				EXPECT_EQ(pst, 0) << v;
				EXPECT_EQ(pedges, 0) << v;
				EXPECT_EQ(behind, 0) << v;
			}
			EXPECT_NEAR(bus, reads * R + (writes - pst) * W + pst * A + (edges - pedges) * 10 +
					 wait + behind, 1e-9 * bus + 0.05) << v;
			if (!strcmp(ports, "8"))
				EXPECT_EQ(wait, 0) << v;
			if (!strcmp(ports, "1")) {
				double ov = json_num(m, "sched_overhead_pct");
				(posted ? ov_on : ov_off) = ov;
			}
			std::remove(jv.c_str());
			std::remove(jm.c_str());
		}
	EXPECT_LT(ov_on, ov_off) << "posting the writes did not lower the overhead";
}

// The per-decision report's balance row counts every BALANCE the firmware makes, with the
// accesses each protocol spends on it (docs/firmware.md, "Bus protocol"): the synchronous
// one the CMD write, RESULT and the four BAL_* registers, 6; the posted one the CMD write
// and RESULT, then BAL_THIS, BAL_MAX and BAL_AVG only for the verdicts whose loads the
// policy reads: 2 or 5, and 2 at least once here unless every answer needed its loads.
TEST(Vp, TheBalanceRowCountsWhatEachProtocolReads)
{
	const std::string wl = "--workload mix:tasks=8,burst=200,sleep=100,msg=0.3 --topology "
			       "pkg=2,core=4 --duration 25ms --bus-latency 100 --seed " +
			       std::to_string(seed_of());
	for (int sync = 0; sync < 2; sync++) {
		const std::string jv = tmp("bal.vp.json");
		CliRun r = hwsched("vp --sched hw " + wl + (sync ? " --sync-cmds" : "") +
				   " --vp-json " + jv);
		SCOPED_TRACE(sync ? "synchronous" : "posted");
		ASSERT_EQ(r.status, 0) << r.out;
		std::smatch m;
		ASSERT_TRUE(std::regex_search(r.out, m, std::regex("firmware: ([0-9]+) balance queries")))
			<< r.out;
		const double queries = std::stod(m[1]);
		ASSERT_GT(queries, 100) << r.out;
		std::string v = slurp(jv);
		size_t at = v.find("\"balance\"");
		ASSERT_NE(at, std::string::npos) << v;
		const std::string row = v.substr(at);
		EXPECT_EQ(json_num(row, "count"), queries) << row;
		const double mean = json_num(row, "mmio_mean"), p99 = json_num(row, "mmio_p99");
		if (sync) {
			EXPECT_EQ(mean, 6) << row;
		} else {
			EXPECT_GE(mean, 2) << row;
			EXPECT_LE(p99, 5) << row;
			EXPECT_LT(mean, 5) << row << ": no balanced domain read 2";
		}
		std::remove(jv.c_str());
	}
}

// --bal-lean on the platform (docs/vp.md): the engine of the shape ln, whose BALANCE takes
// the lean unit's cycles, 218 + 21 N + N^2 (docs/accelerator.md 8.2.1; hws_bal_latency_lean()),
// where the fast unit takes hws_bal_latency(). With --sync-cmds every BALANCE is 6 accesses
// (the CMD write, the RESULT read that waits for the command, the four BAL_* reads), each 2
// edges of the reference master besides the command's own cycles (docs/vp.md, "The
// interconnect's rules", 5): every query costs exactly 2 x 6 + the unit's latency. Refused
// where it would do nothing: under a software scheduler (no engine).
TEST(Vp, TheLeanBalanceTakesItsFormulasCycles)
{
	const unsigned cpus = 8, accesses = 6, edges_per_access = 2;
	const std::string wl = "--workload mix:tasks=8,burst=200,sleep=100,msg=0.3 --topology "
			       "pkg=2,core=4 --duration 10ms --bus-latency 100 --sync-cmds --seed " +
			       std::to_string(seed_of());
	const struct {
		const char *opt;
		unsigned latency;
	} units[] = { { "", hws_bal_latency(cpus, cpus) }, { " --bal-lean", hws_bal_latency_lean(cpus) } };
	ASSERT_EQ(hws_bal_latency_lean(cpus), 450u);	// the figure docs/accelerator.md gives for 8
	for (const auto &u : units) {
		SCOPED_TRACE(*u.opt ? "lean" : "fast");
		const std::string jv = tmp("lean.vp.json");
		CliRun r = hwsched("vp --sched hw" + std::string(u.opt) + " " + wl + " --vp-json " + jv);
		ASSERT_EQ(r.status, 0) << r.out;
		EXPECT_EQ(r.out.find("engine 8x256x16 with the lean BALANCE") != std::string::npos,
			  *u.opt != 0) << r.out;
		std::string v = slurp(jv);
		size_t at = v.find("\"balance\"");
		ASSERT_NE(at, std::string::npos) << v;
		const std::string row = v.substr(at);
		EXPECT_GT(json_num(row, "count"), 10) << row;
		EXPECT_EQ(json_num(row, "mmio_mean"), accesses) << row;
		EXPECT_EQ(json_num(row, "cycles_mean"), accesses * edges_per_access + u.latency) << row;
		EXPECT_EQ(json_num(row, "cycles_p99"), accesses * edges_per_access + u.latency) << row;
		std::remove(jv.c_str());
	}
	CliRun r = hwsched("vp --sched o1 --bal-lean " + wl.substr(0, wl.find(" --bus-latency")));
	EXPECT_EQ(r.status, 2) << r.out;
	EXPECT_NE(r.out.find("--bal-lean is an option of --sched hw (got 'o1'"), std::string::npos)
		<< r.out;
}

// The software schedulers run on the platform too (no engine, no bus traffic), with the
// same results as run.
TEST(Vp, SoftwareSchedulersRunWithoutAnEngine)
{
	const std::string wl = "--workload hackbench:groups=1,loops=5 --topology core=4 --top 50";
	for (const char *s : { "o1", "linux24", "cfs", "eevdf" }) {
		CliRun a = hwsched(std::string("run --sched ") + s + " " + wl);
		CliRun b = hwsched(std::string("vp --sched ") + s + " " + wl);
		ASSERT_EQ(a.status, 0) << a.out;
		ASSERT_EQ(b.status, 0) << b.out;
		// a bus latency would do nothing without an engine: refused
		CliRun c = hwsched(std::string("vp --sched ") + s + " --bus-latency 500 " + wl);
		EXPECT_EQ(c.status, 2) << c.out;
		EXPECT_NE(c.out.find("--bus-latency is an option of --sched hw"), std::string::npos)
			<< c.out;
		EXPECT_EQ(machine_report(a.out), machine_report(b.out)) << s;
		EXPECT_NE(b.out.find("engine none"), std::string::npos) << b.out;
		EXPECT_NE(b.out.find("bus: 0 MMIO accesses"), std::string::npos) << b.out;
	}
}

// --svg-window on the virtual platform: its engine is sized by a dry run of the machine
// without --svg, which must not inherit the window (docs/simulator.md, "The timeline").
TEST(Vp, DrawsAWindowOfItsTimeline)
{
	const std::string out = "build/vp_window.svg";
	remove(out.c_str());
	CliRun r = hwsched("vp --sched hw --workload hackbench:groups=1,loops=2 --topology core=2 "
			   "--svg " + out + " --svg-window 0:1ms");
	ASSERT_EQ(r.status, 0) << r.out;
	EXPECT_NE(slurp(out).find("drawn: 0 to 1 ms"), std::string::npos);
	r = hwsched("vp --sched hw --workload hackbench:groups=1,loops=2 --topology core=2 "
		    "--svg-window 0:1ms");
	EXPECT_EQ(r.status, 2) << r.out;
	EXPECT_NE(r.out.find("hwsched vp: --svg-window chooses what --svg draws"),
		  std::string::npos) << r.out;
}
