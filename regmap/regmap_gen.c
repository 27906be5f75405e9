/*
 * regmap_gen - turn regmap/regmap.def into the Verilog include, the Verilog load-weight
 * function, the C header and the Markdown tables of the register map.
 *
 * Usage: regmap_gen DEF OUT.vh OUT.h OUT.md OUT_WEIGHT.vh
 *
 * The definition file is the only place the register map is written down; every name it
 * defines becomes HWS_<...> on both sides, so a renamed field breaks the RTL and the C
 * code at build time. Its weight lines (Linux's prio_to_weight[]) become HWS_PRIO_TO_WEIGHT
 * in C (lib/hws_weight.c) and the function hws_weight_fn in Verilog. Errors name the file
 * and line.
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ITEMS 256
#define MAX_TOK 8

enum kind { K_CONST, K_REG, K_FIELD, K_OP, K_ERR, K_SEL, K_WEIGHT };

struct item {
	enum kind kind;
	char tok[MAX_TOK][48];	/* the blank-separated words after the kind */
	int ntok;
	char desc[256];		/* text after '|' */
	int line;
};

static struct item items[MAX_ITEMS];
static int nitems;
static const char *def_path;

static void die(int line, const char *msg, const char *what)
{
	if (line)
		fprintf(stderr, "%s:%d: ", def_path, line);
	else
		fprintf(stderr, "%s: ", def_path);
	fprintf(stderr, "%s%s%s\n", msg, what ? ": " : "", what ? what : "");
	exit(1);
}

static unsigned long num(const struct item *it, int i)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(it->tok[i], &end, 0);
	if (errno || *end)
		die(it->line, "not a number", it->tok[i]);
	return v;
}

static void parse(FILE *f)
{
	static const struct { const char *name; enum kind kind; int ntok; } kinds[] = {
		{ "const", K_CONST, 2 }, { "reg", K_REG, 3 }, { "field", K_FIELD, 4 },
		{ "op", K_OP, 4 }, { "err", K_ERR, 3 }, { "sel", K_SEL, 3 },
		{ "weight", K_WEIGHT, 2 },
	};
	char buf[512];
	int line = 0;

	while (fgets(buf, sizeof(buf), f)) {
		char *bar, *p, *w;
		struct item *it;
		size_t k;

		line++;
		if (!strchr(buf, '\n') && !feof(f))
			die(line, "line too long", NULL);
		p = buf;
		while (isspace((unsigned char)*p))
			p++;
		if (*p == '#' || *p == '\0')
			continue;
		if (nitems == MAX_ITEMS)
			die(line, "too many definitions", NULL);
		it = &items[nitems];
		memset(it, 0, sizeof(*it));
		it->line = line;
		bar = strchr(p, '|');
		if (!bar)
			die(line, "missing '|' before the description", NULL);
		*bar++ = '\0';
		while (isspace((unsigned char)*bar))
			bar++;
		bar[strcspn(bar, "\n")] = '\0';
		snprintf(it->desc, sizeof(it->desc), "%s", bar);
		w = strtok(p, " \t");
		for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
			if (!strcmp(w, kinds[k].name))
				break;
		if (k == sizeof(kinds) / sizeof(kinds[0]))
			die(line, "unknown kind", w);
		it->kind = kinds[k].kind;
		while ((w = strtok(NULL, " \t\n")) != NULL) {
			if (it->ntok == MAX_TOK)
				die(line, "too many words", NULL);
			if (strlen(w) >= sizeof(it->tok[0]))
				die(line, "word too long", w);
			strcpy(it->tok[it->ntok++], w);
		}
		if (it->ntok != kinds[k].ntok)
			die(line, "wrong number of words for", kinds[k].name);
		nitems++;
	}
}

/* The value of const @name (it must be defined). */
static unsigned long const_of(const char *name)
{
	int i;

	for (i = 0; i < nitems; i++)
		if (items[i].kind == K_CONST && !strcmp(items[i].tok[0], name))
			return num(&items[i], 1);
	die(0, "missing const", name);
	return 0;
}

