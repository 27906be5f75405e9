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
	if (!bad)
		return 0;
	if (msg && len)
		snprintf(msg, len,
			 "%s (got cpus=%u tasks=%u cmd_depth=%u res_depth=%u groups=%u no_balance=%u "
			 "no_err_counters=%u ports=%u pipe=%u)",
			 bad, p->nr_cpus, p->nr_tasks, p->cmd_depth, p->res_depth, p->nr_groups,
			 p->no_balance, p->no_err_counters, p->nr_ports, p->pipe);
	return -EINVAL;
}

_Static_assert(HWS_MAX_NR_PORTS == HWS_AXIL_MAX_PORTS,
	       "include/hws/axil_pins.h's port bound is lib/hws_params.h's");
