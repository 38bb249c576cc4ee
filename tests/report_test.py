#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Issue 21: gpucache report, checked by content (docs/report.md).

The page is parsed with the standard library's html.parser. Its table is compared with what
two other commands print for the same input: `analyze --json` (every preset's numbers) and
`optimize -a auto -m generic --json` (the "after" columns). A hostile file name must come
out escaped in the page, and the commands the page shows must run in a shell as they are
(the table's command is run and must print the table's numbers).
usage: report_test.py GPUCACHE_BINARY WORK_DIR [CORPUS_DIR]
"""
import html
import html.parser
import json
import os
import re
import shutil
import subprocess
import sys

from cli_checks import Checks

T = Checks(sys.argv)
BIN = T.bin
check, run = T.check, T.run
CORPUS = os.path.abspath(sys.argv[3]) if len(sys.argv) > 3 else None
T.enter_fresh_work()
HAVE_GNUPLOT = shutil.which("gnuplot") is not None



class Page(html.parser.HTMLParser):
    """The parts of a report the tests read: every element's attributes, the figures and the
    <svg> elements inside each, the table's cells by row and class, the <pre> text."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.elements = []  # (tag, attrs)
        self.stack = []
        self.figures = {}  # id -> number of <svg> elements inside
        self.rows = []  # [{class: text}] with "model" the data-model attribute
        self.pre = ""
        self.texts = {}  # class of a <dd> -> its text
        self._cell = None
        self._dd = None
        self._in_pre = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.elements.append((tag, a))
        if tag not in ("meta", "br", "img", "link", "rect", "path", "circle", "use", "line", "input"):
            self.stack.append((tag, a))
        fig = next((x for t, x in reversed(self.stack) if t == "figure"), None)
        if tag == "svg" and fig is not None:
            self.figures[fig.get("id")] += 1
        if tag == "figure":
            self.figures[a.get("id")] = 0
        if tag == "tr" and "data-model" in a:
            self.rows.append({"model": a["data-model"]})
        if tag == "td" and self.rows:
            self._cell = (a.get("class") or "").split()[-1] if a.get("class") else None
            if self._cell:
                self.rows[-1][self._cell] = ""
        if tag == "dd":
            self._dd = a.get("class")
            if self._dd:
                self.texts[self._dd] = ""
        if tag == "pre":
            self._in_pre = True

    def handle_startendtag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))

    def handle_endtag(self, tag):
        while self.stack:
            t, _ = self.stack.pop()
            if t == tag:
                break
        if tag == "td":
            self._cell = None
        if tag == "dd":
            self._dd = None
        if tag == "pre":
            self._in_pre = False

    def handle_data(self, data):
        if self._cell and self.rows:
            self.rows[-1][self._cell] += data
        if self._dd:
            self.texts[self._dd] += data
        if self._in_pre:
            self.pre += data


def parse(path):
    p = Page()
    with open(path, encoding="utf-8") as f:
        text = f.read()
    p.feed(text)
    p.close()
    return p, text


def number(text):
    return None if text == "-" else float(text)


