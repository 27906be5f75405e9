/*
 * params_gen - turn regmap/params.def (the engine's build parameters) into the C X-macro of
 * struct hws_params' fields, the C table lib/hws_params.c reads, the Verilog range tests
 * and FEATURES word, hws_top's parameter check, hwsched's options that set parameters
 * and the table of docs/accelerator.md section 1.
 *
 * Usage: params_gen REGMAP.def PARAMS.def OUT_LIST.h OUT_TABLE.h OUT.vh OUT_CHECK.vh
 *                   OUT_CLI.h DOC_IN.md DOC_OUT.md
 *
 * REGMAP.def gives the constants a default may name (DEF_GROUPS) and the FEATURES fields
 * a parameter names. DOC_IN.md is copied to DOC_OUT.md with the text between the markers
 * <!-- params:begin --> and <!-- params:end --> replaced (DOC_OUT may be DOC_IN). Every
 * output is written to a temporary file and renamed. Errors name the file and line.
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PARAMS 32
#define MAX_CONSTS 256

struct param {
	char name[64];		/* NR_CPUS */
	char field[64];		/* nr_cpus */
	int inverted;		/* !field */
	char def[64];		/* as written */
	unsigned long defv;	/* its value (NAME's) */
	unsigned long min, max;
	int max_param;		/* -1, or the parameter MAX names */
	int has_zero;
	unsigned long zero_val;
	int zero_param;		/* -1, or the parameter ZERO names */
	char key_prefix[64];	/* letters before the number, or the flag's letters */
	char key_name[64];	/* "<lanes>", "" for a flag */
	int key_optional;
	unsigned long implied_val;
	int implied_param;
	unsigned at;
	char feature[64];	/* "" or the FEATURES field */
	unsigned long feat_lsb, feat_width;
	int needs;		/* -1 or a parameter */
	char meaning[512], source[512];
	int line;
};

static struct param params[MAX_PARAMS];
static int nparams;

/* A command-line option of hwsched that sets parameters (cli/cli_options.c). */
struct cli {
	char slot[32], option[48], arg[16], cmds[8];
	char plist[96];		/* NAME[,NAME]: the parameters it sets */
	int p[2];
	char help[1024];
	int line;
};
#define MAX_CLI 64
static struct cli clis[MAX_CLI];
static int nclis;
static int nbase = -1;		/* the parameters before the line "added" */
static struct { char name[64]; unsigned long v; } consts[MAX_CONSTS];
static int nconsts;
static struct { char name[64]; unsigned long lsb, width; } feats[32];
static int nfeats;
static const char *def_path;

static void die(int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "params_gen: %s", def_path);
	if (line)
		fprintf(stderr, ":%d", line);
	fprintf(stderr, ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static int is_num(const char *s)
{
	if (!*s)
		return 0;
	if (!strncmp(s, "0x", 2) && s[2])
		s += 2;
	for (; *s; s++)
		if (!isxdigit((unsigned char)*s))
			return 0;
	return 1;
}

static unsigned long to_num(const char *s, int line)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || *end || !*s)
		die(line, "not a number: '%s'", s);
	return v;
}

static int param_index(const char *name)
{
	for (int i = 0; i < nparams; i++)
		if (!strcmp(params[i].name, name))
			return i;
	return -1;
}

/* regmap.def: its const lines and the fields of FEATURES. */
static void read_regmap(const char *path)
{
	char buf[1024];
	FILE *f = fopen(path, "r");

	def_path = path;
	if (!f)
		die(0, "cannot read: %s", strerror(errno));
	while (fgets(buf, sizeof(buf), f)) {
		char w[5][64];
		int n = sscanf(buf, "%63s %63s %63s %63s %63s", w[0], w[1], w[2], w[3], w[4]);

		if (n >= 3 && !strcmp(w[0], "const") && nconsts < MAX_CONSTS) {
			snprintf(consts[nconsts].name, sizeof(consts[0].name), "%s", w[1]);
			consts[nconsts++].v = strtoul(w[2], NULL, 0);
		} else if (n >= 5 && !strcmp(w[0], "field") && !strcmp(w[1], "FEATURES") &&
			   nfeats < 32) {
			snprintf(feats[nfeats].name, sizeof(feats[0].name), "%s", w[2]);
			feats[nfeats].lsb = strtoul(w[3], NULL, 0);
			feats[nfeats++].width = strtoul(w[4], NULL, 0);
		}
	}
	fclose(f);
}

