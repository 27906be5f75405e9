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
 * hws_shape_key --synth CPUS TASKS[SUFFIXES] "TOP_PARAMS"
 *   synth/'s configuration (synth/synth_one.sh): NR_CPUS, then NR_TASKS followed by the
 *   key's parts after g<groups> (nb, ne, ni, bl<lanes>, ...; e.g. "8 256nbneni"). The
 *   other parameters come from the environment (NR_GROUPS=, CMD_DEPTH=, LCU_BALANCE=, ...;
 *   a part the configuration writes wins), else their defaults. TOP_PARAMS: the parameters
 *   the synthesis top declares; another parameter away from its default is refused. Prints
 *   NAME=V lines, SYNTH_NAME=<cpus>x<tasks><suffixes> (canonical), KEY=<the shape key> and
 *   CHPARAMS="-chparam NAME V ..." (TOP_PARAMS only), for eval.
 * Exit: 0; 2 with the reason on stderr, naming the key and the bad part.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/hws_params.h"

static int usage(void)
{
	fprintf(stderr, "usage: hws_shape_key --key|--gflags|--chparams|--defines|--shell KEY\n"
			"       hws_shape_key --grammar\n"
			"       hws_shape_key --synth CPUS TASKS[SUFFIXES] \"TOP_PARAMS\"\n");
	return 2;
}

/* The first key part after the numbers every key writes (g<groups>): the synth suffixes. */
static unsigned first_suffix_at(void)
{
	unsigned at = 0;

	for (unsigned i = 0; i < HWS_NR_PARAMS; i++) {
		const struct hws_param_desc *d = hws_param_desc(i);

		if (d->key_name[0] && !d->key_optional && d->key_at > at)
			at = d->key_at;
	}
	return at + 1;
}

static int in_list(const char *list, const char *name)
{
	const size_t n = strlen(name);

	for (const char *s = list; (s = strstr(s, name)) != NULL; s += n)
		if ((s == list || s[-1] == ' ') && (s[n] == ' ' || s[n] == '\0'))
			return 1;
	return 0;
}

static int synth(const char *cpus, const char *tasks, const char *top)
{
	struct hws_params p, def;
	char key[3 * HWS_PARAMS_KEY_MAX], msg[600], canon[HWS_PARAMS_KEY_MAX];
	const char *sfx = tasks;
	const unsigned from = first_suffix_at();
	size_t used;

	while (*sfx >= '0' && *sfx <= '9')
		sfx++;
	hws_params_default(&def);
	/* the shape key with the defaults between NR_TASKS and the suffixes */
	hws_params_key(&def, canon, sizeof(canon));
	{
		const char *g = strchr(canon, 'x');	/* after <cpus> */

		g = g ? strchr(g + 1, 'x') : NULL;	/* x<cmd_depth>g<groups> */
		snprintf(key, sizeof(key), "%sx%.*s%s%s", cpus, (int)(sfx - tasks), tasks,
			 g ? g : "", sfx);
	}
	if (hws_params_key_parse(key, &p, msg, sizeof(msg))) {
		fprintf(stderr, "hws_shape_key: synth configuration '%s %s': %s\n", cpus, tasks, msg);
		return 2;
	}
	for (unsigned i = 0; i < HWS_NR_PARAMS; i++) {
		const struct hws_param_desc *d = hws_param_desc(i);
		const char *env = getenv(d->name);
		char *end;
		unsigned long v;

		if (!env || !*env || hws_param_field(&p, i) != hws_param_field(&def, i))
			continue;	/* not given, or the configuration wrote it */
		v = strtoul(env, &end, 10);
		if (*end || env[0] < '0' || env[0] > '9' || strlen(env) > 9) {
			fprintf(stderr, "hws_shape_key: synth configuration '%s %s': %s '%s' (from the "
					"environment) is not a whole number\n", cpus, tasks, d->name, env);
			return 2;
		}
		if (d->inverted && v > 1) {
			fprintf(stderr, "hws_shape_key: synth configuration '%s %s': %s '%s' (from the "
					"environment) is not 0 or 1\n", cpus, tasks, d->name, env);
			return 2;
		}
		hws_param_set_field(&p, i, d->inverted ? !v : (unsigned)v);
	}
	if (hws_params_check(&p, msg, sizeof(msg))) {
		fprintf(stderr, "hws_shape_key: synth configuration '%s %s': %s\n", cpus, tasks, msg);
		return 2;
	}
	for (unsigned i = 0; i < HWS_NR_PARAMS; i++) {
		const struct hws_param_desc *d = hws_param_desc(i);

		if (!in_list(top, d->name) && hws_param_value(&p, i) != hws_param_value(&def, i)) {
			fprintf(stderr, "hws_shape_key: synth configuration '%s %s': %s=%u, but the "
					"synthesis top has no parameter %s (it has: %s)\n", cpus, tasks,
				d->name, hws_param_value(&p, i), d->name, top);
			return 2;
		}
	}
	hws_params_key(&p, canon, sizeof(canon));
	for (unsigned i = 0; i < HWS_NR_PARAMS; i++)
		printf("%s=%u\n", hws_param_desc(i)->name, hws_param_value(&p, i));
	printf("KEY=%s\nSYNTH_NAME=%u", canon, p.nr_cpus);
	/* <cpus>x<tasks> and the key's suffixes (its parts from the first after g<groups>) */
	{
		char part[HWS_PARAMS_KEY_MAX];
		struct hws_params only = p;

		printf("x%u", p.nr_tasks);
		for (unsigned i = 0; i < HWS_NR_PARAMS; i++) {
			const struct hws_param_desc *d = hws_param_desc(i);

			if (d->key_at < from)
				hws_param_set_field(&only, i, hws_param_field(&def, i));
		}
		/* the suffixes are what the key of @only writes after the default's */
		hws_params_key(&only, part, sizeof(part));
		hws_params_key(&def, canon, sizeof(canon));
		printf("%s\n", part + strlen(canon));
	}
	used = (size_t)printf("CHPARAMS=\"");
	for (unsigned i = 0, n = 0; i < HWS_NR_PARAMS; i++)
		if (in_list(top, hws_param_desc(i)->name))
			printf("%s-chparam %s %u", n++ ? " " : "", hws_param_desc(i)->name,
			       hws_param_value(&p, i));
	printf("\"\n");
	(void)used;
	return fflush(stdout) || ferror(stdout) ? 1 : 0;
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
	if (argc == 5 && !strcmp(argv[1], "--synth"))
		return synth(argv[2], argv[3], argv[4]);
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
