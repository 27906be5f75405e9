/*
 * hws_bench - engine figures for `make bench`: cycles per command by opcode and
 * occupancy (from the engine's own CYCLES register), lockstep-checked commands per
 * second, Verilator simulated cycles per second, model commands per second.
 *
 * Prints a table and writes the same figures as JSON (--json FILE).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hws/hws.h"
#include "lib/hws_out.h"
#include "lib/hws_version.h"
#include "lib/hws_params.h"
#include "lib/hws_port_master.h"
#include "sim/harness/hws_shape.h"
#include "sim/stim/hws_randcmd.h"

#define CHECK(x)                                                                         \
	do {                                                                             \
		int ret_ = (x);                                                          \
		if (ret_) {                                                              \
			fprintf(stderr, "hws_bench: %s failed: %d %s\n", #x, ret_,       \
				hws_errmsg(d));                                          \
			exit(1);                                                         \
		}                                                                        \
	} while (0)

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The CPU time of this process: on a machine shared with other jobs, rates per CPU second
 * are what the simulator does; wall-clock rates are printed beside them. */
static double cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The 1-minute load average, to show how busy the machine was (-1: unknown). */
static double loadavg(void)
{
	FILE *f = fopen("/proc/loadavg", "r");
	double l = -1;

	if (f) {
		if (fscanf(f, "%lf", &l) != 1)
			l = -1;
		fclose(f);
	}
	return l;
}

static uint32_t cycles(struct hws_dev *d)
{
	uint32_t v;

	CHECK(hws_reg_read(d, HWS_REG_CYCLES, &v));
	return v;
}

/*
 * Marginal engine cycles per command: a batch of 2K minus a batch of K, over K. The bus
 * overhead of starting and ending a batch cancels; what is left is the issue interval
 * when software keeps the command FIFO fed (bounded below by the 2-edge bus write).
 */
static double interval_of(struct hws_dev *d, uint32_t (*mk)(unsigned i, void *), void *arg)
{
	const unsigned k = 6;
	uint32_t c[2];
	unsigned b, i, n;

	for (b = 0; b < 2; b++) {
		n = k * (b + 1);
		uint32_t c0 = cycles(d);
		for (i = 0; i < n; i++)
			CHECK(hws_submit(d, mk(i, arg)));
		(void)hws_sync(d, NULL);
		c[b] = cycles(d) - c0;
	}
	return (double)(c[1] - c[0]) / k;
}

/*
 * The same for a query: a batch of 12 with their RESULT reads, over 12. The reads are part
 * of the cost: software must fetch each answer.
 */
static double query_interval_of(struct hws_dev *d, uint32_t cmd)
{
	const unsigned n = 12;
	uint32_t c0 = cycles(d), w;
	unsigned i;

	for (i = 0; i < n; i++)
		CHECK(hws_submit(d, cmd));
	for (i = 0; i < n; i++)
		CHECK(hws_result(d, &w));
	return (double)(cycles(d) - c0) / n;
}

/*
 * Latency: cycles from the CMD write to SYNC (or, with @w, to the command's RESULT word,
 * which goes to *@w), minus the same for a NOP, plus NOP's 1.
 */
static unsigned latency_of(struct hws_dev *d, uint32_t cmd, uint32_t *w)
{
	uint32_t c0, c1, c2, c3;

	c0 = cycles(d);
	CHECK(hws_submit(d, cmd));
	if (w)
		CHECK(hws_result(d, w));
	else
		(void)hws_sync(d, NULL);
	c1 = cycles(d);
	CHECK(hws_nop(d));
	c2 = cycles(d);
	CHECK(hws_nop(d));
	c3 = cycles(d);
	return (c1 - c0) - (c3 - c2) + HWS_LAT_NOP;
}

static struct hws_dev *open_backend(const char *b, unsigned nr_cpus)
{
	struct hws_config c;
	struct hws_dev *d;
	char msg[512];

	hws_config_default(&c);
	c.backend = b;
	c.nr_cpus = nr_cpus;
	if (hws_open(&d, &c, msg, sizeof(msg))) {
		fprintf(stderr, "hws_bench: cannot open %s with %u CPUs: %s\n", b,
			nr_cpus, msg);
		exit(1);
	}
	return d;
}

/*
 * BALANCE on @n CPUs in 4 NUMA nodes of n/4 (the domain of the callgrind figure of
 * bench-balance), level 3 from CPU 1, with tasks queued unevenly: the latency in cycles
 * (from the CMD write to its RESULT, minus a NOP's share), and the verdict it reached.
 * @flat: the domain after reset instead, every CPU its own group (n groups).
 */
static unsigned balance_cycles(const char *be, unsigned n, int flat, unsigned *verdict,
			       double *ivl)
{
	struct hws_dev *d = open_backend(be, n);
	uint32_t w;
	unsigned x, t = 0, lat;

	for (x = 0; x < n && !flat; x++) {
		CHECK(hws_dom_set(d, x, 2, x - x % (n / 4)));
		CHECK(hws_dom_set(d, x, 3, x - x % (n / 4)));
		if (x % (n / 4) == 0)
			CHECK(hws_dom_set_power(d, 3, x, n / 4 * 1024));
	}
	for (x = n / 4; x < n; x++)	/* nodes 1..3 loaded, node 0 empty */
		for (unsigned k = 0; k < 1 + x % 3 && t < 256; k++)
			CHECK(hws_enqueue(d, t++, x, 120, 0, 0));
	lat = latency_of(d, hws_cmd(HWS_OP_QUERY, 1, 3, 1, 1, 0), &w);
	*verdict = (w & HWS_BRES_VERDICT_MASK) >> HWS_BRES_VERDICT_LSB;
	/* back to back, FIFO fed, each answer read: cycles per query */
	*ivl = query_interval_of(d, hws_cmd(HWS_OP_QUERY, 1, 3, 1, 1, 0));
	hws_close(d);
	return lat;
}

