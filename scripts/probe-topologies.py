#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Seed 000's method on points, lines and strips (docs/models/nvidia-h100.md, "Not modelled").

usage: probe-topologies.py GPUCACHE OUT_DIR [--device N] [--windows]

Draws small index buffers in the point, line and strip topologies (and triangle strips, fans
and restarts across index 65536, for the page rule) and writes OUT_DIR/topologies.jsonl: one
JSON object per buffer with its name, topology, restart, indices, the measured invocations
and each vertex's count (`probe --json --per-vertex`). Every program is run with an argument
list (no shell); temporaries live in a mkdtemp folder; the output file is written to a
temporary in OUT_DIR and renamed onto its name when whole (output_files.py). --windows draws instead the buffers
that find a line's reuse window (windows.jsonl): a line (0 x), k repeats of the line (2 3),
then a line with 0 again, for k from 14 to 26, with 0 first or second in each line, in a line
list and in a line strip.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from output_files import replaced  # noqa: E402
from probe_buffers import Prober, take_device  # noqa: E402

RESTART = 0xFFFFFFFF


def cases():
    c = []
    for k in (1, 2, 4, 8, 16, 24, 31, 32, 33, 48, 63, 64, 65, 96, 97, 128):
        c.append(("points 0..%d x4" % (k - 1), "point-list", None, [i % k for i in range(4 * k)]))
    c.append(("point 0 x200", "point-list", None, [0] * 200))
    c.append(("points (i, 0) x100", "point-list", None, [x for i in range(1, 101) for x in (i, 0)]))
    c.append(("points 0..39 then 39..0", "point-list", None, list(range(40)) + list(range(39, -1, -1))))
    c.append(("line (0 1) x200", "line-list", None, [0, 1] * 200))
    for k in (8, 16, 17, 24, 32, 33, 48, 64):
        c.append(("lines (2i 2i+1) for i < %d, x4" % k, "line-list", None, [x for _ in range(4) for i in range(k)
                                                                          for x in (2 * i, 2 * i + 1)]))
    c.append(("lines (i i+1) for i < 200", "line-list", None, [x for i in range(200) for x in (i, i + 1)]))
    c.append(("lines (0 i) for 0 < i <= 100", "line-list", None, [x for i in range(1, 101) for x in (0, i)]))
    c.append(("lines (i i+1) mod 20, 200 lines", "line-list", None, [x for i in range(200) for x in (i % 20, (i + 1) % 20)]))
    for n in (33, 34, 65, 66, 97, 98, 200):
        c.append(("line strip 0..%d" % (n - 1), "line-strip", None, list(range(n))))
    c.append(("line strip (0 1) x100", "line-strip", None, [0, 1] * 100))
    c.append(("line strip 0..19 x10", "line-strip", None, [i % 20 for i in range(200)]))
    c.append(("line strip 0..19 restart x10", "line-strip", RESTART, [x for _ in range(10) for x in list(range(20)) + [RESTART]]))
    # the page rule beyond triangle lists
    c.append(("triangle strip 65500..65599", "triangle-strip", None, list(range(65500, 65600))))
    c.append(("triangle strip 0..99", "triangle-strip", None, list(range(100))))
    c.append(("triangle fan 0, 65500..65599", "triangle-fan", None, [0] + list(range(65500, 65600))))
    c.append(("triangle fan 70000, 70001..70100", "triangle-fan", None, [70000] + list(range(70001, 70101))))
    c.append(("triangle list with restart, 65530..65541 cycled", "triangle-list", RESTART,
              [x for t in range(200) for x in ([65530 + (3 * t + j) % 12 for j in range(3)] + ([RESTART] if t % 7 == 6 else []))]))
    c.append(("triangle strips with restart across 65536", "triangle-strip", RESTART,
              [x for s in range(20) for x in list(range(65520 + s, 65540 + s)) + [RESTART]]))
    return c


def window_cases():
    c = []
    for k in range(14, 27):
        for first in (0, 1):
            for last in (0, 1):
                a = [0, 1] if first == 0 else [1, 0]
                b = [0, 4] if last == 0 else [4, 0]
                c.append(("line list: 0 at corner %d, (2 3) x%d, 0 at corner %d" % (first, k, last), "line-list",
                          None, a + [2, 3] * k + b))
        c.append(("line strip: 0 1, (2 3) x%d, 0" % k, "line-strip", None, [0, 1] + [2, 3] * k + [0]))
        c.append(("line strip: 1 0, (2 3) x%d, 0" % k, "line-strip", None, [1, 0] + [2, 3] * k + [0]))
    return c


def main(argv):
    args = list(argv[1:])
    dev = take_device(args)
    windows = "--windows" in args
    if windows:
        args.remove("--windows")
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    gpucache, out_dir = args
    os.makedirs(out_dir, exist_ok=True)
    prober = Prober(gpucache, dev)
    with replaced(os.path.join(out_dir, "windows.jsonl" if windows else "topologies.jsonl")) as out:
        for name, topology, restart, idx in (window_cases() if windows else cases()):
            j, per_vertex = prober.counts(idx, topology, restart)
            if j is None:
                print("probe %s: %s" % (name, per_vertex), file=sys.stderr)
                continue
            out.write(json.dumps({"name": name, "topology": topology, "restart": restart, "indices": idx,
                                  "invocations": j["invocations"], "statistics_agree": j["statistics_agree"],
                                  "per_vertex": per_vertex}) + "\n")
            print("%-52s %d" % (name, j["invocations"]), flush=True)
    prober.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
