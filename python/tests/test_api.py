# SPDX-License-Identifier: MIT
"""gpucache's Python API against the CLI of the same build (an independent path through the
library: its own argument parsing, loading and JSON) and against properties checked here."""
import csv
import io
import math
import os
import tracemalloc

import numpy as np
import pytest

import gpucache
from gpucache import _native

PRESETS = ["intel", "nvidia-kepler", "nvidia-pascal", "nvidia-maxwell", "amd-gcn", "generic"]
EXTRA = ["lru:16", "direct-value:32", "direct-position:32", "reuse:32,16,32", "batch", "llvmpipe", "fifo:7",
         "nvidia-dx", "nv-gl", "batch-all", "ati-basic", "radeonsi-polaris"]


def same_number(a, b):
    """The CLI writes doubles in fixed point with at most nine decimals (docs/json.md):
    compare at that precision."""
    if a is None or b is None:
        return a is b
    if isinstance(b, int) and isinstance(a, int):
        return a == b
    return abs(float(a) - float(b)) <= 5e-10 + 1e-15 * abs(float(b))


def json_close(py, cli) -> bool:
    """A result's JSON against the CLI's: the same keys (less the CLI's document header,
    gpucache_version and schema), numbers at the CLI's precision."""
    if isinstance(cli, dict):
        cli = {k: v for k, v in cli.items() if k not in ("gpucache_version", "schema")}
        return isinstance(py, dict) and list(py) == list(cli) and all(json_close(py[k], cli[k]) for k in cli)
    if isinstance(cli, list):
        return isinstance(py, list) and len(py) == len(cli) and all(json_close(a, b) for a, b in zip(py, cli))
    if isinstance(cli, bool) or isinstance(py, bool):
        return py == cli
    if isinstance(cli, (int, float)) and isinstance(py, (int, float)):
        return same_number(py, cli)
    return py == cli


def assert_model_json(py: dict, cli: dict):
    assert list(py) == list(cli), (py, cli)
    for k in cli:
        assert same_number(py[k], cli[k]) if isinstance(cli[k], (int, float)) or cli[k] is None else py[k] == cli[k], \
            (k, py[k], cli[k])


def canonical_triangles(idx: np.ndarray) -> np.ndarray:
    """Each triangle rotated to start at its smallest index (winding kept), rows sorted."""
    t = np.asarray(idx, dtype=np.int64).reshape(-1, 3)
    k = np.argmin(t, axis=1)
    rows = np.arange(t.shape[0])
    r = np.stack([t[rows, k], t[rows, (k + 1) % 3], t[rows, (k + 2) % 3]], axis=1)
    return r[np.lexsort(r.T[::-1])]


# ------------------------------------------------------------------------- models

def test_families_are_the_table(cli):
    # issue 28: Python's list is the library's family table, as the CLI lists it too
    import json
    listed = [f["family"] for f in json.loads(cli("models", "--json").stdout)["families"]]
    assert list(gpucache.models().families) == listed
    assert len(listed) == _native.lib.gc_family_count() >= 13


def test_models_match_cli(cli):
    cat = gpucache.models()
    assert cat.families == ("fifo", "lru", "direct-value", "direct-position", "nvidia", "meshopt", "reuse", "batch",
                            "llvmpipe", "nv-dx", "nv-gl", "batch-all", "ati")
    lines = cli("models").stdout.split("presets:\n")[1].splitlines()
    expected = [(l.split()[0], l.split()[2]) for l in lines if l.strip()]
    assert [(p.name, p.spec) for p in cat.presets] == expected
    # the first presets are a contract: later ones are added after them
    assert [p.name for p in cat.presets][:len(PRESETS)] == PRESETS
    assert all(p.source for p in cat.presets)
    assert cat.presets[0].family == "fifo"


# ------------------------------------------------------------------------ analyze

def test_analyze_equals_cli_json_on_corpus(cli, corpus):
    for path in corpus:
        want = cli.json("analyze", "--json", *sum((["-m", m] for m in PRESETS + EXTRA), []), path)
        mesh = gpucache.load(path)
        got = gpucache.analyze(mesh, PRESETS + EXTRA)
        assert len(got) == len(want["models"])
        for r in got:
            assert (r.topology, r.restart, r.indices, r.primitives, r.vertices) == \
                (want["topology"], want["restart"], want["indices"], want["primitives"], want["vertices"]), path
        for r, w in zip(got, want["models"]):
            assert_model_json(r.to_json(), w)


