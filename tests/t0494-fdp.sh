#!/bin/sh
# t0494-fdp: an NVMe Flexible Data Placement device (ftlsim --fdp, the
# placement fdp: models/place/place_fdp.c). Handles from the event's
# stream field (stream H + 1 is handle H) or from a host placement;
# reclaim groups; GC copies mixed (initially isolated) or kept per
# handle (persistently isolated); a reclaim unit of R segments; the
# statistics log's figures and each handle's WA. The check of the
# design: a circular FIFO and a uniform stream under separate handles
# give the write-weighted mix of WA 1 and the uniform stream's WA alone
# (same spare pages) within 0.5%; under one handle, strictly more.
. "$(dirname "$0")/lib.sh"
S="$BIN/ftlsim"

# A FIFO region [0,F) rewritten in order, R pages a request (stream s1),
# beside uniform random single-page writes over [F,F+Uu) (stream s2);
# a share q of the pages go to the FIFO.
cat >"$TMP/mix.awk" <<'EOF'
BEGIN { srand(seed); pos = 0; pf = q / (R * (1 - q) + q); w = 0
	while (w < n) {
		if (rand() < pf) { printf "%d W %d %d 0 0 %d\n", w * 1000, pos * 4096, R * 4096, s1; pos = (pos + R) % F; w += R }
		else { printf "%d W %d 4096 0 0 %d\n", w * 1000, (F + int(rand() * Uu)) * 4096, s2; w++ }
	} }
EOF
F=16384 UU=32768 SPARE=4992 WARM=750000 N=1500000
# Under the sanitizers (a quarter of the speed) a fifth of the writes:
# the cases that check the design's figures within 1% are skipped there
# (they are figures of scale; their code runs in the others).
CHECK_LINES=120000
t_sanitized && WARM=150000 N=300000 CHECK_LINES=40000
awk -v seed=7 -v n=$N -v F=$F -v Uu=$UU -v q=0.5 -v R=64 -v s1=1 -v s2=2 -f "$TMP/mix.awk" >"$TMP/mix.txt"
# the uniform stream alone, moved to page 0, and its pages before the
# mixed run's warm-up ends (the same writes measured)
awk -v F=$F '$7 == 2 { printf "%s W %d 4096 0 0 2\n", $1, $3 - F * 4096 }' "$TMP/mix.txt" >"$TMP/uni.txt"
UWARM=$(awk -v W=$WARM '{ if (w >= W) exit; w += $4 / 4096; if ($7 == 2) u += $4 / 4096 } END { print u }' "$TMP/mix.txt")
GEO="--pages-per-segment 64"
MIX="$GEO --logical-pages $((F + UU)) --physical-pages $((F + UU + SPARE)) --warmup-writes $WARM"
UNI="$GEO --logical-pages $UU --physical-pages $((UU + SPARE)) --warmup-writes $UWARM"

for iso in persistent initial; do
	t_expect_figure "$iso isolation: FIFO and uniform under their own handles give the mix of WA 1 and the uniform's WA alone within 0.5%" "
		\"$S\" -q --fdp handles=2,isolation=$iso $MIX mix.txt >mix.json &&
		\"$S\" -q --fdp handles=2,isolation=$iso $UNI uni.txt >uni.json &&
		jq -e -s '.[0] as \$m | .[1] as \$u
			| (\$u.measured.host_pages_written) as \$wu | (\$m.measured.host_pages_written) as \$w
			| (((\$w - \$wu) + \$wu * \$u.wa_measured) / \$w) as \$want
			| (\$m.wa_measured / \$want - 1 | fabs) < 0.005
			and \$m.fdp.per_handle[0].wa == 1 and \$m.fdp.per_handle[0].gc_pages_copied == 0
			and \$u.wa_measured > 2' mix.json uni.json >/dev/null
	"
	t_expect_figure "$iso isolation: the FIFO and the uniform stream under one handle: strictly more" "
		awk '{ \$7 = 1; print }' mix.txt >one.txt &&
		\"$S\" -q --fdp handles=2,isolation=$iso $MIX one.txt >one.json &&
		\"$S\" -q --fdp handles=2,isolation=$iso $MIX mix.txt >mix.json &&
		jq -e -s '.[0].wa_measured > .[1].wa_measured * 1.1' one.json mix.json >/dev/null
	"
done

