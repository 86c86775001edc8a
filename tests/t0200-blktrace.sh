#!/bin/sh
# blktrace binary reader (analyzers/rd_blktrace.c): blkparse as the
# oracle on every sample set, byte-swapped and version-8 copies, how a
# set is named, which record classes count, and bad input.
. "$(dirname "$0")/lib.sh"
TC="$BIN/tracecat"
BAD="$DATA/blktrace"
CONV="$BAD/btconv.pl"

# The sample sets, as NAME paths (NAME.blktrace.0 exists).
SETS=""
for f in "$SAMPLES"/blktrace/*/*.blktrace.0; do
	SETS="$SETS ${f%.blktrace.0}"
done

# blkparse's records of action $1 as sorted "op offset length", with
# the op rule of rd_blktrace.c, decided on blkparse's own RWBS field:
# a leading F with no data is a flush (offset 0); other zero-length
# records (N, and the zero-length W that ends a flush sequence) are
# not I/O; otherwise the main letter: D discard, W write, R read, and
# with a leading F a flush (F 0 0) too, the write's preflush.
oracle() {
	a=$1
	shift
	blkparse -q "$@" -f '%a %d %S %N\n' | awk -v A="$a" '
		$1 == A {
			fl = substr($2, 1, 1) == "F" && length($2) > 1
			m = substr($2, 1 + fl, 1)
			if ($4 == 0) { if (fl) print "F 0 0"; next }
			if (fl) print "F 0 0"
			printf "%s %.0f %s\n", m == "D" ? "D" : m == "W" ? "W" : "R", $3 * 512, $4
		}' | sort
}

# Ours, the same way.
ours() {
	a=$1
	shift
	"$TC" -q -o text --action "$a" "$@" | awk '{print $2, $3, $4}' | sort
}

if command -v blkparse >/dev/null 2>&1; then
	for s in $SETS; do
		n=$(basename "$(dirname "$s")")
		for a in D Q C; do
			oracle $a -i "$s" >"$TMP/want-$n-$a.txt"
			cnt=$(wc -l <"$TMP/want-$n-$a.txt")
			t_expect_success "$n: --action $a gives blkparse's $cnt $a events" '
				ours $a "$s" >got.txt &&
				test $cnt -gt 0 && t_cmp "want-$n-$a.txt" got.txt
			'
		done
	done
else
	t_skip 'blkparse oracle' 'blkparse is not installed (Debian package blktrace)'
fi

# Converted copies of every set: big-endian, version 8, both.
mkdir -p "$TMP/conv"
for s in $SETS; do
	for f in "$s".blktrace.*; do
		b=$(basename "$f")
		perl "$CONV" -swap "$f" "$TMP/conv/sw-$b" &&
			perl "$CONV" -v8 "$f" "$TMP/conv/v8-$b" &&
			perl "$CONV" -v8 -swap "$f" "$TMP/conv/v8sw-$b" || echo "# btconv.pl failed on $f"
	done
done
for s in $SETS; do
	b=$(basename "$s")
	for k in sw v8 v8sw; do
		t_expect_success "$b: $k copy gives the same events (times, volumes too)" '
			"$TC" -q -o text "$s" >want.txt &&
			"$TC" -q -o text "conv/$k-$b" >got.txt &&
			test -s want.txt && t_cmp want.txt got.txt
		'
	done
done
if command -v blkparse >/dev/null 2>&1; then
	t_expect_success 'blkparse reads the byte-swapped copy as we do (oracle)' '
		oracle D -i conv/sw-sda >want.txt && ours D conv/sw-sda >got.txt &&
		test -s want.txt && t_cmp want.txt got.txt
	'
fi
t_expect_success 'the version-8 copy really is version 8 and 64-byte records' '
	head -c 4 conv/v8-sda1.blktrace.1 | od -An -tx1 | grep -q "08 74 61 65" &&
	test $(wc -c <conv/v8-sda1.blktrace.1) -eq $((4 * 64 + 16))
'

RF="$SAMPLES/blktrace/rootfs-discard/vda_rootfs_pycompile"
J="$SAMPLES/blktrace/jbd2-sda1/sda1"
t_expect_success 'any one file of a set names the whole set' '
	"$TC" -q -o text "$J" >want.txt && "$TC" -q -o text "$J.blktrace.1" >got.txt &&
	t_cmp want.txt got.txt && test $(wc -l <got.txt) -eq 8
'
t_expect_success 'per-CPU files are merged by time' '
	"$TC" -q -o text "$J" | cut -d" " -f1 >t.txt && sort -n t.txt | t_cmp t.txt -
'
t_expect_success 'stdin is one stream, detected as blktrace' '
	"$TC" -q -o text "$RF" >want.txt &&
	"$TC" -o text - <"$RF.blktrace.1" >got.txt 2>err.txt &&
	t_cmp want.txt got.txt && grep -q "detected format .blktrace." err.txt
'
t_expect_success 'a lone file under another name is read alone' '
	cp "$J.blktrace.0" lone.bin && mkdir -p one && cp "$J.blktrace.0" one/x.blktrace.0 &&
	"$TC" -q -o text lone.bin >got.txt && "$TC" -q -o text one/x >want.txt &&
	t_cmp want.txt got.txt && test $(wc -l <got.txt) -eq 8
'
t_expect_success 'an empty per-CPU file (idle CPU) is fine' '
	test ! -s "$RF.blktrace.0" && "$TC" -q -o text "$RF" | wc -l | grep -qx 9926
'
t_expect_success 'volume is the device dev_t (254,0)' '
	"$TC" -q -o text "$RF" | cut -d" " -f5 | sort -u | grep -qx $((254 << 20))
'
t_expect_success 'discards come out as D (1,507 of them, as in the sample notes)' '
	"$TC" -q -o text --ops D "$RF" | wc -l | grep -qx 1507
'

# Record classes (tests/data/blktrace/mkbad.pl): notify records,
# remaps, the cgroup flag, zero-length records, passthrough commands.
t_expect_success 'classes: D keeps W, R (cgroup flag), discard, FN flush at offset 0, FWFS: its preflush, then the write' '
	printf "0 W 51200 4096 8388624\n1 R 102400 8192 8388624\n2 D 153600 65536 8388624\n3 F 0 0 8388624\n4 F 0 0 8388624\n4 W 204800 4096 8388624\n" >want.txt &&
	"$TC" -q -o text "$BAD/classes" >got.txt && t_cmp want.txt got.txt
'
t_expect_success 'classes: Q ignores a notify record with QUEUE low bits' '
	"$TC" -q -o text --action Q "$BAD/classes" >got.txt &&
	echo "0 W 51200 4096 8388624" | t_cmp - got.txt
'
t_expect_success 'classes: C drops the zero-length write completion' '
	"$TC" -q -o text --action C "$BAD/classes" >got.txt &&
	echo "0 W 51200 4096 8388624" | t_cmp - got.txt
'

# Bad input: NAME 'message regex' SKIPPED KEPT. Exit 1 with the file and
# byte offset; with --skip-bad exactly SKIPPED skipped and KEPT events
# ('-': not a record, or the only record, so --skip-bad still fails:
# nothing read is not a success).
bad() {
	name=$1 re=$2 nskip=$3 nkeep=$4
	t_expect_success "bad input $name: exit 1 naming file and place" '
		t_err 1 "$re" "$TC" -q -o text "$BAD/$name"
	'
	if [ "$nskip" = - ]; then
		t_expect_success "bad input $name: --skip-bad still fails" '
			t_err 1 "$re" "$TC" -q -o text --skip-bad "$BAD/$name"
		'
		return
	fi
	t_expect_success "bad input $name: --skip-bad skips $nskip, keeps $nkeep" '
		"$TC" -q -o text --skip-bad "$BAD/$name" >o.txt 2>e.txt &&
		grep -q ": $nskip bad records skipped" e.txt && test $(wc -l <o.txt) -eq $nkeep ||
		{ cat e.txt o.txt; false; }
	'
}
bad trunc-header 'trunc-header\.blktrace\.0: byte 48: truncated record header \(20 of 48 bytes\)' 1 1
bad short 'short\.blktrace\.0: byte 0: truncated record header \(2 bytes\)' - -
bad bad-magic 'bad-magic\.blktrace\.0: byte 48: bad magic 0x12345607' 1 1
bad bad-version 'bad-version\.blktrace\.0: byte 48: unknown blktrace version 9' 1 1
bad pdu-past-end 'pdu-past-end\.blktrace\.0: byte 48: pdu_len 100 runs past the end of the file \(10 bytes left\)' 1 1
bad sector-range 'sector-range\.blktrace\.0: byte 48: sector 1152921504606846976 out of range' 1 2
bad odd-length 'odd-length\.blktrace\.0: byte 48: length 1000 bytes is not a multiple of 512' 1 2
bad time-range 'time-range\.blktrace\.0: byte 48: time 9223372036854775813 ns out of range' 1 1
bad byte-order 'byte-order\.blktrace\.0: byte 48: record in the other byte order' 1 1
bad multi 'multi\.blktrace\.0: byte 48: sector' 3 5
bad missing-cpu 'missing-cpu\.blktrace\.1: missing per-CPU file \(the set goes up to missing-cpu\.blktrace\.2; present: missing-cpu\.blktrace\.0, missing-cpu\.blktrace\.2\)' - -
bad empty 'empty: all 2 per-CPU files are empty' - -
t_expect_success 'a named file of a set with a hole still reports the hole' '
	t_err 1 "missing-cpu\.blktrace\.1: missing per-CPU file" "$TC" -q -o text "$BAD/missing-cpu.blktrace.2"
'
t_expect_success 'empty stdin with -f blktrace: exit 1, clear message' '
	t_err 1 "<stdin>: empty file \(no blktrace records\)" "$TC" -q -o text -f blktrace - </dev/null
'
t_expect_success 'truncated copy of a real sample: error at a record boundary' '
	head -c 1000 "$J.blktrace.0" >cut.blktrace.0 &&
	t_err 1 "cut\.blktrace\.0: byte 968: truncated record header \(32 of 48 bytes\)" "$TC" -q -o text cut
'
t_expect_success 'a trace without records of the chosen action: no event, a hint naming the one it has' '
	perl -e "print pack(q(L< L< Q< Q< L< L< L< L< L< S< S<), 0x65617407, 1, 5, 2048, 4096,
		7 | ((2 | 64 | 256) << 16), 1, (8 << 20) | 16, 0, 0, 0)" >ionly.blktrace.0 &&
	t_err 0 "ionly: no C \(complete\) records, but 1 D \(issue\) ones: try --action D" \
		"$TC" -q -o text --action C ionly &&
	test ! -s .stdout &&
	"$TC" -q -o text ionly 2>err.txt | grep -qx "0 W 1048576 4096 8388624" && test ! -s err.txt
'
t_expect_success 'a record ending past 2^63 bytes is bad; one ending at 2^63 is read and survives the event stream' '
	for sec in 18014398509481984 18014398509481976; do
		perl -e "print pack(q(L< L< Q< Q< L< L< L< L< L< S< S<), 0x65617407, 1, 5, $sec, 4096,
			7 | ((2 | 64) << 16), 1, (8 << 20) | 16, 0, 0, 0)" >s$sec.blktrace.0 || exit 1
	done &&
	t_err 1 "s18014398509481984\.blktrace\.0: byte 0: sector 18014398509481984 out of range \(the request ends past 2\^63 bytes\)" \
		"$TC" -q -o text s18014398509481984 &&
	"$TC" -q -o text s18014398509481976 >want.txt && grep -qx "0 W 9223372036854771712 4096 8388624" want.txt &&
	"$TC" -q -o bin s18014398509481976 | "$TC" -q -o text - | t_cmp want.txt -
'
t_expect_success 'a record of no known action: one bad record naming its byte (exit 1; --skip-bad counts it); a bad magic mid-file is that record alone' '
	mkdir -p act && cp "$SAMPLES"/blktrace/rootfs-discard/* act/ &&
	python3 -c "
import struct
f = \"act/vda_rootfs_pycompile.blktrace.1\"
d = bytearray(open(f, \"rb\").read()); o = 0; i = 0
while o < len(d):
    p = struct.unpack_from(\"<H\", d, o + 46)[0]; a = struct.unpack_from(\"<I\", d, o + 28)[0]
    if i >= 900 and a & 0xffff == 7:
        struct.pack_into(\"<I\", d, o + 28, (a & 0xffff0000) | 99); print(o); break
    o += 48 + p; i += 1
open(f, \"wb\").write(d)" >off &&
	t_err 1 "byte $(cat off): unknown action 99" "$BIN/tracestat" act/vda_rootfs_pycompile &&
	n=$("$BIN/tracestat" -q act/vda_rootfs_pycompile --skip-bad 2>/dev/null | jq ".traces[0].bad_records_skipped") &&
	test "$n" = 1 &&
	cp "$SAMPLES"/blktrace/rootfs-discard/* act/ &&
	printf "\0\0\0\0" | dd of=act/vda_rootfs_pycompile.blktrace.1 bs=1 seek=24568 conv=notrunc 2>/dev/null &&
	"$BIN/tracestat" -q --skip-bad act/vda_rootfs_pycompile 2>err >s.json &&
	grep -q "byte 24568: bad magic 0x00000000 (not a blktrace record); the rest of its header frames it (the next record starts where its pdu_len says): this record alone is skipped" err &&
	test "$(jq ".traces[0].bad_records_skipped, .traces[0].events" s.json | tr "\n" " ")" = "1 9926 "
'
t_done
