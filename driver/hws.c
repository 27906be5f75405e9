/*
 * hws.c - the hwsched driver; see include/hws/hws.h. Every access goes through one
 * struct hws_transport; the backends live below (models/, sim/harness/) or beside
 * (hws_lockstep.c, hws_uart.c) and are opened by name (lib/hws_backend.c).
 */
#include "hws/hws.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/hws_params.h"

struct hws_dev {
	struct hws_config cfg;
	struct hws_transport tp;	/* the engine's bus */
	int own_tp;			/* opened here (closed with the device) */
	unsigned master;		/* the master of the next accesses */
	struct hws_bus_stats stats;
	int broken;			/* the transport failed: the device answers nothing */
	char msg[512];
	/* Posted commands (hws_post(), docs/firmware.md "Bus protocol"). */
	int posting;			/* hws_post() or a window read was used: errors are
					 * accounted by ERR_TOTAL from then on */
	unsigned posted;		/* CMD writes the command FIFO may still hold (an
					 * upper bound: the credits used) */
	uint32_t err_seen;		/* ERR_TOTAL when the driver last accounted errors */
	struct hws_post_err perr;	/* posted commands' errors not yet taken */
};

static const char *const op_names[16] = {
#define X(name, code, lat, res) [code] = #name,
	HWS_FOR_EACH_OP(X)
#undef X
};

static const char *const err_names[16] = {
#define X(name, code, eno) [code] = #name,
	HWS_FOR_EACH_ERR(X)
#undef X
};

static const int err_errnos[16] = {
#define X(name, code, eno) [code] = eno,
	HWS_FOR_EACH_ERR(X)
#undef X
};

static const char *const reg_names[64] = {
#define X(name, off, acc) [(off) / 4] = #name,
	HWS_FOR_EACH_REG(X)
#undef X
};

const char *hws_op_name(unsigned op)
{
	return op < 16 && op_names[op] ? op_names[op] : "?";
}

const char *hws_err_name(unsigned code)
{
	return code < 16 && err_names[code] ? err_names[code] : "?";
}

int hws_err_errno(unsigned code)
{
	return code < 16 && err_names[code] ? -err_errnos[code] : -EIO;
}

const char *hws_reg_name(uint32_t off)
{
	if (off >= HWS_POP_BASE && off < HWS_POP_BASE + 4 * HWS_POP_WORDS && !(off & 3))
		return "POP";
	if (off >= HWS_PEEK_BASE && off < HWS_PEEK_BASE + 4 * HWS_POP_WORDS && !(off & 3))
		return "PEEKW";
	return off < 256 && !(off & 3) && reg_names[off / 4] ? reg_names[off / 4] : "unmapped";
}

uint32_t hws_cmd(unsigned op, unsigned task, unsigned prio, unsigned cpu, unsigned array,
		 unsigned head)
{
	return ((uint32_t)op << HWS_CMD_OP_LSB & HWS_CMD_OP_MASK) |
	       ((uint32_t)task << HWS_CMD_TASK_LSB & HWS_CMD_TASK_MASK) |
	       ((uint32_t)prio << HWS_CMD_PRIO_LSB & HWS_CMD_PRIO_MASK) |
	       ((uint32_t)cpu << HWS_CMD_CPU_LSB & HWS_CMD_CPU_MASK) |
	       ((uint32_t)array << HWS_CMD_ARRAY_LSB & HWS_CMD_ARRAY_MASK) |
	       ((uint32_t)head << HWS_CMD_HEAD_LSB & HWS_CMD_HEAD_MASK);
}

char *hws_cmd_format(uint32_t c, char *buf, size_t len)
{
	snprintf(buf, len, "%s task=%u prio=%u cpu=%u array=%u head=%u (0x%08x)",
		 hws_op_name(c >> HWS_CMD_OP_LSB & 0xf),
		 (unsigned)((c & HWS_CMD_TASK_MASK) >> HWS_CMD_TASK_LSB),
		 (unsigned)((c & HWS_CMD_PRIO_MASK) >> HWS_CMD_PRIO_LSB),
		 (unsigned)((c & HWS_CMD_CPU_MASK) >> HWS_CMD_CPU_LSB),
		 (unsigned)((c & HWS_CMD_ARRAY_MASK) >> HWS_CMD_ARRAY_LSB),
		 (unsigned)((c & HWS_CMD_HEAD_MASK) >> HWS_CMD_HEAD_LSB), c);
	return buf;
}

static void set_msg(struct hws_dev *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
	va_end(ap);
}

const char *hws_errmsg(const struct hws_dev *d)
{
	return d->msg;
}

void hws_config_default(struct hws_config *c)
{
	struct hws_params p;

	memset(c, 0, sizeof(*c));
	hws_params_default(&p);
	c->backend = "model";
	c->nr_cpus = p.nr_cpus;
	c->nr_tasks = p.nr_tasks;
	c->cmd_depth = p.cmd_depth;
	c->res_depth = p.res_depth;
	c->nr_groups = p.nr_groups;
#define COPY(field, NAME) c->field = p.field;
	HWS_PARAMS_ADDED(COPY)	/* regmap/params.def's, after "added" */
#undef COPY
}

