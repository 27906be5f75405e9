/*
 * hws - the driver of the hwsched engine: one API over an MMIO transport.
 *
 *   firmware / CLI / tests
 *          |  hws_enqueue() ... hws_pick_next() ... hws_read_cpu_counters()
 *        [hws_dev] -- register reads/writes (docs/regmap.md) --+
 *          |                  |                    |            |
 *       model            rtl (Verilated)      lockstep: both, every answer compared
 *
 * plus a fourth backend, transport: every access goes to callbacks the caller supplies
 * (struct hws_transport; sim/vp puts a SystemC TLM-2.0 bus there), which also say how long
 * each access took.
 *
 * Commands come in two forms. The synchronous calls (hws_enqueue() etc.) write CMD and then
 * read SYNC (mutating commands) or RESULT (queries), so each returns its own outcome. The
 * asynchronous pair hws_submit() / hws_sync() lets a caller keep the command FIFO full and
 * collect the outcome of a batch at once; RESULT words of a batch are read with
 * hws_result(). Do not mix: a synchronous call expects the result FIFO to be empty.
 *
 * Errors are negative errno values; hws_errmsg() then names the command and the reason.
 * The library never prints.
 */
#ifndef HWS_H
#define HWS_H

#include <stddef.h>
#include <stdint.h>

#include "hws/regs.h"

