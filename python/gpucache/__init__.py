# SPDX-License-Identifier: MIT
"""gpucache: what a GPU's vertex caches do with an index buffer, from Python.

A thin layer over the C library (include/gpucache/gpucache.h) through cffi: NumPy arrays go
in and out without a Python loop over indices, and a C-contiguous uint32 array is handed to
the library as it is, without a copy. Every failure of the library raises :class:`Error` with
the library's own one-line message. See docs/python.md.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from ._native import ffi, lib, libc

__all__ = [
    "Error", "ArgumentError", "Mesh", "AnalyzeResult", "Preset", "Catalog", "FitCandidate", "FitResult",
    "MemsysReport", "analyze", "optimize", "models", "grid", "fit", "memsys", "load", "write",
    "TOPOLOGIES", "STRATEGIES", "LAYOUTS", "__version__",
]
__all__ += ["Meshlets", "meshlets", "read_meshlets", "write_meshlets"]
__all__ += ["heatmap", "report"]
__version__ = "0.1.0"

ArrayLike = Any
PathLike = Union[str, "os.PathLike[str]"]

_STATUS_NAMES = {1: "usage", 2: "data", 3: "io", 4: "nomem", 5: "limit", 6: "unsupported"}

# the library's names (gc_topology_name), in the enum's order
TOPOLOGIES = tuple(ffi.string(lib.gc_topology_name(i)).decode() for i in range(lib.GC_TOPOLOGY_COUNT))
STRATEGIES = ("as-written", "l1-bypass", "l2-bypass", "sc-as-uc")  # the CLI's --strategy names
LAYOUTS = ("rowmajor", "striped", "optimal")
# The CLI's names of memsys hazards (tools/cmd_memsys.c), which its JSON carries.
_HAZARD_NAMES = ("cpu-reads-dirty-sc", "gpu-reads-stale-sc", "gc-no-l1-invalidate", "cp-cannot-see-semaphore")
_U32_MAX = 0xFFFFFFFF


class Error(Exception):
    """A failure: the library's one-line message, and its kind in ``code`` ("usage", "data",
    "io", "nomem", "limit", "unsupported")."""

    def __init__(self, message: str, code: str = "usage") -> None:
        super().__init__(message)
        self.message = message
        self.code = code


class ArgumentError(Error, ValueError):
    """A bad argument found before the library is called (dtype, shape, value range)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, "usage")


def _check(status: int, err: Any) -> None:
    """Raises Error with the library's message when a call failed."""
    if status != 0:
        message = ffi.string(err.message).decode("utf-8", "replace")
        raise Error(message or f"gpucache: error {status}", _STATUS_NAMES.get(int(status), str(int(status))))


def _new_error() -> Any:
    return ffi.new("gc_error*")


def _encode_path(path: PathLike) -> bytes:
    return os.fsencode(os.fspath(path))


# ------------------------------------------------------------------ index arrays

@dataclass
class Mesh:
    """An index buffer read by :func:`load`: the indices as a uint32 array, the topology the file
    fixes (or "triangle-list" for raw buffers), primitive restart, the width of the source
    indices (16 or 32), the vertices in the file's vertex buffer (0 if unknown), the triangles per
    run of faces sharing render state (None: one run) and the file it came from."""

    indices: np.ndarray
    topology: str = "triangle-list"
    restart: Optional[int] = None
    index_bits: int = 32
    vertex_count: int = 0
    runs: Optional[np.ndarray] = None
    path: Optional[str] = None
    has_topology: bool = False
    positions_only: bool = False

    def __len__(self) -> int:
        return int(self.indices.shape[0])


def _as_u32(indices: ArrayLike, name: str = "indices") -> Tuple[np.ndarray, int]:
    """The indices as a 1-D C-contiguous uint32 array, and the width (16 or 32) of the source.

    A C-contiguous uint32 array (1-D, or 2-D such as (triangles, 3)) is returned as a view of
    the same memory; other integer types are converted once, after a check that every value is
    in [0, 2^32 - 1]; anything else is refused."""
    if isinstance(indices, Mesh):
        return _as_u32(indices.indices, name)[0], indices.index_bits
    arr = indices if isinstance(indices, np.ndarray) else np.asarray(indices)
    if arr.ndim == 0 or arr.ndim > 2:
        raise ArgumentError(f"{name}: expected a 1-D array (or 2-D, one primitive per row), got shape {arr.shape}")
    if arr.dtype == np.bool_ or arr.dtype.kind not in "iu":
        if arr.size == 0 and arr.dtype.kind == "f":  # np.asarray([]) is float64: an empty list is no indices
            return np.zeros(0, dtype=np.uint32), 32
        raise ArgumentError(f"{name}: expected an integer array (uint32, uint16, int64, ...), got dtype {arr.dtype}")
    bits = 16 if arr.dtype.itemsize <= 2 and arr.dtype.kind == "u" else 32
    if arr.dtype == np.uint32 and arr.dtype.isnative:
        if not arr.flags.c_contiguous:
            # the layout does not allow a view: one copy
            arr = np.ascontiguousarray(arr)
        return arr.reshape(-1), bits
    if arr.size:
        lo, hi = int(arr.min()), int(arr.max())
        if lo < 0:
            pos = int(np.argmin(arr.reshape(-1)))
            raise ArgumentError(f"{name}: index {pos} is {lo}: negative values cannot be indices")
        if hi > _U32_MAX:
            pos = int(np.argmax(arr.reshape(-1)))
            raise ArgumentError(f"{name}: index {pos} is {hi}: larger than 4294967295, the largest 32-bit index")
    return np.ascontiguousarray(arr, dtype=np.uint32).reshape(-1), bits


def _run_lengths(runs: Any, n: int) -> List[int]:
    """The indices of each run of a mesh of n indices, from its triangles per run: every run an
    integer >= 0 and the runs summing to the mesh's triangles, or ArgumentError (each run is
    handed to C as a pointer and a length: one that does not fit would be read past the end)."""
    arr = np.asarray(runs)
    if arr.ndim != 1 or (arr.size and (arr.dtype == np.bool_ or arr.dtype.kind not in "iu")):
        raise ArgumentError(f"runs: expected a 1-D array of integers (triangles per run), got {arr.dtype} of shape "
                            f"{arr.shape}")
    values = arr.tolist()
    for i, r in enumerate(values):
        if r < 0:
            raise ArgumentError(f"runs: run {i} is {r}: a run holds 0 or more triangles")
    lengths = []
    total = 0
    for i, r in enumerate(values):
        total += r
        if 3 * total > n:
            raise ArgumentError(f"runs: runs 0 to {i} hold {total} triangles, more than the {n // 3} of the indices")
        lengths.append(3 * r)
    if 3 * total != n:
        raise ArgumentError(f"runs: the runs hold {total} triangles, the indices {n // 3}")
    return lengths


def _u32_ptr(arr: np.ndarray) -> Any:
    """A uint32_t* to the array's own memory (no copy)."""
    return ffi.from_buffer("uint32_t[]", arr, require_writable=False)


def _topology(name: str) -> int:
    if not isinstance(name, str):
        raise ArgumentError(f"topology: expected a name such as 'triangle-list', got {name!r}")
    out = ffi.new("gc_topology*")
    err = _new_error()
    _check(lib.gc_topology_parse(name.encode(), out, err), err)
    return int(out[0])


def _topology_name(value: int) -> str:
    return ffi.string(lib.gc_topology_name(value)).decode()


def _model(spec: str) -> Any:
    """A parsed gc_model. "@FILE" takes the best model of a fit result, as the CLI's -m does."""
    if not isinstance(spec, str):
        raise ArgumentError(f"model: expected a model specification such as 'fifo:16' or 'intel', got {spec!r}")
    out = ffi.new("gc_model*")
    err = _new_error()
    if spec.startswith("@"):
        _check(lib.gc_model_load_fitted(_encode_path(spec[1:]), out, err), err)
    else:
        _check(lib.gc_model_parse(spec.encode(), out, err), err)
    return out


def _specs(value: Any, what: str) -> List[str]:
    """A spec or a sequence of them, as a list (each checked by _model)."""
    if isinstance(value, str):
        return [value]
    try:
        return list(value)
    except TypeError:
        raise ArgumentError(f"{what}: expected a model specification or a list of them, got {value!r}") from None


def _model_name(m: Any) -> str:
    return ffi.string(m.name).decode()


def _family_name(family: int) -> str:
    return ffi.string(lib.gc_model_family_name(family)).decode()


