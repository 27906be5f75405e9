/*
 * fw_domain.c - the sched domains the firmware programs into the engine and balances by
 * in software: each level's group power and imbalance_pct (Linux 2.6.12's values), and
 * find_busiest_group + find_busiest_queue over the machine's topology. The partition
 * arithmetic is lib/hws_topo.c's, the same the model applies to its domain table.
 */
#include <errno.h>

#include "firmware/fw_rq.h"
#include "lib/hws_topo.h"

/*
 * cpu_power of a level-l group: one CPU 1024; an SMT core 1024 + 10% per extra sibling
 * (2.6.12's SMT cpu_power); packages and nodes the sum of what they hold.
 */
uint32_t fw_group_power(const struct sched_topo *topo, unsigned level)
{
	uint32_t core = HWS_SCHED_LOAD_SCALE + HWS_SCHED_LOAD_SCALE * (topo->smt - 1) / 10;

	switch (level) {
	case 0:
		return HWS_SCHED_LOAD_SCALE;
	case 1:
		return core;
	case 2:
		return core * topo->cores;
	default:
		return core * topo->cores * topo->pkgs;
	}
}

/* imbalance_pct: 110 between SMT siblings, 125 above (2.6.12's SD_*_INIT). */
unsigned fw_level_pct(unsigned level)
{
	return level == 0 ? 110 : 125;
}

int fw_find_busiest(const struct sched_topo *topo, unsigned cpu, unsigned level,
		    enum hws_idle_type idle, const struct hws_cpu_load *l,
		    struct hws_balance *out)
{
	uint32_t power[HWS_MAX_CPUS];
	struct hws_sd sd;
	unsigned x;

	for (x = 0; x < HWS_MAX_CPUS; x++)
		power[x] = fw_group_power(topo, level);
	hws_domain_sd(topo->lead, topo->nr_cpus, level, cpu, power, fw_level_pct(level), &sd);
	if (hws_find_busiest(&sd, cpu, idle, l, out))
		return -EINVAL;
	/* Name groups by their first CPU, as the engine does. */
	out->this_group = __builtin_ctzll(sd.group_cpus[out->this_group]);
	if (out->busiest_group >= 0)
		out->busiest_group = __builtin_ctzll(sd.group_cpus[out->busiest_group]);
	return 0;
}
