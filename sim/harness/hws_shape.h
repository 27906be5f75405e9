/*
 * hws_shape - engine shapes built on demand: one shared object per shape, loaded with
 * dlopen (docs/shapes.md).
 *
 * Verilator fixes parameters at build time, so every engine shape (CPUs x tasks x FIFO
 * depths x groups x optional units) is its own Verilated model. Each is built into
 * build/shapes/<key>/libhws_shape.so (tools/build_shape.sh, `make shape SHAPE=<key>`):
 * the Verilated --cc model, the harness (sim/harness/hws_shape_so.cpp) and the Verilator
 * runtime, every symbol hidden but the one versioned entry point hws_shape_v1(), which
 * returns the table below. hws_vsim_create() (hws_vsim.h) finds the shape in the cache,
 * builds it first when it is missing or older than its sources (unless building is off),
 * and loads it; hwsched is never relinked for a shape.
 *
 * The key, canonical (one key per shape), is regmap/params.def's (docs/shapes.md):
 *     <cpus>x<tasks>x<cmd_depth>[r<res_depth>]g<groups>[nb][ne][ni][bl<lanes>][p<ports>][pi]
 * printed and parsed by lib/hws_params.c (hws_params_key(), hws_params_key_parse()), for
 * the scripts by build/hws_shape_key. The default shape is 8x256x16g16.
 */
#ifndef HWS_SHAPE_H
#define HWS_SHAPE_H

#include <stddef.h>
#include <stdint.h>

#include "hws/params_list.h"
#include "sim/harness/hws_vsim.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The version of the table below; a shared object of another version is rebuilt. Its
 * low byte is the number of parameters (a parameter added to regmap/params.def makes the
 * table longer). */
#define HWS_SHAPE_ABI (8u << 8 | HWS_NR_PARAMS)
/* The one symbol a shape's shared object exports. */
#define HWS_SHAPE_ENTRY "hws_shape_v1"
/* The file of a shape in its cache folder: without and with FST waveform support. */
#define HWS_SHAPE_SO "libhws_shape.so"
#define HWS_SHAPE_SO_TRACE "libhws_shape_trace.so"

/* What one shape's shared object offers: its parameters and the harness's functions
 * (hws_vsim.h's, on an instance of this shape). */
struct hws_shape_ops {
	unsigned abi;		/* HWS_SHAPE_ABI */
	unsigned size;		/* sizeof(struct hws_shape_ops) */
	/* The fields of struct hws_params as built: nr_ports 1..4 and bal_lanes 1..nr_cpus,
	 * never 0 (tools/hws_shape_key.c --defines gives them) */
	HWS_PARAMS_FIELDS(HWS_PARAMS_DECLARE)
	unsigned trace;		/* built with --trace-fst (a waveform can be written) */
	const char *built_with;	/* the Verilator version and flags, for messages */
	/* An instance, reset; NULL with @msg set on failure (a waveform it cannot open). */
	void *(*create)(const struct hws_vsim_opts *o, char *msg, size_t len);
	void (*destroy)(void *inst);
	void (*reset)(void *inst);
	/* One AXI4-Lite transaction with the master's timing @t (lib/hws_bus_timing.h). */
	unsigned (*write)(void *inst, const struct hws_bus_timing *t, uint32_t addr,
			  uint32_t data, uint32_t strb, uint32_t *resp);
	unsigned (*read)(void *inst, const struct hws_bus_timing *t, uint32_t addr,
			 uint32_t *data, uint32_t *resp);
	void (*idle)(void *inst, unsigned edges);
	/* One edge with every port's pins (nr_ports entries each; hws_vsim_pins()). */
	void (*pins)(void *inst, const struct hws_axil_in *in, struct hws_axil_out *out);
	/* irq_cpu_o now (bit c = CPU c); *@any receives irq_o (hws_vsim_irq()). */
	uint64_t (*irq)(void *inst, unsigned *any);
	/* The units' boundary values now, from their output ports (hws_vsim_units()). */
	void (*units)(void *inst, struct hws_units *u);
};

typedef const struct hws_shape_ops *(*hws_shape_entry_fn)(void);

/**
 * hws_shape_key - the canonical key of a shape (hws_params_key() of lib/hws_params.h)
 * @o: the parameters (nr_cpus .. pipe and those added; the options are ignored)
 * @key: receives the key, e.g. "8x256x16g16", "2x64x16g16nbne", "2x16x4r8g16", "8x256x16g16p4",
 *	 "4x256x16g16bl1", "8x256x16g16nbneni", "8x256x16g16p2pi"
 * @len: size of @key (HWS_SHAPE_KEY_MAX is enough)
 */
#define HWS_SHAPE_KEY_MAX HWS_PARAMS_KEY_MAX
void hws_shape_key(const struct hws_vsim_opts *o, char *key, size_t len);

/**
 * hws_shape_set_build - whether a missing or stale shape is built (1, the default) or
 * refused with the command that builds it (0: hwsched's --no-build). Process-wide.
 */
void hws_shape_set_build(int build);

/**
 * hws_shape_open - the table of a shape, built and loaded as needed
 * @o: the parameters; @o->wave selects the build with waveform support
 * @msg: receives the reason on failure
 * @len: size of @msg
 *
 * Return: the table (loaded once per process and kept), or NULL: @msg says why (bad
 * parameters, building is off, the build failed, the object does not load).
 * *@err gets -EINVAL for bad parameters, -ENOTSUP when the shape is not built (or is
 * older than its sources) and building is off, -EIO otherwise.
 */
const struct hws_shape_ops *hws_shape_open(const struct hws_vsim_opts *o, int *err,
					   char *msg, size_t len);

/**
 * hws_shape_cache_dir - the folder of the cache: $HWS_SHAPES, or build/shapes in the
 * repository ($HWS_ROOT, or found upwards from the executable). NULL when neither.
 */
const char *hws_shape_cache_dir(void);

#ifdef __cplusplus
}
#endif

#endif /* HWS_SHAPE_H */
