/*
 * hws_out.c - output files through a temporary file and a rename; streams written in
 * place; everything else refused untouched. See hws_out.h for the rules.
 */
#define _XOPEN_SOURCE 700	/* realpath, mkstemp, fchmod */
#include "lib/hws_out.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * "PATH: why". A path too long to show whole (over 120 characters) is shown by its
 * first and last 48 and its length, so that the reason always fits in the message.
 */
static void msg(char *err, size_t len, const char *path, const char *why)
{
	size_t n = strlen(path);

	if (!err || !len)
		return;
	if (n > 120)
		snprintf(err, len, "%.48s...%s (a path of %zu characters): %s", path,
			 path + n - 48, n, why);
	else
		snprintf(err, len, "%s: %s", path, why);
}

static const char *kind_of(mode_t m)
{
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISSOCK(m))
		return "a socket";
	return "not a regular file";
}

/* The directory part of @path ("." when none), in a new string. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *d;

	if (!slash)
		return strdup(".");
	if (slash == path)
		return strdup("/");
	d = malloc((size_t)(slash - path) + 1);
	if (d) {
		memcpy(d, path, (size_t)(slash - path));
		d[slash - path] = '\0';
	}
	return d;
}

/*
 * @path names a descriptor this process already has open: /dev/stdout, /dev/stderr,
 * /dev/fd/N, /proc/self/fd/N. Its number, else -1.
 */
static int fd_alias(const char *path)
{
	static const char *const pre[] = { "/dev/fd/", "/proc/self/fd/" };
	size_t i;

	if (!strcmp(path, "/dev/stdout"))
		return 1;
	if (!strcmp(path, "/dev/stderr"))
		return 2;
	for (i = 0; i < 2; i++) {
		const char *d = path + strlen(pre[i]);
		long n = 0;

		if (strncmp(path, pre[i], strlen(pre[i])) || !*d)
			continue;
		for (; *d >= '0' && *d <= '9' && n < 1000000; d++)
			n = n * 10 + (*d - '0');
		if (!*d)
			return (int)n;
	}
	return -1;
}

/* resolve() of a /dev/fd/N or /dev/stdout alias: written through a duplicate of the
 * descriptor, at its offset, as a shell would. */
static int resolve_fd(const char *path, unsigned flags, char **target, int *exists,
		      mode_t *mode, char *err, size_t len)
{
	if (flags & HWS_OUT_SEEKABLE) {
		msg(err, len, path, "an open descriptor: refused (this output needs a "
			"regular file of its own)");
		return -EINVAL;
	}
	if (fcntl(fd_alias(path), F_GETFL) < 0) {
		msg(err, len, path, "that descriptor is not open");
		return -EBADF;
	}
	*target = strdup(path);
	*exists = 1;
	*mode = S_IFIFO;	/* a stream */
	return *target ? 0 : -ENOMEM;
}

/* resolve() of a path lstat() failed on: a new file, in a directory that exists and is
 * writable. */
static int resolve_new(const char *path, char **target, char *err, size_t len)
{
	char why[160], *d;
	struct stat ds;
	int e = errno;

	if (e != ENOENT) {
		msg(err, len, path, strerror(e));
		return -e;
	}
	d = dir_of(path);
	if (!d)
		return -ENOMEM;
	if (stat(d, &ds) || !S_ISDIR(ds.st_mode)) {
		snprintf(why, sizeof(why), "no directory '%s'", d);
		free(d);
		msg(err, len, path, why);
		return -ENOENT;
	}
	if (access(d, W_OK | X_OK)) {
		snprintf(why, sizeof(why), "directory '%s' is not writable", d);
		free(d);
		msg(err, len, path, why);
		return -EACCES;
	}
	free(d);
	*target = strdup(path);
	return *target ? 0 : -ENOMEM;
}

/*
 * What @path is: *@target the file to write (the link resolved, else a copy of @path),
 * *@exists and *@mode its mode. 0, or a negative errno with the message set.
 */
static int resolve(const char *path, unsigned flags, char **target, int *exists, mode_t *mode,
		   char *err, size_t len)
{
	struct stat st;
	char why[160];

	*target = NULL;
	*exists = 0;
	if (!path || !*path) {
		if (err && len)
			snprintf(err, len, "empty output file name");
		return -EINVAL;
	}
	if (fd_alias(path) >= 0)
		return resolve_fd(path, flags, target, exists, mode, err, len);
	if (path[strlen(path) - 1] == '/') {
		msg(err, len, path, "a directory name, not a file");
		return -EISDIR;
	}
	if (lstat(path, &st))
		return resolve_new(path, target, err, len);
	if (S_ISLNK(st.st_mode)) {
		char *r = NULL;

		if (stat(path, &st)) {
			msg(err, len, path, "a symbolic link to nothing: not followed");
			return -ENOENT;
		}
		/* a regular file is replaced where it is; anything else is opened by @path */
		if (S_ISREG(st.st_mode) && !(r = realpath(path, NULL))) {
			msg(err, len, path, "a symbolic link that cannot be resolved");
			return -ENOENT;
		}
		*target = r ? r : strdup(path);
		if (!*target)
			return -ENOMEM;
	} else {
		*target = strdup(path);
		if (!*target)
			return -ENOMEM;
	}
	*exists = 1;
	*mode = st.st_mode;
	if (S_ISREG(st.st_mode)) {
		char *d = dir_of(*target);
		int ok = d && !access(d, W_OK | X_OK);

		free(d);
		if (!ok) {
			msg(err, len, path, "its directory is not writable (the file is replaced "
				"through a temporary file beside it)");
			goto refuse_acc;
		}
		return 0;
	}
	if ((S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) && !(flags & HWS_OUT_SEEKABLE))
		return 0;	/* a stream: written in place */
	snprintf(why, sizeof(why), "%s: refused, left untouched (%s)", kind_of(st.st_mode),
		 S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode) ?
		 "this output needs a regular file" :
		 "outputs are regular files, character devices or FIFOs");
	msg(err, len, path, why);
	free(*target);
	*target = NULL;
	return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
