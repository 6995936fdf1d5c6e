"""The numpy paths of the perceptron family: the reference loop's decisions and weights, exactly.

The models run these when numba is not installed (or ``PERCLIB_ACCEL=0``; :mod:`perclib._accel`),
and the compiled loops of :mod:`perclib._kernel` otherwise: both give the same results. The numpy
paths are fast while mistakes are rare (separable data); each mistake costs Python-level work.

The reference (:func:`perclib._engine.train` and the multi-class loop of
:mod:`perclib._reference`) visits one example at a time. Here the examples are still
*visited* one at a time, in the same order, but they are *scored* many at a time:

1. Score a window of upcoming examples with one matrix-vector product ``X[window] @ w + b`` under
   the current weights. A cyclic chunk read from memory for the first time in an epoch is scored
   whole by ``np.einsum("ij,j->i", rows, w)``; the windows after a mistake, whose rows are then in
   the cache, by BLAS (``rows @ w``). On the benchmark's machine BLAS's ``dgemv`` streams a
   100-column ``X`` from memory at about 10 GB/s and einsum's kernel at about 20 GB/s, near
   ``X.sum()``'s speed, while from the cache BLAS is the faster of the two.
2. Jump to the first example the reference updates on, and make exactly the reference's update
   (``w += c * x``, ``b += c``: the same floating-point operations).
3. Continue after it. The window follows the mistake rate: it doubles after a clean window and
   shrinks to twice the running mean gap between mistakes, so few scores are thrown away.

The rows are read in chunks of about 2 MiB, small enough to stay in the CPU's cache: after a
mistake the rest of the chunk is scored again from the cache, not from memory, and in the first
cyclic epoch each chunk's row norms (for the tie band) are computed while it is in the cache. With
a shuffled order a chunk's rows are gathered into one reused buffer; ``X`` itself is never copied.
For ``order="random-mistake"`` every iteration scores all the examples at once (``scores``) and
picks among the mistakes with the reference's random draw.

Tried and left out: skipping examples that a Cauchy-Schwarz bound proves still correct. On the
benchmark's 100-dimensional data the bound clears at most about half the rows, scattered, and
gathering half the rows costs as much as streaming all of them.

Why the decisions are the reference's
-------------------------------------
The reference decides by the sign of ``a = w.x + b``. Near a tie (``|a|`` within the rounding band
``4 d eps ||w|| ||x||`` of :func:`perclib._engine.activation`) it takes the sign of the
left-to-right sum (scikit-learn's); outside the band every order of summation has the exact sign.
A window's ``X[window] @ w`` (BLAS's or einsum's) sums in yet another order, but it too lies
within the band's half of the exact value, so outside the band its sign is the exact one; inside
the band we recompute the left-to-right sum, as the reference does. So every decision is the
reference's, the update after it is the same arithmetic, and the weights stay bit-identical. The
multi-class scan does the same with the gap between the best and the second-best score
(:func:`multiclass`).
"""

from __future__ import annotations

import functools
import math

import numpy as np
import scipy.sparse as sp

from . import _reference
from ._engine import (
    _seq_dot,
    check_finite_update,
    class_band,
    class_scores,
    row_norms,
    scores,
    tie_band,
    update_classes,
    vector_norm,
)

_MIN_WINDOW = 16
_WINDOW_PER_GAP = 2.0  # a window after a mistake: this many mean gaps between mistakes
_CHUNK_BYTES = 1 << 21  # rows scored together stay in the cache (about 2 MiB)


def _quiet(loop):
    """Run a training loop under one ``np.errstate``: at huge scales scores may be inf or NaN; they
    are then decided exactly (see :mod:`perclib._engine`), and an overflowing update raises."""

    @functools.wraps(loop)
    def run(*args, **kwargs):
        with np.errstate(over="ignore", invalid="ignore"):
            return loop(*args, **kwargs)

    return run


# The loops below are wrapped by a call after their definition (``f = _quiet(f)``), not by a
# decorator: mutmut, which measures how well the tests guard them (``make mutation``), leaves
# decorated functions unmutated.


