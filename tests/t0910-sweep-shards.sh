#!/bin/sh
# t0910-sweep-shards: a per-volume study past one machine. ftlsim
# --volumes shard:K/N runs the volumes of shard K (a fixed hash of the
# volume id); the N shards' rows are the unsharded run's. An ftlsweep
# sweep with "shards N" runs N jobs per input, as N Slurm array tasks on
# a one-node cluster started here (tests/slurm/cluster.sh) or through GNU
# parallel, and merges them into one CSV whose overall WA and per-volume
# percentiles are recomputed over every volume: the unsharded sweep's
# CSV and ftlsim's own figures, on the bundled Tencent sample.
. "$(dirname "$0")/lib.sh"
F="$BIN/ftlsweep"
S="$BIN/ftlsim"
TC="$SAMPLES/tencent/cbs-sample.csv.bz2"
A="--per-volume --logical-space footprint --pages-per-segment 16 --precondition random"

cat >"$TMP/sh.sweep" <<EOF
trace $TC cbs
options --logical-space footprint --pages-per-segment 16 --precondition random
axis policy greedy cb
axis op 0.15 0.3
shards 4
EOF
cat >"$TMP/un.sweep" <<EOF
trace $TC cbs
options --per-volume --logical-space footprint --pages-per-segment 16 --precondition random
axis policy greedy cb
axis op 0.15 0.3
EOF
# a CSV column by name (the merged CSV has no quoted field here)
col() { awk -F, -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next } { print $k }' "$1"; }
# x formatted as the merged CSV prints its figures
g10() { awk -v x="$1" 'BEGIN { printf "%.10g\n", x }'; }

t_expect_success 'ftlsim --volumes shard:K/N: the 4 shards are disjoint, their rows together the unsharded run'"'"'s' '
	"$S" -q $A --grid policy=greedy,cb --results all.csv "$TC" >all.json 2>/dev/null &&
	for k in 0 1 2 3; do
		"$S" -q $A --grid policy=greedy,cb --volumes shard:$k/4 --results s$k.csv "$TC" >s$k.json 2>/dev/null &&
		test "$(jq -r .per_volume.shard s$k.json)" = "$k/4" || exit 1
	done &&
	tail -n +2 all.csv | cut -d, -f2- | sort >want &&
	for k in 0 1 2 3; do tail -n +2 s$k.csv; done | cut -d, -f2- | sort >got && t_cmp want got &&
	test $(wc -l <want) -gt 300 &&
	test $(for k in 0 1 2 3; do tail -n +2 s$k.csv | cut -d, -f2 | sort -u; done | sort | uniq -d | wc -l) -eq 0 &&
	test "$(jq .per_volume.volumes_selected s0.json s1.json s2.json s3.json | awk "{ n += \$1 } END { print n }")" = \
		"$(jq .per_volume.volumes_selected all.json)"
'
t_expect_success 'a shard is a fixed function of the volume id: with top:N, the shards of the top N' '
	"$S" -q $A --volumes top:40 --results t.csv "$TC" >/dev/null 2>&1 &&
	for k in 0 1; do "$S" -q $A --volumes top:40 --volumes shard:$k/2 --results t$k.csv "$TC" >/dev/null 2>&1 || exit 1; done &&
	tail -n +2 t.csv | cut -d, -f2 | sort >want && tail -q -n +2 t0.csv t1.csv | cut -d, -f2 | sort >got && t_cmp want got &&
	"$S" -q $A --volumes shard:1/2 --results u1.csv "$TC" >/dev/null 2>&1 &&
	tail -n +2 t1.csv | cut -d, -f2 | sort >a && tail -n +2 u1.csv | cut -d, -f2 | sort >b && comm -23 a b | grep -c . | grep -qx 0
'
t_expect_success 'shard:K/N errors: K out of range, not a number, twice, without --per-volume (exit 2)' '
	t_err 2 "shard K from 0 to N-1" "$S" -q $A --volumes shard:4/4 "$TC" &&
	t_err 2 "shard K from 0 to N-1" "$S" -q $A --volumes shard:1/0 "$TC" &&
	t_err 2 "shard K from 0 to N-1" "$S" -q $A --volumes shard:x/2 "$TC" &&
	t_err 2 "given once" "$S" -q $A --volumes shard:0/2 --volumes shard:1/2 "$TC" &&
	t_err 2 "select volumes of --per-volume" "$S" -q --volumes shard:0/2 "$TC"
'
# Under the sanitizers (CI's second pass) the sweeps below are skipped:
# they test the orchestration (shell, daemons), which the first pass has
# tested; the ftlsim shard runs above are its C code, and the daemons'
# start-up costs a minute.
if t_sanitized; then
	t_skip 'the sharded sweeps: plan, merge, Slurm and GNU parallel' "the sanitizers' build: the orchestration is the plain build's check"
	t_done
	exit