static int const_value(const char *name, unsigned long *v)
{
	for (int i = 0; i < nconsts; i++)
		if (!strcmp(consts[i].name, name)) {
			*v = consts[i].v;
			return 1;
		}
	return 0;
}

/* A parameter named on a line before it is checked once every line is read. */
struct pending { int *slot; char name[64]; int line; };
static struct pending pend[MAX_PARAMS * 4];
static int npend;

static void later(int *slot, const char *name, int line)
{
	if (npend == (int)(sizeof(pend) / sizeof(pend[0])))
		die(line, "too many references");
	pend[npend].slot = slot;
	snprintf(pend[npend].name, sizeof(pend[0].name), "%s", name);
	pend[npend++].line = line;
}

/* A number, or a parameter (*param set later). */
static void num_or_param(const char *s, unsigned long *v, int *param, int line)
{
	*param = -1;
	if (is_num(s)) {
		*v = to_num(s, line);
		return;
	}
	if (!isupper((unsigned char)s[0]))
		die(line, "expected a number or a parameter: '%s'", s);
	*v = 0;
	later(param, s, line);
}

static void trim(char *s)
{
	size_t n = strlen(s);
	char *p = s;

	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	while (isspace((unsigned char)*p))
		p++;
	memmove(s, p, strlen(p) + 1);
}