def check_page(page, raw, input_path, label, after_json=None):
    # nothing loads from outside: no script, no external reference of any kind
    for tag, a in page.elements:
        for key in ("src", "href", "xlink:href", "data", "action", "poster"):
            v = a.get(key)
            if v is not None:
                check(v.startswith("#"), f"{label}: <{tag} {key}={v!r}> refers outside the page")
        check(tag not in ("script", "img", "link", "iframe", "object", "embed"), f"{label}: a <{tag}> element")
    check(not re.search(r"(src|href)\s*=\s*['\"]?\s*(https?:|//|file:)", raw), f"{label}: an http(s)/file reference")
    check(not re.search(r"url\(\s*['\"]?(?!#)", raw), f"{label}: a url() that is not a fragment")
    # every figure, each an inline <svg>
    want = ["heatmap-before", "heatmap-after"] + (["sweep"] if HAVE_GNUPLOT else [])
    for fid in want:
        check(page.figures.get(fid) == 1, f"{label}: figure {fid}: {page.figures.get(fid)} inline <svg> (want 1)")
    # no id twice on the page (the figures' ids included)
    ids = [a["id"] for _, a in page.elements if "id" in a]
    dup = sorted({i for i in ids if ids.count(i) > 1})
    check(not dup, f"{label}: ids used twice: {dup[:5]}")
    # the table: analyze --json's numbers, preset by preset, in its order
    rc, out, err = run("analyze", "--json", input_path)
    check(rc == 0, f"{label}: analyze --json: exit {rc}: {err}")
    models = json.loads(out)["models"] if rc == 0 else []
    presets = [r for r in page.rows if r["model"] in {m["model"] for m in models}]
    check([r["model"] for r in presets] == [m["model"] for m in models],
          f"{label}: table models {[r['model'] for r in page.rows]} != analyze's {[m['model'] for m in models]}")
    for r, m in zip(presets, models):
        check(int(r["invocations"]) == m["invocations"], f"{label} {m['model']}: invocations {r['invocations']} != {m['invocations']}")
        check(float(r["acmr"]) == m["acmr"], f"{label} {m['model']}: ACMR {r['acmr']} != {m['acmr']}")
        check(float(r["atvr"]) == m["atvr"], f"{label} {m['model']}: ATVR {r['atvr']} != {m['atvr']}")
        check(number(r["batches"]) == m["batches"], f"{label} {m['model']}: batches {r['batches']} != {m['batches']}")
    if after_json:
        after = {m["model"]: m["after"] for m in after_json["models"]}
        for r in presets:
            a = after.get(r["model"])
            check(a is not None and int(r["invocations-after"]) == a["invocations"]
                  and float(r["atvr-after"]) == a["atvr"],
                  f"{label} {r['model']}: after {r.get('invocations-after')} {r.get('atvr-after')} != optimize's {a}")
    return models


# ------------------------------------------------------------ a corpus mesh
spot = os.path.join(CORPUS, "spot.obj") if CORPUS else None
if spot and os.path.exists(spot):
    mesh = spot
else:
    print("corpus spot.obj absent: a generated 40x30 grid OBJ instead")
    rc, _, err = run("grid", "40", "30", "--layout", "rowmajor", "-o", "mesh.obj")
    check(rc == 0, f"grid -o mesh.obj: {err}")
    mesh = os.path.abspath("mesh.obj")
rc, out, err = run("report", mesh, "-o", "report.html")
check(rc == 0, f"report {mesh}: exit {rc}: {err}")
check(out == "", f"report printed on stdout: {out[:200]}")
rc2, oj, err2 = run("optimize", "--json", "-a", "auto", "-m", "generic", mesh, "-o", "after.obj")
check(rc2 == 0, f"optimize --json: {err2}")
if rc == 0:
    page, raw = parse("report.html")
    check_page(page, raw, mesh, "mesh", json.loads(oj) if rc2 == 0 else None)
    check(page.texts.get("input") == mesh, f"summary input {page.texts.get('input')!r}")
    # overdraw and fetch beside the cache: the page's figures are optimize --json's
    if rc2 == 0:
        o = json.loads(oj)
        for key, value in (("overdraw-before", f"{o['overdraw']['before']['ratio']:.4f}"),
                           ("overdraw-after", f"{o['overdraw']['after']['ratio']:.4f}"),
                           ("fetch-before", str(o['fetch']['before']['bytes'])),
                           ("fetch-after", str(o['fetch']['after']['bytes']))):
            check(page.texts.get(key) == value, f"report {key} {page.texts.get(key)!r} != optimize's {value}")
    # the sweep's range is the default one for a small mesh, and the commands name it
    check("--cache 8..32" in page.pre, f"commands lack the sweep's range: {page.pre}")
    check(os.path.getsize("report.html") < 3 << 20, f"report of {mesh}: {os.path.getsize('report.html')} bytes")

# --------------------------------------------------------------- hostile name
# quotes, <, &, $(...), a backquote and, where the file system takes it, a line break
rc, _, err = run("grid", "12", "9", "-o", "plain.obj")
check(rc == 0, f"grid -o plain.obj: {err}")
hostile = "it's \"<b>&amp;<i>\" $(touch pwned) `touch pwned2`;x\nline.obj"
try:
    shutil.copy("plain.obj", hostile)
