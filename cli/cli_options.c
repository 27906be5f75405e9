/*
 * cli_options.c - the one option table of hwsched's commands, its parser and the value
 * parsers; see cli.h. An option is written once here: its name, the commands that take
 * it, what it sets and its help line. A command given an option of another command says
 * which commands take it.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "sim/harness/hws_shape.h"

const char *const cli_prog = "hwsched";

/* ---- The error style ---- */

static void vreport(const struct cli_args *a, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s%s%s: ", cli_prog, a && a->cmd_name ? " " : "",
		a && a->cmd_name ? a->cmd_name : "");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int cli_error(const struct cli_args *a, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(a, fmt, ap);
	va_end(ap);
	return 2;
}

int cli_fail(const struct cli_args *a, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(a, fmt, ap);
	va_end(ap);
	return 1;
}

/* ---- Value parsers (lib/hws_parse.h): 0, or the exit status 2 with the message printed ---- */

/* The name of option @opt in messages: "--cpus". */
static const char *dashed(const char *opt, char *buf, size_t len)
{
	snprintf(buf, len, "--%s", opt);
	return buf;
}

/* A whole number in @lo..@hi, decimal. */
static int whole_in(const struct cli_args *a, const char *opt, const char *v, uint64_t lo,
		    uint64_t hi, uint64_t *out)
{
	char name[48], err[300];

	if (hws_parse_uint(dashed(opt, name, sizeof(name)), v, lo, hi, out, err, sizeof(err)))
		return cli_error(a, "%s", err);
	return 0;
}

/* A count in @lo..@hi (the engine's parameters), k/M/G suffixes allowed. */
static int count_in(const struct cli_args *a, const char *opt, const char *v, uint64_t lo,
		    uint64_t hi, uint64_t *out)
{
	char name[48], err[300];

	if (hws_parse_count(dashed(opt, name, sizeof(name)), v, lo, hi, out, err, sizeof(err)))
		return cli_error(a, "%s", err);
	return 0;
}

static int in_range(const struct cli_args *a, const char *opt, const char *v, unsigned lo,
		    unsigned hi, unsigned *out)
{
	uint64_t n;
	int ret = whole_in(a, opt, v, lo, hi, &n);

	if (!ret)
		*out = (unsigned)n;
	return ret;
}

/* A simulated time: "2s", "500ms", "300us", or seconds without a unit. */
static int duration(const struct cli_args *a, const char *opt, const char *v, uint64_t lo_ns,
		    uint64_t hi_ns, uint64_t *ns)
{
	char name[48], err[300];

	if (hws_parse_duration(dashed(opt, name, sizeof(name)), v, lo_ns, hi_ns, ns, err,
			       sizeof(err)))
		return cli_error(a, "%s", err);
	return 0;
}

/* --cost k=v,...: the machine's costs and the scheduler's prices, each in its range. */
static int costs(struct cli_args *a, const char *opt, const char *v)
{
	struct machine_opts *m = &a->mo;
	struct sched_costs *sc = &m->sched_opts.costs;
	const struct hws_kv keys[] = {
		{ "ctx_switch_ns", HWS_KV_DOUBLE, 0, 1e9, &m->costs.ctx_switch_ns },
		{ "migrate_cold_ns", HWS_KV_DOUBLE, 0, 1e9, &m->costs.migrate_cold_ns },
		{ "remote_node_ns", HWS_KV_DOUBLE, 0, 1e9, &m->costs.remote_node_ns },
		{ "smt_speed", HWS_KV_DOUBLE, 0.01, 1, &m->costs.smt_speed },
		{ "wake_idle_ns", HWS_KV_DOUBLE, 0, 1e9, &m->costs.wake_idle_ns },
		{ "wake_idle_deep_ns", HWS_KV_DOUBLE, 0, 1e9, &m->costs.wake_idle_deep_ns },
		{ "halt_poll_ns", HWS_KV_DOUBLE, 0, 1e9, &m->costs.halt_poll_ns },
		{ "wake_local_ns", HWS_KV_DOUBLE, 0, 1e9, &m->costs.wake_local_ns },
		{ "preempt_local_ns", HWS_KV_DOUBLE, 0, 1e9, &m->costs.preempt_local_ns },
		{ "preempt_irq_ns", HWS_KV_DOUBLE, 0, 1e9, &m->costs.preempt_irq_ns },
		{ "preempt_remote_ns", HWS_KV_DOUBLE, 0, 1e9, &m->costs.preempt_remote_ns },
		{ "bus_ns", HWS_KV_DOUBLE, 0, 1e9, &sc->bus_ns },
		{ "engine_clk_ns", HWS_KV_DOUBLE, 0, 1e9, &sc->engine_clk_ns },
		{ "sw_op_ns", HWS_KV_DOUBLE, 0, 1e9, &sc->sw_op_ns },
		{ "sw_cpu_ns", HWS_KV_DOUBLE, 0, 1e9, &sc->sw_cpu_ns },
		{ "sw_base_ns", HWS_KV_DOUBLE, 0, 1e9, &sc->sw_base_ns },
	};
	char name[48], err[400];
	uint64_t given, twice;
	size_t k;

	if (!*v)
		return cli_error(a, "--%s '': expected key=value,...", opt);
	if (hws_parse_kv(dashed(opt, name, sizeof(name)), v, keys, sizeof(keys) / sizeof(keys[0]),
			 &given, err, sizeof(err)))
		return cli_error(a, "%s", err);
	/* each key once, inside one --cost as across several */
	twice = given & a->cost_given;
	for (k = 0; twice && !(twice >> k & 1); k++)
		;
	if (twice)
		return cli_error(a, "--%s: key '%s' given twice (in two --%s options)", opt,
				 keys[k].key, opt);
	a->cost_given |= given;
	return 0;
}

/* ---- What each option sets ---- */

typedef int (*cli_set_fn)(struct cli_args *a, const char *opt, const char *v);

static int set_seed(struct cli_args *a, const char *opt, const char *v)
{
	uint64_t n;
	int ret = whole_in(a, opt, v, 0, UINT64_MAX, &n);

	if (!ret) {
		a->ro.seed = n;
		a->mo.seed = n;
	}
	return ret;
}

static int set_commands(struct cli_args *a, const char *opt, const char *v)
{
	return count_in(a, opt, v, 1, CLI_MAX_COMMANDS, &a->ro.commands);
}

static int set_deep_check(struct cli_args *a, const char *opt, const char *v)
{
	return in_range(a, opt, v, 0, 1000000, &a->cfg.deep_check);
}

