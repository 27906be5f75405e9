/*
 * replay.c - hwsched replay: a perf sched trace rebuilt into tasks (sim/trace/), replayed
 * on the simulated machine, and printed beside what Linux did on the same trace.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <string.h>

#include "cli/cli.h"

static double pct_diff(double ours, double theirs)
{
	return theirs != 0 ? 100.0 * (ours - theirs) / theirs : 0;
}

/* The CPU time the replayed tasks ran, ms. */
static double cpu_ms_of(const struct machine_result *r)
{
	double ms = 0;

	for (unsigned i = 0; i < r->ntasks; i++)
		ms += r->tasks[i].runtime_ms;
	return ms;
}

/* The table of Linux's figures beside the replay's. */
static void print_beside(const struct trace *tr, const struct trace_linux *lx,
			 const struct machine_result *r)
{
	static const char *const q[4] = { "p50", "p90", "p99", "max" };
	static const char *const mn[5] = { "migrations", "migrations at wakeup",
					   "migrations other", "switches voluntary",
					   "switches involuntary" };
	const double lq[4] = { lx->wl_lat_p50_us, lx->wl_lat_p90_us, lx->wl_lat_p99_us,
			       lx->wl_lat_max_us };
	const double lm[5] = { (double)(lx->wl_mig_wakeup + lx->wl_mig_other),
			       (double)lx->wl_mig_wakeup, (double)lx->wl_mig_other,
			       (double)lx->wl_csw_vol, (double)lx->wl_csw_invol };
	/* the replay's migrations are counted at the move, as Linux's are */
	const double rm[5] = { (double)(r->mig_wakeup + r->mig_other), (double)r->mig_wakeup,
			       (double)r->mig_other, (double)r->vol_switches,
			       (double)r->invol_switches };
	double cpu_ms = cpu_ms_of(r);

	printf("\n%-26s %12s %12s %8s\n", "", "linux", "replay", "diff");
	printf("%-26s %12.3f %12.3f %7.1f%%\n", "makespan ms", lx->makespan_ms,
	       r->makespan_s * 1e3, pct_diff(r->makespan_s * 1e3, lx->makespan_ms));
	printf("%-26s %12.3f %12.3f %7.1f%%\n", "CPU time ms", lx->cpu_time_ms, cpu_ms,
	       pct_diff(cpu_ms, lx->cpu_time_ms));
	for (unsigned k = 0; k < tr->nr_cpus && k < r->nr_cpus; k++)
		printf("busy %% CPU%-17u %12.1f %12.1f %7.1f%%\n", k, lx->busy_pct[k], r->busy_pct[k],
		       pct_diff(r->busy_pct[k], lx->busy_pct[k]));
	for (int k = 0; k < 4; k++)
		printf("wakeup latency %-11s %12.1f %12.1f %7.1f%%\n", q[k], lq[k], r->wake_lat_us[k],
		       pct_diff(r->wake_lat_us[k], lq[k]));
	for (int k = 0; k < 5; k++)
		printf("%-26s %12.0f %12.0f %7.1f%%\n", mn[k], lm[k], rm[k], pct_diff(rm[k], lm[k]));
	printf("(latency in us; the Linux column counts the workload's tasks only, as the replay "
	       "does)\n");
}

/* One side of the JSON: Linux's (@side 0) or the replay's (1). */
static void json_side(FILE *f, int side, const struct trace *tr, const struct trace_linux *lx,
		      const struct machine_result *r)
{
	fprintf(f, "  \"%s\": {\"makespan_ms\": %.3f, \"cpu_time_ms\": %.3f, \"busy_pct\": [",
		side ? "replay" : "linux", side ? r->makespan_s * 1e3 : lx->makespan_ms,
		side ? cpu_ms_of(r) : lx->cpu_time_ms);
	for (unsigned k = 0; k < (side ? r->nr_cpus : tr->nr_cpus); k++)
		fprintf(f, "%s%.2f", k ? ", " : "", side ? r->busy_pct[k] : lx->busy_pct[k]);
	fprintf(f, "], \"wakeup_latency_us\": {\"p50\": %.1f, \"p90\": %.1f, \"p99\": %.1f, "
		   "\"max\": %.1f}, \"migrations\": %llu, \"migrations_wakeup\": %llu, "
		   "\"migrations_other\": %llu, \"switches\": %llu, \"switches_voluntary\": %llu, "
		   "\"switches_involuntary\": %llu}%s\n",
		side ? r->wake_lat_us[0] : lx->wl_lat_p50_us,
		side ? r->wake_lat_us[1] : lx->wl_lat_p90_us,
		side ? r->wake_lat_us[2] : lx->wl_lat_p99_us,
		side ? r->wake_lat_us[3] : lx->wl_lat_max_us,
		(unsigned long long)(side ? r->mig_wakeup + r->mig_other :
					    lx->wl_mig_wakeup + lx->wl_mig_other),
		(unsigned long long)(side ? r->mig_wakeup : lx->wl_mig_wakeup),
		(unsigned long long)(side ? r->mig_other : lx->wl_mig_other),
		/* switch-outs that block or preempt, as Linux's are counted (not switch-ins) */
		(unsigned long long)(side ? r->vol_switches + r->invol_switches :
					    lx->wl_csw_vol + lx->wl_csw_invol),
		(unsigned long long)(side ? r->vol_switches : lx->wl_csw_vol),
		(unsigned long long)(side ? r->invol_switches : lx->wl_csw_invol),
		side ? "" : ",");
}

