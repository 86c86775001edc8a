/*
 * dev_time.c - a device in time (dev_time.h): the page-mapped FTL
 * (dev_ftl.c) underneath, its every flash operation seen through the
 * flash-operation hook and charged to a unit (a die, or a plane when a
 * die has several) and a channel, each a queue in simulated time.
 *
 * The rules (docs/MODEL.md, "The device in time"):
 * - A unit serves its operations in the order they are issued. A page
 *   program holds the channel for the transfer, then the unit for
 *   tPROG; a page read holds the unit for tR, then the channel for the
 *   transfer; an erase holds the unit for tBERS (FEMU's rules).
 * - A request starts at its arrival (open loop: the trace's time x
 *   --time-scale; closed loop: when one of --qd N outstanding requests
 *   completes), or when an unqueued TRIM before it ends. Its pages are
 *   issued at its start; a write completes when its last page is
 *   programmed, a read when its last page is transferred.
 * - Foreground GC (the model cleans when a write finds no free
 *   segment): the request waits for the whole pass; the pass's reads
 *   start at the request's start, a victim's erase and the copies after
 *   the reads.
 * - A zoned device (dev_zns.c) underneath: no GC; a zone command's
 *   flash work (a reset's erase, a finish's padding) is the command's
 *   own, and the command completes when that work does.
 * - Work that yields (background GC in idle time, preemptible GC): its
 *   operations wait in a queue per unit and run only while the unit has
 *   nothing else to do; a request's operation waits at most for the one
 *   in progress (yield at page granularity). The model counts such a
 *   victim free at once; a pending erase counts against the hard
 *   threshold of preemptible GC.
 */
#include <ctype.h>
#include <limits.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dev.h"
#include "dev_cmt.h"
#include "dev_time.h"
#include "flash.h"
#include "ftlkit.h"

/*
 * Profiles.
 */

struct profile {
	const char *name, *source;
	unsigned channels, dies, planes;
	uint32_t page_kib;
	double tr, tprog, tbers, xfer;
	unsigned types;			     /* page types (0: every page tr and tprog) */
	double tr_t[TIME_TYPES], tprog_t[TIME_TYPES]; /* (tr, tprog: their mean) */
};

static const struct profile profiles[] = {
	{"femu",
	 "FEMU's defaults (Li et al., FAST'18; its black-box SSD): 8 channels x 8 dies, 4 KiB pages, "
	 "tR 40 us, tPROG 200 us, tBERS 2 ms, no transfer time",
	 8, 8, 1, 4, 40, 200, 2000, 0, 0, {0}, {0}},
	{"tlc",
	 "TLC NAND of SimpleSSD (Jung et al., IEEE CAL 2017, as FEMU carries it): the mean of the lower, "
	 "centre and upper page (tR 56.5/77.5/106 us, tPROG 820.5/2225/5734 us), tBERS 3 ms, 52.4 us a "
	 "page on the channel; 8 channels x 4 dies, 16 KiB pages",
	 8, 4, 1, 16, 80, 2926.5, 3000, 52.433, 0, {0}, {0}},
	{"tlc-types",
	 "the tlc profile with each page type its own times (SimpleSSD's TLC, Jung et al., IEEE CAL 2017): "
	 "lower, centre and upper pages in turn in a block, tR 56.5/77.5/106 us, tPROG 820.5/2225/5734 us",
	 8, 4, 1, 16, 80, 2926.5, 3000, 52.433, 3, {56.5, 77.5, 106}, {820.5, 2225, 5734}},
};
enum { NPROFILES = sizeof(profiles) / sizeof(profiles[0]) };

/* The profile of that name, or NULL. */
static const struct profile *profile_named(const char *name)
{
	for (unsigned i = 0; i < NPROFILES; i++)
		if (!strcmp(name, profiles[i].name))
			return &profiles[i];
	return NULL;
}

static void apply(struct time_config *c, const struct profile *p)
{
	snprintf(c->profile, sizeof(c->profile), "%s", p->name);
	c->channels = p->channels;
	c->dies = p->dies;
	c->planes = p->planes;
	c->page_kib = p->page_kib;
	c->tr_us = p->tr;
	c->tprog_us = p->tprog;
	c->tbers_us = p->tbers;
	c->xfer_us = p->xfer;
	c->tr_n = c->tprog_n = p->types ? p->types : 1;
	c->page_order = ORDER_CYCLIC;
	for (unsigned i = 0; i < TIME_TYPES; i++) {
		c->tr_t[i] = p->types ? p->tr_t[i] : p->tr;
		c->tprog_t[i] = p->types ? p->tprog_t[i] : p->tprog;
	}
}

void time_config_default(struct time_config *c)
{
	memset(c, 0, sizeof(*c));
	apply(c, &profiles[0]);
	c->layout = LAYOUT_STRIPE;
	c->cache_us = 0.5; /* a 4 KiB page at 8 GB/s: DDR4's order */
	c->cmt.entry_bytes = 8; /* 4-byte logical and physical page numbers (DFTL) */
	c->time_scale = 1;
	c->timeline_ns = 1000000000ull;
}

void time_config_device_default(struct time_config *c)
{
	struct time_config d;
	time_config_default(&d);
	snprintf(c->profile, sizeof(c->profile), "%s", d.profile);
	c->modified = 0;
	c->given = 0;
	c->channels = d.channels;
	c->dies = d.dies;
	c->planes = d.planes;
	c->page_kib = d.page_kib;
	c->tr_us = d.tr_us;
	c->tprog_us = d.tprog_us;
	c->tbers_us = d.tbers_us;
	c->xfer_us = d.xfer_us;
	c->tr_n = d.tr_n;
	c->tprog_n = d.tprog_n;
	memcpy(c->tr_t, d.tr_t, sizeof(c->tr_t));
	memcpy(c->tprog_t, d.tprog_t, sizeof(c->tprog_t));
	c->page_order = d.page_order;
	c->suspend = d.suspend;
	c->suspend_us = d.suspend_us;
	c->cache_mib = d.cache_mib;
	c->cache_us = d.cache_us;
	c->cmt.mib = d.cmt.mib;
	c->cmt.entry_bytes = d.cmt.entry_bytes;
	c->host_us = d.host_us;
	c->host_mbps = d.host_mbps;
	c->layout = d.layout;
	c->multiplane = d.multiplane;
}

void time_list_devices(FILE *out)
{
	fprintf(out, "# --device NAME[,KEY=V...] or FILE; keys: channels, dies (per channel), planes, page_kib, tr_us, "
		     "tprog_us (each one time, or one a page type: T1/T2[/T3[/T4]]), tbers_us, xfer_us, page_order=cyclic|shadow "
		     "(default cyclic), cache_mib (a write cache; default 0, none), cache_us (a page into or out of it; "
		     "default 0.5), cmt_mib (a cached mapping table; default 0, the whole map in DRAM), cmt_entry_bytes "
		     "(its entries' size; default 8), layout=stripe|die (default stripe), "
		     "multiplane=on|off|ideal (default on), suspend=off|erase|program|both (default off), suspend_us, "
		     "host_us (a command's time in the controller), host_mbps (the host link, each way; default 0, no "
		     "time)\n");
	for (unsigned i = 0; i < NPROFILES; i++) {
		const struct profile *p = &profiles[i];
		char tr[96], tp[96];
		snprintf(tr, sizeof(tr), "%g", p->tr);
		snprintf(tp, sizeof(tp), "%g", p->tprog);
		for (unsigned k = 0; k < p->types; k++) {
			size_t a = k ? strlen(tr) : 0, b = k ? strlen(tp) : 0;
			snprintf(tr + a, sizeof(tr) - a, "%s%g", k ? "/" : "", p->tr_t[k]);
			snprintf(tp + b, sizeof(tp) - b, "%s%g", k ? "/" : "", p->tprog_t[k]);
		}
		fprintf(out, "%-6s channels=%u,dies=%u,planes=%u,page_kib=%u,tr_us=%s,tprog_us=%s,tbers_us=%g,xfer_us=%g\n"
			     "       %s\n",
			p->name, p->channels, p->dies, p->planes, p->page_kib, tr, tp, p->tbers, p->xfer, p->source);
	}
}

unsigned time_units(const struct time_config *c)
{
	return c->channels * c->dies * (c->multiplane == MP_IDEAL ? c->planes : 1);
}

unsigned time_slots(const struct time_config *c) { return c->channels * c->dies * c->planes; }

static int num(const char *v, double lo, double hi, double *out)
{
	char *end;
	errno = 0;
	double x = strtod(v, &end);
	if (!*v || *end || errno || !(x >= lo && x <= hi))
		return -1;
	*out = x;
	return 0;
}

static const char *const key_names[] = {"channels",   "dies",     "planes",	 "page_kib",  "tr_us",
					 "tprog_us",   "tbers_us", "xfer_us",	 "cache_mib", "cache_us",
					 "suspend_us", "host_us",  "host_mbps", "layout",    "multiplane",
					 "page_order", "suspend",  "cmt_mib",   "cmt_entry_bytes", "profile"};

int time_key_index(const char *key)
{
	for (unsigned i = 0; i < sizeof(key_names) / sizeof(key_names[0]); i++)
		if (!strcmp(key, key_names[i]))
			return (int)i;
	return -1;
}

const char *time_key_name(int i)
{
	return i >= 0 && i < (int)(sizeof(key_names) / sizeof(key_names[0])) ? key_names[i] : NULL;
}

static int set_key_value(struct time_config *c, const char *k, const char *v, char *err, size_t n);

/* One key=value: set, and noted as given. */
static int set_key(struct time_config *c, const char *k, const char *v, char *err, size_t n)
{
	int rc = set_key_value(c, k, v, err, n), i = time_key_index(k);
	if (!rc && i >= 0)
		c->given |= 1u << i;
	return rc;
}

static int set_key_value(struct time_config *c, const char *k, const char *v, char *err, size_t n)
{
	double x;
	struct {
		const char *key;
		double lo, hi;
		int integer;
		void *p;
	} keys[] = {
		{"channels", 1, 1024, 1, &c->channels},	  {"dies", 1, 1024, 1, &c->dies},
		{"planes", 1, 16, 1, &c->planes},	  {"page_kib", 1, 1024, 2, &c->page_kib},
		{"tr_us", 0, 1e9, 0, &c->tr_us},	  {"tprog_us", 0, 1e9, 0, &c->tprog_us},
		{"tbers_us", 0, 1e9, 0, &c->tbers_us}, {"xfer_us", 0, 1e9, 0, &c->xfer_us},
		{"cache_mib", 0, 1048576, 3, &c->cache_mib}, {"suspend_us", 0, 1e9, 0, &c->suspend_us},
		{"host_us", 0, 1e9, 0, &c->host_us},	  {"cache_us", 0, 1e9, 0, &c->cache_us},	  {"host_mbps", 0, 1e9, 3, &c->host_mbps},
		{"cmt_mib", 0, 1048576, 3, &c->cmt.mib}, {"cmt_entry_bytes", 1, 65536, 2, &c->cmt.entry_bytes},
	};
	if (!strcmp(k, "profile")) {
		if (c->modified)
			return set_err(err, n, "profile=%s after other keys: the profile sets every key and would undo "
					       "them; name it first", v);
		const struct profile *pr = profile_named(v);
		if (!pr)
			return set_err(err, n, "no device profile '%s' (--list-devices lists them)", v);
		apply(c, pr);
		return 0;
	}
	/* tR and tPROG: one time, or one a page type, T1/T2[/T3[/T4]] */
	if (!strcmp(k, "tr_us") || !strcmp(k, "tprog_us")) {
		int r = k[1] == 'r';
		double t[TIME_TYPES], sum = 0;
		unsigned m = 0;
		for (const char *p = v;; m++) {
			const char *sl = strchr(p, '/');
			char one[64];
			size_t len = sl ? (size_t)(sl - p) : strlen(p);
			if (m == TIME_TYPES)
				return set_err(err, n, "%s=%s: at most %d page types", k, v, TIME_TYPES);
			while (len && isspace((unsigned char)*p)) { /* ("100 / 300" as "100/300") */
				p++;
				len--;
			}
			while (len && isspace((unsigned char)p[len - 1]))
				len--;
			snprintf(one, sizeof(one), "%.*s", (int)(len < sizeof(one) - 1 ? len : sizeof(one) - 1), p);
			if (len >= sizeof(one) || num(one, 0, 1e9, &t[m]))
				return set_err(err, n, "%s=%s: a number from 0 to 1e+09%s", k, v,
					       strchr(v, '/') ? " for each page type (T1/T2/...)" : "");
			if (t[m] > 0 && t[m] < 0.001)
				return set_err(err, n, "%s=%s: below the device's resolution of 1 ns (0.001 us); 0 for no "
						       "time", k, v);
			t[m] = round(t[m] * 1000) / 1000; /* (kept, and said, in whole ns) */
			sum += t[m];
			if (!sl)
				break;
			p = sl + 1;
		}
		m++;
		for (unsigned i = m; i < TIME_TYPES; i++)
			t[i] = t[m == 1 ? 0 : i % m];
		*(r ? &c->tr_n : &c->tprog_n) = m;
		memcpy(r ? c->tr_t : c->tprog_t, t, sizeof(t));
		*(r ? &c->tr_us : &c->tprog_us) = sum / m;
		c->modified = 1;
		return 0;
	}
	/* the keys that name a choice: their values in enum order */
	static const struct {
		const char *key, *names[4], *say;
	} choices[] = {{"layout", {"stripe", "die"}, "stripe or die"},
		       {"multiplane", {"on", "off", "ideal"}, "on, off or ideal"},
		       {"page_order", {"cyclic", "shadow"}, "cyclic or shadow"},
		       {"suspend", {"off", "erase", "program", "both"}, "off, erase, program or both"}};
	int *const choice_of[] = {&c->layout, &c->multiplane, &c->page_order, &c->suspend};
	for (unsigned i = 0; i < sizeof(choices) / sizeof(choices[0]); i++) {
		if (strcmp(k, choices[i].key))
			continue;
		for (int j = 0; j < 4 && choices[i].names[j]; j++)
			if (!strcmp(v, choices[i].names[j])) {
				*choice_of[i] = j;
				c->modified = 1;
				return 0;
			}
		return set_err(err, n, "%s '%s': %s", k, v, choices[i].say);
	}
	for (unsigned i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (strcmp(k, keys[i].key))
			continue;
		int whole = keys[i].integer == 1 || keys[i].integer == 2; /* (3: a number, not a time) */
		if (num(v, keys[i].lo, keys[i].hi, &x) || (whole && x != floor(x)))
			return set_err(err, n, "%s=%s: %s from %.10g to %.10g", k, v, whole ? "a whole number" : "a number",
				       keys[i].lo, keys[i].hi);
		if (keys[i].p == &c->page_kib && ((uint32_t)x & ((uint32_t)x - 1)))
			return set_err(err, n, "%s=%s: a power of two (1, 2, 4, ... 1024 KiB), as the model's pages are", k, v);
		/* times are kept in whole nanoseconds */
		if (!keys[i].integer && x > 0 && x < 0.001)
			return set_err(err, n, "%s=%s: below the device's resolution of 1 ns (0.001 us); 0 for no time",
				       k, v);
		c->modified = 1;
		if (!keys[i].integer) /* a time: kept, and said, in whole ns */
			x = round(x * 1000) / 1000;
		if (keys[i].integer == 2)
			*(uint32_t *)keys[i].p = (uint32_t)x;
		else if (keys[i].integer == 1)
			*(unsigned *)keys[i].p = (unsigned)x;
		else
			*(double *)keys[i].p = x;
		return 0;
	}
	char list[320] = "";
	for (unsigned i = 0, at = 0; i < sizeof(key_names) / sizeof(key_names[0]) && at < sizeof(list); i++)
		at += (unsigned)snprintf(list + at, sizeof(list) - at, "%s%s", i ? ", " : "", key_names[i]);
	return set_err(err, n, "no device key '%s' (%s)", k, list);
}

/* One "key=value" (or, first in a list, a bare profile name): 0 or -1. */
static int item(struct time_config *c, char *tok, char *err, size_t n)
{
	while (isspace((unsigned char)*tok))
		tok++;
	char *e = tok + strlen(tok);
	while (e > tok && isspace((unsigned char)e[-1]))
		*--e = 0;
	if (!*tok)
		return 0;
	char *eq = strchr(tok, '=');
	if (!eq)
		return set_err(err, n, "'%s' is not key=value", tok);
	char *v = eq + 1;
	while (eq > tok && isspace((unsigned char)eq[-1])) /* "key = value" as "key=value" */
		eq--;
	*eq = 0;
	while (isspace((unsigned char)*v))
		v++;
	return set_key(c, tok, v, err, n);
}

