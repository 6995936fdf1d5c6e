"""The fast path: the loops of :mod:`perclib.training`, scored a block of examples at a time.

The plain loops visit one example at a time. Here the examples are still *visited* one at a time,
in the same order, but they are *scored* many at a time:

1. Score a window of upcoming examples with one matrix-vector product ``X[window] @ w + b`` under
   the current weights.
2. Jump to the first example the plain loop updates on, and make exactly its update
   (``w += c * x``, ``b += c``: the same floating-point operations).
3. Continue after it. A window doubles after a window without a mistake and halves after one; it
   holds at most about 2**20 entries of X. A shuffled epoch gathers each window's rows in its
   order (no copy of a dense X; a CSR X is copied in that order, its nonzeros only).

It is fast while mistakes are rare (separable data); each mistake costs Python-level work. X may be
dense or CSR (an update then touches only the row's nonzeros, as in the plain loop).

Why the results are the plain loop's, bit for bit
-------------------------------------------------
The plain loop decides by the sign of ``a = w.x + b``; within the tie band of
:func:`perclib.training.tie_band` around 0 it takes the sign of the left-to-right sum. Every order
of summation lies within half the band of the exact value, so outside the band every order has
the exact sign. A window's ``X[window] @ w`` sums in yet another order, so outside the band its
sign is the exact one too; inside the band (or NaN) the left-to-right sum is recomputed, as the
plain loop does. So every decision is the plain loop's, every update the same arithmetic, and the
weights stay bit-identical. The multi-class scan (:func:`multiclass`) does the same with the lead
of the true class over the best other class (:func:`perclib.training.class_band`).

>>> import numpy as np
>>> from perclib import training
>>> from perclib.datasets import make_noisy
>>> X, y = make_noisy(500, 5, flip=0.1, random_state=0)
>>> y = np.where(y > 0, 1.0, -1.0)
>>> args = dict(eta=1.0, max_iter=5, order="cyclic", rule="margin", fit_intercept=True, rng=None)
>>> w_scan, w_plain = np.zeros(5), np.zeros(5)
>>> b_scan = train(X, y, w_scan, 0.0, **args)[0]
>>> b_plain = training.train(X, y, w_plain, 0.0, **args)[0]
>>> bool(np.array_equal(w_scan, w_plain)), bool(b_scan == b_plain)
(True, True)
"""

from __future__ import annotations

import math

import numpy as np
import scipy.sparse as sp

from .training import (
    _seq_dot,
    check_finite_update,
    class_band,
    class_scores,
    norms,
    row,
    row_norms,
    step_size,
    tie_band,
    update_classes,
    vector_norm,
)

_MIN_WINDOW = 16
_MAX_ENTRIES = 1 << 20  # a window holds at most this many entries of X (or scores)


