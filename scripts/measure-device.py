#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Measures one Vulkan device with `gpucache probe` (docs/measuring.md, "A measured GPU").

usage: measure-device.py GPUCACHE ORDERS_DIR OUT_DIR [--device-match TEXT] [--reps N] [MESH...]

  GPUCACHE    the gpucache program (built with the Vulkan probe)
  ORDERS_DIR  the index buffers and orders.tsv written by bench/device_orders
  OUT_DIR     where the measurement files go (created)
  MESH        meshes with positions for `probe --overdraw` (optional)

Writes into OUT_DIR:
  devices.json     `probe --list --json`
  suite.json       `probe --suite` (the file `gpucache fit` reads)
  invocations.tsv  one row per index buffer, output count and repetition: the vertex shader
                   invocations (pipeline statistics), whether they agreed with the per-vertex
                   atomic counters, and the input-assembly primitives
  overdraw.jsonl   `probe --overdraw --json` per MESH, one JSON object a line

Every program is run with an argument list (no shell); file names come from orders.tsv rows
that must name plain files inside ORDERS_DIR (checked before anything is measured). Each
output file is written to a temporary in OUT_DIR and renamed onto its name when whole
(output_files.py). The device used is the first whose name contains --device-match (default
"NVIDIA"), else device 0.
"""
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from output_files import replaced  # noqa: E402


def run(args, timeout=600):
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def main(argv):
    args = list(argv[1:])
    match, reps = "NVIDIA", 2
    if "--device-match" in args:
        i = args.index("--device-match")
        match = args[i + 1]
        del args[i:i + 2]
    if "--reps" in args:
        i = args.index("--reps")
        reps = int(args[i + 1])
        del args[i:i + 2]
    if len(args) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    gpucache, orders_dir, out_dir, meshes = args[0], args[1], args[2], args[3:]
    rows = []
    with open(os.path.join(orders_dir, "orders.tsv")) as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            rows.append(dict(zip(header, line.rstrip("\n").split("\t"))))
    for row in rows:
        name = row["file"]
        if "/" in name or name.startswith(".") or not name.endswith(".u32"):
            print("measure-device: orders.tsv: refused file name %r" % name, file=sys.stderr)
            return 1
    os.makedirs(out_dir, exist_ok=True)

    rc, out, err = run([gpucache, "probe", "--list", "--json"])
    if rc != 0:
        print("measure-device: probe --list failed: " + err.strip(), file=sys.stderr)
        return 1
    with replaced(os.path.join(out_dir, "devices.json")) as f:
        f.write(out)
    devices = json.loads(out)["devices"]
    device = next((d["index"] for d in devices if match in d["name"]), 0)
    name = next((d["name"] for d in devices if d["index"] == device), "?")
    print("measure-device: device %d: %s" % (device, name), flush=True)
    dev = ["--device", str(device)]

    t0 = time.time()
    rc, out, err = run([gpucache, "probe", "--suite", "-o", os.path.join(out_dir, "suite.json")] + dev)
    print("measure-device: suite rc %d in %.1f s %s" % (rc, time.time() - t0, err.strip()[-300:]), flush=True)

    t0 = time.time()
    with replaced(os.path.join(out_dir, "invocations.tsv")) as tsv:
        tsv.write("file\tmesh\torder\ttriangles\tvertices\toutputs\trep\tinvocations\tstatistics_agree\tia_primitives\n")
        for rep in range(reps):
            for row in rows:
                name = row["file"]
                # every output count on the first repetition of the large meshes' two
                # reference orders only: NVIDIA sizes nothing by outputs in seed 000
                counts = [1]
                if rep == 0 and row["order"] in ("meshopt", "stored"):
                    counts = [1, 8, 16, 32]
                for outputs in counts:
                    rc, out, err = run([gpucache, "probe", "--json", "--outputs", str(outputs)] + dev +
                                       [os.path.join(orders_dir, name)])
                    if rc not in (0, 1) or not out.strip():
                        print("measure-device: %s: rc %d %s" % (name, rc, err.strip()), file=sys.stderr)
                        continue
                    j = json.loads(out)
                    tsv.write("%s\t%s\t%s\t%s\t%s\t%d\t%d\t%d\t%s\t%d\n" % (
                        name, row["mesh"], row["order"], row["triangles"], row["vertices"], outputs, rep,
                        j["invocations"], "yes" if j["statistics_agree"] else "no", j["ia_primitives"]))
                tsv.flush()
    print("measure-device: %d buffers x %d reps in %.1f s" % (len(rows), reps, time.time() - t0), flush=True)

    with replaced(os.path.join(out_dir, "overdraw.jsonl")) as f:
        for mesh in meshes:
            rc, out, err = run([gpucache, "probe", "--overdraw", "--json"] + dev + [mesh])
            if rc != 0 or not out.strip():
                print("measure-device: overdraw %s: rc %d %s" % (mesh, rc, err.strip()), file=sys.stderr)
                continue
            f.write(json.dumps(json.loads(out)) + "\n")
    print("measure-device: done", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
