// board_sim - the iCEBreaker board without the board: synth/board_top.v Verilated, behind
// a pseudo-terminal.
//
//   hwsched --uart:PTY--> [ pty master | RX bit driver -> board_top -> TX bit sampler ]
//
// Bytes the host writes to the pty's slave side are shifted into board_top's RX pin one
// bit at a time, DIV = CLK_HZ / BAUD clocks per bit (start bit, 8 data bits LSB first,
// stop bit, back to back), and TX is sampled in the middle of each bit back into bytes,
// so the frame protocol of docs/board.md runs bit by bit as on silicon, in simulated time.
//
// Simulated time only advances while the board has something to do: a byte to receive, a
// reply it owes, a byte on TX. When the host is silent and the board has answered every
// frame, the simulator waits in poll() without clocking, so the simulated time of a run
// is that of a host that answers at once (the figures of docs/board.md). The simulator
// follows the host's frames with the protocol's own rules to know which replies are owed;
// the same bookkeeping lets a test plant faults (--corrupt, --garble, --drop-after).
//
// Prints "board_sim: pty PATH" and the lockstep options of its shape on stdout, then
// serves until SIGINT/SIGTERM (or --max-idle), and prints its statistics. The engine's
// shape is fixed at build time (the Makefile's BOARD_SHAPE, passed as build/hws_shape_key's
// -DHWS_V_<field> defines).
#include <cerrno>
#include <cinttypes>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <string>

#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <sys/stat.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "Vboard_top.h"
#include "verilated.h"

#ifndef HWS_V_nr_cpus
#error "build with the shape's -DHWS_V_* defines (the Makefile's BOARD_SHAPE)"
#endif
#ifndef BOARD_CLK_HZ
#define BOARD_CLK_HZ 12000000
#endif
#ifndef BOARD_BAUD
#define BOARD_BAUD 115200
#endif

namespace {

constexpr unsigned kDiv = BOARD_CLK_HZ / BOARD_BAUD;	// clocks per bit, as board_top
// A board that owes reply bytes but keeps TX idle this long has hung (the bridge waits
// for an AXI answer that never comes): stop clocking and let the host time out.
constexpr uint64_t kHangClocks = 64ull * 10 * kDiv;

volatile sig_atomic_t g_stop;

void on_signal(int) { g_stop = 1; }

struct Options {
	int corrupt_addr = -1;	// --corrupt ADDR:N: the N-th read of ADDR gets D0 ^ 0x01
	uint64_t corrupt_nth = 0;
	uint64_t garble_nth = 0;	// --garble N: the N-th frame's reply gets RESP ^ 0xA0
	uint64_t drop_after = 0;	// --drop-after N: no reply after the N-th frame
	double max_idle_s = 0;	// --max-idle S: exit when the host is silent this long
	const char *link = nullptr;	// --link PATH: a symlink to the pty
};

// What the host's byte stream means, by board_top's rules; one entry per reply owed.
struct Reply {
	bool read;
	unsigned addr;
	unsigned left;		// bytes still to come
	unsigned index;		// next byte's index in the reply
	bool corrupt, garble, drop;
};

class FrameTracker {
public:
	explicit FrameTracker(const Options &o) : o_(o) {}

	// A byte the board received (stop bit good).
	void host_byte(uint8_t b)
	{
		switch (st_) {
		case OP:
			if (b == 'W' || b == 'S' || b == 'R') {
				op_ = b;
				st_ = ADDR;
			}
			break;
		case ADDR:
			addr_ = b;
			n_ = 4;
			if (op_ == 'R')
				frame_done();
			else
				st_ = op_ == 'S' ? STRB : DATA;
			break;
		case STRB:
			st_ = DATA;
			n_ = 4;
			break;
		case DATA:
			if (--n_ == 0)
				frame_done();
			break;
		}
	}

	// A byte the board sent; returns false when it is to be dropped.
	bool board_byte(uint8_t *b)
	{
		if (owed_.empty()) {
			unsolicited++;
			return true;
		}
		Reply &r = owed_.front();
		if (r.index == 0 && r.garble)
			*b ^= 0xA0;
		if (r.index == 1 && r.corrupt)
			*b ^= 0x01;
		bool keep = !r.drop;
		r.index++;
		if (--r.left == 0)
			owed_.pop_front();
		return keep;
	}

	bool owes() const { return !owed_.empty(); }
	void forget() { owed_.clear(); }

	uint64_t reads = 0, writes = 0, unsolicited = 0;

private:
	enum { OP, ADDR, STRB, DATA } st_ = OP;
	uint8_t op_ = 0;
	unsigned addr_ = 0, n_ = 0;
	uint64_t frames_ = 0, addr_reads_ = 0;
	std::deque<Reply> owed_;
	const Options &o_;

