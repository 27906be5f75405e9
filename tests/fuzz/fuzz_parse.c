/*
 * fuzz_parse.c - libFuzzer target: the strict parsers of what a user types (lib/hws_parse:
 * numbers, durations, key=value lists; sim/machine: topologies, workloads) and the cost
 * list of --cost. The first byte picks the parser, the rest is the text. A value accepted
 * outside its range, a crash or a sanitizer report is a finding. make fuzz.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/hws_parse.h"
#include "sim/machine/machine.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char s[320], err[512];
	uint64_t u = 0, given = 0;
	int64_t i = 0;
	double d = 0;
	unsigned k;

	if (!size || size - 1 >= sizeof(s))
		return 0;
	k = data[0] % 8;
	memcpy(s, data + 1, size - 1);
	s[size - 1] = '\0';
	switch (k) {
	case 0:
		if (!hws_parse_uint("x", s, 3, 1000000, &u, err, sizeof(err)) &&
		    (u < 3 || u > 1000000))
			abort();
		break;
	case 1:
		if (!hws_parse_int("x", s, -20, 19, &i, err, sizeof(err)) && (i < -20 || i > 19))
			abort();
		break;
	case 2:
		if (!hws_parse_count("x", s, 1, 1000000000000ull, &u, err, sizeof(err)) &&
		    (u < 1 || u > 1000000000000ull))
			abort();
		break;
	case 3:
		if (!hws_parse_real("x", s, 0.01, 1e9, &d, err, sizeof(err)) &&
		    (!isfinite(d) || d < 0.01 || d > 1e9))
			abort();
		break;
	case 4: {
		uint64_t w0 = 0, w1 = 0;

		if (!hws_parse_duration("x", s, 1000, 3600000000000ull, &u, err, sizeof(err)) &&
		    (u < 1000 || u > 3600000000000ull))
			abort();
		/* the same text as a window, START:END (--svg-window) */
		if (!hws_parse_window("x", s, 3600000000000ull, &w0, &w1, err, sizeof(err)) &&
		    (w1 <= w0 || w1 > 3600000000000ull))
			abort();
		break;
	}
	case 5: {
		unsigned a = 0;
		int b = 0;
		double c = 0;
		const struct hws_kv keys[] = {
			{ "a", HWS_KV_UNSIGNED, 1, 64, &a },
			{ "b", HWS_KV_INT, -20, 19, &b },
			{ "c", HWS_KV_DOUBLE, 0, 1, &c },
			{ "d", HWS_KV_U64, 0, 9007199254740992.0, &u },
		};
		if (!hws_parse_kv("x", s, keys, 4, &given, err, sizeof(err)) &&
		    (given > 15 || ((given & 1) && (a < 1 || a > 64)) ||
		     ((given & 2) && (b < -20 || b > 19)) || ((given & 4) && !(c >= 0 && c <= 1))))
			abort();
		break;
	}
	case 6: {
		struct sched_topo t;

		if (!machine_parse_topology(s, &t, err, sizeof(err)) &&
		    (t.nr_cpus < 1 || t.nr_cpus > SCHED_MAX_CPUS))
			abort();
		break;
	}
	default: {
		struct machine_opts o;

		machine_default_opts(&o);
		o.workload = s;
		o.duration_ns = 1000000;
		if (machine_check_opts(&o, err, sizeof(err)) && !err[0])
			abort();	/* a refusal without a message */
		break;
	}
	}
	return 0;
}
