#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Generates the glTF files of gpucache's glTF tests, or converts an OBJ to glTF for the bench.

    make_gltf.py OUT_DIR                 every test scene, in three containers each
    make_gltf.py --from-obj MESH.obj --index u16|u32 -o OUT.glb|.gltf

Test scenes (each as NAME.glb, NAME.gltf with NAME.bin beside it, NAME-data.gltf with data:
URIs), small grids whose triangles and vertices are shuffled with a fixed seed so that
`optimize` has work to do:
  lists          u8, u16 and u32 triangle lists, several meshes and nodes (TRS), names,
                 extras, KHR_materials_emissive_strength, a texture (external PNG beside the
                 .gltf), index accessors at a byteOffset inside a shared bufferView, one
                 accessor as both TEXCOORD_0 and TEXCOORD_1, COLOR_0 (u8), _TEMPERATURE
  modes          triangle strip, fan and list in one mesh; points, lines, line loop, line strip
                 and a non-indexed triangle list in another; one index accessor drawn as a
                 triangle list, a triangle strip and points
  shared         an interleaved vertex buffer (byteStride 32), two primitives sharing their
                 attribute accessors, a mesh reusing another's accessors, and an index
                 accessor shared by primitives with different vertex accessors
  morph_skin     TANGENT; three morph targets (POSITION/NORMAL deltas, one sparse; weights), a
                 skin (JOINTS_0, WEIGHTS_0, inverse bind matrices, joint nodes with TRS), an
                 animation of a joint's rotation and of the morph weights
  quantized      KHR_mesh_quantization: int16 positions, int8 normals, uint16 UVs, padded strides
