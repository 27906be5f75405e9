// coherence_test.cc - the machine's coherence cost model (sim/machine/coherence.c, issue
// 23): each profile's constants at their documented values (docs/simulator.md, "Machine
// profiles"), distances ordered by topology, lines and spin locks on hand-worked cases,
// the engine paying nothing, and the topology's profile key.
#include <gtest/gtest.h>

#include <cerrno>
#include <string>

#include "sim/machine/coherence.h"
#include "sim/machine/contention.h"
#include "sim/machine/machine.h"

namespace {

sched_topo topo(const char *s)
{
	sched_topo t{};
	char err[256] = "";

	EXPECT_EQ(machine_parse_topology(s, &t, err, sizeof(err)), 0) << err;
	return t;
}

struct Coh {
	coh *c;
	Coh(const char *t, const char *profile, unsigned lines = SCHED_NR_LINES(8))
	{
		sched_topo tp = topo(t);
		c = coh_create(&tp, coh_find_profile(profile), lines, 0);
	}
	~Coh() { coh_destroy(c); }
};

// A later change to make a result come out right shows up here, in review.
TEST(Coherence, ProfilesHoldTheirDocumentedValues)
{
	struct {
		const char *name;
		double smt, pkg, node, remote, mem;
		unsigned cache_kb;
		double numa_ratio, bus_mbs;
	} want[] = {
		{ "p3xeon4", 250, 250, 250, 250, 200, 1024, 1, 800 },
		{ "p3xeon8", 335, 335, 335, 335, 200, 1024, 1, 800 },
		{ "numaq16", 250, 250, 250, 2500, 200, 1024, 3.5, 800 },
		{ "modern", 10, 50, 100, 150, 90, 2048, 1, 20000 },
	};
	ASSERT_EQ(coh_nr_profiles, sizeof(want) / sizeof(want[0]));
	for (const auto &w : want) {
		const coh_profile *p = coh_find_profile(w.name);
		ASSERT_NE(p, nullptr) << w.name;
		EXPECT_EQ(p->smt_ns, w.smt) << w.name;
		EXPECT_EQ(p->pkg_ns, w.pkg) << w.name;
		EXPECT_EQ(p->node_ns, w.node) << w.name;
		EXPECT_EQ(p->remote_ns, w.remote) << w.name;
		EXPECT_EQ(p->mem_ns, w.mem) << w.name;
		EXPECT_EQ(p->cache_kb, w.cache_kb) << w.name;
		EXPECT_EQ(p->numa_ratio, w.numa_ratio) << w.name;
		EXPECT_EQ(p->bus_mbs, w.bus_mbs) << w.name;
	}
	EXPECT_EQ(coh_find_profile("vax"), nullptr);
	// Where the schedulers' task lines sit: 2.4's task_struct heads its 8 KB i386 kernel
	// stack (union task_union); the others allocate theirs from a slab.
	EXPECT_EQ(sched_linux24_ops.task_align, 8192u);
	for (const sched_ops *o : { &sched_o1_ops, &sched_hw_ops, &sched_cfs_ops, &sched_eevdf_ops })
		EXPECT_EQ(o->task_align, 0u) << o->name;
	// 1 MB of L2 holds 128 such lines; a 2020s 2 MB L2, 256.
	EXPECT_EQ(coh_task_lines(coh_find_profile("p3xeon4"), 8192), 128u);
	EXPECT_EQ(coh_task_lines(coh_find_profile("modern"), 8192), 256u);
	EXPECT_EQ(coh_task_lines(coh_find_profile("p3xeon4"), 0), 0u);
}

// Aliased task lines: one CPU keeps the 128 it used last (p3xeon4, 8 KB apart). A cyclic
// scan of 128 hits after its first pass; of 129 it misses on every line (LRU), each miss
// a memory fetch (200 ns) when no other cache has the line, a transfer when one has.
TEST(Coherence, AliasedTaskLinesBeyondTheCacheComeFromMemory)
{
	sched_topo tp = topo("core=4");
	const unsigned nt = 200;
	for (unsigned n : { 128u, 129u }) {
		coh *c = coh_create(&tp, coh_find_profile("p3xeon4"), SCHED_NR_LINES(nt), 8192);
		ASSERT_NE(c, nullptr);
		for (unsigned i = 0; i < n; i++)
			EXPECT_EQ(coh_touch(c, 0, SCHED_LINE_TASK(i), 0), 0) << "cold: " << i;
		for (unsigned pass = 0; pass < 3; pass++)
			for (unsigned i = 0; i < n; i++)
				EXPECT_EQ(coh_touch(c, 0, SCHED_LINE_TASK(i), 0), n == 128 ? 0 : 200)
					<< n << " lines, pass " << pass << ", line " << i;
		EXPECT_EQ(coh_stats(c)->mem_fetches, n == 128 ? 0u : 3u * n);
		EXPECT_EQ(coh_stats(c)->transfers, 0u);
		// CPU 1 reads the line CPU 0 used last: a transfer, not memory.
		EXPECT_EQ(coh_touch(c, 1, SCHED_LINE_TASK(n - 1), 0), 250);
		// Lines other than tasks' are never evicted: the run-queue line stays.
		EXPECT_EQ(coh_touch(c, 0, SCHED_LINE_RQ(0), 1), 0);
		for (unsigned i = 0; i < nt; i++)
			coh_touch(c, 0, SCHED_LINE_TASK(i), 1);
		EXPECT_EQ(coh_touch(c, 0, SCHED_LINE_RQ(0), 0), 0);
		coh_destroy(c);
	}
	// Without task_align nothing is evicted.
	coh *c = coh_create(&tp, coh_find_profile("p3xeon4"), SCHED_NR_LINES(nt), 0);
	for (unsigned pass = 0; pass < 2; pass++)
		for (unsigned i = 0; i < nt; i++)
			EXPECT_EQ(coh_touch(c, 0, SCHED_LINE_TASK(i), 0), 0);
	EXPECT_EQ(coh_stats(c)->evictions, 0u);
	coh_destroy(c);
}

// 64 CPUs: a line CPU 63 holds is found and priced (a shift by 64 used to run the holder
// scan past CPU 63: hwsched run on numa=4,pkg=2,core=8 with a profile crashed).
TEST(Coherence, SixtyFourCpusFindTheLastCpusCopy)
{
	sched_topo tp = topo("numa=4,pkg=2,core=8");
	ASSERT_EQ(tp.nr_cpus, 64u);
	for (unsigned align : { 0u, 8192u }) {
		coh *c = coh_create(&tp, coh_find_profile("modern"), SCHED_NR_LINES(4), align);
		EXPECT_EQ(coh_touch(c, 63, SCHED_LINE_TASK(1), 1), 0);
		EXPECT_EQ(coh_touch(c, 0, SCHED_LINE_TASK(1), 0), 150) << "another node";
		EXPECT_EQ(coh_touch(c, 62, SCHED_LINE_TASK(1), 1), 150) << "invalidates CPU 0's copy";
		EXPECT_EQ(coh_touch(c, 63, SCHED_LINE_TASK(1), 0), 50) << "from CPU 62, same package";
		coh_destroy(c);
	}
}

// A write by another CPU takes the line out of the first CPU's list: its list makes room.
TEST(Coherence, ALineInvalidatedByAWriteLeavesTheLru)
{
	sched_topo tp = topo("core=2");
	coh *c = coh_create(&tp, coh_find_profile("p3xeon4"), SCHED_NR_LINES(300), 8192);
	for (unsigned i = 0; i < 128; i++)
		coh_touch(c, 0, SCHED_LINE_TASK(i), 0);
	EXPECT_EQ(coh_touch(c, 1, SCHED_LINE_TASK(0), 1), 250) << "invalidates CPU 0's copy";
	EXPECT_EQ(coh_touch(c, 0, SCHED_LINE_TASK(200), 0), 0) << "cold";
	EXPECT_EQ(coh_stats(c)->evictions, 0u) << "127 + 1 lines: CPU 0 evicted nothing";
	EXPECT_EQ(coh_touch(c, 0, SCHED_LINE_TASK(1), 0), 0) << "still cached";
	coh_destroy(c);
}

// CPUs thread-fastest on numa=2,pkg=2,core=2,smt=2: 1 is 0's sibling, 2 its package's
// other core, 4 the node's other package, 8 the other node.
TEST(Coherence, SiblingCheaperThanPackageCheaperThanNodeCheaperThanRemote)
{
	Coh m("numa=2,pkg=2,core=2,smt=2", "modern");
	ASSERT_NE(m.c, nullptr);
	double smt = coh_distance_ns(m.c, 0, 1), pkg = coh_distance_ns(m.c, 0, 2),
	       node = coh_distance_ns(m.c, 0, 4), remote = coh_distance_ns(m.c, 0, 8);
	EXPECT_EQ(coh_distance_ns(m.c, 3, 3), 0);
	EXPECT_LT(smt, pkg);
	EXPECT_LT(pkg, node);
	EXPECT_LT(node, remote);
	EXPECT_EQ(coh_distance_ns(m.c, 8, 0), remote) << "symmetric";
	// The 2001-2004 machines: one bus inside a node, so only the node boundary costs more.
	for (const char *p : { "p3xeon4", "p3xeon8", "numaq16" }) {
		Coh o("numa=2,pkg=2,core=2,smt=2", p);
		EXPECT_LE(coh_distance_ns(o.c, 0, 1), coh_distance_ns(o.c, 0, 2)) << p;
		EXPECT_LE(coh_distance_ns(o.c, 0, 2), coh_distance_ns(o.c, 0, 4)) << p;
		EXPECT_LE(coh_distance_ns(o.c, 0, 4), coh_distance_ns(o.c, 0, 8)) << p;
	}
	Coh q("numa=2,pkg=2,core=2,smt=2", "numaq16");
	EXPECT_EQ(coh_distance_ns(q.c, 0, 8), 10 * coh_distance_ns(q.c, 0, 4));
}

// Reads share a line; a write invalidates the other copies and pays the farthest.
TEST(Coherence, ReadsShareAWriteInvalidates)
{
	Coh m("numa=2,core=2", "numaq16");	// CPUs 0,1 node 0; 2,3 node 1
	EXPECT_EQ(coh_touch(m.c, 0, 5, 1), 0) << "from memory: priced by the scheduler";
	EXPECT_EQ(coh_touch(m.c, 0, 5, 1), 0) << "held";
	EXPECT_EQ(coh_touch(m.c, 1, 5, 0), 250) << "from CPU 0, same node";
	EXPECT_EQ(coh_touch(m.c, 1, 5, 0), 0) << "now shared";
	EXPECT_EQ(coh_touch(m.c, 2, 5, 0), 250 * 10) << "nearest copy is on node 0";
	EXPECT_EQ(coh_touch(m.c, 1, 5, 1), 2500) << "invalidating CPU 2's copy";
	EXPECT_EQ(coh_touch(m.c, 0, 5, 0), 250);
	EXPECT_EQ(coh_stats(m.c)->transfers, 4u);
	EXPECT_EQ(coh_stats(m.c)->transfer_ns, 250 + 2500 + 2500 + 250);
}

TEST(Coherence, UncontendedLockTakenRepeatedlyByOneCpuPaysNothing)
{
	Coh m("core=4", "p3xeon4");
	for (uint64_t t = 0; t < 100; t++)
		EXPECT_EQ(coh_lock(m.c, 2, SCHED_LINE_RQ(2), t * 1000, 100), 0) << t;
	EXPECT_EQ(coh_stats(m.c)->transfers, 0u);
	EXPECT_EQ(coh_stats(m.c)->lock_waits, 0u);
}

TEST(Coherence, TwoCpusAlternatingPayOneTransferPerHandoff)
{
	Coh m("numa=2,core=2", "numaq16");
	EXPECT_EQ(coh_lock(m.c, 0, SCHED_LINE_GLOBAL_LOCK, 0, 100), 0) << "first touch: memory";
	for (unsigned i = 1; i <= 10; i++) {
		unsigned cpu = i % 2 ? 3 : 0;	// across nodes
		EXPECT_EQ(coh_lock(m.c, cpu, SCHED_LINE_GLOBAL_LOCK, i * 10000, 100), 2500) << i;
	}
	EXPECT_EQ(coh_stats(m.c)->transfers, 10u);
	EXPECT_EQ(coh_stats(m.c)->lock_waits, 0u) << "never held when asked";
}

// Three CPUs ask at t = 0 for a lock held 100 ns each (p3xeon4, 250 ns a transfer):
// CPU 0 takes it at once; CPU 1 waits 100, then the line moves (250): 350; CPU 2 waits
// for CPU 1's hold (until 100 + 250 + 100 = 450), and CPU 1 was spinning ahead of it
// when it arrived, so its handoff is its own transfer plus one: 450 + 2 x 250 = 950.
TEST(Coherence, SpinnersPayTheLinesTransfersAtEachHandoff)
{
	Coh m("core=4", "p3xeon4");
	EXPECT_EQ(coh_lock(m.c, 0, SCHED_LINE_GLOBAL_LOCK, 0, 100), 0);
	EXPECT_EQ(coh_lock(m.c, 1, SCHED_LINE_GLOBAL_LOCK, 0, 100), 350);
	EXPECT_EQ(coh_lock(m.c, 2, SCHED_LINE_GLOBAL_LOCK, 0, 100), 950);
	EXPECT_EQ(coh_stats(m.c)->lock_waits, 2u);
	EXPECT_EQ(coh_stats(m.c)->transfers, 3u);
	// CPU 2 again in the same event: its own hold is not over, but it does not wait for it.
	EXPECT_EQ(coh_lock(m.c, 2, SCHED_LINE_GLOBAL_LOCK, 0, 100), 0);
}

machine_result run(const char *topology, const char *sched, const char *workload,
		   uint64_t duration_ns = 100000000ull, int flat = 0)
{
	machine_opts o;
	machine_result r;
	char err[300] = "";

	machine_default_opts(&o);
	o.topology = topology;
	o.sched = sched;
	o.workload = workload;
	o.duration_ns = duration_ns;
	o.sched_opts.flat = flat;
	EXPECT_EQ(machine_run(&o, &r, nullptr, err, sizeof(err)), 0) << err;
	return r;
}

// The engine's queues have no lines: MMIO pays its bus cost, no coherence. The same run
// on software queues pays transfers and lock handoffs.
TEST(Coherence, EngineBackendPaysNone)
{
	machine_result hw = run("core=4,profile=p3xeon4", "hw", "tbench:clients=16");
	machine_result o1 = run("core=4,profile=p3xeon4", "o1", "tbench:clients=16");
	ASSERT_NE(hw.profile, nullptr);
	EXPECT_STREQ(hw.profile, "p3xeon4");
	EXPECT_EQ(hw.coh_transfers, 0u);
	EXPECT_EQ(hw.coh_transfer_ns, 0);
	EXPECT_EQ(hw.coh_lock_ns, 0);
	EXPECT_GT(hw.engine_mmio, 0u);
	EXPECT_GT(o1.coh_transfers, 0u);
	EXPECT_GT(o1.coh_lock_ns, 0);
	machine_result_free(&hw);
	machine_result_free(&o1);
}

// The fair policies take their run queues' locks and write task lines too.
TEST(Coherence, FairPoliciesPayForTheirQueues)
{
	for (const char *s : { "cfs", "eevdf" }) {
		machine_result r = run("numa=2,core=2,profile=numaq16", s, "tbench:clients=8");
		EXPECT_GT(r.coh_transfers, 0u) << s;
		EXPECT_GT(r.coh_lock_ns, 0) << s;
		machine_result_free(&r);
	}
}

// Without a profile nothing moves; with one, linux24's scan pulls task lines and its
// overhead grows (the same workload: no calibration, no contention model).
TEST(Coherence, NoProfileNoCostAndLinux24PaysForItsScan)
{
	machine_result off = run("core=4", "linux24", "tbench:clients=32");
	machine_result on = run("core=4,profile=p3xeon4", "linux24",
				"tbench:clients=32,calib=0,net=0,numa=0");
	EXPECT_EQ(off.profile, nullptr);
	EXPECT_EQ(off.coh_transfers, 0u);
	EXPECT_GT(on.coh_transfers, 1000u);
	EXPECT_GT(on.sched_overhead_pct, off.sched_overhead_pct);
	EXPECT_LT(on.throughput, off.throughput);
	machine_result_free(&off);
	machine_result_free(&on);
}

// linux24 on the 4-way P-III: 64 tbench processes fit in a CPU's 128 aliased lines, 192
// do not, so its goodness() scan fetches task lines from memory; o1 never does.
TEST(Coherence, Linux24ScanMissesOnlyWhenTheTasksOutnumberTheCache)
{
	machine_result small = run("core=4,profile=p3xeon4", "linux24", "tbench:clients=32");
	machine_result big = run("core=4,profile=p3xeon4", "linux24", "tbench:clients=96");
	machine_result o1 = run("core=4,profile=p3xeon4", "o1", "tbench:clients=96");
	EXPECT_EQ(small.coh_mem_fetches, 0u);
	EXPECT_GT(big.coh_mem_fetches, 1000u);
	EXPECT_EQ(big.coh_mem_ns, 200.0 * (double)big.coh_mem_fetches);
	EXPECT_EQ(o1.coh_mem_fetches, 0u);
	machine_result_free(&small);
	machine_result_free(&big);
	machine_result_free(&o1);
}

// The same on a whole machine of 64 CPUs (the co-design study's largest): it runs.
TEST(Coherence, SixtyFourCpuMachineRunsWithAProfile)
{
	machine_result r = run("numa=4,pkg=2,core=8,profile=modern", "o1", "mix:tasks=64");
	EXPECT_GT(r.coh_transfers, 0u);
	machine_result_free(&r);
}

TEST(Coherence, TopologyProfileKeyIsCheckedByName)
{
	sched_topo t{};
	char err[256] = "";

	EXPECT_EQ(machine_parse_topology("core=4,profile=p3xeon4", &t, err, sizeof(err)), 0) << err;
	EXPECT_EQ(t.nr_cpus, 4u);
	EXPECT_EQ(machine_parse_topology("profile=modern,numa=2,pkg=2,core=2,smt=2", &t, err,
					 sizeof(err)), 0) << err;
	EXPECT_EQ(t.nr_cpus, 16u);
	EXPECT_EQ(machine_parse_topology("core=4,profile=vax", &t, err, sizeof(err)), -EINVAL);
	EXPECT_NE(std::string(err).find("unknown profile 'vax'"), std::string::npos) << err;
	EXPECT_NE(std::string(err).find("p3xeon4"), std::string::npos) << "lists the profiles";
	EXPECT_EQ(machine_parse_topology("core=4,machine=p3xeon4", &t, err, sizeof(err)), -EINVAL);
	EXPECT_NE(std::string(err).find("unknown key 'machine'"), std::string::npos) << err;
	EXPECT_EQ(machine_parse_topology("core=4,profile=", &t, err, sizeof(err)), -EINVAL);
}

// VolanoMark's JVM yields before it blocks on an empty mailbox; yields=0 turns it off.
TEST(Coherence, VolanoMarkYieldsUnlessToldNotTo)
{
	machine_result y = run("core=4", "linux24", "volanomark:rooms=2,users=10");
	machine_result n = run("core=4", "linux24", "volanomark:rooms=2,users=10,yields=0");
	EXPECT_GT(y.yields, 0u);
	EXPECT_EQ(n.yields, 0u);
	machine_result_free(&y);
	machine_result_free(&n);
}

}	// namespace

