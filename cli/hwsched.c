/*
 * hwsched - the project's command line.
 *
 *   hwsched lockstep ...   random commands through the engine, model and RTL compared
 *   hwsched run ...        a workload on a simulated machine under one scheduler
 *   hwsched vp ...         the same on the SystemC virtual platform (build/hwsched_vp)
 *   hwsched help [CMD]     usage
 *
 * Everything it prints comes from here; the libraries below it never print.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stddef.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hws/hws.h"
#include "sim/stim/hws_randcmd.h"
#include "sim/vp/hws_vp.h"
#include "sim/harness/hws_vsim.h"
#include "sim/machine/machine.h"
#include "sim/trace/trace.h"

static const char *prog = "hwsched";

static void usage_main(FILE *f)
{
	fprintf(f,
		"usage: %s COMMAND [OPTIONS]\n"
		"\n"
		"The hwsched scheduler accelerator: Verilog run-queue engine, C model, driver.\n"
		"\n"
		"commands:\n"
		"  lockstep   run random engine commands through a backend (default: model and\n"
		"             RTL in lockstep, every register read compared)\n"
		"  run        run a workload on a simulated machine under a scheduler (the\n"
		"             firmware on the engine, or a software baseline) and report\n"
		"  replay     replay a perf sched trace on the simulated machine, beside Linux\n"
		"  vp         run a workload on the SystemC virtual platform: the engine on a\n"
		"             TLM-2.0 bus with a latency per access (make vp builds it)\n"
		"  help [C]   this text, or the options of command C\n"
		"\n"
		"Run '%s COMMAND --help' for the options of a command.\n",
		prog, prog);
}

static void usage_lockstep(FILE *f)
{
	fprintf(f,
		"usage: %s lockstep [--seed S] [--commands N] [--cpus C] [--tasks T]\n"
		"                [--backend model|rtl|lockstep] [--wave FILE]\n"
		"                [--deep-check N] [--check-every N] [--no-balance]\n"
		"                [--no-err-counters] [--quiet]\n"
		"\n"
		"Drives the engine with N random commands, legal and illegal mixed (every opcode,\n"
		"every error code, FIFO overflow and underflow, bad bus accesses), occupancy\n"
		"driven from empty to the full task table and back. On the lockstep backend every\n"
		"register read and every bus response is compared between the C model and the\n"
		"Verilated RTL, including the clock edges each transaction takes; the first\n"
		"mismatch stops the run and names the command number, the command and both\n"
		"answers. Every outcome is also checked against what the spec predicts.\n"
		"\n"
		"  --seed S          random seed (default 1)\n"
		"  --commands N      command words to write (default 100000; k/M suffixes ok)\n"
		"  --cpus C          NR_CPUS, 1..64 (default 8)\n"
		"  --tasks T         NR_TASKS, 1..4096 (default 256)\n"
		"  --depth D         CMD_DEPTH and RES_DEPTH, 2..32 (default 16)\n"
		"  --backend B       model, rtl or lockstep (default lockstep)\n"
		"  --wave FILE       write an FST waveform of the RTL (rtl and lockstep)\n"
		"  --deep-check N    RTL walks all its lists every N idle cycles (default 0: off)\n"
		"  --check-every N   check the model's invariants every N commands (default 1000)\n"
		"  --no-balance      the engine built without BALANCE (LCU_BALANCE=0; the rtl and\n"
		"                    lockstep backends need a variant built so, e.g. 8x256x16xnb)\n"
		"  --no-err-counters the engine built without the per-code error counters\n"
		"                    (ERR_COUNTERS=0: ERR_CNTn read 0, checked; e.g. 8x256x16xnbne)\n"
		"  --quiet           print the last line only\n"
		"\n"
		"The RTL exists for the parameter sets built in: %s.\n"
		"Last line: 'lockstep: N commands, M mismatches'; exit 0 iff M is 0 and nothing\n"
		"else failed.\n",
		prog, hws_vsim_variants());
}

/* Parse a count with an optional k/M/G suffix; -1 on error. */
static long long parse_count(const char *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || v < 0)
		return -1;
	if (*end == 'k' || *end == 'K')
		v *= 1e3, end++;
	else if (*end == 'M')
		v *= 1e6, end++;
	else if (*end == 'G')
		v *= 1e9, end++;
	if (*end)
		return -1;
	return (long long)v;
}

static int parse_uint(const char *opt, const char *s, unsigned lo, unsigned hi, unsigned *out)
{
	long long v = parse_count(s);

	if (v < (long long)lo || v > (long long)hi) {
		fprintf(stderr, "%s: %s must be a number in %u..%u (got '%s')\n", prog, opt, lo, hi,
			s);
		return -1;
	}
	*out = (unsigned)v;
	return 0;
}

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

