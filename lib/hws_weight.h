/*
 * hws_weight - the load weight of a priority, as the engine, the model and the firmware
 * count it: Linux's prio_to_weight[] for priorities MAX_RT_PRIO..NR_PRIO-1 (nice -20..19)
 * and RT_WEIGHT for real-time ones, both from the register map (regmap/regmap.def; the
 * RTL's copy is the generated rtl/hws_weight_fn.vh).
 */
#ifndef HWS_WEIGHT_H
#define HWS_WEIGHT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * hws_weight_of - load weight of priority @prio
 * @prio: 0..NR_PRIO-1
 *
 * Return: HWS_RT_WEIGHT below HWS_MAX_RT_PRIO, prio_to_weight[prio - HWS_MAX_RT_PRIO] up to
 * HWS_NR_PRIO - 1, and 0 above (no priority: the engine's datapath weighs it 0).
 */
uint32_t hws_weight_of(unsigned prio);

#ifdef __cplusplus
}
#endif

#endif /* HWS_WEIGHT_H */
