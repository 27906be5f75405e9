/*
 * timeline.c - the timeline of --svg: the bursts each CPU ran, recorded at every switch,
 * drawn as one lane per CPU; for a replay, Linux's own lanes rebuilt from the trace above
 * the replay's, on one time axis, each task in the same colour in both.
 *
 * What bounds the file (docs/simulator.md, "The timeline"): each lane is MACHINE_SVG_COLS
 * pixel columns wide, and what one column holds is drawn once. Bursts are rasterized into
 * the columns of their lane; a run of adjacent columns with the same content (one task,
 * or several) and the same shade is one <rect>, but a burst longer than a column starts
 * a rect of its own (each rect still starts in a column of its own). So a lane has at
 * most MACHINE_SVG_COLS burst rects, MACHINE_SVG_COLS / 2 delay lines and
 * MACHINE_SVG_COLS / 6 migration marks, whatever the number of bursts.
 *
 * While the run goes on, the recorded bursts are compacted when they pile up: consecutive
 * bursts of one CPU inside one quarter of a future pixel column are merged into one
 * record (their busy time, count, tasks and delays kept), so the memory is bounded too.
 */
#include "sim/machine/machine_int.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/trace/trace.h"

#define SEG_SEVERAL 0xffffu	/* seg.task: merged bursts of several tasks */
#define GRP_SEVERAL 0xffu	/* seg.group: of several groups */
#define SEG_FIRST_LIMIT (1u << 18)	/* records kept before the first compaction */
#define SEG_HARD_LIMIT (1u << 21)	/* never more (not reached: see compact()) */

/* ---- Recording ---- */

/* The drawn span's end as far as it is known now: the window's, else the run so far. */
static uint64_t known_end(const struct machine *m)
{
	return m->o.svg_to_ns ? m->o.svg_to_ns : m->now;
}

static void merge_into(struct seg *a, const struct seg *b)
{
	if (b->busy > a->busy)
		a->dom = b->dom;
	a->t1 = b->t1;
	a->busy += b->busy;
	a->n += b->n;
	if (a->task != b->task)
		a->task = SEG_SEVERAL;
	if (a->group != b->group)
		a->group = GRP_SEVERAL;
	a->bg = a->bg && b->bg;
	if (b->dto > b->dfrom) {
		if (a->dto <= a->dfrom) {
			a->dfrom = b->dfrom;
			a->dto = b->dto;
		} else {
			a->dfrom = b->dfrom < a->dfrom ? b->dfrom : a->dfrom;
			a->dto = b->dto > a->dto ? b->dto : a->dto;
		}
	}
	a->migrated |= b->migrated;
}

/*
 * Merge each CPU's consecutive records that fall in one bucket of a quarter of the
 * narrowest pixel column the picture can have (its span is at least what is known now).
 * After it, a CPU keeps at most about two records per bucket: 8 x MACHINE_SVG_COLS, for
 * 64 CPUs 614,400 < SEG_HARD_LIMIT.
 */
static void compact(struct machine *m)
{
	uint64_t from = m->o.svg_from_ns, end = known_end(m);
	double q = end > from ? (double)(end - from) / (4.0 * MACHINE_SVG_COLS) : 1;
	long last[64];
	size_t w = 0;

	if (q < 1)
		q = 1;
	for (unsigned c = 0; c < 64; c++)
		last[c] = -1;
	for (size_t i = 0; i < m->nseg; i++) {
		const struct seg s = m->segs[i];
		long l = s.cpu < 64 ? last[s.cpu] : -1;

		if (l >= 0 && floor(((double)m->segs[l].t0 - (double)from) / q) ==
				      floor(((double)s.t1 - (double)from) / q)) {
			merge_into(&m->segs[l], &s);
			continue;
		}
		m->segs[w] = s;
		if (s.cpu < 64)
			last[s.cpu] = (long)w;
		w++;
	}
	m->nseg = w;
}

