"""The cffi declarations in gpucache/_native.py against the C headers: every struct the package
passes has the size and member offsets the C compiler gives it (ABI mode trusts the
declarations, so a header change that is not carried over would otherwise corrupt memory)."""
import shutil
import subprocess

import pytest

from conftest import ROOT
from gpucache._native import CHECKED_STRUCTS, ffi


def test_struct_layouts_match_the_headers(tmp_path):
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if not cc:
        pytest.skip("no C compiler to read the headers' layout")
    lines = ['#include <stdio.h>', '#include <stddef.h>', '#include "gpucache/gpucache.h"',
             '#include "gpucache/gpucache_probe.h"', '#include "gpucache/gpucache_pictures.h"',
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
    names = ["GC_TOPOLOGY_COUNT", "GC_MODEL_FAMILY_COUNT", "GC_OPT_COUNT", "GC_MEM_TYPE_COUNT",
             "GC_MEMSYS_STRATEGY_COUNT", "GC_HAZARD_KIND_COUNT", "GC_ERR_UNSUPPORTED", "GC_GRID_OPTIMAL"]
    src = tmp_path / "enums.c"
    src.write_text('#include <stdio.h>\n#include "gpucache/gpucache.h"\nint main(void) {\n'
                   + "".join(f'printf("%d\\n", (int){n});\n' for n in names) + "return 0; }\n")
    exe = tmp_path / "enums"
    subprocess.run([cc, "-std=c11", "-I", str(ROOT / "include"), str(src), "-o", str(exe)], check=True)
    got = [int(x) for x in subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout.split()]
    lib = __import__("gpucache._native", fromlist=["lib"]).lib
    assert got == [getattr(lib, n) for n in names]