const char *hws_config_backend(const struct hws_config *c)
{
	if (c->transport)
		return c->transport->name ? c->transport->name : "tlm";
	return c->backend ? c->backend : "?";
}

/* ---- Register access: one transaction on the transport ---- */

static int resp_errno(struct hws_dev *d, uint32_t resp, int write, uint32_t off)
{
	if (resp == HWS_RESP_OKAY)
		return 0;
	if (resp == HWS_RESP_FAILED) {
		d->broken = 1;
		set_msg(d, "%s", d->tp.ops->errmsg ? d->tp.ops->errmsg(d->tp.ctx) :
			"the transport failed");
		return -EIO;
	}
	if (resp == HWS_RESP_NONE) {
		set_msg(d, "%s of %s (0x%02x): the engine never answered", write ? "write" : "read",
			hws_reg_name(off), off);
		return -ETIMEDOUT;
	}
	set_msg(d, "%s of %s (0x%02x) refused with SLVERR", write ? "write" : "read",
		hws_reg_name(off), off);
	return -EFAULT;
}

int hws_reg_read(struct hws_dev *d, uint32_t off, uint32_t *val)
{
	uint32_t v = 0, r = 0;
	unsigned e;

	if (d->broken)
		return -EIO;
	e = d->tp.ops->read(d->tp.ctx, d->master, off, &v, &r, &d->stats.delay_ns);
	d->stats.reads++;
	if (r == HWS_RESP_FAILED)
		return resp_errno(d, r, 0, off);
	d->stats.edges += e;
	*val = v;
	return resp_errno(d, r, 0, off);
}

int hws_reg_write_strb(struct hws_dev *d, uint32_t off, uint32_t val, uint32_t strb)
{
	uint32_t r = 0;
	unsigned e;

	if (d->broken)
		return -EIO;
	if (off == HWS_REG_CMD) {
		d->stats.commands++;
		d->posted++;
	}
	if (off == HWS_REG_CTRL && (val & (HWS_CTRL_SOFT_RESET_MASK | HWS_CTRL_ERR_CLEAR_MASK))) {
		d->err_seen = 0;	/* ERR_TOTAL starts again from 0 */
		if (val & HWS_CTRL_SOFT_RESET_MASK)
			d->posted = 0;
	}
	e = d->tp.ops->write(d->tp.ctx, d->master, off, val, strb, &r, &d->stats.delay_ns);
	d->stats.writes++;
	if (r == HWS_RESP_FAILED)
		return resp_errno(d, r, 1, off);
	d->stats.edges += e;
	return resp_errno(d, r, 1, off);
}

int hws_reg_write(struct hws_dev *d, uint32_t off, uint32_t val)
{
	return hws_reg_write_strb(d, off, val, 0xfu);
}

void hws_set_master(struct hws_dev *d, unsigned master)
{
	d->master = master;
}

int hws_idle(struct hws_dev *d, unsigned edges)
{
	if (d->broken)
		return -EIO;
	d->tp.ops->idle(d->tp.ctx, edges, &d->stats.delay_ns);
	d->stats.edges += edges;
	return 0;
}

unsigned hws_nr_ports(const struct hws_dev *d)
{
	return d->tp.nr_ports ? d->tp.nr_ports : 1;
}

int hws_pins(struct hws_dev *d, const struct hws_axil_in *in, struct hws_axil_out *out)
{
	if (d->broken)
		return -EIO;
	if (!d->tp.ops->pins) {
		set_msg(d, "%s: the bus has no pins to drive per port", d->tp.name);
		return -ENOTSUP;
	}
	if (d->tp.ops->pins(d->tp.ctx, in, out)) {
		d->broken = 1;
		set_msg(d, "%s", d->tp.ops->errmsg ? d->tp.ops->errmsg(d->tp.ctx) : "pins failed");
		return -EIO;
	}
	d->stats.edges++;
	return 0;
}

int hws_soft_reset(struct hws_dev *d)
{
	return hws_reg_write(d, HWS_REG_CTRL, HWS_CTRL_SOFT_RESET_MASK);
}

int hws_reset(struct hws_dev *d)
{
	uint32_t r = 0;
	unsigned e;

	if (d->broken)
		return -EIO;
	if (!d->tp.ops->reset) {
		set_msg(d, "the %s backend cannot drive the engine's reset pin", d->tp.name ?
			d->tp.name : "caller's");
		return -ENOTSUP;
	}
	e = d->tp.ops->reset(d->tp.ctx, &r, &d->stats.delay_ns);
	if (r == HWS_RESP_FAILED)
		return resp_errno(d, r, 1, 0);
	d->stats.edges += e;
	d->posted = 0;
	d->err_seen = 0;
	return 0;
}