/* The weight of @prio (MAX_RT_PRIO..NR_PRIO-1); check() made sure there is one. */
static unsigned long weight_of(unsigned long prio)
{
	int i;

	for (i = 0; i < nitems; i++)
		if (items[i].kind == K_WEIGHT && num(&items[i], 0) == prio)
			return num(&items[i], 1);
	die(0, "no weight line for priority", NULL);
	return 0;
}

/* Exactly one weight per non-real-time priority, each (and RT_WEIGHT) fitting WEIGHT_W bits. */
static void check_weights(void)
{
	unsigned long lo = const_of("MAX_RT_PRIO"), hi = const_of("NR_PRIO"), p;
	unsigned long ww = const_of("WEIGHT_W");
	int i, n = 0;

	if (ww < 1 || ww > 31)
		die(0, "WEIGHT_W must be 1..31", NULL);
	if (const_of("RT_WEIGHT") >= 1ul << ww)
		die(0, "RT_WEIGHT does not fit WEIGHT_W bits", NULL);
	for (i = 0; i < nitems; i++) {
		if (items[i].kind != K_WEIGHT)
			continue;
		p = num(&items[i], 0);
		if (p < lo || p >= hi)
			die(items[i].line, "weight of a priority outside MAX_RT_PRIO..NR_PRIO-1",
			    items[i].tok[0]);
		if (num(&items[i], 1) < 1 || num(&items[i], 1) >= 1ul << ww)
			die(items[i].line, "weight must be 1..2^WEIGHT_W-1", items[i].tok[1]);
		n++;
	}
	if ((unsigned long)n != hi - lo)
		die(0, "need one weight line per priority MAX_RT_PRIO..NR_PRIO-1", NULL);
	for (p = lo; p < hi; p++)
		weight_of(p);
}

/* Names of registers are unique, offsets word-aligned and distinct; fields fit in 32 bits. */
static void check(void)
{
	int i, j;

	for (i = 0; i < nitems; i++) {
		const struct item *a = &items[i];

		if (a->kind == K_REG) {
			if (num(a, 1) & 3 || num(a, 1) > 0xff)
				die(a->line, "offset not word-aligned in 0x00..0xFC", a->tok[1]);
			if (strcmp(a->tok[2], "RO") && strcmp(a->tok[2], "WO") &&
			    strcmp(a->tok[2], "RW"))
				die(a->line, "access must be RO, WO or RW", a->tok[2]);
		}
		if (a->kind == K_FIELD && num(a, 2) + num(a, 3) > 32)
			die(a->line, "field passes bit 31", a->tok[1]);
		if (a->kind == K_OP && (num(a, 1) > 15 || num(a, 2) < 1 || num(a, 3) > 1))
			die(a->line, "op needs code 0..15, latency >= 1, result 0/1", a->tok[0]);
		for (j = 0; j < i; j++) {
			const struct item *b = &items[j];

			if (a->kind != b->kind)
				continue;
			if (a->kind == K_REG && num(a, 1) == num(b, 1))
				die(a->line, "offset used twice", a->tok[1]);
			if ((a->kind == K_OP || a->kind == K_ERR) && num(a, 1) == num(b, 1))
				die(a->line, "code used twice", a->tok[1]);
			if (a->kind == K_WEIGHT) {
				if (num(a, 0) == num(b, 0))
					die(a->line, "priority weighed twice", a->tok[0]);
				continue;
			}
			if (a->kind == K_FIELD || a->kind == K_SEL) {
				if (!strcmp(a->tok[0], b->tok[0]) && !strcmp(a->tok[1], b->tok[1]))
					die(a->line, "name used twice", a->tok[1]);
			} else if (!strcmp(a->tok[0], b->tok[0])) {
				die(a->line, "name used twice", a->tok[0]);
			}
		}
	}
}

static FILE *open_out(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		fprintf(stderr, "regmap_gen: cannot write %s: %s\n", path, strerror(errno));
		exit(1);
	}
	return f;
}

static void close_out(FILE *f, const char *path)
{
	if (ferror(f) || fclose(f)) {
		fprintf(stderr, "regmap_gen: error writing %s\n", path);
		exit(1);
	}
}