static void read_params(const char *path)
{
	char buf[2048];
	FILE *f = fopen(path, "r");
	int line = 0;

	def_path = path;
	if (!f)
		die(0, "cannot read: %s", strerror(errno));
	while (fgets(buf, sizeof(buf), f)) {
		char w[11][64], *bar, *bar2, *p;
		struct param *q;
		int n;

		line++;
		if (!strchr(buf, '\n') && !feof(f))
			die(line, "line too long");
		for (p = buf; isspace((unsigned char)*p); p++)
			;
		if (*p == '#' || !*p)
			continue;
		if (!strcmp(p, "added\n") || !strcmp(p, "added")) {
			if (nbase >= 0)
				die(line, "a second line 'added'");
			nbase = nparams;
			continue;
		}
		if (!strncmp(p, "cli", 3) && isspace((unsigned char)p[3])) {
			struct cli *c = &clis[nclis];
			char *hb = strchr(p, '|');

			if (nclis == MAX_CLI)
				die(line, "too many cli lines");
			memset(c, 0, sizeof(*c));
			c->line = line;
			if (!hb)
				die(line, "expected '| help' after the columns");
			*hb++ = '\0';
			snprintf(c->help, sizeof(c->help), "%s", hb);
			trim(c->help);
			for (const char *h = c->help; *h; h++)
				if (*h == '"' || (*h == '\\' && h[1] != 'n'))
					die(line, "the help may hold \\n, but no other '\\' and no '\"'");
			if (sscanf(p, "cli %31s %47s %15s %7s %95s", c->slot, c->option, c->arg, c->cmds,
				   c->plist) != 5)
				die(line, "expected: cli SLOT OPTION ARG CMDS NAME[,NAME] | help");
			nclis++;
			continue;
		}
		if (nparams == MAX_PARAMS)
			die(line, "too many parameters");
		q = &params[nparams];
		memset(q, 0, sizeof(*q));
		q->line = line;
		bar = strchr(p, '|');
		bar2 = bar ? strchr(bar + 1, '|') : NULL;
		if (!bar || !bar2)
			die(line, "expected '| meaning | source' after the columns");
		*bar++ = '\0';
		*bar2++ = '\0';
		snprintf(q->meaning, sizeof(q->meaning), "%s", bar);
		snprintf(q->source, sizeof(q->source), "%s", bar2);
		trim(q->meaning);
		trim(q->source);
		if (!q->meaning[0] || !q->source[0])
			die(line, "the meaning and the source must not be empty");
		if (strchr(q->meaning, '"') || strchr(q->meaning, '\\'))
			die(line, "no '\"' or '\\' in the meaning");
		n = sscanf(p, "%63s %63s %63s %63s %63s %63s %63s %63s %63s %63s %63s", w[0], w[1],
			   w[2], w[3], w[4], w[5], w[6], w[7], w[8], w[9], w[10]);
		if (n != 10 || strcmp(w[0], "param"))
			die(line, "expected: param NAME FIELD DEFAULT RANGE ZERO KEY AT FEATURE NEEDS "
				  "| meaning | source");
		snprintf(q->name, sizeof(q->name), "%s", w[1]);
		for (const char *c = q->name; *c; c++)
			if (!isupper((unsigned char)*c) && !isdigit((unsigned char)*c) && *c != '_')
				die(line, "NAME must be upper case: '%s'", q->name);
		if (param_index(q->name) >= 0)
			die(line, "%s defined twice", q->name);
		q->inverted = w[2][0] == '!';
		snprintf(q->field, sizeof(q->field), "%s", w[2] + q->inverted);
		for (const char *c = q->field; *c; c++)
			if (!islower((unsigned char)*c) && !isdigit((unsigned char)*c) && *c != '_')
				die(line, "FIELD must be a lower-case C name: '%s'", q->field);
		snprintf(q->def, sizeof(q->def), "%s", w[3]);
		if (is_num(w[3]))
			q->defv = to_num(w[3], line);
		else if (!const_value(w[3], &q->defv))
			die(line, "DEFAULT '%s' is neither a number nor a const of the register map",
			    w[3]);
		{
			char *dots = strstr(w[4], "..");

			if (!dots)
				die(line, "RANGE must be MIN..MAX: '%s'", w[4]);
			*dots = '\0';
			q->min = to_num(w[4], line);
			num_or_param(dots + 2, &q->max, &q->max_param, line);
			if (is_num(dots + 2) && q->max < q->min)
				die(line, "RANGE %lu..%lu is empty", q->min, q->max);
		}
		q->has_zero = strcmp(w[5], "-") != 0;
		q->zero_param = -1;
		if (q->has_zero)
			num_or_param(w[5], &q->zero_val, &q->zero_param, line);
		{
			char *key = w[6], *tilde = strchr(key, '~'), *lt = strchr(key, '<');

			q->implied_param = -1;
			if (tilde) {
				*tilde = '\0';
				q->key_optional = 1;
				num_or_param(tilde + 1, &q->implied_val, &q->implied_param, line);
			}
			if (lt) {
				if (key[strlen(key) - 1] != '>')
					die(line, "KEY '%s': expected letters<name>", w[6]);
				snprintf(q->key_name, sizeof(q->key_name), "%s", lt);
				*lt = '\0';
			} else if (tilde) {
				die(line, "KEY: a flag has no implied value");
			}
			snprintf(q->key_prefix, sizeof(q->key_prefix), "%s", key);
			for (const char *c = q->key_prefix; *c; c++)
				if (!islower((unsigned char)*c))
					die(line, "KEY's letters must be lower case: '%s'", key);
			if (!q->key_name[0] && (!q->key_prefix[0] || q->min != 0 || q->max != 1 ||
						q->max_param >= 0))
				die(line, "a KEY flag needs letters and RANGE 0..1");
		}
		q->at = (unsigned)to_num(w[7], line);
		if (strcmp(w[8], "-")) {
			int k;

			for (k = 0; k < nfeats && strcmp(feats[k].name, w[8]); k++)
				;
			if (k == nfeats)
				die(line, "FEATURE %s is not a field of FEATURES in the register map", w[8]);
			snprintf(q->feature, sizeof(q->feature), "%s", w[8]);
			q->feat_lsb = feats[k].lsb;
			q->feat_width = feats[k].width;
		}
		q->needs = -1;
		if (strcmp(w[9], "-"))
			later(&q->needs, w[9], line);
		nparams++;
	}
	fclose(f);
	if (!nparams)
		die(0, "no parameter");
	if (nbase < 0)
		die(0, "no line 'added' (where the parameters added since the first ones begin)");
	for (int i = 0; i < npend; i++) {
		*pend[i].slot = param_index(pend[i].name);
		if (*pend[i].slot < 0)
			die(pend[i].line, "'%s' is not a parameter", pend[i].name);
	}
	for (int k = 0; k < nclis; k++) {
		struct cli *c = &clis[k];
		char list[96], *save = NULL, *w;
		int n = 0;

		snprintf(list, sizeof(list), "%s", c->plist);
		c->p[1] = -1;
		for (w = strtok_r(list, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
			if (n == 2)
				die(c->line, "an option sets at most two parameters");
			c->p[n] = param_index(w);
			if (c->p[n] < 0)
				die(c->line, "'%s' is not a parameter", w);
			n++;
		}
		if (!n)
			die(c->line, "no parameter");
		for (const char *m = c->cmds; *m; m++)
			if (!strchr("LRVPI", *m))
				die(c->line, "CMDS: letters of L R V P I (lockstep, run, vp, replay, trace-info)");
		if ((strcmp(c->arg, "-") == 0) != (params[c->p[0]].key_name[0] == '\0'))
			die(c->line, "ARG: - for a flag parameter, a name for a number");
	}
	/* The key: places 1..N, each once; the first part a number without letters. */
	for (int i = 0; i < nparams; i++) {
		const struct param *q = &params[i];

		if (q->at < 1 || q->at > (unsigned)nparams)
			die(q->line, "AT must be 1..%d", nparams);
		for (int j = 0; j < i; j++)
			if (params[j].at == q->at)
				die(q->line, "AT %u is %s's too", q->at, params[j].name);
		if ((q->at == 1) != (q->key_prefix[0] == '\0'))
			die(q->line, "the key's first part (AT 1), and only it, has no letters");
		if (q->at == 1 && q->key_optional)
			die(q->line, "the key's first part is always written");
		if (q->needs >= 0 && (!q->has_zero || params[q->needs].key_name[0]))
			die(q->line, "NEEDS: a parameter with a ZERO needing a flag parameter");
		if (q->feature[0] && q->feat_width == 1 && q->key_name[0])
			die(q->line, "FEATURE %s is one bit: for a flag", q->feature);
		if (q->inverted && q->key_name[0])
			die(q->line, "only a flag may be inverted");
	}
}

/* ---- output helpers ---- */

struct out { FILE *f; char tmp[4200]; const char *path; };

static void open_out(struct out *o, const char *path)
{
	o->path = path;
	snprintf(o->tmp, sizeof(o->tmp), "%s.tmp", path);
	o->f = fopen(o->tmp, "w");
	if (!o->f) {
		fprintf(stderr, "params_gen: cannot write %s: %s\n", o->tmp, strerror(errno));
		exit(1);
	}
}

/* 1 when files @a and @b hold the same bytes. */
static int same_file(const char *a, const char *b)
{
	FILE *fa = fopen(a, "r"), *fb = fopen(b, "r");
	int same = fa && fb, ca, cb;

	while (same) {
		ca = getc(fa);
		cb = getc(fb);
		same = ca == cb;
		if (ca == EOF)
			break;
	}
	if (fa)
		fclose(fa);
	if (fb)
		fclose(fb);
	return same;
}

/* Into place, unless the file already holds this text (its time stays: nothing built from
 * it is rebuilt, e.g. the engine shapes). */
static void close_out(struct out *o)
{
	int bad = ferror(o->f) != 0;

	bad |= fclose(o->f) != 0;
	if (!bad && same_file(o->tmp, o->path)) {
		remove(o->tmp);
		return;
	}
	if (bad || rename(o->tmp, o->path)) {
		fprintf(stderr, "params_gen: error writing %s\n", o->path);
		remove(o->tmp);
		exit(1);
	}
}

static const char *const HEAD_C = "/* GENERATED by regmap/params_gen.c from regmap/params.def: do not edit. */\n";
static const char *const HEAD_V = "// GENERATED by regmap/params_gen.c from regmap/params.def: do not edit.\n";

/* The key part of @q as the grammar writes it: "x<tasks>", "[r<res_depth>]", "[nb]". */
static void key_part(const struct param *q, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s%s", q->key_optional || !q->key_name[0] ? "[" : "",
		 q->key_prefix, q->key_name, q->key_optional || !q->key_name[0] ? "]" : "");
}

static void grammar(char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned at = 1; at <= (unsigned)nparams; at++)
		for (int i = 0; i < nparams; i++)
			if (params[i].at == at) {
				char part[64];

				key_part(&params[i], part, sizeof(part));
				used += (size_t)snprintf(buf + used, len - used, "%s", part);
			}
}