def test_analyze_single_model_and_default(cli):
    idx = gpucache.grid(20, 20)
    r = gpucache.analyze(idx)
    assert isinstance(r, gpucache.AnalyzeResult) and r.model == "intel" and r.family == "fifo"
    # a 20x20 row-major grid under a 128-entry FIFO: every one of the 441 vertices once
    assert r.invocations == 21 * 21 and r.primitives == 800 and r.vertices == 441
    assert math.isclose(r.acmr, 441 / 800)


def test_analyze_strip_restart_and_per_vertex_equal_cli(cli, tmp_path):
    rng = np.random.default_rng(5)
    strip = rng.integers(0, 60, size=400).astype(np.int64)
    strip[::37] = -1  # restarts, written -1 in text
    txt = tmp_path / "strip.txt"
    txt.write_text(" ".join(map(str, strip)) + "\n")
    csv_path = tmp_path / "pv.csv"
    models = ["nvidia", "fifo:8", "lru:12", "batch"]  # (the CSV header does not quote a comma in a name)
    want = cli.json("analyze", "--json", "-t", "triangle-strip", "--restart", "--per-vertex", csv_path,
                    *sum((["-m", m] for m in models), []), txt)
    arr = strip.astype(np.uint32)  # -1 -> 0xFFFFFFFF, the 32-bit restart value
    got = gpucache.analyze(arr, models, topology="triangle-strip", restart=True, per_vertex=True)
    assert want["restart"] == 0xFFFFFFFF == got[0].restart
    for r, w in zip(got, want["models"]):
        assert_model_json(r.to_json(), w)
    rows = list(csv.reader(io.StringIO(csv_path.read_text())))
    assert rows[0] == ["index"] + [r.model for r in got]
    table = np.array(rows[1:], dtype=np.int64)
    for i, r in enumerate(got):
        assert r.per_vertex_values.dtype == np.uint32 and r.per_vertex_counts.dtype == np.uint32
        np.testing.assert_array_equal(r.per_vertex_values, table[:, 0])
        np.testing.assert_array_equal(r.per_vertex_counts, table[:, i + 1])
        assert int(r.per_vertex_counts.sum()) == r.invocations


def test_analyze_state_changes_equal_cli(cli, tmp_path):
    idx = gpucache.grid(10, 10)
    u32 = tmp_path / "g.u32"
    idx.astype("<u4").tofile(u32)
    changes = tmp_path / "changes.txt"
    changes.write_text("30 90 300\n")
    want = cli.json("analyze", "--json", "-m", "batch", "--state-changes", changes, u32)
    got = gpucache.analyze(idx, "batch", state_changes=[30, 90, 300])
    assert_model_json(got.to_json(), want["models"][0])
    assert got.state_change_flushes > 0
    with pytest.raises(gpucache.ArgumentError, match="ascending"):
        gpucache.analyze(idx, "batch", state_changes=[90, 30])


def test_analyze_dtypes_and_shapes():
    base = gpucache.grid(8, 8)
    want = gpucache.analyze(base, "fifo:6").invocations
    for dt in (np.uint16, np.int32, np.int64, np.uint64, np.uint32):
        assert gpucache.analyze(base.astype(dt), "fifo:6").invocations == want, dt
    assert gpucache.analyze(base.reshape(-1, 3), "fifo:6").invocations == want
    assert gpucache.analyze(list(map(int, base)), "fifo:6").invocations == want
    wide = np.zeros((base.size, 2), dtype=np.uint32)
    wide[:, 0] = base
    assert not wide[:, 0].flags.c_contiguous
    assert gpucache.analyze(wide[:, 0], "fifo:6").invocations == want
    with pytest.raises(gpucache.ArgumentError, match=r"index 4 is -3: negative"):
        gpucache.analyze(np.array([0, 1, 2, 0, -3, 2], dtype=np.int64))
    with pytest.raises(gpucache.ArgumentError, match=r"index 1 is 4294967296: larger than 4294967295"):
        gpucache.analyze(np.array([0, 2**32, 2], dtype=np.int64))
    with pytest.raises(gpucache.ArgumentError, match="integer array"):
        gpucache.analyze(base.astype(np.float32))
    with pytest.raises(gpucache.ArgumentError, match="shape"):
        gpucache.analyze(base.reshape(2, -1, 3))
    with pytest.raises(gpucache.ArgumentError, match="model"):
        gpucache.analyze(base, 16)
    # uint16 sources restart at 0xFFFF with restart=True
    s = np.array([0, 1, 2, 3, 0xFFFF, 4, 5, 6], dtype=np.uint16)
    assert gpucache.analyze(s, "fifo:16", topology="triangle-strip", restart=True).restart == 0xFFFF


