"""perclib.losses: every loss against its formula worked by hand, every (sub)gradient against
central finite differences away from the kinks, and the names theory and sgd export against it."""

import math

import numpy as np
import pytest

from perclib import losses, sgd, theory

# (y, a, value): the losses of the notes, worked by hand
HAND = {
    "perceptron": [(1, -2.0, 2.0), (-1, 0.5, 0.5), (1, 3.0, 0.0), (1, 0.0, 0.0), (-1, -4.0, 0.0)],
    "hinge": [(1, 0.25, 0.75), (-1, 2.0, 3.0), (1, 1.0, 0.0), (1, 0.0, 1.0), (-1, -5.0, 0.0)],
    "logistic": [
        (1, 0.0, math.log(2.0)),
        (-1, 0.0, math.log(2.0)),
        (1, 1.0, 0.31326168751822286),  # log(1 + 1/e)
        (-1, 1.0, 1.3132616875182228),  # log(1 + e) = 1 + log(1 + 1/e)
        (1, -800.0, 800.0),  # log(1 + e^800) = 800 + log(1 + e^-800), no overflow
        (1, 800.0, 0.0),  # e^-800 is below the smallest double
    ],
    "zero_one": [(1, 0.0, 1.0), (-1, 0.0, 1.0), (1, 1e-300, 0.0), (-1, -2.0, 0.0), (1, -2.0, 1.0)],
}
KINK = {"perceptron": 0.0, "hinge": 1.0}
THEORY = {
    "perceptron": theory.perceptron_loss,
    "hinge": theory.hinge_loss,
    "logistic": theory.logistic_loss,
}


@pytest.mark.parametrize("loss", sorted(HAND))
def test_each_loss_is_its_formula_at_points_worked_by_hand(loss):
    y, a, expected = (np.array(c, dtype=float) for c in zip(*HAND[loss]))
    np.testing.assert_allclose(losses.loss_value(loss, y, a), expected, rtol=1e-15, atol=0)
    if loss in THEORY:
        own = getattr(losses, f"{loss}_loss")
        np.testing.assert_allclose(own(y, a), expected, rtol=1e-15, atol=0)


def test_logistic_loss_of_the_two_labels_differs_by_the_activation():
    # log(1 + e^a) - log(1 + e^-a) = a, for every a
    a = np.linspace(-30.0, 30.0, 121)
    ones = np.ones_like(a)
    diff = losses.loss_value("logistic", -ones, a) - losses.loss_value("logistic", ones, a)
    np.testing.assert_allclose(diff, a, rtol=1e-13, atol=1e-13)


def _away_from_the_kink(rng, loss, n, h):
    y = rng.choice([-1.0, 1.0], size=n)
    a = rng.normal(scale=3.0, size=n)
    if loss in KINK:
        keep = np.abs(y * a - KINK[loss]) > 100 * h
        y, a = y[keep], a[keep]
    return y, a


@pytest.mark.parametrize("loss", losses.LOSSES)
def test_derivative_is_the_central_difference_away_from_the_kink(loss):
    rng, h = np.random.default_rng(11), 1e-6
    y, a = _away_from_the_kink(rng, loss, 400, h)
    assert len(a) > 300
    fd = (losses.loss_value(loss, y, a + h) - losses.loss_value(loss, y, a - h)) / (2 * h)
    for at_zero in (0.0, 0.5, 1.0):  # the choice at the kink changes nothing away from it
        g = losses.loss_derivative(loss, y, a, at_zero=at_zero)
        np.testing.assert_allclose(g, fd, rtol=0, atol=1e-7)
    # the check can fail: the slope is not 0 everywhere (the losses are not flat)
    assert np.max(np.abs(fd)) > 0.5


def _data(rng, n=12, d=3):
    X = rng.normal(size=(n, d))
    y = np.where(rng.random(n) < 0.5, -1.0, 1.0)
    y[:2] = [-1.0, 1.0]  # both classes
    return X, y


def _gradient_by_differences(f, w, b, h=1e-6):
    gw = np.array([(f(w + h * e, b) - f(w - h * e, b)) / (2 * h) for e in np.eye(len(w))])
    return gw, (f(w, b + h) - f(w, b - h)) / (2 * h)


