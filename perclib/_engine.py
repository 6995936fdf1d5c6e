"""The reference per-sample perceptron loop, shared by Perceptron and PocketPerceptron.

It mirrors the pseudocode of the notes (CIML's PerceptronTrain) line by line. It is the reference:
any faster path must give the same results, and tests check that it does.

Exact ties
----------
A mistake is decided by the sign of the activation ``a = w.x + b``. scikit-learn sums ``w.x`` from
left to right (``sgd_fast``), while ``numpy.dot`` may sum in another order. The two differ only
when ``|a|`` is within rounding error of zero, so :func:`activation` uses the fast ``numpy.dot``
and falls back to the left-to-right sum in exactly those cases. Every order of summation lies within
``gamma_d * sum_j |w_j x_j| <= gamma_d * ||w|| ||x||`` of the exact value
(``gamma_d ~ d * eps / 2``), so outside twice that band both orders give the same sign. This keeps
perclib bit-identical to scikit-learn without giving up ``numpy.dot``.

At any scale
------------
The bound holds only while no partial sum overflows and no product underflows, so the band is
computed to stay valid at every finite scale: the norms are computed without overflow or underflow
(:func:`row_norms` and :func:`vector_norm` rescale a row by its largest entry when its plain sum of
squares is out of range, as ``np.hypot`` does); where ``||w|| ||x||`` exceeds ``2**1000`` some order
of summation may overflow, so the band is infinite and the left-to-right sum always decides; the
``1e-300`` term covers the absolute error of products that underflow; and a band or an activation
that is NaN also sends the decision to the left-to-right sum (``not |a| > band``). An update that
makes w or b overflow raises a ``ValueError``, as scikit-learn's does.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

_EPS = 2.0**-52  # np.finfo(np.float64).eps, as a float (numba compiles it as a constant)


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


@dataclass(frozen=True)
class MultiStep:
    """One visited example of a recorded multi-class fit (``record=True``)."""

    epoch: int
    index: int
    x: np.ndarray
    y: int  # index of the true class in classes_
    scores: np.ndarray
    y_hat: int  # index of the predicted class (first argmax)
    updated: bool
    W: np.ndarray  # weights after the step, shape (n_classes, n_features)
    b: np.ndarray  # biases after the step, shape (n_classes,)


def _seq_dot(w, x):
    """w.x summed from left to right, as scikit-learn's WeightVector.dot does."""
    s = 0.0
    for wj, xj in zip(w.tolist(), x.tolist()):
        s += wj * xj  # Python floats: inf and nan as in C, no warning
    return s


_TINY = 2.0**-450  # a plain norm below this may have lost digits to underflowing squares
_BIG = 2.0**1000  # ||w|| ||x|| above this: some order of summation may overflow


def row_norms(X, out=None):
    """||x_i|| for each row of X, free of overflow and underflow.

    The plain ``sqrt(sum x_ij**2)`` (fast, one pass) is kept where it lies in [2**-450, 2**1000]:
    there no square overflowed and the squares that underflowed weigh less than an ulp. The other
    rows (zero, tiny or huge) are computed as ``m * sqrt(sum (x_ij / m)**2)`` with m = max |x_ij|.
    """
    out = np.empty(X.shape[0]) if out is None else out
    np.sqrt(np.einsum("ij,ij->i", X, X, out=out), out=out)
    bad = np.flatnonzero(~((out >= _TINY) & (out <= _BIG)))
    if bad.size:
        rows = X[bad]
        m = np.max(
            np.abs(rows), axis=1, initial=0.0
        )  # initial: a row may have no columns (a sparse row's w[j])
        with np.errstate(
            over="ignore", invalid="ignore"
        ):  # an inf entry (only in a w that overflowed)
            scaled = rows / np.where(m > 0, m, 1.0)[:, None]
            out[bad] = m * np.sqrt(np.einsum("ij,ij->i", scaled, scaled))
    return out


def vector_norm(w):
    """||w||, free of overflow and underflow (as :func:`row_norms`).

    Called once per update, so it sets no ``np.errstate`` itself: the training loops run under one.
    """
    r = math.sqrt(float(np.dot(w, w)))  # inf when the sum of squares overflows
    if _TINY <= r <= _BIG:
        return r
    return float(row_norms(w.reshape(1, -1))[0])


def tie_band(w_norm, x_norm, d):
    """The band around 0 outside which every order of summation gives the exact sign of w.x + b.

    4 * d * eps >= 2 * gamma_d with room to spare (gamma_d = d*u/(1-d*u), u = eps/2); infinite
    where ||w|| ||x|| > 2**1000, since a partial sum may then overflow in one order and not another
    (and where it is NaN). Written once, for floats: :mod:`perclib._kernel` compiles this very
    function, and the numpy loops call it per row. It grows with ``x_norm``, so the band of the
    longest row is at least every row's (the block scans use that).
    """
    p = w_norm * x_norm
    if p <= _BIG:
        return 4.0 * d * _EPS * p + 1e-300
    return math.inf