static int set_backend(struct cli_args *a, const char *opt, const char *v)
{
	char err[300];
	int ret;

	if (!hws_backend_find(v))
		return cli_error(a, "--%s must be one of %s (got '%s')", opt, hws_backend_list(), v);
	ret = hws_backend_check(v, err, sizeof(err));
	if (ret)
		return cli_error(a, "--%s: %s", opt, err);
	a->cfg.backend = v;
	a->mo.sched_opts.engine.backend = v;
	return 0;
}

static int set_wave(struct cli_args *a, const char *opt, const char *v)
{
	(void)opt;
	a->cfg.wave = v;
	a->mo.sched_opts.engine.wave = v;
	return 0;
}

static int set_no_build(struct cli_args *a, const char *opt, const char *v)
{
	(void)a;
	(void)opt;
	(void)v;
	hws_shape_set_build(0);
	return 0;
}

static int set_check_every_lockstep(struct cli_args *a, const char *opt, const char *v)
{
	uint64_t n = 0;
	int ret = whole_in(a, opt, v, 0, 1000000000, &n);

	a->ro.check_every = (unsigned)n;
	return ret;
}

static int set_resets(struct cli_args *a, const char *opt, const char *v)
{
	char name[48], err[400];

	if (hws_parse_real(dashed(opt, name, sizeof(name)), v, 0, 1, &a->ro.resets, err,
			   sizeof(err)))
		return cli_error(a, "%s", err);
	return 0;
}

static int set_check_every(struct cli_args *a, const char *opt, const char *v)
{
	uint64_t n = 0;
	int ret = whole_in(a, opt, v, 0, 1000000000, &n);

	a->mo.check_every = (int)n;
	return ret;
}

/*
 * The options that set engine parameters are regmap/params.def's cli lines
 * (cli/cli_param_opts.h, generated): their rows of the table below, and what each sets.
 */
struct cli_param_opt {
	const char *name;
	unsigned cmds;
	int param[2];		/* the parameters it sets (lib/hws_params.h), -1: none */
	unsigned lo, hi;	/* a number's range; a flag sets the field to 1 */
};

#include "cli/cli_param_opts.h"

/* The fields of struct hws_config that hold the parameters, by parameter. */
static const size_t cfg_offset[HWS_NR_PARAMS] = {
#define CFG_OFFSET(field, NAME) offsetof(struct hws_config, field),
	HWS_PARAMS_FIELDS(CFG_OFFSET)
#undef CFG_OFFSET
};

static int set_param(struct cli_args *a, const char *opt, const char *v)
{
	const struct cli_param_opt *o = NULL;
	unsigned val = 1;
	int ret = 0;

	for (size_t i = 0; i < sizeof(cli_param_opts) / sizeof(cli_param_opts[0]); i++)
		if (!strcmp(cli_param_opts[i].name, opt) && (cli_param_opts[i].cmds & a->cmd))
			o = &cli_param_opts[i];
	if (!o)
		return cli_error(a, "--%s: no engine parameter (regmap/params.def)", opt);
	if (v && (ret = in_range(a, opt, v, o->lo, o->hi, &val)) != 0)
		return ret;
	for (int k = 0; k < 2; k++)
		if (o->param[k] >= 0)
			memcpy((char *)&a->cfg + cfg_offset[o->param[k]], &val, sizeof(val));
	/* the firmware's engine (include/hws/sched.h): the units it can do without */
	a->mo.sched_opts.engine.no_balance = (int)a->cfg.no_balance;
	a->mo.sched_opts.engine.no_err_counters = (int)a->cfg.no_err_counters;
	a->mo.sched_opts.engine.no_irq = (int)a->cfg.no_irq;
	a->mo.sched_opts.engine.lcu_lean = (int)a->cfg.lcu_lean;
	return ret;
}

static int set_engine_tasks(struct cli_args *a, const char *opt, const char *v)
{
	return in_range(a, opt, v, 1, HWS_MAX_NR_TASKS, &a->mo.sched_opts.engine.nr_tasks);
}

static int set_engine_irq(struct cli_args *a, const char *opt, const char *v)
{
	(void)opt;
	(void)v;
	a->mo.sched_opts.engine.irq = 1;
	return 0;
}

static int set_sync_cmds(struct cli_args *a, const char *opt, const char *v)
{
	(void)opt;
	(void)v;
	a->mo.sched_opts.engine.sync_cmds = 1;
	return 0;
}

static int set_quiet(struct cli_args *a, const char *opt, const char *v)
{
	(void)opt;
	(void)v;
	a->quiet = 1;
	return 0;
}

static int set_workload(struct cli_args *a, const char *opt, const char *v)
{
	(void)opt;
	a->mo.workload = v;
	return 0;
}

static int set_topology(struct cli_args *a, const char *opt, const char *v)
{
	struct sched_topo t;
	char err[400];

	if (machine_parse_topology(v, &t, err, sizeof(err)))
		return cli_error(a, "--%s", err);	/* "--" + "topology '...': ..." */
	(void)opt;
	a->mo.topology = v;
	a->topology_given = 1;
	return 0;
}

static int set_sched(struct cli_args *a, const char *opt, const char *v)
{
	if (!sched_find(v))
		return cli_error(a, "--%s must be one of %s (got '%s')", opt, sched_names(), v);
	a->mo.sched = v;
	return 0;
}

static int set_duration(struct cli_args *a, const char *opt, const char *v)
{
	a->duration_given = 1;
	return duration(a, opt, v, CLI_MIN_DURATION_NS, CLI_MAX_DURATION_NS, &a->mo.duration_ns);
}

static int set_no_wake_balance(struct cli_args *a, const char *opt, const char *v)
{
	(void)opt;
	(void)v;
	a->mo.sched_opts.wake_balance = 0;
	return 0;
}

static int set_tick_shares(struct cli_args *a, const char *opt, const char *v)
{
	(void)opt;
	(void)v;
	a->mo.sched_opts.fair.tick_shares = 1;
	return 0;
}

/* --kernel X.Y: the Linux 6.x version eevdf follows (major x 100 + minor). */
static int set_kernel(struct cli_args *a, const char *opt, const char *v)
{
	unsigned major, minor;
	int n = -1;

	if (sscanf(v, "%u.%u%n", &major, &minor, &n) != 2 || n != (int)strlen(v) || major != 6 ||
	    minor > 99 || minor < 6)
		return cli_error(a, "--%s '%s': expected a Linux version 6.6..6.99, e.g. 6.18", opt, v);
	a->mo.sched_opts.fair.kernel = major * 100 + minor;
	a->kernel_given = 1;
	return 0;
}

