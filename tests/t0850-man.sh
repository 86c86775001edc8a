#!/bin/sh
# Man pages and bash completion: every program in bin/ has a page in
# section 1 whose options are exactly those its --help prints, which are
# exactly those of its getopt_long table (--list-options); every page
# renders without a groff warning; the completion offers every option
# and the policy, placement and format names.
. "$(dirname "$0")/lib.sh"

MAN="$T_TOP/man"
COMP="$T_TOP/build/ftlkit.bash"

# The long options a --help names, one a line.
help_opts() {
	"$1" --help | grep -oE -- '--[a-z][a-z0-9-]*[*]?' | grep -v -- '[-*]$' | sort -u
}
# The long options a page documents: those on the tag line of a .TP item.
page_opts() {
	awk 'tag { print; tag = 0 } /^\.TP/ { tag = 1 }' "$1" |
		grep -oE -- '\\-\\-[a-z][a-z0-9]*(\\-[a-z0-9]+)*' | sed 's/\\-/-/g' | sort -u
}
# The long options of a program's getopt_long table (nothing for a script).
table_opts() {
	out=$("$1" --list-options 2>/dev/null) && printf '%s\n' "$out" | grep '^--' | sed 's/\[*=.*//' | sort -u
}

progs=$(cd "$T_TOP/bin" && ls)

t_expect_success 'every program in bin/ has a man page in section 1' '
	[ -n "$progs" ] &&
	for p in $progs; do
		[ -f "$MAN/$p.1" ] || { echo "no man/$p.1"; exit 1; }
		grep -q "^\.TH $(echo "$p" | tr a-z A-Z) 1 " "$MAN/$p.1" || { echo "man/$p.1: no .TH line for $p"; exit 1; }
	done
'

for p in $progs; do
	t_expect_success "$p: the options of --help are those of man/$p.1, both ways" '
		help_opts "$BIN/$p" >help.txt && page_opts "$MAN/$p.1" >page.txt &&
		[ -s help.txt ] && [ -s page.txt ] &&
		comm -23 help.txt page.txt >missing.txt && comm -13 help.txt page.txt >extra.txt &&
		if [ -s missing.txt ] || [ -s extra.txt ]; then
			sed "s/^/in --help, not in the page: /" missing.txt
			sed "s/^/in the page, not in --help: /" extra.txt
			exit 1
		fi
	'
done

for p in $progs; do
	if "$BIN/$p" --list-options >/dev/null 2>&1; then
		t_expect_success "$p: the options of --help are those of its getopt_long table" '
			help_opts "$BIN/$p" >help.txt && table_opts "$BIN/$p" >table.txt && [ -s table.txt ] &&
			comm -3 help.txt table.txt >diff.txt &&
			if [ -s diff.txt ]; then
				echo "left: only in --help; right: only in the table"; cat diff.txt; exit 1
			fi
		'
	fi
done

