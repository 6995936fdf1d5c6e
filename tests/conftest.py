"""Shared test setup. Agg and the isolated Jupyter/IPython/matplotlib folders: ../conftest.py."""

import matplotlib.pyplot as plt
import pytest


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="session")
def install_into():
    """Install packages into another environment's Python: ``install_into(python, *args, env=)``.

    uv (which `make` puts in the venv) when it is there, several times faster than pip; pip
    otherwise. Both resolve against the same index and install the same packages.
    """
    import pathlib
    import subprocess
    import sys

    uv = pathlib.Path(sys.executable).with_name("uv")

    def install(python, *args, env=None):
        if uv.exists():
            cmd = [str(uv), "pip", "install", "--quiet", "--python", str(python), *args]
        else:
            cmd = [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet"]
            cmd += list(args)
        subprocess.run(cmd, check=True, env=env)

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