struct mkarg {
	unsigned op, base, n;
};

static uint32_t mk_move(unsigned i, void *a)
{
	struct mkarg *m = a;

	return hws_cmd(m->op, (m->base + i) % m->n, 120, 0, 0, 0);
}

static uint32_t mk_cpu(unsigned i, void *a)
{
	struct mkarg *m = a;

	(void)i;
	return hws_cmd(m->op, 0, 0, 0, 0, 0);
}

struct rate {
	double cmds_per_s, edges_per_s, secs;
	double cmds_per_cpu_s, edges_per_cpu_s, cpu_secs;
	uint64_t commands, edges;
};

static struct rate random_rate(const char *b, uint64_t n)
{
	struct hws_randcmd_opts o = { .seed = 42, .commands = n, .check_every = 0 };
	struct hws_randcmd_report *r = calloc(1, sizeof(*r));
	struct hws_dev *d = open_backend(b, 8);
	struct rate out;
	double t0, c0;

	if (!r)
		exit(1);
	t0 = now_s();
	c0 = cpu_s();
	if (hws_randcmd_run(d, &o, r)) {
		fprintf(stderr, "hws_bench: random run on %s failed: %s\n", b,
			r->msg);
		exit(1);
	}
	out.secs = now_s() - t0;
	out.cpu_secs = cpu_s() - c0;
	out.cmds_per_cpu_s = (double)r->commands / out.cpu_secs;
	out.edges_per_cpu_s = (double)r->edges / out.cpu_secs;
	out.commands = r->commands;
	out.edges = r->edges;
	out.cmds_per_s = (double)r->commands / out.secs;
	out.edges_per_s = (double)r->edges / out.secs;
	free(r);
	hws_close(d);
	return out;
}

static const struct {
	const char *name;
	unsigned op;
} ops[] = {
	{ "REQUEUE", HWS_OP_REQUEUE }, { "SET_PRIO", HWS_OP_SET_PRIO },
	{ "MIGRATE", HWS_OP_MIGRATE }, { "PEEK", HWS_OP_PEEK },
	{ "CPU_STAT", HWS_OP_CPU_STAT }, { "NOP", HWS_OP_NOP },
};
#define NR_OPS (sizeof(ops) / sizeof(ops[0]))
static const unsigned occs[3] = { 1, 16, 255 };
/* BALANCE: the model at 4, 16 and 64 CPUs (and 8); the RTL where the build has a variant
 * of that CPU count with 256 tasks (8 and 64), which must agree to the cycle. */
static const unsigned bal_n[4] = { 4, 8, 16, 64 };

/*
 * Sustained commands per cycle on one port: a mixed stream as the firmware
 * sends it - posted ENQUEUE, REQUEUE, SET_PRIO, MIGRATE, DEQUEUE (hws_post(), no
 * completion read) and a POP window read every eighth command - over 8 CPUs and 256
 * tasks, reference master; CMD_DONE over CYCLES from the first command to the flush.
 * Every command is legal (a shadow of the queued tasks picks them); the run stops if one
 * fails. One AXI port: the engine runs one command at a time, so this is below 1.
 */
static double sustained_rate(const char *be, unsigned n)
{
	struct hws_dev *d = open_backend(be, 8);
	static int8_t cpu_of[256];
	uint32_t c0, d0, c1, d1;
	unsigned i, k = 0, t;
	uint64_t x = 42;
	struct hws_pick p;
	struct hws_post_err e;

	memset(cpu_of, -1, sizeof(cpu_of));
	c0 = cycles(d);
	CHECK(hws_reg_read(d, HWS_REG_CMD_DONE, &d0));
	for (i = 0; i < n; i++) {
		unsigned kind = i % 8, cpu = (unsigned)(x >> 33) % 8;

		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		if (kind == 7) {
			CHECK(hws_pop(d, cpu, &p, NULL));
			if (p.found)
				cpu_of[p.task] = -1;
			continue;
		}
		/* The next task, from k on, that is queued (or not, for ENQUEUE). */
		for (t = 0; t < 256; t++)
			if ((cpu_of[(k + t) % 256] < 0) == (kind < 3))
				break;
		if (t == 256)
			continue;
		t = (k + t) % 256;
		k = t + 1;
		if (kind < 3) {
			CHECK(hws_post(d, hws_cmd(HWS_OP_ENQUEUE, t, 100 + (t % 40), cpu, 0, 0)));
			cpu_of[t] = (int8_t)cpu;
		} else if (kind == 3) {
			CHECK(hws_post(d, hws_cmd(HWS_OP_REQUEUE, t, 0, 0, 0, 0)));
		} else if (kind == 4) {
			CHECK(hws_post(d, hws_cmd(HWS_OP_SET_PRIO, t, 100 + (i % 40), 0, 0, 0)));
		} else if (kind == 5) {
			CHECK(hws_post(d, hws_cmd(HWS_OP_MIGRATE, t, 0, cpu, 0, 0)));
			cpu_of[t] = (int8_t)cpu;
		} else {
			CHECK(hws_post(d, hws_cmd(HWS_OP_DEQUEUE, t, 0, 0, 0, 0)));
			cpu_of[t] = -1;
		}
	}
	CHECK(hws_post_flush(d));
	c1 = cycles(d);
	CHECK(hws_reg_read(d, HWS_REG_CMD_DONE, &d1));
	CHECK(hws_post_errors(d, &e));
	if (e.count) {	/* the stream is meant to be all legal: a failing command is a bug */
		fprintf(stderr, "hws_bench: %s: %u posted commands failed in the sustained stream "
			"(last %s, command 0x%08x)\n", be, (unsigned)e.count, hws_err_name(e.code),
			(unsigned)e.cmd);
		exit(1);
	}
	hws_close(d);
	return (double)(d1 - d0) / (double)(c1 - c0);
}

