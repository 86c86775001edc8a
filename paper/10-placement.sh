#!/bin/sh
# paper/10-placement.sh - figure 10: WA of the placement schemes of the
# literature on synthetic workloads and the bundled real traces, future
# knowledge as the reference, wamodel's one-log and separated-pools models.
#   sh paper/10-placement.sh OUT 10-placement   (from make paper)
O=$1 FIG=$2
. ./paper/lib.sh
load_params
# A scheme's column header (no comma: the tables are CSV).
head_of() {
	case $1 in
	fk:6,R=1) echo "fk:6 R=1 (SepBIT's classes)" ;;
	"$BOUND") echo "$(echo "$1" | tr ',' ' ') (future knowledge)" ;;
	*) echo "$1" ;;
	esac
}
wa_of_run() { jget "$R/$1.json" "$2"; }
r4() { [ -z "$1" ] || printf '%.4f' "$1"; }
# A CSV as a markdown table, numbers to 3 decimals, "-" for none.
md3() {
	awk -F, 'NR == 1 { s = "|"; t = "|"; for (i = 1; i <= NF; i++) { s = s " " $i " |"; t = t "---|" } print s; print t; next }
		{ s = "| " $1 " |"; for (i = 2; i <= NF; i++) s = s " " ($i == "" ? "-" : sprintf("%.3f", $i)) " |"; print s }' "$1"
}
model() { # COLUMN: wamodel's 90/10 model at the figure's Sf
	bin/wamodel --csv -m hotcold -b "$B" --hot-prob "$HOT_PROB" --hot-frac "$HOT_FRAC" -s "$XS" |
		awk -F, -v c="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next } { print $k }'
}
m_one=$(model wa_hc_mixed_greedy_mf)
m_sep=$(model wa_hc_sep_greedy_mf)
# Every run's figures in one jq (a jq a run cost seconds): run, WA of
# the measured window, WA of the whole run, why it was skipped (a
# string; the per-volume run's "skipped" is instead the array of the
# volumes it left out, which the figure counts from its results below).
(tail -n +2 "$D/index.csv" | cut -d, -f3; tail -n +2 "$D/tindex.csv" | cut -d, -f6) | sort -u |
	sed "s|^|$R/|; s|\$|.json|" | xargs jq -r '[input_filename, (.wa_measured // ""), (.wa_total // ""), (.skipped | if type == "string" then . else "" end)] | @tsv' |
	sed 's|^[^\t]*/\([^/\t]*\)\.json\t|\1\t|' >"$D/runs.tsv"
