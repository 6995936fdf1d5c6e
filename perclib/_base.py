"""What every perclib model shares: scikit-learn's estimator base, one fit template, prediction.

``fit`` is written once, here, as scikit-learn's own estimators do it:

1. check the parameters against ``_params`` (:func:`perclib._validation.check_params`);
2. forget every learned attribute of a previous fit;
3. validate X and y (``validate_data``: ``n_features_in_``, ``feature_names_in_``) and check
   that y holds class labels;
4. encode the labels (``classes_``);
5. run the model's own training step, ``_fit``.

``partial_fit`` (the online models) shares steps 1 to 4 and then runs ``_partial_fit``.

The training step runs the model's loop through :meth:`BaseModel._train`, the one place that
chooses between the block scan (:mod:`perclib.block_scan`) and the plain loop
(:mod:`perclib.training`); both give the same results, bit for bit.
"""

from __future__ import annotations

from numbers import Integral, Real
from typing import ClassVar

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from . import _validation as V
from . import block_scan, training

POSITIVE = V.interval(Real, 0, closed="neither")
AT_LEAST_ONE = V.interval(Integral, 1)

#: The orders and update rules of Perceptron and PocketPerceptron
#: (the others take cyclic or shuffle).
ORDER_AND_RULE = {"order": [V.options(*V.ORDERS)], "rule": [V.options(*V.RULES)]}


class BaseModel(ClassifierMixin, BaseEstimator):
    """scikit-learn's estimator conventions: keyword parameters stored as given, checked in fit."""

    _params: ClassVar[dict] = {
        "eta": [POSITIVE],
        "max_iter": [AT_LEAST_ONE],
        "order": [V.options(*V.ORDERS[:2])],
        "fit_intercept": [V.BOOLEAN],
        "random_state": V.RANDOM_STATE,
    }
    _sparse = False  # True: X may be a scipy.sparse matrix (used as CSR)
    _binary = True  # True: exactly two classes; False: two or more
    _reference = False  # True: always train with the plain loop (the tests compare with it)
    #: The model's loop, in :mod:`perclib.training`, and its block scan.
    _plain_loop = staticmethod(training.train)
    _block_scan = staticmethod(block_scan.train)

    def _options(self, max_iter):
        """The training loops' options, from the model's parameters."""
        return {
            "eta": float(self.eta),
            "max_iter": max_iter,
            "order": self.order,
            "fit_intercept": self.fit_intercept,
            "rng": self._rng,
        }

    def _train(self, X, y, *args, **kw):
        """Run the training loop: the block scan, or the plain loop for ``record=True``,
        ``order="random-mistake"`` and the ``_reference`` flag (the same results, bit for bit)."""
        if self._reference or getattr(self, "record", False) or self.order == "random-mistake":
            return self._plain_loop(X, y, *args, **kw)
        return self._block_scan(X, y, *args, **kw)

    def __getattr__(self, name):
        # Only reached when normal lookup fails. perclib's messages say more than Python's:
        # which attribute is learned by fit, and how to keep history_.
        if name.endswith("_") and not name.startswith("_"):
            if "classes_" in self.__dict__:  # fitted: the attribute does not belong to this model
                if name == "history_":
                    raise AttributeError(
                        f"history_ is kept only when the model is built with record=True; "
                        f"use {type(self).__name__}(record=True).fit(X, y)."
                    )
                raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
            raise V.NotFittedError(
                f"This {type(self).__name__} has no {name} yet: it is learned by fit. "
                f"Call fit(X, y) first."
            )
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = self._sparse
        tags.classifier_tags.multi_class = not self._binary
        return tags

    # -- the fit template ---------------------------------------------------------------------

    def fit(self, X, y):
        """Train on (X, y); return self."""
        X, y = self._start(X, y)
        self._fit(X, y)
        return self

    def _start(self, X, y, *, classes=None, partial=False):
        """The prologue of fit and partial_fit; returns the checked X and the encoded y."""
        V.check_params(self)
        first = not partial or "classes_" not in self.__dict__
        if first:
            self._forget()
        X, y = validate_data(self, self._dense_or_csr(X), y, reset=first, **self._x_checks())
        if y.dtype == object and any(v is None for v in y.tolist()):
            # scikit-learn would fail sorting the labels with a TypeError; say what is wrong.
            raise ValueError("y holds None: every sample needs a label.")
        try:
            labels = np.unique(y)  # once: the check below and the classes read it
        except TypeError:  # labels that cannot be sorted: scikit-learn's check says what is wrong
            check_classification_targets(y)
            raise
        check_classification_targets(labels)  # the same verdict as on y itself (y is 1-D)
        if first:
            self.classes_ = self._classes(labels, classes, partial)
            self._rng = V.check_random_state(self.random_state)
        elif classes is not None and not np.array_equal(
            np.unique(np.asarray(classes)), self.classes_
        ):
            raise ValueError(
                f"classes={classes!r} differs from the classes of the first call, "
                f"{list(self.classes_)}."
            )
        return (training.csr(X) if sp.issparse(X) else X), self._encode(y)

    _private_learned = ("_rng", "_state")  # learned by fit, but not part of the public answer

    def _forget(self):
        """Drop every attribute a previous fit learned:
        the ones ending in _ and the private state."""
        for name in [
            k
            for k in vars(self)
            if k.endswith("_") and not k.startswith("__") or k in self._private_learned
        ]:
            delattr(self, name)

    def _x_checks(self):
        return {
            "accept_sparse": "csr" if self._sparse else False,
            "dtype": np.float64,
            "order": "C",
        }

    def _dense_or_csr(self, X):
        if sp.issparse(X) and not self._sparse:
            # scikit-learn would raise a TypeError; perclib keeps a ValueError that says what to do.
            raise ValueError(
                f"X is a sparse matrix; {type(self).__name__} needs a dense array (for example "
                "X.toarray()). Perceptron and AveragedPerceptron accept sparse input."
            )
        return X

    def _classes(self, y, classes, partial):
        name = type(self).__name__
        if classes is None:
            classes = np.unique(y)
            if partial and self._binary and classes.shape[0] != 2:
                raise ValueError(
                    "classes must be given on the first call to partial_fit when y does "
                    "not hold both labels, for example classes=[-1, 1]."
                )
        else:
            classes = np.unique(np.asarray(classes))
        if self._binary:
            return V.binary_classes(classes, name)
        if classes.shape[0] < 2:
            raise ValueError(
                f"{name} needs at least 2 classes in y; got {classes.shape[0]} class: "
                f"{V._show(classes)}."
            )
        return classes

    def _encode(self, y):
        """y as indices into ``classes_``,
        or a ValueError naming the labels that are not classes."""
        if self._binary:  # two comparisons, cheaper than a search
            k = y == self.classes_[1]
            unknown = ~(k | (y == self.classes_[0]))
        else:
            k = np.clip(np.searchsorted(self.classes_, y), 0, self.classes_.shape[0] - 1)
            unknown = self.classes_[k] != y
        if np.any(unknown):
            raise ValueError(
                f"y holds labels {V._show(np.unique(y[unknown]))} that are not in classes "
                f"{V._show(self.classes_)}."
            )
        return np.where(k, 1.0, -1.0) if self._binary else k

    # -- prediction -----------------------------------------------------------------------------

    def _check_fitted(self, what):
        # perclib's message says which call is missing, in the course's words.
        check_is_fitted(
            self,
            "classes_",
            msg=f"This {type(self).__name__} is not fitted yet: call fit(X, y) before {what}.",
        )

    def _check_X(self, X):
        return validate_data(self, self._dense_or_csr(X), reset=False, **self._x_checks())


