/*
 * fuzz_trace.c - libFuzzer target: the perf sched trace reader (sim/trace) on any bytes,
 * strict and lenient (every task kept), then Linux's figures of what it read. Any crash,
 * sanitizer report or broken invariant (below) is a finding. make fuzz (docs/fuzz.md).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sim/trace/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int fd = -1;
static char path[64];

static void check(const struct trace *t)
{
	struct trace_linux m;

	if (t->nr_cpus > TRACE_MAX_CPUS || t->end_ns < t->start_ns)
		abort();
	for (size_t i = 0; i < t->nr_tasks; i++) {
		const struct trace_task *k = &t->tasks[i];

		if (k->pid < 1 || k->pid > TRACE_MAX_PID || k->runtime_ns < 0)
			abort();
		for (size_t j = 0; j < k->nr_segs; j++)
			if (k->segs[j].ns < 0)
				abort();
	}
	if (trace_linux_metrics(t, &m))
		abort();
	for (unsigned c = 0; c < m.nr_cpus; c++)
		if (!(m.busy_pct[c] >= -1e-9 && m.busy_pct[c] <= 100 + 1e-9))
			abort();	/* busy % in 0..100: the time never runs backwards */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct trace_opts lenient = { .lenient = 1, .all = 1 };
	struct trace *t = NULL;
	char err[512];

	if (fd < 0) {
		fd = memfd_create("trace", 0);
		if (fd < 0)
			abort();
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) || (size && pwrite(fd, data, size, 0) != (ssize_t)size))
		abort();
	if (!trace_load(path, NULL, &t, err, sizeof(err))) {
		check(t);
		trace_free(t);
	}
	t = NULL;
	if (!trace_load(path, &lenient, &t, err, sizeof(err))) {
		check(t);
		trace_free(t);
	}
	return 0;
}