static int cmd_lockstep(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "seed", required_argument, NULL, 's' },
		{ "commands", required_argument, NULL, 'n' },
		{ "cpus", required_argument, NULL, 'c' },
		{ "tasks", required_argument, NULL, 't' },
		{ "depth", required_argument, NULL, 'd' },
		{ "backend", required_argument, NULL, 'b' },
		{ "wave", required_argument, NULL, 'w' },
		{ "deep-check", required_argument, NULL, 'D' },
		{ "check-every", required_argument, NULL, 'C' },
		{ "no-balance", no_argument, NULL, 'B' },
		{ "no-err-counters", no_argument, NULL, 'E' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct hws_randcmd_opts ro = { .seed = 1, .commands = 100000, .check_every = 1000 };
	struct hws_randcmd_report *r;
	struct hws_config cfg;
	struct hws_dev *d = NULL;
	struct progress pr = { 0 };
	char msg[512];
	long long v;
	int c, ret, quiet = 0, mismatch;
	unsigned k;
	double el;

	hws_config_default(&cfg);
	cfg.backend = HWS_BACKEND_LOCKSTEP;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			v = parse_count(optarg);
			if (v < 0) {
				fprintf(stderr, "%s lockstep: --seed must be a number (got '%s')\n",
					prog, optarg);
				return 2;
			}
			ro.seed = (uint64_t)v;
			break;
		case 'n':
			v = parse_count(optarg);
			if (v < 0) {
				fprintf(stderr, "%s lockstep: --commands must be a count (got '%s')\n",
					prog, optarg);
				return 2;
			}
			ro.commands = (uint64_t)v;
			break;
		case 'c':
			if (parse_uint("--cpus", optarg, 1, 64, &cfg.nr_cpus))
				return 2;
			break;
		case 't':
			if (parse_uint("--tasks", optarg, 1, 4096, &cfg.nr_tasks))
				return 2;
			break;
		case 'd':
			if (parse_uint("--depth", optarg, 2, 32, &cfg.cmd_depth))
				return 2;
			cfg.res_depth = cfg.cmd_depth;
			break;
		case 'b':
			if (hws_backend_parse(optarg, &cfg.backend)) {
				fprintf(stderr, "%s lockstep: --backend must be model, rtl or lockstep "
						"(got '%s')\n", prog, optarg);
				return 2;
			}
			break;
		case 'w':
			cfg.wave = optarg;
			break;
		case 'D':
			if (parse_uint("--deep-check", optarg, 0, 1000000, &cfg.deep_check))
				return 2;
			break;
		case 'C':
			if (parse_uint("--check-every", optarg, 0, 1000000000, &ro.check_every))
				return 2;
			break;
		case 'q':
			quiet = 1;
			break;
		case 'B':
			cfg.no_balance = 1;
			break;
		case 'E':
			cfg.no_err_counters = 1;
			break;
		case 'h':
			usage_lockstep(stdout);
			return 0;
		default:
			usage_lockstep(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "%s lockstep: unexpected argument '%s'\n", prog, argv[optind]);
		return 2;
	}
	if (cfg.wave && cfg.backend == HWS_BACKEND_MODEL) {
		fprintf(stderr, "%s lockstep: --wave needs the rtl or lockstep backend\n", prog);
		return 2;
	}
	ret = hws_open(&d, &cfg, msg, sizeof(msg));
	if (ret) {
		fprintf(stderr, "%s lockstep: cannot open the %s backend: %s\n", prog,
			hws_backend_name(cfg.backend), msg);
		return 1;
	}
	r = calloc(1, sizeof(*r));
	if (!r) {
		hws_close(d);
		fprintf(stderr, "%s lockstep: out of memory\n", prog);
		return 1;
	}
	pr.start = now_s();
	pr.tty = isatty(2);
	ro.progress = show_progress;
	ro.progress_arg = &pr;
	ret = hws_randcmd_run(d, &ro, r);
	el = now_s() - pr.start;
	if (pr.shown)
		fprintf(stderr, "\n");
	mismatch = ret == -EIO && strstr(r->msg, "lockstep mismatch") != NULL;
	if (ret)
		fprintf(stderr, "%s lockstep: seed %" PRIu64 ": %s\n", prog, ro.seed, r->msg);
	if (!quiet) {
		printf("engine: %u CPUs, %u tasks, FIFOs %u/%u, backend %s, seed %" PRIu64 "\n",
		       cfg.nr_cpus, cfg.nr_tasks, cfg.cmd_depth, cfg.res_depth,
		       hws_backend_name(cfg.backend), ro.seed);
		printf("occupancy: max %u of %u tasks queued; table filled %u times, drained %u "
		       "times\n", r->max_occupancy, cfg.nr_tasks, r->fills, r->drains);
		printf("commands by type:");
		for (k = 0; k < 16; k++)
			if (r->by_op[k])
				printf(" %s=%" PRIu64, hws_op_name(k), r->by_op[k]);
		printf("\n");
		{
			static const char *const vn[8] = { "", "no_busiest", "this_is_max",
							   "this_above_avg", "within_pct",
							   "no_gain", "move", "move_one" };

			printf("BALANCE answers by verdict:");
			for (k = 1; k < 8; k++)
				printf(" %s=%" PRIu64, vn[k], r->bal_verdicts[k]);
			printf("\n");
		}
		printf("errors by code:");
		for (k = 1; k < 16; k++)
			if (r->errors[k])
				printf(" %s=%" PRIu64, hws_err_name(k), r->errors[k]);
		printf("%s\n", cfg.no_err_counters ? " not counted (engine built without "
			"ERR_CNTn; they read 0, as checked)" : "");
		if (r->engine_done)
			printf("engine: %" PRIu64 " commands executed in %" PRIu64 " cycles: %.2f "
			       "cycles per command (bus included)\n", r->engine_done,
			       r->engine_cycles, (double)r->engine_cycles / (double)r->engine_done);
		printf("time: %.2f s wall, %.0f commands/s, %" PRIu64 " clock edges (%.2f M "
		       "edges/s)\n", el, (double)r->commands / (el > 0 ? el : 1e-9), r->edges,
		       (double)r->edges / (el > 0 ? el : 1e-9) / 1e6);
	}
	printf("lockstep: %" PRIu64 " commands, %d mismatches\n", r->commands, mismatch);
	free(r);
	hws_close(d);
	return ret ? 1 : 0;
}

