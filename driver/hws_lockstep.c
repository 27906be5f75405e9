/*
 * hws_lockstep.c - a transport over two transports: every transaction goes to both, and
 * every answer (data, response, clock edges) is compared (docs/harness.md). Backend
 * "lockstep": the model (reference) against the RTL; "lockstep:B": the model against
 * backend B (e.g. lockstep:uart:/dev/ttyUSB1, a board: docs/board.md). The first mismatch
 * stops the pair: the transaction answers HWS_RESP_FAILED and errmsg() names the command
 * number, the last command written (the inputs) and both answers.
 *
 * Two ways of comparing, chosen by the second side (include/hws/hws.h,
 * hws_lockstep_create()): edge for edge when both engines are clocked by their
 * transports; data and responses only, the reference idled settle_edges before each
 * transaction, when the second engine runs on a clock of its own (dut.settle_edges).
 *
 * Beside the bus, when both sides offer units() (the model and the rtl backend), the units'
 * boundary values (include/hws/units.h) are compared after every transaction, idle and
 * edge at which the model is quiescent; the first difference stops the pair too, and
 * errmsg() names the unit whose values first differ, the edge and both values.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hws/hws.h"
#include "hws/transport.h"

struct lockstep {
	struct hws_transport ref, dut;	/* owned */
	uint64_t commands;		/* words written to CMD */
	uint32_t last_cmd;		/* the last of them */
	uint64_t resets;		/* reset() calls */
	int broken;			/* a mismatch or a failure stopped the pair */
	uint64_t edges;			/* pins() edges */
	uint64_t clock;			/* every edge both sides ran (transactions, idles) */
	int units;			/* both sides offer units(): compared */
	int dirty;			/* the units may have changed since the last compare:
					 * a write, a reset, a fault, a command in flight */
	struct hws_units ua, ub;	/* the last values read, reference and second side */
	char msg[640];
};

static void set_msg(struct lockstep *l, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(l->msg, sizeof(l->msg), fmt, ap);
	va_end(ap);
}

/* One side failed on its own: pass its reason on. */
static unsigned side_failed(struct lockstep *l, const struct hws_transport *t, uint32_t *resp)
{
	l->broken = 1;
	set_msg(l, "%s: %s", t->name, t->ops->errmsg ? t->ops->errmsg(t->ctx) : "failed");
	*resp = HWS_RESP_FAILED;
	return 0;
}

/* One side's pins() failed on its own. */
static int side_failed_pins(struct lockstep *l, const struct hws_transport *t)
{
	uint32_t resp;

	side_failed(l, t, &resp);
	return -EIO;
}

/* Both answers; the clock edges only when they are compared. */
static unsigned mismatch(struct lockstep *l, const char *what, uint32_t off, uint32_t mv,
			 uint32_t mr, unsigned me, uint32_t rv, uint32_t rr, unsigned re,
			 uint32_t *resp)
{
	char cbuf[112], mb[24] = "", rb[24] = "", reg[40] = "", rs[40] = "";

	l->broken = 1;
	if (!l->dut.settle_edges) {
		snprintf(mb, sizeof(mb), " edges %u", me);
		snprintf(rb, sizeof(rb), " edges %u", re);
	}
	if (strcmp(what, "reset"))
		snprintf(reg, sizeof(reg), " %s (0x%02x)", hws_reg_name(off), off);
	if (l->resets)
		snprintf(rs, sizeof(rs), ", after %llu resets", (unsigned long long)l->resets);
	set_msg(l, "lockstep mismatch at command #%llu (last command written: %s%s): %s%s: "
		   "%s data 0x%08x resp %u%s, %s data 0x%08x resp %u%s",
		(unsigned long long)(l->commands ? l->commands - 1 : 0),
		l->commands ? hws_cmd_format(l->last_cmd, cbuf, sizeof(cbuf)) : "none", rs,
		what, reg, l->ref.name, mv, mr, mb, l->dut.name, rv, rr, rb);
	*resp = HWS_RESP_FAILED;
	return 0;
}

