/*
 * timeline.c - the timeline of --svg: the bursts each CPU ran, recorded at every switch,
 * drawn as one lane per CPU; for a replay, Linux's own lanes rebuilt from the trace above
 * the replay's, on one time axis, each task in the same colour in both.
 */
#include "sim/machine/machine_int.h"

#include <errno.h>
#include <stdlib.h>

#include "sim/trace/trace.h"

/* @cpu's running task changes at m->now: close the segment of the old one. */
void mach_log_switch(struct machine *m, unsigned cpu, struct mtask *next)
{
	struct mcpu *c = &m->cpu[cpu];

	if (!m->o.svg || c->curr == next)
		return;
	if (c->curr && m->nseg < MAX_SEGS) {
		if (m->nseg == m->capseg) {
			m->capseg = m->capseg ? 2 * m->capseg : 4096;
			m->segs = realloc(m->segs, m->capseg * sizeof(*m->segs));
			if (!m->segs) {
				fprintf(stderr, "out of memory\n");
				exit(1);
			}
		}
		m->segs[m->nseg++] = (struct seg){ c->log_since, m->now, (uint16_t)c->curr->st.id,
						   (uint16_t)cpu, c->log_delay, c->log_migr,
						   (uint8_t)c->curr->st.group };
	}
	c->log_since = m->now;
	c->log_delay = next && next->wake_pending ? (uint32_t)(m->now - next->woken_at) : 0;
	c->log_migr = next && next->last_cpu >= 0 && next->last_cpu != (int)cpu;
}

/* @s as XML character data. */
static void xml_text(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else
			fputc(*s, f);
	}
}

/* A task's colour: by group when there are several, else by task (replay: trace index). */
static unsigned hue_of(const struct machine *m, unsigned task, unsigned group)
{
	return m->ngroups > 1 ? group * 360 / m->ngroups : (task * 47u) % 360;
}

/* The replayed trace's time origin: its workload's first task appears (makespan's start). */
static int64_t trace_origin(const struct trace *tr)
{
	int64_t o = tr->end_ns;

	for (size_t i = 0; i < tr->nr_tasks; i++)
		if (tr->tasks[i].fork_ns < o)
			o = tr->tasks[i].fork_ns;
	return o;
}

static int kept_index(const struct trace *tr, int pid)
{
	for (size_t i = 0; i < tr->nr_tasks; i++)
		if (tr->tasks[i].pid == pid)
			return (int)i;
	return -1;
}

/* Linux's lanes: the trace's bursts from @org on, the workload's tasks in their colours. */
static void linux_lanes(FILE *f, const struct machine *m, const struct trace *tr, int64_t org,
			double left, double W, double span, unsigned top, unsigned lane)
{
	unsigned nl = tr->nr_cpus < 64 ? tr->nr_cpus : 64;

	for (unsigned c = 0; c < nl; c++) {
		fprintf(f, "<text x=\"4\" y=\"%.1f\">Linux CPU %u</text>\n",
			top + c * lane + lane * 0.7, c);
		fprintf(f, "<rect x=\"%.0f\" y=\"%.1f\" width=\"%.0f\" height=\"%.1f\" "
			   "fill=\"#f4f4f4\"/>\n", left, (double)(top + c * lane + 1), W, lane - 2.0);
	}
	for (size_t i = 0; i < tr->nr_bursts; i++) {
		const struct trace_burst *b = &tr->bursts[i];
		int64_t t0 = b->t0 < org ? org : b->t0;
		double x0, x1, y = top + b->cpu * lane + 1;
		int k;

		if (b->t1 <= org || b->cpu >= nl)
			continue;
		x0 = left + W * (double)(t0 - org) / span;
		x1 = left + W * (double)(b->t1 - org) / span;
		k = kept_index(tr, b->pid);
		if (k >= 0)
			fprintf(f, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" "
				   "fill=\"hsl(%u,65%%,55%%)\">", x0, y, x1 - x0 > 0.2 ? x1 - x0 : 0.2,
				lane - 2.0, hue_of(m, (unsigned)k, 0));
		else
			fprintf(f, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" "
				   "fill=\"#bbbbbb\">", x0, y, x1 - x0 > 0.2 ? x1 - x0 : 0.2, lane - 2.0);
		fprintf(f, "<title>");
		if (k >= 0) {
			fprintf(f, "task %d ", k);
			xml_text(f, tr->tasks[k].comm);
		} else {
			fprintf(f, "not replayed");
		}
		fprintf(f, ", pid %d, start %.3f ms, length %.3f ms, wakeup delay %.1f us</title>"
			   "</rect>\n", b->pid, (t0 - org) / 1e6, (b->t1 - t0) / 1e6, b->delay_ns / 1e3);
		if (b->delay_ns && b->t0 >= org)
			fprintf(f, "<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\" "
				   "stroke=\"red\" stroke-width=\"1\"/>\n",
				x0 - W * (double)b->delay_ns / span, y + lane - 4.0, x0, y + lane - 4.0);
	}
}

