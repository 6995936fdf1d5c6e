"""The averaged perceptron, as CIML's AveragedPerceptronTrain (Daume III, ch. 4)."""
from __future__ import annotations

import numpy as np

from . import _fast
from . import _validation as V
from ._base import BinaryLinearModel
from ._engine import activation, epoch_indices


class AveragedPerceptron(BinaryLinearModel):
    """The perceptron whose answer is the average of all its iterates.

    CIML's AveragedPerceptronTrain with the cached-weights trick::

        w, b, u, beta, c = 0, 0, 0, 0, 1
        for each of max_iter epochs:
            for each (x, y):
                if y*(w.x + b) <= 0:
                    w += eta*y*x;  b += eta*y
                    u += eta*y*c*x;  beta += eta*y*c
                c += 1
        return w - u/c,  b - beta/c

    The bookkeeping costs O(d) per update, not per example, yet the result equals the average of
    the iterates w_0, w_1, ..., w_T (w_t is the weight after t visited examples, T = c - 1), to
    float tolerance; the tests check it against that naive average.

    Parameters
    ----------
    eta : float, default=1.0
    max_iter : int, default=10
        The number of epochs, run in full (CIML's MaxIter): the average depends on it, so training
        does not stop at an epoch without mistakes.
    order : {"cyclic", "shuffle"}, default="cyclic"
    fit_intercept : bool, default=True
    random_state : None, int or numpy.random.Generator, default=None

    Attributes
    ----------
    coef_, intercept_ : the averaged weights and bias.
    last_coef_, last_intercept_ : the last iterate (what :class:`Perceptron` would return).
    c_ : int
        The final counter c = T + 1, where T is the number of visited examples.
    classes_, n_features_in_, n_iter_, n_updates_, converged_, mistakes_ : as in :class:`Perceptron`
        (``converged_`` says whether the last epoch was free of mistakes).

    Examples
    --------
    >>> from perclib import AveragedPerceptron
    >>> from perclib.datasets import worked_example
    >>> X, y = worked_example()
    >>> clf = AveragedPerceptron(max_iter=3).fit(X, y)
    >>> clf.last_coef_, clf.last_intercept_, clf.c_
    (array([1., 1.]), -1.0, 13)
    >>> clf.coef_.round(4), round(clf.intercept_, 4)
    (array([0.9231, 0.9231]), -0.3077)
    """

    _reference = False  # True: run the plain per-sample loop below (the tests' reference)

    def __init__(self, *, eta=1.0, max_iter=10, order="cyclic", fit_intercept=True, random_state=None):
        self.eta = eta
        self.max_iter = max_iter
        self.order = order
        self.fit_intercept = fit_intercept
        self.random_state = random_state

    def fit(self, X, y):
        """Run ``max_iter`` epochs and keep the average of the iterates; return self."""
        self._check_common_params()
        V.check_choice(self.order, "order", V.ORDERS[:2])
        X, y, classes = self._prepare(X, y)
        rng = V.check_random_state(self.random_state)
        eta = float(self.eta)
        n, d = X.shape
        if not self._reference:  # the same mistakes and weights, found block by block
            w, b, u, beta, c, mistakes = _fast.averaged(X, y, eta=eta, max_iter=self.max_iter, order=self.order,
                                                        fit_intercept=self.fit_intercept, rng=rng)
        else:
            x_norms = np.sqrt(np.einsum("ij,ij->i", X, X))
            w, b = np.zeros(d), 0.0
            u, beta = np.zeros(d), 0.0
            c = 1
            mistakes = []
            for _ in range(self.max_iter):
                updates = 0
                for i in epoch_indices(n, self.order, rng):
                    x = X[i]
                    if y[i] * activation(w, b, x, x_norms[i]) <= 0:
                        w += (eta * y[i]) * x
                        u += (eta * y[i] * c) * x
                        if self.fit_intercept:
                            b += eta * y[i]
                            beta += eta * y[i] * c
                        updates += 1
                    c += 1
                mistakes.append(updates)
        self.classes_ = classes
        self.n_features_in_ = d
        self.coef_ = w - u / c
        self.intercept_ = float(b - beta / c)
        self.last_coef_, self.last_intercept_ = w, float(b)
        self.c_ = c
        self.mistakes_ = np.array(mistakes, dtype=np.int64)
        self.n_iter_ = self.max_iter
        self.n_updates_ = int(self.mistakes_.sum())
        self.converged_ = bool(self.mistakes_[-1] == 0)
        return self
