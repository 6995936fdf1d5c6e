"""The notebook tests pass whatever the user's environment.

A student's machine may set ``MPLBACKEND=Agg`` (containers, CI images, remote machines), run in
the C locale, and hold its own IPython profile and matplotlib configuration. Each one changes
what a cell prints, so nbval (strict) would fail although nothing is wrong with the notebook.

The fix is in two places, and each is checked here on a small notebook in such a hostile
environment (one kernel per run, a few seconds):

- the notebooks' set-up cell says ``%matplotlib inline`` (a kernel started with MPLBACKEND=Agg
  otherwise draws nothing: "Missing output fields from running code: {'text/plain'}");
- ../conftest.py gives the kernels empty Jupyter, IPython and matplotlib folders (an IPython
  profile with ``ast_node_interactivity = 'all'`` shows every expression; a matplotlibrc with
  another ``figure.figsize`` changes the stored ``<Figure size 640x480 with 1 Axes>``).

Each check can fail: without the root conftest or without the magic, the same
run fails, for the reason it should. CI also runs every real notebook with ``MPLBACKEND=Agg``.
"""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys
from xml.etree import ElementTree

import nbformat
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
SETUP = nbformat.read(ROOT / "notebooks" / "07_multiclass.ipynb", as_version=4)
SETUP_CELL = next(c.source for c in SETUP.cells if c.cell_type == "code")
# The negative controls need only matplotlib, not the whole course (a cheaper kernel).
UPDATE = "w \u2190 w + \u03b7\u00b7y\u00b7x, \u03b3 > 0"  # printed in the C locale
LIGHT_SETUP = "%matplotlib inline\nimport matplotlib.pyplot as plt"


def _cell(source, outputs=(), count=1):
    cell = nbformat.v4.new_code_cell(source, execution_count=count)
    cell.outputs = [nbformat.from_dict(o) for o in outputs]
    return cell


def _figure_output(size):
    # nbval compares text/plain; image/png is skipped, but the key must be there.
    return {
        "output_type": "display_data",
        "metadata": {},
        "data": {"text/plain": f"<Figure size {size} with 1 Axes>", "image/png": "iVBORw0KGgo="},
    }


def _notebook(setup: str) -> nbformat.NotebookNode:
    """The real set-up cell, then cells whose output each hostile setting would change."""
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nb.cells = [
        _cell(setup, count=1),
        # A figure at matplotlib's default size, shown as the notebooks show theirs.
        _cell(
            "fig, ax = plt.subplots()\nax.plot([0, 1], [0, 1], 'o')\nplt.show()",
            [_figure_output("640x480")],
            count=2,
        ),
        # Only the last expression is displayed (ast_node_interactivity = 'last_expr').
        _cell(
            "a = 1\na + 1\na + 2",
            [
                {
                    "output_type": "execute_result",
                    "execution_count": 3,
                    "metadata": {},
                    "data": {"text/plain": "3"},
                }
            ],
            count=3,
        ),
        # Non-ASCII text prints the same in the C locale.
        _cell(
            f"print({UPDATE!r})",
            [{"output_type": "stream", "name": "stdout", "text": UPDATE + "\n"}],
            count=4,
        ),
    ]
    return nb


def _hostile_home(home: pathlib.Path) -> dict[str, str]:
    """A user's own settings, each of which changes a cell's output; returns the env vars."""
    profile = home / ".ipython" / "profile_default"
    profile.mkdir(parents=True)
    (profile / "ipython_kernel_config.py").write_text(
        "c.InteractiveShell.ast_node_interactivity = 'all'\n"
    )
    mpl = home / ".config" / "matplotlib"
    mpl.mkdir(parents=True)
    (mpl / "matplotlibrc").write_text("figure.figsize: 4, 3\nfigure.dpi: 80\n")
    return {
        "HOME": str(home),
        "MPLBACKEND": "Agg",
        "LANG": "C",
        "LC_ALL": "C",
        "IPYTHONDIR": str(home / ".ipython"),
        "MPLCONFIGDIR": str(mpl),
        "MATPLOTLIBRC": str(mpl / "matplotlibrc"),
    }


