// lockstep_test.cc - the model and the Verilated RTL, compared on random command streams;
// and the lockstep pair's second way of comparing, against an engine on its own clock.
//
// Seeds: HWS_SEED overrides the default of each test; a failure prints the seed, and
// `build/hwsched lockstep --seed S --commands N --cpus C --tasks T` replays it.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <string>

#include "lib/hws_params.h"
#include "models/hws_model.h"
#include "models/hws_model_int.h"
#include "sim/stim/hws_randcmd.h"
#include "tests/test_util.h"

namespace {

struct Shape {
	unsigned cpus, tasks, depth;
	uint64_t commands;
	bool no_balance = false;	// the variant built without BALANCE (xnb)
	bool no_err_counters = false;	// ... and without the per-code error counters (xnbne)
	bool no_irq = false;		// ... and without the interrupt (xnbneni, the HX8K build)
	bool pipe = false;		// the build with overlapped issue (xpi, PIPE=1)
	unsigned ports = 1;		// NR_PORTS (the stream drives port 0)
};

void run_lockstep(const Shape &s, uint64_t seed, bool every_verdict = false)
{
	// A deep RTL walk every W/4 cycles, W = its cost in steps: about 4 steps a cycle.
	unsigned deep = (s.cpus * 280 + s.tasks) / 4;
	hws_config c;
	hws_dev *d = nullptr;
	char msg[512];

	hws_config_default(&c);
	c.backend = "lockstep";
	c.nr_cpus = s.cpus;
	c.nr_tasks = s.tasks;
	c.cmd_depth = c.res_depth = s.depth;
	c.deep_check = deep;
	c.no_balance = s.no_balance;
	c.no_err_counters = s.no_err_counters;
	c.no_irq = s.no_irq;
	c.pipe = s.pipe;
	c.nr_ports = s.ports;
	ASSERT_EQ(hws_open(&d, &c, msg, sizeof(msg)), 0) << msg;
	hws_randcmd_opts o{};
	o.seed = seed;
	o.commands = s.commands;
	o.check_every = 2000;
	hws_randcmd_report r{};
	int ret = hws_randcmd_run(d, &o, &r);
	EXPECT_EQ(ret, 0) << "seed " << seed << " (" << s.cpus << " CPUs, " << s.tasks
			  << " tasks): " << r.msg << "\nreplay: build/hwsched lockstep --seed " << seed
			  << " --commands " << s.commands << " --cpus " << s.cpus << " --tasks "
			  << s.tasks << " --depth " << s.depth << (s.no_balance ? " --no-balance" : "")
			  << (s.no_err_counters ? " --no-err-counters" : "")
			  << (s.no_irq ? " --no-irq" : "") << (s.pipe ? " --pipe" : "")
			  << (s.ports > 1 ? " --ports " + std::to_string(s.ports) : "");
	EXPECT_EQ(r.commands, s.commands) << "seed " << seed;
	EXPECT_GE(r.max_occupancy, s.tasks) << "never filled the table, seed " << seed;
	EXPECT_GT(r.drains, 0u) << "never drained, seed " << seed;
	// PIPE = 1: the stream did overlap commands (the model's count; both sides agreed on
	// every edge of them), and with PIPE = 0 it never does.
	EXPECT_TRUE(r.has_overlaps) << "seed " << seed;
	if (s.pipe)
		EXPECT_GT(r.overlaps, s.commands / 1000) << "seed " << seed;
	else
		EXPECT_EQ(r.overlaps, 0u) << "seed " << seed;
	if (s.no_irq)	// the interrupt's accesses ran, and read 0 (hws_randcmd checks)
		EXPECT_GT(r.irq_actions, 1000u) << "seed " << seed;
	// The long run must reach every rule of find_busiest_group, not just the common ones.
	for (unsigned v = 1; every_verdict && v <= 7; v++)
		EXPECT_GT(r.bal_verdicts[v], 0u) << "BALANCE never answered verdict " << v
						 << ", seed " << seed;
	hws_close(d);
}

// The headline: a million random commands, model and RTL in agreement.
TEST(Lockstep, AMillionRandomCommandsDefaultEngine)
{
	const uint64_t seed = hwstest::seed_from_env(20261202);
	printf("[ seed     ] %llu\n", (unsigned long long)seed);
	run_lockstep({ 8, 256, 16, 1000000 }, seed, true);
}

class LockstepSweep : public ::testing::TestWithParam<Shape> {};

TEST_P(LockstepSweep, RandomCommandsAgree)
{
	const uint64_t seed = hwstest::seed_from_env(1000 + GetParam().cpus * 7 + GetParam().tasks);
	printf("[ seed     ] %llu\n", (unsigned long long)seed);
	run_lockstep(GetParam(), seed);
}

INSTANTIATE_TEST_SUITE_P(Shapes, LockstepSweep,
			 ::testing::Values(Shape{ 1, 16, 16, 60000 }, Shape{ 2, 16, 4, 60000 },
					   Shape{ 8, 16, 16, 60000 }, Shape{ 64, 256, 16, 100000 },
					   Shape{ 64, 4096, 16, 120000 },
					   Shape{ 8, 256, 16, 300000, true },
					   Shape{ 8, 256, 16, 200000, true, true },
					   Shape{ 8, 256, 16, 200000, true, true, true },
					   Shape{ 2, 16, 4, 200000, false, false, false, true },
					   Shape{ 8, 256, 16, 300000, false, false, false, true },
					   Shape{ 4, 64, 8, 200000, false, false, false, true, 2 }),
			 [](const ::testing::TestParamInfo<Shape> &i) {
				 return "c" + std::to_string(i.param.cpus) + "_t" +
					std::to_string(i.param.tasks) + "_d" +
					std::to_string(i.param.depth) +
					(i.param.no_balance ? "_nb" : "") +
					(i.param.no_err_counters ? "ne" : "") +
					(i.param.no_irq ? "ni" : "") +
					(i.param.ports > 1 ? "_p" + std::to_string(i.param.ports) : "") +
					(i.param.pipe ? "_pi" : "");
			 });

// A disagreement is caught at the first read that shows it, and the message names the
// command number, the command, and both answers.
TEST(Lockstep, FirstMismatchStopsWithCommandAndBothAnswers)
{
	hws_dev *d = hwstest::open_dev("lockstep");
	ASSERT_NE(d, nullptr);
	ASSERT_EQ(hws_enqueue(d, 5, 3, 120, 0, 0), 0);
	ASSERT_EQ(hws_enqueue(d, 6, 3, 121, 0, 0), 0);
	ASSERT_EQ(hws_inject_model_fault(d, 3), 0);	// the model's load of CPU 3 is now +1
	uint32_t v;
	// The read of the answer differs first: the bus's message (the units are compared
	// after it, when the model is quiescent; UnitMismatchNamesTheUnit).
	EXPECT_EQ(hws_cpu_stat(d, 3, HWS_SEL_CPU_STAT_LOAD, &v), -EIO);
	std::string msg = hws_errmsg(d);
	EXPECT_NE(msg.find("lockstep mismatch at command #2"), std::string::npos) << msg;
	EXPECT_NE(msg.find("CPU_STAT"), std::string::npos) << msg;
	EXPECT_NE(msg.find("RESULT"), std::string::npos) << msg;
	char want_model[32], want_rtl[32];
	snprintf(want_model, sizeof(want_model), "model data 0x%08x", 1024u + 820u + 1u);
	snprintf(want_rtl, sizeof(want_rtl), "rtl data 0x%08x", 1024u + 820u);
	EXPECT_NE(msg.find(want_model), std::string::npos) << msg;
	EXPECT_NE(msg.find(want_rtl), std::string::npos) << msg;
	// The device stays stopped: nothing after the first mismatch is trusted.
	EXPECT_EQ(hws_nop(d), -EIO);
	hws_close(d);
}

// ---- The units' boundary values (include/hws/units.h) ----------------------------------

// The model and the RTL of @cpus x @tasks (the optional build variants off), paired by
// hws_lockstep_create() so that the test reaches the model's state, and a device on them.
struct UnitPair {
	hws_transport ref{}, dut{}, pair{};
	hws_dev *d = nullptr;

