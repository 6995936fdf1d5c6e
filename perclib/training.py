"""The perceptron family's training loops, written once as the notes' pseudocode (CIML ch. 4).

:func:`train` is CIML's PerceptronTrain, one example at a time, with two hooks: ``on_update``
(called after every update) and ``record`` (one :class:`Step` per visited example). The pocket,
the averaged and the voted perceptron are that loop plus a hook (:func:`pocket`,
:func:`averaged`, :func:`voted`); :class:`perclib.sgd.LinearSGD` and the experiments run it too.
:func:`multiclass` is the multi-class perceptron (Collins 2002; CIML ch. 6). These loops are the
reference: the block scan of :mod:`perclib.block_scan` must give their results bit for bit, and
the tests check that it does.

Exact ties
----------
A mistake is decided by the sign of the activation ``a = w.x + b``. scikit-learn sums ``w.x`` from
left to right, while ``numpy.dot`` may sum in another order. Every order of summation lies within
``gamma_d * sum_j |w_j x_j| <= gamma_d * ||w|| ||x||`` of the exact value (``gamma_d ~ d eps / 2``),
so outside twice that band (:func:`tie_band`) every order has the exact sign. :func:`activation`
uses ``numpy.dot`` and falls back to the left-to-right sum inside the band: the decisions are
scikit-learn's, bit for bit.

At any scale
------------
The bound holds while no partial sum overflows and no product underflows, so the band stays valid
at every finite scale: the norms are computed without overflow or underflow (:func:`row_norms`,
:func:`vector_norm`); where ``||w|| ||x||`` exceeds ``2**1000`` some order may overflow, so the band
is infinite and the left-to-right sum decides; the ``1e-300`` term covers products that underflow;
a band or activation that is NaN also sends the decision to the left-to-right sum
(``not |a| > band``). An update that makes w or b overflow raises a ``ValueError``, as
scikit-learn's does.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

_EPS = 2.0**-52  # np.finfo(np.float64).eps
_TINY = 2.0**-450  # a plain norm below this may have lost digits to underflowing squares
_BIG = 2.0**1000  # ||w|| ||x|| above this: some order of summation may overflow


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


# ---- The tie band --------------------------------------------------------------------------


def _seq_dot(w, x):
    """w.x summed from left to right, as scikit-learn's WeightVector.dot does."""
    s = 0.0
    for wj, xj in zip(w.tolist(), x.tolist()):
        s += wj * xj  # Python floats: inf and nan as in C, no warning
    return s


def row_norms(X, out=None):
    """||x_i|| for each row of a dense X, free of overflow and underflow.

    The plain ``sqrt(sum x_ij**2)`` is kept where it lies in [2**-450, 2**1000]: there no square
    overflowed and the squares that underflowed weigh less than an ulp. The other rows (zero, tiny
    or huge) are computed as ``m * sqrt(sum (x_ij / m)**2)`` with m = max |x_ij|.
    """
    out = np.empty(X.shape[0]) if out is None else out
    np.sqrt(np.einsum("ij,ij->i", X, X, out=out), out=out)
    bad = np.flatnonzero(~((out >= _TINY) & (out <= _BIG)))
    if bad.size:
        rows = X[bad]
        m = np.max(np.abs(rows), axis=1, initial=0.0)  # initial: a row may have no columns
        with np.errstate(over="ignore", invalid="ignore"):  # an inf entry (a w that overflowed)
            scaled = rows / np.where(m > 0, m, 1.0)[:, None]
            out[bad] = m * np.sqrt(np.einsum("ij,ij->i", scaled, scaled))
    return out


def vector_norm(w):
    """||w||, free of overflow and underflow (as :func:`row_norms`)."""
    r = math.sqrt(float(w.dot(w)))  # inf when the sum of squares overflows
    if _TINY <= r <= _BIG:
        return r
    return float(row_norms(w.reshape(1, -1))[0])


def tie_band(w_norm, x_norm, d):
    """The band around 0 outside which every order of summation gives the exact sign of w.x + b.

    4 * d * eps >= 2 * gamma_d with room to spare (gamma_d = d*u/(1-d*u), u = eps/2); infinite
    where ||w|| ||x|| > 2**1000 (a partial sum may overflow in one order and not another) or NaN.
    It grows with ``x_norm``: the band of the longest row covers every row's.
    """
    p = w_norm * x_norm
    if p <= _BIG:
        return 4.0 * d * _EPS * p + 1e-300
    return math.inf


