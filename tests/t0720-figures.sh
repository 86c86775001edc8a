#!/bin/sh
# t0720-figures: figures a reviewer can trust. Utilization histograms
# are binned by whole valid counts, so a smooth distribution is drawn
# smooth at b = 16, 64 and 128 (the 50 equal bins over u of old drew
# every fourth bin at b = 64 twice its neighbours, and a 2:3 sawtooth at
# b = 128); ftlplot compares runs on one set of axes, summarises
# --results files (a value of --by in one colour in both its figures),
# and writes NAME.dat and NAME.gp beside every image, from the tree and
# when copied out of it; a curve at WA 1 is drawn off the frame, and a
# rerun into a folder replaces the figures of the run before (its
# manifest), the user's own files kept.
. "$(dirname "$0")/lib.sh"
# Under the sanitizers (CI's second pass) skipped: its subject is shell
# and gnuplot, which the first pass has tested; the ftlsim and tracegen
# code it runs is tested under the sanitizers elsewhere.
if t_sanitized; then
	t_skip 'the figures (ftlplot, gnuplot, paper/lib.sh)' "the sanitizers' build: the scripts are the plain build's check"
	t_done
	exit
fi
P="$BIN/ftlplot"
G="$BIN/tracegen"
S="$BIN/ftlsim"
PLOTS="$T_TOP/plots"