/* MAX as text: "64" or "NR_CPUS". */
static const char *max_text(const struct param *q, char *buf, size_t len)
{
	if (q->max_param >= 0)
		snprintf(buf, len, "%s", params[q->max_param].name);
	else
		snprintf(buf, len, "%lu", q->max);
	return buf;
}

/* ---- include/hws/params_list.h ---- */

static void gen_list(const char *path)
{
	struct out o;

	open_out(&o, path);
	fprintf(o.f, "%s", HEAD_C);
	fprintf(o.f, "/*\n * The fields of struct hws_params (include/hws/transport.h), in order, one X(field, NAME)\n"
		     " * each: NAME is hws_top's parameter. A public ABI: a new parameter is appended.\n"
		     " * HWS_PARAMS_FIELD_DOCS says what each holds.\n */\n");
	fprintf(o.f, "#ifndef HWS_PARAMS_LIST_H\n#define HWS_PARAMS_LIST_H\n\n");
	fprintf(o.f, "#define HWS_NR_PARAMS %d\n\n", nparams);
	fprintf(o.f, "/* The ranges (HWS_MIN_, HWS_MAX_ when not another parameter) and hws_top's defaults\n"
		     " * (HWS_DEF_) of the parameters that are numbers. */\n");
	for (int i = 0; i < nparams; i++) {
		const struct param *q = &params[i];

		if (!q->key_name[0])
			continue;
		fprintf(o.f, "#define HWS_MIN_%s %lu\n", q->name, q->min);
		if (q->max_param < 0)
			fprintf(o.f, "#define HWS_MAX_%s %lu\n", q->name, q->max);
		fprintf(o.f, "#define HWS_DEF_%s %lu\n", q->name, q->defv);
	}
	fprintf(o.f, "\n#define HWS_PARAMS_FIELDS(X) \\\n");
	for (int i = 0; i < nparams; i++)
		fprintf(o.f, "\tX(%s, %s)%s\n", params[i].field, params[i].name,
			i + 1 < nparams ? " \\" : "");
	fprintf(o.f, "\n/* The parameters after the line 'added' of regmap/params.def: the structs that spell the\n"
		     " * first %d fields by hand in their own order (struct hws_config, struct\n"
		     " * hws_vsim_opts) end with these. */\n#define HWS_PARAMS_ADDED(X)", nbase);
	for (int i = nbase; i < nparams; i++)
		fprintf(o.f, " \\\n\tX(%s, %s)", params[i].field, params[i].name);
	fprintf(o.f, "\n\n/* X for a declaration: unsigned field; */\n"
		     "#define HWS_PARAMS_DECLARE(field, NAME) unsigned field;\n");
	fprintf(o.f, "\n/* HWS_PARAMS_FIELD_DOCS:\n");
	for (int i = 0; i < nparams; i++) {
		const struct param *q = &params[i];
		char mx[32];

		fprintf(o.f, " *   %-16s ", q->field);
		if (q->inverted)
			fprintf(o.f, "0, 1: 1 = %s = 0. ", q->name);
		else
			fprintf(o.f, "%s %lu..%s", q->name, q->min, max_text(q, mx, sizeof(mx)));
		/* a flag's ZERO (for NEEDS) means 0: nothing to say */
		if (q->has_zero && q->key_name[0] && q->zero_param >= 0)
			fprintf(o.f, " (0 means %s)", params[q->zero_param].field);
		else if (q->has_zero && q->key_name[0])
			fprintf(o.f, " (0 means %lu)", q->zero_val);
		if (!q->inverted)
			fprintf(o.f, ". ");
		fprintf(o.f, "%s\n", q->meaning);
	}
	fprintf(o.f, " */\n\n#endif /* HWS_PARAMS_LIST_H */\n");
	close_out(&o);
}

