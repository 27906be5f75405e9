/*
 * sidecar.c - what a replay takes from a trace's sidecar (traces/README.md, the sidecar's
 * keys): the traced kernel's version and HZ from its "capture" record, so that `replay`
 * runs the kernel the trace was recorded on unless told otherwise.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"

#define SIDECAR_MAX 65536	/* bytes read: a sidecar is a few KB */

/* The sidecar's path: TRACE without .gz and .txt, then .json. */
static int sidecar_path(const char *trace, char *out, size_t len)
{
	size_t n = strlen(trace);

	if (n > 3 && !strcmp(trace + n - 3, ".gz"))
		n -= 3;
	if (n > 4 && !strncmp(trace + n - 4, ".txt", 4))
		n -= 4;
	if (n + 6 > len)
		return -1;
	memcpy(out, trace, n);
	strcpy(out + n, ".json");
	return 0;
}

/* The value of "key" (a JSON string or number) after @from in @s, into @out. */
static int value_of(const char *s, const char *key, char *out, size_t len)
{
	char pat[64];
	const char *p, *e;
	size_t n;

	snprintf(pat, sizeof(pat), "\"%s\":", key);
	p = strstr(s, pat);
	if (!p)
		return -1;
	p += strlen(pat);
	while (*p == ' ')
		p++;
	if (*p == '"') {
		e = strchr(++p, '"');
	} else {
		for (e = p; *e && *e != ',' && *e != '}' && *e != ' ' && *e != '\n'; e++)
			;
	}
	if (!e || (n = (size_t)(e - p)) >= len)
		return -1;
	memcpy(out, p, n);
	out[n] = 0;
	return 0;
}

int cli_sidecar_read(const char *trace, struct cli_sidecar *sc)
{
	char path[4096], buf[SIDECAR_MAX + 1], v[64];
	const char *cap;
	struct stat st;
	unsigned major, minor;
	size_t n;
	FILE *f;

	memset(sc, 0, sizeof(*sc));
	if (sidecar_path(trace, path, sizeof(path)) || stat(path, &st) || !S_ISREG(st.st_mode))
		return -ENOENT;
	f = fopen(path, "r");
	if (!f)
		return -errno;
	n = fread(buf, 1, SIDECAR_MAX, f);
	fclose(f);
	buf[n] = 0;
	snprintf(sc->path, sizeof(sc->path), "%s", path);
	cap = strstr(buf, "\"capture\":");
	if (!cap)
		return 0;
	if (!value_of(cap, "hz", v, sizeof(v))) {
		long hz = strtol(v, NULL, 10);

		if (hz >= 10 && hz <= 10000)
			sc->hz = (unsigned)hz;
	}
	if (!value_of(cap, "kernel", v, sizeof(v)) && sscanf(v, "%u.%u", &major, &minor) == 2 &&
	    major == 6 && minor >= 6 && minor <= 99)
		sc->kernel = major * 100 + minor;
	if (value_of(cap, "role", sc->role, sizeof(sc->role)))
		sc->role[0] = 0;
	return 0;
}
