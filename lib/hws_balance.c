/*
 * hws_balance.c - Linux 2.6 load-balancing arithmetic; see hws_balance.h and
 * docs/balance.md, which gives each rule with its source.
 */
#include "hws_balance.h"

#include <errno.h>

#define SCALE ((uint64_t)HWS_SCHED_LOAD_SCALE)

static uint64_t min64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* The load of @cpu as find_busiest_group() weighs it. */
static uint64_t cpu_load(const struct hws_cpu_load *c, enum hws_idle_type idle, int local)
{
	if (idle != HWS_CPU_NOT_IDLE)
		return c->now;
	/* target_load() for the local group, source_load() for the others. */
	if (local)
		return c->now > c->hist ? c->now : c->hist;
	return min64(c->now, c->hist);
}

static int check_sd(const struct hws_sd *sd, unsigned this_cpu, int *this_group)
{
	uint64_t seen = 0;
	unsigned g;

	if (sd->nr_groups < 1 || sd->nr_groups > HWS_MAX_GROUPS || this_cpu >= HWS_MAX_CPUS ||
	    sd->imbalance_pct < 100 || sd->imbalance_pct > 255)
		return -EINVAL;
	*this_group = -1;
	for (g = 0; g < sd->nr_groups; g++) {
		if (!sd->group_cpus[g] || (sd->group_cpus[g] & seen) ||
		    sd->group_power[g] < HWS_BAL_MIN_POWER || sd->group_power[g] > HWS_BAL_MAX_POWER)
			return -EINVAL;
		seen |= sd->group_cpus[g];
		if (sd->group_cpus[g] >> this_cpu & 1)
			*this_group = (int)g;
	}
	return *this_group < 0 ? -EINVAL : 0;
}

/* find_busiest_queue(): the CPU of @mask with the largest source load; lowest on ties. */
static int busiest_queue(uint64_t mask, const struct hws_cpu_load *cpus,
			 enum hws_idle_type idle)
{
	uint64_t best = 0;
	int cpu, found = -1;

	for (; mask; mask &= mask - 1) {	/* each CPU of the mask, upward */
		uint64_t l;

		cpu = __builtin_ctzll(mask);
		l = cpu_load(&cpus[cpu], idle, 0);
		if (found < 0 || l > best) {
			best = l;
			found = cpu;
		}
	}
	return found;
}

/*
 * The imbalance is less than one task's load (find_busiest_group's small-imbalance case):
 * move one task if the gap is two tasks, or if the CPU power put to use grows by at least
 * 1/8 of a CPU. @pb, @pt: the busiest and this group's powers.
 */
static int move_one_pays(uint64_t max_load, uint64_t this_load, uint64_t pb, uint64_t pt)
{
	uint64_t pwr_now, pwr_move = 0, tmp;

	if (max_load - this_load >= 2 * SCALE)
		return 1;
	pwr_now = (pb * min64(SCALE, max_load) + pt * min64(SCALE, this_load)) / SCALE;
	tmp = SCALE * SCALE / pb;
	if (max_load > tmp)
		pwr_move += pb * min64(SCALE, max_load - tmp);
	if (max_load * pb < SCALE * SCALE)
		tmp = max_load * pb / pt;
	else
		tmp = SCALE * SCALE / pt;
	pwr_move += pt * min64(SCALE, this_load + tmp);
	pwr_move /= SCALE;
	return pwr_move >= pwr_now + SCALE / 8;
}

int hws_find_busiest(const struct hws_sd *sd, unsigned this_cpu, enum hws_idle_type idle,
		     const struct hws_cpu_load *cpus, struct hws_balance *out)
{
	uint64_t max_load = 0, this_load = 0, total_load = 0, total_pwr = 0, avg_load;
	uint64_t pb, pt, imb;
	int this_group, busiest = -1;
	unsigned g;
	int ret;

	ret = check_sd(sd, this_cpu, &this_group);
	if (ret)
		return ret;
	out->this_group = this_group;
	out->busiest_cpu = -1;
	out->imbalance = 0;
	out->avg_load = 0;

	for (g = 0; g < sd->nr_groups; g++) {
		int local = (int)g == this_group;
		uint64_t sum = 0, avg, m;

		for (m = sd->group_cpus[g]; m; m &= m - 1)
			sum += cpu_load(&cpus[__builtin_ctzll(m)], idle, local);
		total_load += sum;
		total_pwr += sd->group_power[g];
		avg = sum * SCALE / sd->group_power[g];
		if (local)
			this_load = avg;
		else if (avg > max_load) {	/* strictly: the lowest group index wins ties */
			max_load = avg;
			busiest = (int)g;
		}
	}
	out->busiest_group = busiest;
	out->this_load = (uint32_t)this_load;
	out->max_load = (uint32_t)max_load;
	if (busiest < 0) {
		out->verdict = HWS_BAL_NO_BUSIEST;
		return 0;
	}
	if (this_load >= max_load) {
		out->verdict = HWS_BAL_THIS_IS_MAX;
		return 0;
	}
	avg_load = total_load * SCALE / total_pwr;
	out->avg_load = (uint32_t)avg_load;
	if (this_load >= avg_load) {
		out->verdict = HWS_BAL_THIS_ABOVE_AVG;
		return 0;
	}
	if (100 * max_load <= sd->imbalance_pct * this_load) {
		out->verdict = HWS_BAL_WITHIN_PCT;
		return 0;
	}
	pb = sd->group_power[busiest];
	pt = sd->group_power[this_group];
	/* How much load to move to even out, scaled back by the smaller group's power. */
	imb = min64(max_load - avg_load, avg_load - this_load) * min64(pb, pt) / SCALE;
	if (imb >= SCALE) {
		out->verdict = HWS_BAL_MOVE;
		out->imbalance = (uint32_t)imb;
		out->busiest_cpu = busiest_queue(sd->group_cpus[busiest], cpus, idle);
		return 0;
	}
	if (!move_one_pays(max_load, this_load, pb, pt)) {
		out->verdict = HWS_BAL_NO_GAIN;
		return 0;
	}
	out->verdict = HWS_BAL_MOVE_ONE;
	out->imbalance = HWS_SCHED_LOAD_SCALE;
	out->busiest_cpu = busiest_queue(sd->group_cpus[busiest], cpus, idle);
	return 0;
}

int hws_find_idlest(uint64_t allowed, const struct hws_cpu_load *cpus, int prefer)
{
	uint32_t best = 0;
	int cpu, found = -1;

	for (cpu = 0; cpu < HWS_MAX_CPUS; cpu++) {
		if (!(allowed >> cpu & 1))
			continue;
		if (found < 0 || cpus[cpu].now < best ||
		    (cpus[cpu].now == best && cpu == prefer)) {
			best = cpus[cpu].now;
			found = cpu;
		}
	}
	return found;
}

int hws_find_idle_core(uint64_t llc, const uint64_t *core_of, uint64_t idle,
		       unsigned this_cpu)
{
	int first_idle = -1;
	unsigned i, cpu;

	if (this_cpu >= HWS_MAX_CPUS)
		return -1;
	for (i = 0; i < HWS_MAX_CPUS; i++) {
		cpu = (this_cpu + i) % HWS_MAX_CPUS;
		if (!(llc >> cpu & 1) || !(idle >> cpu & 1))
			continue;
		if ((core_of[cpu] & llc & ~idle) == 0)
			return (int)cpu;
		if (first_idle < 0)
			first_idle = (int)cpu;
	}
	return first_idle;
}
