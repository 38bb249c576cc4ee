"""gpucache in one page, from Python: load a mesh, count its vertex shader invocations under a
GPU preset, reorder its triangles for that GPU, and count again (examples/hello/hello.c in C).
    python3 hello.py mesh.obj"""
import sys

import gpucache

mesh = gpucache.load(sys.argv[1])                 # .obj, .ply, .gltf/.glb, index files
before = gpucache.analyze(mesh, "generic")        # a preset: a 16-entry FIFO (gpucache.models())
order = gpucache.optimize(mesh, algorithm="tipsify")
after = gpucache.analyze(order, "generic")
print(f"{sys.argv[1]} under generic: {before.invocations} invocations (ATVR {before.atvr:.3f}), "
      f"after tipsify {after.invocations} (ATVR {after.atvr:.3f})")
