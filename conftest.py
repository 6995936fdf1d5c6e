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

import functools
import gc
import importlib.util
import os
import shutil
import signal
import sys
import tempfile

import pytest

# One set of folders and warm servers per pytest run: the process that starts the run makes them,
# and pytest-xdist's workers, its children, inherit them through the environment (a pytest that a
# test starts makes its own).
_SHARED = "PERCLIB_TEST_CONFIG"
_OWNER = os.environ.get(_SHARED, "").rpartition(os.pathsep)[0] != str(os.getppid())
if _OWNER:
    _TMP = tempfile.mkdtemp(prefix="perclib-test-config-")
    os.environ[_SHARED] = f"{os.getpid()}{os.pathsep}{_TMP}"
else:
    _TMP = os.environ[_SHARED].rpartition(os.pathsep)[2]
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
    os.makedirs(os.environ[_name], exist_ok=not _OWNER)
for _name in UNSET:
    os.environ.pop(_name, None)
# Kernel specs in the (isolated) data folder come before the virtualenv's own, so that the spec
# installed below is the one nbval and nbgrader find for "python3".
os.environ["JUPYTER_PREFER_ENV_PATH"] = "0"

# Warm kernels (tools/warm_kernel.py): each test process imports ipykernel, numpy, scipy,
# scikit-learn and perclib once, in a server, and each kernel is a fork of it. The "python3" spec
# runs the launcher, which falls back to a cold `python -m ipykernel_launcher` whenever the
# kernel's environment is not the server's.
_spec = importlib.util.spec_from_file_location(
    "warm_kernel", os.path.join(os.path.dirname(__file__), "tools", "warm_kernel.py")
)
warm_kernel = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(warm_kernel)
if _OWNER:
    warm_kernel.install(os.environ["JUPYTER_DATA_DIR"])
# Two servers for the whole run, taken in turn (see tools/warm_kernel.py); PERCLIB_WARM_SERVERS=0
# starts none (every kernel cold), as a pytest run of a couple of kernels would not earn the
# servers' imports back.
_SOCKETS = [
    os.path.join(_TMP, f"warm-{i}.sock")
    for i in range(int(os.environ.get("PERCLIB_WARM_SERVERS", "2")))
]
os.environ[warm_kernel.SOCKET_ENV] = os.pathsep.join(_SOCKETS)
_SERVERS = []

import matplotlib  # noqa: E402  (after MPLCONFIGDIR is set: matplotlib reads it on import)

matplotlib.use("Agg")


def pytest_report_header(config):
    return (
        "perclib: unit tests, doctests (perclib/) and nbval in strict mode (notebooks/, "
        "labs/source/); `make test` adds coverage (>= 95%) and xdist workers; "
        f"Jupyter, IPython and matplotlib config isolated in {_TMP}"
    )


def _no_kernel_coverage(*args, **kwargs):
    return None


def pytest_configure(config):
    # With --cov, nbval also starts coverage inside each notebook's kernel (nbval.cover) and adds
    # what the notebooks ran to the total. perclib's coverage is the unit tests' and doctests'
    # measure: every line of perclib that the notebooks ran, the tests run too (the same 33 lines
    # missed, 99.23%, with the kernels' share and without it), and the tracer slowed every kernel:
    # the suite took about 6 s longer. The notebooks' kernels run untraced; nbval still checks
    # every output in strict mode.
    import nbval.plugin

    for name in ("setup_coverage", "teardown_coverage"):
        if not callable(getattr(nbval.plugin, name, None)):
            raise RuntimeError(f"nbval.plugin.{name} is gone: see pytest_configure in conftest.py")
        setattr(nbval.plugin, name, _no_kernel_coverage)


def pytest_sessionstart(session):
    # In the process that started the run, before xdist starts its workers (xdist's own
    # sessionstart comes last): the servers import while the workers start and collect.
    if _SOCKETS and _OWNER:
        _SERVERS.extend(warm_kernel.start(_SOCKETS))