@pytest.mark.parametrize("loss", losses.LOSSES)
def test_subgradient_of_one_example_and_objective_are_central_differences(loss):
    rng = np.random.default_rng(12)
    X, y = _data(rng)
    checked = 0
    for _ in range(20):
        w, b = rng.normal(size=3), float(rng.normal())
        m = y * (X @ w + b)
        if loss in KINK and np.min(np.abs(m - KINK[loss])) < 1e-3:
            continue
        checked += 1
        for x, yi in zip(X, y):
            gw, gb = losses.subgradient(x, yi, w, b, loss=loss)
            fw, fb = _gradient_by_differences(
                lambda w_, b_, x=x, yi=yi: losses.loss_value(loss, [yi], [x @ w_ + b_])[0], w, b
            )
            np.testing.assert_allclose(gw, fw, rtol=0, atol=1e-7)
            assert gb == pytest.approx(fb, abs=1e-7)
        # the objective is the mean loss: its gradient is the mean of the examples' subgradients
        fw, fb = _gradient_by_differences(
            lambda w_, b_: losses.objective(X, y, w_, b_, loss=loss), w, b
        )
        parts = [losses.subgradient(x, yi, w, b, loss=loss) for x, yi in zip(X, y)]
        g = np.mean([np.append(gw, gb) for gw, gb in parts], axis=0)
        np.testing.assert_allclose(g, np.append(fw, fb), rtol=0, atol=1e-7)
    assert checked >= 5


def test_perceptron_subgradient_is_the_central_difference_of_the_criterion():
    rng = np.random.default_rng(13)
    X, y = _data(rng)
    checked = 0
    for _ in range(20):
        w, b = rng.normal(size=3), float(rng.normal())
        if np.min(np.abs(X @ w + b)) < 1e-3:
            continue
        checked += 1
        fw, fb = _gradient_by_differences(
            lambda w_, b_: losses.perceptron_criterion(X, y, w_, b_), w, b
        )
        for at_zero in (0.0, 1.0):
            gw, gb = losses.perceptron_subgradient(X, y, w, b, at_zero=at_zero)
            np.testing.assert_allclose(gw, fw, rtol=0, atol=1e-6)
            assert gb == pytest.approx(fb, abs=1e-6)
        assert np.linalg.norm(fw) > 0  # some point is on the wrong side
    assert checked >= 5


def test_criterion_and_its_subgradient_are_the_sums_of_the_examples():
    # perceptron_criterion = n * objective(loss="perceptron"), and perceptron_subgradient is the
    # sum of the one-example subgradients, with the same choice at the kink (w = 0: every example
    # is at the kink)
    rng = np.random.default_rng(14)
    X, y = _data(rng)
    for w, b in [(rng.normal(size=3), float(rng.normal())), (np.zeros(3), 0.0)]:
        n = len(y)
        assert losses.perceptron_criterion(X, y, w, b) == pytest.approx(
            n * losses.objective(X, y, w, b, loss="perceptron"), rel=1e-12, abs=1e-300
        )
        for at_zero in (0.0, 0.25, 1.0):
            gw, gb = losses.perceptron_subgradient(X, y, w, b, at_zero=at_zero)
            parts = [losses.subgradient(x, yi, w, b, at_zero=at_zero) for x, yi in zip(X, y)]
            np.testing.assert_allclose(gw, np.sum([p[0] for p in parts], 0), rtol=1e-12)
            assert gb == pytest.approx(sum(p[1] for p in parts), rel=1e-12, abs=1e-12)
    assert losses.perceptron_subgradient(X, y, np.zeros(3), 0.0, at_zero=1.0)[1] == -np.sum(y)


def _same(u, v):
    """Equal bit for bit: the same values, dtypes and signs of zero."""
    u, v = np.asarray(u), np.asarray(v)
    assert u.dtype == v.dtype and u.shape == v.shape
    np.testing.assert_array_equal(u, v)
    np.testing.assert_array_equal(np.signbit(u), np.signbit(v))


