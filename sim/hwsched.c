/*
 * hwsched - the project's command line.
 *
 *   hwsched lockstep ...   random commands through the engine, model and RTL compared
 *   hwsched help [CMD]     usage
 *
 * Everything it prints comes from here; the libraries below it never print.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../driver/hws.h"
#include "hws_randcmd.h"
#include "hws_vsim.h"

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
		"                [--deep-check N] [--check-every N] [--quiet]\n"
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
		printf("\n");
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
		else if (argc > 2) {
			fprintf(stderr, "%s: no command '%s'\n", prog, argv[2]);
			return 2;
		} else
			usage_main(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "lockstep"))
		return cmd_lockstep(argc - 1, argv + 1);
	fprintf(stderr, "%s: unknown command '%s' (try '%s --help')\n", prog, argv[1], prog);
	return 2;
}
