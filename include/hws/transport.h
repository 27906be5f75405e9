/*
 * transport.h - the one interface between the driver and an engine: bus transactions.
 *
 *          driver (driver/hws.c): registers, commands, errors
 *                        |  struct hws_transport: read / write / idle
 *      +---------+-------+--------+------------------+------------------+
 *    model      rtl          lockstep             uart              tlm (the caller's)
 *   models/   sim/harness/   driver/hws_lockstep.c  driver/hws_uart.c  sim/vp: a SystemC bus
 *             (Verilated)    two transports, every  a board over a
 *                            answer compared        serial line
 *
 * A transport performs AXI4-Lite transactions on one engine, as the reference bus master
 * of docs/accelerator.md section 4.2 does them, and reports the clock edges each one took.
 * The driver knows engines only through this interface: it includes no model and no
 * simulator. A transport may also offer optional operations (NULL when it does not):
 * the model's invariant check and fault injection, which the driver exposes as hws_check()
 * and hws_inject_model_fault().
 *
 * Backends are found by name in a registry (hws_backend_find()). A backend registers
 * itself when the program links it: models/ registers "model", the Verilator harness
 * (sim/harness/) "rtl", the driver "lockstep" and "uart". A program without the harness
 * simply has no "rtl". A name may carry an argument after a colon ("uart:/dev/ttyUSB1");
 * the backend called "uart" then receives "/dev/ttyUSB1".
 *
 * Most engines behind a transport are clocked by it: their clock advances only in the
 * transactions and idle(), and each reports the edges it took. An engine on a board runs
 * on a clock of its own; its transport says so with settle_edges (struct hws_transport).
 */
#ifndef HWS_TRANSPORT_H
#define HWS_TRANSPORT_H

#include <stddef.h>
#include <stdint.h>

#include "hws/axil_pins.h"
#include "hws/params_list.h"
#include "hws/units.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Responses of a transaction: AXI's RRESP/BRESP, and two of the transport's own. */
#define HWS_RESP_OKAY	0u	/* done */
#define HWS_RESP_SLVERR	2u	/* refused by the engine or the bus */
#define HWS_RESP_NONE	3u	/* no answer: the engine never completed the handshake */
#define HWS_RESP_FAILED	0x100u	/* the transport itself failed (e.g. a lockstep mismatch):
				 * ops->errmsg() says why; the transport answers nothing more */

/*
 * The parameters of one engine instance (docs/accelerator.md section 1), one unsigned
 * field each, in the order of regmap/params.def (include/hws/params_list.h, generated;
 * HWS_PARAMS_FIELD_DOCS there says what each holds):
 *   nr_cpus 1..64, nr_tasks 1..4096, cmd_depth 2..32, res_depth 2..32, nr_groups 1..64,
 *   no_balance 0, 1 (1 = built without BALANCE, LCU_BALANCE = 0), no_err_counters 0, 1
 *   (ERR_COUNTERS = 0), nr_ports 0..4 (NR_PORTS; 0 means 1), bal_lanes 0..nr_cpus
 *   (BAL_LANES; 0 means nr_cpus), no_irq 0, 1 (IRQ = 0), pipe 0, 1 (PIPE),
 * then any parameter added since. Ranges, defaults and checks: lib/hws_params.h.
 */
struct hws_params {
	HWS_PARAMS_FIELDS(HWS_PARAMS_DECLARE)
};

/*
 * What a transport does. @ctx is struct hws_transport.ctx. @master is the bus master the
 * access comes from (a CPU: hws_set_master()); only transports that model a shared bus
 * use it. @ns accumulates the time a transport that models a bus annotated to the access
 * (latency, waiting for the port, engine cycles); the others leave it alone.
 */
struct hws_transport_ops {
	/* One read: *data and *resp (HWS_RESP_*); returns the clock edges it took. */
	unsigned (*read)(void *ctx, unsigned master, uint32_t addr, uint32_t *data,
			 uint32_t *resp, double *ns);
	/* One write with byte strobes @strb: *resp; returns the clock edges it took. */
	unsigned (*write)(void *ctx, unsigned master, uint32_t addr, uint32_t data,
			  uint32_t strb, uint32_t *resp, double *ns);
	/* Let @edges clock edges pass with the bus idle. */
	void (*idle)(void *ctx, unsigned edges, double *ns);

	/* Optional operations: NULL when the transport does not offer them. */
	/* Free the transport (NULL: the caller owns @ctx). */
	void (*destroy)(void *ctx);
	/* Why the last transaction answered HWS_RESP_FAILED. */
	const char *(*errmsg)(void *ctx);
	/* Check the engine's invariants (the model's): 0, or -EPROTO with @msg set. */
	int (*check)(void *ctx, char *msg, size_t len);
	/* Corrupt the engine on purpose (the model's load of @cpu + 1), for tests of a
	 * checker: 0, or -EINVAL for a CPU out of range. */
	int (*inject_fault)(void *ctx, unsigned cpu);
	/* The transport's own figures since it was opened (what went over its line), one
	 * line without a newline into @buf: 0, or -ENOTSUP when it has none to add. */
	int (*report)(void *ctx, char *buf, size_t len);
	/* Assert the engine's reset (rst_ni) for HWS_RESET_EDGES edges between two
	 * transactions, whatever the engine is doing (commands in its FIFO or executing),
	 * and release it: the engine is in its reset state, as after opening. *resp:
	 * HWS_RESP_OKAY, or HWS_RESP_FAILED (errmsg() says why); returns the edges taken. */
	unsigned (*reset)(void *ctx, uint32_t *resp, double *ns);
	/* One clock edge with every port's pins driven (struct hws_transport.nr_ports
	 * entries each, include/hws/axil_pins.h; docs/accelerator.md 4.5): 0, or -EIO when
	 * the transport failed (errmsg() says why: a lockstep pair whose outputs differ). The
	 * transactions above drive port 0; do not mix the two while a transaction is open. */
	int (*pins)(void *ctx, const struct hws_axil_in *in, struct hws_axil_out *out);
	/* Optional: the commands popped beside an older one since the open (PIPE = 1,
	 * docs/accelerator.md 4.1.1), as the transport's model counts them: 0, or -ENOTSUP
	 * when it has no model. */
	int (*overlaps)(void *ctx, uint64_t *n);
	/* Optional: the units' boundary values now (include/hws/units.h): 0, or -EAGAIN when
	 * the engine is not at a point where they are compared (the model: a command in
	 * flight or in a FIFO). A lockstep pair whose sides both have it compares them. */
	int (*units)(void *ctx, struct hws_units *u);
};

