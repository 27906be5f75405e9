/*
 * hws - the driver of the hwsched engine: one API over a transport.
 *
 *   firmware / CLI / tests
 *          |  hws_enqueue() ... hws_pick_next() ... hws_read_cpu_counters()
 *        [hws_dev] -- register reads/writes (docs/regmap.md) --
 *          |  struct hws_transport (hws/transport.h)
 *   a backend chosen by name ("model", "rtl", "lockstep", "uart", ...) or the caller's bus
 *
 * The driver knows the engine only through the transport: which backends exist is up to
 * what the program links (hws/transport.h). A caller-supplied transport
 * (hws_config.transport, "tlm": sim/vp puts a SystemC TLM-2.0 bus there) also says how
 * long each access took.
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
#include "hws/transport.h"

#ifdef __cplusplus
extern "C" {
#endif

struct hws_config {
	const char *backend;	/* a registered backend: "model", "rtl", "lockstep", ...
				 * (hws_backend_find()); unused with @transport */
	unsigned nr_cpus, nr_tasks, cmd_depth, res_depth;
	unsigned nr_groups;	/* task groups of the load-comparison unit */
	unsigned no_balance;	/* 1: the engine is built without BALANCE (LCU_BALANCE = 0) */
	unsigned no_err_counters; /* 1: ... without the per-code error counters ERR_CNTn
				 * (ERR_COUNTERS = 0; they read 0) */
	unsigned no_irq;	/* 1: ... without the preemption interrupt (IRQ = 0; the
				 * hws_irq_* functions and hws_set_curr() refuse) */
	const char *wave;	/* backends that simulate RTL: FST file to write, or NULL */
	unsigned deep_check;	/* ... the RTL walks its lists every N idle cycles (0: off) */
	const struct hws_transport *transport;	/* the caller's bus ("tlm"), or NULL */
	unsigned bus_random;	/* model, rtl, lockstep: 1 = the master takes AW/W in random
				 * order with random BREADY/RREADY stalls, seeded by @bus_seed
				 * (struct hws_backend_args); 0 = the reference master */
	uint64_t bus_seed;
	unsigned nr_ports;	/* the engine's AXI4-Lite ports, NR_PORTS 1..4 (0 means 1;
				 * docs/accelerator.md 4.5). The functions below use port 0;
				 * hws_pins() drives every port */
	unsigned bal_lanes;	/* BALANCE's lanes, BAL_LANES 1..nr_cpus (0 means nr_cpus; the
				 * latency of BALANCE depends on it, docs/accelerator.md 8.2) */
	unsigned pipe;		/* PIPE: 1 = overlapped issue (docs/accelerator.md 4.1.1;
				 * every backend: the rtl and lockstep ones use a shape
				 * built with it, suffix pi) */
	HWS_PARAMS_ADDED(HWS_PARAMS_DECLARE)	/* regmap/params.def's, after "added" */
};

struct hws_dev;

