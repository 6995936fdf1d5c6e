"""What every perclib model shares: parameters, fitted-state checks and prediction."""
from __future__ import annotations

import inspect

import numpy as np

from . import _validation as V
from ._engine import predict_sign


class BaseModel:
    """scikit-learn's estimator conventions: keyword parameters stored as given, checked in fit."""

    def __getattr__(self, name):
        # Only reached when normal lookup fails: a learned attribute asked for before fit.
        if name.endswith("_") and not name.startswith("_"):
            if "classes_" in self.__dict__:  # fitted: the attribute does not belong to this model
                if name == "history_":
                    raise AttributeError(
                        f"history_ is kept only when the model is built with record=True; "
                        f"use {type(self).__name__}(record=True).fit(X, y).")
                raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
            raise V.NotFittedError(
                f"This {type(self).__name__} has no {name} yet: it is learned by fit. "
                f"Call fit(X, y) first.")
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    @classmethod
    def _param_names(cls):
        sig = inspect.signature(cls.__init__)
        return [p for p in sig.parameters if p != "self"]

    def get_params(self, deep=True):
        """The model's parameters, as scikit-learn's ``get_params``."""
        return {name: getattr(self, name) for name in self._param_names()}

    def set_params(self, **params):
        """Set parameters by name; unknown names raise a ``ValueError``."""
        valid = self._param_names()
        for name, value in params.items():
            if name not in valid:
                raise ValueError(f"{name!r} is not a parameter of {type(self).__name__}; "
                                 f"valid ones are {', '.join(valid)}.")
            setattr(self, name, value)
        return self

    def __repr__(self):
        defaults = {p.name: p.default for p in inspect.signature(type(self).__init__).parameters.values()}
        shown = [f"{k}={v!r}" for k, v in self.get_params().items() if not _same(v, defaults.get(k))]
        return f"{type(self).__name__}({', '.join(shown)})"

    def _check_fitted(self, what="predict"):
        if "classes_" not in self.__dict__:
            raise V.NotFittedError(
                f"This {type(self).__name__} is not fitted yet: call fit(X, y) before {what}.")

    def _check_X(self, X):
        X = V.check_array(X)
        V.check_n_features(X, self.n_features_in_, type(self).__name__)
        return X

    def score(self, X, y):
        """Mean accuracy of ``predict(X)`` against ``y``."""
        self._check_fitted("score")
        X = self._check_X(X)
        y = V.check_y(y, X.shape[0])
        return float(np.mean(self.predict(X) == y))


def _same(a, b):
    try:
        return bool(a == b) and type(a) is type(b)
    except Exception:
        return a is b


class BinaryLinearModel(BaseModel):
    """A linear classifier h(x) = sign(w.x + b) with ``classes_[1]`` as the +1 class."""

    def _prepare(self, X, y):
        X, y = V.check_X_y(X, y)
        classes = V.binary_classes(y, type(self).__name__)
        return X, V.encode_binary(y, classes), classes

    def _check_common_params(self):
        V.check_positive(self.eta, "eta")
        V.check_max_iter(self.max_iter)
        V.check_bool(self.fit_intercept, "fit_intercept")

    def decision_function(self, X):
        """The activation w.x + b of each row of X (positive means ``classes_[1]``)."""
        self._check_fitted("decision_function")
        X = self._check_X(X)
        return X @ self.coef_ + self.intercept_

    def predict(self, X):
        """``classes_[1]`` where w.x + b >= 0, else ``classes_[0]`` (sign(0) = +1, as in the course).

        scikit-learn's linear models send an activation of exactly 0 to ``classes_[0]``;
        the course's h(x) = sign(w.x + b) with sign(0) = +1 sends it to ``classes_[1]``.
        """
        a = self.decision_function(X)
        return self.classes_[(predict_sign(a) > 0).astype(int)]
