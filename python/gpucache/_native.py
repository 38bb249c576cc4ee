# SPDX-License-Identifier: MIT
"""The C library, through cffi in ABI mode (no compiler needed at install time).

The declarations are not written here: CMake generates them from the public headers
(include/gpucache/gpucache_io.h and the headers it includes) with python/gen_cdef.py at build
time, into gpucache_cdef.h beside the library, so that they cannot drift from the C API
(tests/test_declarations.py checks that every public function is declared and callable). The
library is found at GPUCACHE_LIBRARY, or beside this file (where setup.py puts it); the
declarations beside the library, else beside this file.
"""
from __future__ import annotations

import os
from pathlib import Path

import cffi

LIBRARY_NAME = "libgpucache_python.so"
CDEF_NAME = "gpucache_cdef.h"


def _library_path() -> str:
    explicit = os.environ.get("GPUCACHE_LIBRARY")
    if explicit:
        return explicit
    beside = Path(__file__).with_name(LIBRARY_NAME)
    if beside.exists():
        return str(beside)
    raise ImportError(
        f"gpucache: {LIBRARY_NAME} not found beside {Path(__file__).parent} and GPUCACHE_LIBRARY is not set; "
        "install the package with '/usr/bin/python3 -m pip install ./python' or point GPUCACHE_LIBRARY "
        "at build/python/libgpucache_python.so"
    )


def _cdef_path(library: str) -> Path:
    for folder in (Path(library).resolve().parent, Path(__file__).parent):
        candidate = folder / CDEF_NAME
        if candidate.exists():
            return candidate
    raise ImportError(f"gpucache: {CDEF_NAME} (the declarations generated from the headers at build time) "
                      f"not found beside {library} nor beside {Path(__file__).parent}")


_LIBRARY = _library_path()
CDEF_FILE = _cdef_path(_LIBRARY)
CDEF = CDEF_FILE.read_text(encoding="utf-8")

ffi = cffi.FFI()
ffi.cdef(CDEF)
# libc's free, for the buffers the library allocates with malloc and hands over.
ffi.cdef("void free(void* p);")

lib = ffi.dlopen(_LIBRARY)
libc = ffi.dlopen(None)
