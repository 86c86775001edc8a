#!/bin/sh
# t0510-wamodel: the reference table (FIFO: Desnoyers, SYSTOR 2012, eq. 4;
# greedy: the mean-field model after Van Houdt, SIGMETRICS 2013; values
# copied here) printed by bin/wamodel, the worst-case table, sweep
# output shape, JSON form, bad arguments.
. "$(dirname "$0")/lib.sh"
W="$BIN/wamodel"

# col FILE NAME: the values of CSV column NAME, one per line.
col() {
	awk -F, -v name="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next }
		{ print $c }' "$1"
}

# Compare a column with expected values printed to 3 decimals, or
# within a relative 1e-3 (the table's 6.616 is 6.61549 exactly).
check3() {
	col "$1" "$2" | paste -d' ' - "$3" | awk '{ r = sprintf("%.3f", $1) + 0;
		if (r != $2 + 0 && ($1 - $2) ^ 2 > (1e-3 * $2) ^ 2) { print "got", $1, "want", $2; bad = 1 } }
		END { exit bad }'
}

t_expect_success 'default points are the reference table, FIFO eq. 4 column' '
	"$W" --csv >t.csv &&
	test "$(wc -l <t.csv)" = 10 &&
	printf "%s\n" 10.172 7.318 5.179 3.519 2.693 2.201 1.876 1.480 1.255 >want &&
	check3 t.csv wa_fifo want
'

t_expect_success 'greedy b=64 mean field matches the table' '
	"$W" --csv -m greedy-mf -b 64 >t.csv &&
	printf "%s\n" 8.850 6.616 4.821 3.354 2.599 2.140 1.833 1.455 1.239 >want &&
	check3 t.csv wa_greedy_mf want
'

t_expect_success 'random victim matches the table' '
	"$W" --csv -m random >t.csv &&
	printf "%s\n" 20 14.286 10 6.667 5 4 3.333 2.5 2 >want &&
	check3 t.csv wa_random want
'

t_expect_success 'the sf column is the table.s spare factors' '
	"$W" --csv -m random >t.csv &&
	test "$(col t.csv sf | tr "\n" " ")" = "0.05 0.07 0.1 0.15 0.2 0.25 0.3 0.4 0.5 "
'

t_expect_success 'cross-check: OP = 0.3 gives FIFO WA 2.364 (Xiang & Kurkoski)' '
	"$W" --csv -m fifo --op 0.3 >t.csv &&
	test "$(col t.csv wa_fifo | awk "{ printf \"%.3f\", \$1 }")" = 2.364 &&
	test "$(col t.csv alpha)" = 1.3
'

