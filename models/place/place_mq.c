/*
 * place_mq.c - MultiQueue (MQ) of AutoStream (Yang, Pandurangan, Choi,
 * Balakrishnan: "AutoStream: Automatic Stream Management for Multi-
 * streamed SSDs", SYSTOR'17). The logical space is cut into chunks of
 * 256 pages (1 MiB at 4 KiB); each host write request counts one access
 * per chunk it touches, and a chunk with c accesses sits in LRU queue
 * min(N-2, floor(ln c)) (mq:N streams, default 6). Each access gives
 * the chunk an expiry time, now + the device lifetime (the accesses
 * between the last two of the most accessed chunk); after each access
 * the least recently used chunk of every queue is demoted one queue if
 * it expired. Host writes go to their chunk's queue's stream, GC copies
 * to stream N-1. Time counts chunk accesses.
 *
 * SepBIT's simulator (fallfish/sepbit) moves an expired chunk to the
 * lower queue's list but keeps writing its pages to the old queue's
 * stream; here a demoted chunk's writes go to its new queue, as the
 * paper describes. 29 bytes per chunk (0.11 byte a page).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "place.h"

#define MQ_CHUNK 256

struct mq {
	unsigned n;
	uint32_t nchunks;
	uint32_t *writes, *prev, *next;
	uint64_t *last, *expire;
	uint8_t *queue;
	uint32_t head[FTL_MAX_STREAMS], tail[FTL_MAX_STREAMS];
	uint64_t now, lifetime, max_writes;
	uint32_t hottest;
};

static int mq_init(void *st, const struct ftl *f, const struct place_init *in, struct place_needs *out)
{
	struct mq *p = st;
	p->n = (unsigned)in->args->u[0];
	p->nchunks = (uint32_t)((ftl_logical_pages(f) + MQ_CHUNK - 1) / MQ_CHUNK);
	size_t c = p->nchunks;
	if (!(p->writes = policy_calloc(st, c, 4)) || !(p->prev = policy_calloc(st, c, 4)) ||
	    !(p->next = policy_calloc(st, c, 4)) || !(p->last = policy_calloc(st, c, 8)) ||
	    !(p->expire = policy_calloc(st, c, 8)) || !(p->queue = policy_calloc(st, c, 1)))
		return policy_fail(st, "out of memory");
	for (unsigned q = 0; q < FTL_MAX_STREAMS; q++)
		p->head[q] = p->tail[q] = FTL_NONE;
	p->hottest = FTL_NONE;
	out->streams = p->n;
	out->gc_streams = 1;
	out->host_streams = p->n - 1;
	return 0;
}

static void q_unlink(struct mq *p, uint32_t c)
{
	unsigned q = p->queue[c];
	if (p->prev[c] != FTL_NONE)
		p->next[p->prev[c]] = p->next[c];
	else
		p->head[q] = p->next[c];
	if (p->next[c] != FTL_NONE)
		p->prev[p->next[c]] = p->prev[c];
	else
		p->tail[q] = p->prev[c];
}

static void q_append(struct mq *p, uint32_t c, unsigned q)
{
	p->queue[c] = (uint8_t)q;
	p->prev[c] = p->tail[q];
	p->next[c] = FTL_NONE;
	if (p->tail[q] != FTL_NONE)
		p->next[p->tail[q]] = c;
	else
		p->head[q] = c;
	p->tail[q] = c;
}

static void promote(struct mq *p, uint32_t c)
{
	p->now++;
	uint64_t last = 0;
	unsigned q = 0;
	if (p->writes[c]) {
		last = p->last[c];
		q_unlink(p, c);
		double lg = log((double)p->writes[c] + 1);
		q = lg >= p->n - 2 ? p->n - 2 : (unsigned)lg;
	}
	if (p->writes[c] < UINT32_MAX)
		p->writes[c]++;
	if (p->writes[c] > p->max_writes) {
		p->hottest = c;
		p->lifetime = p->now - last;
		p->max_writes = p->writes[c];
	}
	q_append(p, c, q);
	p->last[c] = p->now;
	p->expire[c] = p->now + p->lifetime;
}

static void demote(struct mq *p)
{
	for (unsigned q = 0; q + 1 < p->n; q++) {
		uint32_t c = p->head[q];
		if (c == FTL_NONE || p->expire[c] >= p->now)
			continue;
		p->expire[c] = p->now + p->lifetime;
		q_unlink(p, c);
		if (c == p->hottest && p->head[q] != FTL_NONE) {
			p->hottest = p->head[q];
			p->max_writes = p->writes[p->hottest];
		}
		q_append(p, c, q ? q - 1 : 0);
	}
}

static int mq_request(void *st, const struct ftl *f, uint32_t lpn, uint32_t npages)
{
	struct mq *p = st;
	uint64_t end = (uint64_t)lpn + npages;
	for (uint64_t c = lpn / MQ_CHUNK; c * MQ_CHUNK < end && c < p->nchunks; c++) {
		promote(p, (uint32_t)c);
		demote(p);
	}
	return 0;
}

static int mq_host(void *st, const struct ftl *f, const struct place_write *w, unsigned *s)
{
	*s = ((struct mq *)st)->queue[w->lpn / MQ_CHUNK];
	return 0;
}

static int mq_gc(void *st, const struct ftl *f, uint32_t lpn, unsigned from, unsigned *s)
{
	*s = ((struct mq *)st)->n - 1;
	return 0;
}

static const char *mq_name(void *st, const struct ftl *f, unsigned s, char *buf, size_t n)
{
	if (s == ((struct mq *)st)->n - 1)
		return "gc";
	snprintf(buf, n, "queue%u", s);
	return buf;
}

static int mq_check(void *st, const struct ftl *f)
{
	struct mq *p = st;
	uint64_t seen = 0, listed = 0;
	for (uint32_t c = 0; c < p->nchunks; c++)
		seen += p->writes[c] > 0;
	for (unsigned q = 0; q + 1 < p->n; q++)
		for (uint32_t c = p->head[q]; c != FTL_NONE; c = p->next[c]) {
			if (p->queue[c] != q || ++listed > seen)
				return policy_fail(st, "chunk %u in queue %u says queue %u", c, q, p->queue[c]);
		}
	if (listed != seen)
		return policy_fail(st, "%llu chunks in the queues, %llu accessed", (unsigned long long)listed,
				   (unsigned long long)seen);
	return 0;
}

static void mq_destroy(void *st, const struct ftl *f)
{
	struct mq *p = st;
	free(p->writes);
	free(p->prev);
	free(p->next);
	free(p->last);
	free(p->expire);
	free(p->queue);
}

static const struct policy_arg mq_args[] = {
	{"N", ARG_UINT, 2, FTL_MAX_STREAMS, 6, "streams"},
};

const struct place_ops place_mq_ops = {
	.info = {.name = "mq",
		 .desc = "AutoStream's MultiQueue (SYSTOR'17): 1 MiB chunks in LRU queues by log access count, expiring down (mq:N, default 6)",
		 .version = PLACE_API_VERSION,
		 .args = mq_args,
		 .nargs = 1,
		 .state_size = sizeof(struct mq)},
	.init = mq_init,
	.request = mq_request,
	.host = mq_host,
	.gc = mq_gc,
	.check = mq_check,
	.stream_name = mq_name,
	.destroy = mq_destroy,
};
