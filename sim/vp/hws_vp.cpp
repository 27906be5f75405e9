// hws_vp.cpp - hws_vp_run(): the simulated machine as the world inside SystemC.
//
// A World module's SC_THREAD runs machine_run(). The machine calls advance() with each
// event's time, and the world waits until SystemC time gets there. Every scheduler call
// the machine makes on CPU c (wake, pick, put_prev, tick, exec, task_new, task_exit) is
// handed to CPU c's SC_THREAD and runs there; the engine scheduler's MMIO goes through
// the driver's transport backend to the initiator socket of the CPU it charges
// (firmware/fw_rq_hw.c), through the interconnect, to the engine target. Each call's
// accesses, annotated bus time and engine edges are recorded per kind of call.
#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <vector>

#include <systemc>

#include "vp.h"

extern "C" {
#include "hws_vp.h"
#include "sim/machine/machine.h"
#include "firmware/fw_rq.h"
}

namespace {

using namespace hwsvp;

enum Dec { D_WAKE, D_FORK, D_PICK, D_PUT_PREV, D_TICK, D_EXEC, D_NEW, D_EXIT, D_BALANCE, D_N };
const char *const dec_names[D_N] = { "wake",	 "fork",     "pick",	"put_prev", "tick",
				     "exec",	 "task_new", "task_exit", "balance" };

struct State {
	Platform *pl = nullptr;
	const sched_ops *inner = nullptr;
	std::vector<Counters> samples[D_N];
	bool restarted = false;
};
State g;

// Run one scheduler call on @cpu's thread and record what it cost on the bus.
template <class F> void on_cpu(Dec kind, unsigned cpu, F fn)
{
	const Counters a = g.pl->count;

	if (cpu >= g.pl->cpus.size())
		cpu = 0;
	g.pl->cpus[cpu]->run(fn);
	const Counters &b = g.pl->count;
	g.samples[kind].push_back({ b.accesses - a.accesses, b.edges - a.edges,
				    b.bus_ns - a.bus_ns, b.wait_ns - a.wait_ns,
				    b.behind_ns - a.behind_ns });
}

// ---- the scheduler, wrapped: the same calls, each on its CPU's thread ----

struct sched *w_create(const struct sched_env *env, const struct sched_opts *o, char *msg,
		       size_t len)
{
	struct sched *s = g.inner->create(env, o, msg, len);

	// The engine was programmed (open, domain table) "before time 0".
	g.pl->restart_time();
	return s;
}

void w_destroy(struct sched *s)
{
	g.inner->destroy(s);
}

void w_task_new(struct sched *s, struct sched_task *t, struct sched_task *parent, unsigned cpu)
{
	on_cpu(D_NEW, cpu, [&] { g.inner->task_new(s, t, parent, cpu); });
}

unsigned w_wake(struct sched *s, struct sched_task *t, unsigned waker, enum sched_wake_kind k)
{
	unsigned ret = 0;

	on_cpu(k == SCHED_FORK ? D_FORK : D_WAKE, waker,
	       [&] { ret = g.inner->wake(s, t, waker, k); });
	return ret;
}

void w_put_prev(struct sched *s, unsigned cpu, struct sched_task *t, int runnable,
		uint64_t ran_ns)
{
	on_cpu(D_PUT_PREV, cpu, [&] { g.inner->put_prev(s, cpu, t, runnable, ran_ns); });
}

void w_task_exit(struct sched *s, struct sched_task *t, struct sched_task *parent)
{
	on_cpu(D_EXIT, t->cpu >= 0 ? (unsigned)t->cpu : 0,
	       [&] { g.inner->task_exit(s, t, parent); });
}

struct sched_task *w_pick(struct sched *s, unsigned cpu)
{
	struct sched_task *ret = nullptr;