/*
 * Sustained commands per cycle on 1, 2 and 4 ports (docs/accelerator.md 4.5):
 * each port runs its own copy of the stream above, as the driver sends it (posted ENQUEUE,
 * REQUEUE, SET_PRIO, MIGRATE, DEQUEUE; a POP window read every eighth command; a SYNC read
 * when the port's FIFO credits run out; a SYNC at the end), with the reference master on
 * its own pins, all ports at once. Port p owns the CPUs c with c % ports == p and the
 * tasks t with t % ports == p, so every command is legal and a pick returns the port's own
 * task. The lockstep backend (the model and the RTL of 8x256x16g16[p<ports>]) is driven
 * through its pins (hws_pins()), every output compared at every edge; the figure is
 * CMD_DONE over CYCLES read on port 0 after the last port's final SYNC.
 */
struct sport {
	struct hws_port_master pm;
	int8_t cpu_of[256];
	unsigned i, k, posted, final_sync, finished;
	int enq_only;		/* the independent stream (sport_next_enq()) */
	uint64_t x;
	int pending_pop;	/* the transaction in flight is a POP read */
	int pending_sync;
};

/* A SYNC read on @s's port: the FIFO-credit wait, and once more at the end of its stream. */
static int sport_sync(struct sport *s)
{
	static const struct hws_bus_timing ref = { 0, 0, 0, 0 };

	hws_pm_read(&s->pm, &ref, HWS_REG_SYNC);
	s->pending_sync = 1;
	return 1;
}

/* The stream's last transaction, its final SYNC, or 0 once it was sent. */
static int sport_finish(struct sport *s)
{
	if (s->final_sync)
		return 0;
	s->final_sync = 1;
	return sport_sync(s);
}

/*
 * The independent stream (docs/accelerator.md 4.1.1): port p posts
 * ENQUEUE of its tasks p, p + np, p + 2 np, ... once each, on its CPUs in turn (c with
 * c % np == p), a SYNC when its FIFO credits run out and at the end. Every ENQUEUE names
 * another task, and two in a row, from one port or from two, another CPU: each may pop
 * beside the one before it with PIPE = 1. @n commands per port (n * np <= NR_TASKS).
 */
static int sport_next_enq(struct sport *s, unsigned p, unsigned np, unsigned n)
{
	static const struct hws_bus_timing ref = { 0, 0, 0, 0 };
	const unsigned ncpu = 8 / np;

	s->pending_pop = s->pending_sync = 0;
	if (s->i < n) {
		if (s->posted >= 16) {
			return sport_sync(s);
		}
		hws_pm_write(&s->pm, &ref, HWS_REG_CMD,
			     hws_cmd(HWS_OP_ENQUEUE, p + np * s->i, 120, p + np * (s->i % ncpu), 0, 0),
			     0xf);
		s->i++;
		s->posted++;
		return 1;
	}
	return sport_finish(s);
}

/* The next transaction of port @p (of @np), or 0 when its stream is done. */
static int sport_next(struct sport *s, unsigned p, unsigned np, unsigned n)
{
	static const struct hws_bus_timing ref = { 0, 0, 0, 0 };
	const unsigned ncpu = 8 / np;

	if (s->enq_only)
		return sport_next_enq(s, p, np, n);
	s->pending_pop = s->pending_sync = 0;
	while (s->i < n) {
		unsigned i = s->i, kind = i % 8, cpu = p + np * ((unsigned)(s->x >> 33) % ncpu), t;

		if (s->posted >= 16 && kind != 7) {	/* no credit left: wait for the FIFO */
			return sport_sync(s);
		}
		s->i++;
		s->x = s->x * 6364136223846793005ULL + 1442695040888963407ULL;
		if (kind == 7) {
			hws_pm_read(&s->pm, &ref, HWS_POP_BASE + 4 * cpu);
			s->pending_pop = 1;
			return 1;
		}
		for (t = 0; t < 256; t++) {
			unsigned u = (s->k + t) % 256;

			if (u % np == p && (s->cpu_of[u] < 0) == (kind < 3))
				break;
		}
		if (t == 256)
			continue;
		t = (s->k + t) % 256;
		s->k = t + 1;
		if (kind < 3) {
			hws_pm_write(&s->pm, &ref, HWS_REG_CMD,
				     hws_cmd(HWS_OP_ENQUEUE, t, 100 + (t % 40), cpu, 0, 0), 0xf);
			s->cpu_of[t] = (int8_t)cpu;
		} else if (kind == 3) {
			hws_pm_write(&s->pm, &ref, HWS_REG_CMD, hws_cmd(HWS_OP_REQUEUE, t, 0, 0, 0, 0), 0xf);
		} else if (kind == 4) {
			hws_pm_write(&s->pm, &ref, HWS_REG_CMD,
				     hws_cmd(HWS_OP_SET_PRIO, t, 100 + (i % 40), 0, 0, 0), 0xf);
		} else if (kind == 5) {
			hws_pm_write(&s->pm, &ref, HWS_REG_CMD, hws_cmd(HWS_OP_MIGRATE, t, 0, cpu, 0, 0), 0xf);
			s->cpu_of[t] = (int8_t)cpu;
		} else {
			hws_pm_write(&s->pm, &ref, HWS_REG_CMD, hws_cmd(HWS_OP_DEQUEUE, t, 0, 0, 0, 0), 0xf);
			s->cpu_of[t] = -1;
		}
		s->posted++;
		return 1;
	}
	return sport_finish(s);
}

