"""The run's own set-up (../conftest.py): tests marked ``untraced``, and matplotlib's drawing, run
without coverage's tracer.

The hook takes the thread's tracer away for the test's call only and gives it back after, even
when the test fails; an unmarked test keeps it. A figure is drawn untraced, and the lines of the
code that asked for it are still measured after it. (That the report stays the same is measured,
not tested: ``PERCLIB_TRACE_ALL=1 make test`` traces everything.)
"""

import importlib.util
import io
import os
import pathlib
import sys

import pytest
from matplotlib.figure import Figure

ROOT = pathlib.Path(__file__).resolve().parents[1]


class _Item:
    def __init__(self, marked):
        self.marked = marked

    def get_closest_marker(self, name):
        return object() if self.marked and name == "untraced" else None


def _tracer(frame, event, arg):
    return None


@pytest.fixture
def root(request, monkeypatch):
    """conftest.py, with PERCLIB_TRACE_ALL off whatever the caller set."""
    plugins = request.config.pluginmanager.get_plugins()
    module = next(p for p in plugins if getattr(p, "__file__", None) == str(ROOT / "conftest.py"))
    monkeypatch.setattr(module, "_TRACE_ALL", False)
    return module


@pytest.fixture
def hook(root):
    """conftest.py's pytest_runtest_call."""
    return root.pytest_runtest_call


def _run(hook, marked, fail=False):
    """The tracer during the test's call and after it (_tracer set before), and what the call
    raised through the hook."""
    before = sys.gettrace()
    sys.settrace(_tracer)
    try:
        wrapper = hook(_Item(marked))
        next(wrapper)
        during = sys.gettrace()
        try:
            if fail:
                wrapper.throw(AssertionError("the test failed"))
            wrapper.send(None)
        except (StopIteration, AssertionError) as e:
            raised = type(e)
        return during, sys.gettrace(), raised
    finally:
        sys.settrace(before)


def test_an_untraced_test_runs_without_the_tracer_and_gives_it_back(hook):
    assert _run(hook, marked=True) == (None, _tracer, StopIteration)


def test_a_failing_untraced_test_gives_the_tracer_back(hook):
    assert _run(hook, marked=True, fail=True) == (None, _tracer, AssertionError)


def test_an_unmarked_test_keeps_the_tracer(hook):
    assert _run(hook, marked=False) == (_tracer, _tracer, StopIteration)


def _figure():
    fig = Figure(figsize=(2, 2))
    fig.add_subplot().plot([0, 1], [1, 0])
    return fig


def _drawing_files(trace_all, root, monkeypatch):
    """The files of the frames called while a figure is saved, under a tracer that records them;
    and the tracer after."""
    monkeypatch.setattr(root, "_TRACE_ALL", trace_all)
    called = set()

    def recorder(frame, event, arg):
        called.add(frame.f_code.co_filename)

    fig = _figure()
    before = sys.gettrace()
    sys.settrace(recorder)
    try:
        fig.savefig(io.BytesIO(), format="png")
        after = sys.gettrace()
    finally:
        sys.settrace(before)
    return {f for f in called if f"{os.sep}matplotlib{os.sep}" in f}, after


def test_a_figure_is_drawn_without_the_tracer_which_comes_back_after(root, monkeypatch):
    inside, after = _drawing_files(False, root, monkeypatch)
    assert inside == set() and after.__name__ == "recorder"
    inside, after = _drawing_files(True, root, monkeypatch)  # PERCLIB_TRACE_ALL=1
    assert inside and after.__name__ == "recorder"


def test_the_lines_after_an_untraced_drawing_are_still_measured(root, tmp_path):
    """Coverage keeps a stack of the frames it saw called: the frame that asks for the drawing
    gets its next lines counted, as does the code that called it."""
    coverage = pytest.importorskip("coverage")
    path = tmp_path / "drawing.py"
    path.write_text(
        "import io\n"
        "def png(fig):\n"
        "    buf = io.BytesIO()\n"
        "    fig.savefig(buf, format='png')\n"
        "    fig.canvas.draw()\n"
        "    size = len(buf.getvalue())\n"
        "    return size\n"
        "def caller(fig):\n"
        "    size = png(fig)\n"
        "    return size > 0\n"
    )
    spec = importlib.util.spec_from_file_location("drawing", path)
    drawing = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(drawing)
    cov = coverage.Coverage(data_file=None, include=[str(path)])
    cov.start()
    try:
        assert drawing.caller(_figure())
    finally:
        cov.stop()
    assert sorted(cov.get_data().lines(str(path))) == [3, 4, 5, 6, 7, 9, 10]
