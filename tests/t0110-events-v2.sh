#!/bin/sh
# t0110-events-v2: the event stream's version 2 fields (stream,
# write-lifetime hint, zone operations; docs/FORMATS.md section 5), as
# version 3 carries them, and version 1 read as before: the same events
# from either give the same replay. (The end record: t0115.)
. "$(dirname "$0")/lib.sh"
C="$BIN/tracecat"
G="$BIN/tracegen"
S="$BIN/ftlsim"

"$G" -p hotcold -n 4096 -w 20000 --fill --trim-prob 0.05 -s 3 -o bin >"$TMP/v2.ev" 2>/dev/null
# The same records under a version 1 header (bytes 26..31 are zero in
# records without a stream or hint, as version 1 wants them).
{ printf 'FTLKEV\000\000\001\000\000\000\040\000\000\000'; tail -c +17 "$TMP/v2.ev" | head -c -32; } >"$TMP/v1.ev"

t_expect_success 'tracegen writes version 3; a version 1 stream of the same records reads alike' '
	test "$(head -c 12 v2.ev | od -An -tx1 | tr -d " \n")" = 46544c4b45560000""03000000 &&
	"$C" -q -o text v2.ev >t2 && "$C" -q -o text v1.ev >t1 && t_cmp t1 t2 && test $(wc -l <t1) -gt 20000
'
t_expect_success 'ftlsim gives the same results from version 1 and version 3' '
	for v in v1 v2; do
		"$S" -q --pages-per-segment 32 --op 0.2 --placement oracle:2 --curve $v.csv $v.ev >$v.json &&
		jq -S "del(.timing, .input.path)" $v.json >$v.j || exit 1
	done &&
	t_cmp v1.j v2.j && t_cmp v1.csv v2.csv
'
t_expect_success 'stream, hint and the zone operations round trip through binary and text' '
	printf "0 W 0 4096 0\n1 W 4096 4096 1 3 7 2\n2 W 8192 4096 0 0 65535\n3 ZR 268435456 268435456 0\n4 ZO 268435456 0 0 0 0 1\n5 ZA 268435456 65536 0 0 9\n6 ZF 268435456 0 0\n7 D 0 4096 0\n" >z.txt &&
	"$C" -q z.txt >z.bin && "$C" -q -o text z.bin >back.txt && t_cmp z.txt back.txt &&
	"$C" -q z.txt | "$C" -q -o text - | t_cmp z.txt -
'
t_expect_success 'a version 1 stream may not carry version 2 fields or ops' '
	{ printf "FTLKEV\000\000\001\000\000\000\040\000\000\000"; tail -c +17 z.bin | head -c 64; } >bad1.ev &&
	t_err 1 "bad1.ev: byte 48: nonzero padding byte" "$C" -o text bad1.ev &&
	{ printf "FTLKEV\000\000\001\000\000\000\040\000\000\000"; tail -c +17 z.bin | tail -c +97 | head -c 32; } >bad2.ev &&
	t_err 1 "bad2.ev: byte 16: unknown op code 4" "$C" -o text bad2.ev
'
t_expect_success 'a hint above 5 is a bad record, counted with --skip-bad' '
	{ head -c 48 z.bin; tail -c +49 z.bin | head -c 28; printf "\006\000\000\000"
	  printf "\002"; head -c 23 /dev/zero; printf "\377"; head -c 7 /dev/zero; } >h.bin &&
	t_err 1 "h.bin: byte 48: write-lifetime hint 6 past 5" "$C" -o text h.bin &&
	"$C" -q -o text --skip-bad h.bin >o.txt 2>e.txt && test $(wc -l <o.txt) = 1 && grep -q "1 bad record" e.txt
'
t_expect_success 'the model and tracestat refuse zone operations, naming them' '
	t_err 1 "z.bin: byte 112 \(event 4\): zone operation ZR at byte 268435456: a page-mapped model has no zones" \
		"$S" -q --logical-pages 4096 --pages-per-segment 32 --op 0.3 z.bin &&
	t_err 1 "zone operation ZR at byte 268435456: tracestat characterises block traces only" \
		"$BIN/tracestat" -q z.bin
'
t_done