/* ---- lib/hws_params_table.h ---- */

static void gen_table(const char *path)
{
	char g[512];
	struct out o;

	open_out(&o, path);
	grammar(g, sizeof(g));
	fprintf(o.f, "%s", HEAD_C);
	fprintf(o.f, "/* The parameter table of lib/hws_params.c (struct hws_param_desc, lib/hws_params.h);\n"
		     " * included there only. */\n\n");
	fprintf(o.f, "#define HWS_PARAMS_KEY_GRAMMAR \"%s\"\n\n", g);
	fprintf(o.f, "static const struct hws_param_desc param_table[HWS_NR_PARAMS] = {\n");
	for (int i = 0; i < nparams; i++) {
		const struct param *q = &params[i];

		fprintf(o.f, "\t{ \"%s\", \"%s\", offsetof(struct hws_params, %s), %d,\n", q->name,
			q->field, q->field, q->inverted);
		fprintf(o.f, "\t  %s%s, %lu, %lu, %d, %d, %lu, %d,\n",
			is_num(q->def) ? "" : "HWS_", q->def, q->min, q->max, q->max_param,
			q->has_zero, q->zero_val, q->zero_param);
		fprintf(o.f, "\t  \"%s\", \"%s\", %d, %lu, %d, %u,\n", q->key_prefix, q->key_name,
			q->key_optional, q->implied_val, q->implied_param, q->at);
		if (q->feature[0])
			fprintf(o.f, "\t  \"%s\", HWS_FEATURES_%s_LSB, HWS_FEATURES_%s_MASK, %d,\n",
				q->feature, q->feature, q->feature, q->needs);
		else
			fprintf(o.f, "\t  NULL, 0, 0, %d,\n", q->needs);
		fprintf(o.f, "\t  \"%s\" },\n", q->meaning);
	}
	fprintf(o.f, "};\n\n/* The parameters in the order of the shape key. */\n");
	fprintf(o.f, "static const unsigned char key_order[HWS_NR_PARAMS] = {");
	for (unsigned at = 1; at <= (unsigned)nparams; at++)
		for (int i = 0; i < nparams; i++)
			if (params[i].at == at)
				fprintf(o.f, " %d,", i);
	fprintf(o.f, " };\n");
	close_out(&o);
}

