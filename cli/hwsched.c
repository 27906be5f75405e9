/*
 * hwsched - the project's command line.
 *
 *   hwsched lockstep ...   random commands through the engine, model and RTL compared
 *   hwsched run ...        a workload on a simulated machine under one scheduler
 *   hwsched replay ...     a perf sched trace replayed on the machine, beside Linux
 *   hwsched trace-info ... what the reader makes of a trace, and what Linux did on it
 *   hwsched vp ...         the same on the SystemC virtual platform (build/hwsched_vp)
 *   hwsched help [CMD]     usage
 *   hwsched --version      'hwsched VERSION' (every command takes --version too)
 *
 * Everything it prints comes from cli/; the libraries below it never print. Options are
 * in one table (cli_options.c), each command in its own unit (cli.h).
 */
#include <string.h>

#include "cli/cli.h"

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
} commands[] = {
	{ "lockstep", cli_lockstep },
	{ "run", cli_run },
	{ "replay", cli_replay },
	{ "trace-info", cli_trace_info },
	{ "vp", cli_vp },
};

static int help(int argc, char **argv)
{
	enum cli_cmd cmd = argc > 2 ? cli_cmd_of(argv[2]) : 0;

	if (argc > 2 && !cmd) {
		fprintf(stderr, "%s: no command '%s'\n", cli_prog, argv[2]);
		return 2;
	}
	cli_usage(cmd, stdout);
	return 0;
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		cli_usage(0, stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return help(1, argv);
	if (!strcmp(argv[1], "--version")) {
		printf("%s %s\n", cli_prog, hws_version());
		return 0;
	}
	if (!strcmp(argv[1], "help"))
		return help(argc, argv);
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].run(argc - 1, argv + 1);
	fprintf(stderr, "%s: unknown command '%s' (try '%s --help')\n", cli_prog, argv[1],
		cli_prog);
	return 2;
}
