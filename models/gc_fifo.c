/*
 * gc_fifo.c - FIFO (Desnoyers' LRU cleaning): clean the segment sealed
 * longest ago, whatever it holds. Index: the seal-order list.
 */
#include <stdlib.h>

#include "ftlkit.h"
#include "gc.h"

static int fifo_init(struct ftl *f, const char *arg, void **st, char *err, size_t n)
{
	struct seglist *l = ftl_calloc(f, 1, sizeof(*l));
	*st = l;
	if (!l || seglist_init(f, l))
		return set_err(err, n, "out of memory");
	return 0;
}

static void fifo_seal(struct ftl *f, void *st, uint32_t seg) { seglist_push(st, seg); }
static void fifo_remove(struct ftl *f, void *st, uint32_t seg) { seglist_unlink(st, seg); }

static uint32_t fifo_pick(struct ftl *f, void *st)
{
	struct seglist *l = st;
	uint32_t seg = l->head;
	if (seg != FTL_NONE)
		seglist_unlink(l, seg);
	return seg;
}

static int fifo_check(struct ftl *f, void *st, char *err, size_t n)
{
	return seglist_check(f, st, err, n);
}

static void fifo_destroy(struct ftl *f, void *st)
{
	struct seglist *l = st;
	free(l->prev);
	free(l->next);
	free(l);
}

const struct gc_ops gc_fifo_ops = {
	.name = "fifo",
	.desc = "oldest sealed segment (LRU cleaning)",
	.version = GC_API_VERSION,
	.init = fifo_init,
	.on_seal = fifo_seal,
	.remove = fifo_remove,
	.pick = fifo_pick,
	.check = fifo_check,
	.destroy = fifo_destroy,
};