/* ---- Open / close ---- */

static int check_id(struct hws_dev *d)
{
	const struct hws_config *c = &d->cfg;
	const unsigned lanes = c->bal_lanes ? c->bal_lanes : c->nr_cpus;
	/* FEATURES.PIPE changes timing, not what a command does (docs/accelerator.md 4.1.1):
	 * asked for, it must be there; not asked for, either (the backend may choose it, as
	 * model:pipe does). */
	const uint32_t feat_mask = c->pipe ? ~0u : ~HWS_FEATURES_PIPE_MASK;
	struct hws_params p;
	uint32_t want_feat;
	uint32_t id, cpus, tasks, depths, groups, feat;
	int ret;

	hws_params_of_config(&p, c);
	want_feat = hws_params_features(&p);
	ret = hws_reg_read(d, HWS_REG_ID, &id);
	if (!ret)
		ret = hws_reg_read(d, HWS_REG_NR_CPUS, &cpus);
	if (!ret)
		ret = hws_reg_read(d, HWS_REG_NR_TASKS, &tasks);
	if (!ret)
		ret = hws_reg_read(d, HWS_REG_DEPTHS, &depths);
	if (!ret)
		ret = hws_reg_read(d, HWS_REG_NR_GROUPS, &groups);
	if (!ret)
		ret = hws_reg_read(d, HWS_REG_FEATURES, &feat);
	if (ret)
		return ret;
	if (id != HWS_ID_VALUE || cpus != c->nr_cpus || tasks != c->nr_tasks ||
	    groups != c->nr_groups || (feat & feat_mask) != want_feat ||
	    depths != (c->cmd_depth << HWS_DEPTHS_CMD_DEPTH_LSB |
		       c->res_depth << HWS_DEPTHS_RES_DEPTH_LSB)) {
		set_msg(d, "engine identifies as id 0x%08x, %u CPUs, %u tasks, depths 0x%x, %u "
			   "groups, features 0x%x; expected %u CPUs, %u tasks, %u groups, features "
			   "0x%x (BALANCE %s with %u lanes, per-code error counters %s, interrupt %s%s)",
			id, cpus, tasks, depths, groups, feat, c->nr_cpus, c->nr_tasks, c->nr_groups,
			want_feat, c->no_balance ? "absent" : "built", c->no_balance ? 0 : lanes,
			c->no_err_counters ? "absent" : "built", c->no_irq ? "absent" : "built",
			c->pipe ? ", PIPE=1" : "");
		return -EIO;
	}
	return 0;
}

/* The caller's transport must answer every transaction. */
static int check_transport(const struct hws_transport *t, char *msg, size_t len)
{
	if (t->ops && t->ops->read && t->ops->write && t->ops->idle)
		return 0;
	snprintf(msg, len, "hws_config.transport needs read, write and idle operations");
	return -EINVAL;
}

int hws_open(struct hws_dev **out, const struct hws_config *cfg, char *msg, size_t len)
{
	struct hws_backend_args a = {
		.wave = cfg->wave,
		.deep_check = cfg->deep_check,
		.bus_random = cfg->bus_random,
		.bus_seed = cfg->bus_seed,
	};
	struct hws_dev *d;
	int ret;

	hws_params_of_config(&a.params, cfg);
	ret = hws_params_check(&a.params, msg, len);
	if (!ret && cfg->transport)
		ret = check_transport(cfg->transport, msg, len);
	if (ret)
		return ret;
	d = calloc(1, sizeof(*d));
	if (!d) {
		snprintf(msg, len, "out of memory");
		return -ENOMEM;
	}
	d->cfg = *cfg;
	if (cfg->transport) {
		d->tp = *cfg->transport;
		if (!d->tp.name)
			d->tp.name = "tlm";
	} else {
		ret = hws_transport_open(cfg->backend, &a, &d->tp, msg, len);
		if (ret)
			goto err_free;
		d->own_tp = 1;
	}
	/* The engine is in its reset state (a transport's engine is the caller's: it answers
	 * the same ID checks). */
	ret = check_id(d);
	if (ret) {
		snprintf(msg, len, "%s", d->msg);
		goto err_free;
	}
	*out = d;
	return 0;

err_free:
	if (d->own_tp)
		hws_transport_close(&d->tp);
	free(d);
	return ret;
}

void hws_close(struct hws_dev *d)
{
	if (!d)
		return;
	if (d->own_tp)
		hws_transport_close(&d->tp);
	free(d);
}

void hws_get_bus_stats(const struct hws_dev *d, struct hws_bus_stats *s)
{
	*s = d->stats;
}

int hws_bus_report(const struct hws_dev *d, char *buf, size_t len)
{
	if (!d->tp.ops->report)
		return -ENOTSUP;
	return d->tp.ops->report(d->tp.ctx, buf, len);
}

