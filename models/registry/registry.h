/*
 * registry.h - every victim policy, placement and class selector by
 * name: the one place that knows the concrete parts. The model's core
 * links without any of them; a program resolves the names of a
 * configuration here (registry_resolve) and hands ftl_new the ops and
 * parsed arguments.
 *
 * Adding a policy: write victim/gc_NAME.c (or place/place_NAME.c,
 * select/select_NAME.c) with its ops table and add one line to the
 * table in registry.c.
 */
#ifndef FTLKIT_REGISTRY_H
#define FTLKIT_REGISTRY_H

#include <stddef.h>

#include "ftl.h"
#include "gc.h"
#include "place.h"
#include "select.h"

/* NULL-terminated; the first victim policy and the first placement are
 * the defaults. */
extern const struct gc_ops *const gc_table[];
extern const struct place_ops *const place_table[];
extern const struct select_ops *const select_table[];

/* Find "NAME[:ARGS]" and parse its arguments into *a (may be NULL);
 * NULL with a message ("unknown victim policy 'x'"). */
const struct gc_ops *gc_find(const char *spec, struct policy_args *a, char *err, size_t n);
const struct place_ops *place_find(const char *spec, struct policy_args *a, char *err, size_t n);
const struct select_ops *select_find(const char *spec, struct policy_args *a, char *err, size_t n);

/* Every entry declares the interface version it was written for, its
 * mandatory operations and at most POLICY_MAX_ARGS arguments: 0, or -1
 * with the first that does not. */
int registry_check(char *err, size_t n);

/* c->policy and c->placement resolved into c->gc, c->place and their
 * parsed arguments (what ftl_new takes), c->gc_chosen (another victim
 * policy than the default, or arguments), and c->spare_share into the
 * class selector c->select: 0, or -1 with the message ftl_new would
 * give for an unknown name or a bad argument. */
int registry_resolve(struct ftl_config *c, char *err, size_t n);

/* ftl_new over a copy of c resolved here: NULL with a message. */
struct ftl *registry_ftl_new(const struct ftl_config *c, char *err, size_t n);

#endif
