/*
 * gc_table.c - the victim policies, found by name ("NAME" or
 * "NAME:ARG"); the first is the default. Adding a policy: write
 * gc_NAME.c with its gc_ops and add one line here.
 */
#include <string.h>

#include "ftlkit.h"
#include "gc.h"

extern const struct gc_ops gc_greedy_ops, gc_cb_ops, gc_cbsqrt_ops, gc_fifo_ops, gc_random_ops,
	gc_dchoices_ops, gc_windowed_ops, gc_cat_ops;

const struct gc_ops *const gc_table[] = {
	&gc_greedy_ops,
	&gc_cb_ops,
	&gc_cbsqrt_ops,
	&gc_fifo_ops,
	&gc_random_ops,
	&gc_dchoices_ops,
	&gc_windowed_ops,
	&gc_cat_ops,
	NULL,
};

const struct gc_ops *gc_find(const char *spec, const char **arg)
{
	const char *colon = strchr(spec, ':');
	size_t len = colon ? (size_t)(colon - spec) : strlen(spec);
	*arg = colon ? colon + 1 : NULL;
	for (const struct gc_ops *const *p = gc_table; *p; p++) {
		if (strlen((*p)->name) != len || strncmp((*p)->name, spec, len))
			continue;
		if ((colon && !((*p)->flags & GC_ARG)) ||
		    (!colon && ((*p)->flags & GC_ARG_REQUIRED)))
			return NULL;
		return *p;
	}
	return NULL;
}

int gc_table_check(char *err, size_t n)
{
	for (const struct gc_ops *const *p = gc_table; *p; p++) {
		const struct gc_ops *o = *p;
		if (o->version != GC_API_VERSION)
			return set_err(err, n, "victim policy '%s' has interface version %u, want %u",
				       o->name, o->version, GC_API_VERSION);
		if (!o->init || !o->on_seal || !o->remove || !o->pick)
			return set_err(err, n, "victim policy '%s' lacks a mandatory operation", o->name);
	}
	return 0;
}