/* Counters of bus traffic since hws_open(). */
struct hws_bus_stats {
	uint64_t reads, writes;	/* MMIO transactions */
	uint64_t edges;		/* clock edges they and hws_idle() took */
	uint64_t commands;	/* commands sent: words written to CMD, and window reads (each
				 * pushes one, hws_pop()) */
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

/* hws_config_default - the default shape (lib/hws_params.h), backend "model". */
void hws_config_default(struct hws_config *c);

/* hws_config_backend - the name of @c's backend: "tlm" for a caller's transport. */
const char *hws_config_backend(const struct hws_config *c);

/**
 * hws_open - open an engine instance and check it answers
 * @out: receives the device
 * @cfg: backend and parameters
 * @msg: receives the reason on failure
 * @len: size of @msg
 *
 * Opens the backend (or takes the caller's transport), reads ID, NR_CPUS, NR_TASKS,
 * DEPTHS, NR_GROUPS and FEATURES and checks them against @cfg.
 * Return: 0; -EINVAL (bad parameters), -ENOENT (no such backend in this program),
 * -ENOTSUP (the backend cannot build that shape), -ENOMEM, -EIO.
 */
int hws_open(struct hws_dev **out, const struct hws_config *cfg, char *msg, size_t len);
void hws_close(struct hws_dev *d);

/* The message of the last failed call. */
const char *hws_errmsg(const struct hws_dev *d);

/* hws_nr_ports - the engine's AXI4-Lite ports (NR_PORTS). */
unsigned hws_nr_ports(const struct hws_dev *d);

/**
 * hws_pins - one clock edge with every port's pins driven (docs/accelerator.md 4.5)
 * @d: the device
 * @in: hws_nr_ports() entries: each port's master inputs during the cycle
 * @out: as many: each port's outputs after the edge
 *
 * For a caller that runs its own masters on several ports at once (lib/hws_port_master.h
 * is one); on the lockstep backend every output of every port is compared. The edges count
 * in hws_stats() as idle edges do; do not mix with the transactions of this API while one
 * of the caller's is open.
 * Return: 0; -ENOTSUP when the backend has no pins (uart, a caller's bus); -EIO when it
 * failed (a lockstep mismatch: hws_errmsg() says where).
 */
int hws_pins(struct hws_dev *d, const struct hws_axil_in *in, struct hws_axil_out *out);

/* hws_cmd - encode a command word (fields are masked to their width). */
uint32_t hws_cmd(unsigned op, unsigned task, unsigned prio, unsigned cpu, unsigned array,
		 unsigned head);

/* Names for messages: "ENQUEUE", "QUEUED", "CMD" ("?" for unknown codes, "unmapped" for
 * an address that is no register). */
const char *hws_op_name(unsigned op);
const char *hws_err_name(unsigned code);
const char *hws_reg_name(uint32_t off);
/* hws_err_errno - the negative errno a hardware error code maps to. */
int hws_err_errno(unsigned code);
/*
 * The DOM_SET words (docs/accelerator.md 8.1-8.2), packed by the DSET fields of the
 * register map: the leader of @cpu's block in partition @k (1..3); the cpu_power of the
 * level-@level group @cpu leads; the imbalance_pct of @level (@cpu is only checked).
 * Fields are masked.
 */
uint32_t hws_cmd_dom_leader(unsigned cpu, unsigned k, unsigned leader);
uint32_t hws_cmd_dom_power(unsigned cpu, unsigned level, uint32_t power);
uint32_t hws_cmd_dom_pct(unsigned cpu, unsigned level, unsigned pct);
/* hws_cmd_format - "ENQUEUE task=3 cpu=1 prio=120 array=0 head=0" into @buf. */
char *hws_cmd_format(uint32_t cmd, char *buf, size_t len);

/* ---- Register access ---- */

/* Return 0, -EFAULT on SLVERR, -ETIMEDOUT on a hung bus, -EIO when the transport failed
 * (a lockstep mismatch: hws_errmsg() has both answers; a serial line out of step with its
 * board: hws_errmsg() is the line's own message; the device answers nothing more). */
int hws_reg_read(struct hws_dev *d, uint32_t off, uint32_t *val);
int hws_reg_write(struct hws_dev *d, uint32_t off, uint32_t val);
int hws_reg_write_strb(struct hws_dev *d, uint32_t off, uint32_t val, uint32_t strb);
/* hws_set_master - the bus master of the following accesses (a caller's transport that
 * models a shared bus uses it; others ignore it). Default 0. */
void hws_set_master(struct hws_dev *d, unsigned master);
/* Let @edges clock edges pass. */
int hws_idle(struct hws_dev *d, unsigned edges);
/* Soft reset through CTRL: every queue empty, every counter 0. */
int hws_soft_reset(struct hws_dev *d);
/**
 * hws_reset - assert the engine's reset pin (rst_ni) between two transactions, whatever
 * it holds in flight (commands in its FIFO or executing, results not read)
 * @d: the device
 *
 * The engine returns to its reset state, bus interface included, as when it was opened.
 * On lockstep both sides are reset. Return: 0; -ENOTSUP when the transport cannot drive
 * the engine's reset (uart, a caller's bus without it: hws_errmsg() says so); -EIO when
 * the transport failed (a lockstep mismatch).
 */
int hws_reset(struct hws_dev *d);

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

/* ---- One-read picks and posted commands (docs/accelerator.md 4.4, docs/firmware.md) ---- */

/**
 * hws_pop - PICK_NEXT(@cpu) in one bus read: a read of POP[@cpu]
 * @d: the device
 * @cpu: 0..HWS_POP_WORDS-1 (a CPU >= NR_CPUS gets the engine's CPU error, -ERANGE)
 * @p: receives the pick
 * @word: receives the word read (may be NULL), POP_ERRP included
 *
 * The read's PICK_NEXT runs behind every command written before it (posted ones too), so
 * it sees their effects. When the word says an error was recorded (ERRP, or the pick's own
 * error), the driver reads ERR_TOTAL, ERR_LAST and ERR_CMD and keeps what belongs to posted
 * commands for hws_post_errors(). Return: 0, the pick's own errno, or a bus errno.
 */
int hws_pop(struct hws_dev *d, unsigned cpu, struct hws_pick *p, uint32_t *word);
/* hws_peekw - PEEK(@cpu) in one bus read of PEEKW[@cpu]; otherwise as hws_pop(). */
/* hws_windows - 1 when the bus reaches the windows (hws_transport.addr_w >= HWS_ADDR_W);
 * 0: hws_pop()/hws_peekw() send the command and read RESULT and STATUS instead. */
int hws_windows(const struct hws_dev *d);
int hws_peekw(struct hws_dev *d, unsigned cpu, struct hws_pick *p, uint32_t *word);

/* What posted commands' failures left: how many, and the most recent one the driver could
 * attribute to a posted command (its ERR_LAST code and ERR_CMD word). */
struct hws_post_err {
	uint32_t count;
	unsigned code;
	uint32_t cmd;
};

/**
 * hws_post - write @cmd to CMD without reading its outcome (fire and forget)
 *
 * The driver keeps a credit count of the command FIFO: the CMD writes it may still hold
 * (reset by a SYNC read, to its CMD_LEVEL, and by a window read). With no credit left it
 * first reads SYNC (hws_post_flush()), so a posted command never overflows the FIFO.
 * Errors are collected where the driver reads anyway (hws_pop()/hws_peekw() words, SYNC
 * reads) and taken with hws_post_errors(). Return: 0 or a bus errno.
 */
int hws_post(struct hws_dev *d, uint32_t cmd);
/* hws_post_flush - read SYNC: wait for the posted commands, collect their errors. */
int hws_post_flush(struct hws_dev *d);
/* hws_post_credits - CMD writes hws_post() can make before it must read SYNC. */
unsigned hws_post_credits(const struct hws_dev *d);
/**
 * hws_post_errors - take the posted commands' errors collected so far
 * @e: receives them (may be NULL); the driver's record is cleared
 *
 * Return: 0 when none failed, else the errno of the last one, with hws_errmsg() saying how
 * many failed and naming the last one's command word and code.
 */
int hws_post_errors(struct hws_dev *d, struct hws_post_err *e);

/* ---- The preemption interrupt (docs/accelerator.md 4.6) ---- */

/**
 * hws_set_curr - write CURR[@cpu]: the priority of the task @cpu runs, HWS_CURR_IDLE for
 * none. A link of a task with a lower priority number into @cpu's active array then sets
 * its IRQ_PEND bit. Every PICK_NEXT (hws_pop(), hws_pick_next()) sets CURR itself, so
 * this is needed only when the running task's priority changes or the CPU idles without
 * a pick. The write takes effect at its own edge, commands still queued included.
 * Return: 0; -ERANGE for @cpu >= NR_CPUS or @prio > 255; -ENOTSUP where the bus does
 * not reach the CURR window (hws_windows() 0: a serial line's 8-bit addresses).
 * Every function of this section returns -EOPNOTSUPP, sending nothing, on an engine built
 * without the interrupt (IRQ=0, FEATURES.IRQ = 0: hws_config.no_irq).
 */
int hws_set_curr(struct hws_dev *d, unsigned cpu, unsigned prio);
/* hws_irq_pending - read IRQ_PEND (IRQ_PEND1 only when NR_CPUS > 32): bit c = CPU c. */
int hws_irq_pending(struct hws_dev *d, uint64_t *pending);
/* hws_irq_ack - clear the pending bits set in @mask (write-1-to-clear): IRQ_PEND0 is
 * written when bits 31..0 has any, IRQ_PEND1 when bits 63..32 has and NR_CPUS > 32. */
int hws_irq_ack(struct hws_dev *d, uint64_t mask);
/* hws_irq_enable - write IRQ_EN: irq_o = OR of IRQ_PEND & IRQ_EN (IRQ_EN1 only when
 * NR_CPUS > 32). */
int hws_irq_enable(struct hws_dev *d, uint64_t mask);

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
/* hws_dom_set - the first CPU of @cpu's block in partition @k (1 cores, 2 packages, 3
 * nodes); -ERANGE for another @k */
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
	unsigned verdict;	/* enum hws_balance_verdict of lib/hws_balance.h, 1..7 */
	int busiest;		/* first CPU of the busiest group, -1 when none */
	int busiest_cpu;	/* the CPU to pull from, -1 unless MOVE / MOVE_ONE */
	unsigned this_group;	/* first CPU of the local group */
	uint32_t this_load, max_load, avg_load, imbalance;
};

