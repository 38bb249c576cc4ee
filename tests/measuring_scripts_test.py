#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The measuring scripts' output files (scripts/output_files.py; measure-device.py,
probe-topologies.py), without a GPU: a stand-in `gpucache` (written here) answers the probe's
calls, so that only the scripts' own handling is checked.

 - replaced(): the file appears whole under its name with open()'s mode (0666 less the
   umask), no temporary is left; an exception inside the block leaves the old file as it
   was and no temporary.
 - probe-topologies.py: topologies.jsonl, one line per buffer, each line's invocations the
   stand-in's (the buffer's distinct indices, counted here from the line's indices), and
   nothing else in the folder.
 - measure-device.py: an orders.tsv naming '../x.u32' is refused before anything is
   measured or written (exit 1, nothing in the output folder); a good one gives devices.json as the
   stand-in listed it and invocations.tsv with a row per buffer and output count.
usage: measuring_scripts_test.py SOURCE_DIR WORK_DIR"""
import json
import os
import shutil
import stat
import subprocess
import sys

FAKE = r'''#!/usr/bin/env python3
import json, struct, sys
a = sys.argv[1:]
assert a[0] == "probe", a
if "--list" in a:
    print(json.dumps({"devices": [{"index": 0, "name": "llvmpipe"}, {"index": 1, "name": "Fake NVIDIA"}]}))
    sys.exit(0)
if "--suite" in a:
    open(a[a.index("-o") + 1], "w").write("{}\n")
    sys.exit(0)
data = open(a[-1], "rb").read()
idx = struct.unpack("<%dI" % (len(data) // 4), data)
distinct = sorted(set(i for i in idx if i != 0xFFFFFFFF))
if "--per-vertex" in a:
    with open(a[a.index("--per-vertex") + 1], "w") as f:
        f.write("index,count\n")
        for i in distinct:
            f.write("%d,1\n" % i)
print(json.dumps({"invocations": len(distinct), "statistics_agree": True, "ia_primitives": len(idx) // 3}))
'''

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL: " + what, file=sys.stderr)


def main(argv):
    src, work = argv[1], argv[2]
    scripts = os.path.join(src, "scripts")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    sys.dont_write_bytecode = True
    sys.path.insert(0, scripts)
    from output_files import replaced

    # replaced()
    target = os.path.join(work, "out.txt")
    old_mask = os.umask(0o022)
    try:
        with replaced(target) as f:
            f.write("whole\n")
    finally:
        os.umask(old_mask)
    check(open(target).read() == "whole\n", "replaced: the content")
    check(stat.S_IMODE(os.stat(target).st_mode) == 0o644, "replaced: mode 0644 under umask 022")
    check(os.listdir(work) == ["out.txt"], "replaced: a temporary left: %s" % os.listdir(work))
    try:
        with replaced(target) as f:
            f.write("partial")
            raise RuntimeError("stop")
    except RuntimeError:
        pass
    check(open(target).read() == "whole\n", "replaced: an exception changed the old file")
    check(os.listdir(work) == ["out.txt"], "replaced: a temporary left after an exception: %s" % os.listdir(work))
    with replaced(os.path.join(work, "bytes.bin"), "wb") as f:
        f.write(b"\x01\x02")
    check(open(os.path.join(work, "bytes.bin"), "rb").read() == b"\x01\x02", "replaced: binary content")

    fake = os.path.join(work, "gpucache")
    with open(fake, "w") as f:
        f.write("#!%s\n" % sys.executable + FAKE.split("\n", 1)[1])
    os.chmod(fake, 0o755)

    # probe-topologies.py
    out = os.path.join(work, "topologies")
    p = subprocess.run([sys.executable, os.path.join(scripts, "probe-topologies.py"), fake, out],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    check(p.returncode == 0, "probe-topologies: rc %d %s" % (p.returncode, p.stderr.decode()[-500:]))
    check(os.listdir(out) == ["topologies.jsonl"], "probe-topologies: the folder holds %s" % os.listdir(out))
    lines = [json.loads(x) for x in open(os.path.join(out, "topologies.jsonl"))]
    check(len(lines) > 0, "probe-topologies: no rows")
    for row in lines:
        want = len(set(i for i in row["indices"] if i != 0xFFFFFFFF))
        check(row["invocations"] == want, "probe-topologies: %s: %d, not %d" % (row["name"], row["invocations"], want))

    # measure-device.py
    orders = os.path.join(work, "orders")
    os.makedirs(orders)
    with open(os.path.join(orders, "a.u32"), "wb") as f:
        f.write(bytes([0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 3, 0, 0, 0]))
    header = "file\tmesh\torder\ttriangles\tvertices\n"
    with open(os.path.join(orders, "orders.tsv"), "w") as f:
        f.write(header + "a.u32\tm\tauto\t2\t4\n../x.u32\tm\tauto\t2\t4\n")
    out = os.path.join(work, "measured-bad")
    p = subprocess.run([sys.executable, os.path.join(scripts, "measure-device.py"), fake, orders, out, "--reps", "1"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    check(p.returncode == 1, "measure-device: a refused name gave rc %d" % p.returncode)
    check(b"refused file name '../x.u32'" in p.stderr, "measure-device: no line naming the refused file")
    check(not os.path.exists(out) or os.listdir(out) == [],
          "measure-device, refused: the folder holds %s" % (os.listdir(out) if os.path.exists(out) else []))
    with open(os.path.join(orders, "orders.tsv"), "w") as f:
        f.write(header + "a.u32\tm\tauto\t2\t4\na.u32\tm\tmeshopt\t2\t4\n")
    out = os.path.join(work, "measured")
    p = subprocess.run([sys.executable, os.path.join(scripts, "measure-device.py"), fake, orders, out, "--reps", "1"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    check(p.returncode == 0, "measure-device: rc %d %s" % (p.returncode, p.stderr.decode()[-500:]))
    check(sorted(os.listdir(out)) == ["devices.json", "invocations.tsv", "overdraw.jsonl", "suite.json"],
          "measure-device: the folder holds %s" % sorted(os.listdir(out)))
    check(b"device 1: Fake NVIDIA" in p.stdout, "measure-device: not the device whose name holds NVIDIA")
    check(json.load(open(os.path.join(out, "devices.json")))["devices"][1]["name"] == "Fake NVIDIA",
          "measure-device: devices.json")
    rows = open(os.path.join(out, "invocations.tsv")).read().splitlines()
    # the auto order at 1 output; meshoptimizer's at 1, 8, 16 and 32; the buffer has 4 distinct indices
    check(len(rows) == 1 + 1 + 4, "measure-device: %d rows" % len(rows))
    check(all(r.split("\t")[7] == "4" for r in rows[1:]), "measure-device: invocations")
    if failures:
        return 1
    print("measuring scripts: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