/* The edges a transport's reset() holds rst_ni low: the harness's (hws_vsim_reset()). */
#define HWS_RESET_EDGES 2u

/* One engine behind a bus. */
struct hws_transport {
	const struct hws_transport_ops *ops;
	void *ctx;
	const char *name;	/* for messages: "model", "rtl", "lockstep", "uart", "tlm" */
	unsigned settle_edges;	/* 0: the engine is clocked by the transport (above). Else
				 * it runs on a clock of its own (a board behind a serial
				 * line): at least this many edges pass between two of its
				 * transactions, idle() adds none, and the edges a
				 * transaction reports are not its clock's. A lockstep pair
				 * with such a second side compares data and responses only
				 * (hws_lockstep_create()). */
	unsigned addr_w;	/* address bits the bus carries to the engine: HWS_ADDR_W
				 * (model, rtl) reaches the POP/PEEKW windows; 0 (a serial
				 * line's 8-bit frames, a caller's bus that decodes 256 bytes)
				 * the registers only: hws_pop()/hws_peekw() then send the
				 * command and read RESULT instead */
	unsigned nr_ports;	/* the engine's AXI4-Lite ports (NR_PORTS); 0 means 1 */
};

/* What a backend needs to open an engine. */
struct hws_backend_args {
	struct hws_params params;	/* the engine's shape */
	const char *arg;	/* the text after "NAME:" in the backend's name, or NULL */
	const char *wave;	/* FST waveform to write (backends that simulate RTL), or NULL */
	unsigned deep_check;	/* RTL: walk every list every N idle cycles (0: off) */
	unsigned bus_random;	/* model, rtl: 0: the reference master; 1: each transaction's
				 * channel order and back-pressure drawn from @bus_seed
				 * (lib/hws_bus_timing.h); the same seed, the same draws */
	uint64_t bus_seed;
};

/* A backend: a named way to open a transport. */
struct hws_backend {
	const char *name;	/* "model", "rtl", "lockstep", "uart"; matched before any ':' */
	const char *summary;	/* one line for a user: what it is */
	/* Open an engine of @a->params into *@out; on failure a negative errno with @msg
	 * naming the reason (-ENOTSUP: this backend cannot build that shape). */
	int (*open)(const struct hws_backend_args *a, struct hws_transport *out, char *msg,
		    size_t len);
	/* Optional: the engine shapes this backend can open, for messages (NULL: any). */
	const char *(*shapes)(void);
	/* What it takes after "NAME:", for messages ("DEVICE[,baud=N]..."); NULL: nothing,
	 * and "NAME:ARG" is refused (hws_backend_check). */
	const char *arg;
	struct hws_backend *next;	/* the registry's list (set by hws_backend_register) */
};

/**
 * hws_backend_register - make a backend findable by name
 * @b: the backend; it must live as long as the program (its @next is used)
 *
 * Backends call this from a constructor of the unit that implements them, so linking the
 * unit registers it. Return: 0, or -EEXIST when a backend of that name exists.
 */
int hws_backend_register(struct hws_backend *b);

/**
 * hws_backend_find - the registered backend a name selects
 * @name: "NAME" or "NAME:ARG"
 *
 * Return: the backend, or NULL when none of that name is linked into the program.
 */
const struct hws_backend *hws_backend_find(const char *name);

/**
 * hws_backend_check - is @name a backend of this program, with an argument only if it
 * takes one?
 * @name: "NAME" or "NAME:ARG"
 *
 * Return: 0; -ENOENT (no such backend, @msg lists those linked in) or -EINVAL (an
 * argument a backend does not take, or none where one is needed), with @msg.
 */
int hws_backend_check(const char *name, char *msg, size_t len);

/**
 * hws_backend_list - the names of the registered backends, sorted, separated by ", "
 *
 * Return: a static string (valid until the next call).
 */
const char *hws_backend_list(void);

/**
 * hws_transport_open - open the engine a backend name selects
 * @name: "NAME" or "NAME:ARG"
 * @a: the shape and options (@a->arg is set from @name)
 * @out: receives the transport; close it with hws_transport_close()
 * @msg: receives the reason on failure
 * @len: size of @msg
 *
 * Return: 0; -ENOENT when no backend of that name is linked in (@msg lists those that
 * are), or the backend's error.
 */
int hws_transport_open(const char *name, const struct hws_backend_args *a,
		       struct hws_transport *out, char *msg, size_t len);

/* hws_transport_close - free a transport opened by hws_transport_open() (NULL-safe). */
void hws_transport_close(struct hws_transport *t);

#ifdef __cplusplus
}
#endif

#endif /* HWS_TRANSPORT_H */
