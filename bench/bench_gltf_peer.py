#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""gpucache against gltfpack (meshoptimizer's glTF pipeline) on the same glTF files.

    bench/bench_gltf_peer.py [--cli build/gpucache] [--gltfpack gltfpack] [--corpus ../shared/corpus]
                             [--meshes cow,spot,...] [--work DIR] [FILE.glb|FILE.gltf]...

Without FILEs it makes the inputs from corpus OBJ meshes (tests/gltf/make_gltf.py --from-obj:
POSITION, NORMAL, TEXCOORD_0, TANGENT, one vertex per distinct corner, triangles in file
order), each with u16 indices (where the vertices fit) and u32. Each input goes through
    gltfpack -noq -i IN -o OUT            (no quantization: the peer's lossless setting)
    gpucache optimize -a auto IN -o OUT   (and again with --reorder-vertices)
and the script prints two Markdown tables: the vertex shader invocations under every preset
(`gpucache analyze --json` of the input and of each output, summed over the draws), and what
each output kept of the file (index type, vertices, triangles, attributes, extensions, bytes
including external buffers, named objects among meshes/nodes/materials/images, nodes
with translation/rotation/scale, seconds of the tool's run). Then, with --large N (default 708:
about 1M triangles), the time and peak memory of optimizing one large GLB, next to the
optimizer alone on the same indices, a copy of the file, and gltfpack.. Standard library only.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "gltf"))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import gltfio  # noqa: E402
import make_gltf  # noqa: E402

PRESETS = ["intel", "nvidia-kepler", "nvidia-pascal", "nvidia-maxwell", "amd-gcn", "generic"]
SHORT = {5120: "i8", 5121: "u8", 5122: "i16", 5123: "u16", 5125: "u32", 5126: "f32"}


def file_bytes(path):
    """The file and every external buffer and image it references."""
    total = os.path.getsize(path)
    a = gltfio.load(path)
    folder = os.path.dirname(os.path.abspath(path))
    for obj in a.doc.get("buffers", []) + a.doc.get("images", []):
        uri = obj.get("uri", "")
        if uri and not uri.startswith("data:") and os.path.isfile(os.path.join(folder, uri)):
            total += os.path.getsize(os.path.join(folder, uri))
    return total


def kept(path):
    """What a glTF holds: index types, vertex and triangle counts, attributes, extensions, bytes."""
    a = gltfio.load(path)
    acc = a.doc.get("accessors", [])
    itypes, attrs = set(), set()
    verts = tris = 0
    seen = set()
    for mesh in a.doc.get("meshes", []):
        for prim in mesh["primitives"]:
            itypes.add(SHORT[acc[prim["indices"]]["componentType"]] if "indices" in prim else "none")
            for name, i in prim["attributes"].items():
                attrs.add("%s:%s%s" % (name, SHORT[acc[i]["componentType"]], "n" if acc[i].get("normalized") else ""))
            pos = prim["attributes"].get("POSITION")
            if pos is not None and pos not in seen:
                seen.add(pos)
                verts += acc[pos]["count"]
            n = acc[prim["indices"]]["count"] if "indices" in prim else acc[pos]["count"]
            tris += n // 3 if prim.get("mode", 4) == 4 else max(n - 2, 0)
    names = sum(1 for key in ("meshes", "nodes", "materials", "images") for o in a.doc.get(key, []) if "name" in o)
    trs = sum(1 for n in a.doc.get("nodes", []) if any(k in n for k in ("translation", "rotation", "scale")))
    return {"names": names, "trs": trs, "index": "/".join(sorted(itypes)), "vertices": verts, "triangles": tris,
            "attributes": " ".join(sorted(attrs)), "extensions": " ".join(a.doc.get("extensionsUsed", [])) or "-",
            "bytes": file_bytes(path)}


