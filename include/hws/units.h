/*
 * units.h - the engine's unit boundary values, as a lockstep pair compares them beside the
 * bus (docs/harness.md, "The model"; driver/hws_lockstep.c).
 *
 * Each field is an output port of one RTL unit, marked "verilator public_flat_rd" in
 * rtl/ and read by the shape's harness (sim/harness/hws_shape_so.cpp); the model fills the
 * same struct from the state of the file that mirrors that unit (models/hws_m_*.c). They are
 * compared when the model is quiescent (no command in flight, every command FIFO empty): then
 * every unit holds the effect of every command, whatever its pipeline did in between.
 */
#ifndef HWS_UNITS_H
#define HWS_UNITS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HWS_UNITS_MAX_CPUS 64	/* NR_CPUS <= 64 (lib/hws_params.h) */
#define HWS_UNITS_MAX_TASKS 4096	/* NR_TASKS <= 4096 (lib/hws_params.h) */

/* The units, in the order their values are compared (a difference is named after the
 * first unit, in this order, whose values differ). */
enum hws_unit {
	HWS_UNIT_FE,		/* rtl/hws_port_fe.v, models/hws_m_fe.c */
	HWS_UNIT_ARBITER,	/* rtl/hws_arbiter.v, models/hws_m_arbiter.c */
	HWS_UNIT_SEQ,		/* rtl/hws_eng_seq.v, models/hws_m_seq.c */
	HWS_UNIT_LISTS,		/* rtl/hws_eng_lists.v, models/hws_m_lists.c */
	HWS_UNIT_LOADS,		/* rtl/hws_eng_loads.v, models/hws_m_loads.c */
	HWS_UNIT_DOMAIN,	/* rtl/hws_domain.v, models/hws_m_domain.c */
	HWS_UNIT_IRQ,		/* rtl/hws_irq.v, models/hws_m_irq.c */
	HWS_UNIT_COUNT
};

/* Filled without clearing: only the entries of the engine's CPUs and tasks are set, and
 * compared (nr_cpus, nr_tasks say how many). */
struct hws_units {
	uint32_t nr_cpus, nr_tasks;	/* the engine's NR_CPUS, NR_TASKS */
	/* fe: eligible_o of each port (bit p: port p's head may start) */
	uint32_t fe_eligible;
	/* arbiter: win_o (with no port eligible, its round-robin pointer) */
	uint32_t arb_win;
	/* seq: busy_o, two_o */
	uint32_t seq_busy, seq_two;
	/* lists: queued_o, bit t of word t / 32 */
	uint32_t queued[HWS_UNITS_MAX_TASKS / 32];
	/* loads: nr_o (index cpu * 2 + physical array), load_o, hist_o, idle_o, swap_o */
	uint32_t nr[2 * HWS_UNITS_MAX_CPUS];
	uint32_t load[HWS_UNITS_MAX_CPUS], hist[HWS_UNITS_MAX_CPUS];
	uint64_t idle, swap;
	/* domain: bal_regs_o, {BAL_THIS, BAL_MAX, BAL_AVG, BAL_IMB} */
	uint32_t bal[4];
	/* irq: regs_o, {IRQ_PEND, IRQ_EN} (0 in an engine built without it) */
	uint64_t irq_pend, irq_en;
};

#ifdef __cplusplus
}
#endif

#endif /* HWS_UNITS_H */
