#!/bin/sh
# sepbit_compare.sh: the same workloads through ftlsim and SepBIT's
# simulator (Wang et al., FAST'22; github.com/fallfish/sepbit,
# trace_replay), every placement scheme the two have in common, one
# table of both WAs. The simulator is not part of ftlkit: build it
# yourself and name its class directory in SEPBIT_CLASSES, e.g.
#   git clone https://github.com/fallfish/sepbit && cd sepbit/trace_replay
#   sed -i '/import org.apache.kerby/d' src/main/java/gcsimulator/Log.java
#   CP=/usr/share/java/trove4j.jar:/usr/share/java/commons-math3.jar:/usr/share/java/commons-lang3.jar
#   javac -nowarn -d classes -cp $CP $(find src -name '*.java')
# (Debian: libtrove3-java libcommons-math3-java libcommons-lang3-java).
#
#   SEPBIT_CLASSES=DIR sh tests/sepbit_compare.sh [greedy|cb] [PAGES]
#
# Both run GC by garbage proportion (15%) on 1 MiB segments, one victim
# per operation, at most one operation per request (ftlsim --gc-ops 1),
# six classes; SepBIT's Greedy and CostBenefit are
# ftlkit's greedy and cb-sqrt. Workloads: tracegen's uniform, zipf:0.8,
# zipf:1.0 and 90/10 hot/cold on PAGES pages (default 131072), filled
# once, then 10 x PAGES writes; one request per page, 1 us apart, so
# that both simulators' clocks count the same writes. FK reads the
# lifespans of every write (its "oracle"), computed here with awk.
set -eu
: "${SEPBIT_CLASSES:?name the directory of SepBIT's compiled classes}"
SEL=${1:-greedy}
N=${2:-131072}
BIN=${BIN:-$(cd "$(dirname "$0")/.." && pwd)/bin}
W=$(mktemp -d "${TMPDIR:-/tmp}/sepbit.XXXXXX")
trap 'rm -rf "$W"' EXIT
CP="$SEPBIT_CLASSES:/usr/share/java/trove4j.jar:/usr/share/java/commons-math3.jar:/usr/share/java/commons-lang3.jar"
case $SEL in greedy) JSEL=Greedy FSEL=greedy ;; cb) JSEL=CostBenefit FSEL=cb-sqrt ;;
*) echo "usage: $0 [greedy|cb] [PAGES]" >&2; exit 2 ;; esac
mkdir -p "$W/oracles"
for wl in uniform:uniform zipf08:zipf:0.8 zipf10:zipf:1.0 hc9010:hotcold; do
	name=${wl%%:*} pat=${wl#*:}
	"$BIN/tracegen" -p "$pat" -n "$N" -w $((N * 10)) --fill -s 1 -o bin >"$W/$name.ev" 2>/dev/null
	"$BIN/tracegen" -p "$pat" -n "$N" -w $((N * 10)) --fill -s 1 -o text 2>/dev/null |
		awk -v v="$name" '{ printf "%s,W,%s,%s,%d\n", v, $3, $4, $1 / 1000 }' >"$W/$name.csv"
	# each write's lifespan in writes until its page is written again
	awk -F, '{ lba[NR] = $3 } END {
		for (i = NR; i >= 1; i--) { l = lba[i]; life[i] = (l in nxt) ? nxt[l] - i : "18446744073709551615"; nxt[l] = i }
		for (i = 1; i <= NR; i++) print life[i] }' "$W/$name.csv" >"$W/oracles/$name.oracle"
	echo "$name $N $((N * 4096))" >"$W/$name.prop"
	echo "$W/$name.csv" >"$W/$name.list"
	for pair in NoSep:single SepGC:sepgc DAC:dac SFS:sfs MultiLog:multilog ETI:eti MultiQueue:mq \
		SFR:sfr FADaC:fadac WARCIP:warcip SepBIT:sepbit FK:fk:6,R=1; do
		j=${pair%%:*} f=${pair#*:}
		rm -rf "$W/run" && mkdir -p "$W/run/segments" "$W/run/ondiskfifo"
		jwa=$(java -Xmx4g -cp "$CP" gcsimulator.Simulator --path "$W/$name.list" --propertyPath "$W/$name.prop" \
			--outputPrefix "$W/run/" --selectionAlgorithm $JSEL --setSeparateMethod $j --setNumOpenSegments 6 \
			--setSegmentSize 1048576 --printGCInfo 0 --printSegmentInSummary 0 --indexMapType PureInMem \
			--indexMapCache Null --oraclePath "$W/oracles" 2>&1 | awk '/\*\* WA \*\*/ { print $NF }')
		fwa=$("$BIN/ftlsim" -q --op 0.5 --gc-trigger gp:0.15 --gc-ops 1 --segment-bytes 1M --policy $FSEL --placement $f \
			"$W/$name.ev" | jq -r .wa_total)
		awk -v w=$name -v s=$f -v a="$jwa" -v b="$fwa" 'BEGIN { printf "%-8s %-9s %.4f %.4f %+.2f%%\n", w, s, a, b, (b / a - 1) * 100 }'
	done
done