t_expect_success 'the statistics log: host and media bytes written, media bytes erased; per handle, the pages and copies sum to the totals' '
	"$S" -q --fdp handles=2 $MIX mix.txt >m.json &&
	jq -e "(.fdp.host_bytes_written == .host_pages_written * 4096)
		and (.fdp.media_bytes_written == .flash_pages_written * 4096)
		and (.fdp.media_bytes_erased == .segments_cleaned * 64 * 4096)
		and ([.fdp.per_handle[].host_pages_written] | add) == .host_pages_written
		and ([.fdp.per_handle[].gc_pages_copied] | add) == .gc_pages_copied
		and .fdp.isolation == \"initial\" and .fdp.handles == 2 and .fdp.ru_segments == 1
		and ([.streams[].name] == [\"h0\", \"h1\", \"gc\"])" m.json >/dev/null
'

t_expect_success 'persistently isolated: the copies of a handle go to its own GC stream, and are its copies' '
	"$S" -q --fdp handles=2,isolation=persistent $MIX mix.txt >p.json &&
	jq -e "([.streams[].name] == [\"h0\", \"h1\", \"h0.gc\", \"h1.gc\"])
		and .streams[0].gc_pages_copied == 0 and .streams[1].gc_pages_copied == 0
		and .streams[3].gc_pages_copied == .fdp.per_handle[1].gc_pages_copied
		and .streams[2].gc_pages_copied == .fdp.per_handle[0].gc_pages_copied
		and .streams[1].gc_pages_of_its_writes == .fdp.per_handle[1].gc_pages_copied" p.json >/dev/null
'

t_expect_success 'reclaim groups: identifier g x H + h; names and counts per group' '
	awk "{ if (\$7 == 2) \$7 = 4; print }" mix.txt >rg.txt &&
	"$S" -q --fdp handles=2,groups=2 $MIX rg.txt >rg.json &&
	jq -e "([.streams[].name] == [\"rg0.h0\", \"rg0.h1\", \"rg1.h0\", \"rg1.h1\", \"rg0.gc\", \"rg1.gc\"])
		and .fdp.per_handle[3].reclaim_group == 1 and .fdp.per_handle[3].handle == 1
		and .fdp.per_handle[3].host_pages_written > 0 and .fdp.per_handle[1].host_pages_written == 0
		and .fdp.per_handle[0].wa == 1" rg.json >/dev/null
'

# A reclaim unit of 4 segments holds four of the FIFO's 64-page writes:
# GC may reclaim one that has died in part, so the FIFO's WA leaves 1.
t_expect_success 'a reclaim unit of 4 segments: the unit GC reclaims; larger than the FIFO writes, it costs the FIFO copies' '
	"$S" -q --fdp handles=2,ru=4 $MIX mix.txt >ru.json &&
	jq -e ".params.pages_per_segment == 256 and .fdp.ru_segments == 4 and .fdp.ru_pages == 256
		and .fdp.media_bytes_erased == .segments_cleaned * 256 * 4096
		and .fdp.per_handle[0].wa > 1.01" ru.json >/dev/null
'

t_expect_success 'a host placement decides the handles: single puts everything under handle 0, as one handle does' '
	awk "{ \$7 = 1; print }" mix.txt >one.txt &&
	"$S" -q --fdp handles=2 --host-placement single $MIX mix.txt >hs.json &&
	"$S" -q --fdp handles=2 $MIX one.txt >h1.json &&
	jq -e -s ".[0].wa_measured == .[1].wa_measured and .[0].fdp.host_placement == \"single\"
		and .[0].fdp.per_handle[1].host_pages_written == 0" hs.json h1.json >/dev/null
'

t_expect_success '--grid host-placement=off,NAME...: host placements compared on one FDP device in one pass, each as its own run' '
	"$S" -q --fdp handles=2 $MIX --grid "host-placement=off,single" mix.txt >hg.json &&
	"$S" -q --fdp handles=2 $MIX mix.txt >h0.json &&
	jq -e --slurpfile a h0.json --slurpfile b hs.json "[.configurations[] | .wa_measured] == [\$a[0].wa_measured, \$b[0].wa_measured] and
		.configurations[1].fdp.host_placement == \"single\" and (.configurations[0].fdp.host_placement | not)" hg.json >/dev/null &&
	t_err 2 "^ftlsim: --grid host-placement=single: --host-placement single: the device.s placement .single. does not follow the host.s handles" \
		"$S" -q $MIX --grid "host-placement=off,single" mix.txt
'
t_expect_success 'a host placement with state (sepbit) under --check: every handle it uses is within the device' '
	head -n $CHECK_LINES mix.txt >head.txt && # (--check over the first lines: a handle out of range shows at once)
	"$S" -q --fdp handles=4 --host-placement sepbit --check $MIX head.txt >sb.json 2>/dev/null &&
	jq -e "(.fdp.per_handle | map(select(.host_pages_written > 0)) | length) >= 2
		and ([.fdp.per_handle[].host_pages_written] | add) == .host_pages_written" sb.json >/dev/null
'

t_expect_success '--check: each live page in a reclaim unit of its handle, or of its handle'"'"'s (group'"'"'s) GC, both modes' '
	"$BIN/tracegen" -p hotcold -n 32768 -w 200000 -s 4 -o text 2>/dev/null |
		awk "BEGIN { srand(5) } !/^#/ { \$6 = 0; \$7 = int(rand() * 4) + 1; print }" >hs.txt &&
	for iso in initial persistent; do
		"$S" -q --logical-pages 32768 --op 0.15 --fdp handles=2,groups=2,isolation=$iso --check hs.txt >c.json &&
		"$S" -q --logical-pages 32768 --op 0.15 --fdp handles=2,groups=2,isolation=$iso hs.txt >n.json &&
		jq -e ".gc_passes > 100" c.json >/dev/null &&
		[ "$(jq -c "[.gc_pages_copied, .fdp]" c.json)" = "$(jq -c "[.gc_pages_copied, .fdp]" n.json)" ] || return 1
	done
'

t_expect_success 'per handle over the measured window: host pages and copies sum to the window'"'"'s, the weighted WA is the device'"'"'s' '
	for iso in initial persistent; do
		"$S" -q --logical-pages 32768 --op 0.15 --warmup-writes 100000 --fdp handles=2,groups=2,isolation=$iso \
			hs.txt >w.json &&
		jq -e "[.fdp.per_handle[] | .host_pages_measured] as \$h | [.fdp.per_handle[] | .gc_pages_copied_measured] as \$c |
			(\$h | add) == (.measured.host_pages_total - .measured.host_pages_before) and
			(((\$h | add) + (\$c | add)) / (\$h | add) - .wa_measured | fabs) < 1e-9 and
			([.fdp.per_handle[] | .host_pages_measured < .host_pages_written] | all)" w.json >/dev/null || {
			jq -c "[.fdp.per_handle, .measured, .wa_measured]" w.json; return 1; }
	done
'

t_expect_success 'a write whose handle the device lacks: exit 1, naming the line, the event and the identifier' '
	head -50 mix.txt >few.txt &&
	{ "$S" -q --fdp handles=1 $MIX few.txt >/dev/null 2>err; test $? = 1; } &&
	grep -q "few.txt:[0-9]* (event [0-9]*): placement .fdp.: a write of logical page [0-9]* carries stream 2, placement identifier 1; the device has 1" err
'

t_expect_success 'usage errors exit 2: a bad key, --fdp with --placement, a host placement without fdp or that cannot run on the host' '
	for a in "--fdp handles=2,bogus=1" "--fdp isolation=some" "--fdp handles=x" "--fdp handles=2 --placement sepbit" \
		"--host-placement hotcold" "--fdp handles=4 --host-placement midas" "--fdp handles=32,isolation=persistent" \
		"--placement fdp:H=2 --host-placement nosuch" "--fdp handles=2,handles=3" "--fdp handles=2,,ru=1" "--fdp ," \
		"--fdp handles=1 --host-placement sepbit" "--fdp handles" "--fdp =2"; do
		"$S" -q $a $MIX few.txt >/dev/null 2>err; rc=$?
		[ $rc = 2 ] || { echo "$a: exit $rc"; cat err; exit 1; }
	done
'

# A host log on an FDP device: its writes carry the host log's stream
# as the handle. With its GC copies in a stream of their own (sepgc),
# a block device mixes the two streams' pages in its segments (WA > 1
# even aligned); under two handles each reclaim unit holds one host
# segment's pages, and the device's WA is 1.
t_expect_success 'a host log on FDP: its streams are handles; aligned and discarded, the device WA is 1 where a block device copies' '
	"$T_TOP/bin/tracegen" -p hotcold --fill -n 16384 -w 98304 --trim-prob 0.2 -s 2 -o bin >hc.ev 2>/dev/null &&
	L="--logical-pages 16384 --op 0.07 --pages-per-segment 64 --warmup-writes 49152 --host-lfs segment=256K,placement=sepgc" &&
	"$S" -q $L hc.ev >blk.json && "$S" -q $L --fdp handles=2 hc.ev >fdp.json &&
	jq -e -s ".[0].host_lfs.wa_device > 1.1 and .[1].host_lfs.wa_device == 1
		and .[0].host_lfs.wa_host == .[1].host_lfs.wa_host
		and (.[1].fdp.per_handle | map(.host_pages_written > 0) | all)" blk.json fdp.json >/dev/null
'

t_expect_success 'a grid over FDP placements takes a host placement; one cell that takes none is a usage error naming it (per volume: said, with why)' '
	"$S" -q --grid "placement=fdp:H=2,fdp:H=4" --host-placement single $MIX mix.txt >g.json &&
	jq -e "[.configurations[].wa_measured] | length == 2 and .[0] == .[1]" g.json >/dev/null &&
	{ "$S" -q --grid "placement=single,fdp:H=4" --host-placement single $MIX few.txt >/dev/null 2>err; test $? = 2; } &&
	grep -q "placement=single: placement .single. takes no host placement" err &&
	bzcat "$SAMPLES/tencent/cbs-sample.csv.bz2" >cbs.csv &&
	"$S" -q -j 1 -f tencent --per-volume --volumes top:3 --logical-space footprint --pages-per-segment 16 \
		--grid "placement=single,fdp:H=2" --host-placement hotcold cbs.csv >/dev/null 2>pv.err &&
	grep -q "warning: placement=single: every volume was refused when built (3), the first because: placement .single. takes no host placement" pv.err
'

t_expect_success 'in time a reclaim unit of R segments erases R blocks on each slot it is striped over, on its die in layout=die' '
	"$T_TOP/bin/tracegen" -q -p uniform -n 16384 -w 40000 -o bin >ru.ev &&
	for l in stripe die; do for r in 1 4; do
		"$S" -q --device femu,channels=2,dies=2,tr_us=0,tprog_us=0,xfer_us=0,layout=$l --op 0.2 --pages-per-segment 64 \
			--logical-pages 16384 --fdp ru=$r ru.ev 2>/dev/null |
			jq -r "\"$l $r \" + (.timing.unit_busy_s * 1000 / .segments_cleaned | tostring)" || return 1
	done; done >got &&
	printf "stripe 1 8\nstripe 4 32\ndie 1 2\ndie 4 8\n" >want && t_cmp want got
'
t_expect_success '--fdp on: the defaults; --dry-run sizes a reclaim unit of R segments as the run does' '
	"$S" -q --fdp on $MIX few.txt | jq -e ".fdp.handles == 8 and .fdp.isolation == \"initial\"" >/dev/null &&
	"$S" -q --fdp handles=2,ru=4 --dry-run $MIX few.txt 2>/dev/null | jq -e ".params.pages_per_segment == 256" >/dev/null
'

t_expect_success 'a zoned device has no placement (--fdp refused) and resets what a host log cleans (discard=off refused)' '
	t_err 2 "a zoned device has no placement of its own" "$S" --logical-pages 65536 --zoned size=1M --fdp handles=2 few.txt &&
	t_err 2 "discard=off on a zoned device" "$S" --logical-pages 65536 --zoned size=1M --host-lfs segment=1M,discard=off few.txt
'

# A host placement's host writes need a handle each: sepbit writes to
# two classes (its other four take GC copies, the device's here),
# hotcold:4 and oracle:4 to all four. Refused before any input is read
# (a missing trace is not reached; per volume, where a refused model
# would only be skipped, too), as a usage error naming both counts; a
# host log's streams likewise (its GC copies' too).
t_expect_success 'a host placement with more streams than the device has handles: exit 2 before the run, naming both' '
	t_err 2 "host placement .sepbit. sends host writes to 2 streams .*; the device has 1 \(1 handle x 1 reclaim group\)" \
		"$S" -q --fdp handles=1 --host-placement sepbit $MIX no-such-trace && test ! -s "$TMP/.stdout" &&
	t_err 2 "host placement .sepbit. sends host writes to 2 streams" \
		"$S" -q --per-volume --fdp handles=1 --host-placement sepbit mix.txt &&
	t_err 2 "host placement .hotcold. sends host writes to 4 streams, each a handle; the device has 2 \(2 handles x 1 reclaim group\)" \
		"$S" -q --fdp handles=2 --host-placement hotcold:4 $MIX mix.txt &&
	t_err 2 "host placement .oracle. sends host writes to 4 streams, each a handle; the device has 2 \(1 handle x 2 reclaim groups\)" \
		"$S" -q --placement fdp:H=1,G=2 --host-placement oracle:4 $MIX mix.txt &&
	t_err 2 "placement=fdp:H=1: placement .fdp.: host placement .sepbit." \
		"$S" -q --grid "placement=fdp:H=4,fdp:H=1" --host-placement sepbit $MIX mix.txt &&
	t_err 2 "host placement .sepbit. sends host writes to 2 streams" \
		"$S" -q --fdp handles=1 --host-placement sepbit --dry-run $MIX mix.txt &&
	"$S" -q --fdp handles=2 --host-placement sepbit $MIX few.txt >sb2.json &&
	"$S" -q --fdp handles=2,groups=2 --host-placement hotcold:4 $MIX few.txt >hc4.json &&
	t_err 2 "--host-lfs placement=sepgc writes 2 streams .*FDP device, which has 1 \(1 handle x 1 reclaim group\)" \
		"$S" -q --per-volume --host-lfs segment=256K,placement=sepgc --fdp handles=1 hc.ev &&
	t_err 2 "the host log places its writes itself" \
		"$S" -q --logical-pages 16384 --host-lfs segment=1M --fdp handles=2 --host-placement single hc.ev
'

# The model refuses too little spare space in units of its segment, here
# a reclaim unit of K segments: --pages-per-segment auto helps only when
# it gives a smaller segment than the one given, and a smaller K always.
t_expect_success 'too little spare with reclaim units of K segments: advice for K, in the run and in --dry-run (exit 2, the refusal in the JSON)' '
	t_err 2 "raise the over-provisioning or use smaller reclaim units \(--fdp ru below 4\)$" \
		"$S" -q --logical-pages 16384 --pages-per-segment 64 --fdp handles=2,ru=4 hc.ev &&
	t_err 2 "raise the over-provisioning or use smaller reclaim units \(--fdp ru=1\)$" \
		"$S" -q --logical-pages 4096 --pages-per-segment auto --fdp handles=2,ru=2 hc.ev &&
	t_err 2 ", use smaller segments \(--pages-per-segment auto: 64 pages, reclaim units of 128\) or smaller reclaim units \(--fdp ru=1\)$" \
		"$S" -q --logical-pages 4096 --pages-per-segment 256 --fdp handles=2,ru=2 hc.ev &&
	t_err 2 "too little spare space: .*\(--fdp ru below 4\)$" \
		"$S" -q --logical-pages 16384 --pages-per-segment 64 --fdp handles=2,ru=4 --dry-run hc.ev &&
	jq -e ".refused | test(\"^too little spare space: 16384 logical pages need at least 69 segments of 256 pages\")" "$TMP/.stdout" &&
	"$S" -q --logical-pages 16384 --pages-per-segment 64 --op 0.1 --fdp handles=2,ru=4 --dry-run hc.ev | jq -e ".refused == null"
'

# A text event file whose first line has a bad stream: detected as the
# event stream all the same, and the reader names the file and line.
t_expect_success 'an event file whose first line carries a bad stream: exit 1 naming the file, the line and the field' '
	t_err 1 "ev/bad/stream.txt:1: bad stream .70000. \(0 to 65535\)" "$S" -q --logical-pages 4096 --pages-per-segment 16 \
		--fdp handles=2 "$DATA/ev/bad/stream.txt"
'

t_expect_success '--results over a grid whose last configuration is FDP: its fdp.* columns kept, empty in the others, every row as wide' '
	"$S" -q --grid "placement=single,sepgc,fdp:H=2" --results r.csv $MIX mix.txt >r.json &&
	test $(awk -F, "{ print NF }" r.csv | sort -u | wc -l) = 1 &&
	python3 - <<-PY
	import csv, json
	rows = list(csv.DictReader(open("r.csv")))
	j = json.load(open("r.json"))["configurations"]
	assert [r["placement"] for r in rows] == ["single", "sepgc", "fdp:H=2"], rows
	assert rows[0]["fdp.handles"] == "" and rows[1]["fdp.media_bytes_written"] == ""
	assert int(rows[2]["fdp.handles"]) == 2
	assert int(rows[2]["fdp.media_bytes_written"]) == j[2]["fdp"]["media_bytes_written"]
	PY
'

t_expect_success 'the dry run of GC that yields on reclaim units of R segments: a grid cell as the single run' '
	"$BIN/tracegen" -q -p uniform -n 65536 -w 1000 -o bin >ru.ev &&
	D="--dry-run --logical-pages 4194304 --op 0.28 --pages-per-segment 64 --bg-gc idle=1,high=8 --fdp ru=4" &&
	one=$("$S" $D ru.ev 2>/dev/null | jq .memory.model_bytes) &&
	"$S" $D --grid seed=1,2 ru.ev 2>/dev/null | jq -e "[.per_model[].model_bytes] == [$one, $one]"
'
t_done