/* @cpu's running task changes at m->now: close the segment of the old one. */
void mach_log_switch(struct machine *m, unsigned cpu, struct mtask *next)
{
	struct mcpu *c = &m->cpu[cpu];
	uint64_t from = m->o.svg_from_ns, to = m->o.svg_to_ns;

	if (!m->o.svg || c->curr == next)
		return;
	/* only what the window shows is kept */
	if (c->curr && (!to || (c->log_since < to && m->now > from)) && !m->seg_dropped) {
		if (m->nseg == (m->seg_limit ? m->seg_limit : SEG_FIRST_LIMIT)) {
			compact(m);
			if (!m->seg_limit)
				m->seg_limit = SEG_FIRST_LIMIT;
			if (m->nseg > m->seg_limit / 4 * 3 && m->seg_limit < SEG_HARD_LIMIT)
				m->seg_limit *= 2;
		}
		if (m->nseg == m->capseg && m->capseg < (m->seg_limit ? m->seg_limit :
								       SEG_FIRST_LIMIT)) {
			m->capseg = m->capseg ? 2 * m->capseg : 4096;
			m->segs = realloc(m->segs, m->capseg * sizeof(*m->segs));
			if (!m->segs) {
				fprintf(stderr, "out of memory\n");
				exit(1);
			}
		}
		if (m->nseg < m->capseg) {
			uint64_t t0 = c->log_since;

			m->segs[m->nseg++] = (struct seg){
				.t0 = t0, .t1 = m->now, .busy = m->now - t0,
				.dfrom = t0 - c->log_delay, .dto = c->log_delay ? t0 : 0,
				.n = 1, .task = (uint16_t)c->curr->st.id,
				.dom = (uint16_t)c->curr->st.id, .cpu = (uint16_t)cpu,
				.migrated = (uint8_t)c->log_migr, .group = (uint8_t)c->curr->st.group,
				.bg = (uint8_t)c->curr->bg,
			};
		} else {
			m->seg_dropped = 1;	/* beyond SEG_HARD_LIMIT: said in the picture */
		}
	}
	c->log_since = m->now;
	c->log_delay = next && next->wake_pending ? (uint32_t)(m->now - next->woken_at) : 0;
	c->log_migr = next && next->last_cpu >= 0 && next->last_cpu != (int)cpu;
}

/* ---- Colours ---- */

/*
 * The one colour reserved for wakeup delays; task colours keep their hue at least 35
 * degrees from it (machine_svg_task_colour()), the neutral ones have no hue.
 */
#define DELAY_COLOUR MACHINE_SVG_DELAY_COLOUR
#define SEVERAL_COLOUR "#555555"	/* one pixel column, several tasks */
#define GREY_COLOUR "#bdbdbd"		/* not replayed: kernel threads, the recorder */
#define LANE_COLOUR "#f2f2f2"
#define GRID_COLOUR "#dddddd"

void machine_svg_task_colour(unsigned k, char out[8])
{
	/* golden-angle steps over the hues 35..325 (no red), two lightnesses */
	double h = 35 + fmod(k * 137.508, 290.0), s = 0.62, l = k % 2 ? 0.62 : 0.45;
	double c = (1 - fabs(2 * l - 1)) * s, hp = h / 60, x = c * (1 - fabs(fmod(hp, 2) - 1));
	double r = 0, g = 0, b = 0, mm = l - c / 2;

	if (hp < 1)
		r = c, g = x;
	else if (hp < 2)
		r = x, g = c;
	else if (hp < 3)
		g = c, b = x;
	else if (hp < 4)
		g = x, b = c;
	else if (hp < 5)
		r = x, b = c;
	else
		r = c, b = x;
	snprintf(out, 8, "#%02x%02x%02x", (unsigned)lround((r + mm) * 255),
		 (unsigned)lround((g + mm) * 255), (unsigned)lround((b + mm) * 255));
}

/* ---- The raster ---- */

enum { KEY_NONE = -1, KEY_SEVERAL = -2, KEY_GREY = -3 };

/* One burst or merged record to draw, its times on the axis (ns from the origin). */
struct item {
	int64_t t0, t1, dfrom, dto;
	uint64_t busy;
	uint32_t n;
	int key, dom;		/* colour key (task, group, KEY_*), the longest one's */
	int migrated;
	size_t idx;		/* in m->segs or tr->bursts, for a tooltip */
};

struct col {
	uint64_t busy;
	uint32_t n, nstart;	/* items touching it, items starting in it */
	int key, dom;
	uint64_t dom_ns;
	int64_t t0, t1;		/* first start, last end of its items */
	int wide;		/* an item crosses one of its edges */
	int wstart;		/* an item crossing its right edge starts in it */
	int migr;
	int dcov;		/* difference array of the delays' coverage */
	long last;		/* the last item touching it (index in the lane's input) */
};

struct view {
	int64_t from, to;	/* the drawn span */
	double px;		/* ns per column */
	double left;		/* x of column 0 */
};

static int col_of(const struct view *v, int64_t t)
{
	double c = floor((double)(t - v->from) / v->px);

	return c < 0 ? 0 : c >= MACHINE_SVG_COLS ? MACHINE_SVG_COLS - 1 : (int)c;
}