except OSError:
    hostile = hostile.replace("\n", " ")
    shutil.copy("plain.obj", hostile)
rc, out, err = run("report", "-m", "fifo:8", "--view", "side", hostile, "-o", "hostile.html")
check(rc == 0, f"report hostile: exit {rc}: {err}")
if rc == 0:
    page, raw = parse("hostile.html")
    check_page(page, raw, hostile, "hostile")
    check("<b>" not in raw and "&amp;amp;" in raw, "hostile: the name's markup reached the page unescaped")
    check(page.texts.get("input") == hostile, f"hostile: summary input {page.texts.get('input')!r} != {hostile!r}")
    check(page.texts.get("model", "").startswith("fifo:8"), f"hostile: model {page.texts.get('model')!r}")
    check(not os.path.exists("pwned") and not os.path.exists("pwned2"), "hostile: a command ran")
    # the table's command, pasted into a shell as the page shows it, prints the same table
    m = re.search(r"# the table\n(.*?)\n# the heat maps", page.pre, re.S)
    check(m is not None, f"hostile: no table command in {page.pre!r}")
    if m:
        os.makedirs("bin", exist_ok=True)
        if not os.path.exists("bin/gpucache"):
            os.symlink(BIN, "bin/gpucache")
        env = dict(os.environ, PATH=os.path.abspath("bin") + ":" + os.environ.get("PATH", ""))
        p = subprocess.run(["sh", "-c", m.group(1)], capture_output=True, env=env)
        check(p.returncode == 0, f"hostile: the page's command failed: {p.stderr.decode()} ({m.group(1)!r})")
        if p.returncode == 0:
            shown = json.loads(p.stdout)["models"]
            rows = {r["model"]: r for r in page.rows}
            check(all(int(rows[x["model"]]["invocations"]) == x["invocations"] for x in shown),
                  "hostile: the pasted command's numbers differ from the table")
        check(not os.path.exists("pwned") and not os.path.exists("pwned2"), "hostile: the pasted command ran $(...)")
        # every command of the page parses as shell (sh -n) with the hostile name in it
        p = subprocess.run(["sh", "-n", "-c", page.pre], capture_output=True)
        check(p.returncode == 0, f"hostile: the commands do not parse: {p.stderr.decode()}")
        check("--view side" in page.pre and "-m fifo:8" in page.pre, f"hostile: options missing in {page.pre!r}")

# --------------------------------------------------- no positions, no gnuplot
with open("idx.txt", "w") as f:
    f.write("0 1 2 2 1 3 2 3 4 4 3 5\n")
rc, out, err = run("report", "idx.txt", "-o", "idx.html")
check(rc == 0, f"report idx.txt: exit {rc}: {err}")
if rc == 0:
    page, raw = parse("idx.html")
    check("heatmap-before" not in page.figures and "No heat maps" in raw, "idx.txt: heat maps without positions")
    rows = {r["model"]: r for r in page.rows}
    check(rows.get("generic", {}).get("invocations") == "6", f"idx.txt: generic (FIFO 16) shades 6 vertices: {rows.get('generic')}")
rc, out, err = run("report", "plain.obj", "-o", "nognuplot.html", env=dict(os.environ, PATH="/nonexistent"))
check(rc == 0 and "warning" in err and "gnuplot" in err, f"report without gnuplot: exit {rc}: {err}")
if rc == 0:
    page, raw = parse("nognuplot.html")
    check("sweep" in page.figures and page.figures["sweep"] == 0 and "No sweep figure" in raw,
          "without gnuplot: a note in the sweep figure's place")
    check(page.figures.get("heatmap-after") == 1, "without gnuplot: the heat maps are still there")

# ------------------------------------------------------------------- glTF
# tests/gltf/make_gltf.py's scenes (standard library only, a fraction of a second):
# lists.glb holds several shuffled triangle-list primitives, modes.gltf (with modes.bin)
# strips, fans, points, lines and lists in two meshes; draco.gltf and meshopt.glb must be
# refused as analyze refuses them.
GEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "gltf", "make_gltf.py")
p = subprocess.run([sys.executable, GEN, "gltf"], capture_output=True)
check(p.returncode == 0, f"make_gltf.py: {p.stderr.decode()}")


