"""Margins, Novikoff's bound and the perceptron loss.

Every quantity lives in the augmented space z = (1, x) that the perceptron runs in: the bias b is
the weight of the constant feature 1, so a separator is the vector (b, w) and its norm includes b.
"""
from __future__ import annotations

import numpy as np

from . import _validation as V


def _signed_augmented(X, y):
    X, y = V.check_X_y(X, y)
    classes = V.binary_classes(y, "this function")
    ys = V.encode_binary(y, classes)
    Z = np.hstack([np.ones((X.shape[0], 1)), X]) * ys[:, None]
    return X, ys, Z


def radius(X):
    """R = max_i ||(1, x_i)||, the radius of the data in the augmented space.

    >>> radius([[3.0, 4.0], [0.0, 0.0]])  # sqrt(1 + 9 + 16)
    5.0990195135927845
    """
    X = V.check_array(X)
    return float(np.sqrt(1.0 + np.max(np.einsum("ij,ij->i", X, X))))


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
    m = P.shape[0]
    scale = float(np.max(np.einsum("ij,ij->i", P, P)))
    max_steps = 100 * (m + P.shape[1]) + 1000 if max_steps is None else max_steps
    j = int(np.argmin(np.einsum("ij,ij->i", P, P)))
    S, lam = [j], np.array([1.0])
    x = P[j].copy()
    for _ in range(max_steps):
        xx = float(x @ x)
        if xx <= 1e-24 * scale:  # the origin is in the hull
            return np.zeros_like(x), S, lam
        j = int(np.argmin(P @ x))
        if xx - float(P[j] @ x) <= 1e-13 * xx or j in S:
            return x, S, lam
        S.append(j)
        lam = np.append(lam, 0.0)
        while True:  # minor cycle: the affine minimum over S, kept inside the hull
            Q = P[S]
            k = len(S)
            A = np.zeros((k + 1, k + 1))
            A[:k, :k] = Q @ Q.T
            A[:k, k] = A[k, :k] = 1.0
            rhs = np.zeros(k + 1)
            rhs[k] = 1.0
            alpha = np.linalg.lstsq(A, rhs, rcond=None)[0][:k]
            if np.all(alpha > 1e-15):
                lam = alpha
                break
            neg = alpha <= 1e-15
            theta = np.min(lam[neg] / (lam[neg] - alpha[neg]))
            lam = lam + theta * (alpha - lam)
            keep = lam > 1e-15
            S = [s for s, kk in zip(S, keep) if kk]
            lam = lam[keep] / lam[keep].sum()
        x = lam @ P[S]
    raise RuntimeError("max_margin did not converge; this should not happen, please report the data.")


def max_margin(X, y):
    """The maximum-margin separator in the augmented space, computed exactly.

    Returns ``(w, b, gamma)`` with ||(w, b)|| = 1 and gamma = min_i y_i (w.x_i + b) as large as it
    can be (gamma*). The direction (b, w) is the point of least norm in the convex hull of the
    vectors y_i (1, x_i), found by Wolfe's finite algorithm, and gamma* is that norm.

    Raises ``ValueError`` when the data is not linearly separable (the hull holds the origin).

    Examples
    --------
    The bias is part of the norm: for the points 2 (+1) and 0 (-1) on a line, the best separator
    is not x = 1 with margin 1 but (w, b) = (1, -1)/sqrt(2), with margin 1/sqrt(2).

    >>> w, b, gamma = max_margin([[2.0, 0.0], [0.0, 0.0]], [1, -1])
    >>> w.round(6), round(b, 6), round(gamma, 6)
    (array([0.707107, 0.      ]), -0.707107, 0.707107)
    """
    X, ys, Z = _signed_augmented(X, y)
    p, _, _ = _min_norm_point(Z)
    norm = float(np.sqrt(p @ p))
    if norm <= 1e-12 * np.sqrt(np.max(np.einsum("ij,ij->i", Z, Z))):
        raise ValueError("The data is not linearly separable: no (w, b) puts every point strictly on "
                         "its own side, so there is no maximum margin (and no mistake bound).")
    v = p / norm
    gamma = float(np.min(Z @ v))
    if gamma <= 0:
        raise ValueError("The data is not linearly separable (its margin is not positive).")
    return v[1:] + 0.0, float(v[0]) + 0.0, gamma  # + 0.0 turns -0.0 into 0.0