/*
 * A second engine on its own clock has had at least dut.settle_edges edges since its last
 * transaction, and every command finishes in far fewer: the reference idles as long, so
 * that it too has done all it could before this one.
 */
static void settle(struct lockstep *l)
{
	double ns = 0;

	if (l->dut.settle_edges)
		l->ref.ops->idle(l->ref.ctx, l->dut.settle_edges, &ns);
}

/* ---- The units' boundary values (include/hws/units.h) ---- */

static const char *const unit_name[HWS_UNIT_COUNT] = {
	[HWS_UNIT_FE] = "fe", [HWS_UNIT_ARBITER] = "arbiter", [HWS_UNIT_SEQ] = "seq",
	[HWS_UNIT_LISTS] = "lists", [HWS_UNIT_LOADS] = "loads", [HWS_UNIT_DOMAIN] = "domain",
	[HWS_UNIT_IRQ] = "irq",
};

/* How many entries of a field are compared: one, a fixed count, one per CPU, two per CPU,
 * one per 32 tasks. */
enum field_count { FC_ONE, FC_FIXED, FC_CPUS, FC_CPUS2, FC_TASKW };

/* One field of struct hws_units: its unit, name, place, count and element size. */
struct unit_field {
	enum hws_unit unit;
	const char *name;
	size_t off;
	enum field_count count;
	unsigned fixed, size;
};

#define UF(u, f, c) { u, #f, offsetof(struct hws_units, f), c, 0, \
		      sizeof(((struct hws_units *)0)->f) }
#define UF_ARR(u, f, c) { u, #f, offsetof(struct hws_units, f), c, \
			  sizeof(((struct hws_units *)0)->f) / \
				  sizeof(((struct hws_units *)0)->f[0]), \
			  sizeof(((struct hws_units *)0)->f[0]) }

/* In enum hws_unit's order: the first field that differs names the unit. */
static const struct unit_field unit_fields[] = {
	UF(HWS_UNIT_FE, fe_eligible, FC_ONE), UF(HWS_UNIT_ARBITER, arb_win, FC_ONE),
	UF(HWS_UNIT_SEQ, seq_busy, FC_ONE), UF(HWS_UNIT_SEQ, seq_two, FC_ONE),
	UF_ARR(HWS_UNIT_LISTS, queued, FC_TASKW), UF_ARR(HWS_UNIT_LOADS, nr, FC_CPUS2),
	UF_ARR(HWS_UNIT_LOADS, load, FC_CPUS), UF_ARR(HWS_UNIT_LOADS, hist, FC_CPUS),
	UF(HWS_UNIT_LOADS, idle, FC_ONE), UF(HWS_UNIT_LOADS, swap, FC_ONE),
	UF_ARR(HWS_UNIT_DOMAIN, bal, FC_FIXED), UF(HWS_UNIT_IRQ, irq_pend, FC_ONE),
	UF(HWS_UNIT_IRQ, irq_en, FC_ONE),
};

/* The entries of @f compared for an engine of @u's size. */
static unsigned field_n(const struct unit_field *f, const struct hws_units *u)
{
	switch (f->count) {
	case FC_FIXED:
		return f->fixed;
	case FC_CPUS:
		return u->nr_cpus;
	case FC_CPUS2:
		return 2 * u->nr_cpus;
	case FC_TASKW:
		return (u->nr_tasks + 31) / 32;
	default:
		return 1;
	}
}

static uint64_t field_value(const struct hws_units *u, const struct unit_field *f, unsigned i)
{
	const unsigned char *p = (const unsigned char *)u + f->off + (size_t)i * f->size;
	uint64_t v64;
	uint32_t v32;

	if (f->size == sizeof(v64)) {
		memcpy(&v64, p, sizeof(v64));
		return v64;
	}
	memcpy(&v32, p, sizeof(v32));
	return v32;
}

