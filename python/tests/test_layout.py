# SPDX-License-Identifier: MIT
"""The cffi declarations (generated from the headers by python/gen_cdef.py) against the C
compiler: every struct has the size and member offsets the compiler gives it, every enum
constant its value (ABI mode trusts the declarations, so a generator that dropped or changed
anything would otherwise corrupt memory)."""
import shutil
import subprocess

import pytest

from conftest import ROOT
from gpucache._native import ffi

# every struct type the generated declarations name (opaque handles have no layout)
CHECKED_STRUCTS = tuple(sorted(n for n in ffi.list_types()[0]
                               if ffi.typeof(n).kind == "struct" and ffi.typeof(n).fields is not None))


def test_struct_layouts_match_the_headers(tmp_path):
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if not cc:
        pytest.skip("no C compiler to read the headers' layout")
    assert len(CHECKED_STRUCTS) >= 40
    lines = ['#include <stdio.h>', '#include <stddef.h>', '#include "gpucache/gpucache_io.h"',
             "int main(void) {"]
    expected = []
    for name in CHECKED_STRUCTS:
        t = ffi.typeof(name)
        lines.append(f'printf("%zu\\n", sizeof({name}));')
        expected.append(ffi.sizeof(t))
        for field, _ in t.fields:
            lines.append(f'printf("%zu\\n", offsetof({name}, {field}));')
            expected.append(ffi.offsetof(t, field))
    lines.append("return 0; }")
    src = tmp_path / "layout.c"
    src.write_text("\n".join(lines))
    exe = tmp_path / "layout"
    subprocess.run([cc, "-std=c11", "-I", str(ROOT / "include"), str(src), "-o", str(exe)], check=True)
    got = [int(x) for x in subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout.split()]
    names = [f"{n}.{f}" for n in CHECKED_STRUCTS for f in ["(size)"] + [x for x, _ in ffi.typeof(n).fields]]
    assert dict(zip(names, got)) == dict(zip(names, expected))


def test_enums_match_the_headers(tmp_path):
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if not cc:
        pytest.skip("no C compiler to read the headers' enums")
    # every constant of every enum the generated declarations hold
    names = sorted({k for t in ffi.list_types()[0] if ffi.typeof(t).kind == "enum"
                    for k in ffi.typeof(t).relements})
    assert "GC_MEM_TYPE_COUNT" in names and "GC_OPT_COUNT" in names and len(names) >= 60
    src = tmp_path / "enums.c"
    src.write_text('#include <stdio.h>\n#include "gpucache/gpucache_io.h"\nint main(void) {\n'
                   + "".join(f'printf("%d\\n", (int){n});\n' for n in names) + "return 0; }\n")
    exe = tmp_path / "enums"
    subprocess.run([cc, "-std=c11", "-I", str(ROOT / "include"), str(src), "-o", str(exe)], check=True)
    got = [int(x) for x in subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout.split()]
    lib = __import__("gpucache._native", fromlist=["lib"]).lib
    assert got == [getattr(lib, n) for n in names]