/* ---- rtl/hws_params.vh and rtl/hws_params_check.vh ---- */

/* The Verilog test "NAME is outside its range". */
static void v_bad(FILE *f, const struct param *q)
{
	char mx[32];
	/* NAME takes 0 too when 0 means something and the RTL's default is that 0 */
	unsigned long lo = q->has_zero && q->defv == 0 ? 0 : q->min;

	fprintf(f, "(%s < %lu || %s > %s)", q->name, lo, q->name, max_text(q, mx, sizeof(mx)));
}

static void v_range_text(FILE *f, const struct param *q)
{
	char mx[32];
	unsigned long lo = q->has_zero && q->defv == 0 ? 0 : q->min;

	if (!q->key_name[0])
		fprintf(f, "0, 1");
	else
		fprintf(f, "%lu..%s", lo, max_text(q, mx, sizeof(mx)));
}

static void gen_vh(const char *path)
{
	struct out o;

	open_out(&o, path);
	fprintf(o.f, "%s", HEAD_V);
	fprintf(o.f, "// Macros, so that a module uses those of the parameters it has (`include it anywhere;\n"
		     "// it defines nothing twice):\n"
		     "//   `HWS_PARAM_BAD_<NAME>  1 when the module's parameter NAME is outside its range\n"
		     "//                          (the range may name another parameter, which it must have)\n"
		     "//   `HWS_PARAMS_FEATURES   the FEATURES register's word (needs hws_regs.vh and every\n"
		     "//                          parameter with a FEATURES field)\n"
		     "// hws_params_check.vh is the whole check, for hws_top.\n");
	fprintf(o.f, "`ifndef HWS_PARAMS_VH\n`define HWS_PARAMS_VH\n");
	for (int i = 0; i < nparams; i++) {
		const struct param *q = &params[i];

		fprintf(o.f, "`define HWS_PARAM_BAD_%s ", q->name);
		v_bad(o.f, q);
		fprintf(o.f, "\n");
	}
	fprintf(o.f, "`define HWS_PARAMS_FEATURES ( \\\n");
	for (int i = 0, first = 1; i < nparams; i++) {
		const struct param *q = &params[i];
		char val[512];

		if (!q->feature[0])
			continue;
		if (!q->key_name[0])
			snprintf(val, sizeof(val), "32'd1");
		else if (q->has_zero && q->zero_param >= 0)
			snprintf(val, sizeof(val), "((%.63s == 0) ? %.63s : %.63s)", q->name,
				 params[q->zero_param].name, q->name);
		else if (q->has_zero)
			snprintf(val, sizeof(val), "((%.63s == 0) ? %lu : %.63s)", q->name, q->zero_val,
				 q->name);
		else
			snprintf(val, sizeof(val), "%.63s", q->name);
		if (!q->key_name[0])
			fprintf(o.f, "    %s((%s != 0) ? (32'd1 << HWS_FEATURES_%s_LSB) : 32'd0)",
				first ? "  " : "| ", q->name, q->feature);
		else if (q->needs >= 0)
			fprintf(o.f, "    %s((%s != 0) ? ((32'd0 | %s) << HWS_FEATURES_%s_LSB) : 32'd0)",
				first ? "  " : "| ", params[q->needs].name, val, q->feature);
		else
			fprintf(o.f, "    %s((32'd0 | %s) << HWS_FEATURES_%s_LSB)", first ? "  " : "| ",
				val, q->feature);
		fprintf(o.f, " \\\n");
		first = 0;
	}
	fprintf(o.f, "  )\n`endif\n");
	close_out(&o);
}

