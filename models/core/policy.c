/*
 * policy.c - the policies' room (policy.h): the header the model puts
 * in front of a policy's state, and the one parser of policy names and
 * arguments that gc_find and place_find share.
 */
#include "policy.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftlkit.h"

/* The model's header, in front of the state (the state is 16-aligned). */
struct room {
	_Alignas(16) struct ftl *f;
	struct rng rng;
	char err[256];
};

static struct room *room_of(void *st) { return (struct room *)st - 1; }

void *policy_room_new(struct ftl *f, size_t state_size, uint64_t seed)
{
	/* One byte more than asked: with no state, r + 1 would point just
	 * past the block, and a leak checker would take the room as lost. */
	struct room *r = calloc(1, sizeof(*r) + state_size + 1);
	if (!r)
		return NULL;
	r->f = f;
	rng_seed(&r->rng, seed);
	f->mem_bytes += sizeof(*r) + state_size;
	return r + 1;
}

void policy_room_free(void *st)
{
	if (st)
		free(room_of(st));
}

const char *policy_error(void *st)
{
	struct room *r = room_of(st);
	return r->err[0] ? r->err : "failed without saying why";
}

void *policy_calloc(void *st, size_t n, size_t size)
{
	return ftl_calloc(room_of(st)->f, n, size);
}

void *policy_realloc(void *st, void *p, size_t old_bytes, size_t new_bytes)
{
	void *q = realloc(p, new_bytes ? new_bytes : 1);
	if (q)
		room_of(st)->f->mem_bytes += (uint64_t)new_bytes - old_bytes;
	return q;
}

int policy_fail(void *st, const char *fmt, ...)
{
	struct room *r = room_of(st);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->err, sizeof(r->err), fmt, ap);
	va_end(ap);
	return -1;
}

struct rng *policy_rng(void *st) { return &room_of(st)->rng; }

/*
 * Arguments: "V1,V2" by position or "K=V,K=V" by name.
 */

static int range_err(const struct policy_info *pi, const struct policy_arg *d, const char *v, size_t len,
		     char *err, size_t n)
{
	return set_err(err, n, "%s:%s needs %s%.15g <= %s <= %.15g, not '%.*s'", pi->name, d->name,
		       d->kind == ARG_UINT ? "an integer " : "", d->min, d->name, d->max, (int)len, v);
}

static int parse_one(const struct policy_info *pi, unsigned i, const char *v, size_t len,
		     struct policy_args *a, char *err, size_t n)
{
	const struct policy_arg *d = &pi->args[i];
	char buf[64];
	if (len >= sizeof(buf))
		return range_err(pi, d, v, len, err, n);
	memcpy(buf, v, len);
	buf[len] = 0;
	double x;
	uint64_t u = 0;
	if (d->kind == ARG_UINT) {
		if (parse_u64(buf, &u))
			return range_err(pi, d, v, len, err, n);
		x = (double)u;
	} else if (parse_double(buf, &x) || !isfinite(x)) {
		return range_err(pi, d, v, len, err, n);
	}
	if (x < d->min || x > d->max)
		return range_err(pi, d, v, len, err, n);
	if (a->given & (1u << i))
		return set_err(err, n, "%s: argument %s given twice", pi->name, d->name);
	a->u[i] = u;
	a->x[i] = x;
	a->given |= 1u << i;
	return 0;
}

static int parse_args(const struct policy_info *pi, const char *s, struct policy_args *a, char *err, size_t n)
{
	memset(a, 0, sizeof(*a));
	for (unsigned i = 0; i < pi->nargs; i++) {
		a->x[i] = pi->args[i].def;
		a->u[i] = pi->args[i].kind == ARG_UINT ? (uint64_t)pi->args[i].def : 0;
	}
	if (!s)
		return 0;
	if (!pi->nargs)
		return set_err(err, n, "%s takes no argument, not '%s'", pi->name, s);
	unsigned pos = 0;
	for (const char *p = s;;) {
		const char *end = strchr(p, ','), *eq;
		size_t len = end ? (size_t)(end - p) : strlen(p);
		eq = memchr(p, '=', len);
		unsigned i = pos;
		if (eq) {
			for (i = 0; i < pi->nargs; i++)
				if (strlen(pi->args[i].name) == (size_t)(eq - p) &&
				    !strncmp(pi->args[i].name, p, (size_t)(eq - p)))
					break;
			if (i == pi->nargs)
				return set_err(err, n, "%s has no argument '%.*s'", pi->name, (int)(eq - p), p);
			len -= (size_t)(eq + 1 - p);
			p = eq + 1;
		} else if (i >= pi->nargs) {
			return set_err(err, n, "%s takes %u argument%s, not '%s'", pi->name, pi->nargs,
				       pi->nargs == 1 ? "" : "s", s);
		}
		if (parse_one(pi, i, p, len, a, err, n))
			return -1;
		pos = i + 1;
		if (!end)
			return 0;
		p = end + 1;
	}
}

int policy_find(const struct policy_info *(*at)(unsigned i), const char *kind, const char *spec,
		struct policy_args *a, char *err, size_t n)
{
	const char *colon = strchr(spec, ':');
	size_t len = colon ? (size_t)(colon - spec) : strlen(spec);
	const struct policy_info *pi;
	unsigned i;
	for (i = 0; (pi = at(i)); i++)
		if (strlen(pi->name) == len && !strncmp(pi->name, spec, len))
			break;
	if (!pi)
		return set_err(err, n, "unknown %s '%s'", kind, spec);
	struct policy_args tmp;
	if (parse_args(pi, colon ? colon + 1 : NULL, a ? a : &tmp, err, n))
		return -1;
	return (int)i;
}

int policy_describe_args(const struct policy_info *pi, char *buf, size_t n)
{
	size_t used = 0;
	if (n)
		buf[0] = 0;
	for (unsigned i = 0; i < pi->nargs && used < n; i++) {
		const struct policy_arg *d = &pi->args[i];
		int w = snprintf(buf + used, n - used, "%s%s: %s, %.15g..%.15g, default %.15g", i ? "; " : "", d->name,
				 d->what, d->min, d->max, d->def);
		if (w < 0)
			break;
		used += (size_t)w;
	}
	return pi->nargs ? 1 : 0;
}