static int set_flat(struct cli_args *a, const char *opt, const char *v)
{
	(void)opt;
	(void)v;
	a->mo.sched_opts.flat = 1;
	return 0;
}

static int set_hz(struct cli_args *a, const char *opt, const char *v)
{
	a->hz_given = 1;
	return in_range(a, opt, v, 10, 10000, &a->mo.hz);
}

/* --json: "-" is stdout, and then the JSON is all that is printed there (docs/json.md). */
static int set_json(struct cli_args *a, const char *opt, const char *v)
{
	(void)opt;
	a->json_dash = !strcmp(v, "-");
	a->json = a->json_dash ? "/dev/stdout" : v;
	return 0;
}

/* --progress / --no-progress (default: on when stderr is a terminal); not both. */
static int set_progress(struct cli_args *a, const char *opt, const char *v)
{
	int on = !strcmp(opt, "progress");

	(void)v;
	if (a->progress_given && a->progress != on)
		return cli_error(a, "--progress and --no-progress contradict each other: give one");
	a->progress = on;
	a->progress_given = 1;
	return 0;
}

/* trace-info's --json: "-" is stdout, and then the JSON is all that is printed there. */
static int set_json_info(struct cli_args *a, const char *opt, const char *v)
{
	(void)opt;
	a->json_dash = !strcmp(v, "-");
	a->json = a->json_dash ? "/dev/stdout" : v;
	return 0;
}

static int set_top(struct cli_args *a, const char *opt, const char *v)
{
	return in_range(a, opt, v, 0, 1000000, &a->mo.top);
}

static int set_perf_out(struct cli_args *a, const char *opt, const char *v)
{
	(void)opt;
	a->mo.perf_out = v;
	return 0;
}

static int set_svg(struct cli_args *a, const char *opt, const char *v)
{
	(void)opt;
	a->mo.svg = v;
	return 0;
}

static int set_svg_window(struct cli_args *a, const char *opt, const char *v)
{
	char name[48], err[400];

	if (hws_parse_window(dashed(opt, name, sizeof(name)), v, CLI_MAX_DURATION_NS,
			     &a->mo.svg_from_ns, &a->mo.svg_to_ns, err, sizeof(err)))
		return cli_error(a, "%s", err);
	return 0;
}

static int set_bus_latency(struct cli_args *a, const char *opt, const char *v)
{
	char name[48], err[300];

	if (hws_parse_real(dashed(opt, name, sizeof(name)), v, 0, 1e9, &a->vo.bus_latency_ns, err,
			   sizeof(err)))
		return cli_error(a, "%s (ns)", err);
	return 0;
}

static int set_bus_read_latency(struct cli_args *a, const char *opt, const char *v)
{
	char name[48], err[300];

	if (hws_parse_real(dashed(opt, name, sizeof(name)), v, 0, 1e9, &a->vo.bus_read_latency_ns,
			   err, sizeof(err)))
		return cli_error(a, "%s (ns)", err);
	return 0;
}

static int set_bus_write_latency(struct cli_args *a, const char *opt, const char *v)
{
	char name[48], err[300];

	if (hws_parse_real(dashed(opt, name, sizeof(name)), v, 0, 1e9,
			   &a->vo.bus_write_latency_ns, err, sizeof(err)))
		return cli_error(a, "%s (ns)", err);
	return 0;
}

static int set_write_accept(struct cli_args *a, const char *opt, const char *v)
{
	char name[48], err[300];

	if (hws_parse_real(dashed(opt, name, sizeof(name)), v, 0, 1e9, &a->vo.write_accept_ns,
			   err, sizeof(err)))
		return cli_error(a, "%s (ns)", err);
	return 0;
}

static int set_posted_writes(struct cli_args *a, const char *opt, const char *v)
{
	char name[48], err[300];

	if (hws_parse_on_off(dashed(opt, name, sizeof(name)), v, &a->vo.posted_writes, err,
			     sizeof(err)))
		return cli_error(a, "%s", err);
	return 0;
}

static int set_ports(struct cli_args *a, const char *opt, const char *v)
{
	return in_range(a, opt, v, 1, HWS_VP_MAX_PORTS, &a->vo.ports);
}

static int set_no_contention(struct cli_args *a, const char *opt, const char *v)
{
	(void)opt;
	(void)v;
	a->vo.contention = 0;
	return 0;
}

static int set_vp_json(struct cli_args *a, const char *opt, const char *v)
{
	(void)opt;
	a->vp_json = v;
	return 0;
}

static int set_replay_order(struct cli_args *a, const char *opt, const char *v)
{
	static const char *const names[] = { "causal", "tied", "program" };

	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(v, names[i])) {
			a->mo.replay_order = (enum machine_replay_order)i;
			return 0;
		}
	return cli_error(a, "--%s must be causal, tied or program (got '%s')", opt, v);
}

static int set_no_background(struct cli_args *a, const char *opt, const char *v)
{
	(void)opt;
	(void)v;
	a->to.background = 0;
	return 0;
}

static int set_lenient(struct cli_args *a, const char *opt, const char *v)
{
	(void)opt;
	(void)v;
	a->to.lenient = 1;
	return 0;
}

static int set_comm(struct cli_args *a, const char *opt, const char *v)
{
	(void)opt;
	a->to.comm = v;
	return 0;
}

static int set_pid(struct cli_args *a, const char *opt, const char *v)
{
	uint64_t n = 0;
	int ret = whole_in(a, opt, v, 1, TRACE_MAX_PID, &n);

	a->to.pid = (int)n;
	return ret;
}

static int set_tree_of(struct cli_args *a, const char *opt, const char *v)
{
	uint64_t n = 0;
	int ret = whole_in(a, opt, v, 1, TRACE_MAX_PID, &n);

	a->to.tree_of = (int)n;
	return ret;
}

/* ---- The table ---- */

#define L CLI_LOCKSTEP
#define R CLI_RUN
#define V CLI_VP
#define P CLI_REPLAY
#define I CLI_TRACE_INFO

/*
 * One row per option and meaning. An option may have a row per group of commands when it
 * means something else there (--check-every); its help lines are then the group's own.
 * Help: lines separated by '\n', printed beside "--name ARG".
 */