# The schemes: "id|header" lines (a header has no comma: the tables are CSV).
heads=$(for s in $SCHEMES; do echo "$(scheme_id "$s")|$(head_of "$s")|$s"; done)
# Synthetic workloads: one row each, a column per scheme, then the
# models; real traces: a row per trace (WA over the whole trace; empty
# when the trace is too small for that many streams, said in skipped.txt).
label() { basename "$1" | sed 's/\.\(gz\|bz2\|xz\|zst\)$//; s/\.\(csv\|txt\|blkparse\)$//; s/\.blkparse$//'; }
tlabels=$(for t in $PTRACES; do label "$t"; done)
awk -F'\t' -v heads="$heads" -v wls="$WORKLOADS" -v tl="$tlabels" -v xs="$XS" -v mone="$m_one" -v msep="$m_sep" \
	-v synth="$D/synth.csv" -v traces="$D/traces.csv" -v skipped="$D/skipped.txt" -v idx="$D/index.csv" -v tidx="$D/tindex.csv" '
	function r4(v) { return v == "" ? "" : sprintf("%.4f", v) }
	BEGIN {
		ns = split(heads, H, "\n")
		for (i = 1; i <= ns; i++) { split(H[i], f, "|"); sid[i] = f[1]; shead[i] = f[2]; sname[i] = f[3] }
		FS = ","
		while ((getline l <idx) > 0) { split(l, f, ","); if (f[2] + 0 == xs + 0) run[f[1]] = f[3] }
		while ((getline l <tidx) > 0) { split(l, f, ","); trun[f[1]] = f[6] }
		FS = "\t"
	}
	{ wam[$1] = $2; wat[$1] = $3; skip[$1] = $4 }
	END {
		printf "workload" >synth
		for (i = 1; i <= ns; i++) printf ",%s", shead[i] >synth
		print ",model: one log (wamodel),model: separated pools (wamodel)" >synth
		nw = split(wls, W, "\n")
		for (w = 1; w <= nw; w++) {
			split(W[w], f, "|")
			printf "%s", f[2] >synth
			for (i = 1; i <= ns; i++) printf ",%s", r4(wam[run[f[1] "_" sid[i]]]) >synth
			print (f[2] ~ /^90\/10/ ? "," r4(mone) "," r4(msep) : ",,") >synth
		}
		printf "trace" >traces
		for (i = 1; i <= ns; i++) printf ",%s", shead[i] >traces
		print "" >traces
		printf "" >skipped
		nt = split(tl, T, "\n")
		for (k = 1; k <= nt; k++) {
			printf "%s", T[k] >traces
			for (i = 1; i <= ns; i++) {
				h = trun["t" k "_" sid[i]]
				if (skip[h] != "") print T[k] ", " sname[i] ": " skip[h] >skipped
				printf ",%s", r4(wat[h]) >traces
			}
			print "" >traces
		}
	}' "$D/runs.tsv"
# Per volume: the schemes' per-volume WA over the volumes every scheme
# could model (a volume too small for one scheme's streams is left out
# of all, so that each box is over the same volumes); quantiles by
# nearest rank, and the overall WA (flash over host page writes summed
# over those volumes, as SepBIT reports it).
vh=$(awk -F, '$1 == "vols" { print $6; exit }' "$D/tindex.csv")
vres=$R/$vh.results.csv
vmin=$(sed -n 's/.*--min-pages \([0-9]*\).*/\1/p' "$R/$vh.args")
vall=$(jq '[.configurations[].wa_per_volume.volumes] | max' "$R/$vh.json")
awk -F, -v schemes="$SCHEMES" '
	# A CSV line with quoted fields (fk:6,R=8) split into f[1..n].
	function csvsplit(line, f,   n, q, c, i, ch) {
		n = 1; q = 0; f[1] = ""
		for (i = 1; i <= length(line); i++) {
			ch = substr(line, i, 1)
			if (ch == "\"") { q = !q; continue }
			if (ch == "," && !q) { f[++n] = ""; continue }
			f[n] = f[n] ch
		}
		return n
	}
	function q(a, n, p,   k) { k = int(p * n + 0.999999); if (k < 1) k = 1; return a[k] }
	NR == 1 { csvsplit($0, h); for (i in h) col[h[i]] = i; next }
	{
		csvsplit($0, f); v = f[col["volume"]]; s = f[col["placement"]]
		wa[s, v] = f[col["wa_total"]]; hp[s, v] = f[col["host_pages_written"]]; fp[s, v] = f[col["flash_pages_written"]]
		if (!(v in seen)) { seen[v] = 1; vols[++nv] = v }
	}
	END {
		ns = split(schemes, S, " ")
		for (j = 1; j <= nv; j++) {
			ok = 1
			for (i = 1; i <= ns; i++) if (!((S[i], vols[j]) in wa)) ok = 0
			if (ok) common[++nc] = vols[j]
		}
		print "scheme,p10,p25,p50,p75,p90,overall,volumes"
		for (i = 1; i <= ns; i++) {
			delete a; H = 0; F = 0
			for (j = 1; j <= nc; j++) { a[j] = wa[S[i], common[j]] + 0; H += hp[S[i], common[j]]; F += fp[S[i], common[j]] }
			# insertion sort: a few hundred volumes
			for (j = 2; j <= nc; j++) { x = a[j]; for (k = j - 1; k >= 1 && a[k] > x; k--) a[k + 1] = a[k]; a[k + 1] = x }
			lab = S[i]; gsub(/,/, " ", lab) # no comma in a CSV cell
			printf "%s,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%d\n", lab, q(a, nc, 0.1), q(a, nc, 0.25), q(a, nc, 0.5), q(a, nc, 0.75), q(a, nc, 0.9), (H ? F / H : 0), nc
		}
	}' "$vres" >"$D/volumes.csv"