	void frame_done()
	{
		Reply r{};
		bool rd = op_ == 'R';

		st_ = OP;
		frames_++;
		rd ? reads++ : writes++;
		r.read = rd;
		r.addr = addr_;
		r.left = rd ? 5 : 1;
		if (rd && (int)addr_ == o_.corrupt_addr && ++addr_reads_ == o_.corrupt_nth)
			r.corrupt = true;
		r.garble = frames_ == o_.garble_nth;
		r.drop = o_.drop_after && frames_ > o_.drop_after;
		owed_.push_back(r);
	}
};

// The RX pin: bytes out one bit at a time.
class RxDriver {
public:
	void push(uint8_t b) { q_.push_back(b); }
	bool busy() const { return bit_ >= 0 || !q_.empty(); }
	// The level for this clock; *done gets the byte whose stop bit ended.
	int level(int *done)
	{
		*done = -1;
		if (bit_ < 0) {
			if (q_.empty())
				return 1;
			cur_ = q_.front();
			q_.pop_front();
			bit_ = 0;
			cnt_ = 0;
		}
		int lv = bit_ == 0 ? 0 : bit_ == 9 ? 1 : (cur_ >> (bit_ - 1)) & 1;
		if (++cnt_ == kDiv) {
			cnt_ = 0;
			if (++bit_ == 10) {
				bit_ = -1;
				*done = cur_;
			}
		}
		return lv;
	}
	size_t queued() const { return q_.size(); }

private:
	std::deque<uint8_t> q_;
	int bit_ = -1;
	unsigned cnt_ = 0;
	uint8_t cur_ = 0;
};

// The TX pin: sampled in the middle of each bit.
class TxSampler {
public:
	bool busy() const { return bit_ >= 0; }
	// Returns the byte when its stop bit is sampled high, -2 on a framing error, else -1.
	int clock(int tx)
	{
		if (bit_ < 0) {
			if (tx)
				return -1;
			bit_ = 0;
			cnt_ = kDiv / 2;	// to the middle of the start bit
			return -1;
		}
		if (--cnt_ != 0)
			return -1;
		cnt_ = kDiv;
		if (bit_ == 0) {
			if (tx)	// a glitch, not a start bit
				bit_ = -1;
			else
				bit_ = 1, sh_ = 0;
			return -1;
		}
		if (bit_ <= 8) {
			sh_ |= (unsigned)(tx & 1) << (bit_ - 1);
			bit_++;
			return -1;
		}
		bit_ = -1;
		return tx ? (int)sh_ : -2;
	}

private:
	int bit_ = -1;
	unsigned cnt_ = 0, sh_ = 0;
};

double now_s()
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void usage(FILE *f, const char *prog)
{
	fprintf(f,
		"usage: %s [--link PATH] [--max-idle S] [--corrupt ADDR:N] [--garble N]\n"
		"                 [--drop-after N]\n"
		"\n"
		"synth/board_top.v (the engine behind the UART of docs/board.md), Verilated, behind\n"
		"a pseudo-terminal: prints 'board_sim: pty PATH', then the options that\n"
		"'hwsched lockstep --backend uart:PATH' needs for this shape, and serves the frame\n"
		"protocol bit by bit at %u baud (%u clocks per bit at %u Hz) until SIGINT or SIGTERM;\n"
		"then prints frames, bytes and simulated time.\n"
		"\n"
		"  --link PATH       also make PATH a symbolic link to the pty (replaced if it is one)\n"
		"  --max-idle S      exit when the host has sent nothing for S seconds (0: never)\n"
		"Planted faults, for the tests of the checker:\n"
		"  --corrupt ADDR:N  the reply to the N-th read of byte address ADDR (0x.. ok) has\n"
		"                    bit 0 of D0 flipped\n"
		"  --garble N        the reply to the N-th frame has RESP ^ 0xA0 (not 0..3)\n"
		"  --drop-after N    frames after the N-th get no reply (a board that went away)\n",
		prog, BOARD_BAUD, kDiv, BOARD_CLK_HZ);
}

bool parse_u64(const char *s, uint64_t *out)
{
	char *end;

	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || end == s || *end || s[0] == '-')
		return false;
	*out = v;
	return true;
}

