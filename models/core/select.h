/*
 * select.h - class selectors: the first link of the victim-selection
 * chain. A class selector chooses which class of sealed segments GC
 * cleans next; the victim policy (gc.h) then chooses the victim among
 * that class's segments. One file per selector (models/select/
 * select_NAME.c) fills a struct select_ops; models/registry/registry.c
 * lists them and resolves the configuration's choice into it.
 *
 * The classes are the placement's streams: a sealed segment belongs to
 * the stream that wrote it (ftl_seg_stream). With a selector the model
 * keeps one victim-policy room per stream, each indexing the sealed
 * segments that stream wrote, and a pick is
 *   pick_class(&c)      the class to clean, or SELECT_NONE (GC finds
 *                       no victim: nothing in any class frees space)
 *   gc->pick(room c)    the victim among class c's sealed segments.
 * With one stream there is no choice: the model sets no selector up.
 *
 * A selector lives in the room policy.h describes (state allocated by
 * the model, the read-only view through the accessors there, declared
 * arguments, its own generator, failures by return code): it reads the
 * streams' figures (ftl_stream_live, ftl_stream_held, ftl_stream_dead,
 * ftl_stream_seg) and keeps whatever it derives from them in its room.
 *
 * The whole chain, in the order the model asks (core/ftl.c, pick):
 *   1. a placement that declares PLACE_VICTIM (place.h) chooses every
 *      victim itself; the model then refuses a class selector;
 *   2. the class selector, when one is set up;
 *   3. the victim policy, in the chosen class's room (or its one room).
 */
#ifndef FTLKIT_SELECT_H
#define FTLKIT_SELECT_H

#include <stddef.h>
#include <stdint.h>

#include "ftl.h"
#include "policy.h"

#define SELECT_API_VERSION 1

#define SELECT_NONE UINT32_MAX /* pick_class: no class to clean */

struct select_init {
	const struct policy_args *args;
};

struct select_ops {
	struct policy_info info;
	/* How a user asks for it on ftlsim's command line, for the model's
	 * messages ("--spare-share opt"). */
	const char *option;
	/* Set up (the placement and the victim policy's rooms are set up,
	 * no segment is sealed yet). Mandatory. */
	int (*init)(void *st, const struct ftl *f, const struct select_init *in);
	/* *cls = the stream whose sealed segments GC cleans next, or
	 * SELECT_NONE. Called once a victim. Mandatory. */
	int (*pick_class)(void *st, const struct ftl *f, unsigned *cls);
	/* Free what init allocated (the model frees the state). Optional. */
	void (*destroy)(void *st, const struct ftl *f);
};

#endif
