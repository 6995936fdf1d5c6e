"""pytest's set-up for the whole repository: the test tiers, and the user's configuration kept out.

Tiers (markers, given here by where a test lives; ``pytest -m <tier>`` runs one):

- ``unit``: the unit tests of tests/ and the doctests of perclib/;
- ``notebooks``: nbval (strict) over notebooks/, and tests/test_notebook_env.py;
- ``labs``: tests/test_labs.py (nbgrader grades the labs) and nbval over labs/source/;
- ``browser``: tests/browser/ (JupyterLab and headless Chromium);
- ``release``: marked in the test files (the wheel and sdist built and installed).

pyproject.toml deselects ``browser`` and ``release`` by default; a ``-m`` on the command line
replaces that choice.

The stored outputs of the notebooks must not depend on who runs the tests. The Jupyter kernels
that nbval (and nbgrader) start inherit this process's environment, so before anything runs,
the user's own configuration is swapped for empty temporary folders:

- Jupyter's config, data and runtime folders (``~/.jupyter``, ``JUPYTER_CONFIG_DIR``, ...);
- IPython's profile (``~/.ipython``, ``IPYTHONDIR``): e.g. ``ast_node_interactivity = 'all'``
  would print every expression, and ``InlineBackend`` settings change the figures;
- matplotlib's config folder (``~/.config/matplotlib``, ``MPLCONFIGDIR``, ``MATPLOTLIBRC``):
  e.g. another ``figure.figsize`` changes the stored ``<Figure size 640x480 with 1 Axes>``;
- a ``PYTHONSTARTUP`` file, which IPython runs in every kernel.

``MPLBACKEND`` is left alone on purpose: the notebooks choose their backend themselves
(``%matplotlib inline`` in their set-up cell), as a student's JupyterLab needs them to, and CI
runs ``make test`` with ``MPLBACKEND=Agg`` to prove it (tests/test_notebook_env.py checks the
same on a small notebook). The test process itself draws with Agg.
"""

import os
import shutil
import tempfile

import pytest

# Each pytest process (an xdist worker too) makes its own folders and removes them at its end.
CONFIG = tempfile.mkdtemp(prefix="perclib-test-config-")
ISOLATED = {
    "JUPYTER_CONFIG_DIR": "jupyter-config",
    "JUPYTER_DATA_DIR": "jupyter-data",
    "JUPYTER_RUNTIME_DIR": "jupyter-runtime",
    "IPYTHONDIR": "ipython",
    "MPLCONFIGDIR": "matplotlib",
}
UNSET = ("JUPYTER_CONFIG_PATH", "JUPYTER_PATH", "MATPLOTLIBRC", "PYTHONSTARTUP")

for _name, _folder in ISOLATED.items():
    os.environ[_name] = os.path.join(CONFIG, _folder)
    os.makedirs(os.environ[_name])
for _name in UNSET:
    os.environ.pop(_name, None)

import matplotlib  # noqa: E402  (after MPLCONFIGDIR is set: matplotlib reads it on import)

matplotlib.use("Agg")

# Where each tier lives (node ids start with the path from the repository's root).
TIERS = {
    "notebooks/": "notebooks",
    "tests/test_notebook_env.py": "notebooks",
    "labs/source/": "labs",
    "tests/test_labs.py": "labs",
    "tests/browser/": "browser",
}


def tier(nodeid):
    """The tier of a test, from its node id; ``unit`` for everything not listed in TIERS."""
    return next((t for path, t in TIERS.items() if nodeid.startswith(path)), "unit")


@pytest.hookimpl(tryfirst=True)  # before pytest's -m deselects by marker
def pytest_collection_modifyitems(config, items):
    for item in items:
        if not item.get_closest_marker("release"):
            item.add_marker(tier(item.nodeid))


def pytest_report_header(config):
    return f"perclib: Jupyter, IPython and matplotlib config isolated in {CONFIG}"


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config):
    shutil.rmtree(CONFIG, ignore_errors=True)
