#!/usr/bin/python3
"""Analyze and optimize every mesh under a folder on a Dask cluster; one CSV table out.

    corpus_dask.py FOLDER -o TABLE.csv [--workers N | --scheduler ADDRESS] [-m MODEL]...
                   [-a ALGORITHM] [--effort E] [--seed S] [--optimized DIR] [--retry-failed]

Each mesh (every file under FOLDER that gpucache reads: .obj, .ply, .gltf, .glb, .u16, .u32,
.txt, .idx, ...) is one task: load, analyze under every model, optimize for those models (auto,
or the algorithm given), analyze the result. The table has one row per mesh and model:

    mesh, model, family, indices, triangles, vertices, invocations_before, acmr_before,
    atvr_before, invocations_after, acmr_after, atvr_after, algorithm, seconds, status, error

A mesh that fails (bad file, a worker lost) gets a row per model with status "failed" and the
library's message in "error"; the others are not affected. The table is rewritten whole (a
temporary, then renamed) as results come in, so that an interrupted run leaves a valid table;
running again with the same TABLE resumes: meshes whose rows are all "ok" for the models asked
are not computed again ("failed" ones are, with --retry-failed).

The same code runs on a LocalCluster (--workers N, the default: one per CPU) and on a
multi-node cluster (--scheduler tcp://host:8786): there every worker needs the gpucache
package installed, and FOLDER at the same path (a shared file system), since workers read the
meshes themselves; the table is written where this script runs.
"""
from __future__ import annotations

import argparse
import csv
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence

COLUMNS = ["mesh", "model", "family", "indices", "triangles", "vertices", "invocations_before", "acmr_before",
           "atvr_before", "invocations_after", "acmr_after", "atvr_after", "algorithm", "seconds", "status", "error"]
MESH_SUFFIXES = {".obj", ".ply", ".gltf", ".glb", ".fbx", ".dae", ".stl", ".3ds", ".off", ".u16", ".u32", ".txt",
                 ".idx"}
DEFAULT_MODELS = ["intel", "nvidia-kepler", "nvidia-pascal", "amd-gcn"]


def find_meshes(folder: Path) -> List[str]:
    """The mesh files under `folder`, as paths relative to it, sorted (symbolic links to files
    are followed; folders are walked without following links)."""
    found = []
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames.sort()
        for name in sorted(filenames):
            if Path(name).suffix.lower() in MESH_SUFFIXES:
                found.append(os.path.relpath(os.path.join(dirpath, name), folder))
    return found


def process_mesh(folder: str, rel: str, models: Sequence[str], algorithm: str, effort: int, seed: int,
                 optimized: Optional[str]) -> List[Dict[str, object]]:
    """One task, run on a worker: the rows of one mesh. Never raises: a failure is rows with
    status "failed" and the message."""
    import gpucache  # imported on the worker

    t0 = time.perf_counter()
    try:
        mesh = gpucache.load(os.path.join(folder, rel))
        before = gpucache.analyze(mesh, list(models))
        out = gpucache.optimize(mesh, algorithm=algorithm, targets=list(models), effort=effort, seed=seed)
        # An OBJ reader numbers vertices in first-use order: analyze the output as it will be read.
        read_back = first_use_numbering(out) if rel.lower().endswith(".obj") else out
        after = gpucache.analyze(read_back, list(models))
        if optimized and mesh.topology == "triangle-list" and mesh.restart is None:
            target = Path(optimized) / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            gpucache.write(target, out, source=os.path.join(folder, rel))
        seconds = time.perf_counter() - t0
        return [{"mesh": rel, "model": b.model, "family": b.family, "indices": b.indices,
                 "triangles": len(out) // 3, "vertices": b.vertices, "invocations_before": b.invocations,
                 "acmr_before": f"{b.acmr:.6f}", "atvr_before": f"{b.atvr:.6f}", "invocations_after": a.invocations,
                 "acmr_after": f"{a.acmr:.6f}", "atvr_after": f"{a.atvr:.6f}", "algorithm": algorithm,
                 "seconds": f"{seconds:.3f}", "status": "ok", "error": ""} for b, a in zip(before, after)]
    except Exception as e:  # recorded in the table, the run goes on
        return failed_rows(rel, models, algorithm, e)


def first_use_numbering(indices):
    """The indices with vertices renumbered 0, 1, 2, ... in order of first use (vectorized)."""
    import numpy as np

    _, first, inverse = np.unique(indices, return_index=True, return_inverse=True)
    rank = np.empty(first.shape[0], dtype=np.uint32)
    rank[np.argsort(first, kind="stable")] = np.arange(first.shape[0], dtype=np.uint32)
    return rank[inverse.reshape(-1)]


def failed_rows(rel: str, models: Sequence[str], algorithm: str, error: BaseException) -> List[Dict[str, object]]:
    message = getattr(error, "message", None) or f"{type(error).__name__}: {error}"
    return [{**{c: "" for c in COLUMNS}, "mesh": rel, "model": m, "algorithm": algorithm, "status": "failed",
             "error": " ".join(str(message).split())} for m in models]


def read_table(path: Path) -> List[Dict[str, str]]:
    """The rows of an earlier run (none if the table does not exist)."""
    if not path.exists():
        return []
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        if reader.fieldnames != COLUMNS:
            raise SystemExit(f"corpus_dask: {path}: not a table this script wrote (columns {reader.fieldnames})")
        return list(reader)