static int device_one(void *ctx, const char *k, const char *v, char *err, size_t n)
{
	if (!k && !profile_named(v)) /* a bare name: a profile's or a file's */
		return set_err(err, n, "no device profile '%s' (--list-devices lists them) nor a file of that name "
				       "(--device FILE reads key=value lines)", v);
	return set_key(ctx, k ? k : "profile", v, err, n);
}

int time_config_parse(struct time_config *c, const char *spec, char *err, size_t n)
{
	char msg[300];
	struct stat sb;
	/* a profile's name is the profile (./NAME reads a file of that
	 * name); else a file when one is there by that name, or when the
	 * name can be nothing else (a '/', or a '.' and no '=') */
	int is_profile = profile_named(spec) != NULL;
	errno = 0;
	int there = !is_profile && !stat(spec, &sb);
	int is_file = there && S_ISREG(sb.st_mode);
	if (there && S_ISDIR(sb.st_mode))
		return set_err(err, n, "%s: %s (--device takes a profile or a file of key=value lines)", spec,
			       strerror(EISDIR)), -2;
	if (!is_file && (strchr(spec, '/') || strchr(spec, '.')) && !strchr(spec, '='))
		return set_err(err, n, "%s: %s", spec, there ? "not a regular file" : strerror(errno ? errno : ENOENT)), -2;
	if (is_file) { /* key=value lines, # comments */
		FILE *fp = fopen(spec, "r");
		if (!fp)
			return set_err(err, n, "%s: %s", spec, strerror(errno)), -2;
		char line[512];
		unsigned no = 0, nkeys = 0;
		int rc = 0;
		struct {
			char key[32];
			unsigned line;
		} seen[32];
		snprintf(c->profile, sizeof(c->profile), "file");
		while (!rc && fgets(line, sizeof(line), fp)) {
			no++;
			if (!strchr(line, '\n') && !feof(fp)) {
				rc = set_err(err, n, "%s:%u: a line longer than %zu bytes", spec, no, sizeof(line) - 2);
				break;
			}
			char *h = strchr(line, '#');
			if (h)
				*h = 0;
			/* the key, for "given twice" (set_key names the bad ones) */
			char *k = line;
			while (isspace((unsigned char)*k))
				k++;
			size_t kl = strcspn(k, "= \t\r\n");
			for (unsigned i = 0; i < nkeys && kl && !rc; i++)
				if (strlen(seen[i].key) == kl && !strncmp(seen[i].key, k, kl))
					rc = set_err(err, n, "%s:%u: %.*s given twice (line %u)", spec, no, (int)kl, k,
						     seen[i].line);
			if (!rc && kl && kl < sizeof(seen[0].key) && nkeys < sizeof(seen) / sizeof(seen[0])) {
				snprintf(seen[nkeys].key, sizeof(seen[0].key), "%.*s", (int)kl, k);
				seen[nkeys++].line = no;
			}
			if (!rc && item(c, line, msg, sizeof(msg)))
				rc = set_err(err, n, "%s:%u: %s", spec, no, msg);
		}
		if (!rc && ferror(fp))
			rc = set_err(err, n, "%s: read error", spec);
		if (!rc && !nkeys)
			rc = set_err(err, n, "%s: no key=value line (an empty device file; a file without profile= starts "
					     "from femu's values: profile=femu alone gives exactly those)", spec);
		fclose(fp);
		return rc ? -2 : 1;
	}
	return kv_parse("--device", spec, KV_BARE_FIRST, device_one, c, err, n) ? -1 : 0;
}

int time_config_check(const struct time_config *c, char *err, size_t n)
{
	if (c->tr_us + c->tprog_us + c->tbers_us + c->xfer_us < 0.001)
		return set_err(err, n, "every operation takes no time (tr_us, tprog_us, tbers_us and xfer_us all 0): "
				       "every latency of the run would be 0 and its IOPS infinite");
	if (c->tr_n > 1 && c->tprog_n > 1 && c->tr_n != c->tprog_n)
		return set_err(err, n, "tr_us gives %u page types and tprog_us %u: give each type's times, or one time "
				       "for every type", c->tr_n, c->tprog_n);
	if (c->page_order == ORDER_SHADOW && time_page_types(c) != 3)
		return set_err(err, n, "page_order=shadow is a TLC's order of 3 page types; tr_us and tprog_us give %u",
			       time_page_types(c));
	return 0;
}

unsigned time_page_types(const struct time_config *c) { return c->tr_n > c->tprog_n ? c->tr_n : c->tprog_n; }

/* "k=v,k=v" for the other options. */
struct kv_ctx {
	struct time_config *c;
	int (*fn)(struct time_config *, const char *, const char *, char *, size_t);
};

/* A bare first field (queued) is a key without a value to fn. */
static int kv_one(void *ctx, const char *k, const char *v, char *err, size_t n)
{
	struct kv_ctx *x = ctx;
	return k ? x->fn(x->c, k, v, err, n) : x->fn(x->c, v, NULL, err, n);
}

static int kv(const char *spec, const char *what, int (*fn)(struct time_config *, const char *, const char *, char *,
							    size_t),
	      struct time_config *c, char *err, size_t n)
{
	return kv_parse(what, spec, KV_BARE_FIRST, kv_one, &(struct kv_ctx){c, fn}, err, n);
}

static int bg_key(struct time_config *c, const char *k, const char *v, char *err, size_t n)
{
	double x;
	if (!strcmp(k, "idle") && v && !num(v, 0, 1e9, &x))
		c->bg_idle_ms = x;
	else if (!strcmp(k, "high") && v && !num(v, 1, 1e9, &x) && x == floor(x))
		c->bg_high = (uint32_t)x;
	else
		return set_err(err, n, "'%s%s%s': idle=MS (milliseconds without a request) or high=N (free segments, >= 1)",
			       k, v ? "=" : "", v ? v : "");
	return 0;
}

int time_parse_bg(struct time_config *c, const char *spec, char *err, size_t n)
{
	c->bg_idle_ms = 1;
	c->bg_high = 0;
	if (kv(spec, "--bg-gc", bg_key, c, err, n))
		return -1;
	if (!c->bg_high)
		return set_err(err, n, "--bg-gc %s: high=N (free segments to clean up to) is needed", spec);
	return 0;
}

static int pre_key(struct time_config *c, const char *k, const char *v, char *err, size_t n)
{
	double x;
	if (!strcmp(k, "hard") && v && !num(v, 0, 1e9, &x) && x == floor(x))
		c->preempt_hard = (uint32_t)x;
	else
		return set_err(err, n, "'%s%s%s': hard=N (free segments below which GC blocks)", k, v ? "=" : "",
			       v ? v : "");
	return 0;
}

int time_parse_preempt(struct time_config *c, const char *spec, char *err, size_t n)
{
	if (!*spec)
		return set_err(err, n, "--gc-preempt: empty: hard=N");
	c->preempt = 1;
	c->preempt_hard = 1;
	return kv(spec, "--gc-preempt", pre_key, c, err, n);
}

static int trim_key(struct time_config *c, const char *k, const char *v, char *err, size_t n)
{
	double x;
	if (!v && !strcmp(k, "queued"))
		c->trim = TRIM_QUEUED;
	else if (!v && !strcmp(k, "unqueued"))
		c->trim = TRIM_UNQUEUED;
	else if ((!strcmp(k, "us") || !strcmp(k, "us_per_mib")) && v) {
		if (num(v, 0, 1e12, &x))
			return set_err(err, n, "%s=%s: a time in us from 0 to 1e+12", k, v);
		*(k[2] ? &c->trim_us_mib : &c->trim_us) = x;
	} else
		return set_err(err, n, "'%s%s%s': queued or unqueued, us=T (a command), us_per_mib=T", k,
			       v ? "=" : "", v ? v : "");
	return 0;
}

int time_parse_trim(struct time_config *c, const char *spec, char *err, size_t n)
{
	if (!*spec)
		return set_err(err, n, "--trim-cost: empty: queued or unqueued, then us=T, us_per_mib=T");
	c->trim = TRIM_QUEUED;
	c->trim_us = c->trim_us_mib = 0;
	return kv(spec, "--trim-cost", trim_key, c, err, n);
}

/*
 * The device.
 */

/* A GC operation that yields: waits in its unit's queue; its time is
 * its kind's (tR, tPROG, tBERS; a read's and a program's transfer on
 * the channel beside). */
struct bl_op {
	uint64_t ready;
	uint32_t row;		 /* its page's row (multi-plane commands); an erase: its segment */
	uint32_t pass;		 /* a read: its pass (struct bl_pass); a program: its place x */
	uint32_t lpn;		 /* its logical page (--check) */
	uint32_t pid;		 /* a program: its pass (--check) */
	uint16_t mask;		 /* the planes of a multi-plane command */
	uint8_t bg, erase, kind; /* erase: the planes erased */
};

/* A pass of deferred GC (a background step, or a request's cleaning
 * under preemptible GC): its copies are programmed once its reads are
 * done, as in the foreground (the data is in the controller's buffer);
 * until then its programs are held, then queued on their units, ready
 * when the last read ended. */
struct bl_pass {
	uint64_t ready, read_done; /* its start; its reads' last end so far */
	uint64_t first;		   /* its held programs: held[first, first + n) (absolute) */
	uint32_t n, reads_left;	   /* its reads still queued */
	uint32_t id;
	uint8_t bg, open, released;
};
struct held {
	uint32_t x, row, lpn; /* where the program lies (queue_of, plane_of), its row, its logical page */
};

struct unitq {
	uint64_t free_at;  /* when the unit has done what it was given */
	uint64_t gc_until; /* the end of its last GC operation */
	uint64_t gc_from;  /* the start of the run of GC operations that ends there */
	struct bl_op *q;
	uint32_t head, n, cap;
	/* the last command (multiplane=on): what may join it */
	uint64_t g_start, g_end;
	uint32_t g_row;
	uint16_t g_mask; /* its planes; 0: none */
	uint8_t g_kind;
	/* the GC time it ran for request pass_gen's own cleaning */
	uint64_t pass_gen, pass_ns;
	/* suspend=: the yielding erase or program it ran last, from sus_s
	 * to sus_end (while that is free_at, in progress or suspended), the
	 * end of the last host operation run within it (sus_rd: a read, or
	 * a program within an erase) */
	uint64_t sus_s, sus_end, sus_rd;
	uint32_t sus_seg;
	uint16_t sus_mask;
	uint8_t sus_on, sus_kind, sus_bg;
};

enum { MODE_FG, MODE_YIELD };

struct dev {
	const struct dev_ops *io;
	struct dev *in;
	struct dev_observer obs; /* (its on_note) */
	struct time_config c;
	struct dev_time t;
	unsigned U, C, erase_units; /* units (dies, or planes under multiplane=ideal), channels */
	unsigned NS;		    /* slots: every plane, what a segment's pages are striped over */
	uint32_t umask, cmask, smask; /* U - 1, C - 1, NS - 1 when all are powers of 2 (pow2) */
	uint32_t b, page_size, page_shift; /* the page size is a power of 2 (ftl.c) */
	uint64_t L;			   /* logical pages: past them the model reads nothing (--out-of-range) */
	int oor_drop;			   /* --out-of-range drop: a request past them is dropped whole */
	uint64_t tr, tprog, tbers, xfer;
	double xfer_d; /* xfer, for the channel time's sum */
	/* page types (types > 1): each one's tR and tPROG, a page's type by
	 * its row (its offset in its block) in page_order */
	unsigned types;
	uint8_t order;
	uint8_t ext;   /* page types, a write cache or suspension: op_one's ext */
	uint8_t hostx; /* host_us or host_mbps */
	uint32_t rows_blk; /* page types: rows a flash block (a segment's block on its slot) */
	uint8_t susk;  /* suspend=: the kinds (1 << FLASH_ERASE, 1 << FLASH_PROGRAM) a host read suspends (an erase: a host program too) */
	uint64_t tsus; /* suspend_us */
	uint64_t tr_t[TIME_TYPES], tprog_t[TIME_TYPES];
	struct unitq *u;
	uint64_t *ch_free;
	uint64_t mstart; /* the earliest start of the work charged since the measured window began */
	uint64_t backlog, bl_erase_units; /* the operations deferred (queued and held), the erases among them */
	/* deferred passes (absolute numbers; ring buffers from their oldest
	 * unreleased), their held programs, and each segment's erases still
	 * queued (a program into it waits for them: erase_wait) */
	struct bl_pass *passes;
	uint64_t pass0, npass, pass_cap; /* passes[(pass_head + i) % cap] is pass pass0 + i */
	uint64_t pass_head;
	struct held *held;
	uint64_t held0, nheld, held_cap, held_head;
	uint32_t *erase_pend, *prog_pend; /* per segment: its erases queued, the programs into it deferred */
	uint8_t pass_open, released;
	/* --check: when each logical page's last GC read ended, and each
	 * segment's erase on each slot (segment x NS + slot); a GC program
	 * before its page's read ended, or any program before its block's
	 * erase ended, is an error */
	uint64_t *chk_read, *chk_erase;
	uint32_t *chk_rpass; /* the pass of a logical page's last GC read (CHK_FG: a foreground one) */
	uint32_t *chk_epend; /* (segment x NS + slot): its erase queued, not run */
	/* flags: the request being served (active, mode, bg), the run */
	uint8_t active, mode, bg, have_t0, ended, ageing, pow2;
	uint8_t scale1; /* open loop at --time-scale 1 */
	uint8_t mp;	/* multi-plane commands: multiplane=on with planes > 1 */
	uint8_t zoned;	/* a zoned device underneath (dev_zns.c) */
	uint32_t *zwp;	/* zoned: each zone's pages programmed since its reset (the dies a reset erases) */
	/* a host layer's request (time_group): its state, and when its reads
	 * are done. A request in time: its arrival, start, completion so far
	 * and its longest wait on GC; whether it counts (after the warm-up). */
	int grouped;
	uint64_t g_read_done;
	struct req {
		uint64_t A, S, done, wait;
		int measuring;
		/* its events the device served, and those that moved no data
		 * the model dropped (a write it skipped, --skip-bad; a request
		 * past the logical space, --out-of-range drop): a request of
		 * only those is no request served; and its bytes past the
		 * logical space (--out-of-range clip), not moved */
		uint8_t served, dropped;
		uint64_t cut;
		uint64_t cache_wait; /* its longest wait for room in the write cache */
	} g;
	uint64_t S, gc_barrier, gc_read_done, req_done, req_gc_wait, host_reads;
	/* the request's own cleaning: its number, the most GC time one unit
	 * ran for it (a lower bound of its critical path's GC time), and
	 * whether deferred work drained now is its (preemptible GC) */
	uint64_t req_gen, pass_max;
	uint8_t in_pass;
	unsigned req_stream; /* the stream of the request's last host page program (UINT_MAX: none) */
	uint64_t step_reads; /* a background step's page reads: its victim's valid pages */
	/* arrivals */
	int64_t t0;
	uint64_t last_arrival, last_done, barrier;
	uint64_t *heap; /* closed loop: the outstanding requests' completions */
	uint64_t host_programs;
	/* the timeline: the interval most operations fall in, [iv_lo, iv_hi) */
	uint64_t iv_lo, iv_hi;
	size_t iv_k;
	struct lhist iv;
	uint64_t iv_cur, iv_reqs;
	uint64_t dn_lo;	       /* the interval the last completion fell in: (dn_lo, + timeline_ns], */
	uint64_t *dn_n, *dn_b; /* its completions and their bytes (iv_done, iv_done_bytes) */
	uint64_t *dn_r, *dn_w; /* its reads and writes (iv_done_r, iv_done_w) */
	uint64_t row_next; /* where interval iv_cur ends: an arrival from there on closes rows */
	size_t rows_cap;
	/* The write cache (cache_mib): nc slots taken in turn by the host's
	 * page writes; slot i holds the page of logical page cw_lpn[i]
	 * (CW_NONE: none, or one written again since) until the page after
	 * it in turn takes it, which waits until its program ended
	 * (cw_end[i]). hk/hs: a logical page -> its slot, open addressing
	 * (hmask + 1 entries, at least twice nc). */
	uint64_t nc, ci; /* slots; the next one to take */
	uint64_t *cw_end, *cw_in; /* (cw_in: when the slot's page came in) */
	uint64_t cache_ns;	  /* cache_us */
	uint32_t *cw_lpn, *hk, *hs;
	uint32_t hmask, hshift;
	/* The host link (host_mbps), full duplex: each direction's
	 * transfers (0 writes' data in, 1 reads' out) reserved in it,
	 * [s, e) sorted and apart, those from lo on still to come. host_ns:
	 * a command's own time (host_us). */
	struct link {
		uint64_t *s, *e;
		size_t lo, n, cap;
	} lk[2];
	struct link dram;   /* the cache's memory bus (cache_us) */
	double ns_per_byte; /* 0: no transfer time */
	uint64_t host_ns;
	uint64_t req_ack;     /* a write's pages all in the cache: when */
	uint64_t req_room;    /* and when the last found its slot free */
	uint64_t cache_drain; /* the last end of a program of a page in the cache */
	/* The cached mapping table (cmt_mib; NULL: the whole map cached):
	 * its state (dev_cmt.c); the translation pages to write back once
	 * the request's own operations are issued (wbr: their old version
	 * read first), wbn of wb_cap; each translation page's last read,
	 * the request it was read for and when it arrived (0 and 0: none
	 * since its last write-back), and the last page read (a miss on a
	 * page read for the same request, or on the last page read while
	 * its read is under way, shares that read) */
	struct dev_cmt {
		struct cmt *m;
		uint32_t *wbq, last_tp;
		uint8_t *wbr;
		size_t wbn, wb_cap, ntp;
		uint64_t *rd_gen, *rd_done;
	} cm;
	char err[512];
};