def class_band(w_norm, x_norm, b, d):
    """Four times the most a multi-class score w.x + b can be off in any order of summation.

    Each score lies within ``gamma_(d+1) (||w|| ||x|| + |b|)`` of the exact one; so when the best
    score beats another by more than the sum of the two classes' bands, every order of summation
    ranks the two alike. Infinite past ``2**1000`` or for NaN, as :func:`tie_band`.
    """
    p = w_norm * x_norm
    if p <= _BIG and abs(b) <= _BIG:
        return 2.0 * (d + 1) * _EPS * (p + abs(b)) + 1e-300
    return math.inf


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
        a = X @ w
        a += b
    if a.shape[0] == 0:
        return a
    w_norm, d = vector_norm(w), w.shape[0]
    wide = tie_band(w_norm, float(np.max(x_norms)), d)  # every row's band is within this one
    distance = np.abs(a)
    if distance.min() > wide:  # no row near the widest band (a NaN fails the test)
        return a
    for i in np.flatnonzero(~(distance > wide)).tolist():  # near the widest band, or NaN
        if not abs(a[i]) > tie_band(w_norm, float(x_norms[i]), d):
            j, x = row(X, i)
            a[i] = _seq_dot(w[j], x) + b
    return a


def class_scores(W, b, x, x_norm, w_norms):
    """The multi-class scores W @ x + b and the predicted class: the first of the highest scores
    as summed from left to right.

    numpy's scores decide where the best beats every other by more than the two classes'
    :func:`class_band`, and where W = 0 (every order of summation then gives exactly b); else the
    scores are summed again from left to right.
    """
    K, d = W.shape
    with np.errstate(over="ignore", invalid="ignore"):
        s = W.dot(x) + b
    p = int(s.argmax())
    sf, x_norm = s.tolist(), float(x_norm)  # Python floats: inf - inf is NaN, no warning
    wn, bf = w_norms.tolist(), b.tolist()
    band_p = class_band(wn[p], x_norm, bf[p], d)
    for k in range(K):  # a runner-up within the band, or NaN: sum from left to right
        if k != p and not sf[p] - sf[k] > band_p + class_band(wn[k], x_norm, bf[k], d):
            if not W.any():  # W = 0: the scores are exactly b
                break
            s = np.array([_seq_dot(W[q], x) + b[q] for q in range(K)])
            p = 0
            for q in range(1, K):
                if s[q] > s[p]:
                    p = q
            break
    return s, p


# ---- Decisions and updates -----------------------------------------------------------------


def predict_sign(a):
    """y_hat = +1 if a >= 0 else -1: sign(0) = +1, as in the course."""
    return np.where(np.asarray(a) >= 0, 1.0, -1.0)


#: The score of a tied vote: half a vote for +1 (see :func:`vote`).
TIED_VOTE = 0.5


def vote(a, counts):
    """Freund & Schapire's vote sum_k c_k sign(a_k) for each row of the activations ``a`` (one
    column per iterate), sign(0) = +1 at both levels: a tied vote (0) predicts +1.

    The counts are whole numbers, so every vote is a whole number, and a tie is returned as
    ``TIED_VOTE`` = 0.5, half a vote for +1: the score is then positive exactly where the
    prediction is +1, as scikit-learn reads a binary ``decision_function``."""
    s = predict_sign(a) @ np.asarray(counts, dtype=np.float64)
    return np.where(s == 0, TIED_VOTE, s)


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


def check_finite_update(w, b):
    """Raise a clear ``ValueError`` when an update made w or b overflow
    (scikit-learn raises too)."""
    if not (math.isfinite(b) and np.isfinite(w).all()):
        raise ValueError(
            "Floating-point overflow: an update made the weights or the intercept infinite, so no "
            "finite result exists at this scale. Scale X (for example with "
            "sklearn.preprocessing.StandardScaler) or lower eta."
        )


def update_classes(W, b, U, beta, t, p, x, eta, c, fit_intercept):
    """The multi-class update on a mistake (true class t, predicted p != t), in place:
    w_t += eta x, w_p -= eta x, and CIML's sums U, beta with the counter c."""
    W[t] += eta * x
    W[p] -= eta * x
    U[t] += (eta * c) * x
    U[p] -= (eta * c) * x
    if fit_intercept:
        b[t] += eta
        b[p] -= eta
        beta[t] += eta * c
        beta[p] -= eta * c


def epoch_indices(n, order, rng):
    """The examples an epoch visits, in order: 0..n-1, or a fresh permutation."""
    if order == "shuffle":
        return rng.permutation(n)
    return range(n)


# ---- Dense and CSR rows --------------------------------------------------------------------


def csr(X):
    """A CSR matrix X (as the models' input checks leave it) with sorted, summed indices: a copy
    when X is not already so (X is never changed); a ``ValueError`` when its index arrays are
    malformed (a row pointer that does not start at 0 or decreases, more stored entries than the
    arrays hold, a column index outside [0, n_features)), which the loops do not check again."""
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


