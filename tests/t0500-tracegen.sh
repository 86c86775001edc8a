#!/bin/sh
# t0500-tracegen: synthetic workloads - determinism, request shape,
# pattern statistics, TRIM mix, labels, bad arguments.
. "$(dirname "$0")/lib.sh"
G="$BIN/tracegen"

# Binary stream records as text via od: "t_ns offset length volume op temp"
# (op as a number: 1 write, 2 discard).
decode() {
	tail -c +17 "$1" | head -c -32 | od -An -v -tu8 -w32 |
		awk '{print $1, $2, $3 % 4294967296, int($3 / 4294967296), $4 % 256, int($4 / 256)}'
}

t_expect_success 'same seed gives byte-identical output, every pattern' '
	for p in uniform hotcold zipf:0.99 seq lfs; do
		"$G" -p $p -n 5000 -w 20000 --trim-prob 0.2 -s 7 -o bin >a 2>/dev/null &&
		"$G" -p $p -n 5000 -w 20000 --trim-prob 0.2 -s 7 -o bin >b 2>/dev/null &&
		t_cmp a b || return 1
	done
'

t_expect_success 'a different seed gives a different stream' '
	"$G" -p uniform -n 5000 -w 1000 -s 1 -o bin >a 2>/dev/null &&
	"$G" -p uniform -n 5000 -w 1000 -s 2 -o bin >b 2>/dev/null &&
	! cmp -s a b
'

t_expect_success 'the seed is echoed on stderr' '
	"$G" -p uniform -n 10 -w 1 -s 12345 -o text 2>err >/dev/null &&
	grep -qx "tracegen: seed 12345" err
'

t_expect_success 'binary stream: header, 32-byte records and the end record, same events as text' '
	"$G" -p hotcold -n 1000 -w 3000 --trim-prob 0.1 -o bin >s.bin 2>/dev/null &&
	test "$(wc -c <s.bin)" = $((16 + 32 * 3001)) &&
	test "$(head -c 6 s.bin)" = FTLKEV &&
	"$G" -p hotcold -n 1000 -w 3000 --trim-prob 0.1 -o text 2>/dev/null |
		awk "{print \$1, \$3, \$4, \$5, (\$2 == \"W\" ? 1 : 2), \$6}" >s.txt &&
	decode s.bin >s.dec && t_cmp s.txt s.dec
'

t_expect_success 'requests are single pages: offset = page * page_size, t_ns 1000 apart' '
	"$G" -p uniform -n 300 -b 8K -w 5000 -o text 2>/dev/null >u.txt &&
	awk "\$1 != (NR - 1) * 1000 || \$4 != 8192 || \$5 != 0 || \$3 % 8192 || \$3 >= 300 * 8192 \
		{ print \"bad line \" NR \": \" \$0; bad = 1 } END { exit bad }" u.txt
'

t_expect_success '--fill writes every page once, in order, before --writes requests' '
	"$G" -p uniform -n 500 -w 100 --fill -o text 2>/dev/null >f.txt &&
	test "$(wc -l <f.txt)" = 600 &&
	head -500 f.txt | awk "\$2 != \"W\" || \$3 != (NR - 1) * 4096 { bad = 1 } END { exit bad }"
'

t_expect_success 'seq wraps around the page count' '
	"$G" -p seq -n 3 -w 7 -o text 2>/dev/null | awk "{printf \"%d \", \$3 / 4096}" >q.txt &&
	test "$(cat q.txt)" = "0 1 2 0 1 2 0 "
'

t_expect_success 'uniform touches every page about equally (chi-square, 100 pages)' '
	"$G" -p uniform -n 100 -w 200000 -o text 2>/dev/null |
		awk "{ c[\$3]++ } END { for (k in c) x += (c[k] - 2000) ^ 2 / 2000;
			if (length(c) != 100 || x > 160) { print \"chi2\", x; exit 1 } }"
'

t_expect_success 'hotcold default: 90% of writes to the first 10% of pages, labels 1/2' '
	"$G" -p hotcold -n 10000 -w 200000 -o text 2>/dev/null |
		awk "{ hot = \$3 / 4096 < 1000; h += hot; if (\$6 != (hot ? 1 : 2)) bad++ }
			END { if (bad || h / NR < 0.895 || h / NR > 0.905) { print h / NR, bad; exit 1 } }"
'

t_expect_success 'hotcold --hot-prob 0.8 --hot-frac 0.2' '
	"$G" -p hotcold --hot-prob 0.8 --hot-frac 0.2 -n 10000 -w 200000 -o text 2>/dev/null |
		awk "{ h += \$3 / 4096 < 2000 } END { if (h / NR < 0.795 || h / NR > 0.805) { print h / NR; exit 1 } }"
'

t_expect_success 'lfs: filled first; uniform by default, hot-and-cold with --hot-prob' '
	"$G" -p lfs -n 1000 -w 100000 -o text 2>/dev/null >l.txt &&
	head -1000 l.txt | awk "\$3 != (NR - 1) * 4096 { bad = 1 } END { exit bad }" &&
	tail -n +1001 l.txt | awk "{ h += \$3 / 4096 < 100 } END { if (h / NR > 0.11 || h / NR < 0.09) exit 1 }" &&
	"$G" -p lfs --hot-prob 0.9 -n 1000 -w 100000 -o text 2>/dev/null | tail -n +1001 |
		awk "{ h += \$3 / 4096 < 100 } END { if (h / NR > 0.905 || h / NR < 0.895) exit 1 }"
'

# Zipf s=1 over 10000 pages: the top decile of ranks gets
# H(1000)/H(10000) = 0.7648 of the writes, the top page 1/H(10000) = 0.1022.
t_expect_success 'zipf:1 rank deciles and top page match the distribution' '
	"$G" -p zipf:1 -n 10000 -w 400000 -o text 2>/dev/null |
		awk "{ d[\$6]++; p[\$3]++ } END { m = 0; for (k in p) if (p[k] > m) m = p[k];
			if (d[1] / NR < 0.760 || d[1] / NR > 0.770 || m / NR < 0.100 || m / NR > 0.1045 ||
			    d[10] / NR > 0.0125 || d[10] / NR < 0.0095) { print d[1] / NR, m / NR, d[10] / NR; exit 1 } }"
