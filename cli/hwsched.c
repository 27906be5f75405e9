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
#include <errno.h>
#include <fcntl.h>
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
	enum cli_cmd cmd;

	if (argc > 2 && (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h")))
		argc = 2;	/* help --help: the program's usage */
	if (argc > 3) {
		fprintf(stderr, "%s: help takes one command at most (got '%s' after '%s')\n",
			cli_prog, argv[3], argv[2]);
		return 2;
	}
	cmd = argc > 2 ? cli_cmd_of(argv[2]) : 0;
	if (argc > 2 && !cmd) {
		fprintf(stderr, "%s: no command '%s'\n", cli_prog, argv[2]);
		return 2;
	}
	cli_usage(cmd, stdout);
	return 0;
}

/*
 * What was printed must have reached standard output: a write error there (a full disk,
 * /dev/full, a closed descriptor) fails the command, exit 1, however it ended.
 */
static int finish(int ret)
{
	int e;

	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return ret;
	e = errno;
	fprintf(stderr, "%s: writing standard output: %s\n", cli_prog,
		e ? strerror(e) : "write error");
	return ret ? ret : 1;
}

static int dispatch(int argc, char **argv)
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

int main(int argc, char **argv)
{
	if (fcntl(1, F_GETFD) < 0) {
		/* a file opened later would take descriptor 1 and receive the report */
		fprintf(stderr, "%s: standard output is closed: nowhere to print\n", cli_prog);
		return 1;
	}
	return finish(dispatch(argc, argv));
}