def row(X, i):
    """Row i of X as a pair ``(j, x)``: ``w[j]`` is the part of w the row touches.

    All of w for a dense row (``j = slice(None)``), the row's nonzero columns for a row of a CSR
    matrix, so that an update costs O(nonzeros). The results are the dense ones, bit for bit: a
    zero feature adds an exact 0 to the left-to-right sum, the band over the nonzeros bounds the
    rounding of that shorter sum, and an update does the same arithmetic on the same entries.
    """
    if isinstance(X, np.ndarray):
        return slice(None), X[i]
    lo, hi = X.indptr[i], X.indptr[i + 1]
    return X.indices[lo:hi], X.data[lo:hi]


def norms(X):
    """||x_i|| for each row of a dense or CSR X (the tie band's), free of overflow and underflow."""
    if sp.issparse(X):
        with np.errstate(over="ignore"):  # vector_norm's first try may overflow: it then rescales
            return np.array([vector_norm(row(X, i)[1]) for i in range(X.shape[0])])
    return row_norms(X)


# ---- The perceptron ------------------------------------------------------------------------


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
    """CIML's PerceptronTrain from (w, b), w in place; returns
    (b, n_iter, n_updates, converged, mistakes per epoch).

    ``X`` is dense or CSR. ``rule`` is ``"margin"`` or ``"prediction"``, or a function
    ``step(y, a)`` giving the c in ``w += c*x, b += c`` (0: no update), as SGD's losses give it.
    ``record`` is a list to append :class:`Step` records to, or None (dense X only).
    ``on_update(w, b, t, i, c)`` is called after every update, with t the number of examples
    visited before it in this call, i the example and c the step. Training ends after an epoch
    without an update if ``stop_when_clean``. For ``order="random-mistake"`` one iteration is a
    full scan followed by at most one update (dense X only).
    """
    n = X.shape[0]
    x_norms = norms(X)
    step_of = rule if callable(rule) else None
    mistakes = []
    n_updates, converged, epoch = 0, False, 0
    t = 0  # examples visited so far in this call
    with np.errstate(over="ignore", invalid="ignore"):  # huge scales: inf and NaN, decided exactly
        for epoch in range(1, max_iter + 1):
            if order == "random-mistake":
                wrong = np.flatnonzero(is_mistake(y, scores(X, w, b, x_norms), rule))
                if wrong.size == 0:
                    mistakes.append(0)
                    converged = True
                    break
                visit = [int(wrong[rng.integers(wrong.size)])]
            else:
                visit = epoch_indices(n, order, rng)
            updates = 0
            for i in visit:
                (j, x), yi = row(X, i), y[i]
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
                    y_hat = 1.0 if a >= 0 else -1.0
                    step = Step(
                        epoch + epoch_offset,
                        int(i),
                        x.copy(),
                        float(yi),
                        float(a),
                        y_hat,
                        mistake,
                        w.copy(),
                        float(b),
                    )
                    record.append(step)
                t += 1
            mistakes.append(updates)
            n_updates += updates
            if order != "random-mistake" and updates == 0:
                converged = True
                if stop_when_clean:
                    break
    return b, epoch, n_updates, converged, np.array(mistakes, dtype=np.int64)


# ---- The perceptron plus a hook: pocket, averaged, voted -----------------------------------
# Each runs ``loop``, this module's :func:`train` or :func:`perclib.block_scan.train` (which finds
# the same mistakes and calls the same hook alike), with ``options``: eta, max_iter, order,
# fit_intercept and rng, as :func:`train` takes them.


def pocket(X, y, *, rule, loop=train, **options):
    """The pocket algorithm in Learning From Data's form: the perceptron, keeping the weights with
    the fewest training mistakes seen after any update (Gallant's ratchet counts less often).
    Returns (w, b, pocket w, pocket b, pocket mistakes, n_iter, n_updates, converged, mistakes
    per epoch)."""
    x_norms, positive = norms(X), y > 0

    def training_mistakes(w, b):  # predict_sign(a) != y, without the array of signs
        return int(np.count_nonzero((scores(X, w, b, x_norms) >= 0) != positive))

    w = np.zeros(X.shape[1])  # w = 0, b = 0 predicts +1 everywhere: the -1 labels are wrong
    best = {"w": w.copy(), "b": 0.0, "mistakes": int(np.count_nonzero(~positive))}

    def on_update(w, b, t, i, c):
        m = training_mistakes(w, b)
        if m < best["mistakes"]:
            best.update(w=w.copy(), b=float(b), mistakes=m)

    b, *run = loop(X, y, w, 0.0, rule=rule, on_update=on_update, **options)
    return (w, b, best["w"], best["b"], best["mistakes"], *run)