	UnitPair(unsigned cpus, unsigned tasks, unsigned ports = 1)
	{
		hws_backend_args a{};
		char msg[512];
		hws_params_default(&a.params);
		a.params.nr_cpus = cpus;
		a.params.nr_tasks = tasks;
		a.params.nr_ports = ports;
		EXPECT_EQ(hws_transport_open("model", &a, &ref, msg, sizeof(msg)), 0) << msg;
		EXPECT_EQ(hws_transport_open("rtl", &a, &dut, msg, sizeof(msg)), 0) << msg;
		EXPECT_EQ(hws_lockstep_create(&ref, &dut, &pair), 0);
		hws_config c;
		hws_config_default(&c);
		c.nr_cpus = cpus;
		c.nr_tasks = tasks;
		c.nr_ports = ports;
		c.transport = &pair;
		EXPECT_EQ(hws_open(&d, &c, msg, sizeof(msg)), 0) << msg;
	}
	hws_model *model() const { return static_cast<hws_model *>(ref.ctx); }
	~UnitPair()
	{
		hws_close(d);
		hws_transport_close(&pair);	// closes both sides
	}
};

struct UnitFault {
	hws_unit unit;
	const char *name;	// as the message names it
	const char *field;	// the first field that differs, with its index
};

class UnitMismatch : public ::testing::TestWithParam<UnitFault> {};

// A fault in one unit of the model is caught at the next quiescent point, before any bus
// answer shows it, and the message names that unit, the edge, the command and both values.
TEST_P(UnitMismatch, NamesTheUnit)
{
	const UnitFault &f = GetParam();
	UnitPair p(8, 256);
	ASSERT_NE(p.d, nullptr);
	ASSERT_EQ(hws_enqueue(p.d, 5, 3, 120, 0, 0), 0);
	uint32_t v;
	ASSERT_EQ(hws_cpu_stat(p.d, 3, HWS_SEL_CPU_STAT_NR_RUNNING, &v), 0) << hws_errmsg(p.d);
	ASSERT_EQ(hws_model_inject_unit_fault(p.model(), f.unit), 0);
	// A write that runs no command and changes nothing (IRQ_EN1 of CPUs 32..63, none
	// here): its answer agrees, the units after it do not.
	EXPECT_EQ(hws_reg_write(p.d, HWS_REG_IRQ_EN1, 0), -EIO);
	const std::string msg = hws_errmsg(p.d);
	EXPECT_NE(msg.find(std::string("unit ") + f.name + " first differs at edge "),
		  std::string::npos) << msg;
	EXPECT_NE(msg.find(std::string("model ") + f.field + " 0x"), std::string::npos) << msg;
	EXPECT_NE(msg.find(std::string("rtl ") + f.field + " 0x"), std::string::npos) << msg;
	EXPECT_NE(msg.find("lockstep mismatch at command #1 (last command written: CPU_STAT"),
		  std::string::npos) << msg;
	EXPECT_NE(msg.find("after write IRQ_EN1"), std::string::npos) << msg;
	EXPECT_EQ(hws_nop(p.d), -EIO) << "stays stopped";
}

INSTANTIATE_TEST_SUITE_P(Units, UnitMismatch,
			 ::testing::Values(UnitFault{ HWS_UNIT_LISTS, "lists", "queued[7]" },
					   UnitFault{ HWS_UNIT_LOADS, "loads", "load[0]" },
					   UnitFault{ HWS_UNIT_DOMAIN, "domain", "bal[0]" },
					   UnitFault{ HWS_UNIT_IRQ, "irq", "irq_en" }),
			 [](const ::testing::TestParamInfo<UnitFault> &i) {
				 return std::string(i.param.name);
			 });

// The arbiter's pointer, on an engine of two ports.
TEST(UnitMismatch, NamesTheArbiter)
{
	UnitPair p(2, 16, 2);
	ASSERT_NE(p.d, nullptr);
	uint32_t v;
	ASSERT_EQ(hws_cpu_stat(p.d, 1, HWS_SEL_CPU_STAT_NR_RUNNING, &v), 0) << hws_errmsg(p.d);
	ASSERT_EQ(hws_model_inject_unit_fault(p.model(), HWS_UNIT_ARBITER), 0);
	EXPECT_EQ(hws_reg_write(p.d, HWS_REG_IRQ_EN1, 0), -EIO);
	const std::string msg = hws_errmsg(p.d);
	EXPECT_NE(msg.find("unit arbiter first differs"), std::string::npos) << msg;
	EXPECT_NE(msg.find("model arb_win 0x"), std::string::npos) << msg;
}

// Without a fault the units agree at every quiescent point of a random stream (the sweep
// above compares them too); and a unit that cannot be corrupted so is refused.
TEST(UnitMismatch, RefusesAFaultItCannotMake)
{
	hws_params pr;
	hws_params_default(&pr);
	hws_model *m = nullptr;
	ASSERT_EQ(hws_model_create(&m, &pr), 0);
	EXPECT_EQ(hws_model_inject_unit_fault(m, HWS_UNIT_ARBITER), -ENOTSUP) << "one port";
	EXPECT_EQ(hws_model_inject_unit_fault(m, HWS_UNIT_SEQ), -ENOTSUP);
	hws_model_destroy(m);
}

// ---- An engine on its own clock: data and responses compared, not edges ----------------

// A "board" that is a second C model running freely: before each access it idles
// @settle + @extra edges (its clock runs on between accesses), and it reports edges of
// its own. It declares @settle as its transport's settle_edges, as the uart backend does.
struct FreeModel {
	hws_model *m = nullptr;
	unsigned run;			// edges it runs before each access
	uint32_t last_cycles = 0;	// the last CYCLES it answered
	hws_transport tp{};