#define CW_NONE UINT32_MAX

uint64_t time_cache_pages(const struct time_config *c, uint32_t page_size)
{
	return page_size ? (uint64_t)(c->cache_mib * 1048576.0 / page_size) : 0;
}

uint64_t time_cmt_entries(const struct time_config *c) { return cmt_entries(c->cmt.mib, c->cmt.entry_bytes); }

/* The translation pages' entries: a page's worth (at least one). */
static uint32_t cmt_per_tp(const struct time_config *c, uint32_t page_size)
{
	uint32_t k = c->cmt.entry_bytes ? page_size / c->cmt.entry_bytes : 0;
	return k ? k : 1;
}

/* The translation pages' last reads (dev_cmt's rd_gen, rd_done): none
 * for a cache of every entry. */
static uint64_t cmt_reads_bytes(uint64_t pages, uint64_t entries, uint32_t per_tp)
{
	return entries && entries < pages ? (pages + per_tp - 1) / per_tp * 2 * sizeof(uint64_t) : 0;
}

uint64_t time_cmt_bytes(const struct time_config *c, uint32_t page_size, uint64_t pages)
{
	uint64_t e = time_cmt_entries(c);
	uint32_t k = cmt_per_tp(c, page_size);
	return c->cmt.mib > 0 ? cmt_bytes(pages, e, k) + cmt_reads_bytes(pages, e, k) + 64 * (sizeof(uint32_t) + 1) : 0;
}

/* The cache's lookup table: entries for nc slots (a power of 2, at
 * least 2 nc and 16). */
static uint64_t cache_table(uint64_t nc)
{
	uint64_t h = 16;
	while (h < 2 * nc)
		h <<= 1;
	return h;
}

/* The host link's reservations a direction at open (more as they grow). */
#define LINK0 64

/* The cache's bytes: its slots (an end time and a logical page each)
 * and its table (a key and a slot an entry). */
static uint64_t cache_bytes(uint64_t nc)
{
	return nc ? nc * (2 * sizeof(uint64_t) + sizeof(uint32_t)) + cache_table(nc) * 2 * sizeof(uint32_t) +
			    LINK0 * 2 * sizeof(uint64_t)
		  : 0;
}

uint64_t time_mem_bytes(const struct time_config *c, uint32_t page_size)
{
	unsigned u = time_units(c);
	return sizeof(struct dev) + (uint64_t)u * (sizeof(struct unitq) + 2 * sizeof(uint64_t)) + (uint64_t)c->channels * 8 +
	       (uint64_t)(c->qd ? c->qd : 1) * 8 + cache_bytes(time_cache_pages(c, page_size)) +
	       (c->host_mbps > 0 ? 2 * LINK0 * 2 * sizeof(uint64_t) : 0);
}

static inline uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* The type of the page at offset row of its block, and its times. */
static inline unsigned page_type(const struct dev *d, uint32_t row)
{
	row %= d->rows_blk; /* (a reclaim unit of R blocks: the row in its own block) */
	if (d->order == ORDER_SHADOW)
		return row <= 5 ? 0 : row <= 7 ? 1 : ((row - 8) >> 1) % 3;
	return row % d->types;
}
/* (ext: the device may have page types, a write cache or suspension,
 * d->ext; a constant at each call, 0 where none of them is on) */
static inline uint64_t t_read(const struct dev *d, uint32_t row, const int ext)
{
	return ext && d->types > 1 ? d->tr_t[page_type(d, row)] : d->tr;
}
static inline uint64_t t_prog(const struct dev *d, uint32_t row, const int ext)
{
	return ext && d->types > 1 ? d->tprog_t[page_type(d, row)] : d->tprog;
}

/* The timeline may take more bytes (its intervals' accumulators or
 * rows grow with simulated time): 0, or -1 when that passes
 * cfg.mem_max, the memory the run was left, as an error that stops the
 * run before the system runs out. */
static int tl_room(struct dev *d, uint64_t more, uint64_t intervals)
{
	if (!d->c.mem_max || d->t.mem_bytes + more <= d->c.mem_max)
		return 0;
	double iv = (double)d->c.timeline_ns;
	return set_err(d->err, sizeof(d->err),
		       "the timeline's %llu intervals of %g ms (%.6g s of simulated time) would take %.1f MiB with "
		       "the rest of the device in time (its arrays grow by doubling), more than the %.1f MiB the run "
		       "has left; raise --timeline-interval",
		       (unsigned long long)intervals, iv / 1e6, (double)intervals * iv / 1e9,
		       (double)(d->t.mem_bytes + more) / 1048576.0, (double)d->c.mem_max / 1048576.0);
}

/* Interval k's accumulators exist (zeroed). 0 or -1. */
static int iv_grow(struct dev *d, size_t k)
{
	if (k < d->t.niv)
		return 0;
	size_t cap = d->t.niv ? d->t.niv : 64;
	while (cap <= k)
		cap *= 2;
	if (tl_room(d, (cap - d->t.niv) * TIME_IV_ARRAYS * sizeof(uint64_t), k + 1))
		return -1;
	uint64_t **arr[TIME_IV_ARRAYS] = {&d->t.iv_busy, &d->t.iv_gc,	  &d->t.iv_bg,	  &d->t.iv_done,
					  &d->t.iv_done_bytes, &d->t.iv_done_r, &d->t.iv_done_w};
	for (unsigned i = 0; i < TIME_IV_ARRAYS; i++) {
		uint64_t *a = realloc(*arr[i], cap * sizeof(uint64_t));
		if (!a) /* (the arrays grown before it stay larger than niv says: harmless) */
			return set_err(d->err, sizeof(d->err), "out of memory for the timeline (%zu intervals)", cap);
		memset(a + d->t.niv, 0, (cap - d->t.niv) * sizeof(uint64_t));
		*arr[i] = a;
	}
	d->t.mem_bytes += (cap - d->t.niv) * TIME_IV_ARRAYS * sizeof(uint64_t);
	d->dn_lo = UINT64_MAX; /* the arrays moved: the cached interval's pointers with them */
	d->t.niv = cap;
	return 0;
}

/* [s, e) over the timeline's intervals. */
static void __attribute__((noinline)) charge_spread(struct dev *d, uint64_t s, uint64_t e, int gc, int bg)
{
	uint64_t iv = d->c.timeline_ns;
	size_t k0 = s / iv, k1 = (e - 1) / iv;
	if (iv_grow(d, k1))
		return; /* counted in the totals; the error ends the run at the next request */
	for (size_t k = k0; k <= k1; k++) {
		uint64_t a = max64(s, k * iv), z = e < (k + 1) * iv ? e : (k + 1) * iv;
		d->t.iv_busy[k] += z - a;
		if (gc)
			d->t.iv_gc[k] += z - a;
		if (bg)
			d->t.iv_bg[k] += z - a;
	}
	if (k0 == k1) { /* the interval the next operations will likely fall in */
		d->iv_lo = k0 * iv;
		d->iv_hi = d->iv_lo + iv;
		d->iv_k = k0;
	}
}

/* Unit u busy over [s, e). */
static inline void charge(struct dev *d, unsigned u, uint64_t s, uint64_t e, int gc, int bg)
{
	uint64_t dur = e - s;
	if (!dur) /* an operation of no time (tprog_us=0, ...): nothing to charge */
		return;
	if (s < d->mstart)
		d->mstart = s;
	d->t.busy_ns += dur;
	d->t.unit_busy[u] += dur;
	if (gc) {
		d->t.gc_ns += dur;
		if (bg)
			d->t.gc_bg_ns += dur;
	}
	if (s >= d->iv_lo && e <= d->iv_hi) {
		d->t.iv_busy[d->iv_k] += dur;
		if (gc)
			d->t.iv_gc[d->iv_k] += dur;
		if (bg)
			d->t.iv_bg[d->iv_k] += dur;
	} else if (d->c.timeline_ns && e > s) {
		charge_spread(d, s, e, gc, bg);
	}
}

/* A GC operation ran on unit q from s to q->free_at: the unit's last
 * run of GC operations ends there (and starts at s, unless it follows
 * the last one at once). */
static inline void gc_ran(struct unitq *q, uint64_t s)
{
	if (s > q->gc_until)
		q->gc_from = s;
	q->gc_until = q->free_at;
}

/* A GC operation of dur ran on unit q for the request being served. */
static inline void pass_add(struct dev *d, struct unitq *q, uint64_t dur)
{
	if (q->pass_gen != d->req_gen) {
		q->pass_gen = d->req_gen;
		q->pass_ns = 0;
	}
	q->pass_ns += dur;
	if (q->pass_ns > d->pass_max)
		d->pass_max = q->pass_ns;
}

/* Page x of the layout's order (stripe: the physical page; die: the
 * segment) lies on slot x mod NS; slots are numbered channel first, then
 * die, then plane: its unit is x mod U (U divides NS), its plane slot / U
 * (asked only for multi-plane commands). */
static inline unsigned queue_of(const struct dev *d, uint32_t x) { return d->pow2 ? x & d->umask : x % d->U; }
static inline unsigned plane_of(const struct dev *d, uint32_t x)
{
	return (d->pow2 ? x & d->smask : x % d->NS) / d->U;
}

/* A unit's channel. */
static inline unsigned chan_of(const struct dev *d, unsigned u) { return d->pow2 ? u & d->cmask : u % d->C; }

static void drain_all(struct dev *d, uint64_t t);

/* The segment of a program's place x (place_of). */
static inline uint32_t seg_of(const struct dev *d, uint32_t x) { return d->c.layout == LAYOUT_STRIPE ? x / d->b : x; }

#define CHK_FG UINT32_MAX
/* --check: a program at place x started at s, a GC copy of lpn (of
 * pass pid, CHK_FG in the foreground) or not: after its block's last
 * erase ended, and a copy after its page's read by its pass (a later
 * pass that read the page since copies newer data: not this copy's). */
static void __attribute__((noinline)) chk_prog(struct dev *d, uint32_t x, uint32_t lpn, uint32_t pid, int copy,
					       uint64_t s)
{
	uint32_t seg = seg_of(d, x);
	uint64_t k = (uint64_t)seg * d->NS + (d->pow2 ? x & d->smask : x % d->NS), e = d->chk_erase[k];
	if (d->err[0])
		return;
	if (d->chk_epend && d->chk_epend[k])
		set_err(d->err, sizeof(d->err),
			"--check: segment %u programmed at %.9f s while its block's erase is still queued", seg,
			(double)s / 1e9);
	else if (s < e)
		set_err(d->err, sizeof(d->err),
			"--check: segment %u programmed at %.9f s, before its block's erase ended (%.9f s)", seg,
			(double)s / 1e9, (double)e / 1e9);
	else if (copy && d->chk_rpass[lpn] == pid && s < d->chk_read[lpn])
		set_err(d->err, sizeof(d->err), "--check: logical page %u copied at %.9f s, before its read ended (%.9f s)",
			lpn, (double)s / 1e9, (double)d->chk_read[lpn] / 1e9);
}

/* --check: segment seg's erase issued at s: no program into it issued
 * before is still deferred. */
static void __attribute__((noinline)) chk_erase_issue(struct dev *d, uint32_t seg, uint64_t s)
{
	if (d->prog_pend && d->prog_pend[seg] && !d->err[0])
		set_err(d->err, sizeof(d->err), "--check: segment %u erased at %.9f s with %u programs into it deferred",
			seg, (double)s / 1e9, d->prog_pend[seg]);
}

/* Deferred pass id (live passes number fewer than 2^32). */
static inline struct bl_pass *pass_at(struct dev *d, uint32_t id)
{
	return &d->passes[(d->pass_head + (uint32_t)(id - (uint32_t)d->pass0)) % d->pass_cap];
}

static inline void backlog_add(struct dev *d)
{
	if (++d->backlog > d->t.backlog_max)
		d->t.backlog_max = d->backlog;
}

/* A ring of n elements of size sz from head, copied in order into one
 * of twice the room (at least min): 0, or -1 out of memory. */
static int ring_grow(struct dev *d, void **ring, uint64_t *head, uint64_t n, uint64_t *cap, size_t sz, uint64_t min)
{
	uint64_t nc = *cap ? 2 * *cap : min;
	char *nr = malloc(nc * sz);
	if (!nr)
		return set_err(d->err, sizeof(d->err), "out of memory for the deferred GC's queues");
	for (uint64_t i = 0; i < n; i++)
		memcpy(nr + i * sz, (char *)*ring + ((*head + i) % *cap) * sz, sz);
	free(*ring);
	d->t.mem_bytes += (nc - *cap) * sz;
	*ring = nr;
	*head = 0;
	*cap = nc;
	return 0;
}

/* Operation kind at place x (row: its page's row; an erase: its
 * segment), ready at `ready`, queued on its unit: it joins the queue's
 * last command when it can (multi-plane: the same kind and row, a
 * plane that command lacks, ready when it is, and a read of the same
 * pass), at no time. 1 joined, 0 queued, -1 out of memory. */
static int enqueue(struct dev *d, uint32_t x, uint32_t row, unsigned kind, uint64_t ready, uint32_t pass, uint32_t lpn,
		   uint32_t pid, uint8_t bg)
{
	struct unitq *q = &d->u[queue_of(d, x)];
	unsigned pl = plane_of(d, x);
	if (d->mp && q->n) {
		struct bl_op *t = &q->q[(q->head + q->n - 1) % q->cap];
		if (t->kind == kind && t->row == row && !(t->mask >> pl & 1) && ready <= t->ready &&
		    (kind != FLASH_READ || t->pass == pass)) {
			t->mask |= (uint16_t)(1u << pl);
			t->erase += (uint8_t)(kind == FLASH_ERASE);
			d->t.mp_joined[kind]++;
			return 1;
		}
	}
	if (q->n == q->cap) {
		uint64_t head = q->head, cap = q->cap;
		if (ring_grow(d, (void **)&q->q, &head, q->n, &cap, sizeof(*q->q), 64))
			return -1;
		q->head = (uint32_t)head;
		q->cap = (uint32_t)cap;
	}
	q->q[(q->head + q->n) % q->cap] = (struct bl_op){.ready = ready,
							 .row = row,
							 .pass = pass,
							 .lpn = lpn,
							 .pid = pid,
							 .mask = (uint16_t)(1u << pl),
							 .bg = bg,
							 .erase = (uint8_t)(kind == FLASH_ERASE),
							 .kind = (uint8_t)kind};
	q->n++;
	return 0;
}

/* Pass p's reads are done: its held programs queued on their units,
 * ready when the last read ended; the oldest released passes and their
 * programs leave the rings. */
