/*
 * hws_parse.c - strict parsing of numbers, durations and key=value lists (hws_parse.h).
 */
#include "lib/hws_parse.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(char *err, size_t len, const char *what, const char *s, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static int fail(char *err, size_t len, const char *what, const char *s, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (err && len) {
		n = snprintf(err, len, "%s '%s': ", what, s);
		if (n >= 0 && (size_t)n < len) {
			va_start(ap, fmt);
			vsnprintf(err + n, len - (size_t)n, fmt, ap);
			va_end(ap);
		}
	}
	return -EINVAL;
}

/* [s, e) all decimal digits, at least one, into *@v; -1 if not, or if over UINT64_MAX. */
static int digits(const char *s, const char *e, uint64_t *v)
{
	uint64_t x = 0;

	if (s >= e)
		return -1;
	for (; s < e; s++) {
		unsigned d;

		if (!isdigit((unsigned char)*s))
			return -1;
		d = (unsigned)(*s - '0');
		if (x > (UINT64_MAX - d) / 10)
			return -2;
		x = x * 10 + d;
	}
	*v = x;
	return 0;
}

int hws_parse_uint(const char *what, const char *s, uint64_t lo, uint64_t hi, uint64_t *out,
		   char *err, size_t len)
{
	uint64_t v;

	if (!s || digits(s, s + strlen(s), &v) || v < lo || v > hi)
		return fail(err, len, what, s ? s : "", "expected a whole number in %llu..%llu",
			    (unsigned long long)lo, (unsigned long long)hi);
	*out = v;
	return 0;
}

int hws_parse_int(const char *what, const char *s, int64_t lo, int64_t hi, int64_t *out,
		  char *err, size_t len)
{
	int neg = s && *s == '-';
	uint64_t m;
	int64_t v;

	if (!s || digits(s + neg, s + strlen(s), &m) || m > (uint64_t)INT64_MAX + neg)
		goto bad;
	v = neg ? (m == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)m) : (int64_t)m;
	if (v < lo || v > hi)
		goto bad;
	*out = v;
	return 0;
bad:
	return fail(err, len, what, s ? s : "", "expected a whole number in %lld..%lld",
		    (long long)lo, (long long)hi);
}

int hws_parse_count(const char *what, const char *s, uint64_t lo, uint64_t hi, uint64_t *out,
		    char *err, size_t len)
{
	size_t n = s ? strlen(s) : 0;
	uint64_t v, mul = 1;

	if (n && (s[n - 1] == 'k' || s[n - 1] == 'K'))
		mul = 1000;
	else if (n && s[n - 1] == 'M')
		mul = 1000000;
	else if (n && s[n - 1] == 'G')
		mul = 1000000000;
	if (!s || digits(s, s + n - (mul > 1), &v) || v > UINT64_MAX / mul || v * mul < lo ||
	    v * mul > hi)
		return fail(err, len, what, s ? s : "",
			    "expected a whole number in %llu..%llu (k, M, G suffixes allowed)",
			    (unsigned long long)lo, (unsigned long long)hi);
	*out = v * mul;
	return 0;
}

/* [s, e) is a decimal real: [-][digits][.digits][(e|E)[+-]digits], a digit in the first part. */
static int is_decimal(const char *s, const char *e)
{
	int nd = 0;

	if (s < e && *s == '-')
		s++;
	for (; s < e && isdigit((unsigned char)*s); s++)
		nd++;
	if (s < e && *s == '.')
		for (s++; s < e && isdigit((unsigned char)*s); s++)
			nd++;
	if (!nd)
		return 0;
	if (s < e && (*s == 'e' || *s == 'E')) {
		int ne = 0;

		s++;
		if (s < e && (*s == '+' || *s == '-'))
			s++;
		for (; s < e && isdigit((unsigned char)*s); s++)
			ne++;
		if (!ne)
			return 0;
	}
	return s == e;
}

/* A decimal real [s, e) into *@v, finite, taken by value whatever its length; -1 if not. */
static int real_of(const char *s, const char *e, double *v)
{
	char *buf, *end;
	int bad;

	if (!is_decimal(s, e))
		return -1;
	buf = strndup(s, (size_t)(e - s));
	if (!buf)
		return -1;
	*v = strtod(buf, &end);
	bad = *end || !isfinite(*v);
	free(buf);
	return bad ? -1 : 0;
}

int hws_parse_real(const char *what, const char *s, double lo, double hi, double *out,
		   char *err, size_t len)
{
	double v;

	if (!s || real_of(s, s + strlen(s), &v) || !(v >= lo && v <= hi))
		return fail(err, len, what, s ? s : "", "expected a number in %g..%g", lo, hi);
	*out = v;
	return 0;
}

int hws_parse_on_off(const char *what, const char *s, int *out, char *err, size_t len)
{
	if (s && !strcmp(s, "on"))
		*out = 1;
	else if (s && !strcmp(s, "off"))
		*out = 0;
	else
		return fail(err, len, what, s ? s : "", "expected on or off");
	return 0;
}

/* A time in ns as the shortest exact text: "1000s", "500ms", "1ns". */
static void ns_text(uint64_t ns, char *buf, size_t len)
{
	static const struct { uint64_t div; const char *u; } units[] = {
		{ 1000000000ull, "s" }, { 1000000ull, "ms" }, { 1000ull, "us" }, { 1ull, "ns" },
	};
	size_t i;

	for (i = 0; i < 3 && (!ns || ns % units[i].div); i++)
		;
	snprintf(buf, len, "%llu%s", (unsigned long long)(ns / units[i].div), units[i].u);
}

