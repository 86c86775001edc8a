/*
 * readers.c - the table of trace readers, found by name. Adding a
 * format: write rd_NAME.c with its reader_ops and add one line here.
 * Auto-detection asks every reader's probe and takes the surest.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ftlkit.h"
#include "reader.h"

extern const struct reader_ops rd_ev_ops;
extern const struct reader_ops rd_msr_ops;
extern const struct reader_ops rd_systor17_ops;
extern const struct reader_ops rd_tencent_ops;
extern const struct reader_ops rd_alibaba_ops;
extern const struct reader_ops rd_spc_ops;
extern const struct reader_ops rd_fiu_ops;
extern const struct reader_ops rd_blktrace_ops;
extern const struct reader_ops rd_blkparse_ops;
extern const struct reader_ops rd_disksim_ops;
extern const struct reader_ops rd_mqsim_ops;
extern const struct reader_ops rd_cloudphysics_ops;
extern const struct reader_ops rd_fio_ops;
extern const struct reader_ops rd_csvspec_ops;

const struct reader_ops *const reader_table[] = {
	&rd_ev_ops,
	&rd_msr_ops,
	&rd_systor17_ops,
	&rd_tencent_ops,
	&rd_alibaba_ops,
	&rd_spc_ops,
	&rd_fiu_ops,
	&rd_blktrace_ops,
	&rd_blkparse_ops,
	&rd_disksim_ops,
	&rd_mqsim_ops,
	&rd_cloudphysics_ops,
	&rd_fio_ops,
	&rd_csvspec_ops,
	NULL,
};

const struct reader_ops *reader_find(const char *name)
{
	for (const struct reader_ops *const *p = reader_table; *p; p++)
		if (!strcmp((*p)->name, name))
			return *p;
	return NULL;
}

int reader_table_check(char *err, size_t n)
{
	for (const struct reader_ops *const *p = reader_table; *p; p++) {
		const struct reader_ops *o = *p;
		if (o->version != READER_API_VERSION)
			return set_err(err, n, "reader '%s' has interface version %u, want %u",
				       o->name, o->version, READER_API_VERSION);
		if (!o->probe || !o->next)
			return set_err(err, n, "reader '%s' lacks a mandatory operation", o->name);
	}
	return 0;
}

int rd_bad(struct reader *r, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!r->opt.skip_bad) {
		snprintf(r->err, sizeof(r->err), "%s", msg);
		return -1;
	}
	if (!r->nbad++)
		snprintf(r->first_bad, sizeof(r->first_bad), "%s", msg);
	return 0;
}

void rd_action_hint(const char *name, int want, const uint64_t seen[3])
{
	static const char acts[] = "QDC";
	static const char *const what[] = {"queue", "issue", "complete"};
	int best = -1;
	for (int i = 0; i < 3; i++)
		if (acts[i] != want && seen[i] && (best < 0 || seen[i] > seen[best]))
			best = i;
	const char *w = want ? strchr(acts, want) : NULL;
	if (best < 0 || !w || seen[w - acts])
		return;
	warn("%s: no %c (%s) records, but %llu %c (%s) ones: try --action %c", name, want,
	     what[w - acts], (unsigned long long)seen[best], acts[best], what[best], acts[best]);
}
