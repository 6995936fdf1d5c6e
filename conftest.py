"""pytest's set-up for the whole repository: unit tests, doctests and nbval alike.

The stored outputs of the notebooks must not depend on who runs the tests. The Jupyter kernels
that nbval (and nbgrader, in tests/test_labs.py) start inherit this process's environment, so
before anything runs, the user's own configuration is swapped for empty folders:

- Jupyter's config, data and runtime folders (``~/.jupyter``, ``JUPYTER_CONFIG_DIR``, ...);
- IPython's profile (``~/.ipython``, ``IPYTHONDIR``): e.g. ``ast_node_interactivity = 'all'``
  would print every expression, and ``InlineBackend`` settings change the figures;
- matplotlib's config folder (``~/.config/matplotlib``, ``MPLCONFIGDIR``, ``MATPLOTLIBRC``):
  e.g. another ``figure.figsize`` changes the stored ``<Figure size 640x480 with 1 Axes>``;
- a ``PYTHONSTARTUP`` file, which IPython runs in every kernel.

``MPLBACKEND`` is left alone on purpose: the notebooks choose their backend themselves
(``%matplotlib inline`` in their set-up cell), as a student's JupyterLab needs them to, and
CI runs the notebook tests with ``MPLBACKEND=Agg`` to prove it (tests/test_notebook_env.py
checks the same on a small notebook). The test process itself draws with Agg.
"""

import os
import shutil
import tempfile

_TMP = tempfile.mkdtemp(prefix="perclib-test-config-")
ISOLATED = {
    "JUPYTER_CONFIG_DIR": "jupyter-config",
    "JUPYTER_DATA_DIR": "jupyter-data",
    "JUPYTER_RUNTIME_DIR": "jupyter-runtime",
    "IPYTHONDIR": "ipython",
    "MPLCONFIGDIR": "matplotlib",
}
UNSET = ("JUPYTER_CONFIG_PATH", "JUPYTER_PATH", "MATPLOTLIBRC", "PYTHONSTARTUP")

for _name, _folder in ISOLATED.items():
    os.environ[_name] = os.path.join(_TMP, _folder)
    os.makedirs(os.environ[_name])
for _name in UNSET:
    os.environ.pop(_name, None)

import matplotlib  # noqa: E402  (after MPLCONFIGDIR is set: matplotlib reads it on import)

matplotlib.use("Agg")


def pytest_report_header(config):
    return (
        "perclib: unit tests, doctests (perclib/) and nbval in strict mode (notebooks/, "
        "labs/source/); `make test` adds coverage (>= 95%) and xdist workers; "
        f"Jupyter, IPython and matplotlib config isolated in {_TMP}"
    )


def pytest_unconfigure(config):
    shutil.rmtree(_TMP, ignore_errors=True)


# The scopes that start Jupyter kernels or nbgrader, longest first: each class of
# tests/test_labs.py (one nbgrader build and autograde run of a whole lab), the rest of that module,
# then nbval's notebooks and the other kernel tests. With `--dist loadscope --no-loadscope-reorder`
# (Makefile) xdist hands the scopes out in this order, so the long ones start first and the short
# ones fill the gaps at the end, instead of a lab's grading starting last on one worker.
_FIRST = (
    "tests/test_labs.py::TestLab",
    "tests/test_labs.py",
    "notebooks/",
    "labs/source/",
    "tests/test_notebook_env.py",
)


def _rank(item):
    return next((i for i, p in enumerate(_FIRST) if item.nodeid.startswith(p)), len(_FIRST))


def pytest_collection_modifyitems(config, items):
    # A stable sort: the tests of one scope (the cells of one notebook) keep their order.
    items.sort(key=_rank)