static int write_json(const struct cli_args *a, const char *trace_path, const struct trace *tr,
		      const struct trace_linux *lx, const struct machine_result *r)
{
	struct hws_out out;
	char err[400];
	FILE *f;

	fflush(stdout);
	if (hws_out_open(&out, a->json, 0, err, sizeof(err)))
		return cli_fail(a, "%s", err);
	f = out.f;
	fputs("{\n  \"trace\": ", f);
	hws_json_str(f, trace_path);
	fputs(", \"sched\": ", f);
	hws_json_str(f, a->mo.sched);
	fputs(", \"topology\": ", f);
	hws_json_str(f, a->mo.topology);
	fputs(",\n", f);
	json_side(f, 0, tr, lx, r);
	json_side(f, 1, tr, lx, r);
	fprintf(f, "}\n");
	return hws_out_commit(&out, err, sizeof(err)) ? cli_fail(a, "%s", err) : 0;
}

/* Replay @tr and print (and write) the comparison: the exit status. */
static int replay(struct cli_args *a, const char *path, struct trace *tr)
{
	struct machine_result r;
	struct trace_linux lx;
	char err[400], topo[64];
	int ret = 0;

	trace_linux_metrics(tr, &lx);
	if (!a->topology_given) {	/* the default: as the trace */
		snprintf(topo, sizeof(topo), "core=%u", tr->nr_cpus ? tr->nr_cpus : 1);
		a->mo.topology = topo;
	}
	a->mo.trace = tr;
	a->mo.workload = path;
	/* A replay ends when its tasks exit; stop a stuck one at 3x the trace's length. */
	a->mo.duration_ns = (uint64_t)(3 * (tr->end_ns - tr->start_ns)) + 1000000000ull;
	ret = machine_run(&a->mo, &r, NULL, err, sizeof(err));
	if (ret)	/* -EINVAL: the trace or the options refused (bad input) */
		return (ret == -EINVAL ? cli_error : cli_fail)(a, "%s", err);
	printf("trace: %s: %zu tasks, %u CPUs, %llu lines (%llu skipped", path, tr->nr_tasks,
	       tr->nr_cpus, (unsigned long long)tr->lines, (unsigned long long)tr->skipped);
	if (tr->warnings)
		printf(", %llu warnings", (unsigned long long)tr->warnings);
	printf(")\n");
	if (r.nr_cpus != tr->nr_cpus)
		printf("topology %s: %u CPUs replay the trace's %u; busy %% is compared CPU by "
		       "CPU where both have it\n", a->mo.topology, r.nr_cpus, tr->nr_cpus);
	machine_print(&a->mo, &r, stdout);
	print_beside(tr, &lx, &r);
	if (a->json)
		ret = write_json(a, path, tr, &lx, &r);
	machine_result_free(&r);
	return ret;
}

/* --lenient: the reader's warnings, the first few of them; the count follows. */
#define SHOWN_WARNINGS 10

struct warned {
	const struct cli_args *a;
	unsigned long long n;
};

static void show_warning(void *arg, const char *msg)
{
	struct warned *w = arg;

	if (w->n++ < SHOWN_WARNINGS)
		fprintf(stderr, "%s %s: warning: %s\n", cli_prog, w->a->cmd_name, msg);
}

int cli_replay(int argc, char **argv)
{
	struct warned warned = { NULL, 0 };
	struct cli_args a;
	struct trace *tr = NULL;
	char err[400];
	int ret, first;

	ret = cli_parse(&a, CLI_REPLAY, argc, argv, &first);
	if (ret >= 0)
		goto out;
	if (first != argc - 1) {
		ret = cli_error(&a, "expected one TRACE file (try --help)");
		goto out;
	}
	warned.a = &a;
	a.to.warn = show_warning;
	a.to.warn_arg = &warned;
	ret = trace_load(argv[first], &a.to, &tr, err, sizeof(err));
	if (warned.n > SHOWN_WARNINGS)
		fprintf(stderr, "%s %s: warning: %llu more warnings (%llu in all)\n", cli_prog,
			a.cmd_name, warned.n - SHOWN_WARNINGS, warned.n);
	if (ret) {	/* a trace that breaks the rules, or cannot be opened: bad input */
		ret = (ret == -ENOMEM || ret == -EIO ? cli_fail : cli_error)(&a, "%s", err);
		goto out;
	}
	ret = replay(&a, argv[first], tr);
	trace_free(tr);
out:
	cli_args_free(&a);
	return ret;
}
