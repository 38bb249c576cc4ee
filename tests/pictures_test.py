#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Issue 21: analyze --heatmap and --trace-plot, checked by content (docs/pictures.md).

Every expected value is derived by hand from a tiny mesh in a known order under a FIFO
(the derivations are beside each case), and the SVG is read with xml.etree, so a picture
that does not parse fails too.
usage: pictures_test.py GPUCACHE_BINARY WORK_DIR
"""
import json
import os
import re
import shutil
import subprocess
import sys
import zlib
import xml.etree.ElementTree as ET

from cli_checks import Checks

T = Checks(sys.argv)
BIN = T.bin
check, run = T.check, T.run
HERE = os.path.dirname(os.path.abspath(__file__))  # before the chdir below
T.enter_fresh_work()
NS = {"s": "http://www.w3.org/2000/svg"}



def heatmap(path):
    """(fills of the drawn subpaths with their first point, {count: bar colour}, caption)"""
    root = ET.parse(path).getroot()
    mesh = root.find("s:g[@class='mesh']", NS)
    tris = []
    for p in mesh.findall("s:path", NS):
        for m in re.finditer(r"M(-?\d+) (-?\d+)", p.get("d")):
            tris.append((p.get("fill"), int(m.group(1)), int(m.group(2))))
    bar = {float(r.get("data-count")): r.get("fill") for r in root.findall("s:rect[@class='bar']", NS)}
    caption = "".join(root.find("s:text[@class='caption']", NS).itertext())
    return tris, bar, caption, root


def write(name, text):
    with open(name, "w") as f:
        f.write(text)


# ---------------------------------------------------------------- heat map
# A 2x1 grid, 6 vertices, 4 triangles; under fifo:6 nothing is evicted: every vertex is
# shaded once, 6 invocations, ATVR 6/6 = 1, ACMR 6/4 = 1.5, every triangle the lowest colour.
GRID = """v 0 0 0
v 1 0 0
v 2 0 0
v 0 1 0
v 1 1 0
v 2 1 0
f 1 2 5
f 1 5 4
f 2 3 6
f 2 6 5
"""
write("grid.obj", GRID)
rc, out, err = run("analyze", "-m", "fifo:6", "--heatmap", "grid.svg", "grid.obj")
check(rc == 0, f"heatmap grid: exit {rc}: {err}")
tris, bar, caption, _ = heatmap("grid.svg")
check(len(tris) == 4, f"grid: 4 triangles drawn, not {len(tris)}")
check(list(bar) == [1.0], f"grid: one colour bar entry (count 1), not {list(bar)}")
check(all(t[0] == bar.get(1.0) for t in tris), f"grid: every triangle has count 1's colour: {tris} {bar}")
check("fifo:6: 6 invocations, ATVR 1.000, ACMR 1.500" in caption, f"grid caption: {caption}")

# Two triangles A (vertices 0 1 2, left) and B (3 4 5, right), drawn A, B, A under fifo:3:
# B evicts all of A, so A's vertices are shaded twice and B's once: 9 invocations,
# ATVR 9/6 = 1.5, ACMR 9/3 = 3. A's fill must be the bar's entry for 2, B's the one for 1.
PLY = """ply
format ascii 1.0
element vertex 6
property float x
property float y
property float z
element face 3
property list uchar int vertex_indices
end_header
0 0 0
1 0 0
0 1 0
4 0 0
5 0 0
4 1 0
3 0 1 2
3 3 4 5
3 0 1 2
"""
write("ab.ply", PLY)
# The same as an OBJ with the positions listed in another order and texcoords, so that
# vertex ids (corners in order of first use) differ from position numbers.
write("ab.obj", """v 5 0 0
v 0 1 0
v 4 1 0
v 1 0 0
v 4 0 0
v 0 0 0
vt 0 0
f 6/1 4/1 2/1
f 5/1 1/1 3/1
f 6/1 4/1 2/1
""")
for name in ("ab.ply", "ab.obj"):
    rc, out, err = run("analyze", "-m", "fifo:3", "--heatmap", name + ".svg", name)
    check(rc == 0, f"heatmap {name}: exit {rc}: {err}")
    tris, bar, caption, _ = heatmap(name + ".svg")
    check(sorted(bar) == [1.0, 2.0], f"{name}: bar entries 1 and 2, not {sorted(bar)}")
    left = [t for t in tris if t[1] == min(u[1] for u in tris)]
    right = [t for t in tris if t[1] == max(u[1] for u in tris)]
    check(left and all(t[0] == bar.get(2.0) for t in left), f"{name}: A (left) has count 2's colour: {tris} {bar}")
    check(right and all(t[0] == bar.get(1.0) for t in right), f"{name}: B (right) has count 1's colour: {tris} {bar}")
    check(bar.get(1.0) != bar.get(2.0), f"{name}: the two counts have different colours")
    check("fifo:3: 9 invocations, ATVR 1.500, ACMR 3.000" in caption, f"{name} caption: {caption}")

# --heatmap-max: the scale is 1..4 whatever the counts (four entries, A still count 2's
# colour); at 1, A's count 2 takes count 1's colour and the picture says so.
rc, out, err = run("analyze", "-m", "fifo:3", "--heatmap", "max4.svg", "--heatmap-max", "4", "ab.ply")
tris, bar, _, _ = heatmap("max4.svg")
check(rc == 0 and sorted(bar) == [1.0, 2.0, 3.0, 4.0], f"--heatmap-max 4: bar {sorted(bar)}")
check(tris and all(t[0] in (bar.get(1.0), bar.get(2.0)) for t in tris) and
      {t[0] for t in tris} == {bar.get(1.0), bar.get(2.0)}, f"--heatmap-max 4: fills {tris} {bar}")
rc, out, err = run("analyze", "-m", "fifo:3", "--heatmap", "max1.svg", "--heatmap-max", "1", "ab.ply")
tris, bar, _, root = heatmap("max1.svg")
check(rc == 0 and list(bar) == [1.0] and all(t[0] == bar[1.0] for t in tris), f"--heatmap-max 1: {tris} {bar}")
note = root.find("s:text[@class='clamped']", NS)
check(note is not None and "above 1 (up to 2)" in note.text, "--heatmap-max 1: the clamping is said")

# The views: side looks along -X, so A (x 0..1) and B (x 4..5) overlap on screen and B,
# nearer, is drawn last; top looks along -Y.
rc, out, err = run("analyze", "-m", "fifo:3", "--heatmap", "side.svg", "--view", "side", "ab.ply")
check(rc == 0, f"--view side: exit {rc}: {err}")
tris, bar, _, _ = heatmap("side.svg")
check(tris and tris[-1][0] == bar.get(1.0), f"side view: B (nearest) drawn last: {tris}")
rc, out, err = run("analyze", "-m", "fifo:3", "--heatmap", "top.svg", "--view", "top", "ab.ply")
check(rc == 0 and heatmap("top.svg")[0], f"--view top: exit {rc}: {err}")

# A mesh past the drawing's limit is decimated in the drawing only, and the caption says
# so: a 400x300 grid is 240000 triangles of about a third of a pixel each.
rc, out, err = run("grid", "400", "300", "-o", "big.obj")
if rc == 0:
    rc, out, err = run("analyze", "-m", "fifo:16", "--json", "--heatmap", "big.svg", "big.obj")
    check(rc == 0, f"big heatmap: exit {rc}: {err}")
    root = ET.parse("big.svg").getroot()
    drawn = sum(p.get("d").count("M") for p in root.find("s:g[@class='mesh']", NS).findall("s:path", NS))
    note = root.find("s:text[@class='decimated']", NS)
    check(note is not None and f"{drawn} of 240000 triangles" in note.text, f"big: decimation said: {drawn}")
    check(0 < drawn <= 100000, f"big: at most 100000 drawn, not {drawn}")
    inv = json.loads(out)["models"][0]["invocations"]
    check(f": {inv} invocations" in "".join(root.find("s:text[@class='caption']", NS).itertext()),
          "big: the caption's totals are the whole draw's")
    check(os.path.getsize("big.svg") < 6 << 20, f"big: {os.path.getsize('big.svg')} bytes")
else:
    check(False, f"grid 400 300: {err}")

# A glTF whose two primitives draw the same triangle (one vertex set, ids 0 1 2): analyze
# runs each primitive as its own draw, so under fifo:3 each vertex is shaded once per draw,
# twice in all: 6 invocations (analyze --json's sum), the triangle in count 2's colour (a
# single draw of both would shade each vertex once).
import base64
import struct
blob = struct.pack("<9f", 0, 0, 0, 1, 0, 0, 0, 1, 0) + struct.pack("<3H", 0, 1, 2) + b"\0\0"
gltf = {
    "asset": {"version": "2.0"},
    "buffers": [{"byteLength": len(blob), "uri": "data:application/octet-stream;base64," +
                 base64.b64encode(blob).decode()}],
    "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 36},
                    {"buffer": 0, "byteOffset": 36, "byteLength": 6}],
    "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
                   "min": [0, 0, 0], "max": [1, 1, 0]},
                  {"bufferView": 1, "componentType": 5123, "count": 3, "type": "SCALAR"}],
    "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1},
                               {"attributes": {"POSITION": 0}, "indices": 1}]}],
}
write("two.gltf", json.dumps(gltf))
rc, out, err = run("analyze", "-m", "fifo:3", "--json", "--heatmap", "two.svg", "two.gltf")
check(rc == 0, f"glTF heatmap: exit {rc}: {err}")
if rc == 0:
    check(json.loads(out)["models"][0]["invocations"] == 6, "glTF: analyze says 6 invocations")
    tris, bar, caption, _ = heatmap("two.svg")
    check(tris and all(t[0] == bar.get(2.0) for t in tris), f"glTF: the triangle has count 2's colour: {tris} {bar}")
    check("fifo:3: 6 invocations" in caption, f"glTF caption: {caption}")

# ---------------------------------------------------------------- timeline
# grid.obj under fifo:3 (3 slots, 4 triangles); by hand, with corners numbered in first
# use (0 1 2 | 0 2 3 | 1 4 5 | 1 5 2): 3 + 1 + 2 + 2 = 8 invocations.
rc, out, err = run("analyze", "-m", "fifo:3", "--trace-plot", "t.svg", "grid.obj")
check(rc == 0, f"trace-plot: exit {rc}: {err}")
root = ET.parse("t.svg").getroot()
cells = root.findall(".//s:rect[@class='cell']", NS)
misses = root.findall(".//s:circle[@class='miss']", NS)
check(len(cells) == 3 * 4, f"trace-plot: 12 cells, not {len(cells)}")
check(len(misses) == 8, f"trace-plot: 8 misses, not {len(misses)}")
# the window of primitives 1..2: 1 + 2 misses, 3 x 2 cells
rc, out, err = run("analyze", "-m", "fifo:3", "--trace-plot", "w.svg", "--from", "1", "--count", "2", "grid.obj")
root = ET.parse("w.svg").getroot()
check(rc == 0 and len(root.findall(".//s:rect[@class='cell']", NS)) == 6, "window: 6 cells")
check(len(root.findall(".//s:circle[@class='miss']", NS)) == 3, "window: 3 misses")
# against analyze's own count for a whole generated draw: every value that enters a FIFO
# is one invocation
rc, out, err = run("analyze", "-m", "fifo:8", "--json", "--trace-plot", "g.svg", "--count", "5000", "grid:6x6")
inv = json.loads(out)["models"][0]["invocations"] if rc == 0 else -1
root = ET.parse("g.svg").getroot()
check(len(root.findall(".//s:circle[@class='miss']", NS)) == inv, f"grid:6x6: misses = {inv} invocations")
check(len(root.findall(".//s:rect[@class='cell']", NS)) == 8 * 72, "grid:6x6: 8 slots x 72 triangles")

# ---------------------------------------------------------------- hostile names
hostile = "q\"<&'>\x01x.obj"
write(hostile, GRID)
outname = "o\"<&'.svg"
rc, out, err = run("analyze", "-m", "fifo:6", "--heatmap", outname, "--trace-plot", "t" + outname, hostile)
check(rc == 0, f"hostile names: exit {rc}: {err}")
for f in (outname, "t" + outname):
    try:
        title = ET.parse(f).getroot().find("s:title", NS).text
        check(title.endswith(": q\"<&'>?x.obj"), f"{f}: the title is the name escaped: {title!r}")
    except ET.ParseError as e:
        check(False, f"{f} does not parse: {e}")

# ---------------------------------------------------------------- fit
# Measurements an LRU of 16 would give (probe --suite --model, as fit_test.sh does), ranked
# against four models: each model's panel has one mark per case, and as many exact dots as
# fit --json's "exact" for it (computed by the search, independently of the picture's
# gc_fit_evaluate calls); the ranking's order is the panels' order.
FIT_MODELS = ["-m", "lru:16", "-m", "fifo:16", "-m", "lru:8", "-m", "fifo:8"]
rc, out, err = run("probe", "--suite", "--model", "lru:16", "-o", "m.json")
check(rc == 0, f"probe --suite: exit {rc}: {err}")
cases = len(json.load(open("m.json"))["cases"]) if rc == 0 else 0
rc, out, err = run("fit", "--json", "--top", "3", *FIT_MODELS, "--plot", "fit.svg", "m.json")
check(rc == 0, f"fit --plot: exit {rc}: {err}")
if rc == 0:
    best = json.loads(out)["best"]
    root = ET.parse("fit.svg").getroot()
    panels = root.findall("s:g[@class='model']", NS)
    check([g.get("data-model") for g in panels] == [b["model"] for b in best],
          f"fit: panels {[g.get('data-model') for g in panels]} are the ranking {[b['model'] for b in best]}")
    for g, b in zip(panels, best):
        marks = [e for e in g if e.get("class") in ("exact", "wrong", "failed")]
        check(len(marks) == cases and sorted(int(e.get("data-case")) for e in marks) == list(range(cases)),
              f"fit {b['model']}: one mark per case ({len(marks)} of {cases})")
        exact = sum(e.get("class") == "exact" for e in marks)
        check(exact == b["exact"], f"fit {b['model']}: {exact} exact dots, fit says {b['exact']}")
        wrong = {w["case"] for w in b["wrong"]}
        check({int(e.get("data-case")) for e in marks if e.get("class") != "exact"} == wrong,
              f"fit {b['model']}: the wrong marks are fit's wrong cases")
    check(best[0]["exact"] == cases and best[1]["exact"] < cases, f"fit: lru:16 exact everywhere, the next not")
# --top past 5 draws 5 panels
rc, out, err = run("fit", "--top", "7", *FIT_MODELS, "-m", "nvidia", "-m", "fifo:4", "-m", "lru:4",
                   "--plot", "fit7.svg", "m.json")
check(rc == 0 and len(ET.parse("fit7.svg").getroot().findall("s:g[@class='model']", NS)) == 5,
      f"fit --top 7: 5 panels ({rc} {err})")
# hostile device and case names from the file
d = json.load(open("m.json"))
d["device"] = "dev\"<&'>"  # (the loader refuses control characters in names)
d["cases"][0]["name"] = "case</title><x>&amp;"
with open("h.json", "w") as fh:
    json.dump(d, fh)
rc, out, err = run("fit", "-m", "lru:16", "-m", "fifo:16", "--plot", "fh.svg", "h.json")
check(rc == 0, f"fit hostile names: exit {rc}: {err}")
try:
    root = ET.parse("fh.svg").getroot() if rc == 0 else ET.fromstring("<svg/>")
    texts = ["".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text")]
    check(any("device dev\"<&'>;" in t for t in texts), f"fit: the device escaped: {texts[:3]}")
    tips = [t.text for t in root.iter("{http://www.w3.org/2000/svg}title")]
    check(any(t.startswith("case</title><x>&amp;: measured") for t in tips if t), "fit: the case name escaped")
except ET.ParseError as e:
    check(False, f"fh.svg does not parse: {e}")

# ---------------------------------------------------------------- memsys
# memsys --compare --plot: one bar per strategy in --json's ranking order, each bar's
# segments (bus, invalidates, writebacks) as tall as --json's parts on one scale, and the
# whole bar proportional to its cycles; the parts add up to the cycles (and, in a stats
# object, invalidates and writebacks to event_cycles).
SCN = os.path.join(HERE, "..", "examples", "memsys")
for scn in ("procedural-water.scn", "chained-compute.scn", "simple-rendering.scn"):
    src = os.path.join(SCN, scn)
    rc, out, err = run("memsys", "--compare", "--json", "--plot", scn + ".svg", src)
    check(rc == 0, f"memsys --plot {scn}: exit {rc}: {err}")
    if rc != 0:
        continue
    ranking = json.loads(out)["ranking"]
    root = ET.parse(scn + ".svg").getroot()
    bars = root.findall("s:g[@class='bar']", NS)
    check([b.get("data-strategy") for b in bars] == [r["strategy"] for r in ranking] and len(bars) == 4,
          f"{scn}: one bar per strategy in rank order: {[b.get('data-strategy') for b in bars]}")
    top = max(r["cycles"] for r in ranking)
    for b, r in zip(bars, ranking):
        parts = {e.get("data-part"): float(e.get("height")) for e in b.findall("s:rect[@class='segment']", NS)}
        want = {"bus": r["bus_cycles"], "invalidate": r["invalidate_cycles"], "writeback": r["writeback_cycles"]}
        check(abs(sum(want.values()) - r["cycles"]) <= 1e-6 * r["cycles"] + 0.01,
              f"{scn} {r['strategy']}: the parts {want} add up to {r['cycles']}")
        for k, v in want.items():
            check(abs(parts.get(k, -1) - 400 * v / top) <= 0.002, f"{scn} {r['strategy']} {k}: {parts.get(k)} for {v}")
        check(abs(sum(parts.values()) - 400 * r["cycles"] / top) <= 0.01,
              f"{scn} {r['strategy']}: bar height {sum(parts.values())} for {r['cycles']} cycles")
    best = root.findall(".//s:rect[@class='best']", NS)
    check(len(best) == 1 and len(bars[0].findall("s:rect[@class='best']", NS)) == 1, f"{scn}: the first bar marked best")
    rc, out, err = run("memsys", "--json", src)
    t = json.loads(out)["total"] if rc == 0 else {}
    check(rc == 0 and abs(t["invalidate_cycles"] + t["writeback_cycles"] - t["event_cycles"]) <= 1e-6 * t["event_cycles"] + 0.01,
          f"{scn}: invalidate + writeback cycles = event_cycles: {t}")
hostile_scn = "w\"<&'>.scn"
shutil.copy(os.path.join(SCN, "raycast.scn"), hostile_scn)
rc, out, err = run("memsys", "--compare", "--plot", "mh.svg", hostile_scn)
try:
    title = ET.parse("mh.svg").getroot().find("s:title", NS).text if rc == 0 else ""
    check(title.endswith(": " + hostile_scn), f"memsys: the scenario name escaped: {title!r} ({rc} {err})")
except ET.ParseError as e:
    check(False, f"mh.svg does not parse: {e}")

# ---------------------------------------------------------------- PNG
# OUT.png: the same SVG rendered by rsvg-convert. Each PNG is checked against the SVG the
# same command writes: the signature, IHDR's size equal to the SVG's width and height, and
# pixels of known colours (decoded here with zlib: 8-bit RGB or RGBA, non-interlaced).
def png_pixels(path):
    """(width, height, rows of (r, g, b) tuples)"""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG signature"
    pos, idat, ihdr = 8, b"", None
    while pos < len(data):
        n = int.from_bytes(data[pos:pos + 4], "big")
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            ihdr = body
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    w, h = int.from_bytes(ihdr[0:4], "big"), int.from_bytes(ihdr[4:8], "big")
    depth, ctype, interlace = ihdr[8], ihdr[9], ihdr[12]
    assert depth == 8 and ctype in (2, 6) and interlace == 0, f"PNG kind {depth} {ctype} {interlace}"
    bpp = 3 if ctype == 2 else 4
    raw, stride, rows, prev = zlib.decompress(idat), w * bpp, [], bytearray(w * bpp)
    for y in range(h):
        ft, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if ft == 1:
                line[i] = (line[i] + a) & 255
            elif ft == 2:
                line[i] = (line[i] + b) & 255
            elif ft == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ft == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(w)])
        prev = line
    return w, h, rows


def rgb(fill):
    return tuple(int(fill[i:i + 2], 16) for i in (1, 3, 5))


def png_like_svg(args, svg, png, what):
    """Runs args with svg and with png as the output; checks the PNG's size; returns its
    pixels and the SVG's root (None, None on failure)."""
    rc1, _, err1 = run(*[svg if a == "OUT" else a for a in args])
    rc2, _, err2 = run(*[png if a == "OUT" else a for a in args])
    check(rc1 == 0 and rc2 == 0, f"{what}: exit {rc1}/{rc2}: {err1} {err2}")
    if rc1 or rc2:
        return None, None
    root = ET.parse(svg).getroot()
    try:
        w, h, rows = png_pixels(png)
    except (AssertionError, zlib.error, TypeError) as e:
        check(False, f"{what}: {png} does not decode: {e}")
        return None, None
    check((w, h) == (int(root.get("width")), int(root.get("height"))),
          f"{what}: PNG {w}x{h}, SVG {root.get('width')}x{root.get('height')}")
    return rows, root