static void raster_add(struct col *col, const struct view *v, const struct item *it, long id)
{
	int64_t a = it->t0 > v->from ? it->t0 : v->from, b = it->t1 < v->to ? it->t1 : v->to;
	int c0, c1;

	/* what the window shows: [from, to); a burst of no length where it is */
	if (it->t0 >= v->to || it->t1 < v->from || (it->t1 == v->from && it->t0 < it->t1))
		return;
	c0 = col_of(v, a);
	c1 = b > a ? col_of(v, b - 1) : c0;
	if (it->dto > it->dfrom && it->dto > v->from && it->dfrom < v->to) {
		int d0 = col_of(v, it->dfrom > v->from ? it->dfrom : v->from);
		int d1 = col_of(v, (it->dto < v->to ? it->dto : v->to) - 1);

		col[d0].dcov++;
		if (d1 + 1 < MACHINE_SVG_COLS)
			col[d1 + 1].dcov--;
	}
	for (int c = c0; c <= c1; c++) {
		struct col *k = &col[c];
		int64_t cs = v->from + (int64_t)(c * v->px), ce = v->from + (int64_t)((c + 1) * v->px);
		int64_t oa = a > cs ? a : cs, ob = b < ce ? b : ce;
		uint64_t share = ob > oa ? (uint64_t)(ob - oa) : 0;

		if (it->busy < (uint64_t)(it->t1 - it->t0) && it->t1 > it->t0)	/* merged: thinned */
			share = (uint64_t)((double)share * it->busy / (double)(it->t1 - it->t0));
		if (!k->n) {
			k->key = it->key;
			k->t0 = it->t0;
		} else if (k->key != it->key) {
			k->key = KEY_SEVERAL;
		}
		if (share >= k->dom_ns) {
			k->dom_ns = share;
			k->dom = it->dom;
		}
		k->busy += share;
		k->n += it->n;
		k->nstart += c == c0 && it->t0 >= v->from ? it->n : 0;
		k->t1 = it->t1;
		k->wide |= it->t0 < cs || it->t1 > ce;
		k->wstart |= c == c0 && it->t0 >= cs && it->t1 > ce;
		k->migr |= c == c0 && it->migrated && it->t0 >= v->from;
		k->last = id;
	}
}

/* A column's shade in quarters: 4 where a burst crosses its edge, else its busy share. */
static int shade(const struct col *k, const struct view *v)
{
	int q;

	if (k->wide)
		return 4;
	q = (int)ceil(4.0 * (double)k->busy / v->px);
	return q < 1 ? 1 : q > 4 ? 4 : q;
}

/* ---- Writing ---- */

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
		else if ((unsigned char)*s >= 0x20 || *s == '\t')
			fputc(*s, f);
	}
}

/* What the drawing needs to name a colour key and a burst. */
struct lanes_ctx {
	FILE *f;
	const struct machine *m;
	const struct trace *tr;
	const struct view *v;
	int linux_side;		/* items from tr->bursts, else from m->segs */
	int64_t org;		/* the trace's origin (Linux's side) */
};

static void key_name(const struct lanes_ctx *x, int key)
{
	if (key == KEY_GREY) {
		fputs("background tasks", x->f);
	} else if (key == KEY_NONE) {
		fputs("a task not replayed", x->f);
	} else if (key < 0) {
		fputs("several tasks", x->f);
	} else if (x->m->ngroups > 1 && !x->tr) {
		fprintf(x->f, "group %d", key);
	} else {
		fprintf(x->f, "task %d", key);
		if (x->tr && (size_t)key < x->tr->nr_tasks) {
			fputc(' ', x->f);
			xml_text(x->f, x->tr->tasks[key].comm);
		}
	}
}

static void fill_of(int key, char out[8])
{
	if (key == KEY_GREY)
		snprintf(out, 8, "%s", GREY_COLOUR);
	else if (key < 0)
		snprintf(out, 8, "%s", SEVERAL_COLOUR);
	else
		machine_svg_task_colour((unsigned)key, out);
}