def _refuse_restart_value(arr: np.ndarray, what: str) -> None:
    """As the CLI: in a 32-bit file without restart, 0xFFFFFFFF (-1 in text) is a mistake, not a
    vertex. Checked a million indices at a time, so that the check allocates little."""
    step = 1 << 20
    for start in range(0, arr.shape[0], step):
        hit = np.flatnonzero(arr[start:start + step] == _U32_MAX)
        if hit.size:
            raise Error(f"{what}: index {start + int(hit[0])} is 4294967295 (-1), the primitive restart value; "
                        "pass restart=True to use it as one", "data")


class _Draw:
    """A gc_draw over an array that stays referenced as long as the draw."""

    def __init__(self, indices: ArrayLike, topology: Optional[str], restart: Union[None, bool, int],
                 what: str = "indices") -> None:
        mesh = indices if isinstance(indices, Mesh) else None
        self.array, bits = _as_u32(indices, what)
        if topology is None:
            topology = mesh.topology if mesh is not None else "triangle-list"
        elif mesh is not None and mesh.has_topology and _topology(topology) != _topology(mesh.topology):
            raise ArgumentError(f"{mesh.path or what}: the file holds a {mesh.topology}; topology "
                                f"'{topology}' does not apply")
        if restart is None and mesh is not None:
            restart = mesh.restart
        self.draw = ffi.new("gc_draw*")
        self.draw.indices = _u32_ptr(self.array)
        self.draw.index_count = self.array.shape[0]
        self.draw.topology = _topology(topology)
        if restart is not None and restart is not False:
            if restart is True:
                value = 0xFFFF if bits == 16 else _U32_MAX
            elif isinstance(restart, (int, np.integer)) and 0 <= int(restart) <= _U32_MAX:
                value = int(restart)
            else:
                raise ArgumentError(f"restart: expected None, True or a value in [0, 4294967295], got {restart!r}")
            self.draw.restart_enabled = 1
            self.draw.restart_value = value
        self.what = (mesh.path if mesh is not None and mesh.path else what).encode()
        if mesh is not None and bits == 32 and not self.draw.restart_enabled:
            _refuse_restart_value(self.array, mesh.path or what)
        primitives = ffi.new("uint64_t*")
        err = _new_error()
        _check(lib.gc_draw_validate(self.draw, self.what, primitives, err), err)
        self.primitives = int(primitives[0])

    @property
    def restart(self) -> Optional[int]:
        return int(self.draw.restart_value) if self.draw.restart_enabled else None


# ----------------------------------------------------------------------- analyze

@dataclass
class AnalyzeResult:
    """What one model says of one draw: the fields of one entry of ``gpucache analyze --json``'s
    "models" (model, family, invocations, acmr, atvr, batches, seconds and, by family, resets,
    flushes, state_change_flushes, map_mode_batches, mean_fill), the draw's own (topology,
    restart, indices, primitives, vertices), and with ``per_vertex=True`` the invocations of every
    distinct index value (``per_vertex_values`` ascending, ``per_vertex_counts``)."""

    model: str
    family: str
    invocations: int
    acmr: float
    atvr: float
    batches: Optional[int]
    topology: str
    restart: Optional[int]
    indices: int
    primitives: int
    vertices: int
    seconds: Optional[float] = None
    resets: Optional[int] = None
    flushes: Optional[int] = None
    state_change_flushes: Optional[int] = None
    map_mode_batches: Optional[int] = None
    mean_fill: Optional[float] = None
    per_vertex_values: Optional[np.ndarray] = field(default=None, repr=False)
    per_vertex_counts: Optional[np.ndarray] = field(default=None, repr=False)
    draws: Optional[List[Dict[str, Any]]] = field(default=None, repr=False)
    overdraw: Optional[Dict[str, Any]] = None  # analyze --json's top-level "overdraw"
    fetch: Optional[Dict[str, Any]] = None  # the "fetch" that applies to this model
    fetch_per_model: bool = field(default=False, repr=False)  # it is one of "models"' entries' members

    def to_json(self) -> Dict[str, Any]:
        """This model's entry as ``analyze --json`` writes it (the same keys, in its order)."""
        d: Dict[str, Any] = {"model": self.model, "family": self.family, "invocations": self.invocations,
                             "acmr": self.acmr, "atvr": self.atvr, "batches": self.batches, "seconds": self.seconds}
        # the fields the family's traits gave (_stats_result), in analyze --json's order
        if self.resets is not None:
            d["resets"] = self.resets
        if self.flushes is not None:
            d["flushes"] = self.flushes
        if self.state_change_flushes is not None:
            d.update(state_change_flushes=self.state_change_flushes, map_mode_batches=self.map_mode_batches,
                     mean_fill=self.mean_fill)
        if self.fetch is not None and self.fetch_per_model:
            d["fetch"] = dict(self.fetch)
        return d


def _copy_out_u32(ptr: Any, count: int) -> np.ndarray:
    """A NumPy copy of `count` uint32 the library allocated (their one copy, before they are freed)."""
    if count == 0:
        return np.zeros(0, dtype=np.uint32)
    return np.frombuffer(ffi.buffer(ptr, count * 4), dtype=np.uint32).copy()


def analyze(indices: ArrayLike, model: Union[str, Sequence[str]] = "intel", topology: Optional[str] = None,
            restart: Union[None, bool, int] = None, per_vertex: bool = False,
            state_changes: Optional[ArrayLike] = None, overdraw: bool = False, positions: Optional[ArrayLike] = None,
            fetch: Optional[str] = None) -> Union[AnalyzeResult, List[AnalyzeResult]]:
    """Counts the vertex shader invocations a draw costs under one model or several.

    indices: an integer array (a C-contiguous uint32 array is used in place, others are converted
        once), or a :class:`Mesh` from :func:`load` (its topology and restart apply).
    model: a model spec ("fifo:16", "meshopt:32,32,32", a preset such as "intel", "@fit.json"), or
        a list of them; ``[p.name for p in models().presets]`` is what the CLI analyzes by default.
    topology: "triangle-list" (default for arrays), "triangle-strip", ... (see TOPOLOGIES).
    restart: None (off, or the mesh's), True (0xFFFF for 16-bit sources, else 0xFFFFFFFF) or a value.
    per_vertex: also return every distinct index value's invocations as arrays.
    state_changes: sorted index positions for the batch model (a change before that index).

    overdraw: also measure overdraw (docs/models/overdraw.md, ``analyze --overdraw``) into each
        result's ``overdraw`` ({"covered", "shaded", "ratio"}; a glTF's draws each get theirs):
        a loaded mesh file's own positions, or ``positions`` (an N x 3 float array) for an array
        of triangle-list indices.
    fetch: a fetch spec ("meshopt:32", "gcn:32", "cache:64,16K,4:32"; ``analyze --fetch``): the
        bytes the vertex fetch reads (docs/models/fetch.md) into each result's ``fetch``
        ({"spec", "bytes", "overfetch"}, and "memory_bytes" for a spec that depends on the model).

    A :class:`Mesh` loaded from a glTF file is counted as ``gpucache analyze`` counts the file
    (the library's gc_mesh_analyze): each mesh primitive a draw of its own with its own topology,
    the results the sums over the draws (topology "mixed" when they differ), and ``draws`` each
    draw's entry as ``analyze --json`` lists it, with this model's numbers.

    Returns one :class:`AnalyzeResult` for a single spec, a list for a list. Raises :class:`Error`
    with the library's message for a bad model, topology or draw. Memory: the library's working
    memory only (about 16 bytes per index at most); the indices are not copied.
    """
    specs = _specs(model, "model")
    if not specs:
        raise ArgumentError("model: expected at least one model")
    parsed = [_model(s) for s in specs]
    if _is_gltf_mesh(indices):
        for what, value in (("topology", topology), ("restart", restart), ("state_changes", state_changes)):
            if value is not None:
                raise ArgumentError(f"{what} does not apply to a glTF mesh (each primitive is analyzed as its own draw)")
        if per_vertex:
            raise ArgumentError("per_vertex does not apply to a glTF mesh (each primitive is analyzed as its own draw)")
        results = _analyze_file(indices, parsed)
        _vertex_costs(indices, parsed, results, overdraw, positions, fetch, None)
        return results[0] if isinstance(model, str) else results
    d = _Draw(indices, topology, restart)
    if (overdraw or fetch is not None) and (topology is not None or restart is not None or state_changes is not None):
        raise ArgumentError("overdraw and fetch count the mesh's own triangles: no topology, restart or "
                            "state_changes with them")
    options = ffi.new("gc_analyze_options*")
    changes = None
    if state_changes is not None:
        changes = np.ascontiguousarray(np.asarray(state_changes), dtype=np.uint64)
        if changes.ndim != 1:
            raise ArgumentError("state_changes: expected a 1-D array of index positions")
        if changes.size and (np.any(np.diff(changes.astype(np.int64)) < 0) or int(changes[-1]) > d.array.shape[0]):
            raise ArgumentError(f"state_changes: expected ascending positions, each at most {d.array.shape[0]}")
        options.state_changes = ffi.from_buffer("uint64_t[]", changes, require_writable=False)
        options.state_change_count = changes.shape[0]
    pv = ffi.new("gc_per_vertex*") if per_vertex else ffi.NULL
    options.per_vertex = pv
    stats = ffi.new("gc_stats*")
    err = _new_error()
    results = []
    for m in parsed:
        try:
            _check(lib.gc_analyze(m, d.draw, options, stats, err), err)
            values = counts = None
            if per_vertex:
                values = _copy_out_u32(pv.values, pv.count)
                counts = _copy_out_u32(pv.counts, pv.count)
        finally:
            if per_vertex:
                lib.gc_per_vertex_free(pv)
        results.append(_stats_result(m, stats, topology=_topology_name(d.draw.topology), restart=d.restart,
                                     indices=int(d.draw.index_count), primitives=d.primitives,
                                     vertices=int(stats.vertices), per_vertex_values=values,
                                     per_vertex_counts=counts))
    _vertex_costs(indices, parsed, results, overdraw, positions, fetch, d)
    return results[0] if isinstance(model, str) else results