def invocations(cli, path):
    r = subprocess.run([cli, "analyze", "--json", path], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if r.returncode != 0:
        return None, r.stderr.decode(errors="replace").strip()
    j = json.loads(r.stdout.decode())
    return {m["model"]: m["invocations"] for m in j["models"]}, None


def measured(cmd):
    """Runs CMD under GNU time; returns (exit status, seconds, peak resident MiB of CMD's own
    process). Not os.wait4 from here: a child forked from this Python process would carry
    this process's resident size as its starting peak."""
    t = time.perf_counter()
    r = subprocess.run(["/usr/bin/time", "-f", "bench-rss-kib %M"] + cmd, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE)
    secs = time.perf_counter() - t
    lines = [x for x in r.stderr.decode(errors="replace").splitlines() if x.startswith("bench-rss-kib ")]
    rss = int(lines[-1].split()[1]) / 1024.0 if lines else float("nan")
    return r.returncode, secs, rss


def large(args):
    """The issue's memory and speed item: a shuffled grid of about 1M triangles as a GLB
    (POSITION, NORMAL, TEXCOORD_0, u32 indices), optimized by gpucache, against the optimizer
    alone on the same indices as a raw .u32 file, a plain copy of the file (the disk), and
    gltfpack. Median of --repeat runs each; peak resident memory of the process."""
    d = os.path.join(args.work, "large")
    os.makedirs(d, exist_ok=True)
    glb = os.path.join(d, "grid.glb")
    nv, nt = make_gltf.large_grid(glb, args.large, args.large)
    raw = os.path.join(d, "grid.u32")
    rows = [("cp (the disk: read and write the file)", ["cp", glb, os.path.join(d, "copy.glb")], glb),
            ("gpucache optimize -a auto grid.u32 (the optimizer alone)",
             [args.cli, "optimize", "-a", "auto", raw, "-o", os.path.join(d, "out.u32")], raw),
            ("gpucache optimize -a auto grid.glb",
             [args.cli, "optimize", "-a", "auto", glb, "-o", os.path.join(d, "out.glb")], glb),
            ("gpucache optimize -a auto --reorder-vertices grid.u32 (the optimizer alone)",
             [args.cli, "optimize", "-a", "auto", "--reorder-vertices", raw, "-o", os.path.join(d, "outv.u32")], raw),
            ("gpucache optimize -a auto --reorder-vertices grid.glb",
             [args.cli, "optimize", "-a", "auto", "--reorder-vertices", glb, "-o", os.path.join(d, "outv.glb")], glb),
            ("gltfpack -noq grid.glb", [args.gltfpack, "-noq", "-i", glb, "-o", os.path.join(d, "gltfpack.glb")], glb)]
    print("\n### A %d-triangle GLB (%d vertices, %d bytes; its indices as .u32: %d bytes), median of %d runs\n"
          % (nt, nv, os.path.getsize(glb), os.path.getsize(raw), args.repeat))
    print("| command | seconds | peak resident MiB | input MiB |")
    print("|---|---:|---:|---:|")
    for what, cmd, inp in rows:
        runs = [measured(cmd) for _ in range(args.repeat)]
        if any(r[0] != 0 for r in runs):
            print("| %s | failed (exit %d) | | |" % (what, next(r[0] for r in runs if r[0] != 0)))
            continue
        secs = sorted(r[1] for r in runs)[len(runs) // 2]
        rss = sorted(r[2] for r in runs)[len(runs) // 2]
        print("| %s | %.3f | %.1f | %.1f |" % (what, secs, rss, os.path.getsize(inp) / 1048576.0))


def timed(cmd):
    t = time.perf_counter()
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return r, time.perf_counter() - t


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="*")
    ap.add_argument("--cli", default=os.path.join(ROOT, "build", "gpucache"))
    ap.add_argument("--gltfpack", default="gltfpack")
    ap.add_argument("--corpus", default=os.path.join(ROOT, "..", "shared", "corpus"))
    ap.add_argument("--meshes", default="cow,fandisk,stanford-bunny,ogre")
    ap.add_argument("--work", default=os.path.join(ROOT, "out", "bench-gltf-peer"))
    ap.add_argument("--large", type=int, default=708, metavar="N",
                    help="also an N x N quad grid GLB for time and memory (default 708: 1,002,528 triangles; 0: none)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per command of the large grid (median)")
    args = ap.parse_args()
    if not shutil.which(args.gltfpack):
        sys.exit("bench_gltf_peer: %s not found (Debian package gltfpack; scripts/install-deps.sh installs it)" % args.gltfpack)
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    inputs = list(args.files)
    if not inputs:
        for name in args.meshes.split(","):
            obj = os.path.join(args.corpus, name + ".obj")
            if not os.path.isfile(obj):
                print("bench_gltf_peer: %s missing, skipped" % obj, file=sys.stderr)
                continue
            for itype in ("u16", "u32"):
                out = os.path.join(args.work, "%s-%s.glb" % (name, itype))
                try:
                    make_gltf.obj_to_gltf(obj, itype, out)
                except SystemExit as e:  # too many vertices for u16
                    print("bench_gltf_peer: %s" % e, file=sys.stderr)
                    continue
                inputs.append(out)
    runs = []  # (input, tool, output or None, seconds, error)
    for inp in inputs:
        stem, ext = os.path.splitext(os.path.basename(inp))
        runs.append((inp, "input", inp, None, None))
        tools = [("gltfpack -noq", [args.gltfpack, "-noq", "-i", inp, "-o"]),
                 ("gpucache auto", [args.cli, "optimize", "-a", "auto", inp, "-o"]),
                 ("gpucache auto --reorder-vertices", [args.cli, "optimize", "-a", "auto", "--reorder-vertices", inp, "-o"])]
        for k, (tool, cmd) in enumerate(tools):
            d = os.path.join(args.work, "out%d" % k)
            os.makedirs(d, exist_ok=True)
            out = os.path.join(d, stem + ext)
            r, secs = timed(cmd + [out])
            err = None if r.returncode == 0 and os.path.isfile(out) else \
                "exit %d: %s" % (r.returncode, r.stderr.decode(errors="replace").strip().splitlines()[-1:] or "")
            runs.append((inp, tool, out if err is None else None, secs, err))
    print("### Vertex shader invocations (gpucache analyze of each file, all draws)\n")
    print("| file | tool | " + " | ".join(PRESETS) + " |")
    print("|---|---|" + "---:|" * len(PRESETS))
    for inp, tool, out, secs, err in runs:
        name = os.path.basename(inp)
        if out is None:
            print("| %s | %s | %s |" % (name, tool, "failed: " + str(err).replace("|", "/")))
            continue
        inv, aerr = invocations(args.cli, out)
        if inv is None:
            print("| %s | %s | analyze failed: %s |" % (name, tool, aerr.replace("|", "/")))
            continue
        print("| %s | %s | %s |" % (name, tool, " | ".join(str(inv.get(p, "-")) for p in PRESETS)))
    print("\n### What each output kept\n")
    print("| file | tool | index | vertices | triangles | attributes | extensions | names | TRS nodes | bytes | seconds |")
    print("|---|---|---|---:|---:|---|---|---:|---:|---:|---:|")
    for inp, tool, out, secs, err in runs:
        name = os.path.basename(inp)
        if out is None:
            print("| %s | %s | failed | | | | | | | | %.3f |" % (name, tool, secs))
            continue
        k = kept(out)
        print("| %s | %s | %s | %d | %d | %s | %s | %d | %d | %d | %s |" % (
            name, tool, k["index"], k["vertices"], k["triangles"], k["attributes"], k["extensions"], k["names"],
            k["trs"], k["bytes"],
            "-" if secs is None else "%.3f" % secs))
    if args.large > 0:
        if os.access("/usr/bin/time", os.X_OK):
            large(args)
        else:
            print("\n(the large grid needs GNU time, /usr/bin/time: Debian package time)")


if __name__ == "__main__":
    main()
