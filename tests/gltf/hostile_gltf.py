#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Hostile glTF files for tests/security_gltf_reader_test.sh (issue 34, F4 and F6 to F11).

usage: hostile_gltf.py KIND OUT_PATH
Each file is small; what it declares would make a careless reader use memory or time
that grows faster than the file. Sizes are written in the test beside each use."""
import base64
import json
import struct
import sys


def doc(**parts):
    d = {"asset": {"version": "2.0"}}
    d.update(parts)
    return d


def write_json(path, d):
    with open(path, "w") as f:
        json.dump(d, f, separators=(",", ":"))


def data_uri(raw):
    return "data:application/octet-stream;base64," + base64.b64encode(raw).decode()


def triangle_positions(n):
    """n float VEC3 positions, every 3 a triangle."""
    return b"".join(struct.pack("<3f", float(i), float(i % 7), 0.0) for i in range(n))


def shared_positions(path):
    """F6: 10,000 primitives, each with its own POSITION accessor over the same 10,000
    vertices (one view, offset 0, stride 12): 10^8 vertices if each accessor were a set."""
    v, p = 10000, 10000
    raw = triangle_positions(v) + struct.pack("<3H", 0, 1, 2) + b"\0\0"
    views = [{"buffer": 0, "byteOffset": 0, "byteLength": 12 * v},
             {"buffer": 0, "byteOffset": 12 * v, "byteLength": 6}]
    acc = [{"bufferView": 1, "componentType": 5123, "count": 3, "type": "SCALAR"}]
    acc += [{"bufferView": 0, "componentType": 5126, "count": v, "type": "VEC3"} for _ in range(p)]
    prims = [{"attributes": {"POSITION": 1 + i}, "indices": 0} for i in range(p)]
    write_json(path, doc(buffers=[{"byteLength": len(raw), "uri": data_uri(raw)}], bufferViews=views,
                         accessors=acc, meshes=[{"primitives": prims}]))


def shifted_positions(path):
    """F6, beyond what deduplication catches: 10,000 POSITION accessors of 10,000 vertices,
    each 4 bytes further into one view: 10^8 distinct vertices from 1.3 MB."""
    v, p = 10000, 10000
    raw = triangle_positions(v) + b"\0" * (4 * p) + struct.pack("<3H", 0, 1, 2) + b"\0\0"
    views = [{"buffer": 0, "byteOffset": 0, "byteLength": 12 * v + 4 * p},
             {"buffer": 0, "byteOffset": 12 * v + 4 * p, "byteLength": 6}]
    acc = [{"bufferView": 1, "componentType": 5123, "count": 3, "type": "SCALAR"}]
    acc += [{"bufferView": 0, "byteOffset": 4 * i, "componentType": 5126, "count": v, "type": "VEC3"}
            for i in range(p)]
    prims = [{"attributes": {"POSITION": 1 + i}, "indices": 0} for i in range(p)]
    write_json(path, doc(buffers=[{"byteLength": len(raw), "uri": data_uri(raw)}], bufferViews=views,
                         accessors=acc, meshes=[{"primitives": prims}]))


def one_file_many_buffers(path):
    """F7: 100 buffer entries naming one 8 MB file (big.bin beside it): 800 MB if each
    entry read it again."""
    size = 8 << 20
    folder = path.rsplit("/", 1)[0] if "/" in path else "."
    with open(folder + "/big.bin", "wb") as f:
        f.write(triangle_positions(3) + b"\0" * (size - 36))
    views = [{"buffer": 0, "byteOffset": 0, "byteLength": 36}]
    acc = [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3"}]
    write_json(path, doc(buffers=[{"byteLength": size, "uri": "big.bin"} for _ in range(100)], bufferViews=views,
                         accessors=acc, meshes=[{"primitives": [{"attributes": {"POSITION": 0}}]}]))


def viewless_non_indexed(path):
    """F8: one accessor without a buffer view (zeros) of 3 * 330,000 one-byte elements,
    drawn by 4,000 primitives without indices, in a file of about 1 MB (padded, so that
    the accessor is within the bytes the file brings): 4 * 10^9 indices unbounded."""
    n, p = 990000, 4000
    acc = [{"componentType": 5121, "count": n, "type": "SCALAR"}]
    prims = [{"attributes": {"_A": 0}} for _ in range(p)]
    d = doc(accessors=acc, meshes=[{"primitives": prims}])
    d["extras"] = {"pad": "x" * 1000000}
    write_json(path, d)


def shared_indices(path):
    """F9: 200,000 primitives, each pair sharing one index accessor of 3 indices (each
    accessor on bytes of its own)."""
    pairs = 100000
    raw = triangle_positions(3) + struct.pack("<3H", 0, 1, 2) * pairs
    raw += b"\0" * (-len(raw) % 4)
    views = [{"buffer": 0, "byteOffset": 0, "byteLength": 36},
             {"buffer": 0, "byteOffset": 36, "byteLength": 6 * pairs}]
    acc = [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3"}]
    acc += [{"bufferView": 1, "byteOffset": 6 * i, "componentType": 5123, "count": 3, "type": "SCALAR"}
            for i in range(pairs)]
    prims = [{"attributes": {"POSITION": 0}, "indices": 1 + i // 2} for i in range(2 * pairs)]
    write_json(path, doc(buffers=[{"byteLength": len(raw), "uri": data_uri(raw)}], bufferViews=views,
                         accessors=acc, meshes=[{"primitives": prims}]))


def overflow_count(path):
    """F10: 2^57 + 1 one-byte elements with a stride of 128 in a view of 36 bytes:
    (count - 1) * stride is 2^64, which wraps to 0 in 64-bit arithmetic."""
    raw = triangle_positions(3)
    views = [{"buffer": 0, "byteOffset": 0, "byteLength": 36, "byteStride": 128}]
    acc = [{"bufferView": 0, "componentType": 5121, "count": (1 << 57) + 1, "type": "SCALAR"}]
    write_json(path, doc(buffers=[{"byteLength": 36, "uri": data_uri(raw)}], bufferViews=views, accessors=acc,
                         meshes=[{"primitives": [{"attributes": {"_A": 0}}]}]))


def zero_vertices(path):
    """F11: a triangle whose indices (0, 0, 0) name vertices of attributes with 0 elements."""
    raw = struct.pack("<3H", 0, 0, 0) + b"\0\0"
    views = [{"buffer": 0, "byteOffset": 0, "byteLength": 6}, {"buffer": 0, "byteOffset": 0, "byteLength": 8}]
    acc = [{"bufferView": 0, "componentType": 5123, "count": 3, "type": "SCALAR"},
           {"bufferView": 1, "componentType": 5126, "count": 0, "type": "VEC3"}]
    write_json(path, doc(buffers=[{"byteLength": 8, "uri": data_uri(raw)}], bufferViews=views, accessors=acc,
                         meshes=[{"primitives": [{"attributes": {"POSITION": 1}, "indices": 0}]}]))


def nested(path):
    """F4: 64 spaces, then a glTF-looking JSON with objects nested 200,000 deep."""
    with open(path, "w") as f:
        f.write(" " * 64 + '{"asset":{"version":"2.0"},"x":' + '{"a":' * 200000 + "1" + "}" * 200000 + "}")


def fifo_buffer(path):
    """F3: a buffer named by a URI that the test makes a FIFO (fifo.bin)."""
    write_json(path, doc(buffers=[{"byteLength": 36, "uri": "fifo.bin"}],
                         bufferViews=[{"buffer": 0, "byteLength": 36}],
                         accessors=[{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3"}],
                         meshes=[{"primitives": [{"attributes": {"POSITION": 0}}]}]))


def fifo_image(path):
    """F3: a triangle in a data: URI and an image named by a URI the test makes a FIFO."""
    raw = triangle_positions(3)
    write_json(path, doc(buffers=[{"byteLength": 36, "uri": data_uri(raw)}],
                         bufferViews=[{"buffer": 0, "byteLength": 36}],
                         accessors=[{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3"}],
                         images=[{"uri": "fifo.png"}],
                         meshes=[{"primitives": [{"attributes": {"POSITION": 0}}]}]))


KINDS = {"shared-positions": shared_positions, "shifted-positions": shifted_positions, "one-file-many-buffers": one_file_many_buffers,
         "viewless-non-indexed": viewless_non_indexed, "shared-indices": shared_indices,
         "overflow-count": overflow_count, "zero-vertices": zero_vertices, "nested": nested,
         "fifo-buffer": fifo_buffer, "fifo-image": fifo_image}

if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in KINDS:
        sys.exit("usage: hostile_gltf.py %s OUT_PATH" % "|".join(KINDS))
    KINDS[sys.argv[1]](sys.argv[2])
