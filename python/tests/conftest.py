# SPDX-License-Identifier: MIT
"""Shared fixtures: the CLI of the same build (GPUCACHE_CLI, set by CTest; else build/gpucache)
and the corpus (../shared/corpus from the repository root; tests that need it skip without it)."""
import json
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT.parent / "shared" / "corpus"


@pytest.fixture(scope="session")
def cli():
    path = os.environ.get("GPUCACHE_CLI") or str(ROOT / "build" / "gpucache")
    if not os.path.exists(path):
        pytest.skip(f"no gpucache CLI at {path} (set GPUCACHE_CLI)")

    def run(*args, ok=True, text=True):
        p = subprocess.run([path, *map(str, args)], capture_output=True, text=text)
        if ok and p.returncode != 0:
            raise AssertionError(f"gpucache {' '.join(map(str, args))}: exit {p.returncode}: {p.stderr}")
        return p

    run.json = lambda *args: json.loads(run(*args).stdout)
    return run


@pytest.fixture(scope="session")
def corpus():
    if not CORPUS.is_dir():
        pytest.skip(f"no corpus at {CORPUS}")
    meshes = sorted(p for p in CORPUS.iterdir() if p.suffix.lower() in (".obj", ".ply"))
    if not meshes:
        pytest.skip(f"no meshes in {CORPUS}")
    return meshes