	on_cpu(D_PICK, cpu, [&] { ret = g.inner->pick(s, cpu); });
	return ret;
}

int w_tick(struct sched *s, unsigned cpu, struct sched_task *curr)
{
	int ret = 0;

	on_cpu(D_TICK, cpu, [&] { ret = g.inner->tick(s, cpu, curr); });
	return ret;
}

void w_exec(struct sched *s, struct sched_task *t, unsigned cpu)
{
	on_cpu(D_EXEC, cpu, [&] { g.inner->exec(s, t, cpu); });
}

unsigned w_nr_queued(struct sched *s, unsigned cpu)
{
	return g.inner->nr_queued(s, cpu);
}

int w_where(struct sched *s, const struct sched_task *t)
{
	return g.inner->where(s, t);
}

void w_report(struct sched *s, void *f)
{
	g.inner->report(s, f);
}

const char *w_error(const struct sched *s)
{
	return g.inner->error ? g.inner->error(s) : nullptr;
}

void w_engine_stats(const struct sched *s, uint64_t *c, uint64_t *y, uint64_t *m)
{
	g.inner->engine_stats(s, c, y, m);
}

struct sched_ops wrapped;

void wrap(const struct sched_ops *inner)
{
	g.inner = inner;
	wrapped = *inner;
	wrapped.create = w_create;
	wrapped.destroy = w_destroy;
	wrapped.task_new = w_task_new;
	wrapped.wake = w_wake;
	wrapped.put_prev = w_put_prev;
	wrapped.task_exit = w_task_exit;
	wrapped.pick = w_pick;
	wrapped.tick = w_tick;
	wrapped.exec = inner->exec ? w_exec : nullptr;
	wrapped.nr_queued = w_nr_queued;
	wrapped.where = w_where;
	wrapped.report = w_report;
	wrapped.error = inner->error ? w_error : nullptr;
	wrapped.engine_stats = inner->engine_stats ? w_engine_stats : nullptr;
}

// ---- the world ----

class World : public sc_core::sc_module {
public:
	SC_HAS_PROCESS(World);
	World(sc_core::sc_module_name name, machine_opts *o, machine_result *r, FILE *report)
		: sc_core::sc_module(name), o_(o), r_(r), report_(report)
	{
		SC_THREAD(main);
	}

	int ret = 0;
	char err[400] = "";

	// The machine reached @now_ns: let SystemC time catch up.
	static void advance(void *, uint64_t now_ns)
	{
		const sc_core::sc_time t((double)now_ns, sc_core::SC_NS);

		if (t > sc_core::sc_time_stamp())
			sc_core::wait(t - sc_core::sc_time_stamp());
	}

private:
	void main()
	{
		// When it returns nothing is left to happen: sc_start() returns (no sc_stop(),
		// which would print an info message).
		ret = machine_run(o_, r_, report_, err, sizeof(err));
	}