# Near Sf = 0, WA_FIFO = 1/(2 Sf) + 1/6 + O(Sf); the values solve a =
# exp(-alpha(1-a)) as h(1-a) = OP, h(d) = -ln(1-d)/d - 1 by its series.
t_expect_success 'FIFO keeps its precision near Sf = 0 (the Lambert W form cancels: 4.6e7 for 5e8 at Sf = 1e-9)' '
	for p in 1e-5:50000.166667777805 1e-7:5000000.166666679 1e-9:500000000.1666666 1e-12:500000000000.16675; do
		"$W" --csv -m fifo -s ${p%%:*} >t.csv &&
		col t.csv wa_fifo | awk -v want=${p#*:} "{ print; exit !((\$1 - want) ^ 2 <= (1e-9 * want) ^ 2) }" || return 1
	done
'

t_expect_success 'the three ways to name a point agree' '
	"$W" --csv -m fifo -s 0.2 >a.csv && "$W" --csv -m fifo --op 0.25 >b.csv &&
	"$W" --csv -m fifo -u 0.8 >c.csv &&
	test "$(col a.csv wa_fifo)" = "$(col b.csv wa_fifo)" &&
	test "$(col a.csv wa_fifo)" = "$(col c.csv wa_fifo)"
'

t_expect_success 'worst case: N = 2,3,4,4,5,7,10 for X = .5 .6 .7 .75 .8 .85 .9' '
	for x in .5 .6 .7 .75 .8 .85 .9; do
		"$W" --csv -m worst-case -u $x >t.csv || return 1
		col t.csv worst_case_n
	done | tr "\n" " " >got &&
	test "$(cat got)" = "2 3 4 4 5 7 10 "
'

t_expect_success 'worst case over a sweep of X and WA = 1/(1-X)' '
	"$W" --csv -m worst-case --sweep x=0.5:0.9:0.1 >t.csv &&
	test "$(col t.csv worst_case_n | tr "\n" " ")" = "2 3 4 5 10 " &&
	col t.csv worst_case_wa | tr "\n" " " | grep -qx "2 2.5 3.333333333 5 10 "
'

t_expect_success 'worst case near X = 1: N about 1/(1-X) (0 before, from X = 1 - 1e-9), null where rho rounds to 1' '
	"$W" --csv -m worst-case -s 1e-9 >t.csv &&
	col t.csv worst_case_n | awk "{ print; exit !(\$1 > 0.99e9 && \$1 < 1.01e9) }" &&
	"$W" --csv -m worst-case -s 1e-17 | tail -1 | grep -qx "1e-17,1e-17,1,1,nan,nan" &&
	"$W" -m worst-case -s 1e-17 | grep -q "\"worst_case_n\": null"
'

t_expect_success 'LFS write cost at X = .75 is 4.4 (figure 4), cleaned at u = .55' '
	"$W" --csv -m lfs -u 0.75 >t.csv &&
	test "$(col t.csv lfs_write_cost | awk "{ printf \"%.1f\", \$1 }")" = 4.4 &&
	test "$(col t.csv lfs_cleaned_util | awk "{ printf \"%.2f\", \$1 }")" = 0.55
'

t_expect_success 'sweep: one row per point, the same columns on every row' '
	"$W" --csv --sweep 0.05:0.5:0.05 >t.csv &&
	test "$(wc -l <t.csv)" = 11 &&
	awk -F, "NR == 1 { n = NF } NF != n { exit 1 }" t.csv &&
	head -1 t.csv | grep -q "^sf,op,alpha,rho,wa_fifo," &&
	head -1 t.csv | grep -q ",wa_dchoices_2,wa_dchoices_10," &&
	col t.csv sf | awk "NR > 1 && \$1 <= prev { exit 1 } { prev = \$1 }"
'

t_expect_success 'sweep over OP, and --choices names the d-choices columns' '
	"$W" --csv -m dchoices --choices 1,3 --sweep op=0.1:1:0.1 >t.csv &&
	test "$(wc -l <t.csv)" = 11 &&
	test "$(head -1 t.csv)" = "sf,op,alpha,rho,wa_dchoices_1,wa_dchoices_3" &&
	awk -F, "NR > 1 && ((\$5 - 1 / \$1) ^ 2 > 1e-12 || \$6 >= \$5) { exit 1 }" t.csv
'

t_expect_success 'greedy-approx, an approximation for large b: nan where it falls below 1 (b = 1, Sf .5; b = 2, Sf .4), a WA at b = 64' '
	"$W" --csv -m greedy-approx,greedy-mf -b 1 -s .5 | tail -1 | grep -q ",nan,1,0,0$" &&
	"$W" --csv -m greedy-approx -b 2 -s .4 | tail -1 | grep -q ",nan$" &&
	"$W" --csv -m greedy-approx -b 64 -s .4 | tail -1 | awk -F, "{ exit !(\$NF >= 1) }"
'
t_expect_success 'models keep table order whatever order --model names them' '
	"$W" --csv -m random,fifo -s .1 | head -1 >h &&
	test "$(cat h)" = "sf,op,alpha,rho,wa_fifo,fifo_victim_valid_frac,wa_random"
'

t_expect_success 'JSON: stable key order, parameters echoed, same bytes twice' '
	"$W" -m fifo --op 0.3 >a.json && "$W" -m fifo --op 0.3 >b.json && t_cmp a.json b.json &&
	head -3 a.json | tail -2 | tr -d " " | tr "\n" " " | grep -qx "\"program\":\"wamodel\", \"version\":.*" &&
	grep -q "\"pages_per_segment\": 64" a.json &&
	grep -q "\"wa_fifo\": 2.364234" a.json &&
	grep -n "\"sf\":\|\"op\":\|\"alpha\":\|\"rho\":\|\"wa_fifo\":" a.json | tail -5 | cut -d: -f2 |
		tr -d " \"" | tr "\n" " " | grep -qx "sf op alpha rho wa_fifo "
'

t_expect_success 'hot/cold columns; above b = 256 the greedy mixed model is null' '
	"$W" --csv -m hotcold -s .1 >t.csv &&
	test "$(col t.csv wa_hc_mixed_greedy_mf | awk "{ printf \"%.2f\", \$1 }")" = 5.88 &&
	"$W" -m hotcold -s .1 -b 257 | grep -q "\"wa_hc_mixed_greedy_mf\": null"
'

t_expect_success '--help to stdout, --version' '
	"$W" --help >h.txt && grep -q "^Usage: wamodel" h.txt && grep -q greedy-mf h.txt &&
	"$W" --version | grep -q "^wamodel (ftlkit)"
'

for args in "-s 0" "-s 1" "-s abc" "--op -1" "--op 0" "-u 1.2" "-s .1 --op .2" \
	"--sweep 0.5:0.1:0.1" "--sweep 0.1:0.5:0" "--sweep q=0.1:0.2:0.1" "--sweep 0.1:0.2" \
	"--sweep 0:0.5:0.1" "--sweep 0.1:0.9:0.0000001" "-m nope" "-m fifo,,x" "-b 0" "-b 100000" \
	"--choices 0" "--choices x" "--hot-prob 1" "--hot-frac 0" "extra" "--bogus" "--json --csv" "-u .8 --csv --json"; do
	t_expect_success "usage error: wamodel $args" "t_err 2 'wamodel: ' \"\$W\" $args"
done

t_done
