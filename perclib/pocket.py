"""The pocket algorithm (Gallant 1990; Learning From Data, section 3.1)."""

from __future__ import annotations

from typing import ClassVar

from . import training
from ._base import ORDER_AND_RULE, BinaryLinearModel


class PocketPerceptron(BinaryLinearModel):
    """The perceptron that keeps, "in its pocket", the weights with the fewest training mistakes.

    This is Learning From Data's form of the pocket (section 3.1): it runs the perceptron exactly
    as :class:`Perceptron` does and, after every update, counts the training mistakes of the new
    weights (sign(0) = +1). When they make fewer mistakes than the weights in the pocket, they
    replace them. Gallant's original "ratchet" counts only when the current weights have survived
    a longer run of correct answers than the pocket's; notebook 05 compares the two. On data that
    is not linearly separable the last iterate keeps jumping about; the pocket only ever gets
    better on the training data.

    Cost: an epoch visits the n examples, O(n d), and each update counts the training mistakes of
    the new weights, one product ``X @ w`` and one pass over its n scores, O(n d). An epoch with u
    updates thus costs O(n d (1 + u)): on noisy data u grows in proportion to n, so an epoch costs
    O(n^2 d). Each update's count is one BLAS product and a few numpy calls.

    Parameters
    ----------
    eta, max_iter, order, rule, fit_intercept, random_state
        As in :class:`Perceptron`. Running out of ``max_iter`` is expected here, so no warning is
        given; ``converged_`` tells whether an epoch was free of mistakes.

    Attributes
    ----------
    coef_, intercept_ : the pocket weights (fewest training mistakes seen).
    pocket_mistakes_ : int
        Training mistakes of the pocket weights.
    last_coef_, last_intercept_ : the last iterate of the perceptron.
    classes_, n_features_in_, n_iter_, n_updates_, converged_, mistakes_ : as in
        :class:`Perceptron`.

    Examples
    --------
    >>> from perclib import PocketPerceptron
    >>> from perclib.datasets import make_noisy
    >>> X, y = make_noisy(100, 2, flip=0.1, random_state=0)
    >>> clf = PocketPerceptron(max_iter=30).fit(X, y)
    >>> import numpy as np
    >>> last = np.where(X @ clf.last_coef_ + clf.last_intercept_ >= 0, 1, -1)
    >>> bool(clf.pocket_mistakes_ <= np.sum(last != y))  # never worse than the last iterate
    True
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
    ):
        self.eta = eta
        self.max_iter = max_iter
        self.order = order
        self.rule = rule
        self.fit_intercept = fit_intercept
        self.random_state = random_state

    _params: ClassVar[dict] = {**BinaryLinearModel._params, **ORDER_AND_RULE}

    def _fit(self, X, y):
        """Train and keep the best weights seen."""
        w, b, pw, pb, pm, n_iter, n_updates, converged, mistakes = training.pocket(
            X, y, rule=self.rule, loop=self._train, **self._options(self.max_iter)
        )
        self.coef_, self.intercept_, self.pocket_mistakes_ = pw, float(pb), pm
        self.last_coef_, self.last_intercept_ = w, float(b)
        self.n_iter_, self.n_updates_, self.converged_, self.mistakes_ = (
            n_iter,
            n_updates,
            converged,
            mistakes,
        )
