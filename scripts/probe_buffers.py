# SPDX-License-Identifier: MIT
"""What probe-index-pages.py and probe-topologies.py share: drawing one index buffer on the
device through `gpucache probe` (an argument list, no shell) and reading each vertex's count."""
import json
import os
import struct
import subprocess
import tempfile


def run(args):
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def take_device(args):
    """Removes "--device N" from the argument list: the probe's arguments for it (device 0
    when not given)."""
    dev = ["--device", "0"]
    if "--device" in args:
        i = args.index("--device")
        dev = ["--device", args[i + 1]]
        del args[i:i + 2]
    return dev


def write_u32(path, idx):
    with open(path, "wb") as f:
        f.write(struct.pack("<%dI" % len(idx), *idx))


class Prober:
    """Temporaries in a private mkdtemp folder, removed by close()."""

    def __init__(self, gpucache, dev):
        self.gpucache, self.dev = gpucache, dev
        self.tmp = tempfile.mkdtemp(prefix="gpucache-probe-")
        self.buf = os.path.join(self.tmp, "buf.u32")
        self.pv = os.path.join(self.tmp, "pv.csv")

    def counts(self, idx, topology=None, restart=None):
        """(the probe's JSON, [[index, count], ...] of the vertices run), or None on failure."""
        write_u32(self.buf, idx)
        args = [self.gpucache, "probe", "--json", "--per-vertex", self.pv] + self.dev
        if topology:
            args += ["-t", topology]
        if restart is not None:
            args += ["--restart=0x%X" % restart]
        rc, o, e = run(args + [self.buf])
        if rc not in (0, 1) or not o.strip():
            return None, e.strip()
        with open(self.pv) as f:
            rows = [line.strip().split(",") for line in f if line.strip()]
        per_vertex = [[int(r[0]), int(r[1])] for r in rows if r[0].isdigit() and int(r[1]) > 0]
        return json.loads(o), per_vertex

    def close(self):
        for p in (self.buf, self.pv):
            if os.path.exists(p):
                os.unlink(p)
        os.rmdir(self.tmp)