	machine_opts *o_;
	machine_result *r_;
	FILE *report_;
};

double pct99(std::vector<double> &v)
{
	if (v.empty())
		return 0;
	std::sort(v.begin(), v.end());
	return v[v.size() * 99 / 100 < v.size() ? v.size() * 99 / 100 : v.size() - 1];
}

void summarise(Dec k, const std::vector<Counters> &s, hws_vp_decision *d)
{
	std::vector<double> m, b, c;
	double sm = 0, sb = 0, sc = 0, sw = 0, sh = 0;

	d->name = dec_names[k];
	d->count = s.size();
	for (const Counters &x : s) {
		m.push_back((double)x.accesses);
		b.push_back(x.bus_ns);
		c.push_back((double)x.edges);
		sm += (double)x.accesses;
		sb += x.bus_ns;
		sc += (double)x.edges;
		sw += x.wait_ns;
		sh += x.behind_ns;
	}
	if (s.empty())
		return;
	d->mmio_mean = sm / (double)s.size();
	d->bus_ns_mean = sb / (double)s.size();
	d->cycles_mean = sc / (double)s.size();
	d->wait_ns_mean = sw / (double)s.size();
	d->behind_ns_mean = sh / (double)s.size();
	d->mmio_p99 = pct99(m);
	d->bus_ns_p99 = pct99(b);
	d->cycles_p99 = pct99(c);
}

// What hws_vp_run() hands to sc_main() (SystemC's own entry, run by sc_elab_and_sim).
struct Job {
	struct machine_opts mo;
	PlatformConfig pc;
	struct machine_result *r;
	struct hws_vp_result *vr;
	FILE *report;
	char *err;
	size_t len;
	int ret;
};
Job *job;

int run_platform(Job *j)
{
	std::string why;
	std::unique_ptr<Platform> pl = Platform::create(j->pc, &why);

	if (!pl) {
		snprintf(j->err, j->len, "%s", why.c_str());
		return -ENOTSUP;
	}
	g.pl = pl.get();
	wrap(g.inner);
	j->mo.ops = &wrapped;
	j->mo.sched_opts.engine.bus = j->pc.engine ? &pl->transport : nullptr;
	j->mo.advance = World::advance;
	j->mo.advance_arg = nullptr;
	World world("world", &j->mo, j->r, j->report);

	sc_core::sc_start();
	if (world.ret) {
		snprintf(j->err, j->len, "%s", world.err);
		return world.ret;
	}
	if (j->pc.engine)
		snprintf(j->vr->engine, sizeof(j->vr->engine), "%ux%ux%u%s", j->pc.nr_cpus,
			 j->pc.nr_tasks, j->pc.cmd_depth,
			 j->pc.lcu_lean ? " with the lean BALANCE" : "");
	else
		snprintf(j->vr->engine, sizeof(j->vr->engine), "none");
	j->vr->initiators = j->pc.nr_cpus;
	j->vr->clk_ns = j->pc.clk_ns;
	j->vr->bus_latency_ns = j->pc.read_latency_ns;
	j->vr->bus_read_latency_ns = j->pc.read_latency_ns;
	j->vr->bus_write_latency_ns = j->pc.write_latency_ns;
	j->vr->write_accept_ns = j->pc.write_accept_ns;
	j->vr->contention = j->pc.contention;
	j->vr->posted_writes = j->pc.posted_writes;
	j->vr->ports = j->pc.ports;
	j->vr->accesses = pl->count.accesses;
	j->vr->edges = pl->count.edges;
	j->vr->reads = pl->reads;
	j->vr->posted = pl->ic->posted_writes;
	j->vr->posted_edges = pl->posted_edges;
	j->vr->bus_ns = pl->count.bus_ns;
	j->vr->wait_ns = pl->count.wait_ns;
	j->vr->behind_ns = pl->count.behind_ns;
	j->vr->posted_wait_ns = to_ns(pl->ic->posted_wait);
	j->vr->waited = pl->ic->waited;
	g.samples[D_BALANCE] = pl->balances;
	for (int k = 0; k < D_N; k++)
		if (!g.samples[k].empty())
			summarise((Dec)k, g.samples[k], &j->vr->dec[j->vr->ndec++]);
	g.pl = nullptr;
	return 0;
}

} // namespace

extern "C" int sc_main(int, char **)
{
	if (!job)
		return 1;	// only hws_vp_run() enters SystemC
	try {
		job->ret = run_platform(job);
	} catch (const std::exception &e) {
		snprintf(job->err, job->len, "SystemC: %s", e.what());
		job->ret = -EIO;
	}
	return 0;
}

extern "C" int hws_vp_available(void)
{
	return 1;
}

