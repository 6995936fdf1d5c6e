"""Margins, Novikoff's bound and the perceptron loss.

The perceptron loss, its criterion and subgradient, the hinge and the logistic loss live in
:mod:`perclib.losses` (with the losses of :mod:`perclib.sgd`); this module exports them by their
names: ``perclib.theory.perceptron_loss`` is ``perclib.losses.perceptron_loss``.

Two maximum margins, named apart (they differ whenever the bias matters):

- :func:`max_margin`, gamma*, lives in the augmented space (1, x) that the perceptron runs in: the
  bias b is the weight of the constant feature 1, so a separator is the vector (b, w) and its norm
  includes b. This is the gamma* of Novikoff's bound (R / gamma*)^2, with R = max ||(1, x_i)||.
- :func:`geometric_max_margin` is the widest band between the classes in the input space: the
  hard-margin SVM, min_i y_i (w.x_i + b) / ||w||, bias not in the norm. Its line is the middle of
  the widest band.

For x+ = (3, 1), x- = (1, 1) the augmented optimum is the line x1 - x2 - 1 = 0 (half-width
1/sqrt(2) = 0.707 in the input plane), while the widest band is around x1 = 2 (half-width 1).
"""

from __future__ import annotations

import numpy as np

from . import _validation as V
from . import losses as _losses

# The losses are written once, in perclib.losses; theory exports the ones it has always had.
perceptron_loss = _losses.perceptron_loss
perceptron_criterion = _losses.perceptron_criterion
perceptron_subgradient = _losses.perceptron_subgradient
hinge_loss = _losses.hinge_loss
logistic_loss = _losses.logistic_loss


def _signed_augmented(X, y):
    X, ys = _losses._binary_signs(X, y)
    Z = np.hstack([np.ones((X.shape[0], 1)), X]) * ys[:, None]
    return X, ys, Z


def _squared_norms(X):
    """||x_i||^2 for each row of X."""
    return (X * X).sum(axis=1)


def radius(X):
    """R = max_i ||(1, x_i)||, the radius of the data in the augmented space.

    >>> radius([[3.0, 4.0], [0.0, 0.0]])  # sqrt(1 + 9 + 16)
    5.0990195135927845
    """
    X = V.check_array(X)
    return float(np.sqrt(1.0 + np.max(_squared_norms(X))))


def margin(X, y, w, b):
    """The margin of the separator (w, b) on (X, y): min_i y_i (w.x_i + b) / ||(w, b)||.

    It is negative when some point is on the wrong side. ``y`` may hold any two labels
    (the larger is +1).

    >>> margin([[1.0, 1.0], [-1.0, -1.0]], [1, -1], w=[1.0, 1.0], b=1.0)  # 1/sqrt(3)
    0.5773502691896258
    """
    X, ys, _ = _signed_augmented(X, y)
    w = np.asarray(w, dtype=np.float64)
    if w.shape != (X.shape[1],):
        raise ValueError(f"w must have shape ({X.shape[1]},) to match X; got {w.shape}.")
    norm = float(np.sqrt(w @ w + float(b) ** 2))
    if norm == 0:
        raise ValueError("w and b are all zero: the zero vector does not define a separator.")
    return float(np.min(ys * (X @ w + b)) / norm)


def _min_norm_point(P, *, max_steps=None):
    """Wolfe's (1976) algorithm: the point of least norm in the convex hull of the rows of P.

    Returns (p, support, lam) with p = lam @ P[support], lam > 0 and sum(lam) = 1. It is exact up
    to rounding: it ends when no row of P improves on p (p.p - min_i P_i.p <= 1e-13 * p.p), and
    each step solves a small linear system on the current affinely independent support.
    """
    sq = _squared_norms(P)

    def lowest(x):  # the row of P that goes furthest against x
        j = int(np.argmin(P @ x))
        return j, P[j]

    j0 = int(np.argmin(sq))
    max_steps = _step_cap(*P.shape) if max_steps is None else max_steps
    return _wolfe(lowest, j0, P[j0], float(np.max(sq)), max_steps)


