/*
 * run.c - hwsched run (a workload on the simulated machine) and hwsched vp (the same on
 * the SystemC virtual platform), with vp's own report.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"

static int write_vp_json(const struct cli_args *a, const struct hws_vp_result *v,
			 const char *path, char *err, size_t len)
{
	struct hws_out out;
	unsigned k;
	FILE *f;
	int ret = hws_out_open(&out, path, 0, err, len);

	if (ret)
		return ret;
	f = out.f;
	fputs("{\n  ", f);
	hws_json_provenance(f);
	fprintf(f, ", \"seed\": %llu, \"backend\": \"tlm\",\n  \"engine\": ",
		(unsigned long long)a->mo.seed);
	hws_json_str(f, v->engine);
	fprintf(f, ", \"initiators\": %u, \"clk_ns\": %g, \"bus_latency_ns\": %g, "
		   "\"bus_read_latency_ns\": %g, \"bus_write_latency_ns\": %g,\n  "
		   "\"contention\": %d, \"ports\": %u, \"posted_writes\": %d, "
		   "\"write_accept_ns\": %g,\n", v->initiators, v->clk_ns, v->bus_latency_ns,
		v->bus_read_latency_ns, v->bus_write_latency_ns, v->contention, v->ports,
		v->posted_writes, v->write_accept_ns);
	fprintf(f, "  \"accesses\": %" PRIu64 ", \"reads\": %" PRIu64 ", \"posted\": %" PRIu64
		   ", \"edges\": %" PRIu64 ", \"posted_edges\": %" PRIu64 ",\n  \"bus_ns\": %.3f, "
		   "\"wait_ns\": %.3f, \"behind_ns\": %.3f, \"posted_wait_ns\": %.3f, "
		   "\"waited\": %" PRIu64 ",\n  \"decisions\": {",
		v->accesses, v->reads, v->posted, v->edges, v->posted_edges, v->bus_ns, v->wait_ns,
		v->behind_ns, v->posted_wait_ns, v->waited);
	for (k = 0; k < v->ndec; k++) {
		const struct hws_vp_decision *d = &v->dec[k];

		fprintf(f, "%s\n    ", k ? "," : "");
		hws_json_str(f, d->name);
		fprintf(f, ": {\"count\": %" PRIu64 ", \"mmio_mean\": %.4f, "
			   "\"mmio_p99\": %.0f, \"bus_ns_mean\": %.3f, \"bus_ns_p99\": %.3f, "
			   "\"cycles_mean\": %.3f, \"cycles_p99\": %.0f, \"wait_ns_mean\": %.3f, "
			   "\"behind_ns_mean\": %.3f}",
			d->count, d->mmio_mean, d->mmio_p99, d->bus_ns_mean, d->bus_ns_p99,
			d->cycles_mean, d->cycles_p99, d->wait_ns_mean, d->behind_ns_mean);
	}
	fprintf(f, "\n  }\n}\n");
	return hws_out_commit(&out, err, len);
}

static void print_vp(const struct hws_vp_result *v, FILE *f)
{
	unsigned k;

	fprintf(f, "\nvirtual platform: %u initiators, engine %s (Verilated SystemC, TLM-2.0 "
		   "target), clock %g ns, ", v->initiators, v->engine, v->clk_ns);
	if (v->bus_read_latency_ns == v->bus_write_latency_ns)
		fprintf(f, "bus latency %g ns per access", v->bus_read_latency_ns);
	else
		fprintf(f, "bus latency %g ns per read, %g ns per write", v->bus_read_latency_ns,
			v->bus_write_latency_ns);
	fprintf(f, ", %u port%s, contention %s, ", v->ports, v->ports == 1 ? "" : "s",
		v->contention ? "on" : "off");
	if (v->posted_writes)
		fprintf(f, "writes posted (accepted in %g ns)\n", v->write_accept_ns);
	else
		fprintf(f, "writes not posted\n");
	fprintf(f, "bus: %" PRIu64 " MMIO accesses (%" PRIu64 " posted writes), %" PRIu64
		   " engine edges, %.3f ms charged, of which %.3f ms waiting for a port (%" PRIu64
		   " accesses waited) and %.3f ms reads waiting behind posted writes\n",
		v->accesses, v->posted, v->edges, v->bus_ns / 1e6, v->wait_ns / 1e6, v->waited,
		v->behind_ns / 1e6);
	fprintf(f, "%-10s %9s %14s %22s %18s %12s %12s\n", "decision", "count", "MMIO mean/p99",
		"bus ns mean/p99", "cycles mean/p99", "wait ns mean", "behind mean");
	for (k = 0; k < v->ndec; k++) {
		const struct hws_vp_decision *d = &v->dec[k];

		fprintf(f, "%-10s %9" PRIu64 " %8.2f/%-5.0f %12.1f/%-9.0f %10.1f/%-7.0f %12.1f %12.1f\n",
			d->name, d->count, d->mmio_mean, d->mmio_p99, d->bus_ns_mean, d->bus_ns_p99,
			d->cycles_mean, d->cycles_p99, d->wait_ns_mean, d->behind_ns_mean);
	}
	fprintf(f, "(balance: the BALANCE queries, counted again inside the pick and tick calls "
		   "that made them)\n");
}

/* hwsched vp in build/hwsched: run build/hwsched_vp, beside this executable. */
static int exec_vp(const struct cli_args *a, char **argv)
{
	char self[4096], path[4200];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	if (n <= 0)
		return cli_fail(a, "cannot find this executable: %s", strerror(errno));
	self[n] = 0;
	slash = strrchr(self, '/');
	if (slash)
		*slash = 0;
	snprintf(path, sizeof(path), "%s/hwsched_vp", self);
	if (access(path, X_OK))
		return cli_fail(a, "the virtual platform is not built (no %s beside this "
				"executable): run 'make vp' in the repository, or 'make install' "
				"(bin/hwsched_vp beside bin/hwsched)", path);
	argv[-1] = path;
	fflush(stdout);
	execv(path, argv - 1);
	return cli_fail(a, "cannot run %s: %s", path, strerror(errno));
}

