# SPDX-License-Identifier: MIT
"""gpucache.heatmap against the CLI's files (issue 28, item 3): the library draws the
picture for both, so the SVG text must be the file `gpucache analyze --heatmap` writes,
byte for byte, for the same input and options."""
import subprocess
import sys
from pathlib import Path

import pytest

import gpucache

ROOT = Path(__file__).resolve().parents[2]


def cli_heatmap(cli, tmp_path, path, *options):
    out = tmp_path / "cli.svg"
    cli("analyze", *options, "--heatmap", out, path)
    return out.read_bytes()


@pytest.fixture(scope="module")
def gltf_cases(tmp_path_factory):
    folder = tmp_path_factory.mktemp("gltf")
    subprocess.run([sys.executable, str(ROOT / "tests" / "gltf" / "make_gltf.py"), str(folder)], check=True,
                   capture_output=True)
    return folder


@pytest.mark.parametrize("model,view,top", [(None, "front", 0), ("fifo:8", "side", 5), ("lru:16", "top", 0)])
def test_heatmap_matches_cli_on_corpus(cli, corpus, tmp_path, model, view, top):
    mesh = next(p for p in corpus if p.name == "suzanne.obj") if any(p.name == "suzanne.obj" for p in corpus) \
        else corpus[0]
    options = (["-m", model] if model else []) + ["--view", view] + (["--heatmap-max", str(top)] if top else [])
    expected = cli_heatmap(cli, tmp_path, mesh, *options)
    svg = gpucache.heatmap(mesh, model=model, view=view, scale_max=top)
    assert svg.encode("utf-8") == expected
    # what the picture must say, independently of the CLI: the view and the model named
    assert f"({view} view)" in svg
    assert svg.startswith("<?xml") and svg.rstrip().endswith("</svg>")


@pytest.mark.parametrize("case", ["lists.glb", "modes.glb", "shared.gltf"])
def test_heatmap_matches_cli_on_gltf(cli, gltf_cases, tmp_path, case):
    path = gltf_cases / case
    expected = cli_heatmap(cli, tmp_path, path, "-m", "llvmpipe")
    assert gpucache.heatmap(path, model="llvmpipe").encode("utf-8") == expected


def test_heatmap_writes_output(tmp_path, corpus):
    out = tmp_path / "h.svg"
    svg = gpucache.heatmap(corpus[0], model="fifo:16", output=out)
    assert out.read_text(encoding="utf-8") == svg
    assert not [p for p in tmp_path.iterdir() if p.name != "h.svg"]  # no temporary left


def test_heatmap_counts_by_hand(tmp_path):
    # one quad of two triangles under a 3-entry FIFO: 0 1 2 then 2 1 3 shades 4 vertices,
    # each once, so the colour bar runs from 1 to 1 and the caption says 4 invocations
    obj = tmp_path / "quad.obj"
    obj.write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf 1 2 3\nf 3 2 4\n")
    svg = gpucache.heatmap(obj, model="fifo:3")
    assert ": 4 invocations, ATVR 1.000, ACMR 2.000; 2 triangles, 4 vertices;" in svg


def test_heatmap_errors(tmp_path, corpus):
    with pytest.raises(gpucache.Error):
        gpucache.heatmap(tmp_path / "missing.obj")
    with pytest.raises(gpucache.Error):
        gpucache.heatmap(corpus[0], view="below")
    with pytest.raises(gpucache.Error):
        gpucache.heatmap(corpus[0], model="fifo:0")
    points = tmp_path / "points.txt"
    points.write_text("0 1 2\n")
    with pytest.raises(gpucache.Error):  # indices without positions: no heat map
        gpucache.heatmap(points)


# ------------------------------------------------------------------ report

def without_timing(page):
    """The page without optimize's time, the one part that differs between two runs."""
    import re
    return re.sub(r"optimize -a auto</code> \([0-9.]+ s\)", "optimize -a auto</code> (T s)", page)


def cli_report(tmp_path, path, *options):
    """The CLI's page written without gnuplot on PATH: no sweep figure, as the package has none."""
    import os
    cli_path = os.environ.get("GPUCACHE_CLI") or str(ROOT / "build" / "gpucache")
    if not os.path.exists(cli_path):
        pytest.skip(f"no gpucache CLI at {cli_path}")
    out = tmp_path / "cli.html"
    empty = tmp_path / "no-gnuplot"
    empty.mkdir(exist_ok=True)
    p = subprocess.run([cli_path, "report", *options, "-o", str(out), str(path)], capture_output=True, text=True,
                       env={"PATH": str(empty), "HOME": str(tmp_path)})
    assert p.returncode == 0, p.stderr
    assert "gnuplot not found" in p.stderr
    return out.read_text(encoding="utf-8")


@pytest.mark.parametrize("model,view,cache", [(None, "front", None), ("nvidia", "side", (4, 10))])
def test_report_matches_cli_on_corpus(corpus, tmp_path, model, view, cache):
    mesh = next((p for p in corpus if p.name == "suzanne.obj"), corpus[0])
    options = (["-m", model] if model else []) + ["--view", view] + (["--cache", f"{cache[0]}..{cache[1]}"]
                                                                     if cache else [])
    expected = cli_report(tmp_path, mesh, *options)
    page = gpucache.report(mesh, model=model, view=view, cache=cache)
    assert without_timing(page) == without_timing(expected)
    # independently of the CLI: the target named, the commands quoted, no sweep figure
    assert page.startswith("<!DOCTYPE html>") and page.endswith("</html>\n")
    assert "No sweep figure" in page
    assert f"--cache {cache[0]}..{cache[1]}" in page if cache else "--cache 8..32" in page


@pytest.mark.parametrize("case", ["lists.glb", "modes.glb"])
def test_report_matches_cli_on_gltf(gltf_cases, tmp_path, case):
    path = gltf_cases / case
    expected = cli_report(tmp_path, path, "-m", "llvmpipe")
    page = gpucache.report(path, model="llvmpipe")
    assert without_timing(page) == without_timing(expected)
    assert "<dt>format</dt><dd>glTF, each mesh primitive a draw of its own</dd>" in page


def test_report_output_and_errors(tmp_path, corpus):
    out = tmp_path / "r.html"
    page = gpucache.report(corpus[0], output=out)
    assert out.read_text(encoding="utf-8") == page
    with pytest.raises(gpucache.Error):
        gpucache.report(tmp_path / "missing.obj")
    with pytest.raises(gpucache.Error):
        gpucache.report(corpus[0], cache=(2, 5))
    with pytest.raises(gpucache.Error):
        gpucache.report(corpus[0], model="fifo:0")
