// pipe_test.cc - the issue rules of docs/accelerator.md 4.1 and 4.1.1 (PIPE = 1,
// overlapped issue) on the C model: the edge at which every command is popped, for
// hand-made and random streams fed through 1, 2 or 4 ports, against an independent
// scheduler written here from the spec's rules (conditions 1-3 of 4.1, the arbiter of
// 4.5, (a)-(e) of 4.1.1) over a small functional model of the commands the streams use;
// and that PIPE = 1 changes no command's outcome, only the timing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <deque>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "hws/hws.h"
#include "hws/regs.h"
#include "lib/hws_params.h"
#include "models/hws_model.h"
#include "tests/test_util.h"

namespace {

constexpr unsigned kCpus = 4, kTasks = 16;

uint32_t word(unsigned op, unsigned task, unsigned prio, unsigned cpu)
{
	return (uint32_t)op << HWS_CMD_OP_LSB | (uint32_t)task << HWS_CMD_TASK_LSB |
	       (uint32_t)prio << HWS_CMD_PRIO_LSB | (uint32_t)cpu << HWS_CMD_CPU_LSB;
}
uint32_t enq(unsigned t, unsigned c, unsigned prio = 120) { return word(HWS_OP_ENQUEUE, t, prio, c); }
uint32_t pick(unsigned c) { return word(HWS_OP_PICK_NEXT, 0, 0, c); }
uint32_t peek(unsigned c) { return word(HWS_OP_PEEK, 0, 0, c); }
uint32_t cstat(unsigned c) { return word(HWS_OP_CPU_STAT, 0, 0, c); }
uint32_t deq(unsigned t) { return word(HWS_OP_DEQUEUE, t, 0, 0); }
uint32_t tstat(unsigned t) { return word(HWS_OP_TASK_STAT, t, 0, 0); }
uint32_t nop() { return word(HWS_OP_NOP, 0, 0, 0); }

unsigned op_of(uint32_t c) { return c >> HWS_CMD_OP_LSB; }
unsigned task_of(uint32_t c) { return (c & HWS_CMD_TASK_MASK) >> HWS_CMD_TASK_LSB; }
unsigned prio_of(uint32_t c) { return (c & HWS_CMD_PRIO_MASK) >> HWS_CMD_PRIO_LSB; }
unsigned cpu_of(uint32_t c) { return (c & HWS_CMD_CPU_MASK) >> HWS_CMD_CPU_LSB; }

// ---- The reference: the spec's rules, written independently of the model ----

// The queues, as far as the streams below need them: every ENQUEUE goes to the tail of
// the active array (ARRAY = 0, HEAD = 0), so PICK_NEXT never swaps; a CPU's tasks in
// the order PICK_NEXT takes them (lowest priority number, then FIFO).
struct Queues {
	std::vector<std::vector<std::pair<unsigned, unsigned>>> list;	// (prio, task) per cpu
	std::vector<int> queued;
	Queues() : list(kCpus), queued(kTasks, 0) {}

