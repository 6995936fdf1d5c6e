"""The perceptron family's training loops, written once as the notes' pseudocode, compiled by numba.

:func:`binary_epochs` is CIML's PerceptronTrain and AveragedPerceptronTrain (Daume III, ch. 4) line
for line, with two additions a model may ask for: a log of the updates (the voted perceptron keeps
every iterate, rebuilt from it) and the pocket (the weights with the fewest training mistakes so
far). :func:`multiclass_epochs` is the multi-class perceptron (Collins 2002; CIML ch. 6), with the
same averaging. Every model of the family trains through one of the two.

When numba is installed they are compiled (:mod:`perclib._accel`); the plain Python function stays
available as ``.py_func`` and gives the same results, bit for bit. The loops keep their state in
the arrays passed in (updated in place) and return the few numbers that change.

The activation and the tie band
-------------------------------
A mistake is decided by the sign of ``a = w.x + b``. scikit-learn sums ``w.x`` from left to right.
:func:`binary_epochs` sums it with four running sums (:func:`fast_dot`: another order, several
times faster on a modern CPU) and falls back to the left-to-right sum only when ``|a|`` lies
within the rounding band ``4 d eps ||w|| ||x||`` of zero, where two orders might disagree on the
sign (:mod:`perclib._engine` defines the band and shows why outside it every order has the exact
sign).
So the decisions, and with them the weights, are scikit-learn's bit for bit.

The multi-class loop predicts the first class with the highest score ``w_k.x + b_k``. Each score,
in any order of summation, lies within ``gamma_(d+1) (||w_k|| ||x|| + |b_k|)`` of the exact one
(``gamma_(d+1) ~ (d + 1) eps / 2``). So when the best score beats every other by more than four
times the two errors (:func:`class_band`), every order of summation picks the same class; else the
scores are summed again from left to right and the first of the highest wins. The reference loop
(:mod:`perclib._reference`) and the numpy path (:mod:`perclib._fast`) apply the same rule.
"""

from __future__ import annotations

import math

import numpy as np
import scipy.sparse as sp

from . import _engine, _fast
from ._accel import jit
from ._engine import check_finite_update

TINY, BIG = _engine._TINY, _engine._BIG  # the norms' range without overflow or underflow

# What the loops return in ``status``: all went well, or an update made w or b overflow.
OK, OVERFLOW = 0, 1

# Each loop is compiled by a call after its definition (``f = jit(f)``), not by a decorator:
# mutmut, which measures how well the tests guard this code (``make mutation``), leaves decorated
# functions unmutated.


def seq_dot(W, k, X, i):
    """w_k.x_i (rows of W and X) summed from left to right, as scikit-learn's WeightVector.dot.

    X is a dense matrix or a CSR matrix given as (indptr, indices, data); a sparse row is summed
    over its nonzeros (the zeros would add exact zeros).
    """
    s = 0.0
    if isinstance(X, tuple):
        ptr, ind, val = X
        w = W[k]  # a 1-D view: cheaper to index than W[k, j]
        for q in range(ptr[i], ptr[i + 1]):
            s += w[ind[q]] * val[q]
        return s
    for j in range(W.shape[1]):
        s += W[k, j] * X[i, j]
    return s


seq_dot = jit(seq_dot, inline=True)


def add_row(W, k, step, X, i):
    """w_k = w_k + step * x_i (touching only x_i's nonzeros when X is sparse); returns whether
    every entry written is finite."""
    finite = True
    if isinstance(X, tuple):
        ptr, ind, val = X
        w = W[k]
        for q in range(ptr[i], ptr[i + 1]):
            j = ind[q]
            v = w[j] + step * val[q]
            w[j] = v
            finite &= math.isfinite(v)
        return finite
    for j in range(W.shape[1]):
        v = W[k, j] + step * X[i, j]
        W[k, j] = v
        finite &= math.isfinite(v)
    return finite


add_row = jit(add_row, inline=True)


def fast_dot(W, k, X, i):
    """w_k.x_i with four running sums: the exact value to within the tie band, faster. (A sparse
    row is summed from left to right: its indirect loads, not the sum, set the pace.)"""
    if isinstance(X, tuple):
        return seq_dot(W, k, X, i)
    d = W.shape[1]
    s0 = s1 = s2 = s3 = 0.0
    j = 0
    while j + 4 <= d:
        s0 += W[k, j] * X[i, j]
        s1 += W[k, j + 1] * X[i, j + 1]
        s2 += W[k, j + 2] * X[i, j + 2]
        s3 += W[k, j + 3] * X[i, j + 3]
        j += 4
    s = (s0 + s1) + (s2 + s3)
    while j < d:
        s += W[k, j] * X[i, j]
        j += 1
    return s


