/*
 * machine.c - the simulated machine (machine.h): a run from options to results. The units
 * beside it: events.c (the event heap, random numbers), topology.c, cpu.c (switching,
 * segments, the scheduler's environment), workload.c, programs.c and replay.c (what the
 * tasks do), checks.c (the online checks), stats.c (the results), timeline.c (--svg) and
 * report.c (text and JSON). machine_int.h is what they share.
 */
#include "sim/machine/machine_int.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void machine_default_opts(struct machine_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->topology = "pkg=1,core=4,smt=1";
	o->sched = "hw";
	sched_opts_default(&o->sched_opts);
	o->workload = "mix";
	o->seed = 1;
	o->hz = 1000;
	o->check_every = 64;
	o->costs.ctx_switch_ns = 1500;
	o->costs.migrate_cold_ns = 20000;
	o->costs.remote_node_ns = 30000;
	o->costs.smt_speed = 0.6;
}

/*
 * The trace machine (docs/trace.md, "The trace machine"): a 2-vCPU KVM guest running
 * Linux 6.18 with HZ=250 and NO_HZ_IDLE. Its wake path was measured on the calibration
 * traces (traces/README.md): each price is the median, from sched_waking to the wakee's
 * switch-in, of the wakeups that took that path (hwsched trace-info, "wake path"), less
 * the 0.1-0.5 us the replay adds there under --sched eevdf (the scheduler's own prices),
 * so that the replay's median on the path is Linux's. tests/sim/replay_test.cc
 * (WakePathMatchesTheCalibrationTraces) holds each price to its trace.
 */
void machine_replay_defaults(struct machine_opts *o)
{
	/* sched_stat_runtime charges the switch to the incoming task, and a task's runtime
	 * holds whatever its cache cost it in Linux (docs/trace.md, "The rebuild") */
	o->costs.ctx_switch_ns = 0;
	o->costs.migrate_cold_ns = 0;
	o->costs.wake_idle_ns = 14800;		/* pipe_pingpong: 5974 wakes, 15.0 us */
	o->costs.wake_idle_deep_ns = 79500;	/* pipe_pingpong: 4 wakes, 80 us */
	o->costs.halt_poll_ns = TRACE_IDLE_DEEP_NS;	/* the reader's split of the two */
	o->costs.wake_local_ns = 9800;		/* sleepy_threads: 60 timer wakes, 10.0 us */
	o->costs.preempt_local_ns = 8900;	/* pipe_pairs: 2973 wakes, 9.0 us */
	o->costs.preempt_irq_ns = 18900;	/* sleepy_threads: 864 timer wakes, 19.0 us */
	o->costs.preempt_remote_ns = 29900;	/* pipe_hogs: 2991 wakes, 30.0 us */
	o->nohz_idle = 1;			/* CONFIG_NO_HZ_IDLE */
	o->replay_order = MACHINE_REPLAY_CAUSAL;
}

static void handle(struct machine *m, const struct event *e)
{
	struct mcpu *c;
	struct mtask *t;

	switch (e->kind) {
	case EV_TICK:
		c = &m->cpu[e->who];
		if (e->gen != c->tick_gen || c->tick_stopped)
			break;	/* stopped while its CPU idles (nohz_idle) */
		if (m->o.nohz_idle && !c->curr)
			c->tick_stopped = 1;	/* its last tick until it gets work */
		else if (m->live)
			mach_push(m, m->now + 1000000000ull / m->o.hz, EV_TICK, e->who, c->tick_gen);
		if (!c->curr)
			mach_check_idle_core(m, e->who);
		if (m->ops->tick(m->s, e->who, c->curr ? &c->curr->st : NULL))
			mach_kick(m, e->who);
		else if (c->curr && c->debt > 0) {
			mach_stop_segment(m, e->who);
			mach_start_segment(m, e->who);
		}
		break;
	case EV_RESCHED:
		c = &m->cpu[e->who];
		if (e->gen != c->resched_gen)
			break;	/* moved earlier by a later request */
		c->resched_pending = 0;
		t = c->curr;
		if (t) {
			mach_stop_segment(m, e->who);
			m->ops->put_prev(m->s, e->who, &t->st, 1, m->now - t->st.timestamp);
		}
		mach_dispatch(m, e->who, t);
		if (t && c->curr != t) {
			m->invol += !t->bg;
			t->nout++;
		}
		break;
	case EV_BURST_END:
		c = &m->cpu[e->who];
		if (e->gen != c->gen || !c->curr)
			break;	/* stale */
		mach_stop_segment(m, e->who);
		t = c->curr;
		t->remain = 0;
		mach_next_action(m, t, e->who);
		if (c->curr == t && t->state == T_RUNNING)
			mach_start_segment(m, e->who);
		break;
	case EV_TIMER:
		t = &m->t[e->who];
		if (t->state == T_BLOCKED) {	/* a sleep's end, or a replay task's first start */
			m->kick_irq = 1;	/* the timer's interrupt wakes it */
			mach_wake_task(m, t, t->last_cpu >= 0 ? (unsigned)t->last_cpu : 0,
				       t->last_cpu >= 0 ? SCHED_WAKE : SCHED_FORK);
			m->kick_irq = 0;
		}
		break;
	}
}

