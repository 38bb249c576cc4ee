#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""gpucache's glTF round trips, checked independently of its C reader and writer.

    check_roundtrip.py --cli GPUCACHE --work DIR [--validate] [--self-test-only]

Generates the test files (make_gltf.py), then:
  * checker self-test: every file against itself passes, and deliberately wrong "outputs"
    (a flipped triangle, a changed byte outside the index data, a dropped name, vertices
    moved without their indices) fail, so a pass below means something;
  * optimize -a auto, with and without --reorder-vertices, each file into another folder in
    its own container, and an external-.bin file into its own folder: the output's JSON equals
    the input's as data except an external or data: buffer's uri; the bytes outside the
    rewritten bufferViews (triangle-list index data, and with --reorder-vertices the vertex
    attribute views) are identical; each triangle list's triangles are a permutation of the
    input's with winding kept, compared as tuples of every attribute's bytes (morph targets,
    JOINTS/WEIGHTS included); strips, fans, points and lines draw the same sequence; the
    input files are untouched; external images are copied beside an output in another folder,
    and optimize names them; several external buffers go to distinct files, never over one of
    the input's; a triangle list whose vertices --reorder-vertices leaves alone (shared,
    aliased or sparse accessors) is named on stderr; at least one index buffer and one vertex
    set change over the run (a copying "optimizer" fails);
  * Draco and EXT_meshopt_compression files: exit 1, one line naming the extension, no output;
  * broken files (an index past the vertices, an accessor past its bufferView, a bufferView
    past its buffer, float indices, attributes of unequal counts, a short data: URI): exit 1,
    one line naming the file and the JSON path, no output (or, where refusing is not
    required, no crash);
  * analyze --json on each file equals, draw by draw and in sum, analyze of each primitive's
    index data extracted here (as a .txt with its topology);
  * issue 30, with ../shared/corpus: stanford-bunny as a GLB through optimize --reorder-vertices
    keeps every attribute with its vertex and fetches fewer bytes (meshopt_analyzeVertexFetch's
    rule, here) than the same triangles numbered by first use;
  * --validate: the Khronos validator (validate.js) finds no error in an output that its
    input did not have (exit 77, skipped, when node or the validator is missing).
Exit status: 0 all passed, 1 a check failed, 77 skipped.
"""
import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import gltfio  # noqa: E402
import make_gltf  # noqa: E402

TOPOLOGY = {0: "point-list", 1: "line-list", 2: "line-loop", 3: "line-strip", 4: "triangle-list",
            5: "triangle-strip", 6: "triangle-fan"}

failures = []
passes = [0]
quiet = [False]  # the checker's self-test expects failures: it reports them itself


def check(cond, what):
    if cond:
        passes[0] += 1
    else:
        failures.append(what)
        if not quiet[0]:
            print("FAIL: " + what, flush=True)
    return cond


def json_diff(a, b, path="$"):
    """The first JSON path where A and B differ as data (None when equal)."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return "%s.%s (%s)" % (path, k, "added" if k not in a else "missing")
            d = json_diff(a[k], b[k], "%s.%s" % (path, k))
            if d:
                return d
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return "%s (length %d, was %d)" % (path, len(b), len(a))
        for i, (x, y) in enumerate(zip(a, b)):
            d = json_diff(x, y, "%s[%d]" % (path, i))
            if d:
                return d
        return None
    if isinstance(a, bool) != isinstance(b, bool) or a != b:
        return "%s (%r, was %r)" % (path, b, a)
    return None


def primitives(asset):
    for m, mesh in enumerate(asset.doc.get("meshes", [])):
        for p, prim in enumerate(mesh["primitives"]):
            yield m, p, prim


def vertex_tuples(asset, prim):
    """One bytes object per vertex of the primitive: every attribute's and morph target's
    element bytes, concatenated in a fixed order."""
    cols = [gltfio.accessor_elements(asset, acc) for _, acc in gltfio.vertex_attribute_accessors(prim)]
    return [b"|".join(c[v] for c in cols) for v in range(len(cols[0]))]


def attribute_views(asset, prim):
    """The bufferViews a primitive's vertex data lives in, sparse substitutions included."""
    views = set()
    for _, a in gltfio.vertex_attribute_accessors(prim):
        acc = asset.doc["accessors"][a]
        if "bufferView" in acc:
            views.add(acc["bufferView"])
        if "sparse" in acc:
            views |= {acc["sparse"]["indices"]["bufferView"], acc["sparse"]["values"]["bufferView"]}
    return views


def index_range(asset, accessor):
    """(buffer, first byte, end byte) of an index accessor's elements."""
    a = asset.doc["accessors"][accessor]
    v = asset.doc["bufferViews"][a["bufferView"]]
    start = v.get("byteOffset", 0) + a.get("byteOffset", 0)
    return v["buffer"], start, start + a["count"] * gltfio.element_size(a)


