/*
 * replay.c - hwsched replay: a perf sched trace rebuilt into tasks (sim/trace/), replayed
 * on the simulated machine, and printed beside what Linux did on the same trace.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <string.h>

#include "cli/cli.h"

/* The replay's error against Linux's figure in %, into @buf ("n/a" when Linux's is 0). */
static const char *pct_text(double ours, double theirs, const char *fmt, char *buf, size_t len)
{
	if (theirs == 0)
		snprintf(buf, len, "%s", ours == 0 ? "0" : "n/a");
	else
		snprintf(buf, len, fmt, 100.0 * (ours - theirs) / theirs);
	return buf;
}

/* The CPU time the replayed tasks ran, ms. */
static double cpu_ms_of(const struct machine_result *r)
{
	double ms = 0;

	for (unsigned i = 0; i < r->ntasks; i++)
		if (!r->tasks[i].bg)
			ms += r->tasks[i].runtime_ms;
	return ms;
}

/* The wake path rows of Linux (@side 0) or the replay (1): counts and medians. */
struct path_rows {
	uint64_t n[TRACE_PATH_NR + 2];
	double p50[TRACE_PATH_NR + 2];
};

static const char *path_row_name(unsigned k)
{
	return k < TRACE_PATH_NR ? trace_wake_path_name((enum trace_wake_path)k) :
	       k == TRACE_PATH_NR ? "idle_remote_short" : "idle_remote_deep";
}

static void path_rows(int side, const struct trace_linux *lx, const struct machine_result *r,
		      struct path_rows *o)
{
	for (unsigned k = 0; k < TRACE_PATH_NR; k++) {
		o->n[k] = side ? r->path_n[k] : lx->path_n[k];
		o->p50[k] = side ? r->path_p50_us[k] : lx->path_p50_us[k];
	}
	o->n[TRACE_PATH_NR] = side ? r->idle_short_n : lx->idle_short_n;
	o->p50[TRACE_PATH_NR] = side ? r->idle_short_p50_us : lx->idle_short_p50_us;
	o->n[TRACE_PATH_NR + 1] = side ? r->idle_deep_n : lx->idle_deep_n;
	o->p50[TRACE_PATH_NR + 1] = side ? r->idle_deep_p50_us : lx->idle_deep_p50_us;
}

/*
 * The fidelity goals of a replay against Linux (docs/trace.md, "Fidelity goals"): each
 * figure's tolerance. G_PCT: within tol % of Linux's; G_MIG: the same, or within 10 when
 * both counts are below 10.
 */
enum goal { G_NONE, G_PCT, G_MIG };

struct row {
	const char *key, *label;	/* the JSON key; the table's label */
	double l, r;			/* Linux's, the replay's */
	enum goal g;
	double tol;			/* % */
	int prec;			/* decimals shown */
};

#define MAX_ROWS (12 + SCHED_MAX_CPUS)

static int row_pass(const struct row *w)
{
	double d = w->r - w->l;

	if (d < 0)
		d = -d;
	if (w->g == G_MIG && w->l < 10 && w->r < 10)
		return d <= 10;
	return w->l != 0 ? d <= w->tol / 100.0 * w->l : w->r == 0;
}

