/*
 * calib.c - the calibration table (calib.h): one published point per table of
 * docs/results.md fixes the workload's CPU work on that table's machine profile. The
 * `work` column is what calib_derive() gives from the point beside it (the test
 * Calib.EachConstantIsWhatItsPublishedPointGives re-derives every line); the scripts of
 * make results carry no copy of it: a workload run on a profile with an entry here takes
 * its multiplier unless told otherwise (`calib=0`, or `work=X`).
 *
 * Published figures: the seed benchmarks, as docs/results.md quotes them.
 * exp1: 2.4.17 at 64 tbench processes on a 4-way P-III Xeon (May 2002), 103.49 MB/s.
 * exp2: 2.4.4 on 1 CPU of the 8-way P-III Xeon, VolanoMark 10 rooms x 20 (2001), 12593.
 * exp3: bk19 (2.6.0-test, our flat balancer) on the 16-way NUMA-Q (2003): dbench 8
 *       clients 470.84 MB/s, tbench 8 clients 46.17 MB/s, kernbench 82.23 s real,
 *       hackbench 1 group 0.591 s (hackbench's 100 loops).
 * exp4: 2.6.26-rc (our cfs) with every task in the root group on the quad-core Q9450
 *       (2008): sysbench OLTP 1 thread 842.54 transactions/s, VolanoMark ~122k.
 */
#include "sim/machine/calib.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/machine/machine.h"

#define SEC 1000000000ull

const struct calib calib_table[] = {
	{ "exp1", "tbench", "p3xeon4", "2.4.17, 64 processes: 103.49 MB/s", "linux24",
	  "core=4,profile=p3xeon4", "clients=32", 0, 3 * SEC, 0, 103.49, 3.42771 },
	{ "exp2", "volanomark", "p3xeon8", "2.4.4, 1 CPU: 12593 messages/s", "linux24",
	  "core=1,profile=p3xeon8", "rooms=10,users=20", 0, 2 * SEC, 0, 12593, 18.0495 },
	{ "exp3", "dbench", "numaq16", "bk19, 8 clients: 470.84 MB/s", "o1",
	  "numa=4,core=4,profile=numaq16", "clients=8", 1, SEC / 2, 0, 470.84, 23.1258 },
	{ "exp3", "tbench", "numaq16", "bk19, 8 clients: 46.17 MB/s", "o1",
	  "numa=4,core=4,profile=numaq16", "clients=8", 1, SEC / 2, 0, 46.17, 15.9941 },
	{ "exp3", "kernbench", "numaq16", "bk19, make -j32: 82.23 s", "o1",
	  "numa=4,core=4,profile=numaq16", "jobs=32,total=640", 1, 0, 1, 82.23, 42.3964 },
	{ "exp3", "hackbench", "numaq16", "bk19, 1 group: 0.591 s", "o1",
	  "numa=4,core=4,profile=numaq16", "groups=1,loops=100", 1, 0, 1, 0.591, 15.4963 },
	{ "exp4", "sysbench", "modern", "2.6.26-rc /, 1 thread: 842.54 transactions/s", "cfs",
	  "core=4,profile=modern", "threads=1,backends=1,group=0", 0, 2 * SEC, 0, 842.54, 3.62207 },
	{ "exp4", "volanomark", "modern", "2.6.26-rc /: ~122k messages/s", "cfs",
	  "core=4,profile=modern", "rooms=10,users=20,group=0", 0, 2 * SEC, 0, 122000, 6.67666 },
};
const unsigned calib_n = sizeof(calib_table) / sizeof(calib_table[0]);

const struct calib *calib_find(const char *name, const char *profile)
{
	for (unsigned i = 0; name && profile && i < calib_n; i++)
		if (!strcmp(name, calib_table[i].workload) && !strcmp(profile, calib_table[i].profile))
			return &calib_table[i];
	return NULL;
}

int calib_measure(const struct calib *c, double work, double *fig, char *err, size_t len)
{
	struct machine_opts o;
	struct machine_result r;
	char wl[256];
	int ret;

	snprintf(wl, sizeof(wl), "%s:%s,work=%.6g", c->workload, c->args, work);
	machine_default_opts(&o);
	o.workload = wl;
	o.topology = c->topology;
	o.sched = c->sched;
	o.sched_opts.engine.backend = "model";
	o.sched_opts.flat = c->flat;
	o.duration_ns = c->duration_ns;
	o.check_every = 0;
	o.seed = 1;
	ret = machine_run(&o, &r, NULL, err, len);
	if (ret)
		return ret;
	*fig = c->makespan ? r.makespan_s : r.throughput;
	machine_result_free(&r);
	if (!(*fig > 0)) {
		snprintf(err, len, "calibration %s %s: the point gave no figure", c->exp, c->workload);
		return -ERANGE;
	}
	return 0;
}

/* @x to 6 significant digits: what a run is given (work=%.6g) and the table holds */
static double round6(double x)
{
	char s[32];

	snprintf(s, sizeof(s), "%.6g", x);
	return strtod(s, NULL);
}

int calib_derive(const struct calib *c, double start, double *work, char *err, size_t len)
{
	/* e = log(figure / published), signed so that more work raises it */
	double target = log(c->published), sign = c->makespan ? 1 : -1;
	double w = round6(start), y, e, best = start, best_err = INFINITY;
	double lo = 0, elo = 0, hi = 0, ehi = 0;	/* a bracket: e(lo) < 0 < e(hi) */
	int ret;

	for (int i = 0; i < 24; i++) {
		ret = calib_measure(c, w, &y, err, len);
		if (ret)
			return ret;
		e = sign * (log(y) - target);
		if (fabs(e) < best_err) {
			best_err = fabs(e);
			best = w;
		}
		if (best_err < 0.01)
			break;
		if (e < 0 && (!lo || w > lo)) {
			lo = w;
			elo = e;
		}
		if (e > 0 && (!hi || w < hi)) {
			hi = w;
			ehi = e;
		}
		if (lo && hi) {
			/* secant inside the bracket, in log(work); its middle when it stalls */
			double x = log(lo) + (log(hi) - log(lo)) * (0 - elo) / (ehi - elo);

			if (i % 3 == 2 || !(x > log(lo) && x < log(hi)))
				x = (log(lo) + log(hi)) / 2;
			w = round6(exp(x));
		} else {
			/* no bracket yet: the figure near proportional to the work or its inverse */
			w = round6(exp(log(w) - e));
		}
		if (!(w > 1e-3 && w < 1e4)) {
			snprintf(err, len, "calibration %s %s: work %g out of range", c->exp,
				 c->workload, w);
			return -ERANGE;
		}
	}
	if (best_err > 0.02) {
		snprintf(err, len, "calibration %s %s: %.1f%% from the published figure after 24 runs",
			 c->exp, c->workload, 100 * (exp(best_err) - 1));
		return -ERANGE;
	}
	*work = best;
	return 0;
}
