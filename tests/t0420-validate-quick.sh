#!/bin/sh
# The quick subset of `make validate`: tracegen | ftlsim at 2^18 pages
# against the reference table (greedy mean field, FIFO, random) and the
# LFS write-cost readings; every row within its tolerance.
. "$(dirname "$0")/lib.sh"
# Under the sanitizers (CI's second pass) skipped: the rows' numbers do
# not depend on the build, and the first pass has checked them.
if t_sanitized; then
	t_skip 'validate_model.sh --quick' "the sanitizers' build: the numbers are the plain build's check"
	t_done
	exit
fi
t_expect_success 'validate_model.sh --quick: every row within tolerance' '
	sh "$T_TOP/tests/validate_model.sh" --quick >v.txt 2>&1; rc=$?
	cat v.txt; [ $rc = 0 ] && grep -q "^0 row(s) out of tolerance" v.txt &&
	test $(grep -c "%$" v.txt) -ge 13
'
t_done