/* The tooltip of one burst, as before: task, pid, start, length, wakeup delay. */
static void one_title(const struct lanes_ctx *x, const struct item *it)
{
	FILE *f = x->f;

	if (x->linux_side) {
		const struct trace_burst *b = &x->tr->bursts[it->idx];

		/* dom: the trace's task (KEY_NONE: a pid the replay does not have) */
		key_name(x, it->dom);
		if (it->dom >= 0 && it->key == KEY_GREY)
			fputs(" (background)", f);
		fprintf(f, ", pid %d", b->pid);
	} else {
		const struct seg *g = &x->m->segs[it->idx];

		if (x->m->ngroups > 1 && !x->tr)
			fprintf(f, "task %u (group %u)", g->task, g->group);
		else
			key_name(x, it->key == KEY_GREY ? (int)g->task : it->key);
		if (it->key == KEY_GREY)
			fputs(" (background)", f);
		if (x->tr && g->task < x->tr->nr_tasks)
			fprintf(f, ", pid %d", x->tr->tasks[g->task].pid);
	}
	fprintf(f, ", start %.4f ms, length %.4f ms, wakeup delay %.1f us", it->t0 / 1e6,
		(it->t1 - it->t0) / 1e6, (it->dto - it->dfrom) / 1e3);
	if (it->migrated)
		fputs(", migrated here", f);
}

