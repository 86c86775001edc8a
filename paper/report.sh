#!/bin/sh
# paper/report.sh - assemble the report OUT/README.md from what the
# figure scripts left in OUT/NN-*/ (setup.md, table.txt, extra.md,
# checks.txt, the PNG figures), its LaTeX OUT/paper.tex (pandoc), and
# OUT/paper.pdf when pdflatex is installed.
#
#   sh paper/report.sh OUT        (from make paper)
#
# A difference over 5% between a published and a reproduced value gets
# a sentence made from the two numbers, plus the note of paper/NN-*.notes
# whose pattern matches the row's id ("PATTERN: text"; PATTERN a shell
# glob; {pub} {rep} {diff} in the text are replaced by the numbers).
set -eu
export LC_ALL=C
O=${1:?usage: report.sh OUT}
out=$O/README.md
tmp=$out.tmp.$$
trap 'rm -f "$tmp"' EXIT
now=$(date +%s)
t0=$(cat "$O/t0" 2>/dev/null || echo "$now")
quick=$(cat "$O/quick" 2>/dev/null || echo 0)
# Time is what this make took, from its first step (paper-t0) to here.
elapsed=$((now - t0))
nruns=$(ls "$O"/runs/*.json 2>/dev/null | wc -l)
cpu=$(cat "$O"/runs/*.time 2>/dev/null | awk '{ s += $1 } END { printf "%.0f", s }')
jobs=$(printf '%s\n' "${MAKEFLAGS:-}" | tr ' ' '\n' | sed -n 's/^-j\([0-9]*\)$/\1/p' | head -n 1)
model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)

figs=$(for d in "$O"/[0-9][0-9]-*/; do [ -f "$d/done" ] && basename "$d"; done)

# The sentence for one row of a table over 5% apart.
sentence() { # FIG ID QUANTITY PUB REP DIFF TOL SOURCE
	awk -v q="$3" -v p="$4" -v r="$5" -v d="$6" -v t="$7" -v src="$8" 'BEGIN {
		what = src ~ /^wamodel/ ? "the model'\''s" : "the published"
		s = sprintf("%s: the reproduced %s is %.1f%% %s %s %s", q, r, d < 0 ? -d : d, d < 0 ? "below" : "above", what, p)
		if (t != "") {
			g = r - p; if (g < 0) g = -g
			if (g <= t + 1e-9) s = s sprintf(", within the +-%s to which the published value is read off the plot", t)
			else s = s sprintf(", %.1f times the +-%s to which the published value is read off the plot", g / t, t)
		}
		print s "." }'
	notes=paper/$1.notes
	[ -f "$notes" ] || return 0
	grep -v '^#' "$notes" | while IFS= read -r line; do
		pat=${line%%:*}
		text=${line#*: }
		# shellcheck disable=SC2254
		case $2 in $pat)
			echo "$text" | sed "s/{pub}/$4/g; s/{rep}/$5/g; s/{diff}/$6/g"
			break ;;
		esac
	done
}

