#!/bin/sh
# paper/md2tex.sh - the report's markdown (the subset paper/report.sh
# writes: headings, paragraphs, lists, pipe tables, images, indented
# code, `code` and **bold**) as a LaTeX article, on stdout.
#   sh paper/md2tex.sh OUT/README.md >OUT/paper.tex
awk '
function esc(s,   r) {
	gsub(/\\/, "\\textbackslash{}", s); gsub(/[&%$#_{}]/, "\\\\&", s)
	gsub(/~/, "\\textasciitilde{}", s); gsub(/\^/, "\\textasciicircum{}", s)
	gsub(/\\textbackslash\\\{\\\}/, "\\textbackslash{}", s)
	while (match(s, /\*\*[^*]+\*\*/)) s = substr(s, 1, RSTART - 1) "\\textbf{" substr(s, RSTART + 2, RLENGTH - 4) "}" substr(s, RSTART + RLENGTH)
	while (match(s, /`[^`]+`/)) s = substr(s, 1, RSTART - 1) "\\texttt{" substr(s, RSTART + 1, RLENGTH - 2) "}" substr(s, RSTART + RLENGTH)
	return s
}
function endall() { if (inlist) print "\\end{itemize}"; if (incode) print "\\end{verbatim}"; if (intab) print "\\end{longtable}\\end{scriptsize}"; inlist = incode = intab = 0 }
BEGIN {
	print "\\documentclass[10pt]{article}"
	print "\\usepackage[margin=2cm]{geometry}\\usepackage{graphicx}\\usepackage{longtable}\\usepackage[T1]{fontenc}"
	print "\\setlength{\\parindent}{0pt}\\setlength{\\parskip}{4pt}"
	print "\\begin{document}"
}
/^    / && !intab { if (!incode) { endall(); print "\\begin{verbatim}"; incode = 1 } print substr($0, 5); next }
incode { print "\\end{verbatim}"; incode = 0 }
/^# / { endall(); print "\\section*{" esc(substr($0, 3)) "}"; next }
/^## / { endall(); print "\\section*{" esc(substr($0, 4)) "}"; next }
/^### / { endall(); print "\\subsection*{" esc(substr($0, 5)) "}"; next }
/^!\[/ { endall(); p = $0; sub(/^.*\(/, "", p); sub(/\).*$/, "", p); print "\\begin{center}\\includegraphics[width=0.95\\linewidth]{" p "}\\end{center}"; next }
/^\|---/ { next }
/^\|/ {
	n = split($0, c, "|")
	if (!intab) { endall(); spec = ""; for (i = 2; i < n; i++) spec = spec "p{" sprintf("%.2f", 0.9 / (n - 2)) "\\linewidth}"; print "\\begin{scriptsize}\\begin{longtable}{" spec "}"; intab = 1 }
	line = ""; for (i = 2; i < n; i++) line = line (i > 2 ? " & " : "") esc(c[i]); print line " \\\\"; next
}
intab { print "\\end{longtable}\\end{scriptsize}"; intab = 0 }
/^- / { if (!inlist) { endall(); print "\\begin{itemize}"; inlist = 1 } print "\\item " esc(substr($0, 3)); next }
/^$/ { endall(); print ""; next }
{ print esc($0) }
END { endall(); print "\\end{document}" }' "$1"