def test_theory_and_sgd_names_give_what_losses_gives():
    rng = np.random.default_rng(15)
    for _ in range(50):
        n = int(rng.integers(1, 9))
        y = rng.choice([-1.0, 1.0], size=n)
        a = np.where(rng.random(n) < 0.3, rng.choice([0.0, -0.0, 1.0, -1.0], n), rng.normal(size=n))
        for loss, f in THEORY.items():
            _same(f(y, a), losses.loss_value(loss, y, a))
        for loss in losses.ALL_LOSSES:
            _same(sgd.loss_value(loss, y, a), losses.loss_value(loss, y, a))
        for loss in losses.LOSSES:
            t = float(rng.random())
            _same(
                sgd.loss_derivative(loss, y, a, at_zero=t),
                losses.loss_derivative(loss, y, a, at_zero=t),
            )
        X, ys = _data(rng, n=max(n, 2), d=2)
        w, b = rng.normal(size=2), float(rng.normal())
        for loss in losses.LOSSES:
            _same(sgd.objective(X, ys, w, b, loss=loss), losses.objective(X, ys, w, b, loss=loss))
            for u, v in zip(
                sgd.subgradient(X[0], ys[0], w, b, loss=loss),
                losses.subgradient(X[0], ys[0], w, b, loss=loss),
            ):
                _same(u, v)
        _same(theory.perceptron_criterion(X, ys, w, b), losses.perceptron_criterion(X, ys, w, b))
        for u, v in zip(
            theory.perceptron_subgradient(X, ys, w, b, at_zero=0.5),
            losses.perceptron_subgradient(X, ys, w, b, at_zero=0.5),
        ):
            _same(u, v)
    assert sgd.LOSSES == losses.LOSSES and sgd.ALL_LOSSES == losses.ALL_LOSSES


def test_each_formula_is_written_once():
    # theory and sgd export perclib.losses' functions, not copies of them
    for name in ("perceptron_loss", "hinge_loss", "logistic_loss"):
        assert getattr(theory, name) is getattr(losses, name)
    for name in ("perceptron_criterion", "perceptron_subgradient"):
        assert getattr(theory, name) is getattr(losses, name)
    for name in ("loss_value", "loss_derivative", "subgradient", "objective"):
        assert getattr(sgd, name) is getattr(losses, name)


def test_a_zero_slope_is_a_plain_zero_for_every_loss():
    """A flat part of the perceptron and hinge losses (y = +1 past the kink) and the logistic's
    slope where sigma(-y a) underflows give 0.0, never -0.0 (which prints as "-0." in a table)."""
    for loss, a in (("perceptron", 3.0), ("hinge", 3.0), ("logistic", 800.0)):
        g = losses.loss_derivative(loss, [1], [a])
        assert g[0] == 0.0 and not np.signbit(g[0]), loss
    assert losses.loss_derivative("logistic", [1], [700.0])[0] < 0  # not yet underflowed


def test_the_losses_read_any_real_numbers_as_float64():
    """Labels, activations and weights given as Decimal or Fraction (real numbers numpy keeps as
    Python objects) are read as float64, as float input is: the same results, no TypeError from
    mixing a Decimal with a float."""
    from decimal import Decimal
    from fractions import Fraction

    X = np.array([[1.0, 2.0], [-1.0, 0.5], [0.5, -2.0]])
    y, a, w, b = [1, -1, 1], [0.5, -2.0, 3.0], [0.25, -0.5], 0.5
    for kind in (Decimal, Fraction):

        def real(values, kind=kind):
            return [kind(str(v)) for v in values]

        for loss in ("perceptron", "hinge", "logistic"):
            assert np.array_equal(
                losses.loss_value(loss, y, real(a)), losses.loss_value(loss, y, a)
            )
            assert np.array_equal(
                losses.loss_derivative(loss, y, real(a)), losses.loss_derivative(loss, y, a)
            )
            direct = getattr(losses, f"{loss}_loss")
            assert np.array_equal(direct(real(y), real(a)), direct(y, a)), loss
            assert losses.objective(X, y, real(w), b, loss=loss) == losses.objective(
                X, y, w, b, loss=loss
            )
            got, want = (losses.subgradient(X[0], 1, ws, b, loss=loss) for ws in (real(w), w))
            assert np.array_equal(got[0], want[0]) and got[1] == want[1]
        assert losses.perceptron_criterion(X, y, real(w), b) == losses.perceptron_criterion(
            X, y, w, b
        )
        got, want = (losses.perceptron_subgradient(X, y, ws, b) for ws in (real(w), w))
        assert np.array_equal(got[0], want[0]) and got[1] == want[1]