static const struct cli_opt {
	const char *name;
	const char *arg;	/* its value's name in the help, NULL: a flag */
	unsigned cmds;
	cli_set_fn set;
	const char *help;
} opts[] = {
	{ "seed", "S", L | R | V | P, set_seed, "random seed, 0..18446744073709551615 (default 1)" },
	{ "commands", "N", L, set_commands, "command words to write, 1..1e12 (default 100000; k/M/G\nsuffixes ok)" },
	CLI_PARAM_OPTS_size
	{ "backend", "B", L, set_backend,
	  "a driver backend: model, rtl or lockstep (default lockstep);\n"
	  "uart:DEVICE[,baud=N][,clk=HZ][,timeout=MS]: the engine on a\n"
	  "board (make board; or build/board/board_sim's pty);\n"
	  "lockstep:B: the model beside backend B, e.g.\n"
	  "lockstep:uart:/dev/ttyUSB1 (data and responses compared, not\n"
	  "clock edges nor CYCLES, which a serial line cannot see;\n"
	  "docs/board.md)" },
	{ "backend", "B", R | P, set_backend,
	  "engine backend of a scheduler with an engine (hw): model\n(default), rtl, lockstep, "
	  "uart:DEVICE (a board, docs/board.md; run:\nwith the board's shape, e.g. --topology "
	  "core=2 --engine-tasks 64\n--no-hw-balance --no-err-counters; make board-run)" },
	{ "wave", "FILE", L, set_wave, "write an FST waveform of the RTL (rtl and lockstep)" },
	{ "wave", "FILE", R | P, set_wave,
	  "with --sched hw on the rtl or lockstep backend: the engine's FST\nwaveform" },
	{ "no-build", NULL, L | R | V | P, set_no_build,
	  "refuse an engine shape that is not built yet, and print the\ncommand that builds it "
	  "(default: build it, docs/shapes.md)" },
	{ "deep-check", "N", L, set_deep_check,
	  "RTL walks all its lists every N idle cycles, 0..1000000\n(default 0: off)" },
	{ "check-every", "N", L, set_check_every_lockstep,
	  "check the model's invariants every N commands, 0..1e9\n(default 1000)" },
	{ "resets", "RATE", L, set_resets,
	  "0..1: the share of command bursts cut by the engine's reset\n"
	  "pin with commands in flight (in the FIFO or executing), every\n"
	  "register then checked against its reset value (default 0;\n"
	  "backends model, rtl, lockstep; docs/fuzz.md, the soak)" },
	{ "check-every", "N", R | V | P, set_check_every,
	  "deep conservation check every N events, 0..1e9 (default 64;\n0 off)" },
	CLI_PARAM_OPTS_units
	{ "quiet", NULL, L, set_quiet, "print the last line only" },
	{ "workload", "W", R | V, set_workload,
	  "mix:tasks=N,burst=US,sleep=US,msg=P,groups=G,g0=N (default mix;\nsleep=0: CPU-bound; "
	  "g0: the first N tasks in group 0)\nhackbench:groups=G,loops=L (20 senders x 20 receivers "
	  "a group)\ntbench, sysbench, volanomark, kernbench, dbench (docs/workloads.md)\n"
	  "seed workloads and hackbench also: work=X (x their CPU bursts), calib=0\n(no "
	  "calibration on a profile), net=0, fs=0, numa=0 (a contention model\noff; "
	  "docs/simulator.md)" },
	{ "topology", "T", R | V, set_topology,
	  "numa=N,pkg=P,core=C,smt=S, each 1..64, at most 64 CPUs in all\n[,profile=p3xeon4|p3xeon8|numaq16|modern] (default pkg=1,core=4,smt=1)" },
	{ "topology", "T", P, set_topology, "numa=N,pkg=P,core=C,smt=S (default: core=N, N the CPUs the\ntrace shows)" },
	{ "sched", "S", R | V | P, set_sched, "hw (default), o1, linux24, cfs, eevdf" },
	{ "duration", "D", R | V, set_duration,
	  "simulated time limit, 1us..3600s, e.g. 500ms, 2s (default 1s;\nhackbench ends when its tasks exit)" },
	{ "no-wake-balance", NULL, R | V | P, set_no_wake_balance,
	  "no select_idle_sibling on wakeups" },
	{ "kernel", "X.Y", R | V | P, set_kernel,
	  "eevdf: the Linux version it follows, 6.6..6.99 (default 6.6; replay:\nthe trace's "
	  "sidecar): 6.12's delayed dequeue and short-slice\npreemption, 6.15's 0.70 ms slice "
	  "(docs/eevdf.md)" },
	{ "tick-shares", NULL, R | V | P, set_tick_shares,
	  "cfs/eevdf: update task groups' shares once per tick only\n(2.6.26-rc), not at every "
	  "enqueue and dequeue" },
	{ "flat", NULL, R | V, set_flat,
	  "hw/o1: one flat balancing domain over all CPUs (2.6.0 before\nsched domains) instead of "
	  "the SMT/MC/package/NUMA levels" },
	CLI_PARAM_OPTS_run
	{ "engine-tasks", "N", R, set_engine_tasks,
	  "hw: the engine's task table, 1..4096 (default: the smallest power\nof 2 >= 256 that "
	  "holds the workload): a smaller build's, e.g. the\nboard's 64 (--backend uart:DEV, "
	  "docs/board.md); a workload with\nmore tasks is refused" },
	{ "engine-irq", NULL, R | V, set_engine_irq,
	  "hw: the firmware learns of wake-up preemption from the engine's\n"
	  "interrupt (IRQ_PEND lines; it keeps CURR[cpu] right) instead of\n"
	  "comparing priorities itself (docs/firmware.md; not with --no-irq)" },
	{ "sync-cmds", NULL, R | V, set_sync_cmds,
	  "hw: the synchronous bus protocol: every command waits for its\ncompletion read "
	  "(no posted writes, no POP/PEEKW reads;\ndocs/firmware.md; a bus that cannot reach the "
	  "windows uses it\nanyway)" },
	{ "hz", "N", R | V, set_hz, "timer ticks per second, 10..10000 (default 1000)" },
	{ "hz", "N", P, set_hz,
	  "the traced kernel's timer ticks per second, 10..10000 (default:\nthe trace's sidecar, "
	  "else 1000)" },
	{ "replay-order", "O", P, set_replay_order,
	  "causal (default): each sleep waits for the wake that ended it in\nLinux, a wake that "
	  "comes first is held there; tied: the same, but\na wake that comes first lets the sleep "
	  "pass; program: a sleep waits\nfor any task's wake (a mailbox). docs/trace.md" },
	{ "json", "FILE|-", L, set_json,
	  "the summary as JSON (docs/json.md); -: the JSON alone on stdout,\nthe report on stderr" },
	{ "json", "FILE|-", R | V, set_json,
	  "write the results as JSON too (docs/json.md); -: the JSON alone\non stdout, the report on stderr" },
	{ "json", "FILE|-", P, set_json,
	  "both sides: makespan_ms, cpu_time_ms, busy_pct, wakeup_latency_us\n{p50,p90,p99,max}, "
	  "migrations, switches, wake_path under linux\nand replay (and held_wakes); each goal's "
	  "verdict under check;\nthe reader's counts under reader (docs/trace.md, docs/json.md);\n-: the JSON alone on stdout, the report on stderr" },
	{ "json", "FILE|-", I, set_json_info,
	  "the same as JSON, one key a line: the reader's counts (lines,\n"
	  "skipped, warnings, anomalies by kind, absorbed), CPUs, tasks,\n"
	  "and every figure system-wide and for the kept tasks (wl_);\n"
	  "-: the JSON alone on stdout (a sidecar's \"linux\" member)" },
	{ "progress", NULL, L | R | V | P, set_progress,
	  "percent, rate and ETA on one stderr line, 4 times a second at\nmost (default: only when stderr is a terminal)" },
	{ "no-progress", NULL, L | R | V | P, set_progress, "no progress line, even on a terminal" },
	{ "cost", "k=v,...", R | V | P, costs,
	  "cost model: ctx_switch_ns, migrate_cold_ns, remote_node_ns,\nbus_ns, "
	  "engine_clk_ns, sw_op_ns, sw_cpu_ns, sw_base_ns, the wake\npath's wake_idle_ns, "
	  "wake_idle_deep_ns, halt_poll_ns, wake_local_ns,\npreempt_local_ns, preempt_irq_ns, "
	  "preempt_remote_ns (each 0..1e9 ns;\nreplay: the trace machine's, docs/trace.md), "
	  "smt_speed (0.01..1); each\nkey once (vp: bus_ns is not used, the bus is modelled)" },
	{ "top", "N", R | V | P, set_top, "tasks in the per-task table, by max delay, 0..1000000\n(default 10)" },
	{ "svg", "FILE", R | V | P, set_svg,
	  "a timeline: one lane per CPU, bursts coloured by task (by group\nwhen there are groups), "
	  "wakeup delays and migrations marked" },
	{ "svg-window", "START:END", R | V | P, set_svg_window,
	  "--svg draws only this span, e.g. 0.5s:0.6s or 100ms:120ms (from\nthe run's start; "
	  "replay: from the axis's 0)" },
	{ "perf-out", "FILE", R | V | P, set_perf_out,
	  "the run's scheduling events as the perf script text of perf sched\nrecord, for "
	  "hwsched trace-info or replay (docs/trace.md)" },
	{ "bus-latency", "NS", V, set_bus_latency,
	  "the interconnect's round trip per access, 0..1e9 ns, added to\nthe engine's own clock "
	  "edges (default 0)" },
	{ "bus-read-latency", "NS", V, set_bus_read_latency,
	  "a read's round trip, 0..1e9 ns (default: --bus-latency)" },
	{ "bus-write-latency", "NS", V, set_bus_write_latency,
	  "a write's round trip, 0..1e9 ns (default: --bus-latency)" },
	{ "posted-writes", "on|off", V, set_posted_writes,
	  "on (default): a write costs its CPU only --write-accept, travels\nand is served "
	  "later; a read waits behind its CPU's posted writes.\noff: a write waits for its "
	  "response like a read" },
	{ "write-accept", "NS", V, set_write_accept,
	  "what a posted write costs its CPU, 0..1e9 ns (default 0)" },
	{ "ports", "N", V, set_ports,
	  "engine ports, 1..64 and at most the CPUs: CPU c uses port\nc x N / CPUs; each port "
	  "serves one access at a time (default 1)" },
	{ "no-contention", NULL, V, set_no_contention,
	  "accesses never wait for their port (default: they do)" },
	{ "vp-json", "FILE", V, set_vp_json, "the bus figures and the per-decision table as JSON" },
	{ "no-background", NULL, P, set_no_background,
	  "replay the workload's tasks alone (default: the trace's other\ntasks too, kernel "
	  "threads and the recorder, as background that\nruns but is not counted)" },
	{ "lenient", NULL, P | I, set_lenient,
	  "skip malformed lines (counted) instead of stopping at the first" },
	{ "comm", "C", P | I, set_comm, "keep only the tasks whose comm was C" },
	{ "pid", "P", P | I, set_pid, "keep only this pid, 1..4194304" },
	{ "tree-of", "P", P | I, set_tree_of,
	  "keep this pid and its descendants (default: the workload, the\nprocess tree of "
	  "perf-exec)" },
};