def write_table(path: Path, rows: Iterable[Dict[str, object]]) -> None:
    """The whole table, to a temporary beside `path`, then renamed over it."""
    fd, temp = tempfile.mkstemp(prefix=path.name + ".tmp-", dir=path.parent if str(path.parent) else ".")
    try:
        with os.fdopen(fd, "w", newline="", encoding="utf-8") as f:
            w = csv.DictWriter(f, fieldnames=COLUMNS)
            w.writeheader()
            w.writerows(sorted(rows, key=lambda r: (str(r["mesh"]), str(r["model"]))))
            f.flush()
            os.fsync(f.fileno())
        os.chmod(temp, 0o644)
        os.replace(temp, path)
    except BaseException:
        os.unlink(temp)
        raise


def run(client, folder: Path, table: Path, models: Sequence[str], algorithm: str = "auto", effort: int = 1,
        seed: int = 0, optimized: Optional[Path] = None, retry_failed: bool = False,
        log=sys.stderr) -> Dict[str, int]:
    """Runs the corpus on `client` (a dask.distributed Client); returns counts of meshes
    {"found", "skipped", "computed", "failed"}."""
    from dask.distributed import as_completed

    import gpucache

    for m in models:  # a bad model is a usage error, found before any task
        gpucache.analyze(gpucache.grid(1, 1), m)
    module = sys.modules.get(__name__)
    if module is not None and __name__ != "__main__":  # (__main__'s functions travel by value anyway)
        try:  # workers, here or on other machines, run this module's functions without importing it
            import cloudpickle
            cloudpickle.register_pickle_by_value(module)
        except (ImportError, AttributeError, ValueError):
            pass
    folder = folder.resolve()
    meshes = find_meshes(folder)
    done: Dict[str, List[Dict[str, object]]] = {}
    for row in read_table(table):
        done.setdefault(row["mesh"], []).append(row)
    wanted = set(models)
    rows: List[Dict[str, object]] = []
    todo = []
    for rel in meshes:
        kept = done.get(rel, [])
        ok = {r["model"] for r in kept if r["status"] == "ok"}
        have = {r["model"] for r in kept}
        if wanted <= ok or (not retry_failed and wanted <= have):
            rows += [r for r in kept if r["model"] in wanted]
        else:
            todo.append(rel)
    # rows of meshes no longer in the folder, or of other models, are kept as they were
    listed = set(meshes)
    rows += [r for rel, kept in done.items() for r in kept if rel not in listed or
             (r["model"] not in wanted)]
    counts = {"found": len(meshes), "skipped": len(meshes) - len(todo), "computed": 0, "failed": 0}
    print(f"corpus_dask: {len(meshes)} meshes, {len(todo)} to compute", file=log)
    futures = {client.submit(process_mesh, str(folder), rel, list(models), algorithm, effort, seed,
                             str(optimized) if optimized else None, pure=False): rel
               for rel in todo}
    last_write = 0.0
    for future in as_completed(futures):
        rel = futures[future]
        try:
            result = future.result()
        except Exception as e:  # the worker died or the task could not run
            result = failed_rows(rel, models, algorithm, e)
        rows += result
        counts["computed"] += 1
        if any(r["status"] != "ok" for r in result):
            counts["failed"] += 1
            print(f"corpus_dask: {rel}: {result[0]['error']}", file=log)
        if time.monotonic() - last_write > 2.0:
            write_table(table, rows)
            last_write = time.monotonic()
    write_table(table, rows)
    print(f"corpus_dask: {counts['computed']} computed ({counts['failed']} failed), {counts['skipped']} kept "
          f"from {table}", file=log)
    return counts


def main(argv: Optional[Sequence[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("folder", type=Path)
    p.add_argument("-o", "--output", type=Path, required=True, help="the CSV table (resumed if it exists)")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--scheduler", help="address of a running Dask scheduler (tcp://host:8786)")
    where.add_argument("--workers", type=int, default=0, help="LocalCluster workers (default: one per CPU)")
    p.add_argument("-m", "--model", action="append", help=f"model spec, repeatable (default: {' '.join(DEFAULT_MODELS)})")
    p.add_argument("-a", "--algorithm", default="auto", choices=["auto", "tipsify", "forsyth"])
    p.add_argument("--effort", type=int, default=1)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--optimized", type=Path, help="also write each optimized mesh under this folder")
    p.add_argument("--retry-failed", action="store_true", help="compute again the meshes that failed before")
    args = p.parse_args(argv)
    if not args.folder.is_dir():
        p.error(f"{args.folder}: not a folder")

    import gpucache
    from dask.distributed import Client, LocalCluster

    models = args.model or DEFAULT_MODELS
    try:
        for m in models:  # before a cluster is started for nothing
            gpucache.analyze(gpucache.grid(1, 1), m)
        if args.scheduler:
            client = Client(args.scheduler)
            cluster = None
        else:
            cluster = LocalCluster(n_workers=args.workers or (os.cpu_count() or 1), threads_per_worker=1)
            client = Client(cluster)
        try:
            run(client, args.folder, args.output, models, args.algorithm, args.effort, args.seed, args.optimized,
                args.retry_failed)
        finally:
            client.close()
            if cluster is not None:
                cluster.close()
    except gpucache.Error as e:
        print(f"corpus_dask: {e.message}", file=sys.stderr)
        return 2 if e.code == "usage" else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