// ---- The contention models (sim/machine/contention.c, docs/results.md) ----

// A spin lock of kernel data on hand-worked cases: the first taker pays nothing, a second
// CPU arriving during the hold waits for the rest of it and pays the line's transfer from
// the holder, a third arriving behind it pays the transfer once more per spinner ahead.
TEST(Coherence, KernelSpinLockWaitsAndPaysTheLinesTransfers)
{
	Coh c("core=4", "p3xeon4");
	cont_lock l{};
	int waited = 0;

	EXPECT_EQ(cont_spin(c.c, &l, 0, 1000, 500, &waited), 0);
	EXPECT_EQ(waited, 0);
	// CPU 1 at 1200: the hold ends at 1500, then the line comes from CPU 0 (250 ns)
	EXPECT_EQ(cont_spin(c.c, &l, 1, 1200, 500, &waited), 300 + 250);
	EXPECT_EQ(waited, 1);
	// CPU 2 at 1300: CPU 1 holds from 1750 to 2250; one spinner (CPU 1's grant at 1750 is
	// after 1300) was ahead of it: the line's transfer twice
	EXPECT_EQ(cont_spin(c.c, &l, 2, 1300, 500, &waited), 950 + 2 * 250);
	// the same CPU again while its hold is not over: no wait for itself
	EXPECT_EQ(cont_spin(c.c, &l, 2, 1400, 500, &waited), 0);
	EXPECT_EQ(waited, 0);
	// long after: free, but the line is still in CPU 2's cache
	EXPECT_EQ(cont_spin(c.c, &l, 3, 100000, 500, &waited), 250);
	EXPECT_EQ(waited, 0);
}