def _overdraw_dict(o: Any) -> Dict[str, Any]:
    return {"covered": int(o.covered), "shaded": int(o.shaded), "ratio": float(o.ratio)}


def _fetch_dict(spec_text: str, f: Any, per_model: bool) -> Dict[str, Any]:
    d: Dict[str, Any] = {"spec": spec_text, "bytes": int(f.bytes), "overfetch": float(f.overfetch)}
    if per_model:
        d["memory_bytes"] = int(f.memory_bytes)
    return d


_TRIANGLE_MODES = ("triangles", "triangle-strip", "triangle-fan")


def _vertex_costs(indices: Any, parsed: List[Any], results: List[AnalyzeResult], overdraw: bool,
                  positions: Optional[ArrayLike], fetch: Optional[str], d: Optional[_Draw]) -> None:
    """analyze's overdraw= and fetch=: the library's gc_mesh_vertex_costs_of for a loaded file (as
    ``analyze --overdraw --fetch SPEC`` counts it), gc_analyze_overdraw and gc_analyze_fetch for
    an array of triangle-list indices."""
    if not overdraw and fetch is None:
        return
    err = _new_error()
    spec = ffi.NULL
    if fetch is not None:
        if not isinstance(fetch, str):
            raise ArgumentError(f"fetch: expected a fetch spec such as 'meshopt:32', got {fetch!r}")
        spec = ffi.new("gc_fetch_spec*")
        _check(lib.gc_fetch_parse(fetch.encode(), spec, err), err)
    per_model = fetch is not None and not spec.every_reference
    od = None
    draw_od: List[Dict[str, Any]] = []
    fetches: List[Dict[str, Any]] = []
    if isinstance(indices, Mesh) and indices.path and positions is None:
        models = ffi.new("gc_model[]", max(1, len(parsed)))
        for i, m in enumerate(parsed):
            models[i] = m[0]
        c = ffi.new("gc_mesh_vertex_costs*")
        _check(lib.gc_mesh_vertex_costs_of(_encode_path(indices.path), _load_options(indices), 1 if overdraw else 0,
                                           spec, models, len(parsed), c, err), err)
        try:
            if c.has_overdraw:
                od = _overdraw_dict(c.overdraw)
                draw_od = [_overdraw_dict(c.draw_overdraw[i]) for i in range(c.draw_count)]
            if c.has_fetch:
                fetches = [_fetch_dict(fetch, c.fetch[i], per_model) for i in range(c.model_count)]
        finally:
            lib.gc_mesh_vertex_costs_free(c)
    else:
        if d is None or d.draw.topology != lib.GC_TRIANGLE_LIST:
            raise ArgumentError("overdraw and fetch need a triangle list")
        n = int(d.draw.index_count)
        bound = _largest(d) + 1
        xyz = None
        if positions is not None:
            xyz = np.ascontiguousarray(positions, dtype=np.float32).reshape(-1, 3)
            if xyz.shape[0] < bound:
                raise ArgumentError(f"positions: {xyz.shape[0]} rows for {bound} vertices")
        if overdraw:
            if xyz is None:
                raise ArgumentError("overdraw needs vertex positions: give positions= (an N x 3 array) or a mesh "
                                    "loaded from an OBJ, PLY or glTF file")
            o = ffi.new("gc_overdraw_stats*")
            _check(lib.gc_analyze_overdraw(d.draw.indices, n, ffi.from_buffer("float[]", xyz), xyz.shape[0], 0, o,
                                           err), err)
            od = _overdraw_dict(o)
        if fetch is not None:
            vertices = max(bound, xyz.shape[0] if xyz is not None else 0)
            f = ffi.new("gc_fetch_stats*")
            for m in (parsed if per_model else [None]):
                _check(lib.gc_analyze_fetch(spec, m if m is not None else ffi.NULL, d.draw.indices, n, vertices,
                                            ffi.NULL, 0, f, err), err)
                fetches.append(_fetch_dict(fetch, f, per_model))
    for k, r in enumerate(results):
        r.overdraw = od
        if fetches:
            r.fetch = fetches[k] if per_model else fetches[0]
            r.fetch_per_model = per_model
        if r.draws is not None and draw_od:
            t = 0
            for entry in r.draws:
                if entry["mode"] in _TRIANGLE_MODES:
                    if t < len(draw_od):
                        entry["overdraw"] = draw_od[t]
                    t += 1


def _is_gltf_mesh(value: Any) -> bool:
    return isinstance(value, Mesh) and bool(value.path) and \
        ffi.string(lib.gc_mesh_format(_encode_path(value.path))) == b"gltf"


def _load_options(mesh: Mesh) -> Any:
    opts = ffi.new("gc_load_options*")
    opts.positions_only = 1 if mesh.positions_only else 0
    return opts


_MODES = ("points", "lines", "line-loop", "line-strip", "triangles", "triangle-strip", "triangle-fan")


def _stats_result(m: Any, s: Any, **draw: Any) -> AnalyzeResult:
    fam = _family_name(m.family)
    r = AnalyzeResult(model=_model_name(m), family=fam, invocations=int(s.invocations), acmr=float(s.acmr),
                      atvr=float(s.atvr), batches=int(s.batches) if s.has_batches else None, **draw)
    # the extra fields a family reports: its traits say which (gc_family_traits)
    t = ffi.new("gc_family_traits*")
    lib.gc_model_traits(m, t)
    if t.resets_field != ffi.NULL:
        setattr(r, ffi.string(t.resets_field).decode(), int(s.resets))
    if t.fill_slots:
        r.state_change_flushes = int(s.state_change_flushes)
        r.map_mode_batches = int(s.map_mode_batches)
        r.mean_fill = float(s.slots_filled) / (float(s.batches) * t.fill_slots) if s.batches else 0.0
    return r


def _analyze_file(mesh: Mesh, parsed: List[Any]) -> List[AnalyzeResult]:
    """Every model on every draw of the mesh's file (gc_mesh_analyze), as the CLI counts it."""
    models = ffi.new("gc_model[]", len(parsed))
    for i, m in enumerate(parsed):
        models[i] = m[0]
    a = ffi.new("gc_mesh_analysis*")
    err = _new_error()
    _check(lib.gc_mesh_analyze(_encode_path(mesh.path), _load_options(mesh), models, len(parsed), 1, a, err), err)
    try:
        results = []
        topology = "mixed" if a.mixed or not a.draw_count else _topology_name(a.topology)
        for k, m in enumerate(parsed):
            draws = []
            for i in range(a.draw_count):
                d = a.draws[i]
                entry = _stats_result(m, d.stats[k], topology=_topology_name(d.topology), restart=None,
                                      indices=int(d.index_count), primitives=int(d.primitives),
                                      vertices=int(d.vertices)).to_json()
                entry.pop("seconds")
                draws.append(dict(mesh=int(d.mesh), mesh_name=ffi.string(d.mesh_name).decode("utf-8", "replace")
                                  if d.mesh_name != ffi.NULL else None, primitive=int(d.primitive),
                                  mode=_MODES[d.mode] if 0 <= d.mode < 7 else "?",
                                  index_type={8: "u8", 16: "u16", 32: "u32"}.get(int(d.index_bits), "none"),
                                  indices=int(d.index_count), primitives=int(d.primitives),
                                  vertices=int(d.vertices), model=entry))
            r = _stats_result(m, a.sums[k], topology=topology, restart=None, indices=int(a.indices),
                              primitives=int(a.primitives), vertices=int(a.vertices))
            r.draws = draws
            results.append(r)
        return results
    finally:
        lib.gc_mesh_analysis_free(a)