int parse_args(int argc, char **argv, Options *o)
{
	for (int i = 1; i < argc; i++) {
		std::string a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : nullptr;
		uint64_t n;

		if (a == "--help" || a == "-h") {
			usage(stdout, argv[0]);
			exit(0);
		}
		if (!v) {
			fprintf(stderr, "%s: unknown option or missing value: '%s'\n", argv[0],
				a.c_str());
			return -1;
		}
		i++;
		if (a == "--link") {
			o->link = v;
		} else if (a == "--max-idle") {
			char *end;
			o->max_idle_s = strtod(v, &end);
			if (*end || end == v || o->max_idle_s < 0) {
				fprintf(stderr, "%s: --max-idle wants seconds (got '%s')\n", argv[0], v);
				return -1;
			}
		} else if (a == "--corrupt") {
			std::string s = v;
			size_t c = s.find(':');
			uint64_t ad;
			if (c == std::string::npos || !parse_u64(s.substr(0, c).c_str(), &ad) ||
			    ad > 255 || !parse_u64(s.substr(c + 1).c_str(), &n) || n == 0) {
				fprintf(stderr, "%s: --corrupt wants ADDR:N, ADDR 0..255, N >= 1 (got "
						"'%s')\n", argv[0], v);
				return -1;
			}
			o->corrupt_addr = (int)ad;
			o->corrupt_nth = n;
		} else if (a == "--garble" || a == "--drop-after") {
			if (!parse_u64(v, &n) || n == 0) {
				fprintf(stderr, "%s: %s wants a frame number >= 1 (got '%s')\n", argv[0],
					a.c_str(), v);
				return -1;
			}
			(a == "--garble" ? o->garble_nth : o->drop_after) = n;
		} else {
			fprintf(stderr, "%s: unknown option '%s' (try --help)\n", argv[0], a.c_str());
			return -1;
		}
	}
	return 0;
}

// Make @link a symbolic link to @target, through a temporary name and rename(); an
// existing @link is only replaced when it is a symbolic link itself.
int make_link(const char *link, const char *target)
{
	struct stat st;
	std::string tmp = std::string(link) + ".tmp" + std::to_string(getpid());

	if (lstat(link, &st) == 0 && !S_ISLNK(st.st_mode)) {
		fprintf(stderr, "board_sim: --link %s exists and is not a symbolic link: left "
				"alone\n", link);
		return -1;
	}
	if (symlink(target, tmp.c_str()) || rename(tmp.c_str(), link)) {
		fprintf(stderr, "board_sim: cannot link %s to %s: %s\n", link, target,
			strerror(errno));
		unlink(tmp.c_str());
		return -1;
	}
	return 0;
}

// Write what can be written of @out to the pty (the rest waits for the next try).
void flush(int fd, std::string *out)
{
	if (out->empty())
		return;
	ssize_t w = write(fd, out->data(), out->size());
	if (w > 0)
		out->erase(0, (size_t)w);
}

} // namespace

// The shape in the uart backend's words (driver/hws_uart.c, shape_words()), which name
// the board's shape when another is asked for, and the lockstep options that select it.
static void print_shape(unsigned div)
{
	char lanes[32] = "", lane_opt[32] = "";
	if (!HWS_V_no_balance && HWS_V_lcu_lean)
		snprintf(lanes, sizeof(lanes), ", the lean BALANCE");
	else if (!HWS_V_no_balance && HWS_V_bal_lanes != HWS_V_nr_cpus)
		snprintf(lanes, sizeof(lanes), ", %u BALANCE lanes", (unsigned)HWS_V_bal_lanes);
	if (!HWS_V_no_balance && !HWS_V_lcu_lean && HWS_V_bal_lanes != HWS_V_nr_cpus)
		snprintf(lane_opt, sizeof(lane_opt), " --bal-lanes %u", (unsigned)HWS_V_bal_lanes);
	printf("board_sim: board_top %u CPUs, %u tasks, FIFOs %u/%u, %u groups%s%s%s%s; %u Hz, %u "
	       "baud (%u clocks per bit)\n", HWS_V_nr_cpus, HWS_V_nr_tasks, HWS_V_cmd_depth,
	       HWS_V_res_depth, HWS_V_nr_groups, HWS_V_no_balance ? ", no BALANCE" : "", lanes,
	       HWS_V_no_err_counters ? ", no per-code error counters" : "",
	       HWS_V_no_irq ? ", no interrupt" : "", BOARD_CLK_HZ, BOARD_BAUD, div);
	printf("board_sim: lockstep options: --cpus %u --tasks %u --depth %u%s%s%s%s%s\n",
	       HWS_V_nr_cpus, HWS_V_nr_tasks, HWS_V_cmd_depth,
	       HWS_V_no_balance ? " --no-balance" : "", lane_opt,
	       HWS_V_no_err_counters ? " --no-err-counters" : "", HWS_V_no_irq ? " --no-irq" : "",
	       !HWS_V_no_balance && HWS_V_lcu_lean ? " --bal-lean" : "");
}