/*
 * Compare the units now, when both sides offer them and the model is quiescent: 0, or
 * -EIO with the pair stopped and the message naming the unit that first differs. @what
 * says what ran last ("read", "write", "idle", ...), at register @off for a read or write.
 */
static int units_check(struct lockstep *l, const char *what, uint32_t off)
{
	char cbuf[112], where[48];

	if (!l->units || !l->dirty)
		return 0;
	if (l->ref.ops->units(l->ref.ctx, &l->ua))
		return 0;	/* not quiescent: still dirty */
	l->dirty = 0;
	if (l->dut.ops->units(l->dut.ctx, &l->ub))
		return 0;
	if (l->ua.nr_cpus != l->ub.nr_cpus || l->ua.nr_tasks != l->ub.nr_tasks ||
	    l->ua.nr_cpus > HWS_UNITS_MAX_CPUS || l->ua.nr_tasks > HWS_UNITS_MAX_TASKS) {
		l->broken = 1;
		set_msg(l, "lockstep: the sides' units are of different engines (%s %u CPUs %u "
			   "tasks, %s %u CPUs %u tasks)", l->ref.name, l->ua.nr_cpus,
			l->ua.nr_tasks, l->dut.name, l->ub.nr_cpus, l->ub.nr_tasks);
		return -EIO;
	}
	for (size_t k = 0; k < sizeof(unit_fields) / sizeof(unit_fields[0]); k++) {
		const struct unit_field *f = &unit_fields[k];
		const unsigned n = field_n(f, &l->ua);

		if (!memcmp((const char *)&l->ua + f->off, (const char *)&l->ub + f->off,
			    (size_t)n * f->size))
			continue;
		for (unsigned i = 0; i < n; i++) {
			const uint64_t a = field_value(&l->ua, f, i), b = field_value(&l->ub, f, i);
			char idx[16] = "";

			if (a == b)
				continue;
			if (f->count != FC_ONE)
				snprintf(idx, sizeof(idx), "[%u]", i);
			if (!strcmp(what, "read") || !strcmp(what, "write"))
				snprintf(where, sizeof(where), "%s %s (0x%02x)", what,
					 hws_reg_name(off), off);
			else
				snprintf(where, sizeof(where), "%s", what);
			l->broken = 1;
			set_msg(l, "lockstep mismatch at command #%llu (last command written: %s), "
				   "after %s: unit %s first differs at edge %" PRIu64
				   ": %s %s%s 0x%" PRIx64 ", %s %s%s 0x%" PRIx64,
				(unsigned long long)(l->commands ? l->commands - 1 : 0),
				l->commands ? hws_cmd_format(l->last_cmd, cbuf, sizeof(cbuf)) : "none",
				where, unit_name[f->unit], l->clock, l->ref.name, f->name, idx, a,
				l->dut.name, f->name, idx, b);
			return -EIO;
		}
	}
	return 0;
}

/* After transaction @what at @off: the units compared; on a difference, *resp failed. */
static unsigned units_after(struct lockstep *l, const char *what, uint32_t off, unsigned edges,
			    uint32_t *resp)
{
	l->clock += edges;
	if (units_check(l, what, off)) {
		*resp = HWS_RESP_FAILED;
		return 0;
	}
	return edges;
}

/* Do the two reads agree? CYCLES counts a free-running engine's own clock: not compared. */
static int reads_agree(const struct lockstep *l, uint32_t addr, uint32_t mv, uint32_t mr,
		       unsigned me, uint32_t rv, uint32_t rr, unsigned re)
{
	if (!l->dut.settle_edges)
		return mv == rv && mr == rr && me == re;
	return mr == rr && (mv == rv || addr == HWS_REG_CYCLES);
}

