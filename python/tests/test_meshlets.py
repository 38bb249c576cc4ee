# SPDX-License-Identifier: MIT
"""Issue 31: gpucache.meshlets equals the CLI's data file (read back by the library's reader and
by an independent reader of the documented layout, docs/formats/meshlets.md)."""
import struct

import numpy as np
import pytest

import gpucache
from conftest import CORPUS


def parse_file(path):
    """The data file, read from its documented layout alone."""
    d = open(path, "rb").read()
    assert d[:8] == b"GCMSHLT\0"
    version, flags, v, t, m, n, k = struct.unpack_from("<IIIIQQQ", d, 8)
    assert version == 1
    at = 48
    meshlets = np.frombuffer(d, dtype="<u4", count=4 * m, offset=at).reshape(m, 4)
    at += 16 * m
    verts = np.frombuffer(d, dtype="<u4", count=n, offset=at)
    at += 4 * n
    tris = np.frombuffer(d, dtype=np.uint8, count=3 * k, offset=at).reshape(k, 3)
    at = (at + 3 * k + 3) // 4 * 4
    bounds = None
    if flags & 1:
        bounds = np.frombuffer(d, dtype="<f4", count=12 * m, offset=at).reshape(m, 12)[:, :11]
        at += 48 * m
    assert at == len(d)
    return (v, t), meshlets, verts, tris, bounds


@pytest.mark.parametrize("limits", [(64, 124), (10, 7), (256, 512)])
def test_meshlets_equal_the_cli_data_file(cli, tmp_path, limits):
    v, t = limits
    inputs = [tmp_path / "grid.ply"]
    cli("grid", "13", "8", "-o", inputs[0])
    for name in ("cow.obj", "teapot.obj"):
        if (CORPUS / name).exists():
            inputs.append(CORPUS / name)
    for path in inputs:
        data = tmp_path / "m.bin"
        out = tmp_path / ("out" + path.suffix)
        cli("meshlets", "--max-vertices", v, "--max-triangles", t, "--bounds", path, "-o", out, "--data", data)
        mesh = gpucache.load(path)
        got = gpucache.meshlets(mesh, max_vertices=v, max_triangles=t, bounds=True)
        limits_read, ml, verts, tris, bounds = parse_file(data)
        assert limits_read == (v, t)
        np.testing.assert_array_equal(got.meshlets, ml)
        np.testing.assert_array_equal(got.meshlet_vertices, verts)
        np.testing.assert_array_equal(got.meshlet_triangles, tris)
        np.testing.assert_array_equal(got.bounds, bounds)
        back = gpucache.read_meshlets(data)
        np.testing.assert_array_equal(back.meshlets, ml)
        np.testing.assert_array_equal(back.bounds, bounds)
        # the written mesh, read back, is the meshlets expanded
        np.testing.assert_array_equal(gpucache.load(out).indices, got.indices())
        assert (ml[:, 2] <= v).all() and (ml[:, 3] <= t).all()


def test_meshlets_round_trip_and_refusals(tmp_path):
    idx = gpucache.grid(9, 9)
    m = gpucache.meshlets(idx, max_vertices=16, max_triangles=20)
    assert int(m.meshlets[:, 3].sum()) == idx.shape[0] // 3
    path = tmp_path / "m.bin"
    gpucache.write_meshlets(path, m)
    back = gpucache.read_meshlets(path)
    np.testing.assert_array_equal(back.meshlets, m.meshlets)
    np.testing.assert_array_equal(back.meshlet_vertices, m.meshlet_vertices)
    np.testing.assert_array_equal(back.meshlet_triangles, m.meshlet_triangles)
    for bad in ({"max_vertices": 2}, {"max_vertices": 257}, {"max_triangles": 0}, {"max_triangles": 513}):
        with pytest.raises(gpucache.ArgumentError):
            gpucache.meshlets(idx, **bad)
    with pytest.raises(gpucache.ArgumentError):
        gpucache.meshlets(idx, bounds=True)  # an index array has no positions
    data = path.read_bytes()
    (tmp_path / "cut.bin").write_bytes(data[:-1])
    with pytest.raises(gpucache.Error, match="truncated"):
        gpucache.read_meshlets(tmp_path / "cut.bin")
    # sparse index values keep their values
    sparse = idx.astype(np.uint64) * 100000
    s = gpucache.meshlets(sparse.astype(np.uint32), max_vertices=16, max_triangles=20)
    np.testing.assert_array_equal(np.sort(np.unique(s.meshlet_vertices)), np.unique(sparse))