#ifdef __cplusplus
extern "C" {
#endif

enum hws_backend {
	HWS_BACKEND_MODEL,	/* the C model (models/) */
	HWS_BACKEND_RTL,	/* the Verilated RTL (sim/hws_vsim) */
	HWS_BACKEND_LOCKSTEP,	/* both; every answer compared */
	HWS_BACKEND_TRANSPORT,	/* the callbacks of hws_config.transport ("tlm") */
};

/*
 * A bus to the engine, supplied by the caller (backend HWS_BACKEND_TRANSPORT). @master is
 * the bus master the access comes from (hws_set_master(), e.g. a CPU). read() and write()
 * perform one AXI4-Lite transaction and return the engine clock edges it took; *resp gets
 * 0 (OKAY), 2 (SLVERR or refused by the bus) or 3 (no answer); they add the time the
 * access took, as the bus annotated it (latency, engine cycles, waiting for the bus), to
 * *ns. idle() lets @edges edges pass with the bus idle and adds their time to *ns.
 */
struct hws_transport {
	void *ctx;
	unsigned (*read)(void *ctx, unsigned master, uint32_t addr, uint32_t *data,
			 uint32_t *resp, double *ns);
	unsigned (*write)(void *ctx, unsigned master, uint32_t addr, uint32_t data,
			  uint32_t strb, uint32_t *resp, double *ns);
	void (*idle)(void *ctx, unsigned edges, double *ns);
};

struct hws_config {
	enum hws_backend backend;
	unsigned nr_cpus, nr_tasks, cmd_depth, res_depth;
	unsigned nr_groups;	/* task groups of the load-comparison unit */
	unsigned no_balance;	/* 1: the engine is built without BALANCE (LCU_BALANCE = 0) */
	unsigned no_err_counters; /* 1: ... without the per-code error counters ERR_CNTn
				 * (ERR_COUNTERS = 0; they read 0) */
	const char *wave;	/* rtl/lockstep: FST file to write, or NULL */
	unsigned deep_check;	/* rtl/lockstep: RTL list walk every N idle cycles (0: off) */
	const struct hws_transport *transport;	/* transport: the bus (else unused) */
};

struct hws_dev;

/* Counters of bus traffic since hws_open(). */
struct hws_bus_stats {
	uint64_t reads, writes;	/* MMIO transactions */
	uint64_t edges;		/* clock edges they and hws_idle() took */
	uint64_t commands;	/* words written to CMD */
	double delay_ns;	/* transport: the time the bus annotated to them (else 0) */
};

/* What PICK_NEXT and PEEK return. */
struct hws_pick {
	int found;		/* 0: both arrays empty (NONE) */
	unsigned task, prio;
	int swapped;		/* taken from the expired array */
};

struct hws_cpu_counters {
	uint32_t nr_running, nr_active, nr_expired, load;
};

struct hws_task_state {
	int queued;
	unsigned array, cpu, prio;	/* valid when queued */
	uint32_t weight;		/* 0 when not queued */
	unsigned group;			/* kept while not queued */
};

/* hws_config_default - 8 CPUs, 256 tasks, FIFOs of 16, 16 groups, model backend. */
void hws_config_default(struct hws_config *c);

/* hws_backend_parse - "model", "rtl" or "lockstep"; -EINVAL otherwise (the transport
 * backend, named "tlm", needs callbacks and cannot be chosen by name). */
int hws_backend_parse(const char *name, enum hws_backend *out);
const char *hws_backend_name(enum hws_backend b);

/**
 * hws_open - open an engine instance and check it answers
 * @out: receives the device
 * @cfg: backend and parameters
 * @msg: receives the reason on failure
 * @len: size of @msg
 *
 * Reads ID, NR_CPUS, NR_TASKS and DEPTHS and checks them against @cfg.
 * Return: 0; -EINVAL (bad parameters), -ENOTSUP (no RTL variant for them), -ENOMEM, -EIO.
 */
int hws_open(struct hws_dev **out, const struct hws_config *cfg, char *msg, size_t len);
void hws_close(struct hws_dev *d);

/* The message of the last failed call. */
const char *hws_errmsg(const struct hws_dev *d);

/* hws_cmd - encode a command word (fields are masked to their width). */
uint32_t hws_cmd(unsigned op, unsigned task, unsigned prio, unsigned cpu, unsigned array,
		 unsigned head);

/* Names for messages: "ENQUEUE", "QUEUED" (NULL-safe: "?" for unknown codes). */
const char *hws_op_name(unsigned op);
const char *hws_err_name(unsigned code);
/* hws_err_errno - the negative errno a hardware error code maps to. */
int hws_err_errno(unsigned code);
/* hws_cmd_format - "ENQUEUE task=3 cpu=1 prio=120 array=0 head=0" into @buf. */
char *hws_cmd_format(uint32_t cmd, char *buf, size_t len);

/* ---- Register access ---- */

/* Return 0, -EFAULT on SLVERR, -ETIMEDOUT on a hung bus, -EIO on a lockstep mismatch. */
int hws_reg_read(struct hws_dev *d, uint32_t off, uint32_t *val);
int hws_reg_write(struct hws_dev *d, uint32_t off, uint32_t val);
int hws_reg_write_strb(struct hws_dev *d, uint32_t off, uint32_t val, uint32_t strb);
/* hws_set_master - the bus master of the following accesses (transport backend; others
 * ignore it). Default 0. */
void hws_set_master(struct hws_dev *d, unsigned master);
/* Let @edges clock edges pass. */
int hws_idle(struct hws_dev *d, unsigned edges);
/* Soft reset through CTRL: every queue empty, every counter 0. */
int hws_soft_reset(struct hws_dev *d);

/* ---- Asynchronous commands ---- */

/* hws_submit - write one command word to CMD without waiting. */
int hws_submit(struct hws_dev *d, uint32_t cmd);
/**
 * hws_sync - wait until the engine has no work it can do, and report errors
 * @d: the device
 * @status: receives the STATUS word (may be NULL)
 *
 * Return: 0 when no error was recorded since the last STATUS/SYNC read, else the errno of
 * the most recent one (ERR_LAST), with hws_errmsg() naming it.
 */
int hws_sync(struct hws_dev *d, uint32_t *status);
/* hws_result - read one RESULT word (waits while the engine has work). */
int hws_result(struct hws_dev *d, uint32_t *word);

/* ---- Synchronous commands (docs/accelerator.md section 3) ---- */

int hws_nop(struct hws_dev *d);
int hws_enqueue(struct hws_dev *d, unsigned task, unsigned cpu, unsigned prio,
		unsigned array, int at_head);
int hws_dequeue(struct hws_dev *d, unsigned task);
int hws_pick_next(struct hws_dev *d, unsigned cpu, struct hws_pick *p);
int hws_peek(struct hws_dev *d, unsigned cpu, struct hws_pick *p);
int hws_requeue(struct hws_dev *d, unsigned task);
int hws_set_prio(struct hws_dev *d, unsigned task, unsigned prio);
int hws_migrate(struct hws_dev *d, unsigned task, unsigned cpu);
int hws_cpu_stat(struct hws_dev *d, unsigned cpu, unsigned sel, uint32_t *val);
int hws_task_stat(struct hws_dev *d, unsigned task, unsigned sel, uint32_t *val);
/* Load-comparison unit, first part (docs/accelerator.md section 8). */
int hws_load_tick(struct hws_dev *d, unsigned cpu);
int hws_set_group(struct hws_dev *d, unsigned task, unsigned group);
/* hws_set_weight - from now on @task weighs what priority @prio weighs (SET_WEIGHT) */
int hws_set_weight(struct hws_dev *d, unsigned task, unsigned prio);
int hws_set_idle(struct hws_dev *d, unsigned cpu, int idle);
/* @group is used by the GROUP_LOAD and GROUP_TOTAL selectors only. */
int hws_lcu_stat(struct hws_dev *d, unsigned cpu, unsigned sel, unsigned group,
		 uint32_t *val);

/* Domain table and placement queries (docs/accelerator.md section 8.1). */
/* hws_dom_set - the first CPU of @cpu's block in partition @k (1 cores, 2 packages, 3 nodes) */
int hws_dom_set(struct hws_dev *d, unsigned cpu, unsigned k, unsigned leader);
/* hws_idlest - the least-loaded CPU of @cpu's domain at @level (0..3) into *@found */
int hws_idlest(struct hws_dev *d, unsigned cpu, unsigned level, unsigned *found);
/**
 * hws_idle_core - select_idle_sibling's scan of @cpu's domain at @level
 * @found: the CPU, or -1 when no CPU of the domain is idle
 * @whole_core: 1 when every CPU of its core is idle
 * Return: 0, or -EINVAL (DOMAIN: inconsistent table), -ERANGE.
 */
int hws_idle_core(struct hws_dev *d, unsigned cpu, unsigned level, int *found,
		  int *whole_core);

/* Group powers, imbalance_pct and BALANCE (docs/accelerator.md section 8.2). */
/* hws_dom_set_power - cpu_power (256..131071) of the level-@level group @cpu leads */
int hws_dom_set_power(struct hws_dev *d, unsigned level, unsigned cpu, uint32_t power);
/* hws_dom_set_pct - imbalance_pct (100..255) of the domains at @level */
int hws_dom_set_pct(struct hws_dev *d, unsigned level, unsigned pct);

/* The answer of BALANCE: find_busiest_group + find_busiest_queue. */
struct hws_bal {
	unsigned verdict;	/* enum hws_balance_verdict of firmware/hws_balance.h, 1..7 */
	int busiest;		/* first CPU of the busiest group, -1 when none */
	int busiest_cpu;	/* the CPU to pull from, -1 unless MOVE / MOVE_ONE */
	unsigned this_group;	/* first CPU of the local group */
	uint32_t this_load, max_load, avg_load, imbalance;
};

/**
 * hws_balance_query - BALANCE(@cpu, @level, @idle): one QUERY and four register reads
 * @idle: 0 not idle, 1 idle, 2 newly idle
 * Return: 0, or -EINVAL (DOMAIN), -ERANGE (cpu, level or idle type out of range),
 * -EOPNOTSUPP (the engine is built without BALANCE, hws_config.no_balance; nothing sent).
 */
int hws_balance_query(struct hws_dev *d, unsigned cpu, unsigned level, unsigned idle,
		      struct hws_bal *out);

/* Several STAT commands: all counters of a CPU, all of a task's state. */
int hws_read_cpu_counters(struct hws_dev *d, unsigned cpu, struct hws_cpu_counters *c);
int hws_read_task_state(struct hws_dev *d, unsigned task, struct hws_task_state *s);

/* ---- Introspection ---- */

void hws_get_bus_stats(const struct hws_dev *d, struct hws_bus_stats *s);
const struct hws_config *hws_config_of(const struct hws_dev *d);
/**
 * hws_check - check the model's invariants (model and lockstep backends)
 *
 * Return: 0, -EPROTO with hws_errmsg() naming the violation, or -ENOTSUP on the rtl
 * backend (whose own assertions check it: hws_config.deep_check).
 */
int hws_check(struct hws_dev *d);

/**
 * hws_inject_model_fault - corrupt the model's load counter of @cpu (tests only)
 *
 * Lets a test prove that lockstep catches a disagreement. Return: 0, -ENOTSUP on the rtl
 * backend, -EINVAL for a bad CPU.
 */
int hws_inject_model_fault(struct hws_dev *d, unsigned cpu);

#ifdef __cplusplus
}
#endif

#endif /* HWS_H */