#undef L
#undef R
#undef V
#undef P
#undef I

#define NR_OPTS (sizeof(opts) / sizeof(opts[0]))

static const struct {
	enum cli_cmd cmd;
	const char *name;
	const char *synopsis;	/* after "usage: hwsched NAME " */
	const char *intro;	/* what it does; %1$s is the program */
} cmds[] = {
	{ CLI_LOCKSTEP, "lockstep", "[OPTIONS]",
	  "Drives the engine with N random commands, legal and illegal mixed (every opcode,\n"
	  "every error code, FIFO overflow and underflow, bad bus accesses), occupancy\n"
	  "driven from empty to the full task table and back. On the lockstep backend every\n"
	  "register read and every bus response is compared between the C model and the\n"
	  "Verilated RTL, including the clock edges each transaction takes; the first\n"
	  "mismatch stops the run and names the command number, the command and both\n"
	  "answers. Every outcome is also checked against what the spec predicts.\n"
	  "lockstep:uart:DEVICE checks an engine on a board the same way against the model\n"
	  "(docs/board.md).\n" },
	{ CLI_RUN, "run", "[OPTIONS]",
	  "Simulates a machine of the given topology running the workload, scheduled by the\n"
	  "O(1) firmware on the engine (hw), the same policy on plain C run queues (o1) or\n"
	  "the Linux 2.4 scheduler (linux24), and reports throughput, wakeup latency,\n"
	  "run-queue wait, switches, migrations, per-CPU busy %, group shares, idle-core\n"
	  "violations, scheduler overhead and engine traffic. docs/simulator.md.\n" },
	{ CLI_VP, "vp", "[OPTIONS]",
	  "Runs the machine of 'run' on the SystemC virtual platform (docs/vp.md): each CPU a\n"
	  "TLM-2.0 initiator running the same firmware and driver, the Verilated engine a\n"
	  "TLM-2.0 target behind an interconnect with a latency per access (reads and writes\n"
	  "apart), posted writes and engine ports the CPUs contend for. Scheduler overhead is\n"
	  "the bus time charged to the CPUs. Prints the report of 'run', then per scheduling\n"
	  "decision (scheduler call) its count, MMIO accesses, bus time and engine cycles\n"
	  "(mean and p99).\n" },
	{ CLI_REPLAY, "replay", "TRACE [OPTIONS]",
	  "Rebuilds each task of a `perf script` text of `perf sched record` (plain or .gz):\n"
	  "its CPU bursts, its sleeps and who ended them, forks and exits; replays that task\n"
	  "graph on the simulated machine and prints the replay beside what Linux did in\n"
	  "the trace. docs/trace.md (the reader), docs/simulator.md (the replay).\n" },
	{ CLI_TRACE_INFO, "trace-info", "TRACE [OPTIONS]",
	  "Reads a `perf script` text of `perf sched record` (plain or .gz) as replay does and\n"
	  "prints what the reader made of it (lines, skipped lines, anomalies by kind, steps\n"
	  "back in time absorbed) and what Linux did: duration, makespan, CPU time, busy %\n"
	  "per CPU, switches, migrations and wakeup latency, system-wide and for the kept\n"
	  "tasks. Runs no replay. docs/trace.md; traces/README.md (the sidecars).\n" },
};