# ---------------------------------------------------------------------- optimize

# the library's optimizers (gc_optimizer_name), in the enum's order
_ALGORITHMS = tuple(ffi.string(lib.gc_optimizer_name(i)).decode() for i in range(lib.GC_OPT_COUNT))


def optimize(indices: ArrayLike, vertex_count: Optional[int] = None, algorithm: str = "auto",
             targets: Optional[Sequence[str]] = None, reorder_vertices: bool = False, effort: int = 0,
             seed: int = 0, cache_size: int = 0, topology: Optional[str] = None,
             restart: Union[None, bool, int] = None, positions: Optional[ArrayLike] = None,
             overdraw_threshold: float = 1.05,
             overdraw_lambda: float = 0.0,
             threads: int = 0) -> Union[np.ndarray, Tuple[np.ndarray, np.ndarray]]:
    """Reorders the triangles of a draw so that vertex caches do less work.

    indices: a triangle list (any integer array, or a :class:`Mesh`; strips, fans, quads and
        polygons become the triangle list they draw). A mesh's runs of faces (OBJ materials and
        groups) are reordered each on its own, as the CLI does. A :class:`Mesh` loaded from a
        glTF file (no topology or restart given) is reordered as ``gpucache optimize`` reorders
        the file (the library's gc_mesh_optimize): each indexed triangle list on its own, strips,
        fans and shared index data kept; the result, numbered as :func:`load` numbers the file,
        is what ``write(..., source=path)`` writes (no positions or vertex_count then).
    vertex_count: every index is below it; None: the largest index + 1 (sparse values, with the
        largest + 1 above 2 x indices + 65536, are renumbered for the optimizer and restored).
    algorithm: "tipsify", "forsyth" or "auto" (minimizes the emulated invocations of `targets`,
        model specs summed; None: the library's default targets, those of ``gpucache optimize``).
    reorder_vertices: also renumber vertices as ``gpucache optimize --reorder-vertices`` numbers
        its output: in order of first use, each 64-byte line's cache set then chosen for
        meshoptimizer's fetch model (meshopt:32; docs/models/fetch.md, "The numbering"), except
        for an OBJ mesh or a value-keyed target (first use); then returns
        ``(indices, remap)`` with remap[old] = new (0xFFFFFFFF for unused vertices), to reorder the
        vertex data with ``new_vertices[remap[used]] = vertices[used]``.
    effort, seed: auto's effort (0: the default; 1: the fast path, one order per target family with
        nothing scored; 2 and more try more orders) and seed (deterministic).
    threads: auto's threads for its candidates, and for the runs and glTF primitives side by side (0: one); the result is the same for any count.
    cache_size: tipsify's k or forsyth's cache (0: their defaults, 16 and 32).
    positions: the vertices' x, y, z (an array of vertex_count x 3 floats) for the overdraw pass
        (docs/optimizers/tipsify.md); None: a :class:`Mesh` read from a file with positions
        brings its own, as the CLI reads them; anything else has no overdraw pass.
    overdraw_threshold: auto, with positions: each target's invocations may rise to at most this
        times auto's best while overdraw is lowered (1.05, meshoptimizer's; 1: no overdraw pass).
    overdraw_lambda: tipsify, with positions: Sander et al.'s lambda (0 to 3; 0: no overdraw pass).

    Returns a new uint32 array (the library checked that it holds the input's triangles, each at
    most rotated with its winding kept). Raises :class:`Error` with the library's message.
    Time: O(indices + vertices) for tipsify and forsyth; auto is slower (docs/optimizers/auto.md).
    """
    if algorithm not in _ALGORITHMS:
        raise Error(f"unknown algorithm '{algorithm}' ({', '.join(_ALGORITHMS)})", "usage")
    if not isinstance(effort, (int, np.integer)) or not 0 <= int(effort) <= 1000:
        raise ArgumentError(f"effort: expected an integer in [0, 1000], got {effort!r}")
    if not isinstance(threads, (int, np.integer)) or not 0 <= int(threads) <= 64:
        raise ArgumentError(f"threads: expected an integer in [0, 64], got {threads!r}")
    if not isinstance(seed, (int, np.integer)) or not 0 <= int(seed) < 2**64:
        raise ArgumentError(f"seed: expected an integer in [0, 2^64), got {seed!r}")
    if not isinstance(cache_size, (int, np.integer)) or not 0 <= int(cache_size) <= lib.GC_MAX_CACHE_SIZE:
        raise ArgumentError(f"cache_size: expected an integer in [0, {lib.GC_MAX_CACHE_SIZE}], got {cache_size!r}")
    if not isinstance(overdraw_threshold, (int, float, np.floating, np.integer)) or \
            not 1 <= float(overdraw_threshold) <= 1000:
        raise ArgumentError(f"overdraw_threshold: expected a number in [1, 1000], got {overdraw_threshold!r}")
    if not isinstance(overdraw_lambda, (int, float, np.floating, np.integer)) or not 0 <= float(overdraw_lambda) <= 3:
        raise ArgumentError(f"overdraw_lambda: expected a number in [0, 3], got {overdraw_lambda!r}")
    mesh = indices if isinstance(indices, Mesh) else None
    alg = ffi.new("gc_optimizer*")
    err = _new_error()
    _check(lib.gc_optimizer_parse(algorithm.encode(), alg, err), err)
    target_models = [_model(t) for t in (_specs(targets, "targets") if targets is not None else [])]
    target_array = ffi.new("gc_model[]", max(len(target_models), 1))
    for i, m in enumerate(target_models):
        target_array[i] = m[0]
    if vertex_count is not None and (not isinstance(vertex_count, (int, np.integer)) or
                                     not 0 <= int(vertex_count) <= _U32_MAX):
        raise ArgumentError(f"vertex_count: expected an integer in [0, 4294967295], got {vertex_count!r}")
    mo = ffi.new("gc_mesh_optimize_options*")
    mo.algorithm = alg[0]
    mo.optimize.overdraw_threshold = float(overdraw_threshold)
    mo.optimize.overdraw_lambda = float(overdraw_lambda)
    mo.optimize.cache_size = int(cache_size)
    mo.optimize.seed = int(seed)
    mo.optimize.effort = int(effort)
    mo.optimize.threads = int(threads)
    mo.optimize.targets = target_array if target_models else ffi.NULL
    mo.optimize.target_count = len(target_models)
    mo.reorder_vertices = 1 if reorder_vertices else 0
    mo.vertex_map = 1 if reorder_vertices else 0  # the remap is returned
    keep = []
    if mesh is not None:
        opts = _load_options(mesh)
        keep.append(opts)
        mo.load = opts
    r = ffi.new("gc_mesh_optimized*")
    if _is_gltf_mesh(mesh) and topology is None and restart is None:
        # as `gpucache optimize` reorders the file: each indexed triangle list on its own, in the
        # document; the result numbered as load() numbers the file (for write())
        mo.mesh_lists = 1
        for what, value in (("positions", positions), ("vertex_count", vertex_count)):
            if value is not None:
                raise ArgumentError(f"{what} does not apply to a glTF mesh (each indexed triangle list is reordered "
                                    "in its document, as gpucache optimize does)")
        _check(lib.gc_mesh_optimize(_encode_path(mesh.path), ffi.NULL, ffi.NULL, 0, mo, r, err), err)
        n = int(r.index_count)
        largest = int(np.max(mesh.indices)) if n else -1
    else:
        d = _Draw(indices, topology, restart)
        largest = _largest(d)
        if vertex_count is not None:
            if largest >= int(vertex_count):
                raise Error(f"{d.what.decode()}: index value {largest} is not below vertex_count {int(vertex_count)}",
                            "data")
            mo.vertex_count = int(vertex_count)
        if positions is not None:
            xyz = np.ascontiguousarray(positions, dtype=np.float32).reshape(-1, 3)
            need = int(vertex_count) if vertex_count is not None else largest + 1
            if xyz.shape[0] < need:
                raise ArgumentError(f"positions: {xyz.shape[0]} rows for {need} vertices")
            keep.append(xyz)
            mo.optimize.positions = ffi.from_buffer("float[]", xyz)
        elif mesh is not None and mesh.path:
            mo.positions = 1  # the file's positions where it has them, as the CLI reads them
        runs = None
        if mesh is not None and mesh.runs is not None and d.draw.topology == lib.GC_TRIANGLE_LIST:
            # each run >= 0 and the runs summing to the triangles (ArgumentError), before C sees them
            _run_lengths(mesh.runs, int(d.draw.index_count))
            runs = np.ascontiguousarray(mesh.runs, dtype=np.uintp)
            keep.append(runs)
        path = _encode_path(mesh.path) if mesh is not None and mesh.path else ffi.NULL
        _check(lib.gc_mesh_optimize(path, d.draw, ffi.cast("size_t*", runs.ctypes.data) if runs is not None
                                    else ffi.NULL, 0 if runs is None else runs.shape[0], mo, r, err), err)
        n = int(r.index_count)
    try:
        out = _copy_out_u32(r.indices, n)
        if not reorder_vertices:
            return out
        # numbered as the CLI writes the file: for the fetch model where the output carries a
        # numbering and no target is value-keyed, else by first use (gc_mesh_optimized_renumber)
        vc = int(vertex_count) if vertex_count is not None else largest + 1
        remap = np.empty(max(vc, 1), dtype=np.uint32)[:vc]
        used = ffi.new("uint32_t*")
        _check(lib.gc_mesh_optimized_renumber(r, ffi.from_buffer("uint32_t[]", out), vc,
                                              ffi.from_buffer("uint32_t[]", np.empty(1, np.uint32) if vc == 0
                                                              else remap), used, err), err)
        return out, remap
    finally:
        lib.gc_mesh_optimized_free(r)