int hws_overlaps(const struct hws_dev *d, uint64_t *n)
{
	*n = 0;
	if (!d->tp.ops->overlaps)
		return -ENOTSUP;
	return d->tp.ops->overlaps(d->tp.ctx, n);
}

const struct hws_config *hws_config_of(const struct hws_dev *d)
{
	return &d->cfg;
}

int hws_check(struct hws_dev *d)
{
	if (!d->tp.ops->check) {
		set_msg(d, "the %s backend has no model to check (the rtl backend checks its "
			   "invariants itself: deep_check)", d->tp.name);
		return -ENOTSUP;
	}
	return d->tp.ops->check(d->tp.ctx, d->msg, sizeof(d->msg));
}

int hws_inject_model_fault(struct hws_dev *d, unsigned cpu)
{
	return d->tp.ops->inject_fault ? d->tp.ops->inject_fault(d->tp.ctx, cpu) : -ENOTSUP;
}

/* ---- Commands ---- */

int hws_submit(struct hws_dev *d, uint32_t cmd)
{
	return hws_reg_write(d, HWS_REG_CMD, cmd);
}

/* Turn the error registers into an errno and a message naming the command. */
static int last_error(struct hws_dev *d)
{
	uint32_t code, cmd, seq;
	char cbuf[96];
	int ret;

	ret = hws_reg_read(d, HWS_REG_ERR_LAST, &code);
	if (!ret)
		ret = hws_reg_read(d, HWS_REG_ERR_CMD, &cmd);
	if (!ret)
		ret = hws_reg_read(d, HWS_REG_ERR_SEQ, &seq);
	if (ret)
		return ret;
	if (code == HWS_ERR_ADDR)
		set_msg(d, "bus access to 0x%02x refused (ADDR)", cmd);
	else if (code == HWS_ERR_UNDERFLOW)
		set_msg(d, "RESULT read with no result to come (UNDERFLOW)");
	else if (code == HWS_ERR_OVERFLOW)
		set_msg(d, "command FIFO full, %s dropped (OVERFLOW)",
			hws_cmd_format(cmd, cbuf, sizeof(cbuf)));
	else
		set_msg(d, "%s failed after %u commands: %s", hws_cmd_format(cmd, cbuf, sizeof(cbuf)),
			seq, hws_err_name(code));
	return hws_err_errno(code);
}

/*
 * In posting mode: account the errors recorded since the driver last looked (ERR_TOTAL).
 * @own: 1 when the caller's own command is the most recent of them (its own error word, or
 * ERR_CMD naming it after its SYNC); the others are posted commands' and go to d->perr.
 */
static int account_errors(struct hws_dev *d, int own)
{
	uint32_t total, code, cmd, n;
	int ret;

	ret = hws_reg_read(d, HWS_REG_ERR_TOTAL, &total);
	if (!ret)
		ret = hws_reg_read(d, HWS_REG_ERR_LAST, &code);
	if (!ret)
		ret = hws_reg_read(d, HWS_REG_ERR_CMD, &cmd);
	if (ret)
		return ret;
	n = total - d->err_seen;
	d->err_seen = total;
	if (own && n)
		n--;
	if (n) {
		d->perr.count += n;
		/* With the caller's own error the most recent, the posted ones' words are gone. */
		d->perr.code = own ? 0 : code;
		d->perr.cmd = own ? 0 : cmd;
	}
	return 0;
}

/* SYNC; @own: the command just written (its error is returned), or -1 for none. */
static int sync_own(struct hws_dev *d, uint32_t *status, int64_t own)
{
	uint32_t st, cmd;
	int ret;

	ret = hws_reg_read(d, HWS_REG_SYNC, &st);
	if (ret)
		return ret;
	if (status)
		*status = st;
	d->posted = (st & HWS_STATUS_CMD_LEVEL_MASK) >> HWS_STATUS_CMD_LEVEL_LSB;
	if (!(st & HWS_STATUS_ERR_MASK))
		return 0;
	if (!d->posting)
		return last_error(d);
	ret = hws_reg_read(d, HWS_REG_ERR_CMD, &cmd);
	if (ret)
		return ret;
	if (own >= 0 && cmd == (uint32_t)own) {
		ret = account_errors(d, 1);
		return ret ? ret : last_error(d);
	}
	ret = account_errors(d, 0);
	if (ret)
		return ret;
	return own >= 0 ? 0 : last_error(d);
}

int hws_sync(struct hws_dev *d, uint32_t *status)
{
	return sync_own(d, status, -1);
}

int hws_result(struct hws_dev *d, uint32_t *word)
{
	return hws_reg_read(d, HWS_REG_RESULT, word);
}

/* A mutating command: write it, wait, report its error. */
static int do_cmd(struct hws_dev *d, uint32_t cmd)
{
	int ret = hws_submit(d, cmd);

	return ret ? ret : sync_own(d, NULL, cmd);
}

