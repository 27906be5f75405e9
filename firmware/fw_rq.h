/*
 * fw_rq.h - the run-queue primitives the O(1) firmware (fw_o1.c) is written against, with
 * two implementations: the engine through the driver (fw_rq_hw.c, scheduler `hw`) and
 * plain C run queues (fw_rq_sw.c, scheduler `o1`). Both have the engine's semantics
 * (docs/accelerator.md sections 3 and 8): per-CPU active/expired arrays of NR_PRIO FIFO
 * lists, a task queued at most once, arrays named logically (0 active, 1 expired).
 *
 * Each call charges its cost to @on_cpu through the environment (engine: MMIO accesses x
 * bus latency + engine cycles; software: the constants of docs/simulator.md), priced by
 * the scheduler's options (struct sched_costs); the engine queue opens the engine that
 * struct sched_engine names.
 */
#ifndef HWS_FW_RQ_H
#define HWS_FW_RQ_H

#include <stdint.h>

#include "hws/sched.h"
#include "lib/hws_balance.h"
#include "lib/hws_topo.h"
#include "lib/hws_weight.h"

#ifdef __cplusplus
extern "C" {
#endif

struct fw_rq;

struct fw_rq_ops {
	const char *name;
	struct fw_rq *(*create)(const struct sched_env *env, const struct sched_opts *o,
				char *msg, size_t len);
	void (*destroy)(struct fw_rq *q);
	int (*enqueue)(struct fw_rq *q, unsigned on_cpu, unsigned t, unsigned cpu, unsigned prio,
		       int expired, int head);
	int (*dequeue)(struct fw_rq *q, unsigned on_cpu, unsigned t);
	/* Move @t to the tail of its list (round robin). */
	int (*requeue)(struct fw_rq *q, unsigned on_cpu, unsigned t);
	/* Remove and return the first task (swapping arrays first when active is empty):
	 * 1 found (*t, *swapped), 0 none. */
	int (*pick)(struct fw_rq *q, unsigned on_cpu, unsigned cpu, unsigned *t, int *swapped);
	/* The same without removing or swapping. */
	int (*peek)(struct fw_rq *q, unsigned on_cpu, unsigned cpu, unsigned *t, int *swapped);
	int (*migrate)(struct fw_rq *q, unsigned on_cpu, unsigned t, unsigned cpu);
	int (*set_group)(struct fw_rq *q, unsigned on_cpu, unsigned t, unsigned group);
	/* The task's load weight follows priority @prio (its static one) from now on. */
	int (*set_weight)(struct fw_rq *q, unsigned on_cpu, unsigned t, unsigned prio);
	int (*set_idle)(struct fw_rq *q, unsigned on_cpu, unsigned cpu, int idle);
	int (*load_tick)(struct fw_rq *q, unsigned on_cpu, unsigned cpu);
	/* Load now, source_load, target_load of @cpu. */
	int (*loads)(struct fw_rq *q, unsigned on_cpu, unsigned cpu, uint32_t *now,
		     uint32_t *src, uint32_t *tgt);
	/* The summed weight of @group's queued tasks on every CPU. */
	int (*group_total)(struct fw_rq *q, unsigned on_cpu, unsigned group, uint32_t *w);
	/* find_busiest_group + find_busiest_queue at @level (engine levels 0..3). The
	 * verdict, the groups and the busiest CPU always; the loads this_load, max_load and
	 * avg_load when fw_balance_needs_loads(verdict), and imbalance on the software
	 * queues. The engine's queue in the posted protocol reads only what the policy uses
	 * and leaves the rest 0 (the firmware redoes the imbalance, fw_smpnice_imbalance);
	 * in the synchronous protocol it reads all four loads. */
	int (*balance)(struct fw_rq *q, unsigned cpu, unsigned level, enum hws_idle_type idle,
		       struct hws_balance *out);
	/* The least-loaded CPU of @cpu's domain at @level. */
	int (*idlest)(struct fw_rq *q, unsigned cpu, unsigned level, unsigned *found);
	/* select_idle_sibling's scan: *found -1 when nothing idle. */
	int (*idle_core)(struct fw_rq *q, unsigned cpu, unsigned level, int *found);
	/*
	 * The preemption interrupt (docs/accelerator.md 4.6), NULL for software queues.
	 * set_curr: write CURR[@cpu] (@prio, HWS_CURR_IDLE for none), posted and charged.
	 * irq_ack: clear @cpu's IRQ_PEND bit (W1C), posted and charged.
	 * irq_lines: the lines irq_cpu_o (bit c = CPU c) once the engine has taken every
	 * command sent so far: what the engine's per-CPU lines tell the CPUs. Not charged
	 * and not counted in stats(): a line costs the CPU nothing to see (the driver has no
	 * pin read on every backend, so the queue reads IRQ_PEND with the bus idle first).
	 */
	int (*set_curr)(struct fw_rq *q, unsigned on_cpu, unsigned cpu, unsigned prio);
	int (*irq_ack)(struct fw_rq *q, unsigned on_cpu, unsigned cpu);
	int (*irq_lines)(struct fw_rq *q, uint64_t *lines);
	/* Engine statistics (commands, cycles); zero for software queues. */
	void (*stats)(struct fw_rq *q, uint64_t *commands, uint64_t *cycles, uint64_t *mmio);
	/* What the engine's driver said of its last failure (e.g. the serial line's own
	 * words: the device and the frame), or NULL; NULL for software queues. */
	const char *(*errmsg)(struct fw_rq *q);
};

extern const struct fw_rq_ops fw_rq_hw_ops;
extern const struct fw_rq_ops fw_rq_sw_ops;

/* The task table of the engine fw_rq_hw opens for @nr_tasks tasks: a power of 2, >= 256. */
unsigned fw_engine_nr_tasks(unsigned nr_tasks);
/* Group powers and imbalance_pct of the topology's levels (shared by both queues). */
uint32_t fw_group_power(const struct sched_topo *topo, unsigned level);
unsigned fw_level_pct(unsigned level);
/*
 * find_busiest_group + find_busiest_queue in software on the domain the engine's BALANCE
 * would use (groups: level-@level blocks, the topology's powers and imbalance_pct), from
 * @l, the loads of every CPU; groups are named by their first CPU, as the engine names
 * them. The software queues use it, and fw_rq_hw when the engine has no BALANCE.
 * Return: 0, or -EINVAL (@cpu is in no group).
 */
int fw_find_busiest(const struct sched_topo *topo, unsigned cpu, unsigned level,
		    enum hws_idle_type idle, const struct hws_cpu_load *l,
		    struct hws_balance *out);

/* Per-level sched-domain parameters (reference table, ~2.6.15), levels 0 SMT, 1 MC,
 * 2 packages, 3 NUMA nodes; the O(1) firmware and the fair policies (fw_fair.c) share
 * them. Times in ns. */
struct fw_sd_param {
	int64_t min_interval, max_interval;
	unsigned busy_factor;
	int64_t cache_hot;
	unsigned cache_nice_tries;
	int newidle, wake_affine;
};
extern const struct fw_sd_param fw_sd_params[4];

/*
 * fw_domain_topo - the topology a policy builds its domains on: @machine's, or with @flat
 * one level of single-CPU groups over every CPU (2.6.0's balancer before sched domains,
 * sched_opts.flat) on the same machine.
 */
void fw_domain_topo(struct sched_topo *out, const struct sched_topo *machine, int flat);

/*
 * fw_domain_levels - the domain levels of @t that have more than one group, bottom up,
 * into @levels (at most 4); returns how many. Domains with one group degenerate: Linux
 * removes them too (kernel/sched.c sd_degenerate(), Linux 2.6.12).
 */
int fw_domain_levels(const struct sched_topo *t, int levels[4]);

/**
 * fw_sd_after_balance - load_balance()'s bookkeeping after a try at one level of one CPU
 * @failed: the level's failure count; @interval: its balance interval
 * @moved: tasks moved; @found: a busiest CPU other than this one was found
 *
 * A move resets the count and the interval to min_interval; a balanced domain (no busiest)
 * resets the count and doubles the interval up to max_interval; a failed move leaves both
 * (the caller counts it and decides on active balance). o1's and the fair policies' one rule.
 */
void fw_sd_after_balance(unsigned *failed, int64_t *interval, const struct fw_sd_param *sp,
			 int moved, int found);

/*
 * fw_balance_needs_loads - whether the smpnice rule reads a BALANCE answer's loads
 * (this_load, max_load, avg_load): for NO_GAIN, MOVE and MOVE_ONE. The other verdicts
 * (NO_BUSIEST, THIS_IS_MAX, THIS_ABOVE_AVG, WITHIN_PCT) are balanced whatever the loads.
 */
int fw_balance_needs_loads(enum hws_balance_verdict v);

/**
 * fw_smpnice_imbalance - the smpnice tail of find_busiest_group() (2.6.16-2.6.22)
 * @max: the busiest group's load (scaled by power, as struct hws_balance gives it)
 * @avg: the domain's average load
 * @this_load: this group's load
 * @bw: the busiest group's summed weighted load now; @bnr: its queued tasks (> 0)
 * @tw: this group's; @tnr: its queued tasks
 * @pb: the busiest group's cpu_power; @pt: this group's
 * @imb: receives the weighted load to move
 *
 * busiest_load_per_task = @bw / @bnr takes the place of 2.6.12's fixed 1024 "one task"
 * (docs/balance.md, "smpnice in firmware").
 * Return: 0 (move *@imb), or -1 when balanced.
 */
int fw_smpnice_imbalance(uint64_t max, uint64_t avg, uint64_t this_load, uint64_t bw, unsigned bnr,
			 uint64_t tw, unsigned tnr, uint64_t pb, uint64_t pt, uint64_t *imb);

#ifdef __cplusplus
}
#endif

#endif /* HWS_FW_RQ_H */
