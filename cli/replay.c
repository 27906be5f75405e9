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
	for (unsigned k = 0; k < tr->nr_cpus; k++)
		fprintf(f, "%s%.2f", k ? ", " : "",
			side ? (k < r->nr_cpus ? r->busy_pct[k] : 0) : lx->busy_pct[k]);
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
	FILE *f = fopen(a->json, "w");

	if (!f)
		return cli_fail(a, "cannot write %s: %s", a->json, strerror(errno));
	fprintf(f, "{\n  \"trace\": \"%s\", \"sched\": \"%s\", \"topology\": \"%s\",\n", trace_path,
		a->mo.sched, a->mo.topology);
	json_side(f, 0, tr, lx, r);
	json_side(f, 1, tr, lx, r);
	fprintf(f, "}\n");
	return fclose(f) ? 1 : 0;
}

/* Replay @tr and print (and write) the comparison: the exit status. */
static int replay(struct cli_args *a, const char *path, struct trace *tr)
{
	struct machine_result r;
	struct trace_linux lx;
	char err[400], topo[64];
	int ret = 0;

	trace_linux_metrics(tr, &lx);
	if (!strcmp(a->mo.topology, "pkg=1,core=4,smt=1")) {	/* the default: as the trace */
		snprintf(topo, sizeof(topo), "core=%u", tr->nr_cpus ? tr->nr_cpus : 1);
		a->mo.topology = topo;
	}
	a->mo.trace = tr;
	a->mo.workload = path;
	/* A replay ends when its tasks exit; stop a stuck one at 3x the trace's length. */
	a->mo.duration_ns = (uint64_t)(3 * (tr->end_ns - tr->start_ns)) + 1000000000ull;
	if (machine_run(&a->mo, &r, NULL, err, sizeof(err)))
		return cli_fail(a, "%s", err);
	printf("trace: %s: %zu tasks, %u CPUs, %llu lines (%llu skipped)\n", path, tr->nr_tasks,
	       tr->nr_cpus, (unsigned long long)tr->lines, (unsigned long long)tr->skipped);
	machine_print(&a->mo, &r, stdout);
	print_beside(tr, &lx, &r);
	if (a->json)
		ret = write_json(a, path, tr, &lx, &r);
	machine_result_free(&r);
	return ret;
}

int cli_replay(int argc, char **argv)
{
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
	if (trace_load(argv[first], &a.to, &tr, err, sizeof(err))) {
		ret = cli_fail(&a, "%s", err);
		goto out;
	}
	ret = replay(&a, argv[first], tr);
	trace_free(tr);
out:
	cli_args_free(&a);
	return ret;
}
