// sim_run.h - one whole run of the simulated machine for the tests (machine_test,
// irq_machine_test): the default options, then @tweak, then the named workload, topology,
// scheduler, backend, seed and duration, with the machine's checks every 16 events.
#ifndef HWS_TESTS_SIM_RUN_H
#define HWS_TESTS_SIM_RUN_H

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sim/machine/machine.h"

struct SimRun {
	int ret;
	machine_result r;	// freed: only its scalar fields are valid
	std::string err;
	std::vector<machine_task_stat> tasks;
};

inline SimRun sim_run(const char *workload, const char *topo, const char *sched, uint64_t seed,
		      uint64_t duration_ms, const char *backend = "model",
		      const std::function<void(machine_opts *)> &tweak = nullptr)
{
	machine_opts o;
	machine_default_opts(&o);
	if (tweak)
		tweak(&o);
	o.workload = workload;
	o.topology = topo;
	o.sched = sched;
	o.sched_opts.engine.backend = backend;
	o.seed = seed;
	o.duration_ns = duration_ms * 1000000ull;
	o.check_every = 16;
	SimRun x{};
	char err[400] = "";
	x.ret = machine_run(&o, &x.r, nullptr, err, sizeof(err));
	if (x.r.tasks)
		x.tasks.assign(x.r.tasks, x.r.tasks + x.r.ntasks);
	machine_result_free(&x.r);
	x.err = err;
	return x;
}

#endif
