"""The student's side of a grading: runs inside the sandbox, holds nothing secret.

The grader starts ``python worker.py`` in a fresh sandbox (see ``sandbox.py``) and talks to it
through the process's stdin and stdout, one JSON message per line. The worker runs the student's
cells, then answers calls: a function name and its arguments in, the return value out, as data. It
never sees an expected value, a reference implementation or the term's secret; whatever the
student's code does here (patching numpy, printing, raising, forging replies) only changes the data
the grader then checks itself.

Messages (grader -> worker, worker -> grader)::

    {"op": "load", "cells": [source, ...], "cpu": s}  -> {"op": "loaded", "failed": [index, ...]}
    {"op": "call", "fn": name, "args": [...], "kwargs": {...}, "deps": [name, ...],
     "allow": [module, ...], "count_rows": n or null, "cpu": s}
        -> {"op": "callback", "name": dep, "args": [...], "kwargs": {...}}   (zero or more; the
           grader answers each with {"op": "value", "value": ...} or {"op": "refused"})
        -> {"op": "return", "value": ..., "changes": n}
        or {"op": "raise", "kind": ..., "type": ...}

A load or a call may use ``cpu`` seconds of CPU time; past them the kernel ends the worker, and
the grader, which reads the exit, marks the call "timed out".

The codec (:func:`encode`, :func:`decode`) is shared with the grader, which decodes the worker's
replies without ever unpickling or evaluating them.
"""

from __future__ import annotations

import base64
import builtins
import contextlib
import functools
import json
import os
import re
import sys

# ---------------------------------------------------------------------------------------------
# The codec: JSON with numeric arrays, numpy scalars, tuples and dicts with any keys.

_DTYPE = re.compile(r"^[<>|=]?(b1|[iu][1248]|f[248]|c(8|16))$")


class Unsupported:
    """A value the codec does not carry (an object of the student's own class, a function...)."""

    def __repr__(self):
        return "<unsupported value>"


def encode(obj, depth=0):
    import numpy as np

    if depth > 50:
        return {"__unsupported__": True}
    if obj is None or type(obj) in (bool, int, float, str):
        return obj
    if isinstance(obj, np.generic):
        return {"__np__": encode(np.asarray(obj), depth + 1)}
    if isinstance(obj, np.ndarray):
        if obj.dtype.kind in "biufc" and _DTYPE.match(obj.dtype.str):
            data = base64.b64encode(np.ascontiguousarray(obj).tobytes()).decode("ascii")
            return {"__nd__": [obj.dtype.str, list(obj.shape), data]}
        return {"__unsupported__": True}
    if type(obj) is list:
        return [encode(v, depth + 1) for v in obj]
    if type(obj) is tuple:
        return {"__tuple__": [encode(v, depth + 1) for v in obj]}
    if type(obj) is dict:
        return {"__dict__": [[encode(k, depth + 1), encode(v, depth + 1)] for k, v in obj.items()]}
    return {"__unsupported__": True}


def decode(obj, depth=0):
    """Rebuild a value encoded by :func:`encode`; anything malformed becomes
    :class:`Unsupported`."""
    import numpy as np

    if depth > 50:
        return Unsupported()
    if obj is None or type(obj) in (bool, int, float, str):
        return obj
    if type(obj) is list:
        return [decode(v, depth + 1) for v in obj]
    if type(obj) is not dict or len(obj) != 1:
        return Unsupported()
    ((key, value),) = obj.items()
    try:
        if key == "__nd__":
            dtype, shape, data = value
            if not (isinstance(dtype, str) and _DTYPE.match(dtype)):
                return Unsupported()
            shape = tuple(int(s) for s in shape)
            raw = base64.b64decode(data.encode("ascii"), validate=True)
            return np.frombuffer(raw, dtype=np.dtype(dtype)).reshape(shape).copy()
        if key == "__np__":
            arr = decode(value, depth + 1)
            return arr[()] if isinstance(arr, np.ndarray) and arr.shape == () else Unsupported()
        if key == "__tuple__" and type(value) is list:
            return tuple(decode(v, depth + 1) for v in value)
        if key == "__dict__" and type(value) is list:
            out = {}
            for k, v in value:
                k = decode(k, depth + 1)
                out[k if isinstance(k, (str, int, float, bool, tuple)) else repr(k)] = decode(
                    v, depth + 1
                )
            return out
    except (TypeError, ValueError):
        return Unsupported()
    return Unsupported()


# ---------------------------------------------------------------------------------------------
# Blocking perclib's and scikit-learn's algorithms while a graded function runs: a first line of
# defence for honest mistakes (a wrapper); the grader also reads the student's code for them.

