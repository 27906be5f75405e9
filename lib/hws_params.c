/*
 * hws_params.c - ranges and defaults of the engine's parameters; see hws_params.h.
 */
#include "lib/hws_params.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "lib/hws_params_table.h"

const char hws_params_key_grammar[] = HWS_PARAMS_KEY_GRAMMAR;

const struct hws_param_desc *hws_param_desc(unsigned i)
{
	return i < HWS_NR_PARAMS ? &param_table[i] : NULL;
}

int hws_param_find(const char *name)
{
	for (unsigned i = 0; i < HWS_NR_PARAMS; i++)
		if (!strcmp(param_table[i].name, name))
			return (int)i;
	return -1;
}

unsigned hws_param_field(const struct hws_params *p, unsigned i)
{
	unsigned v;

	memcpy(&v, (const char *)p + param_table[i].offset, sizeof(v));
	return v;
}

void hws_param_set_field(struct hws_params *p, unsigned i, unsigned v)
{
	memcpy((char *)p + param_table[i].offset, &v, sizeof(v));
}

unsigned hws_param_value(const struct hws_params *p, unsigned i)
{
	const struct hws_param_desc *d = &param_table[i];
	unsigned v = hws_param_field(p, i);

	if (d->inverted)
		return !v;
	if (v == 0 && d->has_zero)
		return d->zero_param >= 0 ? hws_param_value(p, (unsigned)d->zero_param) : d->zero_val;
	return v;
}

/* The largest legal value of parameter @i in @p (its MAX may be another parameter). */
static unsigned max_of(const struct hws_params *p, const struct hws_param_desc *d)
{
	return d->max_param >= 0 ? hws_param_value(p, (unsigned)d->max_param) : d->max;
}

/* The value a key part takes when it is not written. */
static unsigned implied(const struct hws_params *p, const struct hws_param_desc *d)
{
	return d->implied_param >= 0 ? hws_param_value(p, (unsigned)d->implied_param) :
				       d->implied_val;
}

void hws_params_default(struct hws_params *p)
{
	memset(p, 0, sizeof(*p));
	for (unsigned i = 0; i < HWS_NR_PARAMS; i++)
		hws_param_set_field(p, i, param_table[i].inverted ? !param_table[i].def :
								   param_table[i].def);
}

unsigned hws_params_bal_lanes(const struct hws_params *p)
{
	return p->bal_lanes ? p->bal_lanes : p->nr_cpus;
}