static unsigned ls_read(void *ctx, unsigned master, uint32_t addr, uint32_t *data,
			uint32_t *resp, double *ns)
{
	struct lockstep *l = ctx;
	uint32_t mv = 0, mr = 0, rv = 0, rr = 0;
	unsigned me, re;
	double dut_ns = 0;

	if (l->broken) {
		*resp = HWS_RESP_FAILED;
		return 0;
	}
	if (addr >= HWS_POP_BASE)	/* a window read runs a PICK_NEXT or PEEK */
		l->dirty = 1;
	settle(l);
	me = l->ref.ops->read(l->ref.ctx, master, addr, &mv, &mr, ns);
	if (mr == HWS_RESP_FAILED)
		return side_failed(l, &l->ref, resp);
	re = l->dut.ops->read(l->dut.ctx, master, addr, &rv, &rr, &dut_ns);
	if (rr == HWS_RESP_FAILED)
		return side_failed(l, &l->dut, resp);
	if (!reads_agree(l, addr, mv, mr, me, rv, rr, re))
		return mismatch(l, "read", addr, mv, mr, me, rv, rr, re, resp);
	*data = l->dut.settle_edges && addr == HWS_REG_CYCLES ? rv : mv;
	*resp = mr;
	return units_after(l, "read", addr, me, resp);
}

static unsigned ls_write(void *ctx, unsigned master, uint32_t addr, uint32_t data,
			 uint32_t strb, uint32_t *resp, double *ns)
{
	struct lockstep *l = ctx;
	uint32_t mr = 0, rr = 0;
	unsigned me, re;
	double dut_ns = 0;

	if (l->broken) {
		*resp = HWS_RESP_FAILED;
		return 0;
	}
	if (addr == HWS_REG_CMD) {
		l->last_cmd = data;
		l->commands++;
	}
	l->dirty = 1;
	settle(l);
	me = l->ref.ops->write(l->ref.ctx, master, addr, data, strb, &mr, ns);
	if (mr == HWS_RESP_FAILED)
		return side_failed(l, &l->ref, resp);
	re = l->dut.ops->write(l->dut.ctx, master, addr, data, strb, &rr, &dut_ns);
	if (rr == HWS_RESP_FAILED)
		return side_failed(l, &l->dut, resp);
	if (mr != rr || (me != re && !l->dut.settle_edges))
		return mismatch(l, "write", addr, data, mr, me, data, rr, re, resp);
	*resp = mr;
	return units_after(l, "write", addr, me, resp);
}

static void ls_idle(void *ctx, unsigned edges, double *ns)
{
	struct lockstep *l = ctx;
	double dut_ns = 0;

	if (l->broken)
		return;
	l->ref.ops->idle(l->ref.ctx, edges, ns);
	l->dut.ops->idle(l->dut.ctx, edges, &dut_ns);
	l->clock += edges;
	units_check(l, "idle", 0);	/* a difference stops the pair: the next access fails */
}

/*
 * Both engines' reset, asserted between two transactions (whatever they hold in flight):
 * the edges compared as a write's are. The registers are not read here: the caller reads
 * them through the pair, each read compared (hws_randcmd.c checks them against the
 * spec's reset values too).
 */
static unsigned ls_reset(void *ctx, uint32_t *resp, double *ns)
{
	struct lockstep *l = ctx;
	uint32_t mr = 0, rr = 0;
	unsigned me, re;
	double dut_ns = 0;

	if (l->broken) {
		*resp = HWS_RESP_FAILED;
		return 0;
	}
	l->resets++;
	l->dirty = 1;
	settle(l);
	me = l->ref.ops->reset(l->ref.ctx, &mr, ns);
	if (mr == HWS_RESP_FAILED)
		return side_failed(l, &l->ref, resp);
	re = l->dut.ops->reset(l->dut.ctx, &rr, &dut_ns);
	if (rr == HWS_RESP_FAILED)
		return side_failed(l, &l->dut, resp);
	if (mr != rr || (me != re && !l->dut.settle_edges))
		return mismatch(l, "reset", 0, 0, mr, me, 0, rr, re, resp);
	*resp = mr;
	l->clock += me;
	if (units_check(l, "reset", 0)) {
		*resp = HWS_RESP_FAILED;
		return 0;
	}
	return me;
}

