#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Issue 28: the C API (gc_mesh_analyze, gc_mesh_optimize), the CLI's --json and the Python
package give the same numbers for the same file.

    pipeline_agree_test.py CLI HELPER PYTHON_LIBRARY WORK_DIR

Every glTF case tests/gltf/make_gltf.py generates, a glTF converted from a corpus OBJ, and the
corpus (../shared/corpus, skipped when absent) go through the three, under models of several
families; for every glTF the sums are also checked against an independent count: each
primitive read by tests/gltf/gltfio.py (not the library's reader) and analyzed as an index
array of its mode's topology (gc_analyze), the invocations added up. optimize: the files the
three write for one input are byte-identical. Exit 77 without numpy or cffi."""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CLI, HELPER, LIBRARY, WORK = sys.argv[1:5]
os.environ["GPUCACHE_LIBRARY"] = LIBRARY
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(HERE, "gltf"))
sys.dont_write_bytecode = True
try:
    import numpy as np
    import gpucache
except ImportError as e:
    print(f"pipeline_agree: skipped: {e}")
    sys.exit(77)
import gltfio  # noqa: E402

MODELS = ["fifo:3", "lru:16", "llvmpipe", "nvidia-dx", "intel", "batch", "meshopt:32,32,32", "direct-value:8"]
TOPOLOGY = {0: "point-list", 1: "line-list", 2: "line-loop", 3: "line-strip", 4: "triangle-list",
            5: "triangle-strip", 6: "triangle-fan"}
failures = []
checks = 0


def check(ok, what):
    global checks
    checks += 1
    if not ok:
        failures.append(what)
        print("FAIL:", what)


def run(*args):
    p = subprocess.run([str(a) for a in args], capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(f"{' '.join(map(str, args))}: exit {p.returncode}: {p.stderr}")
    return p.stdout


def independent_gltf_sums(path):
    """Each model's invocations summed over the primitives, each primitive's indices read by
    gltfio and analyzed as an array (gc_analyze on one draw)."""
    asset = gltfio.load(path)
    sums = [0] * len(MODELS)
    draws = 0
    for mesh in asset.doc.get("meshes", []):
        for prim in mesh["primitives"]:
            draws += 1
            idx = np.array(gltfio.primitive_indices(asset, prim), dtype=np.uint32)
            if not idx.size:
                continue
            rs = gpucache.analyze(idx, model=MODELS, topology=TOPOLOGY[prim.get("mode", 4)])
            for k, r in enumerate(rs):
                sums[k] += r.invocations
    return draws, sums


def agree(path):
    name = os.path.basename(path)
    c = json.loads(run(HELPER, "analyze", path, *MODELS))
    cli = json.loads(run(CLI, "analyze", "--json", *sum((["-m", m] for m in MODELS), []), path))
    py = gpucache.analyze(gpucache.load(path), model=MODELS)
    cli_draws = len(cli["draws"]) if "draws" in cli else 1
    py_draws = len(py[0].draws) if py[0].draws is not None else 1
    check(c["draws"] == cli_draws == py_draws, f"{name}: draws C {c['draws']} CLI {cli_draws} Python {py_draws}")
    for key in ("indices", "primitives", "vertices"):
        check(c[key] == cli[key] == getattr(py[0], key),
              f"{name}: {key} C {c[key]} CLI {cli[key]} Python {getattr(py[0], key)}")
    for k, m in enumerate(MODELS):
        ci, li, pi = c["models"][k]["invocations"], cli["models"][k]["invocations"], py[k].invocations
        check(ci == li == pi, f"{name} -m {m}: invocations C {ci} CLI {li} Python {pi}")
        check(abs(cli["models"][k]["acmr"] - py[k].acmr) < 1e-8, f"{name} -m {m}: ACMR CLI/Python")
    if name.lower().endswith((".gltf", ".glb")):
        draws, sums = independent_gltf_sums(path)
        check(draws == c["draws"], f"{name}: {draws} primitives in the file, {c['draws']} draws")
        for k, m in enumerate(MODELS):
            check(sums[k] == c["models"][k]["invocations"],
                  f"{name} -m {m}: primitives analyzed one by one {sums[k]}, gc_mesh_analyze "
                  f"{c['models'][k]['invocations']}")


def same_output(path, algorithm, model):
    """optimize through the CLI, the C API and Python: the same file."""
    name = os.path.basename(path)
    ext = os.path.splitext(name)[1]
    outs = [os.path.join(WORK, f"{side}-{name}{ext}") for side in ("cli", "c", "py")]
    args = ["optimize", "-a", algorithm] + (["-m", model] if algorithm == "auto" else []) + [path, "-o", outs[0]]
    run(CLI, *args)
    run(HELPER, "optimize", algorithm, model, path, outs[1])
    mesh = gpucache.load(path)
    out = gpucache.optimize(mesh, algorithm=algorithm, targets=[model] if algorithm == "auto" else None)
    gpucache.write(outs[2], out, source=path)
    data = [open(o, "rb").read() for o in outs]
    check(data[0] == data[1], f"{name}: optimize -a {algorithm}: the CLI's and the C API's files differ")
    check(data[0] == data[2], f"{name}: optimize -a {algorithm}: the CLI's and Python's files differ")


os.makedirs(WORK, exist_ok=True)
gltf_dir = os.path.join(WORK, "gltf")
run(sys.executable, os.path.join(HERE, "gltf", "make_gltf.py"), gltf_dir)
manifest = json.load(open(os.path.join(gltf_dir, "manifest.json")))
files = [os.path.join(gltf_dir, f) for f in manifest["roundtrip"]]
corpus = os.path.join(ROOT, "..", "shared", "corpus")
if os.path.isdir(corpus):
    for f in sorted(os.listdir(corpus)):
        if f.lower().endswith((".obj", ".ply", ".gltf", ".glb")):
            files.append(os.path.join(corpus, f))
    converted = os.path.join(WORK, "suzanne.glb")
    run(sys.executable, os.path.join(HERE, "gltf", "make_gltf.py"), "--from-obj", os.path.join(corpus, "suzanne.obj"),
        "--index", "u16", "-o", converted)
    files.append(converted)
else:
    print(f"pipeline_agree: no corpus at {corpus}: the generated glTF cases only")
for f in files:
    agree(f)
for f in files:
    if f.lower().endswith(".glb"):
        same_output(f, "auto", "llvmpipe")
    elif os.path.getsize(f) < 250000 and f.lower().endswith((".obj", ".ply")):
        same_output(f, "auto", "llvmpipe")
        same_output(f, "tipsify", "llvmpipe")
print(f"pipeline_agree: {checks} checks over {len(files)} files, {len(failures)} failed")
sys.exit(1 if failures else 0)