	static unsigned rd(void *c, unsigned, uint32_t a, uint32_t *d, uint32_t *r, double *)
	{
		auto *f = static_cast<FreeModel *>(c);
		hws_model_idle(f->m, f->run);
		unsigned e = hws_model_read(f->m, a, d, r);
		if (a == HWS_REG_CYCLES)
			f->last_cycles = *d;
		return e + 3;	// edges: not compared
	}
	static unsigned wr(void *c, unsigned, uint32_t a, uint32_t d, uint32_t s, uint32_t *r,
			   double *)
	{
		auto *f = static_cast<FreeModel *>(c);
		hws_model_idle(f->m, f->run);
		return hws_model_write(f->m, a, d, s, r) + 3;
	}
	static void idle(void *c, unsigned e, double *)
	{
		hws_model_idle(static_cast<FreeModel *>(c)->m, e);
	}
	// The optional operations stay NULL (value-initialised).
	static hws_transport_ops make_ops()
	{
		hws_transport_ops o{};
		o.read = rd;
		o.write = wr;
		o.idle = idle;
		return o;
	}
	const hws_transport_ops ops = make_ops();

	FreeModel(unsigned cpus, unsigned tasks, unsigned settle, unsigned extra)
		: run(settle + extra)
	{
		hws_params p;
		hws_params_default(&p);
		p.nr_cpus = cpus;
		p.nr_tasks = tasks;
		EXPECT_EQ(hws_model_create(&m, &p), 0);
		tp = hws_transport{};
		tp.ops = &ops;
		tp.ctx = this;
		tp.name = "board";
		tp.settle_edges = settle;
	}
	~FreeModel() { hws_model_destroy(m); }
};

// The model (reference) paired with @board through hws_lockstep_create(), and a device on
// the pair.
struct FreePair {
	hws_transport ref{}, pair{};
	hws_dev *d = nullptr;

