#!/bin/sh
# make install / make uninstall into a DESTDIR and into a PREFIX under a
# temporary folder; the installed programs run outside the tree
# (ftlplot finds its gnuplot scripts in share/ftlkit); and a make after
# the build has nothing to do.
. "$(dirname "$0")/lib.sh"

# The tree is built with the flags in build/flags (SAN=1 in CI, say):
# make must see the same ones, or it would rebuild the tree with others.
mk() {
	make -s -C "$T_TOP" FLAGS_ID="$(cat "$T_TOP/build/flags")" "$@"
}
progs=$(cd "$T_TOP/bin" && ls)

t_expect_success 'a make after the build has nothing to do (no object deleted as intermediate)' '
	mk -q all tests-build || { mk -n all tests-build | head; exit 1; }
'

t_expect_success 'make install DESTDIR=... PREFIX=/usr/local: programs, scripts, pages, completion' '
	mk install DESTDIR="$TMP/stage" PREFIX=/usr/local >log.txt 2>&1 || { cat log.txt; exit 1; }
	r=$TMP/stage/usr/local
	for p in $progs; do
		[ -x "$r/bin/$p" ] || { echo "bin/$p not installed"; exit 1; }
		[ -f "$r/share/man/man1/$p.1" ] || { echo "man1/$p.1 not installed"; exit 1; }
		[ -f "$r/share/bash-completion/completions/$p" ] || { echo "completion for $p not installed"; exit 1; }
	done
	[ -f "$r/share/man/man7/ftlkit.7" ] && [ -f "$r/share/man/man5/ftlkit-events.5" ] &&
	[ -f "$r/share/man/man5/ftlkit-outputs.5" ] && [ -f "$r/share/ftlkit/term.gp" ] &&
	for g in "$T_TOP"/plots/*.gp "$T_TOP"/plots/labels.sh; do t_cmp "$g" "$r/share/ftlkit/${g##*/}" || exit 1; done &&
	[ "$(ls "$r/bin" | sort)" = "$(echo "$progs" | sort)" ]
'

t_expect_success 'the installed programs run outside the tree' '
	r=$TMP/stage/usr/local && mkdir -p away && cd away &&
	"$r/bin/tracegen" --pattern uniform --pages 2048 --fill --writes 8192 -o bin 2>/dev/null >u.ev &&
	"$r/bin/tracecat" -q -o text u.ev | head -1 | grep -q "^0 W 0 4096 0" &&
	"$r/bin/tracestat" -q u.ev | grep -q "\"events\": 10240" &&
	"$r/bin/ftlsim" -q --logical-pages 2048 --pages-per-segment 32 --curve c.csv u.ev >s.json &&
	grep -q "\"host_pages_written\": 10240" s.json &&
	"$r/bin/wamodel" --spare-factor 0.1 --csv | grep -q "^sf,op" &&
	for p in $progs; do "$r/bin/$p" --version | grep -q "(ftlkit)" || exit 1; done
'

if command -v gnuplot >/dev/null 2>&1; then
	t_expect_success 'the installed ftlplot finds its scripts in share/ftlkit and runs the installed ftlsim' '
		r=$TMP/stage/usr/local && cd away &&
		env -u FTLPLOT_PLOTS "$r/bin/ftlplot" --curve c.csv -o figs >out.txt &&
		[ -s figs/wa-curve.png ] &&
		env -u FTLPLOT_PLOTS "$r/bin/ftlplot" -o figs2 -- -q --logical-pages 2048 --pages-per-segment 32 u.ev >out2.txt &&
		[ -s figs2/util-victims.png ] && grep -q "\"program\": \"ftlsim\"" figs2/summary.json &&
		# not the tree: with the scripts gone, it says so
		mv "$r/share/ftlkit" "$r/share/ftlkit.away" &&
		{ env -u FTLPLOT_PLOTS "$r/bin/ftlplot" --curve c.csv -o figs3 2>err.txt; rc=$?; mv "$r/share/ftlkit.away" "$r/share/ftlkit"; } &&
		[ $rc = 1 ] && grep -q "cannot find the gnuplot scripts" err.txt
	'
