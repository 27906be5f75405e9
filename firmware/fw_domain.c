/*
 * fw_domain.c - the sched domains the firmware programs into the engine and balances by
 * in software: each level's group power and imbalance_pct (Linux 2.6.12's values), and
 * find_busiest_group + find_busiest_queue over the machine's topology, each level's
 * balancing intervals (fw_sd_params) and the smpnice imbalance rule, shared by the O(1)
 * firmware (fw_o1.c) and the fair policies (fw_fair.c). The partition arithmetic is
 * lib/hws_topo.c's, the same the model applies to its domain table.
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

const struct fw_sd_param fw_sd_params[4] = {
	{ 1000000, 2000000, 8, 0, 0, 1, 1 },		/* SMT siblings */
	{ 1000000, 4000000, 64, 2500000, 1, 1, 1 },	/* cores of a package (MC) */
	{ 1000000, 4000000, 64, 2500000, 1, 1, 1 },	/* packages of a node (CPU) */
	{ 8000000, 32000000, 32, 10000000, 1, 1, 0 },	/* NUMA nodes */
};

void fw_domain_topo(struct sched_topo *out, const struct sched_topo *machine, int flat)
{
	unsigned i, k;

	*out = *machine;
	if (!flat)
		return;
	out->smt = out->cores = out->pkgs = 1;
	out->nodes = out->nr_cpus;
	for (k = 0; k < 3; k++)
		for (i = 0; i < out->nr_cpus; i++)
			out->lead[k][i] = (uint8_t)i;
}

int fw_domain_levels(const struct sched_topo *t, int levels[4])
{
	int n = 0;

	if (t->smt > 1)
		levels[n++] = 0;
	if (t->cores > 1)
		levels[n++] = 1;
	if (t->pkgs > 1)
		levels[n++] = 2;
	if (t->nodes > 1)
		levels[n++] = 3;
	return n;
}

static uint64_t min64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

int fw_balance_needs_loads(enum hws_balance_verdict v)
{
	return v == HWS_BAL_NO_GAIN || v == HWS_BAL_MOVE || v == HWS_BAL_MOVE_ONE;
}

int fw_smpnice_imbalance(uint64_t max, uint64_t avg, uint64_t this_load, uint64_t bw, unsigned bnr,
			 uint64_t tw, unsigned tnr, uint64_t pb, uint64_t pt, uint64_t *imb)
{
	uint64_t blpt, tlpt, im, pwr_now, pwr_move, tmp;
	unsigned imbn = 2;

	if (!bnr)
		return -1;
	blpt = bw / bnr;
	if (max <= blpt)
		return -1;
	im = 0;
	if (max >= avg)
		im = min64(min64(max - avg, max - blpt) * pb, (avg - this_load) * pt) / 1024;
	if (im < blpt) {
		/* Too small to be sure a task moves: move one if the gap is two tasks (one when
		 * the busiest group's tasks are the heavier), or if it raises the CPU power in
		 * use by 1/8 of a CPU (the reference's rule, as the unit applies it). */
		tlpt = tnr ? tw / tnr : 1024;
		if (tnr && blpt > tlpt)
			imbn = 1;
		if (max - this_load < blpt * imbn) {
			pwr_now = (pb * min64(blpt, max) + pt * min64(tlpt, this_load)) / 1024;
			tmp = blpt * 1024 / pb;
			pwr_move = max > tmp ? pb * min64(blpt, max - tmp) : 0;
			tmp = max * pb < blpt * 1024 ? max * pb / pt : blpt * 1024 / pt;
			pwr_move = (pwr_move + pt * min64(tlpt, this_load + tmp)) / 1024;
			if (pwr_move < pwr_now + 1024 / 8)
				return -1;
		}
		im = blpt;
	}
	*imb = im;
	return 0;
}

void fw_sd_after_balance(unsigned *failed, int64_t *interval, const struct fw_sd_param *sp,
			 int moved, int found)
{
	if (moved) {
		*failed = 0;
		*interval = sp->min_interval;
	} else if (!found) {
		*failed = 0;
		if (*interval < sp->max_interval)
			*interval *= 2;
		if (*interval > sp->max_interval)
			*interval = sp->max_interval;
	}
}
