/*
 * hws_vsim.c - the shape cache (hws_shape.h) and the C ABI of hws_vsim.h over it.
 *
 * A shape is a shared object in <cache>/<key>/ (tools/build_shape.sh builds it, through
 * `make shape SHAPE=<key>`, in a temporary folder under a lock, and renames it into place).
 * Here: find the tree shapes are built from (the repository, or an installed
 * PREFIX/share/hwsched: make install) and the cache, build a shape that is missing or older than
 * its sources (the list the build wrote beside it, "sources"), dlopen it
 * (RTLD_NOW | RTLD_LOCAL: its Verilator runtime stays its own) and check that its table
 * is of this ABI and of the shape asked for. Loaded shapes stay loaded.
 */
#define _GNU_SOURCE	/* dladdr */
#include "sim/harness/hws_shape.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/hws_out.h"
#include "lib/hws_params.h"

#define PATH_LEN 4096
#define ENV_MAX 1024

extern char **environ;

static int build_allowed = 1;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

struct loaded {
	char path[PATH_LEN + 64];
	const struct hws_shape_ops *ops;
	struct loaded *next;
};
static struct loaded *loaded;

void hws_shape_set_build(int build)
{
	build_allowed = !!build;
}

/* The engine parameters of @o. */
static void params_of_opts(const struct hws_vsim_opts *o, struct hws_params *p)
{
	memset(p, 0, sizeof(*p));
#define COPY(field, NAME) p->field = o->field;
	HWS_PARAMS_FIELDS(COPY)
#undef COPY
}

void hws_shape_key(const struct hws_vsim_opts *o, char *key, size_t len)
{
	struct hws_params p;

	params_of_opts(o, &p);
	hws_params_key(&p, key, len);
}

/* 1 when the tree shapes are built from is an installed PREFIX/share/hwsched (make
 * install writes this file there), 0 for the repository. */
#define INSTALLED_MARK "installed-tree"
static int installed;

/* Look for a tree from @start (a file) upwards: the repository (tools/build_shape.sh) or
 * an installed share/hwsched beside PREFIX/bin or PREFIX/lib. 0 and @root set, or -1. */
static int probe_from(const char *start, char *root, size_t len)
{
	char dir[PATH_LEN], probe[PATH_LEN + 64];

	snprintf(dir, sizeof(dir), "%s", start);
	for (int up = 0; up < 4; up++) {
		char *slash = strrchr(dir, '/');

		if (!slash)
			break;
		*slash = '\0';
		snprintf(probe, sizeof(probe), "%s/tools/build_shape.sh", dir[0] ? dir : "/");
		if (access(probe, R_OK) == 0) {
			snprintf(root, len, "%s", dir[0] ? dir : "/");
			return 0;
		}
		snprintf(probe, sizeof(probe), "%s/share/hwsched/" INSTALLED_MARK, dir);
		if (access(probe, R_OK) == 0) {
			if ((size_t)snprintf(root, len, "%.*s/share/hwsched", PATH_LEN - 32, dir) >= len)
				return -1;
			installed = 1;
			return 0;
		}
	}
	return -1;
}

/* The tree: $HWS_ROOT; else, when this code is in a shared object (an installed
 * PREFIX/lib/libhws.so), the tree beside it; else the first one upwards from the
 * executable (build/hwsched -> .., build/tests/hws_tests -> ../.., PREFIX/bin/hwsched ->
 * PREFIX/share/hwsched). */
