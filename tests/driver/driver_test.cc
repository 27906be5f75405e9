// driver_test.cc - the driver over its transport interface, without Verilator: backends by
// name, a caller's transport, the generic lockstep pair (two models here, one corrupted),
// and the optional operations. Built into build/tests/hws_core_tests, which links only
// lib/, models/, driver/ and firmware/.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "hws/hws.h"
#include "hws/transport.h"
#include "lib/hws_params.h"

namespace {

hws_backend_args default_args()
{
	hws_backend_args a{};

	hws_params_default(&a.params);
	return a;
}

TEST(DriverBackends, OnlyWhatIsLinkedInIsFoundByName)
{
	EXPECT_NE(hws_backend_find("model"), nullptr);
	EXPECT_NE(hws_backend_find("lockstep"), nullptr);
	// This binary has no Verilator harness: no "rtl".
	EXPECT_EQ(hws_backend_find("rtl"), nullptr);
	EXPECT_EQ(hws_backend_find("mod"), nullptr) << "a prefix of a name is not the name";
	EXPECT_EQ(hws_backend_find("modelx"), nullptr);
	// "NAME:ARG" selects NAME.
	EXPECT_EQ(hws_backend_find("model:whatever"), hws_backend_find("model"));
	// The serial line to a board is the driver's own (driver/hws_uart.c).
	EXPECT_NE(hws_backend_find("uart:/dev/ttyUSB1"), nullptr);
	EXPECT_EQ(std::string(hws_backend_list()), "lockstep, model, uart");
}

TEST(DriverBackends, UnknownOrMissingBackendIsAClearError)
{
	hws_config c;
	hws_dev *d = nullptr;
	char msg[256];

	hws_config_default(&c);
	c.backend = "fpga";
	EXPECT_EQ(hws_open(&d, &c, msg, sizeof(msg)), -ENOENT);
	EXPECT_NE(std::strstr(msg, "no backend 'fpga'"), nullptr) << msg;
	EXPECT_NE(std::strstr(msg, "lockstep, model"), nullptr) << msg;
	// lockstep needs "rtl", which this program lacks: the error says so.
	c.backend = "lockstep";
	EXPECT_EQ(hws_open(&d, &c, msg, sizeof(msg)), -ENOENT);
	EXPECT_NE(std::strstr(msg, "no backend 'rtl'"), nullptr) << msg;
	EXPECT_EQ(d, nullptr);
}

TEST(DriverBackends, RegisteringANameTwiceIsRefused)
{
	static hws_backend dup = { "model", "a second model", nullptr, nullptr, nullptr };

	EXPECT_EQ(hws_backend_register(&dup), -EEXIST);
	EXPECT_STREQ(hws_backend_find("model")->summary, "the bit- and cycle-exact C model (models/)");
}

TEST(DriverBackends, ModelBackendAnswersTheIdChecksAndCommands)
{
	hws_config c;
	hws_dev *d = nullptr;
	char msg[256];
	hws_pick p{};

	hws_config_default(&c);
	c.nr_cpus = 2;
	c.nr_tasks = 16;
	ASSERT_EQ(hws_open(&d, &c, msg, sizeof(msg)), 0) << msg;
	EXPECT_STREQ(hws_config_backend(hws_config_of(d)), "model");
	ASSERT_EQ(hws_enqueue(d, 3, 1, 120, 0, 0), 0) << hws_errmsg(d);
	ASSERT_EQ(hws_pick_next(d, 1, &p), 0) << hws_errmsg(d);
	EXPECT_TRUE(p.found);
	EXPECT_EQ(p.task, 3u);
	EXPECT_EQ(p.prio, 120u);
	EXPECT_EQ(hws_check(d), 0) << hws_errmsg(d);
	hws_close(d);
}

// Two models in lockstep, the reference corrupted: the first read that shows it stops the
// pair with the command number, the command and both answers, as lockstep of model and RTL
// does (tests/driver/lockstep_test.cc).
TEST(DriverLockstep, AnyTwoTransportsAreComparedAndTheFirstMismatchStops)
{
	hws_backend_args a = default_args();
	hws_transport ref, dut, pair;
	char msg[256];

	ASSERT_EQ(hws_transport_open("model", &a, &ref, msg, sizeof(msg)), 0) << msg;
	ASSERT_EQ(hws_transport_open("model", &a, &dut, msg, sizeof(msg)), 0) << msg;
	ASSERT_EQ(hws_lockstep_create(&ref, &dut, &pair), 0);

	hws_config c;
	hws_dev *d = nullptr;
	hws_config_default(&c);
	c.transport = &pair;
	ASSERT_EQ(hws_open(&d, &c, msg, sizeof(msg)), 0) << msg;
	EXPECT_STREQ(hws_config_backend(hws_config_of(d)), "lockstep");
	ASSERT_EQ(hws_enqueue(d, 5, 3, 120, 0, 0), 0) << hws_errmsg(d);
	ASSERT_EQ(hws_enqueue(d, 6, 3, 121, 0, 0), 0) << hws_errmsg(d);
	EXPECT_EQ(hws_check(d), 0) << hws_errmsg(d);
	ASSERT_EQ(hws_inject_model_fault(d, 3), 0);	// the reference's load of CPU 3 + 1
	EXPECT_EQ(hws_check(d), -EPROTO) << "the reference's own invariants catch it too";
	uint32_t v;
	// The answer read next shows it: the bus names both (the units are compared after the
	// bus, when the model is quiescent; Units/UnitMismatch.* in lockstep_test.cc).
	EXPECT_EQ(hws_cpu_stat(d, 3, HWS_SEL_CPU_STAT_LOAD, &v), -EIO);
	std::string m = hws_errmsg(d);
	EXPECT_NE(m.find("lockstep mismatch at command #2"), std::string::npos) << m;
	EXPECT_NE(m.find("CPU_STAT"), std::string::npos) << m;
	EXPECT_NE(m.find("read RESULT (0x1c)"), std::string::npos) << m;
	char want_ref[48], want_dut[48];
	snprintf(want_ref, sizeof(want_ref), "model data 0x%08x resp 0", 1024u + 820u + 1u);
	snprintf(want_dut, sizeof(want_dut), "model data 0x%08x resp 0", 1024u + 820u);
	EXPECT_NE(m.find(want_ref), std::string::npos) << m;
	EXPECT_NE(m.find(want_dut), std::string::npos) << m;
	EXPECT_EQ(hws_nop(d), -EIO) << "nothing after the first mismatch is trusted";
	hws_close(d);
	hws_transport_close(&pair);
}

// A caller's transport without the optional operations: hws_check() and fault injection
// say they are not supported; a transport missing a required operation is refused.
TEST(DriverTransport, OptionalOperationsAreOptional)
{
	hws_backend_args a = default_args();
	hws_transport model, bare;
	hws_transport_ops ops{};
	char msg[256];

	ASSERT_EQ(hws_transport_open("model", &a, &model, msg, sizeof(msg)), 0) << msg;
	ops.read = model.ops->read;
	ops.write = model.ops->write;
	ops.idle = model.ops->idle;
	bare = { &ops, model.ctx, nullptr, 0 };

	hws_config c;
	hws_dev *d = nullptr;
	hws_config_default(&c);
	c.transport = &bare;
	ASSERT_EQ(hws_open(&d, &c, msg, sizeof(msg)), 0) << msg;
	EXPECT_STREQ(hws_config_backend(hws_config_of(d)), "tlm") << "a nameless transport";
	EXPECT_EQ(hws_nop(d), 0) << hws_errmsg(d);
	EXPECT_EQ(hws_check(d), -ENOTSUP);
	EXPECT_NE(std::strstr(hws_errmsg(d), "no model to check"), nullptr) << hws_errmsg(d);
	EXPECT_EQ(hws_inject_model_fault(d, 0), -ENOTSUP);
	char line[64];
	EXPECT_EQ(hws_bus_report(d, line, sizeof(line)), -ENOTSUP) << "no figures of its own";
	hws_close(d);

	ops.idle = nullptr;
	EXPECT_EQ(hws_open(&d, &c, msg, sizeof(msg)), -EINVAL);
	EXPECT_NE(std::strstr(msg, "read, write and idle"), nullptr) << msg;
	hws_transport_close(&model);
}

} // namespace
