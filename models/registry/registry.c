/*
 * registry.c - the victim policies (victim/gc_*.c), the placements
 * (place/place_*.c) and the class selectors (select/select_*.c), found
 * by name ("NAME" or "NAME:ARGS"); the first victim policy and the
 * first placement are the defaults. Adding one: write its file and add
 * one line to its table here.
 */
#include "registry.h"

#include <string.h>

#include "ftlkit.h"

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

static int gc_table_check(char *err, size_t n)
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

extern const struct place_ops place_single_ops, place_sepgc_ops, place_agesort_ops,
	place_hotcold_ops, place_oracle_ops, place_sepbit_ops, place_fk_ops, place_dac_ops,
	place_warcip_ops, place_mq_ops, place_multilog_ops, place_sfs_ops, place_eti_ops,
	place_sfr_ops, place_fadac_ops, place_midas_ops, place_fdp_ops;

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
	&place_fdp_ops,
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

static int place_table_check(char *err, size_t n)
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
		/* A capability is declared, not read from a pointer: the
		 * flag and its hook come together. */
		if (!(o->info.flags & PLACE_VICTIM) != !o->victim)
			return set_err(err, n, "placement '%s' %s", o->info.name,
				       o->victim ? "sets the victim hook without declaring PLACE_VICTIM"
						 : "declares PLACE_VICTIM without the victim hook");
	}
	return 0;
}

extern const struct select_ops select_share_ops;

const struct select_ops *const select_table[] = {
	&select_share_ops,
	NULL,
};

static const struct policy_info *select_at(unsigned i)
{
	return select_table[i] ? &select_table[i]->info : NULL;
}

const struct select_ops *select_find(const char *spec, struct policy_args *a, char *err, size_t n)
{
	int i = policy_find(select_at, "class selector", spec, a, err, n);
	return i < 0 ? NULL : select_table[i];
}

static int select_table_check(char *err, size_t n)
{
	for (const struct select_ops *const *p = select_table; *p; p++) {
		const struct select_ops *o = *p;
		if (o->info.version != SELECT_API_VERSION)
			return set_err(err, n, "class selector '%s' has interface version %u, want %u",
				       o->info.name, o->info.version, SELECT_API_VERSION);
		if (!o->init || !o->pick_class || !o->option)
			return set_err(err, n, "class selector '%s' lacks a mandatory operation", o->info.name);
		if (o->info.nargs > POLICY_MAX_ARGS)
			return set_err(err, n, "class selector '%s' declares %u arguments (at most %d)",
				       o->info.name, o->info.nargs, POLICY_MAX_ARGS);
	}
	return 0;
}

int registry_check(char *err, size_t n)
{
	return gc_table_check(err, n) || place_table_check(err, n) || select_table_check(err, n) ? -1 : 0;
}

int registry_resolve(struct ftl_config *c, char *err, size_t n)
{
	if (!(c->place = place_find(c->placement, &c->place_args, err, n)))
		return -1;
	if (!(c->gc = gc_find(c->policy, &c->gc_args, err, n)))
		return -1;
	c->host_place = NULL;
	if (c->host_placement && !(c->host_place = place_find(c->host_placement, &c->host_place_args, err, n)))
		return -1;
	c->gc_chosen = c->gc != gc_table[0] || c->gc_args.given;
	/* --spare-share opt: each stream its own share of the spare space */
	c->select = NULL;
	if (c->spare_share && !(c->select = select_find("share", &c->select_args, err, n)))
		return -1;
	return 0;
}

struct ftl *registry_ftl_new(const struct ftl_config *c, char *err, size_t n)
{
	struct ftl_config r = *c;
	if (registry_resolve(&r, err, n))
		return NULL;
	return ftl_new(&r, err, n);
}