fi
t_expect_success 'plan: shards 4 gives 4 jobs of the input, each with its shard; per-volume without shards one job' '
	"$F" plan sh.sweep sh.d 2>err && grep -q "4 jobs, 4 configurations, their volumes in 4 shards" err &&
	for k in 0 1 2 3; do grep -l "^volumes	shard:$k/4$" sh.d/jobs/*.job || exit 1; done >/dev/null &&
	grep -q "^point	greedy,0.15	.* --per-volume --policy greedy --op 0.15$" sh.d/jobs/*.job &&
	"$F" plan un.sweep un.d 2>/dev/null && test $(wc -l <un.d/jobs.txt) -eq 1 && grep -q "^volumes	all$" un.d/jobs/*.job &&
	printf "trace %s\nshards 0\n" "$TC" >b1.sweep && t_err 1 "b1.sweep:2: shards takes a number" "$F" plan b1.sweep b1.d &&
	printf "trace %s\nworkload w -p uniform -n 4096 -w 1000\noptions --per-volume\n" "$TC" >bw.sweep &&
	t_err 1 "^ftlsweep: bw.sweep:2: a per-volume sweep reads each trace twice .* give it as a trace$" "$F" plan bw.sweep bw.d &&
	test ! -e bw.d/jobs.txt &&
	printf "trace %s\nshards 2\nshards 3\n" "$TC" >b2.sweep && t_err 1 "b2.sweep:3: shards given twice" "$F" plan b2.sweep b2.d &&
	printf "trace %s\noptions --results x.csv\nshards 2\n" "$TC" >b3.sweep && t_err 1 "sets --results" "$F" plan b3.sweep b3.d
'
t_expect_success 'run --local: the sharded sweep merges to the unsharded sweep'"'"'s rows, by volume' '
	"$F" run sh.d --local -j 2 2>/dev/null && "$F" run un.d --local 2>/dev/null &&
	"$F" merge sh.d -o sh.csv && "$F" merge un.d -o un.csv &&
	head -1 sh.csv | grep -qx "job,input,policy,op,volume,events,.*,victim_utilization_mean,host_lfs.wa_host,.*,timing.gc_wait_s,volumes,wa_overall,wa_p10,wa_p50,wa_p90,wa_p99,wa_max" &&
	cut -d, -f2- sh.csv >a && cut -d, -f2- un.csv >b && t_cmp a b && test $(wc -l <a) -gt 1000 &&
	test $(cut -d, -f1 sh.csv | sort -u | wc -l) -eq 5
'
t_expect_success 'the overall columns are ftlsim'"'"'s own: wa_overall and wa_per_volume of the unsharded run' '
	for c in "greedy 0.15" "cb 0.3"; do
		set -- $c
		"$S" -q $A --policy $1 --op $2 "$TC" >one.json 2>/dev/null || exit 1
		awk -F, -v p=$1 -v o=$2 "\$3 == p && \$4 == o" sh.csv >rows && test -s rows || exit 1
		test "$(cut -d, -f28 rows | sort -u)" = "$(jq .configurations[0].wa_per_volume.volumes one.json)" || exit 1
		test "$(cut -d, -f29 rows | sort -u)" = "$(g10 "$(jq .configurations[0].wa_overall one.json)")" || exit 1
		i=30
		for q in p10 p50 p90 p99 max; do
			test "$(cut -d, -f$i rows | sort -u)" = "$(g10 "$(jq .configurations[0].wa_per_volume.$q one.json)")" || exit 1
			i=$((i + 1))
		done
	done
'
t_expect_success 'a shard not finished: its configurations'"'"' overall columns are empty, said on stderr' '
	cp -r sh.d part.d && rm part.d/results/$(sed -n 3p part.d/jobs.txt).csv &&
	"$F" merge part.d >part.csv 2>err && grep -q "1 jobs not finished" err &&
	test "$(col part.csv wa_overall | sort -u)" = "" && test $(wc -l <part.csv) -lt $(wc -l <sh.csv)
'
t_expect_success 'README "Replaying a cloud trace": its sharded sweep is this one, with the figures it quotes' '
	awk "/^## /{ on = (\$0 == \"## Replaying a cloud trace\") } on && /^    (trace|options|axis|shards) /" "$T_TOP/README.md" |
		sed "s/^    //; s|traces/samples|$SAMPLES|" >readme.sweep && t_cmp sh.sweep readme.sweep &&
	awk -F, "\$3 == \"greedy\" && \$4 == 0.15 { printf \"%d volumes run (%s are too small for 16-page segments and are skipped): overall WA %.2f, per-volume median %.2f, p90 %.2f\n\", \$28, \"1,707\", \$29, \$31, \$32; exit }" sh.csv >fig &&
	tr "\n" " " <"$T_TOP/README.md" | tr -s " " | grep -qF "$(cat fig)" &&
	"$S" -q $A --policy greedy --op 0.15 "$TC" 2>/dev/null | jq -e ".configurations[0].volumes_skipped == 1707" >/dev/null
'

# A real one-node Slurm cluster: started here, stopped whatever happens.
if [ "$(id -u)" != 0 ]; then
	t_skip 'the 4 shards as a 4-task Slurm job array merge to the unsharded CSV' 'Slurm needs root here (slurmd runs jobs as their user)'
else
	t_expect_success 'the 4 shards as a 4-task Slurm job array on a one-node cluster merge to the unsharded CSV' '
		trap "sh \"$T_TOP/tests/slurm/cluster.sh\" stop \"$TMP/slurm\"" EXIT
		eval "$(sh "$T_TOP/tests/slurm/cluster.sh" start "$TMP/slurm")" || exit 1
		"$F" plan sh.sweep sl.d 2>/dev/null &&
		"$F" run sl.d --slurm --time 5 >sb.out 2>sb.err || { cat sb.out sb.err; exit 1; }
		# Without --wait (t0900 tests it): ftlsweep status, every 0.2 s.
		i=0 && until "$F" status sl.d | grep -q "^4 done\|[1-9] failed"; do
			i=$((i + 1)); [ $i -lt 600 ] || { echo "not done in 120 s: $("$F" status sl.d)"; exit 1; }; sleep 0.2
		done &&
		grep -q "^Submitted batch job" sb.out && grep -qx "#SBATCH --array=0-3" sl.d/slurm/array-*.sh &&
		ls sl.d/logs/slurm-*_3.out >/dev/null &&
		"$F" status sl.d | grep -qx "4 done, 0 running, 0 failed, 0 waiting" &&
		"$F" merge sl.d >slurm.csv && t_cmp sh.csv slurm.csv
	'
fi
t_done