static void gen_check(const char *path)
{
	struct out o;
	FILE *f;

	open_out(&o, path);
	f = o.f;
	fprintf(f, "%s", HEAD_V);
	fprintf(f, "// hws_top's parameter check: `include it in the module body, after hws_params.vh.\n"
		   "// An illegal value stops elaboration ($error in a generate block; Icarus has no\n"
		   "// elaboration-time $error) and, in simulation, time 0 ($fatal: Verilator -Wno-fatal\n"
		   "// makes the $error a warning).\n");
	for (int pass = 0; pass < 2; pass++) {
		fprintf(f, pass ? "`ifndef SYNTHESIS\n  initial if (" :
				  "`ifndef __ICARUS__\n  generate\n    if (");
		for (int i = 0; i < nparams; i++)
			fprintf(f, "%s`HWS_PARAM_BAD_%s", i ? " ||\n        " : "", params[i].name);
		fprintf(f, pass ? ")\n    $fatal(1, \"" : ") begin : g_bad_param\n      $error(\"");
		fprintf(f, "hws_top: illegal parameters");
		for (int i = 0; i < nparams; i++) {
			fprintf(f, " %s=%%0d (", params[i].name);
			v_range_text(f, &params[i]);
			fprintf(f, ")");
		}
		fprintf(f, "\",\n             ");
		for (int i = 0; i < nparams; i++)
			fprintf(f, "%s%s", i ? ", " : "", params[i].name);
		fprintf(f, pass ? ");\n`endif\n" : ");\n    end\n  endgenerate\n`endif\n");
	}
	close_out(&o);
}

/* ---- cli/cli_param_opts.h ---- */

/* The largest value an option takes: MAX, or the largest MAX of the parameter it names. */
static unsigned long cli_max(const struct param *q)
{
	return q->max_param >= 0 ? params[q->max_param].max : q->max;
}

static void gen_cli(const char *path)
{
	static const char *const cmd[] = { "L", "CLI_LOCKSTEP", "R", "CLI_RUN", "V", "CLI_VP",
					   "P", "CLI_REPLAY", "I", "CLI_TRACE_INFO" };
	char slots[MAX_CLI][32];
	int nslots = 0;
	struct out o;

	open_out(&o, path);
	fprintf(o.f, "%s", HEAD_C);
	fprintf(o.f, "/* hwsched's options that set engine parameters (regmap/params.def's cli lines), for\n"
		     " * cli/cli_options.c only: CLI_PARAM_OPTS_<slot>, rows of its option table where the\n"
		     " * slot belongs; cli_param_opts[], what set_param() sets. In a help, {range} and\n"
		     " * {default} are the first parameter's. */\n\n");
	for (int k = 0; k < nclis; k++) {
		int s;

		for (s = 0; s < nslots && strcmp(slots[s], clis[k].slot); s++)
			;
		if (s < nslots)
			continue;
		snprintf(slots[nslots++], sizeof(slots[0]), "%s", clis[k].slot);
		fprintf(o.f, "#define CLI_PARAM_OPTS_%s", clis[k].slot);
		for (int j = k; j < nclis; j++) {
			const struct cli *c = &clis[j];
			const struct param *q = &params[c->p[0]];
			const char *h;

			if (strcmp(c->slot, clis[k].slot))
				continue;
			fprintf(o.f, " \\\n\t{ \"%s\", ", c->option);
			if (strcmp(c->arg, "-"))
				fprintf(o.f, "\"%s\", ", c->arg);
			else
				fprintf(o.f, "NULL, ");
			for (const char *m = c->cmds; *m; m++)
				for (unsigned t = 0; t < sizeof(cmd) / sizeof(cmd[0]); t += 2)
					if (*m == cmd[t][0])
						fprintf(o.f, "%s%s", m == c->cmds ? "" : " | ", cmd[t + 1]);
			fprintf(o.f, ", set_param, \"");
			for (h = c->help; *h; h++) {
				if (!strncmp(h, "{range}", 7)) {
					fprintf(o.f, "%lu..%lu", q->min, cli_max(q));
					h += 6;
				} else if (!strncmp(h, "{default}", 9)) {
					fprintf(o.f, "%lu", q->defv);
					h += 8;
				} else {
					fputc(*h, o.f);
				}
			}
			fprintf(o.f, "\" },");
		}
		fprintf(o.f, "\n\n");
	}
	fprintf(o.f, "static const struct cli_param_opt cli_param_opts[] = {\n");
	for (int k = 0; k < nclis; k++) {
		const struct cli *c = &clis[k];
		const struct param *q = &params[c->p[0]];

		fprintf(o.f, "\t{ \"%s\", ", c->option);
		for (const char *m = c->cmds; *m; m++)
			for (unsigned t = 0; t < sizeof(cmd) / sizeof(cmd[0]); t += 2)
				if (*m == cmd[t][0])
					fprintf(o.f, "%s%s", m == c->cmds ? "" : " | ", cmd[t + 1]);
		fprintf(o.f, ", { %d, %d }, %lu, %lu },\n", c->p[0], c->p[1],
			q->key_name[0] ? q->min : 1, q->key_name[0] ? cli_max(q) : 1);
	}
	fprintf(o.f, "};\n");
	close_out(&o);
}

