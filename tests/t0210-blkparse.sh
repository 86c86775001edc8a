#!/bin/sh
# blkparse text reader (analyzers/rd_blkparse.c): an awk filter of the
# text as the oracle on the text samples, blkparse's own output of the
# binary samples read back to the binary reader's events, the summary
# block, message and remap lines, and bad input.
. "$(dirname "$0")/lib.sh"
TC="$BIN/tracecat"
BAD="$DATA/blkparse"

# The text's lines of action $1 as sorted "op offset length", by the op
# rule shared with rd_blktrace.c (decided on the RWBS field): no
# "SECTOR + N" or N = 0 is a flush (F 0 0) with a leading F, else not
# I/O; otherwise the main letter: D discard, W write, R read, and with
# a leading F a flush (F 0 0) too, the write's preflush.
# Passthrough (pc) lines ("D R 8 (cdb) [prog]") are not in the samples.
oracle() {
	awk -v A="$1" '
		$1 ~ /^[0-9]+,[0-9]+$/ && $6 == A {
			fl = substr($7, 1, 1) == "F" && length($7) > 1
			m = substr($7, 1 + fl, 1)
			n = $9 == "+" ? $10 : 0
			if (n == 0) { if (fl) print "F 0 0"; next }
			if (fl) print "F 0 0"
			printf "%s %.0f %.0f\n", m == "D" ? "D" : m == "W" ? "W" : "R", $8 * 512, n * 512
		}' | sort
}

ours() {
	a=$1
	shift
	"$TC" -q -o text --action "$a" "$@" | awk '{print $2, $3, $4}' | sort
}

for f in "$SAMPLES"/blkparse/*; do
	n=$(basename "$f")
	for a in D Q C; do
		gzip -dcf "$f" | oracle $a >"$TMP/want-$n-$a.txt"
		cnt=$(wc -l <"$TMP/want-$n-$a.txt")
		t_expect_success "$n: --action $a gives the text's $cnt $a events" '
			ours $a "$f" >got.txt && t_cmp "want-$n-$a.txt" got.txt
		'
	done
done
t_expect_success 'hadoop sample: every line is an event, message or remap line (no bad lines)' '
	"$TC" -o text --action Q "$SAMPLES/blkparse/hadoop.blkparse.txt.gz" 2>err.txt | wc -l | grep -qx 15524 &&
	grep -q "detected format .blkparse., gzip" err.txt && ! grep -q "bad records" err.txt
'
t_expect_success 'leveldb sample: all 840 completions, in file order (CPU 13 times kept)' '
	"$TC" -q -o text --action C "$SAMPLES/blkparse/leveldb.blkparse.txt" >got.txt &&
	test $(wc -l <got.txt) -eq 840 &&
	awk "\$1 > 1266874000000000000" got.txt | wc -l | grep -qx 196
'

# blkparse's default output of the binary samples, read back: the same
# events as the binary reader, times and volumes included (both are
# relative to the first event). This covers the summary block, remap
# and zero-length lines, "FN" flushes without a sector.
if command -v blkparse >/dev/null 2>&1; then
	for f in "$SAMPLES"/blktrace/*/*.blktrace.0 "$DATA"/blktrace/classes.blktrace.0; do
		s=${f%.blktrace.0}
		b=$(basename "$s")
		blkparse -i "$s" >"$TMP/$b.txt" 2>/dev/null
		for a in D Q C; do
			t_expect_success "blkparse text of $b, --action $a: the binary reader's events" '
				"$TC" -q -o text --action $a "$s" >want.txt &&
				if [ $b = classes ]; then
					# blkparse 1.2 drops the cgroup-flagged record ("Bad fs action")
					grep -v " R 102400 8192 " want.txt >w && mv w want.txt
				fi &&
				"$TC" -q -o text -f blkparse --action $a "$b.txt" >got.txt &&
				test -s want.txt && t_cmp want.txt got.txt
			'
		done
	done
	t_expect_success 'the summary block is really there and read without complaint' '
		grep -q "^Total (sda1):" sda1.txt && grep -q "^Events (sda1)" sda1.txt &&
		"$TC" -o text sda1.txt 2>err.txt >/dev/null &&
		grep -q "detected format .blkparse." err.txt && ! grep -q "bad records" err.txt
	'
	t_expect_success 'passthrough lines ("D R 512 (12 00 ..)") are not events' '
		grep -q " D   R 512 (12 00 ..) " classes.txt &&
		"$TC" -q -o text -f blkparse classes.txt >got.txt && test -s got.txt && ! grep -q " R " got.txt
	'
	t_expect_success 'writes with a preflush (FLUSH set on every third write of the rootfs sample): each flush right before its write, in the same order from the binary and from the text' '
		mkdir -p pf && : >pf/x.blktrace.0 && python3 -c "
