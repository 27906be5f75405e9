/*
 * report.c - a run's report: the text of hwsched run and the JSON of --json.
 */
#include "sim/machine/machine_int.h"
#include "lib/hws_version.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void machine_result_free(struct machine_result *r)
{
	free(r->tasks);
	r->tasks = NULL;
	r->ntasks = 0;
}

static int by_max_delay(const void *a, const void *b)
{
	const struct machine_task_stat *x = a, *y = b;

	if (x->delay_max_us != y->delay_max_us)
		return x->delay_max_us < y->delay_max_us ? 1 : -1;
	return x->id < y->id ? -1 : x->id > y->id;
}

void machine_print(const struct machine_opts *o, const struct machine_result *r, FILE *f)
{
	unsigned c;

	const struct sched_ops *ops = o->ops ? o->ops : sched_find(o->sched);
	int engine = ops && (ops->uses & SCHED_USES_ENGINE);

	fprintf(f, "run: workload %s, topology %s (%u CPUs), scheduler %s%s%s, seed %llu\n",
		o->workload, o->topology, r->nr_cpus, o->sched, engine ? ", backend " : "",
		engine ? r->backend : "", (unsigned long long)o->seed);
	fprintf(f, "simulated: %.6f s, %llu events%s\n", r->sim_ns / 1e9,
		(unsigned long long)r->events, r->makespan_s > 0 ? ", every task exited" : "");
	if (r->makespan_s > 0)
		fprintf(f, "makespan: %.6f s\n", r->makespan_s);
	fprintf(f, "throughput: %.1f %s (%.0f units)\n", r->throughput, r->unit, r->work_units);
	fprintf(f, "wakeup latency (us): p50 %.1f  p90 %.1f  p99 %.1f  max %.1f  (%llu wakeups)\n",
		r->wake_lat_us[0], r->wake_lat_us[1], r->wake_lat_us[2], r->wake_lat_us[3],
		(unsigned long long)r->wakeups);
	fprintf(f, "run-queue wait: %.3f ms in total\n", r->rq_wait_ms);
	fprintf(f, "context switches: %llu (%llu voluntary, %llu involuntary), migrations: %llu "
		   "(%llu at wakeup, %llu other)\n",
		(unsigned long long)r->switches, (unsigned long long)r->vol_switches,
		(unsigned long long)r->invol_switches, (unsigned long long)r->migrations,
		(unsigned long long)r->mig_wakeup, (unsigned long long)r->mig_other);
	if (r->held_wakes)
		fprintf(f, "causal replay: %llu wakes came before their sleep and were held there\n",
			(unsigned long long)r->held_wakes);
	fprintf(f, "busy %%:");
	for (c = 0; c < r->nr_cpus; c++)
		fprintf(f, " %.1f", r->busy_pct[c]);
	fprintf(f, "\n");
	if (r->nr_groups > 1) {
		fprintf(f, "group CPU share (entitled):");
		for (c = 0; c < r->nr_groups; c++)
			fprintf(f, " g%u %.1f%% (%.1f%%)", c, 100 * r->group_share[c],
				100 * r->group_entitled[c]);
		fprintf(f, "\n");
	}
	fprintf(f, "idle-core violations: %llu idle-CPU ticks with a task waiting elsewhere\n",
		(unsigned long long)r->idle_core_violations);
	if (r->has_smt)
		fprintf(f, "SMT sharing: %.3f ms (%.2f%% of the run) with a core's threads all busy "
			   "while another core of the package idled\n", r->smt_share_ms, r->smt_share_pct);
	fprintf(f, "scheduler overhead: %.3f %% of CPU time\n", r->sched_overhead_pct);
	if (r->engine_commands)
		fprintf(f, "engine: %llu commands, %llu MMIO accesses, %llu cycles\n",
			(unsigned long long)r->engine_commands, (unsigned long long)r->engine_mmio,
			(unsigned long long)r->engine_cycles);
	if (r->profile)
		fprintf(f, "coherence (profile %s): %llu line transfers, %.3f ms; %llu spin-lock "
			   "waits, %.3f ms before holding\n", r->profile,
			(unsigned long long)r->coh_transfers, r->coh_transfer_ns / 1e6,
			(unsigned long long)r->coh_lock_waits, r->coh_lock_ns / 1e6);
	if (r->coh_mem_fetches)
		fprintf(f, "coherence: %llu task lines fetched from memory after their cache "
			   "evicted them, %.3f ms\n", (unsigned long long)r->coh_mem_fetches,
			r->coh_mem_ns / 1e6);
	if (r->yields)
		fprintf(f, "sched_yield: %llu calls\n", (unsigned long long)r->yields);
	if (r->calib_point || r->work_scale != 1)
		fprintf(f, "calibration: CPU work x%.4g (%s)\n", r->work_scale,
			r->calib_point ? r->calib_point : "work=");
	if (r->cont_net)
		fprintf(f, "contention, loopback: %llu packets, %llu transmit-lock waits, %.3f ms "
			   "before holding; %llu messages read on another CPU, %.3f ms for their "
			   "lines\n", (unsigned long long)r->lo_packets,
			(unsigned long long)r->lo_waits, r->lo_wait_ns / 1e6,
			(unsigned long long)r->msg_remote, r->msg_ns / 1e6);
	if (r->cont_fs)
		fprintf(f, "contention, file system: %llu operations, %llu lock waits, %.3f ms "
			   "before holding\n", (unsigned long long)r->fs_ops,
			(unsigned long long)r->fs_waits, r->fs_wait_ns / 1e6);
	if (r->cont_numa)
		fprintf(f, "contention, remote memory: %llu bursts off their memory's node, "
			   "%.3f ms longer\n", (unsigned long long)r->numa_bursts, r->numa_ns / 1e6);
	fprintf(f, "checks: %llu conservation checks, 0 violations\n",
		(unsigned long long)r->conservation_checks);
	if (r->ntasks && o->top) {
		struct machine_task_stat *v = malloc(r->ntasks * sizeof(*v));
		unsigned n = r->ntasks < o->top ? r->ntasks : o->top;

		if (!v)
			return;
		unsigned nv = 0;

		for (c = 0; c < r->ntasks; c++)
			if (!r->tasks[c].bg)
				v[nv++] = r->tasks[c];	/* the workload's tasks */
		qsort(v, nv, sizeof(*v), by_max_delay);
		if (n > nv)
			n = nv;
		int named = v[0].pid >= 0;	/* a replay's tasks carry the trace's pid and comm */

		fprintf(f, "\n %-8s %s%5s %12s %10s %14s %14s\n", "task", named ? "    pid comm             " : "",
			"group", "runtime ms", "switches", "avg delay ms", "max delay ms");
		for (c = 0; c < n; c++) {
			fprintf(f, " %-8u ", v[c].id);
			if (named)
				fprintf(f, "%7d %-16.16s ", v[c].pid, v[c].comm);
			fprintf(f, "%5u %12.3f %10llu %14.3f %14.3f\n", v[c].group, v[c].runtime_ms,
				(unsigned long long)v[c].switches, v[c].delay_avg_us / 1000,
				v[c].delay_max_us / 1000);
		}
		if (n < nv)
			fprintf(f, " ... %u more tasks (--top N)\n", nv - n);
		if (nv < r->ntasks)
			fprintf(f, " (and %u background tasks of the trace, not counted)\n",
				r->ntasks - nv);
		free(v);
	}
}

