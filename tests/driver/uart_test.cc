// uart_test.cc - the uart backend (driver/hws_uart.c): its frames and errors against a
// fake board written here from the protocol of docs/board.md (a thread on a pty), and the
// backend behind the driver (found by name, the shape checked, the line's own messages).
// Linked into the core tests (no Verilator) and the sanitizer build. The Verilated board
// behind a pty: tests/sim/board_test.cc; the lockstep against a free-running engine:
// tests/driver/lockstep_test.cc.
#include <gtest/gtest.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <poll.h>
#include <pty.h>
#include <termios.h>
#include <unistd.h>

#include "driver/hws_uart.h"
#include "tests/test_util.h"

namespace {

bool has(const std::string &s, const std::string &what)
{
	return s.find(what) != std::string::npos;
}

// ---- The uart backend against a fake board ------------------------------------------------

// A pseudo-terminal whose slave is the "device"; the test holds the master.
struct Pty {
	int master = -1, slave = -1;
	std::string name;

	Pty()
	{
		char n[256];
		termios t;
		EXPECT_EQ(openpty(&master, &slave, n, nullptr, nullptr), 0) << strerror(errno);
		name = n;
		tcgetattr(slave, &t);
		cfmakeraw(&t);
		tcsetattr(slave, TCSANOW, &t);
	}
	~Pty()
	{
		close(master);
		close(slave);
	}
	// Bytes that arrive within @ms.
	std::string take(int ms)
	{
		std::string s;
		pollfd p{ master, POLLIN, 0 };
		char buf[256];
		while (poll(&p, 1, ms) > 0) {
			ssize_t n = read(master, buf, sizeof(buf));
			if (n <= 0)
				break;
			s.append(buf, (size_t)n);
			ms = 20;
		}
		return s;
	}
};

// A board written from docs/board.md: it parses frames ('R' ADDR, 'W' ADDR D0..D3,
// 'S' ADDR STRB D0..D3; any other first byte ignored) and answers each through @answer,
// which returns the reply bytes (ID reads get the engine's ID unless @answer says else).
class FakeBoard {
public:
	using Answer = std::function<std::string(const std::string &frame)>;

	FakeBoard(Pty &p, Answer a) : pty_(p), answer_(std::move(a))
	{
		th_ = std::thread([this] { serve(); });
	}
	~FakeBoard()
	{
		stop_ = true;
		th_.join();
	}
	std::vector<std::string> frames()
	{
		std::lock_guard<std::mutex> g(mu_);
		return frames_;
	}

	static std::string le(uint32_t v)
	{
		return std::string{ char(v), char(v >> 8), char(v >> 16), char(v >> 24) };
	}
	static std::string id_reply() { return std::string(1, '\0') + le(HWS_ID_VALUE); }

private:
	Pty &pty_;
	Answer answer_;
	std::thread th_;
	std::atomic<bool> stop_{ false };
	std::mutex mu_;
	std::vector<std::string> frames_;

