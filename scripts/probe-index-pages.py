#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Seed 000's method on index values past 65535 (docs/models/nvidia-h100.md).

usage: probe-index-pages.py GPUCACHE OUT_DIR [--device N] [IGEA_STORED.u32]

On the NVIDIA H100 the nv-gl model (Kerbl et al. 2018) predicts every suite case and every
corpus buffer exactly except those that use vertex indices of 65536 or more. This script draws
small index buffers that mix indices below and above 65536 ("pages" of 65536 values) and
writes, into OUT_DIR:
  micro.jsonl      one JSON object per buffer: its name, the indices and the measured
                   invocations with each vertex's count (`probe --json --per-vertex`)
  introspect.jsonl `introspect --json` after a few sequences: which indices are still cached
  prefixes.tsv     with IGEA_STORED.u32: invocations of its first T triangles, T around the
                   first triangle that uses an index of 65536 or more
Every program is run with an argument list (no shell); temporaries live in a mkdtemp folder;
each output file is written to a temporary in OUT_DIR and renamed onto its name when whole
(output_files.py).
"""
import json
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from output_files import replaced  # noqa: E402
from probe_buffers import Prober, run, take_device, write_u32  # noqa: E402

L = 0          # a page-0 base
H = 70000      # a page-1 base (65536 <= H < 131072)
H2 = 140000    # a page-2 base


def seq_cases():
    c = {}
    c["L cycle 12"] = [L + i % 12 for i in range(600)]
    c["page 1 cycle 12"] = [H + i % 12 for i in range(600)]
    c["page 15 cycle 12"] = [1000000 + i % 12 for i in range(600)]
    c["65524..65535 cycle 12"] = [65524 + i % 12 for i in range(600)]
    c["65530..65541 cycle 12"] = [65530 + i % 12 for i in range(600)]
    c["131066..131077 cycle 12"] = [131066 + i % 12 for i in range(600)]
    c["32762..32773 cycle 12"] = [32762 + i % 12 for i in range(600)]
    c["L tri, H tri x20"] = [L, L + 1, L + 2, H, H + 1, H + 2] * 20
    c["L tri, H2 tri x20"] = [L, L + 1, L + 2, H2, H2 + 1, H2 + 2] * 20
    c["H tri, H2 tri x20"] = [H, H + 1, H + 2, H2, H2 + 1, H2 + 2] * 20
    c["(L,H,L+1) x20"] = [L, H, L + 1] * 20
    c["(H,L,L+1) x20"] = [H, L, L + 1] * 20
    c["(L,L+1,H) x20"] = [L, L + 1, H] * 20
    c["(H,H+1,L) x20"] = [H, H + 1, L] * 20
    c["(L..L+2) x10 then (H..H+2) x10 then (L..L+2) x10"] = [L, L + 1, L + 2] * 10 + [H, H + 1, H + 2] * 10 + [L, L + 1, L + 2] * 10
    c["(L..L+2),(L+3..L+5),(L,L+1,H) x10"] = [L, L + 1, L + 2, L + 3, L + 4, L + 5, L, L + 1, H] * 10
    c["(L..L+2),(L+1,L+2,H),(L+3..L+5) x10"] = [L, L + 1, L + 2, L + 1, L + 2, H, L + 3, L + 4, L + 5] * 10
    c["(H..H+2),(H+1,H+2,L),(H+3..H+5) x10"] = [H, H + 1, H + 2, H + 1, H + 2, L, H + 3, H + 4, H + 5] * 10
    c["strip-like L then H"] = [x for i in range(30) for x in (L + i, L + i + 1, L + i + 2)] + \
        [x for i in range(30) for x in (H + i, H + i + 1, H + i + 2)]
    c["strip-like over 65536"] = [x for i in range(60) for x in (65506 + i, 65507 + i, 65508 + i)]
    c["zigzag over 65536"] = [x for i in range(60) for x in (65506 + i, 65507 + i, 65508 + i)][::-1]
    return c


INTROSPECT = {
    "L,L,H": [L, L + 1, L + 2, L + 3, L + 4, L + 5, H, H + 1, H + 2],
    "L,L,mixed(L,H,L)": [L, L + 1, L + 2, L + 3, L + 4, L + 5, L + 6, H, L + 7],
    "L,L,mixed(H,L,L)": [L, L + 1, L + 2, L + 3, L + 4, L + 5, H, L + 6, L + 7],
    "mixed(H,L,L),L,L": [H, L + 6, L + 7, L, L + 1, L + 2, L + 3, L + 4, L + 5],
    "L,H,L": [L, L + 1, L + 2, H, H + 1, H + 2, L + 3, L + 4, L + 5],
    "H,H,L": [H, H + 1, H + 2, H + 3, H + 4, H + 5, L, L + 1, L + 2],
}


def main(argv):
    args = list(argv[1:])
    dev = take_device(args)
    if len(args) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    gpucache, out_dir = args[0], args[1]
    igea = args[2] if len(args) > 2 else None
    os.makedirs(out_dir, exist_ok=True)
    prober = Prober(gpucache, dev)
    buf = prober.buf
    with replaced(os.path.join(out_dir, "micro.jsonl")) as out:
        for name, idx in seq_cases().items():
            j, per_vertex = prober.counts(idx)
            if j is None:
                print("probe %s: %s" % (name, per_vertex), file=sys.stderr)
                continue
            out.write(json.dumps({"name": name, "indices": idx, "invocations": j["invocations"],
                                  "statistics_agree": j["statistics_agree"], "per_vertex": per_vertex}) + "\n")
            print("%-50s %d" % (name, j["invocations"]), flush=True)
    with replaced(os.path.join(out_dir, "introspect.jsonl")) as out:
        for name, idx in INTROSPECT.items():
            write_u32(buf, idx)
            rc, o, e = run([gpucache, "introspect", "--json"] + dev + [buf])
            if rc != 0:
                print("introspect %s: %s" % (name, e.strip()), file=sys.stderr)
                continue
            j = json.loads(o)
            out.write(json.dumps({"name": name, "indices": idx, "introspect": j}) + "\n")
            print("introspect %-30s %s" % (name, json.dumps(j)[:300]), flush=True)
    if igea:
        with open(igea, "rb") as f:
            data = f.read()
        idx = struct.unpack("<%dI" % (len(data) // 4), data)
        first = next(i for i, x in enumerate(idx) if x >= 65536) // 3
        counts = sorted(set([first - 50, first - 1, first] + list(range(first + 1, first + 200)) +
                            list(range(first + 200, first + 2000, 25)) + list(range(first + 2000, len(idx) // 3, 20000)) +
                            [len(idx) // 3]))
        with replaced(os.path.join(out_dir, "prefixes.tsv")) as out:
            out.write("triangles\tinvocations\n")
            for t in counts:
                write_u32(buf, idx[:3 * t])
                rc, o, e = run([gpucache, "probe", "--json"] + dev + [buf])
                if rc in (0, 1):
                    out.write("%d\t%d\n" % (t, json.loads(o)["invocations"]))
        print("prefixes from triangle %d: %d probes" % (first, len(counts)), flush=True)
    prober.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
