#!/bin/sh
# paper/run.sh - run one experiment of the paper.
#
#   sh paper/run.sh OUT/runs/HASH.args OUT/runs/HASH.json
#
# The args file (written by paper/plan.sh) sets gen (tracegen options;
# empty for a real trace), sim (ftlsim options), trace (the id of a
# trace prepared by paper/prep-trace.sh under OUT/traces/) and outputs
# (any of curve hist erase timeline latency). In sim,
# "--pages-per-segment auto" and "--interval auto" take the values
# prep-trace.sh chose for the trace.
# Writes the ftlsim summary to the .json target last, after the CSV
# files beside it (HASH.curve.csv, HASH.hist.csv, HASH.erase.csv; with a
# device in time HASH.timeline.csv and HASH.latency.csv; a run
# of several models, --grid or --per-volume, HASH.results.csv) and
# HASH.time (seconds the run took, from date).
set -eu
args=$1
json=$2
base=${json%.json}
gen= sim= trace= outputs=
case $args in /*) . "$args" ;; *) . "./$args" ;; esac
# Shell builtins where a process would do (a quick paper runs some 400
# of these: forks were most of its time).
t0=$(date +%s%N)
extra=
for o in $outputs; do
	case $o in
	curve) extra="$extra --curve $base.curve.csv" ;;
	hist) extra="$extra --hist $base.hist.csv" ;;
	erase) extra="$extra --erase-hist $base.erase.csv" ;;
	timeline) extra="$extra --timeline $base.timeline.csv" ;;
	latency) extra="$extra --latency $base.latency.csv" ;;
	esac
done
case " $sim " in *" --grid "* | *" --per-volume "*) extra="$extra --results $base.results.csv" ;; esac
# --interval sets the curve's rows: a run without one is given none
# (ftlsim says an interval without a curve changes nothing).
case " $extra " in *" --curve "*) ;; *)
	case " $sim " in *" --interval "*)
		pre=${sim%%--interval *} rest=${sim#*--interval }
		case $rest in *" "*) rest=${rest#* } ;; *) rest= ;; esac
		sim=$pre$rest ;;
	esac ;;
esac
tmp=$json.tmp.$$
trap 'rm -f "$tmp" "$tmp.err"' EXIT
# sub TEXT FROM TO: r is TEXT with its first FROM replaced by TO.
sub() {
	r=$1
	case $1 in *"$2"*) r=${1%%"$2"*}$3${1#*"$2"} ;; esac
}
if [ -n "$trace" ]; then
	tdir=${json%/*}
	tdir=${tdir%/*}/traces
	skip= b= interval=
	while IFS='=' read -r k v; do
		case $k in
		skip) skip=$v ;;
		b) b=$v ;;
		interval) interval=$v ;;
		esac
	done <"$tdir/$trace.info"
	if [ -n "$skip" ]; then
		# Too small to simulate: say so in place of a summary.
		printf '{\n  "program": "ftlsim",\n  "skipped": "%s"\n}\n' "$skip" >"$tmp"
		mv "$tmp" "$json"
		exit 0
	fi
	sub "$sim" "--pages-per-segment auto" "--pages-per-segment $b"
	sub "$r" "--interval auto" "--interval $interval"
	sim=$r
	# A sample too small for this over-provisioning is reported, not fatal.
	# shellcheck disable=SC2086
	if ! bin/ftlsim -q $sim $extra "$tdir/$trace.ev" >"$tmp" 2>"$tmp.err"; then
		grep -q 'too little spare space' "$tmp.err" || { cat "$tmp.err" >&2; exit 1; }
		msg=$(sed 's/^ftlsim: //; s/"/'"'"'/g' "$tmp.err" | head -n 1)
		printf '{\n  "program": "ftlsim",\n  "skipped": "%s"\n}\n' "$msg" >"$tmp"
		: >"$tmp.err" # said in the summary (and the report), not an error of the paper
	fi
	# (per volume, the volumes too small for the geometry: the summary's
	# "skipped" lists them and the report counts them, not an error)
	grep -v '^ftlsim: [0-9]* of the [0-9]* models ran; [0-9]* were skipped: ' "$tmp.err" >&2 || :
else
	# shellcheck disable=SC2086
	bin/tracegen $gen -o bin 2>/dev/null | bin/ftlsim -q $sim $extra - >"$tmp"
fi
t1=$(date +%s%N)
d=$(((t1 - t0 + 5000000) / 10000000))
printf '%d.%02d\n' $((d / 100)) $((d % 100)) >"$base.time"
mv "$tmp" "$json"