/* The figures of Linux and the replay, in the table's order: the number of rows. */
static size_t rows_of(const struct trace *tr, const struct trace_linux *lx,
		      const struct machine_result *r, struct row *o)
{
	static char busy[SCHED_MAX_CPUS][24];
	size_t n = 0;

	o[n++] = (struct row){ "makespan_ms", "makespan ms", lx->makespan_ms, r->makespan_s * 1e3,
			       G_PCT, 5, 3 };
	o[n++] = (struct row){ "cpu_time_ms", "CPU time ms", lx->cpu_time_ms, cpu_ms_of(r),
			       G_PCT, 5, 3 };
	for (unsigned k = 0; k < tr->nr_cpus && k < r->nr_cpus && k < SCHED_MAX_CPUS; k++) {
		snprintf(busy[k], sizeof(busy[k]), "busy %% CPU%u", k);
		o[n++] = (struct row){ NULL, busy[k], lx->busy_pct[k], r->busy_pct[k], G_NONE, 0, 1 };
	}
	o[n++] = (struct row){ "p50", "wakeup latency p50", lx->wl_lat_p50_us, r->wake_lat_us[0],
			       G_PCT, 25, 1 };
	o[n++] = (struct row){ "p90", "wakeup latency p90", lx->wl_lat_p90_us, r->wake_lat_us[1],
			       G_PCT, 25, 1 };
	o[n++] = (struct row){ NULL, "wakeup latency p99", lx->wl_lat_p99_us, r->wake_lat_us[2],
			       G_NONE, 0, 1 };
	o[n++] = (struct row){ NULL, "wakeup latency max", lx->wl_lat_max_us, r->wake_lat_us[3],
			       G_NONE, 0, 1 };
	/* the replay's migrations are counted at the move, as Linux's are */
	o[n++] = (struct row){ NULL, "migrations", (double)(lx->wl_mig_wakeup + lx->wl_mig_other),
			       (double)(r->mig_wakeup + r->mig_other), G_NONE, 0, 0 };
	o[n++] = (struct row){ "migrations_wakeup", "migrations at wakeup",
			       (double)lx->wl_mig_wakeup, (double)r->mig_wakeup, G_MIG, 15, 0 };
	o[n++] = (struct row){ "migrations_other", "migrations other", (double)lx->wl_mig_other,
			       (double)r->mig_other, G_MIG, 15, 0 };
	o[n++] = (struct row){ "switches_voluntary", "switches voluntary", (double)lx->wl_csw_vol,
			       (double)r->vol_switches, G_PCT, 10, 0 };
	o[n++] = (struct row){ "switches_involuntary", "switches involuntary",
			       (double)lx->wl_csw_invol, (double)r->invol_switches, G_PCT, 10, 0 };
	return n;
}

/* The table of Linux's figures beside the replay's, with each goal's verdict. */
static void print_beside(FILE *out, const struct trace *tr, const struct trace_linux *lx,
			 const struct machine_result *r)
{
	struct row w[MAX_ROWS];
	size_t n = rows_of(tr, lx, r, w), pass = 0, goals = 0;

	fprintf(out, "\n%-26s %12s %12s %8s %6s %s\n", "", "linux", "replay", "diff", "goal", "verdict");
	for (size_t i = 0; i < n; i++) {
		char goal[16] = "";

		if (w[i].g == G_MIG)
			snprintf(goal, sizeof(goal), "%.0f%%/10", w[i].tol);
		else if (w[i].g == G_PCT)
			snprintf(goal, sizeof(goal), "%.0f%%", w[i].tol);
		char e[24];

		fprintf(out, "%-26s %12.*f %12.*f %8s %6s %s\n", w[i].label, w[i].prec, w[i].l,
		       w[i].prec, w[i].r, pct_text(w[i].r, w[i].l, "%.1f%%", e, sizeof(e)), goal,
		       w[i].g == G_NONE ? "" : row_pass(&w[i]) ? "ok" : "MISS");
		goals += w[i].g != G_NONE;
		pass += w[i].g != G_NONE && row_pass(&w[i]);
	}
	fprintf(out, "(latency in us; the Linux column counts the workload's tasks only, as the replay "
	       "does; %zu of %zu goals met:\ndocs/trace.md, \"Fidelity goals\")\n", pass, goals);
	{
		struct path_rows pl, pr;

		path_rows(0, lx, r, &pl);
		path_rows(1, lx, r, &pr);
		fprintf(out, "\n%-26s %12s %12s %12s %12s\n", "wake path", "linux n", "replay n",
		       "linux p50", "replay p50");
		for (unsigned k = 1; k < TRACE_PATH_NR + 2; k++)
			fprintf(out, "%-26s %12llu %12llu %12.1f %12.1f\n", path_row_name(k),
			       (unsigned long long)pl.n[k], (unsigned long long)pr.n[k], pl.p50[k],
			       pr.p50[k]);
		fprintf(out, "(how the CPU took each woken task: docs/trace.md, \"Wake paths\"; "
		       "unknown in Linux: %llu)\n", (unsigned long long)pl.n[0]);
	}
}