def _largest(d: _Draw) -> int:
    """The largest index value the draw uses (restarts excluded), -1 for none."""
    arr = d.array
    if d.draw.restart_enabled:
        arr = arr[arr != d.draw.restart_value]
    return int(arr.max()) if arr.size else -1


# ------------------------------------------------------------------------ models

@dataclass(frozen=True)
class Preset:
    """A built-in preset: its name, the model spec it stands for, its family and its source."""

    name: str
    spec: str
    family: str
    source: str


@dataclass(frozen=True)
class Catalog:
    """What :func:`models` lists: the families (as written in a spec) and the presets."""

    families: Tuple[str, ...]
    presets: Tuple[Preset, ...]


def models() -> Catalog:
    """The model families and presets the library knows (``gpucache models``)."""
    families = tuple(_family_name(i) for i in range(lib.gc_family_count()))  # the library's table
    presets = []
    name, spec, source = ffi.new("char**"), ffi.new("char**"), ffi.new("char**")
    for i in range(lib.gc_preset_count()):
        lib.gc_preset_get(i, name, spec, source)
        n = ffi.string(name[0]).decode()
        presets.append(Preset(n, ffi.string(spec[0]).decode(), _family_name(_model(n).family),
                              ffi.string(source[0]).decode()))
    return Catalog(families, tuple(presets))


# -------------------------------------------------------------------------- grid

def grid(width: int, height: int, layout: str = "rowmajor", cache: int = 16) -> np.ndarray:
    """The triangle list of a width x height quad grid ((width+1) x (height+1) vertices numbered
    row by row) in a layout: "rowmajor", "striped" (strips just under `cache`) or "optimal"
    (strips with a prefetch of each strip's first row). Written by the library straight into
    the returned uint32 array."""
    if layout not in LAYOUTS:
        raise ArgumentError(f"layout: expected one of {', '.join(LAYOUTS)}, got {layout!r}")
    for what, v in (("width", width), ("height", height), ("cache", cache)):
        if not isinstance(v, (int, np.integer)) or not 0 <= int(v) <= _U32_MAX:
            raise ArgumentError(f"{what}: expected an integer in [0, 4294967295], got {v!r}")
    lay = LAYOUTS.index(layout)
    count = lib.gc_grid_index_count(width, height, lay, cache)
    out = np.empty(count, dtype=np.uint32)
    written = ffi.new("size_t*")
    err = _new_error()
    _check(lib.gc_grid_generate(width, height, lay, cache, ffi.from_buffer("uint32_t[]", out), written, err), err)
    return out[: int(written[0])]


# --------------------------------------------------------------------------- fit

@dataclass
class FitCandidate:
    """A ranked model: cases predicted exactly, their share, the total error in invocations and
    the cases it gets wrong ({"case", "name", "measured", "predicted"}), as ``fit --json``."""

    model: str
    family: str
    exact: int
    exact_share: float
    total_error: int
    wrong: List[Dict[str, Any]]


@dataclass
class FitResult:
    """What :func:`fit` found: the device the measurements name, the case and candidate counts,
    and the best candidates, best first."""

    device: str
    cases: int
    candidates: int
    best: List[FitCandidate]


def _fit_cases_from_data(measurements: Sequence[Dict[str, Any]]) -> Tuple[Any, List[str], List[Any]]:
    """gc_fit_case entries over in-memory cases; returns them, their names and what keeps the
    arrays they point to alive."""
    cases = ffi.new("gc_fit_case[]", max(len(measurements), 1))
    keep: List[Any] = []
    names = []
    for i, c in enumerate(measurements):
        if not isinstance(c, dict) or "indices" not in c or "invocations" not in c:
            raise ArgumentError(f"measurements[{i}]: expected a dict with 'indices' and 'invocations'")
        d = _Draw(c["indices"], c.get("topology"), c.get("restart"), f"measurements[{i}]")
        keep.append(d)
        cases[i].draw = d.draw[0]
        inv = c["invocations"]
        if not isinstance(inv, (int, np.integer)) or int(inv) < 0:
            raise ArgumentError(f"measurements[{i}]: invocations must be a whole number >= 0, got {inv!r}")
        cases[i].invocations = int(inv)
        if c.get("values") is not None:
            values, _ = _as_u32(c["values"], f"measurements[{i}].values")
            counts, _ = _as_u32(c["counts"], f"measurements[{i}].counts")
            if values.shape != counts.shape:
                raise ArgumentError(f"measurements[{i}]: values and counts differ in length")
            keep += [values, counts]
            cases[i].values = _u32_ptr(values)
            cases[i].counts = _u32_ptr(counts)
            cases[i].count = values.shape[0]
        names.append(str(c.get("name", f"case {i}")))
    return cases, names, keep


def fit(measurements: Union[PathLike, Sequence[Dict[str, Any]]], models: Optional[Sequence[str]] = None,
        top: int = 5, threads: int = 0) -> FitResult:
    """Searches the models for the one that predicts measured draws (``gpucache fit``).

    measurements: a measurement file written by ``gpucache probe --suite -o FILE`` (read by the
        library), or a list of cases, dicts with "indices", "invocations" and optionally "topology",
        "restart", "name" and per-vertex "values" (ascending) and "counts".
    models: the candidates (specs); None: the standard search space (every family over its
        parameters: seconds to minutes).
    top: how many ranked candidates to return. threads: 0 = every CPU.
    """
    if not isinstance(top, (int, np.integer)) or not 1 <= int(top) <= 1000:
        raise ArgumentError(f"top: expected an integer in [1, 1000], got {top!r}")
    if not isinstance(threads, (int, np.integer)) or not 0 <= int(threads) <= 256:
        raise ArgumentError(f"threads: expected an integer in [0, 256], got {threads!r}")
    if threads == 0:
        threads = min(os.cpu_count() or 1, 256)
    err = _new_error()
    loaded = None
    if isinstance(measurements, (str, os.PathLike)):
        loaded = ffi.new("gc_measurements*")
        status = lib.gc_measurements_load(_encode_path(measurements), loaded, err)
        if status:
            lib.gc_measurements_free(loaded)
            _check(status, err)
        cases, count = loaded.cases, int(loaded.count)
        names = [ffi.string(loaded.names[i]).decode("utf-8", "replace") for i in range(count)]
        device = ffi.string(loaded.device).decode("utf-8", "replace") if loaded.device else "(unknown device)"
        keep: List[Any] = []
    else:
        cases, names, keep = _fit_cases_from_data(list(measurements))
        count = len(names)
        device = "(unknown device)"
    try:
        candidates = [_model(m) for m in (_specs(models, "models") if models is not None else [])]
        cand = ffi.new("gc_model[]", max(len(candidates), 1))
        for i, m in enumerate(candidates):
            cand[i] = m[0]
        options = ffi.new("gc_fit_options*")
        options.threads = int(threads)
        if candidates:
            options.candidates = cand
            options.candidate_count = len(candidates)
        searched = len(candidates) if candidates else int(lib.gc_fit_search_space(ffi.NULL, 0))
        best = ffi.new("gc_fit_candidate[]", int(top))
        found = ffi.new("size_t*")
        _check(lib.gc_fit(cases, count, options, int(top), best, found, err), err)
        ranked = []
        predicted, exact = ffi.new("uint64_t*"), ffi.new("int*")
        for r in range(int(found[0])):
            b = best[r]
            wrong = []
            for i in range(count):
                s = lib.gc_fit_evaluate(ffi.addressof(b, "model"), ffi.addressof(cases[i]), predicted, exact, err)
                if s == 0 and exact[0]:
                    continue
                wrong.append({"case": i, "name": names[i], "measured": int(cases[i].invocations),
                              "predicted": int(predicted[0]) if s == 0 else None})
            ranked.append(FitCandidate(_model_name(b.model), _family_name(b.model.family), int(b.exact),
                                       float(b.exact) / count if count else 0.0, int(b.total_error), wrong))
        return FitResult(device, count, searched, ranked)
    finally:
        del keep
        if loaded is not None:
            lib.gc_measurements_free(loaded)