static void usage_run(FILE *f)
{
	fprintf(f,
		"usage: %s run [--workload NAME[:k=v,...]] [--topology T] [--sched hw|o1|linux24]\n"
		"            [--backend model|rtl|lockstep] [--seed S] [--duration D]\n"
		"            [--no-wake-balance] [--no-hw-balance] [--no-err-counters]\n"
		"            [--hz N] [--json FILE]\n"
		"            [--cost k=v,...]\n"
		"\n"
		"Simulates a machine of the given topology running the workload, scheduled by the\n"
		"O(1) firmware on the engine (hw), the same policy on plain C run queues (o1) or\n"
		"the Linux 2.4 scheduler (linux24), and reports throughput, wakeup latency,\n"
		"run-queue wait, switches, migrations, per-CPU busy %%, group shares, idle-core\n"
		"violations, scheduler overhead and engine traffic. docs/simulator.md.\n"
		"\n"
		"  --workload W     mix:tasks=N,burst=US,sleep=US,msg=P,groups=G,g0=N (default mix;\n"
		"                   sleep=0: CPU-bound; g0: the first N tasks in group 0)\n"
		"                   hackbench:groups=G,loops=L (20 senders x 20 receivers a group)\n"
		"  --topology T     numa=N,pkg=P,core=C,smt=S (default pkg=1,core=4,smt=1)\n"
		"  --sched S        hw (default), o1, linux24\n"
		"  --backend B      engine backend for hw: model (default), rtl, lockstep\n"
		"  --seed S         random seed (default 1)\n"
		"  --duration D     simulated time limit, e.g. 500ms, 2s (default 1s; hackbench\n"
		"                   ends when its tasks exit)\n"
		"  --no-wake-balance  no select_idle_sibling on wakeups\n"
"  --flat           hw/o1: one flat balancing domain over all CPUs (2.6.0 before\n"
		"                   sched domains) instead of the SMT/MC/package/NUMA levels\n"
		"  --no-hw-balance  hw: the engine is built without its BALANCE query (LCU_BALANCE=0,\n"
		"                   the small-FPGA build): the firmware reads each CPU's loads and\n"
		"                   decides in software (same decisions, more bus traffic)\n"
		"  --no-err-counters  hw: the engine is built without its per-code error counters\n"
		"                   (ERR_COUNTERS=0; with --no-hw-balance the build that fits an\n"
		"                   iCE40 HX8K, docs/synthesis.md); the firmware never reads them\n"
		"  --hz N           timer ticks per second (default 1000)\n"
		"  --json FILE      write the results as JSON too\n"
		"  --cost k=v,...   cost model: ctx_switch_ns, migrate_cold_ns, remote_node_ns,\n"
		"                   smt_speed, bus_ns, engine_clk_ns, sw_op_ns, sw_cpu_ns, sw_base_ns\n"
		"  --check-every N  deep conservation check every N events (default 64; 0 off)\n"
		"  --top N          tasks in the per-task table, by max delay (default 10)\n"
		"  --svg FILE       a timeline: one lane per CPU, bursts coloured by task (by group\n"
		"                   when there are groups), wakeup delays and migrations marked\n"
		"  --wave FILE      with --sched hw on the rtl or lockstep backend: the engine's FST\n"
		"                   waveform\n",
		prog);
}

