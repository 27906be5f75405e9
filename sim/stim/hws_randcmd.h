/*
 * hws_randcmd - random command streams for the engine, legal and illegal mixed.
 *
 * Drives an open hws_dev (usually the lockstep backend) with a reproducible stream:
 * every opcode, every error code (including FIFO overflow, result underflow and bad bus
 * accesses), synchronous commands and asynchronous bursts, and an occupancy that climbs
 * from empty to the full task table and drains back, over and over. A shadow of which
 * tasks are queued steers the choices; it is rebuilt from the driver's answers, so it
 * never needs the backend's internals.
 */
#ifndef HWS_RANDCMD_H
#define HWS_RANDCMD_H

#include <signal.h>
#include <stdint.h>

#include "hws/hws.h"

#ifdef __cplusplus
extern "C" {
#endif

struct hws_randcmd_opts {
	uint64_t seed;
	uint64_t commands;	/* command words to write */
	unsigned check_every;	/* run hws_check() every N commands (0: never) */
	/* 0..1: the share of the command bursts cut by the engine's reset (hws_reset()) with
	 * commands in flight, after which every register is checked against its reset
	 * value; 0 (the default) draws nothing more, so a seed's stream is as before. */
	double resets;
	/* Called about every 1024 commands when non-NULL. */
	void (*progress)(void *arg, uint64_t done, uint64_t total);
	void *progress_arg;
	/* When non-NULL and set (a signal handler's flag), the stream stops before its next
	 * command, sweeps and checks as at its end, and the report says interrupted. */
	const volatile sig_atomic_t *stop;
};

struct hws_randcmd_report {
	uint64_t commands;		/* command words written */
	uint64_t by_op[16];		/* written, by opcode */
	uint64_t errors[16];		/* recorded by the engine, by code (ERR_CNTn) */
	uint64_t bus_errors_made;	/* deliberate bad accesses */
	uint64_t windows;		/* PICK_NEXT/PEEK sent as a POP/PEEKW window read */
	uint64_t windows_refused;	/* ... refused: they could only have waited forever */
	uint64_t irq_actions;		/* CURR/IRQ_EN/IRQ_PEND writes and reads (section 4.6) */
	uint32_t max_occupancy;		/* most tasks queued at once */
	uint32_t fills, drains;		/* times the table became full / empty */
	uint64_t bal_verdicts[8];	/* successful BALANCE answers, by verdict 1..7 */
	uint64_t edges;			/* clock edges */
	uint64_t engine_cycles;		/* CYCLES at the end (summed over soft resets) */
	uint64_t engine_done;		/* CMD_DONE at the end (summed) */
	uint64_t resets;		/* bursts cut by hws_reset() */
	uint64_t resets_seen_busy;	/* ... of which a STATUS read just before the reset
					 * showed commands waiting or executing */
	uint64_t resets_cut;		/* commands of those bursts written, never completed */
	uint64_t overlaps;		/* PIPE = 1: commands popped beside an older one, as the
					 * backend's model counts them (hws_overlaps()) */
	int has_overlaps;		/* ... the backend has a model that counts them */
	int failed;			/* a call failed unexpectedly (mismatch, timeout) */
	int interrupted;		/* stopped early by hws_randcmd_opts.stop */
	char msg[600];			/* why */
};

/**
 * hws_randcmd_run - run a random command stream
 * @d: an open device, any backend
 * @o: options
 * @r: receives the report
 *
 * Return: 0 when the stream ran to the end with every answer as expected of the
 * protocol; -EIO on a lockstep mismatch, or another negative errno, with @r->msg set.
 */
int hws_randcmd_run(struct hws_dev *d, const struct hws_randcmd_opts *o,
		    struct hws_randcmd_report *r);

#ifdef __cplusplus
}
#endif

#endif /* HWS_RANDCMD_H */