// Without a profile no contention model is in force and no calibration applies; with one
// each is in force for the workloads that have its cost, and its key turns it off.
TEST(Coherence, ContentionModelsNeedAProfileAndEachKeyTurnsOneOff)
{
	machine_result none = run("numa=4,core=4", "o1", "tbench:clients=8");
	machine_result tb = run("numa=4,core=4,profile=numaq16", "o1", "tbench:clients=8");
	machine_result off = run("numa=4,core=4,profile=numaq16", "o1",
				 "tbench:clients=8,net=0,numa=0,calib=0");
	machine_result db = run("core=4,profile=numaq16", "o1", "dbench:clients=8");
	EXPECT_EQ(none.cont_net + none.cont_fs + none.cont_numa, 0);
	EXPECT_EQ(none.work_scale, 1);
	EXPECT_EQ(none.calib_point, nullptr);
	EXPECT_EQ(tb.cont_net, 1);
	EXPECT_EQ(tb.cont_numa, 1);
	EXPECT_EQ(tb.cont_fs, 0);
	EXPECT_NE(tb.calib_point, nullptr);
	EXPECT_GT(tb.lo_packets, 0u);
	EXPECT_EQ(off.cont_net + off.cont_numa, 0);
	EXPECT_EQ(off.lo_packets + off.msg_remote + off.numa_bursts, 0u);
	EXPECT_EQ(off.work_scale, 1);
	// one node: no remote memory, whatever the profile
	EXPECT_EQ(db.cont_fs, 1);
	EXPECT_EQ(db.cont_numa, 0);
	for (machine_result *r : { &none, &tb, &off, &db })
		machine_result_free(r);
}