static const char *repo_root(void)
{
	static char root[PATH_LEN];
	static int done;
	char exe[PATH_LEN], self[PATH_LEN];
	const char *env;
	Dl_info info;
	ssize_t n;

	if (done)
		return root[0] ? root : NULL;
	done = 1;
	env = getenv("HWS_ROOT");
	if (env && *env) {
		char mark[PATH_LEN + 32];

		snprintf(root, sizeof(root), "%s", env);
		snprintf(mark, sizeof(mark), "%s/" INSTALLED_MARK, root);
		installed = access(mark, R_OK) == 0;
		return root;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = '\0';
	if (dladdr((void *)repo_root, &info) && info.dli_fname &&
	    realpath(info.dli_fname, self) && strcmp(self, exe) &&
	    probe_from(self, root, sizeof(root)) == 0)
		return root;
	if (n > 0 && probe_from(exe, root, sizeof(root)) == 0)
		return root;
	root[0] = '\0';
	return NULL;
}

const char *hws_shape_cache_dir(void)
{
	static char dir[PATH_LEN];
	const char *env = getenv("HWS_SHAPES"), *root;

	if (env && *env)
		return env;
	root = repo_root();
	if (!root || installed) {
		/* An installed tree is not the user's to write: a per-user cache. Without a
		 * tree (a copied executable), the shapes already there are still usable. */
		const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
		int w;

		if (xdg && *xdg)
			w = snprintf(dir, sizeof(dir), "%s/hwsched/shapes", xdg);
		else if (home && *home)
			w = snprintf(dir, sizeof(dir), "%s/.cache/hwsched/shapes", home);
		else
			return NULL;
		return w >= (int)sizeof(dir) ? NULL : dir;
	}
	if (snprintf(dir, sizeof(dir), "%s/build/shapes", root) >= (int)sizeof(dir))
		return NULL;
	return dir;
}

/* The SHAPES_DIR= of the make command: $HWS_SHAPES, or the per-user cache of an installed
 * tree; NULL for the repository's own build/shapes. */
static const char *shapes_dir_arg(void)
{
	const char *env = getenv("HWS_SHAPES");

	if (env && *env)
		return env;
	return installed ? hws_shape_cache_dir() : NULL;
}

/* mkdir -p @path; 0 or -1 with errno set. */
static int mkdir_p(const char *path)
{
	char p[PATH_LEN];

	if (snprintf(p, sizeof(p), "%s", path) >= (int)sizeof(p)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	for (char *s = p + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			if (mkdir(p, 0777) && errno != EEXIST)
				return -1;
			*s = '/';
		}
	return mkdir(p, 0777) && errno != EEXIST ? -1 : 0;
}

/* The command that builds a shape, as a user would type it. */
static void build_command(char *out, size_t len, const char *root, const char *key, int trace)
{
	const char *env = shapes_dir_arg();

	snprintf(out, len, "make -C %s shape SHAPE=%s%s%s%s", root ? root : "<repository>", key,
		 trace ? " SHAPE_TRACE=1" : "", env && *env ? " SHAPES_DIR=" : "",
		 env && *env ? env : "");
}

static double mtime_of(const char *p)
{
	struct stat st;

	if (stat(p, &st))
		return -1;
	return (double)st.st_mtim.tv_sec + (double)st.st_mtim.tv_nsec * 1e-9;
}

/* 1 when @so is missing or older than one of the sources its build listed. */
static int is_stale(const char *dir, const char *so, const char *root)
{
	char list[PATH_LEN], line[PATH_LEN], src[2 * PATH_LEN];
	double t = mtime_of(so);
	FILE *f;
	int stale = 0;

	if (t < 0)
		return 1;
	if (!root)
		return 0;	/* a cache without its repository: use what is there */
	if (snprintf(list, sizeof(list), "%s/sources", dir) >= (int)sizeof(list))
		return 1;
	f = fopen(list, "r");
	if (!f)
		return 1;
	while (!stale && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!line[0])
			continue;
		snprintf(src, sizeof(src), "%s/%s", root, line);
		stale = mtime_of(src) > t;
	}
	fclose(f);
	return stale;
}

/* Roughly how long a build takes on one core of a 2-core machine (measured, docs/shapes.md):
 * the Verilator runtime once, then the model, which grows with the CPUs. */
static unsigned estimate_s(const char *root, const struct hws_vsim_opts *o)
{
	char rt[PATH_LEN + 64];
	unsigned s = 25 + o->nr_cpus / 2 + o->nr_tasks / 512;

	if (installed)
		snprintf(rt, sizeof(rt), "%s/.runtime/libvlrt.a", hws_shape_cache_dir());
	else
		snprintf(rt, sizeof(rt), "%s/build/obj/shape-rt/libvlrt.a", root);
	if (access(rt, R_OK))
		s += 20;
	return s;
}

/* Print the last lines of a failed build's log to stderr. */
static void print_tail(const char *log)
{
	char buf[2048];
	FILE *f = fopen(log, "r");
	long size;
	size_t n;

	if (!f)
		return;
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	fseek(f, size > (long)sizeof(buf) - 1 ? size - (long)sizeof(buf) + 1 : 0, SEEK_SET);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	fprintf(stderr, "%s%s", buf, n && buf[n - 1] != '\n' ? "\n" : "");
}

/* Build @key with make, its output into a log in the cache; 0 or -EIO with @msg set. */
static int build(const char *root, const char *cache, const char *key,
		 const struct hws_vsim_opts *o, char *msg, size_t len)
{
	char log[PATH_LEN + 128], cmd[2 * PATH_LEN], arg_key[HWS_SHAPE_KEY_MAX + 8];
	char arg_dir[PATH_LEN + 16];
	const char *env = shapes_dir_arg();
	const int trace = o->wave != NULL;
	const char *argv[12];
	static char *envp[ENV_MAX];
	posix_spawn_file_actions_t fa;
	int argc = 0, status, ret, nenv = 0;
	time_t t0 = time(NULL);
	pid_t pid;

	build_command(cmd, sizeof(cmd), root, key, trace);
	if (mkdir_p(cache)) {
		snprintf(msg, len, "engine shape %s: cannot create the cache %s: %s", key, cache,
			 strerror(errno));
		return -EIO;
	}
	snprintf(log, sizeof(log), "%s/%s%s.%ld.log", cache, key, trace ? "-trace" : "",
		 (long)getpid());
	fprintf(stderr, "hwsched: building engine shape %s%s (Verilator, about %u s) ...\n", key,
		trace ? " with waveform support" : "", estimate_s(root, o));
	fflush(stderr);
	snprintf(arg_key, sizeof(arg_key), "SHAPE=%s", key);
	argv[argc++] = "make";
	argv[argc++] = "-C";
	argv[argc++] = root;
	argv[argc++] = "-s";
	argv[argc++] = "--no-print-directory";
	argv[argc++] = "shape";
	argv[argc++] = arg_key;
	if (trace)
		argv[argc++] = "SHAPE_TRACE=1";
	if (env && *env) {
		snprintf(arg_dir, sizeof(arg_dir), "SHAPES_DIR=%s", env);
		argv[argc++] = arg_dir;
	}
	argv[argc] = NULL;
	/* Its own make, not a sub-make of a make that runs this program: without MAKEFLAGS
	 * and friends. posix_spawn, not fork: the caller may have threads. */
	for (char **e = environ; *e && nenv < ENV_MAX - 1; e++)
		if (strncmp(*e, "MAKEFLAGS=", 10) && strncmp(*e, "MFLAGS=", 7) &&
		    strncmp(*e, "MAKELEVEL=", 10) && strncmp(*e, "MAKEOVERRIDES=", 14))
			envp[nenv++] = *e;
	envp[nenv] = NULL;
	if (posix_spawn_file_actions_init(&fa)) {
		snprintf(msg, len, "engine shape %s: posix_spawn_file_actions_init failed", key);
		return -EIO;
	}
	ret = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	ret = ret ? ret : posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC,
							 0666);
	ret = ret ? ret : posix_spawn_file_actions_adddup2(&fa, 1, 2);
	ret = ret ? ret : posix_spawnp(&pid, "make", &fa, NULL, (char *const *)argv, envp);
	posix_spawn_file_actions_destroy(&fa);
	if (ret) {
		snprintf(msg, len, "engine shape %s: cannot run make: %s", key, strerror(ret));
		return -EIO;
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			status = -1;
			break;
		}
	if (status != 0) {
		print_tail(log);
		snprintf(msg, len, "engine shape %s: the build failed after %ld s (%s; its output: %s)",
			 key, (long)(time(NULL) - t0), cmd, log);
		return -EIO;
	}
	unlink(log);
	return 0;
}