/* The goals' verdicts as JSON: one figure a line (tools/replay_check.sh reads them). */
static void json_check(FILE *f, const struct trace *tr, const struct trace_linux *lx,
		       const struct machine_result *r)
{
	struct row w[MAX_ROWS];
	size_t n = rows_of(tr, lx, r, w), pass = 0, goals = 0;
	const char *sep = "";

	fputs("  \"check\": [\n", f);
	for (size_t i = 0; i < n; i++) {
		if (w[i].g == G_NONE)
			continue;
		char e[24];

		fprintf(f, "%s    {\"figure\": \"%s\", \"linux\": %.3f, \"replay\": %.3f, "
			   "\"error_pct\": %s, \"tolerance_pct\": %.0f, \"abs_below_10\": %s, "
			   "\"pass\": %s}", sep, w[i].key, w[i].l, w[i].r,
			strcmp(pct_text(w[i].r, w[i].l, "%.1f", e, sizeof(e)), "n/a") ? e : "null",
			w[i].tol, w[i].g == G_MIG ? "true" : "false",
			row_pass(&w[i]) ? "true" : "false");
		sep = ",\n";
		goals++;
		pass += row_pass(&w[i]);
	}
	fprintf(f, "\n  ],\n  \"check_pass\": %zu, \"check_total\": %zu,\n", pass, goals);
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
		   "\"switches_involuntary\": %llu,\n    \"wake_path\": {",
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
		(unsigned long long)(side ? r->invol_switches : lx->wl_csw_invol));
	{
		struct path_rows pr;

		path_rows(side, lx, r, &pr);
		for (unsigned k = 1; k < TRACE_PATH_NR + 2; k++)
			fprintf(f, "%s\"%s\": {\"n\": %llu, \"p50_us\": %.1f}", k > 1 ? ", " : "",
				path_row_name(k), (unsigned long long)pr.n[k], pr.p50[k]);
	}
	fprintf(f, "}%s%s\n", side ? ", \"held_wakes\": " : "}", side ? "" : ",");
	if (side)
		fprintf(f, "%llu}\n", (unsigned long long)r->held_wakes);
}

