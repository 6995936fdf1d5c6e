"""The instructor's grader for the labs' hidden tests (never handed out: see labs/README.md).

The scores are decided here, in the grader's own process, never in the student's: the student's
cells run in a sandboxed worker (``sandbox.py``, ``worker.py``), and each hidden test (a function
of ``lab1.py`` ... ``lab5.py``) draws its inputs, calls the student's function through the worker
(inputs in, outputs out, as data), and compares the outputs with its reference here. A failed test
returns a hint that names the kind of mistake, never an input, an expected value, the student's
own exception text or anything the student's code printed.

The inputs are the student's variant: they derive from HMAC(the term's secret, lab, student, test)
(the secret is in ``grading.json``, next to this package), so two students get different inputs,
one student the same ones on every run, and a new secret gives a resubmission round new ones.

In the instructor's source notebooks (nbval), a hidden test cell still calls :func:`run`, which
runs the same test in the notebook's own process on the instructor's solution.
"""

from __future__ import annotations

import builtins
import hashlib
import hmac
import importlib
import json
import os
import pathlib

import numpy as np

CONFIG = pathlib.Path(__file__).resolve().parents[1] / "grading.json"
INSTRUCTOR = "instructor"  # the variant of the source notebooks and of an unnamed run


class Hint(Exception):
    """A failed hidden check; its message is what the student sees."""


class TimedOut(Exception):
    """The student's function ran past the limits (time, memory) on a hidden input."""


def secret():
    """The term's grading secret (grading.json): the key of every student's variant."""
    data = json.loads(CONFIG.read_text())
    key = data.get("secret")
    if not isinstance(key, str) or len(key) < 16:
        raise ValueError(f"{CONFIG}: 'secret' must be a random string of 16 characters or more")
    return key


def _digest(*parts, key=None):
    key = (secret() if key is None else key).encode()
    return hmac.new(key, "\0".join(parts).encode(), hashlib.sha256).digest()


def variant(lab, student, key=None):
    """A short public name of a student's variant of a lab (printed with the grade; it does not
    give the inputs away without the secret)."""
    return _digest(lab, student, key=key).hex()[:12]


DATA_KEY_LINE = 'DATA_KEY = "instructor"'


def data_key(lab, key=None):
    """The term's public key of a lab's explored data sets, written into the released notebook:
    a student's data derive from (this key, student id), so from (secret, lab, student). It
    reveals nothing about the hidden tests' inputs, which need the secret itself."""
    return _digest("explored data", lab, key=key).hex()[:16]


def personalize(text, lab, key=None):
    """A cell of the source notebook as it is released: the instructor's data key replaced by
    the term's (the source notebook keeps the instructor's own variant, seed 0)."""
    return text.replace(DATA_KEY_LINE, f'DATA_KEY = "{data_key(lab, key)}"')


def rng_for(lab, test, student=INSTRUCTOR, salt=0, key=None):
    """The random generator of one hidden test of one student."""
    words = np.frombuffer(_digest(lab, student, test, str(salt), key=key), dtype=np.uint32)
    return np.random.default_rng([int(w) for w in words])


def tests_of(lab):
    """The lab's hidden tests, ``{name: function}`` (the module's ``test_*`` functions)."""
    module = importlib.import_module(f"labgrader.{lab}")
    return {k: v for k, v in vars(module).items() if k.startswith("test_") and callable(v)}


# The exceptions whose names a hint may quote: Python's own. A class the student defines could
# carry a hidden input in its name.
_BUILTIN_ERRORS = {
    k for k, v in vars(builtins).items() if isinstance(v, type) and issubclass(v, BaseException)
}
BLOCKED = (
    "is not available while your function is graded: write the algorithm yourself instead of "
    "calling perclib or scikit-learn"
)


class Grading:
    """What a hidden test works with: a caller of the student's functions, its random generator.

    ``caller(name, args, kwargs, deps, allow, count_rows)`` returns ``("return", value, changes)``
    or ``("raise", kind, type name)``; it is the sandboxed worker when grading a submission and
    :class:`LocalCaller` in the instructor's notebook.
    """

    def __init__(self, caller, rng, wrappers=()):
        self.caller, self.rng, self.wrappers = caller, rng, set(wrappers)

    def call(self, name, *args, deps=None, allow=(), count_rows=None, **kwargs):
        """The student's ``name`` on these inputs, with the grader's ``deps`` (its reference
        versions of what the function builds on, computed in the grader) and perclib blocked
        (except the modules in ``allow``). With ``count_rows``, ``(result, state changes)``."""
        if name in self.wrappers:
            raise Hint(f"{name} uses perclib's or scikit-learn's implementation, which {BLOCKED}")
        outcome = self.caller(name, args, kwargs, deps or {}, allow, count_rows)
        if outcome[0] == "return":
            _, value, changes = outcome
            return (value, changes) if count_rows is not None else value
        _, kind, error = outcome
        if kind == "notimplemented":
            raise Hint(f"{name} is not written yet (it raises NotImplementedError)")
        if kind == "missing":
            raise Hint(f"there is no function {name}: define it in its cell and run that cell")
        if kind == "blocked":
            raise Hint(f"{name} calls perclib's or scikit-learn's implementation, which {BLOCKED}")
        if kind == "error":
            what = error if error in _BUILTIN_ERRORS else "an exception"
            raise Hint(
                f"{name} raised {what} on a hidden input; run it on the inputs the exercise "
                "describes and read the traceback"
            )
        raise Hint(f"{name} returned something the test could not use")