def train(
    X,
    y,
    w,
    b,
    *,
    eta,
    max_iter,
    order,
    rule,
    fit_intercept,
    rng,
    on_update=None,
    stop_when_clean=True,
):
    """:func:`perclib.training.train` (cyclic or shuffled order, no ``record``): the same results
    and the same calls of ``on_update(w, b, t, i, c)``, scored block by block."""
    n, d = X.shape
    x_norms = norms(X)
    x_max = float(x_norms.max())  # the widest row band covers every row's (tie_band)
    w_norm = vector_norm(w)
    margin_rule = rule == "margin"
    window, most = _MIN_WINDOW, max(_MIN_WINDOW, _MAX_ENTRIES // d)
    mistakes = []
    n_updates, converged, epoch = 0, False, 0
    band = tie_band(w_norm, x_max, d)  # the widest row band; it changes only when w does
    with np.errstate(over="ignore", invalid="ignore"):  # huge scales: inf and NaN, decided exactly
        for epoch in range(1, max_iter + 1):
            visit = rng.permutation(n) if order == "shuffle" else None
            ye = y if visit is None else y[visit]  # the labels in visiting order
            product = _products(X, visit)
            t0 = (epoch - 1) * n  # examples visited before this epoch
            updates, o = 0, 0
            while o < n:
                e = min(o + window, n)
                ys = ye[o:e]
                ya = product(o, e, w)  # 1. one product under the current weights
                ya += b
                ya *= ys  # y * (w.x + b): exact, as y is +1 or -1
                found = None
                for k in (~(ya > band)).nonzero()[0].tolist():  # mistakes, near-ties and NaN
                    i = o + k if visit is None else int(visit[o + k])
                    yi = float(ys[k])
                    a = float(ya[k]) * yi
                    if not abs(a) > band and not abs(a) > tie_band(w_norm, float(x_norms[i]), d):
                        j, x = row(X, i)  # within the row's band, the plain loop's
                        a = _seq_dot(w[j], x) + b  # a near-tie: the left-to-right sum decides
                    if (yi * a <= 0) if margin_rule else ((1.0 if a >= 0 else -1.0) != yi):
                        found = (k, i, yi, a)
                        break
                if found is None:
                    o, window = e, min(2 * window, most)
                    continue
                k, i, yi, a = found  # 2. the first mistake: the plain loop's update
                c = step_size(yi, a, eta, rule)
                j, x = row(X, i)
                w[j] += c * x  # an overflow raises just below
                if fit_intercept:
                    b += c
                w_norm = vector_norm(w)
                if not (math.isfinite(w_norm) and math.isfinite(b)):
                    check_finite_update(w[j], b)
                band = tie_band(w_norm, x_max, d)
                updates += 1
                if on_update is not None:
                    on_update(w, b, t0 + o + k, i, c)
                o, window = o + k + 1, max(_MIN_WINDOW, window // 2)  # 3. continue after it
            mistakes.append(updates)
            n_updates += updates
            if updates == 0:
                converged = True
                if stop_when_clean:
                    break
    return b, epoch, n_updates, converged, np.array(mistakes, dtype=np.int64)


def _products(X, visit=None):
    """A function (lo, hi, w) -> X[lo:hi] @ w, or X[visit[lo:hi]] @ w in a shuffled epoch. For a
    CSR X it sums each row's nonzeros by one ``np.bincount`` over the window's entries, without
    building a matrix for the window."""
    if not sp.issparse(X):  # ndarray.dot: BLAS as for @, with less overhead per call
        if visit is None:
            return lambda lo, hi, w: X[lo:hi].dot(w)
        return lambda lo, hi, w: X[visit[lo:hi]].dot(w)  # the window's rows only: no copy of X
    if visit is not None:
        X = X[visit]
    ptr, ind, val = X.indptr, X.indices, X.data
    owner = np.repeat(np.arange(X.shape[0]), np.diff(ptr))  # the row of each stored entry

    def product(lo, hi, w):
        s = slice(ptr[lo], ptr[hi])
        a = np.bincount(owner[s] - lo, weights=val[s] * w[ind[s]], minlength=hi - lo)
        return a.astype(np.float64, copy=False)  # rows without entries: int zeros otherwise

    return product


def multiclass(X, yi, state, *, eta, max_iter, order, fit_intercept, rng, stop_when_clean):
    """:func:`perclib.training.multiclass` (no ``history``), scored block by block.

    A window's scores ``X[window] @ W.T + b`` and the plain loop's ``W @ x + b`` each lie within
    ``gamma_(d+1) (||w_k|| ||x|| + |b_k|)`` of the exact scores. Where the true class leads every
    other by more than twice the :func:`perclib.training.class_band` of the largest norms and
    intercept (eight such errors), the plain loop's argmax is the true class too: no update. Every
    other example is scored again exactly as the plain loop scores it
    (:func:`perclib.training.class_scores`).
    """
    W, b, U, beta = state["W"], state["b"], state["U"], state["beta"]
    n, d = X.shape
    x_norms = row_norms(X)
    x_max = float(x_norms.max())
    w_norms = row_norms(W)
    window, most = _MIN_WINDOW, max(_MIN_WINDOW, _MAX_ENTRIES // (d * W.shape[0]))
    mistakes, converged = [], False
    band = None  # twice the widest class band; computed again after each update
    with np.errstate(over="ignore", invalid="ignore"):  # huge scales: inf and NaN, decided exactly
        for _ in range(max_iter):
            visit = rng.permutation(n) if order == "shuffle" else None
            c0 = state["c"]  # CIML's counter at the epoch's first example
            updates, o = 0, 0
            while o < n:
                if band is None:
                    band = 2.0 * class_band(float(w_norms.max()), x_max, float(np.abs(b).max()), d)
                e = min(o + window, n)
                idx = slice(o, e) if visit is None else visit[o:e]
                ts = yi[idx]
                S = X[idx].dot(W.T)
                S += b
                r = np.arange(e - o)
                lead = S[r, ts]
                S[r, ts] = -np.inf
                lead -= S.max(axis=1)  # the true class's lead over the best other class
                found = None
                for k in (~(lead > band)).nonzero()[0].tolist():  # not surely right (or NaN)
                    i, t = o + k if visit is None else int(visit[o + k]), int(ts[k])
                    _, p = class_scores(
                        W, b, X[i], x_norms[i], w_norms
                    )  # the plain loop's decision
                    if p != t:
                        found = (k, i, t, p)
                        break
                if found is None:
                    o, window = e, min(2 * window, most)
                    continue
                k, i, t, p = found
                update_classes(W, b, U, beta, t, p, X[i], eta, c0 + o + k, fit_intercept)
                for q in (t, p):
                    w_norms[q] = vector_norm(W[q])
                    if not (math.isfinite(w_norms[q]) and math.isfinite(b[q])):
                        check_finite_update(W[q], b[q])  # an overflow raises here
                band = None
                updates += 1
                o, window = o + k + 1, max(_MIN_WINDOW, window // 2)
            state["c"] = c0 + n
            mistakes.append(updates)
            if updates == 0 and stop_when_clean:
                converged = True
                break
    return np.array(mistakes, dtype=np.int64), converged
