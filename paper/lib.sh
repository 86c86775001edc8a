# paper/lib.sh - helpers for the per-figure scripts (paper/NN-*.sh),
# sourced after setting O (the output folder) and FIG (the figure's
# name, e.g. 02-lfs-fig4). Every script writes into D = O/FIG:
#   table.txt    id|quantity|published|source|reproduced|diff_pct|tol_abs
#   checks.txt   "PASS|FAIL|INFO ID quick=yes|no MESSAGE" per check
#   setup.md     the setup, in words and parameters
#   extra.md     optional: more tables (markdown)
#   NAME.gpvars  the variables of each image (IMAGES in the params)
# then touches D/done.
set -eu
export LC_ALL=C
D=$O/$FIG
R=$O/runs
QUICK=$(cat "$O/quick" 2>/dev/null || echo 0)
echo "id|quantity|published|source|reproduced|diff_pct|tol_abs" >"$D/table.txt.new"
: >"$D/checks.txt.new"
: >"$D/extra.md.new"

# The figure's parameters, as the planner saw them.
load_params() {
	. "./paper/$FIG.params"
	if [ "$QUICK" = 1 ]; then
		for v in $(set | sed -n 's/^QUICK_\([A-Za-z0-9_]*\)=.*/\1/p'); do eval "$v=\$QUICK_$v"; done
	fi
}

# jget FILE KEY: the value of KEY in an ftlsim JSON summary (at the top,
# else in params or requests), or "" when absent or null.
jget() {
	jq -r --arg k "$2" '[.[$k], .params[$k]?, .requests[$k]?] | map(select(. != null)) | first // empty' "$1"
}

# A number rounded for tables.
fmt() { awk -v x="$1" -v d="${2:-3}" 'BEGIN { if (x == "") print "n/a"; else printf "%.*f\n", d, x }'; }
calc() { awk "BEGIN { printf \"%.10g\", $1 }"; }

# series_csv SERIES: the runs of one series of the sweep as CSV on
# stdout: x, wa (measured), write_cost, u_mean (victims' mean valid
# fraction), wa_total, run.
series_csv() {
	echo "x,wa,write_cost,u_mean,wa_total,run"
	awk -F, -v s="$1" 'NR > 1 && $1 == s { print $2, $3 }' "$D/index.csv" >"$D/.series.$$"
	# One jq for the whole series (not four a run): hash, then the fields.
	# shellcheck disable=SC2046
	: >"$D/.fields.$$"
	[ ! -s "$D/.series.$$" ] || jfields wa_measured write_cost victim_utilization_mean wa_total -- \
		$(awk -v r="$R" '{ print r "/" $2 ".json" }' "$D/.series.$$") >"$D/.fields.$$"
	awk -F'\t' 'NR == FNR { v[$1] = $2 "," $3 "," $4 "," $5; next } { print $1 "," v[$2] "," $2 }' \
		"$D/.fields.$$" FS=' ' "$D/.series.$$"
	rm -f "$D/.series.$$" "$D/.fields.$$"
}

