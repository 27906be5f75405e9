/*
 * hws_version.c - the version of the build (lib/hws_version.h).
 */
#include "lib/hws_version.h"
#include "lib/hws_out.h"

/* $(BUILD)/gen/hws_version_gen.h, from tools/gen_version.sh (on make's include path) */
#if defined(__has_include)
#if __has_include("hws_version_gen.h")
#include "hws_version_gen.h"
#endif
#endif
#ifndef HWS_VERSION_STRING
#define HWS_VERSION_STRING "unknown"	/* a build that did not run tools/gen_version.sh */
#endif

const char *hws_version(void)
{
	return HWS_VERSION_STRING;
}

void hws_json_provenance(FILE *f)
{
	fputs("\"version\": ", f);
	hws_json_str(f, hws_version());
	fprintf(f, ", \"schema\": %d", HWS_JSON_SCHEMA);
}
