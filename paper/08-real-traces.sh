#!/bin/sh
# paper/08-real-traces.sh - figure 8: WA of every trace under traces/
# per victim policy, with and without TRIM, at two over-provisioning
# levels; the traces' request sizes and write skew.
#   sh paper/08-real-traces.sh OUT 08-real-traces   (from make paper)
O=$1 FIG=$2
. ./paper/lib.sh
load_params
T=$O/traces
# A short label per trace: its file name without the usual suffixes.
name_of() {
	basename "$1" | sed 's/\.\(gz\|bz2\|xz\|zst\)$//; s/\.\(csv\|txt\|blkparse\)$//; s/\.blkparse$//'
}
# (for the plots' axes and keys: past 24 characters, the first 8 of
# what comes before its first '-', a '~', and all after it, the part
# that tells the samples of one source apart; the traces table has the
# whole name)
label() { name_of "$1" | awk '{ i = index($0, "-"); print (length($0) > 24 && i > 9 ? substr($0, 1, 8) "~" substr($0, i + 1) : $0) }'; }
: >"$D/long.csv"
# Every run's result from one jq (not two a run), joined to the index in
# the order of the traces, policies, OP and TRIM settings.
# shellcheck disable=SC2046
jfields wa_total skipped -- $(awk -F, -v r="$R" '$1 == "all" { print r "/" $6 ".json" }' "$D/tindex.csv" | sort -u) >"$D/.fields"
awk -F'|' -v pols="$POLICIES" -v ops="$OPS" -v trs="$TRIMS" '
	FILENAME == ARGV[1] { split($0, f, "\t"); wa[f[1]] = f[2]; sk[f[1]] = f[3]; gsub(/,/, ";", sk[f[1]]); next }
	FILENAME == ARGV[2] { split($0, f, ","); if (f[1] == "all") h[f[2] "," f[3] "," f[4] "," f[5]] = f[6]; next }
	{
		np = split(pols, P, " "); no = split(ops, O, " "); nt = split(trs, T, " ")
		for (a = 1; a <= np; a++) for (b = 1; b <= no; b++) for (c = 1; c <= nt; c++) {
			k = $1 "," P[a] "," O[b] "," T[c]; x = h[k]
			print k "," wa[x] "," sk[x]
		}
	}' "$D/.fields" "$D/tindex.csv" "$D/traces.txt" >"$D/long.csv"
rm -f "$D/.fields"
# Each trace's label, once.
while IFS='|' read -r id path; do
	printf '%s|%s\n' "$id" "$(label "$path")"
done <"$D/traces.txt" >"$D/.labels"
# One row per trace of the (OP, TRIM) panel $1 $2, a column per policy:
# FMT (printf) of each WA, EMPTY for a run skipped; with ONLY=disc, the
# traces that discard only, with ONLY=ran those with a result.
rows() {
	awk -F, -v o="$1" -v t="$2" -v pols="$POLICIES" -v fmt="$3" -v empty="$4" -v only="$5" -v sep="$6" -v end="$7" -v disc="${disc:-}" '
		BEGIN { np = split(pols, P, " "); nd = split(disc, Q, "|"); for (i = 1; i <= nd; i++) if (Q[i] != "") d[Q[i]] = 1 }
		FILENAME == ARGV[1] {
			if ($3 == o && $4 == t) { v[$1 "," $2] = ($5 != "" || empty == "") ? sprintf(fmt, $5) : empty; if ($5 != "") ran[$1] = 1 }
			next
		}
		{
			id = $0; sub(/\|.*/, "", id); lab = substr($0, length(id) + 2)
			if ((only == "ran" && !(id in ran)) || (only == "disc" && !(id in d))) next
			printf "%s", lab
			for (a = 1; a <= np; a++) printf "%s%s", sep, v[id "," P[a]]
			print end
		}' "$D/long.csv" "$D/.labels"
}
panels=
for op in $OPS; do for tr in $TRIMS; do
	f=$D/wa-op$op-$tr.csv
	{
		printf 'trace'
		for pol in $POLICIES; do printf ',%s' "$pol"; done
		echo
		rows "$op" "$tr" "%.4f" "" ran , ""
	} >"$f"
	pct=$(calc "$op * 100")
	panels="$panels${panels:+;}$f|OP $pct%, $(echo $tr | sed 's/no-trim/no TRIM/; s/^trim$/TRIM/')"
