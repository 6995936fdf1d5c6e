"""The losses of a linear classifier and their (sub)gradients, each written once.

Every loss is a function of the signed activation m = y*a, with a = w.x + b and y in {-1, +1}:

- ``"perceptron"``: max(0, -m), the perceptron loss. Summed over a data set it is the perceptron
  criterion (:func:`perceptron_criterion`), convex and piecewise linear.
- ``"hinge"``: max(0, 1 - m), the SVM's loss: the perceptron loss moved by a margin of 1.
- ``"logistic"``: log(1 + exp(-m)), the cross-entropy of the sigmoid sigma(a), in nats.
- ``"zero_one"``: 1 where m <= 0 (the margin rule's mistakes), else 0; for plots only, it has no
  useful subgradient (0 almost everywhere).

At a kink (m = 0 for the perceptron loss, m = 1 for the hinge) the subgradient set of the loss in
a is {-t y : 0 <= t <= 1}, and in (w, b) it is that times (x, 1); ``at_zero`` is the t chosen
there. The default t = 1 is the perceptron's choice: one SGD step on the example is then exactly
the update w += eta*y*x, b += eta*y of the margin rule.

:mod:`perclib.theory` (the perceptron loss and criterion) and :mod:`perclib.sgd` (the losses SGD
descends) export these same functions under the names they have always had.
"""

from __future__ import annotations

import numbers

import numpy as np

from . import _validation as V

#: The losses SGD can descend.
LOSSES = ("perceptron", "hinge", "logistic")
#: The losses :func:`loss_value` can evaluate (the SGD losses and the 0-1 loss).
ALL_LOSSES = LOSSES + ("zero_one",)
#: Where each loss with a kink has it, as a value of the signed activation y*a.
_KINKS = {"perceptron": 0.0, "hinge": 1.0}


# -- the formulas, in the signed activation m = y*a -----------------------------------------------


def _value(loss, m):
    """The loss ``loss`` (any of ALL_LOSSES) at the signed activations m = y*a (float64)."""
    if loss == "perceptron":
        return np.maximum(0.0, -m)
    if loss == "hinge":
        return np.maximum(0.0, 1.0 - m)
    if loss == "logistic":
        return np.logaddexp(0.0, -m)
    return (m <= 0).astype(np.float64)


def _slope(loss, y, m, at_zero):
    """dl/da = -t y at the signed activations m = y*a, with t = at_zero at a kink.

    The zeros keep their sign (-0.0 where y = +1 and t = 0): the callers decide.
    """
    if loss == "logistic":
        return -y * np.exp(-np.logaddexp(0.0, m))  # -y * sigma(-m), computed without overflow
    kink = _KINKS[loss]
    t = np.where(m < kink, 1.0, np.where(m == kink, at_zero, 0.0))
    return -t * y


# -- checks ---------------------------------------------------------------------------------------


def _check_loss(loss, allowed=LOSSES):
    return V.check_choice(loss, "loss", allowed)


def _check_at_zero(at_zero):
    if (
        isinstance(at_zero, bool)
        or not isinstance(at_zero, numbers.Real)
        or not 0.0 <= at_zero <= 1.0
    ):
        raise ValueError(
            f"at_zero must be a number in [0, 1], the subgradient set at the kink; got {at_zero!r}."
        )
    return float(at_zero)


def _signs(y, message="y must hold the labels -1 and +1 here."):
    """y as float64, after checking that it holds only -1 and +1 (else ValueError(message))."""
    y = np.asarray(y, dtype=np.float64)
    if not np.all(np.isin(y, (-1.0, 1.0))):
        raise ValueError(message)
    return y


def _binary_signs(X, y):
    """X checked, and y's two classes encoded as -1 and +1 (the larger is +1)."""
    X, y = V.check_X_y(X, y)
    classes = V.binary_classes(y, "this function")
    return X, V.encode_binary(y, classes)


def _single(X, y):
    # One class present (for example a single example): labels must already be -1/+1.
    X, y = V.check_X_y(X, y)
    return X, _signs(y, "With a single class present, y must hold -1 or +1.")


# -- elementwise losses ---------------------------------------------------------------------------


def perceptron_loss(y, a):
    """The perceptron loss max(0, -y*a) of activations ``a`` for labels y in {-1, +1}.

    >>> perceptron_loss([1, -1, 1], [2.0, 0.5, -3.0])
    array([0. , 0.5, 3. ])
    """
    y = _signs(y, "y must hold labels -1 and +1 for the perceptron loss.")
    return _value("perceptron", y * np.asarray(a, dtype=np.float64))


def hinge_loss(y, a):
    """The hinge loss max(0, 1 - y*a) (the SVM's): the perceptron loss moved by a margin of 1."""
    y = np.asarray(y, dtype=np.float64)
    return _value("hinge", y * np.asarray(a, dtype=np.float64))