TOOLS = ("perclib.datasets", "perclib._validation", "perclib._format")
SKLEARN = (
    "sklearn.linear_model._stochastic_gradient",
    "sklearn.linear_model._perceptron",
    "sklearn.linear_model._passive_aggressive",
    # the kernels and the kernel machines (lab 5)
    "sklearn.metrics.pairwise",
    "sklearn.svm._base",
    "sklearn.svm._classes",
    "sklearn.kernel_approximation",
)
BLOCKED_MESSAGE = (
    "is not available while your function is graded: write the algorithm yourself instead of "
    "calling perclib or scikit-learn"
)


class Blocked(RuntimeError):
    """Raised by perclib's and scikit-learn's algorithms while a graded function runs."""


sys.modules.setdefault("labgrader_worker", sys.modules[__name__])


def _stub(*args, **kwargs):
    # Runs with the blocked function's globals: only builtins are safe to name here.
    raise __import__("sys").modules["labgrader_worker"].Blocked("blocked")


def _blockable(name):
    if name.startswith(("perclib.widgets", "perclib.plotting", *TOOLS)):
        return False
    return name == "perclib" or name.startswith("perclib.") or name in SKLEARN


def _algorithm_functions():
    """perclib's algorithms and scikit-learn's SGD perceptrons, kernels and SVMs, among the modules
    imported so far (an import inside a graded function is found by the grader's reading of the
    code), and each one's stub: ``(found, stubs)``, cached while no new module is imported."""
    names = frozenset(n for n in list(sys.modules) if _blockable(n))
    return _scan(names)


@functools.cache
def _scan(names):
    found = []
    for module in (sys.modules.get(n) for n in sorted(names)):
        if module is None:
            continue
        for obj in list(vars(module).values()):
            funcs = []
            if callable(obj) and getattr(obj, "__module__", None) == module.__name__:
                if hasattr(obj, "__code__"):
                    funcs.append(obj)
            if isinstance(obj, type) and obj.__module__ == module.__name__:
                for attr in vars(obj).values():
                    if isinstance(attr, (staticmethod, classmethod)):
                        attr = attr.__func__
                    if isinstance(attr, property):
                        funcs += [f for f in (attr.fget, attr.fset) if f is not None]
                    elif hasattr(attr, "__code__"):
                        funcs.append(attr)
            found += [(module.__name__, f) for f in funcs if not f.__code__.co_freevars]
    stubs = {}
    for _, f in found:
        stubs[f] = (f.__code__, _stub.__code__.replace(co_name=f.__code__.co_name))
    return found, stubs


_ACTIVE = []  # the functions each enclosing blocked() stubbed, innermost last


@contextlib.contextmanager
def blocked(allow=()):
    """perclib's algorithms and scikit-learn's SGD perceptrons, kernels and SVMs raise Blocked
    inside the block."""
    found, stubs = _algorithm_functions()
    active = [(f, stubs[f]) for module, f in found if not module.startswith(tuple(allow))]
    for f, (_, stub) in active:
        f.__code__ = stub
    _ACTIVE.append(active)
    try:
        yield
    finally:
        _ACTIVE.pop()
        for f, (code, _) in active:
            f.__code__ = code


@contextlib.contextmanager
def unblocked():
    """Inside a blocked() block, perclib as it is: for the grader's own reference when it runs
    in the same process as the function it grades (the instructor's notebook)."""
    active = _ACTIVE[-1] if _ACTIVE else []
    for f, (code, _) in active:
        f.__code__ = code
    try:
        yield
    finally:
        for f, (_, stub) in active:
            f.__code__ = stub


# ---------------------------------------------------------------------------------------------
# Laziness (lab 3): how often the function's own state changes, as opposed to fresh temporaries.


def count_state_changes(f, args, data):
    """Call ``f(*args)`` and count the line events at which an array the function keeps across
    examples changes (an accumulator), not counting arrays that hold the current example itself
    (a row of ``data``, its negative, or the row augmented by one coordinate), however often they
    are copied or rebuilt. Deterministic: no timing."""
    import numpy as np

    code_file = f.__code__.co_filename
    X = np.asarray(data, dtype=float)
    n, d = X.shape
    last, changes = {}, [0]

    def is_example(v):
        if v.ndim != 1 or v.size not in (d, d + 1):
            return False
        v = v.astype(float)
        for part in (v[:d], v[-d:]):
            if np.any(np.all(X == part, axis=1)) or np.any(np.all(X == -part, axis=1)):
                return True
        return False

    def snapshot(frame):
        state = {}
        for key, v in frame.f_locals.items():
            if isinstance(v, np.ndarray) and v.ndim >= 1 and v.shape[0] != n and v.size > 1:
                if not is_example(v):
                    state[key] = v.tobytes()
            elif isinstance(v, list):
                state[key] = len(v)
        return state

    def local(frame, event, arg):
        if event in ("line", "return"):
            key = id(frame)
            now = snapshot(frame)
            before = last.get(key)
            if before is not None:
                changes[0] += sum(1 for k, v in now.items() if k in before and before[k] != v)
            last[key] = now
        return local

    def tracer(frame, event, arg):
        return local if frame.f_code.co_filename == code_file else None

    old = sys.gettrace()
    sys.settrace(tracer)
    try:
        out = f(*args)
    finally:
        sys.settrace(old)
    return out, changes[0]