/* A query: write it, read its result word; an error word is turned into an errno. */
static int do_query(struct hws_dev *d, uint32_t cmd, uint32_t *word)
{
	char cbuf[96];
	uint32_t st, code;
	int ret;

	ret = hws_submit(d, cmd);
	if (!ret)
		ret = hws_result(d, word);
	if (ret)
		return ret;
	if (!(*word & HWS_ERR_FLAG))
		return 0;
	code = *word & HWS_RES_CODE_MASK;
	/* Read STATUS so the sticky ERR bit does not blame the next command. */
	ret = hws_reg_read(d, HWS_REG_STATUS, &st);
	if (!ret && d->posting)
		ret = account_errors(d, 1);
	if (ret)
		return ret;
	set_msg(d, "%s failed: %s", hws_cmd_format(cmd, cbuf, sizeof(cbuf)), hws_err_name(code));
	return hws_err_errno(code);
}

int hws_nop(struct hws_dev *d)
{
	return do_cmd(d, hws_cmd(HWS_OP_NOP, 0, 0, 0, 0, 0));
}

int hws_enqueue(struct hws_dev *d, unsigned task, unsigned cpu, unsigned prio,
		unsigned array, int at_head)
{
	return do_cmd(d, hws_cmd(HWS_OP_ENQUEUE, task, prio, cpu, array, !!at_head));
}

int hws_dequeue(struct hws_dev *d, unsigned task)
{
	return do_cmd(d, hws_cmd(HWS_OP_DEQUEUE, task, 0, 0, 0, 0));
}

int hws_requeue(struct hws_dev *d, unsigned task)
{
	return do_cmd(d, hws_cmd(HWS_OP_REQUEUE, task, 0, 0, 0, 0));
}

int hws_set_prio(struct hws_dev *d, unsigned task, unsigned prio)
{
	return do_cmd(d, hws_cmd(HWS_OP_SET_PRIO, task, prio, 0, 0, 0));
}

int hws_migrate(struct hws_dev *d, unsigned task, unsigned cpu)
{
	return do_cmd(d, hws_cmd(HWS_OP_MIGRATE, task, 0, cpu, 0, 0));
}

static void pick_of(uint32_t w, struct hws_pick *p)
{
	p->found = !(w & HWS_NONE_FLAG);
	p->swapped = !!(w & HWS_SWAP_FLAG);
	p->task = (w & HWS_RES_TASK_MASK) >> HWS_RES_TASK_LSB;
	p->prio = (w & HWS_RES_PRIO_MASK) >> HWS_RES_PRIO_LSB;
}

static int pick(struct hws_dev *d, unsigned op, unsigned cpu, struct hws_pick *p)
{
	uint32_t w;
	int ret = do_query(d, hws_cmd(op, 0, 0, cpu, 0, 0), &w);

	if (ret)
		return ret;
	pick_of(w, p);
	return 0;
}

/* ---- One-read picks, posted commands (docs/accelerator.md 4.4) ---- */

static int window_read(struct hws_dev *d, uint32_t base, unsigned op, unsigned cpu,
		       struct hws_pick *p, uint32_t *word)
{
	char cbuf[96];
	uint32_t w, code;
	int ret;

	if (cpu >= HWS_POP_WORDS) {
		set_msg(d, "%s window: cpu %u is outside the window (%u words)",
			op == HWS_OP_PEEK ? "PEEKW" : "POP", cpu, HWS_POP_WORDS);
		return -ERANGE;
	}
	d->posting = 1;
	if (d->tp.addr_w < HWS_ADDR_W) {
		/* The bus cannot reach the window: the command and a RESULT read, then STATUS
		 * for what the window word's ERRP would have said. */
		uint32_t st;

		ret = hws_submit(d, hws_cmd(op, 0, 0, cpu, 0, 0));
		if (!ret)
			ret = hws_result(d, &w);
		if (!ret)
			ret = hws_reg_read(d, HWS_REG_STATUS, &st);
		if (ret)
			return ret;
		if (st & HWS_STATUS_ERR_MASK)
			w |= HWS_POP_ERRP_MASK;
	} else {
		ret = hws_reg_read(d, base + 4 * cpu, &w);
		if (ret)
			return ret;
		d->stats.commands++;	/* the read's own command */
	}
	d->posted = 0;	/* every command written before the read has been executed */
	if (word)
		*word = w;
	if (w & (HWS_ERR_FLAG | HWS_POP_ERRP_MASK)) {
		ret = account_errors(d, !!(w & HWS_ERR_FLAG));
		if (ret)
			return ret;
	}
	if (w & HWS_ERR_FLAG) {
		code = w & HWS_RES_CODE_MASK;
		set_msg(d, "%s failed: %s", hws_cmd_format(hws_cmd(op, 0, 0, cpu, 0, 0), cbuf,
							   sizeof(cbuf)), hws_err_name(code));
		return hws_err_errno(code);
	}
	pick_of(w & ~HWS_POP_ERRP_MASK, p);
	return 0;
}

