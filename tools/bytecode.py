"""Compile the named installed packages to bytecode, on every core, their own tests left out.

``python tools/bytecode.py PACKAGE...``: `make test` runs it once the test set is installed, for
the packages that its processes import as they start (see BYTECODE_PACKAGES in the Makefile).
Otherwise each of those processes (pytest, its two workers, the two warm kernel servers, the
nbgrader servers), starting together on a fresh clone, compiles the same modules at once.

A package that is not installed is passed over; a file that does not compile is left to Python,
which reports it when something imports it.
"""

import compileall
import importlib.util
import re
import sys

# The packages' own tests, which no test process imports.
SKIP = re.compile(r"[/\\](tests?|testing)[/\\]")


def folders(names):
    """The folders of the packages ``names`` that are installed, found without importing them."""
    found = []
    for name in names:
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.submodule_search_locations:
            found.extend(spec.submodule_search_locations)
    return found


def main(names):  # pragma: no cover (run by the Makefile)
    for folder in folders(names):
        compileall.compile_dir(folder, quiet=1, workers=0, rx=SKIP)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.argv[1:]))