fast_dot = jit(fast_dot, inline=True)


# The bands are written once, in perclib._engine, for floats; the loops here compile those very
# functions, and the numpy loops call them as they are.
tie_band = jit(_engine.tie_band)
class_band = jit(_engine.class_band)


def norm(X, i):
    """||x_i||, free of overflow and underflow (rescaled by max |x_ij| when out of range)."""
    d = X.shape[1]
    s0 = s1 = s2 = s3 = 0.0  # four running sums, as in fast_dot
    j = 0
    while j + 4 <= d:
        s0 += X[i, j] * X[i, j]
        s1 += X[i, j + 1] * X[i, j + 1]
        s2 += X[i, j + 2] * X[i, j + 2]
        s3 += X[i, j + 3] * X[i, j + 3]
        j += 4
    s = (s0 + s1) + (s2 + s3)
    while j < d:
        s += X[i, j] * X[i, j]
        j += 1
    r = math.sqrt(s)
    if TINY <= r <= BIG or math.isnan(r):
        return r
    m = 0.0
    for j in range(d):
        m = max(m, abs(X[i, j]))
    if not m > 0.0 or math.isinf(m):  # zero, or an inf entry (the update check then raises)
        return m
    s = 0.0
    for j in range(d):
        s += (X[i, j] / m) * (X[i, j] / m)
    return m * math.sqrt(s)


norm = jit(norm, inline=True)


