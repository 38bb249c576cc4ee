# SPDX-License-Identifier: MIT
"""Minimal glTF 2.0 container and accessor code for gpucache's glTF tests and bench.

Written for the tests, independently of gpucache's C reader: it reads and writes the three
containers (GLB, .gltf with an external .bin, .gltf with a data: URI) and decodes accessors
element by element as raw bytes, which is what the round-trip checks compare. Python standard
library only (the tests run with Debian's /usr/bin/python3, no PyPI).
"""
import base64
import json
import os
import struct
import urllib.parse

GLB_MAGIC = 0x46546C67
CHUNK_JSON = 0x4E4F534A
CHUNK_BIN = 0x004E4942

# componentType -> (struct code, size in bytes)
COMPONENTS = {5120: ("b", 1), 5121: ("B", 1), 5122: ("h", 2), 5123: ("H", 2),
              5125: ("I", 4), 5126: ("f", 4)}
TYPE_COUNT = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT2": 4, "MAT3": 9, "MAT4": 16}
INDEX_TYPE_NAME = {5121: "u8", 5123: "u16", 5125: "u32"}
MODE_NAME = {0: "points", 1: "lines", 2: "line-loop", 3: "line-strip", 4: "triangles",
             5: "triangle-strip", 6: "triangle-fan"}


class GltfError(Exception):
    """A file this module cannot read; the message names the file and the place."""


class Asset:
    """A loaded glTF: the JSON (`doc`), each buffer's bytes, and how each buffer was stored
    (`kinds[i]`: "glb", "external" or "data")."""

    def __init__(self, path, doc, buffers, kinds, container, bin_chunk_len=None):
        self.path = path
        self.doc = doc
        self.buffers = buffers
        self.kinds = kinds
        self.container = container
        self.bin_chunk_len = bin_chunk_len


def _pad4(data, fill):
    return data + fill * ((4 - len(data) % 4) % 4)


def load(path):
    """Reads a .glb or .gltf with every buffer (GLB chunk, data: URI, or a file beside it)."""
    with open(path, "rb") as f:
        raw = f.read()
    bin_chunk = None
    bin_chunk_len = None
    if raw[:4] == b"glTF":
        if len(raw) < 20:
            raise GltfError("%s: GLB header truncated" % path)
        magic, version, length = struct.unpack_from("<III", raw, 0)
        if version != 2 or length != len(raw):
            raise GltfError("%s: GLB version %d, length %d for %d bytes" % (path, version, length, len(raw)))
        off = 12
        doc = None
        while off < len(raw):
            clen, ctype = struct.unpack_from("<II", raw, off)
            body = raw[off + 8: off + 8 + clen]
            if len(body) != clen:
                raise GltfError("%s: chunk at byte %d runs past the file" % (path, off))
            if ctype == CHUNK_JSON and doc is None:
                doc = json.loads(body.decode("utf-8"))
            elif ctype == CHUNK_BIN and bin_chunk is None:
                bin_chunk = body
                bin_chunk_len = clen
            off += 8 + clen
        if doc is None:
            raise GltfError("%s: no JSON chunk" % path)
        container = "glb"
    else:
        doc = json.loads(raw.decode("utf-8"))
        container = "gltf"
    buffers, kinds = [], []
    folder = os.path.dirname(os.path.abspath(path))
    for i, b in enumerate(doc.get("buffers", [])):
        uri = b.get("uri")
        if uri is None:
            if container != "glb" or i != 0 or bin_chunk is None:
                raise GltfError("%s: buffers[%d] has no uri and no GLB BIN chunk" % (path, i))
            data, kind = bin_chunk[:b["byteLength"]], "glb"
        elif uri.startswith("data:"):
            data, kind = base64.b64decode(uri.split(",", 1)[1]), "data"
        else:
            with open(os.path.join(folder, urllib.parse.unquote(uri)), "rb") as f:
                data = f.read()
            kind = "external"
        if len(data) < b["byteLength"]:
            raise GltfError("%s: buffers[%d] holds %d bytes, byteLength %d" % (path, i, len(data), b["byteLength"]))
        buffers.append(data[:b["byteLength"]])
        kinds.append(kind)
    return Asset(path, doc, buffers, kinds, container, bin_chunk_len)


def element_size(acc):
    """Bytes of one element of an accessor, without padding."""
    return COMPONENTS[acc["componentType"]][1] * TYPE_COUNT[acc["type"]]


def _column_padding(acc):
    """Matrix columns of 1- and 2-byte components are padded to 4 bytes (glTF 3.6.2.4)."""
    size = COMPONENTS[acc["componentType"]][1]
    t = acc["type"]
    if t in ("MAT2", "MAT3", "MAT4") and size < 4:
        rows = {"MAT2": 2, "MAT3": 3, "MAT4": 4}[t]
        return rows, rows * size, (rows * size + 3) // 4 * 4
    return None


