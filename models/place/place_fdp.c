/*
 * place_fdp.c - NVMe Flexible Data Placement (TP4146; Allison et al.,
 * "Towards Efficient Flash Caches with Emerging NVMe Flexible Data
 * Placement SSDs", EuroSys'25): the device writes each host write into
 * the open reclaim unit of the handle the write carries, and its GC
 * moves valid data by the isolation mode of the configuration.
 *
 *   fdp:H=8,G=1,I=0,R=1
 *     H  reclaim unit handles (a placement identifier's handle)
 *     G  reclaim groups: a write's placement identifier is g * H + h
 *     I  0: initially isolated (one GC reclaim unit per group, copies
 *           of every handle mixed); 1: persistently isolated (a GC
 *           reclaim unit per handle: copies stay with their handle)
 *     R  erase blocks a reclaim unit (ftlsim sizes the model's segment,
 *        the unit GC reclaims, as R blocks; the placement only names it)
 *
 * Streams: g * H + h for the host writes of handle h in group g, then
 * the GC streams (G of them, or G * H persistently isolated). The
 * groups share the device's free reclaim units (docs/MODEL.md, "FDP").
 *
 * The handle comes from the event's stream field (struct ev: stream
 * H + 1 is placement identifier H, docs/FORMATS.md; 0, none given, is
 * identifier 0, as the NVMe default placement identifier),
 * or, with a host placement (PLACE_HOSTS, --host-placement NAME), from
 * that policy's stream for the write: the host decides, the device sees
 * handles only (one for each stream its host writes may go to, checked
 * at init: ftlsim builds a small model for it before reading its input) (the host policy's gc hook is never called: GC is the
 * device's; it hears of its own handles' reclaim units sealed, placed
 * and cleaned, never of the GC's). A handle past G * H is an error, as the controller aborts
 * a write with an invalid placement handle.
 *
 * Per handle, the GC copies its writes caused (origin_copies): one byte
 * a logical page (the handle of its last host write) when initially
 * isolated; persistently isolated, the handle's own GC stream says it.
 */
#include <stdio.h>
#include <stdlib.h>

#include "place.h"

struct fdp {
	unsigned h, g, persistent, host_streams;
	uint8_t *tag;	  /* initially isolated: handle + 1 of each page's last host write */
	uint64_t *copies; /* per handle: GC copies of its pages */
	const struct place_ops *hp; /* the host placement, or NULL */
	void *hst;
	int host_ready; /* hp->init succeeded: destroy owes it a call */
};

static int host_failed(struct fdp *p, void *st)
{
	return policy_fail(st, "host placement '%s': %s", p->hp->info.name, policy_error(p->hst));
}

static int fdp_init(void *st, const struct ftl *f, const struct place_init *in, struct place_needs *out)
{
	struct fdp *p = st;
	p->h = (unsigned)in->args->u[0];
	p->g = (unsigned)in->args->u[1];
	p->persistent = (unsigned)in->args->u[2];
	p->host_streams = p->h * p->g;
	unsigned gcs = p->persistent ? p->host_streams : p->g;
	if (p->host_streams + gcs > FTL_MAX_STREAMS)
		return policy_fail(st, "%u handles x %u groups need %u streams with their GC reclaim units (at most %d)",
				   p->h, p->g, p->host_streams + gcs, FTL_MAX_STREAMS);
	if (!(p->copies = policy_calloc(st, p->host_streams, sizeof(*p->copies))))
		return policy_fail(st, "out of memory");
	/* persistently isolated, the tags only for --check (fdp_check) */
	if ((!p->persistent || f->check) && p->host_streams > 1 && !(p->tag = policy_calloc(st, ftl_logical_pages(f), 1)))
		return policy_fail(st, "out of memory");
	out->streams = p->host_streams + gcs;
	out->gc_streams = gcs;
	if (in->host) {
		p->hp = in->host;
		p->hst = in->host_st;
		struct place_needs hn = {.streams = 1, .gc_streams = 1};
		if (p->hp->init(p->hst, f, &(struct place_init){.args = in->host_args}, &hn))
			return host_failed(p, st);
		p->host_ready = 1;
		out->keep = hn.keep;
		/* Refused here, before the run, rather than at the first
		 * write to a handle the device lacks. */
		unsigned need = hn.host_streams ? hn.host_streams : hn.streams;
		if (need > p->host_streams)
			return policy_fail(st, "host placement '%s' sends host writes to %u streams%s, each a handle; the "
					       "device has %u (%u handle%s x %u reclaim group%s): give more handles, or a host "
					       "placement with fewer streams", p->hp->info.name, need,
					   need < hn.streams ? " (its others are for GC copies, made by the device here)" : "",
					   p->host_streams, p->h, p->h == 1 ? "" : "s", p->g, p->g == 1 ? "" : "s");
	}
	/* Without a host placement, or for the hooks it lacks, the model
	 * need not call these. */
	const struct place_ops *h = p->hp;
	out->skip = (h && h->request ? 0 : PLACE_NO_REQUEST) | (h && h->invalidate ? 0 : PLACE_NO_INVALIDATE) |
		    (h && h->placed ? 0 : PLACE_NO_PLACED) | (h && h->sealed ? 0 : PLACE_NO_SEALED) |
		    (p->tag || (h && h->on_clean) ? 0 : PLACE_NO_CLEAN);
	return 0;
}

