/*
 * btset.h - how a blktrace per-CPU set is named and found.
 *
 * blktrace(8) writes one file per CPU, NAME.blktrace.0 ... .N. People
 * archive them compressed file by file (NAME.blktrace.3.xz), glob them
 * (NAME.blktrace.*) or hand over their directory. All of these name
 * the same set, which is read whole and once:
 *   - a member, NAME.blktrace.N, plain or with .gz .bz2 .zst .xz;
 *   - the base NAME, when no file has that name and members exist;
 *   - a directory holding the members of exactly one set.
 * Members may be plain or compressed in any mix; each CPU must be there
 * exactly once (two files for one CPU, or a gap in the numbering, is an
 * error: a missing CPU would lose its I/O without a word).
 */
#ifndef FTLKIT_BTSET_H
#define FTLKIT_BTSET_H

#include <stddef.h>

#define BTSET_PATH 4096
#define BTSET_MAX_CPUS 65536

struct btset {
	char base[BTSET_PATH]; /* DIR/NAME as the members' paths start */
	size_t n;	       /* CPUs 0 .. n-1 */
	char **member;	       /* [n] the path of each CPU's file */
};

/*
 * If the file name (no directory) is a member "NAME.blktrace.N" with an
 * optional compression suffix: the length of NAME, and N in *cpu (-1
 * when N is too large). 0 when it is not a member's name.
 */
size_t btset_member_name(const char *name, long *cpu);

/*
 * Whether path names a per-CPU set (see above): 1 with the set's base
 * in base, 0 if not (a lone file, stdin, a missing file), -1 on error
 * (a directory with no set or several; message in err).
 */
int btset_base(const char *path, char *base, size_t n, char *err, size_t en);

/* Find every member of the set with this base: 0, or -1 with a message
 * naming what is wrong (no member, a missing CPU with the members
 * present, a CPU twice). btset_free after success. */
int btset_find(const char *base, struct btset *s, char *err, size_t en);
void btset_free(struct btset *s);

#endif
