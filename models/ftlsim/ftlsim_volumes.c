/*
 * ftlsim_volumes.c - --per-volume: one model per volume of the trace
 * (and per configuration of a --grid), all fed from one read. Pass 1
 * counts every volume (events, pages written, extent, footprint), or
 * --footprints FILE gives the counts (ftlsim_footprints.c); the
 * selection (--volumes LIST|top:N, --min-pages) then decides which get
 * models; only those are built. --volumes shard:K/N keeps, of those,
 * the volumes of shard K of N, by a hash of the volume's id that every
 * machine computes alike: N runs over the same trace share its volumes
 * out, and their per-volume rows together are the unsharded run's.
 */
#include <stdlib.h>
#include <string.h>

#include "ftlsim.h"
#include "pagemap.h"

void sim_volumes_arg(struct sim *s, const char *arg)
{
	uint64_t v;
	if (!strncmp(arg, "shard:", 6)) {
		uint64_t k, n;
		const char *slash = strchr(arg + 6, '/');
		char ks[32];
		snprintf(ks, sizeof(ks), "%.*s", slash ? (int)(slash - arg - 6) : 0, arg + 6);
		if (!slash || parse_u64(ks, &k) || parse_u64(slash + 1, &n) || !n || n > UINT32_MAX || k >= n)
			sim_fail_usage("--volumes shard:K/N takes a shard K from 0 to N-1 of N >= 1, not '%s'", arg);
		if (s->opt.shard_n)
			sim_fail_usage("--volumes shard:K/N is given once");
		s->opt.shard_k = (uint32_t)k;
		s->opt.shard_n = (uint32_t)n;
		return;
	}
	if (!strncmp(arg, "top:", 4)) {
		if (parse_u64(arg + 4, &v) || !v)
			sim_fail_usage("--volumes top:N needs N >= 1, not '%s'", arg);
		s->opt.vol_top = v;
		return;
	}
	size_t n = strlen(arg);
	if (!n || arg[0] == ',' || arg[n - 1] == ',' || strstr(arg, ",,"))
		sim_fail_usage("--volumes: an empty volume number in '%s' (a list is V1,V2,...)", arg);
	char *copy = strdup(arg), *save = NULL;
	if (!copy)
		sim_fail("out of memory");
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (parse_u64(t, &v) || v > UINT32_MAX)
			sim_fail_usage("--volumes takes top:N or a list of volume numbers, not '%s'", arg);
		uint32_t *nl = realloc(s->opt.vol_list, (s->opt.nvol_list + 1) * sizeof(*nl));
		if (!nl)
			sim_fail("out of memory");
		s->opt.vol_list = nl;
		s->opt.vol_list[s->opt.nvol_list++] = (uint32_t)v;
	}
	free(copy);
	if (!s->opt.nvol_list)
		sim_fail_usage("--volumes: no volume in '%s'", arg);
}

/* The shard of a volume: splitmix64's finalizer of its id, modulo N. A
 * fixed function of the id alone, so that every machine, every build
 * and any order of the volumes give a volume the same shard. */
uint32_t sim_volume_shard(uint32_t id, uint32_t n)
{
	uint64_t x = (uint64_t)id + UINT64_C(0x9e3779b97f4a7c15);
	x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
	x ^= x >> 31;
	return (uint32_t)(x % n);
}

static size_t hash32(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x7feb352d;
	x ^= x >> 15;
	x *= 0x846ca68b;
	x ^= x >> 16;
	return x;
}

static void rehash(struct vols *t, size_t ns)
{
	uint32_t *slot = calloc(ns, sizeof(*slot));
	if (!slot)
		sim_fail("out of memory for the volume table");
	for (size_t i = 0; i < t->n; i++) {
		size_t h = hash32(t->v[i].id) & (ns - 1);
		while (slot[h])
			h = (h + 1) & (ns - 1);
		slot[h] = (uint32_t)i + 1;
	}
	free(t->slot);
	t->slot = slot;
	t->nslot = ns;
}