/* --svg-window: with --svg, inside --duration (a replay's span is known after it). */
static int check_svg_window(const struct machine_opts *o, char *err, size_t len)
{
	if (!o->svg_to_ns)
		return 0;
	if (!o->svg) {
		snprintf(err, len, "--svg-window chooses what --svg draws: give --svg FILE too");
		return -EINVAL;
	}
	if (o->svg_to_ns <= o->svg_from_ns) {
		snprintf(err, len, "--svg-window: END must come after START");
		return -EINVAL;
	}
	if (!o->trace && o->duration_ns && o->svg_to_ns > o->duration_ns) {
		snprintf(err, len, "--svg-window %.6gms:%.6gms: ends after the run's --duration "
			 "(%.6g ms)", o->svg_from_ns / 1e6, o->svg_to_ns / 1e6, o->duration_ns / 1e6);
		return -EINVAL;
	}
	return 0;
}

/* Check the options, build the topology, the workload and the scheduler. */
static int setup(struct machine *m, char *err, size_t len)
{
	const struct machine_opts *o = &m->o;
	char msg[300];
	int ret;

	ret = check_svg_window(o, err, len);
	if (ret)
		return ret;
	if (o->hz < 10 || o->hz > 10000) {
		snprintf(err, len, "hz %u: expected 10..10000", o->hz);
		return -EINVAL;
	}
	ret = mach_parse_topology(o->topology, &m->topo, &m->profile, err, len);
	if (ret)
		return ret;
	for (unsigned x = 0; x < m->topo.nr_cpus; x++)
		if (m->topo.lead[0][x] == x)
			m->pkg_empty[m->topo.lead[1][x]]++;	/* every core idle */
	m->ops = o->ops ? o->ops : sched_find(o->sched);
	if (!m->ops) {
		snprintf(err, len, "scheduler '%s': unknown (%s)", o->sched, sched_names());
		return -EINVAL;
	}
	ret = mach_setup_workload(m, err, len);
	if (ret)
		return ret;
	m->nstate[T_NEW] = m->nt;	/* every task starts new */
	if (m->wl != 1 && !o->duration_ns && !(m->wl == 2 && m->t[0].jobs_left)) {
		snprintf(err, len, "workload mix never ends: give a duration");
		return -EINVAL;
	}
	if (m->profile) {
		m->coh = coh_create(&m->topo, m->profile, SCHED_NR_LINES(m->nt), m->ops->task_align);
		if (!m->coh) {
			snprintf(err, len, "out of memory");
			return -ENOMEM;
		}
	}
	mach_env_init(m);
	m->s = m->ops->create(&m->env, &o->sched_opts, msg, sizeof(msg));
	if (!m->s) {
		/* Its options passed sched_opts_check() (bad input is refused there, exit 2):
		 * what fails here is at run time, e.g. an engine shape that cannot be had. */
		snprintf(err, len, "scheduler %s: %s", o->sched, msg);
		return -EIO;
	}
	return 0;
}

/* Every task starts runnable, and every CPU's tick and first pick are due. */
static void start(struct machine *m)
{
	unsigned i, c;

	for (i = 0; i < m->nt && !m->o.trace; i++) {
		struct sched_task *st = &m->t[i].st;

		st->nice = m->g_nice;
		st->rt_prio = m->g_rt;
		if (m->g_cpus)
			st->allowed = m->g_cpus == 64 ? ~0ull : (1ull << m->g_cpus) - 1;
	}
	for (i = 0; i < m->nt; i++) {
		if (m->t[i].spawned)
			continue;	/* forked later by its parent */
		m->ops->task_new(m->s, &m->t[i].st, NULL, i % m->topo.nr_cpus);
		mach_set_state(m, &m->t[i], T_BLOCKED);
	}
	m->live = 0;
	for (i = 0; i < m->nt; i++)
		m->live += !m->t[i].bg;	/* the run ends when the workload's tasks have exited */
	/* Woken in turn from CPU 0 (as a shell would fork them); a replay's task present
	 * from the trace's start first runs when it first appears there. */
	for (i = 0; i < m->nt; i++)
		if (!m->t[i].spawned && m->t[i].start_ns)
			mach_push(m, m->t[i].start_ns, EV_TIMER, i, 0);
		else if (!m->t[i].spawned)
			mach_wake_task(m, &m->t[i], 0, SCHED_FORK);
	for (c = 0; c < m->topo.nr_cpus; c++) {
		mach_push(m, (uint64_t)c * 1000000000ull / m->o.hz / m->topo.nr_cpus, EV_TICK, c, 0);
		mach_kick(m, c);
	}
}