static int fdp_host(void *st, const struct ftl *f, const struct place_write *w, unsigned *s)
{
	struct fdp *p = st;
	unsigned id = w->stream ? w->stream - 1 : 0; /* the event's stream H + 1 is handle H (FORMATS.md) */
	if (p->hp && p->hp->host(p->hst, f, w, &id))
		return host_failed(p, st);
	if (id >= p->host_streams) {
		if (p->hp)
			return policy_fail(st, "host placement '%s' chose stream %u for logical page %u; the device has %u "
					       "handles", p->hp->info.name, id, w->lpn, p->host_streams);
		return policy_fail(st, "a write of logical page %u carries stream %u, placement identifier %u; the device "
				       "has %u (%u handle%s x %u reclaim group%s)", w->lpn, w->stream, id, p->host_streams,
				   p->h, p->h == 1 ? "" : "s", p->g, p->g == 1 ? "" : "s");
	}
	if (p->tag)
		p->tag[w->lpn] = (uint8_t)(id + 1);
	*s = id;
	return 0;
}

static int fdp_gc(void *st, const struct ftl *f, uint32_t lpn, unsigned from, unsigned *s)
{
	struct fdp *p = st;
	unsigned n = p->host_streams;
	if (p->persistent) {
		unsigned id = from < n ? from : from - n;
		p->copies[id]++;
		*s = n + id;
	} else {
		unsigned grp = from < n ? from / p->h : from - n; /* from a host RU, or a group's GC RU */
		unsigned id = p->tag ? (unsigned)p->tag[lpn] - 1 : 0;
		if (id < n) /* a page the host never wrote (a fill) has no handle */
			p->copies[id]++;
		*s = n + grp;
	}
	return 0;
}

static uint64_t fdp_origin_copies(void *st, const struct ftl *f, unsigned s)
{
	struct fdp *p = st;
	return s < p->host_streams ? p->copies[s] : 0;
}

static const char *fdp_name(void *st, const struct ftl *f, unsigned s, char *buf, size_t n)
{
	struct fdp *p = st;
	unsigned hs = p->host_streams;
	if (s < hs) {
		if (p->g > 1)
			snprintf(buf, n, "rg%u.h%u", s / p->h, s % p->h);
		else
			snprintf(buf, n, "h%u", s);
	} else if (p->persistent) {
		s -= hs;
		if (p->g > 1)
			snprintf(buf, n, "rg%u.h%u.gc", s / p->h, s % p->h);
		else
			snprintf(buf, n, "h%u.gc", s);
	} else if (p->g > 1)
		snprintf(buf, n, "rg%u.gc", s - hs);
	else
		snprintf(buf, n, "gc");
	return buf;
}

/* The host placement sees the host's side of the device only. */
static int fdp_request(void *st, const struct ftl *f, uint32_t lpn, uint32_t n)
{
	struct fdp *p = st;
	return p->hp && p->hp->request && p->hp->request(p->hst, f, lpn, n) ? host_failed(p, st) : 0;
}

static int fdp_invalidate(void *st, const struct ftl *f, uint32_t lpn, uint32_t seg)
{
	struct fdp *p = st;
	return p->hp && p->hp->invalidate && p->hp->invalidate(p->hst, f, lpn, seg) ? host_failed(p, st) : 0;
}

/* The host policy's own reclaim units (its handles'), never the GC's:
 * as an FDP host reads the reclaim unit handle status. */
static int own(const struct fdp *p, const struct ftl *f, uint32_t seg)
{
	return p->hp && ftl_seg_stream(f, seg) < p->host_streams;
}

