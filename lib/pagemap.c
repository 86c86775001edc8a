/*
 * pagemap.c - the (volume, page) hash table (pagemap.h).
 */
#include "pagemap.h"

#include <stdlib.h>
#include <string.h>

/* Small, so that a map per volume (ftlsim --per-volume on thousands of
 * volumes) costs what the volume writes: 4 KiB empty, doubling. */
enum { PAGEMAP_MIN = 1 << 8 };

static uint64_t hash2(uint64_t page, uint32_t vol)
{
	uint64_t x = page * 0x9e3779b97f4a7c15ull ^ ((uint64_t)vol * 0xc2b2ae3d27d4eb4full);
	x ^= x >> 31;
	x *= 0xbf58476d1ce4e5b9ull;
	return x ^ (x >> 29);
}

static int alloc(struct pagemap *m, size_t cap)
{
	m->page = calloc(cap, sizeof(uint64_t));
	m->vol = calloc(cap, sizeof(uint32_t));
	m->val = calloc(cap, m->val_size ? m->val_size : 1);
	m->cap = cap;
	if (m->page && m->vol && m->val)
		return 0;
	free(m->page);
	free(m->vol);
	free(m->val);
	return -1;
}

int pagemap_init(struct pagemap *m, size_t val_size)
{
	memset(m, 0, sizeof(*m));
	m->val_size = val_size;
	if (alloc(m, PAGEMAP_MIN)) {
		memset(m, 0, sizeof(*m));
		return -1;
	}
	return 0;
}

void pagemap_free(struct pagemap *m)
{
	free(m->page);
	free(m->vol);
	free(m->val);
	memset(m, 0, sizeof(*m));
}

/* The slot of (vol, page + 1 = key): where it is, or the empty slot
 * that ends its probe sequence. */
static size_t slot(const struct pagemap *m, uint32_t vol, uint64_t key)
{
	size_t mask = m->cap - 1, i = hash2(key - 1, vol) & mask;
	while (m->page[i] && (m->page[i] != key || m->vol[i] != vol))
		i = (i + 1) & mask;
	return i;
}

void *pagemap_find(const struct pagemap *m, uint32_t vol, uint64_t page)
{
	if (!m->cap)
		return NULL;
	size_t i = slot(m, vol, page + 1);
	return m->page[i] ? pagemap_val(m, i) : NULL;
}

static int grow(struct pagemap *m)
{
	struct pagemap o = *m;
	if (alloc(m, o.cap * 2)) {
		*m = o;
		return -1;
	}
	for (size_t i = 0; i < o.cap; i++) {
		if (!o.page[i])
			continue;
		size_t j = slot(m, o.vol[i], o.page[i]);
		m->page[j] = o.page[i];
		m->vol[j] = o.vol[i];
		memcpy(pagemap_val(m, j), o.val + i * o.val_size, o.val_size);
	}
	free(o.page);
	free(o.vol);
	free(o.val);
	return 0;
}

void *pagemap_get(struct pagemap *m, uint32_t vol, uint64_t page, int *added)
{
	*added = 0;
	if (!m->cap)
		return NULL;
	size_t i = slot(m, vol, page + 1);
	if (m->page[i])
		return pagemap_val(m, i);
	if ((m->n + 1) * 4 > m->cap * 3) {
		if (grow(m))
			return NULL;
		i = slot(m, vol, page + 1);
	}
	m->page[i] = page + 1;
	m->vol[i] = vol;
	m->n++;
	*added = 1;
	return pagemap_val(m, i);
}

size_t pagemap_cap_for(size_t n)
{
	size_t cap = PAGEMAP_MIN;
	while (n * 4 > cap * 3)
		cap *= 2;
	return cap;
}

int pagemap_init_for(struct pagemap *m, size_t val_size, size_t n)
{
	memset(m, 0, sizeof(*m));
	m->val_size = val_size;
	if (alloc(m, pagemap_cap_for(n))) {
		memset(m, 0, sizeof(*m));
		return -1;
	}
	return 0;
}

int pagemap_put_shared(struct pagemap *m, uint32_t vol, uint64_t page, const void *val)
{
	if (!m->cap || (m->n + 1) * 4 > m->cap * 3)
		return -1;
	size_t i = slot(m, vol, page + 1);
	m->vol[i] = vol;
	memcpy(pagemap_val(m, i), val, m->val_size);
	__atomic_store_n(&m->page[i], page + 1, __ATOMIC_RELEASE);
	m->n++;
	return 0;
}

const void *pagemap_find_shared(const struct pagemap *m, uint32_t vol, uint64_t page)
{
	if (!m->cap)
		return NULL;
	size_t mask = m->cap - 1, i = hash2(page, vol) & mask;
	for (;; i = (i + 1) & mask) {
		uint64_t k = __atomic_load_n(&m->page[i], __ATOMIC_ACQUIRE);
		if (!k)
			return NULL;
		if (k == page + 1 && m->vol[i] == vol)
			return pagemap_val(m, i);
	}
}
