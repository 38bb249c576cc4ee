# SPDX-License-Identifier: MIT
"""Issue 30: overdraw and vertex fetch through the CLI (analyze --overdraw --fetch SPEC) and
through Python (analyze(overdraw=, fetch=)) give the same numbers, on OBJ, PLY and glTF; the
CLI's overdraw equals meshoptimizer 1.2's meshopt_analyzeOverdraw (data/peer/, written by
bench/peer_overdraw.c) on the stored corpus meshes; bad requests get one line."""
import subprocess
import sys

import numpy as np
import pytest

import gpucache
from conftest import CORPUS, ROOT


def peer_rows():
    rows = {}
    for line in (ROOT / "data" / "peer" / "meshopt-1.2-overdraw.tsv").read_text().splitlines():
        parts = line.split("\t")
        if line.startswith("#") or parts[0] == "mesh":
            continue
        if parts[1] == "0":
            rows[parts[0]] = (int(parts[2]), int(parts[3]))
    return rows


@pytest.mark.parametrize("name", ["cow.obj", "spot.obj", "igea.ply", "teapot.obj"])
def test_cli_and_python_agree_and_match_meshoptimizer(cli, name):
    path = CORPUS / name
    if not path.exists():
        pytest.skip(f"no {path}")
    models = ["fifo:16", "amd-gcn", "nvidia-pascal"]
    args = ["analyze", "--json", "--overdraw"] + [a for m in models for a in ("-m", m)]
    for spec in ("meshopt:32", "gcn:24", "cache:64,32K,8:16"):
        j = cli.json(*args, "--fetch", spec, path)
        mesh = gpucache.load(str(path))
        py = gpucache.analyze(mesh, model=models, overdraw=True, fetch=spec)
        assert py[0].overdraw == pytest.approx(j["overdraw"])
        assert j["overdraw"]["covered"] == py[0].overdraw["covered"]
        assert j["overdraw"]["shaded"] == py[0].overdraw["shaded"]
        if spec.startswith("meshopt"):
            assert j["fetch"]["spec"] == spec and py[0].fetch["bytes"] == j["fetch"]["bytes"]
            assert all("fetch" not in m for m in j["models"])
        else:
            assert "fetch" not in j
            for r, m in zip(py, j["models"]):
                assert m["fetch"]["spec"] == spec
                assert r.to_json()["fetch"] == pytest.approx(m["fetch"])
    covered, shaded = peer_rows()[name]
    assert (j["overdraw"]["covered"], j["overdraw"]["shaded"]) == (covered, shaded)


def test_gltf_draws_get_their_overdraw(cli, tmp_path):
    src = CORPUS / "suzanne.obj"
    if not src.exists():
        pytest.skip("no suzanne.obj")
    glb = tmp_path / "suzanne.glb"
    subprocess.run([sys.executable, str(ROOT / "tests" / "gltf" / "make_gltf.py"), "--from-obj", str(src), "-o",
                    str(glb)], check=True, capture_output=True)
    j = cli.json("analyze", "--json", "--overdraw", "--fetch", "meshopt:12", "-m", "fifo:16", glb)
    py = gpucache.analyze(gpucache.load(str(glb)), model="fifo:16", overdraw=True, fetch="meshopt:12")
    assert py.overdraw == pytest.approx(j["overdraw"])
    triangle_draws = [d for d in j["draws"] if d["mode"] in ("triangles", "triangle-strip", "triangle-fan")]
    assert triangle_draws and all("overdraw" in d for d in triangle_draws)
    for a, b in zip(py.draws, j["draws"]):
        assert (a.get("overdraw") is None) == (b.get("overdraw") is None)
        if b.get("overdraw"):
            assert a["overdraw"] == pytest.approx(b["overdraw"])
    # one draw: its own overdraw is the whole file's; the same as the OBJ's (same triangles, same box)
    obj = cli.json("analyze", "--json", "--overdraw", "-m", "fifo:16", src)
    assert triangle_draws[0]["overdraw"] == j["overdraw"]
    assert (j["overdraw"]["covered"], j["overdraw"]["shaded"]) == (obj["overdraw"]["covered"], obj["overdraw"]["shaded"])


