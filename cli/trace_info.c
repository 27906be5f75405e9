/*
 * trace_info.c - hwsched trace-info: what the trace reader (sim/trace/) makes of a perf
 * sched trace, and what Linux did on it, without a replay: the reader's counts (lines,
 * skipped, warnings, anomalies by kind, absorbed timestamp steps), CPUs and tasks, and
 * every figure of trace_linux_metrics(), system-wide and for the workload's tasks only
 * (the wl_ figures). Text on stdout; --json FILE writes the same as JSON (--json -: the
 * JSON alone on stdout), the "linux" member of a trace's sidecar (traces/README.md,
 * tools/record_trace.sh). Also the loading of a trace that replay shares.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <string.h>

#include "cli/cli.h"

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

/* The tasks of the workload the filters kept (the others are background). */
static size_t nr_kept(const struct trace *tr)
{
	size_t i, n = 0;

	for (i = 0; i < tr->nr_tasks; i++)
		n += !!tr->tasks[i].workload;
	return n;
}

int cli_trace_load(struct cli_args *a, const char *path, struct trace **tr)
{
	struct warned warned = { a, 0 };
	char err[400];
	int ret;

	a->to.warn = show_warning;
	a->to.warn_arg = &warned;
	ret = trace_load(path, &a->to, tr, err, sizeof(err));
	a->to.warn = NULL;
	a->to.warn_arg = NULL;
	if (warned.n > SHOWN_WARNINGS)
		fprintf(stderr, "%s %s: warning: %llu more warnings (%llu in all)\n", cli_prog,
			a->cmd_name, warned.n - SHOWN_WARNINGS, warned.n);
	if (!ret && !nr_kept(*tr) && (a->to.comm || a->to.pid > 0 || a->to.tree_of > 0)) {
		char f[160] = "";
		size_t n = 0;

		/* a filter that keeps nothing: name it, not an empty report */
		if (a->to.comm)
			n += (size_t)snprintf(f + n, sizeof(f) - n, "--comm %s", a->to.comm);
		if (a->to.pid > 0 && n < sizeof(f))
			n += (size_t)snprintf(f + n, sizeof(f) - n, "%s--pid %d", n ? " " : "",
					      a->to.pid);
		if (a->to.tree_of > 0 && n < sizeof(f))
			snprintf(f + n, sizeof(f) - n, "%s--tree-of %d", n ? " " : "", a->to.tree_of);
		ret = cli_error(a, "%s: %s keeps none of its tasks: nothing to %s", path, f,
				a->cmd == CLI_REPLAY ? "replay" : "report");
		trace_free(*tr);
		*tr = NULL;
		return ret;
	}
	if (!ret)
		return 0;
	/* a trace that breaks the rules, or cannot be opened: bad input */
	return (ret == -ENOMEM || ret == -EIO ? cli_fail : cli_error)(a, "%s", err);
}

/* Which tasks were kept, in words and as JSON. */
static void filter_text(const struct cli_args *a, const struct trace *tr, char *buf, size_t len)
{
	const struct trace_opts *o = &a->to;
	size_t n = 0;

	if (!o->comm && o->pid <= 0 && o->tree_of <= 0) {
		snprintf(buf, len, "the workload (root pid %d)", tr->root_pid);
		return;
	}
	buf[0] = '\0';
	if (o->comm)
		n += (size_t)snprintf(buf + n, len - n, "comm %s", o->comm);
	if (o->pid > 0 && n < len)
		n += (size_t)snprintf(buf + n, len - n, "%spid %d", n ? ", " : "", o->pid);
	if (o->tree_of > 0 && n < len)
		snprintf(buf + n, len - n, "%stree of %d", n ? ", " : "", o->tree_of);
}

static void json_filter(FILE *f, const struct cli_args *a)
{
	const struct trace_opts *o = &a->to;
	const char *sep = "";

	if (!o->comm && o->pid <= 0 && o->tree_of <= 0) {
		fputs("\"workload\"", f);
		return;
	}
	fputc('{', f);
	if (o->comm) {
		fputs("\"comm\": ", f);
		hws_json_str(f, o->comm);
		sep = ", ";
	}
	if (o->pid > 0) {
		fprintf(f, "%s\"pid\": %d", sep, o->pid);
		sep = ", ";
	}
	if (o->tree_of > 0)
		fprintf(f, "%s\"tree_of\": %d", sep, o->tree_of);
	fputc('}', f);
}

static void json_latency(FILE *f, const char *key, size_t n, double p50, double p90, double p99,
			 double max)
{
	fprintf(f, "  \"%s\": {\"n\": %zu, \"p50\": %.3f, \"p90\": %.3f, \"p99\": %.3f, "
		   "\"max\": %.3f}", key, n, p50, p90, p99, max);
}

/*
 * The JSON of trace-info: one key a line, the same bytes for the same trace and options
 * (the sidecar test compares them).
 */
