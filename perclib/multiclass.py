"""The multi-class perceptron (Collins 2002; CIML ch. 4 and 6)."""

from __future__ import annotations

import warnings
from typing import ClassVar

import numpy as np

from . import _validation as V
from . import block_scan, training
from ._base import BaseModel, OnlineMixin


class MulticlassPerceptron(OnlineMixin, BaseModel):
    """One weight vector and bias per class; predict the class with the highest score.

    On a mistake (y_hat != y, where y_hat = argmax_k w_k.x + b_k with ties to the lowest index, as
    ``numpy.argmax``) it updates w_y += eta*x and w_yhat -= eta*x, and b_y += eta, b_yhat -= eta.
    With two classes this is the binary perceptron on w_+ - w_-,
    except on an exact tie w_+.x + b_+ = w_-.x + b_-: argmax gives it to ``classes_[0]`` (no update
    for an example of that class), while the binary margin rule y*(w.x + b) <= 0 updates. From zero
    weights every score ties, so the two differ whenever the first example is of ``classes_[0]``.

    Parameters
    ----------
    eta : float, default=1.0
    max_iter : int, default=100
        The most epochs. Without averaging, training stops after an epoch without mistakes and warns
        with a ConvergenceWarning when ``max_iter`` ends it first. With ``average=True`` all
        ``max_iter`` epochs run (the average depends on them), without a warning.
    order : {"cyclic", "shuffle"}, default="cyclic"
    fit_intercept : bool, default=True
    random_state : None, int or numpy.random.Generator, default=None
    average : bool, default=False
        Return the average of the iterates (CIML's cached-weights trick, per class), as
        :class:`AveragedPerceptron` does for two classes.
    record : bool, default=False
        Keep ``history_``, one :class:`MultiStep` per visited example.

    Attributes
    ----------
    coef_ : ndarray of shape (n_classes, n_features)
    intercept_ : ndarray of shape (n_classes,)
    classes_ : ndarray of shape (n_classes,)
    last_coef_, last_intercept_ : the last iterate (equal to coef_, intercept_ without averaging).
    n_features_in_, n_iter_, n_updates_, converged_, mistakes_ : as in :class:`Perceptron`.

    Examples
    --------
    >>> import numpy as np
    >>> from perclib import MulticlassPerceptron
    >>> X = np.array([[0.0, 1.0], [1.0, 0.0], [-1.0, -1.0]])
    >>> clf = MulticlassPerceptron().fit(X, ["a", "b", "c"])
    >>> clf.predict(X).tolist(), clf.n_iter_
    (['a', 'b', 'c'], 3)
    """

    def __init__(
        self,
        *,
        eta=1.0,
        max_iter=100,
        order="cyclic",
        fit_intercept=True,
        random_state=None,
        average=False,
        record=False,
    ):
        self.eta = eta
        self.max_iter = max_iter
        self.order = order
        self.fit_intercept = fit_intercept
        self.random_state = random_state
        self.average = average
        self.record = record

    _params: ClassVar[dict] = {
        **BaseModel._params,
        "average": [V.BOOLEAN],
        "record": [V.BOOLEAN],
    }
    _binary = False
    _plain_loop = staticmethod(training.multiclass)
    _block_scan = staticmethod(block_scan.multiclass)

    def _fit(self, X, yi):
        """Train on (X, y) with at least two classes (y as indices into ``classes_``)."""
        self._begin(X.shape[1])
        mistakes, converged = self._epochs(X, yi, self.max_iter, stop_when_clean=not self.average)
        self._keep(mistakes)
        if not self.average and not converged:
            warnings.warn(
                f"MulticlassPerceptron stopped after max_iter={self.max_iter} epochs "
                "without an epoch free of mistakes: the classes may not be linearly separable, "
                "or it needs more epochs.",
                V.ConvergenceWarning,
                stacklevel=3,
            )

    def _partial_fit(self, X, yi, first):
        if first:
            self._begin(X.shape[1])
            self.mistakes_ = np.zeros(0, dtype=np.int64)
        mistakes, _ = self._epochs(X, yi, 1, stop_when_clean=False)
        self._keep(np.concatenate([self.mistakes_, mistakes]))

    def _begin(self, d):
        self._state = training.multiclass_start(self.classes_.shape[0], d)
        if self.record:
            self.history_ = []

    def _epochs(self, X, yi, max_iter, *, stop_when_clean):
        """``max_iter`` epochs from ``_state``: (mistakes per epoch, converged)."""
        return self._train(
            X,
            yi,
            self._state,
            stop_when_clean=stop_when_clean,
            **self._options(max_iter),
            **({"history": self.history_} if self.record else {}),
        )

    def _keep(self, mistakes):
        """The learned attributes from the state:
        the last iterate, or the average of the iterates."""
        st = self._state
        W, b = st["W"], st["b"]
        self.last_coef_, self.last_intercept_ = W.copy(), b.copy()
        if self.average:
            self.coef_, self.intercept_ = W - st["U"] / st["c"], b - st["beta"] / st["c"]
        else:
            self.coef_, self.intercept_ = W.copy(), b.copy()
        self.mistakes_ = np.asarray(mistakes, dtype=np.int64)
        self.n_iter_ = len(self.mistakes_)
        self.n_updates_ = int(self.mistakes_.sum())
        self.converged_ = bool(self.mistakes_[-1] == 0)

    def decision_function(self, X):
        """The score w_k.x + b_k of every class for each row of X, shape (n_samples, n_classes).

        With two classes it is, as in every scikit-learn classifier, one number per row: the
        score of ``classes_[1]`` minus that of ``classes_[0]`` (positive means ``classes_[1]``).
        """
        self._check_fitted("decision_function")
        scores = self._scores(self._check_X(X))
        return scores[:, 1] - scores[:, 0] if scores.shape[1] == 2 else scores

    def _scores(self, X):
        return X @ self.coef_.T + self.intercept_

    def predict(self, X):
        """The class with the highest score (ties go to the lowest class index)."""
        self._check_fitted("predict")
        return self.classes_[np.argmax(self._scores(self._check_X(X)), axis=1)]