static void release(struct dev *d, struct bl_pass *p)
{
	uint64_t ready = max64(p->ready, p->read_done);
	for (uint32_t i = 0; i < p->n; i++) {
		const struct held *h = &d->held[(d->held_head + (p->first - d->held0) + i) % d->held_cap];
		int r = enqueue(d, h->x, h->row, FLASH_PROGRAM, ready, h->x, h->lpn, p->id, p->bg);
		if (r < 0)
			return; /* (the error ends the run at the next request) */
		if (r) { /* joined: at no time (and no longer pending: the command is queued) */
			d->backlog--;
			d->prog_pend[seg_of(d, h->x)]--;
		}
	}
	p->released = 1;
	d->released = 1;
	while (d->npass && d->passes[d->pass_head].released) {
		const struct bl_pass *o = &d->passes[d->pass_head];
		d->held_head = (d->held_head + o->n) % (d->held_cap ? d->held_cap : 1);
		d->held0 += o->n;
		d->nheld -= o->n;
		d->pass_head = (d->pass_head + 1) % d->pass_cap;
		d->pass0++;
		d->npass--;
	}
}

/* Unit q's first queued operation, if it can start before t: 1 run, 0
 * not. A program's transfer holds the channel first (the channel
 * orders programs, as in the foreground); a read's transfer follows its
 * tR; an erase of segment seg counts off erase_pend[seg]. */
static int step(struct dev *d, struct unitq *q, uint64_t t)
{
	const struct bl_op *o = &q->q[q->head];
	unsigned u = (unsigned)(q - d->u), kind = o->kind, c = chan_of(d, u);
	uint64_t pages = (uint64_t)__builtin_popcount(o->mask), ready = o->ready, dur;
	if (kind == FLASH_PROGRAM)
		ready = max64(d->ch_free[c], ready) + pages * d->xfer;
	uint64_t s = max64(q->free_at, ready);
	if (s >= t)
		return 0;
	uint32_t pass = o->pass, seg = o->row, lpn = o->lpn, pid = o->pid;
	uint8_t erase = o->erase, bg = o->bg;
	uint16_t mask = o->mask;
	dur = kind == FLASH_READ ? t_read(d, o->row, 1) : kind == FLASH_PROGRAM ? t_prog(d, o->row, 1) : d->tbers;
	q->head = q->head + 1 == q->cap ? 0 : q->head + 1;
	q->n--;
	d->backlog--;
	q->free_at = s + dur;
	gc_ran(q, s);
	if (d->in_pass)
		pass_add(d, q, dur);
	charge(d, u, s, q->free_at, 1, bg);
	q->sus_on = 0;
	if (d->susk >> kind & 1) { /* a host read may suspend it */
		q->sus_on = 1;
		q->sus_s = s;
		q->sus_end = q->free_at;
		q->sus_rd = 0;
		q->sus_seg = seg;
		q->sus_mask = mask;
		q->sus_kind = (uint8_t)kind;
		q->sus_bg = bg;
	}
	if (kind == FLASH_PROGRAM) { /* (pass: its place) */
		d->ch_free[c] = ready;
		if (d->xfer)
			d->t.xfer_ns += (double)pages * d->xfer_d;
		d->prog_pend[seg_of(d, pass)]--;
		if (d->chk_erase)
			chk_prog(d, pass, lpn, pid, 1, s);
	} else if (kind == FLASH_ERASE) {
		d->bl_erase_units -= erase;
		d->erase_pend[seg] -= erase;
		if (d->chk_erase) /* when each of its blocks is erased */
			for (unsigned pl = 0; pl < 16; pl++)
				if (mask >> pl & 1) {
					d->chk_erase[(uint64_t)seg * d->NS + pl * d->U + u] = q->free_at;
					d->chk_epend[(uint64_t)seg * d->NS + pl * d->U + u]--;
				}
	} else {
		uint64_t end = q->free_at;
		if (d->xfer) {
			end = max64(d->ch_free[c], end) + pages * d->xfer;
			d->ch_free[c] = end;
			d->t.xfer_ns += (double)pages * d->xfer_d;
		}
		if (d->chk_read) {
			d->chk_read[lpn] = end;
			d->chk_rpass[lpn] = pass;
		}
		struct bl_pass *p = pass_at(d, pass);
		p->read_done = max64(p->read_done, end);
		if (!--p->reads_left && !p->open)
			release(d, p);
	}
	return 1;
}

/* Run unit q's queued operations that can start before t. */
static void drain(struct dev *d, struct unitq *q, uint64_t t)
{
	while (q->n && step(d, q, t))
		;
}

/* A deferred pass begins (at the first GC operation of a background
 * step, or of a request's cleaning under preemptible GC): 0 or -1. */
static int pass_begin(struct dev *d)
{
	if (d->npass == d->pass_cap &&
	    ring_grow(d, (void **)&d->passes, &d->pass_head, d->npass, &d->pass_cap, sizeof(*d->passes), 16))
		return -1;
	d->passes[(d->pass_head + d->npass) % d->pass_cap] =
		(struct bl_pass){.ready = d->S,
				 .read_done = d->S,
				 .first = d->held0 + d->nheld,
				 .id = (uint32_t)(d->pass0 + d->npass),
				 .bg = d->bg,
				 .open = 1};
	d->npass++;
	d->pass_open = 1;
	return 0;
}

/* The pass ends: released now if its reads are done (or it had none). */
static void pass_end(struct dev *d)
{
	if (!d->pass_open)
		return;
	d->pass_open = 0;
	struct bl_pass *p = pass_at(d, (uint32_t)(d->pass0 + d->npass - 1));
	p->open = 0;
	if (!p->reads_left)
		release(d, p);
}

/* A victim with copies into it still deferred (a pass may fill a
 * segment with its copies and pick it next; a placement of several
 * streams, tiny segments): every deferred operation done first, the
 * open pass's too (closed, its reads run, its copies programmed), then
 * a new pass for the rest of the cleaning. 0 or -1. */
static int __attribute__((noinline)) finish_deferred(struct dev *d)
{
	int open = d->pass_open;
	pass_end(d);
	drain_all(d, UINT64_MAX);
	return open ? pass_begin(d) : 0;
}

/* The deferred pass's operations: a read queued, a program held, a
 * segment's erase queued on the slots its pages are on. 0 or -1. */
static int defer_read(struct dev *d, uint32_t x, uint32_t row, uint32_t lpn)
{
	uint32_t id = (uint32_t)(d->pass0 + d->npass - 1);
	int r = enqueue(d, x, row, FLASH_READ, d->S, id, lpn, 0, d->bg);
	if (r < 0)
		return -1;
	if (!r) {
		pass_at(d, id)->reads_left++;
		backlog_add(d);
	}
	return 0;
}

static int hold(struct dev *d, uint32_t x, uint32_t row, uint32_t lpn)
{
	if (d->nheld == d->held_cap &&
	    ring_grow(d, (void **)&d->held, &d->held_head, d->nheld, &d->held_cap, sizeof(*d->held), 256))
		return -1;
	d->held[(d->held_head + d->nheld) % d->held_cap] = (struct held){.x = x, .row = row, .lpn = lpn};
	d->nheld++;
	pass_at(d, (uint32_t)(d->pass0 + d->npass - 1))->n++;
	d->prog_pend[seg_of(d, x)]++;
	backlog_add(d);
	return 0;
}

static int defer_erase(struct dev *d, uint32_t seg)
{
	if (d->prog_pend[seg] && finish_deferred(d)) /* copies into it still deferred (since overwritten): they first */
		return -1;
	if (d->chk_erase)
		chk_erase_issue(d, seg, d->S);
	for (unsigned k = 0; k < d->erase_units; k++) { /* the slots its pages are on */
		uint32_t x = d->c.layout == LAYOUT_DIE ? seg : seg * d->b + k;
		int r = enqueue(d, x, seg, FLASH_ERASE, d->S, 0, 0, 0, d->bg);
		if (r < 0)
			return -1;
		if (d->chk_epend)
			d->chk_epend[(uint64_t)seg * d->NS + (d->pow2 ? x & d->smask : x % d->NS)]++;
		d->erase_pend[seg]++;
		d->bl_erase_units++;
		if (!r)
			backlog_add(d);
	}
	return 0;
}

/* A program into segment seg while its erase is still queued (the model
 * counted the segment free at once): the erase runs first, and what
 * its units queued before it. */
static void __attribute__((noinline)) erase_wait(struct dev *d, uint32_t seg)
{
	for (unsigned k = 0; k < d->erase_units && d->erase_pend[seg]; k++) {
		struct unitq *q = &d->u[queue_of(d, d->c.layout == LAYOUT_DIE ? seg : seg * d->b + k)];
		uint32_t last = UINT32_MAX;
		for (uint32_t i = 0; i < q->n; i++) {
			const struct bl_op *o = &q->q[(q->head + i) % q->cap];
			if (o->kind == FLASH_ERASE && o->row == seg)
				last = i;
		}
		for (uint32_t i = 0; last != UINT32_MAX && i <= last; i++)
			step(d, q, UINT64_MAX);
	}
}

/* A request's operation ready at r met a unit busy until s > r: its
 * wait behind GC, the part of [r, s) the unit's last run of GC
 * operations took (not the host operations queued before or after it). */
static inline void note_wait(struct dev *d, const struct unitq *q, uint64_t r, uint64_t s, int gc)
{
	if (!gc && s > r && q->gc_until > r) {
		uint64_t lo = max64(r, q->gc_from), hi = q->gc_until < s ? q->gc_until : s;
		if (hi > lo && hi - lo > d->req_gc_wait)
			d->req_gc_wait = hi - lo;
	}
}

/* Whether an operation of kind on plane pl at row, ready at r, joins
 * the unit's last command: the same kind and row (page offset in the
 * block, MQSim's rule), a plane it lacks, ready when it starts, and
 * nothing run on the unit since. */
static inline int joins(const struct unitq *q, unsigned kind, unsigned pl, uint32_t row, uint64_t r)
{
	return q->g_mask && q->g_kind == kind && q->g_row == row && !(q->g_mask >> pl & 1) && r <= q->g_start &&
	       q->g_end == q->free_at;
}

static inline void command(struct unitq *q, unsigned kind, unsigned pl, uint32_t row, uint64_t s)
{
	q->g_kind = (uint8_t)kind;
	q->g_row = row;
	q->g_mask = (uint16_t)(1u << pl);
	q->g_start = s;
	q->g_end = q->free_at;
}

/* The operations on a unit, r the time they are ready. Inlined at
 * each call with gc a constant. */
/* An operation of kind on unit u (place x, its plane x mod NS / U), ready
 * at `ready`, for a request ready at r: it joins the unit's last command
 * (a multi-plane command) or runs after it for dur. When it ends. */
static inline __attribute__((always_inline)) uint64_t run_on(struct dev *d, unsigned u, uint32_t x, unsigned kind,
							      uint32_t row, uint64_t r, uint64_t ready, uint64_t dur,
							      const int gc, const int mp)
{
	struct unitq *q = &d->u[u];
	if (mp && joins(q, kind, plane_of(d, x), row, ready)) {
		q->g_mask |= (uint16_t)(1u << plane_of(d, x));
		note_wait(d, q, r, q->g_start, gc);
		if (gc)
			gc_ran(q, q->g_start);
		d->t.mp_joined[kind]++;
		return q->free_at;
	}
	uint64_t s = max64(q->free_at, ready);
	note_wait(d, q, r, s, gc);
	q->free_at = s + dur;
	if (gc) {
		gc_ran(q, s);
		pass_add(d, q, dur);
	}
	charge(d, u, s, q->free_at, gc, 0);
	if (mp)
		command(q, kind, plane_of(d, x), row, s);
	return q->free_at;
}

/* The timeline's unit time of [a, b) (GC's, bg: in idle time) moved
 * later by g. */
static void iv_shift(struct dev *d, uint64_t a, uint64_t b, uint64_t g, int bg)
{
	uint64_t iv = d->c.timeline_ns;
	if (!iv || b <= a || iv_grow(d, (b + g - 1) / iv))
		return;
	for (int pass = 0; pass < 2; pass++) {
		uint64_t s = pass ? a + g : a, e = pass ? b + g : b;
		for (size_t k = s / iv; k <= (e - 1) / iv; k++) {
			uint64_t lo = max64(s, k * iv), hi = e < (k + 1) * iv ? e : (k + 1) * iv, x = pass ? hi - lo : -(hi - lo);
			d->t.iv_busy[k] += x;
			d->t.iv_gc[k] += x;
			if (bg)
				d->t.iv_bg[k] += x;
		}
	}
	d->iv_lo = d->iv_hi = 0; /* (the cached interval: found again) */
}

/* A host operation of dur ready at r on unit u, whose yielding erase
 * or program is in progress or suspended (suspend=; a read, or a
 * program that suspends an erase): it is suspended (suspend_us, unless
 * an operation before has it suspended still), the host's runs, and the
 * rest of it resumes after. When the host's operation ends. */
static uint64_t __attribute__((noinline)) suspend_for(struct dev *d, unsigned u, uint64_t dur, uint64_t r)
{
	struct unitq *q = &d->u[u];
	int fresh = r >= q->sus_rd; /* running: a suspend command; else still suspended for an operation before */
	uint64_t x0 = fresh ? r : q->sus_rd, o = fresh ? d->tsus : 0, s = x0 + o, e = s + dur, g = e - x0;
	iv_shift(d, x0, q->free_at, g, q->sus_bg); /* its rest, after the host's */
	if (o) {
		charge(d, u, x0, s, 1, q->sus_bg); /* suspending it: GC's time */
		if (o > d->req_gc_wait)
			d->req_gc_wait = o;
	}
	charge(d, u, s, e, 0, 0);
	q->free_at += g;
	q->sus_end = q->free_at;
	q->sus_rd = e;
	q->gc_from = e;
	q->gc_until = q->free_at;
	q->g_mask = 0;
	if (q->sus_kind == FLASH_ERASE && d->chk_erase)
		for (unsigned pl = 0; pl < 16; pl++)
			if (q->sus_mask >> pl & 1)
				d->chk_erase[(uint64_t)q->sus_seg * d->NS + pl * d->U + u] = q->free_at;
	d->t.suspensions += fresh;
	return e;
}

/* May a host operation ready at r on q suspend what it runs (the
 * yielding operation given to it last, in progress or suspended, when
 * waiting for it would take longer than suspend_us)? */
static inline int suspends(const struct dev *d, const struct unitq *q, uint64_t r)
{
	return q->sus_on && q->sus_end == q->free_at && q->free_at > r && q->sus_s <= r &&
	       (r < q->sus_rd || q->free_at - r > d->tsus);
}

static inline __attribute__((always_inline)) uint64_t do_read(struct dev *d, uint32_t x, uint32_t row, uint64_t r,
							       const int gc, const int mp, const int ext)
{
	unsigned u = queue_of(d, x);
	if (d->u[u].n)
		drain(d, &d->u[u], r);
	uint64_t end;
	const struct unitq *q = &d->u[u];
	if (ext && !gc && d->susk && suspends(d, q, r))
		end = suspend_for(d, u, t_read(d, row, 1), r);
	else
		end = run_on(d, u, x, FLASH_READ, row, r, r, t_read(d, row, ext), gc, mp);
	if (!d->xfer) /* no transfer time: the channel orders nothing */
		return end;
	unsigned c = chan_of(d, u);
	uint64_t cs = max64(d->ch_free[c], end);
	d->ch_free[c] = cs + d->xfer;
	d->t.xfer_ns += d->xfer_d;
	return cs + d->xfer;
}

static inline __attribute__((always_inline)) uint64_t do_prog(struct dev *d, uint32_t x, uint32_t row, uint32_t seg,
							       uint64_t r, const int gc, const int mp, const int ext)
{
	unsigned u = queue_of(d, x);
	if (d->u[u].n)
		drain(d, &d->u[u], r);
	unsigned c = chan_of(d, u);
	uint64_t cs = max64(d->ch_free[c], r);
	d->ch_free[c] = cs + d->xfer; /* with no transfer time the channel still orders the programs */
	if (d->xfer)
		d->t.xfer_ns += d->xfer_d; /* (else + 0: the sum as it is) */
	const struct unitq *q = &d->u[u];
	if (ext && !gc && d->susk >> FLASH_ERASE & 1 && q->sus_kind == FLASH_ERASE && q->sus_seg != seg &&
	    suspends(d, q, cs + d->xfer)) /* a host program suspends a yielding erase (not its own block's) */
		return suspend_for(d, u, t_prog(d, row, 1), cs + d->xfer);
	return run_on(d, u, x, FLASH_PROGRAM, row, r, cs + d->xfer, t_prog(d, row, ext), gc, mp);
}