else
	t_skip 'the installed ftlplot finds its scripts in share/ftlkit and runs the installed ftlsim' 'gnuplot is not installed'
fi

if command -v man >/dev/null 2>&1; then
	t_expect_success 'man finds the installed pages' '
		m=$TMP/stage/usr/local/share/man &&
		for p in $progs ftlkit; do MANPATH=$m man -w "$p" | grep -q "^$m/" || exit 1; done &&
		MANPATH=$m man -w 5 ftlkit-events | grep -q man5
	'
fi

t_expect_success 'the installed completion completes an installed program' '
	c=$TMP/stage/usr/local/share/bash-completion/completions/ftlsim &&
	bash -c ". \"$c\"; COMP_WORDS=(ftlsim --placement sepg); COMP_CWORD=2; _ftlkit ftlsim; echo \${COMPREPLY[*]}" | grep -qx sepgc
'

t_expect_success 'make uninstall leaves no file behind' '
	mk uninstall DESTDIR="$TMP/stage" PREFIX=/usr/local >log.txt 2>&1 || { cat log.txt; exit 1; }
	find "$TMP/stage" ! -type d >left.txt && [ ! -s left.txt ] || { cat left.txt; exit 1; }
	[ ! -d "$TMP/stage/usr/local/share/ftlkit" ]
'

t_expect_success 'make install PREFIX=DIR (no DESTDIR): ftlplot finds DATADIR, uninstall removes all' '
	mk install PREFIX="$TMP/prefix" >log.txt 2>&1 || { cat log.txt; exit 1; }
	grep -q "$TMP/prefix/share/ftlkit" "$TMP/prefix/bin/ftlplot" &&
	"$TMP/prefix/bin/ftlplot" --version | grep -q ftlkit &&
	mk uninstall PREFIX="$TMP/prefix" >log.txt 2>&1 &&
	find "$TMP/prefix" ! -type d >left.txt && [ ! -s left.txt ] || { cat left.txt; exit 1; }
'

if command -v gnuplot >/dev/null 2>&1 && command -v parallel >/dev/null 2>&1; then
	t_expect_success 'an installed ftlsweep, DATADIR apart and run through a symbolic link, finds ftlsim and the scripts' '
		p=$TMP/pfx2 && mk install PREFIX="$p" DATADIR="$p/lib/gp" >log.txt 2>&1 || { cat log.txt; exit 1; }
		mkdir -p sw/links && cd sw && ln -s "$p/bin/ftlsweep" links/ftlsweep &&
		printf "%s\n" "workload u --pattern uniform --pages 2048 --fill --writes 8192 --seed 1" \
			"options --logical-pages 2048 --pages-per-segment 32" "axis op 0.1 0.2" >s.sweep &&
		env -u FTLPLOT_PLOTS PATH=/usr/bin:/bin links/ftlsweep plan s.sweep s.d >out.txt 2>&1 &&
		env -u FTLPLOT_PLOTS PATH=/usr/bin:/bin links/ftlsweep run s.d --local -j 1 >out.txt 2>&1 &&
		env -u FTLPLOT_PLOTS "$p/bin/ftlsweep" plot s.d op wa_measured -o wa.png >out.txt 2>&1 && [ -s wa.png ] &&
		env -u FTLPLOT_PLOTS PATH=/usr/bin:/bin links/ftlsweep plot s.d op wa_measured -o wa2.png >out.txt 2>&1 &&
		[ -s wa2.png ] || { cat out.txt; exit 1; }
		mk uninstall PREFIX="$p" DATADIR="$p/lib/gp" >log.txt 2>&1 &&
		find "$p" ! -type d >left.txt && [ ! -s left.txt ] || { cat left.txt; exit 1; }
	'
fi

t_done
