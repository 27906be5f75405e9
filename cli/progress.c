/*
 * progress.c - the progress line of the long runs (run, replay, lockstep, vp) and their
 * Ctrl-C; see cli.h.
 */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"

#define PROGRESS_PERIOD_S 0.25	/* at most 4 updates a second */

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void cli_progress_start(struct cli_progress *p, int on, const char *unit, double scale)
{
	memset(p, 0, sizeof(*p));
	p->on = on;
	p->unit = unit;
	p->scale = scale > 0 ? scale : 1;
	p->start = now_s();
	p->last = -1;
}

/* @x with k, M or G: "12.3k" */
static void si(double x, char *buf, size_t len)
{
	const char *u = "";

	if (x >= 1e9) {
		x /= 1e9;
		u = "G";
	} else if (x >= 1e6) {
		x /= 1e6;
		u = "M";
	} else if (x >= 1e3) {
		x /= 1e3;
		u = "k";
	}
	snprintf(buf, len, x < 10 ? "%.2f%s" : x < 100 ? "%.1f%s" : "%.0f%s", x, u);
}

void cli_progress_update(struct cli_progress *p, uint64_t done, uint64_t total)
{
	double t, el, rate, frac;
	char line[200], d[16], tot[16], r[16], eta[32] = "";
	int n;

	if (!p->on)
		return;
	t = now_s();
	if (p->last >= 0 && t - p->last < PROGRESS_PERIOD_S)
		return;
	p->last = t;
	el = t - p->start;
	rate = el > 0 ? (double)done / p->scale / el : 0;
	si((double)done / p->scale, d, sizeof(d));
	si(rate, r, sizeof(r));
	if (total) {
		frac = (double)done / (double)total;
		if (frac > 1)
			frac = 1;
		si((double)total / p->scale, tot, sizeof(tot));
		if (frac > 0 && el > 0) {
			double left = el * (1 - frac) / frac;

			if (left < 120)
				snprintf(eta, sizeof(eta), ", ETA %.0f s", left);
			else
				snprintf(eta, sizeof(eta), ", ETA %.0f min", left / 60);
		}
		n = snprintf(line, sizeof(line), "%3.0f%% %s/%s %s, %s %s/s%s", 100 * frac, d, tot,
			     p->unit, r, p->unit, eta);
	} else {
		n = snprintf(line, sizeof(line), "%s %s, %s %s/s", d, p->unit, r, p->unit);
	}
	/* pad over a longer line before it */
	fprintf(stderr, "\r%s%*s", line, p->shown > n ? p->shown - n : 0, "");
	fflush(stderr);
	p->shown = n > p->shown ? n : p->shown;
}

void cli_progress_end(struct cli_progress *p)
{
	if (!p->on || !p->shown)
		return;
	fprintf(stderr, "\r%*s\r", p->shown, "");
	fflush(stderr);
	p->shown = 0;
}

static void sim_progress(void *arg, uint64_t now_ns)
{
	struct cli_progress *p = arg;

	if (now_ns == MACHINE_PROGRESS_END)	/* the machine prints next */
		cli_progress_end(p);
	else
		cli_progress_update(p, now_ns, p->total);
}

void cli_progress_sim(struct cli_progress *p, struct cli_args *a, const char *unit,
		      uint64_t end_ns)
{
	cli_progress_start(p, a->progress, unit, 1e9);
	p->total = end_ns;
	a->mo.progress = sim_progress;
	a->mo.progress_arg = p;
	a->mo.stop = &cli_interrupted;
	cli_interrupt_arm();
}

volatile sig_atomic_t cli_interrupted;

static void on_sigint(int sig)
{
	(void)sig;
	cli_interrupted = 1;
	signal(SIGINT, SIG_DFL);	/* a second Ctrl-C ends the process at once */
}

void cli_interrupt_arm(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigint;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
}

FILE *cli_report_file(const struct cli_args *a)
{
	return a->json_dash ? stderr : stdout;
}