/* One lane per CPU, bursts coloured by task (or group), delays and migrations marked. */
int mach_write_svg(struct machine *m, const char *path, char *err, size_t len)
{
	const struct trace *tr = m->o.trace;
	struct hws_out out;
	FILE *f;
	int ret;
	unsigned n = m->topo.nr_cpus, lane = n <= 8 ? 28 : n <= 16 ? 18 : n <= 32 ? 12 : 8, top = 30;
	unsigned ln = tr ? (tr->nr_cpus < 64 ? tr->nr_cpus : 64) : 0;
	double W = 1200, left = tr ? 80 : 60, span = m->now ? (double)m->now : 1;
	int64_t org = tr ? trace_origin(tr) : 0;
	size_t i;

	ret = hws_out_open(&out, path, 0, err, len);
	if (ret)
		return ret;
	f = out.f;
	if (tr && (double)(tr->end_ns - org) > span)
		span = (double)(tr->end_ns - org);	/* one axis for both */
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%u\" "
		   "font-family=\"sans-serif\" font-size=\"10\">\n",
		W + left + 20, top + (ln ? ln * lane + 12 : 0) + n * lane + 40);
	fprintf(f, "<text x=\"%.0f\" y=\"16\">", left);
	xml_text(f, m->o.workload);
	fprintf(f, " on ");
	xml_text(f, m->o.topology);
	fprintf(f, ", scheduler ");
	xml_text(f, m->o.sched);
	fprintf(f, ": %.3f ms; red: wakeup delay before a burst, black mark: migrated%s</text>\n",
		m->now / 1e6, tr ? "; above: what Linux did (grey: tasks not replayed)" : "");
	if (tr) {
		linux_lanes(f, m, tr, org, left, W, span, top, lane);
		top += ln * lane + 12;
	}
	for (unsigned c = 0; c < n; c++) {
		fprintf(f, "<text x=\"4\" y=\"%.1f\">CPU %u</text>\n",
			top + c * lane + lane * 0.7, c);
		fprintf(f, "<rect x=\"%.0f\" y=\"%.1f\" width=\"%.0f\" height=\"%.1f\" "
			   "fill=\"#f4f4f4\"/>\n", left, (double)(top + c * lane + 1), W, lane - 2.0);
	}
	for (i = 0; i < m->nseg; i++) {
		const struct seg *g = &m->segs[i];
		double x0 = left + W * (double)g->t0 / span, x1 = left + W * (double)g->t1 / span;
		double y = top + g->cpu * lane + 1;
		unsigned hue = hue_of(m, g->task, g->group);

		fprintf(f, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" "
			   "fill=\"hsl(%u,65%%,55%%)\"><title>task %u", x0, y,
			x1 - x0 > 0.2 ? x1 - x0 : 0.2, lane - 2.0, hue, g->task);
		if (tr && g->task < tr->nr_tasks) {
			fputc(' ', f);
			xml_text(f, tr->tasks[g->task].comm);
			fprintf(f, ", pid %d", tr->tasks[g->task].pid);
		}
		fprintf(f, ", start %.3f ms, length %.3f ms, wakeup delay %.1f us</title></rect>\n",
			g->t0 / 1e6, (g->t1 - g->t0) / 1e6, g->delay_ns / 1e3);
		if (g->delay_ns)
			fprintf(f, "<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\" "
				   "stroke=\"red\" stroke-width=\"1\"/>\n",
				x0 - W * g->delay_ns / span, y + lane - 4.0, x0, y + lane - 4.0);
		if (g->migrated)
			fprintf(f, "<path d=\"M%.2f %.1f l3 -4 l-6 0 z\" fill=\"black\"/>\n", x0, y + 4);
	}
	/* Time axis: ten ticks, labelled in ms. */
	for (unsigned k = 0; k <= 10; k++) {
		double x = left + W * k / 10;

		fprintf(f, "<line x1=\"%.1f\" y1=\"%u\" x2=\"%.1f\" y2=\"%u\" stroke=\"#888\"/>\n"
			   "<text x=\"%.1f\" y=\"%u\" text-anchor=\"middle\">%.3g</text>\n",
			x, top + n * lane, x, top + n * lane + 4, x, top + n * lane + 14,
			span / 1e6 * k / 10);
	}
	fprintf(f, "<text x=\"%.0f\" y=\"%u\" text-anchor=\"end\">ms</text>\n", left - 4,
		top + n * lane + 14);
	if (m->nseg == MAX_SEGS)
		fprintf(f, "<text x=\"%.0f\" y=\"%u\">(only the first %d bursts are drawn)</text>\n",
			left, top + n * lane + 30, MAX_SEGS);
	fprintf(f, "</svg>\n");
	return hws_out_commit(&out, err, len);
}