'

t_expect_success 'zipf: hot pages are spread by the permutation, not at page 0' '
	"$G" -p zipf:1.2 -n 100000 -w 100000 -o text 2>/dev/null |
		awk "\$6 == 1 { n++; if (\$3 / 4096 < 10000) low++ } END { if (low / n > 0.2) { print low / n; exit 1 } }"
'

t_expect_success 'zipf:0 is uniform' '
	"$G" -p zipf:0 -n 100 -w 100000 -o text 2>/dev/null |
		awk "{ c[\$3]++ } END { for (k in c) x += (c[k] - 1000) ^ 2 / 1000;
			if (length(c) != 100 || x > 160) { print \"chi2\", x; exit 1 } }"
'

t_expect_success 'TRIM mix: discards hit only written pages, about q of requests' '
	"$G" -p zipf:0.8 -n 5000 -w 200000 --trim-prob 0.3 -o text 2>/dev/null |
		awk "\$2 == \"W\" { w[\$3] = 1; lab[\$3] = \$6 }
		     \$2 == \"D\" { if (!w[\$3] || lab[\$3] != \$6) bad++; w[\$3] = 0; d++ }
		     END { if (bad || d / NR < 0.295 || d / NR > 0.305) { print bad, d / NR; exit 1 } }"
'

t_expect_success 'TRIM mix after --fill: the first request may discard any page' '
	"$G" -p uniform -n 1000 -w 20000 --fill --trim-prob 0.5 -o text 2>/dev/null |
		awk "NR <= 1000 { w[\$3] = 1; next }
		     \$2 == \"D\" { if (!w[\$3]) bad++; w[\$3] = 0; next } { w[\$3] = 1 }
		     END { exit bad > 0 }"
'

t_expect_success '--volumes N: N volumes, skewed sizes adding up to --pages, rates, offsets within each, seeded' '
	"$G" -p hotcold --volumes 50 -n 64K -w 50000 --fill -s 9 -o text >v.txt 2>/dev/null &&
	"$G" -p hotcold --volumes 50 -n 64K -w 50000 --fill -s 9 -o text 2>/dev/null | cmp - v.txt &&
	F=$(($(wc -l <v.txt) - 50000)) && test $F = 65536 && # (the sizes add up to --pages)
	awk -v F=$F "NR <= F { size[\$5]++; next } { c[\$5]++; if (\$3 + \$4 > 4096 * size[\$5]) bad = 1 }
	     END { for (v in size) { k++; if (v + 0 < 0 || v + 0 > 49 || size[v] < 64) bad = 1 }
		   print k, bad + 0 }" v.txt >summary &&
	test "$(cat summary)" = "50 0" &&
	awk -v F=$F "NR > F { c[\$5]++ } END { for (v in c) print c[v] }" v.txt | sort -n >counts &&
	test $(tail -1 counts) -gt $((10 * $(sed -n 25p counts))) &&
	! "$G" -p hotcold --volumes 50 -n 64K -w 50000 --fill -s 10 -o text 2>/dev/null | cmp -s - v.txt &&
	t_err 2 "at least 64 a volume" "$G" -p uniform --volumes 10 -n 100
'

t_expect_success '--help to stdout, --version' '
	"$G" --help >h.txt && grep -q "^Usage: tracegen" h.txt && grep -q zipf h.txt &&
	"$G" --version | grep -q "^tracegen (ftlkit)"
'

for args in "" "-p nope" "-p zipf" "-p zipf:x" "-p zipf:-1" "-p uniform:2" \
	"-p uniform -n 0" "-p uniform -n -5" "-p uniform -b 0" "-p uniform --trim-prob 1.5" \
	"-p uniform --hot-prob 0.5" "-p hotcold --hot-frac 0.00001 -n 10" "-p uniform -o xml" \
	"-p uniform extra" "-p uniform --seed abc" "-p uniform --bogus" \
	"-p uniform -n 4611686018427387904"; do
	t_expect_success "usage error: tracegen $args" "t_err 2 'tracegen: ' \"\$G\" $args"
done

t_expect_success '-q drops the seed line and changes nothing of the stream' '
	"$G" -p uniform -n 64 -w 5 -s 7 -o text >a 2>ea &&
	"$G" -q -p uniform -n 64 -w 5 -s 7 -o text >b 2>eb &&
	t_cmp a b && grep -q "seed 7" ea && ! test -s eb
'

t_done
