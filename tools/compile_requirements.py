"""What `make test` installs first, to compile perclib's loops while the rest of the test set
installs: numba (the "fast" extra) and the dependencies that ``python -m perclib._kernel`` imports
(numpy, scipy, scikit-learn), with the bounds pyproject.toml gives them. One per line.

Exits with status 1 where Python has no tomllib (3.10): the Makefile then installs the "fast" set
whole instead.
"""

import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
# The distributions the compile step imports, besides numba's own dependencies.
NEEDED = ("numpy", "scipy", "scikit-learn")


def name(requirement):
    """The distribution a requirement names: "scikit-learn>=1.6" -> "scikit-learn"."""
    return re.split(r"[\s<>=!~;\[(]", requirement, maxsplit=1)[0].lower()


def requirements(pyproject=ROOT / "pyproject.toml"):
    import tomllib

    with open(pyproject, "rb") as f:
        project = tomllib.load(f)["project"]
    base = [r for r in project["dependencies"] if name(r) in NEEDED]
    missing = sorted(set(NEEDED) - {name(r) for r in base})
    if missing:
        raise ValueError(f"pyproject.toml's dependencies do not name {missing}")
    return [r.replace(" ", "") for r in base + project["optional-dependencies"]["fast"]]


if __name__ == "__main__":  # pragma: no cover (run by the Makefile; tests call requirements())
    try:
        print("\n".join(requirements()))
    except ModuleNotFoundError:  # no tomllib
        sys.exit(1)
