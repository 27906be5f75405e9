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
	const struct hws_kv keys[4] = {
		{ "numa", HWS_KV_UNSIGNED, 1, 64, &v[0] },
		{ "pkg", HWS_KV_UNSIGNED, 1, 64, &v[1] },
		{ "core", HWS_KV_UNSIGNED, 1, 64, &v[2] },
		{ "smt", HWS_KV_UNSIGNED, 1, 64, &v[3] },
	};
	uint64_t n64;
	unsigned n, x, first = 0, have_prof = 0;
	char rest[256];
	const char *item, *comma = NULL;

	memset(t, 0, sizeof(*t));
	if (prof)
		*prof = NULL;
	if (!str || !*str) {
		snprintf(err, len, "topology '': empty (expected numa=N,pkg=P,core=C,smt=S)");
		return -EINVAL;
	}
	if (strlen(str) >= sizeof(rest)) {
		snprintf(err, len, "topology: longer than %zu characters", sizeof(rest) - 1);
		return -EINVAL;
	}
	/* profile=NAME (a name, not a number) is taken out here; the numbers go to the
	 * strict parser with every other item as given, so empty items still fail there. */
	rest[0] = 0;
	for (item = str; item; item = comma ? comma + 1 : NULL) {
		size_t il = (comma = strchr(item, ',')) ? (size_t)(comma - item) : strlen(item);

		if (il >= 8 && !strncmp(item, "profile=", 8)) {
			char name[32];
			const struct coh_profile *p = NULL;

			if (il - 8 < sizeof(name)) {
				memcpy(name, item + 8, il - 8);
				name[il - 8] = 0;
				p = coh_find_profile(name);
			}
			if (!p) {
				snprintf(err, len, "topology '%s': unknown profile '%.*s' (%s)", str,
					 (int)(il - 8), item + 8, coh_profile_names());
				return -EINVAL;
			}
			if (have_prof++) {
				snprintf(err, len, "topology '%s': profile given twice", str);
				return -EINVAL;
			}
			if (prof)
				*prof = p;
			continue;
		}
		if (first++)
			strcat(rest, ",");
		strncat(rest, item, il);
	}
	if (first && !rest[0]) {
		snprintf(err, len, "topology '%s': an empty item", str);
		return -EINVAL;
	}
	if (first && hws_parse_kv("topology", rest, keys, 4, NULL, err, len))
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
