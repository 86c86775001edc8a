/*
 * test_pagemap.c - lib/pagemap.c: (volume, page) keys kept apart,
 * values zeroed on insertion and kept through growth, absent keys not
 * found, the slot walk visiting every key once; and the model's
 * footprint renumbering built on it (first-touch order, 0..n-1), also
 * in a map made at its final size (filled by one thread, never grown).
 */
#include <stdlib.h>
#include <string.h>

#include "ftl.h"
#include "pagemap.h"
#include "th.h"

struct val {
	uint64_t page;
	uint32_t vol, hits;
};

int main(void)
{
	struct pagemap m;
	CHECK(!pagemap_init(&m, sizeof(struct val)) && m.cap == 256 && !m.n, "init: an empty table of 256 slots");
	CHECK(!pagemap_find(&m, 0, 7), "find in an empty table: NULL");

	/* 200000 keys over 3 volumes, the same page numbers in each, then
	 * every key again: the table grows several times on the way. */
	enum { N = 200000, V = 3 };
	int fresh = 1, dup = 1, kept = 1;
	size_t cap0 = m.cap;
	for (int pass = 0; pass < 2; pass++)
		for (uint32_t v = 0; v < V; v++)
			for (uint64_t p = 0; p < N; p++) {
				int added;
				struct val *x = pagemap_get(&m, v, p * 977, &added);
				if (!x)
					return 1;
				if (pass == 0) {
					fresh &= added && x->hits == 0 && x->page == 0;
					x->page = p * 977;
					x->vol = v;
				} else
					dup &= !added;
				x->hits++;
			}
	CHECK(fresh, "a new key's value starts zeroed and is reported as added");
	CHECK(dup, "a key seen before is not added again");
	CHECK(m.n == (size_t)N * V, "%zu keys, as many as distinct (volume, page) pairs", m.n);
	CHECK(m.cap > cap0 && m.n * 4 <= m.cap * 3, "grown from %zu to %zu slots, at most 3/4 full", cap0, m.cap);
	for (uint32_t v = 0; v < V; v++)
		for (uint64_t p = 0; p < N; p++) {
			const struct val *x = pagemap_find(&m, v, p * 977);
			kept &= x && x->page == p * 977 && x->vol == v && x->hits == 2;
		}
	CHECK(kept, "every value is found under its own key after growth, volumes apart");
	CHECK(!pagemap_find(&m, 0, 1) && !pagemap_find(&m, V, 0), "absent pages and volumes are not found");
	size_t used = 0;
	uint64_t sum = 0;
	for (size_t i = 0; i < m.cap; i++)
		if (pagemap_used(&m, i)) {
			used++;
			sum += pagemap_page(&m, i) / 977 + m.vol[i];
		}
	CHECK(used == m.n && sum == (uint64_t)V * N * (N - 1) / 2 + (uint64_t)N * (V * (V - 1) / 2),
	      "the slot walk sees every key once");
	pagemap_free(&m);
	CHECK(!m.page && !m.cap, "freed");

	/* A set: no value bytes. */
	CHECK(!pagemap_init(&m, 0), "a set (value size 0)");
	int added;
	CHECK(pagemap_get(&m, 1, 5, &added) && added && pagemap_get(&m, 1, 5, &added) && !added && m.n == 1,
	      "a set holds a key once");
	pagemap_free(&m);

	/* The footprint renumbering: pages in first-touch order. */
	struct ftl_pagemap fm;
	int order = 1;
	CHECK(!ftl_pagemap_init(&fm), "footprint map: init");
	const uint64_t pages[] = {900, 3, 900, 1ull << 40, 3, 0};
	for (size_t i = 0; i < sizeof(pages) / sizeof(pages[0]); i++)
		order &= !ftl_pagemap_add(&fm, pages[i]);
	order &= ftl_pagemap_get(&fm, 900) == 0 && ftl_pagemap_get(&fm, 3) == 1 &&
		 ftl_pagemap_get(&fm, 1ull << 40) == 2 && ftl_pagemap_get(&fm, 0) == 3;
	CHECK(order && fm.t.n == 4, "footprint map: 4 distinct pages numbered 0..3 in first-touch order");
	CHECK(ftl_pagemap_get(&fm, 4) == FTL_NONE && ftl_pagemap_get(&fm, UINT64_MAX) == FTL_NONE,
	      "footprint map: an unseen page (and the page past 2^64 bytes) has no logical page");
	CHECK(ftl_pagemap_add(&fm, UINT64_MAX) == -1, "footprint map: page 2^64-1 refused, not wrapped");
	ftl_pagemap_free(&fm);

	/* A map made for n pages (ftlsim --footprints): as large as one grown
	 * to n, numbered the same, never growing. */
	enum { NF = 150000 };
	struct ftl_pagemap grown, made;
	int same = 1;
	CHECK(!ftl_pagemap_init(&grown) && !ftl_pagemap_init_for(&made, NF), "footprint maps: init, init_for");
	size_t cap_made = made.t.cap;
	for (uint64_t i = 0; i < 2 * NF; i++) {
		uint64_t p = (i * 7919) % NF * 3; /* every page twice, out of order */
		same &= !ftl_pagemap_add(&grown, p) && !ftl_pagemap_add_shared(&made, p);
	}
	for (uint64_t p = 0; p < 3 * NF; p++)
		same &= ftl_pagemap_get(&grown, p) == ftl_pagemap_get(&made, p);
	CHECK(same && made.t.n == NF, "a map made for n pages numbers as the grown one does");
	CHECK(made.t.cap == cap_made && made.t.cap == grown.t.cap && made.t.cap == pagemap_cap_for(NF),
	      "made at the size growth reaches (%zu slots), never grown", made.t.cap);
	CHECK(pagemap_cap_for(0) == 256 && pagemap_cap_for(192) == 256 && pagemap_cap_for(193) == 512 &&
		      pagemap_cap_for(49152) == 65536 && pagemap_cap_for(49153) == 131072,
	      "pagemap_cap_for: at most 3/4 full, from the minimum size");
	while (made.t.n + 1 <= made.t.cap * 3 / 4)
		if (ftl_pagemap_add_shared(&made, 10 * NF + made.t.n))
			break;
	CHECK(ftl_pagemap_add_shared(&made, UINT32_MAX) == -1 && made.t.cap == cap_made,
	      "full: a new page refused, the map does not grow");
	ftl_pagemap_free(&grown);
	ftl_pagemap_free(&made);
	return TH_DONE();
}