def test_analyze_10m_indices_without_copy():
    n = 10_000_002
    arr = np.arange(n, dtype=np.uint32) % 3001
    # the draw hands the library the array's own memory
    d = gpucache._Draw(arr, None, None)
    assert int(_native.ffi.cast("uintptr_t", d.draw.indices)) == arr.ctypes.data
    del d
    tracemalloc.start()
    try:
        r = gpucache.analyze(arr, ["fifo:32", "intel"])
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert r[0].indices == n and r[0].vertices == 3001
    # NumPy reports its buffers to tracemalloc: a copy of the 40 MB would show here
    assert peak < 1 << 20, peak
    # a (n/3, 3) view of the same buffer is used as it is too
    d = gpucache._Draw(arr.reshape(-1, 3), None, None)
    assert int(_native.ffi.cast("uintptr_t", d.draw.indices)) == arr.ctypes.data


# ----------------------------------------------------------------------- optimize

@pytest.mark.parametrize("algorithm", ["tipsify", "forsyth", "auto"])
def test_optimize_is_a_permutation(algorithm):
    idx = gpucache.grid(30, 30)
    tri = idx.reshape(-1, 3)
    shuffled = tri[np.random.default_rng(1).permutation(tri.shape[0])].reshape(-1)
    out = gpucache.optimize(shuffled, algorithm=algorithm, targets=["fifo:16"] if algorithm == "auto" else None)
    assert out.dtype == np.uint32 and out.shape == shuffled.shape
    np.testing.assert_array_equal(canonical_triangles(out), canonical_triangles(shuffled))
    before = gpucache.analyze(shuffled, "fifo:16").invocations
    assert gpucache.analyze(out, "fifo:16").invocations < before


def test_optimize_threads_give_the_same_order():
    idx = gpucache.grid(40, 30)
    tri = idx.reshape(-1, 3)
    shuffled = tri[np.random.default_rng(3).permutation(tri.shape[0])].reshape(-1)
    for targets in (None, ["llvmpipe"], ["nvidia-pascal"]):
        one = gpucache.optimize(shuffled, targets=targets, threads=1)
        for threads in (0, 2, 4):
            np.testing.assert_array_equal(gpucache.optimize(shuffled, targets=targets, threads=threads), one)
    with pytest.raises(gpucache.ArgumentError):
        gpucache.optimize(shuffled, threads=-1)
    with pytest.raises(gpucache.ArgumentError):
        gpucache.optimize(shuffled, threads=65)
    # effort 1, the fast path, keeps every triangle
    fast = gpucache.optimize(shuffled, targets=["fifo:16"], effort=1)
    np.testing.assert_array_equal(canonical_triangles(fast), canonical_triangles(shuffled))


def test_optimize_reorder_vertices_remap():
    idx = gpucache.grid(12, 9)
    tri = idx.reshape(-1, 3)
    shuffled = tri[np.random.default_rng(2).permutation(tri.shape[0])].reshape(-1)
    plain = gpucache.optimize(shuffled, algorithm="tipsify")
    out, remap = gpucache.optimize(shuffled, algorithm="tipsify", reorder_vertices=True)
    assert remap.shape == (13 * 10,) and remap.dtype == np.uint32
    np.testing.assert_array_equal(out, remap[plain])
    # first use order: the first occurrences read 0, 1, 2, ...
    _, first = np.unique(out, return_index=True)
    np.testing.assert_array_equal(out[np.sort(first)], np.arange(13 * 10))