def _chunk_rows(n, d):
    return max(_MIN_WINDOW, min(n, _CHUNK_BYTES // (8 * d)))


class _Scan:
    """The binary block scan: yields, in visiting order, each example the reference updates on.

    ``w`` is updated in place and ``b`` is kept here, so the scan always scores under the current
    weights. The caller must call :meth:`update` on each yielded example before asking for the next.
    """

    def __init__(self, X, y, w, b, *, eta, rule, fit_intercept):
        self.X, self.y, self.w, self.b = X, y, w, b
        self.eta, self.rule, self.fit_intercept = eta, rule, fit_intercept
        n, d = X.shape
        self.x_norms = np.empty(n)  # ||x_i||, filled as rows are first read
        self._normed = 0  # rows 0.._normed-1 have their norm
        self.d = d
        self.w_norm = vector_norm(w)
        self.chunk = _chunk_rows(n, d)
        self.window = _MIN_WINDOW
        self.gap = 1.0  # running mean of the visits between mistakes
        self.visits = 0  # visits before the current epoch
        self.last = 0  # the visit of the last mistake
        self._buffer = None

    def norms(self, hi=None):
        """The row norms of X[:hi] (all rows by default), computed as the reference computes them.

        In a cyclic first epoch each chunk's norms are computed as the chunk is first read, so the
        rows come into the cache once for both: no extra pass over X.
        """
        hi = self.X.shape[0] if hi is None else hi
        if hi > self._normed:
            row_norms(self.X[self._normed : hi], out=self.x_norms[self._normed : hi])
            self._normed = hi
        return self.x_norms

    def _rows(self, order, lo, hi):
        """The rows visited at positions lo..hi-1, their labels and norms (views when cyclic)."""
        if order is None:
            return self.X[lo:hi], self.y[lo:hi], self.norms(hi)[lo:hi], None
        idx = order[lo:hi]
        self.norms()
        if self._buffer is None:
            self._buffer = np.empty((self.chunk, self.X.shape[1]))
        # mode="clip" (the indices are valid anyway): with the default mode numpy buffers ``out``
        rows = np.take(self.X, idx, axis=0, out=self._buffer[: hi - lo], mode="clip")
        return rows, self.y[idx], self.x_norms[idx], idx

    def epoch(self, order=None):
        """One pass in ``order`` (None: 0, 1, ..., n-1); yields (position, index, activation)."""
        n = self.X.shape[0]
        w, d, margin_rule = (
            self.w,
            self.d,
            self.rule == "margin",
        )  # w is updated in place: always current
        for lo in range(0, n, self.chunk):
            hi = min(lo + self.chunk, n)
            # a cyclic chunk's rows are still in memory,
            # unless its norms were just computed from them
            fresh = order is None and self._normed >= hi
            rows, ys, norms, idx = self._rows(order, lo, hi)
            m = rows.shape[0]
            norm_max = float(norms.max())
            o = 0
            while o < m:
                if fresh:  # 1. one product under the current weights: the whole
                    e = m  #    chunk, streamed from memory by einsum's kernel
                    ya = np.einsum("ij,j->i", rows, w)
                    fresh = False
                else:  #    or a window of rows now in the cache, by BLAS
                    e = min(o + self.window, m)
                    ya = rows[o:e] @ w
                ya += self.b
                ya *= ys[o:e]  # y * (w.x + b): exact, as y is +1 or -1
                cut = tie_band(self.w_norm, norm_max, d)  # >= every row's band (inf or NaN: all)
                mistake = None
                for j in (~(ya > cut)).nonzero()[0].tolist():  # mistakes, near-ties and NaN scores
                    yj = float(ys[o + j])
                    a = float(ya[j]) * yj
                    if not abs(a) > tie_band(
                        self.w_norm, float(norms[o + j]), d
                    ):  # the reference's band
                        a = (
                            _seq_dot(w, rows[o + j]) + self.b
                        )  # a near-tie: the left-to-right sum decides
                    if (yj * a <= 0) if margin_rule else ((1.0 if a >= 0 else -1.0) != yj):
                        mistake = (j, a)
                        break
                if mistake is None:
                    o = e
                    self.window = min(2 * self.window, self.chunk)
                    continue
                j, a = mistake  # 2. the first mistake: the caller updates on it
                at = o + j
                yield lo + at, (lo + at if idx is None else int(idx[at])), a
                visit = self.visits + lo + at
                self.gap += 0.25 * (visit - self.last - self.gap)
                self.last = visit
                self.window = max(_MIN_WINDOW, min(int(_WINDOW_PER_GAP * self.gap), self.chunk))
                o = at + 1  # 3. continue after it, under the new weights

    def update(self, i, a):
        """The reference's update on example i with activation a; returns the step c."""
        yi = float(self.y[i])
        if self.rule == "margin":
            c = self.eta * yi
        else:
            c = self.eta * (yi - (1.0 if a >= 0 else -1.0))
        w = self.w
        w += c * self.X[i]  # an overflow raises just below
        if self.fit_intercept:
            self.b += c
        self.w_norm = vector_norm(w)
        if not (math.isfinite(self.w_norm) and math.isfinite(self.b)):
            check_finite_update(w, self.b)
        return c


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
    record=None,
    on_update=None,
    epoch_offset=0,
    stop_when_clean=True,
):
    """:func:`perclib._engine.train` without ``record``: the same results, scored block by block,
    and the same calls of ``on_update(w, b, t, i, c)``.

    A sparse X (CSR) runs :func:`perclib._reference.train`, which touches only each row's nonzeros.
    """
    if sp.issparse(X):  # the reference's own sparse loop: it touches only each row's nonzeros
        return _reference.train(
            X, y, w, b, eta=eta, max_iter=max_iter, order=order, rule=rule,
            fit_intercept=fit_intercept, rng=rng, on_update=on_update,
            stop_when_clean=stop_when_clean,
        )  # fmt: skip
    if record is not None:
        raise ValueError("the fast path keeps no history; record=True uses the reference loop")
    n = X.shape[0]
    scan = _Scan(X, y, w, b, eta=eta, rule=rule, fit_intercept=fit_intercept)
    mistakes = []
    n_updates = 0
    converged = False
    epoch = 0
    for epoch in range(1, max_iter + 1):
        if order == "random-mistake":
            # one scan of all the data (vectorised, ties settled as the reference does), one update
            a_all = scores(X, scan.w, scan.b, scan.norms())
            wrong = np.flatnonzero(
                (y * a_all <= 0) if rule == "margin" else (np.where(a_all >= 0, 1.0, -1.0) != y)
            )
            if wrong.size == 0:
                mistakes.append(0)
                converged = True
                break
            i = int(wrong[rng.integers(wrong.size)])
            found = [(epoch - 1, i, float(a_all[i]))]  # the reference visits one example each time
        else:
            t0 = (epoch - 1) * n  # visits before this epoch
            found = (
                (t0 + pos, i, a)
                for pos, i, a in scan.epoch(rng.permutation(n) if order == "shuffle" else None)
            )
        updates = 0
        for t, i, a in found:
            c = scan.update(i, a)
            updates += 1
            if on_update is not None:
                on_update(scan.w, scan.b, t, i, c)
        mistakes.append(updates)
        n_updates += updates
        if order != "random-mistake" and updates == 0:
            converged = True
            if stop_when_clean:
                break
    return scan.b, epoch, n_updates, converged, np.array(mistakes, dtype=np.int64)


train = _quiet(train)


def averaged(X, y, **kw):
    """AveragedPerceptron's loop: :func:`perclib._reference.averaged` on the scan's ``train``
    (the scan finds the reference's mistakes, the hook makes CIML's increments of u and beta)."""
    return _reference.averaged(X, y, loop=train, **kw)


def voted(X, y, **kw):
    """VotedPerceptron's loop: :func:`perclib._reference.voted` on the scan's ``train``."""
    return _reference.voted(X, y, loop=train, **kw)


def multiclass(X, yi, n_classes, *, eta, max_iter, order, fit_intercept, rng, average):
    """MulticlassPerceptron's loop: returns W, b, U, beta, c, mistakes, converged.

    A window's scores ``X[window] @ W.T + b`` are summed in another order than the reference's
    ``W @ x + b``, but each lies within ``gamma_(d+1) (||w_k|| ||x|| + |b_k|)`` of the exact score,
    and so does the reference's. Where the true class beats every other by more than four such
    errors, the reference's argmax is the true class too. The test asks for twice
    :func:`perclib._engine.class_band` of the largest norms and intercept (eight such errors, and
    infinite past 2**1000): the bound is written once, there. Every other example is scored again
    exactly as the reference scores it (:func:`perclib._engine.class_scores`). The window follows
    the mean gap between mistakes, as in the binary scan.
    """
    n, d = X.shape
    K = n_classes
    W, b = np.zeros((K, d)), np.zeros(K)
    U, beta = np.zeros((K, d)), np.zeros(K)
    x_norms = row_norms(X)
    w_norms = np.zeros(K)
    chunk = _chunk_rows(n, d * K)
    buffer = None
    rows_at = np.arange(chunk)
    window = _MIN_WINDOW
    mean_gap, last = 1.0, 0
    w_norm_max = b_max = 0.0  # what the gap test reads: they change only with W and b
    mistakes = []
    converged = False
    for epoch in range(max_iter):
        visit = rng.permutation(n) if order == "shuffle" else None
        updates = 0
        for lo in range(0, n, chunk):
            hi = min(lo + chunk, n)
            if visit is None:
                rows, ts, norms, idx = X[lo:hi], yi[lo:hi], x_norms[lo:hi], None
            else:
                idx = visit[lo:hi]
                if buffer is None:
                    buffer = np.empty((chunk, d))
                rows = np.take(X, idx, axis=0, out=buffer[: hi - lo], mode="clip")
                ts, norms = yi[idx], x_norms[idx]
            o, m = 0, hi - lo
            norm_max = float(norms.max())
            while o < m:
                e = min(o + window, m)
                S = rows[o:e] @ W.T
                S += b
                r, t_row = rows_at[: e - o], ts[o:e]
                s_true = S[r, t_row]
                S[r, t_row] = -np.inf
                lead = s_true - S.max(axis=1)
                # two classes' bands, at most (class_band grows with each argument); infinite where
                # a sum may overflow in one order only: then no row is sure
                gap = 2.0 * class_band(w_norm_max, norm_max, b_max, d)
                found = None
                for j in (~(lead > gap)).nonzero()[0].tolist():  # not surely right (or NaN)
                    i = lo + o + j if idx is None else int(idx[o + j])
                    x, t = X[i], int(ts[o + j])
                    s, p = class_scores(W, b, x, float(norms[o + j]), w_norms)  # the reference's
                    if p != t:
                        found = (j, i, t, p)
                        break
                if found is None:
                    o = e
                    window = min(2 * window, chunk)
                    continue
                j, i, t, p = found
                c = epoch * n + lo + o + j + 1
                # the reference's update (an overflow raises just below)
                update_classes(W, b, U, beta, t, p, X[i], eta, c, fit_intercept)
                check_finite_update(W[t], b[t])
                check_finite_update(W[p], b[p])
                w_norms[t] = vector_norm(W[t])
                w_norms[p] = vector_norm(W[p])
                w_norm_max, b_max = float(w_norms.max()), float(np.abs(b).max())
                updates += 1
                mean_gap += 0.25 * (c - last - mean_gap)
                last = c
                window = max(_MIN_WINDOW, min(int(_WINDOW_PER_GAP * mean_gap), chunk))
                o += j + 1
        mistakes.append(updates)
        if updates == 0 and not average:
            converged = True
            break
    if not average:  # CIML's sums are returned only when averaging, as _kernel's loop does
        U, beta = np.zeros((K, d)), np.zeros(K)
    return W, b, U, beta, len(mistakes) * n + 1, mistakes, converged


multiclass = _quiet(multiclass)


def pocket(X, y, **kw):
    """PocketPerceptron's loop (:func:`perclib._reference.pocket_with` on the scan's ``train``):
    (w, b, pocket w, pocket b, pocket mistakes, n_iter, n_updates, converged, mistakes)."""
    return _reference.pocket_with(train, X, y, **kw)