/* One lane's rects, delay lines and migration marks from its items (time order). */
static void draw_lane(const struct lanes_ctx *x, const struct item *items, size_t n,
		      double y, double h, size_t *rects)
{
	const struct view *v = x->v;
	struct col *col = calloc(MACHINE_SVG_COLS, sizeof(*col));
	double last_mark = -1e9;
	int prev_end = -1, prev_key = KEY_NONE;	/* the last rect's end and content */
	int c, d, cov = 0;

	if (!col) {
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
	for (size_t i = 0; i < n; i++)
		raster_add(col, v, &items[i], (long)i);
	for (c = 0; c < MACHINE_SVG_COLS; c = d) {
		const struct col *k = &col[c];
		uint64_t busy = 0, bursts;
		int64_t t0, t1;
		int s, dom = k->dom;
		uint64_t dom_ns = 0;
		char fill[8];

		if (!k->n) {
			d = c + 1;
			continue;
		}
		s = shade(k, v);
		/* a run: alike columns, until a long burst starts (its own rect, tooltip) */
		for (d = c; d < MACHINE_SVG_COLS && col[d].n && col[d].key == k->key &&
			    shade(&col[d], v) == s &&
			    (d == c || k->key == KEY_SEVERAL || !col[d].wstart); d++) {
			busy += col[d].busy;
			if (col[d].dom_ns > dom_ns) {
				dom_ns = col[d].dom_ns;
				dom = col[d].dom;
			}
		}
		t0 = k->t0;
		t1 = col[d - 1].t1;
		bursts = (k->n > k->nstart ? 1 : 0);
		for (int e = c; e < d; e++)
			bursts += col[e].nstart;
		fill_of(k->key, fill);
		if (c == prev_end && k->key == prev_key && k->key >= 0)	/* a seam shows */
			fprintf(x->f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
				   "fill=\"%s\"", x->v->left + c + 0.6, y, d - c - 0.6, h, fill);
		else
			fprintf(x->f, "<rect x=\"%.0f\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" "
				   "fill=\"%s\"", x->v->left + c, y, d - c, h, fill);
		prev_end = d;
		prev_key = k->key;
		if (s < 4)
			fprintf(x->f, " fill-opacity=\"%.2f\"", s / 4.0);
		fputs("><title>", x->f);
		if (bursts <= 1 && items[col[d - 1].last].n == 1 && col[c].last == col[d - 1].last) {
			one_title(x, &items[col[d - 1].last]);
		} else {
			fprintf(x->f, "%llu bursts of ", (unsigned long long)bursts);
			key_name(x, k->key);
			if (k->key == KEY_SEVERAL) {
				fputs(" (most: ", x->f);
				key_name(x, dom);
				fputc(')', x->f);
			}
			fprintf(x->f, ", %.4f to %.4f ms, busy %.0f%%", t0 / 1e6, t1 / 1e6,
				100.0 * (double)busy / ((d - c) * v->px));
		}
		fputs("</title></rect>\n", x->f);
		++*rects;
	}
	/* delays: runs of columns some delay covers, a line along the lane's foot */
	for (c = 0; c < MACHINE_SVG_COLS; c++) {
		cov += col[c].dcov;
		col[c].dcov = cov;
	}
	for (c = 0; c < MACHINE_SVG_COLS; c = d) {
		if (col[c].dcov <= 0) {
			d = c + 1;
			continue;
		}
		for (d = c; d < MACHINE_SVG_COLS && col[d].dcov > 0; d++)
			;
		fprintf(x->f, "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"%s\" "
			   "stroke-width=\"2\"/>\n", v->left + c, y + h - 1, v->left + d, y + h - 1,
			DELAY_COLOUR);
	}
	/* migrations: a mark where a migrated task's burst starts, 6 px apart at least */
	for (c = 0; c < MACHINE_SVG_COLS; c++)
		if (col[c].migr && v->left + c - last_mark >= 6) {
			last_mark = v->left + c;
			if (h >= 20)
				fprintf(x->f, "<path d=\"M%.1f %.1f l3 -4 l-6 0 z\" fill=\"black\"/>\n",
					last_mark + 0.5, y + 4);
			else	/* a narrow lane: a smaller mark */
				fprintf(x->f, "<path d=\"M%.1f %.1f l2 -3 l-4 0 z\" fill=\"black\"/>\n",
					last_mark + 0.5, y + 3);
		}
	free(col);
}

/* The tasks' keys: by group on a run with groups, else by task; not replayed: grey. */
static int seg_key(const struct machine *m, const struct seg *g)
{
	if (m->o.trace)
		return g->bg ? KEY_GREY : g->task == SEG_SEVERAL ? KEY_SEVERAL : (int)g->task;
	if (m->ngroups > 1)
		return g->group == GRP_SEVERAL ? KEY_SEVERAL : (int)g->group;
	return g->task == SEG_SEVERAL ? KEY_SEVERAL : (int)g->task;
}

/* The machine's lanes from m->segs. */
static void machine_lanes(const struct lanes_ctx *x, double top, double lane, size_t *rects)
{
	const struct machine *m = x->m;
	size_t *cnt = calloc(m->topo.nr_cpus, sizeof(*cnt)), *at;
	struct item *items = malloc((m->nseg ? m->nseg : 1) * sizeof(*items));
	size_t i;

	at = calloc(m->topo.nr_cpus + 1, sizeof(*at));
	if (!cnt || !items || !at) {
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
	for (i = 0; i < m->nseg; i++)
		cnt[m->segs[i].cpu]++;
	for (unsigned c = 0; c < m->topo.nr_cpus; c++)
		at[c + 1] = at[c] + cnt[c];
	memset(cnt, 0, m->topo.nr_cpus * sizeof(*cnt));
	for (i = 0; i < m->nseg; i++) {
		const struct seg *g = &m->segs[i];
		int key = seg_key(m, g);
		int dom = m->ngroups > 1 && !m->o.trace ? (g->group == GRP_SEVERAL ? key : g->group) :
			  g->dom;

		items[at[g->cpu] + cnt[g->cpu]++] = (struct item){
			(int64_t)g->t0, (int64_t)g->t1, (int64_t)g->dfrom,
			g->dto > g->dfrom ? (int64_t)g->dto : (int64_t)g->dfrom, g->busy, g->n, key,
			dom, g->migrated, i };
	}
	for (unsigned c = 0; c < m->topo.nr_cpus; c++)
		draw_lane(x, items + at[c], cnt[c], top + c * lane + 1, lane - 2.0, rects);
	free(items);
	free(cnt);
	free(at);
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

struct pid_ix {
	int pid;
	int ix;
};

static int pid_cmp(const void *a, const void *b)
{
	const struct pid_ix *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* Linux's lanes: the trace's bursts from @org on, the workload's tasks in their colours. */
static void linux_lanes(const struct lanes_ctx *x, unsigned nl, double top, double lane,
			size_t *rects)
{
	const struct trace *tr = x->tr;
	struct pid_ix *map = malloc((tr->nr_tasks + 1) * sizeof(*map));
	struct item *items = malloc((tr->nr_bursts + 1) * sizeof(*items));
	size_t *cnt = calloc(nl, sizeof(*cnt)), *at = calloc(nl + 1, sizeof(*at));
	int *last_cpu = malloc((tr->nr_tasks + 1) * sizeof(*last_cpu));

	if (!map || !items || !cnt || !at || !last_cpu) {
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
	for (size_t i = 0; i < tr->nr_tasks; i++) {
		map[i] = (struct pid_ix){ tr->tasks[i].pid, (int)i };
		last_cpu[i] = -1;
	}
	qsort(map, tr->nr_tasks, sizeof(*map), pid_cmp);
	for (size_t i = 0; i < tr->nr_bursts; i++)
		if (tr->bursts[i].cpu < nl)
			cnt[tr->bursts[i].cpu]++;
	for (unsigned c = 0; c < nl; c++)
		at[c + 1] = at[c] + cnt[c];
	memset(cnt, 0, nl * sizeof(*cnt));
	for (size_t i = 0; i < tr->nr_bursts; i++) {
		const struct trace_burst *b = &tr->bursts[i];
		struct pid_ix k = { b->pid, 0 }, *hit;
		int key, migrated = 0;

		/* a task's bursts come in time order (each is added at its switch-out) */
		hit = tr->nr_tasks ? bsearch(&k, map, tr->nr_tasks, sizeof(*map), pid_cmp) : NULL;
		if (hit) {
			migrated = last_cpu[hit->ix] >= 0 && last_cpu[hit->ix] != (int)b->cpu;
			last_cpu[hit->ix] = (int)b->cpu;
		}
		if (b->cpu >= nl)
			continue;
		key = hit && tr->tasks[hit->ix].workload ? hit->ix : KEY_GREY;
		items[at[b->cpu] + cnt[b->cpu]++] = (struct item){
			b->t0 - x->org, b->t1 - x->org, b->t0 - x->org - b->delay_ns, b->t0 - x->org,
			(uint64_t)(b->t1 - b->t0), 1, key, hit ? hit->ix : KEY_NONE, migrated, i };
	}
	for (unsigned c = 0; c < nl; c++)
		draw_lane(x, items + at[c], cnt[c], top + c * lane + 1, lane - 2.0, rects);
	free(map);
	free(last_cpu);
	free(items);
	free(cnt);
	free(at);
}

/* ---- Axis ---- */

/* The tick step: 1, 2 or 5 x 10^k ns, the smallest giving at most @max ticks over @span. */
uint64_t machine_svg_tick_step(uint64_t span, unsigned max)
{
	uint64_t p = 1;

	for (;;) {
		for (unsigned k = 0; k < 3; k++) {
			uint64_t s = p * (k == 0 ? 1 : k == 1 ? 2 : 5);

			if (span / s < max)
				return s;
		}
		p *= 10;
	}
}

/*
 * The unit of the tick labels: the step's (s, ms, us, ns: labels are whole numbers), or
 * the next larger one while labels would need more than four digits (then they have as
 * many decimals as the step needs: 1000.5 ms rather than 1000500 us).
 */
static const char *unit_of(uint64_t step, uint64_t last, uint64_t *unit, int *decimals)
{
	static const struct { uint64_t ns; const char *name; } u[] = {
		{ 1000000000ull, "s" }, { 1000000ull, "ms" }, { 1000ull, "us" }, { 1, "ns" },
	};
	unsigned i = 0, d = 0;

	while (i < 3 && step < u[i].ns)
		i++;
	while (i > 0 && last / u[i].ns >= 10000 && d < 3) {
		i--;
		d += 3;
	}
	/* the decimals the step needs in that unit (at most 3 more than its own) */
	for (*decimals = 0; *decimals < (int)d; ++*decimals) {
		uint64_t p = 1;

		for (int k = 0; k < *decimals; k++)
			p *= 10;
		if ((step * p) % u[i].ns == 0)
			break;
	}
	*unit = u[i].ns;
	return u[i].name;
}

/* A tick's label: @t in @unit with @decimals, trailing zeros dropped ("1000.5", "2"). */
static void tick_label(uint64_t t, uint64_t unit, int decimals, char *buf, size_t len)
{
	char *e;

	snprintf(buf, len, "%.*f", decimals, (double)t / (double)unit);
	if (strchr(buf, '.')) {
		for (e = buf + strlen(buf) - 1; *e == '0'; e--)
			*e = '\0';
		if (*e == '.')
			*e = '\0';
	}
}

/* ---- Legend ---- */

struct legend {
	FILE *f;
	double x, y, right, x0;
	unsigned rows;
};

/* Room for an entry of @w px, on this row or the next. */
static void legend_room(struct legend *l, double w)
{
	if (l->x > l->x0 && l->x + w > l->right) {
		l->x = l->x0;
		l->y += 16;
		l->rows++;
	}
}

/* An entry's text after its mark, about 6 px a character at font-size 10. */
static void legend_text(struct legend *l, double mark_w, const char *text)
{
	fprintf(l->f, "<text x=\"%.0f\" y=\"%.0f\">%s</text>\n", l->x + mark_w + 4, l->y + 9, text);
	l->x += mark_w + 4 + 6.0 * (double)strlen(text) + 18;
}

static void legend(struct legend *l, int replay, int by_group)
{
	FILE *f = l->f;
	char fill[8];
	const char *t1 = replay ? "a task (the same colour on both sides)" :
			 by_group ? "a task group (the workload's groups=)" : "a task";
	const char *t2 = "several tasks in one pixel column";
	const char *t3 = "paler: the CPU partly idle there";
	const char *t4 = "background: the trace's other tasks (not counted)";
	const char *t5 = "wakeup delay: woken, waiting for this CPU";
	const char *t6 = "task migrated here";

	fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" font-weight=\"bold\">Legend:</text>\n", l->x,
		l->y + 9);
	l->x += 50;
	legend_room(l, 4 * 11 + 10 + 6.0 * strlen(t1));
	for (unsigned k = 0; k < 4; k++) {
		machine_svg_task_colour(k, fill);
		fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"10\" height=\"10\" fill=\"%s\"/>\n",
			l->x + 11 * k, l->y, fill);
	}
	legend_text(l, 43, t1);
	legend_room(l, 14 + 6.0 * strlen(t2));
	fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"10\" height=\"10\" fill=\"%s\"/>\n", l->x,
		l->y, SEVERAL_COLOUR);
	legend_text(l, 10, t2);
	legend_room(l, 14 + 6.0 * strlen(t3));
	machine_svg_task_colour(0, fill);	/* a task's colour, not a grey: unlike t4's */
	fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"10\" height=\"10\" fill=\"%s\" "
		   "fill-opacity=\"0.5\"/>\n", l->x, l->y, fill);
	legend_text(l, 10, t3);
	if (replay) {
		legend_room(l, 14 + 6.0 * strlen(t4));
		fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"10\" height=\"10\" fill=\"%s\"/>\n",
			l->x, l->y, GREY_COLOUR);
		legend_text(l, 10, t4);
	}
	legend_room(l, 20 + 6.0 * strlen(t5));
	fprintf(f, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"%s\" "
		   "stroke-width=\"2\"/>\n", l->x, l->y + 8, l->x + 16, l->y + 8, DELAY_COLOUR);
	legend_text(l, 16, t5);
	legend_room(l, 14 + 6.0 * strlen(t6));
	fprintf(f, "<path d=\"M%.0f %.0f l3 -4 l-6 0 z\" fill=\"black\"/>\n", l->x + 4, l->y + 5);
	legend_text(l, 8, t6);
}

