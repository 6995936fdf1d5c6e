"""The kernel perceptron: the perceptron in dual form (CIML ch. 11, KernelizedPerceptronTrain),
with Freund & Schapire's (1999) kernel averaged and voted predictions.

The perceptron's w is always a sum of the examples it erred on, w = sum_i alpha_i y_i phi(x_i),
so the model keeps one coefficient per example it erred on and needs the data only through a
kernel K(x_i, x) = phi(x_i).phi(x); it never forms w.

:func:`train` is the training loop, written once; the averaged and the voted perceptron are the
loop plus a hook (:func:`averaged_hook`, :func:`voted_hook`), as in :mod:`perclib.training`, whose
rules, ties and orders it shares.
"""

from __future__ import annotations

import math
import warnings
from numbers import Real
from typing import ClassVar

import numpy as np
from sklearn.metrics.pairwise import linear_kernel, polynomial_kernel, rbf_kernel

from . import _validation as V
from ._base import AT_LEAST_ONE, ORDER_AND_RULE, POSITIVE, BaseModel, OnlineMixin
from .training import epoch_indices, is_mistake, predict_sign, step_size, vote

KERNELS = ("linear", "poly", "rbf", "precomputed")


# ---- The loop ------------------------------------------------------------------------------


def train(
    gram,
    y,
    alpha_y,
    b,
    *,
    start,
    eta,
    max_iter,
    order,
    rule,
    fit_intercept,
    rng,
    on_update=None,
    stop_when_clean=True,
):
    """CIML's KernelizedPerceptronTrain from (alpha_y, b), alpha_y in place; returns
    (b, n_iter, n_updates, converged, mistakes per epoch).

    The examples are rows ``start, start+1, ...`` of the data; the rows before them are the
    support vectors of earlier calls (``partial_fit``), which take part in the activations but are
    not visited. ``y`` holds the visited examples' labels (+1/-1), ``alpha_y`` the dual
    coefficients alpha_i y_i of all rows. ``gram(i, s)`` gives K(x_i, x_j) for the rows j in the
    index array s (i a row, or a slice of rows). ``rule``, ``order``, the ties and the stopping are
    :func:`perclib.training.train`'s; ``on_update(alpha_y, b, t, i, c)`` is called after every
    update, with t the number of examples visited before it in this call, i the row and c the step.
    """
    n = y.shape[0]
    mistakes = []
    n_updates, converged = 0, False
    t = 0  # examples visited so far in this call
    for _ in range(max_iter):
        if order == "random-mistake":
            s = np.flatnonzero(alpha_y)
            a = _finite(gram(slice(start, start + n), s) @ alpha_y[s] + b)
            wrong = np.flatnonzero(is_mistake(y, a, rule))
            if wrong.size == 0:
                mistakes.append(0)
                converged = True
                break
            visit = [int(wrong[rng.integers(wrong.size)])]
        else:
            visit = epoch_indices(n, order, rng)
        updates = 0
        for k in visit:
            i, yi = start + int(k), y[k]
            s = np.flatnonzero(alpha_y)  # the support so far
            a = _finite(float(gram(i, s) @ alpha_y[s]) + b)
            if is_mistake(yi, a, rule):
                c = step_size(yi, a, eta, rule)
                alpha_y[i] += c
                if fit_intercept:
                    b += c
                updates += 1
                if on_update is not None:
                    on_update(alpha_y, b, t, i, c)
            t += 1
        mistakes.append(updates)
        n_updates += updates
        if order != "random-mistake" and updates == 0:
            converged = True
            if stop_when_clean:
                break
    return b, len(mistakes), n_updates, converged, np.array(mistakes, dtype=np.int64)


def _finite(a):
    """The activation(s) a, or a ``ValueError`` when they overflowed."""
    if not np.all(np.isfinite(a)):
        raise ValueError(
            "Floating-point overflow: an activation sum_j alpha_j y_j K(x_j, x) + b is not "
            "finite, so no finite result exists at this scale. Scale X (for example with "
            "sklearn.preprocessing.StandardScaler), lower gamma or degree, or lower eta."
        )
    return a


def averaged_hook(state, c0):
    """CIML's averaged perceptron in dual form: on the update of row i with step c, at CIML's
    counter c0 + t, u_y[i] += c * (c0 + t) and beta += c * (c0 + t). The average of the iterates
    is then alpha_y - u_y / c, b - beta / c (c: the counter after the last example)."""

    def on_update(alpha_y, b, t, i, c):
        state["u_y"][i] += c * (c0 + t)
        if state["fit_intercept"]:
            state["beta"] += c * (c0 + t)

    return on_update


