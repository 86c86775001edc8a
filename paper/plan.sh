#!/bin/sh
# paper/plan.sh - turn the parameter files (paper/NN-*.params) into make
# rules, one per experiment output, so that `make -j paper` runs the
# experiments in parallel.
#
#   sh paper/plan.sh OUT QUICK     (QUICK 1 or 0; called by the Makefile)
#
# Writes OUT/rules.mk and OUT/runs/HASH.args (one file per experiment,
# named by a checksum of its parameters, so that figures asking for the
# same run share it). A file is rewritten only when its content
# changes, so a parameter edit re-runs only the experiments it touches.
# Prints nothing on success.
set -eu
O=${1:?usage: plan.sh OUT QUICK}
QUICK=${2:-0}
P=paper
mkdir -p "$O/runs" "$O/traces"
RULES=$O/rules.tmp.$$
trap 'rm -f "$RULES" "$O"/*.tmp.$$ "$O"/*/*.tmp.$$ "$O"/*/*.new' EXIT

# Write stdin to $1 unless it already holds exactly that.
put() {
	cat >"$1.put.$$"
	if cmp -s "$1.put.$$" "$1"; then rm -f "$1.put.$$"; else mv "$1.put.$$" "$1"; fi
}

calc() { awk "BEGIN { printf \"%.10g\", $1 }"; }
# Without a process where the shell can (a full plan has some 500
# runs, and a fork costs milliseconds): mcalc EXPR sets r to calc's
# value, remembered for the next call with the same EXPR; squeeze TEXT
# sets r to TEXT with its runs of blanks made one space, ends trimmed
# (what $(echo $TEXT) gives); nospace TEXT sets r to TEXT without spaces.
MEMO='|'
mcalc() {
	case $MEMO in
	*"|$1="*) r=${MEMO#*"|$1="}; r=${r%%"|"*} ;;
	*) r=$(calc "$1"); MEMO="$MEMO$1=$r|" ;;
	esac
}
squeeze() {
	set -f
	# shellcheck disable=SC2086
	set -- $1
	set +f
	r="$*"
}
nospace() {
	r=$1
	while :; do
		case $r in *" "*) r=${r%%" "*}${r#*" "} ;; *) break ;; esac
	done
}

# A trace's id: its path under traces/, with '/' and odd bytes as '_'.
trace_id() { printf '%s' "${1#traces/}" | tr -c 'A-Za-z0-9._-' '_'; }

# The trace files under traces/, sorted; arguments go to find (-printf).
trace_files() {
	find -L traces -type f ! -name '*.c' ! -name '*.h' ! -name '*.md' ! -name '*.sh' \
		! -name '*.py' ! -name 'README*' ! -name 'LICENSE*' ! -name 'COPYING*' ! -name '.*' "$@" |
		LC_ALL=C sort
}
# Every trace under traces/ (the bundled samples and whatever a user
# drops there): one line "PATH FILES..." per trace; a blktrace per-CPU
# set NAME.blktrace.N is one trace, named NAME.
list_traces() {
	trace_files |
		awk '{ f = $0; base = f; if (sub(/\.blktrace\.[0-9]+$/, "", base)) { files[base] = files[base] " " f; if (!(base in seen)) { seen[base] = 1; order[++n] = base } }
		       else { order[++n] = f; files[f] = " " f } }
		     END { for (i = 1; i <= n; i++) print order[i] files[order[i]] }'
}

# Rule that prepares one trace (event stream, characterisation); with
# SUFFIX .vols, every volume of it.
prep_rule() { # SUFFIX PATH FILES...
	suffix=$1 path=$2
	shift 2
	id=$(trace_id "$path")$suffix
	case " $PREPPED " in *" $id "*) return 0 ;; esac
	PREPPED="$PREPPED $id"
	{
		echo "\$(PO)/traces/$id.ev: $* paper/prep-trace.sh bin/tracecat bin/tracestat | paper-t0"
		echo "	sh paper/prep-trace.sh '$path' \$@"
	} >>"$RULES"
}