static void ls_destroy(void *ctx)
{
	struct lockstep *l = ctx;

	hws_transport_close(&l->dut);
	hws_transport_close(&l->ref);
	free(l);
}

static const char *ls_errmsg(void *ctx)
{
	return ((struct lockstep *)ctx)->msg;
}

/* The check and the fault injection of whichever side offers them (the model). */
static const struct hws_transport *side_with(const struct lockstep *l, int inject)
{
	if (inject ? l->ref.ops->inject_fault != NULL : l->ref.ops->check != NULL)
		return &l->ref;
	if (inject ? l->dut.ops->inject_fault != NULL : l->dut.ops->check != NULL)
		return &l->dut;
	return NULL;
}

static int ls_check(void *ctx, char *msg, size_t len)
{
	const struct hws_transport *t = side_with(ctx, 0);

	if (!t) {
		snprintf(msg, len, "neither side of the lockstep pair can check its invariants");
		return -ENOTSUP;
	}
	return t->ops->check(t->ctx, msg, len);
}

static int ls_inject_fault(void *ctx, unsigned cpu)
{
	const struct hws_transport *t = side_with(ctx, 1);

	((struct lockstep *)ctx)->dirty = 1;
	return t ? t->ops->inject_fault(t->ctx, cpu) : -ENOTSUP;
}

/* The overlapped pops the first side with a model counted (the sides agree pin for pin). */
static int ls_overlaps(void *ctx, uint64_t *n)
{
	const struct lockstep *l = ctx;

	if (l->ref.ops->overlaps)
		return l->ref.ops->overlaps(l->ref.ctx, n);
	if (l->dut.ops->overlaps)
		return l->dut.ops->overlaps(l->dut.ctx, n);
	return -ENOTSUP;
}

/* The figures of whichever sides have some, "; " between them. */
static int ls_report(void *ctx, char *buf, size_t len)
{
	const struct lockstep *l = ctx;
	const struct hws_transport *side[2] = { &l->ref, &l->dut };
	char one[256];
	size_t n = 0;
	int k, got = 0;

	if (len)
		buf[0] = '\0';
	for (k = 0; k < 2 && n < len; k++) {
		if (!side[k]->ops->report || side[k]->ops->report(side[k]->ctx, one, sizeof(one)))
			continue;
		n += (size_t)snprintf(buf + n, len - n, "%s%s", got ? "; " : "", one);
		got = 1;
	}
	return got ? 0 : -ENOTSUP;
}

/* Every port's pins on both sides, every output of every port compared. */
static int ls_pins(void *ctx, const struct hws_axil_in *in, struct hws_axil_out *out)
{
	struct lockstep *l = ctx;
	struct hws_axil_out d[HWS_AXIL_MAX_PORTS];
	const unsigned np = l->ref.nr_ports ? l->ref.nr_ports : 1;

	if (l->broken)
		return -EIO;
	if (!l->ref.ops->pins || !l->dut.ops->pins || np > HWS_AXIL_MAX_PORTS ||
	    np != (l->dut.nr_ports ? l->dut.nr_ports : 1)) {
		set_msg(l, "the pair cannot be driven by its pins (%s and %s)", l->ref.name,
			l->dut.name);
		l->broken = 1;
		return -EIO;
	}
	if (l->ref.ops->pins(l->ref.ctx, in, out))
		return side_failed_pins(l, &l->ref);
	if (l->dut.ops->pins(l->dut.ctx, in, d))
		return side_failed_pins(l, &l->dut);
	l->edges++;
	for (unsigned i = 0; i < np; i++) {
		const struct hws_axil_out *a = &out[i], *b = &d[i];

		if (a->awready != b->awready || a->wready != b->wready || a->bvalid != b->bvalid ||
		    a->bresp != b->bresp || a->arready != b->arready || a->rvalid != b->rvalid ||
		    (a->rvalid && (a->rdata != b->rdata || a->rresp != b->rresp))) {
			set_msg(l, "pins, edge %llu of the pin-driven run, port %u: %s awready %u "
				"wready %u bvalid %u/%u arready %u rvalid %u/%u 0x%08x, %s awready %u "
				"wready %u bvalid %u/%u arready %u rvalid %u/%u 0x%08x",
				(unsigned long long)l->edges, i, l->ref.name, a->awready, a->wready,
				a->bvalid, a->bresp, a->arready, a->rvalid, a->rresp, a->rdata,
				l->dut.name, b->awready, b->wready, b->bvalid, b->bresp, b->arready,
				b->rvalid, b->rresp, b->rdata);
			l->broken = 1;
			return -EIO;
		}
	}
	l->clock++;
	l->dirty = 1;	/* the edge may have taken a write */
	return units_check(l, "an edge of the pin-driven run", 0);
}