int main(int argc, char **argv)
{
	Options o;
	char name[256];
	int mfd, sfd;
	struct termios t;

	if (parse_args(argc, argv, &o))
		return 2;
	if (openpty(&mfd, &sfd, name, nullptr, nullptr)) {
		fprintf(stderr, "board_sim: openpty: %s\n", strerror(errno));
		return 1;
	}
	// Raw, so the line discipline neither echoes the board's replies back as input nor
	// edits the bytes. The simulator keeps the slave open, so a host closing it is no
	// hangup and the next host finds the board where the last one left it.
	if (tcgetattr(sfd, &t) == 0) {
		cfmakeraw(&t);
		tcsetattr(sfd, TCSANOW, &t);
	}
	fcntl(mfd, F_SETFL, fcntl(mfd, F_GETFL) | O_NONBLOCK);
	if (o.link && make_link(o.link, name))
		return 1;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGPIPE, SIG_IGN);

	auto ctx = std::make_unique<VerilatedContext>();
	const char *vargv[] = { "board_sim" };
	ctx->commandArgs(1, vargv);
	auto top = std::make_unique<Vboard_top>(ctx.get(), "board");

	printf("board_sim: pty %s\n", name);
	print_shape(kDiv);
	fflush(stdout);

	FrameTracker ft(o);
	RxDriver rx;
	TxSampler tx;
	uint64_t cycles = 0, bytes_in = 0, bytes_out = 0, framing = 0, tail = 32;
	uint64_t quiet = 0;	// clocks since TX last moved while a reply is owed
	double last_host = now_s();
	std::string out;	// sampled bytes not yet written to the pty

	top->CLK = 0;
	top->BTN_N = 1;
	top->RX = 1;
	top->eval();
	while (!g_stop) {
		bool active = rx.busy() || tx.busy() || ft.owes() || tail;

		if (!active) {
			// Nothing to do: wait for the host without clocking.
			struct pollfd p = { mfd, (short)(POLLIN | (out.empty() ? 0 : POLLOUT)), 0 };
			int ms = 1000;
			if (o.max_idle_s > 0) {
				double left = o.max_idle_s - (now_s() - last_host);
				if (left <= 0)
					break;
				ms = left < 1 ? (int)(left * 1000) + 1 : 1000;
			}
			int n = poll(&p, 1, ms);
			if (n < 0 && errno != EINTR) {
				fprintf(stderr, "board_sim: poll: %s\n", strerror(errno));
				break;
			}
		}
		// Take what the host sent (once per bit time while busy, at once when idle).
		if (!active || cycles % kDiv == 0) {
			uint8_t buf[256];
			ssize_t n = read(mfd, buf, sizeof(buf));
			if (n > 0) {
				for (ssize_t i = 0; i < n; i++)
					rx.push(buf[i]);
				last_host = now_s();
				tail = 0;
			}
			flush(mfd, &out);
			if (!active)
				continue;
		}
		// One clock: RX level for this cycle, rising edge, falling edge, sample TX.
		int done;
		top->RX = rx.level(&done) & 1;
		top->CLK = 1;
		top->eval();
		top->CLK = 0;
		top->eval();
		cycles++;
		if (done >= 0) {
			bytes_in++;
			quiet = 0;
			ft.host_byte((uint8_t)done);
		}
		int b = tx.clock(top->TX);
		if (b == -2) {
			framing++;
		} else if (b >= 0) {
			uint8_t c = (uint8_t)b;
			bytes_out++;
			quiet = 0;
			if (ft.board_byte(&c))
				out.push_back((char)c);
			// A reply's last byte goes to the host when its stop bit has ended, so the
			// next frame always finds the simulator idle: simulated time then does not
			// depend on when, in wall time, the host answers.
			if (ft.owes())
				flush(mfd, &out);
			else
				tail = kDiv / 2;	// the rest of the stop bit
		}
		if (tail && !rx.busy() && !ft.owes() && --tail == 0)
			flush(mfd, &out);
		if (ft.owes() && !rx.busy() && !tx.busy() && ++quiet >= kHangClocks) {
			fprintf(stderr, "board_sim: the board owes a reply but its TX has been idle "
					"for %" PRIu64 " clocks: giving up on it\n", quiet);
			ft.forget();
			quiet = 0;
			flush(mfd, &out);
		}
	}
	top->final();
	printf("board_sim: %" PRIu64 " frames (%" PRIu64 " reads, %" PRIu64 " writes), %" PRIu64
	       " bytes in, %" PRIu64 " bytes out, %" PRIu64 " unsolicited, %" PRIu64 " framing "
	       "errors; %" PRIu64 " clocks simulated = %.6f s at %u Hz\n",
	       ft.reads + ft.writes, ft.reads, ft.writes, bytes_in, bytes_out, ft.unsolicited,
	       framing, cycles, (double)cycles / BOARD_CLK_HZ, BOARD_CLK_HZ);
	fflush(stdout);
	if (o.link)
		unlink(o.link);
	close(sfd);
	close(mfd);
	return 0;
}