/* The parameters a shape was built with (hws_shape.h: its fields are struct hws_params'). */
static void params_of_shape(const struct hws_shape_ops *s, struct hws_params *p)
{
	memset(p, 0, sizeof(*p));
#define COPY(field, NAME) p->field = s->field;
	HWS_PARAMS_FIELDS(COPY)
#undef COPY
}

static int same_shape(const struct hws_shape_ops *s, const struct hws_vsim_opts *o)
{
	struct hws_params built, want;

	params_of_shape(s, &built);
	params_of_opts(o, &want);
	for (unsigned i = 0; i < HWS_NR_PARAMS; i++)
		if (hws_param_value(&built, i) != hws_param_value(&want, i))
			return 0;
	return s->trace == (o->wave != NULL);
}

static const struct hws_shape_ops *load(const char *so, const char *key,
					const struct hws_vsim_opts *o, char *msg, size_t len)
{
	void *h = dlopen(so, RTLD_NOW | RTLD_LOCAL);
	hws_shape_entry_fn entry;
	const struct hws_shape_ops *s;

	if (!h) {
		snprintf(msg, len, "engine shape %s: cannot load %s: %s", key, so, dlerror());
		return NULL;
	}
	*(void **)&entry = dlsym(h, HWS_SHAPE_ENTRY);
	s = entry ? entry() : NULL;
	if (!s || s->abi != HWS_SHAPE_ABI || s->size != sizeof(*s)) {
		snprintf(msg, len,
			 "engine shape %s: %s is not a shape of this harness (ABI %u; remove its "
			 "folder to rebuild it)", key, so, s ? s->abi : 0);
		dlclose(h);
		return NULL;
	}
	if (!same_shape(s, o)) {
		struct hws_params built;
		char held[HWS_SHAPE_KEY_MAX];

		params_of_shape(s, &built);
		hws_params_key(&built, held, sizeof(held));
		snprintf(msg, len, "engine shape %s: %s holds %s%s, not this shape", key, so, held,
			 s->trace ? " (with waveform support)" : "");
		dlclose(h);
		return NULL;
	}
	return s;
}

