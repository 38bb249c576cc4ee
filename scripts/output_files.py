# SPDX-License-Identifier: MIT
"""What the measuring scripts (measure-device.py, probe-index-pages.py, probe-topologies.py)
share for their output files: each is written to a temporary beside it (tempfile.mkstemp in
the same folder) and renamed onto its name (os.replace) only when written whole, so that an
output folder never holds a partial file under an output's name.

    with replaced(os.path.join(out_dir, "micro.jsonl")) as out:
        out.write(...)

An exception inside the block removes the temporary and leaves what stood at the name (if
anything) as it was. The file gets the mode open() would give it (0666 less the umask)."""
import contextlib
import os
import tempfile


def _umask():
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def replaced(path, mode="w"):
    """A file object for the temporary of `path` ("w" or "wb"); renamed onto path when the
    block ends without an exception."""
    if mode not in ("w", "wb"):
        raise ValueError("replaced: mode must be 'w' or 'wb', not %r" % (mode,))
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=folder, prefix="." + os.path.basename(path) + ".", suffix=".tmp")
    try:
        with os.fdopen(fd, mode) as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