def record_hook(state):
    """Keep each update's row and step, in order (the voted prediction needs them)."""

    def on_update(alpha_y, b, t, i, c):
        state["rows"].append(i)
        state["steps"].append(c)

    return on_update


def voted_hook(state):
    """The voted perceptron in dual form: at each update, the replaced iterate's intercept and
    survival count join ``state``'s lists. Iterate k is the first k - 1 updates (kept by
    :func:`record_hook`); the current one has survived ``state["survived"]`` examples so far."""
    last = {"b": state["b"], "t": -state["survived"]}

    def on_update(alpha_y, b, t, i, c):
        state["intercepts"].append(last["b"])
        state["counts"].append(t - last["t"])
        last.update(b=b, t=t)

    return on_update, last


# ---- The model -----------------------------------------------------------------------------


class KernelPerceptron(OnlineMixin, BaseModel):
    """The kernel perceptron: the perceptron in dual form, its weights kept as one coefficient per
    example it erred on.

    Training is :class:`Perceptron`'s, with w = sum_i alpha_i y_i phi(x_i) kept as its
    coefficients: the same rules, orders, ties and stopping. With the linear kernel it makes the
    same mistakes as :class:`Perceptron` wherever no activation lies within rounding of 0.

    Parameters
    ----------
    kernel : {"linear", "poly", "rbf", "precomputed"} or callable, default="rbf"
        As in ``sklearn.svm.SVC``: "linear" is x.z, "poly" is (gamma x.z + coef0)**degree, "rbf"
        is exp(-gamma ||x - z||**2). A callable K(X, Z) returns the (n, m) matrix of
        K(X[i], Z[j]). With "precomputed", ``fit`` takes the square Gram matrix K(X, X) and
        ``predict`` K(X_test, X) (one column per training example).
    degree : int, default=3
        The degree of "poly", >= 1.
    gamma : {"scale", "auto"} or float, default="scale"
        The scale of "poly" and "rbf", > 0. "scale" is 1 / (n_features * X.var()) (1 when X.var()
        is 0), "auto" is 1 / n_features, both from the X of ``fit`` (of the first ``partial_fit``).
    coef0 : float, default=0.0
        The constant of "poly".
    eta : float, default=1.0
        The learning rate, > 0. It scales the dual coefficients and b alike, so it changes no
        mistake.
    max_iter : int, default=100
        The most epochs, as in :class:`Perceptron`. With ``average`` or ``vote`` every epoch is
        run, as in :class:`AveragedPerceptron` and :class:`VotedPerceptron`.
    order : {"cyclic", "shuffle", "random-mistake"}, default="cyclic"
        As in :class:`Perceptron` ("random-mistake" not with ``average`` or ``vote``).
    rule : {"margin", "prediction"}, default="margin"
        As in :class:`Perceptron`.
    fit_intercept : bool, default=True
        Learn the bias b.
    average : bool, default=False
        Predict with the average of all iterates (CIML's averaged perceptron, in dual form).
    vote : bool, default=False
        Predict with Freund & Schapire's vote of all iterates, each weighted by its survival count
        (sign(0) = +1 at both levels, as :class:`VotedPerceptron`: a tied vote predicts
        ``classes_[1]`` and its ``decision_function`` is 0.5, half a vote for +1).
    cache_size : float, default=200
        The memory, in MB, for the Gram matrix during training (as ``SVC``'s).
    random_state : None, int or numpy.random.Generator, default=None
        Seeds the "shuffle" and "random-mistake" orders.

    Attributes
    ----------
    dual_coef_ : ndarray of shape (n_support,)
        alpha_i y_i for each support vector, where alpha_i is eta times the number of mistakes made
        on example i (twice that under the prediction rule, whose step is 2*eta), in the order of
        ``support_``. 1-D, as perclib's ``coef_`` (SVC's is (1, n_support)). With
        ``average=True``: the averaged coefficients.
    support_ : ndarray of shape (n_support,)
        The indices, in X, of the examples with alpha_i > 0 (with ``partial_fit``: indices in all
        the examples seen, in order), ascending.
    support_vectors_ : ndarray of shape (n_support, n_features)
        Those examples (shape (0, 0) with "precomputed", as in SVC).
    intercept_ : float
        The bias b (averaged with ``average=True``).
    last_dual_coef_, last_intercept_ : the last iterate (what ``average=False`` returns).
    update_indices_ : ndarray of shape (n_updates_,)
        The example of each update, in order (indices as ``support_``).
    counts_ : ndarray of shape (n_updates_ + 1,)
        Only with ``vote=True``: the survival count of each iterate, as
        :class:`VotedPerceptron`'s; ``intercepts_`` holds the iterates' biases.
    classes_, n_features_in_, n_iter_, n_updates_, converged_, mistakes_ : as in
        :class:`Perceptron`.

    Notes
    -----
    Memory and time: training keeps the n x n Gram matrix (8 n**2 bytes, built once at the start
    of ``fit`` in O(n**2 * d) time) when it fits in ``cache_size`` (n <= 5000 for the default
    200 MB); otherwise each visit computes the kernel
    of the example with the current support vectors only, O(n_support * d). A visit then costs
    O(n_support) with the cache and O(n_support * d) without. The model keeps the support vectors,
    O(n_support * d) memory, and a prediction costs O(n_support * d) per point
    (O(n_support * d + n_updates) with ``vote=True``: one term per update). The cost grows with
    the mistakes: a linear kernel is better served by :class:`Perceptron`, O(d) per point.

    ``partial_fit(X, y, classes=None)`` runs one epoch over the new examples from the current
    coefficients (not with "precomputed": a new batch has no kernel with the earlier ones).

    Examples
    --------
    >>> from perclib import KernelPerceptron
    >>> from perclib.datasets import make_xor
    >>> X, y = make_xor()
    >>> clf = KernelPerceptron(kernel="poly", degree=2, coef0=1).fit(X, y)
    >>> clf.converged_, clf.score(X, y)
    (True, 1.0)
    >>> clf.support_.tolist() == sorted(set(clf.update_indices_.tolist()))
    True
    """

    def __init__(
        self,
        *,
        kernel="rbf",
        degree=3,
        gamma="scale",
        coef0=0.0,
        eta=1.0,
        max_iter=100,
        order="cyclic",
        rule="margin",
        fit_intercept=True,
        average=False,
        vote=False,
        cache_size=200,
        random_state=None,
    ):
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.eta = eta
        self.max_iter = max_iter
        self.order = order
        self.rule = rule
        self.fit_intercept = fit_intercept
        self.average = average
        self.vote = vote
        self.cache_size = cache_size
        self.random_state = random_state

    _params: ClassVar[dict] = {
        **BaseModel._params,
        **ORDER_AND_RULE,
        "kernel": [V.options(*KERNELS), (callable, "a callable K(X, Z)")],
        "degree": [AT_LEAST_ONE],
        "gamma": [V.options("scale", "auto"), POSITIVE],
        "coef0": [V.interval(Real, -math.inf, closed="neither")],
        "average": [V.BOOLEAN],
        "vote": [V.BOOLEAN],
        "cache_size": [V.interval(Real, 0)],
    }

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.pairwise = self.kernel == "precomputed"
        return tags

    # -- training -------------------------------------------------------------------------------

    def _fit(self, X, y):
        self._check_options(X, partial=False)
        self._state = self._empty_state(X)
        self._epochs(X, y, self.max_iter)
        if not (self.converged_ or self.average or self.vote):
            warnings.warn(
                f"KernelPerceptron stopped after max_iter={self.max_iter} "
                f"{'iterations' if self.order == 'random-mistake' else 'epochs'} "
                "without an epoch free of mistakes: the data may not be separable with this "
                "kernel, or it needs more epochs.",
                V.ConvergenceWarning,
                stacklevel=3,
            )

    def _partial_fit(self, X, y, first):
        self._check_options(X, partial=True)
        if first:
            self._state = self._empty_state(X)
        self._epochs(X, y, 1)

    def _check_options(self, X, partial):
        if self.average and self.vote:
            raise ValueError("average=True and vote=True exclude each other: choose one.")
        if (self.average or self.vote) and self.order == "random-mistake":
            raise ValueError(
                "average=True and vote=True count the examples each iterate survives, which "
                "order='random-mistake' does not visit in epochs: use 'cyclic' or 'shuffle'."
            )
        if self.kernel != "precomputed":
            return
        if partial:
            raise ValueError(
                "partial_fit does not take kernel='precomputed': a new batch has no kernel "
                "values with the earlier examples. Use fit, or a named or callable kernel."
            )
        if X.shape[0] != X.shape[1]:
            raise ValueError(
                f"With kernel='precomputed', fit takes the square Gram matrix K(X, X); got a "
                f"matrix of shape {X.shape}."
            )

    def _empty_state(self, X):
        """The state before any example: no support vectors, b = 0, CIML's counter c = 1."""
        d = X.shape[1]
        if self.gamma == "scale":
            var = float(X.var())
            gamma = 1.0 / (d * var) if var != 0 else 1.0
        elif self.gamma == "auto":
            gamma = 1.0 / d
        else:
            gamma = float(self.gamma)
        return {
            "gamma": gamma,
            "X": np.zeros((0, d)),  # the support vectors
            "index": np.zeros(0, dtype=np.int64),  # their indices among the examples seen
            "alpha_y": np.zeros(0),
            "u_y": np.zeros(0),
            "b": 0.0,
            "beta": 0.0,
            "c": 1,  # CIML's counter: the examples visited so far, plus 1
            "survived": 0,  # the examples the current iterate has survived (the vote's count)
            "n_seen": 0,
            "fit_intercept": self.fit_intercept,
            "intercepts": [],
            "counts": [],
            "rows": [],  # the updates' examples, as indices among the examples seen
            "steps": [],
            "mistakes": np.zeros(0, dtype=np.int64),
            "converged": False,
        }

    def _epochs(self, X, y, max_iter):
        """``max_iter`` epochs of the loop over (X, y) from ``_state``; then the attributes."""
        st = self._state
        precomputed = self.kernel == "precomputed"
        rows = X if precomputed else np.vstack([st["X"], X])
        start, n = st["X"].shape[0], X.shape[0]
        index = np.concatenate([st["index"], st["n_seen"] + np.arange(n)])
        alpha_y = np.concatenate([st["alpha_y"], np.zeros(n)])
        st["u_y"] = np.concatenate([st["u_y"], np.zeros(n)])
        gram = self._gram(rows)
        options = {
            "start": start,
            "eta": float(self.eta),
            "max_iter": max_iter,
            "order": self.order,
            "rule": self.rule,
            "fit_intercept": self.fit_intercept,
            "rng": self._rng,
        }
        hooks = [record_hook(st)]
        if self.average:
            hooks.append(averaged_hook(st, st["c"]))
        if self.vote:
            vote, last = voted_hook(st)
            hooks.append(vote)
        first_update = len(st["rows"])

        def on_update(*update):
            for hook in hooks:
                hook(*update)

        b, _, _, converged, mistakes = train(
            gram,
            y,
            alpha_y,
            st["b"],
            on_update=on_update,
            stop_when_clean=not (self.average or self.vote),
            **options,
        )
        st["rows"][first_update:] = index[st["rows"][first_update:]].tolist()
        st["c"] += max_iter * n
        if self.vote:
            st["survived"] = max_iter * n - last["t"]
        keep = alpha_y != 0  # a coefficient never returns to 0: each step on x_i has y_i's sign
        st.update(
            X=rows[keep] if not precomputed else np.zeros((0, 0)),
            index=index[keep],
            alpha_y=alpha_y[keep],
            u_y=st["u_y"][keep],
            b=float(b),
            n_seen=st["n_seen"] + n,
            mistakes=np.concatenate([st["mistakes"], mistakes]),
            converged=converged,
        )
        self._keep()

    def _gram(self, rows):
        """gram(i, s) for the loop: from the Gram matrix when it fits in cache_size, else the
        kernel of the rows i with the rows s, computed on demand."""
        if self.kernel == "precomputed":
            return lambda i, s: rows[i, s]
        if 8.0 * rows.shape[0] ** 2 <= self.cache_size * 2**20:
            G = self._kernel(rows, rows)
            return lambda i, s: G[i, s]

        def gram(i, s):
            if s.size == 0:  # no support vector yet: scikit-learn's kernels need a row
                return np.zeros((rows[i].shape[0], 0)) if isinstance(i, slice) else np.zeros(0)
            if isinstance(i, slice):
                return self._kernel(rows[i], rows[s])
            return self._kernel(rows[i : i + 1], rows[s])[0]

        return gram

    def _keep(self):
        """The learned attributes from ``_state``."""
        st = self._state
        self.support_ = st["index"]
        self.support_vectors_ = st["X"]
        self.last_dual_coef_, self.last_intercept_ = st["alpha_y"], st["b"]
        if self.average:  # CIML's final step, in dual form: alpha_y - u_y/c, b - beta/c
            self.dual_coef_ = st["alpha_y"] - st["u_y"] / st["c"]
            self.intercept_ = float(st["b"] - st["beta"] / st["c"])
        else:
            self.dual_coef_, self.intercept_ = st["alpha_y"], st["b"]
        self.update_indices_ = np.array(st["rows"], dtype=np.int64)
        if self.vote:
            self.counts_ = np.array([*st["counts"], st["survived"]], dtype=np.int64)
            self.intercepts_ = np.array([*st["intercepts"], st["b"]], dtype=np.float64)
        self.mistakes_ = st["mistakes"]
        self.n_iter_ = self.mistakes_.shape[0]
        self.n_updates_ = int(self.mistakes_.sum())
        self.converged_ = (
            bool(self.mistakes_[-1] == 0) if self.average or self.vote else st["converged"]
        )

    # -- the kernel -----------------------------------------------------------------------------

    def _kernel(self, X, Z):
        """K(X, Z), checked: shape (len(X), len(Z)) and finite values."""
        kernel, gamma = self.kernel, self._state["gamma"]
        with np.errstate(over="ignore", invalid="ignore"):  # checked below: a clear ValueError
            K = self._named_kernel(X, Z, kernel, gamma)
        if K is None:
            try:
                K = np.asarray(kernel(X, Z), dtype=np.float64)
            except (TypeError, ValueError) as exc:
                raise ValueError(
                    f"The kernel callable must return a numeric matrix; it returned something "
                    f"that is not one ({exc})."
                ) from None
            if K.shape != (X.shape[0], Z.shape[0]):
                raise ValueError(
                    f"The kernel callable must return the ({X.shape[0]}, {Z.shape[0]}) matrix "
                    f"K(X, Z) for X with {X.shape[0]} rows and Z with {Z.shape[0]}; it returned "
                    f"shape {K.shape}."
                )
        if not np.all(np.isfinite(K)):
            raise ValueError(
                "The kernel returned NaN or infinity: scale X (for example with "
                "sklearn.preprocessing.StandardScaler) or lower gamma or degree."
            )
        return K

    def _named_kernel(self, X, Z, kernel, gamma):
        """K(X, Z) for a named kernel, None for a callable."""
        if kernel == "linear":
            return linear_kernel(X, Z)
        if kernel == "poly":
            return polynomial_kernel(X, Z, degree=self.degree, gamma=gamma, coef0=self.coef0)
        if kernel == "rbf":
            return rbf_kernel(X, Z, gamma=gamma)
        return None

    # -- prediction -----------------------------------------------------------------------------

    def _check_X(self, X):
        if self.kernel == "precomputed":
            n = getattr(X, "shape", (None, None))
            if len(n) == 2 and n[1] != self.n_features_in_:
                raise ValueError(
                    f"With kernel='precomputed', X must be K(X_test, X_train), one column per "
                    f"training example: {self.n_features_in_} columns; got {n[1]}."
                )
        return super()._check_X(X)

    def _kernel_with_support(self, X):
        if self.kernel == "precomputed":
            return X[:, self.support_]
        if self.support_.size == 0:  # no mistake yet: the activation is b
            return np.zeros((X.shape[0], 0))
        return self._kernel(X, self.support_vectors_)

    def decision_function(self, X):
        """The activation of each row of X; with ``vote=True``, the iterates' vote weighted by
        their survival counts, a tie returned as 0.5 (as :class:`VotedPerceptron`'s)."""
        self._check_fitted("decision_function")
        K = self._kernel_with_support(self._check_X(X))
        if not self.vote:
            return K @ self.dual_coef_ + self.intercept_
        # iterate k + 1 is the first k updates: its activation is a cumulative sum over them
        at = np.searchsorted(self.support_, self.update_indices_)
        steps = np.array(self._state["steps"], dtype=np.float64)
        a = np.cumsum(K[:, at] * steps, axis=1)
        a = np.hstack([np.zeros((K.shape[0], 1)), a]) + self.intercepts_
        return vote(a, self.counts_)

    def predict(self, X):
        """The predicted class of each row of X, one of ``classes_``: ``classes_[1]`` where the
        activation is >= 0 (sign(0) = +1, as :class:`Perceptron`); with ``vote=True``, where the
        vote is >= 0 (sign(0) = +1 at both levels), that is where ``decision_function`` > 0."""
        self._check_fitted("predict")
        a = self.decision_function(X)
        return self.classes_[(predict_sign(a) > 0).astype(int)]
