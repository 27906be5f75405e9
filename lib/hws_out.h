/*
 * hws_out - the one way the programs write an output file (--json, --svg, --vp-json, the
 * FST of --wave, the benches' JSON), and the one JSON string escaper.
 *
 * The rules (docs/layout.md, "Output files"):
 *  - A regular file, or a name that does not exist yet, is written to a temporary file in
 *    the same directory (".NAME.XXXXXX") and renamed over the target once complete: a
 *    failed or interrupted write leaves the old file as it was. A symbolic link is
 *    followed: the file it points to is replaced, the link stays.
 *  - A character device or a FIFO (/dev/null, a named pipe) is written into as it is:
 *    never unlinked, truncated or replaced. A FIFO with no reader is refused at once
 *    (ENXIO) instead of blocking. Writers that need to seek (the FST waveform) refuse them.
 *  - /dev/stdout, /dev/stderr, /dev/fd/N and /proc/self/fd/N are the descriptors the
 *    process has: written through a duplicate, at its offset (after what the program
 *    printed there), whatever it is open on (a terminal, a pipe, a file).
 *  - Anything else (a directory, a block device, a socket, a dangling link) is refused
 *    and left untouched.
 *  - Every write error (ENOSPC on /dev/full, EFBIG, EIO at close) is reported.
 * hws_out_check() says beforehand whether a path can be written, so that a command can
 * refuse a bad output path before a long run.
 */
#ifndef HWS_OUT_H
#define HWS_OUT_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* hws_out_check / hws_out_open flags */
#define HWS_OUT_SEEKABLE	1u	/* only a regular file (or a new one) will do */

struct hws_out {
	FILE *f;		/* where to write (NULL after hws_out_temp()) */
	char *target;		/* the file replaced (a link resolved), or the stream written */
	char *tmp;		/* the temporary file beside it, NULL for a stream */
	int stream;		/* a character device or a FIFO, written in place */
};

/**
 * hws_out_check - can @path be written as an output file?
 * @path: the file name as the user gave it
 * @flags: HWS_OUT_SEEKABLE to refuse streams
 * @err: receives "PATH: why" on failure
 *
 * Return: 0, or a negative errno (-EISDIR, -EINVAL for a device or socket, -ENOENT for a
 * missing directory, -EACCES, ...).
 */
int hws_out_check(const char *path, unsigned flags, char *err, size_t len);

/**
 * hws_out_open - start writing @path: @o->f is a temporary file beside it (or the stream
 * itself). Finish with hws_out_commit() or hws_out_abort().
 * Return: 0, or a negative errno with "PATH: why" in @err.
 */
int hws_out_open(struct hws_out *o, const char *path, unsigned flags, char *err, size_t len);

/**
 * hws_out_temp - for a writer that opens its file by name itself (the FST writer): an
 * empty temporary file beside @path, its name in @o->tmp (@o->f stays NULL). Write it,
 * close it, then hws_out_commit() renames it over the target. Streams are refused.
 */
int hws_out_temp(struct hws_out *o, const char *path, char *err, size_t len);

/**
 * hws_out_commit - flush, close and put the file in place (rename over the target).
 * Return: 0, or a negative errno with "cannot write PATH: why" in @err; the temporary
 * file is removed and the target left as it was. @o is released either way.
 */
int hws_out_commit(struct hws_out *o, char *err, size_t len);

/* hws_out_abort - drop what was written: the temporary file goes, the target stays. */
void hws_out_abort(struct hws_out *o);

/* hws_json_str - @s as a JSON string, quotes included ("" for NULL); returns fputs's. */
int hws_json_str(FILE *f, const char *s);

#ifdef __cplusplus
}
#endif

#endif /* HWS_OUT_H */