def _step_cap(n, d):
    """The most steps Wolfe's algorithm may take on n points in d dimensions: it is finite, and
    this cap lies far above what it takes on any data met, so that a loop caused by rounding ends
    with an error instead of running forever."""
    return 100 * (n + d) + 1000


def _wolfe(lowest, key0, point0, scale, max_steps):
    """Wolfe's algorithm over a polytope given by
    ``lowest(x) -> (key, vertex minimising vertex.x)``.

    The vertices are never listed: only those in the current support are kept (with their keys),
    so the polytope may have far more vertices than fit in memory (the difference of two hulls).
    ``scale`` bounds the squared norm of every vertex. The algorithm runs on the vertices divided
    by sqrt(scale), so that its linear systems and its tolerances are the same at every magnitude
    of the data (from 1e-150 to 1e150); the point is scaled back at the end.
    """
    s = float(np.sqrt(scale))
    S, V_, lam = [key0], [point0 / s], np.array([1.0])  # every vertex is a float64 row
    x = V_[0].copy()
    for _ in range(max_steps):
        xx = float(x @ x)
        if xx <= 1e-24:  # the origin is in the hull (to 1e-12 of the largest vertex)
            return np.zeros_like(x), S, lam
        j, vj = lowest(x)
        vj = vj / s
        if xx - float(vj @ x) <= 1e-13 * xx or j in S:
            return x * s, S, lam
        S.append(j)
        V_.append(vj)
        lam = np.append(lam, 0.0)
        while True:  # minor cycle: the affine minimum over S, kept inside the hull
            # The point of least norm on the affine hull of the support: x = q0 + D^T mu with the
            # rows of D the edges q_i - q0, mu the least-squares solution of D^T mu = -q0 (solved
            # on D itself, not on the Gram matrix D D^T, whose condition number is the square).
            Q = np.array(V_)
            D = Q[1:] - Q[0]
            mu = np.linalg.lstsq(D.T, -Q[0], rcond=None)[0]
            alpha = np.r_[1.0 - mu.sum(), mu]
            if np.all(alpha > 1e-15):
                lam = alpha
                break
            neg = alpha <= 1e-15
            theta = np.min(lam[neg] / (lam[neg] - alpha[neg]))
            lam = lam + theta * (alpha - lam)
            keep = lam > 1e-15
            S = [s_ for s_, kk in zip(S, keep) if kk]
            V_ = [v for v, kk in zip(V_, keep) if kk]
            lam = lam[keep] / lam[keep].sum()
        x = lam @ np.array(V_)
    raise RuntimeError(
        "max_margin did not converge; this should not happen, please report the data."
    )


def max_margin(X, y):
    """The augmented maximum margin gamma* (bias inside the norm), computed exactly.

    This is the quantity in Novikoff's bound, not the hard-margin SVM: for that (the widest band,
    bias outside the norm) see :func:`geometric_max_margin`.

    Returns ``(w, b, gamma)`` with ||(w, b)|| = 1 and gamma = min_i y_i (w.x_i + b) as large as it
    can be (gamma*). The direction (b, w) is the point of least norm in the convex hull of the
    vectors y_i (1, x_i), found by Wolfe's finite algorithm, and gamma* is that norm.

    Raises ``ValueError`` when the data is not linearly separable (the hull holds the origin).

    Examples
    --------
    The bias is part of the norm: for the points 2 (+1) and 0 (-1) on a line, the best separator
    is the line x = 1, but its augmented margin is not the distance 1: it is that of the unit
    vector (w, b) = (1, -1)/sqrt(2), 1/sqrt(2).

    >>> w, b, gamma = max_margin([[2.0, 0.0], [0.0, 0.0]], [1, -1])
    >>> w.round(6), round(b, 6), round(gamma, 6)
    (array([0.707107, 0.      ]), -0.707107, 0.707107)
    """
    X, ys, Z = _signed_augmented(X, y)
    p, _, _ = _min_norm_point(Z)
    norm = float(np.sqrt(p @ p))
    if norm <= 1e-12 * np.sqrt(np.max(_squared_norms(Z))):
        raise ValueError(
            "The data is not linearly separable: no (w, b) puts every point strictly on "
            "its own side, so there is no maximum margin (and no mistake bound)."
        )
    v = p / norm
    # gamma > 0: Wolfe's algorithm stops only where every z_i has z_i.p >= (1 - 1e-13) ||p||^2
    # (a support point, or the test on the lowest one), and ||p|| > 0 was checked above.
    gamma = float(np.min(Z @ v))
    return v[1:] + 0.0, float(v[0]) + 0.0, gamma  # + 0.0 turns -0.0 into 0.0


