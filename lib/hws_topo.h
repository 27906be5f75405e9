/*
 * hws_topo - the arithmetic of the domain table (docs/accelerator.md section 8.1), shared
 * by the model (over the table DOM_SET wrote) and the firmware (over the machine's
 * topology, struct sched_topo).
 *
 * The CPUs are cut into nested partitions, each block named by its first CPU (its
 * leader): P0 every CPU alone, P1 SMT cores, P2 packages, P3 NUMA nodes, P4 the whole
 * machine. @lead[k - 1][cpu] is the leader of @cpu's block in partition k = 1..3. The
 * domain of @cpu at level l (0 SMT, 1 MC, 2 package, 3 NUMA/top) spans its P(l+1) block;
 * its groups are the P(l) blocks inside it.
 */
#ifndef HWS_TOPO_H
#define HWS_TOPO_H

#include <stdint.h>

#include "lib/hws_balance.h"

#ifdef __cplusplus
extern "C" {
#endif

/* hws_block - the leader of @cpu's block in partition @k (0..4). */
unsigned hws_block(const uint8_t lead[3][HWS_MAX_CPUS], unsigned k, unsigned cpu);

/* hws_domain_span - the CPUs of @cpu's domain at @level (its block in partition level+1). */
uint64_t hws_domain_span(const uint8_t lead[3][HWS_MAX_CPUS], unsigned nr_cpus,
			 unsigned level, unsigned cpu);

/* hws_domain_leaders - the groups of that domain: the leaders of its level-@level blocks. */
uint64_t hws_domain_leaders(const uint8_t lead[3][HWS_MAX_CPUS], unsigned nr_cpus,
			    unsigned level, unsigned cpu);

/* hws_core_of - @core_of[x] = the CPUs of x's SMT core (its P1 block), for every CPU x. */
void hws_core_of(const uint8_t lead[3][HWS_MAX_CPUS], unsigned nr_cpus,
		 uint64_t core_of[HWS_MAX_CPUS]);

/**
 * hws_domain_sd - the sched domain find_busiest_group() sees at @cpu's level-@level domain
 * @lead: the partitions
 * @nr_cpus: CPUs of the machine
 * @level: 0..3
 * @cpu: the balancing CPU
 * @power: the cpu_power of the group each CPU leads at this level (indexed by leader)
 * @pct: the domain's imbalance_pct
 * @sd: receives the groups in leader order, their powers and @pct
 */
void hws_domain_sd(const uint8_t lead[3][HWS_MAX_CPUS], unsigned nr_cpus, unsigned level,
		   unsigned cpu, const uint32_t *power, unsigned pct, struct hws_sd *sd);

#ifdef __cplusplus
}
#endif

#endif /* HWS_TOPO_H */