refuse_acc:
	free(*target);
	*target = NULL;
	return -EACCES;
}

int hws_out_check(const char *path, unsigned flags, char *err, size_t len)
{
	char *target;
	int exists, ret;
	mode_t mode;

	ret = resolve(path, flags, &target, &exists, &mode, err, len);
	free(target);
	return ret;
}

/* A new temporary file beside @o->target: its fd, or a negative errno. */
static int make_temp(struct hws_out *o, int exists, mode_t mode, char *err, size_t len)
{
	const char *base = strrchr(o->target, '/');
	char *d = dir_of(o->target);
	size_t n;
	mode_t um;
	int fd;

	if (!d)
		return -ENOMEM;
	base = base ? base + 1 : o->target;
	n = strlen(d) + strlen(base) + 16;
	o->tmp = malloc(n);
	if (!o->tmp) {
		free(d);
		return -ENOMEM;
	}
	snprintf(o->tmp, n, "%s/.%s.XXXXXX", d, base);
	free(d);
	fd = mkstemp(o->tmp);
	if (fd < 0) {
		int e = errno;

		msg(err, len, o->target, strerror(e));
		free(o->tmp);
		o->tmp = NULL;
		return -e;
	}
	/* the mode a plain creation would give (or the replaced file's) */
	um = umask(0);
	umask(um);
	if (fchmod(fd, exists ? (mode & 07777) : (0666 & ~um))) {
		/* not fatal: the file keeps mkstemp's 0600 */
	}
	return fd;
}

static void release(struct hws_out *o)
{
	free(o->target);
	free(o->tmp);
	memset(o, 0, sizeof(*o));
}

int hws_out_open(struct hws_out *o, const char *path, unsigned flags, char *err, size_t len)
{
	int exists, ret, fd;
	mode_t mode = 0;

	memset(o, 0, sizeof(*o));
	ret = resolve(path, flags, &o->target, &exists, &mode, err, len);
	if (ret)
		return ret;
	if (fd_alias(path) >= 0) {
		fd = dup(fd_alias(path));
		if (fd < 0) {
			int e = errno;

			msg(err, len, path, strerror(e));
			release(o);
			return -e;
		}
		o->stream = 1;
	} else if (exists && !S_ISREG(mode)) {
		/* a stream; a FIFO without a reader is refused instead of waiting */
		fd = open(o->target, O_WRONLY | O_NONBLOCK | O_NOCTTY);
		if (fd < 0) {
			int e = errno;

			msg(err, len, path, e == ENXIO ? "a FIFO with no reader" : strerror(e));
			release(o);
			return -e;
		}
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
		o->stream = 1;
	} else {
		fd = make_temp(o, exists, mode, err, len);
		if (fd < 0) {
			release(o);
			return fd;
		}
	}
	o->f = fdopen(fd, "w");
	if (!o->f) {
		int e = errno;

		close(fd);
		hws_out_abort(o);
		msg(err, len, path, strerror(e));
		return -e;
	}
	return 0;
}

int hws_out_temp(struct hws_out *o, const char *path, char *err, size_t len)
{
	int exists, ret, fd;
	mode_t mode = 0;

	memset(o, 0, sizeof(*o));
	ret = resolve(path, HWS_OUT_SEEKABLE, &o->target, &exists, &mode, err, len);
	if (ret)
		return ret;
	fd = make_temp(o, exists, mode, err, len);
	if (fd < 0) {
		release(o);
		return fd;
	}
	close(fd);
	return 0;
}

int hws_out_commit(struct hws_out *o, char *err, size_t len)
{
	int e = 0;
	struct stat st;

	if (o->f) {
		if (fflush(o->f) || ferror(o->f))
			e = errno ? errno : EIO;
		if (!e && !o->stream && fsync(fileno(o->f)))
			e = errno;
		if (fclose(o->f) && !e)
			e = errno ? errno : EIO;
		o->f = NULL;
	}
	/* the target must still be what was checked: never rename over anything else */
	if (!e && o->tmp && !lstat(o->target, &st) && !S_ISREG(st.st_mode))
		e = EEXIST;
	if (!e && o->tmp && rename(o->tmp, o->target))
		e = errno;
	if (e) {
		if (err && len)
			snprintf(err, len, "cannot write %s: %s", o->target,
				 e == EEXIST ? "it is no longer a regular file, left untouched" :
				 strerror(e));
		if (o->tmp)
			unlink(o->tmp);	/* ours: made by mkstemp */
	}
	release(o);
	return -e;
}

void hws_out_abort(struct hws_out *o)
{
	if (o->f)
		fclose(o->f);
	if (o->tmp)
		unlink(o->tmp);
	release(o);
}

int hws_json_str(FILE *f, const char *s)
{
	if (fputc('"', f) == EOF)
		return EOF;
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c == '\r')
			fputs("\\r", f);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	return fputc('"', f) == EOF ? EOF : 0;
}
