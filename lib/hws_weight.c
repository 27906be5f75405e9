/*
 * hws_weight.c - the load-weight table of the register map; see hws_weight.h.
 */
#include "lib/hws_weight.h"

#include "hws/regs.h"

static const uint32_t prio_to_weight[HWS_NR_PRIO - HWS_MAX_RT_PRIO] = HWS_PRIO_TO_WEIGHT;

uint32_t hws_weight_of(unsigned prio)
{
	if (prio >= HWS_NR_PRIO)
		return 0;
	if (prio < HWS_MAX_RT_PRIO)
		return HWS_RT_WEIGHT;
	return prio_to_weight[prio - HWS_MAX_RT_PRIO];
}
