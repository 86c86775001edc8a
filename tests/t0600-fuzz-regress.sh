#!/bin/sh
# Inputs the fuzzer once crashed on (tests/data/fuzz): every format and
# auto-detection must now end with a clean exit (0 or 1), never a crash
# or a sanitizer report (the suite also runs under SAN=1).
. "$(dirname "$0")/lib.sh"
for f in "$DATA"/fuzz/*; do
	[ -f "$f" ] || continue
	for fmt in auto $("$BIN/tracecat" --list-formats | awk '{print $1}'); do
		# (csv reads through a column map: one of every field kind)
		map=
		[ "$fmt" != csv ] || map="--columns 't=1:us op=2:R=R,W=W,D=D offset=3:sectors length=4 volume=5'"
		for skip in "" --skip-bad; do
			t_expect_success "$(basename "$f") as $fmt $skip ends cleanly" "
				\"\$BIN/tracecat\" -q -f $fmt $map $skip -o text \"$f\" >/dev/null 2>err.txt
				rc=\$?; [ \$rc -le 1 ] && ! grep -q Sanitizer err.txt
			"
		done
	done
done
t_done