t_expect_success 'a page that lists the trace formats lists every one --list-formats shows' '
	for p in $(grep -l "shows the names:" "$MAN"/*.1); do
		b=$(basename "$p" .1) &&
		sed -n "/shows the names:/,/^\.TP/p" "$p" | tr -c "a-z0-9\n" " " | tr " " "\n" >names.txt &&
		for f in $("$BIN/$b" --list-formats | cut -d" " -f1); do
			grep -qx "$f" names.txt || { echo "$b.1 does not name format $f"; exit 1; }
		done || exit 1
	done
'
t_expect_success 'the pages: ftlkit(7), the event stream and the outputs in section 5' '
	[ -f "$MAN/ftlkit.7" ] && [ -f "$MAN/ftlkit-events.5" ] && [ -f "$MAN/ftlkit-outputs.5" ] &&
	grep -q "^\.SH EXAMPLE" "$MAN/ftlkit.7" &&
	for p in $progs; do grep -q "^\.BR $p (1)" "$MAN/ftlkit.7" || { echo "ftlkit.7 does not name $p(1)"; exit 1; }; done
'

t_expect_success 'every page renders with no groff warning (groff -ww)' '
	for m in "$MAN"/*.[157]; do
		groff -ww -t -man -z "$m" >out.txt 2>&1 || { cat out.txt; exit 1; }
		[ ! -s out.txt ] || { echo "$m:"; cat out.txt; exit 1; }
	done
'

if command -v man >/dev/null 2>&1; then
	t_expect_success 'man --warnings -l renders every page, no warning' '
		for m in "$MAN"/*.[157]; do
			MANWIDTH=80 man --warnings -l "$m" >page.txt 2>err.txt || { cat err.txt; exit 1; }
			[ ! -s err.txt ] || { echo "$m:"; cat err.txt; exit 1; }
			[ "$(wc -l <page.txt)" -gt 10 ] || { echo "$m: renders to almost nothing"; exit 1; }
		done
	'
else
	t_skip 'man --warnings -l renders every page, no warning' 'man-db is not installed'
fi

t_expect_success 'the pages cross-reference only pages that exist' '
	for m in "$MAN"/*.[157]; do
		grep -o "^\.BR [a-z][a-z\\\\-]* ([157])" "$m" | sed "s/^\.BR //; s/\\\\-/-/g; s/ (\(.\))/.\1/" |
		while read -r ref; do
			case $ref in
			ftlkit*|tracecat.1|tracestat.1|ftlsim.1|tracegen.1|wamodel.1|ftlplot.1|ftlsweep.1|tracecapture.1)
				[ -f "$MAN/$ref" ] || { echo "$m names $ref, which is not in man/"; exit 1; } ;;
			esac
		done || exit 1
	done
'

# comp WORD...: what the completion offers for the last word, one a line.
comp() {
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _ftlkit "$1" "${@: -1}"
		printf "%s\n" "${COMPREPLY[@]}"' comp "$COMP" "$@" 2>/dev/null
}

t_expect_success 'completion: generated, and bash reads it' '
	[ -s "$COMP" ] && bash -n "$COMP" &&
	bash -c ". \"$COMP\"; complete -p ftlsim" | grep -q _ftlkit
'

t_expect_success 'completion: every option of every program' '
	for p in $progs; do
		comp "$p" -- | sed "s/=\$//" | sort -u >got.txt
		help_opts "$BIN/$p" >want.txt
		comm -23 want.txt got.txt >missing.txt
		[ ! -s missing.txt ] || { echo "$p: not completed:"; cat missing.txt; exit 1; }
	done
'

t_expect_success 'completion: --pol becomes --policy=, --policy offers every victim policy' '
	[ "$(comp ftlsim --pol)" = "--policy=" ] &&
	comp ftlsim --policy "" >got.txt && "$BIN/ftlsim" --list-policies | awk "/^[^ ]/ { print \$1 }" >want.txt &&
	t_cmp want.txt got.txt &&
	[ "$(comp ftlsim --policy=gr)" = greedy ] &&
	[ "$(comp ftlsim --policy = cb-)" = cb-sqrt ]
'

t_expect_success 'completion: placement names, trace formats, patterns, models, choices' '
	comp ftlsim --placement "" >got.txt && "$BIN/ftlsim" --list-placements | awk "/^[^ ]/ { print \$1 }" >want.txt &&
	t_cmp want.txt got.txt &&
	[ "$(comp ftlsim --placement h)" = hotcold ] &&
	[ "$(comp tracecat -f blkt)" = blktrace ] &&
	[ "$(comp tracestat --format=ms)" = msr ] &&
	[ "$(comp tracegen --pattern z)" = zipf ] &&
	[ "$(comp wamodel -m greedy-m)" = greedy-mf ] &&
	[ "$(comp ftlsim --logical-space f)" = footprint ] &&
	[ "$(comp tracecat --output t)" = text ]
'

t_expect_success 'completion: --device profiles and files, ftlsweep subcommands, choices in prose; no metavariables' '
	comp ftlsim --device "" >got.txt &&
	"$BIN/ftlsim" --list-devices | grep -v "^#" | awk "/^[^ ]/ { print \$1 }" >want.txt &&
	grep -qx femu want.txt && ! grep -vx -f got.txt want.txt && ! grep -x "NAME.*\|FILE" got.txt &&
	mkdir -p ddir && : >ddir/my.dev && [ "$(comp ftlsim --device ddir/m)" = ddir/my.dev ] &&
	[ "$(comp ftlsim --device=tlc-)" = tlc-types ] &&
	[ "$(comp ftlsweep "")" = "$(printf "plan\nrun\nstatus\nmerge\nplot")" ] &&
	[ "$(comp ftlsweep me)" = merge ] && [ "$(comp ftlsweep --sp)" = --split ] &&
	[ "$(comp ftlplot --format s)" = svg ] && [ "$(comp tracecapture --method f)" = ftrace ] &&
	[ "$(comp ftlsim --trim-cost un)" = unqueued ] && [ "$(comp ftlsim --volumes s)" = shard: ] &&
	[ "$(comp tracecat --action Q)" = Q ] && [ "$(comp tracecat -o m)" = mqsim ] && [ "$(comp tracecat --output c)" = csv ] &&
	# every word offered is a value: no metavariable, no piece of a KEY=V list
	sed -n "s/.*_ftlkit_words[a-z_]* '"'"'\([^'"'"']*\)'"'"'.*/\1/p" "$COMP" | tr " " "\n" >words.txt &&
	[ -s words.txt ] && ! grep -v "^[a-z0-9][a-z0-9.-]*:\{0,1\}\$\|^[A-Z]\$" words.txt
'

t_expect_success 'completion: file arguments and operands complete files' '
	mkdir -p cdir && : >cdir/run-curve.csv && : >cdir/trace.ev &&
	[ "$(comp ftlsim --curve cdir/run-)" = cdir/run-curve.csv ] &&
	[ "$(comp ftlsim --trim cdir/tr)" = cdir/trace.ev ] &&
	[ "$(comp tracestat cdir/tr)" = cdir/trace.ev ]
'

# The examples of a page: its commands ("$ " lines and the lines that
# continue them) in the .nf blocks after .SH EXAMPLE or EXAMPLES, the
# groff escapes undone, one file each (ex.N).
examples() {
	awk '/^\.SH/ { on = ($0 ~ /^\.SH EXAMPLES?$/) } on && /^\.nf/ { nf = 1; next } /^\.fi/ { nf = 0 }
		on && nf && /^\$ / { n++; sub(/^\$ /, "") } on && nf && n && !/^\./ { print > ("ex." n) }' "$1"
	for f in ex.*; do
		[ ! -f "$f" ] || sed -i 's/\\-/-/g; s/\\e/\\/g' "$f" || return 1
	done
}
t_expect_success 'every example of a page that replays a bundled sample runs, exit 0' '
	ln -s "$T_TOP/traces" traces && PATH="$BIN:$PATH" && export PATH &&
	for m in "$MAN"/*.[157]; do
		rm -f ex.* && examples "$m" &&
		for e in ex.*; do
			[ -f "$e" ] && grep -q "traces/samples" "$e" || continue
			sh "$e" </dev/null >ex.out 2>ex.err || { echo "$(basename "$m"): exit $?:"; cat "$e" ex.err; exit 1; }
			n=$((${n:-0} + 1))
		done || exit 1
	done &&
	echo "$n examples" && test "$n" -ge 7
'

t_done