/* A board behind a serial line (driver/hws_uart.c), alone or beside the model. */
static int uart_backend(const char *b)
{
	return b && (!strncmp(b, "uart:", 5) || !strncmp(b, "lockstep:uart:", 14));
}

/* The checks of run and vp that need every option: 0, or the exit status. */
static int check(struct cli_args *a)
{
	const struct sched_ops *ops = sched_find(a->mo.sched);
	const struct sched_engine *e = &a->mo.sched_opts.engine;
	char err[400];

	/* an option the scheduler would not read was refused by cli_parse() */
	(void)ops;
	if (e->irq && e->no_irq)
		return cli_error(a, "--engine-irq needs the engine's preemption interrupt, and "
				 "--no-irq builds the engine without it (IRQ=0, FEATURES.IRQ = 0)");
	if (e->lcu_lean && e->no_balance)
		return cli_error(a, "--bal-lean builds BALANCE as the lean unit, and --no-hw-balance "
				 "builds the engine without BALANCE (LCU_LEAN must be 0 without BALANCE)");
	if (e->irq && uart_backend(e->backend))
		return cli_error(a, "--engine-irq keeps the engine's CURR window, which a serial line's "
				 "frames cannot reach (--backend %s; docs/board.md)", e->backend);
	if (!strncmp(a->mo.workload, "hackbench", 9) && !a->duration_given)
		a->mo.duration_ns = 0;	/* hackbench runs until its tasks exit */
	if (machine_check_opts(&a->mo, err, sizeof(err)))
		return cli_error(a, "%s", err);
	return 0;
}

/* Print the report and write the files: the exit status. */
static int report(struct cli_args *a, struct machine_result *r, const struct hws_vp_result *vr)
{
	FILE *out = cli_report_file(a);
	char err[400];
	int ret = 0;

	machine_print(&a->mo, r, out);
	if (vr)
		print_vp(vr, out);
	if (r->interrupted) {	/* the partial summary; no JSON (docs/json.md) */
		fprintf(out, "%s: interrupted at %.3f s simulated, %llu events (partial figures "
			"above)\n", a->cmd_name, r->sim_ns / 1e9, (unsigned long long)r->events);
		fflush(out);
		if (a->json)
			fprintf(stderr, "%s %s: --json %s not written: interrupted\n", cli_prog,
				a->cmd_name, a->json_dash ? "-" : a->json);
		if (a->vp_json)
			fprintf(stderr, "%s %s: --vp-json %s not written: interrupted\n", cli_prog,
				a->cmd_name, a->vp_json);
		machine_result_free(r);
		return CLI_EXIT_INTERRUPTED;
	}
	fflush(out);
	if (a->json && machine_write_json(&a->mo, r, a->json, err, sizeof(err)))
		ret = cli_fail(a, "%s", err);
	else if (vr && a->vp_json && write_vp_json(a, vr, a->vp_json, err, sizeof(err)))
		ret = cli_fail(a, "%s", err);
	machine_result_free(r);
	return ret;
}

static int run_or_vp(enum cli_cmd cmd, int argc, char **argv)
{
	struct cli_args a;
	struct machine_result r;
	struct hws_vp_result vr;
	struct cli_progress pr;
	char err[400];
	int ret, first;

	ret = cli_parse(&a, cmd, argc, argv, &first);
	if (ret >= 0)
		goto out;
	if (first < argc) {
		ret = cli_error(&a, "unexpected argument '%s'", argv[first]);
		goto out;
	}
	if (cmd == CLI_VP && !hws_vp_available()) {
		ret = exec_vp(&a, argv);
		goto out;
	}
	ret = check(&a);
	if (ret)
		goto out;
	cli_progress_sim(&pr, &a, "sim s", a.mo.duration_ns);
	if (cmd == CLI_VP)
		ret = hws_vp_run(&a.mo, &a.vo, &r, &vr, cli_report_file(&a), err, sizeof(err));
	else
		ret = machine_run(&a.mo, &r, cli_report_file(&a), err, sizeof(err));
	cli_progress_end(&pr);
	if (ret && ret != -EINVAL && uart_backend(a.mo.sched_opts.engine.backend) &&
	    !a.mo.sched_opts.engine.nr_tasks && strstr(err, "the board's engine has"))
		/* the engine the machine sizes for a workload is not the board's */
		ret = cli_fail(&a, "%s (ask for the board's engine: --engine-tasks N, and "
			       "--no-hw-balance, --no-err-counters as it was built; docs/board.md)",
			       err);
	else if (ret)	/* -EINVAL: options the scheduler refused (bad input) */
		ret = (ret == -EINVAL ? cli_error : cli_fail)(&a, "%s", err);
	else
		ret = report(&a, &r, cmd == CLI_VP ? &vr : NULL);
out:
	cli_args_free(&a);
	return ret;
}

int cli_run(int argc, char **argv)
{
	return run_or_vp(CLI_RUN, argc, argv);
}

int cli_vp(int argc, char **argv)
{
	return run_or_vp(CLI_VP, argc, argv);
}
