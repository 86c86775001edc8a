#!/usr/bin/env python3
"""figstyles.py FIGURE.svg...: are the series of each figure told apart?

Reads gnuplot's SVG output. In each panel, every series of the key
(a plot with a title) must differ from every other one
  - in greyscale: by its dash pattern, its marker, its fill hatching or
    (fills alike else) the lightness of its fill;
  - in colour, unless the two are of different kinds (a line and
    markers: a model and the simulation it models, or a run's two
    curves), which then tell them apart.
Bars drawn in two layers, a fill in the series' colour then a black
hatching (plots/wa-bars.gp, erase-hist.gp, whose key is drawn apart),
are paired in order: their colours must all differ, and two bars with
one hatching must differ in lightness.
Prints one line per figure; exits 1 when a figure has two series alike.
"""
import re
import sys

GROUP = re.compile(r'<g id="gnuplot_plot_(\d+)([a-z]*)" >')
TAG = re.compile(r"<g[\s>]|</g>")
TEXT = re.compile(r"<text>(.*?)</text>")
DRAW = re.compile(r"<path |<use |<polygon ")
PATH = re.compile(r"<path stroke='rgb\(([^)]*)\)'(?: stroke-dasharray='([^']*)')?\s+d='([^']*)'")
USE = re.compile(r"<use xlink:href='#gpPt(\d+)'[^>]*color='rgb\(([^)]*)\)'")
FILL = re.compile(r"fill = 'rgb\(([^)]*)\)'")
PAT = re.compile(r"<pattern id='(gpPat\d+)'[^>]*>(.*?)</pattern>", re.S)
PATUSE = re.compile(r"fill = 'url\(#(gpPat\d+)\)'")


def close(body):
    """Where the group whose <g> came just before body ends."""
    depth = 1
    for m in TAG.finditer(body):
        depth += -1 if m.group(0) == "</g>" else 1
        if depth == 0:
            return m.start()
    return len(body)


def rgb(s):
    return tuple(int(v) for v in s.split(","))


def lum(c):
    return 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]


def series(body):
    """The look of one plot: key title, colour, kind and greyscale signature."""
    first = DRAW.search(body)
    head = body[: first.start()] if first else body
    t = TEXT.search(head)
    title = t.group(1) if t else None
    lines = [(rgb(c), d or "solid") for c, d, path in PATH.findall(body) if not path.rstrip().endswith("Z")]
    points = [(p, rgb(c)) for p, c in USE.findall(body)]
    fills = [rgb(c) for c in FILL.findall(body)]
    pats = dict(PAT.findall(body))
    used = PATUSE.findall(body)
    pattern = re.sub(r"\s+", " ", pats.get(used[0], "")).strip() if used else None
    if not (lines or points or fills or used):
        return None
    colour = lines[0][0] if lines else points[0][1] if points else fills[0] if fills else None
    kind = (bool(lines), bool(points), bool(fills or used))
    grey = (lines[0][1] if lines else None, points[0][0] if points else None, pattern, bool(fills))
    return {"title": title, "colour": colour, "kind": kind, "grey": grey, "pattern": pattern, "fills": fills}


def check(path):
    text = open(path).read()
    parts = GROUP.split(text)
    panels = {}
    last, panel = 0, 0
    for i in range(1, len(parts), 3):
        num, suffix, body = int(parts[i]), parts[i + 1], parts[i + 2]
        body = body[: close(body)]
        if suffix:
            key = suffix
        else:
            if num <= last:
                panel += 1
            key = panel
        last = num
        s = series(body)
        if s:
            panels.setdefault(key, []).append(s)
    bad = []
    nkeyed = nbars = 0
    for key, ss in panels.items():
        keyed = [s for s in ss if s["title"]]
        nkeyed += len(keyed)
        for a in range(len(keyed)):
            for b in range(a + 1, len(keyed)):
                x, y = keyed[a], keyed[b]
                if x["grey"] == y["grey"] and not (x["fills"] and y["fills"] and abs(lum(x["fills"][0]) - lum(y["fills"][0])) >= 25):
                    bad.append("'%s' and '%s' alike in greyscale (%s)" % (x["title"], y["title"], x["grey"]))
                if x["colour"] == y["colour"] and x["kind"] == y["kind"]:
                    bad.append("'%s' and '%s' in one colour %s" % (x["title"], y["title"], x["colour"]))
        # Bars in two layers, untitled: fills then hatchings, in order.
        solid = [s for s in ss if not s["title"] and s["fills"] and s["pattern"] is None]
        hatch = [s for s in ss if not s["title"] and s["pattern"] is not None and not s["fills"]]
        if solid and len(solid) == len(hatch):
            nbars += len(solid)
            bars = [(s["fills"][0], h["pattern"]) for s, h in zip(solid, hatch)]
            for a in range(len(bars)):
                for b in range(a + 1, len(bars)):
                    (ca, pa), (cb, pb) = bars[a], bars[b]
                    if ca == cb:
                        bad.append("bars %d and %d in one colour %s" % (a + 1, b + 1, ca))
                    elif pa == pb and abs(lum(ca) - lum(cb)) < 25:
                        bad.append("bars %d and %d: one hatching, lightness %.0f and %.0f" % (a + 1, b + 1, lum(ca), lum(cb)))
    print("%s: %d panel(s), %d series in keys, %d bar series%s" % (
        path, len(panels), nkeyed, nbars, "" if not bad else ": " + "; ".join(sorted(set(bad)))))
    return not bad


ok = True
for f in sys.argv[1:]:
    ok = check(f) and ok
sys.exit(0 if ok else 1)
