#!/bin/sh
# Determinism across make -j: the quick paper experiments run serially
# and two at a time give byte-identical CSV data and tables, and the
# same JSON summaries but for their timing fields (paths aside: the
# two runs write to different folders).
. "$(dirname "$0")/lib.sh"
A="$TMP/j1" B="$TMP/j2"
make -s -C "$T_TOP" -j1 paper-check QUICK=1 PAPER_OUT="$A" >"$TMP/a.log" 2>&1
ra=$?
make -s -C "$T_TOP" -j2 paper-check QUICK=1 PAPER_OUT="$B" >"$TMP/b.log" 2>&1
rb=$?
t_expect_success 'the quick experiments run at -j1 and at -j2' '[ $ra = 0 ] && [ $rb = 0 ] || { tail a.log b.log; exit 1; }'
# One python for every file (a process per file took longer than the runs).
cat >"$TMP/cmp.py" <<'EOF'
import json, os, re, sys
kind, a, b = sys.argv[1:]
n = 0
for root, dirs, files in os.walk(a):
    dirs.sort()
    for name in sorted(files):
        pa = os.path.join(root, name)
        pb = os.path.join(b, os.path.relpath(pa, a))
        if kind == "json" and name.endswith(".json"):
            x, y = (json.load(open(p)) for p in (pa, pb))
            for d in (x, y):
                d.pop("timing", None)
                d.get("input", {}).pop("path", None)
        elif kind == "csv" and (name.endswith(".csv") or name == "table.txt"):
            # Only the output folder (and a temporary name) may differ.
            x, y = (re.sub(r"\.tmp\.[0-9]+", "", open(p).read().replace(top, "OUT"))
                    for p, top in ((pa, a), (pb, b)))
        else:
            continue
        if x != y:
            print("differs:", os.path.relpath(pa, a))
            sys.exit(1)
        n += 1
print(n, "files compared")
sys.exit(n <= 20)
EOF
t_expect_success 'every CSV file and table is byte-identical at -j1 and -j2' '
	python3 cmp.py csv "$A" "$B"
'
t_expect_success 'every run summary is identical but for its timing fields' '
	python3 cmp.py json "$A" "$B"
'
t_done