/**
 * hws_balance_query - BALANCE(@cpu, @level, @idle): one QUERY and four register reads
 * (hws_balance_verdict() then hws_balance_loads() of all four)
 * @idle: 0 not idle, 1 idle, 2 newly idle
 * Return: 0, or -EINVAL (DOMAIN), -ERANGE (cpu, level or idle type out of range),
 * -EOPNOTSUPP (the engine is built without BALANCE, hws_config.no_balance; nothing sent).
 */
int hws_balance_query(struct hws_dev *d, unsigned cpu, unsigned level, unsigned idle,
		      struct hws_bal *out);

/**
 * hws_balance_verdict - BALANCE(@cpu, @level, @idle) and its result word only: a CMD write
 * and a RESULT read. Sets @out's verdict, busiest, busiest_cpu and this_group; its four
 * loads are 0 until hws_balance_loads() reads them. Returns as hws_balance_query().
 */
int hws_balance_verdict(struct hws_dev *d, unsigned cpu, unsigned level, unsigned idle,
			struct hws_bal *out);

/* Which of the BAL_* registers hws_balance_loads() reads (one read each). */
#define HWS_BAL_RD_THIS 1u	/* BAL_THIS -> this_load */
#define HWS_BAL_RD_MAX	2u	/* BAL_MAX -> max_load */
#define HWS_BAL_RD_AVG	4u	/* BAL_AVG -> avg_load */
#define HWS_BAL_RD_IMB	8u	/* BAL_IMB -> imbalance */
#define HWS_BAL_RD_ALL	15u

