/*
 * hws_uart.c - the engine on a board over a serial line, backend "uart"; see hws_uart.h
 * and docs/board.md.
 */
#define _DEFAULT_SOURCE		/* cfmakeraw, flock */
#include "driver/hws_uart.h"
#include "lib/hws_params.h"
#include "lib/hws_parse.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "hws/regs.h"

#define RESYNC_BYTES 6		/* the longest frame ('S') less its first byte */
#define MAX_FRAME 7

struct hws_uart {
	int fd;
	char *device;
	struct hws_uart_opts o;
	struct hws_uart_stats stats;
	int broken;			/* the errno that put the line out of step, or 0 */
	char msg[384];
};

static void set_msg(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!buf || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

void hws_uart_default_opts(struct hws_uart_opts *o)
{
	o->baud = HWS_UART_DEFAULT_BAUD;
	o->clk_hz = HWS_UART_DEFAULT_CLK_HZ;
	o->timeout_ms = HWS_UART_DEFAULT_TIMEOUT_MS;
}

static speed_t baud_code(unsigned baud)
{
	static const struct { unsigned baud; speed_t code; } t[] = {
		{ 9600, B9600 }, { 19200, B19200 }, { 38400, B38400 }, { 57600, B57600 },
		{ 115200, B115200 }, { 230400, B230400 }, { 460800, B460800 },
		{ 500000, B500000 }, { 921600, B921600 }, { 1000000, B1000000 },
		{ 1500000, B1500000 }, { 2000000, B2000000 }, { 3000000, B3000000 },
		{ 4000000, B4000000 },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (t[i].baud == baud)
			return t[i].code;
	return 0;
}

/* ---- Bytes with deadlines ---- */

/* Milliseconds left until @deadline_ns (0 when past). */
static int ms_left(double deadline_ns)
{
	double left = deadline_ns - now_ns();

	return left <= 0 ? 0 : (int)(left / 1e6) + 1;
}

/* Write all of @buf before @deadline_ns. Return 0, -ETIMEDOUT or -errno. */
static int write_all(int fd, const uint8_t *buf, size_t n, double deadline_ns)
{
	size_t done = 0;

	while (done < n) {
		ssize_t w = write(fd, buf + done, n - done);
		struct pollfd p = { fd, POLLOUT, 0 };

		if (w > 0) {
			done += (size_t)w;
			continue;
		}
		if (w < 0 && errno != EAGAIN && errno != EINTR)
			return -errno;
		if (poll(&p, 1, ms_left(deadline_ns)) == 0)
			return -ETIMEDOUT;
	}
	return 0;
}

/*
 * Read up to @n bytes into @buf, waiting until @deadline_ns for them. *got gets the count.
 * Return 0 when all came, -ETIMEDOUT, -EIO (hangup: the other side went away) or -errno.
 * (In raw mode with VMIN = VTIME = 0, read() answers 0 when nothing is there.)
 */
static int read_n(int fd, uint8_t *buf, size_t n, size_t *got, double deadline_ns)
{
	*got = 0;
	while (*got < n) {
		ssize_t r = read(fd, buf + *got, n - *got);
		struct pollfd p = { fd, POLLIN, 0 };
		int ms;

		if (r > 0) {
			*got += (size_t)r;
			continue;
		}
		if (r < 0 && errno != EAGAIN && errno != EINTR)
			return -errno;
		ms = ms_left(deadline_ns);
		if (ms == 0 || poll(&p, 1, ms) == 0)
			return -ETIMEDOUT;
		if ((p.revents & (POLLHUP | POLLERR)) && !(p.revents & POLLIN))
			return -EIO;
	}
	return 0;
}

/*
 * Read and drop whatever arrives until the line has been quiet for @quiet_ms, or until
 * @deadline_ns (a device that never stops talking is then caught by the ID read).
 */
static size_t drain(int fd, int quiet_ms, double deadline_ns)
{
	uint8_t buf[64];
	size_t dropped = 0;
	struct pollfd p = { fd, POLLIN, 0 };

	while (now_ns() < deadline_ns && poll(&p, 1, quiet_ms) > 0) {
		ssize_t r = read(fd, buf, sizeof(buf));

		if (r <= 0)
			break;
		dropped += (size_t)r;
	}
	return dropped;
}

/* ---- Frames ---- */

static int stop(struct hws_uart *u, int err)
{
	u->broken = err;
	return err;
}

static void frame_name(const uint8_t *req, char *buf, size_t len)
{
	snprintf(buf, len, "'%c' 0x%02x", req[0], req[1]);
}

/* Send @req (@nreq bytes) and read the @nrep-byte reply into @rep. */
static int xfer(struct hws_uart *u, const uint8_t *req, size_t nreq, uint8_t *rep, size_t nrep)
{
	double t0 = now_ns(), deadline = t0 + 1e6 * u->o.timeout_ms;
	struct pollfd p = { u->fd, POLLIN, 0 };
	char fn[24];
	size_t got;
	int ret;

	if (u->broken)
		return u->broken;
	frame_name(req, fn, sizeof(fn));
	/* Nothing may be waiting: the board speaks only when spoken to. */
	if (poll(&p, 1, 0) > 0) {
		uint8_t junk[16];
		ssize_t r = read(u->fd, junk, sizeof(junk));

		if (r > 0) {
			set_msg(u->msg, sizeof(u->msg), "%s: %zd byte(s) nobody asked for (first "
				"0x%02x) before the frame %s: the line is out of step with the board",
				u->device, r, junk[0], fn);
			return stop(u, -EPROTO);
		}
	}
	ret = write_all(u->fd, req, nreq, deadline);
	if (ret == -ETIMEDOUT) {
		set_msg(u->msg, sizeof(u->msg), "%s: could not send the frame %s within %u ms "
			"(the line does not drain)", u->device, fn, u->o.timeout_ms);
		return stop(u, ret);
	}
	if (ret) {
		set_msg(u->msg, sizeof(u->msg), "%s: write failed: %s", u->device, strerror(-ret));
		return stop(u, -EIO);
	}
	u->stats.bytes_out += nreq;
	ret = read_n(u->fd, rep, nrep, &got, deadline);
	u->stats.bytes_in += got;
	u->stats.wall_ns += now_ns() - t0;
	if (ret == -ETIMEDOUT) {
		set_msg(u->msg, sizeof(u->msg), "%s: no reply to the frame %s within %u ms (%zu of "
			"%zu bytes came): is the board connected, programmed (make board) and at "
			"%u baud?", u->device, fn, u->o.timeout_ms, got, nrep, u->o.baud);
		return stop(u, ret);
	}
	if (ret) {
		set_msg(u->msg, sizeof(u->msg), "%s: read failed after %zu of %zu reply bytes: %s",
			u->device, got, nrep, strerror(-ret));
		return stop(u, -EIO);
	}
	if (rep[0] & ~3u) {
		set_msg(u->msg, sizeof(u->msg), "%s: garbled reply to the frame %s: RESP byte 0x%02x "
			"(a response is 0..3)", u->device, fn, rep[0]);
		return stop(u, -EPROTO);
	}
	return 0;
}

int hws_uart_read(struct hws_uart *u, uint32_t addr, uint32_t *data, uint32_t *resp)
{
	uint8_t req[2] = { 'R', (uint8_t)addr }, rep[5];
	int ret;

	if (addr > 0xffu) {
		set_msg(u->msg, sizeof(u->msg), "%s: read of address 0x%x: a frame's ADDR is one "
			"byte (nothing sent)", u->device, addr);
		return -EINVAL;
	}
	ret = xfer(u, req, sizeof(req), rep, sizeof(rep));
	if (ret)
		return ret;
	*resp = rep[0];
	*data = (uint32_t)rep[1] | (uint32_t)rep[2] << 8 | (uint32_t)rep[3] << 16 |
		(uint32_t)rep[4] << 24;
	u->stats.reads++;
	return 0;
}

int hws_uart_write(struct hws_uart *u, uint32_t addr, uint32_t data, uint32_t strb,
		   uint32_t *resp)
{
	uint8_t req[MAX_FRAME], rep[1];
	size_t n = 0;
	int ret, k;

	if (addr > 0xffu || strb > 0xfu) {
		set_msg(u->msg, sizeof(u->msg), "%s: write of address 0x%x, strobes 0x%x: a frame's "
			"ADDR is one byte, STRB four bits (nothing sent)", u->device, addr, strb);
		return -EINVAL;
	}
	req[n++] = strb == 0xfu ? 'W' : 'S';
	req[n++] = (uint8_t)addr;
	if (strb != 0xfu)
		req[n++] = (uint8_t)strb;
	for (k = 0; k < 4; k++)
		req[n++] = (uint8_t)(data >> (8 * k));
	ret = xfer(u, req, n, rep, sizeof(rep));
	if (ret)
		return ret;
	*resp = rep[0];
	u->stats.writes++;
	u->stats.commands += addr == HWS_REG_CMD;
	return 0;
}

/* ---- Open / close ---- */

static int check_opts(const struct hws_uart_opts *o, char *msg, size_t len)
{
	if (!baud_code(o->baud)) {
		set_msg(msg, len, "baud rate %u is not one termios offers (9600, 19200, 38400, "
			"57600, 115200, 230400, 460800, 500000, 921600, 1000000 ... 4000000)",
			o->baud);
		return -EINVAL;
	}
	if (o->timeout_ms < 1 || o->timeout_ms > 600000) {
		set_msg(msg, len, "timeout %u ms is outside 1..600000", o->timeout_ms);
		return -EINVAL;
	}
	if (o->clk_hz < 10u * o->baud) {
		set_msg(msg, len, "clock %u Hz is below 10 clocks per bit at %u baud", o->clk_hz,
			o->baud);
		return -EINVAL;
	}
	return 0;
}

/* Raw 8N1 at the board's rate, no flow control, modem lines ignored. */
static int setup_tty(struct hws_uart *u, char *msg, size_t len)
{
	struct termios t;
	speed_t sp = baud_code(u->o.baud);

	if (tcgetattr(u->fd, &t)) {
		int e = errno;

		set_msg(msg, len, "%s is not a terminal: %s", u->device, strerror(e));
		return e == ENOTTY || e == EINVAL ? -ENOTTY : -e;
	}
	cfmakeraw(&t);
	t.c_cflag &= ~(tcflag_t)(CSTOPB | PARENB | CSIZE | CRTSCTS);
	t.c_cflag |= CS8 | CLOCAL | CREAD;
	t.c_iflag &= ~(tcflag_t)(IXON | IXOFF | IXANY);
	t.c_cc[VMIN] = 0;
	t.c_cc[VTIME] = 0;
	if (cfsetispeed(&t, sp) || cfsetospeed(&t, sp) || tcsetattr(u->fd, TCSANOW, &t)) {
		set_msg(msg, len, "%s: cannot set raw 8N1 at %u baud: %s", u->device, u->o.baud,
			strerror(errno));
		return -EIO;
	}
	tcflush(u->fd, TCIOFLUSH);
	return 0;
}

/* Complete any half-sent frame, let the board answer it, then read ID. */
static int resync(struct hws_uart *u, char *msg, size_t len)
{
	static const uint8_t ff[RESYNC_BYTES] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	/* Twenty byte times, and at least 50 ms for a USB adapter's latency timer. */
	int quiet = (int)(20 * 10 * 1000 / u->o.baud) + 50;
	uint32_t id = 0, resp = 0;
	int ret;

	if (quiet > (int)u->o.timeout_ms)
		quiet = (int)u->o.timeout_ms;
	ret = write_all(u->fd, ff, sizeof(ff), now_ns() + 1e6 * u->o.timeout_ms);
	if (ret) {
		set_msg(msg, len, "%s: cannot write: %s", u->device,
			ret == -ETIMEDOUT ? "the line does not drain" : strerror(-ret));
		return ret == -ETIMEDOUT ? ret : -EIO;
	}
	u->stats.bytes_out += sizeof(ff);
	u->stats.bytes_in += drain(u->fd, quiet, now_ns() + 1e6 * u->o.timeout_ms);
	ret = hws_uart_read(u, HWS_REG_ID, &id, &resp);
	if (ret) {
		set_msg(msg, len, "%s", u->msg);
		return ret;
	}
	if (resp != 0 || id != HWS_ID_VALUE) {
		set_msg(msg, len, "%s: ID read answered RESP %u, 0x%08x (the engine's ID is 0x%08x): "
			"not a hwsched board_top, or another baud rate", u->device, resp, id,
			HWS_ID_VALUE);
		return -EPROTO;
	}
	return 0;
}

int hws_uart_open(struct hws_uart **out, const char *device, const struct hws_uart_opts *o,
		  char *msg, size_t len)
{
	struct hws_uart_opts def;
	struct hws_uart *u;
	struct stat st;
	int ret;

	if (!o) {
		hws_uart_default_opts(&def);
		o = &def;
	}
	if (!device || !*device) {
		set_msg(msg, len, "no serial device given (e.g. uart:/dev/ttyUSB1)");
		return -EINVAL;
	}
	ret = check_opts(o, msg, len);
	if (ret)
		return ret;
	u = calloc(1, sizeof(*u));
	if (!u || !(u->device = strdup(device))) {
		free(u);
		set_msg(msg, len, "out of memory");
		return -ENOMEM;
	}
	u->o = *o;
	u->fd = open(device, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (u->fd < 0) {
		ret = -errno;
		set_msg(msg, len, "cannot open %s: %s", device, strerror(-ret));
		goto err_free;
	}
	if (fstat(u->fd, &st) == 0 && !S_ISCHR(st.st_mode)) {
		set_msg(msg, len, "%s is not a terminal (not a character device)", device);
		ret = -ENOTTY;
		goto err_close;
	}
	if (flock(u->fd, LOCK_EX | LOCK_NB)) {
		ret = errno == EWOULDBLOCK ? -EBUSY : -errno;
		set_msg(msg, len, "%s is in use by another process (flock): %s", device,
			strerror(errno));
		goto err_close;
	}
	ret = setup_tty(u, msg, len);
	if (!ret)
		ret = resync(u, msg, len);
	if (ret)
		goto err_close;
	u->msg[0] = '\0';
	*out = u;
	return 0;

err_close:
	close(u->fd);
err_free:
	free(u->device);
	free(u);
	return ret;
}

int hws_uart_open_spec(struct hws_uart **out, const char *spec, char *msg, size_t len)
{
	struct hws_uart_opts o;
	char *s = strdup(spec ? spec : ""), *opt;
	int ret = 0;

	if (!s) {
		set_msg(msg, len, "out of memory");
		return -ENOMEM;
	}
	hws_uart_default_opts(&o);
	opt = strchr(s, ',');
	if (opt) {
		/* lib/hws_parse: whole numbers, each key once, no empty item; the ranges are
		 * check_opts()'s */
		const struct hws_kv keys[] = {
			{ "baud", HWS_KV_UNSIGNED, 0, 4294967295.0, &o.baud },
			{ "clk", HWS_KV_UNSIGNED, 0, 4294967295.0, &o.clk_hz },
			{ "timeout", HWS_KV_UNSIGNED, 0, 4294967295.0, &o.timeout_ms },
		};

		*opt++ = '\0';
		if (hws_parse_kv("uart options", opt, keys, 3, NULL, msg, len) || !*opt) {
			if (!*opt)
				set_msg(msg, len, "uart options '': an empty item (a comma too many)");
			ret = -EINVAL;
		}
	}
	if (!ret)
		ret = hws_uart_open(out, s, &o, msg, len);
	free(s);
	return ret;
}

void hws_uart_close(struct hws_uart *u)
{
	if (!u)
		return;
	close(u->fd);
	free(u->device);
	free(u);
}

const char *hws_uart_errmsg(const struct hws_uart *u)
{
	return u->msg;
}

unsigned hws_uart_settle_edges(const struct hws_uart *u)
{
	return 10u * (u->o.clk_hz / u->o.baud);
}

void hws_uart_get_stats(const struct hws_uart *u, struct hws_uart_stats *s)
{
	*s = u->stats;
}

int hws_uart_read_shape(struct hws_uart *u, struct hws_params *p)
{
	static const uint32_t regs[] = { HWS_REG_NR_CPUS, HWS_REG_NR_TASKS, HWS_REG_DEPTHS,
					 HWS_REG_NR_GROUPS, HWS_REG_FEATURES };
	uint32_t v[5], resp;
	size_t i;
	int ret;

	for (i = 0; i < 5; i++) {
		ret = hws_uart_read(u, regs[i], &v[i], &resp);
		if (ret)
			return ret;
		if (resp) {
			set_msg(u->msg, sizeof(u->msg), "%s: read of 0x%02x refused (RESP %u)",
				u->device, regs[i], resp);
			return -EPROTO;
		}
	}
	p->nr_cpus = v[0];
	p->nr_tasks = v[1];
	p->cmd_depth = (v[2] & HWS_DEPTHS_CMD_DEPTH_MASK) >> HWS_DEPTHS_CMD_DEPTH_LSB;
	p->res_depth = (v[2] & HWS_DEPTHS_RES_DEPTH_MASK) >> HWS_DEPTHS_RES_DEPTH_LSB;
	p->nr_groups = v[3];
	p->no_balance = !(v[4] & HWS_FEATURES_BALANCE_MASK);
	p->no_err_counters = !(v[4] & HWS_FEATURES_ERR_COUNTERS_MASK);
	p->pipe = !!(v[4] & HWS_FEATURES_PIPE_MASK);
	p->bal_lanes = (v[4] & HWS_FEATURES_BAL_LANES_MASK) >> HWS_FEATURES_BAL_LANES_LSB;
	if (p->bal_lanes == p->nr_cpus)
		p->bal_lanes = 0;	/* one per CPU: the default's canonical 0 */
	p->no_irq = !(v[4] & HWS_FEATURES_IRQ_MASK);
	p->lcu_lean = !!(v[4] & HWS_FEATURES_LEAN_MASK);
	return 0;
}

/* ---- Backend "uart": the line behind struct hws_transport ---- */

static unsigned tp_read(void *ctx, unsigned master, uint32_t addr, uint32_t *data,
			uint32_t *resp, double *ns)
{
	struct hws_uart *u = ctx;
	double t0 = u->stats.wall_ns;

	(void)master;	/* one master: the host */
	*data = 0;
	if (hws_uart_read(u, addr, data, resp))
		*resp = HWS_RESP_FAILED;	/* hws_uart_errmsg() says why */
	*ns += u->stats.wall_ns - t0;
	return 0;	/* the board's clock edges cannot be seen from here */
}

static unsigned tp_write(void *ctx, unsigned master, uint32_t addr, uint32_t data,
			 uint32_t strb, uint32_t *resp, double *ns)
{
	struct hws_uart *u = ctx;
	double t0 = u->stats.wall_ns;

	(void)master;
	if (hws_uart_write(u, addr, data, strb, resp))
		*resp = HWS_RESP_FAILED;
	*ns += u->stats.wall_ns - t0;
	return 0;
}

/* The board's engine runs on its own clock: there is nothing to wait for. */
static void tp_idle(void *ctx, unsigned edges, double *ns)
{
	(void)ctx;
	(void)edges;
	(void)ns;
}

static void tp_destroy(void *ctx)
{
	hws_uart_close(ctx);
}

static const char *tp_errmsg(void *ctx)
{
	return hws_uart_errmsg(ctx);
}

static int tp_report(void *ctx, char *buf, size_t len)
{
	const struct hws_uart *u = ctx;
	const struct hws_uart_stats *st = &u->stats;
	uint64_t frames = st->reads + st->writes;

	snprintf(buf, len, "uart %s at %u baud, board clock %u Hz: %llu frames (%llu reads, "
		 "%llu writes; %.2f per CMD write), %llu bytes out, %llu in, %.2f s on the line",
		 u->device, u->o.baud, u->o.clk_hz, (unsigned long long)frames,
		 (unsigned long long)st->reads, (unsigned long long)st->writes,
		 st->commands ? (double)frames / (double)st->commands : 0.0,
		 (unsigned long long)st->bytes_out, (unsigned long long)st->bytes_in,
		 st->wall_ns * 1e-9);
	return 0;
}

static const struct hws_transport_ops uart_ops = {
	.read = tp_read,
	.write = tp_write,
	.idle = tp_idle,
	.destroy = tp_destroy,
	.errmsg = tp_errmsg,
	.report = tp_report,
};

/* "2 CPUs, 64 tasks, FIFOs 16/16, 16 groups, no BALANCE, no per-code error counters" */
static void shape_words(const struct hws_params *p, char *buf, size_t len)
{
	char lanes[32] = "";

	if (!p->no_balance && p->lcu_lean)
		snprintf(lanes, sizeof(lanes), ", the lean BALANCE");
	else if (!p->no_balance && p->bal_lanes && p->bal_lanes != p->nr_cpus)
		snprintf(lanes, sizeof(lanes), ", %u BALANCE lanes", p->bal_lanes);
	snprintf(buf, len, "%u CPUs, %u tasks, FIFOs %u/%u, %u groups%s%s%s%s", p->nr_cpus,
		 p->nr_tasks, p->cmd_depth, p->res_depth, p->nr_groups,
		 p->no_balance ? ", no BALANCE" : "", lanes,
		 p->no_err_counters ? ", no per-code error counters" : "",
		 p->no_irq ? ", no interrupt" : "");
}

/* A board is built with one shape: another is refused, naming the board's. */
static int check_shape(struct hws_uart *u, const struct hws_params *want, char *msg,
		       size_t len)
{
	struct hws_params got;
	char gw[128], ww[128];
	int ret = hws_uart_read_shape(u, &got);

	if (ret) {
		set_msg(msg, len, "%s", u->msg);
		return ret;
	}
	if (got.nr_cpus == want->nr_cpus && got.nr_tasks == want->nr_tasks &&
	    got.cmd_depth == want->cmd_depth && got.res_depth == want->res_depth &&
	    got.nr_groups == want->nr_groups && !got.no_balance == !want->no_balance &&
	    !got.no_err_counters == !want->no_err_counters && !got.no_irq == !want->no_irq &&
	    (got.no_balance || (hws_params_bal_lanes(&got) == hws_params_bal_lanes(want) &&
				!got.lcu_lean == !want->lcu_lean)))
		return 0;
	shape_words(&got, gw, sizeof(gw));
	shape_words(want, ww, sizeof(ww));
	set_msg(msg, len, "%s: the board's engine has %s; asked for %s", u->device, gw, ww);
	return -ENOTSUP;
}

static int uart_open(const struct hws_backend_args *a, struct hws_transport *out, char *msg,
		     size_t len)
{
	struct hws_uart *u;
	int ret;

	if (a->wave) {
		set_msg(msg, len, "the uart backend writes no waveform: the board's signals are "
			"not seen from the host");
		return -EINVAL;
	}
	ret = hws_uart_open_spec(&u, a->arg, msg, len);
	if (ret)
		return ret;
	ret = check_shape(u, &a->params, msg, len);
	if (ret) {
		hws_uart_close(u);
		return ret;
	}
	out->ops = &uart_ops;
	out->ctx = u;
	out->name = "uart";
	out->settle_edges = hws_uart_settle_edges(u);
	return 0;
}

static struct hws_backend uart_backend = {
	.name = "uart",
	.summary = "the engine on a board over a serial line: "
		   "uart:DEVICE[,baud=N][,clk=HZ][,timeout=MS] (docs/board.md)",
	.open = uart_open,
	.arg = "DEVICE[,baud=N][,clk=HZ][,timeout=MS]",
};

__attribute__((constructor)) static void uart_register(void)
{
	hws_backend_register(&uart_backend);
}