def accessor_elements(asset, index):
    """The accessor's elements as a list of bytes objects (one per element, in order),
    honouring bufferView and accessor offsets and byteStride; zeros for an accessor without
    a bufferView; sparse substitution applied."""
    acc = asset.doc["accessors"][index]
    count = acc["count"]
    esize = element_size(acc)
    pad = _column_padding(acc)
    stored = esize if pad is None else pad[0] * pad[2]
    if "bufferView" in acc:
        view = asset.doc["bufferViews"][acc["bufferView"]]
        data = asset.buffers[view["buffer"]]
        base = view.get("byteOffset", 0) + acc.get("byteOffset", 0)
        stride = view.get("byteStride", stored)
        out = []
        for i in range(count):
            chunk = data[base + i * stride: base + i * stride + stored]
            if len(chunk) != stored:
                raise GltfError("%s: accessors[%d] element %d past the buffer" % (asset.path, index, i))
            if pad is not None:
                chunk = b"".join(chunk[c * pad[2]: c * pad[2] + pad[1]] for c in range(pad[0]))
            out.append(chunk)
    else:
        out = [bytes(esize)] * count
    sparse = acc.get("sparse")
    if sparse:
        n = sparse["count"]
        iv = sparse["indices"]
        vv = sparse["values"]
        iview = asset.doc["bufferViews"][iv["bufferView"]]
        vview = asset.doc["bufferViews"][vv["bufferView"]]
        code, isz = COMPONENTS[iv["componentType"]]
        ib = asset.buffers[iview["buffer"]]
        vb = asset.buffers[vview["buffer"]]
        ioff = iview.get("byteOffset", 0) + iv.get("byteOffset", 0)
        voff = vview.get("byteOffset", 0) + vv.get("byteOffset", 0)
        for k in range(n):
            (where,) = struct.unpack_from("<" + code, ib, ioff + k * isz)
            out[where] = vb[voff + k * esize: voff + (k + 1) * esize]
    return out


def accessor_ints(asset, index):
    """A scalar integer accessor (indices) as a list of ints."""
    acc = asset.doc["accessors"][index]
    code, _ = COMPONENTS[acc["componentType"]]
    return [struct.unpack("<" + code, e)[0] for e in accessor_elements(asset, index)]


def primitive_indices(asset, prim):
    """The primitive's index list: its indices accessor, or 0..n-1 for a non-indexed draw
    (n = POSITION's count, or the first attribute's)."""
    if "indices" in prim:
        return accessor_ints(asset, prim["indices"])
    attrs = prim["attributes"]
    first = attrs.get("POSITION", next(iter(attrs.values())))
    return list(range(asset.doc["accessors"][first]["count"]))


def triangles(mode, idx):
    """The triangles a triangle-mode draw makes, as glTF 2.0 section 3.7.2.1 defines them
    (strip: odd triangles swap to keep the winding; fan: (v[i+1], v[i+2], v[0]))."""
    if mode == 4:
        return [tuple(idx[i:i + 3]) for i in range(0, len(idx) - len(idx) % 3, 3)]
    if mode == 5:
        return [(idx[i], idx[i + 1 + i % 2], idx[i + 2 - i % 2]) for i in range(len(idx) - 2)]
    if mode == 6:
        return [(idx[i + 1], idx[i + 2], idx[0]) for i in range(len(idx) - 2)]
    raise ValueError("mode %d has no triangles" % mode)


def canonical_triangle(tri):
    """The rotation of a triangle that starts at its smallest corner: equal for two
    triangles with the same corners and winding, different when the winding flips."""
    k = min(range(3), key=lambda j: tri[j])
    return tri[k:] + tri[:k]


def vertex_attribute_accessors(prim):
    """Every accessor a primitive's vertices are made of, named: its attributes, then each
    morph target's (TARGETn/NAME), sorted for a stable tuple."""
    named = [(name, acc) for name, acc in sorted(prim["attributes"].items())]
    for t, target in enumerate(prim.get("targets", [])):
        named += [("TARGET%d/%s" % (t, name), acc) for name, acc in sorted(target.items())]
    return named


def save(path, doc, buffers, container, bin_name=None):
    """Writes a glTF in one of the containers: "glb" (buffer 0 in the BIN chunk), "external"
    (buffer i in BIN_NAME, or BIN_NAME with i appended before the dot for i > 0) or "data"
    (every buffer as a base64 data: URI). DOC is copied, its buffers' uri/byteLength set."""
    doc = json.loads(json.dumps(doc))
    for i, data in enumerate(buffers):
        doc["buffers"][i]["byteLength"] = len(data)
        doc["buffers"][i].pop("uri", None)
    folder = os.path.dirname(os.path.abspath(path))
    if container == "glb":
        if len(buffers) != 1:
            raise ValueError("this writer puts exactly one buffer in a GLB")
        text = _pad4(json.dumps(doc, separators=(",", ":")).encode("utf-8"), b" ")
        body = _pad4(buffers[0], b"\0")
        total = 12 + 8 + len(text) + 8 + len(body)
        blob = struct.pack("<III", GLB_MAGIC, 2, total) + struct.pack("<II", len(text), CHUNK_JSON) + text \
            + struct.pack("<II", len(body), CHUNK_BIN) + body
        with open(path, "wb") as f:
            f.write(blob)
        return
    for i, data in enumerate(buffers):
        if container == "data":
            doc["buffers"][i]["uri"] = "data:application/octet-stream;base64," + base64.b64encode(data).decode("ascii")
        else:
            stem, ext = os.path.splitext(bin_name)
            name = bin_name if i == 0 else "%s%d%s" % (stem, i, ext)
            with open(os.path.join(folder, name), "wb") as f:
                f.write(data)
            doc["buffers"][i]["uri"] = name
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