extern "C" int hws_vp_run(const struct machine_opts *o, const struct hws_vp_opts *vo,
			  struct machine_result *r, struct hws_vp_result *vr, FILE *report,
			  char *err, size_t len)
{
	static bool ran;
	static char arg0[] = "hwsched_vp";
	char *argv[] = { arg0, nullptr };
	struct machine_opts dry = *o;
	struct machine_result dr;
	struct sched_topo topo;
	Job j;
	int ret;

	memset(vr, 0, sizeof(*vr));
	memset(r, 0, sizeof(*r));
	if (ran) {
		snprintf(err, len, "the virtual platform runs once per process");
		return -EBUSY;
	}
	ran = true;
	const double rd = vo->bus_read_latency_ns < 0 ? vo->bus_latency_ns : vo->bus_read_latency_ns;
	const double wr = vo->bus_write_latency_ns < 0 ? vo->bus_latency_ns : vo->bus_write_latency_ns;
	const struct {
		const char *what;
		double v;
	} ns[] = { { "bus latency", vo->bus_latency_ns }, { "bus read latency", rd },
		   { "bus write latency", wr }, { "write acceptance", vo->write_accept_ns } };
	for (const auto &x : ns)
		if (!(x.v >= 0 && x.v <= 1e9)) {
			snprintf(err, len, "%s %g ns: expected 0..1e9", x.what, x.v);
			return -EINVAL;
		}
	if (vo->ports < 1 || vo->ports > HWS_VP_MAX_PORTS) {
		snprintf(err, len, "ports %u: expected 1..%u", vo->ports, HWS_VP_MAX_PORTS);
		return -EINVAL;
	}
	if (!(o->sched_opts.costs.engine_clk_ns > 0)) {
		snprintf(err, len, "engine clock period %g ns: must be > 0",
			 o->sched_opts.costs.engine_clk_ns);
		return -EINVAL;
	}
	ret = machine_parse_topology(o->topology, &topo, err, len);
	if (ret)
		return ret;
	if (vo->ports > topo.nr_cpus) {
		snprintf(err, len, "--ports %u: more ports than the topology's %u CPUs", vo->ports,
			 topo.nr_cpus);
		return -EINVAL;
	}
	g.inner = sched_find(o->sched);
	if (!g.inner) {
		snprintf(err, len, "scheduler '%s': unknown (%s)", o->sched, sched_names());
		return -EINVAL;
	}
	j.mo = *o;
	j.pc.nr_cpus = topo.nr_cpus;
	j.pc.engine = (g.inner->uses & SCHED_USES_ENGINE) != 0;
	// the firmware opens the engine with the same lcu_lean and checks FEATURES.LEAN
	j.pc.lcu_lean = o->sched_opts.engine.lcu_lean != 0;
	j.pc.clk_ns = o->sched_opts.costs.engine_clk_ns;
	j.pc.read_latency_ns = rd;
	j.pc.write_latency_ns = wr;
	j.pc.contention = vo->contention != 0;
	j.pc.posted_writes = vo->posted_writes != 0;
	j.pc.write_accept_ns = vo->write_accept_ns;
	j.pc.ports = vo->ports;
	if (j.pc.engine) {
		// The engine must be built before time 0, so its size is needed now: the
		// task count from a 1 ns run of the same machine under o1 (no engine), sized
		// by fw_rq_hw.c's rule (the driver checks the engine's answer anyway).
		dry.sched = "o1";
		dry.duration_ns = 1;
		dry.svg = nullptr;
		dry.svg_from_ns = dry.svg_to_ns = 0;	// no --svg-window without --svg
		dry.sched_opts.engine.wave = nullptr;
		dry.sched_opts.engine.irq = 0;	// o1 has no engine to interrupt it
		dry.progress = nullptr;
		dry.stop = nullptr;
		dry.check_every = 0;
		ret = machine_run(&dry, &dr, nullptr, err, len);
		if (ret)
			return ret;
		j.pc.nr_tasks = fw_engine_nr_tasks(dr.ntasks);
		machine_result_free(&dr);
	}
	j.r = r;
	j.vr = vr;
	j.report = report;
	j.err = err;
	j.len = len;
	j.ret = -EIO;
	snprintf(err, len, "SystemC stopped before the run ended");
	setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
	job = &j;
	sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
	if (sc_core::sc_elab_and_sim(1, argv) != 0 && j.ret == 0)
		j.ret = -EIO;
	job = nullptr;
	return j.ret;
}
