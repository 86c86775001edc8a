#!/bin/sh
# tracestat: counts, footprint, discard share, skew, overwrite ratio.
. "$(dirname "$0")/lib.sh"

# 3 writes of page 0, 1 write each of pages 1..9, a discard of pages 0-1
# (fully covered) and a partial one of page 5 (not counted), a read.
{
	echo "0 W 0 4096 0"
	echo "1 W 0 4096 0"
	echo "2 W 0 4096 0"
	for p in 1 2 3 4 5 6 7 8 9; do echo "$((p + 2)) W $((p * 4096)) 4096 0"; done
	echo "20 D 0 8192 0"
	echo "21 D 20480 100 0"
	echo "22 R 0 512 0"
	echo "1000000022 F 0 0 0"
} >"$TMP/t.txt"

j() { python3 -c "import json,sys; d=json.load(open('$TMP/s.json'))['traces'][0]; print($1)"; }

t_expect_success 'tracestat runs and writes JSON' '"$BIN/tracestat" -q t.txt >s.json'
t_expect_success 'per-op requests and bytes' '
	test "$(j "d[\"ops\"][\"write\"][\"requests\"], d[\"ops\"][\"write\"][\"bytes\"], d[\"ops\"][\"discard\"][\"requests\"], d[\"ops\"][\"read\"][\"bytes\"], d[\"ops\"][\"flush\"][\"requests\"]")" = "12 49152 2 512 1"
'
t_expect_success 'footprint: 10 pages written, 1 read, 2 discarded (partial discard ignored)' '
	test "$(j "d[\"footprint\"][\"pages_written\"], d[\"footprint\"][\"pages_read\"], d[\"footprint\"][\"pages_discarded\"]")" = "10 1 2"
'
t_expect_success 'share of written pages later discarded = 2/10' '
	test "$(j "d[\"written_pages_later_discarded_share\"]")" = "0.2"
