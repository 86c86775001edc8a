/*
 * pagemap.h - a hash table keyed by (volume, page number) with a small
 * fixed-size value per key: open addressing, linear probing, a power of
 * two of slots at most 3/4 full, parallel arrays (12 bytes a slot plus
 * the value). tracestat keeps each page's history in one; ftlsim's
 * footprint mode renumbers the pages a trace writes through another.
 * Values start zeroed; pointers to them last until the next insertion.
 */
#ifndef FTLKIT_PAGEMAP_H
#define FTLKIT_PAGEMAP_H

#include <stddef.h>
#include <stdint.h>

struct pagemap {
	uint64_t *page;	    /* page + 1 of each slot; 0: empty */
	uint32_t *vol;	    /* volume of each slot */
	unsigned char *val; /* val_size bytes a slot */
	size_t val_size, cap, n;
};

/* 0 ok, -1 out of memory. val_size may be 0 (a set). */
int pagemap_init(struct pagemap *m, size_t val_size);
void pagemap_free(struct pagemap *m);
/* The value of (vol, page), or NULL if absent. */
void *pagemap_find(const struct pagemap *m, uint32_t vol, uint64_t page);
/* The value of (vol, page), inserted zeroed if absent (*added = 1);
 * NULL when out of memory (the table is unchanged). page < UINT64_MAX. */
void *pagemap_get(struct pagemap *m, uint32_t vol, uint64_t page, int *added);

/*
 * A table filled by one thread while others look keys up in it, as
 * ftlsim numbers a footprint in its reader while its workers replay
 * (--footprints): made at its final size (it never grows), each key's
 * value written before the key is published, and found with acquire
 * loads. pagemap_cap_for(n) is the size pagemap_get's growth reaches
 * with n keys, so a table made for n keys is as large as one grown to n.
 */
size_t pagemap_cap_for(size_t n);
/* 0 ok, -1 out of memory: room for n keys without growing. */
int pagemap_init_for(struct pagemap *m, size_t val_size, size_t n);
/* Insert (vol, page), absent, with its value: 0, or -1 when the table
 * would have to grow (it stays as it was). Only one thread inserts. */
int pagemap_put_shared(struct pagemap *m, uint32_t vol, uint64_t page, const void *val);
/* pagemap_find, safe against a concurrent pagemap_put_shared. */
const void *pagemap_find_shared(const struct pagemap *m, uint32_t vol, uint64_t page);

/* Slot i of 0..cap-1: in use? Its key and value. */
static inline int pagemap_used(const struct pagemap *m, size_t i) { return m->page[i] != 0; }
static inline uint64_t pagemap_page(const struct pagemap *m, size_t i) { return m->page[i] - 1; }
static inline void *pagemap_val(const struct pagemap *m, size_t i) { return m->val + i * m->val_size; }

#endif