def test_arrays_with_positions():
    # two unit squares facing +z, the far one first: 65536 pixels covered, each shaded twice
    xyz = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]],
                   dtype=np.float32)
    idx = np.array([0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7], dtype=np.uint32)
    r = gpucache.analyze(idx, model="fifo:16", overdraw=True, positions=xyz, fetch="meshopt:16")
    assert r.overdraw == {"covered": 65536, "shaded": 131072, "ratio": 2.0}
    # 8 vertices of 16 bytes: 128 bytes, two 64-byte lines, each read once
    assert r.fetch["bytes"] == 128


def test_bad_requests(cli, tmp_path):
    idx = tmp_path / "i.txt"
    idx.write_text("0 1 2\n")
    p = cli("analyze", "--overdraw", idx, ok=False)
    assert p.returncode != 0 and len(p.stderr.strip().splitlines()) == 1 and "positions" in p.stderr
    for spec in ("meshopt:0", "bogus:3", "cache:64,100,1:32", "meshopt:32x"):
        p = cli("analyze", "--fetch", spec, idx, ok=False)
        assert p.returncode != 0 and len(p.stderr.strip().splitlines()) == 1 and spec in p.stderr
    p = cli("analyze", "--overdraw", "-t", "triangle-strip", idx, ok=False)
    assert p.returncode != 0 and len(p.stderr.strip().splitlines()) == 1
    with pytest.raises(gpucache.Error):
        gpucache.analyze(np.array([0, 1, 2], dtype=np.uint32), overdraw=True)
    with pytest.raises(gpucache.Error):
        gpucache.analyze(np.array([0, 1, 2], dtype=np.uint32), fetch="l9:32")


@pytest.mark.parametrize("args", [("-a", "tipsify"), ("-a", "auto", "--reorder-vertices"), ("-a", "forsyth")])
def test_optimize_reports_what_analyze_reads_back(cli, tmp_path, args):
    src = CORPUS / "cow.obj"
    if not src.exists():
        pytest.skip("no cow.obj")
    out = tmp_path / "out.obj"
    j = cli.json("optimize", "--json", *args, src, "-o", out)
    before = cli.json("analyze", "--json", "--overdraw", "--fetch", "meshopt:32", "-m", "fifo:16", src)
    after = cli.json("analyze", "--json", "--overdraw", "--fetch", "meshopt:32", "-m", "fifo:16", out)
    assert j["overdraw"]["before"] == before["overdraw"] and j["overdraw"]["after"] == after["overdraw"]
    assert j["fetch"]["before"]["bytes"] == before["fetch"]["bytes"]
    assert j["fetch"]["after"]["bytes"] == after["fetch"]["bytes"]
    text = cli("optimize", *args, src, "-o", out).stdout
    assert "overdraw (shaded / covered)" in text and "bytes fetched (meshopt:32)" in text
    p = cli("optimize", "--fetch", "gcn:32", *args, src, "-o", out, ok=False)
    assert p.returncode != 0 and len(p.stderr.strip().splitlines()) == 1


def test_overdraw_map(cli, tmp_path):
    src = CORPUS / "spot.obj"
    if not src.exists():
        pytest.skip("no spot.obj")
    for view in ("front", "side", "top"):
        svg = tmp_path / f"{view}.svg"
        cli("analyze", "-m", "fifo:16", "--overdraw-map", svg, "--view", view, src)
        text = svg.read_text()
        assert text.startswith("<?xml") and text.rstrip().endswith("</svg>")
        assert f"overdraw, {view}" in text and "pixels covered" in text
    # the map's covered and shaded are one side of one view: at most the whole model's
    whole = cli.json("analyze", "--json", "--overdraw", "-m", "fifo:16", src)["overdraw"]
    import re
    covered, shaded = map(int, re.search(r"(\d+) pixels covered, (\d+) shaded", (tmp_path / "front.svg").read_text())
                          .groups())
    assert 0 < covered <= whole["covered"] and covered <= shaded <= whole["shaded"]
    # never over the input, never two outputs on one file, no positions: one line
    p = cli("analyze", "--overdraw-map", src, src, ok=False)
    assert p.returncode != 0 and len(p.stderr.strip().splitlines()) == 1
    p = cli("analyze", "--overdraw-map", tmp_path / "a.svg", "--heatmap", tmp_path / "a.svg", src, ok=False)
    assert p.returncode != 0 and "two outputs" in p.stderr
    idx = tmp_path / "i.txt"
    idx.write_text("0 1 2\n")
    p = cli("analyze", "--overdraw-map", tmp_path / "i.svg", idx, ok=False)
    assert p.returncode != 0 and len(p.stderr.strip().splitlines()) == 1 and not (tmp_path / "i.svg").exists()