/* The opcodes that push a result word (the op lines' RESULT column), as a bit mask. */
static unsigned long res_ops(void)
{
	unsigned long m = 0;
	int i;

	for (i = 0; i < nitems; i++)
		if (items[i].kind == K_OP && num(&items[i], 3))
			m |= 1ul << num(&items[i], 1);
	return m;
}

static void gen_verilog(const char *path)
{
	FILE *f = open_out(path);
	int i;

	fprintf(f, "// GENERATED by regmap/regmap_gen.c from regmap/regmap.def: do not edit.\n");
	fprintf(f, "// Include inside a module body: these are localparams.\n");
	for (i = 0; i < nitems; i++) {
		const struct item *it = &items[i];

		switch (it->kind) {
		case K_CONST:
			fprintf(f, "localparam [31:0] HWS_%s = 32'd%lu; // %s\n", it->tok[0],
				num(it, 1), it->desc);
			break;
		case K_REG:
			fprintf(f, "localparam [7:0] HWS_REG_%s = 8'h%02lx; // %s %s\n", it->tok[0],
				num(it, 1), it->tok[2], it->desc);
			break;
		case K_FIELD:
			fprintf(f, "localparam integer HWS_%s_%s_LSB = %lu; // %s\n", it->tok[0],
				it->tok[1], num(it, 2), it->desc);
			fprintf(f, "localparam integer HWS_%s_%s_W = %lu;\n", it->tok[0], it->tok[1],
				num(it, 3));
			break;
		case K_OP:
			fprintf(f, "localparam [3:0] HWS_OP_%s = 4'd%lu; // %s\n", it->tok[0],
				num(it, 1), it->desc);
			fprintf(f, "localparam integer HWS_LAT_%s = %lu;\n", it->tok[0], num(it, 2));
			break;
		case K_ERR:
			fprintf(f, "localparam [7:0] HWS_ERR_%s = 8'd%lu; // %s\n", it->tok[0],
				num(it, 1), it->desc);
			break;
		case K_SEL:
			fprintf(f, "localparam [7:0] HWS_SEL_%s_%s = 8'd%lu; // %s\n", it->tok[0],
				it->tok[1], num(it, 2), it->desc);
			break;
		case K_WEIGHT:	/* in the weight function */
			break;
		}
	}
	fprintf(f, "localparam [15:0] HWS_RES_OPS = 16'h%04lx; // bit n: opcode n pushes a result word\n",
		res_ops());
	close_out(f, path);
}

/* The load-weight function of the RTL: a case over the weight lines. */
static void gen_weight_vh(const char *path)
{
	FILE *f = open_out(path);
	unsigned long lo = const_of("MAX_RT_PRIO"), hi = const_of("NR_PRIO"), p;
	unsigned long ww = const_of("WEIGHT_W");

	fprintf(f, "// GENERATED by regmap/regmap_gen.c from regmap/regmap.def: do not edit.\n");
	fprintf(f, "// hws_weight_fn.vh: load weight of a priority, shared by hws_weight (the datapath) "
		   "and the\n// simulation-only checks of hws_rq_engine. Include inside a module "
		   "body, after hws_regs.vh.\n//\n");
	fprintf(f, "// prio 0..%lu (real-time): HWS_RT_WEIGHT = %lu, twice the nice -20 weight, as "
		   "Linux\n// 2.6.24+ set_load_weight(); prio %lu..%lu: the weight lines of "
		   "regmap.def (Linux\n// prio_to_weight[prio - %lu]); prio >= %lu never reaches the "
		   "datapath with a meaning and weighs 0.\n",
		lo - 1, const_of("RT_WEIGHT"), lo, hi - 1, lo, hi);
	fprintf(f, "function automatic [HWS_WEIGHT_W-1:0] hws_weight_fn;\n  input [7:0] prio;\n"
		   "  begin\n    case (prio)\n");
	for (p = lo; p < hi; p++)
		fprintf(f, "      8'd%lu: hws_weight_fn = %lu'd%lu;\n", p, ww, weight_of(p));
	fprintf(f, "      default: hws_weight_fn = (prio < HWS_MAX_RT_PRIO[7:0]) ? "
		   "HWS_RT_WEIGHT[HWS_WEIGHT_W-1:0] : %lu'd0;\n"
		   "    endcase\n  end\nendfunction\n", ww);
	close_out(f, path);
}