static int write_json(const struct cli_args *a, const char *trace_path, const char *role,
		      const struct trace *tr, const struct trace_linux *lx,
		      const struct machine_result *r)
{
	struct hws_out out;
	char err[400];
	int ret;
	FILE *f;

	f = cli_json_begin(a, &out, a->json, &ret);
	if (!f)
		return ret;
	fputs(",\n  \"trace\": ", f);
	hws_json_str(f, trace_path);
	fputs(", \"sched\": ", f);
	hws_json_str(f, a->mo.sched);
	fputs(", \"topology\": ", f);
	hws_json_str(f, a->mo.topology);
	fputs(", \"backend\": ", f);	/* the engine's, for a scheduler that has one */
	if (sched_find(a->mo.sched) && (sched_find(a->mo.sched)->uses & SCHED_USES_ENGINE))
		hws_json_str(f, a->mo.sched_opts.engine.backend);
	else
		fputs("null", f);
	fprintf(f, ", \"seed\": %llu", (unsigned long long)a->mo.seed);
	fprintf(f, ", \"hz\": %u, \"kernel\": ", a->mo.hz);
	if (a->mo.sched_opts.fair.kernel)	/* the EEVDF version replayed (--kernel) */
		fprintf(f, "\"%u.%u\"", a->mo.sched_opts.fair.kernel / 100,
			a->mo.sched_opts.fair.kernel % 100);
	else
		fputs("null", f);
	fputs(", \"role\": ", f);
	hws_json_str(f, role);
	fprintf(f, ",\n  \"reader\": {\"lines\": %llu, \"skipped\": %llu, \"warnings\": %llu, "
		   "\"anomalies\": %llu, \"absorbed\": %llu, \"absorbed_max_us\": %.3f},\n",
		(unsigned long long)tr->lines, (unsigned long long)tr->skipped,
		(unsigned long long)tr->warnings, (unsigned long long)tr->anomalies,
		(unsigned long long)tr->absorbed, (double)tr->absorbed_max_ns / 1e3);
	json_check(f, tr, lx, r);
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
	struct cli_sidecar sc;
	struct cli_progress pr;
	FILE *out = cli_report_file(a);
	char err[400], topo[64];
	int ret = 0;

	trace_linux_metrics(tr, &lx);
	fprintf(out, "trace: %s: %u workload tasks (%zu more as background), %u CPUs, %llu lines "
	       "(%llu skipped", path, lx.tasks, tr->nr_tasks - lx.tasks, tr->nr_cpus,
	       (unsigned long long)tr->lines, (unsigned long long)tr->skipped);
	if (tr->warnings)
		fprintf(out, ", %llu warnings", (unsigned long long)tr->warnings);
	/* steps back in time taken as the latest line's time: shown, never silent */
	fprintf(out, "; %llu anomalies, %llu absorbed", (unsigned long long)tr->anomalies,
	       (unsigned long long)tr->absorbed);
	if (tr->absorbed)
		fprintf(out, " (at most %.3f us back)", (double)tr->absorbed_max_ns / 1e3);
	fprintf(out, ")\n");
	if (!cli_sidecar_read(path, &sc)) {	/* the traced kernel, unless told otherwise */
		if (sc.hz && !a->hz_given)
			a->mo.hz = sc.hz;
		if (sc.kernel && !a->kernel_given && !strcmp(a->mo.sched, "eevdf"))
			a->mo.sched_opts.fair.kernel = sc.kernel;
		char hz[32] = "HZ not recorded", kv[48] = "kernel not recorded", as[48] = "";

		/* what the sidecar says, apart from what the replay then runs with */
		if (sc.hz)
			snprintf(hz, sizeof(hz), "HZ %u", sc.hz);
		if (sc.kernel)
			snprintf(kv, sizeof(kv), "kernel %u.%u", sc.kernel / 100, sc.kernel % 100);
		if (a->mo.sched_opts.fair.kernel)
			snprintf(as, sizeof(as), ", eevdf as Linux %u.%u",
				 a->mo.sched_opts.fair.kernel / 100, a->mo.sched_opts.fair.kernel % 100);
		fprintf(out, "sidecar %s: %s, %s (replayed at HZ %u%s)%s%s\n", sc.path, hz, kv,
			a->mo.hz, as, sc.role[0] ? "; " : "", sc.role);
	}
	if (!a->topology_given) {	/* the default: as the trace */
		snprintf(topo, sizeof(topo), "core=%u", tr->nr_cpus ? tr->nr_cpus : 1);
		a->mo.topology = topo;
	}
	a->mo.trace = tr;
	a->mo.workload = path;
	/* A replay ends when its tasks exit; stop a stuck one at 3x the trace's length. */
	a->mo.duration_ns = (uint64_t)(3 * (tr->end_ns - tr->start_ns)) + 1000000000ull;
	/* the progress: simulated time against the trace's length */
	cli_progress_sim(&pr, a, "sim s", tr->end_ns - tr->start_ns);
	ret = machine_run(&a->mo, &r, out, err, sizeof(err));
	cli_progress_end(&pr);
	if (ret)	/* -EINVAL: the trace or the options refused (bad input) */
		return (ret == -EINVAL ? cli_error : cli_fail)(a, "%s", err);
	if (r.nr_cpus != tr->nr_cpus)
		fprintf(out, "topology %s: %u CPUs replay the trace's %u; busy %% is compared CPU by "
		       "CPU where both have it\n", a->mo.topology, r.nr_cpus, tr->nr_cpus);
	machine_print(&a->mo, &r, out);
	if (r.interrupted) {	/* the partial summary; no JSON (docs/json.md) */
		fprintf(out, "replay: interrupted at %.3f s simulated, %llu events (partial "
			"figures above)\n", r.sim_ns / 1e9, (unsigned long long)r.events);
		fflush(out);
		if (a->json)
			fprintf(stderr, "%s %s: --json %s not written: interrupted\n", cli_prog,
				a->cmd_name, a->json_dash ? "-" : a->json);
		machine_result_free(&r);
		return CLI_EXIT_INTERRUPTED;
	}
	print_beside(out, tr, &lx, &r);
	if (a->json)
		ret = write_json(a, path, sc.role, tr, &lx, &r);
	machine_result_free(&r);
	return ret;
}

int cli_replay(int argc, char **argv)
{
	struct cli_args a;
	struct trace *tr = NULL;
	int ret, first;

	ret = cli_parse(&a, CLI_REPLAY, argc, argv, &first);
	if (ret >= 0)
		goto out;
	if (first != argc - 1) {
		ret = cli_error(&a, "expected one TRACE file (try --help)");
		goto out;
	}
	/* an output that is the trace would replace it: refused before anything runs */
	ret = cli_check_not_input(&a, argv[first]);
	if (ret || (ret = cli_trace_load(&a, argv[first], &tr)))
		goto out;
	ret = replay(&a, argv[first], tr);
	trace_free(tr);
out:
	cli_args_free(&a);
	return ret;
}