def class_band(w_norm, x_norm, b, d):
    """Four times the most a multi-class score w.x + b can be off in any order of summation.

    Each score lies within ``gamma_(d+1) (||w|| ||x|| + |b|)`` of the exact one (``gamma_(d+1) ~
    (d + 1) eps / 2``); so when the best score beats another by more than the sum of the two
    classes' bands, every order of summation ranks the two alike. Infinite past ``2**1000`` or
    for NaN, as :func:`tie_band`; compiled by :mod:`perclib._kernel` too.
    """
    p = w_norm * x_norm
    if p <= _BIG and abs(b) <= _BIG:
        return 2.0 * (d + 1) * _EPS * (p + abs(b)) + 1e-300
    return math.inf


def class_scores(W, b, x, x_norm, w_norms):
    """The multi-class scores W @ x + b and the predicted class: the first of the highest scores
    as summed from left to right (the rule of :mod:`perclib._kernel`).

    ``numpy``'s scores decide where the best beats every other by more than the two classes'
    :func:`class_band`; else the scores are summed again from left to right.
    """
    K, d = W.shape
    with np.errstate(over="ignore", invalid="ignore"):
        s = W @ x + b
    p = int(np.argmax(s))
    sf, x_norm = s.tolist(), float(x_norm)  # Python floats: inf - inf is NaN, no warning
    band_p = class_band(float(w_norms[p]), x_norm, float(b[p]), d)
    for k in range(K):  # a runner-up within the band, or NaN: sum from left to right
        if k != p and not sf[p] - sf[k] > band_p + class_band(
            float(w_norms[k]), x_norm, float(b[k]), d
        ):
            s = np.array([_seq_dot(W[q], x) + b[q] for q in range(K)])
            p = 0
            for q in range(1, K):
                if s[q] > s[p]:
                    p = q
            break
    return s, p


def update_classes(W, b, U, beta, t, p, x, eta, c, fit_intercept):
    """The multi-class perceptron's update on a mistake (true class t, predicted p != t), in place:
    w_t += eta x, w_p -= eta x, and CIML's sums U, beta with the counter c (Collins 2002; CIML
    ch. 6). The numpy loops, reference and block scan, both make it; the compiled loop makes the
    same operations in :mod:`perclib._kernel`."""
    W[t] += eta * x
    W[p] -= eta * x
    U[t] += (eta * c) * x
    U[p] -= (eta * c) * x
    if fit_intercept:
        b[t] += eta
        b[p] -= eta
        beta[t] += eta * c
        beta[p] -= eta * c


def check_finite_update(w, b):
    """Raise a clear ``ValueError`` when an update made w or b overflow
    (scikit-learn raises too)."""
    if not (math.isfinite(b) and np.isfinite(w).all()):
        raise ValueError(
            "Floating-point overflow: an update made the weights or the intercept infinite, so no "
            "finite result exists at this scale. Scale X (for example with "
            "sklearn.preprocessing.StandardScaler) or lower eta."
        )


def activation(w, b, x, x_norm=None):
    """a = w.x + b, with the sign that scikit-learn's left-to-right sum gives."""
    a = float(np.dot(w, x)) + b
    if x_norm is None:
        x_norm = vector_norm(x)
    if not abs(a) > tie_band(vector_norm(w), float(x_norm), w.shape[0]):  # near a tie, or NaN
        a = _seq_dot(w, x) + b
    return a


def scores(X, w, b, x_norms):
    """All activations X @ w + b at once, with near-ties settled as :func:`activation` does."""
    with np.errstate(over="ignore", invalid="ignore"):
        a = X @ w + b
    if a.shape[0] == 0:
        return a
    w_norm, d = vector_norm(w), w.shape[0]
    wide = tie_band(w_norm, float(np.max(x_norms)), d)  # every row's band is within this one
    for i in np.flatnonzero(~(np.abs(a) > wide)).tolist():  # near the widest band, or NaN
        if not abs(a[i]) > tie_band(w_norm, float(x_norms[i]), d):
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


