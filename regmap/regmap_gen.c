/*
 * regmap_gen - turn regmap/regmap.def into the Verilog include, the Verilog load-weight
 * function, the C header and the Markdown tables of the register map.
 *
 * Usage: regmap_gen DEF OUT.vh OUT.h OUT.md OUT_WEIGHT.vh OUT_DECODE.vh
 *
 * The definition file is the only place the register map is written down; every name it
 * defines becomes HWS_<...> on both sides, so a renamed field breaks the RTL and the C
 * code at build time. Its weight lines (Linux's prio_to_weight[]) become HWS_PRIO_TO_WEIGHT
 * in C (lib/hws_weight.c) and the function hws_weight_fn in Verilog. Its reg lines' offsets
 * and access rules (and vec lines, the register arrays) also become the RTL's address
 * decode (OUT_DECODE.vh: the read mux and the write select). Errors name the file and line.
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ITEMS 256
#define MAX_TOK 8

enum kind { K_CONST, K_REG, K_FIELD, K_OP, K_ERR, K_SEL, K_WEIGHT, K_VEC };

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
		{ "weight", K_WEIGHT, 2 }, { "vec", K_VEC, 3 },
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
		case K_VEC:	/* in the decode include */
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
		case K_VEC:	/* the RTL's read mux only */
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
		[K_VEC] = "## Register arrays of the RTL's read mux\n\n| vector | first register | "
			  "registers | meaning |\n|---|---|---|---|\n",
	};
	FILE *f = open_out(path);
	int k, i;

	fprintf(f, "<!-- GENERATED by regmap/regmap_gen.c from regmap/regmap.def: do not edit. -->\n");
	fprintf(f, "# hwsched register map\n\nThe tables of docs/accelerator.md, generated from "
		   "regmap/regmap.def.\nThe same lines generate the RTL's address decode, "
		   "rtl/hws_regs_decode.vh: the read mux\nover the readable registers (RO, RW; "
		   "the register arrays below are each read from one\nvector), the write select of "
		   "the writable ones (WO, RW), and the pages of the POP, PEEKW\nand CURR windows "
		   "(docs/accelerator.md 4.5).\n\n");
	for (k = K_CONST; k <= K_VEC; k++) {
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
			case K_VEC:
				fprintf(f, "| %s | %s | %lu | %s |\n", it->tok[0], it->tok[1],
					num(it, 2), it->desc);
				break;
			}
		}
		fputs("\n", f);
	}
	close_out(f, path);
}

/* The register with offset @off, or NULL. */
static const struct item *reg_at(unsigned long off)
{
	int i;

	for (i = 0; i < nitems; i++)
		if (items[i].kind == K_REG && num(&items[i], 1) == off)
			return &items[i];
	return NULL;
}

static int readable(const struct item *r)
{
	return strcmp(r->tok[2], "WO") != 0;
}

static int writable(const struct item *r)
{
	return strcmp(r->tok[2], "RO") != 0;
}

/* The page (address bits ADDR_W-1:8) of window base const @name: a whole page of its own. */
static unsigned long page_of(const char *name)
{
	unsigned long base = const_of(name), aw = const_of("ADDR_W");

	if (base & 0xff || base == 0 || base >= 1ul << aw)
		die(0, "a window base must be a nonzero multiple of 0x100 below 2^ADDR_W", name);
	return base >> 8;
}

/* vec lines: a register, then COUNT - 1 more at the next words, all readable. */
static void check_vecs(void)
{
	int i, j;

	for (i = 0; i < nitems; i++) {
		const struct item *v = &items[i];
		const struct item *first = NULL;
		unsigned long k;

		if (v->kind != K_VEC)
			continue;
		for (j = 0; j < nitems; j++)
			if (items[j].kind == K_REG && !strcmp(items[j].tok[0], v->tok[1]))
				first = &items[j];
		if (!first)
			die(v->line, "vec: no such register", v->tok[1]);
		if (num(v, 2) < 1)
			die(v->line, "vec: COUNT must be at least 1", v->tok[2]);
		for (k = 0; k < num(v, 2); k++) {
			const struct item *r = reg_at(num(first, 1) + 4 * k);

			if (!r || !readable(r))
				die(v->line, "vec: its registers must be readable, at consecutive words",
				    v->tok[0]);
		}
		for (j = 0; j < nitems; j++)
			if (items[j].kind == K_REG && !strcmp(items[j].tok[0], v->tok[0]))
				die(v->line, "vec: a register has this name", v->tok[0]);
	}
}

/*
 * The bus address decode of the RTL (rtl/hws_regs_decode.vh): the pages of the address,
 * the one-hot write select of the writable registers, the read mux over the readable ones
 * (their values in one vector, the registers by offset; a vec line's registers are
 * consecutive words of it). The model takes the same rule from HWS_FOR_EACH_REG.
 */
