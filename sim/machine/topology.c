/*
 * topology.c - the topology string: "numa=N,pkg=P,core=C,smt=S" into a struct sched_topo.
 */
#include "sim/machine/machine_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int machine_parse_topology(const char *str, struct sched_topo *t, char *err, size_t len)
{
	unsigned v[4] = { 1, 1, 1, 1 };	/* numa, pkg, core, smt */
	const struct hws_kv keys[4] = {
		{ "numa", HWS_KV_UNSIGNED, 1, 64, &v[0] },
		{ "pkg", HWS_KV_UNSIGNED, 1, 64, &v[1] },
		{ "core", HWS_KV_UNSIGNED, 1, 64, &v[2] },
		{ "smt", HWS_KV_UNSIGNED, 1, 64, &v[3] },
	};
	uint64_t n64;
	unsigned n, x;

	memset(t, 0, sizeof(*t));
	if (!str || !*str) {
		snprintf(err, len, "topology '': empty (expected numa=N,pkg=P,core=C,smt=S)");
		return -EINVAL;
	}
	if (hws_parse_kv("topology", str, keys, 4, NULL, err, len))
		return -EINVAL;
	n64 = (uint64_t)v[0] * v[1] * v[2] * v[3];
	if (n64 > SCHED_MAX_CPUS) {
		snprintf(err, len, "topology '%s': %llu CPUs, at most %u are supported", str,
			 (unsigned long long)n64, SCHED_MAX_CPUS);
		return -EINVAL;
	}
	n = (unsigned)n64;
	t->nr_cpus = n;
	t->nodes = v[0];
	t->pkgs = v[1];
	t->cores = v[2];
	t->smt = v[3];
	for (x = 0; x < n; x++) {
		t->lead[0][x] = (uint8_t)(x - x % v[3]);
		t->lead[1][x] = (uint8_t)(x - x % (v[3] * v[2]));
		t->lead[2][x] = (uint8_t)(x - x % (v[3] * v[2] * v[1]));
	}
	return 0;
}
