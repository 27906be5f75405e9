/*
 * hws_params.c - ranges and defaults of the engine's parameters; see hws_params.h.
 */
#include "lib/hws_params.h"

#include <errno.h>
#include <stdio.h>

void hws_params_default(struct hws_params *p)
{
	p->nr_cpus = HWS_DEF_NR_CPUS;
	p->nr_tasks = HWS_DEF_NR_TASKS;
	p->cmd_depth = HWS_DEF_DEPTH;
	p->res_depth = HWS_DEF_DEPTH;
	p->nr_groups = HWS_DEF_GROUPS;
	p->no_balance = 0;
	p->no_err_counters = 0;
	p->nr_ports = 1;
	p->pipe = 0;
	p->bal_lanes = 0;
	p->no_irq = 0;
}

unsigned hws_params_bal_lanes(const struct hws_params *p)
{
	return p->bal_lanes ? p->bal_lanes : p->nr_cpus;
}

uint32_t hws_params_features(const struct hws_params *p)
{
	return (p->no_balance ? 0 : HWS_FEATURES_BALANCE_MASK |
				    hws_params_bal_lanes(p) << HWS_FEATURES_BAL_LANES_LSB) |
	       (p->no_err_counters ? 0 : HWS_FEATURES_ERR_COUNTERS_MASK) |
	       (p->no_irq ? 0 : HWS_FEATURES_IRQ_MASK) |
	       (p->pipe ? HWS_FEATURES_PIPE_MASK : 0);
}

void hws_params_of_config(struct hws_params *p, const struct hws_config *c)
{
	*p = (struct hws_params){
		.nr_cpus = c->nr_cpus,
		.nr_tasks = c->nr_tasks,
		.cmd_depth = c->cmd_depth,
		.res_depth = c->res_depth,
		.nr_groups = c->nr_groups,
		.no_balance = c->no_balance,
		.no_err_counters = c->no_err_counters,
		.nr_ports = c->nr_ports,
		.bal_lanes = c->bal_lanes,
		.no_irq = c->no_irq,
		.pipe = c->pipe,
	};
}

/* ceil(log2 n), at least BAL_LAT_MIN_LG: the cycles of a comparator tree over n leaves. */
static unsigned tree_cycles(unsigned n)
{
	unsigned lg = 0;

	while ((1u << lg) < n)
		lg++;
	return lg < HWS_BAL_LAT_MIN_LG ? HWS_BAL_LAT_MIN_LG : lg;
}

unsigned hws_bal_latency(unsigned nr_cpus, unsigned lanes)
{
	const unsigned passes = (nr_cpus + lanes - 1) / lanes;

	return HWS_BAL_LAT_BASE + HWS_BAL_LAT_PASS * (passes - 1) +
	       HWS_BAL_LAT_LEVEL * (tree_cycles(lanes) + tree_cycles(nr_cpus));
}

int hws_params_check(const struct hws_params *p, char *msg, size_t len)
{
	const char *bad = NULL;

	if (p->nr_cpus < 1 || p->nr_cpus > HWS_MAX_NR_CPUS)
		bad = "NR_CPUS must be 1..64";
	else if (p->nr_tasks < 1 || p->nr_tasks > HWS_MAX_NR_TASKS)
		bad = "NR_TASKS must be 1..4096";
	else if (p->cmd_depth < HWS_MIN_DEPTH || p->cmd_depth > HWS_MAX_DEPTH)
		bad = "CMD_DEPTH must be 2..32";
	else if (p->res_depth < HWS_MIN_DEPTH || p->res_depth > HWS_MAX_DEPTH)
		bad = "RES_DEPTH must be 2..32";
	else if (p->nr_groups < 1 || p->nr_groups > HWS_MAX_NR_GROUPS)
		bad = "NR_GROUPS must be 1..64";
	else if (p->no_balance > 1)
		bad = "no_balance must be 0 or 1";
	else if (p->no_err_counters > 1)
		bad = "no_err_counters must be 0 or 1";
	else if (p->nr_ports > HWS_MAX_NR_PORTS)
		bad = "NR_PORTS must be 1..4";
	else if (p->pipe > 1)
		bad = "PIPE must be 0 or 1";
	else if (p->bal_lanes > p->nr_cpus)
		bad = "BAL_LANES must be 1..NR_CPUS (0: NR_CPUS)";
	else if (p->bal_lanes && p->no_balance)
		bad = "BAL_LANES must be 0 without BALANCE (no_balance = 1)";
	else if (p->no_irq > 1)
		bad = "no_irq must be 0 or 1";
	if (!bad)
		return 0;
	if (msg && len)
		snprintf(msg, len,
			 "%s (got cpus=%u tasks=%u cmd_depth=%u res_depth=%u groups=%u no_balance=%u "
			 "no_err_counters=%u ports=%u bal_lanes=%u no_irq=%u pipe=%u)",
			 bad, p->nr_cpus, p->nr_tasks, p->cmd_depth, p->res_depth, p->nr_groups,
			 p->no_balance, p->no_err_counters, p->nr_ports, p->bal_lanes, p->no_irq,
			 p->pipe);
	return -EINVAL;
}

_Static_assert(HWS_MAX_NR_PORTS == HWS_AXIL_MAX_PORTS,
	       "include/hws/axil_pins.h's port bound is lib/hws_params.h's");