/* Segment seg's erase, ready at r, on the first `slots` of the slots
 * its pages are on (die layout: its one slot; at most erase_units), GC's
 * (it notes no wait) or a command's own (a zone's reset): when the last
 * ends, r when none runs. */
static uint64_t do_erase(struct dev *d, uint32_t seg, unsigned slots, uint64_t r, int gc)
{
	uint64_t done = r;
	for (unsigned k = 0; k < slots; k++) { /* the slots its pages are on */
		uint32_t x = d->c.layout == LAYOUT_DIE ? seg : seg * d->b + k;
		unsigned u = queue_of(d, x);
		if (d->u[u].n)
			drain(d, &d->u[u], r);
		uint64_t e = gc ? run_on(d, u, x, FLASH_ERASE, 0, r, r, d->tbers, 1, d->mp)
				: run_on(d, u, x, FLASH_ERASE, 0, r, r, d->tbers, 0, d->mp);
		if (d->chk_erase)
			d->chk_erase[(uint64_t)seg * d->NS + (d->pow2 ? x & d->smask : x % d->NS)] = e;
		done = max64(done, e);
	}
	return done;
}

/* A foreground pass while deferred work is queued (background GC that
 * has not kept up): that work first, as the request's own (its wait on
 * GC), and the pass's operations after it. */
static void __attribute__((noinline)) fg_after_deferred(struct dev *d)
{
	d->in_pass = 1;
	drain_all(d, UINT64_MAX);
	d->in_pass = 0;
	for (unsigned u = 0; u < d->U; u++)
		d->gc_barrier = max64(d->gc_barrier, d->u[u].free_at);
}

/* Where a page operation lies (x, on slot x mod NS), and (multi-plane commands) its row: the
 * page's offset in its block. Striped, the physical pages go round the
 * slots in order, across segments too: a segment of fewer pages than
 * slots starts where the one before it ended (with b a multiple of the
 * slots, page i of every segment is on slot i mod slots). */
static inline unsigned place_of(const struct dev *d, uint32_t seg, uint32_t ppn, uint32_t *row, const int mp,
				const int ext)
{
	uint32_t off = ppn - seg * d->b;
	if (d->c.layout == LAYOUT_STRIPE) {
		if (mp || (ext && d->types > 1))
			*row = off / d->NS;
		return ppn;
	}
	if (mp || (ext && d->types > 1))
		*row = off;
	return seg;
}

/*
 * The cached mapping table (cmt_mib; dev_cmt.c): a host page's entry
 * looked up before its page operation is issued. A miss on an entry
 * whose translation page is on flash reads that page (tR, then the
 * transfer) on unit tp mod U, and the page's operation waits for it; an
 * eviction of a dirty entry writes its translation page back (its old
 * version read first, if it was ever written), issued after the
 * request's own operations: it delays no page of the request, only
 * what its unit runs next. Translation pages have every page type's
 * mean tR and tPROG, and join no multi-plane command.
 */

/* Translation page tp read (prog 0) or programmed (1), ready at r:
 * charged to its unit (and channel); own: a request waits for it (its
 * wait behind GC noted; a read suspends yielding GC as a host read
 * does). When it ends. */
static uint64_t __attribute__((noinline)) tp_op(struct dev *d, uint32_t tp, int prog, uint64_t r, int own)
{
	unsigned u = queue_of(d, tp), c = chan_of(d, u);
	struct unitq *q = &d->u[u];
	if (q->n)
		drain(d, q, r);
	uint64_t ready = r;
	if (prog) { /* its data over the channel first */
		uint64_t cs = max64(d->ch_free[c], r);
		d->ch_free[c] = ready = cs + d->xfer;
		d->t.xfer_ns += d->xfer_d;
	}
	uint64_t end;
	if (!prog && own && d->susk && suspends(d, q, ready)) { /* a request's read: as a host read, it suspends */
		end = suspend_for(d, u, d->tr, ready);
	} else {
		uint64_t s = max64(q->free_at, ready);
		if (own)
			note_wait(d, q, r, s, 0);
		end = q->free_at = s + (prog ? d->tprog : d->tr);
		charge(d, u, s, q->free_at, 0, 0);
		q->g_mask = 0; /* (the unit's last command: nothing joins it) */
	}
	if (prog || !d->xfer) /* (a read with no transfer time: the channel orders nothing, as a page's) */
		return end;
	uint64_t cs = max64(d->ch_free[c], end);
	d->ch_free[c] = cs + d->xfer;
	d->t.xfer_ns += d->xfer_d;
	return cs + d->xfer;
}

/* The host's page lpn, read or written (a program) by the request
 * being served: its entry looked up. When its translation is at hand
 * (the request's start, or the end of the read of its translation
 * page); a write-back queued for after the request's operations. */
static uint64_t __attribute__((noinline)) cmt_lookup(struct dev *d, uint32_t lpn, int write)
{
	uint32_t wb = 0;
	unsigned f = cmt_access(d->cm.m, lpn, write, &wb);
	if (!f) {
		d->t.cmt.n.hits++;
		return d->S;
	}
	d->t.cmt.n.misses++;
	if (f & CMT_WB) {
		if (d->cm.wbn == d->cm.wb_cap) { /* (grows to a request's pages once, not an access) */
			size_t cap = d->cm.wb_cap ? 2 * d->cm.wb_cap : 64;
			uint32_t *q = realloc(d->cm.wbq, cap * sizeof(uint32_t));
			uint8_t *rr = q ? realloc(d->cm.wbr, cap) : NULL;
			if (q)
				d->cm.wbq = q;
			if (rr)
				d->cm.wbr = rr;
			if (!q || !rr)
				return set_err(d->err, sizeof(d->err), "out of memory for the mapping table's write-backs"),
				       d->S;
			d->t.mem_bytes += (cap - d->cm.wb_cap) * (sizeof(uint32_t) + 1);
			d->cm.wb_cap = cap;
		}
		d->cm.wbq[d->cm.wbn] = wb;
		d->cm.wbr[d->cm.wbn++] = (uint8_t)!!(f & CMT_WB_READ);
	}
	if (!(f & CMT_READ))
		return d->S;
	uint32_t tp = cmt_tp(d->cm.m, lpn);
	if (d->cm.rd_gen[tp] == d->req_gen || (tp == d->cm.last_tp && d->cm.rd_done[tp] > d->S))
		return max64(d->S, d->cm.rd_done[tp]); /* read for this request, or the last read and under way */
	d->t.cmt.n.reads++;
	d->cm.last_tp = tp;
	d->cm.rd_gen[tp] = d->req_gen;
	return d->cm.rd_done[tp] = tp_op(d, tp, 0, d->S, 1);
}

/* The request's write-backs, after its own operations. */
static void __attribute__((noinline)) cmt_write_back(struct dev *d)
{
	for (size_t i = 0; i < d->cm.wbn; i++) {
		uint64_t r = d->S;
		if (d->cm.wbr[i]) {
			r = tp_op(d, d->cm.wbq[i], 0, r, 0);
			d->t.cmt.n.reads++;
		}
		tp_op(d, d->cm.wbq[i], 1, r, 0);
		d->t.cmt.n.writes++;
		d->cm.rd_gen[d->cm.wbq[i]] = d->cm.rd_done[d->cm.wbq[i]] = 0; /* (its new version: a later miss reads it anew) */
		if (d->cm.wbq[i] == d->cm.last_tp)
			d->cm.last_tp = UINT32_MAX;
	}
	d->cm.wbn = 0;
}

/* Before time starts (a fill, learning, an ageing trace): a logical
 * page programmed has its translation page on flash. */
static void __attribute__((noinline)) cmt_before(struct dev *d, const struct flash_op *ops, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (ops[i].kind == FLASH_PROGRAM && (ops[i].cause == FLASH_HOST || ops[i].cause == FLASH_FILL))
			cmt_written(d->cm.m, ops[i].lpn);
}

/*
 * The write cache (cache_mib): a host page write takes the next slot in
 * turn, when the page that held it has been programmed; the write
 * completes when its last page is in the cache, and its page's program
 * is issued then. A host read of a page still held (its latest write's
 * slot not yet taken again) is served from the cache, no flash read.
 */
static inline uint32_t cache_home(const struct dev *d, uint32_t lpn)
{
	return (uint32_t)((lpn * 2654435761u) >> d->hshift); /* (the product's top bits: strided pages spread) */
}

/* lpn's entry in the table, or hmask + 1 when it has none. */
static inline uint32_t cache_find(const struct dev *d, uint32_t lpn)
{
	for (uint32_t i = cache_home(d, lpn);; i = (i + 1) & d->hmask) {
		if (d->hk[i] == lpn)
			return i;
		if (d->hk[i] == CW_NONE)
			return d->hmask + 1;
	}
}

/* Entry i out of the table (linear probing's backward shift: an entry
 * after it moves up unless its home lies cyclically in (i, j]). */
static void cache_del(struct dev *d, uint32_t i)
{
	for (uint32_t j = i;;) {
		j = (j + 1) & d->hmask;
		if (d->hk[j] == CW_NONE)
			break;
		uint32_t h = cache_home(d, d->hk[j]);
		if (i <= j ? (h <= i || h > j) : (h <= i && h > j)) {
			d->hk[i] = d->hk[j];
			d->hs[i] = d->hs[j];
			i = j;
		}
	}
	d->hk[i] = CW_NONE;
}

/* A host page write of lpn takes slot d->ci: when it is in the cache
 * (the request's start, or the end of the program of the page before
 * it in the slot). */
static uint64_t link_take(struct dev *d, struct link *l, uint64_t t, uint64_t x);

static inline uint64_t cache_take(struct dev *d, uint32_t lpn)
{
	uint64_t i = d->ci;
	uint64_t a = max64(d->S, d->cw_end[i]);
	d->req_room = max64(d->req_room, a);
	if (d->cache_ns && !(a = link_take(d, &d->dram, a, d->cache_ns))) /* in over its bus */
		a = d->S;							  /* (out of memory: d->err) */
	d->cw_in[i] = a;
	uint32_t old = d->cw_lpn[i], e;
	if (old != CW_NONE && (e = cache_find(d, old)) <= d->hmask)
		cache_del(d, e);
	if ((e = cache_find(d, lpn)) <= d->hmask) { /* written again: its older slot holds nothing now */
		d->cw_lpn[d->hs[e]] = CW_NONE;
		d->hs[e] = (uint32_t)i;
	} else {
		for (e = cache_home(d, lpn); d->hk[e] != CW_NONE; e = (e + 1) & d->hmask)
			;
		d->hk[e] = lpn;
		d->hs[e] = (uint32_t)i;
	}
	d->cw_lpn[i] = lpn;
	d->req_ack = max64(d->req_ack, a);
	return a;
}

/* The program of the page in slot d->ci ends at `done`: the next slot. */
static inline void cache_programmed(struct dev *d, uint64_t done)
{
	d->cw_end[d->ci] = done;
	d->cache_drain = max64(d->cache_drain, done);
	d->ci = d->ci + 1 == d->nc ? 0 : d->ci + 1;
}

/* A host read of lpn served from the cache (its latest write in it by
 * the read's start): 1 (counted, the page out over the cache's bus),
 * else 0. */
static inline int cache_hit(struct dev *d, uint32_t lpn)
{
	uint32_t e = cache_find(d, lpn);
	if (e > d->hmask || d->cw_in[d->hs[e]] > d->S)
		return 0;
	d->t.cache_hits++;
	if (d->cache_ns) {
		uint64_t out = link_take(d, &d->dram, d->S, d->cache_ns);
		d->req_done = max64(d->req_done, out ? out : d->S);
	}
	return 1;
}

/* A flash operation of the request being served to its unit. */
static inline __attribute__((always_inline)) int op_one(struct dev *d, const struct flash_op *op, const int mp,
							 const int ext)
{
	uint32_t row = 0;
	if (op->cause == FLASH_HOST) { /* the most frequent */
		if (op->kind == FLASH_PROGRAM) {
			uint64_t r = max64(d->S, d->gc_barrier);
			if (ext && d->cm.m) /* (its entry first) */
				r = max64(r, cmt_lookup(d, op->lpn, 1));
			if (d->bl_erase_units && d->erase_pend[op->seg])
				erase_wait(d, op->seg);
			unsigned sl = place_of(d, op->seg, op->ppn, &row, mp, ext);
			if (ext && d->nc) /* (its program once it is in the cache) */
				r = max64(r, cache_take(d, op->lpn));
			uint64_t done = do_prog(d, sl, row, op->seg, r, 0, mp, ext);
			if (d->chk_erase)
				chk_prog(d, sl, 0, 0, 0, done - t_prog(d, row, ext));
			if (ext && d->nc)
				cache_programmed(d, done);
			else
				d->req_done = max64(d->req_done, done);
			d->host_programs++;
			d->req_stream = op->stream;
		}
		return 0;
	}
	if (op->cause == FLASH_GC || op->cause == FLASH_WL) {
		if (d->mode == MODE_YIELD) {
			if (!d->pass_open && pass_begin(d))
				return -1;
			if (op->kind == FLASH_ERASE)
				return defer_erase(d, op->seg);
			unsigned sl = place_of(d, op->seg, op->ppn, &row, mp, ext);
			if (op->kind == FLASH_PROGRAM)
				return hold(d, sl, row, op->lpn);
			if (d->prog_pend[op->seg] && finish_deferred(d)) /* a victim with copies into it still deferred */
				return -1;
			d->step_reads++;
			return defer_read(d, sl, row, op->lpn);
		}
		if (d->backlog) /* a foreground pass: the deferred work first (its copies' blocks, ...) */
			fg_after_deferred(d);
		uint64_t done;
		switch (op->kind) {
		case FLASH_READ: {
			unsigned sl = place_of(d, op->seg, op->ppn, &row, mp, ext);
			done = do_read(d, sl, row, d->S, 1, mp, ext);
			d->gc_read_done = max64(d->gc_read_done, done);
			if (d->chk_read) {
				d->chk_read[op->lpn] = done;
				d->chk_rpass[op->lpn] = CHK_FG;
			}
			break;
		}
		case FLASH_PROGRAM: {
			if (d->bl_erase_units && d->erase_pend[op->seg])
				erase_wait(d, op->seg);
			unsigned sl = place_of(d, op->seg, op->ppn, &row, mp, ext);
			done = do_prog(d, sl, row, op->seg, max64(d->S, d->gc_read_done), 1, mp, ext);
			if (d->chk_erase)
				chk_prog(d, sl, op->lpn, CHK_FG, 1, done - t_prog(d, row, ext));
			break;
		}
		default:
			if (d->chk_erase)
				chk_erase_issue(d, op->seg, d->S);
			done = do_erase(d, op->seg, d->erase_units, max64(d->S, d->gc_read_done), 1);
		}
		d->gc_barrier = max64(d->gc_barrier, done);
		return 0;
	}
	if (op->kind == FLASH_READ && op->cause == FLASH_HOST_READ) {
		if (ext && d->nc && cache_hit(d, op->lpn)) {
			d->host_reads++;
			return 0;
		}
		unsigned sl = place_of(d, op->seg, op->ppn, &row, mp, ext);
		uint64_t done = do_read(d, sl, row, ext && d->cm.m ? cmt_lookup(d, op->lpn, 0) : d->S, 0, mp, ext);
		d->req_done = max64(d->req_done, done);
		d->host_reads++;
	}
	return 0;
}

/* The flash-operation hook, each operation as it comes (a model
 * without the batch observer) or a batch of them in order (flushed
 * after each call into the model: inner_flush). Operations done while
 * no request is served (preconditioning, learning, an ageing trace)
 * are before time starts. */
static int on_flash(void *ctx, const struct ftl *f, const struct flash_op *op)
{
	struct dev *d = ctx;
	(void)f;
	if (!d->active && d->cm.m)
		cmt_before(d, op, 1);
	return d->active ? (d->mp ? op_one(d, op, 1, 1) : op_one(d, op, 0, 1)) : 0;
}

/* A zoned device's operations: every one the request's (or the zone
 * command's) own work, programs and reads as a host's, a reset's erase
 * on the zone's slots. No GC, no queue of deferred work. */
