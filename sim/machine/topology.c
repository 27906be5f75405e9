/*
 * topology.c - the topology string: "numa=N,pkg=P,core=C,smt=S[,profile=NAME]" into a
 * struct sched_topo and the machine profile it names (sim/machine/coherence.c).
 */
#include "sim/machine/machine_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int machine_parse_topology(const char *str, struct sched_topo *t, char *err, size_t len)
{
	return mach_parse_topology(str, t, NULL, err, len);
}

int mach_parse_topology(const char *str, struct sched_topo *t, const struct coh_profile **prof,
			char *err, size_t len)
{
	unsigned v[4] = { 1, 1, 1, 1 };	/* numa, pkg, core, smt */
	static const char *const keys[4] = { "numa", "pkg", "core", "smt" };
	char buf[128], *save = NULL, *kv;
	unsigned n, x;

	memset(t, 0, sizeof(*t));
	if (prof)
		*prof = NULL;
	if (!str || !*str || strlen(str) >= sizeof(buf)) {
		snprintf(err, len, "topology: empty or too long (expected numa=N,pkg=P,core=C,smt=S)");
		return -EINVAL;
	}
	strcpy(buf, str);
	for (kv = strtok_r(buf, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(kv, '='), *end;
		unsigned long val;
		int k;

		if (!eq) {
			snprintf(err, len, "topology '%s': '%s' is not key=value", str, kv);
			return -EINVAL;
		}
		*eq = 0;
		if (!strcmp(kv, "profile")) {
			const struct coh_profile *p = coh_find_profile(eq + 1);

			if (!p) {
				snprintf(err, len, "topology '%s': unknown profile '%s' (%s)", str,
					 eq + 1, coh_profile_names());
				return -EINVAL;
			}
			if (prof)
				*prof = p;
			continue;
		}
		for (k = 0; k < 4 && strcmp(kv, keys[k]); k++)
			;
		if (k == 4) {
			snprintf(err, len, "topology '%s': unknown key '%s' (numa, pkg, core, smt, profile)",
				 str, kv);
			return -EINVAL;
		}
		val = strtoul(eq + 1, &end, 10);
		if (end == eq + 1 || *end || val < 1 || val > 64) {
			snprintf(err, len, "topology '%s': %s=%s must be a number 1..64", str, kv,
				 eq + 1);
			return -EINVAL;
		}
		v[k] = (unsigned)val;
	}
	n = v[0] * v[1] * v[2] * v[3];
	if (n > SCHED_MAX_CPUS) {
		snprintf(err, len, "topology '%s': %u CPUs, at most %u are supported", str, n,
			 SCHED_MAX_CPUS);
		return -EINVAL;
	}
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