# ---------------------------------------------------------------------------------------------
# The loop.


class Channel:
    def __init__(self, rfd, wfd):
        self.r = os.fdopen(rfd, "r", encoding="utf-8")
        self.w = os.fdopen(wfd, "w", encoding="utf-8")

    def send(self, message):
        self.w.write(json.dumps(message) + "\n")
        self.w.flush()

    def receive(self):
        line = self.r.readline()
        if not line:
            raise SystemExit(0)
        return json.loads(line)


def _strip_magics(source):
    """A cell's Python: IPython's magics and shell escapes (``%matplotlib``, ``!ls``) removed."""
    return "\n".join(
        "" if line.lstrip().startswith(("%", "!")) else line for line in source.splitlines()
    )


@contextlib.contextmanager
def cpu_limit(seconds):
    """Lower the process's soft CPU limit to ``seconds`` more than it has used: past it the kernel
    ends the process (SIGXCPU), and the grader reads that as the call's verdict, "timed out".
    CPU time, not wall time: a loaded grading machine does not fail an honest call. The hard
    limit, set before the sandbox started, stays: a student's code cannot raise it."""
    import math
    import resource

    if not seconds:
        yield
        return
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    soft = math.ceil(usage.ru_utime + usage.ru_stime + seconds)
    if hard != resource.RLIM_INFINITY:
        soft = min(soft, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_CPU, (hard, hard))


def _run_cells(ns, cells, cpu=None):
    failed = []
    for index, source in enumerate(cells):
        try:
            with cpu_limit(cpu):
                exec(compile(_strip_magics(source), f"<cell {index}>", "exec"), ns)
        except BaseException:  # the cell failed: its later lines did not run, as in a notebook
            failed.append(index)
    return failed


def _call(channel, ns, message):
    f = ns.get(message["fn"])
    if not callable(f):
        return {"op": "raise", "kind": "missing"}
    args = decode(message["args"])
    kwargs = decode(message["kwargs"])
    deps = message.get("deps") or []
    saved = {k: ns[k] for k in deps if k in ns}

    def proxy(name):
        def call_grader(*a, **k):
            channel.send(
                {"op": "callback", "name": name, "args": encode(list(a)), "kwargs": encode(dict(k))}
            )
            reply = channel.receive()
            if reply.get("op") != "value":
                raise RuntimeError("the grader's reference could not be called")
            return decode(reply["value"])

        call_grader.__name__ = name
        return call_grader

    ns.update({k: proxy(k) for k in deps})
    try:
        with blocked(message.get("allow") or ()), cpu_limit(message.get("cpu")):
            if message.get("count_rows") is not None:
                out, changes = count_state_changes(f, args, args[0])
            else:
                out, changes = f(*args, **kwargs), 0
        return {"op": "return", "value": encode(out), "changes": int(changes)}
    except NotImplementedError:
        return {"op": "raise", "kind": "notimplemented"}
    except Blocked:
        return {"op": "raise", "kind": "blocked"}
    except RecursionError:
        return {"op": "raise", "kind": "error", "type": "RecursionError"}
    except BaseException as error:
        return {"op": "raise", "kind": "error", "type": type(error).__name__}
    finally:
        for k in deps:
            ns.pop(k, None)
        ns.update(saved)


def main():
    # The channel keeps the process's original stdin and stdout; the student's code gets
    # /dev/null for all three, so nothing it prints reaches the grader or the feedback.
    channel = Channel(os.dup(0), os.dup(1))
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    sys.modules["labgrader_worker"] = sys.modules[__name__]
    ns = {"__name__": "__main__", "__builtins__": builtins}
    while True:
        message = channel.receive()
        if message.get("op") == "load":
            channel.send(
                {"op": "loaded", "failed": _run_cells(ns, message["cells"], message.get("cpu"))}
            )
        elif message.get("op") == "call":
            channel.send(_call(channel, ns, message))
        else:
            import resource

            usage = resource.getrusage(resource.RUSAGE_SELF)
            channel.send({"op": "bye", "cpu": usage.ru_utime + usage.ru_stime})
            return


if __name__ == "__main__":
    main()