# One experiment: a request line for write_runs (below), which names
# it by a checksum of its parameters, writes its args file and the row
# "PREFIX,HASH" of the index file.
# emit_run INDEX PREFIX GEN SIM TRACE_ID OUTPUTS
emit_run() {
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" "$6" >>"$REQ"
}

# All requests at once (one awk, not a few processes per run).
write_runs() {
	awk -F'\t' -v runs="$O/runs" -v rules="$RULES" '
	BEGIN { for (i = 1; i < 256; i++) ord[sprintf("%c", i)] = i }
	function hash(s, m,   h, i) { h = 7; for (i = 1; i <= length(s); i++) h = (h * m + ord[substr(s, i, 1)]) % 4294967291; return h }
	{
		body = "gen='\''" $3 "'\''\nsim='\''" $4 "'\''\ntrace='\''" $5 "'\''\noutputs='\''" $6 "'\''"
		h = sprintf("%010d%010d", hash(body, 31), hash(body, 131))
		print $2 "," h >>($1 ".new")
		if (!(h in done)) {
			done[h] = 1
			f = runs "/" h ".args"; old = ""
			while ((getline line <f) > 0) old = old (old == "" ? "" : "\n") line
			close(f)
			if (old != body) { print body >f; close(f) }
			if ($5 != "") print "$(PO)/runs/" h ".json: $(PO)/traces/" $5 ".ev" >>rules
		}
	}' "$REQ"
}
# Apply QUICK_NAME overrides of the sourced parameters.
quick_overrides() {
	[ "$QUICK" = 1 ] || return 0
	for v in $(set | sed -n 's/^QUICK_\([A-Za-z0-9_]*\)=.*/\1/p'); do
		eval "$v=\$QUICK_$v"
	done
}

# A sweep: every line of SERIES ("id|title|tracegen args|ftlsim
# args[|x values]") at every x of XS (or of its own x values). XVAR: x
# (disk utilization, --spare-factor 1-x), sf (--spare-factor x), op
# (--op x) or q (tracegen --trim-prob x); or none: each line is one run
# (x 0) whose options are the whole of both commands (GEN and the
# line's tracegen args; the line's ftlsim args), $NAME in them expanded
# after the QUICK_ overrides (write SERIES in single quotes).
plan_sweep() {
	D=$1
	out=${OUTPUTS:-}
	if [ -z "${SERIES:-}" ]; then
		echo "series,x,run" >"$D/index.csv.new"
		: | put "$D/series.txt"
		return 0
	fi
	echo "series,x,run" >"$D/index.csv.new"
	printf '%s\n' "$SERIES" | while IFS='|' read -r sid stitle sgen ssim sxs; do
		nospace "$sid"
		sid=$r
		[ -n "$sid" ] || continue
		case $sid in \#*) continue ;; esac
		if [ "$XVAR" = none ]; then
			eval "gen=\"${GEN:-} $sgen\" sim=\"$ssim\""
			squeeze "$gen"
			gen=$r
			squeeze "$sim"
			emit_run "$D/index.csv" "$sid,0" "$gen" "$r" "" "$out"
			echo "$sid|$stitle" >>"$D/series.txt.tmp.$$"
			continue
		fi
		for x in ${sxs:-$XS}; do
			mcalc "$WRITES * $PAGES"
			gen="$GEN $sgen -n $PAGES -w $r -s $SEED"
			case $XVAR in
			x) mcalc "1 - $x"; phys="--spare-factor $r" ;;
			sf) phys="--spare-factor $x" ;;
			op) phys="--op $x" ;;
			q) phys="--spare-factor $SF"; gen="$gen --trim-prob $x" ;;
			*) echo "plan.sh: XVAR must be x, sf, op, q or none, not '$XVAR'" >&2; exit 2 ;;
			esac
			mcalc "$WARMUP * $PAGES"
			sim="--logical-pages $PAGES $phys --pages-per-segment $B --warmup-writes $r --seed $SEED"
			[ -z "${SNAPSHOT:-}" ] || { mcalc "$SNAPSHOT * $PAGES"; sim="$sim --snapshot-every $r"; }
			[ -z "${INTERVAL:-}" ] || { mcalc "$INTERVAL * $PAGES"; sim="$sim --interval $r"; }
			squeeze "$sim $ssim"
			emit_run "$D/index.csv" "$sid,$x" "$gen" "$r" "" "$out"
		done
		echo "$sid|$stitle" >>"$D/series.txt.tmp.$$"
	done
	touch "$D/series.txt.tmp.$$"
	put "$D/series.txt" <"$D/series.txt.tmp.$$"
	rm -f "$D/series.txt.tmp.$$"
}

