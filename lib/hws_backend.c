/*
 * hws_backend.c - the registry of transport backends (include/hws/transport.h): a list
 * the linked-in backends add themselves to, searched by name.
 */
#include "hws/transport.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct hws_backend *backends;

/* Does @name ("NAME" or "NAME:ARG") select backend @b? */
static int selects(const struct hws_backend *b, const char *name)
{
	size_t n = strcspn(name, ":");

	return strlen(b->name) == n && !strncmp(b->name, name, n);
}

int hws_backend_register(struct hws_backend *b)
{
	struct hws_backend **p;

	for (p = &backends; *p; p = &(*p)->next)
		if (!strcmp((*p)->name, b->name))
			return -EEXIST;
	b->next = NULL;
	*p = b;
	return 0;
}

const struct hws_backend *hws_backend_find(const char *name)
{
	const struct hws_backend *b;

	for (b = name ? backends : NULL; b; b = b->next)
		if (selects(b, name))
			return b;
	return NULL;
}

const char *hws_backend_list(void)
{
	static char list[256];
	const struct hws_backend *b, *last = NULL, *next;
	size_t n = 0;

	list[0] = '\0';
	/* In name order: each round takes the least name after the last one taken. */
	for (;;) {
		next = NULL;
		for (b = backends; b; b = b->next)
			if ((!last || strcmp(b->name, last->name) > 0) &&
			    (!next || strcmp(b->name, next->name) < 0))
				next = b;
		if (!next)
			break;
		n += (size_t)snprintf(list + n, n < sizeof(list) ? sizeof(list) - n : 0, "%s%s",
				      n ? ", " : "", next->name);
		if (n >= sizeof(list))
			break;
		last = next;
	}
	return list;
}

int hws_backend_check(const char *name, char *msg, size_t len)
{
	const struct hws_backend *b = hws_backend_find(name);
	const char *colon = name ? strchr(name, ':') : NULL;

	if (!b) {
		snprintf(msg, len, "no backend '%s' in this program (linked in: %s)",
			 name ? name : "(none)", hws_backend_list());
		return -ENOENT;
	}
	if (colon && !b->arg) {
		snprintf(msg, len, "backend '%s' takes no argument (got '%s')", b->name, name);
		return -EINVAL;
	}
	if (colon && !colon[1]) {
		snprintf(msg, len, "backend '%s': nothing after ':' (want %s:%s)", b->name,
			 b->name, b->arg);
		return -EINVAL;
	}
	return 0;
}

int hws_transport_open(const char *name, const struct hws_backend_args *a,
		       struct hws_transport *out, char *msg, size_t len)
{
	const struct hws_backend *b = hws_backend_find(name);
	struct hws_backend_args args = *a;
	const char *colon;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = hws_backend_check(name, msg, len);
	if (ret)
		return ret;
	colon = strchr(name, ':');
	args.arg = colon ? colon + 1 : NULL;
	return b->open(&args, out, msg, len);
}

void hws_transport_close(struct hws_transport *t)
{
	if (t && t->ops && t->ops->destroy)
		t->ops->destroy(t->ctx);
	if (t)
		memset(t, 0, sizeof(*t));
}