#define NR_CMDS (sizeof(cmds) / sizeof(cmds[0]))

/* What follows the options in each command's help. */
static void usage_tail(enum cli_cmd cmd, FILE *f)
{
	switch (cmd) {
	case CLI_LOCKSTEP:
		fprintf(f, "\nThe RTL exists for %s.\n"
			   "Last line: 'lockstep: N commands, M mismatches'; exit 0 iff M is 0 and "
			   "nothing\nelse failed.\n", cli_rtl_shapes());
		break;
	case CLI_VP:
		fprintf(f, "\n'%s run --sched hw --backend rtl --cost bus_ns=B' equals '%s vp "
			   "--bus-latency L\n--posted-writes off --no-contention' when B = L + 2 x engine_clk_ns: the same "
			   "decisions, the same report.\nNeeds build/hwsched_vp (make vp) beside this "
			   "executable.\n", cli_prog, cli_prog);
		break;
	default:
		break;
	}
}

enum cli_cmd cli_cmd_of(const char *name)
{
	size_t i;

	for (i = 0; i < NR_CMDS; i++)
		if (!strcmp(cmds[i].name, name))
			return cmds[i].cmd;
	return 0;
}

static const char *cmd_name(enum cli_cmd cmd)
{
	size_t i;

	for (i = 0; i < NR_CMDS; i++)
		if (cmds[i].cmd == cmd)
			return cmds[i].name;
	return "?";
}

/* One option's help: "  --name ARG" then its lines, aligned. */
static void usage_opt(const struct cli_opt *o, FILE *f)
{
	char head[48];
	const char *h = o->help, *nl;
	int n;

	n = snprintf(head, sizeof(head), "  --%s%s%s", o->name, o->arg ? " " : "",
		     o->arg ? o->arg : "");
	fprintf(f, "%-20s", head);
	if (n >= 19)
		fprintf(f, "\n%-20s", "");
	for (;;) {
		nl = strchr(h, '\n');
		fprintf(f, "%.*s\n", nl ? (int)(nl - h) : (int)strlen(h), h);
		if (!nl)
			break;
		fprintf(f, "%-20s", "");
		h = nl + 1;
	}
}

void cli_usage(enum cli_cmd cmd, FILE *f)
{
	size_t i;

	if (!cmd) {
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
			"  trace-info what the trace reader makes of a trace, and what Linux did on it\n"
			"  vp         run a workload on the SystemC virtual platform: the engine on a\n"
			"             TLM-2.0 bus with a latency per access (make vp builds it)\n"
			"  help [C]   this text, or the options of command C\n"
			"  --version  print '%s VERSION' and exit (every command takes it)\n"
			"\n"
			"Run '%s COMMAND --help' for the options of a command. Exit status: 0 done,\n"
			"1 a failure at run time, 2 bad usage or input, 130 interrupted (Ctrl-C).\n",
			cli_prog, cli_prog, cli_prog);
		return;
	}
	for (i = 0; i < NR_CMDS && cmds[i].cmd != cmd; i++)
		;
	fprintf(f, "usage: %s %s %s\n\n%s\n", cli_prog, cmds[i].name, cmds[i].synopsis,
		cmds[i].intro);
	for (i = 0; i < NR_OPTS; i++)
		if (opts[i].cmds & cmd)
			usage_opt(&opts[i], f);
	fprintf(f, "%-20s%s\n", "  --help", "this text");
	fprintf(f, "%-20s%s\n", "  --version", "print 'hwsched VERSION' and exit");
	usage_tail(cmd, f);
	fprintf(f, "\nNumbers are decimal and strict: a whole number where one is meant (no\n"
		   "fraction, sign or overflow), no nan or inf; each has the range its help\n"
		   "states. Output files are written through a temporary file renamed over\n"
		   "the target; a directory or a block device is refused, /dev/null, a pipe\n"
		   "or /dev/stdout are written into, never replaced. Errors: '%s %s: ...'\n"
		   "on stderr. Exit status: 0 done, 1 a failure at run time, 2 bad usage or\n"
		   "input (nothing run), 130 interrupted (Ctrl-C: the partial summary).\n",
		   cli_prog, cmd_name(cmd));
}

/* The commands that take option @name, for the message to a command that does not. */
static void takers(const char *name, char *buf, size_t len)
{
	static const enum cli_cmd order[] = { CLI_RUN, CLI_VP, CLI_REPLAY, CLI_TRACE_INFO,
					       CLI_LOCKSTEP };
	const unsigned nr = sizeof(order) / sizeof(order[0]);
	unsigned mask = 0, k, n = 0, total = 0;
	size_t i, used = 0;

	for (i = 0; i < NR_OPTS; i++)
		if (!strcmp(opts[i].name, name))
			mask |= opts[i].cmds;
	for (k = 0; k < nr; k++)
		total += !!(mask & order[k]);
	buf[0] = '\0';
	for (k = 0; k < nr && used < len; k++) {
		if (!(mask & order[k]))
			continue;
		n++;
		used += (size_t)snprintf(buf + used, len - used, "%s'%s'",
					 n == 1 ? "" : n == total ? " and " : ", ",
					 cmd_name(order[k]));
	}
}

