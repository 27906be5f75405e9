/*
 * hws_bus_timing.c - seeded master timings for AXI4-Lite transactions (hws_bus_timing.h).
 */
#include "lib/hws_bus_timing.h"

/* splitmix64: one 64-bit output per call, any seed. */
static uint64_t next64(struct hws_bus_gen *g)
{
	uint64_t z = (g->state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void hws_bus_gen_init(struct hws_bus_gen *g, uint64_t seed)
{
	g->state = seed;
}

void hws_bus_timing_next(struct hws_bus_gen *g, struct hws_bus_timing *t)
{
	uint64_t r = next64(g);
	unsigned order = (unsigned)(r % 3u);
	unsigned lag = 1u + (unsigned)((r >> 8) % HWS_BUS_TIMING_MAX);

	t->aw_delay = order == 2 ? lag : 0;
	t->w_delay = order == 1 ? lag : 0;
	t->resp_stall = (r >> 16) & 1u ? 1u + (unsigned)((r >> 20) % HWS_BUS_TIMING_MAX) : 0;
	t->ar_delay = ((r >> 28) & 3u) == 0 ? 1u + (unsigned)((r >> 32) % HWS_BUS_TIMING_MAX) : 0;
}

unsigned hws_bus_timing_write_edges(const struct hws_bus_timing *t)
{
	unsigned d = t->aw_delay > t->w_delay ? t->aw_delay : t->w_delay;

	return d + 2 + t->resp_stall;
}