static void write_json_to(FILE *f, const struct cli_args *a, const struct trace *tr,
			  const struct trace_linux *m)
{
	const char *sep = "";
	unsigned k;

	/* one line, the first: tools/record_trace.sh leaves it out of a sidecar */
	fputs("{\n  ", f);
	hws_json_provenance(f);
	fputs(",\n  \"tasks_kept\": ", f);
	json_filter(f, a);
	fprintf(f, ",\n  \"lenient\": %s,\n", a->to.lenient ? "true" : "false");
	fprintf(f, "  \"lines\": %llu,\n  \"skipped\": %llu,\n  \"warnings\": %llu,\n",
		(unsigned long long)tr->lines, (unsigned long long)tr->skipped,
		(unsigned long long)tr->warnings);
	fprintf(f, "  \"anomalies\": %llu,\n  \"anomaly\": {", (unsigned long long)tr->anomalies);
	for (k = 0; k < TRACE_ANOM_NR; k++) {
		if (!tr->anomaly[k])
			continue;
		fprintf(f, "%s\"%s\": {\"n\": %llu, \"first_line\": %llu}", sep,
			trace_anomaly_name(k), (unsigned long long)tr->anomaly[k],
			(unsigned long long)tr->anomaly_line[k]);
		sep = ", ";
	}
	fprintf(f, "},\n  \"absorbed\": {\"n\": %llu, \"max_us\": %.3f, \"first_line\": %llu},\n",
		(unsigned long long)tr->absorbed, (double)tr->absorbed_max_ns / 1e3,
		(unsigned long long)tr->absorbed_line);
	fprintf(f, "  \"cpus\": %u,\n  \"root_pid\": %d,\n  \"tasks\": %u,\n  \"forks\": %u,\n"
		   "  \"exits\": %u,\n", m->nr_cpus, tr->root_pid, m->tasks, m->forks, m->exits);
	fprintf(f, "  \"duration_ms\": %.3f,\n  \"makespan_ms\": %.3f,\n  \"cpu_time_ms\": %.3f,\n"
		   "  \"busy_pct\": [", m->duration_ms, m->makespan_ms, m->cpu_time_ms);
	for (k = 0; k < m->nr_cpus && k < TRACE_MAX_CPUS; k++)
		fprintf(f, "%s%.2f", k ? ", " : "", m->busy_pct[k]);
	fprintf(f, "],\n  \"switches_voluntary\": %llu,\n  \"switches_involuntary\": %llu,\n"
		   "  \"migrations_wakeup\": %llu,\n  \"migrations_other\": %llu,\n",
		(unsigned long long)m->csw_vol, (unsigned long long)m->csw_invol,
		(unsigned long long)m->mig_wakeup, (unsigned long long)m->mig_other);
	json_latency(f, "wakeup_latency_us", m->lat_n, m->lat_p50_us, m->lat_p90_us,
		     m->lat_p99_us, m->lat_max_us);
	fprintf(f, ",\n  \"wl_switches_voluntary\": %llu,\n  \"wl_switches_involuntary\": %llu,\n"
		   "  \"wl_migrations_wakeup\": %llu,\n  \"wl_migrations_other\": %llu,\n",
		(unsigned long long)m->wl_csw_vol, (unsigned long long)m->wl_csw_invol,
		(unsigned long long)m->wl_mig_wakeup, (unsigned long long)m->wl_mig_other);
	json_latency(f, "wl_wakeup_latency_us", m->wl_lat_n, m->wl_lat_p50_us, m->wl_lat_p90_us,
		     m->wl_lat_p99_us, m->wl_lat_max_us);
	fprintf(f, ",\n  \"wakings_with_stack\": %llu,\n  \"wl_wake_path\": {",
		(unsigned long long)tr->wakings_with_stack);
	for (k = 0; k < TRACE_PATH_NR; k++)
		fprintf(f, "%s\"%s\": {\"n\": %zu, \"p50_us\": %.3f}", k ? ", " : "",
			trace_wake_path_name(k), m->path_n[k], m->path_p50_us[k]);
	fprintf(f, "},\n  \"wl_idle_remote\": {\"short\": {\"n\": %zu, \"p50_us\": %.3f}, "
		   "\"deep\": {\"n\": %zu, \"p50_us\": %.3f}, \"deep_from_us\": %.0f}",
		m->idle_short_n, m->idle_short_p50_us, m->idle_deep_n, m->idle_deep_p50_us,
		TRACE_IDLE_DEEP_NS / 1e3);
	fputs("\n}\n", f);
}