static int on_flash_zoned(void *ctx, const struct ftl *f, const struct flash_op *op)
{
	struct dev *d = ctx;
	(void)f;
	if (!d->active)
		return 0;
	uint32_t row = 0, x = 0;
	uint64_t done;
	if (op->kind != FLASH_ERASE)
		x = d->mp ? place_of(d, op->seg, op->ppn, &row, 1, 1) : place_of(d, op->seg, op->ppn, &row, 0, 1);
	switch (op->kind) {
	case FLASH_PROGRAM: {
		int cached = d->nc && op->cause == FLASH_HOST; /* (a finish's padding is the device's own) */
		uint64_t r = cached ? cache_take(d, op->lpn) : d->S;
		done = d->mp ? do_prog(d, x, row, op->seg, r, 0, 1, 1) : do_prog(d, x, row, op->seg, r, 0, 0, 1);
		uint32_t off = op->ppn - op->seg * d->b + 1;
		if (off > d->zwp[op->seg])
			d->zwp[op->seg] = off;
		if (op->cause == FLASH_HOST) {
			d->host_programs++;
			d->req_stream = op->stream;
		}
		if (cached) {
			cache_programmed(d, done);
			return 0;
		}
		break;
	}
	case FLASH_READ:
		if (d->nc && cache_hit(d, op->lpn)) {
			d->host_reads++;
			return 0;
		}
		done = d->mp ? do_read(d, x, row, d->S, 0, 1, 1) : do_read(d, x, row, d->S, 0, 0, 1);
		d->host_reads++;
		break;
	default: { /* a reset: the dies its programmed pages are on (none written: nothing) */
		uint32_t w = d->zwp[op->seg];
		d->zwp[op->seg] = 0;
		done = do_erase(d, op->seg, w < d->erase_units ? w : d->erase_units, d->S, 0);
	}
	}
	d->req_done = max64(d->req_done, done);
	return 0;
}

static int on_flash_batch(void *ctx, const struct ftl *f, const struct flash_op *ops, unsigned n)
{
	struct dev *d = ctx;
	(void)f;
	if (!d->active) {
		if (d->cm.m)
			cmt_before(d, ops, n);
		return 0;
	}
	if (d->ext) { /* page types, a write cache, suspension or a mapping cache */
		for (unsigned i = 0; i < n; i++)
			if (d->mp ? op_one(d, &ops[i], 1, 1) : op_one(d, &ops[i], 0, 1))
				return -1;
	} else if (d->mp) {
		for (unsigned i = 0; i < n; i++)
			if (op_one(d, &ops[i], 1, 0))
				return -1;
	} else {
		for (unsigned i = 0; i < n; i++)
			if (op_one(d, &ops[i], 0, 0))
				return -1;
	}
	return 0;
}

/* The operations of the call into the model just made, while the state
 * it was made in holds: 0, or -1 with the error in d->err or the
 * model's. */
static inline int inner_flush(struct dev *d) { return d->io->flash_flush ? d->io->flash_flush(d->in) : 0; }

static void time_close(struct dev *d)
{
	if (!d)
		return;
	if (d->in)
		d->io->close(d->in);
	for (unsigned u = 0; d->u && u < d->U; u++)
		free(d->u[u].q);
	free(d->u);
	free(d->ch_free);
	free(d->heap);
	free(d->t.unit_busy);
	free(d->t.unit_busy0);
	free(d->zwp);
	free(d->erase_pend);
	free(d->prog_pend);
	free(d->chk_read);
	free(d->chk_erase);
	free(d->chk_rpass);
	free(d->chk_epend);
	free(d->passes);
	free(d->held);
	for (int k = 0; k < 2; k++) {
		free(d->lk[k].s);
		free(d->lk[k].e);
	}
	free(d->cw_end);
	free(d->cw_in);
	free(d->dram.s);
	free(d->dram.e);
	free(d->cw_lpn);
	free(d->hk);
	free(d->hs);
	cmt_close(d->cm.m);
	free(d->cm.wbq);
	free(d->cm.wbr);
	free(d->cm.rd_gen);
	free(d->cm.rd_done);
	for (unsigned i = 0; i < d->t.nstreams; i++)
		free(d->t.lat_stream[i]);
	free(d->t.lat_stream);
	free(d->t.rows);
	free(d->t.iv_busy);
	free(d->t.iv_gc);
	free(d->t.iv_bg);
	free(d->t.iv_done);
	free(d->t.iv_done_bytes);
	free(d->t.iv_done_r);
	free(d->t.iv_done_w);
	free(d);
}

static struct dev *time_open(const struct dev_config *c, char *err, size_t n)
{
	if (!c->timing) {
		set_err(err, n, "a device in time needs its timing configuration");
		return NULL;
	}
	struct dev *d = calloc(1, sizeof(*d));
	if (!d) {
		set_err(err, n, "out of memory");
		return NULL;
	}
	d->c = *c->timing;
	d->obs = c->obs;
	d->c.warmup_writes = c->ftl.warmup_writes;
	d->io = c->zns ? &dev_zns_ops : &dev_ftl_ops;
	d->zoned = !!c->zns;
	struct dev_config inner = *c;
	inner.timing = NULL;
	if (!(d->in = d->io->open(&inner, err, n))) {
		free(d);
		return NULL;
	}
	struct dev_stats st;
	d->io->stats(d->in, &st);
	d->U = time_units(&d->c);
	d->NS = time_slots(&d->c);
	d->C = d->c.channels;
	d->pow2 = !(d->U & (d->U - 1)) && !(d->C & (d->C - 1)) && !(d->NS & (d->NS - 1));
	d->umask = d->U - 1;
	d->cmask = d->C - 1;
	d->smask = d->NS - 1;
	d->mp = d->c.multiplane == MP_ON && d->c.planes > 1;
	d->scale1 = d->c.time_scale == 1;
	d->b = st.pages_per_seg;
	/* (a footprint's numbering takes the trace's pages: none is past
	 * it; an error stops the run first) */
	d->L = c->map || c->ftl.oor == OOR_ERROR ? UINT64_MAX : st.logical_pages;
	d->oor_drop = c->ftl.oor == OOR_DROP;
	d->page_size = st.page_size;
	d->page_shift = (uint32_t)__builtin_ctz(st.page_size);
	d->erase_units = d->c.layout == LAYOUT_STRIPE ? (d->b < d->NS ? d->b : d->NS) : 1; /* slots */
	d->tr = (uint64_t)llround(d->c.tr_us * 1000);
	d->tprog = (uint64_t)llround(d->c.tprog_us * 1000);
	d->susk = (uint8_t)((d->c.suspend & SUSPEND_ERASE ? 1u << FLASH_ERASE : 0) |
			    (d->c.suspend & SUSPEND_PROGRAM ? 1u << FLASH_PROGRAM : 0));
	d->tsus = (uint64_t)llround(d->c.suspend_us * 1000);
	d->host_ns = (uint64_t)llround(d->c.host_us * 1000);
	d->ns_per_byte = d->c.host_mbps > 0 ? 1e3 / d->c.host_mbps : 0; /* (MB/s: 10^6 bytes a second) */
	d->hostx = d->host_ns || d->ns_per_byte > 0;
	for (int k = 0; k < 2 && d->ns_per_byte > 0; k++) {
		d->lk[k].s = malloc(LINK0 * sizeof(uint64_t));
		d->lk[k].e = malloc(LINK0 * sizeof(uint64_t));
		d->lk[k].cap = LINK0;
	}
	d->types = time_page_types(&d->c);
	d->order = (uint8_t)d->c.page_order;
	for (unsigned i = 0; i < TIME_TYPES; i++) {
		d->tr_t[i] = (uint64_t)llround(d->c.tr_t[d->c.tr_n > 1 ? i : 0] * 1000);
		d->tprog_t[i] = (uint64_t)llround(d->c.tprog_t[d->c.tprog_n > 1 ? i : 0] * 1000);
	}
	/* A segment of R erase blocks (an FDP reclaim unit) erases R blocks
	 * where one erases one: on its die, or striped R x min(b/R, NS)
	 * blocks over its erase_units slots; each slot's erase the time of
	 * its blocks. */
	uint32_t R = d->c.seg_blocks > 1 ? d->c.seg_blocks : 1, b1 = d->b / R;
	double blocks = d->c.layout == LAYOUT_STRIPE ? (double)R * (b1 < d->NS ? b1 : d->NS) / d->erase_units : R;
	d->tbers = (uint64_t)llround(d->c.tbers_us * 1000 * blocks);
	d->rows_blk = d->c.layout == LAYOUT_STRIPE ? (b1 / d->NS ? b1 / d->NS : 1) : (b1 ? b1 : 1);
	d->xfer = (uint64_t)llround(d->c.xfer_us * 1000);
	d->xfer_d = (double)d->xfer;
	d->row_next = d->c.timeline_ns;
	d->dn_lo = UINT64_MAX; /* no completion yet */
	d->t.cfg = d->c;
	d->t.units = d->U;
	d->u = calloc(d->U, sizeof(*d->u));
	d->ch_free = calloc(d->C, sizeof(uint64_t));
	d->heap = calloc(d->c.qd ? d->c.qd : 1, sizeof(uint64_t));
	d->t.unit_busy = calloc(d->U, sizeof(uint64_t));
	d->t.unit_busy0 = calloc(d->U, sizeof(uint64_t));
	if (d->c.stream_lat && st.streams > 1 && (d->t.lat_stream = calloc(st.streams, sizeof(struct lhist *))))
		d->t.nstreams = st.streams;
	if (d->zoned)
		d->zwp = calloc(st.segments, sizeof(uint32_t));
	d->nc = time_cache_pages(&d->c, st.page_size);
	if (d->c.cache_mib > 0 && (!d->nc || d->nc > UINT32_MAX / 4)) {
		set_err(err, n, "cache_mib=%g: %s", d->c.cache_mib,
			d->nc ? "more than 2^30 pages" : "less than a page");
		time_close(d);
		return NULL;
	}
	if (d->nc) {
		uint64_t h = cache_table(d->nc);
		d->hmask = (uint32_t)(h - 1);
		d->hshift = 32u - (uint32_t)__builtin_ctzll(h);
		d->cw_end = calloc(d->nc, sizeof(uint64_t));
		d->cw_in = calloc(d->nc, sizeof(uint64_t));
		d->cache_ns = (uint64_t)llround(d->c.cache_us * 1000);
		d->dram.s = malloc(LINK0 * sizeof(uint64_t));
		d->dram.e = malloc(LINK0 * sizeof(uint64_t));
		d->dram.cap = LINK0;
		d->cw_lpn = malloc(d->nc * sizeof(uint32_t));
		d->hk = malloc(h * sizeof(uint32_t));
		d->hs = calloc(h, sizeof(uint32_t));
		if (d->cw_lpn && d->hk) {
			memset(d->cw_lpn, 0xff, d->nc * sizeof(uint32_t)); /* CW_NONE */
			memset(d->hk, 0xff, h * sizeof(uint32_t));
		}
		d->t.cache_pages = d->nc;
	}
	if (d->c.cmt.mib > 0) {
		uint64_t e = time_cmt_entries(&d->c);
		if (d->zoned || !e || st.logical_pages >= UINT32_MAX) {
			set_err(err, n, "cmt_mib=%g: %s", d->c.cmt.mib,
				d->zoned ? "a zoned device maps zones, not pages: it has no page-level mapping table"
				: !e	 ? "less than an entry (cmt_entry_bytes)"
					 : "a logical space of 2^32 pages or more");
			time_close(d);
			return NULL;
		}
		if (d->c.cmt.entry_bytes > st.page_size) {
			set_err(err, n, "cmt_entry_bytes=%u: more than a page (%u bytes): a translation page holds whole "
					"entries", d->c.cmt.entry_bytes, st.page_size);
			time_close(d);
			return NULL;
		}
		if (!(d->cm.m = cmt_open(st.logical_pages, e, cmt_per_tp(&d->c, st.page_size)))) {
			set_err(err, n, "out of memory for the mapping table's cache (cmt_mib=%g)", d->c.cmt.mib);
			time_close(d);
			return NULL;
		}
		d->t.cmt.entries = e;
		size_t ntp = d->cm.ntp = cmt_reads_bytes(st.logical_pages, e, cmt_per_tp(&d->c, st.page_size)) / (2 * sizeof(uint64_t));
		if (ntp && (!(d->cm.rd_gen = calloc(ntp, sizeof(uint64_t))) || !(d->cm.rd_done = calloc(ntp, sizeof(uint64_t))))) {
			set_err(err, n, "out of memory for the mapping table's cache (cmt_mib=%g)", d->c.cmt.mib);
			time_close(d);
			return NULL;
		}
		d->cm.last_tp = UINT32_MAX;
	}
	d->ext = d->types > 1 || d->nc || d->susk || d->cm.m;
	int deferred = !d->zoned && (d->c.bg_high || d->c.preempt); /* GC that yields: its erases queued */
	if (deferred) {
		d->erase_pend = calloc(st.segments, sizeof(uint32_t));
		d->prog_pend = calloc(st.segments, sizeof(uint32_t));
	}
	int chk = !d->zoned && c->ftl.check;
	if (chk) {
		d->chk_read = calloc(st.logical_pages, sizeof(uint64_t));
		d->chk_rpass = calloc(st.logical_pages, sizeof(uint32_t));
		d->chk_erase = calloc((uint64_t)st.segments * d->NS, sizeof(uint64_t));
		if (deferred)
			d->chk_epend = calloc((uint64_t)st.segments * d->NS, sizeof(uint32_t));
	}
	if (!d->u || !d->ch_free || !d->heap || !d->t.unit_busy || !d->t.unit_busy0 || (d->zoned && !d->zwp) ||
	    (d->ns_per_byte > 0 && (!d->lk[0].s || !d->lk[0].e || !d->lk[1].s || !d->lk[1].e)) ||
	    (d->nc && (!d->cw_end || !d->cw_in || !d->cw_lpn || !d->hk || !d->hs || !d->dram.s || !d->dram.e)) ||
	    (deferred && (!d->erase_pend || !d->prog_pend)) || (chk && (!d->chk_read || !d->chk_rpass || !d->chk_erase || (deferred && !d->chk_epend))) ||
	    (d->c.stream_lat && st.streams > 1 && !d->t.lat_stream)) {
		set_err(err, n, "out of memory");
		time_close(d);
		return NULL;
	}
	for (unsigned k = 0; k < TK_N; k++)
		lhist_init(&d->t.lat[k]);
	d->t.kinds = d->zoned ? TK_N : TK_ZONE;
	lhist_init(&d->iv);
	d->t.mem_bytes = sizeof(*d) + d->U * (sizeof(*d->u) + 2 * sizeof(uint64_t)) + d->C * sizeof(uint64_t) +
			 (d->zoned ? st.segments * sizeof(uint32_t) : 0) + (deferred ? 2 * st.segments * sizeof(uint32_t) : 0) +
			 (chk ? (st.logical_pages + (uint64_t)st.segments * d->NS) * sizeof(uint64_t) +
					st.logical_pages * sizeof(uint32_t)
			      : 0) +
			 (chk && deferred ? (uint64_t)st.segments * d->NS * sizeof(uint32_t) : 0) +
			 (d->c.qd ? d->c.qd : 1) * sizeof(uint64_t) + cache_bytes(d->nc) +
			 (d->cm.m ? cmt_bytes(st.logical_pages, d->t.cmt.entries, cmt_per_tp(&d->c, st.page_size)) +
					    cmt_reads_bytes(st.logical_pages, d->t.cmt.entries, cmt_per_tp(&d->c, st.page_size))
				  : 0) +
			 (d->ns_per_byte > 0 ? 2 * LINK0 * 2 * sizeof(uint64_t) : 0);
	if (d->zoned ? d->io->flash_observe(d->in, on_flash_zoned, d)
	    : d->io->flash_observe_batch ? d->io->flash_observe_batch(d->in, on_flash_batch, d)
					 : d->io->flash_observe(d->in, on_flash, d)) {
		set_err(err, n, "too many flash-operation observers");
		time_close(d);
		return NULL;
	}
	return d;
}

/* The end of interval iv_cur (UINT64_MAX past the clock's range). */
static void row_next_set(struct dev *d)
{
	if (__builtin_mul_overflow(d->iv_cur + 1, d->c.timeline_ns, &d->row_next))
		d->row_next = UINT64_MAX;
}