def geometric_max_margin(X, y):
    """The geometric (hard-margin SVM) maximum margin and its line, computed exactly.

    Returns ``(w, b, gamma)`` with ||w|| = 1 and gamma = min_i y_i (w.x_i + b) as large as it can
    be: the half-width of the widest band that separates the classes, with w.x + b = 0 its middle
    line. The bias is not in the norm (compare :func:`max_margin`, the augmented gamma* of
    Novikoff's bound, which is never larger once both are measured by ||w||).

    The direction w is the shortest vector p - q between the convex hulls of the two classes
    (p in the hull of the +1 points, q in that of the -1 points), found by Wolfe's finite algorithm
    on the difference of the hulls; then gamma = ||p - q|| / 2 and the line passes midway.

    Raises ``ValueError`` when the data is not linearly separable (the hulls meet).

    Examples
    --------
    >>> w, b, gamma = geometric_max_margin([[3.0, 1.0], [1.0, 1.0]], [1, -1])
    >>> w, b, gamma
    (array([1., 0.]), -2.0, 1.0)
    """
    X, ys, _ = _signed_augmented(X, y)
    Xp, Xn = X[ys > 0], X[ys < 0]

    def lowest(x):  # the vertex x_i - x_j of the difference hull that goes furthest against x
        i, j = int(np.argmin(Xp @ x)), int(np.argmax(Xn @ x))
        return (i, j), Xp[i] - Xn[j]

    diff0 = Xp[0] - Xn  # the start: the closest pair through the first +1 point
    j0 = int(np.argmin(_squared_norms(diff0)))
    scale = float(np.max(_squared_norms(X))) * 4.0 + 1e-300
    m, _, _ = _wolfe(lowest, (0, j0), Xp[0] - Xn[j0], scale, _step_cap(*X.shape))
    norm = float(np.sqrt(m @ m))
    if norm <= 1e-12 * np.sqrt(scale):
        raise ValueError(
            "The data is not linearly separable: the convex hulls of the two classes meet, "
            "so there is no band between them (no geometric margin)."
        )
    w = m / norm
    lo, hi = float(np.min(Xp @ w)), float(np.max(Xn @ w))
    # gamma > 0 for the same reason as in max_margin: every x_i - x_j has (x_i - x_j).m >=
    # (1 - 1e-13) ||m||^2 where Wolfe's algorithm stops, so min over Xp of x.w > max over Xn.
    gamma = (lo - hi) / 2.0
    return w + 0.0, -(lo + hi) / 2.0 + 0.0, gamma


def mistake_bound(X, y):
    """Novikoff's bound (R / gamma*)^2 on the number of perceptron updates, in the augmented space.

    It holds for any order of the examples and any eta > 0, starting from w = 0, b = 0.

    >>> round(mistake_bound([[1.0, 0.0], [-1.0, 0.0]], [1, -1]), 9)  # R^2 = 2, gamma* = 1
    2.0
    """
    _, _, gamma = max_margin(X, y)
    return (radius(X) / gamma) ** 2
