#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Issue 21, item 5: sweep --plot's figure, checked in its gnuplot script and in the SVG
gnuplot draws from it.

- a figure title naming what is plotted, the meshes (base names) and the models;
- the legend in a band of its own above every panel (never over data), panels that do
  not overlap, full rows and a centred last row (no empty cells);
- a distinct dash type, point type and mark interval for every curve of a panel;
- the ATVR 1.0 reference in every panel and in the legend;
- seed 002's published (cache, ATVR) pairs, typed here from the seed's text ("Results:
  NVidia and AMD", "Results: Intel"), beside the models of their vendor on the 100x100
  grid, and nowhere else;
- file names as base names: a mesh in a subfolder shows no folder part.
usage: sweep_plot_test.py GPUCACHE_BINARY WORK_DIR
"""
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

from cli_checks import Checks

T = Checks(sys.argv)
BIN = T.bin
check = T.check
T.enter_fresh_work()
if not shutil.which("gnuplot"):
    print("gnuplot not installed: skipped")
    sys.exit(77)



def gp_text(literal):
    """A gp_string literal's text (octal escapes decoded)."""
    return re.sub(rb"\\([0-7]{3})", lambda m: bytes([int(m.group(1), 8)]), literal.encode()).decode("utf-8")


def sweep(out, *args):
    p = subprocess.run([BIN, "sweep", *args, "--plot", out], capture_output=True)
    check(p.returncode == 0, f"sweep {args}: exit {p.returncode}: {p.stderr.decode(errors='replace')}")
    return p.returncode == 0


def panels(gp):
    """[(margins {l, r, t, b}, title, plot command)] for every plot of the script, in order."""
    out, margins, title = [], {}, None
    for line in gp.splitlines():
        m = re.match(r"set ([lrtb])margin at screen ([0-9.]+)$", line)
        if m:
            margins[m.group(1)] = float(m.group(2))
        m = re.match(r'set title (".*") noenhanced$', line)
        if m:
            title = gp_text(m.group(1)[1:-1])
        if line == "unset title":
            title = None
        if line.startswith("plot "):
            out.append((dict(margins), title, line))
    return out


def svg_texts(path):
    root = ET.parse(path).getroot()
    return ["".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text")]


# A grid the seed measured and a mesh in a subfolder, three models: NVIDIA's and AMD's
# presets and the seed's own LRU hypothesis; 6 panels in rows of 2.
os.makedirs("sub/dir")
subprocess.run([BIN, "grid", "8", "8", "-o", "sub/dir/g8.obj"], capture_output=True, check=True)
if sweep("s.svg", "--mesh", "grid:100x100", "--mesh", "sub/dir/g8.obj", "-a", "optimal,striped,tipsify",
         "--cache", "3..20", "-m", "nvidia-pascal", "-m", "amd-gcn", "-m", "lru:16"):
    gp = open("s.gp").read()
    plots = panels(gp)
    check(len(plots) == 7, f"6 panels and the legend: {len(plots)} plots")
    body, legend = plots[:-1], plots[-1]

    # the figure's title
    m = re.search(r'^set multiplot title (".*") font', gp, re.M)
    title = gp_text(m.group(1)[1:-1]) if m else ""
    check(title == "gpucache sweep: ATVR against target cache size, grid:100x100 / g8.obj, 3 models",
          f"figure title: {title!r}")
    texts = svg_texts("s.svg")
    check(title in texts, "the figure title is in the SVG")

    # base names only: no folder anywhere in the script's text or the picture
    check("sub/dir" not in gp and not any("sub/dir" in t for t in texts), "a folder part reached the figure")
    check([p[1] for p in body[3:]] == ["g8.obj, nvidia-pascal (meshopt:32,32,32)", "g8.obj, amd-gcn (meshopt:14,64,128)",
                                       "g8.obj, lru:16"], f"panel titles: {[p[1] for p in body[3:]]}")

    # the legend: its own band, above every panel, reached by no panel; no panel key
    check("unset key" in gp.split(body[0][2])[0], "panels have no key of their own")
    key = re.search(r"^set key at screen 0\.5,([0-9.]+) center top", gp, re.M)
    top_of_panels = max(p[0]["t"] for p in body)
    check(key and float(key.group(1)) > top_of_panels and legend[0]["b"] >= top_of_panels,
          f"the key ({key and key.group(1)}, band down to {legend[0]['b']}) is above the panels (top {top_of_panels})")
    entries = re.findall(r"title '([^']*)'", legend[2])
    check(entries == ["optimal", "striped", "tipsify", "ATVR 1.0 (ideal)", "seed 002, published"],
          f"legend entries: {entries}")
    for e in entries:
        check(e in texts, f"legend entry {e!r} drawn")

    # panels: inside the figure, apart, rows of 2
    boxes = [(p[0]["l"], p[0]["r"], p[0]["b"], p[0]["t"]) for p in body]
    check(all(0 <= l < r <= 1 and 0 <= b < t <= 1 for l, r, b, t in boxes), f"panel boxes {boxes}")
    overlap = [(i, j) for i in range(6) for j in range(i) if boxes[i][0] < boxes[j][1] and boxes[j][0] < boxes[i][1]
               and boxes[i][2] < boxes[j][3] and boxes[j][2] < boxes[i][3]]
    check(not overlap, f"panels overlap: {overlap}")
    rows = sorted({b[3] for b in boxes}, reverse=True)
    check([sum(1 for b in boxes if b[3] == t) for t in rows] == [2, 2, 2], "three full rows of two")

    # curves: a distinct dash type, point type and mark interval each; the reference first
    for margins, ptitle, cmd in body:
        curves = re.findall(r"\$d_\S+ with linespoints .*? dt (\S+) pt (\d+) ps \S+ pi (\d+)", cmd)
        want = 3 if ptitle.startswith("grid") else 1  # optimal and striped are for grids only
        check(len(curves) == want, f"{ptitle}: {len(curves)} curves")
        for i in range(3):
            check(len({c[i] for c in curves}) == len(curves), f"{ptitle}: curves share {('dt', 'pt', 'pi')[i]}: {curves}")
        check(cmd.startswith("plot 1 with lines"), f"{ptitle}: no ATVR 1.0 reference: {cmd[:40]}")
    check(re.search(r"^set yrange \[0\.9:", gp, re.M), "the 1.0 line is inside the y range")

    # published points: seed 002 on the 100x100 grid
    def block(name):
        m = re.search(r"^\$" + name + r" << EOD\n(.*?)^EOD$", gp, re.M | re.S)
        return [tuple(l.split()[:2]) for l in m.group(1).splitlines()] if m else None
    check(block("p_0_0") == [("6", "1.53"), ("14", "1.60")], f"NVIDIA points: {block('p_0_0')}")
    check(block("p_0_1") == [("8", "1.21"), ("16", "1.25")], f"AMD points: {block('p_0_1')}")
    check(block("p_0_2") is None and block("p_1_0") is None, "published points beside lru:16 or the 8x8 mesh")
    check("$p_0_0 using" in body[0][2] and "$p_0_1 using" in body[1][2] and "$p_" not in "".join(p[2] for p in body[2:]),
          "only the vendor panels plot published points")
    check(body[0][1] == "grid:100x100, nvidia-pascal (meshopt:32,32,32)\n"
          "seed 002, NVIDIA GPU: striped 1.53 at 6, tipsify 1.60 at 14", f"NVIDIA panel title: {body[0][1]!r}")
    check("seed 002, AMD GPU: striped 1.21 at 8, tipsify 1.25 at 16" in texts, "AMD caption in the SVG")

# Intel: Tipsify 1.007 at 128 beside the intel preset, not beside the same rule spelled
# fifo:128 (a model, not the seed's GPU); 3 panels: 2 in the first row, the last centred.
if sweep("i.svg", "--mesh", "grid:100x100", "-a", "tipsify", "--cache", "126..130", "-m", "intel", "-m", "fifo:128",
         "-m", "lru:16"):
    gp = open("i.gp").read()
    body = panels(gp)[:-1]
    m = re.search(r"^\$p_0_0 << EOD\n(.*?)^EOD$", gp, re.M | re.S)
    check(m and [l.split()[:2] for l in m.group(1).splitlines()] == [["128", "1.007"]], "Intel's point")
    check("$p_0_1" not in gp and "$p_0_2" not in gp, "published points beside fifo:128 or lru:16")
    boxes = [(p[0]["l"], p[0]["r"], p[0]["t"]) for p in body]
    check(len(boxes) == 3 and boxes[0][2] == boxes[1][2] > boxes[2][2], f"rows of 2 and 1: {boxes}")
    full_mid = (boxes[0][0] + boxes[1][1]) / 2
    last_mid = (boxes[2][0] + boxes[2][1]) / 2
    check(abs(full_mid - last_mid) < 0.002, f"the last row is centred: {last_mid} vs {full_mid}")
    check("seed 002, published" in svg_texts("i.svg"), "legend lists the published points")

# No published points off the seed's grid: no legend entry for them either.
if sweep("n.svg", "--mesh", "grid:50x50", "-a", "striped", "--cache", "5..9", "-m", "nvidia-pascal"):
    gp = open("n.gp").read()
    check("$p_" not in gp and "seed 002" not in gp, "published points on a 50x50 grid")
    m = re.search(r'^set multiplot title (".*") font', gp, re.M)
    check(m and gp_text(m.group(1)[1:-1]).endswith("grid:50x50, nvidia-pascal (meshopt:32,32,32)"),
          "one model: the title names it")
    # one panel is 500 pixels wide: the title breaks after what it plots instead of running off
    texts = svg_texts("n.svg")
    check("gpucache sweep: ATVR against target cache size" in texts and
          "grid:50x50, nvidia-pascal (meshopt:32,32,32)" in texts, f"a long title in two lines: {texts[:3]}")
    check(re.search(r"^set xtics 1$", gp, re.M), "five sizes: a tic per whole size")

# One cache size alone: gnuplot refuses an empty x range, so the figure spans one size either side.
if sweep("one.svg", "--mesh", "grid:20x20", "-a", "tipsify", "--cache", "16..16", "-m", "generic"):
    gp = open("one.gp").read()
    check(re.search(r"^set xrange \[15:17\]$", gp, re.M), "one size: the x range is 15..17")
    check(os.path.getsize("one.svg") > 0, "one size: the figure is drawn")

T.finish()
