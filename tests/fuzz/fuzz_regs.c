/*
 * fuzz_regs.c - libFuzzer target: arbitrary bus traffic through the driver's lockstep
 * backend (the C model beside the Verilated RTL, every read's data and every response
 * compared): each 8-byte record is a write (with its byte strobes), a read or idle edges at
 * an address of the register window or beyond it. A lockstep mismatch aborts (a
 * finding), as do crashes and sanitizer reports in the driver and the model. Each input
 * starts from a soft reset of an engine opened once (8 CPUs, 256 tasks). make fuzz.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hws/hws.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct hws_dev *dev;

static void fail(const char *what)
{
	fprintf(stderr, "fuzz_regs: %s: %s\n", what, hws_errmsg(dev));
	abort();
}

/* A lockstep mismatch, or a transport that has failed: a finding. */
static void check(int ret, const char *what)
{
	if (ret && strstr(hws_errmsg(dev), "mismatch"))
		fail(what);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t n;

	if (!dev) {
		struct hws_config c;
		char msg[512];

		hws_config_default(&c);
		c.backend = "lockstep";
		if (hws_open(&dev, &c, msg, sizeof(msg))) {
			fprintf(stderr, "fuzz_regs: cannot open lockstep: %s\n", msg);
			abort();
		}
	}
	check(hws_soft_reset(dev), "soft reset");
	for (n = 0; n + 8 <= size && n < 8 * 512; n += 8) {
		const uint8_t *r = data + n;
		/* the register window (0..0x84) and a little beyond, unaligned too; rarely far */
		uint32_t addr = ((uint32_t)r[1] | (uint32_t)r[2] << 8) & (r[0] & 0x80 ? 0xfff : 0xff);
		uint32_t val = (uint32_t)r[3] | (uint32_t)r[4] << 8 | (uint32_t)r[5] << 16 |
			       (uint32_t)r[6] << 24, v = 0;

		switch (r[0] % 4) {
		case 0:
			check(hws_reg_write(dev, addr, val), "write");
			break;
		case 1:
			check(hws_reg_write_strb(dev, addr, val, r[7] & 15), "write with strobes");
			break;
		case 2:
			check(hws_reg_read(dev, addr, &v), "read");
			break;
		default:
			check(hws_idle(dev, 1 + r[7] % 64), "idle");
			break;
		}
	}
	return 0;
}