def compare(inp, out, reorder):
    """Checks OUT (a path) as an optimize output of INP; returns what changed:
    {"index": n primitives whose index bytes changed, "vertex": n whose vertex bytes changed}."""
    tag = "%s -> %s%s" % (os.path.basename(inp), os.path.relpath(out, os.path.dirname(os.path.dirname(out))),
                          " (--reorder-vertices)" if reorder else "")
    a = gltfio.load(inp)
    try:
        b = gltfio.load(out)
    except (OSError, ValueError, gltfio.GltfError, KeyError, IndexError) as e:
        check(False, "%s: output unreadable: %s" % (tag, e))
        return {"index": 0, "vertex": 0}
    changed = {"index": 0, "vertex": 0}
    check(a.container == b.container, "%s: container %s, was %s" % (tag, b.container, a.container))
    # JSON as data, the buffers' uri apart.
    da, db = json.loads(json.dumps(a.doc)), json.loads(json.dumps(b.doc))
    out_stem = os.path.splitext(os.path.basename(out))[0]
    same_folder = os.path.samefile(os.path.dirname(os.path.abspath(inp)), os.path.dirname(os.path.abspath(out)))
    for i, kind in enumerate(a.kinds):
        if i >= len(b.kinds):
            break
        check(b.kinds[i] == kind, "%s: buffers[%d] stored as %s, was %s" % (tag, i, b.kinds[i], kind))
        if kind == "external":
            uri_a, uri_b = da["buffers"][i].get("uri"), db["buffers"][i].get("uri", "")
            check("/" not in uri_b and "\\" not in uri_b and uri_b.startswith(out_stem),
                  "%s: buffers[%d].uri %r is not a file beside the output named after it" % (tag, i, uri_b))
            if same_folder:
                check(uri_b != uri_a, "%s: buffers[%d] written over the input's %s" % (tag, i, uri_a))
        for d in (da, db):
            d["buffers"][i].pop("uri", None)
    outside = [u.get("uri") for u in b.doc.get("buffers", []) if u.get("uri") and not u["uri"].startswith("data:")]
    check(len(set(outside)) == len(outside), "%s: two buffers written to one file: %s" % (tag, outside))
    diff = json_diff(da, db)
    check(diff is None, "%s: JSON differs at %s" % (tag, diff))
    if diff and ("bufferViews" in diff or "accessors" in diff or "buffers" in diff):
        return changed
    # External images are still referenced, and beside the output.
    for i, img in enumerate(a.doc.get("images", [])):
        uri = img.get("uri", "")
        if uri and not uri.startswith("data:"):
            src = os.path.join(os.path.dirname(os.path.abspath(inp)), urllib.parse.unquote(uri))
            dst = os.path.join(os.path.dirname(os.path.abspath(out)), urllib.parse.unquote(uri))
            check(os.path.isfile(dst) and open(dst, "rb").read() == open(src, "rb").read(),
                  "%s: images[%d] %s not beside the output" % (tag, i, uri))
    if a.container == "glb" and b.bin_chunk_len is not None:
        check(b.bin_chunk_len - b.doc["buffers"][0]["byteLength"] in range(4),
              "%s: BIN chunk of %d bytes for byteLength %d" % (tag, b.bin_chunk_len, b.doc["buffers"][0]["byteLength"]))
    # Which bytes may change: the index elements of triangle lists (of every indexed
    # primitive with --reorder-vertices, renumbered), and the attribute views of reordered ones.
    may = [bytearray(len(buf)) for buf in a.buffers]
    views = a.doc.get("bufferViews", [])
    for _, _, prim in primitives(a):
        if "indices" in prim and (prim.get("mode", 4) == 4 or reorder):
            buf, s, e = index_range(a, prim["indices"])
            may[buf][s:e] = b"\1" * (e - s)
        if reorder:
            for v in attribute_views(a, prim):
                s = views[v].get("byteOffset", 0)
                may[views[v]["buffer"]][s:s + views[v]["byteLength"]] = b"\1" * views[v]["byteLength"]
    for i, (x, y) in enumerate(zip(a.buffers, b.buffers)):
        if not check(len(x) == len(y), "%s: buffers[%d] has %d bytes, was %d" % (tag, i, len(y), len(x))):
            continue
        bad = [k for k in range(len(x)) if x[k] != y[k] and not may[i][k]]
        view = None
        if bad:
            view = next((j for j, v in enumerate(views) if v["buffer"] == i and
                         v.get("byteOffset", 0) <= bad[0] < v.get("byteOffset", 0) + v["byteLength"]), None)
        check(not bad, "%s: buffers[%d] changed outside the rewritten data: %d bytes from byte %s (bufferViews[%s])"
              % (tag, i, len(bad), bad[0] if bad else "", view))
    # Triangles, as tuples of attribute bytes, winding kept.
    for m, p, prim in primitives(a):
        where = "%s: meshes[%d].primitives[%d]" % (tag, m, p)
        prim_b = b.doc["meshes"][m]["primitives"][p]
        ia, ib = gltfio.primitive_indices(a, prim), gltfio.primitive_indices(b, prim_b)
        ta, tb = vertex_tuples(a, prim), vertex_tuples(b, prim_b)
        if not check(len(ia) == len(ib) and max(ib, default=0) < max(len(tb), 1),
                     "%s: %d indices (largest %d) for %d vertices" % (where, len(ib), max(ib, default=0), len(tb))):
            continue
        if ia != ib:
            changed["index"] += 1
        if ta != tb:
            changed["vertex"] += 1
        check(sorted(ta) == sorted(tb), "%s: vertices are not a permutation of the input's" % where)
        if not reorder:
            check(ta == tb, "%s: vertex data changed without --reorder-vertices" % where)
        mode = prim.get("mode", 4)
        if mode == 4:
            ca = sorted(gltfio.canonical_triangle(tuple(ta[v] for v in t)) for t in gltfio.triangles(4, ia))
            cb = sorted(gltfio.canonical_triangle(tuple(tb[v] for v in t)) for t in gltfio.triangles(4, ib))
            kept = set(cb)
            lost = len([t for t in ca if t not in kept]) if ca != cb else 0
            check(ca == cb, "%s: triangles are not a permutation of the input's, winding kept (%d of %d differ)"
                  % (where, max(lost, 1), len(ca)))
        else:
            check([ta[v] for v in ia] == [tb[v] for v in ib],
                  "%s: its %s draw changed (only triangle lists may be reordered)%s" % (
                      where, gltfio.MODE_NAME[mode], " (indices accessors[%d])" % prim["indices"] if "indices" in prim else ""))
    return changed


