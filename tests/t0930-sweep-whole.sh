#!/bin/sh
# t0930-sweep-whole: what an ftlsweep job, run and merge keep when they
# are stopped (SIGTERM, a failure) part of the way: a job's results all
# or none, its summaries with its rows; no temporary of a merge or a
# run left behind; results of another layout refused by merge, naming
# the file.
. "$(dirname "$0")/lib.sh"
if t_sanitized; then
	t_skip 'what ftlsweep keeps when stopped' "the sanitizers' build: the orchestration is the plain build's check"
	t_done
	exit
fi
F="$BIN/ftlsweep"
S="$BIN/ftlsim"
G="$BIN/tracegen"

# wb/ is bin/ with an ftlsim that is $T_SLOW seconds slower when its
# options hold $T_SLOWON (its sleep holds no end of the job's FIFO) and
# fails (exit 3) when they hold $T_FAIL; wp/ has a mv that says in
# $T_MVFLAG when it renames a job's first summary, then takes $T_MVSLOW
# seconds more.
mkdir "$TMP/wb" "$TMP/wp" && cp "$F" "$TMP/wb/ftlsweep" && ln -s "$G" "$TMP/wb/tracegen" &&
cat >"$TMP/wb/ftlsim" <<EOF && chmod +x "$TMP/wb/ftlsim" &&
#!/bin/sh
case " \$* " in *" \${T_FAIL:-none} "*) exit 3 ;; esac
case " \$* " in *" \${T_SLOWON:-none} "*) sleep "\${T_SLOW:-0}" </dev/null ;; esac
exec "$S" "\$@"
EOF
cat >"$TMP/wp/mv" <<EOF && chmod +x "$TMP/wp/mv"
#!/bin/sh
case \$1 in */1.json) [ -z "\${T_MVFLAG:-}" ] || { : >"\$T_MVFLAG"; sleep "\${T_MVSLOW:-0}"; } ;; esac
exec $(command -v mv) "\$@"
EOF
W="$TMP/wb/ftlsweep"
cat >"$TMP/three.sweep" <<EOF
workload u -p uniform -n 4096 --fill -w 20000 -s 1
options --logical-pages 4096 --pages-per-segment 64
axis op 0.1 0.2 0.3
EOF
# until file $1 exists (at most 10 s)
until_file() {
	u_i=0 && until [ -e "$1" ]; do u_i=$((u_i + 1)); [ $u_i -lt 200 ] || { echo "no $1"; return 1; }; sleep 0.05; done
}

t_expect_success 'a job run point by point, stopped by SIGTERM after its first point: exit 143, no summary kept, none in results/' '
	"$F" plan three.sweep pp.d 2>/dev/null && h=$(cat pp.d/jobs.txt) || exit 1
	FTLSWEEP_GRID=0 T_SLOWON="0.2" T_SLOW=30 setsid "$W" run-job pp.d $h 2>/dev/null & p=$!
	trap "kill -9 -$p 2>/dev/null" EXIT
	i=0 && until grep -q -- "--op 0.2" pp.d/logs/$h.err 2>/dev/null; do i=$((i + 1)); [ $i -lt 200 ] || exit 1; sleep 0.05; done
	sleep 0.2
	kill -TERM $p; wait $p; rc=$?
	test $rc = 143 || { echo "exit $rc"; exit 1; }
	test -z "$(ls pp.d/results)" && test -z "$(ls pp.d/state)" || { ls pp.d/results pp.d/state; exit 1; }
	FTLSWEEP_GRID=0 "$F" run-job pp.d $h 2>/dev/null && test "$(ls pp.d/results | tr "\n" " ")" = "$h.1.json $h.2.json $h.3.json $h.csv "
'
t_expect_success 'a job run point by point whose second point fails keeps no summary of its first' '
	"$F" plan three.sweep pf.d 2>/dev/null && h=$(cat pf.d/jobs.txt) || exit 1
	FTLSWEEP_GRID=0 T_FAIL="0.2" t_err 1 "job $h .* failed with status 3" "$W" run-job pf.d $h &&
	test -z "$(ls pf.d/results)" && test "$(ls pf.d/state)" = "$h.failed" || { ls pf.d/results pf.d/state; exit 1; }
'
t_expect_success 'a job stopped by SIGTERM while its results are renamed into results/: too late, the job ends whole (exit 0)' '
	"$F" plan three.sweep mv.d 2>/dev/null && h=$(cat mv.d/jobs.txt) || exit 1
	for g in 1 0; do
		rm -f mv.flag mv.d/results/*
		FTLSWEEP_GRID=$g T_MVFLAG=$PWD/mv.flag T_MVSLOW=1 PATH="$TMP/wp:$PATH" setsid "$W" run-job mv.d $h 2>mv.err & p=$!
		until_file mv.flag || exit 1
		kill -TERM $p; wait $p; rc=$?
		test $rc = 0 || { echo "grid $g: exit $rc"; cat mv.err; exit 1; }
		test "$(ls mv.d/results | tr "\n" " ")" = "$h.1.json $h.2.json $h.3.json $h.csv " && test -z "$(ls mv.d/state)" ||
			{ echo "grid $g:"; ls mv.d/results mv.d/state; exit 1; }
	done
'
t_done
