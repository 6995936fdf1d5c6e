"""The reference loops: the plain per-example loops that mirror the notes' pseudocode.

Each function has the signature and the results of its namesake in :mod:`perclib._kernel` (the
compiled loops) and :mod:`perclib._fast` (the numpy loops), so that a model asks
:func:`perclib._accel.engine` for the three in one way; ``engine(reference=True)`` gives these.
The tests set a model's private ``_reference`` flag to run them and compare: the fast paths must
reproduce them bit for bit. ``partial_fit`` runs them too (one epoch from the current state).
"""

from __future__ import annotations

import numpy as np

from ._engine import (
    MultiStep,
    class_scores,
    epoch_indices,
    predict_sign,
    row,
    row_norms,
    scores,
    update_classes,
)
from ._engine import train as _train


def train(
    X, y, w, b, *, eta, max_iter, order, rule, fit_intercept, rng, on_update=None,
    stop_when_clean=True,
):  # fmt: skip
    """The perceptron from (w, b), w in place: (b, n_iter, n_updates, converged, mistakes).

    :func:`perclib._engine.train`, the reference loop, on dense or CSR rows."""
    return _train(
        X, y, w, b, eta=eta, max_iter=max_iter, order=order, rule=rule,
        fit_intercept=fit_intercept, rng=rng, on_update=on_update, stop_when_clean=stop_when_clean,
    )  # fmt: skip


def averaged_start(d):
    """The averaged perceptron's state before any example: w = 0, b = 0 and CIML's u, beta, c."""
    return {"w": np.zeros(d), "b": 0.0, "u": np.zeros(d), "beta": 0.0, "c": 1}


def averaged_with(loop, X, y, state, *, eta, max_iter, order, fit_intercept, rng):
    """``max_iter`` epochs of CIML's AveragedPerceptronTrain from ``state`` (updated in place), on
    the perceptron ``loop`` (a ``train`` that calls ``on_update``); returns the updates per epoch.

    The loop does lines 5-8 and 12 (visit, decide, update w and b); the hook does lines 9-10 at the
    update on the t-th example visited in this call, where CIML's counter is c = c_start + t.
    """
    c0, u = state["c"], state["u"]

    def on_update(w, b, t, i, step):
        j, x = row(X, i)
        u[j] += (step * (c0 + t)) * x  # u = u + eta y c x
        if fit_intercept:
            state["beta"] += step * (c0 + t)  # beta = beta + eta y c

    w = state["w"].copy()
    b, _, _, _, mistakes = loop(
        X, y, w, state["b"], eta=eta, max_iter=max_iter, order=order, rule="margin",
        fit_intercept=fit_intercept, rng=rng, on_update=on_update, stop_when_clean=False,
    )  # fmt: skip
    state.update(w=w, b=b, c=c0 + max_iter * X.shape[0])
    return mistakes


def averaged(X, y, *, eta, max_iter, order, fit_intercept, rng, loop=train):
    """CIML's AveragedPerceptronTrain from zero: (w, b, u, beta, c, mistakes)."""
    state = averaged_start(X.shape[1])
    mistakes = averaged_with(
        loop, X, y, state, eta=eta, max_iter=max_iter, order=order, fit_intercept=fit_intercept,
        rng=rng,
    )  # fmt: skip
    return state["w"], state["b"], state["u"], state["beta"], state["c"], list(mistakes)


def voted_start(d):
    """The voted perceptron's state before any example: w_1 = 0, b_1 = 0, no survivals yet."""
    return {"weights": [], "intercepts": [], "counts": [], "w": np.zeros(d), "b": 0.0, "c": 0}


def voted_with(loop, X, y, state, *, eta, max_iter, order, fit_intercept, rng):
    """``max_iter`` epochs of the voted perceptron from ``state`` (updated in place), on the
    perceptron ``loop``; returns the updates per epoch. Each replaced iterate joins ``state``'s
    lists with its survival count: the examples visited since it was made (since the start for
    the first one, plus the count it had)."""
    last = {"w": state["w"], "b": state["b"], "t": -state["c"]}  # the current iterate, its start

    def on_update(w, b, t, i, step):
        state["weights"].append(last["w"])
        state["intercepts"].append(last["b"])
        state["counts"].append(t - last["t"])
        last.update(w=w.copy(), b=b, t=t)

    w = state["w"].copy()
    b, _, _, _, mistakes = loop(
        X, y, w, state["b"], eta=eta, max_iter=max_iter, order=order, rule="margin",
        fit_intercept=fit_intercept, rng=rng, on_update=on_update, stop_when_clean=False,
    )  # fmt: skip
    state.update(w=w, b=b, c=max_iter * X.shape[0] - last["t"])
    return mistakes


