/*
 * sched.c - the schedulers a program can choose by name, and the defaults and checks of
 * their typed options (include/hws/sched.h). A new scheduler adds its sched_ops here.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "hws/sched.h"

static const struct sched_ops *const scheds[] = {
	&sched_hw_ops,
	&sched_o1_ops,
	&sched_linux24_ops,
	&sched_cfs_ops,
	&sched_eevdf_ops,
};

#define NR_SCHEDS (sizeof(scheds) / sizeof(scheds[0]))

const struct sched_ops *sched_find(const char *name)
{
	size_t i;

	for (i = 0; name && i < NR_SCHEDS; i++)
		if (!strcmp(scheds[i]->name, name))
			return scheds[i];
	return NULL;
}

const char *sched_names(void)
{
	static char names[128];
	size_t i, n = 0;

	for (i = 0; i < NR_SCHEDS && n < sizeof(names); i++)
		n += (size_t)snprintf(names + n, sizeof(names) - n, "%s%s", i ? ", " : "",
				      scheds[i]->name);
	return names;
}

void sched_opts_default(struct sched_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->wake_balance = 1;
	o->flat = 0;
	/* docs/simulator.md, "Cost model", gives the source of each figure. */
	o->costs.bus_ns = 100;
	o->costs.engine_clk_ns = 10;
	o->costs.sw_op_ns = 60;
	o->costs.sw_cpu_ns = 70;
	o->costs.sw_base_ns = 200;
	o->engine.backend = "model";
	/* docs/linux24.md: goodness() of one queued task, a likely cache miss. */
	o->linux24.goodness_ns = 40;
	o->linux24.lock = 1;
	o->fair.tick_shares = 0;
}

/* A time in ns: 0..1e9 (NaN and infinities fail the comparison). */
static int bad_ns(double v)
{
	return !(v >= 0 && v <= 1e9);
}

int sched_opts_check(const struct sched_opts *o, char *msg, size_t len)
{
	const struct {
		const char *name;
		double v;
	} ns[] = {
		{ "bus_ns", o->costs.bus_ns },
		{ "engine_clk_ns", o->costs.engine_clk_ns },
		{ "sw_op_ns", o->costs.sw_op_ns },
		{ "sw_cpu_ns", o->costs.sw_cpu_ns },
		{ "sw_base_ns", o->costs.sw_base_ns },
		{ "linux24 goodness_ns", o->linux24.goodness_ns },
	};
	const struct {
		const char *name;
		int v;
	} flags[] = {
		{ "wake_balance", o->wake_balance },
		{ "flat", o->flat },
		{ "engine no_balance", o->engine.no_balance },
		{ "engine no_err_counters", o->engine.no_err_counters },
		{ "engine no_irq", o->engine.no_irq },
		{ "engine lcu_lean", o->engine.lcu_lean },
		{ "engine sync_cmds", o->engine.sync_cmds },
		{ "engine irq", o->engine.irq },
		{ "linux24 lock", o->linux24.lock },
		{ "fair tick_shares", o->fair.tick_shares },
	};
	size_t i;

	for (i = 0; i < sizeof(ns) / sizeof(ns[0]); i++)
		if (bad_ns(ns[i].v)) {
			snprintf(msg, len, "scheduler option %s = %g: want ns, 0..1e9", ns[i].name,
				 ns[i].v);
			return -EINVAL;
		}
	for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
		if (flags[i].v != 0 && flags[i].v != 1) {
			snprintf(msg, len, "scheduler option %s = %d: want 0 or 1", flags[i].name,
				 flags[i].v);
			return -EINVAL;
		}
	if (o->fair.kernel && (o->fair.kernel < 606 || o->fair.kernel > 699)) {
		snprintf(msg, len, "scheduler option fair kernel = %u: want 606..699 (Linux 6.6 "
			 "to 6.99, major x 100 + minor) or 0", o->fair.kernel);
		return -EINVAL;
	}
	if (o->engine.irq && o->engine.no_irq) {
		snprintf(msg, len, "scheduler option engine irq = 1 needs the engine's preemption "
			 "interrupt, but engine no_irq = 1 builds it without (IRQ=0, FEATURES.IRQ = 0)");
		return -EINVAL;
	}
	if (!o->engine.backend && !o->engine.bus) {
		snprintf(msg, len, "scheduler option engine: no backend and no bus");
		return -EINVAL;
	}
	return 0;
}