# jfields KEY... -- FILE...: one line per ftlsim JSON summary, tab-separated:
# the run's hash (the file name without .json), then each KEY's value as
# jget gives it ("" when absent or null).
jfields() {
	keys=
	while [ "$1" != -- ]; do keys="$keys${keys:+,}\"$1\""; shift; done
	shift
	jq -r --argjson ks "[$keys]" '. as $d | [input_filename | sub(".*/"; "") | sub("[.]json$"; "")] +
		[$ks[] as $k | [$d[$k], $d.params[$k]?, $d.requests[$k]?] | map(select(. != null)) | (first // "") | tostring] | @tsv' "$@"
}

# run_of SERIES X: the run hash of one point of the sweep.
run_of() { awk -F, -v s="$1" -v x="$2" 'NR > 1 && $1 == s && $2 + 0 == x + 0 { print $3; exit }' "$D/index.csv"; }
# title_of SERIES: its legend title (series.txt / tseries.txt).
title_of() { awk -F'|' -v s="$1" '$1 == s { print $2; exit }' "$D/series.txt" "$D/tseries.txt" 2>/dev/null; }

# pub ID FIELD: a published value (paper/published.csv: id, value,
# tol_abs, source).
pub() {
	awk -F, -v id="$1" -v f="${2:-2}" 'NR > 1 && $1 == id { print $f; exit }' paper/published.csv
}
# pub_csv PREFIX: the published values PREFIX.xX as a CSV "x,published"
# (the points a figure draws beside its reproduction).
pub_csv() {
	awk -F, -v p="$1.x" 'BEGIN { print "x,published" } NR > 1 && index($1, p) == 1 { print substr($1, length(p) + 1) "," $2 }' \
		paper/published.csv
}
pub_source() {
	awk -F, -v id="$1" 'NR > 1 && $1 == id { s = $4; for (i = 5; i <= NF; i++) s = s "," $i; gsub(/^"|"$/, "", s); print s; exit }' paper/published.csv
}

# row ID QUANTITY PUBLISHED SOURCE REPRODUCED [TOL_ABS]: one line of the
# figure's table of published against reproduced values.
row() {
	awk -v id="$1" -v q="$2" -v p="$3" -v s="$4" -v r="$5" -v t="${6:-}" 'BEGIN {
		d = (p != "" && r != "" && p + 0 != 0) ? sprintf("%.2f", 100 * (r - p) / p) : ""
		gsub(/\|/, "/", q); gsub(/\|/, "/", s)
		printf "%s|%s|%s|%s|%s|%s|%s\n", id, q, p, s, r, d, t }' >>"$D/table.txt.new"
}
# prow ID QUANTITY REPRODUCED: a row against paper/published.csv.
prow() { row "$1" "$2" "$(pub "$1")" "$(pub_source "$1")" "$3" "$(pub "$1" 3)"; }

# check ID QUICK_OK(yes|no) CONDITION(awk expression) MESSAGE: record
# and print one measured check. In QUICK mode a check that is not
# robust at small scale (QUICK_OK no) is recorded as INFO.
check() {
	ok=$(awk "BEGIN { print ($3) ? \"PASS\" : \"FAIL\" }")
	st=$ok
	[ "$QUICK" = 1 ] && [ "$2" = no ] && st=INFO
	echo "$st $1 quick=$2 $4" >>"$D/checks.txt.new"
	echo "paper: $FIG: $st $1: $4" >&2
}

# The worse of two numbers' relative gap, in percent.
relpct() { awk -v a="$1" -v b="$2" 'BEGIN { d = 100 * (a - b) / b; printf "%.2f", d < 0 ? -d : d }'; }

# bimodality HIST.csv KIND AFTER GROUP SMOOTH: Sarle's bimodality
# coefficient of the distribution (computed on the raw valid-page
# counts), and the local maxima of its histogram in bins of GROUP whole
# valid counts (as plots/util-hist.gp draws it: counts k*GROUP ..
# k*GROUP+GROUP-1, the last bin possibly narrower) smoothed by a centred
# moving average of SMOOTH bins. Heights are densities over u (fraction
# of segments / bin width in u; a uniform distribution has 1). Prints
#   "bc=B skew=S kurt=K peaks=U1:H1,U2:H2,... "
# where a peak is a bin of the smoothed histogram at least as high as
# every bin within SMOOTH bins on either side (the leftmost of equal
# ones) and above a quarter of the uniform height; U is the bin's centre
# (its middle valid count / b).
bimodality() {
	awk -F, -v kind="$2" -v after="$3" 'NR > 1 && $1 == kind && (kind == "victims" || $3 > after) { print $4, $6 }' "$1" |
		awk -v g="$4" -v sm="$5" -v lomax="${6:-}" -v himin="${7:-}" '
		{ v[NR] = $1; c[NR] = $2; if ($1 > b) b = $1; h[int($1 / g)] += $2; n += $2 }
		END {
			if (n < 4 || b < 1) { print "bc= skew= kurt= peaks="; exit }
			for (i = 1; i <= NR; i++) s1 += v[i] / b * c[i]
			m = s1 / n
			for (i = 1; i <= NR; i++) { d = v[i] / b - m; m2 += c[i] * d * d; m3 += c[i] * d * d * d; m4 += c[i] * d * d * d * d }
			m2 /= n; m3 /= n; m4 /= n
			gs = m3 / (m2 ^ 1.5); k = m4 / (m2 * m2) - 3
			# Sarle: (g^2 + 1) / (k + 3 (n-1)^2 / ((n-2)(n-3))), n = segments counted.
			bc = (gs * gs + 1) / (k + 3 * (n - 1) ^ 2 / ((n - 2) * (n - 3)))
			nb = int(b / g) + 1
			for (i = 0; i < nb; i++) {
				lo = i * g; hi = lo + g - 1; if (hi > b) hi = b
				dens[i] = h[i] / n / ((hi - lo + 1) / b); mid[i] = (lo + hi) / 2 / b
			}
			half = int(sm / 2)
			for (i = 0; i < nb; i++) {
				t = 0; cnt = 0
				for (j = i - half; j <= i + half; j++) if (j >= 0 && j < nb) { t += dens[j]; cnt++ }
				f[i] = t / cnt
			}
			pk = ""
			for (i = 0; i < nb; i++) {
				top = 1
				for (j = i - sm; j <= i + sm; j++) if (j != i && j >= 0 && j < nb && (f[j] > f[i] || (f[j] == f[i] && j < i))) top = 0
				if (top && f[i] > 0.25) pk = pk (pk == "" ? "" : ",") sprintf("%.3f:%.3f", mid[i], f[i])
			}
			# The trough: the least smoothed density between the
			# highest peak below lo_max and the highest above hi_min,
			# over the lower of the two (1: no dip; empty: no pair).
			dip = ""
			if (lomax != "" && himin != "") {
				il = ih = -1
				for (i = 0; i < nb; i++) {
					if (mid[i] < lomax && (il < 0 || f[i] > f[il])) il = i
					if (mid[i] > himin && (ih < 0 || f[i] > f[ih])) ih = i
				}
				if (il >= 0 && ih > il && f[il] > 0 && f[ih] > 0) {
					lo = f[il]
					for (i = il; i <= ih; i++) if (f[i] < lo) lo = f[i]
					dip = sprintf("%.3f", lo / (f[il] < f[ih] ? f[il] : f[ih]))
				}
			}
			printf "bc=%.4f skew=%.4f kurt=%.4f peaks=%s dip=%s\n", bc, gs, k, pk, dip
		}'
}

# variant_table PUBPREFIX SERIES...: a markdown table of the write cost
# (and the mean u of the segments cleaned) of each series at every X
# one of them ran, with the published value of PUBPREFIX.xX when there
# is one: the variants of a figure's setup, measured side by side.
variant_table() {
	pp=$1
	shift
	printf '| X |'; for s in "$@"; do printf ' %s |' "$(title_of "$s")"; done; printf ' published |\n'
	printf '|---|'; for s in "$@"; do printf -- '---|'; done; printf -- '---|\n'
	for s in "$@"; do awk -F, -v s="$s" 'NR > 1 && $1 == s { print $2 }' "$D/index.csv"; done | sort -n -u |
		while read -r x; do
			printf '| %s |' "$x"
			for s in "$@"; do
				h=$(run_of "$s" "$x")
				if [ -n "$h" ]; then printf ' %s (u %s) |' "$(fmt "$(jget "$R/$h.json" write_cost)")" "$(fmt "$(jget "$R/$h.json" victim_utilization_mean)" 2)"
				else printf ' |'; fi
			done
			printf ' %s |\n' "$(pub "$pp.x$(calc "$x + 0")")"
		done
}

# gpvars NAME: the image's gnuplot variables, from stdin.
gpvars() { cat >"$D/$1.gpvars"; }

# md_table CSV: a CSV (no quoted commas) as a markdown table.
md_table() {
	awk -F, 'NR == 1 { s = "|"; t = "|"; for (i = 1; i <= NF; i++) { s = s " " $i " |"; t = t "---|" } print s; print t; next }
		{ s = "|"; for (i = 1; i <= NF; i++) s = s " " $i " |"; print s }' "$1"
}

# outputs_of HASH: the CSV options paper/run.sh adds to a run's ftlsim
# command, as files in the current folder.
outputs_of() {
	for o in $(sed -n "s/^outputs='\(.*\)'$/\1/p" "$R/$1.args"); do
		case $o in
		curve) printf ' --curve curve.csv' ;;
		hist) printf ' --hist hist.csv' ;;
		erase) printf ' --erase-hist erase.csv' ;;
		timeline) printf ' --timeline timeline.csv' ;;
		latency) printf ' --latency latency.csv' ;;
		esac
	done
}

