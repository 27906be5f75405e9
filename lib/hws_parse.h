/*
 * hws_parse - the one strict parser of the values a user types: whole numbers, counts,
 * real numbers, durations and key=value lists (--topology, --workload, --cost, a uart
 * backend's options). Every command line option and every key=value string goes through
 * it, so the same text means the same thing everywhere.
 *
 * The rules:
 *  - Whole numbers are decimal digits only: no sign, no spaces, no "0x", no fraction, no
 *    exponent; a leading 0 is still decimal ("010" is ten). Overflow is an error, never a
 *    wrap. Signed ones take a leading '-' and nothing else.
 *  - Counts are whole numbers with an optional k, M or G (x1000, x1e6, x1e9) suffix.
 *  - Real numbers are decimal ([digits][.digits][e[+-]digits]): no nan, no inf, no hex.
 *  - Switches are "on" or "off", nothing else (no case folding, no 1/0, no yes/no).
 *  - Durations are a real number and a unit, s, ms, us or ns (no unit: seconds), rounded
 *    to the nearest ns.
 *  - Every value has a range [lo, hi]; out of range is an error.
 *  - key=value lists: items separated by ',', none empty; each key known and given once.
 * Errors: -EINVAL with a message naming what (the caller's name for it, e.g. "--cpus" or
 * "topology"), the text given and what was expected, its range included:
 *   "--cpus '8.9': expected a whole number in 1..64"
 */
#ifndef HWS_PARSE_H
#define HWS_PARSE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

int hws_parse_uint(const char *what, const char *s, uint64_t lo, uint64_t hi, uint64_t *out,
		   char *err, size_t len);
int hws_parse_int(const char *what, const char *s, int64_t lo, int64_t hi, int64_t *out,
		  char *err, size_t len);
int hws_parse_count(const char *what, const char *s, uint64_t lo, uint64_t hi, uint64_t *out,
		    char *err, size_t len);
int hws_parse_real(const char *what, const char *s, double lo, double hi, double *out,
		   char *err, size_t len);
int hws_parse_on_off(const char *what, const char *s, int *out, char *err, size_t len);
int hws_parse_duration(const char *what, const char *s, uint64_t lo_ns, uint64_t hi_ns,
		       uint64_t *ns, char *err, size_t len);
/*
 * A span of time, "START:END": two durations (each 0..@hi_ns, as hws_parse_duration()),
 * END after START; e.g. "0.5s:0.6s", "100ms:120ms".
 */
int hws_parse_window(const char *what, const char *s, uint64_t hi_ns, uint64_t *from_ns,
		     uint64_t *to_ns, char *err, size_t len);

/* A key of a key=value list: its name, its kind, its range and where its value goes. */
enum hws_kv_kind {
	HWS_KV_UNSIGNED,	/* unsigned *, whole number */
	HWS_KV_INT,		/* int *, whole number, may be negative */
	HWS_KV_DOUBLE,		/* double *, real number */
	HWS_KV_U64,		/* uint64_t *, whole number (ranges up to 2^53 exactly) */
};

struct hws_kv {
	const char *key;
	enum hws_kv_kind kind;
	double lo, hi;
	void *dst;
};

/**
 * hws_parse_kv - parse "k=v,k=v" (@s) with the keys @keys
 * @what: the list's name in messages ("topology", "workload mix")
 * @given: if not NULL, receives a bit per key of @keys that was given (at most 64 keys)
 *
 * An empty @s is an empty list. Return: 0, or -EINVAL with the message (empty item, not
 * key=value, unknown key with the known ones listed, a key given twice, a bad value).
 * On an error some values may have been stored.
 */
int hws_parse_kv(const char *what, const char *s, const struct hws_kv *keys, size_t nkeys,
		 uint64_t *given, char *err, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* HWS_PARSE_H */