static void usage_vp(FILE *f)
{
	fprintf(f,
		"usage: %s vp [--bus-latency NS] [--no-contention] [--vp-json FILE]\n"
		"            [--workload W] [--topology T] [--sched hw|o1|linux24] [--seed S]\n"
		"            [--duration D] [--json FILE] [--cost k=v,...] [other 'run' options]\n"
		"\n"
		"Runs the machine of 'run' on the SystemC virtual platform (docs/vp.md): each CPU a\n"
		"TLM-2.0 initiator running the same firmware and driver, the Verilated engine a\n"
		"TLM-2.0 target behind an interconnect with a latency per access and one port that\n"
		"the CPUs contend for. Scheduler overhead is the time the bus annotated. Prints the\n"
		"report of 'run', then per scheduling decision (scheduler call) its count, MMIO\n"
		"accesses, bus time and engine cycles (mean and p99).\n"
		"\n"
		"  --bus-latency NS  the interconnect's round trip per access, added to the engine's\n"
		"                    own clock edges (default 0)\n"
		"  --no-contention   accesses never wait for the engine's port (default: they do)\n"
		"  --vp-json FILE    the bus figures and the per-decision table as JSON\n"
		"  --cost engine_clk_ns=N sets the engine clock; bus_ns is not used (the bus is\n"
		"                    modelled); other options as for 'run' (no --backend, --wave)\n"
		"\n"
		"'%s run --sched hw --backend rtl --cost bus_ns=B' equals '%s vp --bus-latency L\n"
		"--no-contention' when B = L + 2 x engine_clk_ns: the same decisions, the same report.\n"
		"Needs build/hwsched_vp (make vp) beside this executable.\n",
		prog, prog, prog);
}

static int parse_duration(const char *s, uint64_t *ns)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || v < 0)
		return -1;
	if (!strcmp(end, "s") || !*end)
		*ns = (uint64_t)(v * 1e9);
	else if (!strcmp(end, "ms"))
		*ns = (uint64_t)(v * 1e6);
	else if (!strcmp(end, "us"))
		*ns = (uint64_t)(v * 1e3);
	else
		return -1;
	return 0;
}

