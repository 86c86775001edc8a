#!/bin/sh
# blktrace framing (analyzers/rd_blktrace.c): a wrong pdu_len is
# reported at its own record, with its file and byte, not at the bytes it
# leads to; under --skip-bad the reader finds the next record and says
# how many bytes it passed over, and a record whose first bytes alone are
# damaged is skipped by itself. Copies of the real rootfs sample are
# damaged with tests/data/blktrace/btpatch.py and compared with the same
# copy without the damaged record.
. "$(dirname "$0")/lib.sh"
export XZ_OPT=-0
TC="$BIN/tracecat"
BP="python3 $DATA/blktrace/btpatch.py"
RF="$SAMPLES/blktrace/rootfs-discard/vda_rootfs_pycompile"
B=vda_rootfs_pycompile

# fresh DIR: a copy of the rootfs set in DIR, with WANT.blktrace.0 (empty)
# beside it for the copy without a record (btpatch.py drop).
fresh() {
	rm -rf "$1" && mkdir -p "$1" && cp "$RF".blktrace.* "$1"/ && : >"$1"/want.blktrace.0
}

t_expect_success 'a pdu_len too large is reported at its own record (exit 1), not at the byte it leads to' '
	fresh a && off=$($BP find a/$B.blktrace.1 1000) && $BP pdu a/$B.blktrace.1 $off 4660 &&
	t_err 1 "a/$B\.blktrace\.1: byte $off: pdu_len 4660, more than any blktrace payload \(at most 260 bytes\), leads to byte $((off + 48 + 4660)), where no record starts \(bad magic 0x[0-9a-f]{8}\)$" \
		"$TC" -q -o text a/$B
'
t_expect_success 'a pdu_len too large, --skip-bad: that record alone is lost, the next one found right after its header' '
	fresh a && off=$($BP find a/$B.blktrace.1 1000) && $BP drop a/$B.blktrace.1 $off a/want.blktrace.1 &&
	$BP pdu a/$B.blktrace.1 $off 4660 &&
	"$TC" -q -o text a/want >want.txt && test $(wc -l <want.txt) -eq 9925 &&
	"$TC" -q -o text --skip-bad a/$B >got.txt 2>err.txt && t_cmp want.txt got.txt &&
	grep -q ": 1 bad records skipped (first: a/$B\.blktrace\.1: byte $off: pdu_len 4660.*; the next record found starts at byte $((off + 48)): the 48 bytes from byte $off on are passed over)" err.txt &&
	grep -q "a/$B: the records. framing broke 1 time: 48 bytes passed over in all" err.txt
'
t_expect_success 'a pdu_len too small (an unplug record, 8 -> 3): blamed at its record; --skip-bad keeps every event' '
	fresh s && off=$($BP find s/$B.blktrace.1 0 8 ta=10 at=20000) &&
	$BP pdu s/$B.blktrace.1 $off 3 &&
	t_err 1 "s/$B\.blktrace\.1: byte $off: pdu_len 3 leads to byte $((off + 51)), where no record starts" "$TC" -q -o text s/$B &&
	"$TC" -q -o text "$RF" >want.txt &&
	"$TC" -q -o text --skip-bad s/$B >got.txt 2>err.txt && t_cmp want.txt got.txt &&
	grep -q "1 bad records skipped (first: .*byte $off: pdu_len 3 .*the next record found starts at byte $((off + 56)): the 56 bytes from byte $off on are passed over)" err.txt
'
t_expect_success 'a pdu_len past the end of the file: --skip-bad reads on from the next record' '
	fresh e && size=$(wc -c <e/$B.blktrace.1) &&
	off=$($BP find e/$B.blktrace.1 0 at=$((size - 30000))) && test $((size - off)) -lt 65535 &&
	$BP drop e/$B.blktrace.1 $off e/want.blktrace.1 && $BP pdu e/$B.blktrace.1 $off 65535 &&
	t_err 1 "byte $off: pdu_len 65535, more than any blktrace payload \(at most 260 bytes\), runs past the end of the file \($((size - off - 48)) bytes left\)" "$TC" -q -o text e/$B &&
	"$TC" -q -o text e/want >want.txt &&
	"$TC" -q -o text --skip-bad e/$B >got.txt 2>err.txt && t_cmp want.txt got.txt &&
	grep -q "1 bad records skipped" err.txt
'
t_expect_success 'compressed (xz), the same break gives the same events and the same bytes' '
	fresh x && off=$($BP find x/$B.blktrace.1 1000) && $BP pdu x/$B.blktrace.1 $off 4660 &&
	"$TC" -q -o text --skip-bad x/$B >want.txt 2>want.err && xz x/$B.blktrace.1 &&
	"$TC" -q -o text --skip-bad x/$B >got.txt 2>got.err && t_cmp want.txt got.txt &&
	grep -q "byte $off: pdu_len 4660.*the 48 bytes from byte $off on are passed over" got.err