/* The timeline's rows up to interval k (not included). */
static int rows_to(struct dev *d, uint64_t k)
{
	if (k <= d->iv_cur)
		return 0;
	if (k > 1000000 && k / 100 > d->t.requests && !d->t.rows_noted && d->obs.on_note) {
		/* said now, not after minutes of writing empty rows */
		char msg[320];
		snprintf(msg, sizeof(msg),
			 "the timeline already has %llu rows of %g ms for %llu requests, most of them empty: the run "
			 "goes on; a longer --timeline-interval gives rows that say something",
			 (unsigned long long)k, (double)d->c.timeline_ns / 1e6, (unsigned long long)d->t.requests);
		d->t.rows_noted = 1;
		d->obs.on_note(d->obs.ctx, msg);
	}
	if (k > d->rows_cap && tl_room(d, (k - d->rows_cap) * TIME_ROW_BYTES, k)) /* at once, not row by row */
		return -1;
	struct dev_stats st;
	d->io->stats(d->in, &st);
	double wa = ftl_wa(&st.c, &(struct ftl_counts){0});
	for (; d->iv_cur < k; d->iv_cur++) {
		if (d->t.nrows == d->rows_cap) {
			size_t cap = d->rows_cap ? 2 * d->rows_cap : 256;
			if (tl_room(d, (cap - d->rows_cap) * sizeof(struct time_row), k))
				return -1;
			struct time_row *r = realloc(d->t.rows, cap * sizeof(*r));
			if (!r)
				return set_err(d->err, sizeof(d->err), "out of memory for the timeline (%zu rows)", cap);
			d->t.mem_bytes += (cap - d->rows_cap) * sizeof(*r);
			d->t.rows = r;
			d->rows_cap = cap;
		}
		/* (the latencies only where they are kept: nothing else reads them) */
		d->t.rows[d->t.nrows++] = (struct time_row){.reqs = d->iv_reqs,
							   .mean_ns = d->c.timeline_lat ? lhist_mean(&d->iv) : 0,
							   .p99_ns = d->c.timeline_lat ? lhist_quantile(&d->iv, 0.99) : 0,
							   .free_segments = st.free_segments,
							   .wa = wa < 0 ? -1 : wa}; /* -1: no host write yet */
		if (d->iv_reqs)
			lhist_reset(&d->iv);
		d->iv_reqs = 0;
	}
	row_next_set(d);
	return 0;
}


/* Idle from t to A: clean in the background, a victim at a time, while
 * fewer than high segments are free. Each victim starts when the work
 * before it is done, if that is before A (a device starts it knowing
 * of no request yet); its work may run past A, yielding to requests. */
static int background(struct dev *d, uint64_t t, uint64_t A)
{
	uint64_t now = t;
	while (d->io->free_segments(d->in) < d->c.bg_high) {
		drain_all(d, A); /* the work queued before: what starts before A */
		if (d->backlog)
			break; /* still at work when A arrives */
		for (unsigned u = 0; u < d->U; u++)
			now = max64(now, d->u[u].free_at);
		if (now >= A)
			break;
		d->mode = MODE_YIELD;
		d->bg = 1;
		d->S = now;
		d->step_reads = 0;
		d->active = 1;
		int rc = d->io->clean(d->in);
		if (inner_flush(d))
			rc = -1;
		d->active = 0;
		pass_end(d);
		d->bg = 0;
		d->mode = MODE_FG;
		if (rc < 0)
			return -1;
		if (rc == 0)
			break;
		d->t.bg_steps++;
		if (d->step_reads >= d->b) /* a victim with no invalid page: nothing left to gain */
			break;
	}
	return 0;
}

/* Every unit's queued work that can start before t (again while a
 * pass's reads end and queue its programs). */
static void drain_all(struct dev *d, uint64_t t)
{
	if (!d->backlog)
		return;
	do {
		d->released = 0;
		for (unsigned u = 0; u < d->U; u++)
			if (d->u[u].n)
				drain(d, &d->u[u], t);
	} while (d->released && d->backlog);
}

/* The closed loop's slots (a min-heap of completion times): the least
 * replaced by v. Bottom-up (Floyd): the hole goes down along the lesser
 * child to a leaf, one comparison a level, then v climbs back; a new
 * completion is most often the latest, so it climbs little. */
static void heap_replace_top(uint64_t *h, unsigned n, uint64_t v)
{
	unsigned i = 0;
	for (unsigned l; (l = 2 * i + 1) < n; i = l) {
		l += l + 1 < n && h[l + 1] < h[l];
		h[i] = h[l];
	}
	while (i) {
		unsigned p = (i - 1) / 2;
		if (h[p] <= v)
			break;
		h[i] = h[p];
		i = p;
	}
	h[i] = v;
}

/* Stream i's write latency histogram, made at its first write: 1, or 0
 * when it cannot be (its writes then count only in the kind's). */
static int stream_hist(struct dev *d, unsigned i)
{
	if (d->t.lat_stream[i])
		return 1;
	if (!(d->t.lat_stream[i] = malloc(sizeof(struct lhist))))
		return 0;
	lhist_init(d->t.lat_stream[i]);
	d->t.mem_bytes += sizeof(struct lhist);
	return 1;
}

/* A transfer of x ns on link l, ready at t: in the first gap from t
 * on that holds it (transfers are reserved in the order requests are
 * served, not the order they become ready: a read that waits behind GC
 * holds no link time before then). When it ends, or 0 out of memory. */
