# SPDX-License-Identifier: MIT
"""What the Python tests of the gpucache command share (pictures_test.py, report_test.py,
report_browser_test.py, sweep_plot_test.py): the binary and a fresh work folder from the
command line, a tally of checks that goes on past a failure, and running the binary.
Debian's python3 only."""
import os
import shutil
import subprocess
import sys


class Checks:
    def __init__(self, argv):
        """argv: the script's, GPUCACHE_BINARY and WORK_DIR first (made absolute)."""
        self.bin = os.path.abspath(argv[1])
        self.work = os.path.abspath(argv[2])
        self.passes = 0
        self.failures = 0

    def enter_fresh_work(self):
        """Empties the work folder (made if missing) and makes it the current folder."""
        shutil.rmtree(self.work, ignore_errors=True)
        os.makedirs(self.work)
        os.chdir(self.work)

    def check(self, ok, what):
        """Counts one check; a failed one prints FAIL and what it checked."""
        if ok:
            self.passes += 1
        else:
            self.failures += 1
            print("FAIL:", what)

    def run(self, *args, env=None):
        """Runs the binary with args: (exit status, stdout, stderr), decoded leniently."""
        p = subprocess.run([self.bin, *args], capture_output=True, env=env)
        return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")

    def finish(self, name=None):
        """Prints the tally and exits: 1 if any check failed, else 0."""
        prefix = f"{name}: " if name else ""
        print(f"{prefix}{self.passes} passed, {self.failures} failed")
        sys.exit(1 if self.failures else 0)