'
t_expect_success 'a version-8, big-endian copy: the pdu_len at byte 50 of its record, offsets of 64-byte records' '
	mkdir -p v && perl "$DATA/blktrace/btconv.pl" -v8 -swap "$RF.blktrace.1" v/x.blktrace.0 &&
	off=$($BP find v/x.blktrace.0 1000 v8 be) && test $((off % 64)) -eq 0 &&
	$BP drop v/x.blktrace.0 $off v/want.blktrace.0 v8 be && $BP pdu v/x.blktrace.0 $off 4660 v8 be &&
	t_err 1 "v/x\.blktrace\.0: byte $off: pdu_len 4660, more than any blktrace payload \(at most 260 bytes\), leads to byte $((off + 64 + 4660))," "$TC" -q -o text v/x &&
	"$TC" -q -o text v/want >want.txt && "$TC" -q -o text --skip-bad v/x >got.txt 2>/dev/null && t_cmp want.txt got.txt
'
t_expect_success 'a damaged magic mid-file: that record alone is skipped, its length read from the rest of its header' '
	fresh m && off=$($BP find m/$B.blktrace.1 1000) && $BP drop m/$B.blktrace.1 $off m/want.blktrace.1 &&
	printf "\0\0\0\0" | dd of=m/$B.blktrace.1 bs=1 seek=$off conv=notrunc 2>/dev/null &&
	t_err 1 "m/$B\.blktrace\.1: byte $off: bad magic 0x00000000 \(not a blktrace record\)$" "$TC" -q -o text m/$B &&
	"$TC" -q -o text m/want >want.txt &&
	"$TC" -q -o text --skip-bad m/$B >got.txt 2>err.txt && t_cmp want.txt got.txt &&
	grep -q "1 bad records skipped (first: .*byte $off: bad magic 0x00000000 (not a blktrace record); the rest of its header frames it (the next record starts where its pdu_len says): this record alone is skipped)" err.txt &&
	! grep -q "framing broke" err.txt
'

# Hand-made records (little-endian v7, as tests/data/blktrace/mkbad.pl):
# rec TIME SECTOR PDU-BYTES [PDU_LEN]: an issued 4 KiB write on 8,16.
rec() {
	perl -e '
		my ($t, $sec, $pdu, $plen) = @ARGV;
		$plen = length $pdu unless defined $plen;
		print pack(q(L< L< Q< Q< L< L< L< L< L< S< S<), 0x65617407, 1, $t, $sec, 4096,
			7 | ((2 | 64 | 256) << 16), 1, (8 << 20) | 16, 0, 0, $plen), $pdu' "$@"
}
t_expect_success 'a pdu_len over 260 that the next record confirms is taken (no real payload is that long, but the framing holds)' '
	{ rec 1 8 "$(printf "%0300d" 0)" && rec 2 16 ""; } >long.blktrace.0 &&
	test $(wc -c <long.blktrace.0) -eq 396 &&
	"$TC" -q -o text long >got.txt 2>err.txt && test ! -s err.txt &&
	printf "0 W 4096 4096 8388624\n1 W 8192 4096 8388624\n" | t_cmp - got.txt
'
t_expect_success 'the search for the next record passes over a magic inside a payload that frames nothing' '
	{ rec 1 8 "" && rec 2 16 "abcdefgh$(printf "\007tae")$(printf "%028d" 0)" 5 && rec 3 24 "" && rec 4 32 ""; } >fake.blktrace.0 &&
	t_err 1 "fake\.blktrace\.0: byte 48: pdu_len 5 leads to byte 101, where no record starts" "$TC" -q -o text fake &&
	"$TC" -q -o text --skip-bad fake >got.txt 2>err.txt &&
	printf "0 W 4096 4096 8388624\n2 W 12288 4096 8388624\n3 W 16384 4096 8388624\n" | t_cmp - got.txt &&
	grep -q "the next record found starts at byte 136: the 88 bytes from byte 48 on are passed over" err.txt
'
t_expect_success 'a damaged first record: --skip-bad finds the next one; two breaks in a file are summed' '
	{ printf "junk" && rec 1 8 "" && rec 2 16 "" 4096 && rec 3 24 "" && rec 4 32 ""; } >two.blktrace.0 &&
	t_err 1 "two\.blktrace\.0: byte 0: bad magic 0x6b6e756a \(not a blktrace record\)$" "$TC" -q -o text two &&
	"$TC" -q -o text --skip-bad two >got.txt 2>err.txt &&
	printf "0 W 4096 4096 8388624\n2 W 12288 4096 8388624\n3 W 16384 4096 8388624\n" | t_cmp - got.txt &&
	grep -q "2 bad records skipped (first: two\.blktrace\.0: byte 0: bad magic 0x6b6e756a (not a blktrace record); the next record found starts at byte 4: the 4 bytes from byte 0 on are passed over)" err.txt &&
	grep -q "two: the records. framing broke 2 times: 52 bytes passed over in all" err.txt &&
	"$BIN/ftlsim" -q --skip-bad --logical-space extent --pages-per-segment 2 --op 4 two >/dev/null 2>err2.txt &&
	test "$(grep -c "framing broke" err2.txt)" = 1
'
t_expect_success 'nothing to find after a break: the rest of the file is not read, as the message says' '
	{ rec 1 8 "" && rec 2 16 "" 300 && head -c 500 /dev/zero; } >tail.blktrace.0 &&
	"$TC" -q -o text --skip-bad tail >got.txt 2>err.txt &&
	echo "0 W 4096 4096 8388624" | t_cmp - got.txt &&
	grep -q "byte 48: pdu_len 300, more than any blktrace payload (at most 260 bytes), leads to byte 396, where no record starts (bad magic 0x00000000); no record start is found after it: the rest of the file, 548 bytes from byte 48 on, is not read" err.txt
'
t_done
