/*
 * place_table.c - the placement policies, found by name ("NAME" or
 * "NAME:ARG"); the first is the default. Adding one: write
 * place_NAME.c with its place_ops and add one line here.
 */
#include <string.h>

#include "ftlkit.h"
#include "place.h"

extern const struct place_ops place_single_ops, place_sepgc_ops, place_agesort_ops,
	place_hotcold_ops, place_oracle_ops;

const struct place_ops *const place_table[] = {
	&place_single_ops,
	&place_sepgc_ops,
	&place_agesort_ops,
	&place_hotcold_ops,
	&place_oracle_ops,
	NULL,
};

const struct place_ops *place_find(const char *spec, const char **arg)
{
	const char *colon = strchr(spec, ':');
	size_t len = colon ? (size_t)(colon - spec) : strlen(spec);
	*arg = colon ? colon + 1 : NULL;
	for (const struct place_ops *const *p = place_table; *p; p++) {
		if (strlen((*p)->name) != len || strncmp((*p)->name, spec, len))
			continue;
		if ((colon && !((*p)->flags & PLACE_ARG)) ||
		    (!colon && ((*p)->flags & PLACE_ARG_REQUIRED)))
			return NULL;
		return *p;
	}
	return NULL;
}

int place_table_check(char *err, size_t n)
{
	for (const struct place_ops *const *p = place_table; *p; p++) {
		const struct place_ops *o = *p;
		if (o->version != PLACE_API_VERSION)
			return set_err(err, n, "placement '%s' has interface version %u, want %u",
				       o->name, o->version, PLACE_API_VERSION);
		if (!o->init || !o->host || !o->gc || !o->stream_name ||
		    ((o->flags & PLACE_SORT) && !o->sort_key))
			return set_err(err, n, "placement '%s' lacks a mandatory operation", o->name);
	}
	return 0;
}