done; done
gpvars real-wa <<EOV
title = "Real traces: WA per victim policy (footprint logical space, drive filled at random first, b per trace)"
panels = "$panels"
EOV
sizes= skew=
while IFS='|' read -r id path; do
	[ "$(sed -n 's/^page_writes=//p' "$T/$id.info")" -gt 0 ] || continue
	sizes="$sizes${sizes:+;}$T/$id.sizes.csv|$(label "$path")"
	skew="$skew${skew:+;}$T/$id.skew.csv|$(label "$path")"
done <"$D/traces.txt"
gpvars real-sizes <<EOV
title = "Request sizes of the traces"
size_h = 560
files = "$sizes"
EOV
gpvars real-skew <<EOV
title = "Write skew of the traces"
files = "$skew"
EOV
# Tables.
{
	echo "**The traces** (as prepared by paper/prep-trace.sh; b = pages per segment chosen for the footprint):"
	echo
	echo "| trace | format | action | volume (of) | events | write requests | discards | pages written (footprint) | page writes | written pages later discarded | b |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|"
	while IFS='|' read -r id path; do
		i=$T/$id.info
		v() { sed -n "s/^$1=//p" "$i"; }
		bb=$(v b)
		[ -z "$(v skip)" ] || bb="- (skipped)"
		echo "| $(name_of "$path") | $(v format) | $(v action) | $(v volume) ($(v volumes)) | $(v events) | $(v write_requests) | $(v discard_requests) | $(v pages_written) | $(v page_writes) | $(fmt "$(v written_pages_later_discarded_share)") | $bb |"
	done <"$D/traces.txt"
	echo
	# Which traces discard: TRIM changes nothing on the others.
	disc= nodisc=
	while IFS='|' read -r id path; do
		if [ "$(sed -n 's/^discard_requests=//p' "$T/$id.info")" -gt 0 ] 2>/dev/null; then disc="$disc|$id"
		else nodisc="$nodisc, $(label "$path")"; fi
	done <"$D/traces.txt"
	echo "Traces that discard: $(for id in $(echo "$disc" | tr '|' ' '); do printf '%s (%s discards); ' "$(label "$(awk -F'|' -v i="$id" '$1 == i { print $2 }' "$D/traces.txt")")" "$(sed -n 's/^discard_requests=//p' "$T/$id.info")"; done | sed 's/; $//')."
	echo "Traces with no discard, whose WA is the same with and without TRIM (checked below), so the TRIM tables leave them out: ${nodisc#, }."
	echo
	for op in $OPS; do for tr in $(printf '%s\n' $TRIMS | sort); do
		if [ "$tr" = trim ]; then
			echo "**WA, OP $(calc "$op * 100")%, TRIM** (the traces that discard; the others as without TRIM):"
		else
			echo "**WA, OP $(calc "$op * 100")%, $(echo $tr | sed 's/no-trim/no TRIM/; s/^trim$/TRIM/')** (every trace):"
		fi
		echo
		printf '| trace |'; for pol in $POLICIES; do printf ' %s |' "$pol"; done; echo
		printf '|---|'; for pol in $POLICIES; do printf -- '---|'; done; echo
		rows "$op" "$tr" "%.3f" skipped "$([ "$tr" = trim ] && echo disc)" " | " " |" | sed 's/^/| /'
		echo
	done; done
	skipped=$(awk -F, '$5 == "" { print $1 ": " $6 }' "$D/long.csv" | sort -u)
	if [ -n "$skipped" ]; then
		echo "Skipped (too small for the model at that over-provisioning):"
		echo
		echo "$skipped" | sed 's/^/- /'
		echo
	fi
} >>"$D/extra.md.new"
nt=$(grep -c . "$D/traces.txt")
nr=$(grep -c . "$D/long.csv")
want=$((nt * $(echo $POLICIES | wc -w) * $(echo $OPS | wc -w) * $(echo $TRIMS | wc -w)))
nbad=$(awk -F, '$5 == "" && $6 == "" { n++ } END { print n + 0 }' "$D/long.csv")
nskip=$(awk -F, '$5 == "" && $6 != "" { n++ } END { print n + 0 }' "$D/long.csv")
check real.rows yes "$nr == $want && $nbad == 0" "$nt traces x $(echo $POLICIES | wc -w) policies x $(echo $OPS | wc -w) OP x $(echo $TRIMS | wc -w) TRIM settings: $nr of $want runs, $((nr - nskip)) results, $nskip skipped with their reason (listed under the tables), $nbad missing without one"
nlow=$(awk -F, '$5 != "" && $5 < 1 - 1e-9 { n++ } END { print n + 0 }' "$D/long.csv")
check real.wa-ge-1 yes "$nlow == 0" "every real-trace WA is at least 1 ($nlow below)"
# TRIM never hurts on a trace with discards (greedy).
awk -F, '$2 == "greedy" && $5 != "" { w[$1 "," $3 "," $4] = $5 } END { for (k in w) { split(k, a, ","); if (a[3] == "trim" && ((a[1] "," a[2] ",no-trim") in w)) print a[1], a[2], w[k], w[a[1] "," a[2] ",no-trim"] } }' "$D/long.csv" | sort |
	while read -r id op t n; do
		dq=$(sed -n 's/^discard_requests=//p' "$T/$id.info")
		[ "${dq:-0}" -gt 0 ] || continue
		check "real.trim.$id.op$op" yes "$t <= $n" "$id, OP $op, greedy: WA with TRIM $(fmt "$t") <= without $(fmt "$n") ($dq discards)"
	done