static const struct hws_transport_ops lockstep_ops = {
	.read = ls_read,
	.write = ls_write,
	.idle = ls_idle,
	.destroy = ls_destroy,
	.errmsg = ls_errmsg,
	.check = ls_check,
	.inject_fault = ls_inject_fault,
	.report = ls_report,
	.pins = ls_pins,
	.overlaps = ls_overlaps,
};

/* A pair whose sides can both be reset: the same, with reset(). */
static const struct hws_transport_ops lockstep_reset_ops = {
	.read = ls_read,
	.write = ls_write,
	.idle = ls_idle,
	.destroy = ls_destroy,
	.errmsg = ls_errmsg,
	.check = ls_check,
	.inject_fault = ls_inject_fault,
	.report = ls_report,
	.reset = ls_reset,
	.pins = ls_pins,
	.overlaps = ls_overlaps,
};

int hws_lockstep_create(struct hws_transport *ref, struct hws_transport *dut,
			struct hws_transport *out)
{
	struct lockstep *l = calloc(1, sizeof(*l));

	if (!l)
		return -ENOMEM;
	l->ref = *ref;
	l->dut = *dut;
	out->ops = ref->ops->reset && dut->ops->reset ? &lockstep_reset_ops : &lockstep_ops;
	out->ctx = l;
	out->name = "lockstep";
	out->addr_w = ref->addr_w < dut->addr_w ? ref->addr_w : dut->addr_w;
	out->nr_ports = ref->nr_ports;
	l->units = ref->ops->units && dut->ops->units && !dut->settle_edges;
	l->dirty = 1;
	return 0;
}

/*
 * Backend "lockstep": the model against the RTL, both opened by name; "lockstep:B" the
 * model against backend B (which may carry its own argument: lockstep:uart:DEVICE).
 */
static int lockstep_open(const struct hws_backend_args *a, struct hws_transport *out,
			 char *msg, size_t len)
{
	const char *other = a->arg && *a->arg ? a->arg : "rtl";
	struct hws_transport ref, dut;
	int ret;

	ret = hws_transport_open("model", a, &ref, msg, len);
	if (ret)
		return ret;
	ret = hws_transport_open(other, a, &dut, msg, len);
	if (ret) {
		hws_transport_close(&ref);
		return ret;
	}
	ret = hws_lockstep_create(&ref, &dut, out);
	if (ret) {
		snprintf(msg, len, "out of memory");
		hws_transport_close(&dut);
		hws_transport_close(&ref);
	}
	return ret;
}

static struct hws_backend lockstep_backend = {
	.name = "lockstep",
	.summary = "model and rtl together, every answer compared (lockstep:B: the model and "
		   "backend B)",
	.open = lockstep_open,
	.arg = "B (another backend, e.g. uart:DEVICE)",
};

__attribute__((constructor)) static void lockstep_register(void)
{
	hws_backend_register(&lockstep_backend);
}