uint32_t hws_params_features(const struct hws_params *p)
{
	uint32_t f = 0;

	for (unsigned i = 0; i < HWS_NR_PARAMS; i++) {
		const struct hws_param_desc *d = &param_table[i];

		if (!d->feature || (d->needs >= 0 && !hws_param_value(p, (unsigned)d->needs)))
			continue;
		f |= (hws_param_value(p, i) << d->feat_lsb) & d->feat_mask;
	}
	return f;
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
#define COPY(field, NAME) p->field = c->field;
	HWS_PARAMS_ADDED(COPY)	/* regmap/params.def's, after "added" */
#undef COPY
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

unsigned hws_bal_latency_lean(unsigned nr_cpus)
{
	return HWS_BAL_LEAN_BASE + HWS_BAL_LEAN_CPU * nr_cpus + nr_cpus * nr_cpus;
}

int hws_params_check(const struct hws_params *p, char *msg, size_t len)
{
	char bad[160] = "";
	size_t used;

	for (unsigned i = 0; i < HWS_NR_PARAMS && !bad[0]; i++) {
		const struct hws_param_desc *d = &param_table[i];
		const unsigned v = hws_param_field(p, i);

		if (!d->key_name[0] && v > 1) {
			/* a flag: the field is 0 or 1; an inverted one is named by its field */
			snprintf(bad, sizeof(bad), "%s must be 0 or 1",
				 d->inverted ? d->field : d->name);
		} else if (d->key_name[0] &&
			   ((v < d->min && !(v == 0 && d->has_zero)) || v > max_of(p, d))) {
			int n = snprintf(bad, sizeof(bad), "%s must be %u..", d->name, d->min);

			if (d->max_param >= 0)
				n += snprintf(bad + n, sizeof(bad) - (size_t)n, "%s",
					      param_table[d->max_param].name);
			else
				n += snprintf(bad + n, sizeof(bad) - (size_t)n, "%u", d->max);
			if (d->has_zero && d->zero_param >= 0)
				snprintf(bad + n, sizeof(bad) - (size_t)n, " (0: %s)",
					 param_table[d->zero_param].name);
			else if (d->has_zero)
				snprintf(bad + n, sizeof(bad) - (size_t)n, " (0: %u)", d->zero_val);
		} else if (d->needs >= 0 && v && !hws_param_value(p, (unsigned)d->needs)) {
			const struct hws_param_desc *n = &param_table[d->needs];

			snprintf(bad, sizeof(bad), "%s must be 0 without %s (%s = %u)", d->name,
				 n->feature ? n->feature : n->name, n->field, n->inverted ? 1 : 0);
		}
	}
	/* The lean unit is serial: it has no lanes to choose (docs/accelerator.md 8.2.1). */
	if (!bad[0] && p->lcu_lean && p->bal_lanes && p->bal_lanes != p->nr_cpus)
		snprintf(bad, sizeof(bad), "BAL_LANES must be 0 with LCU_LEAN (the lean BALANCE has "
			 "no lanes)");
	if (!bad[0])
		return 0;
	if (msg && len) {
		used = (size_t)snprintf(msg, len, "%s (got", bad);
		for (unsigned i = 0; i < HWS_NR_PARAMS && used < len; i++)
			used += (size_t)snprintf(msg + used, len - used, " %s=%u", param_table[i].field,
						 hws_param_field(p, i));
		if (used < len)
			snprintf(msg + used, len - used, ")");
	}
	return -EINVAL;
}

void hws_params_key(const struct hws_params *p, char *key, size_t len)
{
	size_t used = 0;

	if (len)
		key[0] = '\0';
	for (unsigned k = 0; k < HWS_NR_PARAMS && used < len; k++) {
		const unsigned i = key_order[k];
		const struct hws_param_desc *d = &param_table[i];

		if (!d->key_name[0]) {
			if (hws_param_field(p, i) == 1)
				used += (size_t)snprintf(key + used, len - used, "%s", d->key_prefix);
			continue;
		}
		if (d->key_optional && hws_param_value(p, i) == implied(p, d))
			continue;
		used += (size_t)snprintf(key + used, len - used, "%s%u", d->key_prefix,
					 hws_param_value(p, i));
	}
}

/* A decimal number of at most 9 digits at *s: 0 and *s past it, or -1. */
static int number(const char **s, unsigned *v)
{
	const char *c = *s;
	unsigned n = 0;
	int digits = 0;

	while (*c >= '0' && *c <= '9' && digits < 10) {
		n = n * 10 + (unsigned)(*c++ - '0');
		digits++;
	}
	if (!digits || digits > 9)
		return -1;
	*v = n;
	*s = c;
	return 0;
}

/* The parts @written of @key, as parsed into @p: each in its range, each with the units it
 * needs, and no two that exclude each other. 0, or -EINVAL with @msg naming the part. */
static int check_written(const char *key, const struct hws_params *p, const unsigned *written,
			 char *msg, size_t len)
{
	/* bl0 is out of range, not another spelling of no bl */
	for (unsigned k = 0; k < HWS_NR_PARAMS; k++) {
		const unsigned i = key_order[k];
		const struct hws_param_desc *d = &param_table[i];
		const unsigned v = hws_param_field(p, i);

		if (!written[i])
			continue;	/* a part not written: its implied value */
		if (d->needs >= 0 && !hws_param_value(p, (unsigned)d->needs)) {
			const struct hws_param_desc *nd = &param_table[d->needs];

			snprintf(msg, len, "%s: %s%s (%s) needs %s: drop %s or %s", key, d->key_prefix,
				 d->key_name, d->name, nd->feature ? nd->feature : nd->name,
				 nd->key_prefix, d->key_prefix);
			return -EINVAL;
		}
		if (!d->key_name[0])
			continue;	/* a flag: 1, in range */
		if (v < d->min || v > max_of(p, d)) {
			snprintf(msg, len, "%s: %s must be %u..%u (got %u)", key, d->name, d->min,
				 max_of(p, d), v);
			return -EINVAL;
		}
	}
	if (p->lcu_lean && p->bal_lanes && p->bal_lanes != p->nr_cpus) {
		snprintf(msg, len, "%s: bl<lanes> and ln exclude each other (the lean BALANCE has "
			 "no lanes): drop one", key);
		return -EINVAL;
	}
	return 0;
}

int hws_params_key_parse(const char *key, struct hws_params *p, char *msg, size_t len)
{
	unsigned written[HWS_NR_PARAMS] = { 0 };
	char canon[HWS_PARAMS_KEY_MAX];
	const char *s = key;

	hws_params_default(p);
	for (unsigned k = 0; k < HWS_NR_PARAMS; k++) {
		const unsigned i = key_order[k];
		const struct hws_param_desc *d = &param_table[i];
		const size_t n = strlen(d->key_prefix);
		unsigned v;

		if (!d->key_name[0]) {
			/* a flag: its letters, unless they begin another part's number */
			const int here = !strncmp(s, d->key_prefix, n) &&
					 !(s[n] >= '0' && s[n] <= '9');

			hws_param_set_field(p, i, here ? 1 : 0);
			written[i] = here;
			s += here ? n : 0;
			continue;
		}
		if (!strncmp(s, d->key_prefix, n) && s[n] >= '0' && s[n] <= '9') {
			const char *t = s + n;

			if (number(&t, &v))
				goto not_a_key;
			s = t;
			hws_param_set_field(p, i, v);
			written[i] = 1;
		} else if (!d->key_optional) {
			goto not_a_key;
		}
	}
	if (*s)
		goto not_a_key;
	/* the parts not written take their implied values, in key order (they may name an
	 * earlier part): the default field when it means that (bal_lanes 0, nr_cpus) */
	for (unsigned k = 0; k < HWS_NR_PARAMS; k++) {
		const unsigned i = key_order[k];

		if (param_table[i].key_name[0] && !written[i] &&
		    hws_param_value(p, i) != implied(p, &param_table[i]))
			hws_param_set_field(p, i, implied(p, &param_table[i]));
	}
	if (check_written(key, p, written, msg, len))
		return -EINVAL;
	hws_params_key(p, canon, sizeof(canon));
	if (strcmp(canon, key)) {
		snprintf(msg, len, "'%s' is not canonical: use %s", key, canon);
		return -EINVAL;
	}
	return 0;
not_a_key:
	snprintf(msg, len, "'%s' is not a shape key: %s, e.g. 8x256x16g16 (docs/shapes.md)", key,
		 hws_params_key_grammar);
	return -EINVAL;
}

_Static_assert(HWS_MAX_NR_PORTS == HWS_AXIL_MAX_PORTS,
	       "include/hws/axil_pins.h's port bound is lib/hws_params.h's");