	void serve()
	{
		std::string cur;
		while (!stop_) {
			pollfd p{ pty_.master, POLLIN, 0 };
			if (poll(&p, 1, 10) <= 0)
				continue;
			char c;
			if (read(pty_.master, &c, 1) != 1)
				continue;
			if (cur.empty() && c != 'R' && c != 'W' && c != 'S')
				continue;
			cur.push_back(c);
			size_t want = cur[0] == 'R' ? 2 : cur[0] == 'W' ? 6 : 7;
			if (cur.size() < want)
				continue;
			{
				std::lock_guard<std::mutex> g(mu_);
				frames_.push_back(cur);
			}
			std::string rep = answer_(cur);
			if (!rep.empty() && write(pty_.master, rep.data(), rep.size()) < 0)
				break;
			cur.clear();
		}
	}
};

// Answers like an engine: the ID, OKAY to writes, @data to other reads.
FakeBoard::Answer plain(uint32_t data)
{
	return [data](const std::string &f) -> std::string {
		if (f[0] != 'R')
			return std::string(1, '\0');
		if (f[1] == 0)
			return FakeBoard::id_reply();
		return std::string(1, '\0') + FakeBoard::le(data);
	};
}

hws_uart *open_uart(const std::string &dev, unsigned timeout_ms, int *ret_out = nullptr,
		    std::string *msg_out = nullptr)
{
	hws_uart_opts o;
	hws_uart *u = nullptr;
	char msg[512] = "";

	hws_uart_default_opts(&o);
	o.timeout_ms = timeout_ms;
	int ret = hws_uart_open(&u, dev.c_str(), &o, msg, sizeof(msg));
	if (ret_out)
		*ret_out = ret;
	if (msg_out)
		*msg_out = msg;
	return ret ? nullptr : u;
}

TEST(UartOpen, ADeviceThatDoesNotExistIsNamed)
{
	int ret;
	std::string msg;
	EXPECT_EQ(open_uart("/nonexistent-dir/ttyUSB9", 100, &ret, &msg), nullptr);
	EXPECT_EQ(ret, -ENOENT);
	EXPECT_TRUE(has(msg, "/nonexistent-dir/ttyUSB9")) << msg;
	EXPECT_TRUE(has(msg, "No such file")) << msg;
}

// A regular file is refused before anything is written to it, and is left as it was.
TEST(UartOpen, ARegularFileIsNotATerminalAndIsLeftAlone)
{
	std::string path = testing::TempDir() + "uart_test_not_a_tty.txt";
	FILE *f = fopen(path.c_str(), "w");
	ASSERT_NE(f, nullptr);
	fputs("precious\n", f);
	fclose(f);
	int ret;
	std::string msg;
	EXPECT_EQ(open_uart(path, 100, &ret, &msg), nullptr);
	EXPECT_EQ(ret, -ENOTTY);
	EXPECT_TRUE(has(msg, path + " is not a terminal")) << msg;
	EXPECT_EQ(hwstest::slurp(path), "precious\n");
	unlink(path.c_str());
}

TEST(UartOpen, ACharacterDeviceThatIsNoTtyIsRefused)
{
	int ret;
	std::string msg;
	EXPECT_EQ(open_uart("/dev/null", 100, &ret, &msg), nullptr);
	EXPECT_EQ(ret, -ENOTTY);
	EXPECT_TRUE(has(msg, "/dev/null is not a terminal")) << msg;
}

// Nobody on the line: the open gives up after its timeout, naming the device, having
// sent the resynchronisation bytes and one ID read, nothing else.
TEST(UartOpen, ABoardThatNeverAnswersTimesOut)
{
	Pty p;
	int ret;
	std::string msg;
	EXPECT_EQ(open_uart(p.name, 200, &ret, &msg), nullptr);
	EXPECT_EQ(ret, -ETIMEDOUT);
	EXPECT_TRUE(has(msg, p.name + ": no reply to the frame 'R' 0x00 within 200 ms")) << msg;
	EXPECT_EQ(p.take(50), std::string(6, '\xff') + std::string("R\0", 2));
}

TEST(UartOpen, BadOptionsAreRefusedBeforeTheDeviceIsTouched)
{
	struct {
		const char *spec, *says;
	} cases[] = {
		{ "", "no serial device" },
		{ ",baud=115200", "no serial device" },
		{ "/nonexistent/tty,baud=12345", "baud rate 12345" },
		{ "/nonexistent/tty,timeout=0", "timeout 0 ms" },
		{ "/nonexistent/tty,timeout=ten", "'timeout=ten'" },
		{ "/nonexistent/tty,speed=9600", "'speed=9600'" },
		{ "/nonexistent/tty,clk=1000", "clock 1000 Hz" },
		{ "/nonexistent/tty,baud=9600,baud=19200", "key 'baud' given twice" },
		{ "/nonexistent/tty,timeout=+5", "timeout '+5': expected a whole number" },
		{ "/nonexistent/tty,timeout=1.5", "timeout '1.5': expected a whole number" },
		{ "/nonexistent/tty,baud=9600,", "an empty item" },
		{ "/nonexistent/tty,", "an empty item" },
		{ "/nonexistent/tty,clk=99999999999", "clk '99999999999'" },
	};
	for (auto &c : cases) {
		hws_uart *u = nullptr;
		char msg[256] = "";
		EXPECT_EQ(hws_uart_open_spec(&u, c.spec, msg, sizeof(msg)), -EINVAL) << c.spec;
		EXPECT_TRUE(has(msg, c.says)) << c.spec << ": " << msg;
		EXPECT_EQ(u, nullptr);
	}
}

// The bytes of each frame, as docs/board.md defines them, and the reply decoded.
TEST(UartFrames, ReadWriteAndStrobedWriteOnTheWire)
{
	Pty p;
	FakeBoard b(p, plain(0x12345678));
	hws_uart *u = open_uart(p.name, 2000);
	ASSERT_NE(u, nullptr);
	uint32_t data = 0, resp = 9;
	EXPECT_EQ(hws_uart_read(u, 0x14, &data, &resp), 0) << hws_uart_errmsg(u);
	EXPECT_EQ(data, 0x12345678u);
	EXPECT_EQ(resp, 0u);
	EXPECT_EQ(hws_uart_write(u, 0x18, 0xA1B2C3D4u, 0xf, &resp), 0) << hws_uart_errmsg(u);
	EXPECT_EQ(hws_uart_write(u, 0x18, 0x01020304u, 0x5, &resp), 0) << hws_uart_errmsg(u);
	std::vector<std::string> f = b.frames();
	ASSERT_EQ(f.size(), 4u);
	EXPECT_EQ(f[0], std::string("R\0", 2)) << "the ID read of open";
	EXPECT_EQ(f[1], std::string("R\x14"));
	EXPECT_EQ(f[2], std::string("W\x18\xD4\xC3\xB2\xA1"));
	EXPECT_EQ(f[3], std::string("S\x18\x05\x04\x03\x02\x01"));
	hws_uart_stats st;
	hws_uart_get_stats(u, &st);
	EXPECT_EQ(st.reads, 2u);
	EXPECT_EQ(st.writes, 2u);
	EXPECT_EQ(st.commands, 2u) << "both writes went to CMD (0x18)";
	EXPECT_EQ(st.bytes_out, 6u + 2 + 2 + 6 + 7);
	// An address the frame cannot carry is refused without sending; the line stays good.
	EXPECT_EQ(hws_uart_read(u, 0x100, &data, &resp), -EINVAL);
	EXPECT_TRUE(has(hws_uart_errmsg(u), "0x100")) << hws_uart_errmsg(u);
	EXPECT_EQ(hws_uart_read(u, 0x04, &data, &resp), 0) << hws_uart_errmsg(u);
	EXPECT_EQ(b.frames().size(), 5u);
	hws_uart_close(u);
}

// A reply whose RESP byte is not 0..3 stops the line: later accesses fail at once.
TEST(UartFrames, AGarbledReplyIsAProtocolErrorAndStopsTheLine)
{
	Pty p;
	FakeBoard b(p, [](const std::string &f) -> std::string {
		if (f[0] == 'R' && f[1] == 0)
			return FakeBoard::id_reply();
		return std::string("\x47\0\0\0\0", f[0] == 'R' ? 5 : 1);
	});
	hws_uart *u = open_uart(p.name, 2000);
	ASSERT_NE(u, nullptr);
	uint32_t data, resp;
	EXPECT_EQ(hws_uart_read(u, 0x14, &data, &resp), -EPROTO);
	std::string msg = hws_uart_errmsg(u);
	EXPECT_TRUE(has(msg, p.name + ": garbled reply to the frame 'R' 0x14: RESP byte 0x47"))
		<< msg;
	EXPECT_EQ(hws_uart_write(u, 0x18, 0, 0xf, &resp), -EPROTO);
	EXPECT_EQ(b.frames().size(), 2u) << "nothing sent after the line stopped";
	hws_uart_close(u);
}

TEST(UartFrames, BytesNobodyAskedForAreAProtocolError)
{
	Pty p;
	FakeBoard b(p, [](const std::string &f) -> std::string {
		if (f[0] == 'R' && f[1] == 0)
			return FakeBoard::id_reply();
		return std::string("\0\x99", 2);	// a write's BRESP and a stray byte
	});
	hws_uart *u = open_uart(p.name, 2000);
	ASSERT_NE(u, nullptr);
	uint32_t data, resp;
	EXPECT_EQ(hws_uart_write(u, 0x18, 0, 0xf, &resp), 0) << hws_uart_errmsg(u);
	usleep(50000);
	EXPECT_EQ(hws_uart_read(u, 0x14, &data, &resp), -EPROTO);
	EXPECT_TRUE(has(hws_uart_errmsg(u), "nobody asked for (first 0x99)"))
		<< hws_uart_errmsg(u);
	hws_uart_close(u);
}

TEST(UartFrames, AShortReplyTimesOutSayingHowMuchCame)
{
	Pty p;
	FakeBoard b(p, [](const std::string &f) -> std::string {
		if (f[0] == 'R' && f[1] == 0)
			return FakeBoard::id_reply();
		return std::string("\0\1\2", 3);
	});
	hws_uart *u = open_uart(p.name, 300);
	ASSERT_NE(u, nullptr);
	uint32_t data, resp;
	EXPECT_EQ(hws_uart_read(u, 0x14, &data, &resp), -ETIMEDOUT);
	EXPECT_TRUE(has(hws_uart_errmsg(u), "within 300 ms (3 of 5 bytes came)"))
		<< hws_uart_errmsg(u);
	hws_uart_close(u);
}

TEST(UartFrames, SomethingThatIsNotTheEngineIsRefusedAtOpen)
{
	Pty q;	// a board that answers 0 to everything, the ID read too
	FakeBoard c(q, [](const std::string &) { return std::string("\0\0\0\0\0", 5); });
	int ret;
	std::string msg;
	EXPECT_EQ(open_uart(q.name, 500, &ret, &msg), nullptr);
	EXPECT_EQ(ret, -EPROTO);
	EXPECT_TRUE(has(msg, "not a hwsched board_top")) << msg;
}

// A device that never stops talking (another serial device on the port) does not hold
// the open forever: the drain ends at the timeout and the ID read finds the chatter.
TEST(UartFrames, ADeviceThatNeverStopsTalkingIsRefusedInTime)
{
	Pty p;
	std::atomic<bool> stop{ false };
	std::thread chatter([&] {
		while (!stop) {
			if (write(p.master, "$GPGGA,", 7) < 0)
				break;
			usleep(5000);
		}
	});
	int ret;
	std::string msg;
	EXPECT_EQ(open_uart(p.name, 300, &ret, &msg), nullptr);
	stop = true;
	chatter.join();
	EXPECT_EQ(ret, -EPROTO);
	// The chatter is found before the ID frame is sent, or read as its reply.
	EXPECT_TRUE(has(msg, p.name + ": ")) << msg;
	EXPECT_TRUE(has(msg, "nobody asked for") || has(msg, "garbled reply")) << msg;
}

TEST(UartFrames, ASecondUserOfTheLineIsRefused)
{
	Pty p;
	FakeBoard b(p, plain(0));
	hws_uart *u = open_uart(p.name, 2000);
	ASSERT_NE(u, nullptr);
	int ret;
	std::string msg;
	EXPECT_EQ(open_uart(p.name, 2000, &ret, &msg), nullptr);
	EXPECT_EQ(ret, -EBUSY);
	EXPECT_TRUE(has(msg, p.name + " is in use by another process")) << msg;
	hws_uart_close(u);
}

// ---- Backend "uart" behind the driver ---------------------------------------------------

// Answers like an engine of shape @p: ID and the parameter registers, OKAY to writes, 0 to
// other reads; after @garble_after frames every reply's RESP byte is 0x47.
FakeBoard::Answer engine_like(const hws_params &p, unsigned garble_after = ~0u)
{
	auto n = std::make_shared<unsigned>(0);
	return [p, garble_after, n](const std::string &f) -> std::string {
		const char resp = ++*n > garble_after ? '\x47' : '\0';
		if (f[0] != 'R')
			return std::string(1, resp);
		uint32_t v = 0;
		switch ((uint8_t)f[1]) {
		case 0: v = HWS_ID_VALUE; break;
		case HWS_REG_NR_CPUS: v = p.nr_cpus; break;
		case HWS_REG_NR_TASKS: v = p.nr_tasks; break;
		case HWS_REG_DEPTHS:
			v = p.cmd_depth << HWS_DEPTHS_CMD_DEPTH_LSB | p.res_depth << HWS_DEPTHS_RES_DEPTH_LSB;
			break;
		case HWS_REG_NR_GROUPS: v = p.nr_groups; break;
		case HWS_REG_FEATURES:
			v = (p.no_balance ? 0 : HWS_FEATURES_BALANCE_MASK |
				(p.bal_lanes ? p.bal_lanes : p.nr_cpus) << HWS_FEATURES_BAL_LANES_LSB) |
			    (p.no_err_counters ? 0 : HWS_FEATURES_ERR_COUNTERS_MASK) |
			    (p.no_irq ? 0 : HWS_FEATURES_IRQ_MASK);
			break;
		}
		return std::string(1, resp) + FakeBoard::le(v);
	};
}

// The board's shape in a driver configuration.
hws_config board_config(const hws_params &p, const char *backend)
{
	hws_config c;
	hws_config_default(&c);
	c.backend = backend;
	c.nr_cpus = p.nr_cpus;
	c.nr_tasks = p.nr_tasks;
	c.cmd_depth = p.cmd_depth;
	c.res_depth = p.res_depth;
	c.nr_groups = p.nr_groups;
	c.no_balance = p.no_balance;
	c.no_err_counters = p.no_err_counters;
	c.no_irq = p.no_irq;
	return c;
}

const hws_params kBoard = { 2, 64, 16, 16, 16, 1, 1, 1, 0 };

// Linking this unit is what makes "uart" exist; the driver opens it by name with its
// argument, and the line's figures count every frame, the open's own too.
TEST(UartBackend, IsFoundByNameAndOpensThroughTheDriver)
{
	ASSERT_NE(hws_backend_find("uart:/dev/ttyUSB1,baud=115200"), nullptr);
	EXPECT_EQ(hws_backend_find("uart:/dev/ttyUSB1"), hws_backend_find("uart"));
	Pty p;
	FakeBoard b(p, engine_like(kBoard));
	std::string name = "uart:" + p.name + ",timeout=2000";
	hws_config c = board_config(kBoard, name.c_str());
	hws_dev *d = nullptr;
	char msg[512] = "";
	ASSERT_EQ(hws_open(&d, &c, msg, sizeof(msg)), 0) << msg;
	EXPECT_EQ(std::string(hws_config_backend(hws_config_of(d))), name);
	EXPECT_EQ(hwstest::reg(d, HWS_REG_NR_TASKS), 64u);
	EXPECT_EQ(hws_reg_write(d, HWS_REG_CMD, 0), 0) << hws_errmsg(d);
	hws_bus_stats st;
	hws_get_bus_stats(d, &st);
	EXPECT_EQ(st.edges, 0u) << "the board's clock is not seen over the line";
	char line[512];
	ASSERT_EQ(hws_bus_report(d, line, sizeof(line)), 0);
	// The open: resynchronisation, ID and the five shape reads; the driver's six ID
	// reads; one read and one write here.
	EXPECT_TRUE(has(line, "uart " + p.name + " at 115200 baud, board clock 12000000 Hz: "
			"14 frames (13 reads, 1 writes; 14.00 per CMD write), ")) << line;
	EXPECT_EQ(b.frames().size(), 14u);
	hws_close(d);
}

// A garbled reply reaches the caller as the line's own message, not as an engine that
// never answered; the device then answers nothing more and sends nothing more.
TEST(UartBackend, AGarbledReplyIsTheLinesOwnMessage)
{
	Pty p;
	FakeBoard b(p, engine_like(kBoard, 13));	// the open takes 6 + 6 frames
	std::string name = "uart:" + p.name + ",timeout=2000";
	hws_config c = board_config(kBoard, name.c_str());
	hws_dev *d = nullptr;
	char msg[512] = "";
	ASSERT_EQ(hws_open(&d, &c, msg, sizeof(msg)), 0) << msg;
	uint32_t v;
	EXPECT_EQ(hws_reg_read(d, HWS_REG_STATUS, &v), 0) << hws_errmsg(d);
	EXPECT_EQ(hws_reg_read(d, HWS_REG_STATUS, &v), -EIO);
	std::string m = hws_errmsg(d);
	char want[96];
	snprintf(want, sizeof(want), ": garbled reply to the frame 'R' 0x%02x: RESP byte 0x47 (a "
		 "response is 0..3)", HWS_REG_STATUS);
	EXPECT_EQ(m, p.name + want);
	EXPECT_EQ(hws_nop(d), -EIO);
	EXPECT_EQ(b.frames().size(), 14u) << "nothing sent after the line failed";
	hws_close(d);
}

// A board is built with one shape: another is refused at the open, naming the board's.
TEST(UartBackend, AnotherShapeIsRefusedNamingTheBoards)
{
	Pty p;
	FakeBoard b(p, engine_like(kBoard));
	hws_params want = kBoard;
	want.nr_cpus = 4;
	want.no_balance = 0;
	std::string name = "uart:" + p.name + ",timeout=2000";
	hws_config c = board_config(want, name.c_str());
	hws_dev *d = nullptr;
	char msg[512] = "";
	EXPECT_EQ(hws_open(&d, &c, msg, sizeof(msg)), -ENOTSUP);
	EXPECT_EQ(std::string(msg), p.name + ": the board's engine has 2 CPUs, 64 tasks, FIFOs "
		  "16/16, 16 groups, no BALANCE, no per-code error counters; asked for 4 CPUs, 64 "
		  "tasks, FIFOs 16/16, 16 groups, no per-code error counters");
	EXPECT_EQ(d, nullptr);
	// The line was released: it opens again.
	hws_config ok = board_config(kBoard, name.c_str());
	ASSERT_EQ(hws_open(&d, &ok, msg, sizeof(msg)), 0) << msg;
	hws_close(d);
}

// A board built without the interrupt (FEATURES.IRQ = 0) is not the one asked for with it,
// and the other way round; asked for as it is, it opens and the interrupt calls refuse.
TEST(UartBackend, TheInterruptMustMatchTheBoards)
{
	Pty p;
	hws_params board = kBoard;
	board.no_irq = 1;
	FakeBoard b(p, engine_like(board));
	std::string name = "uart:" + p.name + ",timeout=2000";
	hws_config c = board_config(kBoard, name.c_str());	// with the interrupt
	hws_dev *d = nullptr;
	char msg[512] = "";
	EXPECT_EQ(hws_open(&d, &c, msg, sizeof(msg)), -ENOTSUP);
	EXPECT_NE(std::string(msg).find("no per-code error counters, no interrupt; asked for"),
		  std::string::npos) << msg;
	EXPECT_EQ(d, nullptr);
	hws_config ok = board_config(board, name.c_str());
	ASSERT_EQ(hws_open(&d, &ok, msg, sizeof(msg)), 0) << msg;
	uint64_t pend = 0;
	EXPECT_EQ(hws_irq_pending(d, &pend), -EOPNOTSUPP);
	hws_close(d);
}

// A waveform is refused before the device is touched; the argument is the device.
TEST(UartBackend, NoWaveformAndNoDeviceAreRefusedFirst)
{
	hws_config c = board_config(kBoard, "uart:/nonexistent/ttyQ");
	c.wave = "engine.fst";
	hws_dev *d = nullptr;
	char msg[256] = "";
	EXPECT_EQ(hws_open(&d, &c, msg, sizeof(msg)), -EINVAL);
	EXPECT_TRUE(has(msg, "writes no waveform")) << msg;
	c.wave = nullptr;
	EXPECT_EQ(hws_open(&d, &c, msg, sizeof(msg)), -ENOENT);
	EXPECT_TRUE(has(msg, "cannot open /nonexistent/ttyQ: No such file")) << msg;
	c.backend = "uart";
	EXPECT_EQ(hws_open(&d, &c, msg, sizeof(msg)), -EINVAL);
	EXPECT_TRUE(has(msg, "no serial device given")) << msg;
}

} // namespace
