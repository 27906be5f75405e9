/*
 * hws_m_domain.c - the model of rtl/hws_domain.v and rtl/hws_balance.v: the domain table
 * (partitions, group powers, imbalance_pct), its consistency checks, QUERY IDLEST and
 * IDLE_CORE, and QUERY BALANCE's verdict and BAL_* registers (docs/accelerator.md 8), by
 * the rules of lib/hws_balance.c.
 */
#include "models/hws_model_int.h"

#include <stdlib.h>
#include <string.h>

#include "lib/hws_balance.h"
#include "lib/hws_topo.h"

/* Is stored partition Pk (k = 1..3) named by first CPUs, as section 8.1 requires? */
static int partition_ok(const struct hws_model *m, unsigned k)
{
	unsigned x, l;

	if (k < 1 || k > 3)
		return 1;
	for (x = 0; x < m->p.nr_cpus; x++) {
		l = m->lead[k - 1][x];
		if (l > x || m->lead[k - 1][l] != l)
			return 0;
	}
	return 1;
}

/* The consistency a QUERY at @level checks (@idle_core: also P1). */
int hws_m_domain_ok(const struct hws_model *m, unsigned level, int idle_core)
{
	unsigned x;

	if (!partition_ok(m, level) || !partition_ok(m, level + 1) ||
	    (idle_core && !partition_ok(m, 1)))
		return 0;
	if (level >= 1 && level + 1 <= 3)
		for (x = 0; x < m->p.nr_cpus; x++)
			if (m->lead[level][x] != m->lead[level][m->lead[level - 1][x]])
				return 0;
	return 1;
}

/* QUERY: IDLEST or IDLE_CORE, with the rules of lib/hws_balance.c. */
uint32_t hws_m_query(const struct hws_model *m, unsigned cpu, unsigned level, int idle_core)
{
	struct hws_cpu_load loads[HWS_MAX_CPUS] = { { 0, 0 } };
	uint64_t core_of[HWS_MAX_CPUS];
	uint64_t span = hws_domain_span(m->lead, m->p.nr_cpus, level, cpu), idle = 0;
	unsigned x;
	int found;

	if (!idle_core) {
		for (x = 0; x < m->p.nr_cpus; x++)
			loads[x].now = m->load[x];
		return (uint32_t)hws_find_idlest(span, loads, (int)cpu);
	}
	for (x = 0; x < m->p.nr_cpus; x++)
		idle |= (uint64_t)m->idle[x] << x;
	hws_core_of(m->lead, m->p.nr_cpus, core_of);
	found = hws_find_idle_core(span, core_of, idle, cpu);
	if (found < 0)
		return HWS_QRES_NONE_MASK;
	return (uint32_t)found |
	       ((core_of[found] & span & ~idle) ? 0 : HWS_QRES_WHOLE_CORE_MASK);
}

/* QUERY BALANCE (section 8.2): hws_find_busiest() on the domain the table describes. */
uint32_t hws_m_balance(struct hws_model *m, unsigned cpu, unsigned level, unsigned idle)
{
	struct hws_cpu_load loads[HWS_MAX_CPUS] = { { 0, 0 } };
	struct hws_sd sd;
	struct hws_balance b;
	unsigned x, g;
	uint32_t res;

	for (x = 0; x < m->p.nr_cpus; x++) {
		loads[x].now = m->load[x];
		loads[x].hist = m->hist[x];
	}
	hws_domain_sd(m->lead, m->p.nr_cpus, level, cpu, m->pw[level], m->pct[level], &sd);
	/* The table cannot describe an inconsistent domain once DOMAIN has passed. */
	if (hws_find_busiest(&sd, cpu, (enum hws_idle_type)idle, loads, &b))
		abort();
	m->bal[0] = b.this_load;
	m->bal[1] = b.max_load;
	m->bal[2] = b.avg_load;
	m->bal[3] = b.imbalance;
	g = (unsigned)__builtin_ctzll(sd.group_cpus[b.this_group]);
	res = (uint32_t)b.verdict << HWS_BRES_VERDICT_LSB | g << HWS_BRES_THIS_LSB;
	if (b.busiest_group >= 0)
		res |= HWS_BRES_HAS_BUSIEST_MASK |
		       (uint32_t)__builtin_ctzll(sd.group_cpus[b.busiest_group])
			       << HWS_BRES_BUSIEST_LSB;
	if (b.busiest_cpu >= 0)
		res |= HWS_BRES_HAS_CPU_MASK | (uint32_t)b.busiest_cpu << HWS_BRES_BUSIEST_CPU_LSB;
	return res;
}

/* The DSET fields of a DOM_SET word (section 8.2). */
struct dset {
	unsigned k, hi, data, pct, rsvd, level;
};

#define DSET_FIELD(c, f) (((c) & HWS_DSET_##f##_MASK) >> HWS_DSET_##f##_LSB)

static struct dset dset_of(uint32_t c)
{
	return (struct dset){ DSET_FIELD(c, K), DSET_FIELD(c, HI), DSET_FIELD(c, DATA),
			      DSET_FIELD(c, PCT), DSET_FIELD(c, PCT_RSVD), DSET_FIELD(c, LEVEL) };
}

/* DOM_SET's checks after CPU (section 8.2). */
unsigned hws_m_dom_set_check(const struct hws_model *m, uint32_t c)
{
	struct dset f = dset_of(c);

	if (f.k == HWS_DSET_K_PCT)
		return f.hi || f.rsvd || f.pct < HWS_MIN_PCT ? HWS_ERR_PRIO : 0;
	if (f.k < HWS_DSET_K_POWER) {
		if (f.hi)
			return HWS_ERR_PRIO;
		return f.data >= m->p.nr_cpus ? HWS_ERR_CPU : 0;
	}
	return (f.hi << HWS_DSET_DATA_W | f.data) < HWS_MIN_POWER ? HWS_ERR_PRIO : 0;
}

/* DOM_SET's effect on the domain table of @cpu. */
void hws_m_dom_set(struct hws_model *m, uint32_t c, unsigned cpu)
{
	struct dset f = dset_of(c);

	if (f.k == HWS_DSET_K_PCT)
		m->pct[f.level] = (uint8_t)f.pct;
	else if (f.k < HWS_DSET_K_POWER)
		m->lead[f.k - 1][cpu] = (uint8_t)f.data;
	else
		m->pw[f.k - HWS_DSET_K_POWER][cpu] = f.hi << HWS_DSET_DATA_W | f.data;
}

/* The table after reset: every CPU its own block, default powers and pct; BAL_* 0. */
void hws_m_domain_reset(struct hws_model *m)
{
	for (unsigned k = 0; k < 3; k++)
		for (unsigned c = 0; c < HWS_MAX_CPUS; c++)
			m->lead[k][c] = (uint8_t)c;
	for (unsigned l = 0; l < HWS_NR_LEVELS; l++) {
		for (unsigned c = 0; c < HWS_MAX_CPUS; c++)
			m->pw[l][c] = HWS_DEF_POWER;
		m->pct[l] = HWS_DEF_PCT;
	}
	memset(m->bal, 0, sizeof(m->bal));
}
