"""tools/compile_requirements.py: what `make test` installs before it compiles perclib's loops.

The compile step runs while the rest of the test set installs, so it may import nothing else.
"""

import importlib.util
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location(
    "compile_requirements", ROOT / "tools" / "compile_requirements.py"
)
C = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(C)

pytest.importorskip("tomllib")


def test_numba_and_the_numeric_packages_with_pyprojects_bounds():
    reqs = C.requirements()
    assert sorted(map(C.name, reqs)) == ["numba", "numpy", "scikit-learn", "scipy"]
    text = (ROOT / "pyproject.toml").read_text()
    for req in reqs:  # each as pyproject.toml writes it: the same bounds
        assert f'"{req}"' in text.replace(" ", ""), req


def test_a_dependency_missing_from_pyproject_is_named(tmp_path):
    pyproject = tmp_path / "pyproject.toml"
    text = (ROOT / "pyproject.toml").read_text()
    pyproject.write_text(text.replace('"scipy>=', '"not-scipy>='))
    with pytest.raises(ValueError, match="scipy"):
        C.requirements(pyproject)


# In a fresh interpreter, every installed distribution outside those requirements (and what they
# require in turn) is hidden, as if not installed yet: compiling must still work.
_ONLY_THE_REQUIREMENTS = """
import importlib.metadata as md, importlib.util, sys

spec = importlib.util.spec_from_file_location("compile_requirements", sys.argv[1])
C = importlib.util.module_from_spec(spec)
spec.loader.exec_module(C)
allowed, todo = set(), list(map(C.name, sys.argv[2:]))
while todo:
    dist = todo.pop()
    if dist in allowed:
        continue
    allowed.add(dist)
    for req in md.requires(dist) or []:
        if "extra ==" not in req:
            todo.append(C.name(req))
top = md.packages_distributions()
hidden = {
    mod for mod, dists in top.items()
    if mod != "perclib" and not {d.lower() for d in dists} & allowed
}


class Hide:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in hidden:
            raise ModuleNotFoundError(f"No module named {name!r} (hidden)", name=name)


sys.meta_path.insert(0, Hide())
from perclib import _kernel

_kernel.warm()
print("warm() ran")
try:
    import pandas  # installed with the test set, and hidden here: the hiding works
except ModuleNotFoundError:
    print("pandas hidden")
print("matplotlib hidden" if "matplotlib" in hidden else "matplotlib importable")
"""


def test_compiling_needs_nothing_but_those_requirements():
    pytest.importorskip("numba")
    done = subprocess.run(
        [sys.executable, "-c", _ONLY_THE_REQUIREMENTS, C.__file__, *C.requirements()],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    # warm() compiled (or loaded) every loop; an import of anything else would have raised.
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split("\n")[:3] == ["warm() ran", "pandas hidden", "matplotlib hidden"]