class LocalCaller:
    """Calls in this process, on a notebook's namespace: the instructor's own solution (nbval)."""

    def __init__(self, ns):
        self.ns = ns

    def __call__(self, name, args, kwargs, deps, allow, count_rows):
        from . import worker

        f = self.ns.get(name)
        if not callable(f):
            return "raise", "missing", ""
        saved = {k: self.ns[k] for k in deps if k in self.ns}
        self.ns.update({k: _unblocked(worker, v) for k, v in deps.items()})
        try:
            with worker.blocked(allow):
                if count_rows is not None:
                    out, changes = worker.count_state_changes(f, args, args[0])
                    return "return", out, changes
                return "return", f(*args, **kwargs), 0
        except NotImplementedError:
            return "raise", "notimplemented", ""
        except worker.Blocked:
            return "raise", "blocked", ""
        except Exception as error:
            return "raise", "error", type(error).__name__
        finally:
            for k in deps:
                self.ns.pop(k, None)
            self.ns.update(saved)


def _unblocked(worker, ref):
    """The grader's ``ref``, run with perclib available although the student's call is blocked."""

    def call(*args, **kwargs):
        with worker.unblocked():
            return ref(*args, **kwargs)

    return call


# Exceptions a test raises when the student's function returned a value of the wrong kind (a
# string for an array, too few items...): the student's mistake. Any other exception in a test is
# the grader's own error, reported to the instructor, never to the student.
STUDENT_DATA_ERRORS = (TypeError, ValueError, IndexError, KeyError, ZeroDivisionError,
                       OverflowError, FloatingPointError, np.linalg.LinAlgError)  # fmt: skip
UNUSABLE = (
    "your code returned something the test could not use; check the return value against the "
    "exercise's description"
)


class GraderError(Exception):
    """A hidden test failed by its own fault (a bug of the grader): the instructor's to fix."""


class Unusable(Exception):
    """A hidden test stopped on a data error (TypeError, ValueError...): the student's when the
    instructor's solution passes the same test on the same inputs, else the grader's."""


def check(lab, test, grading):
    """Run one hidden test: None when it passes, the hint when it fails; :class:`Unusable` when
    it stopped on a data error, :class:`GraderError` on any other error of its own."""
    try:
        tests_of(lab)[test](grading)
    except Hint as failure:
        return f"hidden test {test} failed: {failure}"
    except STUDENT_DATA_ERRORS as error:
        raise Unusable(f"{lab}/{test}: {type(error).__name__}: {error}") from error
    except TimedOut:
        raise
    except Exception as error:
        raise GraderError(f"{lab}/{test}: {type(error).__name__}: {error}") from error
    return None


def run(lab, test, ns):
    """Run one hidden test in the instructor's notebook (nbval); None or a hint."""
    print(f"[grader] {lab}/{test}: hidden tests, the instructor's variant (grader/grading.json)")
    student = os.environ.get("LAB_STUDENT_ID", INSTRUCTOR)
    try:
        return check(lab, test, Grading(LocalCaller(ns), rng_for(lab, test, student)))
    except Unusable as error:
        raise GraderError(str(error)) from error


def as_tuple(out, n, name, what):
    """A result that must be a sequence of n items (tuple, list, ...)."""
    if isinstance(out, (str, bytes, dict)) or not hasattr(out, "__len__") or len(out) != n:
        raise Hint(f"{name} must return {n} values, {what}")
    return tuple(out)


def close(got, want, scale=1.0, rtol=1e-4):
    """Equal up to float32 rounding, relative to the data's scale."""
    try:
        got = np.asarray(got, dtype=float)
    except (TypeError, ValueError):
        return False
    want = np.asarray(want, dtype=float)
    return got.shape == want.shape and bool(
        np.all(np.abs(got - want) <= rtol * (scale + np.abs(want)))
    )
