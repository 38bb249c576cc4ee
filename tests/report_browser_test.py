#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Issue 21: gpucache report's page in a real browser (headless Chromium through Debian's
chromium-driver and python3-selenium; nothing from the package index).

Loads file://.../report.html and checks that the browser logged no error (SEVERE entries of
its console log), that every figure is there and laid out at a non-zero size (its <svg>'s
getBoundingClientRect), and that the table's numbers, as the browser reads them, are
`analyze --json`'s. Exits 77 (skipped) when chromium, chromedriver or selenium is absent.
usage: report_browser_test.py GPUCACHE_BINARY WORK_DIR [CORPUS_DIR]
"""
import json
import os
import shutil
import subprocess
import sys

from cli_checks import Checks

T = Checks(sys.argv)
BIN, WORK = T.bin, T.work
check, run = T.check, T.run
CORPUS = os.path.abspath(sys.argv[3]) if len(sys.argv) > 3 else None

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
except ImportError:
    print("python3-selenium not installed: skipped (scripts/install-deps.sh installs it)")
    sys.exit(77)
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
if not CHROMIUM or not DRIVER:
    print("chromium or chromedriver not installed: skipped (scripts/install-deps.sh installs them)")
    sys.exit(77)

T.enter_fresh_work()



spot = os.path.join(CORPUS, "spot.obj") if CORPUS else None
if spot and os.path.exists(spot):
    mesh = spot
else:
    rc, _, err = run("grid", "40", "30", "-o", "mesh.obj")
    check(rc == 0, f"grid: {err}")
    mesh = os.path.abspath("mesh.obj")
# a name with markup, quotes and a shell expansion in it: the page must still load cleanly
hostile = os.path.abspath("a<b>&'\"$(x).obj")
shutil.copy(mesh, hostile)
have_gnuplot = shutil.which("gnuplot") is not None
# a glTF of several triangle-list primitives (tests/gltf/make_gltf.py, standard library only)
gen = subprocess.run([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "gltf", "make_gltf.py"),
                      "gltf"], capture_output=True)
check(gen.returncode == 0, f"make_gltf.py: {gen.stderr.decode()}")
pages = []
for name, src in (("report.html", mesh), ("hostile.html", hostile), ("gltf.html", os.path.abspath("gltf/lists.glb"))):
    rc, _, err = run("report", src, "-o", name)
    check(rc == 0, f"report {src}: exit {rc}: {err}")
    if rc == 0:
        pages.append((name, src))

options = webdriver.ChromeOptions()
options.binary_location = CHROMIUM
for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1200,900"):
    options.add_argument(a)
options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
try:
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
except Exception as e:  # a driver that cannot start a browser here is no test result
    print(f"chromium did not start: skipped ({str(e).splitlines()[0] if str(e) else e})")
    sys.exit(77)
try:
    driver.set_page_load_timeout(30)
    # the check can fail: a page that loads a missing file logs a SEVERE entry
    with open("control.html", "w") as f:
        f.write("<!DOCTYPE html><html><head><title>control</title></head><body>"
                "<img src='missing.png' alt='x'></body></html>")
    driver.get("file://" + os.path.join(WORK, "control.html"))
    check(any(e.get("level") == "SEVERE" for e in driver.get_log("browser")),
          "control page: a missing image logged no SEVERE entry (the console check would see nothing)")
    for name, src in pages:
        driver.get("file://" + os.path.join(WORK, name))
        state = driver.execute_script("return document.readyState")
        check(state == "complete", f"{name}: readyState {state}")
        severe = [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
        check(not severe, f"{name}: console errors: {severe[:3]}")
        # every figure, laid out: its inline <svg> has a non-zero box
        want = ["heatmap-before", "heatmap-after"] + (["sweep"] if have_gnuplot else [])
        boxes = driver.execute_script(
            """return arguments[0].map(function (id) {
                   var f = document.getElementById(id);
                   var s = f && f.querySelector('svg');
                   if (!s) return null;
                   var r = s.getBoundingClientRect();
                   return [r.width, r.height, s.querySelectorAll('path, polyline, line').length];
               });""", want)
        for fid, box in zip(want, boxes):
            check(box is not None and box[0] > 0 and box[1] > 0 and box[2] > 0,
                  f"{name}: figure {fid}: box {box} (width, height, drawn shapes)")
        # the table as the browser reads it, against analyze --json
        rows = driver.execute_script(
            """var out = {};
               document.querySelectorAll('#presets tbody tr').forEach(function (tr) {
                   var row = {};
                   tr.querySelectorAll('td').forEach(function (td) {
                       row[td.classList[td.classList.length - 1]] = td.textContent;
                   });
                   out[tr.dataset.model] = row;
               });
               return out;""")
        rc, out, err = run("analyze", "--json", src)
        check(rc == 0, f"analyze --json {src}: {err}")
        models = json.loads(out)["models"] if rc == 0 else []
        check(len(models) > 0 and all(m["model"] in rows for m in models), f"{name}: table rows {list(rows)}")
        for m in models:
            r = rows.get(m["model"], {})
            check(r.get("invocations") == str(m["invocations"]) and float(r.get("acmr", "nan")) == m["acmr"]
                  and float(r.get("atvr", "nan")) == m["atvr"]
                  and (r.get("batches") == "-" if m["batches"] is None else r.get("batches") == str(m["batches"])),
                  f"{name} {m['model']}: table {r} != analyze --json {m}")
        # the title shows the name as text, markup and all
        if name == "hostile.html":
            title = driver.execute_script("return document.querySelector('dd.input').textContent")
            check(title == src, f"{name}: the input reads {title!r}, not {src!r}")
            check(driver.execute_script("return document.querySelectorAll('body b').length") == 0,
                  f"{name}: the name's <b> became an element")
finally:
    driver.quit()

T.finish("report_browser")