# ------------------------------------------------------------------------ memsys

@dataclass
class MemsysReport:
    """A replay of a memory-system scenario (``gpucache memsys --json``): the strategy, each
    dispatch's {"name", "stats"}, the events between dispatches, the total and the hazards
    ({"kind", "line", "message"}); stats are dicts with the CLI's keys."""

    strategy: str
    dispatches: List[Dict[str, Any]]
    between: Dict[str, Any]
    total: Dict[str, Any]
    hazards: List[Dict[str, Any]]

    def to_json(self, scenario: str = "<string>") -> Dict[str, Any]:
        """The object ``gpucache memsys --json --strategy S FILE`` prints, with "scenario" given."""
        return {"scenario": scenario, "strategy": self.strategy, "dispatches": self.dispatches,
                "between": self.between, "total": self.total, "hazards": self.hazards}


_MEMSYS_COUNTERS = ("garlic_bytes", "onion_bytes", "onion_plus_bytes", "l1_invalidates", "l1_invalidate_lines",
                    "l2_invalidates", "l2_invalidates_skipped", "l2_invalidate_lines", "l2_writebacks",
                    "l2_writebacks_skipped", "l2_writeback_lines", "l2_writeback_dirty_bytes", "kcache_invalidates",
                    "kcache_invalidate_lines", "crosstalk_events", "crosstalk_lines")


def _memsys_stats(st: Any) -> Dict[str, Any]:
    d: Dict[str, Any] = {}
    for cache in ("l1", "l2", "kcache"):
        c = getattr(st, cache)
        d[cache] = {
            ffi.string(lib.gc_memtype_name(t)).decode(): {
                rw: {"accesses": int(c.accesses[t][k]), "hits": int(c.hits[t][k]), "misses": int(c.misses[t][k])}
                for k, rw in enumerate(("read", "write"))}
            for t in range(lib.GC_MEM_TYPE_COUNT)}
    for k in _MEMSYS_COUNTERS:
        d[k] = int(getattr(st, k))
    for k in ("bus_cycles", "event_cycles", "cycles", "invalidate_cycles", "writeback_cycles"):
        d[k] = float(getattr(st, k))
    return d


_MEMSYS_DEFAULT_MAX_WORK = lib.GC_MEMSYS_DEFAULT_MAX_WORK


def memsys(scenario_text: str, strategy: str = "as-written", name: str = "<string>",
           max_work: Optional[int] = _MEMSYS_DEFAULT_MAX_WORK) -> MemsysReport:
    """Replays seed 003's memory-system scenario (docs/memsys.md) given as text under a flush
    strategy ("as-written", "l1-bypass", "l2-bypass", "sc-as-uc"). `name` names the scenario in
    messages. `max_work` bounds the replay in simulated line accesses (gc_memsys_work), checked
    before any work: the library's default 2^27 (about 5 to 30 seconds), None for no bound (as
    the CLI, which shows its progress)."""
    if strategy not in STRATEGIES:
        raise Error(f"unknown strategy '{strategy}' (as-written, l1-bypass, l2-bypass, sc-as-uc)", "usage")
    if isinstance(scenario_text, str):
        text = scenario_text.encode()
    elif isinstance(scenario_text, (bytes, bytearray)):
        text = bytes(scenario_text)
    else:
        raise ArgumentError(f"scenario_text: expected str or bytes, got {type(scenario_text).__name__}")
    err = _new_error()
    scenario = ffi.new("gc_memsys**")
    _check(lib.gc_memsys_parse(text, len(text), name.encode(), scenario, err), err)
    report = ffi.new("gc_memsys_report*")
    try:
        limit = 2**64 - 1 if max_work is None else int(max_work)
        _check(lib.gc_memsys_run_limited(scenario[0], STRATEGIES.index(strategy), limit, ffi.NULL, ffi.NULL,
                                         report, err), err)
        dispatches = [{"name": ffi.string(report.dispatch_names[i]).decode("utf-8", "replace"),
                       "stats": _memsys_stats(report.dispatches[i])} for i in range(report.dispatch_count)]
        hazards = [{"kind": _HAZARD_NAMES[report.hazards[i].kind], "line": int(report.hazards[i].line),
                    "message": ffi.string(report.hazards[i].message).decode("utf-8", "replace")}
                   for i in range(report.hazard_count)]
        return MemsysReport(strategy, dispatches, _memsys_stats(report.between), _memsys_stats(report.total),
                            hazards)
    finally:
        lib.gc_memsys_report_free(report)
        lib.gc_memsys_free(scenario[0])


# --------------------------------------------------------------------- load/write

def load(path: PathLike, positions_only: bool = False, max_indices: int = 0) -> Mesh:
    """Reads the index buffer of a file in any format the library reads (.txt/.idx, .u16/.u32,
    .obj, .ply, .gltf/.glb with gpucache's own glTF reader (jansson), and other formats such as
    .fbx/.dae/.stl through assimp when the library was built with it):
    a mesh gives the triangle list a renderer would draw (faces triangulated in file order, a
    vertex per distinct combination of attributes; `positions_only`: the position index alone). The indices are the library's
    buffer, handed to NumPy without a copy. Raises :class:`Error` naming the file and place."""
    opts = ffi.new("gc_load_options*")
    opts.positions_only = 1 if positions_only else 0
    opts.max_indices = int(max_indices)
    mesh = ffi.new("gc_mesh*")
    err = _new_error()
    p = os.fspath(path)
    status = lib.gc_mesh_load(_encode_path(p), opts, mesh, err)
    if status:
        lib.gc_mesh_free(mesh)
        _check(status, err)
    try:
        n = int(mesh.index_count)
        if n:
            # The array owns the library's malloc'd buffer: freed with free() when NumPy lets go.
            owned = ffi.gc(mesh.indices, libc.free, size=n * 4)
            indices = np.frombuffer(ffi.buffer(owned, n * 4), dtype=np.uint32)
            mesh.indices = ffi.NULL
        else:
            indices = np.zeros(0, dtype=np.uint32)
        runs = None
        if mesh.runs != ffi.NULL and mesh.run_count:
            runs = np.frombuffer(ffi.buffer(mesh.runs, mesh.run_count * ffi.sizeof("size_t")),
                                 dtype=np.uintp).astype(np.uint64)
        return Mesh(indices=indices, topology=_topology_name(mesh.topology),
                    restart=int(mesh.restart_value) if mesh.restart_enabled else None,
                    index_bits=int(mesh.index_bits), vertex_count=int(mesh.vertex_count), runs=runs, path=p,
                    has_topology=bool(mesh.has_topology), positions_only=bool(positions_only))
    finally:
        lib.gc_mesh_free(mesh)


_RAW = (".txt", ".idx", ".u16", ".u32")


