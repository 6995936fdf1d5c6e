"""The run's own set-up (../conftest.py): tests marked ``untraced`` run without coverage's tracer.

The hook takes the thread's tracer away for the test's call only and gives it back after, even
when the test fails; an unmarked test keeps it. (That the report stays the same is measured, not
tested: ``PERCLIB_TRACE_ALL=1 make test`` traces every test.)
"""

import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]


class _Item:
    def __init__(self, marked):
        self.marked = marked

    def get_closest_marker(self, name):
        return object() if self.marked and name == "untraced" else None


def _tracer(frame, event, arg):
    return None


@pytest.fixture
def hook(request, monkeypatch):
    """conftest.py's pytest_runtest_call, with PERCLIB_TRACE_ALL off whatever the caller set."""
    plugins = request.config.pluginmanager.get_plugins()
    root = next(p for p in plugins if getattr(p, "__file__", None) == str(ROOT / "conftest.py"))
    monkeypatch.setattr(root, "_TRACE_ALL", False)
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