vn=$(awk -F, 'NR == 2 { print $8 }' "$D/volumes.csv")
vmodelled=$(jq '[.configurations[].wa_per_volume.volumes] | min' "$R/$vh.json")
gpvars placement-volumes <<EOV
title = "Per-volume WA, greedy, OP $(calc "$TRACE_OP * 100")%, TRIM: the $vn volumes of the Tencent CBS sample of $vmin pages or more that every scheme could model"
data = "$D/volumes.csv"
bound = "$(echo "$BOUND" | tr ',' ' ')"
boundtitle = "future knowledge"
EOV
gpvars placement <<EOV
title = "Data placement: WA per scheme, greedy (synthetic: Sf = $XS, b = $B; traces: OP $(calc "$TRACE_OP * 100")%, TRIM)"
cols = 1
size_h = 1300
legend = "right"
panels = "$D/synth.csv|synthetic workloads after a fill, U = $PAGES pages (wamodel's models of 90/10 beside);$D/traces.csv|bundled real traces (footprint space, filled at random first)"
EOV
# Published (model) against reproduced: 90/10's single log against the
# one-log model, future knowledge and the practical schemes against the pools.
col_of() { awk -F, -v r="$1" -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next } $1 == r { print $k }' "$3"; }
hcl=$(printf '%s\n' "$WORKLOADS" | awk -F'|' '$1 == "hc" { print $2 }')
w_single=$(col_of "$hcl" single "$D/synth.csv")
w_bound=$(col_of "$hcl" "$(head_of "$BOUND")" "$D/synth.csv")
src_one="wamodel one log, greedy mean field (no published value)"
src_sep="wamodel separated pools, best split (no published value)"
row place.hc.single "WA, 90/10, single log, Sf = $XS" "$(fmt "$m_one" 3)" "$src_one" "$(fmt "$w_single" 3)"
for s in sepbit fadac "$BOUND"; do
	row "place.hc.$(scheme_id "$s")" "WA, 90/10, $(head_of "$s"), Sf = $XS" "$(fmt "$m_sep" 3)" "$src_sep" "$(fmt "$(col_of "$hcl" "$(head_of "$s")" "$D/synth.csv")" 3)"
done
d=$(relpct "$w_single" "$m_one")
check place.hc.single no "$d <= 3" "90/10, single log, Sf = $XS: simulated WA $(fmt "$w_single") vs wamodel one-log model $(fmt "$m_one") ($d%, tolerance 3%)"
# Future knowledge below every practical scheme, on every synthetic
# workload (a finding, not a bound: the real traces are not checked).
printf '%s\n' "$WORKLOADS" | while IFS='|' read -r wid wlabel wgen wsim; do
	bw=$(col_of "$wlabel" "$(head_of "$BOUND")" "$D/synth.csv")
	best=$(for s in $SCHEMES; do
		v=$(col_of "$wlabel" "$(head_of "$s")" "$D/synth.csv")
		[ "$s" = "$BOUND" ] || [ -z "$v" ] || echo "$v $s"
	done | sort -g | head -n 1)
	check "place.fk-lowest.$wid" yes "$bw < ${best%% *}" "$wlabel: future knowledge $BOUND, WA $(fmt "$bw"), below every practical scheme (the lowest: ${best#* } $(fmt "${best%% *}"))"