def write(path: PathLike, indices: ArrayLike, source: Optional[PathLike] = None, reorder_vertices: bool = False,
          remap: bool = False, positions_only: bool = False,
          fetch: Optional[str] = "meshopt:32") -> Optional[np.ndarray]:
    """Writes a triangle list to `path`, whole or not at all (a temporary beside it, renamed).

    With `source` (a mesh file :func:`load` read): `path` becomes `source` with `indices` (a
    reordering of its triangles, each run's staying in its run) in place of its faces, everything
    else kept, in the same format (the library's gc_mesh_write_numbered); `reorder_vertices` also
    renumbers the vertices as ``gpucache optimize --reorder-vertices`` does: for the fetch model
    `fetch` (a "meshopt:BYTES" spec; None: in first-use order, as the CLI numbers an output for a
    value-keyed target such as llvmpipe or direct-value) where the format carries a numbering
    (OBJ: first use), and `remap` (index-buffer sources only) returns the old-to-new vertex map. Without `source`: a plain index buffer, by `path`'s extension: .u32 or .u16 (raw
    little-endian; .u16 needs every index below 65536) or .txt/.idx (one index a line).
    Raises :class:`Error` with the library's message (an output over an input is refused)."""
    arr, _ = _as_u32(indices)
    out = os.fspath(path)
    err = _new_error()
    if source is not None:
        opts = ffi.new("gc_load_options*")
        opts.positions_only = 1 if positions_only else 0
        ptr = _u32_ptr(arr)
        spec = ffi.NULL
        if reorder_vertices and fetch is not None:
            if not isinstance(fetch, str):
                raise ArgumentError(f"fetch: expected a fetch spec such as 'meshopt:32' or None, got {fetch!r}")
            spec = ffi.new("gc_fetch_spec*")
            _check(lib.gc_fetch_parse(fetch.encode(), spec, err), err)
        m, count = (ffi.new("uint32_t**"), ffi.new("size_t*")) if remap else (ffi.NULL, ffi.new("size_t*"))
        _check(lib.gc_mesh_write_numbered(_encode_path(source), opts, ptr, arr.shape[0], int(bool(reorder_vertices)),
                                          spec, _encode_path(out), m, count, err), err)
        if not remap:
            return None
        try:
            return _copy_out_u32(m[0], int(count[0]))
        finally:
            libc.free(m[0])
    if remap or reorder_vertices:
        raise ArgumentError("write: reorder_vertices and remap need the source file (source=...)")
    ext = os.path.splitext(out)[1].lower()
    if ext not in _RAW:
        raise Error(f"{out}: without source=, only .u32, .u16, .txt and .idx index buffers can be written", "usage")
    if ext == ".u16" and arr.size and int(arr.max()) > 0xFFFF:
        raise Error(f"{out}: index {int(np.argmax(arr))} is {int(arr.max())}: too large for 16-bit indices", "data")
    if ext == ".u32":
        data = arr.astype("<u4", copy=False).tobytes()
    elif ext == ".u16":
        data = arr.astype("<u2").tobytes()
    else:
        # one index a line
        data = ("\n".join(map(str, arr.tolist())) + "\n").encode("ascii") if arr.size else b""
    _write_atomic(out, data)
    return None


def _write_atomic(path: PathLike, data: bytes) -> None:
    """The library's atomic write (gc_write_file_atomic): `path` whole or not at all."""
    err = _new_error()
    _check(lib.gc_write_file_atomic(_encode_path(path), data, len(data), err), err)


# ---------------------------------------------------------------------- meshlets

