/*
 * calib.h - the calibration of the seed workloads (docs/results.md, "Calibration"): for
 * each published table, one point, the baseline kernel at the smallest size, fixes how
 * much CPU work the workload's operations take on that table's machine profile; every
 * other point of the table is then a prediction. The constant is a multiplier on the
 * workload's CPU bursts (the `work` key); calib.c holds the one table of them, each with
 * the published point it was derived from, and the derivation (calib_derive()).
 * Not for use outside sim/machine/ and its tests.
 */
#ifndef HWS_CALIB_H
#define HWS_CALIB_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct calib {
	const char *exp;	/* the experiment of docs/results.md: "exp1" .. "exp4" */
	const char *workload;	/* the workload it calibrates */
	const char *profile;	/* ... on this machine profile */
	const char *point;	/* the published point, in words */
	const char *sched;	/* the scheduler standing for the baseline kernel */
	const char *topology;	/* the published machine */
	const char *args;	/* the point's workload keys (without work=) */
	int flat;		/* balanced with one flat domain (--flat) */
	uint64_t duration_ns;	/* simulated time (0: until every task exits) */
	int makespan;		/* the figure: 0 throughput, 1 makespan in s */
	double published;	/* the published figure */
	double work;		/* the constant: multiplier on the workload's CPU bursts */
};

extern const struct calib calib_table[];
extern const unsigned calib_n;

/* The entry for workload @name on machine profile @profile, or NULL. */
const struct calib *calib_find(const char *name, const char *profile);

/*
 * calib_measure - run @c's point (seed 1) with the bursts scaled by @work
 * Return: 0 with the figure in @fig, or a negative errno with @err set.
 */
int calib_measure(const struct calib *c, double work, double *fig, char *err, size_t len);

/*
 * calib_derive - the multiplier that makes @c's point give its published figure: secant
 * steps on log(figure) over log(work) from @start, bisecting once a bracket is found, until
 * the figure is within 1% of the published one (at most 24 runs; within 2% is accepted
 * at the end: the best run); every work tried has 6 significant digits, as the table. From the table's
 * own value it returns that value after one run when the table is right.
 * Return: 0 with it in @work, or a negative errno with @err set (-ERANGE: no convergence).
 */
int calib_derive(const struct calib *c, double start, double *work, char *err, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* HWS_CALIB_H */
