"""The instructor's grader for the labs' hidden tests (never handed out: see labs/README.md).

A hidden test cell holds only::

    import labgrader
    _failure = labgrader.run("lab1", "test_fit", globals())
    assert _failure is None, _failure

``run`` draws fresh inputs from the instructor's seed (``grading.json`` next to this package, never
a variable of the student's notebook), calls the student's function on them with the grader's
reference versions of the functions it builds on (one slip costs one function), while perclib's and
scikit-learn's implementations are blocked (a wrapper earns nothing), and returns ``None`` or a hint
that names the kind of mistake without the inputs or the expected values. The test cell raises, so
the traceback in the feedback shows no line of this package.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import json
import os
import pathlib
import pkgutil
import sys
import zlib

import numpy as np

CONFIG = pathlib.Path(__file__).resolve().parents[1] / "grading.json"
# perclib's modules a student may use while a graded function runs: data, not algorithms.
TOOLS = ("perclib.datasets", "perclib._validation", "perclib._format")
SKLEARN = (
    "sklearn.linear_model._stochastic_gradient",
    "sklearn.linear_model._perceptron",
    "sklearn.linear_model._passive_aggressive",
)


class Hint(Exception):
    """A failed hidden check; its message is what the student sees."""


class Blocked(RuntimeError):
    """Raised by perclib's and scikit-learn's algorithms while a graded function runs."""


def seed():
    """The instructor's grading seed, read from grading.json."""
    return int(json.loads(CONFIG.read_text())["seed"])


def rng_for(lab, test, salt=0):
    """The random generator of one hidden test: the seed, the lab, the test (and a salt)."""
    return np.random.default_rng(
        [seed(), zlib.crc32(lab.encode()), zlib.crc32(test.encode()), salt]
    )


def run(lab, test, ns):
    """Run one hidden test on the namespace ``ns`` of the student's notebook; None or a hint."""
    # Under autograde the seed is written into the graded notebook, so any grade can be replayed.
    recorded = (
        seed() if os.environ.get("NBGRADER_EXECUTION") == "autograde" else "in grader/grading.json"
    )
    print(f"[grader] {lab}/{test}: hidden tests, the instructor's seed {recorded}")
    module = importlib.import_module(f"labgrader.{lab}")
    try:
        getattr(module, test)(Grading(ns, rng_for(lab, test)))
    except Hint as failure:
        return f"hidden test {test} failed: {failure}"
    except Exception as error:  # never let a traceback through the grader's code reach the feedback
        return (
            f"hidden test {test} failed: your code returned something the test could not use "
            f"({type(error).__name__}); check the return value against the exercise's description"
        )
    _isolate_visible(ns, getattr(module, "VISIBLE_DEPS", {}).get(test, {}))
    return None


def _isolate_visible(ns, deps):
    """Until the test cell ends, its visible part calls the grader's versions of ``deps``.

    The visible part of a cell runs after the hidden part; without this a slip in a function the
    tested one builds on would fail the cell (and cost the other function's points).
    """
    try:
        from IPython import get_ipython

        shell = get_ipython()
    except ImportError:
        shell = None
    if not deps or shell is None:
        return
    saved = {key: ns[key] for key in deps if key in ns}
    ns.update(deps)

    def restore(*args):
        for key in deps:
            ns.pop(key, None)
        ns.update(saved)
        shell.events.unregister("post_run_cell", restore)

    shell.events.register("post_run_cell", restore)


def _stub(*args, **kwargs):
    # Runs with the blocked function's globals: only builtins are safe to name here.
    raise __import__("labgrader").Blocked(
        f"{__import__('sys')._getframe().f_code.co_qualname} is not available while your function "
        "is graded: write the algorithm yourself instead of calling perclib or scikit-learn"
    )


def _stub_for(f, code):
    """The stub that stands in for ``f``'s ``code``, under its name (made once per function: a
    code object is hashed by its whole content, a function by its identity)."""
    made = _STUBS.get(f)
    if made is None or made[0] is not code:
        made = _STUBS[f] = (
            code,
            _stub.__code__.replace(co_name=code.co_name, co_qualname=code.co_qualname),
        )
    return made[1]


_STUBS = {}


@functools.cache
def _functions(module):
    """The functions and methods defined in a module, closures excepted (listed once per module and
    kernel: a graded call blocks them, then unblocks them)."""
    return list(_find_functions(module))


def _find_functions(module):
    for obj in list(vars(module).values()):
        found = []
        if (
            callable(obj)
            and getattr(obj, "__module__", None) == module.__name__
            and hasattr(obj, "__code__")
        ):
            found.append(obj)
        elif isinstance(obj, type) and obj.__module__ == module.__name__:
            for attr in vars(obj).values():
                if isinstance(attr, (staticmethod, classmethod)):
                    attr = attr.__func__
                if isinstance(attr, property):
                    found += [f for f in (attr.fget, attr.fset) if f is not None]
                elif hasattr(attr, "__code__"):
                    found.append(attr)
        for f in found:
            if not f.__code__.co_freevars:
                yield f