	// Section 3's checks, in order: 0 or the error code.
	unsigned check(uint32_t c) const
	{
		const unsigned t = task_of(c), cpu = cpu_of(c), p = prio_of(c);
		switch (op_of(c)) {
		case HWS_OP_NOP: return 0;
		case HWS_OP_ENQUEUE:
			if (t >= kTasks) return HWS_ERR_TASK;
			if (cpu >= kCpus) return HWS_ERR_CPU;
			if (p >= HWS_NR_PRIO) return HWS_ERR_PRIO;
			return queued[t] ? HWS_ERR_QUEUED : 0;
		case HWS_OP_DEQUEUE:
			if (t >= kTasks) return HWS_ERR_TASK;
			return queued[t] ? 0 : HWS_ERR_NOTQUEUED;
		case HWS_OP_PICK_NEXT:
		case HWS_OP_PEEK:
			return cpu >= kCpus ? HWS_ERR_CPU : 0;
		case HWS_OP_CPU_STAT:
			if (cpu >= kCpus) return HWS_ERR_CPU;
			return p >= HWS_SEL_CPU_STAT_COUNT ? HWS_ERR_PRIO : 0;
		case HWS_OP_TASK_STAT:
			if (t >= kTasks) return HWS_ERR_TASK;
			return p >= HWS_SEL_TASK_STAT_COUNT ? HWS_ERR_PRIO : 0;
		}
		ADD_FAILURE() << "the reference does not know opcode " << op_of(c);
		return HWS_ERR_OPCODE;
	}
	unsigned latency(uint32_t c) const
	{
		if (check(c))
			return 1;
		switch (op_of(c)) {
		case HWS_OP_ENQUEUE: return HWS_LAT_ENQUEUE;
		case HWS_OP_DEQUEUE: return HWS_LAT_DEQUEUE;
		case HWS_OP_PICK_NEXT: return HWS_LAT_PICK_NEXT;
		case HWS_OP_PEEK: return HWS_LAT_PEEK;
		case HWS_OP_CPU_STAT: return HWS_LAT_CPU_STAT;
		case HWS_OP_TASK_STAT: return HWS_LAT_TASK_STAT;
		}
		return HWS_LAT_NOP;
	}
	void apply(uint32_t c)
	{
		const unsigned t = task_of(c), cpu = cpu_of(c);
		if (check(c))
			return;
		if (op_of(c) == HWS_OP_ENQUEUE) {
			list[cpu].push_back({ prio_of(c), t });
			queued[t] = 1;
		} else if (op_of(c) == HWS_OP_DEQUEUE) {
			for (auto &l : list)
				for (size_t i = 0; i < l.size(); i++)
					if (l[i].second == t) {
						l.erase(l.begin() + (long)i);
						break;
					}
			queued[t] = 0;
		} else if (op_of(c) == HWS_OP_PICK_NEXT && !list[cpu].empty()) {
			auto &l = list[cpu];
			size_t best = 0;
			for (size_t i = 1; i < l.size(); i++)
				if (l[i].first < l[best].first)
					best = i;
			queued[l[best].second] = 0;
			l.erase(l.begin() + (long)best);
		}
	}
};

bool pushes_result(uint32_t c)
{
	const unsigned op = op_of(c);
	return op == HWS_OP_PICK_NEXT || op == HWS_OP_PEEK || op == HWS_OP_CPU_STAT ||
	       op == HWS_OP_TASK_STAT;
}

// 4.1.1's overlap class.
bool in_class(uint32_t c)
{
	const unsigned op = op_of(c);
	return op == HWS_OP_ENQUEUE || op == HWS_OP_PICK_NEXT || op == HWS_OP_PEEK ||
	       op == HWS_OP_CPU_STAT;
}

struct Flight {
	uint32_t cmd;
	unsigned port;
	uint64_t done_at;	// completion edge
	bool sfail;		// fails a check of the state (QUEUED, NOTQUEUED, DOMAIN)
};

struct Pop {
	uint64_t edge;
	uint32_t cmd;
	unsigned port;
	unsigned lat;
	bool operator==(const Pop &o) const
	{
		return edge == o.edge && cmd == o.cmd && port == o.port && lat == o.lat;
	}
};

std::string show(const std::vector<Pop> &v, size_t from)
{
	std::string s;
	char b[64];
	for (size_t i = from; i < v.size() && i < from + 8; i++) {
		snprintf(b, sizeof(b), " [%llu p%u %08x L%u]", (unsigned long long)v[i].edge,
			 v[i].port, v[i].cmd, v[i].lat);
		s += b;
	}
	return s;
}

// The pop edges the spec gives for commands whose writes are taken at the edges in
// @arrive (per port, in order, a command each), with no result ever read.
class RefEngine {
public:
	RefEngine(unsigned ports, unsigned cmd_depth, unsigned res_depth, bool pipe)
		: np_(ports), cdep_(cmd_depth), rdep_(res_depth), pipe_(pipe), fifo_(ports),
		  res_(ports, 0)
	{
	}
	// One edge; @taken[i]: the command word port i's write brings at this edge (if any).
	void edge(uint64_t e, const std::vector<std::pair<bool, uint32_t>> &taken)
	{
		// The state just before the edge.
		const std::vector<unsigned> res_before = res_;
		std::vector<Flight> before = fl_;
		bool done = !fl_.empty() && fl_.front().done_at == e;
		// Completion (effects at once; at most one per edge, the oldest).
		if (done) {
			q_.apply(fl_.front().cmd);
			if (pushes_result(fl_.front().cmd))
				res_[fl_.front().port]++;
			fl_.erase(fl_.begin());
		}
		for (const Flight &f : fl_)
			EXPECT_GT(f.done_at, e) << "two completions at one edge";
		// The arbiter: first eligible port from rr (conditions 1 and 3 per port).
		int win = -1;
		for (unsigned k = 0; k < np_; k++) {
			unsigned i = (rr_ + k) % np_;
			if (!fifo_[i].empty() && res_before[i] + 2 <= rdep_) {
				win = (int)i;
				break;
			}
		}
		bool pop = false;
		if (win >= 0) {
			// Condition 2: every command in flight at e completes at e, and none
			// of them by failing a check of the state.
			bool all_done = true;
			for (const Flight &f : before)
				all_done = all_done && f.done_at == e && !f.sfail;
			pop = all_done;
			if (!pop && pipe_)
				pop = overlap(e, before, (unsigned)win, res_before[(unsigned)win]);
		}
		if (pop) {
			uint32_t c = fifo_[(unsigned)win].front();
			fifo_[(unsigned)win].pop_front();
			uint64_t at = e + q_.latency(c);
			for (const Flight &f : fl_)
				EXPECT_GT(at, f.done_at) << "completions out of order";
			// (The streams' commands check no domain: DOMAIN never occurs here.)
			const unsigned code = q_.check(c);
			fl_.push_back({ c, (unsigned)win, at,
					code == HWS_ERR_QUEUED || code == HWS_ERR_NOTQUEUED });
			pops.push_back({ e, c, (unsigned)win, q_.latency(c) });
			rr_ = ((unsigned)win + 1) % np_;
		}
		// Writes taken at e: pushed unless the FIFO was full before the edge (4.3).
		for (unsigned i = 0; i < np_; i++)
			if (taken[i].first && fifo_before_[i] < cdep_)
				fifo_[i].push_back(taken[i].second);
		for (unsigned i = 0; i < np_; i++)
			fifo_before_[i] = (unsigned)fifo_[i].size();
	}
	bool idle() const
	{
		if (!fl_.empty())
			return false;
		for (const auto &f : fifo_)
			if (!f.empty())
				return false;
		return true;
	}
	std::vector<Pop> pops;
	std::vector<unsigned> fifo_before_ = std::vector<unsigned>(4, 0);

private:
	// (a)-(e) of 4.1.1 for the head of port @win.
	bool overlap(uint64_t e, const std::vector<Flight> &before, unsigned win, unsigned res_lvl)
	{
		const uint32_t n = fifo_[win].front();
		std::vector<Flight> staying;
		for (const Flight &f : before)
			if (f.done_at != e)
				staying.push_back(f);
		if (staying.size() != 1 || staying[0].done_at != e + 1)		// (a)
			return false;
		const uint32_t o = staying[0].cmd;
		if (!in_class(o) || !in_class(n))					// (b)
			return false;
		if (cpu_of(o) == cpu_of(n))						// (c)
			return false;
		if (op_of(o) == HWS_OP_ENQUEUE && op_of(n) == HWS_OP_ENQUEUE &&
		    task_of(o) == task_of(n))
			return false;
		if (q_.check(n))							// (d)
			return false;
		unsigned r = 0;								// (e)
		for (const Flight &f : before)
			r += f.port == win && pushes_result(f.cmd);
		return res_lvl + r <= rdep_ - 2;
	}
	unsigned np_, cdep_, rdep_;
	bool pipe_;
	unsigned rr_ = 0;
	std::vector<std::deque<uint32_t>> fifo_;
	std::vector<unsigned> res_;
	std::vector<Flight> fl_;
	Queues q_;
};

// ---- The model, driven through its pins ----

struct ModelDeleter {
	void operator()(hws_model *m) const { hws_model_destroy(m); }
};
using ModelPtr = std::unique_ptr<hws_model, ModelDeleter>;

ModelPtr make(unsigned ports, unsigned depth, unsigned pipe)
{
	hws_params p;
	hws_params_default(&p);
	p.nr_cpus = kCpus;
	p.nr_tasks = kTasks;
	p.cmd_depth = p.res_depth = depth;
	p.nr_ports = ports;
	p.pipe = pipe;
	hws_model *m = nullptr;
	EXPECT_EQ(hws_model_create(&m, &p), 0);
	return ModelPtr(m);
}

// Feed each port's stream (a write every 2 edges per port, the reference master's pace,
// or with @gaps a random idle cycle now and then), step the model and the reference edge
// by edge, and compare the pops. Returns the model's pops.
std::vector<Pop> run(unsigned ports, unsigned depth, unsigned pipe,
		     const std::vector<std::vector<uint32_t>> &streams, uint64_t gap_seed = 0)
{
	ModelPtr m = make(ports, depth, pipe);
	RefEngine ref(ports, depth, depth, pipe != 0);
	std::vector<Pop> got;
	std::vector<size_t> next(ports, 0);
	std::vector<hws_axil_out> out(ports);
	std::mt19937_64 rng(gap_seed);
	if (!m)
		return got;
	hws_model_pins_now(m.get(), out.data());
	for (uint64_t e = 1; e < 100000; e++) {
		std::vector<hws_axil_in> in(ports);
		std::vector<std::pair<bool, uint32_t>> taken(ports, { false, 0 });
		bool more = false;
		for (unsigned i = 0; i < ports; i++) {
			in[i] = {};
			in[i].bready = 1;
			in[i].rready = 1;
			if (next[i] < streams[i].size()) {
				more = true;
				if (out[i].awready && out[i].wready && !(gap_seed && rng() % 5 == 0)) {
					in[i].awvalid = in[i].wvalid = 1;
					in[i].awaddr = HWS_REG_CMD;
					in[i].wdata = streams[i][next[i]];
					in[i].wstrb = 0xf;
					taken[i] = { true, streams[i][next[i]] };
					next[i]++;
				}
			}
		}
		hws_model_pins(m.get(), in.data(), out.data());
		ref.edge(e, taken);
		hws_model_run r[2];
		unsigned n = hws_model_inflight(m.get(), r);
		for (unsigned k = 0; k < n; k++)
			if (r[k].step == 1)
				got.push_back({ e, r[k].cmd, r[k].port, r[k].lat });
		EXPECT_LE(n, pipe ? 2u : 1u);
		if (!more && ref.idle() && n == 0)
			break;
	}
	EXPECT_EQ(got.size(), ref.pops.size());
	for (size_t i = 0; i < got.size() && i < ref.pops.size(); i++)
		if (!(got[i] == ref.pops[i])) {
			ADD_FAILURE() << "pop " << i << " differs: model" << show(got, i)
				      << "\n  spec" << show(ref.pops, i);
			break;
		}
	return got;
}

std::vector<uint64_t> edges_of(const std::vector<Pop> &v)
{
	std::vector<uint64_t> e;
	for (const Pop &p : v)
		e.push_back(p.edge);
	return e;
}

// ---- Hand-made streams ----

TEST(PipeIssue, Pipe0IsTheOneAtATimeRule)
{
	// Two ports keep the FIFO fed; each command pops at the completion of the last.
	std::vector<std::vector<uint32_t>> s = { { enq(0, 0), enq(2, 0), pick(0), enq(4, 2) },
						 { enq(1, 1), enq(3, 1), pick(1), enq(5, 3) } };
	std::vector<Pop> p = run(2, 16, 0, s);
	ASSERT_EQ(p.size(), 8u);
	for (size_t i = 1; i < p.size(); i++) {
		unsigned lat = op_of(p[i - 1].cmd) == HWS_OP_PICK_NEXT ? HWS_LAT_PICK_NEXT : HWS_LAT_ENQUEUE;
		EXPECT_EQ(p[i].edge, p[i - 1].edge + lat) << i;
	}
}

TEST(PipeIssue, EnqueuesOnTwoCpusIssueOnePerCycle)
{
	// Port 0 enqueues on CPU 0, port 1 on CPU 1: the arbiter alternates, so each pair of
	// consecutive commands names different CPUs and each pops beside the last step of the
	// one before it: one per edge once both ports deliver (a write every edge in all).
	std::vector<std::vector<uint32_t>> s(2);
	for (unsigned k = 0; k < 6; k++) {
		s[0].push_back(enq(2 * k, 0));
		s[1].push_back(enq(2 * k + 1, 1));
	}
	std::vector<Pop> p = run(2, 16, 1, s);
	ASSERT_EQ(p.size(), 12u);
	for (size_t i = 2; i < p.size(); i++)
		EXPECT_EQ(p[i].edge, p[i - 1].edge + 1) << i;
	// The same stream with PIPE = 0: one every 2 edges (ENQUEUE's latency).
	std::vector<Pop> q = run(2, 16, 0, s);
	ASSERT_EQ(q.size(), 12u);
	for (size_t i = 2; i < q.size(); i++)
		EXPECT_EQ(q[i].edge, q[i - 1].edge + HWS_LAT_ENQUEUE) << i;
}

TEST(PipeIssue, SameCpuStalls)
{
	// (c): both ports on CPU 0: no overlap, the PIPE = 0 timing.
	std::vector<std::vector<uint32_t>> s = { { enq(0, 0), enq(2, 0), enq(4, 0) },
						 { enq(1, 0), enq(3, 0), enq(5, 0) } };
	EXPECT_EQ(edges_of(run(2, 16, 1, s)), edges_of(run(2, 16, 0, s)));
}

TEST(PipeIssue, SameTaskStallsAndThenFailsQueued)
{
	// (c) two ENQUEUEs of one task on different CPUs: the second waits for the first's
	// completion (then fails QUEUED, in 1 cycle).
	std::vector<std::vector<uint32_t>> s = { { enq(3, 0) }, { enq(3, 1) } };
	std::vector<Pop> p = run(2, 16, 1, s);
	ASSERT_EQ(p.size(), 2u);
	EXPECT_EQ(p[1].edge, p[0].edge + HWS_LAT_ENQUEUE);
}

TEST(PipeIssue, AFailedStateCheckHoldsTheNextPopOneEdge)
{
	// Condition 2 of 4.1: a command failing NOTQUEUED or QUEUED (a check that reads the
	// state) completes 1 edge after its pop, and nothing pops at that edge: the next
	// command pops 2 edges after it. One failing a check of the word alone (TASK) lets
	// the next pop at its completion edge, 1 edge after it. Both PIPE settings; the
	// FIFO is fed ahead (two ports) so only the rule sets the spacing.
	for (unsigned pipe = 0; pipe < 2; pipe++) {
		SCOPED_TRACE(pipe ? "PIPE = 1" : "PIPE = 0");
		std::vector<std::vector<uint32_t>> s = {
			{ deq(7), enq(1, 0), enq(1, 1), deq(kTasks + 1), nop() },
			{ nop(), nop(), nop(), nop(), nop() } };
		std::vector<Pop> p = run(2, 16, pipe, s);
		ASSERT_EQ(p.size(), 10u);
		for (size_t i = 0; i + 1 < p.size(); i++) {
			uint64_t gap = p[i + 1].edge - p[i].edge;
			if (p[i].cmd == deq(7) || p[i].cmd == enq(1, 1)) {
				EXPECT_EQ(p[i].lat, 1u) << i;
				EXPECT_EQ(gap, 2u) << "after the state-check failure of pop " << i;
			} else if (p[i].cmd == deq(kTasks + 1)) {
				EXPECT_EQ(p[i].lat, 1u) << i;
				EXPECT_EQ(gap, 1u) << "after the word-check failure of pop " << i;
			}
		}
	}
}

TEST(PipeIssue, AnEnqueueOfTheTaskBeingPickedWaits)
{
	// (d): PICK_NEXT(0) will dequeue task 5; an ENQUEUE of task 5 on CPU 1 would fail
	// QUEUED beside it, so it waits for the pick's completion and then succeeds.
	std::vector<std::vector<uint32_t>> s = { { enq(5, 0), pick(0), nop() },
						 { nop(), enq(5, 1), nop() } };
	std::vector<Pop> p = run(2, 16, 1, s);
	ASSERT_GE(p.size(), 4u);
	size_t ip = 0, ie = 0;
	for (size_t i = 0; i < p.size(); i++) {
		if (p[i].cmd == pick(0)) ip = i;
		if (p[i].cmd == enq(5, 1)) ie = i;
	}
	ASSERT_EQ(ie, ip + 1);
	EXPECT_EQ(p[ie].edge, p[ip].edge + HWS_LAT_PICK_NEXT);
}

TEST(PipeIssue, SerialCommandsNeverOverlap)
{
	// (b): DEQUEUE, TASK_STAT and NOP on other CPUs/tasks still wait for completion.
	std::vector<std::vector<uint32_t>> s = { { enq(0, 0), enq(2, 2), tstat(9), enq(4, 0) },
						 { enq(1, 1), deq(0), nop(), enq(6, 3) } };
	std::vector<Pop> p = run(2, 16, 1, s);
	ASSERT_EQ(p.size(), 8u);
	for (size_t i = 1; i < p.size(); i++) {
		if (!in_class(p[i].cmd) || !in_class(p[i - 1].cmd)) {
			EXPECT_GE(p[i].edge, p[i - 1].edge + p[i - 1].lat) << i;
		}
	}
}

TEST(PipeIssue, ResultRoomHoldsTheNewcomer)
{
	// (e): FIFOs of 4; CPU_STATs on alternating CPUs fill port 0's result FIFO, nobody
	// reads it: the pops stop where 4.1's condition 3 and (e) say (the reference's).
	std::vector<std::vector<uint32_t>> s(2);
	for (unsigned k = 0; k < 4; k++) {
		s[0].push_back(cstat(k % 2));
		s[1].push_back(enq(k, 2 + k % 2));
	}
	std::vector<Pop> p = run(2, 4, 1, s);
	unsigned stats = 0;
	for (const Pop &x : p)
		stats += op_of(x.cmd) == HWS_OP_CPU_STAT;
	EXPECT_EQ(stats, 3u);	// the fourth would leave no room: RES_DEPTH - 2 = 2 words before it
}

// ---- Random streams ----

std::vector<std::vector<uint32_t>> random_streams(std::mt19937_64 &rng, unsigned ports,
						  unsigned len)
{
	std::vector<std::vector<uint32_t>> s(ports);
	for (unsigned i = 0; i < ports; i++)
		for (unsigned k = 0; k < len; k++) {
			unsigned t = (unsigned)(rng() % kTasks), c = (unsigned)(rng() % kCpus);
			unsigned r = (unsigned)(rng() % 100);
			if (rng() % 40 == 0)
				c = kCpus;	// fails CPU
			uint32_t w;
			if (r < 40) w = enq(t, c, 100 + (unsigned)(rng() % 3));
			else if (r < 58) w = pick(c);
			else if (r < 64) w = peek(c);
			else if (r < 70) w = cstat(c);
			else if (r < 85) w = deq(t);
			else if (r < 92) w = tstat(t);
			else w = nop();
			s[i].push_back(w);
		}
	return s;
}

TEST(PipeIssue, RandomStreamsPopWhereTheSpecSays)
{
	const uint64_t seed = hwstest::seed_from_env(std::random_device{}());	// HWS_SEED repeats a run
	SCOPED_TRACE("seed " + std::to_string(seed));
	std::mt19937_64 rng(seed);
	unsigned overlapped = 0;
	for (unsigned round = 0; round < 60; round++) {
		const unsigned ports = 1u << (round % 3);
		const unsigned depth = round % 4 == 3 ? 4 : 32;
		SCOPED_TRACE("round " + std::to_string(round) + " ports " + std::to_string(ports));
		auto s = random_streams(rng, ports, 40);
		for (unsigned pipe = 0; pipe < 2; pipe++) {
			std::vector<Pop> p = run(ports, depth, pipe, s, round % 2 ? rng() | 1 : 0);
			if (::testing::Test::HasFailure())
				return;
			// pops before the previous command's completion: only with PIPE = 1
			for (size_t i = 1; i < p.size(); i++)
				if (p[i].edge < p[i - 1].edge + p[i - 1].lat) {
					EXPECT_EQ(pipe, 1u);
					overlapped++;
				}
		}
	}
	EXPECT_GT(overlapped, 100u);	// the streams do exercise the overlap
}

// ---- Same outcome, other timing ----

// Run @s through one port (pop order = write order whatever PIPE), read every result and
// the registers at the end.
std::vector<uint32_t> outcome(unsigned pipe, const std::vector<uint32_t> &s, uint64_t *cycles)
{
	ModelPtr m = make(1, 32, pipe);
	std::vector<uint32_t> v;
	uint32_t d, resp;
	unsigned results = 0;
	for (uint32_t c : s) {
		hws_model_write(m.get(), HWS_REG_CMD, c, 0xf, &resp);
		EXPECT_EQ(resp, 0u);
		if (pushes_result(c)) {
			if (++results == 24) {	// keep room: read them back as we go
				for (; results; results--) {
					hws_model_read(m.get(), HWS_REG_RESULT, &d, &resp);
					v.push_back(d);
				}
			}
		}
	}
	hws_model_read(m.get(), HWS_REG_SYNC, &d, &resp);
	for (; results; results--) {
		hws_model_read(m.get(), HWS_REG_RESULT, &d, &resp);
		v.push_back(d);
	}
	for (uint32_t r : { HWS_REG_CMD_DONE, HWS_REG_ERR_TOTAL, HWS_REG_ERR_LAST, HWS_REG_ERR_CMD,
			    HWS_REG_ERR_SEQ }) {
		hws_model_read(m.get(), r, &d, &resp);
		v.push_back(d);
	}
	char msg[256];
	EXPECT_EQ(hws_model_check(m.get(), msg, sizeof(msg)), 0) << msg;
	hws_model_read(m.get(), HWS_REG_CYCLES, &d, &resp);
	*cycles = d;
	// Every task's and CPU's state.
	for (unsigned t = 0; t < kTasks; t++) {
		for (unsigned sel = 0; sel < 2; sel++) {
			hws_model_write(m.get(), HWS_REG_CMD, word(HWS_OP_TASK_STAT, t, sel, 0), 0xf, &resp);
			hws_model_read(m.get(), HWS_REG_RESULT, &d, &resp);
			v.push_back(d);
		}
	}
	for (unsigned c = 0; c < kCpus; c++)
		for (unsigned sel = 0; sel < HWS_SEL_CPU_STAT_COUNT; sel++) {
			hws_model_write(m.get(), HWS_REG_CMD, word(HWS_OP_CPU_STAT, 0, sel, c), 0xf, &resp);
			hws_model_read(m.get(), HWS_REG_RESULT, &d, &resp);
			v.push_back(d);
		}
	return v;
}

TEST(PipeIssue, Pipe1ChangesTimingNotOutcome)
{
	const uint64_t seed = hwstest::seed_from_env(std::random_device{}());	// HWS_SEED repeats a run
	SCOPED_TRACE("seed " + std::to_string(seed));
	std::mt19937_64 rng(seed);
	uint64_t faster = 0;
	for (unsigned round = 0; round < 40; round++) {
		// DEQUEUEs and TASK_STATs every so often make the FIFO back up, so the class
		// commands behind them overlap.
		auto s = random_streams(rng, 1, 300)[0];
		uint64_t c0 = 0, c1 = 0;
		std::vector<uint32_t> a = outcome(0, s, &c0), b = outcome(1, s, &c1);
		ASSERT_EQ(a, b) << "round " << round;
		EXPECT_LE(c1, c0);
		faster += c1 < c0;
	}
	EXPECT_GT(faster, 0u);
}

// PIPE is 0 or 1; no backend refuses PIPE = 1 now that the RTL has it (the lockstep pair
// opens its model and then its rtl side: in a program without the rtl backend it fails
// for that, not for PIPE); "model:pipe" names PIPE = 1.
TEST(PipeIssue, BackendsTakeIt)
{
	hws_params p;
	char msg[300] = "";
	hws_params_default(&p);
	p.pipe = 2;
	EXPECT_EQ(hws_params_check(&p, msg, sizeof(msg)), -EINVAL);
	EXPECT_NE(std::strstr(msg, "PIPE"), nullptr) << msg;
	hws_config c;
	hws_dev *d = nullptr;
	hws_config_default(&c);
	c.pipe = 1;
	c.backend = "lockstep";
	msg[0] = '\0';
	const int ret = hws_open(&d, &c, msg, sizeof(msg));
	if (ret == 0)
		hws_close(d);
	EXPECT_NE(ret, -ENOTSUP) << msg;
	EXPECT_EQ(std::strstr(msg, "PIPE"), nullptr) << msg;
	c.backend = "model";
	ASSERT_EQ(hws_open(&d, &c, msg, sizeof(msg)), 0) << msg;
	hws_close(d);
	// "model:pipe" is PIPE = 1 by name (the driver's test suites run on it); no other
	// argument is taken.
	c.pipe = 0;
	c.backend = "model:pipe=2";
	EXPECT_EQ(hws_open(&d, &c, msg, sizeof(msg)), -EINVAL);
	EXPECT_NE(std::strstr(msg, "pipe"), nullptr) << msg;
	c.backend = "model:pipe";
	ASSERT_EQ(hws_open(&d, &c, msg, sizeof(msg)), 0) << msg;
	hws_close(d);
}

}  // namespace