static void gen_c(const char *path)
{
	FILE *f = open_out(path);
	int i;

	fprintf(f, "/* GENERATED by regmap/regmap_gen.c from regmap/regmap.def: do not edit. */\n");
	fprintf(f, "#ifndef HWS_REGS_H\n#define HWS_REGS_H\n\n");
	for (i = 0; i < nitems; i++) {
		const struct item *it = &items[i];

		switch (it->kind) {
		case K_CONST:
			fprintf(f, "#define HWS_%s %luu /* %s */\n", it->tok[0], num(it, 1), it->desc);
			break;
		case K_REG:
			fprintf(f, "#define HWS_REG_%s 0x%02lxu /* %s %s */\n", it->tok[0],
				num(it, 1), it->tok[2], it->desc);
			break;
		case K_FIELD:
			fprintf(f, "#define HWS_%s_%s_LSB %lu /* %s */\n", it->tok[0], it->tok[1],
				num(it, 2), it->desc);
			fprintf(f, "#define HWS_%s_%s_W %lu\n", it->tok[0], it->tok[1], num(it, 3));
			fprintf(f, "#define HWS_%s_%s_MASK 0x%08lxu\n", it->tok[0], it->tok[1],
				(unsigned long)(((1ull << num(it, 3)) - 1) << num(it, 2)));
			break;
		case K_OP:
			fprintf(f, "#define HWS_OP_%s %lu /* %s */\n", it->tok[0], num(it, 1), it->desc);
			fprintf(f, "#define HWS_LAT_%s %lu\n", it->tok[0], num(it, 2));
			fprintf(f, "#define HWS_RESULT_%s %lu\n", it->tok[0], num(it, 3));
			break;
		case K_ERR:
			fprintf(f, "#define HWS_ERR_%s %lu /* %s */\n", it->tok[0], num(it, 1),
				it->desc);
			break;
		case K_SEL:
			fprintf(f, "#define HWS_SEL_%s_%s %lu /* %s */\n", it->tok[0], it->tok[1],
				num(it, 2), it->desc);
			break;
		case K_WEIGHT:	/* in HWS_PRIO_TO_WEIGHT */
			break;
		}
	}
	/* The weight table: an initializer of NR_PRIO - MAX_RT_PRIO entries. */
	fprintf(f, "\n/* Load weights of priorities MAX_RT_PRIO..NR_PRIO-1 (Linux prio_to_weight[]): "
		   "an initializer */\n#define HWS_PRIO_TO_WEIGHT { \\\n");
	for (unsigned long p = const_of("MAX_RT_PRIO"); p < const_of("NR_PRIO"); p++)
		fprintf(f, "\t%luu, /* %lu */ \\\n", weight_of(p), p);
	fprintf(f, "}\n");
	/* Tables the C side needs to iterate over. */
	fprintf(f, "\n/* X-macros: X(name, code, latency, has_result) and X(name, code, errno) */\n");
	fprintf(f, "#define HWS_FOR_EACH_OP(X) \\\n");
	for (i = 0; i < nitems; i++)
		if (items[i].kind == K_OP)
			fprintf(f, "\tX(%s, %lu, %lu, %lu) \\\n", items[i].tok[0], num(&items[i], 1),
				num(&items[i], 2), num(&items[i], 3));
	fprintf(f, "\t/* end */\n#define HWS_FOR_EACH_ERR(X) \\\n");
	for (i = 0; i < nitems; i++)
		if (items[i].kind == K_ERR)
			fprintf(f, "\tX(%s, %lu, %s) \\\n", items[i].tok[0], num(&items[i], 1),
				items[i].tok[2]);
	fprintf(f, "\t/* end */\n#define HWS_FOR_EACH_REG(X) \\\n");
	for (i = 0; i < nitems; i++)
		if (items[i].kind == K_REG)
			fprintf(f, "\tX(%s, 0x%02lxu, %s) \\\n", items[i].tok[0], num(&items[i], 1),
				items[i].tok[2]);
	fprintf(f, "\t/* end */\n\n#endif /* HWS_REGS_H */\n");
	close_out(f, path);
}

