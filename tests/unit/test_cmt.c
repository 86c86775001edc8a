/*
 * test_cmt.c - the cached mapping table (dev_cmt.c) against a plain
 * LRU kept as an array, most recently used first: the flags of every
 * access (miss, translation read, write-back and its read) and the
 * translation page written back, over random accesses with caches of
 * one entry to more than every entry, translation pages of one entry
 * to more than the logical pages, logical pages past the space; and the
 * same with every translation page's epoch just short of 2^32, so that
 * its write-backs wrap it round.
 */
#include <stdint.h>
#include <string.h>

#include "dev_cmt.c"
#include "rng.h"
#include "th.h"

#define MAXU 40

/* Random accesses on m and on the plain LRU: 1 if every one agrees. */
static int agree(struct cmt *m, uint32_t U, uint32_t C, uint32_t per, struct rng *r, unsigned n)
{
	uint32_t lst[MAXU], k = 0;
	uint8_t dirty[MAXU + 2] = {0}, wr[MAXU] = {0};
	for (uint32_t i = 0; i < U; i++)
		if (rng_next(r) & 1) {
			cmt_written(m, i);
			wr[i / per] = 1;
		}
	for (unsigned a = 0; a < n; a++) {
		uint32_t l = (uint32_t)(rng_next(r) % (U + 2)), wb = UINT32_MAX, want_wb = UINT32_MAX;
		int w = (int)(rng_next(r) & 1);
		unsigned f = cmt_access(m, l, w, &wb), g = 0;
		if (C < U && l < U) {
			uint32_t pos = k;
			for (uint32_t i = 0; i < k; i++)
				if (lst[i] == l)
					pos = i;
			if (pos < k) { /* a hit: to the front */
				memmove(lst + 1, lst, pos * sizeof(uint32_t));
				dirty[l] |= (uint8_t)w;
			} else {
				g = CMT_MISS | (wr[l / per] ? CMT_READ : 0);
				if (k == C) { /* the least recently used out */
					uint32_t o = lst[--k], ot = o / per;
					if (dirty[o]) {
						g |= CMT_WB | (wr[ot] ? CMT_WB_READ : 0);
						wr[ot] = 1;
						want_wb = ot;
						for (uint32_t i = 0; i < k; i++)
							if (lst[i] / per == ot)
								dirty[lst[i]] = 0;
						dirty[o] = 0;
					}
				}
				memmove(lst + 1, lst, k * sizeof(uint32_t));
				k++;
				dirty[l] = (uint8_t)w;
			}
			lst[0] = l;
		}
		if (f != g || (g & CMT_WB && wb != want_wb))
			return 0;
	}
	return 1;
}

int main(void)
{
	struct rng r;
	rng_seed(&r, 7);
	int ok = 1, ok_wrap = 1, whole = 1;
	for (unsigned t = 0; t < 2000; t++) {
		uint32_t U = 1 + (uint32_t)(rng_next(&r) % MAXU), per = 1 + (uint32_t)(rng_next(&r) % (U + 2)),
			 C = 1 + (uint32_t)(rng_next(&r) % (U + 3));
		struct cmt *m = cmt_open(U, C, per);
		if (!m)
			return 1;
		if (C >= U)
			whole &= m->whole;
		ok &= agree(m, U, C, per, &r, 400);
		cmt_close(m);
		if (C >= U)
			continue;
		/* every epoch 2^32 - 3: a few write-backs of a page wrap it */
		m = cmt_open(U, C, per);
		if (!m)
			return 1;
		for (uint32_t i = 0; i < m->ntp; i++)
			m->epoch[i] = UINT32_MAX - 2;
		ok_wrap &= agree(m, U, C, per, &r, 400);
		cmt_close(m);
	}
	CHECK(whole, "a cache of at least every entry holds the whole map");
	CHECK(ok, "every access as a plain LRU's: misses, translation reads, write-backs and the page written back");
	CHECK(ok_wrap, "the same as a translation page's epoch wraps round 2^32");
	return TH_DONE();
}
