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

static const struct policy_info *gc_at(unsigned i) { return gc_table[i] ? &gc_table[i]->info : NULL; }

const struct gc_ops *gc_find(const char *spec, struct policy_args *a, char *err, size_t n)
{
	int i = policy_find(gc_at, "victim policy", spec, a, err, n);
	return i < 0 ? NULL : gc_table[i];
}

int gc_table_check(char *err, size_t n)
{
	for (const struct gc_ops *const *p = gc_table; *p; p++) {
		const struct gc_ops *o = *p;
		if (o->info.version != GC_API_VERSION)
			return set_err(err, n, "victim policy '%s' has interface version %u, want %u",
				       o->info.name, o->info.version, GC_API_VERSION);
		if (!o->init || !o->on_seal || !o->remove || !o->pick)
			return set_err(err, n, "victim policy '%s' lacks a mandatory operation", o->info.name);
		if (o->info.nargs > POLICY_MAX_ARGS)
			return set_err(err, n, "victim policy '%s' declares %u arguments (at most %d)",
				       o->info.name, o->info.nargs, POLICY_MAX_ARGS);
	}
	return 0;
}
