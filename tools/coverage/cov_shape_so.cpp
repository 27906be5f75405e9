// cov_shape_so.cpp - the harness of one engine shape with Verilator coverage written out
// (make coverage; docs/coverage.md).
//
// tools/build_shape.sh compiles this file instead of sim/harness/hws_shape_so.cpp when
// HWS_SHAPE_COVERAGE=1 (the model Verilated with --coverage-line --coverage-toggle). It is
// the harness unchanged (the file is included, its entry point renamed) with one thing
// added: every engine instance's coverage counts are written to a file of its own before
// the instance, and with it its VerilatedContext (which owns the counts), is destroyed.
//
//   $HWS_COVERAGE_DIR/<pid>-<n>.dat     one file per instance (n counts the instances of
//                                       the process); nothing is written when the variable
//                                       is unset or empty
//
// Instances a process never destroys are written when the shared object is unloaded (at
// exit). make coverage merges the files with verilator_coverage.
#define hws_shape_v1 hws_shape_v1_base
#include "sim/harness/hws_shape_so.cpp"
#undef hws_shape_v1

#include <cstdlib>
#include <map>
#include <mutex>
#include <string>

#include <unistd.h>

#include "verilated_cov.h"

namespace {

struct Live {
	std::mutex lock;
	std::map<void *, VerilatedContext *> ctx;	// instance -> the context that counts it
	unsigned seq = 0;

	// Write @c's counts (called with lock held).
	void write(VerilatedContext *c)
	{
		const char *dir = getenv("HWS_COVERAGE_DIR");

		if (!dir || !*dir)
			return;
		std::string f = std::string(dir) + "/" + std::to_string((long)getpid()) + "-" +
				std::to_string(seq++) + ".dat";
		c->coveragep()->write(f.c_str());
	}

	~Live()
	{
		std::lock_guard<std::mutex> g(lock);

		for (auto &kv : ctx)
			write(kv.second);
		ctx.clear();
	}
};

Live live;
hws_shape_ops cov_ops;

void *cov_create(const hws_vsim_opts *o, char *msg, size_t len)
{
	void *inst = hws_shape_v1_base()->create(o, msg, len);

	// Constructing a VerilatedContext makes it the thread's context (verilated.h): the one
	// the instance just made.
	if (inst) {
		std::lock_guard<std::mutex> g(live.lock);
		live.ctx[inst] = Verilated::threadContextp();
	}
	return inst;
}

void cov_destroy(void *inst)
{
	{
		std::lock_guard<std::mutex> g(live.lock);
		auto it = live.ctx.find(inst);

		if (it != live.ctx.end()) {
			live.write(it->second);
			live.ctx.erase(it);
		}
	}
	hws_shape_v1_base()->destroy(inst);
}

} // namespace

extern "C" __attribute__((visibility("default"))) const hws_shape_ops *hws_shape_v1(void);

extern "C" const hws_shape_ops *hws_shape_v1(void)
{
	static std::once_flag once;

	std::call_once(once, [] {
		cov_ops = *hws_shape_v1_base();
		cov_ops.create = cov_create;
		cov_ops.destroy = cov_destroy;
	});
	return &cov_ops;
}
