/*
 * hws_balance_bench - run the software find_busiest_group / find_busiest_queue on a
 * NUMA-shaped domain many times, for counting its instructions under callgrind.
 *
 * usage: hws_balance_bench CPUS CALLS
 *        hws_balance_bench --version | --json-head
 * (--json-head: the "version" and "schema" members that start make bench-balance's JSON)
 * The domain: CPUS split into 4 groups (nodes) of CPUS/4, random loads (fixed seed).
 * The figure `make bench` reports is callgrind's instruction count inside
 * hws_find_busiest divided by CALLS: what one BALANCE query costs done in software.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/hws_balance.h"
#include "lib/hws_version.h"

int main(int argc, char **argv)
{
	struct hws_cpu_load cpus[HWS_MAX_CPUS];
	struct hws_balance b;
	struct hws_sd sd;
	unsigned n, calls, i, g, per;
	uint64_t s = 12345, moves = 0;

	if (argc == 2 && !strcmp(argv[1], "--help")) {
		printf("usage: hws_balance_bench CPUS CALLS  (CPUS a multiple of 4, 4..64)\n"
		       "       hws_balance_bench --version | --json-head\n");
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "--version")) {
		printf("hws_balance_bench %s\n", hws_version());
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "--json-head")) {	/* make bench-balance's JSON */
		hws_json_provenance(stdout);
		putchar('\n');
		return 0;
	}
	if (argc != 3 || (n = (unsigned)atoi(argv[1])) < 4 || n > 64 || n % 4 ||
	    (calls = (unsigned)atoi(argv[2])) < 1) {
		fprintf(stderr, "usage: hws_balance_bench CPUS CALLS  (CPUS a multiple of 4, "
				"4..64)\n");
		return 2;
	}
	memset(&sd, 0, sizeof(sd));
	per = n / 4;
	sd.nr_groups = 4;
	sd.imbalance_pct = 125;
	for (g = 0; g < 4; g++) {
		sd.group_cpus[g] = (per == 64 ? ~0ull : ((1ull << per) - 1)) << (g * per);
		sd.group_power[g] = per * HWS_SCHED_LOAD_SCALE;
	}
	for (i = 0; i < calls; i++) {
		unsigned c;

		for (c = 0; c < n; c++) {
			s = s * 6364136223846793005ULL + 1442695040888963407ULL;
			cpus[c].now = (uint32_t)(s >> 40) % (8 * HWS_SCHED_LOAD_SCALE);
			cpus[c].hist = (uint32_t)(s >> 20) % (8 * HWS_SCHED_LOAD_SCALE);
		}
		if (hws_find_busiest(&sd, i % n, HWS_CPU_NOT_IDLE, cpus, &b))
			return 1;
		moves += b.verdict == HWS_BAL_MOVE || b.verdict == HWS_BAL_MOVE_ONE;
	}
	printf("%u CPUs: %u calls, %llu decided to move\n", n, calls, (unsigned long long)moves);
	return 0;
}