/* Handle events until the time limit, the last task's exit or the first failure. */
static void loop(struct machine *m)
{
	const struct machine_opts *o = &m->o;
	const char *e1;

	while (m->hn && !m->failed) {
		struct event e;

		if (o->stop && *o->stop) {
			m->interrupted = 1;
			break;
		}
		e = mach_pop(m);

		if (o->duration_ns && e.time > o->duration_ns) {
			m->limit_hit = 1;
			break;
		}
		if (!m->live && e.kind == EV_TICK)
			continue;
		m->now = e.time;
		if (o->advance)
			o->advance(o->advance_arg, m->now);
		m->events++;
		handle(m, &e);
		e1 = m->ops->error ? m->ops->error(m->s) : NULL;
		if (e1)
			mach_fail(m, "firmware: %s", e1);
		mach_check_conservation(m, o->check_every &&
						   m->events % (unsigned)o->check_every == 0);
		if (o->progress && !(m->events & 1023))
			o->progress(o->progress_arg, m->now);
		if (!m->live && !m->failed)
			break;	/* drain: only ticks remain */
	}
	if (o->progress)
		o->progress(o->progress_arg, MACHINE_PROGRESS_END);
}

/* After a run that did not fail: the results, the scheduler's report, the timeline. */
static int finish(struct machine *m, struct machine_result *r, FILE *report, char *err,
		  size_t len)
{
	int ret;

	mach_check_conservation(m, 1);
	mach_results(m, r);
	r->backend = m->o.sched_opts.engine.bus ? "tlm" : m->o.sched_opts.engine.backend;
	if (m->coh) {
		const struct coh_stats *cs = coh_stats(m->coh);

		r->profile = m->profile->name;
		r->coh_transfers = cs->transfers;
		r->coh_transfer_ns = cs->transfer_ns;
		r->coh_lock_waits = cs->lock_waits;
		r->coh_lock_ns = cs->lock_wait_ns;
		r->coh_mem_fetches = cs->mem_fetches;
		r->coh_mem_ns = cs->mem_ns;
	}
	r->yields = m->yields;
	r->interrupted = m->interrupted;
	if (m->ops->engine_stats)
		m->ops->engine_stats(m->s, &r->engine_commands, &r->engine_cycles, &r->engine_mmio);
	if (report)
		m->ops->report(m->s, report);
	if (m->o.svg) {	/* last: it moves the clock to the run's end */
		ret = mach_svg_finish(m, m->limit_hit ? m->o.duration_ns : m->now, err, len);
		if (ret == -ERANGE)
			return -EINVAL;	/* --svg-window beyond the run: bad input */
		if (ret)
			return ret == -EINVAL ? -EIO : ret;	/* a write failure, not bad input */
	}
	return 0;
}

static void destroy(struct machine *m)
{
	if (m->s)
		m->ops->destroy(m->s);
	for (unsigned i = 0; m->t && i < m->nt; i++) {
		free(m->t[i].mb);
		free(m->t[i].own_prog);
		free(m->t[i].tok);
		free(m->t[i].tok_cpu);
	}
	free(m->t);
	free(m->h);
	free(m->lat);
	free(m->lat_path);
	free(m->segs);
	coh_destroy(m->coh);
	free(m);
}

int machine_check_opts(const struct machine_opts *o, char *err, size_t len)
{
	struct machine *m = calloc(1, sizeof(*m));
	int ret;

	if (!m)
		return -ENOMEM;
	m->o = *o;
	m->g_rt = -1;
	ret = check_svg_window(o, err, len);
	if (!ret)
		ret = machine_parse_topology(o->topology, &m->topo, err, len);
	if (!ret && !(o->ops ? o->ops : sched_find(o->sched))) {
		snprintf(err, len, "scheduler '%s': unknown (%s)", o->sched, sched_names());
		ret = -EINVAL;
	}
	if (!ret)
		ret = mach_setup_workload(m, err, len);
	destroy(m);
	return ret;
}

int machine_run(const struct machine_opts *o, struct machine_result *r, FILE *report,
		char *err, size_t len)
{
	struct machine *m = calloc(1, sizeof(*m));
	struct hws_out perf_out;
	int ret;

	if (!m)
		return -ENOMEM;
	memset(r, 0, sizeof(*r));
	m->o = *o;
	m->rng = o->seed * 0x9E3779B97F4A7C15ull + 1;
	m->kick_from = -1;
	m->g_rt = -1;
	ret = setup(m, err, len);
	if (!ret && o->perf_out) {
		ret = hws_out_open(&perf_out, o->perf_out, 0, err, len);
		m->perf = ret ? NULL : perf_out.f;
	}
	if (!ret) {
		start(m);
		loop(m);
		if (m->failed) {
			snprintf(err, len, "at %.9f s: %s", m->now / 1e9, m->err);
			ret = -EPROTO;
		} else {
			ret = finish(m, r, report, err, len);
			if (ret)
				machine_result_free(r);	/* the caller has no result to free */
		}
	}
	if (m->perf) {
		int ret2 = ret ? (hws_out_abort(&perf_out), 0) : hws_out_commit(&perf_out, err, len);

		if (!ret && ret2)
			ret = -EIO;
	}
	destroy(m);
	return ret;
}