/* The answer of port @s's transaction: a pick updates the shadow, a SYNC the credits;
 * any error is a bug of the stream. */
static int sport_done(struct sport *s, unsigned np)
{
	const uint32_t w = s->pm.rdata;

	if (s->pm.resp) {
		fprintf(stderr, "hws_bench: ports %u: a transaction answered %u\n", np, s->pm.resp);
		return 1;
	}
	if (s->pending_pop) {
		if (w & (HWS_ERR_FLAG | HWS_POP_ERRP_MASK)) {
			fprintf(stderr, "hws_bench: ports %u: a command failed (window word 0x%08x)\n",
				np, (unsigned)w);
			return 1;
		}
		if (!(w & HWS_RES_NONE_MASK))
			s->cpu_of[(w & HWS_RES_TASK_MASK) >> HWS_RES_TASK_LSB] = -1;
		s->posted = 0;
	} else if (s->pending_sync) {
		if (w & HWS_STATUS_ERR_MASK) {
			fprintf(stderr, "hws_bench: ports %u: STATUS.ERR in the stream\n", np);
			return 1;
		}
		s->posted = (w & HWS_STATUS_CMD_LEVEL_MASK) >> HWS_STATUS_CMD_LEVEL_LSB;
	}
	return 0;
}

/* Commands per cycle with @np ports, @n commands per port, on backend @be with PIPE
 * @pipe and @tasks tasks, the mixed stream or (@enq_only) the independent one; -1 on a
 * failure. */
static double sustained_run(unsigned np, unsigned n, const char *be, unsigned pipe,
			    unsigned tasks, int enq_only)
{
	struct hws_config c;
	struct hws_dev *d = NULL;
	static struct sport sp[HWS_MAX_NR_PORTS];
	struct hws_axil_in in[HWS_MAX_NR_PORTS];
	struct hws_axil_out om[HWS_MAX_NR_PORTS];
	static const struct hws_bus_timing ref = { 0, 0, 0, 0 };
	unsigned p, left = np, reads = 0;
	uint32_t cyc0 = 0, done0 = 0;
	int closing = 0;
	uint32_t val[2] = { 0, 0 };
	uint64_t edges = 0;
	char msg[400];
	double rate = -1;

	hws_config_default(&c);
	c.backend = be;
	c.nr_ports = np;
	c.pipe = pipe;
	c.nr_tasks = tasks;
	if (hws_open(&d, &c, msg, sizeof(msg))) {
		fprintf(stderr, "hws_bench: ports %u: %s\n", np, msg);
		return -1;
	}
	if (hws_nr_ports(d) != np) {
		fprintf(stderr, "hws_bench: ports %u: the engine has %u\n", np, hws_nr_ports(d));
		goto out;
	}
	/* From here: CYCLES and CMD_DONE now, as sustained_rate() starts. */
	if (hws_reg_read(d, HWS_REG_CYCLES, &cyc0) || hws_reg_read(d, HWS_REG_CMD_DONE, &done0)) {
		fprintf(stderr, "hws_bench: ports %u: %s\n", np, hws_errmsg(d));
		goto out;
	}
	/* Idle outputs after reset (and hws_open()'s transactions): READYs up, no response. */
	for (p = 0; p < np; p++)
		om[p] = (struct hws_axil_out){ .awready = 1, .wready = 1, .arready = 1 };
	for (p = 0; p < np; p++) {
		memset(&sp[p], 0, sizeof(sp[p]));
		memset(sp[p].cpu_of, -1, sizeof(sp[p].cpu_of));
		sp[p].enq_only = enq_only;
		sp[p].x = 42 + p;
		hws_pm_init(&sp[p].pm);
		if (!sport_next(&sp[p], p, np, n)) {
			sp[p].finished = 1;
			left--;
		}
	}
	/* The streams, then CYCLES and CMD_DONE on port 0. */
	while (reads < 2) {
		for (p = 0; p < np; p++)
			hws_pm_drive(&sp[p].pm, &om[p], &in[p]);
		if (hws_pins(d, in, om)) {
			fprintf(stderr, "hws_bench: ports %u: %s\n", np, hws_errmsg(d));
			goto out;
		}
		edges++;
		for (p = 0; p < np; p++) {
			if (!hws_pm_after(&sp[p].pm))
				continue;
			if (closing) {	/* port 0's closing reads: CYCLES, then CMD_DONE */
				val[reads++] = sp[0].pm.rdata;
				if (reads < 2)
					hws_pm_read(&sp[0].pm, &ref, HWS_REG_CMD_DONE);
				continue;
			}
			if (sport_done(&sp[p], np))
				goto out;
			if (!sport_next(&sp[p], p, np, n)) {
				sp[p].finished = 1;
				left--;
			}
		}
		if (left == 0 && !closing) {
			closing = 1;
			hws_pm_read(&sp[0].pm, &ref, HWS_REG_CYCLES);
		}
		if (edges > 100000000u) {
			fprintf(stderr, "hws_bench: ports %u: the streams did not finish\n", np);
			goto out;
		}
	}
	rate = (double)(val[1] - done0) / (double)(val[0] - cyc0);
	printf("  %u port%s: %u commands in %u cycles (%" PRIu64 " edges on %s%s)\n", np,
	       np > 1 ? "s" : "", (unsigned)(val[1] - done0), (unsigned)(val[0] - cyc0), edges,
	       be, strcmp(be, "lockstep") ? "" : ", every output compared");
out:
	hws_close(d);
	return rate;
}