# Coverage's tracer is paid for by every line of Python that runs under it, perclib's or not. Two
# kinds of work run untraced; the report is the same (99.23%, the same 33 lines missed) traced:
# - Tests marked "untraced" (tests/test_fast.py, tests/test_oracles.py, scikit-learn's estimator
#   checks in tests/test_sklearn_compat.py). The first two train the models on thousands of rows
#   and over hundreds of seeds, through perclib's per-sample Python loops (the numpy scan, the
#   reference loop): about 14 s of the workers' time (the whole run took 10 s longer with them
#   traced). Every line of perclib that they run, a traced test runs too.
# - matplotlib drawing a figure (Figure.savefig, the Agg canvas's draw), in every test: the widgets
#   draw a PNG at each step. No line of perclib runs inside a draw (perclib hands matplotlib no
#   callback, formatter or artist of its own), and the drawing took a third longer traced: about
#   5 s of the workers' time in the widget and plotting tests.
# Coverage is never overstated this way, only ever understated: a line that ran only untraced
# would count as missed. PERCLIB_TRACE_ALL=1 traces everything.
_TRACE_ALL = os.environ.get("PERCLIB_TRACE_ALL", "") not in ("", "0")


def _tracer_to_pause():
    """This thread's tracer (coverage's), to take away for a while; None: nothing to pause."""
    return None if _TRACE_ALL else sys.gettrace()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    tracer = _tracer_to_pause() if item.get_closest_marker("untraced") else None
    if tracer is None:
        yield
        return
    sys.settrace(None)  # this thread's tracer, as coverage itself pauses it
    try:
        yield
    finally:
        sys.settrace(tracer)


def _drawn_untraced(draw):
    # A plain function, not a generator or a context manager: perclib's frame that asked for the
    # drawing is still running, and coverage must see this frame return (it keeps a stack of the
    # frames it saw called) before perclib's next lines, or it files them under another frame.
    @functools.wraps(draw)
    def untraced_draw(*args, **kwargs):
        tracer = _tracer_to_pause()
        if tracer is None:
            return draw(*args, **kwargs)
        sys.settrace(None)
        try:
            return draw(*args, **kwargs)
        finally:
            sys.settrace(tracer)

    return untraced_draw


def pytest_collection_finish(session):
    # Only the processes that run tests draw (not xdist's controller, which then imports less).
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    Figure.savefig = _drawn_untraced(Figure.savefig)
    FigureCanvasAgg.draw = _drawn_untraced(FigureCanvasAgg.draw)
    # In each test process, once its tests are collected: what has been imported and collected so
    # far (scikit-learn, numba, matplotlib, IPython, the test items) lives to the end of the run.
    # Frozen, the garbage collector no longer walks it: not at each full collection during the
    # tests, nor at the end, where pytest collects five times (a run's end took 2.5 s, now 1.1 s).
    gc.collect()
    gc.freeze()


@pytest.hookimpl(trylast=True)  # after the other plugins' own clean-up: see the end
def pytest_unconfigure(config):
    for server in _SERVERS:  # stopped by its PID; it kills the kernels it still runs
        os.kill(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
    if _OWNER:
        _remove_shared_folders()
    # The process ends next, and Python's shutdown runs the garbage collector over everything
    # still alive several times while it clears the modules: over a second in each xdist worker
    # (scikit-learn, numba's compiled loops, what a run of tests keeps), which the whole run
    # waited for after its last test, and half a second in this process. One collection now
    # (the garbage goes, finalizers run, as at shutdown), then everything left is frozen: the
    # shutdown's collections no longer walk it, and it is freed as the modules are cleared.
    gc.collect()
    gc.freeze()


def _remove_shared_folders():
    # PERCLIB_WARM_LOGS=<folder> keeps each server's log: one line per kernel, "warm" or "cold"
    # with the reason (a variable that a test left in os.environ, say).
    keep = os.environ.get("PERCLIB_WARM_LOGS")
    for path in _SOCKETS if keep and _SERVERS else ():
        if os.path.exists(path + ".log"):
            shutil.copy(
                path + ".log", os.path.join(keep, f"{os.getpid()}-{os.path.basename(path)}.log")
            )
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