def test_optimize_sparse_values_are_restored():
    tri = gpucache.grid(5, 5) * 1000003  # values far beyond 2 x indices + 65536
    out = gpucache.optimize(tri.astype(np.int64), algorithm="forsyth")
    np.testing.assert_array_equal(canonical_triangles(out), canonical_triangles(tri))
    with pytest.raises(gpucache.Error, match="vertex map"):
        gpucache.optimize(tri.astype(np.int64), reorder_vertices=True)


def _bumpy_grid(n=24):
    """An n x n grid of quads as triangles, its vertices on a bumpy surface (x, y, z)."""
    tri = []
    for y in range(n):
        for x in range(n):
            a, b, c, d = y * (n + 1) + x, y * (n + 1) + x + 1, (y + 1) * (n + 1) + x, (y + 1) * (n + 1) + x + 1
            tri += [a, b, c, c, b, d]
    xs, ys = np.meshgrid(np.arange(n + 1, dtype=np.float32), np.arange(n + 1, dtype=np.float32))
    zs = np.sin(xs * 0.7) * np.cos(ys * 0.5) * 3
    return np.array(tri, dtype=np.uint32), np.stack([xs.ravel(), ys.ravel(), zs.ravel()], axis=1)


def _canonical(tri):
    t = tri.reshape(-1, 3).tolist()
    rows = []
    for a, b, c in t:
        r = min(range(3), key=lambda i: (a, b, c)[i])
        rows.append(tuple((a, b, c)[(r + k) % 3] for k in range(3)))
    return sorted(rows)


def test_optimize_overdraw_keywords():
    """Issue 30: positions=, overdraw_threshold= and overdraw_lambda= (docs/optimizers/tipsify.md)."""
    tri, xyz = _bumpy_grid()
    plain = gpucache.optimize(tri, algorithm="tipsify")
    sorted_ = gpucache.optimize(tri, algorithm="tipsify", positions=xyz, overdraw_lambda=0.75)
    assert _canonical(sorted_) == _canonical(tri)  # the triangles and their windings, reordered
    assert not np.array_equal(plain, sorted_)
    # auto: threshold 1 is the order without positions, byte for byte
    assert np.array_equal(gpucache.optimize(tri, positions=xyz, overdraw_threshold=1.0), gpucache.optimize(tri))
    with pytest.raises(gpucache.ArgumentError):
        gpucache.optimize(tri, positions=xyz, overdraw_threshold=0.99)
    with pytest.raises(gpucache.ArgumentError):
        gpucache.optimize(tri, algorithm="tipsify", positions=xyz, overdraw_lambda=-1)
    with pytest.raises(gpucache.ArgumentError):
        gpucache.optimize(tri, positions=xyz[:10])  # fewer rows than vertices


@pytest.mark.parametrize("algorithm,args", [("tipsify", []), ("auto", ["-m", "fifo:16", "-m", "llvmpipe"])])
def test_optimize_and_write_equal_cli(cli, corpus, tmp_path, algorithm, args):
    src = next(p for p in corpus if p.name == "suzanne.obj") if any(p.name == "suzanne.obj" for p in corpus) \
        else corpus[0]
    cli_out = tmp_path / ("cli" + src.suffix)
    cli("optimize", "-a", algorithm, *args, src, "-o", cli_out)
    mesh = gpucache.load(src)
    targets = args[1::2] or None
    out = gpucache.optimize(mesh, algorithm=algorithm, targets=targets)
    py_out = tmp_path / ("py" + src.suffix)
    assert gpucache.write(py_out, out, source=src) is None
    assert py_out.read_bytes() == cli_out.read_bytes()


