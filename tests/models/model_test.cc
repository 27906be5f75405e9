// model_test.cc - the C model on its own: parameters, exact timing arithmetic of the
// spec, invariants under random streams. Also built with ASan + UBSan (make test).
#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <memory>

#include "lib/hws_params.h"
#include "models/hws_model.h"
#include "tests/test_util.h"

namespace {

struct ModelDeleter {
	void operator()(hws_model *m) const { hws_model_destroy(m); }
};
using ModelPtr = std::unique_ptr<hws_model, ModelDeleter>;

ModelPtr make_model(unsigned cpus = 8, unsigned tasks = 256, unsigned depth = 16)
{
	hws_params p = { cpus, tasks, depth, depth, 16, 0, 0, 1, 0 };
	hws_model *m = nullptr;
	EXPECT_EQ(hws_model_create(&m, &p), 0);
	return ModelPtr(m);
}

uint32_t rd(hws_model *m, uint32_t off, unsigned *edges = nullptr)
{
	uint32_t v, resp;
	unsigned e = hws_model_read(m, off, &v, &resp);
	EXPECT_EQ(resp, 0u) << "read of 0x" << std::hex << off;
	if (edges)
		*edges = e;
	return v;
}

unsigned wr(hws_model *m, uint32_t off, uint32_t v)
{
	uint32_t resp;
	unsigned e = hws_model_write(m, off, v, 0xf, &resp);
	EXPECT_EQ(resp, 0u);
	return e;
}

TEST(ModelParams, IllegalValuesAreRefusedWithAReason)
{
	const hws_params bad[] = {
		{ 0, 256, 16, 16, 16, 0, 0, 1, 0 }, { 65, 256, 16, 16, 16, 0, 0, 1, 0 },
		{ 8, 0, 16, 16, 16, 0, 0, 1, 0 }, { 8, 4097, 16, 16, 16, 0, 0, 1, 0 },
		{ 8, 256, 1, 16, 16, 0, 0, 1, 0 }, { 8, 256, 16, 33, 16, 0, 0, 1, 0 },
		{ 8, 256, 16, 16, 0, 0, 0, 1, 0 }, { 8, 256, 16, 16, 65, 0, 0, 1, 0 },
		{ 8, 256, 16, 16, 16, 2, 0, 1, 0 }, { 8, 256, 16, 16, 16, 0, 2, 1, 0 },
		{ 8, 256, 16, 16, 16, 0, 0, 5, 0 }, { 8, 256, 16, 16, 16, 0, 0, 1, 9 },
		{ 8, 256, 16, 16, 16, 1, 0, 1, 2 }, { 8, 256, 16, 16, 16, 0, 0, 1, 0, 2 },
	};
	for (const hws_params &p : bad) {
		char msg[200] = "";
		hws_model *m = nullptr;
		EXPECT_EQ(hws_params_check(&p, msg, sizeof(msg)), -EINVAL);
		EXPECT_NE(std::strstr(msg, "must be"), nullptr) << msg;
		EXPECT_EQ(hws_model_create(&m, &p), -EINVAL);
		EXPECT_EQ(m, nullptr);
	}
	hws_params ok = { 64, 4096, 32, 2, 64, 1, 1, 4, 0, 1 };
	EXPECT_EQ(hws_params_check(&ok, nullptr, 0), 0);
}

// IRQ=0 (hws_params.no_irq): the interrupt's writes are answered OKAY and kept nowhere,
// its registers and lines stay 0, FEATURES.IRQ is 0; the same accesses on the build with
// it (the control) set CPU 3's bit and raise its line.
TEST(ModelParams, WithoutTheInterruptItsRegistersAndLinesStayZero)
{
	for (unsigned no_irq = 0; no_irq < 2; no_irq++) {
		SCOPED_TRACE(no_irq ? "no_irq" : "built");
		hws_params p = { 8, 256, 16, 16, 16, 0, 0, 1, 0, no_irq };
		hws_model *raw = nullptr;
		ASSERT_EQ(hws_model_create(&raw, &p), 0);
		ModelPtr m(raw);
		EXPECT_EQ((rd(m.get(), HWS_REG_FEATURES) & HWS_FEATURES_IRQ_MASK) != 0, !no_irq);
		wr(m.get(), HWS_REG_IRQ_EN0, 0xffffffffu);
		wr(m.get(), HWS_CURR_BASE + 4 * 3, 120);
		wr(m.get(), HWS_REG_CMD, hws_cmd(HWS_OP_ENQUEUE, 1, 100, 3, 0, 0));
		hws_model_idle(m.get(), 8);
		const uint64_t want = no_irq ? 0 : uint64_t{ 1 } << 3;
		EXPECT_EQ(hws_model_irq_lines(m.get()), want);
		EXPECT_EQ(rd(m.get(), HWS_REG_IRQ_PEND0), (uint32_t)want);
		EXPECT_EQ(rd(m.get(), HWS_REG_IRQ_EN0), no_irq ? 0u : 0xffu);
		wr(m.get(), HWS_REG_IRQ_PEND0, 0xffffffffu);	// W1C: OKAY in both
		EXPECT_EQ(rd(m.get(), HWS_REG_IRQ_PEND0), 0u);
		EXPECT_EQ(rd(m.get(), HWS_REG_ERR_TOTAL), 0u);
		EXPECT_EQ(rd(m.get(), HWS_REG_CMD_DONE), 1u);
	}
}

TEST(ModelParams, DriverRefusesBadParametersBeforeBuildingAnything)
{
	hws_config c;
	hws_dev *d = nullptr;
	char msg[256];
	hws_config_default(&c);
	c.nr_cpus = 65;
	EXPECT_EQ(hws_open(&d, &c, msg, sizeof(msg)), -EINVAL);
	EXPECT_NE(std::strstr(msg, "NR_CPUS"), nullptr) << msg;
}

TEST(ModelTiming, WritesAndReadsTakeTwoEdgesAndCyclesCountThem)
{
	ModelPtr m = make_model();
	unsigned e;
	EXPECT_EQ(rd(m.get(), HWS_REG_CYCLES, &e), 0u);
	EXPECT_EQ(e, 2u);
	EXPECT_EQ(rd(m.get(), HWS_REG_CYCLES), 2u);
	EXPECT_EQ(wr(m.get(), HWS_REG_CTRL, 0), 2u);
	EXPECT_EQ(rd(m.get(), HWS_REG_CYCLES), 6u);
	hws_model_idle(m.get(), 10);
	EXPECT_EQ(rd(m.get(), HWS_REG_CYCLES), 18u);
}

// Spec 4.1/4.2: a command written at edge w is popped at w+1 and completes at w+1+L; a
// SYNC read taken at w+2 latches at the first edge whose prior state is idle, w+L+2.
TEST(ModelTiming, SyncWaitsExactlyTheLatency)
{
	ModelPtr m = make_model();
	const struct {
		uint32_t cmd;
		unsigned lat;
	} cases[] = {
		{ hws_cmd(HWS_OP_NOP, 0, 0, 0, 0, 0), HWS_LAT_NOP },
		{ hws_cmd(HWS_OP_ENQUEUE, 1, 120, 0, 0, 0), HWS_LAT_ENQUEUE },
		{ hws_cmd(HWS_OP_REQUEUE, 1, 0, 0, 0, 0), HWS_LAT_REQUEUE },
		{ hws_cmd(HWS_OP_DEQUEUE, 1, 0, 0, 0, 0), HWS_LAT_DEQUEUE },
		{ hws_cmd(HWS_OP_DEQUEUE, 1, 0, 0, 0, 0), 1 },	// now fails: one cycle
	};
	for (const auto &c : cases) {
		unsigned e;
		EXPECT_EQ(wr(m.get(), HWS_REG_CMD, c.cmd), 2u);
		(void)rd(m.get(), HWS_REG_SYNC, &e);
		// Taken at w+2, latched at w+L+2, handshake at w+L+3: L + 2 edges in all.
		EXPECT_EQ(e, c.lat + 2) << std::hex << c.cmd;
	}
}

// The FIFO fills at the rate the spec implies: a write every 2 edges, a MIGRATE every 5.
TEST(ModelTiming, OverflowHappensWhereTheArithmeticSaysSo)
{
	ModelPtr m = make_model();
	for (unsigned t = 0; t < 64; t++) {
		wr(m.get(), HWS_REG_CMD, hws_cmd(HWS_OP_ENQUEUE, t, 120, 0, 0, 0));
		(void)rd(m.get(), HWS_REG_SYNC);
	}
	uint32_t done0 = rd(m.get(), HWS_REG_CMD_DONE);
	for (unsigned k = 0; k < 40; k++)
		wr(m.get(), HWS_REG_CMD, hws_cmd(HWS_OP_MIGRATE, k, 0, 1, 0, 0));
	uint32_t dropped = rd(m.get(), HWS_REG_ERR_CNT7);

	// The spec's rules, edge by edge: write k is taken at edge 2k+1 of the burst and
	// overflows when the FIFO was full before that edge; a command is popped when the
	// FIFO was non-empty and the engine idle or completing, and completes L edges later.
	unsigned level = 0, expect_drop = 0, complete_at = 0;
	bool busy = false;
	for (unsigned edge = 1; edge <= 80; edge++) {
		const unsigned pre = level;
		const bool done = busy && complete_at == edge;
		if (pre > 0 && (!busy || done)) {
			level--;
			busy = true;
			complete_at = edge + HWS_LAT_MIGRATE;
		} else if (done) {
			busy = false;
		}
		if (edge % 2 == 1) {
			if (pre == 16)
				expect_drop++;
			else
				level++;
		}
	}
	EXPECT_GT(expect_drop, 0u);
	EXPECT_EQ(dropped, expect_drop);
	(void)rd(m.get(), HWS_REG_SYNC);
	EXPECT_EQ(rd(m.get(), HWS_REG_CMD_DONE) - done0, 40u - expect_drop);
	char msg[200];
	EXPECT_EQ(hws_model_check(m.get(), msg, sizeof(msg)), 0) << msg;
}

TEST(ModelTiming, SoftResetClearsCyclesAndQueues)
{
	ModelPtr m = make_model();
	wr(m.get(), HWS_REG_CMD, hws_cmd(HWS_OP_ENQUEUE, 1, 120, 0, 0, 0));
	(void)rd(m.get(), HWS_REG_SYNC);
	wr(m.get(), HWS_REG_CTRL, HWS_CTRL_SOFT_RESET_MASK);
	// The reset edge zeroes CYCLES; the B handshake edge then counts 1; the read sees 1.
	EXPECT_EQ(rd(m.get(), HWS_REG_CYCLES), 1u);
	wr(m.get(), HWS_REG_CMD, hws_cmd(HWS_OP_CPU_STAT, 0, 0, 0, 0, 0));
	EXPECT_EQ(rd(m.get(), HWS_REG_RESULT), 0u);
}

TEST(ModelTiming, SoftResetTakesEffectAtTheEdgeOfTheWrite)
{
	// Section 4.3: a CTRL.SOFT_RESET write taken at edge w resets at w itself. A CYCLES
	// read latched at w returns the count from before w (reads keep their words); the next
	// read the channel takes, at w + 2, returns 1 (0 after the reset edge, then w + 1
	// counted). One port, its write and read channels driven through its pins at once.
	ModelPtr m = make_model();
	hws_axil_out out = {};
	hws_model_pins_now(m.get(), &out);
	auto edge = [&](bool w, bool r) {
		hws_axil_in in = {};
		in.bready = in.rready = 1;
		if (w) {
			EXPECT_TRUE(out.awready && out.wready);
			in.awvalid = in.wvalid = 1;
			in.awaddr = HWS_REG_CTRL;
			in.wdata = HWS_CTRL_SOFT_RESET_MASK;
			in.wstrb = 0xf;
		}
		if (r) {
			EXPECT_TRUE(out.arready);
			in.arvalid = 1;
			in.araddr = HWS_REG_CYCLES;
		}
		hws_model_pins(m.get(), &in, &out);
	};
	edge(false, false);
	edge(false, true);		// edge 2: the count before it
	ASSERT_TRUE(out.rvalid);
	const uint32_t c2 = out.rdata;
	edge(false, false);
	edge(false, false);
	edge(true, true);		// edge 5 = w, the reset edge, with a read
	ASSERT_TRUE(out.rvalid);
	EXPECT_EQ(out.rdata, c2 + 3) << "a read at the reset edge returns the count before it";
	edge(false, false);		// w + 1: the R handshake
	edge(false, true);		// w + 2
	ASSERT_TRUE(out.rvalid);
	EXPECT_EQ(out.rdata, 1u);
}

} // namespace