def heatmap_captions(svg_text):
    """The heat map's totals line ("model M: N invocations, ATVR ...") of each <svg>."""
    return re.findall(r"<text[^>]*>(model [^<]*invocations[^<]*)</text>", svg_text)


def gltf_page(src, label, model="generic", extra=()):
    """Reports `src`, checks the page against analyze --json and optimize --json (-m model),
    and returns (page, raw, analyze's JSON, optimize's JSON)."""
    html_path = label + ".html"
    rc, out, err = run("report", "-m", model, *extra, src, "-o", html_path)
    check(rc == 0, f"{label}: report: exit {rc}: {err}")
    os.makedirs("opt-out", exist_ok=True)
    rc2, oj, err2 = run("optimize", "--json", "-a", "auto", "-m", model, src, "-o",
                        os.path.join("opt-out", "after" + os.path.splitext(src)[1]))
    check(rc2 == 0, f"{label}: optimize --json: {err2}")
    if rc != 0 or rc2 != 0:
        return None, None, None, None
    opt = json.loads(oj)
    page, raw = parse(html_path)
    check_page(page, raw, src, label, opt)
    rc, out, err = run("analyze", "--json", src)
    aj = json.loads(out)
    # the summary: analyze's sums and its number of draws
    for key in ("indices", "primitives", "vertices"):
        check(page.texts.get(key) == str(aj[key]), f"{label}: summary {key} {page.texts.get(key)} != {aj[key]}")
    check(page.texts.get("draws") == str(len(aj["draws"])), f"{label}: draws {page.texts.get('draws')} != {len(aj['draws'])}")
    # the target's row: optimize's "targets" (the same model as its preset row when it is one)
    target = next((r for r in page.rows if "(target)" in r.get("name", "")), None)
    t = opt["targets"][0]
    check(target is not None and int(target["invocations-after"]) == t["after"]["invocations"]
          and float(target["atvr-after"]) == t["after"]["atvr"] and int(target["invocations"]) == t["before"]["invocations"],
          f"{label}: target row {target} != optimize's targets {t}")
    return page, raw, aj, opt


