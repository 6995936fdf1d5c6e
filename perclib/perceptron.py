"""Rosenblatt's perceptron, as in CIML's PerceptronTrain."""

from __future__ import annotations

import warnings
from typing import ClassVar

import numpy as np
import scipy.sparse as sp

from . import _validation as V
from ._base import ORDER_AND_RULE, BinaryLinearModel, OnlineMixin


class Perceptron(OnlineMixin, BinaryLinearModel):
    """The perceptron: learn h(x) = sign(w.x + b) by correcting one mistake at a time.

    Parameters
    ----------
    eta : float, default=1.0
        The learning rate, > 0: the size of each update's step.
    max_iter : int, default=100
        The most epochs (passes over the data) to run. Training stops earlier, after the first
        epoch without an update. With ``order="random-mistake"`` an iteration is one scan of the
        data followed by one update (Learning From Data's PLA iteration), so ``max_iter`` bounds the
        number of scans, and with it the number of updates.
    order : {"cyclic", "shuffle", "random-mistake"}, default="cyclic"
        "cyclic" visits the data in its order every epoch; "shuffle" draws a fresh permutation each
        epoch; "random-mistake" picks a uniformly random point among those misclassified now.
    rule : {"margin", "prediction"}, default="margin"
        "margin" updates when y*(w.x + b) <= 0, with w += eta*y*x and b += eta*y (CIML, the IIT-B
        CS 337 notes and scikit-learn). "prediction" predicts y_hat = +1 if w.x + b >= 0 else -1 and
        updates when y_hat != y, with w += eta*(y - y_hat)*x and b += eta*(y - y_hat) (the Melbourne
        COMP90049 lecture).
    fit_intercept : bool, default=True
        Learn the bias b. With False, b stays at its initial value (0 unless ``intercept_init``).
    random_state : None, int or numpy.random.Generator, default=None
        Seeds the "shuffle" and "random-mistake" orders.
    record : bool, default=False
        Keep ``history_``, one record per visited example.

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,)
        The weights w.
    intercept_ : float
        The bias b.
    classes_ : ndarray of shape (2,)
        The two labels; ``classes_[1]`` is the +1 class.
    n_features_in_ : int
        The number of features seen in fit.
    n_iter_ : int
        Epochs run, counting the final clean epoch (for "random-mistake": scans of the data).
    n_updates_ : int
        Updates made in all.
    converged_ : bool
        Whether the last epoch made no update. False means ``max_iter`` stopped training.
    mistakes_ : ndarray of shape (n_iter_,)
        Updates made in each epoch.
    history_ : list of Step
        Only with ``record=True``: for each visited example its epoch, index, x, y (as +1/-1), the
        activation, y_hat, whether it updated, and w and b after the step.

    Notes
    -----
    ``partial_fit(X, y, classes=None)`` runs one online pass from the current weights: streaming the
    examples one at a time gives the weights of one epoch of ``fit``. X may be a ``scipy.sparse``
    matrix (read as CSR): an update then touches only the example's nonzero features, and the
    weights are those of the dense matrix, bit for bit (not with ``order="random-mistake"`` or
    ``record=True``, which need dense rows).

    With ``rule="margin"``, ``order="cyclic"`` and w, b starting at 0, ``coef_`` and
    ``intercept_`` are bit-identical to ``sklearn.linear_model.Perceptron(shuffle=False,
    tol=None, eta0=eta, max_iter=k)`` for any k; the tests check this.

    Examples
    --------
    >>> from perclib import Perceptron
    >>> from perclib.datasets import worked_example
    >>> X, y = worked_example()
    >>> clf = Perceptron(rule="prediction").fit(X, y)
    >>> clf.coef_, clf.intercept_, clf.n_iter_
    (array([2., 2.]), -2.0, 3)
    >>> clf.predict([[2, 2], [-1, -1]])
    array([ 1, -1])
    """

    def __init__(
        self,
        *,
        eta=1.0,
        max_iter=100,
        order="cyclic",
        rule="margin",
        fit_intercept=True,
        random_state=None,
        record=False,
    ):
        self.eta = eta
        self.max_iter = max_iter
        self.order = order
        self.rule = rule
        self.fit_intercept = fit_intercept
        self.random_state = random_state
        self.record = record

    _params: ClassVar[dict] = {
        **BinaryLinearModel._params,
        **ORDER_AND_RULE,
        "record": [V.BOOLEAN],
    }
    _sparse = True

    def fit(self, X, y, coef_init=None, intercept_init=None):
        """Train from w = coef_init (default 0) and b = intercept_init (default 0); return self."""
        X, y = self._start(X, y)
        self._fit(X, y, coef_init, intercept_init)
        return self

    def _fit(self, X, y, coef_init=None, intercept_init=None):
        w, b = V.check_init(coef_init, intercept_init, X.shape[1])
        self._begin()
        self._run(X, y, w, float(b), self.max_iter)
        if not self.converged_:
            warnings.warn(
                f"Perceptron stopped after max_iter={self.max_iter} "
                f"{'iterations' if self.order == 'random-mistake' else 'epochs'} "
                "without an epoch free of mistakes: the data may not be linearly separable, "
                "or it needs more epochs.",
                V.ConvergenceWarning,
                stacklevel=3,
            )

    def _partial_fit(self, X, y, first):
        self._run(X, y, *self._online_start(X.shape[1], first), 1)

    def _begin(self):
        self.n_iter_, self.n_updates_ = 0, 0
        self.mistakes_ = np.zeros(0, dtype=np.int64)
        if self.record:
            self.history_ = []

    def _run(self, X, y, w, b, max_iter):
        if sp.issparse(X) and (self.order == "random-mistake" or self.record):
            raise ValueError(
                "order='random-mistake' and record=True need a dense X "
                "(for example X.toarray()); sparse X runs the cyclic or shuffled epochs."
            )
        record = {"record": self.history_, "epoch_offset": self.n_iter_} if self.record else {}
        b, n_iter, n_updates, converged, mistakes = self._train(
            X, y, w, b, rule=self.rule, **self._options(max_iter), **record
        )
        self.coef_ = w
        self.intercept_ = float(b)
        self.n_iter_ += n_iter
        self.n_updates_ += n_updates
        self.converged_ = converged
        self.mistakes_ = np.concatenate([self.mistakes_, mistakes])