static void gen_md(const char *path)
{
	static const char *titles[] = {
		[K_CONST] = "## Constants\n\n| name | value | meaning |\n|---|---|---|\n",
		[K_REG] = "## Registers\n\n| offset | name | access | meaning |\n|---|---|---|---|\n",
		[K_FIELD] = "## Fields\n\n| word | field | bits | meaning |\n|---|---|---|---|\n",
		[K_OP] = "## Opcodes\n\n| code | name | latency (cycles) | result word | meaning |\n"
			 "|---|---|---|---|---|\n",
		[K_ERR] = "## Error codes\n\n| code | name | driver errno | meaning |\n|---|---|---|---|\n",
		[K_SEL] = "## STAT selectors (the PRIO field)\n\n| command | name | value | meaning |\n"
			  "|---|---|---|---|\n",
		[K_WEIGHT] = "## Load weights\n\n| priority | weight | meaning |\n|---|---|---|\n",
	};
	FILE *f = open_out(path);
	int k, i;

	fprintf(f, "<!-- GENERATED by regmap/regmap_gen.c from regmap/regmap.def: do not edit. -->\n");
	fprintf(f, "# hwsched register map\n\nThe tables of docs/accelerator.md, generated from "
		   "regmap/regmap.def.\n\n");
	for (k = K_CONST; k <= K_WEIGHT; k++) {
		fputs(titles[k], f);
		for (i = 0; i < nitems; i++) {
			const struct item *it = &items[i];
			unsigned long lsb, w;

			if ((int)it->kind != k)
				continue;
			switch (it->kind) {
			case K_CONST:
				fprintf(f, "| %s | %s | %s |\n", it->tok[0], it->tok[1], it->desc);
				break;
			case K_REG:
				fprintf(f, "| 0x%02lX | %s | %s | %s |\n", num(it, 1), it->tok[0],
					it->tok[2], it->desc);
				break;
			case K_FIELD:
				lsb = num(it, 2);
				w = num(it, 3);
				if (w == 1)
					fprintf(f, "| %s | %s | %lu | %s |\n", it->tok[0], it->tok[1],
						lsb, it->desc);
				else
					fprintf(f, "| %s | %s | %lu:%lu | %s |\n", it->tok[0],
						it->tok[1], lsb + w - 1, lsb, it->desc);
				break;
			case K_OP:
				fprintf(f, "| %lu | %s | %lu | %s | %s |\n", num(it, 1), it->tok[0],
					num(it, 2), num(it, 3) ? "yes" : "no", it->desc);
				break;
			case K_ERR:
				fprintf(f, "| %lu | %s | %s%s | %s |\n", num(it, 1), it->tok[0],
					strcmp(it->tok[2], "0") ? "-" : "", it->tok[2], it->desc);
				break;
			case K_SEL:
				fprintf(f, "| %s | %s | %lu | %s |\n", it->tok[0], it->tok[1],
					num(it, 2), it->desc);
				break;
			case K_WEIGHT:
				fprintf(f, "| %lu | %lu | %s |\n", num(it, 0), num(it, 1), it->desc);
				break;
			}
		}
		fputs("\n", f);
	}
	close_out(f, path);
}

int main(int argc, char **argv)
{
	FILE *f;

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("usage: regmap_gen DEF OUT.vh OUT.h OUT.md OUT_WEIGHT.vh\n"
		       "Generates the Verilog include, C header, Markdown tables and Verilog\n"
		       "load-weight function of the register map from its definition file\n"
		       "(regmap/regmap.def).\n");
		return 0;
	}
	if (argc != 6) {
		fprintf(stderr, "usage: regmap_gen DEF OUT.vh OUT.h OUT.md OUT_WEIGHT.vh (--help "
				"for more)\n");
		return 2;
	}
	def_path = argv[1];
	f = fopen(def_path, "r");
	if (!f) {
		fprintf(stderr, "regmap_gen: cannot read %s: %s\n", def_path, strerror(errno));
		return 1;
	}
	parse(f);
	fclose(f);
	check();
	check_weights();
	gen_verilog(argv[2]);
	gen_c(argv[3]);
	gen_md(argv[4]);
	gen_weight_vh(argv[5]);
	return 0;
}
