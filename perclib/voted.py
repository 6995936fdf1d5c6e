"""The voted perceptron (Freund & Schapire 1999), and :func:`prediction_cost`: what one of its
predictions costs, against the one vector of a linear model."""

from __future__ import annotations

import numpy as np

from . import training
from ._base import BinaryLinearModel, OnlineMixin


class VotedPerceptron(OnlineMixin, BinaryLinearModel):
    """Freund & Schapire's voted perceptron: every iterate votes, weighted by how long it survived.

    Training is the perceptron's (margin rule). Each weight vector v_k is kept with its survival
    count c_k as in Freund and Schapire's pseudocode: a new vector starts at c = 1 (the example
    that made it counts; v_0 = 0 starts at 0) and gains 1 for each example it then classifies
    correctly, until its first mistake. So the counts add up to the examples visited. The
    prediction is sign(sum_k c_k * sign(v_k.x + b_k)), with sign(0) = +1 at both levels: a tied
    vote predicts ``classes_[1]``. ``decision_function`` returns the vote, a whole number, and a
    tie as 0.5 (half a vote for +1), so that, as scikit-learn expects of a binary classifier,
    ``predict`` gives ``classes_[1]`` exactly where ``decision_function`` is positive.

    Parameters
    ----------
    eta : float, default=1.0
    max_iter : int, default=10
        The number of epochs T, run in full as in the paper.
    order : {"cyclic", "shuffle"}, default="cyclic"
    fit_intercept : bool, default=True
    random_state : None, int or numpy.random.Generator, default=None

    Attributes
    ----------
    weights_ : ndarray of shape (K + 1, n_features)
        The iterates v_0 = 0, v_1, ..., v_K, in order (K = n_updates_).
    intercepts_ : ndarray of shape (K + 1,)
    counts_ : ndarray of shape (K + 1,)
        The survival counts c_0, ..., c_K (c_0 is 0: from v_0 = 0 the first example is a mistake).
    last_coef_, last_intercept_ : the last iterate v_K, b_K.
    classes_, n_features_in_, n_iter_, n_updates_, converged_, mistakes_ : as in
        :class:`Perceptron`.

    Examples
    --------
    >>> from perclib import VotedPerceptron
    >>> from perclib.datasets import make_noisy
    >>> X, y = make_noisy(100, 2, flip=0.1, random_state=0)
    >>> clf = VotedPerceptron(max_iter=5).fit(X, y)
    >>> int(clf.counts_.sum()) == 5 * 100  # every visited example counts once
    True
    >>> clf.weights_.shape[0] == clf.n_updates_ + 1
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

    def _fit(self, X, y):
        """Run ``max_iter`` epochs, keeping every iterate and its survival count."""
        self._state = training.voted_start(X.shape[1])
        self._keep(self._epochs(X, y, self.max_iter))

    def _partial_fit(self, X, y, first):
        if first:
            self._state, self.mistakes_ = training.voted_start(X.shape[1]), np.zeros(0, int)
        self._keep(np.concatenate([self.mistakes_, self._epochs(X, y, 1)]))

    def _epochs(self, X, y, max_iter):
        """``max_iter`` epochs of the voted perceptron from ``_state``."""
        return training.voted(X, y, self._state, loop=self._train, **self._options(max_iter))

    def _keep(self, mistakes):
        """The learned attributes: every iterate so far, the current one last, with its count."""
        st = self._state
        self.weights_ = np.array([*st["weights"], st["w"]])  # one row per iterate
        self.intercepts_ = np.array([*st["intercepts"], st["b"]], dtype=np.float64)
        self.counts_ = np.array([*st["counts"], st["c"]], dtype=np.int64)
        self.last_coef_, self.last_intercept_ = st["w"], float(st["b"])
        self.mistakes_ = np.asarray(mistakes, dtype=np.int64)
        self.n_iter_ = self.mistakes_.shape[0]
        self.n_updates_ = int(self.mistakes_.sum())
        self.converged_ = bool(self.mistakes_[-1] == 0)

    def decision_function(self, X):
        """The vote sum_k c_k * sign(w_k.x + b_k) for each row of X; a tied vote, 0, is returned
        as 0.5, so the score is positive exactly where ``predict`` gives ``classes_[1]``."""
        self._check_fitted("decision_function")
        X = self._check_X(X)
        return training.vote(X @ self.weights_.T + self.intercepts_, self.counts_)


def prediction_cost(model):
    """What predicting one example costs a fitted binary model:
    vectors, multiplications, numbers kept.

    A voted perceptron keeps every iterate v_0, ..., v_K (K + 1 vectors for K updates, with their
    biases and counts) and computes one dot product and one count-times-sign product per vector; a
    linear model (last iterate, averaged, pocket) keeps one vector and computes one dot product.

    >>> from perclib import AveragedPerceptron, VotedPerceptron
    >>> from perclib.datasets import worked_example
    >>> X, y = worked_example()
    >>> prediction_cost(VotedPerceptron(max_iter=3).fit(X, y))
    {'vectors': 4, 'multiplications': 12, 'numbers_stored': 16}
    >>> prediction_cost(AveragedPerceptron(max_iter=3).fit(X, y))
    {'vectors': 1, 'multiplications': 2, 'numbers_stored': 3}
    """
    fitted = getattr(model, "__dict__", {})
    if "classes_" not in fitted:
        raise ValueError("prediction_cost needs a fitted model: call fit(X, y) first.")
    d = int(model.n_features_in_)
    if "weights_" in fitted and "counts_" in fitted:
        K = int(model.weights_.shape[0])
        return {"vectors": K, "multiplications": K * d + K, "numbers_stored": K * (d + 2)}
    coef = np.asarray(fitted.get("coef_"))
    if coef.ndim != 1:
        raise ValueError(
            f"prediction_cost handles binary models (voted or with a 1-D coef_); "
            f"got {type(model).__name__}."
        )
    return {"vectors": 1, "multiplications": d, "numbers_stored": d + 1}
