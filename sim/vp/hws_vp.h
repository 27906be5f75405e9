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
	double bus_read_latency_ns;	/* a read's; < 0: bus_latency_ns */
	double bus_write_latency_ns;	/* a write's; < 0: bus_latency_ns */
	int contention;		/* 1: an access waits for its port while it serves another;
				 * 0: accesses never wait for a port */
	int posted_writes;	/* 1: a write costs its CPU write_accept_ns, travels and is
				 * served later; a read waits behind it. 0: a write waits
				 * for its response like a read */
	double write_accept_ns;	/* what a posted write costs its CPU */
	unsigned ports;		/* engine ports: CPU c uses port c * ports / NR_CPUS */
};

/* hws_vp_opts_default - no latency, contention on, writes posted (accepted in 0 ns), one
 * port. */
static inline void hws_vp_opts_default(struct hws_vp_opts *vo)
{
	vo->bus_latency_ns = 0;
	vo->bus_read_latency_ns = -1;
	vo->bus_write_latency_ns = -1;
	vo->contention = 1;
	vo->posted_writes = 1;
	vo->write_accept_ns = 0;
	vo->ports = 1;
}

#define HWS_VP_MAX_DECISIONS 10
#define HWS_VP_MAX_PORTS 64	/* at most one per CPU of the largest machine */

/* One kind of scheduler call (decision): per call, MMIO accesses, annotated bus time,
 * engine clock edges and the time spent waiting for the engine's port. */
struct hws_vp_decision {
	const char *name;
	uint64_t count;
	double mmio_mean, mmio_p99;
	double bus_ns_mean, bus_ns_p99;
	double cycles_mean, cycles_p99;
	double wait_ns_mean;	/* waiting for the port (accesses the CPU waited for) */
	double behind_ns_mean;	/* reads waiting behind the CPU's own posted writes */
};

struct hws_vp_result {
	char engine[64];		/* "8x256x16", "8x256x16 with the lean BALANCE" (LCU_LEAN=1) or "none"
				 * (no engine: o1, linux24) */
	unsigned initiators;
	double clk_ns, bus_latency_ns;	/* bus_latency_ns: the reads' when they differ */
	double bus_read_latency_ns, bus_write_latency_ns, write_accept_ns;
	int contention, posted_writes;
	unsigned ports;
	uint64_t accesses, edges;	/* every MMIO access of the run, and its engine edges */
	uint64_t reads, posted;		/* of them: reads, posted writes */
	uint64_t posted_edges;		/* the posted writes' edges */
	double bus_ns;			/* the time charged to the CPUs for them, of which: */
	double wait_ns;			/* waiting for a port (reads, writes not posted) */
	double behind_ns;		/* reads waiting behind their CPU's posted writes */
	double posted_wait_ns;		/* posted writes waiting for their port (not charged) */
	uint64_t waited;		/* accesses that found their port busy (not posted) */
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