static void defaults(struct cli_args *a, enum cli_cmd cmd)
{
	memset(a, 0, sizeof(*a));
	a->cmd = cmd;
	a->cmd_name = cmd_name(cmd);
	hws_config_default(&a->cfg);
	a->cfg.backend = "lockstep";
	a->ro.seed = 1;
	a->ro.commands = 100000;
	a->ro.check_every = 1000;
	machine_default_opts(&a->mo);
	if (cmd == CLI_REPLAY) {
		machine_replay_defaults(&a->mo);
		a->to.background = 1;
	}
	a->mo.duration_ns = 1000000000ull;
	a->progress = isatty(2);
	a->mo.top = 10;
	hws_vp_opts_default(&a->vo);
}

/* A backend that simulates the RTL, the one --wave can dump. */
static int rtl_backend(const char *b)
{
	return b && (!strcmp(b, "rtl") || !strcmp(b, "lockstep") || !strcmp(b, "lockstep:rtl"));
}

/*
 * The options that mean something only to a scheduler that uses a part of struct
 * sched_opts (include/hws/sched.h, SCHED_USES_*): given to one that does not, they would
 * do nothing, so they are refused, naming both.
 */
static const struct {
	const char *name;
	unsigned uses;		/* SCHED_USES_* the scheduler must have */
	const char *scheds;	/* the schedulers that have it, in the message */
} needs[] = {
	{ "backend", SCHED_USES_ENGINE, "--sched hw" },
	{ "sync-cmds", SCHED_USES_ENGINE, "--sched hw" },
	{ "engine-irq", SCHED_USES_ENGINE, "--sched hw" },
	{ "no-hw-balance", SCHED_USES_ENGINE, "--sched hw" },
	{ "bal-lean", SCHED_USES_ENGINE, "--sched hw" },
	{ "no-err-counters", SCHED_USES_ENGINE, "--sched hw" },
	{ "no-irq", SCHED_USES_ENGINE, "--sched hw" },
	{ "engine-tasks", SCHED_USES_ENGINE, "--sched hw" },
	{ "bus-latency", SCHED_USES_ENGINE, "--sched hw (the engine on the bus)" },
	{ "bus-read-latency", SCHED_USES_ENGINE, "--sched hw (the engine on the bus)" },
	{ "bus-write-latency", SCHED_USES_ENGINE, "--sched hw (the engine on the bus)" },
	{ "posted-writes", SCHED_USES_ENGINE, "--sched hw (the engine on the bus)" },
	{ "write-accept", SCHED_USES_ENGINE, "--sched hw (the engine on the bus)" },
	{ "ports", SCHED_USES_ENGINE, "--sched hw (the engine on the bus)" },
	{ "no-contention", SCHED_USES_ENGINE, "--sched hw (the engine on the bus)" },
	{ "flat", SCHED_USES_DOMAINS, "--sched hw, o1, cfs or eevdf (sched domains)" },
	{ "no-wake-balance", SCHED_USES_DOMAINS, "--sched hw, o1, cfs or eevdf (sched domains)" },
	{ "tick-shares", SCHED_USES_FAIR, "--sched cfs or eevdf (task groups' shares)" },
};

/* The options given, by name, for the checks that need to know what was said. */
static int given(const unsigned char *said, const char *name)
{
	size_t i;

	for (i = 0; i < NR_OPTS; i++)
		if (said[i] && !strcmp(opts[i].name, name))
			return 1;
	return 0;
}

/* Options that would do nothing in the mode chosen: 0, or 2 with the message printed. */
static int check_meaningful(const struct cli_args *a, const unsigned char *said)
{
	const struct sched_ops *ops = sched_find(a->mo.sched);
	size_t i;

	if (a->cmd != CLI_LOCKSTEP && a->cmd != CLI_TRACE_INFO && ops)
		for (i = 0; i < sizeof(needs) / sizeof(needs[0]); i++)
			if (given(said, needs[i].name) && !(ops->uses & needs[i].uses))
				return cli_error(a, "--%s is an option of %s (got '%s', which would "
						 "ignore it)", needs[i].name, needs[i].scheds,
						 a->mo.sched);
	if (a->cmd == CLI_LOCKSTEP && given(said, "deep-check") && !rtl_backend(a->cfg.backend))
		return cli_error(a, "--deep-check walks the RTL's lists: --backend %s has no RTL "
				 "(rtl or lockstep)", a->cfg.backend);
	if (a->cmd == CLI_VP && given(said, "write-accept") && !a->vo.posted_writes)
		return cli_error(a, "--write-accept is what a posted write costs: with "
				 "--posted-writes off there is none, so it would do nothing");
	return 0;
}

/*
 * Two outputs to one file: the second would replace the first. The same spelling, or the
 * same existing file; a character device (/dev/null, a terminal) may take several.
 */
static int check_distinct_outputs(const struct cli_args *a)
{
	const struct { const char *opt, *path; } out[] = {
		{ "json", a->json }, { "svg", a->mo.svg }, { "vp-json", a->vp_json },
		{ "perf-out", a->mo.perf_out }, { "wave", a->cfg.wave },
	};
	const size_t n = sizeof(out) / sizeof(out[0]);
	struct stat si, sj;
	size_t i, j;

	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++) {
			int same;

			if (!out[i].path || !out[j].path)
				continue;
			if (!stat(out[i].path, &si) && S_ISCHR(si.st_mode))
				continue;
			same = !strcmp(out[i].path, out[j].path) ||
			       (!stat(out[i].path, &si) && !stat(out[j].path, &sj) &&
				si.st_dev == sj.st_dev && si.st_ino == sj.st_ino);
			if (same)
				return cli_error(a, "--%s and --%s name the same file (%s): refused, "
						 "one would replace the other", out[i].opt, out[j].opt,
						 out[j].path);
		}
	return 0;
}

/*
 * Long options are taken as written, never abbreviated (getopt_long would take "--c" for
 * the one option starting so, and another option added later would change its meaning):
 * 0, or 2 with the message printed, naming the options the prefix could mean.
 */
