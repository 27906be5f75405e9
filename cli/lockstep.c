/*
 * lockstep.c - hwsched lockstep: random engine commands through a backend (default the
 * model and the RTL in lockstep), every outcome checked, and the summary.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct progress {
	double start;
	int tty;
	int shown;
};

static void show_progress(void *arg, uint64_t done, uint64_t total)
{
	struct progress *p = arg;
	double el = now_s() - p->start;

	if (!p->tty || el < 1.0)
		return;
	fprintf(stderr, "\r  %" PRIu64 " / %" PRIu64 " commands (%.0f%%), %.1f s", done, total,
		total ? 100.0 * (double)done / (double)total : 100.0, el);
	p->shown = 1;
}

/* What the stream did, by opcode, BALANCE verdict and error code. */
static void print_counts(const struct hws_config *cfg, const struct hws_randcmd_report *r)
{
	static const char *const vn[8] = { "", "no_busiest", "this_is_max", "this_above_avg",
					   "within_pct", "no_gain", "move", "move_one" };
	unsigned k;

	printf("commands by type:");
	for (k = 0; k < 16; k++)
		if (r->by_op[k])
			printf(" %s=%" PRIu64, hws_op_name(k), r->by_op[k]);
	printf("\n");
	printf("BALANCE answers by verdict:");
	for (k = 1; k < 8; k++)
		printf(" %s=%" PRIu64, vn[k], r->bal_verdicts[k]);
	printf("\n");
	printf("errors by code:");
	for (k = 1; k < 16; k++)
		if (r->errors[k])
			printf(" %s=%" PRIu64, hws_err_name(k), r->errors[k]);
	printf("%s\n", cfg->no_err_counters ? " not counted (engine built without ERR_CNTn; "
		"they read 0, as checked)" : "");
}

static void print_summary(const struct cli_args *a, const struct hws_randcmd_report *r,
			  double el)
{
	const struct hws_config *cfg = &a->cfg;

	printf("engine: %u CPUs, %u tasks, FIFOs %u/%u, %u port%s%s, backend %s, seed %" PRIu64
	       "\n", cfg->nr_cpus, cfg->nr_tasks, cfg->cmd_depth, cfg->res_depth,
	       cfg->nr_ports ? cfg->nr_ports : 1, cfg->nr_ports > 1 ? "s" : "",
	       cfg->pipe ? ", PIPE=1" : "", cfg->backend, a->ro.seed);
	printf("occupancy: max %u of %u tasks queued; table filled %u times, drained %u "
	       "times\n", r->max_occupancy, cfg->nr_tasks, r->fills, r->drains);
	print_counts(cfg, r);
	printf("window reads (POP/PEEKW): %" PRIu64 ", of which refused (OVERFLOW, they could "
	       "only wait): %" PRIu64 "\n", r->windows, r->windows_refused);
	if (a->ro.resets > 0)
		printf("resets: %" PRIu64 " bursts cut by the reset pin (%" PRIu64 " seen in "
		       "flight by a STATUS read just before), %" PRIu64 " commands of them cut; "
		       "every register at its reset value after each\n", r->resets,
		       r->resets_seen_busy, r->resets_cut);
	if (cfg->pipe && r->has_overlaps)
		printf("overlapped issue: %" PRIu64 " commands popped beside an older one "
		       "(docs/accelerator.md 4.1.1)\n", r->overlaps);
	if (r->engine_done)
		printf("engine: %" PRIu64 " commands executed in %" PRIu64 " cycles: %.2f "
		       "cycles per command (bus included)\n", r->engine_done,
		       r->engine_cycles, (double)r->engine_cycles / (double)r->engine_done);
	printf("time: %.2f s wall, %.0f commands/s, %" PRIu64 " clock edges (%.2f M "
	       "edges/s)\n", el, (double)r->commands / (el > 0 ? el : 1e-9), r->edges,
	       (double)r->edges / (el > 0 ? el : 1e-9) / 1e6);
}

/* The transport's own figures (a serial line's frames and bytes), when it has some. */
static void print_bus_report(struct hws_dev *d)
{
	char line[512];

	if (!hws_bus_report(d, line, sizeof(line)))
		printf("bus: %s\n", line);
}

/* Run the stream on @d; print and return the exit status. */
static int stream(struct cli_args *a, struct hws_dev *d)
{
	struct hws_randcmd_report *r = calloc(1, sizeof(*r));
	struct progress pr = { now_s(), isatty(2), 0 };
	int ret, mismatch;
	double el;

	if (!r)
		return cli_fail(a, "out of memory");
	a->ro.progress = show_progress;
	a->ro.progress_arg = &pr;
	ret = hws_randcmd_run(d, &a->ro, r);
	el = now_s() - pr.start;
	if (pr.shown)
		fprintf(stderr, "\n");
	mismatch = ret == -EIO && strstr(r->msg, "lockstep mismatch") != NULL;
	if (ret)
		cli_fail(a, "seed %" PRIu64 ": %s", a->ro.seed, r->msg);
	if (!a->quiet) {
		print_summary(a, r, el);
		print_bus_report(d);
	}
	printf("lockstep: %" PRIu64 " commands, %d mismatches\n", r->commands, mismatch);
	free(r);
	return ret ? 1 : 0;
}

int cli_lockstep(int argc, char **argv)
{
	struct cli_args a;
	struct hws_dev *d = NULL;
	char msg[512];
	int ret, first;

	ret = cli_parse(&a, CLI_LOCKSTEP, argc, argv, &first);
	if (ret >= 0)
		goto out;
	ret = 2;
	if (first < argc) {
		cli_error(&a, "unexpected argument '%s'", argv[first]);
		goto out;
	}
	ret = hws_open(&d, &a.cfg, msg, sizeof(msg));
	if (ret) {
		/* -EINVAL: the backend refused its options (uart:DEVICE,baud=12345). */
		ret = (ret == -EINVAL ? cli_error : cli_fail)(&a, "cannot open the %s backend: %s",
							     a.cfg.backend, msg);
		goto out;
	}
	ret = stream(&a, d);
	hws_close(d);
out:
	cli_args_free(&a);
	return ret;
}