def exit_text(rc):
    return "crashed (signal %d)" % -rc if rc < 0 else "exit %d" % rc


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)


def digest(folder):
    return {f: hashlib.sha256(open(os.path.join(folder, f), "rb").read()).hexdigest()
            for f in sorted(os.listdir(folder)) if os.path.isfile(os.path.join(folder, f))}


def rewrite(src, dst, edit_doc=None, edit_buffers=None):
    """Writes a modified copy of SRC at DST (same container; DST's .bin named after it)."""
    a = gltfio.load(src)
    doc = json.loads(json.dumps(a.doc))
    bufs = [bytearray(x) for x in a.buffers]
    if edit_doc:
        edit_doc(doc)
    if edit_buffers:
        edit_buffers(a, doc, bufs)
    for img in doc.get("images", []):
        uri = img.get("uri", "")
        if uri and not uri.startswith("data:"):
            shutil.copyfile(os.path.join(os.path.dirname(src), uri), os.path.join(os.path.dirname(dst), uri))
    container = {"glb": "glb", "external": "external", "data": "data"}[a.kinds[0]]
    gltfio.save(dst, doc, [bytes(x) for x in bufs], container,
                bin_name=os.path.splitext(os.path.basename(dst))[0] + ".bin")


def self_test(files, src_dir, work):
    """The checker must pass identical files and correct permutations, and catch wrong ones."""
    d = os.path.join(work, "self")
    os.makedirs(d, exist_ok=True)
    before = len(failures)
    for f in files:
        dst = os.path.join(d, f)
        rewrite(os.path.join(src_dir, f), dst)
        compare(os.path.join(src_dir, f), dst, False)
        compare(os.path.join(src_dir, f), dst, True)

    def list_prim(a):
        return next(prim for _, _, prim in primitives(a) if prim.get("mode", 4) == 4 and "indices" in prim)

    def put_indices(a, bufs, acc, idx):
        buf, s, _ = index_range(a, acc)
        code, size = gltfio.COMPONENTS[a.doc["accessors"][acc]["componentType"]]
        for k, v in enumerate(idx):
            bufs[buf][s + k * size: s + (k + 1) * size] = gltfio.struct.pack("<" + code, v)

    def reverse_and_rotate(a, doc, bufs):  # a correct optimizer's output: must pass
        prim = list_prim(a)
        tris = gltfio.triangles(4, gltfio.accessor_ints(a, prim["indices"]))[::-1]
        put_indices(a, bufs, prim["indices"], [i for t in tris for i in t[1:] + t[:1]])

    def flip_one(a, doc, bufs):  # one triangle's winding flipped: must fail
        prim = list_prim(a)
        idx = gltfio.accessor_ints(a, prim["indices"])
        idx[0], idx[1] = idx[1], idx[0]
        put_indices(a, bufs, prim["indices"], idx)

    def touch_normal(a, doc, bufs):  # a vertex byte changed: must fail
        prim = list_prim(a)
        acc = doc["accessors"][prim["attributes"]["NORMAL"]]
        view = doc["bufferViews"][acc["bufferView"]]
        bufs[view["buffer"]][view.get("byteOffset", 0) + acc.get("byteOffset", 0) + 3] ^= 0x40

    def swap_positions(a, doc, bufs):  # two vertices' positions swapped, indices kept: must fail
        prim = list_prim(a)
        acc = doc["accessors"][prim["attributes"]["POSITION"]]
        view = doc["bufferViews"][acc["bufferView"]]
        stride = view.get("byteStride", 12)
        s = view.get("byteOffset", 0) + acc.get("byteOffset", 0)
        buf = bufs[view["buffer"]]
        buf[s:s + 12], buf[s + stride:s + stride + 12] = bytes(buf[s + stride:s + stride + 12]), bytes(buf[s:s + 12])

    def permute_vertices(a, doc, bufs, renumber=True):  # vertices reversed, indices renumbered: passes with reorder
        for _, _, prim in primitives(a):
            n = doc["accessors"][prim["attributes"]["POSITION"]]["count"]
            for _, acc_i in gltfio.vertex_attribute_accessors(prim):
                acc = doc["accessors"][acc_i]
                view = doc["bufferViews"][acc["bufferView"]]
                size = gltfio.element_size(acc)
                stride = view.get("byteStride", size)
                s = view.get("byteOffset", 0) + acc.get("byteOffset", 0)
                buf = bufs[view["buffer"]]
                el = [bytes(buf[s + k * stride: s + k * stride + size]) for k in range(n)]
                for k in range(n):
                    buf[s + k * stride: s + k * stride + size] = el[n - 1 - k]
            if renumber:
                put_indices(a, bufs, prim["indices"], [n - 1 - i for i in gltfio.accessor_ints(a, prim["indices"])])

    def permute_vertices_only(a, doc, bufs):  # the same vertex set, the indices not following: must fail
        permute_vertices(a, doc, bufs, renumber=False)

    def drop_name(doc):
        del doc["meshes"][0]["name"]

    def trs_to_matrix(doc):
        n = doc["nodes"][0]
        for k in ("translation", "rotation", "scale"):
            n.pop(k, None)
        n["matrix"] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]

    good = [("reversed+rotated triangles", "lists.glb", None, reverse_and_rotate, False),
            ("vertices permuted, indices renumbered", "quantized.gltf", None, permute_vertices, True)]
    bad = [("one flipped triangle", "lists.glb", None, flip_one, False),
           ("one flipped triangle", "quantized-data.gltf", None, flip_one, True),
           ("a normal byte changed", "lists.gltf", None, touch_normal, False),
           ("a normal byte changed", "morph_skin.glb", None, touch_normal, True),
           ("vertices permuted without --reorder-vertices", "quantized.gltf", None, permute_vertices, False),
           ("two positions swapped, indices kept", "shared.glb", None, swap_positions, True),
           ("vertices permuted, indices not renumbered", "quantized.glb", None, permute_vertices_only, True),
           ("a mesh name dropped", "lists.gltf", drop_name, None, False),
           ("TRS made a matrix", "lists-data.gltf", trs_to_matrix, None, True)]
    for what, f, ed, eb, reorder in good + bad:
        dst = os.path.join(d, "edited-" + f)
        rewrite(os.path.join(src_dir, f), dst, ed, eb)
        n = len(failures)
        quiet[0] = True
        compare(os.path.join(src_dir, f), dst, reorder)
        quiet[0] = False
        caught = failures[n:]
        del failures[n:]
        if (what, f, ed, eb, reorder) in good:
            check(not caught, "checker self-test: %s (%s) was rejected: %s" % (what, f, caught[:1]))
        else:
            check(caught, "checker self-test: %s (%s) was not caught" % (what, f))
            if caught:
                print("checker self-test: %s (%s) caught: %s" % (what, f, caught[0].split(": ", 1)[1]))
    print("checker self-test: %s" % ("ok" if len(failures) == before else "FAILED"), flush=True)


