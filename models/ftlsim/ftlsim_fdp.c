/*
 * ftlsim_fdp.c - what ftlsim does for an FDP device (the placement
 * fdp, models/place/place_fdp.c): the reclaim unit's size in segments,
 * and the summary's fdp object, with the figures an FDP drive's
 * statistics log reports and each handle's write amplification.
 */
#include <jansson.h>
#include <string.h>

#include "ftlsim.h"
#include "place.h"
#include "registry.h"


/* The fdp placement's arguments in c, or 0 when it is another. */
static int fdp_args(const struct ftl_config *c, struct policy_args *a)
{
	char err[256];
	const struct place_ops *p = c->placement ? place_find(c->placement, a, err, sizeof(err)) : NULL;
	return p && !strcmp(p->info.name, "fdp");
}

uint32_t sim_fdp_ru(const struct ftl_config *c)
{
	struct policy_args a;
	return fdp_args(c, &a) ? (uint32_t)a.u[3] : 1;
}

unsigned sim_fdp_handles(const struct ftl_config *c, unsigned *h, unsigned *g)
{
	struct policy_args a;
	if (!fdp_args(c, &a))
		return 0;
	*h = (unsigned)a.u[0];
	*g = (unsigned)a.u[1];
	return *h * *g;
}

/* The model's "too little spare space" suggests --pages-per-segment auto
 * from the segment it was given; with reclaim units of K segments that
 * segment is K of --pages-per-segment's, which it does not know (auto
 * would size the segment, K times it the unit): the suggestion made
 * again for K, and smaller reclaim units the other way down. */
void sim_fdp_refusal(const struct ftl_config *c, uint64_t U, char *err, size_t n)
{
	static const char ftl_auto[] = " or use smaller segments (--pages-per-segment auto)";
	struct policy_args a;
	if (!fdp_args(c, &a) || a.u[3] < 2 || !strstr(err, "too little spare space"))
		return;
	char *cut = strstr(err, ftl_auto);
	if (cut)
		*cut = 0;
	size_t k = strlen(err);
	unsigned ru = (unsigned)a.u[3];
	uint32_t b = ftl_auto_pages_per_seg(U);
	char fewer[32];
	snprintf(fewer, sizeof(fewer), ru == 2 ? "ru=1" : "ru below %u", ru);
	if (c->pages_per_seg && b < c->pages_per_seg)
		snprintf(err + k, n - k, ", use smaller segments (--pages-per-segment auto: %u pages, reclaim units of %llu) "
					 "or smaller reclaim units (--fdp %s)", b, (unsigned long long)b * ru, fewer);
	else
		snprintf(err + k, n - k, " or use smaller reclaim units (--fdp %s)", fewer);
}

json_t *sim_fdp_json(const struct sim *s, const struct dev_stats *f)
{
	struct policy_args a;
	if (!fdp_args(&s->opt.cfg, &a))
		return NULL;
	unsigned h = (unsigned)a.u[0], g = (unsigned)a.u[1], ru = (unsigned)a.u[3];
	json_t *o = json_object();
	SETU(o, "handles", h);
	SETU(o, "reclaim_groups", g);
	json_object_set_new(o, "isolation", json_string(a.u[2] ? "persistent" : "initial"));
	SETU(o, "ru_segments", ru);
	SETU(o, "ru_pages", f->pages_per_seg);
	SETU(o, "reclaim_units", f->segments);
	if (s->opt.cfg.host_placement)
		json_object_set_new(o, "host_placement", json_string(s->opt.cfg.host_placement));
	/* The statistics log's figures (host, media bytes written; media
	 * bytes erased), over the run after the fill. */
	uint64_t ps = f->page_size;
	uint64_t media = f->c.host_pages + f->c.gc_pages + f->c.wl_pages;
	SETU(o, "host_bytes_written", f->c.host_pages * ps);
	SETU(o, "media_bytes_written", media * ps);
	SETU(o, "media_bytes_erased", (f->c.victims + f->c.wl_moves) * f->pages_per_seg * ps);
	json_t *arr = json_array();
	for (unsigned i = 0; i < h * g && i < f->streams; i++) {
		struct dev_stream st;
		s->cell.dops->stream(s->cell.dev, i, &st);
		json_t *e = json_object();
		SETU(e, "handle", i % h);
		SETU(e, "reclaim_group", i / h);
		SETU(e, "host_pages_written", st.host_pages);
		if (st.origin_gc_pages != UINT64_MAX) {
			SETU(e, "gc_pages_copied", st.origin_gc_pages);
			json_object_set_new(e, "wa", st.host_pages ? json_real((double)(st.host_pages + st.origin_gc_pages) /
									  (double)st.host_pages)
								   : json_null());
		}
		if (st.host_pages_measured != UINT64_MAX && st.origin_gc_pages_measured != UINT64_MAX) {
			uint64_t hm = st.host_pages_measured, om = st.origin_gc_pages_measured;
			SETU(e, "host_pages_measured", hm);
			SETU(e, "gc_pages_copied_measured", om);
			json_object_set_new(e, "wa_measured", hm ? json_real((double)(hm + om) / (double)hm) : json_null());
		}
		json_array_append_new(arr, e);
	}
	json_object_set_new(o, "per_handle", arr);
	return o;
}