/* ---- the table of docs/accelerator.md section 1 ---- */

static const char *const BEGIN = "<!-- params:begin (make gen writes this table from regmap/params.def) -->\n";
static const char *const END = "<!-- params:end -->\n";

static void gen_doc(const char *in, const char *out_path)
{
	char *text, *b, *e, g[512];
	long size;
	FILE *f = fopen(in, "r");
	struct out o;

	def_path = in;
	if (!f || fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
		die(0, "cannot read");
	text = malloc((size_t)size + 1);
	if (!text || fread(text, 1, (size_t)size, f) != (size_t)size)
		die(0, "cannot read");
	text[size] = '\0';
	fclose(f);
	b = strstr(text, BEGIN);
	e = b ? strstr(b, END) : NULL;
	if (!b || !e)
		die(0, "no markers %.*s ... %.*s", (int)strlen(BEGIN) - 1, BEGIN,
		    (int)strlen(END) - 1, END);
	grammar(g, sizeof(g));
	open_out(&o, out_path);
	fwrite(text, 1, (size_t)(b - text) + strlen(BEGIN), o.f);
	fprintf(o.f, "| parameter | default | legal | `struct hws_params` | shape key | `FEATURES` | meaning | why |\n"
		     "|---|---|---|---|---|---|---|---|\n");
	for (int i = 0; i < nparams; i++) {
		const struct param *q = &params[i];
		char mx[32], part[64];

		key_part(q, part, sizeof(part));
		fprintf(o.f, "| `%s` | %lu | ", q->name, q->defv);
		if (!q->key_name[0])
			fprintf(o.f, "0, 1");
		else
			fprintf(o.f, "%lu..%s", q->min, max_text(q, mx, sizeof(mx)));
		if (q->has_zero && q->key_name[0] && q->defv == 0)
			fprintf(o.f, " (0: %s)", q->zero_param >= 0 ? params[q->zero_param].name : "");
		fprintf(o.f, " | `%s%s`", q->inverted ? "!" : "", q->field);
		if (q->has_zero && q->key_name[0]) {
			if (q->zero_param >= 0)
				fprintf(o.f, " (0 means %s)", params[q->zero_param].field);
			else
				fprintf(o.f, " (0 means %lu)", q->zero_val);
		}
		fprintf(o.f, " | `%s`", part);
		if (q->key_optional) {
			if (q->implied_param >= 0)
				fprintf(o.f, " unless = `%s`", params[q->implied_param].name);
			else
				fprintf(o.f, " unless %lu", q->implied_val);
		}
		if (q->needs >= 0)
			fprintf(o.f, "; needs `%s`", params[q->needs].name);
		fprintf(o.f, " | %s | %s | %s |\n", q->feature[0] ? q->feature : "-", q->meaning,
			q->source);
	}
	fprintf(o.f, "\nThe shape key (docs/shapes.md): `%s`.\n", g);
	fputs(e, o.f);
	close_out(&o);
	free(text);
}

int main(int argc, char **argv)
{
	if (argc != 10) {
		fprintf(stderr, "usage: params_gen REGMAP.def PARAMS.def OUT_LIST.h OUT_TABLE.h "
				"OUT.vh OUT_CHECK.vh OUT_CLI.h DOC_IN.md DOC_OUT.md\n");
		return 2;
	}
	read_regmap(argv[1]);
	read_params(argv[2]);
	gen_list(argv[3]);
	gen_table(argv[4]);
	gen_vh(argv[5]);
	gen_check(argv[6]);
	gen_cli(argv[7]);
	gen_doc(argv[8], argv[9]);
	return 0;
}