static int fdp_on_clean(void *st, const struct ftl *f, uint32_t seg, int wl)
{
	struct fdp *p = st;
	if (p->tag) /* the copies read their pages' handles: fetch them together */
		place_prefetch_victim(f, seg, p->tag, 1, 0);
	return own(p, f, seg) && p->hp->on_clean && p->hp->on_clean(p->hst, f, seg, wl) ? host_failed(p, st) : 0;
}

static int fdp_sealed(void *st, const struct ftl *f, uint32_t seg)
{
	struct fdp *p = st;
	return own(p, f, seg) && p->hp->sealed && p->hp->sealed(p->hst, f, seg) ? host_failed(p, st) : 0;
}

static int fdp_placed(void *st, const struct ftl *f, uint32_t lpn, uint32_t seg)
{
	struct fdp *p = st;
	return own(p, f, seg) && p->hp->placed && p->hp->placed(p->hst, f, lpn, seg) ? host_failed(p, st) : 0;
}

static void fdp_prefetch(void *st, const struct ftl *f, uint32_t lpn)
{
	struct fdp *p = st;
	if (p->tag)
		ftl_pf(p->tag + lpn);
	if (p->hp && p->hp->prefetch)
		p->hp->prefetch(p->hst, f, lpn);
}

/* --check: every live page lies where its handle (its last host
 * write's placement identifier, the tag) puts it: in a reclaim unit of
 * that handle, or in a GC reclaim unit of the handle's (persistently
 * isolated) or its group's (initially isolated). A page the host never
 * wrote (the fill) is handle 0's. Then the host placement's own check. */
static int fdp_check(void *st, const struct ftl *f)
{
	struct fdp *p = st;
	unsigned n = p->host_streams;
	for (uint32_t seg = 0; p->tag && seg < ftl_segments(f); seg++) {
		if (ftl_state(f, seg) == SEG_FREE)
			continue;
		unsigned s = ftl_seg_stream(f, seg);
		uint32_t p0 = seg * ftl_seg_pages(f);
		for (uint32_t i = 0; i < ftl_seg_pages(f); i += 64) {
			unsigned bit;
			for (uint64_t w = *ftl_vword(f, p0 + i, &bit); w; w &= w - 1) {
				uint32_t lpn = f->p2l[p0 + i + (uint32_t)__builtin_ctzll(w)];
				unsigned id = p->tag[lpn] ? p->tag[lpn] - 1u : 0;
				int ok = s < n ? id == s : p->persistent ? id == s - n : id / p->h == s - n;
				if (!ok)
					return policy_fail(st, "logical page %u, last written under placement identifier %u, is "
							       "live in segment %u of stream %u (reclaim unit of %s)",
							   lpn, id, seg, s, s < n ? "another handle" : "another handle's GC");
			}
		}
	}
	return p->hp && p->hp->check && p->hp->check(p->hst, f) ? host_failed(p, st) : 0;
}

static void fdp_destroy(void *st, const struct ftl *f)
{
	struct fdp *p = st;
	if (p->host_ready && p->hp->destroy)
		p->hp->destroy(p->hst, f);
	free(p->tag);
	free(p->copies);
}

static const struct policy_arg fdp_args[] = {
	{"H", ARG_UINT, 1, 32, 8, "reclaim unit handles"},
	{"G", ARG_UINT, 1, 32, 1, "reclaim groups"},
	{"I", ARG_UINT, 0, 1, 0, "isolation: 0 initially isolated, 1 persistently isolated"},
	{"R", ARG_UINT, 1, 4096, 1, "erase blocks a reclaim unit (the segment ftlsim builds)"},
};

const struct place_ops place_fdp_ops = {
	.info = {.name = "fdp",
		 .desc = "NVMe Flexible Data Placement: writes by the handle they carry (the event's stream, or "
			 "--host-placement), GC copies mixed (I=0, initially isolated) or kept per handle (I=1)",
		 .version = PLACE_API_VERSION,
		 .flags = PLACE_HOSTS,
		 .args = fdp_args,
		 .nargs = 4,
		 .state_size = sizeof(struct fdp)},
	.init = fdp_init,
	.host = fdp_host,
	.gc = fdp_gc,
	.stream_name = fdp_name,
	.on_clean = fdp_on_clean,
	.sealed = fdp_sealed,
	.placed = fdp_placed,
	.request = fdp_request,
	.invalidate = fdp_invalidate,
	.prefetch = fdp_prefetch,
	.check = fdp_check,
	.origin_copies = fdp_origin_copies,
	.destroy = fdp_destroy,
};