if p.returncode == 0:
    # several triangle lists: every number of the page against analyze and optimize, and the
    # heat maps' totals against the draws' sums (every primitive draws triangles here)
    page, raw, aj, opt = gltf_page("gltf/lists.glb", "lists")
    if page:
        caps = heatmap_captions(raw)
        generic = next(m for m in aj["models"] if m["model"] == "generic")
        after = next(m for m in opt["models"] if m["model"] == "generic")["after"]
        check(len(caps) == 2 and f"{generic['invocations']} invocations" in caps[0]
              and f"{after['invocations']} invocations" in caps[1],
              f"lists: heat map totals {caps} != analyze's {generic['invocations']} and optimize's {after['invocations']}")
        check(len(aj["draws"]) >= 2, f"lists: {len(aj['draws'])} draws (want several)")
        check(not os.path.exists("gltf/lists-optimized.glb") and not [n for n in os.listdir("gltf") if "after" in n],
              "lists: report wrote a glTF")

    # a hostile name for a .gltf beside its .bin, a model that is no preset, another view;
    # modes.gltf mixes strips, fans, points and lines with lists (table: all of them summed)
    hostile_gltf = os.path.join("gltf", "it's \"<b>&amp;<i>\" $(touch pwned3) `touch pwned4`.gltf")
    shutil.copy("gltf/modes.gltf", hostile_gltf)
    page, raw, aj, opt = gltf_page(hostile_gltf, "hostile-gltf", model="fifo:8", extra=("--view", "top"))
    if page:
        check(aj["topology"] == "mixed" and len(aj["draws"]) >= 5, f"modes: {aj['topology']}, {len(aj['draws'])} draws")
        check("<b>" not in raw and page.texts.get("input") == hostile_gltf,
              f"hostile glTF: summary input {page.texts.get('input')!r}")
        check(page.figures.get("heatmap-before") == 1 and page.figures.get("heatmap-after") == 1,
              "hostile glTF: both heat maps inline")
        # the page's commands for the table and the heat maps, pasted into sh, redo them:
        # the same numbers, the same heat maps' totals (each primitive its own draw)
        m = re.search(r"# the table\n(.*?)\n# the sweep", page.pre, re.S)
        check(m is not None, f"hostile glTF: commands {page.pre!r}")
        if m:
            os.makedirs("bin", exist_ok=True)
            if not os.path.exists("bin/gpucache"):
                os.symlink(BIN, "bin/gpucache")
            env = dict(os.environ, PATH=os.path.abspath("bin") + ":" + os.environ.get("PATH", ""))
            p2 = subprocess.run(["sh", "-c", m.group(1)], capture_output=True, env=env)
            check(p2.returncode == 0, f"hostile glTF: the page's commands failed: {p2.stderr.decode()}")
            if p2.returncode == 0:
                made = [heatmap_captions(open(n, encoding="utf-8").read()) for n in ("before.svg", "after.svg")]
                check(made == [[c] for c in heatmap_captions(raw)],
                      f"hostile glTF: the heat maps' totals {heatmap_captions(raw)} != the commands' {made}")
            check(not any(os.path.exists(n) for n in ("pwned3", "pwned4", "gltf/pwned3")), "hostile glTF: a command ran")
            p2 = subprocess.run(["sh", "-n", "-c", page.pre], capture_output=True)
            check(p2.returncode == 0, f"hostile glTF: the commands do not parse: {p2.stderr.decode()}")
            check("--view top" in page.pre and "after.gltf" in page.pre, f"hostile glTF: commands {page.pre!r}")

    # compressed geometry: analyze's line and exit status, no page
    for bad in ("gltf/draco.gltf", "gltf/meshopt.glb"):
        rc, _, err = run("report", bad, "-o", "compressed.html")
        arc, _, aerr = run("analyze", bad)
        check(rc == arc == 1 and err == aerr and err.count("\n") == 1 and not os.path.exists("compressed.html"),
              f"{bad}: report exit {rc} {err!r}, analyze exit {arc} {aerr!r}")
    # a broken one: the same
    with open("gltf/broken.glb", "wb") as f:
        f.write(open("gltf/lists.glb", "rb").read()[:200])
    rc, _, err = run("report", "gltf/broken.glb", "-o", "broken.html")
    arc, _, aerr = run("analyze", "gltf/broken.glb")
    check(rc == arc and rc == 1 and err == aerr and not os.path.exists("broken.html"),
          f"broken glb: report exit {rc} {err!r}, analyze exit {arc} {aerr!r}")

# -------------------------------------------------------------- errors
rc, _, err = run("report", "plain.obj")
check(rc == 2 and "-o" in err, f"no -o: exit {rc}: {err}")
rc, _, err = run("report", "missing.obj", "-o", "missing.html")
check(rc == 1 and not os.path.exists("missing.html"), f"missing input: exit {rc}, file left: {err}")
rc, _, err = run("report", "-m", "nonsense:3", "plain.obj", "-o", "bad.html")
check(rc == 2 and not os.path.exists("bad.html"), f"bad model: exit {rc}: {err}")
rc, _, err = run("report", "--cache", "9..3", "plain.obj", "-o", "bad.html")
check(rc == 2 and not os.path.exists("bad.html"), f"bad --cache: exit {rc}: {err}")
rc, _, err = run("report", "--cache", "16", "plain.obj", "-o", "bad.html")
check(rc == 2 and not os.path.exists("bad.html"), f"--cache of one size (no curve): exit {rc}: {err}")
rc, _, err = run("report", "plain.obj", "-o", "plain.obj")
check(rc == 2, f"output over the input: exit {rc}: {err}")
rc, _, err = run("report", "plain.obj", "-o", "no/such/folder/r.html")
check(rc != 0 and not os.path.exists("no"), f"output in a missing folder: exit {rc}: {err}")
rc, out, err = run("report", "--cache", "15..16", "plain.obj", "-o", "-")
check(rc == 0 and out.startswith("<!DOCTYPE html>") and out.rstrip().endswith("</html>"), f"-o -: exit {rc}: {err}")
leftovers = [n for n in os.listdir(".") if n.startswith(".") or "gpucache" in n]
check(not leftovers, f"temporaries left behind: {leftovers}")

T.finish("report")