done
nt=$(printf '%s\n' $PTRACES | grep -c .)
ns=$(echo $SCHEMES | wc -w)
nres=$(tail -n +2 "$D/traces.csv" | tr ',' '\n' | grep -c '^[0-9]' || true)
nskip=$(grep -c . "$D/skipped.txt" || true)
check place.traces.rows yes "$nres + $nskip == $nt * $ns" "$nt traces x $ns schemes: $nres results and $nskip skipped with a reason"
nlow=$(tail -n +2 "$D/synth.csv" "$D/traces.csv" 2>/dev/null | grep -v '^==>' | tr ',' '\n' | awk '/^[0-9]/ && $1 < 1 - 1e-9 { n++ } END { print n + 0 }')
check place.wa-ge-1 yes "$nlow == 0" "every WA of the figure is at least 1 ($nlow below)"
check place.volumes yes "$vn >= 0.9 * $vall" "per volume: $vn of the $vall volumes of $vmin pages or more modelled by every scheme (the fewest by one scheme: $vmodelled)"
vbl=$(echo "$BOUND" | tr ',' ' ')
vb=$(awk -F, -v b="$vbl" '$1 == b { print $4 }' "$D/volumes.csv")
vbest=$(awk -F, -v b="$vbl" 'NR > 1 && $1 != b { print $4, $1 }' "$D/volumes.csv" | sort -g | head -n 1)
check place.volumes.fk-lowest yes "$vb < ${vbest%% *}" "per volume: future knowledge's ($BOUND) median WA $(fmt "$vb") below every practical scheme's (the lowest: ${vbest#* } $(fmt "${vbest%% *}"))"
# Tables and the orderings, lowest first.
{
	echo "**WA on the synthetic workloads** (measured window, greedy, Sf = $XS; the models are wamodel's for 90/10):"
	echo
	md3 "$D/synth.csv"
	echo
	echo "**WA on the real traces** (whole trace, greedy, OP $(calc "$TRACE_OP * 100")%, TRIM; - : too small for that many streams):"
	echo
	md3 "$D/traces.csv"
	echo
	echo "**Per volume** (the $vn volumes of the Tencent CBS sample whose footprint is $vmin pages or more that every scheme could model, each its own footprint and segment size; overall = flash over host page writes summed over them):"
	echo
	md3 "$D/volumes.csv" | sed 's/| \([0-9]*\)\.000 |$/| \1 |/'
	echo
	echo "**Orderings**, lowest WA first:"
	echo
	for f in synth traces; do
		tail -n +2 "$D/$f.csv" | while IFS= read -r line; do
			echo "$line" | awk -F, -v hdr="$(head -n 1 "$D/$f.csv")" '
				BEGIN { nh = split(hdr, h, ",") }
				{ for (i = 2; i <= NF && i <= nh; i++) if ($i != "" && h[i] !~ /^model/) printf "%s\t%s\n", $i, h[i] }' |
				sort -g | awk -F'\t' -v w="$(echo "$line" | cut -d, -f1)" '{ s = s (s == "" ? "" : ", ") $2 " " sprintf("%.3f", $1) } END { print "- " w ": " s }'
		done
	done
	echo
	# Schemes that placed as another did: the same WA, as printed, on
	# a row (on these workloads their rules reduce to the other's).
	same=$(for f in synth traces; do
		tail -n +2 "$D/$f.csv" | awk -F, -v hdr="$(head -n 1 "$D/$f.csv")" '
			BEGIN { nh = split(hdr, h, ",") }
			{ delete first
			  for (i = 2; i <= NF && i <= nh; i++) {
				if ($i == "" || h[i] ~ /^model/) continue
				k = sprintf("%.6f", $i)
				if (k in first) printf "- %s: %s the same as %s (WA %s)\n", $1, h[i], first[k], $i
				else first[k] = h[i]
			  } }'
	done)
	# Where future knowledge is not the lowest (the real traces are
	# not checked: a finding on the synthetic workloads, no bound).
	above=$(tail -n +2 "$D/traces.csv" | awk -F, -v hdr="$(head -n 1 "$D/traces.csv")" -v fk="$(head_of "$BOUND")" '
		BEGIN { nh = split(hdr, h, ","); for (i = 2; i <= nh; i++) if (h[i] == fk) k = i }
		k && $k != "" { n = 0; for (i = 2; i <= NF && i <= nh; i++) if (i != k && $i != "" && h[i] !~ /^model/ && $i < $k) n++
			if (n) printf "%s (%d schemes below it), ", $1, n }' | sed 's/, $//')
	if [ -n "$above" ]; then
		echo "Future knowledge ($BOUND) is not the lowest on every real trace: $above."
		echo
	fi
	if [ -n "$same" ]; then
		echo "**Schemes that placed as another** (the same WA, to the table's digits, on a workload: there the scheme's"
		echo "rules reduce to the other's, and its bar says nothing of its own):"
		echo
		echo "$same"
		echo
	fi
	if [ -s "$D/skipped.txt" ]; then
		echo "Skipped (the trace's footprint is too small for the streams of the scheme):"
		echo
		sed 's/^/- /' "$D/skipped.txt"
		echo
	fi
} >>"$D/extra.md.new"
{
	echo "The placement schemes of the literature (docs/MODEL.md, \"Placements of the literature\"), each with six classes"
	echo "as in SepBIT's paper, greedy victims: on Zipf 0.8, Zipf 1.0 and 90/10 hot/cold writes after a fill"
	echo "(tracegen \`--fill\`, U = $PAGES pages, $WRITES U writes of which the first $WARMUP U warm up, Sf = $XS, b = $B), and"
	echo "on one of each bundled real trace (prepared as for figure 8, OP $(calc "$TRACE_OP * 100")% with TRIM, WA over the whole trace)."
	echo "Future knowledge (fk) learns from the trace when each written version dies: \`fk:6,R=1\` with SepBIT's classes"
	echo "(class floor(r/b) of the remaining lifespan r, six classes) and \`$BOUND\` with geometric classes (class c"
	echo "holds r < b 8^c, six classes; ftlsim's default fk). Neither is a lower bound: the classes are a heuristic, and near"
	echo "the trace's end every version's remaining lifespan is short, so fk places the last writes better than a drive"
	echo "that runs on could. Beside 90/10: wamodel's one-log model and its separated pools with"
	echo "the best split of the spare space, which ftlsim's streams do not have by default (they share one free pool and one"
	echo "victim choice). The rows \"spare per class\" give each stream a pool of its own, its share of the spare space at"
	echo "the separated pools' optimum from where its pages die (\`--spare-share opt\`, docs/MODEL.md); midas is left out"
	echo "there (it sizes its groups itself)."
	echo "\`midas\` chooses its groups anew every 4 U host writes (its epoch, the paper's default): in runs of a few U"
	echo "(the quick scale, the real traces) most writes see its starting mode, five groups over one greedy pool."
	echo "Per volume: every scheme on each of the $vall volumes of the Tencent CBS sample whose footprint is $vmin pages or more in one run"
	echo "(\`--per-volume --grid placement=...\`: one read of the trace for every volume and scheme), each volume its own"
	echo "footprint, filled at random first, and its own segment size (\`--pages-per-segment auto\`), OP $(calc "$TRACE_OP * 100")%, TRIM."
	echo
	h=$(run_of "hc_$(scheme_id "$BOUND")" "$XS")
	echo "One point (90/10, future knowledge $BOUND), as a command line:"
	echo
	echo "    bin/tracegen $(sed -n "s/^gen='\(.*\)'$/\1/p" "$R/$h.args" | tr -s ' ') -o bin | bin/ftlsim $(sed -n "s/^sim='\(.*\)'$/\1/p" "$R/$h.args" | tr -s ' ') -"
	echo
} >"$D/setup.md"
finish