def _nbval(tmp_path, setups, *, isolate=True):
    """Run nbval (strict) on one small notebook per set-up cell, in the hostile environment, in
    one pytest process; return the process and each cell's outcome by notebook: {name: [(outcome,
    message), ...]}.

    The notebooks sit outside the repository, so their set-up (../conftest.py) is loaded as a
    plugin (``-p conftest``) when ``isolate`` is true, and not at all otherwise.
    """
    work = tmp_path / "work"
    work.mkdir()
    for name, setup in setups.items():
        nbformat.write(_notebook(setup), work / f"{name}.ipynb")
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("JUPYTER_", "MPL", "IPYTHON", "PYTEST_", "COV_CORE"))
    }
    env.update(_hostile_home(tmp_path / "home"))
    # the set-up cell imports its exercises (notebooks/exercises/), found beside the notebooks
    # when they run from notebooks/; these copies run elsewhere
    env["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT), str(ROOT / "notebooks"), env.get("PYTHONPATH", "")]
    )
    cmd = [
        sys.executable,
        "-m",
        "pytest",
        "-p",
        "no:cacheprovider",
        "-p",
        "no:randomly",
        "--nbval",
        "--nbval-current-env",  # the kernel of this Python, as the repository's tests run
        *(["-p", "conftest"] if isolate else []),  # the repository's set-up
        "-q",
        "--junitxml",
        str(tmp_path / "report.xml"),
        *(f"{name}.ipynb" for name in setups),
    ]
    done = subprocess.run(cmd, cwd=work, env=env, capture_output=True, text=True, timeout=300)
    cells = {name: [] for name in setups}
    for case in ElementTree.parse(tmp_path / "report.xml").iter("testcase"):
        name = case.get("classname").removesuffix(".ipynb").rsplit(".", 1)[-1]
        failure = case.find("failure")
        outcome = "failed" if failure is not None else "passed"
        message = "" if failure is None else (failure.get("message", "") + (failure.text or ""))
        cells[name].append((outcome, message))
    return done, cells


def _report(done):
    return f"exit {done.returncode}\n{done.stdout[-4000:]}\n{done.stderr[-2000:]}"


OWNED = sorted(p.name for p in (ROOT / "notebooks").glob("0*_*.ipynb"))


@pytest.mark.parametrize("notebook", OWNED)
def test_setup_cell_chooses_the_inline_backend(notebook):
    """The set-up cell of each notebook this branch owns starts with ``%matplotlib inline``."""
    nb = json.loads((ROOT / "notebooks" / notebook).read_text(encoding="utf-8"))
    first = next(c for c in nb["cells"] if c["cell_type"] == "code")
    assert "".join(first["source"]).startswith("%matplotlib inline\n")


@pytest.fixture(scope="module")
def isolated(tmp_path_factory):
    """One nbval run, with the repository's set-up, of two notebooks: the real set-up cell, and
    the light one without ``%matplotlib inline`` (a negative control)."""
    return _nbval(
        tmp_path_factory.mktemp("isolated"),
        {"real": SETUP_CELL, "nomagic": LIGHT_SETUP.replace("%matplotlib inline\n", "")},
    )


def test_hostile_environment_passes_with_the_repository_setup(isolated):
    done, cells = isolated
    assert [outcome for outcome, _ in cells["real"]] == ["passed"] * 4, _report(done)


def test_hostile_environment_is_hostile_without_the_isolation(tmp_path):
    """Without ../conftest.py the user's IPython profile and matplotlibrc reach the kernel."""
    done, cells = _nbval(tmp_path, {"light": LIGHT_SETUP}, isolate=False)
    assert done.returncode != 0, _report(done)
    # the user's matplotlibrc sized the figure, the user's profile showed every expression
    outcomes = [outcome for outcome, _ in cells["light"]]
    assert outcomes == ["passed", "failed", "failed", "passed"], _report(done)
    assert "<Figure size 320x240 with 1 Axes>" in cells["light"][1][1], _report(done)


def test_without_the_magic_mplbackend_agg_shows_no_figure(isolated):
    done, cells = isolated
    assert done.returncode != 0, _report(done)
    outcomes = [outcome for outcome, _ in cells["nomagic"]]
    assert outcomes == ["passed", "failed", "passed", "passed"], _report(done)
    missing = "Missing output fields from running code: {'text/plain'}"
    assert missing in cells["nomagic"][1][1], _report(done)