def optimize_all(cli, files, src_dir, work, checked=True):
    """optimize every file, with and without --reorder-vertices; returns [(input, output, reorder)].
    CHECKED: compare each output with its input (the validator test only needs the outputs)."""
    done = []
    totals = {False: {"index": 0, "vertex": 0}, True: {"index": 0, "vertex": 0}}
    for reorder in (False, True):
        d = os.path.join(work, "reorder" if reorder else "plain")
        os.makedirs(d, exist_ok=True)
        for f in files:
            inp, out = os.path.join(src_dir, f), os.path.join(d, f)
            cmd = [cli, "optimize", "-a", "auto", inp, "-o", out] + (["--reorder-vertices"] if reorder else [])
            r = run(cmd)
            if not check(r.returncode == 0, "%s: %s: %s" % (" ".join(cmd[1:]), exit_text(r.returncode),
                                                            r.stderr.decode(errors="replace").strip()[:300])):
                continue
            done.append((inp, out, reorder))
            if not checked:
                continue
            c = compare(inp, out, reorder)
            for k in c:
                totals[reorder][k] += c[k]
            # An image copied beside the output is said so (issue 17, item 3).
            said = (r.stdout + r.stderr).decode(errors="replace")
            for img in gltfio.load(inp).doc.get("images", []):
                uri = img.get("uri", "")
                if uri and not uri.startswith("data:"):
                    check(uri in said, "%s: the image %s was copied beside the output without a word" % (f, uri))
            if reorder:
                stderr = r.stderr.decode(errors="replace")
                a = gltfio.load(inp)
                b = gltfio.load(out)
                for m, p, prim in primitives(a):
                    if prim.get("mode", 4) == 4 and "indices" in prim and \
                            vertex_tuples(a, prim) == vertex_tuples(b, b.doc["meshes"][m]["primitives"][p]):
                        check("meshes[%d].primitives[%d]" % (m, p) in stderr, "%s --reorder-vertices: meshes[%d]."
                              "primitives[%d] left in its vertex order, and stderr does not name it" % (f, m, p))
    if not checked:
        return done
    # An optimizer that copies its input would pass every check above: it must not.
    check(totals[False]["index"] > 0, "optimize rewrote no index data in any file")
    check(totals[True]["vertex"] > 0, "optimize --reorder-vertices moved no vertex in any file")
    print("optimize: %d primitives reordered, %d with their vertices renumbered"
          % (totals[False]["index"], totals[True]["vertex"]), flush=True)
    # Into the input's own folder: the external .bin goes under the output's name.
    for f in ("lists.gltf", "shared.gltf"):
        out = os.path.join(src_dir, "same-folder-" + f)
        r = run([cli, "optimize", "-a", "auto", os.path.join(src_dir, f), "-o", out, "--reorder-vertices"])
        if check(r.returncode == 0, "optimize %s into its own folder: %s: %s" % (f, exit_text(r.returncode), r.stderr.decode(errors="replace").strip()[:300])):
            compare(os.path.join(src_dir, f), out, True)
            check(os.path.isfile(os.path.join(src_dir, "same-folder-" + f[:-5] + ".bin")),
                  "optimize %s into its own folder: no same-folder-%s.bin" % (f, f[:-5]))
            done.append((os.path.join(src_dir, f), out, True))
    # An output whose .bin, named after it, would be one of the input's own buffers
    # ('two_buffers indices.bin'): refused (exit 2, as for any output over an input) or
    # written under another name; the input's buffer is never replaced.
    f = "two_buffers.gltf"
    victim = os.path.join(src_dir, "two_buffers indices.bin")
    before = open(victim, "rb").read()
    out = os.path.join(src_dir, "two_buffers indices.gltf")
    r = run([cli, "optimize", "-a", "auto", os.path.join(src_dir, f), "-o", out])
    check(open(victim, "rb").read() == before, "optimize %s -o '%s': the input's buffer %s was replaced"
          % (f, os.path.basename(out), os.path.basename(victim)))
    if check(r.returncode in (0, 2), "optimize %s -o '%s': %s, want 0 or 2: %s" % (
            f, os.path.basename(out), exit_text(r.returncode), r.stderr.decode(errors="replace").strip()[:300])):
        if r.returncode == 0:
            compare(os.path.join(src_dir, f), out, False)
        else:
            check(not os.path.exists(out), "optimize %s -o '%s' refused, yet wrote it" % (f, os.path.basename(out)))
    return done