// The loopback path: with more tbench clients on the 16-CPU NUMA-Q more CPUs send at once,
// so a packet waits for the transmit lock more often and longer; net=0 removes the cost
// and the throughput rises.
TEST(Coherence, LoopbackLockWaitGrowsWithClients)
{
	const char *t = "numa=4,core=4,profile=numaq16";
	machine_result few = run(t, "o1", "tbench:clients=2,work=0.2", 300000000ull);
	machine_result many = run(t, "o1", "tbench:clients=32,work=0.2", 300000000ull);
	machine_result off = run(t, "o1", "tbench:clients=32,work=0.2,net=0", 300000000ull);
	ASSERT_GT(few.lo_packets, 0u);
	ASSERT_GT(many.lo_packets, 0u);
	double w_few = few.lo_wait_ns / (double)few.lo_packets;
	double w_many = many.lo_wait_ns / (double)many.lo_packets;
	EXPECT_GT(w_many, 2 * w_few) << "ns waited per packet: " << w_few << " -> " << w_many;
	EXPECT_GT((double)many.lo_waits / many.lo_packets, (double)few.lo_waits / few.lo_packets);
	EXPECT_EQ(off.lo_packets, 0u);
	EXPECT_GT(off.throughput, many.throughput);
	for (machine_result *r : { &few, &many, &off })
		machine_result_free(r);
}