static const struct hws_shape_ops *open_locked(const struct hws_vsim_opts *o, int *err,
					       char *msg, size_t len)
{
	struct hws_params p;
	char key[HWS_SHAPE_KEY_MAX], why[384], dir[PATH_LEN], so[PATH_LEN + 64];
	char cmd[2 * PATH_LEN];
	const char *cache, *root = repo_root();
	const int trace = o->wave != NULL;
	const struct hws_shape_ops *s;
	struct loaded *l;

	*err = -EINVAL;
	params_of_opts(o, &p);
	if (hws_params_check(&p, why, sizeof(why))) {
		snprintf(msg, len, "engine shape: %s", why);
		return NULL;
	}
	hws_shape_key(o, key, sizeof(key));
	*err = -EIO;
	cache = hws_shape_cache_dir();
	if (!cache) {
		snprintf(msg, len,
			 "engine shape %s: cannot find the repository or an installed share/hwsched "
			 "to build or load it from (set HWS_ROOT to it, or HWS_SHAPES to a cache of "
			 "built shapes)", key);
		return NULL;
	}
	if (snprintf(dir, sizeof(dir), "%s/%s", cache, key) >= (int)sizeof(dir) ||
	    snprintf(so, sizeof(so), "%s/%s", dir, trace ? HWS_SHAPE_SO_TRACE : HWS_SHAPE_SO) >=
		    (int)sizeof(so)) {
		snprintf(msg, len, "engine shape %s: the cache's path is too long", key);
		return NULL;
	}
	for (l = loaded; l; l = l->next)
		if (!strcmp(l->path, so))
			return l->ops;
	if (is_stale(dir, so, root)) {
		const int missing = access(so, R_OK) != 0;

		if (!build_allowed || !root) {
			build_command(cmd, sizeof(cmd), root, key, trace);
			*err = -ENOTSUP;
			snprintf(msg, len, "engine shape %s%s is %s (%s); build it with: %s", key,
				 trace ? " with waveform support" : "",
				 missing ? "not built" : "older than its sources",
				 !root ? "no repository to build it from" :
					 "building is off: --no-build", cmd);
			return NULL;
		}
		if (build(root, cache, key, o, msg, len))
			return NULL;
	}
	s = load(so, key, o, msg, len);
	if (!s)
		return NULL;
	l = calloc(1, sizeof(*l));
	if (l) {
		snprintf(l->path, sizeof(l->path), "%s", so);
		l->ops = s;
		l->next = loaded;
		loaded = l;
	}
	*err = 0;
	return s;
}

const struct hws_shape_ops *hws_shape_open(const struct hws_vsim_opts *o, int *err,
					   char *msg, size_t len)
{
	const struct hws_shape_ops *s;

	pthread_mutex_lock(&lock);
	s = open_locked(o, err, msg, len);
	pthread_mutex_unlock(&lock);
	return s;
}

/* ---- the C ABI of hws_vsim.h ---- */

struct hws_vsim {
	const struct hws_shape_ops *ops;
	void *inst;
	struct hws_out wave;	/* the waveform: written to wave.tmp, renamed at destroy */
	int has_wave;
};