def csr(X):
    """A CSR matrix X (as the models' input checks leave it) with sorted, summed indices: a copy
    when X is not already so (X is never changed); a ``ValueError`` when its index arrays are
    malformed (a row pointer that does not start at 0 or decreases, more stored entries than the
    arrays hold, a column index outside [0, n_features)), which the training loops do not check
    again."""
    ptr, ind = X.indptr, X.indices
    if (
        ptr.shape != (X.shape[0] + 1,)
        or ptr[0] != 0
        or np.any(ptr[1:] < ptr[:-1])
        or ptr[-1] > min(ind.size, X.data.size)
        or np.any(ind[: ptr[-1]] < 0)
        or np.any(ind[: ptr[-1]] >= X.shape[1])
    ):
        raise ValueError(
            "X is a malformed CSR matrix: its row pointers must rise from 0 to the number of "
            f"stored entries and its column indices lie in [0, {X.shape[1]}). Rebuild it with "
            "scipy.sparse.csr_matrix((data, indices, indptr), shape=...) from valid arrays."
        )
    if not X.has_canonical_format:
        X = X.copy()
        X.sum_duplicates()  # also sorts the indices
    return X


def rows(X):
    """The rows of X as ``(j, x)`` pairs, and their Euclidean norms (for the tie band).

    ``w[j]`` is the part of ``w`` a row touches: all of it for a dense row (``j = slice(None)``, a
    view), the row's nonzero columns for a row of a CSR matrix, so that an update costs
    O(nonzeros), not O(n_features). The decisions and the weights are the dense ones, bit for bit:
    a zero feature adds an exact 0 to the left-to-right sum, the tie band over the nonzeros bounds
    the rounding of that shorter sum, and an update does the same arithmetic on the same entries.
    """
    if sp.issparse(X):
        ptr, ind, val = X.indptr, X.indices, X.data
        pairs = [(ind[ptr[i] : ptr[i + 1]], val[ptr[i] : ptr[i + 1]]) for i in range(X.shape[0])]
        return pairs, np.array([vector_norm(x) for _, x in pairs])
    return [(slice(None), X[i]) for i in range(X.shape[0])], row_norms(X)


def row(X, i):
    """Row i of X as a ``(j, x)`` pair (see :func:`rows`)."""
    if sp.issparse(X):
        lo, hi = X.indptr[i], X.indptr[i + 1]
        return X.indices[lo:hi], X.data[lo:hi]
    return slice(None), X[i]


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
    """Run the perceptron from (w, b) in place; return (b, n_iter, n_updates, converged, mistakes).

    This is the one reference loop of the binary models: the plain perceptron, and through its two
    hooks the pocket, the averaged and the voted perceptron (:mod:`perclib._reference`), SGD
    (:class:`perclib.LinearSGD`) and the experiments of :mod:`perclib.evaluation`.

    ``X`` is dense or CSR (a sparse row touches only its nonzeros). ``w`` is updated in place (the
    caller passes its own copy). ``rule`` is ``"margin"`` or ``"prediction"``, or a function
    ``step(y, a)`` giving the c in ``w += c*x, b += c`` (0: no update), as SGD's losses give it.
    ``record`` is a list to append :class:`Step` records to, or None. ``on_update(w, b, t, i, c)``
    is called after every update, with t the number of examples visited before it in this call,
    i the example and c the step. Training ends after an epoch without an update if
    ``stop_when_clean``.
    For ``order="random-mistake"`` one iteration is a full scan followed by at most one update.
    """
    with np.errstate(over="ignore", invalid="ignore"):  # huge scales: inf and NaN, decided exactly
        return _train(
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
            record=record,
            on_update=on_update,
            epoch_offset=epoch_offset,
            stop_when_clean=stop_when_clean,
        )


def _train(
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
    record,
    on_update,
    epoch_offset,
    stop_when_clean,
):
    n = X.shape[0]
    pairs, x_norms = rows(X)
    step_of = rule if callable(rule) else None
    mistakes = []
    n_updates = 0
    converged = False
    epoch = 0
    t = 0  # examples visited so far in this call
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
            (j, x), yi = pairs[i], y[i]
            a = activation(w[j], b, x, x_norms[i])
            if step_of is None:
                mistake = bool(is_mistake(yi, a, rule))
                c = step_size(yi, a, eta, rule) if mistake else 0.0
            else:
                c = step_of(yi, a)
                mistake = c != 0.0
            if mistake:
                w[j] += c * x  # an overflow raises just below
                if fit_intercept:
                    b += c
                check_finite_update(w[j], b)  # only w[j] changed
                updates += 1
                if on_update is not None:
                    on_update(w, b, t, int(i), c)
            if record is not None:
                record.append(
                    Step(
                        epoch + epoch_offset,
                        int(i),
                        x.copy(),
                        float(yi),
                        float(a),
                        1.0 if a >= 0 else -1.0,
                        mistake,
                        w.copy(),
                        float(b),
                    )
                )
            t += 1
        mistakes.append(updates)
        n_updates += updates
        if order != "random-mistake" and updates == 0:
            converged = True
            if stop_when_clean:
                break
    return b, epoch, n_updates, converged, np.array(mistakes, dtype=np.int64)