@dataclass
class Meshlets:
    """Meshlets in meshoptimizer's layout (docs/models/meshlets.md, docs/formats/meshlets.md):
    `meshlets` (M, 4) uint32 rows of vertex_offset, triangle_offset (bytes of meshlet_triangles,
    3 a triangle), vertex_count, triangle_count; `meshlet_vertices` (N,) uint32 vertex ids;
    `meshlet_triangles` (K, 3) uint8 local indices; `bounds` (M, 11) float32 rows of center x y z,
    radius, cone apex x y z, cone axis x y z, cone cutoff, or None; and the limits."""

    meshlets: np.ndarray
    meshlet_vertices: np.ndarray
    meshlet_triangles: np.ndarray
    bounds: Optional[np.ndarray]
    max_vertices: int
    max_triangles: int

    def indices(self) -> np.ndarray:
        """The triangle list, meshlet after meshlet (what `gpucache meshlets` writes)."""
        out = []
        for vo, to, vc, tc in self.meshlets:
            local = self.meshlet_triangles[to // 3: to // 3 + tc]
            out.append(self.meshlet_vertices[vo: vo + vc][local.astype(np.int64)].reshape(-1))
        return np.concatenate(out).astype(np.uint32) if out else np.zeros(0, dtype=np.uint32)


def _meshlets_from_c(m: Any) -> Meshlets:
    mc, vc, tc = int(m.meshlet_count), int(m.vertex_count), int(m.triangle_count)
    ml = np.frombuffer(ffi.buffer(m.meshlets, mc * 16), dtype=np.uint32).reshape(mc, 4).copy() if mc else \
        np.zeros((0, 4), dtype=np.uint32)
    verts = np.frombuffer(ffi.buffer(m.vertices, vc * 4), dtype=np.uint32).copy() if vc else \
        np.zeros(0, dtype=np.uint32)
    tris = np.frombuffer(ffi.buffer(m.triangles, tc * 3), dtype=np.uint8).reshape(tc, 3).copy() if tc else \
        np.zeros((0, 3), dtype=np.uint8)
    bounds = None
    if m.bounds != ffi.NULL:
        bounds = np.frombuffer(ffi.buffer(m.bounds, mc * 44), dtype=np.float32).reshape(mc, 11).copy() if mc else \
            np.zeros((0, 11), dtype=np.float32)
    return Meshlets(ml, verts, tris, bounds, int(m.max_vertices), int(m.max_triangles))


def meshlets(mesh: Union["Mesh", ArrayLike], max_vertices: int = 64, max_triangles: int = 124, bounds: bool = False,
             positions: Optional[ArrayLike] = None, scan: bool = False, local_order: bool = True, seed: int = 0,
             effort: int = 0, first_use: Optional[bool] = None) -> Meshlets:
    """Cuts a triangle list into meshlets of at most `max_vertices` (3 to 256) vertices and
    `max_triangles` (1 to 512) triangles, as `gpucache meshlets` does (gc_meshlets_build: the meshlet
    grower's order, then a scan; each run of a :class:`Mesh` on its own).

    `mesh`: a :class:`Mesh` from :func:`load` or an index array (a triangle list). `bounds`: also
    each meshlet's sphere and normal cone (meshopt_computeMeshletBounds' definition), from
    `positions` ((vertices, 3) floats) or the mesh file's. `scan`: cut the order as it is.
    `first_use`: number the vertex ids in order of first use in the meshlet order, as an OBJ
    written from them reads back (None: for an OBJ mesh, as the CLI's data file does).
    The result equals what `gpucache meshlets --data FILE [--bounds]` writes for the same file
    and options (:func:`read_meshlets`)."""
    if not isinstance(max_vertices, int) or not 3 <= max_vertices <= 256:
        raise ArgumentError(f"max_vertices {max_vertices!r} is out of range [3, 256]")
    if not isinstance(max_triangles, int) or not 1 <= max_triangles <= 512:
        raise ArgumentError(f"max_triangles {max_triangles!r} is out of range [1, 512]")
    src = mesh if isinstance(mesh, Mesh) else None
    if src is not None and (src.topology != "triangle-list" or src.restart is not None):
        raise ArgumentError(f"{src.path}: a {src.topology}: meshlets are cut from a triangle list; convert it first "
                            "(gpucache optimize writes its triangles as a list)")
    tri, _ = _as_u32(mesh)
    n = int(tri.shape[0])
    if n % 3:
        raise ArgumentError(f"indices: {n} indices is not whole triangles")
    tri = np.ascontiguousarray(tri)
    values = None
    vertex_count = int(tri.max()) + 1 if n else 0
    if vertex_count > 2 * n + 65536:
        values, inverse = np.unique(tri, return_inverse=True)
        tri = inverse.astype(np.uint32).reshape(-1)
        vertex_count = int(values.shape[0])
    runs = [n // 3] if src is None or src.runs is None else [int(r) for r in src.runs]
    opts = ffi.new("gc_meshlet_options*")
    opts.max_vertices, opts.max_triangles = max_vertices, max_triangles
    opts.keep_order, opts.local_order = int(bool(scan)), int(bool(local_order))
    opts.seed, opts.effort = int(seed), int(effort)
    m = ffi.new("gc_meshlets*")
    m.max_vertices, m.max_triangles = max_vertices, max_triangles
    err = _new_error()
    try:
        at = 0
        for r in runs:
            part = tri[at: at + 3 * r]
            _check(lib.gc_meshlets_build(_u32_ptr(part), 3 * r, vertex_count, opts, m, err), err)
            at += 3 * r
        if bounds:
            xyz = None
            if positions is not None:
                xyz = np.ascontiguousarray(positions, dtype=np.float32).reshape(-1, 3)
            elif src is not None and src.path:
                lo = ffi.new("gc_load_options*")
                lo.positions_only = 1 if src.positions_only else 0
                out = ffi.new("float**")
                count = ffi.new("size_t*")
                _check(lib.gc_mesh_load_positions(_encode_path(src.path), lo, out, count, err), err)
                try:
                    xyz = np.frombuffer(ffi.buffer(out[0], int(count[0]) * 12), dtype=np.float32).reshape(-1, 3).copy()
                finally:
                    libc.free(out[0])
            if xyz is None:
                raise ArgumentError("bounds need positions: give positions= or a Mesh read from a file with them")
            keep = np.ascontiguousarray(xyz[values] if values is not None and xyz.shape[0] > int(values[-1]) else xyz)
            _check(lib.gc_meshlets_compute_bounds(m, ffi.from_buffer("float[]", keep), keep.shape[0], 12, err), err)
        result = _meshlets_from_c(m)
    finally:
        lib.gc_meshlets_free(m)
    if values is not None:
        result.meshlet_vertices = values.astype(np.uint32)[result.meshlet_vertices]
    if first_use is None:
        first_use = src is not None and bool(src.path) and str(src.path).lower().endswith(".obj")
    if first_use and result.meshlet_vertices.size:
        order = result.indices()
        _, first = np.unique(order, return_index=True)
        ranked = np.unique(order)[np.argsort(first)]
        remap = np.empty(int(ranked.max()) + 1, dtype=np.uint32)
        remap[ranked] = np.arange(ranked.shape[0], dtype=np.uint32)
        result.meshlet_vertices = remap[result.meshlet_vertices]
    return result


def read_meshlets(path: PathLike) -> Meshlets:
    """Reads a meshlet data file (`gpucache meshlets --data`, docs/formats/meshlets.md) with the
    library's validating reader; raises :class:`Error` naming the file and the meshlet."""
    m = ffi.new("gc_meshlets*")
    err = _new_error()
    try:
        _check(lib.gc_meshlet_data_load(_encode_path(os.fspath(path)), m, err), err)
        return _meshlets_from_c(m)
    finally:
        lib.gc_meshlets_free(m)


def write_meshlets(path: PathLike, m: Meshlets) -> None:
    """Writes meshlets as a data file, whole or not at all (checked as the reader checks)."""
    ml = np.ascontiguousarray(m.meshlets, dtype=np.uint32).reshape(-1, 4)
    verts = np.ascontiguousarray(m.meshlet_vertices, dtype=np.uint32).reshape(-1)
    tris = np.ascontiguousarray(m.meshlet_triangles, dtype=np.uint8).reshape(-1)
    c = ffi.new("gc_meshlets*")
    c.max_vertices, c.max_triangles = int(m.max_vertices), int(m.max_triangles)
    keep = [ffi.from_buffer("gc_meshlet[]", ml), ffi.from_buffer("uint32_t[]", verts),
            ffi.from_buffer("uint8_t[]", tris)]
    c.meshlets, c.meshlet_count = keep[0], ml.shape[0]
    c.vertices, c.vertex_count = keep[1], verts.shape[0]
    c.triangles, c.triangle_count = keep[2], tris.shape[0] // 3
    if m.bounds is not None:
        b = np.ascontiguousarray(m.bounds, dtype=np.float32).reshape(-1, 11)
        keep.append(ffi.from_buffer("gc_meshlet_bounds[]", b))
        c.bounds = keep[3]
    err = _new_error()
    _check(lib.gc_meshlet_data_save(_encode_path(os.fspath(path)), c, err), err)


# ------------------------------------------------------------------ pictures


def heatmap(path: PathLike, model: Optional[str] = None, view: str = "front", scale_max: int = 0,
            output: Optional[PathLike] = None, positions_only: bool = False) -> str:
    """The heat map of per-vertex invocations of the mesh file `path`, as SVG text: the
    picture `gpucache analyze [-m MODEL] --view VIEW [--heatmap-max N] --heatmap OUT PATH`
    writes, byte for byte (a glTF's triangle primitives each analyzed as its own draw).

    model: a model specification (default: the first preset, as analyze without -m);
    view: "front", "side" or "top"; scale_max: the top of the colour scale (0: the largest
    count); output: also write the SVG there (a temporary renamed into place). Drawn by the
    library (gc_heatmap_file_svg); costs one analysis per draw and about 30 bytes of SVG a
    drawn triangle (at most 100,000 triangles are drawn).
    """
    if model is None:
        name_p = ffi.new("const char**")
        spec_p = ffi.new("const char**")
        source_p = ffi.new("const char**")
        lib.gc_preset_get(0, name_p, spec_p, source_p)
        model = ffi.string(name_p[0]).decode()
    m = _model(model)
    err = _new_error()
    if not isinstance(view, str):
        raise ArgumentError(f"view: expected 'front', 'side' or 'top', got {view!r}")
    v = ffi.new("gc_heatmap_view*")
    _check(lib.gc_heatmap_view_parse(view.encode(), v, err), err)
    if not isinstance(scale_max, int) or isinstance(scale_max, bool) or not 0 <= scale_max <= 1000000:
        raise ArgumentError(f"scale_max: expected a count in [0, 1000000], got {scale_max!r}")
    opts = ffi.new("gc_load_options*")
    opts.positions_only = 1 if positions_only else 0
    p = os.fspath(path)
    text = ffi.new("char**")
    size = ffi.new("size_t*")
    _check(lib.gc_heatmap_file_svg(_encode_path(p), opts, _encode_path(p), m, v[0], scale_max, text, size, err), err)
    try:
        svg = ffi.unpack(text[0], size[0]).decode("utf-8")
    finally:
        lib.gc_svg_free(text[0])
    if output is not None:
        _write_text_atomic(output, svg)
    return svg


def report(path: PathLike, model: Optional[str] = None, view: str = "front",
           cache: Optional[Tuple[int, int]] = None, threads: int = 1, output: Optional[PathLike] = None,
           positions_only: bool = False) -> str:
    """The HTML page `gpucache report [-m MODEL] [--view VIEW] [--cache LO..HI] -o OUT PATH`
    writes (docs/report.md), drawn by the library (gc_report_html): the summary, every
    preset's numbers before and after `optimize -a auto` for `model` (default "generic"),
    the heat maps, and the commands that redo each part. The sweep's figure needs gnuplot,
    which only the CLI runs: here its place holds the note the CLI writes without gnuplot.
    The page shows optimize's time ("(0.01 s)"), the one part two pages of an input differ
    in. output: also write the page there (a temporary renamed into place).
    """
    spec = model if model is not None else "generic"
    m = _model(spec)
    err = _new_error()
    if not isinstance(view, str):
        raise ArgumentError(f"view: expected 'front', 'side' or 'top', got {view!r}")
    v = ffi.new("gc_heatmap_view*")
    _check(lib.gc_heatmap_view_parse(view.encode(), v, err), err)
    lo = hi = 0
    if cache is not None:
        try:
            lo, hi = (int(x) for x in cache)
        except (TypeError, ValueError):
            raise ArgumentError(f"cache: expected (lo, hi), got {cache!r}") from None
        if not 3 <= lo < hi <= 256:
            raise ArgumentError(f"cache: expected 3 <= lo < hi <= 256, got {cache!r}")
    if not isinstance(threads, int) or isinstance(threads, bool) or not 1 <= threads <= 64:
        raise ArgumentError(f"threads: expected a count in [1, 64], got {threads!r}")
    load = ffi.new("gc_load_options*")
    load.positions_only = 1 if positions_only else 0
    spec_c = ffi.new("char[]", spec.encode())
    o = ffi.new("gc_report_options*")
    o.load = load
    o.model_spec = spec_c
    o.model = m
    o.view = v[0]
    o.cache_lo, o.cache_hi = lo, hi
    o.threads = threads
    p = os.fspath(path)
    text = ffi.new("char**")
    size = ffi.new("size_t*")
    _check(lib.gc_report_html(_encode_path(p), o, ffi.NULL, text, size, err), err)
    try:
        page = ffi.unpack(text[0], size[0]).decode("utf-8")
    finally:
        lib.gc_svg_free(text[0])
    if output is not None:
        _write_text_atomic(output, page)
    return page


def _write_text_atomic(path: PathLike, text: str) -> None:
    """Writes `text` (UTF-8) to `path` whole or not at all (gc_write_file_atomic)."""
    _write_atomic(path, text.encode("utf-8"))