def test_optimize_runs_of_an_obj_equal_cli(cli, tmp_path):
    """Each run of faces (between usemtl statements) is reordered on its own, as the CLI does."""
    tri = gpucache.grid(9, 9).reshape(-1, 3)
    tri = tri[np.random.default_rng(4).permutation(tri.shape[0])]
    lines = [f"v {i % 10} {i // 10} 0" for i in range(100)]
    for name, part in (("a", tri[:70]), ("b", tri[70:])):
        lines.append(f"usemtl {name}")
        lines += [f"f {a + 1} {b + 1} {c + 1}" for a, b, c in part]
    src = tmp_path / "runs.obj"
    src.write_text("\n".join(lines) + "\n")
    mesh = gpucache.load(src)
    assert mesh.runs is not None and list(mesh.runs) == [70, tri.shape[0] - 70]
    cli("optimize", "-a", "auto", "-m", "fifo:8", src, "-o", tmp_path / "cli.obj")
    out = gpucache.optimize(mesh, targets=["fifo:8"])
    gpucache.write(tmp_path / "py.obj", out, source=src)
    assert (tmp_path / "py.obj").read_bytes() == (tmp_path / "cli.obj").read_bytes()


@pytest.mark.parametrize("algorithm", ["tipsify", "forsyth", "auto"])
def test_optimize_refuses_runs_that_do_not_fit(algorithm):
    """Issue 34 F5: runs are checked before any reaches C: [3, -1] sums to the 2 triangles but
    made the first run 9 indices of 6 (a heap overflow in C)."""
    idx = np.array([0, 1, 2, 2, 1, 3], dtype=np.uint32)
    for runs, text in (([3, -1], "run 1 is -1"), ([1, 2], "runs 0 to 1 hold 3 triangles"), ([1], "the runs hold 1"),
                       ([1.5, 0.5], "integers"), ([[1, 1]], "1-D")):
        with pytest.raises(gpucache.ArgumentError, match=text):
            gpucache.optimize(gpucache.Mesh(indices=idx, runs=np.asarray(runs) if runs != [3, -1] else runs),
                              algorithm=algorithm)
    # runs that fit: each of the two one-triangle runs keeps its triangle (up to rotation)
    out = gpucache.optimize(gpucache.Mesh(indices=idx, runs=[1, 1]), algorithm=algorithm)
    assert sorted(out[:3].tolist()) == [0, 1, 2] and sorted(out[3:].tolist()) == [1, 2, 3]
    out = gpucache.optimize(gpucache.Mesh(indices=idx, runs=[0, 2, 0]), algorithm=algorithm)
    assert sorted(map(sorted, out.reshape(-1, 3).tolist())) == [[0, 1, 2], [1, 2, 3]]


def test_optimize_index_buffer_remap_equals_cli(cli, tmp_path):
    tri = gpucache.grid(16, 16).reshape(-1, 3)
    shuffled = tri[np.random.default_rng(3).permutation(tri.shape[0])].reshape(-1)
    src = tmp_path / "in.u32"
    gpucache.write(src, shuffled)
    cli("optimize", "-a", "auto", "-m", "nvidia", "--reorder-vertices", "--remap", tmp_path / "map.u32", src,
        "-o", tmp_path / "cli.u32")
    out = gpucache.optimize(shuffled, targets=["nvidia"], reorder_vertices=False)
    remap = gpucache.write(tmp_path / "py.u32", out, source=src, reorder_vertices=True, remap=True)
    assert (tmp_path / "py.u32").read_bytes() == (tmp_path / "cli.u32").read_bytes()
    np.testing.assert_array_equal(remap, np.fromfile(tmp_path / "map.u32", dtype="<u4"))