static uint64_t link_take(struct dev *d, struct link *l, uint64_t t, uint64_t x)
{
	/* (touching reservations are kept as one: a busy link is one
	 * interval, and a transfer skips it at once) */
	size_t lo = l->lo, hi = l->n;
	while (lo < hi) { /* the first that ends after t */
		size_t mid = lo + (hi - lo) / 2;
		if (l->e[mid] <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	size_t i = lo;
	for (; i < l->n; i++) {
		if (l->s[i] >= t + x)
			break;
		t = l->e[i];
	}
	uint64_t end = t + x;
	int prev = i > l->lo && l->e[i - 1] == t, next = i < l->n && l->s[i] == end;
	if (prev && next) { /* it fills the gap: the two are one */
		l->e[i - 1] = l->e[i];
		memmove(l->s + i, l->s + i + 1, (l->n - i - 1) * sizeof(uint64_t));
		memmove(l->e + i, l->e + i + 1, (l->n - i - 1) * sizeof(uint64_t));
		l->n--;
		return end;
	}
	if (prev) {
		l->e[i - 1] = end;
		return end;
	}
	if (next) {
		l->s[i] = t;
		return end;
	}
	if (l->n == l->cap) {
		if (l->lo) { /* the past ones out */
			memmove(l->s, l->s + l->lo, (l->n - l->lo) * sizeof(uint64_t));
			memmove(l->e, l->e + l->lo, (l->n - l->lo) * sizeof(uint64_t));
			i -= l->lo;
			l->n -= l->lo;
			l->lo = 0;
		}
		if (l->n == l->cap) {
			size_t cap = 2 * l->cap;
			uint64_t *s = realloc(l->s, cap * sizeof(uint64_t)), *e = s ? realloc(l->e, cap * sizeof(uint64_t)) : NULL;
			if (s)
				l->s = s;
			if (!s || !e)
				return set_err(d->err, sizeof(d->err), "out of memory for the host link's transfers"), 0;
			l->e = e;
			d->t.mem_bytes += (cap - l->cap) * 2 * sizeof(uint64_t);
			l->cap = cap;
		}
	}
	memmove(l->s + i + 1, l->s + i, (l->n - i) * sizeof(uint64_t));
	memmove(l->e + i + 1, l->e + i, (l->n - i) * sizeof(uint64_t));
	l->s[i] = t;
	l->e[i] = end;
	l->n++;
	return end;
}

/* Transfers that ended by t: none to come is ready before t. */
static inline void link_prune(struct link *l, uint64_t t)
{
	while (l->lo < l->n && l->e[l->lo] <= t)
		l->lo++;
	if (l->lo == l->n)
		l->lo = l->n = 0;
}

/* A request arrives (e: its time): the rows and the idle-time work
 * before it, its start. 0, -1 (d->err) or -2 (the model's error). */
static inline __attribute__((always_inline)) int req_start(struct dev *d, const struct ev *e, struct req *r)
{
	uint64_t A;
	if (d->c.qd) {
		A = d->heap[0];
	} else {
		if (!d->have_t0) {
			d->t0 = e->t_ns;
			d->have_t0 = 1;
		}
		int64_t dt = e->t_ns - d->t0;
		if (dt < 0 && !d->last_arrival) /* before the first event, served at its time */
			d->t.reordered++;
		if (d->scale1 && dt < (int64_t)1 << 53) { /* what the product gives, exact in a double */
			A = dt > 0 ? (uint64_t)dt : 0;
		} else {
			double x = (double)dt * d->c.time_scale;
			if (!(x < 0x1p63)) /* past 2^63 ns (292 years): no uint64 holds it */
				return set_err(d->err, sizeof(d->err),
					       "the event's time x --time-scale %g is %.3g ns, past 2^63 ns (292 years)",
					       d->c.time_scale, x);
			A = x > 0 ? (uint64_t)x : 0;
		}
		if (A < d->last_arrival) {
			A = d->last_arrival;
			d->t.reordered++;
		}
		/* the trace's resolution (a coarse one makes bursts; a whole
		 * second is a whole millisecond: asked only of those) */
		if (e->t_ns % 1000000 == 0) {
			d->t.tick_ms++;
			d->t.tick_s += e->t_ns % 1000000000 == 0;
		}
		d->t.same_instant += d->t.requests && A == d->last_arrival;
		/* how far behind the arrivals the device ran: the work before
		 * this request still to complete when it came */
		if (d->last_done > A + d->t.behind_max) {
			d->t.behind_max = d->last_done - A;
			d->t.behind_at = A;
		}
	}
	if (!d->t.requests)
		d->t.t_first = A;
	d->last_arrival = A;
	if (d->c.bg_high && A > d->last_done + (uint64_t)(d->c.bg_idle_ms * 1e6)) {
		/* idle from t: the rows before t's interval closed on the
		 * state before the cleaning, which the model does at t */
		uint64_t t = d->last_done + (uint64_t)(d->c.bg_idle_ms * 1e6);
		if (d->c.timeline_ns && t >= d->row_next && rows_to(d, t / d->c.timeline_ns))
			return -1;
		if (background(d, t, A))
			return -2;
	}
	if (d->c.timeline_ns && A >= d->row_next && rows_to(d, A / d->c.timeline_ns))
		return -1;
	uint64_t S = max64(A, d->barrier);
	if (__builtin_expect(d->hostx | (d->cache_ns != 0), 0)) {
		if (d->ns_per_byte > 0) {
			link_prune(&d->lk[0], A);
			link_prune(&d->lk[1], A);
		}
		if (d->cache_ns)
			link_prune(&d->dram, A);
	}
	drain_all(d, S); /* the queued work that could run before this request */
	int measuring = d->host_programs >= d->c.warmup_writes;
	if (measuring && !d->t.measuring) {
		d->t.measuring = 1;
		/* the window's time starts when its work does (time_time):
		 * the first flash operation charged from now on, or a measured
		 * request's completion if earlier (one that needed none); so
		 * no unit's measured busy time exceeds the window, and a
		 * device still busy with the warm-up serves no measured work
		 * before */
		d->t.t_measure = A;
		d->mstart = UINT64_MAX;
		d->t.m0.requests = d->t.requests;
		d->t.m0.busy_ns = d->t.busy_ns;
		d->t.m0.gc_ns = d->t.gc_ns;
		d->t.m0.gc_bg_ns = d->t.gc_bg_ns;
		d->t.m0.gc_waits = d->t.gc_waits;
		d->t.m0.gc_wait_ns = d->t.gc_wait_ns;
		d->t.m0.bg_steps = d->t.bg_steps;
		d->t.m0.bytes = d->t.bytes;
		d->t.m0.cache_hits = d->t.cache_hits;
		d->t.m0.cache_waits = d->t.cache_waits;
		d->t.m0.cache_wait_ns = d->t.cache_wait_ns;
		d->t.m0.suspensions = d->t.suspensions;
		d->t.m0.link_ns[0] = d->t.link_ns[0];
		d->t.m0.link_ns[1] = d->t.link_ns[1];
		d->t.cmt.n0 = d->t.cmt.n;
		memcpy(d->t.unit_busy0, d->t.unit_busy, d->U * sizeof(uint64_t));
	}
	*r = (struct req){.A = A, .S = S, .done = S, .measuring = measuring};
	d->req_stream = UINT_MAX;
	return 0;
}

/* Event e[0] of n (the rest ahead, for the hints) served for request r,
 * its pages issued at S: r's completion and wait on GC grow by its.
 * *end: when e itself completes. 0, -1 or -2 as req_start. */
static inline __attribute__((always_inline)) int req_serve(struct dev *d, const struct ev *e, size_t n, struct req *r, uint64_t S,
							  uint64_t *end)
{
	/* the host: the command's own time, and a write's data over the link
	 * before its pages are issued */
	uint64_t xl;
	if (__builtin_expect(d->hostx, 0)) {
		S += d->host_ns;
		if (d->ns_per_byte > 0 && (e->op == EV_WRITE || e->op == EV_ZONE_APPEND) &&
		    (xl = (uint64_t)llround((double)e->length * d->ns_per_byte))) {
			if (!(S = link_take(d, &d->lk[0], S, xl)))
				return -1;
			d->t.link_ns[0] += xl;
		}
	}
	d->S = S;
	d->gc_barrier = d->gc_read_done = d->req_done = d->req_ack = d->req_room = S;
	d->req_gc_wait = 0;
	d->req_gen++;
	d->pass_max = 0;
	d->host_reads = 0;
	d->mode = MODE_FG;
	if (d->c.preempt && e->op == EV_WRITE) {
		uint32_t fr = d->io->free_segments(d->in);
		uint64_t pending = d->erase_units ? d->bl_erase_units / d->erase_units : 0;
		if (fr >= pending + d->c.preempt_hard)
			d->mode = MODE_YIELD;
		else if (d->backlog) /* under the hard threshold: the deferred work first */
			fg_after_deferred(d);
	}
	uint64_t done = S;
	/* past the logical space (--out-of-range drop or clip): dropped
	 * whole, or its bytes past it cut */
	int gone = 0;
	if (__builtin_expect(d->L != UINT64_MAX, 0) && e->length && e->op <= EV_DISCARD) {
		uint64_t last = e->offset + e->length, lim = d->L << d->page_shift;
		if (last > lim) {
			gone = d->oor_drop || e->offset >= lim;
			r->cut += gone ? e->length : last - lim;
		}
	}
	if (e->op == EV_DISCARD && d->c.trim != TRIM_FREE && !gone) {
		uint64_t cost = (uint64_t)llround((d->c.trim_us + d->c.trim_us_mib * (double)e->length / 1048576.0) * 1000);
		if (d->c.trim == TRIM_UNQUEUED) { /* it starts when the queue has drained (a host layer's request:
						     * its events before it too): so does all it waits for */
			S = d->S = max64(S, max64(d->last_done, r->done));
			d->gc_barrier = max64(d->gc_barrier, S);
			d->gc_read_done = max64(d->gc_read_done, S);
			d->req_done = max64(d->req_done, S);
		}
		done = S + cost;
		if (d->c.trim == TRIM_UNQUEUED)
			d->barrier = done;
	}
	if (__builtin_expect(d->nc != 0, 0) && e->op == EV_FLUSH) /* complete when every page the cache holds is programmed */
		done = max64(done, d->cache_drain);
	d->active = 1;
	uint64_t programs = d->host_programs;
	size_t ok = d->io->submit_one ? d->io->submit_one(d->in, e, n) /* flushed */
				      : d->io->submit(d->in, e, 1) == 1 && !inner_flush(d);
	d->active = 0;
	pass_end(d);
	d->mode = MODE_FG;
	if (ok != 1)
		return -2;
	if (d->err[0])
		return -1;
	/* a write the model skipped programs nothing */
	int dropped = gone || ((e->op == EV_WRITE || e->op == EV_ZONE_APPEND) && e->length && d->host_programs == programs);
	if (e->op == EV_READ && !d->zoned && !gone) {
		/* pages no write mapped: read where they would lie (a zoned
		 * device returns its unwritten pages without a read); none
		 * past the logical space, which the model clips */
		uint64_t lo = e->offset >> d->page_shift, hi = (e->offset + e->length + d->page_size - 1) >> d->page_shift;
		if (hi > d->L)
			hi = d->L;
		int some = d->host_reads > 0; /* some were mapped (read by the model): which, asked */
		uint32_t lpn;
		for (uint64_t p = lo; p < hi && d->host_reads < hi - lo; p++) {
			int m = some || d->cm.m ? d->io->mapped(d->in, p, &lpn) : 0;
			if (some && m == 1)
				continue;
			/* (its slot: x mod NS, taken of the 64-bit page) */
			uint32_t off = (uint32_t)(p % d->b),
				 x = (uint32_t)((d->c.layout == LAYOUT_STRIPE ? p : p / d->b) % d->NS);
			uint32_t row = d->c.layout == LAYOUT_STRIPE ? off / d->NS : off;
			uint64_t rs = d->cm.m && m >= 0 ? cmt_lookup(d, lpn, 0) : S; /* (its entry, when in the model's space) */
			d->req_done = max64(d->req_done, do_read(d, x, row, rs, 0, d->mp, 1));
			d->t.read_unwritten++;
		}
	}
	if (__builtin_expect(d->cm.wbn != 0, 0)) /* the mapping cache's write-backs, after the request's operations */
		cmt_write_back(d);
	if (dropped)
		r->dropped = 1;
	else
		r->served = 1;
	if (e->op == EV_ZONE_RESET && !d->t.reset_seen) { /* (a host log's, within its request) */
		d->t.reset_seen = 1;
		d->t.reset_at = r->A;
	}
	/* a write into the cache completes when its pages are in it, not
	 * after the cleaning its programs wait for */
	int cached = d->nc && (e->op == EV_WRITE || e->op == EV_ZONE_APPEND);
	*end = max64(done, cached ? max64(d->req_done, d->req_ack) : max64(d->req_done, d->gc_barrier));
	if (__builtin_expect(d->hostx, 0) && d->ns_per_byte > 0 && e->op == EV_READ && !gone &&
	    (xl = (uint64_t)llround((double)e->length * d->ns_per_byte))) {
		/* its data out over the link */
		if (!(*end = link_take(d, &d->lk[1], *end, xl)))
			return -1;
		d->t.link_ns[1] += xl;
	}
	r->done = max64(r->done, *end);
	/* its wait on GC: behind a unit's run of GC operations (note_wait),
	 * or on cleaning it set off, for the most GC time one unit ran for
	 * it, at most until the cleaning was done (the host work queued
	 * before the cleaning's operations is not GC's); a write into the
	 * cache waits on none, only for room there (the programs before
	 * it, GC's and the host's: cache_wait) */
	uint64_t own = d->gc_barrier - S < d->pass_max ? d->gc_barrier - S : d->pass_max;
	if (cached) /* (its wait for room: not its pages' time on the cache's bus) */
		r->cache_wait = max64(r->cache_wait, d->req_room - S);
	else
		r->wait = max64(r->wait, max64(d->req_gc_wait, own));
	return 0;
}

/* Request r (e: its kind and bytes) completes: its latency, the
 * timeline's counts, the closed loop's next start. 0 or -1. */
static inline __attribute__((always_inline)) int req_finish(struct dev *d, const struct ev *e, const struct req *r)
{
	int kind = -1;
	switch (e->op) {
	case EV_READ:
		kind = TK_READ;
		break;
	case EV_WRITE:
	case EV_ZONE_APPEND:
		kind = TK_WRITE;
		break;
	case EV_DISCARD:
		kind = TK_TRIM;
		break;
	case EV_ZONE_RESET:
	case EV_ZONE_OPEN:
	case EV_ZONE_FINISH:
		kind = TK_ZONE;
		break;
	}
	uint64_t done = r->done;
	if (__builtin_expect(r->dropped && !r->served, 0)) {
		/* nothing the device did: no request served (no latency,
		 * bytes or count); the closed loop's slot freed */
		d->last_done = max64(d->last_done, done);
		if (d->c.qd)
			heap_replace_top(d->heap, d->c.qd, done);
		return 0;
	}
	if (r->wait) {
		d->t.gc_wait_ns += (double)r->wait;
		d->t.gc_waits++;
	}
	if (r->cache_wait) {
		d->t.cache_wait_ns += r->cache_wait;
		d->t.cache_waits++;
	}
	uint64_t lat = done - r->A;
	if (r->measuring && done < d->mstart)
		d->mstart = done;
	if (__builtin_expect(e->op == EV_FLUSH, 0) && r->measuring) {
		d->t.flushes++;
		d->t.flush_ns += (double)lat;
		if (lat > d->t.flush_max)
			d->t.flush_max = lat;
	}
	int data = kind == TK_READ || kind == TK_WRITE; /* bytes moved */
	if (kind >= 0) {
		unsigned bk = lhist_bucket(lat);
		if (r->measuring) {
			lhist_add_at(&d->t.lat[kind], lat, bk);
			if (d->t.nstreams && kind == TK_WRITE && d->req_stream < d->t.nstreams &&
			    stream_hist(d, d->req_stream))
				lhist_add_at(d->t.lat_stream[d->req_stream], lat, bk);
		}
		/* (a TRIM of no cost takes no time, and a zone command moves
		 * no data: neither is in the interval's latencies) */
		if (d->c.timeline_lat && kind != TK_ZONE && (kind != TK_TRIM || d->c.trim != TRIM_FREE))
			lhist_add_at(&d->iv, lat, bk);
		if (data)
			d->t.bytes += e->length - r->cut;
	}
	d->iv_reqs++; /* every request: flushes and zone commands too, as timing.requests */
	/* The interval it completes in, most often the last one's: (a, b],
	 * so that a completion on a boundary closes the interval it ends
	 * (QD1 at 200 us in 1 ms intervals: 5 a row, the last at the end). */
	if (d->c.timeline_ns) {
		if (done <= d->dn_lo || done - d->dn_lo > d->c.timeline_ns) {
			uint64_t k = done ? (done - 1) / d->c.timeline_ns : 0;
			if (iv_grow(d, k))
				return -1;
			d->dn_lo = k * d->c.timeline_ns;
			d->dn_n = &d->t.iv_done[k];
			d->dn_b = &d->t.iv_done_bytes[k];
			d->dn_r = &d->t.iv_done_r[k];
			d->dn_w = &d->t.iv_done_w[k];
		}
		++*d->dn_n;
		if (data) {
			*d->dn_b += e->length - r->cut;
			++*(kind == TK_READ ? d->dn_r : d->dn_w);
		}
	}
	d->t.requests++;
	d->t.t_last = r->A;
	d->last_done = max64(d->last_done, done);
	if (d->c.qd)
		heap_replace_top(d->heap, d->c.qd, done);
	return 0;
}

/* One request, e[0] of n (the rest are ahead, for the hints). 0, or -1
 * with the error in d->err, or -2 the model's. */
static int one(struct dev *d, const struct ev *e, size_t n)
{
	struct req r = {0};
	uint64_t end;
	int rc = req_start(d, e, &r);
	if (!rc)
		rc = req_serve(d, e, n, &r, r.S, &end);
	return rc ? rc : req_finish(d, e, &r);
}

/* A host layer's events for one request of its own (dev.h, group): one
 * request in time, arriving at the host's request's time; its reads at
 * its start, its writes and zone commands once those reads are done
 * (a copy is read before it is written), its latency to the last. */
static int time_group(struct dev *d, const struct ev *req, int begin)
{
	if (d->ageing)
		return 0;
	if (begin) {
		if (req_start(d, req, &d->g)) /* (the message: time_error's) */
			return -1;
		d->g_read_done = d->g.S;
		d->grouped = 1;
		return 0;
	}
	d->grouped = 0;
	if (begin < 0) /* the layer dropped it */
		d->g.dropped = 1;
	return req_finish(d, req, &d->g);
}

/* Event by event, each with the hints for those ahead (submit_one). */
static size_t time_submit(struct dev *d, const struct ev *e, size_t n)
{
	if (d->ageing) { /* before time starts */
		size_t k = d->io->submit(d->in, e, n);
		return inner_flush(d) ? 0 : k;
	}
	if (d->grouped) { /* a host layer's request: the events served within it */
		for (size_t k = 0; k < n; k++) { /* (after an unqueued TRIM of the request's: the barrier) */
			uint64_t end, S = max64(e[k].op == EV_READ ? d->g.S : max64(d->g.S, d->g_read_done), d->barrier);
			if (req_serve(d, &e[k], n - k, &d->g, S, &end))
				return k;
			if (e[k].op == EV_READ)
				d->g_read_done = max64(d->g_read_done, end);
		}
		return n;
	}
	for (size_t k = 0; k < n; k++)
		if (one(d, &e[k], n - k))
			return k;
	return n;
}

static void time_prefetch(struct dev *d, const struct ev *e, int stage) { d->io->prefetch(d->in, e, stage); }

static int time_idle(struct dev *d, uint64_t until_ns)
{
	uint64_t t = d->last_done + (uint64_t)(d->c.bg_idle_ms * 1e6);
	return d->c.bg_high && until_ns > t ? background(d, t, until_ns) : 0;
}

/* Before time starts: their flash operations (flushed) count nowhere. */
static int time_precondition(struct dev *d, int kind) { return d->io->precondition(d->in, kind) | inner_flush(d); }
static int time_learn_begin(struct dev *d) { return d->io->learn_begin(d->in) | inner_flush(d); }
static int time_learn(struct dev *d, const struct ev *e) { return d->io->learn(d->in, e) | inner_flush(d); }
static int time_learn_end(struct dev *d) { return d->io->learn_end(d->in) | inner_flush(d); }
/* After an ageing trace the clock restarts at 0 on an idle device. */
static int time_age(struct dev *d, int begin)
{
	if (d->io->age(d->in, begin))
		return -1;
	d->ageing = begin;
	if (begin)
		return 0;
	drain_all(d, UINT64_MAX);
	for (unsigned u = 0; u < d->U; u++) {
		d->u[u].free_at = d->u[u].gc_until = d->u[u].gc_from = 0;
		d->u[u].sus_on = 0;
		d->u[u].g_mask = 0;
	}
	memset(d->ch_free, 0, d->C * sizeof(uint64_t));
	memset(d->heap, 0, (d->c.qd ? d->c.qd : 1) * sizeof(uint64_t));
	d->have_t0 = 0;
	d->last_arrival = d->last_done = d->barrier = d->host_programs = 0;
	for (unsigned k = 0; k < TK_N; k++)
		lhist_init(&d->t.lat[k]);
	for (unsigned i = 0; i < d->t.nstreams; i++)
		if (d->t.lat_stream[i])
			lhist_init(d->t.lat_stream[i]);
	lhist_init(&d->iv);
	d->t.requests = d->t.t_first = d->t.t_last = d->t.t_end = d->t.t_measure = 0;
	d->t.behind_max = d->t.behind_at = 0;
	d->t.reset_seen = 0;
	d->t.reset_at = 0;
	d->t.measuring = 0;
	d->t.busy_ns = d->t.gc_ns = d->t.gc_bg_ns = 0;
	d->t.xfer_ns = d->t.gc_wait_ns = 0;
	d->t.gc_waits = d->t.reordered = d->t.bg_steps = d->t.backlog_max = d->t.read_unwritten = 0;
	d->t.cache_hits = d->t.cache_waits = d->t.cache_wait_ns = d->t.suspensions = 0;
	memset(&d->t.cmt.n, 0, sizeof(d->t.cmt.n));
	memset(&d->t.cmt.n0, 0, sizeof(d->t.cmt.n0));
	d->cm.last_tp = UINT32_MAX;
	if (d->cm.ntp) { /* (the cache kept: the ageing trace's requests looked up nothing; no read under way) */
		memset(d->cm.rd_gen, 0, d->cm.ntp * sizeof(uint64_t));
		memset(d->cm.rd_done, 0, d->cm.ntp * sizeof(uint64_t));
	}
	d->t.link_ns[0] = d->t.link_ns[1] = 0;
	d->t.flushes = d->t.flush_max = 0;
	d->t.flush_ns = 0;
	d->lk[0].lo = d->lk[0].n = d->lk[1].lo = d->lk[1].n = 0;
	if (d->nc) { /* the cache empty */
		memset(d->cw_end, 0, d->nc * sizeof(uint64_t));
		memset(d->cw_in, 0, d->nc * sizeof(uint64_t));
		d->dram.lo = d->dram.n = 0;
		memset(d->cw_lpn, 0xff, d->nc * sizeof(uint32_t));
		memset(d->hk, 0xff, ((uint64_t)d->hmask + 1) * sizeof(uint32_t));
		d->ci = d->cache_drain = 0;
	}
	d->t.tick_ms = d->t.tick_s = d->t.same_instant = 0;
	d->t.rows_noted = 0;
	memset(d->t.mp_joined, 0, sizeof(d->t.mp_joined));
	memset(d->t.unit_busy, 0, d->U * sizeof(uint64_t));
	memset(d->t.unit_busy0, 0, d->U * sizeof(uint64_t));
	memset(&d->t.m0, 0, sizeof(d->t.m0));
	d->t.bytes = 0;
	d->t.nrows = 0;
	if (d->t.niv) {
		memset(d->t.iv_busy, 0, d->t.niv * sizeof(uint64_t));
		memset(d->t.iv_gc, 0, d->t.niv * sizeof(uint64_t));
		memset(d->t.iv_bg, 0, d->t.niv * sizeof(uint64_t));
		memset(d->t.iv_done, 0, d->t.niv * sizeof(uint64_t));
		memset(d->t.iv_done_bytes, 0, d->t.niv * sizeof(uint64_t));
		memset(d->t.iv_done_r, 0, d->t.niv * sizeof(uint64_t));
		memset(d->t.iv_done_w, 0, d->t.niv * sizeof(uint64_t));
	}
	d->iv_cur = d->iv_reqs = 0;
	row_next_set(d);
	d->iv_lo = d->iv_hi = 0;
	d->dn_lo = UINT64_MAX;
	d->iv_k = 0;
	return 0;
}

static int time_clean(struct dev *d)
{
	int rc = d->io->clean(d->in);
	return inner_flush(d) ? -1 : rc;
}
static uint32_t time_free_segments(const struct dev *d) { return d->io->free_segments(d->in); }

static int time_flash_observe(struct dev *d, flash_fn fn, void *ctx) { return d->io->flash_observe(d->in, fn, ctx); }

static void time_stats(const struct dev *d, struct dev_stats *st)
{
	d->io->stats(d->in, st);
	st->mem_bytes += d->t.mem_bytes;
}

static void time_stream(const struct dev *d, unsigned i, struct dev_stream *out) { d->io->stream(d->in, i, out); }

static int time_hist(const struct dev *d, int kind, uint64_t *bins, size_t nbins)
{
	return d->io->hist(d->in, kind, bins, nbins);
}

static const char *time_error(const struct dev *d) { return d->err[0] ? d->err : d->io->error(d->in); }
static int time_mapped(const struct dev *d, uint64_t page, uint32_t *lpn) { return d->io->mapped(d->in, page, lpn); }

/* The end of the run: the queued work done, the last row closed. */
static const struct dev_time *time_time(struct dev *d)
{
	if (!d->ended) {
		d->ended = 1;
		drain_all(d, UINT64_MAX);
		uint64_t end = d->last_done;
		for (unsigned u = 0; u < d->U; u++)
			end = max64(end, d->u[u].free_at);
		d->t.t_end = end;
		if (d->t.measuring && d->mstart != UINT64_MAX) /* (else the first measured arrival) */
			d->t.t_measure = d->mstart;
		if (d->c.timeline_ns && d->t.requests) {
			/* to the interval the device's work ends in (a write
			 * cache's last programs, deferred GC after the last
			 * completion), so the rows hold all of its unit time;
			 * the rounds of the steady-state rule end with the last
			 * completion's interval */
			uint64_t ns = d->c.timeline_ns;
			rows_to(d, max64(d->iv_cur + 1, (d->last_done ? (d->last_done - 1) / ns : 0) + 1));
			d->t.rows_done = d->t.nrows;
			rows_to(d, max64(d->iv_cur, (end ? (end - 1) / ns : 0) + 1));
		}
	}
	return &d->t;
}

const struct dev_ops dev_time_ops = {
	.name = "time",
	.open = time_open,
	.precondition = time_precondition,
	.learn_begin = time_learn_begin,
	.learn = time_learn,
	.learn_end = time_learn_end,
	.submit = time_submit,
	.group = time_group,
	.prefetch = time_prefetch,
	.idle = time_idle,
	.age = time_age,
	.clean = time_clean,
	.free_segments = time_free_segments,
	.time = time_time,
	.flash_observe = time_flash_observe,
	.stats = time_stats,
	.stream = time_stream,
	.hist = time_hist,
	.error = time_error,
	.close = time_close,
	.mapped = time_mapped,
};