{
	cat paper/intro.md
	echo
	if [ "$quick" = 1 ]; then
		echo "**QUICK mode** (\`make paper QUICK=1\`): the same experiments at a smaller scale; the numbers"
		echo "are rough and the checks marked quick=no are only reported (INFO)."
		echo
	fi
	echo "**Run:** $(date -u -d "@$now" '+%Y-%m-%d %H:%M UTC'); this \`make paper\` took $elapsed s"
	echo "(wall clock, from its first step to this report, measured with date in the make rules), with"
	echo "make -j${jobs:-1} on $(nproc) cores${model:+ ($model)}; $nruns experiments, $cpu s of run time summed over them"
	echo "(each run's own time is in runs/HASH.time). ftlkit $(bin/ftlsim --version | awk '{ print $NF }'), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)."
	echo
	echo "## Checks"
	echo
	echo "Measured by the figure scripts; each line prints its numbers."
	echo
	for f in $figs; do sed 's/^/    /' "$O/$f/checks.txt"; done
	echo
	npass=$(cat "$O"/*/checks.txt | grep -c '^PASS' || true)
	nfail=$(cat "$O"/*/checks.txt | grep -c '^FAIL' || true)
	ninfo=$(cat "$O"/*/checks.txt | grep -c '^INFO' || true)
	echo "$npass passed, $nfail failed, $ninfo reported only."
	echo
	n=0
	for f in $figs; do
		n=$((n + 1))
		title=$(. "./paper/$f.params" >/dev/null 2>&1; echo "${TITLE:-$f}")
		images=$(. "./paper/$f.params" >/dev/null 2>&1; echo "${IMAGES:-}")
		echo "## Figure $n. $title"
		echo
		echo "### Setup"
		echo
		cat "$O/$f/setup.md"
		echo
		# each image captioned by its own title (the plot's, as the
		# script computed it), lettered when a figure has several
		k=0
		nim=$(echo $images | wc -w)
		for im in $images; do
			name=${im%%:*}
			k=$((k + 1))
			cap=$(sed -n 's/^title = "\(.*\)"$/\1/p' "$O/$f/$name.gpvars" 2>/dev/null | head -1)
			[ -n "$cap" ] || cap="$title: $name"
			letter=
			[ "$nim" -gt 1 ] && letter=$(printf "\\$(printf %o $((96 + k)))")
			echo "![Figure $n${letter:+($letter)}. $cap]($f/$name.png)"
			echo
		done
		rows=$(($(wc -l <"$O/$f/table.txt") - 1))
		if [ "$rows" -gt 0 ]; then
			echo "### Published and reproduced"
			echo
			echo "| quantity | published (or model, or peer run) | reproduced | difference | source of the published value |"
			echo "|---|---|---|---|---|"
			tail -n +2 "$O/$f/table.txt" | while IFS='|' read -r f1 f2 f3 f4 f5 f6 f7; do
				d=n/a
				[ -z "$f6" ] || d="$f6%"
				echo "| $f2 | ${f3:-n/a} | ${f5:-n/a} | $d | $f4 |"
			done
			echo
			over=$(tail -n +2 "$O/$f/table.txt" | awk -F'|' '$6 != "" && ($6 > 5 || $6 < -5) { n++ } END { print n + 0 }')
			if [ "$over" -gt 0 ]; then
				echo "Differences over 5%:"
				echo
				tail -n +2 "$O/$f/table.txt" | while IFS='|' read -r f1 f2 f3 f4 f5 f6 f7; do
					[ -n "$f6" ] || continue
					awk -v d="$f6" 'BEGIN { exit !(d > 5 || d < -5) }' || continue
					echo "- $(sentence "$f" "$f1" "$f2" "$f3" "$f5" "$f6" "$f7" "$f4" | tr '\n' ' ')"
				done
				echo
			fi
		else
			echo "No published values for this figure."
			echo
		fi
		if [ -s "$O/$f/extra.md" ]; then
			cat "$O/$f/extra.md"
			echo
		fi
		echo "Checks:"
		echo
		sed 's/^/    /' "$O/$f/checks.txt"
		echo
	done
} >"$tmp"
mv "$tmp" "$out"

# The LaTeX of the report (pandoc), and its PDF when pdflatex is there.
command -v pandoc >/dev/null 2>&1 || { echo "paper: pandoc is not installed: no paper.tex (Debian: apt-get install pandoc)" >&2; exit 0; }
(cd "$O" && pandoc --from markdown --to latex --standalone --resource-path=. \
	--shift-heading-level-by=-1 \
	--variable geometry=margin=2cm --variable fontsize=10pt --variable colorlinks=true \
	README.md --output paper.tex.tmp && mv paper.tex.tmp paper.tex) || { echo "paper: pandoc failed" >&2; exit 1; }
command -v pdflatex >/dev/null 2>&1 || exit 0
(cd "$O" && pandoc --from markdown --pdf-engine=pdflatex --resource-path=. \
	--shift-heading-level-by=-1 \
	--variable geometry=margin=2cm --variable fontsize=10pt --variable colorlinks=true \
	README.md --output paper.pdf >paper.log 2>&1) ||
	echo "paper: pdflatex failed; see $O/paper.log" >&2