static struct vol *lookup(struct vols *t, uint32_t id, int create)
{
	if (create && 2 * (t->n + 1) > t->nslot)
		rehash(t, t->nslot ? 2 * t->nslot : 1024);
	if (!t->nslot)
		return NULL;
	size_t h = hash32(id) & (t->nslot - 1);
	for (; t->slot[h]; h = (h + 1) & (t->nslot - 1))
		if (t->v[t->slot[h] - 1].id == id)
			return &t->v[t->slot[h] - 1];
	if (!create)
		return NULL;
	if (t->n == t->cap) {
		size_t nc = t->cap ? 2 * t->cap : 256;
		struct vol *nv = realloc(t->v, nc * sizeof(*nv));
		if (!nv)
			sim_fail("out of memory for the volume table");
		t->v = nv;
		t->cap = nc;
	}
	struct vol *v = &t->v[t->n];
	*v = (struct vol){.id = id};
	t->slot[h] = (uint32_t)++t->n;
	return v;
}

struct vol *sim_volume_of(struct sim *in, uint32_t id)
{
	return lookup(&in->in.vols, id, 0);
}

/* A volume of the --footprints table: new, or NULL if it is there already. */
struct vol *sim_volume_add(struct sim *in, uint32_t id)
{
	if (lookup(&in->in.vols, id, 0))
		return NULL;
	return lookup(&in->in.vols, id, 1);
}

/* Pass 1, one event: its volume's counts, extent and footprint. */
void sim_volume_count(struct sim *in, const struct ev *e)
{
	struct vol *v = lookup(&in->in.vols, e->volume, 1);
	v->events++;
	if (!e->length || e->op == EV_FLUSH)
		return;
	uint64_t first, end;
	ev_pages(e, in->opt.cfg.page_size, &first, &end);
	if (end > v->max_end)
		v->max_end = end;
	if (e->op == EV_DISCARD)
		v->discards++;
	if (e->op != EV_WRITE)
		return;
	v->write_pages += end - first;
	if (in->opt.space != SPACE_FOOTPRINT)
		return;
	struct pagemap *all = &in->in.vols.all;
	if (!all->cap && pagemap_init(all, sizeof(uint32_t)))
		sim_fail("out of memory");
	for (uint64_t p = first; p < end; p++) {
		int added;
		uint32_t *val = v->fp_n < UINT32_MAX - 1 ? pagemap_get(all, v->id, p, &added) : NULL;
		if (!val)
			sim_fail("out of memory, or more than 2^32 distinct pages, in the footprint of volume %u",
				 v->id);
		if (added)
			*val = (uint32_t)v->fp_n++;
	}
}

/* The footprint of each selected volume as its model's map: its pages
 * with the numbers pass 1 gave them in first-write order, as a single
 * run of that volume numbers them. Pass 1 keeps one table for all the
 * volumes (a table each would cost its minimum size thousands of times). */
static void split_footprints(struct sim *in)
{
	struct vols *t = &in->in.vols;
	for (size_t i = 0; i < t->n; i++) {
		struct vol *v = &t->v[i];
		if (!v->selected || v->skip || !v->fp_n)
			continue;
		/* --footprints: an empty map of the table's size, numbered as
		 * the trace is read (none for --dry-run, which counts its size) */
		if (in->in.fp_live ? !in->opt.dry_run && ftl_pagemap_init_for(&v->map, v->fp_n) : ftl_pagemap_init(&v->map))
			sim_fail("out of memory for the footprint of volume %u (%llu pages)", v->id,
				 (unsigned long long)v->fp_n);
	}
	for (size_t i = 0; i < t->all.cap; i++) {
		if (!pagemap_used(&t->all, i))
			continue;
		struct vol *v = lookup(t, t->all.vol[i], 0);
		if (!v || !v->selected || v->skip)
			continue;
		int added;
		uint32_t *val = pagemap_get(&v->map.t, 0, pagemap_page(&t->all, i), &added);
		if (!val)
			sim_fail("out of memory");
		*val = *(const uint32_t *)pagemap_val(&t->all, i);
	}
	pagemap_free(&t->all);
}