/* The mixed stream in lockstep (model and RTL): the sustained rate of docs/accelerator.md 4.5. */
static double sustained_ports(unsigned np, unsigned n)
{
	return sustained_run(np, n, "lockstep", 0, 256, 0);
}

/* Every figure of a run. */
struct figures {
	unsigned lat[3][NR_OPS], enq_lat[3], deq_lat[3], pick_lat[3];
	double ivl[3][NR_OPS];
	double idle_rate, idle_rate_cpu, load_before, load_after;
	unsigned bal_cyc[4], bal_flat[4], bal_verdict[4], bal_rtl[4], bal_rtl_flat[4];
	double bal_ivl[4];
	struct rate lock, rtl, model;
	double sustained;	/* commands per cycle, one port, through the driver (sustained_rate()) */
	double ports[3];	/* commands per cycle on 1, 2, 4 ports (sustained_ports()) */
	/* PIPE = 1 (docs/accelerator.md 4.1.1): the independent stream in lockstep (model and
	 * RTL through the pins), the headline figure; the mixed stream and the independent one
	 * with PIPE = 0 on the model alone */
	double pipe_mixed[3], pipe_indep[3], indep0[3];
};

/* Latency and issue interval of each opcode at each occupancy, on the RTL (all tasks on
 * CPU 0, prio 120), and Verilator's idle clocking rate. */
static void measure_cycles(struct figures *fg)
{
	struct hws_dev *d = open_backend("rtl", 8);
	unsigned queued = 0, k, o;
	uint32_t w;
	double t0, c0;

	for (o = 0; o < 3; o++) {
		for (; queued < occs[o]; queued++)
			CHECK(hws_enqueue(d, queued, 0, 120, 0, 0));
		for (k = 0; k < NR_OPS; k++) {
			struct mkarg a = { ops[k].op, queued / 2, queued };
			int query = ops[k].op == HWS_OP_PEEK || ops[k].op == HWS_OP_CPU_STAT;

			fg->lat[o][k] = latency_of(d, query ? mk_cpu(0, &a) : mk_move(0, &a), NULL);
			if (query) {
				/* latency_of() left the query's word in the result FIFO. */
				CHECK(hws_result(d, &w));
				fg->ivl[o][k] = query_interval_of(d, mk_cpu(0, &a));
			} else {
				fg->ivl[o][k] = interval_of(d, ops[k].op == HWS_OP_NOP ? mk_cpu :
							 mk_move, &a);
			}
		}
		fg->enq_lat[o] = latency_of(d, hws_cmd(HWS_OP_ENQUEUE, 255, 121, 0, 0, 0), NULL);
		fg->deq_lat[o] = latency_of(d, hws_cmd(HWS_OP_DEQUEUE, 255, 0, 0, 0, 0), NULL);
		fg->pick_lat[o] = latency_of(d, hws_cmd(HWS_OP_PICK_NEXT, 0, 0, 1, 0, 0), &w);
	}
	t0 = now_s();
	c0 = cpu_s();
	CHECK(hws_idle(d, 2000000));
	fg->idle_rate = 2e6 / (now_s() - t0);
	fg->idle_rate_cpu = 2e6 / (cpu_s() - c0);
	hws_close(d);
}

static void print_cycles(const struct figures *fg)
{
	unsigned k, o;

	printf("engine latency (cycles) / marginal issue interval (cycles per command, bus "
	       "included), RTL, by occupancy of one list:\n");
	printf("  %-10s", "op");
	for (o = 0; o < 3; o++)
		printf("   occ %-3u lat/ivl", occs[o]);
	printf("\n");
	for (k = 0; k < NR_OPS; k++) {
		printf("  %-10s", ops[k].name);
		for (o = 0; o < 3; o++)
			printf("   %7u / %-6.2f", fg->lat[o][k], fg->ivl[o][k]);
		printf("\n");
	}
	printf("  %-10s", "ENQUEUE");
	for (o = 0; o < 3; o++)
		printf("   %7u / -     ", fg->enq_lat[o]);
	printf("\n  %-10s", "DEQUEUE");
	for (o = 0; o < 3; o++)
		printf("   %7u / -     ", fg->deq_lat[o]);
	printf("\n  %-10s", "PICK(NONE)");
	for (o = 0; o < 3; o++)
		printf("   %7u / -     ", fg->pick_lat[o]);
	printf("\n");
}

/* One row of the BALANCE table: the model, and the RTL where it exists (which must agree
 * to the cycle). Returns 0, or 1 on a disagreement. */
static int measure_balance_row(struct figures *fg, unsigned k)
{
	int has_rtl = bal_n[k] == 8 || bal_n[k] == 64;
	double rtl_ivl = 0, dummy;
	unsigned v, vr, vf;

	fg->bal_cyc[k] = balance_cycles("model", bal_n[k], 0, &fg->bal_verdict[k],
					&fg->bal_ivl[k]);
	fg->bal_flat[k] = balance_cycles("model", bal_n[k], 1, &v, &dummy);
	fg->bal_rtl[k] = fg->bal_rtl_flat[k] = 0;
	if (has_rtl) {
		fg->bal_rtl[k] = balance_cycles("rtl", bal_n[k], 0, &vr, &rtl_ivl);
		fg->bal_rtl_flat[k] = balance_cycles("rtl", bal_n[k], 1, &vf, &dummy);
		if (fg->bal_rtl[k] != fg->bal_cyc[k] || vr != fg->bal_verdict[k] ||
		    fg->bal_rtl_flat[k] != fg->bal_flat[k] || vf != v || rtl_ivl != fg->bal_ivl[k]) {
			fprintf(stderr, "hws_bench: model and RTL disagree on BALANCE at %u CPUs\n",
				bal_n[k]);
			return 1;
		}
	}
	printf("  %4u  %4u / ", bal_n[k], fg->bal_cyc[k]);
	if (has_rtl)
		printf("%-4u", fg->bal_rtl[k]);
	else
		printf("-   ");
	printf(" (verdict %u)       %4u / ", fg->bal_verdict[k], fg->bal_flat[k]);
	if (has_rtl)
		printf("%-4u", fg->bal_rtl_flat[k]);
	else
		printf("-   ");
	printf("       %.2f\n", fg->bal_ivl[k]);
	return 0;
}

