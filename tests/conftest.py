"""Shared test setup. Agg and the isolated Jupyter/IPython/matplotlib folders: ../conftest.py.

The course content beside the notebooks (notebooks/exercises/, notebooks/experiments.py) is
imported as the notebooks import it, from notebooks/: that folder goes on sys.path here, once.
"""

import pathlib
import sys

import matplotlib.pyplot as plt
import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "notebooks"))


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="session")
def install_into():
    """Install packages into another environment's Python with this one's pip:
    ``install_into(python, *args, env=)`` (the other venv may be made ``--without-pip``)."""
    import subprocess
    import sys

    def install(python, *args, env=None):
        cmd = [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet"]
        subprocess.run([*cmd, *args], check=True, env=env)

    return install


@pytest.fixture
def assert_warned_at(request):
    """``assert_warned_at(warning)``: the warning points at the test's own line that called fit
    (its stacklevel). Under mutmut a trampoline frame sits between fit and _fit; there, only "not
    from inside perclib" can be checked."""
    import os

    def check(warning):
        if "MUTANT_UNDER_TEST" in os.environ:
            assert "perclib" not in warning.filename
        else:
            assert warning.filename == str(request.path)

    return check