static void print_text(const struct cli_args *a, const char *path, const struct trace *tr,
		       const struct trace_linux *m)
{
	char kept[160];
	unsigned k;
	int any = 0;

	filter_text(a, tr, kept, sizeof(kept));
	printf("trace: %s\n", path);
	printf("read: %llu lines, %llu skipped, %llu warnings%s\n", (unsigned long long)tr->lines,
	       (unsigned long long)tr->skipped, (unsigned long long)tr->warnings,
	       a->to.lenient ? " (--lenient)" : "");
	printf("anomalies: %llu", (unsigned long long)tr->anomalies);
	for (k = 0; k < TRACE_ANOM_NR; k++)
		if (tr->anomaly[k]) {
			printf("%s%s %llu (first at line %llu)", any++ ? ", " : ": ",
			       trace_anomaly_name(k), (unsigned long long)tr->anomaly[k],
			       (unsigned long long)tr->anomaly_line[k]);
		}
	printf("\nabsorbed: %llu lines stamped before another CPU's latest line",
	       (unsigned long long)tr->absorbed);
	if (tr->absorbed)
		printf(" (at most %.3f us back; first at line %llu)",
		       (double)tr->absorbed_max_ns / 1e3, (unsigned long long)tr->absorbed_line);
	printf("\nCPUs: %u; tasks kept: %u, %s; forks %u, exits %u\n", m->nr_cpus, m->tasks, kept,
	       m->forks, m->exits);
	printf("duration %.3f ms, makespan %.3f ms, CPU time %.3f ms\n", m->duration_ms,
	       m->makespan_ms, m->cpu_time_ms);
	printf("busy %%:");
	for (k = 0; k < m->nr_cpus && k < TRACE_MAX_CPUS; k++)
		printf(" CPU%u %.2f", k, m->busy_pct[k]);
	printf("\n\n%-26s %12s %12s\n", "", "system-wide", "kept tasks");
	printf("%-26s %12llu %12llu\n", "switches voluntary", (unsigned long long)m->csw_vol,
	       (unsigned long long)m->wl_csw_vol);
	printf("%-26s %12llu %12llu\n", "switches involuntary", (unsigned long long)m->csw_invol,
	       (unsigned long long)m->wl_csw_invol);
	printf("%-26s %12llu %12llu\n", "migrations at wakeup", (unsigned long long)m->mig_wakeup,
	       (unsigned long long)m->wl_mig_wakeup);
	printf("%-26s %12llu %12llu\n", "migrations other", (unsigned long long)m->mig_other,
	       (unsigned long long)m->wl_mig_other);
	printf("%-26s %12zu %12zu\n", "wakeups", m->lat_n, m->wl_lat_n);
	printf("%-26s %12.1f %12.1f\n", "wakeup latency p50 us", m->lat_p50_us, m->wl_lat_p50_us);
	printf("%-26s %12.1f %12.1f\n", "wakeup latency p90 us", m->lat_p90_us, m->wl_lat_p90_us);
	printf("%-26s %12.1f %12.1f\n", "wakeup latency p99 us", m->lat_p99_us, m->wl_lat_p99_us);
	printf("%-26s %12.1f %12.1f\n", "wakeup latency max us", m->lat_max_us, m->wl_lat_max_us);
	printf("(system-wide: every task but idle, wakeups of sleeps and forks but perf's; kept "
	       "tasks: their\nsleeps only. docs/trace.md, \"What Linux did\")\n");
	printf("\nwake path of the kept tasks' sleeps (%llu wakings with a call chain):\n",
	       (unsigned long long)tr->wakings_with_stack);
	printf("%-26s %12s %12s\n", "", "wakeups", "p50 us");
	for (k = 0; k < TRACE_PATH_NR; k++)
		printf("%-26s %12zu %12.1f\n", trace_wake_path_name(k), m->path_n[k],
		       m->path_p50_us[k]);
	printf("%-26s %12zu %12.1f\n", "  idle_remote < 100 us", m->idle_short_n,
	       m->idle_short_p50_us);
	printf("%-26s %12zu %12.1f\n", "  idle_remote >= 100 us", m->idle_deep_n,
	       m->idle_deep_p50_us);
}

int cli_trace_info(int argc, char **argv)
{
	struct cli_args a;
	struct trace *tr = NULL;
	struct trace_linux m;
	int ret, first, to_stdout;

	ret = cli_parse(&a, CLI_TRACE_INFO, argc, argv, &first);
	if (ret >= 0)
		goto out;
	if (first != argc - 1) {
		ret = cli_error(&a, "expected one TRACE file (try --help)");
		goto out;
	}
	ret = cli_check_not_input(&a, argv[first]);
	if (ret)
		goto out;
	ret = cli_trace_load(&a, argv[first], &tr);
	if (ret)
		goto out;
	if (trace_linux_metrics(tr, &m)) {
		ret = cli_fail(&a, "out of memory");
		goto out;
	}
	to_stdout = a.json && !strcmp(a.json, "/dev/stdout") && a.json_dash;
	if (!to_stdout)
		print_text(&a, argv[first], tr, &m);
	if (a.json) {
		struct hws_out o;
		char err[400];

		fflush(stdout);
		if (hws_out_open(&o, a.json, 0, err, sizeof(err))) {
			ret = cli_fail(&a, "%s", err);
			goto out;
		}
		write_json_to(o.f, &a, tr, &m);
		if (hws_out_commit(&o, err, sizeof(err)))
			ret = cli_fail(&a, "%s", err);
	}
out:
	trace_free(tr);
	cli_args_free(&a);
	return ret;
}