/**
 * hws_balance_loads - read the BAL_* registers named in @which (HWS_BAL_RD_*) into @out
 * The registers hold the most recent successful BALANCE's loads (docs/accelerator.md
 * 8.2), shared by every port: call it after hws_balance_verdict() and before anything
 * else on the engine sends a BALANCE. Fields not named are left as they are.
 * Return: 0, or -EINVAL (@which has a bit outside HWS_BAL_RD_ALL; nothing read), or a
 * bus error.
 */
int hws_balance_loads(struct hws_dev *d, unsigned which, struct hws_bal *out);

/* Several STAT commands: all counters of a CPU, all of a task's state. */
int hws_read_cpu_counters(struct hws_dev *d, unsigned cpu, struct hws_cpu_counters *c);
int hws_read_task_state(struct hws_dev *d, unsigned task, struct hws_task_state *s);

/* ---- Introspection ---- */

void hws_get_bus_stats(const struct hws_dev *d, struct hws_bus_stats *s);
/**
 * hws_bus_report - the transport's own figures since the open (a serial line's frames and
 * bytes), one line without a newline
 * @d: the device
 * @buf: receives the line
 * @len: size of @buf
 *
 * Return: 0, or -ENOTSUP when the transport has nothing to add to hws_get_bus_stats().
 */
int hws_bus_report(const struct hws_dev *d, char *buf, size_t len);
/**
 * hws_overlaps - the commands popped beside an older one since the open (PIPE = 1,
 * docs/accelerator.md 4.1.1), as the backend's model counts them (model, lockstep)
 * @d: the device
 * @n: receives the count (0 when there is none to give)
 *
 * Return: 0, or -ENOTSUP when the backend has no model.
 */
int hws_overlaps(const struct hws_dev *d, uint64_t *n);
const struct hws_config *hws_config_of(const struct hws_dev *d);
/**
 * hws_check - check the model's invariants (backends with a model: model, lockstep)
 * @d: the device
 *
 * Return: 0, -EPROTO with hws_errmsg() naming the violation, or -ENOTSUP when the
 * transport has no check (rtl: its own assertions check it, hws_config.deep_check).
 */
int hws_check(struct hws_dev *d);

/**
 * hws_inject_model_fault - corrupt the model's load counter of @cpu (tests only)
 * @d: the device
 * @cpu: whose load gains 1
 *
 * Lets a test prove that lockstep catches a disagreement. Return: 0, -ENOTSUP when the
 * transport has no model, -EINVAL for a bad CPU.
 */
int hws_inject_model_fault(struct hws_dev *d, unsigned cpu);

/**
 * hws_lockstep_create - a transport that runs two transports in lockstep
 * @ref: the reference (its answers are returned; e.g. the model)
 * @dut: the other (e.g. the RTL)
 * @out: receives the pair; closing it closes both
 *
 * Every read and write goes to both and every answer (data, response, clock edges) is
 * compared; the first mismatch makes the transaction answer HWS_RESP_FAILED with a
 * message naming the command number, the last command written and both answers.
 *
 * When @dut's engine runs on a clock of its own (@dut->settle_edges > 0: a board), @ref
 * idles settle_edges before each transaction, so that it has done what the free-running
 * engine did since the last one, and only data and responses are compared: not the clock
 * edges, nor the data of CYCLES (which counts @dut's own clock; @dut's is returned).
 * Return: 0 or -ENOMEM (then @ref and @dut are still the caller's).
 */
int hws_lockstep_create(struct hws_transport *ref, struct hws_transport *dut,
			struct hws_transport *out);

#ifdef __cplusplus
}
#endif

#endif /* HWS_H */
