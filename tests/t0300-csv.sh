#!/bin/sh
# The SNIA / cloud text readers: msr, systor17, tencent, alibaba, spc, fiu.
#  1. real samples: every event equals what awk computes from the raw
#     (decompressed) file, and per-op counts and byte sums agree;
#  2. small made-up files (tests/data/{alibaba,spc,fiu}): units (sectors,
#     microseconds, decimal seconds), volumes, --sector-size;
#  3. hand-made bad files (tests/data/FORMAT/bad/): exit status, a
#     message naming file and line, and the exact --skip-bad count;
#  4. auto-detection of every sample and small file.
. "$(dirname "$0")/lib.sh"

TC="$BIN/tracecat"

# dec FILE: the file's decompressed bytes.
dec() {
	case "$1" in
	*.gz) gzip -dc "$1" ;;
	*.bz2) bzip2 -dc "$1" ;;
	*) cat "$1" ;;
	esac
}

# Expected "t_ns op offset length volume" lines, computed from the raw
# text by awk, with times relative to the first record. Large clocks are
# split into high and low digits so that every value stays exact in a
# double. $2: sector size for sector-based formats.
expect() {
	fmt=$1 ss=${2:-512}
	case $fmt in
	msr) awk -F, '{
		hi = substr($1, 1, length($1) - 9) + 0; lo = substr($1, length($1) - 8) + 0
		if (NR == 1) { hi0 = hi; lo0 = lo }
		printf "%.0f %s %s %s %s\n", ((hi - hi0) * 1e9 + lo - lo0) * 100,
			($4 == "Write" ? "W" : "R"), $5, $6, $3 }' ;;
	systor17) awk -F, '$1 != "Timestamp" {
		split($1, p, "."); s = p[1] + 0; f = substr(p[2] "000000000", 1, 9) + 0
		if (!n++) { s0 = s; f0 = f }
		printf "%.0f %s %s %s %s\n", (s - s0) * 1e9 + f - f0, $3, $5, $6, $4 }' ;;
	tencent) awk -F, -v ss="$ss" '{
		if (NR == 1) t0 = $1
		printf "%.0f %s %.0f %.0f %s\n", ($1 - t0) * 1e9, ($4 == 1 ? "W" : "R"),
			$2 * ss, $3 * ss, $5 }' ;;
	alibaba) awk -F, '{
		if (NR == 1) t0 = $5
		printf "%.0f %s %s %s %s\n", ($5 - t0) * 1000, $2, $3, $4, $1 }' ;;
	spc) awk -F, -v ss="$ss" '{
		split($5, p, "."); s = p[1] + 0; f = substr(p[2] "000000000", 1, 9) + 0
		if (NR == 1) { s0 = s; f0 = f }
		printf "%.0f %s %.0f %s %s\n", (s - s0) * 1e9 + f - f0, toupper($4),
			$2 * ss, $3, $1 }' ;;
	fiu) awk -v ss="$ss" '{
		if (NR == 1) t0 = $1
		printf "%.0f %s %.0f %.0f %.0f\n", $1 - t0, $6, $4 * ss, $5 * ss,
			$7 * 1048576 + $8 }' ;;
	esac
}

# Per-op "R count bytes" / "W count bytes" of a text event stream.
opsum() {
	awk '{ n[$2]++; b[$2] += $4 }
	END { printf "R %d %.0f\nW %d %.0f\n", n["R"], b["R"], n["W"], b["W"] }'
}

# Per-op sums straight from a raw file, by the format's own columns.
rawsum() {
	case $1 in
	msr) awk -F, '{ k = ($4 == "Write" ? "W" : "R"); n[k]++; b[k] += $6 }
		END { printf "R %d %.0f\nW %d %.0f\n", n["R"], b["R"], n["W"], b["W"] }' ;;
	systor17) awk -F, 'NR > 1 { n[$3]++; b[$3] += $6 }
		END { printf "R %d %.0f\nW %d %.0f\n", n["R"], b["R"], n["W"], b["W"] }' ;;
	tencent) awk -F, '{ k = ($4 == 1 ? "W" : "R"); n[k]++; b[k] += $3 * 512 }
		END { printf "R %d %.0f\nW %d %.0f\n", n["R"], b["R"], n["W"], b["W"] }' ;;
	esac
}