static int measure_balance(struct figures *fg)
{
	unsigned k;

	printf("BALANCE cycles per query, level 3 from CPU 1, a lane per CPU (docs/accelerator.md "
	       "8.2: %u + %u x 2 max(%u, ceil(log2 NR_CPUS))):\n", HWS_BAL_LAT_BASE,
	       HWS_BAL_LAT_LEVEL, HWS_BAL_LAT_MIN_LG);
	printf("  CPUs  4 NUMA nodes (model / rtl)   flat, a group per CPU (model / rtl)   "
	       "issue interval\n");
	for (k = 0; k < 4; k++)
		if (measure_balance_row(fg, k))
			return 1;
	printf("  (RTL at 8 and 64 CPUs, the shapes make test builds; issue interval: "
	       "back-to-back BALANCEs with their RESULT reads, cycles per query)\n");
	return 0;
}

static int measure_sustained(struct figures *fg)
{
	double m = sustained_rate("model", 20000);

	static const unsigned np[3] = { 1, 2, 4 };

	fg->sustained = sustained_rate("rtl", 20000);
	printf("sustained commands per cycle, mixed posted stream with POP reads, 1 port, "
	       "through the driver: %.3f (model %.3f)\n", fg->sustained, m);
	if (m != fg->sustained) {
		fprintf(stderr, "hws_bench: the RTL and the model differ on the sustained rate\n");
		return 1;
	}
	printf("the same stream on every port at once (20000 commands per port), model and RTL "
	       "in lockstep through the pins:\n");
	for (unsigned k = 0; k < 3; k++) {
		fg->ports[k] = sustained_ports(np[k], 20000);
		if (fg->ports[k] < 0)
			return 1;
	}
	printf("  commands per cycle: 1 port %.3f, 2 ports %.3f, 4 ports %.3f\n", fg->ports[0],
	       fg->ports[1], fg->ports[2]);
	/* PIPE = 1 (docs/accelerator.md 4.1.1). The independent stream on 8 CPUs x 4096 tasks,
	 * so that it (every task enqueued once) is 4096 commands long, in lockstep: model and
	 * RTL (shapes 8x4096x16g16[p2|p4]pi) through the pins, every output compared. The mixed
	 * stream on 8x256 and the independent stream with PIPE = 0 on the model alone (the RTL
	 * agrees with it in lockstep on those too: LockstepSweep, Ports). */
	printf("PIPE=1 (overlapped issue): independent stream on 8x4096 in lockstep; mixed on "
	       "8x256 and PIPE=0 on the model:\n");
	for (unsigned k = 0; k < 3; k++) {
		fg->pipe_indep[k] = sustained_run(np[k], 4096 / np[k], "lockstep", 1, 4096, 1);
		fg->pipe_mixed[k] = sustained_run(np[k], 20000, "model", 1, 256, 0);
		fg->indep0[k] = sustained_run(np[k], 4096 / np[k], "model", 0, 4096, 1);
		if (fg->pipe_mixed[k] < 0 || fg->pipe_indep[k] < 0 || fg->indep0[k] < 0)
			return 1;
	}
	printf("  commands per cycle, mixed stream: 1 port %.3f, 2 ports %.3f, 4 ports %.3f\n",
	       fg->pipe_mixed[0], fg->pipe_mixed[1], fg->pipe_mixed[2]);
	printf("  independent stream (ENQUEUEs, other CPU and task each): %.3f, %.3f, %.3f "
	       "(PIPE=0: %.3f, %.3f, %.3f)\n", fg->pipe_indep[0], fg->pipe_indep[1],
	       fg->pipe_indep[2], fg->indep0[0], fg->indep0[1], fg->indep0[2]);
	return 0;
}

static void measure_rates(struct figures *fg)
{
	fg->load_before = loadavg();
	fg->lock = random_rate("lockstep", 300000);
	fg->rtl = random_rate("rtl", 300000);
	fg->model = random_rate("model", 1000000);
	fg->load_after = loadavg();
	printf("random streams (seed 42), per CPU second (per wall-clock second; load average "
	       "%.2f before, %.2f after):\n", fg->load_before, fg->load_after);
	printf("  lockstep: %.0f (%.0f) checked commands/s (%" PRIu64 " in %.2f CPU s), %.2f M "
	       "edges/s\n", fg->lock.cmds_per_cpu_s, fg->lock.cmds_per_s, fg->lock.commands,
	       fg->lock.cpu_secs, fg->lock.edges_per_cpu_s / 1e6);
	printf("  rtl:      %.0f (%.0f) commands/s, %.2f M simulated cycles/s\n",
	       fg->rtl.cmds_per_cpu_s, fg->rtl.cmds_per_s, fg->rtl.edges_per_cpu_s / 1e6);
	printf("  model:    %.0f (%.0f) commands/s, %.2f M cycles/s\n", fg->model.cmds_per_cpu_s,
	       fg->model.cmds_per_s, fg->model.edges_per_cpu_s / 1e6);
	printf("  verilator idle clocking: %.2f (%.2f) M cycles/s\n", fg->idle_rate_cpu / 1e6,
	       fg->idle_rate / 1e6);
}