def mistake_bound(X, y):
    """Novikoff's bound (R / gamma*)^2 on the number of perceptron updates, in the augmented space.

    It holds for any order of the examples and any eta > 0, starting from w = 0, b = 0.

    >>> round(mistake_bound([[1.0, 0.0], [-1.0, 0.0]], [1, -1]), 9)  # R^2 = 2, gamma* = 1
    2.0
    """
    _, _, gamma = max_margin(X, y)
    return (radius(X) / gamma) ** 2


def perceptron_loss(y, a):
    """The perceptron loss max(0, -y*a) of activations ``a`` for labels y in {-1, +1}.

    >>> perceptron_loss([1, -1, 1], [2.0, 0.5, -3.0])
    array([0. , 0.5, 3. ])
    """
    y = np.asarray(y, dtype=np.float64)
    a = np.asarray(a, dtype=np.float64)
    if not np.all(np.isin(y, (-1.0, 1.0))):
        raise ValueError("y must hold labels -1 and +1 for the perceptron loss.")
    return np.maximum(0.0, -y * a)


def perceptron_criterion(X, y, w, b):
    """The perceptron criterion L(w, b) = sum_i max(0, -y_i (w.x_i + b)); convex and piecewise linear."""
    X, ys, _ = _signed_augmented(X, y)
    return float(np.sum(perceptron_loss(ys, X @ np.asarray(w, dtype=np.float64) + b)))


def perceptron_subgradient(X, y, w, b, *, at_zero=1.0):
    """A subgradient (g_w, g_b) of the perceptron criterion at (w, b).

    Each term max(0, -y a) has gradient -y (x, 1) where y a < 0, 0 where y a > 0, and at y a = 0 the
    subgradient set {-t y (x, 1) : 0 <= t <= 1}. ``at_zero`` is the t chosen there; the default 1
    is the perceptron's choice, so one SGD step (w, b) -= eta * g on a single example is exactly
    the update w += eta*y*x, b += eta*y of the margin rule.

    >>> perceptron_subgradient([[1.0, 2.0]], [1], w=[0.0, 0.0], b=0.0)
    (array([-1., -2.]), -1.0)
    """
    X, ys, _ = _signed_augmented(X, y) if len(np.unique(np.asarray(y))) == 2 else _single(X, y)
    if not 0.0 <= at_zero <= 1.0:
        raise ValueError(f"at_zero must lie in [0, 1], the subgradient set at the kink; got {at_zero!r}.")
    w = np.asarray(w, dtype=np.float64)
    ya = ys * (X @ w + b)
    t = np.where(ya < 0, 1.0, np.where(ya == 0, at_zero, 0.0))
    coef = -t * ys
    return coef @ X, float(coef.sum())


def _single(X, y):
    # One class present (for example a single example): labels must already be -1/+1.
    X, y = V.check_X_y(X, y)
    ys = np.asarray(y, dtype=np.float64)
    if not np.all(np.isin(ys, (-1.0, 1.0))):
        raise ValueError("With a single class present, y must hold -1 or +1.")
    return X, ys, None


def hinge_loss(y, a):
    """The hinge loss max(0, 1 - y*a) (the SVM's): the perceptron loss moved by a margin of 1."""
    y = np.asarray(y, dtype=np.float64)
    return np.maximum(0.0, 1.0 - y * np.asarray(a, dtype=np.float64))


def logistic_loss(y, a):
    """The logistic (cross-entropy) loss log(1 + exp(-y*a)) of a sigmoid output, in nats."""
    y = np.asarray(y, dtype=np.float64)
    return np.logaddexp(0.0, -y * np.asarray(a, dtype=np.float64))
