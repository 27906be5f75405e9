/*
 * events.c - the machine's event heap (ordered by time, then by insertion), its random
 * numbers (xorshift64) and its first-failure record.
 */
#include "sim/machine/machine_int.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>

uint64_t mach_rnd64(struct machine *m)
{
	m->rng ^= m->rng << 13;
	m->rng ^= m->rng >> 7;
	m->rng ^= m->rng << 17;
	return m->rng;
}

double mach_rnd_exp(struct machine *m, double mean)
{
	double u = ((double)(mach_rnd64(m) >> 11) + 0.5) / 9007199254740992.0;

	return -log(u) * mean;
}

void mach_fail(struct machine *m, const char *fmt, ...)
{
	va_list ap;

	if (m->failed)
		return;
	m->failed = 1;
	va_start(ap, fmt);
	vsnprintf(m->err, sizeof(m->err), fmt, ap);
	va_end(ap);
}

static int ev_less(const struct event *a, const struct event *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

void mach_push(struct machine *m, uint64_t time, int kind, unsigned who, uint64_t gen)
{
	struct event e = { time, m->seq++, kind, who, gen };
	size_t i;

	if (m->hn == m->hcap) {
		m->hcap = m->hcap ? 2 * m->hcap : 1024;
		m->h = realloc(m->h, m->hcap * sizeof(*m->h));
		if (!m->h) {
			fprintf(stderr, "out of memory\n");
			exit(1);
		}
	}
	i = m->hn++;
	while (i && ev_less(&e, &m->h[(i - 1) / 2])) {
		m->h[i] = m->h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	m->h[i] = e;
}

struct event mach_pop(struct machine *m)
{
	struct event top = m->h[0], last = m->h[--m->hn];
	size_t i = 0;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= m->hn)
			break;
		if (c + 1 < m->hn && ev_less(&m->h[c + 1], &m->h[c]))
			c++;
		if (!ev_less(&m->h[c], &last))
			break;
		m->h[i] = m->h[c];
		i = c;
	}
	m->h[i] = last;
	return top;
}
