#!/bin/sh
# The age-rewarding victim policies (cb, cb:1, cb:2, cb-sqrt, cat) clean
# an empty sealed segment before any partly valid one: it costs nothing
# to clean. The trace: 16 logical pages in segments of 4 written once,
# then pages 1-3 and 12-15 rewritten, so that when GC runs the oldest
# segment (pages 0-3) holds one valid page and an age of 20 page writes,
# the segment of pages 12-15 none and an age of 8: the LFS formula alone,
# (1-u)*age/(1+u), gives 0.6 * 20 = 12 against 8 and cleans the old one,
# copying its page, where greedy copies nothing.
. "$(dirname "$0")/lib.sh"
S="$BIN/ftlsim"
for p in $(seq 0 15) 1 2 3 12 13 14 15 5 6 7 8 9; do echo "$p"; done |
	awk '{ printf "%d W %d 4096 0\n", NR * 1000, $1 * 4096 }' >"$TMP/empty.txt"
for pol in greedy cb cb:1 cb:2 cb-sqrt cat; do
	t_expect_success "$pol: the empty segment first, no page copied (--check holds)" '
		"$S" -q --check -f ev --logical-pages 16 --pages-per-segment 4 --op 0.5 --policy '"$pol"' \
			empty.txt >s.json 2>/dev/null &&
		jq -e ".segments_cleaned >= 1 and .segments_cleaned_empty == .segments_cleaned and .gc_pages_copied == 0" s.json
	'
done
t_done