# Runs on real traces: TRACE_SERIES lines "id|title|trace path|ftlsim
# args", and/or TRACES=all with POLICIES x OPS x TRIMS on every trace.
plan_traces() {
	D=$1
	out=${OUTPUTS:-}
	echo "series,trace,policy,op,trim,run" >"$D/tindex.csv.new"
	if [ -n "${TRACE_SERIES:-}" ]; then
		printf '%s\n' "$TRACE_SERIES" | while IFS='|' read -r sid stitle spath ssim; do
			nospace "$sid"
			sid=$r
			nospace "$spath"
			spath=$r
			[ -n "$sid" ] || continue
			case $sid in \#*) continue ;; esac
			# The trace's id, from the list (once a trace, not once a run).
			if [ "$spath" != "${lastpath:-}" ]; then
				id=$(awk -v p="$spath" '$2 == p { print $1; exit }' "$TLIST")
				[ -n "$id" ] || { echo "plan.sh: no trace '$spath' under traces/" >&2; exit 1; }
				lastpath=$spath lastid=$id
			fi
			id=$lastid
			# A run per volume replays every volume: a trace of its own.
			case " $ssim " in *" --per-volume "*) id=$id.vols ;; esac
			squeeze "$TRACE_SIM $ssim"
			sim=$r
			emit_run "$D/tindex.csv" "$sid,$id,,," "" "$sim" "$id" "$out"
			echo "$sid|$stitle|$spath" >>"$D/tseries.txt.tmp.$$"
		done
	fi
	if [ "${TRACES:-}" = all ]; then
		while read -r id path files; do
			echo "$id|$path" >>"$D/traces.txt.tmp.$$"
			for pol in $POLICIES; do for op in $OPS; do for tr in $TRIMS; do
				squeeze "$TRACE_SIM --policy $pol --op $op --$tr"
				sim=$r
				emit_run "$D/tindex.csv" "all,$id,$pol,$op,$tr" "" "$sim" "$id" "$out"
			done; done; done
		done <"$TLIST"
	fi
	for f in tseries.txt traces.txt; do
		touch "$D/$f.tmp.$$"
		put "$D/$f" <"$D/$f.tmp.$$"
		rm -f "$D/$f.tmp.$$"
	done
}

