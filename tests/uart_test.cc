// uart_test.cc - the uart backend (driver/hws_uart.c), the driver's transport lockstep,
// and the Verilated board behind a pseudo-terminal (sim/board/board_sim.cpp).
//
// Three layers, each tested on its own:
// - the driver's transport lockstep, with a C model as the "board" (no line at all);
// - the uart backend's frames and errors, against a fake board written here from the
//   protocol of docs/board.md (a thread on a pty);
// - the whole chain, hwsched lockstep --backend uart:PTY against build/board/board_sim.
#include <gtest/gtest.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "hws_model.h"
#include "hws_randcmd.h"
#include "hws_uart.h"
#include "test_util.h"

namespace {

using hwstest::CliRun;
using hwstest::hwsched;

std::string last_line(const std::string &s)
{
	std::string t = s;
	while (!t.empty() && t.back() == '\n')
		t.pop_back();
	size_t nl = t.rfind('\n');
	return nl == std::string::npos ? t : t.substr(nl + 1);
}

bool has(const std::string &s, const std::string &what)
{
	return s.find(what) != std::string::npos;
}

// ---- The driver's transport lockstep, without a line -------------------------------------

// A "board" that is a second C model running freely: before each access it idles more
// than the driver's model does (its clock runs on), and it reports edges of its own.
struct FreeModel {
	hws_model *m = nullptr;
	unsigned extra_idle;	// edges it runs beyond the driver's settle before each access
	unsigned settle;
	hws_transport tp{};