def averaged_start(d):
    """The averaged perceptron's state before any example: w = 0, b = 0 and CIML's u, beta, c."""
    return {"w": np.zeros(d), "b": 0.0, "u": np.zeros(d), "beta": 0.0, "c": 1}


def averaged(X, y, state, *, loop=train, **options):
    """``max_iter`` epochs of CIML's AveragedPerceptronTrain from ``state`` (updated in place; see
    :func:`averaged_start`); returns the updates per epoch. The answer is w - u/c, b - beta/c.

    The loop does lines 5-8 and 12 (visit, decide, update w and b); the hook does lines 9-10 at the
    update on the t-th example visited in this call, where CIML's counter is c = c_start + t.
    """
    c0, u = state["c"], state["u"]

    def on_update(w, b, t, i, step):
        j, x = row(X, i)
        u[j] += (step * (c0 + t)) * x  # u = u + eta y c x
        if options["fit_intercept"]:
            state["beta"] += step * (c0 + t)  # beta = beta + eta y c

    w = state["w"].copy()
    b, *_, mistakes = loop(
        X, y, w, state["b"], rule="margin", on_update=on_update, stop_when_clean=False, **options
    )
    state.update(w=w, b=b, c=c0 + options["max_iter"] * X.shape[0])
    return mistakes


def voted_start(d):
    """The voted perceptron's state before any example: w_1 = 0, b_1 = 0, no survivals yet."""
    return {"weights": [], "intercepts": [], "counts": [], "w": np.zeros(d), "b": 0.0, "c": 0}


def voted(X, y, state, *, loop=train, **options):
    """``max_iter`` epochs of the voted perceptron (Freund & Schapire 1999) from ``state``
    (updated in place; see :func:`voted_start`); returns the updates per epoch.

    Each replaced iterate joins ``state``'s lists with its survival count: the examples visited
    since it was made (since the start for the first one, plus the count it had). The current
    iterate is ``state["w"]``, ``state["b"]``, with the count ``state["c"]`` so far.
    """
    weights, intercepts, counts = state["weights"], state["intercepts"], state["counts"]
    w_last, b_last, t_last = state["w"], state["b"], -state["c"]  # the current iterate, its start

    def on_update(w, b, t, i, step):
        nonlocal w_last, b_last, t_last
        weights.append(w_last)
        intercepts.append(b_last)
        counts.append(t - t_last)
        w_last, b_last, t_last = w.copy(), b, t

    w = state["w"].copy()
    b, *_, mistakes = loop(
        X, y, w, state["b"], rule="margin", on_update=on_update, stop_when_clean=False, **options
    )
    state.update(w=w, b=b, c=options["max_iter"] * X.shape[0] - t_last)
    return mistakes


# ---- The multi-class perceptron ------------------------------------------------------------


def multiclass_start(n_classes, d):
    """The multi-class perceptron's state before any example: W, b, CIML's sums U, beta, c = 1."""
    return {
        "W": np.zeros((n_classes, d)),
        "b": np.zeros(n_classes),
        "U": np.zeros((n_classes, d)),
        "beta": np.zeros(n_classes),
        "c": 1,
    }


def multiclass(
    X, yi, state, *, eta, max_iter, order, fit_intercept, rng, stop_when_clean, history=None
):
    """Up to ``max_iter`` epochs of the multi-class perceptron from ``state`` (updated in place;
    see :func:`multiclass_start`); returns (mistakes per epoch, converged). The averaged answer is
    W - U/c, b - beta/c. ``history``: a list to append a :class:`MultiStep` to for each visited
    example, or None."""
    with np.errstate(over="ignore", invalid="ignore"):  # huge scales: inf and NaN, decided exactly
        W, b, U, beta = state["W"], state["b"], state["U"], state["beta"]
        epoch0 = history[-1].epoch if history else 0
        mistakes, converged = [], False
        x_norms = row_norms(X)
        for epoch in range(epoch0 + 1, epoch0 + max_iter + 1):
            updates = 0
            for i in epoch_indices(X.shape[0], order, rng):
                x, t, c = X[i], int(yi[i]), state["c"]
                s, p = class_scores(W, b, x, x_norms[i], row_norms(W))
                if p != t:
                    update_classes(W, b, U, beta, t, p, x, eta, c, fit_intercept)
                    check_finite_update(W[t], b[t])
                    check_finite_update(W[p], b[p])
                    updates += 1
                state["c"] = c + 1
                if history is not None:
                    step = MultiStep(epoch, int(i), x.copy(), t, s, p, p != t, W.copy(), b.copy())
                    history.append(step)
            mistakes.append(updates)
            if updates == 0 and stop_when_clean:
                converged = True
                break
    return np.array(mistakes, dtype=np.int64), converged