def refusals(cli, manifest, src_dir, work):
    d = os.path.join(work, "refused")
    os.makedirs(d, exist_ok=True)
    for item in manifest["refuse"]:
        for reorder in (False, True):
            out = os.path.join(d, "out-" + item["file"])
            cmd = [cli, "optimize", "-a", "auto", os.path.join(src_dir, item["file"]), "-o", out] + \
                (["--reorder-vertices"] if reorder else [])
            r = run(cmd)
            err = r.stderr.decode(errors="replace")
            lines = [x for x in err.split("\n") if x.strip()]
            check(r.returncode == 1, "%s: %s, want exit 1" % (" ".join(cmd[1:]), exit_text(r.returncode)))
            check(len(lines) == 1 and item["extension"] in lines[0],
                  "%s: stderr is not one line naming %s: %r" % (item["file"], item["extension"], err[:300]))
            check(os.listdir(d) == [], "%s: left %s behind" % (item["file"], os.listdir(d)))
            for x in os.listdir(d):
                os.unlink(os.path.join(d, x))


def hostile(cli, src_dir, work):
    """Broken files (made here from quantized.gltf, one mesh, one primitive: accessors 0-2 its
    attributes, 3 its u16 indices in bufferViews[3]): where the command must refuse, exit 1
    with one line naming the file and a JSON path, and no output; elsewhere, at least no
    crash and no partial output."""
    d = os.path.join(work, "hostile")
    out_dir = os.path.join(d, "out")
    os.makedirs(out_dir, exist_ok=True)

    def bad_index(a, doc, bufs):
        buf, s, _ = index_range(a, 3)
        bufs[buf][s:s + 2] = gltfio.struct.pack("<H", 60000)

    def grow(key, i, field, by):
        return lambda doc: doc[key][i].__setitem__(field, doc[key][i][field] + by)
    A, O, R = "analyze", "optimize", "optimize --reorder-vertices"
    cases = [  # name, source, JSON edit, buffer edit, {command: must refuse}, JSON paths accepted
        ("index-out-of-range", "quantized.gltf", None, bad_index, {R: True, O: False, A: False},
         ("meshes[0].primitives[0]", "accessors[3]")),
        ("accessor-past-view", "quantized.gltf", grow("accessors", 3, "count", 30), None, {A: True, O: True, R: True},
         ("accessors[3]", "meshes[0].primitives[0].indices")),
        ("view-past-buffer", "quantized.gltf", grow("bufferViews", 3, "byteLength", 4096), None,
         {A: True, O: True, R: True}, ("bufferViews[3]", "accessors[3]", "meshes[0].primitives[0].indices")),
        ("float-indices", "quantized.gltf", lambda doc: doc["accessors"][3].__setitem__("componentType", 5126), None,
         {A: True, O: True, R: True}, ("accessors[3]", "meshes[0].primitives[0].indices")),
        ("unequal-attribute-counts", "quantized.gltf", grow("accessors", 1, "count", -1), None, {R: True},
         ("meshes[0].primitives[0]", "accessors[1]")),
    ]
    for name, src, ed, eb, expect, paths in cases:
        f = os.path.join(d, name + ".gltf")
        rewrite(os.path.join(src_dir, src), f, ed, eb)
        for cmd_name, must in expect.items():
            out = os.path.join(out_dir, name + ".gltf")
            cmd = {A: [cli, "analyze", f], O: [cli, "optimize", "-a", "auto", f, "-o", out],
                   R: [cli, "optimize", "-a", "auto", "--reorder-vertices", f, "-o", out]}[cmd_name]
            r = run(cmd)
            err = r.stderr.decode(errors="replace")
            lines = [x for x in err.split("\n") if x.strip()]
            tag = "%s: %s" % (name, cmd_name)
            check(r.returncode >= 0, "%s: %s" % (tag, exit_text(r.returncode)))
            if must or r.returncode != 0:
                check(r.returncode == 1, "%s: %s, want exit 1: %r" % (tag, exit_text(r.returncode), err[:200]))
                check(len(lines) == 1 and name + ".gltf" in lines[0] and any(p in lines[0] for p in paths),
                      "%s: stderr is not one line naming the file and one of %s: %r" % (tag, paths, err[:300]))
                check(not os.listdir(out_dir), "%s: left %s behind" % (tag, os.listdir(out_dir)))
            for x in os.listdir(out_dir):
                os.unlink(os.path.join(out_dir, x))
    # A data: URI that decodes to fewer bytes than its byteLength.
    f = os.path.join(d, "data-short.gltf")
    rewrite(os.path.join(src_dir, "quantized-data.gltf"), f)
    doc = json.load(open(f))
    doc["buffers"][0]["byteLength"] += 64
    json.dump(doc, open(f, "w"))
    r = run([cli, "analyze", f])
    err = r.stderr.decode(errors="replace").strip()
    check(r.returncode == 1 and "\n" not in err and "data-short.gltf" in err and "buffers[0]" in err,
          "data-short.gltf: analyze %s, want exit 1 and one line naming buffers[0]: %r" % (exit_text(r.returncode), err[:300]))


