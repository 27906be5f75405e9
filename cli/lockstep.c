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

static void show_progress(void *arg, uint64_t done, uint64_t total)
{
	cli_progress_update(arg, done, total);
}

static const char *const verdict_names[8] = { "", "no_busiest", "this_is_max", "this_above_avg",
					      "within_pct", "no_gain", "move", "move_one" };

/* What the stream did, by opcode, BALANCE verdict and error code. */
static void print_counts(FILE *out, const struct hws_config *cfg,
			 const struct hws_randcmd_report *r)
{
	const char *const *vn = verdict_names;
	unsigned k;

	fprintf(out, "commands by type:");
	for (k = 0; k < 16; k++)
		if (r->by_op[k])
			fprintf(out, " %s=%" PRIu64, hws_op_name(k), r->by_op[k]);
	fprintf(out, "\n");
	fprintf(out, "BALANCE answers by verdict:");
	for (k = 1; k < 8; k++)
		fprintf(out, " %s=%" PRIu64, vn[k], r->bal_verdicts[k]);
	fprintf(out, "\n");
	fprintf(out, "errors by code:");
	for (k = 1; k < 16; k++)
		if (r->errors[k])
			fprintf(out, " %s=%" PRIu64, hws_err_name(k), r->errors[k]);
	fprintf(out, "%s\n", cfg->no_err_counters ? " not counted (engine built without ERR_CNTn; "
		"they read 0, as checked)" : "");
}

static void print_summary(FILE *out, const struct cli_args *a,
			  const struct hws_randcmd_report *r, double el)
{
	const struct hws_config *cfg = &a->cfg;

	fprintf(out, "engine: %u CPUs, %u tasks, FIFOs %u/%u, %u port%s%s, backend %s, seed %" PRIu64
	       "\n", cfg->nr_cpus, cfg->nr_tasks, cfg->cmd_depth, cfg->res_depth,
	       cfg->nr_ports ? cfg->nr_ports : 1, cfg->nr_ports > 1 ? "s" : "",
	       cfg->pipe ? ", PIPE=1" : "", cfg->backend, a->ro.seed);
	fprintf(out, "occupancy: max %u of %u tasks queued; table filled %u times, drained %u "
	       "times\n", r->max_occupancy, cfg->nr_tasks, r->fills, r->drains);
	print_counts(out, cfg, r);
	fprintf(out, "window reads (POP/PEEKW): %" PRIu64 ", of which refused (OVERFLOW, they could "
	       "only wait): %" PRIu64 "\n", r->windows, r->windows_refused);
	if (a->ro.resets > 0)
		fprintf(out, "resets: %" PRIu64 " bursts cut by the reset pin (%" PRIu64 " seen in "
		       "flight by a STATUS read just before), %" PRIu64 " commands of them cut; "
		       "every register at its reset value after each\n", r->resets,
		       r->resets_seen_busy, r->resets_cut);
	if (cfg->pipe && r->has_overlaps)
		fprintf(out, "overlapped issue: %" PRIu64 " commands popped beside an older one "
		       "(docs/accelerator.md 4.1.1)\n", r->overlaps);
	if (r->engine_done)
		fprintf(out, "engine: %" PRIu64 " commands executed in %" PRIu64 " cycles: %.2f "
		       "cycles per command (bus included)\n", r->engine_done,
		       r->engine_cycles, (double)r->engine_cycles / (double)r->engine_done);
	fprintf(out, "time: %.2f s wall, %.0f commands/s, %" PRIu64 " clock edges (%.2f M "
	       "edges/s)\n", el, (double)r->commands / (el > 0 ? el : 1e-9), r->edges,
	       (double)r->edges / (el > 0 ? el : 1e-9) / 1e6);
}

/* The transport's own figures (a serial line's frames and bytes), when it has some. */
static void print_bus_report(FILE *out, struct hws_dev *d)
{
	char line[512];

	if (!hws_bus_report(d, line, sizeof(line)))
		fprintf(out, "bus: %s\n", line);
}