static void gen_decode_vh(const char *path)
{
	FILE *f = open_out(path);
	const unsigned long aw = const_of("ADDR_W"), hi = aw - 1;
	const unsigned long pg_w = aw - 8;
	unsigned long pop_pg, peek_pg, curr_pg, off, pbit;
	int i, nrd = 0, nwr = 0;

	if (aw < 9 || aw > 16)
		die(0, "ADDR_W must be 9..16", NULL);
	if (4 * const_of("POP_WORDS") != 0x100)
		die(0, "POP_WORDS must fill one 0x100-byte page (64 words)", NULL);
	pop_pg = page_of("POP_BASE");
	peek_pg = page_of("PEEK_BASE");
	curr_pg = page_of("CURR_BASE");
	if (pop_pg == peek_pg || pop_pg == curr_pg || peek_pg == curr_pg)
		die(0, "POP_BASE, PEEK_BASE and CURR_BASE must be distinct pages", NULL);

	fprintf(f, "// GENERATED by regmap/regmap_gen.c from regmap/regmap.def: do not edit.\n");
	fprintf(f, "// hws_regs_decode.vh: the bus address decode of the register map: the pages of "
		   "an address,\n// the write select and the read mux of the registers (hws_port_fe, "
		   "hws_top).\n// Include inside a module body, after hws_regs.vh.\n//\n");
	fprintf(f, "// An address has HWS_ADDR_W = %lu bits; bits %lu:8 are its 0x100-byte page: "
		   "0 the registers,\n// %lu the POP window, %lu the PEEKW window, %lu the CURR "
		   "window (POP_BASE, PEEK_BASE,\n// CURR_BASE: a word per CPU, HWS_POP_WORDS of them).\n\n",
		aw, hi, pop_pg, peek_pg, curr_pg);

	fprintf(f, "// The readable registers (RO, RW), by offset: HWS_RD_<name> is the register's word in\n"
		   "// the value vector of hws_rd_fn, at [HWS_RD_<name>*32 +: 32].\n");
	for (off = 0; off < 0x100; off += 4) {
		const struct item *r = reg_at(off);

		if (r && readable(r))
			fprintf(f, "localparam integer HWS_RD_%s = %d; // 0x%02lx %s\n", r->tok[0],
				nrd++, off, r->tok[2]);
	}
	fprintf(f, "localparam integer HWS_RD_N = %d; // readable registers\n", nrd);
	fprintf(f, "// Register arrays (vec lines): HWS_RD_<vec> is the word of the first, "
		   "HWS_RD_<vec>_N\n// how many consecutive words\n");
	for (i = 0; i < nitems; i++) {
		const struct item *v = &items[i];

		if (v->kind != K_VEC)
			continue;
		fprintf(f, "localparam integer HWS_RD_%s = HWS_RD_%s; // %s\n", v->tok[0], v->tok[1],
			v->desc);
		fprintf(f, "localparam integer HWS_RD_%s_N = %lu;\n", v->tok[0], num(v, 2));
	}
	fprintf(f, "// The writable registers (WO, RW), by offset: bit HWS_WR_<name> of hws_wr_fn\n");
	for (off = 0; off < 0x100; off += 4) {
		const struct item *r = reg_at(off);

		if (r && writable(r))
			fprintf(f, "localparam integer HWS_WR_%s = %d; // 0x%02lx %s\n", r->tok[0],
				nwr++, off, r->tok[2]);
	}
	fprintf(f, "localparam integer HWS_WR_N = %d; // writable registers\n\n", nwr);

	fprintf(f, "// (each function takes the whole address; the page functions read some of its bits)\n"
		   "/* verilator lint_off UNUSEDSIGNAL */\n");
	fprintf(f, "// 1: address a is in the register page\n"
		   "function automatic hws_pg_regs_fn(input [HWS_ADDR_W-1:0] a);\n"
		   "  hws_pg_regs_fn = (a[%lu:8] == %lu'd0);\nendfunction\n\n", hi, pg_w);
	fprintf(f, "// 1: address a is a word of the POP or the PEEKW window (a read of it pushes "
		   "PICK_NEXT\n// or PEEK of CPU a[7:2])\n"
		   "function automatic hws_win_pop_fn(input [HWS_ADDR_W-1:0] a);\n"
		   "  hws_win_pop_fn = ((a[%lu:8] == %lu'd%lu) || (a[%lu:8] == %lu'd%lu)) && "
		   "(a[1:0] == 2'b00);\nendfunction\n\n", hi, pg_w, pop_pg, hi, pg_w, peek_pg);
	/* within the two windows, the lowest page bit in which their pages differ tells them apart */
	for (pbit = 0; !(((pop_pg ^ peek_pg) >> pbit) & 1); pbit++)
		;
	fprintf(f, "// 1: address a, a word of the POP or the PEEKW window, is PEEKW's (page bit %lu, the\n"
		   "// lowest in which the two pages differ; meaningless for another address)\n"
		   "function automatic hws_win_peek_fn(input [HWS_ADDR_W-1:0] a);\n"
		   "  hws_win_peek_fn = (a[%lu] == 1'b%lu);\nendfunction\n\n",
		8 + pbit, 8 + pbit, (peek_pg >> pbit) & 1);
	fprintf(f, "// 1: address a is a word of the CURR window, CURR[a[7:2]] (whether that CPU "
		   "exists is the\n// caller's to check)\n"
		   "function automatic hws_win_curr_fn(input [HWS_ADDR_W-1:0] a);\n"
		   "  hws_win_curr_fn = (a[%lu:8] == %lu'd%lu) && (a[1:0] == 2'b00);\nendfunction\n",
		hi, pg_w, curr_pg);

	fprintf(f, "/* verilator lint_on UNUSEDSIGNAL */\n\n");
	fprintf(f, "// The write select of address a: bit HWS_WR_<name> set when a names that "
		   "register; 0 when\n// a names no writable register\n"
		   "function automatic [HWS_WR_N-1:0] hws_wr_fn(input [HWS_ADDR_W-1:0] a);\n"
		   "  begin\n    hws_wr_fn = {HWS_WR_N{1'b0}};\n    if (a[%lu:8] == %lu'd0)\n"
		   "      case (a[7:0])\n", hi, pg_w);
	for (off = 0; off < 0x100; off += 4) {
		const struct item *r = reg_at(off);

		if (r && writable(r))
			fprintf(f, "        HWS_REG_%s: hws_wr_fn[HWS_WR_%s] = 1'b1;\n", r->tok[0],
				r->tok[0]);
	}
	fprintf(f, "        default: hws_wr_fn = {HWS_WR_N{1'b0}};\n      endcase\n  end\n"
		   "endfunction\n\n");

	fprintf(f, "// 1: address a names a readable register (the windows are the caller's)\n"
		   "function automatic hws_rd_ok_fn(input [HWS_ADDR_W-1:0] a);\n"
		   "  begin\n    hws_rd_ok_fn = 1'b0;\n    if (a[%lu:8] == %lu'd0)\n"
		   "      case (a[7:0])\n", hi, pg_w);
	for (off = 0; off < 0x100; off += 4) {
		const struct item *r = reg_at(off);

		if (r && readable(r))
			fprintf(f, "        HWS_REG_%s: hws_rd_ok_fn = 1'b1;\n", r->tok[0]);
	}
	fprintf(f, "        default: hws_rd_ok_fn = 1'b0;\n      endcase\n  end\nendfunction\n\n");

	fprintf(f, "// The read mux: the word of address a, v the values of the readable registers\n"
		   "// (HWS_RD_<name>); 0 when a names no readable register (hws_rd_ok_fn)\n"
		   "function automatic [31:0] hws_rd_fn(input [HWS_ADDR_W-1:0] a, "
		   "input [HWS_RD_N*32-1:0] v);\n"
		   "  begin\n    hws_rd_fn = 32'd0;\n    if (a[%lu:8] == %lu'd0)\n"
		   "      case (a[7:0])\n", hi, pg_w);
	for (off = 0; off < 0x100; off += 4) {
		const struct item *r = reg_at(off);

		if (r && readable(r))
			fprintf(f, "        HWS_REG_%s: hws_rd_fn = v[HWS_RD_%s*32 +: 32];\n",
				r->tok[0], r->tok[0]);
	}
	fprintf(f, "        default: hws_rd_fn = 32'd0;\n      endcase\n  end\nendfunction\n");
	close_out(f, path);
}

int main(int argc, char **argv)
{
	FILE *f;

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("usage: regmap_gen DEF OUT.vh OUT.h OUT.md OUT_WEIGHT.vh OUT_DECODE.vh\n"
		       "Generates the Verilog include, C header, Markdown tables, Verilog\n"
		       "load-weight function and Verilog address decode (read mux, write\n"
		       "select) of the register map from its definition file (regmap/regmap.def).\n");
		return 0;
	}
	if (argc != 7) {
		fprintf(stderr, "usage: regmap_gen DEF OUT.vh OUT.h OUT.md OUT_WEIGHT.vh "
				"OUT_DECODE.vh (--help for more)\n");
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
	check_vecs();
	gen_verilog(argv[2]);
	gen_c(argv[3]);
	gen_md(argv[4]);
	gen_weight_vh(argv[5]);
	gen_decode_vh(argv[6]);
	return 0;
}