# Nothing to plan when neither the planner, the parameters, QUICK,
# PAPER_ONLY nor the list of traces (names, sizes, times) changed since
# the last plan: every make of the paper asks, and planning takes
# seconds.
key=$( (echo "$QUICK ${PAPER_ONLY:-}"; cat "$0" $P/*.params; trace_files -printf '%p %s %T@\n') | cksum)
if [ -f "$O/rules.mk" ] && [ -d "$O/runs" ] && [ "$(cat "$O/plan.key" 2>/dev/null)" = "$key" ]; then
	exit 0
fi
rm -f "$O/plan.key"
echo "$QUICK" | put "$O/quick"
PREPPED=
REQ=$O/requests.tmp.$$
: >"$REQ"
# Every trace once: "ID PATH FILES...".
TLIST=$O/traces.list
list_traces | while read -r path files; do echo "$(trace_id "$path") $path $files"; done | put "$TLIST"
: >"$RULES"
FIGS=
: >"$O/figs.tmp.$$"
for pf in $P/[0-9][0-9]-*.params; do
	fig=$(basename "$pf" .params)
	# PAPER_ONLY="NN-name ...": plan those figures only.
	case " ${PAPER_ONLY:-$fig} " in *" $fig "*) ;; *) continue ;; esac
	D=$O/$fig
	mkdir -p "$D"
	# A clean slate of parameters for every figure.
	unset SERIES TRACE_SERIES TRACES XS XVAR GEN PAGES WRITES WARMUP B SEED SF \
		SNAPSHOT INTERVAL OUTPUTS IMAGES TITLE INCLUDES TRACE_SIM POLICIES OPS TRIMS 2>/dev/null || true
	for v in $(set | sed -n 's/^\(QUICK_[A-Za-z0-9_]*\)=.*/\1/p'); do unset "$v"; done
	INCLUDES=
	. "./$pf"
	quick_overrides
	plan_sweep "$D"
	plan_traces "$D"
	FIGS="$FIGS $fig"
	echo "$fig|$INCLUDES|${IMAGES:-}" >>"$O/figs.tmp.$$"
done
write_runs
for fig in $FIGS; do
	for f in index.csv tindex.csv; do
		put "$O/$fig/$f" <"$O/$fig/$f.new"
		rm -f "$O/$fig/$f.new"
	done
done
while IFS='|' read -r fig INCLUDES IMAGES; do
	D=$O/$fig
	pf=$P/$fig.params
	runs=$( (tail -n +2 "$D/index.csv" | cut -d, -f3; tail -n +2 "$D/tindex.csv" | cut -d, -f6) |
		sort -u | sed 's|^|$(PO)/runs/|; s|$|.json|' | tr '\n' ' ')
	{
		echo "\$(PO)/$fig/done: $runs $pf $INCLUDES paper/$fig.sh paper/lib.sh paper/published.csv bin/wamodel"
		echo "	sh paper/$fig.sh \$(PO) $fig"
		echo "PAPER_DONE += \$(PO)/$fig/done"
	} >>"$RULES"
	# IMAGES: "NAME:KIND ..." - KIND is the plots/KIND.gp script; the
	# PNG's rule also writes NAME.dat, the numbers plotted.
	for im in $IMAGES; do
		name=${im%%:*}
		kind=${im#*:}
		{
			echo "\$(PO)/$fig/$name.png \$(PO)/$fig/$name.svg \$(PO)/$fig/$name.pdf: \$(PO)/$fig/done plots/$kind.gp plots/term.gp"
			echo "	gnuplot -e \"FORMAT='\$(subst .,,\$(suffix \$@))'; out='\$@'\$(if \$(filter .png,\$(suffix \$@)),; datfile='\$(basename \$@).dat')\" -c plots/$kind.gp \$(PO)/$fig/$name.gpvars"
			echo "PAPER_IMAGES += \$(PO)/$fig/$name"
		} >>"$RULES"
	done
	# Traces this figure reads.
	for id in $(tail -n +2 "$D/tindex.csv" | cut -d, -f2 | sort -u); do
		base=${id%.vols}
		prep_rule "${id#"$base"}" $(awk -v id="$base" '$1 == id { $1 = ""; print }' "$TLIST")
	done
done <"$O/figs.tmp.$$"
{
	echo "PAPER_FIGS :=$FIGS"
	echo "PAPER_RUNS := $(for f in $FIGS; do tail -n +2 "$O/$f/index.csv" | cut -d, -f3
		tail -n +2 "$O/$f/tindex.csv" | cut -d, -f6; done | sort -u |
		sed 's|^|$(PO)/runs/|; s|$|.json|' | tr '\n' ' ')"
} >>"$RULES"
put "$O/rules.mk" <"$RULES"
echo "$key" >"$O/plan.key"