def training_mistakes(X, y, w, b, x_norms, x_norm_max, w_norm, stop_at, scores):
    """The training mistakes of (w, b) (sign(0) = +1); the count stops once it reaches
    ``stop_at`` (checked after each block of rows, so it may pass it a little).

    The dense rows are scored block by block, each block by one product ``X[block] @ w`` (BLAS,
    into the buffer ``scores``), so that a count that reaches ``stop_at`` early skips the rest of
    the products. Each block's decisions are counted in one pass without branches, which also
    counts the scores within the band of the longest row (``x_norm_max``); only when there are
    some are they looked at again: within its own row's band a score is summed from left to
    right, as in :func:`binary_epochs`. Sparse rows are summed from left to right.
    """
    w_row = w.reshape(1, w.shape[0])
    m = 0
    if isinstance(X, tuple):
        for i in range(y.shape[0]):
            m += (seq_dot(w_row, 0, X, i) + b >= 0) != (y[i] > 0)
            if m >= stop_at:
                break
        return m
    n, d = X.shape
    wide = tie_band(w_norm, x_norm_max, d)  # every row's band is within this one
    block = max(512, (n + 63) // 64)
    for lo in range(0, n, block):
        hi = min(lo + block, n)
        np.dot(X[lo:hi], w, scores[lo:hi])
        near = 0
        for i in range(lo, hi):  # y_hat = sign(a), sign(0) = +1; no branch: vectorised
            a = scores[i] + b
            m += (a >= 0) != (y[i] > 0)
            near += not abs(a) > wide  # near a tie, or NaN
        if near > 0:  # settle those rows as binary_epochs does
            for i in range(lo, hi):
                a = scores[i] + b
                if not abs(a) > wide and not abs(a) > tie_band(w_norm, x_norms[i], d):
                    exact = seq_dot(w_row, 0, X, i) + b
                    m += int((exact >= 0) != (y[i] > 0)) - int((a >= 0) != (y[i] > 0))
        if m >= stop_at:
            break
    return m


training_mistakes = jit(training_mistakes)


def fill_norms(X, x_norms):
    """||x_i|| for every row not yet measured (x_norms[i] < 0)."""
    for i in range(x_norms.shape[0]):
        if x_norms[i] < 0:
            x_norms[i] = norm(X, i)


fill_norms = jit(fill_norms)


REORDER_AFTER = 64  # pocket updates between two orderings of the rows (each copies X once)


def hardest_first(X, y, x_norms, hard, in_use, scores, b):
    """Order the rows with the pocket's mistakes first into ``hard`` = (X', y', norms', order).

    ``scores`` holds every row's score under the pocket's weights, in the current order (``order``
    when ``in_use``, else X's own); ``order`` maps a position to a row of X. A near-tie may be put
    on the wrong side: the order only speeds the count up, it never changes it.
    """
    Xh, yh, nh, order = hard
    n = y.shape[0]
    new = np.empty(n, dtype=np.int64)
    k = 0
    for wrong in (True, False):
        for q in range(n):
            if ((scores[q] + b >= 0) != (y[order[q] if in_use else q] > 0)) == wrong:
                new[k] = order[q] if in_use else q
                k += 1
    for q in range(n):
        i = new[q]
        order[q] = i
        yh[q], nh[q] = y[i], x_norms[i]
        for j in range(X.shape[1]):
            Xh[q, j] = X[i, j]


hardest_first = jit(hardest_first)


def binary_epochs(
    X,
    y,
    x_norms,
    visit,
    n_epochs,
    w,
    b,
    eta,
    margin_rule,
    fit_intercept,
    stop_when_clean,
    mistakes,
    c,
    u,
    beta,
    log,
    pocket_w,
    pocket,
    scores,
    hard,
):
    """Run up to ``n_epochs`` epochs of the perceptron over the rows ``visit`` (in that order).

    ``w`` (and ``u``, ``pocket_w``, ``log``) are updated in place; ``mistakes[e]`` gets the updates
    of epoch e. ``c`` is CIML's counter (visits so far + 1). Averaging is on when ``u`` has d
    entries (empty: off); the pocket is on when ``pocket_w`` has d entries, with ``pocket`` =
    [its b, its training mistakes, the largest row norm], ``x_norms`` complete and ``scores`` a
    buffer of n entries (each update costs at most one ``X @ w`` and one pass over its n scores,
    less when the count reaches the pocket's early). ``hard`` = (X', y', norms', order), buffers of
    n rows (or empty: off) where :func:`hardest_first` keeps the rows with the pocket's mistakes
    first, so that a count that reaches the pocket's stops sooner (the count is the same in any
    order of the rows); ``pocket[3]`` is then 1 once they are in use, ``pocket[4]`` the update
    that last ordered them and ``pocket[5]`` the updates so far. ``log``
    receives, for each update, the counter c at which it happened and the example's index, one row
    per update: it must have a row for every visit, or none (nothing is logged).

    Returns (b, c, beta, epochs run, updates logged, status).
    """
    d = w.shape[0]
    average, keep_pocket = u.shape[0] == d, pocket_w.shape[0] == d
    w_row, u_row = w.reshape(1, d), u.reshape(1, u.shape[0])  # one-row matrices (views)
    w_norm = 0.0 if isinstance(X, tuple) else norm(w_row, 0)
    n_log = 0
    for epoch in range(n_epochs):
        updates = 0
        for k in range(visit.shape[0]):  # for each (x, y) in the data
            i = visit[k]
            a = fast_dot(w_row, 0, X, i) + b  # a = w.x + b
            if not isinstance(X, tuple):  # a dense row's four sums: settle near-ties (above)
                if x_norms[i] < 0:  # first visit: ||x|| for the tie band, x is in the cache
                    x_norms[i] = norm(X, i)
                if not abs(a) > tie_band(w_norm, x_norms[i], d):  # near a tie, or NaN
                    a = seq_dot(w_row, 0, X, i) + b  # scikit-learn's sum decides
            y_hat = 1.0 if a >= 0 else -1.0
            if (y[i] * a <= 0) if margin_rule else (y_hat != y[i]):  # a mistake
                step = eta * y[i] if margin_rule else eta * (y[i] - y_hat)
                finite = add_row(w_row, 0, step, X, i)  # w = w + eta y x
                if fit_intercept:  # b = b + eta y
                    b += step
                if not (finite and math.isfinite(b)):
                    return b, c, beta, epoch + 1, n_log, OVERFLOW
                if not isinstance(X, tuple):
                    w_norm = norm(w_row, 0)
                if average:  # u = u + eta y c x, beta = beta + eta y c
                    add_row(u_row, 0, step * c, X, i)
                    if fit_intercept:
                        beta += step * c
                if log.shape[0] > 0:
                    log[n_log, 0], log[n_log, 1] = c, i
                    n_log += 1
                if keep_pocket:  # the new weights go in the pocket if they make fewer mistakes
                    best, longest = pocket[1], pocket[2]
                    if pocket[3] > 0:  # count over the rows in the hardest-first order
                        Xh, yh, nh, _ = hard
                        m = training_mistakes(Xh, yh, w, b, nh, longest, w_norm, best, scores)
                    else:
                        m = training_mistakes(X, y, w, b, x_norms, longest, w_norm, best, scores)
                    pocket[5] += 1  # updates so far
                    if m < pocket[1]:  # a full count: scores holds every row's score under w
                        pocket_w[:] = w
                        pocket[0], pocket[1] = b, m
                        if not isinstance(X, tuple):
                            if hard[3].shape[0] > 0 and pocket[5] - pocket[4] >= REORDER_AFTER:
                                hardest_first(X, y, x_norms, hard, pocket[3] > 0, scores, b)
                                pocket[3], pocket[4] = 1.0, pocket[5]
                updates += 1
            c += 1  # c = c + 1
        mistakes[epoch] = updates
        if updates == 0 and stop_when_clean:
            return b, c, beta, epoch + 1, n_log, OK
    return b, c, beta, n_epochs, n_log, OK


binary_epochs = jit(binary_epochs)


def iterates(X, y, updated, eta, fit_intercept, W, b):
    """The voted perceptron's iterates w_0 = 0, w_1, ..., w_K and their biases, rebuilt from the
    examples it updated on: w_k = w_(k-1) + (eta y) x, the very additions the loop made.

    They are written into W (K + 1 rows) and b, which the caller allocates with numpy: numpy asks
    the kernel for huge pages for a large array, so the first writes into many megabytes of fresh
    memory do not each stop at a page fault.
    """
    K, d = updated.shape[0], X.shape[1]
    W[0, :] = 0.0
    b[0] = 0.0
    for k in range(K):
        i = updated[k]
        step = eta * y[i]
        for j in range(d):
            W[k + 1, j] = W[k, j] + step * X[i, j]
        b[k + 1] = b[k] + step if fit_intercept else b[k]


iterates = jit(iterates)


def multiclass_epochs(
    X,
    t,
    x_norms,
    visit,
    n_epochs,
    W,
    b,
    eta,
    fit_intercept,
    stop_when_clean,
    mistakes,
    c,
    U,
    beta,
):
    """Up to ``n_epochs`` epochs of the multi-class perceptron over the rows ``visit``.

    ``t`` holds each example's class (an index into the rows of W). ``W`` and ``b`` (and ``U``,
    ``beta`` when averaging, which is on when U has W's rows) are updated in place; ``mistakes[e]``
    gets the updates of epoch e; ``c`` is CIML's counter. Returns (c, epochs run, status).
    """
    K, d = W.shape
    average = U.shape[0] == K
    w_norms = np.empty(K)
    for k in range(K):
        w_norms[k] = norm(W, k)
    s = np.empty(K)
    for epoch in range(n_epochs):
        updates = 0
        for v in range(visit.shape[0]):  # for each (x, y) in the data
            i = visit[v]
            if x_norms[i] < 0:  # first visit: ||x|| for the tie band
                x_norms[i] = norm(X, i)
            p = 0  # y_hat = argmax_k w_k.x + b_k, the first of the highest
            for k in range(K):
                s[k] = fast_dot(W, k, X, i) + b[k]
                if s[k] > s[p]:
                    p = k
            band_p = class_band(w_norms[p], x_norms[i], b[p], d)
            for k in range(K):  # a runner-up within the band, or NaN: sum from left to right
                if k != p and not s[p] - s[k] > band_p + class_band(
                    w_norms[k], x_norms[i], b[k], d
                ):
                    p = 0
                    for q in range(K):
                        s[q] = seq_dot(W, q, X, i) + b[q]
                        if s[q] > s[p]:
                            p = q
                    break
            y = t[i]
            if p != y:  # a mistake: w_y = w_y + eta x, w_(y_hat) = w_(y_hat) - eta x
                finite = add_row(W, y, eta, X, i)  # (-eta) x is -(eta x): the same as -=
                finite = add_row(W, p, -eta, X, i) and finite
                if fit_intercept:
                    b[y] += eta
                    b[p] -= eta
                if not (finite and math.isfinite(b[y]) and math.isfinite(b[p])):
                    return c, epoch + 1, OVERFLOW
                if average:
                    add_row(U, y, eta * c, X, i)
                    add_row(U, p, -(eta * c), X, i)
                    if fit_intercept:
                        beta[y] += eta * c
                        beta[p] -= eta * c
                w_norms[y], w_norms[p] = norm(W, y), norm(W, p)
                updates += 1
            c += 1
        mistakes[epoch] = updates
        if updates == 0 and stop_when_clean:
            return c, epoch + 1, OK
    return c, n_epochs, OK


multiclass_epochs = jit(multiclass_epochs)


# ---- The models' entry points: the same signatures and results as perclib._fast's --------------

_NONE = np.zeros(0)  # an empty array: the option is off
_NONE2 = np.zeros((0, 0))
_NO_LOG = np.zeros((0, 2), dtype=np.int64)
_NO_HARD = (_NONE2, _NONE, _NONE, np.zeros(0, dtype=np.int64))  # no hardest-first buffers
_HARD_BYTES = 1 << 28  # the pocket keeps a reordered copy of X up to this size (256 MiB)


def read_only(a):
    """``a`` as the loops take it: a read-only view (no copy) of it; ``a`` itself when it is
    read-only already. The caller's array stays as it was.

    numba compiles a loop once for each set of argument types, and an array that cannot be written
    (a read-only memmap, as joblib and scikit-learn's checks pass) is another type than one that
    can. The loops never write to X or y: seen read-only, writable and read-only data take the same
    compiled version.
    """
    if not a.flags.writeable:
        return a
    view = a.view()
    view.flags.writeable = False
    return view


def sparse_rows(X):
    """A CSR matrix as the loops take it: (indptr, indices, data), the two index arrays seen as
    unsigned integers, all three read-only (views, no copy).

    numba indexes an array with a signed integer by first checking whether it is negative (Python's
    ``w[-1]``); with unsigned indices it does not, and a sparse epoch, which is mostly such indexing
    ``w[indices[q]]``, runs in about half the time. The indices must lie in [0, n_features), as
    :func:`perclib._engine.csr` checks: the loops do not check them again.
    """
    ptr, ind = X.indptr, X.indices
    return (
        read_only(ptr.view(np.dtype(f"u{ptr.dtype.itemsize}"))),
        read_only(ind.view(np.dtype(f"u{ind.dtype.itemsize}"))),
        read_only(X.data),
    )


def _raise_overflow(status):
    if status == OVERFLOW:
        check_finite_update(np.array([math.inf]), 0.0)  # the one message, raised from _engine


def _epochs(
    X,
    y,
    w,
    b,
    *,
    eta,
    max_iter,
    order,
    rng,
    margin_rule,
    fit_intercept,
    stop_when_clean,
    u=_NONE,
    log=_NO_LOG,
    pocket_w=_NONE,
    pocket=_NONE,
    x_norms=None,
    hard=_NO_HARD,
):
    """Run the epochs: all in one compiled call (cyclic), or one call per shuffled epoch.

    ``log``, when given, has a row for every visit of every epoch (``max_iter * n``). Returns
    (b, beta, c, mistakes, the rows of ``log`` written: the updates' counters and examples).
    """
    n = X.shape[0]
    # a CSR matrix (checked by perclib._engine.csr) or a dense array, as the loops take it
    X, y = sparse_rows(X) if sp.issparse(X) else read_only(X), read_only(y)
    if x_norms is None:
        x_norms = np.full(n, -1.0)  # ||x_i||, computed by the loop on the first visit
    scores = np.empty(n) if pocket_w.shape[0] else _NONE  # the pocket's X @ w
    mistakes = np.zeros(max_iter, dtype=np.int64)
    c, beta, run, logged = 1, 0.0, 0, 0
    cyclic = np.arange(n)
    while run < max_iter:  # all the cyclic epochs at once
        if order == "cyclic":
            visit, epochs = cyclic, max_iter - run
        else:
            visit, epochs = rng.permutation(n), 1
        b, c, beta, done, n_log, status = binary_epochs(
            X,
            y,
            x_norms,
            visit,
            epochs,
            w,
            b,
            eta,
            margin_rule,
            fit_intercept,
            stop_when_clean,
            mistakes[run:],
            c,
            u,
            beta,
            log[logged:] if log.shape[0] else log,
            pocket_w,
            pocket,
            scores,
            hard,
        )
        _raise_overflow(status)
        logged += n_log
        run += done
        if stop_when_clean and mistakes[run - 1] == 0:
            break
    return b, beta, c, mistakes[:run], log[:logged]


def train(X, y, w, b, *, eta, max_iter, order, rule, fit_intercept, rng):
    """Perceptron's loop from (w, b), w in place: (b, n_iter, n_updates, converged, mistakes)."""
    if order == "random-mistake":  # one vectorised scan of all the data per update
        return _fast.train(
            X,
            y,
            w,
            b,
            eta=eta,
            max_iter=max_iter,
            order=order,
            rule=rule,
            fit_intercept=fit_intercept,
            rng=rng,
        )
    b, _, _, mistakes, _ = _epochs(
        X,
        y,
        w,
        b,
        eta=eta,
        max_iter=max_iter,
        order=order,
        rng=rng,
        margin_rule=rule == "margin",
        fit_intercept=fit_intercept,
        stop_when_clean=True,
    )
    return b, mistakes.shape[0], int(mistakes.sum()), bool(mistakes[-1] == 0), mistakes


def averaged(X, y, *, eta, max_iter, order, fit_intercept, rng):
    """AveragedPerceptron's loop: (w, b, u, beta, c, mistakes), as in :mod:`perclib._fast`."""
    w, u = np.zeros(X.shape[1]), np.zeros(X.shape[1])
    b, beta, c, mistakes, _ = _epochs(
        X,
        y,
        w,
        0.0,
        eta=eta,
        max_iter=max_iter,
        order=order,
        rng=rng,
        margin_rule=True,
        fit_intercept=fit_intercept,
        stop_when_clean=False,
        u=u,
    )
    return w, b, u, beta, c, list(mistakes)


def voted(X, y, *, eta, max_iter, order, fit_intercept, rng):
    """VotedPerceptron's loop: (weights, intercepts, counts, w, b, mistakes), as in _fast (arrays
    here, lists there).

    The kernel logs the counter c of each update and its example; :func:`iterates` rebuilds the
    iterates from the log by the same additions, in the same order, and the survival counts are
    the gaps between successive updates' counters.
    """
    n, d = X.shape
    X, y = read_only(X), read_only(y)  # as _epochs passes them: one compiled version of iterates
    w = np.zeros(d)
    b, _, c, mistakes, log = _epochs(
        X,
        y,
        w,
        0.0,
        eta=eta,
        max_iter=max_iter,
        order=order,
        rng=rng,
        margin_rule=True,
        fit_intercept=fit_intercept,
        stop_when_clean=False,
        log=np.empty((max_iter * n, 2), dtype=np.int64),
    )
    # the visits (from 0) and the examples of the updates, each a contiguous array
    t, i = log[:, 0] - 1, np.ascontiguousarray(log[:, 1])
    weights, intercepts = np.empty((i.shape[0] + 1, d)), np.empty(i.shape[0] + 1)
    iterates(X, y, i, eta, fit_intercept, weights, intercepts)
    counts = np.diff(np.concatenate([[0], t, [max_iter * n]]))
    return weights, intercepts, counts, w, b, list(mistakes)


def pocket(X, y, *, eta, max_iter, order, rule, fit_intercept, rng):
    """PocketPerceptron's loop: (w, b, pocket w, pocket b, pocket mistakes, n_iter, n_updates,
    converged, mistakes), as :func:`perclib._fast.pocket`.

    Each update costs one count of the training mistakes: one ``X @ w`` and one pass over its n
    scores, inside the compiled loop (no Python-level work per example).
    """
    if order == "random-mistake":
        return _fast.pocket(
            X,
            y,
            eta=eta,
            max_iter=max_iter,
            order=order,
            rule=rule,
            fit_intercept=fit_intercept,
            rng=rng,
        )
    n, d = X.shape
    X, y = read_only(X), read_only(y)  # as _epochs passes them: one compiled version of each loop
    w, pocket_w = np.zeros(d), np.zeros(d)
    x_norms = np.full(n, -1.0)
    fill_norms(X, x_norms)  # the count of mistakes reads them all
    # stop_at as a float, as binary_epochs passes it: one compiled version of the count, not two
    start = training_mistakes(X, y, w, 0.0, x_norms, x_norms.max(), 0.0, float(n + 1), np.empty(n))
    state = np.array([0.0, float(start), x_norms.max(), 0.0, 0.0, 0.0])
    hard = _NO_HARD
    if n * d * 8 <= _HARD_BYTES:  # room for the rows in hardest-first order (binary_epochs)
        hard = (np.empty((n, d)), np.empty(n), np.empty(n), np.empty(n, dtype=np.int64))
    b, _, _, mistakes, _ = _epochs(
        X,
        y,
        w,
        0.0,
        eta=eta,
        max_iter=max_iter,
        order=order,
        rng=rng,
        margin_rule=rule == "margin",
        fit_intercept=fit_intercept,
        stop_when_clean=True,
        pocket_w=pocket_w,
        pocket=state,
        x_norms=x_norms,
        hard=hard,
    )
    return (
        w,
        b,
        pocket_w,
        float(state[0]),
        int(state[1]),
        mistakes.shape[0],
        int(mistakes.sum()),
        bool(mistakes[-1] == 0),
        mistakes,
    )


def multiclass(X, yi, n_classes, *, eta, max_iter, order, fit_intercept, rng, average):
    """MulticlassPerceptron's loop: (W, b, U, beta, c, mistakes, converged), as in _fast."""
    n, d = X.shape
    W, b = np.zeros((n_classes, d)), np.zeros(n_classes)
    U, beta = (np.zeros((n_classes, d)), np.zeros(n_classes)) if average else (_NONE2, _NONE)
    x_norms = np.full(n, -1.0)  # ||x_i||, computed by the loop on the first visit
    mistakes = np.zeros(max_iter, dtype=np.int64)
    c, run, cyclic = 1, 0, np.arange(n)
    X, t = read_only(X), read_only(np.asarray(yi, dtype=np.int64))
    while run < max_iter:
        visit, epochs = (cyclic, max_iter - run) if order == "cyclic" else (rng.permutation(n), 1)
        c, done, status = multiclass_epochs(
            X, t, x_norms, visit, epochs, W, b, eta, fit_intercept, not average,
            mistakes[run:], c, U, beta,
        )  # fmt: skip
        _raise_overflow(status)
        run += done
        if not average and mistakes[run - 1] == 0:
            break
    if not average:
        U, beta = np.zeros((n_classes, d)), np.zeros(n_classes)
    return W, b, U, beta, c, list(mistakes[:run]), not average and bool(mistakes[run - 1] == 0)


WARM_PARTS = ("binary", "multiclass", "sparse")


def warm(parts=WARM_PARTS):
    """Compile the loops for the types the models pass (or load them from numba's cache).

    numba compiles a loop once for each set of argument types. The loops see every X and y
    read-only (:func:`read_only`), so writable and read-only data share one version; a CSR
    matrix's 32-bit and 64-bit indices are two. The ``parts``:

    - ``"binary"``: the four binary models on a dense array;
    - ``"multiclass"``: the multi-class model on a dense array;
    - ``"sparse"``: the two models that take CSR matrices, with 32-bit and 64-bit indices.

    ``python -m perclib._kernel [PART...]`` runs it; ``make test`` and ``make bench`` do so once
    after installing numba, in two processes at once (``binary``; ``multiclass sparse``), so no
    fit, widget or notebook waits for the compiler. Returns the seconds taken.
    """
    unknown = sorted(set(parts) - set(WARM_PARTS))
    if unknown:
        raise ValueError(f"parts must be among {WARM_PARTS}; got {unknown}.")
    import time
    import warnings

    from . import (
        AveragedPerceptron,
        MulticlassPerceptron,
        Perceptron,
        PocketPerceptron,
        VotedPerceptron,
    )

    start = time.perf_counter()
    X = np.array([[1.0, 2.0], [-1.0, -1.5], [0.5, -2.0], [-0.5, 1.0]])
    y = np.array([1, -1, 1, -1])
    csr32 = sp.csr_matrix(X)
    csr64 = csr32.copy()
    csr64.indptr, csr64.indices = csr64.indptr.astype(np.int64), csr64.indices.astype(np.int64)
    binary = (Perceptron, AveragedPerceptron, VotedPerceptron, PocketPerceptron)
    fits = {
        "binary": [(model, X, y) for model in binary],
        "multiclass": [(MulticlassPerceptron, X, [0, 1, 2, 1])],
        "sparse": [(model, data, y) for data in (csr32, csr64) for model in binary[:2]],
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for part in WARM_PARTS:
            if part in parts:
                for model, data, labels in fits[part]:
                    model(max_iter=2).fit(data, labels)
    return time.perf_counter() - start


if __name__ == "__main__":  # pragma: no cover (run by the Makefile)
    import sys

    parts = tuple(sys.argv[1:]) or WARM_PARTS
    print(f"perclib's compiled loops ({', '.join(parts)}): ready in {warm(parts):.1f} s")
