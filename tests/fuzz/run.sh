#!/bin/sh
# tests/fuzz/run.sh - build the libFuzzer harness with clang (ASan+UBSan)
# and run it for FUZZ_SECONDS on every format, seeded with the real
# samples and the bad-input corpus. New crashes land in build/fuzz/crash-*;
# keep each as a regression file under tests/data/fuzz/.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
SECS=${FUZZ_SECONDS:-60}
F=build/fuzz
mkdir -p $F
SRC="lib/*.c analyzers/readers.c analyzers/trace.c analyzers/btset.c analyzers/writers.c analyzers/rd_*.c $(ls analyzers/csvrec.c 2>/dev/null || true)"
# shellcheck disable=SC2086
clang -std=c11 -D_GNU_SOURCE -g -O1 -Ilib -Ianalyzers -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=undefined $SRC tests/fuzz/fuzz_trace.c -o $F/fuzz_trace \
	-lcsv -ljansson -lz -lbz2 -lzstd -llzma -lm
formats=${FUZZ_FORMATS:-$(bin/tracecat --list-formats | awk '{print $1}') auto}
for f in $formats; do
	c=$F/corpus-$f
	mkdir -p "$c"
	# Seeds: samples and bad inputs, cut to 64 KiB so the fuzzer stays fast.
	find traces/samples tests/data -type f ! -name '*.md' | while read -r s; do
		head -c 65536 "$s" >"$c/seed-$(echo "$s" | tr / _)"
	done
	echo "== fuzzing $f for $SECS s" >&2
	FUZZ_FORMAT=$f $F/fuzz_trace "$c" -max_total_time="$SECS" -max_len=65536 \
		-artifact_prefix=$F/crash-$f- -print_final_stats=1 2>$F/log-$f.txt || {
		echo "fuzz: $f crashed; see $F/log-$f.txt and $F/crash-$f-*" >&2
		tail -30 $F/log-$f.txt >&2
		exit 1
	}
	grep -E 'stat::number_of_executed_units|stat::peak_rss_mb' $F/log-$f.txt |
		sed "s/^/$f: /"
done