/* --json: the summary of the stream (docs/json.md). */
static int write_json(const struct cli_args *a, const struct hws_randcmd_report *r,
		      int mismatches, int ret, double el)
{
	const struct hws_config *cfg = &a->cfg;
	struct hws_out out;
	char err[400];
	const char *sep = "";
	unsigned k;
	FILE *f;

	f = cli_json_begin(a, &out, a->json, &ret);
	if (!f)
		return ret;
	fputs(",\n  \"backend\": ", f);
	hws_json_str(f, cfg->backend);
	fprintf(f, ", \"seed\": %" PRIu64 ",\n", a->ro.seed);
	fprintf(f, "  \"shape\": {\"cpus\": %u, \"tasks\": %u, \"cmd_depth\": %u, "
		   "\"res_depth\": %u, \"ports\": %u, \"pipe\": %s, \"balance\": %s, "
		   "\"err_counters\": %s, \"irq\": %s},\n",
		cfg->nr_cpus, cfg->nr_tasks, cfg->cmd_depth, cfg->res_depth,
		cfg->nr_ports ? cfg->nr_ports : 1, cfg->pipe ? "true" : "false",
		cfg->no_balance ? "false" : "true", cfg->no_err_counters ? "false" : "true",
		cfg->no_irq ? "false" : "true");
	fprintf(f, "  \"commands_asked\": %" PRIu64 ", \"commands\": %" PRIu64 ", "
		   "\"mismatches\": %d, \"ok\": %s, \"error\": ", a->ro.commands, r->commands,
		mismatches, ret ? "false" : "true");
	if (ret)
		hws_json_str(f, r->msg);
	else
		fputs("null", f);
	fprintf(f, ",\n  \"resets_rate\": %g, \"check_every\": %u,\n", a->ro.resets,
		a->ro.check_every);
	fprintf(f, "  \"by_op\": {");
	for (k = 0; k < 16; k++)
		if (r->by_op[k]) {
			fprintf(f, "%s", sep);
			hws_json_str(f, hws_op_name(k));
			fprintf(f, ": %" PRIu64, r->by_op[k]);
			sep = ", ";
		}
	fprintf(f, "},\n  \"balance_verdicts\": {");
	for (k = 1; k < 8; k++)
		fprintf(f, "%s\"%s\": %" PRIu64, k > 1 ? ", " : "", verdict_names[k],
			r->bal_verdicts[k]);
	fprintf(f, "},\n  \"errors\": {");
	sep = "";
	for (k = 1; k < 16; k++)
		if (r->errors[k]) {
			fprintf(f, "%s", sep);
			hws_json_str(f, hws_err_name(k));
			fprintf(f, ": %" PRIu64, r->errors[k]);
			sep = ", ";
		}
	fprintf(f, "},\n  \"max_occupancy\": %u, \"fills\": %u, \"drains\": %u, "
		   "\"windows\": %" PRIu64 ", \"windows_refused\": %" PRIu64 ",\n",
		r->max_occupancy, r->fills, r->drains, r->windows, r->windows_refused);
	fprintf(f, "  \"resets\": %" PRIu64 ", \"resets_seen_busy\": %" PRIu64 ", "
		   "\"resets_cut\": %" PRIu64 ",\n", r->resets, r->resets_seen_busy, r->resets_cut);
	fprintf(f, "  \"engine_done\": %" PRIu64 ", \"engine_cycles\": %" PRIu64 ", "
		   "\"edges\": %" PRIu64 ",\n", r->engine_done, r->engine_cycles, r->edges);
	fprintf(f, "  \"wall_s\": %.3f, \"commands_per_s\": %.0f\n}\n", el,
		(double)r->commands / (el > 0 ? el : 1e-9));
	return hws_out_commit(&out, err, sizeof(err)) ? cli_fail(a, "%s", err) : 0;
}

/* Run the stream on @d; print and return the exit status. */
static int stream(struct cli_args *a, struct hws_dev *d)
{
	struct hws_randcmd_report *r = calloc(1, sizeof(*r));
	FILE *out = cli_report_file(a);
	struct cli_progress pr;
	int ret, mismatch, status;
	double el;

	if (!r)
		return cli_fail(a, "out of memory");
	cli_progress_start(&pr, a->progress, "commands", 1);
	a->ro.progress = show_progress;
	a->ro.progress_arg = &pr;
	a->ro.stop = &cli_interrupted;
	ret = hws_randcmd_run(d, &a->ro, r);
	el = now_s() - pr.start;
	cli_progress_end(&pr);
	mismatch = ret == -EIO && strstr(r->msg, "lockstep mismatch") != NULL;
	if (ret)
		cli_fail(a, "seed %" PRIu64 ": %s", a->ro.seed, r->msg);
	if (!a->quiet) {
		print_summary(out, a, r, el);
		print_bus_report(out, d);
	}
	fprintf(out, "lockstep: %" PRIu64 " commands, %d mismatches%s\n", r->commands, mismatch,
		r->interrupted ? " (interrupted)" : "");
	fflush(out);
	status = ret ? 1 : r->interrupted ? CLI_EXIT_INTERRUPTED : 0;
	if (a->json && r->interrupted)
		fprintf(stderr, "%s %s: --json %s not written: interrupted\n", cli_prog,
			a->cmd_name, a->json_dash ? "-" : a->json);
	else if (a->json && write_json(a, r, mismatch, ret, el))
		status = 1;
	free(r);
	return status;
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
	cli_interrupt_arm();
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