# setup_sweep: the common setup paragraph of a sweep figure, and one
# of its runs as a command line.
setup_sweep() {
	h=$(awk -F, 'NR == 2 { print $3 }' "$D/index.csv")
	gen=$(sed -n "s/^gen='\(.*\)'$/\1/p" "$R/$h.args" | tr -s ' ')
	sim=$(sed -n "s/^sim='\(.*\)'$/\1/p" "$R/$h.args" | tr -s ' ')
	case $XVAR in
	x) xs="disk utilization X = U/T (ftlsim --spare-factor 1-X)" ;;
	sf) xs="spare factor Sf = (T-U)/T" ;;
	op) xs="over-provisioning OP = (T-U)/U" ;;
	q) xs="discard share q (tracegen --trim-prob q), spare factor Sf = $SF" ;;
	esac
	echo "Simulation: U = $PAGES logical pages of 4 KiB, b = $B pages per segment (unless a series says otherwise), seed $SEED;"
	echo "$WRITES U requests after the fill; the first $WARMUP U host page writes (the fill included) warm up, the rest is measured."
	echo "Sweep over the $xs: $(echo $XS | tr ' ' ',' | sed 's/,/, /g')."
	echo
	echo "Series (legend: tracegen options | ftlsim options):"
	echo
	awk -F'|' '{ printf "- %s\n", $2 }' "$D/series.txt"
	echo
	echo "One point, as a command line:"
	echo
	echo "    bin/tracegen $gen -o bin | bin/ftlsim $sim$(outputs_of "$h") -"
	echo
}

# Finish: move the new files into place, then done.
finish() {
	for f in table.txt checks.txt extra.md; do mv "$D/$f.new" "$D/$f"; done
	touch "$D/done"
}