static int parse_costs(char *s, struct machine_costs *c)
{
	static const struct { const char *k; size_t off; } keys[] = {
		{ "ctx_switch_ns", offsetof(struct machine_costs, ctx_switch_ns) },
		{ "migrate_cold_ns", offsetof(struct machine_costs, migrate_cold_ns) },
		{ "remote_node_ns", offsetof(struct machine_costs, remote_node_ns) },
		{ "smt_speed", offsetof(struct machine_costs, smt_speed) },
		{ "bus_ns", offsetof(struct machine_costs, bus_ns) },
		{ "engine_clk_ns", offsetof(struct machine_costs, engine_clk_ns) },
		{ "sw_op_ns", offsetof(struct machine_costs, sw_op_ns) },
		{ "sw_cpu_ns", offsetof(struct machine_costs, sw_cpu_ns) },
		{ "sw_base_ns", offsetof(struct machine_costs, sw_base_ns) },
	};
	char *save = NULL, *kv;

	for (kv = strtok_r(s, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(kv, '='), *end;
		size_t i;
		double v;

		if (!eq) {
			fprintf(stderr, "%s run: --cost '%s': expected key=value\n", prog, kv);
			return -1;
		}
		*eq = 0;
		v = strtod(eq + 1, &end);
		for (i = 0; i < sizeof(keys) / sizeof(keys[0]) && strcmp(keys[i].k, kv); i++)
			;
		if (i == sizeof(keys) / sizeof(keys[0]) || end == eq + 1 || *end || v < 0 ||
		    (!strcmp(kv, "smt_speed") && (v <= 0 || v > 1))) {
			fprintf(stderr, "%s run: --cost %s=%s: unknown key or bad value\n", prog, kv,
				eq + 1);
			return -1;
		}
		*(double *)((char *)c + keys[i].off) = v;
	}
	return 0;
}

/* A whole number option: its value, or a message naming the option and exit status 2. */
static int num_opt(const char *cmd, const char *name, const char *arg, unsigned long long max,
		   unsigned long long *out)
{
	char *end;

	errno = 0;
	*out = strtoull(arg, &end, 0);
	if (end == arg || *end || errno || *out > max || arg[0] == '-') {
		fprintf(stderr, "%s %s: --%s '%s': expected a whole number up to %llu\n", prog, cmd,
			name, arg, max);
		return -1;
	}
	return 0;
}

static int write_vp_json(const struct hws_vp_result *v, const char *path)
{
	FILE *f = fopen(path, "w");
	unsigned k;

	if (!f)
		return -1;
	fprintf(f, "{\n  \"engine\": \"%s\", \"initiators\": %u, \"clk_ns\": %g, "
		   "\"bus_latency_ns\": %g, \"contention\": %d,\n",
		v->engine, v->initiators, v->clk_ns, v->bus_latency_ns, v->contention);
	fprintf(f, "  \"accesses\": %" PRIu64 ", \"edges\": %" PRIu64 ", \"bus_ns\": %.3f, "
		   "\"wait_ns\": %.3f, \"waited\": %" PRIu64 ",\n  \"decisions\": {",
		v->accesses, v->edges, v->bus_ns, v->wait_ns, v->waited);
	for (k = 0; k < v->ndec; k++) {
		const struct hws_vp_decision *d = &v->dec[k];

		fprintf(f, "%s\n    \"%s\": {\"count\": %" PRIu64 ", \"mmio_mean\": %.4f, "
			   "\"mmio_p99\": %.0f, \"bus_ns_mean\": %.3f, \"bus_ns_p99\": %.3f, "
			   "\"cycles_mean\": %.3f, \"cycles_p99\": %.0f, \"wait_ns_mean\": %.3f}",
			k ? "," : "", d->name, d->count, d->mmio_mean, d->mmio_p99, d->bus_ns_mean,
			d->bus_ns_p99, d->cycles_mean, d->cycles_p99, d->wait_ns_mean);
	}
	fprintf(f, "\n  }\n}\n");
	return fclose(f) ? -1 : 0;
}

static void print_vp(const struct hws_vp_result *v, FILE *f)
{
	unsigned k;

	fprintf(f, "\nvirtual platform: %u initiators, engine %s (Verilated SystemC, TLM-2.0 "
		   "target), clock %g ns, bus latency %g ns per access, contention %s\n",
		v->initiators, v->engine, v->clk_ns, v->bus_latency_ns, v->contention ? "on" : "off");
	fprintf(f, "bus: %" PRIu64 " MMIO accesses, %" PRIu64 " engine edges, %.3f ms annotated, "
		   "of which %.3f ms waiting for the port (%" PRIu64 " accesses waited)\n",
		v->accesses, v->edges, v->bus_ns / 1e6, v->wait_ns / 1e6, v->waited);
	fprintf(f, "%-10s %9s %14s %22s %18s %12s\n", "decision", "count", "MMIO mean/p99",
		"bus ns mean/p99", "cycles mean/p99", "wait ns mean");
	for (k = 0; k < v->ndec; k++) {
		const struct hws_vp_decision *d = &v->dec[k];

		fprintf(f, "%-10s %9" PRIu64 " %8.2f/%-5.0f %12.1f/%-9.0f %10.1f/%-7.0f %12.1f\n",
			d->name, d->count, d->mmio_mean, d->mmio_p99, d->bus_ns_mean, d->bus_ns_p99,
			d->cycles_mean, d->cycles_p99, d->wait_ns_mean);
	}
	fprintf(f, "(balance: the BALANCE queries, counted again inside the pick and tick calls "
		   "that made them)\n");
}

/* hwsched vp in build/hwsched: run build/hwsched_vp, beside this executable. */
static int exec_vp(char **argv)
{
	char self[4096], path[4200];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	if (n <= 0) {
		fprintf(stderr, "%s vp: cannot find this executable: %s\n", prog, strerror(errno));
		return 1;
	}
	self[n] = 0;
	slash = strrchr(self, '/');
	if (slash)
		*slash = 0;
	snprintf(path, sizeof(path), "%s/hwsched_vp", self);
	if (access(path, X_OK)) {
		fprintf(stderr, "%s vp: the virtual platform is not built (no %s): run 'make vp'\n",
			prog, path);
		return 1;
	}
	argv[-1] = path;
	fflush(stdout);
	execv(path, argv - 1);
	fprintf(stderr, "%s vp: cannot run %s: %s\n", prog, path, strerror(errno));
	return 1;
}

static int cmd_run_or_vp(int argc, char **argv, int vp);

static int cmd_run(int argc, char **argv)
{
	return cmd_run_or_vp(argc, argv, 0);
}

static int cmd_vp(int argc, char **argv)
{
	return cmd_run_or_vp(argc, argv, 1);
}

static int cmd_run_or_vp(int argc, char **argv, int vp)
{
	static const struct option opts[] = {
		{ "workload", required_argument, NULL, 'w' },
		{ "topology", required_argument, NULL, 't' },
		{ "sched", required_argument, NULL, 's' },
		{ "backend", required_argument, NULL, 'b' },
		{ "seed", required_argument, NULL, 'S' },
		{ "duration", required_argument, NULL, 'd' },
		{ "no-wake-balance", no_argument, NULL, 'W' },
		{ "flat", no_argument, NULL, 'A' },
		{ "no-hw-balance", no_argument, NULL, 'B' },
		{ "no-err-counters", no_argument, NULL, 'E' },
		{ "hz", required_argument, NULL, 'z' },
		{ "json", required_argument, NULL, 'j' },
		{ "cost", required_argument, NULL, 'c' },
		{ "check-every", required_argument, NULL, 'k' },
		{ "top", required_argument, NULL, 'T' },
		{ "svg", required_argument, NULL, 'v' },
		{ "wave", required_argument, NULL, 'F' },
		{ "bus-latency", required_argument, NULL, 'L' },
		{ "no-contention", no_argument, NULL, 'N' },
		{ "vp-json", required_argument, NULL, 'J' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *cmd = vp ? "vp" : "run";
	struct machine_opts o;
	struct machine_result r;
	struct hws_vp_opts vo = { 0, 1 };
	struct hws_vp_result vr;
	const char *json = NULL, *vp_json = NULL;
	char err[400], *end;
	int c, ret, dur_given = 0;
	unsigned long long nv;

	machine_default_opts(&o);
	o.duration_ns = 1000000000ull;
	o.progress = isatty(2);
	o.top = 10;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'w': o.workload = optarg; break;
		case 't': o.topology = optarg; break;
		case 's': o.sched = optarg; break;
		case 'b': o.backend = optarg; break;
		case 'S':
			o.seed = strtoull(optarg, &end, 0);
			if (end == optarg || *end) {
				fprintf(stderr, "%s run: --seed '%s' is not a number\n", prog, optarg);
				return 2;
			}
			break;
		case 'd':
			dur_given = 1;
			if (parse_duration(optarg, &o.duration_ns)) {
				fprintf(stderr, "%s run: --duration '%s': expected e.g. 2s, 500ms\n",
					prog, optarg);
				return 2;
			}
			break;
		case 'W': o.wake_balance = 0; break;
		case 'A': o.flat = 1; break;
		case 'B': o.no_hw_balance = 1; break;
		case 'E': o.no_err_counters = 1; break;
		case 'z':
			if (num_opt("run", "hz", optarg, 100000, &nv))
				return 2;
			o.hz = (unsigned)nv;
			break;
		case 'j': json = optarg; break;
		case 'c':
			if (parse_costs(optarg, &o.costs))
				return 2;
			break;
		case 'k':
			if (num_opt("run", "check-every", optarg, 1000000000, &nv))
				return 2;
			o.check_every = (int)nv;
			break;
		case 'T':
			if (num_opt("run", "top", optarg, 1000000, &nv))
				return 2;
			o.top = (unsigned)nv;
			break;
		case 'v': o.svg = optarg; break;
		case 'F': o.wave = optarg; break;
		case 'L':
			vo.bus_latency_ns = strtod(optarg, &end);
			if (end == optarg || *end || !(vo.bus_latency_ns >= 0) ||
			    vo.bus_latency_ns > 1e9) {
				fprintf(stderr, "%s vp: --bus-latency '%s': expected a number of ns, "
						"0..1e9\n", prog, optarg);
				return 2;
			}
			break;
		case 'N': vo.contention = 0; break;
		case 'J': vp_json = optarg; break;
		case 'h': vp ? usage_vp(stdout) : usage_run(stdout); return 0;
		default: vp ? usage_vp(stderr) : usage_run(stderr); return 2;
		}
		if (!vp && (c == 'L' || c == 'N' || c == 'J')) {
			fprintf(stderr, "%s run: --bus-latency, --no-contention and --vp-json are "
					"options of 'vp'\n", prog);
			return 2;
		}
		if (vp && (c == 'b' || c == 'F' || c == 'B' || c == 'E')) {
			fprintf(stderr, "%s vp: %s is an option of 'run' (the virtual platform's "
					"engine is its own)\n", prog,
				c == 'b' ? "--backend" : c == 'F' ? "--wave" :
				c == 'B' ? "--no-hw-balance" : "--no-err-counters");
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "%s %s: unexpected argument '%s'\n", prog, cmd, argv[optind]);
		return 2;
	}
	if (vp && !hws_vp_available())
		return exec_vp(argv);
	if (strcmp(o.backend, "model") && strcmp(o.backend, "rtl") && strcmp(o.backend, "lockstep")) {
		fprintf(stderr, "%s run: --backend '%s': expected model, rtl or lockstep\n", prog,
			o.backend);
		return 2;
	}
	if ((o.no_hw_balance || o.no_err_counters) && strcmp(o.sched, "hw")) {
		fprintf(stderr, "%s run: %s is an option of --sched hw (got '%s')\n", prog,
			o.no_hw_balance ? "--no-hw-balance" : "--no-err-counters", o.sched);
		return 2;
	}
	if (!strncmp(o.workload, "hackbench", 9) && !dur_given)
		o.duration_ns = 0;	/* hackbench runs until its tasks exit */
	if (vp) {
		ret = hws_vp_run(&o, &vo, &r, &vr, stdout, err, sizeof(err));
		if (!ret && !strcmp(o.sched, "hw"))
			o.backend = "tlm";
	} else {
		ret = machine_run(&o, &r, stdout, err, sizeof(err));
	}
	if (ret) {
		fprintf(stderr, "%s %s: %s\n", prog, cmd, err);
		return 1;
	}
	machine_print(&o, &r, stdout);
	machine_result_free(&r);
	if (vp)
		print_vp(&vr, stdout);
	if (json && machine_write_json(&o, &r, json)) {
		fprintf(stderr, "%s %s: cannot write %s: %s\n", prog, cmd, json, strerror(errno));
		return 1;
	}
	if (vp_json && write_vp_json(&vr, vp_json)) {
		fprintf(stderr, "%s vp: cannot write %s: %s\n", prog, vp_json, strerror(errno));
		return 1;
	}
	return 0;
}

static void usage_replay(FILE *f)
{
	fprintf(f,
		"usage: %s replay TRACE [--topology T] [--sched hw|o1|linux24]\n"
		"            [--backend model|rtl|lockstep] [--seed S] [--lenient] [--comm C]\n"
		"            [--pid P] [--tree-of P] [--json FILE] [--svg FILE] [--wave FILE] [--top N]\n"
		"            [--cost k=v,...] [--no-wake-balance]\n"
		"\n"
		"Rebuilds each task of a `perf script` text of `perf sched record` (plain or .gz):\n"
		"its CPU bursts, its sleeps and who ended them, forks and exits; replays that task\n"
		"graph on the simulated machine and prints the replay beside what Linux did in\n"
		"the trace. docs/trace.md (the reader), docs/simulator.md (the replay).\n"
		"\n"
		"  --topology T     default: core=N, N the CPUs the trace shows\n"
		"  --lenient        skip malformed lines (counted) instead of stopping at the first\n"
		"  --comm C, --pid P, --tree-of P   keep only those tasks (default: the workload,\n"
		"                   the process tree of perf-exec)\n"
		"  --json FILE      both sides: makespan_ms, cpu_time_ms, busy_pct, wakeup_latency_us\n"
		"                   {p50,p90,p99,max}, migrations, switches under linux and replay\n"
		"  other options as for 'run'\n",
		prog);
}

static double pct_diff(double ours, double theirs)
{
	return theirs != 0 ? 100.0 * (ours - theirs) / theirs : 0;
}

static int cmd_replay(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "topology", required_argument, NULL, 't' },
		{ "sched", required_argument, NULL, 's' },
		{ "backend", required_argument, NULL, 'b' },
		{ "seed", required_argument, NULL, 'S' },
		{ "lenient", no_argument, NULL, 'l' },
		{ "comm", required_argument, NULL, 'c' },
		{ "pid", required_argument, NULL, 'p' },
		{ "tree-of", required_argument, NULL, 'r' },
		{ "json", required_argument, NULL, 'j' },
		{ "svg", required_argument, NULL, 'v' },
		{ "wave", required_argument, NULL, 'F' },
		{ "top", required_argument, NULL, 'T' },
		{ "cost", required_argument, NULL, 'C' },
		{ "no-wake-balance", no_argument, NULL, 'W' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct trace_opts to = { 0 };
	struct machine_opts o;
	struct machine_result r;
	struct trace_linux lx;
	struct trace *tr = NULL;
	const char *json = NULL;
	char err[400], topo[64];
	double cpu_ms = 0;
	unsigned long long nv;
	int c, ret;

	machine_default_opts(&o);
	o.progress = isatty(2);
	o.top = 10;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 't': o.topology = optarg; break;
		case 's': o.sched = optarg; break;
		case 'b': o.backend = optarg; break;
		case 'S':
			if (num_opt("replay", "seed", optarg, ~0ull, &nv))
				return 2;
			o.seed = nv;
			break;
		case 'l': to.lenient = 1; break;
		case 'c': to.comm = optarg; break;
		case 'p':
			if (num_opt("replay", "pid", optarg, 4194304, &nv))
				return 2;
			to.pid = (int)nv;
			break;
		case 'r':
			if (num_opt("replay", "tree-of", optarg, 4194304, &nv))
				return 2;
			to.tree_of = (int)nv;
			break;
		case 'j': json = optarg; break;
		case 'v': o.svg = optarg; break;
		case 'F': o.wave = optarg; break;
		case 'T':
			if (num_opt("replay", "top", optarg, 1000000, &nv))
				return 2;
			o.top = (unsigned)nv;
			break;
		case 'C':
			if (parse_costs(optarg, &o.costs))
				return 2;
			break;
		case 'W': o.wake_balance = 0; break;
		case 'h': usage_replay(stdout); return 0;
		default: usage_replay(stderr); return 2;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "%s replay: expected one TRACE file (try --help)\n", prog);
		return 2;
	}
	if (trace_load(argv[optind], &to, &tr, err, sizeof(err))) {
		fprintf(stderr, "%s replay: %s\n", prog, err);
		return 1;
	}
	trace_linux_metrics(tr, &lx);
	if (!strcmp(o.topology, "pkg=1,core=4,smt=1")) {	/* the default: as the trace */
		snprintf(topo, sizeof(topo), "core=%u", tr->nr_cpus ? tr->nr_cpus : 1);
		o.topology = topo;
	}
	o.trace = tr;
	o.workload = argv[optind];
	/* A replay ends when its tasks exit; stop a stuck one at 3x the trace's length. */
	o.duration_ns = (uint64_t)(3 * (tr->end_ns - tr->start_ns)) + 1000000000ull;
	ret = machine_run(&o, &r, NULL, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "%s replay: %s\n", prog, err);
		trace_free(tr);
		return 1;
	}
	for (unsigned i = 0; i < r.ntasks; i++)
		cpu_ms += r.tasks[i].runtime_ms;
	printf("trace: %s: %zu tasks, %u CPUs, %llu lines (%llu skipped)\n", argv[optind],
	       tr->nr_tasks, tr->nr_cpus, (unsigned long long)tr->lines,
	       (unsigned long long)tr->skipped);
	machine_print(&o, &r, stdout);
	printf("\n%-26s %12s %12s %8s\n", "", "linux", "replay", "diff");
	printf("%-26s %12.3f %12.3f %7.1f%%\n", "makespan ms", lx.makespan_ms,
	       r.makespan_s * 1e3, pct_diff(r.makespan_s * 1e3, lx.makespan_ms));
	printf("%-26s %12.3f %12.3f %7.1f%%\n", "CPU time ms", lx.cpu_time_ms, cpu_ms,
	       pct_diff(cpu_ms, lx.cpu_time_ms));
	for (unsigned k = 0; k < tr->nr_cpus && k < r.nr_cpus; k++)
		printf("busy %% CPU%-17u %12.1f %12.1f %7.1f%%\n", k, lx.busy_pct[k], r.busy_pct[k],
		       pct_diff(r.busy_pct[k], lx.busy_pct[k]));
	{
		static const char *const q[4] = { "p50", "p90", "p99", "max" };
		const double lq[4] = { lx.wl_lat_p50_us, lx.wl_lat_p90_us, lx.wl_lat_p99_us,
				       lx.wl_lat_max_us };
		const double lm[3] = { (double)(lx.wl_mig_wakeup + lx.wl_mig_other),
				       (double)lx.wl_csw_vol, (double)lx.wl_csw_invol };
		const double rm[3] = { (double)r.migrations, (double)r.vol_switches,
				       (double)r.invol_switches };
		static const char *const mn[3] = { "migrations", "switches voluntary",
						   "switches involuntary" };

		for (int k = 0; k < 4; k++)
			printf("wakeup latency %-11s %12.1f %12.1f %7.1f%%\n", q[k], lq[k],
			       r.wake_lat_us[k], pct_diff(r.wake_lat_us[k], lq[k]));
		for (int k = 0; k < 3; k++)
			printf("%-26s %12.0f %12.0f %7.1f%%\n", mn[k], lm[k], rm[k],
			       pct_diff(rm[k], lm[k]));
	}
	printf("(latency in us; the Linux column counts the workload's tasks only, as the replay "
	       "does)\n");
	if (json) {
		FILE *f = fopen(json, "w");

		if (!f) {
			fprintf(stderr, "%s replay: cannot write %s: %s\n", prog, json, strerror(errno));
			ret = 1;
		} else {
			fprintf(f, "{\n  \"trace\": \"%s\", \"sched\": \"%s\", \"topology\": \"%s\",\n",
				argv[optind], o.sched, o.topology);
			for (int side = 0; side < 2; side++) {
				fprintf(f, "  \"%s\": {\"makespan_ms\": %.3f, \"cpu_time_ms\": %.3f, "
					   "\"busy_pct\": [", side ? "replay" : "linux",
					side ? r.makespan_s * 1e3 : lx.makespan_ms,
					side ? cpu_ms : lx.cpu_time_ms);
				for (unsigned k = 0; k < tr->nr_cpus; k++)
					fprintf(f, "%s%.2f", k ? ", " : "",
						side ? (k < r.nr_cpus ? r.busy_pct[k] : 0) : lx.busy_pct[k]);
				fprintf(f, "], \"wakeup_latency_us\": {\"p50\": %.1f, \"p90\": %.1f, "
					   "\"p99\": %.1f, \"max\": %.1f}, \"migrations\": %llu, "
					   "\"switches\": %llu}%s\n",
					side ? r.wake_lat_us[0] : lx.wl_lat_p50_us,
					side ? r.wake_lat_us[1] : lx.wl_lat_p90_us,
					side ? r.wake_lat_us[2] : lx.wl_lat_p99_us,
					side ? r.wake_lat_us[3] : lx.wl_lat_max_us,
					(unsigned long long)(side ? r.migrations :
								    lx.wl_mig_wakeup + lx.wl_mig_other),
					(unsigned long long)(side ? r.switches :
								    lx.wl_csw_vol + lx.wl_csw_invol),
					side ? "" : ",");
			}
			fprintf(f, "}\n");
			if (fclose(f))
				ret = 1;
		}
	}
	machine_result_free(&r);
	trace_free(tr);
	return ret ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage_main(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage_main(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "help")) {
		if (argc > 2 && !strcmp(argv[2], "lockstep"))
			usage_lockstep(stdout);
		else if (argc > 2 && !strcmp(argv[2], "run"))
			usage_run(stdout);
		else if (argc > 2 && !strcmp(argv[2], "replay"))
			usage_replay(stdout);
		else if (argc > 2 && !strcmp(argv[2], "vp"))
			usage_vp(stdout);
		else if (argc > 2) {
			fprintf(stderr, "%s: no command '%s'\n", prog, argv[2]);
			return 2;
		} else
			usage_main(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "lockstep"))
		return cmd_lockstep(argc - 1, argv + 1);
	if (!strcmp(argv[1], "run"))
		return cmd_run(argc - 1, argv + 1);
	if (!strcmp(argv[1], "replay"))
		return cmd_replay(argc - 1, argv + 1);
	if (!strcmp(argv[1], "vp"))
		return cmd_vp(argc - 1, argv + 1);
	fprintf(stderr, "%s: unknown command '%s' (try '%s --help')\n", prog, argv[1], prog);
	return 2;
}
