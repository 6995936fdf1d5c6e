"""The reference per-sample perceptron loop, shared by Perceptron and PocketPerceptron.

It mirrors the pseudocode of the notes (CIML's PerceptronTrain) line by line. It is the reference:
any faster path must give the same results, and tests check that it does.

Exact ties
----------
A mistake is decided by the sign of the activation ``a = w.x + b``. scikit-learn sums ``w.x`` from
left to right (``sgd_fast``), while ``numpy.dot`` may sum in another order. The two differ only
when ``|a|`` is within rounding error of zero, so :func:`activation` uses the fast ``numpy.dot``
and falls back to the left-to-right sum in exactly those cases. Every order of summation lies within
``gamma_d * sum_j |w_j x_j| <= gamma_d * ||w|| ||x||`` of the exact value (``gamma_d ~ d * eps / 2``),
so outside twice that band both orders give the same sign. This keeps perclib bit-identical to
scikit-learn without giving up ``numpy.dot``.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

_EPS = np.finfo(np.float64).eps


@dataclass(frozen=True)
class Step:
    """One visited example of a recorded fit (``record=True``)."""

    epoch: int
    index: int
    x: np.ndarray
    y: float
    activation: float
    y_hat: float
    updated: bool
    w: np.ndarray
    b: float


def _seq_dot(w, x):
    """w.x summed from left to right, as scikit-learn's WeightVector.dot does."""
    s = 0.0
    for wj, xj in zip(w.tolist(), x.tolist()):
        s += wj * xj
    return s


def _tie_band(w_norm, x_norm, n_features):
    # 4 * d * eps >= 2 * gamma_d with room to spare (gamma_d = d*u/(1-d*u), u = eps/2)
    return 4.0 * n_features * _EPS * w_norm * x_norm + 1e-300


def activation(w, b, x, x_norm=None):
    """a = w.x + b, with the sign that scikit-learn's left-to-right sum gives."""
    a = float(np.dot(w, x)) + b
    if x_norm is None:
        x_norm = float(np.sqrt(np.dot(x, x)))
    if abs(a) <= _tie_band(float(np.sqrt(np.dot(w, w))), x_norm, w.shape[0]):
        a = _seq_dot(w, x) + b
    return a


def scores(X, w, b, x_norms):
    """All activations X @ w + b at once, with near-ties settled as :func:`activation` does."""
    a = X @ w + b
    band = _tie_band(float(np.sqrt(np.dot(w, w))), x_norms, w.shape[0])
    for i in np.flatnonzero(np.abs(a) <= band):
        a[i] = _seq_dot(w, X[i]) + b
    return a


def predict_sign(a):
    """y_hat = +1 if a >= 0 else -1: sign(0) = +1, as in the course."""
    return np.where(np.asarray(a) >= 0, 1.0, -1.0)


def is_mistake(y, a, rule):
    """Whether an example triggers an update under ``rule`` (vectorised)."""
    if rule == "margin":
        return y * a <= 0
    return predict_sign(a) != y


def step_size(y, a, eta, rule):
    """The c in w += c*x, b += c: eta*y (margin rule) or eta*(y - y_hat) (prediction rule)."""
    if rule == "margin":
        return eta * y
    y_hat = 1.0 if a >= 0 else -1.0
    return eta * (y - y_hat)


def epoch_indices(n, order, rng):
    if order == "shuffle":
        return rng.permutation(n)
    return range(n)


def train(X, y, w, b, *, eta, max_iter, order, rule, fit_intercept, rng, record=None,
          on_update=None, epoch_offset=0):
    """Run the perceptron from (w, b) in place; return (b, n_iter, n_updates, converged, mistakes).

    ``w`` is updated in place (the caller passes its own copy). ``record`` is a list to append
    :class:`Step` records to, or None. ``on_update(w, b)`` is called after every update.
    For ``order="random-mistake"`` one iteration is a full scan followed by at most one update.
    """
    n, d = X.shape
    x_norms = np.sqrt(np.einsum("ij,ij->i", X, X))
    mistakes = []
    n_updates = 0
    converged = False
    epoch = 0
    for epoch in range(1, max_iter + 1):
        if order == "random-mistake":
            a_all = scores(X, w, b, x_norms)
            wrong = np.flatnonzero(is_mistake(y, a_all, rule))
            if wrong.size == 0:
                mistakes.append(0)
                converged = True
                break
            visit = [int(wrong[rng.integers(wrong.size)])]
        else:
            visit = epoch_indices(n, order, rng)
        updates = 0
        for i in visit:
            x, yi = X[i], y[i]
            a = activation(w, b, x, x_norms[i])
            mistake = bool(is_mistake(yi, a, rule))
            if mistake:
                c = step_size(yi, a, eta, rule)
                w += c * x
                if fit_intercept:
                    b += c
                updates += 1
                if on_update is not None:
                    on_update(w, b)
            if record is not None:
                record.append(Step(epoch + epoch_offset, int(i), x.copy(), float(yi), float(a),
                                   1.0 if a >= 0 else -1.0, mistake, w.copy(), float(b)))
        mistakes.append(updates)
        n_updates += updates
        if order != "random-mistake" and updates == 0:
            converged = True
            break
    return b, epoch, n_updates, converged, np.array(mistakes, dtype=np.int64)