@functools.cache
def _import_algorithms():
    """Import perclib's modules (widgets and plotting aside) and scikit-learn's linear models;
    once per kernel (their files do not change while it runs)."""
    import perclib

    for info in pkgutil.walk_packages(perclib.__path__, "perclib."):
        if not info.name.startswith(("perclib.widgets", "perclib.plotting")):
            importlib.import_module(info.name)
    for name in SKLEARN:
        with contextlib.suppress(ImportError):
            importlib.import_module(name)


@functools.cache
def _module_names():
    """The names of perclib's modules (every file of the package, widgets and plotting included)
    and of scikit-learn's linear models: the modules a graded call may block."""
    import perclib

    root = pathlib.Path(perclib.__file__).resolve().parent
    names = set(SKLEARN)
    for path in root.rglob("*.py"):
        parts = path.relative_to(root).with_suffix("").parts
        names.add(".".join(("perclib",) + (parts[:-1] if parts[-1] == "__init__" else parts)))
    return sorted(names)


def _algorithm_modules(allow=()):
    _import_algorithms()
    return [
        sys.modules[n]
        for n in _module_names()
        if sys.modules.get(n) is not None
        and not n.startswith(TOOLS)
        and not n.startswith(tuple(allow))
    ]


class Blocker:
    """While active, every function of perclib's algorithm modules raises :class:`Blocked`.

    Their code objects are swapped, so a reference the student took before (``from perclib import
    Perceptron``, a bound method, an alias) is blocked too.
    """

    def __init__(self, allow=()):
        self.originals = {}
        for module in _algorithm_modules(allow):
            for f in _functions(module):
                self.originals[f] = f.__code__
        self.stubs = {f: _stub_for(f, code) for f, code in self.originals.items()}
        self.active = False

    def _set(self, on):
        for f, code in (self.stubs if on else self.originals).items():
            f.__code__ = code
        self.active = on

    def __enter__(self):
        self._set(True)
        return self

    def __exit__(self, *exc):
        self._set(False)

    @contextlib.contextmanager
    def suspended(self):
        """perclib as usual, for the grader's own references that need it."""
        was = self.active
        self._set(False)
        try:
            yield
        finally:
            self._set(was)


class Grading:
    """What a hidden test works with: the student's namespace, its random generator, the helpers."""

    def __init__(self, ns, rng):
        self.ns, self.rng = ns, rng

    def function(self, name):
        f = self.ns.get(name)
        if not callable(f):
            raise Hint(f"there is no function {name}: define it in its cell and run that cell")
        return f

    def call(self, name, *args, deps=None, allow=(), count_rows=None, **kwargs):
        """Call the student's ``name`` with perclib blocked, the grader's ``deps`` in its namespace.

        ``deps`` maps names of the notebook to the grader's reference functions, or to perclib
        functions the task lets the student use; they run with perclib available. With
        ``count_rows``, return ``(result, vector changes)`` (see :func:`count_vector_changes`).
        """
        f = self.function(name)
        blocker = Blocker(allow)
        swap = {key: _unblocked(blocker, g) for key, g in (deps or {}).items()}
        saved = {key: self.ns[key] for key in swap if key in self.ns}
        self.ns.update(swap)
        try:
            with blocker:
                if count_rows is None:
                    return f(*args, **kwargs)
                return count_vector_changes(f, args, count_rows)
        except NotImplementedError:
            raise Hint(f"{name} is not written yet (it raises NotImplementedError)") from None
        except Blocked as error:
            raise Hint(str(error)) from None
        except Hint:
            raise
        except Exception as error:  # the student's code failed on a hidden input
            raise Hint(
                f"{name} raised {type(error).__name__}: {error} on a hidden input; "
                "run it on the inputs the exercise describes and read the traceback"
            ) from None
        finally:
            for key in swap:
                self.ns.pop(key, None)
            self.ns.update(saved)


def _unblocked(blocker, f):
    def call(*args, **kwargs):
        with blocker.suspended():
            return f(*args, **kwargs)

    call.__name__ = getattr(f, "__name__", "reference")
    return call


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


def count_vector_changes(f, args, n_rows):
    """How many line events of the student's code change a vector or matrix it holds (not the data).

    The lazy averaged perceptron changes its vectors only on updates; the naive average adds the
    current weights to a running sum after every example. Deterministic: no timing.
    """
    code_file = f.__code__.co_filename
    last, changes = {}, [0]

    def snapshot(frame):
        state = {}
        for key, v in frame.f_locals.items():
            if isinstance(v, np.ndarray) and v.ndim >= 1 and v.shape[0] != n_rows and v.size > 1:
                base = v.base
                if isinstance(base, np.ndarray) and base.ndim >= 1 and base.shape[0] == n_rows:
                    continue  # a row of the data, x = X[i]
                state[key] = (id(v), v.tobytes())
            elif isinstance(v, list):
                state[key] = (id(v), len(v))
        return state

    def local(frame, event, arg):
        if event in ("line", "return"):
            key = id(frame)
            now = snapshot(frame)
            if key in last and now != last[key]:
                changes[0] += 1
            last[key] = now
        return local

    def tracer(frame, event, arg):
        if frame.f_code.co_filename == code_file:
            return local
        return None

    old = sys.gettrace()
    sys.settrace(tracer)
    try:
        out = f(*args)
    finally:
        sys.settrace(old)
    return out, changes[0]