# No discard: TRIM cannot change anything.
nsame=$(awk -F, '$5 != "" { w[$1 "," $2 "," $3 "," $4] = $5 } END { for (k in w) { split(k, a, ","); if (a[4] == "trim") print a[1], w[k], w[a[1] "," a[2] "," a[3] ",no-trim"] } }' "$D/long.csv" |
	while read -r id t n; do
		[ "$(sed -n 's/^discard_requests=//p' "$T/$id.info")" = 0 ] || continue
		[ "$t" = "$n" ] && echo same || echo differ
	done | sort | uniq -c | awk '{ n[$2] = $1 } END { printf "%d %d", n["same"] + 0, n["same"] + n["differ"] }')
rm -f "$D/.labels"
check real.notrim-same yes "${nsame% *} == ${nsame#* }" "traces without discards: WA with TRIM equals WA without in ${nsame% *} of ${nsame#* } runs"
{
	echo "Every trace under traces/ (the bundled samples and any dropped there; a blktrace per-CPU set counts once),"
	echo "for the victim policies $(echo $POLICIES | sed 's/ /, /g'), with and without TRIM, at OP = $(echo $OPS | sed 's/ / and /')."
	echo "The samples are small and write most pages once, so: the logical space is the trace's footprint"
	echo "(\`--logical-space footprint\`: distinct pages written, renumbered; a cloud volume spans far more than it touches),"
	echo "the drive is first filled once in random order (\`--precondition random\`, an aged drive; on a fresh one WA stays 1),"
	echo "the segment size b is the largest power of two up to $(sed -n 's/^B_MAX=//p' paper/traces.params) pages that leaves"
	echo "$(sed -n 's/^MIN_SEGS=//p' paper/traces.params) segments in the footprint (a trace that cannot is skipped),"
	echo "multi-volume traces are cut to their busiest volume, events are sorted by time, and a trace with no issue (D)"
	echo "events uses its queue or completion events. WA is over the whole trace (\`wa_total\`)."
	echo "No published values exist for these samples: the table below is the result."
	echo
	h=$(awk -F, 'NR == 2 { print $6 }' "$D/tindex.csv")
	tid=$(awk -F, 'NR == 2 { print $2 }' "$D/tindex.csv")
	ti=$T/$tid.info
	echo "One run, as a command line (the first trace, prepared as the event stream $T/$tid.ev, with the"
	echo "segment size and curve interval chosen for it):"
	echo
	echo "    bin/ftlsim $(sed -n "s/^sim='\(.*\)'$/\1/p" "$R/$h.args" | sed "s/--pages-per-segment auto/--pages-per-segment $(sed -n 's/^b=//p' "$ti")/; s/--interval auto/--interval $(sed -n 's/^interval=//p' "$ti")/")$(outputs_of "$h") $T/$tid.ev"
	echo
} >"$D/setup.md"
finish