def near(x, y):
    """Equal as the CLI prints ratios (about 9 significant digits)."""
    if x is None or y is None:
        return x is None and y is None
    return abs(x - y) <= 1e-7 * max(1.0, abs(x), abs(y))


def analyze_json(cli, args):
    r = run([cli, "analyze", "--json"] + args)
    if r.returncode != 0:
        return None, "%s: %s" % (exit_text(r.returncode), r.stderr.decode(errors="replace").strip()[:300])
    try:
        return json.loads(r.stdout.decode()), None
    except ValueError as e:
        return None, "not JSON: %s" % e


# Models given with -m in a second pass over some files: batch counts batches, llvmpipe keys on
# index values, nvidia has lifetimes; each must sum over draws like the presets.
EXTRA_MODELS = ["-m", "fifo:8", "-m", "batch", "-m", "llvmpipe", "-m", "nvidia", "-m", "direct-value:16"]


def analyze_check(cli, files, src_dir, work):
    d = os.path.join(work, "analyze")
    os.makedirs(d, exist_ok=True)
    runs = [(f, []) for f in files] + [(f, EXTRA_MODELS) for f in files if f.endswith(".glb")]
    for f, models in runs:
        path = os.path.join(src_dir, f)
        whole, err = analyze_json(cli, models + [path])
        if not check(whole is not None, "analyze --json %s: %s" % (f, err)):
            continue
        a = gltfio.load(path)
        draws = whole.get("draws")
        prims = list(primitives(a))
        if not check(isinstance(draws, list) and len(draws) == len(prims),
                     "analyze %s: \"draws\" has %s entries for %d primitives" % (f, len(draws) if isinstance(draws, list) else draws, len(prims))):
            continue
        sums = {"indices": 0, "primitives": 0, "vertices": 0}
        inv = {}
        for k, ((m, p, prim), draw) in enumerate(zip(prims, draws)):
            where = "analyze %s: draws[%d]" % (f, k)
            mode = prim.get("mode", 4)
            itype = gltfio.INDEX_TYPE_NAME[a.doc["accessors"][prim["indices"]]["componentType"]] if "indices" in prim else "none"
            want = {"mesh": m, "mesh_name": a.doc["meshes"][m].get("name"), "primitive": p,
                    "mode": gltfio.MODE_NAME[mode], "index_type": itype}
            got = {key: draw.get(key, "(absent)") for key in want}
            check(got == want, "%s: %s, want %s" % (where, got, want))
            txt = os.path.join(d, "%s-%d.txt" % (f.replace(".", "_"), k))
            where += " (%s)" % (" ".join(models) if models else "presets")
            with open(txt, "w") as t:
                t.write(" ".join(str(i) for i in gltfio.primitive_indices(a, prim)) + "\n")
            one, err = analyze_json(cli, models + ["-t", TOPOLOGY[mode], txt])
            if not check(one is not None, "%s: analyze of the extracted indices: %s" % (where, err)):
                continue
            for key in sums:
                check(draw.get(key) == one[key], "%s: %s %s, extracted %s" % (where, key, draw.get(key), one[key]))
                sums[key] += one[key]
            # the presets' meshlet rows (issue 31 item 2): a draw's are those of its extracted indices
            check(draw.get("meshlets") == one.get("meshlets"),
                  "%s: meshlets %s, extracted %s" % (where, draw.get("meshlets"), one.get("meshlets")))
            dm = {x["model"]: x for x in draw.get("models", [])}
            check([x["model"] for x in draw.get("models", [])] == [x["model"] for x in one["models"]],
                  "%s: models %s, extracted %s" % (where, list(dm), [x["model"] for x in one["models"]]))
            for x in one["models"]:
                y = dm.get(x["model"], {})
                for key in ("family", "invocations", "batches"):
                    check(y.get(key) == x[key], "%s: %s %s %s, extracted %s" % (where, x["model"], key, y.get(key), x[key]))
                for key in ("acmr", "atvr"):
                    check(near(y.get(key), x[key]), "%s: %s %s %s, extracted %s" % (where, x["model"], key, y.get(key), x[key]))
                s = inv.setdefault(x["model"], [0, 0])
                s[0] += x["invocations"]
                s[1] = None if x["batches"] is None or s[1] is None else s[1] + x["batches"]
        for key in sums:
            check(whole.get(key) == sums[key], "analyze %s: %s %s, sum of draws %s" % (f, key, whole.get(key), sums[key]))
        for x in whole.get("models", []):
            s = inv.get(x["model"])
            if not check(s is not None, "analyze %s: model %s in the sum, in no draw" % (f, x["model"])):
                continue
            check(x["invocations"] == s[0], "analyze %s: %s invocations %s, sum of draws %s" % (f, x["model"], x["invocations"], s[0]))
            check(x.get("batches") == s[1], "analyze %s: %s batches %s, sum of draws %s" % (f, x["model"], x.get("batches"), s[1]))
            check(near(x["acmr"], s[0] / sums["primitives"]) and near(x["atvr"], s[0] / sums["vertices"]),
                  "analyze %s: %s acmr %s atvr %s, sums give %s %s" % (f, x["model"], x["acmr"], x["atvr"],
                                                                         s[0] / sums["primitives"], s[0] / sums["vertices"]))
        check(len(whole.get("models", [])) == len(inv), "analyze %s: %d models in the sum, %d in the draws" % (f, len(whole.get("models", [])), len(inv)))


