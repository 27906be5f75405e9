// board_test.cc - the Verilated board behind a pseudo-terminal (sim/board/board_sim.cpp,
// synth/board_top.v) driven through the uart backend (driver/hws_uart.c): hwsched lockstep
// --backend lockstep:uart:PTY, the C model beside the simulated board, as a user runs it
// against a real one (docs/board.md), and the backend on its own.
#include <gtest/gtest.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <string>

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "driver/hws_uart.h"
#include "tests/test_util.h"

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

// A register's data as the board sends it, least significant byte first.
std::string le(uint32_t v)
{
	return std::string{ char(v), char(v >> 8), char(v >> 16), char(v >> 24) };
}

#ifdef BOARD_SIM_BIN
// build/board/board_sim run as a child: its pty, the lockstep options of its shape, and
// the statistics it prints when stopped.
class BoardSim {
public:
	explicit BoardSim(const std::string &args = "", const char *bin = BOARD_SIM_BIN)
	{
		int fds[2];
		if (pipe(fds))
			return;
		pid_ = fork();
		if (pid_ == 0) {
			dup2(fds[1], 1);
			close(fds[0]);
			close(fds[1]);
			std::string cmd = std::string("exec ") + bin + " --max-idle 120 " + args;
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

// hwsched lockstep against the simulated board: @pair "lockstep:" runs the model beside it.
std::string lockstep_args(const BoardSim &s, const std::string &line_opts, unsigned n,
			  uint64_t seed, const std::string &pair = "lockstep:")
{
	return "lockstep --backend " + pair + "uart:" + s.pty() + line_opts + " " + s.opts() +
	       " --commands " + std::to_string(n) + " --seed " + std::to_string(seed);
}

// The frames the uart backend counted, from hwsched's "bus: uart ..." line: 0 on success.
int line_frames(const std::string &out, unsigned long long *frames, unsigned long long *reads,
		unsigned long long *writes)
{
	size_t at = out.find("\nbus: uart ");
	if (at == std::string::npos)
		return -1;
	at = out.find(" Hz: ", at);
	if (at == std::string::npos)
		return -1;
	return sscanf(out.c_str() + at, " Hz: %llu frames (%llu reads, %llu writes", frames, reads,
		      writes) == 3 ? 0 : -1;
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
	EXPECT_TRUE(has(r.out, "backend lockstep:uart:" + s.pty())) << r.out;
	unsigned long long frames = 0, reads = 0, writes = 0;
	ASSERT_EQ(line_frames(r.out, &frames, &reads, &writes), 0) << r.out;
	EXPECT_GT(frames, (unsigned long long)kBoardCommands);
	char want[96];
	snprintf(want, sizeof(want), "board_sim: %llu frames (%llu reads, %llu writes)", frames,
		 reads, writes);
	EXPECT_TRUE(has(sim, want)) << want << "\n" << sim;
	EXPECT_TRUE(has(sim, " 0 unsolicited, 0 framing errors")) << sim;
}

// The backend on its own, without the model: the random stream's outcomes are still
// checked against what the spec predicts, and the line's figures are printed.
TEST(BoardSim, TheBoardAloneMeetsTheSpec)
{
	uint64_t seed = hwstest::seed_from_env(5);
	BoardSim s;
	ASSERT_FALSE(s.opts().empty()) << s.head();
	CliRun r = hwsched(lockstep_args(s, ",timeout=10000", 100, seed, ""));
	std::string sim = s.stop();
	ASSERT_EQ(r.status, 0) << "seed " << seed << "\n" << r.out << sim;
	EXPECT_EQ(last_line(r.out), "lockstep: 100 commands, 0 mismatches");
	EXPECT_TRUE(has(r.out, "backend uart:" + s.pty())) << r.out;
	unsigned long long frames = 0, reads = 0, writes = 0;
	ASSERT_EQ(line_frames(r.out, &frames, &reads, &writes), 0) << r.out;
	EXPECT_TRUE(has(sim, "board_sim: " + std::to_string(frames) + " frames (")) << sim;
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
	size_t m = r.out.find("model data 0x"), t = r.out.find("uart data 0x");
	ASSERT_NE(m, std::string::npos);
	ASSERT_NE(t, std::string::npos);
	uint32_t mv = (uint32_t)strtoul(r.out.c_str() + m + 11, nullptr, 16);
	uint32_t tv = (uint32_t)strtoul(r.out.c_str() + t + 10, nullptr, 16);
	EXPECT_EQ(mv ^ tv, 1u) << r.out;
	EXPECT_TRUE(has(last_line(r.out), "commands, 1 mismatches")) << r.out;
}

TEST(BoardSim, ABoardThatStopsAnsweringTimesOutNamingTheDevice)
{
	BoardSim s("--drop-after 60");
	ASSERT_FALSE(s.opts().empty()) << s.head();
	CliRun r = hwsched(lockstep_args(s, ",timeout=2000", kBoardCommands, 3));
	EXPECT_EQ(r.status, 1) << r.out;
	// The line's own message, not an engine that never answered.
	EXPECT_FALSE(has(r.out, "never answered")) << r.out;
	EXPECT_TRUE(has(r.out, ": uart: " + s.pty() + ": no reply to the frame")) << r.out;
	EXPECT_TRUE(has(r.out, "within 2000 ms (0 of ")) << r.out;
}

TEST(BoardSim, AGarbledReplyStopsTheRunNamingTheDevice)
{
	BoardSim s("--garble 45");
	ASSERT_FALSE(s.opts().empty()) << s.head();
	CliRun r = hwsched(lockstep_args(s, ",timeout=10000", kBoardCommands, 4));
	EXPECT_EQ(r.status, 1) << r.out;
	EXPECT_TRUE(has(r.out, ": uart: " + s.pty() + ": garbled reply to the frame")) << r.out;
	EXPECT_TRUE(has(r.out, "(a response is 0..3)")) << r.out;
	EXPECT_FALSE(has(r.out, "never answered")) << r.out;
}

// A shape other than the board's is refused at the open, naming the board's shape in the
// words the simulator prints for it; with or without the model beside it.
TEST(BoardSim, AnotherShapeThanTheBoardsIsAClearError)
{
	BoardSim s;
	ASSERT_FALSE(s.pty().empty()) << s.head();
	size_t at = s.head().find("board_sim: board_top "), end = s.head().find("; ", at);
	ASSERT_NE(end, std::string::npos) << s.head();
	std::string shape = s.head().substr(at + 21, end - at - 21);
	for (std::string pair : { "lockstep:", "" }) {
		std::string b = pair + "uart:" + s.pty() + ",timeout=10000";
		CliRun r = hwsched("lockstep --backend " + b + " --commands 10");
		EXPECT_EQ(r.status, 1) << r.out;
		EXPECT_TRUE(has(r.out, "hwsched lockstep: cannot open the " + b + " backend: " +
				       s.pty() + ": the board's engine has " + shape +
				       "; asked for 8 CPUs, 256 tasks")) << r.out;
	}
}

TEST(BoardSim, UnknownBackendAndWaveAreRefused)
{
	CliRun r = hwsched("lockstep --backend usb:/dev/x");
	EXPECT_EQ(r.status, 2) << r.out;
	EXPECT_TRUE(has(r.out, "--backend must be one of lockstep, model, rtl, uart (got "
			       "'usb:/dev/x')")) << r.out;
	// Bad input to the backend is bad usage (2), refused before the device is touched.
	r = hwsched("lockstep --backend uart:/dev/x --wave w.fst");
	EXPECT_EQ(r.status, 2) << r.out;
	EXPECT_TRUE(has(r.out, "--wave needs a backend that simulates the RTL")) << r.out;
	r = hwsched("lockstep --backend lockstep:uart:/dev/x,baud=12345");
	EXPECT_EQ(r.status, 2) << r.out;
	EXPECT_TRUE(has(r.out, "baud rate 12345 is not one termios offers")) << r.out;
	// A device that is not there is a failure at run time (1).
	r = hwsched("lockstep --backend uart:/nonexistent/ttyQ --commands 1");
	EXPECT_EQ(r.status, 1) << r.out;
	EXPECT_TRUE(has(r.out, "hwsched lockstep: cannot open the uart:/nonexistent/ttyQ backend: "
			       "cannot open /nonexistent/ttyQ: No such file")) << r.out;
}

// The scheduler through the line: hwsched run with the firmware (--sched hw) driving the
// engine over uart:PTY, hackbench on the board's 2 CPUs, on the fast simulator (the same
// board_top and frames at BOARD_FAST_BAUD). The line reaches no POP/PEEKW window, so
// the firmware uses the synchronous protocol, and the line does not carry the board's
// clock, so the uart backend reports no clock edges: the rtl backend, at the board's
// shape, with --sync-cmds and the engine's clock not charged (engine_clk_ns=0), must
// then give the same report but for the line counting the engine's cycles.
constexpr unsigned kRunLoops = 2;	// hackbench loops: a few seconds over the fast line

std::string run_args(const std::string &backend, uint64_t seed)
{
	return "run --sched hw --sync-cmds --cost engine_clk_ns=0 " BOARD_RUN_OPTS
	       " --workload hackbench:groups=1,loops=" + std::to_string(kRunLoops) +
	       " --seed " + std::to_string(seed) + " --backend " + backend;
}

// The report without its "engine: ..." line (returned in @engine), and with the backend's
// name on the "run: " line replaced by B.
std::string without_engine_line(const std::string &out, std::string *engine)
{
	std::string rest;
	size_t at = 0;
	while (at < out.size()) {
		size_t nl = out.find('\n', at);
		std::string l = out.substr(at, nl == std::string::npos ? std::string::npos : nl + 1 - at);
		at = nl == std::string::npos ? out.size() : nl + 1;
		size_t b = l.find(", backend "), e = l.rfind(", seed ");
		if (l.rfind("run: ", 0) == 0 && b != std::string::npos && e != std::string::npos && e > b)
			l = l.substr(0, b) + ", backend B" + l.substr(e);
		if (l.rfind("engine: ", 0) == 0)
			*engine = l;
		else
			rest += l;
	}
	return rest;
}

TEST(BoardRun, HackbenchOverTheSimulatedUartEqualsTheRtlAtTheBoardsShape)
{
	uint64_t seed = hwstest::seed_from_env(3);
	BoardSim s("", BOARD_SIM_FAST_BIN);
	ASSERT_FALSE(s.opts().empty()) << s.head();
	CliRun u = hwsched(run_args("uart:" + s.pty() + ",baud=" + std::to_string(BOARD_FAST_BAUD) +
				    ",timeout=10000", seed));
	std::string sim = s.stop();
	ASSERT_EQ(u.status, 0) << "seed " << seed << "\n" << u.out << sim;
	CliRun r = hwsched(run_args("rtl", seed));
	ASSERT_EQ(r.status, 0) << "seed " << seed << "\n" << r.out;
	std::string ue, re;
	EXPECT_EQ(without_engine_line(u.out, &ue), without_engine_line(r.out, &re)) << "seed " << seed;
	EXPECT_TRUE(has(u.out, ", backend uart:" + s.pty() + ",")) << u.out;
	EXPECT_TRUE(has(r.out, ", backend rtl, seed ")) << r.out;
	// The engine line: the same commands and MMIO accesses, cycles only on the rtl side.
	unsigned long long uc = 0, um = 0, ucy = 1, rc = 0, rm = 0, rcy = 0;
	ASSERT_EQ(sscanf(ue.c_str(), "engine: %llu commands, %llu MMIO accesses, %llu cycles", &uc,
			 &um, &ucy), 3) << u.out;
	ASSERT_EQ(sscanf(re.c_str(), "engine: %llu commands, %llu MMIO accesses, %llu cycles", &rc,
			 &rm, &rcy), 3) << r.out;
	EXPECT_EQ(uc, rc);
	EXPECT_EQ(um, rm);
	EXPECT_GT(uc, 100u) << "hackbench made too few engine commands to show anything";
	EXPECT_EQ(ucy, 0u) << "the line carries no clock edges";
	EXPECT_GT(rcy, 0u);
	// Every MMIO access the firmware made was one frame on the line, beside the open's
	// reads (ID and the five shape registers) and the close's.
	unsigned long long frames = 0;
	size_t at = sim.find("board_sim: ");
	for (; at != std::string::npos; at = sim.find("board_sim: ", at + 1))
		if (sscanf(sim.c_str() + at, "board_sim: %llu frames (", &frames) == 1)
			break;
	EXPECT_GE(frames, um) << sim;
	EXPECT_LT(frames, um + 64) << sim;
	EXPECT_TRUE(has(sim, " 0 unsolicited, 0 framing errors")) << sim;
}

// hwsched run's errors with the board: a workload with more tasks than the board's engine
// holds, the board's shape not asked for, an option the line cannot serve, a board that
// stops answering.
TEST(BoardRun, AWorkloadLargerThanTheBoardsEngineIsRefusedNamingBoth)
{
	// hackbench groups=2: 80 tasks; the firmware refuses before it opens the device.
	CliRun r = hwsched("run --sched hw --backend uart:/nonexistent/ttyQ " BOARD_RUN_OPTS
			   " --workload hackbench:groups=2,loops=1");
	EXPECT_EQ(r.status, 1) << r.out;
	EXPECT_TRUE(has(r.out, "scheduler hw: the engine holds 64 tasks, the workload has 80"))
		<< r.out;
	EXPECT_FALSE(has(r.out, "ttyQ")) << r.out;
}

TEST(BoardRun, TheDefaultEngineIsRefusedByTheBoardNamingBothShapes)
{
	BoardSim s;
	ASSERT_FALSE(s.pty().empty()) << s.head();
	CliRun r = hwsched("run --sched hw --topology core=2 --backend uart:" + s.pty() +
			   ",timeout=10000 --workload hackbench:groups=1,loops=1");
	EXPECT_EQ(r.status, 1) << r.out;
	EXPECT_TRUE(has(r.out, "engine (2 CPUs, 256 tasks, uart:" + s.pty() + ",timeout=10000 "
			       "backend): " +
			       s.pty() + ": the board's engine has 2 CPUs, 64 tasks")) << r.out;
	EXPECT_TRUE(has(r.out, "asked for 2 CPUs, 256 tasks")) << r.out;
	EXPECT_TRUE(has(r.out, "--engine-tasks")) << r.out;
}

TEST(BoardRun, OptionsTheLineCannotServeAreRefusedNamingThem)
{
	CliRun r = hwsched("run --sched hw --backend uart:/dev/x " BOARD_RUN_OPTS " --wave w.fst");
	EXPECT_EQ(r.status, 2) << r.out;
	EXPECT_TRUE(has(r.out, "--wave needs a backend that simulates the RTL (rtl or lockstep; "
			       "got 'uart:/dev/x')")) << r.out;
	r = hwsched("run --sched hw --backend uart:/dev/x " BOARD_RUN_OPTS " --engine-irq");
	EXPECT_EQ(r.status, 2) << r.out;
	EXPECT_TRUE(has(r.out, "--engine-irq")) << r.out;
	// (a board built without the interrupt, ni, has --no-irq among its options, which
	// refuses --engine-irq before the backend is looked at)
	if (has(BOARD_RUN_OPTS, "--no-irq"))
		EXPECT_TRUE(has(r.out, "--no-irq builds the engine without it")) << r.out;
	else
		EXPECT_TRUE(has(r.out, "uart:/dev/x")) << r.out;
	r = hwsched("run --sched o1 --engine-tasks 64");
	EXPECT_EQ(r.status, 2) << r.out;
	EXPECT_TRUE(has(r.out, "--engine-tasks")) << r.out;
	r = hwsched("run --sched hw --engine-tasks 5000");
	EXPECT_EQ(r.status, 2) << r.out;
	EXPECT_TRUE(has(r.out, "--engine-tasks")) << r.out;
}

TEST(BoardRun, ABoardThatStopsAnsweringMidRunIsNamed)
{
	// Early (programming the domain table), among the first tasks' commands, and mid-run:
	// the firmware stops with the line's own words, whatever the policy was doing.
	for (unsigned n : { 20u, 80u, 450u }) {
		BoardSim s("--drop-after " + std::to_string(n), BOARD_SIM_FAST_BIN);
		ASSERT_FALSE(s.pty().empty()) << s.head();
		CliRun r = hwsched("run --sched hw " BOARD_RUN_OPTS " --backend uart:" + s.pty() +
				   ",baud=" + std::to_string(BOARD_FAST_BAUD) +
				   ",timeout=500 --workload hackbench:groups=1,loops=2");
		EXPECT_EQ(r.status, 1) << "drop after " << n << ": " << r.out;
		EXPECT_TRUE(has(r.out, s.pty() + ": no reply to the frame")) << r.out;
		EXPECT_TRUE(has(r.out, "within 500 ms")) << r.out;
		EXPECT_FALSE(has(r.out, "Input/output error")) << r.out;
	}
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
	EXPECT_EQ(got, std::string(1, '\0') + le(cpus)) << "NR_CPUS after junk";
	// Half a write frame, then the line is dropped.
	ASSERT_EQ(write(fd, "W\x10\x00", 3), 3);
	close(fd);
	hws_uart_opts o;
	hws_uart *u = nullptr;
	char msg[512] = "";
	hws_uart_default_opts(&o);
	o.timeout_ms = 10000;
	ASSERT_EQ(hws_uart_open(&u, s.pty().c_str(), &o, msg, sizeof(msg)), 0) << msg;
	uint32_t v = 0, resp = 9;
	EXPECT_EQ(hws_uart_read(u, HWS_REG_NR_CPUS, &v, &resp), 0) << hws_uart_errmsg(u);
	EXPECT_EQ(v, cpus);
	EXPECT_EQ(resp, 0u);
	hws_uart_close(u);
}
#endif

} // namespace