/* How the default shape was built (its Verilator flags), for the record. */
static const char *built_with(void)
{
	const struct hws_vsim_opts o = {
		.nr_cpus = HWS_DEF_NR_CPUS, .nr_tasks = HWS_DEF_NR_TASKS,
		.cmd_depth = HWS_DEF_DEPTH, .res_depth = HWS_DEF_DEPTH,
		.nr_groups = HWS_DEF_GROUPS, .nr_ports = 1,
	};
	char msg[512];
	int err;
	const struct hws_shape_ops *s = hws_shape_open(&o, &err, msg, sizeof(msg));

	return s ? s->built_with : "unknown";
}

/* The machine a record was measured on: CPU model, cores online and host name. */
static void json_machine(FILE *f)
{
	char model[256] = "unknown", line[512], host[256] = "unknown";
	FILE *c = fopen("/proc/cpuinfo", "r");

	while (c && fgets(line, sizeof(line), c))
		if (!strncmp(line, "model name", 10) && strchr(line, ':')) {
			snprintf(model, sizeof(model), "%s", strchr(line, ':') + 2);
			model[strcspn(model, "\n")] = '\0';
			break;
		}
	if (c)
		fclose(c);
	if (gethostname(host, sizeof(host)))
		snprintf(host, sizeof(host), "unknown");
	host[sizeof(host) - 1] = '\0';
	fputs("  \"machine\": {\"cpu_model\": ", f);
	hws_json_str(f, model);
	fprintf(f, ", \"cores\": %ld, \"host\": ", sysconf(_SC_NPROCESSORS_ONLN));
	hws_json_str(f, host);
	fputs("},\n", f);
}

static int write_json(const struct figures *fg, const char *json, const char *commit,
		      const char *command)
{
	char date[32] = "unknown";
	time_t now = time(NULL);
	struct tm tm;

	struct hws_out out;
	char err[300];
	unsigned k;
	FILE *f;

	if (hws_out_open(&out, json, 0, err, sizeof(err))) {
		fprintf(stderr, "hws_bench: %s\n", err);
		return 1;
	}
	f = out.f;
	fputs("{\n  ", f);
	hws_json_provenance(f);
	fprintf(f, ",\n  \"commit\": \"%s\",\n", commit);
	if (gmtime_r(&now, &tm))
		strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tm);
	fprintf(f, "  \"date\": \"%s\",\n  \"command\": ", date);
	hws_json_str(f, command);
	fputs(",\n", f);
	json_machine(f);
	fprintf(f, "  \"shape\": \"8x256x16g16\",\n  \"shape_built_with\": \"%s\",\n",
		built_with());
	fprintf(f, "  \"load_average\": [%.2f, %.2f],\n", fg->load_before, fg->load_after);
	fprintf(f, "  \"config\": {\"nr_cpus\": 8, \"nr_tasks\": 256, \"fifo_depth\": 16},\n");
	fprintf(f, "  \"occupancy\": [1, 16, 255],\n  \"latency_cycles\": {\n");
	for (k = 0; k < NR_OPS; k++)
		fprintf(f, "    \"%s\": [%u, %u, %u],\n", ops[k].name, fg->lat[0][k], fg->lat[1][k],
			fg->lat[2][k]);
	fprintf(f, "    \"ENQUEUE\": [%u, %u, %u],\n", fg->enq_lat[0], fg->enq_lat[1],
		fg->enq_lat[2]);
	fprintf(f, "    \"DEQUEUE\": [%u, %u, %u],\n", fg->deq_lat[0], fg->deq_lat[1],
		fg->deq_lat[2]);
	fprintf(f, "    \"PICK_NEXT_NONE\": [%u, %u, %u]\n  },\n", fg->pick_lat[0],
		fg->pick_lat[1], fg->pick_lat[2]);
	fprintf(f, "  \"issue_interval_cycles\": {\n");
	for (k = 0; k < NR_OPS; k++)
		fprintf(f, "    \"%s\": [%.3f, %.3f, %.3f]%s\n", ops[k].name, fg->ivl[0][k],
			fg->ivl[1][k], fg->ivl[2][k], k + 1 < NR_OPS ? "," : "");
	fprintf(f, "  },\n");
	fprintf(f, "  \"lockstep_commands_per_s\": %.0f,\n", fg->lock.cmds_per_s);
	fprintf(f, "  \"lockstep_edges_per_s\": %.0f,\n", fg->lock.edges_per_s);
	fprintf(f, "  \"rtl_commands_per_s\": %.0f,\n", fg->rtl.cmds_per_s);
	fprintf(f, "  \"rtl_sim_cycles_per_s\": %.0f,\n", fg->rtl.edges_per_s);
	fprintf(f, "  \"rtl_idle_cycles_per_s\": %.0f,\n", fg->idle_rate);
	fprintf(f, "  \"model_commands_per_s\": %.0f,\n", fg->model.cmds_per_s);
	fprintf(f, "  \"model_cycles_per_s\": %.0f,\n", fg->model.edges_per_s);
	fprintf(f, "  \"per_cpu_second\": {\"lockstep_commands\": %.0f, \"lockstep_edges\": %.0f, "
		   "\"rtl_commands\": %.0f, \"rtl_sim_cycles\": %.0f, \"rtl_idle_cycles\": %.0f, "
		   "\"model_commands\": %.0f, \"model_cycles\": %.0f},\n",
		fg->lock.cmds_per_cpu_s, fg->lock.edges_per_cpu_s, fg->rtl.cmds_per_cpu_s,
		fg->rtl.edges_per_cpu_s, fg->idle_rate_cpu, fg->model.cmds_per_cpu_s,
		fg->model.edges_per_cpu_s);
	fprintf(f, "  \"balance_cycles_per_query\": {\"4\": %u, \"16\": %u, \"64\": %u},\n",
		fg->bal_cyc[0], fg->bal_cyc[2], fg->bal_cyc[3]);
	fprintf(f, "  \"balance_cycles_flat\": {\"4\": %u, \"16\": %u, \"64\": %u},\n",
		fg->bal_flat[0], fg->bal_flat[2], fg->bal_flat[3]);
	fprintf(f, "  \"balance_cycles_rtl\": {\"8\": %u, \"64\": %u},\n", fg->bal_rtl[1],
		fg->bal_rtl[3]);
	fprintf(f, "  \"balance_issue_interval_cycles\": {\"4\": %.2f, \"8\": %.2f, \"16\": "
		   "%.2f, \"64\": %.2f},\n", fg->bal_ivl[0], fg->bal_ivl[1], fg->bal_ivl[2],
		fg->bal_ivl[3]);
	/* By port count, every port streaming at once through the pins. The headline (issue
	 * 22): PIPE = 1, the independent stream, model and RTL in lockstep. */
	fprintf(f, "  \"sustained_commands_per_cycle\": {\"1\": %.4f, \"2\": %.4f, \"4\": %.4f},\n",
		fg->pipe_indep[0], fg->pipe_indep[1], fg->pipe_indep[2]);
	fprintf(f, "  \"sustained_commands_per_cycle_driver\": {\"1\": %.4f},\n", fg->sustained);
	/* PIPE = 0, the mixed stream, in lockstep (this key's figures were the headline's
	 * before PIPE = 1 was built). */
	fprintf(f, "  \"pipe0_mixed_sustained_commands_per_cycle\": {\"1\": %.4f, \"2\": %.4f, "
		   "\"4\": %.4f},\n", fg->ports[0], fg->ports[1], fg->ports[2]);
	/* PIPE = 1, the mixed stream on the model, 8x256. */
	fprintf(f, "  \"pipe1_model_mixed_sustained_commands_per_cycle\": {\"1\": %.4f, "
		   "\"2\": %.4f, \"4\": %.4f},\n", fg->pipe_mixed[0], fg->pipe_mixed[1],
		fg->pipe_mixed[2]);
	fprintf(f, "  \"pipe0_independent_sustained_commands_per_cycle\": {\"1\": %.4f, "
		   "\"2\": %.4f, \"4\": %.4f}\n}\n", fg->indep0[0], fg->indep0[1], fg->indep0[2]);
	if (hws_out_commit(&out, err, sizeof(err))) {
		fprintf(stderr, "hws_bench: %s\n", err);
		return 1;
	}
	printf("wrote %s\n", json);
	return 0;
}

