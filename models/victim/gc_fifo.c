/*
 * gc_fifo.c - FIFO (Desnoyers' LRU cleaning): clean the segment sealed
 * longest ago, whatever it holds. Index: the seal-order list.
 */
#include "ftlkit.h"
#include "gc.h"

static int fifo_init(void *st, const struct ftl *f, const struct gc_init *in, struct gc_needs *out)
{
	return seglist_init(st, f, st) ? policy_fail(st, "out of memory") : 0;
}

static int fifo_seal(void *st, const struct ftl *f, uint32_t seg)
{
	seglist_push(st, seg);
	return 0;
}

static int fifo_remove(void *st, const struct ftl *f, uint32_t seg)
{
	seglist_unlink(st, seg);
	return 0;
}

static int fifo_pick(void *st, const struct ftl *f, uint32_t *seg)
{
	struct seglist *l = st;
	*seg = l->head;
	if (*seg != FTL_NONE)
		seglist_unlink(l, *seg);
	return 0;
}

static int fifo_check(void *st, const struct ftl *f, char *err, size_t n)
{
	return seglist_check(f, st, err, n);
}

static void fifo_destroy(void *st, const struct ftl *f) { seglist_free(st); }

const struct gc_ops gc_fifo_ops = {
	.info = {.name = "fifo",
		 .desc = "oldest sealed segment (LRU cleaning)",
		 .version = GC_API_VERSION,
		 .state_size = sizeof(struct seglist)},
	.init = fifo_init,
	.on_seal = fifo_seal,
	.remove = fifo_remove,
	.pick = fifo_pick,
	.check = fifo_check,
	.destroy = fifo_destroy,
};