'
t_expect_success 'overwrite ratio = (12-10)/12 and duration 1.000000022 s' '
	test "$(j "round(d[\"overwrite_ratio\"],6), d[\"duration_s\"]")" = "0.166667 1.000000022"
'
t_expect_success 'write skew: hottest 10% (1 page) takes 3/12 of writes' '
	test "$(j "d[\"write_skew\"][\"hottest_10pct\"], d[\"write_skew\"][\"hottest_20pct\"]")" = "0.25 0.3333333333"
'
t_expect_success '--csv writes file,metric,value rows' '
	"$BIN/tracestat" -q --csv t.txt >s.csv && head -1 s.csv | grep -qx "file,metric,value" &&
	grep -qx "t.txt,ops.write.requests,12" s.csv
'
t_expect_success '--csv prints each number as the JSON does (integers whole, reals to 10 digits)' '
	grep -qx "t.txt,duration_s,1.000000022" s.csv &&
	grep -qx "t.txt,write_skew.hottest_20pct,0.3333333333" s.csv &&
	"$BIN/tracestat" -q --csv "$SAMPLES/msr/hm_0-head1000.csv" >m.csv &&
	grep -qx ".*,ops.read.bytes,6108672" m.csv && grep -qx ".*,overwrite_ratio,0.4925213675" m.csv &&
	tail -n +2 m.csv | cut -d, -f3 | awk "/\\./ { sub(/^0\\.0*/, \"\"); gsub(/[^0-9]/, \"\"); if (length(\$0) > 10) bad++ } END { exit bad > 0 }"
'
t_expect_success '--csv has the text, true/false and null values too, text quoted as CSV needs' '
	"$BIN/tracestat" -q --csv "$SAMPLES/tencent/cbs-sample.csv.bz2" >c.csv 2>/dev/null &&
	grep -qx ".*,format,tencent" c.csv && grep -qx ".*,idle.timestamps,true" c.csv &&
	grep -qx ".*,idle.idle_share," c.csv &&
	grep -q ",idle.note,\"[^\"]*,[^\"]*\"\$" c.csv &&
	test "$(grep -c ",file," c.csv)" = 0 &&
	test "$(tail -n +2 c.csv | wc -l)" = "$(python3 -c "
import json, subprocess
d = json.loads(subprocess.run([\"$BIN/tracestat\", \"-q\", \"$SAMPLES/tencent/cbs-sample.csv.bz2\"], capture_output=True).stdout)[\"traces\"][0]
def n(o): return sum(n(v) if isinstance(v, dict) else (0 if isinstance(v, list) else 1) for v in o.values())
print(n(d) - 1)")"
'
t_expect_success '--size-hist and --skew-cdf write CSV with headers' '
	"$BIN/tracestat" -q --size-hist h.csv --skew-cdf k.csv t.txt >/dev/null &&
	grep -qx "t.txt,write,<=4K,4096,12" h.csv && tail -1 k.csv | grep -qx "t.txt,1.000000,1.000000"
'
t_expect_success 'a flush has no size bucket: no request_size_hist.flush, no flush rows in --size-hist; the <=512 buckets hold the 512-byte read and the 100-byte discard alone' '
	"$BIN/tracestat" -q --size-hist h.csv t.txt >s.json &&
	test "$(j "d[\"ops\"][\"flush\"][\"requests\"], \",\".join(sorted(d[\"request_size_hist\"])), sum(h[\"<=512\"] for h in d[\"request_size_hist\"].values())")" = "1 discard,read,write 2" &&
	! grep -q ",flush," h.csv && grep -qx "t.txt,read,<=512,512,1" h.csv &&
	test "$(awk -F, "\$3 == \"<=512\" { n += \$5 } END { print n }" h.csv)" = 2 &&
	"$BIN/tracestat" -q --csv t.txt | grep -c "request_size_hist\.flush" | grep -qx 0
'
t_expect_success 'a read, write or discard of length 0 has no size bucket either: counted in ops and zero_length_requests' '
	printf "0 W 0 0 0 1\n1000 W 4096 4096 0 1\n2000 R 0 0 0 1\n3000 D 8192 0 0 1\n" >z.txt &&
	"$BIN/tracestat" -q -f ev --size-hist zh.csv z.txt >z.json &&
	jq -e ".traces[0] | .zero_length_requests == 3 and .ops.write.requests == 2 and .ops.read.requests == 1 and
		([.request_size_hist[][]] | add) == 1 and .request_size_hist.write[\"<=4K\"] == 1" z.json >/dev/null &&
	test "$(awk -F, "NR > 1 { n += \$5 } END { print n }" zh.csv)" = 1
'
t_expect_success 'same input, same output, byte for byte' '
	"$BIN/tracestat" -q t.txt >a.json && "$BIN/tracestat" -q t.txt >b.json && t_cmp a.json b.json
'
t_expect_status 2 'bad --page-size is a usage error' '"$BIN/tracestat" --page-size 1000 t.txt'
t_expect_success 'bad input: exit 1 and no partial JSON on stdout' '
	printf "0 W 0 4096 0\n1 W zz 4096 0\n" >bad.txt &&
	t_err 1 "bad.txt:2" "$BIN/tracestat" -f ev bad.txt && test ! -s "$TMP/.stdout"
'
t_expect_success 'every program that takes options states its exit statuses in --help' '
	for p in tracecat tracestat ftlsim tracegen wamodel ftlplot; do
		"$BIN/$p" --help | grep -q "^Exit status: 0 ok, 1 .*, 2 usage error" || { echo "$p"; exit 1; }
	done
'
t_expect_success 'huge and overlapping discards cost extents, not pages: 64 x 4 GiB in little memory' '
	{ echo "0 W 0 4096 0"; i=0; while [ $i -lt 64 ]; do echo "$((i + 1)) D $((i * 2147483648)) 4294963200 0"; i=$((i + 1)); done; } >huge.txt &&
	/usr/bin/time -f "%M" -o rss.txt "$BIN/tracestat" -q huge.txt >h.json &&
	python3 -c "
import json
d = json.load(open(\"h.json\"))[\"traces\"][0]
# extents [i*2^31, i*2^31 + 2^32 - 4096) overlap: union = 65 * 2^31 - 4096 bytes
assert d[\"footprint\"][\"pages_discarded\"] == (65 * 2**31 - 4096) // 4096, d[\"footprint\"]
assert d[\"written_pages_later_discarded_share\"] == 1.0
" && test $(cat rss.txt) -lt 100000
'
t_expect_success '--per-volume: a row per volume, each what --volume V reports; CSV and JSON agree' '
	TC="$SAMPLES/tencent/cbs-sample.csv.bz2" &&
	"$BIN/tracestat" -q --per-volume pv.csv "$TC" >all.json 2>/dev/null &&
	"$BIN/tracestat" -q --per-volume pv.json "$TC" >/dev/null 2>/dev/null &&
	test $(tail -n +2 pv.csv | wc -l) -eq 2038 && test $(jq length pv.json) -eq 2038 &&
	test "$(awk -F, "NR > 1 { n += \$2 } END { print n }" pv.csv)" = "$(jq ".traces[0].events" all.json)" &&
	command jq -r ".[] | [.[]] | map(tostring) | join(\",\")" pv.json | awk -F, "{ \$13 = \$13 + 0; \$14 = \$14 + 0; print }" >j.txt &&
	tail -n +2 pv.csv | awk -F, "{ \$13 = \$13 + 0; \$14 = \$14 + 0; print }" >c.txt && t_cmp c.txt j.txt &&
	for v in 1063 1058 $(sort -t, -k11,11nr pv.csv | head -2 | cut -d, -f1); do
		"$BIN/tracestat" -q --volume $v "$TC" 2>/dev/null |
			jq -r ".traces[0] | [.events, .ops.read.requests, .ops.write.requests, .ops.write.bytes,
				.footprint.pages_written, .page_writes] | map(tostring) | join(\",\")" >one.txt &&
		grep "^$v," pv.csv | cut -d, -f2,3,4,8,10,11 >row.txt && t_cmp one.txt row.txt || exit 1
	done &&
	bzcat "$TC" >tc.csv && head -n 20000 tc.csv >tc1.csv && tail -n +20001 tc.csv | gzip >tc2.csv.gz &&
	"$BIN/tracestat" -q --per-volume pv2.csv tc1.csv tc2.csv.gz >/dev/null 2>&1 && t_cmp pv.csv pv2.csv
'
t_expect_success 'a side file named -: a usage error (standard output holds the result)' '
	printf "0 W 0 4096 0\n" >one.txt &&
	for o in --size-hist --skew-cdf --per-volume; do
		t_err 2 "^tracestat: $o -: standard output carries the summary: name a file, not -" "$BIN/tracestat" $o - one.txt ||
			return 1
	done
'
t_expect_success 'a side file that cannot be written: said before the trace is read, exit 1' '
	mkfifo never.fifo &&
	for o in --size-hist --skew-cdf --per-volume; do
		# no one writes the FIFO: opening it to read would wait (timeout: 124)
		t_err 1 "^tracestat: cannot write .nodir/x.csv.: No such file" timeout 10 "$BIN/tracestat" -q $o nodir/x.csv never.fifo ||
			return 1
	done
'
t_expect_success 'file names with a comma or a double quote are quoted in every CSV (RFC 4180)' '
	printf "0 W 0 4096 0\n" >"a,b \"c\".txt" &&
	"$BIN/tracestat" -q --csv --size-hist qh.csv --skew-cdf qk.csv "a,b \"c\".txt" >q.csv &&
	grep -qx "\"a,b \"\"c\"\".txt\",events,1" q.csv &&
	grep -qx "\"a,b \"\"c\"\".txt\",write,<=4K,4096,1" qh.csv &&
	grep -qx "\"a,b \"\"c\"\".txt\",1.000000,1.000000" qk.csv
'
t_expect_success 'filters that keep no event: said on stderr, the summary of none, exit 0' '
	printf "0 W 0 4096 0\n1000 W 4096 4096 0\n" >two.txt &&
	"$BIN/tracestat" -q --volume 7 two.txt >none.json 2>err &&
	grep -qx "tracestat: two.txt: volume 7 is not in the trace (none of its 2 events; --volume): the summary is of no event" err &&
	"$BIN/tracestat" -q --volume 0 --start 5 two.txt >/dev/null 2>err &&
	grep -qx "tracestat: two.txt: none of the trace.s 2 events is kept by --volume 0, --start: the summary is of no event" err &&
	jq -e ".traces[0].events == 0" none.json >/dev/null &&
	"$BIN/tracestat" -q --volume 0 two.txt >/dev/null 2>err && ! test -s err
'
t_expect_success 'a trace whose times span more than 2^63 ns: its duration, not an overflow' '
	printf "0 W 0 4096 0\n9223372036854775807 W 0 4096 0\n-9223372036854775808 W 0 4096 0\n" >wide.txt &&
	"$BIN/tracestat" -q --per-volume wide.csv wide.txt >wide.json 2>/dev/null &&
	jq -e ".traces[0].duration_s > 1.8e10" wide.json >/dev/null &&
	tail -n 1 wide.csv | cut -d, -f13 | grep -qx "1.84467441e+10"
'
t_expect_success '--json and --csv together: a usage error (either order); either given twice is the one' '
	t_err 2 "^tracestat: --json and --csv contradict each other" "$BIN/tracestat" -q --json --csv t.txt &&
	t_err 2 "^tracestat: --json and --csv contradict each other" "$BIN/tracestat" -q --csv --json t.txt &&
	"$BIN/tracestat" -q --csv --csv t.txt | head -1 | grep -qx "file,metric,value"
'
t_done