int hws_windows(const struct hws_dev *d)
{
	return d->tp.addr_w >= HWS_ADDR_W;
}

/* ---- The preemption interrupt (docs/accelerator.md 4.6) ---- */

/* An engine built without the interrupt (IRQ=0; hws_open() checked that FEATURES.IRQ
 * agrees with hws_config.no_irq): its registers would read 0 and ignore writes, so the
 * functions refuse, touching nothing, rather than report "nothing pending". */
static int irq_refused(struct hws_dev *d, const char *fn)
{
	if (!d->cfg.no_irq)
		return 0;
	set_msg(d, "%s: this engine is built without the preemption interrupt (FEATURES.IRQ = 0, "
		   "IRQ=0); nothing sent", fn);
	return -EOPNOTSUPP;
}

int hws_set_curr(struct hws_dev *d, unsigned cpu, unsigned prio)
{
	int ret = irq_refused(d, "hws_set_curr");

	if (ret)
		return ret;
	if (cpu >= d->cfg.nr_cpus || prio > 255)
		return -ERANGE;
	if (!hws_windows(d))
		return -ENOTSUP;
	return hws_reg_write(d, HWS_CURR_BASE + 4 * cpu, prio);
}

int hws_irq_pending(struct hws_dev *d, uint64_t *pending)
{
	uint32_t lo = 0, hi = 0;
	int ret = irq_refused(d, "hws_irq_pending");

	if (ret)
		return ret;
	ret = hws_reg_read(d, HWS_REG_IRQ_PEND0, &lo);

	if (!ret && d->cfg.nr_cpus > 32)
		ret = hws_reg_read(d, HWS_REG_IRQ_PEND1, &hi);
	if (!ret)
		*pending = (uint64_t)hi << 32 | lo;
	return ret;
}

int hws_irq_ack(struct hws_dev *d, uint64_t mask)
{
	int ret = irq_refused(d, "hws_irq_ack");

	if (ret)
		return ret;

	if ((uint32_t)mask)
		ret = hws_reg_write(d, HWS_REG_IRQ_PEND0, (uint32_t)mask);
	if (!ret && d->cfg.nr_cpus > 32 && mask >> 32)
		ret = hws_reg_write(d, HWS_REG_IRQ_PEND1, (uint32_t)(mask >> 32));
	return ret;
}

int hws_irq_enable(struct hws_dev *d, uint64_t mask)
{
	int ret = irq_refused(d, "hws_irq_enable");

	if (ret)
		return ret;
	ret = hws_reg_write(d, HWS_REG_IRQ_EN0, (uint32_t)mask);

	if (!ret && d->cfg.nr_cpus > 32)
		ret = hws_reg_write(d, HWS_REG_IRQ_EN1, (uint32_t)(mask >> 32));
	return ret;
}

int hws_pop(struct hws_dev *d, unsigned cpu, struct hws_pick *p, uint32_t *word)
{
	return window_read(d, HWS_POP_BASE, HWS_OP_PICK_NEXT, cpu, p, word);
}

int hws_peekw(struct hws_dev *d, unsigned cpu, struct hws_pick *p, uint32_t *word)
{
	return window_read(d, HWS_PEEK_BASE, HWS_OP_PEEK, cpu, p, word);
}

int hws_post(struct hws_dev *d, uint32_t cmd)
{
	int ret;

	d->posting = 1;
	if (d->posted >= d->cfg.cmd_depth) {	/* no credit left: wait for the FIFO */
		ret = hws_post_flush(d);
		if (ret)
			return ret;
	}
	return hws_reg_write(d, HWS_REG_CMD, cmd);
}

int hws_post_flush(struct hws_dev *d)
{
	uint32_t st;
	int ret;

	d->posting = 1;
	ret = hws_reg_read(d, HWS_REG_SYNC, &st);
	if (ret)
		return ret;
	d->posted = (st & HWS_STATUS_CMD_LEVEL_MASK) >> HWS_STATUS_CMD_LEVEL_LSB;
	return st & HWS_STATUS_ERR_MASK ? account_errors(d, 0) : 0;
}

unsigned hws_post_credits(const struct hws_dev *d)
{
	return d->posted >= d->cfg.cmd_depth ? 0 : d->cfg.cmd_depth - d->posted;
}

int hws_post_errors(struct hws_dev *d, struct hws_post_err *e)
{
	char cbuf[96];
	struct hws_post_err z = { 0, 0, 0 };

	if (e)
		*e = d->perr;
	if (!d->perr.count)
		return 0;
	if (!d->perr.code) {	/* a later error of the caller's own overwrote ERR_CMD */
		set_msg(d, "%u posted command%s failed (ERR_TOTAL); a later command's error "
			   "overwrote which", d->perr.count, d->perr.count == 1 ? "" : "s");
		d->perr = z;
		return -EIO;
	}
	set_msg(d, "%u posted command%s failed; the last recorded: %s: %s", d->perr.count,
		d->perr.count == 1 ? "" : "s", hws_cmd_format(d->perr.cmd, cbuf, sizeof(cbuf)),
		hws_err_name(d->perr.code));
	{
		int ret = hws_err_errno(d->perr.code);

		d->perr = z;
		return ret;
	}
}