const char *hws_vsim_shapes(void)
{
	static char text[PATH_LEN + 256];
	const char *cache = hws_shape_cache_dir();

	snprintf(text, sizeof(text),
		 "any shape of the spec (CPUs 1..%u, tasks 1..%u, FIFOs %u..%u, groups 1..%u, "
		 "with or without the optional units), Verilated on first use into %s "
		 "(docs/shapes.md; --no-build refuses instead)", HWS_MAX_NR_CPUS,
		 HWS_MAX_NR_TASKS, HWS_MIN_DEPTH, HWS_MAX_DEPTH, HWS_MAX_NR_GROUPS,
		 cache ? cache : "build/shapes");
	return text;
}

int hws_vsim_create(struct hws_vsim **out, const struct hws_vsim_opts *o, char *msg,
		    size_t len)
{
	int err;
	const struct hws_shape_ops *s = hws_shape_open(o, &err, msg, len);
	struct hws_vsim *v;

	if (!s)
		return err;
	v = calloc(1, sizeof(*v));
	if (!v) {
		snprintf(msg, len, "out of memory");
		return -ENOMEM;
	}
	v->ops = s;
	if (o->wave) {
		/* The FST writer opens (and first unlinks) the file it is given: it gets a
		 * temporary file beside the target, renamed over it at destroy (lib/hws_out.h),
		 * so a device or a directory given as the waveform is never touched. */
		struct hws_vsim_opts ot = *o;

		err = hws_out_temp(&v->wave, o->wave, msg, len);
		if (err) {
			free(v);
			return err;
		}
		v->has_wave = 1;
		ot.wave = v->wave.tmp;
		v->inst = s->create(&ot, msg, len);
	} else {
		v->inst = s->create(o, msg, len);
	}
	if (!v->inst) {
		if (v->has_wave)
			hws_out_abort(&v->wave);
		free(v);
		return -EIO;
	}
	*out = v;
	return 0;
}

void hws_vsim_destroy(struct hws_vsim *s)
{
	char msg[400];

	if (!s)
		return;
	s->ops->destroy(s->inst);	/* closes the waveform */
	if (s->has_wave && hws_out_commit(&s->wave, msg, sizeof(msg)))
		fprintf(stderr, "hwsched: waveform: %s\n", msg);
	free(s);
}

void hws_vsim_reset(struct hws_vsim *s)
{
	s->ops->reset(s->inst);
}

/* The reference master: AW and W together, BREADY = RREADY = 1 (docs/accelerator.md 4.2). */
static const struct hws_bus_timing reference_timing;

unsigned hws_vsim_write(struct hws_vsim *s, uint32_t addr, uint32_t data, uint32_t strb,
			uint32_t *resp)
{
	return s->ops->write(s->inst, &reference_timing, addr, data, strb, resp);
}

unsigned hws_vsim_read(struct hws_vsim *s, uint32_t addr, uint32_t *data, uint32_t *resp)
{
	return s->ops->read(s->inst, &reference_timing, addr, data, resp);
}

unsigned hws_vsim_write_timed(struct hws_vsim *s, const struct hws_bus_timing *t,
			      uint32_t addr, uint32_t data, uint32_t strb, uint32_t *resp)
{
	return s->ops->write(s->inst, t, addr, data, strb, resp);
}

unsigned hws_vsim_read_timed(struct hws_vsim *s, const struct hws_bus_timing *t,
			     uint32_t addr, uint32_t *data, uint32_t *resp)
{
	return s->ops->read(s->inst, t, addr, data, resp);
}

void hws_vsim_idle(struct hws_vsim *s, unsigned edges)
{
	s->ops->idle(s->inst, edges);
}

unsigned hws_vsim_nr_ports(const struct hws_vsim *s)
{
	return s->ops->nr_ports;
}

void hws_vsim_pins(struct hws_vsim *s, const struct hws_axil_in *in, struct hws_axil_out *out)
{
	s->ops->pins(s->inst, in, out);
}

uint64_t hws_vsim_irq(struct hws_vsim *s, unsigned *any)
{
	unsigned a = 0;
	const uint64_t lines = s->ops->irq(s->inst, &a);

	if (any)
		*any = a;
	return lines;
}

void hws_vsim_units(struct hws_vsim *s, struct hws_units *u)
{
	s->ops->units(s->inst, u);
}
