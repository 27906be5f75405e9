/*
 * cli.h - the parts of the hwsched command line (cli/hwsched.c is its main).
 *
 *   cli_options.c  the one option table of every command, its parser, the value parsers
 *                  and the one error style: "hwsched CMD: what" on stderr, exit 2 for bad
 *                  usage or input, 1 for a failure at run time
 *   lockstep.c     hwsched lockstep
 *   run.c          hwsched run and hwsched vp
 *   replay.c       hwsched replay
 *   trace_info.c   hwsched trace-info, and the loading of a trace replay shares
 *
 * Only this folder prints; the libraries below it return errors with messages.
 */
#ifndef HWS_CLI_H
#define HWS_CLI_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "hws/hws.h"
#include "sim/machine/machine.h"
#include "sim/stim/hws_randcmd.h"
#include "sim/trace/trace.h"
#include "sim/vp/hws_vp.h"
#include "lib/hws_out.h"
#include "lib/hws_params.h"
#include "lib/hws_parse.h"
#include "lib/hws_version.h"

/*
 * Ranges of the options that have no home below (docs/simulator.md): --commands,
 * --duration (the machine keeps every wakeup's latency: memory grows with simulated time).
 */
#define CLI_MAX_COMMANDS	1000000000000ull	/* 1e12 */
#define CLI_MIN_DURATION_NS	1000ull			/* 1 us */
#define CLI_MAX_DURATION_NS	3600000000000ull	/* 3600 s */

/* The commands, as bits: an option names the commands that take it. */
enum cli_cmd {
	CLI_LOCKSTEP = 1u,
	CLI_RUN = 2u,
	CLI_VP = 4u,
	CLI_REPLAY = 8u,
	CLI_TRACE_INFO = 16u,
};

/* Everything any command can be told; each command reads its own part. */
struct cli_args {
	enum cli_cmd cmd;
	const char *cmd_name;		/* "lockstep", "run", ... */
	/* lockstep */
	struct hws_config cfg;
	struct hws_randcmd_opts ro;
	int quiet;
	/* run, vp, replay */
	struct machine_opts mo;
	int duration_given;
	int topology_given;
	int hz_given;
	int kernel_given;
	const char *json;
	int json_dash;			/* --json -: the JSON alone on stdout */
	int progress;			/* the progress line on stderr (cli/progress.c) */
	int progress_given;		/* --progress or --no-progress was given */
	/* vp */
	struct hws_vp_opts vo;
	const char *vp_json;
	/* replay */
	struct trace_opts to;
	uint64_t cost_given;		/* the --cost keys given so far, a bit each */
	/* owned copies of argument strings the parsers split (freed by cli_args_free) */
	char *owned[8];
	unsigned nowned;
};

/* The program's name in messages. */
extern const char *const cli_prog;