class OnlineMixin:
    """``partial_fit`` for the models that learn one example at a time."""

    def partial_fit(self, X, y, classes=None):
        """One online pass over (X, y) from the current weights; return self.

        On the first call, ``classes`` names the labels (it may be omitted when y holds them all).
        """
        first = "classes_" not in self.__dict__
        X, y = self._start(X, y, classes=classes, partial=True)
        self._partial_fit(X, y, first)
        return self


class BinaryLinearModel(BaseModel):
    """A linear classifier h(x) = sign(w.x + b) with ``classes_[1]`` as the +1 class."""

    def _online_start(self, n_features, first):
        """The (w, b) a partial_fit starts from:
        0 on the first call (after ``_begin``), else a copy."""
        if first:
            self._begin()
            return np.zeros(n_features), 0.0
        return self.coef_.copy(), self.intercept_

    def decision_function(self, X):
        """The activation w.x + b of each row of X (positive means ``classes_[1]``)."""
        self._check_fitted("decision_function")
        X = self._check_X(X)
        return X @ self.coef_ + self.intercept_

    def predict(self, X):
        """``classes_[1]`` where w.x + b >= 0, else ``classes_[0]``
        (sign(0) = +1, as in the course).

        scikit-learn's linear models send an activation of exactly 0 to ``classes_[0]``;
        the course's h(x) = sign(w.x + b) with sign(0) = +1 sends it to ``classes_[1]``.
        """
        self._check_fitted("predict")
        a = self.decision_function(X)
        return self.classes_[(training.predict_sign(a) > 0).astype(int)]