def logistic_loss(y, a):
    """The logistic (cross-entropy) loss log(1 + exp(-y*a)) of a sigmoid output, in nats."""
    y = np.asarray(y, dtype=np.float64)
    return _value("logistic", y * np.asarray(a, dtype=np.float64))


def loss_value(loss, y, a):
    """The loss of activations ``a`` for labels ``y`` in {-1, +1}, elementwise.

    >>> loss_value("hinge", [1, -1], [1.5, -0.5])
    array([0. , 0.5])
    >>> loss_value("zero_one", [1, 1, -1], [0.0, -1.0, -1.0])
    array([1., 1., 0.])
    """
    _check_loss(loss, ALL_LOSSES)
    return _value(loss, _signs(y) * np.asarray(a, dtype=np.float64))


def loss_derivative(loss, y, a, *, at_zero=1.0):
    """A subgradient dl/da of the loss at the activation ``a`` (elementwise).

    At a kink (y a = 0 for the perceptron loss, y a = 1 for the hinge) the subgradient set is
    {-t y : 0 <= t <= 1}; ``at_zero`` is the t returned there.

    >>> loss_derivative("perceptron", [1, 1, 1], [-2.0, 0.0, 3.0])
    array([-1., -1.,  0.])
    >>> loss_derivative("perceptron", [1], [0.0], at_zero=0.5)
    array([-0.5])
    """
    _check_loss(loss)
    t0 = _check_at_zero(at_zero)
    return _derivative(loss, _signs(y), np.asarray(a, dtype=np.float64), t0)


def _derivative(loss, y, a, at_zero):
    """:func:`loss_derivative` of arguments already checked: y and a float64 arrays, y in
    {-1, +1}, at_zero a float in [0, 1]. LinearSGD's step calls it once per example."""
    g = _slope(loss, y, y * a, at_zero)
    # + 0.0 turns a -0.0 into 0.0: a flat part's (y = +1, t = 0), or the logistic's where
    # sigma(-y a) underflows (y a > 745)
    return g + 0.0


# -- one example, a data set ----------------------------------------------------------------------


def subgradient(x, y, w, b, *, loss="perceptron", at_zero=1.0):
    """A subgradient (g_w, g_b) of l(y, w.x + b) for one example: dl/da times (x, 1).

    >>> subgradient([1.0, 2.0], 1, [0.0, 0.0], 0.0)
    (array([-1., -2.]), -1.0)
    """
    x = np.asarray(x, dtype=np.float64)
    w = np.asarray(w, dtype=np.float64)
    if x.ndim != 1 or w.shape != x.shape:
        raise ValueError(
            f"x and w must be 1-D of the same length; got shapes {x.shape} and {w.shape}."
        )
    g = float(loss_derivative(loss, [y], [float(w @ x) + float(b)], at_zero=at_zero)[0])
    return g * x, g


def objective(X, y, w, b, *, loss="perceptron"):
    """The mean loss (1/n) sum_i l(y_i, w.x_i + b) over a data set (y in {-1, +1}).

    >>> objective([[1.0], [-1.0]], [1, -1], [1.0], 0.0, loss="hinge")
    0.0
    """
    X = V.check_array(X)
    y = V.check_y(y, X.shape[0])
    return float(np.mean(loss_value(loss, y, X @ np.asarray(w, dtype=np.float64) + float(b))))


def perceptron_criterion(X, y, w, b):
    """The perceptron criterion L(w, b) = sum_i max(0, -y_i (w.x_i + b));
    convex and piecewise linear."""
    X, ys = _binary_signs(X, y)
    return float(np.sum(_value("perceptron", ys * (X @ np.asarray(w, dtype=np.float64) + b))))


def perceptron_subgradient(X, y, w, b, *, at_zero=1.0):
    """A subgradient (g_w, g_b) of the perceptron criterion at (w, b).

    Each term max(0, -y a) has gradient -y (x, 1) where y a < 0, 0 where y a > 0, and at y a = 0 the
    subgradient set {-t y (x, 1) : 0 <= t <= 1}. ``at_zero`` is the t chosen there; the default 1
    is the perceptron's choice, so one SGD step (w, b) -= eta * g on a single example is exactly
    the update w += eta*y*x, b += eta*y of the margin rule.

    >>> perceptron_subgradient([[1.0, 2.0]], [1], w=[0.0, 0.0], b=0.0)
    (array([-1., -2.]), -1.0)
    """
    X, ys = _binary_signs(X, y) if len(np.unique(np.asarray(y))) == 2 else _single(X, y)
    if not 0.0 <= at_zero <= 1.0:
        raise ValueError(
            f"at_zero must lie in [0, 1], the subgradient set at the kink; got {at_zero!r}."
        )
    w = np.asarray(w, dtype=np.float64)
    coef = _slope("perceptron", ys, ys * (X @ w + b), at_zero)
    return coef @ X, float(coef.sum())