def test_optimize_reorder_vertices_fetch_numbering_equals_cli(cli, corpus, tmp_path):
    """Issue 30: with --reorder-vertices the CLI numbers an index buffer's vertices for the
    fetch model; optimize(reorder_vertices=True) and write(reorder_vertices=True) give the same
    numbers, and fewer meshopt:32 bytes than the same triangles numbered by first use."""
    bunny = [p for p in corpus if p.name == "stanford-bunny.obj"]
    if not bunny:
        pytest.skip("no stanford-bunny.obj in the corpus")
    src = tmp_path / "bunny.u32"
    gpucache.write(src, gpucache.load(bunny[0]).indices)
    cli("optimize", "-a", "auto", "-m", "nvidia", "--reorder-vertices", "--remap", tmp_path / "map.u32", src,
        "-o", tmp_path / "cli.u32")
    indices = np.fromfile(src, dtype="<u4")
    out, remap = gpucache.optimize(indices, targets=["nvidia"], reorder_vertices=True)
    np.testing.assert_array_equal(remap, np.fromfile(tmp_path / "map.u32", dtype="<u4"))
    np.testing.assert_array_equal(out, np.fromfile(tmp_path / "cli.u32", dtype="<u4"))
    plain = gpucache.optimize(indices, targets=["nvidia"])
    written = gpucache.write(tmp_path / "py.u32", plain, source=src, reorder_vertices=True, remap=True)
    assert (tmp_path / "py.u32").read_bytes() == (tmp_path / "cli.u32").read_bytes()
    np.testing.assert_array_equal(written, remap)
    # first use of the same triangles: fewer bytes here (meshopt_analyzeVertexFetch's rule)
    _, first_at = np.unique(out, return_index=True)
    rank = np.empty(int(out.max()) + 1, dtype=np.int64)
    rank[out[np.sort(first_at)]] = np.arange(first_at.size)
    first = rank[out]

    def meshopt_bytes(idx):
        cache, total = {}, 0
        for v in idx.tolist():
            for tag in range(v * 32 // 64, (v * 32 + 32 + 63) // 64):
                if cache.get(tag % 2048) != tag:
                    total += 64
                    cache[tag % 2048] = tag
        return total
    assert meshopt_bytes(out) < meshopt_bytes(first)
    fetched = gpucache.analyze(gpucache.load(tmp_path / "cli.u32"), fetch="meshopt:32")
    fetched = fetched[0] if isinstance(fetched, list) else fetched
    assert fetched.fetch["bytes"] == meshopt_bytes(out)
    # first use where asked for it (a value-keyed target's numbering)
    gpucache.write(tmp_path / "first.u32", plain, source=src, reorder_vertices=True, fetch=None)
    np.testing.assert_array_equal(np.fromfile(tmp_path / "first.u32", dtype="<u4"), first)


def test_optimize_errors():
    with pytest.raises(gpucache.Error, match="unknown algorithm"):
        gpucache.optimize(gpucache.grid(2, 2), algorithm="fastest")
    with pytest.raises(gpucache.Error, match="no triangles"):
        gpucache.optimize(np.arange(4, dtype=np.uint32), topology="line-list")
    with pytest.raises(gpucache.Error) as e:
        gpucache.optimize(gpucache.grid(2, 2), vertex_count=3)
    assert e.value.code == "data" and e.value.message


# ----------------------------------------------------------------------- grid

@pytest.mark.parametrize("layout", gpucache.LAYOUTS)
def test_grid_equals_cli(cli, tmp_path, layout):
    f = tmp_path / "g.u32"
    cli("grid", 17, 11, "--layout", layout, "--cache", 12, "-o", f)
    got = gpucache.grid(17, 11, layout, 12)
    np.testing.assert_array_equal(got, np.fromfile(f, dtype="<u4"))


def test_grid_rowmajor_by_hand():
    # 1x1: two triangles over the 2x2 vertices 0 1 / 2 3
    g = gpucache.grid(1, 1)
    assert sorted(map(sorted, g.reshape(-1, 3).tolist())) == [[0, 1, 2], [1, 2, 3]] or \
        sorted(map(sorted, g.reshape(-1, 3).tolist())) == [[0, 1, 3], [0, 2, 3]]
    with pytest.raises(gpucache.ArgumentError, match="layout"):
        gpucache.grid(2, 2, "spiral")


# ------------------------------------------------------------------------ errors

def test_errors_carry_the_library_message(cli, tmp_path):
    for spec in ("fifo:0", "nope", "meshopt:1,2"):
        p = cli("analyze", "-m", spec, "grid:2x2", ok=False)
        with pytest.raises(gpucache.Error) as e:
            gpucache.analyze(gpucache.grid(2, 2), spec)
        assert e.value.code == "usage"
        assert p.stderr.strip() == f"gpucache: {e.value.message}"
    bad = tmp_path / "bad.txt"
    bad.write_text("0 1 2\n3 x 5\n")
    p = cli("analyze", bad, ok=False)
    with pytest.raises(gpucache.Error) as e:
        gpucache.load(bad)
    assert e.value.code == "data" and p.stderr.strip() == f"gpucache: {e.value.message}"
    with pytest.raises(gpucache.Error) as e:
        gpucache.load(tmp_path / "missing.obj")
    assert e.value.code == "io" and "missing.obj" in e.value.message
    with pytest.raises(gpucache.Error, match="topology"):
        gpucache.analyze(gpucache.grid(2, 2), topology="hexagons")


# ---------------------------------------------------------------------- load/write

def test_load_and_write_raw_formats(tmp_path):
    idx = gpucache.grid(6, 4)
    for ext in (".u32", ".u16", ".txt"):
        p = tmp_path / ("a" + ext)
        gpucache.write(p, idx)
        m = gpucache.load(p)
        np.testing.assert_array_equal(m.indices, idx)
        assert m.index_bits == (16 if ext == ".u16" else 32) and m.path == str(p)
    assert (tmp_path / "a.u32").read_bytes() == idx.astype("<u4").tobytes()
    with pytest.raises(gpucache.Error, match="16-bit"):
        gpucache.write(tmp_path / "b.u16", np.array([0, 1, 70000], dtype=np.uint32))
    assert not (tmp_path / "b.u16").exists()
    with pytest.raises(gpucache.Error):
        gpucache.write(tmp_path / "b.obj", idx)
    # an output over its own input is refused by the library, before anything is written
    with pytest.raises(gpucache.Error) as e:
        gpucache.write(tmp_path / "a.u32", idx, source=tmp_path / "a.u32")
    assert "a.u32" in e.value.message
    assert sorted(os.listdir(tmp_path)) == ["a.txt", "a.u16", "a.u32"]


def test_restart_value_in_a_32_bit_file_is_refused_as_the_cli_does(cli, tmp_path):
    f = tmp_path / "s.txt"
    f.write_text("0 1 2 -1 3 4 5\n")
    p = cli("analyze", "-t", "strip", f, ok=False)
    with pytest.raises(gpucache.Error) as e:
        gpucache.analyze(gpucache.load(f), topology="triangle-strip")
    assert e.value.message.split(";")[0] == p.stderr.strip()[len("gpucache: "):].split(";")[0]
    want = cli.json("analyze", "--json", "-m", "fifo:4", "-t", "strip", "--restart", f)
    got = gpucache.analyze(gpucache.load(f), "fifo:4", topology="triangle-strip", restart=True)
    assert_model_json(got.to_json(), want["models"][0])


def test_memsys_work_bound(tmp_path):
    text = "buffer a size=4M type=RO\ndispatch d cus=6\n  read a pattern=random bytes=4M seed=1\nend\n"
    assert gpucache.memsys(text).total["cycles"] > 0
    with pytest.raises(gpucache.Error) as e:
        gpucache.memsys(text, max_work=1000)
    assert e.value.code == "limit"


def test_load_mesh_fields(corpus):
    m = gpucache.load(corpus[0])
    assert m.indices.dtype == np.uint32 and m.topology == "triangle-list" and m.has_topology
    assert len(m) % 3 == 0 and int(m.indices.max()) < 2 * len(m) + 65536
    # the array owns the library's buffer (no copy was made of it)
    assert not m.indices.flags.owndata


# --------------------------------------------------------------------------- fit

def test_fit_file_equals_cli(cli, tmp_path):
    synth = tmp_path / "synth.json"
    cli("probe", "--suite", "--model", "lru:16", "-o", synth)
    cands = ["lru:15", "lru:16", "lru:17", "fifo:16", "nvidia"]
    want = cli.json("fit", "--json", "--top", 3, *sum((["-m", c] for c in cands), []), synth)
    got = gpucache.fit(synth, models=cands, top=3)
    assert (got.device, got.cases, got.candidates) == (want["device"], want["cases"], want["candidates"])
    assert got.best[0].model == "lru:16" and got.best[0].exact == got.cases
    for g, w in zip(got.best, want["best"]):
        assert (g.model, g.family, g.exact, g.total_error, g.wrong) == \
            (w["model"], w["family"], w["exact"], w["total_error"], w["wrong"])
        assert same_number(g.exact_share, w["exact_share"])
    # "@fit.json" model arguments read the best model of a fit result, as the CLI's -m does
    fitted = tmp_path / "fit.json"
    fitted.write_text(cli("fit", "--json", "--top", 1, "-m", "lru:16", "-m", "fifo:9", synth).stdout)
    assert gpucache.analyze(gpucache.grid(4, 4), f"@{fitted}").model == "lru:16"


def test_fit_in_memory_cases_recovers_the_model():
    rng = np.random.default_rng(7)
    cases = []
    for w, h in ((5, 5), (20, 3), (12, 12)):
        tri = gpucache.grid(w, h).reshape(-1, 3)
        idx = tri[rng.permutation(tri.shape[0])].reshape(-1)
        cases.append({"indices": idx, "invocations": gpucache.analyze(idx, "fifo:12").invocations,
                      "name": f"{w}x{h}"})
    got = gpucache.fit(cases, models=[f"fifo:{n}" for n in range(4, 21)] + ["lru:12"], top=2, threads=2)
    assert got.best[0].model == "fifo:12" and got.best[0].exact == 3 and got.best[0].wrong == []
    assert got.best[1].exact < 3 and got.best[1].wrong
    with pytest.raises(gpucache.Error) as e:
        gpucache.fit("/nonexistent/m.json")
    assert "/nonexistent/m.json" in e.value.message


# ------------------------------------------------------------------------ memsys

def test_memsys_equals_cli(cli):
    folder = gpucache_root() / "examples" / "memsys"
    for scn in sorted(folder.glob("*.scn")):
        for strategy in gpucache.STRATEGIES:
            want = cli.json("memsys", "--json", "--strategy", strategy, scn)
            got = gpucache.memsys(scn.read_text(), strategy, name=str(scn), max_work=None).to_json(str(scn))
            assert json_close(got, want), (scn, strategy, got, want)


def test_memsys_errors(cli, tmp_path):
    bad = tmp_path / "bad.scn"
    bad.write_text("buffer a SC 64\nfrobnicate a\n")
    p = cli("memsys", bad, ok=False)
    with pytest.raises(gpucache.Error) as e:
        gpucache.memsys(bad.read_text(), name=str(bad))
    assert p.stderr.strip() == f"gpucache: {e.value.message}"
    with pytest.raises(gpucache.Error, match="unknown strategy"):
        gpucache.memsys("", "fastest")


def gpucache_root():
    from conftest import ROOT
    return ROOT


def test_write_gltf_source_never_replaces_files_beside_the_output(tmp_path):
    """Issue 34 F1: a glTF naming `.bashrc` or a file already beside the output in another
    folder is refused whole: nothing written, the files there untouched."""
    import base64
    import json
    buf = base64.b64decode("AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAAAACAPwAAgD8AAAAAAAABAAIAAQADAAIA")

    def gltf(folder, image):
        folder.mkdir()
        (folder / "b.bin").write_bytes(buf)
        (folder / image).write_bytes(b"evil")
        doc = {"asset": {"version": "2.0"}, "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}],
               "buffers": [{"byteLength": 60, "uri": "b.bin"}],
               "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 48},
                               {"buffer": 0, "byteOffset": 48, "byteLength": 12}],
               "accessors": [{"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3",
                              "min": [0, 0, 0], "max": [1, 1, 0]},
                             {"bufferView": 1, "componentType": 5123, "count": 6, "type": "SCALAR"}],
               "images": [{"uri": image}]}
        (folder / "m.gltf").write_text(json.dumps(doc))
        return folder / "m.gltf"

    for n, image in enumerate([".bashrc", "notes.txt"]):
        src = gltf(tmp_path / ("evil%d" % n), image)
        home = tmp_path / ("home%d" % n)
        home.mkdir()
        (home / image).write_bytes(b"mine")
        mesh = gpucache.load(src)
        with pytest.raises(gpucache.Error, match="images\\[0\\]"):
            gpucache.write(home / "m.gltf", mesh.indices, source=src)
        assert (home / image).read_bytes() == b"mine"
        assert sorted(os.listdir(home)) == [image]
