/*
 * hws_params - the ranges and defaults of an engine's parameters (struct hws_params of
 * include/hws/transport.h; docs/accelerator.md section 1): the one place the model, the
 * driver and the Verilator harness take them from.
 */
#ifndef HWS_PARAMS_H
#define HWS_PARAMS_H

#include <stddef.h>

#include <stdint.h>

#include "hws/hws.h"
#include "hws/regs.h"
#include "hws/transport.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HWS_MAX_NR_CPUS		64	/* NR_CPUS: 1..64 */
#define HWS_MAX_NR_TASKS	4096	/* NR_TASKS: 1..4096 */
#define HWS_MIN_DEPTH		2	/* CMD_DEPTH, RES_DEPTH: 2..32 */
#define HWS_MAX_DEPTH		32
#define HWS_MAX_NR_GROUPS	64	/* NR_GROUPS: 1..64 */
#define HWS_MAX_NR_PORTS	4	/* NR_PORTS: 1..4 (0 in struct hws_params means 1) */

/* The default shape: 8 CPUs, 256 tasks, FIFOs of 16, 16 groups (HWS_DEF_GROUPS of the
 * register map), every optional unit built. */
#define HWS_DEF_NR_CPUS		8
#define HWS_DEF_NR_TASKS	256
#define HWS_DEF_DEPTH		16

/* hws_params_default - the default shape into @p. */
void hws_params_default(struct hws_params *p);

/**
 * hws_params_check - validate a parameter set
 * @p: the parameters
 * @msg: receives a sentence naming the bad parameter (may be NULL)
 * @len: size of @msg
 *
 * Return: 0, or -EINVAL when a parameter is outside its legal range.
 */
int hws_params_check(const struct hws_params *p, char *msg, size_t len);

/* hws_params_bal_lanes - BALANCE's lanes of @p: bal_lanes, or nr_cpus when it is 0. */
unsigned hws_params_bal_lanes(const struct hws_params *p);

/* hws_params_features - the FEATURES register of an engine built with @p (the optional
 * units built, BALANCE's lanes): the model answers it, the driver expects it. */
uint32_t hws_params_features(const struct hws_params *p);

/* hws_params_of_config - the engine parameters a driver configuration asks for. */
void hws_params_of_config(struct hws_params *p, const struct hws_config *c);

/**
 * hws_bal_latency - the cycles of a BALANCE (QUERY kind 2) that passes its checks
 * @nr_cpus: NR_CPUS, 1..64
 * @lanes: BAL_LANES, 1..@nr_cpus
 *
 * BAL_LAT_BASE + BAL_LAT_PASS x (ceil(nr_cpus / lanes) - 1) + BAL_LAT_LEVEL x
 * (max(BAL_LAT_MIN_LG, ceil(log2 lanes)) + max(BAL_LAT_MIN_LG, ceil(log2 nr_cpus))), the
 * constants of the register map (docs/accelerator.md 8.2): whatever the domain or the data.
 * The model's one home of this rule; rtl/hws_balance.v checks its schedule against it.
 */
unsigned hws_bal_latency(unsigned nr_cpus, unsigned lanes);

#ifdef __cplusplus
}
#endif

#endif /* HWS_PARAMS_H */