def voted_epochs(X, y, state, **kw):
    """:func:`voted_with` on the reference loop."""
    return voted_with(train, X, y, state, **kw)


def voted(X, y, *, eta, max_iter, order, fit_intercept, rng, loop=train):
    """The voted perceptron: (weights, intercepts, counts, w, b, mistakes), the last iterate w
    included in the lists."""
    state = voted_start(X.shape[1])
    mistakes = voted_with(
        loop, X, y, state, eta=eta, max_iter=max_iter, order=order, fit_intercept=fit_intercept,
        rng=rng,
    )  # fmt: skip
    return (
        state["weights"] + [state["w"]],
        state["intercepts"] + [state["b"]],
        state["counts"] + [state["c"]],
        state["w"],
        state["b"],
        list(mistakes),
    )


def pocket_with(loop, X, y, *, eta, max_iter, order, rule, fit_intercept, rng):
    """The pocket algorithm on the perceptron ``loop`` (a ``train`` that calls ``on_update``):
    (w, b, pocket w, pocket b, pocket mistakes, n_iter, n_updates, converged, mistakes)."""
    x_norms = row_norms(X)

    def training_mistakes(w, b):
        return int(np.count_nonzero(predict_sign(scores(X, w, b, x_norms)) != y))

    w = np.zeros(X.shape[1])
    best = {"w": w.copy(), "b": 0.0, "mistakes": training_mistakes(w, 0.0)}

    def on_update(w, b, t, i, step):
        m = training_mistakes(w, b)
        if m < best["mistakes"]:
            best.update(w=w.copy(), b=float(b), mistakes=m)

    b, n_iter, n_updates, converged, mistakes = loop(
        X, y, w, 0.0, eta=eta, max_iter=max_iter, order=order, rule=rule,
        fit_intercept=fit_intercept, rng=rng, on_update=on_update,
    )  # fmt: skip
    return (w, b, best["w"], best["b"], best["mistakes"], n_iter, n_updates, converged, mistakes)


def pocket(X, y, **kw):
    """The pocket algorithm on the reference perceptron loop (:func:`pocket_with`)."""
    return pocket_with(train, X, y, **kw)


def multiclass_start(n_classes, d):
    """The multi-class perceptron's state before any example: W, b, CIML's sums U, beta, c = 1."""
    return {
        "W": np.zeros((n_classes, d)),
        "b": np.zeros(n_classes),
        "U": np.zeros((n_classes, d)),
        "beta": np.zeros(n_classes),
        "c": 1,
    }


def multiclass_epochs(
    X, yi, state, *, eta, max_iter, order, fit_intercept, rng, stop_when_clean, history=None
):
    """Up to ``max_iter`` epochs of the multi-class perceptron from ``state`` (updated in place);
    returns (mistakes per epoch, converged). ``history``: a list to append a
    :class:`perclib.multiclass.MultiStep` to for each visited example, or None."""
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
                updates += 1
            state["c"] = c + 1
            if history is not None:
                history.append(
                    MultiStep(epoch, int(i), x.copy(), t, s, p, p != t, W.copy(), b.copy())
                )
        mistakes.append(updates)
        if updates == 0 and stop_when_clean:
            converged = True
            break
    return np.array(mistakes, dtype=np.int64), converged


def multiclass(X, yi, n_classes, *, eta, max_iter, order, fit_intercept, rng, average):
    """The multi-class perceptron from zero: (W, b, U, beta, c, mistakes, converged)."""
    state = multiclass_start(n_classes, X.shape[1])
    mistakes, converged = multiclass_epochs(
        X, yi, state, eta=eta, max_iter=max_iter, order=order, fit_intercept=fit_intercept,
        rng=rng, stop_when_clean=not average,
    )  # fmt: skip
    if not average:  # CIML's sums are returned only when averaging, as _kernel's loop does
        state["U"], state["beta"] = np.zeros_like(state["U"]), np.zeros_like(state["beta"])
    return (
        state["W"], state["b"], state["U"], state["beta"], state["c"], list(mistakes), converged
    )  # fmt: skip