// The file system: more dbench clients, more waits for dcache_lock and the LRU locks per
// operation; fs=0 removes them.
TEST(Coherence, FileSystemLockWaitGrowsWithClients)
{
	const char *t = "numa=4,core=4,profile=numaq16";
	machine_result few = run(t, "o1", "dbench:clients=4", 300000000ull);
	machine_result many = run(t, "o1", "dbench:clients=64", 300000000ull);
	machine_result off = run(t, "o1", "dbench:clients=64,fs=0", 300000000ull);
	ASSERT_GT(few.fs_ops, 0u);
	ASSERT_GT(many.fs_ops, 0u);
	EXPECT_GT(many.fs_wait_ns / (double)many.fs_ops, few.fs_wait_ns / (double)few.fs_ops);
	EXPECT_GT((double)many.fs_waits / many.fs_ops, (double)few.fs_waits / few.fs_ops);
	EXPECT_EQ(off.fs_ops, 0u);
	EXPECT_GT(off.throughput, many.throughput);
	for (machine_result *r : { &few, &many, &off })
		machine_result_free(r);
}

// Remote memory: on the flat balancer more hackbench groups mean more tasks run off
// their memory's node, each such burst longer by mem_frac x (ratio - 1); numa=0 removes
// it and the makespan shrinks.
TEST(Coherence, RemoteMemoryGrowsWithTasksOffTheirNode)
{
	const char *t = "numa=4,core=4,profile=numaq16";
	machine_result one = run(t, "o1", "hackbench:groups=1,loops=20", 0, 1);
	machine_result four = run(t, "o1", "hackbench:groups=4,loops=20", 0, 1);
	machine_result off = run(t, "o1", "hackbench:groups=4,loops=20,numa=0", 0, 1);
	ASSERT_GT(one.numa_bursts, 0u);
	EXPECT_GT(four.numa_bursts, 2 * one.numa_bursts);
	EXPECT_GT(four.numa_ns, 2 * one.numa_ns);
	EXPECT_EQ(off.numa_bursts, 0u);
	EXPECT_LT(off.makespan_s, four.makespan_s);
	for (machine_result *r : { &one, &four, &off })
		machine_result_free(r);
}