# check_file FORMAT FILE [SECTOR_SIZE]: auto-detected as FORMAT, every
# event as awk expects, per-op counts and bytes agree.
check_file() {
	fmt=$1 f=$2
	if [ -n "${3:-}" ]; then
		"$TC" -o text --sector-size "$3" "$f" >got.txt 2>err.txt || { cat err.txt; return 1; }
	else
		"$TC" -o text "$f" >got.txt 2>err.txt || { cat err.txt; return 1; }
	fi
	grep -q "detected format '$fmt'" err.txt || { cat err.txt; return 1; }
	# awk sees plain records: no CR, BOM, header line or quotes
	dec "$f" | tr -d '\r"' | sed '1s/^\xef\xbb\xbf//' |
		grep -v -i -e '^timestamp,' -e '^device_id,' -e '^asu,' -e '^ts pid ' |
		expect "$fmt" "${3:-512}" >want.txt
	t_cmp want.txt got.txt || return 1
	opsum <want.txt >want.sum && opsum <got.txt >got.sum && t_cmp want.sum got.sum
}

# --- 1. real samples --------------------------------------------------
for s in msr:msr/hm_0-head1000.csv \
	systor17:systor17/caffeine_systor17-traces-sample.csv.gz \
	systor17:systor17/caffeine_systor17-additional-sample.csv.gz \
	tencent:tencent/cbs-sample.csv.bz2; do
	fmt=${s%%:*} f=$SAMPLES/${s#*:}
	t_expect_success "$fmt sample ${s#*:}: detected, events equal awk's" \
		'check_file "$fmt" "$f"'
	t_expect_success "$fmt sample ${s#*:}: per-op counts and bytes equal the raw file's" '
		"$TC" -q -o text "$f" | opsum >got.sum &&
		dec "$f" | rawsum "$fmt" >want.sum && cat want.sum && t_cmp want.sum got.sum
	'
done
t_expect_success 'msr sample: 508 reads and 492 writes, all volume 0' '
	"$TC" -q -o text "$SAMPLES/msr/hm_0-head1000.csv" | opsum >s.txt &&
	grep -qx "R 508 6108672" s.txt && grep -qx "W 492 3580928" s.txt &&
	"$TC" -q -o text --volume 0 "$SAMPLES/msr/hm_0-head1000.csv" | wc -l | grep -qx 1000
'
t_expect_success 'msr sample: FILETIME ticks become ns (215 ticks = 21500 ns)' '
	"$TC" -q -o text "$SAMPLES/msr/hm_0-head1000.csv" | sed -n 2p | grep -qx "21500 W 11855351808 512 0"
'
t_expect_success 'tencent sample: 2038 volumes, sectors become bytes' '
	"$TC" -q -o text "$SAMPLES/tencent/cbs-sample.csv.bz2" >t.txt &&
	awk "{print \$5}" t.txt | sort -u | wc -l | grep -qx 2038 &&
	head -1 t.txt | grep -qx "0 W 2174566400 65536 1058"
'
t_expect_success 'tencent sample: --sector-size 4096 scales offsets and sizes' \
	'check_file tencent "$SAMPLES/tencent/cbs-sample.csv.bz2" 4096'
t_expect_success 'systor17 sample: unsorted times come out sorted with --sort' '
	"$TC" -q -o text --sort "$SAMPLES/systor17/caffeine_systor17-traces-sample.csv.gz" >s.txt &&
	awk "\$1 < p { exit 1 } { p = \$1 }" s.txt && head -1 s.txt | grep -q "^0 " && wc -l <s.txt | grep -qx 999
'

# --- 2. small made-up files -------------------------------------------
for s in alibaba:alibaba/io_traces-sample.csv alibaba:alibaba/header.csv \
	spc:spc/financial-sample.spc spc:spc/websearch-sample.spc spc:spc/header.spc \
	fiu:fiu/homes-sample.txt fiu:fiu/header.txt \
	msr:msr/header.csv msr:msr/quoted.csv \
	systor17:systor17/noheader.csv tencent:tencent/header.csv; do
	fmt=${s%%:*} f=$DATA/${s#*:}
	t_expect_success "$fmt ${s#*:}: detected, events equal awk's" \
		'check_file "$fmt" "$f"'
done
for s in spc:spc/financial-sample.spc fiu:fiu/homes-sample.txt; do
	fmt=${s%%:*} f=$DATA/${s#*:}
	t_expect_success "$fmt ${s#*:}: --sector-size 4096" 'check_file "$fmt" "$f" 4096'
done
t_expect_success 'alibaba: microseconds become ns, device_id is the volume' '
	"$TC" -q -o text "$DATA/alibaba/io_traces-sample.csv" >a.txt &&
	head -2 a.txt | tail -1 | grep -qx "1510000 R 63662174208 131072 245" &&
	awk "{print \$5}" a.txt | sort -nu | tr "\n" " " | grep -qx "3 17 245 998 " &&
	"$TC" -q -o text --volume 998 "$DATA/alibaba/io_traces-sample.csv" | wc -l | grep -qx \
		$(grep -c "^998," "$DATA/alibaba/io_traces-sample.csv")
'
t_expect_success 'spc: 512-byte LBAs, byte sizes, decimal seconds, lower and upper case ops' '
	"$TC" -q -o text "$DATA/spc/financial-sample.spc" | sed -n 2p | grep -qx "1447000 R 3694205440 3584 9" &&
	"$TC" -q -o text "$DATA/spc/websearch-sample.spc" | opsum | grep -q "^R 29 "
'
t_expect_success 'fiu: sectors and blocks of 512 bytes, volume = major<<20|minor, odd process names' '
	"$TC" -q -o text "$DATA/fiu/homes-sample.txt" >f.txt && wc -l <f.txt | grep -qx 40 &&
	head -1 f.txt | grep -qx "0 R 76004786176 4096 265289729" &&
	awk "{print \$5}" f.txt | sort -nu | tr "\n" " " | grep -qx "6291456 8388624 265289729 " &&
	grep -q " a,b\"c " "$DATA/fiu/homes-sample.txt" && grep -q " (sd-pam) " "$DATA/fiu/homes-sample.txt"
'
t_expect_success 'msr: quoted fields (libcsv path) give the same events as plain ones' '
	"$TC" -q -o text "$DATA/msr/quoted.csv" >q.txt &&
	"$TC" -q -o text "$DATA/msr/header.csv" >h.txt && t_cmp q.txt h.txt &&
	"$TC" -q -o text "$DATA/msr/bad/base.csv" | t_cmp h.txt -
'

# --- 3. bad input -------------------------------------------------------
# check_bad FORMAT FILE EXIT LINE NSKIP REGEX
check_bad() {
	f=$DATA/$1/$2
	if [ "$3" = 0 ]; then
		"$TC" -f "$1" -o text "$f" >got.txt || return 1
		"$TC" -f "$1" -o text "$DATA/$1/bad/base.${2##*.}" >want.txt || return 1
		t_cmp want.txt got.txt
	elif [ "$4" = 0 ]; then
		t_err 1 "$f: $6" "$TC" -f "$1" -o text "$f" &&
			t_err 1 "$f: $6" "$TC" -f "$1" -o text --skip-bad "$f"
	else
		t_err 1 "^tracecat: $f:$4: $6" "$TC" -f "$1" -o text "$f" &&
			t_err 0 "$f: $5 bad records skipped \(first: $f:$4: $6" \
				"$TC" -f "$1" -o text --skip-bad "$f" &&
			"$TC" -f "$1" -o text "$DATA/$1/bad/base.${2##*.}" | t_cmp "$TMP/.stdout" -
	fi
}
while IFS='|' read -r fmt file ex line nskip rx; do
	if [ "$ex" = 0 ]; then
		what="accepted, same events as the plain file"
	elif [ "$line" = 0 ]; then
		what="exit 1: $rx"
	else
		what="exit 1 at line $line, --skip-bad skips $nskip"
	fi
	t_expect_success "$fmt $file: $what" \
		'check_bad "$fmt" "$file" "$ex" "$line" "$nskip" "$rx"'
done <<'EOF'
msr|bad/trunc.csv|1|4|1|wrong field count: 4, want 7
msr|bad/nonnum.csv|1|2|1|Offset '31630x5040' is not a non-negative integer
msr|bad/overflow.csv|1|2|1|Size '184467440737095516160' out of range
msr|bad/negsize.csv|1|2|1|Size '-512' is negative
msr|bad/zerosize.csv|1|2|1|zero Size
msr|bad/bigsize.csv|1|2|1|Size 4294967296 bytes is above 4294967295
msr|bad/past63.csv|1|2|1|Offset 9223372036854775296 \+ Size 1024 bytes is past 2\^63
msr|bad/fields.csv|1|2|1|wrong field count: 8, want 7
msr|bad/op.csv|1|2|1|unknown Type 'Trim'
msr|bad/volume.csv|1|2|1|DiskNumber '4294967296' out of range
msr|bad/time.csv|1|2|1|Timestamp 0 is a FILETIME outside
msr|bad/quote.csv|1|2|1|malformed quoted field
msr|bad/crlf.csv|0|0|0|-
msr|bad/bom.csv|0|0|0|-
msr|bad/empty.csv|1|0|0|empty file, no records
msr|bad/blank.csv|1|0|0|empty file, no records
msr|bad/three.csv|1|2|3|Offset '31630x5040' is not a non-negative integer
systor17|bad/trunc.csv|1|5|1|wrong field count: 5, want 6
systor17|bad/nonnum.csv|1|3|1|Timestamp '1455591804.3a0000000' is not a decimal
systor17|bad/overflow.csv|1|3|1|Offset '99999999999999999999999' out of range
systor17|bad/negsize.csv|1|3|1|Size '-4096' is negative
systor17|bad/zerosize.csv|1|3|1|zero Size
systor17|bad/past63.csv|1|3|1|Offset 9223372036854775808 \+ Size 512 bytes is past 2\^63
systor17|bad/fields.csv|1|3|1|wrong field count: 7, want 6
systor17|bad/op.csv|1|3|1|unknown IOType 'T'
systor17|bad/negtime.csv|1|3|1|Timestamp '-1455591804.320000000' is negative
systor17|bad/emptyfield.csv|1|3|1|empty LUN
systor17|bad/crlf.csv|0|0|0|-
systor17|bad/bom.csv|0|0|0|-
systor17|bad/empty.csv|1|0|0|empty file, no records
systor17|bad/blank.csv|1|0|0|empty file, no records
systor17|bad/header-only.csv|1|0|0|no records, only a header line
systor17|bad/three.csv|1|3|3|Timestamp '1455591804.3a0000000' is not a decimal
tencent|bad/trunc.csv|1|4|1|wrong field count: 3, want 5
tencent|bad/nonnum.csv|1|2|1|VolumeID '10x3' is not a non-negative integer
tencent|bad/overflow.csv|1|2|1|Offset '36028797018963968' out of range
tencent|bad/negsize.csv|1|2|1|Size '-8' is negative
tencent|bad/zerosize.csv|1|2|1|zero Size
tencent|bad/bigsize.csv|1|2|1|Size 4294967296 bytes is above 4294967295
tencent|bad/past63.csv|1|2|1|Offset 9223372036854775808 \+ Size 4096 bytes is past 2\^63
tencent|bad/fields.csv|1|2|1|wrong field count: 4, want 5
tencent|bad/op.csv|1|2|1|unknown IOType '2'
tencent|bad/time.csv|1|2|1|Timestamp '9223372037' out of range
tencent|bad/crlf.csv|0|0|0|-
tencent|bad/bom.csv|0|0|0|-
tencent|bad/empty.csv|1|0|0|empty file, no records
tencent|bad/blank.csv|1|0|0|empty file, no records
tencent|bad/three.csv|1|2|3|VolumeID '10x3' is not a non-negative integer
alibaba|bad/trunc.csv|1|4|1|wrong field count: 3, want 5
alibaba|bad/nonnum.csv|1|2|1|timestamp '1577808000003x32' is not a non-negative integer
alibaba|bad/overflow.csv|1|2|1|offset '18446744073709551616' out of range
alibaba|bad/negsize.csv|1|2|1|length '-4096' is negative
alibaba|bad/zerosize.csv|1|2|1|zero length
alibaba|bad/past63.csv|1|2|1|offset 9223372036854771712 \+ length 8192 bytes is past 2\^63
alibaba|bad/fields.csv|1|2|1|wrong field count: 6, want 5
alibaba|bad/op.csv|1|2|1|unknown opcode 'D'
alibaba|bad/time.csv|1|2|1|timestamp '9223372036854776' out of range
alibaba|bad/crlf.csv|0|0|0|-
alibaba|bad/bom.csv|0|0|0|-
alibaba|bad/empty.csv|1|0|0|empty file, no records
alibaba|bad/blank.csv|1|0|0|empty file, no records
alibaba|bad/three.csv|1|2|3|timestamp '1577808000003x32' is not a non-negative integer
spc|bad/trunc.csv|1|4|1|wrong field count: 2, want at least 5
spc|bad/nonnum.csv|1|2|1|LBA '21004x' is not a non-negative integer
spc|bad/overflow.csv|1|2|1|LBA '36028797018963968' out of range
spc|bad/negsize.csv|1|2|1|Size '-4096' is negative
spc|bad/zerosize.csv|1|2|1|zero Size
spc|bad/past63.csv|1|2|1|LBA 9223372036854775296 \+ Size 4096 bytes is past 2\^63
spc|bad/fields.csv|1|2|1|wrong field count: 4, want at least 5
spc|bad/op.csv|1|2|1|unknown Opcode 'x'
spc|bad/time.csv|1|2|1|Timestamp '0.02s' is not a decimal
spc|bad/crlf.csv|0|0|0|-
spc|bad/bom.csv|0|0|0|-
spc|bad/empty.csv|1|0|0|empty file, no records
spc|bad/blank.csv|1|0|0|empty file, no records
spc|bad/three.csv|1|2|3|LBA '21004x' is not a non-negative integer
fiu|bad/trunc.txt|1|4|1|wrong field count: 4, want 9
fiu|bad/nonnum.txt|1|2|1|lba '2308x5584' is not a non-negative integer
fiu|bad/overflow.txt|1|2|1|size '99999999999999999999' out of range
fiu|bad/negsize.txt|1|2|1|size '-8' is negative
fiu|bad/zerosize.txt|1|2|1|zero size
fiu|bad/past63.txt|1|2|1|lba 9223372036854775808 \+ size 4096 bytes is past 2\^63
fiu|bad/fields.txt|1|2|1|wrong field count: 10, want 9
fiu|bad/op.txt|1|2|1|unknown op 'D'
fiu|bad/major.txt|1|2|1|major '4096' out of range
fiu|bad/crlf.txt|0|0|0|-
fiu|bad/bom.txt|0|0|0|-
fiu|bad/empty.txt|1|0|0|empty file, no records
fiu|bad/blank.txt|1|0|0|empty file, no records
fiu|bad/three.txt|1|2|3|lba '2308x5584' is not a non-negative integer
EOF

t_expect_success 'an empty file is an error under auto-detection too' '
	t_err 1 "empty.csv: empty file" "$TC" -o text "$DATA/msr/bad/empty.csv"
'
t_expect_success 'bad records in gzip input name the line of the decompressed text' '
	gzip -c "$DATA/msr/bad/three.csv" >three.csv.gz &&
	t_err 1 "three.csv.gz:2: Offset" "$TC" -o text three.csv.gz &&
	t_err 0 "3 bad records skipped" "$TC" -o text --skip-bad three.csv.gz
'
t_expect_success 'CRLF, BOM and a user-added header together are accepted' '
	printf "\357\273\277Timestamp,Offset,Size,IOType,VolumeID\r\n" >t.csv &&
	tr -d "\r" <"$DATA/tencent/bad/base.csv" | sed "s/\$/\r/" >>t.csv &&
	"$TC" -o text t.csv >got.txt 2>err.txt && grep -q "detected format .tencent." err.txt &&
	"$TC" -q -o text "$DATA/tencent/bad/base.csv" | t_cmp got.txt -
'

# --- 4. detection: every bad file that still has good lines ------------
for fmt in msr systor17 tencent alibaba spc fiu; do
	t_expect_success "$fmt: its hand-made files with records are detected as $fmt" '
		for f in "$DATA/$fmt"/bad/*; do
			case $f in */empty.* | */blank.* | */header-only.*) continue ;; esac
			"$TC" -o text --skip-bad "$f" 2>&1 >/dev/null | grep -q "detected format .$fmt." ||
				{ echo "$f not detected as $fmt"; exit 1; }
		done
	'
done

t_expect_success 'the --columns example of --help and the man pages reads a CSV of its layout' '
	spec=$("$BIN/tracecat" --help | tr "\n" " " | sed -n "s/.*the column map, e.g. .\(t=1[^'"'"']*\)'"'"'.*/\1/p" | tr -s " ") &&
	test -n "$spec" && echo "$spec" &&
	grep -q "op=2:r=R,w=W offset=3:sectors length=4 volume=5" "$T_TOP/man/ftlsim.1" &&
	printf "1,r,0,4096,0\n2,w,8,4096,0\n" >ex.csv &&
	"$BIN/tracecat" -q -f csv --columns "$spec" -o text ex.csv >ex.txt &&
	printf "0 R 0 4096 0\n1000 W 4096 4096 0\n" >ex.want && t_cmp ex.want ex.txt
'
t_expect_success 'tracecat -o csv is read back by -f auto (its header), the same events: the text of both equal' '
	"$BIN/tracecat" -q -o csv "$SAMPLES/msr/hm_0-head1000.csv" >own.csv &&
	"$BIN/tracecat" -o text own.csv >own.txt 2>own.err && grep -q "detected format .csv." own.err &&
	"$BIN/tracecat" -q -o text "$SAMPLES/msr/hm_0-head1000.csv" >direct.txt && t_cmp direct.txt own.txt &&
	test "$(wc -l <own.txt)" = 1000 &&
	sed "1s/volume/vol/" own.csv >other.csv && ! "$BIN/tracecat" -q -o text other.csv >/dev/null 2>&1
'
t_done
