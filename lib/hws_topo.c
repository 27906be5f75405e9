/*
 * hws_topo.c - the domain table's arithmetic; see hws_topo.h.
 */
#include "lib/hws_topo.h"

#include <string.h>

unsigned hws_block(const uint8_t lead[3][HWS_MAX_CPUS], unsigned k, unsigned cpu)
{
	if (k == 0)
		return cpu;
	if (k >= 4)
		return 0;
	return lead[k - 1][cpu];
}

uint64_t hws_domain_span(const uint8_t lead[3][HWS_MAX_CPUS], unsigned nr_cpus,
			 unsigned level, unsigned cpu)
{
	unsigned b = hws_block(lead, level + 1, cpu), x;
	uint64_t span = 0;

	for (x = 0; x < nr_cpus; x++)
		if (hws_block(lead, level + 1, x) == b)
			span |= 1ull << x;
	return span;
}

uint64_t hws_domain_leaders(const uint8_t lead[3][HWS_MAX_CPUS], unsigned nr_cpus,
			    unsigned level, unsigned cpu)
{
	uint64_t span = hws_domain_span(lead, nr_cpus, level, cpu), leaders = 0;
	unsigned x;

	for (x = 0; x < nr_cpus; x++)
		if (span >> x & 1)
			leaders |= 1ull << hws_block(lead, level, x);
	return leaders;
}

void hws_core_of(const uint8_t lead[3][HWS_MAX_CPUS], unsigned nr_cpus,
		 uint64_t core_of[HWS_MAX_CPUS])
{
	unsigned x, y;

	memset(core_of, 0, HWS_MAX_CPUS * sizeof(*core_of));
	for (x = 0; x < nr_cpus; x++)
		for (y = 0; y < nr_cpus; y++)
			if (hws_block(lead, 1, y) == hws_block(lead, 1, x))
				core_of[x] |= 1ull << y;
}

void hws_domain_sd(const uint8_t lead[3][HWS_MAX_CPUS], unsigned nr_cpus, unsigned level,
		   unsigned cpu, const uint32_t *power, unsigned pct, struct hws_sd *sd)
{
	uint64_t span = hws_domain_span(lead, nr_cpus, level, cpu);
	uint64_t leaders = hws_domain_leaders(lead, nr_cpus, level, cpu);
	unsigned x;

	memset(sd, 0, sizeof(*sd));
	for (; leaders; leaders &= leaders - 1) {
		unsigned g = (unsigned)__builtin_ctzll(leaders);

		for (x = 0; x < nr_cpus; x++)
			if ((span >> x & 1) && hws_block(lead, level, x) == g)
				sd->group_cpus[sd->nr_groups] |= 1ull << x;
		sd->group_power[sd->nr_groups++] = power[g];
	}
	sd->imbalance_pct = pct;
}
