# SPDX-License-Identifier: MIT
"""Builds the gpucache Python package: CMake builds libgpucache_python.so from this
repository's C sources (python/CMakeLists.txt; nothing is copied), and the library and its
cffi declarations (gpucache_cdef.h, generated from the public headers) are put beside the
package's modules, which reach it through cffi in ABI mode (no compiler needed for
the Python side, no Python headers).

Offline, with Debian's python3-setuptools and python3-wheel (there is no pyproject.toml, so
pip builds here, with the installed setuptools, without fetching build dependencies):

    /usr/bin/python3 -m pip install --break-system-packages ./python        # system-wide, or
    /usr/bin/python3 -m venv --system-site-packages /tmp/venv && /tmp/venv/bin/pip install ./python

GPUCACHE_CMAKE_BUILD_DIR reuses a configured build folder instead of python/build-cmake;
GPUCACHE_CMAKE_ARGS adds arguments to the configure step.
"""
import os
import shlex
import shutil
import subprocess
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
LIBRARY = "libgpucache_python.so"
CDEF = "gpucache_cdef.h"


class BuildWithCMake(build_py):
    """build_py, plus the native library built by CMake and copied into the package."""

    def run(self):
        super().run()
        build_dir = Path(os.environ.get("GPUCACHE_CMAKE_BUILD_DIR") or HERE / "build-cmake")
        if not (ROOT / "include" / "gpucache" / "gpucache.h").exists():
            raise SystemExit(f"gpucache: {ROOT} is not the gpucache repository (python/ must stay inside it)")
        if not (build_dir / "CMakeCache.txt").exists():
            args = ["cmake", "-S", str(ROOT), "-B", str(build_dir), "-DCMAKE_BUILD_TYPE=Release",
                    "-DGPUCACHE_TESTS=OFF", "-DGPUCACHE_BENCH=OFF", "-DGPUCACHE_EXAMPLES=OFF"]
            args += shlex.split(os.environ.get("GPUCACHE_CMAKE_ARGS", ""))
            subprocess.check_call(args)
        subprocess.check_call(["cmake", "--build", str(build_dir), "--target", "gpucache_python",
                               "-j", str(min(os.cpu_count() or 1, 4))])
        target = Path(self.build_lib) / "gpucache"
        target.mkdir(parents=True, exist_ok=True)
        # the library, and the cffi declarations generated from its headers (gen_cdef.py)
        for name in (LIBRARY, CDEF):
            shutil.copy2(build_dir / "python" / name, target / name)


class BinaryDistribution(Distribution):
    """The wheel holds a native library: tag it for this platform, not as pure Python."""

    def has_ext_modules(self):
        return True


setup(
    name="gpucache",
    version="0.1.0",
    description="What a GPU's vertex caches do with an index buffer (Python bindings of libgpucache)",
    packages=["gpucache"],
    package_data={"gpucache": ["py.typed"]},
    python_requires=">=3.9",
    install_requires=["numpy>=1.24", "cffi>=1.15"],
    cmdclass={"build_py": BuildWithCMake},
    distclass=BinaryDistribution,
    zip_safe=False,
)