int hws_parse_duration(const char *what, const char *s, uint64_t lo_ns, uint64_t hi_ns,
		       uint64_t *ns, char *err, size_t len)
{
	static const struct { const char *u; double scale; } units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
	};
	const char *e = s ? s + strlen(s) : NULL;
	double v, scale = 1e9;
	char a[32], b[32];
	size_t i;

	if (s) {
		for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
			size_t ul = strlen(units[i].u);

			if ((size_t)(e - s) > ul && !strcmp(e - ul, units[i].u) &&
			    isdigit((unsigned char)e[-(long)ul - 1])) {
				scale = units[i].scale;
				e -= ul;
				break;
			}
		}
	}
	if (!s || *s == '-' || real_of(s, e, &v) || !(v * scale >= (double)lo_ns - 0.5) ||
	    !(v * scale < (double)hi_ns + 0.5)) {
		ns_text(lo_ns, a, sizeof(a));
		ns_text(hi_ns, b, sizeof(b));
		return fail(err, len, what, s ? s : "",
			    "expected a duration in %s..%s (a number and s, ms, us or ns; "
			    "no unit: s)", a, b);
	}
	*ns = (uint64_t)llround(v * scale);
	if (*ns < lo_ns)
		*ns = lo_ns;
	if (*ns > hi_ns)
		*ns = hi_ns;
	return 0;
}

int hws_parse_window(const char *what, const char *s, uint64_t hi_ns, uint64_t *from_ns,
		     uint64_t *to_ns, char *err, size_t len)
{
	const char *colon = s ? strchr(s, ':') : NULL;
	char part[64], name[160];
	uint64_t a, b;
	size_t n;

	if (!colon || strchr(colon + 1, ':') || colon == s || !colon[1])
		return fail(err, len, what, s ? s : "",
			    "expected START:END, two durations (e.g. 0.5s:0.6s or 100ms:120ms)");
	n = (size_t)(colon - s);
	if (n >= sizeof(part))
		return fail(err, len, what, s, "START is too long");
	memcpy(part, s, n);
	part[n] = '\0';
	snprintf(name, sizeof(name), "%s '%s': START", what, s);
	if (hws_parse_duration(name, part, 0, hi_ns, &a, err, len))
		return -EINVAL;
	snprintf(name, sizeof(name), "%s '%s': END", what, s);
	if (hws_parse_duration(name, colon + 1, 0, hi_ns, &b, err, len))
		return -EINVAL;
	if (b <= a)
		return fail(err, len, what, s, "END must come after START");
	*from_ns = a;
	*to_ns = b;
	return 0;
}

/* One value of key @k (what: "LIST 'S': KEY"). */
static int kv_value(const char *what, const struct hws_kv *k, const char *v, char *err,
		    size_t len)
{
	uint64_t u;
	int64_t i;
	double d;
	int ret;

	switch (k->kind) {
	case HWS_KV_UNSIGNED:
	case HWS_KV_U64:
		ret = hws_parse_uint(what, v, (uint64_t)k->lo, (uint64_t)k->hi, &u, err, len);
		if (!ret && k->kind == HWS_KV_UNSIGNED)
			*(unsigned *)k->dst = (unsigned)u;
		else if (!ret)
			*(uint64_t *)k->dst = u;
		return ret;
	case HWS_KV_INT:
		ret = hws_parse_int(what, v, (int64_t)k->lo, (int64_t)k->hi, &i, err, len);
		if (!ret)
			*(int *)k->dst = (int)i;
		return ret;
	case HWS_KV_DOUBLE:
		ret = hws_parse_real(what, v, k->lo, k->hi, &d, err, len);
		if (!ret)
			*(double *)k->dst = d;
		return ret;
	}
	return -EINVAL;
}

int hws_parse_kv(const char *what, const char *s, const struct hws_kv *keys, size_t nkeys,
		 uint64_t *given, char *err, size_t len)
{
	uint64_t seen = 0;
	const char *p = s ? s : "";
	char item[256], name[400];

	if (given)
		*given = 0;
	if (!*p)
		return 0;
	for (;;) {
		const char *comma = strchr(p, ','), *end = comma ? comma : p + strlen(p);
		size_t n = (size_t)(end - p), k;
		char *eq;

		if (!n)
			return fail(err, len, what, s, "an empty item (a comma too many)");
		if (n >= sizeof(item))
			return fail(err, len, what, s, "an item longer than %zu characters",
				    sizeof(item) - 1);
		memcpy(item, p, n);
		item[n] = '\0';
		eq = strchr(item, '=');
		if (!eq)
			return fail(err, len, what, s, "'%s' is not key=value", item);
		*eq = '\0';
		for (k = 0; k < nkeys && strcmp(keys[k].key, item); k++)
			;
		if (k == nkeys) {
			char list[300];
			size_t used = 0, j;

			list[0] = '\0';
			for (j = 0; j < nkeys && used < sizeof(list); j++)
				used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s",
							 j ? ", " : "", keys[j].key);
			return fail(err, len, what, s, "unknown key '%s' (known: %s)", item,
				    nkeys ? list : "none");
		}
		if (k < 64 && (seen >> k & 1))
			return fail(err, len, what, s, "key '%s' given twice", item);
		if (k < 64)
			seen |= 1ull << k;
		snprintf(name, sizeof(name), "%s '%s': %s", what, s, item);
		if (kv_value(name, &keys[k], eq + 1, err, len))
			return -EINVAL;
		if (!comma)
			break;
		p = comma + 1;
	}
	if (given)
		*given = seen;
	return 0;
}
