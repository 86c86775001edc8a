/*
 * dev_cmt.h - a cached mapping table (DFTL, Gupta, Kim and Urgaonkar,
 * ASPLOS'09; MQSim's Cached_Mapping_Table): C of a drive's U
 * logical-to-physical entries kept in the controller's DRAM, the least
 * recently used evicted, the rest in translation pages on flash. It
 * keeps the cache's state and says what an access costs; the device in
 * time (dev_time.c) charges those flash operations. docs/MODEL.md,
 * "The device in time", says how.
 */
#ifndef FTLKIT_DEV_CMT_H
#define FTLKIT_DEV_CMT_H

#include <stdint.h>

/* What an access needs (cmt_access's flags). */
enum {
	CMT_MISS = 1,	 /* the entry was not cached (now it is) */
	CMT_READ = 2,	 /* ... and its translation page is on flash: read it first */
	CMT_WB = 4,	 /* a dirty entry was evicted: its translation page (*wb) written back */
	CMT_WB_READ = 8	 /* ... its old version read first (it had been written before) */
};

struct cmt;

/* Entries of entry_bytes in mib MiB, and the bytes cmt_open takes for
 * them over `pages` logical pages with `per_tp` entries a translation
 * page (none: a cache of every entry keeps no state). */
uint64_t cmt_entries(double mib, uint32_t entry_bytes);
uint64_t cmt_bytes(uint64_t pages, uint64_t entries, uint32_t per_tp);
/* A cache of `entries` over `pages` logical pages (fewer than 2^32),
 * per_tp entries a translation page: empty, no translation page on
 * flash. One of at least `pages` entries holds the whole map: every
 * access a hit. NULL out of memory. */
struct cmt *cmt_open(uint64_t pages, uint64_t entries, uint32_t per_tp);
void cmt_close(struct cmt *m);
/* lpn's translation page (lpn / per_tp). */
uint32_t cmt_tp(const struct cmt *m, uint32_t lpn);
/* lpn's translation page is on flash (its mapping written before). */
void cmt_written(struct cmt *m, uint32_t lpn);
/* Every translation page counts as not written, the cache empty. */
void cmt_reset(struct cmt *m);
/* The host reads (write 0) or writes (1) logical page lpn: its entry
 * to the front of the LRU list (dirty on a write), inserted on a miss,
 * evicting the least recently used when full; a dirty one's
 * translation page written back, every cached dirty entry of it made
 * clean. 0 for a hit, else CMT_* flags, *wb the translation page
 * written back. O(1), no allocation. */
unsigned cmt_access(struct cmt *m, uint32_t lpn, int write, uint32_t *wb);

#endif