if shutil.which("rsvg-convert"):
    # The heat map of A, B, A under fifo:3 (above): A's vertices shaded twice, B's once. The
    # colour bar's entries are rects of their count's colour: each one's centre pixel has
    # it, and the mesh shows both colours over many pixels (the triangles are large).
    rows, root = png_like_svg(["analyze", "-m", "fifo:3", "--heatmap", "OUT", "ab.ply"], "abp.svg", "ab.png",
                              "heatmap png")
    if rows:
        bars = root.findall("s:rect[@class='bar']", NS)
        check(len(bars) == 2, f"heatmap png: two bar entries, {len(bars)}")
        counts = {}
        for line in rows:
            for px in line:
                counts[px] = counts.get(px, 0) + 1
        for r in bars:
            x, y = float(r.get("x")) + float(r.get("width")) / 2, float(r.get("y")) + float(r.get("height")) / 2
            want = rgb(r.get("fill"))
            check(rows[int(y)][int(x)] == want, f"heatmap png: bar {r.get('data-count')} pixel {rows[int(y)][int(x)]} != {want}")
            check(counts.get(want, 0) > 2000, f"heatmap png: count {r.get('data-count')}'s colour on {counts.get(want, 0)} pixels")
    # memsys --compare: each bar segment's centre pixel has its part's colour.
    rows, root = png_like_svg(["memsys", "--compare", "--plot", "OUT", os.path.join(SCN, "procedural-water.scn")],
                              "mp.svg", "mp.png", "memsys png")
    if rows:
        segs = [e for b in root.findall("s:g[@class='bar']", NS) for e in b.findall("s:rect[@class='segment']", NS)
                if float(e.get("height")) >= 4]
        check(len(segs) >= 4, f"memsys png: {len(segs)} segments to sample")
        for e in segs:
            x, y = float(e.get("x")) + float(e.get("width")) / 2, float(e.get("y")) + float(e.get("height")) / 2
            check(rows[int(y)][int(x)] == rgb(e.get("fill")),
                  f"memsys png: segment {e.get('data-part')} pixel {rows[int(y)][int(x)]} != {e.get('fill')}")
    # the timeline and the fit chart: the size, and the picture is not blank
    for args, svg, png in ((["analyze", "-m", "fifo:3", "--trace-plot", "OUT", "grid.obj"], "tp.svg", "tp.png"),
                           (["fit", *FIT_MODELS, "--plot", "OUT", "m.json"], "fp.svg", "fp.png")):
        rows, root = png_like_svg(args, svg, png, svg)
        if rows:
            colours = {px for line in rows for px in line}
            check(len(colours) > 8, f"{png}: {len(colours)} colours")
    # a hostile output name is a file name, never a command
    evil = "p'\"`touch pwned`$(touch pwned2)\n;x.png"
    rc, out, err = run("analyze", "-m", "fifo:6", "--heatmap", evil, "grid.obj")
    check(rc == 0 and open(evil, "rb").read(8) == b"\x89PNG\r\n\x1a\n", f"hostile png name: exit {rc}: {err}")
    check(not os.path.exists("pwned") and not os.path.exists("pwned2"), "a png name ran a command")
    check(not any(n.startswith(".gpucache-png") for n in os.listdir(".")), "png: a temporary folder left")
    # no renderer: one line naming the package, exit 1, nothing written
    before = set(os.listdir("."))
    p = subprocess.run([BIN, "analyze", "-m", "fifo:6", "--heatmap", "none.png", "grid.obj"], capture_output=True,
                       env={**os.environ, "PATH": "/nonexistent"})
    err = p.stderr.decode("utf-8", "replace")
    check(p.returncode == 1 and "rsvg-convert not found (install librsvg2-bin)" in err and len(err.splitlines()) == 1,
          f"no rsvg-convert: exit {p.returncode}: {err!r}")
    check(set(os.listdir(".")) == before, f"no rsvg-convert: files left: {set(os.listdir('.')) - before}")
