#!/bin/sh
# How a blktrace per-CPU set is named (analyzers/btset.c): its base
# name, any member, a glob of members, its directory; members plain or
# compressed file by file in any mix; each CPU read once. blkparse is
# the oracle, on the uncompressed originals.
. "$(dirname "$0")/lib.sh"
# xz at its fastest preset: the format is the same, the time a tenth.
export XZ_OPT=-0
TC="$BIN/tracecat"
TS="$BIN/tracestat"

oracle() {
	blkparse -q -i "$1" -f '%a %d %S %N\n' | awk '
		$1 == "D" {
			fl = substr($2, 1, 1) == "F" && length($2) > 1
			m = substr($2, 1 + fl, 1)
			if ($4 == 0) { if (fl) print "F 0 0"; next }
			printf "%s %.0f %s\n", m == "D" ? "D" : m == "W" ? "W" : "R", $3 * 512, $4
		}' | sort
}
ours() {
	"$TC" -q -o text "$@" | awk '{print $2, $3, $4}' | sort
}

# Every sample set, each member compressed with another codec (the
# first CPU's codec rotates from set to set, so every codec appears on
# every CPU position), the original beside it for the oracle.
codecs="gzip bzip2 zstd xz"
k=0
for f in "$SAMPLES"/blktrace/*/*.blktrace.0; do
	s=${f%.blktrace.0}
	n=$(basename "$s")
	mkdir -p "$TMP/z$n"
	i=$k
	for m in "$s".blktrace.*; do
		c=$(echo $codecs | cut -d" " -f$((i % 4 + 1)))
		$c -c <"$m" >"$TMP/z$n/$(basename "$m").$(case $c in gzip) echo gz;; bzip2) echo bz2;; zstd) echo zst;; xz) echo xz;; esac)"
		i=$((i + 1))
	done
	k=$((k + 1))
	if command -v blkparse >/dev/null 2>&1; then
		oracle "$s" >"$TMP/want-$n.txt"
		cnt=$(wc -l <"$TMP/want-$n.txt")
		t_expect_success "$n compressed member by member ($(ls "$TMP/z$n" | tr '\n' ' ')): base name gives blkparse's $cnt events" '
			test $cnt -gt 0 && ours "z$n/$n" >got.txt && t_cmp "want-$n.txt" got.txt
		'
	else
		t_skip "$n against blkparse" 'blkparse is not installed (Debian package blktrace)'
	fi
	t_expect_success "$n: base, each member, the glob, the directory: the same events, once" '
		"$TC" -q -o text "$s" >want.txt && test -s want.txt &&
		"$TC" -q -o text "z$n/$n" >got.txt && t_cmp want.txt got.txt &&
		for m in z$n/*; do "$TC" -q -o text "$m" >got.txt && t_cmp want.txt got.txt || exit 1; done &&
		"$TC" -q -o text z$n/$n.blktrace.* >got.txt 2>err.txt && t_cmp want.txt got.txt &&
		test ! -s err.txt &&
		"$TC" -q -o text "z$n" >got.txt && t_cmp want.txt got.txt &&
		"$TC" -q -o text "z$n/" >got.txt && t_cmp want.txt got.txt
	'
	t_expect_success "$n: tracestat counts the glob once, as the base name" '
		"$TS" -q "$s" | grep -v "\"file\"" >want.txt &&
		"$TS" -q z$n/$n.blktrace.* | grep -v "\"file\"" >got.txt && t_cmp want.txt got.txt
	'
done

RF="$SAMPLES/blktrace/rootfs-discard/vda_rootfs_pycompile"
t_expect_success 'a member named twice is read once, with a note' '
	"$TC" -q -o text "$RF" >want.txt &&
	"$TC" -q -o text "$RF.blktrace.1" "$RF.blktrace.1" >got.txt 2>err.txt &&
	t_cmp want.txt got.txt &&
	grep -q "vda_rootfs_pycompile.blktrace.1: the per-CPU set .* is named more than once: each CPU is read once" err.txt
'
t_expect_success 'the base and a member together: read once, with a note' '
	"$TC" -q -o text "$RF" >want.txt &&
	"$TC" -q -o text "$RF" "$(dirname "$RF")/./$(basename "$RF").blktrace.0" >got.txt 2>err.txt &&
	t_cmp want.txt got.txt && grep -q "named more than once" err.txt
'
t_expect_success 'two different sets on one command line are one trace: out of time order, an error; --unordered reads both' '
	t_err 1 "jbd2-sda1/sda1: its first event .* is before the last event of .*vda_rootfs_pycompile" \
		"$TC" -q -o text "$RF" "$SAMPLES/blktrace/jbd2-sda1/sda1" &&
	"$TC" -q -o text --unordered "$RF" "$SAMPLES/blktrace/jbd2-sda1/sda1" 2>/dev/null | wc -l | grep -qx 9934
'
t_expect_success 'a missing CPU in a compressed set: the message lists the members present' '
	mkdir -p hole && gzip -c <"$RF.blktrace.1" >hole/v.blktrace.2.gz && cp "$RF.blktrace.0" hole/v.blktrace.0 &&
	t_err 1 "hole/v\.blktrace\.1: missing per-CPU file \(the set goes up to v\.blktrace\.2\.gz; present: v\.blktrace\.0, v\.blktrace\.2\.gz\)" \
		"$TC" -q -o text hole/v.blktrace.0
'
t_expect_success 'one CPU twice (plain and compressed): an error naming both' '
	mkdir -p twice && cp "$RF".blktrace.* twice/ && xz -k twice/vda_rootfs_pycompile.blktrace.1 &&
	t_err 1 "CPU 1 is there twice, also as .*vda_rootfs_pycompile\.blktrace\.1(\.xz)?: keep one" \
		"$TC" -q -o text twice/vda_rootfs_pycompile
'
t_expect_success 'a directory with two sets: an error naming them' '
	mkdir -p two && cp "$RF".blktrace.* "$SAMPLES"/blktrace/jbd2-sda1/* two/ &&
	t_err 1 "two: holds more than one blktrace set" "$TC" -q -o text two
'
t_expect_success 'an empty directory: an error' '
	mkdir -p none && t_err 1 "none: a directory without a trace file" "$TC" -q -o text none
'
t_expect_success 'a named member that does not exist: cannot open it (the set is not read instead)' '
	t_err 1 "cannot open .*vda_rootfs_pycompile\.blktrace\.7" "$TC" -q -o text "$RF.blktrace.7"
'
if command -v blkparse >/dev/null 2>&1; then
	t_expect_success 'a single member whose records carry another CPU number is read (blkparse refuses it)' '
		mkdir -p lone && cp "$RF.blktrace.1" lone/x.blktrace.0 &&
		blkparse -i lone/x -o /dev/null 2>bp.txt; grep -q "cpu 0 trace info has error cpu 1" bp.txt &&
		"$TC" -q -o text lone/x | wc -l | grep -qx 9926
	'
fi
t_expect_success 'a set named by its base name: its format said as for a file (not with -q, once over two passes)' '
	"$TC" -o text "$RF" 2>note.txt >/dev/null &&
	grep -qx "tracecat: .*vda_rootfs_pycompile: detected format .blktrace. (the per-CPU files .*vda_rootfs_pycompile.blktrace.N)" note.txt &&
	"$TC" -q -o text "$RF" 2>q.txt >/dev/null && test ! -s q.txt &&
	"$BIN/ftlsim" --logical-space footprint --precondition random "$RF" 2>f.txt >/dev/null &&
	test "$(grep -c "detected format" f.txt)" = 1
'
t_done