def meshopt_bytes(indices, vertex_bytes=32):
    """meshopt_analyzeVertexFetch's bytes (every reference, a direct-mapped 128 KiB cache of
    64-byte lines), transcribed from its rule."""
    cache, total = {}, 0
    for v in indices:
        start = v * vertex_bytes
        for tag in range(start // 64, (start + vertex_bytes + 63) // 64):
            if cache.get(tag % 2048) != tag:
                total += 64
                cache[tag % 2048] = tag
    return total


def corpus_fetch(cli, work, checked=True):
    """Issue 30: stanford-bunny (../shared/corpus) as a GLB through optimize --reorder-vertices:
    every attribute permuted with the positions (compare), and the index data numbered for
    meshoptimizer's fetch model: fewer bytes than the same triangles numbered by first use.
    Returns the (input, output, reorder) pair for the validator; [] without the corpus."""
    obj = os.path.join(HERE, "..", "..", "..", "shared", "corpus", "stanford-bunny.obj")
    if not os.path.isfile(obj):
        print("corpus: no %s: the corpus glTF case is skipped" % obj)
        return []
    d = os.path.join(work, "corpus")
    os.makedirs(d, exist_ok=True)
    inp, out = os.path.join(d, "bunny.glb"), os.path.join(d, "bunny-reordered.glb")
    r = run([sys.executable, os.path.join(HERE, "make_gltf.py"), "--from-obj", obj, "--index", "u32", "-o", inp])
    if not check(r.returncode == 0, "make_gltf.py --from-obj %s: %s" % (obj, r.stderr.decode(errors="replace")[:300])):
        return []
    r = run([cli, "optimize", "-a", "auto", "--reorder-vertices", inp, "-o", out])
    if not check(r.returncode == 0, "optimize --reorder-vertices bunny.glb: %s: %s" % (
            exit_text(r.returncode), r.stderr.decode(errors="replace").strip()[:300])):
        return []
    if checked:
        c = compare(inp, out, True)
        check(c["vertex"] == 1, "bunny.glb --reorder-vertices: its vertices were not renumbered")
        b = gltfio.load(out)
        idx = gltfio.primitive_indices(b, b.doc["meshes"][0]["primitives"][0])
        first, seen = [], {}
        for v in idx:
            first.append(seen.setdefault(v, len(seen)))
        written, first_use = meshopt_bytes(idx), meshopt_bytes(first)
        print("corpus: bunny.glb --reorder-vertices: meshopt:32 %d bytes, %d numbered by first use"
              % (written, first_use), flush=True)
        check(written < first_use, "bunny.glb --reorder-vertices: %d bytes fetched, first use %d" % (written, first_use))
    return [(inp, out, True)]


def validate(pairs, node):
    """Runs validate.js over every input and output at once; an output may have no error code
    (or more of one) that its input did not have."""
    files = sorted({p for pair in pairs for p in pair[:2]})
    r = run([node, os.path.join(HERE, "validate.js")] + files)
    if r.returncode == 3:
        print("skipped: " + r.stderr.decode(errors="replace").strip())
        sys.exit(77)
    reports = {}
    for line in r.stdout.decode().splitlines():
        rep = json.loads(line)
        reports[rep["file"]] = rep
    for inp in sorted({p[0] for p in pairs}):
        ri = reports.get(inp, {})
        check(ri.get("errors") == 0, "validator: generated input %s is not valid: %s" % (os.path.basename(inp), ri))
    for inp, out, reorder in pairs:
        ri, ro = reports.get(inp), reports.get(out)
        tag = "validator: %s%s" % (os.path.relpath(out, os.path.dirname(os.path.dirname(out))), " (--reorder-vertices)" if reorder else "")
        if not check(ri and ro and "failed" not in ri and "failed" not in ro, "%s: not validated: %s %s" % (tag, ri, ro)):
            continue
        new = {c: n for c, n in ro["error_codes"].items() if n > ri["error_codes"].get(c, 0)}
        check(not new, "%s: new errors %s: %s" % (tag, new, ro["messages"][:2]))
    print("validator: %d files, %d errors in inputs, %d in outputs" % (
        len(reports), sum(reports[p[0]]["errors"] for p in pairs if p[0] in reports and "errors" in reports[p[0]]),
        sum(reports[p[1]]["errors"] for p in pairs if p[1] in reports and "errors" in reports[p[1]])))


def main():
    ap = argparse.ArgumentParser(description="gpucache glTF round-trip checks")
    ap.add_argument("--cli", help="the gpucache binary")
    ap.add_argument("--work", required=True)
    ap.add_argument("--validate", action="store_true", help="run the Khronos validator on inputs and outputs")
    ap.add_argument("--node", default=shutil.which("node") or "node")
    ap.add_argument("--self-test-only", action="store_true")
    args = ap.parse_args()
    shutil.rmtree(args.work, ignore_errors=True)
    src = os.path.join(args.work, "in")
    manifest = make_gltf.make_tests(src)
    files = manifest["roundtrip"]
    if args.validate:
        if not shutil.which(args.node):
            print("skipped: node not found")
            return 77
        pairs = optimize_all(args.cli, files, src, args.work, checked=False)
        validate(pairs + corpus_fetch(args.cli, args.work, checked=False), args.node)
    else:
        self_test(files, src, args.work)
        if not args.self_test_only:
            before = digest(src)
            optimize_all(args.cli, files, src, args.work)
            refusals(args.cli, manifest, src, args.work)
            hostile(args.cli, src, args.work)
            analyze_check(args.cli, files, src, args.work)
            corpus_fetch(args.cli, args.work)
            after = digest(src)
            changed = [f for f in before if before[f] != after.get(f)]
            check(not changed, "input files changed: %s" % changed)
    print("%d checks passed, %d failed" % (passes[0], len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