int main(int argc, char **argv)
{
	static struct figures fg;
	const char *json = NULL, *commit = "unknown";
	char err[300], command[1024] = "hws_bench";
	int i, sustained_only = 0, keys_only = 0;
	size_t n = strlen(command);

	for (i = 1; i < argc && n < sizeof(command); i++)	/* the command line, for the record */
		n += (size_t)snprintf(command + n, sizeof(command) - n, " %s", argv[i]);
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--sustained-only")) {
			sustained_only = 1;
		} else if (!strcmp(argv[i], "--keys-only")) {
			keys_only = 1;
		} else if (!strcmp(argv[i], "--json") && i + 1 < argc) {
			json = argv[++i];
		} else if (!strcmp(argv[i], "--commit") && i + 1 < argc) {
			commit = argv[++i];
		} else if (!strcmp(argv[i], "--command") && i + 1 < argc) {	/* make bench's goal */
			snprintf(command, sizeof(command), "%s", argv[++i]);
		} else if (!strcmp(argv[i], "--version")) {
			printf("hws_bench %s\n", hws_version());
			return 0;
		} else if (!strcmp(argv[i], "--help")) {
			printf("usage: hws_bench [--json FILE] [--commit DESCRIBE] [--command TEXT]\n"
			       "                 [--sustained-only]\n"
			       "       hws_bench --keys-only --json FILE\n"
			       "       hws_bench --version\n"
			       "Measures the engine (RTL backend, 8 CPUs x 256 tasks): latency and\n"
			       "issue interval per opcode at occupancy 1, 16 and 255 tasks on one\n"
			       "list, then lockstep, RTL and model throughput on random streams.\n"
			       "--sustained-only: the sustained commands per cycle on 1, 2 and 4\n"
			       "ports alone (no JSON). The JSON's keys: docs/json.md.\n"
			       "--commit, --command: the record's commit and command (make bench\n"
			       "gives tools/record.sh's commit and its goal; default: unknown and\n"
			       "this command line).\n"
			       "--keys-only: measure nothing, write the JSON with every figure 0\n"
			       "(tests/cli/json_keys_test.cc checks its keys against docs/json.md).\n");
			return 0;
		} else {
			fprintf(stderr, "hws_bench: unknown argument '%s' (try --help)\n", argv[i]);
			return 2;
		}
	}
	if (json && hws_out_check(json, 0, err, sizeof(err))) {	/* before the measuring */
		fprintf(stderr, "hws_bench: %s\n", err);
		return 2;
	}
	if (keys_only && (!json || sustained_only)) {
		fprintf(stderr, "hws_bench: --keys-only writes the JSON: it needs --json FILE and "
				"not --sustained-only\n");
		return 2;
	}
	if (keys_only)
		return write_json(&fg, json, commit, command);
	if (sustained_only)
		return measure_sustained(&fg);
	measure_cycles(&fg);
	print_cycles(&fg);
	if (measure_balance(&fg))
		return 1;
	if (measure_sustained(&fg))
		return 1;
	measure_rates(&fg);
	return json ? write_json(&fg, json, commit, command) : 0;
}