	FreePair(FreeModel &board, unsigned cpus, unsigned tasks)
	{
		hws_backend_args a{};
		char msg[512];
		hws_params_default(&a.params);
		a.params.nr_cpus = cpus;
		a.params.nr_tasks = tasks;
		EXPECT_EQ(hws_transport_open("model", &a, &ref, msg, sizeof(msg)), 0) << msg;
		hws_transport dut = board.tp;
		EXPECT_EQ(hws_lockstep_create(&ref, &dut, &pair), 0);
		hws_config c;
		hws_config_default(&c);
		c.nr_cpus = cpus;
		c.nr_tasks = tasks;
		c.transport = &pair;
		EXPECT_EQ(hws_open(&d, &c, msg, sizeof(msg)), 0) << msg;
	}
	~FreePair()
	{
		hws_close(d);
		hws_transport_close(&pair);	// closes the model; the board has no destroy
	}
};

// An engine whose clock runs on between accesses agrees with the settled model on every
// read's data (CYCLES aside) and every response, over random commands of every kind.
TEST(TransportLockstep, AFreeRunningEngineAgreesWithTheSettledModel)
{
	uint64_t seed = hwstest::seed_from_env(11);
	FreeModel board(4, 64, 1040, 777);
	FreePair p(board, 4, 64);
	ASSERT_NE(p.d, nullptr);
	hws_randcmd_opts o{};
	o.seed = seed;
	o.commands = 20000;
	o.check_every = 1000;
	auto r = std::make_unique<hws_randcmd_report>();
	EXPECT_EQ(hws_randcmd_run(p.d, &o, r.get()), 0) << "seed " << seed << ": " << r->msg;
	EXPECT_EQ(r->commands, 20000u);
	EXPECT_GT(r->fills + r->drains, 0u) << "the table never filled: a weak run";
	// CYCLES is the one register whose data is not compared: the pair answers the
	// board's count, which ran 777 edges an access ahead of the model's.
	uint32_t cycles = hwstest::reg(p.d, HWS_REG_CYCLES), model_cycles = 0, resp = 9;
	EXPECT_EQ(cycles, board.last_cycles);
	hws_model_read(static_cast<hws_model *>(p.ref.ctx), HWS_REG_CYCLES, &model_cycles, &resp);
	EXPECT_EQ(resp, 0u);
	EXPECT_LT(model_cycles, cycles);
}

// A settle shorter than the engine's free run lets the model lag: it is caught mid-command
// (STATUS.BUSY), so the settle is needed.
TEST(TransportLockstep, ATooShortSettleLetsTheModelLagAndIsCaught)
{
	FreeModel board(2, 16, 1, 1039);
	FreePair p(board, 2, 16);
	ASSERT_NE(p.d, nullptr);
	ASSERT_EQ(hws_submit(p.d, hws_cmd(HWS_OP_ENQUEUE, 1, 120, 0, 0, 0)), 0);
	uint32_t v;
	EXPECT_EQ(hws_reg_read(p.d, HWS_REG_STATUS, &v), -EIO);
	EXPECT_NE(std::string(hws_errmsg(p.d)).find("read STATUS"), std::string::npos)
		<< hws_errmsg(p.d);
}

TEST(TransportLockstep, ADisagreementNamesBothAnswersWithoutEdges)
{
	FreeModel board(8, 256, 64, 5);
	FreePair p(board, 8, 256);
	ASSERT_NE(p.d, nullptr);
	ASSERT_EQ(hws_enqueue(p.d, 5, 3, 120, 0, 0), 0);
	ASSERT_EQ(hws_inject_model_fault(p.d, 3), 0);	// the reference: load of CPU 3 + 1
	uint32_t v;
	EXPECT_EQ(hws_cpu_stat(p.d, 3, HWS_SEL_CPU_STAT_LOAD, &v), -EIO);
	std::string msg = hws_errmsg(p.d);
	char want_model[40], want_board[40];
	snprintf(want_model, sizeof(want_model), "model data 0x%08x resp 0,", 1024u + 1u);
	snprintf(want_board, sizeof(want_board), "board data 0x%08x resp 0", 1024u);
	EXPECT_NE(msg.find(want_model), std::string::npos) << msg;
	EXPECT_NE(msg.find(want_board), std::string::npos) << msg;
	EXPECT_EQ(msg.find("edges"), std::string::npos) << msg;
	EXPECT_EQ(hws_nop(p.d), -EIO) << "stays stopped";
}

} // namespace