import struct
d = bytearray(open(\"$SAMPLES/blktrace/rootfs-discard/vda_rootfs_pycompile.blktrace.1\", \"rb\").read())
o = n = 0
while o < len(d):
    a, b, p = struct.unpack_from(\"<I\", d, o + 28)[0], struct.unpack_from(\"<I\", d, o + 24)[0], struct.unpack_from(\"<H\", d, o + 46)[0]
    if not a >> 16 & 1024 and a >> 16 & 2 and b:
        if n % 3 == 0: struct.pack_into(\"<I\", d, o + 28, a | 4 << 16)
        n += 1
    o += 48 + p
open(\"pf/x.blktrace.1\", \"wb\").write(d)" &&
		blkparse -i pf/x >pf.txt 2>/dev/null &&
		for a in D Q; do
			"$TC" -q -o text --action $a pf/x >bin-$a.txt &&
			"$TC" -q -o text --action $a pf.txt >txt-$a.txt && t_cmp bin-$a.txt txt-$a.txt &&
			want=$(awk -v A=$a "\$6 == A && \$7 ~ /^FW/ && \$9 == \"+\" && \$10 > 0" pf.txt | wc -l) &&
			got=$(awk "p && \$2 == \"W\" && \$1 == t { n++ } { p = \$2 == \"F\"; t = \$1 } END { print n + 0 }" bin-$a.txt) &&
			test "$want" -gt 500 && test "$got" = "$want" || exit 1
		done
	'
else
	t_skip 'blkparse text of the binary samples' 'blkparse is not installed (Debian package blktrace)'
fi

t_expect_success 'mixed file: remap, message, blank, summary lines; 4 bad lines skipped exactly' '
	"$TC" -q -o text --skip-bad "$BAD/mixed.txt" >got.txt 2>err.txt &&
	printf "0 R 739658580992 131072 8388624\n28135 F 0 0 8388624\n38135 W 51200 4096 8388624\n68135 D 2097152 1048576 8388624\n168135 W 102400 4096 8388624\n" >want.txt &&
	t_cmp want.txt got.txt && grep -q "mixed.txt: 4 bad records skipped (first: .*mixed.txt:7: bad sector .abc.)" err.txt
'
t_expect_success 'mixed file without --skip-bad: stops at line 7' '
	t_err 1 "mixed\.txt:7: bad sector .abc." "$TC" -q -o text "$BAD/mixed.txt"
'
t_expect_success 'CRLF line ends are accepted silently' '
	"$TC" -q -o text "$BAD/lf.txt" >want.txt && "$TC" -o text "$BAD/crlf.txt" >got.txt 2>err.txt &&
	t_cmp want.txt got.txt && grep -q "detected format .blkparse." err.txt
'
t_expect_success 'a UTF-8 byte order mark is accepted silently' '
	"$TC" -o text "$BAD/bom.txt" >got.txt 2>err.txt && grep -q "detected format .blkparse." err.txt &&
	echo "0 W 114426880 4096 8388608" | t_cmp - got.txt
'
t_expect_success 'the RWBS of every kernel era is read: WBS (barrier), FWFSM (its preflush first), RAM, DS, N' '
	printf "%s\n" "  8,0  0 1 0.1 1  D WBS 8 + 8 [a]" "  8,0  0 2 0.2 1  D FWFSM 16 + 8 [a]" \
		"  8,0  0 3 0.3 1  D RAM 24 + 8 [a]" "  8,0  0 4 0.4 1  D DS 32 + 8 [a]" "  8,0  0 5 0.5 1  D N [a]" >rw.txt &&
	"$TC" -q -o text rw.txt | cut -d" " -f2 | tr -d "\n" | grep -qx WFWRD &&
	printf "100000000 F 0 0 8388608\n100000000 W 8192 4096 8388608\n" >rw-want.txt &&
	"$TC" -q -o text rw.txt | sed -n 2,3p >rw-got.txt && t_cmp rw-want.txt rw-got.txt
'
t_expect_success 'blkparse -t output (elapsed times in parentheses) is read' '
	printf "%s\n" "  8,0  0 1 0.1 1  C   W 8 + 8 (     123) [0]" "  8,0  0 2 0.2 1  C   R 16 + 8 [0]" >t.txt &&
	"$TC" -q -o text --action C t.txt | cut -d" " -f2-3 | tr "\n" " " | grep -qx "W 4096 R 8192 "
'

# Bad input: FILE 'message regex' — exit 1 with file and line; with
# --skip-bad one bad line skipped and the good first line kept.
bad() {
	name=$1 re=$2
	t_expect_success "bad input $name: exit 1 naming file and line" '
		t_err 1 "$re" "$TC" -q -o text -f blkparse "$BAD/$name"
	'
	t_expect_success "bad input $name: --skip-bad skips exactly 1" '
		"$TC" -q -o text -f blkparse --skip-bad "$BAD/$name" >o.txt 2>e.txt &&
		grep -q ": 1 bad records skipped" e.txt && test $(wc -l <o.txt) -eq 1 ||
		{ cat e.txt o.txt; false; }
	'
}
bad nonnum-sector.txt 'nonnum-sector\.txt:2: bad sector .22x490.'
bad overflow-sector.txt 'overflow-sector\.txt:2: bad sector .99999999999999999999999.'
bad sector-range.txt 'sector-range\.txt:2: sector 36028797018963968 out of range'
bad huge-length.txt 'huge-length\.txt:2: length of 8388608 sectors is too large'
bad negative-length.txt 'negative-length\.txt:2: bad length .-8.'
bad missing-length.txt "missing-length\\.txt:2: missing length after '\\+'"
bad unknown-action.txt 'unknown-action\.txt:2: unknown action .Z.'
bad unknown-rwbs.txt 'unknown-rwbs\.txt:2: bad RWBS field .WX.'
bad bad-time.txt 'bad-time\.txt:2: bad time .0\.00000x000.'
bad overflow-time.txt 'overflow-time\.txt:2: bad time .99999999999\.000001000.'
bad device-range.txt 'device-range\.txt:2: device .5000,0. out of range'
bad truncated-line.txt 'truncated-line\.txt:2: expected \[command\] at the end of the line'
bad n-with-length.txt 'n-with-length\.txt:2: RWBS N \(no data\) with a length of 8 sectors'
bad garbage.txt 'garbage\.txt:2: not a blkparse event line'
t_expect_success 'empty file with -f blkparse: exit 1, even with --skip-bad' '
	t_err 1 "empty\.txt: empty file \(no blkparse output\)" "$TC" -q -o text -f blkparse --skip-bad "$BAD/empty.txt"
'
t_expect_success 'bad lines of other actions are still bad when their header is' '
	t_err 1 "unknown-action\.txt:2: unknown action" "$TC" -q -o text -f blkparse --action Q "$BAD/unknown-action.txt"
'
t_expect_success 'a completions-only trace read at the default D: no event, a hint on stderr' '
	t_err 0 "leveldb\.blkparse\.txt: no D \(issue\) records, but 840 C \(complete\) ones: try --action C" \
		"$TC" -q -o text "$SAMPLES/blkparse/leveldb.blkparse.txt" &&
	test ! -s .stdout &&
	t_err 1 "no Q \(queue\) records, but 840 C \(complete\) ones: try --action C" \
		"$BIN/ftlsim" -q --action Q "$SAMPLES/blkparse/leveldb.blkparse.txt"
'
t_expect_success 'no hint when the chosen action has records' '
	"$TC" -q -o text --action C "$SAMPLES/blkparse/leveldb.blkparse.txt" 2>err.txt >/dev/null &&
	! grep -q "try --action" err.txt
'
t_expect_success "'#' comment lines are skipped and counted (a column header above the output)" '
	"$TC" -q -o text "$SAMPLES/blkparse/leveldb.blkparse.txt" >want.txt 2>/dev/null &&
	{ echo "# dev cpu seq time pid action rwbs sector + nsect [process]"; echo "  # another";
	  cat "$SAMPLES/blkparse/leveldb.blkparse.txt"; } >commented.txt &&
	"$TC" -o text commented.txt >got.txt 2>err.txt && t_cmp want.txt got.txt &&
	grep -q "detected format .blkparse." err.txt &&
	grep -q "commented.txt: 2 comment lines (.#.) skipped" err.txt &&
	"$BIN/ftlsim" -q --action C --logical-space extent --op 0.5 commented.txt >/dev/null 2>err2.txt &&
	test "$(grep -c "comment lines" err2.txt)" = 1
'
# The one bound every reader shares: a request ends at or before 2^63
# bytes, and what is read survives the event stream.
t_expect_success 'a request ending exactly at 2^63 bytes is read and survives the event stream' '
	printf "  8,0    0        1     0.000000001     1  D   W 18014398509481976 + 8 [x]\n" >edge.txt &&
	"$TC" -q -o text edge.txt >want.txt && grep -qx "0 W 9223372036854771712 4096 8388608" want.txt &&
	"$TC" -q -o bin edge.txt | "$TC" -q -o text - >got.txt && t_cmp want.txt got.txt
'
t_expect_success 'a request ending past 2^63 bytes is a bad record (not an event the stream refuses)' '
	printf "  8,0    0        1     0.000000001     1  D   W 18014398509481984 + 8 [x]\n" >past.txt &&
	t_err 1 "past.txt:1: sector 18014398509481984 out of range \(the request ends past 2\^63 bytes\)" \
		"$TC" -q -o text past.txt
'
t_expect_success 'an unsorted trace: a hint to use --sort; --sort gives no negative time' '
	printf "  8,0    0        1     2.000000000     1  D   W 8 + 8 [x]\n  8,0    1        1     1.000000000     1  D   W 16 + 8 [x]\n" >unsorted.txt &&
	"$TC" -q -o text unsorted.txt >got.txt 2>err.txt &&
	grep -q "unsorted.txt: not in time order (event 2 is 1.000000000 s before the one before it).*--sort" err.txt &&
	grep -q "^-1000000000 W 8192" got.txt &&
	"$TC" -q -o text --sort unsorted.txt >got.txt 2>err.txt && test ! -s err.txt &&
	printf "0 W 8192 4096 8388608\n1000000000 W 4096 4096 8388608\n" | t_cmp - got.txt
'
t_expect_success 'ftlsim reading an unsorted trace twice (extent space, then the replay) says so once' '
	"$BIN/ftlsim" -q --logical-space extent --pages-per-segment 2 --op 8 unsorted.txt >/dev/null 2>err.txt &&
	test "$(grep -c "not in time order" err.txt)" = 1
'
t_done
