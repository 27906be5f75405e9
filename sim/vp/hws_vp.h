/*
 * hws_vp.h - the SystemC virtual platform (docs/vp.md) behind a C ABI: the simulated
 * machine of machine.h run inside SystemC, each CPU a TLM-2.0 initiator, the Verilated
 * engine a TLM-2.0 target behind an interconnect with a latency per access and one
 * contended port.
 *
 * Linked into build/hwsched_vp (make vp) by sim/vp/hws_vp.cpp; build/hwsched links
 * sim/vp/hws_vp_stub.c instead, whose hws_vp_available() is 0 (hwsched vp then runs
 * build/hwsched_vp).
 */
#ifndef HWS_VP_API_H
#define HWS_VP_API_H

#include <stdint.h>
#include <stdio.h>

#include "sim/machine/machine.h"

#ifdef __cplusplus
extern "C" {
#endif

struct hws_vp_opts {
	double bus_latency_ns;	/* the interconnect's latency per access (round trip) */
	int contention;		/* 1: one engine port, accesses wait for it; 0: they never wait */
};

#define HWS_VP_MAX_DECISIONS 10

/* One kind of scheduler call (decision): per call, MMIO accesses, annotated bus time,
 * engine clock edges and the time spent waiting for the engine's port. */
struct hws_vp_decision {
	const char *name;
	uint64_t count;
	double mmio_mean, mmio_p99;
	double bus_ns_mean, bus_ns_p99;
	double cycles_mean, cycles_p99;
	double wait_ns_mean;
};

struct hws_vp_result {
	char engine[64];		/* "8x256x16" or "none" (no engine: o1, linux24) */
	unsigned initiators;
	double clk_ns, bus_latency_ns;
	int contention;
	uint64_t accesses, edges;	/* every MMIO access of the run, and its engine edges */
	double bus_ns, wait_ns;		/* their annotated time, of which waiting for the port */
	uint64_t waited;		/* accesses that found the port busy */
	unsigned ndec;
	struct hws_vp_decision dec[HWS_VP_MAX_DECISIONS];
};

/* 1 when this executable contains the virtual platform. */
int hws_vp_available(void);

/*
 * hws_vp_run - run the machine of @o on the virtual platform (once per process: SystemC
 * cannot elaborate twice)
 *
 * @o's costs.engine_clk_ns is the engine's clock period; costs.bus_ns is not used (the
 * bus is @vo's). Return: 0, or a negative errno with @err naming what failed.
 */
int hws_vp_run(const struct machine_opts *o, const struct hws_vp_opts *vo,
	       struct machine_result *r, struct hws_vp_result *vr, FILE *report, char *err,
	       size_t len);

#ifdef __cplusplus
}
#endif

#endif /* HWS_VP_API_H */