is_png() { [ -s "$1" ] && [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; }

# alternation: the mean of |2 d(i) - d(i-1) - d(i+1)| / (d(i-1) + d(i+1))
# over the support (bins at least a fifth of the highest) less its two
# edge bins, which a bin of several counts may straddle; one density a
# line on stdin. A smooth histogram gives a few
# percent (sampling noise); a sawtooth of 2:3 gives 0.2 and more.
cat >"$TMP/alt.awk" <<'EOF'
{ d[++n] = $1 }
END {
	for (i = 1; i <= n; i++) if (d[i] > m) m = d[i]
	for (i = 1; i <= n; i++) if (d[i] >= 0.2 * m) { if (!f) f = i; l = i }
	for (i = f + 2; i < l - 1; i++) {
		den = d[i - 1] + d[i + 1]; r = den > 0 ? (2 * d[i] - d[i - 1] - d[i + 1]) / den : 1
		s += r < 0 ? -r : r; c++
	}
	printf "%.4f %d\n", c ? s / c : 1, c
}
EOF
# keyed.py FIGURE.svg: the series of gnuplot's SVG that have a key entry,
# one a line: colour, dash pattern ("solid" for none), key title.
cat >"$TMP/keyed.py" <<'EOF'
import re, sys
text = open(sys.argv[1]).read()
for body in re.split(r'<g id="gnuplot_plot_\d+[a-z]*" >', text)[1:]:
    t = re.search(r"<text>(.*?)</text>", body)
    c = re.search(r"<path stroke='rgb\(([^)]*)\)'(?: stroke-dasharray='([^']*)')?", body)
    if t and c:
        print("%s\t%s\t%s" % (c.group(1).replace(" ", ""), c.group(2) or "solid", t.group(1)))
EOF
# yrange DIR NAME: the y range gnuplot drew DIR/NAME.gp's figure with, "MIN MAX".
yrange() { (cd "$1" && gnuplot "$2.gp" -e 'set print "-"; print GPVAL_Y_MIN, GPVAL_Y_MAX'); }
# The classic uniform workload: random writes, greedy, OP 25%, the
# sealed segments summed over the snapshots after the warm-up.
for b in 16 64 128; do
	"$G" --pattern uniform --pages 262144 --fill --writes 1572864 --seed 2 -o bin 2>/dev/null |
		"$S" -q --logical-pages 262144 --spare-factor 0.25 --pages-per-segment $b --policy greedy \
			--warmup-writes 786432 --hist "$TMP/h$b.csv" --snapshot-every 65536 - >/dev/null
done

t_expect_success 'ftlsim --hist: one row per valid count 0..b per snapshot, the counts summing to the segments' '
	for b in 16 64 128; do
		awk -F, -v b=$b "NR > 1 && \$1 == \"sealed\" { n[\$2]++; d = \$5 - \$4 / b; if (\$4 != n[\$2] - 1 || d > 1e-6 || d < -1e-6) exit 1 }
			END { for (s in n) if (n[s] != b + 1) exit 1 }" h$b.csv || { echo "b = $b"; exit 1; }
	done
'
t_expect_success 'util-hist.gp: a smooth distribution gives a smooth histogram at b = 16, 64, 128 (one bin per count, and bins of 2 and 4 at b = 64, 128)' '
	for bg in 16:1 64:1 64:2 64:4 128:1 128:2 128:4; do b=${bg%:*} g=${bg#*:}
		gnuplot -e "FORMAT='"'"'png'"'"'; out='"'"'h.png'"'"'; group=$g; datfile='"'"'h.dat'"'"'; hists='"'"'h$b.csv|sealed|786432|b'"'"'" -c "$PLOTS/util-hist.gp" || exit 1
		r=$(awk "!/^#/ && NF { print \$3 }" h.dat | awk -f alt.awk)
		echo "b = $b, $g count(s) a bin: alternation $r"
		awk -v r="${r% *}" "BEGIN { exit !(r < 0.08) }" || exit 1
	done
'
t_expect_success 'the check above catches the old binning: 50 equal bins over u alternate at b = 16, 64, 128' '
	for b in 16 64 128; do
		r=$(awk -F, "NR > 1 && \$1 == \"sealed\" && \$3 > 786432 { k = int(\$5 * 50); if (k >= 50) k = 49; h[k] += \$6 }
			END { for (i = 0; i < 50; i++) print h[i] + 0 }" h$b.csv | awk -f alt.awk)
		echo "b = $b, 50 bins: alternation $r"
		awk -v r="${r% *}" "BEGIN { exit !(r > 0.25) }" || exit 1
	done
'
t_expect_success 'bins are whole numbers of counts, equal in width but for a narrower last one; densities integrate to 1' '
	gnuplot -e "FORMAT='"'"'png'"'"'; out='"'"'h.png'"'"'; group=3; datfile='"'"'h.dat'"'"'; hists='"'"'h16.csv|sealed|786432|b'"'"'" -c "$PLOTS/util-hist.gp" &&
	awk "!/^#/ && NF { n++; w = \$2 - \$1; a += \$3 * w; if (\$5 - \$4 + 1 != (n < 6 ? 3 : 2)) exit 1
		if (w * 16 - (\$5 - \$4 + 1) > 1e-4 || (\$5 - \$4 + 1) - w * 16 > 1e-4) exit 1 }
		END { if (n != 6 || a < 0.9999 || a > 1.0001) exit 1 }" h.dat &&
	t_err 2 "group must be a whole number" gnuplot -e "FORMAT='"'"'png'"'"'; out='"'"'x.png'"'"'; group=1.5; hists='"'"'h16.csv|sealed|0|b'"'"'" -c "$PLOTS/util-hist.gp"
'
t_expect_success 'util-hist.gp: the x range holds the bins with a margin, the outline'"'"'s outer edges (u = 1'"'"'s bin) off the frame' '
	gnuplot -e "FORMAT='"'"'png'"'"'; out='"'"'h.png'"'"'; datfile='"'"'h.dat'"'"'; hists='"'"'h16.csv|sealed|786432|b'"'"'" -e "call '"'"'$PLOTS/util-hist.gp'"'"'" \
		-e "set print \"-\"; print GPVAL_X_MIN, GPVAL_X_MAX" >r.txt &&
	b=$(awk "!/^#/ && NF { if (lo == \"\") lo = \$1; hi = \$2 } END { print lo, hi }" h.dat) && echo "bins $b, x from $(cat r.txt)" &&
	awk -v b="$b" "{ split(b, c, \" \"); m = 0.01 * (c[2] - c[1]); exit !(\$1 < c[1] - m && \$2 > c[2] + m) }" r.txt
'
t_expect_success 'paper/lib.sh bimodality: peaks of the same whole-count bins (one for greedy on uniform writes, two where there are two)' '
	mkdir -p p/f && O=$TMP/p FIG=f && . "$T_TOP/paper/lib.sh" &&
	m=$(bimodality h64.csv sealed 786432 1 3) && echo "greedy, b = 64: $m" &&
	pk=$(echo "$m" | sed -n "s/.*peaks=\([^ ]*\).*/\1/p") && test $(echo "$pk" | tr "," "\n" | grep -c .) -eq 1 &&
	awk -v u="${pk%%:*}" "BEGIN { exit !(u > 0.53 && u < 0.6) }" &&
	{ echo "kind,snapshot,host_pages_written,valid_pages,utilization,segments"
	  awk "BEGIN { for (v = 0; v <= 100; v++) printf \"sealed,1,10,%d,%.6f,%d\\n\", v, v / 100, 1000 * exp(-(v - 15) ^ 2 / 20) + 600 * exp(-(v - 80) ^ 2 / 50) }"
	} >two.csv &&
	m=$(bimodality two.csv sealed 0 5 3) && echo "two bumps: $m" &&
	test "$(echo "$m" | sed -n "s/.*peaks=\([^ ]*\).*/\1/p" | sed "s/:[0-9.]*//g")" = "0.170,0.820" &&
	bc=$(echo "$m" | sed -n "s/.*bc=\([0-9.]*\).*/\1/p") && awk -v b="$bc" "BEGIN { exit !(b > 5 / 9) }" &&
	test "$(echo "$m" | sed -n "s/.*dip=//p")" = "" &&
	dip=$(bimodality two.csv sealed 0 5 3 0.3 0.6 | sed -n "s/.*dip=//p") && echo "two bumps, trough: $dip" &&
	awk -v d="$dip" "BEGIN { exit !(d != \"\" && d < 0.05) }" &&
	{ echo "kind,snapshot,host_pages_written,valid_pages,utilization,segments"
	  awk "BEGIN { for (v = 0; v <= 100; v++) printf \"sealed,1,10,%d,%.6f,%d\\n\", v, v / 100, 1000 * exp(-(v - 15) ^ 2 / 20) + 600 * exp(-(v - 80) ^ 2 / 50) + 500 }"
	} >flat.csv &&
	dip=$(bimodality flat.csv sealed 0 5 3 0.3 0.6 | sed -n "s/.*dip=//p") && echo "two bumps on a floor, trough: $dip" &&
	awk -v d="$dip" "BEGIN { exit !(d > 0.3 && d < 1) }"
'
"$G" -p hotcold -n 8192 -w 65536 --fill -s 3 -o bin >"$TMP/hc.ev" 2>/dev/null
for pol in greedy cb; do
	"$S" -q --logical-pages 8192 --spare-factor 0.1 --pages-per-segment 32 --policy $pol --snapshot-every 8192 \
		--curve "$TMP/c-$pol.csv" --hist "$TMP/h-$pol.csv" --erase-hist "$TMP/e-$pol.csv" "$TMP/hc.ev" >/dev/null
done

t_expect_success 'ftlplot compares runs: --curve/--hist/--erase FILE:LABEL repeated, one line each on one set of axes' '
	"$P" -o cmp --title "hot/cold" --curve c-greedy.csv:greedy --curve c-cb.csv:cost-benefit \
		--hist h-greedy.csv:greedy --hist h-cb.csv:cost-benefit --erase e-greedy.csv:greedy --erase e-cb.csv >list &&
	test $(wc -l <list) -eq 4 &&
	for f in wa-curve util-victims util-sealed erase-hist; do
		is_png cmp/$f.png && test -s cmp/$f.dat && test -s cmp/$f.gp || { echo "$f"; exit 1; }
	done &&
	grep -q "c-greedy.csv|greedy;.*c-cb.csv|cost-benefit" cmp/wa-curve.gp &&
	grep -q "|e-cb.\$" cmp/erase-hist.gp &&
	test $(grep -c "^# Curve [0-9]" cmp/wa-curve.dat) -eq 2 &&
	test $(grep -c "^# .*b = 32, 1 valid count per bin" cmp/util-sealed.dat) -eq 2
'
t_expect_success 'NAME.gp redraws the image; the erase counts are bars, the sealed histogram the last snapshot' '
	rm cmp/erase-hist.png && (cd cmp && gnuplot erase-hist.gp) && is_png cmp/erase-hist.png &&
	grep -q "with boxes" "$PLOTS/erase-hist.gp" &&
	grep -q "sealed segments, last snapshot" cmp/util-sealed.gp &&
	last=$(awk -F, "\$1 == \"sealed\" { h = \$3 } END { print h - 1 }" h-cb.csv) &&
	grep -q "h-cb.csv|sealed|$last|cost-benefit" cmp/util-sealed.gp &&
	"$P" -o aft --hist h-cb.csv --after 16384 --group 2 >/dev/null &&
	grep -q "^group = 2" aft/util-sealed.gp && grep -q "h-cb.csv|sealed|16384|h-cb" aft/util-sealed.gp
'
# Erase counts in the hundreds: a small drive written many times over.
"$G" -p hotcold -n 2048 -w 200000 --fill -s 3 -o bin 2>/dev/null |
	"$S" -q --logical-pages 2048 --spare-factor 0.1 --pages-per-segment 16 --erase-hist "$TMP/e-many.csv" - >/dev/null
t_expect_success 'erase counts in the hundreds: bins of 1, 2, 5, 10, 20, ... counts, at most 40, every segment in one; the bars told apart' '
	hi=$(awk -F, "NR > 1 && \$1 > m { m = \$1 } END { print m }" e-many.csv) && echo "erase counts up to $hi" && test "$hi" -ge 200 &&
	"$P" -o many --erase e-many.csv:hot/cold --erase e-cb.csv:cost-benefit >/dev/null && is_png many/erase-hist.png &&
	awk -v want="$(awk -F, "NR > 1 { s += \$2 } END { print s }" e-many.csv)" "
		/^# hot\/cold \([0-9]+ counts a bin\)/ { b = 1; w = \$(NF - 3); sub(/\(/, \"\", w); next }
		/^#/ { b = 0; next }
		b && NF { if (\$2 - \$1 + 1 != w || \$1 % w) exit 1; if (!n++) lo = \$1; hi = \$1; s += \$3 }
		END { print w \" counts a bin, \" (hi - lo) / w + 1 \" bins, \" s \" segments\"
			if (w < 2 || (hi - lo) / w + 1 > 40 || s != want) exit 1 }" many/erase-hist.dat &&
	"$P" -o many-svg --format svg --erase e-many.csv:hot/cold --erase e-cb.csv:cost-benefit >/dev/null &&
	python3 "$T_TOP/tests/figstyles.py" many-svg/erase-hist.svg
'
for k in 1 2 3 4 5 6 7 8; do
	"$G" -q -p hotcold -n 4096 -w 40000 --fill -s $k -o bin |
		"$S" -q --logical-pages 4096 --pages-per-segment 32 --op 0.$((k + 1)) --erase-hist "$TMP/e8-$k.csv" - >/dev/null
done
t_expect_success 'erase-hist of 8 runs: an outline a run (a step a bin, keyed as lines told apart), not bars of 2 pixels; 3 runs still bars' '
	a= && for k in 1 2 3 4 5 6 7 8; do a="$a --erase e8-$k.csv:OP-0.$((k + 1))"; done &&
	"$P" -o e8 --format svg $a >/dev/null && python3 "$T_TOP/tests/figstyles.py" e8/erase-hist.svg >fs.txt && cat fs.txt &&
	grep -q ": 1 panel(s), 8 series in keys, 0 bar series\$" fs.txt &&
	python3 keyed.py e8/erase-hist.svg >k8.txt && test $(cut -f3 k8.txt | grep -c "^OP-0\.[2-9]\$") -eq 8 &&
	"$P" -o e8p $a >/dev/null && is_png e8p/erase-hist.png && rm e8p/erase-hist.png && (cd e8p && gnuplot erase-hist.gp) && is_png e8p/erase-hist.png &&
	test $(grep -c "^# OP-" e8p/erase-hist.dat) -eq 8 &&
	"$P" -o e3 --format svg --erase e8-1.csv --erase e8-2.csv --erase e8-3.csv >/dev/null &&
	python3 "$T_TOP/tests/figstyles.py" e3/erase-hist.svg | grep -q ", 3 bar series\$"
'
t_expect_success 'erase-hist: the highest bar below the top of the frame (one bin of every segment, at 1, too)' '
	printf "erase_count,segments\n7,40\n" >e1bin.csv && "$P" -o e1bin --erase e1bin.csv >/dev/null &&
	r=$(yrange e1bin erase-hist) && echo "one bin at 1: y from $r" &&
	awk -v r="$r" "BEGIN { split(r, a, \" \"); exit !(a[2] > 1.02) }" &&
	"$P" -o e2bin --erase e-cb.csv >/dev/null && r=$(yrange e2bin erase-hist) &&
	m=$(awk "!/^#/ && NF { if (\$4 > m) m = \$4 } END { print m }" e2bin/erase-hist.dat) && echo "highest bar $m: y from $r" &&
	awk -v r="$r" -v m="$m" "BEGIN { split(r, a, \" \"); exit !(a[2] > 1.02 * m) }"
'
t_expect_success 'erase-hist: the x range holds every bin whole, bins of 1 and of several counts (the last bin off the right frame)' '
	for e in e-cb e-many; do
		"$P" -o ex-$e --erase $e.csv >/dev/null || return 1
		r=$(cd ex-$e && gnuplot erase-hist.gp -e "set print \"-\"; print GPVAL_X_MIN, GPVAL_X_MAX") &&
		b=$(awk "!/^#/ && NF { if (lo == \"\") lo = \$1; hi = \$2 } END { print lo - 0.5, hi + 0.5 }" ex-$e/erase-hist.dat) &&
		echo "$e: bins $b, x from $r" &&
		awk -v r="$r" -v b="$b" "BEGIN { split(r, a, \" \"); split(b, c, \" \"); exit !(a[1] < c[1] && a[2] > c[2]) }" || return 1
	done
'
t_expect_success 'the sealed histogram over the snapshots after --after sums them: segments = snapshots x sealed' '
	n=$(awk -F, "\$1 == \"sealed\" && \$3 > 16384 && \$4 == 0 { k++ } END { print k }" h-cb.csv) &&
	seg=$(awk "!/^#/ && NF { s += \$6 } END { print s }" aft/util-sealed.dat) &&
	want=$(awk -F, "\$1 == \"sealed\" && \$3 > 16384 { s += \$6 } END { print s }" h-cb.csv) &&
	echo "$n snapshots, $seg segments" && test "$seg" = "$want" && test "$n" -ge 4
'
cat >"$TMP/results.csv" <<'EOF'
tag,volume,policy,op,trim,host_pages_written,flash_pages_written,wa_total
t,1,greedy,0.07,on,1000,5000,5
t,2,greedy,0.07,on,1000,7000,7
t,3,greedy,0.07,on,1000,9000,9
t,1,greedy,0.28,on,1000,2000,2
t,2,greedy,0.28,on,1000,3000,3
t,3,greedy,0.28,on,1000,2500,2.5
t,1,"cb, aged",0.07,on,1000,4000,4
t,2,"cb, aged",0.07,on,1000,6000,6
t,3,"cb, aged",0.07,on,1000,,
t,1,"cb, aged",0.28,on,1000,1500,1.5
t,2,"cb, aged",0.28,on,1000,2000,2
t,3,"cb, aged",0.28,on,1000,1800,1.8
EOF
t_expect_success 'ftlplot --results: WA against a column, a line per value of another (medians over volumes, nearest rank: of 4 and 6, 4), and the CDF over volumes' '
	"$P" -o res --results results.csv --x op --by policy >list &&
	test $(wc -l <list) -eq 2 && is_png res/results.png && is_png res/results-cdf.png &&
	awk "/^# greedy/ { b = 1; next } /^# / { b = 2; next } NF { v[b] = v[b] \" \" \$1 \":\" \$2 }
		END { exit !(v[1] == \" 0.07:7 0.28:2.5\" && v[2] == \" 0.07:4 0.28:1.8\") }" res/results.in &&
	grep -q "titles = .policy = greedy;policy = cb, aged" res/results.gp &&
	grep -q "policy = cb, aged, op = 0.07 (2 volumes)" res/results-cdf.gp &&
	grep -qx "title = .distribution of write amplification over 2-3 volumes." res/results-cdf.gp &&
	awk "/^# configuration 1/ { b = 1; next } /^#/ { b = 0 } b && NF { s = s \" \" \$1 \":\" \$2 } END { exit !(s == \" 5:0 5:0.333333 7:0.333333 7:0.666667 9:0.666667 9:1.000000\") }" res/results-cdf.in &&
	grep -qx "style = .lines." res/results-cdf.gp && grep -qx "yrange = .0:1.02." res/results-cdf.gp
'
t_expect_success 'ftlplot --results: a value of --by has one colour in results and results-cdf, its key label the same; the x values told apart by dashes; each CDF'"'"'s median marked, the point of results' '
	"$P" -o rc --format svg --results results.csv --x op --by policy >/dev/null &&
	python3 keyed.py rc/results.svg >lines.txt && python3 keyed.py rc/results-cdf.svg >curves.txt && cat lines.txt curves.txt &&
	test $(wc -l <lines.txt) -eq 2 && test $(cut -f1 lines.txt | sort -u | wc -l) -eq 2 &&
	test $(wc -l <curves.txt) -eq 4 && test $(cut -f1,2 curves.txt | sort -u | wc -l) -eq 4 &&
	awk -F"\t" "NR == FNR { c[\$3] = \$1; next }
		{ l = \$3; sub(/, op = [0-9.]+ \([0-9]+ volumes?\)\$/, \"\", l)
		  if (!(l in c) || c[l] != \$1) { print \"not in the colour of its line: \" \$0; bad = 1 }
		  if ((\$3 ~ /op = 0.07/) != (\$2 == \"solid\")) { print \"op 0.07 not the solid one: \" \$0; bad = 1 } }
		END { exit bad }" lines.txt curves.txt &&
	awk "/^# the median of configuration/ { m = 1; next } /^#/ { m = 0 } m && NF { print \$1 }" rc/results-cdf.in | sort -g >med.txt &&
	awk "!/^#/ && NF { print \$2 }" rc/results.in | sort -g >pts.txt && test -s pts.txt && t_cmp pts.txt med.txt
'
t_expect_success 'ftlplot --results: the CDF of many configurations (8 policies x 3 OP) keys the --by values and the x values, not each curve (24 entries took the figure'"'"'s height)' '
	{ echo "tag,volume,policy,op,wa_total"
	  for v in 1 2 3; do for p in greedy cb cb-sqrt fifo random dchoices windowed cat; do for op in 0.07 0.14 0.28; do
		echo "t,$v,$p,$op,$(awk -v v=$v -v op=$op "BEGIN { print v * 0.3 + 0.5 / op }")"
	  done; done; done; } >r24.csv &&
	"$P" -o r24 --format svg --results r24.csv --x op --by policy >/dev/null &&
	grep -q "^keyfactors = .policy = greedy|1|0;.*;op = 0.07|0|1;op = 0.14|0|2;op = 0.28|0|3.$" r24/results-cdf.gp &&
	python3 keyed.py r24/results-cdf.svg >k24.txt && cat k24.txt && test $(wc -l <k24.txt) -eq 11 &&
	test $(grep -c "^# Curve title: .policy = .*, op = .* (3 volumes)" r24/results-cdf.dat) -eq 24 &&
	"$P" -o r4 --results results.csv --x op --by policy >/dev/null && grep -qx "keyfactors = .." r4/results-cdf.gp
'
t_expect_success 'ftlplot --results, 24 curves: the key'"'"'s dash patterns in greys no line of --by has (not black, line type 7'"'"'s colour), told apart (tests/figstyles.py)' '
	python3 "$T_TOP/tests/figstyles.py" r24/results-cdf.svg &&
	grep "	policy = " k24.txt | cut -f1 | sort -u >bycol.txt && test $(wc -l <bycol.txt) -eq 8 && grep -qx "0,0,0" bycol.txt &&
	grep "	op = " k24.txt | cut -f1 >dashcol.txt && test $(sort -u dashcol.txt | wc -l) -eq 3 &&
	! grep -qxFf bycol.txt dashcol.txt &&
	awk -F, "{ if (\$1 != \$2 || \$2 != \$3 || \$1 < 80 || \$1 > 140) exit 1 }" dashcol.txt
'
t_expect_success 'ftlplot --results on a real one-row-per-run CSV (ftlsweep merge): a line per policy, the points its wa_total' '
	printf "%s\n" "workload hc -p hotcold -n 4096 -w 32768 --fill --seed 3" "options --logical-pages 4096 --pages-per-segment 32" \
		"axis policy greedy fifo" "axis op 0.1 0.3" >s.sweep &&
	"$BIN/ftlsweep" plan s.sweep s.d >/dev/null && "$BIN/ftlsweep" run s.d --local -j 2 >/dev/null 2>&1 &&
	"$BIN/ftlsweep" merge s.d -o merged.csv && test $(wc -l <merged.csv) -eq 5 &&
	"$P" -o sw --results merged.csv --x op --by policy >/dev/null && is_png sw/results.png && test ! -e sw/results-cdf.png &&
	awk -F, "NR > 1 { printf \"%s %s %.10g\\n\", \$3, \$4, \$13 }" merged.csv | sort >want &&
	awk "/^# / { p = \$2; next } NF { printf \"%s %s %.10g\\n\", p, \$1, \$2 }" sw/results.in | sort >got &&
	head -n 1 merged.csv | cut -d, -f3,4,13 | grep -qx "policy,op,wa_total" && diff want got
'
t_expect_success 'ftlplot --results: axes named by the columns'"'"' meaning; latencies over more than a decade on a log axis labelled in us, ms and s' '
	printf "tag,op,time-scale,timing.latency_us.write.p99\n,0.07,1,6340\n,0.28,1,5226\n,0.07,0.25,1178599\n,0.28,0.25,206045\n" >lat.csv &&
	"$P" -o lat --results lat.csv --x op --y timing.latency_us.write.p99 --by time-scale >/dev/null && is_png lat/results.png &&
	grep -q "^logy = 2" lat/results.gp && grep -q "^ylabel = .write latency, p99.$" lat/results.gp &&
	grep -q "^xlabel = .over-provisioning (OP).$" lat/results.gp &&
	grep -v "^t,3,.cb, aged.,0.07" results.csv | grep -v "^t,1,.cb, aged.,0.07" >res1.csv &&
	"$P" -o lat1 --results res1.csv --x op --by policy >/dev/null &&
	grep -q "^logy = 0" lat1/results.gp && grep -q "^ylabel = .write amplification (median per point).$" lat1/results.gp &&
	printf "tag,op,trim-cost,timing.latency_us.trim.p99,timing.latency_us.write.count\n,0.07,off,0,117859\n,0.28,off,0,117000\n,0.07,u,2000,117859\n,0.28,u,200000,117000\n" >tz.csv &&
	"$P" -o tz --results tz.csv --x op --by trim-cost --y timing.latency_us.trim.p99 >/dev/null && is_png tz/results.png &&
	grep -q "^logy = 2" tz/results.gp && grep -q "^titles = .trim-cost = off (0: not on the log axis);trim-cost = u.$" tz/results.gp &&
	"$P" -o tzc --results tz.csv --x op --by trim-cost --y timing.latency_us.write.count >/dev/null &&
	grep -q "^logy = 0" tzc/results.gp && grep -q "^ylabel = .write requests measured.$" tzc/results.gp
'
t_expect_success 'ftlplot --curve: a run under a host log drawn by its stacked WA over the file system'"'"'s writes, beside a block SSD'"'"'s' '
	"$G" -q -p uniform -n 16384 --fill -w 100000 -o bin >hl.ev &&
	"$S" -q --logical-pages 16384 --op 0.07 --placement sepgc --host-lfs segment=1M --curve hl.csv --interval 20000 hl.ev >/dev/null &&
	"$S" -q --logical-pages 16384 --op 0.07 --placement sepgc --curve bl.csv --interval 20000 hl.ev >/dev/null &&
	"$P" -o st --curve bl.csv:block --curve hl.csv:log >/dev/null && is_png st/wa-curve.png &&
	grep -q "^stacked = .n;y.$" st/wa-curve.gp &&
	awk "/^# Curve [0-9]/ { b = (\$3 == 1); next } b && NF && !/^#/ && \$3 == \"i\" { print \$1, \$2 }" st/wa-curve.dat >got &&
	awk -F, "NR > 1 && \$1 % 20000 == 0 { print \$9, \$10 }" hl.csv >want &&
	awk "{ printf \"%s %.5g\\n\", \$1, \$2 }" got >got2 && awk "{ printf \"%s %.5g\\n\", \$1, \$2 }" want >want2 &&
	test -s want2 && t_cmp want2 got2
'
t_expect_success 'ftlplot --results: x over two decades on a log axis (base 2 for powers of 2), a linear one otherwise; sweep axes named' '
	printf "tag,pages-per-segment,policy,wa_total\n,4,greedy,2.7\n,16,greedy,5.1\n,64,greedy,6.7\n,256,greedy,7.5\n,1024,greedy,8.1\n" >pps.csv &&
	"$P" -o pps --results pps.csv --x pages-per-segment >/dev/null && is_png pps/results.png &&
	grep -qx "logx = 2" pps/results.gp && grep -q "^xlabel = .pages per segment (b).$" pps/results.gp &&
	sed "s/^,4,/,3,/" pps.csv >p3.csv && "$P" -o p3 --results p3.csv --x pages-per-segment >/dev/null && grep -qx "logx = 10" p3/results.gp &&
	printf "tag,op,wa_total\n,0.07,6\n,0.28,2\n" >op.csv && "$P" -o op --results op.csv --x op >/dev/null && grep -qx "logx = 0" op/results.gp
'
"$G" -p uniform -n 4096 --fill -w 0 -o bin 2>/dev/null |
	"$S" -q --logical-pages 4096 --pages-per-segment 64 --curve "$TMP/nogc.csv" --interval 512 - >/dev/null 2>&1
t_expect_success 'a curve at WA 1 (no GC) is drawn off the frame: the y range goes below 1, a flat 1 in its middle, no empty-range warning' '
	awk -F, "NR > 1 && (\$2 != 1 || \$3 != 1) { exit 1 } END { exit NR < 5 }" nogc.csv &&
	"$P" -o wa1 --curve nogc.csv:"no GC" >/dev/null 2>err && ! grep -qi "warning\|empty" err &&
	r=$(yrange wa1 wa-curve) && echo "WA 1 alone: y from $r" &&
	awk -v r="$r" "BEGIN { split(r, a, \" \"); f = (1 - a[1]) / (a[2] - a[1]); exit !(f > 0.2 && f < 0.8) }" &&
	"$P" -o wa1b --curve c-greedy.csv:greedy --curve nogc.csv:"no GC" >/dev/null &&
	r=$(yrange wa1b wa-curve) && echo "WA 1 beside greedy: y from $r" &&
	awk -v r="$r" "BEGIN { split(r, a, \" \"); exit !((1 - a[1]) / (a[2] - a[1]) >= 0.03) }" &&
	printf "tag,op,policy,wa_total\n,0.07,greedy,5.6\n,0.28,greedy,2.1\n,0.5,greedy,1\n,0.07,cb,4\n,0.28,cb,1.2\n,0.5,cb,1\n" >w1.csv &&
	"$P" -o w1 --results w1.csv --x op --by policy >/dev/null && r=$(yrange w1 results) && echo "results at WA 1..5.6: y from $r" &&
	awk -v r="$r" "BEGIN { split(r, a, \" \"); s = a[2] - a[1]; exit !((1 - a[1]) / s >= 0.03 && (a[2] - 5.6) / s >= 0.03) }" &&
	awk -F, "NR == 1 || \$4 == 1" w1.csv >w1f.csv && "$P" -o w1f --results w1f.csv --x op --by policy >/dev/null 2>err &&
	! grep -qi "warning\|empty" err && r=$(yrange w1f results) && echo "results all at WA 1: y from $r" &&
	awk -v r="$r" "BEGIN { split(r, a, \" \"); f = (1 - a[1]) / (a[2] - a[1]); exit !(f > 0.2 && f < 0.8) }"
'
t_expect_success 'ftlplot --curve of a run shorter than its --interval (one row): the point amid its x range, no gnuplot warning, no cumulative line of one point' '
	"$G" -q -p uniform -n 4096 --fill -w 0 -o bin | "$S" -q --logical-pages 4096 --pages-per-segment 64 --curve one.csv --interval 100000 - >/dev/null 2>&1 &&
	test $(grep -c . one.csv) -eq 2 &&
	"$P" -o one --curve one.csv >/dev/null 2>err && cat err && ! grep -qi "warning\|empty" err &&
	r=$(cd one && gnuplot wa-curve.gp -e "set print \"-\"; print GPVAL_X_MIN, GPVAL_X_MAX") && echo "x from $r" &&
	awk -v r="$r" "BEGIN { split(r, a, \" \"); f = (4096 - a[1]) / (a[2] - a[1]); exit !(f > 0.2 && f < 0.8) }" &&
	grep -q "^cumulative = 1" one/wa-curve.gp && test $(grep -c "^# Curve [0-9]" one/wa-curve.dat) -eq 1 &&
	"$P" -o one2 --curve one.csv --curve c-cb.csv >/dev/null 2>err && ! grep -qi "warning\|empty" err
'
t_expect_success 'ftlplot --hist of a run whose GC cleaned nothing: the histogram says so, no gnuplot warning' '
	"$BIN/tracegen" -p uniform -n 4096 --fill -w 0 -o bin >fo.ev 2>/dev/null &&
	"$BIN/ftlsim" -q --logical-pages 4096 --pages-per-segment 64 --hist fo.csv fo.ev >fo.json &&
	jq -e ".segments_cleaned == 0" fo.json >/dev/null &&
	"$P" -o fo --hist fo.csv >/dev/null 2>fo.err && is_png fo/util-victims.png && ! grep -qi "warning\|empty" fo.err
'
t_expect_success 'ftlplot --results: a missing column or a non-number is an error naming the file' '
	t_err 1 "results.csv: no column bogus \(the columns: tag volume policy op" "$P" -o r2 --results results.csv --x bogus &&
	t_err 1 "results.csv: line 2: policy must be a number, not .greedy." "$P" -o r2 --results results.csv --x op --y policy &&
	t_err 2 "--results needs --x" "$P" --results results.csv &&
	t_err 2 "--x and --by go with --results" "$P" --curve c-cb.csv --x op
'
t_expect_success 'ftlplot --results --x of words (a grid axis of names): the values in their order, 1, 2, ... on the axis named by them, points' '
	"$P" -o rw --results results.csv --x policy --by op >/dev/null && is_png rw/results.png &&
	xw=$(sed -n "s/^xwords = .\(.*\).$/\1/p" rw/results.gp) && test -n "$xw" &&
	test "$xw" = "greedy;cb, aged" && grep -q "^style = .points.$" rw/results.gp &&
	awk "!/^#/ && NF == 2 { print \$1 }" rw/results.in | sort -u | tr "\n" " " | grep -qx "1 2 " &&
	"$P" -o rn --results results.csv --x op --by policy >/dev/null && grep -q "^xwords = ..$" rn/results.gp
'
t_expect_success 'ftlplot copied out of the tree finds the scripts in PREFIX/share/ftlkit, and says where it looked; its figures'"'"' folder redraws anywhere (gp/)' '
	mkdir -p inst/bin inst/share/ftlkit &&
	cp "$P" inst/bin/ && cp "$PLOTS"/*.gp "$PLOTS"/labels.sh inst/share/ftlkit/ &&
	inst/bin/ftlplot -o inst-out --curve c-cb.csv >/dev/null && is_png inst-out/wa-curve.png &&
	grep -qx "call .gp/wa-curve.gp." inst-out/wa-curve.gp && cmp inst-out/gp/wa-curve.gp inst/share/ftlkit/wa-curve.gp &&
	cp -r inst-out moved && rm -rf inst && (cd moved && gnuplot wa-curve.gp) && is_png moved/wa-curve.png &&
	mkdir -p lone/bin && cp "$P" lone/bin/ &&
	t_err 1 "cannot find the gnuplot scripts" lone/bin/ftlplot --curve c-cb.csv -o x
'
t_expect_success 'ftlplot -- FTLSIM-ARGS: a short title from the run (jq), the CSV files kept for NAME.gp' '
	"$P" -o run -- -q --logical-pages 8192 --spare-factor 0.1 --pages-per-segment 32 --policy cb hc.ev >/dev/null &&
	grep -qx "title = .cb, single, OP 10.9%, b = 32, TRIM on." run/wa-curve.gp &&
	test -s run/curve.csv && test -s run/hist.csv && test -s run/erase-hist.csv &&
	rm run/util-victims.png && (cd run && gnuplot util-victims.gp) && is_png run/util-victims.png
'
t_expect_success 'ftlplot rerun into a folder: the files the run before wrote (its manifest) and this one does not are removed, the user'"'"'s own files and what this run reads kept; --keep adds' '
	"$P" -o m --curve c-cb.csv --hist h-cb.csv --erase e-cb.csv >/dev/null && echo notes >m/notes.txt && cp m/wa-curve.png m/mine.png &&
	test -s m/.ftlplot-files && grep -qx "gp/util-hist.gp" m/.ftlplot-files &&
	"$P" -o m --results results.csv --x op --by policy >/dev/null &&
	(cd m && find . -type f | sort) >got && cat got &&
	printf "%s\n" ./.ftlplot-files ./gp/lines.gp ./gp/term.gp ./mine.png ./notes.txt ./results-cdf.dat ./results-cdf.gp ./results-cdf.in \
		./results-cdf.png ./results.dat ./results.gp ./results.in ./results.png >want && t_cmp want got &&
	grep -v "^#" m/.ftlplot-files | sort >listed && sed -n "s|^\./||p" want | grep -v "^\(mine.png\|notes.txt\|\.ftlplot-files\)\$" >want2 && t_cmp want2 listed &&
	"$P" -o run --curve run/curve.csv:again >/dev/null && test -s run/curve.csv && test ! -e run/hist.csv && test ! -e run/summary.json &&
	test ! -e run/util-victims.png && grep -qx curve.csv run/.ftlplot-files && rm run/wa-curve.png && (cd run && gnuplot wa-curve.gp) && is_png run/wa-curve.png &&
	t_err 1 "cannot read" "$P" -o m --curve nope.csv && is_png m/results.png &&
	printf "notes.txt\n../results.csv\ngp/../notes.txt\n" >>m/.ftlplot-files &&
	"$P" -o m --keep --curve c-cb.csv >/dev/null && is_png m/results.png && is_png m/wa-curve.png &&
	grep -qx results.png m/.ftlplot-files && grep -qx wa-curve.png m/.ftlplot-files &&
	"$P" -o m --erase e-cb.csv >/dev/null && test ! -e m/results.png && test ! -e m/wa-curve.png &&
	test -s m/notes.txt && test -s results.csv && test -s m/mine.png && is_png m/erase-hist.png
'
t_expect_success 'started in the background of a script (SIGINT ignored at its start), ftlplot -- stops on SIGINT to it alone: exit 130, no figure' '
	mkfifo bg.fifo &&
	{ "$P" -o bgp -- --logical-pages 65536 bg.fifo 2>bgp.err & p=$!; } &&
	sleep 1 && kill -INT $p &&
	i=0 && while kill -0 $p 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	alive=0; kill -0 $p 2>/dev/null && { alive=1; : >bg.fifo & }
	wait $p; rc=$?
	cat bgp.err; test $alive = 0 && test $rc = 130 && test ! -e bgp/wa-curve.png
'
t_expect_success 'ftlplot checks the rows of --curve, --hist and --erase-hist files (a cut row, a word or nan for a number): exit 1 naming the file and line, no figure' '
	head -c 200 c-cb.csv >cut.csv && t_err 1 "^ftlplot: .*cut.csv: line 2: 3 fields, its header has 11" "$P" -o rb --curve cut.csv &&
	sed "3s/^\([0-9]*\),[^,]*,/\1,nan,/" c-cb.csv >nan.csv &&
	t_err 1 "^ftlplot: .*nan.csv: line 3: field 2 is not a number: .nan." "$P" -o rb --curve nan.csv &&
	sed "5s/^\([a-z]*\),\([0-9]*\),[0-9]*,/\1,\2,zz,/" h-cb.csv >hz.csv &&
	t_err 1 "^ftlplot: .*hz.csv: line 5: field 3 is not a number: .zz." "$P" -o rb --hist hz.csv &&
	sed "3s/^\([0-9]*\),/\1,abc,/" e-cb.csv >ez.csv && t_err 1 "^ftlplot: .*ez.csv: line 3:" "$P" -o rb --erase ez.csv &&
	sed "4s/^[a-z]*,/1,/" h-cb.csv >hk.csv && t_err 1 "^ftlplot: .*hk.csv: line 4: field 1 is not a word" "$P" -o rb --hist hk.csv &&
	test ! -e rb/wa-curve.png && test ! -e rb/util-victims.png && test ! -e rb/erase-hist.png
'
t_expect_success 'ftlplot -- with a file option of its own (--curve, --hist, --erase-hist): a usage error, not overridden silently; a folder it made for a run that failed goes again' '
	for o in --curve --hist --erase-hist --curve=x.csv; do
		t_err 2 "ftlplot passes ${o%%=*} to ftlsim itself" "$P" -o own.d -- $o x.csv "$SAMPLES/msr/hm_0-head1000.csv" || return 1
	done &&
	test ! -e own.d && test ! -e x.csv &&
	t_err 2 "ftlsim rejected its arguments" "$P" -o bad.d -- --policy nonsense "$SAMPLES/msr/hm_0-head1000.csv" &&
	test ! -e bad.d && mkdir kept.d &&
	t_err 2 "ftlsim rejected its arguments" "$P" -o kept.d -- --policy nonsense "$SAMPLES/msr/hm_0-head1000.csv" && test -d kept.d
'
t_done