int hws_pick_next(struct hws_dev *d, unsigned cpu, struct hws_pick *p)
{
	return pick(d, HWS_OP_PICK_NEXT, cpu, p);
}

int hws_peek(struct hws_dev *d, unsigned cpu, struct hws_pick *p)
{
	return pick(d, HWS_OP_PEEK, cpu, p);
}

int hws_cpu_stat(struct hws_dev *d, unsigned cpu, unsigned sel, uint32_t *val)
{
	return do_query(d, hws_cmd(HWS_OP_CPU_STAT, 0, sel, cpu, 0, 0), val);
}

int hws_task_stat(struct hws_dev *d, unsigned task, unsigned sel, uint32_t *val)
{
	return do_query(d, hws_cmd(HWS_OP_TASK_STAT, task, sel, 0, 0, 0), val);
}

int hws_load_tick(struct hws_dev *d, unsigned cpu)
{
	return do_cmd(d, hws_cmd(HWS_OP_LOAD_TICK, 0, 0, cpu, 0, 0));
}

int hws_set_weight(struct hws_dev *d, unsigned task, unsigned prio)
{
	return do_cmd(d, hws_cmd(HWS_OP_SET_GROUP, task, prio, 0, 0, 1));
}

int hws_set_group(struct hws_dev *d, unsigned task, unsigned group)
{
	return do_cmd(d, hws_cmd(HWS_OP_SET_GROUP, task, group, 0, 0, 0));
}

int hws_set_idle(struct hws_dev *d, unsigned cpu, int idle)
{
	return do_cmd(d, hws_cmd(HWS_OP_SET_IDLE, 0, 0, cpu, !!idle, 0));
}

int hws_lcu_stat(struct hws_dev *d, unsigned cpu, unsigned sel, unsigned group,
		 uint32_t *val)
{
	return do_query(d, hws_cmd(HWS_OP_LCU_STAT, group, sel, cpu, 0, 0), val);
}

/* A DOM_SET word from its DSET fields (regmap/regmap.def), each masked to its width. */
static uint32_t dset(unsigned cpu, unsigned k, unsigned hi, uint32_t data)
{
	return hws_cmd(HWS_OP_DOM_SET, 0, 0, cpu, 0, 0) |
	       ((uint32_t)k << HWS_DSET_K_LSB & HWS_DSET_K_MASK) |
	       ((uint32_t)hi << HWS_DSET_HI_LSB & HWS_DSET_HI_MASK) | data;
}

uint32_t hws_cmd_dom_leader(unsigned cpu, unsigned k, unsigned leader)
{
	return dset(cpu, k, 0, (uint32_t)leader << HWS_DSET_DATA_LSB & HWS_DSET_DATA_MASK);
}

uint32_t hws_cmd_dom_power(unsigned cpu, unsigned level, uint32_t power)
{
	return dset(cpu, HWS_DSET_K_POWER + level, power >> HWS_DSET_DATA_W,
		    power << HWS_DSET_DATA_LSB & HWS_DSET_DATA_MASK);
}

uint32_t hws_cmd_dom_pct(unsigned cpu, unsigned level, unsigned pct)
{
	return dset(cpu, HWS_DSET_K_PCT, 0,
		    ((uint32_t)level << HWS_DSET_LEVEL_LSB & HWS_DSET_LEVEL_MASK) |
			    ((uint32_t)pct << HWS_DSET_PCT_LSB & HWS_DSET_PCT_MASK));
}

int hws_dom_set(struct hws_dev *d, unsigned cpu, unsigned k, unsigned leader)
{
	if (k < 1 || k > 3)
		return -ERANGE;
	return do_cmd(d, hws_cmd_dom_leader(cpu, k, leader));
}

int hws_idlest(struct hws_dev *d, unsigned cpu, unsigned level, unsigned *found)
{
	uint32_t w;
	int ret = do_query(d, hws_cmd(HWS_OP_QUERY, 0, level, cpu, 0, 0), &w);

	if (!ret)
		*found = w & HWS_QRES_CPU_MASK;
	return ret;
}

int hws_idle_core(struct hws_dev *d, unsigned cpu, unsigned level, int *found,
		  int *whole_core)
{
	uint32_t w;
	int ret = do_query(d, hws_cmd(HWS_OP_QUERY, 0, level, cpu, 0, 1), &w);

	if (ret)
		return ret;
	*found = (w & HWS_QRES_NONE_MASK) ? -1 : (int)(w & HWS_QRES_CPU_MASK);
	*whole_core = !!(w & HWS_QRES_WHOLE_CORE_MASK);
	return 0;
}

