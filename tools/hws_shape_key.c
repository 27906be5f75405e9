/*
 * hws_shape_key - the engine's shape keys for the scripts (tools/build_shape.sh, synth/),
 * so that no script parses a key itself: lib/hws_params.c's parser and printer, from
 * regmap/params.def (docs/shapes.md).
 *
 * usage: hws_shape_key MODE KEY
 *   --key       the canonical key (the key itself: a key that is not canonical is refused)
 *   --gflags    Verilator's -GNAME=V for each parameter of hws_top, 0s resolved
 *   --chparams  Yosys's -chparam NAME V for each parameter
 *   --defines   -DHWS_V_<field>=V for each field of struct hws_params as built (the shape's
 *               harness, sim/harness/hws_shape_so.cpp): nr_ports and bal_lanes never 0
 *   --shell     NAME=V lines, for eval
 * hws_shape_key --grammar   the grammar of a key
 * Exit: 0; 2 with the reason on stderr, naming the key and the bad part.
 */
#include <stdio.h>
#include <string.h>

#include "lib/hws_params.h"

static int usage(void)
{
	fprintf(stderr, "usage: hws_shape_key --key|--gflags|--chparams|--defines|--shell KEY\n"
			"       hws_shape_key --grammar\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct hws_params p;
	char msg[400], key[HWS_PARAMS_KEY_MAX];
	const char *mode;

	if (argc == 2 && !strcmp(argv[1], "--grammar")) {
		printf("%s\n", hws_params_key_grammar);
		return 0;
	}
	if (argc != 3)
		return usage();
	mode = argv[1];
	if (strcmp(mode, "--key") && strcmp(mode, "--gflags") && strcmp(mode, "--chparams") &&
	    strcmp(mode, "--defines") && strcmp(mode, "--shell"))
		return usage();
	if (hws_params_key_parse(argv[2], &p, msg, sizeof(msg))) {
		fprintf(stderr, "hws_shape_key: %s\n", msg);
		return 2;
	}
	if (!strcmp(mode, "--key")) {
		hws_params_key(&p, key, sizeof(key));
		printf("%s\n", key);
		return 0;
	}
	for (unsigned i = 0; i < HWS_NR_PARAMS; i++) {
		const struct hws_param_desc *d = hws_param_desc(i);
		const unsigned v = hws_param_value(&p, i);

		if (!strcmp(mode, "--gflags"))
			printf("%s-G%s=%u", i ? " " : "", d->name, v);
		else if (!strcmp(mode, "--chparams"))
			printf("%s-chparam %s %u", i ? " " : "", d->name, v);
		else if (!strcmp(mode, "--defines"))
			printf("%s-DHWS_V_%s=%u", i ? " " : "", d->field, d->inverted ? !v : v);
		else
			printf("%s=%u\n", d->name, v);
	}
	if (strcmp(mode, "--shell"))
		printf("\n");
	return fflush(stdout) || ferror(stdout) ? 1 : 0;
}