static int check_spelled_out(const struct cli_args *a, int argc, char **argv,
			     const struct option *lo)
{
	int k;

	for (k = 1; k < argc; k++) {
		const char *s = argv[k];
		size_t n, j, used = 0;
		int exact = -1;
		char cand[200];

		if (!strcmp(s, "--"))
			break;
		if (strncmp(s, "--", 2))
			continue;
		s += 2;
		n = strcspn(s, "=");
		for (j = 0; lo[j].name; j++)
			if (strlen(lo[j].name) == n && !strncmp(lo[j].name, s, n))
				exact = (int)j;
		if (exact >= 0) {
			/* "--opt VALUE": the value is not an option, even when it starts "--" */
			if (lo[exact].has_arg == required_argument && !s[n])
				k++;
			continue;
		}
		cand[0] = '\0';
		for (j = 0; lo[j].name; j++)
			if (!strncmp(lo[j].name, s, n) && used < sizeof(cand))
				used += (size_t)snprintf(cand + used, sizeof(cand) - used, "%s--%s",
							 used ? ", " : "", lo[j].name);
		if (used)
			return cli_error(a, "--%.*s: options are taken as written, not abbreviated "
					 "(it starts %s)", (int)n, s, cand);
		return cli_error(a, "--%.*s: no such option (%s %s --help lists them)", (int)n, s,
				 cli_prog, a->cmd_name);
	}
	return 0;
}

/*
 * The output files, checked once every option is known and before any run (lib/hws_out.h):
 * 0, or 2 with the message printed.
 */
static int check_outputs(const struct cli_args *a)
{
	const struct { const char *path; unsigned flags; } out[] = {
		{ a->json, 0 }, { a->mo.svg, 0 }, { a->vp_json, 0 }, { a->mo.perf_out, 0 },
		{ a->cfg.wave, HWS_OUT_SEEKABLE },
	};
	const struct sched_ops *ops = sched_find(a->mo.sched);
	char err[400];
	size_t i;

	if (a->cfg.wave) {
		if (a->cmd != CLI_LOCKSTEP && (!ops || !(ops->uses & SCHED_USES_ENGINE)))
			return cli_error(a, "--wave is the engine's waveform: it needs --sched hw "
					    "(got '%s')", a->mo.sched);
		if (!rtl_backend(a->cmd == CLI_LOCKSTEP ? a->cfg.backend :
			 a->mo.sched_opts.engine.backend))
			return cli_error(a, "--wave needs a backend that simulates the RTL (rtl or "
					    "lockstep; got '%s')", a->cmd == CLI_LOCKSTEP ?
					 a->cfg.backend : a->mo.sched_opts.engine.backend);
	}
	if (a->kernel_given && strcmp(a->mo.sched, "eevdf"))
		return cli_error(a, "--kernel is an option of --sched eevdf (got '%s')", a->mo.sched);
	for (i = 0; i < sizeof(out) / sizeof(out[0]); i++)
		if (out[i].path && hws_out_check(out[i].path, out[i].flags, err, sizeof(err)))
			return cli_error(a, "%s", err);
	return 0;
}

int cli_check_not_input(const struct cli_args *a, const char *input)
{
	const struct { const char *opt, *path; } out[] = {
		{ "json", a->json }, { "svg", a->mo.svg }, { "wave", a->cfg.wave },
		{ "vp-json", a->vp_json }, { "perf-out", a->mo.perf_out },
	};
	struct stat in, st;
	size_t i;

	/* a missing input is the reader's to name; a device is written into, not replaced */
	if (stat(input, &in) || S_ISCHR(in.st_mode))
		return 0;
	for (i = 0; i < sizeof(out) / sizeof(out[0]); i++)
		if (out[i].path && !stat(out[i].path, &st) && st.st_dev == in.st_dev &&
		    st.st_ino == in.st_ino)
			return cli_error(a, "--%s %s is the input trace %s (the same file): refused, "
					 "the trace is left as it is", out[i].opt,
					 a->json_dash && out[i].path == a->json ? "-" : out[i].path,
					 input);
	return 0;
}

int cli_parse(struct cli_args *a, enum cli_cmd cmd, int argc, char **argv, int *first_arg)
{
	static struct option lo[NR_OPTS + 3];
	unsigned char said[NR_OPTS];
	size_t i, j, n = 0;
	int c, idx;

	defaults(a, cmd);
	/* getopt's table: every option name once (those of other commands too, to name them). */
	for (i = 0; i < NR_OPTS; i++) {
		for (j = 0; j < n && strcmp(lo[j].name, opts[i].name); j++)
			;
		if (j < n)
			continue;
		lo[n++] = (struct option){ opts[i].name, opts[i].arg ? required_argument : no_argument,
					   NULL, 0 };
	}
	lo[n++] = (struct option){ "help", no_argument, NULL, 'h' };
	lo[n++] = (struct option){ "version", no_argument, NULL, 'V' };
	lo[n] = (struct option){ NULL, 0, NULL, 0 };
	if (check_spelled_out(a, argc, argv, lo))
		return 2;
	memset(said, 0, sizeof(said));
	optind = 1;
	opterr = 1;
	while ((c = getopt_long(argc, argv, "h", lo, &idx)) != -1) {
		const char *name;
		char who[96];

		if (c == 'h') {
			cli_usage(cmd, stdout);
			return 0;
		}
		if (c == 'V') {
			printf("%s %s\n", cli_prog, hws_version());
			return 0;
		}
		if (c != 0) {
			cli_usage(cmd, stderr);
			return 2;
		}
		name = lo[idx].name;
		for (i = 0; i < NR_OPTS && (strcmp(opts[i].name, name) || !(opts[i].cmds & cmd)); i++)
			;
		if (i == NR_OPTS) {
			takers(name, who, sizeof(who));
			return cli_error(a, "--%s is an option of %s", name, who);
		}
		if (opts[i].set(a, name, optarg))
			return 2;
		said[i] = 1;
	}
	*first_arg = optind;
	if (check_meaningful(a, said) || check_distinct_outputs(a))
		return 2;
	return check_outputs(a) ? 2 : -1;
}

FILE *cli_json_begin(const struct cli_args *a, struct hws_out *o, const char *path, int *ret)
{
	char err[400];

	fflush(stdout);	/* the report so far before anything the JSON's writing prints */
	if (hws_out_open(o, path, 0, err, sizeof(err))) {
		*ret = cli_fail(a, "%s", err);
		return NULL;
	}
	fputs("{\n  ", o->f);
	hws_json_provenance(o->f);
	return o->f;
}

void cli_args_free(struct cli_args *a)
{
	while (a->nowned)
		free(a->owned[--a->nowned]);
}

const char *cli_rtl_shapes(void)
{
	const struct hws_backend *b = hws_backend_find("rtl");

	if (!b)
		return "none (this program has no Verilator harness)";
	return b->shapes ? b->shapes() : "any";
}
