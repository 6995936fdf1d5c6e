"""Shared test setup: a headless matplotlib, and Jupyter kept out of the user's own folders."""
import os
import tempfile

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

_JUPYTER_TMP = tempfile.mkdtemp(prefix="perclib-jupyter-")
for _name in ("JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR"):
    os.environ.setdefault(_name, os.path.join(_JUPYTER_TMP, _name.split("_")[1].lower()))


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")
