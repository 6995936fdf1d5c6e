"""The averaged perceptron, as CIML's AveragedPerceptronTrain (Daume III, ch. 4)."""

from __future__ import annotations

import numpy as np

from . import training
from ._base import BinaryLinearModel, OnlineMixin


class AveragedPerceptron(OnlineMixin, BinaryLinearModel):
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

    The bookkeeping costs O(nonzeros of x) per update, not O(d) per example, yet the result equals
    the average of the iterates w_0, w_1, ..., w_T (w_t is the weight after t visited examples,
    T = c - 1), to float tolerance; the tests check it against that naive average.

    That is the case the trick exists for: on text features (a ``scipy.sparse`` X, most entries
    zero) an update touches only the nonzero features, and the result is the dense run's, bit for
    bit. ``partial_fit`` continues w, b, u, beta and c from call to call.

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
    >>> from perclib.datasets import make_noisy
    >>> X, y = make_noisy(200, 2, flip=0.1, random_state=0)
    >>> clf = AveragedPerceptron(max_iter=5).fit(X, y)
    >>> clf.c_ == 5 * 200 + 1  # CIML's counter: one tick per visited example, from 1
    True
    >>> bool(clf.score(X, y) >= 0.8)
    True
    """

    def __init__(
        self, *, eta=1.0, max_iter=10, order="cyclic", fit_intercept=True, random_state=None
    ):
        self.eta = eta
        self.max_iter = max_iter
        self.order = order
        self.fit_intercept = fit_intercept
        self.random_state = random_state

    _sparse = True

    def _fit(self, X, y):
        """Run ``max_iter`` epochs and keep the average of the iterates."""
        self._state = training.averaged_start(X.shape[1])
        self._keep(self._epochs(X, y, self.max_iter))

    def _partial_fit(self, X, y, first):
        if first:
            self._state, self.mistakes_ = training.averaged_start(X.shape[1]), np.zeros(0, int)
        self._keep(np.concatenate([self.mistakes_, self._epochs(X, y, 1)]))

    def _epochs(self, X, y, max_iter):
        """``max_iter`` epochs of CIML's AveragedPerceptronTrain from ``_state``."""
        return training.averaged(X, y, self._state, loop=self._train, **self._options(max_iter))

    def _keep(self, mistakes):
        """The learned attributes from CIML's final step: w - u/c, b - beta/c."""
        st = self._state
        w, b, u, beta, c = st["w"], st["b"], st["u"], st["beta"], st["c"]
        self.coef_ = w - u / c
        self.intercept_ = float(b - beta / c)
        self.last_coef_, self.last_intercept_ = w, float(b)
        self.c_ = c
        self.mistakes_ = mistakes = np.asarray(mistakes, dtype=np.int64)
        self.n_iter_ = mistakes.shape[0]
        self.n_updates_ = int(mistakes.sum())
        self.converged_ = bool(mistakes[-1] == 0)