/* cli_error - "hwsched CMD: what" on stderr; returns 2 (bad usage or input). */
int cli_error(const struct cli_args *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* cli_fail - the same for a failure at run time; returns 1. */
int cli_fail(const struct cli_args *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/**
 * cli_parse - parse the options of command @cmd into @a (with every default set first)
 * @a: receives the options
 * @cmd: the command
 * @argc: argument count, argv[0] being the command's name
 * @argv: arguments
 * @first_arg: receives the index of the first argument that is not an option
 *
 * Return: -1 when every option was good; else the exit status (0 after --help, 2 after
 * a bad option, with the message printed).
 */
int cli_parse(struct cli_args *a, enum cli_cmd cmd, int argc, char **argv, int *first_arg);

/*
 * cli_json_begin - open @path for a command's JSON through @o (lib/hws_out.h) and write its
 * opening brace and provenance ("version", "schema"); the caller goes on with ",\n  ..." and
 * ends with hws_out_commit(). Return: the stream, or NULL with *@ret the exit status and the
 * message printed.
 */
FILE *cli_json_begin(const struct cli_args *a, struct hws_out *o, const char *path, int *ret);

/* cli_args_free - free what cli_parse() allocated. */
void cli_args_free(struct cli_args *a);

/* cli_usage - the usage of @cmd (0: the program's) on @f: the intro, then its options. */
void cli_usage(enum cli_cmd cmd, FILE *f);

/*
 * cli_check_not_input - refuse an output file of @a (--json, --svg, --wave) that is the
 * input file @input: the same file by device and inode, whatever the spelling or link
 * (a character device, /dev/null or a terminal, is written into, never replaced, and is
 * not refused). Return: 0, or 2 with the message printed; nothing was written.
 */
int cli_check_not_input(const struct cli_args *a, const char *input);

/*
 * cli_trace_load - read the trace @path with @a's reader options (--lenient, the filters)
 * into *@tr, printing the first warnings and their count (lenient). Return: 0, or the
 * exit status with the reader's message printed (2: a trace that breaks a rule or cannot
 * be opened; 1: out of memory, a read error).
 */
int cli_trace_load(struct cli_args *a, const char *path, struct trace **tr);

/* cli_cmd_of - the command called @name, or 0. */
enum cli_cmd cli_cmd_of(const char *name);

/* What a replay takes from a trace's sidecar (cli/sidecar.c): 0 for what it lacks. */
struct cli_sidecar {
	char path[4096];
	unsigned hz;		/* the traced kernel's CONFIG_HZ */
	unsigned kernel;	/* its version, major x 100 + minor (6.x only) */
	char role[160];		/* "calibration: ...": a trace the trace machine was
				   calibrated on (traces/README.md); "" otherwise */
};

/* cli_sidecar_read - the sidecar beside @trace (NAME.json): 0, -ENOENT without one. */
int cli_sidecar_read(const char *trace, struct cli_sidecar *sc);

/* The commands: each returns the exit status. */
int cli_lockstep(int argc, char **argv);
int cli_run(int argc, char **argv);
int cli_vp(int argc, char **argv);
int cli_replay(int argc, char **argv);
int cli_trace_info(int argc, char **argv);

/*
 * The progress line (cli/progress.c): percent, rate and ETA on one stderr line, rewritten
 * with \r at most 4 times a second and erased by cli_progress_end(). @total 0: unknown
 * (no percent, no ETA). Silent unless @on.
 */
struct cli_progress {
	int on;
	const char *unit;	/* "commands", "simulated s", ... */
	double scale;		/* shown = done / scale (1e9 for ns shown as s) */
	double start, last;	/* monotonic seconds */
	int shown;		/* characters on the line now */
	uint64_t total;		/* cli_progress_sim's: the end of the run, ns (0: unknown) */
};

void cli_progress_start(struct cli_progress *p, int on, const char *unit, double scale);
void cli_progress_update(struct cli_progress *p, uint64_t done, uint64_t total);
void cli_progress_end(struct cli_progress *p);

/*
 * cli_progress_sim - start @p for a run of the simulated machine that ends at @end_ns (0:
 * unknown), hook it to @a->mo (progress, and stop at Ctrl-C) and arm Ctrl-C.
 */
void cli_progress_sim(struct cli_progress *p, struct cli_args *a, const char *unit,
		      uint64_t end_ns);

/*
 * Ctrl-C: cli_interrupt_arm() installs a SIGINT handler that sets cli_interrupted; the
 * runs poll it at their safe points (between commands, between events), stop, print
 * their partial summary and exit with CLI_EXIT_INTERRUPTED. A second Ctrl-C kills.
 */
#define CLI_EXIT_INTERRUPTED 130
extern volatile sig_atomic_t cli_interrupted;
void cli_interrupt_arm(void);

/* cli_report_file - where the human report goes: stderr under --json -, else stdout. */
FILE *cli_report_file(const struct cli_args *a);

/* The engine shapes the rtl backend can simulate, for help texts. */
const char *cli_rtl_shapes(void);

#endif /* HWS_CLI_H */
