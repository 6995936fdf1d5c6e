"""The one place that chooses how the training loops run: compiled, or in plain Python and numpy.

perclib's training loops (:mod:`perclib._kernel`) are written once, as the notes' pseudocode. When
numba is installed (the optional extra ``perclib[fast]``; ``make test`` and ``make bench`` install
it, a student's ``make lab`` does not) they are compiled to machine code on first use and the
compiled code is cached on disk, so later processes load it instead of compiling it again. Without
numba the same results, bit for bit, come from plain Python and numpy, more slowly.

The environment variable ``PERCLIB_ACCEL=0`` turns the compiled path off at import time;
:func:`disabled` turns it off for a block of code (the tests and the benchmarks run both paths)::

    >>> from perclib import _accel
    >>> with _accel.disabled():
    ...     _accel.enabled()
    False

numba is imported only when a model is first fitted, never by ``import perclib``, so the import
stays fast and a kernel (a widget's, a browser's) without numba never pays for it.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os

#: Whether numba can be imported here (without importing it).
AVAILABLE = importlib.util.find_spec("numba") is not None

_on = AVAILABLE and os.environ.get("PERCLIB_ACCEL", "1").strip() not in ("0", "false", "no", "off")


def enabled():
    """Whether the models train with the compiled loops now."""
    return _on


@contextlib.contextmanager
def disabled():
    """Train with the plain Python and numpy loops inside the ``with`` block."""
    global _on
    before, _on = _on, False
    try:
        yield
    finally:
        _on = before


def engine(reference=False):
    """The module whose loops the models run now: :mod:`perclib._kernel` (compiled) when
    :func:`enabled`, else :mod:`perclib._fast` (numpy); with ``reference``,
    :mod:`perclib._reference` (the plain loops the tests compare them with). All three give the
    same results, bit for bit."""
    if reference:
        from . import _reference

        return _reference
    if _on:
        from . import _kernel

        return _kernel
    from . import _fast

    return _fast


def jit(fn=None, *, inline=False):
    """Compile ``fn`` with numba when it is first called (cached on disk); else return it as is.

    The plain function stays available as ``fn.py_func`` in both cases: it is the reference the
    tests compare the compiled code with. ``inline=True`` compiles a small helper into each caller
    (numba's ``inline="always"``) instead of calling it.
    """
    if fn is None:  # @jit(inline=True)
        return lambda f: jit(f, inline=inline)
    if not AVAILABLE:
        fn.py_func = fn
        return fn
    import numba

    return numba.njit(cache=True, nogil=True, inline="always" if inline else "never")(fn)