	FreeModel(unsigned cpus, unsigned tasks, unsigned settle_, unsigned extra)
		: extra_idle(extra), settle(settle_)
	{
		hws_model_params p;
		hws_model_default_params(&p);
		p.nr_cpus = cpus;
		p.nr_tasks = tasks;
		EXPECT_EQ(hws_model_create(&m, &p), 0);
		tp.ctx = this;
		tp.read = [](void *c, unsigned, uint32_t a, uint32_t *d, uint32_t *r,
			     double *) -> unsigned {
			auto *f = static_cast<FreeModel *>(c);
			hws_model_idle(f->m, f->settle + f->extra_idle);
			return hws_model_read(f->m, a, d, r) + 3;	// edges: not compared
		};
		tp.write = [](void *c, unsigned, uint32_t a, uint32_t d, uint32_t s, uint32_t *r,
			      double *) -> unsigned {
			auto *f = static_cast<FreeModel *>(c);
			hws_model_idle(f->m, f->settle + f->extra_idle);
			return hws_model_write(f->m, a, d, s, r) + 3;
		};
		tp.idle = [](void *c, unsigned e, double *) {
			hws_model_idle(static_cast<FreeModel *>(c)->m, e);
		};
	}
	~FreeModel() { hws_model_destroy(m); }
};

hws_dev *open_tp_lockstep(const hws_transport *tp, unsigned cpus, unsigned tasks,
			  unsigned settle)
{
	hws_config c;
	hws_dev *d = nullptr;
	char msg[512];

	hws_config_default(&c);
	c.backend = HWS_BACKEND_TRANSPORT;
	c.nr_cpus = cpus;
	c.nr_tasks = tasks;
	c.transport = tp;
	c.transport_lockstep = 1;
	c.settle_edges = settle;
	int ret = hws_open(&d, &c, msg, sizeof(msg));
	EXPECT_EQ(ret, 0) << msg;
	return ret ? nullptr : d;
}

// An engine whose clock runs on between accesses agrees with the settled model on every
// read's data (CYCLES aside) and every response, over random commands of every kind.
TEST(TransportLockstep, AFreeRunningEngineAgreesWithTheSettledModel)
{
	uint64_t seed = hwstest::seed_from_env(11);
	FreeModel board(4, 64, 1040, 777);
	hws_dev *d = open_tp_lockstep(&board.tp, 4, 64, 1040);
	ASSERT_NE(d, nullptr);
	hws_randcmd_opts o{};
	o.seed = seed;
	o.commands = 20000;
	o.check_every = 1000;
	auto *r = new hws_randcmd_report;
	EXPECT_EQ(hws_randcmd_run(d, &o, r), 0) << "seed " << seed << ": " << r->msg;
	EXPECT_EQ(r->commands, 20000u);
	EXPECT_GT(r->fills + r->drains, 0u) << "the table never filled: a weak run";
	// The two clocks differ by 777 edges an access, and CYCLES (read at every soft reset
	// and at the end of the run) is the one register whose data is not compared.
	EXPECT_GT(hwstest::reg(d, HWS_REG_CYCLES), 777u);
	delete r;
	hws_close(d);
}

// Without the settle the model is caught mid-command (STATUS.BUSY): the settle is needed.
TEST(TransportLockstep, WithoutTheSettleTheModelLagsAndIsCaught)
{
	FreeModel board(2, 16, 0, 1040);
	hws_dev *d = open_tp_lockstep(&board.tp, 2, 16, 0);
	ASSERT_NE(d, nullptr);
	ASSERT_EQ(hws_submit(d, hws_cmd(HWS_OP_ENQUEUE, 1, 120, 0, 0, 0)), 0);
	uint32_t v;
	EXPECT_EQ(hws_reg_read(d, HWS_REG_STATUS, &v), -EIO);
	EXPECT_TRUE(has(hws_errmsg(d), "read STATUS")) << hws_errmsg(d);
	hws_close(d);
}

TEST(TransportLockstep, ADisagreementNamesBothAnswersWithoutEdges)
{
	FreeModel board(8, 256, 64, 5);
	hws_dev *d = open_tp_lockstep(&board.tp, 8, 256, 64);
	ASSERT_NE(d, nullptr);
	ASSERT_EQ(hws_enqueue(d, 5, 3, 120, 0, 0), 0);
	ASSERT_EQ(hws_inject_model_fault(d, 3), 0);	// the driver's model: load of CPU 3 + 1
	uint32_t v;
	EXPECT_EQ(hws_cpu_stat(d, 3, HWS_SEL_CPU_STAT_LOAD, &v), -EIO);
	std::string msg = hws_errmsg(d);
	char want_model[40], want_tp[40];
	snprintf(want_model, sizeof(want_model), "model data 0x%08x resp 0,", 1024u + 1u);
	snprintf(want_tp, sizeof(want_tp), "transport data 0x%08x resp 0", 1024u);
	EXPECT_TRUE(has(msg, want_model)) << msg;
	EXPECT_TRUE(has(msg, want_tp)) << msg;
	EXPECT_FALSE(has(msg, "edges")) << msg;
	EXPECT_EQ(hws_nop(d), -EIO) << "stays stopped";
	hws_close(d);
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

// ---- The Verilated board behind a pty ---------------------------------------------------

#ifdef BOARD_SIM_BIN
// build/board/board_sim run as a child: its pty, the lockstep options of its shape, and
// the statistics it prints when stopped.
class BoardSim {
public:
	explicit BoardSim(const std::string &args = "")
	{
		int fds[2];
		if (pipe(fds))
			return;
		pid_ = fork();
		if (pid_ == 0) {
			dup2(fds[1], 1);
			close(fds[0]);
			close(fds[1]);
			std::string cmd = std::string("exec ") + BOARD_SIM_BIN + " --max-idle 120 " + args;
			execl("/bin/sh", "sh", "-c", cmd.c_str(), (char *)nullptr);
			_exit(127);
		}
		close(fds[1]);
		out_ = fdopen(fds[0], "r");
		char line[512];
		while (out_ && fgets(line, sizeof(line), out_)) {
			std::string l = line;
			head_ += l;
			if (!l.empty() && l.back() == '\n')
				l.pop_back();
			if (l.rfind("board_sim: pty ", 0) == 0)
				pty_ = l.substr(15);
			if (l.rfind("board_sim: lockstep options: ", 0) == 0) {
				opts_ = l.substr(29);
				break;
			}
		}
	}
	~BoardSim() { stop(); }

	// Stop it; returns everything it printed.
	std::string stop()
	{
		if (pid_ > 0) {
			kill(pid_, SIGTERM);
			char buf[512];
			size_t n;
			while ((n = fread(buf, 1, sizeof(buf), out_)) > 0)
				head_.append(buf, n);
			waitpid(pid_, nullptr, 0);
			fclose(out_);
			pid_ = -1;
		}
		return head_;
	}
	const std::string &pty() const { return pty_; }
	const std::string &opts() const { return opts_; }
	const std::string &head() const { return head_; }

private:
	pid_t pid_ = -1;
	FILE *out_ = nullptr;
	std::string pty_, opts_, head_;
};

// Commands of the lockstep run over the simulated line: at about 3.8 frames per command
// and 7,280 clocks per frame, 400 commands are about 11 M simulated clocks.
constexpr unsigned kBoardCommands = 400;

std::string lockstep_args(const BoardSim &s, const std::string &line_opts, unsigned n,
			  uint64_t seed)
{
	return "lockstep --backend uart:" + s.pty() + line_opts + " " + s.opts() +
	       " --commands " + std::to_string(n) + " --seed " + std::to_string(seed);
}

TEST(BoardSim, TheDriverDefaultsAreTheBoardsRates)
{
	BoardSim s;
	ASSERT_FALSE(s.pty().empty()) << s.head();
	char want[96];
	snprintf(want, sizeof(want), "; %u Hz, %u baud", HWS_UART_DEFAULT_CLK_HZ,
		 HWS_UART_DEFAULT_BAUD);
	EXPECT_TRUE(has(s.head(), want)) << s.head();
}

// The main check: random commands, the Verilated board over the simulated line against
// the model, every read's data and every response compared; the line carried exactly
// the frames the driver counted.
TEST(BoardSim, LockstepOverTheSimulatedUartAgrees)
{
	uint64_t seed = hwstest::seed_from_env(1);
	BoardSim s;
	ASSERT_FALSE(s.opts().empty()) << s.head();
	CliRun r = hwsched(lockstep_args(s, ",timeout=10000", kBoardCommands, seed));
	std::string sim = s.stop();
	ASSERT_EQ(r.status, 0) << "seed " << seed << "\n" << r.out << sim;
	EXPECT_EQ(last_line(r.out),
		  "lockstep: " + std::to_string(kBoardCommands) + " commands, 0 mismatches");
	EXPECT_TRUE(has(r.out, "backend uart:" + s.pty())) << r.out;
	unsigned long long frames = 0, reads = 0, writes = 0;
	size_t at = r.out.find("uart: ");
	ASSERT_NE(at, std::string::npos) << r.out;
	ASSERT_EQ(sscanf(r.out.c_str() + at, "uart: %llu frames (%llu reads, %llu writes)", &frames,
			 &reads, &writes), 3) << r.out;
	EXPECT_GT(frames, (unsigned long long)kBoardCommands);
	char want[96];
	snprintf(want, sizeof(want), "board_sim: %llu frames (%llu reads, %llu writes)", frames,
		 reads, writes);
	EXPECT_TRUE(has(sim, want)) << want << "\n" << sim;
	EXPECT_TRUE(has(sim, " 0 unsolicited, 0 framing errors")) << sim;
}

// The check can fail: one bit of one SYNC read flipped on the line is caught there.
TEST(BoardSim, APlantedDisagreementIsCaught)
{
	BoardSim s("--corrupt 0x20:25");
	ASSERT_FALSE(s.opts().empty()) << s.head();
	CliRun r = hwsched(lockstep_args(s, ",timeout=10000", kBoardCommands, 2));
	EXPECT_EQ(r.status, 1) << r.out;
	EXPECT_TRUE(has(r.out, "lockstep mismatch at command #")) << r.out;
	EXPECT_TRUE(has(r.out, "read SYNC (0x20): model data ")) << r.out;
	size_t m = r.out.find("model data 0x"), t = r.out.find("transport data 0x");
	ASSERT_NE(m, std::string::npos);
	ASSERT_NE(t, std::string::npos);
	uint32_t mv = (uint32_t)strtoul(r.out.c_str() + m + 11, nullptr, 16);
	uint32_t tv = (uint32_t)strtoul(r.out.c_str() + t + 15, nullptr, 16);
	EXPECT_EQ(mv ^ tv, 1u) << r.out;
	EXPECT_TRUE(has(last_line(r.out), "commands, 1 mismatches")) << r.out;
}

TEST(BoardSim, ABoardThatStopsAnsweringTimesOutNamingTheDevice)
{
	BoardSim s("--drop-after 60");
	ASSERT_FALSE(s.opts().empty()) << s.head();
	CliRun r = hwsched(lockstep_args(s, ",timeout=2000", kBoardCommands, 3));
	EXPECT_EQ(r.status, 1) << r.out;
	EXPECT_TRUE(has(r.out, "the engine never answered")) << r.out;
	EXPECT_TRUE(has(r.out, s.pty() + ": no reply to the frame")) << r.out;
	EXPECT_TRUE(has(r.out, "within 2000 ms (0 of ")) << r.out;
}

TEST(BoardSim, AGarbledReplyStopsTheRunNamingTheDevice)
{
	BoardSim s("--garble 45");
	ASSERT_FALSE(s.opts().empty()) << s.head();
	CliRun r = hwsched(lockstep_args(s, ",timeout=10000", kBoardCommands, 4));
	EXPECT_EQ(r.status, 1) << r.out;
	EXPECT_TRUE(has(r.out, s.pty() + ": garbled reply to the frame")) << r.out;
	EXPECT_TRUE(has(r.out, "(a response is 0..3)")) << r.out;
}

TEST(BoardSim, AnotherShapeThanTheBoardsIsAClearError)
{
	BoardSim s;
	ASSERT_FALSE(s.pty().empty()) << s.head();
	CliRun r = hwsched("lockstep --backend uart:" + s.pty() + ",timeout=10000 --commands 10");
	EXPECT_EQ(r.status, 1) << r.out;
	EXPECT_TRUE(has(r.out, "cannot open the uart backend: lockstep mismatch")) << r.out;
	EXPECT_TRUE(has(r.out, "read NR_CPUS (0x04): model data 0x00000008")) << r.out;
	// ... and says which options select the board's shape: those the simulator prints.
	EXPECT_TRUE(has(r.out, "the board's engine has ")) << r.out;
	EXPECT_EQ(last_line(r.out).substr(last_line(r.out).find(": --cpus") + 2), s.opts())
		<< r.out;
}

TEST(BoardSim, UnknownBackendAndWaveAreRefused)
{
	CliRun r = hwsched("lockstep --backend usb:/dev/x");
	EXPECT_EQ(r.status, 2) << r.out;
	EXPECT_TRUE(has(r.out, "--backend must be model, rtl or lockstep, or uart:DEVICE (got "
			       "'usb:/dev/x')")) << r.out;
	r = hwsched("lockstep --backend uart:/dev/x --wave w.fst");
	EXPECT_EQ(r.status, 2) << r.out;
	r = hwsched("lockstep --backend uart:/nonexistent/ttyQ --commands 1");
	EXPECT_EQ(r.status, 1) << r.out;
	EXPECT_TRUE(has(r.out, "cannot open uart:/nonexistent/ttyQ: cannot open /nonexistent/ttyQ"))
		<< r.out;
}

// board_top ignores bytes that start no frame, and a frame a previous user left half sent
// is completed by the next open (its resynchronisation), which then reads the ID.
TEST(BoardSim, JunkIsIgnoredAndAHalfFrameIsResynchronised)
{
	BoardSim s;
	ASSERT_FALSE(s.pty().empty()) << s.head();
	int fd = open(s.pty().c_str(), O_RDWR | O_NOCTTY);
	ASSERT_GE(fd, 0) << strerror(errno);
	termios t;
	tcgetattr(fd, &t);
	cfmakeraw(&t);
	tcsetattr(fd, TCSANOW, &t);
	const std::string junk("\x00zz\xff\x80R\x04", 7);
	ASSERT_EQ(write(fd, junk.data(), junk.size()), (ssize_t)junk.size());
	std::string got;
	pollfd p{ fd, POLLIN, 0 };
	char buf[16];
	while (got.size() < 5 && poll(&p, 1, 10000) > 0) {
		ssize_t n = read(fd, buf, sizeof(buf));
		if (n <= 0)
			break;
		got.append(buf, (size_t)n);
	}
	unsigned cpus = 0;
	ASSERT_EQ(sscanf(s.opts().c_str(), "--cpus %u", &cpus), 1) << s.opts();
	EXPECT_EQ(got, std::string(1, '\0') + FakeBoard::le(cpus)) << "NR_CPUS after junk";
	// Half a write frame, then the line is dropped.
	ASSERT_EQ(write(fd, "W\x10\x00", 3), 3);
	close(fd);
	int ret;
	std::string msg;
	hws_uart *u = open_uart(s.pty(), 10000, &ret, &msg);
	ASSERT_NE(u, nullptr) << msg;
	uint32_t v = 0, resp = 9;
	EXPECT_EQ(hws_uart_read(u, HWS_REG_NR_CPUS, &v, &resp), 0) << hws_uart_errmsg(u);
	EXPECT_EQ(v, cpus);
	EXPECT_EQ(resp, 0u);
	hws_uart_close(u);
}
#endif

} // namespace