int machine_write_json(const struct machine_opts *o, const struct machine_result *r,
		       const char *path, char *err, size_t len)
{
	struct hws_out out;
	unsigned c;
	FILE *f;
	int ret = hws_out_open(&out, path, 0, err, len);

	if (ret)
		return ret;
	f = out.f;
	fputs("{\n  ", f);
	hws_json_provenance(f);
	fputs(",\n  \"workload\": ", f);
	hws_json_str(f, o->workload);
	fputs(", \"topology\": ", f);
	hws_json_str(f, o->topology);
	fputs(", \"sched\": ", f);
	hws_json_str(f, o->sched);
	fputs(", \"backend\": ", f);
	hws_json_str(f, r->backend);
	fprintf(f, ", \"seed\": %llu,\n", (unsigned long long)o->seed);
	fprintf(f, "  \"sim_s\": %.9f, \"makespan_s\": %.9f, \"throughput\": %.3f, "
		   "\"unit\": ", r->sim_ns / 1e9, r->makespan_s, r->throughput);
	hws_json_str(f, r->unit);
	fputs(",\n", f);
	fprintf(f, "  \"wakeup_latency_us\": {\"p50\": %.3f, \"p90\": %.3f, \"p99\": %.3f, "
		   "\"max\": %.3f},\n",
		r->wake_lat_us[0], r->wake_lat_us[1], r->wake_lat_us[2], r->wake_lat_us[3]);
	fprintf(f, "  \"rq_wait_ms\": %.3f, \"switches\": %llu, \"voluntary\": %llu, "
		   "\"involuntary\": %llu, \"migrations\": %llu, \"migrations_wakeup\": %llu, "
		   "\"migrations_other\": %llu,\n",
		r->rq_wait_ms, (unsigned long long)r->switches,
		(unsigned long long)r->vol_switches, (unsigned long long)r->invol_switches,
		(unsigned long long)r->migrations, (unsigned long long)r->mig_wakeup,
		(unsigned long long)r->mig_other);
	fprintf(f, "  \"busy_pct\": [");
	for (c = 0; c < r->nr_cpus; c++)
		fprintf(f, "%s%.3f", c ? ", " : "", r->busy_pct[c]);
	fprintf(f, "],\n  \"group_share\": [");
	for (c = 0; c < r->nr_groups; c++)
		fprintf(f, "%s%.5f", c ? ", " : "", r->group_share[c]);
	fprintf(f, "],\n  \"group_entitled\": [");
	for (c = 0; c < r->nr_groups; c++)
		fprintf(f, "%s%.5f", c ? ", " : "", r->group_entitled[c]);
	fprintf(f, "],\n  \"idle_core_violations\": %llu, \"sched_overhead_pct\": %.5f,\n",
		(unsigned long long)r->idle_core_violations, r->sched_overhead_pct);
	fprintf(f, "  \"smt_share_while_core_idle_ms\": %.3f, \"smt_share_while_core_idle_pct\": %.4f,\n",
		r->smt_share_ms, r->smt_share_pct);
	fprintf(f, "  \"profile\": \"%s\", \"coh_transfers\": %llu, \"coh_transfer_ns\": %.1f, "
		   "\"coh_lock_waits\": %llu, \"coh_lock_ns\": %.1f, \"coh_mem_fetches\": %llu, "
		   "\"coh_mem_ns\": %.1f, \"yields\": %llu,\n",
		r->profile ? r->profile : "", (unsigned long long)r->coh_transfers,
		r->coh_transfer_ns, (unsigned long long)r->coh_lock_waits, r->coh_lock_ns,
		(unsigned long long)r->coh_mem_fetches, r->coh_mem_ns, (unsigned long long)r->yields);
	fprintf(f, "  \"work_scale\": %.6g, \"calib_point\": ", r->work_scale);
	hws_json_str(f, r->calib_point ? r->calib_point : "");
	fprintf(f, ", \"cont_net\": %d, \"cont_fs\": %d, \"cont_numa\": %d,\n",
		r->cont_net, r->cont_fs, r->cont_numa);
	fprintf(f, "  \"lo_packets\": %llu, \"lo_waits\": %llu, \"lo_wait_ns\": %.1f, "
		   "\"msg_remote\": %llu, \"msg_ns\": %.1f, \"fs_ops\": %llu, \"fs_waits\": %llu, "
		   "\"fs_wait_ns\": %.1f, \"numa_bursts\": %llu, \"numa_ns\": %.1f,\n",
		(unsigned long long)r->lo_packets, (unsigned long long)r->lo_waits, r->lo_wait_ns,
		(unsigned long long)r->msg_remote, r->msg_ns, (unsigned long long)r->fs_ops,
		(unsigned long long)r->fs_waits, r->fs_wait_ns, (unsigned long long)r->numa_bursts,
		r->numa_ns);
	fprintf(f, "  \"engine_commands\": %llu, \"engine_cycles\": %llu, \"engine_mmio\": %llu\n}\n",
		(unsigned long long)r->engine_commands, (unsigned long long)r->engine_cycles,
		(unsigned long long)r->engine_mmio);
	return hws_out_commit(&out, err, len);
}
