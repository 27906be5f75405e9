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

/* The ranges and defaults of regmap/params.def (include/hws/params_list.h, generated):
 * NR_CPUS 1..64, NR_TASKS 1..4096, CMD_DEPTH and RES_DEPTH 2..32, NR_GROUPS 1..64, NR_PORTS
 * 1..4 (0 in struct hws_params means 1). The names of both FIFOs' range and default: */
#define HWS_MIN_DEPTH		HWS_MIN_CMD_DEPTH
#define HWS_MAX_DEPTH		HWS_MAX_CMD_DEPTH
#define HWS_DEF_DEPTH		HWS_DEF_CMD_DEPTH

/* One parameter of regmap/params.def, as lib/hws_params_table.h (generated) holds it.
 * Values are NAME's (hws_top's parameter); @inverted: the field holds 1 - NAME. */
struct hws_param_desc {
	const char *name;	/* "NR_CPUS" */
	const char *field;	/* "nr_cpus" */
	size_t offset;		/* of the field in struct hws_params */
	unsigned inverted;
	unsigned def;		/* hws_top's default */
	unsigned min, max;	/* NAME's range; max_param >= 0: max is that parameter */
	int max_param;
	unsigned has_zero;	/* the field may be 0, meaning zero_val or zero_param's value */
	unsigned zero_val;
	int zero_param;
	const char *key_prefix;	/* the shape key's letters: "x", "g", "bl", "nb" */
	const char *key_name;	/* "<tasks>"; "" for a flag (written when the field is 1) */
	unsigned key_optional;	/* written only when it differs from its implied value */
	unsigned implied_val;	/* that value, or implied_param's when >= 0 */
	int implied_param;
	unsigned key_at;	/* its place in the key, 1 first */
	const char *feature;	/* the FEATURES field that reads it, or NULL */
	unsigned feat_lsb;
	uint32_t feat_mask;
	int needs;		/* -1, or the flag that must be 1 for it to differ from its implied
				 * value (its FEATURES field reads 0 without it) */
	const char *meaning;
};

/* hws_param_desc - parameter @i (0..HWS_NR_PARAMS-1, struct hws_params' order), or NULL. */
const struct hws_param_desc *hws_param_desc(unsigned i);

/* hws_param_find - the parameter named @name (NR_CPUS, ...), or -1. */
int hws_param_find(const char *name);

/* hws_param_field - the value of parameter @i's field in @p. */
unsigned hws_param_field(const struct hws_params *p, unsigned i);

/* hws_param_set_field - set parameter @i's field in @p. */
void hws_param_set_field(struct hws_params *p, unsigned i, unsigned v);

/* hws_param_value - hws_top's value of parameter @i for @p: inverted flags turned back,
 * a 0 that means another value resolved (bal_lanes 0: nr_cpus, nr_ports 0: 1). */
unsigned hws_param_value(const struct hws_params *p, unsigned i);

/* The grammar of a shape key, for messages. */
extern const char hws_params_key_grammar[];
#define HWS_PARAMS_KEY_MAX 48

/**
 * hws_params_key - the canonical shape key of @p (docs/shapes.md)
 * @key: receives it, e.g. "8x256x16g16", "2x64x4r8g16nbnenip2pi" (HWS_PARAMS_KEY_MAX is enough)
 *
 * r<res_depth> only when it differs from cmd_depth, bl<lanes> only below nr_cpus, p<ports>
 * only above 1 (regmap/params.def's KEY column).
 */
void hws_params_key(const struct hws_params *p, char *key, size_t len);

/**
 * hws_params_key_parse - a shape key into @p
 * @msg: receives the reason on failure, naming the key and the bad part: not a key (the
 *	 grammar), "not canonical: use X", or a parameter outside its range
 *
 * Return: 0, or -EINVAL. @p gets every field; those the key leaves out their implied
 * values: res_depth = cmd_depth, and the defaults bal_lanes 0 (nr_cpus), nr_ports 1. A key
 * that parses passes hws_params_check().
 */
int hws_params_key_parse(const char *key, struct hws_params *p, char *msg, size_t len);

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

/**
 * hws_bal_latency_lean - the cycles of a BALANCE that passes its checks on the area-lean
 * unit (LCU_LEAN = 1, docs/accelerator.md 8.2.1)
 * @nr_cpus: NR_CPUS
 *
 * BAL_LEAN_BASE + BAL_LEAN_CPU x nr_cpus + nr_cpus^2, the register map's constants: whatever
 * the domain or the data. The model's one home of this rule; rtl/hws_balance_lean.v's
 * schedule is checked against it.
 */
unsigned hws_bal_latency_lean(unsigned nr_cpus);

#ifdef __cplusplus
}
#endif

#endif /* HWS_PARAMS_H */
