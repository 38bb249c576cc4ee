#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Speed through Python against the C call, on the 1000x1000 quad grid (6M indices).

For each operation: the fastest of N runs (CPU seconds of the calling thread) of
gpucache.analyze / gpucache.optimize (argument checks, structs, result objects) and of the bare
C function called through cffi with everything prepared beforehand, taken in turn, and for
analyze also `gpucache analyze --repeat N` (the CLI's median of gc_analyze in wall-clock
seconds, no Python in the process). The issue asks the Python call to be within 10% of the C
call.

usage: GPUCACHE_LIBRARY=build/python/libgpucache_python.so PYTHONPATH=python \\
       /usr/bin/python3 bench/python_bench.py [--cli build/gpucache] [--repeat N]
"""
import argparse
import json
import subprocess
import time

import numpy as np

import gpucache
from gpucache._native import ffi, lib


# The calling thread's CPU time (the calls timed here run on it alone): what other processes
# take of a shared machine's CPUs does not count, as it would in wall-clock time.
CLOCK = time.thread_time


def paired_seconds(python_fn, c_fn, repeat):
    """The fastest of `repeat` runs of each, the two taken in turn (which goes first alternates),
    so that load from other processes falls on both alike; the fastest run is the one least
    disturbed."""
    py, c = [], []
    for i in range(repeat):
        pair = ((python_fn, py), (c_fn, c))
        for fn, samples in (pair if i % 2 == 0 else pair[::-1]):
            t0 = CLOCK()
            fn()
            samples.append(CLOCK() - t0)
    return min(py), min(c)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--cli", default="build/gpucache")
    p.add_argument("--repeat", type=int, default=9)
    args = p.parse_args()
    idx = gpucache.grid(1000, 1000, "rowmajor")
    print(f"1000x1000 grid, row-major: {idx.size} indices; fastest of {args.repeat} runs (optimize: "
          f"{max(3, args.repeat // 3)}), Python and C in turn; CLI: its --repeat median")
    print(f"{'operation':<28} {'python s':>10} {'C call s':>10} {'CLI s':>10} {'python/C':>9}")
    ratios = []
    for model in ("intel", "nvidia-kepler", "amd-gcn", "llvmpipe"):
        m = ffi.new("gc_model*")
        err = ffi.new("gc_error*")
        assert lib.gc_model_parse(model.encode(), m, err) == 0
        draw = ffi.new("gc_draw*", {"indices": ffi.from_buffer("uint32_t[]", idx), "index_count": idx.size,
                                    "topology": lib.GC_TRIANGLE_LIST})
        options = ffi.new("gc_analyze_options*")
        stats = ffi.new("gc_stats*")
        py, c = paired_seconds(lambda: gpucache.analyze(idx, model),
                               lambda: lib.gc_analyze(m, draw, options, stats, err), args.repeat)
        assert gpucache.analyze(idx, model).invocations == stats.invocations
        cli = json.loads(subprocess.run([args.cli, "analyze", "--json", "--repeat", str(args.repeat), "-m", model,
                                         "grid:1000x1000"], capture_output=True, text=True, check=True).stdout)
        print(f"{'analyze ' + model:<28} {py:>10.5f} {c:>10.5f} {cli['models'][0]['seconds']:>10.5f} {py / c:>9.3f}")
        ratios.append(py / c)
    for algorithm in ("tipsify", "forsyth"):
        alg = ffi.new("gc_optimizer*")
        assert lib.gc_optimizer_parse(algorithm.encode(), alg, err) == 0
        options = ffi.new("gc_optimize_options*")
        vertex_count = 1001 * 1001
        src = ffi.from_buffer("uint32_t[]", idx)

        def c_call():
            # a new output buffer each time (malloc, as gpucache.optimize's np.empty): reusing a
            # warm one would time the page faults of 24 MB on one side only
            out = np.empty_like(idx)
            lib.gc_optimize(alg[0], src, idx.size, vertex_count, options, ffi.from_buffer("uint32_t[]", out), err)

        py, c = paired_seconds(lambda: gpucache.optimize(idx, algorithm=algorithm), c_call, max(3, args.repeat // 3))
        print(f"{'optimize ' + algorithm:<28} {py:>10.5f} {c:>10.5f} {'-':>10} {py / c:>9.3f}")
        ratios.append(py / c)
    # What the wrapper adds to a call, on a draw of one triangle (where the C work is nothing):
    # stable under load, unlike the ratios above when other processes share the CPUs.
    one = np.array([0, 1, 2], dtype=np.uint32)
    m = ffi.new("gc_model*")
    lib.gc_model_parse(b"intel", m, err)
    draw = ffi.new("gc_draw*", {"indices": ffi.from_buffer("uint32_t[]", one), "index_count": 3,
                                "topology": lib.GC_TRIANGLE_LIST})
    options, stats = ffi.new("gc_analyze_options*"), ffi.new("gc_stats*")
    py, c = paired_seconds(lambda: gpucache.analyze(one, "intel"), lambda: lib.gc_analyze(m, draw, options, stats, err),
                           2000)
    print(f"per call, one triangle: analyze {py * 1e6:.1f} us through Python, {c * 1e6:.1f} us the C call: "
          f"{(py - c) * 1e6:.1f} us added")
    worst = max(ratios)
    print(f"slowest python/C: {worst:.3f} ({'within' if worst <= 1.10 else 'NOT within'} 10% of the C call)")


if __name__ == "__main__":
    main()
