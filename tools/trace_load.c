/*
 * trace_load.c - small workloads of known shape for tools/record_trace.sh, the ones no
 * standard tool offers (the others are perf bench, make and sh; traces/README.md lists
 * every trace and the command that made it).
 *
 *   trace_load hogs SECS NICE[,NICE...] PERIOD_US:RUN_US
 *       one CPU hog process per NICE (setpriority), each spinning for SECS seconds of
 *       wall time, beside one periodic process that wakes every PERIOD_US (an absolute
 *       clock_nanosleep), spins RUN_US of its own CPU time and sleeps again
 *   trace_load threads SECS N RUN_US SLEEP_US
 *       N threads of one process, each looping: spin RUN_US of its own CPU time, then
 *       nanosleep SLEEP_US (a timer wakeup), for SECS seconds of wall time
 *
 * Spinning is a fixed amount of work, calibrated at start (the fastest of five runs of a million
 * loops against CLOCK_MONOTONIC), so a preempted spinner still does RUN_US of work and
 * makes no system call while it spins (reading a thread's CPU clock would: every read is
 * an update_curr() and a sched_stat_runtime event in the trace). Exit status 0, 1 when a
 * hog cannot take its nice level, 2 on bad usage. Built as build/trace_load (make
 * build/trace_load: cc -std=c11 -Wall -Wextra -Werror -pthread).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double secs;
static long run_us, sleep_us;

static int64_t ns_of(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static double loops_per_us;
static volatile uint64_t sink;

static void spin_loops(uint64_t n)
{
	uint64_t x = sink;

	for (uint64_t i = 0; i < n; i++)
		x = x * 6364136223846793005ull + 1442695040888963407ull;
	sink = x;
}

/* Loops of spin_loops() per microsecond: the fastest of five runs of a million. */
static void calibrate(void)
{
	const uint64_t n = 1000000;
	double best = 0;

	for (int k = 0; k < 5; k++) {
		int64_t t0 = ns_of(CLOCK_MONOTONIC), dt;

		spin_loops(n);
		dt = ns_of(CLOCK_MONOTONIC) - t0;
		if (dt > 0 && n * 1000.0 / (double)dt > best)
			best = n * 1000.0 / (double)dt;
	}
	loops_per_us = best;
}

/* Spin @us microseconds of CPU work. */
static void spin_cpu(long us)
{
	spin_loops((uint64_t)(loops_per_us * (double)us));
}

static int usage(const char *msg)
{
	fprintf(stderr, "trace_load: %s\nusage: trace_load hogs SECS NICE[,NICE...] PERIOD_US:RUN_US\n"
			"       trace_load threads SECS N RUN_US SLEEP_US\n", msg);
	return 2;
}

static int number(const char *s, long lo, long hi, long *out)
{
	char *end;

	errno = 0;
	*out = strtol(s, &end, 10);
	return errno || end == s || *end || *out < lo || *out > hi ? -1 : 0;
}

static void *thread_main(void *arg)
{
	int64_t stop = ns_of(CLOCK_MONOTONIC) + (int64_t)(secs * 1e9);
	struct timespec d = { sleep_us / 1000000, (sleep_us % 1000000) * 1000 };

	(void)arg;
	while (ns_of(CLOCK_MONOTONIC) < stop) {
		spin_cpu(run_us);
		nanosleep(&d, NULL);
	}
	return NULL;
}

static int threads(int argc, char **argv)
{
	long n, i;
	pthread_t tid[64];

	if (argc != 6)
		return usage("threads takes SECS N RUN_US SLEEP_US");
	secs = atof(argv[2]);
	if (secs <= 0 || secs > 60 || number(argv[3], 1, 64, &n) ||
	    number(argv[4], 1, 1000000, &run_us) || number(argv[5], 1, 1000000, &sleep_us))
		return usage("SECS 0..60, N 1..64, RUN_US and SLEEP_US 1..1000000");
	for (i = 0; i < n; i++)
		if (pthread_create(&tid[i], NULL, thread_main, NULL))
			return usage("pthread_create failed");
	for (i = 0; i < n; i++)
		pthread_join(tid[i], NULL);
	return 0;
}

static int hogs(int argc, char **argv)
{
	long period, run, nice_v;
	int64_t stop, next;
	char *list, *tok, *save = NULL, *colon;
	int kids = 0;

	if (argc != 5)
		return usage("hogs takes SECS NICE[,NICE...] PERIOD_US:RUN_US");
	secs = atof(argv[2]);
	colon = strchr(argv[4], ':');
	if (secs <= 0 || secs > 60 || !colon)
		return usage("SECS 0..60; PERIOD_US:RUN_US");
	*colon = 0;
	if (number(argv[4], 100, 10000000, &period) || number(colon + 1, 1, period - 1, &run))
		return usage("PERIOD_US 100..1e7, RUN_US 1..PERIOD_US-1");
	list = argv[3];
	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		pid_t p;

		if (number(tok, -20, 19, &nice_v))
			return usage("NICE: -20..19");
		p = fork();
		if (p == 0) {
			/* a hog at the wrong nice level would mislabel the trace */
			if (setpriority(PRIO_PROCESS, 0, (int)nice_v)) {
				perror("trace_load: setpriority");
				_exit(1);
			}
			stop = ns_of(CLOCK_MONOTONIC) + (int64_t)(secs * 1e9);
			while (ns_of(CLOCK_MONOTONIC) < stop)
				spin_cpu(200);
			_exit(0);
		}
		kids += p > 0;
	}
	/* The periodic task is this process. */
	stop = ns_of(CLOCK_MONOTONIC) + (int64_t)(secs * 1e9);
	next = ns_of(CLOCK_MONOTONIC);
	while (next < stop) {
		struct timespec ts;

		next += period * 1000;
		ts.tv_sec = next / 1000000000;
		ts.tv_nsec = next % 1000000000;
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		spin_cpu(run);
	}
	while (kids-- > 0)
		wait(NULL);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "--help")) {
		printf("usage: trace_load hogs SECS NICE[,NICE...] PERIOD_US:RUN_US\n"
		       "       trace_load threads SECS N RUN_US SLEEP_US\n"
		       "Workloads of known shape for tools/record_trace.sh (see the file's header).\n");
		return 0;
	}
	calibrate();
	if (argc >= 2 && !strcmp(argv[1], "hogs"))
		return hogs(argc, argv);
	if (argc >= 2 && !strcmp(argv[1], "threads"))
		return threads(argc, argv);
	return usage("expected hogs or threads");
}