int hws_dom_set_power(struct hws_dev *d, unsigned level, unsigned cpu, uint32_t power)
{
	if (level >= HWS_NR_LEVELS || power >= 1u << (HWS_DSET_DATA_W + HWS_DSET_HI_W))
		return -ERANGE;
	return do_cmd(d, hws_cmd_dom_power(cpu, level, power));
}

int hws_dom_set_pct(struct hws_dev *d, unsigned level, unsigned pct)
{
	if (level >= HWS_NR_LEVELS || pct >= 1u << HWS_DSET_PCT_W)
		return -ERANGE;
	return do_cmd(d, hws_cmd_dom_pct(0, level, pct));
}

int hws_balance_verdict(struct hws_dev *d, unsigned cpu, unsigned level, unsigned idle,
			struct hws_bal *out)
{
	uint32_t w;
	int ret;

	if (d->cfg.no_balance) {
		set_msg(d, "BALANCE: this engine is built without it (FEATURES.BALANCE = 0, "
			   "LCU_BALANCE=0); read the CPUs' loads and decide in software");
		return -EOPNOTSUPP;
	}
	ret = do_query(d, hws_cmd(HWS_OP_QUERY, idle, level, cpu, 1, 0), &w);
	if (ret)
		return ret;
	out->verdict = (w & HWS_BRES_VERDICT_MASK) >> HWS_BRES_VERDICT_LSB;
	out->busiest = (w & HWS_BRES_HAS_BUSIEST_MASK) ?
			       (int)((w & HWS_BRES_BUSIEST_MASK) >> HWS_BRES_BUSIEST_LSB) : -1;
	out->busiest_cpu = (w & HWS_BRES_HAS_CPU_MASK) ?
				   (int)((w & HWS_BRES_BUSIEST_CPU_MASK) >> HWS_BRES_BUSIEST_CPU_LSB) :
				   -1;
	out->this_group = (w & HWS_BRES_THIS_MASK) >> HWS_BRES_THIS_LSB;
	out->this_load = out->max_load = out->avg_load = out->imbalance = 0;
	return 0;
}

int hws_balance_loads(struct hws_dev *d, unsigned which, struct hws_bal *out)
{
	static const uint32_t reg[4] = { HWS_REG_BAL_THIS, HWS_REG_BAL_MAX, HWS_REG_BAL_AVG,
					 HWS_REG_BAL_IMB };
	uint32_t *const dst[4] = { &out->this_load, &out->max_load, &out->avg_load,
				   &out->imbalance };
	unsigned i;
	int ret = 0;

	if (which & ~HWS_BAL_RD_ALL) {
		set_msg(d, "BALANCE loads: register mask 0x%x has bits outside 0x%x", which,
			HWS_BAL_RD_ALL);
		return -EINVAL;
	}
	for (i = 0; !ret && i < 4; i++)
		if (which & (1u << i))
			ret = hws_reg_read(d, reg[i], dst[i]);
	return ret;
}

int hws_balance_query(struct hws_dev *d, unsigned cpu, unsigned level, unsigned idle,
		      struct hws_bal *out)
{
	int ret = hws_balance_verdict(d, cpu, level, idle, out);

	return ret ? ret : hws_balance_loads(d, HWS_BAL_RD_ALL, out);
}

int hws_read_cpu_counters(struct hws_dev *d, unsigned cpu, struct hws_cpu_counters *c)
{
	int ret;

	ret = hws_cpu_stat(d, cpu, HWS_SEL_CPU_STAT_NR_RUNNING, &c->nr_running);
	if (!ret)
		ret = hws_cpu_stat(d, cpu, HWS_SEL_CPU_STAT_NR_ACTIVE, &c->nr_active);
	if (!ret)
		ret = hws_cpu_stat(d, cpu, HWS_SEL_CPU_STAT_NR_EXPIRED, &c->nr_expired);
	if (!ret)
		ret = hws_cpu_stat(d, cpu, HWS_SEL_CPU_STAT_LOAD, &c->load);
	return ret;
}

int hws_read_task_state(struct hws_dev *d, unsigned task, struct hws_task_state *s)
{
	uint32_t info, w, g;
	int ret;

	ret = hws_task_stat(d, task, HWS_SEL_TASK_STAT_INFO, &info);
	if (!ret)
		ret = hws_task_stat(d, task, HWS_SEL_TASK_STAT_WEIGHT, &w);
	if (!ret)
		ret = hws_task_stat(d, task, HWS_SEL_TASK_STAT_GROUP, &g);
	if (ret)
		return ret;
	s->group = g;
	s->queued = !!(info & HWS_TINFO_QUEUED_MASK);
	s->array = (info & HWS_TINFO_ARRAY_MASK) >> HWS_TINFO_ARRAY_LSB;
	s->cpu = (info & HWS_TINFO_CPU_MASK) >> HWS_TINFO_CPU_LSB;
	s->prio = (info & HWS_TINFO_PRIO_MASK) >> HWS_TINFO_PRIO_LSB;
	s->weight = w;
	return 0;
}