else:
    print("rsvg-convert not installed: PNG checks skipped")

# ---------------------------------------------------------------- errors
def error(args, want, what):
    before = set(os.listdir("."))
    rc, out, err = run(*args)
    check(rc == want, f"{what}: exit {rc}, want {want}")
    check(len(err.strip().splitlines()) == 1 and err.startswith("gpucache: "), f"{what}: one line: {err!r}")
    check(set(os.listdir(".")) == before, f"{what}: files left: {set(os.listdir('.')) - before}")


error(["analyze", "--heatmap", "e.svg", "--view", "back", "grid.obj"], 2, "bad --view")
error(["analyze", "--trace-plot", "e.svg", "--count", "0", "grid.obj"], 2, "--count 0")
error(["analyze", "--trace-plot", "e.svg", "--from", "4", "grid.obj"], 2, "--from past the end")
error(["analyze", "--view", "top", "grid.obj"], 2, "--view without --heatmap")
error(["analyze", "--heatmap-max", "3", "grid.obj"], 2, "--heatmap-max without --heatmap")
error(["analyze", "--heatmap", "e.svg", "--heatmap-max", "0", "grid.obj"], 2, "--heatmap-max 0")
error(["analyze", "--count", "3", "grid.obj"], 2, "--count without --trace-plot")
error(["analyze", "--heatmap", "e.svg", "grid:2x1"], 1, "--heatmap without positions")
write("idx.txt", "0 1 2 2 1 3\n")
error(["analyze", "--heatmap", "e.svg", "idx.txt"], 1, "--heatmap on an index list")
error(["analyze", "--heatmap", "grid.obj", "grid.obj"], 2, "--heatmap over its input")
error(["analyze", "--heatmap", "s.svg", "--trace-plot", "s.svg", "grid.obj"], 2, "two pictures, one file")
error(["analyze", "--per-vertex", "s.svg", "--trace-plot", "s.svg", "grid.obj"], 2, "a CSV and a picture, one file")
error(["analyze", "--trace-plot", "s.svg", "grid.gltf"], 2, "--trace-plot on a glTF (not yet)")
# llvmpipe lists its 256-entry fetch table: 1000 x 256 cells is over the 131072 bound
error(["analyze", "-m", "llvmpipe", "--trace-plot", "s.svg", "--count", "1000", "grid:40x40"], 2,
      "--trace-plot past the cell bound")
error(["analyze", "-m", "nvidia-dx", "--trace-plot", "s.svg", "grid.obj"], 1, "--trace-plot of a model without a trace")

error(["fit", "-m", "lru:16", "--plot", "nodir/f.svg", "m.json"], 1, "fit --plot into a missing folder")
error(["fit", "-m", "lru:16", "--plot", "m.json", "m.json"], 2, "fit --plot over its input")
error(["fit", "-m", "lru:16", "--plot"], 2, "fit --plot without a value")

error(["memsys", "--plot", "e.svg", os.path.join(SCN, "raycast.scn")], 2, "memsys --plot without --compare")
error(["memsys", "--compare", "--plot", "nodir/e.svg", os.path.join(SCN, "raycast.scn")], 1,
      "memsys --plot into a missing folder")
error(["memsys", "--compare", "--plot", hostile_scn, hostile_scn], 2, "memsys --plot over its scenario")

T.finish()
