/*
 * place_table.c - the placement policies, found by name ("NAME" or
 * "NAME:ARG"); the first is the default. Adding one: write
 * place_NAME.c with its place_ops and add one line here.
 */
#include <string.h>

#include "ftlkit.h"
#include "place.h"

extern const struct place_ops place_single_ops, place_sepgc_ops, place_agesort_ops,
	place_hotcold_ops, place_oracle_ops, place_sepbit_ops, place_fk_ops, place_dac_ops,
	place_warcip_ops, place_mq_ops, place_multilog_ops, place_sfs_ops, place_eti_ops,
	place_sfr_ops, place_fadac_ops, place_midas_ops;

const struct place_ops *const place_table[] = {
	&place_single_ops,
	&place_sepgc_ops,
	&place_agesort_ops,
	&place_hotcold_ops,
	&place_oracle_ops,
	&place_sepbit_ops,
	&place_fk_ops,
	&place_dac_ops,
	&place_warcip_ops,
	&place_mq_ops,
	&place_multilog_ops,
	&place_sfs_ops,
	&place_eti_ops,
	&place_sfr_ops,
	&place_fadac_ops,
	&place_midas_ops,
	NULL,
};

static const struct policy_info *place_at(unsigned i)
{
	return place_table[i] ? &place_table[i]->info : NULL;
}

const struct place_ops *place_find(const char *spec, struct policy_args *a, char *err, size_t n)
{
	int i = policy_find(place_at, "placement", spec, a, err, n);
	return i < 0 ? NULL : place_table[i];
}

int place_table_check(char *err, size_t n)
{
	for (const struct place_ops *const *p = place_table; *p; p++) {
		const struct place_ops *o = *p;
		if (o->info.version != PLACE_API_VERSION)
			return set_err(err, n, "placement '%s' has interface version %u, want %u",
				       o->info.name, o->info.version, PLACE_API_VERSION);
		if (!o->init || !o->host || !o->gc || !o->stream_name ||
		    ((o->info.flags & PLACE_SORT) && !o->sort_key) ||
		    ((o->info.flags & PLACE_FUTURE) && !o->learn))
			return set_err(err, n, "placement '%s' lacks a mandatory operation", o->info.name);
		if (o->info.nargs > POLICY_MAX_ARGS)
			return set_err(err, n, "placement '%s' declares %u arguments (at most %d)",
				       o->info.name, o->info.nargs, POLICY_MAX_ARGS);
	}
	return 0;
}