static int by_pages_written(const void *a, const void *b)
{
	const struct vol *x = *(struct vol *const *)a, *y = *(struct vol *const *)b;
	if (x->write_pages != y->write_pages)
		return x->write_pages > y->write_pages ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static int by_id(const void *a, const void *b)
{
	const struct vol *x = a, *y = b;
	return x->id < y->id ? -1 : x->id > y->id;
}

static uint64_t space_of(const struct sim *in, const struct vol *v)
{
	return in->opt.space == SPACE_GIVEN ? in->opt.cfg.logical_pages
	       : in->opt.space == SPACE_FOOTPRINT ? v->fp_n : v->max_end;
}

/* Which volumes run: --volumes, then --min-pages and empty spaces. */
static void select_volumes(struct sim *in)
{
	struct vols *t = &in->in.vols;
	qsort(t->v, t->n, sizeof(*t->v), by_id);
	if (t->n)
		rehash(t, t->nslot); /* the indices moved */
	for (size_t i = 0; i < t->n; i++)
		t->v[i].selected = !in->opt.nvol_list && !in->opt.vol_top;
	for (size_t i = 0; i < in->opt.nvol_list; i++) {
		struct vol *v = lookup(t, in->opt.vol_list[i], 0);
		if (!v)
			sim_fail("%s: volume %u is not in the trace (--volumes)", in->in.fp_live ? in->opt.fp_path : in->opt.path,
				 in->opt.vol_list[i]);
		v->selected = 1;
	}
	if (in->opt.vol_top) {
		struct vol **r = malloc(t->n * sizeof(*r));
		if (!r && t->n)
			sim_fail("out of memory");
		for (size_t i = 0; i < t->n; i++)
			r[i] = &t->v[i];
		qsort(r, t->n, sizeof(*r), by_pages_written);
		for (size_t i = 0; i < t->n && i < in->opt.vol_top; i++)
			r[i]->selected = 1;
		free(r);
	}
	/* a shard: of the volumes selected, its own (top:N ranks them all) */
	for (size_t i = 0; i < t->n && in->opt.shard_n; i++)
		t->v[i].selected &= sim_volume_shard(t->v[i].id, in->opt.shard_n) == in->opt.shard_k;
	for (size_t i = 0; i < t->n; i++) {
		struct vol *v = &t->v[i];
		uint64_t U = space_of(in, v);
		if (!v->selected)
			continue;
		if (!U)
			v->skip = in->opt.space == SPACE_FOOTPRINT ? "it writes no page" : "it touches no page";
		else if (U < in->opt.min_pages)
			v->skip = "its logical space is below --min-pages";
	}
	split_footprints(in);
}

/* A model per selected volume and configuration, volume by volume. */
struct sim **sim_volume_models(struct sim *in, struct sim **conf, unsigned nconf, unsigned *n)
{
	for (unsigned c = 0; c < nconf; c++) {
		char label[512];
		if (conf[c]->opt.cfg.page_size != in->opt.cfg.page_size)
			sim_fail_usage("--per-volume: the page size cannot vary over a grid: %s has %u-byte pages, the "
				       "command line %u%s",
				       sim_conf_label(in, conf[c], label, sizeof(label)), conf[c]->opt.cfg.page_size,
				       in->opt.cfg.page_size,
				       conf[c]->opt.timing ? " (a device's page_kib sets it: give every device the same, "
							     "or the same page on the command line)"
							   : "");
		if (conf[c]->opt.space != in->opt.space || conf[c]->opt.cfg.logical_pages != in->opt.cfg.logical_pages)
			sim_fail_usage("--per-volume: the logical space and the page size cannot be grid axes");
	}
	select_volumes(in);
	size_t nm = 0;
	for (size_t i = 0; i < in->in.vols.n; i++)
		nm += in->in.vols.v[i].selected ? nconf : 0;
	if (nm > UINT32_MAX)
		sim_fail_usage("--per-volume: too many models (%zu)", nm);
	struct sim **m = calloc(nm ? nm : 1, sizeof(*m));
	if (!m)
		sim_fail("out of memory for %zu models", nm);
	unsigned k = 0;
	for (size_t i = 0; i < in->in.vols.n; i++) {
		struct vol *v = &in->in.vols.v[i];
		if (!v->selected)
			continue;
		v->model0 = k;
		v->nmodel = nconf;
		for (unsigned c = 0; c < nconf; c++, k++) {
			if (!(m[k] = malloc(sizeof(**m))))
				sim_fail("out of memory for %zu models", nm);
			*m[k] = *conf[c];
			m[k]->cell.vol = v;
			m[k]->opt.cfg.logical_pages = space_of(in, v);
		}
	}
	*n = k;
	return m;
}

void sim_volumes_free(struct sim *in)
{
	for (size_t i = 0; i < in->in.vols.n; i++)
		ftl_pagemap_free(&in->in.vols.v[i].map);
	free(in->in.vols.v);
	free(in->in.vols.slot);
	pagemap_free(&in->in.vols.all);
	free(in->opt.vol_list);
}
