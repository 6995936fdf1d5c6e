"""Stochastic (sub)gradient descent on a linear model h(x) = sign(w.x + b).

One SGD step on the example (x, y) moves (w, b) against a subgradient of the loss l(y, a) of the
activation a = w.x + b::

    c = -eta * dl/da(y, a)      # a number
    w += c * x
    b += c                      # the bias is the weight of the constant feature 1

Three losses, all functions of the signed activation y*a:

- ``"perceptron"``: max(0, -y a). At the kink y a = 0 its subgradient set is
  {-t y : 0 <= t <= 1} (times (x, 1) for the weights); ``at_zero`` is the t chosen there. With
  t = 1 a step is c = eta*y on every example with y a <= 0 and nothing otherwise: exactly the
  perceptron's update (margin rule), bit for bit, so :class:`LinearSGD` with this loss and
  :class:`perclib.Perceptron` give identical weights (the tests check it).
- ``"hinge"``: max(0, 1 - y a), the SVM's loss: it also updates correct points with y a < 1.
- ``"logistic"``: log(1 + exp(-y a)), the cross-entropy of the sigmoid sigma(a) (logistic
  regression). It is smooth, and every example moves (w, b) a little
  (notebook 05 derives the step).

``"zero_one"`` (1 where y a <= 0, the margin rule's mistakes, else 0) is available in
:func:`loss_value` for plots; it has no useful subgradient (0 almost everywhere).

The losses and their subgradients are written in :mod:`perclib.losses`; :func:`loss_value`,
:func:`loss_derivative`, :func:`subgradient`, :func:`objective`, ``LOSSES`` and ``ALL_LOSSES`` are
exported here by the names they have always had.
"""

from __future__ import annotations

from numbers import Real
from typing import ClassVar

import numpy as np

from . import _validation as V
from . import losses as _losses
from ._base import BinaryLinearModel, OnlineMixin
from .training import train

# The losses and their subgradients are written once, in perclib.losses; sgd exports the names it
# has always had.
LOSSES = _losses.LOSSES
ALL_LOSSES = _losses.ALL_LOSSES
loss_value = _losses.loss_value
loss_derivative = _losses.loss_derivative
subgradient = _losses.subgradient
objective = _losses.objective
SGD_ORDERS = ("cyclic", "shuffle")


class LinearSGD(OnlineMixin, BinaryLinearModel):
    """A linear classifier trained by SGD on the perceptron, hinge or logistic loss.

    Parameters
    ----------
    loss : {"perceptron", "hinge", "logistic"}, default="perceptron"
    eta : float, default=1.0
        The step size, > 0 (constant).
    max_iter : int, default=100
        The most epochs. Training stops after the first epoch in which no step moved (w, b)
        (``converged_``); with the logistic loss every step moves, so it runs all ``max_iter``.
        No warning is given: reaching ``max_iter`` is normal for SGD.
    order : {"cyclic", "shuffle"}, default="cyclic"
        The order of the examples in each epoch, drawn as :class:`perclib.Perceptron` draws it.
    fit_intercept : bool, default=True
    at_zero : float in [0, 1], default=1.0
        The subgradient chosen at the kink (see :func:`loss_derivative`).
    random_state : None, int or numpy.random.Generator, default=None
    record : bool, default=False
        Keep ``history_``: one :class:`perclib.training.Step` per visited example (``updated`` is
        whether the step moved (w, b)), so the Stepper widget can replay it.

    Attributes
    ----------
    coef_, intercept_, classes_, n_features_in_ : as in :class:`perclib.Perceptron`.
    n_iter_ : int
        Epochs run.
    n_updates_ : int
        Steps that moved (w, b).
    converged_ : bool
        Whether the last epoch made no move.
    objective_ : ndarray of shape (n_iter_,)
        The mean training loss after each epoch.
    history_ : list of Step (with ``record=True``)

    Examples
    --------
    SGD on the perceptron loss, with the subgradient -y (x, 1) at the kink, is the perceptron:

    >>> import numpy as np
    >>> from perclib import Perceptron
    >>> from perclib.datasets import make_separable
    >>> X, y = make_separable(40, 3, margin=0.1, random_state=0)
    >>> sgd = LinearSGD(loss="perceptron", eta=0.5).fit(X, y)
    >>> pla = Perceptron(eta=0.5).fit(X, y)
    >>> bool(np.array_equal(sgd.coef_, pla.coef_)), sgd.intercept_ == pla.intercept_
    (True, True)
    """

    def __init__(
        self,
        *,
        loss="perceptron",
        eta=1.0,
        max_iter=100,
        order="cyclic",
        fit_intercept=True,
        at_zero=1.0,
        random_state=None,
        record=False,
    ):
        self.loss = loss
        self.eta = eta
        self.max_iter = max_iter
        self.order = order
        self.fit_intercept = fit_intercept
        self.at_zero = at_zero
        self.random_state = random_state
        self.record = record

    _params: ClassVar[dict] = {
        **BinaryLinearModel._params,
        "loss": [V.options(*LOSSES)],
        "at_zero": [V.interval(Real, 0, 1, closed="both")],
        "record": [V.BOOLEAN],
    }

    def fit(self, X, y, coef_init=None, intercept_init=None):
        """Run SGD from w = coef_init (default 0), b = intercept_init (default 0); return self."""
        X, ys = self._start(X, y)
        w, b = V.check_init(coef_init, intercept_init, X.shape[1])
        self._fit(X, ys, w, float(b))
        return self

    def _fit(self, X, ys, w, b):
        self._begin()
        self._epochs(X, ys, w, b, self.max_iter)

    def _partial_fit(self, X, ys, first):
        self._epochs(X, ys, *self._online_start(X.shape[1], first), 1)

    def _begin(self):
        self.n_iter_, self.n_updates_, self.objective_ = 0, 0, np.zeros(0)
        if self.record:
            self.history_ = []

    def _epochs(self, X, ys, w, b, max_iter):
        """Up to ``max_iter`` epochs of SGD from (w, b), continuing the counts of earlier calls:
        the perceptron's plain loop (:func:`perclib.training.train`), one epoch at a time, with
        the loss's step in place of the perceptron's rule."""
        loss, at_zero, eta = self.loss, float(self.at_zero), float(self.eta)

        # c = -eta dl/da: the perceptron loss's is eta*y where y*a <= 0, else 0. The loss and
        # at_zero were checked by fit, the labels encoded as -1 and +1: loss_derivative's
        # formula without its checks, which would cost more than the step itself.
        def step(yi, a):
            y1, a1 = np.array([yi], dtype=np.float64), np.array([a], dtype=np.float64)
            return -eta * float(_losses._derivative(loss, y1, a1, at_zero)[0])

        history = self.history_ if self.record else None
        objective_, converged = [], False
        for epoch in range(self.n_iter_, self.n_iter_ + max_iter):
            b, _, moved, converged, _ = train(
                X, ys, w, b, eta=eta, max_iter=1, order=self.order, rule=step,
                fit_intercept=self.fit_intercept, rng=self._rng, record=history,
                epoch_offset=epoch,
            )  # fmt: skip
            self.n_iter_, self.n_updates_ = epoch + 1, self.n_updates_ + moved
            with np.errstate(over="ignore", invalid="ignore"):
                objective_.append(float(np.mean(loss_value(self.loss, ys, X @ w + b))))
            if converged:
                break
        self.coef_, self.intercept_ = w, float(b)
        self.converged_ = converged
        self.objective_ = np.concatenate([self.objective_, objective_])
