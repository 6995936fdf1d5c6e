"""How numbers are written in tables and messages: 4 significant digits, never '-0'."""

import numpy as np


def num(v):
    """A number as the tables show it.

    >>> num(-0.0), num(2 / 3), num(12)
    ('0', '0.6667', '12')
    """
    v = float(v)
    if v == 0:
        v = 0.0
    return f"{v:.4g}"


def vec(v):
    """A vector as (a, b, ...).

    >>> vec([1.0, -0.5])
    '(1, -0.5)'
    """
    return "(" + ", ".join(num(t) for t in np.asarray(v).ravel()) + ")"
