# SPDX-License-Identifier: MIT
"""examples/corpus_dask.py on a LocalCluster of 2 workers over the corpus (plus a broken file):
one row per mesh and model, the broken mesh recorded as failed without losing the others, the
numbers equal to gpucache's own, and a second run resuming instead of computing again."""
import csv
import importlib.util
import io
import os
import sys

import pytest

import gpucache
from conftest import ROOT

dask_distributed = pytest.importorskip("dask.distributed")

MODELS = ["intel", "nvidia-kepler", "llvmpipe"]


def load_example():
    spec = importlib.util.spec_from_file_location("corpus_dask", ROOT / "examples" / "corpus_dask.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["corpus_dask"] = module
    spec.loader.exec_module(module)
    return module


def rows_of(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def test_corpus_on_local_cluster(corpus, tmp_path):
    ex = load_example()
    folder = tmp_path / "meshes"
    (folder / "sub").mkdir(parents=True)
    for p in corpus:  # links, not copies
        os.symlink(p, folder / p.name)
    (folder / "sub" / "broken.obj").write_text("v 0 0 0\nf 1 2 9\n")
    table = tmp_path / "table.csv"
    log = io.StringIO()
    with dask_distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None) as cluster, dask_distributed.Client(cluster) as client:
        assert len(client.scheduler_info()["workers"]) == 2
        counts = ex.run(client, folder, table, MODELS, log=log)
        assert counts == {"found": len(corpus) + 1, "skipped": 0, "computed": len(corpus) + 1, "failed": 1}
        rows = rows_of(table)
        meshes = sorted([p.name for p in corpus] + ["sub/broken.obj"])
        assert sorted((r["mesh"], r["model"]) for r in rows) == sorted((m, x) for m in meshes for x in MODELS)
        try:  # the table as pandas reads it (the way it is meant to be used)
            import pandas
        except ImportError:
            pandas = None
        if pandas is not None:
            df = pandas.read_csv(table)
            assert len(df) == len(meshes) * len(MODELS) and df.groupby(["mesh", "model"]).size().max() == 1
            assert (df.groupby("status").size().to_dict()) == {"ok": len(corpus) * len(MODELS), "failed": len(MODELS)}
        for r in rows:
            if r["mesh"] == "sub/broken.obj":
                assert r["status"] == "failed" and "broken.obj" in r["error"]
                continue
            assert r["status"] == "ok", r
            assert int(r["invocations_after"]) > 0 and 0 < int(r["triangles"]) <= int(r["indices"])
        # the table's "before" numbers are gpucache's own
        for p in corpus[:3]:
            want = {x.model: x.invocations for x in gpucache.analyze(gpucache.load(p), MODELS)}
            got = {r["model"]: int(r["invocations_before"]) for r in rows if r["mesh"] == p.name}
            assert got == want
        # auto optimizes for these targets: it does not lose to the input on their sum
        for m in {r["mesh"] for r in rows if r["status"] == "ok"}:
            mine = [r for r in rows if r["mesh"] == m]
            assert sum(int(r["invocations_after"]) for r in mine) <= sum(int(r["invocations_before"]) for r in mine)

        # resumed: nothing computed again; the failed mesh only with retry_failed
        assert ex.run(client, folder, table, MODELS, log=log)["computed"] == 0
        assert ex.run(client, folder, table, MODELS, retry_failed=True, log=log)["computed"] == 1
        # a partly done table: only the missing mesh is computed, the rest kept as it was
        kept = [r for r in rows_of(table) if r["mesh"] != corpus[0].name]
        ex.write_table(table, kept)
        counts = ex.run(client, folder, table, MODELS, log=log)
        assert counts["computed"] == 1 and counts["skipped"] == len(corpus)
        def without_time(rs):
            return sorted(tuple((k, v) for k, v in r.items() if k != "seconds") for r in rs)
        assert without_time(rows_of(table)) == without_time(rows)