two_buffers.gltf and two_buffers-data.gltf: morph_skin with its index data in a second buffer
(the external one's URI percent-encoded, 'two_buffers%20indices.bin'); and two files that must
be refused: draco.gltf (KHR_draco_mesh_compression) and meshopt.glb
(EXT_meshopt_compression). A manifest.json lists them.
Standard library only; the output is the same on every run.
"""
import argparse
import base64
import json
import math
import os
import random
import struct
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import gltfio  # noqa: E402

ARRAY_BUFFER = 34962
ELEMENT_ARRAY_BUFFER = 34963
FLOAT, BYTE, UBYTE, SHORT, USHORT, UINT = 5126, 5120, 5121, 5122, 5123, 5125
INDEX_TYPES = {"u8": UBYTE, "u16": USHORT, "u32": UINT}


def f32(x):
    """X rounded to float32, so that min/max equal the stored values exactly."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


class Builder:
    """Accumulates one binary buffer and the JSON objects that describe it."""

    def __init__(self, generator="gpucache tests/gltf/make_gltf.py"):
        self.bin = bytearray()
        self.doc = {"asset": {"version": "2.0", "generator": generator}, "buffers": [{}],
                    "bufferViews": [], "accessors": []}

    def view(self, data, target=None, stride=None, name=None):
        """Appends DATA (4-byte aligned) as a new bufferView; returns its index."""
        while len(self.bin) % 4:
            self.bin.append(0)
        v = {"buffer": 0, "byteOffset": len(self.bin), "byteLength": len(data)}
        if stride:
            v["byteStride"] = stride
        if target:
            v["target"] = target
        if name:
            v["name"] = name
        self.bin += data
        self.doc["bufferViews"].append(v)
        return len(self.doc["bufferViews"]) - 1

    def accessor(self, view, ctype, atype, count, offset=0, minmax=None, normalized=False, name=None):
        a = {"bufferView": view, "componentType": ctype, "type": atype, "count": count}
        if offset:
            a["byteOffset"] = offset
        if normalized:
            a["normalized"] = True
        if minmax:
            a["min"], a["max"] = minmax
        if name:
            a["name"] = name
        self.doc["accessors"].append(a)
        return len(self.doc["accessors"]) - 1

    def floats(self, rows, atype, target=ARRAY_BUFFER, minmax=False, name=None):
        """A tightly packed float accessor in its own bufferView."""
        rows = [tuple(f32(x) for x in r) for r in rows]
        data = b"".join(struct.pack("<%df" % len(r), *r) for r in rows)
        mm = None
        if minmax:
            n = len(rows[0])
            mm = ([min(r[k] for r in rows) for k in range(n)], [max(r[k] for r in rows) for k in range(n)])
        return self.accessor(self.view(data, target), FLOAT, atype, len(rows), minmax=mm, name=name)

    def indices(self, idx, itype, name=None):
        """An index accessor of type ITYPE ('u8', 'u16', 'u32') in its own bufferView."""
        ctype = INDEX_TYPES[itype]
        code = gltfio.COMPONENTS[ctype][0]
        return self.accessor(self.view(struct.pack("<%d%s" % (len(idx), code), *idx), ELEMENT_ARRAY_BUFFER),
                             ctype, "SCALAR", len(idx), name=name)

    def add(self, key, obj):
        self.doc.setdefault(key, []).append(obj)
        return len(self.doc[key]) - 1


def grid(w, h, scale=1.0, z=0.0):
    """A W x H quad grid in the xy plane: positions, normals, uvs, counter-clockwise triangles."""
    pos, nrm, uv = [], [], []
    for y in range(h + 1):
        for x in range(w + 1):
            pos.append((x * scale / w, y * scale / h, z))
            nrm.append((0.0, 0.0, 1.0))
            uv.append((x / w, 1.0 - y / h))
    tris = []
    for y in range(h):
        for x in range(w):
            a = y * (w + 1) + x
            b, c, d = a + 1, a + w + 1, a + w + 2
            tris += [(a, b, d), (a, d, c)]
    return pos, nrm, uv, tris


def shuffle_mesh(rng, nverts, tris):
    """A random vertex numbering and triangle order, each triangle rotated at random
    (winding kept). Returns (old-to-new vertex map, new triangles)."""
    perm = list(range(nverts))
    rng.shuffle(perm)
    out = [tuple(perm[v] for v in t) for t in tris]
    rng.shuffle(out)
    out = [t[r:] + t[:r] for t, r in ((t, rng.randrange(3)) for t in out)]
    return perm, out


def permute_rows(rows, perm):
    out = [None] * len(rows)
    for old, new in enumerate(perm):
        out[new] = rows[old]
    return out


def shuffled_grid(rng, w, h, scale=1.0):
    pos, nrm, uv, tris = grid(w, h, scale)
    perm, tris = shuffle_mesh(rng, len(pos), tris)
    return permute_rows(pos, perm), permute_rows(nrm, perm), permute_rows(uv, perm), tris


def flat(tris):
    return [i for t in tris for i in t]


def png_1x1(rgb):
    """A valid 1x1 RGB PNG."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)) \
        + chunk(b"IDAT", zlib.compress(b"\0" + bytes(rgb))) + chunk(b"IEND", b"")


def basic_prim(b, rng, w, h, itype, material=None, extras=None):
    pos, nrm, uv, tris = shuffled_grid(rng, w, h)
    prim = {"attributes": {"POSITION": b.floats(pos, "VEC3", minmax=True), "NORMAL": b.floats(nrm, "VEC3"),
                           "TEXCOORD_0": b.floats(uv, "VEC2")},
            "indices": b.indices(flat(tris), itype), "mode": 4}
    if material is not None:
        prim["material"] = material
    if extras:
        prim["extras"] = extras
    return prim


def scene_lists():
    rng = random.Random(1701)
    b = Builder()
    doc = b.doc
    doc["asset"]["copyright"] = "generated for gpucache's tests"
    doc["asset"]["extras"] = {"purpose": "round trip", "list": [1, 2.5, None, True]}
    doc["extensionsUsed"] = ["KHR_materials_emissive_strength"]
    b.add("images", {"name": "swatch", "mimeType": "image/png"})  # uri set per container
    b.add("samplers", {"magFilter": 9729, "minFilter": 9987, "wrapS": 33648})
    b.add("textures", {"source": 0, "sampler": 0, "name": "swatch-texture"})
    b.add("materials", {"name": "glowing", "emissiveFactor": [1.0, 0.5, 0.25],
                        "extensions": {"KHR_materials_emissive_strength": {"emissiveStrength": 4.0}},
                        "pbrMetallicRoughness": {"baseColorTexture": {"index": 0}, "metallicFactor": 0.0},
                        "extras": {"shader": "glow"}})
    b.add("materials", {"name": "plain", "doubleSided": True})
    m16 = b.add("meshes", {"name": "grid-u16", "primitives": [basic_prim(b, rng, 20, 15, "u16", 0, {"lod": 0})],
                           "extras": {"tag": "sixteen"}})
    # Two u8 index accessors at byte offsets inside one bufferView, after unrelated bytes.
    pos, nrm, uv, tris = shuffled_grid(rng, 8, 8)
    pos2, nrm2, uv2, tris2 = shuffled_grid(rng, 5, 4)
    i1, i2 = flat(tris), flat(tris2)
    head = b"\x07" * 12
    data = head + bytes(i1) + b"\x00" * 3 + bytes(i2)
    v = b.view(data, ELEMENT_ARRAY_BUFFER, name="u8-indices")
    a1 = b.accessor(v, UBYTE, "SCALAR", len(i1), offset=len(head), name="first-u8")
    a2 = b.accessor(v, UBYTE, "SCALAR", len(i2), offset=len(head) + len(i1) + 3, name="second-u8")
    prims = []
    for p, n, u, acc, mat in ((pos, nrm, uv, a1, 1), (pos2, nrm2, uv2, a2, 0)):
        prims.append({"attributes": {"POSITION": b.floats(p, "VEC3", minmax=True), "NORMAL": b.floats(n, "VEC3"),
                                     "TEXCOORD_0": b.floats(u, "VEC2")}, "indices": acc, "material": mat})
    m8 = b.add("meshes", {"name": "grid-u8", "primitives": prims})
    m32 = b.add("meshes", {"primitives": [basic_prim(b, rng, 6, 6, "u32")]})  # no name: mesh_name null
    # One accessor as two attributes (TEXCOORD_0 and TEXCOORD_1: permuted once, not twice),
    # a normalized u8 COLOR_0 and an application-specific attribute.
    pos, nrm, uv, tris = shuffled_grid(rng, 5, 5)
    uvacc = b.floats(uv, "VEC2")
    colors = b.view(b"".join(struct.pack("<4B", int(255 * p[0]), int(255 * p[1]), 128, 255) for p in pos), ARRAY_BUFFER)
    ma = b.add("meshes", {"name": "aliased", "primitives": [{"attributes": {
        "POSITION": b.floats(pos, "VEC3", minmax=True), "NORMAL": b.floats(nrm, "VEC3"),
        "TEXCOORD_0": uvacc, "TEXCOORD_1": uvacc,
        "COLOR_0": b.accessor(colors, UBYTE, "VEC4", len(pos), normalized=True),
        "_TEMPERATURE": b.floats([(float(k),) for k in range(len(pos))], "SCALAR")},
        "indices": b.indices(flat(tris), "u16")}]})
    b.add("nodes", {"name": "sixteen", "mesh": m16, "translation": [1.0, 2.0, 3.0],
                    "rotation": [0.0, 0.0, 0.38268343, 0.92387953], "scale": [1.0, 2.0, 1.0],
                    "extras": {"note": "TRS must stay TRS"}})
    b.add("nodes", {"name": "eight", "mesh": m8, "translation": [-2.0, 0.0, 0.0]})
    b.add("nodes", {"mesh": m32, "matrix": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, -3, 1]})
    b.add("nodes", {"name": "group", "children": [0, 1]})
    b.add("nodes", {"name": "aliased", "mesh": ma, "translation": [0.0, -2.0, 0.0]})
    b.add("scenes", {"name": "main", "nodes": [3, 2, 4]})
    doc["scene"] = 0
    return b, {"image": png_1x1((200, 80, 40))}


def strip_of_rows(w, h):
    """Indices of a W x H grid as one triangle strip: one strip per row, joined by two
    repeated indices (degenerate triangles), every row starting on an even position so the
    winding stays counter-clockwise."""
    out = []
    for y in range(h):
        row = []
        for x in range(w + 1):
            row += [(y + 1) * (w + 1) + x, y * (w + 1) + x]
        if out:
            out += [out[-1], row[0]]
            if len(out) % 2:
                out.append(row[0])
        out += row
    return out


def scene_modes():
    b = Builder()
    doc = b.doc
    # Strip (u16) over a 6x4 grid.
    pos, nrm, uv, _ = grid(6, 4)
    strip = strip_of_rows(6, 4)
    p_strip = {"attributes": {"POSITION": b.floats(pos, "VEC3", minmax=True), "NORMAL": b.floats(nrm, "VEC3")},
               "indices": b.indices(strip, "u16"), "mode": 5}
    # Fan (u8): a disk, centre first, the ring closed by repeating its first vertex.
    ring = 12
    dpos = [(0.0, 0.0, 0.0)] + [(math.cos(2 * math.pi * k / ring), math.sin(2 * math.pi * k / ring), 0.0)
                                for k in range(ring)]
    fan = [0] + list(range(1, ring + 1)) + [1]
    p_fan = {"attributes": {"POSITION": b.floats(dpos, "VEC3", minmax=True)}, "indices": b.indices(fan, "u8"), "mode": 6}
    rng = random.Random(42)
    p_list = basic_prim(b, rng, 7, 5, "u32")
    m0 = b.add("meshes", {"name": "strip-fan-list", "primitives": [p_strip, p_fan, p_list]})
    # Points, lines, line loop, line strip (sharing one position accessor) and a
    # non-indexed triangle list.
    lpos, _, _, ltris = grid(4, 3)
    lp = b.floats(lpos, "VEC3", minmax=True)
    edges = []
    for t in ltris:
        edges += [t[0], t[1], t[1], t[2]]
    prims = [{"attributes": {"POSITION": lp}, "indices": b.indices(list(range(len(lpos)))[::-1], "u16"), "mode": 0},
             {"attributes": {"POSITION": lp}, "indices": b.indices(edges, "u8"), "mode": 1},
             {"attributes": {"POSITION": lp}, "indices": b.indices([0, 4, 19, 15], "u16"), "mode": 2},
             {"attributes": {"POSITION": lp}, "indices": b.indices([0, 1, 6, 7, 12], "u32"), "mode": 3}]
    spos, _, _, stris = grid(3, 2)
    soup = [spos[i] for t in stris for i in t]
    prims.append({"attributes": {"POSITION": b.floats(soup, "VEC3", minmax=True)}})  # non-indexed, mode 4 by default
    m1 = b.add("meshes", {"name": "points-lines-soup", "primitives": prims})
    # One index accessor drawn as a triangle list, as a triangle strip and as points:
    # reordering it for the list would change the strip's triangles and the points' order.
    pos, nrm, uv, tris = shuffled_grid(random.Random(3), 4, 4)
    attrs = {"POSITION": b.floats(pos, "VEC3", minmax=True), "NORMAL": b.floats(nrm, "VEC3")}
    both = b.indices(flat(tris), "u16")
    m2 = b.add("meshes", {"name": "list-and-points", "primitives": [
        {"attributes": dict(attrs), "indices": both, "mode": 4}, {"attributes": dict(attrs), "indices": both, "mode": 5},
        {"attributes": dict(attrs), "indices": both, "mode": 0}]})
    b.add("nodes", {"name": "a", "mesh": m0})
    b.add("nodes", {"name": "b", "mesh": m1, "translation": [0.0, 0.0, -1.0]})
    b.add("nodes", {"name": "c", "mesh": m2, "translation": [0.0, 0.0, -2.0]})
    b.add("scenes", {"nodes": [0, 1, 2]})
    doc["scene"] = 0
    return b, {}


def scene_shared():
    rng = random.Random(7)
    b = Builder()
    doc = b.doc
    # Interleaved POSITION/NORMAL/TEXCOORD_0, 32 bytes a vertex.
    pos, nrm, uv, tris = shuffled_grid(rng, 10, 8)
    pos = [tuple(f32(x) for x in p) for p in pos]
    data = b"".join(struct.pack("<3f3f2f", *p, *n, *u) for p, n, u in zip(pos, nrm, uv))
    v = b.view(data, ARRAY_BUFFER, stride=32, name="interleaved")
    mm = ([min(p[k] for p in pos) for k in range(3)], [max(p[k] for p in pos) for k in range(3)])
    attrs = {"POSITION": b.accessor(v, FLOAT, "VEC3", len(pos), 0, mm),
             "NORMAL": b.accessor(v, FLOAT, "VEC3", len(pos), 12),
             "TEXCOORD_0": b.accessor(v, FLOAT, "VEC2", len(pos), 24)}
    half = len(tris) // 2
    ia = b.indices(flat(tris[:half]), "u16", name="first-half")
    ib = b.indices(flat(tris[half:]), "u16", name="second-half")
    b.add("materials", {"name": "red", "pbrMetallicRoughness": {"baseColorFactor": [1, 0, 0, 1]}})
    b.add("materials", {"name": "blue", "pbrMetallicRoughness": {"baseColorFactor": [0, 0, 1, 1]}})
    m0 = b.add("meshes", {"name": "two-halves", "primitives": [
        {"attributes": dict(attrs), "indices": ia, "material": 0},
        {"attributes": dict(attrs), "indices": ib, "material": 1}]})
    # A second mesh drawing the first half again with the other material.
    m1 = b.add("meshes", {"name": "reuse", "primitives": [{"attributes": dict(attrs), "indices": ia, "material": 1}]})
    # One index accessor over two different vertex sets (same count, other positions).
    pos2 = [(p[0], p[1], 0.5) for p in pos]
    other = {"POSITION": b.floats(pos2, "VEC3", minmax=True), "NORMAL": b.floats(nrm, "VEC3")}
    m2 = b.add("meshes", {"name": "same-indices-other-vertices", "primitives": [
        {"attributes": other, "indices": ib}]})
    for m in (m0, m1, m2):
        b.add("nodes", {"mesh": m, "translation": [0.0, 0.0, float(m)]})
    b.add("scenes", {"nodes": [0, 1, 2]})
    doc["scene"] = 0
    return b, {}


def normalize(v):
    n = math.sqrt(sum(x * x for x in v))
    return tuple(x / n for x in v)


def sparse_target(b, pos):
    """A morph target POSITION accessor with no bufferView: zeros, with a sparse substitution
    lifting the vertices at x > 0.7 (sparse indices ascending, as glTF requires). Reordering
    vertices must move these too."""
    which = [v for v, p in enumerate(pos) if p[0] > 0.7]
    lift = f32(0.2)
    iv = b.view(struct.pack("<%dH" % len(which), *which))
    vv = b.view(b"".join(struct.pack("<3f", 0.0, 0.0, lift) for _ in which))
    b.doc["accessors"].append({"componentType": FLOAT, "type": "VEC3", "count": len(pos), "name": "lift",
                               "min": [0.0, 0.0, 0.0], "max": [0.0, 0.0, lift],
                               "sparse": {"count": len(which), "indices": {"bufferView": iv, "componentType": USHORT},
                                          "values": {"bufferView": vv}}})
    return len(b.doc["accessors"]) - 1


def scene_morph_skin():
    rng = random.Random(99)
    b = Builder()
    doc = b.doc
    # Morph target mesh with TANGENT.
    pos, nrm, uv, tris = shuffled_grid(rng, 9, 7)
    tan = [(1.0, 0.0, 0.0, 1.0)] * len(pos)
    d1 = [(0.0, 0.0, 0.1 * math.sin(3 * p[0])) for p in pos]
    d2 = [(0.05 * p[1], 0.0, 0.0) for p in pos]
    dn = [(0.0, 0.01 * k % 0.05, 0.0) for k in range(len(pos))]
    prim = {"attributes": {"POSITION": b.floats(pos, "VEC3", minmax=True), "NORMAL": b.floats(nrm, "VEC3"),
                           "TANGENT": b.floats(tan, "VEC4"), "TEXCOORD_0": b.floats(uv, "VEC2")},
            "targets": [{"POSITION": b.floats(d1, "VEC3", minmax=True), "NORMAL": b.floats(dn, "VEC3")},
                        {"POSITION": b.floats(d2, "VEC3", minmax=True)},
                        {"POSITION": sparse_target(b, pos)}],
            "indices": b.indices(flat(tris), "u16")}
    m0 = b.add("meshes", {"name": "morphing", "primitives": [prim], "weights": [0.25, 0.5, 0.0],
                          "extras": {"targetNames": ["bump", "shear", "lift"]}})
    # Skinned mesh: a strip of quads along x bent by 4 joints.
    pos, nrm, uv, tris = grid(12, 2, scale=1.0)
    pos = [(p[0] * 4.0, p[1], p[2]) for p in pos]
    joints, weights = [], []
    for p in pos:
        x = p[0]
        w = [max(0.0, 1.0 - abs(x - j * 4.0 / 3.0)) + 0.05 for j in range(4)]
        s = sum(w)
        w = [f32(v / s) for v in w]
        w[3] = f32(1.0 - w[0] - w[1] - w[2])
        joints.append((0, 1, 2, 3))
        weights.append(tuple(w))
    perm, tris = shuffle_mesh(rng, len(pos), tris)
    pos, nrm, uv = permute_rows(pos, perm), permute_rows(nrm, perm), permute_rows(uv, perm)
    joints, weights = permute_rows(joints, perm), permute_rows(weights, perm)
    jv = b.view(b"".join(struct.pack("<4B", *j) for j in joints), ARRAY_BUFFER)
    sprim = {"attributes": {"POSITION": b.floats(pos, "VEC3", minmax=True), "NORMAL": b.floats(nrm, "VEC3"),
                            "JOINTS_0": b.accessor(jv, UBYTE, "VEC4", len(joints)),
                            "WEIGHTS_0": b.floats(weights, "VEC4")},
             "indices": b.indices(flat(tris), "u16")}
    m1 = b.add("meshes", {"name": "skinned", "primitives": [sprim]})
    ibm = []
    for j in range(4):
        ibm.append((1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -j * 4.0 / 3.0, 0, 0, 1))
    ibm_acc = b.floats(ibm, "MAT4", target=None, name="inverse-bind")
    # Nodes: 0 morph, 1 skinned mesh, 2..5 joints chained with TRS.
    b.add("nodes", {"name": "morph-node", "mesh": m0, "weights": [0.25, 0.5, 0.0], "translation": [0.0, 3.0, 0.0]})
    b.add("nodes", {"name": "skinned-node", "mesh": m1, "skin": 0})
    for j in range(4):
        node = {"name": "joint%d" % j, "translation": [0.0 if j == 0 else 4.0 / 3.0, 0.0, 0.0],
                "rotation": [0.0, 0.0, 0.0, 1.0], "scale": [1.0, 1.0, 1.0]}
        if j < 3:
            node["children"] = [3 + j]
        b.add("nodes", node)
    b.add("skins", {"name": "bend", "joints": [2, 3, 4, 5], "skeleton": 2, "inverseBindMatrices": ibm_acc})
    times = [0.0, 0.5, 1.0]
    t_acc = b.accessor(b.view(struct.pack("<3f", *times)), FLOAT, "SCALAR", 3, minmax=([0.0], [1.0]))
    rots = [(0.0, 0.0, 0.0, 1.0), normalize((0.0, 0.0, 0.2, 1.0)), (0.0, 0.0, 0.0, 1.0)]
    r_acc = b.floats(rots, "VEC4", target=None)
    w_acc = b.floats([(0.0,), (1.0,), (0.0,), (0.5,), (0.5,), (1.0,), (0.0,), (1.0,), (0.5,)], "SCALAR", target=None)
    b.add("animations", {"name": "bend-and-morph",
                         "samplers": [{"input": t_acc, "output": r_acc, "interpolation": "LINEAR"},
                                      {"input": t_acc, "output": w_acc}],
                         "channels": [{"sampler": 0, "target": {"node": 3, "path": "rotation"}},
                                      {"sampler": 1, "target": {"node": 0, "path": "weights"}}]})
    b.add("scenes", {"nodes": [0, 1, 2]})
    doc["scene"] = 0
    return b, {}


def scene_quantized():
    rng = random.Random(5)
    b = Builder()
    doc = b.doc
    doc["extensionsUsed"] = ["KHR_mesh_quantization"]
    doc["extensionsRequired"] = ["KHR_mesh_quantization"]
    pos, nrm, uv, tris = shuffled_grid(rng, 12, 9)
    qpos = [(round(p[0] * 1000), round(p[1] * 1000), 0) for p in pos]
    qnrm = [(0, 0, 127)] * len(pos)
    quv = [(round(u[0] * 65535), round(u[1] * 65535)) for u in uv]
    pv = b.view(b"".join(struct.pack("<3hxx", *p) for p in qpos), ARRAY_BUFFER, stride=8)
    nv = b.view(b"".join(struct.pack("<3bx", *n) for n in qnrm), ARRAY_BUFFER, stride=4)
    uvv = b.view(b"".join(struct.pack("<2H", *u) for u in quv), ARRAY_BUFFER)
    mm = ([min(p[k] for p in qpos) for k in range(3)], [max(p[k] for p in qpos) for k in range(3)])
    prim = {"attributes": {"POSITION": b.accessor(pv, SHORT, "VEC3", len(qpos), minmax=mm),
                           "NORMAL": b.accessor(nv, BYTE, "VEC3", len(qnrm), normalized=True),
                           "TEXCOORD_0": b.accessor(uvv, USHORT, "VEC2", len(quv), normalized=True)},
            "indices": b.indices(flat(tris), "u16")}
    m = b.add("meshes", {"name": "quantized", "primitives": [prim]})
    b.add("nodes", {"mesh": m, "scale": [0.001, 0.001, 0.001]})
    b.add("scenes", {"nodes": [0]})
    doc["scene"] = 0
    return b, {}


def scene_draco():
    """A file using KHR_draco_mesh_compression: gpucache must refuse it (the compressed
    bytes here are placeholders; the refusal comes before any decoding)."""
    b = Builder()
    doc = b.doc
    doc["extensionsUsed"] = ["KHR_draco_mesh_compression"]
    doc["extensionsRequired"] = ["KHR_draco_mesh_compression"]
    v = b.view(b"DRACO" + bytes(59))
    doc["accessors"] = [{"componentType": FLOAT, "type": "VEC3", "count": 3, "min": [0, 0, 0], "max": [1, 1, 0]},
                        {"componentType": USHORT, "type": "SCALAR", "count": 3}]
    doc["meshes"] = [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1, "extensions": {
        "KHR_draco_mesh_compression": {"bufferView": v, "attributes": {"POSITION": 0}}}}]}]
    doc["nodes"] = [{"mesh": 0}]
    doc["scenes"] = [{"nodes": [0]}]
    return b, {}


def scene_meshopt():
    """A file using EXT_meshopt_compression on its index bufferView: refused too."""
    b = Builder()
    doc = b.doc
    doc["extensionsUsed"] = ["EXT_meshopt_compression"]
    doc["extensionsRequired"] = ["EXT_meshopt_compression"]
    pos = b.floats([(0, 0, 0), (1, 0, 0), (0, 1, 0)], "VEC3", minmax=True)
    compressed = b.view(bytes(16))
    doc["buffers"].append({"byteLength": 8, "extensions": {"EXT_meshopt_compression": {"fallback": True}}})
    doc["bufferViews"].append({"buffer": 1, "byteLength": 8, "target": ELEMENT_ARRAY_BUFFER, "extensions": {
        "EXT_meshopt_compression": {"buffer": 0, "byteOffset": doc["bufferViews"][compressed]["byteOffset"],
                                    "byteLength": 16, "byteStride": 2, "count": 3, "mode": "TRIANGLES"}}})
    idx = b.accessor(len(doc["bufferViews"]) - 1, USHORT, "SCALAR", 3)
    doc["meshes"] = [{"primitives": [{"attributes": {"POSITION": pos}, "indices": idx}]}]
    doc["nodes"] = [{"mesh": 0}]
    doc["scenes"] = [{"nodes": [0]}]
    return b, {}


SCENES = [("lists", scene_lists), ("modes", scene_modes), ("shared", scene_shared),
          ("morph_skin", scene_morph_skin), ("quantized", scene_quantized)]


def write_variants(out_dir, name, b, extra):
    """Writes NAME.glb, NAME.gltf (+ NAME.bin) and NAME-data.gltf; returns their file names."""
    files = []
    for container, fname in (("glb", name + ".glb"), ("external", name + ".gltf"), ("data", name + "-data.gltf")):
        doc = json.loads(json.dumps(b.doc))
        if "image" in extra:
            if container == "external":
                with open(os.path.join(out_dir, name + "-swatch.png"), "wb") as f:
                    f.write(extra["image"])
                doc["images"][0]["uri"] = name + "-swatch.png"
                del doc["images"][0]["mimeType"]
            else:
                doc["images"][0]["uri"] = "data:image/png;base64," + base64.b64encode(extra["image"]).decode("ascii")
        gltfio.save(os.path.join(out_dir, fname), doc, [bytes(b.bin)], container, bin_name=name + ".bin")
        files.append(fname)
    return files


def write_two_buffers(out_dir, name, b):
    """B's scene with its index bufferViews moved into a second buffer: NAME.gltf with two
    external files (the second's URI percent-encoded: 'NAME%20indices.bin' for the file
    'NAME indices.bin'), and NAME-data.gltf with two data: URIs. Returns the file names."""
    doc = json.loads(json.dumps(b.doc))
    bins = [bytearray(), bytearray()]
    for v in doc["bufferViews"]:
        k = 1 if v.get("target") == ELEMENT_ARRAY_BUFFER else 0
        data = b.bin[v.get("byteOffset", 0): v.get("byteOffset", 0) + v["byteLength"]]
        while len(bins[k]) % 4:
            bins[k].append(0)
        v["buffer"], v["byteOffset"] = k, len(bins[k])
        bins[k] += data
    doc["buffers"] = [{"name": "vertices"}, {"name": "indices", "extras": {"split": True}}]
    gltfio.save(os.path.join(out_dir, name + "-data.gltf"), doc, [bytes(x) for x in bins], "data")
    files = [name + "-data.gltf"]
    for k, fname in enumerate((name + ".bin", name + " indices.bin")):
        with open(os.path.join(out_dir, fname), "wb") as f:
            f.write(bins[k])
        doc["buffers"][k]["byteLength"] = len(bins[k])
        doc["buffers"][k]["uri"] = fname.replace(" ", "%20")
    with open(os.path.join(out_dir, name + ".gltf"), "w") as f:
        json.dump(doc, f, indent=1)
    return files + [name + ".gltf"]


def make_tests(out_dir):
    os.makedirs(out_dir, exist_ok=True)
    manifest = {"roundtrip": [], "refuse": []}
    for name, fn in SCENES:
        b, extra = fn()
        manifest["roundtrip"] += write_variants(out_dir, name, b, extra)
    manifest["roundtrip"] += write_two_buffers(out_dir, "two_buffers", scene_morph_skin()[0])
    b, _ = scene_draco()
    gltfio.save(os.path.join(out_dir, "draco.gltf"), b.doc, [bytes(b.bin)], "external", bin_name="draco.bin")
    manifest["refuse"].append({"file": "draco.gltf", "extension": "KHR_draco_mesh_compression"})
    b, _ = scene_meshopt()
    gltfio.save(os.path.join(out_dir, "meshopt.glb"), b.doc, [bytes(b.bin)], "glb")
    manifest["refuse"].append({"file": "meshopt.glb", "extension": "EXT_meshopt_compression"})
    with open(os.path.join(out_dir, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    return manifest


# ---- OBJ to glTF (bench input) ----

def read_obj(path):
    """Positions, uvs, normals and triangles of corners (v, vt, vn) of an OBJ (fans for polygons)."""
    v, vt, vn, tris = [], [], [], []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            parts = line.split()
            if not parts:
                continue
            if parts[0] == "v":
                v.append(tuple(float(x) for x in parts[1:4]))
            elif parts[0] == "vt":
                vt.append(tuple(float(x) for x in parts[1:3]))
            elif parts[0] == "vn":
                vn.append(tuple(float(x) for x in parts[1:4]))
            elif parts[0] == "f":
                corners = []
                for c in parts[1:]:
                    ids = (c.split("/") + ["", ""])[:3]

                    def ref(s, n):
                        if not s:
                            return -1
                        i = int(s)
                        return i - 1 if i > 0 else n + i
                    corners.append((ref(ids[0], len(v)), ref(ids[1], len(vt)), ref(ids[2], len(vn))))
                for k in range(1, len(corners) - 1):
                    tris.append((corners[0], corners[k], corners[k + 1]))
    return v, vt, vn, tris


def sub(a, b):
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def safe_normalize(v, fallback):
    n = math.sqrt(sum(x * x for x in v))
    return tuple(x / n for x in v) if n > 1e-20 else fallback


def obj_to_gltf(obj_path, itype, out_path):
    """OBJ -> glTF with POSITION, NORMAL, TEXCOORD_0 and TANGENT (computed where the OBJ lacks
    them: area-weighted normals, planar UVs, UV-derived tangents), one vertex per distinct
    corner, triangles in file order, indices of type ITYPE, a material with a base colour
    and a normal texture, names on the mesh, node and material."""
    v, vt, vn, ctris = read_obj(obj_path)
    lo = [min(p[k] for p in v) for k in range(3)]
    hi = [max(p[k] for p in v) for k in range(3)]
    ext = [max(hi[k] - lo[k], 1e-9) for k in range(3)]
    pnorm = [[0.0, 0.0, 0.0] for _ in v]
    for t in ctris:
        n = cross(sub(v[t[1][0]], v[t[0][0]]), sub(v[t[2][0]], v[t[0][0]]))
        for c in t:
            for k in range(3):
                pnorm[c[0]][k] += n[k]
    ids, verts, tris = {}, [], []
    for t in ctris:
        out = []
        for c in t:
            if c not in ids:
                ids[c] = len(verts)
                verts.append(c)
            out.append(ids[c])
        tris.append(tuple(out))
    if itype == "u16" and len(verts) >= 65535:
        raise SystemExit("%s: %d vertices do not fit u16 indices" % (obj_path, len(verts)))
    if itype == "u8" and len(verts) >= 255:
        raise SystemExit("%s: %d vertices do not fit u8 indices" % (obj_path, len(verts)))
    pos = [v[c[0]] for c in verts]
    nrm = [safe_normalize(vn[c[2]] if c[2] >= 0 else pnorm[c[0]], (0.0, 0.0, 1.0)) for c in verts]
    uv = [vt[c[1]] if c[1] >= 0 else ((v[c[0]][0] - lo[0]) / ext[0], (v[c[0]][1] - lo[1]) / ext[1]) for c in verts]
    tacc = [[0.0, 0.0, 0.0] for _ in verts]
    for a, b_, c in tris:
        e1, e2 = sub(pos[b_], pos[a]), sub(pos[c], pos[a])
        du1, dv1 = uv[b_][0] - uv[a][0], uv[b_][1] - uv[a][1]
        du2, dv2 = uv[c][0] - uv[a][0], uv[c][1] - uv[a][1]
        det = du1 * dv2 - du2 * dv1
        if abs(det) < 1e-20:
            continue
        r = 1.0 / det
        t = tuple((e1[k] * dv2 - e2[k] * dv1) * r for k in range(3))
        for i in (a, b_, c):
            for k in range(3):
                tacc[i][k] += t[k]
    tan = []
    for i, t in enumerate(tacc):
        n = nrm[i]
        d = sum(t[k] * n[k] for k in range(3))
        t = tuple(t[k] - n[k] * d for k in range(3))
        other = (1.0, 0.0, 0.0) if abs(n[0]) < 0.9 else (0.0, 1.0, 0.0)
        t = safe_normalize(t, safe_normalize(cross(n, other), (1.0, 0.0, 0.0)))
        tan.append(t + (1.0,))
    b = Builder()
    name = os.path.splitext(os.path.basename(obj_path))[0]
    prim = {"attributes": {"POSITION": b.floats(pos, "VEC3", minmax=True), "NORMAL": b.floats(nrm, "VEC3"),
                           "TANGENT": b.floats(tan, "VEC4"), "TEXCOORD_0": b.floats(uv, "VEC2")},
            "indices": b.indices(flat(tris), itype)}
    # A textured, normal-mapped material (1x1 PNGs in bufferViews), as a shipped asset has,
    # so that a tool that drops attributes no material uses has none to drop.
    for k, rgb in enumerate(((180, 160, 140), (128, 128, 255))):
        b.add("images", {"name": ("base", "normal")[k], "mimeType": "image/png", "bufferView": b.view(png_1x1(rgb))})
        b.add("textures", {"source": k})
    b.add("materials", {"name": name + "-material", "pbrMetallicRoughness": {"baseColorTexture": {"index": 0}},
                        "normalTexture": {"index": 1}})
    prim["material"] = 0
    b.add("meshes", {"name": name, "primitives": [prim]})
    b.add("nodes", {"name": name, "mesh": 0, "translation": [0.0, 0.0, 0.0]})
    b.add("scenes", {"nodes": [0]})
    b.doc["scene"] = 0
    container = "glb" if out_path.endswith(".glb") else "external"
    gltfio.save(out_path, b.doc, [bytes(b.bin)], container,
                bin_name=os.path.splitext(os.path.basename(out_path))[0] + ".bin")
    return len(verts), len(tris)


def large_grid(out_path, w, h, seed=1):
    """A W x H quad grid (2WH triangles) as one GLB primitive with POSITION, NORMAL and
    TEXCOORD_0 and u32 indices, vertices and triangles shuffled (the bench's large input).
    Also writes the same indices as raw little-endian u32 beside it (OUT.u32), for timing the
    optimizer alone on the same triangles. Returns (vertices, triangles)."""
    from array import array
    rng = random.Random(seed)
    nv = (w + 1) * (h + 1)
    perm = list(range(nv))
    rng.shuffle(perm)
    pos, nrm, uv = array("f", bytes(12 * nv)), array("f", bytes(12 * nv)), array("f", bytes(8 * nv))
    for y in range(h + 1):
        for x in range(w + 1):
            v = perm[y * (w + 1) + x]
            pos[3 * v], pos[3 * v + 1] = x / w, y / h
            nrm[3 * v + 2] = 1.0
            uv[2 * v], uv[2 * v + 1] = x / w, 1.0 - y / h
    tris = []
    for y in range(h):
        for x in range(w):
            a = perm[y * (w + 1) + x]
            b_, c, d = perm[y * (w + 1) + x + 1], perm[(y + 1) * (w + 1) + x], perm[(y + 1) * (w + 1) + x + 1]
            tris.append((a, b_, d))
            tris.append((a, d, c))
    rng.shuffle(tris)
    idx = array("I", (i for t in tris for i in t))
    if sys.byteorder != "little":
        for arr in (pos, nrm, uv, idx):
            arr.byteswap()
    b = Builder()
    prim = {"attributes": {
        "POSITION": b.accessor(b.view(pos.tobytes(), ARRAY_BUFFER), FLOAT, "VEC3", nv,
                               minmax=([0.0, 0.0, 0.0], [1.0, 1.0, 0.0])),
        "NORMAL": b.accessor(b.view(nrm.tobytes(), ARRAY_BUFFER), FLOAT, "VEC3", nv),
        "TEXCOORD_0": b.accessor(b.view(uv.tobytes(), ARRAY_BUFFER), FLOAT, "VEC2", nv)},
        "indices": b.accessor(b.view(idx.tobytes(), ELEMENT_ARRAY_BUFFER), UINT, "SCALAR", len(idx))}
    b.add("meshes", {"name": "large-grid", "primitives": [prim]})
    b.add("nodes", {"mesh": 0})
    b.add("scenes", {"nodes": [0]})
    b.doc["scene"] = 0
    gltfio.save(out_path, b.doc, [bytes(b.bin)], "glb")
    with open(os.path.splitext(out_path)[0] + ".u32", "wb") as f:
        f.write(idx.tobytes())
    return nv, len(tris)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out_dir", nargs="?")
    ap.add_argument("--from-obj")
    ap.add_argument("--index", choices=("u8", "u16", "u32"), default="u32")
    ap.add_argument("-o", dest="output")
    args = ap.parse_args()
    if args.from_obj:
        if not args.output:
            ap.error("--from-obj needs -o OUT.glb|OUT.gltf")
        nv, nt = obj_to_gltf(args.from_obj, args.index, args.output)
        print("%s: %d vertices, %d triangles, %s indices" % (args.output, nv, nt, args.index))
        return
    if not args.out_dir:
        ap.error("give OUT_DIR, or --from-obj")
    m = make_tests(args.out_dir)
    print("%d round-trip files, %d to refuse, in %s" % (len(m["roundtrip"]), len(m["refuse"]), args.out_dir))


if __name__ == "__main__":
    main()