/* ---- The picture ---- */

/* One lane per CPU, bursts coloured by task (or group), delays and migrations marked. */
static int write_svg(struct machine *m, uint64_t span, const char *path, char *err, size_t len)
{
	const struct trace *tr = m->o.trace;
	struct hws_out out;
	FILE *f;
	int ret;
	unsigned n = m->topo.nr_cpus, lane = n <= 8 ? 28 : n <= 16 ? 18 : 12;
	unsigned ln = tr ? (tr->nr_cpus < 64 ? tr->nr_cpus : 64) : 0;
	double W = MACHINE_SVG_COLS, left = tr ? 84 : 56, top, rtop, axis_y, height;
	uint64_t step, unit;
	int decimals;
	char label[32];
	struct view v;
	struct lanes_ctx x = { 0 };
	struct legend lg;
	char *lbuf = NULL;
	size_t lsize = 0, rects = 0;
	const char *uname;

	v.from = (int64_t)m->o.svg_from_ns;
	v.to = m->o.svg_to_ns ? (int64_t)m->o.svg_to_ns : (int64_t)span;
	v.px = (double)(v.to - v.from) / W;
	v.left = left;
	/* the layout: the legend's rows first (into memory), then the lanes and the axis */
	lg = (struct legend){ open_memstream(&lbuf, &lsize), left, 26, left + W, left, 1 };
	if (!lg.f) {
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	legend(&lg, tr != NULL, !tr && m->ngroups > 1);
	fclose(lg.f);
	top = lg.y + 16 + 12 + (tr ? 12 : 0);
	rtop = tr ? top + ln * lane + 24 : top;	/* the replay's (or the run's) lanes */
	axis_y = rtop + n * lane + 2;
	height = axis_y + 42 + (m->seg_dropped ? 14 : 0);

	ret = hws_out_open(&out, path, 0, err, len);
	if (ret) {
		free(lbuf);
		return ret;
	}
	f = out.f;
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		   "font-family=\"sans-serif\" font-size=\"10\">\n", W + left + 24, height);
	fprintf(f, "<rect x=\"0\" y=\"0\" width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
	fprintf(f, "<text x=\"%.0f\" y=\"16\" font-size=\"12\">", left);
	if (tr)
		fputs("replay of ", f);
	xml_text(f, m->o.workload);
	fprintf(f, " on ");
	xml_text(f, m->o.topology);
	fprintf(f, ", scheduler ");
	xml_text(f, m->o.sched);
	fprintf(f, ": %.3f ms", span / 1e6);
	if (m->o.svg_to_ns)
		fprintf(f, "; drawn: %.6g to %.6g ms (--svg-window)", v.from / 1e6, v.to / 1e6);
	fprintf(f, "</text>\n");
	fwrite(lbuf, 1, lsize, f);
	free(lbuf);
	/* the lanes' headings, labels and backgrounds */
	if (tr) {
		fprintf(f, "<text x=\"4\" y=\"%.0f\" font-weight=\"bold\">Linux (the trace)</text>\n",
			top - 4);
		fprintf(f, "<text x=\"4\" y=\"%.0f\" font-weight=\"bold\">replay (", rtop - 4);
		xml_text(f, m->o.sched);
		fputs(")</text>\n", f);
	}
	for (unsigned side = tr ? 0 : 1; side < 2; side++)
		for (unsigned c = 0; c < (side ? n : ln); c++) {
			double y = (side ? rtop : top) + c * lane;

			fprintf(f, "<text x=\"4\" y=\"%.1f\">%sCPU %u</text>\n", y + lane * 0.5 + 3.5,
				side ? "" : "Linux ", c);
			fprintf(f, "<rect x=\"%.0f\" y=\"%.1f\" width=\"%.0f\" height=\"%.1f\" "
				   "fill=\"%s\"/>\n", left, y + 1, W, lane - 2.0, LANE_COLOUR);
		}
	/* the grid and the ticks: 1-2-5 steps, labelled in the unit of the step */
	step = machine_svg_tick_step((uint64_t)(v.to - v.from), 10);
	uname = unit_of(step, (uint64_t)v.to, &unit, &decimals);
	for (uint64_t t = ((uint64_t)v.from + step - 1) / step * step; t <= (uint64_t)v.to;
	     t += step) {
		double tx = left + W * (double)(t - (uint64_t)v.from) / (double)(v.to - v.from);

		tick_label(t, unit, decimals, label, sizeof(label));
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"%s\"/>\n"
			   "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"#444444\"/>\n"
			   "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%s</text>\n",
			tx, top, tx, axis_y, GRID_COLOUR, tx, axis_y, tx, axis_y + 5, tx, axis_y + 16,
			label);
	}
	fprintf(f, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"#444444\"/>\n",
		left, axis_y, left + W, axis_y);
	fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">time (%s)%s</text>\n",
		left + W / 2, axis_y + 32, uname,
		tr ? "; 0: the workload's first task appears in the trace" : "");
	if (m->seg_dropped)
		fprintf(f, "<text x=\"%.0f\" y=\"%.0f\">(the bursts after the first %u records are "
			   "not drawn)</text>\n", left, axis_y + 48, SEG_HARD_LIMIT);
	/* the bursts, over the grid */
	x.f = f;
	x.m = m;
	x.tr = tr;
	x.v = &v;
	if (tr) {
		x.org = trace_origin(tr);
		x.linux_side = 1;
		linux_lanes(&x, ln, top, lane, &rects);
	}
	x.linux_side = 0;
	machine_lanes(&x, rtop, lane, &rects);
	fprintf(f, "</svg>\n");
	return hws_out_commit(&out, err, len);
}

/*
 * After the run: close every CPU's last burst at the run's end (the time limit when the
 * run reached it), check --svg-window against the span, write the picture.
 * Return: 0, -ERANGE (the window ends after the run; @err says so) or hws_out's error.
 */
int mach_svg_finish(struct machine *m, uint64_t end, char *err, size_t len)
{
	const struct trace *tr = m->o.trace;
	uint64_t span;

	m->now = end;
	for (unsigned c = 0; c < m->topo.nr_cpus; c++)
		mach_log_switch(m, c, NULL);
	span = end;
	if (tr && tr->end_ns - trace_origin(tr) > (int64_t)span)
		span = (uint64_t)(tr->end_ns - trace_origin(tr));	/* one axis for both */
	if (!span)
		span = 1;
	if (m->o.svg_to_ns > span) {
		snprintf(err, len, "--svg-window %.6gms:%.6gms: ends after the %s (at %.6g ms)",
			 m->o.svg_from_ns / 1e6, m->o.svg_to_ns / 1e6,
			 tr ? "replay and the trace" : "run", span / 1e6);
		return -ERANGE;
	}
	return write_svg(m, span, m->o.svg, err, len);
}
