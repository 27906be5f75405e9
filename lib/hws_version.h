/*
 * hws_version - the version of the programs, and the schema of the JSON they write.
 *
 * The version is `git describe --always --dirty` of the tree they were built from, or the
 * release in VERSION outside a git checkout (tools/gen_version.sh writes it at build time;
 * only the object of lib/hws_version.c is rebuilt when it changes). Every JSON file the programs write
 * starts with "version" and "schema" (hws_json_provenance(); docs/json.md).
 */
#ifndef HWS_VERSION_H
#define HWS_VERSION_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The schema of every JSON output (docs/json.md), one integer for all of them: raised
 * when a key is renamed or removed or changes its meaning or unit (not for a new key).
 */
#define HWS_JSON_SCHEMA 1

/* hws_version - "0.9.0" (VERSION), or git describe's "HASH" or "HASH-dirty" */
const char *hws_version(void);

/*
 * hws_json_provenance - write `"version": "...", "schema": N` (no braces, no comma after)
 * to @f, the first members of every JSON object the programs write.
 */
void hws_json_provenance(FILE *f);

#ifdef __cplusplus
}
#endif

#endif /* HWS_VERSION_H */
